"""Container-list validation, cases from kubernetes/kubernetes ``pkg/apis/core/validation/validation_test.go``
(openshift/microshift ``release-4.23`` = 1.36): ``TestValidateContainers`` and ``TestValidateInitContainers``
error tables (compared as upstream does: the type and field of every error, in order, details ignored), plus
the resize-policy and container restart-rule checks (``validateResizePolicy``, ``validateContainerRestartPolicy``,
``validateInitContainerRestartPolicy``) at the releases whose gates upstream's options stand for.

Upstream calls ``validateContainers`` / ``validateInitContainers`` with ``PodValidationOptions{}`` (every gate
option off): the cases run at 1.31, whose create-time options are the same for these checks (strict environment
variable names, no container restart rules); the rows that depend on an option run at the releases below."""

from __future__ import annotations

from typing import Any

import pytest

from crdtool.core.apis.core.validation import validate_containers, validate_init_containers
from crdtool.core.errors import Path
from crdtool.core.releases import resolve_release
from tests.core.apis._create import create, pairs

R31 = resolve_release("1.31")
IN, RQ, NS, DU, NF, FB = "FieldValueInvalid", "FieldValueRequired", "FieldValueNotSupported", "FieldValueDuplicate", "FieldValueNotFound", "FieldValueForbidden"


def ctr(name: str = "abc", **kw: Any) -> dict[str, Any]:
    """An internal ``core.Container`` literal of the tables: ``ImagePullPolicy: IfNotPresent``,
    ``TerminationMessagePolicy: File`` unless given."""
    out: dict[str, Any] = {"name": name, "image": "image", "imagePullPolicy": "IfNotPresent", "terminationMessagePolicy": "File"}
    out.update(kw)
    return out


TCP80 = {"tcpSocket": {"port": 80}}
NEG = {"initialDelaySeconds": -1, "timeoutSeconds": -1, "periodSeconds": -1, "successThreshold": -1, "failureThreshold": -1,
       "terminationGracePeriodSeconds": -1}


def res(cpu: str, mem: str) -> dict[str, str]:
    """Upstream ``getResources(cpu, memory, "", "")``: empty quantities are left out."""
    return {k: v for k, v in (("cpu", cpu), ("memory", mem)) if v}


