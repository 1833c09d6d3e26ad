"""Bugs that produce objects the target version's schema does not accept."""

from __future__ import annotations

from typing import Any

from tests.fuzz_converters._base import V1, with_spec_hook


def _unknown(spec: dict[str, Any], desired: str) -> None:
    spec["convertedBy"] = "widget-webhook"  # no such field: the apiserver prunes it


def _wrong_type(spec: dict[str, Any], desired: str) -> None:
    if desired == V1 and "replicas" in spec:
        spec["replicas"] = str(spec["replicas"])  # v1 replicas is an integer


add_unknown_field = with_spec_hook(_unknown)
wrong_type = with_spec_hook(_wrong_type)
