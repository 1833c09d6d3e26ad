"""``crdtool upgrade-manifest``: convert CRD manifests between apiextensions v1beta1 and v1, keeping layout.

For every input file (files, directories walked as ``crdtool validate`` walks
them, ``-`` for stdin) the file's *text* is split into kubectl document chunks
(:func:`crdtool.yaml.edit.split_documents`). Each chunk holding a
CustomResourceDefinition whose ``apiVersion`` is not the target is converted by
:func:`crdtool.core.crd.upgrade.upgrade_crd` and the result is written back onto
that chunk's text by :func:`crdtool.yaml.edit.rewrite_document` (comments,
key order, quoting and indentation kept wherever the content did not change;
moved subtrees keep their text and comments). Every other chunk -- other
kinds, CRDs already at the target, empty chunks, comments -- is copied byte for
byte, so document order and separators stay as they were. A CRLF file keeps its
line ends and a UTF-8/16/32 byte-order mark is kept on ``--in-place``.

Output modes (at most one of ``--in-place``, ``-o``, ``--check``):

* default: the converted stream on stdout (UTF-8); several input files are
  joined into one stream (a ``---`` line is added between files that do not
  start with one);
* ``-o FILE``: that same stream written to FILE atomically (FILE may be one of
  the inputs). Several inputs are allowed: FILE gets the joined stream, as
  stdout would. FILE is not written when any input fails to load (exit 2);
* ``--in-place``: each file that changes is replaced atomically
  (:func:`crdtool.cli.atomic.atomic_write_text`: temporary file, fsync, rename;
  the original is never truncated). Files with input errors are left alone;
  other files are still written. Not possible with ``-``;
* ``--check``: nothing is written; exit 1 if any file would change. With
  ``--diff`` the diff is printed too (as ``black --check --diff``);
* ``--diff``: a unified diff (``--- FILE``/``+++ FILE``, ``patch -p0`` applies it)
  instead of the result, on stdout or to ``-o FILE``.

Reports go to stderr (text, Rich): one header per converted document
(``FILE:LINE: NAME: converted FROM -> TO``; ``would convert`` with ``--check``)
and one line per note of ``upgrade_crd``: ``FILE:LINE: KIND: PATH: CHANGE
(REASON)`` -- for a "manual" note, the apiserver's message ``PATH: REASON``.
FILE and LINE are the *input*'s (a value copied or moved is shown where it
came from, a field added at its nearest ancestor), notes sorted by line;
the JSON report also gives ``outputLine``, the line in the converted text.
A summary line ends the report. Input errors are one line each, ``FILE:LINE:COLUMN: MESSAGE``; the
other files and documents are still processed, and on stdout a document that
cannot be loaded is passed through as it is (``--in-place`` leaves its file
alone, ``-o`` writes nothing).

``--output json`` prints this instead, on stdout (so it needs ``--check``,
``--in-place`` or ``-o``: with the default mode stdout carries the manifests)::

    {
      "changed": bool,            # some file changes (or would, with --check)
      "manual": bool,             # some document needs a manual fix (exit 1)
      "summary": {"files": int, "changedFiles": int, "documents": int,
                  "manual": int, "errors": int},
      "files": [{
        "file": str,              # as given, or found in a directory; "<stdin>"
        "changed": bool,
        "written": bool,          # --in-place / -o actually wrote it
        "documents": [{           # the CRDs converted (already at the target: not listed)
          "index": int,           # kubectl document index in the file (0-based)
          "line": int,            # line of the document in the input
          "name": str | null,     # metadata.name
          "from": str, "to": str, # full apiVersions
          "changed": bool,        # false when the conversion changed nothing (a decode error)
          "layout": str,          # patched | expanded | regenerated | unchanged (see crdtool.yaml.edit)
          "outputLine": int,      # line of the document in the converted text
          "notes": [{"kind": str, "path": str, "change": str, "reason": str,
                     "line": int,         # line in the input (sorted by it)
                     "outputLine": int}]  # line in the converted text
        }],
        "errors": [{"file", "line", "column", "message", "index"}]
      }]
    }

Exit status: 2 for usage errors (conflicting options) and when any input cannot
be loaded or any file cannot be written; else 1 when ``--check`` finds a change
or any document has a "manual" note (the converted result is still printed or
written: the author must fix what the notes name); else 0.

Anchors and merge keys: a converted document keeps them when the edits leave
every alias meaning what the conversion wants (tekton's ``- <<: *version``);
otherwise the aliases and merge keys of that document are expanded (see
:mod:`crdtool.yaml.edit`). A document whose layout could not be kept at all
is regenerated and a "warning" note says so.
"""

