"""The custom-resource request path per Kubernetes release (1.30 … 1.37): what changed, and when.

Each case names the upstream file and tag it is transcribed from, or is marked *derived* when it was
worked out by reading upstream's code at the tags (not run upstream). Texts are ``str(error)`` (upstream's
``Error()``); the releases outside a case's boundaries behave as its nearest release.
"""

from __future__ import annotations

import importlib.util
from typing import Any

import pytest

from crdtool.core.customresource import apply_create, apply_update, validate_object, validate_object_update
from crdtool.core.customresource.create import BLOCKING_ERROR_DETAIL

HAS_CEL = importlib.util.find_spec("crdtool.core.crdcel.validation") is not None
needs_cel = pytest.mark.skipif(not HAS_CEL, reason="needs CEL evaluation (crdtool.core.crdcel.validation)")

GROUP = "example.com"


def make_crd(spec_schema: dict[str, Any] | None = None, *, root: dict[str, Any] | None = None) -> dict[str, Any]:
    if root is None:
        root = {"type": "object", "properties": {"spec": spec_schema or {"type": "object"}}}
    return {
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": f"foos.{GROUP}"},
        "spec": {
            "group": GROUP,
            "scope": "Namespaced",
            "names": {"plural": "foos", "singular": "foo", "kind": "Foo", "listKind": "FooList"},
            "versions": [{"name": "v1", "served": True, "storage": True, "schema": {"openAPIV3Schema": root}}],
        },
    }


def make_cr(spec: Any = None, **meta: Any) -> dict[str, Any]:
    obj: dict[str, Any] = {"apiVersion": f"{GROUP}/v1", "kind": "Foo", "metadata": {"name": "foo", **meta}}
    if spec is not None:
        obj["spec"] = spec
    return obj


def texts(obj: dict[str, Any], crd: dict[str, Any], version: str) -> list[str]:
    return [str(e) for e in validate_object(obj, crd, kubernetes_version=version)]


def update_texts(new: dict[str, Any], old: dict[str, Any], crd: dict[str, Any], version: str) -> list[str]:
    return [str(e) for e in validate_object_update(new, old, crd, kubernetes_version=version)]


# --- ObjectMeta: 1.36 -> 1.37 --------------------------------------------------------------------------

CEL_SPEC = {"type": "object", "properties": {"x": {"type": "integer"}}, "x-kubernetes-validations": [{"rule": "self.x > 0"}]}
BLOCKED_33 = f'<nil>: Invalid value: "null": {BLOCKING_ERROR_DETAIL}'
BLOCKED = f"<nil>: Invalid value: null: {BLOCKING_ERROR_DETAIL}"


@needs_cel
def test_empty_owner_reference_fields_are_required_and_block_cel_in_1_37() -> None:
    # apimachinery objectmeta.go@v0.37.0-beta.0 validateOwnerReference (Required, indexed) and
    # apiextensions strategy.go hasBlockingErr (Required blocks CEL); derived
    crd = make_crd(CEL_SPEC)
    obj = make_cr({"x": 0}, ownerReferences=[{"apiVersion": "v1", "kind": "ConfigMap", "name": "c"}])
    assert texts(obj, crd, "1.37") == [
        "metadata.ownerReferences[0].uid: Required value: must not be empty",
        BLOCKED,
    ]
    # objectmeta.go@v0.36.3: Invalid, not indexed, not blocking: the rule runs
    assert texts(obj, crd, "1.36") == [
        'metadata.ownerReferences.uid: Invalid value: "": must not be empty',
        "spec: Invalid value: failed rule: self.x > 0",
    ]
    # objectmeta.go@v0.33.13: "uid must not be empty" (the failed rule follows)
    assert texts(obj, crd, "1.33")[0] == 'metadata.ownerReferences.uid: Invalid value: "": uid must not be empty'



