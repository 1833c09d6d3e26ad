"""``new_structural``'s fast paths (crdtool/core/schema/structural.py ``_build``: a node without any key
``_children`` reads has no sub-schema, and is converted at once; one without any key ``_convertible`` reads is
convertible; ``_make_structural`` and ``_value_validation`` build their nodes positionally and skip the
junctors of a node without any) against the plain walk they shortcut: ``_children`` and ``_convertible`` asked
for every node, every node pushed back once, and the nodes built by keyword, as ``_build`` did before.
The reference is the walk of ``NewStructural`` (apiextensions-apiserver ``pkg/apiserver/schema/convert.go``):
a node and its sub-schemas (``not``, ``allOf``/``anyOf``/``oneOf``, ``items``, ``properties``,
``additionalProperties``) converted post-order, the first unsupported node reported in upstream's order
(``_check_convertible``)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from crdtool.core.schema import structural as S
from crdtool.core.schema.structural import StructuralError, new_structural


def _reference_children(s: dict[str, Any], nested: bool) -> list[tuple[dict[str, Any], bool]]:
    out: list[tuple[dict[str, Any], bool]] = []
    if isinstance(s.get("not"), dict):
        out.append((s["not"], True))
    for key in ("allOf", "anyOf", "oneOf"):
        out += [(x, True) for x in S._list_of_schemas(s.get(key))]
    item = S._items_schema(s)
    if item is not None:
        out.append((item, nested))
    out += [(x, nested) for x in S._dict_of_schemas(s.get("properties")).values()]
    ap = s.get("additionalProperties")
    if isinstance(ap, dict):
        out.append((ap, nested))
    return out


def _reference_value_validation(s: dict[str, Any], built: Any) -> S.ValueValidation:
    """``_value_validation`` as it was: every field by keyword, the junctors looked at on every node."""
    if S._VALUE_VALIDATION_KEYS.isdisjoint(s):
        return S._NO_VALUE_VALIDATION

    def nested(x: dict[str, Any]) -> S.NestedValueValidation:
        return built[(id(x), True)]  # type: ignore[no-any-return]

    enum = s.get("enum")
    not_schema = s.get("not")
    return S.ValueValidation(
        format=s.get("format") or "",
        maximum=s.get("maximum"),
        exclusive_maximum=bool(s.get("exclusiveMaximum")),
        minimum=s.get("minimum"),
        exclusive_minimum=bool(s.get("exclusiveMinimum")),
        max_length=s.get("maxLength"),
        min_length=s.get("minLength"),
        pattern=s.get("pattern") or "",
        max_items=s.get("maxItems"),
        min_items=s.get("minItems"),
        unique_items=bool(s.get("uniqueItems")),
        multiple_of=s.get("multipleOf"),
        enum=tuple(enum) if isinstance(enum, list) and enum else None,
        max_properties=s.get("maxProperties"),
        min_properties=s.get("minProperties"),
        required=tuple(s.get("required") or ()),
        all_of=tuple(nested(x) for x in S._list_of_schemas(s.get("allOf"))),
        one_of=tuple(nested(x) for x in S._list_of_schemas(s.get("oneOf"))),
        any_of=tuple(nested(x) for x in S._list_of_schemas(s.get("anyOf"))),
        not_=nested(not_schema) if isinstance(not_schema, dict) else None,
    )


def _reference_make_structural(s: dict[str, Any], built: Any) -> S.Structural:
    """``_make_structural`` as it was: by keyword, through ``_generic`` and ``_dict_of_schemas``."""
    ap = s.get("additionalProperties")
    additional: Any
    if isinstance(ap, dict):
        additional = built[(id(ap), False)]
    elif isinstance(ap, bool):
        additional = ap
    else:
        additional = None
    item = S._items_schema(s)
    return S.Structural(
        generic=S._generic(s),
        extensions=S._extensions(s),
        value_validation=_reference_value_validation(s, built),
        items=built[(id(item), False)] if item is not None else None,
        properties={k: built[(id(x), False)] for k, x in S._dict_of_schemas(s.get("properties")).items()},
        additional_properties=additional,
    )


def _reference_make_nested(s: dict[str, Any], built: Any) -> S.NestedValueValidation:
    """``_make_nested``, with the reference's value validation."""
    ap = s.get("additionalProperties")
    additional: Any = None
    if isinstance(ap, dict):
        additional = built[(id(ap), True)]
    elif ap is True:
        additional = S.NestedValueValidation()
    item = S._items_schema(s)
    return S.NestedValueValidation(
        value_validation=_reference_value_validation(s, built),
        items=built[(id(item), True)] if item is not None else None,
        properties={k: built[(id(x), True)] for k, x in S._dict_of_schemas(s.get("properties")).items()},
        additional_properties=additional,
        forbidden_generics=S._generic(s),
        forbidden_extensions=S._extensions(s),
        additional_properties_false=ap is False,
    )


