"""Strict decoding of CRD manifests, as sigs.k8s.io/json UnmarshalStrict does it.

Expected messages follow encoding/json's ``UnmarshalTypeError.Error`` (Value, Struct,
the chain of struct-field JSON names, reflect type), the strict-error paths of
sigs.k8s.io/json ``kubernetes_patch.go`` (``.key`` for fields and map keys, ``[i]``
for list items), the custom ``UnmarshalJSON`` methods of apiextensions ``marshal.go``
and metav1 ``Time``, and ``time.ParseError`` / ``base64.CorruptInputError`` texts.
"""

from __future__ import annotations

import base64
import copy
import datetime as dt
import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crdtool.core.crd import types as T
from crdtool.core.crd.decode import (
    MAX_DEPTH,
    decode_crd,
    decode_value,
    _go_base64_decode_walk,
    go_base64_decode,
    go_json_float,
    normalize_json,
    rfc3339_parse_error,
)
from crdtool.core.errors import UNKNOWN_FIELD, UNMARSHAL_TYPE
from crdtool.core.releases import RELEASES, Release

V1 = "apiextensions.k8s.io/v1"
V1BETA1 = "apiextensions.k8s.io/v1beta1"


def v1(spec: dict[str, Any] | None = None, **top: Any) -> dict[str, Any]:
    crd: dict[str, Any] = {"apiVersion": V1, "kind": "CustomResourceDefinition"}
    if spec is not None:
        crd["spec"] = spec
    crd.update(top)
    return crd


def schema_crd(schema: Any) -> dict[str, Any]:
    return v1({"versions": [{"name": "v1", "schema": {"openAPIV3Schema": schema}}]})


def only_error(obj: Any, release: Release | None = None) -> tuple[str, str, str]:
    _, errors = decode_crd(obj, release)
    assert len(errors) == 1, [str(e) for e in errors]
    return errors[0].type, errors[0].field, str(errors[0])


# --- wrong JSON types ------------------------------------------------------------


