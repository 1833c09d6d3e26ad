"""A small reader of protocol buffer text format (textproto), enough for cel-spec's conformance test files.

The grammar of ``protobuf``'s ``text_format`` without a schema: a message is a sequence of fields ``name: value``
or ``name { ... }`` (also ``< ... >``, an optional ``:`` before a message, ``,``/``;`` after a field), ``[a.b/c]``
names (Any expansions and extensions), ``[v1, v2]`` lists, ``#`` comments. Scalars stay tokens until the reader
knows the field's type: :class:`Str` (the bytes of one or more adjacent quoted strings, escapes decoded as
``text_format`` decodes them), :class:`Word` (numbers, ``true``, enum names, ``inf``, ``nan``).

In: text. Out: a :class:`Message` (its fields in order, repeated ones repeated). ``ValueError`` with the line for
malformed input.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Union


@dataclass(frozen=True)
class Str:
    """A quoted string scalar: its bytes (``text`` decodes them as UTF-8)."""

    raw: bytes

    @property
    def text(self) -> str:
        return self.raw.decode("utf-8", errors="surrogateescape")


@dataclass(frozen=True)
class Word:
    """An unquoted scalar: a number, ``true``/``false``, an enum value name."""

    text: str


@dataclass
class Message:
    """A message: ``(name, value)`` pairs in order."""

    fields: list[tuple[str, Value]] = field(default_factory=list)

    def all(self, name: str) -> list[Value]:
        return [v for n, v in self.fields if n == name]

    def get(self, name: str) -> Value | None:
        found = self.all(name)
        return found[-1] if found else None

    def msg(self, name: str) -> Message | None:
        v = self.get(name)
        assert v is None or isinstance(v, Message), (name, v)
        return v

    def str(self, name: str, default: str = "") -> str:
        v = self.get(name)
        assert v is None or isinstance(v, Str), (name, v)
        return v.text if v is not None else default

    def flag(self, name: str) -> bool:
        v = self.get(name)
        return isinstance(v, Word) and v.text in ("true", "True", "t", "1")

    def names(self) -> list[str]:
        return [n for n, _ in self.fields]


Value = Union[Message, Str, Word]

_TOKEN = re.compile(
    r"""\s+|\#[^\n]*
    |(?P<str>"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')
    |(?P<ext>\[[A-Za-z0-9_.\-/]+\])
    |(?P<word>-?\s*[A-Za-z0-9_.+\-]+)
    |(?P<punct>[{}<>:\[\],;])""",
    re.VERBOSE,
)
_SIMPLE_ESCAPES = {"a": 7, "b": 8, "f": 12, "n": 10, "r": 13, "t": 9, "v": 11, "\\": 92, "'": 39, '"': 34, "?": 63}


def unescape(body: str) -> bytes:
    """``text_format``'s ``CUnescape`` of a quoted string's body: C escapes, octal, ``\\x``, ``\\u``, ``\\U``."""
    out = bytearray()
    i, n = 0, len(body)
    while i < n:
        c = body[i]
        if c != "\\":
            out += c.encode("utf-8")
            i += 1
            continue
        i += 1
        e = body[i]
        if e in _SIMPLE_ESCAPES:
            out.append(_SIMPLE_ESCAPES[e])
            i += 1
        elif e in "01234567":
            j = i
            while j < n and j < i + 3 and body[j] in "01234567":
                j += 1
            out.append(int(body[i:j], 8) & 0xFF)
            i = j
        elif e in "xX":
            j = i + 1
            while j < n and j < i + 3 and body[j] in "0123456789abcdefABCDEF":
                j += 1
            out.append(int(body[i + 1:j], 16))
            i = j
        elif e in "uU":
            width = 4 if e == "u" else 8
            out += chr(int(body[i + 1:i + 1 + width], 16)).encode("utf-8", errors="surrogatepass")
            i += 1 + width
        else:
            raise ValueError(f"unknown escape \\{e}")
    return bytes(out)


def _tokens(text: str) -> list[tuple[str, str, int]]:
    out: list[tuple[str, str, int]] = []
    pos, line = 0, 1
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None:
            raise ValueError(f"line {line}: unexpected {text[pos:pos + 20]!r}")
        kind = m.lastgroup
        if kind is not None:
            out.append((kind, m.group(kind), line))
        line += m.group(0).count("\n")
        pos = m.end()
    return out


class _Reader:
    def __init__(self, text: str) -> None:
        self.toks = _tokens(text)
        self.i = 0

    def peek(self) -> tuple[str, str, int] | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def take(self) -> tuple[str, str, int]:
        tok = self.peek()
        if tok is None:
            raise ValueError("unexpected end of input")
        self.i += 1
        return tok

    def message(self, close: str | None) -> Message:
        msg = Message()
        while True:
            tok = self.peek()
            if tok is None:
                if close is not None:
                    raise ValueError(f"missing {close!r}")
                return msg
            if tok[0] == "punct" and tok[1] == close:
                self.i += 1
                return msg
            kind, name, line = self.take()
            if kind not in ("word", "ext"):
                raise ValueError(f"line {line}: expected a field name, got {name!r}")
            nxt = self.peek()
            if nxt is not None and nxt[0] == "punct" and nxt[1] == ":":
                self.i += 1
            for value in self.value():
                msg.fields.append((name, value))
            nxt = self.peek()
            if nxt is not None and nxt[0] == "punct" and nxt[1] in ",;":
                self.i += 1

    def value(self) -> list[Value]:
        kind, text, line = self.take()
        if kind == "punct" and text in "{<":
            return [self.message("}" if text == "{" else ">")]
        if kind == "punct" and text == "[":
            items: list[Value] = []
            while True:
                tok = self.peek()
                if tok is not None and tok[0] == "punct" and tok[1] == "]":
                    self.i += 1
                    return items
                items.extend(self.value())
                tok = self.peek()
                if tok is not None and tok[0] == "punct" and tok[1] == ",":
                    self.i += 1
        if kind == "str":
            raw = unescape(text[1:-1])
            while (tok := self.peek()) is not None and tok[0] == "str":  # adjacent strings concatenate
                raw += unescape(self.take()[1][1:-1])
            return [Str(raw)]
        if kind == "word":
            return [Word(text.replace(" ", ""))]
        raise ValueError(f"line {line}: unexpected {text!r}")


def parse(text: str) -> Message:
    """The top-level message of a textproto document."""
    return _Reader(text).message(None)
