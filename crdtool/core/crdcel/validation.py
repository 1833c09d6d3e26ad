"""Evaluation of ``x-kubernetes-validations`` rules on custom resources, create and update.

Mirrors ``k8s.io/apiextensions-apiserver`` v0.36
``pkg/apiserver/schema/cel/validation.go``: :func:`validate_cel` is
``NewValidator(s, isResourceRoot, PerCallLimit).Validate(ctx, fldPath, s, obj,
oldObj, budget, WithRatcheting(...))`` — the validator tree of ``validator``
(rules compiled per schema node, ``allOf`` validators, properties reached only
through the structural spine and escapable names), ``validate`` /
``validateExpressions`` / ``validateMap`` / ``validateArray`` in upstream's
order, transition rules with ``oldSelf`` correlated through objects, maps
(``x-kubernetes-map-type`` granular or atomic) and ``list-type=map`` keys
(``MakeMapList``), ``optionalOldSelf`` rules with ``oldSelf`` an optional,
``evalMessageExpression``, ``fieldErrorForReason``, ``ruleMessageOrDefault``,
``ValidFieldPath``, and the ``CRDValidationRatcheting`` side of CEL: a failing
rule that does not use ``oldSelf`` on a value equal to its old value (or below
an equal correlatable ancestor, ``common.CorrelatedObject``) is a warning, not
an error.

The engine is a port of cel-go v0.26.0's interpreter
(:mod:`crdtool.core.celgo.interpreter`) running the checked trees of the
port of its parser and checker (:mod:`crdtool.core.celgo`), compiled exactly as
``compilation.go`` compiles (:mod:`crdtool.core.crdcel.compilation`), on the
lazily converted values of ``UnstructuredToVal``
(:mod:`crdtool.core.kubecel.unstructured`): one parser, one checker.

Cost. The apiserver charges each rule's *actual* cost (cel-go's runtime cost
tracker) against a per-call limit (``PerCallLimit``, 1,000,000: beyond it the
evaluation is cancelled) and the request budget (``RuntimeCELCostBudget``,
10,000,000). Two paths give the same errors:

* ``exact``: every rule runs under the ported cost tracker, exactly as cel-go
  meters it; the remaining budget is upstream's;
* ``fast`` (the default when the caller does not pass a budget): rules run
  without metering and are charged an upper bound of their actual cost: the
  compile-time ``MaxCost`` plus the steps cel-go's estimate prices below the
  tracker (``==``/``!=`` of unsized values, qualifications; counted while
  evaluating). As soon as a bound could exceed the per-call limit or the
  remaining budget, the whole validation is redone on the exact path. The
  remaining budget is then a lower bound of upstream's.
"""

from __future__ import annotations

import threading
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

from crdtool.core.errors import (
    OMIT,
    FieldError,
    Path,
    duplicate,
    forbidden,
    internal_error,
    invalid,
    required,
)
from crdtool.core.celgo import values as V
from crdtool.core.kubecel.decltype import DeclType, escape, schema_decl_type
from crdtool.core.kubecel.equality import CorrelatedObject, make_map_list
from crdtool.core.kubecel.decltype import with_type_and_object_meta as _with_type_and_object_meta
from crdtool.core.kubecel.unstructured import unstructured_to_val
from crdtool.core.releases import DEFAULT_RELEASE, Release, resolve_release
from crdtool.core.schema.structural import NestedValueValidation, Structural

__all__ = [
    "CelResult",
    "PER_CALL_LIMIT",
    "RULE_OBSERVER",
    "RUNTIME_CEL_COST_BUDGET",
    "escape",
    "validate_cel",
]

#: ``celconfig.PerCallLimit``: the actual-cost limit of one evaluation.
PER_CALL_LIMIT = 1_000_000
#: ``celconfig.RuntimeCELCostBudget``: the cost budget of one request.
RUNTIME_CEL_COST_BUDGET = 10_000_000
#: ``celconfig.MaxEvaluatedMessageExpressionSizeBytes``.
MAX_EVALUATED_MESSAGE_EXPRESSION_SIZE_BYTES = 5 * 1024
_MAX_INT64 = (1 << 63) - 1

