"""``loader._separator_lines`` (``bytes.find``) against the multi-line expression it replaced, and the chunks
``_split_chunks`` gives against the ones that expression gave (kubectl's ``YAMLReader.Read`` splitting)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from crdtool.yaml.loader import _separator_lines, _split_chunks
from crdtool.yaml.stream import _SEPARATOR_RE
# the frozen reference loader (main 0df2e16): its _split_chunks scans with _SEPARATOR_RE.finditer
from tests.yaml._reference_loader import _split_chunks as _by_expression

#: pieces that make separators, near-separators and their rests likely
_PIECES = [b"---", b"--", b"-", b"\n", b"\r\n", b"\r", b" ", b"#", b"a: 1", b"x", b"--- #c", b"---x", b"\xff", b"..."]


@settings(max_examples=600, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=40))
def test_separator_lines_are_the_expression_matches(pieces: list[bytes]) -> None:
    raw = b"".join(pieces)
    expected = [(m.start(), m.end()) for m in _SEPARATOR_RE.finditer(raw)]
    assert list(_separator_lines(raw)) == expected
    assert list(_split_chunks(raw)) == list(_by_expression(raw))


def test_edges() -> None:
    for raw in (b"", b"---", b"---\n", b"\n---", b"\n---\n", b"------", b"a\n---\n---\nb", b"--- x\n-- -\n---",
                b"a: 1\n---\r\nb: 2\n", b"---\n---"):
        assert list(_separator_lines(raw)) == [(m.start(), m.end()) for m in _SEPARATOR_RE.finditer(raw)], raw
        assert list(_split_chunks(raw)) == list(_by_expression(raw)), raw
    assert list(_split_chunks(b"a\n--- x\nb")) == [(1, b"a\n", None), (2, b"", "x"), (3, b"b", None)]
