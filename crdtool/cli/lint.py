"""``crdtool lint``: what the apiserver does not reject but will hurt, and the CEL cost budget explained.

Loads the inputs as ``validate`` does (files, directories, ``-``; ``--exclude``; Helm templates
explained), lints every CRD document (and the CRD items of a ``v1`` ``List``) with
:func:`crdtool.core.lint.lint_crd`, places each finding at ``file:line:column`` of its manifest path,
and renders through the reporters (text, json, github, sarif, junit). Admission policy documents
(ValidatingAdmissionPolicy, MutatingAdmissionPolicy and their bindings) are linted against the whole run's
documents as one bundle (:func:`crdtool.core.lint.policies.lint_policies`: ``POL0xx`` costs, ``POL1xx``
references). ``--fix`` writes the bounds
that bring over- and near-limit CEL costs under their limits with the comment-preserving editor
(:mod:`crdtool.yaml.edit`, as ``upgrade-manifest`` rewrites documents); ``--diff`` prints what it
would write. ``--explain-cost`` adds every rule's cost; ``validate --explain-cost`` reuses
:func:`explain_cost_run`.

``--output json`` prints::

    {"summary": {"documents", "crds", "policies", "skipped", "inputErrors", "findings", "error", "warning", "info"},
     "documents": [{"file", "index", "line", "apiVersion", "kind", "name", "status",
                    "findings": [{"code", "name", "severity", "message", "path", "line", "column",
                                  "versions", "details", "fixes"}],
                    "suppressed": [{"code", "line", "by"}],   # silenced by "# crdtool: ignore[...]" at line "by"
                    "cost": [<CostBreakdown.to_dict() per Kubernetes release>]}]}

``status`` is ``linted``, ``skipped`` (neither a CRD nor a policy document) or ``error`` (unreadable input).
"""

from __future__ import annotations

import difflib
import sys
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from crdtool.cli.report import console
from crdtool.core.crd.manifest import is_crd
from crdtool.core.lint.checks import LintFinding, lint_crd
from crdtool.core.lint.codes import CODES, SEVERITIES, select_codes
from crdtool.core.lint.cost import CRD_LIMIT, RULE_LIMIT, CostBreakdown, FixOption, cost_breakdown, plan_cost_fixes
from crdtool.yaml.loader import Document, InputError

__all__ = ["LintedDocument", "explain_cost_run", "run"]

_LEVEL = {"error": "error", "warning": "warning", "info": "note"}
_STYLE = {"error": "bold red", "warning": "yellow", "info": "cyan"}


@dataclass
class LintedDocument:
    """One input document's lint result, in the JSON shape above."""

    file: str
    index: int
    line: int
    api_version: str | None
    kind: str | None
    name: str | None
    status: str  # linted | skipped | error
    findings: list[dict[str, Any]] = field(default_factory=list)
    costs: list[tuple[str, CostBreakdown, Document]] = field(default_factory=list)  # (items[i]. prefix, breakdown, doc)
    note: str | None = None
    suppressed: list[dict[str, Any]] = field(default_factory=list)  # {"code", "line", "by"}: silenced by a comment

    def to_dict(self) -> dict[str, Any]:
        return {"file": self.file, "index": self.index, "line": self.line, "apiVersion": self.api_version,
                "kind": self.kind, "name": self.name, "status": self.status, "findings": self.findings,
                "suppressed": self.suppressed,
                "cost": [_positioned_cost(prefix, b, doc) for prefix, b, doc in self.costs]}


def _identity(data: Any) -> tuple[str | None, str | None, str | None]:
    data = data if isinstance(data, dict) else {}
    meta = data.get("metadata") if isinstance(data.get("metadata"), dict) else {}
    def text(v: Any) -> str | None:
        return v if isinstance(v, str) else None
    return text(data.get("apiVersion")), text(data.get("kind")), text(meta.get("name"))


def _crds_of(data: Any) -> list[tuple[str, dict[str, Any]]]:
    """``(path prefix, CRD)`` for a CRD document, or for each CRD item of a ``v1`` ``List``."""
    if is_crd(data):
        return [("", data)]
    if (isinstance(data, dict) and data.get("kind") == "List" and data.get("apiVersion") == "v1"
            and isinstance(data.get("items"), list)):
        return [(f"items[{i}].", item) for i, item in enumerate(data["items"]) if is_crd(item)]
    return []


