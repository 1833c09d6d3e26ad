"""Numbers as Go's encoding/json writes them and as the apiserver reads them back.

Expected texts are Go's (``encoding/json`` ``floatEncoder``: ``strconv.AppendFloat(f, 'f' | 'e', -1, 64)``,
``e`` below 1e-6 and from 1e21, ``e-07`` trimmed to ``e-7``), and the int/float decision is
``k8s.io/apimachinery/pkg/util/json`` ``convertNumber`` (``Int64()`` of that text, else ``Float64()``).
"""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crdtool.core.gojson import _dumps_iterative, go_json_dumps, go_json_float, go_json_marshal, go_json_size, json_number


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (1.0, "1"), (-1.0, "-1"), (0.0, "0"), (-0.0, "-0"), (0.1, "0.1"), (1.5, "1.5"),
        (1e20, "100000000000000000000"), (1e21, "1e+21"), (1.5e21, "1.5e+21"), (123456789.0, "123456789"),
        (1e-6, "0.000001"), (1e-7, "1e-7"), (1.25e-10, "1.25e-10"), (5e-324, "5e-324"),
        (1.7976931348623157e308, "1.7976931348623157e+308"),
        (-9223372036854775809.0, "-9223372036854776000"), (9.223372036854775e18, "9223372036854775000"),
    ],
)
def test_go_json_float(value: float, text: str) -> None:
    assert go_json_float(value) == text


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (3.0, 3),
        (1e3, 1000),
        (1.5, 1.5),
        # the shortest digits decide, not the exact binary value
        (9.223372036854775e18, 9223372036854775000),
        (-9223372036854775808.0, -9223372036854775808.0),  # written -9223372036854776000: no int64
        (-9223372036854775809.0, -9223372036854775809.0),
        (1e20, 1e20),
        (1e-7, 1e-7),
    ],
)
def test_json_number(value: float, expected: int | float) -> None:
    got = json_number(value)
    assert got == expected and type(got) is type(expected)


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_json_number_is_what_go_text_means(value: float) -> None:
    text = go_json_float(value)
    assert float(text) == value  # shortest digits round-trip
    got = json_number(value)
    if isinstance(got, int):
        assert got == int(text) and -(2**63) <= got < 2**63
    else:
        assert got is value


def test_go_json_dumps_matches_json_dumps_but_for_floats() -> None:
    data = {"a": [1, 2.5, {"b": None, "c": True, "é": "x\"y"}], "d": {}, "e": [], "f": 1e20, "g": 1e-7, "h": 2.0}
    assert go_json_dumps(data) == json.dumps(data, indent=2, ensure_ascii=False).replace(
        "1e+20", "100000000000000000000").replace("1e-07", "1e-7").replace("2.0", "2")
    assert go_json_dumps(data, indent=None) == json.dumps(data, ensure_ascii=False).replace(
        "1e+20", "100000000000000000000").replace("1e-07", "1e-7").replace("2.0", "2")
    assert go_json_dumps({"x": math.inf}) == '{\n  "x": "+Inf"\n}'


def test_go_json_dumps_is_iterative() -> None:
    deep: list[object] = []
    for _ in range(5000):
        deep = [deep]
    text = go_json_dumps(deep, indent=None)
    assert text == "[" * 5001 + "]" * 5001


_LEAVES = (
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=6)
    | st.sampled_from(["<a&b>", "\u2028", "\u2029x", "\ud800", "\b\f\n\x00", "é", "\\u003c"])
)
_JSONISH = st.recursive(
    _LEAVES,
    lambda children: st.lists(children, max_size=4)
    | st.lists(children, max_size=3).map(tuple)
    | st.dictionaries(st.text(max_size=3) | st.sampled_from(["<", "&k", "\u2028"]), children, max_size=4)
    | st.dictionaries(st.integers(0, 3) | st.booleans() | st.none(), children, max_size=2),
    max_leaves=25,
)


@settings(max_examples=400, deadline=None)
@given(_JSONISH)
def test_go_json_size_is_the_length_of_go_json_marshal(value: Any) -> None:
    """The fast size (json.dumps plus Go's escapes and float texts) against the exact path, byte for byte."""
    assert go_json_size(value) == len(go_json_marshal(value).encode("utf-8", "surrogatepass"))


def _floatless(value: Any) -> bool:
    if isinstance(value, float):
        return False
    if isinstance(value, dict):
        return all(not isinstance(k, float) and _floatless(v) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return all(_floatless(v) for v in value)
    return True


@settings(max_examples=400, deadline=None)
@given(_JSONISH, st.sampled_from([None, 2, 4]), st.integers(0, 3))
def test_go_json_dumps_writes_what_its_iterative_path_writes(value: Any, indent: int | None, nesting: int) -> None:
    """The recursive writer against the iterative one it hands deep containers to (the exact path, any depth),
    the value wrapped in 0 to 120 lists so that some cross ``_RECURSIVE_DEPTH``; and, without floats, against
    ``json.dumps``."""
    for _ in range(nesting * 40):
        value = [value]
    newline, pad, sep = ("", "", ", ") if indent is None else ("\n", " " * indent, ",")
    text = go_json_dumps(value, indent)
    assert text == _dumps_iterative(value, newline, pad, sep)
    if _floatless(value):
        assert text == json.dumps(value, indent=indent, ensure_ascii=False)


def test_a_container_past_the_recursive_depth_is_indented_for_its_depth() -> None:
    value: Any = {"k": [1, {"a": "b"}]}
    for _ in range(105):
        value = [value]
    assert go_json_dumps(value) == json.dumps(value, indent=2, ensure_ascii=False)
