"""Strict decoding of built-in objects into the release's Go types.

Upstream: kubernetes v1.36.3 ``test/integration/apiserver/field_validation_test.go`` (``invalidBodyJSON`` of
``testFieldValidationPost``, its duplicate keys left out: a parsed manifest has none), Go's
``encoding/json`` ``UnmarshalTypeError`` texts (``Struct.Field`` is the innermost struct and the chain of JSON
field names), ``intstr.IntOrString.UnmarshalJSON`` and ``resource.Quantity.UnmarshalJSON``
(k8s.io/apimachinery v0.36.3).
"""

from __future__ import annotations

from typing import Any

import pytest

from crdtool.core.builtin import catalog
from crdtool.core.builtin.decode import decode_builtin, go_type

QUANTITY_FORMAT = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"


def _decode(obj: dict[str, Any], release: str = "1.36", kubectl: bool = True) -> tuple[dict[str, Any], list[str]]:
    info = catalog.kind_info(release, obj["apiVersion"], obj["kind"])
    assert info is not None
    decoded, errors = decode_builtin(obj, info, release, sent_by_kubectl=kubectl)
    return decoded, [str(e) for e in errors]


def _deployment(spec: dict[str, Any], meta: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": meta or {"name": "d"}, "spec": spec}


def test_field_validation_post_unknown_fields_in_document_order() -> None:
    # field_validation_test.go@v1.36.3 invalidBodyJSON, without its duplicate keys: a JSON body posted as written
    body = _deployment(
        {
            "unknown1": "val1",
            "unknownDupe": "valDupe2",
            "paused": False,
            "selector": {"matchLabels": {"app": "nginx"}},
            "template": {
                "metadata": {"labels": {"app": "nginx"}},
                "spec": {"containers": [{"name": "nginx", "image": "nginx:latest", "unknownNested": "val1",
                                         "imagePullPolicy": "Never"}]},
            },
        },
        {"name": "deployment", "labels": {"app": "nginx"}, "unknownMeta": "metaVal"},
    )
    decoded, errors = _decode(body, kubectl=False)
    assert errors == [
        'unknown field "metadata.unknownMeta"',
        'unknown field "spec.unknown1"',
        'unknown field "spec.unknownDupe"',
        'unknown field "spec.template.spec.containers[0].unknownNested"',
    ]
    # the same manifest as kubectl sends it (json.Marshal of its map: every object's keys sorted): "template" comes
    # before "unknown1" (k8s.io/apimachinery unstructured.UnstructuredJSONScheme; checked against kube-apiserver's
    # JSON serializer of v0.35.0 run in Go on the YAML kubectl reads)
    assert _decode(body)[1] == [
        'unknown field "metadata.unknownMeta"',
        'unknown field "spec.template.spec.containers[0].unknownNested"',
        'unknown field "spec.unknown1"',
        'unknown field "spec.unknownDupe"',
    ]
    assert "unknown1" not in decoded["spec"]
    assert decoded["spec"]["template"]["spec"]["containers"][0] == {
        "name": "nginx", "image": "nginx:latest", "imagePullPolicy": "Never"}


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ({"replicas": "3"}, "json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32"),
        ({"replicas": 1.5}, "json: cannot unmarshal number 1.5 into Go struct field DeploymentSpec.spec.replicas of type int32"),
        ({"replicas": 2**31}, "json: cannot unmarshal number 2147483648 into Go struct field DeploymentSpec.spec.replicas of type int32"),
        ({"paused": "yes"}, "json: cannot unmarshal string into Go struct field DeploymentSpec.spec.paused of type bool"),
        ({"template": {"spec": {"containers": "nginx"}}},
         "json: cannot unmarshal string into Go struct field PodSpec.spec.template.spec.containers of type []v1.Container"),
        ({"template": {"spec": {"containers": [{"name": "a", "env": [{"name": "X", "value": 5}]}]}}},
         "json: cannot unmarshal number into Go struct field EnvVar.spec.template.spec.containers.env.value of type string"),
        ({"template": {"spec": {"activeDeadlineSeconds": "10"}}},
         "json: cannot unmarshal string into Go struct field PodSpec.spec.template.spec.activeDeadlineSeconds of type int64"),
        ({"selector": {"matchLabels": []}},
         "json: cannot unmarshal array into Go struct field LabelSelector.spec.selector.matchLabels of type map[string]string"),
        # IntOrString.UnmarshalJSON: a non-string goes into its int32, the error names the IntOrString field
        ({"strategy": {"rollingUpdate": {"maxSurge": 1.5}}},
         "json: cannot unmarshal number 1.5 into Go struct field RollingUpdateDeployment.spec.strategy.rollingUpdate.maxSurge of type int32"),
        ({"strategy": {"rollingUpdate": {"maxUnavailable": True}}},
         "json: cannot unmarshal bool into Go struct field RollingUpdateDeployment.spec.strategy.rollingUpdate.maxUnavailable of type int32"),
        # Quantity.UnmarshalJSON: ParseQuantity of the JSON text, its own error
        ({"template": {"spec": {"containers": [{"name": "a", "resources": {"requests": {"cpu": True}}}]}}}, QUANTITY_FORMAT),
        ({"template": {"spec": {"containers": [{"name": "a", "resources": {"limits": {"memory": "1Gb"}}}]}}}, QUANTITY_FORMAT),
    ],
)
def test_type_errors(spec: dict[str, Any], message: str) -> None:
    assert _decode(_deployment(spec))[1] == [message]


