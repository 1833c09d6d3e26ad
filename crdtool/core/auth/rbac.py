"""The RBAC authorizer over a set of Roles, ClusterRoles, RoleBindings and ClusterRoleBindings.

Mirrors kubernetes ``plugin/pkg/auth/authorizer/rbac/rbac.go`` (``RBACAuthorizer.Authorize``, the
``authorizingVisitor``, ``RuleAllows``), ``pkg/registry/rbac/validation/rule.go`` (``DefaultRuleResolver``:
``VisitRulesFor``, ``GetRoleReferenceRules``, ``appliesTo``/``appliesToUser``, the binding describers behind the
``RBAC: allowed by …`` reasons), ``pkg/apis/rbac/v1/evaluation_helpers.go`` (``VerbMatches``, ``APIGroupMatches``,
``ResourceMatches`` with ``*/subresource``, ``ResourceNameMatches``, ``NonResourceURLMatches`` with a ``*``
suffix), k8s.io/apiserver ``pkg/authentication/serviceaccount/util.go`` (``MatchesUsername``) and
``pkg/controller/clusterroleaggregation/clusterroleaggregation_controller.go`` (``syncClusterRole``: an
aggregated ClusterRole's rules are its selected ClusterRoles' rules, by name, without duplicates), as vendored by
openshift/microshift release-4.17 … release-4.23 (Kubernetes 1.30 … 1.36: the same behaviour; 1.31 only threads
a ``context.Context`` through). 1.37 is taken to be 1.36.

The objects are plain ``rbac.authorization.k8s.io/v1`` dicts. The informers' listers answer a missing role with
``role.rbac.authorization.k8s.io "<name>" not found`` (``clusterrole…`` for a ClusterRole); their list order is
a map's (unspecified), here the objects' order: ClusterRoleBindings, then RoleBindings, each sorted by
namespace and name, so which binding a reason names does not depend on the order of the files.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from crdtool.core.errors import go_quote
from crdtool.core.label_selector import LabelSelectorError
from crdtool.core.label_selector import matches as selector_matches

__all__ = [
    "ALLOW", "NO_OPINION", "RBACAuthorizer", "RuleSet", "aggregate_cluster_roles", "applies_to", "rule_allows",
]

ALLOW, NO_OPINION = "Allow", "NoOpinion"

#: ``serviceaccount.ServiceAccountUsernamePrefix``, ``ServiceAccountUsernameSeparator``.
_SA_PREFIX = "system:serviceaccount:"
_SA_SEPARATOR = ":"


def _strings(rule: Mapping[str, Any], key: str) -> list[str]:
    return [str(x) for x in rule.get(key) or []]


# --- evaluation_helpers.go ---------------------------------------------------------------------------------


def verb_matches(rule: Mapping[str, Any], verb: str) -> bool:
    """``VerbMatches``."""
    return any(v == "*" or v == verb for v in _strings(rule, "verbs"))


def api_group_matches(rule: Mapping[str, Any], group: str) -> bool:
    """``APIGroupMatches``."""
    return any(g == "*" or g == group for g in _strings(rule, "apiGroups"))


def resource_matches(rule: Mapping[str, Any], combined: str, subresource: str) -> bool:
    """``ResourceMatches``: ``*``, the exact ``resource[/subresource]``, or ``*/<subresource>``."""
    for r in _strings(rule, "resources"):
        if r == "*" or r == combined:
            return True
        if not subresource:
            continue
        if len(r) == len(subresource) + 2 and r.startswith("*/") and r.endswith(subresource):
            return True
    return False


def resource_name_matches(rule: Mapping[str, Any], name: str) -> bool:
    """``ResourceNameMatches``: no names means any name."""
    names = _strings(rule, "resourceNames")
    return not names or name in names


def non_resource_url_matches(rule: Mapping[str, Any], url: str) -> bool:
    """``NonResourceURLMatches``: ``*``, the exact path, or a prefix ending in ``*``."""
    for u in _strings(rule, "nonResourceURLs"):
        if u == "*" or u == url:
            return True
        if u.endswith("*") and url.startswith(u.rstrip("*")):
            return True
    return False


def rule_allows(attributes: Mapping[str, Any], rule: Mapping[str, Any]) -> bool:
    """``RuleAllows`` (rbac.go): whether one PolicyRule allows the request.

    ``attributes``: ``authorizer.AttributesRecord`` as a dict (``resourceRequest``, ``verb``, ``apiGroup``,
    ``resource``, ``subresource``, ``name``, ``path``)."""
    verb = str(attributes.get("verb") or "")
    if attributes.get("resourceRequest"):
        resource = str(attributes.get("resource") or "")
        sub = str(attributes.get("subresource") or "")
        combined = f"{resource}/{sub}" if sub else resource
        return (verb_matches(rule, verb) and api_group_matches(rule, str(attributes.get("apiGroup") or ""))
                and resource_matches(rule, combined, sub)
                and resource_name_matches(rule, str(attributes.get("name") or "")))
    return verb_matches(rule, verb) and non_resource_url_matches(rule, str(attributes.get("path") or ""))


# --- rule.go: subjects ----------------------------------------------------------------------------------------


def _matches_sa_username(namespace: str, name: str, username: str) -> bool:
    """``serviceaccount.MatchesUsername``."""
    if not username.startswith(_SA_PREFIX):
        return False
    rest = username[len(_SA_PREFIX):]
    if not rest.startswith(namespace):
        return False
    rest = rest[len(namespace):]
    if not rest.startswith(_SA_SEPARATOR):
        return False
    return rest[len(_SA_SEPARATOR):] == name


def _applies_to_user(user: Mapping[str, Any], subject: Mapping[str, Any], namespace: str) -> bool:
    """``appliesToUser``."""
    kind = subject.get("kind")
    name = str(subject.get("name") or "")
    if kind == "User":
        return str(user.get("username") or "") == name
    if kind == "Group":
        return name in [str(g) for g in user.get("groups") or []]
    if kind == "ServiceAccount":
        sa_namespace = str(subject.get("namespace") or "") or namespace
        if not sa_namespace:
            return False
        return _matches_sa_username(sa_namespace, name, str(user.get("username") or ""))
    return False


def applies_to(user: Mapping[str, Any], subjects: list[Mapping[str, Any]], namespace: str) -> tuple[int, bool]:
    """``appliesTo``: (index of the first subject that is the user, whether one is); (0, False) when none.

    ``user``: ``user.Info`` as a dict (``username``, ``groups``); ``namespace``: the binding's ("" for a
    ClusterRoleBinding), the namespace a ServiceAccount subject without one is in."""
    for i, s in enumerate(subjects):
        if _applies_to_user(user, s, namespace):
            return i, True
    return 0, False


def _describe_subject(s: Mapping[str, Any], binding_namespace: str) -> str:
    """``describeSubject``: ``User "x"``, ``Group "x"``, ``ServiceAccount "name/namespace"``."""
    kind = str(s.get("kind") or "")
    name = str(s.get("name") or "")
    if kind == "ServiceAccount":
        ns = str(s.get("namespace") or "") or binding_namespace
        return f"{kind} {go_quote(name + '/' + ns)}"
    return f"{kind} {go_quote(name)}"


def _meta(obj: Mapping[str, Any]) -> Mapping[str, Any]:
    m = obj.get("metadata")
    return m if isinstance(m, Mapping) else {}


def _describe_binding(binding: Mapping[str, Any], subject: Mapping[str, Any]) -> str:
    """``clusterRoleBindingDescriber.String`` / ``roleBindingDescriber.String``."""
    ref = binding.get("roleRef") or {}
    name = str(_meta(binding).get("name") or "")
    ns = str(_meta(binding).get("namespace") or "")
    kind, ref_name = str(ref.get("kind") or ""), str(ref.get("name") or "")
    if binding.get("kind") == "RoleBinding":
        return (f"RoleBinding {go_quote(name + '/' + ns)} of {kind} {go_quote(ref_name)} to "
                f"{_describe_subject(subject, ns)}")
    return f"ClusterRoleBinding {go_quote(name)} of {kind} {go_quote(ref_name)} to {_describe_subject(subject, '')}"


# --- the rule set (the informers' caches) --------------------------------------------------------------------


def _rule_key(rule: Mapping[str, Any]) -> tuple[tuple[str, ...], ...]:
    """A PolicyRule for ``equality.Semantic.DeepEqual`` (nil and empty lists alike)."""
    return tuple(tuple(_strings(rule, k)) for k in ("verbs", "apiGroups", "resources", "resourceNames",
                                                      "nonResourceURLs"))


def aggregate_cluster_roles(cluster_roles: list[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The ClusterRoles after the aggregation controller has settled (``syncClusterRole`` until nothing changes).

    A ClusterRole with an ``aggregationRule`` gets, selector by selector, the rules of the other ClusterRoles its
    selector matches, sorted by name, each rule once (``ruleExists``); its own rules are replaced. A selector the
    controller cannot convert leaves the role as it is (the sync fails and is retried). Out: copies, in order.
    """
    roles = [dict(r) for r in cluster_roles]
    # chains of aggregation (admin <- edit <- view) settle in at most len(roles) rounds
    for _ in range(len(roles) + 1):
        changed = False
        by_name = sorted(roles, key=lambda r: str(_meta(r).get("name") or ""))
        for role in roles:
            rule = role.get("aggregationRule")
            if not isinstance(rule, Mapping):
                continue
            name = _meta(role).get("name")
            new_rules: list[Any] = []
            keys: set[tuple[tuple[str, ...], ...]] = set()
            try:
                for selector in rule.get("clusterRoleSelectors") or []:
                    for other in by_name:
                        if _meta(other).get("name") == name:
                            continue
                        if not selector_matches(selector, _meta(other).get("labels") or {}):
                            continue
                        for r in other.get("rules") or []:
                            if _rule_key(r) not in keys:
                                keys.add(_rule_key(r))
                                new_rules.append(r)
            except LabelSelectorError:
                continue
            if [_rule_key(r) for r in new_rules] != [_rule_key(r) for r in role.get("rules") or []]:
                role["rules"] = new_rules
                changed = True
        if not changed:
            break
    return roles


