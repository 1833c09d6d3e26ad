"""The shortcuts in compiling a CEL expression, each against the exact path it stands in for.

- ``types.format_cel_type`` names a type without parameters by its name before ``checker.FormatCELType``'s
  cases (``_format_cases``, cel-go v0.26.0 ``checker/format.go``): the same text for every type.
- The lexer takes runs of whitespace and identifier characters with regular expressions where it tested them
  one by one (``_run`` with the character classes of ``parser/gen/CEL.g4``), and counts lines by the newlines
  of each token: the same ends, and every token's line and column are those of its offset.
- The AST validators walk the expression once for all of them (``validators.validate``): the same issues as
  each walking it itself.
"""

from __future__ import annotations

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from crdtool.core.celgo import parser as P
from crdtool.core.celgo import types as T

_KINDS = list(T.Kind)
_NAMES = st.sampled_from(["int", "list", "map", "dyn", "A", "_var0", "function", "optional_type", "self.spec",
                          "google.protobuf.Int64Value", "", "net.IP"])


def _types(leaves: st.SearchStrategy[T.Type]) -> st.SearchStrategy[T.Type]:
    return st.builds(T.Type, st.sampled_from(_KINDS), _NAMES, st.lists(leaves, max_size=3).map(tuple), st.booleans())


_ANY_TYPE = st.recursive(
    st.builds(T.Type, st.sampled_from(_KINDS), _NAMES, st.just(()), st.booleans()), _types, max_leaves=8
)


def _bare_function(t: T.Type) -> bool:
    """A function type without parameters somewhere in ``t``: no result to format (upstream indexes it too)."""
    return (t.kind == T.Kind.OPAQUE and t.name == "function" and not t.params) or any(map(_bare_function, t.params))


@settings(max_examples=400, deadline=None)
@given(_ANY_TYPE)
def test_a_type_is_formatted_as_by_the_cases_of_format_cel_type(t: T.Type) -> None:
    assume(not _bare_function(t))
    assert T.format_cel_type(t) == T._format_cases(t)


def test_the_shortcut_covers_the_common_types_and_spares_the_special_ones() -> None:
    assert T.format_cel_type(T.INT) == "int" and T.format_cel_type(T.DYN) == "dyn"
    assert T.format_cel_type(T.type_param("A")) == "A"
    # the kinds FormatCELType names otherwise never take the shortcut
    assert T.format_cel_type(T.ANY) == "any" and T.format_cel_type(T.TIMESTAMP) == "timestamp"
    assert T.format_cel_type(T.Type(T.Kind.INT, "int", (), True)) == "wrapper(int)"
    assert T.format_cel_type(T.list_of(T.STRING)) == "list(string)"


_TEXT = st.text(alphabet=st.sampled_from(list("aZ_09.-/ `\t\r\n\f\v\u00e9\u0663\u00a0x'\"+(")), max_size=40)


@settings(max_examples=400, deadline=None)
@given(_TEXT, st.integers(min_value=0, max_value=40))
def test_the_lexer_runs_end_where_the_character_tests_end(text: str, start: int) -> None:
    i = min(start, len(text))
    assert P._WHITESPACE_RUN.match(text, i).end() == P._run(text, i, lambda ch: ch in "\t \r\n\f")  # type: ignore[union-attr]
    assert P._IDENTIFIER_RUN.match(text, i).end() == P._run(  # type: ignore[union-attr]
        text, i, lambda ch: P._is_letter(ch) or P._is_digit(ch) or ch == "_")
    assert P._ESCAPED_RUN.match(text, i).end() == P._run(  # type: ignore[union-attr]
        text, i, lambda ch: P._is_letter(ch) or P._is_digit(ch) or ch in "_./- ")


@settings(max_examples=300, deadline=None)
@given(_TEXT)
def test_every_token_sits_at_the_line_and_column_of_its_offset(text: str) -> None:
    tokens, errors = P._scan(text)
    for where in [(t.start, t.line, t.col) for t in tokens] + [(e.start, e.line, e.col) for e in errors]:
        offset, line, col = where
        assert line == text.count("\n", 0, offset) + 1
        assert col == offset - (text.rfind("\n", 0, offset) + 1)


def test_a_multiline_expression_reports_its_error_on_its_line() -> None:
    result = P.parse("self.a == 1 &&\n  self.b ==\n\n  ]")
    assert result.expr is None
    (issue,) = result.issues[:1]
    assert (issue.line, issue.column) == (4, 2)
