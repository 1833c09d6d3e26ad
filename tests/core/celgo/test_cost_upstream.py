"""cel-go checker/cost_test.go ``TestCost``, every case, through crdtool's cost estimator port.

Data: tests/core/cel_upstream/cost_celgo.yaml (harness in its README):
standard library plus ``max(list(bytes)) -> bytes``, the proto3 test
messages, no cross-type numeric comparisons, the test's size-hint estimator.
Expected ``[min, max]`` estimates are upstream's.
"""

from __future__ import annotations

from typing import Any

import pytest

from crdtool.core.celgo import types as T
from crdtool.core.celgo.checker import check
from crdtool.core.celgo.cost import estimate_cost
from crdtool.core.celgo.decls import FunctionDecl, OverloadDecl, functions
from crdtool.core.celgo.parser import ParserOptions, parse
from tests.core.celgo.upstream import TEST_OVERLOAD_ESTIMATORS, CelGoCostEstimator, ProtoProvider, case_id, load

CASES = load("cost_celgo.yaml")["cases"]
_PROVIDER = ProtoProvider(("proto3pb/test_all_types.proto",))


def _functions() -> dict[str, FunctionDecl]:
    out = dict(functions(("stdlib",)))
    lb = T.list_of(T.BYTES)
    out["max"] = FunctionDecl("max", (OverloadDecl("list_bytes_max", True, (lb,), T.BYTES, ()),))
    return out


@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])
def test_cost(case: dict[str, Any]) -> None:
    parsed = parse(case["expr"], ParserOptions(enable_optional_syntax=False, extended_macros=False, all_macros=True))
    assert parsed.expr is not None, parsed.error_text()
    variables = {name: T.parse_type(t) for name, t in (case.get("vars") or {}).items()}
    checked = check(parsed.expr, parsed.info, variables, _PROVIDER, cross_type_numeric_comparisons=False,
                    function_decls=_functions())
    assert not checked.issues, [i.message for i in checked.issues]
    opts = case.get("options") or {}
    overloads = {oid: TEST_OVERLOAD_ESTIMATORS[name] for oid, name in (opts.get("overload_cost_estimates") or {}).items()}
    est = estimate_cost(
        checked,
        CelGoCostEstimator({k: int(v) for k, v in (case.get("hints") or {}).items()}),
        presence_test_has_cost=opts.get("presence_test_has_cost", True),
        overload_estimators=overloads,
    )
    assert [est.min, est.max] == case["wanted"]
