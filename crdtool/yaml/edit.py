"""Comment- and layout-preserving rewrites of YAML documents: minimal text edits.

The core computes a new plain dict for a document; this module carries the
change onto the user's *text* by editing only the spans whose content changed.
Everything else -- comments, key order, quoting, flow/block style, folded long
lines, blank lines, indentation, trailing whitespace -- stays byte for byte.

Why text edits and not a round-trip library: ruamel.yaml's round-trip mode
keeps comments and key order, but its emitter re-folds long plain scalars and
rewrites ``null``, spacing and indentation: loading and dumping the corpus files
*unchanged* (``preserve_quotes``, width 80) alters 67 of the 81 (generators fold
descriptions with go-yaml's algorithm, people write their own layouts). So
this module parses with libyaml's *events* (PyYAML, already a dependency),
builds a light tree of nodes with their character spans, diffs the old data
against the new and turns the difference into edits (deeply nested values are
handled without recursion where it matters: parsing, comparing, emitting):

- a changed scalar is replaced in place, keeping its quoting style;
- a key that disappears is deleted together with the comment lines directly
  above it (same column) and the deeper-indented comment lines after it;
- a key that is only renamed by case (``JSONPath`` -> ``jsonPath``) is renamed
  in place, and its value patched;
- a new key goes after the nearest preceding key of the new order that still
  exists, emitted in the document's own indentation (guessed from the tree:
  mapping indent, sequence dash offset, item indent, preferred quote);
- sequences are aligned item by item (``difflib`` when lengths differ);
- **moved subtrees keep their text**: every deleted or replaced block node
  (and its children) is a *donor*; a new value equal to a donor, or similar to
  one (at least half of its leaves already in place; keys compared
  case-insensitively), is written as the donor's text re-indented -- comments
  inside and the comments above its key included -- and then patched for the
  differences; one-line flow collections are reused when equal. So
  ``validation.openAPIV3Schema`` moved into ``versions[*].schema`` keeps its
  comments, and gains ``x-kubernetes-preserve-unknown-fields`` as one new line.

Anchors, aliases and merge keys: a first attempt edits around them (an alias
keeps pointing at its anchor, which is right when the anchored node and every
alias change alike, e.g. tekton's ``- <<: *version``). If the result does not
re-read as the new data, a second attempt *expands* them: each alias and each
mapping with ``<<`` inside the changed document is replaced by its value written
out in full (anchors that are still defined stay, unused). Documents that need
no change keep their anchors untouched.

Safety net: every rewrite is re-read with :mod:`crdtool.yaml.loader` (go-yaml
semantics, as kubectl reads it) and compared with the new data; when neither
attempt reproduces it exactly, the document's root node is regenerated from
the data (comments inside it are lost, the ``---`` line and the comments before
the root are kept; key order follows the old document) and ``method`` says so.

Scalars written by this module re-read as the same JSON value under YAML 1.1
(go-yaml v2, kubectl) and YAML 1.2 parsers: strings that look like a bool,
null or number in either are quoted; multi-line strings become literal blocks
when that is exact, else double-quoted with escapes.
"""

from __future__ import annotations

import bisect
import difflib
import json
import math
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from crdtool.core.gojson import go_json_float, json_number

__all__ = [
    "DocStyle",
    "DocumentSpan",
    "Node",
    "Rewrite",
    "RewriteError",
    "YamlSyntaxError",
    "emit_block",
    "format_flow",
    "format_scalar",
    "guess_style",
    "order_like",
    "parse_tree",
    "plain_safe",
    "rewrite_document",
    "same",
    "split_documents",
]


class YamlSyntaxError(ValueError):
    """The text is not YAML libyaml accepts; ``line``/``column`` are 1-based (0: unknown)."""

    def __init__(self, message: str, line: int = 0, column: int = 0) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column


class RewriteError(RuntimeError):
    """Not even a regenerated document re-reads as the new data (a bug in this module)."""


class _Abort(Exception):
    """This attempt cannot be done as text edits; try the next strategy."""


# --------------------------------------------------------------------------
# Documents of a stream


_SEPARATOR_RE = re.compile(r"^---([^\n]*)$", re.MULTILINE)


@dataclass(frozen=True)
class DocumentSpan:
    """One kubectl document chunk of a stream: ``text[start:end]``.

    ``start`` is the chunk's ``---`` line (0 for the first chunk), so joining the
    chunks' text gives back the whole stream; ``line`` is the 1-based line of
    ``start``; ``index`` counts chunks (empty ones included).
    """

    index: int
    start: int
    end: int
    line: int


def split_documents(text: str) -> list[DocumentSpan]:
    """The stream's document chunks, split as kubectl splits it.

    Mirrors ``k8s.io/apimachinery/pkg/util/yaml`` ``YAMLReader.Read`` (the same
    rule :mod:`crdtool.yaml.loader` applies): every line starting with ``---``
    begins a new chunk. Never raises; a text without separators is one chunk.
    """
    spans: list[DocumentSpan] = []
    start = 0
    line = 1
    for m in _SEPARATOR_RE.finditer(text):
        if m.start() == 0:
            continue  # a leading separator belongs to the first chunk
        spans.append(DocumentSpan(len(spans), start, m.start(), line))
        line += text.count("\n", start, m.start())
        start = m.start()
    spans.append(DocumentSpan(len(spans), start, len(text), line))
    return spans


# --------------------------------------------------------------------------
# Node tree with character spans


class Node:
    """A YAML node of the parsed document, with its character span.

    ``kind`` is ``map``, ``seq``, ``scalar`` or ``alias``. ``start`` includes
    the node's anchor/tag, ``cstart`` is where its content begins (a block
    mapping's first key, a block sequence's first dash), ``end`` is just after
    its last content character (trailing blank lines of block scalars are not
    content). ``refs``: the subtree holds an anchor, alias or merge key.
    """

    __slots__ = (
        "anchor",
        "cstart",
        "dashes",
        "end",
        "entries",
        "flow",
        "items",
        "kind",
        "merge",
        "plain",
        "refs",
        "start",
        "style",
        "tag",
        "value",
    )

    def __init__(self, kind: str, start: int, end: int) -> None:
        self.kind = kind
        self.start = start
        self.cstart = start
        self.end = end
        self.flow = False
        self.style = ""
        self.anchor: str | None = None
        self.tag: str | None = None
        self.value = ""
        self.plain = False
        self.entries: list[tuple[Node, Node]] = []
        self.items: list[Node] = []
        self.dashes: list[int] | None = None
        self.merge = False
        self.refs = False

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return f"Node({self.kind}, {self.start}:{self.end})"


_PROPS_RE = re.compile(r"(?:[&!][^\s]*\s+)*")
_DASH_LINE_RE = re.compile(r"-(?:[ \t]+#[^\n]*)?[ \t]*\Z")


def _event_parser(text: str) -> Any:
    try:
        from yaml._yaml import CParser

        return CParser(text)
    except ImportError:  # pragma: no cover - only without libyaml
        from yaml.parser import Parser
        from yaml.reader import Reader
        from yaml.scanner import Scanner

        class _PyParser(Reader, Scanner, Parser):  # type: ignore[misc]
            def __init__(self, stream: str) -> None:
                Reader.__init__(self, stream)
                Scanner.__init__(self)
                Parser.__init__(self)

        return _PyParser(text)


