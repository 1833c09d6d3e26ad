"""Bug: an atomic list comes back sorted (its order is data)."""

from __future__ import annotations

from typing import Any

from tests.fuzz_converters._base import with_spec_hook


def _sort(spec: dict[str, Any], desired: str) -> None:
    if "tags" in spec:
        spec["tags"] = sorted(spec["tags"])


convert = with_spec_hook(_sort)
