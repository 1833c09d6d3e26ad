"""A ValidatingAdmissionPolicy or binding at create: defaults and the checks the apiserver makes.

Mirrors kubernetes ``pkg/apis/admissionregistration/v1/defaults.go`` (``SetDefaults_ValidatingAdmissionPolicySpec``,
``SetDefaults_MatchResources``, ``SetDefaults_NamedRuleWithOperations``) and the CEL part of
``pkg/apis/admissionregistration/validation/validation.go`` (``validateValidatingAdmissionPolicySpec``: every
expression compiled in the policy environment of the release's ``NewExpressions``, its error as
``convertCELErrorToValidationError`` reports it: ``Invalid`` with the expression as the value, ``InternalError``
otherwise), plus the required fields a policy cannot do without. The rest of the native validation (names,
rule shapes, selector syntax) is not ported yet.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from crdtool.core.celgo import types as T
from crdtool.core.errors import FieldError, internal_error, invalid, required
from crdtool.core.kubecel.admission import PolicyCompilation, PolicyEnvironment
from crdtool.core.releases import Release

__all__ = ["default_binding", "default_policy", "validate_binding", "validate_mutating_policy", "validate_policy"]


def _default_match_resources(mr: dict[str, Any]) -> None:
    mr.setdefault("matchPolicy", "Equivalent")
    if mr.get("namespaceSelector") is None:
        mr["namespaceSelector"] = {}
    if mr.get("objectSelector") is None:
        mr["objectSelector"] = {}
    for key in ("resourceRules", "excludeResourceRules"):
        for rule in mr.get(key) or []:
            if isinstance(rule, dict) and rule.get("scope") is None:
                rule["scope"] = "*"


def default_policy(policy: Mapping[str, Any], mutating: bool = False) -> dict[str, Any]:
    """The policy with v1 defaults: ``failurePolicy: Fail``, matchConstraints' ``matchPolicy: Equivalent``,
    empty selectors, rule scope ``*``; a MutatingAdmissionPolicy's ``reinvocationPolicy: Never``. Not modified
    in place."""
    out = copy.deepcopy(dict(policy))
    spec = out.setdefault("spec", {})
    if isinstance(spec, dict):
        spec.setdefault("failurePolicy", "Fail")
        if mutating:
            spec.setdefault("reinvocationPolicy", "Never")
        mc = spec.get("matchConstraints")
        if isinstance(mc, dict):
            _default_match_resources(mc)
    return out


def default_binding(binding: Mapping[str, Any]) -> dict[str, Any]:
    """The binding with v1 defaults (its matchResources as a policy's matchConstraints)."""
    out = copy.deepcopy(dict(binding))
    spec = out.setdefault("spec", {})
    if isinstance(spec, dict) and isinstance(spec.get("matchResources"), dict):
        _default_match_resources(spec["matchResources"])
    return out


def _cel_error(path: str, result: PolicyCompilation) -> FieldError:
    """``convertCELErrorToValidationError``."""
    if result.error_type == "Invalid":
        return invalid(path, result.expression, result.error)
    return internal_error(path, result.error)


def validate_policy(policy: Mapping[str, Any], release: Release) -> list[FieldError]:
    """The create-time errors of a (defaulted) ValidatingAdmissionPolicy, in upstream's field order."""
    spec = policy.get("spec")
    if not isinstance(spec, Mapping):
        return [required("spec")]
    errs: list[FieldError] = []
    if spec.get("failurePolicy") not in ("Fail", "Ignore"):
        from crdtool.core.errors import not_supported

        errs.append(not_supported("spec.failurePolicy", spec.get("failurePolicy"), ["Fail", "Ignore"]))
    mc = spec.get("matchConstraints")
    if mc is None:
        errs.append(required("spec.matchConstraints"))
    elif not (mc.get("resourceRules") or []):
        errs.append(required("spec.matchConstraints.resourceRules"))
    if not (spec.get("validations") or []) and not (spec.get("auditAnnotations") or []):
        errs.append(required("spec.validations", "validations or auditAnnotations must contain at least one item"))
    has_params = spec.get("paramKind") is not None
    variables: list[tuple[str, T.Type | None]] = []
    for i, var in enumerate(spec.get("variables") or []):
        env = PolicyEnvironment(release, has_params, True, False, tuple(variables))
        expr = str(var.get("expression") or "")
        if not expr.strip():
            errs.append(required(f"spec.variables[{i}].expression"))
            variables.append((str(var.get("name") or ""), None))
            continue
        r = env.compile(expr, (T.ANY,))
        if r.error:
            errs.append(_cel_error(f"spec.variables[{i}].expression", r))
        variables.append((str(var.get("name") or ""), r.output_type))
    env = PolicyEnvironment(release, has_params, True, False, tuple(variables))
    msg_env = PolicyEnvironment(release, has_params, False, False, tuple(variables))
    for i, v in enumerate(spec.get("validations") or []):
        expr = str(v.get("expression") or "")
        if not expr.strip():
            errs.append(required(f"spec.validations[{i}].expression"))
        else:
            r = env.compile(expr, (T.BOOL,))
            if r.error:
                errs.append(_cel_error(f"spec.validations[{i}].expression", r))
        msg = v.get("messageExpression")
        if msg:
            r = msg_env.compile(str(msg), (T.STRING,))
            if r.error:
                errs.append(_cel_error(f"spec.validations[{i}].messageExpression", r))
    for i, a in enumerate(spec.get("auditAnnotations") or []):
        r = env.compile(str(a.get("valueExpression") or ""), (T.STRING, T.NULL))
        if r.error:
            errs.append(_cel_error(f"spec.auditAnnotations[{i}].valueExpression", r))
    for i, m in enumerate(spec.get("matchConditions") or []):
        r = env.compile(str(m.get("expression") or ""), (T.BOOL,))
        if r.error:
            errs.append(_cel_error(f"spec.matchConditions[{i}].expression", r))
    return errs


def validate_binding(binding: Mapping[str, Any], mutating: bool = False) -> list[FieldError]:
    """The create-time errors of a (defaulted) binding that the chain depends on (``validationActions`` only for
    a ValidatingAdmissionPolicyBinding)."""
    spec = binding.get("spec")
    if not isinstance(spec, Mapping):
        return [required("spec")]
    errs: list[FieldError] = []
    if not spec.get("policyName"):
        errs.append(required("spec.policyName"))
    actions = spec.get("validationActions") or []
    if not actions and not mutating:
        errs.append(required("spec.validationActions"))
    pr = spec.get("paramRef")
    if isinstance(pr, Mapping) and pr.get("parameterNotFoundAction") is None:
        errs.append(required("spec.paramRef.parameterNotFoundAction"))
    return errs


def validate_mutating_policy(policy: Mapping[str, Any], release: Release) -> list[FieldError]:
    """The create-time errors of a (defaulted) MutatingAdmissionPolicy: required fields, and every expression
    compiled (``mutations[i].applyConfiguration.expression`` to an ``Object``, ``jsonPatch.expression`` to a
    ``list(JSONPatch)``) in the release's ``NewExpressions`` policy environment."""
    spec = policy.get("spec")
    if not isinstance(spec, Mapping):
        return [required("spec")]
    errs: list[FieldError] = []
    if spec.get("failurePolicy") not in ("Fail", "Ignore"):
        from crdtool.core.errors import not_supported

        errs.append(not_supported("spec.failurePolicy", spec.get("failurePolicy"), ["Fail", "Ignore"]))
    mc = spec.get("matchConstraints")
    if mc is None:
        errs.append(required("spec.matchConstraints"))
    elif not (mc.get("resourceRules") or []):
        errs.append(required("spec.matchConstraints.resourceRules"))
    if not (spec.get("mutations") or []):
        errs.append(required("spec.mutations", "mutations must contain at least one item"))
    has_params = spec.get("paramKind") is not None
    variables: list[tuple[str, T.Type | None]] = []
    for i, var in enumerate(spec.get("variables") or []):
        r = PolicyEnvironment(release, has_params, True, False, tuple(variables)).compile(
            str(var.get("expression") or ""), (T.ANY,))
        if r.error:
            errs.append(_cel_error(f"spec.variables[{i}].expression", r))
        variables.append((str(var.get("name") or ""), r.output_type))
    env = PolicyEnvironment(release, has_params, True, False, tuple(variables))
    patch_env = PolicyEnvironment(release, has_params, True, False, tuple(variables), has_patch_types=True)
    for i, m in enumerate(spec.get("matchConditions") or []):
        r = env.compile(str(m.get("expression") or ""), (T.BOOL,))
        if r.error:
            errs.append(_cel_error(f"spec.matchConditions[{i}].expression", r))
    for i, m in enumerate(spec.get("mutations") or []):
        pt = m.get("patchType")
        if pt == "ApplyConfiguration":
            ac = m.get("applyConfiguration")
            if not isinstance(ac, Mapping):
                errs.append(required(f"spec.mutations[{i}].applyConfiguration"))
                continue
            r = patch_env.compile(str(ac.get("expression") or ""), (T.object_type("Object"),))
            if r.error:
                errs.append(_cel_error(f"spec.mutations[{i}].applyConfiguration.expression", r))
        elif pt == "JSONPatch":
            jp = m.get("jsonPatch")
            if not isinstance(jp, Mapping):
                errs.append(required(f"spec.mutations[{i}].jsonPatch"))
                continue
            r = patch_env.compile(str(jp.get("expression") or ""), (T.list_of(T.object_type("JSONPatch")),))
            if r.error:
                errs.append(_cel_error(f"spec.mutations[{i}].jsonPatch.expression", r))
        else:
            from crdtool.core.errors import not_supported

            errs.append(not_supported(f"spec.mutations[{i}].patchType", pt, ["ApplyConfiguration", "JSONPatch"]))
    return errs