def parse_tree(text: str) -> Node | None:
    """The first document's root node (None for an empty document).

    Iterative over libyaml's event stream, so deep nesting cannot overflow
    the stack. Raises :class:`YamlSyntaxError` when libyaml rejects the text.
    """
    from yaml.error import MarkedYAMLError, YAMLError
    from yaml.events import (
        AliasEvent,
        DocumentEndEvent,
        MappingEndEvent,
        MappingStartEvent,
        ScalarEvent,
        SequenceEndEvent,
        SequenceStartEvent,
        StreamEndEvent,
    )

    parser = _event_parser(text)
    stack: list[Node] = []
    pending: list[Node | None] = []
    result: list[Node] = []

    def attach(node: Node) -> None:
        if not stack:
            result.append(node)
            return
        parent = stack[-1]
        if node.refs or node.anchor is not None:
            parent.refs = True
        if parent.kind == "map":
            key = pending[-1]
            if key is None:
                pending[-1] = node
                if node.kind == "scalar" and (
                    (node.plain and node.value == "<<") or node.tag == "tag:yaml.org,2002:merge"
                ):
                    parent.merge = True
                    parent.refs = True
                return
            parent.entries.append((key, node))
            pending[-1] = None
            return
        parent.items.append(node)

    try:
        while True:
            event = parser.get_event()
            cls = event.__class__
            if cls is ScalarEvent:
                node = Node("scalar", event.start_mark.index, event.end_mark.index)
                node.anchor = event.anchor
                node.tag = event.tag
                node.style = event.style or ""
                node.value = event.value
                node.plain = node.style == "" and bool(event.implicit[0])
                if node.anchor is not None or node.tag is not None:
                    node.cstart = _PROPS_RE.match(text, node.start).end()  # type: ignore[union-attr]
                if node.style in ("|", ">"):
                    node.end = node.start + len(text[node.start:node.end].rstrip(" \t\r\n"))
                attach(node)
            elif cls is MappingStartEvent or cls is SequenceStartEvent:
                node = Node("map" if cls is MappingStartEvent else "seq", event.start_mark.index, event.start_mark.index)
                node.flow = bool(event.flow_style)
                node.anchor = event.anchor
                node.tag = event.tag
                if node.anchor is not None:
                    node.refs = True
                stack.append(node)
                pending.append(None)
            elif cls is MappingEndEvent or cls is SequenceEndEvent:
                node = stack.pop()
                pending.pop()
                _finish(text, node, event.end_mark.index)
                attach(node)
            elif cls is AliasEvent:
                node = Node("alias", event.start_mark.index, event.end_mark.index)
                node.anchor = event.anchor
                node.refs = True
                attach(node)
            elif cls is DocumentEndEvent or cls is StreamEndEvent:
                break
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, column = (mark.line + 1, mark.column + 1) if mark is not None else (0, 0)
        raise YamlSyntaxError(f"yaml: {exc.problem or exc.context or 'syntax error'}", line, column) from None
    except YAMLError as exc:
        raise YamlSyntaxError(f"yaml: {exc}") from None
    finally:
        dispose = getattr(parser, "dispose", None)
        if dispose is not None:
            dispose()
    return result[0] if result else None


def _finish(text: str, node: Node, end_mark: int) -> None:
    """Content start and end of a collection whose end event was just read."""
    if node.flow or not (node.entries or node.items):
        node.end = end_mark
        node.cstart = _PROPS_RE.match(text, node.start).end()  # type: ignore[union-attr]
        return
    if node.kind == "map":
        key, value = node.entries[-1]
        node.end = max(key.end, value.end)
        node.cstart = node.entries[0][0].start
        return
    node.end = node.items[-1].end
    dashes: list[int] = []
    lower = node.start
    for item in node.items:
        dash = _find_dash(text, item.start, lower)
        if dash < 0:
            node.cstart = node.items[0].start
            return
        dashes.append(dash)
        lower = item.end
    node.dashes = dashes
    node.cstart = dashes[0]


def _find_dash(text: str, pos: int, lower: int) -> int:
    """Index of the ``-`` that introduces the block sequence item starting at ``pos``."""
    line_start = text.rfind("\n", 0, pos) + 1
    head = text[max(line_start, lower):pos]
    stripped = head.rstrip(" \t")
    if stripped.endswith("-"):
        return max(line_start, lower) + len(stripped) - 1
    if stripped:
        return -1
    end = line_start - 1  # the newline ending the previous line
    while end > lower:
        start = text.rfind("\n", 0, end) + 1
        line = text[max(start, lower):end]
        body = line.lstrip(" \t")
        if body and not body.startswith("#"):
            m = _DASH_LINE_RE.search(line)
            return max(start, lower) + m.start() if m else -1
        end = start - 1
    return -1


# --------------------------------------------------------------------------
# Lines


class _Lines:
    """Line arithmetic over one text (0-based line numbers, character offsets)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts = [0] + [m.end() for m in re.finditer("\n", text)]
        if self.starts[-1] == len(text) and len(self.starts) > 1:
            self.starts.pop()  # no empty line after a final newline

    def line(self, pos: int) -> int:
        return bisect.bisect_right(self.starts, pos) - 1

    def col(self, pos: int) -> int:
        return pos - self.starts[self.line(pos)]

    def line_start(self, pos: int) -> int:
        return self.starts[self.line(pos)]

    def line_end(self, pos: int) -> int:
        """Index of the newline ending ``pos``'s line (or the text's length)."""
        end = self.text.find("\n", pos)
        return len(self.text) if end < 0 else end

    def next_line(self, pos: int) -> int:
        """Start of the line after ``pos``'s line (or the text's length)."""
        end = self.text.find("\n", pos)
        return len(self.text) if end < 0 else end + 1

    def start_of(self, line: int) -> int:
        return self.starts[line] if line < len(self.starts) else len(self.text)

    def body(self, line: int) -> tuple[str, int]:
        """The line's text without indentation, and its indentation."""
        start = self.starts[line]
        end = self.text.find("\n", start)
        raw = self.text[start:] if end < 0 else self.text[start:end]
        body = raw.lstrip(" ")
        return body, len(raw) - len(body)

    def comment_col(self, line: int) -> int | None:
        """The column of a comment-only line, else None."""
        if line < 0 or line >= len(self.starts):
            return None
        body, col = self.body(line)
        return col if body.startswith("#") else None

    def is_blank(self, line: int) -> bool:
        if line < 0 or line >= len(self.starts):
            return False
        return not self.body(line)[0].strip()

    def at_line_start(self, pos: int) -> bool:
        return not self.text[self.line_start(pos):pos].strip(" ")

    def leading(self, pos: int, col: int) -> int:
        """Start of the comment lines at ``col`` directly above ``pos``'s line."""
        line = self.line(pos)
        while self.comment_col(line - 1) == col:
            line -= 1
        return self.starts[line]

    def trailing(self, pos: int, col: int) -> int:
        """End of ``pos``'s line plus the comment lines below it indented deeper than ``col``."""
        line = self.line(pos) + 1
        while True:
            ccol = self.comment_col(line)
            if ccol is None or ccol <= col:
                break
            line += 1
        return self.start_of(line)


# --------------------------------------------------------------------------
# Style


@dataclass(frozen=True)
class DocStyle:
    """How the document lays out what this module writes.

    ``indent``: columns a nested mapping is indented under its key;
    ``seq_offset``: columns a sequence's dash is indented under its key (0 for
    go-yaml's "indentless" sequences); ``item_indent``: columns from a dash to
    the item's content; ``quote``: the quote used for strings that need one.
    """

    indent: int = 2
    seq_offset: int = 0
    item_indent: int = 2
    quote: str = "'"


def guess_style(text: str, root: Node | None) -> DocStyle:
    """The most common layout in ``root``'s tree; defaults where the document shows none."""
    if root is None:
        return DocStyle()
    lines = _Lines(text)
    indents: Counter[int] = Counter()
    offsets: Counter[int] = Counter()
    items: Counter[int] = Counter()
    quotes: Counter[str] = Counter()
    stack = [root]
    budget = 20_000  # a sample is enough: documents keep one layout
    while stack and budget > 0:
        budget -= 1
        node = stack.pop()
        if node.kind == "scalar":
            if node.style in ("'", '"'):
                quotes[node.style] += 1
            continue
        if node.flow:
            continue
        if node.kind == "map":
            for key, value in node.entries:
                if key.style in ("'", '"'):
                    quotes[key.style] += 1
                stack.append(value)
                if value.flow or value.kind not in ("map", "seq") or not (value.entries or value.items):
                    continue
                if lines.line(value.cstart) <= lines.line(key.end):
                    continue
                delta = lines.col(value.cstart) - lines.col(key.start)
                if value.kind == "map" and delta > 0:
                    indents[delta] += 1
                elif value.kind == "seq" and delta >= 0:
                    offsets[delta] += 1
        else:
            stack.extend(node.items)
            for dash, item in zip(node.dashes or (), node.items):
                if item.kind == "map" and not item.flow and lines.line(item.cstart) == lines.line(dash):
                    items[lines.col(item.cstart) - lines.col(dash)] += 1
    indent = indents.most_common(1)[0][0] if indents else 2
    return DocStyle(
        indent=indent,
        seq_offset=offsets.most_common(1)[0][0] if offsets else 0,
        item_indent=max(2, items.most_common(1)[0][0]) if items else 2,
        quote=quotes.most_common(1)[0][0] if quotes else "'",
    )


