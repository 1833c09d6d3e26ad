"""Rule coverage: for every validation a CRD's schema states, did some case make it pass, and some make it fail?

The validations counted, per CRD version a case used:

* every ``x-kubernetes-validations`` rule: its outcome is what the apiserver's evaluation gave
  (:data:`crdtool.core.crdcel.validation.RULE_OBSERVER` reports each evaluation: true, false, false but
  ratcheted, a runtime error; a transition rule skipped on a create counts as neither);
* every ``pattern``, ``enum``, bound (``minimum``, ``maximum``, ``minLength``, ``maxLength``, ``minItems``,
  ``maxItems``, ``minProperties``, ``maxProperties``, ``multipleOf``) and each name in ``required``: its
  outcome is the constraint checked on each value of the object as stored (pruned, defaulted) that the node
  describes, walking ``properties``, ``additionalProperties``, ``items`` and ``allOf``.

The expressions of the admission policies an admission case meets (the suite's ``objects``): each
ValidatingAdmissionPolicy ``validations[].expression`` and ``matchConditions[].expression``, each
MutatingAdmissionPolicy ``mutations[]`` expression and ``matchConditions[].expression``, as the admission chain
evaluated them (:data:`crdtool.core.admission.policy.observer.EXPRESSION_OBSERVER`).

A validation is *covered* when some case made it pass and some case made it fail; a policy expression when some
case evaluated it. The percentage is over all validations of the versions used and all policy expressions. Each item knows where it is written (``file:line`` of the CRD
manifest), so the report can point at the rules no case ever failed.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Any, Iterator

__all__ = ["Coverage", "CoverageItem", "ItemIndex", "POLICY_KINDS", "SCHEMA_KINDS", "constraint_outcomes",
           "index_policies", "index_version", "schema_root"]

#: The schema keywords counted besides CEL rules.
SCHEMA_KINDS = (
    "pattern", "enum", "minimum", "maximum", "minLength", "maxLength", "minItems", "maxItems", "minProperties",
    "maxProperties", "multipleOf", "required",
)

#: The kinds of policy expressions counted (covered when evaluated).
POLICY_KINDS = ("validation", "matchCondition", "mutation")
_POLICY_DOCS = ("ValidatingAdmissionPolicy", "MutatingAdmissionPolicy")


@dataclass(frozen=True)
class CoverageItem:
    """One validation: ``kind`` (``rule`` or a schema keyword), where it is (``file``, ``line``, the manifest
    ``path``), and a short ``text`` (the rule, the pattern, ``>= 1``, ``required spec``). A policy expression
    (``kind`` one of :data:`POLICY_KINDS`): ``crd`` is the policy's name, ``version`` its kind."""

    key: str
    kind: str
    crd: str
    version: str
    file: str
    line: int
    path: str
    text: str
    message: str = ""


@dataclass
class ItemIndex:
    """The validations of one CRD version: rules by the identity of their rule dict, and schema constraints."""

    items: dict[str, CoverageItem] = field(default_factory=dict)
    rules: dict[int, str] = field(default_factory=dict)
    #: policy expressions: (policy kind, policy name, manifest path) -> item key
    expressions: dict[tuple[str, str, str], str] = field(default_factory=dict)
    #: keeps the rule dicts alive, so that their ids stay theirs
    _keep: list[Any] = field(default_factory=list)


def schema_root(manifest: dict[str, Any], version: str) -> str | None:
    spec = manifest.get("spec") if isinstance(manifest.get("spec"), dict) else {}
    versions = spec.get("versions") if isinstance(spec.get("versions"), list) else []
    for i, v in enumerate(versions):
        if isinstance(v, dict) and v.get("name") == version:
            schema = v.get("schema")
            if isinstance(schema, dict) and isinstance(schema.get("openAPIV3Schema"), dict):
                return f"spec.versions[{i}].schema.openAPIV3Schema"
    validation = spec.get("validation")
    if isinstance(validation, dict) and isinstance(validation.get("openAPIV3Schema"), dict):
        return "spec.validation.openAPIV3Schema"
    return None


