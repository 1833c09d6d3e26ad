"""apiextensions-apiserver v0.36.3 ``pkg/apiserver/schema/cel/validation_test.go`` run against ``validate_cel``.

Data: tests/core/cel_upstream/eval_k8s_validation.yaml, dumped by the Go
compiler from the upstream tables (see that folder's README.md, section
``eval_k8s_validation.yaml``, for each harness). Each test below replicates the
upstream ``t.Run`` body: the same validator constructor arguments
(``validator(&s, &s, isRoot, ...)`` = ``is_resource_root=isRoot``,
``NewValidator(&s, true, limit)`` = ``is_resource_root=True``), the same budget,
old object and ratcheting option, and the same assertions (error type, the
``strings.Contains`` of ``err.Error()``, remaining budget, warnings).

``validate_cel`` runs on the exact cost path here (a budget is passed), as the
upstream assertions on remaining budgets need; the fast path is compared with
it in tests/core/test_cel_eval_cost.py.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from crdtool.core.errors import Path
from crdtool.core.crdcel.validation import PER_CALL_LIMIT, RUNTIME_CEL_COST_BUDGET, CelResult, validate_cel
from crdtool.core.schema.structural import new_structural
from tests.core.celgo.upstream import load

DOC = load("eval_k8s_validation.yaml")
MAX_INT = (1 << 63) - 1  # Go math.MaxInt on the 64-bit platforms upstream runs on
INVALID = "FieldValueInvalid"


def go_value(x: Any) -> Any:
    """The JSON-like value of a dumped Go value.

    ``{"$go": T, "v": text}`` marks a Go type JSON cannot carry: ``int``/``int32``
    (``UnstructuredToVal`` treats them as ``int64``), ``float32`` (as
    ``float64``) and a typed nil ``[]interface {}`` (which ``validateExpressions``
    turns into nil: "guard against oldObj being a non-nil interface with a nil value").
    """
    if isinstance(x, dict):
        if "$go" in x:
            t, v = x["$go"], x["v"]
            if v == "nil":
                return None
            if t in ("int", "int32", "uint64"):
                return int(v)
            if t in ("float32", "float64"):
                return float(v)
            raise AssertionError(f"unknown Go type {t}")
        return {k: go_value(v) for k, v in x.items()}
    if isinstance(x, list):
        return [go_value(v) for v in x]
    return x


def with_rule(schema: dict[str, Any], rule: str) -> dict[str, Any]:
    """The test's ``withRule``: the node's rules replaced by one rule."""
    s = copy.deepcopy(schema)
    s["x-kubernetes-validations"] = [{"rule": rule}]
    return s


def run(schema: dict[str, Any], obj: Any, old: Any = None, *, root: bool, new: bool,
        budget: int = RUNTIME_CEL_COST_BUDGET, ratcheting: bool = False,
        per_call_limit: int = PER_CALL_LIMIT, release: int | None = None) -> CelResult:
    """``validator(&s, &s, root, SchemaDeclType(&s, root), limit)`` (``new=False``) or ``NewValidator(&s, root,
    limit)`` (``new=True``), then ``Validate(ctx, field.NewPath("root"), &s, obj, old, budget[, WithRatcheting])``,
    in release 1.``release``'s apiserver (default: the newest)."""
    return validate_cel(go_value(obj), new_structural(schema), Path("root"), old_obj=go_value(old),
                        is_resource_root=root, budget=budget, ratcheting=ratcheting, per_call_limit=per_call_limit,
                        new_validator=new, release=release)


def ids(cases: list[dict[str, Any]]) -> list[str]:
    return [f"{c['source']['line']}:{c['name']}" for c in cases]


def assert_all_contained(res: CelResult, expected: list[str]) -> None:
    """The ``unmatched`` loop: every error is Invalid and contains one distinct expected string; none left."""
    unmatched = list(expected)
    for err in res.errors:
        assert err.type == INVALID, str(err)
        hit = next((e for e in unmatched if e in str(err)), None)
        assert hit is not None, f"{err} matches none of {unmatched}"
        unmatched.remove(hit)
    assert not unmatched, f"expected errors {unmatched}; got {[str(e) for e in res.errors]}"


# --- TestValidationExpressions / TestCELMaxRecursionDepth ----------------------------------------------

