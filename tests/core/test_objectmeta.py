"""Tests for crdtool.core.objectmeta (ValidateObjectMeta on create).

Cases derived from upstream behaviour: apimachinery
``pkg/api/validation/objectmeta.go`` (+ ``objectmeta_test.go``) and
``pkg/apis/meta/v1/validation/validation.go`` (+ its tests): name /
generateName through the name function, namespace rules, generation,
labels, annotations (key case and the 256 KiB total), owner references,
finalizers and managed fields.
"""

from __future__ import annotations

from typing import Any

import pytest

from crdtool.core.errors import Path
from crdtool.core.objectmeta import (
    TOTAL_ANNOTATION_SIZE_LIMIT_B,
    validate_annotations_size,
    validate_object_meta,
)
from crdtool.core.validation_util import name_is_dns_subdomain

REQ, INV, FORB, TOO_LONG = "FieldValueRequired", "FieldValueInvalid", "FieldValueForbidden", "FieldValueTooLong"
DNS1123_LABEL_MSG = (
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', "
    "and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', "
    "regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"
)
LABEL_KEY_NAME_MSG = (
    "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with "
    "an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', "
    "regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"
)
OWNER = {"apiVersion": "apps/v1", "kind": "Deployment", "name": "d", "uid": "1234"}


def check(meta: dict[str, Any], requires_namespace: bool = False) -> list[tuple[str, str, str]]:
    errs = validate_object_meta(meta, requires_namespace, name_is_dns_subdomain, Path("metadata"))
    return [(e.type, e.field, e.detail) for e in errs]


def fields(meta: dict[str, Any], requires_namespace: bool = False) -> list[tuple[str, str]]:
    return [(t, f) for t, f, _ in check(meta, requires_namespace)]


def test_valid_meta_has_no_errors() -> None:
    meta = {
        "name": "widgets.example.com",
        "labels": {"app.kubernetes.io/name": "widget", "empty": ""},
        "annotations": {"Example.COM/Note": "anything at all"},
        "ownerReferences": [dict(OWNER, controller=True)],
        "finalizers": ["example.com/cleanup"],
        "managedFields": [{"manager": "kubectl", "operation": "Apply", "fieldsType": "FieldsV1"}],
        "generation": 3,
    }
    assert check(meta) == []


@pytest.mark.parametrize(
    "meta, expected",
    [
        ({}, [(REQ, "metadata.name", "name or generateName is required")]),
        ({"name": ""}, [(REQ, "metadata.name", "name or generateName is required")]),
        ({"name": "Bad_Name"}, [(INV, "metadata.name", name_is_dns_subdomain("Bad_Name", False)[0])]),
        # generateName is checked as a prefix (a trailing dash is fine) and does not replace the name
        (
            {"generateName": "widget-"},
            [(REQ, "metadata.name", "name or generateName is required")],
        ),
        (
            {"generateName": "Widget-", "name": "ok"},
            [(INV, "metadata.generateName", name_is_dns_subdomain("Widget-", True)[0])],
        ),
    ],
)
def test_name_and_generate_name(meta: dict[str, Any], expected: list[tuple[str, str, str]]) -> None:
    assert check(meta) == expected


def test_name_function_gets_prefix_flag() -> None:
    calls: list[tuple[str, bool]] = []

    def name_fn(name: str, prefix: bool) -> list[str]:
        calls.append((name, prefix))
        return ["nope"] if prefix else []

    errs = validate_object_meta({"generateName": "g-", "name": "n"}, False, name_fn, Path("metadata"))
    assert calls == [("g-", True), ("n", False)]
    assert [(e.type, e.field, e.detail, e.bad_value) for e in errs] == [
        (INV, "metadata.generateName", "nope", "g-")
    ]


@pytest.mark.parametrize(
    "meta, requires_namespace, expected",
    [
        ({"name": "a"}, True, [(REQ, "metadata.namespace", "")]),
        ({"name": "a", "namespace": "default"}, True, []),
        ({"name": "a", "namespace": "a.b"}, True, [(INV, "metadata.namespace", "must not contain dots")]),
        ({"name": "a", "namespace": "Default"}, True, [(INV, "metadata.namespace", DNS1123_LABEL_MSG)]),
        ({"name": "a", "namespace": "default"}, False, [(FORB, "metadata.namespace", "not allowed on this type")]),
        ({"name": "a"}, False, []),
    ],
)
def test_namespace(meta: dict[str, Any], requires_namespace: bool, expected: list[tuple[str, str, str]]) -> None:
    assert check(meta, requires_namespace) == expected


