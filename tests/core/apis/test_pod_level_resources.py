"""Pod-level resources (``spec.resources``, PodLevelResources Beta on from 1.34): kubernetes/kubernetes
``validatePodResources``, ``validatePodResourceName``, ``validatePodResourceConsistency`` with component-helpers
``AggregateContainerRequests``/``AggregateContainerLimits`` (release-4.21 … 4.23); cases from ``validation_test.go``
@release-4.23: ``TestValidatePodResourceNames``, ``TestValidatePodResourceConsistency``, and TestValidatePodSpec's
"bad OS for PodLevelResources hides bad cpu limit"."""

from __future__ import annotations

from typing import Any

import pytest

from crdtool.core.apis.core.validation import _pod_resource_name, validate_pod_resources
from crdtool.core.errors import Path
from crdtool.core.releases import resolve_release
from tests.core.apis._create import create

R36 = resolve_release("1.36")


@pytest.mark.parametrize(("name", "fails"), [
    ("memory", False), ("cpu", False), ("storage", True), ("hugepages-2Mi", False), ("hugepages-1Gi", False),
    ("requests.cpu", True), ("requests.memory", True), ("requests.storage", True), ("limits.cpu", True), ("limits.memory", True),
    ("limits.storage", True), ("network", True), ("disk", True), ("", True), (".", True), ("..", True),
    ("my.favorite.app.co/12345", True), ("my.favorite.app.co/_12345", True), ("my.favorite.app.co/12345_", True), ("kubernetes.io/..", True),
    ("kubernetes.io/" + "a" * 64, True), ("kubernetes.io/cpu", True), ("kubernetes.io/memory", True), ("kubernetes.io//", True),
    ("kubernetes.io", True), ("kubernetes.io/will/not/work/", True),
])
def test_pod_resource_names(name: str, fails: bool) -> None:
    """TestValidatePodResourceNames @release-4.23."""
    assert bool(_pod_resource_name(name, Path("field"), R36)) is fails


def spec(pod: dict[str, Any], *containers: dict[str, Any]) -> dict[str, Any]:
    return {"resources": pod, "containers": [{"name": f"c{i}", "image": "i", "resources": r} for i, r in enumerate(containers)]}


AGG_REQ = "must be greater than or equal to aggregate container requests"
AGG_LIM = "must be greater than or equal to aggregate container limits"
POD_LIM = "must be less than or equal to pod limits"


@pytest.mark.parametrize(("pod_spec", "expected"), [
    (spec({"requests": {"cpu": "10", "memory": "10Mi"}}, {"requests": {"cpu": "5", "memory": "5Mi"}}, {"requests": {"cpu": "4", "memory": "3Mi"}}), []),
    (spec({"requests": {"cpu": "10", "memory": "10Mi"}}, {"requests": {"cpu": "5", "memory": "5Mi"}}, {"requests": {"cpu": "5", "memory": "5Mi"}}), []),
    (spec({"requests": {"cpu": "10", "memory": "10Mi"}}, {"requests": {"cpu": "6", "memory": "5Mi"}}, {"requests": {"cpu": "8", "memory": "7Mi"}}), [AGG_REQ, AGG_REQ]),
    (spec({"requests": {"cpu": "10", "memory": "10Mi"}}, {"requests": {"cpu": "6", "memory": "5Mi", "storage": "10Gi"}},
          {"requests": {"cpu": "4", "memory": "3Mi", "storage": "5Gi"}}), []),
    (spec({"limits": {"cpu": "10", "memory": "10Mi", "hugepages-2Mi": "10Mi"}}, {"limits": {"cpu": "5", "memory": "5Mi", "hugepages-2Mi": "4Mi"}},
          {"limits": {"cpu": "4", "memory": "3Mi", "hugepages-2Mi": "4Mi"}}), []),
    (spec({"limits": {"cpu": "10", "memory": "10Mi", "hugepages-2Mi": "8Mi"}}, {"limits": {"cpu": "5", "memory": "5Mi", "hugepages-2Mi": "4Mi"}},
          {"limits": {"cpu": "5", "memory": "5Mi", "hugepages-2Mi": "4Mi"}}), []),
    (spec({"limits": {"cpu": "10", "memory": "10Mi"}}, {"limits": {"cpu": "5", "memory": "5Mi"}}, {"limits": {"cpu": "6", "memory": "9Mi"}}), []),
    (spec({"limits": {"cpu": "10", "hugepages-2Mi": "4Mi"}}, {"limits": {"cpu": "6", "hugepages-2Mi": "4Mi"}}, {"limits": {"cpu": "6", "hugepages-2Mi": "4Mi"}}),
     [AGG_LIM]),
    (spec({"limits": {"cpu": "10", "memory": "10Mi", "hugepages-2Mi": "2Mi"}}, {"limits": {"cpu": "11", "memory": "12Mi", "hugepages-2Mi": "4Mi"}}),
     [AGG_LIM, POD_LIM, POD_LIM, POD_LIM]),
])
def test_pod_resource_consistency(pod_spec: dict[str, Any], expected: list[str]) -> None:
    """TestValidatePodResourceConsistency @release-4.23 (validatePodResourceConsistency's errors only)."""
    errs = [e for e in validate_pod_resources(pod_spec, Path("spec"), R36) if "aggregate" in e.detail or "pod limits" in e.detail]
    assert [e.detail.split(" of ")[0] for e in errs] == expected


def test_texts_paths_and_sidecars() -> None:
    """Sidecars add to the sum; an init container's use is maxed in; the individual-limit error's odd path
    ``spec.resources.containers[i][name].limits`` is upstream's."""
    pod_spec = spec({"requests": {"cpu": "1"}, "limits": {"cpu": "2", "memory": "1Gi"}}, {"requests": {"cpu": "500m"}, "limits": {"cpu": "3"}})
    pod_spec["initContainers"] = [{"name": "side", "image": "i", "restartPolicy": "Always", "resources": {"requests": {"cpu": "600m"}}},
                                  {"name": "init", "image": "i", "resources": {"requests": {"cpu": "2"}}}]
    assert [str(e) for e in validate_pod_resources(pod_spec, Path("spec"), R36)] == [
        'spec.resources.requests[cpu]: Invalid value: "1": must be greater than or equal to aggregate container requests of 2600m',
        'spec.resources.containers[0][cpu].limits: Invalid value: "3": must be less than or equal to pod limits of 2',
    ]


def test_windows_pod_and_releases() -> None:
    """"bad OS for PodLevelResources hides bad cpu limit" (TestValidatePodSpec); the field is dropped on create
    before 1.34 (PodLevelResources off)."""
    body = {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "d", "namespace": "ns"},
            "spec": {"selector": {"matchLabels": {"a": "b"}}, "template": {"metadata": {"labels": {"a": "b"}}, "spec": {
                "os": {"name": "windows"}, "resources": {"limits": {"cpu": "100m", "memory": "200Mi"}},
                "containers": [{"name": "container", "image": "i", "resources": {"limits": {"cpu": "200m", "memory": "200Mi"}}}]}}}}
    assert [str(e) for e in create(body, "1.36")[0]] == ["spec.template.spec.resources: Forbidden: may not be set for a windows pod"]
    assert create(body, "1.33")[0] == []
    body["spec"]["template"]["spec"].pop("os")
    assert [str(e) for e in create(body, "1.36")[0]] == [
        'spec.template.spec.resources.containers[0][cpu].limits: Invalid value: "200m": must be less than or equal to pod limits of 100m']
