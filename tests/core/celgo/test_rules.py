"""x-kubernetes-validations rules compiled as the apiserver compiles them (crdtool.core.crdcel.compilation).

Complements the upstream transcriptions (tests/core/cel_upstream) with cases
a CRD author meets; every expected message is cel-go's wording, checked
against cel-go v0.26.0's parser/checker sources and tests (see the
comments) or computed by hand from upstream's rules.
"""

from __future__ import annotations

from typing import Any

import pytest

from crdtool.core.celgo.parser import parse
from crdtool.core.crdcel.compilation import RuleSource, compile_rules
from crdtool.core.kubecel.decltype import schema_decl_type
from crdtool.core.schema.structural import new_structural

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "a": {"type": "integer"},
        "name": {"type": "string", "maxLength": 63},
        "s": {"type": "string", "maxLength": 10},
        "list": {"type": "array", "maxItems": 10, "items": {"type": "integer"}},
        "strs": {"type": "array", "maxItems": 10, "items": {"type": "string", "maxLength": 10}},
        "m": {"type": "object", "maxProperties": 10, "additionalProperties": {"type": "string", "maxLength": 10}},
        "ios": {"x-kubernetes-int-or-string": True},
        "namespace": {"type": "string", "maxLength": 10},
        "dur": {"type": "string", "format": "duration"},
        "obj": {"type": "object", "properties": {"x": {"type": "string", "maxLength": 5}}},
    },
}


def compile_one(rule: str, message_expression: str = "", schema: dict[str, Any] | None = None) -> Any:
    ss = new_structural(schema or SCHEMA)
    decl = schema_decl_type(ss, False)
    assert decl is not None
    [result] = compile_rules([RuleSource(rule, message_expression)], decl)
    return result


def detail(rule: str) -> str | None:
    r = compile_one(rule)
    return r.error[1] if r.error else None


@pytest.mark.parametrize(
    "rule",
    [
        "self.a == 1",
        "self.a <= 5 && self.a >= 0",
        "has(self.obj) && self.obj.x.startsWith('y')",
        "self.list.exists_one(e, e == 1)",
        "self.list.map(x, x * 2).size() > 0",
        "self.list.map(x, x > 0, x * 2).size() > 0",
        "self.list.filter(x, x > 0).size() == 0",
        "self.m.all(k, v, v.size() > 0)",
        "self.list.transformList(i, v, v + i).size() > 0",
        "optional.of(1).hasValue()",
        "self.?obj.?x.orValue('') == ''",
        "self.m[?'a'].hasValue()",
        "type(self.s) == string",
        r"self.s.matches('^[a-z]+$')",
        r"self.s.matches(r'^\d+$')",
        "duration(self.s) < duration('1h30m')",
        "self.dur < duration('1h')",
        "timestamp(self.s) > timestamp('2024-01-01T00:00:00Z')",
        "quantity(self.s).isGreaterThan(quantity('1Gi'))",
        "isURL(self.s) && url(self.s).getScheme() == 'https'",
        "format.dns1123Label().validate(self.name).hasValue() == false",
        "sets.contains([1, 2], [1])",
        "self.s.split(',').size() < 3",
        "'%s'.format([self.s]) != ''",
        "oldSelf == self",
        "!has(oldSelf.a) || self.a == oldSelf.a",
        "self.a // comment\n == 1",
        'self.s == """multi\nline"""',
        "ip(self.s).family() == 4 && cidr('10.0.0.0/8').containsIP(self.s)",
        "self.list.isSorted() && self.list.sum() > 0",
        "self.namespace == 'x'",  # found as the escaped __namespace__ (recognizeKeywordAsFieldName)
        "self.__namespace__ == 'x'",
        "self.list.sortBy(x, -x)[0] > 0",
        "lists.range(3).size() == 3",
        "1 < 1.5",  # cross-type numeric comparisons
    ],
)
def test_valid_rules(rule: str) -> None:
    assert detail(rule) is None


UNDECLARED = "undeclared reference to '{}' (in container '')"