C = "containers[0]"
CONTAINER_ERRORS: list[tuple[str, list[dict[str, Any]], list[tuple[str, str]]]] = [
    ("zero-length name", [ctr("")], [(RQ, f"{C}.name")]),
    ("zero-length-image", [ctr(image="")], [(RQ, f"{C}.image")]),
    ("name > 63 characters", [ctr("a" * 64)], [(IN, f"{C}.name")]),
    ("name not a DNS label", [ctr("a.b.c")], [(IN, f"{C}.name")]),
    ("name not unique", [ctr(), ctr()], [(DU, "containers[1].name")]),
    ("host port not unique", [ctr(ports=[{"containerPort": 80, "hostPort": 80, "protocol": "TCP"}]),
                              ctr("def", ports=[{"containerPort": 81, "hostPort": 80, "protocol": "TCP"}])],
     [(DU, "containers[1].ports[0].hostPort")]),
    ("invalid env var name", [ctr(env=[{"name": "ev!1"}])], [(IN, f"{C}.env[0].name")]),
    ("unknown volume name", [ctr(volumeMounts=[{"name": "anything", "mountPath": "/foo"}])], [(NF, f"{C}.volumeMounts[0].name")]),
    ("invalid lifecycle, no exec command.", [ctr(lifecycle={"preStop": {"exec": {}}})], [(RQ, f"{C}.lifecycle.preStop.exec.command")]),
    ("invalid lifecycle, no http path.", [ctr(lifecycle={"preStop": {"httpGet": {"port": 80, "scheme": "HTTP"}}})],
     [(RQ, f"{C}.lifecycle.preStop.httpGet.path")]),
    ("invalid lifecycle, no http port.", [ctr(lifecycle={"preStop": {"httpGet": {"path": "/", "scheme": "HTTP"}}})],
     [(IN, f"{C}.lifecycle.preStop.httpGet.port")]),
    ("invalid lifecycle, no http scheme.", [ctr(lifecycle={"preStop": {"httpGet": {"path": "/", "port": 80}}})],
     [(NS, f"{C}.lifecycle.preStop.httpGet.scheme")]),
    ("invalid lifecycle, no tcp socket port.", [ctr(lifecycle={"preStop": {"tcpSocket": {}}})], [(IN, f"{C}.lifecycle.preStop.tcpSocket.port")]),
    ("invalid lifecycle, zero tcp socket port.", [ctr(lifecycle={"preStop": {"tcpSocket": {"port": 0}}})], [(IN, f"{C}.lifecycle.preStop.tcpSocket.port")]),
    ("invalid lifecycle, no action.", [ctr(lifecycle={"preStop": {}})], [(RQ, f"{C}.lifecycle.preStop")]),
    ("invalid readiness probe, terminationGracePeriodSeconds set.", [ctr(readinessProbe={**TCP80, "terminationGracePeriodSeconds": 10})],
     [(IN, f"{C}.readinessProbe.terminationGracePeriodSeconds")]),
    ("invalid liveness probe, no tcp socket port.", [ctr(livenessProbe={"tcpSocket": {}, "successThreshold": 1})], [(IN, f"{C}.livenessProbe.tcpSocket.port")]),
    ("invalid liveness probe, no action.", [ctr(livenessProbe={"successThreshold": 1})], [(RQ, f"{C}.livenessProbe")]),
    ("invalid liveness probe, successThreshold != 1", [ctr(livenessProbe={**TCP80, "successThreshold": 2})], [(IN, f"{C}.livenessProbe.successThreshold")]),
    ("invalid startup probe, successThreshold != 1", [ctr(startupProbe={**TCP80, "successThreshold": 2})], [(IN, f"{C}.startupProbe.successThreshold")]),
    ("invalid liveness probe, negative numbers", [ctr(livenessProbe={**TCP80, **NEG})],
     [(IN, f"{C}.livenessProbe.{k}") for k in ("initialDelaySeconds", "timeoutSeconds", "periodSeconds", "successThreshold", "failureThreshold",
                                               "terminationGracePeriodSeconds", "successThreshold")]),
    ("invalid readiness probe, negative numbers", [ctr(readinessProbe={**TCP80, **NEG})],
     [(IN, f"{C}.readinessProbe.{k}") for k in ("initialDelaySeconds", "timeoutSeconds", "periodSeconds", "successThreshold", "failureThreshold",
                                                "terminationGracePeriodSeconds", "terminationGracePeriodSeconds")]),
    ("invalid startup probe, negative numbers", [ctr(startupProbe={**TCP80, **NEG})],
     [(IN, f"{C}.startupProbe.{k}") for k in ("initialDelaySeconds", "timeoutSeconds", "periodSeconds", "successThreshold", "failureThreshold",
                                              "terminationGracePeriodSeconds", "successThreshold")]),
    ("invalid message termination policy", [ctr(terminationMessagePolicy="Unknown")], [(NS, f"{C}.terminationMessagePolicy")]),
    ("empty message termination policy", [ctr(terminationMessagePolicy="")], [(RQ, f"{C}.terminationMessagePolicy")]),
    ("invalid compute resource", [ctr(resources={"limits": {"disk": "10G"}})], [(IN, f"{C}.resources.limits[disk]")] * 2),
    ("Resource CPU invalid", [ctr(resources={"limits": res("-10", "0")})], [(IN, f"{C}.resources.limits[cpu]")]),
    ("Resource Requests CPU invalid", [ctr(resources={"requests": res("-10", "0")})], [(IN, f"{C}.resources.requests[cpu]")]),
    ("Resource Memory invalid", [ctr(resources={"limits": res("0", "-10")})], [(IN, f"{C}.resources.limits[memory]")]),
    ("Request limit simple invalid", [ctr(resources={"limits": res("5", "3"), "requests": res("6", "3")})], [(IN, f"{C}.resources.requests")]),
    ("Invalid storage limit request", [ctr(resources={"limits": {"attachable-volumes-aws-ebs": "10"}})],
     [(IN, f"{C}.resources.limits[attachable-volumes-aws-ebs]")] * 2),
    ("Memory request limit multiple invalid", [ctr(resources={"limits": res("5", "3"), "requests": res("5", "4")})], [(IN, f"{C}.resources.requests")]),
    ("Invalid env from", [ctr(envFrom=[{"configMapRef": {"name": "$%^&*#"}}])], [(IN, f"{C}.envFrom[0].configMapRef.name")]),
    ("Unsupported resize policy for memory", [ctr(resizePolicy=[{"resourceName": "memory", "restartPolicy": "RestartContainerrrr"}])], [(NS, f"{C}.resizePolicy")]),
    ("Unsupported resize policy for CPU", [ctr(resizePolicy=[{"resourceName": "cpu", "restartPolicy": "RestartNotRequired"}])], [(NS, f"{C}.resizePolicy")]),
    ("Forbidden RestartPolicy: Always", [ctr(restartPolicy="Always")], [(FB, f"{C}.restartPolicy")]),
    ("Forbidden RestartPolicy: OnFailure", [ctr(restartPolicy="OnFailure")], [(FB, f"{C}.restartPolicy")]),
    ("Forbidden RestartPolicy: Never", [ctr(restartPolicy="Never")], [(FB, f"{C}.restartPolicy")]),
    ("Forbidden RestartPolicy: invalid", [ctr(restartPolicy="invalid")], [(FB, f"{C}.restartPolicy")]),
    ("Forbidden RestartPolicy: empty", [ctr(restartPolicy="")], [(FB, f"{C}.restartPolicy")]),
]


