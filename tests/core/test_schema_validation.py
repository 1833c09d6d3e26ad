"""validateCustomResourceDefinitionValidation: OpenAPI rules, structural gate, defaults and CEL.

Our own cases for the behaviour pinned by upstream
``pkg/apis/apiextensions/validation/validation_test.go`` (schema cases),
``pkg/apiserver/schema/defaulting/validation_test.go`` and the CEL error
construction of ``validation.go``.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from crdtool.core.crd.options import CREATE_OPTIONS, ValidationOptions
from crdtool.core.crd.schema_validation import (
    StructuralError,
    new_structural,
    valid_field_path,
    validate_custom_resource_definition_validation,
    validate_defaults,
    validate_structural,
)
from crdtool.core.errors import Path

BASE = Path("spec", "validation")
P = "spec.validation.openAPIV3Schema"
R, I, F, NS, INT = "FieldValueRequired", "FieldValueInvalid", "FieldValueForbidden", "FieldValueNotSupported", "InternalError"

def obj(**props: Any) -> dict[str, Any]:
    return {"type": "object", "properties": props}


def run(schema: dict[str, Any], *, status: bool = False, opts: ValidationOptions = CREATE_OPTIONS) -> list[tuple[str, str]]:
    errs = validate_custom_resource_definition_validation({"openAPIV3Schema": schema}, status, opts, BASE)
    return [(e.type, e.field) for e in errs]


def run_full(schema: dict[str, Any], **kw: Any) -> list[Any]:
    return validate_custom_resource_definition_validation({"openAPIV3Schema": schema}, kw.get("status", False), CREATE_OPTIONS, BASE)


def test_reexports() -> None:
    assert issubclass(StructuralError, ValueError)
    assert validate_structural(Path(P), new_structural(obj())) == []


def test_none_and_empty() -> None:
    assert validate_custom_resource_definition_validation(None, True, CREATE_OPTIONS, BASE) == []
    assert validate_custom_resource_definition_validation({}, True, CREATE_OPTIONS, BASE) == []


# --- specStandardValidatorV3 and friends -------------------------------------------------


@pytest.mark.parametrize(
    "prop, expected",
    [
        pytest.param({"type": "string"}, [], id="ok"),
        pytest.param({"type": "foo"}, [(NS, f"{P}.properties[a].type")], id="bad-type"),
        pytest.param({"type": "null"}, [(NS, f"{P}.properties[a].type"), (F, f"{P}.properties[a].type")], id="null-type"),
        pytest.param({"type": "string", "uniqueItems": True}, [(F, f"{P}.properties[a].uniqueItems")], id="uniqueItems"),
        pytest.param({"type": "string", "$ref": "#/x"}, [(F, f"{P}.properties[a].$ref")], id="ref"),
        pytest.param({"type": "string", "id": "x"}, [(F, f"{P}.properties[a].id")], id="id"),
        pytest.param({"type": "array", "items": {"type": "string"}, "additionalItems": False},
                     [(F, f"{P}.properties[a].additionalItems")], id="additionalItems"),
        pytest.param({"type": "object", "patternProperties": {"x": {"type": "string"}}},
                     [(F, f"{P}.properties[a].patternProperties")], id="patternProperties"),
        pytest.param({"type": "object", "dependencies": {"x": ["y"]}}, [(F, f"{P}.properties[a].dependencies")], id="dependencies"),
        pytest.param({"type": "object", "definitions": {"x": {"type": "string"}}}, [(F, f"{P}.properties[a].definitions")], id="definitions"),
        pytest.param({"type": "array", "items": [{"type": "string"}]}, [(F, f"{P}.properties[a].items")], id="items-array"),
        pytest.param({"type": "object", "properties": {"b": {"type": "string"}}, "additionalProperties": {"type": "string"}},
                     [(F, f"{P}.properties[a].additionalProperties")], id="additionalProperties-and-properties"),
        pytest.param({"type": "object", "properties": {"b": {"type": "string"}}, "additionalProperties": False},
                     [(F, f"{P}.properties[a].additionalProperties")], id="additionalProperties-false-and-properties"),
        pytest.param({"type": "object", "properties": {"b": {"type": "string"}}, "additionalProperties": True}, [],
                     id="additionalProperties-true-and-properties"),
        pytest.param({"type": "object", "x-kubernetes-preserve-unknown-fields": False},
                     [(I, f"{P}.properties[a].x-kubernetes-preserve-unknown-fields")], id="preserve-false"),
    ],
)
def test_open_api_rules(prop: dict[str, Any], expected: list[tuple[str, str]]) -> None:
    assert run(obj(a=prop)) == expected


def test_forbidden_keyword_details() -> None:
    errs = run_full(obj(a={"type": "string", "$ref": "#/x", "uniqueItems": True}))
    assert [(e.field, e.detail) for e in errs] == [
        (f"{P}.properties[a].$ref", "$ref is not supported"),
        (f"{P}.properties[a].uniqueItems", "uniqueItems cannot be set to true since the runtime complexity becomes quadratic"),
    ]
    errs = run_full(obj(a={"type": "foo"}))
    assert errs[0].detail == 'supported values: "array", "boolean", "integer", "number", "object", "string"'


def test_require_valid_property_type_off() -> None:
    opts = dataclasses.replace(CREATE_OPTIONS, require_valid_property_type=False, require_structural_schema=False)
    assert run(obj(a={"type": "foo"}), opts=opts) == []


def test_structural_errors_hide_new_structural_errors_only_if_openapi_errors_exist() -> None:
    # the NewStructural error is reported only when nothing else is
    errs = run_full({"type": "object", "properties": {"a": {"type": "object", "x-kubernetes-preserve-unknown-fields": False}}})
    assert [(e.type, e.field) for e in errs] == [(I, f"{P}.properties[a].x-kubernetes-preserve-unknown-fields")]
    opts = dataclasses.replace(CREATE_OPTIONS, require_structural_schema=True)
    errs2 = validate_custom_resource_definition_validation(
        {"openAPIV3Schema": {"type": "object", "$schema": "http://x"}}, False, opts, BASE
    )
    assert [(e.type, e.field, e.detail) for e in errs2] == [(I, P, "OpenAPIV3Schema 'schema' is not supported")]


def test_structural_not_required() -> None:
    opts = dataclasses.replace(CREATE_OPTIONS, require_structural_schema=False)
    assert run(obj(a={}), opts=opts) == []
    assert run(obj(a={})) == [(R, f"{P}.properties[a].type")]


@pytest.mark.parametrize(
    "schema, expected",
    [
        (obj(metadata={"type": "object", "default": {"name": "x"}}), [(F, f"{P}.properties[metadata].default")]),
        (obj(kind={"type": "string", "default": "Foo"}), [(F, f"{P}.properties[kind].default")]),
        (obj(spec={"type": "string", "default": "x"}), []),
    ],
)
def test_defaults_forbidden_in_top_level_meta(schema: dict[str, Any], expected: list[tuple[str, str]]) -> None:
    got = [(e.type, e.field) for e in run_full(schema) if e.field.endswith(".default")]
    assert got == expected
    for e in run_full(schema):
        if e.field.endswith(".default") and e.type == F:
            assert e.detail.startswith("must not be set in top-level ")


def test_defaults_disallowed_with_reason() -> None:
    opts = dataclasses.replace(CREATE_OPTIONS, allow_defaults=False, disallow_defaults_reason="because")
    errs = validate_custom_resource_definition_validation(
        {"openAPIV3Schema": obj(a={"type": "string", "default": "x"})}, False, opts, BASE
    )
    assert [(e.type, e.field, e.detail) for e in errs if e.type == F] == [
        (F, f"{P}.properties[a].default", "must not be set because")
    ]


def test_embedded_resource_inside_resource_meta() -> None:
    schema = obj(metadata={"type": "object", "x-kubernetes-embedded-resource": True, "x-kubernetes-preserve-unknown-fields": True})
    errs = [(e.type, e.field, e.detail) for e in run_full(schema)]
    assert (F, f"{P}.properties[metadata].x-kubernetes-embedded-resource", "must not be used inside of resource meta") in errs


def test_default_inside_meta_additional_properties() -> None:
    embedded = obj(metadata={"type": "object", "additionalProperties": {"type": "string", "default": "x"}})
    embedded["x-kubernetes-embedded-resource"] = True
    errs = [(e.type, e.field, e.detail) for e in run_full(obj(e=embedded))]
    assert (F, f"{P}.properties[e].properties[metadata].additionalProperties.default",
            "must not be set inside additionalProperties applying to object metadata") in errs


# --- list and map types ----------------------------------------------------------------


def map_list(**over: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "type": "array",
        "x-kubernetes-list-type": "map",
        "x-kubernetes-list-map-keys": ["name"],
        "items": {"type": "object", "required": ["name"], "properties": {"name": {"type": "string"}}},
    }
    base.update(over)
    return base


@pytest.mark.parametrize(
    "prop, expected",
    [
        pytest.param(map_list(), [], id="map-ok"),
        pytest.param({"type": "object", "x-kubernetes-map-type": "atomic"}, [], id="map-type-ok"),
        pytest.param({"type": "string", "x-kubernetes-map-type": "atomic"}, [(I, "type")], id="map-type-on-string"),
        pytest.param({"type": "object", "x-kubernetes-map-type": "foo"}, [(NS, "x-kubernetes-map-type")], id="map-type-bad"),
        pytest.param({"type": "string", "x-kubernetes-list-type": "atomic"}, [(I, "type")], id="list-type-on-string"),
        pytest.param({"type": "array", "items": {"type": "string"}, "x-kubernetes-list-type": "foo"},
                     [(NS, "x-kubernetes-list-type")], id="list-type-bad"),
        pytest.param({"type": "array", "items": {"type": "string"}, "x-kubernetes-list-map-keys": ["a"]},
                     [(R, "x-kubernetes-list-type")], id="map-keys-without-list-type"),
        pytest.param({"type": "array", "items": {"type": "string"}, "x-kubernetes-list-type": "set", "x-kubernetes-list-map-keys": ["a"]},
                     [(I, "x-kubernetes-list-type")], id="map-keys-with-set"),
        pytest.param(map_list(**{"x-kubernetes-list-map-keys": []}), [(R, "x-kubernetes-list-map-keys")], id="map-without-keys"),
        pytest.param(map_list(**{"x-kubernetes-list-map-keys": ["other"]}), [(I, "x-kubernetes-list-map-keys")], id="key-not-property"),
        pytest.param(map_list(**{"x-kubernetes-list-map-keys": ["name", "name"]}), [(I, "x-kubernetes-list-map-keys")], id="duplicate-key"),
        pytest.param(map_list(items={"type": "string"}), [(I, "items.type")], id="map-items-not-object"),
        pytest.param(
            map_list(items={"type": "object", "required": ["name"], "properties": {"name": {"type": "object"}}}),
            [(I, "items.properties[name].type")], id="key-not-scalar",
        ),
        pytest.param(
            map_list(items={"type": "object", "properties": {"name": {"type": "string"}}}),
            [(R, "items.properties[name].default")], id="key-not-required",
        ),
        pytest.param(
            map_list(items={"type": "object", "properties": {"name": {"type": "string", "default": "a"}}}),
            [], id="key-defaulted",
        ),
        pytest.param(
            map_list(items={"type": "object", "required": ["name"], "properties": {"name": {"type": "string", "nullable": True}}}),
            [(F, "items.properties[name].nullable")], id="key-nullable",
        ),
        pytest.param(
            {"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "string", "nullable": True}},
            [(F, "items.nullable")], id="set-items-nullable",
        ),
        pytest.param(
            {"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "object", "properties": {"a": {"type": "string"}}}},
            [(I, "items.x-kubernetes-map-type")], id="set-of-granular-objects",
        ),
        pytest.param(
            {"type": "array", "x-kubernetes-list-type": "set",
             "items": {"type": "object", "x-kubernetes-map-type": "atomic", "properties": {"a": {"type": "string"}}}},
            [], id="set-of-atomic-objects",
        ),
        pytest.param(
            {"type": "array", "x-kubernetes-list-type": "set",
             "items": {"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "string"}}},
            [(I, "items.x-kubernetes-list-type")], id="set-of-set-lists",
        ),
    ],
)
def test_list_and_map_types(prop: dict[str, Any], expected: list[tuple[str, str]]) -> None:
    assert run(obj(a=prop)) == [(t, f"{P}.properties[a].{f}") for t, f in expected]


def test_list_type_details() -> None:
    errs = run_full(obj(a={"type": "array", "items": {"type": "string"}, "x-kubernetes-list-type": "foo"}))
    assert errs[0].detail == 'supported values: "atomic", "set", "map"'
    errs = run_full(obj(a={"x-kubernetes-list-type": "set", "x-kubernetes-preserve-unknown-fields": True}))
    assert [(e.type, e.detail) for e in errs] == [(R, "must be array if x-kubernetes-list-type is specified")]


def test_atomic_set_and_map_key_requirements_can_be_relaxed() -> None:
    opts = dataclasses.replace(CREATE_OPTIONS, require_atomic_set_type=False, require_map_list_keys_map_set_validation=False)
    schema = obj(
        a={"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "object", "properties": {"b": {"type": "string"}}}},
        m=map_list(items={"type": "object", "properties": {"name": {"type": "string"}}}),
    )
    assert run(schema, opts=opts) == []


# --- root restrictions -------------------------------------------------------------------------


def test_nullable_root() -> None:
    errs = run_full({"type": "object", "nullable": True})
    assert [(e.type, e.field, e.detail) for e in errs] == [(F, f"{P}.nullable", "nullable cannot be true at the root")]


@pytest.mark.parametrize(
    "schema, expected",
    [
        ({"type": "object", "properties": {"status": {"type": "object"}}, "required": ["status"], "description": "d",
          "x-kubernetes-validations": [{"rule": "true"}]}, []),
        ({"type": "object", "anyOf": [{"required": ["a"]}], "properties": {"a": {"type": "string"}}}, [(I, "spec.validation.openAPIV3Schema")]),
        ({"type": "object", "x-kubernetes-map-type": "atomic"}, [(I, "spec.validation.openAPIV3Schema")]),
        ({"type": "array", "items": {"type": "string"}}, [(I, "spec.validation.openAPIV3Schema.type")]),
    ],
)
def test_status_subresource_root_restrictions(schema: dict[str, Any], expected: list[tuple[str, str]]) -> None:
    got = [(e.type, e.field) for e in run_full(schema, status=True) if e.field in (P, P + ".type")]
    assert got[: len(expected)] == expected
    assert run(schema, status=False) == [x for x in run(schema, status=False)]
    if expected:
        errs = [e for e in run_full(schema, status=True) if e.field in (P, P + ".type")]
        if expected[0][1].endswith(".type"):
            assert errs[0].detail == 'only "object" is allowed as the type at the root of the schema if the status subresource is enabled'
        else:
            assert errs[0].detail.startswith("only [Description Type Format Title Maximum")
            assert errs[0].detail.endswith("XPreserveUnknownFields XValidations] fields are allowed at the root of the schema if the status subresource is enabled")


# --- x-kubernetes-validations --------------------------------------------------------------------


def rules_on_a(*rules: dict[str, Any], prop: dict[str, Any] | None = None) -> dict[str, Any]:
    p = dict(prop or {"type": "string"})
    p["x-kubernetes-validations"] = list(rules)
    return obj(a=p)


V = f"{P}.properties[a].x-kubernetes-validations"


@pytest.mark.parametrize(
    "rule, expected",
    [
        pytest.param({"rule": "self == 'x'"}, [], id="ok"),
        pytest.param({"rule": "  "}, [(R, f"{V}[0].rule", "rule is not specified")], id="rule-blank"),
        pytest.param({"rule": "true", "message": "  "}, [(I, f"{V}[0].message", "must be non-empty if specified")], id="message-blank"),
        pytest.param({"rule": "true", "message": "a\nb"}, [(I, f"{V}[0].message", "must not contain line breaks")], id="message-newline"),
        pytest.param({"rule": "true &&\ntrue"}, [(R, f"{V}[0].message", "message must be specified if rule contains line breaks")], id="rule-newline"),
        pytest.param({"rule": "true &&\ntrue", "message": "m"}, [], id="rule-newline-with-message"),
        pytest.param({"rule": "true", "messageExpression": " "},
                     [(R, f"{V}[0].messageExpression", "messageExpression must be non-empty if specified")], id="messageExpression-blank"),
        pytest.param({"rule": "true", "reason": "Bogus"},
                     [(NS, f"{V}[0].reason",
                       'supported values: "FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"')],
                     id="reason"),
        pytest.param({"rule": "true", "reason": "FieldValueForbidden"}, [], id="reason-ok"),
        pytest.param({"rule": "true", "fieldPath": " "},
                     [(I, f"{V}[0].fieldPath", "must be non-empty if specified"),
                      (I, f"{V}[0].fieldPath", "must be a valid path")], id="fieldPath-blank"),
        pytest.param({"rule": "true", "fieldPath": ".a\n"},
                     [(I, f"{V}[0].fieldPath", "must not contain line breaks"),
                      (I, f"{V}[0].fieldPath", "must be a valid path")], id="fieldPath-newline"),
    ],
)
def test_validation_rule_fields(rule: dict[str, Any], expected: list[tuple[str, str, str]]) -> None:
    errs = run_full(rules_on_a(rule))
    assert [(e.type, e.field, e.detail) for e in errs] == expected


@pytest.mark.parametrize(
    "field_path, ok",
    [(".b", True), (".b.c", True), ("['b']", True), (".m['k']", True), (".m.k", True), (".x", False),
     ("b", False), (".b.c.d", False), (".m['k'", False)],
)
def test_field_path(field_path: str, ok: bool) -> None:
    prop = obj(b=obj(c={"type": "string"}), m={"type": "object", "additionalProperties": {"type": "string"}})
    errs = run_full(rules_on_a({"rule": "true", "fieldPath": field_path}, prop=prop))
    assert (errs == []) is ok
    if not ok:
        assert [(e.type, e.field, e.detail) for e in errs] == [(I, f"{V}[0].fieldPath", "must be a valid path")]


def test_valid_field_path_messages() -> None:
    ss = new_structural(obj(b=obj(c={"type": "string"})))
    assert valid_field_path(".b.c", ss)[0] == "b.c"
    assert valid_field_path("b", ss)[2] == "expected [ or . but got: b"
    assert valid_field_path(".x", ss)[2] == "does not refer to a valid field"
    assert valid_field_path("[", ss)[2] == "unexpected end of JSON path"
    assert valid_field_path("[b]", ss)[2] == "expected single quoted string but got b"
    assert valid_field_path("['b'", ss)[2] == "unexpected end of JSON path"
    assert valid_field_path("['b']", ss, allow_array_notation=False)[2] == "array notation is not allowed"
    assert valid_field_path("['\\q']", ss)[2] == "invalid string literal: invalid escape char \\q"


def test_cel_compile_errors() -> None:
    errs = run_full(rules_on_a({"rule": "self ==", "message": "m"}, {"rule": "self.startsWith('a')", "messageExpression": "42"}))
    assert [(e.type, e.field) for e in errs] == [(I, f"{V}[0].rule"), (I, f"{V}[1].messageExpression")]
    # cel-go's ANTLR message (parser_test.go has the same expecting-set for an operand at <EOF>)
    assert errs[0].detail == (
        "compilation failed: ERROR: <input>:1:8: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', "
        "'.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n"
        " | self ==\n | .......^"
    )
    assert errs[1].detail == "messageExpression must evaluate to a string"
    # The bad value is the internal apiextensions.ValidationRule (no json tags), as json.Marshal writes it.
    assert str(errs[0]).startswith(
        f'{V}[0].rule: Invalid value: {{"Rule":"self ==","Message":"m","MessageExpression":"","Reason":null,'
        '"FieldPath":"","OptionalOldSelf":null}: compilation failed: '
    )
    assert str(errs[1]).startswith(
        f'{V}[1].messageExpression: Invalid value: {{"Rule":"self.startsWith(\'a\')","Message":"",'
        '"MessageExpression":"42","Reason":null,"FieldPath":"","OptionalOldSelf":null}: messageExpression must'
    )


def test_cel_skipped_when_schema_errors_exist() -> None:
    errs = run_full(rules_on_a({"rule": "self ==", "reason": "Bogus"}))
    assert [(e.type, e.field) for e in errs] == [(NS, f"{V}[0].reason")]
    # a structural error anywhere disables CEL compilation entirely
    schema = rules_on_a({"rule": "self =="})
    schema["properties"]["b"] = {}
    assert [(e.type, e.field) for e in run_full(schema)] == [(R, f"{P}.properties[b].type")]


def test_cel_schema_errors_precede_cel_errors() -> None:
    schema = rules_on_a({"rule": "self =="})
    schema["properties"]["b"] = {"type": "string", "uniqueItems": True}
    assert [(e.type, e.field) for e in run_full(schema)] == [(F, f"{P}.properties[b].uniqueItems"), (I, f"{V}[0].rule")]


def test_cel_not_compiled_without_structural_requirement() -> None:
    opts = dataclasses.replace(CREATE_OPTIONS, require_structural_schema=False)
    errs = validate_custom_resource_definition_validation({"openAPIV3Schema": rules_on_a({"rule": "self =="})}, False, opts, BASE)
    assert errs == []


def test_old_self_on_uncorrelatable_list_items() -> None:
    # bounded sizes keep the rule within the cost budget (see test_unbounded_list_item_rule_cost)
    items = {"type": "string", "maxLength": 10, "x-kubernetes-validations": [{"rule": "self == oldSelf"}]}
    schema = obj(l={"type": "array", "maxItems": 10, "items": items})
    errs = run_full(schema)
    assert [(e.type, e.field, e.detail) for e in errs] == [
        (I, f"{P}.properties[l].items.x-kubernetes-validations[0].rule",
         f"oldSelf cannot be used on the uncorrelatable portion of the schema within {P}.properties[l]")
    ]
    schema_map = obj(l=map_list(items={"type": "object", "required": ["name"], "properties": {"name": {"type": "string"}},
                                       "x-kubernetes-validations": [{"rule": "self == oldSelf"}]}))
    assert run_full(schema_map) == []


def test_unbounded_list_item_rule_cost() -> None:
    """validation.go getExpressionCost/getCostErrorMessage and cel_validation.go TotalCost.

    ``self == oldSelf`` on unbounded strings: cel-go charges 1 per identifier
    and ceil(0.1 x the smaller string's max size) for ``==`` on strings; both
    sizes are the 3 MiB request limit minus 2 quotes (3145726), so the rule
    costs 2 + 314573 = 314575. The item is under an array without maxItems,
    so it is multiplied by maxCardinality(minSize of a string = 2) =
    3145728 // 3 = 1048576: far over 100x the 10^7 per-rule and 10^8
    per-schema limits.
    """
    items = {"type": "string", "x-kubernetes-validations": [{"rule": "self == oldSelf"}]}
    errs = run_full(obj(l={"type": "array", "items": items}))
    rule = f"{P}.properties[l].items.x-kubernetes-validations[0].rule"
    hint = "(try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)"
    assert [(e.type, e.field, e.detail) for e in errs] == [
        (F, rule, f"estimated rule cost exceeds budget by factor of more than 100x {hint}"),
        (I, rule, f"oldSelf cannot be used on the uncorrelatable portion of the schema within {P}.properties[l]"),
        (F, rule, "contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema"),
        (F, P, "x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by "
               f"factor of more than 100x {hint}"),
    ]
    from crdtool.core.crdcel.compilation import RuleSource, compile_rules
    from crdtool.core.kubecel.decltype import schema_decl_type

    decl = schema_decl_type(new_structural({"type": "string"}), False)
    assert decl is not None
    [result] = compile_rules([RuleSource("self == oldSelf")], decl)
    assert (result.max_cost, result.max_cardinality) == (314575, 1048576)


def test_optional_old_self_requires_old_self() -> None:
    errs = run_full(rules_on_a({"rule": "self == 'a'", "optionalOldSelf": True}))
    assert [(e.type, e.field, e.detail) for e in errs] == [
        (I, f"{V}[0].optionalOldSelf", "may not be set if oldSelf is not used in rule")
    ]
    assert run_full(rules_on_a({"rule": "oldSelf.hasValue()", "optionalOldSelf": True})) == []


def test_rules_on_schema_without_cel_type() -> None:
    schema = obj(a={"x-kubernetes-preserve-unknown-fields": True, "x-kubernetes-validations": [{"rule": "true"}]})
    errs = run_full(schema)
    assert [(e.type, e.field) for e in errs] == [(INT, f"{P}.properties[a].x-kubernetes-validations")]
    assert errs[0].detail.startswith("internal error: failed to construct type information for x-kubernetes-validations rules")


def test_rules_at_root_and_in_additional_properties() -> None:
    schema = {"type": "object", "x-kubernetes-validations": [{"rule": "has(self.spec)"}],
              "properties": {"spec": {"type": "object", "additionalProperties": {
                  "type": "integer", "x-kubernetes-validations": [{"rule": "self > bogus"}]}}}}
    errs = run_full(schema)
    assert [(e.type, e.field) for e in errs] == [(I, f"{P}.properties[spec].additionalProperties.x-kubernetes-validations[0].rule")]


# --- defaults ------------------------------------------------------------------------------------


def test_validate_defaults_embedded_metadata() -> None:
    embedded = obj(metadata={"type": "object"}, spec={"type": "string"})
    embedded["x-kubernetes-embedded-resource"] = True
    embedded["x-kubernetes-preserve-unknown-fields"] = True
    embedded["default"] = {"apiVersion": "v1", "kind": "Foo", "metadata": {"name": "a/b"}}
    ss = new_structural(obj(e=embedded))
    errs = validate_defaults(Path(P), ss, True, False)
    assert [(e.type, e.field, e.detail) for e in errs if e.field.startswith(f"{P}.properties[e].default.metadata")] == [
        (I, f"{P}.properties[e].default.metadata.name", "may not contain '/'")
    ]


def test_validate_defaults_embedded_type_meta() -> None:
    embedded = {"type": "object", "x-kubernetes-embedded-resource": True, "x-kubernetes-preserve-unknown-fields": True,
                "default": {"kind": 1}}
    errs = validate_defaults(Path(P), new_structural(obj(e=embedded)), True, False)
    assert [(e.type, e.field, e.detail) for e in errs] == [(I, f"{P}.properties[e].default.kind", "must be a string")]
    embedded["default"] = {"metadata": {}}
    errs = validate_defaults(Path(P), new_structural(obj(e=embedded)), True, False)
    assert sorted((e.type, e.field) for e in errs) == [
        (R, f"{P}.properties[e].default.apiVersion"), (R, f"{P}.properties[e].default.kind")]


def test_validate_defaults_inside_meta() -> None:
    embedded = obj(metadata=obj(name={"type": "string", "default": "a/b"}))
    embedded["x-kubernetes-embedded-resource"] = True
    errs = validate_defaults(Path(P), new_structural(obj(e=embedded)), True, False)
    assert [(e.type, e.field) for e in errs] == [(I, f"{P}.properties[e].properties[metadata].properties[name].default")]
    assert errs[0].detail == "must result in valid metadata: metadata.name: Invalid value: \"a/b\": may not contain '/'"


@pytest.mark.parametrize(
    "prop, expected",
    [
        ({"type": "object", "properties": {"a": {"type": "string"}}, "default": {"a": "x"}}, []),
        ({"type": "object", "properties": {"a": {"type": "string"}}, "default": {"b": "x"}},
         [(I, f"{P}.properties[s].default", "must not have unknown fields")]),
        ({"type": "object", "x-kubernetes-preserve-unknown-fields": True, "default": {"b": "x"}}, []),
        ({"type": "integer", "default": "x"}, [("FieldValueTypeInvalid", f"{P}.properties[s].default")]),
    ],
)
def test_validate_defaults_pruned_and_valid(prop: dict[str, Any], expected: list[tuple[str, ...]]) -> None:
    errs = validate_defaults(Path(P), new_structural(obj(s=prop)), True, True)
    got = [(e.type, e.field, e.detail) for e in errs]
    assert [g[: len(x)] for g, x in zip(got, expected)] == expected and len(got) == len(expected)


def test_recursive_schema_is_rejected_cleanly() -> None:
    schema: dict[str, Any] = {"type": "object", "properties": {}}
    schema["properties"]["loop"] = schema
    errs = run_full(schema)
    assert [(e.type, e.field) for e in errs] == [(I, P)]


def test_deep_schema_no_recursion_error() -> None:
    node: dict[str, Any] = {"type": "string", "x-kubernetes-validations": [{"rule": "self.size() > 0"}]}
    for _ in range(4000):
        node = obj(a=node)
    assert run(node) == []
    node["x-kubernetes-validations"] = [{"rule": "has(self.a)"}]  # a rule scope spanning the whole depth
    assert run(node) == []
    leaf = node
    while "properties" in leaf:
        leaf = leaf["properties"]["a"]
    leaf["x-kubernetes-validations"] = [{"rule": "self =="}]
    errs = run_full(node)
    assert len(errs) == 1 and errs[0].field.endswith(".x-kubernetes-validations[0].rule")


def test_default_is_checked_against_cel_rules_with_upstream_messages() -> None:
    """defaulting/validation.go: CEL runs on a default only after the OpenAPI checks pass."""
    from crdtool.core.crd.schema_validation import validate_defaults
    from crdtool.core.schema.structural import new_structural

    schema = {
        "type": "object",
        "properties": {
            "spec": {
                "type": "object",
                "properties": {
                    "replicas": {"type": "integer", "default": 0, "x-kubernetes-validations": [{"rule": "self > 0"}]},
                    "name": {"type": "string", "default": 3, "x-kubernetes-validations": [{"rule": "self != ''"}]},
                },
            }
        },
    }
    errs = validate_defaults(Path("spec.validation.openAPIV3Schema"), new_structural(schema), True, True)
    messages = sorted(str(e) for e in errs)
    assert messages == [
        # the wrong type stops there: no CEL evaluation of that default
        'spec.validation.openAPIV3Schema.properties[spec].properties[name].default: Invalid value: "integer":  in body must be of type string: "integer"',
        "spec.validation.openAPIV3Schema.properties[spec].properties[replicas].default: Invalid value: 0: failed rule: self > 0",
    ]


@pytest.mark.parametrize(
    "rule, expected",
    [
        # apiextensions-apiserver defaulting/validation_test.go TestDefaultValidationWithOptionalOldSelf:
        # "invalid default" fails in the run without an old value, "valid default" passes both runs
        ({"rule": "oldSelf.hasValue()", "optionalOldSelf": True, "message": "foobarErrorMessage"},
         [f'{P}.properties[defaultFailsRatcheting].default: Invalid value: "default": foobarErrorMessage']),
        ({"rule": "oldSelf.orValue(self) == self", "optionalOldSelf": True, "message": "foobarErrorMessage"}, []),
        # defaulting/validation.go validate: the first run passes the default as its own old value, so a
        # transition rule is evaluated (and here fails); the second run is skipped after an error
        ({"rule": "self != oldSelf", "message": "must change"},
         [f'{P}.properties[defaultFailsRatcheting].default: Invalid value: "default": must change']),
        ({"rule": "self == oldSelf", "message": "immutable"}, []),
    ],
)
def test_validate_defaults_transition_rules(rule: dict[str, Any], expected: list[str]) -> None:
    schema = obj(defaultFailsRatcheting={"type": "string", "default": "default", "x-kubernetes-validations": [rule]})
    errs = validate_defaults(Path(P), new_structural(schema), True, False)
    assert [str(e) for e in errs] == expected


def test_recursive_schemas_are_refused_and_shared_ones_are_not() -> None:
    # A schema can only contain itself through a library caller's shared dicts (the manifest decoder
    # stops YAML alias loops first, at its depth limit); crdtool refuses it instead of walking forever.
    # Shared, non-recursive nodes are fine.
    from crdtool.core.crd.options import CREATE_OPTIONS
    from crdtool.core.crd.schema_validation import validate_custom_resource_definition_validation

    shared = {"type": "string"}
    ok = {"type": "object", "properties": {"spec": {"type": "object", "properties": {"a": shared, "b": shared}}}}
    assert validate_custom_resource_definition_validation({"openAPIV3Schema": ok}, False, CREATE_OPTIONS, Path("v")) == []
    spec: dict[str, Any] = {"type": "object", "properties": {}}
    spec["properties"]["self"] = spec
    looped = {"type": "object", "properties": {"spec": spec}}
    errs = validate_custom_resource_definition_validation({"openAPIV3Schema": looped}, False, CREATE_OPTIONS, Path("v"))
    assert [(e.field, e.detail) for e in errs] == [("v.openAPIV3Schema", "must not be recursive")]


def _exact_recursion_walk(monkeypatch: pytest.MonkeyPatch) -> None:
    """The exact path of the recursion check: no content key (as for a schema marshal refuses), so the
    ``_is_recursive`` walk runs and no structural schema is memoized."""
    from crdtool.core.crd import schema_validation

    monkeypatch.setattr(schema_validation, "content_key", lambda value: None)


def _recursion_cases() -> list[dict[str, Any]]:
    shared = {"type": "string", "default": "x"}
    via_properties: dict[str, Any] = {"type": "object", "properties": {}}
    via_properties["properties"]["self"] = via_properties
    via_items: dict[str, Any] = {"type": "array"}
    via_items["items"] = {"type": "object", "properties": {"back": via_items}}
    via_definitions: dict[str, Any] = {"type": "object", "definitions": {}}
    via_definitions["definitions"]["d"] = via_definitions
    via_all_of: dict[str, Any] = {"type": "object", "allOf": []}
    via_all_of["allOf"].append(via_all_of)
    looped_description: dict[str, Any] = {"type": "object"}
    looped_description["x-kubernetes-validations"] = [{"rule": "true", "extra": looped_description}]
    deep: dict[str, Any] = {"type": "object"}
    node = deep
    for _ in range(2100):  # beyond marshal's nesting limit, and no cycle
        child: dict[str, Any] = {"type": "object"}
        node["properties"] = {"x": child}
        node = child

    class Props(dict):  # type: ignore[type-arg]  # a dict marshal refuses
        pass

    subclassed = {"type": "object", "properties": Props(a={"type": "string"})}
    return [
        obj(spec=obj(a=shared, b=shared)),
        obj(spec=via_properties), via_items, obj(spec=via_definitions), via_all_of, looped_description, deep,
        subclassed, obj(spec=obj(a={"type": "integer", "default": "no"})),
    ]


def test_recursion_is_known_from_the_content_key_as_the_walk_knows_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """A schema marshal writes (its structural memo key) has no cycle: the walk for one is skipped (issue #28).
    Each case, recursive or not (through properties, items, definitions, allOf, a rule's extra key; shared
    nodes; nesting beyond marshal's limit; a dict subclass), gets the errors of the exact path."""
    from crdtool.core.content_memo import content_key
    from crdtool.core.crd import schema_validation

    cases = _recursion_cases()
    for schema in cases:
        if content_key(schema) is not None:
            assert not schema_validation._is_recursive(schema)
    schema_validation._STRUCTURAL.clear()
    fast = [validate_custom_resource_definition_validation({"openAPIV3Schema": s}, False, CREATE_OPTIONS, BASE)
            for s in cases]
    with monkeypatch.context() as m:
        _exact_recursion_walk(m)
        exact = [validate_custom_resource_definition_validation({"openAPIV3Schema": s}, False, CREATE_OPTIONS, BASE)
                 for s in cases]
    assert [[str(e) for e in errs] for errs in fast] == [[str(e) for e in errs] for errs in exact]
    recursive = [any(e.detail == "must not be recursive" for e in errs) for errs in exact]
    assert recursive == [False, True, True, True, True, False, False, False, False]
    assert fast[-1]  # the invalid default is found either way


def _defaults_exact(schema: dict[str, Any], is_root: bool = True, pruned: bool = True) -> list[str]:
    """validate_defaults' exact path: its walk run whether or not any node has a default."""
    from crdtool.core.crd import schema_validation

    ss = new_structural(schema)
    if is_root and not ss.extensions.x_embedded_resource:
        ss = schema_validation._embedded(ss)
    return [str(e) for e in schema_validation._defaults_walk(Path(P), ss, pruned, CREATE_OPTIONS.release)]


@pytest.mark.parametrize("schema", [
    obj(spec=obj(a={"type": "string"}, b={"type": "array", "items": {"type": "integer"}})),
    obj(spec=obj(a={"type": "string", "default": 1})),
    obj(spec={"type": "array", "items": obj(x={"type": "integer", "default": "x", "maximum": 1})}),
    obj(spec={"type": "object", "additionalProperties": {"type": "integer", "default": "not walked"}}),
    obj(spec=obj(a={"type": "string", "x-kubernetes-validations": [{"rule": "self == 'b'"}], "default": "a"})),
    obj(metadata={"type": "object", "properties": {"name": {"type": "string", "default": "Bad_Name"}}}),
    obj(spec={"type": "object", "x-kubernetes-embedded-resource": True, "properties": {
        "metadata": obj(name={"type": "string", "default": "Bad_Name"})}}),
    obj(spec=obj(a={"type": "object", "default": {"unknown": 1}, "properties": {"b": {"type": "string"}}})),
    {"type": "object", "x-kubernetes-embedded-resource": True, "properties": {"spec": {"type": "string"}}},
])
def test_a_schema_without_defaults_skips_the_walk_and_loses_no_error(schema: dict[str, Any]) -> None:
    """validate_defaults skips its walk for a schema without any default (issue #28): every schema here,
    with defaults (in properties, items, under metadata or an embedded resource, breaking a rule) or without
    (or only under additionalProperties, which the walk does not visit), gets the walk's errors."""
    got = [str(e) for e in validate_defaults(Path(P), new_structural(schema), True, True)]
    assert got == _defaults_exact(schema)


def test_defaults_shortcut_cases_do_find_errors() -> None:
    assert _defaults_exact(obj(spec=obj(a={"type": "string", "default": 1})))  # the comparison above sees errors
