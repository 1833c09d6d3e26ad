"""Defaulting of autoscaling/v2 and autoscaling/v1 HorizontalPodAutoscalers.

Mirrors kubernetes/kubernetes ``pkg/apis/autoscaling/v2/defaults.go`` (``SetDefaults_HorizontalPodAutoscaler``,
``SetDefaults_HorizontalPodAutoscalerBehavior``, ``GenerateHPAScale{Up,Down}Rules``, ``copyHPAScalingRules``)
and ``v1/defaults.go`` (``minReplicas`` only; v1's cpu default is applied in conversion and is not ported).
Unchanged in what is ported 1.30 … 1.36.
"""

from __future__ import annotations

import copy
from typing import Any

_SCALE_UP = {"stabilizationWindowSeconds": 0, "selectPolicy": "Max", "policies": [
    {"type": "Pods", "value": 4, "periodSeconds": 15}, {"type": "Percent", "value": 100, "periodSeconds": 15}]}
_SCALE_DOWN = {"selectPolicy": "Max", "policies": [{"type": "Percent", "value": 100, "periodSeconds": 15}]}


def _copy_rules(given: Any, defaults: dict[str, Any]) -> dict[str, Any]:
    """``copyHPAScalingRules``: the defaults with the given rule's set fields over them."""
    out = copy.deepcopy(defaults)
    if isinstance(given, dict):
        for key in ("selectPolicy", "stabilizationWindowSeconds", "tolerance"):
            if given.get(key) is not None:
                out[key] = given[key]
        if given.get("policies") is not None:
            out["policies"] = given["policies"]
    return out


def set_defaults(obj: dict[str, Any], version: str, release: Any) -> None:
    """``SetObjectDefaults_HorizontalPodAutoscaler`` of autoscaling/v2 or v1. Mutates ``obj``."""
    if obj.get("kind") != "HorizontalPodAutoscaler":
        return
    spec = obj.get("spec")
    if not isinstance(spec, dict):
        spec = obj["spec"] = {}
    if spec.get("minReplicas") is None:
        spec["minReplicas"] = 1
    if version != "v2":
        return
    if not spec.get("metrics"):
        spec["metrics"] = [{"type": "Resource", "resource": {"name": "cpu", "target": {"type": "Utilization", "averageUtilization": 80}}}]
    behavior = spec.get("behavior")
    if isinstance(behavior, dict):
        behavior["scaleUp"] = _copy_rules(behavior.get("scaleUp"), _SCALE_UP)
        behavior["scaleDown"] = _copy_rules(behavior.get("scaleDown"), _SCALE_DOWN)


def set_object_defaults(obj: dict[str, Any], version: str, kind: str, release: Any) -> None:
    """The create path's entry (:mod:`crdtool.core.registry.create`): :func:`set_defaults` of ``obj``
    (``kind`` is ``obj['kind']``)."""
    set_defaults(obj, version, release)