def _short(text: str, width: int = 100) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= width else text[: width - 1] + "…"


def index_version(schema: dict[str, Any] | None, manifest: dict[str, Any], crd_name: str, version: str, file: str,
                  position: Any) -> ItemIndex:
    """Every validation of ``schema`` (the version's decoded ``openAPIV3Schema``) with its place in ``manifest``.

    ``position(path)`` gives ``(line, column)`` of a manifest path (``Document.position``).
    """
    out = ItemIndex()
    root = schema_root(manifest, version)
    if schema is None or root is None:
        return out
    for node_path, node in _walk_schema(schema, root):
        for j, rule in enumerate(node.get("x-kubernetes-validations") or ()):
            if not isinstance(rule, dict):
                continue
            path = f"{node_path}.x-kubernetes-validations[{j}]"
            key = f"{file}#{crd_name}/{version}:{path}"
            out.items[key] = CoverageItem(key, "rule", crd_name, version, file, _line(position, f"{path}.rule"), path,
                                          _short(str(rule.get("rule", ""))), _short(str(rule.get("message") or "")))
            out.rules[id(rule)] = key
            out._keep.append(rule)
        for kind, text in _constraints(node):
            path = f"{node_path}.{kind}" if not kind.startswith("required") else f"{node_path}.required"
            key = f"{file}#{crd_name}/{version}:{node_path}.{kind}"
            out.items[key] = CoverageItem(key, kind.split("[")[0], crd_name, version, file, _line(position, path),
                                          path, text)
    return out


def index_policies(objects: list[Any]) -> ItemIndex:
    """The expressions of the ValidatingAdmissionPolicies and MutatingAdmissionPolicies among ``objects`` (``Document``
    values or look-alikes: ``file``, ``data``, ``position(path)``); a policy named twice counts once (the first)."""
    out = ItemIndex()
    for doc in objects:
        data = doc.data
        kind = data.get("kind")
        meta = data.get("metadata") if isinstance(data.get("metadata"), dict) else {}
        spec = data.get("spec") if isinstance(data.get("spec"), dict) else {}
        name = str(meta.get("name") or "")
        if kind not in _POLICY_DOCS or not str(data.get("apiVersion", "")).startswith("admissionregistration.k8s.io/"):
            continue
        found: list[tuple[str, str, Any]] = []
        if kind == "ValidatingAdmissionPolicy":
            for i, v in enumerate(spec.get("validations") or []):
                if isinstance(v, dict):
                    found.append(("validation", f"spec.validations[{i}].expression", v.get("expression")))
        else:
            for i, m in enumerate(spec.get("mutations") or []):
                if not isinstance(m, dict):
                    continue
                for key in ("applyConfiguration", "jsonPatch"):
                    if isinstance(m.get(key), dict):
                        found.append(("mutation", f"spec.mutations[{i}].{key}.expression", m[key].get("expression")))
        for i, c in enumerate(spec.get("matchConditions") or []):
            if isinstance(c, dict):
                found.append(("matchCondition", f"spec.matchConditions[{i}].expression", c.get("expression")))
        for item_kind, path, expression in found:
            where = (str(kind), name, path)
            if where in out.expressions:
                continue
            key = f"{doc.file}#{kind}/{name}:{path}"
            out.items[key] = CoverageItem(key, item_kind, name, str(kind), doc.file, _line(doc.position, path), path,
                                          _short(str(expression or "")))
            out.expressions[where] = key
    return out


def _line(position: Any, path: str) -> int:
    try:
        pos = position(path)
    except Exception:  # noqa: BLE001 - a position is a convenience; never fail a run for it
        pos = None
    return pos[0] if pos else 0


