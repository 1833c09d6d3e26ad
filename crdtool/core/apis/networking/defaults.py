"""Defaulting of networking.k8s.io/v1 (``pkg/apis/networking/v1/defaults.go``, unchanged 1.30 … 1.36):
NetworkPolicy ports' protocol and ``policyTypes``, IngressClass ``parameters.scope``."""

from __future__ import annotations

from typing import Any


def _list(v: Any) -> list[Any]:
    """A list field (anything else: empty)."""
    return v if isinstance(v, list) else []


def set_defaults(obj: dict[str, Any], version: str, release: Any) -> None:
    """``SetObjectDefaults_NetworkPolicy`` / ``SetObjectDefaults_IngressClass``. Mutates ``obj``."""
    kind = obj.get("kind")
    spec = obj.get("spec")
    if kind == "NetworkPolicy":
        if not isinstance(spec, dict):
            spec = obj["spec"] = {}
        for direction in ("ingress", "egress"):
            for rule in _list(spec.get(direction)):
                if isinstance(rule, dict):
                    for port in _list(rule.get("ports")):
                        if isinstance(port, dict) and port.get("protocol") is None:
                            port["protocol"] = "TCP"
        if not spec.get("policyTypes"):
            spec["policyTypes"] = ["Ingress", "Egress"] if spec.get("egress") else ["Ingress"]
    elif kind == "IngressClass" and isinstance(spec, dict):
        params = spec.get("parameters")
        if isinstance(params, dict) and params.get("scope") is None:
            params["scope"] = "Cluster"


def set_object_defaults(obj: dict[str, Any], version: str, kind: str, release: Any) -> None:
    """The create path's entry (:mod:`crdtool.core.registry.create`): :func:`set_defaults` of ``obj``
    (``kind`` is ``obj['kind']``)."""
    set_defaults(obj, version, release)
