"""Native validation of coordination.k8s.io/v1: Lease.

Mirrors kubernetes/kubernetes ``pkg/apis/coordination/validation/validation.go`` (``ValidateLease``,
``ValidateLeaseSpec``). ``spec.strategy`` and ``spec.preferredHolder`` (1.31+) are dropped on create while gate
``CoordinatedLeaderElection`` is off, its default in 1.31 … 1.36 (Alpha 1.31, Beta off 1.33), so their checks
never fire on a create.
"""

from __future__ import annotations

from typing import Any, Mapping

from crdtool.core.apis._util import go_pointer, m
from crdtool.core.apis.core.validation import validate_object_meta_core
from crdtool.core.errors import FieldError, Path, invalid
from crdtool.core.releases import Release
from crdtool.core.validation_util import name_is_dns_subdomain

#: ``field.NewPath("metadata")``, built once (a Path is an immutable str).
_METADATA = Path("metadata")


def validate_lease(obj: Mapping[str, Any], release: Release) -> list[FieldError]:
    """Upstream ``ValidateLease``."""
    errs = validate_object_meta_core(obj.get("metadata"), True, name_is_dns_subdomain, _METADATA, release)
    spec, path = m(obj.get("spec")), Path("spec")
    lds = spec.get("leaseDurationSeconds")
    if isinstance(lds, int) and lds <= 0:
        errs.append(invalid(path.child("leaseDurationSeconds"), go_pointer(lds), "must be greater than 0"))
    lt = spec.get("leaseTransitions")
    if isinstance(lt, int) and lt < 0:
        errs.append(invalid(path.child("leaseTransitions"), go_pointer(lt), "must be greater than or equal to 0"))
    return errs