@pytest.mark.parametrize(
    ("obj", "field", "message"),
    [
        (
            v1({"names": {"plural": 1}}),
            "spec.names.plural",
            "json: cannot unmarshal number into Go struct field CustomResourceDefinitionNames.spec.names.plural"
            " of type string",
        ),
        (
            v1({"scope": True}),
            "spec.scope",
            "json: cannot unmarshal bool into Go struct field CustomResourceDefinitionSpec.spec.scope"
            " of type v1.ResourceScope",
        ),
        (
            {"apiVersion": V1BETA1, "spec": {"scope": 3}},
            "spec.scope",
            "json: cannot unmarshal number into Go struct field CustomResourceDefinitionSpec.spec.scope"
            " of type v1beta1.ResourceScope",
        ),
        (
            v1("not-a-spec"),
            "spec",
            "json: cannot unmarshal string into Go struct field CustomResourceDefinition.spec"
            " of type v1.CustomResourceDefinitionSpec",
        ),
        (
            v1({"versions": [{"name": "v1", "served": "yes"}]}),
            "spec.versions[0].served",
            "json: cannot unmarshal string into Go struct field CustomResourceDefinitionVersion.spec.versions.served"
            " of type bool",
        ),
        (
            v1({"versions": [5]}),
            "spec.versions[0]",
            "json: cannot unmarshal number into Go struct field CustomResourceDefinitionSpec.spec.versions"
            " of type v1.CustomResourceDefinitionVersion",
        ),
        (
            v1({"versions": {"name": "v1"}}),
            "spec.versions",
            "json: cannot unmarshal object into Go struct field CustomResourceDefinitionSpec.spec.versions"
            " of type []v1.CustomResourceDefinitionVersion",
        ),
        (
            v1({"names": {"shortNames": ["ok", 7]}}),
            "spec.names.shortNames[1]",
            "json: cannot unmarshal number into Go struct field CustomResourceDefinitionNames.spec.names.shortNames"
            " of type string",
        ),
        (
            v1(metadata={"labels": ["a"]}),
            "metadata.labels",
            "json: cannot unmarshal array into Go struct field ObjectMeta.metadata.labels of type map[string]string",
        ),
        (
            v1(metadata={"generation": "7"}),
            "metadata.generation",
            "json: cannot unmarshal string into Go struct field ObjectMeta.metadata.generation of type int64",
        ),
        (
            v1(metadata={"uid": 1}),
            "metadata.uid",
            "json: cannot unmarshal number into Go struct field ObjectMeta.metadata.uid of type types.UID",
        ),
        (
            v1({"versions": [{"additionalPrinterColumns": [{"priority": 3000000000}]}]}),
            "spec.versions[0].additionalPrinterColumns[0].priority",
            "json: cannot unmarshal number 3000000000 into Go struct field"
            " CustomResourceColumnDefinition.spec.versions.additionalPrinterColumns.priority of type int32",
        ),
        (
            schema_crd({"maxLength": 1.5}),
            "spec.versions[0].schema.openAPIV3Schema.maxLength",
            "json: cannot unmarshal number 1.5 into Go struct field"
            " JSONSchemaProps.spec.versions.schema.openAPIV3Schema.maxLength of type int64",
        ),
        (
            schema_crd({"minItems": 1e21}),
            "spec.versions[0].schema.openAPIV3Schema.minItems",
            "json: cannot unmarshal number 1e+21 into Go struct field"
            " JSONSchemaProps.spec.versions.schema.openAPIV3Schema.minItems of type int64",
        ),
        (
            schema_crd({"maximum": "10"}),
            "spec.versions[0].schema.openAPIV3Schema.maximum",
            "json: cannot unmarshal string into Go struct field"
            " JSONSchemaProps.spec.versions.schema.openAPIV3Schema.maximum of type float64",
        ),
        (
            schema_crd({"properties": {"spec": 5}}),
            "spec.versions[0].schema.openAPIV3Schema.properties.spec",
            "json: cannot unmarshal number into Go struct field"
            " JSONSchemaProps.spec.versions.schema.openAPIV3Schema.properties of type v1.JSONSchemaProps",
        ),
        (
            schema_crd({"properties": {"spec": {"properties": {"x": {"x-kubernetes-list-type": 1}}}}}),
            "spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.x.x-kubernetes-list-type",
            "json: cannot unmarshal number into Go struct field JSONSchemaProps.spec.versions.schema.openAPIV3Schema"
            ".properties.properties.x-kubernetes-list-type of type string",
        ),
        (
            schema_crd({"x-kubernetes-validations": {"rule": "true"}}),
            "spec.versions[0].schema.openAPIV3Schema.x-kubernetes-validations",
            "json: cannot unmarshal object into Go struct field JSONSchemaProps.spec.versions.schema.openAPIV3Schema"
            ".x-kubernetes-validations of type v1.ValidationRules",
        ),
        (
            schema_crd({"x-kubernetes-validations": [{"rule": "true", "reason": 1}]}),
            "spec.versions[0].schema.openAPIV3Schema.x-kubernetes-validations[0].reason",
            "json: cannot unmarshal number into Go struct field ValidationRule.spec.versions.schema.openAPIV3Schema"
            ".x-kubernetes-validations.reason of type v1.FieldValueErrorReason",
        ),
        (
            v1({"conversion": {"webhook": {"clientConfig": {"service": {"port": "443"}}}}}),
            "spec.conversion.webhook.clientConfig.service.port",
            "json: cannot unmarshal string into Go struct field ServiceReference.spec.conversion.webhook.clientConfig"
            ".service.port of type int32",
        ),
        (
            v1({"conversion": {"webhook": {"clientConfig": {"caBundle": 5}}}}),
            "spec.conversion.webhook.clientConfig.caBundle",
            "json: cannot unmarshal number into Go struct field WebhookClientConfig.spec.conversion.webhook"
            ".clientConfig.caBundle of type []uint8",
        ),
        (
            v1(status={"conditions": [{"type": "Established", "observedGeneration": "1"}]}),
            "status.conditions[0].observedGeneration",
            "json: cannot unmarshal string into Go struct field CustomResourceDefinitionCondition"
            ".status.conditions.observedGeneration of type int64",
        ),
    ],
)
def test_type_error_message(obj: dict[str, Any], field: str, message: str) -> None:
    assert only_error(obj) == (UNMARSHAL_TYPE, field, message)


def test_top_level_not_an_object() -> None:
    assert only_error(["x"]) == (
        UNMARSHAL_TYPE,
        "",
        "json: cannot unmarshal array into Go value of type v1.CustomResourceDefinition",
    )


def test_first_type_error_wins_and_strict_errors_are_dropped() -> None:
    # encoding/json saves only the first UnmarshalTypeError; Serializer.unmarshal then
    # returns the error alone (the unknown-field strict errors are discarded).
    obj = v1({"bogus": 1, "names": {"plural": 1, "kind": 2}, "scope": 3})
    _, errors = decode_crd(obj, sent_by_kubectl=False)
    assert [e.field for e in errors] == ["spec.names.plural"]  # a JSON body in this key order
    # kubectl's JSON has every object's keys sorted ("kind" < "plural"); kube-apiserver's v0.35.0 create path run
    # in Go on such YAML reports the first of them the same way
    assert only_error(obj)[1] == "spec.names.kind"


def test_integral_float_is_accepted_by_int_fields() -> None:
    # kubectl writes the YAML float 3.0 as the JSON number 3, which ParseInt accepts.
    decoded, errors = decode_crd(schema_crd({"maxLength": 3.0, "maximum": 5}))
    assert errors == []
    schema = decoded["spec"]["versions"][0]["schema"]["openAPIV3Schema"]
    assert schema["maxLength"] == 3 and type(schema["maxLength"]) is int
    assert schema["maximum"] == 5.0 and type(schema["maximum"]) is float


