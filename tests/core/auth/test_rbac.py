"""The RBAC authorizer, the bootstrap policy and the authorizer chain.

Ported from kubernetes @ openshift/microshift release-4.22 (Kubernetes 1.35,
``deps/github.com/openshift/kubernetes``): ``plugin/pkg/auth/authorizer/rbac/rbac_test.go`` (``TestAuthorizer``,
``TestRuleMatches``: every case), ``pkg/registry/rbac/validation/rule_test.go`` (``TestAppliesTo``: every case),
``pkg/controller/clusterroleaggregation/clusterroleaggregation_controller_test.go`` (``TestSyncClusterRole``).
The reason strings are rbac.go's ``RBAC: allowed by %s`` over rule.go's describers, the errors the informers'
listers' ``NewNotFound`` texts, the superuser reason ``privilegedGroupAuthorizer``'s empty one (builtin.go).
"""

from __future__ import annotations

from typing import Any

import pytest

from crdtool.core.auth.authorizer import ClusterAuthorizer, union
from crdtool.core.auth.rbac import RBACAuthorizer, RuleSet, aggregate_cluster_roles, applies_to, rule_allows

RBAC = "rbac.authorization.k8s.io/v1"


def _rule(verbs: str, groups: str, resources: str, urls: str) -> dict[str, Any]:
    """rbac_test.go ``newRule``: comma-separated lists (an empty string is a list of one empty string)."""
    return {"verbs": verbs.split(","), "apiGroups": groups.split(","), "resources": resources.split(","),
            "nonResourceURLs": urls.split(",")}


def _cluster_role(name: str, *rules: dict[str, Any], labels: dict[str, str] | None = None,
                  selectors: list[dict[str, str]] | None = None) -> dict[str, Any]:
    role: dict[str, Any] = {"apiVersion": RBAC, "kind": "ClusterRole", "metadata": {"name": name}, "rules": list(rules)}
    if labels is not None:
        role["metadata"]["labels"] = labels
    if selectors is not None:
        role["aggregationRule"] = {"clusterRoleSelectors": [{"matchLabels": s} for s in selectors]}
    return role


def _subjects(subjects: tuple[str, ...]) -> list[dict[str, Any]]:
    out = []
    for s in subjects:
        kind, name = s.split(":", 1)
        out.append({"kind": kind, "name": name, **({} if kind == "ServiceAccount" else {"apiGroup": "rbac.authorization.k8s.io"})})
    return out


def _crb(role: str, *subjects: str, name: str = "") -> dict[str, Any]:
    return {"apiVersion": RBAC, "kind": "ClusterRoleBinding", "metadata": {"name": name},
            "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": role},
            "subjects": _subjects(subjects)}


def _rb(namespace: str, role: str, kind: str, *subjects: str, name: str = "") -> dict[str, Any]:
    return {"apiVersion": RBAC, "kind": "RoleBinding", "metadata": {"name": name, "namespace": namespace},
            "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": kind, "name": role},
            "subjects": _subjects(subjects)}


def _attrs(user: str, groups: str, verb: str, resource: str, subresource: str, namespace: str,
           group: str) -> dict[str, Any]:
    """rbac_test.go ``defaultAttributes``: a resource request, groups split on commas."""
    return {"user": {"username": user, "groups": groups.split(",")}, "verb": verb, "resource": resource,
            "subresource": subresource, "namespace": namespace, "apiGroup": group, "resourceRequest": True}


def _path(verb: str, path: str, name: str = "", groups: tuple[str, ...] = ()) -> dict[str, Any]:
    return {"user": {"username": name, "groups": list(groups)}, "verb": verb, "path": path}


