"""The OpenAPI schema walk's leaf shortcut (crdtool/core/crd/schema_validation.py
``validate_custom_resource_definition_open_api_schema``): a node without any of ``_CHILD_FRAME_KEYS`` is finished
at once, as popping it back (with no child pushed above it) would finish it. Exact when such a node has no child
frame: checked here for nodes made of every key of ``JSONSchemaProps`` with values of every JSON shape
(upstream ``validation.go`` ``ValidateCustomResourceDefinitionOpenAPISchema`` visits the children listed there).
Likewise ``_child_frames``' skip of the rare children (``_RARE_CHILD_FRAME_KEYS``) against looking for them on
every node."""

from __future__ import annotations

import itertools
from typing import Any

from crdtool.core.crd import schema_validation as SV
from crdtool.core.crd.options import CREATE_OPTIONS
from crdtool.core.errors import Path

KEYS = [key for key, _, _ in SV._JSON_SCHEMA_PROPS_FIELDS] + ["unknownKey"]
VALUES: list[Any] = [None, True, False, 0, "x", "", [], [{"type": "string"}], {}, {"a": {"type": "string"}},
                     {"type": "string"}]


def _frame(node: dict[str, Any], cel: bool = False) -> Any:
    ssv = SV._SpecValidator(True, "", True)
    return SV._Frame(node, Path("spec"), ssv, False, None, None)


def test_nodes_without_child_keys_have_no_child_frames() -> None:
    leaves = 0
    for a, b in itertools.combinations(KEYS, 2):
        for va, vb in itertools.product(VALUES[::2], VALUES[1::2]):
            node = {a: va, b: vb}
            frames = SV._child_frames(_frame(node))
            if SV._CHILD_FRAME_KEYS.isdisjoint(node):
                leaves += 1
                assert frames == [], node
    assert leaves > 10_000


def _described(frames: list[Any]) -> list[tuple[str, int, Any]]:
    return [(str(f.path), id(f.schema), f.ssv) for f in frames]


def test_the_rare_children_skipped_on_a_node_without_their_keys_are_none(monkeypatch: Any) -> None:
    """Every pair of JSONSchemaProps keys with values of every shape: the same child frames, in the same order,
    as with the rare children looked for on every node (the key set made of every key there is)."""
    nodes = [{a: va, b: vb} for a, b in itertools.combinations(KEYS, 2)
             for va, vb in itertools.product(VALUES[::2], VALUES[1::2])]
    nodes += [{a: vb, b: va} for a, b in itertools.combinations(KEYS, 2)
              for va, vb in itertools.product(VALUES[::2], VALUES[1::2])]
    fast = [_described(SV._child_frames(_frame(node))) for node in nodes]
    monkeypatch.setattr(SV, "_RARE_CHILD_FRAME_KEYS", frozenset(KEYS))
    exact = [_described(SV._child_frames(_frame(node))) for node in nodes]
    assert fast == exact
    assert sum(1 for frames in exact if any("allOf" in p or "definitions" in p or "dependencies" in p or ".not" in p
                                             for p, _, _ in frames)) > 100


def test_every_child_key_can_make_a_child_frame() -> None:
    for key in SV._CHILD_FRAME_KEYS:
        shapes = [{"a": {"type": "string"}}, [{"type": "string"}], {"type": "string"}]
        assert any(SV._child_frames(_frame({key: v})) for v in shapes), key


def test_a_walk_of_leaves_and_branches() -> None:
    # validation.go: uniqueItems true is forbidden; x-kubernetes-map-type needs type object; additionalProperties
    # and properties are mutually exclusive; errors in the walk's order (properties by key)
    schema = {"type": "object", "properties": {
        "a": {"type": "string", "uniqueItems": True},
        "b": {"type": "array", "items": {"type": "string", "x-kubernetes-map-type": "granular"}},
        "c": {"type": "object", "additionalProperties": {"type": "integer", "nullable": True}, "properties": {"x": {}}},
    }}
    errs, cel = SV.validate_custom_resource_definition_open_api_schema(schema, Path("s"), CREATE_OPTIONS)
    assert [(e.field, e.type.value if hasattr(e.type, "value") else e.type) for e in errs] == [
        ("s.properties[a].uniqueItems", "FieldValueForbidden"),
        ("s.properties[b].items.type", "FieldValueInvalid"),
        ("s.properties[c].additionalProperties", "FieldValueForbidden"),
    ]  # an untyped property is the structural check's to report, not this walk's
    assert cel == []
