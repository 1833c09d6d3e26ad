"""cel-spec's conformance suite (``tests/simple/testdata``, v0.25.1) in Kubernetes 1.37's CEL environment.

The data (tests/corpus/data/cel-spec, its README) is the cel-spec version that cel-go v0.27.0 pins, the cel-go of
Kubernetes 1.37. Each in-scope test runs as cel-go's own harness runs it (``conformance/conformance_test.go``
@v0.27.0 ``conformanceTest``): parse, extend the environment with the test's container and declarations, check
(unless ``disable_check``), for ``check_only`` compare the output type, else evaluate with the bindings and compare
the value (map entries unordered, a NaN equal to a NaN), the typed result, or that evaluation failed
(``eval_error``: any error). The environment is 1.37's stored-expressions environment (every library Kubernetes
1.37 has: the standard library, optionals, ``ext.strings`` v2, sets, two-variable comprehensions, lists v3 and
Kubernetes' own), evaluated by its runtime.

Out of scope, counted by :func:`test_scope` and not run: protobuf messages (a ``cel.expr.conformance`` container,
``TestAllTypes``, ``google.protobuf`` message values or types — Kubernetes gives CEL no protobuf messages) and
function declarations in ``type_env`` (the harness's own functions). What fails and is right for Kubernetes is in
:data:`EXPECTED_FAILURES`, each with its reason; such a test is reported as an xfail when it fails as its
reason says (:data:`SIGNATURES`), and fails when it passes or fails otherwise.
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

import pytest

from crdtool.core.celgo import types as T
from crdtool.core.celgo import values as V
from crdtool.core.celgo.checker import CheckedAst
from crdtool.core.celgo.env import Environment, compile_expression
from crdtool.core.celgo.interpreter import plan_program
from crdtool.core.celgo.parser import parse
from crdtool.core.kubecel.environment import base_environment, runtime_of
from crdtool.core.releases import RELEASES
from tests.corpus.textproto import Message, Str, Word
from tests.corpus.textproto import parse as parse_textproto

DATA = Path(__file__).parent / "data" / "cel-spec"
RELEASE = RELEASES[37]

# Why a test fails in Kubernetes 1.37's environment, rightly (k8s.io/apiserver pkg/cel/environment/base.go
# @v0.37.0-beta.0 is Kubernetes' environment; cel-go conformance/conformance_test.go@v0.27.0 the harness's).
HOMOGENEOUS = ("a list or map literal of mixed element types: Kubernetes' environment has "
               "cel.HomogeneousAggregateLiterals() (base.go), so the checker refuses it")
OPTIMIZE = ("a constant conversion or index that fails is folded when the program is planned: Kubernetes plans with "
            "cel.EvalOptions(cel.OptOptimize) (base.go; interpreter/decorators.go maybeOptimizeConstUnary), so "
            "env.Program fails instead of the evaluation")
LITERALS = ("Kubernetes checks duration and timestamp literals at compile time (cel.ValidateDurationLiterals, "
            "cel.ValidateTimestampLiterals in base.go): the out-of-range literal is a compile error")
ESCAPED = ("a backquoted field name needs cel.EnableIdentifierEscapeSyntax(), a harness option Kubernetes' "
           "environment does not set (a parse error there)")
UNCHECKED = "disable_check (a parse-only program) is a harness option: Kubernetes type-checks every expression"
PRESENCE = ("cel.EnableErrorOnBadPresenceTest(true) is the harness's option; Kubernetes leaves it off, so the "
            "presence test on a scalar is false, not an error")
FORMAT = ("string.format as ext.strings version 4 formats (cel-go 6799c159, #1232); Kubernetes has "
          "ext.StringsVersion(2) (base.go), whose format and format-string validator these are")
CEL_GO = "fails in cel-go v0.27.0 itself: conformance/BUILD.bazel@v0.27.0 lists it in _TESTS_TO_SKIP"

AUTHZ = ("Kubernetes' base environment has library.Authz() (pkg/cel/environment/base.go, since 1.27), whose "
         "namespace() is a binary member function: cel-go's planner (FunctionDecl.Bindings replicates the single "
         "overload, planCallUnary) refuses the unary call: 'no such overload: namespace(arg)'")

#: "file/section/test" -> why it fails in Kubernetes 1.37's environment, rightly.
EXPECTED_FAILURES: dict[str, str] = {
    'parse/receiver_function_names/namespace': AUTHZ,
    'comparisons/eq_literal/not_eq_list_null': HOMOGENEOUS,
    'comparisons/eq_literal/eq_list_mixed_type_numbers': HOMOGENEOUS,
    'comparisons/eq_literal/not_eq_list_mixed_type_numbers': HOMOGENEOUS,
    'comparisons/eq_literal/not_eq_list_false_vs_types': HOMOGENEOUS,
    'comparisons/eq_literal/not_eq_map_null': HOMOGENEOUS,
    'comparisons/eq_literal/eq_map_mixed_type_numbers': HOMOGENEOUS,
    'comparisons/eq_literal/not_eq_map_false_vs_types': HOMOGENEOUS,
    'comparisons/eq_literal/eq_map_value_mixed_types': HOMOGENEOUS,
    'comparisons/eq_literal/not_eq_list_elem_null': HOMOGENEOUS,
    'comparisons/eq_literal/not_eq_map_value_null': HOMOGENEOUS,
    'comparisons/in_list_literal/elem_in_mixed_type_list': HOMOGENEOUS,
    'comparisons/in_list_literal/elem_in_mixed_type_list_cross_type': HOMOGENEOUS,
    'comparisons/in_map_literal/key_in_mixed_key_type_map': HOMOGENEOUS,
    'comparisons/in_map_literal/key_in_mixed_key_type_map_cross_type': HOMOGENEOUS,
    'conversions/dyn/dyn_heterogeneous_list': HOMOGENEOUS,
    'conversions/int/uint_range': OPTIMIZE,
    'conversions/int/double_int_max_range': OPTIMIZE,
    'conversions/int/double_int_min_range': OPTIMIZE,
    'conversions/int/double_range': OPTIMIZE,
    'conversions/string/bytes_invalid': OPTIMIZE,
    'conversions/uint/int_neg': OPTIMIZE,
    'conversions/uint/double_uint_max_range': OPTIMIZE,
    'conversions/uint/double_range_beyond_uint': OPTIMIZE,
    'conversions/bool/string_true_badcase': OPTIMIZE,
    'conversions/bool/string_false_badcase': OPTIMIZE,
    'fields/map_fields/map_key_int64': HOMOGENEOUS,
    'fields/map_fields/map_key_uint64': HOMOGENEOUS,
    'fields/map_fields/map_key_mixed_type': HOMOGENEOUS,
    'fields/map_fields/map_key_mixed_numbers_double_key': HOMOGENEOUS,
    'fields/map_fields/map_key_mixed_numbers_lossy_double_key': HOMOGENEOUS,
    'fields/map_fields/map_key_mixed_numbers_uint_key': HOMOGENEOUS,
    'fields/map_fields/map_key_mixed_numbers_int_key': HOMOGENEOUS,
    'fields/map_fields/map_bad_key_type': OPTIMIZE,
    'fields/map_fields/map_bad_key_type_or_false': OPTIMIZE,
    'fields/map_fields/map_bad_key_type_or_true': OPTIMIZE,
    'fields/map_fields/map_bad_key_type_and_false': OPTIMIZE,
    'fields/map_fields/map_bad_key_type_and_true': OPTIMIZE,
    'fields/map_fields/map_value_mix_type': HOMOGENEOUS,
    'fields/quoted_map_fields/field_access_slash': ESCAPED,
    'fields/quoted_map_fields/field_access_dash': ESCAPED,
    'fields/quoted_map_fields/field_access_dot': ESCAPED,
    'fields/quoted_map_fields/has_field_slash': ESCAPED,
    'fields/quoted_map_fields/has_field_dash': ESCAPED,
    'fields/quoted_map_fields/has_field_dot': ESCAPED,
    'fields/qualified_identifier_resolution/qualified_identifier_resolution_unchecked': UNCHECKED,
    'fields/qualified_identifier_resolution/map_key_float': CEL_GO,
    'fields/qualified_identifier_resolution/map_key_null': CEL_GO,
    'fields/qualified_identifier_resolution/map_value_repeat_key': CEL_GO,
    'fields/qualified_identifier_resolution/map_value_repeat_key_heterogeneous': CEL_GO,
    'fields/in/mixed_numbers_and_keys_present': HOMOGENEOUS,
    'fields/in/mixed_numbers_and_keys_absent': HOMOGENEOUS,
    'macros/exists/list_elem_type_shortcircuit': HOMOGENEOUS,
    'macros/exists/list_elem_type_exhaustive': HOMOGENEOUS,
    'macros/exists/map_key_type_shortcircuit': HOMOGENEOUS,
    'macros/exists/map_key_type_exhaustive': HOMOGENEOUS,
    'macros/all/list_elem_type_shortcircuit': HOMOGENEOUS,
    'macros/all/list_elem_type_exhaustive': HOMOGENEOUS,
    'macros2/exists/list_elem_type_shortcircuit': HOMOGENEOUS,
    'macros2/exists/list_elem_type_exhaustive': HOMOGENEOUS,
    'macros2/exists/map_key_type_shortcircuit': HOMOGENEOUS,
    'macros2/exists/map_key_type_exhaustive': HOMOGENEOUS,
    'macros2/all/list_elem_type_shortcircuit': HOMOGENEOUS,
    'macros2/all/list_elem_type_exhaustive': HOMOGENEOUS,
    'macros2/all/list_elem_type_error_exhaustive': HOMOGENEOUS,
    'namespace/namespace/self_eval_container_lookup_unchecked': UNCHECKED,
    'optionals/optionals/map_null_entry_no_such_key': PRESENCE,
    'optionals/optionals/map_present_key_invalid_field': PRESENCE,
    'optionals/optionals/optional_chaining_13': HOMOGENEOUS,
    'optionals/optionals/map_key_mixed_type_optindex_value': HOMOGENEOUS,
    'optionals/optionals/map_key_mixed_numbers_double_key_optindex_value': HOMOGENEOUS,
    'optionals/optionals/map_key_mixed_numbers_uint_key_optindex_value': HOMOGENEOUS,
    'optionals/optionals/map_key_mixed_numbers_int_key_optindex_value': HOMOGENEOUS,
    'string_ext/format/scientific notation formatting clause': FORMAT,
    'string_ext/format/default precision for scientific notation': FORMAT,
    'string_ext/format/NaN support for scientific notation': FORMAT,
    'string_ext/format/positive infinity support for scientific notation': FORMAT,
    'string_ext/format/negative infinity support for scientific notation': FORMAT,
    'string_ext/format/NaN support for decimal': FORMAT,
    'string_ext/format/positive infinity support for decimal': FORMAT,
    'string_ext/format/negative infinity support for decimal': FORMAT,
    'string_ext/format/positive infinity support for fixed-point': FORMAT,
    'string_ext/format/negative infinity support for fixed-point': FORMAT,
    'string_ext/format/list support for string': FORMAT,
    'string_ext/format/map support for string': FORMAT,
    'string_ext/format/map support (all key types)': FORMAT,
    'string_ext/format/dyntype support for scientific notation': FORMAT,
    'string_ext/format/dyntype NaN/infinity support': FORMAT,
    'string_ext/format/dyntype support for lists': FORMAT,
    'string_ext/format/dyntype support for maps': FORMAT,
    'string_ext/format/scientific notation formatting clause in a string variable': FORMAT,
    'string_ext/value_errors/indexof_out_of_range': CEL_GO,
    'string_ext/value_errors/lastindexof_out_of_range': CEL_GO,
    'timestamps/timestamp_range/from_string_under': OPTIMIZE,
    'timestamps/timestamp_range/from_string_over': LITERALS,
    'timestamps/duration_range/from_string_under': LITERALS,
    'timestamps/duration_range/from_string_over': LITERALS,
    'timestamps/duration_range/add_under': LITERALS,
    'timestamps/duration_range/add_over': LITERALS,
    'timestamps/duration_range/sub_under': LITERALS,
    'timestamps/duration_range/sub_over': LITERALS,
    'type_deductions/flexible_type_parameter_assignment/optional_dyn_promotion': HOMOGENEOUS,
    'type_deductions/flexible_type_parameter_assignment/optional_dyn_promotion_2': HOMOGENEOUS,
    'type_deductions/legacy_nullable_types/null_assignable_to_abstract_parameter_candidate': CEL_GO,
}


def _load() -> list[tuple[str, Message]]:
    out = []
    for path in sorted(DATA.glob("*.textproto")):
        doc = parse_textproto(path.read_text(encoding="utf-8"))
        for section in doc.all("section"):
            assert isinstance(section, Message)
            for test in section.all("test"):
                assert isinstance(test, Message)
                out.append((f"{doc.str('name')}/{section.str('name')}/{test.str('name')}", test))
    return out


TESTS = _load()


def _mentions_protobuf(m: Message) -> bool:
    for name, v in m.fields:
        if name.startswith("[") or name in ("message_type", "enum_value"):
            return True
        if isinstance(v, Message) and _mentions_protobuf(v):
            return True
    return False


def out_of_scope(test: Message) -> str | None:
    """Why a test is not one for Kubernetes (None: it is)."""
    expr = test.str("expr")
    if "cel.expr.conformance" in test.str("container") or "TestAllTypes" in expr or "NestedTestAllTypes" in expr:
        return "protobuf message"
    if "google.protobuf." in expr or _mentions_protobuf(_without(test, "value", "typed_result", "eval_error")):
        return "protobuf message"
    results = [test.get(k) for k in ("value", "typed_result")]
    if any(isinstance(r, Message) and _value_mentions_protobuf(r) for r in results):
        return "protobuf message"
    if any(isinstance(d, Message) and d.get("function") is not None for d in test.all("type_env")):
        return "harness function declaration"
    return None


def _without(m: Message, *names: str) -> Message:
    return Message([(n, v) for n, v in m.fields if n not in names])


_WELL_KNOWN_ANY = ("[type.googleapis.com/google.protobuf.Duration]", "[type.googleapis.com/google.protobuf.Timestamp]")


def _value_mentions_protobuf(m: Message) -> bool:
    for name, v in m.fields:
        if name == "enum_value" or (name.startswith("[") and name not in _WELL_KNOWN_ANY):
            return True
        if (name == "type_value" and isinstance(v, Str) and v.text.startswith(("google.protobuf.", "cel.expr."))
                and v.text not in ("google.protobuf.Duration", "google.protobuf.Timestamp")):
            return True
        if isinstance(v, Message) and _value_mentions_protobuf(v):
            return True
    return False


# --- cel.expr.Value -> comparable form, and -> CEL values ------------------------------------------------------


def _num(w: Any) -> str:
    assert isinstance(w, Word), w
    return w.text


def _double(text: str) -> float:
    t = text.lower().rstrip("f") if not text.lower().endswith("inf") else text.lower()
    if t in ("inf", "infinity", "+inf"):
        return math.inf
    if t in ("-inf", "-infinity"):
        return -math.inf
    if t in ("nan", "-nan"):
        return math.nan
    return float(t)


def expected_value(m: Message) -> Any:
    """A ``cel.expr.Value`` as a comparable tuple."""
    for name, v in m.fields:
        if name == "null_value":
            return ("null",)
        if name == "bool_value":
            return ("bool", _num(v) in ("true", "True", "t", "1"))
        if name == "int64_value":
            return ("int", int(_num(v), 0))
        if name == "uint64_value":
            return ("uint", int(_num(v), 0))
        if name == "double_value":
            return ("double", _double(_num(v)))
        if name == "string_value":
            assert isinstance(v, Str)
            return ("string", v.text)
        if name == "bytes_value":
            assert isinstance(v, Str)
            return ("bytes", v.raw)
        if name == "list_value":
            assert isinstance(v, Message)
            return ("list", tuple(expected_value(e) for e in v.all("values") if isinstance(e, Message)))
        if name == "map_value":
            assert isinstance(v, Message)
            entries = []
            for e in v.all("entries"):
                assert isinstance(e, Message)
                key, val = e.msg("key"), e.msg("value")
                assert key is not None and val is not None
                entries.append((expected_value(key), expected_value(val)))
            return ("map", _sorted(entries))
        if name == "type_value":
            assert isinstance(v, Str)
            return ("type", v.text)
        if name == "object_value":
            assert isinstance(v, Message)
            (any_name, body), = v.fields
            assert isinstance(body, Message)
            seconds = int(_num(body.get("seconds") or Word("0")))
            nanos = int(_num(body.get("nanos") or Word("0")))
            if any_name.endswith("Duration]"):
                return ("duration", seconds * 1_000_000_000 + nanos)
            return ("timestamp", seconds, nanos)
    raise AssertionError(f"unhandled value {m}")


def _sorted(entries: list[tuple[Any, Any]]) -> tuple[Any, ...]:
    return tuple(sorted(entries, key=repr))


def actual_value(v: Any) -> Any:
    """A CEL value as :func:`expected_value` gives it."""
    if v is None:
        return ("null",)
    t = type(v)
    if t is bool:
        return ("bool", v)
    if t is int:
        return ("int", v)
    if t is V.Uint:
        return ("uint", v.v)
    if t is float:
        return ("double", v)
    if t is str:
        return ("string", v)
    if t is bytes:
        return ("bytes", v)
    if t is V.Duration:
        return ("duration", v.ns)
    if t is V.Timestamp:
        return ("timestamp", v.sec, v.nsec)
    if t is V.TypeValue:
        return ("type", v.name)
    if isinstance(v, V.ListValue):
        return ("list", tuple(actual_value(e) for e in v.items()))
    if isinstance(v, V.MapValue):
        return ("map", _sorted([(actual_value(k), actual_value(v.get(k))) for k in v.keys()]))
    return ("unconvertible", type(v).__name__, repr(v))


def same(a: Any, b: Any) -> bool:
    """Equal comparable forms, a NaN equal to a NaN (protocmp)."""
    if isinstance(a, float) and isinstance(b, float):
        return a == b or (math.isnan(a) and math.isnan(b))
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return bool(a == b) and type(a) is type(b)


def cel_value(form: Any) -> Any:
    """The CEL value of a comparable form (bindings)."""
    kind = form[0]
    if kind == "null":
        return None
    if kind in ("bool", "int", "double", "string", "bytes"):
        return form[1]
    if kind == "uint":
        return V.Uint(form[1])
    if kind == "list":
        return V.adapt_native([cel_value(e) for e in form[1]])
    if kind == "map":
        return V.adapt_native({cel_value(k): cel_value(v) for k, v in form[1]})
    if kind == "duration":
        return V.Duration(form[1])
    if kind == "timestamp":
        return V.Timestamp(form[1], form[2])
    if kind == "type":
        return V.TypeValue(form[1])
    raise AssertionError(form)


# --- cel.expr.Type -> the checker's type ---------------------------------------------------------------------

_PRIMITIVES = {"BOOL": "bool", "INT64": "int", "UINT64": "uint", "DOUBLE": "double", "STRING": "string",
               "BYTES": "bytes"}
_WELL_KNOWN = {"ANY": "any", "TIMESTAMP": "google.protobuf.Timestamp", "DURATION": "google.protobuf.Duration"}


def type_text(m: Message) -> str:
    """A ``cel.expr.Type`` as :func:`crdtool.core.celgo.types.format_cel_type` writes types."""
    name, v = m.fields[0]
    if name == "primitive":
        return _PRIMITIVES[_num(v)]
    if name == "well_known":
        return _WELL_KNOWN[_num(v)]
    if name == "dyn":
        return "dyn"
    if name == "null":
        return "null"
    if name == "error":
        return "*error*"
    if name == "wrapper":
        return f"wrapper({_PRIMITIVES[_num(v)]})"
    assert isinstance(v, (Message, Str)), (name, v)
    if name == "type_param":
        assert isinstance(v, Str)
        return v.text
    if name == "message_type":
        assert isinstance(v, Str)
        return v.text
    assert isinstance(v, Message)
    if name == "list_type":
        elem = v.msg("elem_type")
        assert elem is not None
        return f"list({type_text(elem)})"
    if name == "map_type":
        key, val = v.msg("key_type"), v.msg("value_type")
        assert key is not None and val is not None
        return f"map({type_text(key)}, {type_text(val)})"
    if name == "type":
        return f"type({type_text(v)})" if v.fields else "type"
    if name == "abstract_type":
        params = [type_text(p) for p in v.all("parameter_types") if isinstance(p, Message)]
        return f"{v.str('name')}({', '.join(params)})" if params else v.str("name")
    raise AssertionError(f"unhandled type {m}")


# --- running a test ---------------------------------------------------------------------------------------------


def _environment(test: Message) -> Environment:
    from dataclasses import replace

    return replace(base_environment(None, RELEASE), container=test.str("container"))


def _variables(test: Message) -> dict[str, T.Type]:
    out: dict[str, T.Type] = {}
    for decl in test.all("type_env"):
        assert isinstance(decl, Message)
        ident = decl.msg("ident")
        assert ident is not None
        t = ident.msg("type")
        out[decl.str("name")] = T.parse_type(type_text(t)) if t is not None else T.DYN
    return out


def _bindings(test: Message) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for b in test.all("bindings"):
        assert isinstance(b, Message)
        expr_value = b.msg("value")
        assert expr_value is not None
        value = expr_value.msg("value")
        assert value is not None
        out[b.str("key")] = cel_value(expected_value(value))
    return out


def run(test: Message) -> str | None:
    """Run one test as cel-go's harness does; None when it passes, else what went wrong."""
    env = _environment(test)
    variables = _variables(test)
    if test.flag("disable_check"):
        parsed = parse(test.str("expr"), env.effective_parser_options())
        if parsed.expr is None:
            return f"parse: {parsed.error_text()}"
        checked = CheckedAst(parsed.expr, parsed.info)
    else:
        compiled = compile_expression(test.str("expr"), variables, env=env)
        if compiled.checked is None:
            return f"compile: {compiled.error}"
        checked = compiled.checked
    typed = test.msg("typed_result")
    if typed is not None and typed.msg("deduced_type") is not None:
        deduced = typed.msg("deduced_type")
        assert deduced is not None
        got_type = T.format_cel_type(checked.output_type())
        if got_type != type_text(deduced):
            return f"type: got {got_type}, want {type_text(deduced)}"
    if test.flag("check_only"):
        return None
    try:
        result = plan_program(checked, runtime_of(env)).eval(_bindings(test))
    except Exception as exc:  # noqa: BLE001 - a harness reports any failure of the program as the test's
        return f"program: {type(exc).__name__}: {exc}"
    if test.get("eval_error") is not None:
        return None if type(result) is V.Err else f"want an error, got {actual_value(result)}"
    if type(result) is V.Err:
        return f"eval: {result.msg}"
    want_msg = typed.msg("result") if typed is not None else test.msg("value")
    want = expected_value(want_msg) if want_msg is not None else ("bool", True)
    got = actual_value(result)
    return None if same(got, want) else f"value: got {got}, want {want}"


