"""ValidatingAdmissionPolicy: ``k8s.io/apiserver`` ``pkg/admission/plugin/policy/validating`` and the CEL
evaluation under it (``pkg/admission/plugin/cel``: ``activation.go``, ``composition.go``, ``condition.go``;
``pkg/admission/plugin/webhook/matchconditions/matcher.go``; ``policy/generic/policy_dispatcher.go``
``CollectParams``).

:func:`compile_policy` is ``plugin.go compilePolicy`` (every expression in the release's
``StoredExpressions`` environment, validations, matchConditions and auditAnnotations with the authorizer
declared, messageExpressions without); :func:`validate` is ``validator.Validate``; :func:`dispatch` is
``dispatcher.Dispatch`` with its denial texts. Per release: v0.30.0 and v0.31.0 publish one
``validation.policy.admission.k8s.io/validation_failure`` audit annotation per failed Audit validation
(the first one stays, as ``AddAnnotation`` refuses a second value for a key); v0.37.0-beta.0 publishes
every failure of the request in one (at most 50).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from crdtool.core.admission.attributes import GVK, GVR, Attributes
from crdtool.core.admission.policy.matching import MatchError, Resources, matches_criteria
from crdtool.core.admission.policy.observer import EXPRESSION_OBSERVER
from crdtool.core.celgo import types as T
from crdtool.core.celgo import values as V
from crdtool.core.kubecel.admission import PolicyCompilation, PolicyEnvironment
from crdtool.core.label_selector import LabelSelectorError
from crdtool.core.label_selector import matches as selector_matches
from crdtool.core.releases import Release

__all__ = [
    "CompiledPolicy", "Decision", "DispatchResult", "PER_CALL_LIMIT", "Params", "RUNTIME_CEL_COST_BUDGET",
    "compile_policy", "dispatch", "evaluate_expressions",
]

#: ``k8s.io/apiserver/pkg/apis/cel/config.go`` (v0.30.0 … v0.37.0-beta.0).
PER_CALL_LIMIT = 1_000_000
RUNTIME_CEL_COST_BUDGET = 10_000_000
RUNTIME_CEL_COST_BUDGET_MATCH_CONDITIONS = 2_500_000
MAX_EVALUATED_MESSAGE_EXPRESSION_SIZE_BYTES = 5 * 1024
_MAX_AUDIT_ANNOTATION_VALUE_LENGTH = 10 * 1024
_MAX_VALIDATION_FAILURES = 50
_OUT_OF_BUDGET = "validation failed due to running out of cost budget, no further validation rules will be run"


@dataclass(frozen=True)
class _Validation:
    compiled: PolicyCompilation
    message: str
    reason: str | None
    message_compiled: PolicyCompilation | None


@dataclass(frozen=True)
class CompiledPolicy:
    """A policy as the plugin holds it (``Validator``), defaults applied to its spec."""

    name: str
    spec: Mapping[str, Any]
    failure_policy: str
    variables: tuple[tuple[str, PolicyCompilation], ...]
    validations: tuple[_Validation, ...]
    match_conditions: tuple[tuple[str, PolicyCompilation], ...]
    audit_annotations: tuple[tuple[str, str, PolicyCompilation], ...]


def compile_policy(policy: Mapping[str, Any], release: Release) -> CompiledPolicy:
    """``compilePolicy`` (plugin.go): compile a (defaulted) ValidatingAdmissionPolicy's expressions."""
    spec: Mapping[str, Any] = policy.get("spec") or {}
    has_params = spec.get("paramKind") is not None
    env = PolicyEnvironment(release, has_params=has_params, has_authorizer=True)
    variables: list[tuple[str, PolicyCompilation]] = []
    for var in spec.get("variables") or []:
        c = PolicyEnvironment(release, has_params, True, True, tuple((n, v.output_type) for n, v in variables)).compile(
            str(var.get("expression") or ""), (T.ANY,))
        variables.append((str(var.get("name") or ""), c))
    env = PolicyEnvironment(release, has_params, True, True, tuple((n, v.output_type) for n, v in variables))
    msg_env = PolicyEnvironment(release, has_params, False, True, env.variables)
    validations = []
    for v in spec.get("validations") or []:
        msg_expr = v.get("messageExpression")
        validations.append(_Validation(
            env.compile(str(v.get("expression") or ""), (T.BOOL,)), str(v.get("message") or ""), v.get("reason"),
            msg_env.compile(str(msg_expr), (T.STRING,)) if msg_expr else None,
        ))
    conditions = tuple((str(m.get("name") or ""), env.compile(str(m.get("expression") or ""), (T.BOOL,)))
                       for m in spec.get("matchConditions") or [])
    audits = tuple((str(a.get("key") or ""), str(a.get("valueExpression") or ""),
                    env.compile(str(a.get("valueExpression") or ""), (T.STRING, T.NULL)))
                   for a in spec.get("auditAnnotations") or [])
    out = CompiledPolicy(
        str((policy.get("metadata") or {}).get("name") or ""), spec, str(spec.get("failurePolicy") or "Fail"),
        tuple(variables), tuple(validations), conditions, audits,
    )
    observer = EXPRESSION_OBSERVER.get()
    if observer is not None:
        observer.compiled("ValidatingAdmissionPolicy", out.name, [
            *((f"spec.validations[{i}].expression", v.compiled) for i, v in enumerate(out.validations)),
            *((f"spec.matchConditions[{i}].expression", c) for i, (_, c) in enumerate(out.match_conditions)),
        ])
    return out


