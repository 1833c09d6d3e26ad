"""Reporters: render results for people (Rich text) or machines (JSON).

A registry looked up by name, as check-jsonschema's ``REPORTER_BY_NAME``.
Colour only on a terminal; Rich honours ``NO_COLOR`` (and ``FORCE_COLOR``).
"""

from __future__ import annotations

import enum
import sys
from dataclasses import dataclass, field
from typing import Any, Callable, TextIO

from rich.console import Console
from rich.markup import escape

from crdtool.cli.output import OutputFormat  # re-exported: the CLI imports it without Rich


def console(stderr: bool = False) -> Console:
    """A Rich console that never wraps (stable output for pipes and golden files)."""
    return Console(stderr=stderr, highlight=False, soft_wrap=True, emoji=False)


def write_json(data: Any, stream: TextIO | None = None) -> None:
    """Print ``data`` as indented JSON with a trailing newline (floats as Go's encoding/json writes them)."""
    from crdtool.core.gojson import go_json_dumps

    out = stream or sys.stdout
    out.write(go_json_dumps(data, indent=2))
    out.write("\n")


@dataclass
class DocumentResult:
    """The verdict on one input document, in the JSON shape of ``validate --output json``."""

    file: str
    index: int
    line: int
    api_version: str | None
    kind: str | None
    name: str | None
    status: str  # valid | invalid | skipped | error
    errors: list[dict[str, Any]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    note: str | None = None  # why a document was skipped (text output only)

    def to_dict(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "index": self.index,
            "line": self.line,
            "apiVersion": self.api_version,
            "kind": self.kind,
            "name": self.name,
            "status": self.status,
            "errors": self.errors,
            "warnings": self.warnings,
        }


STATUSES = ("valid", "invalid", "skipped", "error")


def summary(results: list[DocumentResult]) -> dict[str, int]:
    """``{"documents", "valid", "invalid", "skipped", "errors"}``; ``errors`` counts documents in status error."""
    counts = {s: sum(1 for r in results if r.status == s) for s in STATUSES}
    return {
        "documents": len(results),
        "valid": counts["valid"],
        "invalid": counts["invalid"],
        "skipped": counts["skipped"],
        "errors": counts["error"],
    }


def report_validate_json(results: list[DocumentResult]) -> None:
    write_json({"summary": summary(results), "documents": [r.to_dict() for r in results]})


_STYLE = {"valid": "green", "invalid": "bold red", "skipped": "dim", "error": "bold magenta"}


def _where(file: str, line: int | None, column: int | None = None) -> str:
    if line is None:
        return file
    return f"{file}:{line}:{column}" if column else f"{file}:{line}"


def report_validate_text(results: list[DocumentResult]) -> None:
    """Grouped by file: one header line per document, then its errors and warnings."""
    out = console()
    current_file: str | None = None
    for r in results:
        if r.file != current_file:
            if current_file is not None:
                out.print()
            out.print(f"[bold]{escape(r.file)}[/bold]")
            current_file = r.file
        what = " ".join(escape(p) for p in (r.kind, r.name) if p) or ("input could not be read" if r.status == "error" else "document")
        if r.api_version:
            what += f" ({escape(r.api_version)})"
        tag = f"[{_STYLE[r.status]}]{r.status}[/]"
        extra = f": {escape(r.note)}" if r.note else ""
        out.print(f"  {_where(escape(r.file), r.line)}: {tag}: {what}{extra}")
        for e in r.errors:
            if e.get("type") == "InputError":
                # The message of an unreadable input already starts with its file:line:column.
                out.print(f"    [magenta]{escape(e['message'])}[/magenta]")
                continue
            where = _where(escape(r.file), e.get("line"), e.get("column"))
            out.print(f"    {where}: [red]{escape(e['message'])}[/red]")
        for w in r.warnings:
            out.print(f"    [yellow]warning[/yellow]: {escape(w)}")
    s = summary(results)
    if results:
        out.print()
    out.print(
        f"{s['documents']} documents: [green]{s['valid']} valid[/green], "
        f"[red]{s['invalid']} invalid[/red], {s['skipped']} skipped, "
        f"[magenta]{s['errors']} input errors[/magenta]"
    )


REPORTER_BY_NAME: dict[str, Callable[[list[DocumentResult]], None]] = {
    OutputFormat.text.value: report_validate_text,
    OutputFormat.json.value: report_validate_json,
}