def test_negative_generation() -> None:
    errs = validate_object_meta({"name": "a", "generation": -1}, False, name_is_dns_subdomain, Path("metadata"))
    assert [(e.type, e.field, e.detail, e.bad_value) for e in errs] == [
        (INV, "metadata.generation", "must be greater than or equal to 0", -1)
    ]


LABEL_VALUE_MSG = (
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', "
    "and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', "
    "regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"
)


@pytest.mark.parametrize(
    "labels, expected",
    [
        ({"a b": "x"}, [(INV, "metadata.labels", "a b", LABEL_KEY_NAME_MSG)]),
        ({"ok": "-bad"}, [(INV, "metadata.labels", "-bad", LABEL_VALUE_MSG)]),
        ({"ok": "v" * 64}, [(INV, "metadata.labels", "v" * 64, "must be no more than 63 bytes")]),
        ({"/x": "y"}, [(INV, "metadata.labels", "/x", "prefix part must be non-empty")]),
        # key and value both bad: key errors first, then value errors
        (
            {"k!": "v!"},
            [(INV, "metadata.labels", "k!", LABEL_KEY_NAME_MSG), (INV, "metadata.labels", "v!", LABEL_VALUE_MSG)],
        ),
    ],
)
def test_labels(labels: dict[str, str], expected: list[tuple[str, str, str, str]]) -> None:
    errs = validate_object_meta({"name": "a", "labels": labels}, False, name_is_dns_subdomain, Path("metadata"))
    assert [(e.type, e.field, e.bad_value, e.detail) for e in errs] == expected


