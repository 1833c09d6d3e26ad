"""Kubernetes manifests read as kubectl reads them: YAML and JSON text into documents.

Turns a file's bytes into :class:`Document` values (one per YAML/JSON
document, with its plain JSON-compatible data) or :class:`InputError` values
(one line each, naming ``file:line:column``). Nothing here raises on broken or
hostile input; loading continues with the next document. Entry points:
:func:`load_documents` (text or bytes), :func:`load_bytes` (lazily),
:func:`load_file` (a path); the command line's paths and stdin are expanded by
:mod:`crdtool.cli.inputs`.

What kubectl and the apiserver see, and therefore what this module mirrors:

* ``kubectl`` splits a stream into documents textually
  (``k8s.io/apimachinery/pkg/util/yaml/decoder.go``, ``YAMLReader.Read``): a
  line starting with ``---`` whose rest is blank or a comment ends a document;
  any other text after ``---`` is ``invalid Yaml document separator``. Each
  chunk is then converted by ``sigs.k8s.io/yaml`` (``YAMLToJSON`` over its
  go-yaml v2 fork), which decodes only the chunk's first YAML document.
* A stream whose first non-blank character is ``{`` is read as a stream of JSON
  objects first, falling back to YAML while at most one object has been read
  (``YAMLOrJSONDecoder.Decode``).
* Scalars resolve as go-yaml v2 does (``goyaml.v2/resolve.go``, ``resolve``):
  YAML 1.1 booleans including ``y``/``n``/``yes``/``no``/``on``/``off``, ints in
  any base with ``_`` separators, no base-60 numbers, and timestamps kept as
  their original STRING (``decode.go``, ``decoder.scalar``: "for backward
  compatibility reasons we set it as a string"). Non-string keys become strings
  as ``sigs.k8s.io/yaml`` ``convertToJSONableObject`` does (ints in decimal,
  floats with Go's ``%g``, bools as ``true``/``false``; a null key is an
  error). Merge keys follow go-yaml v2's order-dependent semantics (a ``<<``
  overwrites keys set before it; later keys overwrite it). Integers outside
  int64 become floats, as the apiserver's JSON decoding does; a float becomes
  an int when the text Go's ``json.Marshal`` writes for it (the shortest
  decimal digits) is an integer within int64 (``crdtool.core.gojson``).
* go-yaml's defences against hostile input are mirrored: the alias-expansion
  ratio of ``decoder.unmarshal`` ("document contains excessive aliasing") and
  the nesting limit of ``scannerc.go`` (``max_flow_level``/``max_indents``,
  10000), here applied to the alias-expanded data the validators walk.

Design (see ``benchmarks/bench_inputs.py``): one pass over libyaml's event
stream builds the data directly (no node objects), detects duplicate keys and
counts alias expansion; marks are not kept. :meth:`Document.position` re-parses
only that document, lazily, with mark tracking on. libyaml's parser is not
recursive, so deep nesting cannot crash the interpreter (PyYAML's C composer
recurses and segfaults near 30k levels). Plain texts (no tags, anchors, aliases
or merge keys, and too few nesting marks to nest deep: see :func:`_composed`) take a faster way
to the same data: that composer builds the node tree in C and one short walk
reads it (:func:`_composed`); a duplicate key or any error sends them back to
the event walk, which then answers.

Limits: files over :data:`MAX_INPUT_BYTES` are refused; documents whose JSON
form exceeds the etcd (1.5 MiB) or apiserver (3 MiB) request limits load with a
warning in :attr:`Document.warnings`, and so do objects whose annotations would
exceed 256 KiB once client-side ``kubectl apply`` adds its last-applied
annotation (:data:`TOTAL_ANNOTATION_SIZE_LIMIT`).
"""

from __future__ import annotations

import base64
import binascii
import json
import math
import os
import re
import stat
import sys
import threading
from _thread import get_ident as _get_ident
from dataclasses import dataclass, field
from typing import Any, BinaryIO, Callable, Iterable, Iterator

from yaml.error import MarkedYAMLError, YAMLError
from yaml.events import (
    AliasEvent,
    DocumentEndEvent,
    DocumentStartEvent,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
    StreamEndEvent,
)
from yaml.reader import ReaderError

from crdtool.core.errors import go_float
from crdtool.core.gojson import json_number

from yaml.parser import Parser as _PyParser
from yaml.reader import Reader as _PyReader
from yaml.scanner import Scanner as _PyScanner


class _PyEventParser(_PyReader, _PyScanner, _PyParser):
    """PyYAML's pure-Python event parser with the CParser interface used here
    (``get_event``); a state machine, so not recursive either."""

    def __init__(self, stream: bytes) -> None:
        _PyReader.__init__(self, stream)
        _PyScanner.__init__(self)
        _PyParser.__init__(self)


try:  # libyaml's event parser; the pure-Python one is the slow fallback
    from yaml._yaml import CParser as _EventParser

    HAVE_LIBYAML = True
except ImportError:  # pragma: no cover - exercised only without libyaml
    _EventParser = _PyEventParser  # type: ignore[misc,assignment]
    HAVE_LIBYAML = False


def _lift_libyaml_nesting_limit() -> None:
    """Let our own depth limit (go-yaml's, :data:`MAX_DEPTH`) be the one that applies.

    libyaml 0.2.6 (bundled from PyYAML 6.0.4) refuses nesting deeper than 1,000 by
    default (``exceeded maximum nesting depth``), where kubectl's go-yaml accepts
    10,000. Its scanner reads ahead of the events we count, so its limit goes
    well above ours. Its parser is a state machine (no recursion), so a higher
    limit is safe; the setting is process-wide and only ever raised here.
    """
    try:
        from yaml import _yaml
    except ImportError:  # pragma: no cover - no libyaml
        return
    get_level = getattr(_yaml, "_get_max_nest_level", None)
    set_level = getattr(_yaml, "_set_max_nest_level", None)
    if get_level is not None and set_level is not None and get_level() < 2 * MAX_DEPTH:
        set_level(2 * MAX_DEPTH)


__all__ = [
    "APISERVER_BODY_LIMIT",
    "Document",
    "ETCD_OBJECT_LIMIT",
    "HAVE_LIBYAML",
    "InputError",
    "LAST_APPLIED_ANNOTATION",
    "MAX_DEPTH",
    "MAX_DEPTH_PURE_PYTHON",
    "MAX_INPUT_BYTES",
    "TOTAL_ANNOTATION_SIZE_LIMIT",
    "DIRECTORY_EXTENSIONS",
    "expand_path",
    "load_bytes",
    "load_documents",
    "load_file",
    "load_path",
    "load_stream",
]

#: Deepest nesting accepted, counted through aliases. go-yaml's scanner refuses
#: flow or block nesting deeper than 10000 (``max_flow_level``, ``max_indents``).
MAX_DEPTH = 10_000
#: The same limit with PyYAML's pure-Python parser (used only without libyaml):
#: its scanner re-checks every open flow level per token, so deep same-line
#: nesting costs depth squared. Real CRDs nest well under 100 levels.
MAX_DEPTH_PURE_PYTHON = 1_000

_lift_libyaml_nesting_limit()
#: Largest file or stdin accepted. Far above anything the apiserver stores, but
#: bounds memory (loaded data takes roughly 10x the file size).
MAX_INPUT_BYTES = 128 * 1024 * 1024
#: kube-apiserver's request body limit (``MaxRequestBodyBytes``, 3 MiB).
APISERVER_BODY_LIMIT = 3 * 1024 * 1024
#: etcd's default ``--max-request-bytes`` (1.5 MiB): larger objects cannot be stored.
ETCD_OBJECT_LIMIT = 1536 * 1024
#: ``TotalAnnotationSizeLimitB`` (apimachinery v0.36.3 ``pkg/api/validation/objectmeta.go``): keys and values
#: of ``metadata.annotations`` together, in bytes.
TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024
#: ``v1.LastAppliedConfigAnnotation``: where client-side ``kubectl apply`` keeps the object it applied.
LAST_APPLIED_ANNOTATION = "kubectl.kubernetes.io/last-applied-configuration"

# go-yaml v2 decoder.unmarshal: alias_ratio_range_low / _high.
_ALIAS_RATIO_LOW = 400_000
_ALIAS_RATIO_HIGH = 4_000_000
_INT64_MIN = -(1 << 63)
_INT64_MAX = (1 << 63) - 1
_UINT64_MAX = (1 << 64) - 1
# Document.prefetch_positions runs at most this many one-pass finds on a document; later calls re-parse it once
# in full instead, so that positions asked for in many small batches still cost one pass, not one per batch.
_TARGETED_PASSES = 2
# Below this a document cannot reach the annotation limit (the smallest of the limits) even as JSON, so its
# JSON size is not computed (JSON of a YAML document is rarely twice its size).
_SIZE_CHECK_BYTES = TOTAL_ANNOTATION_SIZE_LIMIT // 2


# --------------------------------------------------------------------------
# Public values


@dataclass(frozen=True)
class InputError:
    """An input that could not be turned into a document.

    Attributes:
        file: the path as given (or found in a directory), or ``<stdin>``.
        line: 1-based line of the problem, 0 when it concerns the whole file.
        column: 1-based column, 0 when unknown.
        message: one line, without the location.
        index: the 0-based document index the failed document would have had
            (it consumes that index), or None for whole-file problems.
    """

    file: str
    line: int
    column: int
    message: str
    index: int | None = None

    def __str__(self) -> str:
        if self.line <= 0:
            return f"{self.file}: {self.message}"
        if self.column <= 0:
            return f"{self.file}:{self.line}: {self.message}"
        return f"{self.file}:{self.line}:{self.column}: {self.message}"

    def to_dict(self) -> dict[str, Any]:
        """JSON shape: ``{"file", "line", "column", "message", "index"}``."""
        return {"file": self.file, "line": self.line, "column": self.column, "message": self.message,
                "index": self.index}


