"""The CEL cost of a CRD's rules, explained: per rule, per schema, what drives it and which bounds fix it.

kube-apiserver refuses a CRD whose ``x-kubernetes-validations`` rules are estimated too expensive
(``estimated rule cost exceeds budget by factor of 3.1x (try simplifying the rule, or adding maxItems,
maxProperties, and maxLength where arrays, maps, and strings are declared)``) without saying which
array or string, what bound would do, or how close the other rules are. This module gives those
numbers, computed by the validator's own machinery, not a copy of it:

* the walk of ``ValidateCustomResourceDefinitionOpenAPISchema`` is replayed over each version's schema
  with the validator's :class:`~crdtool.core.crd.cel_validation.CelSchemaContext` (cardinalities,
  type information, the CRD-wide :class:`~crdtool.core.crd.cel_validation.TotalCost`), and each node's
  rules go through :func:`~crdtool.core.crd.cel_validation.validate_rules` -- the very function CRD
  validation calls -- whose observed costs are read back through ``TotalCost.log``; so every
  number here is the one the apiserver compares with its limits (``StaticEstimatedCostLimit``,
  ``StaticEstimatedCRDCostLimit``, ``pkg/apis/apiextensions/validation/validation.go``);
* the *drivers* of a rule's cost are the lists, maps and strings whose size the cost estimator read
  (:class:`~crdtool.core.crdcel.compilation.CompilationResult` ``size_paths``, recorded by the
  schema size estimator of ``compilation.go``) and whose size was assumed from the 3 MiB request
  limit because the schema declares no ``maxItems``/``maxProperties``/``maxLength``; plus, for a
  rule whose node lies inside an unbounded list or map, those collections (they make the rule run
  ``maxCardinality`` times, also assumed from the request limit);
* a *fix* is found by editing the schema and running the estimator again: the estimate only grows
  with a bound, so a binary search finds the largest ``maxItems``/``maxProperties``/``maxLength``
  that brings the rule (or the schema's total) under 90% of its limit, clear of the near-limit
  warning -- the next larger value does not (under the limit itself when no bound reaches 90%).

All releases' numbers go through :func:`_schema_costs`, the one function that takes a Kubernetes
release (ignored until the per-release cost model lands: every release is costed as the default).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from crdtool.core.crd.cel_validation import (
    STATIC_ESTIMATED_COST_LIMIT,
    STATIC_ESTIMATED_CRD_COST_LIMIT,
    CelSchemaContext,
    _extract_max_elements,  # extractMaxElements: which collections multiply a rule's cardinality
    multiply_with_overflow_guard,
    validate_rules,
)
from crdtool.core.crdcel.compilation import CompilationResult, RuleSource, compile_rules
from crdtool.core.errors import Path
from crdtool.core.kubecel.decltype import DeclType, escape, schema_decl_type, with_type_and_object_meta
from crdtool.core.kubecel.environment import EnvSet, release_env_set
from crdtool.core.releases import DEFAULT_RELEASE, Release, resolve_release
from crdtool.core.lint.schemas import (
    Location,
    Step,
    as_dict,
    child_nodes,
    node_at,
    node_path,
    version_schemas,
    with_edits,
)
from crdtool.core.schema.structural import Structural, StructuralError, new_structural

__all__ = [
    "CRD_LIMIT",
    "NEAR_FRACTION",
    "RULE_LIMIT",
    "BoundFix",
    "CostBreakdown",
    "ExpressionCost",
    "FixOption",
    "SchemaCost",
    "SizeDriver",
    "apply_fix",
    "cost_breakdown",
    "plan_cost_fixes",
    "schema_cost_breakdown",
]

#: ``StaticEstimatedCostLimit``: the largest estimated cost of one rule or messageExpression.
RULE_LIMIT = STATIC_ESTIMATED_COST_LIMIT
#: ``StaticEstimatedCRDCostLimit``: the largest total of one schema's rules.
CRD_LIMIT = STATIC_ESTIMATED_CRD_COST_LIMIT
#: A cost above this fraction of its limit is "near" it (a warning; its fixes aim below it).
NEAR_FRACTION = 0.9
#: How far the search for a bound goes: a bound that fixes nothing below this does not matter.
_SEARCH_CAP = 1 << 40
#: The drivers of how many of the most expensive expressions a fix of the schema's total considers
#: (upstream's ``TotalCost.MostExpensive`` keeps four).
_TOTAL_FIX_EXPRESSIONS = 4


# --- results ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class SizeDriver:
    """A list, map or string whose size a rule's cost estimate used.

    Attributes:
        path: the manifest path of its schema node (where the bound goes).
        location: that node's location in the schema (:mod:`crdtool.core.lint.schemas`).
        kind: ``"list"``, ``"map"`` or ``"string"``.
        keyword: its bound: ``"maxItems"``, ``"maxProperties"`` or ``"maxLength"``.
        size: the size the estimate used: items, properties, or (strings) bytes (cel-go sizes strings in
            UTF-8 bytes: ``maxLength: N`` counts as ``4N``).
        assumed: the schema declares no bound: ``size`` comes from the 3 MiB request limit.
        role: ``"size"`` (the expression reads it) or ``"cardinality"`` (the rule's node is inside it, so
            the rule runs once per element; with any enclosing collection unbounded the apiserver
            assumes the rule runs ``3 MiB / (smallest JSON of the rule's node + 1)`` times).
        implicit: the schema does not declare the node: the apiserver adds it itself
            (``kind``, ``apiVersion``, ``metadata.name``, ``metadata.generateName`` of a resource);
            bounding it means declaring them (and ``kind``/``apiVersion``) in the schema.
        minimum: the node's ``minItems``/``minProperties``/``minLength`` (a bound below it would
            leave no valid value), 0 when none.
    """

    path: str
    location: Location
    kind: str
    keyword: str
    size: int
    assumed: bool = True
    role: str = "size"
    implicit: bool = False
    minimum: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {"path": self.path, "kind": self.kind, "keyword": self.keyword, "size": self.size,
                "assumed": self.assumed, "role": self.role, "implicit": self.implicit}


@dataclass(frozen=True)
class BoundFix:
    """``keyword: value`` on the schema node at ``location``, written at every one of ``paths``.

    ``paths`` are the manifest paths of the node in each place the schema is written (versions whose
    schemas are identical are validated as one by the apiserver, and must change together).
    ``declare``: the node is one the apiserver adds itself (``metadata.name``...): the edit declares
    it, and what the apiserver then needs to use the declaration (``kind`` and ``apiVersion`` as
    strings, ``metadata`` with ``name`` and ``generateName``).
    """

    location: Location
    keyword: str
    value: int
    paths: tuple[str, ...]
    schema_paths: tuple[str, ...]
    declare: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"path": self.paths[0], "paths": list(self.paths), "keyword": self.keyword, "value": self.value,
                "declare": self.declare}


@dataclass(frozen=True)
class FixOption:
    """Bounds that, applied together, bring a cost under its target; ``cost_after`` is the estimate then.

    ``target``: the estimate the bounds were chosen for (each bound the largest that keeps the cost at or
    under it): ``headroom`` -- :data:`NEAR_FRACTION` of the limit, so that the fixed CRD is neither over
    its limit nor near it (``lint`` reports neither CRD001/CRD003 nor CRD002/CRD004 afterwards) -- or
    ``limit``, only when no bound reaches the headroom (a ``minItems``/``minLength`` keeps the cost above
    it): the apiserver then accepts the CRD, and the cost stays near its limit.
    """

    bounds: tuple[BoundFix, ...]
    cost_after: int
    target: str = "headroom"

    def to_dict(self) -> dict[str, Any]:
        return {"bounds": [b.to_dict() for b in self.bounds], "costAfter": self.cost_after, "target": self.target}


@dataclass(frozen=True)
class ExpressionCost:
    """The estimated cost of one ``rule`` or ``messageExpression``.

    Attributes:
        kind: ``"rule"`` or ``"messageExpression"``.
        path: its manifest path (``...x-kubernetes-validations[0].rule``).
        location, index: the schema node holding it and its index in ``x-kubernetes-validations``.
        expression: its text.
        cost: cel-go's estimated worst-case cost of one evaluation (``MaxCost``).
        cardinality: how many times it can run in one request (the product of the enclosing lists'
            and maps' ``maxItems``/``maxProperties``, else upstream's ``maxCardinality`` from the
            request limit); None for a messageExpression (upstream does not multiply its cost).
        cardinality_assumed: the cardinality comes from the request limit (an enclosing list or map
            is unbounded).
        estimated: ``cost x cardinality``, saturating at 2^64-1: what the apiserver compares with
            :data:`RULE_LIMIT` and adds to the schema's total.
        drivers: the sizes the estimate used (:class:`SizeDriver`): the collections the rule's node
            is in (when they multiply its cardinality), then the sizes it read, in the order first
            read; the cost drivers are those ``assumed`` (:attr:`assumed_drivers`).
        fixes: when ``estimated`` is over or near the limit: the options that bring it under
            :data:`NEAR_FRACTION` of :data:`RULE_LIMIT` (:attr:`FixOption.target` ``headroom``; for an
            over-limit cost no bound brings there, under the limit: ``limit``), best first; empty when
            no bound does (simplify the rule).
    """

    kind: str
    path: str
    location: Location
    index: int
    expression: str
    cost: int
    cardinality: int | None
    cardinality_assumed: bool
    estimated: int
    drivers: tuple[SizeDriver, ...] = ()
    fixes: tuple[FixOption, ...] = ()

    @property
    def assumed_drivers(self) -> tuple[SizeDriver, ...]:
        """The sizes assumed from the request limit rather than declared."""
        return tuple(d for d in self.drivers if d.assumed)

    @property
    def over(self) -> bool:
        """The apiserver refuses the CRD for this expression."""
        return self.estimated > RULE_LIMIT

    @property
    def near(self) -> bool:
        """Not over the limit, but within 10% of it."""
        return not self.over and self.estimated > NEAR_FRACTION * RULE_LIMIT

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind, "path": self.path, "expression": self.expression, "cost": self.cost,
            "cardinality": self.cardinality, "cardinalityAssumed": self.cardinality_assumed,
            "estimated": self.estimated, "ruleLimitShare": _share(self.estimated, RULE_LIMIT),
            "crdLimitShare": _share(self.estimated, CRD_LIMIT), "overLimit": self.over, "nearLimit": self.near,
            "drivers": [d.to_dict() for d in self.drivers], "fixes": [f.to_dict() for f in self.fixes],
        }


@dataclass(frozen=True)
class SchemaCost:
    """The rules of one schema (the versions in ``versions`` share it) and their total.

    ``paths``: the manifest paths of its ``openAPIV3Schema`` (one per place it is written).
    ``total``: the sum the apiserver compares with :data:`CRD_LIMIT`. ``fixes``: when the total is
    over or near that limit, the options that bring it under (as for :class:`ExpressionCost`).
    ``note``: why there are no costs (a schema that is not structural: the apiserver compiles none
    of its rules), else None.
    """

    versions: tuple[str, ...]
    paths: tuple[str, ...]
    expressions: tuple[ExpressionCost, ...]
    total: int
    fixes: tuple[FixOption, ...] = ()
    note: str | None = None

    @property
    def over(self) -> bool:
        return self.total > CRD_LIMIT

    @property
    def near(self) -> bool:
        return not self.over and self.total > NEAR_FRACTION * CRD_LIMIT

    def to_dict(self) -> dict[str, Any]:
        return {
            "versions": list(self.versions), "path": self.paths[0], "paths": list(self.paths), "total": self.total,
            "crdLimitShare": _share(self.total, CRD_LIMIT), "overLimit": self.over, "nearLimit": self.near,
            "expressions": [e.to_dict() for e in self.expressions], "fixes": [f.to_dict() for f in self.fixes],
            "note": self.note,
        }


@dataclass(frozen=True)
class CostBreakdown:
    """The CEL costs of one CRD under one Kubernetes release.

    ``kubernetes_version``: the release asked for (None: the default release). ``schemas``: one
    :class:`SchemaCost` per distinct version schema, in manifest order.
    """

    kubernetes_version: str | None
    schemas: tuple[SchemaCost, ...]
    rule_limit: int = RULE_LIMIT
    crd_limit: int = CRD_LIMIT

    @property
    def expressions(self) -> list[ExpressionCost]:
        return [e for s in self.schemas for e in s.expressions]

    def to_dict(self) -> dict[str, Any]:
        return {"kubernetesVersion": self.kubernetes_version, "ruleLimit": self.rule_limit,
                "crdLimit": self.crd_limit, "schemas": [s.to_dict() for s in self.schemas]}


def _share(cost: int, limit: int) -> float:
    """``cost / limit`` rounded to 4 decimals (1.0 is the limit)."""
    return round(cost / limit, 4)


# --- the one function that costs a schema under a release --------------------------------------


def _env_set(kubernetes_version: str | None) -> EnvSet:
    """The CEL environments of ``kubernetes_version``'s apiserver (None: the default release's)."""
    return release_env_set(resolve_release(kubernetes_version))


@dataclass
class _Expr:
    location: Location
    index: int
    kind: str
    text: str
    result: CompilationResult
    estimated: int
    cardinality: int | None
    cardinality_assumed: bool
    ctx: CelSchemaContext
    structural: Structural | None
    decl: DeclType | None


@dataclass
class _Costs:
    exprs: list[_Expr] = field(default_factory=list)
    total: int = 0


def _struct_child(ss: Structural | None, step: Step) -> Structural | None:
    if ss is None or len(step) == 2 and step[0] == "items":
        return None
    if step[0] == "properties":
        return ss.properties.get(step[1])
    if step[0] == "items":
        return ss.items
    return ss.additional_properties_schema


def _accessor(step: Step) -> tuple[str, ...]:
    if step[0] == "properties":
        return ("property", step[1])
    return (step[0],)


def _has_rules(schema: Any) -> bool:
    """Whether any node of ``schema`` (a JSON-like tree) has ``x-kubernetes-validations``."""
    stack = [schema]
    while stack:
        cur = stack.pop()
        if isinstance(cur, dict):
            if cur.get("x-kubernetes-validations"):
                return True
            stack.extend(v for v in cur.values() if isinstance(v, (dict, list)))
        elif isinstance(cur, list):
            stack.extend(v for v in cur if isinstance(v, (dict, list)))
    return False


def _schema_costs(
    schema: Mapping[str, Any], kubernetes_version: str | None, only: Location | None = None,
    root_ss: Structural | None = None,
) -> _Costs | str:
    """The estimated cost of every rule and messageExpression of ``schema``, as CRD validation computes it.

    Replays the CEL half of ``ValidateCustomResourceDefinitionOpenAPISchema``: the same contexts
    (children of ``properties``, ``additionalProperties`` and ``items``, a list-form ``items``
    without structural information), :func:`validate_rules` on every node with rules inside a CEL
    scope, the costs read back from ``TotalCost.log``. ``only``: cost only the rules of the node at
    this location (the walk goes down to it alone); the total is then that node's. Returns the
    costs, or why there are none (the schema is not structural). Never raises for a decoded schema.
    """
    if root_ss is None:
        try:
            root_ss = new_structural(schema)
        except StructuralError as exc:
            return f"the schema is not structural ({exc}): the apiserver compiles none of its rules"
    env_set = _env_set(kubernetes_version)
    root = CelSchemaContext.root(schema, root_ss, resolve_release(kubernetes_version).minor)
    log: list[tuple[Path, int]] = []
    root.total_cost.log = log
    out = _Costs()
    stack: list[tuple[Location, Mapping[str, Any], Structural | None, CelSchemaContext]] = [((), schema, root_ss, root)]
    while stack:
        loc, s, ss, ctx = stack.pop()
        if only is None or loc == only:
            rules: list[Mapping[str, Any]] = [r for r in (s.get("x-kubernetes-validations") or []) if isinstance(r, dict)]
            if rules and ctx.within_scope:
                _cost_node(loc, rules, ctx, env_set, log, out)
        children = []
        for step, sub in child_nodes(s):
            child_loc = (*loc, step)
            if only is not None and only[: len(child_loc)] != child_loc:
                continue
            sub_ss = _struct_child(ss, step)
            children.append((child_loc, sub, sub_ss, ctx.child(sub, sub_ss, _accessor(step))))
        stack.extend(reversed(children))
    out.total = root.total_cost.total
    return out


def _cost_node(
    loc: Location, rules: list[Mapping[str, Any]], ctx: CelSchemaContext, env_set: EnvSet,
    log: list[tuple[Path, int]], out: _Costs,
) -> None:
    start = len(log)
    validate_rules(ctx, rules, Path("x-kubernetes-validations"), None, env_set=env_set)
    observed = log[start:]
    if not observed:
        return  # no type information: upstream's internal error, nothing costed
    info, _ = ctx.type_info()
    assert info is not None and info.decl_type is not None
    results = compile_rules([RuleSource.of(r) for r in rules], info.decl_type, env_set)  # the memo's results
    it = iter(observed)
    for i, (rule, cr) in enumerate(zip(rules, results)):
        _, estimated = next(it)
        assumed = ctx.max_cardinality is None
        cardinality = cr.max_cardinality if assumed else ctx.max_cardinality
        assert cardinality is not None
        assert estimated == multiply_with_overflow_guard(cr.max_cost, cardinality)
        out.exprs.append(_Expr(loc, i, "rule", str(rule.get("rule") or ""), cr, estimated, cardinality, assumed, ctx,
                               info.schema, info.decl_type))
        if cr.message_expression_error is None and cr.has_message_expression:
            _, msg_cost = next(it)
            out.exprs.append(_Expr(loc, i, "messageExpression", str(rule.get("messageExpression") or ""), cr,
                                   msg_cost, None, False, ctx, info.schema, info.decl_type))


# --- drivers ---------------------------------------------------------------------------------------

_IMPLICIT_ROOT_FIELDS = ("kind", "apiVersion", "metadata")


def _is_resource_root(ss: Structural, is_root: bool) -> bool:
    return (is_root or ss.extensions.x_embedded_resource) and not ss.extensions.x_int_or_string


def _size_of(ss: Structural) -> tuple[str, str, bool, int] | None:
    """``(kind, keyword, assumed, minimum)`` for a node whose size an estimate can read and a bound can lower.

    ``assumed``: its ``MaxElements`` comes from the request limit (``SchemaDeclType``,
    ``pkg/cel/common/schemas.go``), not from the schema. None for everything else, and for strings
    sized otherwise (an ``enum``: its longest value; ``duration``, ``date``, ``date-time``: fixed).
    """
    vv = ss.value_validation
    if ss.extensions.x_int_or_string:
        return "string", "maxLength", vv is None or vv.max_length is None, _minimum(vv.min_length if vv else None)
    if ss.type == "array":
        return "list", "maxItems", vv is None or vv.max_items is None, _minimum(vv.min_items if vv else None)
    if ss.type == "object" and ss.additional_properties_schema is not None:
        return ("map", "maxProperties", vv is None or vv.max_properties is None,
                _minimum(vv.min_properties if vv else None))
    if ss.type == "string":
        fmt = vv.format if vv is not None else ""
        if fmt in ("duration", "date", "date-time"):
            return None  # fixed sizes (limits.go), never from the request limit
        if fmt != "byte" and vv is not None and vv.max_length is None and vv.enum:
            return None
        return "string", "maxLength", vv is None or vv.max_length is None, _minimum(vv.min_length if vv else None)
    return None


def _minimum(value: int | None) -> int:
    return value if isinstance(value, int) and value > 0 else 0


def _follow(
    ss: Structural, decl: DeclType, is_root: bool, path: tuple[str, ...], release: Release = DEFAULT_RELEASE
) -> tuple[Location, Structural, DeclType, bool] | None:
    """The schema node a size path leads to from the rule's node: ``(relative location, node, type, implicit)``.

    Steps as ``SchemaSizeEstimator`` takes them (``@items``/``@values`` the element, ``@keys`` the
    key: never a schema node), field names escaped (``__namespace__``), a resource root seen with
    the fields ``WithTypeAndObjectMeta`` adds. None when the path leaves the schema.
    """
    loc: list[Step] = []
    implicit = False
    cur, cur_decl, root = ss, decl, is_root
    for name in path[1:]:
        if name in ("@items", "@values"):
            if cur_decl.elem_type is None:
                return None
            nxt = cur.items if cur.type == "array" else cur.additional_properties_schema
            loc.append(("items",) if cur.type == "array" else ("additionalProperties",))
            cur_decl = cur_decl.elem_type
        elif name == "@keys":
            return None
        else:
            f = cur_decl.fields.get(name) if cur_decl.fields is not None else None
            if f is None:
                return None
            view = with_type_and_object_meta(cur, release.minor) if _is_resource_root(cur, root) else cur
            prop = next((p for p in view.properties if escape(p) == name), None)
            if prop is None:
                return None
            if view is not cur and (prop in _IMPLICIT_ROOT_FIELDS or implicit):
                implicit = True
            nxt = view.properties[prop]
            loc.append(("properties", prop))
            cur_decl = f.type
        if nxt is None:
            return None
        cur, root = nxt, False
    return tuple(loc), cur, cur_decl, implicit


class _Drivers:
    """The sizes each expression's cost used in one schema; collections' assumed sizes computed once."""

    def __init__(self, root_ss: Structural | None, base: str, release: Release = DEFAULT_RELEASE) -> None:
        self.root_ss = root_ss
        self.base = base
        self.release = release
        self._decls: dict[int, DeclType | None] = {}

    def of(self, e: _Expr, schema: Mapping[str, Any]) -> tuple[SizeDriver, ...]:
        out: dict[tuple[Location, str], SizeDriver] = {}
        if e.kind == "rule":
            for d in self._cardinality_drivers(e.location, schema):
                out.setdefault((d.location, d.keyword), d)
        if e.structural is not None and e.decl is not None:
            paths = e.result.size_paths if e.kind == "rule" else e.result.message_size_paths
            is_root = e.ctx.parent is None
            for path in paths:
                found = _follow(e.structural, e.decl, is_root, path, self.release)
                if found is None:
                    continue
                rel, node, decl, implicit = found
                size = _size_of(node)
                if size is None:
                    continue
                kind, keyword, assumed, minimum = size
                loc = (*e.location, *rel)
                out.setdefault((loc, keyword), SizeDriver(
                    str(node_path(self.base, loc)), loc, kind, keyword, decl.max_elements, assumed, "size", implicit,
                    minimum))
        return tuple(out.values())

    def _cardinality_drivers(self, location: Location, schema: Mapping[str, Any]) -> list[SizeDriver]:
        """The lists and maps the node at ``location`` is inside (``extractMaxElements`` of each ancestor)."""
        out = []
        node: Mapping[str, Any] | None = schema
        ss = self.root_ss
        for depth, step in enumerate(location):
            if node is None:
                break
            is_list = node.get("type") == "array"
            is_map = node.get("type") == "object" and isinstance(node.get("additionalProperties"), dict)
            if is_list or is_map:
                loc = location[:depth]
                factor = _extract_max_elements(node)
                if factor is None:
                    decl = self._decl(ss, depth == 0)
                    size = decl.max_elements if decl is not None else 0
                else:
                    size = factor
                kind, keyword, low = ("list", "maxItems", "minItems") if is_list else ("map", "maxProperties",
                                                                                       "minProperties")
                minimum = node.get(low)
                out.append(SizeDriver(str(node_path(self.base, loc)), loc, kind, keyword, size, factor is None,
                                      "cardinality", False, minimum if isinstance(minimum, int) and minimum > 0 else 0))
            node = node_at(node, (step,))
            ss = _struct_child(ss, step)
        return out

    def _decl(self, ss: Structural | None, is_root: bool) -> DeclType | None:
        if ss is None:
            return None
        hit = self._decls.get(id(ss), False)
        if hit is False:
            hit = self._decls[id(ss)] = schema_decl_type(ss, is_root or ss.extensions.x_embedded_resource, self.release.minor)
        return hit if isinstance(hit, DeclType) else None


# --- fixes ----------------------------------------------------------------------------------------


def _largest(passes: Callable[[int], bool], start: int, floor: int = 1) -> int | None:
    """The largest bound ``b >= floor`` with ``passes(b)``, for ``passes`` true up to some bound and false above.

    None when ``passes(floor)`` is false (no bound fixes it) or when it still holds at the search
    cap (the bound does not matter). Gallops up from ``start``, then bisects: O(log) calls.
    """
    floor = max(1, floor)
    if not passes(floor):
        return None
    lo, hi = floor, max(floor + 1, start)
    while passes(hi):
        if hi >= _SEARCH_CAP:
            return None
        lo, hi = hi, min(hi * 2, _SEARCH_CAP)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if passes(mid):
            lo = mid
        else:
            hi = mid
    return lo


def _start(d: SizeDriver) -> int:
    """Where the search for ``d``'s bound starts: the size it had, in the keyword's units."""
    if d.kind == "string":
        return max(1, math.ceil(d.size / 4))
    return max(1, d.size)


def _bound_edits(schema: Mapping[str, Any], bounds: Mapping[tuple[Location, str], int],
                 implicit: frozenset[Location]) -> dict[Location, dict[str, Any]]:
    """The node edits that set ``bounds``; an implicit node gets the declarations the apiserver needs to use it."""
    edits: dict[Location, dict[str, Any]] = {}
    for (loc, keyword), value in bounds.items():
        if loc in implicit:
            _declare_implicit(schema, loc, edits)
        edits.setdefault(loc, {})[keyword] = value
    return edits


def _declare_implicit(schema: Mapping[str, Any], loc: Location, edits: dict[Location, dict[str, Any]]) -> None:
    """Declare ``kind``, ``apiVersion``, ``metadata.name`` and ``metadata.generateName`` as strings at the resource.

    ``WithTypeAndObjectMeta`` (``pkg/apiserver/schema/cel/model``) keeps a resource's own
    declarations only when all four are declared as strings (and ``metadata`` as an object);
    otherwise it replaces them with plain strings, and a bound on one is not used.
    """
    resource = loc[: -2] if len(loc) >= 2 and loc[-2] == ("properties", "metadata") else loc[:-1]
    node = node_at(schema, resource) or {}
    props = as_dict(node.get("properties"))
    for name in ("kind", "apiVersion"):
        if not isinstance(props.get(name), dict):
            edits.setdefault((*resource, ("properties", name)), {}).setdefault("type", "string")
    meta_loc = (*resource, ("properties", "metadata"))
    meta = as_dict(props.get("metadata"))
    if meta.get("type") != "object":
        edits.setdefault(meta_loc, {})["type"] = "object"
    meta_props = as_dict(meta.get("properties"))
    for name in ("name", "generateName"):
        if not isinstance(meta_props.get(name), dict):
            edits.setdefault((*meta_loc, ("properties", name)), {}).setdefault("type", "string")


class _Search:
    """Re-running the estimator on a schema with bounds added, for one expression or the total."""

    def __init__(self, schema: Mapping[str, Any], kubernetes_version: str | None, implicit: frozenset[Location]) -> None:
        self.schema = schema
        self.kubernetes_version = kubernetes_version
        self.implicit = implicit

    def edited(self, bounds: Mapping[tuple[Location, str], int]) -> dict[str, Any]:
        return with_edits(dict(self.schema), _bound_edits(self.schema, bounds, self.implicit))

    def expression(self, e: _Expr, bounds: Mapping[tuple[Location, str], int]) -> int | None:
        costs = _schema_costs(self.edited(bounds), self.kubernetes_version, only=e.location)
        if isinstance(costs, str):
            return None
        for x in costs.exprs:
            if x.index == e.index and x.kind == e.kind:
                return x.estimated
        return None

    def total(self, bounds: Mapping[tuple[Location, str], int]) -> int | None:
        costs = _schema_costs(self.edited(bounds), self.kubernetes_version)
        return None if isinstance(costs, str) else costs.total


def _measure_expression(
    search: _Search, e: _Expr
) -> Callable[[Mapping[tuple[Location, str], int]], int | None]:
    return lambda bounds: search.expression(e, bounds)


def _options(
    drivers: tuple[SizeDriver, ...], measure: Callable[[Mapping[tuple[Location, str], int]], int | None],
    target: int, paths: tuple[str, ...], label: str = "headroom",
) -> tuple[FixOption, ...]:
    """The bounds that bring ``measure`` to ``target`` or below: each driver alone, and all of them at one value.

    Each option's bound is the largest that passes (with the next larger value the estimate is
    over ``target``; for the joint option, all of them one larger). Options are ranked by their
    tightest bound, loosest first (a rule over a list of strings is usually better served by
    ``maxItems: 100`` and ``maxLength: 100`` than by ``maxItems: 15`` or ``maxLength: 4`` alone).
    """
    def passes(bounds: Mapping[tuple[Location, str], int]) -> bool:
        cost = measure(bounds)
        return cost is not None and cost <= target

    def fix(d: SizeDriver, value: int) -> BoundFix:
        return BoundFix(d.location, d.keyword, value, tuple(str(node_path(p, d.location)) for p in paths), paths,
                        d.implicit)

    options: list[FixOption] = []
    for d in drivers:
        key = (d.location, d.keyword)
        value = _largest(lambda v: passes({key: v}), _start(d), d.minimum)
        if value is not None:
            after = measure({key: value})
            options.append(FixOption((fix(d, value),), after if after is not None else 0, label))
    if len(drivers) > 1:
        joint = list(drivers)
        floor = max(d.minimum for d in joint)
        value = _largest(lambda v: passes({(d.location, d.keyword): v for d in joint}), min(_start(d) for d in joint),
                         floor)
        if value is not None:
            # leave out the drivers the joint bound does not need, then bound the rest as loosely as they allow
            for d in list(joint):
                rest = [x for x in joint if x is not d]
                if rest and passes({(x.location, x.keyword): value for x in rest}):
                    joint = rest
            if len(joint) > 1:  # one driver left: its own option says it better
                value = _largest(lambda v: passes({(d.location, d.keyword): v for d in joint}),
                                 min(_start(d) for d in joint), max(d.minimum for d in joint)) or value
                after = measure({(d.location, d.keyword): value for d in joint})
                options.append(FixOption(tuple(fix(d, value) for d in joint), after if after is not None else 0,
                                         label))
    return tuple(sorted(options, key=lambda o: -min(b.value for b in o.bounds)))


def _headroom(limit: int) -> int:
    """The most a cost may be and not be near ``limit``: :data:`NEAR_FRACTION` of it."""
    return math.floor(NEAR_FRACTION * limit)


def _fix_options(
    cost: int, limit: int, drivers: tuple[SizeDriver, ...],
    measure: Callable[[Mapping[tuple[Location, str], int]], int | None], paths: tuple[str, ...],
) -> tuple[FixOption, ...]:
    """The options for a cost over or near ``limit`` (none when it is neither, or no bound helps).

    Every option aims under the near threshold (:func:`_headroom`), over the limit as well as near it:
    a rule brought just under its limit would be near it, and the next ``lint`` would warn (issue 27:
    ``--fix`` fixes for good). Only when no bound gets there (a ``minItems`` keeps the cost up) are the
    options those that bring an over-limit cost under the limit itself.
    """
    if cost <= _headroom(limit) or not drivers:
        return ()
    options = _options(drivers, measure, _headroom(limit), paths)
    if not options and cost > limit:
        options = _options(drivers, measure, limit, paths, "limit")
    return options


# --- the breakdown ----------------------------------------------------------------------------------


def _groups(crd: Mapping[str, Any]) -> list[tuple[list[str], list[str], dict[str, Any] | None]]:
    """Versions grouped by identical schema: ``(version names, manifest schema paths, schema)``."""
    out: list[tuple[list[str], list[str], dict[str, Any] | None]] = []
    for v in version_schemas(crd):
        for names, paths, schema in out:
            if schema == v.schema:
                names.append(v.name)
                if v.path not in paths:
                    paths.append(v.path)
                break
        else:
            out.append(([v.name], [v.path], v.schema))
    return out


def _schema_breakdown(
    schema: dict[str, Any], versions: tuple[str, ...], paths: tuple[str, ...], kubernetes_version: str | None,
    fixes: bool, rules: bool = False,
) -> SchemaCost:
    """``schema``'s costs; ``rules``: the caller knows it has rules."""
    if not rules and not _has_rules(schema):
        return SchemaCost(versions, paths, (), 0)
    try:
        root_ss = new_structural(schema)
    except StructuralError as exc:
        return SchemaCost(versions, paths, (), 0,
                          note=f"the schema is not structural ({exc}): the apiserver compiles none of its rules")
    costs = _schema_costs(schema, kubernetes_version, root_ss=root_ss)
    assert not isinstance(costs, str)
    drivers = _Drivers(root_ss, paths[0], resolve_release(kubernetes_version))
    exprs: list[ExpressionCost] = []
    by_expr: list[tuple[_Expr, tuple[SizeDriver, ...]]] = []
    for e in costs.exprs:
        ds = drivers.of(e, schema)
        by_expr.append((e, ds))
        options: tuple[FixOption, ...] = ()
        if fixes and e.estimated > _headroom(RULE_LIMIT) and ds:
            search = _Search(schema, kubernetes_version, frozenset(d.location for d in ds if d.implicit))
            options = _fix_options(e.estimated, RULE_LIMIT, ds, _measure_expression(search, e), paths)
        path = node_path(paths[0], e.location).child("x-kubernetes-validations").index(e.index).child(e.kind)
        exprs.append(ExpressionCost(e.kind, str(path), e.location, e.index, e.text, e.result.max_cost
                                    if e.kind == "rule" else e.result.message_expression_max_cost,
                                    e.cardinality, e.cardinality_assumed, e.estimated, ds, options))
    total_options: tuple[FixOption, ...] = ()
    if fixes and costs.total > _headroom(CRD_LIMIT):
        top = sorted(by_expr, key=lambda pair: -pair[0].estimated)[:_TOTAL_FIX_EXPRESSIONS]
        candidates: dict[tuple[Location, str], SizeDriver] = {}
        for _, ds in top:
            for d in ds:
                candidates.setdefault((d.location, d.keyword), d)
        if candidates:
            search = _Search(schema, kubernetes_version,
                             frozenset(d.location for d in candidates.values() if d.implicit))
            total_options = _fix_options(costs.total, CRD_LIMIT, tuple(candidates.values()), search.total, paths)
    return SchemaCost(versions, paths, tuple(exprs), costs.total, total_options)