def test_bool_is_not_a_number() -> None:
    assert only_error(schema_crd({"minLength": True}))[2] == (
        "json: cannot unmarshal bool into Go struct field JSONSchemaProps.spec.versions.schema.openAPIV3Schema"
        ".minLength of type int64"
    )


# --- custom UnmarshalJSON: nested non-strict decodes ------------------------------


@pytest.mark.parametrize("minor", [30, 32, 34])
def test_type_error_inside_items_names_the_outermost_custom_field(minor: int) -> None:
    # JSONSchemaPropsOrArray.UnmarshalJSON runs a nested json.Unmarshal; its error is returned up and the
    # top-level addErrorContext overwrites Struct/Field (sigs.k8s.io/json bc3834ca7abd, 9aa6b5e7a4b3 and
    # cfa47c3a1cc8: decode.go addErrorContext, as v0.30.14 … v0.34.10 pin it).
    obj = schema_crd({"properties": {"a": {"items": {"properties": {"b": {"type": 5}}}}}})
    assert only_error(obj, RELEASES[minor]) == (
        UNMARSHAL_TYPE,
        "spec.versions[0].schema.openAPIV3Schema.properties.a.items.properties.b.type",
        "json: cannot unmarshal number into Go struct field JSONSchemaProps.spec.versions.schema.openAPIV3Schema"
        ".properties.items of type string",
    )


#: (schema, the Go struct field path of the error after ``JSONSchemaProps.spec.versions.schema.openAPIV3Schema``
#: at 1.34 and at 1.35 on, its Go type). 1.35's texts are kube-apiserver's own: the CRD create path of
#: k8s.io/apiextensions-apiserver v0.35.0 (strict decode, then rest.BeforeCreate) built in Go from the modules
#: kubectl-validate a97ccfac vendors, sigs.k8s.io/json 2d320260d730, whose addErrorContext appends the nested
#: decode's own field path (Go 1.24's encoding/json); 1.34's follow cfa47c3a1cc8's, which overwrites it.
NESTED_TYPE_ERRORS = [
    ({"properties": {"a": {"items": {"properties": {"b": {"type": 5}}}}}}, ".properties.items",
     ".properties.items.properties.type", "string"),
    ({"items": ["x"]}, ".items", ".items", "v1.JSONSchemaProps"),
    ({"dependencies": {"a": ["b", 1]}}, ".dependencies", ".dependencies", "string"),
    ({"type": "object", "additionalProperties": {"items": {"additionalProperties": {"properties": {"x": {"maxLength": True}}}}}},
     ".additionalProperties", ".additionalProperties.items.additionalProperties.properties.maxLength", "int64"),
    ({"additionalProperties": {"properties": {"x": {"type": 5}}}}, ".additionalProperties",
     ".additionalProperties.properties.type", "string"),
    ({"items": [{"type": "string"}, {"items": {"minimum": "z"}}]}, ".items", ".items.items.minimum", "float64"),
    ({"properties": {"a": {"items": {"items": {"type": 1}}}}}, ".properties.items", ".properties.items.items.type",
     "string"),
    ({"items": {"type": 7}}, ".items", ".items.type", "string"),
    ({"additionalItems": {"enum": 3}}, ".additionalItems", ".additionalItems.enum", "[]v1.JSON"),
    ({"dependencies": {"a": {"properties": {"q": {"type": []}}}}}, ".dependencies", ".dependencies.properties.type",
     "string"),
]


@pytest.mark.parametrize(("schema", "until_134", "since_135", "go"), NESTED_TYPE_ERRORS)
@pytest.mark.parametrize("minor", [34, 35, 36, 37])
def test_type_error_inside_a_nested_decode_per_release(
    schema: dict[str, Any], until_134: str, since_135: str, go: str, minor: int
) -> None:
    obj = schema_crd(schema)
    _, _, message = only_error(obj, RELEASES[minor])
    fields = until_134 if minor <= 34 else since_135
    assert message.endswith(f"Go struct field JSONSchemaProps.spec.versions.schema.openAPIV3Schema{fields} of type {go}")


def test_type_error_in_items_array_element() -> None:
    obj = schema_crd({"items": ["x"]})
    assert only_error(obj)[2] == (
        "json: cannot unmarshal string into Go struct field JSONSchemaProps.spec.versions.schema.openAPIV3Schema"
        ".items of type v1.JSONSchemaProps"
    )


def test_type_error_in_dependencies_property_list() -> None:
    obj = schema_crd({"dependencies": {"a": ["b", 1]}})
    assert only_error(obj)[2] == (
        "json: cannot unmarshal number into Go struct field JSONSchemaProps.spec.versions.schema.openAPIV3Schema"
        ".dependencies of type string"
    )


