"""Structural schemas: NewStructural errors and ValidateStructural rules.

Cases are our own, derived from the behaviour pinned by upstream
``pkg/apiserver/schema/validation_test.go``, ``convert_test.go`` and the
structural cases of ``pkg/apis/apiextensions/validation/validation_test.go``.
"""

from __future__ import annotations

from typing import Any

import pytest

from crdtool.core.errors import Path
from crdtool.core.schema.structural import (
    NestedValueValidation,
    Structural,
    StructuralError,
    go_regexp_error,
    new_structural,
    validate_structural,
)

ROOT = Path("spec", "validation").child("openAPIV3Schema")


def obj(**props: Any) -> dict[str, Any]:
    return {"type": "object", "properties": props}


def errors(schema: dict[str, Any]) -> list[tuple[str, str, str]]:
    return [(e.type, e.field, e.detail) for e in validate_structural(ROOT, new_structural(schema))]


# --- new_structural ----------------------------------------------------------------


@pytest.mark.parametrize(
    "schema, message",
    [
        ({"type": "object", "$ref": "#/x"}, "OpenAPIV3Schema '$ref' is not supported"),
        ({"type": "object", "id": "x"}, "OpenAPIV3Schema 'id' is not supported"),
        ({"type": "object", "$schema": "x"}, "OpenAPIV3Schema 'schema' is not supported"),
        ({"type": "object", "patternProperties": {"a": {}}}, "OpenAPIV3Schema 'patternProperties' is not supported"),
        ({"type": "object", "dependencies": {"a": ["b"]}}, "OpenAPIV3Schema 'dependencies' is not supported"),
        ({"type": "array", "additionalItems": False}, "OpenAPIV3Schema 'additionalItems' is not supported"),
        ({"type": "object", "definitions": {"a": {}}}, "OpenAPIV3Schema 'definitions' is not supported"),
        ({"type": "array", "items": [{"type": "string"}]}, "OpenAPIV3Schema 'items' must be a schema, but is an array"),
        (
            obj(a={"type": "object", "x-kubernetes-preserve-unknown-fields": False}),
            "internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined",
        ),
        # nested under a junctor, in a property, in additionalProperties
        ({"type": "object", "anyOf": [{"$ref": "x"}]}, "OpenAPIV3Schema '$ref' is not supported"),
        (obj(a=obj(b={"type": "string", "id": "i"})), "OpenAPIV3Schema 'id' is not supported"),
        ({"type": "object", "additionalProperties": {"definitions": {"a": {}}}}, "OpenAPIV3Schema 'definitions' is not supported"),
    ],
)
def test_new_structural_errors(schema: dict[str, Any], message: str) -> None:
    with pytest.raises(StructuralError) as info:
        new_structural(schema)
    assert str(info.value) == message
    assert isinstance(info.value, ValueError)


def test_new_structural_first_error_in_upstream_order() -> None:
    # validateUnsupportedFields of the node comes before its value validations.
    schema = {"type": "object", "$ref": "x", "not": {"id": "i"}}
    with pytest.raises(StructuralError, match=r"'\$ref'"):
        new_structural(schema)
    # the junctors come before the node's extensions
    schema = {"x-kubernetes-preserve-unknown-fields": False, "allOf": [{"id": "i"}]}
    with pytest.raises(StructuralError, match="'id'"):
        new_structural(schema)