def _valid_rules(test: str) -> list[tuple[dict[str, Any], str]]:
    return [(c, r) for c in DOC[test] for r in c["valid"] or []]


def _error_rules(test: str) -> list[tuple[dict[str, Any], str, str]]:
    return [(c, r, e) for c in DOC[test] for r, e in (c["errors"] or {}).items()]


VALID = _valid_rules("TestValidationExpressions") + _valid_rules("TestCELMaxRecursionDepth")
ERRORS = _error_rules("TestValidationExpressions") + _error_rules("TestCELMaxRecursionDepth")


@pytest.mark.parametrize("case,rule", VALID, ids=[f"{c['source']['line']}:{r[:80]}" for c, r in VALID])
def test_validation_expressions_valid(case: dict[str, Any], rule: str) -> None:
    budget = case.get("costBudget") or RUNTIME_CEL_COST_BUDGET
    res = run(with_rule(case["schema"], rule), case["obj"], case["oldObj"], root=case["isRoot"], new=False,
              budget=budget)
    assert [str(e) for e in res.errors] == []
    if case.get("expectedCost"):
        assert budget - res.remaining_budget == case["expectedCost"]
    elif case.get("expectSkipped"):
        assert res.remaining_budget == budget


@pytest.mark.parametrize("case,rule,expected", ERRORS, ids=[f"{c['source']['line']}:{r[:80]}" for c, r, _ in ERRORS])
def test_validation_expressions_errors(case: dict[str, Any], rule: str, expected: str) -> None:
    budget = case.get("costBudget") or RUNTIME_CEL_COST_BUDGET
    res = run(with_rule(case["schema"], rule), case["obj"], case["oldObj"], root=True, new=True, budget=budget)
    assert res.errors, "expected validation errors but got none"
    for err in res.errors:
        assert err.type == INVALID and expected in str(err), str(err)


# --- TestValidationExpressionsAtSchemaLevels ------------------------------------------------------------

LEVELS = DOC["TestValidationExpressionsAtSchemaLevels"]


@pytest.mark.parametrize("case", LEVELS, ids=ids(LEVELS))
def test_validation_expressions_at_schema_levels(case: dict[str, Any]) -> None:
    res = run(case["schema"], case["obj"], case["oldObj"], root=True, new=False, budget=MAX_INT)
    assert_all_contained(res, case["errors"] or [])


# --- TestCELValidationLimit -----------------------------------------------------------------------------

LIMIT = [(c, r) for c in DOC["TestCELValidationLimit"] for r in c["valid"]]


@pytest.mark.parametrize("case,rule", LIMIT, ids=[r for _, r in LIMIT])
def test_cel_validation_limit(case: dict[str, Any], rule: str) -> None:
    s = with_rule(case["schema"], rule)
    res = run(s, case["obj"], root=False, new=False, budget=0)
    assert len(res.errors) == 1
    (err,) = res.errors
    assert err.type == INVALID and ("validation failed due to running out of cost budget, no further validation "
                                    "rules will be run") in str(err)
    res = run(s, case["obj"], root=True, new=True, per_call_limit=0)
    assert any(e.type == INVALID and "no further validation rules will be run due to call cost exceeds limit for "
               "rule" in str(e) for e in res.errors), [str(e) for e in res.errors]


# --- TestCELValidationContextCancellation ----------------------------------------------------------------

CANCEL = DOC["TestCELValidationContextCancellation"]


@pytest.mark.parametrize("case", CANCEL, ids=ids(CANCEL))
def test_cel_validation_context_cancellation_first_half(case: dict[str, Any]) -> None:
    """Only the first ``Validate`` (no error with a live context) applies: crdtool has no request
    context to cancel (filter: ``cancelled-context``, counted in test_every_case_is_run)."""
    res = run(with_rule(case["schema"], case["rule"]), case["obj"], root=True, new=True)
    assert [str(e) for e in res.errors] == []


# --- TestMessageExpression ------------------------------------------------------------------------------

MESSAGES = DOC["TestMessageExpression"]


