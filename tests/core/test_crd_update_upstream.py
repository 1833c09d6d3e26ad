"""``crdtool.validate_crd_update``: upstream ``ValidateCustomResourceDefinitionUpdate`` on objects as given.

All 43 cases of apiextensions-apiserver v0.36.3 ``validation_test.go``
``TestValidateCustomResourceDefinitionUpdate``, dumped by Go (see
``crd_update_upstream/README.md``). Upstream matches (type, path) as a multiset;
here the detail of every error is asserted as well, each taken from the upstream
line that produces it. Also ``TestValidateCustomResourceDefinitionStoredVersions``
(transcribed: five cases, with the ``contains`` texts upstream asserts).
"""

from __future__ import annotations

import pathlib
from collections import Counter
from typing import Any

import pytest
import yaml

import crdtool
from crdtool.core.crd.validation import validate_custom_resource_definition_stored_versions
from crdtool.core.errors import Path

DATA = yaml.load(
    (pathlib.Path(__file__).parent / "crd_update_upstream" / "update_cases.yaml").read_text(),
    Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader),
)
CASES = DATA["cases"]

IMMUTABLE = "field is immutable"  # apimachinery api/validation/objectmeta.go:34 FieldImmutableErrorMsg
COST_PREFIX = "estimated messageExpression cost exceeds budget by factor of "  # validation.go:1365 getCostErrorMessage
COST_SUFFIX = (
    "x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings "
    "are declared)"
)
OPENAPI_TYPES = 'supported values: "array", "boolean", "integer", "number", "object", "string"'
OBJECT_FIELD_TYPE = "must not be empty for specified object fields"  # apiserver/schema/validation.go:163
ARRAY_ITEMS_TYPE = "must not be empty for specified array items"  # apiserver/schema/validation.go:161

