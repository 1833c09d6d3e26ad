"""ConfigMap, Secret, Namespace, ServiceAccount, Service and pod-template validation, cases from
kubernetes/kubernetes ``pkg/apis/core/validation/validation_test.go`` (openshift/microshift ``release-4.23`` =
1.36: ``TestValidateConfigMap``, ``TestValidateSecret``, ``TestValidateDockerConfigSecret``,
``TestValidateBasicAuthSecret``, ``TestValidateSSHAuthSecret``, ``TestValidatePorts``, ``TestValidateEnv``,
``TestValidatePullPolicy``, ``TestValidateProbe``, ``TestValidateServiceCreate``)."""

from __future__ import annotations

import base64
from typing import Any

import pytest

from crdtool.core.apis.core.validation import validate_container_ports, validate_env
from crdtool.core.errors import Path
from crdtool.core.releases import resolve_release
from tests.core.apis._create import create, pairs

R36 = resolve_release("1.36")


def config_map(name: str = "validname", ns: str = "validns", data: dict[str, str] | None = None, binary: dict[str, bytes] | None = None) -> dict[str, Any]:
    obj: dict[str, Any] = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name, "namespace": ns}}
    if data is not None:
        obj["data"] = data
    if binary is not None:
        obj["binaryData"] = {k: base64.b64encode(v).decode() for k, v in binary.items()}
    return obj


@pytest.mark.parametrize(
    ("obj", "valid"),
    [
        (config_map(data={"key": "value"}, binary={"bin": b"value"}), True),
        (config_map(data={"a" * 253: "value"}), True),
        (config_map(data={".ab": "value"}), True),
        (config_map(name=""), False),
        (config_map(name="NoUppercaseOrSpecialCharsLike=Equals"), False),
        (config_map(data={"a*b": "value"}), False),
        (config_map(ns=""), False),
        (config_map(ns="NoUppercaseOrSpecialCharsLike=Equals"), False),
        (config_map(data={".": "value"}), False),
        (config_map(data={"..": "value"}), False),
        (config_map(data={"a" * 254: "value"}), False),
        (config_map(data={"key": "a" * (1024 * 1024 + 1)}), False),
        (config_map(data={"key": "value1"}, binary={"key": b"value2"}), False),
        (config_map(binary={"a*b": b"value"}), False),
        (config_map(binary={".ab": b"value"}), True),
        (config_map(binary={".": b"value"}), False),
        (config_map(binary={"..": b"value"}), False),
        (config_map(binary={"a" * 254: b"value"}), False),
        (config_map(binary={"bin": b"a" * (1024 * 1024 + 1)}), False),
        (config_map(binary={"key": bytes([0, 0xFE, 0, 0xFF])}), True),
    ],
)
def test_config_map_1_36(obj: dict[str, Any], valid: bool) -> None:
    """TestValidateConfigMap @1.36."""
    assert (create(obj)[0] == []) is valid


def test_config_map_too_big_is_too_long_at_the_root() -> None:
    errs = create(config_map(data={"key": "a" * (1024 * 1024 + 1)}))[0]
    assert [str(e) for e in errs] == [": Too long: may not be more than 1048576 bytes"]


def secret(data: dict[str, bytes] | None = None, type_: str | None = None, annotations: dict[str, str] | None = None, name: str = "foo", ns: str = "bar") -> dict[str, Any]:
    obj: dict[str, Any] = {"apiVersion": "v1", "kind": "Secret", "metadata": {"name": name, "namespace": ns}}
    if annotations is not None:
        obj["metadata"]["annotations"] = annotations
    if data is not None:
        obj["data"] = {k: base64.b64encode(v).decode() for k, v in data.items()}
    if type_ is not None:
        obj["type"] = type_
    return obj


SA = "kubernetes.io/service-account.name"


