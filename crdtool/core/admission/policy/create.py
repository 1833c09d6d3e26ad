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


_CEL_RESERVED = frozenset({"true", "false", "null", "in", "as", "break", "const", "continue", "else", "for", "function",
                           "if", "import", "let", "loop", "package", "namespace", "return", "var", "void", "while"})
_SUPPORTED_REASONS = ["Forbidden", "Invalid", "RequestEntityTooLarge", "Unauthorized"]
_MAX_AUDIT_ANNOTATIONS = 20
_MAX_AUDIT_VALUE_EXPRESSION_LENGTH = 5 * 1024


def _is_cel_identifier(name: str) -> bool:
    import re

    return re.fullmatch(r"[_a-zA-Z][_a-zA-Z0-9]*", name) is not None and name not in _CEL_RESERVED


def _go_trim(s: str) -> str:
    return s.strip(" \t\n\r\v\f\u0085\u00a0")


def _match_conditions(spec: Mapping[str, Any], release: Release, has_params: bool) -> list[FieldError]:
    """``validateMatchConditions`` (the stateless compiler: no ``variables``), shared with the webhook
    configurations: :func:`crdtool.core.apis.admissionregistration.validation.validate_match_conditions`."""
    from crdtool.core.apis.admissionregistration.validation import validate_match_conditions
    from crdtool.core.errors import Path

    return validate_match_conditions(list(spec.get("matchConditions") or []), Path("spec", "matchConditions"),
                                     release, has_params)


def validate_policy(policy: Mapping[str, Any], release: Release) -> list[FieldError]:
    """The create-time errors of a (defaulted) ValidatingAdmissionPolicy, in ``validateValidatingAdmissionPolicySpec``'s
    order: failurePolicy, matchConstraints, matchConditions, variables, validations (expression, messageExpression,
    message, reason) or the required validations/auditAnnotations pair, auditAnnotations. Expressions compile in
    the release's ``NewExpressions`` environment: composited (``variables`` declared) when the policy has variables;
    messageExpressions without the authorizer."""
    from crdtool.core.errors import duplicate, not_supported
    from crdtool.core.validation_util import is_qualified_name

    spec = policy.get("spec")
    if not isinstance(spec, Mapping):
        return [required("spec")]
    errs: list[FieldError] = []
    if spec.get("failurePolicy") is None:
        errs.append(required("spec.failurePolicy"))
    elif spec.get("failurePolicy") not in ("Fail", "Ignore"):
        errs.append(not_supported("spec.failurePolicy", spec.get("failurePolicy"), ["Fail", "Ignore"]))
    has_params = spec.get("paramKind") is not None
    mc = spec.get("matchConstraints")
    if mc is None:
        errs.append(required("spec.matchConstraints"))
    elif not (mc.get("resourceRules") or []):
        errs.append(required("spec.matchConstraints.resourceRules"))
    errs.extend(_match_conditions(spec, release, has_params))
    composition = bool(spec.get("variables"))
    variables: list[tuple[str, T.Type | None]] = []
    for i, var in enumerate(spec.get("variables") or []):
        path = f"spec.variables[{i}]"
        name = str(var.get("name") or "")
        if not _go_trim(name):
            errs.append(required(f"{path}.name", "name is not specified"))
        elif not _is_cel_identifier(name):
            errs.append(invalid(f"{path}.name", name, "name is not a valid CEL identifier"))
        expr = str(var.get("expression") or "")
        if not _go_trim(expr):
            errs.append(required(f"{path}.expression", "expression is not specified"))
            continue
        r = PolicyEnvironment(release, has_params, True, False, tuple(variables)).compile(expr, (T.ANY,))
        if r.error:
            errs.append(_cel_error(f"{path}.expression", r))
        variables.append((name, r.output_type))
    env = PolicyEnvironment(release, has_params, True, False, tuple(variables), composition=composition)
    msg_env = PolicyEnvironment(release, has_params, False, False, tuple(variables), composition=composition)
    validations = list(spec.get("validations") or [])
    audits = list(spec.get("auditAnnotations") or [])
    if not validations and not audits:
        errs.append(required("spec.validations", "validations or auditAnnotations must contain at least one item"))
        errs.append(required("spec.auditAnnotations", "validations or auditAnnotations must contain at least one item"))
        return errs
    for i, v in enumerate(validations):
        path = f"spec.validations[{i}]"
        expr = str(v.get("expression") or "")
        if not _go_trim(expr):
            errs.append(required(f"{path}.expression", "expression is not specified"))
        else:
            r = env.compile(expr, (T.BOOL,))
            if r.error:
                errs.append(_cel_error(f"{path}.expression", r))
        msg_expr = str(v.get("messageExpression") or "")
        if msg_expr and not _go_trim(msg_expr):
            errs.append(invalid(f"{path}.messageExpression", msg_expr, "must be non-empty if specified"))
        elif msg_expr:
            r = msg_env.compile(msg_expr, (T.STRING,))
            if r.error:
                errs.append(_cel_error(f"{path}.messageExpression", r))
        message = str(v.get("message") or "")
        if message and not _go_trim(message):
            errs.append(invalid(f"{path}.message", message, "message must be non-empty if specified"))
        elif "\n" in _go_trim(message) or "\r" in _go_trim(message):
            errs.append(invalid(f"{path}.message", message, "message must not contain line breaks"))
        reason = v.get("reason")
        if reason is not None and reason not in _SUPPORTED_REASONS:
            errs.append(not_supported(f"{path}.reason", reason, _SUPPORTED_REASONS))
    if audits:
        if len(audits) > _MAX_AUDIT_ANNOTATIONS:
            errs.append(invalid("spec.auditAnnotations", audits,
                                f"must not have more than {_MAX_AUDIT_ANNOTATIONS} auditAnnotations"))
        keys: set[str] = set()
        policy_name = str((policy.get("metadata") or {}).get("name") or "")
        for i, a in enumerate(audits):
            path = f"spec.auditAnnotations[{i}]"
            key = str(a.get("key") or "")
            if policy_name:
                errs.extend(invalid(f"{path}.key", f"{policy_name}/{key}", msg)
                            for msg in is_qualified_name(f"{policy_name}/{key}", release))
            else:
                errs.append(invalid(f"{path}.key", key, "requires metadata.name be non-empty"))
            value = _go_trim(str(a.get("valueExpression") or ""))
            if not value:
                errs.append(required(f"{path}.valueExpression", "valueExpression is not specified"))
            elif len(value.encode()) > _MAX_AUDIT_VALUE_EXPRESSION_LENGTH:
                errs.append(required(f"{path}.valueExpression",
                                     f"must not exceed {_MAX_AUDIT_VALUE_EXPRESSION_LENGTH} bytes in length"))
            else:
                r = env.compile(value, (T.STRING, T.NULL))
                if r.error:
                    errs.append(invalid(f"{path}.valueExpression", a.get("valueExpression"), r.error)
                                if r.error_type == "Invalid" else internal_error(f"{path}.valueExpression", r.error))
            if key in keys:
                errs.append(duplicate(f"{path}.key", key))
            keys.add(key)
    return errs