# --- evaluation (activation.go, composition.go) -------------------------------------------------------------


class _EvalError(Exception):
    """``ForInput``'s error: the whole evaluation stops (out of budget)."""


class _LazyVariables(V.MapValue):
    """``lazy.MapValue`` of the composition context: each variable evaluated once, on first access, its cost
    reported to the context."""

    __slots__ = ("context", "values")

    def __init__(self, context: _Context) -> None:
        self.context = context
        self.values: dict[str, Any] = {}

    def size(self) -> int:
        return len(self.context.variables)

    def keys(self) -> list[Any]:
        return [n for n, _ in self.context.variables]

    def find(self, key: Any) -> tuple[Any, bool]:
        if type(key) is not str:
            return None, False
        if key in self.values:
            return self.values[key], True
        for name, result in self.context.variables:
            if name == key:
                self.values[key] = value = self.context.evaluate_variable(name, result)
                return value, True
        return None, False

    def native(self) -> Any:
        return {k: self.find(k)[0] for k in self.keys()}


class _Context:
    """The activation of one ``ForInput`` call and its composition context."""

    def __init__(self, variables: tuple[tuple[str, PolicyCompilation], ...], values: dict[str, Any]) -> None:
        self.variables = variables
        self.values = dict(values)
        self.values["variables"] = _LazyVariables(self)
        self.accumulated = 0

    def evaluate_variable(self, name: str, result: PolicyCompilation) -> Any:
        """``variableAccessor.Callback``."""
        if result.error:
            return V.Err(f"composited variable {V.go_quote(name)} fails to compile: {result.error}")
        value, cost, _ = result.program.eval_with_cost(self.values, PER_CALL_LIMIT)
        self.accumulated += cost
        if type(value) is V.Err:
            return V.Err(f"composited variable {V.go_quote(name)} fails to evaluate: {value.msg}")
        return value

    def evaluate(self, result: PolicyCompilation, remaining: int) -> tuple[Any, str, int]:
        """``evaluationActivation.Evaluate``: (value, error, remaining budget); raises :class:`_EvalError`."""
        if result.error:
            return None, f"compilation error: {result.error}", remaining
        value, cost, _ = result.program.eval_with_cost(self.values, PER_CALL_LIMIT)
        composition, self.accumulated = self.accumulated, 0
        if composition > remaining:
            raise _EvalError(_OUT_OF_BUDGET)
        remaining -= composition
        if cost > remaining:
            raise _EvalError(_OUT_OF_BUDGET)
        remaining -= cost
        if type(value) is V.Err:
            return None, f"expression '{result.expression}' resulted in error: {value.msg}", remaining
        return value, "", remaining


