"""Bugs in the call itself: an exception on an edge input, a non-dict result, a hang."""

from __future__ import annotations

import json
import time
from typing import Any

from tests.fuzz_converters._base import convert, with_spec_hook


def _first_tag(spec: dict[str, Any], desired: str) -> None:
    if "tags" in spec:
        spec["primaryTag"] = spec["tags"][0]  # IndexError on []
        del spec["primaryTag"]


def _sleep(spec: dict[str, Any], desired: str) -> None:
    if spec.get("count") == 0:
        time.sleep(30)  # far beyond any --timeout the tests use


on_empty_list = with_spec_hook(_first_tag)
sleeps_on_zero = with_spec_hook(_sleep)


def returns_json_text(obj: dict[str, Any], desired: str) -> Any:
    return json.dumps(convert(obj, desired))


def not_written_yet(obj: dict[str, Any], desired: str) -> Any:
    """Fails every version pair the same way (one traceback in the report)."""
    raise NotImplementedError("conversion not written yet")