_BUDGET_MSG = "validation failed due to running out of cost budget, no further validation rules will be run"
_MSG_BUDGET = ("messageExpression evaluation failed due to running out of cost budget, no further validation rules "
               "will be run")
_COST_LIMIT_ERR = "operation cancelled: actual cost limit exceeded"
#: ``(*field.Path)(nil).String()``.
NIL_PATH = "<nil>"

#: A rule outcome observer: ``observer(rule, path, outcome, error)`` for each rule evaluation of a
#: :func:`validate_cel` call, in evaluation order, once the call is done. ``rule`` is the
#: ``x-kubernetes-validations`` entry (the schema's own dict), ``path`` the value's field path, ``outcome`` one of
#: ``pass``, ``fail`` (the rule gave false: ``error`` is the :class:`FieldError` reported), ``ratcheted`` (false on
#: an unchanged value: ``error`` is the warning's text), ``error`` (a compile, runtime or cost error: ``error``
#: reported) and ``skipped`` (a transition rule without an old value). Not upstream's: it lets rule-coverage
#: tools (``crdtool.testing``) attribute outcomes to rules; set it with ``RULE_OBSERVER.set(...)`` around a call
#: and reset it after. It changes nothing that is validated or reported.
RuleObserver = Callable[[Mapping[str, Any], str, str, Any], None]
RULE_OBSERVER: ContextVar[RuleObserver | None] = ContextVar("crdtool_rule_observer", default=None)


@dataclass(frozen=True)
class CelResult:
    """The outcome of :func:`validate_cel`.

    Attributes:
        errors: upstream ``field.ErrorList`` entries, in evaluation order.
        skipped_transition_rules: one field path per transition rule (a rule
            using ``oldSelf`` without ``optionalOldSelf``) that was not
            evaluated because there was no old value (a create, or a value
            with no correlatable old value).
        remaining_budget: the cost budget left; negative when the budget or a
            per-call limit was exhausted and evaluation stopped. On the fast
            path (see the module docstring) a lower bound of upstream's.
        warnings: the errors ratcheting turned into warnings (``field.Error``
            strings, as upstream's ``warning.AddWarning``).
        exact_cost: ``remaining_budget`` is upstream's actual figure.
        log: what upstream only logs (``klog.V(2).ErrorS``): the errors of
            messageExpressions that failed without stopping validation (the
            rule's message was used instead).
    """

    errors: list[FieldError] = field(default_factory=list)
    skipped_transition_rules: list[str] = field(default_factory=list)
    remaining_budget: int = RUNTIME_CEL_COST_BUDGET
    warnings: list[str] = field(default_factory=list)
    exact_cost: bool = True
    log: list[str] = field(default_factory=list)


# --- compilation (validator / Compile) --------------------------------------------------------------


@dataclass
class _Rule:
    """One ``x-kubernetes-validations`` entry compiled (``CompilationResult`` with programs)."""

    rule: Mapping[str, Any]
    error: str = ""
    program: Any = None
    message: Any = None
    uses_old_self: bool = False
    max_cost: int = 0
    message_max_cost: int = 0
    field_path: str = ""
    optional_old_self: bool = False
    empty: bool = False


def _environment(release: Release) -> Any:
    """The environment ``validator`` compiles in: ``StoredExpressionsEnvLoader`` of the release's base env set."""
    from crdtool.core.kubecel.environment import release_env_set

    return release_env_set(release).stored


def _compile_rules(
    validation: Structural, node: Structural, decl: DeclType, release: Release,
    digests: dict[int, tuple[DeclType, bytes]] | None = None,
) -> list[_Rule]:
    """Upstream ``Compile`` for one node: errors, ``UsesOldSelf``, static costs, and the planned programs.
    ``digests``: the table of :func:`~crdtool.core.crdcel.compilation.decl_type_digest` shared by the nodes of one
    schema (or None)."""
    from crdtool.core.crdcel.compilation import RuleSource, compile_rules

    env = _environment(release)
    sources = list(validation.extensions.x_validations)
    results = compile_rules([RuleSource.of(r) for r in sources], decl, env, digests=digests)
    rules: list[_Rule] = []
    for rule, result in zip(sources, results):
        optional = bool(rule.get("optionalOldSelf"))
        fp = str(rule.get("fieldPath") or "")
        out = _Rule(rule, field_path=_normalize_field_path(fp, node) if fp else "", optional_old_self=optional)
        rules.append(out)
        if result.empty:
            out.empty = True
            continue
        if result.error is not None:
            out.error = result.error[1]
            continue
        out.uses_old_self = result.uses_old_self
        out.max_cost = result.max_cost
        # compile_rules planned the programs (upstream's Program); a messageExpression that did not
        # compile or plan leaves message None, and the rule's message is used
        out.program = result.program
        if result.has_message_expression:
            out.message_max_cost = result.message_expression_max_cost
            out.message = result.message_program
    return rules


