"""The default ClusterRoles and ClusterRoleBindings the apiserver bootstraps that matter to authorization checks
of admission policies: kubernetes ``plugin/pkg/auth/authorizer/rbac/bootstrappolicy/policy.go`` (``clusterRoles``,
``clusterRoleBindings``), as data.

Read at openshift/microshift release-4.17 (``vendor/k8s.io/kubernetes``) … release-4.23
(``deps/github.com/openshift/kubernetes``), Kubernetes 1.30 … 1.36: these roles and bindings are the same in every
release (OpenShift's own additions, ``system:openshift:public-info-viewer`` and ``system:node-admin``, are left
out). 1.37 is taken to be 1.36.

Ported: ``cluster-admin`` (everything, bound to group ``system:masters``), ``system:discovery`` (discovery and
health paths, bound to ``system:authenticated``), ``system:basic-user`` (self subject access/rules reviews and
self subject reviews, bound to ``system:authenticated``), ``system:public-info-viewer`` (health and version
paths, bound to ``system:authenticated`` and ``system:unauthenticated``) and
``system:service-account-issuer-discovery`` (the OIDC discovery paths, bound to ``system:serviceaccounts``).
Not ported: the aggregated user-facing roles (``admin``, ``edit``, ``view`` and their ``system:aggregate-to-*``
sources), the controllers' and nodes' roles, ``system:monitoring`` and the feature-gated ones; a bundle that
binds one of them brings its own copy, or the binding's role reference does not resolve
(``clusterrole.rbac.authorization.k8s.io "view" not found`` in the RBAC reason).
"""

from __future__ import annotations

from typing import Any

__all__ = ["cluster_role_bindings", "cluster_roles"]

_RBAC = "rbac.authorization.k8s.io"
_LABELS = {"kubernetes.io/bootstrapping": "rbac-defaults"}  # addDefaultMetadata / addClusterRoleLabel


def _role(name: str, rules: list[dict[str, Any]]) -> dict[str, Any]:
    return {"apiVersion": f"{_RBAC}/v1", "kind": "ClusterRole",
            "metadata": {"name": name, "labels": dict(_LABELS),
                         "annotations": {"rbac.authorization.kubernetes.io/autoupdate": "true"}},
            "rules": rules}


def _binding(name: str, *groups: str) -> dict[str, Any]:
    """``NewClusterBinding(name).Groups(groups...)``: the ClusterRole of the same name."""
    return {"apiVersion": f"{_RBAC}/v1", "kind": "ClusterRoleBinding",
            "metadata": {"name": name, "labels": dict(_LABELS),
                         "annotations": {"rbac.authorization.kubernetes.io/autoupdate": "true"}},
            "roleRef": {"apiGroup": _RBAC, "kind": "ClusterRole", "name": name},
            "subjects": [{"apiGroup": _RBAC, "kind": "Group", "name": g} for g in groups]}


def _urls(verb: str, *urls: str) -> dict[str, Any]:
    """``NewRule(verb).URLs(urls...)``."""
    return {"verbs": [verb], "nonResourceURLs": list(urls)}


def cluster_roles() -> list[dict[str, Any]]:
    """The ported default ClusterRoles (new dicts on every call)."""
    return [
        _role("cluster-admin", [
            {"verbs": ["*"], "apiGroups": ["*"], "resources": ["*"]},
            {"verbs": ["*"], "nonResourceURLs": ["*"]},
        ]),
        _role("system:discovery", [_urls(
            "get", "/livez", "/readyz", "/healthz", "/version", "/version/", "/openapi", "/openapi/*", "/api",
            "/api/*", "/apis", "/apis/*")]),
        _role("system:basic-user", [
            {"verbs": ["create"], "apiGroups": ["authorization.k8s.io"],
             "resources": ["selfsubjectaccessreviews", "selfsubjectrulesreviews"]},
            {"verbs": ["create"], "apiGroups": ["authentication.k8s.io"], "resources": ["selfsubjectreviews"]},
        ]),
        _role("system:public-info-viewer", [_urls("get", "/livez", "/readyz", "/healthz", "/version", "/version/")]),
        _role("system:service-account-issuer-discovery", [_urls(
            "get", "/.well-known/openid-configuration", "/.well-known/openid-configuration/", "/openid/v1/jwks",
            "/openid/v1/jwks/")]),
    ]


def cluster_role_bindings() -> list[dict[str, Any]]:
    """The ported default ClusterRoleBindings (new dicts on every call): ``user.SystemPrivilegedGroup``,
    ``user.AllAuthenticated``, ``user.AllUnauthenticated``, ``serviceaccount.AllServiceAccountsGroup``."""
    return [
        _binding("cluster-admin", "system:masters"),
        _binding("system:discovery", "system:authenticated"),
        _binding("system:basic-user", "system:authenticated"),
        _binding("system:public-info-viewer", "system:authenticated", "system:unauthenticated"),
        _binding("system:service-account-issuer-discovery", "system:serviceaccounts"),
    ]