def _activation(request: dict[str, Any], attr: Attributes, params: Any, namespace: Any) -> dict[str, Any]:
    """``newActivation``: the variables; ``authorizer`` and ``authorizer.requestResource`` when the request
    carries an authorizer (``NewAuthorizerVal``, ``NewResourceAuthorizerVal`` of the request's resource)."""
    out = {
        "object": V.adapt_native(attr.object), "oldObject": V.adapt_native(attr.old_object),
        "params": V.adapt_native(params), "request": V.adapt_native(request),
        "namespaceObject": V.adapt_native(namespace),
    }
    if attr.authorizer is not None:
        out.update(attr.authorizer.variables(attr.user_info, attr.resource[0], attr.resource[2], attr.subresource,
                                             attr.namespace, attr.name))
    return out


def evaluate_expressions(results: list[PolicyCompilation | None], variables: tuple[tuple[str, PolicyCompilation], ...],
                         activation: dict[str, Any], budget: int) -> tuple[list[tuple[Any, str]], int]:
    """``condition.ForInput``: each expression's (value, error) in order (None placeholders give (None, "")),
    and the remaining budget. Raises :class:`_EvalError` when the budget runs out."""
    ctx = _Context(variables, activation)
    out: list[tuple[Any, str]] = []
    remaining = budget
    observer = EXPRESSION_OBSERVER.get()
    for r in results:
        if r is None:
            out.append((None, ""))
            continue
        try:
            value, err, remaining = ctx.evaluate(r, remaining)
        except _EvalError as exc:
            if observer is not None:
                observer.evaluated(r, None, str(exc))
            raise
        if observer is not None:
            observer.evaluated(r, value, err)
        out.append((value, err))
    return out, remaining


# --- validator.go ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Decision:
    """``PolicyDecision``: ``action`` ``admit`` or ``deny``; ``evaluation`` ``admit``, ``deny`` or ``error``."""

    action: str
    evaluation: str
    message: str = ""
    reason: str = ""


@dataclass(frozen=True)
class _Audit:
    key: str
    action: str  # publish, error, exclude
    value: str = ""
    error: str = ""


def _go_trim_space(s: str) -> str:
    from crdtool.core.celgo.functions import go_trim_space

    return go_trim_space(s)


def _aggregate(messages: list[str]) -> str:
    """``utilerrors.NewAggregate(errs).Error()``."""
    if len(messages) == 1:
        return messages[0]
    seen = list(dict.fromkeys(messages))
    return seen[0] if len(seen) == 1 else "[" + ", ".join(seen) + "]"


def _match_conditions_for(failure_policy: str, conditions: tuple[tuple[str, PolicyCompilation], ...],
                          variables: tuple[tuple[str, PolicyCompilation], ...],
                          activation: dict[str, Any]) -> tuple[bool, str]:
    """``matcher.Match``: (matches, error message)."""
    fail = failure_policy == "Fail"
    try:
        results, _ = evaluate_expressions([c for _, c in conditions], variables, activation,
                                          RUNTIME_CEL_COST_BUDGET_MATCH_CONDITIONS)
    except _EvalError as exc:
        return (False, str(exc)) if fail else (False, "")
    errors: list[str] = []
    for value, err in results:
        if err:
            errors.append(err)
        if value is False:
            return False, ""
    if errors:
        return (False, _aggregate(errors)) if fail else (False, "")
    return True, ""


def _match_conditions(policy: CompiledPolicy, activation: dict[str, Any]) -> tuple[bool, str]:
    return _match_conditions_for(policy.failure_policy, policy.match_conditions, policy.variables, activation)