@pytest.mark.parametrize(
    ("obj", "valid"),
    [
        (secret({"data-1": b"bar"}), True),
        (secret({"data-1": b"bar"}, name=""), False),
        (secret({"data-1": b"bar"}, name="NoUppercaseOrSpecialCharsLike=Equals"), False),
        (secret({"data-1": b"bar"}, ns=""), False),
        (secret({"over": bytes(1024 * 1024 + 1)}), False),
        (secret({"data-1": b"bar", "a*b": b"whoops"}), False),
        (secret({"data-1": b"bar"}, "kubernetes.io/service-account-token", {SA: "foo"}), True),
        (secret({"data-1": b"bar"}, "kubernetes.io/service-account-token", {SA: ""}), False),
        (secret({"data-1": b"bar"}, "kubernetes.io/service-account-token", {}), False),
        (secret({"data-1": b"bar", ".key": b"bar"}), True),
        (secret({"data-1": b"bar", ".": b"bar"}), False),
        (secret({"data-1": b"bar", "..": b"bar"}), False),
        # TestValidateDockerConfigSecret
        (secret({".dockercfg": b'{"https://index.docker.io/v1/": {"auth": "Y2x1ZWRyb29sczpwYXNzd29yZA==","email": "fake@example.com"}}'}, "kubernetes.io/dockercfg"), True),
        (secret({}, "kubernetes.io/dockercfg"), False),
        (secret({".dockercfg": b""}, "kubernetes.io/dockercfg"), False),
        (secret({".dockercfg": b"bad"}, "kubernetes.io/dockercfg"), False),
        (secret({".dockerconfigjson": b"bad"}, "kubernetes.io/dockerconfigjson"), False),
        # TestValidateBasicAuthSecret
        (secret({"username": b"", "password": b""}, "kubernetes.io/basic-auth"), True),
        (secret({}, "kubernetes.io/basic-auth"), False),
        # TestValidateSSHAuthSecret
        (secret({"ssh-privatekey": b"foo-bar-baz"}, "kubernetes.io/ssh-auth"), True),
        (secret({}, "kubernetes.io/ssh-auth"), False),
    ],
)
def test_secret_1_36(obj: dict[str, Any], valid: bool) -> None:
    """TestValidateSecret and the per-type tables @1.36."""
    assert (create(obj)[0] == []) is valid


def test_secret_texts() -> None:
    errs = create(secret({".dockercfg": b"bad"}, "kubernetes.io/dockercfg"))[0]
    assert [str(e) for e in errs] == ['data[.dockercfg]: Invalid value: "<secret contents redacted>": invalid character \'b\' looking for beginning of value']
    errs = create(secret({}, "kubernetes.io/basic-auth"))[0]
    assert pairs(errs) == [("FieldValueRequired", "data[username]"), ("FieldValueRequired", "data[password]")]
    # stringData is merged into data before validation (Convert_v1_Secret_To_core_Secret)
    obj = secret(type_="kubernetes.io/tls")
    obj["stringData"] = {"tls.crt": "x"}
    assert pairs(create(obj)[0]) == [("FieldValueRequired", "data[tls.key]")]


def test_namespace_service_account() -> None:
    errs = create({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "a.b"}})[0]
    assert [str(e) for e in errs] == ['metadata.name: Invalid value: "a.b": must not contain dots']
    ns = create({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "ok"}})
    assert ns[0] == [] and ns[2]["spec"]["finalizers"] == ["kubernetes"]
    assert ns[2]["metadata"]["labels"] == {"kubernetes.io/metadata.name": "ok"}
    errs, warnings, _ = create({"apiVersion": "v1", "kind": "ServiceAccount", "metadata": {"name": "sa", "namespace": "d", "annotations": {"kubernetes.io/enforce-mountable-secrets": "true"}}})
    assert errs == [] and warnings == ["metadata.annotations[kubernetes.io/enforce-mountable-secrets]: deprecated in v1.32+; prefer separate namespaces to isolate access to mounted secrets"]


