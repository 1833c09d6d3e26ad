"""``crdtool lint``'s core: what the apiserver does not reject but will hurt, and CEL costs explained.

:mod:`crdtool.core.lint.cost` explains the CEL cost budget (per rule, per schema, the sizes it
assumed, the bounds that fix it); :mod:`crdtool.core.lint.checks` checks a CRD against the
Kubernetes API conventions; :mod:`crdtool.core.lint.codes` holds the codes, their rationale and
links. No upstream counterpart (the costs are the apiserver's; the checks are conventions).
"""

from __future__ import annotations

from crdtool.core.lint.checks import LintFinding, LintReport, lint_crd
from crdtool.core.lint.codes import CODES, SEVERITIES, LintCode, select_codes
from crdtool.core.lint.cost import (
    CRD_LIMIT,
    RULE_LIMIT,
    BoundFix,
    CostBreakdown,
    ExpressionCost,
    FixOption,
    SchemaCost,
    SizeDriver,
    apply_fix,
    cost_breakdown,
    plan_cost_fixes,
    schema_cost_breakdown,
)

__all__ = [
    "CODES", "CRD_LIMIT", "RULE_LIMIT", "SEVERITIES", "BoundFix", "CostBreakdown", "ExpressionCost", "FixOption",
    "LintCode", "LintFinding", "LintReport", "SchemaCost", "SizeDriver", "apply_fix", "cost_breakdown", "lint_crd",
    "plan_cost_fixes", "schema_cost_breakdown", "select_codes",
]
