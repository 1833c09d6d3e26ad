"""Pod-spec level validation, cases from kubernetes/kubernetes ``pkg/apis/core/validation/validation_test.go``
(openshift/microshift ``release-4.23`` = 1.36): ``TestValidatePodSpec`` failure cases (through a Deployment's
template, ``create_builtin``'s path: v1 defaults first), ``TestValidatePodHostName``,
``TestValidateEnvVarValueFromFileKeyRef``, ``TestValidateFileKeyRefVolume``. Internal
``PodSecurityContext.HostNetwork/HostPID/ShareProcessNamespace`` are v1 ``PodSpec`` fields."""

from __future__ import annotations

from typing import Any

import pytest

from crdtool.core.apis.core.validation import validate_env, validate_pod_host_name
from crdtool.core.errors import Path
from crdtool.core.releases import resolve_release
from tests.core.apis._create import create, pairs

R36 = resolve_release("1.36")
P = "spec.template.spec"
IN, RQ, NS, NF, FB, TL = "FieldValueInvalid", "FieldValueRequired", "FieldValueNotSupported", "FieldValueNotFound", "FieldValueForbidden", "FieldValueTooLong"


def deployment(spec: dict[str, Any]) -> dict[str, Any]:
    body: dict[str, Any] = {"containers": [{"name": "ctr", "image": "image"}]}
    body.update(spec)
    return {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "d", "namespace": "ns"},
            "spec": {"selector": {"matchLabels": {"a": "b"}}, "template": {"metadata": {"labels": {"a": "b"}}, "spec": body}}}


def ports(**port: Any) -> dict[str, Any]:
    return {"containers": [{"name": "ctr", "image": "image", "ports": [{"protocol": "TCP", **port}]}]}


@pytest.mark.parametrize(("spec", "expected"), [
    ({"serviceAccountName": "invalidName"}, [(IN, f"{P}.serviceAccountName")]),
    # a Deployment's template must also restart Always (ValidatePodTemplateSpecForReplicaSet)
    ({"restartPolicy": "UnknowPolicy"}, [(NS, f"{P}.restartPolicy"), (NS, f"{P}.restartPolicy")]),
    ({"hostNetwork": True, **ports(hostPort=8080, containerPort=2600)}, [(IN, f"{P}.containers[0].ports[0].hostPort")]),
    ({"hostAliases": [{"ip": "999.999.999.999", "hostnames": ["host1", "host2"]}]}, [(IN, f"{P}.hostAliases[0].ip")]),
    ({"hostAliases": [{"ip": "12.34.56.78", "hostnames": ["@#$^#@#$"]}]}, [(IN, f"{P}.hostAliases[0].hostnames[0]")]),
    ({"securityContext": {"supplementalGroups": [2147483648, 1234]}}, [(IN, f"{P}.securityContext.supplementalGroups[0]")]),
    ({"securityContext": {"supplementalGroups": [-1, 1234]}}, [(IN, f"{P}.securityContext.supplementalGroups[0]")]),
    ({"securityContext": {"runAsUser": 2147483648}}, [(IN, f"{P}.securityContext.runAsUser")]),
    ({"securityContext": {"runAsUser": -1}}, [(IN, f"{P}.securityContext.runAsUser")]),
    ({"securityContext": {"fsGroup": 2147483648}}, [(IN, f"{P}.securityContext.fsGroup")]),
    ({"securityContext": {"fsGroup": -1}}, [(IN, f"{P}.securityContext.fsGroup")]),
    ({"nodeName": "node name"}, [(IN, f"{P}.nodeName")]),
    ({"priorityClassName": "InvalidName"}, [(IN, f"{P}.priorityClassName")]),
    ({"hostPID": True, "shareProcessNamespace": True}, [(IN, f"{P}.securityContext.shareProcessNamespace")]),
    ({"runtimeClassName": "invalid/sandbox"}, [(IN, f"{P}.runtimeClassName")]),
    ({"securityContext": {"fsGroupChangePolicy": ""}}, [(NS, f"{P}.securityContext.fsGroupChangePolicy")]),
    ({"securityContext": {"fsGroupChangePolicy": "invalid"}}, [(NS, f"{P}.securityContext.fsGroupChangePolicy")]),
    ({"securityContext": {"supplementalGroupsPolicy": ""}}, [(NS, f"{P}.securityContext.supplementalGroupsPolicy")]),
    ({"securityContext": {"supplementalGroupsPolicy": "invalid"}}, [(NS, f"{P}.securityContext.supplementalGroupsPolicy")]),
    # a template may leave the host port 0 (it is defaulted on the Pod): not one of upstream's failures here
    ({"hostNetwork": True, **ports(containerPort=2600)}, []),
])
def test_pod_spec_failure_cases_1_36(spec: dict[str, Any], expected: list[tuple[str, str]]) -> None:
    """TestValidatePodSpec failureCases @release-4.23 (the table only asks for an error; type and field by
    upstream's code)."""
    assert pairs(create(deployment(spec))[0]) == expected


