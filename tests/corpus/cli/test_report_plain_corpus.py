"""The corpus tier of ``tests/cli/test_report_plain.py``: validate's text report of ../shared/corpus and
../shared/corpus-outside (quiet and not, with the checks across the bundle) written without Rich is the text Rich
prints (the route forced), and most of it does take the plain route."""

from __future__ import annotations

import contextlib
import io
import sys
from pathlib import Path
from typing import Any

import pytest

from crdtool.cli import report, validate
from crdtool.cli.bundle_checks import BundleOptions
from crdtool.core.bundle import select_rules
from crdtool.core.releases import resolve_release

ROOT = Path(__file__).resolve().parents[3]
SHARED = ROOT.parent / "shared"


@pytest.fixture(scope="module")
def corpus_results() -> list[report.DocumentResult]:
    """The results validate hands its text report, over both corpora at 1.35."""
    inputs = [str(SHARED / "corpus"), str(SHARED / "corpus-outside")]
    for path in inputs:
        assert Path(path).exists(), f"{path} is missing: these tests need ../shared beside the checkout"
    seen: list[Any] = []
    with pytest.MonkeyPatch.context() as m:
        m.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"")))
        m.setattr(report, "report_validate_text", lambda results, quiet=False: seen.append(list(results)))
        with contextlib.redirect_stdout(io.StringIO()):
            validate.run(inputs, "text", jobs=1, releases=(resolve_release("1.35"),),
                         bundle=BundleOptions(select_rules(None, [])))
    assert len(seen) == 1 and len(seen[0]) > 1000
    return seen[0]


def _render(results: list[report.DocumentResult], quiet: bool, plain: bool) -> str:
    buf = io.StringIO()
    with pytest.MonkeyPatch.context() as m, contextlib.redirect_stdout(buf):
        for name in ("TTY_COMPATIBLE", "FORCE_COLOR", "NO_COLOR"):
            m.delenv(name, raising=False)
        if not plain:
            m.setattr(report, "_plain_applies", lambda results, quiet: False)
        report.report_validate_text(results, quiet=quiet)
    return buf.getvalue()


@pytest.mark.parametrize("quiet", [True, False])
def test_the_corpus_report_is_rich_text(corpus_results: list[report.DocumentResult], quiet: bool) -> None:
    # by file: each file's results alone, so that a file with a string Rich must print does not hide the rest
    by_file: dict[str, list[report.DocumentResult]] = {}
    for r in corpus_results:
        by_file.setdefault(r.file, []).append(r)
    plain = 0
    for results in by_file.values():
        if report._plain_applies(results, quiet):
            plain += 1
        assert _render(results, quiet, plain=True) == _render(results, quiet, plain=False), results[0].file
    assert plain > 0.9 * len(by_file)
    assert _render(corpus_results, quiet, plain=True) == _render(corpus_results, quiet, plain=False)
