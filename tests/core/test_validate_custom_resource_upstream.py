"""OpenAPI value validation of custom resources: upstream's own expected messages.

:data:`CASES` are transcribed from apiextensions-apiserver v0.36.3 ``pkg/apiserver/validation/validation_test.go``
``TestValidateCustomResource`` (every case that does not involve CEL rules; those are checked by
the CEL tests): ``ValidateCustomResource(nil, obj, validator)`` with a nil field path, compared as
a set of ``err.Error()`` strings as upstream compares them, and kube-openapi (as pinned by v0.36)
``validate/object_validator_test.go`` ``TestMinPropertiesMaxPropertiesDontShortCircuit`` and
``validate/schema_test.go`` ``TestNumericFormatEnforcement``; they hold for Kubernetes 1.36 and 1.37
(``validation_test.go`` is the same at v0.37.0-beta.0). :data:`OLDER_RELEASES` gives what differs in
1.30 - 1.35, from the test at older tags where it has the case, else derived from the code at those tags.
"""

from __future__ import annotations

import math
from typing import Any

import pytest

from crdtool.core.releases import resolve_release
from crdtool.core.validation.value_validation import validate_value

MAX_INT32 = 2**31 - 1
MIN_INT32 = -(2**31)
MAX_INT64 = 2**63 - 1
MIN_INT64 = -(2**63)
MAX_FLOAT32 = 3.4028234663852886e38
MAX_FLOAT64 = 1.7976931348623157e308


def obj_schema(**props: Any) -> dict[str, Any]:
    return {"type": "object", "properties": props}


def errors(obj: Any, schema: dict[str, Any], version: str | None = None) -> set[str]:
    release = resolve_release(version) if version else None
    return {str(e) for e in validate_value(obj, schema, None, release=release)}


