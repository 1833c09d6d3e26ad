"""``crdtool lint``'s codes: one per check, with a severity, a one-line rationale and the convention it follows.

Codes are stable (a code is never reused for another check): ``CRD0xx`` the CEL cost budget,
``CRD1xx`` lists and maps under server-side apply, ``CRD2xx`` schema types, formats and pruning,
``CRD3xx`` versions and subresources, ``CRD4xx`` CEL rules, ``CRD9xx`` what keeps lint from checking a CRD at
all; ``POL0xx`` the CEL cost of admission policies' expressions, ``POL1xx`` the references of a bundle's
policies and bindings (:mod:`crdtool.core.lint.policies`). Selection is ruff's: ``--select`` names codes or prefixes
(``CRD1``, ``CRD10``, ``ALL``) and replaces the default set; ``--ignore`` removes codes or
prefixes from it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

__all__ = ["CODES", "LintCode", "SEVERITIES", "select_codes"]

#: Severities, most severe first. ``error``: the apiserver refuses the CRD, or every object of it;
#: ``warning``: it installs, and will hurt; ``info``: a convention.
SEVERITIES = ("error", "warning", "info")

_CONVENTIONS = "https://github.com/kubernetes/community/blob/master/contributors/devel/sig-architecture/api-conventions.md"
_CRD_DOCS = "https://kubernetes.io/docs/tasks/extend-kubernetes/custom-resources/custom-resource-definitions/"
_VERSIONING = "https://kubernetes.io/docs/tasks/extend-kubernetes/custom-resources/custom-resource-definition-versioning/"
_SSA = "https://kubernetes.io/docs/reference/using-api/server-side-apply/#merge-strategy"
_CHECKER = "https://github.com/openshift/crd-schema-checker"
_VAP = "https://kubernetes.io/docs/reference/access-authn-authz/validating-admission-policy/"
_MAP = "https://kubernetes.io/docs/reference/access-authn-authz/mutating-admission-policy/"


@dataclass(frozen=True)
class LintCode:
    """One check: ``code`` (``CRD101``), ``name`` (``list-type-missing``), ``severity``, a one-line
    ``rationale``, the ``url`` of the convention it follows, and whether it runs by ``default``."""

    code: str
    name: str
    severity: str
    rationale: str
    url: str
    default: bool = True


CODES: dict[str, LintCode] = {c.code: c for c in (
    # --- CRD0xx: the CEL cost budget -------------------------------------------------------------------
    LintCode("CRD001", "cel-rule-over-budget", "error",
             "The apiserver refuses a CRD whose rule (or messageExpression) is estimated to cost more than 10,000,000; "
             "bounding the lists, maps and strings it reads lowers the estimate.",
             _CRD_DOCS + "#resource-use-by-validation-functions"),
    LintCode("CRD002", "cel-rule-near-budget", "warning",
             "A rule within 10% of the per-rule cost limit fails as soon as a schema change or another Kubernetes "
             "release raises its estimate.",
             _CRD_DOCS + "#resource-use-by-validation-functions"),
    LintCode("CRD003", "cel-schema-over-budget", "error",
             "The apiserver refuses a CRD whose rules together are estimated to cost more than 100,000,000 per "
             "version schema.",
             _CRD_DOCS + "#resource-use-by-validation-functions"),
    LintCode("CRD004", "cel-schema-near-budget", "warning",
             "Rules within 10% of the per-schema cost limit leave no room for one more rule.",
             _CRD_DOCS + "#resource-use-by-validation-functions"),
    LintCode("CRD005", "cel-unbounded-size", "warning",
             "A list, map or string a CEL rule reads without maxItems, maxProperties or maxLength is costed as if "
             "it filled the 3 MiB request, which puts the rule at 1% of its limit or more: declare the bound the "
             "data needs (crd-schema-checker's unbounded cardinality and field length).",
             _CRD_DOCS + "#resource-use-by-validation-functions"),
    # --- CRD1xx: lists and maps under server-side apply ------------------------------------------------
    LintCode("CRD101", "list-type-missing", "warning",
             "An array without x-kubernetes-list-type is atomic under server-side apply: one field manager owns "
             "the whole list and replaces the others' entries (crd-schema-checker ListsMustHaveSSATags).",
             _SSA),
    LintCode("CRD102", "list-map-key-not-required", "warning",
             "The keys of an x-kubernetes-list-type: map list identify its entries: each must be required or have "
             "a default, or entries cannot be merged.",
             _SSA),
    LintCode("CRD103", "conditions-list-type", "warning",
             "status.conditions should be x-kubernetes-list-type: map keyed by type, so that controllers can "
             "each own their condition (crd-schema-checker ConditionsMustHaveProperSSATags).",
             _CONVENTIONS + "#typical-status-properties"),
    LintCode("CRD104", "set-of-non-scalars", "warning",
             "x-kubernetes-list-type: set compares whole items: objects or lists as set items cannot be merged "
             "field by field; use a map list with keys.",
             _SSA),
    LintCode("CRD105", "map-field", "info",
             "Maps (additionalProperties) carry no field name for their keys and cannot be merged by key; the "
             "conventions prefer lists of named subobjects (crd-schema-checker NoMaps).",
             _CONVENTIONS + "#lists-of-named-subobjects-preferred-over-maps", default=False),
    # --- CRD2xx: schema types, formats, pruning ----------------------------------------------------------
    LintCode("CRD201", "float-field", "warning",
             "Floating-point values do not round-trip exactly between languages and encodings; the conventions "
             "avoid them (use integers or resource.Quantity strings) (crd-schema-checker NoFloats).",
             _CONVENTIONS + "#primitive-types"),
    LintCode("CRD202", "format-on-non-string", "warning",
             "The apiserver ignores format on anything but strings (integers keep only int32/int64, numbers "
             "float/double): the value is not checked (crd-schema-checker NoUints for uint formats).",
             _CRD_DOCS + "#validation"),
    LintCode("CRD203", "unknown-format", "warning",
             "The apiserver silently ignores a string format it does not know: the value is not checked.",
             _CRD_DOCS + "#validation"),
    LintCode("CRD204", "boolean-field", "info",
             "Booleans rarely stay booleans; the conventions prefer an enum-like string that can grow a third "
             "value (crd-schema-checker NoBools).",
             _CONVENTIONS + "#primitive-types", default=False),
    LintCode("CRD205", "missing-description", "info",
             "Descriptions of the top-level fields are what kubectl explain and the published OpenAPI show.",
             _CRD_DOCS + "#publish-validation-schema-in-openapi"),
    LintCode("CRD206", "preserve-unknown-fields-at-root", "warning",
             "x-kubernetes-preserve-unknown-fields at the schema root turns off pruning for the whole object: "
             "typos and stale fields are stored as they come.",
             _CRD_DOCS + "#controlling-pruning"),
    LintCode("CRD207", "required-not-declared", "error",
             "A required property the schema does not declare is pruned before validation, so every object "
             "fails the required check.",
             _CRD_DOCS + "#field-pruning"),
    # --- CRD3xx: versions and subresources ---------------------------------------------------------------
    LintCode("CRD301", "status-without-subresource", "warning",
             "A schema with status but no status subresource lets spec writers change status and bumps the "
             "generation on status writes (crd-schema-checker MustHaveStatus).",
             _CRD_DOCS + "#status-subresource"),
    LintCode("CRD302", "deprecated-without-warning", "info",
             "A deprecated version without deprecationWarning gets the generic warning, which names no "
             "replacement version.",
             _VERSIONING + "#version-deprecation"),
    LintCode("CRD303", "storage-not-newest-served", "info",
             "Objects are stored at the storage version: while it is not the newest served version, what only "
             "newer versions can hold must survive conversion to it, and moving storage later needs a migration.",
             _VERSIONING + "#upgrade-existing-objects-to-a-new-stored-version"),
    # --- CRD4xx: CEL rules ---------------------------------------------------------------------------------
    LintCode("CRD401", "immutable-but-removable", "warning",
             "A transition rule runs only when the old and the new object both have the field, so an optional "
             "field that is immutable once set (self == oldSelf) can still be removed and then set to anything; "
             "the parent needs !has(oldSelf.f) || has(self.f) (the field may not be removed once set).",
             _CRD_DOCS + "#transition-rules"),
    # --- POL0xx: the CEL cost of admission policies' expressions ------------------------------------------
    LintCode("POL001", "policy-expression-over-limit", "warning",
             "Each call of a policy's CEL expression runs with a cost limit of 1,000,000 (PerCallLimit): an "
             "expression estimated above it can fail at run time, which denies the request under failurePolicy "
             "Fail; bounding the lists, maps and strings it reads (in the CRD's schema) lowers the estimate.",
             _VAP + "#resource-constraints"),
    LintCode("POL002", "policy-over-runtime-budget", "warning",
             "One evaluation of a policy (its variables, validations and messageExpressions, or mutations) runs "
             "with a budget of 10,000,000 (RuntimeCELCostBudget): expressions estimated above it together can "
             "run out of budget, which fails the evaluation.",
             _VAP + "#resource-constraints"),
    # --- POL1xx: the references of a bundle's policies and bindings ----------------------------------------
    LintCode("POL101", "binding-unknown-policy", "warning",
             "A binding whose policyName names no policy of the bundle applies nothing (the apiserver accepts it "
             "and skips it until such a policy exists).",
             _VAP + "#creating-a-validatingadmissionpolicy"),
    LintCode("POL102", "policy-unknown-resource", "warning",
             "A resource rule naming a group/resource that neither a built-in kind nor a CRD of the bundle serves "
             "never matches: a typo in a plural or a group silently turns the policy off.",
             _VAP + "#matching-requests-matchconstraints"),
    LintCode("POL103", "policy-params-missing", "warning",
             "A policy with a paramKind and no object of that kind in the bundle finds no params for any binding: "
             "parameterNotFoundAction (Deny by default) then decides every request it matches.",
             _VAP + "#parameter-resources"),
    # --- CRD9xx: what keeps lint from checking a CRD at all (ruff's E902/E999) -----------------------
    LintCode("CRD900", "crd-not-decodable", "error",
             "A CRD the apiserver cannot decode (spec not an object, versions not a list, a field of the wrong "
             "type) or without any version has no schema lint could check: it is refused on create, and "
             "`crdtool validate` gives the apiserver's errors.",
             "https://kubernetes.io/docs/reference/kubernetes-api/extend-resources/custom-resource-definition-v1/"),
    LintCode("CRD901", "unused-suppression", "warning",
             "A `# crdtool: ignore[...]` comment that silences nothing (the finding was fixed, or the code is "
             "misspelt) hides the next real finding there; remove it (ruff's RUF100 unused-noqa).",
             "https://docs.astral.sh/ruff/rules/unused-noqa/", default=False),
)}


def _matches(code: str, selector: str) -> bool:
    return selector == "ALL" or code.startswith(selector)


def select_codes(select: Iterable[str] | None = None, ignore: Iterable[str] = ()) -> frozenset[str]:
    """The codes that run: ``select`` (codes or prefixes, ``ALL``; None: the default set) minus ``ignore``.

    Raises ValueError naming a selector that matches no code (a typo must not silence a check).
    """
    chosen: set[str]
    if select is None:
        chosen = {c for c, lc in CODES.items() if lc.default}
    else:
        chosen = set()
        for s in select:
            hit = {c for c in CODES if _matches(c, s.strip())}
            if not hit:
                raise ValueError(f"unknown lint code or prefix {s!r} (codes: {', '.join(CODES)})")
            chosen |= hit
    for s in ignore:
        hit = {c for c in CODES if _matches(c, s.strip())}
        if not hit:
            raise ValueError(f"unknown lint code or prefix {s!r} (codes: {', '.join(CODES)})")
        chosen -= hit
    return frozenset(chosen)
