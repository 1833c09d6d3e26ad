"""Validation ratcheting of OpenAPI value validation (``crdtool.core.validation.ratcheting``).

Cases from apiextensions-apiserver v0.36.3 ``pkg/apiserver/validation/ratcheting_test.go``
(each upstream assertion transcribed, with the Go values' types: the test's ``int`` and
``int64`` are Python ints), ``k8s.io/apiserver/pkg/cel/common/equality.go`` semantics
(``CachedDeepEqual``, map-list correlation), and property tests.
"""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from crdtool.core.kubecel.equality import CorrelatedObject, DictSchema
from crdtool.core.kubecel.equality import deep_equal as go_deep_equal
from crdtool.core.validation.ratcheting import validate_value_update
from crdtool.core.validation.value_validation import validate_value

ZERO = {"type": "number", "minimum": 0, "maximum": 0}
SMALL = {"type": "number", "maximum": 50}
MEDIUM = {"type": "number", "minimum": 50, "maximum": 10000}
LARGE = {"type": "number", "minimum": 10000}
OBJECT = {"type": "object", "properties": {"zero": ZERO, "small": SMALL, "medium": MEDIUM, "large": LARGE}}
OBJECT_OBJECT = {"type": "object", "properties": {"nested": OBJECT}}
NUMERIC_FORMAT = {
    "type": "object",
    "properties": {"intThirtyTwo": {"type": "integer", "format": "int32"}, "unrelated": {"type": "string"}},
}
MAX_INT32 = 2**31 - 1


def valid(new: Any, old: Any, schema: dict[str, Any]) -> bool:
    return not validate_value_update(new, old, schema, None)


def test_scalar_ratcheting() -> None:  # TestScalarRatcheting
    assert valid(1, 1, MEDIUM)
    assert not valid(1, 2, MEDIUM)


def test_object_scalar_fields_ratcheting() -> None:  # TestObjectScalarFieldsRatcheting
    assert valid({"small": 500}, {"small": 500}, OBJECT)
    assert valid({"small": 501}, {"small": 501, "medium": 500}, OBJECT)
    assert not valid({"small": 500}, {"small": 501}, OBJECT)


def test_object_object_fields_ratcheting() -> None:  # TestObjectObjectFieldsRatcheting
    assert valid({"nested": {"small": 500}}, {"nested": {"small": 500}}, OBJECT_OBJECT)
    assert valid({"nested": {"small": 501}}, {"nested": {"small": 501, "medium": 500}}, OBJECT_OBJECT)
    assert not valid({"nested": {"small": 500}}, {"nested": {"small": 501}}, OBJECT_OBJECT)


def test_numeric_format_ratcheting() -> None:  # TestNumericFormatRatcheting
    assert valid({"intThirtyTwo": MAX_INT32 + 1}, {"intThirtyTwo": MAX_INT32 + 1}, NUMERIC_FORMAT)
    assert valid(
        {"intThirtyTwo": MAX_INT32 + 1, "unrelated": "changed"},
        {"intThirtyTwo": MAX_INT32 + 1, "unrelated": "original"},
        NUMERIC_FORMAT,
    )
    errors = validate_value_update({"intThirtyTwo": MAX_INT32 + 2}, {"intThirtyTwo": MAX_INT32 + 1}, NUMERIC_FORMAT, None)
    # IsValueValidAgainstRange reports no field: upstream's nil path
    assert [(e.type, e.field, e.detail) for e in errors] == [
        ("FieldValueInvalid", "<nil>", "Checked value must be of type integer with format int32 in intThirtyTwo")
    ]


# --- correlation (equality.go) ------------------------------------------------------------------

MAP_LIST = {
    "type": "array",
    "x-kubernetes-list-type": "map",
    "x-kubernetes-list-map-keys": ["name"],
    "items": {"type": "object", "properties": {"name": {"type": "string"}, "v": {"type": "integer", "maximum": 1}}},
}


def test_map_list_items_correlate_by_key_so_reordering_is_equal() -> None:
    old = [{"name": "a", "v": 5}, {"name": "b", "v": 6}]
    new = [{"name": "b", "v": 6}, {"name": "a", "v": 5}]
    corr = CorrelatedObject(new, old, DictSchema(MAP_LIST))
    assert corr.index(0) is not None and corr.index(0).old == {"name": "b", "v": 6}  # type: ignore[union-attr]
    assert corr.cached_deep_equal()  # upstream compares map-list items by key, not by position
    assert validate_value_update(new, old, MAP_LIST, None) == []


