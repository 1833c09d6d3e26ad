""":mod:`crdtool.core.lint.policies`: the POL codes on small bundles.

The cost of a policy expression is the estimate lint gives a CRD rule (cel-go ``checker.Cost`` with the Kubernetes
library costs and the schema's sizes): the same expression written as a rule at the schema's root (``self``
standing for ``object``) costs the same. The reference checks follow upstream's run-time resolution
(k8s.io/apiserver v0.34.0 ``policy/generic/policy_source.go``, ``matching/matching.go``,
``policy_dispatcher.go`` ``CollectParams``).
"""

from __future__ import annotations

import copy
from typing import Any

from crdtool.core.lint.cost import cost_breakdown
from crdtool.core.lint.policies import is_policy_document, lint_policies

CRD: dict[str, Any] = {
    "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
    "metadata": {"name": "widgets.example.com"},
    "spec": {"group": "example.com", "scope": "Namespaced",
             "names": {"plural": "widgets", "singular": "widget", "kind": "Widget", "listKind": "WidgetList"},
             "versions": [{"name": "v1", "served": True, "storage": True, "schema": {"openAPIV3Schema": {
                 "type": "object", "properties": {"spec": {"type": "object", "properties": {
                     "tags": {"type": "array", "maxItems": 50, "items": {"type": "string", "maxLength": 40}}}}}}}}]},
}
EXPR = "object.spec.tags.all(t, object.spec.tags.exists(u, u.startsWith(t)))"


def policy(expression: str = EXPR, **spec: Any) -> dict[str, Any]:
    return {"apiVersion": "admissionregistration.k8s.io/v1", "kind": "ValidatingAdmissionPolicy",
            "metadata": {"name": "p"},
            "spec": {"matchConstraints": {"resourceRules": [{"apiGroups": ["example.com"], "apiVersions": ["v1"],
                                                              "operations": ["CREATE"], "resources": ["widgets"]}]},
                     "validations": [{"expression": expression}], **spec}}


def binding(policy_name: str, kind: str = "ValidatingAdmissionPolicyBinding") -> dict[str, Any]:
    return {"apiVersion": "admissionregistration.k8s.io/v1", "kind": kind, "metadata": {"name": "b"},
            "spec": {"policyName": policy_name, "validationActions": ["Deny"]}}


def _cost_as_crd_rule(crd: dict[str, Any], rule: str) -> int:
    crd = copy.deepcopy(crd)
    crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["x-kubernetes-validations"] = [{"rule": rule}]
    breakdown = cost_breakdown(crd, kubernetes_version="1.34", fixes=False)
    return next(e.cost for s in breakdown.schemas for e in s.expressions)


def test_a_cheap_bounded_policy_has_no_finding() -> None:
    assert lint_policies([CRD, policy(), binding("p")], kubernetes_version="1.34") == []


def test_over_the_per_call_limit_with_the_crd_estimators_number_and_the_bound_that_fixes_it() -> None:
    crd = copy.deepcopy(CRD)
    del crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"]["tags"]["maxItems"]
    found = lint_policies([crd, policy(), binding("p")], kubernetes_version="1.34", select=["POL001"])
    assert [(f.code, f.path) for f in found] == [("POL001", "spec.validations[0].expression")]
    expected = _cost_as_crd_rule(crd, EXPR.replace("object.", "self."))
    assert f"estimated validation cost {expected:,} against example.com/v1, Kind=Widget" in found[0].message
    fix = next(d for d in found[0].details if d.startswith("fix: maxItems: "))
    value = int(fix.split("maxItems: ")[1].split(" ")[0])
    # the bound is the largest that keeps the estimate under 90% of the limit: the CRD rule agrees at value and value+1
    for n, under in ((value, True), (value + 1, False)):
        bounded = copy.deepcopy(crd)
        bounded["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"]["tags"]["maxItems"] = n
        assert (_cost_as_crd_rule(bounded, EXPR.replace("object.", "self.")) <= 900_000) is under
        assert bool(lint_policies([bounded, policy(), binding("p")], kubernetes_version="1.34", select=["POL001"])) \
            is False


