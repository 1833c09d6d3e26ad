"""The DaemonSet create strategy: ``pkg/registry/apps/daemonset/strategy.go`` (1.30 … 1.36)."""

from __future__ import annotations

from typing import Any

from crdtool.core.apis.apps.validation import validate_daemon_set
from crdtool.core.errors import FieldError
from crdtool.core.registry._common import rel, reset_status, set_generation


def prepare_for_create(obj: dict[str, Any], release: Any) -> None:
    """``PrepareForCreate``: status cleared, generation 1, ``templateGeneration`` at least 1."""
    reset_status(obj)
    set_generation(obj)
    spec = obj.get("spec")
    if isinstance(spec, dict):
        tg = spec.get("templateGeneration")
        if not isinstance(tg, int) or tg < 1:
            spec["templateGeneration"] = 1


def validate(obj: dict[str, Any], release: Any, version: str = "") -> list[FieldError]:
    """``Validate``: ``ValidateDaemonSet``."""
    return validate_daemon_set(obj, rel(release))


def warnings_on_create(obj: dict[str, Any], release: Any, version: str = "") -> list[str]:
    """``WarningsOnCreate``: the pod template's warnings (not ported)."""
    return []
