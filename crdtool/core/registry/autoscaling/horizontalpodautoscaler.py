"""The HorizontalPodAutoscaler create strategy: ``pkg/registry/autoscaling/horizontalpodautoscaler/strategy.go`` (1.30 … 1.36)."""

from __future__ import annotations

from typing import Any

from crdtool.core.apis.autoscaling.validation import validate_horizontal_pod_autoscaler
from crdtool.core.errors import FieldError
from crdtool.core.registry._common import rel, reset_status


def prepare_for_create(obj: dict[str, Any], release: Any) -> None:
    """``PrepareForCreate``: status cleared."""
    reset_status(obj)


def validate(obj: dict[str, Any], release: Any, version: str = "") -> list[FieldError]:
    """``Validate``: ``ValidateHorizontalPodAutoscaler``."""
    return validate_horizontal_pod_autoscaler(obj, rel(release))


def warnings_on_create(obj: dict[str, Any], release: Any, version: str = "") -> list[str]:
    """``WarningsOnCreate``: none."""
    return []
