"""The CRD update path around ``ValidateCustomResourceDefinitionUpdate``: strategy, BeforeUpdate, manifests.

Rules from apiextensions-apiserver v0.36.3 ``pkg/registry/customresourcedefinition/strategy.go``
(``PrepareForUpdate``, ``WarningsOnUpdate``), apimachinery ``ValidateObjectMetaAccessorUpdate`` /
``ValidateNoNewFinalizers``, apiserver ``webhook.ValidateCABundle`` (client-go's CA parsing; the
certificate is upstream validation_test.go's ``exampleCert``), each test naming the rule it checks.
"""

from __future__ import annotations

import base64
import copy
import pathlib
from typing import Any

import pytest
import yaml

from crdtool import check_crd_update
from crdtool.core.crd.update import prepare_for_update, update_options, warnings_on_update
from crdtool.core.errors import Path
from crdtool.core.objectmeta import validate_object_meta_update
from crdtool.core.webhook import validate_ca_bundle

ROOT = pathlib.Path(__file__).resolve().parents[2]
SAMPLE = yaml.safe_load((ROOT / "samples" / "crontab-v1.yaml").read_text())
UPDATE_CASES = yaml.load(
    (pathlib.Path(__file__).parent / "crd_update_upstream" / "update_cases.yaml").read_text(),
    Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader),
)["cases"]


def internal(spec_versions: list[dict[str, Any]], stored: list[str], generation: int = 3) -> dict[str, Any]:
    return {
        "metadata": {"name": "plural.group.com", "generation": generation},
        "spec": {"group": "group.com", "versions": spec_versions},
        "status": {"storedVersions": stored, "acceptedNames": {"plural": "plural"}},
    }


def test_prepare_for_update_carries_status_and_bumps_generation() -> None:
    # strategy.go PrepareForUpdate: newCRD.Status = oldCRD.Status; Generation+1 on spec change;
    # the storage version appended to storedVersions
    old = internal([{"name": "v1", "served": True, "storage": True}], ["v1"])
    new = internal([{"name": "v1", "served": True, "storage": False}, {"name": "v2", "served": True, "storage": True}], ["ignored"], 3)
    out = prepare_for_update(new, old)
    assert out["status"] == {"storedVersions": ["v1", "v2"], "acceptedNames": {"plural": "plural"}}
    assert out["metadata"]["generation"] == 4
    assert prepare_for_update(old, old)["metadata"]["generation"] == 3
    assert old["status"]["storedVersions"] == ["v1"]  # not mutated


def test_warnings_on_update_only_for_new_unrecognized_formats() -> None:
    def with_format(fmt: str) -> dict[str, Any]:
        schema = {"openAPIV3Schema": {"type": "object", "properties": {"a": {"type": "string", "format": fmt}}}}
        return {"spec": {"validation": schema}}

    assert warnings_on_update(with_format("foo"), with_format("foo")) == []
    assert warnings_on_update(with_format("bar"), with_format("foo")) == ['unrecognized format "bar"']


def test_object_meta_update_rules() -> None:
    old = {"name": "a", "resourceVersion": "1", "generation": 5, "deletionTimestamp": "2024-01-01T00:00:00Z", "finalizers": ["x/y"]}
    new = {**old, "generation": 4, "finalizers": ["x/y", "b/c", "a/b"]}
    errors = [str(e) for e in validate_object_meta_update(new, old, Path("metadata"))]
    assert errors == [
        'metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, '
        'found new finalizers []string{"a/b", "b/c"}',
        "metadata.generation: Invalid value: 4: must not be decremented",
    ]


CA_CASE = next(c for c in UPDATE_CASES if c["name"] == "webhookconfig: existing valid CABundle should be able to transition to invalid pre-serving")
EXAMPLE_CERT = CA_CASE["old"]["spec"]["conversion"]["webhookClientConfig"]["caBundle"]


def test_ca_bundle() -> None:
    assert base64.b64decode(EXAMPLE_CERT).startswith(b"-----BEGIN CERTIFICATE-----")
    assert validate_ca_bundle(Path("caBundle"), EXAMPLE_CERT) == []
    key_only = base64.b64encode(b"-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n").decode()
    assert [e.detail for e in validate_ca_bundle(Path("caBundle"), key_only)] == [
        "unable to load root certificates: no valid certificate authority data seen"
    ]
    broken = base64.b64encode(b"-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n").decode()
    assert [e.detail for e in validate_ca_bundle(Path("caBundle"), broken)] == [
        "unable to load root certificates: failed to parse certificate: x509: malformed certificate"
    ]


