"""The MutatingAdmissionPolicy plugin in the chain.

Expected texts from k8s.io/apiserver v0.35.0: ``policy/generic/policy_dispatcher.go`` (``policy '<p>' with
binding '<b>' denied request: ...``, code 403 with the policy error's reason), ``mutating/patch/smd.go``
(``may not mutate atomic arrays, maps or structs``), ``mutating/patch/json_patch.go`` (a failed ``test`` leaves
the object as it was), ``cel/mutation/dynamic/objects.go`` (``CheckTypeNamesMatchFieldPathNames``),
``mutating/reinvocationcontext.go``; the feature gate by release from ``pkg/features/kube_features.go``.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from crdtool.core.admission.chain import admit

CRD: dict[str, Any] = {
    "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
    "metadata": {"name": "widgets.example.com"},
    "spec": {"group": "example.com", "scope": "Namespaced",
             "names": {"plural": "widgets", "singular": "widget", "kind": "Widget"},
             "versions": [{"name": "v1", "served": True, "storage": True, "schema": {"openAPIV3Schema": {
                 "type": "object", "properties": {"spec": {"type": "object", "properties": {
                     "replicas": {"type": "integer", "default": 1},
                     "size": {"type": "string", "default": "m"},
                     "plain": {"type": "array", "items": {"type": "string"}},
                     "ports": {"type": "array", "x-kubernetes-list-type": "map",
                               "x-kubernetes-list-map-keys": ["name"],
                               "items": {"type": "object", "required": ["name"], "properties": {
                                   "name": {"type": "string"}, "port": {"type": "integer"}}}},
                 }}}}}}]},
}
NS = {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "default"}}
OBJ = {"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w", "namespace": "default"},
       "spec": {"replicas": 2, "ports": [{"name": "http", "port": 80}]}}


def policy(*mutations: dict[str, Any], name: str = "p", **spec: Any) -> dict[str, Any]:
    s: dict[str, Any] = {"matchConstraints": {"resourceRules": [{"apiGroups": ["example.com"], "apiVersions": ["v1"],
                                                                 "operations": ["*"], "resources": ["widgets"]}]},
                         "mutations": list(mutations),
                         # required: no version defaults it (validateMutatingAdmissionPolicySpec, release-4.23)
                         "reinvocationPolicy": "Never"}
    s.update(spec)
    return {"apiVersion": "admissionregistration.k8s.io/v1beta1", "kind": "MutatingAdmissionPolicy",
            "metadata": {"name": name}, "spec": s}


def binding(policy_name: str = "p", name: str = "b") -> dict[str, Any]:
    return {"apiVersion": "admissionregistration.k8s.io/v1beta1", "kind": "MutatingAdmissionPolicyBinding",
            "metadata": {"name": name}, "spec": {"policyName": policy_name}}


def apply(expr: str) -> dict[str, Any]:
    return {"patchType": "ApplyConfiguration", "applyConfiguration": {"expression": expr}}


def jsonpatch(expr: str) -> dict[str, Any]:
    return {"patchType": "JSONPatch", "jsonPatch": {"expression": expr}}


def run(*docs: dict[str, Any], obj: dict[str, Any] = OBJ, release: str = "1.36") -> dict[str, Any]:
    review = {"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview",
              "request": {"uid": "u", "operation": "CREATE", "object": obj, "userInfo": {"username": "alice"}}}
    return admit([CRD, NS, *docs, review], release, {}).to_json()


def test_apply_configuration_merges_list_maps_by_key() -> None:
    out = run(policy(apply("Object{spec: Object.spec{ports: [Object.spec.ports{name: 'http', port: 8080}, "
                           "Object.spec.ports{name: 'metrics', port: 9090}]}}")), binding())
    assert out["patchedObject"]["spec"]["ports"] == [{"name": "http", "port": 8080}, {"name": "metrics", "port": 9090}]


def test_apply_configuration_refuses_atomic_lists() -> None:
    out = run(policy(apply("Object{spec: Object.spec{plain: ['a']}}")), binding())
    assert (out["allowed"], out["code"], out["reason"]) == (False, 403, "Invalid")
    assert out["message"] == ("policy 'p' with binding 'b' denied request: error applying patch: invalid "
                              "ApplyConfiguration: may not mutate atomic arrays, maps or structs: .spec.plain")


def test_apply_configuration_type_names_follow_the_field_path() -> None:
    out = run(policy(apply("Object{spec: Object.metadata{replicas: 3}}")), binding())
    assert out["message"].endswith(
        'denied request: type mismatch: unexpected type name "Object.metadata", expected "Object.spec", which matches '
        "field name path from root Object type")


def test_json_patch_and_defaults_after_mutation() -> None:
    out = run(policy(jsonpatch("[JSONPatch{op: 'remove', path: '/spec/size'}, "
                               "JSONPatch{op: 'replace', path: '/spec/replicas', value: 5}]")), binding())
    assert out["patchedObject"]["spec"]["replicas"] == 5
    assert out["patchedObject"]["spec"]["size"] == "m"  # removed, then defaulted again by the CRD's defaulter


def test_json_patch_failed_test_leaves_the_object() -> None:
    out = run(policy(jsonpatch("[JSONPatch{op: 'test', path: '/spec/replicas', value: 9}, "
                               "JSONPatch{op: 'replace', path: '/spec/replicas', value: 5}]")), binding())
    assert out["allowed"] is True and "patchedObject" not in out


def test_json_patch_escape_key() -> None:
    expr = ("[JSONPatch{op: 'add', path: '/metadata/labels', value: {}}, JSONPatch{op: 'add', path: "
            "'/metadata/labels/' + jsonpatch.escapeKey('example.com/owner'), value: request.userInfo.username}]")
    out = run(policy(jsonpatch(expr)), binding())
    assert out["patchedObject"]["metadata"]["labels"] == {"example.com/owner": "alice"}


def test_runtime_errors_and_failure_policy() -> None:
    p = policy(jsonpatch("[JSONPatch{op: 'add', path: '/spec/replicas', value: object.spec.nope}]"))
    out = run(p, binding())
    assert out["message"] == ("policy 'p' with binding 'b' denied request: expression "
                              "'[JSONPatch{op: 'add', path: '/spec/replicas', value: object.spec.nope}]' resulted in "
                              "error: no such key: nope")
    p["spec"]["failurePolicy"] = "Ignore"
    assert run(p, binding())["allowed"] is True


def test_reinvocation_if_needed_sees_later_mutations() -> None:
    first = policy(apply("Object{spec: Object.spec{replicas: has(object.spec.size) && object.spec.size == 'xl' ? "
                         "10 : object.spec.replicas}}"), name="first", reinvocationPolicy="IfNeeded")
    second = policy(apply("Object{spec: Object.spec{size: 'xl'}}"), name="second")
    out = run(first, second, binding("first", "b1"), binding("second", "b2"))
    assert out["patchedObject"]["spec"]["replicas"] == 10
    first["spec"]["reinvocationPolicy"] = "Never"
    out = run(first, second, binding("first", "b1"), binding("second", "b2"))
    assert out["patchedObject"]["spec"]["replicas"] == 2


@pytest.mark.parametrize(("release", "served"), [("1.31", False), ("1.35", False), ("1.36", True), ("1.37", True)])
def test_gate_by_release(release: str, served: bool) -> None:
    out = run(policy(apply("Object{spec: Object.spec{replicas: 3}}")), binding(), release=release)
    assert ("patchedObject" in out) is served


def test_mutated_object_is_validated_by_the_crd() -> None:
    obj = copy.deepcopy(OBJ)
    out = run(policy(jsonpatch("[JSONPatch{op: 'replace', path: '/spec/replicas', value: 'many'}]")), binding(),
              obj=obj)
    assert (out["code"], out["reason"]) == (422, "Invalid")
    assert out["message"].startswith('Widget.example.com "w" is invalid: spec.replicas: Invalid value: "string"')


def test_compile_errors_refuse_the_policy() -> None:
    out = run(policy(apply("Object{spec: 1}"), jsonpatch("JSONPatch{op: 'add'}")), binding())
    errors = out["rejected"][0]["errors"]
    assert errors[0].startswith('spec.mutations[1].jsonPatch.expression: Invalid value: "JSONPatch{op: \'add\'}": '
                                "must evaluate to list(JSONPatch) but got JSONPatch")


def test_unknown_param_kind_is_a_policy_configuration_error() -> None:
    p = policy(apply("Object{spec: Object.spec{replicas: 3}}"), paramKind={"apiVersion": "example.com/v1",
                                                                          "kind": "Nope"})
    out = run(p, binding())
    assert out["message"] == ('policy "p" denied request: failed to configure policy: failed to find resource '
                              "referenced by paramKind: 'example.com/v1, Kind=Nope'")
    assert (out["code"], out["reason"]) == (403, "Forbidden")
