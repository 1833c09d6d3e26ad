"""The ValidatingWebhookConfiguration create strategy: kubernetes
``pkg/registry/admissionregistration/validatingwebhookconfiguration/strategy.go`` (1.30 … 1.36, openshift/microshift
``release-4.17`` … ``release-4.23``; 1.37 as 1.36, with its feature gate defaults)."""

from __future__ import annotations

from typing import Any

from crdtool.core.apis._util import m, s
from crdtool.core.apis.admissionregistration.validation import (
    validate_validating_webhook_configuration,
    static_suffix_mode,
    validate_static_suffix,
    warnings_for_static_suffix,
)
from crdtool.core.errors import FieldError, Path
from crdtool.core.registry._common import rel, set_generation


def prepare_for_create(obj: dict[str, Any], release: Any) -> None:
    """``PrepareForCreate``: generation 1."""
    set_generation(obj)


def validate(obj: dict[str, Any], release: Any, version: str = "") -> list[FieldError]:
    """``Validate``: ``ValidateValidatingWebhookConfiguration``, then (1.36 on, gate
    ``ManifestBasedAdmissionControlConfig`` on: 1.37) ``ValidateStaticSuffix`` of the name."""
    r = rel(release)
    errs = validate_validating_webhook_configuration(obj, r)
    if static_suffix_mode(r) == "refuse":
        errs.extend(validate_static_suffix(s(m(obj.get("metadata")).get("name")), Path("metadata", "name")))
    return errs


def warnings_on_create(obj: dict[str, Any], release: Any, version: str = "") -> list[str]:
    """``WarningsOnCreate``: (1.36 on, the gate off: 1.36) ``WarningsForStaticSuffix`` of the name; none before."""
    if static_suffix_mode(rel(release)) != "warn":
        return []
    return warnings_for_static_suffix(s(m(obj.get("metadata")).get("name")))
