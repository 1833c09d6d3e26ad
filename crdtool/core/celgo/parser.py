"""The CEL parser as cel-go v0.26.0 runs it in the Kubernetes environment.

Mirrors ``github.com/google/cel-go/parser``: the ANTLR grammar ``CEL.g4``
(tokens and rules, re-implemented as a lexer and a recursive-descent parser
into a small concrete syntax tree), the visitor of ``parser.go`` (expression
ids and source offsets assigned in upstream's order, balanced ``&&``/``||``
trees, reserved identifiers, literal parsing, the recursion limits), the
macro expanders of ``macro.go`` and those the Kubernetes environment adds
(``cel.OptionalTypes``'s ``optMap``/``optFlatMap``, ``ext.TwoVarComprehensions``,
``ext.Lists``'s ``sortBy``), and ``unescape.go``. The accumulator variable is
``@result`` (``EnableHiddenAccumulatorName``, on by default).

Parser options are those of ``cel.NewEnv`` as the apiserver configures it:
optional syntax enabled (``OptionalTypes``), identifier escape syntax off,
max recursion depth 250, expression size limit 100,000 code points, error
recovery limit 30.

Syntax errors. When the input does not parse, cel-go reports ANTLR's own
messages (``mismatched input 'x' expecting {...}``, ``extraneous input``,
``missing ... at``, ``no viable alternative``), computed from the grammar's
ATN and error-recovery strategy. cel-cpp (``cel-expr-python``) parses with
ANTLR and the same grammar, so for syntax errors this module asks cel-cpp for
the error list and applies cel-go's own adjustments (``'?'`` token naming,
the reserved-identifier message rewrite of ``parser.go SyntaxError``, cel-go's
wording of macro and literal errors). Lexer errors (``token recognition
error at: '...'``) are produced here, exactly as ANTLR's lexer produces them.
If cel-cpp cannot word the error (its own 32-level recursion limit), an
ANTLR-style message is produced here.
"""

from __future__ import annotations

import functools
import math
import re
import sys
import threading
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Callable, Iterator

from crdtool.core.celgo import ast as A
from crdtool.core.gostd import sprintf_no_args
from crdtool.core.celgo.version import DEFAULT as DEFAULT_CEL_GO
from crdtool.core.celgo.version import has

__all__ = ["ACCUMULATOR", "ParseResult", "ParserOptions", "library_macro_names", "parse"]

#: ``parser.HiddenAccumulatorName``.
ACCUMULATOR = "@result"
#: ``parser.AccumulatorName`` (still refused as an iteration variable).
LEGACY_ACCUMULATOR = "__result__"
MAX_RECURSION_DEPTH = 250
EXPRESSION_SIZE_CODE_POINT_LIMIT = 100_000
ERROR_REPORTING_LIMIT = 100

_RESERVED_IDS = frozenset(
    "as break const continue else false for function if import in let loop package namespace null return true "
    "var void while".split()
)


@dataclass(frozen=True)
class ParserOptions:
    """The ``parser.Option`` values that matter here; the defaults are the Kubernetes environment's."""

    max_recursion_depth: int = MAX_RECURSION_DEPTH
    enable_optional_syntax: bool = True
    enable_ident_escape_syntax: bool = False
    #: ``EnableHiddenAccumulatorName``; None: the default of :attr:`cel_go` (on from v0.23.2).
    enable_hidden_accumulator_name: bool | None = None
    #: The macros of ``cel.OptionalTypes``, ``ext.TwoVarComprehensions`` and ``ext.Lists`` (``sortBy``)
    #: besides the standard ones, for the libraries in :attr:`macro_libraries`.
    extended_macros: bool = True
    #: The libraries whose macros the parser expands (an environment's libraries); None: all of them.
    macro_libraries: tuple[str, ...] | None = None
    #: ``parser.AllMacros`` (cel-go's own tests) rather than ``cel.StandardMacros`` (``cel.NewEnv``, so
    #: Kubernetes): the former adds the two-argument ``existsOne`` (``parser.ExistsOneMacroNew``, v0.23.0+).
    all_macros: bool = False
    #: ``EnableVariadicOperatorASTs``: ``a && b && c`` as one call (off in Kubernetes).
    enable_variadic_operator_asts: bool = False
    #: The cel-go version whose parser this is (:mod:`crdtool.core.celgo.version`).
    cel_go: str = DEFAULT_CEL_GO

    @property
    def hidden_accumulator(self) -> bool:
        if self.enable_hidden_accumulator_name is None:
            return has(self.cel_go, "hidden_accumulator")
        return self.enable_hidden_accumulator_name

    @property
    def accumulator(self) -> str:
        return ACCUMULATOR if self.hidden_accumulator else LEGACY_ACCUMULATOR


DEFAULT_OPTIONS = ParserOptions()


# --- tokens ----------------------------------------------------------------------------------------

# Token types: the literal text for punctuation and keywords, symbolic names otherwise.
EOF = "<EOF>"
NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER, ESC_IDENTIFIER = (
    "NUM_FLOAT", "NUM_INT", "NUM_UINT", "STRING", "BYTES", "IDENTIFIER", "ESC_IDENTIFIER",
)
_TWO_CHAR = ("==", "!=", "<=", ">=", "&&", "||")
_ONE_CHAR = frozenset("<>[]{}().,-!?:+*/%")
_KEYWORDS = frozenset({"in", "true", "false", "null"})


@dataclass(frozen=True, slots=True)
class Token:
    type: str
    text: str
    start: int  # code-point offset
    line: int  # 1-based
    col: int  # 0-based, code points


@dataclass(frozen=True, slots=True)
class _LexError:
    start: int
    line: int
    col: int
    text: str


def _is_letter(c: str) -> bool:
    return ("a" <= c <= "z") or ("A" <= c <= "Z")


def _is_digit(c: str) -> bool:
    return "0" <= c <= "9"


def _is_hex(c: str) -> bool:
    return _is_digit(c) or ("a" <= c <= "f") or ("A" <= c <= "F")


def _run(s: str, i: int, pred: Callable[[str], bool]) -> int:
    j = i
    n = len(s)
    while j < n and pred(s[j]):
        j += 1
    return j


def _exponent(s: str, i: int) -> int:
    """Length of an EXPONENT at ``i`` (0 if none)."""
    if i < len(s) and s[i] in "eE":
        j = i + 1
        if j < len(s) and s[j] in "+-":
            j += 1
        k = _run(s, j, _is_digit)
        if k > j:
            return k - i
    return 0


def _number(s: str, i: int) -> tuple[str, int] | None:
    """The longest NUM_FLOAT / NUM_INT / NUM_UINT at ``i``: (type, length)."""
    best: tuple[str, int] | None = None

    def offer(kind: str, length: int) -> None:
        nonlocal best
        if length > 0 and (best is None or length > best[1]):
            best = (kind, length)

    n = len(s)
    if s[i] == ".":
        k = _run(s, i + 1, _is_digit)
        if k > i + 1:
            offer(NUM_FLOAT, k - i + _exponent(s, k))
        return best
    d = _run(s, i, _is_digit)
    if d == i:
        return None
    offer(NUM_INT, d - i)
    if d < n and s[d] in "uU":
        offer(NUM_UINT, d - i + 1)
    if d < n and s[d] == ".":
        k = _run(s, d + 1, _is_digit)
        if k > d + 1:
            offer(NUM_FLOAT, k - i + _exponent(s, k))
    e = _exponent(s, d)
    if e:
        offer(NUM_FLOAT, d - i + e)
    if s.startswith("0x", i):
        h = _run(s, i + 2, _is_hex)
        if h > i + 2:
            offer(NUM_INT, h - i)
            if h < n and s[h] in "uU":
                offer(NUM_UINT, h - i + 1)
    return best


def _escape_end(s: str, j: int) -> int:
    """After a backslash at ``j``: index past a valid ESC_SEQ, or ``-(index where it dies) - 1``."""
    n = len(s)
    k = j + 1
    if k >= n:
        return -k - 1
    c = s[k]
    if c in "abfnrtv\"'\\?`":
        return k + 1
    if c in "xX":
        for m in range(k + 1, k + 3):
            if m >= n or not _is_hex(s[m]):
                return -m - 1
        return k + 3
    if c == "u" or c == "U":
        width = 4 if c == "u" else 8
        for m in range(k + 1, k + 1 + width):
            if m >= n or not _is_hex(s[m]):
                return -m - 1
        return k + 1 + width
    if c in "0123":
        for m in range(k + 1, k + 3):
            if m >= n or not ("0" <= s[m] <= "7"):
                return -m - 1
        return k + 3
    return -k - 1


