"""``crdtool validate``: load documents, judge each CRD and custom resource, report, pick the exit code."""

from __future__ import annotations

import functools
import multiprocessing
import os
import sys
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

from crdtool.cli.inputs import load_inputs
from crdtool.yaml.loader import Document, InputError
from crdtool.yaml.positions import error_position, position_path
from crdtool.cli.report import DocumentResult, OutputFormat, console, validate_run
from crdtool.core.crd.manifest import CRD_API_VERSIONS, check_crd_manifest, is_crd
from crdtool.core.customresource import (
    CustomResourceError,
    PreparedCrd,
    apply_create,
    prepare_crd,
)
from crdtool.core.errors import FieldError, Path, go_quote, invalid
from crdtool.core.releases import DEFAULT_RELEASE, Release


def _str_or_none(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _identity(doc: Document) -> tuple[str | None, str | None, str | None]:
    data = doc.data if isinstance(doc.data, dict) else {}
    meta = data.get("metadata")
    name = _str_or_none(meta.get("name")) if isinstance(meta, dict) else None
    return _str_or_none(data.get("apiVersion")), _str_or_none(data.get("kind")), name


def input_error_result(err: InputError) -> DocumentResult:
    """An unreadable or malformed input as a document in status ``error``."""
    message = f"{err.file}:{err.line}:{err.column}: {err.message}" if err.line else f"{err.file}: {err.message}"
    return DocumentResult(
        file=err.file,
        index=err.index if err.index is not None else 0,
        line=err.line or 0,
        api_version=None,
        kind=None,
        name=None,
        status="error",
        errors=[
            {
                "type": "InputError",
                "field": "",
                "detail": err.message,
                "badValue": None,
                "message": message,
                "line": err.line,
                "column": err.column,
            }
        ],
    )


def judge_document(doc: Document, field_validation: str = "Strict", release: Release = DEFAULT_RELEASE) -> DocumentResult:
    """Judge one loaded document: a CRD (or a ``v1`` List of CRDs, item by item) gets ``release``'s apiserver's verdict.

    Anything else is skipped here (custom resources are judged by :func:`judge_custom_resource`).
    """
    api_version, kind, name = _identity(doc)
    result = DocumentResult(doc.file, doc.index, doc.line, api_version, kind, name, "skipped")
    list_crds = _list_crds(doc.data)
    if list_crds:
        # what `kubectl get crd -o yaml` prints: each item is a CRD create of its own
        for i, item in list_crds:
            _add_crd_findings(doc, item, f"items[{i}]", result, field_validation, release)
        result.status = "invalid" if result.errors else "valid"
        return result
    if not is_crd(doc.data):
        if kind == "CustomResourceDefinition":
            result.note = f"apiVersion {api_version!r} is not one of {', '.join(CRD_API_VERSIONS)}"
        else:
            result.note = "not a CustomResourceDefinition"
        return result
    _add_crd_findings(doc, doc.data, "", result, field_validation, release)
    result.status = "invalid" if result.errors else "valid"
    return result


def _add_crd_findings(
    doc: Document,
    crd: dict[str, Any],
    prefix: str,
    result: DocumentResult,
    field_validation: str = "Strict",
    release: Release = DEFAULT_RELEASE,
) -> None:
    """``check_crd_manifest`` of ``crd`` (the document, or its item at ``prefix``) into ``result``."""
    dups = _duplicates_under(doc.duplicate_keys, prefix)
    verdict = check_crd_manifest(
        crd, field_validation=field_validation, duplicate_fields=dups, kubernetes_version=release.name
    )
    _prefetch_positions(doc, [f.error for f in verdict.findings], prefix)
    for error, upstream_field in ((f.error, f.upstream_field) for f in verdict.findings):
        entry = _error_entry(doc, error, prefix)
        if upstream_field:
            entry["upstreamField"] = f"{prefix}.{upstream_field}" if prefix else upstream_field
        result.errors.append(entry)
    result.warnings.extend(f"{prefix}: {w}" if prefix else w for w in verdict.warnings)


def _list_crds(data: Any) -> list[tuple[int, dict[str, Any]]]:
    """The CRD items of a ``v1`` ``List`` (empty for anything else)."""
    if not isinstance(data, dict) or not _is_list(data):
        return []
    return [(i, item) for i, item in enumerate(data["items"]) if is_crd(item)]


def _has_crds(data: Any) -> bool:
    return is_crd(data) or bool(_list_crds(data))


# --- judging CRDs on every core -------------------------------------------------------

# A worker process judges documents of this list, inherited from the parent by fork
# (no pickling of the loaded data); it is set only inside worker processes.
_WORKER_DOCS: list[Document] = []

# Below this many CRD documents a process pool costs more than it saves.
PARALLEL_MIN_DOCUMENTS = 8


def _init_worker(docs: list[Document]) -> None:
    global _WORKER_DOCS
    _WORKER_DOCS = docs


def _judge_in_worker(field_validation: str, release: Release, index: int) -> DocumentResult:
    return judge_document(_WORKER_DOCS[index], field_validation, release)


def _worker_count(n_docs: int) -> int:
    if n_docs < PARALLEL_MIN_DOCUMENTS or "fork" not in multiprocessing.get_all_start_methods():
        return 1
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        cpus = os.cpu_count() or 1
    return max(1, min(cpus, 8, n_docs // 4))


def judge_documents(
    docs: list[Document], field_validation: str = "Strict", progress: Any = None, release: Release = DEFAULT_RELEASE
) -> list[DocumentResult]:
    """``judge_document`` for each document, in order, spread over the machine's cores.

    Validating large schemas is CPU-bound Python; with several CRDs a pool of
    forked workers (which inherit the loaded documents) divides the wall time
    by the number of cores. Falls back to one process where fork is missing or
    the pool cannot start.
    """
    workers = _worker_count(len(docs))
    if workers <= 1:
        return [_ticked(judge_document(d, field_validation, release), progress) for d in docs]
    try:
        context = multiprocessing.get_context("fork")
        with ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_init_worker, initargs=(docs,)) as pool:
            judge = functools.partial(_judge_in_worker, field_validation, release)
            return [_ticked(r, progress) for r in pool.map(judge, range(len(docs)), chunksize=1)]
    except (OSError, BrokenProcessPool):
        return [_ticked(judge_document(d, field_validation, release), progress) for d in docs]


# --- loading and judging files on every core ----------------------------------------------

# With at least two files and this many bytes in all, each worker process reads, parses and
# judges whole files (parsing is then no longer a serial step before the judging).
PARALLEL_MIN_BYTES = 1 << 20


def _file_size(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


def _load_and_judge_file(
    field_validation: str, skip_kinds: tuple[str, ...], release: Release, path: str
) -> tuple[list[Document | InputError], dict[int, DocumentResult]]:
    """One file's documents, and the verdicts of its CRD documents (by index among them); runs in a worker."""
    from crdtool.cli.selection import load_selected_file

    return _load_and_judge_here(load_selected_file(path), field_validation, skip_kinds, release)


def load_and_judge(
    selected: list[str | InputError],
    field_validation: str = "Strict",
    skip_kinds: list[str] | tuple[str, ...] = (),
    progress: Any = None,
    release: Release = DEFAULT_RELEASE,
) -> tuple[list[Document | InputError], dict[int, DocumentResult]]:
    """The documents of the selected files, in order, and the verdict of each CRD document (by ``id``).

    CRD documents (and Lists holding CRDs) whose kind is not in ``skip_kinds``
    are judged. Large inputs of several files are read, parsed and judged in
    forked worker processes, largest files first, a file per task; stdin and
    small inputs are read here and their CRDs judged by :func:`judge_documents`.
    Falls back to that path when the pool cannot start or breaks.
    """
    files = [(i, s) for i, s in enumerate(selected) if isinstance(s, str) and s != "-"]
    sizes = {i: _file_size(path) for i, path in files}
    workers = _file_worker_count(len(files), sum(sizes.values()))
    if workers > 1:
        try:
            return _load_and_judge_in_pool(
                selected, files, sizes, workers, field_validation, tuple(skip_kinds), progress, release
            )
        except (OSError, BrokenProcessPool):
            pass
    from crdtool.cli.selection import load_selected_file

    items = [doc for entry in selected for doc in load_selected_file(entry, sys.stdin.buffer)]
    crd_docs = [item for item in items if isinstance(item, Document) and _has_crds(item.data)
                and not _kind_skipped(item.data, skip_kinds)]
    if progress is not None:
        progress.set_total(sum(1 for i in items if isinstance(i, Document) and not _kind_skipped(i.data, skip_kinds)))
    return items, dict(zip(map(id, crd_docs), judge_documents(crd_docs, field_validation, progress, release)))


def _file_worker_count(n_files: int, total_bytes: int) -> int:
    if n_files < 2 or total_bytes < PARALLEL_MIN_BYTES or "fork" not in multiprocessing.get_all_start_methods():
        return 1
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        cpus = os.cpu_count() or 1
    return max(1, min(cpus, 8, n_files))


def _load_and_judge_in_pool(
    selected: list[str | InputError],
    files: list[tuple[int, str]],
    sizes: dict[int, int],
    workers: int,
    field_validation: str,
    skip_kinds: tuple[str, ...],
    progress: Any,
    release: Release = DEFAULT_RELEASE,
) -> tuple[list[Document | InputError], dict[int, DocumentResult]]:
    from concurrent.futures import as_completed

    from crdtool.cli.selection import load_selected_file

    per_entry: dict[int, tuple[list[Document | InputError], dict[int, DocumentResult]]] = {}
    if progress is not None:
        progress.set_total(len(selected))
    context = multiprocessing.get_context("fork")
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=context)
    try:
        work = functools.partial(_load_and_judge_file, field_validation, skip_kinds, release)
        futures = {pool.submit(work, path): i for i, path in sorted(files, key=lambda f: -sizes[f[0]])}
        for future in as_completed(futures):
            per_entry[futures[future]] = future.result()
            _tick(progress)
    except BaseException:
        # Ctrl-C (or a crdtool bug in a worker): drop the files not started instead of judging them all first
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown()
    items: list[Document | InputError] = []
    verdicts: dict[int, DocumentResult] = {}
    for i, entry in enumerate(selected):
        if i not in per_entry:  # stdin or a path error: read here
            per_entry[i] = _load_and_judge_here(
                load_selected_file(entry, sys.stdin.buffer), field_validation, skip_kinds, release
            )
            _tick(progress)
        loaded, judged = per_entry[i]
        items.extend(loaded)
        verdicts.update((id(loaded[k]), result) for k, result in judged.items())
    if progress is not None:
        # custom resources are judged next, one tick each
        others = sum(1 for i in items if isinstance(i, Document) and id(i) not in verdicts
                     and not _kind_skipped(i.data, skip_kinds))
        progress.set_total(len(selected) + others)
    return items, verdicts


def _load_and_judge_here(
    items: list[Document | InputError],
    field_validation: str,
    skip_kinds: tuple[str, ...],
    release: Release = DEFAULT_RELEASE,
) -> tuple[list[Document | InputError], dict[int, DocumentResult]]:
    judged = {
        i: judge_document(item, field_validation, release)
        for i, item in enumerate(items)
        if isinstance(item, Document) and _has_crds(item.data) and not _kind_skipped(item.data, skip_kinds)
    }
    return items, judged


def _tick(progress: Any) -> None:
    if progress is not None:
        progress.advance()


def _ticked(result: DocumentResult, progress: Any) -> DocumentResult:
    if progress is not None:
        progress.advance()
    return result


def run(
    paths: list[str],
    output: OutputFormat | str,
    crd_paths: list[str] | None = None,
    field_validation: str = "Strict",
    *,
    quiet: bool = False,
    exclude: list[str] | tuple[str, ...] = (),
    skip_kinds: list[str] | tuple[str, ...] = (),
    exit_zero: bool = False,
    progress: Any = None,
    releases: tuple[Release, ...] = (DEFAULT_RELEASE,),
    explain_cost: bool = False,
) -> int:
    """Validate every document of ``paths``; return 0 valid, 1 invalid, 2 input errors.

    CRDs get the apiserver's verdict on creating them; custom resources are
    checked against the CRDs given with ``--crd`` and those among ``paths``
    (matched by group and kind); other documents are skipped.
    ``field_validation`` (``Strict``, ``Warn``, ``Ignore``) is the
    server-side field validation of the requests: unknown and duplicate
    fields are errors, warnings or nothing. ``output`` names a reporter of
    :data:`crdtool.cli.reporters.REPORTER_BY_NAME`; ``quiet`` shows only
    failures and the summary (text); ``exclude`` drops files by glob;
    documents of ``skip_kinds`` (``Kind`` or ``apiVersion/Kind``) are
    skipped; ``exit_zero`` turns exit 1 into 0 (input errors still exit 2).
    ``progress`` is a :class:`crdtool.cli.progress.DelayedProgress` or None.
    ``releases``: the Kubernetes releases whose apiservers judge (``--kubernetes-version``); with
    several, each document's verdicts are combined (:func:`crdtool.cli.matrix.combine`) and a
    rejection by any of them is a finding.
    ``explain_cost`` adds each CRD's CEL costs (:func:`crdtool.cli.lint.explain_cost_run`).
    """
    from crdtool.cli.reporters import report
    from crdtool.cli.selection import Selection, no_input_message, select_files

    selection = Selection()
    selected = list(select_files(paths, exclude, selection))
    if selection.nothing_found:
        console(stderr=True).print(f"crdtool: {no_input_message(paths)}", markup=False)
        return 2
    if selection.all_excluded:
        console(stderr=True).print(f"crdtool: all {selection.found} input files match --exclude; nothing to validate", markup=False)
    releases = tuple(releases) or (DEFAULT_RELEASE,)
    try:
        flag_items = list(_load_crd_flags(crd_paths or []))
    except NoCrdFound as exc:
        if progress is not None:
            progress.stop()
        console(stderr=True).print(f"crdtool: {exc}", markup=False)
        return 2
    items, crd_results = load_and_judge(selected, field_validation, skip_kinds, progress, releases[0])
    per_release: list[list[DocumentResult]] = []
    for k, release in enumerate(releases):
        if k:  # the documents are loaded once; each further release judges them again
            crd_docs = [item for item in items if isinstance(item, Document) and _has_crds(item.data)
                        and not _kind_skipped(item.data, skip_kinds)]
            crd_results = dict(zip(map(id, crd_docs), judge_documents(crd_docs, field_validation, None, release)))
        per_release.append(
            _results(items, crd_results, flag_items, skip_kinds, field_validation, release, progress if not k else None)
        )
    if len(releases) == 1:
        results = per_release[0]
    else:
        from crdtool.cli.matrix import combine

        results = combine(releases, per_release)
    if progress is not None:
        progress.stop()
    name = output.value if isinstance(output, OutputFormat) else str(getattr(output, "value", output))
    run = validate_run(results, quiet=quiet)
    if explain_cost:
        from crdtool.cli.lint import explain_cost_run

        run = explain_cost_run(run, items, name, releases)
    report(run, name)
    if any(r.status == "error" for r in results):
        return 2
    if any(r.status == "invalid" for r in results):
        return 0 if exit_zero else 1
    return 0


def _results(
    items: list[Document | InputError],
    crd_results: dict[int, DocumentResult],
    flag_items: list[Document | InputError],
    skip_kinds: list[str] | tuple[str, ...],
    field_validation: str,
    release: Release,
    progress: Any,
) -> list[DocumentResult]:
    """Every document's verdict under ``release``: the CRDs' (``crd_results``, by ``id``) and the custom resources'."""
    from crdtool.cli.selection import helm_value_hint

    results: list[DocumentResult] = []
    catalog = CrdCatalog(release)
    for crd_item in flag_items:
        if isinstance(crd_item, InputError):
            results.append(input_error_result(crd_item))
        else:
            catalog.add(crd_item, from_flag=True)
    for item in items:
        if isinstance(item, Document) and is_crd(item.data):
            catalog.add(item, from_flag=False)
        elif isinstance(item, Document):
            for item_doc in _list_crd_documents(item):
                catalog.add(item_doc, from_flag=False)
    skipped = {id(item) for item in items if isinstance(item, Document) and _kind_skipped(item.data, skip_kinds)}
    for item in items:
        if isinstance(item, InputError):
            results.append(input_error_result(item))
        elif id(item) in skipped:
            api_version, kind, name = _identity(item)
            results.append(DocumentResult(item.file, item.index, item.line, api_version, kind, name, "skipped",
                                          note="skipped by --skip-kind"))
        elif is_crd(item.data):
            result = crd_results[id(item)]
            catalog.record_verdict(item, result.status == "valid")
            results.append(result)
        elif id(item) in crd_results:
            results.append(
                _merge_list_results(crd_results[id(item)], judge_custom_resource(item, catalog, field_validation))
            )
        else:
            results.append(judge_custom_resource(item, catalog, field_validation))
            if progress is not None:
                progress.advance()
        if isinstance(item, Document) and item.warnings:
            # the input's own warnings (size limits) come first, whatever the document's verdict
            results[-1].warnings[:0] = item.warnings
        if isinstance(item, Document) and results[-1].status == "invalid":
            hint = helm_value_hint(results[-1].errors)
            if hint:
                results[-1].warnings.insert(0, hint)
    return results


def _kind_skipped(data: dict[str, Any], skip_kinds: list[str] | tuple[str, ...]) -> bool:
    """``data``'s kind is one of ``--skip-kind``'s ``Kind`` or ``apiVersion/Kind`` values."""
    if not skip_kinds:
        return False
    kind, api_version = data.get("kind"), data.get("apiVersion")
    if not isinstance(kind, str):
        return False
    full = f"{api_version}/{kind}" if isinstance(api_version, str) else None
    return any(k == kind or (full is not None and k == full) for k in skip_kinds)


class NoCrdFound(Exception):
    """A ``--crd`` path that could be read holds no CRD (a usage error: exit 2)."""


def _load_crd_flags(crd_paths: list[str]) -> Iterator[Document | InputError]:
    """The CRD documents of the ``--crd`` files, and the CRD items of their Lists (other documents are ignored).

    Raises :class:`NoCrdFound` (once the path is read) for a path without any CRD and without
    input errors: a mistyped ``--crd`` must not turn every custom resource into a silent skip.
    """
    for path in crd_paths:
        found = failed = False
        for item in load_inputs([path], stdin=sys.stdin.buffer):
            if isinstance(item, InputError):
                failed = True
                yield item
            elif is_crd(item.data):
                found = True
                yield item
            else:
                items = _list_crd_documents(item)
                found = found or bool(items)
                yield from items
        if not found and not failed:
            raise NoCrdFound(f"--crd {path}: no apiextensions.k8s.io/v1 or v1beta1 CustomResourceDefinition found")


def _list_crd_documents(doc: Document) -> list[Document]:
    """Each CRD item of a List document as a document of its own (for matching custom resources)."""
    out = []
    for i, item in _list_crds(doc.data):
        pos = doc.position(f"items[{i}]")
        out.append(Document(doc.file, doc.index, pos[0] if pos else doc.line, item))
    return out


def _merge_list_results(crds: DocumentResult, others: DocumentResult) -> DocumentResult:
    """One List's verdict: its CRD items' (``crds``) and its custom resources' (``others``)."""
    if others.status not in ("valid", "invalid"):
        return crds
    crds.errors.extend(others.errors)
    crds.warnings.extend(others.warnings)
    crds.note = others.note
    crds.status = "invalid" if crds.errors else "valid"
    return crds


# --- custom resources ---------------------------------------------------------------


@dataclass
class CrdSource:
    """A CRD document available for custom resources, prepared on first use."""

    doc: Document
    from_flag: bool
    group: str
    kind: str
    versions: tuple[str, ...]
    valid: bool | None = None  # the CRD's own verdict, once known
    prepared: PreparedCrd | None = None
    error: str | None = None  # why it cannot be prepared
    release: Release = DEFAULT_RELEASE

    @property
    def where(self) -> str:
        return f"{self.doc.file}:{self.doc.line}"

    @property
    def name(self) -> str:
        meta = self.doc.data.get("metadata")
        name = meta.get("name") if isinstance(meta, dict) else None
        return name if isinstance(name, str) and name else f"{self.kind}.{self.group}"

    def prepare(self) -> PreparedCrd | None:
        if self.prepared is None and self.error is None:
            try:
                self.prepared = prepare_crd(self.doc.data, self.release.name)
            except CustomResourceError as exc:
                self.error = str(exc)
        return self.prepared

    def is_valid(self) -> bool:
        if self.valid is None:
            self.valid = check_crd_manifest(self.doc.data, storage=False, kubernetes_version=self.release.name).valid
        return self.valid


class CrdCatalog:
    """The CRDs of a run, by group and kind; each is decoded and converted at most once (for one release)."""

    def __init__(self, release: Release = DEFAULT_RELEASE) -> None:
        self.release = release
        self._by_gk: dict[tuple[str, str], list[CrdSource]] = {}
        self._by_doc: dict[int, CrdSource] = {}

    def add(self, doc: Document, *, from_flag: bool) -> None:
        spec = doc.data.get("spec") if isinstance(doc.data.get("spec"), dict) else {}
        names = spec.get("names") if isinstance(spec.get("names"), dict) else {}
        group, kind = spec.get("group"), names.get("kind")
        if not isinstance(group, str) or not isinstance(kind, str):
            return
        listed = spec.get("versions") if isinstance(spec.get("versions"), list) else []
        versions = [v.get("name") for v in listed if isinstance(v, dict)]
        if isinstance(spec.get("version"), str):
            versions.append(spec["version"])
        same = [c for c in self._by_gk.get((group, kind), []) if (c.doc.file, c.doc.index) == (doc.file, doc.index)]
        if same:  # a --crd file also given as an input: one source, prepared once
            self._by_doc[id(doc)] = same[0]
            return
        source = CrdSource(doc, from_flag, group, kind, tuple(v for v in versions if isinstance(v, str)),
                           release=self.release)
        self._by_gk.setdefault((group, kind), []).append(source)
        self._by_doc[id(doc)] = source

    def record_verdict(self, doc: Document, valid: bool) -> None:
        source = self._by_doc.get(id(doc))
        if source is not None:
            source.valid = valid

    def candidates(self, group: str, kind: str) -> list[CrdSource]:
        return self._by_gk.get((group, kind), [])

    def find(self, obj: dict[str, Any], file: str) -> tuple[CrdSource | None, int]:
        """The best CRD for ``obj`` and how many CRDs define its group and kind.

        Preference: ``--crd`` files, then the object's own file, then CRDs
        that define the object's version, then input order.
        """
        api_version, kind = obj.get("apiVersion"), obj.get("kind")
        if not isinstance(api_version, str) or not isinstance(kind, str) or "/" not in api_version:
            return None, 0
        group, _, version = api_version.rpartition("/")
        found = self.candidates(group, kind)
        if not found:
            return None, 0
        ranked = sorted(
            range(len(found)),
            key=lambda i: (not found[i].from_flag, found[i].doc.file != file, version not in found[i].versions, i),
        )
        return found[ranked[0]], len(found)


def _is_list(data: dict[str, Any]) -> bool:
    return data.get("kind") == "List" and data.get("apiVersion") == "v1" and isinstance(data.get("items"), list)


def judge_custom_resource(doc: Document, catalog: CrdCatalog, field_validation: str = "Strict") -> DocumentResult:
    """Judge a non-CRD document: a custom resource (or a ``v1`` List of them) against its CRD, else skipped."""
    api_version, kind, name = _identity(doc)
    result = DocumentResult(doc.file, doc.index, doc.line, api_version, kind, name, "skipped")
    if _is_list(doc.data):
        objects = [
            (f"items[{i}]", item) for i, item in enumerate(doc.data["items"]) if isinstance(item, dict) and not is_crd(item)
        ]
    else:
        objects = [("", doc.data)]
    checked = 0
    notes: list[str] = []
    for prefix, obj in objects:
        source, count = catalog.find(obj, doc.file)
        if source is None:
            continue
        problem = _check_object(doc, prefix, obj, source, result, field_validation)
        if problem:
            notes.append(problem)
            continue
        checked += 1
        if count > 1:
            notes.append(f"{count} CRDs define {obj.get('kind')}.{source.group}; checked against {source.where}")
    if not checked and not result.errors:
        result.note = "; ".join(dict.fromkeys(notes)) or _skip_note(doc.data, kind)
        return result
    result.status = "invalid" if result.errors else "valid"
    result.note = "; ".join(dict.fromkeys(notes)) or None
    return result


def _skip_note(data: dict[str, Any], kind: str | None) -> str:
    api_version = data.get("apiVersion")
    if isinstance(api_version, str) and "/" in api_version and kind:
        group = api_version.rpartition("/")[0]
        return f"no CRD for {kind}.{group} among the inputs (give it with --crd)"
    return "not a CustomResourceDefinition"


def _check_object(
    doc: Document, prefix: str, obj: dict[str, Any], source: CrdSource, result: DocumentResult, field_validation: str = "Strict"
) -> str | None:
    """Validate one object against ``source``, adding its errors and warnings to ``result``.

    Returns None when the object was checked, else why it could not be (the CRD
    cannot be decoded or served): the object then counts as skipped.
    """
    prepared = source.prepare()
    if prepared is None:
        return f"CRD {source.name} ({source.where}) cannot be used: {source.error}"
    dups = _duplicates_under(doc.duplicate_keys, prefix)
    try:
        outcome = apply_create(obj, prepared, duplicate_fields=dups, field_validation=field_validation)
        errors, warnings = outcome.errors, outcome.warnings
    except CustomResourceError as exc:
        if exc.reason not in ("unknown-version", "not-served"):
            return f"cannot be checked against CRD {source.name} ({source.where}): {exc}"
        errors, warnings = [invalid(Path("apiVersion"), obj.get("apiVersion"), str(exc))], []
    _prefetch_positions(doc, errors, prefix)
    for error in errors:
        result.errors.append(_error_entry(doc, error, prefix))
    result.warnings.extend(warnings)
    if not source.is_valid():
        result.warnings.append(
            f"CRD {source.name} ({source.where}) is itself invalid: the apiserver would not create it"
        )
    return None


def _duplicates_under(paths: list[str], prefix: str) -> list[str]:
    if not prefix:
        return list(paths)
    head = prefix + "."
    return [p[len(head):] for p in paths if p.startswith(head)]


def _entry_path(error: FieldError, prefix: str) -> str:
    """The path ``error`` applies to in its document (its field under a List item's ``items[i]``)."""
    return f"{prefix}.{error.field}" if prefix and error.field else (prefix or error.field)


def _prefetch_positions(doc: Document, errors: list[FieldError], prefix: str) -> None:
    """Find the positions :func:`_error_entry` will show for ``errors``, in one pass over the document."""
    if errors:
        doc.prefetch_positions(
            position_path(doc, path, e) for e in errors if e.field != "<nil>" and (path := _entry_path(e, prefix))
        )


def _error_entry(doc: Document, error: FieldError, prefix: str) -> dict[str, Any]:
    entry = error.to_dict()
    if error.field == "<nil>":
        # upstream's nil path: the object itself (root CEL rules, hasBlockingErr, kube-openapi's field-less
        # errors), shown at the object: the document, or its List item
        pos = error_position(doc, prefix, error) if prefix else (doc.line, doc.column)
        entry["line"], entry["column"] = pos if pos else (None, None)
        return entry
    path = _entry_path(error, prefix)
    if prefix:
        entry["field"] = path
        entry["message"] = f"{path}: {error.body()}" if type(error) is FieldError else str(error).replace(
            go_quote(error.field), go_quote(path), 1
        )
    pos = error_position(doc, path, error) if path else (doc.line, doc.column)
    entry["line"], entry["column"] = pos if pos else (None, None)
    return entry