# --------------------------------------------------------------------------
# Values


def same(a: Any, b: Any) -> bool:
    """JSON equality: like ``==`` but ``True`` is not ``1``; numbers compare as the apiserver reads
    Go's JSON text for them (a float whose text is an int64, ``2.2e16``, equals that int)."""
    if a is b:
        return True
    try:
        if a != b:
            return _same_iterative(a, b)
    except RecursionError:  # C-level comparison of very deep values
        return _same_iterative(a, b)
    # ``==`` held; only a bool against a number can still differ. Iterative, containers only.
    ca, cb = a.__class__, b.__class__
    if ca is not cb:
        return not (ca is bool or cb is bool or ca is dict or cb is dict or ca is list or cb is list)
    if ca is not dict and ca is not list:
        return True
    stack = [(a, b)]
    while stack:
        x, y = stack.pop()
        if x.__class__ is dict:
            pairs: Any = ((v, y[k]) for k, v in x.items())
        else:
            pairs = zip(x, y)
        for v, w in pairs:
            cv, cw = v.__class__, w.__class__
            if cv is cw:
                if cv is dict or cv is list:
                    stack.append((v, w))
            elif cv is bool or cw is bool or cv is dict or cw is dict or cv is list or cw is list:
                return False
    return True


def _same_iterative(a: Any, b: Any) -> bool:
    """:func:`same` without C recursion: a walk over both values."""
    stack = [(a, b)]
    while stack:
        x, y = stack.pop()
        cx, cy = x.__class__, y.__class__
        if cx is dict or cy is dict:
            if cx is not cy or x.keys() != y.keys():
                return False
            stack.extend((v, y[k]) for k, v in x.items())
        elif cx is list or cy is list:
            if cx is not cy or len(x) != len(y):
                return False
            stack.extend(zip(x, y))
        elif (cx is bool) != (cy is bool):
            return False
        elif x != y and (cx is bool or _go_number(x) != _go_number(y)):
            return False
    return True


def _go_number(v: Any) -> Any:
    """A number as the apiserver reads the JSON Go writes for it (other values unchanged)."""
    if v.__class__ is float and math.isfinite(v):
        return json_number(v)
    return v


def order_like(template: Any, value: Any) -> Any:
    """``value`` with its mapping keys in ``template``'s order where both have them.

    Keys only in ``value`` follow the key that precedes them in ``value``.
    Returns new containers; scalars are shared. Iterative.
    """
    out: list[Any] = []
    stack: list[tuple[Any, Any, Callable[[Any], None]]] = [(template, value, out.append)]
    while stack:
        tmpl, val, put = stack.pop()
        if isinstance(val, dict):
            keys = _merged_order(list(tmpl) if isinstance(tmpl, dict) else [], list(val))
            new: dict[str, Any] = dict.fromkeys(keys)  # filled below; the stack pops in reverse
            put(new)
            sub = tmpl if isinstance(tmpl, dict) else {}
            for k in keys:
                stack.append((sub.get(k), val[k], _setter(new, k)))
        elif isinstance(val, list):
            new_list: list[Any] = [None] * len(val)
            put(new_list)
            sub_list = tmpl if isinstance(tmpl, list) else []
            for i, item in enumerate(val):
                stack.append((sub_list[i] if i < len(sub_list) else None, item, _setter(new_list, i)))
        else:
            put(val)
    return out[0]


def _setter(container: Any, key: Any) -> Callable[[Any], None]:
    def put(v: Any) -> None:
        container[key] = v

    return put


def _merged_order(old: list[str], new: list[str]) -> list[str]:
    """``new``'s keys: those in ``old`` in old order, the others after their predecessor in ``new``."""
    keep = set(new)
    order = [k for k in old if k in keep]
    placed = set(order)
    for i, k in enumerate(new):
        if k in placed:
            continue
        at = 0
        for prev in reversed(new[:i]):
            if prev in placed:
                at = order.index(prev) + 1
                break
        order.insert(at, k)
        placed.add(k)
    return order


def _similarity(a: Any, b: Any, sizes: dict[int, int] | None = None) -> float:
    """0..1: the share of ``b``'s leaves a copy of ``a`` already has in place.

    Keys match case-insensitively (a renamed ``JSONPath`` still counts), list
    items by position. A deep difference in a big subtree costs only its own
    leaves, so a moved schema with one added line is still ~1.
    """
    sizes = {} if sizes is None else sizes
    total = max(_size(a, sizes), _size(b, sizes))
    return _overlap(a, b, sizes, 0) / total if total else 0.0


def _size(value: Any, sizes: dict[int, int]) -> int:
    """Leaves of ``value`` (an empty container counts as one), memoised by identity. Iterative."""
    if not isinstance(value, (dict, list)):
        return 1
    known = sizes.get(id(value))
    if known is not None:
        return known
    total = 0
    stack = [value]
    while stack:
        node = stack.pop()
        children = list(node.values()) if isinstance(node, dict) else node
        if not children:
            total += 1
        for child in children:
            if isinstance(child, (dict, list)):
                stack.append(child)
            else:
                total += 1
    sizes[id(value)] = total
    return total


def _overlap(a: Any, b: Any, sizes: dict[int, int], depth: int) -> int:
    if same(a, b):
        return _size(b, sizes)
    if depth > 64:
        return 0
    if isinstance(a, dict) and isinstance(b, dict):
        lower = {k.lower(): v for k, v in a.items()} if len(a) < 256 else None
        shared = 0
        for k, v in b.items():
            if k in a:
                shared += _overlap(a[k], v, sizes, depth + 1)
            elif lower is not None and k.lower() in lower:
                shared += _overlap(lower[k.lower()], v, sizes, depth + 1)
        return shared
    if isinstance(a, list) and isinstance(b, list):
        return sum(_overlap(x, y, sizes, depth + 1) for x, y in zip(a, b))
    return 0


# --------------------------------------------------------------------------
# Scalars


_INDICATORS = frozenset("-?:,[]{}#&*!|>'\"%@`")
_NON_STRING_WORDS = frozenset({"y", "yes", "n", "no", "true", "false", "on", "off", "null", "~", "<<", "="})
_NUMERIC_RE = re.compile(r"[-+]?(?:\.?[0-9]|\.(?:inf|nan)\Z)", re.IGNORECASE)
_NONPRINTABLE_RE = re.compile("[^\t\n\r\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufefe\uff00-\ufffd\U00010000-\U0010ffff]")
_BREAKS = ("\n", "\r", "\x85", "\u2028", "\u2029")
_ESCAPE_RE = re.compile("[\"\\\\\x00-\x1f\x7f-\x9f\u2028\u2029\ufeff\ud800-\udfff\ufffe\uffff]")
_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\t": "\\t", "\r": "\\r", "\x00": "\\0", "\x1b": "\\e"}


def _looks_non_string(s: str) -> bool:
    """Would a YAML 1.1 or 1.2 parser read this plain text as something else than a string?"""
    return not s or s.lower() in _NON_STRING_WORDS or _NUMERIC_RE.match(s) is not None


def plain_safe(s: str, flow: bool = False) -> bool:
    """Can ``s`` be written as a plain scalar that every parser reads back as this string?"""
    if not s or s[0] in _INDICATORS or s[0] in " \t" or s[-1] in " \t":
        return False
    if _looks_non_string(s):
        return False
    if ": " in s or " #" in s or s.endswith(":") or "\t" in s:
        return False
    if flow and any(c in s for c in ",[]{}"):
        return False
    if any(b in s for b in _BREAKS):
        return False
    return _NONPRINTABLE_RE.search(s) is None and "\ufeff" not in s