def _validate(policy: CompiledPolicy, attr: Attributes, match_resource: GVR, match_kind: GVK, params: Any,
              namespace: Any) -> tuple[list[Decision], list[_Audit]]:
    """``validator.Validate`` on the request at the matched kind's version (``VersionedAttributes``)."""
    error_action = "admit" if policy.failure_policy == "Ignore" else "deny"
    attr = attr.versioned(match_kind)
    if policy.match_conditions:
        mc_request = attr.admission_request(attr.resource, match_kind)
        matched, err = _match_conditions(policy, _activation(mc_request, attr, params, None))
        if err:
            return [Decision(error_action, "error", err)], []
        if not matched:
            return [], []
    request = attr.admission_request(match_resource, match_kind)
    ns = _namespace_object(namespace)
    activation = _activation(request, attr, params, ns)
    try:
        results, remaining = evaluate_expressions([v.compiled for v in policy.validations], policy.variables,
                                                  activation, RUNTIME_CEL_COST_BUDGET)
    except _EvalError as exc:
        return [Decision(error_action, "error", str(exc))], []
    message_error = ""
    try:
        messages, _ = evaluate_expressions([v.message_compiled for v in policy.validations], policy.variables,
                                           activation, remaining)
    except _EvalError as exc:
        messages, message_error = [], str(exc)
    decisions: list[Decision] = []
    for i, (v, (value, err)) in enumerate(zip(policy.validations, results)):
        if err:
            decisions.append(Decision(error_action, "error", err))
        elif message_error:
            decisions.append(Decision(error_action, "error", f"failed messageExpression: {message_error}"))
        elif value is not True:
            message = ""
            if i < len(messages):
                m_value, m_err = messages[i]
                if not m_err and type(m_value) is str:
                    message = _go_trim_space(m_value)
                    if len(message.encode("utf-8", "surrogatepass")) > MAX_EVALUATED_MESSAGE_EXPRESSION_SIZE_BYTES:
                        message = ""
                    if "\n" in message:
                        message = ""
            if not message and v.message:
                message = _go_trim_space(v.message)
            if not message:
                message = f"failed expression: {_go_trim_space(v.compiled.expression)}"
            decisions.append(Decision("deny", "deny", message, v.reason or "Invalid"))
        else:
            decisions.append(Decision("admit", "admit"))
    audits: list[_Audit] = []
    if policy.audit_annotations:
        audit_activation = _activation(request, attr, params, namespace)
        try:
            a_results, _ = evaluate_expressions([c for _, _, c in policy.audit_annotations], policy.variables,
                                                audit_activation, RUNTIME_CEL_COST_BUDGET)
        except _EvalError as exc:
            return [Decision(error_action, "error", str(exc))], []
        error_audit = "exclude" if policy.failure_policy == "Ignore" else "error"
        for (key, value_expr, _), (value, err) in zip(policy.audit_annotations, a_results):
            if err:
                audits.append(_Audit(key, error_audit, error=err))
            elif type(value) is str:
                trimmed = _go_trim_space(value)
                audits.append(_Audit(key, "publish", trimmed) if trimmed else _Audit(key, "exclude"))
            elif value is None:
                audits.append(_Audit(key, "exclude"))
            else:
                audits.append(_Audit(key, "error", error=(
                    f"valueExpression '{value_expr}' resulted in unsupported return type: {V.type_name(value)}. "
                    "Return type must be either string or null.")))
    return decisions, audits


def _namespace_object(namespace: Any) -> Any:
    """``CreateNamespaceObject``: status, spec and the listed metadata fields."""
    if not isinstance(namespace, Mapping):
        return None
    meta = namespace.get("metadata") or {}
    keep = ("name", "generateName", "namespace", "uid", "resourceVersion", "generation", "creationTimestamp",
            "deletionTimestamp", "deletionGracePeriodSeconds", "labels", "annotations", "finalizers")
    out: dict[str, Any] = {"metadata": {k: meta[k] for k in keep if k in meta}}
    out["spec"] = namespace.get("spec") or {}
    out["status"] = namespace.get("status") or {}
    return out


# --- params (policy_dispatcher.go CollectParams) ------------------------------------------------------------


@dataclass(frozen=True)
class Params:
    """The params objects of one kind in the bundle, and the kind's scope (None: the kind is not served)."""

    namespaced: bool | None
    objects: tuple[Mapping[str, Any], ...] = ()


