"""Comparisons across int, uint and double follow cel-go's ``compare`` semantics, in the pure and compiled builds.

cel-go ``common/types/compare.go`` (the same at every tag Kubernetes 1.30 … 1.37 pins, v0.17.8 … v0.27.0):
``compareDoubleInt``/``compareDoubleUint`` test the double against Go's ``math.MinInt64``/``math.MaxInt64``/
``math.MaxUint64`` converted to float64 (``2**63``, ``2**64``), then compare as doubles (``Double(i)``);
``Double.Compare``/``Int.Compare``/``Uint.Compare`` (``double.go``, ``int.go``, ``uint.go``) refuse NaN with
``NaN values cannot be ordered``; ``Equal`` is false for NaN. Python compares a float with an int exactly, which
made ``dyn(9223372036854775808.0) > 9223372036854775807`` true in the pure-Python build (cel-go: false).

:data:`CEL_SPEC` is every cross-numeric case of cel-spec ``tests/simple/testdata/comparisons.textproto`` at
v0.25.1 (``cel.dev/expr``, the version cel-go v0.27.0's ``go.mod`` pins): (name, expression, value). The compiled
build runs the same table in tests/test_compiled.py (``test_numeric_comparisons_compiled_and_pure_agree``).
"""

from __future__ import annotations

import math
from typing import Any

import pytest

from crdtool.core.celgo import values as V
from crdtool.core.celgo.env import Environment, compile_expression
from crdtool.core.celgo.functions import runtime
from crdtool.core.celgo.interpreter import plan_program

