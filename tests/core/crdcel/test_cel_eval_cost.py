"""The two cost paths of ``validate_cel`` agree (issue #9 item 3).

``exact`` meters every rule with the port of cel-go's runtime cost tracker;
``fast`` evaluates without metering, charges each rule an upper bound of its
actual cost (the compile-time ``MaxCost`` plus the slack counted while
evaluating) and falls back to ``exact`` whenever a bound could reach the
per-call limit or the budget. The paths must give the same errors, warnings
and skipped transition rules, for any budget and per-call limit — above all
near the limits, where the fallback decides — and the fast path's remaining
budget is never above the exact one.

Objects: every custom resource of ../shared/corpus whose CRD has CEL rules, the
corpus HTTPRoutes, the upstream cost-stability objects
(tests/core/cel_upstream/eval_k8s_cost_stability.yaml), and hypothesis-generated
objects for a schema whose rules exercise the places where cel-go's static
estimate is below its runtime charge (``==`` of unsized values, selections,
``dyn`` data, comprehensions).
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from crdtool.core.crdcel.validation import PER_CALL_LIMIT, RUNTIME_CEL_COST_BUDGET, CelResult, validate_cel
from crdtool.core.errors import Path
from crdtool.core.schema.structural import Structural, new_structural
from tests.core.celgo.upstream import load


def outcome(res: CelResult) -> tuple[list[str], list[str], list[str]]:
    return [str(e) for e in res.errors], list(res.warnings), list(res.skipped_transition_rules)


def both(obj: Any, ss: Structural, *, root: bool = True, budget: int = RUNTIME_CEL_COST_BUDGET,
         per_call_limit: int = PER_CALL_LIMIT, old: Any = None) -> tuple[CelResult, CelResult]:
    kw: dict[str, Any] = {"is_resource_root": root, "budget": budget, "per_call_limit": per_call_limit,
                          "old_obj": old}
    exact = validate_cel(obj, ss, Path(""), cost_path="exact", **kw)
    fast = validate_cel(obj, ss, Path(""), cost_path="fast", **kw)
    return exact, fast


def assert_agree(obj: Any, ss: Structural, **kw: Any) -> CelResult:
    exact, fast = both(obj, ss, **kw)
    assert outcome(fast) == outcome(exact)
    assert fast.remaining_budget <= exact.remaining_budget
    assert exact.exact_cost
    return exact


def assert_agree_near_limits(obj: Any, ss: Structural, **kw: Any) -> int:
    """Agreement with the full budget, then with budgets and per-call limits at and around the actual cost."""
    exact = assert_agree(obj, ss, **kw)
    spent = RUNTIME_CEL_COST_BUDGET - exact.remaining_budget
    for budget in sorted({0, 1, spent // 2, spent - 1, spent, spent + 1}):
        if budget >= 0:
            assert_agree(obj, ss, budget=budget, **kw)
    for limit in sorted({0, 1, spent // 2, spent - 1, spent, spent + 1}):
        if limit >= 0:
            assert_agree(obj, ss, per_call_limit=limit, **kw)
    return spent


# --- the corpus ------------------------------------------------------------------------------------------


# --- the upstream cost-stability objects -----------------------------------------------------------------

STABILITY = load("eval_k8s_cost_stability.yaml")["TestCelCostStability"]


def _go(x: Any) -> Any:
    if isinstance(x, dict):
        if "$go" in x:
            return None if x["v"] == "nil" else (float(x["v"]) if "float" in x["$go"] else int(x["v"]))
        return {k: _go(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_go(v) for v in x]
    return x


@pytest.mark.parametrize("case", STABILITY, ids=[c["name"] for c in STABILITY])
def test_cost_stability_objects(case: dict[str, Any]) -> None:
    """All of a case's rules at once on its object (the upstream test runs them one by one)."""
    schema = copy.deepcopy(case["schema"])
    schema["x-kubernetes-validations"] = [{"rule": r} for r in case["expectCost"]]
    assert_agree_near_limits(_go(case["obj"]), new_structural(schema))


# --- hypothesis --------------------------------------------------------------------------------------------

RULES = [
    "self.items.all(i, i.name != '' && i.count >= 0)",
    "self.items.exists(i, i.count == 3) || self.items.size() < 4",
    "self.items.map(i, i.count).filter(c, c % 2 == 0).size() <= 10",
    "self.items.all(i, self.items.exists_one(j, j.name == i.name))",
    "!has(self.extra) || self.extra.all(k, self.extra[k] == self.extra[k])",
    "self.free == self.free && (!has(self.free.a) || self.free.a != 'x')",
    "self.tags.all(t, t.matches('^[a-z]+$')) && self.tags.join(',').size() < 200",
    "self.items.sortBy(i, i.count).size() == self.items.size()",
]
SCHEMA = new_structural({
    "type": "object",
    "x-kubernetes-validations": [{"rule": r} for r in RULES],
    "properties": {
        "items": {"type": "array", "maxItems": 12, "items": {
            "type": "object", "properties": {"name": {"type": "string", "maxLength": 8},
                                             "count": {"type": "integer"}},
            "x-kubernetes-validations": [{"rule": "self.count < 100", "message": "small"}]}},
        "extra": {"type": "object", "additionalProperties": {"type": "integer"}, "maxProperties": 6},
        "free": {"type": "object", "x-kubernetes-preserve-unknown-fields": True},
        "tags": {"type": "array", "maxItems": 8, "items": {"type": "string", "maxLength": 10}},
    },
})

names = st.text(alphabet="abcx", min_size=0, max_size=8)
objects = st.fixed_dictionaries(
    {"items": st.lists(st.fixed_dictionaries({"name": names, "count": st.integers(-2, 120)}), max_size=12)},
    optional={
        "extra": st.dictionaries(names, st.integers(-5, 5), max_size=6),
        "free": st.dictionaries(st.sampled_from(["a", "b", "c"]), st.one_of(names, st.integers(), st.booleans()),
                                max_size=3),
        "tags": st.lists(st.text(alphabet="ab-Z", max_size=10), max_size=8),
    },
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(obj=objects, budget_frac=st.floats(0, 1.2), limit_frac=st.floats(0, 1.2))
def test_paths_agree_on_generated_objects(obj: dict[str, Any], budget_frac: float, limit_frac: float) -> None:
    exact = assert_agree(obj, SCHEMA, root=False)
    spent = RUNTIME_CEL_COST_BUDGET - exact.remaining_budget
    assert_agree(obj, SCHEMA, root=False, budget=int(spent * budget_frac))
    assert_agree(obj, SCHEMA, root=False, per_call_limit=int(spent * limit_frac))
