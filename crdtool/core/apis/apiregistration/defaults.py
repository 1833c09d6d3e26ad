"""Defaulting of apiregistration.k8s.io/v1 (k8s.io/kube-aggregator ``pkg/apis/apiregistration/v1/defaults.go``,
1.30 … 1.36): ``SetDefaults_ServiceReference``, a service port of 443."""

from __future__ import annotations

from typing import Any


def set_defaults(obj: dict[str, Any], version: str, release: Any) -> None:
    """``SetObjectDefaults_APIService``. Mutates ``obj``."""
    if obj.get("kind") != "APIService":
        return
    spec = obj.get("spec")
    svc = spec.get("service") if isinstance(spec, dict) else None
    if isinstance(svc, dict) and svc.get("port") is None:
        svc["port"] = 443


def set_object_defaults(obj: dict[str, Any], version: str, kind: str, release: Any) -> None:
    """The create path's entry (:mod:`crdtool.core.registry.create`): :func:`set_defaults` of ``obj``
    (``kind`` is ``obj['kind']``)."""
    set_defaults(obj, version, release)