@pytest.mark.parametrize("value", [5, "x", [True], 1.5])
def test_additional_properties_must_be_bool_or_schema(value: Any) -> None:
    obj = schema_crd({"additionalProperties": value})
    assert only_error(obj) == (
        UNMARSHAL_TYPE,
        "spec.versions[0].schema.openAPIV3Schema.additionalProperties",
        "boolean or JSON schema expected",
    )


def test_error_returned_by_unmarshaler_beats_an_earlier_type_error() -> None:
    # unmarshal() returns the error d.value returned, not the saved one.
    obj = v1({"names": {"plural": 1}, "versions": [{"schema": {"openAPIV3Schema": {"additionalItems": "no"}}}]})
    assert only_error(obj)[2] == "boolean or JSON schema expected"


def test_nested_decode_returns_its_fatal_error_over_its_saved_one() -> None:
    obj = schema_crd({"items": {"type": 5, "additionalProperties": "x"}})
    assert only_error(obj)[2] == "boolean or JSON schema expected"


def test_unknown_fields_inside_custom_unmarshalers_are_dropped_silently() -> None:
    # kubernetes issue #128033: the nested decode is not strict.
    obj = schema_crd(
        {
            "type": "object",
            "items": {"type": "string", "propertyNames": {"pattern": "foo"}},
            "additionalProperties": {"bogus": 1, "type": "integer"},
            "dependencies": {"a": {"bogus": 2}},
        }
    )
    decoded, errors = decode_crd(obj)
    assert errors == []
    schema = decoded["spec"]["versions"][0]["schema"]["openAPIV3Schema"]
    assert schema["items"] == {"type": "string"}
    assert schema["additionalProperties"] == {"type": "integer"}
    assert schema["dependencies"] == {"a": {}}