# case name -> the expected (type, path, detail) of every error; the (type, path) multiset is upstream's,
# the detail the text of the upstream line cited.
DETAILS: dict[str, list[tuple[str, str, str]]] = {
    "invalid types updates disallowed": [
        # validation.go:1474 field.NotSupported(fldPath.Child("type"), schema.Type, openapiV3Types.List())
        ("FieldValueNotSupported", "spec.validation.openAPIV3Schema.properties[foo].type", OPENAPI_TYPES),
    ],
    "reject non-atomic items in lists of type set if not pre-existing": [
        # validation.go:1174 (the bad value is is.XListType, a nil *string: "null")
        (
            "FieldValueInvalid",
            "spec.validation.openAPIV3Schema.properties[bar].items.x-kubernetes-map-type",
            "must be atomic as item of a list with x-kubernetes-list-type=set",
        ),
    ],
    "structural to non-structural updates not allowed": [
        ("FieldValueRequired", "spec.validation.openAPIV3Schema.properties[foo].type", OBJECT_FIELD_TYPE),
    ],
    "absent schema to non-structural updates not allowed": [
        ("FieldValueRequired", "spec.validation.openAPIV3Schema.properties[foo].type", OBJECT_FIELD_TYPE),
    ],
    "webhookconfig: should fail on invalid ConversionReviewVersion with old valid versions": [
        # validation.go:548-551
        ("FieldValueInvalid", "spec.conversion.conversionReviewVersions", "must include at least one of v1, v1beta1"),
    ],
    "webhookconfig: should fail on invalid ConversionReviewVersion with missing old versions": [
        ("FieldValueInvalid", "spec.conversion.conversionReviewVersions", "must include at least one of v1, v1beta1"),
    ],
    "webhookconfig: update to invalid CABundle should fail if existing is valid": [
        # validation.go:632 webhook.ValidateCABundle -> client-go transport.TLSConfigFor
        # ("unable to load root certificates: %w") -> createErrorParsingCAData (no PEM block)
        (
            "FieldValueInvalid",
            "spec.conversion.webhookClientConfig.caBundle",
            "unable to load root certificates: unable to parse bytes as PEM block",
        ),
    ],
    "version-deleted": [
        # validation.go:281
        (
            "FieldValueInvalid",
            "status.storedVersions[1]",
            "missing from spec.versions; version2 was previously a storage version, and must remain in spec.versions "
            "until a storage migration ensures no data remains persisted in version2 and removes version2 from "
            "status.storedVersions",
        ),
    ],
    "changes": [
        ("FieldValueInvalid", "spec.group", IMMUTABLE),  # validation.go:660
        ("FieldValueInvalid", "spec.names.plural", IMMUTABLE),  # validation.go:661
    ],
    "changes-established": [
        ("FieldValueInvalid", "spec.scope", IMMUTABLE),  # validation.go:654
        ("FieldValueInvalid", "spec.names.kind", IMMUTABLE),  # validation.go:655
        ("FieldValueInvalid", "spec.group", IMMUTABLE),
        ("FieldValueInvalid", "spec.names.plural", IMMUTABLE),
    ],
    "top-level and per-version fields are mutually exclusive": [
        ("FieldValueForbidden", "spec.validation", "top-level and per-version schemas are mutually exclusive"),  # :422
        ("FieldValueForbidden", "spec.subresources", "top-level and per-version subresources are mutually exclusive"),  # :425
    ],
    "switch off preserveUnknownFields with structural schema before and after": [
        ("FieldValueRequired", "spec.validation.openAPIV3Schema.properties[spec].type", OBJECT_FIELD_TYPE),
        ("FieldValueRequired", "spec.validation.openAPIV3Schema.properties[status].type", OBJECT_FIELD_TYPE),
        ("FieldValueRequired", "spec.validation.openAPIV3Schema.items.type", ARRAY_ITEMS_TYPE),
    ],
    "switch to preserveUnknownFields: true is forbidden": [
        # validation.go:1901
        (
            "FieldValueInvalid",
            "spec.preserveUnknownFields",
            "cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead",
        ),
    ],
    "schema required if old object has top-level schema": [
        ("FieldValueRequired", "spec.versions[0].schema.openAPIV3Schema", ""),  # validation.go:377
    ],
    "schema required if all versions of old object have schema": [
        ("FieldValueRequired", "spec.versions[0].schema.openAPIV3Schema", ""),
        ("FieldValueRequired", "spec.versions[1].schema.openAPIV3Schema", ""),
    ],
    "add default with enabled feature gate, structural schema, without pruning": [
        # validation.go:394
        ("FieldValueInvalid", "spec.preserveUnknownFields", "must be false in order to use defaults in the schema"),
    ],
    "reject non-required key with no default in list of type map if not pre-existing": [
        # validation.go:1407
        (
            "FieldValueRequired",
            "spec.validation.openAPIV3Schema.properties[bar].items.properties[key].default",
            "this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property",
        ),
    ],
    "reject nullable key in list of type map if not pre-existing": [
        # validation.go:1411
        (
            "FieldValueForbidden",
            "spec.validation.openAPIV3Schema.properties[bar].items.properties[key].nullable",
            "this property is in x-kubernetes-list-map-keys, so it cannot be nullable",
        ),
    ],
    "reject nullable item in list of type map if not pre-existing": [
        # validation.go:1388
        ("FieldValueForbidden", "spec.validation.openAPIV3Schema.properties[bar].items.nullable", "cannot be nullable when x-kubernetes-list-type is map"),
    ],
    "reject nullable items in list of type set if not pre-exisiting": [
        ("FieldValueForbidden", "spec.validation.openAPIV3Schema.properties[bar].items.nullable", "cannot be nullable when x-kubernetes-list-type is set"),
    ],
    "suppress per-expression cost limit in pre-existing versions": [
        (
            "FieldValueForbidden",
            "spec.versions[1].schema.openAPIV3Schema.properties[f].x-kubernetes-validations[0].messageExpression",
            COST_PREFIX,
        ),
        (
            "FieldValueForbidden",
            "spec.versions[2].schema.openAPIV3Schema.properties[f].x-kubernetes-validations[0].messageExpression",
            COST_PREFIX,
        ),
    ],
    "suppress per-expression cost limit in new object during top-level schema to Versions extraction": [
        (
            "FieldValueForbidden",
            "spec.versions[1].schema.openAPIV3Schema.properties[f].x-kubernetes-validations[0].messageExpression",
            COST_PREFIX,
        ),
    ],
    "ratcheting: too many selectableFields are not allowed if existing CRD has different selectableFields": [
        # validation.go:875 field.TooMany(fldPath, 9, MaxSelectableFields): no detail of its own
        ("FieldValueTooMany", "spec.versions[0].selectableFields", "must have at most 8 items"),
    ],
    "ratcheting: top level schema: too many selectableFields are not allowed if existing CRD has different selectableFields": [
        ("FieldValueTooMany", "spec.selectableFields", "must have at most 8 items"),
    ],
}