def _collect_params(param_kind: Mapping[str, Any] | None, params: Params | None, param_ref: Mapping[str, Any] | None,
                    namespace: str) -> list[Any]:
    """``CollectParams``; raises ``ValueError`` with upstream's texts."""
    if param_kind is None or param_ref is None:
        return [None]
    assert params is not None and params.namespaced is not None
    candidates: list[Mapping[str, Any]] = list(params.objects)
    if params.namespaced:
        ns = param_ref.get("namespace") or namespace
        if not ns:
            raise ValueError("cannot use namespaced paramRef in policy binding that matches cluster-scoped resources")
        candidates = [o for o in candidates if ((o.get("metadata") or {}).get("namespace") or "") == ns]
    elif param_ref.get("namespace"):
        raise ValueError("paramRef.namespace must not be provided for a cluster-scoped `paramKind`")
    found: list[Any]
    if param_ref.get("name"):
        if param_ref.get("selector") is not None:
            raise ValueError("paramRef.name and paramRef.selector are mutually exclusive")
        found = [o for o in candidates if (o.get("metadata") or {}).get("name") == param_ref["name"]][:1]
    elif param_ref.get("selector") is not None:
        try:
            found = [o for o in candidates
                     if selector_matches(param_ref["selector"], (o.get("metadata") or {}).get("labels") or {})]
        except LabelSelectorError as exc:
            raise ValueError(str(exc)) from None
        found.sort(key=lambda o: ((o.get("metadata") or {}).get("namespace") or "", (o.get("metadata") or {}).get("name") or ""))
    else:
        raise ValueError("one of name or selector must be provided")
    if not found and param_ref.get("parameterNotFoundAction") == "Deny":
        raise ValueError("no params found for policy binding with `Deny` parameterNotFoundAction")
    return found


# --- dispatcher.go -----------------------------------------------------------------------------------------


@dataclass
class DispatchResult:
    """What the validating plugin answered: a denial (``message``, ``reason``, ``code``) or None, and what it
    added to the request: warnings and audit annotations (in order)."""

    denied: bool = False
    message: str = ""
    reason: str = ""
    code: int = 0
    warnings: list[str] = field(default_factory=list)
    annotations: dict[str, str] = field(default_factory=dict)


_REASON_CODES = {"Forbidden": 403, "Unauthorized": 401, "RequestEntityTooLarge": 413, "Invalid": 422}


def _add_warning(result: DispatchResult, text: str) -> None:
    """``warning.AddWarning`` (the apiserver's recorder keeps each distinct text once)."""
    if text not in result.warnings:
        result.warnings.append(text)


def _add_annotation(result: DispatchResult, key: str, value: str) -> None:
    """``AddAnnotation``: a key keeps its first value."""
    result.annotations.setdefault(key, value)


