"""Volume sources of a pod template, cases from kubernetes/kubernetes ``pkg/apis/core/validation/validation_test.go``
at openshift/microshift ``release-4.22`` (= 1.35): ``TestValidateVolumes`` (the volume types beyond secret, configMap,
hostPath, downwardAPI, projected and PVC), ``TestValidateCSIVolumeSource``, ``TestValidateFlexVolumeSource``,
``TestValidateEphemeralVolume``. Upstream's check is kept: same number of errors, same type, the field path ends
with the expected one, the detail contains the expected text."""

from __future__ import annotations

from typing import Any

import pytest

from crdtool.core.apis.core.validation import validate_volumes
from crdtool.core.errors import Path
from crdtool.core.releases import resolve_release

R35 = resolve_release("1.35")
REQ, INV, FORB, NSUP, LONG = "FieldValueRequired", "FieldValueInvalid", "FieldValueForbidden", "FieldValueNotSupported", "FieldValueTooLong"

ISCSI = {"targetPortal": "127.0.0.1", "iqn": "iqn.2015-02.example.com:test", "lun": 1, "fsType": "ext4"}

# (name, volume, [(type, field suffix, detail part)])
CASES: list[tuple[str, dict[str, Any], list[tuple[str, str, str]]]] = [
    ("valid GcePersistentDisk", {"name": "gce-pd", "gcePersistentDisk": {"pdName": "my-PD", "fsType": "ext4", "partition": 1}}, []),
    ("valid AWSElasticBlockStore", {"name": "aws-ebs", "awsElasticBlockStore": {"volumeID": "my-PD", "fsType": "ext4", "partition": 1}}, []),
    ("valid GitRepo", {"name": "git-repo", "gitRepo": {"repository": "my-repo", "revision": "hashstring", "directory": "target"}}, []),
    ("valid GitRepo in .", {"name": "git-repo-dot", "gitRepo": {"repository": "my-repo", "directory": "."}}, []),
    ("valid GitRepo with .. in name", {"name": "git-repo-dot-dot-foo", "gitRepo": {"repository": "my-repo", "directory": "..foo"}}, []),
    ("GitRepo starts with ../", {"name": "gitrepo", "gitRepo": {"repository": "foo", "directory": "../dots/bar"}}, [(INV, "gitRepo.directory", "must not contain '..'")]),
    ("GitRepo contains ..", {"name": "gitrepo", "gitRepo": {"repository": "foo", "directory": "dots/../bar"}}, [(INV, "gitRepo.directory", "must not contain '..'")]),
    ("GitRepo absolute target", {"name": "gitrepo", "gitRepo": {"repository": "foo", "directory": "/abstarget"}}, [(INV, "gitRepo.directory", "")]),
    ("valid ISCSI", {"name": "iscsi", "iscsi": dict(ISCSI)}, []),
    ("valid IQN: eui format", {"name": "iscsi", "iscsi": {**ISCSI, "iqn": "eui.0123456789ABCDEF"}}, []),
    ("valid IQN: naa format", {"name": "iscsi", "iscsi": {**ISCSI, "iqn": "naa.62004567BA64678D0123456789ABCDEF"}}, []),
    ("empty portal", {"name": "iscsi", "iscsi": {**ISCSI, "targetPortal": ""}}, [(REQ, "iscsi.targetPortal", "")]),
    ("empty iqn", {"name": "iscsi", "iscsi": {**ISCSI, "iqn": ""}}, [(REQ, "iscsi.iqn", "")]),
    ("invalid IQN: iqn format", {"name": "iscsi", "iscsi": {**ISCSI, "iqn": "iqn.2015-02.example.com:test;ls;"}}, [(INV, "iscsi.iqn", "")]),
    ("invalid IQN: eui format", {"name": "iscsi", "iscsi": {**ISCSI, "iqn": "eui.0123456789ABCDEFGHIJ"}}, [(INV, "iscsi.iqn", "")]),
    ("invalid IQN: naa format", {"name": "iscsi", "iscsi": {**ISCSI, "iqn": "naa.62004567BA_4-78D.123456789ABCDEF"}}, [(INV, "iscsi.iqn", "")]),
    ("valid initiatorName", {"name": "iscsi", "iscsi": {**ISCSI, "initiatorName": "iqn.2015-02.example.com:init"}}, []),
    ("invalid initiatorName", {"name": "iscsi", "iscsi": {**ISCSI, "initiatorName": "2015-02.example.com:init"}}, [(INV, "iscsi.initiatorname", "")]),
    ("empty secret (discovery)", {"name": "iscsi", "iscsi": {**ISCSI, "chapAuthDiscovery": True}}, [(REQ, "iscsi.secretRef", "")]),
    ("empty secret (session)", {"name": "iscsi", "iscsi": {**ISCSI, "chapAuthSession": True}}, [(REQ, "iscsi.secretRef", "")]),
    ("valid Glusterfs", {"name": "glusterfs", "glusterfs": {"endpoints": "host1", "path": "path"}}, []),
    ("empty hosts", {"name": "glusterfs", "glusterfs": {"endpoints": "", "path": "path"}}, [(REQ, "glusterfs.endpoints", "")]),
    ("empty path", {"name": "glusterfs", "glusterfs": {"endpoints": "host", "path": ""}}, [(REQ, "glusterfs.path", "")]),
    ("valid Flocker -- datasetUUID", {"name": "flocker", "flocker": {"datasetUUID": "d846b09d-223d-43df-ab5b-d6db2206a0e4"}}, []),
    ("valid Flocker -- datasetName", {"name": "flocker", "flocker": {"datasetName": "datasetName"}}, []),
    ("both empty", {"name": "flocker", "flocker": {"datasetName": ""}}, [(REQ, "flocker", "")]),
    ("both specified", {"name": "flocker", "flocker": {"datasetName": "datasetName", "datasetUUID": "d846b09d-223d-43df-ab5b-d6db2206a0e4"}}, [(INV, "flocker", "")]),
    ("slash in flocker datasetName", {"name": "flocker", "flocker": {"datasetName": "foo/bar"}}, [(INV, "flocker.datasetName", "must not contain '/'")]),
    ("valid RBD", {"name": "rbd", "rbd": {"monitors": ["foo"], "image": "bar", "fsType": "ext4"}}, []),
    ("empty rbd monitors", {"name": "rbd", "rbd": {"monitors": [], "image": "bar"}}, [(REQ, "rbd.monitors", "")]),
    ("empty image", {"name": "rbd", "rbd": {"monitors": ["foo"], "image": ""}}, [(REQ, "rbd.image", "")]),
    ("valid Cinder", {"name": "cinder", "cinder": {"volumeID": "29ea5088-4f60-4757-962e-dba678767887", "fsType": "ext4"}}, []),
    ("valid CephFS", {"name": "cephfs", "cephfs": {"monitors": ["foo"]}}, []),
    ("empty cephfs monitors", {"name": "cephfs", "cephfs": {"monitors": []}}, [(REQ, "cephfs.monitors", "")]),
    ("FC valid targetWWNs and lun", {"name": "fc", "fc": {"targetWWNs": ["some_wwn"], "lun": 1, "fsType": "ext4"}}, []),
    ("FC valid wwids", {"name": "fc", "fc": {"wwids": ["some_wwid"], "fsType": "ext4"}}, []),
    ("FC empty targetWWNs and wwids", {"name": "fc", "fc": {"targetWWNs": [], "lun": 1, "wwids": []}}, [(REQ, "fc.targetWWNs", "must specify either targetWWNs or wwids")]),
    ("FC invalid: both targetWWNs and wwids simultaneously", {"name": "fc", "fc": {"targetWWNs": ["some_wwn"], "lun": 1, "wwids": ["some_wwid"]}}, [(INV, "fc.targetWWNs", "targetWWNs and wwids can not be specified simultaneously")]),
    ("FC valid targetWWNs and empty lun", {"name": "fc", "fc": {"targetWWNs": ["wwn"]}}, [(REQ, "fc.lun", "lun is required if targetWWNs is specified")]),
    ("FC valid targetWWNs and invalid lun", {"name": "fc", "fc": {"targetWWNs": ["wwn"], "lun": 256}}, [(INV, "fc.lun", "must be between 0 and 255, inclusive")]),
    ("valid FlexVolume", {"name": "flex-volume", "flexVolume": {"driver": "kubernetes.io/blue", "fsType": "ext4"}}, []),
    ("valid AzureFile", {"name": "azure-file", "azureFile": {"secretName": "key", "shareName": "share"}}, []),
    ("AzureFile empty secret", {"name": "azure-file", "azureFile": {"secretName": "", "shareName": "share"}}, [(REQ, "azureFile.secretName", "")]),
    ("AzureFile empty share", {"name": "azure-file", "azureFile": {"secretName": "name", "shareName": ""}}, [(REQ, "azureFile.shareName", "")]),
    ("valid Quobyte", {"name": "quobyte", "quobyte": {"registry": "registry:7861", "volume": "volume", "user": "root", "group": "root", "tenant": "ThisIsSomeTenantUUID"}}, []),
    ("empty registry quobyte", {"name": "quobyte", "quobyte": {"volume": "/test", "tenant": "ThisIsSomeTenantUUID"}}, [(REQ, "quobyte.registry", "")]),
    ("wrong format registry quobyte", {"name": "quobyte", "quobyte": {"registry": "registry7861", "volume": "/test", "tenant": "ThisIsSomeTenantUUID"}}, [(INV, "quobyte.registry", "")]),
    ("wrong format multiple registries quobyte", {"name": "quobyte", "quobyte": {"registry": "registry:7861,reg2", "volume": "/test", "tenant": "ThisIsSomeTenantUUID"}}, [(INV, "quobyte.registry", "")]),
    ("empty volume quobyte", {"name": "quobyte", "quobyte": {"registry": "registry:7861", "tenant": "ThisIsSomeTenantUUID"}}, [(REQ, "quobyte.volume", "")]),
    ("empty tenant quobyte", {"name": "quobyte", "quobyte": {"registry": "registry:7861", "volume": "/test", "tenant": ""}}, []),
    ("too long tenant quobyte", {"name": "quobyte", "quobyte": {"registry": "registry:7861", "volume": "/test", "tenant": "this is too long to be a valid uuid so this test has to fail on the maximum length validation of the tenant."}}, [(REQ, "quobyte.tenant", "")]),
    ("valid AzureDisk", {"name": "azure-disk", "azureDisk": {"diskName": "foo", "diskURI": "https://blob/vhds/bar.vhd"}}, []),
    ("AzureDisk empty disk name", {"name": "azure-disk", "azureDisk": {"diskName": "", "diskURI": "https://blob/vhds/bar.vhd"}}, [(REQ, "azureDisk.diskName", "")]),
    ("AzureDisk empty disk uri", {"name": "azure-disk", "azureDisk": {"diskName": "foo", "diskURI": ""}}, [(REQ, "azureDisk.diskURI", "")]),
    ("valid scaleio volume", {"name": "scaleio-volume", "scaleIO": {"gateway": "http://abcd/efg", "system": "test-system", "volumeName": "test-vol-1"}}, []),
    ("ScaleIO with empty name", {"name": "scaleio-volume", "scaleIO": {"gateway": "http://abcd/efg", "system": "test-system", "volumeName": ""}}, [(REQ, "scaleIO.volumeName", "")]),
    ("ScaleIO with empty gateway", {"name": "scaleio-volume", "scaleIO": {"gateway": "", "system": "test-system", "volumeName": "test-vol-1"}}, [(REQ, "scaleIO.gateway", "")]),
    ("ScaleIO with empty system", {"name": "scaleio-volume", "scaleIO": {"gateway": "http://agc/efg/gateway", "system": "", "volumeName": "test-vol-1"}}, [(REQ, "scaleIO.system", "")]),
    ("image volume with empty reference on other object", {"name": "image-volume", "image": {"reference": "", "pullPolicy": "IfNotPresent"}}, []),
    ("image volume with wrong pullPolicy", {"name": "image-volume", "image": {"reference": "quay.io/my/artifact:v1", "pullPolicy": "wrong"}}, [(NSUP, "image.pullPolicy", "")]),
    ("no volume source", {"name": "volume"}, [(REQ, "field[0]", "must specify a volume type")]),
]

