"""The ConfigMap create strategy: ``pkg/registry/core/configmap/strategy.go`` (1.30 … 1.36)."""

from __future__ import annotations

from typing import Any

from crdtool.core.apis.core.validation import validate_config_map
from crdtool.core.errors import FieldError
from crdtool.core.registry._common import rel


def prepare_for_create(obj: dict[str, Any], release: Any) -> None:
    """``PrepareForCreate``: nothing (``dropDisabledFields`` drops no field)."""


def validate(obj: dict[str, Any], release: Any, version: str = "") -> list[FieldError]:
    """``Validate``: ``ValidateConfigMap``."""
    return validate_config_map(obj, rel(release))


def warnings_on_create(obj: dict[str, Any], release: Any, version: str = "") -> list[str]:
    """``WarningsOnCreate``: none."""
    return []
