"""The Role create strategy: ``pkg/registry/rbac/role/strategy.go`` (1.30 … 1.36)."""

from __future__ import annotations

from typing import Any

from crdtool.core.apis.rbac.validation import validate_role
from crdtool.core.errors import FieldError
from crdtool.core.registry._common import rel


def prepare_for_create(obj: dict[str, Any], release: Any) -> None:
    """``PrepareForCreate``: nothing."""
    return None


def validate(obj: dict[str, Any], release: Any, version: str = "") -> list[FieldError]:
    """``Validate``: ``ValidateRole``."""
    return validate_role(obj, rel(release))


def warnings_on_create(obj: dict[str, Any], release: Any, version: str = "") -> list[str]:
    """``WarningsOnCreate``: none."""
    return []
