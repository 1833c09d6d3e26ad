"""``crdtool test --update``: a failing case's expectation rewritten to what the apiserver answers (snapshot
testing, as syrupy's ``--snapshot-update`` and inline-snapshot's ``--inline-snapshot=fix`` do for pytest).

For each failing case of the suite form (``cases:``), the new ``expect`` holds the apiserver's answer: its errors
(``field``, ``type`` and the whole message), else ``valid: true``; its warnings; and, where the old expectation
had them, the whole ``statusMessage``, the stored (pruned, defaulted) ``object`` and the ``pruned`` fields. A
case is left alone when the releases it runs under answer differently, or when it could not be run (no CRD of
its kind: no expectation makes that pass). An admission case's new ``expect`` holds the admission chain's answer
(:func:`admission_expectation_from`). An annotated manifest gets new ``# expect:`` lines (``valid``, or a
``TYPE FIELD "message"`` line per error) when all its documents answer alike.

The file is edited in place: a one-line flow value stays a one-line flow value where it fits (:func:`_keep_flow`),
the rest goes through :func:`crdtool.yaml.edit.rewrite_document`; only the ``expect`` values change, and comments,
key order, quoting and flow or block style of everything else stay byte for byte. (Not a ruamel.yaml round trip:
its emitter re-folds and re-indents untouched lines, see :mod:`crdtool.yaml.edit`.)
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

__all__ = ["CaseUpdate", "SuiteUpdate", "admission_expectation_from", "expectation_from", "plan_updates"]


@dataclass
class CaseUpdate:
    """One case's expectation: ``old`` and ``new`` (raw ``expect`` mappings), or why it is left (``skipped``).
    ``step``: the index of the step in a multi-step case (None: the case's own ``expect``)."""

    file: str
    line: int
    name: str
    old: Any
    new: Any = None
    skipped: str | None = None
    step: int | None = None


@dataclass
class SuiteUpdate:
    """A suite file's new text and the case updates it holds (``text`` is None when nothing changes)."""

    file: str
    text: str | None = None
    cases: list[CaseUpdate] = field(default_factory=list)


def expectation_from(verdict: Any, old: Any) -> dict[str, Any]:
    """The raw ``expect`` mapping that states ``verdict`` (a :class:`~crdtool.testing.runner.Verdict`), keeping
    of ``old`` (the raw expectation) which parts the author checks: ``statusMessage``, ``object``, ``pruned``,
    ``ignoreCase``."""
    from crdtool.testing.runner import status_message

    old = old if isinstance(old, dict) else {}
    new: dict[str, Any] = {}
    if verdict.errors:
        new["errors"] = [_error(e) for e in verdict.errors]
        if "statusMessage" in old:
            new["statusMessage"] = [status_message(verdict)]
    else:
        new["valid"] = True
    if verdict.warnings:
        new["warnings"] = list(verdict.warnings)
    if "object" in old and verdict.stored is not None:
        new["object"] = copy.deepcopy(verdict.stored)
    if "pruned" in old:
        new["pruned"] = sorted(verdict.pruned)
    if "ignoreCase" in old:
        new["ignoreCase"] = old["ignoreCase"]
    return new


def admission_expectation_from(answer: Any, old: Any) -> dict[str, Any]:
    """The raw ``expect`` mapping of an admission case that states ``answer`` (an ``AdmitResult``): ``allowed``,
    the whole ``message`` of a refusal, the ``warnings``, the ``auditAnnotations`` and the ``patchedObject`` when
    there are any (of a refusal only where ``old`` had them); ``code`` and ``reason`` (and ``patchedObject: null``,
    ``ignoreCase``) where ``old`` had them."""
    old = old if isinstance(old, dict) else {}
    new: dict[str, Any] = {"allowed": answer.allowed}
    if not answer.allowed:
        new["message"] = answer.message
        if "code" in old:
            new["code"] = answer.code
        if "reason" in old:
            new["reason"] = answer.reason
    if answer.warnings:
        new["warnings"] = list(answer.warnings)
    # a refused request stores nothing: what admission annotated or patched on the way is stated only when the
    # old expectation checked it
    if answer.audit_annotations and (answer.allowed or "auditAnnotations" in old):
        new["auditAnnotations"] = dict(answer.audit_annotations)
    if answer.patched_object is not None and (answer.allowed or "patchedObject" in old):
        new["patchedObject"] = copy.deepcopy(answer.patched_object)
    elif "patchedObject" in old and answer.patched_object is None:
        new["patchedObject"] = None
    if "ignoreCase" in old:
        new["ignoreCase"] = old["ignoreCase"]
    return new


def _error(err: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if err.field:
        out["field"] = err.field
    if err.type:
        out["type"] = err.type
    out["message"] = str(err)
    return out


def plan_updates(results: list[Any], suites: list[Any]) -> list[SuiteUpdate]:
    """The new text of each suite file with a failing case (``results``: the run's
    :class:`~crdtool.testing.runner.CaseResult` values; ``suites``: the :class:`~crdtool.testing.suite.Suite`
    values run). Reads the files; raises ``OSError`` when one cannot be read."""
    from crdtool.testing.runner import check, check_admission
    from crdtool.testing.suite import _Bad, _read_admission_expect, _read_expect

    by_case: dict[tuple[str, str], list[Any]] = {}
    for r in results:
        by_case.setdefault((r.case.file, r.case.name), []).append(r)
    forms = {s.file: s.form for s in suites}
    updates: dict[str, SuiteUpdate] = {}
    for (file, name), runs in by_case.items():
        if all(r.passed for r in runs):
            continue
        update = updates.setdefault(file, SuiteUpdate(file))
        first = runs[0]
        entry = CaseUpdate(file, first.case.line, name, None)
        update.cases.append(entry)
        if forms.get(file) == "manifest":
            continue  # below: a manifest's documents share its '# expect:' lines
        if any(r.outcome == "error" for r in runs):
            problems = next(r for r in runs if r.outcome == "error").problems
            entry.skipped = "it could not be run (" + "; ".join(problems) + ")"
            continue
        steps = _steps_of(runs)
        if steps is None:
            entry.skipped = "the releases it runs under answer differently: " + ", ".join(r.release for r in runs)
            continue
        if steps == []:
            entry.skipped = "no step of it fails on its own expectation"
            continue
        entry.new = steps
    # a new expectation must pass against the answers it was made from (else it is not written)
    for update in updates.values():
        for c in update.cases:
            if c.skipped is None and c.new is not None:
                for r in by_case[(c.file, c.name)]:
                    for verdict, raw in _pairs(r, c):
                        try:
                            if r.case.admission is not None:
                                wrong = check_admission(_read_admission_expect(raw, _DEFAULTS), verdict)
                            else:
                                wrong = check(_read_expect(raw, _DEFAULTS), verdict)
                        except _Bad as exc:
                            wrong = [exc.message]
                        if wrong:
                            c.skipped = f"the apiserver's answer cannot be stated as an expectation ({wrong[0]})"
    for update in updates.values():
        if forms.get(update.file) == "manifest":
            _manifest_update(update, [r for r in results if r.case.file == update.file])
            continue
        todo = [c for c in update.cases if c.skipped is None]
        if todo:
            update.text = _rewrite(update.file, todo)
    return list(updates.values())


def manifest_lines(verdict: Any) -> list[str]:
    """The ``# expect:`` lines that state ``verdict`` in the annotated-manifest form: ``valid``, or one
    ``TYPE FIELD "message"`` line per error (the header form has no place for warnings)."""
    if not verdict.errors:
        return ["# expect: valid"]
    lines = []
    for e in verdict.errors:
        parts = [p for p in (e.type, e.field) if p and " " not in p]
        lines.append("# expect: " + " ".join([*parts, f'"{e}"']))
    return lines


def _manifest_update(update: SuiteUpdate, results: list[Any]) -> None:
    """Replace the file's ``# expect:`` lines (every document shares them) when every document, under every
    release, answers alike; else leave the file and say why."""
    from crdtool.testing.runner import check
    from crdtool.testing.suite import _Bad, _manifest_expectation

    first = update.cases[0]
    update.cases[1:] = []  # one header for every document of the file: one update
    if any(r.outcome == "error" for r in results):
        problem = next(r for r in results if r.outcome == "error").problems[0]
        first.skipped = f"a document could not be run ({problem})"
        return
    answers = {tuple(manifest_lines(r.verdict)) for r in results}
    if len(answers) != 1:
        first.skipped = "its documents (or releases) answer differently: one '# expect:' header cannot state them all"
        return
    lines = list(next(iter(answers)))
    try:
        expect = _manifest_expectation([(i + 1, line.split(":", 1)[1].strip()) for i, line in enumerate(lines)])
    except _Bad as exc:
        first.skipped = f"the answer cannot be written as '# expect:' lines ({exc.message})"
        return
    if any(check(expect, r.verdict) for r in results):
        first.skipped = "the answer cannot be written as '# expect:' lines"
        return
    with open(update.file, encoding="utf-8") as fh:
        text = fh.read()
    out, old, placed = [], [], False
    in_header = True
    for raw_line in text.splitlines(keepends=True):
        stripped = raw_line.strip()
        if in_header and stripped and stripped != "---" and not stripped.startswith("#"):
            in_header = False
        if in_header and stripped.startswith("#") and stripped[1:].lstrip().startswith("expect:"):
            old.append(stripped)
            if not placed:
                out.extend(line + "\n" for line in lines)
                placed = True
            continue
        out.append(raw_line)
    first.old, first.new = old, lines
    update.text = "".join(out)


_DEFAULTS = {"fieldValidation": "Strict", "ignoreCase": False, "allowOtherErrors": False}


def _steps_of(runs: list[Any]) -> Any:
    """The new expectation(s) of a case from its runs: one ``expect`` mapping, or for a multi-step case a list of
    ``(step index, expect)``; None when two releases answer differently."""
    from crdtool.testing.runner import check

    news: list[Any] = []
    for r in runs:
        if r.case.admission is not None:
            news.append(admission_expectation_from(r.admission, r.case.raw_expect))
        elif r.step_verdicts:  # the steps that fail; the others keep their expectation as written
            news.append([(i, expectation_from(v, r.case.steps[i].raw_expect)) for i, v in enumerate(r.step_verdicts)
                         if check(r.case.steps[i].expect, v)])
        else:
            news.append(expectation_from(r.verdict, r.case.raw_expect))
    if any(n != news[0] for n in news[1:]):
        return None
    return news[0]


def _pairs(result: Any, c: CaseUpdate) -> list[tuple[Any, Any]]:
    if isinstance(c.new, list):
        return [(result.step_verdicts[i], raw) for i, raw in c.new]
    if result.case.admission is not None:
        return [(result.admission, c.new)]
    return [(result.verdict, c.new)]


def _rewrite(path: str, cases: list[CaseUpdate]) -> str | None:
    from crdtool.yaml import Document, load_documents
    from crdtool.yaml.edit import rewrite_document

    with open(path, "rb") as fh:
        raw = fh.read()
    text = raw.decode("utf-8")
    docs = [d for d in load_documents(raw, path) if isinstance(d, Document)]
    if len(docs) != 1 or not isinstance(docs[0].data.get("cases"), list):
        for c in cases:
            c.skipped = "the suite file no longer reads as one suite"
        return None
    old = docs[0].data
    new = copy.deepcopy(old)
    index = {c.get("name"): i for i, c in enumerate(new["cases"]) if isinstance(c, dict)}
    places: list[tuple[tuple[Any, ...], Any]] = []  # (path of the expect in the document, its new value)
    for c in cases:
        i = index.get(c.name)
        if i is None:
            c.skipped = "no case of that name in the file any more"
            continue
        case = new["cases"][i]
        if isinstance(c.new, list):
            c.old = [copy.deepcopy(case["steps"][k].get("expect")) for k, _ in c.new]
            for k, expect in c.new:
                case["steps"][k]["expect"] = expect
                places.append((("cases", i, "steps", k, "expect"), expect))
        else:
            c.old = copy.deepcopy(case.get("expect"))
            case["expect"] = c.new
            places.append((("cases", i, "expect"), c.new))
    spliced = _keep_flow(text, places)
    if spliced is not None:
        again = [d for d in load_documents(spliced.encode("utf-8"), path) if isinstance(d, Document)]
        if len(again) == 1:
            return rewrite_document(spliced, again[0].data, new).text
    return rewrite_document(text, old, new).text


#: A one-line flow ``expect`` stays one line when the line stays at most this long (or as long as the file's
#: longest line).
FLOW_WIDTH = 120


def _keep_flow(text: str, places: list[tuple[tuple[Any, ...], Any]]) -> str | None:
    """``text`` with each one-line flow ``expect`` of ``places`` (or one-line flow value of a key of a block
    ``expect``) replaced by its new value in flow style, when the line stays within :data:`FLOW_WIDTH` or the
    file's longest line (the rest is left to :func:`crdtool.yaml.edit.rewrite_document`, which writes a changed
    mapping in block style); None when nothing is replaced."""
    from crdtool.yaml.edit import format_flow, parse_tree

    try:
        root = parse_tree(text)
    except ValueError:
        return None
    width = max([FLOW_WIDTH, *(len(line) for line in text.splitlines())])  # the file's own longest line
    edits: list[tuple[int, int, str]] = []
    todo: list[tuple[Any, Any]] = []
    for path, value in places:
        node = root
        for step in path:
            node = _child_node(node, step)
            if node is None:
                break
        if node is None:
            continue
        if node.kind == "map" and not node.flow and isinstance(value, dict):
            # a block expect: each of its keys written on one line in flow style stays so
            todo.extend((_child_node(node, k), v) for k, v in value.items() if isinstance(v, (dict, list)))
        else:
            todo.append((node, value))
    for node, value in todo:
        if node is None or not node.flow or "\n" in text[node.start:node.end]:
            continue
        piece = format_flow(value, quote='"')
        line_start = text.rfind("\n", 0, node.start) + 1
        line_end = text.find("\n", node.end)
        line_end = len(text) if line_end < 0 else line_end
        if (node.start - line_start) + len(piece) + (line_end - node.end) <= width:
            edits.append((node.start, node.end, piece))
    if not edits:
        return None
    for start, end, piece in sorted(edits, reverse=True):
        text = text[:start] + piece + text[end:]
    return text


def _child_node(node: Any, step: Any) -> Any:
    if node is None:
        return None
    if isinstance(step, int):
        return node.items[step] if node.kind == "seq" and step < len(node.items) else None
    if node.kind != "map":
        return None
    return next((v for k, v in node.entries if k.kind == "scalar" and k.value == step), None)