def test_metadata_is_object_meta_with_its_go_types() -> None:
    assert _decode(_deployment({}, {"name": "d", "labels": {"a": 1}}))[1] == [
        "json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string"]
    assert _decode(_deployment({}, {"name": "d", "finalizers": {"key": "value"}}))[1] == [
        "json: cannot unmarshal object into Go struct field ObjectMeta.metadata.finalizers of type []string"]


def test_a_type_error_wins_over_unknown_fields_and_a_custom_unmarshaler_error_over_a_type_error() -> None:
    # Serializer.unmarshal: a decoding error is returned alone; decode.go unmarshal: d.value's error before savedError
    assert _decode(_deployment({"foo": 1, "replicas": "2"}))[1] == [
        "json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32"]
    spec = {"replicas": "2", "template": {"spec": {"containers": [{"name": "a", "resources": {"limits": {"cpu": "x"}}}]}}}
    assert _decode(_deployment(spec))[1] == [QUANTITY_FORMAT]


def test_valid_values_decode() -> None:
    spec = {"replicas": 3.0, "strategy": {"rollingUpdate": {"maxSurge": "25%", "maxUnavailable": 1}},
            "template": {"spec": {"containers": [{"name": "a", "resources": {"limits": {"cpu": 0.5, "memory": "1Gi"}}}]}}}
    decoded, errors = _decode(_deployment(spec))
    assert errors == []
    assert decoded["spec"]["replicas"] == 3
    assert decoded["spec"]["strategy"]["rollingUpdate"] == {"maxSurge": "25%", "maxUnavailable": 1}
    assert decoded["spec"]["template"]["spec"]["containers"][0]["resources"]["limits"] == {"cpu": "0.5", "memory": "1Gi"}


def test_secret_data_is_base64() -> None:
    secret = {"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "s"}, "data": {"a": "not base64!"}}
    assert _decode(secret)[1] == ["illegal base64 data at input byte 3"]


def test_named_go_types_from_k8s_io_api() -> None:
    # k8s.io/api v0.36.3 core/v1/types.go: ImagePullPolicy PullPolicy, Limits ResourceList, Add []Capability
    spec = {"template": {"spec": {"containers": [{"name": "a", "imagePullPolicy": 1}]}}}
    assert _decode(_deployment(spec))[1] == [
        "json: cannot unmarshal number into Go struct field Container.spec.template.spec.containers.imagePullPolicy "
        "of type v1.PullPolicy"]
    spec = {"template": {"spec": {"containers": [{"name": "a", "resources": {"limits": ["1"]}}]}}}
    assert _decode(_deployment(spec))[1] == [
        "json: cannot unmarshal array into Go struct field ResourceRequirements.spec.template.spec.containers."
        "resources.limits of type v1.ResourceList"]
    spec = {"template": {"spec": {"containers": [{"name": "a", "securityContext": {"capabilities": {"add": [1]}}}]}}}
    assert _decode(_deployment(spec))[1] == [
        "json: cannot unmarshal number into Go struct field Capabilities.spec.template.spec.containers."
        "securityContext.capabilities.add of type v1.Capability"]


def test_go_type_names() -> None:
    assert go_type("1.30", "io.k8s.api.apps.v1.DeploymentSpec").go == "v1.DeploymentSpec"
    assert go_type("1.30", "io.k8s.api.core.v1.PodSpec").fields["containers"].type.go == "[]v1.Container"


def _pod(spec_extra: dict[str, Any], container_extra: dict[str, Any] | None = None) -> dict[str, Any]:
    container = {"name": "c", "image": "i", **(container_extra or {})}
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "a"}, "spec": {"containers": [container], **spec_extra}}


