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
