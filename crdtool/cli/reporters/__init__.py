"""Reporters by name: one registry for every checking command (``--output text|json|github|sarif|junit``).

As check-jsonschema's ``REPORTER_BY_NAME`` (``check_jsonschema/reporter.py``):
a command builds one :class:`CheckRun` -- its findings in a shape every
format can render -- and hands it to the reporter chosen by name. ``text``
and ``json`` are the command's own renderers (Rich text for people, the JSON
shape its docs give); ``github``, ``sarif`` and ``junit`` are generic and
render :attr:`CheckRun.cases`.

``github`` is chosen when no ``--output`` is given and ``GITHUB_ACTIONS`` is
``true`` (yamllint's ``format: auto`` does the same).
"""

from __future__ import annotations

import os
import sys
from typing import Callable, TextIO


from crdtool.cli.reporters.base import (
    CHUNK,
    FINDING_FORMATS,
    Case,
    CheckOutput,
    CheckRun,
    Finding,
    write_json,
    write_text,
)

__all__ = [
    "CHUNK", "Case", "CheckOutput", "CheckRun", "FINDING_FORMATS", "Finding", "REPORTER_BY_NAME", "choose_output",
    "report", "write_json", "write_text",
]


def _text(run: CheckRun, stream: TextIO) -> None:
    run.render_text()


def _json(run: CheckRun, stream: TextIO) -> None:
    if run.write_json is not None:
        run.write_json(stream)
        return
    write_json(run.json_payload(), stream)


def _github(run: CheckRun, stream: TextIO) -> None:
    from crdtool.cli.reporters.github import report

    report(run, stream)


def _sarif(run: CheckRun, stream: TextIO) -> None:
    from crdtool.cli.reporters.sarif import report

    report(run, stream)


def _junit(run: CheckRun, stream: TextIO) -> None:
    from crdtool.cli.reporters.junit import report

    report(run, stream)


#: name -> reporter(run, stream). Formats are imported only when used (start-up stays fast).
REPORTER_BY_NAME: dict[str, Callable[[CheckRun, TextIO], None]] = {
    "text": _text,
    "json": _json,
    "github": _github,
    "sarif": _sarif,
    "junit": _junit,
}


def choose_output(explicit: str | None, configured: str | None = None) -> str:
    """The output format name: ``--output``, else the configuration file's, else ``github`` under
    GitHub Actions (``GITHUB_ACTIONS=true``), else ``text``."""
    if explicit:
        return explicit
    if configured:
        return configured
    if os.environ.get("GITHUB_ACTIONS") == "true":
        return "github"
    return "text"


def report(run: CheckRun, output: str, stream: TextIO | None = None) -> None:
    """Render ``run`` with the reporter named ``output`` on ``stream`` (default stdout)."""
    REPORTER_BY_NAME[output](run, stream if stream is not None else sys.stdout)
