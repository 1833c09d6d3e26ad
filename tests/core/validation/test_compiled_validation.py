"""Differential tests: compiled value validation (schema/compiled_validation.py) against the interpreter.

The compiled path must give exactly what ``validate_value`` and
``validate_list_sets_and_maps`` give, and its yes/no check must be true
exactly when the interpreter reports nothing (it is exact, not merely
conservative). Checked on

* every call the custom-resource test modules make (run again under the
  ``tests.core.differential`` plugin, which repeats each interpreter call
  through the compiled path and each compiled call through the interpreter);
* hypothesis-generated schemas with every keyword the validator knows and
  values of every JSON type, mostly invalid;
* objects the fuzzer generates for corpus CRDs (valid) and mutations of them
  (wrong types, values out of range, unknown or missing fields, duplicates in
  list-type sets and maps).
"""

from __future__ import annotations

import copy
import os
import subprocess
import sys
from pathlib import Path as FsPath
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from crdtool.core.errors import Path
from crdtool.core.validation.compiled_validation import CompiledValidator, compile_value_check
from crdtool.core.validation.value_validation import validate_list_sets_and_maps, validate_value

ROOT = FsPath(__file__).resolve().parents[3]


def assert_same(schema: dict[str, Any], value: Any, paths: tuple[Path | None, ...] = (None, Path("spec"))) -> bool:
    """Both paths agree on ``value``; returns whether it is valid."""
    compiled = CompiledValidator(schema)
    exact: list[Any] = []
    for path in paths:
        exact = validate_value(value, schema, path)
        assert compiled.validate(value, path) == exact
        assert compiled.is_valid(value) == (not exact), [str(e) for e in exact]
    list_path = Path("x")
    assert compiled.validate_list_sets_and_maps(list_path, value) == validate_list_sets_and_maps(list_path, schema, value)
    return not exact


# --- the test suites, under the differential plugin ---------------------------------------------------------

SUITES = [
    "tests/core/validation/test_value_validation.py",
    "tests/core/test_validate_custom_resource_upstream.py",
    "tests/core/test_defaulting.py",
    "tests/core/customresource/test_customresource.py",
    "tests/core/customresource/test_customresource_type_meta.py",
    "tests/core/customresource/test_customresource_prepared.py",
    "tests/core/test_pruning.py",
    "tests/cli/test_validate_crs_cli.py",
]


def test_the_custom_resource_suites_pass_with_every_call_checked_against_the_compiled_path() -> None:
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--tier", "all", "-p", "tests.core.differential",
         *SUITES],
        cwd=ROOT, capture_output=True, text=True, env=env, check=False,
    )
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    summary = next(line for line in proc.stdout.splitlines() if line.startswith("differential checks:"))
    counts = dict(part.rsplit(" ", 1) for part in summary.removeprefix("differential checks: ").split(", "))
    # the suites really went through the checked functions, in both directions
    assert int(counts["validate_value"]) > 500 and int(counts["default"]) > 500
    assert int(counts["validate_list_sets_and_maps"]) > 100 and int(counts["compiled"]) > 1000


# --- hypothesis: schemas and values ----------------------------------------------------------------------

