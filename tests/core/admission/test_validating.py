"""The ValidatingAdmissionPolicy plugin in the chain (:func:`crdtool.core.admission.chain.admit`).

Cases ported from k8s.io/apiserver v0.34.0 ``pkg/admission/plugin/policy/validating/admission_test.go``
(TestInvalidParamSourceGVK, TestInvalidParamSourceInstanceName, TestEmptyParamRef, TestAuditValidationAction,
TestWarnValidationAction, TestAllValidationActions, TestNamespaceParamRefClusterScopedParamError,
TestAuditAnnotations): upstream's fake compiler returns a fixed decision ("I'm sorry Dave"); here a real
expression that fails with that message stands in for it. Texts of ``validator.go``, ``dispatcher.go`` and
``activation.go`` at v0.30.0 … v0.37.0-beta.0.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from crdtool.core.admission.chain import admit

PARAMS_CRD: dict[str, Any] = {
    "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
    "metadata": {"name": "paramsconfigs.example.com"},
    "spec": {
        "group": "example.com", "scope": "Namespaced",
        "names": {"plural": "paramsconfigs", "singular": "paramsconfig", "kind": "ParamsConfig"},
        "versions": [{"name": "v1", "served": True, "storage": True, "schema": {"openAPIV3Schema": {
            "type": "object", "x-kubernetes-preserve-unknown-fields": True}}}],
    },
}
CLUSTER_PARAMS_CRD = copy.deepcopy(PARAMS_CRD)
CLUSTER_PARAMS_CRD["metadata"]["name"] = "clusterscopedparamsconfigs.example.com"
CLUSTER_PARAMS_CRD["spec"]["scope"] = "Cluster"
CLUSTER_PARAMS_CRD["spec"]["names"] = {"plural": "clusterscopedparamsconfigs", "singular": "clusterscopedparamsconfig",
                                       "kind": "ClusterScopedParamsConfig"}
DEFAULT_NS = {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "default"}}
FAKE_PARAMS = {"apiVersion": "example.com/v1", "kind": "ParamsConfig",
               "metadata": {"name": "replicas-test.example.com", "namespace": "default"}, "maxReplicas": 3}
SORRY = {"expression": "false", "message": "I'm sorry Dave"}
RULES = {"resourceRules": [{"apiGroups": ["*"], "apiVersions": ["*"], "operations": ["*"], "resources": ["*"]}]}


def policy(name: str = "denypolicy.example.com", params: bool = True, **spec: Any) -> dict[str, Any]:
    s: dict[str, Any] = {"failurePolicy": "Fail", "matchConstraints": RULES, "validations": [SORRY]}
    if params:
        s["paramKind"] = {"apiVersion": "example.com/v1", "kind": "ParamsConfig"}
    s.update(spec)
    return {"apiVersion": "admissionregistration.k8s.io/v1", "kind": "ValidatingAdmissionPolicy",
            "metadata": {"name": name}, "spec": s}


def binding(name: str = "denybinding.example.com", policy_name: str = "denypolicy.example.com",
            actions: tuple[str, ...] = ("Deny",), **spec: Any) -> dict[str, Any]:
    s: dict[str, Any] = {"policyName": policy_name, "validationActions": list(actions)}
    s.update(spec)
    return {"apiVersion": "admissionregistration.k8s.io/v1", "kind": "ValidatingAdmissionPolicyBinding",
            "metadata": {"name": name}, "spec": s}


def review(obj: dict[str, Any], operation: str = "CREATE") -> dict[str, Any]:
    return {"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview",
            "request": {"uid": "u", "operation": operation, "object": obj, "userInfo": {"username": "alice"}}}


def run(*docs: dict[str, Any], release: str = "1.34", obj: dict[str, Any] = FAKE_PARAMS) -> dict[str, Any]:
    return admit([PARAMS_CRD, CLUSTER_PARAMS_CRD, DEFAULT_NS, *docs, review(obj)], release).to_json()


FORBIDDEN = 'paramsconfigs.example.com "replicas-test.example.com" is forbidden: '


def test_invalid_param_source_gvk() -> None:
    p = policy(paramKind={"apiVersion": "example.com/v1", "kind": "BadParamKind"})
    out = run(p, binding(paramRef={"name": "replicas-test.example.com", "namespace": "default",
                                   "parameterNotFoundAction": "Deny"}))
    assert out["message"] == FORBIDDEN + (
        "ValidatingAdmissionPolicy 'denypolicy.example.com' denied request: failed to configure policy: failed to "
        "find resource referenced by paramKind: 'example.com/v1, Kind=BadParamKind'")
    assert (out["allowed"], out["code"], out["reason"]) == (False, 422, "Invalid")


def test_invalid_param_source_instance_name() -> None:
    out = run(policy(), binding(paramRef={"name": "nonexistent", "namespace": "default",
                                          "parameterNotFoundAction": "Deny"}))
    assert out["message"].endswith(
        "denied request: failed to configure binding: no params found for policy binding with `Deny` "
        "parameterNotFoundAction")


def test_missing_params_with_allow_skip_the_binding() -> None:
    out = run(policy(), binding(paramRef={"name": "nonexistent", "namespace": "default",
                                          "parameterNotFoundAction": "Allow"}))
    assert out["allowed"] is True


def test_empty_param_ref_evaluates_with_null_params() -> None:
    p = policy(validations=[{"expression": "params == null", "message": "params"}, SORRY])
    out = run(p, binding())
    assert out["message"] == FORBIDDEN + (
        "ValidatingAdmissionPolicy 'denypolicy.example.com' with binding 'denybinding.example.com' denied request: "
        "I'm sorry Dave")


def test_params_reach_the_expression() -> None:
    p = policy(validations=[{"expression": "object.maxReplicas > params.maxReplicas",
                             "messageExpression": "'max ' + string(params.maxReplicas)"}])
    out = run(FAKE_PARAMS, p, binding(paramRef={"name": "replicas-test.example.com",
                                                "parameterNotFoundAction": "Deny"}))
    assert out["message"].endswith("denied request: max 3")


@pytest.mark.parametrize("release", ["1.30", "1.34", "1.37"])
def test_audit_validation_action(release: str) -> None:
    out = run(policy(params=False), binding(actions=("Audit",)), release=release)
    assert out["allowed"] is True and out["warnings"] == []
    value = json.loads(out["auditAnnotations"]["validation.policy.admission.k8s.io/validation_failure"])
    assert value == [{"message": "I'm sorry Dave", "policy": "denypolicy.example.com",
                      "binding": "denybinding.example.com", "expressionIndex": 0, "validationActions": ["Audit"]}]


def test_warn_validation_action() -> None:
    out = run(policy(params=False), binding(actions=("Warn",)))
    assert out["allowed"] is True and out["auditAnnotations"] == {}
    assert out["warnings"] == ["Validation failed for ValidatingAdmissionPolicy 'denypolicy.example.com' with binding "
                               "'denybinding.example.com': I'm sorry Dave"]


def test_all_validation_actions() -> None:
    """TestAllValidationActions runs Deny, Warn and Audit together through a fake; the apiserver refuses such a
    binding at create (validateValidationActions), so here it takes no part; Deny with Audit both act."""
    out = run(policy(params=False), binding(actions=("Deny", "Warn", "Audit")))
    assert out["allowed"] is True
    assert out["rejected"][0]["errors"] == [
        'spec.validationActions: Invalid value: ["Deny","Warn","Audit"]: must not contain both Deny and Warn '
        "(repeating the same validation failure information in the API response and headers serves no purpose)"]
    out = run(policy(params=False), binding(actions=("Deny", "Audit")))
    value = json.loads(out["auditAnnotations"]["validation.policy.admission.k8s.io/validation_failure"])
    assert value[0]["validationActions"] == ["Deny", "Audit"]
    assert "I'm sorry Dave" in out["message"] and out["allowed"] is False


def test_cluster_scoped_param_with_namespace() -> None:
    p = policy(paramKind={"apiVersion": "example.com/v1", "kind": "ClusterScopedParamsConfig"})
    out = run(p, binding(paramRef={"name": "x", "namespace": "default", "parameterNotFoundAction": "Deny"}))
    assert "paramRef.namespace must not be provided for a cluster-scoped `paramKind`" in out["message"]


def test_namespaced_param_ref_for_a_cluster_scoped_request() -> None:
    crd = copy.deepcopy(CLUSTER_PARAMS_CRD)
    obj = {"apiVersion": "example.com/v1", "kind": "ClusterScopedParamsConfig", "metadata": {"name": "c"}}
    out = admit([PARAMS_CRD, crd, DEFAULT_NS, policy(), binding(paramRef={"name": "x", "parameterNotFoundAction": "Deny"}),
                 review(obj)], "1.34").to_json()
    assert out["message"].endswith("failed to configure binding: cannot use namespaced paramRef in policy binding "
                                   "that matches cluster-scoped resources")


def test_audit_annotations_join_distinct_values_across_bindings() -> None:
    params2 = copy.deepcopy(FAKE_PARAMS)
    params2["metadata"]["name"] = "replicas-test2.example.com"
    params2["maxReplicas"] = 4
    p = policy(validations=[], auditAnnotations=[
        {"key": "example-key", "valueExpression": "'value-' + string(params.maxReplicas)"},
        {"key": "excluded-key", "valueExpression": "null"},
        {"key": "error-key", "valueExpression": "string(params.nope)"},
    ])
    b1 = binding(paramRef={"name": "replicas-test.example.com", "parameterNotFoundAction": "Deny"})
    b2 = binding("denybinding2.example.com", paramRef={"name": "replicas-test2.example.com",
                                                         "parameterNotFoundAction": "Deny"})
    out = run(FAKE_PARAMS, params2, p, b1, b2)
    assert out["auditAnnotations"] == {"denypolicy.example.com/example-key": "value-3, value-4"}
    assert out["message"].endswith(
        "with binding 'denybinding.example.com' denied request: expression 'string(params.nope)' resulted in error: "
        "no such key: nope")


def test_failure_policy_ignore_drops_runtime_errors() -> None:
    p = policy(params=False, failurePolicy="Ignore", validations=[{"expression": "object.spec.replicas > 1"}])
    assert run(p, binding())["allowed"] is True
    p["spec"]["failurePolicy"] = "Fail"
    out = run(p, binding())
    assert out["message"].endswith("denied request: expression 'object.spec.replicas > 1' resulted in error: "
                                   "no such key: spec")


def test_message_fallbacks() -> None:
    p = policy(params=False, validations=[
        {"expression": "1 == 2", "messageExpression": "'  '", "message": "  custom  "}])
    assert run(p, binding())["message"].endswith("denied request: custom")
    p["spec"]["validations"] = [{"expression": " 1 == 2 ", "messageExpression": "'a\\nb'"}]
    assert run(p, binding())["message"].endswith("denied request: failed expression: 1 == 2")


def test_reason_sets_code() -> None:
    p = policy(params=False, validations=[{"expression": "false", "reason": "Forbidden"}])
    out = run(p, binding())
    assert (out["code"], out["reason"]) == (403, "Forbidden")


def test_variables_errors_name_the_variable() -> None:
    p = policy(params=False, variables=[{"name": "r", "expression": "object.spec.replicas"}],
               validations=[{"expression": "variables.r > 1"}])
    out = run(p, binding())
    assert out["message"].endswith(
        "denied request: expression 'variables.r > 1' resulted in error: composited variable \"r\" fails to "
        "evaluate: no such key: spec")


def test_match_conditions() -> None:
    p = policy(params=False, matchConditions=[{"name": "is-alice", "expression": "request.userInfo.username == 'bob'"}])
    assert run(p, binding())["allowed"] is True
    p["spec"]["matchConditions"] = [{"name": "err", "expression": "object.nope == 1"}]
    assert run(p, binding())["message"].endswith(
        "denied request: expression 'object.nope == 1' resulted in error: no such key: nope")


def test_missing_namespace_is_namespace_lifecycle_answer() -> None:
    obj = copy.deepcopy(FAKE_PARAMS)
    obj["metadata"]["namespace"] = "nowhere"
    out = run(policy(params=False), binding(), obj=obj)
    assert (out["allowed"], out["code"], out["reason"], out["message"]) == (
        False, 404, "NotFound", 'namespaces "nowhere" not found')


def test_selectors_and_exclusions() -> None:
    ns = {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "prod", "labels": {"env": "prod"}}}
    obj = copy.deepcopy(FAKE_PARAMS)
    obj["metadata"]["namespace"] = "prod"
    sel = {"namespaceSelector": {"matchExpressions": [{"key": "env", "operator": "In", "values": ["prod"]}]}}
    assert run(ns, policy(params=False), binding(matchResources=sel), obj=obj)["allowed"] is False
    assert run(policy(params=False), binding(matchResources=sel))["allowed"] is True
    excl = {"excludeResourceRules": [{"apiGroups": ["example.com"], "apiVersions": ["v1"], "operations": ["CREATE"],
                                      "resources": ["paramsconfigs"]}]}
    assert run(policy(params=False), binding(matchResources=excl))["allowed"] is True
    objsel = {"objectSelector": {"matchLabels": {"a": "b"}}}
    assert run(policy(params=False), binding(matchResources=objsel))["allowed"] is True


def test_policy_refused_at_create_takes_no_part() -> None:
    p = policy(params=False, validations=[{"expression": "1+"}])
    out = run(p, binding())
    assert out["allowed"] is True
    assert out["rejected"][0]["errors"][0].startswith(
        'spec.validations[0].expression: Invalid value: "1+": compilation failed: ERROR: <input>:1:3: Syntax error:')


def test_native_type_param_and_built_in_object() -> None:
    """TestNativeTypeParam (v0.34.0): a ConfigMap as params; the request a built-in Deployment."""
    cm = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "limits", "namespace": "default"},
          "data": {"max": "2"}}
    p = policy(paramKind={"apiVersion": "v1", "kind": "ConfigMap"}, validations=[
        {"expression": "object.spec.replicas <= int(params.data.max)",
         "messageExpression": "params.kind + ' ' + params.metadata.name + ' allows ' + params.data.max"}])
    b = binding(paramRef={"name": "limits", "parameterNotFoundAction": "Deny"})
    deployment = {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "d", "namespace": "default"},
                  "spec": {"replicas": 3, "selector": {"matchLabels": {"a": "b"}},
                           "template": {"metadata": {"labels": {"a": "b"}},
                                        "spec": {"containers": [{"name": "c", "image": "nginx"}]}}}}
    out = run(cm, p, b, obj=deployment)
    assert out["message"] == ('deployments.apps "d" is forbidden: ValidatingAdmissionPolicy '
                              "'denypolicy.example.com' with binding 'denybinding.example.com' denied request: "
                              "ConfigMap limits allows 2")


def test_equivalent_match_policy_sees_the_matched_version() -> None:
    """matchesResourceRules (matching.go v0.34.0): with matchPolicy Equivalent a rule for another served version of
    the CRD matches, and the policy sees the object converted to that version (strategy None: the apiVersion)."""
    crd = copy.deepcopy(PARAMS_CRD)
    v2 = copy.deepcopy(crd["spec"]["versions"][0])
    v2.update(name="v2", storage=False)
    crd["spec"]["versions"].append(v2)
    rules = {"resourceRules": [{"apiGroups": ["example.com"], "apiVersions": ["v2"], "operations": ["CREATE"],
                                "resources": ["paramsconfigs"]}]}
    p = policy(params=False, matchConstraints=rules,
               validations=[{"expression": "false", "messageExpression": "object.apiVersion + ' ' + request.kind.version"}])
    out = admit([crd, DEFAULT_NS, p, binding(), review(FAKE_PARAMS)], "1.34").to_json()
    assert out["message"].endswith("denied request: example.com/v2 v2")
    p["spec"]["matchConstraints"]["matchPolicy"] = "Exact"
    assert admit([crd, DEFAULT_NS, p, binding(), review(FAKE_PARAMS)], "1.34").to_json()["allowed"] is True


def test_update_and_delete_requests() -> None:
    """UPDATE: oldObject beside object (a review without resourceVersions is taken to be at the stored one);
    DELETE: object is null, oldObject the stored object, NamespaceLifecycle lets it through."""
    p = policy(params=False, validations=[
        {"expression": "request.operation != 'UPDATE' || object.maxReplicas >= oldObject.maxReplicas",
         "messageExpression": "'may not shrink from ' + string(oldObject.maxReplicas)"},
        {"expression": "request.operation != 'DELETE' || object == null",
         "messageExpression": "'deleting ' + oldObject.metadata.name"}])
    grown = copy.deepcopy(FAKE_PARAMS)
    grown["maxReplicas"] = 2
    upd = {"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview",
           "request": {"uid": "u", "operation": "UPDATE", "object": grown, "oldObject": FAKE_PARAMS}}
    out = admit([PARAMS_CRD, DEFAULT_NS, p, binding(), upd], "1.34").to_json()
    assert out["message"].endswith("denied request: may not shrink from 3")
    p["spec"]["validations"][1]["expression"] = "request.operation != 'DELETE' || object != null"
    dele = {"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview",
            "request": {"uid": "u", "operation": "DELETE", "oldObject": FAKE_PARAMS, "namespace": "default",
                        "name": "replicas-test.example.com"}}
    out = admit([PARAMS_CRD, DEFAULT_NS, p, binding(), dele], "1.34").to_json()
    assert out["message"].endswith("denied request: deleting replicas-test.example.com")
    # NamespaceLifecycle passes DELETEs; the dispatcher's namespace lister answers (dispatcher.go: GetNamespace)
    dele["request"]["namespace"] = "gone"
    out = admit([PARAMS_CRD, DEFAULT_NS, p, binding(), dele], "1.34").to_json()
    assert (out["code"], out["message"]) == (404, 'namespace "gone" not found')


def test_policies_are_decoded_strictly() -> None:
    p = policy(params=False)
    p["spec"]["validations"] = "nope"
    b = binding()
    b["spec"]["validationActionz"] = ["Deny"]
    out = run(p, b)
    assert out["allowed"] is True
    assert out["rejected"][0]["errors"] == [
        'ValidatingAdmissionPolicy in version "v1" cannot be handled as a ValidatingAdmissionPolicy: '
        "json: cannot unmarshal string into Go struct field "
        "ValidatingAdmissionPolicySpec.spec.validations of type []v1.Validation"]
    assert out["rejected"][1]["errors"][0].endswith('strict decoding error: unknown field "spec.validationActionz"')


def test_params_are_decoded_by_their_crd() -> None:
    crd = copy.deepcopy(PARAMS_CRD)
    crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"] = {
        "type": "object", "properties": {"maxReplicas": {"type": "integer", "default": 5}, "junk": {"type": "string"}}}
    params = copy.deepcopy(FAKE_PARAMS)
    del params["maxReplicas"]
    params["unknown"] = 1
    p = policy(validations=[{"expression": "false", "messageExpression":
                             "string(params.maxReplicas) + ' ' + string(has(params.unknown))"}])
    b = binding(paramRef={"name": "replicas-test.example.com", "parameterNotFoundAction": "Deny"})
    out = admit([crd, CLUSTER_PARAMS_CRD, DEFAULT_NS, params, p, b, review(FAKE_PARAMS)], "1.34").to_json()
    assert out["message"].endswith("denied request: 5 false")
