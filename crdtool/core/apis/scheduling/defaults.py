"""Defaulting of scheduling.k8s.io/v1 (``pkg/apis/scheduling/v1/defaults.go``, 1.30 … 1.36)."""

from __future__ import annotations

from typing import Any


def set_defaults(obj: dict[str, Any], version: str, release: Any) -> None:
    """``SetDefaults_PriorityClass``: ``preemptionPolicy`` is ``PreemptLowerPriority``. Mutates ``obj``."""
    if obj.get("kind") == "PriorityClass" and obj.get("preemptionPolicy") is None:
        obj["preemptionPolicy"] = "PreemptLowerPriority"


def set_object_defaults(obj: dict[str, Any], version: str, kind: str, release: Any) -> None:
    """The create path's entry (:mod:`crdtool.core.registry.create`): :func:`set_defaults` of ``obj``
    (``kind`` is ``obj['kind']``)."""
    set_defaults(obj, version, release)