from __future__ import annotations

import bisect
import difflib
import json
import re
import sys
from dataclasses import dataclass, field
from typing import Any, BinaryIO

from crdtool.cli.inputs import STDIN_NAME
from crdtool.yaml.loader import Document, InputError, load_documents
from crdtool.cli.report import OutputFormat, console

V1 = "apiextensions.k8s.io/v1"
V1BETA1 = "apiextensions.k8s.io/v1beta1"
_CRD_VERSIONS = (V1, V1BETA1)

_BOMS = (
    (b"\xff\xfe\x00\x00", "utf-32-le"),
    (b"\x00\x00\xfe\xff", "utf-32-be"),
    (b"\xef\xbb\xbf", "utf-8"),
    (b"\xff\xfe", "utf-16-le"),
    (b"\xfe\xff", "utf-16-be"),
)
_KIND_STYLE = {"converted": "", "made-valid": "cyan", "fixed": "green", "manual": "bold red", "warning": "yellow"}


# --------------------------------------------------------------------------
# Results


@dataclass
class DocumentResult:
    """One converted CRD document of a file."""

    index: int
    line: int
    name: str | None
    source: str
    target: str
    changed: bool
    layout: str
    notes: list[tuple[Any, int]] = field(default_factory=list)  # (Note, line in the input), sorted by line
    note_out_lines: list[int] = field(default_factory=list)  # each note's line in the converted text
    out_line: int = 0  # line of the document in the converted text

    @property
    def manual(self) -> bool:
        return any(note.kind == "manual" for note, _ in self.notes)

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "line": self.line,
            "name": self.name,
            "from": self.source,
            "to": self.target,
            "changed": self.changed,
            "layout": self.layout,
            "outputLine": self.out_line,
            "notes": [
                {"kind": n.kind, "path": str(n.path), "change": n.change, "reason": n.reason, "line": line,
                 "outputLine": out}
                for (n, line), out in zip(self.notes, self.note_out_lines or [line for _, line in self.notes])
            ],
        }


@dataclass
class FileResult:
    """One input file: its text before and after, the converted documents, the errors."""

    file: str
    original: str
    output: str
    documents: list[DocumentResult] = field(default_factory=list)
    errors: list[InputError] = field(default_factory=list)
    codec: str = "utf-8"
    bom: bool = False
    written: bool = False

    @property
    def changed(self) -> bool:
        return self.output != self.original

    def to_dict(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "changed": self.changed,
            "written": self.written,
            "documents": [d.to_dict() for d in self.documents],
            "errors": [e.to_dict() for e in self.errors],
        }


# --------------------------------------------------------------------------
# Entry point