@dataclass(frozen=True)
class Document:
    """One YAML/JSON document whose root is a mapping.

    Attributes:
        file: the path as given (or found in a directory), or ``<stdin>``.
        index: 0-based position among the file's documents (empty documents do
            not count; documents that failed to load do).
        line: 1-based line where the document's root mapping starts.
        data: the document as plain JSON-compatible Python (dict, list, str,
            int, float, bool, None), exactly as kubectl would send it. Aliased
            nodes are shared objects: treat ``data`` as read-only.
        duplicate_keys: paths of mapping keys given twice in one mapping (the
            later value wins, as in go-yaml), in the upstream strict-decoding
            syntax: ``spec.group``, ``spec.versions[0].name``.
        column: 1-based column where the root mapping starts.
        warnings: one-line notes that are not errors (e.g. size limits).
    """

    file: str
    index: int
    line: int
    data: dict[str, Any]
    duplicate_keys: list[str] = field(default_factory=list)
    column: int = 1
    warnings: tuple[str, ...] = ()
    _source: _Source | None = field(default=None, repr=False, compare=False)

    def position(self, path: str) -> tuple[int, int] | None:
        """The 1-based ``(line, column)`` of the node at ``path``.

        ``path`` uses the upstream field-path syntax the validators produce:
        ``spec.versions[0].schema.openAPIV3Schema.properties[spec].type``,
        ``metadata.labels[app.kubernetes.io/name]``, ``spec.group``. Map keys in
        brackets may contain dots and slashes; dotted names are matched against
        the keys actually present (longest first). For a mapping entry the
        key's position is returned, for a list item the item's. When the path
        leaves the document (e.g. a ``Required value`` for a missing field) the
        position of the nearest existing ancestor is returned; ``""`` gives the
        root. If the document cannot be re-read its start is returned (the
        ``None`` in the signature is reserved for documents without a source).

        The first call re-parses this document with mark tracking (cached).
        """
        source = self._source
        if source is None:
            return (self.line, self.column)
        found = source.prefetched.get(path) if source.prefetched else None
        if found is not None:
            return found
        tracked = source.tracked()
        if tracked is None:
            return (self.line, self.column)
        return _find_position(tracked, path)

    def source_text(self) -> tuple[str, int] | None:
        """This document's text as read (its ``---`` line and the comments above its root included) and the
        1-based file line it starts at; None for a document built without a source."""
        source = self._source
        if source is None:
            return None
        return source.text.decode("utf-8", errors="replace").lstrip("\ufeff"), source.line_offset + 1

    def prefetch_positions(self, paths: Iterable[str]) -> None:
        """Find the positions of ``paths`` in one pass, so that :meth:`position` answers them without a re-parse.

        A document with errors used to be parsed again in full, every node's
        position kept, for its first :meth:`position`; here one pass over
        libyaml's events records only the nodes on these paths, which takes
        about half the time. The answers are those :meth:`position` gives
        (a differential test holds them equal on the corpus). Documents with
        aliases or merge keys on those paths, or with duplicate keys, are left
        to :meth:`position`'s full re-parse.
        """
        source = self._source
        if source is None or source.done or self.duplicate_keys:
            return
        wanted = {path: _resolve_steps(self.data, path) for path in set(paths) if path not in source.prefetched}
        if not wanted:
            return
        if source.passes >= _TARGETED_PASSES:
            # called again and again (a caller asking item by item): one full re-parse answers every later
            # path, where a pass per call would cost the document's size each time
            source.tracked()
            return
        source.passes += 1
        marks = source.targeted(list(wanted.values()))
        if marks is None:
            return
        for path, steps in wanted.items():
            source.prefetched[path] = source.absolute_mark(marks[steps])


# --------------------------------------------------------------------------
# Entry points


def load_documents(text: str | bytes, file: str = "<string>") -> list[Document | InputError]:
    """Load all documents of one file's content, as kubectl reads them.

    Args:
        text: the content; ``str`` is encoded as UTF-8, ``bytes`` is decoded as
            a file would be (UTF-8, or UTF-16/32 with a byte-order mark).
        file: the name used in documents and errors.

    Returns:
        Documents and errors in document order; never raises for bad input.
    """
    if isinstance(text, str):
        try:
            raw = text.encode("utf-8")
        except UnicodeEncodeError as exc:
            return [InputError(file, 0, 0, f"text cannot be encoded as UTF-8: {exc.reason}")]
    else:
        raw = bytes(text)
    return list(load_bytes(raw, file))


# --------------------------------------------------------------------------
# Files, directories, stdin


def load_path(path: str) -> Iterator[Document | InputError]:
    """Load all documents of a file, or of a directory's ``*.yaml``/``*.yml``/``*.json`` files (:func:`expand_path`).

    Yields :class:`Document` and :class:`InputError` values in file, then
    document order. Never raises for bad input.
    """
    try:
        fd = os.open(path, _READ_FLAGS)
    except OSError:
        fd = -1  # the path's error (or a directory where it cannot be opened): as expand_path finds it
    if fd >= 0:
        # an open and reads for a file, where expand_path's stat, then load_file's open and fstat, took three calls
        # more: the same bytes, the same answer (a directory is walked, a symlink to one included, as stat follows)
        try:
            raw = _read_unsized(fd, MAX_INPUT_BYTES + 1)
        except OSError as exc:
            yield InputError(path, 0, 0, _os_message(exc))
            return
        finally:
            os.close(fd)
        if raw is not None:
            yield from _load_raw(raw, path)
            return
    for item in expand_path(path):
        if isinstance(item, InputError):
            yield item
        else:
            yield from load_file(item)


def load_stream(stream: BinaryIO, name: str = "<stdin>") -> Iterator[Document | InputError]:
    """Load all documents of a binary stream (stdin), read whole and refused above :data:`MAX_INPUT_BYTES`.

    ``name`` is the ``file`` of its documents and errors. Never raises for bad input.
    """
    try:
        raw = stream.read(MAX_INPUT_BYTES + 1)
    except (OSError, ValueError) as exc:
        yield InputError(name, 0, 0, f"cannot read stdin: {exc}")
        return
    if isinstance(raw, str):  # a text stream was passed despite the type
        raw = raw.encode("utf-8", "surrogateescape")
    if len(raw) > MAX_INPUT_BYTES:
        yield InputError(name, 0, 0, f"stdin is larger than {MAX_INPUT_BYTES} bytes; refusing to load it")
        return
    yield from load_bytes(raw, name)


def load_file(path: str) -> Iterator[Document | InputError]:
    """Load all documents of the file at ``path`` (read whole, refused above :data:`MAX_INPUT_BYTES`).

    Yields :class:`Document` and :class:`InputError` values in document order;
    an unreadable file is one :class:`InputError`. Never raises for bad input.
    """
    try:
        raw = read_path(path, MAX_INPUT_BYTES + 1)
    except OSError as exc:
        yield InputError(path, 0, 0, _os_message(exc))
        return
    yield from _load_raw(raw, path)


def _load_raw(raw: bytes, path: str) -> Iterator[Document | InputError]:
    """:func:`load_bytes` of a file's first ``MAX_INPUT_BYTES + 1`` bytes: refused when there are that many."""
    if len(raw) > MAX_INPUT_BYTES:
        yield InputError(path, 0, 0, f"file is larger than {MAX_INPUT_BYTES} bytes; refusing to load it")
        return
    yield from load_bytes(raw, path)


#: ``os.open`` flags for reading a file's bytes as they are (``O_BINARY``: no newline translation on Windows).
_READ_FLAGS = os.O_RDONLY | getattr(os, "O_BINARY", 0)


def read_path(path: str, limit: int) -> bytes:
    """The first ``limit`` bytes of the file at ``path`` (all of a smaller one), as ``open(path, "rb").read(limit)``.

    Without its costs for a small file: a buffered ``read(n)`` allocates ``n`` bytes up front (CPython
    ``_bufferedreader_read_generic``: 128 MiB for every file, ~30 µs) and ``open`` builds a buffered reader
    (~6 µs). The size ``fstat`` gives is only a hint (0 for pipes and /proc files; a file may grow): reads go on
    until the end of the file or ``limit``. Raises ``OSError`` (a directory: ``EISDIR`` at the first read).
    """
    fd = os.open(path, _READ_FLAGS)
    try:
        return _read_fd(fd, os.fstat(fd).st_size, limit)
    finally:
        os.close(fd)


#: :func:`_read_unsized`'s first read: most manifests fit in it; a file that fills it is sized (``fstat``) for the rest.
_FIRST_READ = 1 << 16
#: ``read(2)`` of a directory fails with ``EISDIR`` here (elsewhere a directory is told by ``fstat``; Windows does
#: not open one at all).
_READ_REFUSES_DIRECTORIES = sys.platform.startswith(("linux", "darwin"))


