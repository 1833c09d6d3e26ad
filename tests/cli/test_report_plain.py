"""validate's text report written without Rich (crdtool/cli/report.py, _plain_applies) is the text Rich prints.

Differential: the same results through the plain route and through Rich (the route forced), on generated
results whose strings are printable ASCII (brackets, slashes, tag-like words and line breaks in messages
included); and the cases that must go to Rich. The corpus's reports: tests/corpus/cli/test_report_plain_corpus.py.
"""

from __future__ import annotations

import contextlib
import io
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from crdtool.cli import report
from crdtool.cli.report import DocumentResult


def render(results: list[DocumentResult], quiet: bool, route: str) -> str:
    """report_validate_text's output through ``route`` (plain: asserted taken; rich: forced)."""
    buf = io.StringIO()
    with pytest.MonkeyPatch.context() as monkeypatch, contextlib.redirect_stdout(buf):
        for name in ("TTY_COMPATIBLE", "FORCE_COLOR", "NO_COLOR"):
            monkeypatch.delenv(name, raising=False)
        if route == "rich":
            monkeypatch.setattr(report, "_plain_applies", lambda results, quiet: False)
        else:
            assert report._plain_applies(results, quiet)
        report.report_validate_text(results, quiet=quiet)
    return buf.getvalue()


_ASCII = st.text(alphabet=st.characters(min_codepoint=0x20, max_codepoint=0x7E, blacklist_characters="\\"), max_size=20)
_WORDS = st.sampled_from(["[bold]", "[/]", "[red]x[/red]", "a[0].b", "labels[app.kubernetes.io/name]", "[@x]", "[#f00]",
                          "]", "[", "[[", "]]", "[0", "[A", " ", "  x  ", ":smile:", "http://x/[y]", "[link=x]y[/link]"])
_TEXT = st.lists(st.one_of(_ASCII, _WORDS), max_size=4).map("".join)
_MESSAGE = st.lists(st.one_of(_TEXT, st.just("\n")), max_size=5).map("".join)


@st.composite
def results(draw: Any) -> list[DocumentResult]:
    out = []
    files = draw(st.lists(_TEXT.filter(bool), min_size=1, max_size=3))
    for index in range(draw(st.integers(0, 6))):
        status = draw(st.sampled_from(["valid", "invalid", "skipped", "error"]))
        errors = [
            {"type": draw(st.sampled_from(["FieldValueRequired", "InputError", None])), "message": draw(_MESSAGE),
             "line": draw(st.sampled_from([None, 0, 3])), "column": draw(st.sampled_from([None, 0, 7]))}
            for _ in range(draw(st.integers(0, 3)))
        ]
        out.append(DocumentResult(
            file=draw(st.sampled_from(files)), index=index, line=draw(st.sampled_from([0, 1, 12])),
            api_version=draw(st.none() | _TEXT), kind=draw(st.none() | _TEXT), name=draw(st.none() | _TEXT),
            status=status, errors=errors, warnings=draw(st.lists(_TEXT, max_size=2)), note=draw(st.none() | _TEXT),
        ))
    return out


@settings(max_examples=300, deadline=None)
@given(results(), st.booleans())
def test_plain_text_is_what_rich_prints(docs: list[DocumentResult], quiet: bool) -> None:
    assume(report._plain_applies(docs, quiet))  # the others go to Rich (next tests)
    assert render(docs, quiet, "plain") == render(docs, quiet, "rich")


def _one(**fields: Any) -> list[DocumentResult]:
    base: dict[str, Any] = {"file": "a.yaml", "index": 0, "line": 1, "api_version": "v1", "kind": "Service",
                            "name": "x", "status": "invalid", "errors": [{"message": "m", "line": 2, "column": 3}]}
    base.update(fields)
    return [DocumentResult(**base)]


@pytest.mark.parametrize(
    "docs",
    [_one(name="caf\u00e9"), _one(file="a\\b.yaml"), _one(kind="a\tb"), _one(note="x\ry"),
     _one(errors=[{"message": "a \\[b]", "line": 1}]), _one(errors=[{"message": "\u2013", "line": 1}]),
     _one(versions={"1.30": DocumentResult("a.yaml", 0, 1, "v1", "Service", "x", "valid")}),
     _one(status="valid", warnings=["\x1b[31m"])],
)
def test_anything_else_goes_to_rich(docs: list[DocumentResult]) -> None:
    assert not report._plain_applies(docs, quiet=False)


@pytest.mark.parametrize(
    "docs",
    [_one(name="[/", api_version="]"), _one(kind="[a", name="b]"), _one(errors=[{"message": "x [red y", "line": 1}])],
)
def test_a_tag_start_that_does_not_close_is_plain_and_rich_prints_it_the_same(docs: list[DocumentResult]) -> None:
    """The markup escape escapes every tag start (crdtool.cli.markup), so these need not go to Rich; Rich's own
    escape left them open (the first one was a MarkupError, exit 3)."""
    assert report._plain_applies(docs, quiet=False)
    assert render(docs, False, "plain") == render(docs, False, "rich")


def test_a_quiet_report_looks_only_at_what_it_shows() -> None:
    docs = _one(status="valid", name="caf\u00e9") + _one(name="plain")
    assert report._plain_applies(docs, quiet=True)
    assert not report._plain_applies(docs, quiet=False)
    assert render(docs, True, "plain") == render(docs, True, "rich")


@pytest.mark.parametrize("env", [{"FORCE_COLOR": "1"}, {"FORCE_COLOR": ""}, {"TTY_COMPATIBLE": "1"}, {"TTY_COMPATIBLE": "0"}])
def test_rich_decides_when_the_environment_speaks_of_terminals(env: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    assert not report._plain_applies(_one(), quiet=False)


def test_a_terminal_gets_rich(monkeypatch: pytest.MonkeyPatch) -> None:
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.delenv("FORCE_COLOR", raising=False)
    monkeypatch.delenv("TTY_COMPATIBLE", raising=False)
    monkeypatch.setattr("sys.stdout", Tty())
    assert not report._plain_applies(_one(), quiet=False)


def test_plain_blocks_are_whole_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    """More lines than a block: the blocks join into the same text."""
    monkeypatch.setattr(report._Lines, "BLOCK", 3)
    docs = [r for i in range(7) for r in _one(file=f"f{i}.yaml", index=i)]
    assert render(docs, False, "plain") == render(docs, False, "rich")
