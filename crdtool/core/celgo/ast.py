"""CEL abstract syntax trees, source positions and error rendering.

Mirrors cel-go v0.26.0 ``common/ast`` (``Expr`` kinds, ``SourceInfo`` with
per-expression offset ranges and ``GetStartLocation``), ``common/source.go``
(line offsets, snippets) and ``common/errors.go``/``common/error.go``
(``Errors.ToDisplayString``: errors sorted by location, each with its source
line and a caret line; at most 100 reported).

Expressions are mutable :class:`Expr` nodes built by the parser; the checker
only reads them (upstream's checker rewrites qualified identifiers in place;
ours records the resolved name in the reference map instead).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterator

__all__ = [
    "COMPREHENSION",
    "CALL",
    "Entry",
    "Expr",
    "IDENT",
    "Issue",
    "LIST",
    "LITERAL",
    "MAP",
    "SELECT",
    "post_order",
    "STRUCT",
    "SourceInfo",
    "UNSPECIFIED",
    "format_issues",
    "line_offsets",
]

UNSPECIFIED = 0
LITERAL = 1
IDENT = 2
SELECT = 3
CALL = 4
LIST = 5
MAP = 6
STRUCT = 7
COMPREHENSION = 8

#: Literal kinds (``types.Bool``, ``types.Int`` ...); ``value`` holds the Python value.
LIT_BOOL, LIT_INT, LIT_UINT, LIT_DOUBLE, LIT_STRING, LIT_BYTES, LIT_NULL = (
    "bool", "int", "uint", "double", "string", "bytes", "null",
)


class Expr:
    """One expression node (``ast.Expr``). Only the fields of its kind are meaningful.

    * LITERAL: ``lit`` (one of the ``LIT_*`` kinds) and ``value``;
    * IDENT: ``name``;
    * SELECT: ``operand``, ``name`` (the field), ``test_only`` (``has()``);
    * CALL: ``name`` (function), ``target`` (None for global calls), ``args``;
    * LIST: ``args`` (elements), ``optional_indices``;
    * MAP: ``entries`` (:class:`Entry` with key/value);
    * STRUCT: ``name`` (message type name), ``entries`` (:class:`Entry` with field/value);
    * COMPREHENSION: ``iter_range``, ``iter_var``, ``iter_var2``, ``accu_var``,
      ``accu_init``, ``loop_condition``, ``loop_step``, ``result``.
    """

    __slots__ = (
        "id", "kind", "lit", "value", "name", "operand", "test_only", "target", "args",
        "optional_indices", "entries", "iter_range", "iter_var", "iter_var2", "accu_var",
        "accu_init", "loop_condition", "loop_step", "result",
    )

    def __init__(self, id: int, kind: int) -> None:  # noqa: A002 - upstream's name
        self.id = id
        self.kind = kind
        self.lit = ""
        self.value: Any = None
        self.name = ""
        self.operand: Expr | None = None
        self.test_only = False
        self.target: Expr | None = None
        self.args: list[Expr] = []
        self.optional_indices: list[int] = []
        self.entries: list[Entry] = []
        self.iter_range: Expr | None = None
        self.iter_var = ""
        self.iter_var2 = ""
        self.accu_var = ""
        self.accu_init: Expr | None = None
        self.loop_condition: Expr | None = None
        self.loop_step: Expr | None = None
        self.result: Expr | None = None

    def __repr__(self) -> str:
        return f"Expr(id={self.id}, kind={self.kind}, name={self.name!r})"


@dataclass(slots=True)
class Entry:
    """A map entry (``key``) or struct field (``field``) initializer with its own id."""

    id: int
    value: Expr
    key: Expr | None = None
    field: str = ""
    optional: bool = False


def new_literal(id: int, lit: str, value: Any) -> Expr:  # noqa: A002
    e = Expr(id, LITERAL)
    e.lit, e.value = lit, value
    return e


def new_ident(id: int, name: str) -> Expr:  # noqa: A002
    e = Expr(id, IDENT)
    e.name = name
    return e


def new_select(id: int, operand: Expr, field_name: str, test_only: bool = False) -> Expr:  # noqa: A002
    e = Expr(id, SELECT)
    e.operand, e.name, e.test_only = operand, field_name, test_only
    return e


def new_call(id: int, function: str, args: list[Expr], target: Expr | None = None) -> Expr:  # noqa: A002
    e = Expr(id, CALL)
    e.name, e.args, e.target = function, list(args), target
    return e


def new_list(id: int, elements: list[Expr], optional_indices: list[int] | None = None) -> Expr:  # noqa: A002
    e = Expr(id, LIST)
    e.args = list(elements)
    e.optional_indices = list(optional_indices or [])
    return e


def new_map(id: int, entries: list[Entry]) -> Expr:  # noqa: A002
    e = Expr(id, MAP)
    e.entries = list(entries)
    return e


def new_struct(id: int, type_name: str, fields: list[Entry]) -> Expr:  # noqa: A002
    e = Expr(id, STRUCT)
    e.name, e.entries = type_name, list(fields)
    return e


def new_comprehension(
    id: int,  # noqa: A002
    iter_range: Expr,
    iter_var: str,
    iter_var2: str,
    accu_var: str,
    accu_init: Expr,
    loop_condition: Expr,
    loop_step: Expr,
    result: Expr,
) -> Expr:
    e = Expr(id, COMPREHENSION)
    e.iter_range, e.iter_var, e.iter_var2, e.accu_var = iter_range, iter_var, iter_var2, accu_var
    e.accu_init, e.loop_condition, e.loop_step, e.result = accu_init, loop_condition, loop_step, result
    return e


# --- sources and positions ----------------------------------------------------------------------


def line_offsets(text: str) -> list[int]:
    """``runes.NewBufferAndLineOffsets``: code-point offsets of line starts 2..n, then ``len + 1``."""
    if not text:
        return [0]
    offs = [i + 1 for i, ch in enumerate(text) if ch == "\n"]
    offs.append(len(text) + 1)
    return offs


@dataclass
class SourceInfo:
    """``ast.SourceInfo`` for a text source: line offsets and each expression's offset range."""

    text: str
    lines: list[int] = field(default_factory=list)
    offsets: dict[int, tuple[int, int]] = field(default_factory=dict)
    #: ``GetStartLocation`` tests ``lineOffset < offset`` (cel-go up to v0.20.1, the checker's and the AST
    #: validators' error locations): a node at column 0 of a line after the first is placed one past the end of
    #: the line before (``common/ast/ast.go@v0.20.1``, ``checker/checker.go locationByID@v0.17.8``)
    strict_lt: bool = False

    def __post_init__(self) -> None:
        if not self.lines:
            self.lines = line_offsets(self.text)

    def compute_offset(self, line: int, col: int) -> int:
        """``ComputeOffset``: 0-based code-point offset of a 1-based line and 0-based column."""
        if line == 1:
            return col
        if line < 1 or line > len(self.lines):
            return -1
        return self.lines[line - 2] + col

    def location_by_offset(self, offset: int, strict: bool | None = None) -> tuple[int, int]:
        """``GetLocationByOffset``: (1-based line, 0-based column); ``strict`` (default :attr:`strict_lt`): the
        ``lineOffset < offset`` loop of cel-go up to v0.20.1."""
        if strict is None:
            strict = self.strict_lt
        line, col = 1, offset
        for lo in self.lines:
            if lo > offset or (strict and lo == offset):
                break
            line += 1
            col = offset - lo
        return line, col

    def start_location(self, expr_id: int, strict: bool | None = None) -> tuple[int, int]:
        """``GetStartLocation``; ``(-1, -1)`` (``NoLocation``) for unknown ids."""
        rng = self.offsets.get(expr_id)
        if rng is None:
            return (-1, -1)
        return self.location_by_offset(rng[0], strict)

    def snippet(self, line: int) -> str | None:
        """``Source.Snippet``: the text of a 1-based line, without its newline."""
        if not self.text:
            return None
        if line == 1:
            start = 0
        elif 1 < line <= len(self.lines):
            start = self.lines[line - 2]
        else:
            return None
        nxt = line + 1
        if 1 < nxt <= len(self.lines):
            return self.text[start : self.lines[nxt - 2] - 1]
        return self.text[start:]


