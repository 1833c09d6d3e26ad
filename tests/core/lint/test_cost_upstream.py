"""The cost breakdown's numbers are the apiserver's, on every CEL case of the upstream tests transcribed.

Data (tests/core/cel_upstream, harnesses in its README):

* ``compile_k8s.yaml`` ``cost_estimation_cases`` (apiextensions-apiserver v0.36.3
  ``pkg/apiserver/schema/cel/compilation_test.go`` TestCostEstimation) and
  ``eval_k8s_cost_stability.yaml`` ``TestCelEstimatedCostStability`` (``celcoststability_test.go``): the
  estimated ``MaxCost`` of one rule compiled with ``SchemaDeclType(&s, false)``. Here the schema is put
  under a property ``x`` of a CRD root (a scope that starts below the root: ``isResourceRoot`` false, as
  in the tests; cardinality 1), and the breakdown's cost per call must be upstream's number.
* ``crd_validation_cel_k8s.yaml`` (``pkg/apis/apiextensions/validation/validation_test.go``): every
  ``TestValidateCustomResourceDefinitionValidation`` case and ``TestValidateCustomResourceDefinition``
  case: an expression the breakdown puts over the per-expression limit is one upstream reports
  ``Forbidden`` at its path, and a schema total over the per-CRD limit is one upstream reports at
  ``openAPIV3Schema``; and the texts built from the breakdown's numbers
  (``estimated rule cost exceeds budget by factor of ...``) are exactly those of crdtool's validator on
  the same input (which the upstream cases pin by type and path).
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from crdtool.core.crd.cel_validation import cost_error_message
from crdtool.core.crd.options import ValidationOptions
from crdtool.core.crd.schema_validation import validate_custom_resource_definition_validation
from crdtool.core.errors import Path
from crdtool.core.lint.cost import CRD_LIMIT, RULE_LIMIT, SchemaCost, schema_cost_breakdown
from tests.core.celgo.upstream import case_id, load

COMPILE = load("compile_k8s.yaml")["cost_estimation_cases"]
STABILITY = load("eval_k8s_cost_stability.yaml")["TestCelEstimatedCostStability"]
CRD_VALIDATION = load("crd_validation_cel_k8s.yaml")


def _under_x(schema: dict[str, Any]) -> SchemaCost:
    root = {"type": "object", "properties": {"x": schema}}
    return schema_cost_breakdown(root, fixes=False)


def _rule_at_x(cost: SchemaCost) -> Any:
    [e] = [e for e in cost.expressions if e.location == (("properties", "x"),) and e.kind == "rule"]
    return e


@pytest.mark.parametrize("case", COMPILE, ids=[case_id(c) for c in COMPILE])
@pytest.mark.parametrize("variant", ["calc_max_length", "set_max_length"])
def test_cost_estimation_cases(case: dict[str, Any], variant: str) -> None:
    spec = case[variant]
    e = _rule_at_x(_under_x(spec["schema"]))
    assert e.cardinality == 1 and e.estimated == e.cost
    if spec.get("expected_max_cost"):
        assert e.cost == spec["expected_max_cost"]
    if spec.get("expected_max_cost_at_least"):
        assert e.cost >= spec["expected_max_cost_at_least"]


ESTIMATED = [(c, r, n) for c in STABILITY for r, n in (c["expectCost"] or {}).items() if n > 0]


@pytest.mark.parametrize("case,rule,cost", ESTIMATED, ids=[f"{c['source']['line']}:{r[:60]}" for c, r, _ in ESTIMATED])
def test_estimated_cost_stability(case: dict[str, Any], rule: str, cost: int) -> None:
    s = copy.deepcopy(case["schema"])
    s["x-kubernetes-validations"] = [{"rule": rule}]
    assert _rule_at_x(_under_x(s)).cost == cost


def test_the_upstream_cases_are_all_there() -> None:
    assert len(COMPILE) == 68
    assert len(ESTIMATED) == 301 - sum(1 for c in STABILITY for n in (c["expectCost"] or {}).values() if n <= 0)


def _default_env(opts: dict[str, Any]) -> bool:
    env = opts.get("celEnvironmentSet")
    return env is None or env == {"compatibility_version": "DefaultCompatibilityVersion()"}


SCHEMA_CASES = [c for c in CRD_VALIDATION["schema_validation_cases"] if _default_env(c["opts"])
                and isinstance((c["input"] or {}).get("openAPIV3Schema"), dict)]


def _messages(cost: SchemaCost) -> set[tuple[str, str]]:
    """The cost errors the apiserver builds from these numbers (``getCostErrorMessage``)."""
    out = set()
    for e in cost.expressions:
        if e.over:
            name = "estimated rule cost" if e.kind == "rule" else "estimated messageExpression cost"
            out.add((e.path, cost_error_message(name, e.estimated, RULE_LIMIT)))
    if cost.over:
        out.add((cost.paths[0], cost_error_message(
            "x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema", cost.total, CRD_LIMIT)))
    return out


@pytest.mark.parametrize("case", SCHEMA_CASES, ids=[case_id(c) for c in SCHEMA_CASES])
def test_crd_validation_cases(case: dict[str, Any]) -> None:
    base = "spec.validation.openAPIV3Schema"
    cost = schema_cost_breakdown(case["input"]["openAPIV3Schema"], path=base, fixes=False)
    forbidden = {e["path"] for e in case["expected_errors"] if e["type"] == "FieldValueForbidden"}
    over = {e.path for e in cost.expressions if e.over}
    assert over <= forbidden
    assert cost.over == (base in forbidden)
    errs = validate_custom_resource_definition_validation(
        case["input"], case["status_enabled"], ValidationOptions(require_structural_schema=True), Path("spec.validation"))
    if not any(e.type != "FieldValueForbidden" for e in errs):  # the validator compiled every rule
        theirs = {(e.field, e.detail) for e in errs if "exceeds budget" in e.detail}
        assert _messages(cost) == theirs


def test_some_crd_validation_cases_are_over_budget() -> None:
    """The comparison above is not vacuous: upstream's cost cases are among them, and over."""
    over = [c["name"] for c in SCHEMA_CASES
            if schema_cost_breakdown(c["input"]["openAPIV3Schema"], fixes=False).over
            or any(e.over for e in schema_cost_breakdown(c["input"]["openAPIV3Schema"], fixes=False).expressions)]
    assert len(over) >= 5, over


CREATE_CASES = CRD_VALIDATION["crd_create_cases"]


@pytest.mark.parametrize("case", CREATE_CASES, ids=[case_id(c) for c in CREATE_CASES])
def test_crd_create_cases(case: dict[str, Any]) -> None:
    """``TestValidateCustomResourceDefinition``'s CEL cases: costs of the internal CRD's schemas."""
    spec = case["resource"]["spec"] if "resource" in case else case["input"]["spec"]
    schemas = [("spec.validation.openAPIV3Schema", (spec.get("validation") or {}).get("openAPIV3Schema"))]
    schemas += [(f"spec.versions[{i}].schema.openAPIV3Schema", (v.get("schema") or {}).get("openAPIV3Schema"))
                for i, v in enumerate(spec.get("versions") or [])]
    forbidden = {e["path"] for e in case["expected_errors"] if e["type"] == "FieldValueForbidden"}
    for base, schema in schemas:
        if isinstance(schema, dict):
            cost = schema_cost_breakdown(schema, path=base, fixes=False)
            assert {e.path for e in cost.expressions if e.over} <= forbidden