@dataclass
class _Node:
    """Upstream ``Validator``: compiled rules of a node and the validators of its children.

    Upstream's ``validator`` compiles a node's rules as it builds the tree; here they are compiled when first read
    (:attr:`rules`, :attr:`with_old_self`), or for the whole tree by :func:`compile_tree`. Only validating a value
    reads them, and :func:`_compile_rules` gives the same results whenever it runs (it never raises), so a process
    whose objects reach a third of a large CRD's rules compiles that third (tests/core/crdcel/test_lazy_compile.py
    holds lazy and whole trees' verdicts equal).
    """

    schema: Structural
    is_resource_root: bool
    init_error: str = ""
    items: _Node | None = None
    properties: dict[str, _Node] = field(default_factory=dict)
    additional: _Node | None = None
    all_of: list[_Node] = field(default_factory=list)
    #: the minor of the Kubernetes release whose apiserver validates (its unstructured values)
    minor: int = DEFAULT_RELEASE.minor
    #: what compiles the rules (the node's validation schema, its DeclType, the release, the tree's digests
    #: table), until they are compiled; None for a node without rules
    source: tuple[Structural, DeclType, Release, dict[int, tuple[DeclType, bytes]]] | None = field(
        default=None, repr=False)
    #: (the compiled rules, whether one reads oldSelf), set once
    compiled: tuple[Sequence[_Rule], bool] = field(default=((), False), repr=False)

    @property
    def rules(self) -> Sequence[_Rule]:
        """The node's rules, compiled (upstream ``Validator.compiledRules``)."""
        return self._compile()[0]

    @property
    def with_old_self(self) -> bool:
        """Whether a rule of the node reads ``oldSelf`` (its activation then binds ``oldSelf``)."""
        return self._compile()[1]

    def _compile(self) -> tuple[Sequence[_Rule], bool]:
        source = self.source
        if source is not None:
            validation, decl, release, digests = source
            rules = _compile_rules(validation, self.schema, decl, release, digests)
            # one assignment: a thread reading the node meanwhile sees the rules and their oldSelf flag together
            self.compiled = (rules, any(r.uses_old_self for r in rules))
            self.source = None
        return self.compiled


def compile_tree(tree: _Node | None) -> None:
    """Compile every rule of a validator tree now (as upstream's ``NewValidator`` does while building it): before
    worker processes fork, so that they inherit the compiled programs."""
    stack = [tree] if tree is not None else []
    while stack:
        node = stack.pop()
        node._compile()
        stack.extend(node.properties.values())
        stack.extend(node.all_of)
        stack.extend(n for n in (node.items, node.additional) if n is not None)


def _has_x_validations(ss: Structural | None) -> bool:
    """Upstream ``hasXValidations`` (allOf is not searched, as upstream)."""
    if ss is None:
        return False
    return any(node.extensions.x_validations for node in ss.walk())


def _nested_to_structural(nested: NestedValueValidation) -> Structural:
    """Upstream ``nestedToStructural``: an allOf entry as a Structural carrying its rules."""
    out = Structural(
        generic=nested.forbidden_generics,
        extensions=nested.forbidden_extensions,
        value_validation=nested.value_validation,
        items=_nested_to_structural(nested.items) if nested.items is not None else None,
        properties={k: _nested_to_structural(v) for k, v in nested.properties.items()},
    )
    if nested.additional_properties is not None:
        out.additional_properties = _nested_to_structural(nested.additional_properties)
    return out