def _double_quoted(s: str) -> str:
    def esc(m: re.Match[str]) -> str:
        c = m.group()
        if c in _ESCAPES:
            return _ESCAPES[c]
        code = ord(c)
        return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"

    return '"' + _ESCAPE_RE.sub(esc, s) + '"'


def _single_ok(s: str) -> bool:
    return not any(b in s for b in _BREAKS) and _NONPRINTABLE_RE.search(s) is None and "\ufeff" not in s


def _format_float(f: float) -> str:
    """A float as Go's encoding/json writes it (``1.0`` -> ``1``, ``1e-07`` -> ``1e-7``): what kubectl sends."""
    if math.isnan(f) or math.isinf(f):  # not JSON; never produced by decoding
        return ".nan" if math.isnan(f) else (".inf" if f > 0 else "-.inf")
    return go_json_float(f)


def format_scalar(value: Any, quote: str = "'", flow: bool = False, keep: str = "") -> str:
    """One-line YAML for a JSON scalar (``{}``/``[]`` for empty containers).

    ``quote`` is the preferred quote for strings that need one; ``keep`` is the
    style of the scalar being replaced (``'``/``"``: keep those quotes; ``""``:
    plain when safe). Raises TypeError for non-JSON values.
    """
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return _format_float(value)
    if isinstance(value, dict) and not value:
        return "{}"
    if isinstance(value, list) and not value:
        return "[]"
    if not isinstance(value, str):
        raise TypeError(f"not a JSON scalar: {type(value).__name__}")
    if keep == "'" and _single_ok(value):
        return "'" + value.replace("'", "''") + "'"
    if keep == '"':
        return _double_quoted(value)
    if plain_safe(value, flow):
        return value
    if quote == "'" and _single_ok(value):
        return "'" + value.replace("'", "''") + "'"
    return _double_quoted(value)


def _literal_header(s: str) -> str | None:
    """The literal block header (``|``, ``|-``, ``|+``) that writes ``s`` exactly, else None."""
    if "\n" not in s or "\r" in s or _NONPRINTABLE_RE.search(s) or "\ufeff" in s:
        return None
    if any(b in s for b in ("\x85", "\u2028", "\u2029")):
        return None
    lines = s.split("\n")
    first = next((line for line in lines if line), "")
    if first.startswith((" ", "\t")):
        return None  # would need an indentation indicator
    if any(line and not line.strip(" \t") for line in lines):
        return None  # whitespace-only lines are ambiguous with indentation
    if s.endswith("\n\n") or s == "\n":
        return "|+"
    return "|" if s.endswith("\n") else "|-"


def _literal_lines(s: str, header: str, col: int) -> list[str]:
    body = s if header == "|-" else s[:-1]
    sp = " " * col
    return [sp + line if line else "" for line in body.split("\n")]


def format_flow(value: Any, quote: str = "'") -> str:
    """``value`` as one line of YAML flow style (``{a: b, c: [d]}``). Iterative."""
    out: list[str] = []
    stack: list[tuple[bool, Any]] = [(False, value)]  # (is literal text, value)
    while stack:
        literal, x = stack.pop()
        if literal:
            out.append(x)
        elif isinstance(x, dict) and x:
            tasks: list[tuple[bool, Any]] = [(True, "{")]
            for i, (k, v) in enumerate(x.items()):
                tasks.append((True, (", " if i else "") + format_scalar(k, quote, flow=True) + ": "))
                tasks.append((False, v))
            tasks.append((True, "}"))
            stack.extend(reversed(tasks))
        elif isinstance(x, list) and x:
            tasks = [(True, "[")]
            for i, v in enumerate(x):
                if i:
                    tasks.append((True, ", "))
                tasks.append((False, v))
            tasks.append((True, "]"))
            stack.extend(reversed(tasks))
        else:
            out.append(format_scalar(x, quote, flow=True))
    return "".join(out)


def _emit_plain(value: Any, col: int, style: DocStyle) -> list[str]:
    """``value`` (non-empty dict/list) as block lines at ``col``; iterative, no donors.

    A task is ``(value, col, lead)``: the value's content starts at ``col``; its
    first line starts with ``lead`` (the dashes of enclosing compact items)
    instead of indentation, or is a finished line when ``col`` is None.
    """
    out: list[str] = []
    stack: list[tuple[Any, int | None, str | None]] = [(value, col, None)]
    while stack:
        v, c, lead = stack.pop()
        if c is None:
            out.append(v)
            continue
        tasks: list[tuple[Any, int | None, str | None]] = []
        for i, (k, x) in enumerate(v.items() if isinstance(v, dict) else ((None, x) for x in v)):
            prefix = lead if i == 0 and lead is not None else " " * c
            if k is not None:
                head = prefix + format_scalar(k, style.quote) + ":"
                child = c + (style.indent if isinstance(x, dict) else style.seq_offset)
                if isinstance(x, (dict, list)) and x:
                    tasks += [(head, None, None), (x, child, None)]
                    continue
                header = _literal_header(x) if isinstance(x, str) else None
                if header is not None:
                    tasks.append((f"{head} {header}", None, None))
                    tasks += [(line, None, None) for line in _literal_lines(x, header, c + style.indent)]
                else:
                    tasks.append((f"{head} {format_scalar(x, style.quote)}", None, None))
                continue
            if isinstance(x, dict) and x:
                tasks.append((x, c + style.item_indent, prefix + "-" + " " * (style.item_indent - 1)))
                continue
            if isinstance(x, list) and x:
                tasks.append((x, c + 2, prefix + "- "))
                continue
            header = _literal_header(x) if isinstance(x, str) else None
            if header is not None:
                tasks.append((f"{prefix}- {header}", None, None))
                tasks += [(line, None, None) for line in _literal_lines(x, header, c + style.item_indent)]
            else:
                tasks.append((f"{prefix}- {format_scalar(x, style.quote)}", None, None))
        stack.extend(reversed(tasks))
    return out


# --------------------------------------------------------------------------
# Emitting new text


def emit_block(value: Any, col: int = 0, style: DocStyle | None = None) -> list[str]:
    """``value`` (a non-empty dict or list) as block YAML lines at column ``col``. Iterative."""
    return _emit_plain(value, col, style or DocStyle())


@dataclass
class _Donor:
    """An old node whose text can be copied where an equal or similar value goes."""

    node: Node
    data: Any
    start: int  # region: text[start:end] holds the node, with ...
    end: int
    blank: int  # ... text[start:blank] blanked (the "- " of a compact item)
    col: int  # column of the node's content
    comments: list[str]  # comment lines above its key/dash (without indentation)
    key_comment: str  # what followed the key's colon on the key line ("  # ...")
    flow: str = ""  # a one-line flow collection's text: copied only where the value is equal


_DONOR_LEVELS = 4


