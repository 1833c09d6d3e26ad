"""CEL rules at CRD create: type information, compilation errors and the cost budgets.

Mirrors ``k8s.io/apiextensions-apiserver`` v0.30.14 … v0.37.0-beta.0 (unchanged across them)
``pkg/apis/apiextensions/validation/cel_validation.go`` (:class:`CelSchemaContext`
= ``CELSchemaContext`` with its lazily computed type information, its
``MaxCardinality`` and the CRD-wide :class:`TotalCost`) and the CEL half of
``ValidateCustomResourceDefinitionOpenAPISchema`` in ``validation.go``
(:func:`validate_rules`: per-rule ``Forbidden`` cost errors
``estimated rule cost exceeds budget by factor of ...``, compile errors at
``x-kubernetes-validations[i].rule``/``messageExpression``, transition-rule
checks) plus the per-CRD total (:func:`total_cost_errors`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Mapping

from crdtool.core.errors import FieldError, Path, forbidden, internal_error, invalid, required
from crdtool.core.crd.internal_json import internal_validation_rule
from crdtool.core.crd.options import PreexistingExpressions
from crdtool.core.releases import DEFAULT_RELEASE
from crdtool.core.schema.structural import Structural

if TYPE_CHECKING:  # the CEL layers are imported where a schema has rules: a CRD without any starts faster
    from crdtool.core.kubecel.decltype import DeclType
    from crdtool.core.kubecel.environment import EnvSet

__all__ = [
    "CelSchemaContext",
    "STATIC_ESTIMATED_COST_LIMIT",
    "STATIC_ESTIMATED_CRD_COST_LIMIT",
    "TotalCost",
    "cost_error_message",
    "total_cost_errors",
    "validate_rules",
]

#: ``StaticEstimatedCostLimit``: the largest static cost of one expression.
STATIC_ESTIMATED_COST_LIMIT = 10_000_000
#: ``StaticEstimatedCRDCostLimit``: the largest total of a CRD's (per-version schema's) rules.
STATIC_ESTIMATED_CRD_COST_LIMIT = 100_000_000
_MAX_UINT = (1 << 64) - 1

_UNCONVERTIBLE = "unable to convert structural schema to CEL declarations"


def multiply_with_overflow_guard(base_cost: int, cardinality: int) -> int:
    """``multiplyWithOverflowGuard``."""
    if base_cost == 0:
        return 0
    if _MAX_UINT // base_cost < cardinality:
        return _MAX_UINT
    return base_cost * cardinality


def _go_f(x: float) -> str:
    """Go ``%f``."""
    return f"{x:f}"


def cost_error_message(cost_name: str, expression_cost: int, cost_limit: int) -> str:
    """``getCostErrorMessage``."""
    factor = float(expression_cost) / float(cost_limit)
    if factor > 100.0:
        text = "more than 100x"
    elif factor < 1.5:
        text = f"{_go_f(factor)}x"
    else:
        text = f"{factor:.1f}x"
    return (
        f"{cost_name} exceeds budget by factor of {text} (try simplifying the rule, or adding maxItems, "
        "maxProperties, and maxLength where arrays, maps, and strings are declared)"
    )


@dataclass
class TotalCost:
    """``TotalCost``: the running total and the (at most four) most expensive rules over 1% of the limit.

    ``log``, when a list, also receives every ``(path, cost)`` observed, in order (no upstream
    counterpart: :mod:`crdtool.core.lint` explains the total with it).
    """

    total: int = 0
    most_expensive: list[tuple[Path, int]] = field(default_factory=list)
    log: list[tuple[Path, int]] | None = None

    def observe(self, path: Path, cost: int) -> None:
        """``ObserveExpressionCost``."""
        if self.log is not None:
            self.log.append((path, cost))
        self.total = _MAX_UINT if _MAX_UINT - self.total < cost else self.total + cost
        if cost < STATIC_ESTIMATED_CRD_COST_LIMIT // 100:
            return
        self.most_expensive.append((path, cost))
        self.most_expensive.sort(key=lambda pc: pc[1], reverse=True)
        del self.most_expensive[4:]


@dataclass
class _TypeInfo:
    schema: Structural
    decl_type: DeclType | None


def _extract_max_elements(schema: Mapping[str, Any]) -> int | None:
    """``extractMaxElements``: how much a schema multiplies its children's cardinality (None: unbounded)."""
    t = schema.get("type")
    if t == "object":
        if "additionalProperties" in schema and schema.get("additionalProperties") is not None:
            mp = schema.get("maxProperties")
            return max(int(mp), 0) if isinstance(mp, int) and not isinstance(mp, bool) else None
        return 1
    if t == "array":
        mi = schema.get("maxItems")
        return max(int(mi), 0) if isinstance(mi, int) and not isinstance(mi, bool) else None
    return 1


