"""The tuned loader against its frozen reference (``tests/yaml/_reference_loader.py``, main 0df2e16).

Issue 29 sped up ``crdtool.yaml.loader`` (``load_file``'s read, ``_build_events``' hot loop); the behaviour
must stay the same, byte for byte: the same documents and errors (file, index, line, column, message), the
same values with the same types (``True`` is not ``1``, ``1.0`` is not ``1``), the same duplicate keys, and
the same marks of the position tracker (``_build(..., track=True)``). The expected values are the reference
loader's, which the rest of tests/yaml checks against go-yaml v2 / kubectl (their tables and reasoning).
Generated documents mix what the hot loop branches on: plain scalars that resolve (bools, ints in every base,
floats, nulls, ``.inf``), tags, anchors and aliases, merge keys, duplicate keys, flow and block collections,
and broken text.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from crdtool.yaml import loader as new
from tests.yaml import _reference_loader as ref

_SCALARS = [
    "a", "true", "True", "y", "n", "yes", "off", "ON", "~", "null", "", "0", "80", "-1", "+7", "012", "0o17",
    "0x1F", "0b101", "1_000", "9223372036854775807", "9223372036854775808", "18446744073709551616",
    "-9223372036854775809", "0x1_0000_0000_0000_0000", "1.5", "1.0", "1e3", "-2.5e-3", ".5", ".inf", "-.Inf",
    ".nan", "2001-12-14", "2001-12-14t21:59:43.10-05:00", "1e400", "-", ".", "+", "0.", "'80'", '"true"',
    "!!str 80", "!!int 80", "!!int x", "!!float 1", "!!bool yes", "!!null ''", "!!binary aGVsbG8=",
    "!!binary ***", "!!timestamp 2001-12-14", "!!timestamp 1", "!custom v", "! 5", "|\n  block\n",
    ">-\n  folded\n", '"\\u00e9\\t"', "'it''s'", "[]", "{}", "[1, b, true]", "{a: 1, b: null}", "*x",
]
_KEYS = ["a", "b", "a", "kind", "1", "true", "~", "1.5", "0x10", "<<", "!!merge <<", "? c", "'a'", "3.14159265358979",
         "[1]", "{k: v}", "-1e-7", "1e21"]


@st.composite
def _node(draw: st.DrawFn, depth: int, indent: int) -> str:
    pad = " " * indent
    anchor = draw(st.sampled_from(["", "", "", "&x ", "&y "]))
    kind = draw(st.sampled_from(["scalar", "scalar", "map", "seq", "alias"] if depth < 3 else ["scalar", "alias"]))
    if kind == "alias":
        return " " + draw(st.sampled_from(["*x", "*y", "*z"])) + "\n"
    if kind == "scalar":
        text = draw(st.sampled_from(_SCALARS))
        if "\n" in text:  # a block scalar: indicator on this line, content indented below
            head, _, body = text.partition("\n")
            return f" {anchor}{head}\n" + "".join(f"{pad}{line}\n" for line in body.splitlines())
        return f" {anchor}{text}\n"
    n = draw(st.integers(0, 3))
    if n == 0:
        return f" {anchor}{'{}' if kind == 'map' else '[]'}\n"
    lines = [f" {anchor}\n" if anchor else "\n"]
    for _ in range(n):
        child = draw(_node(depth + 1, indent + 2))
        if kind == "map":
            lines.append(f"{pad}{draw(st.sampled_from(_KEYS))}:{child}")
        else:
            lines.append(f"{pad}-{child}")
    return "".join(lines)


@st.composite
def _stream(draw: st.DrawFn) -> str:
    docs = []
    for _ in range(draw(st.integers(1, 3))):
        body = draw(_node(0, 2))
        keys = draw(st.lists(st.sampled_from(_KEYS), min_size=1, max_size=4))
        text = "".join(f"{k}:{body if i == 0 else draw(_node(1, 2))}" for i, k in enumerate(keys))
        if draw(st.booleans()):
            text = draw(st.sampled_from(["", "%YAML 1.1\n---\n", "# c\n", "--- !!map\n", "---x\n", "\t\n"])) + text
        docs.append(text)
    return "---\n".join(docs)


def _shape(value: Any, depth: int = 0) -> Any:
    """``value`` with every scalar's type, so that ``True`` and ``1`` (or ``1`` and ``1.0``) differ."""
    if depth > 50:
        return "..."
    if isinstance(value, dict):
        return ("map", [(k, _shape(v, depth + 1)) for k, v in value.items()])
    if isinstance(value, list):
        return ("seq", [_shape(v, depth + 1) for v in value])
    return (type(value).__name__, repr(value))