def _build(
    validation: Structural, node: Structural, is_root: bool, decl: DeclType | None, release: Release,
    digests: dict[int, tuple[DeclType, bytes]] | None = None,
) -> _Node | None:
    """Upstream ``validator``: the validator of this node and of every child holding rules (each node's rules
    compiled when first read: :class:`_Node`).

    ``decl`` is the node's CEL type (upstream passes it down: field types of
    the parent's, ``ElemType`` for items and additionalProperties); None makes
    ``Compile`` fail (``rule compiler initialization error``). ``digests``: the memo keys' digests of the decl
    types met so far in this tree (each node's type is part of its parent's: each is digested once), or None.
    """
    if digests is None:
        digests = {}
    init_error = ""
    source = None
    if validation.extensions.x_validations:
        if decl is None:
            init_error = "failed to convert to declType for CEL validation rules"
        else:
            source = (validation, decl, release, digests)  # compiled when first read: _Node.rules
    out = _Node(schema=node, is_resource_root=is_root, init_error=init_error, minor=release.minor, source=source)
    elem = decl.elem_type if decl is not None else None
    if validation.items is not None and node.items is not None:
        out.items = _build(validation.items, node.items, node.items.extensions.x_embedded_resource, elem, release,
                           digests)
    for k, vprop in validation.properties.items():
        nprop = node.properties.get(k)
        if nprop is None:
            continue
        escaped = escape(k)
        if escaped is not None:
            if decl is None or decl.fields is None or escaped not in decl.fields:
                continue  # fields with unknown types are omitted from CEL validation entirely
            field_type: DeclType | None = decl.fields[escaped].type
        else:
            field_type = schema_decl_type(nprop, nprop.extensions.x_embedded_resource, release.minor)
            if field_type is None:
                continue
        child = _build(vprop, nprop, nprop.extensions.x_embedded_resource, field_type, release, digests)
        if child is not None:
            out.properties[k] = child
    vap, nap = validation.additional_properties_schema, node.additional_properties_schema
    if vap is not None and nap is not None:
        out.additional = _build(vap, nap, nap.extensions.x_embedded_resource, elem, release, digests)
    if validation.value_validation is not None:
        for nested in validation.value_validation.all_of:
            child = _build(_nested_to_structural(nested), node, is_root, decl, release, digests)
            if child is not None:
                out.all_of.append(child)
    if out.source or out.init_error or out.items or out.properties or out.additional or out.all_of:
        return out
    return None


_TREE_CACHE: dict[tuple[int, bool, bool, int], tuple[Structural, _Node | None]] = {}
_TREE_CACHE_SIZE = 64
_TREE_LOCK = threading.Lock()


def _validator(ss: Structural, is_root: bool, new_validator: bool = True, release: Release | None = None) -> _Node | None:
    """Upstream ``NewValidator`` (or ``validator`` when not ``new_validator``) of ``release``'s apiserver (default:
    :data:`crdtool.core.releases.DEFAULT_RELEASE`), cached by schema node identity and release."""
    release = resolve_release(release)
    key = (id(ss), is_root, new_validator, release.minor)
    with _TREE_LOCK:
        hit = _TREE_CACHE.get(key)
        if hit is not None and hit[0] is ss:
            return hit[1]
    tree = (_build(ss, ss, is_root, schema_decl_type(ss, is_root, release.minor), release)
            if _has_x_validations(ss) or not new_validator else None)
    with _TREE_LOCK:
        if len(_TREE_CACHE) >= _TREE_CACHE_SIZE:
            _TREE_CACHE.pop(next(iter(_TREE_CACHE)))
        _TREE_CACHE[key] = (ss, tree)
    return tree


# --- fieldPath (ValidFieldPath) ---------------------------------------------------------------------------


def _normalize_field_path(json_path: str, ss: Structural) -> str:
    """``ValidFieldPath(...).String()`` as ``compileRule`` records it; ``""`` when the path is invalid."""
    from crdtool.core.schema.fieldpath import FieldPathError, NilSchemaError, valid_field_path

    try:
        path, _ = valid_field_path(json_path, ss)
    except (FieldPathError, NilSchemaError):
        return ""
    return path.text