@pytest.mark.parametrize("case", MESSAGES, ids=ids(MESSAGES))
def test_message_expression(case: dict[str, Any]) -> None:
    rule: dict[str, Any] = {"rule": "false", "messageExpression": case["messageExpression"]}
    if case["message"]:
        rule["message"] = case["message"]
    s = {"type": "object", "properties": {"str": {"type": "string"}}, "x-kubernetes-validations": [rule]}
    limit = case["perCallLimit"] or PER_CALL_LIMIT
    res = run(s, {"str": "a string"}, root=False, new=True, budget=case["costBudget"], per_call_limit=limit)
    assert len(res.errors) == 1, [str(e) for e in res.errors]
    log = "\n".join(res.log)
    if case["expectedLogErr"]:
        assert case["expectedLogErr"] in log
    else:
        assert log == ""
    if case["expectedValidationErr"]:
        assert case["expectedValidationErr"] in str(res.errors[0])
    if case["expectedRemainingBudget"]:
        assert res.remaining_budget == case["expectedRemainingBudget"]


# --- TestReasonAndFldPath -------------------------------------------------------------------------------

REASONS = DOC["TestReasonAndFldPath"]


@pytest.mark.parametrize("case", REASONS, ids=ids(REASONS))
def test_reason_and_fld_path(case: dict[str, Any]) -> None:
    res = run(case["schema"], case["obj"], root=True, new=False)
    got = sorted((e.type, e.field) for e in res.errors)
    assert got == sorted((e["Type"], e["Field"]) for e in case["errors"])


# --- TestRatcheting -------------------------------------------------------------------------------------

RATCHETING = DOC["TestRatcheting"]


@pytest.mark.parametrize("case", RATCHETING, ids=ids(RATCHETING))
def test_ratcheting(case: dict[str, Any]) -> None:
    budget = case["runtimeCostBudget"] or RUNTIME_CEL_COST_BUDGET
    res = run(case["schema"], case["newObj"], case["oldObj"], root=False, new=True, budget=budget,
              ratcheting=True)
    errors, warnings = case["errors"] or [], case["warnings"] or []
    assert len(res.errors) == len(errors), [str(e) for e in res.errors]
    assert len(res.warnings) == len(warnings), res.warnings
    for want in errors:
        assert any(want in str(e) for e in res.errors), want
    for want in warnings:
        assert want in res.warnings


# --- TestOptionalOldSelf / CheckForNull / IsOptionalType -------------------------------------------------

def with_optional_old_self(schema: dict[str, Any]) -> dict[str, Any]:
    """The loops' ``XValidations[i].OptionalOldSelf = &true`` on the root node's rules."""
    s = copy.deepcopy(schema)
    for r in s.get("x-kubernetes-validations") or []:
        r["optionalOldSelf"] = True
    return s


OPTIONAL = DOC["TestOptionalOldSelf"]


@pytest.mark.parametrize("case", OPTIONAL, ids=ids(OPTIONAL))
def test_optional_old_self(case: dict[str, Any]) -> None:
    res = run(with_optional_old_self(case["schema"]), case["obj"], case["oldObj"], root=True, new=False,
              budget=MAX_INT)
    assert_all_contained(res, case["errors"] or [])


NULL_CHECKS = DOC["TestOptionalOldSelfCheckForNull"]


@pytest.mark.parametrize("case", NULL_CHECKS, ids=ids(NULL_CHECKS))
@pytest.mark.parametrize("old", ["null old", "non-null old"])
def test_optional_old_self_check_for_null(case: dict[str, Any], old: str) -> None:
    s = with_optional_old_self(case["schema"])
    res = run(s, case["obj"], None if old == "null old" else case["oldObj"], root=False, new=False, budget=MAX_INT)
    assert [str(e) for e in res.errors] == []


OPTIONAL_TYPE = DOC["TestOptionalOldSelfIsOptionalType"]


@pytest.mark.parametrize("case", OPTIONAL_TYPE, ids=ids(OPTIONAL_TYPE))
def test_optional_old_self_is_optional_type(case: dict[str, Any]) -> None:
    res = run(with_optional_old_self(case["schema"]), case["obj"], case["obj"], root=False, new=False,
              budget=MAX_INT)
    assert_all_contained(res, case["errors"] or [])


# --- TestValidateFieldPath ------------------------------------------------------------------------------

FIELD_PATHS = DOC["TestValidateFieldPath"]