CASES: list[tuple[str, dict[str, Any], list[Any], list[tuple[Any, list[str]]]]] = [
    ("!nullable", obj_schema(field={"type": "object", "nullable": False}),
     [{}, {"field": {}}],
     [({"field": "foo"}, ['field: Invalid value: "string": field in body must be of type object: "string"']),
      ({"field": 42}, ['field: Invalid value: "integer": field in body must be of type object: "integer"']),
      ({"field": True}, ['field: Invalid value: "boolean": field in body must be of type object: "boolean"']),
      ({"field": 1.2}, ['field: Invalid value: "number": field in body must be of type object: "number"']),
      ({"field": []}, ['field: Invalid value: "array": field in body must be of type object: "array"']),
      ({"field": None}, ['field: Invalid value: "null": field in body must be of type object: "null"'])]),
    ("nullable", obj_schema(field={"type": "object", "nullable": True}),
     [{}, {"field": {}}, {"field": None}],
     [({"field": "foo"}, ['field: Invalid value: "string": field in body must be of type object: "string"']),
      ({"field": 42}, ['field: Invalid value: "integer": field in body must be of type object: "integer"']),
      ({"field": True}, ['field: Invalid value: "boolean": field in body must be of type object: "boolean"']),
      ({"field": 1.2}, ['field: Invalid value: "number": field in body must be of type object: "number"']),
      ({"field": []}, ['field: Invalid value: "array": field in body must be of type object: "array"'])]),
    ("nullable and no type", obj_schema(field={"nullable": True}),
     [{}, {"field": {}}, {"field": None}, {"field": "foo"}, {"field": 42}, {"field": True}, {"field": 1.2}, {"field": []}],
     []),
    ("x-kubernetes-int-or-string", obj_schema(field={"x-kubernetes-int-or-string": True}),
     [{}, {"field": 42}, {"field": "foo"}],
     [({"field": None}, ['field: Invalid value: "null": field in body must be of type integer,string: "null"']),
      ({"field": True}, ['field: Invalid value: "boolean": field in body must be of type integer,string: "boolean"']),
      ({"field": 1.2}, ['field: Invalid value: "number": field in body must be of type integer,string: "number"']),
      ({"field": {}}, ['field: Invalid value: "object": field in body must be of type integer,string: "object"']),
      ({"field": []}, ['field: Invalid value: "array": field in body must be of type integer,string: "array"'])]),
    ("nullable and x-kubernetes-int-or-string", obj_schema(field={"nullable": True, "x-kubernetes-int-or-string": True}),
     [{}, {"field": 42}, {"field": "foo"}, {"field": None}],
     [({"field": True}, ['field: Invalid value: "boolean": field in body must be of type integer,string: "boolean"']),
      ({"field": 1.2}, ['field: Invalid value: "number": field in body must be of type integer,string: "number"']),
      ({"field": {}}, ['field: Invalid value: "object": field in body must be of type integer,string: "object"']),
      ({"field": []}, ['field: Invalid value: "array": field in body must be of type integer,string: "array"'])]),
    ("nullable, x-kubernetes-int-or-string and user-provided anyOf",
     obj_schema(field={"nullable": True, "x-kubernetes-int-or-string": True,
                       "anyOf": [{"type": "integer"}, {"type": "string"}]}),
     [{}, {"field": None}, {"field": 42}, {"field": "foo"}],
     [({"field": True}, ['<nil>: Invalid value: "": "field" must validate at least one schema (anyOf)',
                         'field: Invalid value: "boolean": field in body must be of type integer,string: "boolean"',
                         'field: Invalid value: "boolean": field in body must be of type integer: "boolean"']),
      ({"field": 1.2}, ['<nil>: Invalid value: "": "field" must validate at least one schema (anyOf)',
                        'field: Invalid value: "number": field in body must be of type integer,string: "number"',
                        'field: Invalid value: "number": field in body must be of type integer: "number"',
                        '<nil>: Invalid value: "": Checked value must be of type integer (default format) in field']),
      ({"field": {}}, ['<nil>: Invalid value: "": "field" must validate at least one schema (anyOf)',
                       'field: Invalid value: "object": field in body must be of type integer,string: "object"',
                       'field: Invalid value: "object": field in body must be of type integer: "object"']),
      ({"field": []}, ['<nil>: Invalid value: "": "field" must validate at least one schema (anyOf)',
                       'field: Invalid value: "array": field in body must be of type integer,string: "array"',
                       'field: Invalid value: "array": field in body must be of type integer: "array"'])]),
    ("nullable, x-kubernetes-int-or-string and user-provider allOf",
     obj_schema(field={"nullable": True, "x-kubernetes-int-or-string": True,
                       "allOf": [{"anyOf": [{"type": "integer"}, {"type": "string"}]}]}),
     [{}, {"field": None}, {"field": 42}, {"field": "foo"}],
     [({"field": True}, ['<nil>: Invalid value: "": "field" must validate all the schemas (allOf). None validated',
                         '<nil>: Invalid value: "": "field" must validate at least one schema (anyOf)',
                         'field: Invalid value: "boolean": field in body must be of type integer,string: "boolean"',
                         'field: Invalid value: "boolean": field in body must be of type integer: "boolean"']),
      ({"field": 1.2}, ['<nil>: Invalid value: "": "field" must validate all the schemas (allOf). None validated',
                        '<nil>: Invalid value: "": "field" must validate at least one schema (anyOf)',
                        'field: Invalid value: "number": field in body must be of type integer,string: "number"',
                        'field: Invalid value: "number": field in body must be of type integer: "number"',
                        '<nil>: Invalid value: "": Checked value must be of type integer (default format) in field']),
      ({"field": {}}, ['<nil>: Invalid value: "": "field" must validate all the schemas (allOf). None validated',
                       '<nil>: Invalid value: "": "field" must validate at least one schema (anyOf)',
                       'field: Invalid value: "object": field in body must be of type integer,string: "object"',
                       'field: Invalid value: "object": field in body must be of type integer: "object"']),
      ({"field": []}, ['<nil>: Invalid value: "": "field" must validate all the schemas (allOf). None validated',
                       '<nil>: Invalid value: "": "field" must validate at least one schema (anyOf)',
                       'field: Invalid value: "array": field in body must be of type integer,string: "array"',
                       'field: Invalid value: "array": field in body must be of type integer: "array"'])]),
    ("invalid regex", obj_schema(field={"type": "string", "pattern": "+"}),
     [],
     [({"field": "foo"}, ["field: Invalid value: \"foo\": field in body should match '+, but pattern is invalid: "
                          "error parsing regexp: missing argument to repetition operator: `+`'"])]),
    ("required field",
     {"type": "object", "required": ["field"],
      "properties": {"field": {"type": "object", "required": ["nested"], "properties": {"nested": {}}}}},
     [],
     [({"test": "a"}, ["field: Required value"]),
      ({"field": {}}, ["field.nested: Required value"])]),
    ("enum",
     obj_schema(field={"type": "object", "required": ["nestedint", "nestedstring"], "properties": {
         "nestedint": {"type": "integer", "enum": [1, 2]},
         "nestedstring": {"type": "string", "enum": ["a", "b"]}}}),
     [],
     [({"field": {}}, ["field.nestedint: Required value", "field.nestedstring: Required value"]),
      ({"field": {"nestedint": "x", "nestedstring": True}}, [
          'field.nestedint: Invalid value: "string": field.nestedint in body must be of type integer: "string"',
          'field.nestedint: Unsupported value: "x": supported values: "1", "2"',
          'field.nestedstring: Invalid value: "boolean": field.nestedstring in body must be of type string: "boolean"',
          'field.nestedstring: Unsupported value: true: supported values: "a", "b"'])]),
    ("maxProperties", obj_schema(fieldX={"type": "object", "maxProperties": 2}),
     [],
     [({"fieldX": {"a": True, "b": True, "c": True}}, ["fieldX: Too many: 3: must have at most 2 items"])]),
    ("maxItems", obj_schema(fieldX={"type": "array", "maxItems": 2}),
     [],
     [({"fieldX": ["a", "b", "c"]}, ["fieldX: Too many: 3: must have at most 2 items"])]),
    ("maxLength", obj_schema(fieldX={"type": "string", "maxLength": 2}),
     [],
     [({"fieldX": "abc"}, ["fieldX: Too long: may not be more than 2 bytes"])]),
    ("k8sLongName", obj_schema(fieldX={"type": "string", "format": "k8s-long-name"}),
     [],
     [({"fieldX": "a.-"}, ['fieldX: Invalid value: "a.-": fieldX in body must be of type k8s-long-name: "a.-"'])]),
    ("k8sShortName", obj_schema(fieldX={"type": "string", "format": "k8s-short-name"}),
     [],
     [({"fieldX": "a-"}, ['fieldX: Invalid value: "a-": fieldX in body must be of type k8s-short-name: "a-"'])]),
    ("numeric formats",
     obj_schema(intThirtyTwo={"type": "integer", "format": "int32"}, intSixtyFour={"type": "integer", "format": "int64"},
                floatThreeTwo={"type": "number", "format": "float"}, floatSixFour={"type": "number", "format": "double"}),
     [{"intThirtyTwo": MIN_INT32, "intSixtyFour": MIN_INT64, "floatThreeTwo": -MAX_FLOAT32, "floatSixFour": -MAX_FLOAT64},
      {"intThirtyTwo": 0, "intSixtyFour": 0, "floatThreeTwo": 0.0, "floatSixFour": 0.0},
      {"intThirtyTwo": MAX_INT32, "intSixtyFour": MAX_INT64, "floatThreeTwo": MAX_FLOAT32, "floatSixFour": MAX_FLOAT64}],
     [({"intThirtyTwo": MAX_INT32 + 1},
       ['<nil>: Invalid value: "": Checked value must be of type integer with format int32 in intThirtyTwo']),
      ({"intThirtyTwo": MIN_INT32 - 1},
       ['<nil>: Invalid value: "": Checked value must be of type integer with format int32 in intThirtyTwo']),
      ({"intSixtyFour": float(MAX_INT64) * 1.1},
       ['intSixtyFour: Invalid value: "float64": intSixtyFour in body must be of type int64: "float64"',
        '<nil>: Invalid value: "": Checked value must be of type integer with format int64 in intSixtyFour']),
      ({"intSixtyFour": float(MIN_INT64) * 1.1},
       ['intSixtyFour: Invalid value: "float64": intSixtyFour in body must be of type int64: "float64"',
        '<nil>: Invalid value: "": Checked value must be of type integer with format int64 in intSixtyFour']),
      ({"floatThreeTwo": MAX_FLOAT32 * 1.1},
       ['<nil>: Invalid value: "": Checked value must be of type number with format float in floatThreeTwo']),
      ({"floatThreeTwo": -MAX_FLOAT32 * 1.1},
       ['<nil>: Invalid value: "": Checked value must be of type number with format float in floatThreeTwo'])]),
]


