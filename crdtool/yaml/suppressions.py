"""Inline suppressions in a manifest's comments: ``# crdtool: ignore[CRD002]``, as ruff's ``# noqa: E501``.

A comment ``# crdtool: ignore[CODE, ...]`` (or a bare ``# crdtool: ignore``: every code) silences findings:

* on a line with content (``maxItems: 5000  # crdtool: ignore[CRD002]``): the findings on that line;
* on a line of its own: the findings on the next line with content (the field it stands above);
* on the document's first line (its root's first key) or in the comments above it: the whole document.

This module only finds the comments and the lines they cover (:func:`find_suppressions`); ``lint``
matches them against its findings and reports those that silenced nothing (CRD901). A ``#`` is a
comment where YAML says so -- at a line's start or after a space -- and outside quotes on that line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["Suppression", "find_suppressions"]

_DIRECTIVE_RE = re.compile(r"crdtool:\s*ignore(?:\[([^\]]*)\])?", re.IGNORECASE)


@dataclass(frozen=True)
class Suppression:
    """One ``# crdtool: ignore[...]`` comment.

    ``line``/``column``: where the comment is (1-based, in the file); ``codes``: the codes named, upper
    case (empty: every code); ``covers``: the file line whose findings it silences, or None for the whole
    document (``scope`` ``"document"``; else ``"line"``).
    """

    line: int
    column: int
    codes: tuple[str, ...]
    covers: int | None

    @property
    def scope(self) -> str:
        return "document" if self.covers is None else "line"

    def silences(self, code: str, line: int | None) -> bool:
        """Whether a finding of ``code`` at file line ``line`` is silenced by this comment."""
        if self.codes and code not in self.codes:
            return False
        return self.covers is None or line == self.covers


def _comment_start(line: str) -> int | None:
    """Where the line's comment starts (its ``#``), or None: a ``#`` at the start or after blank space,
    outside single and double quotes (a plain scalar cannot hold `` #``)."""
    quote = ""
    i = 0
    while i < len(line):
        c = line[i]
        if quote:
            if c == "\\" and quote == '"':
                i += 2
                continue
            if c == quote:
                if quote == "'" and line[i + 1:i + 2] == "'":
                    i += 2
                    continue
                quote = ""
        elif c in "'\"" and (i == 0 or line[i - 1] in " \t[{,:-"):
            quote = c
        elif c == "#" and (i == 0 or line[i - 1] in " \t"):
            return i
        i += 1
    return None


def find_suppressions(text: str, first_line: int = 1, root_line: int | None = None) -> list[Suppression]:
    """The suppression comments of one document's ``text``.

    In: the document's text (its comments included), the file line it starts at, and the file line of its
    root's first key (:attr:`crdtool.yaml.loader.Document.line`; None: the first line with content). Out:
    the suppressions in line order. Never raises.
    """
    lines = text.split("\n")
    content = [i for i, raw in enumerate(lines) if raw.strip() and not raw.lstrip().startswith("#")
               and raw.strip() not in ("---", "...")]
    root = root_line if root_line is not None else (content[0] + first_line if content else first_line)
    out: list[Suppression] = []
    for i, raw in enumerate(lines):
        at = _comment_start(raw)
        if at is None:
            continue
        m = _DIRECTIVE_RE.search(raw, at)
        if m is None or raw[at + 1:m.start()].strip():
            continue
        codes = tuple(c.strip().upper() for c in (m.group(1) or "").split(",") if c.strip())
        line = i + first_line
        if raw[:at].strip():
            covers: int | None = line
        else:
            following = [j for j in content if j > i]
            covers = following[0] + first_line if following else line
        if covers is not None and covers <= root:
            covers = None  # the document's first line, or the comments above it: the whole document
        out.append(Suppression(line, at + 1, codes, covers))
    return out
