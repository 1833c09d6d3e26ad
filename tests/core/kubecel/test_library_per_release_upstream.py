"""Kubernetes CEL library behaviour that differs between releases 1.30 … 1.37, against upstream's tests at the tags.

Data: tests/core/cel_upstream/k8s_library_per_release.yaml (hand-transcribed; each case names its file, tag and
line). ``cost_cases``: ``cost_test.go testCost`` (estimated cost with ``library.CostEstimator`` over the test's
size estimator, runtime cost of ``env.Program`` without OptOptimize); ``eval_cases``: the library tests' harnesses
(``res.Equal(expect)``); ``environment_cases``: ``environment_test.go TestBaseEnvironment`` (valid / invalid
expressions in ``MustBaseEnvSet(<version>)``'s new or stored environment).
"""

from __future__ import annotations

from typing import Any

import pytest

from crdtool.core.celgo import values as V
from crdtool.core.celgo.cost import estimate_cost, library_estimators
from crdtool.core.celgo.env import compile_expression
from crdtool.core.celgo.interpreter import plan_program
from crdtool.core.celgo.parser import ParserOptions
from crdtool.core.kubecel.environment import base_env_set, kubernetes_environment, runtime
from crdtool.core.kubecel.library_cost import LibraryCostEstimator
from crdtool.core.releases import RELEASES
from tests.core.celgo.upstream import K8sLibraryTestSizeEstimator, load

DOC = load("k8s_library_per_release.yaml")


def _cost_libraries(minor: int) -> tuple[str, ...]:
    """``testCost``'s ``cel.NewEnv`` libraries at the tag of release ``minor`` (``Lists(ListsVersion(1))`` from
    v0.37.0-beta.0)."""
    lists = "k8s.lists.v1" if minor >= 37 else "k8s.lists"
    return ("stdlib", "ext.strings.v2", "k8s.urls", "k8s.regex", lists, "k8s.authz", "k8s.quantity", "ext.sets",
            "k8s.ip", "k8s.cidr", "optional")


def _cost_params() -> list[Any]:
    return [pytest.param(c, m, id=f"1.{m}:{c['source']['test']}:{c['source']['case']}")
            for c in DOC["cost_cases"] for m in c["releases"]]


@pytest.mark.parametrize(("case", "minor"), _cost_params())
def test_cost(case: dict[str, Any], minor: int) -> None:
    release = RELEASES[minor]
    libs = _cost_libraries(minor)
    env = kubernetes_environment(libraries=libs, cross_type_numeric_comparisons=False, validators=("string_format",),
                                 parser_options=ParserOptions(extended_macros=True), cel_go=release.cel_go,
                                 release=release)
    compiled = compile_expression(case["expr"], {}, env=env)
    assert compiled.checked is not None, compiled.error
    est = estimate_cost(compiled.checked, LibraryCostEstimator(K8sLibraryTestSizeEstimator(), minor),
                        presence_test_has_cost=False, overload_estimators=library_estimators(libs))
    assert [est.min, est.max] == case["estimated"]
    prog = plan_program(compiled.checked, runtime(libs, release), optimize=False, presence_test_has_cost=True)
    val, cost, cancelled = prog.eval_with_cost({}, None)
    assert not cancelled and type(val) is not V.Err, val
    assert cost == case["runtime"]


_HARNESS_LIBRARIES = {
    "cidr": ("stdlib", "k8s.ip", "k8s.cidr"),
    "quantity": ("stdlib", "optional", "ext.strings.v2", "k8s.urls", "k8s.regex", "k8s.lists", "k8s.quantity"),
}


def _eval_params() -> list[Any]:
    return [pytest.param(c, m, e, id=f"1.{m}:{c['source']['test']}:{c['source']['case']}")
            for c in DOC["eval_cases"] for e in c["expect"] for m in e["releases"]]


@pytest.mark.parametrize(("case", "minor", "expect"), _eval_params())
def test_eval(case: dict[str, Any], minor: int, expect: dict[str, Any]) -> None:
    release = RELEASES[minor]
    libs = _HARNESS_LIBRARIES[case["harness"]]
    env = kubernetes_environment(libraries=libs, cross_type_numeric_comparisons=False, validators=(),
                                 parser_options=ParserOptions(enable_optional_syntax="optional" in libs),
                                 cel_go=release.cel_go, release=release)
    compiled = compile_expression(case["expr"], {}, env=env)
    assert compiled.checked is not None, compiled.error
    prog = plan_program(compiled.checked, runtime(libs, release), optimize=False, presence_test_has_cost=True,
                        cost_tracking=False)
    assert prog.eval({}) is expect["value"]


def _env_params() -> list[Any]:
    return [pytest.param(c, id=c["source"]["case"]) for c in DOC["environment_cases"]]


@pytest.mark.parametrize("case", _env_params())
def test_environment(case: dict[str, Any]) -> None:
    release = RELEASES[case["release"]]
    compat = None if case["compatibility"] == "default" else case["compatibility"]
    env_set = base_env_set(compat, release=release)
    env = env_set.new if case["env"] == "new" else env_set.stored
    for expr in case.get("valid", ()):
        compiled = compile_expression(expr, {}, env=env)
        assert compiled.checked is not None, compiled.error
    for expr in case.get("invalid", ()):
        compiled = compile_expression(expr, {}, env=env)
        assert compiled.checked is None
        assert "undeclared reference to 'includes'" in compiled.error