def _detail_matches(want: str, got: str) -> bool:
    if want == COST_PREFIX:  # the factor is crdtool's cost estimate: only upstream's words are asserted
        return got.startswith(COST_PREFIX) and got.endswith(COST_SUFFIX)
    return got == want


def test_every_case_is_here() -> None:
    assert len(CASES) == 43
    with_errors = {c["name"] for c in CASES if c["expected_errors"]}
    assert with_errors == set(DETAILS)


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_validate_crd_update_upstream(case: dict[str, Any]) -> None:
    errors = crdtool.validate_crd_update(case["resource"], case["old"])
    got = Counter((e.type, e.field) for e in errors)
    want = Counter((e["type"], e["path"]) for e in case["expected_errors"])
    assert got == want, [str(e) for e in errors]
    remaining = list(errors)
    for etype, path, detail in DETAILS.get(case["name"], []):
        match = next((e for e in remaining if e.type == etype and e.field == path and _detail_matches(detail, e.detail)), None)
        assert match is not None, (etype, path, detail, [str(e) for e in errors])
        remaining.remove(match)
    assert not remaining


def test_update_of_unchanged_established_crd_is_accepted() -> None:
    case = next(c for c in CASES if c["name"] == "unchanged-established")
    assert case["old"]["status"]["conditions"][0]["type"] == "Established"
    assert crdtool.validate_crd_update(case["resource"], case["old"]) == []


def test_changes_without_established_leave_scope_and_kind_mutable() -> None:
    # "changes" and "changes-established" differ only in the old object's Established condition
    plain = next(c for c in CASES if c["name"] == "changes")
    fields = [e.field for e in crdtool.validate_crd_update(plain["resource"], plain["old"])]
    assert "spec.scope" not in fields and "spec.names.kind" not in fields


# --- TestValidateCustomResourceDefinitionStoredVersions (validation_test.go:11367) -----------------

STORED_VERSION_CASES = [
    ("one version", ["v1"], "v1", ["v1"], []),
    ("no stored version", ["v1"], "v1", [], [("status.storedVersions", "Invalid value: []: must have at least one stored version")]),
    ("many versions", ["v1alpha", "v1beta1", "v1"], "v1", ["v1alpha", "v1"], []),
    (
        "missing stored versions",
        ["v1beta1", "v1"],
        "v1",
        ["v1alpha", "v1beta1", "v1"],
        [("status.storedVersions[0]", 'Invalid value: "v1alpha": missing from spec.versions')],
    ),
    (
        "missing storage versions",
        ["v1alpha", "v1beta1", "v1"],
        "v1",
        ["v1alpha", "v1beta1"],
        [("status.storedVersions", 'Invalid value: ["v1alpha","v1beta1"]: must have the storage version v1')],
    ),
]


@pytest.mark.parametrize("name,versions,storage,stored,expected", STORED_VERSION_CASES, ids=[c[0] for c in STORED_VERSION_CASES])
def test_validate_stored_versions_upstream(
    name: str, versions: list[str], storage: str, stored: list[str], expected: list[tuple[str, str]]
) -> None:
    spec_versions = [{"name": v, "served": True, "storage": v == storage} for v in versions]
    errors = validate_custom_resource_definition_stored_versions(stored, spec_versions, Path("status").child("storedVersions"))
    assert len(errors) == len(expected)
    for error, (field, contains) in zip(errors, expected):
        assert error.type == "FieldValueInvalid" and error.field == field
        assert contains in str(error)
