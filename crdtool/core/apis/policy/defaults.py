"""Defaulting of policy/v1 (``pkg/apis/policy/v1/defaults.go``, 1.30 … 1.36): none for PodDisruptionBudget."""

from __future__ import annotations

from typing import Any


def set_defaults(obj: dict[str, Any], version: str, release: Any) -> None:
    """policy/v1 has no ``SetDefaults_*`` for the kinds crdtool validates; nothing changes."""
    return None


def set_object_defaults(obj: dict[str, Any], version: str, kind: str, release: Any) -> None:
    """The create path's entry (:mod:`crdtool.core.registry.create`): :func:`set_defaults` of ``obj``
    (``kind`` is ``obj['kind']``)."""
    set_defaults(obj, version, release)
