"""CRD conversion v1 <-> internal <-> v1beta1.

Cases derived from upstream apiextensions v1/conversion_test.go (TestConversion,
TestJSONConversion, TestJSONRoundTrip) and v1beta1/conversion_test.go, plus round trips
over the real-world corpus and hypothesis properties.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crdtool.core.crd import types as T
from crdtool.core.crd.conversion import (
    convert_crd,
    internal_to_v1,
    internal_to_v1beta1,
    manifest_path,
    to_internal,
    v1_to_internal,
    v1beta1_to_internal,
)
from crdtool.core.crd.decode import decode_crd
from crdtool.core.crd.defaults import default_crd

V1 = T.V1
V1BETA1 = T.V1BETA1
INTERNAL = T.INTERNAL


def ext(spec: dict[str, Any]) -> dict[str, Any]:
    return {"apiVersion": V1, "spec": spec}


def internal(spec: dict[str, Any]) -> dict[str, Any]:
    return {"apiVersion": INTERNAL, "spec": spec}


def schema(**kw: Any) -> dict[str, Any]:
    return {"openAPIV3Schema": {"type": "object", **kw}}


# --- internal -> v1 ----------------------------------------------------------------

INTERNAL_TO_V1 = [
    ("no versions", {}, {}),
    ("top-level version", {"version": "v1"}, {"versions": [{"name": "v1", "served": True, "storage": True}]}),
    (
        "multiple versions",
        {"versions": [{"name": "v1", "served": True, "storage": True}, {"name": "v2", "served": False, "storage": False}]},
        {"versions": [{"name": "v1", "served": True, "storage": True}, {"name": "v2", "served": False, "storage": False}]},
    ),
    (
        "top-level validation moves to per-version",
        {"version": "v1", "validation": schema()},
        {"versions": [{"name": "v1", "served": True, "storage": True, "schema": schema()}]},
    ),
    (
        "per-version validation is preserved",
        {"versions": [{"name": "v1", "served": True, "storage": True, "schema": schema(description="v1")},
                      {"name": "v2", "served": False, "storage": False, "schema": schema(description="v2")}]},
        {"versions": [{"name": "v1", "served": True, "storage": True, "schema": schema(description="v1")},
                      {"name": "v2", "served": False, "storage": False, "schema": schema(description="v2")}]},
    ),
    (
        "top-level subresources moves to per-version",
        {"version": "v1", "subresources": {"scale": {"specReplicasPath": "spec.replicas"}}},
        {"versions": [{"name": "v1", "served": True, "storage": True,
                       "subresources": {"scale": {"specReplicasPath": "spec.replicas"}}}]},
    ),
    (
        "top-level printer columns moves to per-version",
        {"version": "v1", "additionalPrinterColumns": [{"name": "column1", "JSONPath": ".spec.a"}]},
        {"versions": [{"name": "v1", "served": True, "storage": True,
                       "additionalPrinterColumns": [{"name": "column1", "jsonPath": ".spec.a"}]}]},
    ),
    (
        "per-version printer columns is preserved",
        {"versions": [{"name": "v1", "additionalPrinterColumns": [{"name": "column1", "JSONPath": ".a"}]},
                      {"name": "v2", "additionalPrinterColumns": [{"name": "column2"}]}]},
        {"versions": [{"name": "v1", "additionalPrinterColumns": [{"name": "column1", "jsonPath": ".a"}]},
                      {"name": "v2", "additionalPrinterColumns": [{"name": "column2"}]}]},
    ),
    (
        "top-level selectable fields moves to per-version",
        {"version": "v1", "selectableFields": [{"jsonPath": ".spec.color"}]},
        {"versions": [{"name": "v1", "served": True, "storage": True, "selectableFields": [{"jsonPath": ".spec.color"}]}]},
    ),
    ("no webhook client config", {"conversion": {}}, {"conversion": {}}),
    (
        "webhook client config",
        {"conversion": {"webhookClientConfig": {"url": "http://example.com"}}},
        {"conversion": {"webhook": {"clientConfig": {"url": "http://example.com"}}}},
    ),
    (
        "webhook versions",
        {"conversion": {"conversionReviewVersions": ["v1"]}},
        {"conversion": {"webhook": {"conversionReviewVersions": ["v1"]}}},
    ),
    (
        "empty webhook versions still make a webhook",
        {"conversion": {"strategy": "None", "conversionReviewVersions": []}},
        {"conversion": {"strategy": "None", "webhook": {"conversionReviewVersions": []}}},
    ),
    (
        "service port is always set",
        {"conversion": {"webhookClientConfig": {"service": {"name": "s", "namespace": "n"}}}},
        {"conversion": {"webhook": {"clientConfig": {"service": {"name": "s", "namespace": "n", "port": 0}}}}},
    ),
    ("preserveUnknownFields false is v1's zero value", {"preserveUnknownFields": False}, {}),
    ("preserveUnknownFields true", {"preserveUnknownFields": True}, {"preserveUnknownFields": True}),
]


@pytest.mark.parametrize(("name", "spec", "expected"), INTERNAL_TO_V1, ids=[c[0] for c in INTERNAL_TO_V1])
def test_internal_to_v1(name: str, spec: dict[str, Any], expected: dict[str, Any]) -> None:
    assert internal_to_v1(internal(spec)) == ext(expected)


# --- v1 -> internal ----------------------------------------------------------------

V1_TO_INTERNAL = [
    ("no versions", {}, {"preserveUnknownFields": False}),
    (
        "single version",
        {"versions": [{"name": "v1", "served": True, "storage": True}]},
        {"version": "v1", "versions": [{"name": "v1", "served": True, "storage": True}], "preserveUnknownFields": False},
    ),
    (
        "identical validation moves to top-level",
        {"versions": [{"name": "v1", "served": True, "storage": True, "schema": schema()},
                      {"name": "v2", "served": True, "storage": False, "schema": schema()}]},
        {"version": "v1", "validation": schema(),
         "versions": [{"name": "v1", "served": True, "storage": True}, {"name": "v2", "served": True, "storage": False}],
         "preserveUnknownFields": False},
    ),
    (
        "distinct validation remains per-version",
        {"versions": [{"name": "v1", "schema": schema(description="v1")}, {"name": "v2", "schema": schema(description="v2")}]},
        {"version": "v1",
         "versions": [{"name": "v1", "schema": schema(description="v1")}, {"name": "v2", "schema": schema(description="v2")}],
         "preserveUnknownFields": False},
    ),
    (
        "identical subresources moves to top-level",
        {"versions": [{"name": "v1", "subresources": {"scale": {"specReplicasPath": "spec.replicas"}}},
                      {"name": "v2", "subresources": {"scale": {"specReplicasPath": "spec.replicas"}}}]},
        {"version": "v1", "subresources": {"scale": {"specReplicasPath": "spec.replicas"}},
         "versions": [{"name": "v1"}, {"name": "v2"}], "preserveUnknownFields": False},
    ),
    (
        "distinct subresources remains per-version",
        {"versions": [{"name": "v1", "subresources": {"status": {}}}, {"name": "v2"}]},
        {"version": "v1", "versions": [{"name": "v1", "subresources": {"status": {}}}, {"name": "v2"}],
         "preserveUnknownFields": False},
    ),
    (
        "identical printer columns moves to top-level",
        {"versions": [{"name": "v1", "additionalPrinterColumns": [{"name": "column1", "jsonPath": ".a"}]},
                      {"name": "v2", "additionalPrinterColumns": [{"name": "column1", "jsonPath": ".a"}]}]},
        {"version": "v1", "additionalPrinterColumns": [{"name": "column1", "JSONPath": ".a"}],
         "versions": [{"name": "v1"}, {"name": "v2"}], "preserveUnknownFields": False},
    ),
    (
        "distinct printer columns remains per-version",
        {"versions": [{"name": "v1", "additionalPrinterColumns": [{"name": "column1"}]},
                      {"name": "v2", "additionalPrinterColumns": [{"name": "column2"}]}]},
        {"version": "v1", "versions": [{"name": "v1", "additionalPrinterColumns": [{"name": "column1"}]},
                                       {"name": "v2", "additionalPrinterColumns": [{"name": "column2"}]}],
         "preserveUnknownFields": False},
    ),
    (
        "identical selectable fields move with an identical schema",
        {"versions": [{"name": "v1", "schema": schema(), "selectableFields": [{"jsonPath": ".spec.a"}]},
                      {"name": "v2", "schema": schema(), "selectableFields": [{"jsonPath": ".spec.a"}]}]},
        {"version": "v1", "validation": schema(), "versions": [{"name": "v1"}, {"name": "v2"}],
         "selectableFields": [{"jsonPath": ".spec.a"}], "preserveUnknownFields": False},
    ),
    (
        # upstream's loop hoists each field on its own (conversion.go@v0.35.7): the selectable fields move, the
        # schemas stay (kubernetes/kubernetes#140689; the CRD is then rejected, test_crd_validation.py)
        "identical selectable fields move when the schemas differ",
        {"versions": [{"name": "v1", "schema": schema(title="a"), "selectableFields": [{"jsonPath": ".spec.a"}]},
                      {"name": "v2", "schema": schema(title="b"), "selectableFields": [{"jsonPath": ".spec.a"}]}]},
        {"version": "v1",
         "versions": [{"name": "v1", "schema": schema(title="a")}, {"name": "v2", "schema": schema(title="b")}],
         "selectableFields": [{"jsonPath": ".spec.a"}], "preserveUnknownFields": False},
    ),
    (
        "semantic equality: empty and missing lists, zero and missing fields",
        {"versions": [{"name": "v1", "additionalPrinterColumns": [], "schema": schema(nullable=False, required=[])},
                      {"name": "v2", "schema": schema()}]},
        {"version": "v1", "validation": schema(nullable=False, required=[]), "additionalPrinterColumns": [],
         "versions": [{"name": "v1"}, {"name": "v2"}], "preserveUnknownFields": False},
    ),
    (
        "JSON values compare with their Go types",
        {"versions": [{"name": "v1", "schema": schema(enum=[1])}, {"name": "v2", "schema": schema(enum=[True])}]},
        {"version": "v1", "versions": [{"name": "v1", "schema": schema(enum=[1])},
                                       {"name": "v2", "schema": schema(enum=[True])}],
         "preserveUnknownFields": False},
    ),
    ("no webhook client config", {"conversion": {}}, {"conversion": {}, "preserveUnknownFields": False}),
    (
        "webhook client config",
        {"conversion": {"webhook": {"clientConfig": {"url": "http://example.com"}}}},
        {"conversion": {"webhookClientConfig": {"url": "http://example.com"}}, "preserveUnknownFields": False},
    ),
    (
        "webhook versions",
        {"conversion": {"webhook": {"conversionReviewVersions": ["v1"]}}},
        {"conversion": {"conversionReviewVersions": ["v1"]}, "preserveUnknownFields": False},
    ),
    (
        "service port nil is 0",
        {"conversion": {"webhook": {"clientConfig": {"service": {"name": "s"}}}}},
        {"conversion": {"webhookClientConfig": {"service": {"name": "s", "port": 0}}}, "preserveUnknownFields": False},
    ),
]


@pytest.mark.parametrize(("name", "spec", "expected"), V1_TO_INTERNAL, ids=[c[0] for c in V1_TO_INTERNAL])
def test_v1_to_internal(name: str, spec: dict[str, Any], expected: dict[str, Any]) -> None:
    assert v1_to_internal(ext(spec)) == internal(expected)


def test_metadata_kind_and_status_are_carried() -> None:
    crd = {"apiVersion": V1, "kind": "CustomResourceDefinition", "metadata": {"name": "a.b"},
           "spec": {"group": "b"}, "status": {"storedVersions": ["v1"]}}
    out = v1_to_internal(crd)
    assert out == {"apiVersion": INTERNAL, "kind": "CustomResourceDefinition", "metadata": {"name": "a.b"},
                   "spec": {"group": "b", "preserveUnknownFields": False}, "status": {"storedVersions": ["v1"]}}
    assert internal_to_v1(out) == {"apiVersion": V1, "kind": "CustomResourceDefinition", "metadata": {"name": "a.b"},
                                   "spec": {"group": "b"}, "status": {"storedVersions": ["v1"]}}


# --- JSON values (TestJSONConversion, TestJSONRoundTrip) ----------------------------


@pytest.mark.parametrize(
    ("internal_schema", "external_schema"),
    [
        ({}, {}),
        ({"default": None}, {}),  # "aliased nil": a nil JSON value is dropped
        ({"default": "null"}, {"default": "null"}),
        ({"default": "foo"}, {"default": "foo"}),
        ({"default": True}, {"default": True}),
        ({"default": ["foo", "bar", "baz"]}, {"default": ["foo", "bar", "baz"]}),
        ({"example": None, "enum": [None]}, {"enum": [None]}),
        ({"default": 2.0, "enum": [1.0, 1.5]}, {"default": 2, "enum": [1, 1.5]}),  # json.Marshal writes 2.0 as 2
        ({"properties": {"a": {"default": None, "items": {"example": None}}}}, {"properties": {"a": {"items": {}}}}),
    ],
)
@pytest.mark.parametrize("to_external", [internal_to_v1, internal_to_v1beta1])
def test_json_conversion(internal_schema: dict[str, Any], external_schema: dict[str, Any], to_external: Any) -> None:
    out = to_external(internal({"versions": [{"name": "v1", "schema": {"openAPIV3Schema": internal_schema}}]}))
    assert out["spec"]["versions"][0]["schema"]["openAPIV3Schema"] == external_schema


@pytest.mark.parametrize(
    ("document", "expected"),
    [
        ({"default": None, "enum": None, "example": None}, {}),
        ({"default": {"test": None}, "enum": [None], "example": {"test": None}},
         {"default": {"test": None}, "enum": [None], "example": {"test": None}}),
    ],
)
@pytest.mark.parametrize("api_version", [V1, V1BETA1])
def test_json_round_trip(document: dict[str, Any], expected: dict[str, Any], api_version: str) -> None:
    spec: dict[str, Any] = {"versions": [{"name": "v1", "schema": {"openAPIV3Schema": document}}]}
    decoded, errors = decode_crd({"apiVersion": api_version, "spec": spec})
    assert errors == []
    internal_crd = to_internal(decoded)
    back = internal_to_v1(internal_crd) if api_version == V1 else internal_to_v1beta1(internal_crd)
    assert back["spec"]["versions"][0]["schema"]["openAPIV3Schema"] == expected


# --- v1beta1 <-> internal -----------------------------------------------------------


def test_v1beta1_is_nearly_identity() -> None:
    beta = {
        "apiVersion": V1BETA1,
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "foos.example.com"},
        "spec": {
            "group": "example.com", "version": "v1", "names": {"plural": "foos", "kind": "Foo"}, "scope": "Namespaced",
            "validation": schema(properties={"a": {"type": "string", "default": "x"}}),
            "subresources": {"status": {}},
            "versions": [{"name": "v1", "served": True, "storage": True,
                          "additionalPrinterColumns": [{"name": "A", "type": "string", "JSONPath": ".a"}]}],
            "additionalPrinterColumns": [{"name": "B", "type": "string", "JSONPath": ".b", "priority": 1}],
            "selectableFields": [{"jsonPath": ".spec.a"}],
            "conversion": {"strategy": "Webhook", "webhookClientConfig": {"service": {"name": "s", "namespace": "n"}},
                           "conversionReviewVersions": ["v1beta1"]},
            "preserveUnknownFields": False,
        },
    }
    inner = v1beta1_to_internal(beta)
    assert inner["apiVersion"] == INTERNAL
    assert inner["spec"]["conversion"]["webhookClientConfig"]["service"]["port"] == 0
    assert inner["spec"]["additionalPrinterColumns"] == beta["spec"]["additionalPrinterColumns"]
    back = internal_to_v1beta1(inner)
    expected = copy.deepcopy(beta)
    expected["spec"]["conversion"]["webhookClientConfig"]["service"]["port"] = 0
    assert back == expected


# --- manifest paths --------------------------------------------------------------------

V1_CRD = {"apiVersion": V1, "spec": {"versions": [{"name": "v1"}]}}
BETA_CRD = {"apiVersion": V1BETA1, "spec": {}}


@pytest.mark.parametrize(
    ("internal_path", "v1_path"),
    [
        ("spec.validation.openAPIV3Schema.properties[spec].type",
         "spec.versions[0].schema.openAPIV3Schema.properties[spec].type"),
        ("spec.validation", "spec.versions[0].schema"),
        ("spec.subresources.scale.specReplicasPath", "spec.versions[0].subresources.scale.specReplicasPath"),
        ("spec.additionalPrinterColumns[1].JSONPath", "spec.versions[0].additionalPrinterColumns[1].jsonPath"),
        ("spec.additionalPrinterColumns[1].name", "spec.versions[0].additionalPrinterColumns[1].name"),
        ("spec.versions[2].additionalPrinterColumns[0].JSONPath", "spec.versions[2].additionalPrinterColumns[0].jsonPath"),
        ("spec.selectableFields[0].jsonPath", "spec.versions[0].selectableFields[0].jsonPath"),
        ("spec.conversion.webhookClientConfig.service.port", "spec.conversion.webhook.clientConfig.service.port"),
        ("spec.conversion.webhookClientConfig", "spec.conversion.webhook.clientConfig"),
        ("spec.conversion.conversionReviewVersions[0]", "spec.conversion.webhook.conversionReviewVersions[0]"),
        ("spec.version", "spec.versions[0].name"),
        ("spec.versions[1].schema.openAPIV3Schema", "spec.versions[1].schema.openAPIV3Schema"),
        ("spec.versions", "spec.versions"),
        ("spec.validationX", "spec.validationX"),
        ("metadata.name", "metadata.name"),
        ("spec.conversion.strategy", "spec.conversion.strategy"),
    ],
)
def test_manifest_path(internal_path: str, v1_path: str) -> None:
    assert manifest_path(internal_path, V1_CRD) == v1_path
    assert manifest_path(internal_path, BETA_CRD) == internal_path


# --- convert_crd -------------------------------------------------------------------------


def test_convert_v1beta1_manifest_to_v1() -> None:
    beta = {
        "apiVersion": V1BETA1,
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "crontabs.stable.example.com"},
        "spec": {
            "group": "stable.example.com", "version": "v1",
            "names": {"plural": "crontabs", "kind": "CronTab"},
            "validation": schema(properties={"spec": {"type": "object"}}),
            "additionalPrinterColumns": [{"name": "Spec", "type": "string", "JSONPath": ".spec.cronSpec"}],
            "conversion": {"strategy": "Webhook", "webhookClientConfig": {"service": {"name": "s", "namespace": "n"}}},
        },
    }
    v1 = convert_crd(beta, "v1")
    assert v1 == {
        "apiVersion": V1,
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "crontabs.stable.example.com", "creationTimestamp": None},
        "spec": {
            "group": "stable.example.com",
            "names": {"plural": "crontabs", "kind": "CronTab", "singular": "crontab", "listKind": "CronTabList"},
            "scope": "Namespaced",
            "versions": [{
                "name": "v1", "served": True, "storage": True,
                "schema": schema(properties={"spec": {"type": "object"}}),
                "additionalPrinterColumns": [{"name": "Spec", "type": "string", "jsonPath": ".spec.cronSpec"}],
            }],
            "conversion": {"strategy": "Webhook", "webhook": {
                "clientConfig": {"service": {"namespace": "n", "name": "s", "port": 443}},
                "conversionReviewVersions": ["v1beta1"]}},
            "preserveUnknownFields": True,
        },
        "status": {"conditions": None, "acceptedNames": {"plural": "", "kind": ""}, "storedVersions": ["v1"]},
    }
    assert convert_crd(v1, "apiextensions.k8s.io/v1beta1")["spec"]["validation"] == beta["spec"]["validation"]


# The Go zero values json.Marshal writes: every field without `omitempty` in the json tags of
# apiextensions-apiserver v0.36.3 pkg/apis/apiextensions/v1/types.go (group, names.plural, names.kind,
# scope, versions, status.conditions, status.acceptedNames, status.storedVersions, webhook
# conversionReviewVersions, service namespace/name, column name/type/jsonPath, version
# name/served/storage, x-kubernetes-validations rule) and metav1.ObjectMeta.creationTimestamp
# (a struct: never omitted; the zero metav1.Time marshals as null).
def test_convert_crd_writes_go_zero_values_as_json_marshal_does() -> None:
    bare = {"apiVersion": V1, "kind": "CustomResourceDefinition", "metadata": {}, "spec": {}}
    out = convert_crd(bare, "v1")
    assert out == {
        "apiVersion": V1,
        "kind": "CustomResourceDefinition",
        "metadata": {"creationTimestamp": None},
        "spec": {
            "group": "",
            "names": {"plural": "", "kind": ""},
            "scope": "",
            "versions": None,
            "conversion": {"strategy": "None"},
        },
        "status": {"conditions": None, "acceptedNames": {"plural": "", "kind": ""}, "storedVersions": None},
    }
    # struct fields in Go declaration order
    assert list(out) == ["apiVersion", "kind", "metadata", "spec", "status"]
    assert list(out["spec"]) == ["group", "names", "scope", "versions", "conversion"]


def test_convert_crd_marshals_nested_structs_like_go() -> None:
    beta = {
        "apiVersion": V1BETA1,
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "foos.example.com", "creationTimestamp": "2024-05-01T12:00:00.5+02:00"},
        "spec": {
            "group": "example.com", "version": "v1", "scope": "Cluster",
            "names": {"plural": "foos", "kind": "Foo", "shortNames": []},
            "preserveUnknownFields": False,
            "validation": {"openAPIV3Schema": {
                "type": "object", "description": "",
                "properties": {"b": {"type": "string"}, "a": {"type": "integer", "minimum": 0}},
                "x-kubernetes-validations": [{"rule": "true", "message": ""}],
            }},
            "subresources": {"scale": {"specReplicasPath": ".spec.r", "statusReplicasPath": ""}},
            "versions": [{"name": "v1", "served": True, "storage": True, "deprecated": False}],
        },
        "status": {"conditions": [{"type": "Established", "status": "True"}]},
    }
    out = convert_crd(beta, "v1")
    assert out["metadata"] == {"name": "foos.example.com", "creationTimestamp": "2024-05-01T10:00:00Z"}
    version = out["spec"]["versions"][0]
    assert list(version) == ["name", "served", "storage", "schema", "subresources"]  # deprecated: false omitted
    assert version["subresources"] == {"scale": {"specReplicasPath": ".spec.r", "statusReplicasPath": ""}}
    root = version["schema"]["openAPIV3Schema"]
    assert list(root["properties"]) == ["a", "b"]  # Go sorts map keys
    assert root["x-kubernetes-validations"] == [{"rule": "true"}]
    assert "description" not in root
    assert out["spec"]["names"] == {"plural": "foos", "singular": "foo", "kind": "Foo", "listKind": "FooList"}
    assert out["status"]["conditions"] == [{"type": "Established", "status": "True", "lastTransitionTime": None}]


def test_convert_crd_target_and_unknown_kinds() -> None:
    with pytest.raises(ValueError):
        convert_crd({"apiVersion": V1}, "v2")
    other = {"apiVersion": "v1", "kind": "Namespace"}
    assert convert_crd(other, "v1") == other


# --- corpus round trips -----------------------------------------------------------------


def _without_false_preserve(crd: dict[str, Any]) -> dict[str, Any]:
    spec = dict(crd["spec"])
    if spec.get("preserveUnknownFields") is False:
        del spec["preserveUnknownFields"]
    return {**crd, "spec": spec}


# --- properties ----------------------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10, 10) | st.sampled_from([0.5, -2.25]) | st.text(max_size=3),
    lambda kids: st.lists(kids, max_size=3) | st.dictionaries(st.text(max_size=3), kids, max_size=3),
    max_leaves=8,
)
schemas = st.recursive(
    st.fixed_dictionaries({}, optional={
        "type": st.sampled_from(["object", "string", "integer", "array"]),
        "description": st.sampled_from(["", "d"]),
        "nullable": st.booleans(),
        "default": json_values,
        "enum": st.lists(json_values, max_size=2),
        "maximum": st.sampled_from([1, 2.5]),
        "x-kubernetes-preserve-unknown-fields": st.booleans(),
        "x-kubernetes-validations": st.lists(st.fixed_dictionaries(
            {"rule": st.just("self.a")}, optional={"message": st.just("m"), "optionalOldSelf": st.booleans()}),
            max_size=1),
    }),
    lambda kids: st.fixed_dictionaries({}, optional={
        "properties": st.dictionaries(st.sampled_from(["a", "b"]), kids, max_size=2),
        "items": kids | st.lists(kids, max_size=2),
        "additionalProperties": st.booleans() | kids,
        "allOf": st.lists(kids, max_size=2),
        "not": kids,
        "dependencies": st.dictionaries(st.just("a"), kids | st.lists(st.just("b"), max_size=1), max_size=1),
    }),
    max_leaves=6,
)
# Small pools so that versions often share identical (or only semantically equal) parts.
validations = st.sampled_from([None, {}, {"openAPIV3Schema": {"type": "object"}}]) | schemas.map(
    lambda s: {"openAPIV3Schema": s})
subresources = st.sampled_from([None, {}, {"status": {}}, {"scale": {"specReplicasPath": ".spec.r",
                                                                    "statusReplicasPath": ".status.r"}}])
selectable = st.sampled_from([None, [], [{"jsonPath": ".spec.a"}]])


def columns(key: str) -> st.SearchStrategy[Any]:
    return st.sampled_from([None, [], [{"name": "A", "type": "string", key: ".a"}],
                            [{"name": "A", "type": "string", key: ".a", "priority": 0}]])


def versions(column_key: str) -> st.SearchStrategy[list[dict[str, Any]]]:
    version = st.fixed_dictionaries({"name": st.sampled_from(["v1", "v2", "v3"])}, optional={
        "served": st.booleans(), "storage": st.booleans(), "deprecated": st.booleans(),
        "deprecationWarning": st.just("old"), "schema": validations, "subresources": subresources,
        "additionalPrinterColumns": columns(column_key), "selectableFields": selectable})
    return st.lists(version, max_size=3)


service = st.fixed_dictionaries({"name": st.just("s"), "namespace": st.just("n")},
                                optional={"port": st.integers(0, 65535), "path": st.just("/p")})
client_config = st.fixed_dictionaries({}, optional={"url": st.just("https://x"), "service": service,
                                                    "caBundle": st.just("Ag==")})
review_versions = st.lists(st.sampled_from(["v1", "v1beta1"]), max_size=2)
# A v1 webhook with neither clientConfig nor conversionReviewVersions does not survive
# the internal version (upstream drops it too), so it is not generated.
webhook = st.one_of(
    st.fixed_dictionaries({"clientConfig": client_config}, optional={"conversionReviewVersions": review_versions}),
    st.fixed_dictionaries({"conversionReviewVersions": review_versions}),
)
names = st.fixed_dictionaries({}, optional={"plural": st.just("foos"), "kind": st.sampled_from(["Foo", ""]),
                                            "shortNames": st.lists(st.just("f"), max_size=1)})
status = st.fixed_dictionaries({}, optional={"storedVersions": st.lists(st.just("v1"), max_size=1),
                                             "conditions": st.lists(st.fixed_dictionaries(
                                                 {"type": st.just("Established"), "status": st.just("True")}),
                                                 max_size=1)})

v1_crds = st.fixed_dictionaries(
    {"apiVersion": st.just(V1), "kind": st.just("CustomResourceDefinition"),
     "spec": st.fixed_dictionaries({}, optional={
         "group": st.just("example.com"), "names": names, "scope": st.sampled_from(["Namespaced", "Cluster"]),
         "versions": versions("jsonPath"),
         "conversion": st.fixed_dictionaries({"strategy": st.sampled_from(["None", "Webhook"])},
                                             optional={"webhook": webhook}),
         "preserveUnknownFields": st.booleans()})},
    optional={"metadata": st.fixed_dictionaries({"name": st.just("foos.example.com")}), "status": status},
)
v1beta1_crds = st.fixed_dictionaries(
    {"apiVersion": st.just(V1BETA1), "kind": st.just("CustomResourceDefinition"),
     "spec": st.fixed_dictionaries({}, optional={
         "group": st.just("example.com"), "version": st.sampled_from(["v1", "v9"]), "names": names,
         "scope": st.sampled_from(["Namespaced", "Cluster"]), "validation": validations, "subresources": subresources,
         "versions": versions("JSONPath"), "additionalPrinterColumns": columns("JSONPath"),
         "selectableFields": selectable,
         "conversion": st.fixed_dictionaries({"strategy": st.sampled_from(["None", "Webhook"])}, optional={
             "webhookClientConfig": client_config, "conversionReviewVersions": review_versions}),
         "preserveUnknownFields": st.booleans()})},
    optional={"status": status},
)


@settings(max_examples=300, deadline=None)
@given(v1_crds)
def test_v1_internal_round_trip(raw: dict[str, Any]) -> None:
    decoded, errors = decode_crd(raw)
    assert errors == []
    # The apiserver defaults before it converts (a nil service port would come back as 0).
    decoded = default_crd(decoded)
    before = copy.deepcopy(decoded)
    inner = v1_to_internal(decoded)
    back = internal_to_v1(inner)
    assert decoded == before  # pure
    assert T.go_equal(back, decoded, T.API_V1.root)
    # ... and the internal object is a fixed point of internal -> v1 -> internal.
    assert T.go_equal(v1_to_internal(back), inner, T.API_INTERNAL.root)
    assert inner["spec"].get("version") == ((decoded["spec"].get("versions") or [{}])[0].get("name"))


@settings(max_examples=300, deadline=None)
@given(v1beta1_crds)
def test_v1beta1_internal_round_trip(raw: dict[str, Any]) -> None:
    decoded, errors = decode_crd(raw)
    assert errors == []
    defaulted = default_crd(decoded)
    inner = v1beta1_to_internal(defaulted)
    assert T.go_equal(internal_to_v1beta1(inner), defaulted, T.API_V1BETA1.root)
    # Upgrading to v1 loses nothing the internal version keeps: v1 -> internal -> v1 is stable.
    v1 = internal_to_v1(inner)
    assert T.go_equal(internal_to_v1(v1_to_internal(v1)), v1, T.API_V1.root)


# --- Semantic.DeepEqual ------------------------------------------------------------------


def test_go_equal_semantics() -> None:
    version = T.API_V1.struct("CustomResourceDefinitionVersion")
    assert T.go_equal({"name": "v1", "additionalPrinterColumns": []}, {"name": "v1"}, version)
    assert T.go_equal({"name": "v1", "served": False}, {"name": "v1"}, version)
    assert not T.go_equal({"name": "v1", "schema": {}}, {"name": "v1"}, version)  # nil vs non-nil pointer
    props = T.API_V1.struct("JSONSchemaProps")
    assert not T.go_equal({"default": 1}, {"default": 1.0}, props)  # int64 vs float64
    assert not T.go_equal({"default": 1}, {"default": True}, props)
    assert not T.go_equal({"default": {"a": []}}, {"default": {}}, props)  # JSON maps: keys matter
    assert T.go_equal({"maximum": 1}, {"maximum": 1.0}, props)  # both float64 fields
    assert not T.go_equal({"items": []}, {}, props)  # *JSONSchemaPropsOrArray: nil vs empty
    assert not T.go_equal({"additionalProperties": True}, {"additionalProperties": {}}, props)
    cond = T.API_V1.struct("CustomResourceDefinitionCondition")
    assert T.go_equal({"lastTransitionTime": "2020-01-01T01:00:00+01:00"},
                      {"lastTransitionTime": "2020-01-01T00:00:00Z"}, cond)


# --- hostile input ---------------------------------------------------------------------

junk = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=4),
    lambda kids: st.lists(kids, max_size=3) | st.dictionaries(
        st.sampled_from(["spec", "versions", "schema", "openAPIV3Schema", "conversion", "webhook", "clientConfig",
                         "service", "port", "names", "kind", "items", "properties", "default", "name", "storage",
                         "status", "storedVersions", "validation", "webhookClientConfig", "version", "x"]),
        kids, max_size=4),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from([V1, V1BETA1]), junk)
def test_hostile_input_never_raises(api_version: str, spec: Any) -> None:
    raw = {"apiVersion": api_version, "kind": "CustomResourceDefinition", "spec": spec}
    before = copy.deepcopy(raw)
    # Undecoded junk straight into defaulting and conversion ...
    default_crd(raw)
    to_internal(raw)
    internal_to_v1(raw)
    internal_to_v1beta1(raw)
    # ... and the normal pipeline.
    decoded, _ = decode_crd(raw)
    for target in ("v1", "v1beta1"):
        convert_crd(decoded, target)
    assert repr(raw) == repr(before)
