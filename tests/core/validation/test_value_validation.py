"""OpenAPI value validation of custom resources, list sets/maps, formats, Go regexps.

Our own cases, written from the behaviour pinned by upstream's
``apiserver/validation/validation_test.go`` (TestValidateCustomResource:
error types, fields and messages), kube-openapi's ``validate`` and ``errors``
(messages, anyOf/allOf reporting), ``strfmt`` format tests,
``listtype/validation_test.go`` and Go's ``regexp/syntax`` errors.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from crdtool.core.errors import Path
from crdtool.core.releases import resolve_release
from crdtool.core.schema import formats
from crdtool.core.validation.value_validation import (
    compile_go_regexp,
    go_json_marshal,
    validate_list_sets_and_maps,
    validate_value,
)

ROOT = Path("")


def msgs(value: Any, schema: Any, path: Path | None = ROOT) -> list[str]:
    return sorted(str(e) for e in validate_value(value, schema, path))


def field(**props: Any) -> dict[str, Any]:
    return {"type": "object", "properties": props}


# --- types and nullability ------------------------------------------------------------------

TYPE_NAMES = [("foo", "string"), (42, "integer"), (True, "boolean"), (1.2, "number"), ([], "array"), (None, "null")]


@pytest.mark.parametrize(("value", "type_name"), TYPE_NAMES)
def test_non_nullable_object_rejects_other_types(value: Any, type_name: str) -> None:
    errs = validate_value({"f": value}, field(f={"type": "object"}), ROOT)
    assert [(e.type, e.field) for e in errs] == [("FieldValueTypeInvalid", "f")]
    assert str(errs[0]) == f'f: Invalid value: "{type_name}": f in body must be of type object: "{type_name}"'


@pytest.mark.parametrize("value", [{}, None])
def test_nullable_object_accepts_objects_and_null(value: Any) -> None:
    assert validate_value({"f": value}, field(f={"type": "object", "nullable": True}), ROOT) == []


@pytest.mark.parametrize("value", [{}, None, "foo", 42, True, 1.2, []])
def test_no_type_accepts_everything(value: Any) -> None:
    assert validate_value({"f": value}, field(f={"nullable": True}), ROOT) == []


@pytest.mark.parametrize("value", [42, "foo", 7.0])
def test_int_or_string_accepts(value: Any) -> None:
    assert validate_value({"f": value}, field(f={"x-kubernetes-int-or-string": True}), ROOT) == []


@pytest.mark.parametrize(("value", "type_name"), [(None, "null"), (True, "boolean"), (1.2, "number"), ({}, "object")])
def test_int_or_string_rejects(value: Any, type_name: str) -> None:
    assert msgs({"f": value}, field(f={"x-kubernetes-int-or-string": True})) == [
        f'f: Invalid value: "{type_name}": f in body must be of type integer,string: "{type_name}"'
    ]


def test_integral_float_is_an_integer() -> None:
    assert validate_value({"n": 3.0}, field(n={"type": "integer"}), ROOT) == []
    # typeValidator, then numberValidator's IsValueValidAgainstRange (a plain error: nil path)
    assert msgs({"n": 3.5}, field(n={"type": "integer"}), None) == [
        '<nil>: Invalid value: "": Checked value must be of type integer (default format) in n',
        'n: Invalid value: "number": n in body must be of type integer: "number"',
    ]


def test_integer_format_on_a_float_reports_the_format() -> None:
    # typeValidator: a kept int32 format makes the mismatch a format mismatch
    assert msgs({"n": 1.5}, field(n={"type": "integer", "format": "int32"}), None) == [
        '<nil>: Invalid value: "": Checked value must be of type integer with format int32 in n',
        'n: Invalid value: "float64": n in body must be of type int32: "float64"',
    ]


def test_anyof_with_int_or_string_reports_best_branch() -> None:
    schema = field(
        f={"nullable": True, "x-kubernetes-int-or-string": True, "anyOf": [{"type": "integer"}, {"type": "string"}]}
    )
    assert validate_value({"f": None}, schema, ROOT) == []
    assert msgs({"f": True}, schema) == [
        ': Invalid value: "": "f" must validate at least one schema (anyOf)',
        'f: Invalid value: "boolean": f in body must be of type integer,string: "boolean"',
        'f: Invalid value: "boolean": f in body must be of type integer: "boolean"',
    ]


def test_allof_around_anyof() -> None:
    schema = field(
        f={
            "nullable": True,
            "x-kubernetes-int-or-string": True,
            "allOf": [{"anyOf": [{"type": "integer"}, {"type": "string"}]}],
        }
    )
    assert msgs({"f": []}, schema) == [
        ': Invalid value: "": "f" must validate all the schemas (allOf). None validated',
        ': Invalid value: "": "f" must validate at least one schema (anyOf)',
        'f: Invalid value: "array": f in body must be of type integer,string: "array"',
        'f: Invalid value: "array": f in body must be of type integer: "array"',
    ]


def test_anyof_reports_branch_with_most_matches() -> None:
    schema = field(f={"anyOf": [{"type": "integer"}, {"type": "string", "maxLength": 2}]})
    # the string branch ran more validators, so its failure is the one reported
    assert msgs({"f": "abc"}, schema) == [
        ': Invalid value: "": "f" must validate at least one schema (anyOf)',
        "f: Too long: may not be more than 2 bytes",
    ]


def test_oneof_messages() -> None:
    schema = field(f={"oneOf": [{"minimum": 1}, {"maximum": 10}]})
    assert msgs({"f": 5}, schema) == [
        ': Invalid value: "": "f" must validate one and only one schema (oneOf). Found 2 valid alternatives'
    ]
    schema_none = field(f={"oneOf": [{"type": "string"}, {"type": "boolean"}]})
    assert msgs({"f": 5}, schema_none) == [
        ': Invalid value: "": "f" must validate one and only one schema (oneOf). Found none valid',
        'f: Invalid value: "integer": f in body must be of type string: "integer"',
    ]
    assert validate_value({"f": "x"}, schema_none, ROOT) == []


def test_not_message_and_root_path_of_composites() -> None:
    schema = field(f={"not": {"type": "string"}})
    assert msgs({"f": "x"}, schema, Path("root")) == ['root: Invalid value: "": "f" must not validate the schema (not)']
    assert validate_value({"f": 1}, schema, ROOT) == []


# --- required, enum, strings -----------------------------------------------------------------


def test_required_fields() -> None:
    schema = {"required": ["f"], "properties": {"f": {"type": "object", "required": ["nested"], "properties": {"nested": {}}}}}
    errs = validate_value({"test": "a"}, schema, ROOT)
    assert [(e.type, e.field, str(e)) for e in errs] == [("FieldValueRequired", "f", "f: Required value")]
    assert msgs({"f": {}}, schema) == ["f.nested: Required value"]


def test_enum_with_type_errors() -> None:
    schema = field(
        f={
            "type": "object",
            "required": ["i", "s"],
            "properties": {"i": {"type": "integer", "enum": [1, 2]}, "s": {"type": "string", "enum": ["a", "b"]}},
        }
    )
    assert msgs({"f": {}}, schema) == ["f.i: Required value", "f.s: Required value"]
    errs = validate_value({"f": {"i": "x", "s": True}}, schema, ROOT)
    assert sorted((e.type, e.field) for e in errs) == [
        ("FieldValueNotSupported", "f.i"),
        ("FieldValueNotSupported", "f.s"),
        ("FieldValueTypeInvalid", "f.i"),
        ("FieldValueTypeInvalid", "f.s"),
    ]
    assert sorted(map(str, errs)) == [
        'f.i: Invalid value: "string": f.i in body must be of type integer: "string"',
        'f.i: Unsupported value: "x": supported values: "1", "2"',
        'f.s: Invalid value: "boolean": f.s in body must be of type string: "boolean"',
        'f.s: Unsupported value: true: supported values: "a", "b"',
    ]


@pytest.mark.parametrize(
    ("enum", "value", "ok"),
    [
        ([1, 2], 1.0, True),  # float64 converts to int64
        ([1.0], 1, True),  # int64 converts to float64
        ([1], 1.5, True),  # Go truncates float64 -> int64 before comparing
        (["A"], 65, True),  # reflect converts int64 to a one-rune string
        (["1"], 1, False),
        ([True], 1, False),
        ([[1]], [1.0], False),  # inside containers types must match exactly
        ([{"a": [1]}], {"a": [1]}, True),
        ([None, "a"], None, False),  # null never matches an enum
    ],
)
def test_enum_comparison_follows_go_reflect(enum: list[Any], value: Any, ok: bool) -> None:
    errs = validate_value({"f": value}, field(f={"enum": enum}), ROOT)
    assert (errs == []) is ok


def test_enum_values_are_json_in_the_message() -> None:
    errs = validate_value({"f": "z"}, field(f={"enum": ["a", 1.5, None, {"k": [1]}, 2.0]}), ROOT)
    assert str(errs[0]) == 'f: Unsupported value: "z": supported values: "a", "1.5", "null", "{\\"k\\":[1]}", "2"'


@pytest.mark.parametrize(
    ("schema", "value", "expected"),
    [
        ({"type": "string", "maxLength": 3}, "abcd", ["s: Too long: may not be more than 3 bytes"]),
        ({"type": "string", "maxLength": 1}, "ab", ["s: Too long: may not be more than 1 byte"]),
        ({"type": "string", "maxLength": 3}, "äöü", []),  # counts runes, not bytes
        ({"type": "string", "minLength": 2}, "a", ['s: Invalid value: "a": s in body should be at least 2 chars long']),
        ({"type": "string", "pattern": "^a+$"}, "ab", ['s: Invalid value: "ab": s in body should match \'^a+$\'']),
        ({"type": "string", "pattern": "^a+$"}, "aaa", []),
        # maxLength fails first: the pattern is not checked any more
        ({"type": "string", "maxLength": 1, "pattern": "^x$"}, "ab", ["s: Too long: may not be more than 1 byte"]),
        (
            {"type": "string", "pattern": "+"},
            "foo",
            [
                's: Invalid value: "foo": s in body should match \'+, but pattern is invalid: '
                "error parsing regexp: missing argument to repetition operator: `+`'"
            ],
        ),
    ],
)
def test_string_constraints(schema: Any, value: str, expected: list[str]) -> None:
    assert msgs({"s": value}, field(s=schema)) == expected


def test_too_long_type_and_value() -> None:
    (err,) = validate_value({"s": "abcd"}, field(s={"type": "string", "maxLength": 3}), ROOT)
    assert (err.type, err.field, err.detail) == ("FieldValueTooLong", "s", "may not be more than 3 bytes")


# --- numbers ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("schema", "value", "expected"),
    [
        ({"type": "integer", "maximum": 5}, 6, ["n: Invalid value: 6: n in body should be less than or equal to 5"]),
        ({"type": "integer", "maximum": 5, "exclusiveMaximum": True}, 5, ["n: Invalid value: 5: n in body should be less than 5"]),
        ({"type": "integer", "minimum": 1}, 0, ["n: Invalid value: 0: n in body should be greater than or equal to 1"]),
        ({"type": "integer", "minimum": 1, "exclusiveMinimum": True}, 1, ["n: Invalid value: 1: n in body should be greater than 1"]),
        # a bound that is no integer is reported, then compared as float64 (numberValidator)
        ({"type": "integer", "maximum": 5.9}, 6, [
            ": Invalid value: \"\": Maximum boundary value must be of type integer (default format) in n",
            "n: Invalid value: 6: n in body should be less than or equal to 5.9",
        ]),
        # without a single declared type, integer data compares with the bound truncated to int64
        ({"maximum": 5.9}, 6, ["n: Invalid value: 6: n in body should be less than or equal to 5"]),
        ({"type": "number", "maximum": 1.5}, 1.75, ["n: Invalid value: 1.75: n in body should be less than or equal to 1.5"]),
        ({"type": "number", "maximum": 2}, 2.5, ["n: Invalid value: 2.5: n in body should be less than or equal to 2"]),
        ({"type": "integer", "multipleOf": 2}, 7, ["n: Invalid value: 7: n in body should be a multiple of 2"]),
        ({"type": "integer", "multipleOf": 2}, -8, []),
        ({"type": "number", "multipleOf": 0.1}, 0.3, []),  # relative tolerance
        ({"type": "number", "multipleOf": 0.5}, 0.7, ["n: Invalid value: 0.7: n in body should be a multiple of 0.5"]),
        (
            {"type": "integer", "minimum": 10, "maximum": 1, "multipleOf": 3},
            5,
            [
                "n: Invalid value: 5: n in body should be a multiple of 3",
                "n: Invalid value: 5: n in body should be greater than or equal to 10",
                "n: Invalid value: 5: n in body should be less than or equal to 1",
            ],
        ),
    ],
)
def test_number_constraints(schema: Any, value: Any, expected: list[str]) -> None:
    assert msgs({"n": value}, field(n=schema)) == expected


# --- arrays and objects -------------------------------------------------------------------------


def test_array_constraints() -> None:
    schema = field(l={"type": "array", "maxItems": 2, "items": {"type": "string"}})
    errs = validate_value({"l": ["a", 1, "c"]}, schema, ROOT)
    assert [(e.type, e.field) for e in errs] == [("FieldValueTypeInvalid", "l[1]"), ("FieldValueTooMany", "l")]
    assert str(errs[1]) == "l: Too many: 3: must have at most 2 items"
    assert msgs({"l": []}, field(l={"type": "array", "minItems": 1})) == [
        "l: Invalid value: 0: l in body should have at least 1 items"
    ]
    assert msgs({"l": [1, 2]}, field(l={"type": "array", "maxItems": 1})) == ["l: Too many: 2: must have at most 1 item"]


def test_object_property_counts() -> None:
    assert msgs({"o": {"a": 1, "b": 2}}, field(o={"type": "object", "maxProperties": 1})) == [
        "o: Too many: 2: must have at most 1 item"
    ]
    assert msgs({"o": {}}, field(o={"type": "object", "minProperties": 1})) == [
        "o: Invalid value: 0: o in body should have at least 1 properties"
    ]


def test_additional_properties_paths() -> None:
    # kube-openapi names additionalProperties children Path+"."+key, so at the
    # root the message carries a leading dot while the field does not
    assert msgs({"a": "x"}, {"type": "object", "additionalProperties": {"type": "integer"}}) == [
        'a: Invalid value: "string": .a in body must be of type integer: "string"'
    ]
    assert msgs({"m": {"a": "x"}}, field(m={"type": "object", "additionalProperties": {"type": "integer"}})) == [
        'm.a: Invalid value: "string": m.a in body must be of type integer: "string"'
    ]
    assert msgs({"m": {"a": 1}}, field(m={"type": "object", "additionalProperties": False})) == [
        'm: Invalid value: "a": m.a in body is a forbidden property'
    ]


def test_nested_paths_and_prefix() -> None:
    schema = field(spec=field(items={"type": "array", "items": field(n={"type": "integer"})}))
    errs = validate_value({"spec": {"items": [{"n": 1}, {"n": "x"}]}}, schema, Path("root"))
    assert [str(e) for e in errs] == [
        'root.spec.items[1].n: Invalid value: "string": spec.items[1].n in body must be of type integer: "string"'
    ]


def test_unknown_and_unsupported_formats_are_ignored() -> None:
    assert validate_value({"s": "anything"}, field(s={"type": "string", "format": "no-such-format"}), ROOT) == []
    assert validate_value({"s": "x"}, field(s={"type": "string", "format": "k8s-ip-sloppy"}), ROOT) == []
    # a string format on a non-string type is stripped
    assert validate_value({"n": 5}, field(n={"type": "integer", "format": "date"}), ROOT) == []


def test_format_error() -> None:
    (err,) = validate_value({"d": "2020-02-30"}, field(d={"type": "string", "format": "date"}), ROOT)
    assert (err.type, err.field) == ("FieldValueTypeInvalid", "d")
    assert str(err) == 'd: Invalid value: "2020-02-30": d in body must be of type date: "2020-02-30"'
    (err2,) = validate_value({"d": "x"}, field(d={"type": "string", "format": "date-time"}), ROOT)
    assert str(err2) == 'd: Invalid value: "x": d in body must be of type date-time: "x"'


def test_no_schema_and_null_root() -> None:
    assert validate_value({"a": 1}, None, ROOT) == []
    assert msgs(None, {"type": "object"}) == [': Invalid value: "null":  in body must be of type object: "null"']


# --- formats ------------------------------------------------------------------------------------

FORMAT_CASES: dict[str, tuple[list[str], list[str]]] = {
    "date": (["2006-01-02", "2024-02-29", "0000-01-01"], ["2006-1-02", "2023-02-29", "2006-13-01", "20060102", "2006-01-02x"]),
    "date-time": (
        ["2006-01-02T15:04:05Z", "2006-01-02t15:04:05.123+07:00", "2006-01-02T23:59:59z"],
        ["2006-01-02", "2006-01-02T24:00:00Z", "2006-01-02T15:04:05", "2006-01-02 15:04:05Z", "x"],
    ),
    "duration": (["1h", "1.5h", "-3m", "0", "22 ns", "3 days", "1w"], ["", "1", "abc", "h1"]),
    "uuid": (["a8098c1a-f86e-11da-bd1a-00112444be1e", "A8098C1AF86E11DABD1A00112444BE1E"], ["a8098c1a-f86e-11da-bd1a", "zzz"]),
    "uuid4": (["a8098c1a-f86e-41da-9d1a-00112444be1e"], ["a8098c1a-f86e-11da-bd1a-00112444be1e"]),
    "ipv4": (["192.168.0.1", "001.002.003.004"], ["192.168.0", "256.1.1.1", "::1", "1.2.3.4 "]),
    "ipv6": (["::1", "fe80::1", "::ffff:1.2.3.4", "2001:db8::"], ["1.2.3.4", "fe80::1%eth0", "12345::1", "1:2:3:4:5:6:7:8:9"]),
    "cidr": (["10.0.0.0/8", "fd00::/64", "010.0.0.0/08"], ["10.0.0.0", "10.0.0.0/33", "fd00::/129"]),
    "mac": (["00:1a:2b:3c:4d:5e", "00-1A-2B-3C-4D-5E", "001a.2b3c.4d5e", "00:1a:2b:3c:4d:5e:6f:70"], ["00:1a:2b:3c:4d", "00:1a-2b:3c:4d:5e"]),
    "hostname": (["example.com", "a", "a-b", "xn--bcher-kva.example", "bücher.de"], ["-a", "a..b", "a.b.", "a.1", "a_b.com"]),
    "email": (["a@b.c", "John Doe <john@example.com>", '"quoted user"@example.com', "a@[1.2.3.4]"], ["a", "a@", "@b", "a b@c"]),
    "uri": (["http://example.com/x?y=1", "/abs/path", "mailto:a@b", "urn:isbn:123", "http://[::1]:80/"], ["", "rel/path", "http://a b", "http://h:port/", "%zz"]),
    "byte": (["aGVsbG8=", "aGVsbA==", "YWJj"], ["", "aGVsbG8", "a$==", "aGVsbG8=="]),
    "bsonobjectid": (["507f1f77bcf86cd799439011"], ["507f1f77bcf86cd79943901", "507f1f77bcf86cd79943901z"]),
    "isbn10": (["0321751043", "0-321-75104-3"], ["0321751044"]),
    "isbn13": (["978-0321751041"], ["9780321751042"]),
    "creditcard": (["4111 1111 1111 1111"], ["4111 1111 1111 1112"]),
    "ssn": (["123-45-6789", "123 45 6789"], ["123456789", "12-345-6789"]),
    "hexcolor": (["#fff", "FFFFFF", "#a1b2c3"], ["#ffff", "ggg"]),
    "rgbcolor": (["rgb(0, 255, 10)", "rgb(1,2,3)"], ["rgb(256,0,0)", "rgb(1,2)"]),
    "password": (["anything at all"], []),
    "k8s-short-name": (["a", "a-1", "0"], ["A", "-a", "a.b", "a" * 64]),
    "k8s-long-name": (["a.b", "a-1.b-2", "a" * 253], ["A.b", "a..b", "a" * 254]),
}


@pytest.mark.parametrize("fmt", sorted(FORMAT_CASES))
def test_formats(fmt: str) -> None:
    good, bad = FORMAT_CASES[fmt]
    assert formats.is_known_format(fmt)
    for value in good:
        assert formats.validate_format(fmt, value), (fmt, value)
        assert validate_value({"s": value}, field(s={"type": "string", "format": fmt}), ROOT) == []
    for value in bad:
        assert not formats.validate_format(fmt, value), (fmt, value)
        errs = validate_value({"s": value}, field(s={"type": "string", "format": fmt}), ROOT)
        assert [(e.type, e.field) for e in errs] == [("FieldValueTypeInvalid", "s")]


def test_quantity_parsing() -> None:
    # resource.ParseQuantity ("k" and "+" parse in Go too: an empty number is 0)
    for value in ["1", "0", "100m", "1.5Gi", "2e3", "1E", "+1k", "k", "+"]:
        assert formats.is_quantity(value), value
    for value in ["", "1e", "1Kb", "1.2.3", "1 Gi"]:
        assert not formats.is_quantity(value), value


@pytest.mark.parametrize("version", ["1.30", "1.36", "1.37"])
def test_quantity_is_not_a_crd_format(version: str) -> None:
    # apiextensions formats.go@v0.30.0 … v0.37.0-beta.0 supportedVersionedFormats has no "quantity" and
    # kube-openapi's strfmt.Default registers none: the format is stripped, any string is valid
    assert not formats.is_known_format("quantity")
    schema = field(q={"type": "string", "format": "quantity"})
    assert validate_value({"q": "abc"}, schema, ROOT, release=resolve_release(version)) == []


@pytest.mark.parametrize(
    ("types", "fmt", "kept"),
    [
        (("string",), "date-time", "date-time"),
        (("string",), "int32", ""),
        ((), "uuid", "uuid"),
        (("integer", "string"), "date", "date"),
        (("integer",), "int64", "int64"),
        (("integer",), "float", ""),
        (("number",), "double", "double"),
        (("boolean",), "byte", ""),
        (("string",), "k8sshortname", "k8sshortname"),
    ],
)
def test_effective_format(types: tuple[str, ...], fmt: str, kept: str) -> None:
    assert formats.effective_format(types, fmt) == kept


# --- Go regexps ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pattern", "error"),
    [
        ("+", "missing argument to repetition operator: `+`"),
        ("a|*", "missing argument to repetition operator: `*`"),
        ("(?i)?", "missing argument to repetition operator: `?`"),
        ("a**", "invalid nested repetition operator: `**`"),
        ("a{2}+?", "invalid nested repetition operator: `{2}+?`"),
        ("(a", "missing closing ): `(a`"),
        ("a)b", "unexpected ): `a)b`"),
        ("[a-", "missing closing ]: `[a-`"),
        ("[z-a]", "invalid character class range: `z-a`"),
        ("[[:nope:]]", "invalid character class range: `[:nope:]`"),
        (r"\p{Nope", r"invalid character class range: `\p{Nope`"),
        (r"(\w)\1", r"invalid escape sequence: `\1`"),
        (r"\Z", r"invalid escape sequence: `\Z`"),
        ("(?=x)", "invalid or unsupported Perl syntax: `(?=`"),
        ("(?!x)", "invalid or unsupported Perl syntax: `(?!`"),
        ("(?<=x)y", "invalid named capture: `(?<=x)y`"),
        ("(?P<a-b>x)", "invalid named capture: `(?P<a-b>`"),
        ("a{1001}", "invalid repeat count: `{1001}`"),
        ("a\\", "trailing backslash at end of expression: ``"),
        # regexp/syntax parse.go parsePerlFlags / isValidCaptureName, where RE2 differs
        ("(?<!x)y", "invalid named capture: `(?<!x)y`"),
        ("(?<=x)>y", "invalid named capture: `(?<=x)>`"),
        ("(?P<é>x)", "invalid named capture: `(?P<é>`"),
        ("(?<名>x)", "invalid named capture: `(?<名>`"),
        ("a**(?P<é>x)", "invalid nested repetition operator: `**`"),
        ("(?P<", "invalid or unsupported Perl syntax: `(?P`"),
        (r"\pX", r"invalid character class range: `\pX`"),
        ("(a{1000}){2}", "invalid repeat count: `{2}`"),
        (r"x\C", r"invalid escape sequence: `\C`"),
    ],
)
def test_go_regexp_errors(pattern: str, error: str) -> None:
    from crdtool.core.schema.structural import go_regexp_error

    assert compile_go_regexp(pattern) == f"error parsing regexp: {error}"
    assert go_regexp_error(pattern) == f"error parsing regexp: {error}"  # one verdict for CRDs and objects


@pytest.mark.parametrize("pattern", ["[(?P<é>x)]", r"\Q(?<=x)\E", "(?P<ok_1>x)", r"[[:alpha:](?<x]"])
def test_named_capture_syntax_inside_classes_and_literals_is_not_a_group(pattern: str) -> None:
    from crdtool.core.schema.structural import go_regexp_error

    assert go_regexp_error(pattern) is None


@pytest.mark.parametrize(
    ("pattern", "matching", "not_matching"),
    [
        ("^abc$", ["abc"], ["abc\n", "xabc"]),  # Go $ is end of text
        ("(?m)^b$", ["a\nb\nc"], ["abc"]),
        (r"^\d+$", ["123"], ["١٢٣"]),  # \d is ASCII only
        (r"^\w+$", ["a_1"], ["é"]),
        (r"^\s$", [" ", "\t"], ["\v", "\u00a0"]),
        (r"\bfoo\b", ["a foo b"], ["afoob", "foo_"]),
        ("(?i)^straße$", ["STRAßE"], ["strasse"]),
        (r"^\pL+$", ["héllo", "Ωmega"], ["a1"]),
        (r"^\p{Lu}", ["Ab"], ["ab"]),
        (r"^[[:alpha:]]+$", ["abc"], ["ab1", "é"]),
        (r"^[^[:digit:]]+$", ["abc"], ["a1"]),
        ("^a{,2}$", ["a{,2}"], ["aa"]),  # not a repeat in Go: literal braces
        (r"^\Q.*\E$", [".*"], ["ab"]),
        (r"^\x{41}\101$", ["AA"], ["A"]),
        ("^(?U)a+", ["a"], [""]),
        ("a.c", ["abc"], ["a\nc"]),
        ("(?s)a.c", ["a\nc"], ["ac"]),
        ("^*a", ["a"], ["b"]),  # repeating an empty-width assertion is allowed in Go
        (r"^(?P<x>a)(?<y>b)$", ["ab"], ["a"]),
    ],
)
def test_go_regexp_semantics(pattern: str, matching: list[str], not_matching: list[str]) -> None:
    rx = compile_go_regexp(pattern)
    assert not isinstance(rx, str), rx
    for s in matching:
        assert rx.search(s), (pattern, s)
    for s in not_matching:
        assert not rx.search(s), (pattern, s)


def test_regexp_cache_and_unicode_scripts() -> None:
    assert compile_go_regexp("^a+$") is compile_go_regexp("^a+$")
    # Go (RE2) knows Unicode scripts; so does the RE2 matcher.
    rx = compile_go_regexp(r"^\p{Greek}+$")
    assert not isinstance(rx, str)
    assert rx.search("αβγ") and not rx.search("anything")


def test_hostile_pattern_runs_in_linear_time() -> None:
    """Go's regexp (RE2) never backtracks; a backtracking engine would take ages here."""
    import time

    rx = compile_go_regexp(r"^(a+)+$")
    assert not isinstance(rx, str)
    start = time.monotonic()
    assert not rx.search("a" * 5000 + "!")
    assert time.monotonic() - start < 1.0