def _read_unsized(fd: int, limit: int) -> bytes | None:
    """The bytes :func:`_read_fd` reads (up to ``limit``, until the end), or None when ``fd`` is a directory.

    A file smaller than :data:`_FIRST_READ` costs two reads (the second sees its end) and no ``fstat``: on this
    machine's file systems a system call costs microseconds, a tenth of a small manifest's load. Raises ``OSError``.
    """
    if not _READ_REFUSES_DIRECTORIES:
        st = os.fstat(fd)
        return None if stat.S_ISDIR(st.st_mode) else _read_fd(fd, st.st_size, limit)
    try:
        head = os.read(fd, min(_FIRST_READ, limit))
    except IsADirectoryError:
        return None
    # a short read is the end of a file (or a pipe's short read: _read_fd goes on to the end); a full one, a
    # large file: the rest in one read of its size
    hint = 0 if len(head) < _FIRST_READ else max(0, os.fstat(fd).st_size - len(head))
    rest = _read_fd(fd, hint, limit - len(head))
    return head + rest if rest else head


def _read_fd(fd: int, hint: int, limit: int) -> bytes:
    """Up to ``limit`` bytes of ``fd`` until its end; the first read asks for ``hint + 1`` (the end seen at once)."""
    chunks: list[bytes] = []
    total = 0
    want = hint + 1
    while total < limit:
        chunk = os.read(fd, min(want, limit - total))
        if not chunk:
            break
        chunks.append(chunk)
        total += len(chunk)
        want = 1 << 16  # past the hint: read on in 64 KiB steps
    return chunks[0] if len(chunks) == 1 else b"".join(chunks)


def _os_message(exc: OSError) -> str:
    return exc.strerror.lower() if exc.strerror else str(exc)


# --------------------------------------------------------------------------
# Streams: encoding, JSON sniffing, document splitting


_BOMS = (
    (b"\xff\xfe\x00\x00", "utf-32-le"),
    (b"\x00\x00\xfe\xff", "utf-32-be"),
    (b"\xff\xfe", "utf-16-le"),
    (b"\xfe\xff", "utf-16-be"),
)
_JSON_WS = " \t\r\n"
_LEADING_SPACE_RE = re.compile(rb"[ \t\r\n\f\v]*")
_NON_SPACE_RE = re.compile(rb"[^ \t\r\n\f\v]")


def load_bytes(raw: bytes, file: str) -> Iterator[Document | InputError]:
    """All documents of one file's bytes, lazily; see the module docstring and :func:`load_documents`."""
    try:
        yield from _load_bytes_unguarded(raw, file)
    except Exception as exc:  # pragma: no cover - a bug must not stop the other files
        yield InputError(file, 0, 0, f"internal error while loading: {type(exc).__name__}: {exc}")


def _load_bytes_unguarded(raw: bytes, file: str) -> Iterator[Document | InputError]:
    try:
        raw = _normalise_encoding(raw)
    except UnicodeDecodeError as exc:
        yield InputError(file, 0, 0, f"cannot decode file with its byte-order mark: {exc.reason}")
        return
    counter = _Counter()
    first = _LEADING_SPACE_RE.match(raw).end()  # type: ignore[union-attr]
    if raw[first:first + 1] == b"{":
        yield from _load_json_stream(raw, file, counter)
        return
    if b"---" not in raw:  # one chunk (most files): _load_yaml_stream's work without its generators
        if first < len(raw):
            item = _load_chunk(raw, file, 1, counter)
            if item is not None:
                yield item
        return
    yield from _load_yaml_stream(raw, file, 1, counter)


def _normalise_encoding(raw: bytes) -> bytes:
    if raw.startswith(b"\xef\xbb\xbf"):
        return raw[3:]
    for bom, codec in _BOMS:
        if raw.startswith(bom):
            return raw[len(bom):].decode(codec).encode("utf-8")
    return raw


class _Counter:
    """Document index within one file (shared by the JSON and YAML parts)."""

    __slots__ = ("next",)

    def __init__(self) -> None:
        self.next = 0

    def take(self) -> int:
        n = self.next
        self.next += 1
        return n


def _split_chunks(raw: bytes) -> Iterator[tuple[int, bytes, str | None]]:
    """``(first line, chunk, bad separator text)`` per kubectl YAMLReader chunk.

    Mirrors ``YAMLReader.Read``: a line starting with ``---`` whose rest,
    trimmed, is empty or a comment separates documents; any other rest is an
    ``invalid Yaml document separator`` (reported; the line still separates).
    """
    if b"---" not in raw:  # one chunk (most files): no line can separate
        if raw:
            yield 1, raw, None
        return
    start = 0
    line = 1
    for at, end in _separator_lines(raw):
        rest = raw[at + 3:end].strip()
        bad = None
        if rest and not rest.startswith(b"#"):
            bad = rest.decode("utf-8", "replace")
        chunk = raw[start:at]
        yield line, chunk, None
        line += chunk.count(b"\n")
        if bad is not None:
            yield line, b"", bad
        line += 1
        start = end + 1
    if start < len(raw):
        yield line, raw[start:], None


def _separator_lines(raw: bytes) -> Iterator[tuple[int, int]]:
    """``(start, end)`` of each line of ``raw`` that starts with ``---`` (``end``: its newline, or ``len(raw)``),
    in order: the matches of ``^---([^\\n]*)$`` (multi-line: :data:`crdtool.yaml.stream._SEPARATOR_RE`), found
    with ``bytes.find`` (a 1.9 MB stream of 3,000 documents: ~1 ms, the expression's scan ~10 ms;
    tests/yaml/test_split_chunks.py compares them)."""
    at = 0 if raw.startswith(b"---") else raw.find(b"\n---") + 1
    if at == 0 and not raw.startswith(b"---"):
        return
    while True:
        end = raw.find(b"\n", at + 3)
        if end < 0:
            end = len(raw)
        yield at, end
        at = raw.find(b"\n---", end) + 1  # 0: none after this one
        if at == 0:
            return


def _load_yaml_stream(raw: bytes, file: str, first_line: int, counter: _Counter) -> Iterator[Document | InputError]:
    for rel_line, chunk, bad in _split_chunks(raw):
        line = first_line + rel_line - 1
        if bad is not None:
            yield InputError(file, line, 1, f"invalid Yaml document separator: {bad}")
            continue
        if _NON_SPACE_RE.search(chunk) is None:
            continue
        item = _load_chunk(chunk, file, line, counter)
        if item is not None:
            yield item


def _load_chunk(chunk: bytes, file: str, line: int, counter: _Counter) -> Document | InputError | None:
    """The first YAML document of a chunk (as go-yaml's Unmarshal), or None if empty."""
    source = _Source(chunk, line - 1, 0)
    try:
        built = _build(chunk, track=False)
    except _Fail as fail:
        return fail.to_error(file, source, counter.take())
    except YAMLError as exc:
        return _yaml_error(exc, file, source, counter.take())
    except RecursionError:
        return InputError(file, line, 0, f"yaml: exceeded max depth of {MAX_DEPTH}", counter.take())
    except MemoryError:
        return InputError(file, line, 0, "out of memory while loading the document", counter.take())
    except Exception as exc:  # never let a bad document stop the others
        message = f"internal error while loading YAML: {type(exc).__name__}: {exc}"
        return InputError(file, line, 0, message, counter.take())
    if built is None:
        return None
    return _document(built, file, source, counter)


def _document(built: _Built, file: str, source: _Source, counter: _Counter) -> Document | InputError | None:
    data = built.data
    line, column = source.absolute(built.root_mark)
    if data is None:
        # kubectl's StreamVisitor skips documents that decode to JSON null.
        return None
    index = counter.take()
    if not isinstance(data, dict):
        message = f"document root must be a mapping (object), not {_kind_name(data)}"
        return InputError(file, line, column, message, index)
    return Document(
        file=file,
        index=index,
        line=line,
        data=data,
        duplicate_keys=built.duplicates,
        column=column,
        warnings=_size_warnings(data, len(source.text)),
        _source=source,
    )


def _kind_name(value: Any) -> str:
    if isinstance(value, list):
        return "a sequence (array)"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    return "a string"


def _size_warnings(data: dict[str, Any], source_bytes: int) -> tuple[str, ...]:
    if source_bytes < _SIZE_CHECK_BYTES:
        return ()
    size = _json_size(data)
    if size > APISERVER_BODY_LIMIT:
        return (
            f"document is {size} bytes as JSON; kube-apiserver rejects request bodies over "
            f"{APISERVER_BODY_LIMIT} bytes (3 MiB)",
        )
    if size > ETCD_OBJECT_LIMIT:
        return (
            f"document is {size} bytes as JSON; etcd rejects objects over {ETCD_OBJECT_LIMIT} bytes "
            "(1.5 MiB) by default",
        )
    items = data.get("items")
    if isinstance(items, list):  # kubectl applies a List item by item
        return tuple(
            f"items[{i}]: {w}" for i, item in enumerate(items) if isinstance(item, dict)
            for w in _last_applied_warning(item)
        )
    return _last_applied_warning(data, size)


def _json_size(data: Any) -> int:
    return len(json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode("utf-8", "surrogatepass"))