def _quoted(s: str, i: int, raw: bool) -> tuple[int, int]:
    """A quoted body starting at ``i`` (a quote): (accepted end or -1, index where the scan died)."""
    n = len(s)
    q = s[i]
    if s.startswith(q * 3, i):
        # The single-quoted alternative accepts the empty string ``''`` while the
        # triple-quoted one runs: longest match with fallback, as ANTLR's lexer.
        j = i + 3
        while j < n:
            if s.startswith(q * 3, j):
                return j + 3, j + 3
            if s[j] == "\\" and not raw:
                e = _escape_end(s, j)
                if e < 0:
                    return i + 2, -e - 1
                j = e
                continue
            j += 1
        return i + 2, n
    j = i + 1
    while j < n:
        c = s[j]
        if c == q:
            return j + 1, j + 1
        if c in "\n\r":
            return -1, j
        if c == "\\" and not raw:
            e = _escape_end(s, j)
            if e < 0:
                return -1, -e - 1
            j = e
            continue
        j += 1
    return -1, n


def _string_token(s: str, i: int) -> tuple[str, int, int] | None:
    """A STRING or BYTES token at ``i``: (type, accepted end or -1, died at); None if not a string start."""
    n = len(s)
    j = i
    kind = STRING
    if j < n and s[j] in "bB":
        kind = BYTES
        j += 1
    raw = False
    if j < n and s[j] in "rR":
        raw = True
        j += 1
    if j >= n or s[j] not in "'\"":
        return None
    end, died = _quoted(s, j, raw)
    return kind, end, died


#: The runs of characters :func:`_scan` takes whole (every pattern matches, possibly nothing): whitespace
#: (``WHITESPACE``), the rest of an identifier or keyword (``IDENTIFIER``: ASCII letters, digits, ``_``), and the
#: inside of an escaped identifier (``ESC_IDENTIFIER``: those and ``.``, ``/``, ``-``, space).
_WHITESPACE_RUN = re.compile(r"[\t \r\n\f]*")
_IDENTIFIER_RUN = re.compile(r"[A-Za-z0-9_]*")
_ESCAPED_RUN = re.compile(r"[A-Za-z0-9_./\- ]*")


def _scan(text: str, escaped_idents: bool = True) -> tuple[list[Token], list[_LexError]]:
    """ANTLR's lexer over CEL.g4: tokens on the default channel, and recognition errors. ``escaped_idents``: the
    grammar has ``ESC_IDENTIFIER`` (cel-go v0.23.2+); before, a backtick starts no token."""
    tokens: list[Token] = []
    errors: list[_LexError] = []
    n = len(text)
    i = 0
    line, line_start = 1, 0

    def advance_lines(a: int, b: int) -> None:
        nonlocal line, line_start
        k = text.count("\n", a, b)
        if k:
            line += k
            line_start = text.rfind("\n", a, b) + 1

    while i < n:
        c = text[i]
        start_line, start_col = line, i - line_start
        if c in "\t \r\n\f":
            j = _WHITESPACE_RUN.match(text, i).end()  # type: ignore[union-attr]
            advance_lines(i, j)
            i = j
            continue
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
            continue
        kind: str | None = None
        length = 0
        died = i  # index where every alternative died
        two = text[i : i + 2]
        if two in _TWO_CHAR:
            kind, length = two, 2
        elif c in _ONE_CHAR:
            kind, length = c, 1
        elif c in "=&|":
            died = i + 1  # '=' '&' '|' only start two-character tokens
        num = _number(text, i) if (_is_digit(c) or c == ".") else None
        if num is not None and num[1] > length:
            kind, length = num
        st = _string_token(text, i) if c in "'\"bBrR" else None
        if st is not None:
            skind, end, sdied = st
            if end > 0 and end - i > length:
                kind, length = skind, end - i
            died = max(died, sdied)
        if _is_letter(c) or c == "_":
            j = _IDENTIFIER_RUN.match(text, i).end()  # type: ignore[union-attr]
            if j - i > length:
                word = text[i:j]
                kind, length = (word if word in _KEYWORDS else IDENTIFIER), j - i
        elif c == "`" and escaped_idents:
            j = _ESCAPED_RUN.match(text, i + 1).end()  # type: ignore[union-attr]
            if j > i + 1 and j < n and text[j] == "`":
                kind, length = ESC_IDENTIFIER, j + 1 - i
            else:
                died = max(died, j)
        if kind is not None:
            tokens.append(Token(kind, text[i : i + length], i, start_line, start_col))
            advance_lines(i, i + length)
            i += length
            continue
        # LexerNoViableAltException: the text from the token start to the char
        # where the simulation died (inclusive); recovery skips that char.
        errors.append(_LexError(i, start_line, start_col, text[i : died + 1]))
        stop = died + 1 if died < n else n
        advance_lines(i, stop)
        i = stop
    tokens.append(Token(EOF, "<EOF>", n, line, n - line_start))
    return tokens, errors


# --- concrete syntax tree ------------------------------------------------------------------------
#
# Tuples mirroring the parse-tree contexts cel-go's visitor sees after ``unnest``:
#   ("ternary", cond, q_tok, if_true, if_false)      ("or"|"and", [terms], [op_toks])
#   ("rel"|"calc", lhs, op_tok, rhs)                 ("not"|"neg", [op_toks], member)
#   ("select", operand, dot_tok, opt_tok|None, id_tok)
#   ("mcall", operand, id_tok, open_tok, [args])     ("index", operand, op_tok, opt_tok|None, index)
#   ("ident", dot_tok|None, id_tok)                  ("gcall", dot_tok|None, id_tok, open_tok, [args])
#   ("list", op_tok, [(opt_tok|None, expr)])         ("map", op_tok, [(opt_tok|None, key, col_tok, value)])
#   ("msg", dot_tok|None, [id_toks], op_tok, [(opt_tok|None, field_tok, col_tok, value)])
#   ("lit", kind, tok, sign_tok|None)


class _SyntaxError(Exception):
    def __init__(self, token: Token, message: str, after_optional_select: bool = False,
                 insertable: bool = False) -> None:
        super().__init__(message)
        self.token = token
        self.message = message
        #: the offending token is where a field name must follow ``.?``
        self.after_optional_select = after_optional_select
        #: the offending token could follow the missing field name (ANTLR's single-token insertion, which the
        #: grammar before ESC_IDENTIFIER allows after ``.?``: ``missing IDENTIFIER at 'X'``)
        self.insertable = insertable


class _RecursionLimit(Exception):
    pass


_PRIMARY_START = (
    "{'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}"
)


#: Tokens that may follow a member expression (operators, selection, indexing, the conditional).
_FOLLOW_MEMBER = frozenset({"<", "<=", ">=", ">", "==", "!=", "in", "&&", "||", "+", "-", "*", "/", "%", "?", ":",
                            ".", "["})


class _Rule:
    """The context manager of one grammar rule of a :class:`_Parser`: entering counts one more nesting of the rule
    in the parser's ``depth`` (:class:`_RecursionLimit` beyond its ``max_depth``, nothing counted then), leaving
    one less. Stateless beyond the parser's counts, so one serves every nesting of its rule."""

    __slots__ = ("depth", "max_depth", "name")

    def __init__(self, parser: _Parser, name: str) -> None:
        self.depth = parser.depth
        self.max_depth = parser.max_depth
        self.name = name

    def __enter__(self) -> None:
        d = self.depth.get(self.name, 0) + 1
        if d > self.max_depth:
            raise _RecursionLimit()
        self.depth[self.name] = d

    def __exit__(self, *exc: object) -> None:
        self.depth[self.name] -= 1