@pytest.mark.parametrize("value", [5, "abc", True, 0])
def test_items_neither_object_nor_array_is_an_empty_value(value: Any) -> None:
    decoded, errors = decode_crd(schema_crd({"type": "array", "items": value}))
    assert errors == []
    assert decoded["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["items"] == []


def test_dependencies_scalar_and_null_are_empty_values() -> None:
    decoded, errors = decode_crd(schema_crd({"dependencies": {"a": 3, "b": None, "c": ["x"]}}))
    assert errors == []
    assert decoded["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["dependencies"] == {
        "a": [],
        "b": [],
        "c": ["x"],
    }


# --- unknown fields ------------------------------------------------------------


def test_unknown_fields_in_document_order_with_list_and_map_paths() -> None:
    obj = {
        "apiVersion": V1,
        "description": "top",
        "spec": {
            "versions": [
                {
                    "name": "v1",
                    "foo": 1,
                    "schema": {"openAPIV3Schema": {"properties": {"a.b": {"bogus": {"deep": 1}}}}},
                }
            ],
            "names": {"Kind": "X"},
        },
        "metadata": {"clusterName": "x"},
    }
    decoded, errors = decode_crd(obj, sent_by_kubectl=False)
    raw = [
        (UNKNOWN_FIELD, "description", 'unknown field "description"'),
        (UNKNOWN_FIELD, "spec.versions[0].foo", 'unknown field "spec.versions[0].foo"'),
        (
            UNKNOWN_FIELD,
            "spec.versions[0].schema.openAPIV3Schema.properties.a.b.bogus",
            'unknown field "spec.versions[0].schema.openAPIV3Schema.properties.a.b.bogus"',
        ),
        # case-sensitive: sigs.k8s.io/json does not fold case.
        (UNKNOWN_FIELD, "spec.names.Kind", 'unknown field "spec.names.Kind"'),
        (UNKNOWN_FIELD, "metadata.clusterName", 'unknown field "metadata.clusterName"'),
    ]
    assert [(e.type, e.field, str(e)) for e in errors] == raw
    # as kubectl sends it: every object's keys sorted, so metadata before spec, names before versions
    _, sent = decode_crd(obj)
    assert [(e.type, e.field, str(e)) for e in sent] == [raw[0], raw[4], raw[3], raw[1], raw[2]]
    assert "description" not in decoded
    assert decoded["spec"]["versions"][0] == {
        "name": "v1",
        "schema": {"openAPIV3Schema": {"properties": {"a.b": {}}}},
    }


def test_at_most_100_strict_errors() -> None:
    obj = v1({f"bogus{i}": i for i in range(150)})
    _, errors = decode_crd(obj, sent_by_kubectl=False)
    assert len(errors) == 100
    assert errors[0].field == "spec.bogus0" and errors[-1].field == "spec.bogus99"
    # kubectl's order: the keys sorted as strings (bogus0, bogus1, bogus10, bogus100, ...), the first 100 kept
    _, errors = decode_crd(obj)
    assert [e.field for e in errors] == [f"spec.{k}" for k in sorted(f"bogus{i}" for i in range(150))[:100]]


# --- null and zero values -----------------------------------------------------------


def test_nulls() -> None:
    obj = v1(
        {
            "group": None,
            "names": {"shortNames": [None, "a"]},
            "versions": [None, {"name": "v2", "schema": {"openAPIV3Schema": {
                "default": None,
                "example": {"a": None},
                "enum": [None, 1],
                "properties": {"x": None},
                "items": None,
            }}}],
        },
        metadata={"labels": {"a": None}, "creationTimestamp": None, "deletionTimestamp": None},
        status=None,
    )
    decoded, errors = decode_crd(obj)
    assert errors == []
    assert decoded == {
        "apiVersion": V1,
        "kind": "CustomResourceDefinition",
        "spec": {
            "names": {"shortNames": ["", "a"]},
            "versions": [
                {},
                {"name": "v2", "schema": {"openAPIV3Schema": {
                    "example": {"a": None},
                    "enum": [None, 1],
                    "properties": {"x": {}},
                }}},
            ],
        },
        "metadata": {"labels": {"a": ""}},
    }


def test_json_values_are_normalized_like_preserve_ints() -> None:
    value = {"i": 1, "f": 2.0, "g": 2.5, "big": 2**63, "neg0": -0.0, "t": True, "l": (1, "x"), 3: "k"}
    assert normalize_json(value) == {"i": 1, "f": 2, "g": 2.5, "big": float(2**63), "neg0": 0, "t": True,
                                     "l": [1, "x"], "3": "k"}
    assert type(normalize_json(2.0)) is int
    assert type(normalize_json(2**63)) is float


def test_non_finite_float_is_refused_like_json_marshal() -> None:
    assert only_error(schema_crd({"default": math.nan}))[2] == "json: unsupported value: NaN"
    assert only_error(schema_crd({"maximum": math.inf}))[2] == "json: unsupported value: +Inf"


# --- []byte -----------------------------------------------------------------------


def test_ca_bundle() -> None:
    ok, errors = decode_crd(v1({"conversion": {"webhook": {"clientConfig": {"caBundle": "Ag==\n"}}}}))
    assert errors == []
    assert ok["spec"]["conversion"]["webhook"]["clientConfig"]["caBundle"] == "Ag=="
    arr, errors = decode_crd(v1({"conversion": {"webhook": {"clientConfig": {"caBundle": [1, 2, 3]}}}}))
    assert errors == [] and arr["spec"]["conversion"]["webhook"]["clientConfig"]["caBundle"] == "AQID"
    assert only_error(v1({"conversion": {"webhook": {"clientConfig": {"caBundle": "abc"}}}})) == (
        UNMARSHAL_TYPE,
        "spec.conversion.webhook.clientConfig.caBundle",
        "illegal base64 data at input byte 0",
    )
    assert only_error(v1({"conversion": {"webhook": {"clientConfig": {"caBundle": [1, 256]}}}}))[2] == (
        "json: cannot unmarshal number 256 into Go struct field WebhookClientConfig.spec.conversion.webhook"
        ".clientConfig.caBundle of type uint8"
    )


@pytest.mark.parametrize(
    ("text", "result"),
    [
        ("", (b"", "")),
        ("Ag==", (b"\x02", "")),
        ("AQID", (b"\x01\x02\x03", "")),
        ("AQ\r\nID", (b"\x01\x02\x03", "")),
        ("abc", (b"", "illegal base64 data at input byte 0")),
        ("A===", (b"", "illegal base64 data at input byte 1")),
        ("AB=", (b"", "illegal base64 data at input byte 3")),
        ("AB=x", (b"", "illegal base64 data at input byte 2")),
        ("Ag==x", (b"", "illegal base64 data at input byte 4")),
        ("AQID!", (b"", "illegal base64 data at input byte 4")),
    ],
)
def test_go_base64(text: str, result: tuple[bytes, str]) -> None:
    assert go_base64_decode(text) == result


# --- metav1.Time ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        ("2008-01-01T01:01:01Z", ""),
        ("2008-01-01T01:01:01.123456789+02:00", ""),
        ("2008-01-01T1:01:01Z", ""),  # time.parse accepts a one-digit hour ("15" is not fixed-width)
        ("garbage", 'parsing time "garbage" as "2006-01-02T15:04:05Z07:00": cannot parse "garbage" as "2006"'),
        ("2008-13-01T00:00:00Z", 'parsing time "2008-13-01T00:00:00Z": month out of range'),
        ("2008-02-30T00:00:00Z", 'parsing time "2008-02-30T00:00:00Z": day out of range'),
        ("2008-01-01", 'parsing time "2008-01-01" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "T"'),
        ("2008-01-01T00:00:00", 'parsing time "2008-01-01T00:00:00" as "2006-01-02T15:04:05Z07:00":'
         ' cannot parse "" as "Z07:00"'),
        ("2008-01-01T00:00:00Zjunk", 'parsing time "2008-01-01T00:00:00Zjunk": extra text: "junk"'),
        ("2008-01-01 00:00:00Z", 'parsing time "2008-01-01 00:00:00Z" as "2006-01-02T15:04:05Z07:00":'
         ' cannot parse " 00:00:00Z" as "T"'),
    ],
)
def test_rfc3339(value: str, problem: str) -> None:
    assert rfc3339_parse_error(value) == problem