@dataclass(frozen=True)
class _Ratchet:
    """``ratchetingOptions``: the current correlation and the nearest correlatable ancestor."""

    current: CorrelatedObject | None = None
    parent: CorrelatedObject | None = None

    def should_ratchet(self) -> bool:
        if self.current is not None:
            return self.current.cached_deep_equal()
        if self.parent is not None:
            return self.parent.cached_deep_equal()
        return False

    def key(self, fld: str) -> _Ratchet:
        if self.current is None:
            return self
        if self.parent is None and fld in ("apiVersion", "kind"):
            return _Ratchet()
        return _Ratchet(self.current.key(fld), self.current)

    def index(self, i: int) -> _Ratchet:
        if self.current is None:
            return self
        return _Ratchet(self.current.index(i), self.current)


_NO_RATCHET = _Ratchet()


# --- evaluation (validateExpressions) ------------------------------------------------------------------------


def _rule_error_string(rule: Mapping[str, Any]) -> str:
    message = str(rule.get("message") or "")
    if message:
        return message.strip()
    return str(rule.get("rule") or "").strip()


def _rule_message_or_default(rule: Mapping[str, Any]) -> str:
    message = str(rule.get("message") or "")
    if not message:
        return f"failed rule: {_rule_error_string(rule)}"
    return message.strip()


def _field_error_for_reason(path: str, value: Any, detail: str, reason: str | None) -> FieldError:
    """Upstream ``fieldErrorForReason``."""
    if reason == "FieldValueForbidden":
        return forbidden(path, detail)
    if reason == "FieldValueRequired":
        return required(path, detail)
    if reason == "FieldValueDuplicate":
        return duplicate(path, value)
    return invalid(path, value, detail)


class _NeedExact(Exception):
    """The fast path cannot prove that no limit trips: redo the validation exactly."""


@dataclass
class _State:
    remaining: int
    exact: bool
    per_call_limit: int = PER_CALL_LIMIT
    errors: list[FieldError] = field(default_factory=list)
    log: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    nil_root: bool = False
    #: (rule, path, outcome, error) events for :data:`RULE_OBSERVER`; None when nobody observes
    events: list[tuple[Mapping[str, Any], str, str, Any]] | None = None


def _go_trim_space(s: str) -> str:
    from crdtool.core.celgo.functions import go_trim_space

    return go_trim_space(s)


def _run(prog: Any, variables: dict[str, Any], state: _State, static_cost: int) -> tuple[Any, int, bool]:
    """Evaluate a program: (value, cost charged, cancelled).

    On the fast path the charge is an upper bound of cel-go's actual cost: the
    rule's static estimate (``CompilationResult.MaxCost``) plus the slack the
    evaluation counted (:meth:`Program.eval_bounded`); when that bound could
    exceed the per-call limit or the remaining budget, the whole validation is
    redone on the exact path (:class:`_NeedExact`).
    """
    if state.exact:
        return prog.eval_with_cost(variables, state.per_call_limit)  # type: ignore[no-any-return]
    if static_cost > state.per_call_limit or static_cost > state.remaining:
        raise _NeedExact()
    value, slack = prog.eval_bounded(variables)
    bound = static_cost + slack
    if bound > state.per_call_limit or bound > state.remaining:
        raise _NeedExact()
    return value, bound, False


def _eval_message_expression(rule: _Rule, variables: dict[str, Any], state: _State,
                             remaining: int) -> tuple[str | None, int, str, str]:
    """Upstream ``evalMessageExpression``: (message, remaining, error type, error detail).

    The error type is ``Invalid`` or ``Internal`` for the errors that stop
    validation, ``""`` for the others (the rule's message is used instead).
    """
    src = str(rule.rule.get("messageExpression") or "")
    value, cost, cancelled = _run(rule.message, variables, state, rule.message_max_cost)
    if cost > _MAX_INT64 or cost > remaining:
        return None, -1, "Invalid", _MSG_BUDGET
    if type(value) is V.Err:
        if value.msg.startswith(_COST_LIMIT_ERR):
            return None, -1, "Invalid", (f"no further validation rules will be run due to call cost exceeds limit for "
                                         f"messageExpression: {V.go_quote(src)}")
        return None, remaining - cost, "", f"messageExpression evaluation failed due to: {value.msg}"
    if type(value) is not str:
        return None, remaining - cost, "", "messageExpression failed to convert to string"
    trimmed = _go_trim_space(value)
    if len(trimmed.encode("utf-8", "surrogatepass")) > MAX_EVALUATED_MESSAGE_EXPRESSION_SIZE_BYTES:
        return None, remaining - cost, "", f"messageExpression beyond allowable length of {MAX_EVALUATED_MESSAGE_EXPRESSION_SIZE_BYTES}"
    if "\n" in trimmed:
        return None, remaining - cost, "", "messageExpression should not contain line breaks"
    if not trimmed:
        return None, remaining - cost, "", "messageExpression should evaluate to a non-empty string"
    return trimmed, remaining - cost, "", ""


