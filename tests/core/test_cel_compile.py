"""Static CEL checks, shaped like cel-go's compile errors as upstream ``compileRule`` reports them.

Derived from upstream ``pkg/apiserver/schema/cel/compilation_test.go``
(syntax errors, ``must evaluate to a bool``, messageExpression cases, oldSelf
detection) and cel-go's issue rendering.
"""

from __future__ import annotations

import pytest

from crdtool.core.schema.cel import (
    check_expression,
    compile_message_expression,
    compile_rule,
    uses_old_self,
)


@pytest.mark.parametrize(
    "rule",
    [
        "self.a == 1",
        "self.minReplicas <= self.replicas && self.replicas <= self.maxReplicas",
        "has(self.spec) && self.spec.x.all(x, x > 0)",
        "self.exists_one(e, e == 'a')",
        "self.map(x, x * 2).size() > 0",
        "self.map(x, x > 0, x * 2).size() > 0",
        "self.filter(x, x > 0).size() == 0",
        "self.all(k, v, v > 0)",
        "self.transformList(i, v, v + i).size() > 0",
        "cel.bind(x, self.a, x + 1 == 2)",
        "optional.of(1).hasValue()",
        "self.?a.orValue(1) == 1",
        "self[?'a'].hasValue()",
        "type(self) == string",
        "self.matches('^[a-z]+$')",
        r"self.matches('^\\d+$')",
        r"self.matches(r'^\d+$')",
        "duration(self) < duration('1h30m')",
        "timestamp(self) > timestamp('2024-01-01T00:00:00Z')",
        "quantity(self).isGreaterThan(quantity('1Gi'))",
        "isURL(self) && url(self).getScheme() == 'https'",
        "format.dns1123Label().validate(self).hasValue() == false",
        "math.greatest([1, 2]) == 2",
        "sets.contains([1, 2], [1])",
        "self.split(',').size() < 3",
        "'%s'.format([self]) != ''",
        "oldSelf == self",
        "!has(oldSelf.a) || self.a == oldSelf.a",
        "self.a // comment\n == 1",
        'self.a == """multi\nline"""',
        "ip(self).family() == 4 && cidr('10.0.0.0/8').containsIP(self)",
        "self.x.isSorted() && self.x.sum() > 0",
    ],
)
def test_valid_rules(rule: str) -> None:
    assert compile_rule(rule) is None


@pytest.mark.parametrize(
    "rule, detail",
    [
        (
            "self.a ==",
            "compilation failed: ERROR: <input>:1:10: Syntax error: mismatched input '<EOF>'\n | self.a ==\n | .........^",
        ),
        (
            "foo == 1",
            "compilation failed: ERROR: <input>:1:1: undeclared reference to 'foo' (in container '')\n | foo == 1\n | ^",
        ),
        (
            "self.a.startsWith('x') && bar(self)",
            "compilation failed: ERROR: <input>:1:30: undeclared reference to 'bar' (in container '')\n"
            " | self.a.startsWith('x') && bar(self)\n | .............................^",
        ),
        (
            "self.fooBar(1)",
            "compilation failed: ERROR: <input>:1:12: undeclared reference to 'fooBar' (in container '')\n"
            " | self.fooBar(1)\n | ...........^",
        ),
        (
            "has(self)",
            "compilation failed: ERROR: <input>:1:5: invalid argument to has() macro\n | has(self)\n | ....^",
        ),
        (
            "self.all(1, true)",
            "compilation failed: ERROR: <input>:1:10: argument must be a simple name\n | self.all(1, true)\n | .........^",
        ),
        (
            "self.matches('[')",
            "compilation failed: ERROR: <input>:1:14: invalid matches argument\n | self.matches('[')\n | .............^",
        ),
        (
            "duration('1x') > duration(self)",
            "compilation failed: ERROR: <input>:1:10: invalid duration argument\n | duration('1x') > duration(self)\n | .........^",
        ),
        (
            "timestamp('yesterday') < timestamp(self)",
            "compilation failed: ERROR: <input>:1:11: invalid timestamp argument\n"
            " | timestamp('yesterday') < timestamp(self)\n | ..........^",
        ),
        ("42", "cel expression must evaluate to a bool"),
        ("'abc'", "cel expression must evaluate to a bool"),
        ("[true]", "cel expression must evaluate to a bool"),
        ("self.a + 1", "cel expression must evaluate to a bool"),
        ("self.size()", "cel expression must evaluate to a bool"),
    ],
)
def test_rule_errors(rule: str, detail: str) -> None:
    assert compile_rule(rule) == detail


def test_multiline_location_and_sorting() -> None:
    detail = compile_rule("self.a\n  || foo\n  || bar")
    assert detail == (
        "compilation failed: ERROR: <input>:2:6: undeclared reference to 'foo' (in container '')\n"
        " |   || foo\n | .....^\n"
        "ERROR: <input>:3:6: undeclared reference to 'bar' (in container '')\n"
        " |   || bar\n | .....^"
    )


def test_wide_characters_in_caret_line() -> None:
    detail = compile_rule("'é' == x")
    assert detail is not None
    assert detail.endswith(" | 'é' == x\n | .\uff0e.....^")


def test_invalid_string_escape_is_a_syntax_error() -> None:
    detail = compile_rule(r"self.matches('^\d+$')")
    assert detail is not None and detail.startswith("compilation failed: ERROR: <input>:1:14: Syntax error: token recognition error at:")


def test_comprehension_variables_are_scoped() -> None:
    assert compile_rule("self.all(x, x > 0) && x > 0") == (
        "compilation failed: ERROR: <input>:1:23: undeclared reference to 'x' (in container '')\n"
        " | self.all(x, x > 0) && x > 0\n | ......................^"
    )


@pytest.mark.parametrize(
    "expr, detail",
    [
        ("'scoped field should start with s'", None),
        ("self.name + ' is invalid'", None),
        ("42", "messageExpression must evaluate to a string"),
        ("self.a > 1", "messageExpression must evaluate to a string"),
        (
            '"abc',
            "messageExpression compilation failed: ERROR: <input>:1:1: Syntax error: token recognition error at: '\"'\n"
            ' | "abc\n | ^',
        ),
    ],
)
def test_message_expression(expr: str, detail: str | None) -> None:
    assert compile_message_expression(expr) == detail


@pytest.mark.parametrize(
    "rule, expected",
    [
        ("oldSelf == self", True),
        ("self.a == oldSelf.a", True),
        ("self.all(oldSelf, oldSelf > 0)", False),  # shadowed by the iteration variable
        ("self.a == 1", False),
        ("oldSelf ==", False),  # does not compile
    ],
)
def test_uses_old_self(rule: str, expected: bool) -> None:
    assert uses_old_self(rule) is expected


def test_limits_do_not_raise() -> None:
    deep = "(" * 300 + "true" + ")" * 300
    assert check_expression(deep).issues == "ERROR: <input>:-1:0: max recursion depth exceeded"
    long = "true && " * 20000 + "true"
    assert "expression code point size exceeds limit: size: 160004, limit 100000" in check_expression(long).issues
    nested_ok = "(" * 100 + "true" + ")" * 100
    assert compile_rule(nested_ok) is None


def test_cached_by_text() -> None:
    a = check_expression("self.cached == 1")
    assert check_expression("self.cached == 1") is a