@pytest.mark.parametrize("case", FIELD_PATHS, ids=ids(FIELD_PATHS))
def test_validate_field_path(case: dict[str, Any]) -> None:
    """``ValidFieldPath`` (crdtool.core.schema.fieldpath, the one ``validate_cel`` uses for a rule's fieldPath)."""
    from crdtool.core.schema.fieldpath import FieldPathError, valid_field_path

    try:
        path, _ = valid_field_path(case["fieldPath"], new_structural(case["schema"]))
        err = None
    except FieldPathError as exc:
        err = str(exc)
    if not case["errDetail"]:
        assert err is None
    else:
        assert err is not None and case["errDetail"] in err
    if case["validFieldPath"] is not None:
        # tc.validFieldPath.String() == path.Child(validField.String()).String(), path = field.NewPath("") ("[]")
        assert err is None and f"[].{path.text}" == case["validFieldPath"]


# --- the v0.34.10 expectations (eval_k8s_validation_v0_34.yaml): release 1.34 ----------------------------

V034 = load("eval_k8s_validation_v0_34.yaml")


def _v034_cases(test: str) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    by_name = {c["name"]: c for c in DOC[test]}
    return [(by_name[name], want) for name, want in V034[test].items()]


def _v034_schema(case: dict[str, Any], want: dict[str, Any]) -> dict[str, Any]:
    import json

    text = json.dumps(case["schema"])
    for old, new in want.get("schema_text", ()):
        assert old in text
        text = text.replace(old, new)
    return json.loads(text)  # type: ignore[no-any-return]


LEVELS_34 = _v034_cases("TestValidationExpressionsAtSchemaLevels")


@pytest.mark.parametrize("case,want", LEVELS_34, ids=[c["name"] for c, _ in LEVELS_34])
def test_validation_expressions_at_schema_levels_1_34(case: dict[str, Any], want: dict[str, Any]) -> None:
    """``validateExpressions`` until v0.34: a false rule's error carries ``sts.Type`` (``"object"``, ``"string"``)."""
    res = run(_v034_schema(case, want), case["obj"], case["oldObj"], root=True, new=False, budget=MAX_INT,
              release=34)
    assert_all_contained(res, want.get("errors") or [])
    # and the same case in 1.35 gives v0.36.3's expectations (the value itself, or none)
    res = run(case["schema"], case["obj"], case["oldObj"], root=True, new=False, budget=MAX_INT, release=35)
    assert_all_contained(res, case["errors"] or [])


RATCHETING_34 = _v034_cases("TestRatcheting")


@pytest.mark.parametrize("case,want", RATCHETING_34, ids=[c["name"] for c, _ in RATCHETING_34])
def test_ratcheting_1_34(case: dict[str, Any], want: dict[str, Any]) -> None:
    budget = case["runtimeCostBudget"] or RUNTIME_CEL_COST_BUDGET
    res = run(_v034_schema(case, want), case["newObj"], case["oldObj"], root=False, new=True, budget=budget,
              ratcheting=True, release=34)
    errors, warnings = want.get("errors") or [], want.get("warnings") or []
    assert len(res.errors) == len(errors), [str(e) for e in res.errors]
    assert len(res.warnings) == len(warnings), res.warnings
    for w in errors:
        assert any(w in str(e) for e in res.errors), w
    for w in warnings:
        assert w in res.warnings


def test_every_case_is_run() -> None:
    """Every transcribed case is run above; the only one cut short is counted here."""
    counts = {t: len(DOC[t]) for t in DOC["upstream"]["tests"]}
    assert counts == {
        "TestValidationExpressions": 61, "TestValidationExpressionsAtSchemaLevels": 25, "TestCELValidationLimit": 1,
        "TestCELValidationContextCancellation": 1, "TestCELMaxRecursionDepth": 1, "TestMessageExpression": 12,
        "TestReasonAndFldPath": 4, "TestValidateFieldPath": 28, "TestRatcheting": 16, "TestOptionalOldSelf": 11,
        "TestOptionalOldSelfCheckForNull": 10, "TestOptionalOldSelfIsOptionalType": 5,
    }
    assert (len(VALID), len(ERRORS)) == (sum(len(c["valid"] or []) for t in ("TestValidationExpressions",
                                                                                "TestCELMaxRecursionDepth")
                                             for c in DOC[t]),
                                         sum(len(c["errors"] or {}) for t in ("TestValidationExpressions",
                                                                                 "TestCELMaxRecursionDepth")
                                             for c in DOC[t]))
    # filter "cancelled-context": TestCELValidationContextCancellation's second Validate runs with a cancelled
    # context ("operation interrupted"); crdtool has no request context, so only its first half runs.
    assert [c["name"] for c in CANCEL] == ["test cel validation with context cancellation"]