def _last_applied_warning(obj: dict[str, Any], json_size: int | None = None) -> tuple[str, ...]:
    """Would client-side ``kubectl apply`` of ``obj`` fail on the size of its annotations?

    kubectl (``apply.go``, ``util.CreateApplyAnnotation`` / ``GetModifiedConfiguration``) stores the
    object, with its annotations but its own last-applied one (``{}`` when that leaves none: a nil
    map is made empty first), as ``unstructured.UnstructuredJSONScheme``
    encodes it (``json.NewEncoder(w).Encode``: Go's compact JSON and a newline) in the
    ``kubectl.kubernetes.io/last-applied-configuration`` annotation; the apiserver's
    ``ValidateAnnotationsSize`` then sums the bytes of every annotation key and value and refuses
    more than 262144 (``metadata.annotations: Too long: may not be more than 262144 bytes``).
    ``json_size``: the object's own JSON size when already known (it bounds the applied JSON's,
    which leaves out the old last-applied annotation and adds at most ``"annotations":{},``).
    """
    from crdtool.core.gojson import go_json_size

    meta = obj.get("metadata")
    meta = meta if isinstance(meta, dict) else {}
    annotations = meta.get("annotations")
    kept: dict[str, str] = {}
    if isinstance(annotations, dict) and all(isinstance(v, str) for v in annotations.values()):
        kept = {str(k): v for k, v in annotations.items() if k != LAST_APPLIED_ANNOTATION}
    others = sum(len(k.encode("utf-8", "surrogatepass")) + len(v.encode("utf-8", "surrogatepass")) for k, v in kept.items())
    # GetModifiedConfiguration writes the annotations back without its own, as {} when there are none
    applied = {**obj, "metadata": {**meta, "annotations": kept}}
    fixed = others + len(LAST_APPLIED_ANNOTATION) + 1  # the encoder's newline
    estimate = json_size + 17 if json_size is not None else _json_size(applied)
    if fixed + estimate <= TOTAL_ANNOTATION_SIZE_LIMIT * 9 // 10:
        return ()  # far below: Go's JSON differs from Python's by a few escapes and float texts
    total = fixed + go_json_size(applied)
    if total <= TOTAL_ANNOTATION_SIZE_LIMIT:
        return ()
    return (
        f"client-side kubectl apply would fail: the {LAST_APPLIED_ANNOTATION} annotation it adds (this object "
        f"as JSON) brings metadata.annotations to {total} bytes, over the {TOTAL_ANNOTATION_SIZE_LIMIT}-byte limit "
        f"(metadata.annotations: Too long: may not be more than {TOTAL_ANNOTATION_SIZE_LIMIT} bytes); "
        "use kubectl apply --server-side (or kubectl create)",
    )


# --------------------------------------------------------------------------
# JSON streams (YAMLOrJSONDecoder)


class _JSONReject(ValueError):
    pass


def _reject_constant(name: str) -> Any:
    # Go's encoding/json has no NaN/Infinity literals.
    raise _JSONReject(f"invalid character '{name[0]}' looking for beginning of value")


def _json_int(text: str) -> int | float:
    value = int(text)
    if _INT64_MIN <= value <= _INT64_MAX:
        return value
    return float(value)


def _load_json_stream(raw: bytes, file: str, counter: _Counter) -> Iterator[Document | InputError]:
    """A ``{``-prefixed stream: JSON objects, falling back to YAML.

    Mirrors ``YAMLOrJSONDecoder.Decode``: JSON values are decoded one after
    another; on a JSON error with at most one object decoded the rest of the
    stream is read as YAML, and if its first document fails too the JSON error
    is reported.
    """
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line, column = _offset_position(raw, exc.start)
        yield InputError(file, line, column, f"invalid UTF-8 byte 0x{raw[exc.start]:02x}")
        return
    dup_log: list[tuple[dict[str, Any], list[str]]] = []

    def pairs_hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        obj = dict(pairs)
        if len(obj) != len(pairs):
            seen: set[str] = set()
            dups = []
            for k, _ in pairs:
                if k in seen:
                    dups.append(k)
                seen.add(k)
            dup_log.append((obj, dups))
        return obj

    decoder = json.JSONDecoder(object_pairs_hook=pairs_hook, parse_int=_json_int, parse_constant=_reject_constant)
    pos = 0
    count = 0
    end = len(text)
    while True:
        while pos < end and text[pos] in _JSON_WS:
            pos += 1
        if pos >= end:
            return
        dup_log.clear()
        try:
            value, stop = decoder.raw_decode(text, pos)
        except (ValueError, RecursionError) as exc:
            error = _json_error(exc, text, pos, file, counter.next)
            if count > 1:
                counter.take()
                yield error
                return
            yield from _json_fallback_to_yaml(raw, text, pos, file, counter, error)
            return
        count += 1
        yield _json_document(value, text, pos, stop, file, counter, dup_log)
        pos = stop


def _json_error(exc: Exception, text: str, pos: int, file: str, index: int) -> InputError:
    if isinstance(exc, json.JSONDecodeError):
        return InputError(file, exc.lineno, exc.colno, f"json: {exc.msg}", index)
    line, column = _text_position(text, pos)
    if isinstance(exc, RecursionError):
        return InputError(file, line, column, "json: exceeded max depth", index)
    return InputError(file, line, column, f"json: {exc}", index)


def _json_fallback_to_yaml(
    raw: bytes, text: str, pos: int, file: str, counter: _Counter, json_error: InputError
) -> Iterator[Document | InputError]:
    # The YAML decoder starts where the failed JSON value started; leading
    # whitespace up to and including the first newline is eaten first
    # (YAMLOrJSONDecoder.consumeWhitespace).
    line, _ = _text_position(text, pos)
    byte_pos = len(text[:pos].encode("utf-8"))
    rest = raw[byte_pos:]
    first = True
    for item in _load_yaml_stream(rest, file, line, counter):
        if first and isinstance(item, InputError):
            item = InputError(json_error.file, json_error.line, json_error.column, json_error.message, item.index)
        first = False
        yield item
    if first:
        counter.take()
        yield json_error


def _json_document(
    value: Any,
    text: str,
    start: int,
    stop: int,
    file: str,
    counter: _Counter,
    dup_log: list[tuple[dict[str, Any], list[str]]],
) -> Document | InputError:
    line, column = _text_position(text, start)
    index = counter.take()
    if not isinstance(value, dict):
        message = f"document root must be a mapping (object), not {_kind_name(value)}"
        return InputError(file, line, column, message, index)
    duplicates = _json_duplicate_paths(value, dup_log) if dup_log else []
    chunk = text[start:stop].encode("utf-8", "surrogatepass")
    source = _Source(chunk, line - 1, column - 1)
    return Document(
        file=file,
        index=index,
        line=line,
        data=value,
        duplicate_keys=duplicates,
        column=column,
        warnings=_size_warnings(value, len(chunk)),
        _source=source,
    )


def _json_duplicate_paths(root: dict[str, Any], dup_log: list[tuple[dict[str, Any], list[str]]]) -> list[str]:
    wanted = {id(obj): keys for obj, keys in dup_log}
    found: dict[int, str] = {}
    stack: list[tuple[Any, str]] = [(root, "")]
    while stack:
        node, path = stack.pop()
        if isinstance(node, dict):
            if id(node) in wanted:
                found[id(node)] = path
            for k, v in node.items():
                if isinstance(v, (dict, list)):
                    stack.append((v, f"{path}.{k}" if path else k))
        elif isinstance(node, list):
            for i, v in enumerate(node):
                if isinstance(v, (dict, list)):
                    stack.append((v, f"{path}[{i}]"))
    out: list[str] = []
    for obj, keys in dup_log:
        base = found.get(id(obj), "")
        out.extend(f"{base}.{k}" if base else k for k in keys)
    return out


def _text_position(text: str, pos: int) -> tuple[int, int]:
    line = text.count("\n", 0, pos) + 1
    column = pos - (text.rfind("\n", 0, pos) + 1) + 1
    return line, column


def _offset_position(raw: bytes, offset: int) -> tuple[int, int]:
    line = raw.count(b"\n", 0, offset) + 1
    column = offset - (raw.rfind(b"\n", 0, offset) + 1) + 1
    return line, column


# --------------------------------------------------------------------------
# Errors


class _Fail(Exception):
    """A document-level failure at a libyaml mark (0-based, chunk-relative)."""

    def __init__(self, mark: Any, message: str) -> None:
        super().__init__(message)
        self.mark = mark
        self.message = message

    def to_error(self, file: str, source: _Source, index: int) -> InputError:
        line, column = source.absolute(self.mark)
        return InputError(file, line, column, self.message, index)


def _yaml_error(exc: YAMLError, file: str, source: _Source, index: int) -> InputError:
    if isinstance(exc, ReaderError):
        line, column = _offset_position(source.text, exc.position)
        line += source.line_offset
        if exc.reason == "control characters are not allowed":
            return InputError(file, line, column, "yaml: control characters are not allowed", index)
        message = f"yaml: invalid UTF-8: {exc.reason} (byte 0x{exc.character:02x})"
        return InputError(file, line, column, message, index)
    if isinstance(exc, MarkedYAMLError):
        mark = exc.problem_mark or exc.context_mark
        line, column = _clamp_to_content(source, mark)
        message = f"yaml: {exc.problem or exc.context or 'unknown problem parsing YAML content'}"
        if exc.context and exc.problem and exc.context_mark is not None:
            cline, ccol = _clamp_to_content(source, exc.context_mark)
            message += f" ({exc.context} started at line {cline}, column {ccol})"
        return InputError(file, line, column, _one_line(message), index)
    return InputError(file, source.line_offset + 1, 0, _one_line(f"yaml: {exc}"), index)


def _clamp_to_content(source: _Source, mark: Any) -> tuple[int, int]:
    """Absolute position of ``mark``, but errors found at the end of the chunk
    (an unclosed bracket, say) point at the end of its last content line, not
    at the next document's ``---``."""
    line, column = source.absolute(mark)
    if mark is None:
        return line, column
    content = source.text.rstrip()
    last_line = content.count(b"\n")
    if mark.line <= last_line:
        return line, column
    last = content[content.rfind(b"\n") + 1:]
    return source.line_offset + last_line + 1, len(last.decode("utf-8", "replace")) + 1


