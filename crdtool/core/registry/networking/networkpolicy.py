"""The NetworkPolicy create strategy: ``pkg/registry/networking/networkpolicy/strategy.go`` (1.30 … 1.36)."""

from __future__ import annotations

from typing import Any

from crdtool.core.apis.networking.validation import validate_network_policy
from crdtool.core.errors import FieldError
from crdtool.core.registry._common import rel, set_generation


def prepare_for_create(obj: dict[str, Any], release: Any) -> None:
    """``PrepareForCreate``: generation 1."""
    set_generation(obj)


def validate(obj: dict[str, Any], release: Any, version: str = "") -> list[FieldError]:
    """``Validate``: ``ValidateNetworkPolicy``."""
    return validate_network_policy(obj, rel(release))


def warnings_on_create(obj: dict[str, Any], release: Any, version: str = "") -> list[str]:
    """``WarningsOnCreate``: none."""
    return []