def test_new_structural_model() -> None:
    schema = {
        "type": "object",
        "description": "d",
        "properties": {
            "list": {
                "type": "array",
                "x-kubernetes-list-type": "map",
                "x-kubernetes-list-map-keys": ["name"],
                "items": obj(name={"type": "string", "default": "x", "pattern": "^a"}),
            },
            "map": {"type": "object", "additionalProperties": {"type": "integer"}, "x-kubernetes-map-type": "granular"},
            "bare": {"type": "object", "additionalProperties": False},
            "ios": {"x-kubernetes-int-or-string": True, "anyOf": [{"type": "integer"}, {"type": "string"}]},
            "any": {"x-kubernetes-preserve-unknown-fields": True, "x-kubernetes-embedded-resource": True, "type": "object"},
        },
        "x-kubernetes-validations": [{"rule": "true"}],
        "required": ["list"],
        "enum": [],
    }
    ss = new_structural(schema)
    assert ss.type == "object" and ss.generic.description == "d"
    assert ss.value_validation is not None and ss.value_validation.required == ("list",)
    assert ss.value_validation.enum is None  # an empty enum is no enum
    assert ss.extensions.x_validations == ({"rule": "true"},)
    lst = ss.properties["list"]
    assert lst.extensions.x_list_type == "map" and lst.extensions.x_list_map_keys == ("name",)
    assert lst.items is not None and lst.items.properties["name"].generic.default == "x"
    assert lst.items.properties["name"].value_validation.pattern == "^a"  # type: ignore[union-attr]
    m = ss.properties["map"]
    assert isinstance(m.additional_properties, Structural) and m.additional_properties.type == "integer"
    assert m.extensions.x_map_type == "granular"
    assert ss.properties["bare"].additional_properties is False
    ios = ss.properties["ios"]
    assert ios.extensions.x_int_or_string and len(ios.value_validation.any_of) == 2  # type: ignore[union-attr]
    assert isinstance(ios.value_validation.any_of[0], NestedValueValidation)  # type: ignore[union-attr]
    anyv = ss.properties["any"]
    assert anyv.extensions.x_preserve_unknown_fields and anyv.extensions.x_embedded_resource
    assert ss.properties["list"].additional_properties is None
    assert ss.to_schema()["properties"]["ios"] == schema["properties"]["ios"]
    assert {n.type for n in ss.walk()} >= {"object", "array", "string", "integer"}


def test_new_structural_does_not_mutate_and_handles_aliases() -> None:
    shared = {"type": "string"}
    schema = obj(a=shared, b=shared)
    before = repr(schema)
    ss = new_structural(schema)
    assert repr(schema) == before
    assert ss.properties["a"] == ss.properties["b"]


def test_new_structural_recursive_alias_is_an_error() -> None:
    schema: dict[str, Any] = {"type": "object", "properties": {}}
    schema["properties"]["self"] = schema
    with pytest.raises(StructuralError):
        new_structural(schema)


@pytest.mark.parametrize("kind", ["properties", "items"])
def test_deep_schema_no_recursion_error(kind: str) -> None:
    depth = 5000
    leaf: dict[str, Any] = {"type": "string"}
    node = leaf
    for _ in range(depth):
        node = obj(a=node) if kind == "properties" else {"type": "array", "items": node}
    root = obj(spec=node)
    ss = new_structural(root)
    assert validate_structural(ROOT, ss) == []
    assert len(ss.to_schema()) == 2
    # a deep error is still found
    leaf["type"] = ""
    errs = validate_structural(ROOT, new_structural(root))
    assert [(e.type, e.detail) for e in errs] == [
        ("FieldValueRequired", "must not be empty for specified object fields" if kind == "properties"
         else "must not be empty for specified array items")
    ]


# --- validate_structural --------------------------------------------------------------

R = "FieldValueRequired"
I = "FieldValueInvalid"
F = "FieldValueForbidden"
P = str(ROOT)


