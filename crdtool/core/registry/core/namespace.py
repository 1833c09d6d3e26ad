"""The Namespace create strategy: ``pkg/registry/core/namespace/strategy.go`` (1.30 … 1.36)."""

from __future__ import annotations

from typing import Any

from crdtool.core.apis.core.validation import validate_namespace
from crdtool.core.errors import FieldError
from crdtool.core.registry._common import rel


def prepare_for_create(obj: dict[str, Any], release: Any) -> None:
    """``PrepareForCreate``: phase Active; the ``kubernetes`` finalizer appended when missing."""
    obj["status"] = {"phase": "Active"}
    spec = obj.get("spec")
    if not isinstance(spec, dict):
        spec = obj["spec"] = {}
    finalizers = spec.get("finalizers")
    if not isinstance(finalizers, list):
        finalizers = []
    if "kubernetes" not in finalizers:
        finalizers = [*finalizers, "kubernetes"]
    spec["finalizers"] = finalizers


def validate(obj: dict[str, Any], release: Any, version: str = "") -> list[FieldError]:
    """``Validate``: ``ValidateNamespace``."""
    return validate_namespace(obj, rel(release))


def warnings_on_create(obj: dict[str, Any], release: Any, version: str = "") -> list[str]:
    """``WarningsOnCreate``: none."""
    return []