def _sorted(objs: list[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    return sorted(objs, key=lambda o: (str(_meta(o).get("namespace") or ""), str(_meta(o).get("name") or "")))


@dataclass
class RuleSet:
    """What the RBAC informers hold: the four kinds of objects, ClusterRoles aggregated.

    Build with :meth:`from_objects`.
    """

    roles: dict[tuple[str, str], Mapping[str, Any]] = field(default_factory=dict)
    cluster_roles: dict[str, Mapping[str, Any]] = field(default_factory=dict)
    role_bindings: dict[str, list[Mapping[str, Any]]] = field(default_factory=dict)
    cluster_role_bindings: list[Mapping[str, Any]] = field(default_factory=list)

    @classmethod
    def from_objects(cls, objects: Sequence[Mapping[str, Any]]) -> RuleSet:
        """The ``rbac.authorization.k8s.io/v1`` objects among ``objects`` (others are ignored); a later object of
        the same kind, namespace and name replaces an earlier one."""
        roles: dict[tuple[str, str], Mapping[str, Any]] = {}
        cluster_roles: dict[str, Mapping[str, Any]] = {}
        role_bindings: dict[tuple[str, str], Mapping[str, Any]] = {}
        cluster_role_bindings: dict[str, Mapping[str, Any]] = {}
        for obj in objects:
            if not isinstance(obj, Mapping):
                continue
            if str(obj.get("apiVersion") or "").rpartition("/")[0] != "rbac.authorization.k8s.io":
                continue
            kind = obj.get("kind")
            name = str(_meta(obj).get("name") or "")
            ns = str(_meta(obj).get("namespace") or "")
            if kind == "Role":
                roles[(ns, name)] = obj
            elif kind == "ClusterRole":
                cluster_roles[name] = obj
            elif kind == "RoleBinding":
                role_bindings[(ns, name)] = obj
            elif kind == "ClusterRoleBinding":
                cluster_role_bindings[name] = obj
        aggregated = aggregate_cluster_roles(list(cluster_roles.values()))
        out = cls(roles, {str(_meta(r).get("name") or ""): r for r in aggregated})
        for rb in _sorted(list(role_bindings.values())):
            out.role_bindings.setdefault(str(_meta(rb).get("namespace") or ""), []).append(rb)
        out.cluster_role_bindings = _sorted(list(cluster_role_bindings.values()))
        return out

    def role_reference_rules(self, role_ref: Mapping[str, Any], binding_namespace: str) -> tuple[list[Any], str]:
        """``GetRoleReferenceRules``: (rules, error text or "")."""
        kind = str(role_ref.get("kind") or "")
        name = str(role_ref.get("name") or "")
        if kind == "Role":
            role = self.roles.get((binding_namespace, name))
            if role is None:
                return [], f"role.rbac.authorization.k8s.io {go_quote(name)} not found"
            return list(role.get("rules") or []), ""
        if kind == "ClusterRole":
            cluster_role = self.cluster_roles.get(name)
            if cluster_role is None:
                return [], f"clusterrole.rbac.authorization.k8s.io {go_quote(name)} not found"
            return list(cluster_role.get("rules") or []), ""
        return [], f"unsupported role reference kind: {go_quote(kind)}"

    def visit_rules_for(self, user: Mapping[str, Any], namespace: str) -> Iterator[tuple[str, Any, str]]:
        """``VisitRulesFor``: (source description, rule, "") per rule that applies to ``user`` in ``namespace``,
        and ("", None, error) per role reference that does not resolve; ClusterRoleBindings first."""
        for crb in self.cluster_role_bindings:
            subjects = list(crb.get("subjects") or [])
            index, ok = applies_to(user, subjects, "")
            if not ok:
                continue
            rules, err = self.role_reference_rules(crb.get("roleRef") or {}, "")
            if err:
                yield "", None, err
                continue
            source = _describe_binding(crb, subjects[index])
            for r in rules:
                yield source, r, ""
        if not namespace:
            return
        for rb in self.role_bindings.get(namespace, []):
            subjects = list(rb.get("subjects") or [])
            index, ok = applies_to(user, subjects, namespace)
            if not ok:
                continue
            rules, err = self.role_reference_rules(rb.get("roleRef") or {}, namespace)
            if err:
                yield "", None, err
                continue
            source = _describe_binding(rb, subjects[index])
            for r in rules:
                yield source, r, ""


def _aggregate(errors: list[str]) -> str:
    """``utilerrors.NewAggregate(errs).Error()``: one message, or ``[a, b]`` without repeats."""
    seen = list(dict.fromkeys(errors))
    return seen[0] if len(seen) == 1 else "[" + ", ".join(seen) + "]"


@dataclass
class RBACAuthorizer:
    """``RBACAuthorizer`` over a :class:`RuleSet`."""

    rules: RuleSet

    def authorize(self, attributes: Mapping[str, Any]) -> tuple[str, str, str | None]:
        """``RBACAuthorizer.Authorize``: ``("Allow", "RBAC: allowed by <binding>", None)`` for the first rule that
        allows the request, else ``("NoOpinion", reason, None)``, the reason ``""`` or ``RBAC: <the role
        references that did not resolve>``. RBAC never denies and never errs."""
        user = attributes.get("user") or {}
        errors: list[str] = []
        for source, rule, err in self.rules.visit_rules_for(user, str(attributes.get("namespace") or "")):
            if rule is not None and rule_allows(attributes, rule):
                return ALLOW, f"RBAC: allowed by {source}", None
            if err:
                errors.append(err)
        reason = f"RBAC: {_aggregate(errors)}" if errors else ""
        return NO_OPINION, reason, None
