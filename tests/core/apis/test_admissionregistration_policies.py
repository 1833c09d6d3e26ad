"""ValidatingAdmissionPolicy, MutatingAdmissionPolicy and their bindings: the apiserver's native validation on create.

Upstream's tables, kubernetes/kubernetes ``pkg/apis/admissionregistration/validation/validation_test.go``
``TestValidateValidatingAdmissionPolicy``, ``TestValidateValidatingAdmissionPolicyBinding``,
``TestValidateMutatingAdmissionPolicy`` and ``TestValidateMutatingAdmissionPolicyBinding``, as openshift/microshift
holds them at ``release-4.18`` (v1.31: no MutatingAdmissionPolicy yet, ``%#v`` bad values, the binding's
``spec.matchResouces``), ``release-4.20`` (v1.33: "name is not a valid CEL identifier") and ``release-4.22`` (v1.35;
``release-4.21`` and ``release-4.23`` hold the same cases), transcribed to JSON by ``data/port_policy_cases.py``.
Each table runs at the releases whose validation.go it was written against, and is compared as upstream does: the
``errs.ToAggregate().Error()`` text contains the expected text, and an empty expectation means no error at all.
Upstream validates the internal object, not defaulted: so do these. The tests below the tables pin whole error
lists derived from validation.go @release-4.23 (and @release-4.18 / @release-4.20 where a release differs).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from crdtool.core.apis.admissionregistration.defaults import default_binding, default_policy
from crdtool.core.apis.admissionregistration.validation import (
    validate_binding,
    validate_mutating_policy,
    validate_policy,
)
from crdtool.core.errors import errors_at_release
from crdtool.core.releases import Release, resolve_release
from tests.core.apis._create import create

TABLES = json.loads((Path(__file__).parent / "data" / "admissionregistration_policy_cases.json").read_text("utf-8"))
#: table -> the releases whose validation.go it was written against (1.37 is judged as 1.36)
RELEASES = {"release-4.18": ("1.30", "1.31"), "release-4.20": ("1.32", "1.33"),
            "release-4.22": ("1.34", "1.35", "1.36", "1.37")}
VALIDATORS: dict[str, Callable[[dict[str, Any], Release], list[Any]]] = {
    "ValidatingAdmissionPolicy": validate_policy,
    "ValidatingAdmissionPolicyBinding": lambda o, r: validate_binding(o, r),
    "MutatingAdmissionPolicy": validate_mutating_policy,
    "MutatingAdmissionPolicyBinding": lambda o, r: validate_binding(o, r, mutating=True),
}
DNS1035 = ("a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic "
           "character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for "
           "validation is '[a-z]([-a-z0-9]*[a-z0-9])?')")
RULE = {"apiGroups": ["a"], "apiVersions": ["a"], "operations": ["CREATE"], "resources": ["a"]}
MATCH = {"matchPolicy": "Exact", "namespaceSelector": {}, "objectSelector": {}, "resourceRules": [RULE]}


def aggregate(errs: list[Any]) -> str:
    """``field.ErrorList.ToAggregate().Error()``: "" for none, one message alone, several as ``[a, b]`` (each once)."""
    msgs = list(dict.fromkeys(str(e) for e in errs))
    return "" if not msgs else msgs[0] if len(msgs) == 1 else "[" + ", ".join(msgs) + "]"


def messages(errs: list[Any], release: Release) -> list[str]:
    return [str(e) for e in errors_at_release(errs, release)]


@pytest.mark.parametrize(("table", "release", "kind"), [
    (table, release, kind) for table, releases in RELEASES.items() for release in releases for kind in TABLES[table]])
def test_upstream_table(table: str, release: str, kind: str) -> None:
    rel = resolve_release(release)
    failures = []
    for case in TABLES[table][kind]:
        got = aggregate(errors_at_release(VALIDATORS[kind](case["object"] or {}, rel), rel))
        expected = case["expectedError"]
        if not ((expected == "" and got == "") or (expected != "" and expected in got)):
            failures.append(f"{case['name']}: expected {expected!r}, got {got!r}")
    assert failures == []
    assert len(TABLES[table][kind]) >= 18


def test_tables_are_whole() -> None:
    """The number of cases of each upstream table (counted in the Go files)."""
    assert {t: {k: len(v) for k, v in kinds.items()} for t, kinds in TABLES.items()} == {
        "release-4.18": {"ValidatingAdmissionPolicy": 43, "ValidatingAdmissionPolicyBinding": 19},
        "release-4.20": {"ValidatingAdmissionPolicy": 43, "ValidatingAdmissionPolicyBinding": 19,
                         "MutatingAdmissionPolicy": 37, "MutatingAdmissionPolicyBinding": 18},
        "release-4.22": {"ValidatingAdmissionPolicy": 43, "ValidatingAdmissionPolicyBinding": 19,
                         "MutatingAdmissionPolicy": 37, "MutatingAdmissionPolicyBinding": 18},
    }


# --- whole error lists, in upstream's order (validation.go @release-4.23 unless said) -----------------------


def test_empty_policies_in_order() -> None:
    rel = resolve_release("1.36")
    assert messages(validate_policy({"metadata": {"name": "p"}, "spec": {"matchConstraints": {}}}, rel), rel) == [
        "spec.failurePolicy: Required value",
        "spec.matchConstraints.matchPolicy: Required value",
        "spec.matchConstraints.namespaceSelector: Required value",
        "spec.matchConstraints.objectSelector: Required value",
        "spec.matchConstraints.resourceRules: Required value",
        "spec.validations: Required value: validations or auditAnnotations must contain at least one item",
        "spec.auditAnnotations: Required value: validations or auditAnnotations must contain at least one item",
    ]
    assert messages(validate_mutating_policy({"metadata": {"name": "p"}}, rel), rel) == [
        "spec.failurePolicy: Required value",
        "spec.matchConstraints: Required value",
        "spec.mutations: Required value: mutations must contain at least one item",
        "spec.reinvocationPolicy: Required value",
    ]
    assert messages(validate_binding({"metadata": {"name": "b"}}, rel), rel) == [
        "spec.policyName: Required value",
        "spec.validationActions: Required value: at least one validation action is required",
    ]
    assert messages(validate_binding({"metadata": {}}, rel, mutating=True), rel) == [
        "metadata.name: Required value: name or generateName is required",
        "spec.policyName: Required value",
    ]


def test_param_kind() -> None:
    rel = resolve_release("1.36")

    def errs(param_kind: dict[str, Any]) -> list[str]:
        spec = {"failurePolicy": "Fail", "paramKind": param_kind, "matchConstraints": MATCH,
                "validations": [{"expression": "true"}]}
        return messages(validate_policy({"metadata": {"name": "p"}, "spec": spec}, rel), rel)

    assert errs({}) == ["spec.paramKind.apiVersion: Required value", "spec.paramKind.kind: Required value"]
    assert errs({"apiVersion": "a/b/c", "kind": "K"}) == [
        'spec.paramKind.apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c']
    assert errs({"apiVersion": "example.com/", "kind": "K"}) == [
        'spec.paramKind.apiVersion: Invalid value: "example.com/": version must be specified']
    assert errs({"apiVersion": "v1", "kind": "Config_Map"}) == [
        f'spec.paramKind.kind: Invalid value: "Config_Map": may have mixed case, but should otherwise match: {DNS1035}']
    assert errs({"apiVersion": "example.com/V1", "kind": "ConfigMap"}) == [
        f'spec.paramKind.apiVersion: Invalid value: "V1": {DNS1035}']


def test_match_resources_rules_and_selectors() -> None:
    rel = resolve_release("1.36")
    match = {**MATCH, "matchPolicy": "Nope",
             "namespaceSelector": {"matchExpressions": [{"key": "env", "operator": "In"}]},
             "resourceRules": [{**RULE, "resourceNames": ["a/b", "x", "x"], "scope": "Cluster"}],
             "excludeResourceRules": [{**RULE, "operations": ["DELETE"]}]}
    spec = {"failurePolicy": "Fail", "matchConstraints": match, "validations": [{"expression": "true"}]}
    assert messages(validate_policy({"metadata": {"name": "p"}, "spec": spec}, rel), rel) == [
        'spec.matchConstraints.matchPolicy: Unsupported value: "Nope": supported values: "Equivalent", "Exact"',
        "spec.matchConstraints.namespaceSelector.matchExpressions[0].values: Required value: must be specified when "
        "`operator` is 'In' or 'NotIn'",
        "spec.matchConstraints.resourceRules[0].resourceNames[0]: Invalid value: \"a/b\": may not contain '/'",
        'spec.matchConstraints.resourceRules[0].resourceNames[2]: Duplicate value: "x"',
    ]
    # a MutatingAdmissionPolicy cannot match DELETE: reported without an index; exclusions are not checked
    mutating = {"failurePolicy": "Fail", "reinvocationPolicy": "Never",
                "matchConstraints": {**MATCH, "resourceRules": [{**RULE, "operations": ["DELETE", "CREATE"]}],
                                     "excludeResourceRules": [{**RULE, "operations": ["DELETE"]}]},
                "mutations": [{"patchType": "ApplyConfiguration", "applyConfiguration": {"expression": "Object{}"},
                               "jsonPatch": {"expression": "[]"}}]}
    assert messages(validate_mutating_policy({"metadata": {"name": "p"}, "spec": mutating}, rel), rel) == [
        'spec.matchConstraints.resourceRules.operations: Unsupported value: "DELETE": supported values: "*", '
        '"CONNECT", "CREATE", "UPDATE"',
        'spec.mutations[0].jsonPatch: Invalid value: "{jsonPatch}": must not be specified when patchType is '
        "ApplyConfiguration",
    ]


def test_mutations_and_reinvocation() -> None:
    rel = resolve_release("1.36")
    spec = {"failurePolicy": "Fail", "reinvocationPolicy": "Sometimes", "matchConstraints": MATCH,
            "variables": [{"name": "4ever", "expression": "1"}, {"name": "", "expression": " "}],
            "mutations": [{}, {"patchType": "JSONPatch", "applyConfiguration": {"expression": "Object{}"}},
                          {"patchType": "ApplyConfiguration", "applyConfiguration": {"expression": "  "}}]}
    assert messages(validate_mutating_policy({"metadata": {"name": "p"}, "spec": spec}, rel), rel) == [
        'spec.variables[0].name: Invalid value: "4ever": must be a valid CEL identifier',
        "spec.variables[1].name: Required value: name is not specified",
        "spec.variables[1].expression: Required value: expression is not specified",
        "spec.mutations[0].patchType: Required value",
        "spec.mutations[1].jsonPatch: Required value: must be specified when patchType is JSONPatch",
        'spec.mutations[1].applyConfiguration: Invalid value: "{applyConfiguration}": must not be specified when '
        "patchType is JSONPatch",
        "spec.mutations[2].applyConfiguration.expression: Required value",
        'spec.reinvocationPolicy: Unsupported value: "Sometimes": supported values: "IfNeeded", "Never"',
    ]
    # release-4.20 (1.33): validateVariable's older words
    rel = resolve_release("1.33")
    assert messages(validate_mutating_policy({"metadata": {"name": "p"}, "spec": spec}, rel), rel)[0] == (
        'spec.variables[0].name: Invalid value: "4ever": name is not a valid CEL identifier')


def test_param_ref() -> None:
    rel = resolve_release("1.36")

    def errs(param_ref: dict[str, Any]) -> list[str]:
        spec = {"policyName": "p", "validationActions": ["Deny"], "paramRef": param_ref}
        return messages(validate_binding({"metadata": {"name": "b"}, "spec": spec}, rel), rel)

    assert errs({"name": "a/b", "selector": {"matchLabels": {"a": "b"}}}) == [
        "spec.paramRef.name: Invalid value: \"a/b\": may not contain '/'",
        "spec.paramRef.name: Forbidden: name and selector are mutually exclusive",
        "spec.paramRef.selector: Forbidden: name and selector are mutually exclusive",
        "spec.paramRef.parameterNotFoundAction: Required value",
    ]
    assert errs({"namespace": "ns", "parameterNotFoundAction": "Maybe"}) == [
        "spec.paramRef: Required value: one of name or selector must be specified",
        'spec.paramRef.parameterNotFoundAction: Unsupported value: "Maybe": supported values: "Deny", "Allow"',
    ]
    assert errs({"selector": {}, "parameterNotFoundAction": "Allow"}) == []


@pytest.mark.parametrize(("release", "bad_value"), [
    ("1.33", '[]admissionregistration.ValidationAction{"Deny", "Warn", "Deny", "Nope"}'),  # %#v (release-4.20)
    ("1.34", '["Deny","Warn","Deny","Nope"]'),  # JSON from 1.34 (release-4.21)
])
def test_validation_actions(release: str, bad_value: str) -> None:
    rel = resolve_release(release)
    spec = {"policyName": "p", "validationActions": ["Deny", "Warn", "Deny", "Nope"]}
    assert messages(validate_binding({"metadata": {"name": "b"}, "spec": spec}, rel), rel) == [
        'spec.validationActions[2]: Duplicate value: "Deny"',
        'spec.validationActions[3]: Unsupported value: "Nope": supported values: "Audit", "Deny", "Warn"',
        f"spec.validationActions: Invalid value: {bad_value}: must not contain both Deny and Warn (repeating the same "
        "validation failure information in the API response and headers serves no purpose)",
    ]


@pytest.mark.parametrize(("release", "field"), [("1.30", "matchResouces"), ("1.31", "matchResouces"),
                                                ("1.32", "matchResources"), ("1.37", "matchResources")])
def test_binding_match_resources_path_by_release(release: str, field: str) -> None:
    """release-4.17 / release-4.18 report a ValidatingAdmissionPolicyBinding's matchResources as
    ``spec.matchResouces`` (sic); release-4.19 fixed it. Bindings need no resourceRules."""
    rel = resolve_release(release)
    spec = {"policyName": "p", "validationActions": ["Deny"], "matchResources": {"namespaceSelector": {}}}
    assert messages(validate_binding({"metadata": {"name": "b"}, "spec": spec}, rel), rel) == [
        f"spec.{field}.matchPolicy: Required value", f"spec.{field}.objectSelector: Required value"]
    if rel.minor >= 32:
        spec = {"policyName": "p", "matchResources": {**MATCH, "resourceRules": [{**RULE, "operations": ["DELETE"]}]}}
        assert messages(validate_binding({"metadata": {"name": "b"}, "spec": spec}, rel, mutating=True), rel) == [
            'spec.matchResources.resourceRules.operations: Unsupported value: "DELETE": supported values: "*", '
            '"CONNECT", "CREATE", "UPDATE"']


def test_defaults() -> None:
    """``SetDefaults_MutatingAdmissionPolicySpec`` sets only failurePolicy (v1alpha1, v1beta1, v1 @release-4.23), so
    reinvocationPolicy stays Required; v1alpha1's ``SetDefaults_ParamRef`` (only there) sets Deny."""
    rel = resolve_release("1.36")
    policy = default_policy({"metadata": {"name": "p"}, "spec": {"matchConstraints": {"resourceRules": [RULE]},
                                                                 "mutations": [{"patchType": "ApplyConfiguration",
                                                                                "applyConfiguration": {"expression": "Object{}"}}]}},
                            mutating=True)
    assert policy["spec"]["failurePolicy"] == "Fail" and "reinvocationPolicy" not in policy["spec"]
    assert policy["spec"]["matchConstraints"]["resourceRules"][0]["scope"] == "*"
    assert messages(validate_mutating_policy(policy, rel), rel) == ["spec.reinvocationPolicy: Required value"]
    binding = {"metadata": {"name": "b"}, "spec": {"policyName": "p", "paramRef": {"name": "x"}}}
    alpha = default_binding({"apiVersion": "admissionregistration.k8s.io/v1alpha1", **binding})
    assert alpha["spec"]["paramRef"]["parameterNotFoundAction"] == "Deny"
    assert validate_binding(alpha, resolve_release("1.33"), mutating=True) == []
    beta = default_binding({"apiVersion": "admissionregistration.k8s.io/v1beta1", **binding})
    assert messages(validate_binding(beta, rel, mutating=True), rel) == [
        "spec.paramRef.parameterNotFoundAction: Required value"]