def _constraints(node: dict[str, Any]) -> Iterator[tuple[str, str]]:
    if isinstance(node.get("pattern"), str):
        yield "pattern", _short(f"pattern '{node['pattern']}'")
    if isinstance(node.get("enum"), list):
        yield "enum", _short("enum " + ", ".join(json.dumps(v) for v in node["enum"]))
    for kind, op in (("minimum", ">="), ("maximum", "<=")):
        if _number(node.get(kind)):
            exclusive = node.get(f"exclusive{kind[0].upper()}{kind[1:]}") is True
            yield kind, f"{op.rstrip('=') if exclusive else op} {_num(node[kind])}"
    for kind in ("minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties"):
        if isinstance(node.get(kind), int) and not isinstance(node.get(kind), bool):
            yield kind, f"{kind} {node[kind]}"
    if _number(node.get("multipleOf")):
        yield "multipleOf", f"multipleOf {_num(node['multipleOf'])}"
    required = node.get("required")
    if isinstance(required, list):
        for name in required:
            if isinstance(name, str):
                yield f"required[{name}]", f"required {name}"


def _num(value: Any) -> str:
    return str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _walk_schema(schema: dict[str, Any], path: str) -> Iterator[tuple[str, dict[str, Any]]]:
    stack = [(path, schema)]
    while stack:
        p, node = stack.pop()
        yield p, node
        children: list[tuple[str, dict[str, Any]]] = []
        props = node.get("properties")
        if isinstance(props, dict):
            children.extend((f"{p}.properties[{k}]", v) for k, v in props.items() if isinstance(v, dict))
        if isinstance(node.get("items"), dict):
            children.append((f"{p}.items", node["items"]))
        if isinstance(node.get("additionalProperties"), dict):
            children.append((f"{p}.additionalProperties", node["additionalProperties"]))
        for junctor in ("allOf", "anyOf", "oneOf"):
            if isinstance(node.get(junctor), list):
                children.extend((f"{p}.{junctor}[{i}]", v) for i, v in enumerate(node[junctor]) if isinstance(v, dict))
        if isinstance(node.get("not"), dict):
            children.append((f"{p}.not", node["not"]))
        stack.extend(reversed(children))


# --------------------------------------------------------------------------------------------------
# Schema constraints on an object


def constraint_outcomes(schema: dict[str, Any] | None, obj: Any, root: str) -> Iterator[tuple[str, bool]]:
    """``(node path + "." + kind, held)`` for each schema constraint checked on each value of ``obj``.

    Node paths are those :func:`index_version` gives (``root`` is the manifest path of the schema). Walks
    ``properties``, ``additionalProperties``, ``items`` and ``allOf`` (whose branches all apply);
    ``anyOf``/``oneOf``/``not`` branches are not counted.
    """
    if schema is None:
        return
    stack: list[tuple[str, dict[str, Any], Any]] = [(root, schema, obj)]
    while stack:
        p, node, value = stack.pop()
        yield from _check(p, node, value)
        for i, sub in enumerate(node.get("allOf") or ()):
            if isinstance(sub, dict):
                stack.append((f"{p}.allOf[{i}]", sub, value))
        if isinstance(value, dict):
            props = node.get("properties") if isinstance(node.get("properties"), dict) else {}
            extra = node.get("additionalProperties") if isinstance(node.get("additionalProperties"), dict) else None
            for k, v in value.items():
                if k in props and isinstance(props[k], dict):
                    stack.append((f"{p}.properties[{k}]", props[k], v))
                elif extra is not None:
                    stack.append((f"{p}.additionalProperties", extra, v))
        elif isinstance(value, list) and isinstance(node.get("items"), dict):
            for v in value:
                stack.append((f"{p}.items", node["items"], v))