#: cel-spec tests/simple/testdata/comparisons.textproto@v0.25.1: the cases comparing two numeric types (all but
#: ``ne_mixed_types``, ``2u != 2`` with ``disable_check``: the checker refuses it; tests/corpus/test_cel_spec.py runs
#: it unchecked).
CEL_SPEC: tuple[tuple[str, str, bool], ...] = (
    ('eq_int_uint', 'dyn(1) == 1u', True),
    ('not_eq_int_uint', 'dyn(2) == 1u', False),
    ('eq_int_double', 'dyn(1) == 1.0', True),
    ('not_eq_int_double', 'dyn(2) == 1.0', False),
    ('eq_uint_int', 'dyn(1u) == 1', True),
    ('not_eq_uint_int', 'dyn(2u) == 1', False),
    ('eq_uint_double', 'dyn(1u) == 1.0', True),
    ('not_eq_uint_double', 'dyn(2u) == 1.0', False),
    ('not_eq_int_double_nan', 'dyn(1) == 0.0/0.0', False),
    ('not_eq_uint_double_nan', 'dyn(1u) == 0.0/0.0', False),
    ('eq_double_int', 'dyn(1.0) == 1', True),
    ('not_eq_double_int', 'dyn(2.0) == 1', False),
    ('eq_double_uint', 'dyn(1.0) == 1u', True),
    ('not_eq_double_uint', 'dyn(2.0) == 1u', False),
    ('eq_dyn_int_uint', 'dyn(1) == 1u', True),
    ('eq_dyn_int_double', 'dyn(1) == 1.0', True),
    ('eq_dyn_uint_int', 'dyn(1u) == 1', True),
    ('eq_dyn_uint_double', 'dyn(1u) == 1.0', True),
    ('eq_dyn_double_int', 'dyn(1.0) == 1', True),
    ('eq_dyn_double_uint', 'dyn(1.0) == 1u', True),
    ('not_eq_dyn_int_uint', 'dyn(1) == 2u', False),
    ('not_eq_dyn_int_double', 'dyn(1) == 2.0', False),
    ('not_eq_dyn_uint_int', 'dyn(1u) == 2', False),
    ('not_eq_dyn_uint_double', 'dyn(1u) == 120', False),
    ('not_eq_dyn_double_int', 'dyn(1.0) == 2', False),
    ('not_eq_dyn_double_uint', 'dyn(1.0) == 2u', False),
    ('ne_int_double', 'dyn(24) != 24.1', True),
    ('not_ne_int_double', 'dyn(1) != 1.0', False),
    ('ne_int_uint', 'dyn(24) != 42u', True),
    ('not_ne_int_uint', 'dyn(1) != 1u', False),
    ('ne_uint_double', 'dyn(1u) != 2.0', True),
    ('not_ne_uint_double', 'dyn(99u) != 99.0', False),
    ('not_ne_int_double_nan', 'dyn(1) != 0.0/0.0', True),
    ('not_ne_uint_double_nan', 'dyn(1u) != 0.0/0.0', True),
    ('ne_double_int', 'dyn(9000) != 9001.0', True),
    ('not_ne_double_int', 'dyn(1) != 1e+0', False),
    ('ne_double_uint', 'dyn(9000u) != 9001.0', True),
    ('not_ne_double_uint', 'dyn(1u) != 1e+0', False),
    ('lt_dyn_int_uint', 'dyn(1) < 2u', True),
    ('lt_dyn_int_double', 'dyn(1) < 2.0', True),
    ('lt_dyn_uint_int', 'dyn(1u) < 2', True),
    ('lt_dyn_uint_double', 'dyn(1u) < 2.0', True),
    ('lt_dyn_double_int', 'dyn(1.0) < 2', True),
    ('lt_dyn_double_uint', 'dyn(1.0) < 2u', True),
    ('not_lt_dyn_int_uint', 'dyn(1) < 1u', False),
    ('not_lt_dyn_int_double', 'dyn(1) < 1.0', False),
    ('not_lt_dyn_uint_int', 'dyn(1u) < 1', False),
    ('not_lt_dyn_uint_double', 'dyn(1u) < 1.0', False),
    ('not_lt_dyn_double_int', 'dyn(1.0) < 1', False),
    ('not_lt_dyn_double_uint', 'dyn(1.0) < 1u', False),
    ('lt_dyn_int_big_uint', 'dyn(1) < 9223372036854775808u', True),
    ('lt_dyn_small_int_uint', 'dyn(-1) < 0u', True),
    ('not_lt_dyn_int_big_lossy_double', 'dyn(9223372036854775807) < 9223372036854775808.0', False),
    ('lt_dyn_int_big_lossy_double', 'dyn(9223372036854775807) < 9223372036854777857.0', True),
    ('not_lt_dyn_int_small_double', 'dyn(9223372036854775807) < -9223372036854777857.0', False),
    ('not_lt_dyn_int_small_lossy_double', 'dyn(-9223372036854775808) < -9223372036854775809.0', False),
    ('not_lt_dyn_uint_small_int', 'dyn(1u) < -9223372036854775808', False),
    ('not_lt_dyn_big_uint_int', 'dyn(9223372036854775808u) < 1', False),
    ('not_lt_dyn_uint_small_double', 'dyn(18446744073709551615u) < -1.0', False),
    ('lt_dyn_uint_big_double', 'dyn(18446744073709551615u) < 18446744073709590000.0', True),
    ('not_lt_dyn_big_double_uint', 'dyn(18446744073709553665.0) < 18446744073709551615u', False),
    ('not_lt_dyn_big_double_int', 'dyn(9223372036854775808.0) < 9223372036854775807', False),
    ('not_lt_dyn_small_double_int', 'dyn(-9223372036854775809.0) < -9223372036854775808', False),
    ('not_gt_double', '.99 > 9.9e-1', False),
    ('gt_dyn_int_uint', 'dyn(2) > 1u', True),
    ('gt_dyn_int_double', 'dyn(2) > 1.0', True),
    ('gt_dyn_uint_int', 'dyn(2u) > 1', True),
    ('gt_dyn_uint_double', 'dyn(2u) > 1.0', True),
    ('gt_dyn_double_int', 'dyn(2.0) > 1', True),
    ('gt_dyn_double_uint', 'dyn(2.0) > 1u', True),
    ('not_gt_dyn_int_uint', 'dyn(1) > 1u', False),
    ('not_gt_dyn_int_double', 'dyn(1) > 1.0', False),
    ('not_gt_dyn_uint_int', 'dyn(1u) > 1', False),
    ('not_gt_dyn_uint_double', 'dyn(1u) > 1.0', False),
    ('not_gt_dyn_double_int', 'dyn(1.0) > 1', False),
    ('not_gt_dyn_double_uint', 'dyn(1.0) > 1u', False),
    ('not_gt_dyn_int_big_uint', 'dyn(1) > 9223372036854775808u', False),
    ('not_gt_dyn_small_int_uint', 'dyn(-1) > 0u', False),
    ('not_gt_dyn_int_big_double', 'dyn(9223372036854775807) > 9223372036854775808.0', False),
    ('gt_dyn_int_small_lossy_double_greater', 'dyn(-9223372036854775808) > -9223372036854777857.0', True),
    ('gt_dyn_uint_small_int', 'dyn(1u) > -1', True),
    ('gt_dyn_big_uint_int', 'dyn(9223372036854775808u) > 1', True),
    ('gt_dyn_uint_small_double', 'dyn(9223372036854775807u) > -1.0', True),
    ('not_gt_dyn_uint_big_double', 'dyn(18446744073709551615u) > 18446744073709590000.0', False),
    ('gt_dyn_big_double_uint', 'dyn(18446744073709553665.0) > 18446744073709551615u', True),
    ('not_gt_dyn_big_double_int', 'dyn(9223372036854775808.0) > 9223372036854775807', False),
    ('not_gt_dyn_small_double_int', 'dyn(-9223372036854775809.0) > -9223372036854775808', False),
    ('lte_dyn_int_uint', 'dyn(1) <= 2u', True),
    ('lte_dyn_int_double', 'dyn(1) <= 2.0', True),
    ('lte_dyn_uint_int', 'dyn(1u) <= 2', True),
    ('lte_dyn_uint_double', 'dyn(1u) <= 2.0', True),
    ('lte_dyn_double_int', 'dyn(1.0) <= 2', True),
    ('lte_dyn_double_uint', 'dyn(1.0) <= 2u', True),
    ('not_lte_dyn_int_uint', 'dyn(2) <= 1u', False),
    ('not_lte_dyn_int_double', 'dyn(2) <= 1.0', False),
    ('not_lte_dyn_uint_int', 'dyn(2u) <= 1', False),
    ('not_lte_dyn_uint_double', 'dyn(2u) <= 1.0', False),
    ('not_lte_dyn_double_int', 'dyn(2.0) <= 1', False),
    ('not_lte_dyn_double_uint', 'dyn(2.0) <= 1u', False),
    ('lte_dyn_int_big_uint', 'dyn(1) <= 9223372036854775808u', True),
    ('lte_dyn_small_int_uint', 'dyn(-1) <= 0u', True),
    ('lte_dyn_int_big_double', 'dyn(9223372036854775807) <= 9223372036854775808.0', True),
    ('not_lte_dyn_int_small_lossy_double_less', 'dyn(-9223372036854775808) <= -9223372036854777857.0', False),
    ('not_lte_dyn_uint_small_int', 'dyn(1u) <= -9223372036854775808', False),
    ('not_lte_dyn_big_uint_int', 'dyn(9223372036854775808u) <= 1', False),
    ('not_lte_dyn_uint_small_double', 'dyn(18446744073709551615u) <= -1.0', False),
    ('lte_dyn_uint_big_double', 'dyn(18446744073709551615u) <= 18446744073709590000.0', True),
    ('not_lte_dyn_big_double_uint', 'dyn(18446744073709553665.0) <= 18446744073709551615u', False),
    ('lte_dyn_big_double_int', 'dyn(9223372036854775808.0) <= 9223372036854775807', True),
    ('lte_dyn_small_double_int', 'dyn(-9223372036854775809.0) <= -9223372036854775808', True),
    ('gte_dyn_int_uint', 'dyn(2) >= 1u', True),
    ('gte_dyn_int_double', 'dyn(2) >= 1.0', True),
    ('gte_dyn_uint_int', 'dyn(2u) >= 1', True),
    ('gte_dyn_uint_double', 'dyn(2u) >= 1.0', True),
    ('gte_dyn_double_int', 'dyn(2.0) >= 1', True),
    ('gte_dyn_double_uint', 'dyn(2.0) >= 1u', True),
    ('not_gte_dyn_int_uint', 'dyn(0) >= 1u', False),
    ('not_gte_dyn_int_double', 'dyn(0) >= 1.0', False),
    ('not_gte_dyn_uint_int', 'dyn(0u) >= 1', False),
    ('not_gte_dyn_uint_double', 'dyn(0u) >= 1.0', False),
    ('not_gte_dyn_double_int', 'dyn(0.0) >= 1', False),
    ('not_gte_dyn_double_uint', 'dyn(0.0) >= 1u', False),
    ('not_gte_dyn_int_big_uint', 'dyn(1) >= 9223372036854775808u', False),
    ('not_gte_dyn_small_int_uint', 'dyn(-1) >= 0u', False),
    ('gte_dyn_int_big_lossy_double', 'dyn(9223372036854775807) >= 9223372036854775808.0', True),
    ('not_gte_dyn_int_big_double', 'dyn(9223372036854775807) >= 9223372036854777857.0', False),
    ('gte_dyn_int_small_lossy_double_greater', 'dyn(-9223372036854775808) >= -9223372036854777857.0', True),
    ('gte_dyn_uint_small_int', 'dyn(1u) >= -1', True),
    ('gte_dyn_big_uint_int', 'dyn(9223372036854775808u) >= 1', True),
    ('gte_dyn_uint_small_double', 'dyn(9223372036854775807u) >= -1.0', True),
    ('not_gte_dyn_uint_big_double', 'dyn(18446744073709551615u) >= 18446744073709553665.0', False),
    ('gte_dyn_big_double_uint', 'dyn(18446744073709553665.0) >= 18446744073709551615u', True),
    ('gte_dyn_big_double_int', 'dyn(9223372036854775808.0) >= 9223372036854775807', True),
    ('gte_dyn_small_double_int', 'dyn(-9223372036854775809.0) >= -9223372036854775808', True),
)


