"""Native validation of scheduling.k8s.io/v1: PriorityClass.

Mirrors kubernetes/kubernetes ``pkg/apis/scheduling/validation/validation.go`` (``ValidatePriorityClass``,
unchanged 1.30 … 1.36) and ``pkg/apis/scheduling/v1/helpers.go`` (``IsKnownSystemPriorityClass``).
"""

from __future__ import annotations

from typing import Any, Mapping

from crdtool.core.apis._util import i, m, s
from crdtool.core.apis.core.validation import validate_object_meta_core
from crdtool.core.errors import FieldError, Path, forbidden, not_supported, required
from crdtool.core.releases import Release
from crdtool.core.validation_util import name_is_dns_subdomain

#: ``field.NewPath("metadata")``, built once (a Path is an immutable str).
_METADATA = Path("metadata")

HIGHEST_USER_DEFINABLE_PRIORITY = 1000000000
SYSTEM_CRITICAL_PRIORITY = 2 * HIGHEST_USER_DEFINABLE_PRIORITY
#: ``systemPriorityClasses``: name → (value, globalDefault).
SYSTEM_PRIORITY_CLASSES = {
    "system-node-critical": (SYSTEM_CRITICAL_PRIORITY + 1000, False),
    "system-cluster-critical": (SYSTEM_CRITICAL_PRIORITY, False),
}


def _known_system_class_error(name: str, value: int, global_default: bool) -> str | None:
    if name in SYSTEM_PRIORITY_CLASSES:
        want_value, want_default = SYSTEM_PRIORITY_CLASSES[name]
        if want_value != value:
            return f"value of {name} PriorityClass must be {want_value}"
        if want_default != global_default:
            return f"globalDefault of {name} PriorityClass must be {'true' if want_default else 'false'}"
        return None
    return f"{name} is not a known system priority class"


def validate_priority_class(obj: Mapping[str, Any], release: Release) -> list[FieldError]:
    """Upstream ``ValidatePriorityClass``."""
    meta = m(obj.get("metadata"))
    errs = validate_object_meta_core(meta, False, name_is_dns_subdomain, _METADATA, release)
    name, value = s(meta.get("name")), i(obj.get("value"))
    if name.startswith("system-"):
        err = _known_system_class_error(name, value, obj.get("globalDefault") is True)
        if err is not None:
            errs.append(forbidden(Path("metadata", "name"), "priority class names with 'system-' prefix are reserved for system use only. error: " + err))
    elif value > HIGHEST_USER_DEFINABLE_PRIORITY:
        errs.append(forbidden(Path("value"), f"maximum allowed value of a user defined priority is {HIGHEST_USER_DEFINABLE_PRIORITY}"))
    pp = obj.get("preemptionPolicy")
    if isinstance(pp, str):
        if not pp:
            errs.append(required(Path("preemptionPolicy"), ""))
        elif pp not in ("PreemptLowerPriority", "Never"):
            errs.append(not_supported(Path("preemptionPolicy"), pp, ("PreemptLowerPriority", "Never")))
    return errs