def _one_line(text: str) -> str:
    return " ".join(text.split())


# --------------------------------------------------------------------------
# Document sources and lazy positions


class _Source:
    """One document's bytes and where they sit in the file; re-parsed lazily."""

    __slots__ = ("text", "line_offset", "column_offset", "_tracked", "_done", "prefetched", "passes")

    def __init__(self, text: bytes, line_offset: int, column_offset: int) -> None:
        self.text = text
        self.line_offset = line_offset
        self.column_offset = column_offset
        self._tracked: _Tracked | None = None
        self._done = False
        self.prefetched: dict[str, tuple[int, int]] = {}
        self.passes = 0  # one-pass position finds run so far (Document.prefetch_positions)

    @property
    def done(self) -> bool:
        """The full re-parse has run (its marks answer every path)."""
        return self._done

    def absolute_mark(self, mark: tuple[int, int]) -> tuple[int, int]:
        """A 0-based ``(line, column)`` of the re-read text as the 1-based position in the file."""
        return self.line_offset + mark[0] + 1, mark[1] + 1

    def _padded(self) -> bytes:
        # Keep first-line columns right for a JSON value that starts mid-line.
        return b" " * self.column_offset + self.text if self.column_offset else self.text

    def targeted(self, wanted: list[tuple[Any, ...]]) -> dict[tuple[Any, ...], tuple[int, int]] | None:
        """:func:`_targeted_marks` of this document; None when it cannot answer (or the text fails to parse)."""
        try:
            return _targeted_marks(self._padded(), wanted)
        except Exception:  # positions are best effort; the data loaded fine
            return None

    def __reduce__(self) -> tuple[Any, ...]:
        # sent between processes (validate's workers) without the re-parsed tree: re-read lazily there
        return (_Source, (self.text, self.line_offset, self.column_offset))

    def absolute(self, mark: Any) -> tuple[int, int]:
        if mark is None:
            return self.line_offset + 1, 0
        column = mark.column + 1
        if mark.line == 0:
            column += self.column_offset
        return self.line_offset + mark.line + 1, column

    def tracked(self) -> _Tracked | None:
        if self._done:
            return self._tracked
        self._done = True
        try:
            built = _build(self._padded(), track=True)
        except Exception:  # positions are best effort; the data loaded fine
            return None
        if built is None or built.marks is None:
            return None
        self._tracked = _Tracked(built.data, built.marks, built.root_mark, self.line_offset)
        return self._tracked


class _Tracked:
    __slots__ = ("data", "marks", "root", "line_offset")

    def __init__(self, data: Any, marks: dict[int, Any], root: Any, line_offset: int) -> None:
        self.data = data
        self.marks = marks
        self.root = (root.line, root.column) if root is not None else (0, 0)
        self.line_offset = line_offset

    def absolute(self, pos: tuple[int, int]) -> tuple[int, int]:
        return self.line_offset + pos[0] + 1, pos[1] + 1


_INDEX_RE = re.compile(r"\[(\d+)\]")


def _resolve_steps(data: Any, path: str) -> tuple[Any, ...]:
    """The keys and indexes ``path`` takes through ``data``, as far as they exist (the nearest existing node wins)."""
    steps: list[Any] = []
    node = data
    rest = path
    while rest:
        if rest[0] == ".":
            rest = rest[1:]
            if not rest:
                break
        if isinstance(node, dict):
            step = _match_key(node, rest)
            if step is None:
                break
            key, consumed = step
            steps.append(key)
            node = node[key]
            rest = rest[consumed:]
            continue
        if isinstance(node, list):
            m = _INDEX_RE.match(rest)
            if m is None:
                break
            i = int(m.group(1))
            if i >= len(node):
                break
            steps.append(i)
            node = node[i]
            rest = rest[m.end():]
            continue
        break
    return tuple(steps)


class _Unanswerable(Exception):
    """:func:`_targeted_marks` met an alias or merge key on a wanted path."""


def _targeted_marks(text: bytes, wanted: list[tuple[Any, ...]]) -> dict[tuple[Any, ...], tuple[int, int]] | None:
    """0-based ``(line, column)`` of the nodes at ``wanted`` step sequences, from one pass over libyaml's events.

    The same marks :func:`_build` with ``track`` records (a mapping entry at
    its key, a sequence item at its start, the root at its start), found
    without building the document: subtrees off every wanted path are only
    counted through. Returns None when an alias or a merge key lies on a
    wanted path (the full build follows those).
    """
    trie: dict[Any, Any] = {}
    for steps in wanted:
        node = trie
        for step in steps:
            node = node.setdefault(step, {})
    parser = _EventParser(text)
    try:
        return _walk_targeted(parser.get_event, trie)
    except _Unanswerable:
        return None
    finally:
        dispose = getattr(parser, "dispose", None)
        if dispose is not None:
            dispose()


def _walk_targeted(get_event: Callable[[], Any], trie: dict[Any, Any]) -> dict[tuple[Any, ...], tuple[int, int]] | None:
    get_event()  # StreamStartEvent
    event = get_event()
    if event is None or event.__class__ is not DocumentStartEvent:
        return None
    out: dict[tuple[Any, ...], tuple[int, int]] = {}
    # frames of wanted containers: [trie below it, is a mapping, key awaiting its value (or _NOKEY), key mark,
    # next index, steps to it]
    stack: list[list[Any]] = []
    while True:
        event = get_event()
        cls = event.__class__
        if cls is MappingEndEvent or cls is SequenceEndEvent:
            stack.pop()
            continue
        if cls is DocumentEndEvent:
            return out
        mark = event.start_mark
        if not stack:  # the root
            below, steps = trie, ()
            out[()] = (mark.line, mark.column)
        else:
            frame = stack[-1]
            if frame[1]:
                if frame[2] is _NOKEY:  # a key
                    if cls is not ScalarEvent:
                        raise _Unanswerable
                    frame[2], frame[3] = _key_of(event), mark
                    continue
                step, at = frame[2], frame[3]
                frame[2] = _NOKEY
            else:
                step, at = frame[4], mark
                frame[4] += 1
            below = frame[0].get(step)
            steps = frame[5] + (step,)
            if below is not None:
                out[steps] = (at.line, at.column)
        if cls is AliasEvent:
            if below:  # a wanted path goes on inside the anchored node
                raise _Unanswerable
            continue
        if cls is MappingStartEvent or cls is SequenceStartEvent:
            if below is None:
                _skip_node(get_event)
            else:
                stack.append([below, cls is MappingStartEvent, _NOKEY, None, 0, steps])


def _skip_node(get_event: Callable[[], Any]) -> None:
    """Consume the events of the container just started."""
    depth = 1
    while depth:
        cls = get_event().__class__
        if cls is MappingStartEvent or cls is SequenceStartEvent:
            depth += 1
        elif cls is MappingEndEvent or cls is SequenceEndEvent:
            depth -= 1


def _key_of(event: Any) -> str:
    """A mapping key as :func:`_build_events` makes it (raises :class:`_Unanswerable` for a merge key)."""
    tag = event.tag
    value = event.value
    if tag is None:
        if event.implicit[0]:
            if value == "<<":
                raise _Unanswerable
            if not value or value[0] in _HINT_CHARS:
                value = _resolve_plain(value)
    elif tag == _MERGE_TAG:
        raise _Unanswerable
    else:
        value = _resolve_tagged(tag, value, event.start_mark)
    if value.__class__ is not str:
        value = _key_string(value, event.start_mark)
    return value  # type: ignore[no-any-return]


def _find_position(tracked: _Tracked, path: str) -> tuple[int, int]:
    """Follow ``path`` through the tracked data's marks; nearest existing node wins."""
    node = tracked.data
    pos = tracked.root
    for step in _resolve_steps(tracked.data, path):
        if isinstance(node, dict):
            found = tracked.marks.get(id(node), {}).get(step)
            if found is None:  # a key merged in without a mark
                break
            pos = found
        else:
            pos = tracked.marks[id(node)][step]
        node = node[step]
    return tracked.absolute(pos)


def _match_key(mapping: dict[str, Any], rest: str) -> tuple[str, int] | None:
    """The longest key of ``mapping`` that ``rest`` starts with, as a path step."""
    best: tuple[str, int] | None = None
    if rest[0] == "[":
        inner = rest[1:]
        for key in mapping:
            n = len(key)
            if inner.startswith(key) and inner[n:n + 1] == "]" and inner[n + 1:n + 2] in ("", ".", "["):
                if best is None or n + 2 > best[1]:
                    best = (key, n + 2)
        return best
    for key in mapping:
        n = len(key)
        if n and rest.startswith(key) and rest[n:n + 1] in ("", ".", "["):
            if best is None or n > best[1]:
                best = (key, n)
    return best


# --------------------------------------------------------------------------
# Scalar resolution (go-yaml v2 resolve.go, sigs.k8s.io/yaml)

_STR_TAG = "tag:yaml.org,2002:str"
_BOOL_TAG = "tag:yaml.org,2002:bool"
_INT_TAG = "tag:yaml.org,2002:int"
_FLOAT_TAG = "tag:yaml.org,2002:float"
_NULL_TAG = "tag:yaml.org,2002:null"
_TIMESTAMP_TAG = "tag:yaml.org,2002:timestamp"
_BINARY_TAG = "tag:yaml.org,2002:binary"
_MERGE_TAG = "tag:yaml.org,2002:merge"
_RESOLVABLE_TAGS = frozenset({_STR_TAG, _BOOL_TAG, _INT_TAG, _FLOAT_TAG, _NULL_TAG, _TIMESTAMP_TAG})

