"""SchemaHas traversal (validation.go): every sub-schema kind, in upstream's visiting order."""

from __future__ import annotations

from crdtool.core.crd.schema_walk import schema_has, sub_schemas, walk


def test_sub_schemas_in_schema_has_order() -> None:
    schema = {
        "dependencies": {"d": {"title": "dependencies"}, "e": ["x"]},
        "definitions": {"d": {"title": "definitions"}},
        "additionalItems": {"title": "additionalItems"},
        "patternProperties": {"p": {"title": "patternProperties"}},
        "additionalProperties": {"title": "additionalProperties"},
        "properties": {"a": {"title": "properties.a"}, "b": {"title": "properties.b"}},
        "not": {"title": "not"},
        "oneOf": [{"title": "oneOf"}],
        "anyOf": [{"title": "anyOf"}],
        "allOf": [{"title": "allOf"}],
        "items": {"title": "items"},
    }
    assert [s["title"] for s in sub_schemas(schema)] == [
        "items", "allOf", "anyOf", "oneOf", "not", "properties.a", "properties.b",
        "additionalProperties", "patternProperties", "additionalItems", "definitions", "dependencies",
    ]


def test_items_as_array_and_booleans() -> None:
    schema = {"items": [{"title": "0"}, {"title": "1"}], "additionalProperties": True, "additionalItems": False}
    assert [s["title"] for s in sub_schemas(schema)] == ["0", "1"]


def test_walk_is_pre_order_and_deep_schemas_do_not_recurse() -> None:
    tree = {"title": "root", "properties": {"a": {"title": "a", "items": {"title": "a.items"}}, "b": {"title": "b"}}}
    assert [n["title"] for n in walk(tree)] == ["root", "a", "a.items", "b"]
    deep: dict = {"type": "string", "default": "x"}
    for _ in range(20000):
        deep = {"type": "object", "properties": {"a": deep}}
    assert schema_has(deep, lambda s: "default" in s)
    assert not schema_has(deep, lambda s: "x-kubernetes-validations" in s)
    assert not schema_has(None, lambda s: True)