@pytest.mark.parametrize(
    ("ports", "expected"),
    [
        # TestValidatePorts errorCases @1.36 (type, field)
        ([{"name": "name-to-long-than-15-chars", "containerPort": 80, "protocol": "TCP"}], [("FieldValueInvalid", "[0].name")]),
        ([{"name": "1234", "containerPort": 80, "protocol": "TCP"}], [("FieldValueInvalid", "[0].name")]),
        ([{"name": "abc", "containerPort": 0, "protocol": "TCP"}], [("FieldValueRequired", "[0].containerPort")]),
        ([{"name": "abc", "containerPort": 65536, "protocol": "TCP"}], [("FieldValueInvalid", "[0].containerPort")]),
        ([{"name": "abc", "containerPort": 80, "hostPort": 65536, "protocol": "TCP"}], [("FieldValueInvalid", "[0].hostPort")]),
        ([{"name": "abc", "containerPort": 80, "protocol": "UNKNOWN"}], [("FieldValueNotSupported", "[0].protocol")]),
        ([{"name": "abc", "containerPort": 80, "protocol": ""}], [("FieldValueRequired", "[0].protocol")]),
        ([{"name": "a", "containerPort": 80, "protocol": "TCP"}, {"name": "a", "containerPort": 81, "protocol": "TCP"}], [("FieldValueDuplicate", "[1].name")]),
    ],
)
def test_container_ports_1_36(ports: list[dict[str, Any]], expected: list[tuple[str, str]]) -> None:
    assert pairs(validate_container_ports(ports, Path(""))) == expected


def test_env_1_36_and_relaxed_names_per_release() -> None:
    """TestValidateEnv @1.36: a value source with two members; names relaxed from 1.32 (gate
    RelaxedEnvironmentVariableValidation), strict before."""
    env = [{"name": "abc", "valueFrom": {"fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.name"}, "secretKeyRef": {"name": "a", "key": "b"}}}]
    assert [str(e) for e in validate_env(env, Path("field"), R36)] == ['field[0].valueFrom: Invalid value: "": may not have more than one field specified at a time']
    env = [{"name": "1abc", "value": "x"}]
    assert validate_env(env, Path("f"), R36) == []
    assert pairs(validate_env(env, Path("f"), resolve_release("1.31"))) == [("FieldValueInvalid", "f[0].name")]
    env = [{"name": "a=b", "value": "x"}]
    assert [e.detail for e in validate_env(env, Path("f"), R36)] == ["a valid environment variable name must consist only of printable ASCII characters other than '='"]


def deployment(container: dict[str, Any], **spec: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"selector": {"matchLabels": {"a": "b"}}, "template": {"metadata": {"labels": {"a": "b"}}, "spec": {"containers": [container]}}}
    body.update(spec)
    return {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "d", "namespace": "ns"}, "spec": body}


def test_pull_policy_probe_and_defaults() -> None:
    """TestValidatePullPolicy / TestValidateProbe @1.36 through a Deployment; defaults make a bare container
    valid (SetDefaults_Container: imagePullPolicy from the tag, terminationMessagePolicy)."""
    assert create(deployment({"name": "c", "image": "nginx"}))[0] == []
    stored = create(deployment({"name": "c", "image": "nginx"}))[2]["spec"]["template"]["spec"]
    assert stored["containers"][0]["imagePullPolicy"] == "Always"
    assert stored["terminationGracePeriodSeconds"] == 30 and stored["dnsPolicy"] == "ClusterFirst"
    assert create(deployment({"name": "c", "image": "nginx:1.2"}))[2]["spec"]["template"]["spec"]["containers"][0]["imagePullPolicy"] == "IfNotPresent"
    errs = create(deployment({"name": "c", "image": "nginx", "imagePullPolicy": "Sometimes"}))[0]
    assert [str(e) for e in errs] == ['spec.template.spec.containers[0].imagePullPolicy: Unsupported value: "Sometimes": supported values: "Always", "IfNotPresent", "Never"']
    errs = create(deployment({"name": "c", "image": "i", "livenessProbe": {"exec": {"command": ["x"]}, "successThreshold": 2}}))[0]
    assert pairs(errs) == [("FieldValueInvalid", "spec.template.spec.containers[0].livenessProbe.successThreshold")]
    errs = create(deployment({"name": "c", "image": "i", "readinessProbe": {}}))[0]
    assert [str(e) for e in errs] == ["spec.template.spec.containers[0].readinessProbe: Required value: must specify a handler type"]