_RESOLVE_MAP: dict[str, Any] = {}
for _value, _words in (
    (True, ("y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON")),
    (False, ("n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF")),
    (None, ("", "~", "null", "Null", "NULL")),
    (math.nan, (".nan", ".NaN", ".NAN")),
    (math.inf, (".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF")),
    (-math.inf, ("-.inf", "-.Inf", "-.INF")),
):
    for _word in _words:
        _RESOLVE_MAP[_word] = _value
del _value, _words, _word

# resolveTable: first characters for which resolution is attempted at all.
_HINT_CHARS = frozenset("+-0123456789yYnNtTfFoO~.")
_NUMBER_CHARS = frozenset("+-0123456789")
_MISSING = object()

_INT_RE = re.compile(r"[-+]?(?:0[xX][0-9a-fA-F]+|0[bB][01]+|0[oO][0-7]+|0[0-7]*|[1-9][0-9]*)\Z")
_YAML_FLOAT_RE = re.compile(r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?\Z")
_DOT_FLOAT_RE = re.compile(r"\.[0-9]+(?:[eE][-+]?[0-9]+)?\Z")


def _resolve_plain(value: str) -> Any:
    """An untagged plain scalar, as go-yaml v2 ``resolve("", value)`` + JSON.

    Timestamps are not detected: go-yaml hands them to ``interface{}`` as the
    original string, and no timestamp also parses as a number.
    """
    if not value:
        return None
    first = value[0]
    if first not in _HINT_CHARS:
        return value
    found = _RESOLVE_MAP.get(value, _MISSING)
    if found is not _MISSING:
        return found
    if first in _NUMBER_CHARS:
        return _resolve_number(value)
    if first == "." and _DOT_FLOAT_RE.match(value):
        return _finite_or_text(value, value)
    return value


def _resolve_number(value: str) -> Any:
    """go-yaml v2 (go.yaml.in/yaml/v2 v2.4.3, as sigs.k8s.io/yaml v1.6.0 uses it): ``ParseInt`` /
    ``ParseUint`` with base prefixes, else ``ParseFloat`` of a float-looking text (an out-of-range
    decimal integer is read as a float, an out-of-range ``0x``/``0o``/``0b`` one stays a string)."""
    plain = value.replace("_", "")
    if _INT_RE.match(plain):
        n = _parse_go_int(plain)
        if _INT64_MIN <= n <= _UINT64_MAX:
            return _int_value(n)
    if _YAML_FLOAT_RE.match(plain):
        return _finite_or_text(plain, value)
    return value


def _parse_go_int(plain: str) -> int:
    sign = 1
    body = plain
    if body[0] in "+-":
        sign = -1 if body[0] == "-" else 1
        body = body[1:]
    if len(body) > 1 and body[0] == "0":
        base_char = body[1]
        if base_char in "xX":
            return sign * int(body[2:], 16)
        if base_char in "bB":
            return sign * int(body[2:], 2)
        if base_char in "oO":
            return sign * int(body[2:], 8)
        return sign * int(body[1:], 8)
    return sign * int(body, 10)


def _int_value(n: int) -> int | float:
    # The apiserver decodes JSON numbers as int64, else float64.
    if _INT64_MIN <= n <= _INT64_MAX:
        return n
    return float(n)


def _finite_or_text(number: str, text: str) -> float | str:
    # Go's ParseFloat fails with ErrRange on overflow; go-yaml then keeps the string.
    f = float(number)
    if f in (math.inf, -math.inf):
        return text
    return f


def _json_float(value: float, mark: Any) -> int | float:
    """A float value after sigs.k8s.io/yaml's ``json.Marshal`` and the
    apiserver's JSON decoding: an int when Go's text for it (the shortest
    decimal digits, ``1.0`` is sent as ``1``) is an integer within int64
    (``-9223372036854775809`` is sent as ``-9223372036854776000``: a float);
    NaN and infinities cannot be marshalled.
    """
    if value != value or value in (math.inf, -math.inf):
        raise _Fail(mark, f"json: unsupported value: {go_float(value)}")
    return json_number(value)


def _resolve_tagged(tag: str, value: str, mark: Any) -> Any:
    """An explicitly tagged scalar, as go-yaml v2 ``resolve(tag, value)``."""
    if tag == _STR_TAG:
        return value
    if tag not in _RESOLVABLE_TAGS:
        if tag == _BINARY_TAG:
            return _decode_binary(value, mark)
        # Unknown tags (and "!") keep the text, as go-yaml's resolve does.
        return value
    resolved = _resolve_plain(value)
    if tag == _TIMESTAMP_TAG and isinstance(resolved, str) and _looks_like_timestamp(value):
        return value
    rtag = _tag_of(resolved)
    if rtag == tag:
        return resolved
    if tag == _FLOAT_TAG and rtag == _INT_TAG:
        return float(resolved)
    raise _Fail(mark, f"yaml: cannot decode {_short_tag(rtag)} `{value}` as a {_short_tag(tag)}")


def _tag_of(value: Any) -> str:
    if value is None:
        return _NULL_TAG
    if isinstance(value, bool):
        return _BOOL_TAG
    if isinstance(value, int):
        return _INT_TAG
    if isinstance(value, float):
        return _FLOAT_TAG
    return _STR_TAG


def _short_tag(tag: str) -> str:
    prefix = "tag:yaml.org,2002:"
    return "!!" + tag[len(prefix):] if tag.startswith(prefix) else tag


_TIMESTAMP_RE = re.compile(
    r"[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}"
    r"(?:(?:[Tt]|[ \t]+)[0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}(?:\.[0-9]*)?"
    r"(?:[ \t]*(?:Z|[-+][0-9]{1,2}(?::[0-9]{2})?))?)?\Z"
)


def _looks_like_timestamp(value: str) -> bool:
    return _TIMESTAMP_RE.match(value) is not None


def _decode_binary(value: str, mark: Any) -> str:
    # Go's base64.StdEncoding ignores only \r and \n.
    try:
        raw = base64.b64decode(value.replace("\n", "").replace("\r", ""), validate=True)
    except (binascii.Error, ValueError):
        raise _Fail(mark, "yaml: !!binary value contains invalid base64 data") from None
    # json.Marshal replaces invalid UTF-8 with U+FFFD.
    return raw.decode("utf-8", "replace")


def _go_float32_key(f: float) -> str:
    """``strconv.FormatFloat(f, 'g', -1, 32)`` with go-yaml's names for NaN and infinities.

    sigs.k8s.io/yaml ``convertToJSONableObject`` renders float keys with the
    shortest digits of the *float32* nearest to the key (``3.14159265358979``
    -> ``3.1415927``).
    """
    import struct

    try:
        f32 = struct.unpack("<f", struct.pack("<f", f))[0]
    except OverflowError:
        f32 = math.copysign(math.inf, f)
    if math.isnan(f32):
        return ".nan"
    if math.isinf(f32):
        return ".inf" if f32 > 0 else "-.inf"
    if f32 == 0:
        return "-0" if math.copysign(1.0, f32) < 0 else "0"
    for digits in range(1, 10):
        text = f"{f32:.{digits - 1}e}"
        if struct.unpack("<f", struct.pack("<f", float(text)))[0] == f32:
            break
    mantissa, _, exp_text = text.partition("e")
    exp = int(exp_text)
    ds = mantissa.replace("-", "").replace(".", "").rstrip("0") or "0"
    sign = "-" if f32 < 0 else ""
    if exp < -4 or exp >= 6:  # strconv 'g' with the shortest digits: eprec 6
        m = ds[0] + ("." + ds[1:] if len(ds) > 1 else "")
        return f"{sign}{m}e{'-' if exp < 0 else '+'}{abs(exp):02d}"
    if exp < 0:
        return f"{sign}0.{'0' * (-exp - 1)}{ds}"
    whole = ds[: exp + 1].ljust(exp + 1, "0")
    frac = ds[exp + 1 :]
    return f"{sign}{whole}{'.' + frac if frac else ''}"


def _key_string(key: Any, mark: Any) -> str:
    """A resolved key as ``sigs.k8s.io/yaml`` ``convertToJSONableObject`` renders it."""
    if key.__class__ is str:
        return key
    if key is True:
        return "true"
    if key is False:
        return "false"
    if isinstance(key, int):
        return str(key)
    if isinstance(key, float):
        return _go_float32_key(key)
    if key is None:
        raise _Fail(mark, "unsupported map key of type: %!s(<nil>), key: <nil>")
    raise _Fail(mark, f"yaml: invalid map key: {_short_repr(key)}")


def _short_repr(value: Any) -> str:
    text = json.dumps(value, default=str)
    return text if len(text) <= 40 else text[:37] + "..."


# --------------------------------------------------------------------------
# The one-pass builder over libyaml events


class _Built:
    __slots__ = ("data", "duplicates", "root_mark", "marks")

    def __init__(self, data: Any, duplicates: list[str], root_mark: Any, marks: dict[int, Any] | None) -> None:
        self.data = data
        self.duplicates = duplicates
        self.root_mark = root_mark
        self.marks = marks


class _MergeKey:
    """The plain ``<<`` key (go-yaml ``isMerge``)."""

    __repr__ = lambda self: "<<"  # noqa: E731


_MERGE = _MergeKey()
_NOKEY = object()
_IN_PROGRESS = object()

# Frame slots (lists, for speed).
_C, _ISMAP, _KEY, _EXPLICIT, _ANCHOR, _DSTART, _HEIGHT, _MARK, _KEYMARK = range(9)


def _allowed_alias_ratio(decode_count: int) -> float:
    """go-yaml v2 ``allowedAliasRatio``."""
    if decode_count <= _ALIAS_RATIO_LOW:
        return 0.99
    if decode_count >= _ALIAS_RATIO_HIGH:
        return 0.10
    span = _ALIAS_RATIO_HIGH - _ALIAS_RATIO_LOW
    return 0.99 - 0.89 * ((decode_count - _ALIAS_RATIO_LOW) / span)


def _too_much_aliasing(alias_count: int, decode_count: int) -> bool:
    return (
        alias_count > 100
        and decode_count > 1000
        and alias_count / decode_count > _allowed_alias_ratio(decode_count)
    )


def _build(text: bytes, track: bool) -> _Built | None:
    """Build the first document of ``text`` from libyaml events.

    Returns None for a stream without a document. Raises :class:`_Fail` or a
    PyYAML ``YAMLError``. With ``track`` the result carries ``marks``:
    ``id(container) -> {key: (line, col)}`` or ``[(line, col), ...]``, 0-based.
    Iterative throughout, so nesting depth costs no Python or C stack.
    """
    if not track and _ComposeParser is not None:
        built = _composed(text)
        if built is not None:
            return built
    parser = _EventParser(text)
    max_depth = MAX_DEPTH_PURE_PYTHON if isinstance(parser, _PyEventParser) else MAX_DEPTH
    try:
        return _build_events(parser.get_event, track, max_depth)
    finally:
        dispose = getattr(parser, "dispose", None)
        if dispose is not None:
            dispose()


if HAVE_LIBYAML:
    from yaml.nodes import MappingNode as _MappingNode
    from yaml.nodes import ScalarNode as _ScalarNode

    class _ComposeParser(_EventParser):
        """libyaml's parser composing the node tree in C (``CParser.get_single_node``), for :func:`_composed`.

        The resolver hooks it calls per node are C callables that accept their arguments and do nothing that
        matters (``slice(...)``, ``tuple()``), where Python methods would cost a frame each: the tag they give a
        node is never read, as :func:`_composed` takes only texts without tags.
        """

        resolve = slice  # (kind, value, implicit): the node's tag, unused
        descend_resolver = slice  # (parent, index)
        ascend_resolver = tuple  # ()
else:  # pragma: no cover - without libyaml every load takes the event walk
    _ComposeParser = None  # type: ignore[misc,assignment]


class _NotComposed(Exception):
    """What :func:`_composed` leaves to the event walk: a duplicate key, a collection as a key."""


#: Bytes whose presence sends a text to the event walk (:func:`_composed`): tags (``!``), anchors (``&``),
#: aliases (``*``) and merge keys (``<<``).
_NOT_COMPOSED_MARKS = (b"!", b"&", b"*", b"<<")
#: Bytes of which every nested mapping or sequence needs one of its own (``-`` ``[`` ``{`` ``?`` ``:``): a text
#: with fewer than :data:`_COMPOSE_MAX_NESTING` of them nests less deep than that, so neither go-yaml's depth
#: limit (:data:`MAX_DEPTH`) nor the C stack is reached: the C composer recurses (no limit of its own), about
#: 300 bytes of stack a level (measured: 1,500 levels fit in a 512 KiB thread stack, 1,000 not in 256 KiB).
_NESTING_MARKS = (b"-", b"[", b"{", b"?", b":")
#: In the main thread (its stack: the process's, 8 MiB by default): at most ~600 KiB of C stack.
_COMPOSE_MAX_NESTING = 2000
#: In any other thread (stacks of 512 KiB on macOS, 128 KiB with musl): at most ~60 KiB.
_COMPOSE_MAX_NESTING_THREAD = 200
#: The longest text :func:`_composed` takes (bytes): the composed node tree holds a node and two marks per scalar
#: until the walk is done (~200 bytes of memory per byte of a text like ``a: [1,1,1,...]``: 850 MiB for 3.9 MiB),
#: where the event walk holds one event at a time. Longer texts (rare for one document) take the event walk.
_COMPOSE_MAX_BYTES = 64 * 1024


def _composed(text: bytes) -> _Built | None:
    """The untracked :func:`_build` of ``text`` from the node tree libyaml composes in C, or None to take the
    event walk (:func:`_build_events`) instead.

    The fast path of plain manifests, with the event walk's answer: the same scalars
    (:func:`_resolve_plain` for plain ones, quoted ones as text), keys (:func:`_key_string`), floats
    (:func:`_json_float`) and root mark. Everything this does not mirror goes to the event walk, which then
    gives the data, duplicates or error itself: a text with a tag, an anchor, an alias or a merge key
    (:data:`_NOT_COMPOSED_MARKS`), nesting that could come near the depth limits (:data:`_NESTING_MARKS`), or
    a text longer than :data:`_COMPOSE_MAX_BYTES` (the node tree's memory);
    a duplicate key or a collection as a key; any error (a parse error, a float that cannot be sent, a text
    with more than one document: ``get_single_node`` reads them all, the event walk only the first). Without
    those, the node tree holds the events the walk reads, in the same order, so the data is the same
    (``tests/yaml/test_loader_differential.py`` compares both with the reference loader).
    """
    if len(text) > _COMPOSE_MAX_BYTES:
        return None
    if b"!" in text or b"&" in text or b"*" in text or b"<<" in text:  # _NOT_COMPOSED_MARKS, unrolled
        return None
    bound = _COMPOSE_MAX_NESTING if _get_ident() == threading.main_thread().ident else _COMPOSE_MAX_NESTING_THREAD
    if len(text) >= bound:  # a shorter text cannot hold that many marks of nesting
        nesting = 0
        for mark in _NESTING_MARKS:
            nesting += text.count(mark)
        if nesting >= bound:
            return None
    parser = _ComposeParser(text)
    try:
        root = parser.get_single_node()
        if root is None:
            return None
        data = _composed_value(root)
    except Exception:  # the event walk gives the error (or the data, for what is not composed here)
        return None
    return _Built(data, [], root.start_mark, None)


def _composed_value(node: Any) -> Any:
    """The data of one composed node (see :func:`_composed`); raises :class:`_NotComposed` or the event walk's
    errors. Recursive: :func:`_composed` bounds the nesting (and a RecursionError falls back too)."""
    cls = node.__class__
    hint_chars = _HINT_CHARS
    scalar = _ScalarNode
    if cls is _MappingNode:
        out: dict[str, Any] = {}
        for key_node, value_node in node.value:
            if key_node.__class__ is not scalar:
                raise _NotComposed("a collection as a key")
            key = key_node.value
            if key_node.style == "" and (not key or key[0] in hint_chars):
                key = _resolve_plain(key)
                if key.__class__ is not str:
                    key = _key_string(key, key_node.start_mark)
            if key in out:
                raise _NotComposed("a duplicate key")
            if value_node.__class__ is scalar:
                value = value_node.value
                if value_node.style == "" and (not value or value[0] in hint_chars):
                    value = _resolve_plain(value)
                    if value.__class__ is float:
                        value = _json_float(value, value_node.start_mark)
                out[key] = value
            else:
                out[key] = _composed_value(value_node)
        return out
    if cls is scalar:
        value = node.value
        if node.style == "" and (not value or value[0] in hint_chars):
            value = _resolve_plain(value)
            if value.__class__ is float:
                value = _json_float(value, node.start_mark)
        return value
    items: list[Any] = []
    for item_node in node.value:
        if item_node.__class__ is scalar:
            value = item_node.value
            if item_node.style == "" and (not value or value[0] in hint_chars):
                value = _resolve_plain(value)
                if value.__class__ is float:
                    value = _json_float(value, item_node.start_mark)
            items.append(value)
        else:
            items.append(_composed_value(item_node))
    return items


def _build_events(get_event: Callable[[], Any], track: bool, max_depth: int) -> _Built | None:
    event = get_event()  # StreamStartEvent
    event = get_event()
    if event is None or event.__class__ is StreamEndEvent:
        return None
    if event.__class__ is not DocumentStartEvent:  # pragma: no cover - libyaml guarantees order
        raise _Fail(event.start_mark, "yaml: expected a document")

    anchors: dict[str, Any] = {}
    stack: list[list[Any]] = []
    duplicates: list[str] = []
    marks: dict[int, Any] | None = {} if track else None
    counts = [0, 0]  # decode count, alias-expanded count (go-yaml decoder fields)
    result: list[Any] = []
    resolve_plain = _resolve_plain
    hint_chars = _HINT_CHARS

    def put(value: Any, mark: Any, height: int) -> None:
        """Attach a finished node to its parent (or make it the root)."""
        if not stack:
            result.append(value)
            result.append(mark)
            return
        frame = stack[-1]
        if height >= frame[_HEIGHT]:
            frame[_HEIGHT] = height + 1
        if not frame[_ISMAP]:
            frame[_C].append(value)
            if marks is not None:
                marks[id(frame[_C])].append((mark.line, mark.column))
            return
        key = frame[_KEY]
        if key is _NOKEY:
            if value is _MERGE:
                frame[_KEY] = _MERGE
            else:
                if value.__class__ is not str:
                    value = _key_string(value, mark)
                frame[_KEY] = value
            frame[_KEYMARK] = mark
            return
        frame[_KEY] = _NOKEY
        container = frame[_C]
        if key is _MERGE:
            merge(frame, value, mark)
            return
        explicit = frame[_EXPLICIT]
        if explicit is None:
            if key in container:
                duplicates.append(path_of(key))
        else:
            if key in explicit:
                duplicates.append(path_of(key))
            explicit.add(key)
        container[key] = value
        if marks is not None:
            kmark = frame[_KEYMARK]
            marks[id(container)][key] = (kmark.line, kmark.column)

    def merge(frame: list[Any], value: Any, mark: Any) -> None:
        # go-yaml v2 decoder.merge: a mapping, or a sequence of mappings applied
        # last to first; merged keys overwrite keys set before the "<<".
        if isinstance(value, dict):
            sources = [value]
        elif isinstance(value, list) and all(isinstance(v, dict) for v in value):
            sources = list(reversed(value))
        else:
            raise _Fail(mark, "yaml: map merge requires map or sequence of maps as the value")
        container = frame[_C]
        if frame[_EXPLICIT] is None:
            frame[_EXPLICIT] = set(container)
        for src in sources:
            container.update(src)
            if marks is not None:
                marks[id(container)].update(marks.get(id(src), {}))

    def path_of(key: str) -> str:
        parts: list[str] = []
        for i, frame in enumerate(stack):
            if i + 1 < len(stack):
                step: Any = frame[_KEY] if frame[_ISMAP] else len(frame[_C])
            else:
                step = key
            if isinstance(step, int):
                parts.append(f"[{step}]")
            elif parts:
                parts.append(f".{step}")
            else:
                parts.append(str(step))
        return "".join(parts)

    def check_aliasing(mark: Any) -> None:
        if _too_much_aliasing(counts[1], counts[0]):
            raise _Fail(mark, "yaml: document contains excessive aliasing")

    nokey = _NOKEY
    merge_key = _MERGE
    while True:
        event = get_event()
        cls = event.__class__
        if cls is ScalarEvent:
            counts[0] += 1
            tag = event.tag
            value = event.value
            if stack:
                frame = stack[-1]
                in_map = frame[_ISMAP]
                key = frame[_KEY]
                as_key = in_map and key is nokey
            else:
                frame = None
                as_key = False
            if tag is None:
                if event.implicit[0]:
                    if as_key and value == "<<":
                        counts[0] -= 1  # go-yaml does not decode the merge key itself
                        if event.anchor is not None:
                            anchors[event.anchor] = ("<<", 1, 0)
                        put(merge_key, event.start_mark, 0)
                        continue
                    if not value or value[0] in hint_chars:
                        value = resolve_plain(value)
            elif tag == _MERGE_TAG and as_key:
                counts[0] -= 1
                put(merge_key, event.start_mark, 0)
                continue
            else:
                value = _resolve_tagged(tag, value, event.start_mark)
            if value.__class__ is float and not as_key:
                value = _json_float(value, event.start_mark)
            if event.anchor is not None:
                anchors[event.anchor] = (value, 1, 0)
            if frame is None or marks is not None:
                put(value, event.start_mark, 0)
                continue
            # put(value, mark, 0) inlined for the untracked build (no marks; a scalar's height 0 never
            # raises its parent's, which starts at 1): the hot path of every load.
            if not in_map:
                frame[_C].append(value)
                continue
            if as_key:
                frame[_KEY] = value if value.__class__ is str else _key_string(value, event.start_mark)
                continue
            frame[_KEY] = nokey
            if key is merge_key:
                merge(frame, value, event.start_mark)
                continue
            target = frame[_C]
            explicit = frame[_EXPLICIT]
            if explicit is None:
                if key in target:
                    duplicates.append(path_of(key))
            else:
                if key in explicit:
                    duplicates.append(path_of(key))
                explicit.add(key)
            target[key] = value
        elif cls is MappingStartEvent or cls is SequenceStartEvent:
            counts[0] += 1
            if len(stack) >= max_depth:
                raise _Fail(event.start_mark, f"yaml: exceeded max depth of {max_depth}")
            is_map = cls is MappingStartEvent
            container: Any = {} if is_map else []
            if marks is not None:
                marks[id(container)] = {} if is_map else []
            anchor = event.anchor
            if anchor is not None:
                anchors[anchor] = _IN_PROGRESS
            stack.append([container, is_map, _NOKEY, None, anchor, counts[0] - 1, 1, event.start_mark, None])
        elif cls is MappingEndEvent or cls is SequenceEndEvent:
            frame = stack.pop()
            container = frame[_C]
            height = frame[_HEIGHT]
            if frame[_ANCHOR] is not None:
                anchors[frame[_ANCHOR]] = (container, counts[0] - frame[_DSTART], height)
            if not stack or marks is not None:
                put(container, frame[_MARK], height)
                continue
            # put(container, mark, height) inlined for the untracked build, as for scalars above
            parent = stack[-1]
            if height >= parent[_HEIGHT]:
                parent[_HEIGHT] = height + 1
            if not parent[_ISMAP]:
                parent[_C].append(container)
                continue
            key = parent[_KEY]
            if key is nokey:  # a mapping or sequence as a key: _key_string raises its error
                parent[_KEY] = _key_string(container, frame[_MARK])
                continue
            parent[_KEY] = nokey
            if key is merge_key:
                merge(parent, container, frame[_MARK])
                continue
            target = parent[_C]
            explicit = parent[_EXPLICIT]
            if explicit is None:
                if key in target:
                    duplicates.append(path_of(key))
            else:
                if key in explicit:
                    duplicates.append(path_of(key))
                explicit.add(key)
            target[key] = container
        elif cls is AliasEvent:
            name = event.anchor
            entry = anchors.get(name)
            if entry is None:
                raise _Fail(event.start_mark, f"yaml: unknown anchor '{name}' referenced")
            if entry is _IN_PROGRESS:
                raise _Fail(event.start_mark, f"yaml: anchor '{name}' value contains itself")
            value, size, height = entry
            counts[0] += 1 + size
            counts[1] += size
            check_aliasing(event.start_mark)
            if len(stack) + height > max_depth:
                raise _Fail(event.start_mark, f"yaml: exceeded max depth of {max_depth} (through aliases)")
            put(value, event.start_mark, height)
        elif cls is DocumentEndEvent:
            break
        else:  # pragma: no cover - libyaml guarantees well-formed event streams
            raise _Fail(event.start_mark, f"yaml: unexpected {cls.__name__}")

    check_aliasing(None)
    if not result:  # pragma: no cover - libyaml always yields a root node
        return None
    data, root_mark = result[0], result[1]
    return _Built(data, duplicates, root_mark, marks)


#: File name endings loaded when walking a directory (kubectl's FileExtensions).
DIRECTORY_EXTENSIONS = (".yaml", ".yml", ".json")
#: Directories a walk does not enter (besides hidden ones): package trees, never manifests.
SKIPPED_DIRECTORIES = frozenset({"node_modules"})
#: Files a walk passes over: ``crdtool test`` suites, whose objects are meant to be invalid (named, they are read).
SKIPPED_SUFFIXES = (".crdtest.yaml", ".crdtest.yml")


def expand_path(arg: str) -> Iterator[str | InputError]:
    """The files a command-line path stands for: the file itself, or a directory's
    ``*.yaml``/``*.yml``/``*.json`` files (recursive, in ``filepath.Walk`` order);
    an :class:`InputError` for a missing or unreadable path."""
    try:
        st = os.stat(arg)
    except FileNotFoundError:
        yield InputError(arg, 0, 0, "no such file or directory")
        return
    except OSError as exc:
        yield InputError(arg, 0, 0, _os_message(exc))
        return
    if stat.S_ISDIR(st.st_mode):
        yield from _walk_directory(arg)
        return
    yield arg


def _walk_directory(root: str) -> Iterator[str | InputError]:
    """Files under ``root`` in ``filepath.Walk`` order (lexical, depth first).

    Iterative (a stack of sorted entry lists); symlinked directories are not
    entered, as ``filepath.Walk`` uses ``Lstat``. Hidden files and directories
    (names starting with ``.``: ``.git/``, ``.github/workflows/``,
    ``.crdtool.yaml``), ``node_modules/`` directories and ``crdtool test``
    suites (``*.crdtest.yaml``) below ``root`` are passed over (not manifests);
    ``root`` itself, and any file named on the command line, is always read.
    """
    listing = _list_directory(root)
    if isinstance(listing, InputError):
        yield listing
        return
    stack: list[list[os.DirEntry[str]]] = [listing]
    while stack:
        entries = stack[-1]
        if not entries:
            stack.pop()
            continue
        entry = entries.pop()
        if entry.name.startswith("."):
            continue
        try:
            is_dir = entry.is_dir(follow_symlinks=False)
        except OSError:
            is_dir = False
        if is_dir and entry.name in SKIPPED_DIRECTORIES:
            continue
        if is_dir:
            sub = _list_directory(entry.path)
            if isinstance(sub, InputError):
                yield sub
            else:
                stack.append(sub)
            continue
        if entry.name.endswith(DIRECTORY_EXTENSIONS) and not entry.name.endswith(SKIPPED_SUFFIXES):
            yield entry.path


def _list_directory(directory: str) -> list[os.DirEntry[str]] | InputError:
    """Entries of ``directory`` in reverse name order (popped from the end)."""
    try:
        with os.scandir(directory) as it:
            return sorted(it, key=lambda e: e.name, reverse=True)
    except OSError as exc:
        return InputError(directory, 0, 0, _os_message(exc))


_read_path = read_path  # the name the loader's differential tests know
