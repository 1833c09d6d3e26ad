"""Defaulting (``defaulting/algorithm.go``) and null pruning (``prunenulls.go``).

Our own cases, written from the behaviour pinned by upstream's
``defaulting/algorithm_test.go`` and ``prunenulls_test.go`` and the examples
of the CRD defaulting KEP (shared/seeds/002): top-down, only where a field is
undefined (or a non-nullable explicit null), never over ``""``/``0``/``[]``/``{}``.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from crdtool.core import snapshot
from crdtool.core.schema import defaulting
from crdtool.core.schema.defaulting import default, prune_non_nullable_nulls

FOO_ABC = {"type": "object", "properties": {"foo": {"type": "string", "default": "abc"}}}
FOO_LIST = {"type": "object", "properties": {"foo": {"type": "array", "items": {"type": "integer"}, "default": [1]}}}
TOP_DOWN = {
    "type": "object",
    "properties": {
        "foo": {
            "type": "object",
            "properties": {"a": {"type": "string", "default": "abc"}, "b": {"type": "string"}},
            "default": {"b": "def"},
        }
    },
}

KEP_CASES: list[tuple[str, Any, Any, Any]] = [
    ("KEP 1: default in the undefined case", FOO_ABC, {}, {"foo": "abc"}),
    ("KEP 2: no defaulting of a set value", FOO_ABC, {"foo": "def"}, {"foo": "def"}),
    ("KEP 3: array default when undefined", FOO_LIST, {}, {"foo": [1]}),
    ("KEP 3: an empty list stays empty", FOO_LIST, {"foo": []}, {"foo": []}),
    # The KEP text keeps explicit nulls; upstream since 1.20 (isNonNullableNull)
    # replaces a null of a non-nullable field that has a default.
    ("explicit null of a non-nullable field takes the default", FOO_LIST, {"foo": None}, {"foo": [1]}),
    ("KEP 4: top-down defaulting", TOP_DOWN, {}, {"foo": {"a": "abc", "b": "def"}}),
]


@pytest.mark.parametrize(("name", "schema", "value", "expected"), KEP_CASES, ids=[c[0] for c in KEP_CASES])
def test_kep_examples(name: str, schema: Any, value: Any, expected: Any) -> None:
    assert default(value, schema) == expected


A_DEFAULT = {"items": {"properties": {"a": {"default": "A"}}}}

CASES: list[tuple[str, Any, Any, Any]] = [
    ("no schema", None, None, None),
    ("scalar ignores its own default", {"default": "foo"}, 4, 4),
    ("scalar items ignore the items default", {"items": {"default": "foo"}}, [1, 2], [1, 2]),
    (
        "each object of a list is defaulted",
        {"items": {"properties": {"a": {"default": "A"}, "b": {"default": "B"}}}},
        [{"a": 1}, {"b": 1}],
        [{"a": 1, "b": "B"}, {"a": "A", "b": 1}],
    ),
    (
        "zero and empty values are kept, absent and null are defaulted",
        A_DEFAULT,
        [{}, {"a": 0}, {"a": 0.0}, {"a": ""}, {"a": False}, {"a": []}, {"a": {}}, {"a": None}],
        [{"a": "A"}, {"a": 0}, {"a": 0.0}, {"a": ""}, {"a": False}, {"a": []}, {"a": {}}, {"a": "A"}],
    ),
    (
        "a nullable field keeps its explicit null",
        {"properties": {"a": {"nullable": True, "default": "A"}}},
        {"a": None},
        {"a": None},
    ),
    (
        "a nullable additionalProperties value keeps its null",
        {"additionalProperties": {"nullable": True, "default": "A"}},
        {"x": None},
        {"x": None},
    ),
    (
        "a non-nullable additionalProperties value takes the default",
        {"additionalProperties": {"default": "A"}},
        {"x": None, "y": "set"},
        {"x": "A", "y": "set"},
    ),
    (
        "additionalProperties true: nulls are left alone",
        {"additionalProperties": True},
        {"x": None},
        {"x": None},
    ),
    ("a null item takes the items default", {"items": {"default": "A"}}, [None, "b"], ["A", "b"]),
    ("a null item without default stays null", {"items": {"properties": {"a": {"default": "A"}}}}, [None], [None]),
    (
        "a nullable item keeps its null",
        {"items": {"nullable": True, "default": "A"}},
        [None],
        [None],
    ),
    (
        "defaults of nested properties apply inside the default of their parent",
        {
            "properties": {
                "o": {
                    "default": {"x": {}},
                    "properties": {"x": {"properties": {"y": {"default": 1}}}, "z": {"default": 2}},
                }
            }
        },
        {},
        {"o": {"x": {"y": 1}, "z": 2}},
    ),
    (
        "additionalProperties defaults apply to every value",
        {"additionalProperties": {"properties": {"a": {"default": "alpha"}, "b": {"default": "beta"}}}},
        {"x": {"a": 1}, "y": {"b": 2}},
        {"x": {"a": 1, "b": "beta"}, "y": {"a": "alpha", "b": 2}},
    ),
    (
        "properties win over additionalProperties",
        {"properties": {"p": {"default": "P"}}, "additionalProperties": {"properties": {"q": {"default": "Q"}}}},
        {"other": {}},
        {"other": {"q": "Q"}, "p": "P"},
    ),
    ("default: null is no default", {"properties": {"a": {"default": None}}}, {}, {}),
    ("falsy defaults are defaults", {"properties": {"a": {"default": False}, "b": {"default": 0}}}, {}, {"a": False, "b": 0}),
    (
        "no schema below: values are copied untouched",
        {"properties": {"a": {}}},
        {"a": {"b": {"c": None}}, "z": [None]},
        {"a": {"b": {"c": None}}, "z": [None]},
    ),
]


@pytest.mark.parametrize(("name", "schema", "value", "expected"), CASES, ids=[c[0] for c in CASES])
def test_default(name: str, schema: Any, value: Any, expected: Any) -> None:
    before = copy.deepcopy(value)
    assert default(value, schema) == expected
    assert value == before


def test_defaults_are_deep_copied_and_never_shared() -> None:
    schema = {"properties": {"a": {"default": {"l": [1, {"m": 2}]}}}}
    schema_before = copy.deepcopy(schema)
    first = default({}, schema)
    second = default({}, schema)
    first["a"]["l"][1]["m"] = 99
    first["a"]["l"].append(3)
    assert second == {"a": {"l": [1, {"m": 2}]}}
    assert schema == schema_before
    assert first["a"] is not schema["properties"]["a"]["default"]


def test_result_shares_nothing_with_input() -> None:
    value = {"x": {"y": [1, {"z": 1}]}, "q": [[1]]}
    got = default(value, {"properties": {"x": {"properties": {"y": {"items": {}}}}}})
    got["x"]["y"][1]["z"] = 2
    got["q"][0].append(2)
    assert value == {"x": {"y": [1, {"z": 1}]}, "q": [[1]]}


NULL_CASES: list[tuple[str, Any, Any, Any]] = [
    ("no schema", None, None, None),
    ("scalar", {"default": "foo"}, 4, 4),
    ("nulls in a list without schema stay", None, [1, None], [1, None]),
    (
        "only non-nullable fields without default lose their null",
        {
            "items": {
                "properties": {
                    "a": {"default": "A"},
                    "b": {"nullable": True},
                    "c": {"default": "C", "nullable": True},
                    "d": {},
                }
            }
        },
        [{"a": None}, {"b": None}, {"c": None}, {"d": None}, {"e": None}],
        [{"a": None}, {"b": None}, {"c": None}, {}, {"e": None}],
    ),
    (
        "additionalProperties nulls are pruned too",
        {"additionalProperties": {"type": "string"}},
        {"x": None, "y": "v"},
        {"y": "v"},
    ),
    ("array items are never removed", {"items": {"type": "string"}}, [None, "a"], [None, "a"]),
    (
        "nested objects",
        {"properties": {"o": {"properties": {"p": {"type": "integer"}}}}},
        {"o": {"p": None, "q": None}},
        {"o": {"q": None}},
    ),
]


@pytest.mark.parametrize(("name", "schema", "value", "expected"), NULL_CASES, ids=[c[0] for c in NULL_CASES])
def test_prune_non_nullable_nulls(name: str, schema: Any, value: Any, expected: Any) -> None:
    before = copy.deepcopy(value)
    assert prune_non_nullable_nulls(value, schema) == expected
    assert value == before


def test_pipeline_prune_nulls_then_default() -> None:
    """The apiserver order: drop undefaultable nulls, then default the rest."""
    schema = {"properties": {"a": {"type": "string"}, "b": {"type": "string", "default": "B"}}}
    value = {"a": None, "b": None}
    assert default(prune_non_nullable_nulls(value, schema), schema) == {"b": "B"}


def test_deep_nesting_does_not_raise() -> None:
    schema: dict[str, Any] = {"type": "object", "x-kubernetes-preserve-unknown-fields": True}
    deep: Any = {}
    cur = deep
    for _ in range(50_000):
        cur["n"] = [{}]
        cur = cur["n"][0]
    for got in (default(deep, schema), prune_non_nullable_nulls(deep, schema)):
        depth = 0
        a, b = got, deep
        while b:  # walk both chains without recursive ==
            assert a is not b and set(a) == {"n"} and len(a["n"]) == 1
            a, b = a["n"][0], b["n"][0]
            depth += 1
        assert a == {} and depth == 50_000
    # a schema as deep as the value: the explicit-stack path runs
    sch: dict[str, Any] = {}
    node = sch
    val: dict[str, Any] = {}
    vnode = val
    for _ in range(2_000):
        node["properties"] = {"n": {"properties": {"d": {"default": 1}}}}
        node = node["properties"]["n"]
        vnode["n"] = {}
        vnode = vnode["n"]
    got = default(val, sch)
    depth = 0
    cur2 = got
    while "n" in cur2:
        assert cur2.get("d", 1) == 1
        cur2 = cur2["n"]
        depth += 1
    assert depth == 2_000


# --- properties ----------------------------------------------------------------------

KEYS = st.sampled_from(["a", "b", "c"])
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-5, 5), st.text(max_size=2))
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(KEYS, inner, max_size=3)),
    max_leaves=20,
)


def _schema_children(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.fixed_dictionaries(
        {},
        optional={
            "properties": st.dictionaries(KEYS, inner, max_size=3),
            "items": inner,
            "additionalProperties": st.one_of(st.booleans(), inner),
            "nullable": st.booleans(),
            "default": VALUES,
        },
    )


SCHEMAS = st.recursive(
    st.fixed_dictionaries({}, optional={"default": VALUES, "nullable": st.booleans()}),
    _schema_children,
    max_leaves=10,
)


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(value=VALUES, schema=st.one_of(st.none(), SCHEMAS))
def test_defaulting_is_idempotent_and_pure(value: Any, schema: Any) -> None:
    value_before = copy.deepcopy(value)
    schema_before = copy.deepcopy(schema)
    once = default(value, schema)
    assert default(once, schema) == once
    assert value == value_before
    assert schema == schema_before


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(value=VALUES, schema=SCHEMAS)
def test_explicit_stack_matches_recursion(value: Any, schema: Any) -> None:
    assert defaulting._default_iter(value, schema) == default(value, schema)
    assert defaulting._prune_nulls_iter(value, schema) == prune_non_nullable_nulls(value, schema)


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
@given(value=VALUES, schema=st.one_of(st.none(), SCHEMAS))
def test_prune_nulls_is_idempotent_and_pure(value: Any, schema: Any) -> None:
    value_before = copy.deepcopy(value)
    once = prune_non_nullable_nulls(value, schema)
    assert prune_non_nullable_nulls(once, schema) == once
    assert value == value_before


# --- the compiled defaulter: the same results as the interpreter -----------------------------------------


def _shape(v: Any) -> Any:
    """Types and key order made visible: the compiled defaulter must match exactly, not just ==."""
    if isinstance(v, dict):
        return ("dict", type(v).__name__, [(k, _shape(x)) for k, x in v.items()])
    if isinstance(v, (list, tuple)):
        return ("list", type(v).__name__, [_shape(x) for x in v])
    return (type(v).__name__, v)


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(value=VALUES, schema=st.one_of(st.none(), SCHEMAS))
def test_compiled_defaulter_matches_the_interpreter(value: Any, schema: Any) -> None:
    compiled = defaulting.compile_defaulter(schema)
    assert compiled is not None
    value_before = copy.deepcopy(value)
    expected = _shape(default(value, schema))
    assert _shape(compiled(value)) == expected
    assert value == value_before
    own = defaulting.copy_json(value)
    result = compiled.apply(own)
    assert _shape(result) == expected
    if isinstance(own, (dict, list)):
        assert result is own  # in place


@pytest.mark.parametrize(("name", "schema", "value", "expected"), KEP_CASES + CASES, ids=[c[0] for c in KEP_CASES + CASES])
def test_compiled_defaulter_on_the_cases(name: str, schema: Any, value: Any, expected: Any) -> None:
    compiled = defaulting.compile_defaulter(schema)
    assert compiled is not None
    assert compiled(value) == expected
    assert _shape(compiled(value)) == _shape(default(value, schema))


def test_compiled_defaulter_visits_only_properties_with_defaults_below_them() -> None:
    props = {f"p{i}": {"type": "object", "properties": {"x": {"type": "string"}}} for i in range(100)}
    props["p7"] = {"type": "object", "properties": {"x": {"type": "string", "default": "d"}}}
    schema = {"type": "object", "properties": {"spec": {"type": "object", "properties": props}, "status": {"type": "object"}}}
    compiled = defaulting.compile_defaulter(schema)
    assert compiled is not None
    root = compiled._root
    assert root is not None and list(root.children) == ["spec"] and root.defaults == ()
    spec = root.children["spec"]
    assert list(spec.children) == ["p7"] and spec.defaults == ()
    assert spec.children["p7"].defaults == (("x", "d", False),)
    assert compiled({"spec": {"p1": {}, "p7": {}}}) == {"spec": {"p1": {}, "p7": {"x": "d"}}}
    assert defaulting.compile_defaulter({"type": "object", "properties": props | {"p7": props["p1"]}})._root is None  # type: ignore[union-attr]


def test_compiled_defaults_are_fresh_copies() -> None:
    schema = {"type": "object", "properties": {"m": {"type": "object", "default": {"a": [1]}}},
              "additionalProperties": {"type": "object", "default": {"b": {}}}}
    compiled = defaulting.compile_defaulter(schema)
    assert compiled is not None
    one, two = compiled({"x": None}), compiled({"x": None})
    assert one == two == {"x": {"b": {}}, "m": {"a": [1]}}
    one["m"]["a"].append(2)
    one["x"]["b"]["c"] = 1
    assert compiled({"x": None}) == two
    assert schema["properties"]["m"]["default"] == {"a": [1]}  # type: ignore[index]


def test_schemas_the_compiler_leaves_to_the_interpreter() -> None:
    assert defaulting.compile_defaulter({"properties": {"a": True}}) is None  # not structural
    assert defaulting.compile_defaulter({"properties": []}) is None
    deep: dict[str, Any] = {"type": "string", "default": "x"}
    for _ in range(400):
        deep = {"type": "object", "properties": {"a": deep}}
    assert defaulting.compile_defaulter(deep) is None
    cyclic: dict[str, Any] = {"type": "object", "properties": {}}
    cyclic["properties"]["self"] = cyclic
    assert defaulting.compile_defaulter(cyclic) is None
    shared = {"type": "object", "properties": {"d": {"type": "string", "default": "x"}}}
    dag = {"type": "object", "properties": {"a": shared, "b": shared}}
    compiled = defaulting.compile_defaulter(dag)
    assert compiled is not None and compiled({"a": {}, "b": {}}) == {"a": {"d": "x"}, "b": {"d": "x"}}


def test_copy_json_shares_nothing() -> None:
    value = {"a": [{"b": "c"}, (1, 2)], "d": {"e": None}}
    copied = defaulting.copy_json(value)
    assert copied == {"a": [{"b": "c"}, [1, 2]], "d": {"e": None}}
    assert copied["a"] is not value["a"] and copied["a"][0] is not value["a"][0] and copied["d"] is not value["d"]


def _wide_schema() -> dict[str, Any]:
    """An object with enough properties that the scan for defaults is remembered (``_SCAN_MEMO_MIN``)."""
    props: dict[str, Any] = {f"p{i}": {"type": "string"} for i in range(12)}
    props["p3"]["default"] = "three"
    return {"type": "object", "properties": props}


def test_the_remembered_scan_for_defaults_follows_every_change_of_the_schema() -> None:
    """default() remembers which properties have defaults only while none of the dicts it read changed."""
    schema = _wide_schema()
    props = schema["properties"]
    assert default({}, schema) == {"p3": "three"}
    props["p7"]["default"] = "seven"  # a property schema changed in place
    assert default({}, schema) == {"p3": "three", "p7": "seven"}
    del props["p3"]["default"]
    assert default({}, schema) == {"p7": "seven"}
    props["p7"] = {"type": "string"}  # the properties map changed
    assert default({}, schema) == {}
    props["new"] = {"default": [1]}
    out = default({}, schema)
    assert out == {"new": [1]}
    props["new"]["default"].append(2)  # a default value changed inside: read afresh
    assert default({}, schema) == {"new": [1, 2]}
    for value in ({}, {"p1": None}, {"new": None}):
        assert repr(default(value, schema)) == repr(defaulting._default_iter(value, schema))


_WIDE_CHANGES = st.lists(
    st.tuples(st.integers(0, 11), st.sampled_from(["add", "drop", "null", "nullable", "replace"]), VALUES),
    max_size=4,
)


@settings(max_examples=80, suppress_health_check=[HealthCheck.too_slow])
@given(value=st.dictionaries(st.sampled_from([f"p{i}" for i in range(12)] + ["x"]), VALUES, max_size=5),
       changes=_WIDE_CHANGES)
def test_the_remembered_scan_matches_the_plain_loop_after_changes(value: Any, changes: Any) -> None:
    schema = _wide_schema()
    default(value, schema)  # remembered now
    for i, op, new in changes:
        p = schema["properties"][f"p{i}"]
        if op == "add":
            p["default"] = new
        elif op == "drop":
            p.pop("default", None)
        elif op == "null":
            p["default"] = None
        elif op == "nullable":
            p["nullable"] = True
        else:
            schema["properties"][f"p{i}"] = {"default": new}
        # the explicit-stack walk scans every property every time: the exact reference (repr: types and key
        # order too)
        assert repr(default(value, schema)) == repr(defaulting._default_iter(value, schema))


# --- issue #28: the guarded node summaries of default(obj, schema_dict), against the explicit-stack walk -------


def _schema_dicts(schema: Any) -> list[dict[str, Any]]:
    """Every dict of a schema reached through properties, items and additionalProperties (the schema nodes)."""
    out = []
    stack = [schema]
    while stack:
        s = stack.pop()
        if type(s) is not dict:
            continue
        out.append(s)
        props = s.get("properties")
        if type(props) is dict:
            stack.extend(props.values())
        stack.extend(s.get(k) for k in ("items", "additionalProperties"))
    return out


#: in-place changes of one schema node (argument: a value from VALUES)
_NODE_CHANGES: list[Any] = [
    lambda s, v: s.__setitem__("default", v),
    lambda s, v: s.pop("default", None),
    lambda s, v: s.__setitem__("nullable", not s.get("nullable")),
    lambda s, v: s.setdefault("properties", {}).__setitem__("a", {"default": v}),
    lambda s, v: s.setdefault("properties", {}).__setitem__("b", {"properties": {"c": {"default": v}}}),
    lambda s, v: s.get("properties", {}).pop("a", None),
    lambda s, v: s.__setitem__("items", {"default": v}),
    lambda s, v: s.__setitem__("additionalProperties", {"default": v, "nullable": False}),
    lambda s, v: s.__setitem__("additionalProperties", bool(v)),
    lambda s, v: s.pop("properties", None),
    # a default changed inside (the guards do not cover it: read afresh)
    lambda s, v: s["default"].append(v) if type(s.get("default")) is list else None,
    # the same properties in another order
    lambda s, v: s.__setitem__("properties", dict(reversed(list(s["properties"].items()))))
    if type(s.get("properties")) is dict else None,
]


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(value=VALUES, schema=SCHEMAS,
       changes=st.lists(st.tuples(st.integers(0, 1000), st.sampled_from(range(len(_NODE_CHANGES))), VALUES),
                        min_size=1, max_size=5))
def test_guarded_defaulting_follows_in_place_changes_at_any_depth(value: Any, schema: Any, changes: Any) -> None:
    """default(obj, schema_dict) is the explicit-stack walk (which reads every field on every call), before and
    after each in-place change of a schema node picked at any depth, called twice each time (the summaries
    remembered)."""
    value_before = copy.deepcopy(value)
    for which, change, new in [(0, None, None), *changes]:
        if change is not None:
            nodes = _schema_dicts(schema)
            _NODE_CHANGES[change](nodes[which % len(nodes)], copy.deepcopy(new))
        expected = repr(defaulting._default_iter(value, schema))
        assert repr(default(value, schema)) == expected
        assert repr(default(value, schema)) == expected
    assert value == value_before


def _deep_schema_without_defaults(depth: int, width: int) -> dict[str, Any]:
    node: dict[str, Any] = {"type": "string"}
    for i in range(depth):
        node = {"type": "object", "properties": {f"k{j}": (node if j == 0 else {"type": "integer"})
                                                  for j in range(width)}}
    return node


def test_a_subtree_without_defaults_is_copied_until_a_default_appears_deep_in_it() -> None:
    schema = {"type": "object", "properties": {
        "deep": _deep_schema_without_defaults(6, 3),
        "list": {"type": "array", "items": _deep_schema_without_defaults(3, 2)},
    }}
    value = {"deep": {"k0": {"k0": {"k1": 5}}}, "list": [None, {"k0": {}}]}
    assert default(value, schema) == value  # the plain walk: the first call with this dict
    assert default(value, schema) == value  # summarised now
    node = defaulting._NODES.get(id(schema["properties"]["deep"]))
    assert node is None or node[6] or not snapshot.versions_readable()  # guarded whole, copied
    # a default five levels down, under a node the object reaches
    schema["properties"]["deep"]["properties"]["k0"]["properties"]["k0"]["properties"]["k2"] = {"default": 7}
    out = default(value, schema)
    assert out["deep"]["k0"]["k0"] == {"k1": 5, "k2": 7}
    # a default for a null item
    schema["properties"]["list"]["items"]["default"] = {"k1": 1}
    out = default(value, schema)
    assert out["list"][0] == {"k1": 1}
    # and below the items
    schema["properties"]["list"]["items"]["properties"]["k0"]["properties"]["k1"] = {"default": 3}
    assert default(value, schema)["list"][1] == {"k0": {"k1": 3}}
    for v in (value, {}, {"deep": None, "list": []}):
        assert repr(default(v, schema)) == repr(defaulting._default_iter(v, schema))


def test_a_compact_copy_is_equal_and_defaults_the_same() -> None:
    schema = {"type": "object", "properties": {f"p{i}": _deep_schema_without_defaults(3, 4) for i in range(40)}}
    schema["properties"]["p7"]["properties"]["k1"]["default"] = 1
    compact = snapshot.compact_copy(schema)
    assert repr(compact) == repr(schema)
    assert not (set(map(id, _schema_dicts(compact))) & set(map(id, _schema_dicts(schema))))
    value = {"p7": {}, "p8": {"k0": {}}}
    for _ in range(2):  # the plain walk, then the summaries
        assert repr(default(value, compact)) == repr(defaulting._default_iter(value, schema))
    compact["properties"]["p8"]["properties"]["k0"]["properties"]["k3"]["default"] = "x"
    schema["properties"]["p8"]["properties"]["k0"]["properties"]["k3"]["default"] = "x"
    assert repr(default(value, compact)) == repr(defaulting._default_iter(value, schema))
    assert default(value, compact)["p8"]["k0"] == {"k3": "x"}


def test_dicts_dropped_by_a_change_stay_readable_until_the_guard_sees_the_change() -> None:
    """A node's guard reads its dicts' memory in address order: the dicts a change drops (a properties map, its
    property schemas) are held by the summary, so reading them is safe and the change is seen."""
    import gc

    schema = {"type": "object", "properties": {f"p{i}": {"type": "string"} for i in range(20)}}
    schema["properties"]["p3"]["default"] = "x"
    for _ in range(2):  # the plain walk, then the summary
        assert default({}, schema) == {"p3": "x"}
    schema["properties"] = {"q": {"default": 1}}  # the old map and its schemas: referenced by the summary only
    gc.collect()
    garbage = [{"k": i} for i in range(10_000)]
    assert default({}, schema) == {"q": 1}
    del garbage


def test_a_schema_dict_made_afresh_for_each_call_is_walked_plainly() -> None:
    """``default(obj, dict(schema))`` in a loop: each root is new, so it is not summarised (the plain walk, as
    the first call with any dict); the results are the same either way."""
    schema = {"type": "object", "properties": {"a": {"default": 1}, "b": {"properties": {"c": {"default": 2}}}}}
    nodes_before = len(defaulting._NODES)
    for _ in range(50):
        assert default({"b": {}}, dict(schema)) == {"b": {"c": 2}, "a": 1}
    assert len(defaulting._NODES) <= nodes_before + 1  # at most a node below the root, never one per root
    for _ in range(3):  # the same dict again: summarised from its second call
        assert default({"b": {}}, schema) == {"b": {"c": 2}, "a": 1}
    assert defaulting._NODES.get(id(schema), (None,))[0] is schema or not snapshot.versions_readable()