def schema_cost_breakdown(
    schema: Mapping[str, Any], *, path: str = "openAPIV3Schema", kubernetes_version: str | None = None,
    fixes: bool = True,
) -> SchemaCost:
    """:func:`cost_breakdown` for one (decoded) ``openAPIV3Schema`` dict, its paths under ``path``.

    The schema is costed as a CRD version's root, as ``validateCustomResourceDefinitionValidation``
    costs it; its versions are ``()``. Never raises for a decoded schema.
    """
    return _schema_breakdown(dict(schema), (), (path,), kubernetes_version, fixes)


def cost_breakdown(
    crd: Mapping[str, Any], *, kubernetes_version: str | None = None, fixes: bool = True
) -> CostBreakdown:
    """The estimated CEL cost of every rule and messageExpression of a CRD manifest, explained.

    In: a CRD manifest dict (``apiextensions.k8s.io/v1`` or ``v1beta1``, as read from YAML);
    ``kubernetes_version`` (``"1.30"`` ... ``"1.37"``, None for the default release; accepted, and
    reported, but every release is costed as the default until the per-release cost model
    lands); ``fixes``: search the bounds that fix over- and near-limit costs (each search re-runs
    the estimator a few dozen times).

    Out: a :class:`CostBreakdown`: per distinct version schema, each expression's cost per call,
    cardinality, estimated cost (what the apiserver compares with :data:`RULE_LIMIT`, 10,000,000,
    and sums against :data:`CRD_LIMIT`, 100,000,000), the sizes it assumed, and the fixes. Costs
    are the apiserver's (``pkg/apis/apiextensions/validation/validation.go``
    ``ValidateCustomResourceDefinitionOpenAPISchema``, apiextensions-apiserver v0.36); a schema
    with other errors is costed as if they were fixed. The manifest is strictly decoded first, as
    the apiserver does; one that cannot be decoded has no schemas here. Never raises for a
    CRD-shaped dict.
    """
    from crdtool.core.crd.decode import decode_crd
    from crdtool.core.errors import UNMARSHAL_TYPE

    groups = _groups(crd)
    with_rules = [schema is not None and _has_rules(schema) for _, _, schema in groups]
    if any(with_rules):
        decoded, errors = decode_crd(dict(crd))
        if any(e.type == UNMARSHAL_TYPE for e in errors):
            return CostBreakdown(kubernetes_version, ())
        groups = _groups(decoded)
        with_rules = [schema is not None and _has_rules(schema) for _, _, schema in groups]
    schemas = []
    for (names, paths, schema), rules in zip(groups, with_rules):
        if schema is None:
            continue
        if not rules:
            schemas.append(SchemaCost(tuple(names), tuple(paths), (), 0))
            continue
        schemas.append(_schema_breakdown(schema, tuple(names), tuple(paths), kubernetes_version, fixes, True))
    return CostBreakdown(kubernetes_version, tuple(schemas))