def _where(doc: Document, path: str) -> tuple[int | None, int | None]:
    pos = doc.position(path) if path else (doc.line, doc.column)
    return pos if pos else (None, None)


def _fix_entry(option: FixOption, prefix: str, doc: Document) -> dict[str, Any]:
    out = option.to_dict()
    for bound, entry in zip(option.bounds, out["bounds"]):
        entry["path"] = prefix + entry["path"]
        entry["paths"] = [prefix + p for p in entry["paths"]]
        entry["line"], entry["column"] = _where(doc, prefix + bound.paths[0])
    return out


def _finding_entry(f: LintFinding, prefix: str, doc: Document) -> dict[str, Any]:
    entry = f.to_dict()
    entry["path"] = prefix + f.path
    entry["line"], entry["column"] = _where(doc, prefix + f.path)
    entry["fixes"] = [_fix_entry(o, prefix, doc) for o in f.fixes]
    return entry


def _positioned_cost(prefix: str, breakdown: CostBreakdown, doc: Document) -> dict[str, Any]:
    out = breakdown.to_dict()
    for schema in out["schemas"]:
        schema["path"] = prefix + schema["path"]
        schema["paths"] = [prefix + p for p in schema["paths"]]
        for e in schema["expressions"]:
            e["path"] = prefix + e["path"]
            e["line"], e["column"] = _where(doc, e["path"])
            for d in e["drivers"]:
                d["path"] = prefix + d["path"]
    return out


def lint_document(
    doc: Document,
    select: Sequence[str] | None,
    ignore: Sequence[str],
    kubernetes_versions: Sequence[str | None] = (None,),
) -> LintedDocument:
    """Lint one loaded document (a CRD, or the CRD items of a ``List``); anything else is skipped."""
    api_version, kind, name = _identity(doc.data)
    result = LintedDocument(doc.file, doc.index, doc.line, api_version, kind, name, "skipped")
    crds = _crds_of(doc.data)
    if not crds:
        result.note = "not a CustomResourceDefinition"
        return result
    result.status = "linted"
    found: list[tuple[LintFinding, str]] = []
    for prefix, crd in crds:
        for release in kubernetes_versions:
            report = lint_crd(crd, select=select, ignore=ignore, kubernetes_version=release)
            result.costs.append((prefix, report.cost, doc))
            if release == kubernetes_versions[0]:
                found.extend((f, prefix) for f in report.findings)
    doc.prefetch_positions(prefix + p for f, prefix in found for p in (f.path, *(b.paths[0] for o in f.fixes
                                                                                   for b in o.bounds)))
    result.findings = [_finding_entry(f, prefix, doc) for f, prefix in found]
    _apply_suppressions(result, doc, select_codes(select, ignore))
    result.findings.sort(key=lambda e: (e["line"] or 0, e["column"] or 0, e["code"]))
    return result


def _apply_suppressions(result: LintedDocument, doc: Document, selected: frozenset[str]) -> None:
    """Drop the findings a ``# crdtool: ignore[...]`` comment silences (:mod:`crdtool.yaml.suppressions`) and,
    with CRD901 selected, report the comments that silenced nothing: a code that ran and was not found
    where the comment points, a code that does not exist, a bare ``ignore`` with nothing to silence."""
    from crdtool.yaml.suppressions import find_suppressions

    source = doc.source_text()
    if source is None or "crdtool" not in source[0]:
        return
    sups = find_suppressions(source[0], source[1], doc.line)
    if not sups:
        return
    used: set[tuple[int, str]] = set()
    kept = []
    for entry in result.findings:
        hits = [k for k, s in enumerate(sups) if s.silences(entry["code"], entry["line"])]
        if not hits:
            kept.append(entry)
            continue
        used.update((k, entry["code"]) for k in hits)
        result.suppressed.append({"code": entry["code"], "line": entry["line"], "by": sups[hits[0]].line})
    result.findings = kept
    if "CRD901" not in selected:
        return
    for k, s in enumerate(sups):
        where = "this document" if s.covers is None else f"line {s.covers}"
        if not s.codes:
            if not any(u[0] == k for u in used):
                kept.append(_unused(s, f"unused suppression: no finding on {where} to ignore"))
            continue
        for code in s.codes:
            if code not in CODES:
                kept.append(_unused(s, f"unused suppression: {code} is not a lint code (codes: CRD001 … CRD901, POL001 … POL103)"))
            elif code in selected and (k, code) not in used:
                kept.append(_unused(s, f"unused suppression: no {code} finding on {where} to ignore"))


