"""Checks across a bundle: what one object names that the bundle should hold (issue 29, section 4).

A CRD author ships the CRDs, their objects and the controller's objects together. Each rule below looks at
the bundle as a whole and reports, per object, what it refers to that the bundle does not have. The apiserver
accepts all of these (the referenced object may be created later, or elsewhere): they are warnings, each with
a rule id.

* ``BND001`` webhook-service: a webhook configuration's or a CRD conversion webhook's ``clientConfig.service``
  (name, namespace, port, default 443) names no Service of the bundle with that port (only when the bundle has
  Services: a folder of CRDs alone is not checked).
* ``BND002`` service-selector: a Service's ``spec.selector`` matches no pod template of the bundle (only when
  the bundle has pod templates).
* ``BND003`` rbac-resource: a Role or ClusterRole rule names a resource of a built-in group that the release
  does not serve, or of a bundle CRD's group that no CRD of the bundle serves (a plural's typo).
* ``BND004`` service-account: a workload's ``serviceAccountName`` or a binding's ServiceAccount subject names
  no ServiceAccount of the bundle (only when the bundle has ServiceAccounts).
* ``BND005`` role-ref: a binding's ``roleRef`` names a Role, or a ClusterRole other than the defaults
  (``cluster-admin``, ``admin``, ``edit``, ``view``, ``system:*``), that the bundle does not have (only when
  the bundle has Roles or ClusterRoles).

An object without ``metadata.namespace`` matches any namespace (kubectl gives it the context's).
Pure: plain dicts in, :class:`BundleFinding` records out.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from crdtool.core.builtin import catalog
from crdtool.core.releases import Release

__all__ = ["RULES", "BundleFinding", "check_bundle"]

RULES = {
    "BND001": "webhook-service", "BND002": "service-selector", "BND003": "rbac-resource",
    "BND004": "service-account", "BND005": "role-ref",
}

_WORKLOADS = {("apps", "Deployment"), ("apps", "StatefulSet"), ("apps", "DaemonSet"), ("apps", "ReplicaSet"),
              ("", "ReplicationController"), ("batch", "Job")}
_DEFAULT_CLUSTER_ROLES = {"cluster-admin", "admin", "edit", "view"}
#: Resources of built-in groups that are no kind's plural: impersonation, signers, proxy-style resources.
_EXTRA_RESOURCES = {("", "users"), ("", "groups"), ("", "userextras"), ("", "uids"),
                    ("certificates.k8s.io", "signers"), ("authentication.k8s.io", "userextras"),
                    ("authentication.k8s.io", "uids"), ("", "componentstatuses")}


@dataclass(frozen=True)
class BundleFinding:
    """One finding: ``rule`` (``BND003``), the object's ``field`` it is about, and the message."""

    rule: str
    field: str
    message: str

    def __str__(self) -> str:
        return f"[{self.rule} {RULES[self.rule]}] {self.field}: {self.message}"


def _d(v: Any) -> dict[str, Any]:
    return v if isinstance(v, dict) else {}


def _l(v: Any) -> list[Any]:
    return v if isinstance(v, list) else []


def _s(v: Any) -> str:
    return v if isinstance(v, str) else ""


def _gk(obj: dict[str, Any]) -> tuple[str, str]:
    return _s(obj.get("apiVersion")).rpartition("/")[0], _s(obj.get("kind"))


def _ns(obj: dict[str, Any]) -> str:
    return _s(_d(obj.get("metadata")).get("namespace"))


def _name(obj: dict[str, Any]) -> str:
    return _s(_d(obj.get("metadata")).get("name"))


def _same_ns(a: str, b: str) -> bool:
    return not a or not b or a == b


