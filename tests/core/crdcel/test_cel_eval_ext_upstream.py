"""cel-go v0.26.0 ``ext`` library tests, run in the Kubernetes environment.

Data: tests/core/cel_upstream/eval_celgo_ext.yaml (README.md, section
``eval_celgo_ext.yaml``): every case of TestLists, TestListsRuntimeErrors,
TestListsCosts, TestSets, TestStrings, TestTwoVarComprehensions,
TestTwoVarComprehensionsCost, TestTwoVarComprehensionsStaticErrors and
TestTwoVarComprehensionsRuntimeErrors, dumped by Go, each with what cel-go
itself gives for the expression in the Kubernetes CEL environment
(``kubernetes_env``: compile issues, or the value / runtime error and the actual
cost with ``OptOptimize``; ``kubernetes_env_unoptimized_cost``: the cost without
``OptOptimize``, presence tests costing 1, as the ext tests' own programs run).

The upstream tests run in their own environments (latest ``ext.Strings``,
``ext.Bindings``, proto containers, no homogeneous-literal check, ...); where
the Kubernetes environment gives the same outcome as the test expects, the
test's own assertion is checked as well (``test_test_expectation``). Every case
runs in ``test_kubernetes_env``; none is skipped.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from crdtool.core.celgo import types as T
from crdtool.core.celgo.env import compile_expression
from crdtool.core.kubecel.environment import KUBERNETES, runtime
from crdtool.core.celgo import values as V
from crdtool.core.celgo.interpreter import PlanError, plan_program
from tests.core.celgo.upstream import load

DOC = load("eval_celgo_ext.yaml")
TESTS = DOC["upstream"]["tests"]
CASES = [c for t in TESTS for c in DOC[t]]


def ids(cases: list[dict[str, Any]]) -> list[str]:
    return [f"{c['source']['test']}:{c['source']['line']}:{c['source']['case']}" for c in cases]


def go_data(x: Any) -> Any:
    """The Go value of the case's ``in`` (``[]int64``, ``map[string]int``, ``[]any`` ...) as JSON-like data."""
    if isinstance(x, dict):
        if x.get("$cel") == "go:int":
            return x["v"]
        if x.get("$cel") == "map":
            return {go_data(k): go_data(v) for k, v in x["v"]}
        raise AssertionError(x)
    if isinstance(x, list):
        return [go_data(e) for e in x]
    return x


def to_cel(x: Any) -> Any:
    """``types.DefaultTypeAdapter.NativeToValue``: ``map[string]any``/``[]any`` adapted lazily, a Go map with
    other keys (``map[int]int``) as a map of CEL values."""
    if isinstance(x, dict) and not all(type(k) is str for k in x):
        return V.BaseMap.of([(k, to_cel(v)) for k, v in x.items()])
    return V.adapt_native(x)


def run(case: dict[str, Any], *, optimize: bool = True) -> tuple[str, Any, int]:
    """(``issues``/``plan_error``/``error``/``value``, detail, cost) of the expression in crdtool's Kubernetes env."""
    variables = {k: T.parse_type(t) for k, t in (case.get("vars") or {}).items()}
    compiled = compile_expression(case["expr"], variables, env=KUBERNETES)
    if compiled.checked is None:
        return "issues", compiled.error, 0
    try:
        prog = plan_program(compiled.checked, runtime(KUBERNETES.libraries), optimize=optimize,
                            presence_test_has_cost=not optimize)
    except PlanError as exc:
        return "plan_error", str(exc), 0
    act = {k: to_cel(v) for k, v in (go_data(case.get("in")) or {}).items()}
    val, cost, cancelled = prog.eval_with_cost(act, None)
    assert not cancelled
    if type(val) is V.Err:
        return "error", val.msg, cost
    return "value", val, cost


@pytest.mark.parametrize("case", CASES, ids=ids(CASES))
def test_kubernetes_env(case: dict[str, Any]) -> None:
    want = case["kubernetes_env"]
    kind, detail, cost = run(case)
    if "issues" in want:
        assert kind == "issues"
        assert detail == want["issues"]
        return
    if "plan_error" in want:
        assert (kind, detail) == ("plan_error", want["plan_error"])
        return
    if "error" in want:
        assert (kind, detail) == ("error", want["error"])
    else:
        assert kind == "value", detail
        assert type(detail) is type(want["value"]) and detail == want["value"]
    assert cost == want["cost"]
    _, _, plain_cost = run(case, optimize=False)
    assert plain_cost == case["kubernetes_env_unoptimized_cost"]