class _Renderer:
    """Writes new values in the document's style, copying donor text where it can."""

    def __init__(self, style: DocStyle, ctx: _Context | None, depth: int = 0) -> None:
        self.style = style
        self.ctx = ctx
        self.depth = depth

    # --- donors

    def flow_donor(self, value: Any) -> str | None:
        """The text of a one-line flow collection that held exactly ``value``."""
        if self.ctx is None:
            return None
        for donor in self.ctx.pool:
            if donor.flow and type(donor.data) is type(value) and same(donor.data, value):
                return donor.flow
        return None

    def donor_for(self, value: Any) -> _Donor | None:
        if self.ctx is None or self.depth > 6 or not self.ctx.pool:
            return None
        best: _Donor | None = None
        best_score = 0.5
        for donor in self.ctx.pool:
            if donor.flow or type(donor.data) is not type(value):
                continue
            if same(donor.data, value):
                return donor
            score = _similarity(donor.data, value, self.ctx.sizes)
            if score > best_score:
                best, best_score = donor, score
        return best

    def donor_lines(self, donor: _Donor, value: Any, col: int) -> list[str] | None:
        """The donor's region, patched to ``value`` and re-indented to ``col``; None if impossible."""
        assert self.ctx is not None
        text = self.ctx.text
        region = " " * (donor.blank - donor.start) + text[donor.blank:donor.end]
        if not same(donor.data, value):
            sub = _Patcher(self.ctx, expand=False, collect=False, depth=self.depth + 1)
            try:
                sub.patch(donor.node, donor.data, value, None)
                edits = sub.resolve()
            except _Abort:
                return None
            if any(e.start < donor.blank or e.end > donor.end for e in edits):
                return None
            try:
                region = _apply(region, [e.shifted(-donor.start) for e in edits])
            except _Abort:
                return None
        lines = region.split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        return _reindent(lines, col - donor.col)

    # --- rendering

    def block(self, value: Any, col: int, level: int = 0) -> list[str]:
        """A non-empty dict/list as lines at ``col``: donor text when there is one."""
        donor = self.donor_for(value)
        if donor is not None:
            lines = self.donor_lines(donor, value, col)
            if lines is not None:
                return lines
        return self.emit(value, col, level)

    def emit(self, value: Any, col: int, level: int = 0) -> list[str]:
        """Written out afresh; donors are looked for only in the first levels of new values
        (moved subtrees are found where they start), deeper content is written plainly."""
        if self.ctx is None or not self.ctx.pool or level >= _DONOR_LEVELS:
            return _emit_plain(value, col, self.style)
        lines: list[str] = []
        if isinstance(value, dict):
            for k, v in value.items():
                lines.extend(self.entry(k, v, col, level + 1))
        else:
            for item in value:
                lines.extend(self.item(item, col, level=level + 1))
        return lines

    def key(self, key: str) -> str:
        return format_scalar(key, self.style.quote)

    def entry(self, key: str, value: Any, col: int, level: int = 0) -> list[str]:
        """Lines of ``key: value`` at ``col`` (with a donor's comments when its text is used)."""
        sp = " " * col
        head = sp + self.key(key) + ":"
        flow = self.flow_donor(value) if isinstance(value, (dict, list)) and value else None
        if flow is not None:
            return [f"{head} {flow}"]
        if isinstance(value, (dict, list)) and value:
            child = col + (self.style.indent if isinstance(value, dict) else self.style.seq_offset)
            donor = self.donor_for(value)
            if donor is not None:
                body = self.donor_lines(donor, value, child)
                if body is not None:
                    return [sp + c for c in donor.comments] + [head + donor.key_comment] + body
            return [head] + self.emit(value, child, level)
        if isinstance(value, str):
            header = _literal_header(value)
            if header is not None:
                return [f"{head} {header}"] + _literal_lines(value, header, col + self.style.indent)
        return [f"{head} {format_scalar(value, self.style.quote)}"]

    def item(self, value: Any, dash_col: int, inner: int | None = None, level: int = 0) -> list[str]:
        """Lines of ``- value`` with the dash at ``dash_col`` (a mapping's keys at ``inner``)."""
        sp = " " * dash_col
        flow = self.flow_donor(value) if isinstance(value, (dict, list)) and value else None
        if flow is not None:
            return [f"{sp}- {flow}"]
        if isinstance(value, (dict, list)) and value:
            if inner is None or not isinstance(value, dict):
                inner = dash_col + (self.style.item_indent if isinstance(value, dict) else 2)
            return _as_item(self.block(value, inner, level), dash_col, inner)
        if isinstance(value, str):
            header = _literal_header(value)
            if header is not None:
                return [f"{sp}- {header}"] + _literal_lines(value, header, dash_col + self.style.item_indent)
        return [f"{sp}- {format_scalar(value, self.style.quote)}"]

    def value_after_key(self, value: Any, key_col: int, comment: str, flow: bool) -> str:
        """Text that follows a key (from its colon on) to give it ``value``."""
        if isinstance(value, (dict, list)) and value:
            text = self.flow_donor(value)
            if text is not None:
                return ": " + text + comment
            if flow:
                return ": " + format_flow(value, self.style.quote) + comment
            child = key_col + (self.style.indent if isinstance(value, dict) else self.style.seq_offset)
            return ":" + comment + "\n" + "\n".join(self.block(value, child))
        if isinstance(value, str):
            header = _literal_header(value)
            if header is not None:
                body = _literal_lines(value, header, key_col + self.style.indent)
                return f": {header}{comment}\n" + "\n".join(body)
        return ": " + format_scalar(value, self.style.quote) + comment

    def item_content(self, value: Any, dash_col: int, inner: int) -> str:
        """Text that follows a dash (from the space after it) to give the item ``value``."""
        if isinstance(value, (dict, list)) and value:
            lines = self.block(value, inner)
            first = next((i for i, line in enumerate(lines) if not line.lstrip().startswith("#")), 0)
            if first:
                raise _Abort()  # comments before an item's content cannot follow its dash
            return " " * (inner - dash_col - 1) + "\n".join(lines)[inner:]
        if isinstance(value, str):
            header = _literal_header(value)
            if header is not None:
                return f" {header}\n" + "\n".join(_literal_lines(value, header, inner))
        return " " + format_scalar(value, self.style.quote)


def _as_item(lines: list[str], dash_col: int, inner: int) -> list[str]:
    """Block lines at ``inner`` as a sequence item: leading comments above, ``- `` on the first line."""
    out: list[str] = []
    i = 0
    while i < len(lines) and lines[i].lstrip().startswith("#"):
        out.append(" " * dash_col + lines[i].lstrip())
        i += 1
    if i == len(lines):
        return out
    first = lines[i]
    out.append(" " * dash_col + "-" + " " * (inner - dash_col - 1) + first[inner:] if first[:inner].strip() == "" else
               " " * dash_col + "- " + first.lstrip())
    out.extend(lines[i + 1:])
    return out


def _reindent(lines: list[str], delta: int) -> list[str]:
    if delta == 0:
        return lines
    if delta > 0:
        pad = " " * delta
        return [pad + line if line else line for line in lines]
    out = []
    for line in lines:
        n = len(line) - len(line.lstrip(" "))
        out.append(line[min(n, -delta):])
    return out


# --------------------------------------------------------------------------
# Edits


@dataclass
class _Edit:
    """Replace ``text[start:end]``; insertions at one place go deepest (``col``) first."""

    start: int
    end: int
    text: str | Callable[[], str]
    seq: int = 0
    col: int = 0

    def shifted(self, delta: int) -> _Edit:
        return _Edit(self.start + delta, self.end + delta, self.text, self.seq, self.col)


def _apply(text: str, edits: list[_Edit]) -> str:
    """Apply non-conflicting edits; deletions may overlap (merged); raises _Abort on a conflict."""
    # At one position, the insertion closing a deeper block comes before one of its parent.
    ordered = sorted(edits, key=lambda e: (e.start, e.end > e.start, -e.col, e.seq))
    out: list[str] = []
    cursor = 0
    for e in ordered:
        new = e.text if isinstance(e.text, str) else e.text()
        start = e.start
        if start < cursor:
            if e.end <= cursor and not new:
                continue
            if new and e.end > e.start:
                raise _Abort()
            start = cursor
        out.append(text[cursor:start])
        if new and start == len(text) and text and not text.endswith("\n") and e.end == e.start:
            new = "\n" + new[:-1] if new.endswith("\n") else "\n" + new
        out.append(new)
        cursor = max(cursor, e.end)
    out.append(text[cursor:])
    return "".join(out)


# --------------------------------------------------------------------------
# The patcher


@dataclass
class _Context:
    """What every patcher of one document shares."""

    text: str
    lines: _Lines
    style: DocStyle
    pool: list[_Donor]
    keys: dict[str, Any]  # plain key text -> resolved key (cache)
    root: Node | None = None
    sizes: dict[int, int] = field(default_factory=dict)  # _size memo (objects outlive the context)


@dataclass(frozen=True)
class _EntrySlot:
    key: Node
    flow_parent: bool = False