# TestValidateCSIVolumeSource: (driver, secret ref name or None, first error (type, field) or None)
CSI_CASES: list[tuple[str, str | None, tuple[str, str] | None]] = [
    ("test-driver", None, None),
    ("", None, (REQ, "driver")),
    ("comgooglestoragecsigcepd", None, None),
    ("io.kubernetes.storage.csi.flex", None, None),
    ("io-kubernetes-storage-csi-flex", None, None),
    ("io_kubernetes_storage_csi_flex", None, (INV, "driver")),
    ("io.kubernetes.storage_csi.flex", None, (INV, "driver")),
    ("2io.kubernetes.storage-csi.flex", None, None),
    ("io.kubernetes.storage-csi.flex2", None, None),
    ("io.kubernetes-storage.csi_flex", None, (INV, "driver")),
    ("a", None, None),
    ("g" * 65, None, (LONG, "driver")),
    ("_comgooglestoragecsigcepd", None, (INV, "driver")),
    ("comgooglestoragecsigcepd/", None, (INV, "driver")),
    ("com/google/storage/csi~gcepd", None, (INV, "driver")),
    ("com.google.gcepd", "foobar", None),
    ("com.google.gcepd", "", (REQ, "nodePublishSecretRef.name")),
]


def _errs(volume: dict[str, Any]) -> list[Any]:
    return validate_volumes([volume], Path("field"), R35)[1]