# --- Go JSON ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (None, "null"),
        (True, "true"),
        (1, "1"),
        (1.0, "1"),
        (0.5, "0.5"),
        (1e20, "100000000000000000000"),
        (1e21, "1e+21"),
        (1e-7, "1e-7"),
        ("a<b>&\u2028\n", '"a\\u003cb\\u003e\\u0026\\u2028\\n"'),
        ({"b": 1, "a": [1, "x"]}, '{"a":[1,"x"],"b":1}'),
        (2**64, "18446744073709552000"),
    ],
)
def test_go_json_marshal(value: Any, expected: str) -> None:
    assert go_json_marshal(value) == expected


# --- list sets and maps -------------------------------------------------------------------------

SET_SCHEMA = field(s={"type": "array", "x-kubernetes-list-type": "set", "items": {}})
MAP1_SCHEMA = field(
    m={"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["k"], "items": {"type": "object"}}
)
MAP2_SCHEMA = field(
    m={"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["k", "v"], "items": {"type": "object"}}
)


@pytest.mark.parametrize(
    ("schema", "value", "expected"),
    [
        (SET_SCHEMA, {"s": [1, 2, 3]}, []),
        (SET_SCHEMA, {"s": [1, 1, 1, 2, 2]}, [("s[1]", 1), ("s[4]", 2)]),
        (SET_SCHEMA, {"s": [1, 1.0, "1", True]}, []),  # different Go types
        (SET_SCHEMA, {"s": [{"a": 1, "b": 2}, {"b": 2, "a": 1}]}, [("s[1]", {"b": 2, "a": 1})]),
        (SET_SCHEMA, {"s": [[1], [1.0]]}, [("s[1]", [1.0])]),  # compounds compare as JSON
        (SET_SCHEMA, {"s": [None, None]}, [("s[1]", None)]),
        (MAP1_SCHEMA, {"m": [{"k": "a"}, {"k": "b"}]}, []),
        (MAP1_SCHEMA, {"m": [{"k": "a", "x": 1}, {"k": "a", "x": 2}]}, [("m[1]", {"k": "a"})]),
        (MAP1_SCHEMA, {"m": [{}, None, {"k": None}]}, [("m[1]", {})]),
        (MAP2_SCHEMA, {"m": [{"k": "a", "v": 1}, {"k": "a", "v": 2}, {"v": 1, "k": "a"}]}, [("m[2]", {"k": "a", "v": 1})]),
    ],
)
def test_list_sets_and_maps_duplicates(schema: Any, value: Any, expected: list[tuple[str, Any]]) -> None:
    errs = validate_list_sets_and_maps(ROOT, schema, value)
    assert [e.type for e in errs] == ["FieldValueDuplicate"] * len(expected)
    assert [(e.field, e.bad_value) for e in errs] == expected


def test_list_map_items_must_be_objects() -> None:
    errs = validate_list_sets_and_maps(Path("spec"), MAP1_SCHEMA, {"m": [{"k": "a"}, 3, "x"]})
    assert [(e.type, e.field, e.detail, e.bad_value) for e in errs] == [
        ("FieldValueInvalid", "spec.m[1]", "must be an object for an array of list-type map", 3)
    ]


def test_list_sets_nested_paths() -> None:
    schema = {
        "type": "object",
        "properties": {
            "outer": {
                "type": "array",
                "items": {
                    "type": "object",
                    "additionalProperties": {"type": "array", "x-kubernetes-list-type": "set", "items": {}},
                },
            }
        },
    }
    errs = validate_list_sets_and_maps(ROOT, schema, {"outer": [{"k": ["a"]}, {"k": ["a", "a"]}]})
    assert [e.field for e in errs] == ["outer[1][k][1]"]
    assert validate_list_sets_and_maps(ROOT, schema, ["not", "an", "object"]) == []


# --- properties ---------------------------------------------------------------------------------

KEYS = st.sampled_from(["a", "b", "c"])
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.floats(-3, 3, allow_nan=False), st.text(max_size=3))
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(KEYS, inner, max_size=3)),
    max_leaves=15,
)