# --- celcoststability_test.go ---------------------------------------------------------------------------

STABILITY = load("eval_k8s_cost_stability.yaml")
RUNTIME_COSTS = [(c, r, n) for c in STABILITY["TestCelCostStability"] for r, n in (c["expectCost"] or {}).items()]


@pytest.mark.parametrize("case,rule,cost", RUNTIME_COSTS,
                         ids=[f"{c['source']['line']}:{r[:80]}" for c, r, _ in RUNTIME_COSTS])
def test_cel_cost_stability(case: dict[str, Any], rule: str, cost: int) -> None:
    """``NewValidator(&s, true, PerCallLimit)``, ``Validate(ctx, "root", &s, obj, nil, RuntimeCELCostBudget)``: no
    error, and the budget spent is the expected runtime cost. Run on both cost paths: the exact one must spend
    the figure, the fast one must give the same errors and never report more budget left than the exact one."""
    s = with_rule(case["schema"], rule)
    res = run(s, case["obj"], root=True, new=True)
    assert [str(e) for e in res.errors] == []
    assert RUNTIME_CEL_COST_BUDGET - res.remaining_budget == cost
    fast = validate_cel(go_value(case["obj"]), new_structural(s), Path("root"), is_resource_root=True,
                        cost_path="fast")
    assert fast.errors == res.errors and fast.remaining_budget <= res.remaining_budget


ESTIMATED_COSTS = [(c, r, n) for c in STABILITY["TestCelEstimatedCostStability"]
                   for r, n in (c["expectCost"] or {}).items()]


@pytest.mark.parametrize("case,rule,cost", ESTIMATED_COSTS,
                         ids=[f"{c['source']['line']}:{r[:80]}" for c, r, _ in ESTIMATED_COSTS])
def test_cel_estimated_cost_stability(case: dict[str, Any], rule: str, cost: int) -> None:
    """``schemaChecker(&s, cost, 0)``: ``Compile(&s, SchemaDeclType(&s, false), PerCallLimit, base env,
    NewExpressionsEnvLoader())`` gives one result, no error, and ``MaxCost == cost`` (checked when cost > 0) —
    the static bound ``validate_cel``'s fast path charges."""
    from crdtool.core.crdcel.compilation import RuleSource, compile_rules
    from crdtool.core.kubecel.decltype import schema_decl_type

    s = with_rule(case["schema"], rule)
    ss = new_structural(s)
    decl = schema_decl_type(ss, False)
    assert decl is not None
    (result,) = compile_rules([RuleSource.of(r) for r in s["x-kubernetes-validations"]], decl)
    assert result.error is None, result.error
    if cost > 0:
        assert result.max_cost == cost


def test_cost_stability_counts() -> None:
    assert (len(STABILITY["TestCelCostStability"]), len(RUNTIME_COSTS)) == (41, 329)
    assert (len(STABILITY["TestCelEstimatedCostStability"]), len(ESTIMATED_COSTS)) == (39, 301)


# --- k8s.io/apiserver pkg/cel/common/equality_test.go: TestCorrelation --------------------------------------

CORRELATION = load("eval_k8s_correlation.yaml")["TestCorrelation"]


def _go_deep_equal(a: Any, b: Any) -> bool:
    """``reflect.DeepEqual`` of decoded JSON values (float64 numbers stay float64, so 1 == 1.0 holds)."""
    return bool(a == b and type(a) is type(b)) if not isinstance(a, (dict, list)) else a == b