def _validate_expressions(node: _Node, obj: Any, old: Any, path: Path, ratchet: _Ratchet,  # noqa: C901
                          state: _State) -> None:
    """Upstream ``validateExpressions`` for one node and value."""
    sts = node.schema
    if obj is None:
        return
    skip_path = path
    if state.nil_root and not path:
        # the walk's root under a nil fldPath: (*field.Path)(nil).String() is "<nil>" (its children print
        # as Path("")'s do: nil.Child("spec") is "spec")
        path = Path(NIL_PATH)
    if node.init_error:
        state.errors.append(invalid(path, sts.type, f"rule compiler initialization error: {node.init_error}"))
        return
    if not node.rules:
        return
    if state.remaining <= 0:
        if not state.exact:  # the fast path's remaining budget is only a lower bound
            raise _NeedExact()
        state.errors.append(invalid(path, sts.type, _BUDGET_MSG))
        state.remaining = -1
        return
    schema = _with_type_and_object_meta(sts, node.minor) if node.is_resource_root else sts
    self_val = unstructured_to_val(obj, schema, node.minor)
    activation: dict[str, Any] = {"self": self_val}
    optional_activation = activation
    if node.with_old_self:
        optional_activation = {"self": self_val, "oldSelf": V.OPTIONAL_NONE}
        if old is not None:
            old_val = unstructured_to_val(old, schema, node.minor)
            activation = {"self": self_val, "oldSelf": old_val}
            optional_activation = {"self": self_val, "oldSelf": V.Optional(old_val)}
    events = state.events
    for rule in node.rules:
        if rule.error:
            state.errors.append(invalid(path, sts.type, f"rule compile error: {rule.error}"))
            if events is not None:
                events.append((rule.rule, str(path), "error", state.errors[-1]))
            continue
        if rule.program is None:
            continue
        if rule.uses_old_self and old is None and not rule.optional_old_self:
            state.skipped.append(str(skip_path))
            if events is not None:
                events.append((rule.rule, str(path), "skipped", None))
            continue
        variables = optional_activation if rule.optional_old_self else activation
        value, cost, cancelled = _run(rule.program, variables, state, rule.max_cost)
        if cost > _MAX_INT64 or cost > state.remaining:
            state.errors.append(invalid(path, sts.type, _BUDGET_MSG))
            state.remaining = -1
            return
        state.remaining -= cost
        if type(value) is V.Err:
            msg = value.msg
            n_errors = len(state.errors)
            if msg.startswith("no such overload"):
                state.errors.append(invalid(path, sts.type, f"'{msg}': call arguments did not match a supported "
                                            f"operator, function or macro signature for rule: "
                                            f"{_rule_error_string(rule.rule)}"))
            elif msg.startswith(_COST_LIMIT_ERR):
                state.errors.append(invalid(path, sts.type, f"'{msg}': no further validation rules will be run due to "
                                            f"call cost exceeds limit for rule: {_rule_error_string(rule.rule)}"))
                state.remaining = -1
                if events is not None:
                    events.append((rule.rule, str(path), "error", state.errors[-1]))
                return
            else:
                state.errors.append(invalid(path, sts.type, f"{msg} evaluating rule: {_rule_error_string(rule.rule)}"))
            if events is not None and len(state.errors) > n_errors:
                events.append((rule.rule, str(path), "error", state.errors[-1]))
            continue
        if value is True:
            if events is not None:
                events.append((rule.rule, str(path), "pass", None))
            continue
        current = Path(skip_path).child(rule.field_path) if rule.field_path else path
        ratcheted = not rule.uses_old_self and ratchet.should_ratchet()

        def add(e: FieldError) -> None:
            if ratcheted:
                state.warnings.append(str(e))
            else:
                state.errors.append(e)
            if events is not None:
                events.append((rule.rule, str(path), "ratcheted" if ratcheted else "fail",
                               str(e) if ratcheted else e))

        detail: str | None = None
        if rule.message is not None:
            evaluated, remaining, etype, edetail = _eval_message_expression(rule, activation, state,
                                                                            state.remaining)
            if etype == "":
                state.remaining = remaining
                detail = evaluated
                if evaluated is None:
                    state.log.append(edetail)
            elif etype == "Internal":
                add(internal_error(current, edetail))
                state.remaining = -1
                return
            else:
                add(invalid(current, sts.type, edetail))
                state.remaining = -1
                return
        if detail is None:
            detail = _rule_message_or_default(rule.rule)
        bad: Any
        if node.minor >= _FAILED_RULE_VALUE_SINCE:
            bad = OMIT if sts.type in ("object", "array") else obj
        else:
            bad = sts.type
        reason = rule.rule.get("reason")
        add(_field_error_for_reason(current, bad, detail, str(reason) if reason else None))