def test_update_options_follow_the_old_object() -> None:
    case = next(c for c in UPDATE_CASES if c["name"] == "non-structural updates allowed if old object has non-structural schema")
    from crdtool.core.crd.update import _decode_as_given

    old, _ = _decode_as_given(case["old"])
    new, _ = _decode_as_given(case["resource"])
    opts = update_options(new, old)
    assert not opts.require_structural_schema and not opts.require_immutable_names
    assert opts.versions_with_unchanged_schemas == frozenset()


# --- manifests (crdtool diff) --------------------------------------------------------------


def test_a_manifest_update_assumes_an_established_crd() -> None:
    new = copy.deepcopy(SAMPLE)
    new["spec"]["scope"] = "Cluster"
    verdict = check_crd_update(new, SAMPLE)
    assert [(f.error.field, f.error.detail) for f in verdict.findings] == [("spec.scope", "field is immutable")]
    assert check_crd_update(new, SAMPLE, established=False).accepted


def test_stored_versions_of_the_cluster() -> None:
    new = copy.deepcopy(SAMPLE)
    new["spec"]["versions"][0]["name"] = "v2"
    assert not check_crd_update(new, SAMPLE).accepted  # v1 was the stored version
    verdict = check_crd_update(new, SAMPLE, stored_versions=["v2"])
    assert verdict.accepted and verdict.old_stored_versions == ("v2",) and verdict.stored_versions == ("v2",)


def test_paths_are_those_of_the_new_manifest_and_strict_decoding_applies() -> None:
    new = copy.deepcopy(SAMPLE)
    new["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"]["cronSpec"]["type"] = "str"
    new["spec"]["bogus"] = 1
    verdict = check_crd_update(new, SAMPLE)
    assert [(f.error.type, f.error.field) for f in verdict.findings] == [
        ("UnknownField", "spec.bogus"),
        ("FieldValueNotSupported", "spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[cronSpec].type"),
    ]
    assert verdict.findings[1].upstream_field == "spec.validation.openAPIV3Schema.properties[spec].properties[cronSpec].type"
    warned = check_crd_update(new, SAMPLE, field_validation="Warn")
    assert 'unknown field "spec.bogus"' in warned.warnings and len(warned.findings) == 1


def test_a_v1beta1_old_crd_that_preserved_unknown_fields_may_keep_them() -> None:
    # validatePreserveUnknownFields: no-op when the old CRD had preserveUnknownFields: true
    old = {
        "apiVersion": "apiextensions.k8s.io/v1beta1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "crontabs.stable.example.com"},
        "spec": {"group": "stable.example.com", "version": "v1", "scope": "Namespaced",
                 "names": {"plural": "crontabs", "singular": "crontab", "kind": "CronTab"}},
    }
    assert check_crd_update(old, old).accepted


# --- strategy_test.go TestValidateAPIApproval (the update cases go through ValidateCustomResourceDefinitionUpdate) ---

MISSING = (
    'metadata.annotations[api-approved.kubernetes.io]: Required value: protected groups must have approval annotation '
    '"api-approved.kubernetes.io", see https://github.com/kubernetes/enhancements/pull/1111'
)
INVALID = (
    'metadata.annotations[api-approved.kubernetes.io]: Invalid value: "invalid": protected groups must have approval '
    'annotation "api-approved.kubernetes.io" with either a URL or a reason starting with "unapproved", '
    "see https://github.com/kubernetes/enhancements/pull/1111"
)
API_APPROVAL_CASES = [
    # (name, group, annotation, old annotation or None for a create, the aggregate error or None)
    ("ignore non-k8s group", "other.io", "invalid", None, None),
    ("invalid annotation create", "sigs.k8s.io", "invalid", None, INVALID),
    ("invalid annotation update", "sigs.k8s.io", "invalid", "invalid", None),
    ("invalid annotation to missing", "sigs.k8s.io", "", "invalid", MISSING),
    ("missing to invalid annotation", "sigs.k8s.io", "invalid", "", INVALID),
    ("missing annotation", "sigs.k8s.io", "", None, MISSING),
    ("missing annotation update", "sigs.k8s.io", "", "", None),
    ("url", "sigs.k8s.io", "https://github.com/kubernetes/kubernetes/pull/79724", None, None),
    ("unapproved", "sigs.k8s.io", "unapproved, other reason", None, None),
]


