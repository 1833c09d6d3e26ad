"""field.Error rendering, from apimachinery pkg/util/validation/field/errors.go."""

from __future__ import annotations

from typing import Any

import pytest

from crdtool.core.errors import (
    OMIT,
    FieldError,
    Path,
    duplicate,
    forbidden,
    go_float,
    go_quote,
    go_typed,
    internal_error,
    invalid,
    not_supported,
    required,
    too_long,
    too_many,
    type_invalid,
    unknown_field,
)


def test_path_rendering_like_field_path() -> None:
    p = Path("spec").child("versions").index(0).child("schema", "openAPIV3Schema").child("properties").key("spec")
    assert p == "spec.versions[0].schema.openAPIV3Schema.properties[spec]"
    assert Path("metadata").child("annotations").key("api-approved.kubernetes.io") == (
        "metadata.annotations[api-approved.kubernetes.io]"
    )
    assert Path() .child("a") == "a"


@pytest.mark.parametrize(
    ("error", "text"),
    [
        (required(Path("spec", "names", "plural")), "spec.names.plural: Required value"),
        (required(Path("spec", "x"), "schemas are required"), "spec.x: Required value: schemas are required"),
        (invalid(Path("spec", "scope"), "Foo", "bad"), 'spec.scope: Invalid value: "Foo": bad'),
        (invalid(Path("spec", "preserveUnknownFields"), True, "cannot set to true"), "spec.preserveUnknownFields: Invalid value: true: cannot set to true"),
        (invalid(Path("a"), 3, ""), "a: Invalid value: 3"),
        (invalid(Path("a"), 1.5, "x"), "a: Invalid value: 1.5: x"),
        # apimachinery v0.36 field/errors_test.go "invalid untyped nil": json.Marshal(nil) is null.
        (invalid(Path("a"), None, "x"), "a: Invalid value: null: x"),
        # "invalid map": json.Marshal sorts a map's keys; "invalid list"; HTML characters escaped as Go does.
        (invalid(Path("path.to.field"), {"one": 1, "two": 2, "three": 3}, "the details"),
         'path.to.field: Invalid value: {"one":1,"three":3,"two":2}: the details'),
        (invalid(Path("path.to.field"), ["one", "two", "three"], "the details"),
         'path.to.field: Invalid value: ["one","two","three"]: the details'),
        (invalid(Path("a"), {"rule": "a < b && c > d"}, "x"), 'a: Invalid value: {"rule":"a \\u003c b \\u0026\\u0026 c \\u003e d"}: x'),
        (type_invalid(Path("a"), "s", "must be integer"), 'a: Invalid value: "s": must be integer'),
        (
            not_supported(Path("spec", "scope"), "Global", ["Cluster", "Namespaced"]),
            'spec.scope: Unsupported value: "Global": supported values: "Cluster", "Namespaced"',
        ),
        (forbidden(Path("spec", "validation"), "top-level and per-version schemas are mutually exclusive"),
         "spec.validation: Forbidden: top-level and per-version schemas are mutually exclusive"),
        (duplicate(Path("a").index(1), "x"), 'a[1]: Duplicate value: "x"'),
        (too_long(Path("a"), "xxxx", 3), "a: Too long: may not be more than 3 bytes"),
        (too_long(Path("a"), "xx", 1), "a: Too long: may not be more than 1 byte"),
        (too_many(Path("a"), 10, 8), "a: Too many: 10: must have at most 8 items"),
        (too_many(Path("a"), -1, 1), "a: Too many: must have at most 1 item"),
        (internal_error(Path("a"), "boom"), "a: Internal error: boom"),
    ],
)
def test_error_text_like_upstream(error: FieldError, text: str) -> None:
    assert str(error) == text


def test_json_shape() -> None:
    d = not_supported(Path("spec", "scope"), "Global", ["Cluster"]).to_dict()
    assert d == {
        "type": "FieldValueNotSupported",
        "field": "spec.scope",
        "detail": 'supported values: "Cluster"',
        "badValue": "Global",
        "message": 'spec.scope: Unsupported value: "Global": supported values: "Cluster"',
    }
    assert too_many(Path("a"), -1, 2).to_dict()["badValue"] is None
    assert too_many(Path("a"), -1, 2).bad_value is OMIT


def test_unknown_field_reads_like_strict_decoding() -> None:
    e = unknown_field("spec.bogusField")
    assert str(e) == 'unknown field "spec.bogusField"'
    assert e.type == "UnknownField" and e.field == "spec.bogusField"


@pytest.mark.parametrize(
    ("value", "text"),
    [(3.0, "3"), (1.5, "1.5"), (1e21, "1e+21"), (123456789.0, "1.23456789e+08"), (100000.0, "100000"), (1e-5, "1e-05"), (-2.5e-7, "-2.5e-07")],
)
def test_go_float_formatting(value: float, text: str) -> None:
    assert go_float(value) == text


