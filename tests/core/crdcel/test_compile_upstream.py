"""apiextensions-apiserver pkg/apiserver/schema/cel/compilation_test.go: ``TestCelCompilation`` and ``TestCostEstimation``.

Data: tests/core/cel_upstream/compile_k8s.yaml (harness in its README).
``Compile(schema, SchemaDeclType(schema, false), PerCallLimit, env, loader)``
on the root's rules; every matcher and every exact cost is upstream's.
"""

from __future__ import annotations

from typing import Any

import pytest

from crdtool.core.celgo import types as T
from crdtool.core.celgo.decls import FunctionDecl, OverloadDecl
from crdtool.core.celgo.env import Environment
from crdtool.core.kubecel.environment import KUBERNETES, kubernetes_environment
from crdtool.core.crdcel.compilation import RuleSource, compile_rules
from crdtool.core.kubecel.decltype import schema_decl_type
from crdtool.core.schema.structural import new_structural
from tests.core.celgo.upstream import case_id, load

DOC = load("compile_k8s.yaml")

#: TestCelCompilation's stored-expressions environment: ``fakeFunction(string) -> string`` at 1.999.
STORED = kubernetes_environment(
    extra_functions=(FunctionDecl("fakeFunction", (OverloadDecl("fakeFunction", False, (T.STRING,), T.STRING, ()),)),)
)


def _compile(schema: dict[str, Any], env: Environment = KUBERNETES) -> list[Any]:
    ss = new_structural(schema)
    decl = schema_decl_type(ss, False)
    assert decl is not None
    rules = [RuleSource.of(r) for r in schema.get("x-kubernetes-validations") or []]
    return compile_rules(rules, decl, env)


COMPILATION = DOC["compilation_cases"]


@pytest.mark.parametrize("case", COMPILATION, ids=[case_id(c) for c in COMPILATION])
def test_cel_compilation(case: dict[str, Any]) -> None:
    env = STORED if case["env_loader"] == "StoredExpressionsEnvLoader" else KUBERNETES
    results = _compile(case["schema"], env)
    assert len(results) == len(case["expected_results"])
    for result, matchers in zip(results, case["expected_results"]):
        for m in matchers:
            if m.get("no_error"):
                assert result.error is None, result.error
            if "error" in m:
                assert result.error is not None and m["error"]["type"] == "RuleInvalid" == "Rule" + result.error[0]
                assert m["error"]["contains"] in result.error[1]
            if "message_expression_error" in m:
                err = result.message_expression_error
                want = m["message_expression_error"]
                assert err is not None and want["type"] == "Rule" + err[0] and want["contains"] in err[1]
            if "transition_rule" in m:
                assert result.uses_old_self is m["transition_rule"]
            if m.get("program_is_nil"):
                assert result.empty


ESTIMATION = DOC["cost_estimation_cases"]


@pytest.mark.parametrize("case", ESTIMATION, ids=[case_id(c) for c in ESTIMATION])
@pytest.mark.parametrize("variant", ["calc_max_length", "set_max_length"])
def test_cost_estimation(case: dict[str, Any], variant: str) -> None:
    spec = case[variant]
    [result] = _compile(spec["schema"])
    assert result.error is None, result.error
    if spec.get("expected_max_cost"):
        assert result.max_cost == spec["expected_max_cost"]
    if spec.get("expected_max_cost_at_least"):
        assert result.max_cost >= spec["expected_max_cost_at_least"]


# --- per release (compile_k8s_per_release.yaml) ----------------------------------------------------------------

PER_RELEASE = load("compile_k8s_per_release.yaml")["cases"]


def _per_release_params() -> list[Any]:
    return [pytest.param(c, m, e, id=f"1.{m}:{c['source']['test']}:{c['source']['case']}")
            for c in PER_RELEASE for e in c["expect"] for m in e["releases"]]


@pytest.mark.parametrize(("case", "minor", "expect"), _per_release_params())
def test_per_release(case: dict[str, Any], minor: int, expect: dict[str, Any]) -> None:
    """``Compile`` in release ``minor``'s ``MustBaseEnvSet(DefaultCompatibilityVersion())``, with that release's
    ``SchemaDeclType``."""
    from crdtool.core.kubecel.environment import release_env_set
    from crdtool.core.releases import RELEASES

    env_set = release_env_set(RELEASES[minor])
    env = env_set.stored if case["env_loader"] == "StoredExpressionsEnvLoader" else env_set.new
    ss = new_structural(case["schema"])
    decl = schema_decl_type(ss, case["is_resource_root"], minor)
    assert decl is not None
    results = compile_rules([RuleSource.of(r) for r in case["schema"]["x-kubernetes-validations"]], decl, env)
    if "results" in expect:
        assert len(results) == len(expect["results"])
        for result, matchers in zip(results, expect["results"]):
            for m in matchers:
                if m.get("no_error"):
                    assert result.error is None, result.error
                if "error" in m:
                    assert result.error is not None and m["error"]["type"] == "Rule" + result.error[0]
                    assert m["error"]["contains"] in result.error[1], result.error[1]
        return
    [result] = results
    assert result.error is None, result.error
    if "max_cost" in expect:
        assert result.max_cost == expect["max_cost"]
    if "max_cost_at_most" in expect:
        assert 0 < result.max_cost <= expect["max_cost_at_most"], result.max_cost