@pytest.mark.parametrize("version", ["1.36", "1.37"])
@pytest.mark.parametrize(("name", "schema", "valid", "failing"), CASES, ids=[c[0] for c in CASES])
def test_validate_custom_resource(
    name: str, schema: dict[str, Any], valid: list[Any], failing: list[tuple[Any, list[str]]], version: str
) -> None:
    for obj in valid:
        assert errors(obj, schema, version) == set(), obj
    for obj, expected in failing:
        assert errors(obj, schema, version) == set(expected), obj


_CASE = {c[0]: c for c in CASES}
_ANY_OF = _CASE["nullable, x-kubernetes-int-or-string and user-provided anyOf"][3][1][1]
_ALL_OF = _CASE["nullable, x-kubernetes-int-or-string and user-provider allOf"][3][1][1]
_CHECKED_FIELD = '<nil>: Invalid value: "": Checked value must be of type integer (default format) in field'

#: (case, releases, object, expected errors): the cases of CASES that differ in older releases.
OLDER_RELEASES: list[tuple[str, tuple[str, ...], Any, list[str]]] = [
    # validation_test.go@v0.35.7: no range check ("Checked value ...") before kube-openapi 43fb72c (1.36)
    ("nullable, x-kubernetes-int-or-string and user-provided anyOf", ("1.30", "1.33", "1.35"), {"field": 1.2},
     [e for e in _ANY_OF if e != _CHECKED_FIELD]),
    ("nullable, x-kubernetes-int-or-string and user-provider allOf", ("1.30", "1.35"), {"field": 1.2},
     [e for e in _ALL_OF if e != _CHECKED_FIELD]),
    # validation_test.go@v0.31.14 "maxLength" (field.TooLongMaxLength); @v0.32.13 the 1.36 text
    ("maxLength", ("1.30", "1.31"), {"fieldX": "abc"}, ["fieldX: Too long: may not be longer than 2"]),
    ("maxLength", ("1.32", "1.35"), {"fieldX": "abc"}, ["fieldX: Too long: may not be more than 2 bytes"]),
    # the k8s-short-name / k8s-long-name formats are introduced at compatibility version 1.34
    # (formats.go@v0.34.10; validation_test.go@v0.34.10 forces compatVersion 1.34 for these cases): validated
    # by 1.35 (compatibility 1.34), ignored by 1.34 (1.33) and older
    ("k8sShortName", ("1.30", "1.33", "1.34"), {"fieldX": "a-"}, []),
    ("k8sShortName", ("1.35",), {"fieldX": "a-"},
     ['fieldX: Invalid value: "a-": fieldX in body must be of type k8s-short-name: "a-"']),
    ("k8sLongName", ("1.30", "1.34"), {"fieldX": "a.-"}, []),
    ("k8sLongName", ("1.35",), {"fieldX": "a.-"},
     ['fieldX: Invalid value: "a.-": fieldX in body must be of type k8s-long-name: "a.-"']),
    # derived (formats.go@v0.35.7 strips int32/int64/float/double; kube-openapi numberValidator has no
    # type/format before 43fb72c): out-of-range values pass, a float on an integer field is a plain type error
    ("numeric formats", ("1.30", "1.35"), {"intThirtyTwo": MAX_INT32 + 1}, []),
    ("numeric formats", ("1.30", "1.35"), {"intSixtyFour": float(MAX_INT64) * 1.1},
     ['intSixtyFour: Invalid value: "number": intSixtyFour in body must be of type integer: "number"']),
    ("numeric formats", ("1.30", "1.35"), {"floatThreeTwo": MAX_FLOAT32 * 1.1}, []),
]


