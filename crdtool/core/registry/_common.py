"""Pieces shared by the registry strategies: the release argument, the create-time resets every strategy does.

Upstream: kubernetes/kubernetes ``pkg/registry/<group>/<resource>/strategy.go`` ``PrepareForCreate`` (status
cleared, ``generation`` 1) and ``pkg/api/pod/warnings.go`` (not ported, see the note of issue 30).
"""

from __future__ import annotations

from typing import Any

from crdtool.core.apis._util import rel
from crdtool.core.releases import Release

__all__ = ["meta", "rel", "reset_status", "set_generation", "Release"]


def meta(obj: dict[str, Any]) -> dict[str, Any]:
    """``obj['metadata']``, created when absent."""
    md = obj.get("metadata")
    if not isinstance(md, dict):
        md = obj["metadata"] = {}
    return md


def reset_status(obj: dict[str, Any], status: dict[str, Any] | None = None) -> None:
    """``obj.Status = <Kind>Status{}``: the status the client sent is dropped (an empty struct has no JSON
    members but ``omitempty`` structs still print as ``{}``, hence ``status: {}``)."""
    obj["status"] = dict(status or {})


def set_generation(obj: dict[str, Any]) -> None:
    """``obj.Generation = 1``."""
    meta(obj)["generation"] = 1