#: The error of a rule that evaluated to false carries the value (scalars) or no value (objects, arrays) from
#: v0.35.0 (``pkg/apiserver/schema/cel/validation.go``: ``value := obj; if sts.Type == "object" || sts.Type ==
#: "array" { value = field.OmitValueType{} }``); until v0.34 the schema's type string (``fieldErrorForReason(
#: currentFldPath, sts.Type, ...)``), ``""`` for untyped nodes.
_FAILED_RULE_VALUE_SINCE = 35


def _map_is_correlatable(map_type: str | None) -> bool:
    """Upstream ``MapIsCorrelatable``."""
    return map_type is None or map_type in ("granular", "atomic")


def _walk(root: _Node, obj: Any, old: Any, fld_path: Path, ratchet: _Ratchet, state: _State) -> None:
    """Upstream ``validate``/``validateMap``/``validateArray``, iteratively, in upstream's order."""
    stack: list[tuple[_Node, Any, Any, Path, _Ratchet]] = [(root, obj, old, fld_path, ratchet)]
    while stack:
        node, value, old_value, path, rt = stack.pop()
        if value is None:
            continue
        _validate_expressions(node, value, old_value, path, rt, state)
        if state.remaining < 0:
            return
        children: list[tuple[_Node, Any, Any, Path, _Ratchet]] = [
            (a, value, old_value, path, _Ratchet(None, rt.parent)) for a in node.all_of
        ]
        if type(value) is list:
            if node.items is not None:
                old_items = make_map_list(node.schema, old_value if type(old_value) is list else None)
                children.extend((node.items, v, old_items.get(v), path.index(i), rt.index(i))
                                for i, v in enumerate(value))
        elif type(value) is dict:
            old_map = old_value if type(old_value) is dict else None
            correlatable = _map_is_correlatable(node.schema.extensions.x_map_type)
            if node.additional is not None:
                children.extend((node.additional, v, old_map.get(k) if correlatable and old_map else None,
                                 path.key(str(k)), rt.key(k)) for k, v in value.items())
            if node.properties:
                children.extend((node.properties[k], v, old_map.get(k) if correlatable and old_map else None,
                                 path.child(k), rt.key(k)) for k, v in value.items() if k in node.properties)
        stack.extend(reversed(children))