class _Unset:
    """Not computed yet (a child context's max cardinality)."""


_UNSET = _Unset()


@dataclass
class CelSchemaContext:
    """``CELSchemaContext`` for one schema node.

    ``structural`` is the node's structural schema (from the root's),
    ``accessor`` how its type is reached from the parent's
    (``("property", name)``, ``("items",)``, ``("additionalProperties",)``).
    ``max_cardinality`` None means unbounded. ``release``: the Kubernetes release whose apiserver
    validates (its ``WithTypeAndObjectMeta`` shapes the type of resource roots).
    """

    json_schema: Mapping[str, Any]
    structural: Structural | None
    within_scope: bool
    total_cost: TotalCost
    max_cardinality: int | None
    parent: CelSchemaContext | None = None
    accessor: tuple[str, ...] = ()
    _info: _TypeInfo | None = None
    _error: str | None = None
    _computed: bool = False
    _child_cardinality: int | None | _Unset = _UNSET
    #: the minor of the Kubernetes release whose CEL types (``SchemaDeclType``) the node gets
    minor: int = DEFAULT_RELEASE.minor
    #: :func:`~crdtool.core.crdcel.compilation.decl_type_digest`'s table, shared by the contexts of one root
    #: (a node's type is part of its ancestors': each digested once)
    digests: dict[int, tuple[Any, bytes]] = field(default_factory=dict, repr=False, compare=False)

    @staticmethod
    def root(schema: Mapping[str, Any], structural: Structural | None, minor: int = DEFAULT_RELEASE.minor) -> CelSchemaContext:
        """``RootCELContext``."""
        return CelSchemaContext(schema, structural, bool(schema.get("x-kubernetes-validations")), TotalCost(), 1,
                                minor=minor)

    def child(self, schema: Mapping[str, Any], structural: Structural | None, accessor: tuple[str, ...]) -> CelSchemaContext:
        """``childContext``."""
        cardinality = self._child_cardinality
        if isinstance(cardinality, _Unset):  # the same for every child: computed for the first
            cardinality = None
            if self.max_cardinality is not None:
                factor = _extract_max_elements(self.json_schema)
                if factor is not None:
                    cardinality = multiply_with_overflow_guard(self.max_cardinality, factor)
            self._child_cardinality = cardinality
        return CelSchemaContext(
            schema, structural, self.within_scope or bool(schema.get("x-kubernetes-validations")), self.total_cost,
            cardinality, self, accessor, minor=self.minor, digests=self.digests,
        )

    def type_info(self) -> tuple[_TypeInfo | None, str | None]:
        """``TypeInfo``: the node's structural schema and DeclType, or the conversion error."""
        chain: list[CelSchemaContext] = []
        cur: CelSchemaContext | None = self
        while cur is not None and not cur._computed and cur.within_scope:
            chain.append(cur)
            cur = cur.parent
        for ctx in reversed(chain):
            ctx._resolve()
        if not self.within_scope:
            return None, None
        return self._info, self._error

    def _resolve(self) -> None:
        self._computed = True
        parent = self.parent
        if parent is not None and parent.within_scope:
            if parent._error is not None:
                self._error = parent._error
                return
            if parent._info is not None and self.accessor:
                info = self._access(parent._info)
                if info is not None:
                    self._info = info
                    return
        if self.structural is None:
            self._error = _UNCONVERTIBLE
            return
        from crdtool.core.kubecel.decltype import schema_decl_type

        is_root = parent is None or bool(self.json_schema.get("x-kubernetes-embedded-resource"))
        decl = schema_decl_type(self.structural, is_root, self.minor)
        if decl is None:
            self._error = _UNCONVERTIBLE
            return
        self._info = _TypeInfo(self.structural, decl)

    def _access(self, parent: _TypeInfo) -> _TypeInfo | None:
        kind = self.accessor[0]
        ps = parent.schema
        if kind == "property":
            from crdtool.core.kubecel.decltype import escape

            name = self.accessor[1]
            prop = ps.properties.get(name)
            escaped = escape(name)
            if escaped is None or parent.decl_type is None or parent.decl_type.fields is None:
                return None
            f = parent.decl_type.fields.get(escaped)
            if f is None or prop is None:
                return None
            return _TypeInfo(prop, f.type)
        if kind == "items":
            if ps.items is None:
                return None
            return _TypeInfo(ps.items, parent.decl_type.elem_type if parent.decl_type is not None else None)
        if kind == "additionalProperties":
            ap = ps.additional_properties_schema
            if ps.additional_properties is None or ap is None:
                return None
            return _TypeInfo(ap, parent.decl_type.elem_type if parent.decl_type is not None else None)
        return None


