"""Whether a policy or binding matches a request: ``k8s.io/apiserver`` ``pkg/admission/plugin/policy/matching``
(``matching.go``: ``Matcher.Matches``, ``matchesResourceRules``) over the webhook predicates
``pkg/admission/plugin/webhook/predicates/{namespace,object,rules}`` (v0.30.0 … v0.37.0-beta.0, the same
rules at every tag).

A :class:`Resources` answers what the apiserver's REST mapper would: the namespace's labels (None when
the namespace does not exist), the equivalent resources of a resource (the other served versions of a CRD)
and the kind served at a resource.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from crdtool.core.admission.attributes import GVK, GVR, Attributes
from crdtool.core.label_selector import LabelSelectorError, is_empty, matches

__all__ = ["MatchError", "Resources", "matches_criteria", "rule_matches"]

_NAMESPACES: GVR = ("", "v1", "namespaces")


class MatchError(Exception):
    """A matcher's error: ``message`` is what ``err.Error()`` reads; ``reason``/``code`` its status."""

    def __init__(self, message: str, reason: str = "InternalError", code: int = 500) -> None:
        super().__init__(message)
        self.reason = reason
        self.code = code


@dataclass(frozen=True)
class Resources:
    """What matching asks the cluster: ``namespace_labels(name)`` (None: not found), ``equivalents(gvr,
    subresource)`` and ``kind_for(gvr, subresource)`` (``EquivalentResourceMapper``)."""

    namespace_labels: Callable[[str], Mapping[str, Any] | None]
    equivalents: Callable[[GVR, str], list[GVR]] = lambda gvr, sub: [gvr]
    kind_for: Callable[[GVR, str], GVK | None] = lambda gvr, sub: None


def _exact_or_wildcard(items: list[Any] | None, requested: str) -> bool:
    return any(item == "*" or item == requested for item in items or [])


def rule_matches(rule: Mapping[str, Any], attr: Attributes, resource: GVR | None = None) -> bool:
    """``rules.Matcher.Matches``: scope, operation, group, version and resource/subresource."""
    res = resource or attr.resource
    scope = rule.get("scope")
    if scope not in (None, "*"):
        is_ns = res == _NAMESPACES
        if scope == "Namespaced":
            if is_ns or not attr.namespace:
                return False
        elif scope == "Cluster":
            if not (is_ns or not attr.namespace):
                return False
        else:
            return False
    ops = rule.get("operations") or []
    if not any(op == "*" or op == attr.operation for op in ops):
        return False
    if not _exact_or_wildcard(rule.get("apiGroups"), res[0]):
        return False
    if not _exact_or_wildcard(rule.get("apiVersions"), res[1]):
        return False
    for item in rule.get("resources") or []:
        r, _, sub = str(item).partition("/")
        if (r == "*" or r == res[2]) and (sub == "*" or sub == attr.subresource):
            return True
    return False


def _labels_of(obj: Mapping[str, Any] | None) -> Mapping[str, Any] | None:
    if not isinstance(obj, Mapping):
        return None
    meta = obj.get("metadata")
    return (meta.get("labels") or {}) if isinstance(meta, Mapping) else {}


def _match_namespace_selector(selector: Mapping[str, Any] | None, attr: Attributes, res: Resources) -> bool:
    """``namespace.Matcher.MatchNamespaceSelector`` (raises :class:`MatchError` for a missing namespace)."""
    if not attr.namespace and attr.resource[2] != "namespaces":
        return True
    sel = selector if selector is not None else {}
    if is_empty(sel):
        return True
    if attr.resource[2] == "namespaces" and not attr.subresource and attr.operation in ("CREATE", "UPDATE"):
        labels = _labels_of(attr.object) or {}
    else:
        found = res.namespace_labels(attr.namespace)
        if found is None:
            raise MatchError(f'namespaces "{attr.namespace}" not found', "NotFound", 404)
        labels = found
    try:
        return matches(sel, labels)
    except LabelSelectorError as exc:
        raise MatchError(str(exc)) from None


def _match_object_selector(selector: Mapping[str, Any] | None, attr: Attributes) -> bool:
    """``object.Matcher.MatchObjectSelector``."""
    sel = selector if selector is not None else {}
    if is_empty(sel):
        return True
    try:
        return any(matches(sel, labels) for labels in (_labels_of(attr.object), _labels_of(attr.old_object))
                   if labels is not None)
    except LabelSelectorError as exc:
        raise MatchError(str(exc)) from None


def _matches_resource_rules(rules: list[Any], match_policy: str | None, attr: Attributes,
                            res: Resources) -> tuple[bool, GVR, GVK]:
    """``matchesResourceRules``."""
    for rule in rules:
        if not isinstance(rule, Mapping) or not rule_matches(rule, attr):
            continue
        names = rule.get("resourceNames") or []
        if not names or attr.name in names:
            return True, attr.resource, attr.kind
    if match_policy in (None, "Exact"):
        return False, ("", "", ""), ("", "", "")
    equivalents = res.equivalents(attr.resource, attr.subresource)
    for rule in rules:
        if not isinstance(rule, Mapping):
            continue
        for eq in equivalents:
            if eq == attr.resource or not rule_matches(rule, attr, eq):
                continue
            kind = res.kind_for(eq, attr.subresource)
            if kind is None:
                raise MatchError(f"unable to convert to {_gvr_string(eq)}: unknown kind")
            names = rule.get("resourceNames") or []
            if not names or attr.name in names:
                return True, eq, kind
    return False, ("", "", ""), ("", "", "")


def _gvr_string(gvr: GVR) -> str:
    """``schema.GroupVersionResource.String()``."""
    return f"{gvr[0]}/{gvr[1]}, Resource={gvr[2]}" if gvr[0] else f"{gvr[1]}, Resource={gvr[2]}"


def matches_criteria(match: Mapping[str, Any] | None, attr: Attributes, res: Resources) -> tuple[bool, GVR, GVK]:
    """``Matcher.Matches`` for a policy's ``matchConstraints`` or a binding's ``matchResources`` (defaulted).

    Returns (matches, the matched resource, the matched kind). Raises :class:`MatchError` as upstream
    returns an error (a missing namespace, a bad selector): a configuration error of the policy/binding.
    """
    match = match or {}
    ns_err: MatchError | None = None
    obj_err: MatchError | None = None
    try:
        ns_ok = _match_namespace_selector(match.get("namespaceSelector"), attr, res)
    except MatchError as exc:
        ns_ok, ns_err = False, exc
    if not ns_ok and ns_err is None:
        return False, ("", "", ""), ("", "", "")
    try:
        obj_ok = _match_object_selector(match.get("objectSelector"), attr)
    except MatchError as exc:
        obj_ok, obj_err = False, exc
    if not obj_ok and obj_err is None:
        return False, ("", "", ""), ("", "", "")
    policy = match.get("matchPolicy")
    excluded, _, _ = _matches_resource_rules(list(match.get("excludeResourceRules") or []), policy, attr, res)
    if excluded:
        return False, ("", "", ""), ("", "", "")
    rules = list(match.get("resourceRules") or [])
    if not rules:
        ok, gvr, gvk = True, attr.resource, attr.kind
    else:
        ok, gvr, gvk = _matches_resource_rules(rules, policy, attr, res)
    if not ok:
        return False, ("", "", ""), ("", "", "")
    if ns_err is not None:
        raise ns_err
    if obj_err is not None:
        raise obj_err
    return True, gvr, gvk