def _outcome(module: Any, text: str) -> list[Any]:
    out = []
    for item in module.load_documents(text, "t.yaml"):
        if isinstance(item, module.Document):
            out.append(("doc", item.index, item.line, item.column, _shape(item.data), item.duplicate_keys,
                        item.warnings))
        else:
            out.append(("err", item.index, item.line, item.column, item.message))
    return out


def _marks(module: Any, text: bytes) -> Any:
    """``_build(track=True)``: the data, duplicates, root mark and every container's marks, found from the data."""
    try:
        built = module._build(text, track=True)
    except Exception as exc:  # the same failure is the same outcome
        return ("raised", type(exc).__name__, str(exc))
    if built is None:
        return None
    seen: list[Any] = []

    def walk(node: Any, depth: int) -> None:
        if depth > 20 or len(seen) > 2000 or not isinstance(node, (dict, list)):
            return
        seen.append(built.marks.get(id(node)))
        for child in node.values() if isinstance(node, dict) else node:
            walk(child, depth + 1)

    walk(built.data, 0)
    return (_shape(built.data), built.duplicates, (built.root_mark.line, built.root_mark.column), seen)


def _same(text: str) -> None:
    assert _outcome(new, text) == _outcome(ref, text), text
    raw = text.encode("utf-8")
    assert _marks(new, raw) == _marks(ref, raw), text


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(_stream())
def test_generated_streams_load_as_the_reference_loads_them(text: str) -> None:
    _same(text)


def test_hand_picked_streams_load_as_the_reference_loads_them() -> None:
    for text in [
        "a: &x {b: 1, c: [1, 2]}\nd: *x\ne:\n  <<: *x\n  b: 2\n",
        "a: 1\na: 2\nb: {c: 1, c: 2}\n",
        "base: &b {x: 1}\nm:\n  x: 0\n  <<: [*b, {y: 2}]\n  x: 3\n",
        "1: a\ntrue: b\n1.5: c\n0x10: d\n~: e\n",
        "a: !!float 1\nb: !!int 1.5\n",
        "a: .nan\n",
        "a: [1, *nope]\n",
        "a: &r [*r]\n",
        "- not a map\n",
        "just text\n",
        "a: 'unterminated\n",
        "{\"a\": 1}\n{\"b\": true}\n",
        "---\n---\na: 1\n--- x\nb: 2\n",
        "\ufeffa: 1\n",
        "a: b: c\n",
        "? [x]\n: 1\n",
    ]:
        _same(text)


def test_files_read_as_the_reference_reads_them(tmp_path: Path) -> None:
    """``load_file``'s read (sized from ``fstat``): empty, small, large, and a file that is a directory."""
    for name, content in [("empty.yaml", b""), ("small.yaml", b"a: 1\n"),
                          ("large.yaml", b"a:\n" + b"  - x\n" * 50_000), ("bom.yaml", b"\xff\xfea\x00:\x00 \x001\x00")]:
        path = tmp_path / name
        path.write_bytes(content)
        got = [_outcome_item(new, i) for i in new.load_file(str(path))]
        assert got == [_outcome_item(ref, i) for i in ref.load_file(str(path))], name
        assert (got == []) == (content == b""), name
    got = [_outcome_item(new, i) for i in new.load_file(str(tmp_path))]
    assert got == [_outcome_item(ref, i) for i in ref.load_file(str(tmp_path))] and got[0][0] == "err"


def _outcome_item(module: Any, item: Any) -> Any:
    if isinstance(item, module.Document):
        return ("doc", item.index, item.line, item.column, _shape(item.data), item.duplicate_keys)
    return ("err", item.index, item.line, item.column, item.message)


def test_read_path_reads_as_a_buffered_read_of_the_limit(tmp_path: Path) -> None:
    """``_read_path(p, n)`` is ``open(p, "rb").read(n)``: small, empty, over 64 KiB, cut at the limit."""
    for content in [b"", b"a: 1\n", bytes(range(256)) * 1000]:
        path = tmp_path / "f"
        path.write_bytes(content)
        for limit in (1, 5, 70_000, 1 << 20):
            with path.open("rb") as fh:
                assert new._read_path(str(path), limit) == fh.read(limit), (len(content), limit)


def test_read_fd_goes_past_a_wrong_size_hint() -> None:
    """The size hint is only the first read's size: with a pipe (hint 0 from fstat) or a file that grew since
    (a hint below its size), the reads go on to the end or the limit; a hint above the size changes nothing."""
    import os

    data = bytes(range(256)) * 234  # 59,904 bytes: fits in a pipe's buffer
    for hint in (0, 3, len(data) - 1, len(data), len(data) + 5):
        for limit in (7, len(data), len(data) + 1):
            r, w = os.pipe()
            try:
                os.write(w, data)
                os.close(w)
                assert new._read_fd(r, hint, limit) == data[:limit], (hint, limit)
            finally:
                os.close(r)


