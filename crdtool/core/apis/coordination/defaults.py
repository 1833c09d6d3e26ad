"""Defaulting of coordination.k8s.io/v1: none (no ``defaults.go`` in 1.30 … 1.36)."""

from __future__ import annotations

from typing import Any


def set_defaults(obj: dict[str, Any], version: str, release: Any) -> None:
    """Nothing to default for a Lease."""
    return None


def set_object_defaults(obj: dict[str, Any], version: str, kind: str, release: Any) -> None:
    """The create path's entry (:mod:`crdtool.core.registry.create`): :func:`set_defaults` of ``obj``
    (``kind`` is ``obj['kind']``)."""
    set_defaults(obj, version, release)