def run(
    paths: list[str],
    to: str,
    *,
    output_file: str | None = None,
    in_place: bool = False,
    check: bool = False,
    diff: bool = False,
    fix: bool = False,
    output: Any = OutputFormat.text,
    stdin: BinaryIO | None = None,
) -> int:
    """Convert every CRD document of ``paths`` to ``to`` (``v1``/``v1beta1``); see the module docstring.

    Returns the exit status: 0 ok, 1 changes under ``--check`` or manual fixes
    needed, 2 usage or input/write errors. Never raises for bad input.
    """
    err = console(stderr=True)
    target = to if "/" in to else f"apiextensions.k8s.io/{to}"
    if output_file == "-":
        output_file = None
    usage = _usage_error(paths, target, output_file, in_place, check, diff, output)
    if usage:
        err.print(f"crdtool: {usage}", markup=False)
        return 2

    inputs = _read_inputs(paths, stdin)
    if not inputs:
        from crdtool.cli.selection import no_input_message

        err.print(f"crdtool: {no_input_message(paths)}", markup=False)
        return 2
    results = [_process(file, raw, target, fix) for file, raw in inputs]

    write_failed = False
    if in_place:
        write_failed = _write_in_place(results, err)
    elif not check or diff:
        stream = _diff_stream(results) if diff else _join([r.output for r in results])
        write_failed = _emit(stream, output_file, results, err)

    from crdtool.cli.reporters import CheckRun, report

    report(
        CheckRun(
            command="upgrade-manifest",
            cases=_cases(results, check),
            render_text=lambda: _text_report(results, check, err),
            json_payload=lambda: _json_report(results),
            summary=_summary(results, check),
            rules=RULES,
        ),
        _output_name(output),
    )

    input_errors = any(r.errors for r in results)
    if input_errors or write_failed:
        return 2
    if check and any(r.changed for r in results):
        return 1
    if any(d.manual for r in results for d in r.documents):
        return 1
    return 0


def _usage_error(
    paths: list[str], target: str, output_file: str | None, in_place: bool, check: bool, diff: bool, output: Any
) -> str | None:
    if target not in _CRD_VERSIONS:
        return f"--to must be v1 or v1beta1, not {target.rsplit('/', 1)[-1]!r}"
    if in_place and output_file is not None:
        return "--in-place and --output-file cannot be used together"
    if in_place and "-" in paths:
        return "--in-place cannot rewrite stdin (-); use -o FILE or stdout"
    if check and (in_place or output_file is not None):
        return "--check writes nothing; it cannot be combined with --in-place or --output-file"
    if in_place and diff:
        return "--diff prints a diff instead of writing; it cannot be combined with --in-place"
    name = _output_name(output)
    if name != "text" and not (check or in_place or output_file):
        return (f"--output {name} prints the report on stdout, where the manifests go; use it with --check, "
                "--in-place or -o FILE")
    if name != "text" and diff and not output_file:
        return f"--output {name} and --diff both print on stdout; send the diff to a file with -o FILE"
    return None


def _output_name(output: Any) -> str:
    """The reporter name of ``output`` (an enum member or a plain string)."""
    return str(getattr(output, "value", output))


#: Reporter rules of upgrade-manifest's findings (github, sarif, junit).
RULES = {
    "WouldChange": "The CRD is not at the target apiextensions.k8s.io version: upgrade-manifest would convert it.",
    "ManualFix": "The converted CRD still fails the apiserver's validation: fix what the note names.",
    "UpgradeWarning": "Something the conversion changed or could not keep that deserves a look.",
}


def _summary(results: list[FileResult], check: bool) -> str:
    changed = sum(r.changed for r in results)
    documents = sum(len(r.documents) for r in results)
    manual = sum(d.manual for r in results for d in r.documents)
    errors = sum(len(r.errors) for r in results)
    verb = "would change" if check else "changed"
    return (f"{changed} of {len(results)} files {verb}, {documents} CRDs converted, {manual} need manual fixes, "
            f"{errors} input errors")


