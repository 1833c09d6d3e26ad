"""What every reporter renders: findings, cases and one command's run; and the writers they share.

The registry of reporters by name is :mod:`crdtool.cli.reporters`.
"""

from __future__ import annotations

import enum
import sys
from dataclasses import dataclass, field
from typing import Any, Callable, TextIO

__all__ = ["CHUNK", "Case", "CheckOutput", "CheckRun", "FINDING_FORMATS", "Finding", "write_json", "write_text"]


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
        rule_help: rule id -> ``(name, help text, help URL)`` (SARIF ``name``, ``help``,
            ``helpUri``), optional: ``lint`` gives its codes' names, rationales and links.
        write_json: writes the command's JSON document to a stream itself (a long report, in pieces),
            instead of ``write_json(json_payload())``; optional.
    """

    command: str
    cases: list[Case]
    render_text: Callable[[], None]
    json_payload: Callable[[], Any]
    summary: str = ""
    rules: dict[str, str] = field(default_factory=dict)
    rule_help: dict[str, tuple[str, str, str]] = field(default_factory=dict)
    write_json: Callable[[TextIO], None] | None = None

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


def write_json(data: Any, stream: TextIO | None = None) -> None:
    """Print ``data`` as indented JSON with a trailing newline (floats as Go's encoding/json writes them),
    in pieces (see :func:`write_text`)."""
    from crdtool.core.gojson import go_json_dumps

    write_text(stream or sys.stdout, go_json_dumps(data, indent=2) + "\n")
