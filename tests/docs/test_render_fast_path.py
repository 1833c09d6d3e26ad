"""The plain-prose fast path of description rendering gives markdown-it-py's bytes.

:func:`crdtool.docs.render.plain_paragraphs` skips the Markdown parser for descriptions that hold no
Markdown syntax (most of them: 2,798 of 3,654 distinct descriptions in 40 corpus CRDs); whenever it
answers, the answer must be what markdown-it-py (CommonMark, html off) renders. Hypothesis draws text
from an alphabet heavy in the characters that matter (spaces, newlines, digits, ``.``, ``)``, ``-``,
``+``, quotes, tabs, vertical tabs, non-breaking spaces).
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from crdtool.docs.render import _markdown, plain_paragraphs

ALPHABET = st.sampled_from(list("ab Z9.0)-+\"'\n\n  \t\x0b\xa0é:,;/()?") + ["  \n", "\n\n", "    ", "1. ", "- ", "http://x.io/a"])


@settings(max_examples=150, deadline=None)
@given(st.lists(ALPHABET, max_size=40).map("".join))
def test_fast_path_is_markdown_its_rendering(text: str) -> None:
    fast = plain_paragraphs(text)
    if fast is not None:
        assert fast == _markdown().render(text).rstrip("\n")


def test_fast_path_declines_markdown() -> None:
    for text in ("a *b*", "- item", "1. one", "# title", "a  \nb", "    code", "a | b", "a & b", "x\n===", "<b>"):
        assert plain_paragraphs(text) is None, text
    assert plain_paragraphs('Say "hi".\n  Second line.\n\n\nNext.') == "<p>Say &quot;hi&quot;.\nSecond line.</p>\n<p>Next.</p>"