def _cases(results: list[FileResult], check: bool) -> list[Any]:
    """One reporter case per converted CRD (and per unreadable input, and per file with nothing to convert)."""
    from crdtool.cli.reporters import Case, Finding

    cases = []
    for r in results:
        for e in r.errors:
            finding = Finding("InputError", "error", str(e), r.file, e.line or None, e.column or None)
            cases.append(Case(f"input error (line {e.line})" if e.line else "input error", r.file, e.line or None,
                              "error", (finding,)))
        for d in r.documents:
            name = f"{d.name or 'CustomResourceDefinition'} ({d.source} -> {d.target})"
            findings = []
            if check and d.changed:
                findings.append(Finding("WouldChange", "error", f"{d.name or 'CustomResourceDefinition'}: would convert "
                                        f"{d.source} -> {d.target} (crdtool upgrade-manifest --to "
                                        f"{d.target.rsplit('/', 1)[-1]} --in-place converts it)", r.file, d.line))
            for note, line in d.notes:
                if note.kind == "manual":
                    findings.append(Finding("ManualFix", "error", _note_text(note), r.file, line, field=str(note.path) or None))
                elif note.kind == "warning":
                    findings.append(Finding("UpgradeWarning", "warning", _note_text(note), r.file, line,
                                            field=str(note.path) or None))
            failed = any(f.level == "error" for f in findings)
            cases.append(Case(name, r.file, d.line, "failed" if failed else "passed", tuple(findings)))
        if not r.errors and not r.documents:
            cases.append(Case("nothing to convert", r.file, None, "passed"))
    return cases


# --------------------------------------------------------------------------
# Reading


def _read_inputs(paths: list[str], stdin: BinaryIO | None) -> list[tuple[str, bytes | InputError]]:
    from crdtool.cli.inputs import expand_path
    from crdtool.yaml.loader import MAX_INPUT_BYTES, read_path

    out: list[tuple[str, bytes | InputError]] = []
    for arg in paths:
        if arg == "-":
            stream = stdin if stdin is not None else sys.stdin.buffer
            try:
                out.append((STDIN_NAME, _read_limited(stream.read(MAX_INPUT_BYTES + 1), STDIN_NAME, MAX_INPUT_BYTES)))
            except (OSError, ValueError) as exc:
                out.append((STDIN_NAME, InputError(STDIN_NAME, 0, 0, f"cannot read stdin: {exc}")))
            continue
        for item in expand_path(arg):
            if isinstance(item, InputError):
                out.append((item.file, item))
                continue
            try:
                out.append((item, _read_limited(read_path(item, MAX_INPUT_BYTES + 1), item, MAX_INPUT_BYTES)))
            except OSError as exc:
                out.append((item, InputError(item, 0, 0, (exc.strerror or str(exc)).lower())))
    return out


def _read_limited(raw: Any, file: str, limit: int) -> bytes | InputError:
    if isinstance(raw, str):
        raw = raw.encode("utf-8", "surrogateescape")
    if len(raw) > limit:
        return InputError(file, 0, 0, f"file is larger than {limit} bytes; refusing to load it")
    return bytes(raw)


def _decode(raw: bytes, file: str) -> tuple[str, str, bool] | InputError:
    """``(text, codec, had_bom)``: UTF-8, or UTF-16/32 with a byte-order mark."""
    codec, bom = "utf-8", b""
    for mark, name in _BOMS:
        if raw.startswith(mark):
            codec, bom = name, mark
            break
    try:
        return raw[len(bom):].decode(codec), codec, bool(bom)
    except UnicodeDecodeError as exc:
        line = raw[len(bom):exc.start].count(b"\n") + 1 if codec == "utf-8" else 0
        return InputError(file, line, 0, f"invalid {codec.upper()}: {exc.reason}")


# --------------------------------------------------------------------------
# Converting one file


def _process(file: str, raw: bytes | InputError, target: str, fix: bool) -> FileResult:
    if isinstance(raw, InputError):
        return FileResult(file, "", "", errors=[raw])
    decoded = _decode(raw, file)
    if isinstance(decoded, InputError):
        return FileResult(file, "", "", errors=[decoded])
    original, codec, bom = decoded
    crlf = "\r\n" in original and "\n" not in original.replace("\r\n", "")
    text = original.replace("\r\n", "\n") if crlf else original
    result = FileResult(file, original, original, codec=codec, bom=bom)
    from crdtool.cli.selection import helm_hint

    items = [helm_hint(i, text) if isinstance(i, InputError) else i for i in load_documents(text, file)]
    result.errors = [e for e in items if isinstance(e, InputError)]
    if text.lstrip(" \t\r\n\f\v").startswith("{") and sum(isinstance(d, Document) for d in items) > 1:
        converted = _convert_json_stream(text, items, target, fix, result)
    else:
        converted = _convert_yaml_stream(text, items, target, fix, result)
    result.output = converted.replace("\n", "\r\n") if crlf else converted
    return result