@pytest.mark.parametrize(("containers", "expected"), [c[1:] for c in CONTAINER_ERRORS], ids=[c[0] for c in CONTAINER_ERRORS])
def test_validate_containers_error_cases(containers: list[dict[str, Any]], expected: list[tuple[str, str]]) -> None:
    """TestValidateContainers errorCases @release-4.23 (``PodValidationOptions{}``; pod restartPolicy Always)."""
    assert pairs(validate_containers(containers, {}, 30, Path("containers"), R31)) == expected


I = "initContainers[0]"
ALWAYS = {"restartPolicy": "Always"}
INIT_ERRORS: list[tuple[str, list[dict[str, Any]], list[tuple[str, str]]]] = [
    ("empty name", [ctr("")], [(RQ, f"{I}.name")]),
    ("name collision with regular container", [ctr("app")], [(DU, f"{I}.name")]),
    ("invalid termination message policy", [ctr("init", terminationMessagePolicy="Unknown")], [(NS, f"{I}.terminationMessagePolicy")]),
    ("duplicate names", [ctr("init"), ctr("init")], [(DU, "initContainers[1].name")]),
    ("duplicate ports", [ctr(ports=[{"containerPort": 8080, "hostPort": 8080, "protocol": "TCP"}] * 2)], [(DU, f"{I}.ports[1].hostPort")]),
    ("uses disallowed field: Lifecycle", [ctr("debug", lifecycle={"preStop": {"exec": {"command": ["ls", "-l"]}}})], [(FB, f"{I}.lifecycle")]),
    ("uses disallowed field: LivenessProbe", [ctr("debug", livenessProbe={**TCP80, "successThreshold": 1})], [(FB, f"{I}.livenessProbe")]),
    ("uses disallowed field: ReadinessProbe", [ctr("debug", readinessProbe=TCP80)], [(FB, f"{I}.readinessProbe")]),
    ("Container uses disallowed field: StartupProbe", [ctr("debug", startupProbe={**TCP80, "successThreshold": 1})], [(FB, f"{I}.startupProbe")]),
    ("Disallowed field with other errors should only return a single Forbidden", [ctr("debug", startupProbe={**TCP80, **NEG})], [(FB, f"{I}.startupProbe")]),
    ("Not supported RestartPolicy: OnFailure", [ctr("init", restartPolicy="OnFailure")], [(NS, f"{I}.restartPolicy")]),
    ("Not supported RestartPolicy: Never", [ctr("init", restartPolicy="Never")], [(NS, f"{I}.restartPolicy")]),
    ("Not supported RestartPolicy: invalid", [ctr("init", restartPolicy="invalid")], [(NS, f"{I}.restartPolicy")]),
    ("Not supported RestartPolicy: empty", [ctr("init", restartPolicy="")], [(NS, f"{I}.restartPolicy")]),
    ("invalid startup probe in restartable container, successThreshold != 1", [ctr("restartable-init", **ALWAYS, startupProbe={**TCP80, "successThreshold": 2})],
     [(IN, f"{I}.startupProbe.successThreshold")]),
    ("invalid readiness probe, terminationGracePeriodSeconds set.", [ctr("life-123", **ALWAYS, readinessProbe={**TCP80, "terminationGracePeriodSeconds": 10})],
     [(IN, f"{I}.readinessProbe.terminationGracePeriodSeconds")]),
    ("invalid liveness probe, successThreshold != 1", [ctr("live-123", **ALWAYS, livenessProbe={**TCP80, "successThreshold": 2})],
     [(IN, f"{I}.livenessProbe.successThreshold")]),
    ("invalid lifecycle, no exec command.", [ctr("life-123", **ALWAYS, lifecycle={"preStop": {"exec": {}}})], [(RQ, f"{I}.lifecycle.preStop.exec.command")]),
    ("invalid lifecycle, no http path.", [ctr("life-123", **ALWAYS, lifecycle={"preStop": {"httpGet": {"port": 80, "scheme": "HTTP"}}})],
     [(RQ, f"{I}.lifecycle.preStop.httpGet.path")]),
    ("invalid lifecycle, no http port.", [ctr("life-123", **ALWAYS, lifecycle={"preStop": {"httpGet": {"path": "/", "scheme": "HTTP"}}})],
     [(IN, f"{I}.lifecycle.preStop.httpGet.port")]),
    ("invalid lifecycle, no http scheme.", [ctr("life-123", **ALWAYS, lifecycle={"preStop": {"httpGet": {"path": "/", "port": 80}}})],
     [(NS, f"{I}.lifecycle.preStop.httpGet.scheme")]),
    ("invalid lifecycle, no tcp socket port.", [ctr("life-123", **ALWAYS, lifecycle={"preStop": {"tcpSocket": {}}})], [(IN, f"{I}.lifecycle.preStop.tcpSocket.port")]),
    ("invalid lifecycle, zero tcp socket port.", [ctr("life-123", **ALWAYS, lifecycle={"preStop": {"tcpSocket": {"port": 0}}})],
     [(IN, f"{I}.lifecycle.preStop.tcpSocket.port")]),
    ("invalid lifecycle, no action.", [ctr("life-123", **ALWAYS, lifecycle={"preStop": {}})], [(RQ, f"{I}.lifecycle.preStop")]),
]


