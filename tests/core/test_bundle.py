"""Checks across a bundle (crdtool.core.bundle): each rule fires on its case and stays quiet on the fixed one."""

from __future__ import annotations

from typing import Any

from crdtool.core.bundle import check_bundle
from crdtool.core.releases import resolve_release

R = resolve_release("1.35")


def _rules(*objects: dict[str, Any]) -> list[tuple[int, str, str]]:
    found = check_bundle(list(enumerate(objects)), R)
    return sorted((k, f.rule, f.field) for k, fs in found.items() for f in fs)  # type: ignore[misc]


SVC = {"apiVersion": "v1", "kind": "Service", "metadata": {"name": "hook", "namespace": "sys"},
       "spec": {"selector": {"app": "ctl"}, "ports": [{"port": 443}]}}
DEPLOY = {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "ctl", "namespace": "sys"},
          "spec": {"template": {"metadata": {"labels": {"app": "ctl"}},
                                "spec": {"serviceAccountName": "ctl", "containers": [{"name": "c"}]}}}}
SA = {"apiVersion": "v1", "kind": "ServiceAccount", "metadata": {"name": "ctl", "namespace": "sys"}}


def _hook(port: int) -> dict[str, Any]:
    return {"apiVersion": "admissionregistration.k8s.io/v1", "kind": "MutatingWebhookConfiguration",
            "metadata": {"name": "m"},
            "webhooks": [{"clientConfig": {"service": {"name": "hook", "namespace": "sys", "port": port}}}]}


def test_a_consistent_bundle_has_no_findings() -> None:
    assert _rules(_hook(443), SVC, DEPLOY, SA) == []


def test_webhook_service_port() -> None:
    assert _rules(_hook(8443), SVC, DEPLOY, SA) == [(0, "BND001", "webhooks[0].clientConfig.service")]
    assert _rules(_hook(8443)) == []  # no Service in the bundle: not a bundle of the controller


def test_service_selector_and_service_account() -> None:
    other = {**DEPLOY, "spec": {"template": {"metadata": {"labels": {"app": "x"}}, "spec": {"serviceAccountName": "y"}}}}
    assert _rules(SVC, other, SA) == [(0, "BND002", "spec.selector"), (1, "BND004", "spec.template.spec.serviceAccountName")]


def test_rbac_resource_typos() -> None:
    role = {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole", "metadata": {"name": "r"},
            "rules": [{"apiGroups": ["", "apps"], "resources": ["pods", "deployments", "deploymnets", "pods/log"]},
                      {"apiGroups": ["example.com"], "resources": ["widgets", "widget"]},
                      {"apiGroups": ["metrics.k8s.io"], "resources": ["anything"]}]}
    crd = {"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
           "metadata": {"name": "widgets.example.com"}, "spec": {"group": "example.com", "names": {"plural": "widgets"}}}
    assert _rules(role, crd) == [(0, "BND003", "rules[0].resources[2]"), (0, "BND003", "rules[1].resources[1]")]


def test_role_refs() -> None:
    role = {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role", "metadata": {"name": "r", "namespace": "sys"}}
    binding = {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "RoleBinding", "metadata": {"name": "b", "namespace": "sys"},
               "roleRef": {"kind": "Role", "name": "missing"}}
    view = {**binding, "roleRef": {"kind": "ClusterRole", "name": "view"}}
    assert _rules(role, binding, view) == [(1, "BND005", "roleRef")]