def _convert_yaml_stream(
    text: str, items: list[Document | InputError], target: str, fix: bool, result: FileResult
) -> str:
    from crdtool.yaml import edit as yamledit

    spans = yamledit.split_documents(text)
    starts = [s.line for s in spans]
    by_span: dict[int, list[Document | InputError]] = {}
    for item in items:
        line = item.line if item.line > 0 else 1
        by_span.setdefault(_span_of(starts, line), []).append(item)
    out: list[str] = []
    out_line = 1
    for span in spans:
        chunk = text[span.start:span.end]
        members = by_span.get(span.index, [])
        docs = [m for m in members if isinstance(m, Document)]
        if docs and not any(isinstance(m, InputError) for m in members):
            chunk = _convert_document(chunk, docs[0], span.line, out_line, target, fix, result)
        out.append(chunk)
        out_line += chunk.count("\n")
    return "".join(out)


def _span_of(starts: list[int], line: int) -> int:
    return max(0, bisect.bisect_right(starts, line) - 1)


def _convert_document(
    chunk: str, doc: Document, chunk_line: int, out_line: int, target: str, fix: bool, result: FileResult
) -> str:
    """The chunk's new text; records the document's result (with notes) in ``result``."""
    from crdtool.yaml import edit as yamledit
    from crdtool.core.crd.upgrade import upgrade_crd

    data = doc.data
    source = data.get("apiVersion")
    if data.get("kind") != "CustomResourceDefinition" or source not in _CRD_VERSIONS or source == target:
        return chunk
    new, notes = upgrade_crd(data, target, fix=fix)
    try:
        rewrite = yamledit.rewrite_document(chunk, data, new)
    except yamledit.YamlSyntaxError as exc:  # libyaml refusing what the loader read: report, keep the text
        line = chunk_line + exc.line - 1 if exc.line else doc.line
        result.errors.append(InputError(result.file, line, exc.column, exc.message, doc.index))
        return chunk
    doc_result = DocumentResult(
        index=doc.index,
        line=doc.line,
        name=_name(data),
        source=str(source),
        target=target,
        changed=rewrite.text != chunk,
        layout=rewrite.method,
        out_line=out_line + doc.line - chunk_line,
    )
    notes = list(notes)
    for path in doc.duplicate_keys:
        notes.append(_note(path, "", "duplicate key: the later value wins, as in kubectl; remove the other", "warning"))
    if rewrite.method == "regenerated":
        notes.append(_note("", "written afresh", "the document's comments and layout could not be kept", "warning"))
    positioned = rewrite.document if rewrite.document is not None else doc
    shift = out_line - 1 if rewrite.document is not None else out_line - chunk_line
    placed = []
    for note in notes:
        pos = positioned.position(str(note.path)) if note.path else None
        placed.append((input_line(doc, note), note, (pos[0] if pos else positioned.line) + shift))
    placed.sort(key=lambda entry: entry[0])  # stable: notes of one line keep upgrade_crd's order
    doc_result.notes = [(note, line) for line, note, _ in placed]
    doc_result.note_out_lines = [out for _, _, out in placed]
    result.documents.append(doc_result)
    return rewrite.text


_SOURCE_RE = re.compile(r"\b(?:copied|moved) from (spec[^\s,*]*(?:\[\*\][^\s,]*)?)")


def input_line(doc: Document, note: Any) -> int:
    """The line of the input document a note is about.

    The note's path is a path of the *converted* manifest. A value copied or
    moved (``"copied from spec.validation"``) is shown where it came from;
    a path the input has (a removed field) where it is; a field the
    conversion adds at its nearest ancestor the input has.
    """
    match = _SOURCE_RE.search(note.change or "")
    path = match.group(1).replace("[*]", "[0]") if match else _input_path(doc.data, str(note.path))
    if not path:
        return doc.line
    pos = doc.position(path)
    return pos[0] if pos else doc.line


