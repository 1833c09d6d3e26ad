"""The ReplicaSet create strategy: ``pkg/registry/apps/replicaset/strategy.go`` (1.30 … 1.36)."""

from __future__ import annotations

from typing import Any

from crdtool.core.apis.apps.validation import deployment_name_warnings, validate_replica_set
from crdtool.core.apis.core.warnings import pod_template_warnings
from crdtool.core.apis.core.podutil import dig, drop_disabled_template_fields
from crdtool.core.errors import FieldError, Path
from crdtool.core.registry._common import rel, reset_status, set_generation


def prepare_for_create(obj: dict[str, Any], release: Any) -> None:
    """``PrepareForCreate``: status cleared, generation 1; ``DropDisabledTemplateFields``."""
    reset_status(obj)
    set_generation(obj)
    drop_disabled_template_fields(dig(obj, "spec", "template"), rel(release))


def validate(obj: dict[str, Any], release: Any, version: str = "") -> list[FieldError]:
    """``Validate``: ``ValidateReplicaSet``."""
    return validate_replica_set(obj, rel(release))


def warnings_on_create(obj: dict[str, Any], release: Any, version: str = "") -> list[str]:
    """``WarningsOnCreate``: the name warning and ``GetWarningsForPodTemplate``."""
    spec = obj.get("spec")
    template = spec.get("template") if isinstance(spec, dict) else None
    return deployment_name_warnings(obj) + pod_template_warnings(template if isinstance(template, dict) else {}, Path("spec", "template"), rel(release))
