"""The Secret create strategy: ``pkg/registry/core/secret/strategy.go`` (1.30 … 1.36)."""

from __future__ import annotations

from typing import Any

from crdtool.core.apis.core.validation import validate_secret
from crdtool.core.errors import FieldError
from crdtool.core.registry._common import rel


def prepare_for_create(obj: dict[str, Any], release: Any) -> None:
    """``PrepareForCreate``: nothing a client sees (``dropDisabledFields`` drops no field of v1 Secrets)."""


def validate(obj: dict[str, Any], release: Any, version: str = "") -> list[FieldError]:
    """``Validate``: ``ValidateSecret``."""
    return validate_secret(obj, rel(release))


def warnings_on_create(obj: dict[str, Any], release: Any, version: str = "") -> list[str]:
    """``warningsForSecret``: a TLS pair that does not load (not ported: it needs an X.509 parser)."""
    return []