def approval_crd(group: str, annotation: str) -> dict[str, Any]:
    return {
        "metadata": {"name": f"foos.{group}", "annotations": {"api-approved.kubernetes.io": annotation}, "resourceVersion": "1"},
        "spec": {
            "group": group, "scope": "Namespaced", "version": "v1",
            "versions": [{"name": "v1", "storage": True, "served": True}],
            "names": {"plural": "foos", "singular": "foo", "kind": "Foo", "listKind": "FooList"},
            "validation": {"openAPIV3Schema": {"type": "object", "x-kubernetes-preserve-unknown-fields": True}},
        },
        "status": {"storedVersions": ["v1"]},
    }


@pytest.mark.parametrize("name,group,annotation,old_annotation,expected", API_APPROVAL_CASES, ids=[c[0] for c in API_APPROVAL_CASES])
def test_validate_api_approval_upstream(name: str, group: str, annotation: str, old_annotation: str | None, expected: str | None) -> None:
    from crdtool import validate_crd, validate_crd_update

    crd = approval_crd(group, annotation)
    errors = validate_crd(crd) if old_annotation is None else validate_crd_update(crd, approval_crd(group, old_annotation))
    assert [str(e) for e in errors] == ([expected] if expected else [])


# --- strategy_test.go TestWarningsOnUpdate ---------------------------------------------------------


def formats_crd(*formats: str) -> dict[str, Any]:
    props = {f"field{i + 1}": {"type": "string", "format": f} for i, f in enumerate(formats)}
    return {"spec": {"versions": [{"name": "v1", "served": True, "storage": True,
                                   "schema": {"openAPIV3Schema": {"type": "object", "properties": props}}}]}}


@pytest.mark.parametrize(
    "old,new,expected",
    [
        (("date-time",), ("date-time",), []),  # no unrecognized formats
        (("date-time",), ("invalidformat",), ['unrecognized format "invalidformat"']),  # newly introduced
        (("invalidformat",), ("invalidformat",), []),  # existing unrecognized format - no warning (ratcheting)
        (("date-time",), ("unknownformat1", "unknownformat2"),
         ['unrecognized format "unknownformat1"', 'unrecognized format "unknownformat2"']),  # multiple
    ],
)
def test_warnings_on_update_upstream(old: tuple[str, ...], new: tuple[str, ...], expected: list[str]) -> None:
    assert sorted(warnings_on_update(formats_crd(*new), formats_crd(*old))) == expected


# --- property: an update that changes nothing is accepted --------------------------------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from crdtool import check_crd_manifest  # noqa: E402

_leaf = st.fixed_dictionaries(
    {"type": st.sampled_from(["string", "integer", "boolean"])},
    optional={"maxLength": st.integers(0, 9), "minimum": st.integers(-5, 5), "enum": st.lists(st.sampled_from(["a", "b", 1]), min_size=1, max_size=2),
              "default": st.sampled_from(["a", 1, True]), "nullable": st.booleans(), "format": st.sampled_from(["date-time", "x-unknown"]),
              "x-kubernetes-validations": st.just([{"rule": "self == self"}])},
)
_schemas = st.recursive(
    _leaf,
    lambda c: st.one_of(
        st.fixed_dictionaries({"type": st.just("object"), "properties": st.dictionaries(st.sampled_from(list("abc")), c, max_size=3)},
                              optional={"required": st.lists(st.sampled_from(list("abc")), max_size=2, unique=True),
                                        "x-kubernetes-preserve-unknown-fields": st.booleans()}),
        st.fixed_dictionaries({"type": st.just("array"), "items": c}, optional={"maxItems": st.integers(0, 4)}),
    ),
    max_leaves=6,
)


@settings(max_examples=60, deadline=None)
@given(_schemas, st.booleans())
def test_an_update_that_changes_nothing_is_accepted(spec_schema: dict[str, Any], two_versions: bool) -> None:
    doc = copy.deepcopy(SAMPLE)
    version = doc["spec"]["versions"][0]
    version["schema"]["openAPIV3Schema"]["properties"]["spec"] = spec_schema
    if two_versions:
        doc["spec"]["versions"].append({**copy.deepcopy(version), "name": "v2", "storage": False})
    if check_crd_manifest(doc).valid:  # what the cluster could hold
        verdict = check_crd_update(doc, copy.deepcopy(doc))
        assert verdict.accepted, [str(f.error) for f in verdict.findings]
    # an invalid CRD is no more invalid as an update of itself: the update relaxes, never tightens
    create = {(f.error.type, f.error.field) for f in check_crd_manifest(doc).findings}
    update = {(f.error.type, f.error.field) for f in check_crd_update(doc, copy.deepcopy(doc)).findings}
    assert update <= create
