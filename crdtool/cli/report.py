"""Rendering shared by the commands: the Rich console, JSON, and ``validate``'s document results.

The reporters by name (text, json, github, sarif, junit) are in
:mod:`crdtool.cli.reporters`; :func:`validate_run` turns ``validate``'s results
into the :class:`~crdtool.cli.reporters.CheckRun` they render. Colour and
styles only on a terminal; ``NO_COLOR`` (any non-empty value) turns off every
escape code, bold included (Rich alone would keep bold), and ``FORCE_COLOR``
is honoured by Rich.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Sequence

from crdtool.cli.output import OutputFormat  # noqa: F401 - re-exported: the CLI imports it without Rich
from crdtool.cli.markup import escape  # noqa: F401 - re-exported: the commands' markup escape
from crdtool.cli.reporters.base import write_json  # noqa: F401 - re-exported for the commands

if TYPE_CHECKING:
    from rich.console import Console


_CONSOLE_CLASS: list[Any] = []


def _console_class() -> Any:
    """A Rich console class that lets a closed pipe surface as :class:`BrokenPipeError`.

    Rich's own ``on_broken_pipe`` exits with status 1, which would read as
    "findings" to a caller; the one error handler in :mod:`crdtool.cli.app`
    ends the process as POSIX tools end on a closed pipe instead. Made on first use: Rich costs ~25 ms of
    start-up, which a report without styles (:func:`report_validate_text` to a pipe) does not need.
    """
    if not _CONSOLE_CLASS:
        from rich.console import Console

        class _Console(Console):
            def on_broken_pipe(self) -> None:
                raise BrokenPipeError

        _CONSOLE_CLASS.append(_Console)
    return _CONSOLE_CLASS[0]


def no_color() -> bool:
    """``NO_COLOR`` is set to a non-empty value (https://no-color.org)."""
    return bool(os.environ.get("NO_COLOR"))


def console(stderr: bool = False) -> Console:
    """A Rich console that never wraps (stable output for pipes and golden files).

    Styles only on a terminal (or with ``FORCE_COLOR``); none at all, bold
    included, when ``NO_COLOR`` is set.
    """
    kwargs: dict[str, Any] = {"color_system": None} if no_color() else {}
    return _console_class()(stderr=stderr, highlight=False, soft_wrap=True, emoji=False, **kwargs)  # type: ignore[no-any-return]


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
    #: with several Kubernetes releases (``--kubernetes-version 1.30-1.37``): each release's own result
    versions: dict[str, DocumentResult] | None = None
    #: a ``v1`` ``List``: the status of each item (the summary and the progress bar count items as documents)
    item_statuses: list[str] | None = None
    #: the ``metav1.Status`` kubectl would get creating the document (``--output json``'s ``apiStatus``);
    #: None when it was not judged
    api_status: dict[str, Any] | None = None
    #: a custom resource no CRD of the run defines: kubectl's "no matches for kind" text (skipped until
    #: :func:`crdtool.cli.validate.missing_crds` makes it a finding)
    missing_crd: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out = {
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
        if self.api_status is not None:
            out["apiStatus"] = self.api_status
        if self.versions is not None:
            out["kubernetesVersions"] = {
                name: {"status": r.status, "errors": r.errors, "warnings": r.warnings,
                       **({"apiStatus": r.api_status} if r.api_status is not None else {})}
                for name, r in self.versions.items()
            }
        return out


def ranges(names: Sequence[str]) -> str:
    """``["1.30", "1.31", "1.32", "1.35"]`` -> ``"1.30–1.32, 1.35"`` (consecutive minors joined)."""
    minors = sorted({int(n.split(".")[1]) for n in names})
    parts: list[str] = []
    start = prev = None
    for m in minors:
        if start is None:
            start = prev = m
        elif prev is not None and m == prev + 1:
            prev = m
        else:
            parts.append(f"1.{start}" if start == prev else f"1.{start}–1.{prev}")
            start = prev = m
    if start is not None:
        parts.append(f"1.{start}" if start == prev else f"1.{start}–1.{prev}")
    return ", ".join(parts)


def verdict_line(result: DocumentResult) -> str | None:
    """``valid on 1.33–1.37; rejected on 1.30–1.32`` when the releases' verdicts differ, else None."""
    if not result.versions:
        return None
    by_status: dict[str, list[str]] = {}
    for name, r in result.versions.items():
        by_status.setdefault(r.status, []).append(name)
    if len(by_status) < 2:
        return None
    words = {"valid": "valid on", "invalid": "rejected on", "skipped": "skipped on", "error": "unreadable on"}
    order = ("valid", "invalid", "skipped", "error")
    return "; ".join(f"{words[s]} {ranges(by_status[s])}" for s in order if s in by_status)


STATUSES = ("valid", "invalid", "skipped", "error")


def summary(results: Iterable[DocumentResult]) -> dict[str, int]:
    """``{"documents", "valid", "invalid", "skipped", "errors"}``; ``errors`` counts documents in status error.

    The items of a ``v1`` ``List`` count as documents (what ``kubectl get -o yaml`` prints is a List of
    the objects), each with its own status; an empty List counts as itself.
    """
    counts = dict.fromkeys(STATUSES, 0)
    for r in results:
        for status in r.item_statuses or (r.status,):
            counts[status] += 1
    return {
        "documents": sum(counts.values()),
        "valid": counts["valid"],
        "invalid": counts["invalid"],
        "skipped": counts["skipped"],
        "errors": counts["error"],
    }


def full_summary(results: Iterable[DocumentResult]) -> dict[str, Any]:
    """:func:`summary`, and with several Kubernetes releases ``kubernetesVersions``: release -> its summary."""
    out: dict[str, Any] = dict(summary(results))
    first = next(iter(results), None)
    names = list(first.versions) if first is not None and first.versions is not None else []
    if names:
        out["kubernetesVersions"] = {
            name: summary(r.versions[name] for r in results if r.versions is not None) for name in names
        }
    return out


def json_payload(results: Iterable[DocumentResult]) -> dict[str, Any]:
    """``validate --output json``: the summary (per Kubernetes release too, with several) and the documents."""
    return {"summary": full_summary(results), "documents": [r.to_dict() for r in results]}


def report_validate_json(results: list[DocumentResult]) -> None:
    write_json(json_payload(results))


_STYLE = {"valid": "green", "invalid": "bold red", "skipped": "dim", "error": "bold magenta"}


def _where(file: str, line: int | None, column: int | None = None) -> str:
    if not line:  # no line (a path that could not be read): the file alone, not "file:0"
        return file
    return f"{file}:{line}:{column}" if column else f"{file}:{line}"


def report_validate_text(results: list[DocumentResult], quiet: bool = False) -> None:
    """Grouped by file: one header line per document, then its errors and warnings.

    ``quiet``: only invalid and unreadable documents (with their errors), then the summary.

    Printed by Rich from console markup; written as plain text, without Rich, when Rich would print that text
    unchanged (:func:`_plain_applies`: stdout is no terminal, and every string shown is printable ASCII without
    a backslash, whose markup escape Rich undoes exactly). A differential test holds the two equal.
    """
    if _plain_applies(results, quiet):
        out = sys.stdout
        block: list[str] = []
        for line in _validate_text_lines(results, quiet, _same, _bare):
            block.append(line)
            if len(block) >= _Lines.BLOCK:
                out.write("\n".join(block) + "\n")
                out.flush()
                block = []
        if block:
            out.write("\n".join(block) + "\n")
        out.flush()
        return
    lines = _Lines(console())
    for line in _validate_text_lines(results, quiet, escape, _styled):
        lines.print(line)
    lines.flush()


def _same(text: str) -> str:
    return text


def _bare(style: str, text: str) -> str:
    return text


def _styled(style: str, text: str) -> str:
    return f"[{style}]{text}[/{style}]"


def _validate_text_lines(
    results: list[DocumentResult], quiet: bool, esc: Callable[[str], str], tag: Callable[[str, str], str]
) -> Iterator[str]:
    """The lines of :func:`report_validate_text`: console markup with Rich's ``escape`` and :func:`_styled`, the
    text Rich would print with :func:`_same` and :func:`_bare`."""
    current_file: str | None = None
    for r in results:
        if quiet and r.status not in ("invalid", "error"):
            continue
        if r.file != current_file:
            if current_file is not None:
                yield ""
            yield tag("bold", esc(r.file))
            current_file = r.file
        what = " ".join(esc(p) for p in (r.kind, r.name) if p) or ("input could not be read" if r.status == "error" else "document")
        if r.api_version:
            what += f" ({esc(r.api_version)})"
        status = tag(_STYLE[r.status], r.status)
        extra = f": {esc(r.note)}" if r.note else ""
        yield f"  {_where(esc(r.file), r.line)}: {status}: {what}{extra}"
        if r.versions is not None:
            line = verdict_line(r)
            if line:
                yield f"    {esc(line)}"
        for e in r.errors:
            if e.get("type") == "InputError":
                # The message of an unreadable input already starts with its file:line:column.
                yield "    " + tag("magenta", esc(e["message"]))
                continue
            where = _where(esc(r.file), e.get("line"), e.get("column"))
            # multi-line details (a CEL compilation error's source excerpt) stay under their error
            message = esc(e["message"]).replace("\n", "\n      ")
            yield f"    {where}: {tag('red', message)}{_versions_note(e, r, esc, tag)}"
        if quiet:
            continue
        for w in r.warnings:
            yield f"    {tag('yellow', 'warning')}: {esc(w)}"
    s = summary(results)
    if current_file is not None:
        yield ""
    yield (
        f"{_count(s['documents'], 'document')}: {tag('green', str(s['valid']) + ' valid')}, "
        f"{tag('red', str(s['invalid']) + ' invalid')}, {s['skipped']} skipped, "
        f"{tag('magenta', _count(s['errors'], 'input error'))}"
    )
    per_version = full_summary(results).get("kubernetesVersions")
    if per_version:
        yield "; ".join(
            f"Kubernetes {name}: {v['valid']} valid, {v['invalid']} invalid" for name, v in per_version.items()
        )


def _plain_applies(results: list[DocumentResult], quiet: bool) -> bool:
    """Rich would print :func:`report_validate_text`'s lines as their plain text: stdout is not what Rich takes
    for a terminal (no ``TTY_COMPATIBLE``, ``FORCE_COLOR``, Jupyter or IDLE, and not a tty) and every string
    shown is :func:`_plain_safe` (messages may hold line breaks)."""
    if "TTY_COMPATIBLE" in os.environ or "FORCE_COLOR" in os.environ:
        return False
    if "IPython" in sys.modules or "idlelib" in sys.modules:
        return False
    try:
        if sys.stdout.isatty():
            return False
    except (AttributeError, ValueError, OSError):
        return False
    for r in results:
        if quiet and r.status not in ("invalid", "error"):
            continue
        for text in (r.file, r.kind, r.name, r.api_version, r.note):
            if text and not _plain_safe(text):
                return False
        if r.versions is not None:
            return False  # release ranges are written with an en dash
        for e in r.errors:
            if not _plain_safe(str(e["message"]).replace("\n", " ")):
                return False
        if not quiet:
            for w in r.warnings:
                if not _plain_safe(w):
                    return False
    return True


def _plain_safe(text: str) -> bool:
    """Printable ASCII (no control character, tab or line break) without a backslash: Rich prints such a text,
    escaped by :func:`crdtool.cli.markup.escape` (every tag start, closed within it or not), as it is."""
    return text.isascii() and text.isprintable() and "\\" not in text


class _Lines:
    """Lines of console markup printed in blocks: one ``Console.print`` of many lines costs about what one line
    costs (~0.1 ms each), and the text is the same (no wrapping: ``soft_wrap``; every line's markup closes on
    it)."""

    BLOCK = 512

    def __init__(self, out: Any) -> None:
        self.out = out
        self.pending: list[str] = []

    def print(self, line: str = "") -> None:
        self.pending.append(line)
        if len(self.pending) >= self.BLOCK:
            self.flush()

    def flush(self) -> None:
        if self.pending:
            self.out.print("\n".join(self.pending))
            self.pending = []


def _versions_note(entry: dict[str, Any], r: DocumentResult, esc: Callable[[str], str] = escape,
                   tag: Callable[[str, str], str] = _styled) -> str:
    """`` (on 1.30–1.32)`` after an error that not every requested release reports."""
    names = entry.get("kubernetesVersions")
    if not names or r.versions is None or len(names) == len(r.versions):
        return ""
    return " " + tag("dim", f"(on {esc(ranges(names))})")


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def summary_line(results: list[DocumentResult]) -> str:
    """The text summary without styles: ``N documents: V valid, I invalid, S skipped, E input errors``."""
    s = summary(results)
    return (f"{_count(s['documents'], 'document')}: {s['valid']} valid, {s['invalid']} invalid, "
            f"{s['skipped']} skipped, {_count(s['errors'], 'input error')}")


_OUTCOME = {"valid": "passed", "invalid": "failed", "skipped": "skipped", "error": "error"}


def _with_versions(message: str, entry: dict[str, Any], r: DocumentResult) -> str:
    """``[1.30–1.32] message`` for an error that not every requested Kubernetes release reports."""
    names = entry.get("kubernetesVersions")
    if not names or r.versions is None or len(names) == len(r.versions):
        return message
    return f"[Kubernetes {ranges(names)}] {message}"


def document_case(r: DocumentResult) -> Any:
    """One document as a reporter :class:`~crdtool.cli.reporters.Case` (a JUnit testcase)."""
    from crdtool.cli.reporters.base import Case, Finding

    findings = [
        Finding(
            rule=str(e.get("type") or "FieldValueInvalid"),
            level="error",
            message=_with_versions(str(e.get("message", "")), e, r),
            file=r.file,
            line=e.get("line") or (r.line if r.line > 0 else None),
            column=e.get("column") if e.get("line") else None,
            field=e.get("field") or None,
        )
        for e in r.errors
    ]
    findings += [Finding("Warning", "warning", w, r.file, r.line if r.line > 0 else None) for w in r.warnings]
    what = " ".join(p for p in (r.kind, r.name) if p) or ("input" if r.status == "error" else "document")
    name = f"{what} (document {r.index + 1}, line {r.line})" if r.line > 0 else what
    return Case(name=name, file=r.file, line=r.line if r.line > 0 else None, outcome=_OUTCOME[r.status],
                findings=tuple(findings), note=r.note)


def validate_run(results: Iterable[DocumentResult], quiet: bool = False, command: str = "validate") -> Any:
    """``validate``'s results as a :class:`~crdtool.cli.reporters.CheckRun` for any reporter.

    ``results``: a list, or a :class:`ResultLog` (read again for each use, never held whole: the cases
    are made as a reporter walks them, and the JSON report is written document by document).
    """
    from crdtool.cli.reporters.base import CheckRun

    return CheckRun(
        command=command,
        cases=_Cases(results),  # type: ignore[arg-type] # a sequence made on the fly
        render_text=lambda: report_validate_text(results, quiet=quiet),  # type: ignore[arg-type]
        json_payload=lambda: json_payload(results),
        summary=summary_line(results),  # type: ignore[arg-type]
        write_json=lambda stream: write_validate_json(results, stream),
    )


class _Cases:
    """:func:`document_case` of each result, made anew on each walk (a reporter may walk them twice)."""

    def __init__(self, results: Iterable[DocumentResult]) -> None:
        self.results = results

    def __iter__(self) -> Iterator[Any]:
        return (document_case(r) for r in self.results)

    def __len__(self) -> int:
        return sum(1 for _ in self.results) if not isinstance(self.results, (list, ResultLog)) else len(self.results)


def write_validate_json(results: Iterable[DocumentResult], stream: Any = None) -> None:
    """``validate --output json``: ``{"summary", "documents"}``, written document by document.

    The same text as ``write_json`` of the whole payload (Go's float texts,
    two-space indentation), without building it: a dump's report costs the
    memory of one document's.
    """
    import sys

    from crdtool.cli.reporters.base import CHUNK
    from crdtool.core.gojson import go_json_dumps

    out = stream or sys.stdout
    head = go_json_dumps({"summary": full_summary(results), "documents": [None]}, indent=2)
    before, _, after = head.rpartition("null")  # where the documents go, at depth 2
    pending: list[str] = []
    size = 0
    first = True
    for r in results:
        if first:
            pending.append(before)
            first = False
        else:
            pending.append(",\n    ")
        text = go_json_dumps(r.to_dict(), indent=2).replace("\n", "\n    ")
        pending.append(text)
        size += len(text)
        if size >= CHUNK:
            out.write("".join(pending))
            pending, size = [], 0
    if first:  # no document at all
        pending.append(go_json_dumps({"summary": full_summary(results), "documents": []}, indent=2))
    else:
        pending.append(after)
    pending.append("\n")
    out.write("".join(pending))
    out.flush()


#: A :class:`ResultLog` keeps this many results in memory; past it, they go to a temporary file.
SPILL_AFTER = 20_000


class ResultLog:
    """Document results in input order, in bounded memory: past :data:`SPILL_AFTER` they are kept pickled in a
    temporary file, and read back in order each time the log is walked (a dump of any size is reported
    without holding all its results). ``close()`` removes the file."""

    def __init__(self, spill_after: int | None = None) -> None:
        self.spill_after = SPILL_AFTER if spill_after is None else spill_after
        self._memory: list[DocumentResult] = []
        self._file: Any = None
        self._spilled = 0
        self.statuses: dict[str, int] = {}

    def append(self, result: DocumentResult) -> None:
        self._memory.append(result)
        self.statuses[result.status] = self.statuses.get(result.status, 0) + 1
        if len(self._memory) >= self.spill_after:
            self._spill()

    def extend(self, results: Iterable[DocumentResult]) -> None:
        for result in results:
            self.append(result)

    def _spill(self) -> None:
        import pickle
        import tempfile

        if self._file is None:
            self._file = tempfile.TemporaryFile()
        self._file.seek(0, 2)
        for start in range(0, len(self._memory), 1000):
            pickle.dump(self._memory[start:start + 1000], self._file, protocol=pickle.HIGHEST_PROTOCOL)
        self._spilled += len(self._memory)
        self._memory = []

    def __iter__(self) -> Iterator[DocumentResult]:
        if self._file is not None:
            import pickle

            self._file.seek(0)
            read = 0
            while read < self._spilled:
                batch = pickle.load(self._file)
                read += len(batch)
                yield from batch
        yield from list(self._memory)

    def __len__(self) -> int:
        return self._spilled + len(self._memory)

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None