# --- errors -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Issue:
    """``common.Error``: a message at a (1-based line, 0-based column); ``(-1, -1)`` for none."""

    line: int
    column: int
    message: str
    expr_id: int = 0


MAX_ERRORS_TO_REPORT = 100
_MAX_SNIPPET_LENGTH = 16384


def _display(issue: Issue, info: SourceInfo) -> str:
    """``Error.ToDisplayString``."""
    out = f"ERROR: <input>:{issue.line}:{issue.column + 1}: {issue.message}"
    snippet = info.snippet(issue.line)
    if snippet is not None and len(snippet.encode("utf-8")) <= _MAX_SNIPPET_LENGTH:
        snippet = snippet.replace("\t", " ")
        ind = []
        rest = snippet
        for _ in range(max(issue.column, 0)):
            if not rest:
                break
            ind.append("\uff0e" if len(rest[0].encode("utf-8")) > 1 else ".")
            rest = rest[1:]
        ind.append("\uff3e" if rest and len(rest[0].encode("utf-8")) > 1 else "^")
        out += "\n | " + snippet + "\n | " + "".join(ind)
    return out


def format_issues(issues: list[Issue], info: SourceInfo, total: int | None = None) -> str:
    """``Errors.ToDisplayString``: sorted by location (stable), at most 100, then a truncation line.

    ``total`` is the number of errors reported (upstream counts errors beyond
    the first 100 without keeping them).
    """
    n = len(issues) if total is None else total
    ordered = sorted(issues[:MAX_ERRORS_TO_REPORT], key=lambda i: (i.line, i.column))
    lines = [_display(i, info) for i in ordered]
    if n > MAX_ERRORS_TO_REPORT:
        lines.append(f"{n - MAX_ERRORS_TO_REPORT} more errors were truncated")
    return "\n".join(lines)


def post_order(e: Expr) -> Iterator[Expr]:
    """``ast.MatchDescendants`` visiting order (post-order, target before arguments)."""
    stack: list[tuple[Expr, bool]] = [(e, False)]
    while stack:
        node, done = stack.pop()
        if done:
            yield node
            continue
        stack.append((node, True))
        children: list[Expr] = []
        k = node.kind
        if k == CALL:
            if node.target is not None:
                children.append(node.target)
            children.extend(node.args)
        elif k == COMPREHENSION:
            children.extend(
                c for c in (node.iter_range, node.accu_init, node.loop_condition, node.loop_step, node.result) if c
            )
        elif k == LIST:
            children.extend(node.args)
        elif k == MAP:
            for en in node.entries:
                assert en.key is not None
                children.extend((en.key, en.value))
        elif k == SELECT:
            assert node.operand is not None
            children.append(node.operand)
        elif k == STRUCT:
            children.extend(en.value for en in node.entries)
        stack.extend((c, False) for c in reversed(children))