def test_audit_annotations_over_twenty_by_release() -> None:
    """``field.Invalid(..., spec.AuditAnnotations, ...)``: the internal ``[]AuditAnnotation`` (no json tags) as
    ``%#v`` before 1.34 and as JSON with the Go field names from 1.34 (apimachinery field/errors.go v0.34.0)."""
    spec = {"failurePolicy": "Fail", "matchConstraints": MATCH,
            "auditAnnotations": [{"key": f"k{i}", "valueExpression": "'v'"} for i in range(21)]}
    policy = {"metadata": {"name": "p"}, "spec": spec}
    rel = resolve_release("1.33")
    old = messages(validate_policy(policy, rel), rel)
    assert len(old) == 1 and old[0].startswith(
        "spec.auditAnnotations: Invalid value: []admissionregistration.AuditAnnotation{admissionregistration."
        "AuditAnnotation{Key:\"k0\", ValueExpression:\"'v'\"}, ")
    assert old[0].endswith("ValueExpression:\"'v'\"}}: must not have more than 20 auditAnnotations")
    rel = resolve_release("1.34")
    new = messages(validate_policy(policy, rel), rel)
    assert len(new) == 1 and new[0].startswith(
        "spec.auditAnnotations: Invalid value: [{\"Key\":\"k0\",\"ValueExpression\":\"'v'\"},{\"Key\":\"k1\",")
    assert new[0].endswith("\"ValueExpression\":\"'v'\"}]: must not have more than 20 auditAnnotations")