@dataclass(frozen=True)
class _ItemSlot:
    dash: int
    inner: int  # column of the item's content


@dataclass(frozen=True)
class _FlowSlot:
    """A value inside a flow collection (``{a: b}``, ``[c]``): replaced by flow text, JSON in a JSON document."""

    json: bool = False


_RootSlot = "root"
_Slot = _EntrySlot | _ItemSlot | _FlowSlot | str | None


class _Patcher:
    """Turns ``old -> new`` on one node into edits of the document text."""

    def __init__(self, ctx: _Context, *, expand: bool, collect: bool, depth: int = 0) -> None:
        self.ctx = ctx
        self.text = ctx.text
        self.lines = ctx.lines
        self.expand = expand
        self.collect = collect
        self.edits: list[_Edit] = []
        self.donors: list[_Donor] = []
        self.render = _Renderer(ctx.style, ctx, depth)

    # --- bookkeeping

    def edit(self, start: int, end: int, text: str | Callable[[], str], col: int = 0) -> None:
        self.edits.append(_Edit(start, end, text, len(self.edits), col))

    def resolve(self) -> list[_Edit]:
        """Render the deferred texts (donors are all known by now)."""
        return [_Edit(e.start, e.end, e.text if isinstance(e.text, str) else e.text(), e.seq, e.col) for e in self.edits]

    # --- entry point

    def patch(self, node: Node, old: Any, new: Any, slot: _Slot) -> None:
        """Edits that make ``node`` (holding ``old``) hold ``new``."""
        stack: list[tuple[Node, Any, Any, _Slot]] = [(node, old, new, slot)]
        while stack:
            node, old, new, slot = stack.pop()
            if same(old, new) and not (self.expand and node.refs):
                continue
            if node.kind == "alias" or node.merge:
                if self.expand:
                    self.replace(node, old, new, slot)
                continue
            if node.kind == "map" and not node.flow and node.entries and isinstance(new, dict) and new:
                children = self.patch_map(node, old, new)
            elif node.kind == "seq" and not node.flow and node.dashes and isinstance(new, list) and new:
                children = self.patch_seq(node, old, new)
            elif node.kind == "map" and node.flow and node.entries and isinstance(new, dict) and new:
                children = self.patch_flow_map(node, old, new)
            elif node.kind == "seq" and node.flow and node.items and isinstance(new, list) and new:
                children = self.patch_flow_seq(node, old, new)
            elif node.kind == "scalar" and not isinstance(new, (dict, list)) and not same(old, new):
                if isinstance(slot, _FlowSlot) and slot.json:
                    self.edit(node.start, node.end, json.dumps(new, ensure_ascii=False))
                elif isinstance(new, str) and _literal_header(new) is not None and slot != _RootSlot:
                    self.replace(node, old, new, slot)  # a multi-line string: as a literal block
                else:
                    self.edit(node.cstart, node.end, format_scalar(new, self.ctx.style.quote, keep=node.style))
                continue
            elif same(old, new):
                continue
            else:
                self.replace(node, old, new, slot)
                continue
            if children is None:
                self.replace(node, old, new, slot)
                continue
            stack.extend(reversed(children))

    # --- mappings

    def key_of(self, key: Node) -> str | None:
        if key.kind != "scalar" or key.tag is not None:
            return None
        if not key.plain:
            return key.value
        if not _looks_non_string(key.value):
            return key.value
        cache = self.ctx.keys
        if key.value not in cache:
            cache[key.value] = _resolve_key(key.value)
        return cache[key.value]

    def patch_map(self, node: Node, old: Any, new: dict[str, Any]) -> list[Any] | None:
        if not isinstance(old, dict):
            return None
        names: list[str] = []
        for key, _ in node.entries:
            name = self.key_of(key)
            if name is None:
                return None
            names.append(name)
        present = set(names)
        added = [k for k in new if k not in present]
        removed = {k for k in present if k not in new}
        renamed: dict[str, str] = {}  # old name -> new name
        for k in list(added):
            for r in sorted(removed):
                if r.lower() == k.lower() and r not in renamed:
                    renamed[r] = k
                    added.remove(k)
                    removed.discard(r)
                    break
        last = {name: i for i, name in enumerate(names)}
        survivors = [i for i, name in enumerate(names) if name not in removed and last[name] == i]
        if not survivors:
            return None
        children: list[Any] = []
        deleted = [i for i, name in enumerate(names) if name in removed]
        self.delete_entries(node, deleted, survivors[0], [old.get(names[i], _MISSING) for i in deleted])
        for i in survivors:
            key, value = node.entries[i]
            name = names[i]
            target = renamed.get(name, name)
            if target != name:
                self.edit(key.cstart, key.end, format_scalar(target, self.ctx.style.quote, keep=key.style))
            children.append((value, old[name], new[target], _EntrySlot(key)))
        if added:
            self.insert_entries(node, names, survivors, renamed, added, new)
        return children

    # --- flow collections: patched entry by entry, so their layout (and the JSON of a JSON file) stays

    def patch_flow_map(self, node: Node, old: Any, new: dict[str, Any]) -> list[Any] | None:
        """A flow mapping's changed values patched in place, new keys appended before its ``}``.

        Only values change and keys are added (what ``lint --fix`` and defaulting do); a removed or
        renamed key replaces the whole mapping (None).
        """
        if not isinstance(old, dict):
            return None
        names: list[str] = []
        for key, _ in node.entries:
            name = self.key_of(key)
            if name is None or name in names:
                return None
            names.append(name)
        if any(name not in new for name in names):
            return None
        as_json = all(key.style == '"' for key, _ in node.entries)
        slot = _FlowSlot(as_json)
        children: list[Any] = [(value, old[name], new[name], slot) for name, (_, value) in zip(names, node.entries)]
        added = [k for k in new if k not in names]
        if added:
            last_key, last_value = node.entries[-1]
            at = max(last_key.end, last_value.end)
            line = self.lines.line
            first_key = node.entries[0][0]
            if line(first_key.start) != line(node.start) and (len(node.entries) == 1 or line(last_key.start) != line(first_key.start)):
                sep = ",\n" + " " * self.lines.col(last_key.start)  # one entry a line: the new ones too
            else:
                sep = ", "
            quote = self.ctx.style.quote

            def entry(name: str) -> str:
                if as_json:
                    return json.dumps(name, ensure_ascii=False) + ": " + json.dumps(new[name], ensure_ascii=False)
                return format_scalar(name, quote, flow=True) + ": " + format_flow(new[name], quote)

            self.edit(at, at, "".join(sep + entry(name) for name in added))
        return children

    def patch_flow_seq(self, node: Node, old: Any, new: list[Any]) -> list[Any] | None:
        """A flow sequence of the same length patched item by item; else replaced whole (None)."""
        if not isinstance(old, list) or len(old) != len(node.items) or len(new) != len(old):
            return None
        as_json = self.ctx.root is not None and self.ctx.root.flow and _json_like(self.text, self.ctx.root)
        return [(item, o, n, _FlowSlot(as_json)) for item, o, n in zip(node.items, old, new)]

    def header(self, node: Node, i: int) -> bool:
        """Comments above the root's first key are the document's header, not that key's."""
        return node is self.ctx.root and i == 0

    def entry_range(self, node: Node, i: int) -> tuple[int, int]:
        key, value = node.entries[i]
        col = self.lines.col(key.start)
        if not self.lines.at_line_start(key.start):
            start = key.start
        elif self.header(node, i):
            start = self.lines.line_start(key.start)
        else:
            start = self.lines.leading(key.start, col)
        end = self.lines.trailing(max(key.end, value.end), col)
        return start, end

    def delete_entries(self, node: Node, deleted: list[int], first_survivor: int, data: list[Any]) -> None:
        for i, value_data in zip(deleted, data):
            key, value = node.entries[i]
            start, end = self.entry_range(node, i)
            if not self.lines.at_line_start(key.start):
                # The first key of a compact "- key: v" item: pull the next survivor up onto its line.
                if first_survivor < i:
                    raise _Abort()
                end = node.entries[first_survivor][0].start
            else:
                end = self.tidy_blank(start, end)
            self.edit(start, end, "")
            if self.collect and value_data is not _MISSING:
                self.donors.extend(self.entry_donors(value, value_data, key, children=True))

    def tidy_blank(self, start: int, end: int) -> int:
        """Drop one blank line after a deletion that would leave two in a row."""
        lines = self.lines
        before = lines.line(start) - 1
        after = lines.line(end) if end < len(self.text) else -1
        if after >= 0 and lines.is_blank(before) and lines.is_blank(after):
            return lines.start_of(after + 1)
        return end

    def insert_entries(
        self, node: Node, names: list[str], survivors: list[int], renamed: dict[str, str], added: list[str], new: dict[str, Any]
    ) -> None:
        position = {renamed.get(names[i], names[i]): i for i in survivors}
        order = list(new)
        first_key = node.entries[survivors[0]][0]
        col = self.lines.col(first_key.start)
        # The first key of a compact "- key: v" item was deleted: delete_entries pulls the first survivor up
        # onto the dash's line, so an entry that goes first takes the deleted key's place on that line.
        compact_start = node.entries[0][0].start
        first_deleted = names[0] not in renamed and names[0] not in new
        pulled_up = first_deleted and not self.lines.at_line_start(compact_start)
        for name in added:
            anchor = None
            for prev in reversed(order[:order.index(name)]):
                if prev in position:
                    anchor = position[prev]
                    break
            if anchor is None and pulled_up:
                value = new[name]
                self.edit(compact_start, compact_start,
                          lambda name=name, value=value: "\n".join(self.render.entry(name, value, col))[col:]
                          + "\n" + " " * col, col)
                continue
            if anchor is None and self.lines.at_line_start(first_key.start):
                if self.header(node, survivors[0]):
                    at = self.lines.line_start(first_key.start)
                else:
                    at = self.lines.leading(first_key.start, col)
            else:
                at = self.entry_range(node, anchor if anchor is not None else survivors[-1])[1]
            value = new[name]
            self.edit(at, at, lambda name=name, value=value: "\n".join(self.render.entry(name, value, col)) + "\n", col)

    # --- sequences

    def patch_seq(self, node: Node, old: Any, new: list[Any]) -> list[Any] | None:
        if not isinstance(old, list) or len(old) != len(node.items):
            return None
        assert node.dashes is not None
        children: list[Any] = []
        if len(old) == len(new):
            for i, (o, n) in enumerate(zip(old, new)):
                children.append((node.items[i], o, n, self.item_slot(node, i)))
            return children
        a = [_fingerprint(x) for x in old]
        b = [_fingerprint(x) for x in new]
        deletions: list[int] = []
        insertions: list[tuple[int, Any]] = []  # (insert before old index, value)
        for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
            if tag == "equal":
                continue
            pairs = min(i2 - i1, j2 - j1) if tag == "replace" else 0
            for k in range(pairs):
                children.append((node.items[i1 + k], old[i1 + k], new[j1 + k], self.item_slot(node, i1 + k)))
            deletions.extend(range(i1 + pairs, i2))
            insertions.extend((i2, new[j]) for j in range(j1 + pairs, j2))
        if len(deletions) == len(old):
            return None
        dashes = node.dashes
        if not all(self.lines.at_line_start(dashes[i]) for i in deletions) or not all(
            self.lines.at_line_start(dashes[b]) for b, _ in insertions if b < len(dashes)
        ):
            return None  # a compact "- - x" item: rewrite the sequence as a whole
        for i in deletions:
            start, end = self.item_range(node, i)
            self.edit(start, self.tidy_blank(start, end), "")
            if self.collect:
                self.donors.extend(self.item_donors(node.items[i], old[i], node.dashes[i], children=True))
        dash_col = self.lines.col(node.dashes[0])
        for before, value in insertions:
            if before < len(node.items):
                at = self.lines.leading(node.dashes[before], dash_col)
            else:
                at = self.item_range(node, len(node.items) - 1)[1]
            self.edit(at, at, lambda value=value: "\n".join(self.render.item(value, dash_col)) + "\n", dash_col + 1)
        return children

    def item_slot(self, node: Node, i: int) -> _ItemSlot:
        assert node.dashes is not None
        dash = node.dashes[i]
        item = node.items[i]
        dash_col = self.lines.col(dash)
        if item.kind == "map" and not item.flow and self.lines.line(item.cstart) == self.lines.line(dash):
            inner = self.lines.col(item.cstart)
        else:
            inner = dash_col + self.ctx.style.item_indent
        return _ItemSlot(dash, inner)

    def item_range(self, node: Node, i: int) -> tuple[int, int]:
        assert node.dashes is not None
        dash = node.dashes[i]
        col = self.lines.col(dash)
        start = self.lines.leading(dash, col) if self.lines.at_line_start(dash) else dash
        return start, self.lines.trailing(node.items[i].end, col)

    # --- wholesale replacement

    def replace(self, node: Node, old: Any, new: Any, slot: _Slot) -> None:
        if self.collect:
            self.donate(node, old, slot)
        render = self.render
        lines = self.lines
        if isinstance(slot, _EntrySlot):
            key = slot.key
            key_col = lines.col(key.start)
            comment = ""
            end = node.end
            if lines.line(node.cstart) > lines.line(key.end) or (node.kind == "scalar" and node.style in ("|", ">")):
                rest = self.text[key.end:lines.line_end(key.end)]
                hash_at = rest.find("#")
                if hash_at >= 0 and node.start > key.end + hash_at:
                    comment = "  " + rest[hash_at:].rstrip()
            else:
                # "key: value  # comment" -> the comment stays on the key's line
                rest = self.text[node.end:lines.line_end(node.end)]
                if rest.lstrip(" \t").startswith("#"):
                    comment = rest.rstrip()
                    end = node.end + len(rest)
            flow = node.flow and node.kind in ("map", "seq") and len(format_flow(new)) <= 100
            self.edit(key.end, end, lambda: render.value_after_key(new, key_col, comment, flow))
            return
        if isinstance(slot, _FlowSlot):
            text = json.dumps(new, ensure_ascii=False) if slot.json else format_flow(new, self.ctx.style.quote)
            self.edit(node.start, node.end, text)
            return
        if isinstance(slot, _ItemSlot):
            dash_col = lines.col(slot.dash)
            flow = node.flow and node.kind in ("map", "seq") and len(format_flow(new)) <= 100
            if flow:
                self.edit(slot.dash + 1, node.end, " " + format_flow(new, self.ctx.style.quote))
            elif lines.at_line_start(slot.dash):
                # the whole item from its dash: comments a copied text starts with can go above it
                self.edit(slot.dash, node.end, lambda: "\n".join(render.item(new, dash_col, slot.inner))[dash_col:])
            else:
                self.edit(slot.dash + 1, node.end, lambda: render.item_content(new, dash_col, slot.inner))
            return
        if slot == _RootSlot:
            col = lines.col(node.cstart)
            if node.flow or not isinstance(new, dict) or not new:
                self.edit(node.start, node.end, _json_text(self.text[node.start:node.end], order_like(old, new)))
                return
            self.edit(node.start, node.end, lambda: "\n".join(render.block(new, col))[col:])
            return
        raise _Abort()  # a donor copy that would need its own root replaced

    # --- donors

    def donate(self, node: Node, data: Any, slot: _Slot) -> None:
        """Record a replaced node (and its children) as text to copy from."""
        if isinstance(slot, _EntrySlot):
            self.donors.extend(self.entry_donors(node, data, slot.key, children=True))
        elif isinstance(slot, _ItemSlot):
            self.donors.extend(self.item_donors(node, data, slot.dash, children=True))

    def entry_donors(self, value: Node, data: Any, key: Node, children: bool) -> list[_Donor]:
        """The value of ``key`` as a donor: the lines below the key line, comments included."""
        lines = self.lines
        if _flow_donatable(value, lines):
            return [_Donor(value, data, 0, 0, 0, 0, [], "", self.text[value.start:value.end])]
        if not _donatable(value) or lines.line(value.cstart) <= lines.line(key.end):
            return []
        key_col = lines.col(key.start)
        start = lines.next_line(key.end)
        end = lines.trailing(value.end, key_col)
        rest = self.text[key.end:lines.line_end(key.end)]
        colon = rest.find(":")
        key_comment = rest[colon + 1:].rstrip() if colon >= 0 and "#" in rest[colon + 1:] else ""
        comments = self.comment_lines(key.start, key_col) if lines.at_line_start(key.start) else []
        donors = [_Donor(value, data, start, end, start, lines.col(value.cstart), comments, key_comment)]
        if children:
            donors.extend(self.child_donors(value, data))
        return donors

    def item_donors(self, item: Node, data: Any, dash: int, children: bool) -> list[_Donor]:
        """A sequence item as a donor: from its dash line (the dash itself blanked)."""
        lines = self.lines
        if _flow_donatable(item, lines):
            return [_Donor(item, data, 0, 0, 0, 0, [], "", self.text[item.start:item.end])]
        if not _donatable(item):
            return []
        dash_col = lines.col(dash)
        if lines.line(item.cstart) == lines.line(dash):
            start = lines.line_start(dash)
            blank = item.cstart
        else:
            start = blank = lines.next_line(dash)
        end = lines.trailing(item.end, dash_col)
        comments = self.comment_lines(dash, dash_col) if lines.at_line_start(dash) else []
        donors = [_Donor(item, data, start, end, blank, lines.col(item.cstart), comments, "")]
        if children:
            donors.extend(self.child_donors(item, data))
        return donors

    def child_donors(self, node: Node, data: Any) -> list[_Donor]:
        donors: list[_Donor] = []
        if node.kind == "map" and isinstance(data, dict):
            for key, value in node.entries:
                name = self.key_of(key)
                if name is not None and name in data:
                    donors.extend(self.entry_donors(value, data[name], key, children=False))
        elif node.kind == "seq" and isinstance(data, list) and node.dashes and len(data) == len(node.items):
            for dash, item, d in zip(node.dashes, node.items, data):
                donors.extend(self.item_donors(item, d, dash, children=False))
        return donors

    def comment_lines(self, pos: int, col: int) -> list[str]:
        start = self.lines.leading(pos, col)
        return [line.lstrip(" ") for line in self.text[start:self.lines.line_start(pos)].split("\n")[:-1]]