def test_time_fields() -> None:
    assert only_error(v1(metadata={"creationTimestamp": 5})) == (
        UNMARSHAL_TYPE,
        "metadata.creationTimestamp",
        "json: cannot unmarshal number into Go struct field ObjectMeta.metadata.creationTimestamp of type string",
    )
    assert only_error(v1(status={"conditions": [{"lastTransitionTime": "yesterday"}]}))[2] == (
        'parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"'
    )
    decoded, errors = decode_crd(v1(metadata={"creationTimestamp": dt.datetime(2020, 1, 2, tzinfo=dt.timezone.utc)}))
    assert errors == [] and decoded["metadata"]["creationTimestamp"] == "2020-01-02T00:00:00Z"


# --- hostile input -------------------------------------------------------------------


def test_nesting_beyond_max_depth_is_a_syntax_error() -> None:
    deep: list[Any] = []
    cur = deep
    for _ in range(MAX_DEPTH):
        cur.append([])
        cur = cur[0]
    obj = schema_crd({"default": deep, "type": 1})
    assert only_error(obj) == (UNMARSHAL_TYPE, "", "invalid character '[' exceeded max depth")


def test_deep_schema_within_the_limit_decodes_iteratively() -> None:
    schema: dict[str, Any] = {}
    cur = schema
    for _ in range(4000):  # 2 JSON levels each: 8000 + the CRD around it < 10000
        cur["properties"] = {"a": {}}
        cur = cur["properties"]["a"]
    cur["type"] = 5
    _, errors = decode_crd(schema_crd(schema))
    assert len(errors) == 1
    assert errors[0].field.endswith(".properties.a.type")
    assert str(errors[0]).startswith("json: cannot unmarshal number into Go struct field JSONSchemaProps.spec.versions")


def test_cycles_stop_at_max_depth() -> None:
    loop: list[Any] = []
    loop.append(loop)
    assert only_error(v1(loop))[2] == "invalid character '[' exceeded max depth"


def test_odd_python_values() -> None:
    obj = v1({"names": {1: "x", "kind": b"Foo"}}, metadata={"annotations": {"d": dt.date(2020, 1, 2)}})
    decoded, errors = decode_crd(obj)
    assert [e.field for e in errors] == ["spec.names.1"]
    _, errors2 = decode_crd(v1({"names": {"kind": b"Foo"}}, metadata={"annotations": {"d": dt.date(2020, 1, 2)}}))
    assert errors2 == []
    assert decoded["metadata"]["annotations"] == {"d": "2020-01-02"}
    assert decoded["spec"]["names"] == {"kind": "Foo"}


def test_input_is_not_mutated_and_output_is_new() -> None:
    obj = schema_crd({"type": "object", "properties": {"a": {"enum": [1, None]}}, "maximum": 3})
    before = copy.deepcopy(obj)
    decoded, _ = decode_crd(obj)
    assert obj == before
    schema = decoded["spec"]["versions"][0]["schema"]["openAPIV3Schema"]
    assert schema["properties"] is not obj["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]


def test_unknown_api_version_is_copied_without_errors() -> None:
    obj = {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "x"}, "bogus": 1.0}
    decoded, errors = decode_crd(obj)
    assert errors == [] and decoded == {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "x"}, "bogus": 1}


def test_decode_value_against_a_struct() -> None:
    decoded, errors = decode_value({"type": "object", "foo": 1}, T.API_V1.struct("JSONSchemaProps"))
    assert decoded == {"type": "object"}
    assert [str(e) for e in errors] == ['unknown field "foo"']


@pytest.mark.parametrize(
    ("value", "text"),
    [(1.0, "1"), (1.5, "1.5"), (1e20, "100000000000000000000"), (1e21, "1e+21"), (1e-7, "1e-7"),
     (1.5e-7, "1.5e-7"), (0.000001, "0.000001"), (-0.0, "-0"), (123456789.125, "123456789.125")],
)
def test_go_json_float(value: float, text: str) -> None:
    assert go_json_float(value) == text


# --- the corpus ---------------------------------------------------------------------


# The only strict-decoding findings in the corpus: calico v3.14's upgrade manifests put a
# `description` at the top level of four v1beta1 CRDs, which the apiserver refuses
# (`unknown field "description"`) under field validation Strict.
EXPECTED_CORPUS_FINDINGS = {
    ("v1beta1/calico__v3.14.0__upgrade-v2.5__crds.yaml", 0): ['unknown field "description"'],
    ("v1beta1/calico__v3.14.0__upgrade-v2.5__crds.yaml", 1): ['unknown field "description"'],
    ("v1beta1/calico__v3.14.0__upgrade-v2.5__crds.yaml", 2): ['unknown field "description"'],
    ("v1beta1/calico__v3.14.0__upgrade-v2.5__crds.yaml", 3): ['unknown field "description"'],
}




