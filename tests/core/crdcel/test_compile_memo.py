"""compile_rules' memo (crdtool/core/crdcel/compilation.py): the same results as compiling afresh.

The memo is keyed by the rule, :func:`decl_type_digest` of its type and the
environments. These tests compile every upstream compilation and cost case
(tests/core/cel_upstream/compile_k8s.yaml) with and without the memo, in one
order, so that a digest missing a size or a field would hand a later case an
earlier case's cost; and they check the digest on hand-made types.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from crdtool.core.celgo.env import Environment
from crdtool.core.kubecel.environment import KUBERNETES, kubernetes_environment
from crdtool.core.crdcel import compilation as cel_compile
from crdtool.core.crdcel.compilation import CompilationResult, RuleSource, compile_rules, decl_type_digest
from crdtool.core.kubecel.decltype import DeclType, schema_decl_type
from crdtool.core.schema.structural import new_structural
from tests.core.celgo.upstream import load

DOC = load("compile_k8s.yaml")


MEMO = cel_compile._COMPILED  # (cel_compile may be mypyc-compiled: its memo is used, not replaced)


def _fresh(rules: list[RuleSource], decl: DeclType, env: Environment = KUBERNETES) -> list[CompilationResult]:
    """compile_rules with nothing remembered from before."""
    MEMO.clear()
    return compile_rules(rules, decl, env)


def _decl(schema: dict[str, Any]) -> DeclType:
    decl = schema_decl_type(new_structural(schema), False)
    assert decl is not None
    return decl


def _rules(schema: dict[str, Any]) -> list[RuleSource]:
    return [RuleSource.of(r) for r in schema.get("x-kubernetes-validations") or []]


def _all_schemas() -> list[dict[str, Any]]:
    out = [c["schema"] for c in DOC["compilation_cases"]]
    for c in DOC["cost_estimation_cases"]:
        out += [c["calc_max_length"]["schema"], c["set_max_length"]["schema"]]
    return out


def test_memo_agrees_with_fresh_compilation() -> None:
    schemas = _all_schemas()
    assert len(schemas) > 100
    fresh = [_fresh(_rules(s), _decl(s)) for s in schemas]
    MEMO.clear()
    memoized = [compile_rules(_rules(s), _decl(s), KUBERNETES) for s in schemas]
    again = [compile_rules(_rules(s), _decl(s), KUBERNETES) for s in schemas]
    assert memoized == fresh
    assert again == fresh
    # the second pass was served from the memo: the very same result objects
    assert all(a is m for ra, rm in zip(again, memoized) for a, m in zip(ra, rm))
    # and the fresh pass was not: a schema's results are new objects after clear()
    assert not any(a is m for ra, rm in zip(fresh, memoized) for a, m in zip(ra, rm))


def test_cost_follows_max_items() -> None:
    MEMO.clear()
    rule = [RuleSource("self.all(x, x.startsWith('a'))")]

    def schema(max_items: int) -> dict[str, Any]:
        return {"type": "array", "maxItems": max_items, "items": {"type": "string", "maxLength": 8}}

    small = compile_rules(rule, _decl(schema(10)), KUBERNETES)[0]
    large = compile_rules(rule, _decl(schema(1000)), KUBERNETES)[0]
    assert small.max_cost < large.max_cost
    assert _fresh(rule, _decl(schema(1000)))[0] == large


def test_environment_is_part_of_the_key() -> None:
    MEMO.clear()
    decl = _decl({"type": "string"})
    rule = [RuleSource("self.size() > 0")]
    a = compile_rules(rule, decl, KUBERNETES)[0]
    # an equal environment is the same key (compared by value)
    assert compile_rules(rule, decl, kubernetes_environment())[0] is a
    # one without a library the rule uses is not
    c = compile_rules(rule, decl, kubernetes_environment(libraries=("stdlib",)))[0]
    assert c == a and c is not a
    d = compile_rules([RuleSource("self.size() > 0 && [1].isSorted()")], decl, KUBERNETES)[0]
    e = compile_rules([RuleSource("self.size() > 0 && [1].isSorted()")], decl,
                      kubernetes_environment(libraries=tuple(x for x in KUBERNETES.libraries if x != "k8s.lists")))[0]
    assert d.error is None and e.error is not None and "isSorted" in e.error[1]


OBJECT = {
    "type": "object",
    "required": ["a"],
    "properties": {
        "a": {"type": "string", "maxLength": 5},
        "b": {"type": "array", "maxItems": 3, "items": {"type": "integer"}},
        "c": {"type": "object", "additionalProperties": {"type": "boolean"}, "maxProperties": 4},
    },
}


def _changed(path: list[str], value: Any) -> dict[str, Any]:
    out = copy.deepcopy(OBJECT)
    node: Any = out
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = value
    return out


@pytest.mark.parametrize(
    ("path", "value"),
    [
        (["required"], ["b"]),
        (["properties", "a", "maxLength"], 6),
        (["properties", "a", "type"], "integer"),
        (["properties", "b", "maxItems"], 4),
        (["properties", "b", "items", "type"], "number"),
        (["properties", "c", "maxProperties"], 5),
        (["properties", "c", "additionalProperties", "type"], "string"),
        (["properties", "d"], {"type": "string"}),
    ],
)
def test_digest_sees_every_difference(path: list[str], value: Any) -> None:
    assert decl_type_digest(_decl(OBJECT)) == decl_type_digest(_decl(copy.deepcopy(OBJECT)))
    assert decl_type_digest(_decl(OBJECT)) != decl_type_digest(_decl(_changed(path, value)))


def test_digest_of_a_deep_type() -> None:
    schema: dict[str, Any] = {"type": "string"}
    for _ in range(5000):
        schema = {"type": "object", "properties": {"x": schema}}
    assert len(decl_type_digest(_decl(schema))) == 16


def _subtypes(decl: DeclType) -> list[DeclType]:
    """Every type of ``decl``'s tree, the root first, then depth first (fields, key, element)."""
    out: list[DeclType] = []
    stack = [decl]
    while stack:
        t = stack.pop()
        out.append(t)
        stack.extend(reversed([f.type for f in (t.fields or {}).values()] + [c for c in (t.key_type, t.elem_type) if c]))
    return out