@pytest.mark.parametrize(("name", "versions", "obj", "expected"), OLDER_RELEASES,
                         ids=[f"{c[0]}@{'/'.join(c[1])}" for c in OLDER_RELEASES])
def test_validate_custom_resource_older_releases(name: str, versions: tuple[str, ...], obj: Any, expected: list[str]) -> None:
    schema = _CASE[name][1]
    for version in versions:
        assert errors(obj, schema, version) == set(expected), version


def test_nil_path_errors_have_upstreams_type_field_and_detail() -> None:
    schema = obj_schema(field={"anyOf": [{"type": "integer"}, {"type": "string"}], "x-kubernetes-int-or-string": True})
    errs = validate_value({"field": 1.2}, schema, None)
    nil = [(e.type, e.field, e.detail, e.bad_value) for e in errs if e.field == "<nil>"]
    assert nil == [
        ("FieldValueInvalid", "<nil>", '"field" must validate at least one schema (anyOf)', ""),
        ("FieldValueInvalid", "<nil>", "Checked value must be of type integer (default format) in field", ""),
    ]


def test_min_and_max_properties_do_not_short_circuit() -> None:
    # kube-openapi object_validator_test.go TestMinPropertiesMaxPropertiesDontShortCircuit, as a
    # schema at "some" (the test's path "some.path[5]" is the validator's own name)
    inner = {
        "minProperties": 20, "maxProperties": 0,
        "properties": {"intField": {"type": "integer"}, "requiredField": {"type": "string"}},
        "required": ["requiredField"],
        "additionalProperties": {"type": "string", "pattern": "^20[0-9][0-9]"},
    }
    schema = obj_schema(some=inner)
    got = [(e.type, e.field, e.detail) for e in validate_value({"some": {"field": "hello, world"}}, schema, None)]
    assert sorted(got) == sorted([
        ("FieldValueInvalid", "some", "some in body should have at least 20 properties"),
        ("FieldValueTooMany", "some", "must have at most 0 items"),
        ("FieldValueInvalid", "some.field", "some.field in body should match '^20[0-9][0-9]'"),
        ("FieldValueRequired", "some.requiredField", ""),
    ])
    obj = {"field": "hello, world", "field2": "hello, other world", "field3": "hello, third world", "intField": "a string"}
    got = [(e.type, e.field, e.detail) for e in validate_value({"some": obj}, schema, None)]
    assert sorted(got) == sorted([
        ("FieldValueInvalid", "some", "some in body should have at least 20 properties"),
        ("FieldValueTooMany", "some", "must have at most 0 items"),
        ("FieldValueInvalid", "some.field", "some.field in body should match '^20[0-9][0-9]'"),
        ("FieldValueInvalid", "some.field2", "some.field2 in body should match '^20[0-9][0-9]'"),
        ("FieldValueInvalid", "some.field3", "some.field3 in body should match '^20[0-9][0-9]'"),
        ("FieldValueTypeInvalid", "some.intField", 'some.intField in body must be of type integer: "string"'),
        ("FieldValueRequired", "some.requiredField", ""),
    ])