def test_volumes_and_mounts() -> None:
    container = {"name": "c", "image": "i", "volumeMounts": [{"name": "missing", "mountPath": "/x"}]}
    body = deployment(container)
    body["spec"]["template"]["spec"]["volumes"] = [{"name": "v", "secret": {}}, {"name": "Bad_Name", "emptyDir": {}}, {"name": "c", "configMap": {"name": "x"}, "secret": {"secretName": "y"}}]
    assert pairs(create(body)[0]) == [
        ("FieldValueRequired", "spec.template.spec.volumes[0].secret.secretName"),
        ("FieldValueInvalid", "spec.template.spec.volumes[1].name"),
        ("FieldValueForbidden", "spec.template.spec.volumes[2].configMap"),
        ("FieldValueNotFound", "spec.template.spec.containers[0].volumeMounts[0].name"),
    ]


def service(**spec: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"selector": {"key": "val"}, "ports": [{"name": "p", "port": 80, "targetPort": 80}]}
    body.update(spec)
    return {"apiVersion": "v1", "kind": "Service", "metadata": {"name": "valid", "namespace": "default"}, "spec": body}


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        # TestValidateServiceCreate-style cases @1.36 (type, field)
        ({"ports": []}, [("FieldValueRequired", "spec.ports")]),
        ({"type": "Bogus"}, [("FieldValueNotSupported", "spec.type")]),
        ({"ports": [{"name": "p", "port": 80}, {"port": 81}]}, [("FieldValueRequired", "spec.ports[1].name")]),
        ({"ports": [{"name": "p", "port": 80}, {"name": "p", "port": 81}]}, [("FieldValueDuplicate", "spec.ports[1].name")]),
        ({"ports": [{"name": "p", "port": 65536, "targetPort": 80}]}, [("FieldValueInvalid", "spec.ports[0].port")]),
        ({"ports": [{"name": "p", "port": 80, "protocol": "ICMP"}]}, [("FieldValueNotSupported", "spec.ports[0].protocol")]),
        ({"ports": [{"name": "p", "port": 80, "nodePort": 30001}]}, [("FieldValueForbidden", "spec.ports[0].nodePort")]),
        ({"sessionAffinity": "Bogus"}, [("FieldValueNotSupported", "spec.sessionAffinity")]),
        ({"type": "ExternalName", "externalName": "foo_bar"}, [("FieldValueInvalid", "spec.externalName")]),
        ({"type": "ExternalName"}, [("FieldValueRequired", "spec.externalName")]),
        ({"clusterIP": "None", "type": "NodePort"}, [("FieldValueInvalid", "spec.clusterIPs[0]")]),
        ({"externalTrafficPolicy": "Local"}, [("FieldValueInvalid", "spec.externalTrafficPolicy")]),
        ({"loadBalancerSourceRanges": ["10.0.0.0/8"]}, [("FieldValueForbidden", "spec.LoadBalancerSourceRanges")]),
        ({"clusterIP": "1.2.3.4.5"}, [("FieldValueInvalid", "spec.clusterIPs[0]")]),
        ({"type": "NodePort", "ports": [{"name": "p", "port": 80, "nodePort": 1}]}, [("FieldValueInvalid", "spec.ports[0].nodePort")]),
        ({"ipFamilyPolicy": "RequireDualStack"}, [("FieldValueInvalid", "spec.ipFamilyPolicy")]),
    ],
)
def test_service_create_1_36(spec: dict[str, Any], expected: list[tuple[str, str]]) -> None:
    assert pairs(create(service(**spec))[0]) == expected


