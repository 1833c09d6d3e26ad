"""Correct converters: no property may fail, whatever the seed."""

from __future__ import annotations

import json
from typing import Any

from tests.fuzz_converters import _base

convert = _base.convert


def convert_via_json(obj: dict[str, Any], desired: str) -> dict[str, Any]:
    """Correct too, through a JSON encode/decode as a webhook server does (floats, unicode, big ints)."""
    return json.loads(json.dumps(_base.convert(json.loads(json.dumps(obj)), desired)))
