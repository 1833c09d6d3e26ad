"""PersistentVolumeClaim create: ``testValidatePVC`` rows of kubernetes/kubernetes
``pkg/apis/core/validation/validation_test.go`` (openshift/microshift ``release-4.23`` = 1.36) on data sources and
volume attributes classes, through the create path (``PrepareForCreate``: ``DropDisabledFields``,
``EnforceDataSourceBackwardsCompatibility``, ``NormalizeDataSources`` of ``pkg/api/persistentvolumeclaim/util.go``),
and the same checks in a StatefulSet's claim templates (no create-time normalisation there)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.core.apis._create import create, pairs

IN, RQ = "FieldValueInvalid", "FieldValueRequired"


def pvc(**spec: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "10G"}}}
    body.update(spec)
    return {"apiVersion": "v1", "kind": "PersistentVolumeClaim", "metadata": {"name": "foo", "namespace": "ns"}, "spec": body}


@pytest.mark.parametrize(("spec", "expected"), [
    ({"dataSource": {"kind": "PersistentVolumeClaim", "name": "pvc1"}, "dataSourceRef": {"kind": "PersistentVolumeClaim", "name": "pvc2"}},
     ["spec: Invalid value: {}: must match dataSourceRef"]),
    # "invalid-apigroup-in-data-source": on create, a dataSource that is neither a PVC nor a VolumeSnapshot is dropped
    ({"dataSource": {"apiGroup": "^invalid", "kind": "Foo", "name": "foo1"}}, []),
    # "invalid-apigroup-in-data-source-ref": copied to dataSource on create, so both are checked
    ({"dataSourceRef": {"apiGroup": "^invalid", "kind": "Foo", "name": "foo1"}}, [
        'spec.dataSource.apiGroup: Invalid value: "^invalid": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, \'-\' or \'.\', and must start and end with an alphanumeric character (e.g. \'example.com\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\')',
        'spec.dataSourceRef.apiGroup: Invalid value: "^invalid": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, \'-\' or \'.\', and must start and end with an alphanumeric character (e.g. \'example.com\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\')']),
    ({"dataSourceRef": {"kind": "Foo", "name": ""}}, [
        "spec.dataSource.name: Required value",
        "spec.dataSource: Invalid value: \"Foo\": must be 'PersistentVolumeClaim' when referencing the default apiGroup",
        "spec.dataSourceRef.name: Required value",
        "spec.dataSourceRef: Invalid value: \"Foo\": must be 'PersistentVolumeClaim' when referencing the default apiGroup"]),
    # CrossNamespaceVolumeDataSource is Alpha off: a dataSourceRef with a namespace is dropped on create
    ({"dataSourceRef": {"kind": "PersistentVolumeClaim", "name": "x", "namespace": "Bad_NS"}}, []),
    ({"dataSource": {"kind": "VolumeSnapshot", "apiGroup": "snapshot.storage.k8s.io", "name": "snap"}}, []),
])
def test_pvc_data_sources_1_36(spec: dict[str, Any], expected: list[str]) -> None:
    errs, _, stored = create(pvc(**spec))
    assert [str(e) for e in errs] == expected


def test_normalized_data_sources_are_stored() -> None:
    stored = create(pvc(dataSource={"kind": "PersistentVolumeClaim", "name": "pvc1"}))[2]
    assert stored["spec"]["dataSourceRef"] == {"kind": "PersistentVolumeClaim", "name": "pvc1"}


@pytest.mark.parametrize(("release", "expected"), [
    ("1.33", []),  # VolumeAttributesClass Beta off: dropped on create
    ("1.34", [(IN, "spec.volumeAttributesClassName")]),  # GA on: "invalid-volume-attributes-class-name"
])
def test_volume_attributes_class_name_by_release(release: str, expected: list[tuple[str, str]]) -> None:
    errs, _, stored = create(pvc(volumeAttributesClassName="-invalid-"), release)
    assert pairs(errs) == expected
    assert ("volumeAttributesClassName" in stored["spec"]) is (release != "1.33")


def test_stateful_set_claim_template_data_sources_1_36() -> None:
    """ValidatePersistentVolumeClaimSpec on a claim template: nothing normalised, so a lone bad dataSource is
    reported (validateDataSource)."""
    claim = {"metadata": {"name": "d"}, "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}},
                                                  "dataSource": {"kind": "Foo", "name": "x"}}}
    obj = {"apiVersion": "apps/v1", "kind": "StatefulSet", "metadata": {"name": "s", "namespace": "d"},
           "spec": {"selector": {"matchLabels": {"a": "b"}}, "volumeClaimTemplates": [claim],
                    "template": {"metadata": {"labels": {"a": "b"}}, "spec": {"containers": [{"name": "c", "image": "i"}]}}}}
    assert [str(e) for e in create(obj)[0]] == [
        "spec.volumeClaimTemplates[0].spec.dataSource: Invalid value: \"Foo\": must be 'PersistentVolumeClaim' when referencing the default apiGroup"]


def test_pvc_warnings() -> None:
    """GetWarningsForPersistentVolumeClaim (pkg/api/persistentvolumeclaim/util.go, release-4.17 … 4.23)."""
    obj = pvc(resources={"requests": {"storage": "1.5"}})
    obj["metadata"]["annotations"] = {"volume.beta.kubernetes.io/storage-class": "fast"}
    errs, warnings, _ = create(obj)
    assert errs == [] and warnings == [
        'metadata.annotations[volume.beta.kubernetes.io/storage-class]: deprecated since v1.8; use "storageClassName" attribute instead',
        'spec.resources.requests[storage]: fractional byte value "1500m" is invalid, must be an integer',
    ]


def test_claim_template_warnings_paths() -> None:
    """StatefulSet WarningsOnCreate: ``spec.volumeClaimTemplates[i]`` (no ``.spec`` on create); a pod template's
    ephemeral volume: ``…ephemeral.volumeClaimTemplate.spec``."""
    claim = {"metadata": {"name": "d"}, "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "0.5Gi"}, "limits": {"storage": "1500m"}}}}
    eph = {"name": "e", "ephemeral": {"volumeClaimTemplate": {"spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "2.5"}}}}}}
    obj = {"apiVersion": "apps/v1", "kind": "StatefulSet", "metadata": {"name": "s", "namespace": "d"},
           "spec": {"selector": {"matchLabels": {"a": "b"}}, "volumeClaimTemplates": [claim],
                    "template": {"metadata": {"labels": {"a": "b"}}, "spec": {"volumes": [eph], "containers": [{"name": "c", "image": "i"}]}}}}
    errs, warnings, _ = create(obj)
    assert errs == [] and warnings == [
        'spec.template.spec.volumes[0].ephemeral.volumeClaimTemplate.spec.resources.requests[storage]: fractional byte value "2500m" is invalid, must be an integer',
        'spec.volumeClaimTemplates[0].resources.limits[storage]: fractional byte value "1500m" is invalid, must be an integer',
    ]