@pytest.mark.parametrize(
    "rule, expected",
    [
        # cel-go parser_test.go: an operand expected at <EOF>
        (
            "self.a ==",
            "compilation failed: ERROR: <input>:1:10: Syntax error: mismatched input '<EOF>' expecting {'[', '{', "
            "'(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n"
            " | self.a ==\n | .........^",
        ),
        ("foo == 1", "compilation failed: ERROR: <input>:1:1: " + UNDECLARED.format("foo") + "\n | foo == 1\n | ^"),
        (
            "self.fooBar(1)",
            "compilation failed: ERROR: <input>:1:12: " + UNDECLARED.format("fooBar") + "\n | self.fooBar(1)\n | ...........^",
        ),
        # checker errors.go undefinedField at the selection's '.'
        ("self.foo == 1", "compilation failed: ERROR: <input>:1:5: undefined field 'foo'\n | self.foo == 1\n | ....^"),
        (
            "self.s + 1 == 'a'",
            "compilation failed: ERROR: <input>:1:8: found no matching overload for '_+_' applied to '(string, int)'\n"
            " | self.s + 1 == 'a'\n | .......^",
        ),
        ("has(self)", "compilation failed: ERROR: <input>:1:5: invalid argument to has() macro\n | has(self)\n | ....^"),
        (
            "self.list.all(1, true)",
            "compilation failed: ERROR: <input>:1:15: argument must be a simple name\n | self.list.all(1, true)\n"
            " | ..............^",
        ),
        (
            "self.s.matches('[')",
            "compilation failed: ERROR: <input>:1:16: invalid matches argument\n | self.s.matches('[')\n | ...............^",
        ),
        (
            "duration('1x') > duration(self.s)",
            "compilation failed: ERROR: <input>:1:10: invalid duration argument\n | duration('1x') > duration(self.s)\n"
            " | .........^",
        ),
        (
            "timestamp('yesterday') < timestamp(self.s)",
            "compilation failed: ERROR: <input>:1:11: invalid timestamp argument\n"
            " | timestamp('yesterday') < timestamp(self.s)\n | ..........^",
        ),
        # no ext.Bindings and no ext.Math in environment/base.go (v0.36)
        (
            "math.greatest([1, 2]) == 2",
            "compilation failed: ERROR: <input>:1:1: " + UNDECLARED.format("math") + "\n | math.greatest([1, 2]) == 2\n | ^\n"
            "ERROR: <input>:1:14: " + UNDECLARED.format("greatest") + "\n | math.greatest([1, 2]) == 2\n"
            " | .............^",
        ),
        # HomogeneousAggregateLiterals (an AST validator)
        (
            "[1, 'a'].size() == 2",
            "compilation failed: ERROR: <input>:1:5: expected type 'int' but found 'string'\n | [1, 'a'].size() == 2\n"
            " | ....^",
        ),
        # ext/formatting.go stringFormatValidator: reported at the argument (a selection: its '.')
        (
            "'%d'.format([self.s]) == ''",
            "compilation failed: ERROR: <input>:1:18: error during formatting: decimal clause can only be used on "
            "integers, was given string\n | '%d'.format([self.s]) == ''\n | .................^",
        ),
        ("42", "cel expression must evaluate to a bool"),
        ("'abc'", "cel expression must evaluate to a bool"),
        ("[true]", "cel expression must evaluate to a bool"),
        ("self.a + 1", "cel expression must evaluate to a bool"),
        ("self.ios", "cel expression must evaluate to a bool"),  # int-or-string is dyn
    ],
)
def test_rule_errors(rule: str, expected: str) -> None:
    assert detail(rule) == expected


def test_multiline_location_and_sorting() -> None:
    assert detail("self.a == 1\n  || foo\n  || bar") == (
        "compilation failed: ERROR: <input>:2:6: " + UNDECLARED.format("foo") + "\n |   || foo\n | .....^\n"
        "ERROR: <input>:3:6: " + UNDECLARED.format("bar") + "\n |   || bar\n | .....^"
    )


def test_wide_characters_in_caret_line() -> None:
    got = detail("'é' == x")
    assert got is not None and got.endswith(" | 'é' == x\n | .\uff0e.....^")