@pytest.mark.parametrize(
    "schema, expected",
    [
        pytest.param(obj(a={"type": "string"}), [], id="ok"),
        pytest.param({"properties": {}}, [(R, f"{P}.type", "must not be empty at the root")], id="root-type-empty"),
        pytest.param(obj(a={}), [(R, f"{P}.properties[a].type", "must not be empty for specified object fields")], id="field-type-empty"),
        pytest.param(
            obj(a={"type": "array", "items": {}}),
            [(R, f"{P}.properties[a].items.type", "must not be empty for specified array items")],
            id="items-type-empty",
        ),
        pytest.param(obj(a={"type": "array"}), [(R, f"{P}.properties[a].items", "must be specified")], id="array-without-items"),
        pytest.param({"type": "string"}, [(I, f"{P}.type", "must be object at the root")], id="root-not-object"),
        pytest.param(
            {"type": "object", "additionalProperties": {"type": "string"}},
            [(F, f"{P}.additionalProperties", "must not be used at the root")],
            id="additionalProperties-at-root",
        ),
        pytest.param(obj(a={"x-kubernetes-preserve-unknown-fields": True}), [], id="untyped-preserve-ok"),
        pytest.param(obj(a={"x-kubernetes-int-or-string": True}), [], id="untyped-int-or-string-ok"),
        pytest.param(
            obj(a={"x-kubernetes-int-or-string": True, "x-kubernetes-preserve-unknown-fields": True}),
            [(I, f"{P}.properties[a].x-kubernetes-preserve-unknown-fields", "must be false if x-kubernetes-int-or-string is true")],
            id="int-or-string-and-preserve",
        ),
        pytest.param(
            obj(a={"type": "object", "x-kubernetes-int-or-string": True, "x-kubernetes-embedded-resource": True,
                   "x-kubernetes-preserve-unknown-fields": True}),
            [
                (I, f"{P}.properties[a].x-kubernetes-embedded-resource", "must be false if x-kubernetes-int-or-string is true"),
                (I, f"{P}.properties[a].x-kubernetes-preserve-unknown-fields", "must be false if x-kubernetes-int-or-string is true"),
            ],
            id="int-or-string-and-embedded",
        ),
        pytest.param(
            obj(a={"x-kubernetes-int-or-string": True, "anyOf": [{"type": "integer"}, {"type": "string"}]}),
            [], id="int-or-string-anyOf-pattern",
        ),
        pytest.param(
            obj(a={"x-kubernetes-int-or-string": True,
                   "allOf": [{"anyOf": [{"type": "integer"}, {"type": "string"}]}, {"pattern": "^a"}]}),
            [], id="int-or-string-allOf-pattern",
        ),
        pytest.param(
            obj(a={"type": "string", "anyOf": [{"type": "string"}]}),
            [(F, f"{P}.properties[a].anyOf[0].type", "must be empty to be structural")],
            id="nested-type",
        ),
        pytest.param(
            obj(a={"x-kubernetes-int-or-string": True, "anyOf": [{"type": "string"}, {"type": "integer"}]}),
            [
                (F, f"{P}.properties[a].anyOf[0].type", "must be empty to be structural"),
                (F, f"{P}.properties[a].anyOf[1].type", "must be empty to be structural"),
            ],
            id="int-or-string-wrong-order",
        ),
        pytest.param(
            obj(a={"type": "string", "oneOf": [{"description": "d", "title": "t", "nullable": True, "default": "x"}]}),
            [
                (F, f"{P}.properties[a].oneOf[0].default", "must be undefined to be structural"),
                (F, f"{P}.properties[a].oneOf[0].description", "must be empty to be structural"),
                (F, f"{P}.properties[a].oneOf[0].nullable", "must be false to be structural"),
                (F, f"{P}.properties[a].oneOf[0].title", "must be empty to be structural"),
            ],
            id="nested-generics",
        ),
        pytest.param(
            obj(a={"type": "array", "items": {"type": "string"},
                   "not": {"x-kubernetes-list-type": "set", "x-kubernetes-list-map-keys": ["k"],
                           "x-kubernetes-map-type": "atomic", "x-kubernetes-validations": [{"rule": "true"}]}}),
            [
                (F, f"{P}.properties[a].not.x-kubernetes-list-map-keys", "must be empty to be structural"),
                (F, f"{P}.properties[a].not.x-kubernetes-list-type", "must be undefined to be structural"),
                (F, f"{P}.properties[a].not.x-kubernetes-map-type", "must be undefined to be structural"),
                (F, f"{P}.properties[a].not.x-kubernetes-validations", "must be empty to be structural"),
            ],
            id="nested-extensions",
        ),
        pytest.param(
            obj(a={"type": "object", "allOf": [{"x-kubernetes-preserve-unknown-fields": True,
                                                 "x-kubernetes-embedded-resource": True,
                                                 "x-kubernetes-int-or-string": True}]}),
            [
                (F, f"{P}.properties[a].allOf[0].x-kubernetes-embedded-resource", "must be false to be structural"),
                (F, f"{P}.properties[a].allOf[0].x-kubernetes-int-or-string", "must be false to be structural"),
                (F, f"{P}.properties[a].allOf[0].x-kubernetes-preserve-unknown-fields", "must be false to be structural"),
            ],
            id="nested-bool-extensions",
        ),
        pytest.param(
            obj(a={"type": "object", "additionalProperties": {"type": "string"},
                   "anyOf": [{"additionalProperties": {"pattern": "a"}}]}),
            [(F, f"{P}.properties[a].anyOf[0].additionalProperties", "must be undefined to be structural")],
            id="nested-additionalProperties",
        ),
        pytest.param(
            obj(a=obj(metadata={"type": "object"}) | {"anyOf": [{"properties": {"metadata": {}}}]}),
            [(F, f"{P}.properties[a].anyOf[0].properties[metadata]", "must not be specified in a nested context")],
            id="nested-metadata",
        ),
        pytest.param(
            obj(a={"type": "string"}) | {"anyOf": [{"properties": {"b": {"pattern": "x"}}}]},
            [(R, f"{P}.properties[b]", f"because it is defined in {P}.anyOf[0].properties[b]")],
            id="completeness-property",
        ),
        pytest.param(
            obj(a={"type": "object"}) | {"allOf": [{"properties": {"a": {"items": {"pattern": "x"}}}}]},
            [(R, f"{P}.properties[a].items", f"because it is defined in {P}.allOf[0].properties[a].items")],
            id="completeness-items",
        ),
        pytest.param(
            obj(a={"type": "string", "pattern": "[a"}),
            [(I, f"{P}.properties[a].pattern", "must be a valid regular expression, but isn't: error parsing regexp: missing closing ]: `[a`")],
            id="bad-pattern",
        ),
        pytest.param(
            obj(a={"type": "string", "allOf": [{"pattern": "(?=x)"}]}),
            [(I, f"{P}.properties[a].allOf[0].pattern",
              "must be a valid regular expression, but isn't: error parsing regexp: invalid or unsupported Perl syntax: `(?=`")],
            id="bad-nested-pattern",
        ),
    ],
)
def test_validate_structural(schema: dict[str, Any], expected: list[tuple[str, str, str]]) -> None:
    assert errors(schema) == expected


