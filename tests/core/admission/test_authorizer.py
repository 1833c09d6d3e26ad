"""The policies' ``authorizer`` in the admission chain: bound for every expression that declares it (validations,
matchConditions, auditAnnotations, variables; mutations), over RBAC of the bundle.

Expected texts from k8s.io/apiserver v0.35.0 (``cel/activation.go``: ``NewAuthorizerVal``,
``NewResourceAuthorizerVal`` of the request's resource; ``cel/condition.go``: ``expression '<e>' resulted in error:
<err>``; ``validating/dispatcher.go`` and ``policy/generic/policy_dispatcher.go``: the denial texts;
``library/authz.go``: the function errors) and kubernetes release-4.22 (``rbac.go``/``rule.go``: the reasons).
"""

from __future__ import annotations

from typing import Any

from crdtool.core.admission.chain import admit

RBAC = "rbac.authorization.k8s.io/v1"
NS = {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "team-a"}}
CM = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "cm", "namespace": "team-a"}}
ROLES = [
    {"apiVersion": RBAC, "kind": "ClusterRole", "metadata": {"name": "cm-deleter"},
     "rules": [{"verbs": ["delete"], "apiGroups": [""], "resources": ["configmaps"]}]},
    {"apiVersion": RBAC, "kind": "ClusterRoleBinding", "metadata": {"name": "ops-delete"},
     "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": "cm-deleter"},
     "subjects": [{"apiGroup": "rbac.authorization.k8s.io", "kind": "Group", "name": "ops"}]},
]


def vap(*validations: dict[str, Any], failure: str = "Fail", **spec: Any) -> list[dict[str, Any]]:
    s: dict[str, Any] = {"failurePolicy": failure, "validations": list(validations), "matchConstraints": {
        "resourceRules": [{"apiGroups": [""], "apiVersions": ["v1"], "operations": ["CREATE"],
                           "resources": ["configmaps"]}]}}
    s.update(spec)
    return [{"apiVersion": "admissionregistration.k8s.io/v1", "kind": "ValidatingAdmissionPolicy",
             "metadata": {"name": "p"}, "spec": s},
            {"apiVersion": "admissionregistration.k8s.io/v1", "kind": "ValidatingAdmissionPolicyBinding",
             "metadata": {"name": "b"}, "spec": {"policyName": "p", "validationActions": ["Deny"]}}]


def run(docs: list[dict[str, Any]], user: str = "bob", groups: tuple[str, ...] = ("system:authenticated",),
        release: str = "1.35", gates: dict[str, bool] | None = None) -> dict[str, Any]:
    review = {"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "request": {
        "uid": "u", "operation": "CREATE", "object": CM, "userInfo": {"username": user, "groups": list(groups)}}}
    return admit([NS, *ROLES, *docs, review], release, gates or {}).to_json()


def test_request_resource_check_by_group_membership() -> None:
    docs = vap({"expression": "authorizer.requestResource.check('delete').allowed()", "message": "no"})
    assert run(docs, groups=("ops",))["allowed"] is True
    out = run(docs)
    assert (out["allowed"], out["code"]) == (False, 422)
    assert out["message"] == ('configmaps "cm" is forbidden: ValidatingAdmissionPolicy \'p\' with binding \'b\' '
                              "denied request: no")


def test_superuser_and_service_accounts() -> None:
    docs = vap({"expression": "authorizer.group('apps').resource('deployments').check('delete').allowed()"})
    assert run(docs, groups=("system:masters",))["allowed"] is True
    # serviceAccount(): system:serviceaccount:team-a:ci, in system:serviceaccounts(:team-a), not the requester
    sa = vap({"expression": "authorizer.serviceAccount('team-a', 'ci').group('').resource('configmaps')"
                            ".namespace('team-a').check('delete').allowed()"})
    binding = {"apiVersion": RBAC, "kind": "RoleBinding", "metadata": {"name": "ci", "namespace": "team-a"},
               "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": "cm-deleter"},
               "subjects": [{"kind": "ServiceAccount", "name": "ci"}]}
    assert run(sa)["allowed"] is False
    assert run([*sa, binding])["allowed"] is True


def test_runtime_errors_follow_failure_policy() -> None:
    expr = "authorizer.path('').check('get').allowed()"
    out = run(vap({"expression": expr}))
    assert out["message"].endswith(f"denied request: expression '{expr}' resulted in error: path must not be empty")
    assert run(vap({"expression": expr}, failure="Ignore"))["allowed"] is True


def test_match_conditions_and_audit_annotations_see_the_authorizer() -> None:
    docs = vap({"expression": "false", "message": "only deleters are checked"},
               matchConditions=[{"name": "deleters", "expression":
                                 "authorizer.requestResource.check('delete').allowed()"}],
               auditAnnotations=[{"key": "why", "valueExpression":
                                  "authorizer.requestResource.check('delete').reason()"}])
    assert run(docs)["allowed"] is True  # bob: the condition is false, the policy does not apply
    out = run(docs, user="olga", groups=("ops",))
    assert out["message"].endswith("denied request: only deleters are checked")
    docs[0]["spec"]["validations"] = [{"expression": "true"}]
    out = run(docs, user="olga", groups=("ops",))
    assert out["auditAnnotations"] == {
        "p/why": 'RBAC: allowed by ClusterRoleBinding "ops-delete" of ClusterRole "cm-deleter" to Group "ops"'}


def test_mutating_policies_see_the_authorizer() -> None:
    expr = ("[JSONPatch{op: 'add', path: '/metadata/labels', value: {'can-delete': "
            "string(authorizer.requestResource.check('delete').allowed())}}]")
    docs = [
        {"apiVersion": "admissionregistration.k8s.io/v1beta1", "kind": "MutatingAdmissionPolicy",
         "metadata": {"name": "m"}, "spec": {
             "matchConstraints": {"resourceRules": [{"apiGroups": [""], "apiVersions": ["v1"],
                                                     "operations": ["CREATE"], "resources": ["configmaps"]}]},
             "reinvocationPolicy": "Never",  # required: no release defaults it (validation.go @release-4.23)
             "mutations": [{"patchType": "JSONPatch", "jsonPatch": {"expression": expr}}]}},
        {"apiVersion": "admissionregistration.k8s.io/v1beta1", "kind": "MutatingAdmissionPolicyBinding",
         "metadata": {"name": "mb"}, "spec": {"policyName": "m"}},
    ]
    assert run(docs, release="1.36", groups=("ops",))["patchedObject"]["metadata"]["labels"] == {"can-delete": "true"}
    assert run(docs, release="1.36")["patchedObject"]["metadata"]["labels"] == {"can-delete": "false"}