_MISSING = object()


def _donatable(node: Node) -> bool:
    return node.kind in ("map", "seq") and not node.flow and node.tag is None and _self_contained(node)


def _self_contained(node: Node) -> bool:
    """No anchor on the node itself, and every alias inside refers to an anchor defined before it inside.

    Such text can be copied elsewhere (YAML lets a later anchor redefine a name).
    """
    if node.anchor is not None:
        return False
    if not node.refs:
        return True
    defined: set[str] = set()
    stack = [node]
    while stack:
        n = stack.pop()
        if n.kind == "alias":
            if n.anchor not in defined:
                return False
            continue
        if n.anchor is not None:
            defined.add(n.anchor)
        if n.kind == "map":
            for key, value in reversed(n.entries):
                stack.append(value)
                stack.append(key)
        elif n.kind == "seq":
            stack.extend(reversed(n.items))
    return True


def _flow_donatable(node: Node, lines: _Lines) -> bool:
    return (
        node.kind in ("map", "seq") and node.flow and node.tag is None and _self_contained(node)
        and (node.entries or node.items) and lines.line(node.start) == lines.line(node.end)
    )


def _fingerprint(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), default=str)


def _resolve_key(text: str) -> Any:
    """A plain key that may not be a string, resolved as go-yaml v2 + sigs.k8s.io/yaml do."""
    from crdtool.yaml.loader import Document, load_documents

    items = load_documents(f"{text}: 0\n", "<key>")
    if len(items) == 1 and isinstance(items[0], Document) and len(items[0].data) == 1:
        return next(iter(items[0].data))
    return None