def _templates(obj: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """(path, pod template) of a workload or Pod."""
    gk = _gk(obj)
    spec = _d(obj.get("spec"))
    if gk in _WORKLOADS:
        return [("spec.template", _d(spec.get("template")))]
    if gk == ("batch", "CronJob"):
        return [("spec.jobTemplate.spec.template", _d(_d(_d(spec.get("jobTemplate")).get("spec")).get("template")))]
    if gk == ("", "Pod"):
        return [("", obj)]
    template = _d(spec.get("template"))
    if _d(template.get("metadata")).get("labels") and isinstance(_d(template.get("spec")).get("containers"), list):
        return [("spec.template", template)]  # a custom workload (Argo Rollout, ...) with a pod template
    return []


def check_bundle(objects: Sequence[tuple[Hashable, dict[str, Any]]], release: Release) -> dict[Hashable, list[BundleFinding]]:
    """The findings of every rule over ``objects`` (``(key, object)`` pairs), by key."""
    out: dict[Hashable, list[BundleFinding]] = {}

    def add(key: Hashable, finding: BundleFinding) -> None:
        out.setdefault(key, []).append(finding)

    objs = [(k, o) for k, o in objects if isinstance(o, dict)]
    services = [o for _, o in objs if _gk(o) == ("", "Service")]
    accounts = [o for _, o in objs if _gk(o) == ("", "ServiceAccount")]
    roles = [o for _, o in objs if _gk(o) == ("rbac.authorization.k8s.io", "Role")]
    cluster_roles = {_name(o) for _, o in objs if _gk(o) == ("rbac.authorization.k8s.io", "ClusterRole")}
    crds = [o for _, o in objs if _gk(o) == ("apiextensions.k8s.io", "CustomResourceDefinition")]
    templates = [(k, o, p, t) for k, o in objs for p, t in _templates(o)]
    builtin_resources = {(k.group, k.resource) for k in catalog.kinds(release)} | _EXTRA_RESOURCES
    builtin_groups = {g for g, _ in builtin_resources}
    crd_resources = {(_s(_d(c.get("spec")).get("group")), _s(_d(_d(c.get("spec")).get("names")).get("plural")))
                     for c in crds}
    crd_groups = {g for g, _ in crd_resources}

    def service_ok(ref: dict[str, Any], owner_ns: str) -> bool:
        name, ns = _s(ref.get("name")), _s(ref.get("namespace")) or owner_ns
        port = ref.get("port", 443)
        for svc in services:
            if _name(svc) == name and _same_ns(_ns(svc), ns):
                ports = [p.get("port") for p in _l(_d(svc.get("spec")).get("ports")) if isinstance(p, dict)]
                return port in ports
        return False

    for key, obj in objs:
        group, kind = _gk(obj)
        spec = _d(obj.get("spec"))
        if (group, kind) in (("admissionregistration.k8s.io", "ValidatingWebhookConfiguration"),
                             ("admissionregistration.k8s.io", "MutatingWebhookConfiguration")):
            for i, hook in enumerate(_l(obj.get("webhooks"))):
                ref = _d(_d(_d(hook).get("clientConfig")).get("service"))
                if ref and services and not service_ok(ref, ""):
                    add(key, BundleFinding("BND001", f"webhooks[{i}].clientConfig.service",
                                           _service_text(ref) + " is not among the bundle's Services"))
        elif (group, kind) == ("apiextensions.k8s.io", "CustomResourceDefinition"):
            ref = _d(_d(_d(_d(spec.get("conversion")).get("webhook")).get("clientConfig")).get("service"))
            if ref and services and not service_ok(ref, ""):
                add(key, BundleFinding("BND001", "spec.conversion.webhook.clientConfig.service",
                                       _service_text(ref) + " is not among the bundle's Services"))
        elif (group, kind) == ("", "Service"):
            selector = _d(spec.get("selector"))
            if selector and _s(spec.get("type")) != "ExternalName" and templates:
                ns = _ns(obj)
                if not any(_same_ns(_ns(o), ns) and all(_d(_d(t.get("metadata")).get("labels")).get(k) == v
                                                        for k, v in selector.items())
                           for _, o, _, t in templates):
                    add(key, BundleFinding("BND002", "spec.selector",
                                           f"{_selector_text(selector)} selects no pod template of the bundle"))
        elif (group, kind) in (("rbac.authorization.k8s.io", "Role"), ("rbac.authorization.k8s.io", "ClusterRole")):
            for i, rule in enumerate(_l(obj.get("rules"))):
                rule = _d(rule)
                groups = [x for x in _l(rule.get("apiGroups")) if isinstance(x, str)]
                # a rule grants every (group, resource) pair: a resource is a typo only if no group of the
                # rule has it, and only if every group is one whose resources are known here
                if not groups or any(g == "*" or (g not in builtin_groups and g not in crd_groups) for g in groups):
                    continue
                for j, r in enumerate(_l(rule.get("resources"))):
                    base = _s(r).partition("/")[0]
                    if not base or base == "*" or any((g, base) in builtin_resources or (g, base) in crd_resources
                                                      for g in groups):
                        continue
                    where = ", ".join(repr(g) for g in groups)
                    add(key, BundleFinding("BND003", f"rules[{i}].resources[{j}]",
                                           f"no group of the rule ({where}) has a resource {r!r}: not served by "
                                           "the release nor by the bundle's CRDs"))
        for path, template in _templates(obj):
            tspec = _d(template.get("spec"))
            sa = _s(tspec.get("serviceAccountName")) or _s(tspec.get("serviceAccount"))
            if sa and sa != "default" and accounts and not any(
                    _name(a) == sa and _same_ns(_ns(a), _ns(obj)) for a in accounts):
                prefix = f"{path}.spec" if path else "spec"
                add(key, BundleFinding("BND004", f"{prefix}.serviceAccountName",
                                       f"ServiceAccount {sa!r} is not among the bundle's ServiceAccounts"))
        if (group, kind) in (("rbac.authorization.k8s.io", "RoleBinding"),
                             ("rbac.authorization.k8s.io", "ClusterRoleBinding")):
            for i, subject in enumerate(_l(obj.get("subjects"))):
                subject = _d(subject)
                if _s(subject.get("kind")) == "ServiceAccount" and accounts:
                    name, ns = _s(subject.get("name")), _s(subject.get("namespace")) or _ns(obj)
                    if name != "default" and not any(_name(a) == name and _same_ns(_ns(a), ns) for a in accounts):
                        add(key, BundleFinding("BND004", f"subjects[{i}]",
                                               f"ServiceAccount {name!r} is not among the bundle's ServiceAccounts"))
            ref = _d(obj.get("roleRef"))
            ref_kind, ref_name = _s(ref.get("kind")), _s(ref.get("name"))
            if not roles and not cluster_roles:
                pass  # the bundle has no roles at all: its bindings use the cluster's
            elif ref_kind == "Role" and kind == "RoleBinding":
                if not any(_name(r) == ref_name and _same_ns(_ns(r), _ns(obj)) for r in roles):
                    add(key, BundleFinding("BND005", "roleRef", f"Role {ref_name!r} is not among the bundle's Roles"))
            elif ref_kind == "ClusterRole" and ref_name not in cluster_roles and ref_name not in _DEFAULT_CLUSTER_ROLES \
                    and not ref_name.startswith("system:"):
                add(key, BundleFinding("BND005", "roleRef",
                                       f"ClusterRole {ref_name!r} is not among the bundle's ClusterRoles"))
    return out


def _service_text(ref: dict[str, Any]) -> str:
    return f"Service {_s(ref.get('namespace')) or '<namespace>'}/{_s(ref.get('name'))} port {ref.get('port', 443)}"


def _selector_text(selector: dict[str, Any]) -> str:
    return ",".join(f"{k}={v}" for k, v in selector.items())
