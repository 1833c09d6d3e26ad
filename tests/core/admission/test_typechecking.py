"""Type checking of policies against the bundle's CRDs, ported from k8s.io/apiserver v0.34.0
``pkg/admission/plugin/policy/validating/typechecking_test.go`` (TestTypeCheck): upstream's fake schema resolver
answers for ``apps/v1 deployments``; here a CRD of the same schema stands in for it."""

from __future__ import annotations

from typing import Any

import pytest

from crdtool.core.admission.policy.typechecking import type_check
from crdtool.core.releases import resolve_release


def crd(props: dict[str, Any]) -> dict[str, Any]:
    return {
        "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "deployments.example.com"},
        "spec": {"group": "example.com", "scope": "Namespaced",
                 "names": {"plural": "deployments", "singular": "deployment", "kind": "Deployment"},
                 "versions": [{"name": "v1", "served": True, "storage": True, "schema": {"openAPIV3Schema": {
                     "type": "object", "properties": props}}}]},
    }


def policy(*validations: dict[str, Any], **spec: Any) -> dict[str, Any]:
    s = {"validations": list(validations), "matchConstraints": {"resourceRules": [
        {"apiGroups": ["example.com"], "apiVersions": ["v1"], "operations": ["CREATE"], "resources": ["deployments"]}]}}
    s.update(spec)
    return {"metadata": {"name": "p"}, "spec": s}


FOO_STRING = crd({"foo": {"type": "string"}})
FOO_INT = crd({"foo": {"type": "integer"}})


@pytest.mark.parametrize("release", ["1.30", "1.34", "1.37"])
@pytest.mark.parametrize(("name", "pol", "schema", "refs", "contains"), [
    ("passed check", policy({"expression": "object.foo == 'bar'"}), FOO_STRING, [], ""),
    ("undefined field", policy({"expression": "object.foo == 'bar'"}), crd({"bar": {"type": "string"}}),
     ["spec.validations[0].expression"], "undefined field 'foo'"),
    ("field type mismatch", policy({"expression": "object.foo == 'bar'"}), FOO_INT,
     ["spec.validations[0].expression"], "found no matching overload"),
    ("params", policy({"expression": "object.foo == params.bar"},
                      paramKind={"apiVersion": "v1", "kind": "DoesNotMatter"}), FOO_STRING,
     ["spec.validations[0].expression"], "undeclared reference to 'params'"),
    ("multiple expressions", policy({"expression": "object.foo == 'bar'"}, {"expression": "object.bar == 'foo'"}),
     FOO_STRING, ["spec.validations[1].expression"], ""),
    ("message expressions", policy({"expression": "object.foo == 'bar'", "messageExpression": "object.foo + 114514"}),
     FOO_STRING, ["spec.validations[0].messageExpression"], ""),
    ("authorizer", policy({"expression": "authorizer.group('').resource('endpoints').check('create').allowed()"}),
     FOO_STRING, [], ""),
    ("authorizer invalid", policy({"expression": "authorizer.allowed()"}), FOO_STRING,
     ["spec.validations[0].expression"],
     "found no matching overload for 'allowed' applied to 'kubernetes.authorization.Authorizer"),
    ("variables valid", policy({"expression": "variables.works"}, variables=[{"name": "works", "expression": "true"}]),
     FOO_STRING, [], ""),
    ("variables missing field", policy({"expression": "variables.nonExisting"},
                                       variables=[{"name": "works", "expression": "true"}]),
     FOO_STRING, ["spec.validations[0].expression"], "undefined field 'nonExisting'"),
    ("variables field wrong type", policy({"expression": "variables.name == object.foo"},
                                          variables=[{"name": "name", "expression": "'something'"}]),
     FOO_INT, ["spec.validations[0].expression"], "found no matching overload for '_==_' applied to '(string, int)"),
    ("error in variables, not reported", policy({"expression": "variables.name == object.foo"},
                                                variables=[{"name": "name", "expression": "object.foo == 'str'"}]),
     FOO_INT, [], ""),
])
def test_type_check(release: str, name: str, pol: dict[str, Any], schema: dict[str, Any], refs: list[str],
                    contains: str) -> None:
    warnings = type_check(pol, resolve_release(release), [schema])
    assert [w["fieldRef"] for w in warnings] == refs
    for w in warnings:
        assert w["warning"].startswith("example.com/v1, Kind=Deployment: ERROR: <input>:")
        assert contains in w["warning"]


def test_wildcards_and_unknown_kinds_are_not_checked() -> None:
    pol = policy({"expression": "object.nope"})
    pol["spec"]["matchConstraints"]["resourceRules"][0]["apiGroups"] = ["*"]
    assert type_check(pol, resolve_release("1.34"), [FOO_STRING]) == []
    assert type_check(policy({"expression": "object.nope"}), resolve_release("1.34"), []) == []


def test_built_in_kinds_are_checked_against_the_release_definitions() -> None:
    """typesToCheck (v0.34.0 TestExtractTypeNames "specific"): apps/v1 deployments resolves to Deployment; the
    warning names the GVK as ``schema.GroupVersionKind.String()`` (``/v1, Kind=Pod`` for the core group)."""
    pol = policy({"expression": "object.spec.replicas > 1 && object.spec.replicaz == 1"},
                 paramKind={"apiVersion": "v1", "kind": "ConfigMap"})
    pol["spec"]["matchConstraints"]["resourceRules"] = [
        {"apiGroups": ["apps"], "apiVersions": ["v1"], "operations": ["CREATE"], "resources": ["deployments"]},
        {"apiGroups": [""], "apiVersions": ["v1"], "operations": ["CREATE"], "resources": ["pods"]}]
    warnings = type_check(pol, resolve_release("1.34"), [])
    assert len(warnings) == 1
    parts = warnings[0]["warning"].split("\n\n")
    assert parts[0].startswith("/v1, Kind=Pod: ERROR: <input>:1:12: undefined field 'replicas'")
    assert parts[1].startswith("apps/v1, Kind=Deployment: ERROR: <input>:1:40: undefined field 'replicaz'")
    ok = policy({"expression": "object.spec.template.spec.containers.all(c, c.image != '') && "
                               "params.data.x == 'y' && object.metadata.labels['a'] == 'b'"},
                paramKind={"apiVersion": "v1", "kind": "ConfigMap"})
    ok["spec"]["matchConstraints"]["resourceRules"][0].update(apiGroups=["apps"], resources=["deployments"])
    assert type_check(ok, resolve_release("1.30"), []) == []
