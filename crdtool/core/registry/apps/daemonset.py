"""The DaemonSet create strategy: ``pkg/registry/apps/daemonset/strategy.go`` (1.30 … 1.36)."""

from __future__ import annotations

from typing import Any

from crdtool.core.apis.apps.validation import validate_daemon_set
from crdtool.core.apis.core.warnings import pod_template_warnings
from crdtool.core.apis.core.podutil import dig, drop_disabled_template_fields
from crdtool.core.errors import FieldError, Path
from crdtool.core.registry._common import rel, reset_status, set_generation


def prepare_for_create(obj: dict[str, Any], release: Any) -> None:
    """``PrepareForCreate``: status cleared, generation 1, ``templateGeneration`` at least 1; ``DropDisabledTemplateFields``."""
    reset_status(obj)
    set_generation(obj)
    spec = obj.get("spec")
    if isinstance(spec, dict):
        tg = spec.get("templateGeneration")
        if not isinstance(tg, int) or tg < 1:
            spec["templateGeneration"] = 1
    drop_disabled_template_fields(dig(obj, "spec", "template"), rel(release))


def validate(obj: dict[str, Any], release: Any, version: str = "") -> list[FieldError]:
    """``Validate``: ``ValidateDaemonSet``."""
    return validate_daemon_set(obj, rel(release))


def warnings_on_create(obj: dict[str, Any], release: Any, version: str = "") -> list[str]:
    """``WarningsOnCreate``: ``GetWarningsForPodTemplate``."""
    spec = obj.get("spec")
    template = spec.get("template") if isinstance(spec, dict) else None
    return pod_template_warnings(template if isinstance(template, dict) else {}, Path("spec", "template"), rel(release))