@pytest.mark.parametrize(("containers", "expected"), [c[1:] for c in INIT_ERRORS], ids=[c[0] for c in INIT_ERRORS])
def test_validate_init_containers_error_cases(containers: list[dict[str, Any]], expected: list[tuple[str, str]]) -> None:
    """TestValidateInitContainers errorCases @release-4.23 (regular containers ``app``; pod restartPolicy Always)."""
    assert pairs(validate_init_containers(containers, [ctr("app")], {}, 30, Path("initContainers"), R31)) == expected


def deployment(spec: dict[str, Any]) -> dict[str, Any]:
    return {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "d", "namespace": "ns"},
            "spec": {"selector": {"matchLabels": {"a": "b"}}, "template": {"metadata": {"labels": {"a": "b"}}, "spec": spec}}}


def job(spec: dict[str, Any]) -> dict[str, Any]:
    return {"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "j", "namespace": "ns"},
            "spec": {"template": {"spec": {"restartPolicy": "Never", **spec}}}}


P = "spec.template.spec"


@pytest.mark.parametrize(("release", "expected"), [("1.32", []), ("1.33", [f"{P}.containers[0].resizePolicy: Invalid value: \"RestartContainer\": must be 'NotRequired' when pod `restartPolicy` is 'Never'"])])
def test_resize_policy_of_a_job(release: str, expected: list[str]) -> None:
    """validateResizePolicy (release-4.20 … 4.23): a pod that never restarts cannot restart a container to resize
    it; 1.30 … 1.32 drop ``resizePolicy`` on create (InPlacePodVerticalScaling off, ``dropDisabledFields``)."""
    obj = job({"containers": [{"name": "c", "image": "i", "resizePolicy": [{"resourceName": "cpu", "restartPolicy": "RestartContainer"}]}]})
    assert [str(e) for e in create(obj, release)[0]] == expected


def test_resize_policy_duplicates_and_unknown_resources_1_36() -> None:
    """validateResizePolicy: Duplicate at the index, NotSupported/Required at the list (upstream's paths)."""
    pols = [{"resourceName": "cpu", "restartPolicy": "NotRequired"}, {"resourceName": "cpu", "restartPolicy": "NotRequired"},
            {"resourceName": "storage", "restartPolicy": ""}]
    errs = create(deployment({"containers": [{"name": "c", "image": "i", "resizePolicy": pols}]}))[0]
    rp = f"{P}.containers[0].resizePolicy"
    assert [str(e) for e in errs] == [f'{rp}[1]: Duplicate value: "cpu"', f'{rp}: Unsupported value: "storage": supported values: "cpu", "memory"',
                                      f"{rp}: Required value"]