@pytest.mark.parametrize("case", CORRELATION, ids=ids([{**c, "name": c["Name"]} for c in CORRELATION]))
@pytest.mark.parametrize("schema_form", ["structural", "dict"])
def test_correlation(case: dict[str, Any], schema_form: str) -> None:
    """``NewCorrelatedObject(root, rootOld, schema)``, then ``Key``/``Index`` along ``KeyPath``: nil when
    ``NewValue``/``OldValue`` are nil, else those values, and ``CachedDeepEqual()`` equal to ``ExpectEqual ||
    reflect.DeepEqual(Value, OldValue)``. The schema is the test's kube-openapi ``spec.Schema`` (JSON), read both
    as a structural schema and as a schema dict (upstream's two ``common.Schema`` implementations)."""
    from crdtool.core.kubecel.equality import CorrelatedObject, DictSchema

    schema = new_structural(case["Schema"]) if schema_form == "structural" else DictSchema(case["Schema"])
    obj: Any = CorrelatedObject(go_value(case["RootObject"]), go_value(case["RootOldObject"]), schema)
    for key in go_value(case["KeyPath"]):
        if obj is None:
            break
        obj = obj.key(key) if isinstance(key, str) else obj.index(key)
    if obj is None:
        assert case["OldValue"] is None and case["NewValue"] is None
        return
    assert obj.new == go_value(case["NewValue"])
    assert obj.old == go_value(case["OldValue"])
    expect = case["ExpectEqual"] or _go_deep_equal(obj.new, obj.old)
    assert obj.cached_deep_equal() == expect


# --- apiextensions-apiserver values_test.go: TestEquality, TestLister, TestMapper ----------------------------

VALUES = load("eval_k8s_values.yaml")


def unstructured(x: Any) -> Any:
    """A recorded ``UnstructuredToVal(data, schema)`` call, made with crdtool's port."""
    from crdtool.core.kubecel.unstructured import unstructured_to_val

    return unstructured_to_val(go_value(x["$unstructured"]), new_structural(x["schema"]))


@pytest.mark.parametrize("case", VALUES["TestEquality"], ids=ids(VALUES["TestEquality"]))
def test_values_equality(case: dict[str, Any]) -> None:
    """``lhs.Equal(rhs)`` and ``rhs.Equal(lhs)`` are ``equal``, and so are both against
    ``DefaultTypeAdapter.NativeToValue`` of the other's ``Value()``."""
    from crdtool.core.celgo import values as V

    lhs, rhs = unstructured(case["lhs"]), unstructured(case["rhs"])
    assert V.value_equal(lhs, rhs) is case["equal"]
    assert V.value_equal(rhs, lhs) is case["equal"]
    assert V.value_equal(lhs, V.adapt_native(V.native_value(rhs))) is case["equal"]
    assert V.value_equal(rhs, V.adapt_native(V.native_value(lhs))) is case["equal"]


@pytest.mark.parametrize("case", VALUES["TestLister"], ids=ids(VALUES["TestLister"]))
def test_values_lister(case: dict[str, Any]) -> None:
    """``Size``, ``Get``/``Iterator`` giving back the raw items, ``Contains`` of every item (converted with the
    item schema) and not of ``notContains``, and ``Add`` of a list of the same schema (set union, map-list
    merge, atomic concatenation) giving ``expectAdded``."""
    from crdtool.core.celgo import values as V
    from crdtool.core.kubecel.unstructured import unstructured_to_val

    data = go_value(case["unstructured"])
    schema = new_structural(case["schema"])
    lister = unstructured_to_val(data, schema)
    assert lister.size() == case["size"]
    items = lister.items()
    assert len(items) == case["size"]
    for i in range(case["size"]):
        assert V.native_value(lister.get(i)) == data[i]
        assert V.native_value(items[i]) == data[i]
    item_schema = new_structural(case["itemSchema"])
    for x in data:
        assert lister.contains(unstructured_to_val(x, item_schema)) is True
    for x in case["notContains"]:
        assert lister.contains(unstructured(x)) is False
    # the v0.36.3 harness: reflect.DeepEqual(lister.Add(addition).Value(), expectAdded) (Kubernetes 1.36)
    lister36 = unstructured_to_val(data, schema, 36)
    added = lister36.add(unstructured_to_val(go_value(case["addition"]), schema, 36))
    assert V.native_value(added) == go_value(case["expectAdded"])
    # the v0.37.0-beta.0 harness: Add returns a list of CEL values, compared element by element with
    # UnstructuredToVal(expectAdded[i], itemSchema).Equal (Kubernetes 1.37)
    added = lister.add(unstructured_to_val(go_value(case["addition"]), schema))
    expect = go_value(case["expectAdded"])
    assert added.size() == len(expect)
    for i, e in enumerate(expect):
        assert V.value_equal(unstructured_to_val(e, item_schema), added.get(i)) is True


