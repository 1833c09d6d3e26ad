"""Bug: ``spec.tags`` is not copied into v1."""

from __future__ import annotations

from typing import Any

from tests.fuzz_converters._base import V1, with_spec_hook


def _drop_tags(spec: dict[str, Any], desired: str) -> None:
    if desired == V1:
        spec.pop("tags", None)


convert = with_spec_hook(_drop_tags)
