"""``crdtool lint`` of admission policy documents: CEL costs against the policy plugins' limits, and the
references between a bundle's policies, bindings, params objects and CRDs that only resolve at run time.

In: the documents of one lint run (the bundle: CRDs, ValidatingAdmissionPolicies, MutatingAdmissionPolicies, their
bindings, params objects). Out: :class:`PolicyFinding` values, each naming the document it is about.

* ``POL001``: an expression whose estimated cost exceeds ``PerCallLimit`` (1,000,000, ``k8s.io/apiserver``
  ``pkg/apis/cel/config.go``): every call of a CEL program of the policy plugins runs with that cost limit
  (``plugin/cel/activation.go``/``composition.go``, ``cel.CostLimit``), and a request that reaches it fails the
  expression -- a deny under ``failurePolicy: Fail``. ``POL002``: the expressions one evaluation of a policy runs
  (variables, validations and their messageExpressions; a MutatingAdmissionPolicy's variables and mutations) are
  estimated to cost more than ``RuntimeCELCostBudget`` (10,000,000), the budget of one evaluation
  (``validating/validator.go``: ``ForInput(..., celconfig.RuntimeCELCostBudget)``). The estimate is the one lint
  gives CRD rules: cel-go's ``checker.Cost`` (:func:`crdtool.core.celgo.cost.estimate_cost`) with the Kubernetes
  library costs (:class:`~crdtool.core.kubecel.library_cost.LibraryCostEstimator`), each expression type-checked
  as ``typechecking.go`` checks it against every kind of the bundle's CRDs the policy matches (the CRD's structural
  schema), sizes from the schema's ``maxItems``/``maxProperties``/``maxLength``, else assumed from the 3 MiB request
  limit as the CRD estimator assumes them; a built-in params kind's lists, maps and strings (which declare no
  bound) and a composited variable's value are sized so too, a variable that is a field of the object
  (``object.spec.tags``) as that field. Built-in kinds are not costed: they declare no bound, so every list would be
  sized from the request limit (a worst case no Pod reaches), and no bound can be added. The apiserver itself
  never estimates a policy's cost (it enforces the limits at run time): these are crdtool's worst-case estimates,
  and the fix named is the bound on the CRD's schema that brings the estimate under 90% of the limit.
* ``POL101``: a binding whose ``policyName`` names no policy of its kind in the bundle (the binding then matches
  nothing: ``policy/generic/policy_source.go`` skips bindings of unknown policies).
* ``POL102``: a ``matchConstraints.resourceRules`` group/resource that no built-in kind of the release
  (:mod:`crdtool.core.builtin.catalog`) and no CRD of the bundle serves (the rule then never matches).
* ``POL103``: a ``paramKind`` with no object of that apiVersion and kind in the bundle (every binding's request
  then finds no params: ``parameterNotFoundAction``, Deny by default, or a configuration error).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
import re
from dataclasses import dataclass
from typing import Any

from crdtool.core.admission.policy.typechecking import _builtin_kind_decl, _kind_decl, _types_to_check
from crdtool.core.admission.policy.validating import PER_CALL_LIMIT, RUNTIME_CEL_COST_BUDGET
from crdtool.core.celgo import types as T
from crdtool.core.celgo.cost import AstNode, SizeEstimate, estimate_cost, library_estimators
from crdtool.core.kubecel.admission import PolicyEnvironment
from crdtool.core.kubecel.decltype import MAX_REQUEST_SIZE_BYTES, DeclType
from crdtool.core.kubecel.library_cost import LibraryCostEstimator
from crdtool.core.lint.codes import CODES, select_codes
from crdtool.core.lint.cost import NEAR_FRACTION, _largest
from crdtool.core.lint.schemas import Location, node_at, node_path, version_schemas
from crdtool.core.releases import Release, resolve_release

__all__ = ["POLICY_KINDS", "PolicyFinding", "is_policy_document", "lint_policies"]

_GROUP = "admissionregistration.k8s.io"
#: The kinds ``lint`` checks here, and the policy kind each binding kind refers to.
POLICY_KINDS = ("ValidatingAdmissionPolicy", "ValidatingAdmissionPolicyBinding", "MutatingAdmissionPolicy",
                "MutatingAdmissionPolicyBinding")
_POLICY_OF_BINDING = {"ValidatingAdmissionPolicyBinding": "ValidatingAdmissionPolicy",
                      "MutatingAdmissionPolicyBinding": "MutatingAdmissionPolicy"}


@dataclass(frozen=True)
class PolicyFinding:
    """One finding about ``documents[index]``: ``code``, ``severity``, one-line ``message``, the manifest ``path``
    it is about, and ``details`` (lines for people: what drives a cost, the bound that fixes it)."""

    index: int
    code: str
    severity: str
    message: str
    path: str
    details: tuple[str, ...] = ()


def is_policy_document(doc: Any) -> bool:
    """Whether ``doc`` is an admission policy or binding (``admissionregistration.k8s.io``, any version)."""
    return (isinstance(doc, Mapping) and doc.get("kind") in POLICY_KINDS
            and str(doc.get("apiVersion") or "").startswith(_GROUP + "/"))


def _meta_name(doc: Mapping[str, Any]) -> str:
    meta = doc.get("metadata")
    return str(meta.get("name") or "") if isinstance(meta, Mapping) else ""


def _spec(doc: Mapping[str, Any]) -> Mapping[str, Any]:
    spec = doc.get("spec")
    return spec if isinstance(spec, Mapping) else {}


def _names(spec: Mapping[str, Any]) -> Mapping[str, Any]:
    names = spec.get("names")
    return names if isinstance(names, Mapping) else {}


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def lint_policies(
    documents: Sequence[Mapping[str, Any]],
    *,
    select: Iterable[str] | None = None,
    ignore: Iterable[str] = (),
    kubernetes_version: str | None = None,
) -> list[PolicyFinding]:
    """Lint the policy documents of a bundle against each other, the bundle's CRDs and params objects, and the
    release's built-in kinds (``kubernetes_version``, None: the default release).

    Out: findings of the selected codes (``select``/``ignore`` as :func:`~crdtool.core.lint.codes.select_codes`
    takes them), in document order. Raises ValueError for an unknown code; never for a malformed document.
    """
    selected = select_codes(select, ignore)
    release = resolve_release(kubernetes_version)
    crds = [dict(d) for d in documents if isinstance(d, Mapping) and d.get("kind") == "CustomResourceDefinition"
            and str(d.get("apiVersion") or "").startswith("apiextensions.k8s.io/")]
    out: list[PolicyFinding] = []
    for index, doc in enumerate(documents):
        if not is_policy_document(doc):
            continue
        kind = str(doc.get("kind"))
        if kind in _POLICY_OF_BINDING:
            out.extend(_binding_findings(index, doc, documents))
            continue
        out.extend(_resource_findings(index, doc, crds, release))
        out.extend(_params_findings(index, doc, documents))
        if selected & {"POL001", "POL002"}:
            out.extend(_cost_findings(index, doc, crds, release))
    return [f for f in out if f.code in selected]


def _finding(index: int, code: str, message: str, path: str, details: tuple[str, ...] = ()) -> PolicyFinding:
    return PolicyFinding(index, code, CODES[code].severity, message, path, details)


# --- references ------------------------------------------------------------------------------------------


def _binding_findings(index: int, doc: Mapping[str, Any], documents: Sequence[Mapping[str, Any]]) -> list[PolicyFinding]:
    policy_kind = _POLICY_OF_BINDING[str(doc.get("kind"))]
    name = _spec(doc).get("policyName")
    if not isinstance(name, str) or not name:
        return []  # the apiserver refuses the binding (policyName: Required value): validate says so
    names = {_meta_name(d) for d in documents if is_policy_document(d) and d.get("kind") == policy_kind}
    if name in names:
        return []
    return [_finding(index, "POL101", f"policyName {name!r} names no {policy_kind} of the bundle: the binding "
                     "applies no policy", "spec.policyName")]


def _served_resources(crds: list[dict[str, Any]], release: Release) -> set[tuple[str, str]]:
    from crdtool.core.builtin import catalog

    out = {(k.group, k.resource) for k in catalog.kinds(release) if k.served and k.resource}
    for crd in crds:
        spec = _spec(crd)
        names = _names(spec)
        if isinstance(spec.get("group"), str) and isinstance(names.get("plural"), str):
            out.add((spec["group"], names["plural"]))
    return out


def _resource_findings(index: int, doc: Mapping[str, Any], crds: list[dict[str, Any]],
                       release: Release) -> list[PolicyFinding]:
    mc = _spec(doc).get("matchConstraints")
    rules = _list(mc.get("resourceRules")) if isinstance(mc, Mapping) else []
    served: set[tuple[str, str]] | None = None
    out: list[PolicyFinding] = []
    for i, rule in enumerate(rules):
        if not isinstance(rule, Mapping):
            continue
        groups = [g for g in _list(rule.get("apiGroups")) if isinstance(g, str)]
        if not groups or "*" in groups:
            continue
        for j, resource in enumerate(_list(rule.get("resources"))):
            if not isinstance(resource, str) or resource.split("/", 1)[0] in ("*", ""):
                continue
            plural = resource.split("/", 1)[0]
            if served is None:
                served = _served_resources(crds, release)
            missing = [g for g in groups if (g, plural) not in served]
            if len(missing) == len(groups):
                where = " or ".join(repr(f"{plural}.{g}" if g else plural) for g in missing)
                out.append(_finding(index, "POL102", f"resource {where} is neither a built-in kind of Kubernetes "
                                    f"{release.name} nor served by a CRD of the bundle: the rule matches nothing",
                                    f"spec.matchConstraints.resourceRules[{i}].resources[{j}]"))
    return out


def _params_findings(index: int, doc: Mapping[str, Any], documents: Sequence[Mapping[str, Any]]) -> list[PolicyFinding]:
    pk = _spec(doc).get("paramKind")
    if not isinstance(pk, Mapping) or not isinstance(pk.get("kind"), str) or not isinstance(pk.get("apiVersion"), str):
        return []
    if any(isinstance(d, Mapping) and d.get("apiVersion") == pk["apiVersion"] and d.get("kind") == pk["kind"]
           for d in documents):
        return []
    return [_finding(index, "POL103", f"paramKind {pk['kind']} ({pk['apiVersion']}): no such object in the bundle, "
                     "so no binding finds its params (parameterNotFoundAction decides: Deny by default)",
                     "spec.paramKind")]


# --- costs -------------------------------------------------------------------------------------------------


@dataclass
class _Kind:
    """A kind the policy matches: its GVK text, the object's DeclType, and for a CRD the version schema (to
    name and search the bounds) with the CRD's name and the manifest path of the schema."""

    gvk: str
    decl: DeclType
    crd: str = ""
    schema: dict[str, Any] | None = None
    schema_path: str = ""