@pytest.mark.parametrize(("spec", "expected"), [
    ({"hostnameOverride": ""}, [(IN, "spec.hostnameOverride")]),
    ({"hostnameOverride": "a"}, []),
    ({"hostnameOverride": "custom-host"}, []),
    ({"hostnameOverride": "a" * 64}, []),
    ({"hostnameOverride": "a" * 65}, [(TL, "spec.hostnameOverride")]),
    ({"hostnameOverride": "Not-RFC1123"}, [(IN, "spec.hostnameOverride")]),
    ({"hostnameOverride": "custom-host", "setHostnameAsFQDN": True}, [(FB, "spec.hostnameOverride")]),
    ({"hostnameOverride": "custom-host", "setHostnameAsFQDN": False}, []),
    ({"hostnameOverride": "custom-host", "hostNetwork": True}, [(FB, "spec.hostnameOverride")]),
    ({"hostnameOverride": "custom-host", "hostNetwork": False}, []),
])
def test_pod_host_name(spec: dict[str, Any], expected: list[tuple[str, str]]) -> None:
    """TestValidatePodHostName @release-4.23."""
    assert pairs(validate_pod_host_name(spec, Path("spec"))) == expected


@pytest.mark.parametrize(("release", "expected"), [
    ("1.34", []),  # HostnameOverride Alpha off: dropped on create
    ("1.35", [f"{P}.hostnameOverride: Forbidden: may not be specified when hostNetwork is true"]),
])
def test_host_name_override_through_create(release: str, expected: list[str]) -> None:
    assert [str(e) for e in create(deployment({"hostnameOverride": "custom-host", "hostNetwork": True}), release)[0]] == expected


def file_ref(**ref: Any) -> list[dict[str, Any]]:
    return [{"name": "MY_VAR", "valueFrom": {"fileKeyRef": {"volumeName": "volume-name", "path": "path/to/file.env", "key": "MY_VAR", **ref}}}]


F = "env[0].valueFrom.fileKeyRef"


@pytest.mark.parametrize(("env", "expected"), [
    (file_ref(), []),
    (file_ref(key=""), [(RQ, f"{F}.key")]),
    (file_ref(key="bad=key"), [(IN, f"{F}.key")]),
    ([{**file_ref()[0], "value": "some-value"}], [(IN, "env[0].valueFrom")]),
    (file_ref(volumeName=""), [(RQ, f"{F}.volumeName")]),
    (file_ref(volumeName="INVALID_NAME!"), [(IN, f"{F}.volumeName")]),
    (file_ref(path=""), [(RQ, f"{F}.path")]),
    (file_ref(path="../etc/passwd"), [(IN, f"{F}.path")]),
    (file_ref(volumeName="!badname", path="../badpath", key="bad=key"), [(IN, f"{F}.key"), (IN, f"{F}.volumeName"), (IN, f"{F}.path")]),
    (file_ref(key="", optional=True), [(RQ, f"{F}.key")]),
])
def test_env_var_value_from_file_key_ref(env: list[dict[str, Any]], expected: list[tuple[str, str]]) -> None:
    """TestValidateEnvVarValueFromFileKeyRef @release-4.23 (validateFileKeySelector)."""
    assert pairs(validate_env(env, Path("env"), R36)) == expected


@pytest.mark.parametrize(("volumes", "expected"), [
    ([{"name": "volume-name", "emptyDir": {}}], []),
    ([], [f"{P}.containers[0].env[0].valueFrom.fileKeyRef.volumeName: Not found: \"volume-name\""]),
    ([{"name": "volume-name", "configMap": {"name": "cm"}}],
     [f"{P}.containers[0].env[0].valueFrom.fileKeyRef.volumeName: Invalid value: \"volume-name\": referenced volume must be of type emptyDir"]),
])
def test_file_key_ref_volume_1_36(volumes: list[dict[str, Any]], expected: list[str]) -> None:
    """TestValidateFileKeyRefVolume @release-4.23 (validateFileKeyRefVolumes)."""
    spec = {"volumes": volumes, "containers": [{"name": "ctr", "image": "image", "env": file_ref()}]}
    assert [str(e) for e in create(deployment(spec))[0]] == expected