@settings(max_examples=300, deadline=None)
@given(st.one_of(
    st.text(alphabet="ABCDQRSTwxyz09+/=\r\n!é", max_size=24), st.text(alphabet="AQRw+/=", max_size=12),
    st.binary(max_size=40).map(lambda b: base64.b64encode(b).decode("ascii")),
))
def test_go_base64_fast_path_agrees_with_the_walk(text: str) -> None:
    """The ``binascii`` path for canonical text gives what the byte-by-byte port of ``Encoding.Decode`` gives
    (non-zero padding bits, ``QR==``, included: non-strict ``StdEncoding`` drops them)."""
    assert go_base64_decode(text) == _go_base64_decode_walk(text)
    assert go_base64_decode("QR==") == _go_base64_decode_walk("QR==") == (b"A", "")


# --- fast paths (leading string/bool fields, []string, map[string]string) against the item-by-item walk -------------
# A str subclass is never taken by a fast path (they test ``__class__ is str``), so decoding the same object with its
# strings as _S walks every item: the two results must be the same, key order and errors included.


class _S(str):
    pass


class _I(int):
    pass


def _walked(value: Any) -> Any:
    if isinstance(value, dict):
        return {(_S(k) if type(k) is str else k): _walked(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_walked(v) for v in value]
    if type(value) is int:
        return _I(value)
    return _S(value) if type(value) is str else value


def _shape(value: Any) -> Any:
    """The value with its key order made visible (dicts as lists of pairs), strings as plain str."""
    if isinstance(value, dict):
        return [(str(k), _shape(v)) for k, v in value.items()]
    if isinstance(value, list):
        return [_shape(v) for v in value]
    if isinstance(value, int) and not isinstance(value, bool):
        return int(value)
    return str(value) if isinstance(value, str) else value


def _builtin_type(definition: str) -> T.GoType:
    from crdtool.core.builtin.decode import go_type

    return go_type("1.35", definition)


_POD, _ROLE = "io.k8s.api.core.v1.Pod", "io.k8s.api.rbac.v1.ClusterRole"
_FAST_PATH_CASES = [
    (_ROLE, {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole", "metadata": {"name": "r", "labels": {"a": "b"}},
             "rules": [{"apiGroups": [""], "resources": ["pods", "nodes"], "verbs": ["get", "list"]}]}),
    (_ROLE, {"kind": "ClusterRole", "metadata": {"name": None, "labels": {"a": None, "b": "c"}, "annotations": {"x": 1}},
             "apiVersion": "v1", "rules": [{"verbs": ["get", None, 3]}, None, {"apiGroups": "x"}]}),
    (_ROLE, {"metadata": {"labels": {"b": "c"}, "name": "n"}, "unknownA": 1, "kind": "K", "rules": [{"verbs": []}],
             "apiVersion": "v1", "unknownB": {"x": [1]}}),
    (_ROLE, {"kind": 5, "apiVersion": "v1", "metadata": {"name": "n", "finalizers": ["a", "b"], "generation": 1}}),
    (_ROLE, {"apiVersion": "v1", "kind": "ClusterRole", "metadata": {"name": "n", "namespace": "ns", "bogus": "x",
             "labels": {"k": "v"}}, "aggregationRule": {"clusterRoleSelectors": [{"matchLabels": {"a": "b"}}]}}),
    (_POD, {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}, "spec": {
        "hostNetwork": True, "restartPolicy": "Always", "nodeSelector": {"a": "b", "c": "d"},
        "containers": [{"name": "c", "image": "i", "args": ["a", "b"], "stdin": True, "ports": [{"containerPort": 80}],
                        "env": [{"name": "A", "value": "1"}], "command": ["sh", None]}],
        "automountServiceAccountToken": False, "hostPID": "yes", "dnsPolicy": "ClusterFirst"}}),
    (_POD, {"spec": {"containers": [{"image": "i", "name": "c", "tty": None, "args": []}], "hostIPC": False,
                     "nodeSelector": {"a": 1}}, "metadata": {"generateName": "g-", "annotations": {}}, "kind": "Pod"}),
    # ints at the edges of int32 and int64, first in their struct (the fast path's bounds), and IntOrString
    (_POD, {"spec": {"priority": 2**31, "hostname": "h"}}),
    (_POD, {"spec": {"priority": -(2**31) - 1}}),
    (_POD, {"spec": {"priority": 2**31 - 1, "activeDeadlineSeconds": 2**63, "hostname": "h"}}),
    (_POD, {"spec": {"terminationGracePeriodSeconds": 2**63 - 1, "activeDeadlineSeconds": -(2**63) - 1}}),
    (_POD, {"spec": {"terminationGracePeriodSeconds": 1.0, "priority": True}}),
    (_POD, {"spec": {"containers": [{"ports": [{"containerPort": 2**31}]}, {"name": 1}]}}),
    (_POD, {"spec": {"containers": [{"readinessProbe": {"httpGet": {"port": 2**31, "path": "/"}}}]}}),
    (_POD, {"spec": {"containers": [{"readinessProbe": {"httpGet": {"port": "http", "host": "h"}}},
                                    {"livenessProbe": {"tcpSocket": {"port": -(2**31)}}}]}}),
    (_POD, {"apiVersion": "v1", "kind": "Pod", "spec": {"hostname": "h", "subdomain": "s", "nodeName": None,
            "schedulerName": "x", "containers": "nope"}, "status": {"phase": "Running", "conditions": []}}),
]


