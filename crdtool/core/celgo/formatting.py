"""Static checks of ``'...'.format([...])`` calls: cel-go v0.26.0 ``ext/formatting.go``.

``ext.Strings`` (version 1 to 3, the Kubernetes environment uses 2) registers
``stringFormatValidator``: for every ``format`` member call whose target is a
string literal and whose argument is a list literal, the format string is
parsed (``parseFormatString``, ``parseFormattingClause``, ``parsePrecision``)
and each clause's argument type is checked against what the clause accepts
(``stringFormatChecker``). Errors: ``could not parse formatting clause: ...``,
``error during formatting: decimal clause can only be used on integers, was
given string`` (at the argument), ``index 2 out of range``, ``unexpected end of
string``, ``too many arguments supplied to string.format (expected 1, got 2)``.
"""

from __future__ import annotations

from typing import Callable

from crdtool.core.celgo import ast as A
from crdtool.core.celgo import types as T
from crdtool.core.celgo.checker import CheckedAst

__all__ = ["CompilerPanic", "validate_format_calls"]


class _FormatError(Exception):
    """``formatError`` / ``parseFormatError``: a message and the expression it concerns (or None)."""

    def __init__(self, message: str, expr_id: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.expr_id = expr_id


_STRING_OK = (T.Kind.LIST, T.Kind.MAP, T.Kind.INT, T.Kind.UINT, T.Kind.DOUBLE, T.Kind.BOOL, T.Kind.STRING,
              T.Kind.TIMESTAMP, T.Kind.BYTES, T.Kind.DURATION, T.Kind.TYPE, T.Kind.NULL_TYPE)


class _Checker:
    """``stringFormatChecker``."""

    def __init__(self, args: list[A.Expr], checked: CheckedAst) -> None:
        self.args = args
        self.checked = checked
        self.args_requested = 0
        self.current = 0

    def type_of(self, expr_id: int) -> T.Type:
        return self.checked.type_map.get(expr_id, T.DYN)

    def one_of(self, expr_id: int, kinds: tuple[T.Kind, ...]) -> bool:
        t = self.type_of(expr_id)
        return t.kind == T.Kind.DYN or t.kind in kinds

    def verify_string(self, sub: A.Expr) -> tuple[bool, int]:
        if not self.one_of(sub.id, _STRING_OK):
            return False, sub.id
        if sub.kind == A.LIST:
            for el in sub.args:
                ok, bad = self.verify_string(el)
                if not ok:
                    return False, bad
        elif sub.kind == A.MAP:
            for en in sub.entries:
                assert en.key is not None
                for part in (en.key, en.value):
                    ok, bad = self.verify_string(part)
                    if not ok:
                        return False, bad
        return True, sub.id

    def clause(self, verb: str) -> None:
        arg = self.args[self.current]
        name = self.type_of(arg.id).name
        if verb == "s":
            ok, bad = self.verify_string(arg)
            if not ok:
                raise _FormatError(
                    "string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, types, "
                    f"durations, and timestamps, was given {self.type_of(bad).name}",
                    bad,
                )
            return
        allowed, message = _CLAUSES[verb]
        if not self.one_of(arg.id, allowed):
            raise _FormatError(message.format(name), arg.id)


_CLAUSES: dict[str, tuple[tuple[T.Kind, ...], str]] = {
    "d": ((T.Kind.INT, T.Kind.UINT), "decimal clause can only be used on integers, was given {}"),
    "f": ((T.Kind.DOUBLE, T.Kind.STRING), "fixed-point clause can only be used on doubles, was given {}"),
    "e": ((T.Kind.DOUBLE, T.Kind.STRING), "scientific clause can only be used on doubles, was given {}"),
    "b": ((T.Kind.INT, T.Kind.UINT, T.Kind.BOOL), "only integers and bools can be formatted as binary, was given {}"),
    "x": ((T.Kind.INT, T.Kind.UINT, T.Kind.STRING, T.Kind.BYTES),
          "only integers, byte buffers, and strings can be formatted as hex, was given {}"),
    "o": ((T.Kind.INT, T.Kind.UINT), "octal clause can only be used on integers, was given {}"),
}
_CLAUSES["X"] = _CLAUSES["x"]


def _parse_precision(s: str) -> int:
    """``parsePrecision``: characters consumed; raises on a malformed precision."""
    if s[0] != ".":
        return 0
    i = 1
    digits = ""
    while True:
        if i >= len(s):
            raise _FormatError("error while parsing precision: could not find end of precision specifier")
        if not ("0" <= s[i] <= "9"):
            break
        digits += s[i]
        i += 1
    if not digits:
        raise _FormatError(
            'error while parsing precision: error while converting precision to integer: strconv.Atoi: parsing "": '
            "invalid syntax"
        )
    return i


def _parse_format_string(fmt: str, chk: _Checker) -> None:
    """``parseFormatString`` with the checker as interpolator and argument list."""
    i = 0
    arg_index = 0
    while i < len(fmt):
        if fmt[i] != "%":
            i += 1
            continue
        if i + 1 < len(fmt) and fmt[i + 1] == "%":
            i += 2
            continue
        chk.args_requested += 1
        chk.current = arg_index
        if i + 1 >= len(fmt):
            raise _FormatError("unexpected end of string")
        if arg_index >= len(chk.args):
            raise _FormatError(f"index {arg_index} out of range")
        rest = fmt[i + 1 :]
        try:
            read = _parse_precision(rest)
        except _FormatError as exc:
            raise _FormatError(f"could not parse formatting clause: {exc.message}") from None
        verb = rest[read]
        if verb not in "sdfebxXo":
            raise _FormatError(f'could not parse formatting clause: unrecognized formatting clause "{verb}"')
        try:
            chk.clause(verb)
        except _FormatError as exc:
            raise _FormatError(f"error during formatting: {exc.message}", exc.expr_id) from None
        i += 1 + read + 1
        arg_index += 1


class CompilerPanic(Exception):
    """cel-go panics inside ``env.Compile`` (a Go runtime error the apiserver does not recover from its CEL code)."""


def validate_format_calls(checked: CheckedAst, report: Callable[[int, str], None],
                          nonliteral_target_panics: bool = False, nodes: list[A.Expr] | None = None) -> None:
    """``stringFormatValidator.Validate``: report through ``report(expr_id, message)``.

    ``nonliteral_target_panics``: cel-go v0.20.1's ``matchConstantFormatStringWithListLiteralArgs`` tests
    ``formatString.Kind() != ast.LiteralKind && formatString.AsLiteral().Type() != cel.StringType``: for a receiver
    that is not a literal, ``AsLiteral()`` is nil and the call panics (fixed by badfce05, ``&&`` -> ``||``, v0.21.0);
    raises :class:`CompilerPanic`. ``nodes``: the expression's nodes in ``post_order`` (None: found here).
    """
    for e in A.post_order(checked.expr) if nodes is None else nodes:
        if e.kind != A.CALL or e.target is None or e.name != "format":
            continue
        ids = checked.overload_ids(e.id)
        if ids and "string_format" not in ids:
            continue
        target = e.target
        if nonliteral_target_panics and target.kind != A.LITERAL:
            raise CompilerPanic("runtime error: invalid memory address or nil pointer dereference")
        if target.kind != A.LITERAL or target.lit != A.LIT_STRING:
            continue
        if len(e.args) != 1 or e.args[0].kind != A.LIST:
            continue
        chk = _Checker(e.args[0].args, checked)
        try:
            _parse_format_string(target.value, chk)
        except _FormatError as exc:
            report(exc.expr_id if exc.expr_id is not None else e.id, exc.message)
            continue
        if len(chk.args) > chk.args_requested:
            report(
                e.id,
                f"too many arguments supplied to string.format (expected {chk.args_requested}, got {len(chk.args)})",
            )