def test_atomic_list_items_do_not_correlate() -> None:
    schema = {"type": "array", "items": {"type": "integer", "maximum": 1}}
    corr = CorrelatedObject([5, 6], [5, 7], DictSchema(schema))
    assert corr.index(0) is None
    # the list changed, so the unchanged invalid item is reported too (no per-item ratcheting)
    assert [e.field for e in validate_value_update([5, 6], [5, 7], schema, None)] == ["[0]", "[1]"]


def test_set_items_do_not_correlate() -> None:
    schema = {"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "integer"}}
    assert CorrelatedObject([1], [1], DictSchema(schema)).index(0) is None


def test_int_and_float_are_not_deep_equal() -> None:
    assert not go_deep_equal(1, 1.0)
    assert not go_deep_equal(True, 1)
    assert go_deep_equal({"a": [1, "x", None]}, {"a": [1, "x", None]})
    # a changed type is a change: 10 (int64) -> 10.0 (float64) is validated
    assert validate_value_update({"small": 500.0}, {"small": 500}, OBJECT, None) != []


def test_keys_without_a_schema_make_a_map_unequal() -> None:
    # CorrelatedObject.Key returns nil for a key the schema does not describe, and CachedDeepEqual
    # then calls the maps different (upstream quirk): errors at such a node are not ratcheted.
    schema = {"type": "object", "x-kubernetes-preserve-unknown-fields": True, "maxProperties": 1}
    value = {"x": 1, "y": 2}
    assert not CorrelatedObject(value, copy.deepcopy(value), DictSchema(schema)).cached_deep_equal()
    assert [e.type for e in validate_value_update(value, copy.deepcopy(value), schema, None)] == ["FieldValueTooMany"]


def test_api_version_and_kind_at_the_root_are_never_ratcheted() -> None:
    # SubPropertyValidator validates root apiVersion/kind without ratcheting: their errors go unless
    # the whole object is unchanged (then the root's own ratcheting drops everything)
    schema = {"type": "object", "properties": {"kind": {"type": "string", "enum": ["Good"]}, "x": {"type": "string", "enum": ["y"]}}}
    old = {"kind": "Bad", "x": "z"}
    assert validate_value_update(old, copy.deepcopy(old), schema, None) == []
    errors = validate_value_update({"kind": "Bad", "x": "w"}, old, schema, None)
    assert [e.field for e in errors] == ["kind", "x"]
    other = {"type": "object", "properties": {"other": schema["properties"]["kind"], "x": schema["properties"]["x"]}}
    assert [e.field for e in validate_value_update({"other": "Bad", "x": "w"}, {"other": "Bad", "x": "z"}, other, None)] == ["x"]


def test_junctors_do_not_ratchet_their_branches() -> None:
    # schemaPropsValidator builds its branch validators without the ratcheting hooks
    schema = {"type": "object", "properties": {"o": {"type": "object", "anyOf": [{"properties": {"a": {"type": "string"}}}], "properties": {"a": {}, "b": {"type": "string"}}}}}
    old = {"o": {"a": 1, "b": "x"}}
    new = {"o": {"a": 1, "b": "y"}}
    errors = validate_value_update(new, old, schema, None)
    assert errors and all(e.field in ("<nil>", "o.a") for e in errors)
    assert validate_value_update(old, copy.deepcopy(old), schema, None) == []


# --- properties ------------------------------------------------------------------------------------

SCHEMAS = [OBJECT, OBJECT_OBJECT, NUMERIC_FORMAT, {"type": "object", "properties": {"l": MAP_LIST}}]
scalars = st.one_of(st.integers(-(2**40), 2**40), st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=3), st.booleans(), st.none())
values = st.recursive(scalars, lambda c: st.one_of(st.lists(c, max_size=3), st.dictionaries(st.sampled_from(["small", "medium", "zero", "large", "nested", "l", "name", "v", "intThirtyTwo"]), c, max_size=4)), max_leaves=12)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(SCHEMAS), values)
def test_nothing_to_correlate_is_plain_validation(schema: dict[str, Any], value: Any) -> None:
    if value is None:  # CachedDeepEqual: nil equals nil, so even that is ratcheted
        assert validate_value_update(None, None, schema, None) == []
        return
    assert validate_value_update(value, None, schema, None) == validate_value(value, schema, None)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(SCHEMAS), values, values)
def test_ratcheting_only_removes_errors(schema: dict[str, Any], new: Any, old: Any) -> None:
    kept = validate_value_update(new, old, schema, None)
    plain = validate_value(new, schema, None)
    assert all(e in plain for e in kept)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(SCHEMAS[:3]), values)
def test_an_unchanged_object_whose_keys_the_schema_describes_passes(schema: dict[str, Any], value: Any) -> None:
    if isinstance(value, dict) and CorrelatedObject(value, copy.deepcopy(value), DictSchema(schema)).cached_deep_equal():
        assert validate_value_update(value, copy.deepcopy(value), schema, None) == []