@pytest.mark.parametrize(("definition", "obj"), _FAST_PATH_CASES)
def test_fast_paths_decode_as_the_walk(definition: str, obj: dict[str, Any]) -> None:
    t = _builtin_type(definition)
    fast, fast_errors = decode_value(obj, t)
    walked, walked_errors = decode_value(_walked(obj), t)
    assert _shape(fast) == _shape(walked)
    assert [str(e) for e in fast_errors] == [str(e) for e in walked_errors]


_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.sampled_from(["", "a", "b c", "0"]))
_ROLE_FIELDS = {
    "apiVersion": _SCALARS,
    "kind": _SCALARS,
    "metadata": st.fixed_dictionaries({}, optional={
        "name": _SCALARS, "namespace": _SCALARS, "uid": _SCALARS, "unknown": _SCALARS,
        "labels": st.none() | st.dictionaries(st.sampled_from(["a", "b", "c"]), _SCALARS, max_size=3),
        "finalizers": st.none() | st.lists(_SCALARS, max_size=3),
    }),
    "rules": st.none() | st.lists(st.none() | st.fixed_dictionaries({}, optional={
        "verbs": st.none() | st.lists(_SCALARS, max_size=3), "apiGroups": _SCALARS | st.lists(_SCALARS, max_size=2),
        "resources": st.lists(st.sampled_from(["pods", "nodes"]), max_size=2)}), max_size=2),
    "unknownTop": _SCALARS,
}


_INTS = st.sampled_from([0, 1, -1, 2**31 - 1, 2**31, -(2**31), -(2**31) - 1, 2**63 - 1, 2**63, 1.0, 1.5])
_CONTAINER_FIELDS = {
    "name": _SCALARS, "image": _SCALARS, "stdin": _SCALARS, "args": st.none() | st.lists(_SCALARS, max_size=2),
    "ports": st.lists(st.fixed_dictionaries({}, optional={"containerPort": _INTS | _SCALARS, "name": _SCALARS,
                                                          "hostPort": _INTS}), max_size=2),
    "unknownC": _SCALARS,
}
_POD_SPEC_FIELDS = {
    "terminationGracePeriodSeconds": _INTS | _SCALARS, "activeDeadlineSeconds": _INTS, "hostNetwork": _SCALARS,
    "nodeSelector": st.none() | st.dictionaries(st.sampled_from(["a", "b"]), _SCALARS | _INTS, max_size=2),
    "priority": _INTS, "schedulerName": _SCALARS, "unknownS": _SCALARS,
    "containers": st.lists(st.fixed_dictionaries({}, optional=_CONTAINER_FIELDS), max_size=2),
}


def _permuted(fields: dict[str, Any]) -> Any:
    @st.composite
    def build(draw: Any) -> dict[str, Any]:
        keys = draw(st.permutations(list(fields)))
        return {k: draw(fields[k]) for k in keys if draw(st.booleans())}

    return build()


@settings(max_examples=150, deadline=None)
@given(_permuted({"apiVersion": _SCALARS, "kind": _SCALARS, "metadata": _ROLE_FIELDS["metadata"],
                  "spec": _permuted(_POD_SPEC_FIELDS) | _SCALARS}))
def test_fast_paths_decode_pods_as_the_walk_property(obj: dict[str, Any]) -> None:
    t = _builtin_type(_POD)
    fast, fast_errors = decode_value(obj, t)
    walked, walked_errors = decode_value(_walked(obj), t)
    assert _shape(fast) == _shape(walked)
    assert [str(e) for e in fast_errors] == [str(e) for e in walked_errors]


@st.composite
def _roles(draw: Any) -> dict[str, Any]:
    keys = draw(st.permutations(list(_ROLE_FIELDS)))
    chosen = [k for k in keys if draw(st.booleans())]
    return {k: draw(_ROLE_FIELDS[k]) for k in chosen}


@settings(max_examples=150, deadline=None)
@given(_roles())
def test_fast_paths_decode_as_the_walk_property(obj: dict[str, Any]) -> None:
    t = _builtin_type(_ROLE)
    fast, fast_errors = decode_value(obj, t)
    walked, walked_errors = decode_value(_walked(obj), t)
    assert _shape(fast) == _shape(walked)
    assert [str(e) for e in fast_errors] == [str(e) for e in walked_errors]
