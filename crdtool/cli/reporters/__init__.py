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

import enum
import os
import sys
from dataclasses import dataclass, field
from typing import Any, Callable, TextIO


class CheckOutput(str, enum.Enum):
    """The output formats of the checking commands (validate, upgrade-manifest --check, fuzz-roundtrip)."""

    text = "text"
    json = "json"
    github = "github"
    sarif = "sarif"
    junit = "junit"


#: The formats that describe findings (not the command's own text or JSON).
FINDING_FORMATS = frozenset({"github", "sarif", "junit"})


@dataclass(frozen=True)
class Finding:
    """One problem (or warning) a command found, where it is.

    Attributes:
        rule: the machine-readable kind: an upstream ``field.ErrorType`` name
            (``FieldValueRequired``), a strict-decoding finding (``UnknownField``),
            ``InputError``, or a crdtool kind (``Warning``, ``WouldChange``,
            ``ManualFix``, ``RoundTrip``...). SARIF makes one rule of each.
        level: ``error``, ``warning`` or ``note`` (SARIF's levels).
        message: one line for people, as the text output shows it.
        file: the input file as given (``<stdin>`` for stdin).
        line, column: 1-based position, or None when unknown.
        field: the field path the finding is about, if any.
    """

    rule: str
    level: str
    message: str
    file: str
    line: int | None = None
    column: int | None = None
    field: str | None = None


@dataclass(frozen=True)
class Case:
    """One thing checked, a JUnit testcase: a document (validate, upgrade) or a version pair (fuzz).

    ``outcome`` is ``passed``, ``failed`` (error-level findings), ``skipped``
    (not checked: ``note`` says why) or ``error`` (the input could not be read).
    """

    name: str
    file: str
    line: int | None
    outcome: str
    findings: tuple[Finding, ...] = ()
    note: str | None = None


@dataclass
class CheckRun:
    """What one checking command found, for any reporter.

    Attributes:
        command: the subcommand (``validate``), used in titles and suite names.
        cases: everything checked, in input order.
        render_text: prints the command's own text report (already knowing
            ``--quiet``).
        json_payload: returns the command's own JSON document.
        summary: one line, e.g. ``3 documents: 1 valid, 2 invalid, ...``.
        rules: descriptions of rule ids (SARIF ``shortDescription``), optional.
    """

    command: str
    cases: list[Case]
    render_text: Callable[[], None]
    json_payload: Callable[[], Any]
    summary: str = ""
    rules: dict[str, str] = field(default_factory=dict)

    @property
    def findings(self) -> list[Finding]:
        return [f for c in self.cases for f in c.findings]


#: Large outputs are written in pieces of this many characters, so that a reader that goes away
#: (``| head``) is noticed at the next piece rather than after one huge write some kernels complete.
CHUNK = 1 << 16


def write_text(stream: TextIO, text: str) -> None:
    """Write ``text`` to ``stream`` in :data:`CHUNK`-sized pieces, then flush."""
    for start in range(0, len(text), CHUNK):
        stream.write(text[start:start + CHUNK])
    stream.flush()


def _text(run: CheckRun, stream: TextIO) -> None:
    run.render_text()


def _json(run: CheckRun, stream: TextIO) -> None:
    from crdtool.cli.report import write_json

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
