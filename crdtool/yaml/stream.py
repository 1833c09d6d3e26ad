"""A large YAML stream read document by document, without holding it whole: kubectl's splitting, incrementally.

:func:`crdtool.yaml.loader.load_bytes` reads a file whole and splits it into
kubectl's chunks (``YAMLReader.Read``: a line starting with ``---`` whose
rest is blank or a comment ends a document). :func:`iter_chunks` finds the
same chunks, with the same first lines and the same ``invalid Yaml document
separator`` reports, reading the stream a block at a time, so that a dump of
any size (``kubectl get -A -o yaml``, ``helm template``) costs the memory of
its largest document; :func:`load_chunk` loads one chunk as
:func:`~crdtool.yaml.loader.load_bytes` would have loaded it in place (the
same data, warnings, errors and positions). The caller numbers the documents
(:attr:`LoadedChunk.takes_index`): a chunk's document index is the count of
index-taking chunks before it in its file.

What is not streamed (:func:`streamable`): JSON streams (a ``{`` first, read
by ``YAMLOrJSONDecoder``'s rules) and UTF-16/32 input (a byte-order mark);
those are read whole as before. A document larger than
:data:`~crdtool.yaml.loader.MAX_INPUT_BYTES` is refused alone, with its line;
the stream goes on after it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from crdtool.yaml.loader import MAX_INPUT_BYTES, Document, InputError, _Counter, _load_chunk, _normalise_encoding, _split_chunks

__all__ = ["BLOCK_BYTES", "Chunk", "LoadedChunk", "iter_chunks", "load_chunk", "split_file", "streamable"]

#: How much of the stream is read at a time.
BLOCK_BYTES = 1 << 20

# the separator line of loader._SEPARATOR_RE; bytes up to a newline, so a line is never cut between blocks
_SEPARATOR_RE = re.compile(rb"^---([^\n]*)$", re.MULTILINE)
_NON_SPACE_RE = re.compile(rb"[^ \t\r\n\f\v]")
_UTF8_BOM = b"\xef\xbb\xbf"
_OTHER_BOMS = (b"\xff\xfe", b"\xfe\xff", b"\x00\x00\xfe\xff")


@dataclass(frozen=True)
class Chunk:
    """One of kubectl's chunks of a stream.

    Attributes:
        line: 1-based line of the stream where the chunk starts.
        text: the chunk's bytes (None when it is larger than ``MAX_INPUT_BYTES``: :attr:`size` bytes were
            passed over).
        bad_separator: the rest of an ``---`` line that is not a separator (``invalid Yaml document
            separator``); the chunk is then empty and only reports it.
        size: the chunk's length in bytes.
    """

    line: int
    text: bytes | None
    bad_separator: str | None = None
    size: int = 0

    @property
    def empty(self) -> bool:
        """Nothing but white space: kubectl skips it (no document, no index)."""
        return self.bad_separator is None and self.text is not None and _NON_SPACE_RE.search(self.text) is None


def streamable(head: bytes) -> bool:
    """Whether a stream starting with ``head`` (its first block) is YAML that :func:`iter_chunks` can split.

    Not for JSON streams (the first non-space byte is ``{``), for UTF-16/32
    input (a byte-order mark), or when ``head`` holds nothing but white space.
    """
    if head.startswith(_UTF8_BOM):
        head = head[len(_UTF8_BOM):]
    elif head.startswith(_OTHER_BOMS):
        return False
    first = _NON_SPACE_RE.search(head)
    return first is not None and head[first.start():first.start() + 1] != b"{"


def iter_chunks(read: Callable[[int], bytes], block: int = BLOCK_BYTES) -> Iterator[Chunk]:
    """kubectl's chunks of the stream ``read`` (a binary ``read(n)``), in order, as ``loader._split_chunks``.

    A UTF-8 byte-order mark at the start is dropped, as the loader drops it.
    Holds one block and the current chunk; a chunk over ``MAX_INPUT_BYTES`` is
    counted through (its newlines, for the lines that follow) without being
    kept.
    """
    buf = bytearray()
    scan = 0  # buf[:scan] holds whole lines already searched for separators
    first = True
    line = 1
    oversized = 0  # bytes of the current chunk already passed over (it is too large to keep)
    oversized_newlines = 0
    while True:
        data = read(block)
        if first and data:
            first = False
            if data.startswith(_UTF8_BOM):
                data = data[len(_UTF8_BOM):]
        eof = not data
        buf += data
        end = len(buf) if eof else buf.rfind(b"\n") + 1  # whole lines only, but at the end
        start = 0
        for m in _SEPARATOR_RE.finditer(buf, scan, max(end, scan)):
            chunk = bytes(buf[start:m.start()])
            if oversized:
                yield Chunk(line, None, None, oversized + len(chunk))
                line += oversized_newlines
                oversized = oversized_newlines = 0
            else:
                yield Chunk(line, chunk, None, len(chunk))
            line += chunk.count(b"\n")
            rest = m.group(1).strip()
            if rest and not rest.startswith(b"#"):
                yield Chunk(line, b"", rest.decode("utf-8", "replace"))
            line += 1
            start = m.end() + 1
        if eof:
            if oversized:
                yield Chunk(line, None, None, oversized + max(0, len(buf) - start))
            elif start < len(buf):
                yield Chunk(line, bytes(buf[start:]), None, len(buf) - start)
            return
        del buf[:start]
        scan = max(end - start, 0)
        if len(buf) + oversized > MAX_INPUT_BYTES:
            # too large a document: keep counting its lines, drop its bytes up to the last whole line
            oversized += scan
            oversized_newlines += buf.count(b"\n", 0, scan)
            del buf[:scan]
            scan = 0


@dataclass(frozen=True)
class LoadedChunk:
    """What a chunk holds: a document, an input error, or nothing (an empty chunk, a null document).

    ``takes_index``: the item takes the next document index of its file
    (documents and the errors of documents that failed to load do; an invalid
    separator and empty chunks do not). The item's own ``index`` is then 0:
    the caller, which counts, gives the real one.
    """

    item: Document | InputError | None
    takes_index: bool


def load_chunk(chunk: Chunk, file: str, index: int = 0) -> LoadedChunk:
    """Load one chunk of ``file`` as the loader loads it in place (data, warnings, errors, positions).

    ``index``: the document index the item gets if it takes one (0 when the caller numbers later).
    """
    if chunk.bad_separator is not None:
        return LoadedChunk(InputError(file, chunk.line, 1, f"invalid Yaml document separator: {chunk.bad_separator}"), False)
    if chunk.text is None:
        message = f"document is larger than {MAX_INPUT_BYTES} bytes; refusing to load it"
        return LoadedChunk(InputError(file, chunk.line, 0, message, index), True)
    if chunk.empty:
        return LoadedChunk(None, False)
    counter = _Counter()
    counter.next = index
    try:
        item = _load_chunk(chunk.text, file, chunk.line, counter)
    except Exception as exc:  # pragma: no cover - as load_bytes: a bug must not stop the other documents
        item = InputError(file, chunk.line, 0, f"internal error while loading: {type(exc).__name__}: {exc}", index)
        return LoadedChunk(item, True)
    return LoadedChunk(item, counter.next > index)


def split_file(raw: bytes) -> list[Chunk] | None:
    """A whole file's kubectl chunks, exactly those :func:`~crdtool.yaml.loader.load_bytes` loads in turn.

    For loading one large file on several processes: each :func:`load_chunk` of the chunks gives the item
    ``load_bytes(raw, file)`` gives in its place (the caller numbers the documents, as for :func:`iter_chunks`).
    None when the file is not a YAML stream split this way: a JSON stream (``{`` first, read by
    ``YAMLOrJSONDecoder``'s rules), a byte-order mark other than UTF-8's, more than ``MAX_INPUT_BYTES``.
    """
    if len(raw) > MAX_INPUT_BYTES or not streamable(raw[:BLOCK_BYTES]):
        return None
    raw = _normalise_encoding(raw)  # a UTF-8 byte-order mark dropped, as load_bytes drops it
    return [Chunk(line, chunk, bad, len(chunk)) for line, chunk, bad in _split_chunks(raw)]
