"""Bug: an object already at the desired version is "normalised" instead of returned as is."""

from __future__ import annotations

import copy
from typing import Any

from tests.fuzz_converters._base import convert


def strips_name(obj: dict[str, Any], desired: str) -> dict[str, Any]:
    if obj.get("apiVersion") != desired:
        return convert(obj, desired)
    out = copy.deepcopy(obj)
    spec = out.get("spec")
    if isinstance(spec, dict) and isinstance(spec.get("name"), str):
        spec["name"] = spec["name"].strip()
    return out
