"""``TestValidateStatefulSet`` of kubernetes/kubernetes ``pkg/apis/apps/validation/validation_test.go``
(openshift/microshift ``release-4.23`` = 1.36) through the create path, compared as upstream does (type and field
of every error, sorted; details and bad values ignored), and the bad values of the internal structs
(``apps.StatefulSetUpdateStrategy``, ``*apps.RollingUpdateStatefulSetStrategy``: Go field names in JSON from 1.34,
``%#v`` before). Rows that need an unset field the v1 defaults fill (empty pod management policy, empty update
strategy) have no v1 form and are left out."""

from __future__ import annotations

from typing import Any

import pytest

from tests.core.apis._create import create

IN, RQ, NS, NF, FB, DU = "FieldValueInvalid", "FieldValueRequired", "FieldValueNotSupported", "FieldValueNotFound", "FieldValueForbidden", "FieldValueDuplicate"
CTR = {"name": "abc", "image": "image", "imagePullPolicy": "IfNotPresent"}
MOUNTED = {**CTR, "ports": [{"containerPort": 12345, "protocol": "TCP"}], "volumeMounts": [{"name": "test", "mountPath": "/test"}]}


def claim(name: str, **spec: Any) -> dict[str, Any]:
    return {"metadata": {"name": name}, "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}}, **spec}}


def sts(container: dict[str, Any] | None = None, labels: dict[str, str] | None = None, pod: dict[str, Any] | None = None, **spec: Any) -> dict[str, Any]:
    tspec: dict[str, Any] = {"containers": [container or CTR]}
    tspec.update(pod or {})
    body: dict[str, Any] = {"selector": {"matchLabels": {"a": "b"}}, "template": {"metadata": {"labels": labels if labels is not None else {"a": "b"}}, "spec": tspec}}
    body.update(spec)
    return {"apiVersion": "apps/v1", "kind": "StatefulSet", "metadata": {"name": "abc", "namespace": "default"}, "spec": body}


def rolling(**ru: Any) -> dict[str, Any]:
    return {"updateStrategy": {"type": "RollingUpdate", "rollingUpdate": ru}}


SUCCESS: list[tuple[str, dict[str, Any]]] = [
    ("alphanumeric name", sts()),
    ("hostNetwork true", sts({**CTR, "ports": [{"containerPort": 12345, "protocol": "TCP"}]}, pod={"hostNetwork": True})),
    ("parallel pod management", sts(podManagementPolicy="Parallel")),
    ("PVC policy", sts(persistentVolumeClaimRetentionPolicy={"whenDeleted": "Delete", "whenScaled": "Retain"})),
    ("maxUnavailable with parallel pod management", sts(replicas=3, podManagementPolicy="Parallel", **rolling(partition=2, maxUnavailable=2))),
    ("ordinals.start positive value", sts(replicas=3, ordinals={"start": 2})),
    # overwritten by the controller (initIdentity), not validated
    ("invalid subdomain", sts(pod={"subdomain": "NoUppercaseOrSpecialCharsLike=Equals"})),
    ("invalid hostname", sts(pod={"hostname": "NoUppercaseOrSpecialCharsLike=Equals"})),
    ("volume template in pod volumeMounts", sts(MOUNTED, volumeClaimTemplates=[claim("test")])),
    ("volume templates present in volumes", sts(MOUNTED, pod={"volumes": [{"name": "test", "persistentVolumeClaim": {"claimName": "test"}}]},
                                                volumeClaimTemplates=[claim("test")])),
]


@pytest.mark.parametrize("obj", [c[1] for c in SUCCESS], ids=[c[0] for c in SUCCESS])
def test_stateful_set_success_cases_1_36(obj: dict[str, Any]) -> None:
    assert [str(e) for e in create(obj)[0]] == []


def named(name: str) -> dict[str, Any]:
    obj = sts()
    obj["metadata"]["name"] = name
    return obj


def no_namespace() -> dict[str, Any]:
    obj = sts()
    del obj["metadata"]["namespace"]
    return obj


ERRORS: list[tuple[str, dict[str, Any], list[tuple[str, str]]]] = [
    ("zero-length name", named(""), [(RQ, "metadata.name")]),
    ("name-with-dots", named("abc.123"), [(IN, "metadata.name")]),
    ("long name", named("a" * 64), [(IN, "metadata.name")]),
    ("missing-namespace", no_namespace(), [(RQ, "metadata.namespace")]),
    ("selector_doesnt_match", sts(selector={"matchLabels": {"foo": "bar"}}), [(IN, "spec.template.metadata.labels")]),
    ("negative_replicas", sts(replicas=-1), [(IN, "spec.replicas")]),
    ("invalid restart policy 1", sts(pod={"restartPolicy": "OnFailure"}), [(NS, "spec.template.spec.restartPolicy")]),
    ("invalid restart policy 2", sts(pod={"restartPolicy": "Never"}), [(NS, "spec.template.spec.restartPolicy")]),
    ("invalid update strategy", sts(replicas=3, updateStrategy={"type": "foo"}), [(IN, "spec.updateStrategy")]),
    ("invalid rolling update", sts(replicas=3, updateStrategy={"type": "OnDelete", "rollingUpdate": {"partition": 1}}), [(IN, "spec.updateStrategy.rollingUpdate")]),
    ("negative parition", sts(replicas=3, **rolling(partition=-1)), [(IN, "spec.updateStrategy.rollingUpdate.partition")]),
    ("invalid pod management policy", sts(podManagementPolicy="foo"), [(IN, "spec.podManagementPolicy")]),
    ("set active deadline seconds", sts(replicas=3, pod={"activeDeadlineSeconds": 60}), [(FB, "spec.template.spec.activeDeadlineSeconds")]),
    ("invalid PersistentVolumeClaimRetentionPolicy", sts(persistentVolumeClaimRetentionPolicy={"whenDeleted": "invalid-retention-policy", "whenScaled": "invalid-retention-policy"}),
     [(NS, "spec.persistentVolumeClaimRetentionPolicy.whenDeleted"), (NS, "spec.persistentVolumeClaimRetentionPolicy.whenScaled")]),
    ("zero maxUnavailable", sts(replicas=3, **rolling(maxUnavailable=0)), [(IN, "spec.updateStrategy.rollingUpdate.maxUnavailable")]),
    ("zero percent maxUnavailable", sts(replicas=3, **rolling(maxUnavailable="0%")), [(IN, "spec.updateStrategy.rollingUpdate.maxUnavailable")]),
    ("greater than 100 percent maxUnavailable", sts(replicas=3, **rolling(maxUnavailable="101%")), [(IN, "spec.updateStrategy.rollingUpdate.maxUnavailable")]),
    ("invalid ordinals.start", sts(replicas=3, ordinals={"start": -2}), [(IN, "spec.ordinals.start")]),
    ("invalid service name", sts(serviceName="Invalid.Name"), [(IN, "spec.serviceName")]),
    ("missing volume in pod volumeMounts", sts(MOUNTED), [(NF, "spec.template.spec.containers[0].volumeMounts[0].name")]),
    ("want test volumeMount but have test1 volumeTemplate", sts(MOUNTED, volumeClaimTemplates=[claim("test1")]), [(NF, "spec.template.spec.containers[0].volumeMounts[0].name")]),
    ("duplicate volumes", sts(pod={"volumes": [{"name": "test1", "emptyDir": {}}, {"name": "test1", "emptyDir": {}}]}), [(DU, "spec.template.spec.volumes[1].name")]),
    ("invalid volumeClaimTemplates with no accessModes", sts(volumeClaimTemplates=[{"metadata": {"name": "pvc"}, "spec": {"resources": {"requests": {"storage": "1Gi"}}}}]),
     [(RQ, "spec.volumeClaimTemplates[0].spec.accessModes")]),
    ("invalid volumeClaimTemplates with invalid VolumeAttributesClassName", sts(volumeClaimTemplates=[claim("pvc", volumeAttributesClassName="abc@123")]),
     [(IN, "spec.volumeClaimTemplates[0].spec.volumeAttributesClassName")]),
]


@pytest.mark.parametrize(("obj", "expected"), [c[1:] for c in ERRORS], ids=[c[0] for c in ERRORS])
def test_stateful_set_error_cases_1_36(obj: dict[str, Any], expected: list[tuple[str, str]]) -> None:
    assert sorted((e.type, e.field) for e in create(obj)[0]) == sorted(expected)


@pytest.mark.parametrize(("release", "spec", "expected"), [
    ("1.33", {"updateStrategy": {"type": "foo"}},
     'spec.updateStrategy: Invalid value: apps.StatefulSetUpdateStrategy{Type:"foo", RollingUpdate:(*apps.RollingUpdateStatefulSetStrategy)(nil)}: must be \'RollingUpdate\' or \'OnDelete\''),
    ("1.36", {"updateStrategy": {"type": "foo"}}, 'spec.updateStrategy: Invalid value: {"Type":"foo","RollingUpdate":null}: must be \'RollingUpdate\' or \'OnDelete\''),
    ("1.33", {"updateStrategy": {"type": "OnDelete", "rollingUpdate": {"partition": 1}}},
     "spec.updateStrategy.rollingUpdate: Invalid value: apps.RollingUpdateStatefulSetStrategy{Partition:1, MaxUnavailable:(*intstr.IntOrString)(nil)}: only allowed for updateStrategy 'RollingUpdate'"),
    ("1.36", {"updateStrategy": {"type": "OnDelete", "rollingUpdate": {"partition": 1, "maxUnavailable": "10%"}}},
     'spec.updateStrategy.rollingUpdate: Invalid value: {"Partition":1,"MaxUnavailable":"10%"}: only allowed for updateStrategy \'RollingUpdate\''),
])
def test_update_strategy_bad_values_are_internal_structs(release: str, spec: dict[str, Any], expected: str) -> None:
    """ValidateStatefulSetSpec passes ``spec.UpdateStrategy`` / ``spec.UpdateStrategy.RollingUpdate`` (internal
    types without json tags) as the bad values."""
    errs = create(sts(**spec), release)[0]
    assert [str(e.at_release(int(release[2:]))) for e in errs] == [expected]