# TestAuthorizer: (objects, should pass, should fail)
AUTHORIZER_CASES: list[tuple[list[dict[str, Any]], list[dict[str, Any]], list[dict[str, Any]]]] = [
    (
        [_cluster_role("admin", _rule("*", "*", "*", "*")), _rb("ns1", "admin", "ClusterRole", "User:admin", "Group:admins")],
        [_attrs("admin", "", "get", "Pods", "", "ns1", ""), _attrs("admin", "", "watch", "Pods", "", "ns1", ""),
         _attrs("admin", "group1", "watch", "Foobar", "", "ns1", ""), _attrs("joe", "admins", "watch", "Foobar", "", "ns1", ""),
         _attrs("joe", "group1,admins", "watch", "Foobar", "", "ns1", "")],
        [_attrs("admin", "", "GET", "Pods", "", "ns2", ""), _attrs("admin", "", "GET", "Nodes", "", "", ""),
         _attrs("admin", "admins", "GET", "Pods", "", "ns2", ""), _attrs("admin", "admins", "GET", "Nodes", "", "", "")],
    ),
    (
        [_cluster_role("non-resource-url-getter", _rule("get", "", "", "/apis")),
         _cluster_role("non-resource-url", _rule("*", "", "", "/apis")),
         _cluster_role("non-resource-url-prefix", _rule("get", "", "", "/apis/*")),
         _crb("non-resource-url-getter", "User:foo", "Group:bar", name="a"),
         _crb("non-resource-url", "User:admin", "Group:admin", name="b"),
         _crb("non-resource-url-prefix", "User:prefixed", "Group:prefixed", name="c")],
        [_path("get", "/apis", "foo"), _path("get", "/apis", groups=("bar",)), _path("get", "/apis", "admin"),
         _path("get", "/apis", groups=("admin",)), _path("watch", "/apis", "admin"),
         _path("watch", "/apis", groups=("admin",)), _path("get", "/apis/v1", "prefixed"),
         _path("get", "/apis/v1", groups=("prefixed",)), _path("get", "/apis/v1/foobar", "prefixed"),
         _path("get", "/apis/v1/foorbar", groups=("prefixed",))],
        [_path("watch", "/apis", "foo"), _path("watch", "/apis", groups=("bar",)), _path("get", "/api/v1", "foo"),
         _path("get", "/api/v1", groups=("bar",)), _path("get", "/api/v1", "admin"),
         _path("get", "/api/v1", groups=("admin",)), _path("get", "/api/v1", "prefixed"),
         _path("get", "/api/v1", groups=("prefixed",))],
    ),
    (
        [_cluster_role("admin", _rule("*", "*", "pods", "*")), _rb("ns1", "admin", "ClusterRole", "User:admin", "Group:admins")],
        [_attrs("admin", "", "get", "pods", "", "ns1", "")],
        [_attrs("admin", "", "get", "pods", "status", "ns1", "")],
    ),
    (
        [_cluster_role("admin", _rule("*", "*", "pods/status", "*"), _rule("*", "*", "*/scale", "*")),
         _rb("ns1", "admin", "ClusterRole", "User:admin", "Group:admins")],
        [_attrs("admin", "", "get", "pods", "status", "ns1", ""), _attrs("admin", "", "get", "pods", "scale", "ns1", ""),
         _attrs("admin", "", "get", "deployments", "scale", "ns1", ""),
         _attrs("admin", "", "get", "anything", "scale", "ns1", "")],
        [_attrs("admin", "", "get", "pods", "", "ns1", "")],
    ),
]


@pytest.mark.parametrize("case", range(len(AUTHORIZER_CASES)))
def test_authorizer(case: int) -> None:
    objects, should_pass, should_fail = AUTHORIZER_CASES[case]
    authz = RBACAuthorizer(RuleSet.from_objects(objects))
    for attrs in should_pass:
        assert authz.authorize(attrs)[0] == "Allow", attrs
    for attrs in should_fail:
        assert authz.authorize(attrs)[0] != "Allow", attrs


def _req(verb: str, group: str = "", resource: str = "", subresource: str = "") -> dict[str, Any]:
    return {"resourceRequest": True, "verb": verb, "apiGroup": group, "resource": resource, "subresource": subresource}


def _url(verb: str, url: str) -> dict[str, Any]:
    return {"resourceRequest": False, "verb": verb, "path": url}


_R = [("verb1", "group1", "resource1"), ("verb1", "group2", "resource1"), ("verb1", "group1", "resource2"),
      ("verb1", "group2", "resource2"), ("verb2", "group1", "resource1"), ("verb2", "group2", "resource1"),
      ("verb2", "group1", "resource2"), ("verb2", "group2", "resource2")]
_URLS = ["/foo", "/foo/bar", "/foo/baz", "/foo/bar/one", "/foo/baz/one"]
_NOTFOO = ["/notfoo", "/notfoo/bar", "/notfoo/baz", "/notfoo/bar/one", "/notfoo/baz/one"]