@pytest.mark.parametrize(
    "metadata, expected",
    [
        ({"type": "object"}, []),
        ({"type": "object", "properties": {"name": {"type": "string"}}}, []),
        ({"type": "object", "properties": {"generateName": {"type": "string"}}}, []),
        ({"type": "object", "properties": {"name": {"type": "string"}, "generateName": {"type": "string"}}}, []),
        ({"type": "object", "properties": {"labels": {"type": "object"}}}, ["implicit"]),
        ({"type": "object", "properties": {"name": {"type": "string"}, "labels": {"type": "object"}}}, ["implicit"]),
        ({"type": "object", "description": "meta"}, ["implicit"]),
        ({"type": "object", "x-kubernetes-preserve-unknown-fields": True}, ["implicit"]),
        ({"type": "object", "required": ["name"]}, ["implicit"]),
        ({"type": "object", "nullable": True}, ["implicit"]),
        ({"type": "object", "default": {"name": "x"}}, []),  # defaults are checked elsewhere
        ({"type": "string"}, ["type"]),
    ],
)
def test_root_metadata_restrictions(metadata: dict[str, Any], expected: list[str]) -> None:
    got = errors(obj(metadata=metadata))
    want = []
    for kind in expected:
        if kind == "implicit":
            want.append((F, f"{P}.properties[metadata]",
                         "must not specify anything other than name and generateName, but metadata is implicitly specified"))
        else:
            want.append((I, f"{P}.properties[metadata].type", "must be object"))
    assert got == want


