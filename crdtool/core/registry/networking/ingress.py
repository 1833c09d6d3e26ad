"""The Ingress create strategy: ``pkg/registry/networking/ingress/strategy.go`` (1.30 … 1.36)."""

from __future__ import annotations

from typing import Any

from crdtool.core.apis.networking.validation import validate_ingress_create
from crdtool.core.errors import FieldError
from crdtool.core.registry._common import rel, reset_status, set_generation


def prepare_for_create(obj: dict[str, Any], release: Any) -> None:
    """``PrepareForCreate``: status cleared, generation 1."""
    reset_status(obj)
    set_generation(obj)


def validate(obj: dict[str, Any], release: Any, version: str = "") -> list[FieldError]:
    """``Validate``: ``ValidateIngressCreate``."""
    return validate_ingress_create(obj, rel(release))


def warnings_on_create(obj: dict[str, Any], release: Any, version: str = "") -> list[str]:
    """``WarningsOnCreate``: the deprecated ``kubernetes.io/ingress.class`` annotation without a class name."""
    md = obj.get("metadata")
    annotations = md.get("annotations") if isinstance(md, dict) else None
    spec = obj.get("spec")
    class_name = spec.get("ingressClassName") if isinstance(spec, dict) else None
    if isinstance(annotations, dict) and "kubernetes.io/ingress.class" in annotations and class_name is None:
        return ["annotation \"kubernetes.io/ingress.class\" is deprecated, please use 'spec.ingressClassName' instead"]
    return []
