"""The PersistentVolumeClaim create strategy: ``pkg/registry/core/persistentvolumeclaim/strategy.go``
(1.30 … 1.36; data-source normalisation and warnings not ported)."""

from __future__ import annotations

from typing import Any

from crdtool.core.apis.core.validation import validate_persistent_volume_claim
from crdtool.core.errors import FieldError
from crdtool.core.registry._common import rel, reset_status


def prepare_for_create(obj: dict[str, Any], release: Any) -> None:
    """``PrepareForCreate``: status cleared."""
    reset_status(obj)


def validate(obj: dict[str, Any], release: Any, version: str = "") -> list[FieldError]:
    """``Validate``: ``ValidatePersistentVolumeClaim``."""
    return validate_persistent_volume_claim(obj, rel(release))


def warnings_on_create(obj: dict[str, Any], release: Any, version: str = "") -> list[str]:
    """``GetWarningsForPersistentVolumeClaim`` (not ported)."""
    return []
