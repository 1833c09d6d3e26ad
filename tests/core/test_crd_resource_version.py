"""A CRD create that sets metadata.resourceVersion fails in storage, as a custom resource's does.

Derived from k8s.io/apiserver v0.36.3 ``pkg/storage/etcd3/store.go`` ``store.Create`` (``if version, err :=
s.versioner.ObjectResourceVersion(obj); err == nil && version != 0 { return storage.ErrResourceVersionSetOnCreate
}``), ``pkg/storage/api_object_versioner.go`` ``ObjectResourceVersion`` (``strconv.ParseUint(rv, 10, 64)``),
``pkg/storage/errors.go`` (``resourceVersion should not be set on objects to be created``) and
``pkg/registry/generic/registry/store.go`` ``Store.Create`` (``rest.BeforeCreate``, i.e. validation, first).
apiextensions-apiserver v0.36.3 stores CRDs through that ``genericregistry.Store``
(``pkg/registry/customresourcedefinition/etcd.go``), and ``strategy.go`` ``PrepareForCreate`` leaves
``resourceVersion`` alone.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from crdtool.core.crd.manifest import check_crd_manifest

DETAIL = "resourceVersion should not be set on objects to be created"

# what `kubectl get crd widgets.example.com -o yaml` prints (server-filled fields included)
EXPORTED: dict[str, Any] = {
    "apiVersion": "apiextensions.k8s.io/v1",
    "kind": "CustomResourceDefinition",
    "metadata": {
        "name": "widgets.example.com", "resourceVersion": "12345", "generation": 1,
        "uid": "0b7a3f0e-5c1b-4d0e-9d1a-0a1b2c3d4e5f", "creationTimestamp": "2024-01-02T03:04:05Z",
    },
    "spec": {
        "group": "example.com", "scope": "Namespaced",
        "names": {"plural": "widgets", "singular": "widget", "kind": "Widget", "listKind": "WidgetList"},
        "versions": [{"name": "v1", "served": True, "storage": True, "schema": {"openAPIV3Schema": {"type": "object"}}}],
        "conversion": {"strategy": "None"},
    },
    "status": {
        "acceptedNames": {"plural": "widgets", "singular": "widget", "kind": "Widget", "listKind": "WidgetList"},
        "storedVersions": ["v1"],
        "conditions": [{"type": "Established", "status": "True", "reason": "InitialNamesAccepted",
                        "message": "the initial names have been accepted", "lastTransitionTime": "2024-01-02T03:04:05Z"}],
    },
}


def findings(doc: dict[str, Any], **kw: Any) -> list[tuple[str, str, str, Any]]:
    return [(f.error.type, f.error.field, f.error.detail, f.error.bad_value) for f in check_crd_manifest(doc, **kw).findings]


def with_rv(rv: str | None) -> dict[str, Any]:
    doc = copy.deepcopy(EXPORTED)
    if rv is None:
        del doc["metadata"]["resourceVersion"]
    else:
        doc["metadata"]["resourceVersion"] = rv
    return doc


def test_an_exported_crd_is_refused_by_storage() -> None:
    assert findings(EXPORTED) == [("InternalError", "metadata.resourceVersion", DETAIL, None)]
    [finding] = check_crd_manifest(EXPORTED).findings
    assert str(finding.error) == f"metadata.resourceVersion: Internal error: {DETAIL}"
    assert finding.upstream_field is None


@pytest.mark.parametrize(
    ("rv", "refused"),
    [("12345", True), ("1", True), (str(2**64 - 1), True), (None, False), ("", False), ("0", False), ("00", False),
     ("abc", False), ("-1", False), (str(2**64), False)],
)
def test_only_a_parsable_non_zero_version_is_refused(rv: str | None, refused: bool) -> None:
    assert findings(with_rv(rv)) == ([("InternalError", "metadata.resourceVersion", DETAIL, None)] if refused else [])


def test_validation_errors_come_instead() -> None:
    # BeforeCreate's validation answers first: the request never reaches storage
    doc = with_rv("12345")
    del doc["spec"]["names"]["plural"]
    assert [f[:2] for f in findings(doc)] == [("FieldValueInvalid", "metadata.name"), ("FieldValueRequired", "spec.names.plural")]


def test_storage_false_judges_the_manifest_only() -> None:
    assert findings(EXPORTED, storage=False) == []
