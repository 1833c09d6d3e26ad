"""Native validation of policy/v1: PodDisruptionBudget.

Mirrors kubernetes/kubernetes ``pkg/apis/policy/validation/validation.go`` (``ValidatePodDisruptionBudget``,
``ValidatePodDisruptionBudgetSpec``; unchanged 1.30 … 1.36). The strategy validates the spec only: the
object's metadata gets the apiserver's generic check in ``rest.BeforeCreate`` (path-segment names).
"""

from __future__ import annotations

from typing import Any, Mapping

from crdtool.core.apis._util import go_pod_disruption_budget_spec, m, validate_label_selector
from crdtool.core.apis.apps.validation import is_not_more_than_100_percent, validate_positive_int_or_percent
from crdtool.core.errors import FieldError, Path, invalid, not_supported
from crdtool.core.releases import Release

_UNHEALTHY_POD_EVICTION_POLICIES = ("AlwaysAllow", "IfHealthyBudget")


def validate_pod_disruption_budget(obj: Mapping[str, Any], release: Release) -> list[FieldError]:
    """Upstream ``ValidatePodDisruptionBudget`` (create: label values in the selector must be valid)."""
    spec, path = m(obj.get("spec")), Path("spec")
    errs: list[FieldError] = []
    mina, maxu = spec.get("minAvailable"), spec.get("maxUnavailable")
    if mina is not None and maxu is not None:
        errs.append(invalid(path, go_pod_disruption_budget_spec(spec), "minAvailable and maxUnavailable cannot be both set"))
    if mina is not None:
        errs.extend(validate_positive_int_or_percent(mina, path.child("minAvailable")))
        errs.extend(is_not_more_than_100_percent(mina, path.child("minAvailable")))
    if maxu is not None:
        errs.extend(validate_positive_int_or_percent(maxu, path.child("maxUnavailable")))
        errs.extend(is_not_more_than_100_percent(maxu, path.child("maxUnavailable")))
    errs.extend(validate_label_selector(spec.get("selector"), path.child("selector"), release))
    upep = spec.get("unhealthyPodEvictionPolicy")
    if isinstance(upep, str) and upep not in _UNHEALTHY_POD_EVICTION_POLICIES:
        errs.append(not_supported(path.child("unhealthyPodEvictionPolicy"), upep, _UNHEALTHY_POD_EVICTION_POLICIES))
    return errs