class _Parser:
    """Recursive descent over CEL.g4 with ANTLR's per-rule recursion listener."""

    def __init__(self, tokens: list[Token], max_depth: int) -> None:
        self.toks = tokens
        self.pos = 0
        self.max_depth = max_depth
        self.depth: dict[str, int] = {}
        self._rules: dict[str, _Rule] = {}

    # -- helpers --
    def peek(self, k: int = 0) -> Token:
        return self.toks[min(self.pos + k, len(self.toks) - 1)]

    def at(self, t: str) -> bool:
        return self.toks[self.pos].type == t

    def take(self) -> Token:
        tok = self.toks[self.pos]
        if tok.type != EOF:
            self.pos += 1
        return tok

    def can_follow_member(self, tok: Token) -> bool:
        """Whether ``tok`` may follow a complete member expression here (an operator, a selection or index, a
        closer of a bracket opened before, or the end of the input outside brackets): ANTLR then inserts a missing
        token rather than reporting a mismatch."""
        depth = 0
        for t in self.toks[: self.pos]:
            if t.type in ("(", "[", "{"):
                depth += 1
            elif t.type in (")", "]", "}"):
                depth -= 1
        if tok.type == EOF:
            return depth <= 0
        if tok.type in (")", "]", "}", ","):
            return depth > 0
        return tok.type in _FOLLOW_MEMBER

    def expect(self, t: str, expecting: str) -> Token:
        tok = self.peek()
        if tok.type != t:
            raise _SyntaxError(tok, f"mismatched input {_tok_display(tok)} expecting {expecting}")
        return self.take()

    def rule(self, name: str) -> _Rule:
        """``with self.rule(name):`` around a grammar rule: its nesting counted, :class:`_RecursionLimit` raised
        beyond ``max_depth`` (one reusable context manager per rule name: nesting lives in ``depth``)."""
        ctx = self._rules.get(name)
        if ctx is None:
            ctx = self._rules[name] = _Rule(self, name)
        return ctx

    # -- grammar --
    def start(self) -> Any:
        with self.rule("start"):
            e = self.expr()
            tok = self.peek()
            if tok.type != EOF:
                raise _SyntaxError(tok, f"extraneous input {_tok_display(tok)} expecting <EOF>")
            return e

    def expr(self) -> Any:
        with self.rule("expr"):
            cond = self.conditional_or()
            if not self.at("?"):
                return cond
            q = self.take()
            if_true = self.conditional_or()
            self.expect(":", "':'")
            if_false = self.expr()
            return ("ternary", cond, q, if_true, if_false)

    def conditional_or(self) -> Any:
        with self.rule("conditionalOr"):
            terms = [self.conditional_and()]
            ops: list[Token] = []
            while self.at("||"):
                ops.append(self.take())
                terms.append(self.conditional_and())
            return terms[0] if not ops else ("or", terms, ops)

    def conditional_and(self) -> Any:
        with self.rule("conditionalAnd"):
            terms = [self.relation()]
            ops: list[Token] = []
            while self.at("&&"):
                ops.append(self.take())
                terms.append(self.relation())
            return terms[0] if not ops else ("and", terms, ops)

    def relation(self) -> Any:
        with self.rule("relation"):
            lhs = self.calc(0)
            while self.peek().type in ("<", "<=", ">=", ">", "==", "!=", "in"):
                op = self.take()
                with self.rule("relation"):
                    rhs = self.calc(0)
                lhs = ("rel", lhs, op, rhs)
            return lhs

    def calc(self, min_prec: int) -> Any:
        with self.rule("calc"):
            lhs = self.unary()
            while True:
                t = self.peek().type
                if t in ("*", "/", "%") and min_prec <= 2:
                    op = self.take()
                    rhs = self.calc(3)
                elif t in ("+", "-") and min_prec <= 1:
                    op = self.take()
                    rhs = self.calc(2)
                else:
                    return lhs
                lhs = ("calc", lhs, op, rhs)

    def unary(self) -> Any:
        with self.rule("unary"):
            t = self.peek().type
            if t == "!":
                ops = []
                while self.at("!"):
                    ops.append(self.take())
                return ("not", ops, self.member())
            if t == "-":
                k = 0
                while self.peek(k).type == "-":
                    k += 1
                # ANTLR prefers the first alternative (member: a signed literal)
                # for a single '-' before a number; a '(ops+='-')+' loop
                # prefers to continue, so two or more all become operators.
                if k == 1 and self.peek(1).type in (NUM_INT, NUM_FLOAT):
                    return self.member()
                ops = [self.take() for _ in range(k)]
                return ("neg", ops, self.member())
            return self.member()

    def member(self) -> Any:
        with self.rule("member"):
            operand = self.primary()
            while True:
                t = self.peek().type
                if t == ".":
                    dot = self.take()
                    opt = self.take() if self.at("?") else None
                    if opt is None and self.at(IDENTIFIER) and self.peek(1).type == "(":
                        ident = self.take()
                        open_tok = self.take()
                        args = self.expr_list(")")
                        self.expect(")", "')'")
                        operand = ("mcall", operand, ident, open_tok, args)
                        continue
                    with self.rule("escapeIdent"):
                        ident = self.peek()
                        if ident.type not in (IDENTIFIER, ESC_IDENTIFIER):
                            insertable = opt is not None and self.can_follow_member(ident)
                            if ident.type in ("true", "false", "null"):
                                raise _SyntaxError(ident, f"mismatched input '{ident.text}' expecting IDENTIFIER",
                                                   opt is not None, insertable)
                            raise _SyntaxError(ident, f"no viable alternative at input '.{ident.text}'",
                                               opt is not None, insertable)
                        self.take()
                    operand = ("select", operand, dot, opt, ident)
                elif t == "[":
                    op = self.take()
                    opt = self.take() if self.at("?") else None
                    index = self.expr()
                    self.expect("]", "']'")
                    operand = ("index", operand, op, opt, index)
                else:
                    return operand

    def primary(self) -> Any:
        with self.rule("primary"):
            tok = self.peek()
            t = tok.type
            if t in (".", IDENTIFIER) and (t == IDENTIFIER or self.peek(1).type == IDENTIFIER):
                dot = self.take() if t == "." else None
                ident = self.take()
                if self.at("("):
                    open_tok = self.take()
                    args = self.expr_list(")")
                    self.expect(")", "')'")
                    return ("gcall", dot, ident, open_tok, args)
                # CreateMessage: ids ('.' ids)* '{'
                k = 0
                while self.peek(k).type == "." and self.peek(k + 1).type == IDENTIFIER:
                    k += 2
                if self.peek(k).type == "{":
                    ids = [ident]
                    for _ in range(k // 2):
                        self.take()
                        ids.append(self.take())
                    op = self.take()
                    fields = self.field_initializers()
                    self.expect("}", "'}'")
                    return ("msg", dot, ids, op, fields)
                return ("ident", dot, ident)
            if t == "(":
                self.take()
                e = self.expr()
                self.expect(")", "')'")
                return e
            if t == "[":
                op = self.take()
                elems: list[tuple[Token | None, Any]] = []
                if not self.at("]") and not self.at(","):
                    with self.rule("listInit"):
                        elems.append(self.opt_expr())
                        while self.at(",") and self.peek(1).type != "]":
                            self.take()
                            elems.append(self.opt_expr())
                if self.at(","):
                    self.take()
                self.expect("]", "']'")
                return ("list", op, elems)
            if t == "{":
                op = self.take()
                entries: list[tuple[Token | None, Any, Token, Any]] = []
                if not self.at("}") and not self.at(","):
                    with self.rule("mapInitializerList"):
                        while True:
                            opt, key = self.opt_expr()
                            col = self.expect(":", "':'")
                            entries.append((opt, key, col, self.expr()))
                            if self.at(",") and self.peek(1).type != "}":
                                self.take()
                                continue
                            break
                if self.at(","):
                    self.take()
                self.expect("}", "'}'")
                return ("map", op, entries)
            return self.literal()

    def expr_list(self, closer: str) -> list[Any]:
        if self.at(closer):
            return []
        with self.rule("exprList"):
            args = [self.expr()]
            while self.at(","):
                self.take()
                args.append(self.expr())
            return args

    def opt_expr(self) -> tuple[Token | None, Any]:
        with self.rule("optExpr"):
            opt = self.take() if self.at("?") else None
            return opt, self.expr()

    def field_initializers(self) -> list[tuple[Token | None, Token, Token, Any]]:
        fields: list[tuple[Token | None, Token, Token, Any]] = []
        if self.at("}") or self.at(","):
            if self.at(","):
                self.take()
            return fields
        with self.rule("fieldInitializerList"):
            while True:
                with self.rule("optField"):
                    opt = self.take() if self.at("?") else None
                    with self.rule("escapeIdent"):
                        name = self.peek()
                        if name.type not in (IDENTIFIER, ESC_IDENTIFIER):
                            raise _SyntaxError(
                                name,
                                f"mismatched input {_tok_display(name)} expecting {{'}}', ',', '?', IDENTIFIER, ESC_IDENTIFIER}}",
                            )
                        self.take()
                col = self.expect(":", "':'")
                fields.append((opt, name, col, self.expr()))
                if self.at(",") and self.peek(1).type != "}":
                    self.take()
                    continue
                break
        if self.at(","):
            self.take()
        return fields

    def literal(self) -> Any:
        with self.rule("literal"):
            tok = self.peek()
            t = tok.type
            if t == "-" and self.peek(1).type in (NUM_INT, NUM_FLOAT):
                sign = self.take()
                num = self.take()
                return ("lit", num.type, num, sign)
            if t in (NUM_INT, NUM_UINT, NUM_FLOAT, STRING, BYTES, "true", "false", "null"):
                self.take()
                return ("lit", t, tok, None)
            raise _SyntaxError(tok, f"mismatched input {_tok_display(tok)} expecting {_PRIMARY_START}")


def _tok_display(tok: Token) -> str:
    """ANTLR ``GetTokenErrorDisplay``."""
    s = tok.text if tok.type != EOF else "<EOF>"
    return "'" + s.replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r") + "'"


# --- unescape.go -----------------------------------------------------------------------------------


class _UnescapeError(ValueError):
    pass


def unescape(value: str, is_bytes: bool, valid_rune: bool = True) -> str | bytes:
    """``parser.unescape``: the value of a string (or, with ``is_bytes``, bytes) literal token.

    ``value`` excludes the ``b`` prefix of bytes literals. Raises
    ``ValueError`` with upstream's message. ``valid_rune``: cel-go v0.23.2+ (``!utf8.ValidRune(v)`` is ``invalid
    unicode code point``); before, only ``v > utf8.MaxRune`` (a Go ``rune``, so 8 hex digits may wrap negative) is
    an error (``unable to unescape string``), and a surrogate or negative rune is encoded as U+FFFD.
    """
    value = value.replace("\r\n", "\n").replace("\r", "\n")
    n = len(value)
    if n < 2:
        raise _UnescapeError("unable to unescape string")
    raw = False
    if value[0] in "rR":
        value = value[1:]
        n = len(value)
        raw = True
    if value[0] != value[n - 1] or value[0] not in "\"'":
        raise _UnescapeError("unable to unescape string")
    if n >= 6:
        if value.startswith("'''"):
            if not value.endswith("'''"):
                raise _UnescapeError("unable to unescape string")
            value = '"' + value[3 : n - 3] + '"'
        elif value.startswith('"""'):
            if not value.endswith('"""'):
                raise _UnescapeError("unable to unescape string")
            value = '"' + value[3 : n - 3] + '"'
        n = len(value)
    value = value[1 : n - 1]
    if raw or "\\" not in value:
        return value.encode("utf-8") if is_bytes else value
    out = bytearray()
    i = 0
    while i < len(value):
        c = value[i]
        if c != "\\":
            out += c.encode("utf-8")
            i += 1
            continue
        if i + 1 >= len(value):
            raise _UnescapeError("unable to unescape string, found '\\' as last character")
        c = value[i + 1]
        i += 2
        simple = {"a": 7, "b": 8, "f": 12, "n": 10, "r": 13, "t": 9, "v": 11, "\\": 92, "'": 39, '"': 34, "`": 96, "?": 63}
        if c in simple:
            out.append(simple[c])
            continue
        if c in "xXuU":
            width = 2 if c in "xX" else 4 if c == "u" else 8
            encode = not is_bytes if c in "xX" else True
            if c in "uU" and is_bytes:
                raise _UnescapeError("unable to unescape string")
            digits = value[i : i + width]
            if len(digits) < width or not all(_is_hex(d) for d in digits):
                raise _UnescapeError("unable to unescape string")
            v = int(digits, 16)
            i += width
            if not is_bytes and valid_rune and (0xD800 <= v <= 0xDFFF or v > 0x10FFFF):
                raise _UnescapeError("invalid unicode code point")
            if not is_bytes and not valid_rune:
                v = v - (1 << 32) if v >= 1 << 31 else v  # rune is int32
                if v > 0x10FFFF:
                    raise _UnescapeError("unable to unescape string")
                if v < 0 or 0xD800 <= v <= 0xDFFF:
                    v = 0xFFFD  # utf8.AppendRune of an invalid rune
            if v < 0x80 or not encode:
                out.append(v & 0xFF)
            else:
                out += chr(v).encode("utf-8")
            continue
        if c in "0123":
            digits = value[i : i + 2]
            if len(digits) < 2 or not all("0" <= d <= "7" for d in digits):
                raise _UnescapeError("unable to unescape octal sequence in string")
            v = (ord(c) - 48) * 64 + int(digits, 8)
            i += 2
            if v < 0x80 or is_bytes:
                out.append(v)
            else:
                out += chr(v).encode("utf-8")
            continue
        raise _UnescapeError("unable to unescape string")
    if is_bytes:
        return bytes(out)
    return out.decode("utf-8", errors="replace")


# --- the visitor (parser.go) ---------------------------------------------------------------------


@dataclass
class ParseResult:
    """The outcome of :func:`parse`.

    Attributes:
        expr: the root expression, or None when there are errors.
        info: source positions of every expression id.
        issues: errors (cel-go wording), in report order.
        total_errors: how many errors upstream counts (issues beyond 100 are dropped).
        next_id: the next free expression id.
    """

    expr: A.Expr | None
    info: A.SourceInfo
    issues: list[A.Issue]
    total_errors: int = 0
    next_id: int = 1

    def error_text(self) -> str:
        """``Issues.String()`` of the errors."""
        return A.format_issues(self.issues, self.info, self.total_errors or None)


class _VisitorRecursion(Exception):
    pass


_MacroExpander = Callable[["_Visitor", int, "A.Expr | None", "list[A.Expr]"], "A.Expr | None"]


class _MacroError(Exception):
    def __init__(self, expr_id: int, message: str) -> None:
        super().__init__(message)
        self.expr_id = expr_id
        self.message = message


class _Visitor:
    """cel-go's ``parser`` visitor plus ``parserHelper``/``exprHelper``: ids, offsets, macros."""

    def __init__(self, info: A.SourceInfo, options: ParserOptions) -> None:
        self.info = info
        self.options = options
        self.accu = options.accumulator
        #: the parser's own errors locate with the ``lineOffset < offset`` loop at cel-go v0.20.1 only
        self.strict_locations = has(options.cel_go, "location_strict_lt_parser")
        self.next_id = 1
        self.issues: list[A.Issue] = []
        self.error_count = 0
        self.depth = 0
        self.macro_id = 0  # the call id while a macro expands (exprHelper.id)

    def has_macro(self, key: tuple[str, int, bool]) -> bool:
        """Whether the environment has the macro ``(function, argument count, receiver style)``."""
        if key in _STANDARD_MACROS:
            return True
        opts = self.options
        if key in _ALL_MACROS_ONLY:
            return opts.all_macros and has(opts.cel_go, "exists_one_macro_new")
        if not opts.extended_macros:
            return False
        lib = _LIBRARY_MACROS.get(key)
        return opts.macro_libraries is None or lib in opts.macro_libraries

    # -- parserHelper --
    def id_at(self, offset: int) -> int:
        eid = self.next_id
        self.info.offsets[eid] = (offset, offset)
        self.next_id += 1
        return eid

    def tok_id(self, tok: Token) -> int:
        eid = self.next_id
        self.info.offsets[eid] = (tok.start, tok.start + len(tok.text))
        self.next_id += 1
        return eid

    def delete_id(self, eid: int) -> None:
        self.info.offsets.pop(eid, None)
        if eid == self.next_id - 1:
            self.next_id -= 1

    def report(self, offset: int, message: str) -> A.Expr:
        """``parser.reportError``: a fresh unspecified expr and an error at ``offset``."""
        eid = self.id_at(offset)
        line, col = self.info.location_by_offset(offset, self.strict_locations) if offset >= 0 else (-1, -1)
        self.error_count += 1
        if self.error_count <= A.MAX_ERRORS_TO_REPORT:
            self.issues.append(A.Issue(line, col, message, eid))
        return A.Expr(eid, A.UNSPECIFIED)

    def report_at_location(self, loc: tuple[int, int], message: str) -> A.Expr:
        offset = self.info.compute_offset(loc[0], loc[1]) if loc[0] >= 0 else -1
        return self.report(offset, message)

    # -- exprHelper (macro expansion) --
    def macro_id_next(self) -> int:
        """``exprHelper.nextMacroID``: a new id at the macro call's location."""
        loc = self.info.start_location(self.macro_id, False)
        offset = self.info.compute_offset(loc[0], loc[1]) if loc[0] >= 0 else -1
        return self.id_at(offset)

    def m_literal(self, lit: str, value: Any) -> A.Expr:
        return A.new_literal(self.macro_id_next(), lit, value)

    def m_ident(self, name: str) -> A.Expr:
        return A.new_ident(self.macro_id_next(), name)

    def m_accu(self) -> A.Expr:
        return A.new_ident(self.macro_id_next(), self.accu)

    def m_call(self, fn: str, *args: A.Expr) -> A.Expr:
        return A.new_call(self.macro_id_next(), fn, list(args))

    def m_member_call(self, fn: str, target: A.Expr, *args: A.Expr) -> A.Expr:
        return A.new_call(self.macro_id_next(), fn, list(args), target)

    def m_list(self, *elems: A.Expr) -> A.Expr:
        return A.new_list(self.macro_id_next(), list(elems))

    def m_map(self) -> A.Expr:
        return A.new_map(self.macro_id_next(), [])

    def m_comprehension(
        self, rng: A.Expr, v1: str, v2: str, init: A.Expr, cond: A.Expr, step: A.Expr, result: A.Expr,
        accu: str | None = None,
    ) -> A.Expr:
        return A.new_comprehension(
            self.macro_id_next(), rng, v1, v2, accu or self.accu, init, cond, step, result
        )

    def m_copy(self, e: A.Expr) -> A.Expr:
        """``exprHelper.Copy``: a deep copy with fresh ids at the original offsets."""
        rng = self.info.offsets.get(e.id, (0, 0))
        cid = self.next_id
        self.info.offsets[cid] = rng
        self.next_id += 1
        k = e.kind
        if k == A.LITERAL:
            return A.new_literal(cid, e.lit, e.value)
        if k == A.IDENT:
            return A.new_ident(cid, e.name)
        if k == A.SELECT:
            assert e.operand is not None
            return A.new_select(cid, self.m_copy(e.operand), e.name, e.test_only)
        if k == A.CALL:
            args = [self.m_copy(a) for a in e.args]
            target = self.m_copy(e.target) if e.target is not None else None
            return A.new_call(cid, e.name, args, target)
        if k == A.LIST:
            return A.new_list(cid, [self.m_copy(a) for a in e.args], e.optional_indices)
        if k == A.MAP:
            entries = []
            for en in e.entries:
                eid = self.macro_id_next()
                assert en.key is not None
                entries.append(A.Entry(eid, self.m_copy(en.value), key=self.m_copy(en.key), optional=en.optional))
            return A.new_map(cid, entries)
        if k == A.STRUCT:
            fields = []
            for en in e.entries:
                eid = self.macro_id_next()
                fields.append(A.Entry(eid, self.m_copy(en.value), field=en.field, optional=en.optional))
            return A.new_struct(cid, e.name, fields)
        if k == A.COMPREHENSION:
            assert e.iter_range and e.accu_init and e.loop_condition and e.loop_step and e.result
            return A.new_comprehension(
                cid, self.m_copy(e.iter_range), e.iter_var, e.iter_var2, e.accu_var, self.m_copy(e.accu_init),
                self.m_copy(e.loop_condition), self.m_copy(e.loop_step), self.m_copy(e.result),
            )
        return A.Expr(cid, A.UNSPECIFIED)

    # -- visiting --
    def counted(self) -> None:
        self.depth += 1
        if self.depth > self.options.max_recursion_depth:
            raise _VisitorRecursion()

    def visit(self, node: Any) -> A.Expr:  # noqa: C901 - one case per context kind
        kind = node[0]
        if kind == "ternary":
            self.counted()
            try:
                _, cond, q, if_true, if_false = node
                result = self.visit(cond)
                op_id = self.tok_id(q)
                t = self.visit(if_true)
                f = self.visit(if_false)
                return self.global_call_or_macro(op_id, "_?_:_", [result, t, f])
            finally:
                self.depth -= 1
        if kind in ("or", "and"):
            _, terms, ops = node
            fn = "_||_" if kind == "or" else "_&&_"
            exprs = [self.visit(terms[0])]
            op_ids = []
            for i, op in enumerate(ops):
                exprs.append(self.visit(terms[i + 1]))
                op_ids.append(self.tok_id(op))
            if self.options.enable_variadic_operator_asts:
                return A.new_call(op_ids[0], fn, exprs)
            return _balanced(fn, exprs, op_ids, 0, len(op_ids) - 1)
        if kind in ("rel", "calc"):
            self.counted()
            try:
                _, lhs, op, rhs = node
                left = self.visit(lhs)
                op_id = self.tok_id(op)
                right = self.visit(rhs)
                return self.global_call_or_macro(op_id, _BINARY[op.type], [left, right])
            finally:
                self.depth -= 1
        if kind in ("not", "neg"):
            _, ops, member = node
            if len(ops) % 2 == 0:
                return self.visit(member)
            op_id = self.tok_id(ops[0])
            target = self.visit(member)
            return self.global_call_or_macro(op_id, "!_" if kind == "not" else "-_", [target])
        if kind == "select":
            self.counted()
            try:
                return self.visit_select(node)
            finally:
                self.depth -= 1
        if kind == "mcall":
            self.counted()
            try:
                _, operand, ident, open_tok, args = node
                target = self.visit(operand)
                op_id = self.tok_id(open_tok)
                arg_exprs = [self.visit(a) for a in args]
                return self.receiver_call_or_macro(op_id, ident.text, target, arg_exprs)
            finally:
                self.depth -= 1
        if kind == "index":
            self.counted()
            try:
                _, operand, op, opt, index = node
                target = self.visit(operand)
                op_id = self.tok_id(op)
                idx = self.visit(index)
                if opt is not None and not self.options.enable_optional_syntax:
                    return self.report(op.start, "unsupported syntax '[?'")
                return self.global_call_or_macro(op_id, "_[?_]" if opt is not None else "_[_]", [target, idx])
            finally:
                self.depth -= 1
        if kind == "ident":
            _, dot, ident = node
            name = "." if dot is not None else ""
            if ident.text in _RESERVED_IDS:
                return self.report((dot or ident).start, f"reserved identifier: {ident.text}")
            return A.new_ident(self.tok_id(ident), name + ident.text)
        if kind == "gcall":
            _, dot, ident, open_tok, args = node
            name = "." if dot is not None else ""
            if ident.text in _RESERVED_IDS:
                return self.report((dot or ident).start, f"reserved identifier: {ident.text}")
            op_id = self.tok_id(open_tok)
            arg_exprs = [self.visit(a) for a in args]
            return self.global_call_or_macro(op_id, name + ident.text, arg_exprs)
        if kind == "list":
            _, op, elems = node
            list_id = self.tok_id(op)
            elements: list[A.Expr] = []
            optionals: list[int] = []
            for i, (opt, e) in enumerate(elems):
                elements.append(self.visit(e))
                if opt is not None:
                    if not self.options.enable_optional_syntax:
                        self.report(opt.start, "unsupported syntax '?'")
                        continue
                    optionals.append(i)
            return A.new_list(list_id, elements, optionals)
        if kind == "map":
            _, op, entries = node
            map_id = self.tok_id(op)
            out = []
            for opt, key, col, value in entries:
                col_id = self.tok_id(col)
                if opt is not None and not self.options.enable_optional_syntax:
                    self.report(opt.start, "unsupported syntax '?'")
                    continue
                k = self.visit(key)
                v = self.visit(value)
                out.append(A.Entry(col_id, v, key=k, optional=opt is not None))
            return A.new_map(map_id, out)
        if kind == "msg":
            _, dot, ids, op, fields = node
            name = ("." if dot is not None else "") + ".".join(t.text for t in ids)
            obj_id = self.tok_id(op)
            out_fields = []
            list_start = (fields[0][0] or fields[0][1]).start if fields else op.start
            for opt, field_tok, col, value in fields:
                init_id = self.tok_id(col)
                if opt is not None and not self.options.enable_optional_syntax:
                    self.report(opt.start, "unsupported syntax '?'")
                    continue
                field_name = field_tok.text
                if field_tok.type == ESC_IDENTIFIER:
                    if not self.options.enable_ident_escape_syntax:
                        self.report(list_start, "unsupported syntax: '`'")
                        continue
                    field_name = field_name[1:-1]
                out_fields.append(A.Entry(init_id, self.visit(value), field=field_name, optional=opt is not None))
            return A.new_struct(obj_id, name, out_fields)
        if kind == "lit":
            return self.visit_literal(node)
        raise AssertionError(kind)  # pragma: no cover

    def visit_select(self, node: Any) -> A.Expr:
        _, operand, dot, opt, ident = node
        target = self.visit(operand)
        field = ident.text
        if ident.type == ESC_IDENTIFIER:
            if self.options.enable_ident_escape_syntax:
                field = field[1:-1]
            else:
                self.report(ident.start, "unsupported syntax: '`'")
                field = ""
        if opt is not None:
            if not self.options.enable_optional_syntax:
                return self.report(dot.start, "unsupported syntax '.?'")
            lit = A.new_literal(self.tok_id(ident), A.LIT_STRING, field)
            return A.new_call(self.tok_id(dot), "_?._", [target, lit])
        return A.new_select(self.tok_id(dot), target, field)

    def visit_literal(self, node: Any) -> A.Expr:
        _, kind, tok, sign = node
        start = (sign or tok).start
        text = tok.text
        if kind == NUM_INT:
            body, base = (text[2:], 16) if text.startswith("0x") else (text, 10)
            try:
                v = int((sign.text if sign else "") + body, base)
            except ValueError:  # pragma: no cover - the lexer guarantees digits
                v = None
            if v is None or not -(1 << 63) <= v < (1 << 63):
                return self.report(start, "invalid int literal")
            return A.new_literal(self.id_at(start), A.LIT_INT, v)
        if kind == NUM_UINT:
            body = text[:-1]
            body, base = (body[2:], 16) if body.startswith("0x") else (body, 10)
            v = int(body, base)
            if v >= 1 << 64:
                return self.report(start, "invalid uint literal")
            return A.new_literal(self.id_at(start), A.LIT_UINT, v)
        if kind == NUM_FLOAT:
            f = float((sign.text if sign else "") + text)
            if math.isinf(f):
                return self.report(start, "invalid double literal")
            return A.new_literal(self.id_at(start), A.LIT_DOUBLE, f)
        if kind in (STRING, BYTES):
            is_bytes = kind == BYTES
            try:
                value: Any = unescape(text[1:] if is_bytes else text, is_bytes,
                                      has(self.options.cel_go, "unescape_valid_rune"))
            except _UnescapeError as exc:
                self.report(start, str(exc))
                value = text.encode("utf-8") if is_bytes else text
            return A.new_literal(self.id_at(start), A.LIT_BYTES if is_bytes else A.LIT_STRING, value)
        if kind in ("true", "false"):
            return A.new_literal(self.id_at(start), A.LIT_BOOL, kind == "true")
        return A.new_literal(self.id_at(start), A.LIT_NULL, None)

    # -- macros --
    def global_call_or_macro(self, expr_id: int, fn: str, args: list[A.Expr]) -> A.Expr:
        out = self.expand_macro(expr_id, fn, None, args)
        if out is not None:
            return out
        return A.new_call(expr_id, fn, args)

    def receiver_call_or_macro(self, expr_id: int, fn: str, target: A.Expr, args: list[A.Expr]) -> A.Expr:
        out = self.expand_macro(expr_id, fn, target, args)
        if out is not None:
            return out
        return A.new_call(expr_id, fn, args, target)

    def expand_macro(self, expr_id: int, fn: str, target: A.Expr | None, args: list[A.Expr]) -> A.Expr | None:
        key = (fn, len(args), target is not None)
        expander = _MACROS.get(key)
        if expander is None or not self.has_macro(key):
            return None
        saved = self.macro_id
        self.macro_id = expr_id
        try:
            expr = expander(self, expr_id, target, args)
        except _MacroError as err:
            loc = self.info.start_location(err.expr_id, self.strict_locations)
            if loc[0] < 0:
                loc = self.info.start_location(expr_id, self.strict_locations)
            self.delete_id(expr_id)
            return self.report_at_location(loc, err.message)
        finally:
            self.macro_id = saved
        if expr is None:
            return None
        self.delete_id(expr_id)
        return expr


_BINARY = {
    "<": "_<_", "<=": "_<=_", ">=": "_>=_", ">": "_>_", "==": "_==_", "!=": "_!=_", "in": "@in",
    "*": "_*_", "/": "_/_", "%": "_%_", "+": "_+_", "-": "_-_",
}


def _balanced(fn: str, terms: list[A.Expr], ops: list[int], lo: int, hi: int) -> A.Expr:
    """``logicManager.balancedTree``."""
    mid = (lo + hi + 1) // 2
    left = terms[mid] if mid == lo else _balanced(fn, terms, ops, lo, mid - 1)
    right = terms[mid + 1] if mid == hi else _balanced(fn, terms, ops, mid + 1, hi)
    return A.new_call(ops[mid], fn, [left, right])


# --- macro expanders (macro.go, cel/library.go, ext/comprehensions.go, ext/lists.go) -------------------


def _ident_name(e: A.Expr) -> str | None:
    return e.name if e.kind == A.IDENT else None


def _iter_var(v: _Visitor, arg: A.Expr, message: str) -> str:
    name = _ident_name(arg)
    if name is None:
        raise _MacroError(arg.id, message)
    # parser/macro.go@v0.23.2 makeQuantifier/MakeMap/MakeFilter; no such check before
    if has(v.options.cel_go, "hidden_accumulator") and name in (v.accu, LEGACY_ACCUMULATOR):
        raise _MacroError(arg.id, "iteration variable overwrites accumulator variable")
    return name


def _make_has(v: _Visitor, eid: int, target: A.Expr | None, args: list[A.Expr]) -> A.Expr | None:
    arg = args[0]
    if arg.kind == A.SELECT:
        assert arg.operand is not None
        return A.new_select(v.macro_id_next(), arg.operand, arg.name, True)
    raise _MacroError(arg.id, "invalid argument to has() macro")


def _quantifier_parts(v: _Visitor, kind: str, pred: A.Expr) -> tuple[A.Expr, A.Expr, A.Expr, A.Expr]:
    """Accumulator init, loop condition, step and result of ``all``/``exists``/``exists_one``.

    The same for the one- and two-variable forms (cel-go ``parser/macro.go``
    ``MakeAll``/``MakeExists``/``MakeExistsOne`` and ``ext/comprehensions.go``
    ``quantifierAll``/``quantifierExists``/``quantifierExistsOne``); ids are
    allocated in cel-go's order.
    """
    if kind == "all":
        return (v.m_literal(A.LIT_BOOL, True), v.m_call("@not_strictly_false", v.m_accu()),
                v.m_call("_&&_", v.m_accu(), pred), v.m_accu())
    if kind == "exists":
        return (v.m_literal(A.LIT_BOOL, False), v.m_call("@not_strictly_false", v.m_call("!_", v.m_accu())),
                v.m_call("_||_", v.m_accu(), pred), v.m_accu())
    init = v.m_literal(A.LIT_INT, 0)
    cond = v.m_literal(A.LIT_BOOL, True)
    step = v.m_call("_?_:_", pred, v.m_call("_+_", v.m_accu(), v.m_literal(A.LIT_INT, 1)), v.m_accu())
    return init, cond, step, v.m_call("_==_", v.m_accu(), v.m_literal(A.LIT_INT, 1))


def _quantifier(kind: str) -> _MacroExpander:
    def expand(v: _Visitor, eid: int, target: A.Expr | None, args: list[A.Expr]) -> A.Expr | None:
        assert target is not None
        name = _iter_var(v, args[0], "argument must be a simple name")
        pred = args[1]
        init, cond, step, result = _quantifier_parts(v, kind, pred)
        return v.m_comprehension(target, name, "", init, cond, step, result)

    return expand


def _make_map(v: _Visitor, eid: int, target: A.Expr | None, args: list[A.Expr]) -> A.Expr | None:
    """``parser.MakeMap``."""
    assert target is not None
    name = _iter_var(v, args[0], "argument is not an identifier")
    if len(args) == 3:
        filt: A.Expr | None = args[1]
        fn = args[2]
    else:
        filt, fn = None, args[1]
    init = v.m_list()
    cond = v.m_literal(A.LIT_BOOL, True)
    step = v.m_call("_+_", v.m_accu(), v.m_list(fn))
    if filt is not None:
        step = v.m_call("_?_:_", filt, step, v.m_accu())
    return v.m_comprehension(target, name, "", init, cond, step, v.m_accu())


def _make_filter(v: _Visitor, eid: int, target: A.Expr | None, args: list[A.Expr]) -> A.Expr | None:
    """``parser.MakeFilter``."""
    assert target is not None
    name = _iter_var(v, args[0], "argument is not an identifier")
    filt = args[1]
    init = v.m_list()
    cond = v.m_literal(A.LIT_BOOL, True)
    step = v.m_call("_+_", v.m_accu(), v.m_list(args[0]))
    step = v.m_call("_?_:_", filt, step, v.m_accu())
    return v.m_comprehension(target, name, "", init, cond, step, v.m_accu())


def _opt_map(flat: bool) -> _MacroExpander:
    """``cel.optMap`` / ``cel.optFlatMap``."""

    def expand(v: _Visitor, eid: int, target: A.Expr | None, args: list[A.Expr]) -> A.Expr | None:
        assert target is not None
        name = _ident_name(args[0])
        if name is None:
            fn = "optFlatMap" if flat else "optMap"
            raise _MacroError(args[0].id, f"{fn}() variable name must be a simple identifier")
        has_value = v.m_member_call("hasValue", target)
        rng = v.m_list()
        value = v.m_member_call("value", v.m_copy(target))
        comp = v.m_comprehension(
            rng, "#unused", "", value, v.m_literal(A.LIT_BOOL, False), v.m_ident(name), args[1], accu=name
        )
        middle = comp if flat else v.m_call("optional.of", comp)
        return v.m_call("_?_:_", has_value, middle, v.m_call("optional.none"))

    return expand


def _two_var_names(v: _Visitor, a0: A.Expr, a1: A.Expr) -> tuple[str, str]:
    """``ext.extractIterVars``."""
    n1 = _ident_name(a0)
    if n1 is None:
        raise _MacroError(a0.id, "argument must be a simple name")
    n2 = _ident_name(a1)
    if n2 is None:
        raise _MacroError(a1.id, "argument must be a simple name")
    if n1 == n2:
        raise _MacroError(a1.id, f"duplicate variable name: {n1}")
    if n1 in (v.accu, LEGACY_ACCUMULATOR):
        raise _MacroError(a0.id, "iteration variable overwrites accumulator variable")
    if n2 in (v.accu, LEGACY_ACCUMULATOR):
        raise _MacroError(a1.id, "iteration variable overwrites accumulator variable")
    return n1, n2


def _two_var_quantifier(kind: str) -> _MacroExpander:
    def expand(v: _Visitor, eid: int, target: A.Expr | None, args: list[A.Expr]) -> A.Expr | None:
        assert target is not None
        n1, n2 = _two_var_names(v, args[0], args[1])
        pred = args[2]
        init, cond, step, result = _quantifier_parts(v, kind, pred)
        return v.m_comprehension(target, n1, n2, init, cond, step, result)

    return expand


def _transform(kind: str) -> _MacroExpander:
    def expand(v: _Visitor, eid: int, target: A.Expr | None, args: list[A.Expr]) -> A.Expr | None:
        assert target is not None
        n1, n2 = _two_var_names(v, args[0], args[1])
        if len(args) == 4:
            filt: A.Expr | None = args[2]
            transform = args[3]
        else:
            filt, transform = None, args[2]
        if kind == "list":
            step = v.m_call("_+_", v.m_accu(), v.m_list(transform))
        elif kind == "map":
            step = v.m_call("cel.@mapInsert", v.m_accu(), v.m_ident(n1), transform)
        else:
            step = v.m_call("cel.@mapInsert", v.m_accu(), transform)
        if filt is not None:
            step = v.m_call("_?_:_", filt, step, v.m_accu())
        init = v.m_list() if kind == "list" else v.m_map()
        return v.m_comprehension(target, n1, n2, init, v.m_literal(A.LIT_BOOL, True), step, v.m_accu())

    return expand


def _sort_by(v: _Visitor, eid: int, target: A.Expr | None, args: list[A.Expr]) -> A.Expr | None:
    """``ext.sortByMacro`` (lists library v2+)."""
    assert target is not None
    var = v.m_ident("@__sortBy_input__")
    if target.kind not in (A.LIST, A.SELECT, A.IDENT, A.COMPREHENSION, A.CALL):
        raise _MacroError(
            target.id, "sortBy can only be applied to a list, identifier, comprehension, call or select expression"
        )
    mapped = _make_map(v, eid, v.m_copy(var), args)
    assert mapped is not None
    call = v.m_member_call("@sortByAssociatedKeys", v.m_copy(var), mapped)
    return v.m_comprehension(
        v.m_list(), "#unused", "", target, v.m_literal(A.LIT_BOOL, False), var, call, accu=var.name
    )


# (function, arg count, receiver style) -> expander: parser.AllMacros, the optional
# types library, ext.TwoVarComprehensions and ext.Lists (v2+ sortBy). There is no
# ext.Bindings (cel.bind) in the Kubernetes environment.
_MACROS: dict[tuple[str, int, bool], _MacroExpander] = {
    ("has", 1, False): _make_has,
    ("all", 2, True): _quantifier("all"),
    ("exists", 2, True): _quantifier("exists"),
    ("exists_one", 2, True): _quantifier("one"),
    ("existsOne", 2, True): _quantifier("one"),
    ("map", 2, True): _make_map,
    ("map", 3, True): _make_map,
    ("filter", 2, True): _make_filter,
    ("optMap", 2, True): _opt_map(False),
    ("optFlatMap", 2, True): _opt_map(True),
    ("all", 3, True): _two_var_quantifier("all"),
    ("exists", 3, True): _two_var_quantifier("exists"),
    ("existsOne", 3, True): _two_var_quantifier("one"),
    ("exists_one", 3, True): _two_var_quantifier("one"),
    ("transformList", 3, True): _transform("list"),
    ("transformList", 4, True): _transform("list"),
    ("transformMap", 3, True): _transform("map"),
    ("transformMap", 4, True): _transform("map"),
    ("transformMapEntry", 3, True): _transform("entry"),
    ("transformMapEntry", 4, True): _transform("entry"),
    ("sortBy", 2, True): _sort_by,
}


#: ``cel.StandardMacros`` (``cel/macro.go``, every version): what ``cel.NewEnv`` parses with.
_STANDARD_MACROS = frozenset(
    {("has", 1, False), ("all", 2, True), ("exists", 2, True), ("exists_one", 2, True),
     ("map", 2, True), ("map", 3, True), ("filter", 2, True)}
)
#: In ``parser.AllMacros`` only: ``ExistsOneMacroNew`` (``parser/macro.go@v0.23.0``+), absent from
#: ``cel.StandardMacros``, so ``[1].existsOne(x, x > 0)`` is an undeclared reference in Kubernetes.
_ALL_MACROS_ONLY = frozenset({("existsOne", 2, True)})
#: The macros a library brings, by the library name an environment lists.
_LIBRARY_MACROS: dict[tuple[str, int, bool], str] = {
    ("optMap", 2, True): "optional",
    ("optFlatMap", 2, True): "optional",
    **{(fn, 3, True): "ext.two_var_comprehensions" for fn in ("all", "exists", "existsOne", "exists_one")},
    **{(fn, n, True): "ext.two_var_comprehensions"
       for fn in ("transformList", "transformMap", "transformMapEntry") for n in (3, 4)},
    ("sortBy", 2, True): "ext.lists.v3",
}


def library_macro_names(library: str) -> frozenset[str]:
    """The function names of the macros ``library`` brings (``sortBy`` for ``ext.lists.v3``; empty for a library
    without macros): a call of one of them is parsed differently with the library than without."""
    return frozenset(fn for (fn, _, _), lib in _LIBRARY_MACROS.items() if lib == library)


# --- syntax errors ---------------------------------------------------------------------------------

_CPP_NOISE = re.compile(r"^ERROR: <input>:(?:-1|4294967295):(?:-1|0): (?:<<nil>> parsetree|.*recursion.*)$")
_CPP_ERROR_LINE = re.compile(r"^ERROR: <input>:(-?\d+):(-?\d+): (.*)$")
_RESERVED_NO_VIABLE = re.compile(r"no viable alternative at input '.(true|false|null)'")
_CPP_MESSAGES = (
    (re.compile(r"^has\(\) argument must be a field selection$"), "invalid argument to has() macro"),
    (re.compile(r"^(?:all|exists|exists_one|existsOne)\(\) variable name must be a simple identifier$"),
     "argument must be a simple name"),
    (re.compile(r"^(?:map|filter)\(\) variable name must be a simple identifier$"), "argument is not an identifier"),
    (re.compile(r"^\w+\(\) variable name cannot be (?:__result__|@result)$"),
     "iteration variable overwrites accumulator variable"),
    (re.compile(r"^invalid hex int literal$"), "invalid int literal"),
    (re.compile(r"^invalid hex uint literal$"), "invalid uint literal"),
)


@functools.lru_cache(maxsize=1)
def _cpp_env() -> Any:
    from cel_expr_python import cel
    from cel_expr_python.ext import ext_optional

    return cel.NewEnv(extensions=[ext_optional.ExtOptional()])


_CPP_LOCK = threading.Lock()


def _cpp_syntax_issues(text: str) -> list[A.Issue] | None:
    """cel-cpp's ANTLR syntax errors for ``text`` in cel-go's wording, or None if it has none to offer."""
    try:
        env = _cpp_env()
    except ImportError:  # pragma: no cover - cel-expr-python is a dependency
        return None
    try:
        with _CPP_LOCK:
            env.compile(text, disable_check=True)
    except Exception as exc:  # noqa: BLE001 - cel-cpp reports parse errors as RuntimeError
        msg = re.sub(r" \[[A-Z_]+\]$", "", str(exc).strip())
        msg = re.sub(r"^[A-Z_]+: ", "", msg, count=1)
    else:
        return None
    if "recursion" in msg.lower():
        return None
    issues: list[A.Issue] = []
    for line in msg.split("\n"):
        m = _CPP_ERROR_LINE.match(line)
        if m is None or _CPP_NOISE.match(line):
            continue
        message = m.group(3)
        if message.startswith("Syntax error: token recognition error"):
            continue  # produced by our lexer, exactly
        if message.startswith("Syntax error: "):
            message = message.replace("'\\u003F'", "'?'")
            if "no viable alternative" in message:
                message = _RESERVED_NO_VIABLE.sub(r"mismatched input '\1' expecting IDENTIFIER", message)
        else:
            for rx, repl in _CPP_MESSAGES:
                if rx.match(message):
                    message = repl
                    break
        issues.append(A.Issue(int(m.group(1)), int(m.group(2)) - 1, message))
    syntax = [i for i in issues if i.message.startswith("Syntax error: ")]
    return issues if syntax else None


# --- entry point -------------------------------------------------------------------------------------


def _max_nesting(text: str) -> int:
    depth = best = 0
    for ch in text:
        if ch in "([{?":
            depth += 1
            best = max(best, depth)
        elif ch in ")]}:":
            depth = max(depth - 1, 0)
    return best


@contextmanager
def _deep_stack(text: str) -> Iterator[None]:
    """Room for the recursion a deeply nested (but legal, up to 250 levels) expression needs.

    The recursive descent uses ~10 Python frames per nesting level; only for
    inputs nested deeper than 40 levels is the interpreter's recursion limit
    raised for the duration of the call, then restored.
    """
    needed = _max_nesting(text) * 16 + 400
    old = sys.getrecursionlimit()
    if needed <= old:
        yield
        return
    sys.setrecursionlimit(needed)
    try:
        yield
    finally:
        sys.setrecursionlimit(old)


@functools.lru_cache(maxsize=8192)
def parse(text: str, options: ParserOptions = DEFAULT_OPTIONS) -> ParseResult:
    """Parse a CEL expression as the Kubernetes environment's cel-go parser does.

    In: the expression text. Out: a :class:`ParseResult` whose ``expr`` is
    the macro-expanded AST (None on error) and whose ``issues`` carry
    cel-go's messages and locations. Never raises. Results are cached by
    text; callers must not mutate the returned AST.

    Upstream: ``cel-go parser.Parser.Parse`` with the options of
    ``cel.NewEnv`` in ``k8s.io/apiserver/pkg/cel/environment/base.go``.
    """
    info = A.SourceInfo(text, strict_lt=has(options.cel_go, "location_strict_lt_checker"))
    n = len(text)
    if n > EXPRESSION_SIZE_CODE_POINT_LIMIT:
        msg = f"expression code point size exceeds limit: size: {n}, limit {EXPRESSION_SIZE_CODE_POINT_LIMIT}"
        return ParseResult(None, info, [A.Issue(-1, -1, msg)], 1)
    with _deep_stack(text):
        return _parse(text, info, options)


def _versioned_syntax_issues(issues: list[A.Issue], err: _SyntaxError | None, text: str,
                             cel_go: str) -> list[A.Issue]:
    """The syntax errors as cel-go ``cel_go``'s grammar and error listener word them.

    The texts come from the v0.23.2+ grammar (``ESC_IDENTIFIER``). From v0.23.2 a missing field name after ``.?``
    also fails the ``escapeIdent`` rule, which the visitor reports as ``unsupported ident kind`` at the same place
    (``parser/parser.go`` ``VisitEscapeIdent``... default case). Before v0.23.2 the expected sets name
    ``IDENTIFIER`` alone and ANTLR inserts the missing identifier before the end of the input (``missing
    IDENTIFIER at '<EOF>'``); up to v0.22.0 ``parser/errors.go syntaxError`` runs the text through
    ``fmt.Sprintf`` once more (no operands: ``%d`` -> ``%!d(MISSING)``); from v0.22.0 an empty source is reported
    at column 0.
    """
    escaped = has(cel_go, "escaped_identifier_grammar")
    tok = err.token if err is not None else None
    out: list[A.Issue] = []
    for issue in issues:
        msg = issue.message
        at_opt_select = (err is not None and err.after_optional_select and tok is not None
                         and (issue.line, issue.column) == (tok.line, tok.col) and msg.startswith("Syntax error: "))
        if not escaped and msg.startswith("Syntax error: "):
            msg = msg.replace("{IDENTIFIER, ESC_IDENTIFIER}", "IDENTIFIER").replace(", ESC_IDENTIFIER}", "}")
            if at_opt_select and tok is not None and err is not None and err.insertable:
                msg = f"Syntax error: missing IDENTIFIER at {_tok_display(tok)}"
        if has(cel_go, "syntax_error_sprintf") and msg.startswith("Syntax error: "):
            msg = sprintf_no_args(msg)
        line, col = issue.line, issue.column
        if not text and line == 1 and col == 0 and has(cel_go, "empty_source_column_zero"):
            col = -1
        out.append(A.Issue(line, col, msg))
        if at_opt_select and escaped:
            out.append(A.Issue(line, col, "unsupported ident kind"))
            at_opt_select = False
    return out


def _parse(text: str, info: A.SourceInfo, options: ParserOptions) -> ParseResult:
    tokens, lex_errors = _scan(text, has(options.cel_go, "escaped_identifier_grammar"))
    lex_issues = [
        A.Issue(e.line, e.col, f"Syntax error: token recognition error at: '{e.text}'") for e in lex_errors
    ]
    parser = _Parser(tokens, options.max_recursion_depth)
    try:
        cst = parser.start()
    except _RecursionLimit:
        issues = [A.Issue(-1, -1, f"expression recursion limit exceeded: {options.max_recursion_depth}")]
        return ParseResult(None, info, issues, 1)
    except _SyntaxError as err:
        cpp_text = text
        if not has(options.cel_go, "escaped_identifier_grammar"):
            # the lexer skips a backtick it cannot start a token with: cel-cpp (whose grammar has ESC_IDENTIFIER)
            # parses the same token stream when those backticks are blanks
            chars = list(text)
            for e in lex_errors:
                if e.text == "`":
                    chars[e.start] = " "
            cpp_text = "".join(chars)
        cpp = _cpp_syntax_issues(cpp_text)
        if cpp is None:
            tok = err.token
            cpp = [A.Issue(tok.line, tok.col, "Syntax error: " + err.message)]
        issues = _versioned_syntax_issues(lex_issues + cpp, err, text, options.cel_go)
        return ParseResult(None, info, issues, len(issues))
    visitor = _Visitor(info, options)
    try:
        expr = visitor.visit(cst)
    except _VisitorRecursion:
        visitor.error_count += 1
        visitor.issues.append(A.Issue(-1, -1, "max recursion depth exceeded"))
        expr = None
    issues = _versioned_syntax_issues(lex_issues, None, text, options.cel_go) + visitor.issues
    total = len(lex_issues) + visitor.error_count
    if issues:
        return ParseResult(None, info, issues, total, visitor.next_id)
    return ParseResult(expr, info, [], 0, visitor.next_id)