def test_a_shared_digest_table_gives_each_type_its_own_digest() -> None:
    """decl_type_digest with the table the contexts of one schema share (issue #28) against a fresh digest of
    each type: asked in both orders (root first, so that subtrees are found in the table; leaves first), for every
    type of every upstream compilation schema, the table kept across the schemas."""
    table: dict[int, tuple[DeclType, bytes]] = {}
    seen = 0
    for schema in _all_schemas():
        types = _subtypes(_decl(schema))
        for order in (types, list(reversed(types))):
            for t in order:
                assert decl_type_digest(t, table) == decl_type_digest(t)
                seen += 1
        assert id(types[0]) in table
    assert seen > 500
    # a changed size or field makes another digest, also through a table that has seen the first
    a = _decl({"type": "object", "properties": {"s": {"type": "string", "maxLength": 5}}})
    b = _decl({"type": "object", "properties": {"s": {"type": "string", "maxLength": 6}}})
    assert decl_type_digest(a, table) != decl_type_digest(b, table)


def test_compiling_with_a_digest_table_is_compiling_without() -> None:
    schemas = _all_schemas()
    plain = [_fresh(_rules(s), _decl(s)) for s in schemas]
    table: dict[int, tuple[DeclType, bytes]] = {}
    MEMO.clear()
    shared = [compile_rules(_rules(s), _decl(s), KUBERNETES, digests=table) for s in schemas]
    assert shared == plain


def test_the_digest_is_hashlibs_blake2b() -> None:
    """decl_type_digest's hash is the one ``hashlib.blake2b`` names (taken from ``_blake2`` to skip OpenSSL)."""
    import hashlib

    from crdtool.core.crdcel.compilation import _blake2b

    assert _blake2b() is hashlib.blake2b