KEYS = st.sampled_from(["a", "b", "c"])
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 3),
    st.sampled_from([2**31, -(2**31) - 1, 2**53 + 1, 2**63, -(2**63) - 1, 10**30]),
    st.floats(allow_nan=False),
    st.sampled_from([1.0, -0.0, 2.5, 1e300, float("inf")]),
    st.text(max_size=4),
    st.sampled_from(["2006-01-02", "not-a-date", "550e8400-e29b-41d4-a716-446655440000", "1.2.3.4", "aGk=", "ab"]),
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(KEYS, inner, max_size=3)),
    max_leaves=12,
)
LEAF = st.fixed_dictionaries(
    {},
    optional={
        "type": st.sampled_from(["string", "integer", "number", "boolean", "object", "array", "null", ""]),
        "nullable": st.booleans(),
        "x-kubernetes-int-or-string": st.booleans(),
        "enum": st.lists(SCALARS, min_size=0, max_size=3),
        "pattern": st.sampled_from(["^a", "b$", "+", "[", r"\d", "^(0|[1-9][0-9]*)$", "é"]),
        "format": st.sampled_from(["date", "uuid", "int32", "int64", "float", "double", "byte", "ipv4", "nope", ""]),
        "maxLength": st.integers(0, 3),
        "minLength": st.integers(0, 2),
        "minimum": st.one_of(st.integers(-2, 2), st.sampled_from([0.5, -1.5, 2**31, 1e40])),
        "maximum": st.one_of(st.integers(-2, 2), st.sampled_from([2.5, 2**31 - 1, 1e40])),
        "exclusiveMinimum": st.booleans(),
        "exclusiveMaximum": st.booleans(),
        "multipleOf": st.sampled_from([0.5, 2, 3, 0, -1]),
        "maxItems": st.integers(0, 2),
        "minItems": st.integers(0, 2),
        "uniqueItems": st.booleans(),
        "minProperties": st.integers(0, 2),
        "maxProperties": st.integers(0, 2),
    },
)