def _check(p: str, node: dict[str, Any], value: Any) -> Iterator[tuple[str, bool]]:  # noqa: C901
    if value is None:
        return
    if isinstance(value, str):
        if isinstance(node.get("pattern"), str):
            from crdtool.core.validation.value_validation import compile_go_regexp

            rx = compile_go_regexp(node["pattern"])
            if not isinstance(rx, str):
                yield f"{p}.pattern", rx.search(value)
        if isinstance(node.get("minLength"), int):
            yield f"{p}.minLength", len(value) >= node["minLength"]
        if isinstance(node.get("maxLength"), int):
            yield f"{p}.maxLength", len(value) <= node["maxLength"]
    if _number(value):
        for kind in ("minimum", "maximum"):
            bound = node.get(kind)
            if _number(bound):
                exclusive = node.get(f"exclusive{kind[0].upper()}{kind[1:]}") is True
                if kind == "minimum":
                    ok = value > bound if exclusive else value >= bound
                else:
                    ok = value < bound if exclusive else value <= bound
                yield f"{p}.{kind}", bool(ok)
        factor = node.get("multipleOf")
        if _number(factor) and factor:
            q = value / factor
            yield f"{p}.multipleOf", math.isfinite(q) and float(q).is_integer()
    if isinstance(node.get("enum"), list):
        canon = _canonical(value)
        yield f"{p}.enum", any(_canonical(v) == canon for v in node["enum"])
    if isinstance(value, list):
        if isinstance(node.get("minItems"), int):
            yield f"{p}.minItems", len(value) >= node["minItems"]
        if isinstance(node.get("maxItems"), int):
            yield f"{p}.maxItems", len(value) <= node["maxItems"]
    if isinstance(value, dict):
        if isinstance(node.get("minProperties"), int):
            yield f"{p}.minProperties", len(value) >= node["minProperties"]
        if isinstance(node.get("maxProperties"), int):
            yield f"{p}.maxProperties", len(value) <= node["maxProperties"]
        for name in node.get("required") or ():
            if isinstance(name, str):
                yield f"{p}.required[{name}]", name in value


def _canonical(value: Any) -> str:
    """JSON equality as the apiserver compares enum values (``1`` is ``1.0``; ``true`` is not ``1``)."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    try:
        return json.dumps(value, sort_keys=True)
    except (TypeError, ValueError):
        return repr(value)


# --------------------------------------------------------------------------------------------------
# Accounting


@dataclass
class Coverage:
    """What a run made pass and fail, over the validations of the CRD versions its cases used."""

    items: dict[str, CoverageItem] = field(default_factory=dict)
    passed: dict[str, list[str]] = field(default_factory=dict)
    failed: dict[str, list[str]] = field(default_factory=dict)

    def add_items(self, index: ItemIndex) -> None:
        for key, item in index.items.items():
            self.items.setdefault(key, item)

    def record(self, key: str, held: bool, case: str) -> None:
        bucket = self.passed if held else self.failed
        cases = bucket.setdefault(key, [])
        if not cases or cases[-1] != case:
            cases.append(case)

    def covered(self, key: str) -> bool:
        item = self.items.get(key)
        if item is not None and item.kind in POLICY_KINDS:
            return key in self.passed or key in self.failed
        return key in self.passed and key in self.failed

    def percent(self, kinds: tuple[str, ...] | None = None) -> float:
        keys = [k for k, i in self.items.items() if kinds is None or i.kind in kinds]
        if not keys:
            return 100.0
        return 100.0 * sum(self.covered(k) for k in keys) / len(keys)

    def rows(self) -> list[dict[str, Any]]:
        """One row per validation, in manifest order: the JSON shape of ``--coverage``."""
        out = []
        for item in sorted(self.items.values(), key=lambda i: (i.file, i.crd, i.version, i.line, i.path)):
            if item.kind in POLICY_KINDS:
                out.append({
                    "kind": item.kind, "policy": item.crd, "policyKind": item.version, "file": item.file,
                    "line": item.line, "path": item.path, "text": item.text,
                    "passedBy": self.passed.get(item.key, [])[:3], "failedBy": self.failed.get(item.key, [])[:3],
                    "covered": self.covered(item.key),
                })
                continue
            out.append({
                "kind": item.kind, "crd": item.crd, "version": item.version, "file": item.file, "line": item.line,
                "path": item.path, "text": item.text, "passedBy": self.passed.get(item.key, [])[:3],
                "failedBy": self.failed.get(item.key, [])[:3], "covered": self.covered(item.key),
            })
        return out