def test_owner_reference_api_version_without_version_1_37() -> None:
    # objectmeta_test.go@v0.37.0-beta.0 TestValidateObjectMetaOwnerReferences "invalid apiVersion with empty version"
    obj = make_cr(ownerReferences=[{"apiVersion": "foo/", "kind": "Pod", "name": "name", "uid": "1"}])
    assert texts(obj, make_crd(), "1.37") == [
        'metadata.ownerReferences[0].apiVersion: Invalid value: "foo/": must be <group>/<version> or <version>'
    ]
    assert texts(obj, make_crd(), "1.36") == [
        'metadata.ownerReferences.apiVersion: Invalid value: "foo/": version must not be empty'
    ]


def test_negative_generation_on_update_1_37() -> None:
    # objectmeta.go@v0.37.0-beta.0 ValidateObjectMetaAccessorUpdate checks the generation too: the error
    # comes from rest.validateCommonFields' create and update rules and the strategy's update rules; derived
    old = make_cr({"a": 1}, generation=-1, resourceVersion="1")
    new = make_cr({"a": 1}, generation=-1, resourceVersion="1")
    crd = make_crd({"type": "object", "properties": {"a": {"type": "integer"}}})
    negative = "metadata.generation: Invalid value: -1: must be greater than or equal to 0"
    assert update_texts(new, old, crd, "1.37") == [negative] * 3
    assert update_texts(new, old, crd, "1.36") == [negative]


# --- field.Error text: 1.33 -> 1.34 (apimachinery field/errors.go@v0.34.0 ErrorBody) -------------------


@needs_cel
def test_blocking_error_text() -> None:
    # strategy.go hasBlockingErr: field.Invalid(nil, nil, ...): nil rendered "null" (quoted) before 1.34.
    # The blocking error here is a TooLong (maxLength), whose text changed in 1.32 and 1.34 (validation_test.go
    # "maxLength" @v0.31.14 / @v0.32.13; field/errors.go@v0.34.0 singular)
    spec = {"type": "object", "properties": {"s": {"type": "string", "maxLength": 1}},
            "x-kubernetes-validations": [{"rule": "size(self.s) > 5"}]}
    obj = make_cr({"s": "ab"})
    assert texts(obj, make_crd(spec), "1.37") == ["spec.s: Too long: may not be more than 1 byte", BLOCKED]
    assert texts(obj, make_crd(spec), "1.34") == ["spec.s: Too long: may not be more than 1 byte", BLOCKED]
    assert texts(obj, make_crd(spec), "1.33") == ["spec.s: Too long: may not be more than 1 bytes", BLOCKED_33]
    assert texts(obj, make_crd(spec), "1.31") == ["spec.s: Too long: may not be longer than 1", BLOCKED_33]
    # to_dict's message is the same text; the TooLong's badValue is the value again before 1.32
    [too_long, _] = validate_object(obj, make_crd(spec), kubernetes_version="1.31")
    assert too_long.to_dict()["message"] == "spec.s: Too long: may not be longer than 1"
    assert too_long.to_dict()["badValue"] == "ab"


def test_composite_bad_values_before_1_34() -> None:
    # listtype/validation.go field.Duplicate(path, map[string]interface{}{key: value}) and the enum's
    # field.NotSupported(path, value, ...): %#v before 1.34, JSON after (field/errors.go@v0.34.0)
    spec = {"type": "object", "properties": {
        "l": {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["k"],
              "items": {"type": "object", "required": ["k"], "properties": {"k": {"type": "string"}}}},
        "o": {"type": "object", "x-kubernetes-preserve-unknown-fields": True, "enum": [{"a": 1}]},
    }}
    obj = make_cr({"l": [{"k": "a"}, {"k": "a"}], "o": {"b": 2}})
    assert texts(obj, make_crd(spec), "1.34") == [
        'spec.o: Unsupported value: {"b":2}: supported values: "{\\"a\\":1}"',
        'spec.l[1]: Duplicate value: {"k":"a"}',
    ]
    assert texts(obj, make_crd(spec), "1.33") == [
        'spec.o: Unsupported value: map[string]interface {}{"b":2}: supported values: "{\\"a\\":1}"',
        'spec.l[1]: Duplicate value: map[string]interface {}{"k":"a"}',
    ]