def _unused(s: Any, message: str) -> dict[str, Any]:
    code = CODES["CRD901"]
    return {"code": code.code, "name": code.name, "severity": code.severity, "message": message, "path": "",
            "line": s.line, "column": s.column, "versions": [], "details": [], "fixes": []}


def lint_policy_documents(loaded: list[tuple[int, Document]], results: list[LintedDocument],
                          select: Sequence[str] | None, ignore: Sequence[str],
                          file_ignores: Mapping[str, Sequence[str]], kubernetes_version: str | None) -> None:
    """Lint the run's policy documents as one bundle with every document read (``loaded``: (index in ``results``,
    document)); each policy document's result becomes ``linted`` with its findings placed and suppressions applied."""
    from crdtool.core.lint.policies import is_policy_document, lint_policies

    if not any(is_policy_document(doc.data) for _, doc in loaded):
        return
    found = lint_policies([doc.data for _, doc in loaded], select=select, ignore=ignore,
                          kubernetes_version=kubernetes_version)
    by_doc: dict[int, list[Any]] = {}
    for f in found:
        by_doc.setdefault(f.index, []).append(f)
    for k, (slot, doc) in enumerate(loaded):
        if not is_policy_document(doc.data):
            continue
        result = results[slot]
        result.status, result.note = "linted", None
        extra = set(file_ignores.get(doc.file, ()))
        selected = select_codes(select, [*ignore, *extra])
        mine = [f for f in by_doc.get(k, []) if f.code in selected]
        doc.prefetch_positions(f.path for f in mine)
        result.findings = []
        for f in mine:
            line, column = _where(doc, f.path)
            result.findings.append({"code": f.code, "name": CODES[f.code].name, "severity": f.severity,
                                    "message": f.message, "path": f.path, "line": line, "column": column,
                                    "versions": [], "details": list(f.details), "fixes": []})
        _apply_suppressions(result, doc, selected)
        result.findings.sort(key=lambda e: (e["line"] or 0, e["column"] or 0, e["code"]))


def _input_error_result(err: InputError) -> LintedDocument:
    message = f"{err.file}:{err.line}:{err.column}: {err.message}" if err.line else f"{err.file}: {err.message}"
    return LintedDocument(err.file, err.index if err.index is not None else 0, err.line or 0, None, None, None,
                          "error", note=message)


# --- --fix and --diff -----------------------------------------------------------------------------


def _fixed_data(data: Any, kubernetes_version: str | None) -> tuple[Any, list[tuple[str, FixOption]]]:
    """``data`` with the cost fixes of its CRDs applied, and the options applied (with their path prefix)."""
    crds = _crds_of(data)
    if not crds:
        return data, []
    applied: list[tuple[str, FixOption]] = []
    if crds[0][0] == "":
        new, options = plan_cost_fixes(data, kubernetes_version=kubernetes_version)
        return (new if options else data), [("", o) for o in options]
    items = list(data["items"])
    for prefix, crd in crds:
        new, options = plan_cost_fixes(crd, kubernetes_version=kubernetes_version)
        if options:
            items[int(prefix[len("items["):-2])] = new
            applied.extend((prefix, o) for o in options)
    return ({**data, "items": items} if applied else data), applied


@dataclass
class _FileFix:
    file: str
    original: str
    text: str
    notes: list[str] = field(default_factory=list)
    error: str | None = None


def _is_json(text: str) -> bool:
    import json

    try:
        json.loads(text)
    except ValueError:
        return False
    return True


