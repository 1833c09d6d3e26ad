"""The ServiceAccount create strategy: ``pkg/registry/core/serviceaccount/strategy.go`` (1.30 … 1.36)."""

from __future__ import annotations

from typing import Any

from crdtool.core.apis.core.validation import validate_service_account
from crdtool.core.errors import FieldError
from crdtool.core.registry._common import rel

_ENFORCE = "kubernetes.io/enforce-mountable-secrets"


def prepare_for_create(obj: dict[str, Any], release: Any) -> None:
    """``PrepareForCreate``: ``cleanSecretReferences`` keeps only the name of each ``secrets`` entry."""
    secrets = obj.get("secrets")
    if isinstance(secrets, list):
        obj["secrets"] = [{"name": ref.get("name", "")} if isinstance(ref, dict) else ref for ref in secrets]


def validate(obj: dict[str, Any], release: Any, version: str = "") -> list[FieldError]:
    """``Validate``: ``ValidateServiceAccount``."""
    return validate_service_account(obj, rel(release))


def warnings_on_create(obj: dict[str, Any], release: Any, version: str = "") -> list[str]:
    """``warnIfHasEnforceMountableSecretsAnnotation`` (1.32+)."""
    md = obj.get("metadata")
    annotations = md.get("annotations") if isinstance(md, dict) else None
    if rel(release).minor >= 32 and isinstance(annotations, dict) and _ENFORCE in annotations:
        return [f"metadata.annotations[{_ENFORCE}]: deprecated in v1.32+; prefer separate namespaces to isolate access to mounted secrets"]
    return []