@pytest.mark.parametrize(("release", "expected"), [
    ("1.33", [f"{P}.containers[0].restartPolicy: Forbidden: may not be set for non-init containers"]),
    ("1.34", []),  # dropContainerRestartRules (gate ContainerRestartRules Alpha off), new in release-4.21
    ("1.35", []),
])
def test_regular_container_restart_policy_by_release(release: str, expected: list[str]) -> None:
    """validateContainers: a regular container's ``restartPolicy`` (a v1 field since 1.28) is Forbidden while
    ``AllowContainerRestartPolicyRules`` is off and nothing drops it (1.30 … 1.33, release-4.17 … 4.20)."""
    obj = deployment({"containers": [{"name": "c", "image": "i", "restartPolicy": "Always"}]})
    assert [str(e) for e in create(obj, release)[0]] == expected


RULE = {"action": "RestartAllContainers", "exitCodes": {"operator": "In", "values": [42]}}


@pytest.mark.parametrize(("release", "expected"), [
    ("1.35", [f'{P}.containers[0].restartPolicyRules[0].action: Unsupported value: "RestartAllContainers": supported values: "Restart"',
              f"{P}.containers[0].restartPolicyRules[1].exitCodes: Required value: must be specified"]),
    ("1.36", [f"{P}.containers[0].restartPolicyRules[1].exitCodes: Required value: must be specified"]),
])
def test_container_restart_rules_by_release(release: str, expected: list[str]) -> None:
    """validateContainerRestartPolicy: RestartAllContainers is an action from 1.36 (gate
    RestartAllContainersOnContainerExits Beta on, release-4.23)."""
    obj = deployment({"containers": [{"name": "c", "image": "i", "restartPolicy": "Never", "restartPolicyRules": [RULE, {"action": "Restart"}]}]})
    assert [str(e) for e in create(obj, release)[0]] == expected


@pytest.mark.parametrize(("release", "expected"), [
    ("1.33", [f'{P}.initContainers[0].restartPolicy: Unsupported value: "OnFailure": supported values: "Always"']),
    ("1.34", []),  # a non-Always init restartPolicy is dropped while ContainerRestartRules is off
    ("1.35", []),  # OnFailure is a container restart policy from 1.35
])
def test_init_container_restart_policy_by_release(release: str, expected: list[str]) -> None:
    """validateInitContainerRestartPolicy (release-4.20 … 4.22)."""
    obj = deployment({"initContainers": [{"name": "i", "image": "i", "restartPolicy": "OnFailure"}], "containers": [{"name": "c", "image": "i"}]})
    assert [str(e) for e in create(obj, release)[0]] == expected


@pytest.mark.parametrize(("release", "expected"), [
    ("1.35", [f"{P}.initContainers[0].restartPolicyRules: Forbidden: restartPolicyRules are not allowed for init containers with restart policy Always"]),
    ("1.36", []),
])
def test_sidecar_restart_rules_by_release(release: str, expected: list[str]) -> None:
    """validateInitContainerRestartPolicy: a sidecar's rules are checked, not refused, once
    AllowRestartAllContainers is on (1.36)."""
    obj = deployment({"initContainers": [{"name": "i", "image": "i", "restartPolicy": "Always", "restartPolicyRules": [RULE]}],
                      "containers": [{"name": "c", "image": "i"}]})
    assert [str(e) for e in create(obj, release)[0]] == expected


@pytest.mark.parametrize(("release", "expected"), [
    ("1.35", []),
    ("1.36", [f"{P}.initContainers[0].resizePolicy[0].restartPolicy: Invalid value: \"RestartContainer\": must not be set to 'RestartContainer' for non-sidecar initContainers"]),
])
def test_init_container_resize_restart_container_by_release(release: str, expected: list[str]) -> None:
    """TestValidateInitContainers "RestartContainer policy forbidden for non-sidecar init container" (new in
    release-4.23; on a create ``AllowExistingRestartContainerForNonSidecarInitContainer`` is false and
    ``AllowSidecarResizePolicy`` true, so only the second of the table's two errors)."""
    obj = deployment({"initContainers": [{"name": "i", "image": "i", "resizePolicy": [{"resourceName": "cpu", "restartPolicy": "RestartContainer"}]}],
                      "containers": [{"name": "c", "image": "i"}]})
    assert [str(e) for e in create(obj, release)[0]] == expected


