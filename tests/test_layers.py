"""The house's layers: every import of the package runs down the table below, never up, never in a circle.

Imports are read from the source (``import``/``from ... import`` anywhere in a module: at the top, inside
functions, under ``TYPE_CHECKING``), so a lazy import counts as much as an eager one. ``ARCHITECTURE.md``
draws the same table.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "crdtool"

#: The layers, bottom first: a module may import its own layer and the ones below. The first prefix that
#: matches a module (longest first) gives its layer.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("crdtool._compiled", "crdtool.core"),
    # Go's standard library and apimachinery, ported
    ("crdtool.core.gojson", "crdtool.core.gotime", "crdtool.core.gostd", "crdtool.core.errors", "crdtool.core.gourl",
     "crdtool.core.snapshot", "crdtool.core._snapshot", "crdtool.core.content_memo", "crdtool.core.versions", "crdtool.core.validation_util",
     "crdtool.core.objectmeta", "crdtool.core.webhook", "crdtool.core.storage", "crdtool.core.apistatus",
     "crdtool.core.quantity", "crdtool.core.label_selector"),
    ("crdtool.core.celgo",),  # github.com/google/cel-go
    ("crdtool.core.schema",),  # apiextensions pkg/apiserver/schema: structural schemas
    ("crdtool.core.kubecel",),  # k8s.io/apiserver/pkg/cel
    ("crdtool.core.crdcel", "crdtool.core.validation"),  # apiextensions schema/cel and pkg/apiserver/validation
    ("crdtool.core.crd",),  # CustomResourceDefinitions
    ("crdtool.core.customresource",),  # custom resources
    ("crdtool.core.builtin",),  # built-in kinds: schema data per release, strict decoding, serving
    ("crdtool.core.apis",),  # built-in kinds: pkg/apis/<group> validation and defaults
    ("crdtool.core.registry", "crdtool.core.bundle"),  # built-ins: strategies, the create path; checks across a bundle
    ("crdtool.core.auth",),  # authorization: the RBAC authorizer, bootstrap policy, the authorizer chain
    ("crdtool.core.admission",),  # the admission chain: policy plugins (k8s.io/apiserver/pkg/admission)
    ("crdtool.core.conversion_review", "crdtool.core.json_schema", "crdtool.core.fuzz", "crdtool.core.lint"),
    ("crdtool.yaml",),  # manifests as text
    ("crdtool.docs",),  # API references: docs pages and explain (Jinja2, markdown-it-py)
    ("crdtool", "crdtool.loading", "crdtool.testing"),  # the public API; test suites of CRD rules
    ("crdtool.server",),
    ("crdtool.cli", "crdtool.__main__"),
)


def _modules() -> dict[str, Path]:
    out: dict[str, Path] = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _imports(path: Path, module: str, modules: dict[str, Path]) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("crdtool"))
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            if not base.startswith("crdtool"):
                continue
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                found.add(sub if sub in modules else base)
    return {name for name in found if name != module}


def layer_of(module: str) -> int:
    best, best_len = -1, -1
    for index, prefixes in enumerate(LAYERS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > best_len:
                best, best_len = index, len(prefix)
    return best


def graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: {t for t in _imports(path, name, modules)} for name, path in modules.items()}


def test_every_module_has_a_layer() -> None:
    assert [m for m in _modules() if layer_of(m) < 0] == []


def test_no_import_runs_up() -> None:
    upward = sorted(
        f"{src} (layer {layer_of(src)}) imports {dst} (layer {layer_of(dst)})"
        for src, targets in graph().items() for dst in targets if layer_of(dst) > layer_of(src)
    )
    assert upward == []


def _cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    out: list[list[str]] = []
    counter = 0
    for root in sorted(edges):
        if root in index:
            continue
        work: list[tuple[str, list[str]]] = [(root, sorted(edges.get(root, ())))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, todo = work[-1]
            if todo:
                nxt = todo.pop()
                if nxt not in edges:
                    continue
                if nxt not in index:
                    index[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, sorted(edges.get(nxt, ()))))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    top = stack.pop()
                    on_stack.discard(top)
                    component.append(top)
                    if top == node:
                        break
                if len(component) > 1:
                    out.append(sorted(component))
    return out


def test_no_import_circles() -> None:
    assert _cycles(graph()) == []


@pytest.mark.parametrize(
    ("edges", "expected"),
    [
        ({"a": {"b"}, "b": {"a"}}, [["a", "b"]]),
        ({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}, [["a", "b", "c"]]),
        ({"a": {"b"}, "b": set()}, []),
    ],
)
def test_the_cycle_finder_finds_cycles(edges: dict[str, set[str]], expected: list[list[str]]) -> None:
    assert _cycles(edges) == expected


def test_layer_lookup_prefers_the_longest_prefix() -> None:
    assert layer_of("crdtool.core.celgo.parser") == 2
    assert layer_of("crdtool.cli.app") == len(LAYERS) - 1
    assert layer_of("crdtool") == layer_of("crdtool.loading")