@pytest.mark.parametrize(
    "annotations, expected",
    [
        ({"Example.COM/MixedCase": "v"}, []),  # keys are checked lower-cased
        ({"bad key": "v"}, [(INV, "metadata.annotations")]),
        ({"a/b/c": "v"}, [(INV, "metadata.annotations")]),
        ({"k": "v" * (TOTAL_ANNOTATION_SIZE_LIMIT_B - 1)}, []),  # exactly 256 KiB in total
        ({"k": "v" * TOTAL_ANNOTATION_SIZE_LIMIT_B}, [(TOO_LONG, "metadata.annotations")]),
        # the limit counts UTF-8 bytes: 131073 two-byte characters exceed 262144 bytes
        ({"k": "é" * (TOTAL_ANNOTATION_SIZE_LIMIT_B // 2)}, [(TOO_LONG, "metadata.annotations")]),
    ],
)
def test_annotations(annotations: dict[str, str], expected: list[tuple[str, str]]) -> None:
    assert fields({"name": "a", "annotations": annotations}) == expected


def test_annotation_size_message() -> None:
    errs = validate_object_meta(
        {"name": "a", "annotations": {"k": "v" * TOTAL_ANNOTATION_SIZE_LIMIT_B}},
        False,
        name_is_dns_subdomain,
        Path("metadata"),
    )
    assert errs[0].detail == "may not be more than 262144 bytes"
    assert str(errs[0]) == "metadata.annotations: Too long: may not be more than 262144 bytes"
    assert validate_annotations_size({"k": "vv"}) is None
    assert validate_annotations_size({"k": "v" * TOTAL_ANNOTATION_SIZE_LIMIT_B}) == (
        "annotations size 262145 is larger than limit 262144"
    )


@pytest.mark.parametrize(
    "refs, expected",
    [
        ([OWNER], []),
        (
            [{}],
            [
                (INV, "metadata.ownerReferences.apiVersion", "version must not be empty"),
                (INV, "metadata.ownerReferences.kind", "must not be empty"),
                (INV, "metadata.ownerReferences.name", "must not be empty"),
                (INV, "metadata.ownerReferences.uid", "must not be empty"),
            ],
        ),
        ([dict(OWNER, apiVersion="apps/")], [(INV, "metadata.ownerReferences.apiVersion", "version must not be empty")]),
        # an unparsable apiVersion (two slashes) leaves an empty version
        ([dict(OWNER, apiVersion="a/b/c")], [(INV, "metadata.ownerReferences.apiVersion", "version must not be empty")]),
        (
            [dict(OWNER, apiVersion="v1", kind="Event")],
            [(INV, "metadata.ownerReferences", "/v1, Kind=Event is disallowed from being an owner")],
        ),
        (
            [dict(OWNER, controller=True), dict(OWNER, kind="StatefulSet", name="s", controller=True)],
            [
                (
                    INV,
                    "metadata.ownerReferences",
                    'Only one reference can have Controller set to true. Found "true" in references for '
                    "Deployment/d and StatefulSet/s",
                )
            ],
        ),
        ([dict(OWNER, controller=False), dict(OWNER, controller=True)], []),
    ],
)
def test_owner_references(refs: list[dict[str, Any]], expected: list[tuple[str, str, str]]) -> None:
    assert check({"name": "a", "ownerReferences": refs}) == expected


@pytest.mark.parametrize(
    "finalizers, expected",
    [
        (["kubernetes.io/pvc-protection", "orphan"], []),
        (["bad finalizer"], [(INV, "metadata.finalizers")]),
        (["a/b/c"], [(INV, "metadata.finalizers")]),
        (["orphan", "foregroundDeletion"], [(INV, "metadata.finalizers")]),
    ],
)
def test_finalizers(finalizers: list[str], expected: list[tuple[str, str]]) -> None:
    assert fields({"name": "a", "finalizers": finalizers}) == expected


def test_orphan_and_foreground_message() -> None:
    errs = validate_object_meta(
        {"name": "a", "finalizers": ["orphan", "foregroundDeletion"]}, False, name_is_dns_subdomain, Path("metadata")
    )
    assert errs[0].detail == "finalizer orphan and foregroundDeletion cannot be both set"
    assert errs[0].bad_value == ["orphan", "foregroundDeletion"]


@pytest.mark.parametrize(
    "entry, expected",
    [
        ({"manager": "m", "operation": "Update"}, []),
        ({"manager": "m", "operation": "Patch"}, [(INV, "metadata.managedFields[0].operation", "must be `Apply` or `Update`")]),
        (
            {"manager": "m", "operation": "Apply", "fieldsType": "FieldsV2"},
            [(INV, "metadata.managedFields[0].fieldsType", "must be `FieldsV1`")],
        ),
        (
            {"manager": "m" * 129, "operation": "Apply"},
            [(TOO_LONG, "metadata.managedFields[0].manager", "may not be more than 128 bytes")],
        ),
        (
            {"manager": "ab\x07", "operation": "Apply"},
            [(INV, "metadata.managedFields[0].manager", "invalid character U+0007 (at position 2)")],
        ),
        (
            {"manager": "m", "operation": "Apply", "subresource": "s" * 257},
            [(TOO_LONG, "metadata.managedFields[0].subresource", "may not be more than 256 bytes")],
        ),
    ],
)
def test_managed_fields(entry: dict[str, Any], expected: list[tuple[str, str, str]]) -> None:
    assert check({"name": "a", "managedFields": [entry]}) == expected


def test_error_order_follows_upstream() -> None:
    meta = {
        "generateName": "Bad-",
        "namespace": "ns",
        "generation": -1,
        "labels": {"bad key": "v"},
        "annotations": {"bad key": "v"},
        "ownerReferences": [{}],
        "finalizers": ["bad finalizer"],
        "managedFields": [{"operation": "Patch"}],
    }
    assert fields(meta) == [
        (INV, "metadata.generateName"),
        (REQ, "metadata.name"),
        (FORB, "metadata.namespace"),
        (INV, "metadata.generation"),
        (INV, "metadata.labels"),
        (INV, "metadata.annotations"),
        (INV, "metadata.ownerReferences.apiVersion"),
        (INV, "metadata.ownerReferences.kind"),
        (INV, "metadata.ownerReferences.name"),
        (INV, "metadata.ownerReferences.uid"),
        (INV, "metadata.finalizers"),
        (INV, "metadata.managedFields[0].operation"),
    ]


def test_input_is_not_mutated() -> None:
    meta = {"name": "a", "labels": {"k": "v"}, "finalizers": ["x"]}
    snapshot = {"name": "a", "labels": {"k": "v"}, "finalizers": ["x"]}
    check(meta)
    assert meta == snapshot