def test_nested_metadata_is_only_restricted_in_embedded_resources() -> None:
    assert errors(obj(a=obj(metadata={"type": "string"}))) == []
    embedded = obj(metadata={"type": "string"}, kind={"type": "integer"}, apiVersion={"type": "string"})
    embedded["x-kubernetes-embedded-resource"] = True
    assert errors(obj(a=embedded)) == [
        (I, f"{P}.properties[a].properties[kind].type", "must be string"),
        (I, f"{P}.properties[a].properties[metadata].type", "must be object"),
    ]


@pytest.mark.parametrize(
    "schema, expected",
    [
        ({"x-kubernetes-embedded-resource": True, "x-kubernetes-preserve-unknown-fields": True},
         [(R, "type", "must be object if x-kubernetes-embedded-resource is true")]),
        ({"type": "array", "items": {"type": "string"}, "x-kubernetes-embedded-resource": True,
          "x-kubernetes-preserve-unknown-fields": True},
         [(I, "type", "must be object if x-kubernetes-embedded-resource is true")]),
        ({"type": "object", "x-kubernetes-embedded-resource": True},
         [(R, "properties", "must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields")]),
        ({"type": "object", "x-kubernetes-embedded-resource": True, "x-kubernetes-preserve-unknown-fields": True,
          "additionalProperties": {"type": "string"}},
         [(F, "additionalProperties", "must not be used if x-kubernetes-embedded-resource is set")]),
        ({"type": "object", "x-kubernetes-embedded-resource": True, "properties": {"spec": {"type": "object"}}}, []),
    ],
)
def test_embedded_resource(schema: dict[str, Any], expected: list[tuple[str, str, str]]) -> None:
    assert errors(obj(e=schema)) == [(t, f"{P}.properties[e].{f}", d) for t, f, d in expected]


def test_errors_are_sorted_by_message() -> None:
    errs = validate_structural(ROOT, new_structural(obj(b={}, a={})))
    assert [e.field for e in errs] == [f"{P}.properties[a].type", f"{P}.properties[b].type"]


def test_validate_structural_none() -> None:
    assert validate_structural(ROOT, None) == []


@pytest.mark.parametrize(
    "pattern, expected",
    [
        ("^[a-z0-9]([-a-z0-9]*[a-z0-9])?$", None),
        (r"\d+\.\d+", None),
        ("(?P<n>a)", None),
        ("[a", "error parsing regexp: missing closing ]: `[a`"),
        ("(a", "error parsing regexp: missing closing ): `(a`"),
        ("a)", "error parsing regexp: unexpected ): `a)`"),
        ("*a", "error parsing regexp: missing argument to repetition operator: `*`"),
        ("a**", "error parsing regexp: invalid nested repetition operator: `**`"),
        ("a{1001}", "error parsing regexp: invalid repeat count: `{1001}`"),
        (r"\1", "error parsing regexp: invalid escape sequence: `\\1`"),
        (r"\C", "error parsing regexp: invalid escape sequence: `\\C`"),
        ("[z-a]", "error parsing regexp: invalid character class range: `z-a`"),
        ("abc\\", "error parsing regexp: trailing backslash at end of expression: ``"),
        (r"\Q\C\E", None),
    ],
)
def test_go_regexp_error(pattern: str, expected: str | None) -> None:
    pytest.importorskip("re2")
    assert go_regexp_error(pattern) == expected
