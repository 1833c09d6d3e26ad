"""Bugs that show only on an edge value: each converter copies a field the way a hurried author might."""

from __future__ import annotations

from typing import Any

from tests.fuzz_converters._base import with_spec_hook


def _zero(spec: dict[str, Any], desired: str) -> None:
    count = spec.pop("count", None)
    if count:  # 0 is falsy: the field disappears
        spec["count"] = count


def _empty_string(spec: dict[str, Any], desired: str) -> None:
    name = spec.pop("name", None)
    if name:  # "" disappears
        spec["name"] = name


def _empty_object(spec: dict[str, Any], desired: str) -> None:
    config = spec.pop("config", None)
    if config:  # {} disappears
        spec["config"] = config


def _null(spec: dict[str, Any], desired: str) -> None:
    note = spec.pop("note", None)
    if note is not None:  # an explicit null disappears
        spec["note"] = note


def _numeric_string(spec: dict[str, Any], desired: str) -> None:
    port = spec.get("port")
    if isinstance(port, str) and port.isdigit():  # "10" becomes 10
        spec["port"] = int(port)


def _float(spec: dict[str, Any], desired: str) -> None:
    if "count" in spec:  # integers beyond 2**53 lose precision
        spec["count"] = int(float(spec["count"]))


drop_zero = with_spec_hook(_zero)
drop_empty_string = with_spec_hook(_empty_string)
drop_empty_object = with_spec_hook(_empty_object)
drop_null = with_spec_hook(_null)
parse_numeric_string = with_spec_hook(_numeric_string)
through_float = with_spec_hook(_float)