def _assumed_size(t: DeclType) -> int:
    """The size of a list, map or string a built-in kind's OpenAPI declares without a bound: as the CRD estimator
    assumes it (``compilation.go``/``schemas.go``): the 3 MiB request over the element's smallest JSON."""
    if t.cel_type == T.STRING or t.cel_type == T.BYTES:
        return MAX_REQUEST_SIZE_BYTES - 2
    elem = t.elem_type
    smallest = max(elem.min_serialized_size, 1) if elem is not None else 1
    return (MAX_REQUEST_SIZE_BYTES - 2) // (smallest + (6 if t.key_type is not None else 1))


#: The smallest JSON of a value of each CEL kind (``estimateMinSizeJSON``'s sizes: ``""``, ``0``, ``true``, ``[]``).
_MIN_JSON = {T.Kind.STRING: 2, T.Kind.BYTES: 2, T.Kind.INT: 1, T.Kind.UINT: 1, T.Kind.DOUBLE: 1, T.Kind.BOOL: 4}


def _variable_size(t: T.Type) -> SizeEstimate | None:
    """A composited variable's size: what an unbounded value of its type read from the request could hold (the
    estimator has no schema for it; upstream does not estimate policies at all)."""
    if t.kind in (T.Kind.STRING, T.Kind.BYTES):
        return SizeEstimate(0, MAX_REQUEST_SIZE_BYTES - 2)
    if t.kind in (T.Kind.LIST, T.Kind.MAP) and t.params:
        elem = _MIN_JSON.get(t.params[-1].kind, 2)
        return SizeEstimate(0, (MAX_REQUEST_SIZE_BYTES - 2) // (elem + (6 if t.kind == T.Kind.MAP else 1)))
    return None


class _Sizes:
    """``sizeEstimator`` over the roots an expression reads (``object``/``oldObject``: the kind's type; ``params``:
    the paramKind's), with ``overrides`` (a path's size, in the estimator's units) for the search of a bound;
    records each path it sized (``read``)."""

    def __init__(self, roots: Mapping[str, DeclType], overrides: Mapping[tuple[str, ...], int],
                 aliases: Mapping[str, tuple[str, ...]] | None = None) -> None:
        self.roots = roots
        self.overrides = overrides
        self.aliases = aliases or {}
        self.read: dict[tuple[str, ...], DeclType] = {}

    def estimate_size(self, node: AstNode) -> SizeEstimate | None:
        path = node.path
        if path and path[0] == "variables" and len(path) >= 2:
            alias = self.aliases.get(path[1])
            if alias is None:
                return _variable_size(node.type)
            path = (*alias, *path[2:])  # a variable that is a field of the object is sized as the field
        if not path or path[0] not in self.roots:
            return None
        cur = self.roots[path[0]]
        for name in path[1:]:
            nxt = (cur.elem_type if name in ("@items", "@values") else cur.key_type if name == "@keys"
                   else (cur.fields[name].type if cur.fields is not None and name in cur.fields else None))
            if nxt is None:
                return None
            cur = nxt
        self.read[path] = cur
        if path in self.overrides:
            return SizeEstimate(0, self.overrides[path])
        return SizeEstimate(0, cur.max_elements if cur.max_elements >= 0 else _assumed_size(cur))


def _expressions(doc: Mapping[str, Any]) -> list[tuple[str, str, str, bool]]:
    """(what, manifest path, expression, counted in the evaluation's budget) of a policy, in manifest order."""
    spec = _spec(doc)
    out: list[tuple[str, str, str, bool]] = []

    def add(what: str, path: str, expr: Any, budgeted: bool = True) -> None:
        if isinstance(expr, str) and expr.strip():
            out.append((what, path, expr, budgeted))

    for i, v in enumerate(_list(spec.get("variables"))):
        if isinstance(v, Mapping):
            add("variable", f"spec.variables[{i}].expression", v.get("expression"))
    for i, m in enumerate(_list(spec.get("matchConditions"))):
        if isinstance(m, Mapping):  # their own budget (RuntimeCELCostBudgetMatchConditions)
            add("matchCondition", f"spec.matchConditions[{i}].expression", m.get("expression"), False)
    for i, v in enumerate(_list(spec.get("validations"))):
        if isinstance(v, Mapping):
            add("validation", f"spec.validations[{i}].expression", v.get("expression"))
            add("messageExpression", f"spec.validations[{i}].messageExpression", v.get("messageExpression"))
    for i, a in enumerate(_list(spec.get("auditAnnotations"))):
        if isinstance(a, Mapping):  # evaluated with a budget of their own
            add("auditAnnotation", f"spec.auditAnnotations[{i}].valueExpression", a.get("valueExpression"), False)
    for i, m in enumerate(_list(spec.get("mutations"))):
        if isinstance(m, Mapping):
            for key in ("applyConfiguration", "jsonPatch"):
                if isinstance(m.get(key), Mapping):
                    add("mutation", f"spec.mutations[{i}].{key}.expression", m[key].get("expression"))
    return out


def _kinds(doc: Mapping[str, Any], crds: list[dict[str, Any]], release: Release) -> list[_Kind]:
    out: list[_Kind] = []
    for g, v, k, crd in _types_to_check(doc, crds, release):
        gvk = f"{g}/{v}, Kind={k}"
        if crd is None:
            # a built-in kind declares no bound: every list and string would be sized from the 3 MiB request,
            # a worst case no Pod reaches, and no bound can be added; its costs are not estimated
            continue
        decl = _kind_decl(crd, v, release)
        if decl is None:
            continue
        schema = next((s for s in version_schemas(crd) if s.name == v), None)
        out.append(_Kind(gvk, decl, _meta_name(crd), schema.schema if schema else None,
                         schema.path if schema else ""))
    return out


def _params_decl(doc: Mapping[str, Any], crds: list[dict[str, Any]], release: Release) -> DeclType | None:
    pk = _spec(doc).get("paramKind")
    if not isinstance(pk, Mapping):
        return None
    group, _, version = str(pk.get("apiVersion") or "").rpartition("/")
    for crd in crds:
        cs = _spec(crd)
        names = _names(cs)
        if cs.get("group") == group and names.get("kind") == pk.get("kind"):
            return _kind_decl(crd, version, release)
    return _builtin_kind_decl(release, group, version, str(pk.get("kind") or ""))


class _Coster:
    """The estimated cost of a policy's expressions against one kind (``typechecking.go``'s environments)."""

    def __init__(self, doc: Mapping[str, Any], kind: _Kind, params: DeclType | None, release: Release) -> None:
        self.release = release
        self.kind = kind
        self.params = params
        self.mutating = doc.get("kind") == "MutatingAdmissionPolicy"
        self.has_params = isinstance(_spec(doc).get("paramKind"), Mapping)
        variables: list[tuple[str, T.Type | None]] = []
        self.checked: dict[str, Any] = {}
        for what, path, expr, _ in _expressions(doc):
            env = self._env(tuple(variables), what == "mutation")
            result = env.compile(expr, (T.ANY,))
            if what == "variable":
                index = int(path.split("[", 1)[1].split("]", 1)[0])
                name = str(_list(_spec(doc).get("variables"))[index].get("name") or "")
                variables.append((name, result.output_type))
            if result.checked is not None:
                self.checked[path] = (result.checked, env.environment())
        self.variables = tuple(variables)
        self.aliases = {name: tuple(expr.strip().split("."))
                        for name, expr in ((str(v.get("name") or ""), str(v.get("expression") or ""))
                                           for v in _list(_spec(doc).get("variables")) if isinstance(v, Mapping))
                        if _FIELD_PATH.match(expr.strip())}

    def _env(self, variables: tuple[tuple[str, T.Type | None], ...], patch: bool) -> PolicyEnvironment:
        return PolicyEnvironment(self.release, self.has_params and self.params is not None, True, True, variables,
                                 self.kind.decl, self.params, True, has_patch_types=patch)

    def cost(self, path: str, overrides: Mapping[tuple[str, ...], int] | None = None) -> tuple[int, _Sizes] | None:
        found = self.checked.get(path)
        if found is None:
            return None  # does not compile: validate and admit report it
        checked, env = found
        roots = {"object": self.kind.decl, "oldObject": self.kind.decl}
        if self.params is not None:
            roots["params"] = self.params
        sizes = _Sizes(roots, overrides or {}, self.aliases)
        est = estimate_cost(checked, LibraryCostEstimator(sizes, self.release.minor),
                            presence_test_has_cost=env.presence_test_has_cost,
                            overload_estimators=library_estimators(env.libraries), cel_go=env.cel_go)
        return est.max, sizes


#: A variable whose expression is a field of the object (or params): ``object.spec.tags``.
_FIELD_PATH = re.compile(r"^(object|oldObject|params)(\.[A-Za-z_][A-Za-z0-9_]*)+$")

_BOUND = {"list": "maxItems", "map": "maxProperties", "string": "maxLength"}


def _driver(kind: _Kind, path: tuple[str, ...], t: DeclType) -> tuple[Location, str, str] | None:
    """(schema location, bound keyword, manifest path) of a CRD field whose size an estimate assumed (no bound
    declared); None for what a bound cannot change (metadata, params, a bounded or built-in field)."""
    if kind.schema is None or path[0] not in ("object", "oldObject") or len(path) < 2 or path[1] == "metadata":
        return None
    loc: list[tuple[Any, ...]] = []
    for name in path[1:]:
        loc.append(("items",) if name == "@items" else ("additionalProperties",) if name == "@values"
                   else ("properties", name))
        if name == "@keys":
            return None
    location: Location = tuple(loc)
    node = node_at(kind.schema, location)
    if node is None:
        return None
    what = "list" if t.is_list() else "map" if t.is_map() else "string" if t.cel_type == T.STRING else None
    if what is None or _BOUND[what] in node or (what == "string" and "enum" in node):
        return None
    return location, _BOUND[what], str(node_path(kind.schema_path, location))


def _fix_line(coster: _Coster, path: str, limit: int) -> tuple[str, ...]:
    """The bounds (each alone) that bring the expression's estimate under 90% of ``limit``, in words."""
    first = coster.cost(path)
    if first is None:
        return ()
    _, sizes = first
    lines: list[str] = []
    drivers = [(p, d) for p, t in sizes.read.items() if (d := _driver(coster.kind, p, t)) is not None]
    for read_path, (_, keyword, manifest_path) in drivers:
        units = 4 if keyword == "maxLength" else 1  # cel-go sizes strings in bytes: maxLength N is 4N

        def passes(n: int, read_path: tuple[str, ...] = read_path, units: int = units) -> bool:
            got = coster.cost(path, {read_path: n * units})
            return got is not None and got[0] <= NEAR_FRACTION * limit

        value = _largest(passes, 64)
        after = coster.cost(path, {read_path: value * units}) if value is not None else None
        if value is not None and after is not None:
            lines.append(f"fix: {keyword}: {value} on CRD {coster.kind.crd} {manifest_path} (estimated cost then "
                         f"{after[0]:,})")
        else:
            lines.append(f"assumed size: {manifest_path} of CRD {coster.kind.crd} has no {keyword}")
    if len(drivers) > 1:  # the largest common value, as lint's fixes of CRD rules offer it
        def all_pass(n: int) -> bool:
            got = coster.cost(path, {p: n * (4 if d[1] == "maxLength" else 1) for p, d in drivers})
            return got is not None and got[0] <= NEAR_FRACTION * limit

        value = _largest(all_pass, 64)
        if value is not None:
            after = coster.cost(path, {p: value * (4 if d[1] == "maxLength" else 1) for p, d in drivers})
            lines.append(f"fix: {value} as each of " + ", ".join(f"{d[1]} on {d[2]}" for _, d in drivers)
                         + f" of CRD {coster.kind.crd} (estimated cost then {after[0] if after else 0:,})")
    if not any(line.startswith("fix:") for line in lines):
        lines.append("no bound on a CRD's schema fixes it: simplify the expression")
    return tuple(lines)


def _factor(cost: int, limit: int) -> str:
    factor = cost / limit
    return f"{factor:.1f}x" if factor < 1000 else f"{factor:,.0f}x"


def _cost_findings(index: int, doc: Mapping[str, Any], crds: list[dict[str, Any]],
                   release: Release) -> list[PolicyFinding]:
    exprs = _expressions(doc)
    if not exprs:
        return []
    params = _params_decl(doc, crds, release)
    out: list[PolicyFinding] = []
    for kind in _kinds(doc, crds, release):
        coster = _Coster(doc, kind, params, release)
        total = 0
        parts: list[tuple[str, int]] = []
        for what, path, _, budgeted in exprs:
            got = coster.cost(path)
            if got is None:
                continue
            cost = got[0]
            if budgeted:
                total += cost
                parts.append((path, cost))
            if cost > PER_CALL_LIMIT:
                out.append(_finding(index, "POL001", f"estimated {what} cost {cost:,} against {kind.gvk}: "
                                    f"{_factor(cost, PER_CALL_LIMIT)} the per-call limit of {PER_CALL_LIMIT:,}",
                                    path, _fix_line(coster, path, PER_CALL_LIMIT)))
        if total > RUNTIME_CEL_COST_BUDGET:
            top = sorted(parts, key=lambda p: -p[1])[:4]
            out.append(_finding(index, "POL002", f"the expressions of one evaluation are estimated to cost {total:,} "
                                f"against {kind.gvk}: {_factor(total, RUNTIME_CEL_COST_BUDGET)} the runtime budget of "
                                f"{RUNTIME_CEL_COST_BUDGET:,}", "spec",
                                tuple(f"{p}: {c:,}" for p, c in top)))
    return out
