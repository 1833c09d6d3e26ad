"""The Lease create strategy: ``pkg/registry/coordination/lease/strategy.go`` (1.30 … 1.36)."""

from __future__ import annotations

from typing import Any

from crdtool.core.apis.coordination.validation import validate_lease
from crdtool.core.errors import FieldError
from crdtool.core.registry._common import rel


def prepare_for_create(obj: dict[str, Any], release: Any) -> None:
    """``PrepareForCreate``: ``strategy`` and ``preferredHolder`` dropped (gate CoordinatedLeaderElection off by default)."""
    spec = obj.get("spec")
    if isinstance(spec, dict):
        spec.pop("strategy", None)
        spec.pop("preferredHolder", None)


def validate(obj: dict[str, Any], release: Any, version: str = "") -> list[FieldError]:
    """``Validate``: ``ValidateLease``."""
    return validate_lease(obj, rel(release))


def warnings_on_create(obj: dict[str, Any], release: Any, version: str = "") -> list[str]:
    """``WarningsOnCreate``: none."""
    return []