def test_invalid_string_escape_is_a_lexer_error() -> None:
    got = detail(r"self.s.matches('^\d+$')")
    assert got is not None and got.startswith(
        "compilation failed: ERROR: <input>:1:16: Syntax error: token recognition error at: ''^\\d'"
    )


def test_comprehension_variables_are_scoped() -> None:
    assert detail("self.list.all(x, x > 0) && x > 0") == (
        "compilation failed: ERROR: <input>:1:28: " + UNDECLARED.format("x") + "\n"
        " | self.list.all(x, x > 0) && x > 0\n | ...........................^"
    )


@pytest.mark.parametrize(
    "expr, expected",
    [
        ("'scoped field should start with s'", None),
        ("self.s + ' is invalid'", None),
        ("42", "messageExpression must evaluate to a string"),
        ("self.a > 1", "messageExpression must evaluate to a string"),
        # ANTLR's lexer reports the whole unterminated string, then the parser the missing operand
        (
            '"abc',
            "messageExpression compilation failed: ERROR: <input>:1:1: Syntax error: token recognition error at: '\"abc'\n"
            ' | "abc\n | ^\n'
            "ERROR: <input>:1:5: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', "
            "'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n"
            ' | "abc\n | ....^',
        ),
    ],
)
def test_message_expression(expr: str, expected: str | None) -> None:
    r = compile_one("true", expr)
    assert (r.message_expression_error[1] if r.message_expression_error else None) == expected
    assert r.has_message_expression is (expected is None)


@pytest.mark.parametrize(
    "rule, expected",
    [
        ("oldSelf == self", True),
        ("self.a == oldSelf.a", True),
        # compileRule looks for any reference named oldSelf: the shadowing iteration variable counts too
        ("self.list.all(oldSelf, oldSelf > 0)", True),
        ("self.a == 1", False),
    ],
)
def test_uses_old_self(rule: str, expected: bool) -> None:
    assert compile_one(rule).uses_old_self is expected


def test_limits() -> None:
    # the per-rule recursion listener (parser.go recursionListener) fires first
    deep = "(" * 300 + "true" + ")" * 300
    assert parse(deep).error_text() == "ERROR: <input>:-1:0: expression recursion limit exceeded: 250"
    long = "true && " * 20000 + "true"
    assert parse(long).error_text() == (
        "ERROR: <input>:-1:0: expression code point size exceeds limit: size: 160004, limit 100000"
    )
    nested_ok = "(" * 100 + "true" + ")" * 100
    assert detail(nested_ok) is None
    # deeper than cel-cpp's own 32-level limit, within cel-go's 250
    assert detail("[" * 60 + "1" + "]" * 60 + ".size() == 1") is None


def test_parse_cached_by_text() -> None:
    assert parse("self.cached == 1") is parse("self.cached == 1")


@pytest.mark.parametrize(
    "rule, expected",
    [
        # apiextensions-apiserver validation_test.go TestValidationExpressions "regex", the find/findAll
        # rules with a constant bad pattern: the Kubernetes regex library compiles it while planning
        ("self.s.find(')') == ''", "program instantiation failed: error parsing regexp: unexpected ): `)`"),
        ("self.s.findAll(')') == []", "program instantiation failed: error parsing regexp: unexpected ): `)`"),
        ("self.s.findAll(')', 1) == []", "program instantiation failed: error parsing regexp: unexpected ): `)`"),
        # OptOptimize folds a constant conversion while planning (cel-go interpreter/optimizations.go)
        ("int('x') == self.a", "program instantiation failed: type conversion error from 'string' to 'int'"),
    ],
)
def test_program_instantiation_failures(rule: str, expected: str) -> None:
    r = compile_one(rule)
    assert r.error == ("Invalid", expected)
    # compileRule returns before the cost estimate: nothing is charged for the rule
    assert (r.max_cost, r.max_cardinality) == (0, 0)


def test_message_expression_instantiation_failure() -> None:
    r = compile_one("self.a > 0", "string(int('y'))")
    assert r.error is None
    assert r.message_expression_error == ("Invalid", "messageExpression instantiation failed: type conversion error from 'string' to 'int'")
