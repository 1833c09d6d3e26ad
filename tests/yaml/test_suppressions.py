"""``# crdtool: ignore[...]`` comments (issue 27): which comments count and which lines they cover."""

from __future__ import annotations

from crdtool.yaml.loader import Document, load_documents
from crdtool.yaml.suppressions import Suppression, find_suppressions

TEXT = """\
# crdtool: ignore[CRD205]
apiVersion: v1
spec:
  a: 1  # crdtool: ignore[CRD002, crd005]
  # crdtool: ignore

  b: 'x # crdtool: ignore[CRD9]'
  c: "# crdtool: ignore"
  d: e#crdtool: ignore
  f: g # not crdtool: ignore
"""


def test_comments_and_what_they_cover() -> None:
    assert find_suppressions(TEXT, first_line=10, root_line=11) == [
        Suppression(10, 1, ("CRD205",), None),  # above the root: the whole document
        Suppression(13, 9, ("CRD002", "CRD005"), 13),  # after content: its own line
        Suppression(14, 3, (), 16),  # on a line of its own: the next line with content (blank lines skipped)
    ]  # inside quotes, without a blank before '#', or after other comment text: not a suppression


def test_the_documents_first_line_covers_the_document() -> None:
    [s] = find_suppressions("apiVersion: v1  # crdtool: ignore[CRD101]\nkind: A\n", 5, 5)
    assert s.scope == "document" and s.silences("CRD101", 99) and not s.silences("CRD102", 5)


def test_each_document_of_a_stream_has_its_own() -> None:
    text = "apiVersion: v1\nkind: A\n---\n# crdtool: ignore[CRD101]\napiVersion: v1\nkind: B  # crdtool: ignore\n"
    docs = [d for d in load_documents(text, "s.yaml") if isinstance(d, Document)]
    found = []
    for d in docs:
        source = d.source_text()
        assert source is not None
        found.append(find_suppressions(source[0], source[1], d.line))
    assert found == [[], [Suppression(4, 1, ("CRD101",), None), Suppression(6, 10, (), 6)]]