# --- applying fixes --------------------------------------------------------------------------------


def _parse_schema_path(path: str) -> list[Any]:
    """``spec.versions[0].schema.openAPIV3Schema`` -> ``["spec", "versions", 0, "schema", "openAPIV3Schema"]``."""
    out: list[Any] = []
    for part in path.split("."):
        name, _, rest = part.partition("[")
        if name:
            out.append(name)
        while rest:
            index, _, rest = rest.partition("]")
            out.append(int(index))
            rest = rest[1:] if rest.startswith("[") else rest
    return out


def apply_fix(crd: Mapping[str, Any], option: FixOption | tuple[BoundFix, ...]) -> dict[str, Any]:
    """A copy of ``crd`` with every bound of ``option`` written at every schema place it names.

    In: a CRD manifest dict and a :class:`FixOption` (or its bounds) from :func:`cost_breakdown` of
    that manifest. Out: the new manifest (only the dicts on the way to a changed node are copied;
    ``crd`` is not changed).
    """
    bounds = option.bounds if isinstance(option, FixOption) else option
    out: dict[str, Any] = dict(crd)
    schema_paths = {p for b in bounds for p in b.schema_paths}
    for schema_path in sorted(schema_paths):
        keys = _parse_schema_path(schema_path)
        parent: Any = out
        for key in keys[:-1]:
            child = parent[key]
            child = dict(child) if isinstance(child, dict) else list(child)
            parent[key] = child
            parent = child
        schema = parent[keys[-1]]
        edits: dict[Location, dict[str, Any]] = {}
        for b in bounds:
            if schema_path in b.schema_paths:
                if b.declare:
                    _declare_implicit(schema, b.location, edits)
                edits.setdefault(b.location, {})[b.keyword] = b.value
        parent[keys[-1]] = with_edits(schema, edits)
    return out