def _expression_cost(max_cost: int, rule_cardinality: int, ctx: CelSchemaContext) -> int:
    """``getExpressionCost``."""
    if ctx.max_cardinality is not None:
        return multiply_with_overflow_guard(max_cost, ctx.max_cardinality)
    return multiply_with_overflow_guard(max_cost, rule_cardinality)


def validate_rules(
    ctx: CelSchemaContext,
    rules: list[Mapping[str, Any]],
    base: Path,
    uncorrelatable_old_self_path: str | None,
    suppress_per_expression_cost: bool = False,
    env_set: EnvSet | None = None,
    preexisting: PreexistingExpressions = PreexistingExpressions(),
) -> list[FieldError]:
    """The CEL-error half of ``ValidateCustomResourceDefinitionOpenAPISchema`` for one node.

    In: the node's context, its ``x-kubernetes-validations`` entries (dicts),
    the ``x-kubernetes-validations`` path, where an ancestor makes ``oldSelf``
    uncorrelatable (or None); whether per-expression cost limits are
    suppressed (an update of an unchanged schema); the CEL environments and
    the expressions that pre-existed an update. Out: upstream's CEL errors in
    order; costs are also recorded in ``ctx.total_cost``.
    """
    from crdtool.core.crdcel.compilation import RuleSource, compile_rules
    from crdtool.core.kubecel.environment import KUBERNETES_ENV_SET

    info, err = ctx.type_info()
    if err is not None:
        return [internal_error(base, f"internal error: failed to construct type information for "
                                     f"x-kubernetes-validations rules: {err}")]
    if info is None:
        return [internal_error(base, "internal error: failed to retrieve type information for x-kubernetes-validations")]
    if info.decl_type is None:
        return [internal_error(base, "failed to convert to declType for CEL validation rules")]
    results = compile_rules(
        [RuleSource.of(r) for r in rules], info.decl_type, env_set or KUBERNETES_ENV_SET, preexisting.rules,
        preexisting.message_expressions, digests=ctx.digests,
    )
    errs: list[FieldError] = []
    for i, (rule, cr) in enumerate(zip(rules, results)):
        p = base.index(i)
        rule_path = p.child("rule")
        cost = _expression_cost(cr.max_cost, cr.max_cardinality, ctx)
        if not suppress_per_expression_cost and cost > STATIC_ESTIMATED_COST_LIMIT:
            errs.append(forbidden(rule_path, cost_error_message("estimated rule cost", cost, STATIC_ESTIMATED_COST_LIMIT)))
        ctx.total_cost.observe(rule_path, cost)
        if cr.error is not None:
            kind, detail = cr.error
            if kind == "Required":
                errs.append(required(rule_path, detail))
            else:
                errs.append(invalid(rule_path, internal_validation_rule(dict(rule)), detail))
        if cr.message_expression_error is not None:
            errs.append(invalid(p.child("messageExpression"), internal_validation_rule(dict(rule)), cr.message_expression_error[1]))
        elif cr.has_message_expression:
            msg_path = p.child("messageExpression")
            if not suppress_per_expression_cost and cr.message_expression_max_cost > STATIC_ESTIMATED_COST_LIMIT:
                errs.append(forbidden(msg_path, cost_error_message(
                    "estimated messageExpression cost", cr.message_expression_max_cost, STATIC_ESTIMATED_COST_LIMIT)))
            ctx.total_cost.observe(msg_path, cr.message_expression_max_cost)
        if cr.uses_old_self:
            if uncorrelatable_old_self_path is not None:
                errs.append(invalid(rule_path, rule.get("rule") or "",
                                    f"oldSelf cannot be used on the uncorrelatable portion of the schema within "
                                    f"{uncorrelatable_old_self_path}"))
        elif rule.get("optionalOldSelf") is not None:
            errs.append(invalid(p.child("optionalOldSelf"), rule["optionalOldSelf"],
                                "may not be set if oldSelf is not used in rule"))
    return errs


def total_cost_errors(ctx: CelSchemaContext, schema_path: Path) -> list[FieldError]:
    """The per-schema total-cost errors of ``validateCustomResourceDefinitionValidation``."""
    total = ctx.total_cost
    if total.total <= STATIC_ESTIMATED_CRD_COST_LIMIT:
        return []
    errs = [
        forbidden(path, "contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema")
        for path, _ in total.most_expensive
    ]
    errs.append(forbidden(schema_path, cost_error_message(
        "x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema", total.total,
        STATIC_ESTIMATED_CRD_COST_LIMIT)))
    return errs