def test_too_many_items_singular_from_1_34() -> None:
    # field/errors.go@v0.34.0 TooMany: "1 item"; @v0.33.13 "1 items"
    spec = {"type": "object", "properties": {"l": {"type": "array", "maxItems": 1, "items": {"type": "integer"}}}}
    obj = make_cr({"l": [1, 2]})
    assert texts(obj, make_crd(spec), "1.34") == ["spec.l: Too many: 2: must have at most 1 item"]
    assert texts(obj, make_crd(spec), "1.33") == ["spec.l: Too many: 2: must have at most 1 items"]


def test_annotations_too_long_text() -> None:
    # objectmeta.go ValidateAnnotations: field.TooLong(path, "", 262144): "must have at most 262144 bytes"
    # (field/errors.go@v0.31.14) until 1.32, "may not be more than 262144 bytes" after
    obj = make_cr(annotations={"a": "x" * (256 * 1024)})
    assert texts(obj, make_crd(), "1.31") == ["metadata.annotations: Too long: must have at most 262144 bytes"]
    assert texts(obj, make_crd(), "1.32") == ["metadata.annotations: Too long: may not be more than 262144 bytes"]


def test_update_without_resource_version_before_1_34() -> None:
    # store.go Store.Update: field.Invalid(metadata.resourceVersion, uint64(0), ...): %#v of a uint64 is 0x0
    # (field/errors.go@v0.33.13, verified with Go's fmt), json.Marshal gives 0 (@v0.34.0)
    old = make_cr({}, resourceVersion="1")
    new = make_cr({})
    assert update_texts(new, old, make_crd(), "1.34") == ["metadata.resourceVersion: Invalid value: 0: must be specified for an update"]
    assert update_texts(new, old, make_crd(), "1.33") == [
        "metadata.resourceVersion: Invalid value: 0x0: must be specified for an update"
    ]


def test_deletion_timestamp_set_on_update() -> None:
    # objectmeta.go ValidateObjectMetaAccessorUpdate (deletionTimestamp immutable; a *metav1.Time: String()
    # before 1.34, JSON after, objectmeta_test.go@v0.34.10 vs @v0.33.13), reported by rest.validateCommonFields
    # and by the strategy; the time is decoded and written back in UTC, whole seconds; derived
    old = make_cr({}, resourceVersion="1")
    new = make_cr({}, resourceVersion="1", deletionTimestamp="2024-01-01T01:00:00+01:00")
    at_34 = 'metadata.deletionTimestamp: Invalid value: "2024-01-01T00:00:00Z": field is immutable'
    at_33 = "metadata.deletionTimestamp: Invalid value: 2024-01-01 00:00:00 +0000 UTC: field is immutable"
    assert update_texts(new, old, make_crd(), "1.37") == [at_34, at_34]
    assert update_texts(new, old, make_crd(), "1.33") == [at_33, at_33]


# --- embedded resources: 1.33 -> 1.34 (schema/objectmeta/validation.go@v0.34.0) --------------------------


def test_embedded_resource_without_api_version() -> None:
    spec = {"type": "object", "properties": {"e": {"type": "object", "x-kubernetes-embedded-resource": True,
                                                   "x-kubernetes-preserve-unknown-fields": True}}}
    obj = make_cr({"e": {"kind": "Pod"}})
    assert texts(obj, make_crd(spec), "1.34") == ["spec.e.apiVersion: Required value"]
    assert texts(obj, make_crd(spec), "1.33") == ["spec.e.apiVersion: Required value: must not be empty"]


# --- labels and finalizers ---------------------------------------------------------------------------


