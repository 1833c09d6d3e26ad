"""``--output github``: GitHub Actions workflow commands, one annotation per finding.

``::error file=F,line=L,col=C,title=T::MESSAGE`` (``::warning``, ``::notice``
for the other levels), escaped as ``@actions/core`` escapes them
(``toolkit/packages/core/src/command.ts``: ``escapeData`` for the message,
``escapeProperty`` for the properties). The run's summary follows as a plain
line. yamllint's ``github`` format is the model.
"""

from __future__ import annotations

from typing import TextIO

from crdtool.cli.reporters.base import CheckRun, Finding

_COMMAND = {"error": "error", "warning": "warning", "note": "notice"}


def escape_data(text: str) -> str:
    """``escapeData``: ``%``, CR and LF percent-encoded."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """``escapeProperty``: as :func:`escape_data`, plus ``:`` and ``,``."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def annotation(finding: Finding, command: str) -> str:
    """One workflow command line for ``finding`` (no trailing newline)."""
    props = [f"file={escape_property(finding.file)}"]
    if finding.line:
        props.append(f"line={finding.line}")
        if finding.column:
            props.append(f"col={finding.column}")
    props.append(f"title={escape_property(f'crdtool {command}: {finding.rule}')}")
    return f"::{_COMMAND[finding.level]} {','.join(props)}::{escape_data(finding.message)}"


def report(run: CheckRun, stream: TextIO) -> None:
    """Print one annotation per finding, then the summary line."""
    for finding in run.findings:
        stream.write(annotation(finding, run.command) + "\n")
    if run.summary:
        stream.write(run.summary + "\n")
    stream.flush()