# TestRuleMatches: (name, rule, [(request, expected)])
RULE_CASES: list[tuple[str, dict[str, Any], list[tuple[dict[str, Any], bool]]]] = [
    ("star verb, exact match other", {"verbs": ["*"], "apiGroups": ["group1"], "resources": ["resource1"]},
     list(zip([_req(*r) for r in _R], [True, False, False, False, True, False, False, False]))),
    ("star group, exact match other", {"verbs": ["verb1"], "apiGroups": ["*"], "resources": ["resource1"]},
     list(zip([_req(*r) for r in _R], [True, True, False, False, False, False, False, False]))),
    ("star resource, exact match other", {"verbs": ["verb1"], "apiGroups": ["group1"], "resources": ["*"]},
     list(zip([_req(*r) for r in _R], [True, False, True, False, False, False, False, False]))),
    ("tuple expansion", {"verbs": ["verb1", "verb2"], "apiGroups": ["group1", "group2"],
                         "resources": ["resource1", "resource2"]},
     [(_req(*r), True) for r in _R]),
    ("subresource expansion", {"verbs": ["*"], "apiGroups": ["*"], "resources": ["resource1/subresource1"]},
     list(zip([_req("verb1", "group1", "resource1", "subresource1"), _req("verb1", "group2", "resource1", "subresource2"),
               _req("verb1", "group1", "resource2", "subresource1"), _req("verb1", "group2", "resource2", "subresource1"),
               _req("verb2", "group1", "resource1", "subresource1"), _req("verb2", "group2", "resource1", "subresource2"),
               _req("verb2", "group1", "resource2", "subresource1"), _req("verb2", "group2", "resource2", "subresource1")],
              [True, False, False, False, True, False, False, False]))),
    ("star nonresource, exact match other", {"verbs": ["verb1"], "nonResourceURLs": ["*"]},
     [(_url("verb1", u), True) for u in _URLS] + [(_url("verb2", u), False) for u in _URLS]),
    ("star nonresource subpath", {"verbs": ["verb1"], "nonResourceURLs": ["/foo/*"]},
     list(zip([_url("verb1", u) for u in _URLS], [False, True, True, True, True]))
     + [(_url("verb1", u), False) for u in _NOTFOO]),
    ("star verb, exact nonresource", {"verbs": ["*"], "nonResourceURLs": ["/foo", "/foo/bar/one"]},
     list(zip([_url("verb1", u) for u in _URLS] + [_url("verb2", u) for u in _URLS],
              [True, False, False, True, False] * 2))),
]


@pytest.mark.parametrize("name,rule,requests", RULE_CASES, ids=[c[0] for c in RULE_CASES])
def test_rule_matches(name: str, rule: dict[str, Any], requests: list[tuple[dict[str, Any], bool]]) -> None:
    for request, expected in requests:
        assert rule_allows(request, rule) is expected, request


# TestAppliesTo: (subjects, user, namespace, applies, index)
APPLIES_CASES = [
    ([{"kind": "User", "name": "foobar"}], {"username": "foobar"}, "", True, 0),
    ([{"kind": "User", "name": "barfoo"}, {"kind": "User", "name": "foobar"}], {"username": "foobar"}, "", True, 1),
    ([{"kind": "User", "name": "barfoo"}, {"kind": "User", "name": "foobar"}], {"username": "zimzam"}, "", False, 0),
    ([{"kind": "User", "name": "barfoo"}, {"kind": "Group", "name": "foobar"}],
     {"username": "zimzam", "groups": ["foobar"]}, "", True, 1),
    ([{"kind": "User", "name": "barfoo"}, {"kind": "Group", "name": "foobar"}],
     {"username": "zimzam", "groups": ["foobar"]}, "namespace1", True, 1),
    ([{"kind": "User", "name": "barfoo"}, {"kind": "Group", "name": "foobar"},
      {"kind": "ServiceAccount", "namespace": "kube-system", "name": "default"}],
     {"username": "system:serviceaccount:kube-system:default"}, "default", True, 2),
    ([{"kind": "User", "name": "*"}], {"username": "foobar"}, "default", False, 0),
    ([{"kind": "Group", "name": "system:authenticated"}, {"kind": "Group", "name": "system:unauthenticated"}],
     {"username": "foobar", "groups": ["system:authenticated"]}, "default", True, 0),
    ([{"kind": "Group", "name": "system:authenticated"}, {"kind": "Group", "name": "system:unauthenticated"}],
     {"username": "system:anonymous", "groups": ["system:unauthenticated"]}, "default", True, 1),
]


@pytest.mark.parametrize("subjects,user,namespace,applies,index", APPLIES_CASES)
def test_applies_to(subjects: list[dict[str, Any]], user: dict[str, Any], namespace: str, applies: bool,
                    index: int) -> None:
    assert applies_to(user, subjects, namespace) == (index, applies)