@pytest.mark.parametrize("kind", ["ValidatingAdmissionPolicy", "ValidatingAdmissionPolicyBinding",
                                  "MutatingAdmissionPolicy", "MutatingAdmissionPolicyBinding"])
@pytest.mark.parametrize(("release", "errors", "warnings"), [
    ("1.35", [], []),
    ("1.36", [], ['metadata.name: names ending with ".static.k8s.io" are reserved for static manifest-based '
                  "configurations and cannot be managed via the API"]),
    ("1.37", ['metadata.name: Invalid value: "a.static.k8s.io": names ending with ".static.k8s.io" are reserved for '
              "static manifest-based configurations and cannot be managed via the API"], []),
])
def test_create_strategy(kind: str, release: str, errors: list[str], warnings: list[str]) -> None:
    """The strategies (``pkg/registry/admissionregistration/<kind>/strategy.go`` @release-4.23): the create path
    defaults the policy (v1 defaults.go), sets generation 1 (and clears a ValidatingAdmissionPolicy's status),
    validates, and checks the ``.static.k8s.io`` suffix: a warning in 1.36 (gate ManifestBasedAdmissionControlConfig
    off), an error in 1.37 (on, k8s.io/apiserver v0.37.0-beta.0)."""
    if kind.startswith("Mutating") and release == "1.35":
        release = "1.36"  # v1 from 1.36
        warnings = ['metadata.name: names ending with ".static.k8s.io" are reserved for static manifest-based '
                    "configurations and cannot be managed via the API"]
    spec: dict[str, Any] = {
        "ValidatingAdmissionPolicy": {"matchConstraints": {"resourceRules": [RULE]},
                                      "validations": [{"expression": "true"}]},
        "ValidatingAdmissionPolicyBinding": {"policyName": "p", "validationActions": ["Deny"],
                                             "matchResources": {"resourceRules": [RULE]}},
        "MutatingAdmissionPolicy": {"matchConstraints": {"resourceRules": [RULE]}, "reinvocationPolicy": "Never",
                                    "mutations": [{"patchType": "ApplyConfiguration",
                                                   "applyConfiguration": {"expression": "Object{}"}}]},
        "MutatingAdmissionPolicyBinding": {"policyName": "p"},
    }[kind]
    obj = {"apiVersion": "admissionregistration.k8s.io/v1", "kind": kind,
           "metadata": {"name": "a.static.k8s.io"}, "spec": spec, "status": {"x": 1}}
    errs, warns, stored = create(obj, release)
    assert ([str(e) for e in errs], warns) == (errors, warnings)
    assert stored["metadata"]["generation"] == 1
    if kind == "ValidatingAdmissionPolicy":
        assert stored["status"] == {}
    if kind in ("ValidatingAdmissionPolicy", "MutatingAdmissionPolicy"):
        assert stored["spec"]["failurePolicy"] == "Fail"
        assert stored["spec"]["matchConstraints"] == {"matchPolicy": "Equivalent", "namespaceSelector": {},
                                                      "objectSelector": {}, "resourceRules": [{**RULE, "scope": "*"}]}
