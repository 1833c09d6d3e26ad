"""CRD create and update validation per Kubernetes release (1.30 … 1.37).

Each case names the upstream test it transcribes (file and tag of k8s.io/apiextensions-apiserver) or,
where no upstream test pins the behaviour, the upstream code it follows. A case asserts the result at every
release where it differs, with error type, field path and detail.

CRDs here are internal-shaped dicts (v1beta1 JSON keys), as :mod:`crdtool.core.crd.validation` takes them.
"""

from __future__ import annotations

import copy
from typing import Any, Callable

import pytest

from crdtool.core.crd.update import warnings_on_update
from crdtool.core.crd.validation import validate_crd_create, warnings_on_create
from crdtool.core.releases import RELEASES, Release

ALL = tuple(RELEASES.values())
R = RELEASES

INV = "FieldValueInvalid"
REQ = "FieldValueRequired"
FORB = "FieldValueForbidden"
TOO_MANY = "FieldValueTooMany"


def releases(first: int, last: int = 37) -> list[Release]:
    return [RELEASES[m] for m in range(first, last + 1)]


def errors(errs: Any) -> list[tuple[str, str, str]]:
    return [(e.type, e.field, e.detail) for e in errs]


# --- strategy_test.go helpers (mkCRD, withListTypeSetItems) ---------------------------------------------------


Tweak = Callable[[dict[str, Any]], None]


def mk_crd(*tweaks: Tweak) -> dict[str, Any]:
    """``mkCRD``: a CRD whose spec only has what the tweaks add."""
    crd: dict[str, Any] = {"spec": {"versions": []}}
    for tweak in tweaks:
        tweak(crd["spec"])
    return crd


def version_schema(schema: dict[str, Any]) -> Tweak:
    def tweak(spec: dict[str, Any]) -> None:
        spec["versions"].append({"name": "v1", "served": True, "storage": True, "schema": {"openAPIV3Schema": schema}})

    return tweak


def top_level_schema(schema: dict[str, Any]) -> Tweak:
    def tweak(spec: dict[str, Any]) -> None:
        spec["validation"] = {"openAPIV3Schema": schema}

    return tweak


def with_list_type_set_items(item_type: str, field_name: str) -> Tweak:
    """``withListTypeSetItems``: a new version with one ``x-kubernetes-list-type: set`` array property."""

    def tweak(spec: dict[str, Any]) -> None:
        n = len(spec["versions"])
        spec["versions"].append({
            "name": f"v{n + 1}", "served": True, "storage": n == 0,
            "schema": {"openAPIV3Schema": {"type": "object", "properties": {field_name: {
                "type": "array", "x-kubernetes-list-type": "set", "items": {"type": item_type},
            }}}},
        })

    return tweak


def props(**fields: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "properties": fields}


def fmt(name: str) -> str:
    return f"unrecognized format {name!r}".replace("'", '"')


def list_set(item_type: str) -> str:
    return (f'x-kubernetes-list-type: set for items of type "{item_type}" is not supported by server-side apply or '
            "CEL validation rules")


# --- strategy_test.go TestWarningsOnCreate (v0.34.0 formats; v0.37.0-beta.0 list-type set) -------------------

FORMAT_CREATE_CASES: list[tuple[str, dict[str, Any], list[str]]] = [
    ("no unrecognized formats", mk_crd(version_schema(props(field1={"type": "string", "format": "date-time"}))), []),
    ("unrecognized format in version schema",
     mk_crd(version_schema(props(field1={"type": "string", "format": "invalidformat"}))), [fmt("invalidformat")]),
    ("unrecognized format in embedded schema",
     mk_crd(version_schema(props(nested=props(embeddedField={"type": "string", "format": "invalidformat"})))),
     [fmt("invalidformat")]),
    ("unrecognized format in top-level validation schema",
     mk_crd(top_level_schema(props(field1={"type": "string", "format": "invalidformat"}))), [fmt("invalidformat")]),
    ("multiple unrecognized formats",
     mk_crd(version_schema(props(field1={"type": "string", "format": "unknownformat1"},
                                 field2={"type": "string", "format": "unknownformat2"},
                                 nested=props(field3={"type": "string", "format": "unknownformat3"})))),
     [fmt("unknownformat1"), fmt("unknownformat2"), fmt("unknownformat3")]),
]

LIST_SET_CREATE_CASES: list[tuple[str, dict[str, Any], list[str]]] = [
    ("listType=set on object items", mk_crd(with_list_type_set_items("object", "endpoints")), [list_set("object")]),
    ("listType=set on array items", mk_crd(with_list_type_set_items("array", "cidrGroups")), [list_set("array")]),
    ("listType=set on both object and array items reports each type",
     mk_crd(with_list_type_set_items("object", "endpoints"), with_list_type_set_items("array", "cidrGroups")),
     [list_set("array"), list_set("object")]),
    ("listType=set on scalar items is not flagged", mk_crd(with_list_type_set_items("string", "verbs")), []),
    ("listType=set nested under items and properties is detected",
     mk_crd(version_schema(props(outer={"type": "array", "items": props(inner={
         "type": "array", "x-kubernetes-list-type": "set", "items": {"type": "object"}})}))),
     [list_set("object")]),
    ("listType=set in top-level validation schema",
     mk_crd(top_level_schema(props(endpoints={"type": "array", "x-kubernetes-list-type": "set",
                                              "items": {"type": "object"}}))),
     [list_set("object")]),
]


@pytest.mark.parametrize("release", ALL, ids=str)
@pytest.mark.parametrize("name,crd,expected", FORMAT_CREATE_CASES, ids=[c[0] for c in FORMAT_CREATE_CASES])
def test_warnings_on_create_formats(name: str, crd: dict[str, Any], expected: list[str], release: Release) -> None:
    # strategy.go@v0.33.13: WarningsOnCreate returns nil; @v0.34.0 on: the formats
    assert sorted(warnings_on_create(crd, release)) == (expected if release.at_least(34) else [])


@pytest.mark.parametrize("release", ALL, ids=str)
@pytest.mark.parametrize("name,crd,expected", LIST_SET_CREATE_CASES, ids=[c[0] for c in LIST_SET_CREATE_CASES])
def test_warnings_on_create_list_type_set(name: str, crd: dict[str, Any], expected: list[str], release: Release) -> None:
    # getNonScalarListTypeSetWarnings is new in strategy.go@v0.37.0-beta.0; its output is sorted
    assert warnings_on_create(crd, release) == (expected if release.at_least(37) else [])


