"""k8s.io/apiserver pkg/cel/library/cost_test.go: estimated costs of every ``testCost`` call and ``TestSize``.

Data: tests/core/cel_upstream/cost_k8s_library.yaml (harness in its README):
``cel.NewEnv`` with the libraries the test lists (not the CRD environment:
no cross-type numeric comparisons, no literal validators), an
``authorizer`` variable, ``library.CostEstimator`` over a size estimator
giving strings and bytes ``[0, 12]``. Expected estimates are upstream's.

The runtime costs the same table lists are the evaluator's business
(cel-go's cost tracker); they are not compared here.
"""

from __future__ import annotations

from typing import Any

import pytest

from crdtool.core.celgo import types as T
from crdtool.core.celgo.cost import AstNode, SizeEstimate, estimate_cost, library_estimators
from crdtool.core.celgo.env import compile_expression
from crdtool.core.kubecel.environment import kubernetes_environment
from crdtool.core.kubecel.library_cost import LibraryCostEstimator
from crdtool.core.celgo.parser import ParserOptions
from tests.core.celgo.upstream import K8sLibraryTestSizeEstimator, case_id, load

DOC = load("cost_k8s_library.yaml")
CASES = DOC["cases"]
LIBRARIES = (
    "stdlib", "ext.strings.v2", "k8s.urls", "k8s.regex", "k8s.lists", "k8s.authz", "k8s.authz_selectors",
    "k8s.quantity", "ext.sets", "k8s.ip", "k8s.cidr", "k8s.format", "k8s.jsonpatch", "optional",
    "ext.two_var_comprehensions", "k8s.semver",
)
ENV = kubernetes_environment(
    libraries=LIBRARIES,
    cross_type_numeric_comparisons=False,
    validators=("string_format",),
    parser_options=ParserOptions(extended_macros=True),
)
VARIABLES = {"authorizer": T.parse_type("kubernetes.authorization.Authorizer")}


def test_environment_is_the_tests() -> None:
    env = DOC["environment"]
    assert env["env_options_in_order"][0] == "ext.Strings(ext.StringsVersion(2))"
    assert len(env["env_options_in_order"]) == 16 and "ext.Lists" not in " ".join(env["env_options_in_order"])
    assert env["vars"] == {"authorizer": "kubernetes.authorization.Authorizer"}


@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])
def test_estimated_cost(case: dict[str, Any]) -> None:
    compiled = compile_expression(case["expr"], VARIABLES, env=ENV)
    assert compiled.checked is not None, compiled.error
    est = estimate_cost(
        compiled.checked,
        LibraryCostEstimator(K8sLibraryTestSizeEstimator()),
        presence_test_has_cost=False,
        overload_estimators=library_estimators(LIBRARIES),
    )
    assert [est.min, est.max] == case["estimated"]


SIZE_CASES = DOC["size_cases"]


@pytest.mark.parametrize("case", SIZE_CASES, ids=[str(c.get("name")) for c in SIZE_CASES])
def test_size(case: dict[str, Any]) -> None:
    def node(size: list[int]) -> AstNode:
        return AstNode(None, T.DYN, None, SizeEstimate(*size))

    est = LibraryCostEstimator(K8sLibraryTestSizeEstimator()).estimate_call_cost(
        case["function"], case.get("overload") or "", node(case["target_size"]), [node(a) for a in case["arg_sizes"]]
    )
    assert est is not None and est.result_size is not None
    assert [est.result_size.min, est.result_size.max] == case["expect_size"]