@pytest.mark.parametrize(("release", "expected"), [
    ("1.31", 'spec.template.spec.tolerations[0].operator: Invalid value: core.Toleration{Key:"a", Operator:"Exists", Value:"x", Effect:"", '
             "TolerationSeconds:(*int64)(nil)}: value must be empty when `operator` is 'Exists'"),
    ("1.32", "spec.template.spec.tolerations[0].operator: Invalid value: \"x\": value must be empty when `operator` is 'Exists'"),
])
def test_exists_toleration_with_a_value(release: str, expected: str) -> None:
    """ValidateTolerations: release-4.17/4.18 pass the internal ``core.Toleration`` (``%#v``), release-4.19 on its value."""
    body = deployment({"tolerations": [{"key": "a", "operator": "Exists", "value": "x"}]})
    assert [str(e.at_release(int(release[2:]))) for e in create(body, release)[0]] == [expected]


def test_overhead_1_36() -> None:
    """TestValidateOverhead @release-4.23 (``my.org`` is no container resource) through validateOverhead, and the
    overhead's fractional-bytes warning (pkg/api/pod/warnings.go)."""
    errs, warnings, _ = create(deployment({"overhead": {"cpu": "10", "memory": "10G"}}))
    assert errs == [] and warnings == []
    errs = create(deployment({"overhead": {"my.org": "10m"}}))[0]
    assert pairs(errs) == [(IN, f"{P}.overhead.limits[my.org]"), (IN, f"{P}.overhead.limits[my.org]")]
    errs, warnings, _ = create(deployment({"overhead": {"memory": "0.5"}}))
    assert errs == [] and warnings == [f'{P}.overhead[memory]: fractional byte value "500m" is invalid, must be an integer']


@pytest.mark.parametrize("spec", [
    {},
    {"initContainers": [{"name": "ictr", "image": "image"}], "volumes": [{"name": "vol", "emptyDir": {}}], "nodeSelector": {"key": "value"},
     "nodeName": "foobar", "serviceAccountName": "acct"},  # activeDeadlineSeconds: a Deployment's template refuses it
    {"hostNetwork": True, "containers": [{"name": "ctr", "image": "image", "ports": [{"hostPort": 8080, "containerPort": 8080, "protocol": "TCP"}]}]},
    {"securityContext": {"supplementalGroups": [0], "runAsUser": 0, "fsGroup": 0}},
    {"securityContext": {"supplementalGroups": [2147483647], "runAsUser": 2147483647, "fsGroup": 2147483647}},
    {"hostIPC": True},
    {"hostPID": True},
    {"affinity": {"nodeAffinity": {
        "requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [{
            "matchExpressions": [{"key": "key2", "operator": "In", "values": ["value1", "value2"]}],
            "matchFields": [{"key": "metadata.name", "operator": "In", "values": ["host1"]}]}]},
        "preferredDuringSchedulingIgnoredDuringExecution": [{"weight": 10, "preference": {"matchExpressions": [{"key": "foo", "operator": "In", "values": ["bar"]}]}}]}}},
    {"hostAliases": [{"ip": "12.34.56.78", "hostnames": ["host1", "host2"]}]},
    {"hostAliases": [{"ip": "12.34.56.78", "hostnames": ["host1.foo", "host2.bar"]}], "hostNetwork": True},
    {"priorityClassName": "valid-name"},
    {"shareProcessNamespace": True},
    {"runtimeClassName": "valid-sandbox"},
    {"overhead": {}},
    {"securityContext": {"fsGroupChangePolicy": "OnRootMismatch"}},
    {"containers": [{"name": "ctr", "image": "image", "resizePolicy": [{"resourceName": "cpu", "restartPolicy": "NotRequired"}]}]},
    {"securityContext": {"supplementalGroupsPolicy": "Merge"}},
    {"resources": {"limits": {"cpu": "100m", "memory": "200Mi"}}, "containers": [{"name": "container", "image": "image"}]},
    {"resources": {"limits": {"cpu": "100m", "memory": "200Mi"}}, "containers": [{"name": "container", "image": "image"}], "os": {"name": "linux"}},
])
def test_pod_spec_success_cases_1_36(spec: dict[str, Any]) -> None:
    """TestValidatePodSpec successCases @release-4.23 (through a Deployment's template)."""
    assert [str(e) for e in create(deployment(spec))[0]] == []
