"""The APIService create strategy: ``k8s.io/kube-aggregator pkg/registry/apiservice/strategy.go`` (1.30 … 1.36)."""

from __future__ import annotations

from typing import Any

from crdtool.core.apis.apiregistration.validation import validate_api_service
from crdtool.core.errors import FieldError
from crdtool.core.registry._common import rel, reset_status


def prepare_for_create(obj: dict[str, Any], release: Any) -> None:
    """``PrepareForCreate``: status cleared."""
    reset_status(obj)


def validate(obj: dict[str, Any], release: Any, version: str = "") -> list[FieldError]:
    """``Validate``: ``ValidateAPIService``."""
    return validate_api_service(obj, rel(release))


def warnings_on_create(obj: dict[str, Any], release: Any, version: str = "") -> list[str]:
    """``WarningsOnCreate``: none."""
    return []