NUMERIC_FORMATS = [
    # kube-openapi schema_test.go TestNumericFormatEnforcement: (schema, value, expect success)
    ({"type": "integer", "format": "int32"}, 123, True),
    ({"type": "integer", "format": "int32"}, 2147483648, False),
    ({"type": "integer", "format": "int32"}, 2147483647, True),
    ({"type": "integer", "format": "int32"}, -2147483648, True),
    ({"type": "integer", "format": "int32"}, -2147483649, False),
    ({"type": "integer", "format": "int64"}, MAX_INT64, True),
    ({"type": "number", "format": "float"}, 1.23, True),
    ({"type": "number", "format": "float"}, MAX_FLOAT32 * 1.1, False),
    ({"type": "number", "format": "double"}, 1.23, True),
    ({"type": "number", "format": "double"}, MAX_FLOAT64, True),
    ({"type": "number", "format": "int32"}, float(MAX_INT32) + 1.0, True),
    ({"type": "integer", "format": "float"}, MAX_INT32 * 2, True),
    ({"x-kubernetes-int-or-string": True, "format": "int32"}, MAX_INT32 + 1, True),
]


@pytest.mark.parametrize(("schema", "value", "ok"), NUMERIC_FORMATS)
def test_numeric_format_enforcement(schema: dict[str, Any], value: Any, ok: bool) -> None:
    assert (validate_value(value, schema, None) == []) is ok
    assert (validate_value(value, schema, None, release=resolve_release("1.36")) == []) is ok
    # derived: before 1.36 (kube-openapi 589584f and older) no range is enforced at all
    assert validate_value(value, schema, None, release=resolve_release("1.35")) == []