def validate_binding(binding: Mapping[str, Any], mutating: bool = False) -> list[FieldError]:
    """The create-time errors of a (defaulted) binding (``validateValidatingAdmissionPolicyBindingSpec``):
    policyName, paramRef, validationActions (only for a ValidatingAdmissionPolicyBinding)."""
    from crdtool.core.errors import duplicate, forbidden, not_supported
    from crdtool.core.validation_util import name_is_dns_subdomain

    spec = binding.get("spec")
    if not isinstance(spec, Mapping):
        return [required("spec")]
    errs: list[FieldError] = []
    name = str(spec.get("policyName") or "")
    if not name:
        errs.append(required("spec.policyName"))
    else:
        errs.extend(invalid("spec.policyName", name, msg) for msg in name_is_dns_subdomain(name, False))
    pr = spec.get("paramRef")
    if isinstance(pr, Mapping):
        if pr.get("name") and pr.get("selector") is not None:
            errs.append(forbidden("spec.paramRef.name", "name and selector are mutually exclusive"))
            errs.append(forbidden("spec.paramRef.selector", "name and selector are mutually exclusive"))
        if not pr.get("name") and pr.get("selector") is None:
            errs.append(required("spec.paramRef", "one of name or selector must be specified"))
        action = pr.get("parameterNotFoundAction")
        if not action:
            errs.append(required("spec.paramRef.parameterNotFoundAction"))
        elif action not in ("Deny", "Allow"):
            errs.append(not_supported("spec.paramRef.parameterNotFoundAction", action, ["Deny", "Allow"]))
    if mutating:
        return errs
    actions = list(spec.get("validationActions") or [])
    seen: set[str] = set()
    for i, action in enumerate(actions):
        if action not in ("Audit", "Deny", "Warn"):
            errs.append(not_supported(f"spec.validationActions[{i}]", action, ["Audit", "Deny", "Warn"]))
        if action in seen:
            errs.append(duplicate(f"spec.validationActions[{i}]", action))
        seen.add(str(action))
    if "Deny" in seen and "Warn" in seen:
        errs.append(invalid("spec.validationActions", actions, "must not contain both Deny and Warn (repeating the same "
                            "validation failure information in the API response and headers serves no purpose)"))
    if not seen:
        errs.append(required("spec.validationActions", "at least one validation action is required"))
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
    patch_env = PolicyEnvironment(release, has_params, True, False, tuple(variables), has_patch_types=True)
    errs.extend(_match_conditions(spec, release, has_params))  # upstream: validateMatchConditions, stateless
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