def _schema_children(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.fixed_dictionaries(
        {},
        optional={
            "type": st.sampled_from(["object", "array", "string", "integer", "number", "boolean"]),
            "properties": st.dictionaries(KEYS, inner, max_size=3),
            "items": inner,
            "additionalProperties": st.one_of(st.booleans(), inner),
            "anyOf": st.lists(inner, min_size=1, max_size=2),
            "allOf": st.lists(inner, min_size=1, max_size=2),
            "oneOf": st.lists(inner, min_size=1, max_size=2),
            "not": inner,
            "required": st.lists(KEYS, max_size=2),
            "x-kubernetes-list-type": st.sampled_from(["set", "map", "atomic"]),
            "x-kubernetes-list-map-keys": st.lists(KEYS, min_size=1, max_size=2),
        },
    )


LEAF_SCHEMAS = st.fixed_dictionaries(
    {},
    optional={
        "type": st.sampled_from(["string", "integer", "number", "boolean"]),
        "nullable": st.booleans(),
        "enum": st.lists(SCALARS, min_size=1, max_size=3),
        "pattern": st.sampled_from(["^a", "b$", "+", "[", r"\d"]),
        "format": st.sampled_from(["date", "uuid", "int32", "nope", "byte"]),
        "maxLength": st.integers(0, 3),
        "minimum": st.integers(-2, 2),
        "multipleOf": st.sampled_from([0.5, 2, 3]),
        "maxItems": st.integers(0, 2),
        "minProperties": st.integers(0, 2),
    },
)
SCHEMAS = st.recursive(LEAF_SCHEMAS, _schema_children, max_leaves=8)


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(value=VALUES, schema=SCHEMAS)
def test_validation_never_raises_and_is_pure(value: Any, schema: Any) -> None:
    value_before = copy.deepcopy(value)
    schema_before = copy.deepcopy(schema)
    errs = validate_value(value, schema, Path("x"))
    for e in errs:
        assert e.field == "x" or e.field.startswith(("x.", "x["))
        str(e)
    validate_list_sets_and_maps(Path("x"), schema, value)
    assert value == value_before
    assert schema == schema_before