def _children(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.tuples(LEAF, st.fixed_dictionaries(
        {},
        optional={
            "properties": st.dictionaries(KEYS, inner, max_size=3),
            "items": inner,
            "additionalProperties": st.one_of(st.booleans(), inner),
            "anyOf": st.lists(inner, min_size=0, max_size=2),
            "allOf": st.lists(inner, min_size=0, max_size=2),
            "oneOf": st.lists(inner, min_size=0, max_size=2),
            "not": inner,
            "required": st.lists(KEYS, max_size=2),
            "x-kubernetes-list-type": st.sampled_from(["set", "map", "atomic"]),
            "x-kubernetes-list-map-keys": st.lists(KEYS, min_size=1, max_size=2),
        },
    )).map(lambda parts: {**parts[0], **parts[1]})


SCHEMAS = st.recursive(LEAF, _children, max_leaves=8)


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(schema=SCHEMAS, value=VALUES)
def test_random_schemas_and_values(schema: dict[str, Any], value: Any) -> None:
    assert_same(schema, value)


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(schema=SCHEMAS, value=VALUES)
def test_values_wrapped_in_objects_reach_the_nested_schemas(schema: dict[str, Any], value: Any) -> None:
    root = {"type": "object", "properties": {"a": schema, "b": {"type": "array", "items": schema}},
            "additionalProperties": schema}
    assert_same(root, {"a": value, "b": [value, value], "c": value})


@pytest.mark.parametrize(
    "schema, values",
    [
        # an integral float is an integer (the interpreter decides it on the node)
        ({"type": "integer", "maximum": 3}, [1.0, 3.0, 4.0, 1.5, 2**63, -(2**63)]),
        ({"type": "integer", "format": "int32"}, [2**31 - 1, 2**31, -(2**31), -(2**31) - 1, 7.0]),
        # bounds kube-openapi itself refuses for the type
        ({"type": "integer", "minimum": 0.5}, [0, 1, 2]),
        ({"type": "number", "format": "float", "maximum": 1e39}, [1.0, 3.5e38, 1e39]),
        ({"type": "number", "multipleOf": 0.1}, [0.3, 0.25, 3]),
        ({"x-kubernetes-int-or-string": True, "anyOf": [{"type": "integer"}, {"type": "string"}]}, [1, "1", 1.0, 1.5, None]),
        ({"enum": [1, "a", None, [1], {"k": 1}]}, [1, 1.0, True, "a", None, [1], [1.0], {"k": 1}, 97]),
        ({"type": "string", "enum": ["a", "b"]}, ["a", "c", 97]),
        ({"type": "array", "uniqueItems": True}, [[1, 1], [1, 1.0], [1, True], [{"a": 1}, {"a": 1}]]),
        ({"type": "string", "pattern": "["}, ["", "a"]),
        ({"type": "string", "format": "date-time"}, ["2006-01-02T15:04:05Z", "x", ""]),
        ({"oneOf": [{"minimum": 0}, {"maximum": 10}]}, [-1, 5, 11, "x"]),
        ({"not": {"type": "string"}}, ["x", 1]),
        ({"type": "object", "additionalProperties": False, "properties": {"a": True}}, [{"a": 1}, {"b": 1}, {}]),
        ({"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["k"],
          "items": {"type": "object"}},
         [[{"k": 1}, {"k": 1}], [{"k": 1}, {"k": 1.0}], [{"k": "a"}, {}], [1, {"k": 1}], [None, None]]),
        ({"type": "array", "x-kubernetes-list-type": "set"}, [[1, 1], ["a", "a", "a"], [{"a": 1}, {"a": 1}], [[1], [1.0]]]),
    ],
)
def test_values_the_closed_forms_hand_to_the_interpreter(schema: dict[str, Any], values: list[Any]) -> None:
    for value in values:
        assert_same(schema, value)
        assert_same({"type": "object", "properties": {"f": schema}}, {"f": value})


def test_non_json_python_values_go_to_the_interpreter() -> None:
    schema = {"type": "object", "properties": {"a": {"type": "array", "items": {"type": "string"}}, "b": {"type": "string"}}}
    for value in ({"a": ("x", "y")}, {"b": object()}, {"a": ["x", 1]}, {"b": True}):
        assert_same(schema, value)


def test_deep_values_and_schemas() -> None:
    deep_schema: dict[str, Any] = {"type": "string"}
    deep_value: Any = "x"
    for _ in range(400):
        deep_schema = {"type": "object", "properties": {"a": deep_schema}}
        deep_value = {"a": deep_value}
    assert compile_value_check(deep_schema) is not None  # compiled lazily: the depth is met one level at a time
    assert assert_same(deep_schema, deep_value)
    wide: dict[str, Any] = {"type": "array"}
    for _ in range(3000):
        wide = {"type": "array", "items": wide}
    assert compile_value_check(wide) is None  # too deep to compile: the interpreter does it all
    value: Any = []
    for _ in range(50):
        value = [value]
    assert_same(wide, value)


def test_a_schema_shared_by_several_fields_is_compiled_once() -> None:
    shared = {"type": "string", "maxLength": 2}
    schema = {"type": "object", "properties": {"a": shared, "b": shared}, "additionalProperties": shared}
    for value in ({"a": "xy", "b": "z", "c": ""}, {"a": "xyz"}, {"c": "long"}):
        assert_same(schema, value)


# --- corpus CRDs: generated objects and mutations of them --------------------------------------------------


def _mutations(obj: Any) -> list[Any]:
    """Objects that differ from ``obj`` in one place: a wrong type, a null, an unknown field, a duplicate item."""
    out: list[Any] = []
    stack: list[tuple[Any, list[Any]]] = [(obj, [])]
    while stack and len(out) < 25:
        x, where = stack.pop()
        replacements: list[Any] = [None, 1.5, "x", True, -(2**40), {}, []]
        for r in replacements:
            if type(r) is not type(x):
                out.append(_replace(obj, where, r))
                break
        if isinstance(x, dict):
            out.append(_replace(obj, where, {**x, "unknownField": 1}))
            if x:
                first = next(iter(x))
                out.append(_replace(obj, where, {k: v for k, v in x.items() if k != first}))
            stack.extend((v, [*where, k]) for k, v in x.items())
        elif isinstance(x, list):
            if x:
                out.append(_replace(obj, where, [*x, x[0]]))
            stack.extend((v, [*where, i]) for i, v in enumerate(x))
        elif isinstance(x, str):
            out.append(_replace(obj, where, x * 70 + "\u00e9!"))
        elif isinstance(x, int) and not isinstance(x, bool):
            out.extend(_replace(obj, where, v) for v in (x + 1, -x - 1, 2**31))
    return out


def _replace(obj: Any, where: list[Any], value: Any) -> Any:
    if not where:
        return value
    out = copy.deepcopy(obj)
    node = out
    for step in where[:-1]:
        node = node[step]
    node[where[-1]] = value
    return out