def test_label_value_too_long_text() -> None:
    # util/validation IsValidLabelValue = content.IsLabelValue from v0.35.0 ("bytes"); "characters" before
    value = "x" * 64
    prefix = f'metadata.labels: Invalid value: "{value}": must be no more than 63 '
    assert texts(make_cr(labels={"a": value}), make_crd(), "1.35") == [prefix + "bytes"]
    assert texts(make_cr(labels={"a": value}), make_crd(), "1.34") == [prefix + "characters"]


@pytest.mark.parametrize(
    ("version", "warning"),
    [
        # validator.go@v0.32.0 validateKubeFinalizerName: a name with a "." gets the path advice
        ("1.32", 'metadata.finalizers: "a.b": prefer a domain-qualified finalizer name including a path (/) '
                 "to avoid accidental conflicts with other finalizer writers"),
        # validator.go@v0.31.14
        ("1.31", 'metadata.finalizers: "a.b": prefer a domain-qualified finalizer name to avoid accidental '
                 "conflicts with other finalizer writers"),
    ],
)
def test_finalizer_warning(version: str, warning: str) -> None:
    result = apply_create(make_cr(finalizers=["a.b"]), make_crd(), kubernetes_version=version)
    assert result.errors == []
    assert result.warnings == [warning]
    # on update, for an added finalizer
    old = make_cr(resourceVersion="1")
    updated = apply_update(make_cr(resourceVersion="1", finalizers=["a.b"]), old, make_crd(), kubernetes_version=version)
    assert updated.errors == [] and updated.warnings == [warning]


# --- formats ----------------------------------------------------------------------------------------


def test_k8s_short_name_format_from_1_35() -> None:
    # formats.go@v0.34.10: introduced at compatibility version 1.34, i.e. validated from Kubernetes 1.35
    spec = {"type": "object", "properties": {"n": {"type": "string", "format": "k8s-short-name"}}}
    obj = make_cr({"n": "a-"})
    assert texts(obj, make_crd(spec), "1.35") == ['spec.n: Invalid value: "a-": spec.n in body must be of type k8s-short-name: "a-"']
    assert texts(obj, make_crd(spec), "1.34") == []


def test_string_format_on_an_integer_before_1_36() -> None:
    # formats.go@v0.35.7 keeps a supported string format on any type; kube-openapi's typeValidator then
    # wants the format for a float (derived); formats.go@v0.36.0 strips it from an integer
    spec = {"type": "object", "properties": {"n": {"type": "integer", "format": "date"}}}
    obj = make_cr({"n": 1.5})
    assert texts(obj, make_crd(spec), "1.35") == ['spec.n: Invalid value: "float64": spec.n in body must be of type date: "float64"']
    assert texts(obj, make_crd(spec), "1.36") == [
        'spec.n: Invalid value: "number": spec.n in body must be of type integer: "number"',
        '<nil>: Invalid value: "": Checked value must be of type integer (default format) in spec.n',
    ]


# --- metadata timestamps (every release) ----------------------------------------------------------------


@pytest.mark.parametrize("version", ["1.30", "1.37"])
def test_metadata_timestamps_are_decoded_as_metav1_time(version: str) -> None:
    # apimachinery meta/v1/time.go (unchanged v0.30 … v0.37): UnmarshalJSON is time.Parse(time.RFC3339, s),
    # whose error fails the request; ToUnstructured writes UTC, whole seconds, and leaves the zero time out
    crd = make_crd()
    bad = apply_create(make_cr(creationTimestamp="2024-13-01T00:00:00Z"), crd, kubernetes_version=version)
    assert [str(e) for e in bad.errors] == ['parsing time "2024-13-01T00:00:00Z": month out of range']
    good = apply_create(make_cr(creationTimestamp="2024-01-01T01:00:00.5+01:00"), crd, kubernetes_version=version)
    assert good.errors == [] and good.stored["metadata"]["creationTimestamp"] == "2024-01-01T00:00:00Z"
    zero = apply_create(make_cr(creationTimestamp="0001-01-01T00:00:00Z"), crd, kubernetes_version=version)
    assert zero.errors == [] and "creationTimestamp" not in zero.stored["metadata"]