def warnings_on_create_reference(crd: dict[str, Any], release: Release) -> list[str]:
    """warnings_on_create as it was: the formats and the list-type sets each found by a walk of their own, through
    the public functions (the one walk of both is its fast path, issue #28)."""
    from crdtool.core.crd.validation import non_scalar_list_type_set_warnings, unrecognized_formats

    spec = crd.get("spec") if isinstance(crd.get("spec"), dict) else {}
    return [fmt(f) for f in unrecognized_formats(spec, release)] + non_scalar_list_type_set_warnings(spec, release)


@pytest.mark.parametrize("release", ALL, ids=str)
def test_warnings_on_create_walks_once_for_what_two_walks_find(release: Release) -> None:
    both = mk_crd(version_schema(props(
        a={"type": "string", "format": "unknown1"}, b={"type": "integer", "format": "int8"},
        c={"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "object", "format": "x"}},
        d={"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "array", "items": {"type": "string"}}},
        e={"type": "number", "format": "unknown2"})), top_level_schema(props(f={"format": "unknown3"})))
    cases = [both] + [crd for _, crd, _ in FORMAT_CREATE_CASES + LIST_SET_CREATE_CASES] + [{"spec": []}, {}]
    for crd in cases:
        assert warnings_on_create(crd, release) == warnings_on_create_reference(crd, release)
    # both kinds, in the walks' order (the top-level schema first): none before 1.34, the string-typed format from
    # 1.34, every format from 1.36, and the two list-type sets from 1.37
    assert len(warnings_on_create(both, release)) == (0 if release.minor < 34 else 1 if release.minor < 36
                                                      else 5 if release.minor < 37 else 7)


# --- strategy_test.go TestWarningsOnUpdate (v0.34.0 formats; v0.37.0-beta.0 list-type set) -------------------


def formats_crd(*formats: str) -> dict[str, Any]:
    return mk_crd(version_schema(props(**{f"field{i + 1}": {"type": "string", "format": f}
                                          for i, f in enumerate(formats)})))


UPDATE_CASES: list[tuple[str, dict[str, Any], dict[str, Any], list[str], int]] = [
    ("no unrecognized formats", formats_crd("date-time"), formats_crd("date-time"), [], 34),
    ("newly introduced unrecognized format", formats_crd("date-time"), formats_crd("invalidformat"),
     [fmt("invalidformat")], 34),
    ("existing unrecognized format - no warning (ratcheting)", formats_crd("invalidformat"),
     formats_crd("invalidformat"), [], 34),
    ("multiple newly introduced unrecognized formats", formats_crd("date-time"),
     formats_crd("unknownformat1", "unknownformat2"), [fmt("unknownformat1"), fmt("unknownformat2")], 34),
    ("pre-existing listType=set on object items does not warn on update",
     mk_crd(with_list_type_set_items("object", "endpoints")), mk_crd(with_list_type_set_items("object", "endpoints")),
     [], 37),
    ("newly introduced listType=set on array items warns", mk_crd(with_list_type_set_items("object", "endpoints")),
     mk_crd(with_list_type_set_items("object", "endpoints"), with_list_type_set_items("array", "cidrGroups")),
     [list_set("array")], 37),
]


@pytest.mark.parametrize("release", ALL, ids=str)
@pytest.mark.parametrize("name,old,new,expected,since", UPDATE_CASES, ids=[c[0] for c in UPDATE_CASES])
def test_warnings_on_update(
    name: str, old: dict[str, Any], new: dict[str, Any], expected: list[str], since: int, release: Release
) -> None:
    assert sorted(warnings_on_update(new, old, release)) == (expected if release.at_least(since) else [])


def test_list_type_set_warning_follows_format_warnings_on_create() -> None:
    # strategy.go@v0.37.0-beta.0 WarningsOnCreate: the format warnings, then getNonScalarListTypeSetWarnings
    crd = mk_crd(with_list_type_set_items("object", "endpoints"))
    crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["x"] = {"type": "string", "format": "zz"}
    assert warnings_on_create(crd, R[37]) == [fmt("zz"), list_set("object")]
    assert warnings_on_create(crd, R[36]) == [fmt("zz")]


def test_list_type_set_warning_ratchets_per_item_type_not_per_field() -> None:
    # WarningsOnUpdate@v0.37.0-beta.0 compares warning texts: another object-items set field is not new
    old = mk_crd(with_list_type_set_items("object", "endpoints"))
    new = mk_crd(with_list_type_set_items("object", "endpoints"), with_list_type_set_items("object", "others"))
    assert warnings_on_update(new, old, R[37]) == []


# --- formats_test.go TestGetUnrecognizedFormats (v0.34.10, v0.36.3), through the strategy's Type: {s.Type} ----

# (node, releases that warn): 1.34–1.35 judge only type string (v0.34.1+), 1.36 on per type (v0.36.0); the
# k8s-* formats are recognized from compatibility version 1.34, i.e. release 1.35.
FORMAT_TYPE_CASES: list[tuple[dict[str, Any], list[int]]] = [
    ({"type": "string", "format": ""}, []),
    ({"type": "string", "format": "email"}, []),
    ({"type": "string", "format": "unknown-format"}, [34, 35, 36, 37]),
    ({"type": "string", "format": "k8s-short-name"}, [34]),
    ({"type": "string", "format": "k8s-long-name"}, [34]),
    ({"type": "string", "format": "k8sshortname"}, [34]),
    ({"type": "integer", "format": "unknown-format"}, [36, 37]),
    ({"format": "unknown-format"}, [36, 37]),
    ({"type": "integer", "format": "int32"}, []),
    ({"type": "integer", "format": "int64"}, []),
    ({"type": "integer", "format": "uuid"}, [36, 37]),
    ({"type": "number", "format": "double"}, []),
    ({"type": "number", "format": "float"}, []),
    ({"type": "number", "format": "int64"}, [36, 37]),
    ({"type": "boolean", "format": "x"}, [36, 37]),
    ({"type": "object", "format": "date-time"}, [36, 37]),
    ({"type": "array", "items": {"type": "string"}, "format": "int32"}, [36, 37]),
    # untyped (an int-or-string) is judged as a string from 1.36: int32 is no string format
    ({"x-kubernetes-int-or-string": True, "format": "int32"}, [36, 37]),
    ({"x-kubernetes-int-or-string": True, "format": "date"}, []),
]


@pytest.mark.parametrize("release", ALL, ids=str)
@pytest.mark.parametrize("node,warn_in", FORMAT_TYPE_CASES, ids=[repr(c[0]) for c in FORMAT_TYPE_CASES])
def test_unrecognized_format_per_type(node: dict[str, Any], warn_in: list[int], release: Release) -> None:
    crd = mk_crd(version_schema(props(f=copy.deepcopy(node))))
    expected = [fmt(node["format"])] if release.minor in warn_in else []
    assert warnings_on_create(crd, release) == expected


def test_format_warnings_only_once_create_passed() -> None:
    # rest.BeforeCreate: WarningsOnCreate runs after validation passed; the recorder drops repeated texts
    schema = props(a={"type": "string", "format": "foo"}, b={"type": "boolean", "format": "foo"},
                   c={"type": "integer", "format": "bar"})
    crd = {
        "metadata": {"name": "widgets.example.com"},
        "spec": {
            "group": "example.com", "version": "v1", "scope": "Namespaced",
            "names": {"plural": "widgets", "singular": "widget", "kind": "Widget", "listKind": "WidgetList"},
            "versions": [{"name": "v1", "served": True, "storage": True}],
            "validation": {"openAPIV3Schema": schema}, "preserveUnknownFields": False,
            "conversion": {"strategy": "None"},
        },
    }
    assert validate_crd_create(crd, R[35]) == ([], [fmt("foo")])
    assert validate_crd_create(crd, R[36]) == ([], [fmt("foo"), fmt("bar")])
    assert validate_crd_create(crd, R[33]) == ([], [])


# --- 1.37: metadata.name / generateName bounded for CEL cost estimation ----------------------------------------

COST_PREFIX = "estimated rule cost exceeds budget by factor of more than 100x"
COST_HINT = ("(try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and "
             "strings are declared)")


def schema_errors(schema: dict[str, Any], release: Release) -> list[tuple[str, str, str]]:
    """``validateCustomResourceDefinitionValidation`` with ``requireStructuralSchema`` (validation_test.go style)."""
    from crdtool.core.crd.options import ValidationOptions
    from crdtool.core.crd.schema_validation import validate_custom_resource_definition_validation
    from crdtool.core.errors import Path

    opts = ValidationOptions(release=release)
    return errors(validate_custom_resource_definition_validation(
        {"openAPIV3Schema": schema}, False, opts, Path("spec", "validation")))


@pytest.mark.parametrize("release", ALL, ids=str)
def test_metadata_name_and_generate_name_cost_is_bounded_from_137(release: Release) -> None:
    # validation_test.go@v0.37.0-beta.0 TestValidateCustomResourceDefinitionValidation "x-kubernetes-validations
    # rule referencing metadata.name and generateName is within estimated cost limit": no error in 1.37.
    # Before (model/schemas.go@v0.36.3: plain strings, 3 MiB - 2 each), contains() multiplies two unbounded
    # string sizes: the per-rule and the per-schema cost errors [derived].
    schema = {"type": "object", "x-kubernetes-validations": [{
        "rule": "self.metadata.name.contains(self.metadata.name) && "
                "self.metadata.generateName.contains(self.metadata.generateName)"}]}
    rule = "spec.validation.openAPIV3Schema.x-kubernetes-validations[0].rule"
    expected = [] if release.at_least(37) else [
        (FORB, rule, f"{COST_PREFIX} {COST_HINT}"),
        (FORB, rule, "contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema"),
        (FORB, "spec.validation.openAPIV3Schema",
         f"x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor "
         f"of more than 100x {COST_HINT}"),
    ]
    assert schema_errors(schema, release) == expected


def _meta(name: int | None = None, generate_name: int | None = None) -> Any:
    from crdtool.core.schema.structural import Generic, Structural, ValueValidation

    fields = {}
    for key, ml in (("name", name), ("generateName", generate_name)):
        if ml is not None:
            fields[key] = Structural(generic=Generic(type="string"), value_validation=ValueValidation(max_length=ml))
    if not fields:
        return Structural(generic=Generic(type="object"))
    meta = Structural(generic=Generic(type="object"), properties=fields)
    return Structural(generic=Generic(type="object"), properties={"metadata": meta})


# model/schemas_test.go@v0.37.0-beta.0 TestWithTypeAndObjectMetaNameLength: (input, name, generateName)
NAME_LENGTH_CASES = [
    ("metadata absent, defaults applied to both fields", _meta(), 253, 252),
    ("author maxLength on name preserved, generateName defaulted", _meta(name=10), 10, 252),
    ("author maxLength on generateName smaller than default is preserved", _meta(generate_name=100), 253, 100),
    ("author maxLength larger than default is capped to the default", _meta(1000, 1000), 253, 252),
]


@pytest.mark.parametrize("name,schema,want_name,want_generate_name", NAME_LENGTH_CASES,
                         ids=[c[0] for c in NAME_LENGTH_CASES])
def test_with_type_and_object_meta_name_length(name: str, schema: Any, want_name: int, want_generate_name: int) -> None:
    from crdtool.core.kubecel.decltype import MAX_REQUEST_SIZE_BYTES, schema_decl_type, with_type_and_object_meta

    got = with_type_and_object_meta(schema, 37)
    meta = got.properties["metadata"]
    assert meta.properties["name"].value_validation.max_length == want_name
    assert meta.properties["generateName"].value_validation.max_length == want_generate_name
    root = schema_decl_type(schema, True, 37)
    assert root is not None and root.fields is not None
    meta_type = root.fields["metadata"].type
    assert meta_type.fields is not None
    assert meta_type.fields["name"].type.max_elements == want_name * 4
    assert meta_type.fields["generateName"].type.max_elements == want_generate_name * 4
    # 1.36 (model/schemas.go@v0.36.3): plain strings, bounded by the request size only
    old = schema_decl_type(schema, True, 36)
    assert old is not None and old.fields is not None and old.fields["metadata"].type.fields is not None
    assert old.fields["metadata"].type.fields["name"].type.max_elements == MAX_REQUEST_SIZE_BYTES - 2


# --- structural schemas: nested additionalProperties: false (1.31), Generic.example/externalDocs (1.36) ---------

SCHEMA = "spec.validation.openAPIV3Schema"
NOT_STRUCTURAL = "must be undefined to be structural"
META_IMPLICIT = "must not specify anything other than name and generateName, but metadata is implicitly specified"


@pytest.mark.parametrize("junctor", ["allOf", "anyOf", "oneOf", "not"])
@pytest.mark.parametrize("release", ALL, ids=str)
def test_nested_additional_properties_false(junctor: str, release: Release) -> None:
    # convert.go@v0.30.14 newGenerics keeps a bare boolean (Generic.AdditionalProperties) and
    # validation.go@v0.30.14 validateNestedValueValidation forbids it; convert.go@v0.31.0
    # newNestedValueValidation leaves a bare false nil [derived: no upstream test pins false]
    nested: Any = {"additionalProperties": False}
    where = f"{SCHEMA}.properties[x].{junctor}"
    if junctor != "not":
        nested, where = [nested], where + "[0]"
    schema = props(x={"type": "object", junctor: nested})
    expected = [] if release.at_least(31) else [(FORB, f"{where}.additionalProperties", NOT_STRUCTURAL)]
    assert schema_errors(schema, release) == expected


@pytest.mark.parametrize("release", ALL, ids=str)
def test_nested_additional_properties_true_or_schema_stay_forbidden(release: Release) -> None:
    # validation.go@v0.31.0 validateNestedValueValidation: AllowNestedAdditionalProperties is false for CRDs
    for ap in (True, {"type": "string"}):
        schema = props(x={"type": "object", "allOf": [{"additionalProperties": ap}]})
        assert schema_errors(schema, release) == [
            (FORB, f"{SCHEMA}.properties[x].allOf[0].additionalProperties", NOT_STRUCTURAL)]


@pytest.mark.parametrize("release", ALL, ids=str)
def test_int_or_string_any_of_with_nested_additional_properties_false(release: Release) -> None:
    # isIntOrStringAnyOfPattern is reflect.DeepEqual with {Type: integer}, {Type: string}: in 1.30 the bare false
    # is part of the nested Generic, so the pattern does not match and the anyOf is judged [derived]
    schema = props(x={"x-kubernetes-int-or-string": True,
                      "anyOf": [{"type": "integer", "additionalProperties": False}, {"type": "string"}]})
    expected = [] if release.at_least(31) else [
        (FORB, f"{SCHEMA}.properties[x].anyOf[0].additionalProperties", NOT_STRUCTURAL),
        (FORB, f"{SCHEMA}.properties[x].anyOf[0].type", "must be empty to be structural"),
        (FORB, f"{SCHEMA}.properties[x].anyOf[1].type", "must be empty to be structural"),
    ]
    assert schema_errors(schema, release) == expected


@pytest.mark.parametrize("key,value", [("example", {"name": "foo"}), ("externalDocs", {"url": "https://x"}),
                                      ("externalDocs", {})])
@pytest.mark.parametrize("release", ALL, ids=str)
def test_root_metadata_with_example_or_external_docs(key: str, value: Any, release: Release) -> None:
    # structural.go@v0.36.0 adds ExternalDocs and Example to Generic; validateStructuralMetadataInvariants
    # (unchanged) compares the whole root metadata node with the zero Structural [derived: no upstream test]
    schema = props(metadata={"type": "object", key: value})
    expected = [(FORB, f"{SCHEMA}.properties[metadata]", META_IMPLICIT)] if release.at_least(36) else []
    assert schema_errors(schema, release) == expected


@pytest.mark.parametrize("release", ALL, ids=str)
def test_example_and_external_docs_elsewhere_stay_allowed(release: Release) -> None:
    # validateNestedValueValidation@v0.36.0 does not look at them; embedded metadata is not compared
    schema = props(
        spec={"type": "object", "example": {"a": 1}, "externalDocs": {"url": "https://x"},
              "allOf": [{"example": 1, "externalDocs": {"url": "https://y"}}]},
        embedded={"type": "object", "x-kubernetes-embedded-resource": True,
                  "properties": {"metadata": {"type": "object", "example": {"name": "n"}}}},
    )
    assert schema_errors(schema, release) == []


@pytest.mark.parametrize("release", ALL, ids=str)
def test_int_or_string_any_of_with_example(release: Release) -> None:
    # from 1.36 the nested Generic carries Example: {Type: integer, Example: 1} is no longer the int-or-string
    # pattern, so the anyOf's types are judged as any nested value validation's [derived]
    schema = props(x={"x-kubernetes-int-or-string": True, "anyOf": [{"type": "integer", "example": 1}, {"type": "string"}]})
    expected = [
        (FORB, f"{SCHEMA}.properties[x].anyOf[0].type", "must be empty to be structural"),
        (FORB, f"{SCHEMA}.properties[x].anyOf[1].type", "must be empty to be structural"),
    ] if release.at_least(36) else []
    assert schema_errors(schema, release) == expected


# --- preexisting expressions: rules and messageExpressions apart; 1.30 records the rule text --------------------

# validation_test.go@v0.31.0 TestValidateCustomResourceDefinitionValidationRuleCompatibility, with a function each
# release declares for stored expressions only in place of upstream's test-only library.Test() (environment/
# base.go of each tag: the new-expressions environment is that of the compatibility version 1.(N-1)).
STORED_ONLY: dict[int, str] = {
    30: "ip('1.2.3.4').family()",  # library.IP: IntroducedVersion 1.30
    31: "format.dns1123Label().validate('abc').hasValue()",  # library.Format: 1.31
    32: "[1].all(i, v, v > 0)",  # ext.TwoVarComprehensions: 1.32
    33: "semver('1.0.0').major()",  # library.SemverLib: 1.33
    34: "[1, 2].reverse()[0]",  # ext.Lists(3): 1.34
    37: "[1].includes(1)",  # library.Lists(ListsVersion(1)): 1.37
}
PLACES = [
    "properties[x]", "properties[obj]", "properties[obj].properties[a]", "properties[array]",
    "properties[array].items", "properties[map]", "properties[map].additionalProperties",
]


def rule_compatibility_crd(rule: str, message_expression: str) -> dict[str, Any]:
    rules = [{"rule": rule, "messageExpression": message_expression}]

    def string(**extra: Any) -> dict[str, Any]:
        return {"type": "string", "x-kubernetes-validations": copy.deepcopy(rules), **extra}

    schema = props(
        x=string(),
        obj={"type": "object", "properties": {"a": string()}, "x-kubernetes-validations": copy.deepcopy(rules)},
        array={"type": "array", "maxItems": 1, "items": string(), "x-kubernetes-validations": copy.deepcopy(rules)},
        map={"type": "object", "maxProperties": 1, "additionalProperties": string(),
             "x-kubernetes-validations": copy.deepcopy(rules)},
    )
    return {
        "metadata": {"name": "plural.group.com", "resourceVersion": "1"},
        "spec": {
            "group": "group.com", "scope": "Cluster",
            "names": {"plural": "plural", "singular": "singular", "kind": "Plural", "listKind": "PluralList"},
            "versions": [{"name": "version", "served": True, "storage": True}],
            "validation": {"openAPIV3Schema": schema},
        },
        "status": {"storedVersions": ["version"]},
    }


def rule_compatibility_errors(new: dict[str, Any], old: dict[str, Any], release: Release) -> list[tuple[str, str]]:
    from crdtool.core.crd.options import ValidationOptions
    from crdtool.core.crd.update import find_preexisting_expressions, validate_custom_resource_definition_update

    zero = {f: False for f, v in vars(ValidationOptions()).items() if isinstance(v, bool)}
    opts = ValidationOptions(**{**zero, "release": release,
                                "preexisting_expressions": find_preexisting_expressions(old["spec"], release)})
    return sorted((e.type, e.field) for e in validate_custom_resource_definition_update(new, old, opts))


def all_at(leaf: str) -> list[tuple[str, str]]:
    return sorted((INV, f"{SCHEMA}.{p}.x-kubernetes-validations[0].{leaf}") for p in PLACES)


@pytest.mark.parametrize("minor", sorted(STORED_ONLY))
def test_stored_only_functions_allowed_if_expressions_are_unchanged(minor: int) -> None:
    fn = STORED_ONLY[minor]
    crd = rule_compatibility_crd(f"{fn} == {fn}", f"'test: %s'.format([{fn}])")
    # v0.30.14 findPreexistingExpressionsInSchema records the rule text as the messageExpression: the unchanged
    # messageExpression compiles in the new-expressions environment and fails (fixed in v0.31.0)
    expected = all_at("messageExpression") if minor == 30 else []
    assert rule_compatibility_errors(crd, copy.deepcopy(crd), R[minor]) == expected


@pytest.mark.parametrize("minor", sorted(STORED_ONLY))
def test_stored_only_functions_not_allowed_if_rule_is_changed(minor: int) -> None:
    fn = STORED_ONLY[minor]
    old = rule_compatibility_crd(f"{fn} != {fn}", f"'test: %s'.format([{fn}])")
    new = rule_compatibility_crd(f"{fn} == {fn}", f"'test: %s'.format([{fn}])")
    # compileRule returns at the rule's error, before the messageExpression
    assert rule_compatibility_errors(new, old, R[minor]) == all_at("rule")


@pytest.mark.parametrize("minor", sorted(STORED_ONLY))
def test_stored_only_functions_not_allowed_if_message_expression_is_changed(minor: int) -> None:
    fn = STORED_ONLY[minor]
    old = rule_compatibility_crd(f"{fn} == {fn}", f"'test: %s'.format([{fn}])")
    new = rule_compatibility_crd(f"{fn} == {fn}", f"'test - updated: %s'.format([{fn}])")
    assert rule_compatibility_errors(new, old, R[minor]) == all_at("messageExpression")


@pytest.mark.parametrize("minor", sorted(STORED_ONLY))
def test_rule_and_message_expression_sets_are_apart(minor: int) -> None:
    # preexistingExpressions.RuleEnv / MessageExpressionEnv (validation.go@v0.31.0 … v0.37.0-beta.0) look in two
    # sets: a new rule whose text was only an old messageExpression is a new expression, and vice versa. In 1.30
    # (v0.30.14) the messageExpressions set holds the old rule texts, so a messageExpression equal to an old rule
    # compiles in the stored-expressions environment.
    fn = STORED_ONLY[minor]
    as_rule, as_message = f"{fn} == {fn}", f"'test: %s'.format([{fn}])"
    old = rule_compatibility_crd("true", as_rule)
    new = rule_compatibility_crd(as_rule, "'m'")
    assert rule_compatibility_errors(new, old, R[minor]) == all_at("rule")
    old = rule_compatibility_crd(as_message, "'m'")
    new = rule_compatibility_crd("true", as_message)
    assert rule_compatibility_errors(new, old, R[minor]) == ([] if minor == 30 else all_at("messageExpression"))


# --- defaults are validated against ToKubeOpenAPI: an int-or-string node has no type --------------------------


@pytest.mark.parametrize("release", ALL, ids=str)
def test_int_or_string_default_has_no_type_check(release: Release) -> None:
    # defaulting/validation.go (every tag): NewSchemaValidatorFromOpenAPI(s.ToKubeOpenAPI()); kubeopenapi.go only
    # emits the x-kubernetes-int-or-string extension, so kube-openapi's typeValidator does not apply [derived]
    assert schema_errors(props(x={"x-kubernetes-int-or-string": True, "default": True}), release) == []
    # with the usual anyOf, the anyOf judges (kube-openapi schemaPropsValidator: the anyOf error, then the best
    # failure's errors), and no "integer,string" type error
    node = {"x-kubernetes-int-or-string": True, "anyOf": [{"type": "integer"}, {"type": "string"}], "default": True}
    path = f"{SCHEMA}.properties[x].default"
    assert schema_errors(props(x=node), release) == [
        (INV, path, '"" must validate at least one schema (anyOf)'),
        ("FieldValueTypeInvalid", path, ' in body must be of type integer: "boolean"'),
    ]


# --- validation_test.go@v0.36.3 TestValidateCustomResourceDefinitionUpdate (43 cases), per release -------------

from tests.core.test_crd_update_upstream import CASES as UPDATE_UPSTREAM_CASES  # noqa: E402
from tests.core.test_crd_update_upstream import DETAILS as UPDATE_UPSTREAM_DETAILS  # noqa: E402

SELECTABLE_SAME = "ratcheting: too many selectableFields are allowed if existing CRD has same selectableFields"
SELECTABLE_SAME_TOP = ("ratcheting: top level schema: too many selectableFields are allowed if existing CRD has same "
                       "selectableFields")
CA_BUNDLE = "webhookconfig: update to invalid CABundle should fail if existing is valid"


def update_expectation(name: str, release: Release) -> list[tuple[str, str, str]]:
    """Upstream's v0.36.3 expectation moved to ``release`` (each change cites the tag that brought it)."""
    expected = list(UPDATE_UPSTREAM_DETAILS.get(name, []))
    if name == CA_BUNDLE and not release.at_least(31):
        return []  # validation.go@v0.30.14: no ValidateCABundle (allowInvalidCABundle is v0.31.0)
    if not release.at_least(35):  # findTooManySelectableFieldsAllowed is v0.35.0
        if name == SELECTABLE_SAME:
            return [(TOO_MANY, "spec.versions[0].selectableFields", "must have at most 8 items")]
        if name == SELECTABLE_SAME_TOP:
            return [(TOO_MANY, "spec.selectableFields", "must have at most 8 items")]
    out = []
    for etype, path, detail in expected:
        if path.startswith("status.storedVersions[") and not release.at_least(33):
            detail = "must appear in spec.versions"  # validation.go@v0.32.13
        if path.endswith("schema.openAPIV3Schema") and etype == REQ and not release.at_least(34):
            detail = "schemas are required"  # validation.go@v0.33.13
        out.append((etype, path, detail))
    return out


@pytest.mark.parametrize("release", [r for r in ALL if r.minor != 36], ids=str)
@pytest.mark.parametrize("case", UPDATE_UPSTREAM_CASES, ids=[c["name"] for c in UPDATE_UPSTREAM_CASES])
def test_validate_crd_update_upstream_per_release(case: dict[str, Any], release: Release) -> None:
    import crdtool

    from tests.core.test_crd_update_upstream import _detail_matches

    errs = crdtool.validate_crd_update(case["resource"], case["old"], kubernetes_version=release.name)
    expected = update_expectation(case["name"], release)
    assert sorted((e.type, e.field) for e in errs) == sorted((t, p) for t, p, _ in expected), [str(e) for e in errs]
    remaining = list(errs)
    for etype, path, detail in expected:
        match = next((e for e in remaining if e.type == etype and e.field == path and _detail_matches(detail, e.detail)),
                     None)
        assert match is not None, (etype, path, detail, [str(e) for e in errs])
        remaining.remove(match)


# --- validation_test.go TestValidateCustomResourceDefinitionStoredVersions: the text of v0.32.13 / v0.33.0 -----


@pytest.mark.parametrize("release", ALL, ids=str)
def test_stored_versions_text(release: Release) -> None:
    from crdtool.core.crd.validation import validate_custom_resource_definition_stored_versions
    from crdtool.core.errors import Path

    spec_versions = [{"name": v, "served": True, "storage": v == "v1"} for v in ("v1beta1", "v1")]
    errs = validate_custom_resource_definition_stored_versions(
        ["v1alpha", "v1beta1", "v1"], spec_versions, Path("status").child("storedVersions"), release)
    # @v0.32.0 .contains("Invalid value: \"v1alpha\": must appear in spec.versions");
    # @v0.33.0 .contains("Invalid value: \"v1alpha\": missing from spec.versions")
    detail = ("must appear in spec.versions" if not release.at_least(33) else
              "missing from spec.versions; v1alpha was previously a storage version, and must remain in spec.versions "
              "until a storage migration ensures no data remains persisted in v1alpha and removes v1alpha from "
              "status.storedVersions")
    assert errors(errs) == [(INV, "status.storedVersions[0]", detail)]
    assert 'Invalid value: "v1alpha": ' + detail[:28] in str(errs[0])


# --- detail texts changed in 1.34 (validation.go and apiserver webhook/validation.go, v0.33.13 -> v0.34.0) -------


def full_crd(**spec: Any) -> dict[str, Any]:
    base = {
        "group": "example.com", "version": "v1", "scope": "Namespaced",
        "names": {"plural": "widgets", "singular": "widget", "kind": "Widget", "listKind": "WidgetList"},
        "versions": [{"name": "v1", "served": True, "storage": True}],
        "preserveUnknownFields": False, "conversion": {"strategy": "None"},
        "validation": {"openAPIV3Schema": props(spec=props(name={"type": "string"}))},
    }
    base.update(spec)
    return {"metadata": {"name": "widgets.example.com"}, "spec": {k: v for k, v in base.items() if v is not None},
            "status": {"storedVersions": ["v1"]}}


def created(crd: dict[str, Any], release: Release) -> list[tuple[str, str, str]]:
    return errors(validate_crd_create(crd, release)[0])


@pytest.mark.parametrize("release", ALL, ids=str)
def test_selectable_fields_placement_texts(release: Release) -> None:
    old = not release.at_least(34)
    # the top level: selectableFields without a top-level schema (the versions carry theirs)
    schema = {"schema": {"openAPIV3Schema": props(spec=props(name={"type": "string"}))}}
    crd = full_crd(validation=None, selectableFields=[{"jsonPath": ".spec.name"}],
                   versions=[{"name": "v1", "served": True, "storage": True, **schema},
                             {"name": "v2", "served": True, "storage": False, **copy.deepcopy(schema)}])
    crd["spec"]["versions"][1]["schema"]["openAPIV3Schema"]["description"] = "v2"
    detail = ("selectableFields may only be set when validations.schema is included" if old else
              "may only be set when validations.schema is included")
    assert created(crd, release) == ([] if not release.at_least(31) else [(INV, "spec.selectableFields", detail)])
    # a version: selectableFields without the version's schema (the top level has it)
    crd = full_crd(versions=[{"name": "v1", "served": True, "storage": True,
                              "selectableFields": [{"jsonPath": ".spec.name"}]}])
    detail = ("selectableFields may only be set when version.schema.openAPIV3Schema is not included" if old else
              "may only be set when `version.schema.openAPIV3Schema` is not included")
    got = created(crd, release)
    # 1.30 drops the selectable fields before validation (CustomResourceFieldSelectors off, strategy.go@v0.30.14)
    assert got == ([] if not release.at_least(31) else [(INV, "spec.versions[0].selectableFields", detail)])


@pytest.mark.parametrize("release", ALL, ids=str)
def test_schema_required_text(release: Release) -> None:
    crd = full_crd(validation=None)
    detail = "" if release.at_least(34) else "schemas are required"
    assert created(crd, release) == [(REQ, "spec.versions[0].schema.openAPIV3Schema", detail)]


RULE_TEXT_CASES = [
    ({"rule": "true", "message": " "}, "message", "message must be non-empty if specified", "must be non-empty if specified"),
    ({"rule": "true", "message": "a\nb"}, "message", "message must not contain line breaks",
     "must not contain line breaks"),
    ({"rule": "true", "fieldPath": " "}, "fieldPath", "fieldPath must be non-empty if specified",
     "must be non-empty if specified"),
    ({"rule": "true", "fieldPath": ".name\n"}, "fieldPath", "fieldPath must not contain line breaks",
     "must not contain line breaks"),
    ({"rule": "true", "fieldPath": ".nope"}, "fieldPath", "fieldPath must be a valid path", "must be a valid path"),
]


@pytest.mark.parametrize("release", ALL, ids=str)
@pytest.mark.parametrize("rule,leaf,before,after", RULE_TEXT_CASES, ids=[c[1] + ":" + c[2] for c in RULE_TEXT_CASES])
def test_validation_rule_texts(rule: dict[str, Any], leaf: str, before: str, after: str, release: Release) -> None:
    schema = props(name={"type": "string"})
    schema["x-kubernetes-validations"] = [rule]
    got = [e for e in schema_errors(schema, release) if e[2] in (before, after)]
    detail = after if release.at_least(34) else before
    assert got == [(INV, f"{SCHEMA}.x-kubernetes-validations[0].{leaf}", detail)]


@pytest.mark.parametrize("release", ALL, ids=str)
def test_webhook_service_required_texts(release: Release) -> None:
    # validateCustomResourceConversion passes (Service.Name, Service.Namespace) as (namespace, name) (upstream
    # defect, every release); apiserver webhook/validation.go@v0.33.13 "service name is required" ... , @v0.34.0 ""
    conversion = {"strategy": "Webhook", "conversionReviewVersions": ["v1"],
                  "webhookClientConfig": {"service": {"name": "", "namespace": "", "port": 443}}}
    crd = full_crd(conversion=conversion)
    base = "spec.conversion.webhookClientConfig.service"
    if release.at_least(34):
        expected = [(REQ, f"{base}.name", ""), (REQ, f"{base}.namespace", "")]
    else:
        expected = [(REQ, f"{base}.name", "service name is required"),
                    (REQ, f"{base}.namespace", "service namespace is required")]
    assert created(crd, release) == expected


# --- strategy_test.go@v0.30.0 TestDropDisabledFields: selectableFields (CustomResourceFieldSelectors off in 1.30) --


def _drop_crd(*, top: list[str] | None = None, versions: dict[str, list[str] | None] | None = None) -> dict[str, Any]:
    spec: dict[str, Any] = {}
    if top is not None:
        spec["validation"] = {"openAPIV3Schema": props(**{f[1:]: {"type": "string"} for f in top})}
        spec["selectableFields"] = [{"jsonPath": f} for f in top]
    if versions is not None:
        spec["versions"] = []
        for name, fields in versions.items():
            v: dict[str, Any] = {"name": name, "schema": {"openAPIV3Schema": props(**{
                f[1:]: {"type": "string"} for f in (fields or [])})}}
            if fields is not None:
                v["selectableFields"] = [{"jsonPath": f} for f in fields]
            spec["versions"].append(v)
    return {"metadata": {"name": "foos.sigs.k8s.io", "resourceVersion": "1"}, "spec": spec}


def _without_selectable(crd: dict[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(crd)
    out["spec"].pop("selectableFields", None)
    for v in out["spec"].get("versions", []):
        v.pop("selectableFields", None)
    return out


DROP_CASES = [
    # (name, new, old, dropped in 1.30)
    ("SelectableFields, For create, FG disabled, SelectableFields in update, dropped",
     _drop_crd(top=[".field"]), None, True),
    ("SelectableFields, For update, FG disabled, oldCRD has SelectableFields, SelectableFields in update, no drop",
     _drop_crd(top=[".field1", ".field2"]), _drop_crd(top=[".field1"]), False),
    ("SelectableFields, For update, FG disabled, oldCRD does not have SelectableFields, SelectableFields in update, "
     "dropped", _drop_crd(top=[".field1", ".field2"]), _without_selectable(_drop_crd(top=[".field1"])), True),
    ("pre-version SelectableFields, For update, FG disabled, oldCRD does not have SelectableFields, SelectableFields "
     "in update, dropped", _drop_crd(versions={"v1": [".field1", ".field2"], "v2": [".field3", ".field4"]}),
     _drop_crd(versions={"v1": None, "v2": None}), True),
    # specHasSelectableFields tests != nil: an old empty list counts as "has"
    ("old CRD with selectableFields: [] keeps them", _drop_crd(top=[".field1"]),
     {"metadata": {}, "spec": {"selectableFields": []}}, False),
]


@pytest.mark.parametrize("release", ALL, ids=str)
@pytest.mark.parametrize("name,new,old,dropped", DROP_CASES, ids=[c[0] for c in DROP_CASES])
def test_drop_disabled_selectable_fields(
    name: str, new: dict[str, Any], old: dict[str, Any] | None, dropped: bool, release: Release
) -> None:
    from crdtool.core.crd.validation import drop_disabled_fields

    got = drop_disabled_fields(copy.deepcopy(new), old, release)
    # kube_features.go@v0.30.0 CustomResourceFieldSelectors: {Default: false, Alpha}; @v0.31.0 Beta, true
    assert got == (_without_selectable(new) if dropped and not release.at_least(31) else new)


@pytest.mark.parametrize("release", ALL, ids=str)
def test_selectable_fields_dropped_before_validation_in_130(release: Release) -> None:
    # PrepareForCreate runs dropDisabledFields before Validate: an invalid selectable field goes unnoticed in 1.30
    crd = full_crd(selectableFields=[{"jsonPath": ".spec.missing"}])
    got = created(crd, release)
    if release.at_least(31):
        assert [(t, f) for t, f, _ in got] == [(INV, "spec.selectableFields[0].jsonPath")]
    else:
        assert got == []


# --- identical per-version selectableFields, differing schemas: hoisted alone, then refused (kubernetes#140689) ----


@pytest.mark.parametrize("release", ALL, ids=str)
def test_identical_selectable_fields_with_differing_schemas_are_refused(release: Release) -> None:
    # v1's Convert_v1_CustomResourceDefinitionSpec_To_apiextensions_CustomResourceDefinitionSpec (conversion.go,
    # v0.30.14 … v0.37.0-beta.0) moves each per-version field to the internal spec on its own when identical: the
    # selectable fields move, the schemas stay, and ValidateCustomResourceDefinitionSpec refuses spec.selectableFields
    # without spec.validation (kubernetes/kubernetes#140689, open). The 1.35 text is kube-apiserver's own: the CRD
    # create path of apiextensions-apiserver v0.35.0 run in Go (the modules kubectl-validate a97ccfac vendors).
    # 1.30: CustomResourceFieldSelectors is alpha, off: the fields are dropped first (strategy.go dropDisabledFields).
    from crdtool.core.crd.manifest import check_crd_manifest

    def version(name: str, storage: bool, properties: dict[str, Any]) -> dict[str, Any]:
        return {"name": name, "served": True, "storage": storage, "selectableFields": [{"jsonPath": ".spec.color"}],
                "schema": {"openAPIV3Schema": {"type": "object", "properties": {
                    "spec": {"type": "object", "properties": properties}}}}}

    doc = {
        "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "widgets.example.com"},
        "spec": {"group": "example.com", "scope": "Namespaced",
                 "names": {"plural": "widgets", "singular": "widget", "kind": "Widget", "listKind": "WidgetList"},
                 "versions": [version("v1", True, {"color": {"type": "string"}, "size": {"type": "integer"}}),
                              version("v1beta1", False, {"color": {"type": "string"}})]},
    }
    verdict = check_crd_manifest(doc, kubernetes_version=release.name)
    # upstream's field path, and where the manifest has what it names (the first version's selectable fields)
    got = [(f.error.type, f.upstream_field, f.error.field, f.error.detail) for f in verdict.findings]
    if not release.at_least(31):
        assert verdict.valid and got == []
        return
    # validation.go: "selectableFields may only be set ..." in v0.31.14 … v0.33.13, without its first word from v0.34.10
    detail = ("" if release.at_least(34) else "selectableFields ") + "may only be set when validations.schema is included"
    assert not verdict.valid
    assert got == [(INV, "spec.selectableFields", "spec.versions[0].selectableFields", detail)]
    # the same CRD with the selectable fields on one version only is fine
    doc["spec"]["versions"][1].pop("selectableFields")
    assert check_crd_manifest(doc, kubernetes_version=release.name).valid


# --- status.observedGeneration, status.conditions[].observedGeneration: fields from 1.35 (types.go@v0.35.0) -----


@pytest.mark.parametrize("release", ALL, ids=str)
def test_observed_generation_is_an_unknown_field_before_135(release: Release) -> None:
    from crdtool.core.crd.manifest import check_crd_manifest

    doc = {
        "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "widgets.example.com"},
        "spec": {"group": "example.com", "scope": "Namespaced", "names": {"plural": "widgets", "kind": "Widget"},
                 "versions": [{"name": "v1", "served": True, "storage": True,
                               "schema": {"openAPIV3Schema": {"type": "object"}}}]},
        "status": {"observedGeneration": 3, "storedVersions": ["v1"],
                   "conditions": [{"type": "Established", "status": "True", "observedGeneration": 2}]},
    }
    verdict = check_crd_manifest(doc, kubernetes_version=release.name)
    # in kubectl's key order: "conditions" before "observedGeneration"
    unknown = [] if release.at_least(35) else [
        ("UnknownField", "status.conditions[0].observedGeneration",
         'unknown field "status.conditions[0].observedGeneration"'),
        ("UnknownField", "status.observedGeneration", 'unknown field "status.observedGeneration"'),
    ]
    assert [(f.error.type, f.error.field, f.error.detail) for f in verdict.findings] == unknown
    warned = check_crd_manifest(doc, kubernetes_version=release.name, field_validation="Warn")
    assert list(warned.warnings) == [d for _, _, d in unknown] and not warned.findings


# --- validation_test.go@v0.31.0: CEL keywords as property names (create: the new-expressions environment) -------

KEYWORD_PROPS = ["if", "namespace", "as", "break", "const", "continue", "else", "for", "function", "import", "let",
                 "loop", "package", "return", "var", "void", "while", "self", "int", "true", "false", "null", "in"]


@pytest.mark.parametrize("release", ALL, ids=str)
def test_keywords_as_field_names(release: Release) -> None:
    # "invalid x-kubernetes-validations for escaping (keywords are invalid field names before v1.30)" (env 1.30) and
    # "valid x-kubernetes-validations for escaping" (env 1.31): a create compiles in DefaultCompatibilityVersion(),
    # 1.(N-1), and SetRecognizeKeywordAsFieldName needs 1.31 (environment.go@v0.31.0) -> 1.32 on
    rules = ["self.__if__ > 0", "self.__namespace__ > 0"] + [f"self.{p} > 0" for p in KEYWORD_PROPS]
    schema = props(**{p: {"type": "integer"} for p in KEYWORD_PROPS})
    schema["x-kubernetes-validations"] = [{"rule": r} for r in rules]
    invalid_at = list(range(21, 25)) if release.at_least(32) else list(range(2, 19)) + list(range(21, 25))
    got = [(t, f) for t, f, _ in schema_errors(schema, release)]
    assert got == [(INV, f"{SCHEMA}.x-kubernetes-validations[{i}].rule") for i in invalid_at]


@pytest.mark.parametrize("release", ALL, ids=str)
def test_prepare_for_update_bumps_generation_before_the_drop(release: Release) -> None:
    # strategy.go@v0.30.14 PrepareForUpdate: Semantic.DeepEqual(old.Spec, new.Spec) first, dropDisabledFields last
    from crdtool.core.crd.update import prepare_for_update

    old = full_crd()
    old["metadata"]["generation"] = 4
    new = full_crd(selectableFields=[{"jsonPath": ".spec.name"}])
    got = prepare_for_update(new, old, release)
    assert got["metadata"]["generation"] == 5
    assert ("selectableFields" in got["spec"]) == release.at_least(31)


# --- spec.versions absent, null or empty: the nil slice is the bad value (null from 1.34, %#v before) ------------


@pytest.mark.parametrize("release", ALL, ids=str)
@pytest.mark.parametrize("versions", ["absent", None, []], ids=["absent", "null", "empty"])
def test_versions_bad_value_nil_or_empty(release: Release, versions: Any) -> None:
    # validation.go ValidateCustomResourceDefinitionSpec: field.Invalid(fldPath.Child("versions"), spec.Versions, ...)
    # with the internal spec's slice: nil when v1's versions is absent or null, empty for []. 1.35's texts are
    # kube-apiserver's own (the v0.35.0 create path run in Go); before 1.34 field.Error prints %#v.
    from crdtool.core.crd.manifest import check_crd_manifest

    spec: dict[str, Any] = {"group": "example.com", "scope": "Namespaced", "names": {"plural": "widgets", "kind": "Widget"}}
    if versions != "absent":
        spec["versions"] = versions
    doc = {"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
           "metadata": {"name": "widgets.example.com"}, "spec": spec}
    verdict = check_crd_manifest(doc, kubernetes_version=release.name)
    messages = [str(f.error) for f in verdict.findings if f.error.field == "spec.versions"]
    if release.at_least(34):
        bad = "[]" if versions == [] else "null"
    else:
        bad = "[]apiextensions.CustomResourceDefinitionVersion" + ("{}" if versions == [] else "(nil)")
    assert messages == [f"spec.versions: Invalid value: {bad}: must have exactly one version marked as storage version"]
