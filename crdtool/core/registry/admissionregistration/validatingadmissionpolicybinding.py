"""The ValidatingAdmissionPolicyBinding create strategy: kubernetes
``pkg/registry/admissionregistration/validatingadmissionpolicybinding/strategy.go`` (1.30 … 1.36, openshift/microshift
``release-4.17`` … ``release-4.23``; 1.37 as 1.36, with its feature gate defaults):
:mod:`crdtool.core.registry.admissionregistration._policies`."""

from __future__ import annotations

from typing import Any

from crdtool.core.apis.admissionregistration.validation import validate_binding
from crdtool.core.errors import FieldError
from crdtool.core.registry._common import set_generation
from crdtool.core.registry.admissionregistration import _policies


def prepare_for_create(obj: dict[str, Any], release: Any) -> None:
    """``PrepareForCreate``: generation 1."""
    set_generation(obj)


def validate(obj: dict[str, Any], release: Any, version: str = "") -> list[FieldError]:
    """``Validate``: ``ValidateValidatingAdmissionPolicyBinding``, then the static suffix (1.37)."""
    return _policies.validate(obj, release, lambda o, r: validate_binding(o, r))


def warnings_on_create(obj: dict[str, Any], release: Any, version: str = "") -> list[str]:
    """``WarningsOnCreate``: the static suffix's warning (1.36)."""
    return _policies.warnings_on_create(obj, release)