def dispatch(
    attr: Attributes,
    hooks: list[tuple[CompiledPolicy, list[Mapping[str, Any]]]],
    resources: Resources,
    params_for: Callable[[Mapping[str, Any]], Params | None],
    namespace_for: Callable[[str], Mapping[str, Any] | None],
    release: Release,
    forbidden: Callable[[str], str],
) -> DispatchResult:
    """``dispatcher.Dispatch``: match each policy and its bindings, collect params, validate, and apply the
    bindings' validationActions.

    ``hooks``: the policies with their bindings, in order; ``params_for(paramKind)``: the params of a kind
    (None: the kind is not served); ``namespace_for(name)``: the namespace object (None: missing);
    ``forbidden(message)``: ``admission.NewForbidden``'s message around an error text.
    """
    result = DispatchResult()
    denied: list[tuple[CompiledPolicy, Mapping[str, Any] | None, Decision]] = []
    failures: list[dict[str, Any]] = []

    def config_error(err: str, policy: CompiledPolicy, binding: Mapping[str, Any] | None) -> None:
        if policy.failure_policy == "Ignore":
            return
        if policy.failure_policy == "Fail":
            msg = f"failed to configure {'policy' if binding is None else 'binding'}: {err}"
        else:
            msg = f"unrecognized failure policy: '{policy.failure_policy}'"
        denied.append((policy, binding, Decision("deny", "error", msg)))

    for policy, bindings in hooks:
        try:
            constraints = policy.spec.get("matchConstraints")
            if constraints is None:
                raise MatchError("policy contained no match constraints, a required field")
            ok, match_resource, match_kind = matches_criteria(constraints, attr, resources)
        except MatchError as exc:
            config_error(str(exc), policy, None)
            continue
        if not ok:
            continue
        param_kind = policy.spec.get("paramKind")
        params = params_for(param_kind) if param_kind is not None else None
        if param_kind is not None and (params is None or params.namespaced is None):
            group_version = str(param_kind.get("apiVersion") or "")
            group, _, version = group_version.rpartition("/")
            config_error(f"failed to find resource referenced by paramKind: '{group}/{version}, Kind={param_kind.get('kind') or ''}'",
                         policy, None)
            continue
        audit_values: dict[str, list[str]] = {}
        for binding in bindings:
            spec = binding.get("spec") or {}
            try:
                mr = spec.get("matchResources")
                if mr is not None and not matches_criteria(mr, attr, resources)[0]:
                    continue
            except MatchError as exc:
                config_error(str(exc), policy, binding)
                continue
            try:
                param_objs = _collect_params(param_kind, params, spec.get("paramRef"), attr.namespace)
            except ValueError as exc:
                config_error(str(exc), policy, binding)
                continue
            namespace_name = attr.namespace
            if attr.kind == ("", "v1", "Namespace"):
                namespace_name = ""
            namespace = None
            if namespace_name:
                namespace = namespace_for(namespace_name)
                if namespace is None:
                    # the dispatcher returns the lister's NotFound as it is
                    return DispatchResult(True, f'namespace "{namespace_name}" not found', "NotFound", 404,
                                          result.warnings, result.annotations)
            actions = list(spec.get("validationActions") or [])
            for param in param_objs:
                decisions, audits = _validate(policy, attr, match_resource, match_kind, param, namespace)
                for i, d in enumerate(decisions):
                    if d.action != "deny":
                        continue
                    for action in actions:
                        if action == "Deny":
                            denied.append((policy, binding, d))
                        elif action == "Audit":
                            failures.append({
                                "message": d.message, "policy": spec.get("policyName") or "",
                                "binding": _name(binding), "expressionIndex": i, "validationActions": actions,
                            })
                        elif action == "Warn":
                            _add_warning(result,
                                f"Validation failed for ValidatingAdmissionPolicy '{policy.name}' with binding "
                                f"'{_name(binding)}': {d.message}")
                for a in audits:
                    if a.action == "publish":
                        value = a.value[:_MAX_AUDIT_ANNOTATION_VALUE_LENGTH]
                        seen = audit_values.setdefault(a.key, [])
                        if value not in seen:
                            seen.append(value)
                    elif a.action == "error":
                        denied.append((policy, binding, Decision("deny", "error", a.error)))
        for key, values in audit_values.items():
            _add_annotation(result, f"{policy.name}/{key}", values[0] if len(values) == 1 else ", ".join(values))
    _publish_failures(result, failures, release)
    if denied:
        first, first_binding, d = denied[0]
        if first_binding is not None:
            message = (f"ValidatingAdmissionPolicy '{first.name}' with binding '{_name(first_binding)}' denied "
                       f"request: {d.message}")
        else:
            message = f"ValidatingAdmissionPolicy '{first.name}' denied request: {d.message}"
        reason = d.reason or "Invalid"
        result.denied, result.message, result.reason = True, forbidden(message), reason
        result.code = _REASON_CODES.get(reason, 422)
    return result


def _publish_failures(result: DispatchResult, failures: list[dict[str, Any]], release: Release) -> None:
    key = "validation.policy.admission.k8s.io/validation_failure"
    if not failures:
        return
    if release.minor >= 37:
        _add_annotation(result, key, _go_json(failures[:_MAX_VALIDATION_FAILURES]))
        return
    for f in failures:
        _add_annotation(result, key, _go_json([f]))


def _go_json(value: Any) -> str:
    """``json.Marshal`` of the failures (Go escapes <, >, & in strings)."""
    text = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _name(obj: Mapping[str, Any]) -> str:
    return str((obj.get("metadata") or {}).get("name") or "")