def reference(root: dict[str, Any]) -> Any:
    """The plain walk: every node's children and convertibility looked at in full."""
    built: dict[tuple[int, bool], Any] = {}
    in_progress: set[tuple[int, bool]] = set()
    stack: list[tuple[dict[str, Any], bool, bool]] = [(root, False, False)]
    try:
        while stack:
            s, nested, expanded = stack.pop()
            key = (id(s), nested)
            if key in built:
                continue
            if not expanded:
                if key in in_progress:
                    raise StructuralError("OpenAPIV3Schema must not be recursive")
                if not S._convertible(s):
                    raise S._NotConvertible
                in_progress.add(key)
                stack.append((s, nested, True))
                stack.extend((c, n, False) for c, n in _reference_children(s, nested) if (id(c), n) not in built)
                continue
            built[key] = _reference_make_nested(s, built) if nested else _reference_make_structural(s, built)
    except S._NotConvertible:
        S._check_convertible(root)
        raise AssertionError("not convertible, yet no error") from None
    return built[(id(root), False)]


def outcome(fn: Any, schema: dict[str, Any]) -> Any:
    try:
        return fn(schema)
    except StructuralError as exc:
        return ("error", str(exc))


LEAF = {"type": "string", "maxLength": 3}
CASES: list[dict[str, Any]] = [
    {"type": "object"},
    {"type": "object", "properties": {"a": LEAF, "b": {"type": "array", "items": LEAF}}},
    {"type": "object", "additionalProperties": {"type": "integer", "default": 1}},
    {"type": "object", "properties": {"a": {"type": "string", "$ref": ""}}},  # an empty $ref is not set
    {"type": "object", "properties": {"a": {"type": "string", "$ref": "#/x"}}},
    {"type": "object", "properties": {"a": {"type": "string", "additionalItems": False}}},
    {"type": "object", "properties": {"a": {"type": "string", "definitions": {}}}},
    {"type": "object", "properties": {"a": {"type": "array", "items": [LEAF]}}},
    {"type": "object", "properties": {"a": {"type": "array", "items": []}}},
    {"type": "object", "properties": {"a": {"x-kubernetes-preserve-unknown-fields": False}}},
    {"type": "object", "properties": {"a": {"x-kubernetes-preserve-unknown-fields": True}}},
    {"type": "object", "allOf": [{"properties": {"a": {"maxLength": 2, "not": {"pattern": "x"}}}}],
     "anyOf": [{"required": ["a"]}, {"not": {"items": {"id": "x"}}}], "properties": {"a": LEAF}},
    {"type": "object", "oneOf": [{"additionalProperties": False}, {"additionalProperties": True}]},
    {"x-kubernetes-int-or-string": True, "anyOf": [{"type": "integer"}, {"type": "string"}]},
    {"type": "object", "properties": {"a": {"type": "object", "patternProperties": {"x": LEAF}}}},
    # every field of Generic and ValueValidation set, each to a value of its own (a positional slip shows)
    {"type": "object", "description": "d", "title": "t", "default": {"a": "x"}, "nullable": True,
     "externalDocs": {"url": "u"}, "example": {"a": "e"}, "maxProperties": 9, "minProperties": 1,
     "required": ["a"], "properties": {
         "a": {"type": "string", "format": "byte", "maxLength": 8, "minLength": 2, "pattern": "^a", "enum": ["ab"]},
         "n": {"type": "number", "maximum": 7.5, "exclusiveMaximum": True, "minimum": -3, "exclusiveMinimum": True,
               "multipleOf": 0.5},
         "l": {"type": "array", "maxItems": 4, "minItems": 3, "uniqueItems": True, "items": {"type": "integer"}},
         "j": {"type": "integer", "allOf": [{"maximum": 1}], "oneOf": [{"minimum": 2}], "anyOf": [{"maximum": 3}],
               "not": {"minimum": 4}},
         "e": {"type": "string", "enum": []}, "r": {"type": "object", "required": []},
     }},
    {"type": "object", "properties": {"a": {"type": "integer", "not": {"maximum": 2}}}},
    {"type": "object", "additionalProperties": True}, {"type": "object", "additionalProperties": False},
    {"type": "object", "properties": {"a": {"type": "array", "items": "not a schema"}, "b": "not a schema"}},
]


@pytest.mark.parametrize("schema", CASES)
def test_fast_paths_build_what_the_plain_walk_builds(schema: dict[str, Any]) -> None:
    assert outcome(new_structural, copy.deepcopy(schema)) == outcome(reference, copy.deepcopy(schema))


def test_shared_and_recursive_sub_schemas() -> None:
    shared = {"type": "object", "properties": {"x": dict(LEAF)}}
    dag = {"type": "object", "properties": {"a": shared, "b": {"type": "array", "items": shared}},
           "allOf": [{"properties": {"a": shared}}]}
    assert outcome(new_structural, dag) == outcome(reference, dag)
    loop: dict[str, Any] = {"type": "object", "properties": {}}
    loop["properties"]["self"] = loop
    assert outcome(new_structural, loop) == outcome(reference, loop) == ("error", "OpenAPIV3Schema must not be recursive")
