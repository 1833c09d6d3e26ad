"""A correct Widget converter (v1alpha1 ``spec.size`` <-> v1 ``spec.replicas``) the broken ones build on."""

from __future__ import annotations

import copy
from typing import Any, Callable

V1ALPHA1 = "fuzz.example.com/v1alpha1"
V1 = "fuzz.example.com/v1"
_RENAME = {V1: ("size", "replicas"), V1ALPHA1: ("replicas", "size")}


def convert(obj: dict[str, Any], desired: str) -> dict[str, Any]:
    """Rename the one field that differs and set apiVersion; everything else is kept."""
    source = obj.get("apiVersion")
    if source not in _RENAME or desired not in _RENAME:
        raise ValueError(f"cannot convert {source} to {desired}")
    out = copy.deepcopy(obj)
    if source == desired:
        return out
    out["apiVersion"] = desired
    spec = out.get("spec")
    if isinstance(spec, dict):
        old, new = _RENAME[desired]
        if old in spec:
            spec[new] = spec.pop(old)
    return out


def with_spec_hook(hook: Callable[[dict[str, Any], str], None]) -> Callable[[dict[str, Any], str], dict[str, Any]]:
    """A converter that runs ``hook(spec, desired)`` after a correct cross-version conversion."""

    def broken(obj: dict[str, Any], desired: str) -> dict[str, Any]:
        out = convert(obj, desired)
        if obj.get("apiVersion") != desired and isinstance(out.get("spec"), dict):
            hook(out["spec"], desired)
        return out

    return broken