#: (object, the Go struct field of the error at 1.34 and at 1.35 on, the rest of the message). The 1.35 texts are
#: kube-apiserver's own: its strict JSON serializer over client-go's scheme (k8s.io/api v0.35.0, sigs.k8s.io/json
#: 2d320260d730, as kubectl-validate a97ccfac vendors them) run in Go on these documents; a promoted field's path
#: names the struct it is embedded from (encoding/json of Go 1.24: decodeState.object). 1.34 (cfa47c3a1cc8) does not.
EMBEDDED_CASES = [
    (_pod({"volumes": [{"name": "v", "hostPath": "x"}]}), "Volume.spec.volumes.hostPath",
     "Volume.spec.volumes.VolumeSource.hostPath", "string", "v1.HostPathVolumeSource"),
    (_pod({"volumes": [{"name": "v", "configMap": {"name": 5}}]}), "ConfigMapVolumeSource.spec.volumes.configMap.name",
     "ConfigMapVolumeSource.spec.volumes.VolumeSource.configMap.LocalObjectReference.name", "number", "string"),
    (_pod({}, {"livenessProbe": {"httpGet": {"port": True}}}), "HTTPGetAction.spec.containers.livenessProbe.httpGet.port",
     "HTTPGetAction.spec.containers.livenessProbe.ProbeHandler.httpGet.port", "bool", "int32"),
    (_pod({}, {"env": [{"name": "e", "valueFrom": {"secretKeyRef": {"name": 1, "key": "k"}}}]}),
     "SecretKeySelector.spec.containers.env.valueFrom.secretKeyRef.name",
     "SecretKeySelector.spec.containers.env.valueFrom.secretKeyRef.LocalObjectReference.name", "number", "string"),
    ({"apiVersion": "v1", "kind": "PersistentVolume", "metadata": {"name": "a"},
      "spec": {"capacity": {"storage": "1Gi"}, "nfs": {"server": 1, "path": "/x"}}},
     "NFSVolumeSource.spec.nfs.server", "NFSVolumeSource.spec.PersistentVolumeSource.nfs.server", "number", "string"),
    (_pod({"ephemeralContainers": [{"name": "e", "image": 5}]}), "EphemeralContainer.spec.ephemeralContainers.image",
     "EphemeralContainer.spec.ephemeralContainers.EphemeralContainerCommon.image", "number", "string"),
    ({"apiVersion": "networking.k8s.io/v1", "kind": "Ingress", "metadata": {"name": "a"},
      "spec": {"rules": [{"host": "h", "http": {"paths": 5}}]}}, "HTTPIngressRuleValue.spec.rules.http.paths",
     "HTTPIngressRuleValue.spec.rules.IngressRuleValue.http.paths", "number", "[]v1.HTTPIngressPath"),
]


@pytest.mark.parametrize(("obj", "until_134", "since_135", "json_type", "go"), EMBEDDED_CASES)
@pytest.mark.parametrize("release", ["1.34", "1.35", "1.37"])
def test_type_errors_under_embedded_structs(
    obj: dict[str, Any], until_134: str, since_135: str, json_type: str, go: str, release: str
) -> None:
    field = until_134 if release == "1.34" else since_135
    assert _decode(obj, release)[1] == [f"json: cannot unmarshal {json_type} into Go struct field {field} of type {go}"]