def test_the_runtime_budget_of_one_evaluation() -> None:
    crd = copy.deepcopy(CRD)
    crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"]["tags"]["maxItems"] = 200
    # each expression under the per-call limit, twelve together over the 10,000,000 budget
    expr = "object.spec.tags.all(t, object.spec.tags.exists(u, u.startsWith(t)))"
    one = _cost_as_crd_rule(crd, expr.replace("object.", "self."))
    assert 10_000_000 / 12 < one <= 1_000_000
    doc = policy(expr)
    doc["spec"]["validations"] = [{"expression": expr}] * 12
    found = lint_policies([crd, doc], kubernetes_version="1.34", select=["POL"])
    assert [f.code for f in found] == ["POL002"]
    assert f"estimated to cost {12 * one:,} against" in found[0].message


def test_a_variable_that_is_a_field_is_sized_as_the_field() -> None:
    crd = copy.deepcopy(CRD)
    del crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"]["tags"]["maxItems"]
    via_variable = policy("variables.tags.all(t, variables.tags.exists(u, u.startsWith(t)))",
                          variables=[{"name": "tags", "expression": "object.spec.tags"}])
    direct = lint_policies([crd, policy()], kubernetes_version="1.34", select=["POL001"])
    found = lint_policies([crd, via_variable], kubernetes_version="1.34", select=["POL001"])
    # the same sizes, and the same bound fixes it (the costs differ by the selects object.spec reads)
    def bound(details: tuple[str, ...]) -> str:
        return next(d for d in details if d.startswith("fix: maxItems")).split(" (estimated")[0]

    assert bound(found[0].details) == bound(direct[0].details)


def test_built_in_kinds_are_not_costed() -> None:
    doc = policy("object.spec.containers.all(c, object.spec.containers.all(d, c.image.startsWith(d.image)))")
    doc["spec"]["matchConstraints"]["resourceRules"] = [
        {"apiGroups": [""], "apiVersions": ["v1"], "operations": ["CREATE"], "resources": ["pods"]}]
    assert lint_policies([doc], kubernetes_version="1.34", select=["POL0"]) == []


def test_references() -> None:
    params_policy = policy(paramKind={"apiVersion": "v1", "kind": "ConfigMap"})
    params_policy["spec"]["matchConstraints"]["resourceRules"].append(
        {"apiGroups": ["", "apps"], "apiVersions": ["v1"], "operations": ["CREATE"], "resources": ["pods", "podz/status"]})
    docs = [CRD, params_policy, binding("p"), binding("q"), binding("p", "MutatingAdmissionPolicyBinding")]
    found = [(f.index, f.code, f.path) for f in lint_policies(docs, kubernetes_version="1.34", select=["POL1"])]
    assert found == [
        (1, "POL102", "spec.matchConstraints.resourceRules[1].resources[1]"),  # podz in neither group; pods is core
        (1, "POL103", "spec.paramKind"),
        (3, "POL101", "spec.policyName"),
        (4, "POL101", "spec.policyName"),  # a MutatingAdmissionPolicyBinding names a MutatingAdmissionPolicy
    ]
    cm = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "limits", "namespace": "default"}}
    assert not [f for f in lint_policies([*docs, cm], kubernetes_version="1.34", select=["POL103"])]


def test_a_resource_served_by_a_release_only() -> None:
    # flowcontrol.apiserver.k8s.io/v1beta3 (and its resources) is no longer served from 1.32 (beta removed in 1.32),
    # but the v1 group still serves flowschemas: a resource is known by group and plural at any served version
    doc = policy()
    doc["spec"]["matchConstraints"]["resourceRules"] = [
        {"apiGroups": ["flowcontrol.apiserver.k8s.io"], "apiVersions": ["*"], "operations": ["CREATE"],
         "resources": ["flowschemas"]}]
    assert lint_policies([doc], kubernetes_version="1.34", select=["POL102"]) == []


def test_is_policy_document() -> None:
    assert is_policy_document(policy()) and is_policy_document(binding("p"))
    assert not is_policy_document(CRD) and not is_policy_document({"apiVersion": "v1", "kind": "Pod"})