def validate_cel(
    obj: Any,
    ss: Structural,
    fld_path: Path | None,
    *,
    old_obj: Any = None,
    is_resource_root: bool = True,
    budget: int | None = None,
    ratcheting: bool = True,
    cost_path: str = "auto",
    per_call_limit: int = PER_CALL_LIMIT,
    new_validator: bool = True,
    release: Release | None = None,
) -> CelResult:
    """Evaluate every ``x-kubernetes-validations`` rule of ``ss`` on ``obj`` (a create, or an update from ``old_obj``).

    Args:
        obj: the (pruned, defaulted, schema-valid) object; plain JSON-like data
            (dicts, lists, str, int, float, bool, None).
        ss: its structural schema (``new_structural`` of the version's openAPIV3Schema).
        fld_path: the path of ``obj``; ``None`` is upstream's nil ``*field.Path``, which the
            registry strategies pass for a whole custom resource (create, update, status update):
            errors of root rules are then at ``<nil>``, those below at ``spec...``.
            (``Path("")`` puts root errors at ``""``.)
        old_obj: the stored object of an update (None for a create): transition
            rules run where an old value correlates, and failing rules on
            unchanged values are ratcheted into warnings.
        is_resource_root: ``obj`` is a resource root: ``apiVersion``, ``kind``
            and ``metadata.name``/``generateName`` are visible to root rules.
        budget: the request's cost budget (default ``RUNTIME_CEL_COST_BUDGET``).
        ratcheting: CRDValidationRatcheting (GA since 1.33: on) for updates.
        cost_path: ``"auto"`` (fast when ``budget`` is None, else exact),
            ``"exact"`` or ``"fast"`` (see the module docstring).
        per_call_limit: the actual-cost limit of one evaluation (upstream's
            ``perCallLimit`` argument, "for testing purpose only").
        new_validator: build the validator as ``NewValidator`` does (the
            apiserver's way), which returns no validator when no node outside
            ``allOf`` has rules (``hasXValidations`` does not look into
            junctors, so rules only under ``allOf`` are then never evaluated);
            False: as the unexported ``validator`` that upstream's own tests
            call, without that check.
        release: the Kubernetes release whose apiserver evaluates (its stored-expressions CEL
            environment); None: :data:`crdtool.core.releases.DEFAULT_RELEASE`.

    Returns:
        A :class:`CelResult`: upstream's field errors (rule false: ``Invalid``
        or the type named by ``reason``, detail = message, evaluated
        messageExpression or ``failed rule: <rule>``; runtime errors and cost
        exhaustion as upstream words them), the paths of skipped transition
        rules, the remaining budget and the ratcheted warnings.

    Never raises. Mirrors upstream ``NewValidator(s, isResourceRoot,
    PerCallLimit).Validate(ctx, fldPath, s, obj, oldObj, budget,
    WithRatcheting(NewCorrelatedObject(obj, oldObj, s)))`` in
    ``apiextensions-apiserver/pkg/apiserver/schema/cel/validation.go``.
    """
    start = RUNTIME_CEL_COST_BUDGET if budget is None else budget
    if cost_path == "auto":
        exact = budget is not None
    else:
        exact = cost_path == "exact"
    nil_root = fld_path is None
    path = Path("" if fld_path is None else fld_path)
    try:
        tree = _validator(ss, is_resource_root, new_validator, release)
    except RecursionError:
        return CelResult(errors=[internal_error(NIL_PATH if nil_root else path, "schema or object too deeply nested for CEL validation")],
                         remaining_budget=start)
    if tree is None or obj is None:
        return CelResult(remaining_budget=start)
    ratchet = _NO_RATCHET
    if old_obj is not None and ratcheting:
        ratchet = _Ratchet(CorrelatedObject(obj, old_obj, ss), None)
    observer = RULE_OBSERVER.get()
    state = _State(remaining=start, exact=exact, per_call_limit=per_call_limit, nil_root=nil_root,
                   events=None if observer is None else [])
    try:
        try:
            _walk(tree, obj, old_obj, path, ratchet, state)
        except _NeedExact:
            if old_obj is not None and ratcheting:
                ratchet = _Ratchet(CorrelatedObject(obj, old_obj, ss), None)
            state = _State(remaining=start, exact=True, per_call_limit=per_call_limit, nil_root=nil_root,
                           events=None if observer is None else [])
            _walk(tree, obj, old_obj, path, ratchet, state)
    except RecursionError:
        state.errors.append(internal_error(NIL_PATH if nil_root else path,
                                           "schema or object too deeply nested for CEL validation"))
    except V.EvaluationTooLarge as exc:
        # upstream would build the value and exhaust memory; crdtool stops with an internal error
        state.errors.append(internal_error(NIL_PATH if nil_root else path, f"CEL evaluation stopped: {exc}"))
        state.remaining = -1
    if observer is not None and state.events:
        for event in state.events:
            observer(*event)
    return CelResult(errors=state.errors, skipped_transition_rules=state.skipped, remaining_budget=state.remaining,
                     warnings=state.warnings, exact_cost=state.exact, log=state.log)