def test_go_quote() -> None:
    assert go_quote('a"b\\c\n\x01é') == '"a\\"b\\\\c\\n\\x01é"'


# --- field.Error per Kubernetes release -------------------------------------------------------------


@pytest.mark.parametrize(
    ("error", "minor", "text", "bad_value"),
    [
        # field/errors.go@v0.31.14 TooLongMaxLength / TooLong keep the bad value; @v0.32.0 both are
        # "may not be more than N bytes" with "<value omitted>"; @v0.34.0 adds the singular
        # (errors_test.go@v0.34.0 "too long func(1)")
        (too_long(Path("fieldX"), "abc", 2, max_length_error=True), 31, "fieldX: Too long: may not be longer than 2", "abc"),
        (too_long(Path("fieldX"), "abc", 2, max_length_error=True), 32, "fieldX: Too long: may not be more than 2 bytes",
         "<value omitted>"),
        (too_long(Path("fieldX"), "ab", 1, max_length_error=True), 33, "fieldX: Too long: may not be more than 1 bytes",
         "<value omitted>"),
        (too_long(Path("fieldX"), "ab", 1, max_length_error=True), 34, "fieldX: Too long: may not be more than 1 byte",
         "<value omitted>"),
        (too_long(Path("a"), "", 262144), 31, "a: Too long: must have at most 262144 bytes", ""),
        (too_long(Path("a"), "m" * 129, 128), 30, "a: Too long: must have at most 128 bytes", "m" * 129),
        (too_long(Path("a"), "", -1, max_length_error=True), 30, "a: Too long: value is too long", ""),
        # TooMany: "1 items" before v0.34.0 (errors_test.go@v0.34.0 "too many func(2, 1)": "1 item")
        (too_many(Path("path.to.field"), 2, 1), 33, "path.to.field: Too many: 2: must have at most 1 items", 2),
        (too_many(Path("path.to.field"), 2, 1), 34, "path.to.field: Too many: 2: must have at most 1 item", 2),
        (too_many(Path("a"), -1, 1), 30, "a: Too many: must have at most 1 items", None),
    ],
)
def test_sized_errors_per_release(error: FieldError, minor: int, text: str, bad_value: Any) -> None:
    at = error.at_release(minor)
    assert str(at) == text
    assert at.to_dict()["message"] == text
    assert at.to_dict()["badValue"] == bad_value
    assert str(at.at_release(37)) == str(error)  # and back


@pytest.mark.parametrize(
    ("value", "go_text", "json_text"),
    [
        # ErrorBody@v0.33.13: nil is "null", numbers %v, strings %q, other values %#v; @v0.34.0: json.Marshal
        (None, '"null"', "null"),
        (True, "true", "true"),
        (1.5, "1.5", "1.5"),
        ("x", '"x"', '"x"'),
        ({"k": "a"}, 'map[string]interface {}{"k":"a"}', '{"k":"a"}'),
        (["a", 1], '[]interface {}{"a", 1}', '["a",1]'),
        # Go 1.19 fmt %#v of the decoded map (checked with Go): keys sorted, nested nil as interface {}(nil)
        (
            {"b": True, "big": 1e21, "f": 1.5, "g": 2.0, "k": "a", "l": ["x", 2], "m": {}, "n": 1, "z": None},
            'map[string]interface {}{"b":true, "big":1e+21, "f":1.5, "g":2, "k":"a", "l":[]interface {}{"x", 2}, '
            '"m":map[string]interface {}{}, "n":1, "z":interface {}(nil)}',
            '{"b":true,"big":1e+21,"f":1.5,"g":2,"k":"a","l":["x",2],"m":{},"n":1,"z":null}',
        ),
        (go_typed(["orphan"], '[]string{"orphan"}'), '[]string{"orphan"}', '["orphan"]'),
        (go_typed("2024-01-01T00:00:00Z", "2024-01-01 00:00:00 +0000 UTC"), "2024-01-01 00:00:00 +0000 UTC",
         '"2024-01-01T00:00:00Z"'),
    ],
)
def test_bad_value_rendering_per_release(value: Any, go_text: str, json_text: str) -> None:
    e = invalid(Path("f"), value, "d")
    assert str(e.at_release(33)) == f"f: Invalid value: {go_text}: d"
    assert str(e.at_release(30)) == f"f: Invalid value: {go_text}: d"
    assert str(e.at_release(34)) == str(e) == f"f: Invalid value: {json_text}: d"
    assert e.at_release(33) == e  # the same error: equality ignores the rendering release