def evaluate(expr: str, cel_go: str = "v0.27.0") -> Any:
    """The value of ``expr`` in a standard environment (no variables)."""
    env = Environment(libraries=("stdlib",), cel_go=cel_go)
    compiled = compile_expression(expr, {}, env=env)
    assert compiled.checked is not None, compiled.error
    return plan_program(compiled.checked, runtime(env.libraries, cel_go)).eval({})


@pytest.mark.parametrize(("name", "expr", "want"), CEL_SPEC, ids=[c[0] for c in CEL_SPEC])
def test_cel_spec_cross_numeric_comparisons(name: str, expr: str, want: bool) -> None:
    assert evaluate(expr) is want


def test_table_is_complete() -> None:
    assert len(CEL_SPEC) == 134


U = V.Uint


@pytest.mark.parametrize(
    ("a", "b", "want"),
    [
        # common/types/double_test.go@v0.27.0 TestDoubleCompare
        (42.0, 42.0, 0), (42.0, U(42), 0), (42.0, 42, 0), (-1300.0, 204.0, -1), (-1300.0, U(204), -1),
        (203.9, 204, -1), (1300.0, U((1 << 63)), -1), (204.0, U(205), -1), (204.0, float((1 << 63) - 1) + 1025.0, -1),
        (204.0, -1300.0, 1), (204.0, U(10), 1), (204.1, 204, 1),
        # compare.go: the bounds are float64 (2**63, 2**64), then Double(i) rounds i
        (2.0**63, (1 << 63) - 1, 0), ((1 << 63) - 1, 2.0**63, 0), (2.0**64, U((1 << 64) - 1), 0),
        (U((1 << 64) - 1), 2.0**64, 0), (2.0**63 + 2048, (1 << 63) - 1, 1), (-(2.0**63), -(1 << 63), 0),
        (math.inf, (1 << 63) - 1, 1), (-math.inf, -(1 << 63), -1), (math.inf, U(0), 1), (-0.0, U(0), 0),
        (-1.0, U(0), -1), (-0.0, 0, 0),
    ],
)
def test_compare_as_cel_go(a: Any, b: Any, want: int) -> None:
    assert V.compare(a, b) == want
    assert V.value_equal(a, b) is (want == 0)


@pytest.mark.parametrize("other", [204.0, 204, U(204)])
def test_nan_cannot_be_ordered(other: Any) -> None:
    # double_test.go@v0.27.0 TestDoubleCompare; int.go/uint.go Compare: a NaN operand is an error
    for a, b in ((math.nan, other), (other, math.nan)):
        got = V.compare(a, b)
        assert type(got) is V.Err and got.msg == "NaN values cannot be ordered"
        assert V.value_equal(a, b) is False
