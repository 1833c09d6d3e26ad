"""``crdtool lint``'s checks: what the apiserver does not reject but will hurt, on a CRD manifest as written.

:func:`lint_crd` runs the checks of :mod:`crdtool.core.lint.codes` on one CRD manifest dict and
returns findings with their manifest paths (each schema check once per distinct version schema,
naming the versions that share it), together with the CEL cost breakdown of
:mod:`crdtool.core.lint.cost` that the ``CRD0xx`` findings come from. The conventions are the
Kubernetes API conventions, the CRD and server-side apply documentation, and the comparators of
openshift/crd-schema-checker (each code's ``url``); the costs are the apiserver's.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, Mapping

from crdtool.core.crdcel.idioms import Idiom, classify_rule
from crdtool.core.lint.codes import CODES, select_codes
from crdtool.core.lint.cost import (
    CRD_LIMIT,
    RULE_LIMIT,
    CostBreakdown,
    ExpressionCost,
    FixOption,
    SchemaCost,
    SizeDriver,
    cost_breakdown,
)
from crdtool.core.lint.schemas import Location, as_dict, node_path, version_schemas, walk
from crdtool.core.schema.formats import SUPPORTED_STRING_FORMATS, normalize_format_name

__all__ = ["LintFinding", "LintReport", "lint_crd"]


@dataclass(frozen=True)
class LintFinding:
    """One finding of ``crdtool lint``.

    Attributes:
        code: its :data:`~crdtool.core.lint.codes.CODES` code (``CRD101``); severity: the code's.
        message: one line for people.
        path: the manifest path it is about (``spec.versions[0].schema.openAPIV3Schema.properties[spec]``);
            for a field the schema does not declare (``metadata.name``), where it would be declared.
        versions: the CRD versions concerned (those sharing the schema, for a schema check).
        details: further lines for people (a cost's parts and drivers).
        fixes: for a cost finding, the bound options (:class:`~crdtool.core.lint.cost.FixOption`), best first.
    """

    code: str
    severity: str
    message: str
    path: str
    versions: tuple[str, ...] = ()
    details: tuple[str, ...] = ()
    fixes: tuple[FixOption, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "name": CODES[self.code].name, "severity": self.severity, "message": self.message,
                "path": self.path, "versions": list(self.versions), "details": list(self.details),
                "fixes": [f.to_dict() for f in self.fixes]}


@dataclass(frozen=True)
class LintReport:
    """:func:`lint_crd`'s result: the findings of the selected codes, and the CEL cost breakdown."""

    findings: tuple[LintFinding, ...]
    cost: CostBreakdown
    selected: frozenset[str] = field(default_factory=frozenset)


def lint_crd(
    crd: Mapping[str, Any],
    *,
    select: Iterable[str] | None = None,
    ignore: Iterable[str] = (),
    kubernetes_version: str | None = None,
    fixes: bool = True,
) -> LintReport:
    """Lint one CRD manifest.

    In: a CRD manifest dict (``apiextensions.k8s.io/v1`` or ``v1beta1``); ``select``/``ignore``: codes
    or prefixes as ruff takes them (None: the default codes; ``ALL``); ``kubernetes_version``
    (``"1.30"`` ... ``"1.37"``, None: the default release) for the CEL costs; ``fixes``: search the
    bounds that fix over- and near-limit costs (only when a cost code is selected). Out: a :class:`LintReport` (findings in check order:
    costs, then schema checks per distinct schema, then versions). Raises ValueError for an unknown
    code in ``select``/``ignore``; never for a CRD-shaped dict.
    """
    selected = select_codes(select, ignore)
    if "CRD900" in selected:
        undecodable = list(_decode_findings(crd))
        if undecodable:
            # the rest would check a manifest the apiserver never sees: it refuses it on decoding
            return LintReport(tuple(undecodable), CostBreakdown(kubernetes_version, ()), selected)
    wants_cost = any(c.startswith("CRD00") for c in selected)
    breakdown = cost_breakdown(crd, kubernetes_version=kubernetes_version, fixes=fixes and wants_cost)
    findings: list[LintFinding] = []
    findings.extend(_cost_findings(breakdown))
    versions = version_schemas(crd)
    groups: list[tuple[list[str], str, dict[str, Any]]] = []
    for v in versions:
        if v.schema is None:
            continue
        for names, _, schema in groups:
            if schema == v.schema:
                names.append(v.name)
                break
        else:
            groups.append(([v.name], v.path, v.schema))
    spec = as_dict(crd.get("spec"))
    # a v1beta1 CRD preserves unknown fields unless it says otherwise (SetDefaults_CustomResourceDefinitionSpec)
    pruning = crd.get("apiVersion") != "apiextensions.k8s.io/v1beta1" or spec.get("preserveUnknownFields") is False
    for names, path, schema in groups:
        findings.extend(_schema_findings(schema, path, tuple(names), pruning))
    findings.extend(_version_findings(crd))
    return LintReport(tuple(f for f in findings if f.code in selected), breakdown, selected)


def _decode_findings(crd: Mapping[str, Any]) -> Iterator[LintFinding]:
    """CRD900: the manifest does not decode into ``CustomResourceDefinition`` (a wrong JSON type: the first
    error, as ``sigs.k8s.io/json`` stops at it), or it has no version to check.

    Unknown fields are not reported here: the apiserver drops them (or refuses them under strict field
    validation, which is ``validate``'s to say) and decodes the rest.
    """
    from crdtool.core.crd.decode import decode_crd
    from crdtool.core.errors import UNMARSHAL_TYPE

    _, errors = decode_crd(dict(crd))
    hint = "lint cannot check it; `crdtool validate` gives the apiserver's errors"
    for e in errors:
        if e.type == UNMARSHAL_TYPE:
            yield _finding("CRD900", f"the apiserver cannot decode this CRD ({e}): {hint}", str(e.field))
            return
    if not version_schemas(crd):
        where = "spec.versions" if isinstance(crd.get("spec"), dict) else "spec"
        yield _finding("CRD900", f"the CRD has no versions ({where} is missing or empty), so no schema to lint: "
                       f"the apiserver refuses it; `crdtool validate` gives its errors", where)


def _finding(code: str, message: str, path: str, versions: tuple[str, ...] = (), details: tuple[str, ...] = (),
             fixes: tuple[FixOption, ...] = ()) -> LintFinding:
    return LintFinding(code, CODES[code].severity, message, path, versions, details, fixes)


# --- costs -------------------------------------------------------------------------------------------


def _pct(cost: int, limit: int) -> str:
    share = 100 * cost / limit
    if share >= 1 or share == 0:
        return f"{share:.0f}%"
    return f"{share:.2f}%" if share >= 0.01 else "<0.01%"


def _driver_line(d: SizeDriver) -> str:
    unit = {"list": "items", "map": "properties", "string": "bytes"}[d.kind]
    what = f"{d.kind} without {d.keyword}"
    if d.implicit:
        what = f"{d.kind} the apiserver declares itself (declare it to bound it)"
    role = "the rule runs once per element" if d.role == "cardinality" else "read by the expression"
    return f"{d.path}: {what}, assumed {d.size:,} {unit} from the 3 MiB request limit ({role})"


def _expression_finding(e: ExpressionCost, versions: tuple[str, ...]) -> LintFinding:
    over = e.over
    code = "CRD001" if over else "CRD002"
    if e.cardinality is None:
        parts = f"{e.cost:,} per call"
    else:
        assumed = " (assumed from the request limit)" if e.cardinality_assumed else ""
        calls = "call" if e.cardinality == 1 else "calls"
        parts = f"{e.cost:,} per call x {e.cardinality:,} {calls}{assumed}"
    factor = e.estimated / RULE_LIMIT
    head = f"{factor:.1f}x the limit" if over else f"{_pct(e.estimated, RULE_LIMIT)} of the limit"
    message = (f"estimated {e.kind} cost {e.estimated:,} = {parts}: {head} of {RULE_LIMIT:,} per expression "
               f"({_pct(e.estimated, CRD_LIMIT)} of the {CRD_LIMIT:,} per schema)")
    details = tuple(_driver_line(d) for d in e.assumed_drivers)
    if not e.fixes:
        details += ("no bound fixes it: simplify the expression",)
    return _finding(code, message, e.path, versions, details, e.fixes)


def _schema_finding(s: SchemaCost) -> LintFinding:
    over = s.over
    code = "CRD003" if over else "CRD004"
    head = f"{s.total / CRD_LIMIT:.1f}x the limit" if over else f"{_pct(s.total, CRD_LIMIT)} of the limit"
    top = sorted(s.expressions, key=lambda e: -e.estimated)[:4]
    message = (f"the rules of this schema are estimated to cost {s.total:,} in all: {head} of {CRD_LIMIT:,} "
               f"per schema")
    details = tuple(f"{e.path}: {e.estimated:,} ({_pct(e.estimated, CRD_LIMIT)})" for e in top)
    if not s.fixes:
        details += ("no bound fixes it: simplify the most expensive expressions",)
    return _finding(code, message, s.paths[0], s.versions, details, s.fixes)


def _cost_findings(breakdown: CostBreakdown) -> Iterator[LintFinding]:
    for s in breakdown.schemas:
        for e in s.expressions:
            if e.over or e.near:
                yield _expression_finding(e, s.versions)
        if s.over or s.near:
            yield _schema_finding(s)
        yield from _unbounded_findings(s)


#: CRD005 reports an assumed size when a reader's estimate is at least this share of the per-expression limit.
UNBOUNDED_REPORT_FRACTION = 0.01


def _unbounded_findings(s: SchemaCost) -> Iterator[LintFinding]:
    readers: dict[tuple[Location, str], tuple[SizeDriver, list[ExpressionCost]]] = {}
    for e in s.expressions:
        for d in e.assumed_drivers:
            if d.role == "size":
                readers.setdefault((d.location, d.keyword), (d, []))[1].append(e)
    for d, exprs in readers.values():
        worst = max(exprs, key=lambda e: e.estimated)
        if worst.estimated < UNBOUNDED_REPORT_FRACTION * RULE_LIMIT:
            continue  # the assumed size does not matter to any reader's budget
        unit = {"list": "items", "map": "properties", "string": "bytes"}[d.kind]
        how = f"is declared by the apiserver without {d.keyword}" if d.implicit else f"has no {d.keyword}"
        message = (f"{d.kind} read by {len(exprs)} CEL expression{'s' if len(exprs) > 1 else ''} {how}: "
                   f"its size is assumed to be {d.size:,} {unit} (the most expensive reader: "
                   f"{_pct(worst.estimated, RULE_LIMIT)} of the per-expression limit)")
        yield _finding("CRD005", message, d.path, s.versions, tuple(f"read by {e.path}" for e in exprs))


# --- schema checks -------------------------------------------------------------------------------------

_NUMERIC_FORMATS = {"integer": ("int32", "int64"), "number": ("float", "double")}
_RESOURCE_FIELDS = frozenset({"apiVersion", "kind", "metadata"})


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _inside_atomic(ancestors: tuple[dict[str, Any], ...]) -> bool:
    """Whether an ancestor replaces this node as a whole under server-side apply (an atomic list or map)."""
    for a in ancestors:
        if a.get("type") == "array" and a.get("x-kubernetes-list-type") in (None, "atomic"):
            return True
        if a.get("x-kubernetes-map-type") == "atomic":
            return True
    return False


def _is_conditions(loc: Location, node: Mapping[str, Any]) -> bool:
    if not loc or loc[-1] != ("properties", "conditions") or node.get("type") != "array":
        return False
    items = node.get("items")
    return isinstance(items, dict) and isinstance(items.get("properties"), dict) and "type" in items["properties"]


def _schema_findings(  # noqa: C901 - one branch per check
    schema: dict[str, Any], base: str, versions: tuple[str, ...], pruning: bool = True
) -> Iterator[LintFinding]:
    for loc, node, ancestors in walk(schema):
        t = node.get("type")
        int_or_string = bool(node.get("x-kubernetes-int-or-string"))
        list_type = node.get("x-kubernetes-list-type")

        def here(loc: Location = loc) -> str:
            return str(node_path(base, loc))

        if t == "array":
            conditions = _is_conditions(loc, node)
            if conditions:
                if list_type != "map" or "type" not in _list(node.get("x-kubernetes-list-map-keys")):
                    yield _finding("CRD103", "conditions should be x-kubernetes-list-type: map with "
                                   "x-kubernetes-list-map-keys: [type]", here(), versions)
            elif list_type is None and not _inside_atomic(ancestors):
                yield _finding("CRD101", "array without x-kubernetes-list-type: server-side apply replaces it as a "
                               "whole (set atomic to say so, or set/map to merge entries)", here(), versions)
            items = node.get("items")
            if list_type == "set" and isinstance(items, dict) and items.get("type") in ("object", "array"):
                yield _finding("CRD104", f"x-kubernetes-list-type: set of {items['type']}s: items are compared "
                               "whole; use a map list keyed by a field", here(), versions)
            if list_type == "map" and isinstance(items, dict):
                required = {r for r in _list(items.get("required")) if isinstance(r, str)}
                props = as_dict(items.get("properties"))
                for key in _list(node.get("x-kubernetes-list-map-keys")):
                    prop = props.get(key) if isinstance(key, str) else None
                    if isinstance(prop, dict) and key not in required and prop.get("default") is None:
                        yield _finding("CRD102", f"list map key {key!r} is neither required nor defaulted",
                                       str(node_path(base, (*loc, ("items",), ("properties", key)))), versions)
        elif t == "object":
            if isinstance(node.get("additionalProperties"), dict):
                yield _finding("CRD105", "map (additionalProperties): prefer a list of named subobjects", here(),
                               versions)
        elif t == "number":
            yield _finding("CRD201", "floating-point field: prefer an integer or a resource.Quantity string",
                           here(), versions)
        elif t == "boolean":
            yield _finding("CRD204", "boolean field: prefer a string enum that can grow", here(), versions)
        fmt = node.get("format")
        if isinstance(fmt, str) and fmt:
            if int_or_string or t in (None, "string"):
                if normalize_format_name(fmt) not in SUPPORTED_STRING_FORMATS:
                    yield _finding("CRD203", f"format {fmt!r} is not one the apiserver knows: it is ignored and "
                                   "values are not checked", here(), versions)
            elif fmt not in _NUMERIC_FORMATS.get(str(t), ()):
                kept = _NUMERIC_FORMATS.get(str(t))
                also = f" (it keeps only {' and '.join(kept)} on {t}s)" if kept else ""
                yield _finding("CRD202", f"format {fmt!r} on a {t} is ignored by the apiserver{also}", here(),
                               versions)
        if pruning and node.get("required"):
            yield from _required_findings(loc, node, here(), versions)
        if isinstance(node.get("properties"), dict):
            yield from _removable_immutable_findings(loc, node, ancestors, base, versions)
    yield from _top_level_findings(schema, base, versions)


def _idioms(node: Mapping[str, Any]) -> list[Idiom]:
    out = []
    for r in _list(node.get("x-kubernetes-validations")):
        rule = r.get("rule") if isinstance(r, dict) else None
        idiom = classify_rule(rule) if isinstance(rule, str) else None
        if idiom is not None:
            out.append(idiom)
    return out


def _removable_immutable_findings(loc: Location, node: Mapping[str, Any], ancestors: tuple[dict[str, Any], ...],
                                  base: str, versions: tuple[str, ...]) -> Iterator[LintFinding]:
    """CRD401: an optional property whose rule is ``self == oldSelf`` ("immutable once set") while nothing
    above it keeps it from being removed: the parent has no ``!has(oldSelf.f) || has(self.f)`` (or
    ``has(self.f) == has(oldSelf.f)``, or ``has(self.f)``), and neither the parent nor an ancestor is itself
    immutable as a whole. A property with a default is not removable (defaulting refills it before validation)."""
    if any(i.kind == "immutable" and i.text == "immutable once set" for a in (*ancestors, node) for i in _idioms(a)):
        return
    required = {r for r in _list(node.get("required")) if isinstance(r, str)}
    kept = {name for i in _idioms(node) if i.kind in ("may-not-be-removed", "presence-immutable", "required")
            for name in re.findall(r"`([^`]*)`", i.text)}
    for name, prop in as_dict(node.get("properties")).items():
        if name in required or name in kept or not isinstance(prop, dict) or "default" in prop:
            continue  # a defaulted field comes back with its default when removed: the rule then runs
        if any(i.kind == "immutable" and i.text == "immutable once set" for i in _idioms(prop)):
            yield _finding("CRD401", f"{name!r} is immutable once set (self == oldSelf) but optional: it can be removed and "
                           f"set again to another value; add the rule !has(oldSelf.{name}) || has(self.{name}) to the "
                           f"parent ({name} may not be removed once set)", str(node_path(base, (*loc, ("properties", name)))),
                           versions)


def _required_findings(loc: Location, node: Mapping[str, Any], path: str,
                       versions: tuple[str, ...]) -> Iterator[LintFinding]:
    required = node.get("required")
    if not isinstance(required, list) or not required:
        return
    if node.get("x-kubernetes-preserve-unknown-fields") is True or node.get("additionalProperties") not in (None, False):
        return  # unknown fields are kept: an undeclared required field can be given
    props = as_dict(node.get("properties"))
    resource = not loc or bool(node.get("x-kubernetes-embedded-resource"))
    for name in required:
        if isinstance(name, str) and name not in props and not (resource and name in _RESOURCE_FIELDS):
            yield _finding("CRD207", f"required property {name!r} is not declared: it is pruned before validation, "
                           "so every object fails", path, versions)


def _top_level_findings(schema: Mapping[str, Any], base: str, versions: tuple[str, ...]) -> Iterator[LintFinding]:
    if schema.get("x-kubernetes-preserve-unknown-fields") is True:
        yield _finding("CRD206", "x-kubernetes-preserve-unknown-fields at the root: nothing is pruned", base, versions)
    props = as_dict(schema.get("properties"))
    for name, prop in props.items():
        if name in _RESOURCE_FIELDS or not isinstance(prop, dict):
            continue
        loc: Location = (("properties", name),)
        if not prop.get("description"):
            yield _finding("CRD205", f"top-level field {name!r} has no description", str(node_path(base, loc)), versions)
        if name not in ("spec", "status"):
            continue
        sub = as_dict(prop.get("properties"))
        for child, child_prop in sub.items():
            if isinstance(child_prop, dict) and not child_prop.get("description"):
                yield _finding("CRD205", f"field {name}.{child} has no description",
                               str(node_path(base, (*loc, ("properties", child)))), versions)


# --- versions -------------------------------------------------------------------------------------------


def _version_findings(crd: Mapping[str, Any]) -> Iterator[LintFinding]:
    from crdtool.core.versions import sort_versions

    versions = version_schemas(crd)
    for v in versions:
        schema = v.schema or {}
        props = as_dict(schema.get("properties"))
        if "status" in props and not (v.subresources and isinstance(v.subresources.get("status"), dict)):
            yield _finding("CRD301", f"version {v.name} has a status field but no status subresource "
                           f"({v.version_path}.subresources.status)", str(node_path(v.path, (("properties", "status"),))),
                           (v.name,))
        if v.entry.get("deprecated") is True and not v.entry.get("deprecationWarning"):
            yield _finding("CRD302", f"version {v.name} is deprecated without a deprecationWarning",
                           f"{v.version_path}.deprecated", (v.name,))
    served = [v.name for v in versions if v.entry.get("served") is True]
    storage = [v for v in versions if v.entry.get("storage") is True]
    if served and len(storage) == 1:
        newest = sort_versions(served)[0]
        if storage[0].name != newest:
            yield _finding("CRD303", f"the storage version {storage[0].name} is not the newest served version "
                           f"({newest})", f"{storage[0].version_path}.storage", (storage[0].name,))