@pytest.mark.parametrize(("name", "volume", "want"), CASES, ids=[c[0] for c in CASES])
def test_validate_volumes_1_35(name: str, volume: dict[str, Any], want: list[tuple[str, str, str]]) -> None:
    """TestValidateVolumes @1.35 (release-4.22)."""
    got = _errs(volume)
    assert len(got) == len(want), [str(e) for e in got]
    for err, (etype, fld, detail) in zip(got, want):
        assert err.type == etype
        assert err.field == fld or err.field.endswith("." + fld)
        assert detail in err.detail


@pytest.mark.parametrize(("driver", "secret", "want"), CSI_CASES)
def test_validate_csi_volume_source_1_35(driver: str, secret: str | None, want: tuple[str, str] | None) -> None:
    """TestValidateCSIVolumeSource @1.35: the first error's type and field."""
    csi: dict[str, Any] = {"driver": driver}
    if secret is not None:
        csi["nodePublishSecretRef"] = {"name": secret}
    got = _errs({"name": "csi", "csi": csi})
    if want is None:
        assert got == []
    else:
        assert got and got[0].type == want[0] and got[0].field.endswith("." + want[1])


def test_validate_flex_volume_source_1_35() -> None:
    """TestValidateFlexVolumeSource @1.35 "reserved option keys": exactly the kubernetes.io/k8s.io namespaces."""
    valid = ["myns.io", "myns.io/bar", "myns.io/kubernetes.io"]
    bad = ["KUBERNETES.IO", "kubernetes.io", "kubernetes.io/", "kubernetes.io/foo", "alpha.kubernetes.io", "alpha.kubernetes.io/",
           "alpha.kubernetes.io/foo", "k8s.io", "k8s.io/", "k8s.io/foo", "alpha.k8s.io", "alpha.k8s.io/", "alpha.k8s.io/foo"]
    got = _errs({"name": "flex", "flexVolume": {"driver": "foo", "options": dict.fromkeys(valid + bad, "A")}})
    assert {e.field for e in got} == {f"field[0].flexVolume.options[{k}]" for k in bad}
    assert all("reserved" in e.detail for e in got)
    assert [str(e) for e in _errs({"name": "flex", "flexVolume": {"driver": ""}})] == ["field[0].flexVolume.driver: Required value"]


