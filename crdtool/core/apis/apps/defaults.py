"""Defaulting of apps/v1: Deployment, StatefulSet, DaemonSet, ReplicaSet.

Mirrors kubernetes/kubernetes ``pkg/apis/apps/v1/defaults.go`` and ``zz_generated.defaults.go`` (1.30 …
1.36, openshift/microshift ``release-4.17`` … ``release-4.23``): gate ``MaxUnavailableStatefulSet`` is off by
default in all of them (Alpha 1.24, Beta off 1.35), so a StatefulSet's ``maxUnavailable`` is not defaulted.
"""

from __future__ import annotations

from typing import Any

from crdtool.core.apis._util import ensure_dict as _d
from crdtool.core.apis._util import rel
from crdtool.core.apis.core.defaults import set_defaults_pod_template_spec, set_defaults_pvc_spec


def _list(v: Any) -> list[Any]:
    """A list field (anything else: empty)."""
    return v if isinstance(v, list) else []


def set_defaults(obj: dict[str, Any], version: str, release: Any) -> None:
    """``SetObjectDefaults_<Kind>`` of apps/v1 (``obj['kind']`` picks it). Mutates ``obj``."""
    r = rel(release)
    kind = obj.get("kind")
    spec = _d(obj, "spec")
    if kind == "Deployment":
        if spec.get("replicas") is None:
            spec["replicas"] = 1
        strategy = _d(spec, "strategy")
        if not strategy.get("type"):
            strategy["type"] = "RollingUpdate"
        if strategy["type"] == "RollingUpdate":
            ru = _d(strategy, "rollingUpdate")
            if ru.get("maxUnavailable") is None:
                ru["maxUnavailable"] = "25%"
            if ru.get("maxSurge") is None:
                ru["maxSurge"] = "25%"
        if spec.get("revisionHistoryLimit") is None:
            spec["revisionHistoryLimit"] = 10
        if spec.get("progressDeadlineSeconds") is None:
            spec["progressDeadlineSeconds"] = 600
    elif kind == "DaemonSet":
        us = _d(spec, "updateStrategy")
        if not us.get("type"):
            us["type"] = "RollingUpdate"
        if us["type"] == "RollingUpdate":
            ru = _d(us, "rollingUpdate")
            if ru.get("maxUnavailable") is None:
                ru["maxUnavailable"] = 1
            if ru.get("maxSurge") is None:
                ru["maxSurge"] = 0
        if spec.get("revisionHistoryLimit") is None:
            spec["revisionHistoryLimit"] = 10
    elif kind == "StatefulSet":
        if not spec.get("podManagementPolicy"):
            spec["podManagementPolicy"] = "OrderedReady"
        us = _d(spec, "updateStrategy")
        if not us.get("type"):
            us["type"] = "RollingUpdate"
            if us.get("rollingUpdate") is None:
                us["rollingUpdate"] = {}
        if us["type"] == "RollingUpdate" and isinstance(us.get("rollingUpdate"), dict):
            if us["rollingUpdate"].get("partition") is None:
                us["rollingUpdate"]["partition"] = 0
        policy = _d(spec, "persistentVolumeClaimRetentionPolicy")
        for key in ("whenDeleted", "whenScaled"):
            if not policy.get(key):
                policy[key] = "Retain"
        if spec.get("replicas") is None:
            spec["replicas"] = 1
        if spec.get("revisionHistoryLimit") is None:
            spec["revisionHistoryLimit"] = 10
        for pvc in _list(spec.get("volumeClaimTemplates")):
            if isinstance(pvc, dict):
                set_defaults_pvc_spec(_d(pvc, "spec"))
                status = _d(pvc, "status")
                if not status.get("phase"):
                    status["phase"] = "Pending"
    elif kind == "ReplicaSet":
        if spec.get("replicas") is None:
            spec["replicas"] = 1
    else:
        return
    if isinstance(spec.get("template"), dict) or kind in ("Deployment", "DaemonSet", "StatefulSet", "ReplicaSet"):
        set_defaults_pod_template_spec(_d(spec, "template"), r)


def set_object_defaults(obj: dict[str, Any], version: str, kind: str, release: Any) -> None:
    """The create path's entry (:mod:`crdtool.core.registry.create`): :func:`set_defaults` of ``obj``
    (``kind`` is ``obj['kind']``)."""
    set_defaults(obj, version, release)