@pytest.mark.parametrize(
    ("schema", "value", "expected"),
    [
        # numberValidator: a bound that does not fit the declared type is reported (plain error, nil
        # path) and then compared as float64 (kube-openapi validator.go numberValidator.Validate)
        ({"type": "integer", "maximum": 10.5}, 11, [
            '<nil>: Invalid value: "": Maximum boundary value must be of type integer (default format) in n',
            "n: Invalid value: 11: n in body should be less than or equal to 10.5"]),
        ({"type": "integer", "format": "int32", "minimum": -3e9}, 5, [
            '<nil>: Invalid value: "": Minimum boundary value must be of type integer with format int32 in n']),
        ({"type": "integer", "multipleOf": 0.5}, 3, [
            '<nil>: Invalid value: "": MultipleOf value must be of type integer (default format) in n']),
        # MultipleOfInt: a factor truncated to 0 is "must be positive", no division
        ({"type": "number", "multipleOf": 0.5}, 3, [
            "n: Invalid value: 0: factor MultipleOf declared for n must be positive: 0"]),
        ({"type": "number", "multipleOf": 0.5}, 3.5, []),
        ({"type": "integer", "multipleOf": 3}, -9, []),
    ],
)
def test_number_validator_bounds(schema: dict[str, Any], value: Any, expected: list[str]) -> None:
    assert sorted(str(e) for e in validate_value({"n": value}, obj_schema(n=schema), None)) == sorted(expected)


@pytest.mark.parametrize(
    ("schema", "value", "expected"),
    [
        # derived for 1.30 - 1.35 (kube-openapi values.go, unchanged 70dd376 … bc653b6, with the numberValidator
        # of 70dd376 … 589584f, whose Type/Format are empty): bounds are never out of range, so an int64 is
        # compared with the bound converted by int64() (MaximumInt), a multipleOf by MultipleOfInt
        ({"type": "integer", "maximum": 10.5}, 11, ["n: Invalid value: 11: n in body should be less than or equal to 10"]),
        ({"type": "integer", "format": "int32", "minimum": -3e9}, 5, []),
        ({"type": "integer", "multipleOf": 0.5}, 3, ["n: Invalid value: 0: factor MultipleOf declared for n must be positive: 0"]),
        ({"type": "number", "maximum": 10.5}, 10.75, ["n: Invalid value: 10.75: n in body should be less than or equal to 10.5"]),
    ],
)
def test_number_validator_bounds_before_1_36(schema: dict[str, Any], value: Any, expected: list[str]) -> None:
    for version in ("1.30", "1.35"):
        got = validate_value({"n": value}, obj_schema(n=schema), None, release=resolve_release(version))
        assert sorted(str(e) for e in got) == sorted(expected), version