def _fix_file(file: str, docs: list[Document], kubernetes_version: str | None) -> _FileFix | None:
    """The file's text with its CRDs' cost fixes; None when nothing changes."""
    from crdtool.core.gojson import go_json_dumps
    from crdtool.yaml import edit as yamledit

    plans = [(doc, *_fixed_data(doc.data, kubernetes_version)) for doc in docs]
    if not any(applied for _, _, applied in plans):
        return None
    try:
        with open(file, "rb") as fh:
            raw = fh.read()
        original = raw.decode("utf-8-sig" if raw.startswith(b"\xef\xbb\xbf") else "utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        return _FileFix(file, "", "", error=f"{file}: cannot rewrite: {exc}")
    bom = "\ufeff" if raw.startswith(b"\xef\xbb\xbf") else ""
    crlf = "\r\n" in original and "\n" not in original.replace("\r\n", "")
    text = original.replace("\r\n", "\n") if crlf else original
    result = _FileFix(file, bom + original, "")
    for doc, _, applied in plans:
        for prefix, option in applied:
            for b in option.bounds:
                line, _ = _where(doc, prefix + b.paths[0])
                more = f" (and {len(b.paths) - 1} more version{'s' if len(b.paths) > 2 else ''})" if len(b.paths) > 1 else ""
                result.notes.append(f"{file}:{line or doc.line}: fixed: {b.keyword}: {b.value} on "
                                    f"{prefix}{b.paths[0]}{more}")
    if _is_json(text) and len(docs) == 1:
        # a JSON file stays JSON: the editor patches it in place (JSON is YAML's flow style), else it is re-dumped
        doc, new, _ = plans[0]
        try:
            new_text = yamledit.rewrite_document(text, doc.data, new).text
        except (yamledit.YamlSyntaxError, yamledit.RewriteError):
            new_text = ""
        if not _is_json(new_text):
            new_text = go_json_dumps(new, indent=2) + "\n"
    else:
        # YAML, block or flow style ({apiVersion: v1, ...}): only the changed scalars and the new keys change
        spans = yamledit.split_documents(text)
        starts = [s.line for s in spans]
        parts: list[str] = []
        for span in spans:
            chunk = text[span.start:span.end]
            end = starts[span.index + 1] if span.index + 1 < len(starts) else None
            owned = [p for p in plans if p[0].line >= span.line and (end is None or p[0].line < end)]
            if len(owned) == 1 and owned[0][2]:
                doc, new, _ = owned[0]
                try:
                    chunk = yamledit.rewrite_document(chunk, doc.data, new).text
                except (yamledit.YamlSyntaxError, yamledit.RewriteError) as exc:
                    return _FileFix(file, "", "", error=f"{file}:{doc.line}: cannot rewrite: {exc}")
            parts.append(chunk)
        new_text = "".join(parts)
    result.text = bom + (new_text.replace("\n", "\r\n") if crlf else new_text)
    return result


# --- rendering ------------------------------------------------------------------------------------


def _loc(file: str, line: int | None, column: int | None = None) -> str:
    if not line:
        return file
    return f"{file}:{line}:{column}" if column else f"{file}:{line}"


def _pct(cost: int, limit: int) -> str:
    share = 100 * cost / limit
    return f"{share:.0f}%" if share >= 1 or share == 0 else f"{share:.2g}%"


def _render_fix(out: Any, file: str, option: Mapping[str, Any], n: int, count: int) -> None:
    from crdtool.cli.markup import escape

    label = "fix" if count == 1 else f"fix {n}"
    bounds = option["bounds"]
    head = "the largest common value" if len(bounds) > 1 else "the largest value"
    if option.get("target") == "limit":
        why = "that brings the cost under the limit; no bound leaves the 10% headroom, so it stays near it"
    else:
        why = "that keeps the cost under 90% of the limit, so neither over nor near it"
    out.print(f"      [green]{label}[/green] ({head} {why}; estimated cost then {option['costAfter']:,}):")
    for b in bounds:
        extra = len(b["paths"]) - 1
        more = f" (and in {extra} more version{'s' if extra > 1 else ''})" if extra else ""
        declare = " (declares the field)" if b["declare"] else ""
        out.print(f"        {escape(_loc(file, b['line']))}: {b['keyword']}: {b['value']}  "
                  f"{escape(b['path'])}{more}{declare}")


def render_cost(out: Any, file: str, costs: list[dict[str, Any]]) -> None:
    """Print every expression's cost of one CRD (``--explain-cost``)."""
    from crdtool.cli.markup import escape

    for breakdown in costs:
        release = f"Kubernetes {breakdown['kubernetesVersion']}" if breakdown["kubernetesVersion"] else "the default release"
        for s in breakdown["schemas"]:
            versions = ", ".join(s["versions"])
            if s["note"]:
                out.print(f"    CEL cost ({release}), versions {escape(versions)}: {escape(s['note'])}")
                continue
            if not s["expressions"]:
                continue
            out.print(f"    CEL cost ({release}), versions {escape(versions)}: total {s['total']:,} = "
                      f"{_pct(s['total'], CRD_LIMIT)} of the {CRD_LIMIT:,} per schema")
            for e in s["expressions"]:
                calls = "" if e["cardinality"] is None else f" x {e['cardinality']:,}{'*' if e['cardinalityAssumed'] else ''}"
                out.print(f"      {e['estimated']:>15,} {_pct(e['estimated'], RULE_LIMIT):>8} of the rule limit  "
                          f"= {e['cost']:,}{calls}  {escape(_loc(file, e.get('line'), e.get('column')))} {e['kind']}")
            if any(e["cardinalityAssumed"] for e in s["expressions"]):
                out.print("      (* calls assumed from the 3 MiB request limit: an enclosing list or map is unbounded)")


def _render_text(results: list[LintedDocument], explain_cost: bool, summary: str) -> None:
    from crdtool.cli.markup import escape

    out = console()
    current: str | None = None
    for r in results:
        if r.file != current:
            if current is not None:
                out.print()
            out.print(f"[bold]{escape(r.file)}[/bold]")
            current = r.file
        if r.status == "error":
            out.print(f"  [bold magenta]{escape(r.note or '')}[/bold magenta]")
            continue
        what = " ".join(escape(p) for p in (r.kind, r.name) if p) or "document"
        if r.api_version:
            what += f" ({escape(r.api_version)})"
        if r.status == "skipped":
            out.print(f"  {escape(_loc(r.file, r.line))}: [dim]skipped[/dim]: {what}: {escape(r.note or '')}")
            continue
        count = len(r.findings)
        out.print(f"  {escape(_loc(r.file, r.line))}: {what}: {count} finding{'' if count == 1 else 's'}")
        for f in r.findings:
            sev = f["severity"]
            out.print(f"    {escape(_loc(r.file, f['line'], f['column']))}: [{_STYLE[sev]}]{f['code']} {sev}[/]: "
                      f"{escape(f['message'])}")
            for line in f["details"]:
                out.print(f"      {escape(line)}")
            for n, option in enumerate(f["fixes"], 1):
                _render_fix(out, r.file, option, n, len(f["fixes"]))
        if explain_cost:
            render_cost(out, r.file, [_positioned_cost(p, b, d) for p, b, d in r.costs])
    if current is not None:
        out.print()
    out.print(summary)


def _summary(results: list[LintedDocument]) -> dict[str, int]:
    from crdtool.core.lint.policies import POLICY_KINDS

    findings = [f for r in results for f in r.findings]
    policies = sum(1 for r in results if r.status == "linted" and r.kind in POLICY_KINDS)
    out = {
        "documents": len(results),
        "crds": sum(1 for r in results if r.status == "linted") - policies,
        "policies": policies,
        "skipped": sum(1 for r in results if r.status == "skipped"),
        "inputErrors": sum(1 for r in results if r.status == "error"),
        "findings": len(findings),
    }
    out.update({sev: sum(1 for f in findings if f["severity"] == sev) for sev in SEVERITIES})
    return out


def _plural(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _summary_line(s: Mapping[str, int]) -> str:
    policies = f", {_plural(s['policies'], 'policy document')} linted" if s.get("policies") else ""
    return (f"{_plural(s['documents'], 'document')}: {_plural(s['crds'], 'CRD')} linted{policies}, {s['skipped']} skipped, "
            f"{_plural(s['inputErrors'], 'input error')}; {_plural(s['findings'], 'finding')}: "
            f"{s['error']} error, {s['warning']} warning, {s['info']} info")


def _run_for_reporters(results: list[LintedDocument], explain_cost: bool, fail_on: str) -> Any:
    from crdtool.cli.reporters.base import Case, CheckRun, Finding

    failing = SEVERITIES[: SEVERITIES.index(fail_on) + 1]
    cases = []
    for r in results:
        findings = tuple(
            Finding(f["code"], _LEVEL[f["severity"]], f"{f['code']} {f['message']}", r.file, f["line"], f["column"],
                    f["path"])
            for f in r.findings
        )
        if r.status == "error":
            findings = (Finding("InputError", "error", r.note or "", r.file, r.line or None),)
        outcome = {"error": "error", "skipped": "skipped"}.get(r.status) or (
            "failed" if any(f["severity"] in failing for f in r.findings) else "passed")
        what = " ".join(p for p in (r.kind, r.name) if p) or ("input" if r.status == "error" else "document")
        name = f"{what} (document {r.index + 1}, line {r.line})" if r.line > 0 else what
        cases.append(Case(name, r.file, r.line or None, outcome, findings, r.note))
    summary = _summary(results)
    codes = {f["code"] for r in results for f in r.findings}
    return CheckRun(
        command="lint",
        cases=cases,
        render_text=lambda: _render_text(results, explain_cost, _summary_line(summary)),
        json_payload=lambda: {"summary": summary, "documents": [r.to_dict() for r in results]},
        summary=_summary_line(summary),
        rules={c: CODES[c].rationale for c in codes},
        rule_help={c: (CODES[c].name, CODES[c].rationale, CODES[c].url) for c in codes},
    )


# --- the command ------------------------------------------------------------------------------------


def _file_ignores(file: str, per_file_ignores: Mapping[str, Sequence[str]]) -> list[str]:
    from crdtool.cli.selection import is_excluded

    return [code for glob, codes in per_file_ignores.items() if is_excluded(file, [glob]) for code in codes]


def run(
    paths: list[str],
    output: str,
    *,
    select: Sequence[str] | None = None,
    ignore: Sequence[str] = (),
    per_file_ignores: Mapping[str, Sequence[str]] | None = None,
    fail_on: str = "warning",
    exit_zero: bool = False,
    exclude: Sequence[str] = (),
    fix: bool = False,
    diff: bool = False,
    explain_cost: bool = False,
    kubernetes_versions: Sequence[str | None] = (None,),
    progress: Any = None,
) -> int:
    """Lint every CRD of ``paths``; return 0 (nothing at or above ``fail_on``), 1 (findings), 2 (usage or input errors).

    ``select``/``ignore``: codes or prefixes (ruff's semantics; None: the default codes);
    ``per_file_ignores``: glob -> codes ignored in matching files; ``fix``: write the CEL cost
    bounds into the files; ``diff``: print the unified diff ``--fix`` would apply instead (exit 1
    when there is one); ``explain_cost``: show every rule's cost (text) -- JSON always carries
    it; ``kubernetes_versions``: the releases costs are computed for (findings: the first).
    """
    from crdtool.cli.reporters import report
    from crdtool.cli.selection import Selection, load_selected_file, no_input_message, select_files
    from crdtool.yaml.loader import load_documents

    err = console(stderr=True)
    per_file = dict(per_file_ignores or {})
    try:
        select_codes(select, ignore)
        for codes in per_file.values():
            select_codes(["ALL"], codes)
    except ValueError as exc:
        err.print(f"crdtool: {exc}", markup=False)
        return 2
    selection = Selection()
    selected = list(select_files(paths, exclude, selection))
    if selection.nothing_found:
        err.print(f"crdtool: {no_input_message(paths)}", markup=False)
        return 2
    if selection.all_excluded:
        err.print(f"crdtool: all {selection.found} input files match --exclude; nothing to lint", markup=False)
    results: list[LintedDocument] = []
    loaded: list[tuple[int, Document]] = []  # every document read, for the policies' bundle checks
    file_ignores: dict[str, list[str]] = {}
    diffs: list[str] = []
    write_failed = False
    for entry in selected:
        items = load_selected_file(entry, sys.stdin.buffer)
        if (fix or diff) and isinstance(entry, str) and entry != "-":
            docs = [i for i in items if isinstance(i, Document)]
            fixed = _fix_file(entry, docs, kubernetes_versions[0])
            if fixed is not None and len(docs) != len(items):
                err.print(f"crdtool lint: {entry}: not rewritten: it has documents that cannot be read", markup=False)
            elif fixed is not None:
                if fixed.error:
                    err.print(f"crdtool: {fixed.error}", markup=False)
                    write_failed = True
                elif diff:
                    diffs.append("".join(difflib.unified_diff(
                        fixed.original.splitlines(keepends=True), fixed.text.splitlines(keepends=True),
                        f"a/{entry}", f"b/{entry}")))
                else:
                    from crdtool.cli.atomic import atomic_write_text

                    try:
                        atomic_write_text(entry, fixed.text)
                    except OSError as exc:
                        err.print(f"crdtool: {entry}: cannot write: {exc}", markup=False)
                        write_failed = True
                        continue
                    for note in fixed.notes:
                        err.print(note, markup=False)
                    items = list(load_documents(fixed.text.lstrip("\ufeff"), entry))
        elif fix and entry == "-":
            err.print("crdtool lint: --fix cannot rewrite stdin", markup=False)
            write_failed = True
        extra = _file_ignores(entry, per_file) if isinstance(entry, str) else []
        for item in items:
            if isinstance(item, InputError):
                results.append(_input_error_result(item))
            else:
                loaded.append((len(results), item))
                file_ignores[item.file] = extra
                results.append(lint_document(item, select, [*ignore, *extra], kubernetes_versions))
            if progress is not None:
                progress.advance()
    if not diff:
        lint_policy_documents(loaded, results, select, ignore, file_ignores, kubernetes_versions[0])
    if progress is not None:
        progress.stop()
    if diff:
        from crdtool.cli.reporters import write_text

        write_text(sys.stdout, "".join(diffs))
        return 2 if write_failed or any(r.status == "error" for r in results) else (1 if diffs else 0)
    report(_run_for_reporters(results, explain_cost, fail_on), output)
    if write_failed or any(r.status == "error" for r in results):
        return 2
    failing = SEVERITIES[: SEVERITIES.index(fail_on) + 1]
    if any(f["severity"] in failing for r in results for f in r.findings):
        return 0 if exit_zero else 1
    return 0


# --- validate --explain-cost -------------------------------------------------------------------------


def explain_cost_run(run: Any, items: Sequence[Document | InputError], output: str, releases: Sequence[Any] = ()) -> Any:
    """``validate``'s :class:`~crdtool.cli.reporters.CheckRun` with the CEL costs of its CRDs added.

    Text: after the report, every CRD's costs (as ``lint --explain-cost`` shows them); JSON: each
    CRD document gets ``"cost"`` (a list, one :class:`CostBreakdown` per release). Other formats are
    unchanged.
    """
    costs: dict[tuple[str, int], list[dict[str, Any]]] = {}
    labels: dict[tuple[str, int], str] = {}
    for item in items:
        if not isinstance(item, Document):
            continue
        crds = _crds_of(item.data)
        if crds:
            key = (item.file, item.index)
            names = [getattr(r, "name", r) for r in releases] or [None]
            costs[key] = [
                _positioned_cost(prefix, cost_breakdown(crd, fixes=False, kubernetes_version=name), item)
                for name in names for prefix, crd in crds
            ]
            _, kind, name = _identity(item.data)
            labels[key] = f"{item.file}:{item.line}: {' '.join(p for p in (kind, name) if p)}"
    if output == "text":
        original_text = run.render_text

        def render_text() -> None:
            from crdtool.cli.markup import escape

            original_text()
            out = console()
            for key, breakdowns in costs.items():
                if any(s["expressions"] or s["note"] for b in breakdowns for s in b["schemas"]):
                    out.print(f"  {escape(labels[key])}")
                    render_cost(out, key[0], breakdowns)

        run.render_text = render_text
    elif output == "json":
        original_json = run.json_payload

        def json_payload() -> Any:
            payload = original_json()
            for doc in payload.get("documents", []):
                key = (doc.get("file"), doc.get("index"))
                if key in costs:
                    doc["cost"] = costs[key]
            return payload

        run.json_payload = json_payload
    return run
