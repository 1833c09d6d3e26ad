"""Bugs in apiVersion, kind and metadata, which the apiserver rejects or silently reverts."""

from __future__ import annotations

import copy
from typing import Any

from tests.fuzz_converters._base import convert


def keep_api_version(obj: dict[str, Any], desired: str) -> dict[str, Any]:
    out = convert(obj, desired)
    out["apiVersion"] = obj["apiVersion"]
    return out


def rename_object(obj: dict[str, Any], desired: str) -> dict[str, Any]:
    out = convert(obj, desired)
    if desired != obj["apiVersion"]:
        out["metadata"]["name"] = out["metadata"]["name"] + "-" + desired.rsplit("/", 1)[-1]
    return out


def change_kind(obj: dict[str, Any], desired: str) -> dict[str, Any]:
    out = convert(obj, desired)
    if desired != obj["apiVersion"]:
        out["kind"] = "Widget" + desired.rsplit("/", 1)[-1].upper()
    return out


def drop_resource_version(obj: dict[str, Any], desired: str) -> dict[str, Any]:
    out = convert(obj, desired)
    if desired != obj["apiVersion"]:
        meta = copy.deepcopy(out["metadata"])
        meta.pop("resourceVersion", None)
        out["metadata"] = meta
    return out


def invalid_label(obj: dict[str, Any], desired: str) -> dict[str, Any]:
    out = convert(obj, desired)
    if desired != obj["apiVersion"]:
        out["metadata"].setdefault("labels", {})["converted-from"] = obj["apiVersion"]  # "/" is not allowed
    return out
