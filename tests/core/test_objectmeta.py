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

from crdtool.core.errors import Path, internal_error, invalid, unique_messages
from crdtool.core.objectmeta import (
    IS_NEGATIVE_ERROR_MSG,
    OBJECT_META_CHANGES,
    validate_object_meta_declaratively,
    TOTAL_ANNOTATION_SIZE_LIMIT_B,
    validate_annotations_size,
    validate_object_meta,
    validate_object_meta_update,
)
from crdtool.core.releases import Release, resolve_release
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


def check(meta: dict[str, Any], requires_namespace: bool = False, release: Release | None = None) -> list[tuple[str, str, str]]:
    errs = validate_object_meta(meta, requires_namespace, name_is_dns_subdomain, Path("metadata"), release)
    return [(e.type, e.field, e.detail) for e in errs]


def fields(meta: dict[str, Any], requires_namespace: bool = False, release: Release | None = None) -> list[tuple[str, str]]:
    return [(t, f) for t, f, _ in check(meta, requires_namespace, release)]


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
    # Kubernetes 1.34 - 1.36 (objectmeta.go@v0.34.0 .. v0.36.3); 1.37 and 1.30 - 1.33 below
    assert check({"name": "a", "ownerReferences": refs}, release=resolve_release("1.36")) == expected


REQ_EMPTY = "must not be empty"
GV_MSG = "must be <group>/<version> or <version>"


@pytest.mark.parametrize(
    "refs, expected",
    [
        ([OWNER], []),
        # objectmeta.go@v0.37.0-beta.0: indexed paths, Required for the empty fields
        (
            [OWNER, {}],
            [
                (REQ, "metadata.ownerReferences[1].apiVersion", REQ_EMPTY),
                (REQ, "metadata.ownerReferences[1].kind", REQ_EMPTY),
                (REQ, "metadata.ownerReferences[1].name", REQ_EMPTY),
                (REQ, "metadata.ownerReferences[1].uid", REQ_EMPTY),
            ],
        ),
        # objectmeta_test.go@v0.37.0-beta.0 TestValidateObjectMetaOwnerReferences: "invalid apiVersion with too
        # many slashes", "invalid apiVersion with empty version"; "/" parses to an empty GroupVersion
        ([dict(OWNER, apiVersion="a/b/c")], [(INV, "metadata.ownerReferences[0].apiVersion", GV_MSG)]),
        ([dict(OWNER, apiVersion="foo/")], [(INV, "metadata.ownerReferences[0].apiVersion", GV_MSG)]),
        ([dict(OWNER, apiVersion="/")], [(INV, "metadata.ownerReferences[0].apiVersion", GV_MSG)]),
        # "apiVersion with no slashes (legacy core group)"
        ([dict(OWNER, apiVersion="v1", kind="Pod")], []),
        # "event shouldn't be set as an owner": at the reference's index
        (
            [dict(OWNER, apiVersion="v1", kind="Event")],
            [(INV, "metadata.ownerReferences[0]", "/v1, Kind=Event is disallowed from being an owner")],
        ),
        # "two references with Controller set": still at ownerReferences
        (
            [dict(OWNER, kind="K1", controller=False), dict(OWNER, kind="K2", controller=True),
             dict(OWNER, kind="K3", controller=True), dict(OWNER, kind="K4")],
            [(INV, "metadata.ownerReferences",
              'Only one reference can have Controller set to true. Found "true" in references for K2/d and K3/d')],
        ),
    ],
)
def test_owner_references_1_37(refs: list[dict[str, Any]], expected: list[tuple[str, str, str]]) -> None:
    assert check({"name": "a", "ownerReferences": refs}, release=resolve_release("1.37")) == expected
    assert check({"name": "a", "ownerReferences": refs}) == expected  # the default release


def test_owner_references_before_1_34() -> None:
    # objectmeta.go@v0.33.13 validateOwnerReference: the field named in the detail
    expected = [
        (INV, "metadata.ownerReferences.apiVersion", "version must not be empty"),
        (INV, "metadata.ownerReferences.kind", "kind must not be empty"),
        (INV, "metadata.ownerReferences.name", "name must not be empty"),
        (INV, "metadata.ownerReferences.uid", "uid must not be empty"),
    ]
    for version in ("1.30", "1.33"):
        assert check({"name": "a", "ownerReferences": [{}]}, release=resolve_release(version)) == expected


