"""Create-time checks of policies and bindings: kubernetes ``pkg/apis/admissionregistration/validation/validation.go``
(``validateValidatingAdmissionPolicySpec``, ``validateValidation``, ``validateVariable``, ``validateMatchCondition``
with the stateless compiler, ``validateValidationActions``, ``validateParamRef``), read at the master of 2026 in
the search index and at openshift/microshift release-4.20 / release-4.21 (1.33 / 1.34) for the words that changed
in 1.34; the CEL texts are cel-go's."""

from __future__ import annotations

from typing import Any

from crdtool.core.admission.policy.create import default_binding, default_policy, validate_binding, validate_policy
from crdtool.core.releases import resolve_release

RULES = {"resourceRules": [{"apiGroups": ["apps"], "apiVersions": ["v1"], "operations": ["CREATE"],
                            "resources": ["deployments"]}]}


def errors(spec: dict[str, Any], name: str = "p", release: str = "1.34") -> list[str]:
    pol = default_policy({"metadata": {"name": name}, "spec": {"matchConstraints": RULES, **spec}})
    return [str(e) for e in validate_policy(pol, resolve_release(release))]


def test_needs_validations_or_audit_annotations() -> None:
    assert errors({}) == [
        "spec.validations: Required value: validations or auditAnnotations must contain at least one item",
        "spec.auditAnnotations: Required value: validations or auditAnnotations must contain at least one item"]


def test_variables_exist_only_in_a_composited_policy() -> None:
    got = errors({"validations": [{"expression": "variables.x"}]})
    assert got[0].startswith('spec.validations[0].expression: Invalid value: "variables.x": compilation failed: '
                             "ERROR: <input>:1:1: undeclared reference to 'variables'")
    assert errors({"variables": [{"name": "x", "expression": "true"}],
                   "validations": [{"expression": "variables.x"}]}) == []
    got = errors({"variables": [{"name": "x", "expression": "true"}], "validations": [{"expression": "true"}],
                  "matchConditions": [{"name": "m", "expression": "variables.x"}]})
    assert got[0].startswith('spec.matchConditions[0].expression: Invalid value: "variables.x": compilation failed: '
                             "ERROR: <input>:1:1: undeclared reference to 'variables'")


def test_field_checks() -> None:
    got = errors({"variables": [{"name": "in", "expression": " "}],
                  "validations": [{"expression": "true", "message": "a\nb", "reason": "Teapot",
                                   "messageExpression": "1"}]})
    assert got == [
        'spec.variables[0].name: Invalid value: "in": must be a valid CEL identifier',
        "spec.variables[0].expression: Required value: expression is not specified",
        'spec.validations[0].messageExpression: Invalid value: "1": must evaluate to string but got int',
        'spec.validations[0].message: Invalid value: "a\\nb": must not contain line breaks',
        'spec.validations[0].reason: Unsupported value: "Teapot": supported values: "Forbidden", "Invalid", '
        '"RequestEntityTooLarge"',
    ]


def test_words_before_1_34_and_reasons() -> None:
    """validation.go @release-4.20 (1.33): ``name is not a valid CEL identifier``, ``message must not contain line
    breaks`` (1.34, release-4.21, drops the subject); ``supportedValidationPolicyReason`` is Forbidden, Invalid,
    RequestEntityTooLarge in every release 1.30 … 1.36 (Unauthorized, which the API's docs list, is refused)."""
    got = errors({"variables": [{"name": "in", "expression": "true"}],
                  "validations": [{"expression": "true", "message": "a\nb", "reason": "Unauthorized"}]}, release="1.33")
    assert got == [
        'spec.variables[0].name: Invalid value: "in": name is not a valid CEL identifier',
        'spec.validations[0].message: Invalid value: "a\\nb": message must not contain line breaks',
        'spec.validations[0].reason: Unsupported value: "Unauthorized": supported values: "Forbidden", "Invalid", '
        '"RequestEntityTooLarge"',
    ]


def test_binding_checks() -> None:
    def berr(spec: dict[str, Any]) -> list[str]:
        return [str(e) for e in validate_binding(default_binding({"metadata": {"name": "b"}, "spec": spec}), resolve_release("1.36"))]

    assert berr({"policyName": "p", "validationActions": ["Deny", "Deny"]}) == [
        'spec.validationActions[1]: Duplicate value: "Deny"']
    assert berr({"policyName": "p", "paramRef": {"name": "x", "selector": {}}, "validationActions": ["Audit"]}) == [
        "spec.paramRef.name: Forbidden: name and selector are mutually exclusive",
        "spec.paramRef.selector: Forbidden: name and selector are mutually exclusive",
        "spec.paramRef.parameterNotFoundAction: Required value"]
    assert berr({"policyName": "p"}) == ["spec.validationActions: Required value: at least one validation action is "
                                         "required"]