# Per-version fields of v1 and the top-level fields v1beta1 may hold them in (v1beta1 -> v1 copies
# them down, v1 -> v1beta1 hoists identical ones up).
_PER_VERSION = (("schema", "validation"), ("subresources", "subresources"),
                ("additionalPrinterColumns", "additionalPrinterColumns"))
_VERSION_FIELD_RE = re.compile(r"spec\.versions\[(\d+)\]\.(schema|subresources|additionalPrinterColumns)(?=$|[.\[])")
_TOP_FIELD_RE = re.compile(r"spec\.(validation|subresources|additionalPrinterColumns)(?=$|[.\[])")


def _input_path(data: dict[str, Any], path: str) -> str:
    """``path`` of the converted manifest as the input spells it, where a per-version field moved."""
    from crdtool.yaml.positions import _lookup

    if not path or _lookup(data, path) is not None:
        return path
    m = _VERSION_FIELD_RE.match(path)
    if m:
        top = dict(_PER_VERSION)[m.group(2)]
        if _lookup(data, f"spec.{top}") is not None:
            return f"spec.{top}{path[m.end():]}"
    m = _TOP_FIELD_RE.match(path)
    if m:
        per_version = {t: v for v, t in _PER_VERSION}[m.group(1)]
        if _lookup(data, f"spec.versions[0].{per_version}") is not None:
            return f"spec.versions[0].{per_version}{path[m.end():]}"
    return path


def _convert_json_stream(
    text: str, items: list[Document | InputError], target: str, fix: bool, result: FileResult
) -> str:
    """A stream of several JSON objects: converted objects are re-serialised, each on its own."""
    from crdtool.yaml import edit as yamledit
    from crdtool.core.crd.upgrade import upgrade_crd

    indent_match = re.search(r"\n( +)\S", text)
    indent = len(indent_match.group(1)) if indent_match else None
    if result.errors:
        return text
    parts: list[str] = []
    changed = False
    for doc in items:
        assert isinstance(doc, Document)
        data = doc.data
        source = data.get("apiVersion")
        value = data
        if data.get("kind") == "CustomResourceDefinition" and source in _CRD_VERSIONS and source != target:
            new, notes = upgrade_crd(data, target, fix=fix)
            value = yamledit.order_like(data, new)
            changed = changed or not yamledit.same(data, new)
            doc_result = DocumentResult(doc.index, doc.line, _name(data), str(source), target,
                                        not yamledit.same(data, new), "regenerated")
            doc_result.notes = sorted(((n, input_line(doc, n)) for n in notes), key=lambda entry: entry[1])
            result.documents.append(doc_result)
        parts.append(json.dumps(value, indent=indent, ensure_ascii=False))
    if not changed:
        return text
    return "\n".join(parts) + "\n"


def _name(data: dict[str, Any]) -> str | None:
    meta = data.get("metadata")
    name = meta.get("name") if isinstance(meta, dict) else None
    return name if isinstance(name, str) else None


def _note(path: str, change: str, reason: str, kind: str) -> Any:
    from crdtool.core.crd.upgrade import Note

    return Note(path=path, change=change, reason=reason, kind=kind)


# --------------------------------------------------------------------------
# Writing


def _join(texts: list[str]) -> str:
    """Files' texts as one YAML stream: a ``---`` line between files that lack one."""
    out: list[str] = []
    for text in texts:
        if not text:
            continue
        if out:
            if not out[-1].endswith("\n"):
                out.append("\n")
            if not text.startswith("---"):
                out.append("---\n")
        out.append(text)
    return "".join(out)


def _diff_stream(results: list[FileResult]) -> str:
    out: list[str] = []
    for r in results:
        if r.changed:
            out.append(unified_diff(r.original, r.output, r.file))
    return "".join(out)


