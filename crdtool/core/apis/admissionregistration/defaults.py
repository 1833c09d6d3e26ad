"""Defaulting of admissionregistration.k8s.io/v1.

Mirrors kubernetes/kubernetes ``pkg/apis/admissionregistration/v1/defaults.go`` (``SetDefaults_ValidatingWebhook``,
``SetDefaults_MutatingWebhook``, ``SetDefaults_Rule``, ``SetDefaults_ServiceReference``) as
``zz_generated.defaults.go`` applies them (``SetObjectDefaults_ValidatingWebhookConfiguration`` /
``SetObjectDefaults_MutatingWebhookConfiguration``), unchanged in what they set 1.30 … 1.36 (openshift/microshift
``release-4.17`` … ``release-4.23``). v1beta1 webhook configurations (whose defaults differ: ``failurePolicy``
Ignore, ``matchPolicy`` Exact, ``sideEffects`` Unknown, ``timeoutSeconds`` 30, ``admissionReviewVersions``
[v1beta1]) were removed in 1.22: no release crdtool models serves them, so they never reach a defaulter.

The admission policies' defaults (:func:`default_policy`, :func:`default_binding`: ``SetDefaults_*PolicySpec``,
``SetDefaults_MatchResources``, ``SetDefaults_Rule``) are what the admission chain and ``crdtool validate`` apply
to a policy; the create path (:func:`set_object_defaults`) applies the same to policies and bindings.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from crdtool.core.apis._util import ensure_dict

__all__ = ["default_binding", "default_policy", "set_defaults", "set_object_defaults", "set_webhook_defaults"]

_WEBHOOK_KINDS = {"ValidatingWebhookConfiguration": False, "MutatingWebhookConfiguration": True}
_POLICY_KINDS = ("ValidatingAdmissionPolicy", "MutatingAdmissionPolicy")
_BINDING_KINDS = ("ValidatingAdmissionPolicyBinding", "MutatingAdmissionPolicyBinding")


def _list(v: Any) -> list[Any]:
    """A list field (anything else: empty)."""
    return v if isinstance(v, list) else []


def _set_if_nil(obj: dict[str, Any], key: str, value: Any) -> None:
    """``if obj.X == nil { obj.X = value }`` for a pointer field (JSON null is nil too)."""
    if obj.get(key) is None:
        obj[key] = value


def set_webhook_defaults(hook: dict[str, Any], mutating: bool) -> None:
    """``SetDefaults_ValidatingWebhook`` / ``SetDefaults_MutatingWebhook`` (v1), then ``SetDefaults_ServiceReference``
    on the client configuration's service and ``SetDefaults_Rule`` on each rule. Mutates ``hook``.

    failurePolicy ``Fail``, matchPolicy ``Equivalent``, namespaceSelector and objectSelector ``{}``, timeoutSeconds
    10; a mutating webhook's reinvocationPolicy ``Never``; the service's port 443; each rule's scope ``*``.
    sideEffects and admissionReviewVersions have no v1 default (validation requires them).
    """
    _set_if_nil(hook, "failurePolicy", "Fail")
    _set_if_nil(hook, "matchPolicy", "Equivalent")
    _set_if_nil(hook, "namespaceSelector", {})
    _set_if_nil(hook, "objectSelector", {})
    _set_if_nil(hook, "timeoutSeconds", 10)
    if mutating:
        _set_if_nil(hook, "reinvocationPolicy", "Never")
    cc = hook.get("clientConfig")
    if isinstance(cc, dict) and isinstance(cc.get("service"), dict):
        _set_if_nil(cc["service"], "port", 443)
    for rule in _list(hook.get("rules")):
        if isinstance(rule, dict):
            _set_if_nil(rule, "scope", "*")


def set_defaults(obj: dict[str, Any], version: str, release: Any) -> None:
    """``SetObjectDefaults_<Kind>`` of a v1 webhook configuration: :func:`set_webhook_defaults` on each webhook;
    of an admission policy or binding (any version): :func:`default_policy` / :func:`default_binding`'s defaults.
    Other kinds and versions: nothing. Mutates ``obj``."""
    kind = str(obj.get("kind"))
    if kind in _POLICY_KINDS:
        _default_policy_spec(obj.get("spec"))
        return
    if kind in _BINDING_KINDS:
        _default_binding_spec(obj.get("spec"), version)
        return
    mutating = _WEBHOOK_KINDS.get(kind)
    if mutating is None or version != "v1":
        return
    for hook in _list(obj.get("webhooks")):
        if isinstance(hook, dict):
            ensure_dict(hook, "clientConfig")  # a struct in Go, whatever the JSON had
            set_webhook_defaults(hook, mutating)


def set_object_defaults(obj: dict[str, Any], version: str, kind: str, release: Any) -> None:
    """The create path's entry (:mod:`crdtool.core.registry.create`): :func:`set_defaults` of ``obj``
    (``kind`` is ``obj['kind']``)."""
    set_defaults(obj, version, release)


# --- admission policies and bindings -------------------------------------------------------------------------


def _default_match_resources(mr: dict[str, Any]) -> None:
    if mr.get("matchPolicy") is None:
        mr["matchPolicy"] = "Equivalent"
    if mr.get("namespaceSelector") is None:
        mr["namespaceSelector"] = {}
    if mr.get("objectSelector") is None:
        mr["objectSelector"] = {}
    for key in ("resourceRules", "excludeResourceRules"):
        for rule in mr.get(key) or []:
            if isinstance(rule, dict) and rule.get("scope") is None:
                rule["scope"] = "*"


def default_policy(policy: Mapping[str, Any], mutating: bool = False) -> dict[str, Any]:
    """The policy with its defaults (the same in v1, v1beta1 and v1alpha1): ``failurePolicy: Fail``
    (``SetDefaults_ValidatingAdmissionPolicySpec`` / ``SetDefaults_MutatingAdmissionPolicySpec``), matchConstraints'
    ``matchPolicy: Equivalent`` and empty selectors (``SetDefaults_MatchResources``), rule scope ``*``
    (``SetDefaults_Rule``). A MutatingAdmissionPolicy's ``reinvocationPolicy`` is not defaulted by any version
    (release-4.19 … release-4.23): validation requires it. ``mutating`` is kept for the callers: both kinds default
    alike. Not modified in place."""
    del mutating
    out = copy.deepcopy(dict(policy))
    _default_policy_spec(out.setdefault("spec", {}))
    return out


def default_binding(binding: Mapping[str, Any]) -> dict[str, Any]:
    """The binding with its defaults: its matchResources as a policy's matchConstraints; in v1alpha1 only, a
    paramRef's ``parameterNotFoundAction: Deny`` (v1alpha1 ``SetDefaults_ParamRef``; v1beta1 and v1 have no such
    default, and validation requires the field). Not modified in place."""
    out = copy.deepcopy(dict(binding))
    _default_binding_spec(out.setdefault("spec", {}), str(out.get("apiVersion") or "").rpartition("/")[2])
    return out


def _default_policy_spec(spec: Any) -> None:
    if isinstance(spec, dict):
        if spec.get("failurePolicy") is None:
            spec["failurePolicy"] = "Fail"
        mc = spec.get("matchConstraints")
        if isinstance(mc, dict):
            _default_match_resources(mc)


def _default_binding_spec(spec: Any, version: str) -> None:
    if not isinstance(spec, dict):
        return
    if isinstance(spec.get("matchResources"), dict):
        _default_match_resources(spec["matchResources"])
    pr = spec.get("paramRef")
    if version == "v1alpha1" and isinstance(pr, dict) and pr.get("parameterNotFoundAction") is None:
        pr["parameterNotFoundAction"] = "Deny"