def test_upstream_path_spellings() -> None:
    """validateVolumeSource's own spellings: ``downwarAPI`` and ``cephFS`` in "more than 1", ``persistentDisk`` for
    a GCE disk's fields (validation.go @release-4.17 … 4.23)."""
    got = _errs({"name": "v", "emptyDir": {}, "downwardAPI": {}, "cephfs": {"monitors": ["m"]}})
    assert [e.field for e in got] == ["field[0].cephFS", "field[0].downwarAPI"]
    got = _errs({"name": "v", "gcePersistentDisk": {"pdName": "", "partition": 256}})
    assert [str(e) for e in got] == [
        "field[0].persistentDisk.pdName: Required value",
        "field[0].persistentDisk.partition: Invalid value: 256: must be between 1 and 255, inclusive",
    ]


def test_iscsi_initiator_name_length() -> None:
    """``<volume name>:<targetPortal>`` over 64 bytes with an initiator name is invalid at ``name``."""
    got = _errs({"name": "v" * 60, "iscsi": {**ISCSI, "initiatorName": "iqn.2015-02.example.com:init"}})
    assert [(e.type, e.field) for e in got] == [(INV, "field[0].name")]
    assert got[0].detail.startswith("Total length of <volume name>:<iscsi.targetPortal> must be under 64 characters")


def test_ephemeral_volume_template() -> None:
    """TestValidateEphemeralVolume-style checks: a claim template is required; its metadata takes only labels and
    annotations (``ValidateTemplateObjectMeta``); its spec is a PVC spec."""
    assert [str(e) for e in _errs({"name": "e", "ephemeral": {}})] == ["field[0].ephemeral.volumeClaimTemplate: Required value"]
    spec = {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}}}
    assert _errs({"name": "e", "ephemeral": {"volumeClaimTemplate": {"metadata": {"labels": {"a": "b"}}, "spec": spec}}}) == []
    got = _errs({"name": "e", "ephemeral": {"volumeClaimTemplate": {"metadata": {"name": "x", "uid": "u"}, "spec": {}}}})
    assert [str(e) for e in got] == [
        "field[0].ephemeral.volumeClaimTemplate.metadata.name: Forbidden: cannot be set",
        "field[0].ephemeral.volumeClaimTemplate.metadata.uID: Forbidden: cannot be set",
        "field[0].ephemeral.volumeClaimTemplate.spec.accessModes: Required value: at least 1 access mode is required",
        "field[0].ephemeral.volumeClaimTemplate.spec.resources[storage]: Required value",
    ]
