"""crdtool.cli.markup.escape: user text stays literal in Rich console markup, whatever is beside it on a line."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rich.markup import escape as rich_escape
from rich.text import Text

from crdtool.cli.markup import escape

#: texts made of what builds (and breaks) markup: brackets, tag characters, a slash, an '=' and plain letters
_PIECES = st.text(alphabet="[]/@#=abz (", max_size=12)


def _render(markup: str) -> str:
    return Text.from_markup(markup).plain


@given(_PIECES, _PIECES)
def test_two_texts_on_one_line_render_as_themselves(a: str, b: str) -> None:
    assert _render(f"{escape(a)} ({escape(b)})") == f"{a} ({b})"


@given(_PIECES)
def test_a_styled_text_renders_as_itself(a: str) -> None:
    assert _render(f"[bold]{escape(a)}[/bold] and [dim]{escape(a)}[/dim]") == f"{a} and {a}"


@given(st.text(alphabet="[]/abz \\", max_size=12))
def test_equal_to_richs_escape_when_every_tag_start_closes(a: str) -> None:
    import re

    if re.search(r"\[[a-z#/@]", re.sub(r"\[[a-z#/@][^[]*?]", "", a)):
        return  # a start that does not close: the case escape() differs in on purpose (tested below)
    assert escape(a) == rich_escape(a)


@pytest.mark.parametrize("name,api_version", [("[/", "]"), ("[bold", "x]"), ("[@click", "]"), ("a[/b", "c]d")])
def test_an_unclosed_start_and_a_later_bracket_rich_escape_fails_on(name: str, api_version: str) -> None:
    from rich.errors import MarkupError

    line = "ConfigMap {} ({})"
    try:
        rendered = _render(line.format(rich_escape(name), rich_escape(api_version)))
    except MarkupError:
        rendered = None
    assert rendered != f"ConfigMap {name} ({api_version})"  # Rich's own escape: a crash or a tag applied
    assert _render(line.format(escape(name), escape(api_version))) == f"ConfigMap {name} ({api_version})"


def test_backslashes_before_a_closed_tag() -> None:
    assert _render(escape("a\\[b]") + " x") == "a\\[b] x"
    assert _render("[bold]" + escape("a\\\\[/c]") + "[/bold]") == "a\\\\[/c]"


def test_validate_reports_a_name_and_api_version_that_make_a_tag_together(tmp_path) -> None:
    """Before: `MarkupError: closing tag '[/ (]' ...`, exit 3 (a crash log), for this document."""
    import os
    import subprocess
    import sys

    doc = tmp_path / "a.yaml"
    doc.write_text('apiVersion: "]"\nkind: ConfigMap\nmetadata:\n  name: "[/"\n')
    proc = subprocess.run([sys.executable, "-m", "crdtool", "validate", str(doc)], capture_output=True, text=True,
                          env={**os.environ, "NO_COLOR": "1"})
    assert proc.returncode == 0, proc.stderr
    assert f"{doc}:1: skipped: ConfigMap [/ (]): no Kubernetes release defines ConfigMap in ]" in proc.stdout