def unified_diff(before: str, after: str, name: str) -> str:
    """A unified diff of two texts, with git's marker for a missing final newline."""
    lines = difflib.unified_diff(before.splitlines(keepends=True), after.splitlines(keepends=True), name, name)
    out: list[str] = []
    for line in lines:
        if line.endswith("\n"):
            out.append(line)
        else:
            out.append(line + "\n\\ No newline at end of file\n")
    return "".join(out)


def _emit(stream: str, output_file: str | None, results: list[FileResult], err: Any) -> bool:
    """Write the stream to stdout or ``output_file``; True when writing failed."""
    if output_file is None:
        sys.stdout.flush()
        buffer = getattr(sys.stdout, "buffer", None)
        if buffer is not None:
            buffer.write(stream.encode("utf-8", "surrogateescape"))
            buffer.flush()
        else:  # pragma: no cover - a replaced text-only stdout
            sys.stdout.write(stream)
        return False
    if any(r.errors for r in results):
        err.print(f"crdtool: {output_file}: not written because of the input errors below", markup=False)
        return False
    from crdtool.cli.atomic import atomic_write_text

    try:
        atomic_write_text(output_file, stream)
    except OSError as exc:
        err.print(f"crdtool: {output_file}: cannot write: {exc.strerror or exc}", markup=False)
        return True
    for r in results:
        r.written = True
    return False


def _write_in_place(results: list[FileResult], err: Any) -> bool:
    """Replace each changed file atomically; True when any write failed."""
    from crdtool.cli.atomic import atomic_write_text

    failed = False
    for r in results:
        if r.errors or not r.changed:
            continue
        text = ("\ufeff" if r.bom else "") + r.output
        try:
            atomic_write_text(r.file, text, encoding=r.codec)
        except OSError as exc:
            err.print(f"crdtool: {r.file}: cannot write: {exc.strerror or exc}; the file is unchanged", markup=False)
            failed = True
            continue
        r.written = True
    return failed


# --------------------------------------------------------------------------
# Reports


def _json_report(results: list[FileResult]) -> dict[str, Any]:
    documents = [d for r in results for d in r.documents]
    return {
        "changed": any(r.changed for r in results),
        "manual": any(d.manual for d in documents),
        "summary": {
            "files": len(results),
            "changedFiles": sum(r.changed for r in results),
            "documents": len(documents),
            "manual": sum(d.manual for d in documents),
            "errors": sum(len(r.errors) for r in results),
        },
        "files": [r.to_dict() for r in results],
    }


def _text_report(results: list[FileResult], check: bool, err: Any) -> None:
    from crdtool.cli.markup import escape

    for r in results:
        for e in r.errors:
            err.print(f"[bold magenta]{escape(str(e))}[/]")
        for d in r.documents:
            verb = "would convert" if check else "converted"
            if not d.changed:
                verb = "cannot convert"
            what = escape(d.name) if d.name else "CustomResourceDefinition"
            err.print(f"[bold]{escape(r.file)}:{d.line}[/]: {what}: {verb} {escape(d.source)} -> {escape(d.target)}")
            for note, line in d.notes:
                style = _KIND_STYLE.get(note.kind, "")
                body = _note_text(note)
                tag = f"[{style}]{escape(note.kind)}[/]" if style else escape(note.kind)
                err.print(f"{escape(r.file)}:{line}: {tag}: {escape(body)}")
    changed = [r for r in results if r.changed]
    documents = sum(len(r.documents) for r in results)
    manual = sum(d.manual for r in results for d in r.documents)
    errors = sum(len(r.errors) for r in results)
    verb = "would change" if check else "changed"
    summary = f"{len(changed)} of {len(results)} files {verb}, {documents} CRDs converted"
    if manual:
        summary += f", [bold red]{manual} need manual fixes[/]"
    if errors:
        summary += f", [bold magenta]{errors} input errors[/]"
    err.print(summary)


def _note_text(note: Any) -> str:
    path = str(note.path)
    if note.kind == "manual" or not note.change:
        body = f"{path}: {note.reason}" if path else note.reason
        return body
    body = f"{path}: {note.change}" if path else note.change
    return f"{body} ({note.reason})" if note.reason else body
