"""Defaulting of scheduling.k8s.io/v1 (``pkg/apis/scheduling/v1/defaults.go``, 1.30 … 1.36)."""

from __future__ import annotations

from typing import Any


def set_defaults(obj: dict[str, Any], version: str, release: Any) -> None:
    """``SetDefaults_PriorityClass``: ``preemptionPolicy`` is ``PreemptLowerPriority``. Mutates ``obj``."""
    if obj.get("kind") == "PriorityClass" and obj.get("preemptionPolicy") is None:
        obj["preemptionPolicy"] = "PreemptLowerPriority"
