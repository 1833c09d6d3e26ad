"""A ValidatingAdmissionPolicy, MutatingAdmissionPolicy or binding at create: the defaults and checks the
admission chain (:mod:`crdtool.core.admission.chain`) and ``crdtool validate`` apply before taking one in.

They live where upstream keeps them: the defaults in :mod:`crdtool.core.apis.admissionregistration.defaults`
(``pkg/apis/admissionregistration/v1/defaults.go``), the checks in
:mod:`crdtool.core.apis.admissionregistration.validation` (``pkg/apis/admissionregistration/validation/validation.go``,
beside the webhook configurations' and sharing their ``validateMatchConditions``). This module names them for
the admission layer.
"""

from __future__ import annotations

from crdtool.core.apis.admissionregistration.defaults import default_binding, default_policy
from crdtool.core.apis.admissionregistration.validation import (
    validate_binding,
    validate_mutating_policy,
    validate_policy,
)

__all__ = ["default_binding", "default_policy", "validate_binding", "validate_mutating_policy", "validate_policy"]