def _json_like(text: str, root: Node) -> bool:
    """The document's root flow collection is written as JSON: every mapping key double-quoted."""
    stack = [root]
    while stack:
        node = stack.pop()
        for key, value in node.entries:
            if key.kind != "scalar" or key.style != '"':
                return False
            stack.append(value)
        stack.extend(node.items)
    return True


def _json_text(original: str, value: Any) -> str:
    """``value`` as JSON laid out like ``original`` (indented when it spans lines)."""
    if "\n" not in original.strip():
        return json.dumps(value, ensure_ascii=False)
    m = re.search(r"\n( +)\S", original)
    return json.dumps(value, ensure_ascii=False, indent=len(m.group(1)) if m else 2)


# --------------------------------------------------------------------------
# Rewriting one document


@dataclass(frozen=True)
class Rewrite:
    """The rewritten text of one document.

    ``method``: ``unchanged`` (old equals new), ``patched`` (text edits),
    ``expanded`` (text edits after expanding aliases/merge keys) or
    ``regenerated`` (the root node written afresh; comments inside it lost).
    ``document`` is the :class:`crdtool.yaml.loader.Document` the new text
    re-reads as (None when unchanged), for positions of notes.
    """

    text: str
    method: str
    document: Any = None


def rewrite_document(text: str, old: Any, new: Any) -> Rewrite:
    """``text`` (one document, as kubectl chunks a stream) edited to hold ``new``.

    Args:
        text: the document's text (its ``---`` line and comments included).
        old: the document's data as :func:`crdtool.yaml.loader.load_documents` reads
            ``text`` (plain JSON-like values).
        new: the data the rewritten text must hold (plain JSON-like values).

    Returns a :class:`Rewrite` whose text re-reads, with go-yaml semantics, as
    ``new`` (:func:`same`). Raises :class:`YamlSyntaxError` if libyaml cannot
    parse ``text`` and :class:`RewriteError` if no strategy reproduces ``new``.
    """
    if same(old, new):
        return Rewrite(text, "unchanged")
    root = parse_tree(text)
    if root is not None:
        style = guess_style(text, root)
        attempts = (False, True) if root.refs else (False,)
        for expand in attempts:
            try:
                out = _patch_document(text, root, style, old, new, expand)
            except (_Abort, RecursionError):  # RecursionError: donor text nested beyond the stack
                continue
            document = _reread(out, new)
            if document is not None:
                return Rewrite(out, "expanded" if expand else "patched", document)
    out = _regenerate(text, root, old, new)
    document = _reread(out, new)
    if document is None:
        raise RewriteError("the regenerated document does not re-read as the converted data")
    return Rewrite(out, "regenerated", document)


def _patch_document(text: str, root: Node, style: DocStyle, old: Any, new: Any, expand: bool) -> str:
    ctx = _Context(text, _Lines(text), style, [], {}, root)
    patcher = _Patcher(ctx, expand=expand, collect=True)
    patcher.patch(root, old, new, _RootSlot)
    ctx.pool = patcher.donors
    return _apply(text, patcher.resolve())


def _regenerate(text: str, root: Node | None, old: Any, new: Any) -> str:
    value = order_like(old, new)
    if root is None:
        body = "\n".join(emit_block(value, 0)) if isinstance(value, dict) and value else format_flow(value)
        return text + ("" if not text or text.endswith("\n") else "\n") + body + "\n"
    original = text[root.start:root.end]
    if root.flow or not isinstance(value, dict) or not value:
        replacement = _json_text(original, value)
    else:
        col = _Lines(text).col(root.cstart)
        replacement = "\n".join(emit_block(value, col, guess_style(text, root)))[col:]
    return text[:root.start] + replacement + text[root.end:]


def _reread(text: str, new: Any) -> Any:
    """The inputs Document ``text`` loads as, if it holds exactly ``new``; else None."""
    from crdtool.yaml.loader import Document, load_documents

    items = load_documents(text, "<rewrite>")
    docs = [d for d in items if isinstance(d, Document)]
    if len(items) != 1 or len(docs) != 1 or docs[0].duplicate_keys:
        return None
    return docs[0] if same(docs[0].data, new) else None