def test_service_allocation() -> None:
    """A LoadBalancer with externalTrafficPolicy Local gets a cluster IP, node ports and a health-check node
    port before validation (storage.go beginCreate; alloc.go), so it is valid."""
    errs, _, stored = create(service(type="LoadBalancer", externalTrafficPolicy="Local"))
    assert errs == []
    spec = stored["spec"]
    assert spec["clusterIPs"] == [spec["clusterIP"]] and spec["ipFamilies"] == ["IPv4"] and spec["ipFamilyPolicy"] == "SingleStack"
    assert 30000 <= spec["ports"][0]["nodePort"] <= 32767 and spec["healthCheckNodePort"] != spec["ports"][0]["nodePort"]
    errs = create(service(type="NodePort", ports=[{"name": "p", "port": 80, "nodePort": 1}]))[0]
    assert [str(e) for e in errs] == ["spec.ports[0].nodePort: Invalid value: 1: provided port is not in the valid range. The range of valid ports is 30000-32767"]
    headless = create(service(clusterIP="None", selector=None))
    assert headless[0] == [] and headless[2]["spec"]["ipFamilies"] == ["IPv4", "IPv6"]


def test_service_name_per_release() -> None:
    """RelaxedServiceNameValidation (Beta on in 1.36): a name starting with a digit is an RFC 1123 label."""
    obj = service()
    obj["metadata"]["name"] = "1abc"
    assert create(obj, "1.36")[0] == []
    assert pairs(create(obj, "1.35")[0]) == [("FieldValueInvalid", "metadata.name")]


def test_security_context_and_affinity_1_36() -> None:
    """ValidateSecurityContext / validateAffinity @1.36 (TestValidateSecurityContext, TestValidateAffinity rows)."""
    ctr = {"name": "c", "image": "i", "securityContext": {"runAsUser": -1, "allowPrivilegeEscalation": False, "privileged": True,
                                                         "seccompProfile": {"type": "Localhost"}}}
    assert pairs(create(deployment(ctr))[0]) == [
        ("FieldValueInvalid", "spec.template.spec.containers[0].securityContext.runAsUser"),
        ("FieldValueRequired", "spec.template.spec.containers[0].securityContext.seccompProfile.localhostProfile"),
        ("FieldValueInvalid", "spec.template.spec.containers[0].securityContext"),
    ]
    body = deployment({"name": "c", "image": "i"})
    body["spec"]["template"]["spec"]["affinity"] = {
        "nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [{"matchExpressions": [{"key": "k", "operator": "In", "values": ["a b"]}]}]}},
        "podAntiAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [{"weight": 0, "podAffinityTerm": {"labelSelector": {"matchLabels": {"a": "b"}}}}]},
    }
    assert pairs(create(body)[0]) == [
        ("FieldValueInvalid", "spec.template.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].values[0]"),
        ("FieldValueInvalid", "spec.template.spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight"),
        ("FieldValueRequired", "spec.template.spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.topologyKey"),
        # ValidateLabelName(""): IsQualifiedName says "name part must be non-empty" and the regex message
        ("FieldValueInvalid", "spec.template.spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.topologyKey"),
        ("FieldValueInvalid", "spec.template.spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.topologyKey"),
    ]
    # node affinity values are label values from 1.32 (ValidateNodeSelectorRequirement @v1.32)
    assert len(create(body, "1.31")[0]) == 4


