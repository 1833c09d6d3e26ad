"""A ValidatingAdmissionPolicy, MutatingAdmissionPolicy or binding at create: the defaults and checks the
admission chain (:mod:`crdtool.core.admission.chain`) and ``crdtool validate`` apply before taking one in.

They live where upstream keeps them: the defaults in :mod:`crdtool.core.apis.admissionregistration.defaults`
(``pkg/apis/admissionregistration/v1/defaults.go``), the checks in
:mod:`crdtool.core.apis.admissionregistration.validation` (``pkg/apis/admissionregistration/validation/validation.go``,
beside the webhook configurations' and sharing their ``validateMatchConditions``), and the strategies' ``Validate``
/ ``WarningsOnCreate`` (the static suffix of 1.36 / 1.37) in :mod:`crdtool.core.registry.admissionregistration`.
This module names them for the admission layer: :func:`refusals` is what decides whether the apiserver takes a
policy or binding in.
"""

from __future__ import annotations

from typing import Any

from crdtool.core.apis.admissionregistration.defaults import default_binding, default_policy
from crdtool.core.apis.admissionregistration.validation import (
    validate_binding,
    validate_mutating_policy,
    validate_policy,
)

from crdtool.core.errors import FieldError
from crdtool.core.registry.strategies import strategy_module
from crdtool.core.releases import Release

__all__ = ["create_warnings", "default_binding", "default_policy", "refusals", "validate_binding",
           "validate_mutating_policy", "validate_policy"]

_GROUP = "admissionregistration.k8s.io"


def refusals(kind: str, obj: dict[str, Any], release: Release) -> list[FieldError]:
    """The errors the ``kind``'s create strategy (``Validate``) finds in the decoded, defaulted ``obj``: the
    validation.go function, then the static suffix where ``release`` refuses it. ``kind``: ValidatingAdmissionPolicy,
    MutatingAdmissionPolicy or their bindings (KeyError otherwise)."""
    strategy = strategy_module(_GROUP, kind)
    if strategy is None:
        raise KeyError(kind)
    return list(strategy.validate(obj, release))


def create_warnings(kind: str, obj: dict[str, Any], release: Release) -> list[str]:
    """The ``kind``'s ``WarningsOnCreate`` of ``obj`` (the static suffix's warning in 1.36)."""
    strategy = strategy_module(_GROUP, kind)
    if strategy is None:
        raise KeyError(kind)
    return list(strategy.warnings_on_create(obj, release))
