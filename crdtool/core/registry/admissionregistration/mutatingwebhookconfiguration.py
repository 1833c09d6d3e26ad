"""The MutatingWebhookConfiguration create strategy: kubernetes
``pkg/registry/admissionregistration/mutatingwebhookconfiguration/strategy.go`` (1.30 … 1.36, openshift/microshift
``release-4.17`` … ``release-4.23``)."""

from __future__ import annotations

from typing import Any

from crdtool.core.apis._util import m, s
from crdtool.core.apis.admissionregistration.validation import validate_mutating_webhook_configuration, warnings_for_static_suffix
from crdtool.core.errors import FieldError
from crdtool.core.registry._common import rel, set_generation


def prepare_for_create(obj: dict[str, Any], release: Any) -> None:
    """``PrepareForCreate``: generation 1."""
    set_generation(obj)


def validate(obj: dict[str, Any], release: Any, version: str = "") -> list[FieldError]:
    """``Validate``: ``ValidateMutatingWebhookConfiguration`` (1.36's ``ValidateStaticSuffix`` runs only under gate
    ``ManifestBasedAdmissionControlConfig``, off by default)."""
    return validate_mutating_webhook_configuration(obj, rel(release))


def warnings_on_create(obj: dict[str, Any], release: Any, version: str = "") -> list[str]:
    """``WarningsOnCreate``: from 1.36, ``WarningsForStaticSuffix`` of the name (the gate being off); none before."""
    return warnings_for_static_suffix(s(m(obj.get("metadata")).get("name")), rel(release))