def test_owner_reference_bad_value_per_release() -> None:
    # a banned owner's bad value is the metav1.OwnerReference: JSON in field order from 1.34
    # (field/errors.go@v0.34.0), %#v before (@v0.33.13; objectmeta_test.go shows the same struct rendering)
    refs = [dict(OWNER, apiVersion="v1", kind="Event", name="n", uid="u")]
    for version, text in (
        ("1.37", 'metadata.ownerReferences[0]: Invalid value: {"apiVersion":"v1","kind":"Event","name":"n","uid":"u"}: '),
        ("1.34", 'metadata.ownerReferences: Invalid value: {"apiVersion":"v1","kind":"Event","name":"n","uid":"u"}: '),
        ("1.33", 'metadata.ownerReferences: Invalid value: v1.OwnerReference{APIVersion:"v1", Kind:"Event", Name:"n", '
                 'UID:"u", Controller:(*bool)(nil), BlockOwnerDeletion:(*bool)(nil)}: '),
    ):
        release = resolve_release(version)
        errs = validate_object_meta({"name": "a", "ownerReferences": refs}, False, name_is_dns_subdomain, Path("metadata"), release)
        assert [str(e.at_release(release)) for e in errs] == [text + "/v1, Kind=Event is disallowed from being an owner"]
    # json.Marshal of the struct keeps the field order: controller and blockOwnerDeletion after uid
    refs = [dict(refs[0], blockOwnerDeletion=True, controller=False)]
    errs = validate_object_meta({"name": "a", "ownerReferences": refs}, False, name_is_dns_subdomain, Path("metadata"))
    assert str(errs[0]).startswith(
        'metadata.ownerReferences[0]: Invalid value: {"apiVersion":"v1","kind":"Event","name":"n","uid":"u",'
        '"controller":false,"blockOwnerDeletion":true}: '
    )


def test_generation_on_update() -> None:
    # objectmeta.go@v0.37.0-beta.0 ValidateObjectMetaAccessorUpdate: ValidateNonnegativeField(generation)
    new = {"name": "a", "resourceVersion": "1", "generation": -1}
    old = {"name": "a", "generation": -1}
    negative = ("FieldValueInvalid", "metadata.generation", "must be greater than or equal to 0")
    for version, expected in (("1.36", []), ("1.37", [negative])):
        errs = validate_object_meta_update(new, old, Path("metadata"), resolve_release(version))
        assert [(e.type, e.field, e.detail) for e in errs] == expected


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
    # Kubernetes 1.32 - 1.36 (meta/v1/validation/validation.go@v0.32.0 .. v0.36.3); 1.37 below
    assert check({"name": "a", "managedFields": [entry]}, release=resolve_release("1.36")) == expected