#: How each reason's failure reads in :func:`run`'s words: an expected failure that fails otherwise is a failure.
SIGNATURES: dict[str, str] = {
    AUTHZ: r"^program: PlanError: no such overload: namespace\(arg\)$",
    HOMOGENEOUS: r"^compile: ERROR: .*expected type '.*' but found '.*'",
    OPTIMIZE: r"^program: PlanError: ",
    LITERALS: r"^compile: ERROR: .*invalid (duration|timestamp) argument",
    ESCAPED: r"^compile: ERROR: .*unsupported syntax: '`'",
    UNCHECKED: r"^(value|eval): ",
    PRESENCE: r"^want an error, got \('bool', False\)$",
    FORMAT: r"^(value: got \('string'|compile: ERROR: .*error during formatting)",
    CEL_GO: r".",
}


def _params() -> list[Any]:
    return [pytest.param(name, test, id=name) for name, test in TESTS if out_of_scope(test) is None]


@pytest.mark.parametrize(("name", "test"), _params())
def test_conformance(name: str, test: Message) -> None:
    problem = run(test)
    reason = EXPECTED_FAILURES.get(name)
    if reason is None:
        assert problem is None, f"{test.str('expr')!r}: {problem}"
        return
    assert problem is not None, f"{name} passes now: take it out of EXPECTED_FAILURES"
    assert re.search(SIGNATURES[reason], problem), f"{name} fails otherwise than for its reason: {problem}"
    pytest.xfail(reason)


def test_scope() -> None:
    """What is not run, by reason (nothing leaves the suite unseen)."""
    counts: dict[str, int] = {}
    for _, test in TESTS:
        reason = out_of_scope(test)
        if reason is not None:
            counts[reason] = counts.get(reason, 0) + 1
    assert counts == {"protobuf message": 136, "harness function declaration": 5}, counts
    assert len(TESTS) == 1551


def test_expected_failures_exist() -> None:
    names = {name for name, test in TESTS if out_of_scope(test) is None}
    assert set(EXPECTED_FAILURES) <= names