def expectation_holds(case: dict[str, Any], outcome: dict[str, Any]) -> bool:
    """The test's own assertion on an outcome: compile error containing ``err`` (static-error tests), runtime
    error containing ``err``, or the value true."""
    err = case.get("err")
    if case["source"]["test"] == "TestTwoVarComprehensionsStaticErrors":
        return "issues" in outcome and err in outcome["issues"]
    if err:
        return "error" in outcome and err in outcome["error"]
    return outcome.get("value") is True


def kubernetes_env_differs(case: dict[str, Any]) -> bool:
    """Filter ``kubernetes-env-differs``: in the Kubernetes environment (cel-go's own result, recorded) the case
    does not behave as its test's environment does (it fails to compile there: a function of a later ext.Strings
    version, ``cel.bind``, mixed-type list literals, ...; or a parse-only case), so the test's assertion does not
    apply; ``test_kubernetes_env`` still compares crdtool with cel-go on it."""
    return case.get("parseOnly", False) or not expectation_holds(case, case["kubernetes_env"])


APPLICABLE = [c for c in CASES if not kubernetes_env_differs(c)]


def cost_env_differs(case: dict[str, Any]) -> bool:
    """Filter ``cost-env-differs``: the test's ``actualCost`` (its own environment, no Kubernetes CostEstimator) is
    not what cel-go measures for the expression in the Kubernetes environment without OptOptimize; the Kubernetes
    figure is compared in ``test_kubernetes_env`` instead."""
    return "actualCost" in case and case["actualCost"] != case["kubernetes_env_unoptimized_cost"]


def test_filter_counts() -> None:
    counts = {t: (len(DOC[t]), sum(1 for c in DOC[t] if not kubernetes_env_differs(c))) for t in TESTS}
    assert counts == {
        "TestLists": (42, 33), "TestListsRuntimeErrors": (4, 3), "TestListsCosts": (25, 20), "TestSets": (44, 25),
        "TestStrings": (127, 94), "TestTwoVarComprehensions": (35, 26), "TestTwoVarComprehensionsCost": (16, 15),
        "TestTwoVarComprehensionsStaticErrors": (22, 22), "TestTwoVarComprehensionsRuntimeErrors": (2, 1),
    }
    assert [c["source"]["case"] for c in APPLICABLE if cost_env_differs(c)] == ["list_sortBy_var"]


@pytest.mark.parametrize("case", APPLICABLE, ids=ids(APPLICABLE))
def test_test_expectation(case: dict[str, Any]) -> None:
    kind, detail, cost = run(case)
    outcome = {kind: detail}
    assert expectation_holds(case, outcome), outcome
    if "actualCost" in case and kind == "value" and not cost_env_differs(case):
        # the test's own programs: no OptOptimize, presence tests cost 1
        _, _, plain_cost = run(case, optimize=False)
        assert plain_cost == case["actualCost"]


def test_issue_texts_are_kubernetes_displays() -> None:
    """The recorded issues are ``iss.Err().Error()`` texts: one ``ERROR: <input>:line:col: msg`` block each."""
    for c in CASES:
        if "issues" in c["kubernetes_env"]:
            assert re.match(r"ERROR: <input>:\d+:\d+: ", c["kubernetes_env"]["issues"]), c["expr"]


# --- golang.org/x/text v0.33.0 number formatting (string.format's %e and %f) ------------------------------

XTEXT = load("eval_xtext_format.yaml")["printer_outputs"]


def test_xtext_number_formatting() -> None:
    """``message.NewPrinter(en-US).Sprintf("%We", f)`` (cel-go's ``%e`` clause passes its precision as a width)
    and ``Sprintf("%.Nf", f)``, as golang.org/x/text v0.33.0 prints them (Kubernetes v0.36's version)."""
    from crdtool.core.celgo.functions import localized_fixed, localized_scientific

    assert len(XTEXT) == 23 and sum(len(c["outputs"]) for c in XTEXT) == 598
    for c in XTEXT:
        f = float(c["value"])
        for fmt, want in c["outputs"].items():
            n = int(fmt[1:-1].lstrip("."))
            got = localized_scientific(f, n) if fmt.endswith("e") else localized_fixed(f, n)
            assert got == want, (c["value"], fmt)
