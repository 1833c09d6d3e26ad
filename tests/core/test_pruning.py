"""Pruning, as upstream ``pruning/algorithm.go`` (PruneWithOptions) behaves.

Cases are our own, written from the behaviour pinned by upstream's
``pruning/algorithm_test.go``: which fields go, which stay (metadata of
resources and embedded resources, x-kubernetes-preserve-unknown-fields,
additionalProperties) and the exact sorted list of pruned paths.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from crdtool.core.schema.pruning import prune

OBJ: dict[str, Any] = {"type": "object"}


def obj(**props: Any) -> dict[str, Any]:
    return {"type": "object", "properties": props}


CASES: list[tuple[str, Any, Any, bool, Any, list[str]]] = [
    ("null stays null", None, None, False, None, []),
    ("scalar under empty schema", 7, {}, False, 7, []),
    ("scalars in a list", ["a", 2], {"items": {}}, False, ["a", 2], []),
    (
        "list of objects loses unknown keys per index",
        [{"x": 1}, {"y": 2}, {"x": 3, "y": 4, "z": 5}],
        {"items": {"properties": {"x": {}, "z": {}}}},
        False,
        [{"x": 1}, {}, {"x": 3, "z": 5}],
        ["[1].y", "[2].y"],
    ),
    (
        "list without schema empties every object",
        [{"x": 1}, {"y": 2}],
        None,
        False,
        [{}, {}],
        ["[0].x", "[1].y"],
    ),
    (
        "nested object and list paths",
        {"list": [{"keep": 1, "drop": 2}], "known": {"keep": 1, "drop": 2}, "extra": {"a": 1}},
        obj(list={"items": {"properties": {"keep": {}}}}, known={"properties": {"keep": {}}}),
        False,
        {"list": [{"keep": 1}], "known": {"keep": 1}},
        ["extra", "known.drop", "list[0].drop"],
    ),
    (
        "additionalProperties schema prunes values, keeps keys",
        {"m": {"k1": {"v": 1, "w": 2}, "k2": {"w": 3}}},
        obj(m={"type": "object", "additionalProperties": {"type": "object", "properties": {"v": {}}}}),
        False,
        {"m": {"k1": {"v": 1}, "k2": {}}},
        ["m.k1.w", "m.k2.w"],
    ),
    (
        "additionalProperties false keeps keys but prunes objects below them",
        {"m": {"k": 1, "o": {"a": 1, "kind": "X"}}},
        obj(m={"additionalProperties": False}),
        False,
        {"m": {"k": 1, "o": {}}},
        ["m.o.a", "m.o.kind"],
    ),
    (
        "additionalProperties true keeps scalars",
        {"m": {"k": "v"}},
        obj(m={"additionalProperties": True}),
        False,
        {"m": {"k": "v"}},
        [],
    ),
    (
        "non-root top-level meta fields are dropped silently, nested ones are reported",
        {"apiVersion": "v1", "kind": "K", "metadata": {}, "sub": {"kind": "K", "x": 1}},
        obj(sub={"type": "object", "properties": {"x": {}}}),
        False,
        {"sub": {"x": 1}},
        ["sub.kind"],
    ),
    (
        "resource root keeps apiVersion, kind and all of metadata",
        {
            "apiVersion": "a/v1",
            "kind": "A",
            "metadata": {"name": "n", "bogus": {"deep": 1}},
            "spec": {"x": 1, "y": 2},
            "status": {},
        },
        obj(spec={"type": "object", "properties": {"x": {}}}),
        True,
        {"apiVersion": "a/v1", "kind": "A", "metadata": {"name": "n", "bogus": {"deep": 1}}, "spec": {"x": 1}},
        ["spec.y", "status"],
    ),
    (
        "resource root without a schema",
        {"apiVersion": "a/v1", "kind": "A", "metadata": {"name": "n"}, "spec": {"x": 1}},
        None,
        True,
        {"apiVersion": "a/v1", "kind": "A", "metadata": {"name": "n"}},
        ["spec"],
    ),
    (
        "metadata is not descended even when the schema describes it",
        {"metadata": {"name": "n", "labels": {"a": "b"}, "unknown": 1}},
        obj(metadata={"type": "object", "properties": {"name": {"type": "string"}}}),
        True,
        {"metadata": {"name": "n", "labels": {"a": "b"}, "unknown": 1}},
        [],
    ),
    (
        "embedded resources keep their type and object meta, nested ones too",
        {
            "tmpl": {
                "apiVersion": "v1",
                "kind": "Pod",
                "metadata": {"name": "p", "bogus": 1},
                "junk": 1,
                "spec": {"junk": 2, "inner": {"kind": "X", "metadata": {"q": 1}, "junk": 3}},
            }
        },
        obj(
            tmpl={
                "type": "object",
                "x-kubernetes-embedded-resource": True,
                "properties": {
                    "spec": {
                        "type": "object",
                        "properties": {"inner": {"type": "object", "x-kubernetes-embedded-resource": True}},
                    }
                },
            }
        ),
        False,
        {
            "tmpl": {
                "apiVersion": "v1",
                "kind": "Pod",
                "metadata": {"name": "p", "bogus": 1},
                "spec": {"inner": {"kind": "X", "metadata": {"q": 1}}},
            }
        },
        ["tmpl.junk", "tmpl.spec.inner.junk", "tmpl.spec.junk"],
    ),
    (
        "preserve-unknown-fields keeps unknown keys, specified children still pruned",
        {"u": 1, "known": {"u": 1}, "open": {"u": {"v": 1}}},
        {
            "type": "object",
            "x-kubernetes-preserve-unknown-fields": True,
            "properties": {
                "known": {"type": "object"},
                "open": {"type": "object", "x-kubernetes-preserve-unknown-fields": True},
            },
        },
        False,
        {"u": 1, "known": {}, "open": {"u": {"v": 1}}},
        ["known.u"],
    ),
    (
        "preserve-unknown-fields is not inherited by additionalProperties",
        {"m": {"k": {"s": {"u": 1}, "u": 2}}},
        obj(
            m={
                "type": "object",
                "x-kubernetes-preserve-unknown-fields": True,
                "additionalProperties": {"type": "object", "properties": {"s": {"type": "object"}}},
            }
        ),
        False,
        {"m": {"k": {"s": {}}}},
        ["m.k.s.u", "m.k.u"],
    ),
    (
        "preserved list keeps objects when items are unspecified",
        {"l": [{"a": 1}, [{"b": 2}]]},
        obj(l={"x-kubernetes-preserve-unknown-fields": True}),
        False,
        {"l": [{"a": 1}, [{"b": 2}]]},
        [],
    ),
    (
        "preserved list with items prunes inside the items",
        {"l": [{"a": 1, "k": {"z": 1}}]},
        obj(l={"x-kubernetes-preserve-unknown-fields": True, "items": {"type": "object", "properties": {"k": OBJ}}}),
        False,
        {"l": [{"a": 1, "k": {}}]},
        ["l[0].k.z"],
    ),
    (
        "root list paths start with an index",
        [{"apiVersion": "v1", "a": 1}],
        {"items": {"type": "object", "properties": {"a": {}}}},
        False,
        [{"a": 1}],
        ["[0].apiVersion"],
    ),
]


@pytest.mark.parametrize(
    ("name", "value", "schema", "root", "expected", "paths"), CASES, ids=[c[0] for c in CASES]
)
def test_prune(name: str, value: Any, schema: Any, root: bool, expected: Any, paths: list[str]) -> None:
    before = copy.deepcopy(value)
    got, pruned = prune(value, schema, is_resource_root=root)
    assert got == expected
    assert pruned == paths
    assert value == before


def test_paths_are_sorted_bytewise() -> None:
    value = {"b": 1, "B": 1, "a": {"z": 1, "y": 1}, "_": 1}
    _, pruned = prune(value, obj(a=OBJ), is_resource_root=False)
    assert pruned == ["B", "_", "a.y", "a.z", "b"]


def test_result_shares_nothing_with_input() -> None:
    value = {"keep": {"inner": [1, {"x": 1}]}, "meta": {"a": 1}}
    schema = {"type": "object", "x-kubernetes-preserve-unknown-fields": True}
    got, _ = prune(value, schema, is_resource_root=False)
    got["keep"]["inner"][1]["x"] = 99
    got["meta"]["a"] = 2
    assert value == {"keep": {"inner": [1, {"x": 1}]}, "meta": {"a": 1}}


def test_deep_nesting_does_not_raise() -> None:
    value: Any = 0
    for _ in range(50_000):
        value = [{"a": value}]
    got, pruned = prune(value, None, is_resource_root=False)
    assert got == [{}]
    assert pruned == ["[0].a"]
    deep: dict[str, Any] = {}
    cur = deep
    for _ in range(50_000):
        cur["n"] = {}
        cur = cur["n"]
    got2, pruned2 = prune(deep, {"type": "object", "x-kubernetes-preserve-unknown-fields": True})
    assert pruned2 == []
    depth = 0
    node = got2
    while node:
        node = node["n"]
        depth += 1
    assert depth == 50_000


# --- properties ----------------------------------------------------------------------

KEYS = st.sampled_from(["a", "b", "c", "apiVersion", "kind", "metadata"])
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-5, 5), st.text(max_size=3))
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(KEYS, inner, max_size=4)),
    max_leaves=25,
)


def _schema_children(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.fixed_dictionaries(
        {},
        optional={
            "type": st.sampled_from(["object", "array", "string"]),
            "properties": st.dictionaries(KEYS, inner, max_size=3),
            "items": inner,
            "additionalProperties": st.one_of(st.booleans(), inner),
            "x-kubernetes-preserve-unknown-fields": st.just(True),
            "x-kubernetes-embedded-resource": st.just(True),
        },
    )


SCHEMAS = st.recursive(st.just({}), _schema_children, max_leaves=12)


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(value=VALUES, schema=st.one_of(st.none(), SCHEMAS), root=st.booleans())
def test_pruning_is_idempotent_and_pure(value: Any, schema: Any, root: bool) -> None:
    value_before = copy.deepcopy(value)
    schema_before = copy.deepcopy(schema)
    once, paths = prune(value, schema, is_resource_root=root)
    twice, paths2 = prune(once, schema, is_resource_root=root)
    assert twice == once
    assert paths2 == []
    assert paths == sorted(paths)
    assert value == value_before
    assert schema == schema_before
