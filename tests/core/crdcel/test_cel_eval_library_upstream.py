"""Kubernetes CEL libraries evaluated by crdtool's cel-go port, against k8s.io/apiserver v0.36.3 tests.

- ``pkg/cel/library/{cidr,ip,quantity,semver,format}_test.go`` (TestCIDR, TestIP,
  TestQuantity, TestSemver, TestFormat): data tests/core/cel_upstream/eval_k8s_library.yaml,
  dumped by Go (README.md, section ``eval_k8s_library.yaml``). Each harness
  (``testCIDR``/``testIP``/``testQuantity``/``testSemver``) compiles in its own
  ``cel.NewEnv`` (libraries in ``harness_environments``), evaluates with
  ``env.Program(compiled)`` (no OptOptimize) and checks compile errors (regexps,
  every error matched), the runtime error (cidr/ip: equal; quantity/semver:
  ``regexp.MatchString``) or ``res.Equal(expect) == true``.
- ``pkg/cel/library/cost_test.go``: the *runtime* costs of every ``testCost``
  call (tests/core/cel_upstream/cost_k8s_library.yaml; the estimated costs are
  checked in tests/core/celgo/test_library_cost_upstream.py).
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from crdtool.core.celgo.env import Environment, compile_expression
from crdtool.core.kubecel.environment import kubernetes_environment, runtime
from crdtool.core.celgo.parser import ParserOptions
from crdtool.core.kubecel import library as K
from crdtool.core.celgo import values as V
from crdtool.core.celgo.interpreter import PlanError, plan_program
from tests.core.celgo.upstream import load

DOC = load("eval_k8s_library.yaml")
TESTS = DOC["upstream"]["tests"]

# the harness environments (cel.NewEnv: stdlib, no cross-type numeric comparisons, no AST validators)
HARNESS_LIBRARIES = {
    "cidr": ("stdlib", "k8s.ip", "k8s.cidr"),
    "ip": ("stdlib", "k8s.ip", "k8s.cidr"),
    # ext.Strings() is the latest strings version upstream; no case calls a strings function (checked below), so
    # version 2 (the one crdtool has, as the Kubernetes environment) stands in for it.
    "quantity": ("stdlib", "optional", "ext.strings.v2", "k8s.urls", "k8s.regex", "k8s.lists", "k8s.quantity",
                 "k8s.format"),
    # SemverLib(SemverVersion(v)): v0 cases run with version 1, which only adds the (string, bool) overloads
    "semver": ("stdlib", "k8s.semver"),
}
_ISSUE = re.compile(r"^ERROR: <input>:\d+:\d+: (.*)$")


def _env(harness: str) -> Environment:
    libs = HARNESS_LIBRARIES[harness]
    return kubernetes_environment(libraries=libs, cross_type_numeric_comparisons=False, validators=(),
                       parser_options=ParserOptions(enable_optional_syntax="optional" in libs))


def expected_value(x: Any) -> Any:
    """The CEL value a recorded ``expectResult`` denotes (built from the text the Go test built it from)."""
    if isinstance(x, list):
        return V.BaseList([expected_value(e) for e in x])
    if not isinstance(x, dict):
        return x
    kind, v = x["$cel"], x["v"]
    if kind == "optional":
        return V.OPTIONAL_NONE if v is None else V.Optional(expected_value(v[0]))
    if kind == "double":
        return float(v)
    if kind == "net.IP":
        return K.IP(K._parse_ip_addr(v))  # type: ignore[arg-type]
    if kind == "net.CIDR":
        return K.CIDR(K._parse_cidr(v))  # type: ignore[arg-type]
    if kind == "kubernetes.Quantity":
        return K.parse_quantity(v)
    if kind == "kubernetes.Semver":
        return K.parse_semver(v)
    raise AssertionError(kind)


def _cases() -> list[dict[str, Any]]:
    return [c for t in TESTS for c in DOC[t]]


CASES = _cases()


def test_case_counts() -> None:
    assert {t: len(DOC[t]) for t in TESTS} == {"TestCIDR": 32, "TestIP": 38, "TestQuantity": 33, "TestSemver": 33,
                                               "TestFormat": 213}
    # the stand-in for ext.Strings() (latest) is exact only if no case calls a strings-library function
    strings_fns = ("charAt", "indexOf", "lastIndexOf", "lowerAscii", "upperAscii", "replace", "split", "substring",
                   "trim", "join", "quote", "reverse", "format(")
    assert not [c["expr"] for c in CASES if c["harness"] == "quantity" and any(f".{f}" in c["expr"]
                                                                                 for f in strings_fns)]
    assert {c.get("version", 0) for c in DOC["TestSemver"]} == {0, 1}
    assert not [c for c in DOC["TestSemver"] if c.get("version", 0) == 0 and c["compile_errs"]
                and ", true" in c["expr"]]


@pytest.mark.parametrize("case", CASES, ids=[f"{c['source']['test']}:{c['source']['line']}:{c['source']['case']}"
                                             for c in CASES])
def test_library(case: dict[str, Any]) -> None:
    env = _env(case["harness"])
    compiled = compile_expression(case["expr"], {}, env=env)
    if case["compile_errs"]:
        assert compiled.checked is None
        messages = [m.group(1) for line in compiled.error.split("\n") if (m := _ISSUE.match(line))]
        matched: set[int] = set()
        for pat in case["compile_errs"]:
            hits = {i for i, msg in enumerate(messages) if re.search(pat, msg)}
            assert hits, f"expected compile error {pat!r}; got {messages}"
            matched |= hits
        assert matched == set(range(len(messages))), messages
        return
    assert compiled.checked is not None, compiled.error
    try:
        # env.Program(compiled): no OptOptimize, no cost tracking
        prog = plan_program(compiled.checked, runtime(env.libraries), optimize=False, presence_test_has_cost=True,
                            cost_tracking=False)
    except PlanError as exc:  # env.Program failed: t.Fatalf in every harness
        raise AssertionError(f"program creation failed: {exc}") from exc
    res = prog.eval({})
    if case["runtime_err"]:
        assert type(res) is V.Err, f"no runtime error thrown; got {res!r}"
        if case["harness"] in ("cidr", "ip"):
            assert res.msg == case["runtime_err"]
        else:
            assert re.search(case["runtime_err"], res.msg), res.msg
        return
    assert type(res) is not V.Err, res.msg
    assert case["expect"] is not None
    assert V.equal(res, expected_value(case["expect"])) is True, (res, case["expect"])


# --- cost_test.go runtime costs ---------------------------------------------------------------------------

COST = load("cost_k8s_library.yaml")
COST_LIBRARIES = (
    "stdlib", "ext.strings.v2", "k8s.urls", "k8s.regex", "k8s.lists", "k8s.authz", "k8s.authz_selectors",
    "k8s.quantity", "ext.sets", "k8s.ip", "k8s.cidr", "k8s.format", "k8s.jsonpatch", "optional",
    "ext.two_var_comprehensions", "k8s.semver",
)
COST_ENV = kubernetes_environment(libraries=COST_LIBRARIES, cross_type_numeric_comparisons=False, validators=("string_format",),
                       parser_options=ParserOptions(extended_macros=True))


def uses_authorizer(case: dict[str, Any]) -> bool:
    """Filter ``authorizer``: the case evaluates the ``authorizer`` variable (an always-allow authorizer upstream).
    The CRD environment never binds ``authorizer``, and crdtool has no runtime for the authz library."""
    return "authorizer" in case["expr"]


COST_CASES = [c for c in COST["cases"] if not uses_authorizer(c)]


def test_runtime_cost_filter_count() -> None:
    filtered = [c for c in COST["cases"] if uses_authorizer(c)]
    assert len(COST["cases"]) == 216 and len(filtered) == 9
    assert {c["test"] for c in filtered} == {"TestAuthzLibrary"}


@pytest.mark.parametrize("case", COST_CASES, ids=[f"{c['test']}:{c['source']['line']}:{c['expr'][:60]}"
                                                  for c in COST_CASES])
def test_runtime_cost(case: dict[str, Any]) -> None:
    """``env.Program(compiled, cel.CostTracking(est))``: no OptOptimize; presence tests cost 1 at run time."""
    from crdtool.core.celgo import types as T

    compiled = compile_expression(case["expr"], {"authorizer": T.parse_type("kubernetes.authorization.Authorizer")},
                                  env=COST_ENV)
    assert compiled.checked is not None, compiled.error
    prog = plan_program(compiled.checked, runtime(COST_LIBRARIES), optimize=False, presence_test_has_cost=True)
    val, cost, cancelled = prog.eval_with_cost({}, None)
    assert not cancelled and type(val) is not V.Err, val
    assert cost == case["runtime"]