def plan_cost_fixes(
    crd: Mapping[str, Any], *, kubernetes_version: str | None = None, max_steps: int = 20
) -> tuple[dict[str, Any], tuple[FixOption, ...]]:
    """Bounds that bring every over- and near-limit cost of ``crd`` under 90% of its limit: fixed for good.

    Takes the first over-limit cost of :func:`cost_breakdown` (an expression over its limit, then a
    schema total; then the near-limit ones the same way), applies its best option (the first, as
    printed: each bound the largest that keeps the cost under :data:`NEAR_FRACTION` of its limit), costs
    the result again, and repeats while one remains (one bound often fixes several rules). So the
    fixed manifest is neither over nor near a limit (``lint`` reports none of CRD001 … CRD004), and
    fixing a fixed manifest changes nothing. Out: ``(the fixed manifest, the options applied in
    order)``; costs no bound fixes are left as they are.
    """
    current: dict[str, Any] = dict(crd)
    applied: list[FixOption] = []
    tried: set[tuple[str, str]] = set()
    for _ in range(max_steps):
        breakdown = cost_breakdown(current, kubernetes_version=kubernetes_version)
        step = _next_problem(breakdown, tried)
        if step is None:
            break
        key, option = step
        tried.add(key)
        current = apply_fix(current, option)
        applied.append(option)
    return current, tuple(applied)


def _next_problem(breakdown: CostBreakdown, tried: set[tuple[str, str]]) -> tuple[tuple[str, str], FixOption] | None:
    """The first over- or near-limit cost not tried yet that has an option: expressions over their limit,
    schema totals over theirs, then the same near them."""
    ranked: list[tuple[int, tuple[str, str], tuple[FixOption, ...]]] = []
    for s in breakdown.schemas:
        ranked.extend((0 if e.over else 2, (e.path, e.kind), e.fixes) for e in s.expressions if e.over or e.near)
        if s.over or s.near:
            ranked.append((1 if s.over else 3, (s.paths[0], "total"), s.fixes))
    for _, key, options in sorted(ranked, key=lambda r: r[0]):
        if key not in tried and options:
            return key, options[0]
    return None
