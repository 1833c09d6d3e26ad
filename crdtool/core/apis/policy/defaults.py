"""Defaulting of policy/v1 (``pkg/apis/policy/v1/defaults.go``, 1.30 … 1.36): none for PodDisruptionBudget."""

from __future__ import annotations

from typing import Any


def set_defaults(obj: dict[str, Any], version: str, release: Any) -> None:
    """policy/v1 has no ``SetDefaults_*`` for the kinds crdtool validates; nothing changes."""
    return None