def test_topology_spread_constraints_1_36() -> None:
    """validateTopologySpreadConstraints @1.36 (TestValidateTopologySpreadConstraints rows)."""
    body = deployment({"name": "c", "image": "i"})
    tsc = {"maxSkew": 0, "topologyKey": "", "whenUnsatisfiable": "N/A", "minDomains": 2}
    body["spec"]["template"]["spec"]["topologySpreadConstraints"] = [tsc, {"maxSkew": 1, "topologyKey": "k", "whenUnsatisfiable": "DoNotSchedule"},
                                                                     {"maxSkew": 1, "topologyKey": "k", "whenUnsatisfiable": "DoNotSchedule"}]
    p = "spec.template.spec.topologySpreadConstraints"
    assert pairs(create(body)[0]) == [
        ("FieldValueInvalid", f"{p}[0].maxSkew"),
        ("FieldValueRequired", f"{p}[0].topologyKey"),
        ("FieldValueNotSupported", f"{p}[0].whenUnsatisfiable"),
        ("FieldValueInvalid", f"{p}[0].minDomains"),
        ("FieldValueDuplicate", f"{p}[1].{{topologyKey, whenUnsatisfiable}}"),
    ]


def test_dns_config_and_external_ips() -> None:
    """validatePodDNSConfig @1.36/@1.32 and ValidateEndpointIP through validateService @1.36."""
    body = deployment({"name": "c", "image": "i"})
    body["spec"]["template"]["spec"].update(dnsPolicy="None")
    assert [str(e) for e in create(body)[0]] == ["spec.template.spec.dnsConfig: Required value: must provide `dnsConfig` when `dnsPolicy` is None"]
    body["spec"]["template"]["spec"].update(dnsConfig={"nameservers": ["1.2.3.4"], "searches": ["_srv.example.com"], "options": [{}]})
    assert pairs(create(body)[0]) == [("FieldValueRequired", "spec.template.spec.dnsConfig.options[0]")]
    # underscores in search paths need RelaxedDNSSearchValidation (on by default from 1.33)
    assert pairs(create(body, "1.32")[0]) == [("FieldValueInvalid", "spec.template.spec.dnsConfig.searches[0]"), ("FieldValueRequired", "spec.template.spec.dnsConfig.options[0]")]
    errs = create(service(externalIPs=["127.0.0.1"]))[0]
    assert [str(e) for e in errs] == ['spec.externalIPs[0]: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)']
    errs = create(service(type="LoadBalancer", loadBalancerSourceRanges=["10.0.0.0/33"]))[0]
    assert pairs(errs) == [("FieldValueInvalid", "spec.LoadBalancerSourceRanges[0]")]


def test_pod_create_1_36() -> None:
    """ValidatePodCreate @1.36 (Helm test hooks are Pods): defaults (requests from limits, enableServiceLinks),
    QoS class in the status, the image whitespace rule."""
    pod = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "t", "namespace": "d"},
           "spec": {"restartPolicy": "Never", "containers": [{"name": "c", "image": " busybox", "resources": {"limits": {"cpu": "1", "memory": "1Gi"}}}]}}
    errs, warnings, stored = create(pod)
    assert [str(e) for e in errs] == ['spec.containers[0].image: Invalid value: " busybox": must not have leading or trailing whitespace']
    assert stored["spec"]["containers"][0]["resources"]["requests"] == {"cpu": "1", "memory": "1Gi"}
    assert stored["spec"]["enableServiceLinks"] is True and stored["status"] == {"phase": "Pending", "qosClass": "Guaranteed"}


def test_pod_specific_annotations() -> None:
    """ValidatePodSpecificAnnotations @1.36: pod-deletion-cost must be a 32-bit integer (no sign, no leading 0)."""
    for value, ok in (("10", True), ("-5", True), ("0", True), ("+1", False), ("08", False), ("x", False), ("2147483648", False)):
        body = deployment({"name": "c", "image": "i"})
        body["spec"]["template"]["metadata"]["annotations"] = {"controller.kubernetes.io/pod-deletion-cost": value}
        errs = create(body)[0]
        assert (errs == []) is ok, value
        if not ok:
            assert pairs(errs) == [("FieldValueInvalid", "spec.template.annotations[controller.kubernetes.io/pod-deletion-cost]")]