@pytest.mark.parametrize("refuses", [True, False])
def test_read_unsized_reads_as_a_buffered_read_of_the_limit(tmp_path: Path, monkeypatch: Any, refuses: bool) -> None:
    """``_read_unsized`` (``load_path``'s read: no ``fstat`` below 64 KiB where reading a directory fails) is
    ``open(p, "rb").read(n)`` around its first read's size, and None for a directory; ``refuses=False``: the
    ``fstat`` way of other systems."""
    monkeypatch.setattr(new, "_READ_REFUSES_DIRECTORIES", refuses and new._READ_REFUSES_DIRECTORIES)
    first = new._FIRST_READ
    for size in (0, 5, first - 1, first, first + 1, 3 * first + 7):
        path = tmp_path / "f"
        path.write_bytes(bytes(range(256)) * (size // 256) + b"x" * (size % 256))
        for limit in (1, 5, first - 1, first, first + 1, 1 << 20):
            fd = os.open(path, os.O_RDONLY)
            try:
                got = new._read_unsized(fd, limit)
            finally:
                os.close(fd)
            with path.open("rb") as fh:
                assert got == fh.read(limit), (size, limit)
    fd = os.open(tmp_path, os.O_RDONLY)
    try:
        assert new._read_unsized(fd, 1 << 20) is None
    finally:
        os.close(fd)
    data = b"a: 1\n" * 100
    r, w = os.pipe()  # no size to be had: read to the end
    try:
        os.write(w, data)
        os.close(w)
        assert new._read_unsized(r, 1 << 20) == data
    finally:
        os.close(r)


# --- the composed fast path (``loader._composed``) against the event walk -----------------------------------

_PLAIN_SCALARS = [s for s in _SCALARS if not any(c in s for c in "!&*")]
_PLAIN_KEYS = [k for k in _KEYS if "!" not in k and "<<" not in k]


@st.composite
def _plain_node(draw: st.DrawFn, depth: int, indent: int) -> str:
    """A node without tags, anchors, aliases or merge keys: what ``_composed`` takes (duplicate keys, a
    collection as a key and floats that cannot be sent included: it must hand those to the event walk)."""
    pad = " " * indent
    kind = draw(st.sampled_from(["scalar", "scalar", "map", "seq"] if depth < 3 else ["scalar"]))
    if kind == "scalar":
        text = draw(st.sampled_from(_PLAIN_SCALARS))
        if "\n" in text:
            head, _, body = text.partition("\n")
            return f" {head}\n" + "".join(f"{pad}{line}\n" for line in body.splitlines())
        return f" {text}\n"
    n = draw(st.integers(0, 3))
    if n == 0:
        return f" {'{}' if kind == 'map' else '[]'}\n"
    lines = ["\n"]
    for _ in range(n):
        child = draw(_plain_node(depth + 1, indent + 2))
        lines.append(f"{pad}{draw(st.sampled_from(_PLAIN_KEYS))}:{child}" if kind == "map" else f"{pad}-{child}")
    return "".join(lines)


@st.composite
def _plain_document(draw: st.DrawFn) -> str:
    keys = draw(st.lists(st.sampled_from(_PLAIN_KEYS), min_size=1, max_size=4))
    text = "".join(f"{k}:{draw(_plain_node(1, 2))}" for k in keys)
    return draw(st.sampled_from(["", "# c\n", "%YAML 1.1\n---\n", "\n"])) + text


def _event_walk(raw: bytes) -> Any:
    """``_build(raw, track=False)`` by the event walk alone (the path ``_composed`` stands in for)."""
    parser = new._EventParser(raw)
    try:
        return new._build_events(parser.get_event, False, new.MAX_DEPTH)
    except Exception as exc:
        return exc


def _composed_as_walked(text: str) -> bool:
    """``_composed`` gives the event walk's data, types, no duplicates and the same root mark, or None (then the
    event walk answers); True when it answered."""
    raw = text.encode("utf-8")
    composed = new._composed(raw)
    walked = _event_walk(raw)
    if composed is None:
        return False
    assert not isinstance(walked, Exception), (text, walked)
    assert walked is not None, text
    assert _shape(composed.data) == _shape(walked.data), text
    assert composed.duplicates == walked.duplicates == [], text
    assert composed.marks is None
    assert (composed.root_mark.line, composed.root_mark.column) == (walked.root_mark.line, walked.root_mark.column)
    return True


@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
@given(_plain_document())
def test_composed_documents_are_the_event_walks(text: str) -> None:
    _composed_as_walked(text)
    _same(text)


def test_composed_path_takes_plain_manifests_and_leaves_the_rest() -> None:
    taken = [
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n  labels: {a: 'b', c: \"1\"}\ndata:\n  k: |\n    v\n",
        "a: [1, 0x1F, 1.0, 1.5, .inf5, ~, yes, '80']\nb:\n- {c: 1e3}\n- -1\n",
        "1: a\ntrue: b\n1.5: c\n0x10: d\n",
        "# only a comment and then\nk: v\n",
    ]
    for text in taken:
        assert _composed_as_walked(text), text
        _same(text)
    left = [
        "a: 1\na: 2\n",  # a duplicate key: the event walk names it
        "? [x]\n: 1\n",  # a collection as a key: the event walk's error
        "~: e\n",  # a null key
        "a: .nan\n",  # a float JSON cannot carry
        "a: 1\n...\nb: [\n",  # a second document, broken: the event walk reads only the first
        "a: 'unterminated\n",
        "a: &x 1\nb: *x\n",
        "a: !!str 1\n",
        "a:\n  <<: {b: 1}\n",
        "# nothing\n",
        "a: '" + "-" * 2000 + "'\n",  # as many marks of nesting as the limit allows: the walk bounds the depth
        # longer than _COMPOSE_MAX_BYTES: its node tree would hold ~200 bytes of memory per byte of text
        "a: [" + "1," * (new._COMPOSE_MAX_BYTES // 2) + "1]\n",
    ]
    for text in left:
        assert not _composed_as_walked(text), text
        _same(text)
    assert new._composed(b"a: xy\n") is not None
    for mark in new._NOT_COMPOSED_MARKS:  # each sends even a text where it is harmless to the event walk
        assert new._composed(b"a: x" + mark + b"y\n") is None, mark
    # composed in C, deeper than Python's default recursion limit (the walk's RecursionError leaves it to the event
    # walk; under crdtool's CLI, whose limit is higher, the walk goes through)
    deep = "a: " + "[" * 1200 + "]" * 1200 + "\n"
    assert _shape(new.load_documents(deep)[0].data) == _shape(ref.load_documents(deep)[0].data)


def _expanded_then_loaded(path: str) -> list[Any]:
    """What ``load_path`` did before it opened the path first: ``expand_path``'s stat, then ``load_file``."""
    out: list[Any] = []
    for item in new.expand_path(path):
        out.extend([item] if isinstance(item, new.InputError) else new.load_file(item))
    return out


def test_load_path_opens_first_and_answers_as_expand_then_load(tmp_path: Path, monkeypatch: Any) -> None:
    (tmp_path / "a.yaml").write_text("a: 1\n---\nb: [\n")
    (tmp_path / "big.yaml").write_text("a: " + "x" * 64 + "\n")
    (tmp_path / "dir").mkdir()
    (tmp_path / "dir" / "c.yml").write_text("c: 3\n")
    (tmp_path / "dir" / "d.json").write_text('{"d": 4}')
    os.symlink(tmp_path / "dir", tmp_path / "linked.yaml")  # a directory by a file's name: walked, as stat follows
    os.symlink(tmp_path / "nowhere", tmp_path / "dangling.yaml")
    (tmp_path / "empty.yaml").write_text("")
    monkeypatch.setattr(new, "MAX_INPUT_BYTES", 32)  # big.yaml is refused
    names = ["a.yaml", "big.yaml", "dir", "linked.yaml", "dangling.yaml", "empty.yaml", "missing.yaml"]
    for name in names:
        path = str(tmp_path / name)
        assert [(i.file, _outcome_item(new, i)) for i in new.load_path(path)] == [
            (i.file, _outcome_item(new, i)) for i in _expanded_then_loaded(path)], name
    assert [_outcome_item(new, i) for i in new.load_path(str(tmp_path / "big.yaml"))] == [
        ("err", None, 0, 0, "file is larger than 32 bytes; refusing to load it")]
    assert [_outcome_item(new, i) for i in new.load_path(str(tmp_path / "missing.yaml"))] == [
        ("err", None, 0, 0, "no such file or directory")]


def test_composed_path_bounds_nesting_tighter_outside_the_main_thread() -> None:
    """The C composer recurses (~300 bytes of stack a level): in another thread, whose stack may be small, a
    text that could nest past ``_COMPOSE_MAX_NESTING_THREAD`` goes to the event walk (no crash at 256 KiB)."""
    import threading

    deep = b"a: " + b"[" * 500 + b"]" * 500 + b"\n"
    shallow = b"a: " + b"[" * 50 + b"]" * 50 + b"\n"
    assert new._composed(deep) is not None  # the main thread's bound lets it through
    got: list[Any] = []
    old = threading.stack_size(256 * 1024)
    try:
        thread = threading.Thread(target=lambda: got.extend([new._composed(deep), new._composed(shallow)]))
        thread.start()
        thread.join()
    finally:
        threading.stack_size(old)
    assert got[0] is None and got[1] is not None
