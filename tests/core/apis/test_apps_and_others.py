"""apps, rbac, policy, networking, autoscaling, scheduling, coordination and apiregistration create validation,
cases from kubernetes/kubernetes ``pkg/apis/<group>/validation/validation_test.go`` (openshift/microshift
``release-4.23`` = 1.36): ``TestValidateDeployment``, ``TestValidateDaemonSet``, ``TestValidateStatefulSet``,
``TestValidateClusterRoleBinding``, ``TestValidateRoleBinding``, ``TestValidateRole*``,
``TestValidateNetworkPolicy``, ``TestValidateIngressClass``, ``TestValidateLease``, and kube-aggregator's
``TestValidateAPIService`` style."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from tests.core.apis._create import create, pairs, pod_template


def deployment(**spec: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"selector": {"matchLabels": {"name": "abc"}}, "template": pod_template(labels={"name": "abc"})}
    body.update(spec)
    return {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "abc", "namespace": "default"}, "spec": body}


@pytest.mark.parametrize(
    ("change", "text"),
    [
        # TestValidateDeployment errorCases @1.36: the key is a text in one of the errors
        (lambda d: d["metadata"].pop("name"), "metadata.name: Required value"),
        (lambda d: d["spec"].update(selector={"matchLabels": {"name": "def"}}), "`selector` does not match template `labels`"),
        (lambda d: d["spec"]["template"]["spec"].update(restartPolicy="Never"), 'Unsupported value: "Never"'),
        (lambda d: d["spec"].update(strategy={"type": "randomType"}), 'supported values: "Recreate", "RollingUpdate"'),
        (lambda d: d["spec"].update(strategy={"type": "Recreate", "rollingUpdate": {}}), "may not be specified when strategy `type` is 'Recreate'"),
        (lambda d: d["spec"].update(strategy={"type": "RollingUpdate", "rollingUpdate": {"maxSurge": "20Percent"}}), "a valid percent string must be"),
        (lambda d: d["spec"].update(strategy={"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": 0, "maxSurge": 0}}), "may not be 0 when `maxSurge` is 0"),
        (lambda d: d["spec"].update(strategy={"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": "110%"}}), "must not be greater than 100%"),
        (lambda d: d["spec"].update(progressDeadlineSeconds=10, minReadySeconds=10), "must be greater than minReadySeconds"),
        (lambda d: d["spec"]["template"]["spec"].update(ephemeralContainers=[{"name": "debug", "image": "image"}]), "ephemeral containers not allowed"),
    ],
)
def test_deployment_error_cases_1_36(change: Any, text: str) -> None:
    obj = deployment()
    change(obj)
    errs = create(obj)[0]
    assert any(text in str(e) for e in errs), [str(e) for e in errs]


def test_deployment_success_and_name_warning() -> None:
    assert create(deployment()) [0:2] == ([], [])
    obj = deployment()
    obj["metadata"]["name"] = "a.b"
    errs, warnings, _ = create(obj)
    assert errs == [] and warnings == ["metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: [must not contain dots]"]


@pytest.mark.parametrize("release", ["1.33", "1.36"])
def test_a_deployment_without_selector_checks_the_template_labels_against_nothing(release: str) -> None:
    """ValidateDeploymentSpec: a nil selector is Required, and LabelSelectorAsSelector(nil) is labels.Nothing(),
    which is not Empty() and matches no labels, so ValidatePodTemplateSpecForReplicaSet also reports the template's
    labels (kubernetes pkg/apis/apps/validation/validation.go; apimachinery pkg/apis/meta/v1/helpers.go,
    pkg/labels/selector.go nothingSelector, v0.36.0)."""
    obj = deployment()
    del obj["spec"]["selector"]
    errs = create(obj, release)[0]
    assert pairs(errs) == [("FieldValueRequired", "spec.selector"), ("FieldValueInvalid", "spec.template.metadata.labels")]
    assert errs[1].detail == "`selector` does not match template `labels`"


def daemon_set(**spec: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"selector": {"matchLabels": {"a": "b"}}, "template": pod_template(labels={"a": "b"})}
    body.update(spec)
    return {"apiVersion": "apps/v1", "kind": "DaemonSet", "metadata": {"name": "abc", "namespace": "default"}, "spec": body}


@pytest.mark.parametrize(
    ("change", "fields"),
    [
        # TestValidateDaemonSet errorCases @1.36 (the fields of the errors)
        (lambda d: d["metadata"].update(name=""), ["metadata.name"]),
        (lambda d: d["metadata"].pop("namespace"), ["metadata.namespace"]),
        (lambda d: d["spec"].update(selector={}), ["spec.selector"]),
        (lambda d: d["spec"].update(selector={"matchLabels": {"foo": "bar"}}), ["spec.template.metadata.labels"]),
        (lambda d: d["spec"]["template"]["metadata"]["labels"].update({"NoUppercaseOrSpecialCharsLike=Equals": "bar"}), ["spec.template.labels"]),
        (lambda d: d["spec"]["template"]["spec"].update(restartPolicy="OnFailure"), ["spec.template.spec.restartPolicy"]),
        (lambda d: d["spec"].update(updateStrategy={"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": 0, "maxSurge": 0}}), ["spec.updateStrategy.rollingUpdate.maxUnavailable"]),
        (lambda d: d["spec"].update(updateStrategy={"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": 1, "maxSurge": 1}}), ["spec.updateStrategy.rollingUpdate.maxSurge"]),
    ],
)
def test_daemon_set_error_cases_1_36(change: Any, fields: list[str]) -> None:
    obj = daemon_set()
    change(obj)
    assert [e.field for e in create(obj)[0]] == fields


def stateful_set(**spec: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"serviceName": "svc", "selector": {"matchLabels": {"a": "b"}}, "template": pod_template(labels={"a": "b"})}
    body.update(spec)
    return {"apiVersion": "apps/v1", "kind": "StatefulSet", "metadata": {"name": "abc", "namespace": "default"}, "spec": body}


def test_stateful_set_1_36() -> None:
    """TestValidateStatefulSet @1.36: claim templates count as volumes; the name is a DNS label; the service
    name too; podManagementPolicy and updateStrategy are defaulted."""
    claim = {"metadata": {"name": "data"}, "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}}}}
    body = stateful_set(volumeClaimTemplates=[claim])
    body["spec"]["template"]["spec"]["containers"][0]["volumeMounts"] = [{"name": "data", "mountPath": "/d"}]
    assert create(body)[0] == []
    bad = stateful_set(serviceName="Bad_Name", podManagementPolicy="Foo")
    bad["metadata"]["name"] = "a.b"
    assert pairs(create(bad)[0]) == [
        ("FieldValueInvalid", "metadata.name"),
        ("FieldValueInvalid", "spec.podManagementPolicy"),
        ("FieldValueInvalid", "spec.serviceName"),
    ]
    claim2 = copy.deepcopy(claim)
    claim2["spec"]["accessModes"] = []
    assert pairs(create(stateful_set(volumeClaimTemplates=[claim2]))[0]) == [("FieldValueRequired", "spec.volumeClaimTemplates[0].spec.accessModes")]


RB = "rbac.authorization.k8s.io"


def binding(kind: str, role_ref: dict[str, Any], subjects: list[dict[str, Any]] | None = None, name: str = "master") -> dict[str, Any]:
    md: dict[str, Any] = {"name": name} if kind == "ClusterRoleBinding" else {"name": name, "namespace": "default"}
    obj: dict[str, Any] = {"apiVersion": f"{RB}/v1", "kind": kind, "metadata": md, "roleRef": role_ref}
    if subjects is not None:
        obj["subjects"] = subjects
    return obj


@pytest.mark.parametrize(
    ("obj", "expected"),
    [
        # TestValidateClusterRoleBinding errorCases @1.36
        (binding("ClusterRoleBinding", {"apiGroup": "rbac.GroupName", "kind": "ClusterRole", "name": "valid"}, name="default"), [("FieldValueNotSupported", "roleRef.apiGroup")]),
        (binding("ClusterRoleBinding", {"apiGroup": RB, "kind": "Type", "name": "valid"}, name="default"), [("FieldValueNotSupported", "roleRef.kind")]),
        (binding("ClusterRoleBinding", {"apiGroup": RB, "kind": "Role", "name": "valid"}, name="default"), [("FieldValueNotSupported", "roleRef.kind")]),
        (binding("ClusterRoleBinding", {"apiGroup": RB, "kind": "ClusterRole", "name": "valid"}, name=""), [("FieldValueRequired", "metadata.name")]),
        (binding("ClusterRoleBinding", {"apiGroup": RB, "kind": "ClusterRole"}, name="default"), [("FieldValueRequired", "roleRef.name")]),
        (binding("ClusterRoleBinding", {"apiGroup": RB, "kind": "ClusterRole", "name": "valid"}, [{"name": "subject"}]), [("FieldValueNotSupported", "subjects[0].kind")]),
        (binding("ClusterRoleBinding", {"apiGroup": RB, "kind": "ClusterRole", "name": "valid"}, [{"namespace": "foo", "name": "subject:bad", "kind": "ServiceAccount"}]), [("FieldValueInvalid", "subjects[0].name")]),
        (binding("ClusterRoleBinding", {"apiGroup": RB, "kind": "ClusterRole", "name": "valid"}, [{"name": "good", "kind": "ServiceAccount"}]), [("FieldValueRequired", "subjects[0].namespace")]),
        (binding("ClusterRoleBinding", {"apiGroup": RB, "kind": "ClusterRole", "name": "valid"}, [{"namespace": "foo", "kind": "ServiceAccount"}]), [("FieldValueRequired", "subjects[0].name")]),
        # TestValidateRoleBinding: a RoleBinding's ServiceAccount subject needs no namespace
        (binding("RoleBinding", {"apiGroup": RB, "kind": "Role", "name": "valid"}, [{"name": "validsaname", "kind": "ServiceAccount"}]), []),
        # kubectl-validate passes a binding without roleRef; the apiserver defaults the apiGroup and refuses the rest
        (binding("RoleBinding", {}), [("FieldValueNotSupported", "roleRef.kind"), ("FieldValueRequired", "roleRef.name")]),
    ],
)
def test_bindings_1_36(obj: dict[str, Any], expected: list[tuple[str, str]]) -> None:
    assert pairs(create(obj)[0]) == expected


def role(kind: str, rules: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    md: dict[str, Any] = {"name": "psp:rook"} if kind == "ClusterRole" else {"name": "r", "namespace": "default"}
    return {"apiVersion": f"{RB}/v1", "kind": kind, "metadata": md, "rules": rules, **extra}


@pytest.mark.parametrize(
    ("obj", "expected"),
    [
        (role("ClusterRole", [{"verbs": ["get"], "apiGroups": [""], "resources": ["pods"]}]), []),
        (role("ClusterRole", [{"verbs": ["get"], "nonResourceURLs": ["/*"]}]), []),
        (role("Role", [{"verbs": ["get"], "nonResourceURLs": ["/*"]}]), [("FieldValueInvalid", "rules[0].nonResourceURLs")]),
        (role("ClusterRole", [{"nonResourceURLs": ["/*"]}]), [("FieldValueRequired", "rules[0].verbs")]),
        (role("ClusterRole", [{"verbs": ["get"], "nonResourceURLs": ["/*"], "apiGroups": [""], "resources": ["*"]}]), [("FieldValueInvalid", "rules[0].nonResourceURLs")]),
        (role("Role", [{"verbs": ["get"], "resources": ["*"]}]), [("FieldValueRequired", "rules[0].apiGroups")]),
        (role("Role", [{"verbs": ["get"], "apiGroups": [""]}]), [("FieldValueRequired", "rules[0].resources")]),
        (role("ClusterRole", [], aggregationRule={"clusterRoleSelectors": []}), [("FieldValueRequired", "aggregationRule.clusterRoleSelectors")]),
        (role("ClusterRole", [], aggregationRule={"clusterRoleSelectors": [{"matchLabels": {"a/b/c": "x"}}]}),
         [("FieldValueInvalid", "aggregationRule.clusterRoleSelectors[0].matchLabels"), ("FieldValueInvalid", "aggregationRule.clusterRoleSelectors[0]")]),
    ],
)
def test_roles_1_36(obj: dict[str, Any], expected: list[tuple[str, str]]) -> None:
    """TestValidateRole* @1.36; ``psp:rook`` is a valid RBAC name (a path segment), not a DNS subdomain."""
    assert pairs(create(obj)[0]) == expected


def other(api_version: str, kind: str, namespaced: bool = True, **body: Any) -> dict[str, Any]:
    md: dict[str, Any] = {"name": "n", "namespace": "default"} if namespaced else {"name": "n"}
    return {"apiVersion": api_version, "kind": kind, "metadata": md, **body}


@pytest.mark.parametrize(
    ("obj", "expected"),
    [
        # TestValidateNetworkPolicy @1.36
        (other("networking.k8s.io/v1", "NetworkPolicy", spec={"podSelector": {"matchLabels": {"a": "b"}}, "ingress": [{"from": [{}]}]}), [("FieldValueRequired", "spec.ingress[0].from[0]")]),
        (other("networking.k8s.io/v1", "NetworkPolicy", spec={"ingress": [{"ports": [{"protocol": "ICMP"}]}]}), [("FieldValueNotSupported", "spec.ingress[0].ports[0].protocol")]),
        (other("networking.k8s.io/v1", "NetworkPolicy", spec={"ingress": [{"ports": [{"port": 66000}]}]}), [("FieldValueInvalid", "spec.ingress[0].ports[0].port")]),
        (other("networking.k8s.io/v1", "NetworkPolicy", spec={"ingress": [{"ports": [{"port": "!@#$"}]}]}),
         [("FieldValueInvalid", "spec.ingress[0].ports[0].port"), ("FieldValueInvalid", "spec.ingress[0].ports[0].port")]),
        (other("networking.k8s.io/v1", "NetworkPolicy", spec={"ingress": [{"from": [{"ipBlock": {"cidr": "192.168.0.0/16", "except": ["192.169.0.0/24"]}}]}]}),
         [("FieldValueInvalid", "spec.ingress[0].from[0].ipBlock.except[0]")]),
        (other("networking.k8s.io/v1", "NetworkPolicy", spec={"ingress": [{"from": [{"ipBlock": {"cidr": "192.168.0.0/16", "except": ["192.168.0.0/16"]}}]}]}),
         [("FieldValueInvalid", "spec.ingress[0].from[0].ipBlock.except[0]")]),
        (other("networking.k8s.io/v1", "NetworkPolicy", spec={"ingress": [{"from": [{"ipBlock": {"cidr": "192.168.0.0/16"}, "podSelector": {}}]}]}),
         [("FieldValueForbidden", "spec.ingress[0].from[0]")]),
        (other("networking.k8s.io/v1", "NetworkPolicy", spec={"policyTypes": ["foo", "bar"]}),
         [("FieldValueNotSupported", "spec.policyTypes[0]"), ("FieldValueNotSupported", "spec.policyTypes[1]")]),
        (other("networking.k8s.io/v1", "NetworkPolicy", spec={"policyTypes": ["Ingress", "Egress", "Ingress"]}), [("FieldValueInvalid", "spec.policyTypes")]),
        # TestValidateIngressClass @1.36
        (other("networking.k8s.io/v1", "IngressClass", False, spec={"controller": "foo.co/bar"}), []),
        (other("networking.k8s.io/v1", "IngressClass", False, spec={"controller": "foo.co/bar", "parameters": {"kind": "k", "name": "n", "scope": "Namespace"}}),
         [("FieldValueRequired", "spec.parameters.namespace")]),
        (other("networking.k8s.io/v1", "IngressClass", False, spec={"controller": "foo.co/bar", "parameters": {"kind": "k", "name": "n", "namespace": "x"}}),
         [("FieldValueForbidden", "spec.parameters.namespace")]),
        (other("networking.k8s.io/v1", "IngressClass", False, spec={"controller": "foo*.co/bar"}), [("FieldValueInvalid", "spec.controller")]),
        # Ingress
        (other("networking.k8s.io/v1", "Ingress", spec={}), [("FieldValueInvalid", "spec")]),
        (other("networking.k8s.io/v1", "Ingress", spec={"rules": [{"host": "1.2.3.4", "http": {"paths": [{"path": "/", "pathType": "Prefix", "backend": {"service": {"name": "s", "port": {"number": 80}}}}]}}]}),
         [("FieldValueInvalid", "spec.rules[0].host")]),
        (other("networking.k8s.io/v1", "Ingress", spec={"rules": [{"http": {"paths": [{"path": "foo", "backend": {"service": {"name": "s", "port": {"name": "http"}}}}]}}]}),
         [("FieldValueRequired", "spec.rules[0].http.paths[0].pathType")]),
        (other("networking.k8s.io/v1", "Ingress", spec={"defaultBackend": {"service": {"name": "s", "port": {"name": "http", "number": 80}}}}),
         [("FieldValueInvalid", "spec.defaultBackend")]),
        # policy, scheduling, coordination, autoscaling, apiregistration
        (other("policy/v1", "PodDisruptionBudget", spec={"minAvailable": -1}), [("FieldValueInvalid", "spec.minAvailable")]),
        (other("policy/v1", "PodDisruptionBudget", spec={"maxUnavailable": "1%", "unhealthyPodEvictionPolicy": "Foo"}), [("FieldValueNotSupported", "spec.unhealthyPodEvictionPolicy")]),
        (other("scheduling.k8s.io/v1", "PriorityClass", False, value=2000000000), [("FieldValueForbidden", "value")]),
        (other("scheduling.k8s.io/v1", "PriorityClass", False, value=100, preemptionPolicy="Sometimes"), [("FieldValueNotSupported", "preemptionPolicy")]),
        (other("coordination.k8s.io/v1", "Lease", spec={"leaseTransitions": -1}), [("FieldValueInvalid", "spec.leaseTransitions")]),
        (other("autoscaling/v2", "HorizontalPodAutoscaler", spec={"scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "d"}, "maxReplicas": 3, "minReplicas": 0}),
         [("FieldValueInvalid", "spec.minReplicas"), ("FieldValueForbidden", "spec.metrics")]),
        (other("autoscaling/v2", "HorizontalPodAutoscaler", spec={"scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "d"}, "maxReplicas": 3,
                                                                   "metrics": [{"type": "Resource", "resource": {"name": "cpu", "target": {"type": "Utilization"}}}]}),
         [("FieldValueRequired", "spec.metrics[0].resource.target.averageUtilization")]),
        (other("autoscaling/v1", "HorizontalPodAutoscaler", spec={"scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "d"}, "maxReplicas": 3, "targetCPUUtilizationPercentage": 0}),
         [("FieldValueInvalid", "spec.metrics[0].resource.target.averageUtilization")]),
        (other("apiregistration.k8s.io/v1", "APIService", False, spec={"group": "metrics.k8s.io", "version": "v1beta1", "groupPriorityMinimum": 100, "versionPriority": 100}),
         [("FieldValueInvalid", "metadata.name")]),
    ],
)
def test_other_kinds_1_36(obj: dict[str, Any], expected: list[tuple[str, str]]) -> None:
    assert pairs(create(obj)[0]) == expected


def test_hpa_api_version_checked_from_1_34() -> None:
    obj = other("autoscaling/v2", "HorizontalPodAutoscaler", spec={"scaleTargetRef": {"apiVersion": "v1", "kind": "Deployment", "name": "d"}, "maxReplicas": 3})
    assert pairs(create(obj, "1.34")[0]) == [("FieldValueInvalid", "spec.scaleTargetRef.apiVersion")]
    assert create(obj, "1.33")[0] == []


def test_api_service_name_text() -> None:
    obj = other("apiregistration.k8s.io/v1", "APIService", False, spec={"group": "metrics.k8s.io", "version": "v1beta1", "groupPriorityMinimum": 100, "versionPriority": 100,
                                                                        "service": {"name": "m", "namespace": "kube-system"}})
    assert [str(e) for e in create(obj)[0]] == ['metadata.name: Invalid value: "n": must be `spec.version+"."+spec.group`: "v1beta1.metrics.k8s.io"']
    obj["metadata"]["name"] = "v1beta1.metrics.k8s.io"
    errs, _, stored = create(obj)
    assert errs == [] and stored["spec"]["service"]["port"] == 443


def test_pod_template_warnings_1_36() -> None:
    """pkg/api/pod/warnings.go @1.36 (TestWarnings rows: deprecated node labels, env redefinition, duplicate
    ports and port names, fractional bytes, gitRepo per release)."""
    obj = deployment()
    spec = obj["spec"]["template"]["spec"]
    spec["nodeSelector"] = {"beta.kubernetes.io/os": "linux"}
    spec["volumes"] = [{"name": "g", "gitRepo": {"repository": "r"}}]
    spec["containers"][0].update(
        env=[{"name": "A", "value": "1"}, {"name": "A", "value": "2"}],
        ports=[{"name": "http", "containerPort": 80}, {"name": "http", "containerPort": 80}],
        resources={"limits": {"memory": "1.5"}},
    )
    errs, warnings, _ = create(obj)
    assert pairs(errs) == [("FieldValueDuplicate", "spec.template.spec.containers[0].ports[1].name")]
    obj["spec"]["template"]["spec"]["containers"][0]["ports"][1]["name"] = "web"
    obj["spec"]["template"]["spec"]["containers"][0]["ports"].append({"name": "http2", "containerPort": 81})
    obj["spec"]["template"]["spec"]["containers"][0]["ports"][2]["name"] = "http"
    errs, warnings, _ = create(obj)
    assert pairs(errs) == [("FieldValueDuplicate", "spec.template.spec.containers[0].ports[2].name")]
    errs, warnings, _ = create(deployment(template={"metadata": {"labels": {"name": "abc"}}, "spec": {
        "nodeSelector": {"beta.kubernetes.io/os": "linux"},
        "volumes": [{"name": "g", "gitRepo": {"repository": "r"}}],
        "containers": [{"name": "a", "image": "i", "env": [{"name": "A", "value": "1"}, {"name": "A", "value": "2"}],
                        "ports": [{"containerPort": 80}, {"containerPort": 80}], "resources": {"limits": {"memory": "1.5"}}},
                       {"name": "b", "image": "i", "ports": [{"name": "p", "containerPort": 81}]},
                       {"name": "c", "image": "i", "ports": [{"name": "p", "containerPort": 82}]}]}}))
    assert errs == []
    assert warnings == [
        'spec.template.spec.nodeSelector[beta.kubernetes.io/os]: deprecated since v1.14; use "kubernetes.io/os" instead',
        "spec.template.spec.volumes[0].gitRepo: deprecated in v1.11, and disabled by default in v1.33+",
        'spec.template.spec.containers[0].resources.limits[memory]: fractional byte value "1500m" is invalid, must be an integer',
        'spec.template.spec.containers[0].env[1]: hides previous definition of "A", which may be dropped when using apply',
        "spec.template.spec.containers[0].ports[1]: duplicate port definition with spec.template.spec.containers[0].ports[0]",
        'spec.template.spec.containers[2].ports[0]: duplicate port name "p" with spec.template.spec.containers[1].ports[0], services and probes that select ports by name will use spec.template.spec.containers[1].ports[0]',
    ]


def test_stateful_set_pod_template_checked_from_1_34() -> None:
    """ValidatePodTemplateSpecForStatefulSet: @v1.33 the pod spec is not validated (the call is commented out
    upstream), @v1.34 it is, with the claim templates as volumes."""
    body = stateful_set()
    body["spec"]["template"]["spec"]["containers"][0]["imagePullPolicy"] = "Sometimes"
    assert pairs(create(body, "1.34")[0]) == [("FieldValueNotSupported", "spec.template.spec.containers[0].imagePullPolicy")]
    assert create(body, "1.33")[0] == []


def test_bad_values_render_per_release() -> None:
    """A label map or selector as the bad value: JSON from 1.34 (field/errors.go @v0.34), Go's %#v of the
    internal type before (@v0.33: map[string]string, *v1.LabelSelector)."""
    obj = deployment(selector={"matchLabels": {"name": "def"}})
    assert [str(e.at_release(33)) for e in create(obj, "1.33")[0]] == ['spec.template.metadata.labels: Invalid value: map[string]string{"name":"abc"}: `selector` does not match template `labels`']
    assert [str(e) for e in create(obj, "1.36")[0]] == ['spec.template.metadata.labels: Invalid value: {"name":"abc"}: `selector` does not match template `labels`']
    obj = deployment(selector={})
    errs = create(obj, "1.33")[0]
    assert str(errs[0].at_release(33)) == "spec.selector: Invalid value: &v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for deployment"
