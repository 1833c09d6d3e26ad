"""HorizontalPodAutoscaler create (autoscaling/v2), ``TestValidateHorizontalPodAutoscaler`` error table of
kubernetes/kubernetes ``pkg/apis/autoscaling/validation/validation_test.go`` (openshift/microshift ``release-4.23``
= 1.36), compared as upstream does: the first error's ``Error()`` contains the row's text. Quantities are written
as v2 JSON (``resource.NewMilliQuantity(300, DecimalSI)`` is ``300m``)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.core.apis._create import create

DEP = {"name": "mydeployment", "kind": "Deployment", "apiVersion": "apps/v1"}
SEL = {"matchLabels": {"label": "value"}}


def hpa(metrics: list[dict[str, Any]] | None = None, ref: dict[str, Any] | None = None, min_replicas: int = 1, max_replicas: int = 5) -> dict[str, Any]:
    spec: dict[str, Any] = {"scaleTargetRef": DEP if ref is None else ref, "minReplicas": min_replicas, "maxReplicas": max_replicas}
    if metrics is not None:
        spec["metrics"] = metrics
    return {"apiVersion": "autoscaling/v2", "kind": "HorizontalPodAutoscaler", "metadata": {"name": "myautoscaler", "namespace": "default"}, "spec": spec}


def resource(name: str | None = "cpu", **target: Any) -> dict[str, Any]:
    src: dict[str, Any] = {"target": target}
    if name is not None:
        src["name"] = name
    return {"type": "Resource", "resource": src}


def container(name: str | None = "cpu", container_name: str | None = "test-application", **target: Any) -> dict[str, Any]:
    src: dict[str, Any] = {"target": target}
    if name is not None:
        src["name"] = name
    if container_name is not None:
        src["container"] = container_name
    return {"type": "ContainerResource", "containerResource": src}


def external(metric: dict[str, Any], target: dict[str, Any] | None) -> dict[str, Any]:
    src: dict[str, Any] = {"metric": metric}
    if target is not None:
        src["target"] = target
    return {"type": "External", "external": src}


UTIL70 = {"type": "Utilization", "averageUtilization": 70}
SOME = {"name": "somemetric", "selector": SEL}

CASES: list[tuple[str, dict[str, Any]]] = [
    ("scaleTargetRef.kind: Required", hpa([resource(**UTIL70)], {"name": "mydeployment", "apiVersion": "apps/v1"})),
    ("scaleTargetRef.kind: Required", hpa([container(**UTIL70)], {"name": "myrc", "apiVersion": "v1"})),
    ("scaleTargetRef.kind: Invalid", hpa([resource(**UTIL70)], {"kind": "..", "name": "myrc", "apiVersion": "v1"})),
    ("scaleTargetRef.kind: Invalid", hpa([container(**UTIL70)], {"kind": "..", "name": "myrc", "apiVersion": "v1"})),
    ("scaleTargetRef.name: Required", hpa([resource(**UTIL70)], {"kind": "Deployment", "apiVersion": "apps/v1"})),
    ("scaleTargetRef.name: Required", hpa([container(**UTIL70)], {"kind": "Deployment", "apiVersion": "apps/v1"})),
    ("scaleTargetRef.name: Invalid", hpa([container(**UTIL70)], {"name": "..", "kind": "Deployment", "apiVersion": "apps/v1"})),
    ('spec.scaleTargetRef.apiVersion: Invalid value: "": apiVersion must specify API group', hpa([container(**UTIL70)], {"kind": "Deployment", "name": "mydeployment"})),
    ("must be greater than or equal to 1", hpa(None, {"name": "x", "kind": "Deployment", "apiVersion": "apps/v1"}, min_replicas=-1)),
    ("must be greater than or equal to `minReplicas`", hpa(None, {"name": "x", "kind": "Deployment", "apiVersion": "apps/v1"}, min_replicas=7)),
    ("may not set both a target raw value and a target utilization", hpa([resource(**UTIL70, averageValue="300m")])),
    ("may not set both a target raw value and a target utilization", hpa([container(**UTIL70, averageValue="300m")])),
    ("must specify a resource name", hpa([resource(None, **UTIL70)])),
    ("must specify a resource name", hpa([container(None, **UTIL70)])),
    ('Invalid value: "InvalidResource": must be a standard resource type or fully qualified', hpa([container("InvalidResource", **UTIL70)])),
    ("must be greater than 0", hpa([resource(type="Utilization", averageUtilization=-10)])),
    ("must be greater than 0", hpa([container(type="Utilization", averageUtilization=-10)])),
    ("must specify a container", hpa([container(container_name=None, type="Utilization", averageUtilization=-10)])),
    ('Invalid value: "---***"', hpa([container(container_name="---***", type="Utilization", averageUtilization=-10)])),
    ("must set either a target raw value or a target utilization", hpa([resource(type="Value")])),
    ("must set either a target raw value or a target utilization", hpa([container(type="Value")])),
    ("must specify a metric name", hpa([{"type": "Pods", "pods": {"metric": {}, "target": {"type": "Value", "averageValue": "100m"}}}])),
    ("must specify a positive target averageValue", hpa([{"type": "Pods", "pods": {"metric": {"name": "somemetric"}, "target": {"type": "Value"}}}])),
    ("must set either a target value or averageValue", hpa([{"type": "Object", "object": {
        "describedObject": {"kind": "ReplicationController", "name": "myrc"}, "metric": {"name": "somemetric"}, "target": {"type": "Value"}}}])),
    ("object.describedObject.kind: Required", hpa([{"type": "Object", "object": {
        "describedObject": {"name": "myrc"}, "metric": {"name": "somemetric"}, "target": {"type": "Value", "value": "100m"}}}])),
    ('spec.scaleTargetRef.apiVersion: Invalid value: "apps/v1/v3": unexpected GroupVersion string: apps/v1/v3',
     hpa([{"type": "Object", "object": {"describedObject": {"name": "myrc", "kind": "Deployment"}, "metric": {"name": "somemetric"},
                                         "target": {"type": "Value", "value": "100m"}}}],
         {"name": "myrc", "kind": "ReplicationController", "apiVersion": "apps/v1/v3"})),
    ("must specify a metric name", hpa([{"type": "Object", "object": {
        "describedObject": {"kind": "ReplicationController", "name": "myrc"}, "metric": {}, "target": {"type": "Value", "value": "100m"}}}])),
    ("must specify a metric name", hpa([external({"selector": SEL}, {"type": "Value", "value": "300m"})])),
    ("'/'", hpa([external({"name": "foo/../", "selector": SEL}, {"type": "Value", "value": "300m"})])),
    ("must set either a target value for metric or a per-pod target", hpa([external(SOME, {"type": "Value"})])),
    ("must be positive", hpa([external(SOME, {"type": "Value", "value": "-300m"})])),
    ("must be positive", hpa([external(SOME, {"type": "Value", "averageValue": "-300m"})])),
    ("may not set both a target value for metric and a per-pod target", hpa([external(SOME, {"type": "Value", "value": "300m", "averageValue": "300m"})])),
    ("must be either Utilization, Value, or AverageValue", hpa([external(SOME, {"type": "boogity", "value": "300m"})])),
    ("must specify a metric target type", hpa([external(SOME, {"value": "300m"})])),
    ("must specify a metric target", hpa([external(SOME, None)])),
    ("must specify a metric source type", hpa([{}])),
    ("type: Unsupported value", hpa([{"type": "InvalidType"}])),
    ("must populate the given metric source only", hpa([{
        "type": "Resource", "resource": {"name": "cpu", "target": {"type": "AverageValue", "averageValue": "100m"}},
        "pods": {"metric": {"name": "somemetric"}, "target": {"type": "AverageValue", "averageValue": "100m"}}}])),
]


@pytest.mark.parametrize(("msg", "obj"), CASES, ids=[f"{i}-{c[0][:40]}" for i, c in enumerate(CASES)])
def test_validate_hpa_error_cases_1_36(msg: str, obj: dict[str, Any]) -> None:
    errs = create(obj)[0]
    assert errs and msg in str(errs[0]), [str(e) for e in errs]
