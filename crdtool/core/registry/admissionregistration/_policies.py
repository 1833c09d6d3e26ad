"""What the four admission policy strategies share: kubernetes
``pkg/registry/admissionregistration/{validatingadmissionpolicy,validatingadmissionpolicybinding,
mutatingadmissionpolicy,mutatingadmissionpolicybinding}/strategy.go`` (1.30 … 1.36, openshift/microshift
``release-4.17`` … ``release-4.23``; 1.37 as 1.36, with its feature gate defaults).

``Validate``: the kind's validation.go function, then (1.36 on, gate ``ManifestBasedAdmissionControlConfig`` on:
1.37) ``ValidateStaticSuffix`` of the name; when that finds nothing the strategy also authorizes the paramKind /
paramRef against the requesting user (``authorizeCreate``: not modelled, crdtool has no authorizer).
``WarningsOnCreate``: (1.36, the gate off) ``WarningsForStaticSuffix``; nothing before 1.36.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from crdtool.core.apis._util import m, s
from crdtool.core.apis.admissionregistration.validation import (
    static_suffix_mode,
    validate_static_suffix,
    warnings_for_static_suffix,
)
from crdtool.core.errors import FieldError, Path
from crdtool.core.registry._common import rel
from crdtool.core.releases import Release


def validate(obj: dict[str, Any], release: Any, validation: Callable[[dict[str, Any], Release], list[FieldError]]
             ) -> list[FieldError]:
    """``Validate``: ``validation(obj, release)``, then the static suffix where the release refuses it."""
    r = rel(release)
    errs = validation(obj, r)
    if static_suffix_mode(r) == "refuse":
        errs.extend(validate_static_suffix(s(m(obj.get("metadata")).get("name")), Path("metadata", "name")))
    return errs


def warnings_on_create(obj: dict[str, Any], release: Any) -> list[str]:
    """``WarningsOnCreate``: the static suffix's warning where the release only warns."""
    if static_suffix_mode(rel(release)) != "warn":
        return []
    return warnings_for_static_suffix(s(m(obj.get("metadata")).get("name")))