def test_service_account_subject_defaults_to_the_binding_namespace() -> None:
    # appliesToUser: a ServiceAccount subject without a namespace is in the RoleBinding's; a ClusterRoleBinding's
    # has none, so it applies to nobody
    sa = [{"kind": "ServiceAccount", "name": "builder"}]
    user = {"username": "system:serviceaccount:ci:builder"}
    assert applies_to(user, sa, "ci") == (0, True)
    assert applies_to(user, sa, "") == (0, False)
    assert applies_to({"username": "system:serviceaccount:ci-x:builder"}, sa, "ci") == (0, False)


def test_reasons_name_the_binding_role_and_subject() -> None:
    objects = [
        {"apiVersion": RBAC, "kind": "Role", "metadata": {"name": "deployer", "namespace": "ns1"},
         "rules": [{"verbs": ["create"], "apiGroups": ["apps"], "resources": ["deployments"]}]},
        _rb("ns1", "deployer", "Role", "ServiceAccount:ci", name="ci-deploys"),
        _cluster_role("reader", {"verbs": ["get"], "apiGroups": [""], "resources": ["pods"]}),
        _crb("reader", "Group:readers", name="readers"),
        _crb("missing", "Group:readers", name="broken"),
        _rb("ns1", "gone", "Role", "Group:readers", name="broken-too"),
    ]
    authz = RBACAuthorizer(RuleSet.from_objects(objects))
    sa = {"username": "system:serviceaccount:ns1:ci", "groups": ["system:serviceaccounts"]}
    create = {"user": sa, "verb": "create", "resourceRequest": True, "apiGroup": "apps", "resource": "deployments",
              "namespace": "ns1"}
    # roleBindingDescriber: name/namespace; describeSubject: a ServiceAccount as name/namespace
    assert authz.authorize(create) == (
        "Allow", 'RBAC: allowed by RoleBinding "ci-deploys/ns1" of Role "deployer" to ServiceAccount "ci/ns1"', None)
    get = {"user": {"username": "u", "groups": ["readers"]}, "verb": "get", "resourceRequest": True, "apiGroup": "",
           "resource": "pods", "namespace": "ns1"}
    # ClusterRoleBindings are visited first, sorted by name: "broken" errs before "readers" allows
    assert authz.authorize(get) == (
        "Allow", 'RBAC: allowed by ClusterRoleBinding "readers" of ClusterRole "reader" to Group "readers"', None)
    # no rule allows: NoOpinion, the unresolved references aggregated (utilerrors.NewAggregate)
    assert authz.authorize({**get, "verb": "delete"}) == (
        "NoOpinion", 'RBAC: [clusterrole.rbac.authorization.k8s.io "missing" not found, '
        'role.rbac.authorization.k8s.io "gone" not found]', None)
    assert authz.authorize({**get, "user": {"username": "nobody"}}) == ("NoOpinion", "", None)


# TestSyncClusterRole: (name, starting roles, expected rules of "combined")
_HAMMER = [{"verbs": ["hammer"], "resources": ["nails"]}, {"verbs": ["hammer"], "resources": ["wedges"]}]
_CHISEL = [{"verbs": ["chisel"], "resources": ["mortises"]}]
_SAW = [{"verbs": ["saw"], "resources": ["boards"]}]
SYNC_CASES = [
    ("remove dead rules", [_cluster_role("hammer", *_HAMMER, labels={"foo": "bar"}),
                           _cluster_role("combined", *_SAW, selectors=[{"foo": "bar"}])], _HAMMER),
    ("strip rules", [_cluster_role("hammer", *_HAMMER, labels={"foo": "not-bar"}),
                     _cluster_role("combined", *_HAMMER, selectors=[{"foo": "bar"}])], []),
    ("select properly and put in order", [
        _cluster_role("hammer", *_HAMMER, labels={"foo": "bar"}), _cluster_role("chisel", *_CHISEL, labels={"foo": "bar"}),
        _cluster_role("saw", *_SAW, labels={"foo": "not-bar"}), _cluster_role("combined", selectors=[{"foo": "bar"}])],
     _CHISEL + _HAMMER),
    ("select properly with multiple selectors", [
        _cluster_role("hammer", *_HAMMER, labels={"foo": "bar"}), _cluster_role("chisel", *_CHISEL, labels={"foo": "bar"}),
        _cluster_role("saw", *_SAW, labels={"foo": "not-bar"}),
        _cluster_role("combined", selectors=[{"foo": "bar"}, {"foo": "not-bar"}])],
     _CHISEL + _HAMMER + _SAW),
    ("select properly remove duplicates", [
        _cluster_role("hammer", *_HAMMER, labels={"foo": "bar"}), _cluster_role("chisel", *_CHISEL, labels={"foo": "bar"}),
        _cluster_role("saw", *_SAW, labels={"foo": "bar"}), _cluster_role("other-saw", *_SAW, labels={"foo": "not-bar"}),
        _cluster_role("combined", selectors=[{"foo": "bar"}, {"foo": "not-bar"}])],
     _CHISEL + _HAMMER + _SAW),
    ("no diff skip", [_cluster_role("hammer", *_HAMMER, labels={"foo": "bar"}),
                      _cluster_role("combined", *_HAMMER, selectors=[{"foo": "bar"}])], _HAMMER),
]


