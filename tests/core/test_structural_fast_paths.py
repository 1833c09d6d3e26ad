"""``new_structural``'s fast paths (crdtool/core/schema/structural.py ``_build``: a node without any key
``_children`` reads has no sub-schema; one without any key ``_convertible`` reads is convertible) against the
plain walk they shortcut: ``_children`` and ``_convertible`` asked for every node, as ``_build`` did before.
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
            built[key] = S._make_nested(s, built) if nested else S._make_structural(s, built)
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