def test_init_container_resize_policy_before_sidecar_resize() -> None:
    """TestValidateInitContainers "Not supported ResizePolicy: invalid": Invalid with the policy list as the bad
    value (``%#v`` before 1.34) while AllowSidecarResizePolicy is off."""
    pols = [{"resourceName": "cpu", "restartPolicy": "NotRequired"}]
    errs = validate_init_containers([ctr("init", resizePolicy=pols)], [ctr("app")], {}, 30, Path("initContainers"), R31)
    assert [str(e.at_release(R31)) for e in errs] == ['initContainers[0].resizePolicy: Invalid value: []core.ContainerResizePolicy{core.ContainerResizePolicy{ResourceName:"cpu", RestartPolicy:"NotRequired"}}: must not be set for init containers']


def test_container_resource_name_gets_both_errors() -> None:
    """validateContainerResourceName appends "must be a standard resource for containers" to
    validateResourceName's "must be a standard resource type or fully qualified" (TestValidateContainers
    "invalid compute resource": two errors)."""
    errs = validate_containers([ctr(resources={"limits": {"disk": "10G"}})], {}, 30, Path("containers"), R31)
    assert [e.detail for e in errs] == ["must be a standard resource type or fully qualified", "must be a standard resource for containers"]


@pytest.mark.parametrize(("quantity", "expected"), [
    ("1", []),
    ("500m", ['spec.template.spec.containers[0].resources.limits[example.com/foo]: Invalid value: "500m": must be an integer',
              'spec.template.spec.containers[0].resources.requests[example.com/foo]: Invalid value: "500m": must be an integer']),
])
def test_extended_resources_are_integers_1_36(quantity: str, expected: list[str]) -> None:
    """ValidateResourceQuantityValue: ``helper.IsIntegerResourceName`` holds for every extended resource
    (TestValidatePod @release-4.23 "invalid fractional extended resource in container request/limit": "must be an
    integer"). A template's limits are not copied to its requests (SetDefaults_Pod does that on Pods only), so both
    are given."""
    ctr_ = {"name": "c", "image": "i", "resources": {"limits": {"example.com/foo": quantity}, "requests": {"example.com/foo": quantity}}}
    assert [str(e) for e in create(deployment({"containers": [ctr_]}))[0]] == expected


def _huge(requests: dict[str, str], limits: dict[str, str]) -> dict[str, Any]:
    return deployment({"containers": [{"name": "ctr", "image": "i", "resources": {"requests": requests, "limits": limits}}]})


CM = {"cpu": "10", "memory": "10G"}


@pytest.mark.parametrize(("requests", "limits", "valid"), [
    ({**CM, "hugepages-2Mi": "1Gi"}, {**CM, "hugepages-2Mi": "1Gi"}, True),
    ({**CM, "hugepages-2Mi": "1Gi", "hugepages-1Gi": "2Gi"}, {**CM, "hugepages-2Mi": "1Gi", "hugepages-1Gi": "2Gi"}, True),
    ({"hugepages-2Mi": "1Gi"}, {"hugepages-2Mi": "1Gi"}, False),
    ({**CM, "hugepages-2Mi": "2Gi"}, {**CM, "hugepages-2Mi": "1Gi"}, False),
])
def test_huge_pages_isolation_1_36(requests: dict[str, str], limits: dict[str, str], valid: bool) -> None:
    """TestHugePagesIsolation @release-4.23 (a template: requests given as upstream's MakeResourceRequirements)."""
    assert (create(_huge(requests, limits))[0] == []) is valid


def test_huge_page_values_must_be_page_multiples() -> None:
    """validateResourceQuantityHugePageValue: ``Value() % pageSize.Value()`` (limits, then requests)."""
    errs = create(_huge({"cpu": "1", "hugepages-2Mi": "3Mi"}, {"cpu": "1", "hugepages-2Mi": "3Mi"}))[0]
    p = "spec.template.spec.containers[0].resources"
    assert [str(e) for e in errs] == [
        f'{p}.limits[hugepages-2Mi]: Invalid value: "3Mi": 3Mi is not positive integer multiple of hugepages-2Mi',
        f'{p}.requests[hugepages-2Mi]: Invalid value: "3Mi": 3Mi is not positive integer multiple of hugepages-2Mi',
    ]
