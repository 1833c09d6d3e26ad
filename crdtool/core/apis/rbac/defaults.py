"""Defaulting of rbac.authorization.k8s.io/v1 (``pkg/apis/rbac/v1/defaults.go``, unchanged 1.30 … 1.36):
a binding's ``roleRef.apiGroup`` and each subject's ``apiGroup``."""

from __future__ import annotations

from typing import Any

GROUP_NAME = "rbac.authorization.k8s.io"


def _list(v: Any) -> list[Any]:
    """A list field (anything else: empty)."""
    return v if isinstance(v, list) else []


def set_defaults(obj: dict[str, Any], version: str, release: Any) -> None:
    """``SetObjectDefaults_RoleBinding`` / ``SetObjectDefaults_ClusterRoleBinding`` (``SetDefaults_Subject`` on
    each subject). Roles have no defaults. Mutates ``obj``."""
    if obj.get("kind") not in ("RoleBinding", "ClusterRoleBinding"):
        return
    ref = obj.get("roleRef")
    if not isinstance(ref, dict):  # a struct in Go: defaulted even when absent
        ref = obj["roleRef"] = {}
    if not ref.get("apiGroup"):
        ref["apiGroup"] = GROUP_NAME
    for subject in _list(obj.get("subjects")):
        if isinstance(subject, dict) and not subject.get("apiGroup"):
            if subject.get("kind") in ("User", "Group"):
                subject["apiGroup"] = GROUP_NAME


def set_object_defaults(obj: dict[str, Any], version: str, kind: str, release: Any) -> None:
    """The create path's entry (:mod:`crdtool.core.registry.create`): :func:`set_defaults` of ``obj``
    (``kind`` is ``obj['kind']``)."""
    set_defaults(obj, version, release)
