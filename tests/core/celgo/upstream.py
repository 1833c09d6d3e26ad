"""Loading the upstream CEL test data (tests/core/cel_upstream) and replicating upstream's harnesses.

The YAML files are transcriptions of upstream tests (see their README.md);
this module builds what those harnesses build: the environments, the proto
type registry of cel-go's tests, and the test size estimators.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Any

import yaml

from crdtool.core.celgo import types as T
from crdtool.core.celgo.checker import NoStructs
from crdtool.core.celgo.cost import AstNode, CallEstimate, CostEstimate, SizeEstimate, node_size

DATA = Path(__file__).resolve().parent.parent / "cel_upstream"


@functools.lru_cache(maxsize=None)
def load(name: str) -> dict[str, Any]:
    with open(DATA / name, encoding="utf-8") as f:
        # the C loader: these files are large, and the pure-Python one cost ~15 s of collection
        doc = yaml.load(f, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    assert isinstance(doc, dict)
    return doc


def squash(s: str | None) -> str:
    """cel-go ``test.Compare``: spaces, tabs and newlines removed."""
    return re.sub(r"[ \t\n\r]", "", s or "")


def case_id(c: dict[str, Any]) -> str:
    src = c["source"]
    return f"{src['test']}:{src['line']}:{c.get('name') or c.get('subtest') or src.get('case')}"


_DEFAULT = NoStructs()


class ProtoProvider:
    """cel-go's proto registry for the test messages, from proto_types_celgo.yaml."""

    def __init__(self, files: tuple[str, ...] | None = None) -> None:
        doc = load("proto_types_celgo.yaml")
        self.fields: dict[str, dict[str, T.Type]] = {}
        for name, msg in doc["messages"].items():
            if files is not None and not any(msg["file"].endswith(f) for f in files):
                continue
            self.fields[name] = {f: T.parse_type(t) for f, t in (msg.get("fields") or {}).items()}
        enums = doc.get("enum_constants") or {}
        self.enums = {k for k in enums if files is None or any(k.startswith(_pkg(f)) for f in files)}

    def find_struct_type(self, name: str) -> T.Type | None:
        if name in self.fields:
            return T.object_type(name)
        return _DEFAULT.find_struct_type(name)

    def find_struct_field_type(self, struct_name: str, field_name: str) -> T.Type | None:
        if struct_name in self.fields:
            return self.fields[struct_name].get(field_name)
        return _DEFAULT.find_struct_field_type(struct_name, field_name)

    def find_enum_value(self, name: str) -> bool:
        return name in self.enums or _DEFAULT.find_enum_value(name)


def _pkg(file: str) -> str:
    return "google.expr.proto3.test." if "proto3" in file else "google.expr.proto2.test."


class CelGoCostEstimator:
    """cel-go checker/cost_test.go ``testCostEstimator``."""

    def __init__(self, hints: dict[str, int]) -> None:
        self.hints = hints

    def estimate_size(self, node: AstNode) -> SizeEstimate | None:
        path = node.path or ()
        hint = self.hints.get(".".join(path))
        if hint is not None:
            return SizeEstimate(0, hint)
        if node.type == T.BYTES:
            return SizeEstimate(0, 12)
        return None

    def estimate_call_cost(
        self, function: str, overload_id: str, target: AstNode | None, args: list[AstNode]
    ) -> CallEstimate | None:
        if overload_id == "timestamp_to_year":
            return CallEstimate(CostEstimate(7, 7))
        return None


def test_contains_string_product(est: Any, target: AstNode | None, args: list[AstNode]) -> CallEstimate | None:
    """The ``str concat custom cost estimate`` case's ``OverloadCostEstimate``."""
    if target is not None and len(args) == 1:
        str_size = node_size(est, target).multiply_by_cost_factor(0.2)
        sub_size = node_size(est, args[0]).multiply_by_cost_factor(0.2)
        return CallEstimate(str_size.multiply(sub_size))
    return None


def test_list_bytes_max(est: Any, target: AstNode | None, args: list[AstNode]) -> CallEstimate | None:
    """The ``bytes list max`` case's ``OverloadCostEstimate``."""
    if target is None:
        return None
    el_cost = CostEstimate(1, 1)
    if target.type.params:
        path = target.path
        el = AstNode(None if path is None else (*path, "@items"), target.type.params[0], None, None)
        if el.type.kind in (T.Kind.STRING, T.Kind.BYTES):
            el_cost = el_cost.add(node_size(est, el).multiply_by_cost_factor(0.1))
    return CallEstimate(node_size(est, target).multiply_by_cost(el_cost))


TEST_OVERLOAD_ESTIMATORS = {
    "test_contains_string_product": test_contains_string_product,
    "test_list_bytes_max": test_list_bytes_max,
}
test_contains_string_product.__test__ = False  # type: ignore[attr-defined]
test_list_bytes_max.__test__ = False  # type: ignore[attr-defined]


class K8sLibraryTestSizeEstimator:
    """k8s.io/apiserver library cost_test.go ``testCostEstimator``: strings and bytes -> [0, 12]."""

    def estimate_size(self, node: AstNode) -> SizeEstimate | None:
        t = node.type
        if t is not None and t.kind in (T.Kind.STRING, T.Kind.BYTES) and not t.nullable:
            return SizeEstimate(0, 12)
        return None