@pytest.mark.parametrize("case", VALUES["TestMapper"], ids=ids(VALUES["TestMapper"]))
def test_values_mapper(case: dict[str, Any]) -> None:
    """``Size``, ``Get`` of every key giving back the raw value, the ``Iterator``'s keys, ``Contains`` of every key
    and not of ``notContains``."""
    from crdtool.core.celgo import values as V
    from crdtool.core.kubecel.unstructured import unstructured_to_val

    data = go_value(case["unstructured"])
    mapper = unstructured_to_val(data, new_structural(case["schema"]))
    assert mapper.size() == case["size"]
    for k, v in data.items():
        assert V.native_value(mapper.get(k)) == v
    assert {V.native_value(k) for k in mapper.keys()} == set(data)
    string_schema = new_structural({"type": "string"})
    for k in data:
        assert mapper.contains(unstructured_to_val(k, string_schema)) is True
    for x in case["notContains"]:
        assert mapper.contains(unstructured(x)) is False


def test_values_counts() -> None:
    assert {t: len(VALUES[t]) for t in VALUES["upstream"]["tests"]} == {"TestEquality": 22, "TestLister": 3,
                                                                        "TestMapper": 2}
    assert len(CORRELATION) == 23


# --- celcoststability_test.go at older tags (eval_k8s_cost_stability_per_release.yaml) ----------------------

PER_RELEASE_STABILITY = load("eval_k8s_cost_stability_per_release.yaml")["tags"]


def _stability_at(tag: str, test: str) -> list[tuple[dict[str, Any], list[tuple[str, int]]]]:
    """The tag's table: the v0.36.3 cases and rules, less what the tag lacks, with its own texts and costs."""
    spec = PER_RELEASE_STABILITY[tag][test]
    out = []
    for case in STABILITY[test]:
        if case["name"] in spec.get("drop_cases", ()):
            continue
        dropped = set(spec.get("drop_rules", {}).get(case["name"], ()))
        replaced = spec.get("replace", {}).get(case["name"], {})
        rules = []
        for rule, cost in (case["expectCost"] or {}).items():
            if rule in dropped:
                continue
            if rule in replaced:
                rule, cost = replaced[rule]["rule"], replaced[rule]["cost"]
            rules.append((rule, cost))
        out.append((case, rules))
    return out


def _stability_params(test: str) -> list[Any]:
    return [pytest.param(case, rules, minor, id=f"1.{minor}:{case['source']['line']}:{case['name']}")
            for tag, spec in PER_RELEASE_STABILITY.items() for minor in spec["releases"][-1:]
            for case, rules in _stability_at(tag, test)]


@pytest.mark.parametrize(("case", "rules", "minor"), _stability_params("TestCelCostStability"))
def test_cel_cost_stability_per_release(case: dict[str, Any], rules: list[tuple[str, int]], minor: int) -> None:
    """TestCelCostStability at the tag of release ``minor`` (exact cost path)."""
    for rule, cost in rules:
        res = run(with_rule(case["schema"], rule), case["obj"], root=True, new=True, release=minor)
        assert [str(e) for e in res.errors] == [], rule
        assert RUNTIME_CEL_COST_BUDGET - res.remaining_budget == cost, rule


@pytest.mark.parametrize(("case", "rules", "minor"), _stability_params("TestCelEstimatedCostStability"))
def test_cel_estimated_cost_stability_per_release(case: dict[str, Any], rules: list[tuple[str, int]],
                                                  minor: int) -> None:
    """TestCelEstimatedCostStability at the tag of release ``minor``: ``MustBaseEnvSet(DefaultCompatibilityVersion())``
    of that release, its ``SchemaDeclType``."""
    from crdtool.core.crdcel.compilation import RuleSource, compile_rules
    from crdtool.core.kubecel.decltype import schema_decl_type
    from crdtool.core.kubecel.environment import release_env_set
    from crdtool.core.releases import RELEASES

    for rule, cost in rules:
        s = with_rule(case["schema"], rule)
        decl = schema_decl_type(new_structural(s), False, minor)
        assert decl is not None
        (result,) = compile_rules([RuleSource.of(r) for r in s["x-kubernetes-validations"]], decl,
                                  release_env_set(RELEASES[minor]))
        assert result.error is None, (rule, result.error)
        if cost > 0:
            assert result.max_cost == cost, rule