@pytest.mark.parametrize(
    "operation, expected",
    [
        # validation.go@v0.37.0-beta.0 ValidateManagedFields
        ("", [(REQ, "metadata.managedFields[0].operation", "must not be empty")]),
        ("Patch", [("FieldValueNotSupported", "metadata.managedFields[0].operation", 'supported values: "Apply", "Update"')]),
        ("Apply", []),
    ],
)
def test_managed_fields_operation_1_37(operation: str, expected: list[tuple[str, str, str]]) -> None:
    assert check({"name": "a", "managedFields": [{"manager": "m", "operation": operation}]}) == expected


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
    # Kubernetes 1.36 (1.37 indexes the owner references and reports them Required)
    assert fields(meta, release=resolve_release("1.36")) == [
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


# apimachinery objectmeta_test.go TestValidateObjectMetaUpdatePreventsDeletionFieldMutation: the texts of
# @v0.34.10 (1.34 and later) and @v0.33.13 (1.30 - 1.33; the bad values rendered by %v / String())
NOW, LATER = "1970-01-01T00:16:40Z", "1970-01-01T00:33:20Z"
DELETION_FIELD_CASES = [
    # name, old, new, 1.34 text, 1.33 text
    ("invalid set deletionTimestamp", {}, {"deletionTimestamp": NOW},
     'field.deletionTimestamp: Invalid value: "1970-01-01T00:16:40Z": field is immutable',
     "field.deletionTimestamp: Invalid value: 1970-01-01 00:16:40 +0000 UTC: field is immutable"),
    ("invalid clear deletionTimestamp", {"deletionTimestamp": NOW}, {},
     "field.deletionTimestamp: Invalid value: null: field is immutable",
     'field.deletionTimestamp: Invalid value: "null": field is immutable'),
    ("invalid change deletionTimestamp", {"deletionTimestamp": NOW}, {"deletionTimestamp": LATER},
     'field.deletionTimestamp: Invalid value: "1970-01-01T00:33:20Z": field is immutable',
     "field.deletionTimestamp: Invalid value: 1970-01-01 00:33:20 +0000 UTC: field is immutable"),
    ("invalid set deletionGracePeriodSeconds", {}, {"deletionGracePeriodSeconds": 30},
     "field.deletionGracePeriodSeconds: Invalid value: 30: field is immutable",
     "field.deletionGracePeriodSeconds: Invalid value: 30: field is immutable"),
    ("invalid clear deletionGracePeriodSeconds", {"deletionGracePeriodSeconds": 30}, {},
     "field.deletionGracePeriodSeconds: Invalid value: null: field is immutable",
     'field.deletionGracePeriodSeconds: Invalid value: "null": field is immutable'),
    ("invalid change deletionGracePeriodSeconds", {"deletionGracePeriodSeconds": 30}, {"deletionGracePeriodSeconds": 40},
     "field.deletionGracePeriodSeconds: Invalid value: 40: field is immutable",
     "field.deletionGracePeriodSeconds: Invalid value: 40: field is immutable"),
]


@pytest.mark.parametrize(("name", "old", "new", "text_34", "text_33"), DELETION_FIELD_CASES, ids=[c[0] for c in DELETION_FIELD_CASES])
def test_deletion_field_mutation_per_release(name: str, old: dict[str, Any], new: dict[str, Any], text_34: str, text_33: str) -> None:
    base = {"name": "test", "resourceVersion": "1"}
    for version, text in (("1.37", text_34), ("1.34", text_34), ("1.33", text_33), ("1.30", text_33)):
        release = resolve_release(version)
        errs = validate_object_meta_update({**base, **new}, {**base, **old}, Path("field"), release)
        assert [str(e.at_release(release)) for e in errs] == [text]


@pytest.mark.parametrize(
    ("version", "text"),
    [
        # field/errors.go@v0.34.0: json.Marshal of the []string; @v0.33.13: %#v
        ("1.34", 'metadata.finalizers: Invalid value: ["orphan","foregroundDeletion"]: '),
        ("1.33", 'metadata.finalizers: Invalid value: []string{"orphan", "foregroundDeletion"}: '),
    ],
)
def test_orphan_and_foreground_text_per_release(version: str, text: str) -> None:
    release = resolve_release(version)
    errs = validate_object_meta(
        {"name": "a", "finalizers": ["orphan", "foregroundDeletion"]}, False, name_is_dns_subdomain, Path("metadata"), release
    )
    assert [str(e.at_release(release)) for e in errs] == [text + "finalizer orphan and foregroundDeletion cannot be both set"]


@pytest.mark.parametrize(
    ("version", "texts"),
    [
        # validate/content errors.go and kube.go@v0.35.0 (IsQualifiedName = content.IsLabelKey)
        ("1.35", ["metadata.labels: Invalid value: \"a/b/c\": a valid label key {re} with an optional DNS subdomain prefix "
                  "and '/' (e.g. 'example.com/MyName')",
                  'metadata.labels: Invalid value: "{v}": must be no more than 63 bytes']),
        # util/validation/validation.go@v0.34.10
        ("1.34", ["metadata.labels: Invalid value: \"a/b/c\": a qualified name {re} with an optional DNS subdomain prefix "
                  "and '/' (e.g. 'example.com/MyName')",
                  'metadata.labels: Invalid value: "{v}": must be no more than 63 characters']),
    ],
)
def test_label_texts_per_release(version: str, texts: list[str]) -> None:
    regex = (
        "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric "
        "character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
        "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"
    )
    value = "x" * 64
    errs = validate_object_meta({"name": "a", "labels": {"a/b/c": value}}, False, name_is_dns_subdomain, Path("metadata"),
                                resolve_release(version))
    assert [str(e) for e in errs] == [t.replace("{re}", regex).replace("{v}", value) for t in texts]


# --- 1.37: ValidateObjectMetaDeclaratively reports each message once ------------------------------------------


LABEL_VALUE_MSG = (
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start "
    "and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation "
    "is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"
)
# cert-manager's 2021 Helm chart (../shared/corpus-outside cert-manager-2021): two labels, one unrendered template
TEMPLATED_LABELS = {"app": '{{ template "cert-manager.name" . }}', "app.kubernetes.io/name": '{{ template "cert-manager.name" . }}',
                    "app.kubernetes.io/instance": "{{ .Release.Name }}"}


@pytest.mark.parametrize(
    ("errs", "count"),
    [
        # field/errors_test.go@v0.37.0-beta.0 TestToAggregate (the same at v0.30.0)
        ([], 0),
        ([invalid(Path("f"), "v", "d")], 1),
        ([invalid(Path("f"), "v", "d"), invalid(Path("f"), "v", "d")], 1),
        ([invalid(Path("f"), "v", "d"), internal_error(Path(""), "e")], 2),
        # errors_test.go TestErrListFilter: distinct fields are distinct messages
        ([invalid(Path("test.field"), "", ""), invalid(Path("field.test"), "", "")], 2),
        # the message is the whole Error(): another value or detail is another error
        ([invalid(Path("f"), "v", "d"), invalid(Path("f"), "w", "d"), invalid(Path("f"), "v", "e")], 3),
    ],
)
def test_unique_messages_is_to_aggregate(errs: list[Any], count: int) -> None:
    out = unique_messages(errs)
    assert len(out) == count
    assert out == [e for i, e in enumerate(errs) if str(e) not in {str(x) for x in errs[:i]}]  # first kept, in order


def test_declarative_unique_messages_is_1_37_data() -> None:
    # objectmeta.go@v0.37.0-beta.0 ValidateObjectMetaDeclaratively; v0.36.3 has no such function
    assert OBJECT_META_CHANGES["declarative-unique-messages"] == 37


@pytest.mark.parametrize(("version", "count"), [("1.30", 3), ("1.36", 3), ("1.37", 2)])
def test_repeated_label_error_once_from_1_37(version: str, count: int) -> None:
    # objectmeta.go@v0.37.0-beta.0 ValidateObjectMetaDeclaratively: FilterCoveredHandwrittenErrors ->
    # ErrorList.Filter -> ToAggregate (errors.go@v0.37.0-beta.0) keeps the first of each message; before 1.37
    # ValidateObjectMeta's list as is (ValidateLabels, validation.go: one error per bad value, at metadata.labels)
    release = resolve_release(version)
    meta = {"name": "a", "labels": TEMPLATED_LABELS}
    errs = validate_object_meta_declaratively(meta, None, False, name_is_dns_subdomain, Path("metadata"), release)
    assert len(errs) == count
    assert {(e.type, e.field, e.bad_value, e.detail) for e in errs} == {
        (INV, "metadata.labels", v, LABEL_VALUE_MSG) for v in TEMPLATED_LABELS.values()
    }
    # the plain ValidateObjectMeta is unchanged at every release
    assert len(validate_object_meta(meta, False, name_is_dns_subdomain, Path("metadata"), release)) == 3


@pytest.mark.parametrize(("version", "count"), [("1.36", 3), ("1.37", 2)])
def test_repeated_label_error_once_on_update_from_1_37(version: str, count: int) -> None:
    release = resolve_release(version)
    old = {"name": "a", "resourceVersion": "1"}
    new = {"name": "a", "resourceVersion": "2", "labels": TEMPLATED_LABELS}
    errs = validate_object_meta_declaratively(new, old, False, None, Path("metadata"), release)
    assert [e.field for e in errs] == ["metadata.labels"] * count


@pytest.mark.parametrize(
    ("meta", "expected"),
    [
        # objectmeta_test.go@v0.37.0-beta.0 TestValidateObjectMetaDeclaratively createCases (name valid-name,
        # namespace valid-ns, requiresNamespace): the handwritten errors, the alpha declarative ones not enforced
        ({}, []),
        ({"name": "invalid_name"}, [(INV, "metadata.name")]),
        ({"namespace": ""}, [(REQ, "metadata.namespace")]),
        ({"generation": -1}, [(INV, "metadata.generation")]),
        ({"managedFields": [{"fieldsType": "FieldsV1"}]}, [(REQ, "metadata.managedFields[0].operation")]),
        ({"ownerReferences": [dict(OWNER, apiVersion="")]}, [(REQ, "metadata.ownerReferences[0].apiVersion")]),
        ({"ownerReferences": [dict(OWNER, kind="")]}, [(REQ, "metadata.ownerReferences[0].kind")]),
        ({"ownerReferences": [dict(OWNER, name="")]}, [(REQ, "metadata.ownerReferences[0].name")]),
        ({"ownerReferences": [dict(OWNER, uid="")]}, [(REQ, "metadata.ownerReferences[0].uid")]),
        ({"ownerReferences": [{"apiVersion": "v1", "kind": "Event", "name": "name", "uid": "uid-1"}]},
         [(INV, "metadata.ownerReferences[0]")]),
        ({"annotations": {"-invalid": "val"}}, [(INV, "metadata.annotations")]),
        ({"annotations": {"a": "b" * TOTAL_ANNOTATION_SIZE_LIMIT_B}}, [(TOO_LONG, "metadata.annotations")]),
    ],
)
def test_declaratively_upstream_create_cases(meta: dict[str, Any], expected: list[tuple[str, str]]) -> None:
    full = {"name": "valid-name", "namespace": "valid-ns", **meta}
    errs = validate_object_meta_declaratively(full, None, True, name_is_dns_subdomain, Path("metadata"), resolve_release("1.37"))
    assert [(e.type, e.field) for e in errs] == expected


@pytest.mark.parametrize(
    ("new", "old", "expected"),
    [
        # objectmeta_test.go@v0.37.0-beta.0 TestValidateObjectMetaDeclaratively updateCases
        ({}, {}, []),
        ({"generation": 0}, {"generation": 1}, [(INV, "metadata.generation", "must not be decremented")]),
        ({"generation": -1}, {"generation": 0},
         [(INV, "metadata.generation", IS_NEGATIVE_ERROR_MSG), (INV, "metadata.generation", "must not be decremented")]),
        ({"namespace": "new-ns"}, {"namespace": "old-ns"}, [(INV, "metadata.namespace", "field is immutable")]),
        ({"uid": "uid-new"}, {"uid": "uid-old"}, [(INV, "metadata.uid", "field is immutable")]),
        ({"annotations": {"-invalid": "val"}}, {}, [(INV, "metadata.annotations", None)]),
    ],
)
def test_declaratively_upstream_update_cases(
    new: dict[str, Any], old: dict[str, Any], expected: list[tuple[str, str, str | None]]
) -> None:
    base = {"name": "valid-name", "namespace": "valid-ns"}
    errs = validate_object_meta_declaratively(
        {**base, "resourceVersion": "2", **new}, {**base, "resourceVersion": "1", **old}, True, None, Path("metadata"),
        resolve_release("1.37"),
    )
    assert [(e.type, e.field, d if d is None else e.detail) for e, (_, _, d) in zip(errs, expected)] == expected
    assert len(errs) == len(expected)


def _crontab() -> dict[str, Any]:
    return {
        "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "crontabs.stable.example.com"},
        "spec": {
            "group": "stable.example.com", "scope": "Namespaced",
            "names": {"plural": "crontabs", "singular": "crontab", "kind": "CronTab"},
            "versions": [{"name": "v1", "served": True, "storage": True, "schema": {"openAPIV3Schema": {
                "type": "object",
                "properties": {"spec": {"type": "object", "properties": {"template": {
                    "type": "object", "x-kubernetes-embedded-resource": True,
                    "x-kubernetes-preserve-unknown-fields": True}}}},
            }}}],
        },
    }


@pytest.mark.parametrize(("version", "count"), [("1.36", 3), ("1.37", 2)])
def test_callers_report_each_message_once_from_1_37(version: str, count: int) -> None:
    # apiextensions-apiserver@v0.37.0-beta.0 calls ValidateObjectMetaDeclaratively in
    # ValidateCustomResourceDefinition, customResourceValidator.Validate and schema/objectmeta
    # validateEmbeddedResource; @v0.36.3 ValidateObjectMeta / ValidateObjectMetaAccessor
    from crdtool.core.crd.manifest import check_crd_manifest
    from crdtool.core.customresource.create import validate_object

    crd = _crontab()
    crd["metadata"]["labels"] = TEMPLATED_LABELS
    verdict = check_crd_manifest(crd, kubernetes_version=version)
    assert [f.error.field for f in verdict.findings] == ["metadata.labels"] * count
    cr = {"apiVersion": "stable.example.com/v1", "kind": "CronTab",
          "metadata": {"name": "a", "namespace": "ns", "labels": TEMPLATED_LABELS},
          "spec": {"template": {"apiVersion": "v1", "kind": "Pod", "metadata": {"labels": TEMPLATED_LABELS}}}}
    errs = validate_object(cr, _crontab(), kubernetes_version=version)
    assert [e.field for e in errs] == ["metadata.labels"] * count + ["spec.template.metadata.labels"] * count


def test_map_is_the_mapping_check() -> None:
    """objectmeta._map's dict and None fast checks answer what isinstance against typing.Mapping did."""
    import collections
    import typing

    from crdtool.core import objectmeta

    class Sub(dict):  # type: ignore[type-arg]
        pass

    class Custom(collections.abc.Mapping):  # type: ignore[type-arg]
        def __getitem__(self, key: object) -> object:
            raise KeyError(key)

        def __iter__(self) -> typing.Iterator[object]:
            return iter(())

        def __len__(self) -> int:
            return 0

    for value in ({}, {"a": "b"}, Sub(a=1), collections.OrderedDict(a=1), Custom(), None, [], ["a"], "ab", 0, False,
                  (("a", 1),), object()):
        got = objectmeta._map(value)
        if isinstance(value, typing.Mapping):
            assert got is value
        else:
            assert got == {} and got.__class__ is dict