@pytest.mark.parametrize("name,roles,expected", SYNC_CASES, ids=[c[0] for c in SYNC_CASES])
def test_sync_cluster_role(name: str, roles: list[dict[str, Any]], expected: list[dict[str, Any]]) -> None:
    combined = [r for r in aggregate_cluster_roles(roles) if r["metadata"]["name"] == "combined"][0]
    assert combined["rules"] == expected


def test_aggregation_settles_chains_and_authorizes() -> None:
    # admin <- edit <- view, as the bootstrap policy labels them: the controller's repeated syncs settle
    roles = [
        _cluster_role("admin", selectors=[{"aggregate-to-admin": "true"}]),
        _cluster_role("edit", selectors=[{"aggregate-to-edit": "true"}], labels={"aggregate-to-admin": "true"}),
        _cluster_role("view", {"verbs": ["get"], "apiGroups": [""], "resources": ["pods"]},
                      labels={"aggregate-to-edit": "true"}),
    ]
    authz = RBACAuthorizer(RuleSet.from_objects([*roles, _crb("admin", "User:ann", name="ann-admin")]))
    get = {"user": {"username": "ann"}, "verb": "get", "resourceRequest": True, "apiGroup": "", "resource": "pods"}
    assert authz.authorize(get) == (
        "Allow", 'RBAC: allowed by ClusterRoleBinding "ann-admin" of ClusterRole "admin" to User "ann"', None)


def test_cluster_authorizer_superuser_and_bootstrap_roles() -> None:
    authz = ClusterAuthorizer([])
    anything = {"verb": "delete", "resourceRequest": True, "apiGroup": "apps", "resource": "deployments",
                "namespace": "x"}
    # reload.go: the system:masters authorizer is first in the union; privilegedGroupAuthorizer's reason is ""
    assert authz({**anything, "user": {"username": "root", "groups": ["system:masters"]}}) == ("Allow", "", None)
    user = {"username": "jane", "groups": ["system:authenticated"]}
    assert authz({**anything, "user": user}) == ("NoOpinion", "", None)
    assert authz({"user": user, "verb": "get", "path": "/apis/apps"}) == (
        "Allow", 'RBAC: allowed by ClusterRoleBinding "system:discovery" of ClusterRole "system:discovery" to '
        'Group "system:authenticated"', None)
    ssar = {"user": user, "verb": "create", "resourceRequest": True, "apiGroup": "authorization.k8s.io",
            "resource": "selfsubjectaccessreviews"}
    assert authz(ssar)[1].startswith('RBAC: allowed by ClusterRoleBinding "system:basic-user"')
    anonymous = {"username": "system:anonymous", "groups": ["system:unauthenticated"]}
    assert authz({"user": anonymous, "verb": "get", "path": "/version"})[1] == (
        'RBAC: allowed by ClusterRoleBinding "system:public-info-viewer" of ClusterRole "system:public-info-viewer" '
        'to Group "system:unauthenticated"')
    assert authz({"user": anonymous, "verb": "get", "path": "/apis"})[0] == "NoOpinion"  # discovery: authenticated only


def test_union_first_decision_wins_else_reasons_joined() -> None:
    def no(reason: str, err: str | None = None) -> Any:
        return lambda a: ("NoOpinion", reason, err)

    assert union(no("a"), lambda a: ("Deny", "d", None), no("never"))({}) == ("Deny", "d", None)
    assert union(no("a"), no(""), no("b"))({}) == ("NoOpinion", "a\nb", None)
    assert union(no("a", "e1"), no("b", "e2"))({}) == ("NoOpinion", "a\nb", "[e1, e2]")
