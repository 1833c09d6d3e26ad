"""The StatefulSet create strategy: ``pkg/registry/apps/statefulset/strategy.go`` (1.30 … 1.36)."""

from __future__ import annotations

from typing import Any

from crdtool.core.apis.apps.validation import validate_stateful_set
from crdtool.core.apis.core.warnings import pod_template_warnings, pvc_spec_warnings
from crdtool.core.apis.core.podutil import dig, drop_disabled_template_fields
from crdtool.core.errors import FieldError, Path
from crdtool.core.registry._common import rel, reset_status, set_generation


def prepare_for_create(obj: dict[str, Any], release: Any) -> None:
    """``PrepareForCreate``: status cleared, generation 1; ``DropDisabledTemplateFields``."""
    reset_status(obj)
    set_generation(obj)
    drop_disabled_template_fields(dig(obj, "spec", "template"), rel(release))


def validate(obj: dict[str, Any], release: Any, version: str = "") -> list[FieldError]:
    """``Validate``: ``ValidateStatefulSet``."""
    return validate_stateful_set(obj, rel(release))


def warnings_on_create(obj: dict[str, Any], release: Any, version: str = "") -> list[str]:
    """``WarningsOnCreate``: ``GetWarningsForPodTemplate``, each claim template's
    ``GetWarningsForPersistentVolumeClaimSpec`` (at ``spec.volumeClaimTemplates[i]``, without ``.spec``: upstream's
    create path), a negative ``revisionHistoryLimit``."""
    spec = obj.get("spec")
    template = spec.get("template") if isinstance(spec, dict) else None
    out = pod_template_warnings(template if isinstance(template, dict) else {}, Path("spec", "template"), rel(release))
    claims = spec.get("volumeClaimTemplates") if isinstance(spec, dict) else None
    for index, claim in enumerate(claims if isinstance(claims, list) else []):
        claim_spec = claim.get("spec") if isinstance(claim, dict) else None
        out.extend(pvc_spec_warnings(Path("spec", "volumeClaimTemplates").index(index), claim_spec if isinstance(claim_spec, dict) else {}))
    rhl = spec.get("revisionHistoryLimit") if isinstance(spec, dict) else None
    if isinstance(rhl, int) and rhl < 0:
        out.append("spec.revisionHistoryLimit: a negative value retains all historical revisions; a value >= 0 is recommended")
    return out
