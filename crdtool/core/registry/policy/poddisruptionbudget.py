"""The PodDisruptionBudget create strategy: ``pkg/registry/policy/poddisruptionbudget/strategy.go`` (1.30 … 1.36)."""

from __future__ import annotations

from typing import Any

from crdtool.core.apis.policy.validation import validate_pod_disruption_budget
from crdtool.core.errors import FieldError
from crdtool.core.registry._common import rel, reset_status, set_generation


def prepare_for_create(obj: dict[str, Any], release: Any) -> None:
    """``PrepareForCreate``: status cleared, generation 1."""
    reset_status(obj)
    set_generation(obj)


def validate(obj: dict[str, Any], release: Any, version: str = "") -> list[FieldError]:
    """``Validate``: ``ValidatePodDisruptionBudget``."""
    return validate_pod_disruption_budget(obj, rel(release))


def warnings_on_create(obj: dict[str, Any], release: Any, version: str = "") -> list[str]:
    """``WarningsOnCreate``: none."""
    return []
