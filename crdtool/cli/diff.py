"""``crdtool diff``: will the apiserver accept a CRD update, what breaks, which stored objects stop validating.

Loads the old and new CRD manifests (``OLD NEW``, or each ``PATH`` against its
version at a git ``--base`` ref via ``git show``), pairs their CRDs by name,
and for each pair runs the core's update check (:func:`check_crd_update`),
compatibility report (:func:`compare_crds`) and, with ``--objects``, a no-op
update of every stored object under the new CRD (:func:`apply_update`); then
renders and picks the exit code.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass, field
from typing import Any

from crdtool.cli.inputs import expand_path, load_inputs
from crdtool.yaml.loader import Document, InputError, load_documents
from crdtool.cli.report import console
from crdtool.cli.matrix import ranges
from crdtool.core.crd.compare import SEVERITIES, Change, compare_crds, match_crds, severity_rank
from crdtool.core.releases import DEFAULT_RELEASE, Release
from crdtool.core.crd.manifest import is_crd
from crdtool.core.errors import FieldError

#: Object statuses, and the severity each counts as for ``--fail-on``.
OBJECT_SEVERITY = {"rejected": "breaking", "tolerated": "warning", "pruned": "warning", "ok": None, "skipped": None}


class UsageError(Exception):
    """Bad options or arguments: a message, exit 2."""


@dataclass
class PairReport:
    """One CRD of OLD and/or NEW: its update verdict, changes and objects (JSON shape in :meth:`to_dict`)."""

    name: str
    old: Document | None
    new: Document | None
    accepted: bool | None = None
    errors: list[dict[str, Any]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    changes: list[Change] = field(default_factory=list)
    objects: list[dict[str, Any]] = field(default_factory=list)
    stored_versions: tuple[str, ...] = ()
    #: with several Kubernetes releases: each release's update verdict (``accepted``, ``errors``, ``warnings``)
    versions: dict[str, dict[str, Any]] | None = None

    def to_dict(self) -> dict[str, Any]:
        update = None if self.accepted is None else {"accepted": self.accepted, "errors": self.errors, "warnings": self.warnings}
        if update is not None and self.versions is not None:
            update["kubernetesVersions"] = self.versions
        return {
            "crd": {"name": self.name, "old": _where_doc(self.old), "new": _where_doc(self.new)},
            "update": update,
            "changes": [c.to_dict() for c in self.changes],
            "objects": self.objects,
        }

    def severities(self) -> list[str]:
        found = [c.severity for c in self.changes]
        if self.accepted is False:
            found.append("error")
        found.extend(s for s in (OBJECT_SEVERITY.get(o["status"]) for o in self.objects) if s)
        return found


def run(
    paths: list[str],
    *,
    base: str | None,
    objects: list[str],
    stored_versions: str | None,
    fail_on: str,
    output: str,
    field_validation: str = "Strict",
    releases: tuple[Release, ...] = (DEFAULT_RELEASE,),
    jobs: int | None = None,
) -> int:
    """Compare OLD and NEW (or each PATH with ``base``), report, and return the exit status.

    ``output`` names a reporter (``text``, ``json``, ``github``, ``sarif``,
    ``junit``). 0: nothing at or above ``fail_on``; 1: something is; 2: usage
    or input errors (messages on stderr, the rest is still reported).
    ``releases``: the Kubernetes releases whose apiservers run the update (and the
    objects' writes); with several, an update must be safe on each of them.
    ``jobs``: worker processes judging the ``--objects`` (None: one per core,
    1: none); the report does not depend on it.
    """
    err = console(stderr=True)
    try:
        stored = _parse_stored_versions(stored_versions)
        if base is not None:
            pairs_of_files = _files_against_base(paths, base)
        else:
            if len(paths) != 2:
                raise UsageError("diff takes two manifests, OLD and NEW (or --base REF and the paths to compare)")
            pairs_of_files = [(_load(paths[0]), _load(paths[1]))]
    except UsageError as exc:
        err.print(f"crdtool diff: {exc}", markup=False)
        return 2
    input_errors: list[InputError] = []
    per_release: list[list[PairReport]] = []
    for k, release in enumerate(releases or (DEFAULT_RELEASE,)):
        errors_here: list[InputError] = []
        reports: list[PairReport] = []
        for old_items, new_items in pairs_of_files:
            olds = _crd_documents(old_items, errors_here)
            news = _crd_documents(new_items, errors_here)
            reports.extend(_compare(olds, news, stored, field_validation, errors_here, release))
        if objects:
            _check_objects(objects, reports, errors_here, release, jobs)
        if not k:  # the same inputs give the same input errors under every release
            input_errors = errors_here
        per_release.append(reports)
    reports = per_release[0] if len(per_release) == 1 else _merge_releases(list(releases), per_release)
    for problem in input_errors:
        err.print(f"crdtool diff: {problem}", markup=False)
    if not reports and not input_errors:
        if base is not None:  # e.g. a pre-commit hook given files without CRDs: nothing to compare
            err.print("crdtool diff: no CustomResourceDefinition among the files", markup=False)
            return 0
        err.print("crdtool diff: no CustomResourceDefinition to compare", markup=False)
        return 2
    from crdtool.cli.reporters import report

    report(diff_run(reports, fail_on), output)
    if input_errors:
        return 2
    threshold = severity_rank(fail_on)
    if any(severity_rank(s) <= threshold for r in reports for s in r.severities()):
        return 1
    return 0


# --- loading ------------------------------------------------------------------------------


def _parse_stored_versions(text: str | None) -> list[str] | None:
    if text is None:
        return None
    versions = [v.strip() for v in text.split(",") if v.strip()]
    if not versions:
        raise UsageError("--stored-versions needs at least one version, e.g. v1beta1,v1")
    return versions


def _load(path: str) -> list[Document | InputError]:
    return list(load_inputs([path], stdin=sys.stdin.buffer))


def _files_against_base(paths: list[str], base: str) -> list[tuple[list[Document | InputError], list[Document | InputError]]]:
    """For each file of ``paths``: (its documents at ``base``, its documents now). A file absent at ``base`` has none."""
    if not paths:
        raise UsageError("--base needs the paths to compare")
    try:
        _git(["rev-parse", "--verify", "--quiet", f"{base}^{{commit}}"], os.getcwd(), f"{base!r} is not a commit (git rev-parse)")
        empty_history = False
    except UsageError:
        # a repository without any commit yet (a pre-commit hook on the first commit): every file is new
        if _git(["rev-list", "-n", "1", "--all"], os.getcwd(), f"{base!r} is not a commit (git rev-parse)").strip():
            raise
        empty_history = True
    out = []
    for arg in paths:
        if arg == "-":
            raise UsageError("--base compares files with their git history: stdin cannot be used")
        for item in expand_path(arg):
            if isinstance(item, InputError):
                out.append(([], [item]))
                continue
            directory, name = os.path.split(os.path.abspath(item))
            old_text = None if empty_history else _git_show(base, directory, name)
            old_items: list[Document | InputError] = load_documents(old_text, f"{base}:{item}") if old_text is not None else []
            out.append((old_items, _load(item)))
    return out


def _git(args: list[str], cwd: str, problem: str) -> bytes:
    try:
        done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, timeout=60, check=False)
    except FileNotFoundError:
        raise UsageError("--base needs git, which is not installed") from None
    except subprocess.TimeoutExpired:
        raise UsageError(f"git {' '.join(args)} timed out") from None
    if done.returncode != 0:
        detail = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise UsageError(problem + (f": {detail[-1]}" if detail else ""))
    return done.stdout


def _git_show(base: str, directory: str, name: str) -> bytes | None:
    """``git show BASE:./NAME`` run in the file's directory; None when the file did not exist at BASE."""
    try:
        done = subprocess.run(
            ["git", "show", f"{base}:./{name}"], cwd=directory, capture_output=True, timeout=60, check=False
        )
    except (FileNotFoundError, subprocess.TimeoutExpired) as exc:
        raise UsageError(f"git show {base}:{name} failed: {exc}") from None
    if done.returncode == 0:
        return done.stdout
    message = done.stderr.decode("utf-8", "replace")
    if "does not exist" in message or "exists on disk, but not in" in message:
        return None
    raise UsageError(f"git show {base}:{name} failed: {message.strip().splitlines()[-1] if message.strip() else done.returncode}")


def _crd_documents(items: list[Document | InputError], input_errors: list[InputError]) -> list[Document]:
    """The CRDs among ``items`` (the items of a ``v1`` List each as a document); other documents are ignored."""
    out: list[Document] = []
    for item in items:
        if isinstance(item, InputError):
            input_errors.append(item)
        elif is_crd(item.data):
            out.append(item)
        elif _is_list(item.data):
            for i, sub in enumerate(item.data["items"]):
                if is_crd(sub):
                    pos = item.position(f"items[{i}]")
                    out.append(Document(item.file, item.index, pos[0] if pos else item.line, sub))
    return out


def _is_list(data: Any) -> bool:
    return isinstance(data, dict) and data.get("kind") == "List" and isinstance(data.get("items"), list)


# --- comparing ---------------------------------------------------------------------------


def _compare(
    olds: list[Document],
    news: list[Document],
    stored: list[str] | None,
    field_validation: str,
    input_errors: list[InputError],
    release: Release = DEFAULT_RELEASE,
) -> list[PairReport]:
    from crdtool.core.crd.update import check_crd_update

    pairs, only_old, only_new = match_crds([d.data for d in olds], [d.data for d in news])
    reports: list[PairReport] = []
    for i, j in pairs:
        old, new = olds[i], news[j]
        report = PairReport(_name(new.data), old, new)
        try:
            verdict = check_crd_update(
                new.data, old.data, stored_versions=stored, field_validation=field_validation,
                duplicate_fields=new.duplicate_keys, kubernetes_version=release.name,
            )
            report.changes = compare_crds(old.data, new.data, stored_versions=stored)
        except ValueError as exc:
            input_errors.append(InputError(old.file, old.line, 0, str(exc), old.index))
            continue
        report.accepted = verdict.accepted
        report.errors = [_error_entry(new, f.error) for f in verdict.findings]
        report.warnings = list(verdict.warnings)
        report.stored_versions = verdict.stored_versions
        if _name(old.data) != _name(new.data):
            report.warnings.append(
                f"{_name(new.data)} is not {_name(old.data)}: kubectl apply would create it as another CRD; "
                "the errors above are those of updating the old CRD in place"
            )
        reports.append(report)
    for i in only_old:
        old = olds[i]
        reports.append(
            PairReport(
                _name(old.data), old, None,
                changes=[Change(
                    "", "metadata.name", "crd-removed", "warning",
                    f"CRD {_name(old.data)} is not in the new manifests: `kubectl apply` leaves it in the cluster; "
                    "deleting it deletes every object of it",
                )],
            )
        )
    for j in only_new:
        new = news[j]
        reports.append(
            PairReport(_name(new.data), None, new, changes=[Change("", "metadata.name", "crd-added", "info", f"CRD {_name(new.data)} is new")])
        )
    return reports


def _name(crd: dict[str, Any]) -> str:
    meta = crd.get("metadata")
    name = meta.get("name") if isinstance(meta, dict) else None
    return name if isinstance(name, str) and name else "(unnamed CRD)"


def _error_entry(doc: Document, error: FieldError) -> dict[str, Any]:
    """``{"type", "field", "detail", "message", "line", "column"}`` with the position of the field in ``doc``."""
    pos = doc.position(error.field) if error.field and error.field != "<nil>" else None
    return {
        "type": error.type,
        "field": error.field,
        "detail": error.detail,
        "message": str(error),
        "line": pos[0] if pos else None,
        "column": pos[1] if pos else None,
    }


def _where_doc(doc: Document | None) -> dict[str, Any] | None:
    return None if doc is None else {"file": doc.file, "line": doc.line}


# --- objects ----------------------------------------------------------------------------------


#: With at least this many objects, ``--objects`` are judged by worker processes (``--jobs``).
PARALLEL_MIN_OBJECTS = 64


def _check_objects(
    paths: list[str], reports: list[PairReport], input_errors: list[InputError],
    release: Release = DEFAULT_RELEASE, jobs: int | None = None
) -> None:
    """A no-op update of every object of ``paths`` under the new CRD of its group and kind.

    Many objects are judged by ``jobs`` forked workers (which inherit the
    loaded objects and the prepared CRDs), in ranges, the entries in order.
    """
    from crdtool.cli.jobs import index_ranges, ordered_map, resolve_jobs
    from crdtool.core.customresource import CustomResourceError, prepare_crd

    by_group_kind: dict[tuple[str, str], tuple[PairReport, Any]] = {}
    for report in reports:
        if report.new is None:
            continue
        spec = report.new.data.get("spec") if isinstance(report.new.data.get("spec"), dict) else {}
        names = spec.get("names") if isinstance(spec.get("names"), dict) else {}
        key = (str(spec.get("group", "")), str(names.get("kind", "")))
        if key in by_group_kind:
            continue
        try:
            prepared: Any = prepare_crd(report.new.data, release.name)
        except CustomResourceError as exc:
            prepared = exc
        by_group_kind[key] = (report, prepared)
    work: list[tuple[Document, str, dict[str, Any], PairReport, Any]] = []
    for item in load_inputs(paths, stdin=sys.stdin.buffer):
        if isinstance(item, InputError):
            input_errors.append(item)
            continue
        for prefix, obj in _objects_of(item):
            api_version, kind = obj.get("apiVersion"), obj.get("kind")
            if not isinstance(api_version, str) or not isinstance(kind, str) or is_crd(obj):
                continue
            group = api_version.rpartition("/")[0]
            found = by_group_kind.get((group, kind))
            if found is None:
                continue
            report, prepared = found
            work.append((item, prefix, obj, report, prepared))
    workers = resolve_jobs(jobs) if len(work) >= PARALLEL_MIN_OBJECTS else 1
    if workers > 1:
        for _, prepared in by_group_kind.values():  # compiled once, before the workers fork
            for version in getattr(prepared, "versions", ()):
                if version.served and version.cel_validator is not None:
                    version.cel_validator.get()

    def judge(numbers: range) -> list[dict[str, Any]]:
        return [_check_object(*work[i][:3], work[i][4]) for i in numbers]

    done = 0
    for entries in ordered_map(judge, index_ranges(len(work), workers, per_worker=8), workers):
        for entry in entries:
            work[done][3].objects.append(entry)
            done += 1


def _objects_of(doc: Document) -> list[tuple[str, dict[str, Any]]]:
    if _is_list(doc.data):
        return [(f"items[{i}]", o) for i, o in enumerate(doc.data["items"]) if isinstance(o, dict)]
    return [("", doc.data)]


def _check_object(doc: Document, prefix: str, obj: dict[str, Any], prepared: Any) -> dict[str, Any]:
    """One object's entry: the verdict on writing it back unchanged under the new CRD."""
    from crdtool.core.customresource import CustomResourceError
    from crdtool.core.customresource import apply_update

    meta = obj.get("metadata") if isinstance(obj.get("metadata"), dict) else {}
    pos = doc.position(prefix) if prefix else (doc.line, doc.column)
    entry: dict[str, Any] = {
        "file": doc.file,
        "line": pos[0] if pos else doc.line,
        "apiVersion": obj.get("apiVersion"),
        "kind": obj.get("kind"),
        "namespace": meta.get("namespace"),
        "name": meta.get("name"),
        "status": "ok",
        "errors": [],
        "ratcheted": [],
        "ratchetedRules": [],
        "pruned": [],
        "warnings": [],
    }
    if isinstance(prepared, CustomResourceError):
        entry["status"] = "skipped"
        entry["warnings"].append(f"the new CRD cannot serve objects: {prepared}")
        return entry
    sent = dict(obj)
    sent_meta = dict(meta)
    if not sent_meta.get("resourceVersion"):
        sent_meta["resourceVersion"] = "1"  # as kubectl apply patches the live object
    sent["metadata"] = sent_meta
    version = str(obj.get("apiVersion", "")).rpartition("/")[2]
    ver = prepared.version(version)
    if ver is None or not ver.served:
        storage = next((v for v in prepared.versions if v.storage), None)
        if storage is None:
            entry["status"] = "skipped"
            entry["warnings"].append(f"version {version} is not served by the new CRD, which has no storage version")
            return entry
        entry["warnings"].append(
            f"version {version} is not served by the new CRD: checked as {prepared.group}/{storage.name} "
            "(converted by apiVersion only)"
        )
        sent["apiVersion"] = f"{prepared.group}/{storage.name}"
    try:
        # Read under the new CRD, the object has lost what its schema no longer specifies, so writing it
        # back sends no unknown field: they are reported as pruned, not as strict-decoding errors.
        result = apply_update(sent, sent, prepared, field_validation="Ignore")
    except CustomResourceError as exc:
        entry["status"] = "skipped"
        entry["warnings"].append(str(exc))
        return entry
    entry["errors"] = [_object_error(doc, prefix, e) for e in result.errors]
    entry["ratcheted"] = [_object_error(doc, prefix, e) for e in result.ratcheted]
    entry["ratchetedRules"] = list(result.ratcheted_rules)
    entry["pruned"] = list(result.pruned)
    entry["warnings"].extend(w for w in result.warnings if w not in result.ratcheted_rules)
    if result.errors:
        entry["status"] = "rejected"
    elif result.ratcheted or result.ratcheted_rules:
        entry["status"] = "tolerated"
    elif result.pruned:
        entry["status"] = "pruned"
    return entry


def _object_error(doc: Document, prefix: str, error: FieldError) -> dict[str, Any]:
    entry = _error_entry(doc, error) if not prefix else None
    if entry is not None:
        return entry
    path = f"{prefix}.{error.field}" if error.field and error.field != "<nil>" else prefix
    pos = doc.position(path)
    return {
        "type": error.type,
        "field": error.field,
        "detail": error.detail,
        "message": str(error),
        "line": pos[0] if pos else None,
        "column": pos[1] if pos else None,
    }


# --- several Kubernetes releases --------------------------------------------------------------

_OBJECT_RANK = {"rejected": 4, "tolerated": 3, "pruned": 2, "ok": 1, "skipped": 0}


def _merge_entries(names: list[str], lists: list[list[Any]]) -> list[Any]:
    """Each distinct error (a dict) or text once, in first-seen order; errors get ``kubernetesVersions``."""
    merged: dict[Any, Any] = {}
    where: dict[Any, list[str]] = {}
    for name, entries in zip(names, lists):
        for e in entries:
            key = repr(sorted(e.items())) if isinstance(e, dict) else e
            if key not in merged:
                merged[key] = dict(e) if isinstance(e, dict) else e
                where[key] = []
            if name not in where[key]:
                where[key].append(name)
    out = []
    for key, e in merged.items():
        if isinstance(e, dict):
            e["kubernetesVersions"] = where[key]
            out.append(e)
        else:
            out.append(e if len(where[key]) == len(names) else f"[{ranges(where[key])}] {e}")
    return out


def _merge_releases(releases: list[Release], per_release: list[list[PairReport]]) -> list[PairReport]:
    """One report per CRD pair from each release's: rejected when any release rejects the update, objects at
    their worst status, errors once with the releases that report them (``kubernetesVersions``)."""
    names = [r.name for r in releases]
    out: list[PairReport] = []
    for row in zip(*per_release):
        base = row[0]
        if base.accepted is not None:
            base.versions = {
                name: {"accepted": r.accepted, "errors": r.errors, "warnings": r.warnings} for name, r in zip(names, row)
            }
            base.accepted = all(r.accepted for r in row)
            base.errors = _merge_entries(names, [r.errors for r in row])
            base.warnings = _merge_entries(names, [r.warnings for r in row])
        objects = []
        for entries in zip(*(r.objects for r in row)):
            obj = dict(entries[0])
            obj["status"] = max((e["status"] for e in entries), key=lambda st: _OBJECT_RANK.get(st, 0))
            for key in ("errors", "ratcheted"):
                obj[key] = _merge_entries(names, [e[key] for e in entries])
            for key in ("ratchetedRules", "pruned", "warnings"):
                obj[key] = _merge_entries(names, [e[key] for e in entries])
            obj["kubernetesVersions"] = {name: e["status"] for name, e in zip(names, entries)}
            objects.append(obj)
        base.objects = objects
        out.append(base)
    return out


# --- reporters -------------------------------------------------------------------------------


def json_payload(reports: list[PairReport]) -> Any:
    """One pair's ``{"crd", "update", "changes", "objects"}``, or a list of those for several."""
    data = [r.to_dict() for r in reports]
    return data[0] if len(data) == 1 else data


def diff_run(reports: list[PairReport], fail_on: str) -> Any:
    """The reports as a :class:`~crdtool.cli.reporters.CheckRun`: a case per CRD and per object.

    Findings at or above ``fail_on`` are errors, ``breaking`` and ``warning`` ones below it warnings,
    ``info`` notes; each points at its line in the new manifest (a schema change at the property's
    schema, or its nearest existing ancestor).
    """
    from crdtool.cli.reporters import Case, CheckRun, Finding

    threshold = severity_rank(fail_on)

    def level(severity: str) -> str:
        if severity_rank(severity) <= threshold:
            return "error"
        return "note" if severity == "info" else "warning"

    cases: list[Case] = []
    for r in reports:
        doc = r.new or r.old
        assert doc is not None
        findings: list[Finding] = []
        for e in r.errors:
            findings.append(Finding(e["type"], "error", e["message"], doc.file, e["line"], e["column"], e["field"]))
        for w in r.warnings:
            findings.append(Finding("Warning", "warning", w, doc.file, doc.line, doc.column))
        for c in r.changes:
            pos = doc.position(_manifest_path(c, doc.data)) if r.new is not None else None
            where = " ".join(x for x in (c.version, c.path) if x)
            findings.append(
                Finding(c.kind, level(c.severity), f"{c.severity}: {where}: {c.message}", doc.file,
                        pos[0] if pos else doc.line, pos[1] if pos else doc.column, c.path)
            )
        failed = (r.accepted is False and threshold >= 0) or any(severity_rank(c.severity) <= threshold for c in r.changes)
        cases.append(Case(r.name, doc.file, doc.line, "failed" if failed else "passed", tuple(findings)))
        for o in r.objects:
            severity = OBJECT_SEVERITY.get(o["status"])
            obj_findings = [
                Finding(e["type"], level(severity or "info"), e["message"], o["file"], e["line"], e["column"], e["field"])
                for e in o["errors"]
            ]
            obj_findings += [
                Finding("Tolerated", "warning", f"tolerated, a create would fail: {e['message']}", o["file"], e["line"], e["column"], e["field"])
                for e in o["ratcheted"]
            ]
            obj_findings += [Finding("ToleratedRule", "warning", f"tolerated while unchanged: {m}", o["file"], o["line"]) for m in o["ratchetedRules"]]
            obj_findings += [Finding("Pruned", "warning", f"pruned on the next write: {p}", o["file"], o["line"], None, p) for p in o["pruned"]]
            who = "/".join(str(x) for x in (o["namespace"], o["name"]) if x)
            outcome = "skipped" if o["status"] == "skipped" else (
                "failed" if severity is not None and severity_rank(severity) <= threshold else "passed"
            )
            cases.append(Case(f"{o['kind']} {who}", o["file"], o["line"], outcome, tuple(obj_findings),
                              note="; ".join(o["warnings"]) if outcome == "skipped" else None))
    total = {s: sum(1 for r in reports for c in r.changes if c.severity == s) for s in SEVERITIES}
    rejected = sum(1 for r in reports if r.accepted is False)
    summary = f"{len(reports)} CRDs: {rejected} updates rejected; changes: " + ", ".join(f"{total[s]} {s}" for s in SEVERITIES)
    return CheckRun(
        command="diff",
        cases=cases,
        render_text=lambda: report_text(reports, fail_on),
        json_payload=lambda: json_payload(reports),
        summary=summary,
    )


def _manifest_path(change: Change, crd: dict[str, Any]) -> str:
    """Where a change is in the new CRD manifest, in the field-path syntax :meth:`Document.position` reads."""
    spec = crd.get("spec") if isinstance(crd.get("spec"), dict) else {}
    versions = spec.get("versions") if isinstance(spec.get("versions"), list) else []
    index = next((i for i, v in enumerate(versions) if isinstance(v, dict) and v.get("name") == change.version), None)
    path = change.path
    if path.startswith("spec.versions[") and index is not None:
        name_end = path.index("]")
        return f"spec.versions[{index}]" + path[name_end + 1:]
    if not path.startswith("."):
        return path
    if isinstance(spec.get("validation"), dict):
        base = "spec.validation.openAPIV3Schema"
    elif index is not None:
        base = f"spec.versions[{index}].schema.openAPIV3Schema"
    else:
        return "spec"
    return base + _schema_steps(path)


def _schema_steps(path: str) -> str:
    """``.spec.a[*].b.*`` -> ``.properties[spec].properties[a].items.properties[b].additionalProperties``."""
    out, i = "", 0
    while i < len(path):
        if path.startswith("[*]", i):
            out += ".items"
            i += 3
        elif path.startswith(".*", i) and (i + 2 == len(path) or path[i + 2] in ".["):
            out += ".additionalProperties"
            i += 2
        elif path.startswith('["', i):
            end = path.index('"]', i + 2)
            out += f".properties[{json.loads(path[i + 1:end + 1])}]"
            i = end + 2
        elif path[i] == ".":
            j = i + 1
            while j < len(path) and path[j] not in ".[":
                j += 1
            if j > i + 1:
                out += f".properties[{path[i + 1:j]}]"
            i = j
        else:
            i += 1
    return out


# --- text -------------------------------------------------------------------------------------

_SEVERITY_STYLE = {"error": "bold red", "breaking": "red", "warning": "yellow", "info": "dim"}
_OBJECT_STYLE = {"rejected": "bold red", "tolerated": "yellow", "pruned": "yellow", "ok": "green", "skipped": "dim"}


def _on(entry: dict[str, Any], r: PairReport) -> str:
    """`` (on 1.30–1.32)`` after an error not every requested release reports."""
    from crdtool.cli.markup import escape

    names = entry.get("kubernetesVersions")
    if not names or r.versions is None or len(names) == len(r.versions):
        return ""
    return f" [dim](on {escape(ranges(names))})[/dim]"


def report_text(reports: list[PairReport], fail_on: str) -> None:
    """Per CRD: the update verdict with its errors at ``file:line:column``, the changes (most severe first), the objects."""
    from crdtool.cli.markup import escape

    out = console()
    for n, r in enumerate(reports):
        if n:
            out.print()
        old = f"{r.old.file}:{r.old.line}" if r.old else "(absent)"
        new = f"{r.new.file}:{r.new.line}" if r.new else "(absent)"
        out.print(f"[bold]{escape(r.name)}[/bold]  {escape(old)} -> {escape(new)}")
        if r.accepted is not None:
            verdict = "[green]accepted[/green]" if r.accepted else "[bold red]rejected[/bold red]"
            stored = f" (status.storedVersions: {', '.join(r.stored_versions)})" if r.stored_versions and r.accepted else ""
            out.print(f"  update: {verdict}{escape(stored)}")
            if r.versions is not None:
                rejected_on = [n for n, v in r.versions.items() if not v["accepted"]]
                if rejected_on and len(rejected_on) < len(r.versions):
                    accepted_on = [n for n, v in r.versions.items() if v["accepted"]]
                    out.print(f"    accepted on {ranges(accepted_on)}; rejected on {ranges(rejected_on)}")
            for e in r.errors:
                where = f"{r.new.file}:{e['line']}:{e['column']}: " if r.new and e["line"] else ""
                out.print(f"    {escape(where)}[red]{escape(e['message'])}[/red]{_on(e, r)}")
            for w in r.warnings:
                out.print(f"    [yellow]warning[/yellow]: {escape(w)}")
        counts = {s: sum(1 for c in r.changes if c.severity == s) for s in SEVERITIES}
        summary = ", ".join(f"{counts[s]} {s}" for s in SEVERITIES if counts[s])
        out.print(f"  changes: {summary or 'none'}")
        order = sorted(range(len(r.changes)), key=lambda i: (severity_rank(r.changes[i].severity), i))
        for i in order:
            c = r.changes[i]
            style = _SEVERITY_STYLE[c.severity]
            version = f"{c.version} " if c.version else ""
            out.print(f"    [{style}]{c.severity:<8}[/] {escape(version + c.path)}: {escape(c.kind)}: {escape(c.message)}")
        if r.objects:
            tally = {s: sum(1 for o in r.objects if o["status"] == s) for s in _OBJECT_STYLE}
            parts = ", ".join(f"{v} {k}" for k, v in tally.items() if v)
            out.print(f"  objects: {len(r.objects)} ({parts})")
            for o in r.objects:
                if o["status"] == "ok":
                    continue
                who = "/".join(str(x) for x in (o["namespace"], o["name"]) if x)
                style = _OBJECT_STYLE[o["status"]]
                out.print(f"    {escape(o['file'])}:{o['line']}: {escape(str(o['kind']))} {escape(who)}: [{style}]{o['status']}[/]")
                for e in o["errors"]:
                    out.print(f"      [red]{escape(e['message'])}[/red]{_on(e, r)}")
                for e in o["ratcheted"]:
                    out.print(f"      tolerated (a create would fail): {escape(e['message'])}")
                for m in o["ratchetedRules"]:
                    out.print(f"      tolerated while unchanged (CEL rule): {escape(m)}")
                for p in o["pruned"]:
                    out.print(f"      pruned on the next write: {escape(p)}")
                for w in o["warnings"]:
                    out.print(f"      [yellow]warning[/yellow]: {escape(w)}")
    total = {s: sum(1 for r in reports for c in r.changes if c.severity == s) for s in SEVERITIES}
    rejected = sum(1 for r in reports if r.accepted is False)
    out.print()
    out.print(
        f"{len(reports)} CRDs: {rejected} updates rejected; changes: "
        + ", ".join(f"{total[s]} {s}" for s in SEVERITIES)
        + f" (failing on {fail_on} and above)"
    )