#: swag IsFloat64AJSONInteger as kube-openapi's typeValidator (a float on an integer field) and MultipleOf
#: (1/factor*value for a factor below 1) use it. Derived: the predicate of swag convert.go@v0.23.0 (1.30 -
#: 1.36) and conv/convert.go@conv/v0.25.4 (1.37) was run with Go 1.19 on these values; the messages are
#: kube-openapi's.
SWAG_CASES = [
    # (schema, value, 1.35 errors, 1.36 errors, 1.37 errors)
    ({"type": "number", "multipleOf": 0.01}, 0.29,
     ["n: Invalid value: 0.29: n in body should be a multiple of 0.01"],
     ["n: Invalid value: 0.29: n in body should be a multiple of 0.01"], []),
    ({"type": "number", "multipleOf": 1.1}, 3.3,
     ["n: Invalid value: 3.3: n in body should be a multiple of 1.1"],
     ["n: Invalid value: 3.3: n in body should be a multiple of 1.1"], []),
    ({"type": "integer"}, 2.9999999999,
     ['n: Invalid value: "number": n in body must be of type integer: "number"'],
     ['n: Invalid value: "number": n in body must be of type integer: "number"',
      '<nil>: Invalid value: "": Checked value must be of type integer (default format) in n'],
     ['<nil>: Invalid value: "": Checked value must be of type integer (default format) in n']),
    ({"type": "integer"}, -1.0000000001,
     ['n: Invalid value: "number": n in body must be of type integer: "number"'],
     ['n: Invalid value: "number": n in body must be of type integer: "number"',
      '<nil>: Invalid value: "": Checked value must be of type integer (default format) in n'],
     ['<nil>: Invalid value: "": Checked value must be of type integer (default format) in n']),
    ({"type": "integer"}, 1.0000000015,
     [],
     ['<nil>: Invalid value: "": Checked value must be of type integer (default format) in n'],
     ['n: Invalid value: "number": n in body must be of type integer: "number"',
      '<nil>: Invalid value: "": Checked value must be of type integer (default format) in n']),
    # Go's math.Round rounds halves away from zero (500000001 here), Python's round to even
    ({"type": "integer"}, 500000000.5,
     [], ['<nil>: Invalid value: "": Checked value must be of type integer (default format) in n'],
     ['<nil>: Invalid value: "": Checked value must be of type integer (default format) in n']),
    ({"type": "integer"}, 499999999.5,
     [], ['<nil>: Invalid value: "": Checked value must be of type integer (default format) in n'],
     ['n: Invalid value: "number": n in body must be of type integer: "number"',
      '<nil>: Invalid value: "": Checked value must be of type integer (default format) in n']),
]


@pytest.mark.parametrize(("schema", "value", "at_35", "at_36", "at_37"), SWAG_CASES)
def test_float_is_integer_per_release(schema: dict[str, Any], value: float, at_35: list[str], at_36: list[str],
                                      at_37: list[str]) -> None:
    for version, expected in (("1.30", at_35), ("1.35", at_35), ("1.36", at_36), ("1.37", at_37)):
        got = validate_value({"n": value}, obj_schema(n=schema), None, release=resolve_release(version))
        assert sorted(str(e) for e in got) == sorted(expected), version


def test_float32_range_edge() -> None:
    schema = {"type": "number", "format": "float"}
    assert validate_value(MAX_FLOAT32, schema, None) == []
    assert validate_value(-MAX_FLOAT32, schema, None) == []
    assert validate_value(math.ldexp(1.0, 128), schema, None) != []
