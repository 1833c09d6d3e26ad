"""``crdtool validate``: load documents, judge each CRD and custom resource, report, pick the exit code.

Judging runs on ``--jobs`` worker processes (default: one per core; ``--jobs 1``
judges in this process), and the report is the same whatever their number:

* several files of at least :data:`PARALLEL_MIN_BYTES` in all are read, parsed
  and their CRDs judged in forked workers, a file per task;
* a YAML stream of at least :data:`STREAM_MIN_BYTES` (a file, or stdin) with
  several documents is read document by document (:mod:`crdtool.yaml.stream`):
  never held whole, its documents go to the workers in batches and come back
  judged, in order (:func:`_judge_stream`);
* one large YAML file without CRDs, its inputs loaded whole (the checks across the bundle, the default), is
  cut into its documents, and this process and the workers load and judge runs of them (:func:`_judge_split_file`);
* a ``v1`` ``List`` with many custom resources (``kubectl get -A -o yaml``) has
  its items judged by the workers, in ranges (:func:`judge_custom_resource`).

Custom resources are judged against a catalog of every CRD of the run
(``--crd`` and the inputs), built first; the positions of a document's errors
are found in one pass over it, however many there are.
"""

from __future__ import annotations

import contextlib
import functools
import os
import re
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any, BinaryIO

from crdtool.cli.report import DocumentResult, OutputFormat, ResultLog, console, validate_run
from crdtool.core.crd.manifest import CRD_API_VERSIONS, check_crd_manifest, is_crd
from crdtool.core.errors import FieldError, Path, go_quote, invalid
from crdtool.core.releases import DEFAULT_RELEASE, Release
from crdtool.yaml.loader import Document, InputError
from crdtool.yaml.positions import error_position, position_path

#: Where a document sits among the inputs: (input number, document number within the input). The catalog
#: answers "is this CRD valid?" as known at that point of the input (see :meth:`CrdSource.is_valid`).
At = tuple[int, int]

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
    The positions of all the document's errors are found in one pass over it.
    """
    api_version, kind, name = _identity(doc)
    result = DocumentResult(doc.file, doc.index, doc.line, api_version, kind, name, "skipped")
    list_crds = _list_crds(doc.data)
    if list_crds:
        # what `kubectl get crd -o yaml` prints: each item is a CRD create of its own
        verdicts = [(f"items[{i}]", _crd_verdict(doc, item, f"items[{i}]", field_validation, release)) for i, item in list_crds]
        _prefetch_all(doc, [(prefix, f.error) for prefix, verdict in verdicts for f in verdict.findings])
        statuses: list[str | None] = [None] * len(doc.data["items"])
        for (i, item), (prefix, verdict) in zip(list_crds, verdicts):
            _add_crd_findings(doc, verdict, prefix, result)
            statuses[i] = "invalid" if verdict.findings else "valid"
            if verdict.findings and result.api_status is None:
                result.api_status = _crd_api_status(item, verdict)
        if result.api_status is None:
            result.api_status = _crd_api_status({}, verdicts[0][1])
        result.item_statuses = statuses  # type: ignore[assignment] # the other items: judge_custom_resource's
        result.status = "invalid" if result.errors else "valid"
        return result
    if not is_crd(doc.data):
        if kind == "CustomResourceDefinition":
            result.note = f"apiVersion {api_version!r} is not one of {', '.join(CRD_API_VERSIONS)}"
        else:
            result.note = "not a CustomResourceDefinition"
        return result
    verdict = _crd_verdict(doc, doc.data, "", field_validation, release)
    _prefetch_all(doc, [("", f.error) for f in verdict.findings])
    _add_crd_findings(doc, verdict, "", result)
    result.api_status = _crd_api_status(doc.data, verdict)
    result.status = "invalid" if result.errors else "valid"
    return result


def _crd_verdict(
    doc: Document, crd: dict[str, Any], prefix: str, field_validation: str, release: Release = DEFAULT_RELEASE
) -> Any:
    """``check_crd_manifest`` of ``crd`` (the document, or its item at ``prefix``) under ``release``."""
    dups = _duplicates_under(doc.duplicate_keys, prefix)
    return check_crd_manifest(
        crd, field_validation=field_validation, duplicate_fields=dups, kubernetes_version=release.name
    )


def _crd_api_status(crd: dict[str, Any], verdict: Any) -> dict[str, Any]:
    """The ``metav1.Status`` of creating the CRD ``crd`` with ``verdict``'s findings.

    A ``v1beta1`` CRD is judged by crdtool as the apiserver judged it before 1.22, but no supported release serves
    ``apiextensions.k8s.io/v1beta1``: kubectl gets the RESTMapper's ``no matches for kind`` (404 ``NotFound``)
    before any request, whatever the content.
    """
    from crdtool.core.apistatus import for_create, not_found
    from crdtool.core.builtin.serving import not_served_message

    api_version = crd.get("apiVersion") if isinstance(crd.get("apiVersion"), str) else "apiextensions.k8s.io/v1"
    if api_version == "apiextensions.k8s.io/v1beta1":
        return not_found(not_served_message("CustomResourceDefinition", api_version))
    meta = crd.get("metadata") if isinstance(crd.get("metadata"), dict) else {}
    name = meta.get("name") if isinstance(meta.get("name"), str) else ""
    errors = [replace(f.error, field=f.upstream_field) if f.upstream_field else f.error for f in verdict.findings]
    return for_create("apiextensions.k8s.io", api_version.rpartition("/")[2], "CustomResourceDefinition", name, errors)


def _add_crd_findings(doc: Document, verdict: Any, prefix: str, result: DocumentResult) -> None:
    """A CRD verdict's errors (positions prefetched) and warnings into ``result``."""
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


def _judge_releases_in_worker(field_validation: str, releases: tuple[Release, ...], index: int) -> list[DocumentResult]:
    doc = _WORKER_DOCS[index]
    return [judge_document(doc, field_validation, release) for release in releases]


def judge_documents_matrix(
    docs: list[Document],
    field_validation: str,
    releases: tuple[Release, ...],
    jobs: int | None = None,
    progress: Any = None,
) -> list[list[DocumentResult]]:
    """``judge_document`` of each document under each release: ``out[k][i]`` is ``docs[i]`` under ``releases[k]``.

    A document is judged under every release in a row (a task per document on the ``jobs`` forked workers):
    what the releases share for it -- its structural schemas (:mod:`crdtool.core.content_memo`),
    its rules compiled where the environments agree -- is computed once.
    """
    if not releases:
        return []
    workers = _worker_count(len(docs), jobs)
    rows: list[list[DocumentResult]] | None = None
    if workers > 1:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor
        from concurrent.futures.process import BrokenProcessPool

        try:
            context = multiprocessing.get_context("fork")
            with ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_init_worker,
                                     initargs=(docs,)) as pool:
                judge = functools.partial(_judge_releases_in_worker, field_validation, releases)
                rows = [_ticked_row(row, progress, _crd_weight(d))
                        for d, row in zip(docs, pool.map(judge, range(len(docs)), chunksize=1))]
        except (OSError, BrokenProcessPool):
            rows = None
    if rows is None:
        rows = [_ticked_row([judge_document(d, field_validation, release) for release in releases], progress,
                            _crd_weight(d)) for d in docs]
    return [[row[k] for row in rows] for k in range(len(releases))]


def _ticked_row(row: list[DocumentResult], progress: Any, n: int) -> list[DocumentResult]:
    _tick(progress, n)
    return row


def _worker_count(n_docs: int, jobs: int | None = None) -> int:
    from crdtool.cli.jobs import resolve_jobs

    if n_docs < PARALLEL_MIN_DOCUMENTS:
        return 1
    return max(1, min(resolve_jobs(jobs), n_docs // 4))


def judge_documents(
    docs: list[Document],
    field_validation: str = "Strict",
    progress: Any = None,
    jobs: int | None = None,
    release: Release = DEFAULT_RELEASE,
) -> list[DocumentResult]:
    """``judge_document`` for each document, in order, spread over ``jobs`` processes (default: the cores).

    Validating large schemas is CPU-bound Python; with several CRDs a pool of
    forked workers (which inherit the loaded documents) divides the wall time
    by the number of cores. Falls back to one process where fork is missing or
    the pool cannot start.
    """
    return judge_documents_matrix(docs, field_validation, (release,), jobs, progress)[0]


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
    field_validation: str, skip_kinds: tuple[str, ...], releases: tuple[Release, ...], path: str
) -> tuple[list[Document | InputError], dict[int, list[DocumentResult]]]:
    """One file's documents, and the verdicts of its CRD documents under each release (by index among them);
    runs in a worker."""
    from crdtool.cli.selection import load_selected_file

    return _load_and_judge_here(load_selected_file(path), field_validation, skip_kinds, releases)


def _load_and_judge_files(
    field_validation: str, skip_kinds: tuple[str, ...], releases: tuple[Release, ...], paths: list[str]
) -> list[tuple[list[Document | InputError], dict[int, list[DocumentResult]]]]:
    """:func:`_load_and_judge_file` of several small files in one worker task (one round trip for all)."""
    return [_load_and_judge_file(field_validation, skip_kinds, releases, path) for path in paths]


#: Files are sent to the workers in batches of about this many bytes (a big file alone): a task's round trip
#: (submit, pickle the documents back) costs more than loading a small file, so thousands of one-document files
#: one task each made ``--jobs 2`` slower than ``--jobs 1``.
_BATCH_BYTES = 64 * 1024
_BATCH_FILES = 64


def _batches(files: list[tuple[int, str]], sizes: dict[int, int], workers: int) -> list[list[tuple[int, str]]]:
    """``files`` (index, path) grouped for the pool, biggest first: each batch up to :data:`_BATCH_BYTES` (or
    :data:`_BATCH_FILES` files), and at least ``4 × workers`` batches when there are files enough, so the work
    stays balanced."""
    ordered = sorted(files, key=lambda f: -sizes[f[0]])
    total = sum(sizes[i] for i, _ in ordered)
    limit = max(1, min(_BATCH_BYTES, total // max(1, 4 * workers)))
    out: list[list[tuple[int, str]]] = []
    current: list[tuple[int, str]] = []
    held = 0
    for entry in ordered:
        if current and (held + sizes[entry[0]] > limit or len(current) >= _BATCH_FILES):
            out.append(current)
            current, held = [], 0
        current.append(entry)
        held += sizes[entry[0]]
    if current:
        out.append(current)
    return out


def load_and_judge(
    selected: list[str | InputError],
    field_validation: str = "Strict",
    skip_kinds: list[str] | tuple[str, ...] = (),
    progress: Any = None,
    jobs: int | None = None,
    stdin: BinaryIO | None = None,
    release: Release = DEFAULT_RELEASE,
) -> tuple[list[Document | InputError], dict[int, DocumentResult]]:
    """The documents of the selected files, in order, and the verdict of each CRD document (by ``id``)
    under ``release``.

    CRD documents (and Lists holding CRDs) whose kind is not in ``skip_kinds``
    are judged. Large inputs of several files are read, parsed and judged in
    ``jobs`` forked worker processes, largest files first, a file per task;
    stdin (``stdin``, default ``sys.stdin.buffer``) and small inputs are read
    here and their CRDs judged by :func:`judge_documents`. Falls back to that
    path when the pool cannot start or breaks.
    """
    per_entry, verdicts = _load_entries(selected, field_validation, skip_kinds, progress, jobs, stdin, (release,))
    return [item for items in per_entry for item in items], {k: v[0] for k, v in verdicts.items()}


def _load_entries(
    selected: list[str | InputError],
    field_validation: str,
    skip_kinds: list[str] | tuple[str, ...],
    progress: Any,
    jobs: int | None,
    stdin: BinaryIO | None,
    releases: tuple[Release, ...] = (DEFAULT_RELEASE,),
    while_loading: Callable[[], None] | None = None,
) -> tuple[list[list[Document | InputError]], dict[int, list[DocumentResult]]]:
    """:func:`load_and_judge`, the documents kept by entry of ``selected``, each CRD document judged under every
    release of ``releases`` in a row (its verdicts in their order). ``while_loading``: work of this process to
    do while workers load a large file (:func:`_load_split`), if they do."""
    from crdtool.cli.jobs import resolve_jobs

    files = [(i, s) for i, s in enumerate(selected) if isinstance(s, str) and s != "-"]
    # one job: neither the sizes (to share files out) nor _load_split's stat of each file are wanted
    parallel = resolve_jobs(jobs) > 1
    sizes = {i: _file_size(path) for i, path in files} if parallel else {}
    workers = _file_worker_count(len(files), sum(sizes.values()), jobs) if parallel else 1
    if workers > 1:
        from crdtool.cli.jobs import WorkerLost

        try:
            return _load_and_judge_in_pool(selected, files, sizes, workers, field_validation, tuple(skip_kinds),
                                           progress, stdin, releases)
        except (OSError, WorkerLost):
            pass
    from crdtool.cli.selection import load_selected_file

    hook = [while_loading]

    def started() -> None:  # once, for the first file the workers load
        if hook[0] is not None:
            hook[0], work = None, hook[0]
            work()

    per_entry = [(parallel and _load_split(entry, jobs, started)) or load_selected_file(entry, stdin or sys.stdin.buffer)
                 for entry in selected]
    items = [item for loaded in per_entry for item in loaded]
    crd_docs = [item for item in items if isinstance(item, Document) and _has_crds(item.data)
                and not _kind_skipped(item.data, skip_kinds)]
    if progress is not None:
        progress.set_total(sum(_weight(i) for i in items if isinstance(i, Document) and not _kind_skipped(i.data, skip_kinds)))
    per_release = judge_documents_matrix(crd_docs, field_validation, releases, jobs, progress)
    return per_entry, {id(d): [verdicts[n] for verdicts in per_release] for n, d in enumerate(crd_docs)}


#: A file of at least this size is loaded by the workers, its documents shared out (:func:`_load_split`).
SPLIT_MIN_BYTES = 256 << 10
#: Bytes of a file's documents per worker task in :func:`_load_split`.
SPLIT_TASK_BYTES = 64 << 10


def _load_split(
    entry: str | InputError, jobs: int | None, started: Callable[[], None] | None = None
) -> list[Document | InputError] | None:
    """:func:`~crdtool.cli.selection.load_selected_file` of one large YAML file, its documents loaded on
    ``jobs`` forked workers; None to load it here (one job, a small file, stdin, JSON, UTF-16/32, unreadable,
    fewer than :data:`PARALLEL_MIN_DOCUMENTS` chunks).

    The file is split here into kubectl's chunks (:func:`crdtool.yaml.stream.split_file`, the chunks the
    loader loads in turn), the workers load consecutive runs of them (:func:`~crdtool.yaml.stream.load_chunk`)
    and send the documents back; they are numbered here, in order, and their Helm hints given as
    ``load_selected_file`` gives them: the same list (tests/cli/test_validate_jobs_loaded.py compares them).
    ``started``: run here while the workers load.
    """
    from crdtool.cli.jobs import batches, ordered_map, paused_gc, resolve_jobs

    if not isinstance(entry, str) or entry == "-" or _file_size(entry) < SPLIT_MIN_BYTES:
        return None
    workers = resolve_jobs(jobs)
    if workers < 2:
        return None
    from dataclasses import replace as _replace

    from crdtool.cli.selection import HelmHinter
    from crdtool.yaml.loader import MAX_INPUT_BYTES, read_path
    from crdtool.yaml.stream import load_chunk, split_file

    try:
        raw = read_path(entry, MAX_INPUT_BYTES + 1)
    except OSError:
        return None
    chunks = split_file(raw)
    del raw
    if chunks is None or len(chunks) < PARALLEL_MIN_DOCUMENTS:
        return None  # not YAML split this way; or a few documents (a big List): nothing to share out

    def load_run(numbers: list[int]) -> list[Any]:
        with paused_gc():
            return [load_chunk(chunks[k], entry) for k in numbers]

    out: list[Document | InputError] = []
    hint = HelmHinter()
    index = 0
    # every task submitted at once (they are lists of numbers, and every document is kept anyway): the workers
    # never wait for this process, busy with ``started`` and the documents that come back
    tasks = list(batches(range(len(chunks)), lambda k: chunks[k].size, SPLIT_TASK_BYTES))
    from concurrent.futures.process import BrokenProcessPool

    try:
        with paused_gc():
            received = list(ordered_map(load_run, tasks, workers, in_flight=-(-len(tasks) // workers),
                                        started=started))
    except (OSError, BrokenProcessPool):  # no processes to be had (or one killed): loaded here instead
        return None
    for loaded in received:
        for one in loaded:
            item = one.item
            if one.takes_index:
                item = _replace(item, index=index)
                index += 1
            if isinstance(item, InputError):
                item = hint(item)
            if item is not None:
                out.append(item)
    return out


#: Bytes of a file's documents per worker task in :func:`_judge_split_file`, at most: the tasks shrink towards
#: the end of the file (a share of what is left each, down to an eighth of this) so that the workers finish
#: together, without a task per document for the rest.
SPLIT_JUDGE_TASK_BYTES = 64 << 10


def _shrinking_runs(sizes: list[int], jobs: int, most: int) -> list[list[int]]:
    """``range(len(sizes))`` cut into runs of consecutive numbers, each of about the bytes left over ``4 × jobs``
    (``sizes``: each chunk's), between ``most // 8`` and ``most``."""
    left = sum(sizes)
    runs: list[list[int]] = []
    run: list[int] = []
    held = 0
    limit = max(most // 8, min(most, left // (4 * jobs)))
    for k, size in enumerate(sizes):
        run.append(k)
        held += size
        if held >= limit:
            runs.append(run)
            left -= held
            run, held = [], 0
            limit = max(most // 8, min(most, left // (4 * jobs)))
    if run:
        runs.append(run)
    return runs


def _judge_split_file(
    entry: str | InputError,
    flag_items: list[Document | InputError],
    field_validation: str,
    skip_kinds: tuple[str, ...],
    progress: Any,
    jobs: int,
    release: Release,
) -> tuple[list[DocumentResult], list[Document | InputError | None]] | None:
    """The results of one large YAML file without CRDs (``--crd``'s input errors first) and its documents, in
    order (None for a document the checks across the bundle do not read: :func:`crdtool.core.bundle.takes_part`):
    this process and ``jobs - 1`` forked workers load and judge runs of the file's chunks
    (:func:`~crdtool.cli.jobs.ordered_map` with ``here``: this process takes the next run whenever the answer
    awaited is not in); None to judge it the usual way (:func:`_load_entries`, then the custom resources): one
    job, a small file, stdin, JSON, UTF-16/32, unreadable, fewer than :data:`PARALLEL_MIN_DOCUMENTS` chunks, a
    chunk that may hold a CRD (:data:`_CRD_MARK`: the catalog must hold every CRD before any custom resource is
    judged), or no worker to be had.

    The catalog holds ``--crd``'s CRDs, prepared here before the fork when the file names their kind (their CEL
    rules compiled by each process as its objects reach them); whether a CRD is itself valid is settled here
    once the workers have their first runs, its answer given to the results here (:class:`_InvalidCrdWarning`).
    The chunks are those :func:`_load_split` shares out; document indexes and Helm hints are given here, in
    order, as the results come back: the results are those of loading the file whole and judging its documents
    one after another (tests/cli/test_validate_split.py compares them). A worker that meets a CRD after all (a kind spelt
    with YAML escapes) gives None too.
    """
    from crdtool.cli.jobs import WorkerLost, ordered_map, paused_gc

    if jobs < 2 or not isinstance(entry, str) or entry == "-" or _file_size(entry) < SPLIT_MIN_BYTES:
        return None
    from crdtool.cli.selection import HelmHinter
    from crdtool.core.bundle import takes_part
    from crdtool.yaml.loader import MAX_INPUT_BYTES, read_path
    from crdtool.yaml.stream import load_chunk, split_file

    try:
        raw = read_path(entry, MAX_INPUT_BYTES + 1)
    except OSError:
        return None
    if _CRD_MARK in raw:
        return None
    chunks = split_file(raw)
    if chunks is None or len(chunks) < PARALLEL_MIN_DOCUMENTS:
        return None
    ctx, flag_errors = _judging_context(0, {}, {}, {}, flag_items, field_validation, skip_kinds, 1, release)
    # the CRDs the file's custom resources may need: those whose kind it names (any other is prepared when needed)
    needed = [source for source in ctx.catalog.sources() if source.kind.encode() in raw]
    del raw
    for source in needed:
        # what the first custom resource of each worker would do, but compiling the CEL rules: each process
        # compiles those its objects reach (the HTTPRoute CRD's objects of the benchmark reach 21 rules of 60),
        # this one all of them anyway as it settles the CRDs' validity (below), after the fork
        source.warm(validity=False, compiled=False)
    ctx.defer_validity = True
    validity: list[bool] = []

    def settle_validity() -> None:
        """Whether they are valid themselves, settled here once the workers have their first runs (``started``):
        after the preparation, whose structural schemas the checks find in their memos; compiling every CEL rule
        (which this process's own custom resources then find in the compile memo). The HTTPRoute CRD's: ~0.1 s,
        0.18 s from nothing."""
        validity.extend(source.is_valid() for source in needed)

    def settle() -> None:
        for source, valid in zip(needed, validity):
            source.valid = valid

    def judge_run(numbers: list[int]) -> list[tuple[bool, Document | InputError | None, DocumentResult | None]]:
        out: list[tuple[bool, Document | InputError | None, DocumentResult | None]] = []
        with paused_gc():
            # the run's chunks all loaded, then judged: loading and judging in turn, document by document, made
            # the file's --jobs 2 ~3% slower (each evicting the other's code and data from the core's caches;
            # 10 alternating runs of each, twice)
            for k, loaded in [(k, load_chunk(chunks[k], entry)) for k in numbers]:
                item, result = loaded.item, None
                if isinstance(item, Document):
                    if _has_crds(item.data):
                        raise _CrdOutsideTheCatalog(f"{entry}:{chunks[k].line}: a CRD the split did not see")
                    result = _judge_item(item, ctx, (0, k), None, None, 1, deferring=True)
                    if not takes_part(item.data):
                        item = None  # nothing the checks across the bundle read: not sent back
                out.append((loaded.takes_index, item, result))
        return out

    if progress is not None:
        progress.set_total(sum(1 for c in chunks if not c.empty))
    tasks = _shrinking_runs([c.size for c in chunks], jobs, SPLIT_JUDGE_TASK_BYTES)
    results: list[DocumentResult] = list(flag_errors)
    items: list[Document | InputError | None] = []
    hint = HelmHinter()
    index = 0
    try:
        # this process judges too, whenever the answer awaited is not in: one worker fewer to fork, and none of
        # its own answers pickled
        for answers in ordered_map(judge_run, tasks, jobs, in_flight=3, here=True, started=settle_validity):
            settle()
            for takes_index, item, result in answers:
                if isinstance(item, InputError):
                    if takes_index:
                        item = replace(item, index=index)
                        index += 1
                    hinted = hint(item)
                    _tick(progress)
                    if hinted is not None:
                        items.append(hinted)
                        results.append(input_error_result(hinted))
                    continue
                if result is None:
                    _tick(progress)  # a null document: counted with the chunks
                    continue
                if takes_index:
                    result.index = index
                    if item is not None:
                        item = replace(item, index=index)
                    index += 1
                result = _resolve_warnings(result, ctx.catalog)
                counted = len(result.item_statuses) if result.item_statuses else 1
                if progress is not None and counted > 1:  # a List: its items count, not the chunk
                    progress.set_total((progress.total or 0) + counted - 1)
                _tick(progress, counted)
                items.append(item)
                results.append(result)
    except (_CrdOutsideTheCatalog, OSError, WorkerLost):
        if progress is not None:
            progress.done = 0
        return None
    return results, items


def _file_worker_count(n_files: int, total_bytes: int, jobs: int | None = None) -> int:
    from crdtool.cli.jobs import resolve_jobs

    if n_files < 2 or total_bytes < PARALLEL_MIN_BYTES:
        return 1
    return max(1, min(resolve_jobs(jobs), n_files))


def _load_and_judge_in_pool(
    selected: list[str | InputError],
    files: list[tuple[int, str]],
    sizes: dict[int, int],
    workers: int,
    field_validation: str,
    skip_kinds: tuple[str, ...],
    progress: Any,
    stdin: BinaryIO | None = None,
    releases: tuple[Release, ...] = (DEFAULT_RELEASE,),
) -> tuple[list[list[Document | InputError]], dict[int, list[DocumentResult]]]:
    """:func:`_load_entries` over ``workers`` processes: this one and ``workers - 1`` forked workers load and judge
    batches of ``files`` (:func:`_batches`, biggest first; :func:`~crdtool.cli.jobs.completed_map`: the workers
    take them from the front, this process from the back). This process judges its share without pickling it,
    and has imported most of what judging the custom resources needs by the time they are judged. Raises
    :class:`~crdtool.cli.jobs.WorkerLost` or ``OSError`` when the workers fail (the caller then loads the files
    here)."""
    import gc

    from crdtool.cli.jobs import completed_map
    from crdtool.cli.selection import load_selected_file

    per_entry: dict[int, tuple[list[Document | InputError], dict[int, list[DocumentResult]]]] = {}
    if progress is not None:
        progress.set_total(len(selected))

    def work(batch: list[tuple[int, str]]) -> list[tuple[list[Document | InputError], dict[int, list[DocumentResult]]]]:
        return _load_and_judge_files(field_validation, skip_kinds, releases, [path for _, path in batch])

    # the documents loaded here or received all live on: the collector's young generation is collected rarely
    # meanwhile, here and in the workers (which inherit the setting at the fork), and all of them are moved out of
    # its sight after (the first young collection after would walk all of them, ~50 ms over
    # ../shared/corpus/crds, in the serial part after the workers)
    with _rare_cyclic_gc():
        imported = False
        for batch, results in completed_map(work, _batches(files, sizes, workers), workers):
            for (i, _), result in zip(batch, results):
                per_entry[i] = result
                if not imported and any(isinstance(item, Document) and not is_crd(item.data) for item in result[0]):
                    imported = True
                    _import_object_judging()
            _tick(progress, len(batch))
        gc.freeze()
    entries: list[list[Document | InputError]] = []
    verdicts: dict[int, list[DocumentResult]] = {}
    for i, entry in enumerate(selected):
        if i not in per_entry:  # stdin or a path error: read here
            per_entry[i] = _load_and_judge_here(load_selected_file(entry, stdin or sys.stdin.buffer), field_validation,
                                                skip_kinds, releases)
            _tick(progress)
        loaded, judged = per_entry[i]
        entries.append(loaded)
        verdicts.update((id(loaded[k]), result) for k, result in judged.items())
    if progress is not None:
        # custom resources are judged next, one tick each
        others = sum(_weight(i) - _crd_weight(i) for items in entries for i in items
                     if isinstance(i, Document) and not _kind_skipped(i.data, skip_kinds))
        progress.set_total(len(selected) + others)
    return entries, verdicts


def _import_object_judging() -> None:
    """Import what judging the documents that are not CRDs needs (built-in kinds, custom resources), as the first
    such document is loaded (here or by a file worker): they are judged after all the files, in this process,
    and the imports are then out of that serial part (~0.03 s over ``../shared/corpus/crds``). Imports only: no
    result changes."""
    import crdtool.core.apis.core.validation  # noqa: F401  (ObjectMeta's checks, every built-in kind's)
    import crdtool.core.crd.conversion  # noqa: F401  (preparing a CRD for its custom resources)
    import crdtool.core.crd.defaults  # noqa: F401
    import crdtool.core.customresource  # noqa: F401
    import crdtool.core.registry.create  # noqa: F401
    import crdtool.core.validation.compiled_validation  # noqa: F401


@contextlib.contextmanager
def _rare_cyclic_gc() -> Iterator[None]:
    """:func:`_without_cyclic_gc` for a while, the collector's thresholds as they were afterwards."""
    import gc

    was = gc.get_threshold()
    _without_cyclic_gc()
    try:
        yield
    finally:
        gc.set_threshold(*was)


def _without_cyclic_gc() -> None:
    """While files are loaded and judged (:func:`_rare_cyclic_gc`, here and in the file workers, which inherit it at
    the fork): the cyclic garbage collector's youngest generation collected every 100,000 allocations instead of
    700 (``gc.set_threshold``).

    Its young-generation collections scan every document and schema model still being built: ~3 % of a
    worker's time on ``../shared/corpus/crds`` (issue #28, point 4). Not off: judging does make cyclic garbage
    (~110,000 unreachable objects over ``../shared/corpus``, ~36 per document), which a worker given a large
    input set must still free. What is collected, and when, changes no result.
    """
    import gc

    gc.set_threshold(100_000, 10, 10)


def _load_and_judge_here(
    items: list[Document | InputError],
    field_validation: str,
    skip_kinds: tuple[str, ...],
    releases: tuple[Release, ...] = (DEFAULT_RELEASE,),
) -> tuple[list[Document | InputError], dict[int, list[DocumentResult]]]:
    judged = {
        i: [judge_document(item, field_validation, release) for release in releases]
        for i, item in enumerate(items)
        if isinstance(item, Document) and _has_crds(item.data) and not _kind_skipped(item.data, skip_kinds)
    }
    return items, judged


def _weight(item: Document | InputError) -> int:
    """How many documents ``item`` counts as in the summary and the progress bar: a List's items, else one."""
    if isinstance(item, Document) and _is_list(item.data) and item.data["items"]:
        return len(item.data["items"])
    return 1


def _crd_weight(item: Document | InputError) -> int:
    """The part of :func:`_weight` judged as CRDs (:func:`judge_document`); the rest is custom resources'."""
    if not isinstance(item, Document):
        return 0
    if is_crd(item.data):
        return 1
    return len(_list_crds(item.data))


def _tick(progress: Any, n: int = 1) -> None:
    if progress is not None and n:
        progress.advance(n)




# --- large YAML streams, document by document ------------------------------------------------

#: A file (or stdin) of at least this many bytes holding several YAML documents is read document by
#: document and its documents judged in batches by the workers (:func:`_judge_stream`).
STREAM_MIN_BYTES = 512 << 10
#: About this many bytes of documents go to a worker at a time (small enough for the workers to finish together).
STREAM_BATCH_BYTES = 64 << 10
#: Before a stream's workers fork, every CRD of the catalog is prepared when there are at most this many.
WARM_MOST_CRDS = 16
#: A chunk containing this text may hold a CRD: it is loaded (and judged) here, before the custom resources,
#: so that the catalog is complete when the workers fork. A CRD without it (a kind spelt with YAML escapes)
#: is noticed by the worker that loads it, and the run starts again without streaming.
_CRD_MARK = b"CustomResourceDefinition"


# What iter_chunks' chunks are, one byte each in _Stream.kinds (kept for every chunk of a stream, so compact)
_EMPTY, _NO_INDEX, _TAKES_INDEX, _LOAD_HERE = range(4)
# A chunk whose first line that is not blank or a comment starts with a plain key: its root is a mapping (or it
# fails to parse): either way it takes a document index, known without loading it
_MAPPING_START_RE = re.compile(rb"(?:[ \t]*(?:#[^\n]*)?\r?\n)*[A-Za-z0-9_][^\n]*?:(?:[ \t]|\r?$|\r?\n)")


@dataclass
class _Stream:
    """A large YAML input read document by document: a file, or stdin spooled to a temporary file."""

    name: str  # the file name in reports (``<stdin>`` for stdin)
    path: str | None  # the file, or None for the spool
    spool: Any = None  # the temporary file holding stdin
    documents: int = 0  # non-empty chunks
    kinds: bytearray = field(default_factory=bytearray)  # per chunk: _EMPTY, _NO_INDEX, _TAKES_INDEX or _LOAD_HERE
    loaded: dict[int, Any] = field(default_factory=dict)  # the chunks loaded here: LoadedChunk, index taken
    crd_results: dict[int, DocumentResult] = field(default_factory=dict)  # their CRD verdicts

    def open(self) -> Any:
        if self.path is not None:
            return open(self.path, "rb")
        self.spool.seek(0)
        return _Unclosed(self.spool)

    def close(self) -> None:
        if self.spool is not None:
            self.spool.close()


class _Unclosed:
    """The spool as a context manager that leaves it open (it is read more than once)."""

    def __init__(self, fh: Any) -> None:
        self.read = fh.read

    def __enter__(self) -> _Unclosed:
        return self

    def __exit__(self, *exc: object) -> None:
        return None


class _Prefixed:
    """A binary stream read back from ``head`` first, then from ``rest``."""

    def __init__(self, head: bytes, rest: BinaryIO) -> None:
        self.head = head
        self.rest = rest

    def read(self, n: int = -1) -> bytes:
        if n is None or n < 0:
            out, self.head = self.head + self.rest.read(), b""
            return out
        if self.head:
            out, self.head = self.head[:n], self.head[n:]
            return out if len(out) == n else out + self.rest.read(n - len(out))
        return self.rest.read(n)


def _plan_stream(entry: str | InputError, stdin: BinaryIO) -> tuple[_Stream | None, Any]:
    """Whether ``entry`` is read as a stream: ``(the stream, None)``, or ``(None, stdin to load it from)``.

    A file of at least :data:`STREAM_MIN_BYTES` whose YAML (not JSON, not
    UTF-16/32) holds more than one document is; so is stdin of that size,
    spooled to a temporary file as it is read (a stream is read more than
    once: to find the documents that may be CRDs, then to judge the others).
    Anything else is loaded whole, as before (stdin from what was read of it).
    """
    if isinstance(entry, InputError):
        return None, None
    if entry != "-":
        if _file_size(entry) < STREAM_MIN_BYTES:
            return None, None
        from crdtool.yaml.stream import streamable

        try:
            with open(entry, "rb") as fh:
                if not streamable(fh.read(STREAM_MIN_BYTES)):
                    return None, None
        except OSError:
            return None, None
        stream = _Stream(entry, entry)
        return (stream, None) if _scan(stream) else (None, None)
    import io
    import tempfile

    try:
        head = stdin.read(STREAM_MIN_BYTES)
    except (OSError, ValueError):
        return None, stdin
    if isinstance(head, str):  # a text stream despite the type
        head = head.encode("utf-8", "surrogateescape")
    if len(head) < STREAM_MIN_BYTES:
        return None, io.BytesIO(head)
    from crdtool.yaml.stream import streamable

    if not streamable(head):
        return None, _Prefixed(head, stdin)
    from crdtool.cli.inputs import STDIN_NAME

    spool = tempfile.TemporaryFile()
    spool.write(head)
    while True:
        block = stdin.read(1 << 20)
        if not block:
            break
        spool.write(block)
    stream = _Stream(STDIN_NAME, None, spool)
    if not _scan(stream):
        spool.seek(0)
        return None, spool
    return stream, None


def _scan(stream: _Stream) -> bool:
    """Sort the stream's chunks (:attr:`_Stream.kinds`); False when it has at most one document."""
    from crdtool.yaml.stream import iter_chunks

    kinds = stream.kinds
    with stream.open() as fh:
        for chunk in iter_chunks(fh.read):
            if chunk.bad_separator is not None:
                kinds.append(_NO_INDEX)
            elif chunk.empty:
                kinds.append(_EMPTY)
            elif chunk.text is None:  # too large: refused, with an index
                stream.documents += 1
                kinds.append(_TAKES_INDEX)
            else:
                stream.documents += 1
                may_be_crd = _CRD_MARK in chunk.text
                known = _MAPPING_START_RE.match(chunk.text) is not None
                kinds.append(_LOAD_HERE if may_be_crd or not known else _TAKES_INDEX)
    return stream.documents > 1


def _load_here(stream: _Stream) -> list[Document]:
    """Load the chunks that may hold CRDs, or whose document index is not known from their text, with their index.

    They are loaded (and judged) in this process: the CRDs complete the
    catalog before the workers fork. Returns the documents loaded.
    """
    from crdtool.yaml.stream import iter_chunks, load_chunk

    index = 0
    with stream.open() as fh:
        for k, chunk in enumerate(iter_chunks(fh.read)):
            kind = stream.kinds[k]
            if kind == _LOAD_HERE:
                loaded = load_chunk(chunk, stream.name, index)
                stream.loaded[k] = loaded
                index += loaded.takes_index
            elif kind == _TAKES_INDEX:
                index += 1
    return [lc.item for lc in stream.loaded.values() if isinstance(lc.item, Document)]


class _CrdOutsideTheCatalog(Exception):
    """A worker met what the scan did not foresee (a CRD, a document index): judge the input again, whole."""


@dataclass
class _Judging:
    """What judging a custom resource needs (inherited by the forked workers).

    ``defer_validity``: the warning that a custom resource's CRD is itself
    invalid is left to the parent (an :class:`_InvalidCrdWarning` in the
    result's warnings), which validates the CRD while the workers judge.
    """

    catalog: CrdCatalog
    field_validation: str
    skip_kinds: tuple[str, ...]
    defer_validity: bool = False


@dataclass(frozen=True)
class _InvalidCrdWarning:
    """A warning to be: "CRD ... is itself invalid" if the CRD (``source``: its number in the catalog) is."""

    source: int
    at: At

    def resolve(self, catalog: CrdCatalog) -> str | None:
        source = catalog._all[self.source]
        return None if source.is_valid(self.at) else _invalid_crd_warning(source)


def _invalid_crd_warning(source: CrdSource) -> str:
    return f"CRD {source.name} ({source.where}) is itself invalid: the apiserver would not create it"


def _resolve_warnings(result: DocumentResult, catalog: CrdCatalog) -> DocumentResult:
    """The :class:`_InvalidCrdWarning` of a worker's result replaced by their text (or dropped)."""
    if any(isinstance(w, _InvalidCrdWarning) for w in result.warnings):
        resolved = (w.resolve(catalog) if isinstance(w, _InvalidCrdWarning) else w for w in result.warnings)
        result.warnings = [w for w in resolved if w is not None]
    return result


def _judge_stream(stream: _Stream, number: int, ctx: _Judging, progress: Any, jobs: int) -> Iterator[DocumentResult]:
    """The results of a stream's documents, in order: batches judged by ``jobs`` workers (here for ``--jobs 1``).

    The documents loaded here (:attr:`_Stream.loaded`) are judged here; the
    others are loaded and judged by the workers, which inherited the catalog.
    Document indexes, the Helm hint of a file's first template error (and
    silence for the later ones) and the progress are this process's, as the
    results come back in order. Raises :class:`_CrdOutsideTheCatalog` when a
    worker finds a CRD (or a document index) the scan did not foresee.
    """
    from crdtool.cli.jobs import batches, ordered_map
    from crdtool.cli.selection import HelmHinter
    from crdtool.yaml.stream import iter_chunks, load_chunk

    def judge_batch(batch: list[tuple[int, Any]]) -> list[tuple[int, bool, Any]]:
        out: list[tuple[int, bool, Any]] = []
        for k, chunk in batch:
            if chunk is None:  # loaded in the parent, which judges it
                out.append((k, False, None))
                continue
            loaded = load_chunk(chunk, stream.name)
            item = loaded.item
            if isinstance(item, Document):
                if _has_crds(item.data):
                    raise _CrdOutsideTheCatalog(f"{stream.name}:{chunk.line}: a CRD the scan did not see")
                item = _judge_item(item, ctx, (number, k), None, None, 1, deferring=True)
            out.append((k, loaded.takes_index, item))
        return out

    def tasks() -> Iterator[list[tuple[int, Any]]]:
        with stream.open() as fh:
            numbered = (
                (k, None if k in stream.loaded else chunk)
                for k, chunk in enumerate(iter_chunks(fh.read))
                if stream.kinds[k] != _EMPTY
            )
            yield from batches(numbered, lambda kc: kc[1].size if kc[1] is not None else 0, STREAM_BATCH_BYTES)

    index = 0
    hint = HelmHinter()
    for answers in ordered_map(judge_batch, tasks(), jobs, in_flight=4):
        for k, takes_index, got in answers:
            if k in stream.loaded:
                loaded = stream.loaded[k]
                takes_index, got = loaded.takes_index, loaded.item
                if isinstance(got, Document):
                    # in this process, while the workers go on: no pool of its own (a fork now would copy the
                    # pool's threads' state); its CRDs were counted when judged
                    weight = _weight(got) - _crd_weight(got)
                    got = _judge_item(got, ctx, (number, k), stream.crd_results.get(k), None, 1)
                    _tick(progress, weight)
            elif isinstance(got, DocumentResult):
                got = _resolve_warnings(got, ctx.catalog)
                counted = len(got.item_statuses) if got.item_statuses else 1
                if progress is not None and counted > 1:  # a List: its items count, not the chunk
                    progress.set_total((progress.total or 0) + counted - 1)
                _tick(progress, counted)
            if k not in stream.loaded and takes_index != (stream.kinds[k] == _TAKES_INDEX):
                raise _CrdOutsideTheCatalog(f"{stream.name}: chunk {k}: the scan took it for another kind of chunk")
            if got is None or isinstance(got, InputError) and stream.kinds[k] != _NO_INDEX:
                _tick(progress)  # a document that failed to load, or a null one: counted by the scan
            if takes_index:
                if isinstance(got, InputError):
                    got = replace(got, index=index)
                elif isinstance(got, DocumentResult):
                    got.index = index
                index += 1
            if isinstance(got, InputError):
                hinted = hint(got)
                if hinted is not None:
                    yield input_error_result(hinted)
            elif isinstance(got, DocumentResult):
                yield got


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
    jobs: int | None = None,
    releases: tuple[Release, ...] = (DEFAULT_RELEASE,),
    explain_cost: bool = False,
    bundle: Any = None,
    ignore_missing_crds: bool = False,
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
    ``jobs``: worker processes (None: one per core; 1: none, all in this
    process); the report does not depend on it.
    ``releases``: the Kubernetes releases whose apiservers judge (``--kubernetes-version``); with
    several, each document's verdicts are combined (:func:`crdtool.cli.matrix.combine`) and a
    rejection by any of them is a finding (the inputs are then loaded whole, not streamed).
    ``explain_cost`` adds each CRD's CEL costs (:func:`crdtool.cli.lint.explain_cost_run`).
    ``bundle``: a :class:`crdtool.cli.bundle_checks.BundleOptions` to check across the bundle (the inputs are
    then loaded whole, up to :data:`~crdtool.cli.bundle_checks.BUNDLE_MAX_BYTES`), or None.
    A custom resource (a kind of an API group with a dot that is not Kubernetes' own) whose CRD is neither
    among ``paths`` nor in ``crd_paths`` is invalid, with kubectl's "no matches for kind" (:func:`missing_crds`);
    ``ignore_missing_crds`` skips it instead.
    """
    from crdtool.cli.jobs import resolve_jobs
    from crdtool.cli.reporters import report
    from crdtool.cli.selection import Selection, no_input_message, select_files

    selection = Selection()
    selected = list(select_files(paths, exclude, selection))
    if selection.nothing_found:
        console(stderr=True).print(f"crdtool: {no_input_message(paths)}", markup=False)
        return 2
    if selection.all_excluded:
        console(stderr=True).print(f"crdtool: all {selection.found} input files match --exclude; nothing to validate", markup=False)
    workers = resolve_jobs(jobs)
    releases = tuple(releases) or (DEFAULT_RELEASE,)
    name = output.value if isinstance(output, OutputFormat) else str(getattr(output, "value", output))
    bundle = bundle if bundle is not None and bundle.rules else None
    # loaded whole: several releases, --explain-cost, or the checks across the bundle over inputs small enough
    # (what planning the streams would end in, known without reading the files for it: _bundle_stdin)
    if len(releases) > 1 or explain_cost or (bundle is not None and _loaded_whole(selected)):
        return _run_loaded(selected, crd_paths or [], field_validation, tuple(skip_kinds), progress, workers, releases,
                           explain_cost, name, quiet, exit_zero, bundle=bundle,
                           ignore_missing_crds=ignore_missing_crds)
    release = releases[0]
    stdin: Any = sys.stdin.buffer
    streams: dict[int, _Stream] = {}
    for i, entry in enumerate(selected):
        if entry == "-" and "-" in selected[:i]:
            continue  # stdin again: read once, by the first (as kubectl: nothing is left for the second)
        stream, replacement = _plan_stream(entry, stdin)
        if stream is not None:
            streams[i] = stream
        elif replacement is not None:
            stdin = replacement
    if bundle is not None:
        loaded_stdin = _bundle_stdin(streams, stdin)
        if loaded_stdin is not None:
            try:
                return _run_loaded(selected, crd_paths or [], field_validation, tuple(skip_kinds), progress, workers,
                                   releases, explain_cost, name, quiet, exit_zero, bundle=bundle, stdin=loaded_stdin,
                                   ignore_missing_crds=ignore_missing_crds)
            finally:
                for stream in streams.values():
                    stream.close()
        from crdtool.cli.bundle_checks import stream_note

        console(stderr=True).print(stream_note(), markup=False)
    results = ResultLog()
    try:
        try:
            results.extend(missing_crds(_judge_all(selected, streams, stdin, crd_paths or [], field_validation,
                                                   tuple(skip_kinds), progress, workers, release), ignore_missing_crds))
        except _CrdOutsideTheCatalog:
            # a document the scan did not foresee: the streams are judged again, loaded whole
            results.close()
            results = ResultLog()
            for i, stream in streams.items():
                if stream.spool is not None:
                    stdin = stream.spool
                    stdin.seek(0)
            results.extend(missing_crds(_judge_all(selected, {}, stdin, crd_paths or [], field_validation,
                                                   tuple(skip_kinds), progress, workers, release), ignore_missing_crds))
        if progress is not None:
            progress.stop()
        report(validate_run(results, quiet=quiet), name)
    except NoCrdFound as exc:
        return _no_crd(exc, progress)
    finally:
        results.close()
        for stream in streams.values():
            stream.close()
    return _exit_status(results.statuses, exit_zero)


def _loaded_whole(selected: list[str | InputError]) -> bool:
    """Whether the inputs are loaded whole when the bundle is checked, known from the files' sizes alone: no
    stdin, and the files that may be streams (:func:`_plan_stream`: of at least :data:`STREAM_MIN_BYTES`) hold
    at most :data:`~crdtool.cli.bundle_checks.BUNDLE_MAX_BYTES` in all (:func:`_bundle_stdin` then says so too,
    whatever the streams turn out to be)."""
    from crdtool.cli.bundle_checks import BUNDLE_MAX_BYTES

    if "-" in selected:
        return False
    sizes = (_file_size(entry) for entry in selected if isinstance(entry, str))
    return sum(size for size in sizes if size >= STREAM_MIN_BYTES) <= BUNDLE_MAX_BYTES


def _bundle_stdin(streams: dict[int, _Stream], stdin: Any) -> Any:
    """The stdin to load the inputs whole from when the bundle is checked, or None when the streams are too large
    (over :data:`~crdtool.cli.bundle_checks.BUNDLE_MAX_BYTES` in all: they stay streams)."""
    from crdtool.cli.bundle_checks import BUNDLE_MAX_BYTES

    total = 0
    for stream in streams.values():
        if stream.path is not None:
            total += _file_size(stream.path)
        else:
            stream.spool.seek(0, 2)
            total += stream.spool.tell()
    if total > BUNDLE_MAX_BYTES:
        return None
    for stream in streams.values():
        if stream.spool is not None:
            stream.spool.seek(0)
            stdin = stream.spool
    return stdin


def _no_crd(exc: NoCrdFound, progress: Any) -> int:
    """A ``--crd`` path without a CRD: the message on stderr, usage error (2)."""
    if progress is not None:
        progress.stop()
    console(stderr=True).print(f"crdtool: {exc}", markup=False)
    return 2


def _exit_status(statuses: dict[str, int], exit_zero: bool) -> int:
    """0, 1 (a document invalid; 0 with ``exit_zero``) or 2 (an input error) from the count of each status."""
    if statuses.get("error"):
        return 2
    if statuses.get("invalid"):
        return 0 if exit_zero else 1
    return 0


def _run_loaded(
    selected: list[str | InputError],
    crd_paths: list[str],
    field_validation: str,
    skip_kinds: tuple[str, ...],
    progress: Any,
    workers: int,
    releases: tuple[Release, ...],
    explain_cost: bool,
    output: str,
    quiet: bool,
    exit_zero: bool,
    bundle: Any = None,
    stdin: Any = None,
    ignore_missing_crds: bool = False,
) -> int:
    """:func:`run` with the inputs loaded whole: several releases (the matrix), ``--explain-cost`` or the checks
    across the bundle (``bundle``; ``stdin``: where stdin is read from, when :func:`run` has begun reading it)."""
    from crdtool.cli.reporters import report

    try:
        results, items = _judge_matrix(selected, sys.stdin.buffer if stdin is None else stdin, crd_paths,
                                       field_validation, skip_kinds, progress, workers, releases, bundle,
                                       split=not explain_cost)
    except NoCrdFound as exc:
        return _no_crd(exc, progress)
    if progress is not None:
        progress.stop()
    results = list(missing_crds(results, ignore_missing_crds))
    run = validate_run(results, quiet=quiet)
    if bundle is not None:
        from crdtool.core.bundle import RULES

        run.rules.update({code: f"{r.name}: {r.summary}" for code, r in RULES.items()})  # SARIF shortDescription
    if explain_cost:
        from crdtool.cli.lint import explain_cost_run

        run = explain_cost_run(run, items, output, releases)
        run.write_json = None  # the payload has the costs added: written whole
    report(run, output)
    statuses: dict[str, int] = {}
    for r in results:
        statuses[r.status] = statuses.get(r.status, 0) + 1
    return _exit_status(statuses, exit_zero)


def _judge_all(
    selected: list[str | InputError],
    streams: dict[int, _Stream],
    stdin: Any,
    crd_paths: list[str],
    field_validation: str,
    skip_kinds: tuple[str, ...],
    progress: Any,
    jobs: int,
    release: Release = DEFAULT_RELEASE,
) -> Iterator[DocumentResult]:
    """Every document's result under ``release``, in input order (``--crd``'s input errors first), as judged;
    see :func:`run`.

    The inputs of ``streams`` (by number in ``selected``) are read document by
    document; the others are loaded whole (:func:`_load_entries`). Raises
    :class:`NoCrdFound` for a ``--crd`` path without a CRD.
    """
    whole = [i for i in range(len(selected)) if i not in streams]
    loaded, verdicts = _load_entries([selected[i] for i in whole], field_validation, skip_kinds, progress, jobs, stdin,
                                     (release,))
    crd_results = {k: v[0] for k, v in verdicts.items()}
    entries: dict[int, list[tuple[int, Document | InputError]]] = {i: list(enumerate(items)) for i, items in zip(whole, loaded)}
    stream_crds: list[tuple[_Stream, int, Document]] = []
    for i, stream in streams.items():
        _load_here(stream)
        entries[i] = [(k, lc.item) for k, lc in sorted(stream.loaded.items()) if lc.item is not None]
        stream_crds.extend((stream, k, item) for k, item in entries[i]
                           if isinstance(item, Document) and _has_crds(item.data) and not _kind_skipped(item.data, skip_kinds))
    if progress is not None and streams:
        progress.set_total((progress.total or 0) + sum(s.documents for s in streams.values()) + sum(
            _weight(item) - 1 for i in streams for _, item in entries[i]))
    crd_docs = [d for _, _, d in stream_crds]
    for (stream, k, _), result in zip(stream_crds, judge_documents(crd_docs, field_validation, progress, jobs, release)):
        stream.crd_results[k] = result
    flag_items = list(_load_crd_flags(crd_paths))
    ctx, flag_errors = _judging_context(len(selected), entries, crd_results, streams, flag_items, field_validation,
                                        skip_kinds, jobs, release)
    yield from flag_errors
    for i in range(len(selected)):
        if i in streams:
            yield from _judge_stream(streams[i], i, ctx, progress, jobs)
            continue
        for k, item in entries[i]:
            yield _judge_item(item, ctx, (i, k), crd_results.get(id(item)), progress, jobs)
        entries[i] = []  # judged: its documents can go


def _judging_context(
    count: int,
    entries: dict[int, list[tuple[int, Document | InputError]]],
    crd_results: dict[int, DocumentResult],
    streams: dict[int, _Stream],
    flag_items: list[Document | InputError],
    field_validation: str,
    skip_kinds: tuple[str, ...],
    jobs: int,
    release: Release,
) -> tuple[_Judging, list[DocumentResult]]:
    """What judging the custom resources of loaded inputs under ``release`` needs: the catalog of their CRDs
    and ``--crd``'s, each input CRD's verdict recorded where it sits; and the results of ``--crd``'s input
    errors (reported first)."""
    catalog = CrdCatalog(release)
    flag_errors: list[DocumentResult] = []
    for crd_item in flag_items:
        if isinstance(crd_item, InputError):
            flag_errors.append(input_error_result(crd_item))
        else:
            catalog.add(crd_item, from_flag=True)
    for i in range(count):
        for k, item in entries[i]:
            if not isinstance(item, Document):
                continue
            if is_crd(item.data):
                catalog.add(item, from_flag=False)
                if not _kind_skipped(item.data, skip_kinds):
                    verdict = crd_results.get(id(item)) or streams[i].crd_results[k]
                    catalog.record_verdict(item, verdict.status == "valid", (i, k))
            else:
                for item_doc in _list_crd_documents(item):
                    catalog.add(item_doc, from_flag=False)
    ctx = _Judging(catalog, field_validation, skip_kinds)
    if streams and jobs > 1:
        # the stream's workers fork with the CRDs ready (all of them when few, else those of --crd); whether a
        # CRD is itself valid is left to this process, while the workers judge (_InvalidCrdWarning)
        sources = catalog.sources()
        for source in sources if len(sources) <= WARM_MOST_CRDS else [s for s in sources if s.from_flag]:
            source.warm(validity=False)
        ctx.defer_validity = True
    return ctx, flag_errors


def _judge_matrix(
    selected: list[str | InputError],
    stdin: Any,
    crd_paths: list[str],
    field_validation: str,
    skip_kinds: tuple[str, ...],
    progress: Any,
    jobs: int,
    releases: tuple[Release, ...],
    bundle: Any = None,
    split: bool = True,
) -> tuple[list[DocumentResult], list[Document | InputError | None]]:
    """Every document's verdict, combined over several releases (:func:`crdtool.cli.matrix.combine`), and the
    loaded documents.

    The inputs are loaded once, whole (no streams: the per-release results are
    combined in memory), each CRD document judged under every release in a
    row as it is loaded (:func:`_load_entries`, on the ``jobs`` workers); then
    each custom resource under the releases in a row, each release with its
    own catalog of CRDs, a share of the releases per worker. The progress bar
    follows the loading and the first release. ``bundle``: the checks across the bundle to add to each
    release's results (:func:`crdtool.cli.bundle_checks.apply`), or None. ``split``: one large file may be
    loaded and judged by the workers together (:func:`_judge_split_file`; its documents that no check across the
    bundle reads are then None among those returned).
    Raises :class:`NoCrdFound` as :func:`_judge_all`.
    """
    from crdtool.cli.matrix import combine

    flag_items = list(_load_crd_flags(crd_paths))
    if split and len(releases) == 1 and len(selected) == 1:
        judged = _judge_split_file(selected[0], flag_items, field_validation, skip_kinds, progress, jobs, releases[0])
        if judged is not None:
            results, items = judged
            if bundle is not None:
                from crdtool.cli import bundle_checks

                bundle_checks.apply(bundle, releases, [results], items, flag_items)
            return results, items
    early = _prepare_flag_crds(flag_items, releases[0]) if len(releases) == 1 and jobs > 1 else None
    loaded, verdicts = _load_entries(selected, field_validation, skip_kinds, progress, jobs, stdin, releases,
                                     while_loading=early)
    entries = {i: list(enumerate(items)) for i, items in enumerate(loaded)}
    per_crd = [{key: results[k] for key, results in verdicts.items()} for k in range(len(releases))]

    def judge_releases(numbers: list[int], workers: int, tick: Any) -> list[list[DocumentResult]]:
        """The results under ``releases[k]`` for each k of ``numbers``: each document under those releases in a
        row (a CRD is prepared for them one after another), each release with its own catalog of CRDs."""
        out: list[list[DocumentResult]] = []
        contexts: list[_Judging] = []
        for k in numbers:
            ctx, flag_errors = _judging_context(len(selected), entries, per_crd[k], {}, flag_items, field_validation,
                                                skip_kinds, workers, releases[k])
            contexts.append(ctx)
            out.append(flag_errors)
        for i in range(len(selected)):
            for n, item in entries[i]:
                for j, (k, ctx) in enumerate(zip(numbers, contexts)):
                    out[j].append(_judge_item(item, ctx, (i, n), per_crd[k].get(id(item)), tick if not j else None,
                                              workers))
        return out

    groups = min(jobs, len(releases))
    if groups > 1:
        # the custom resources of each share of the releases in a forked worker (judging in one process there)
        from crdtool.cli.jobs import ordered_map

        shares = [list(range(w, len(releases), groups)) for w in range(groups)]
        per_release: list[list[DocumentResult]] = [[] for _ in releases]
        for numbers, results in zip(shares, ordered_map(lambda ks: judge_releases(ks, 1, None), shares, groups,
                                                        in_flight=1)):
            for k, got in zip(numbers, results):
                per_release[k] = got
        if progress is not None:
            _tick(progress, max(0, (progress.total or 0) - progress.done))
    elif jobs > 1 and _documents_in_parallel(entries):
        ctx, flag_errors = _judging_context(len(selected), entries, per_crd[0], {}, flag_items, field_validation,
                                            skip_kinds, jobs, releases[0])
        per_release = [flag_errors + list(_judge_entries_in_parallel(entries, ctx, per_crd[0], jobs, progress))]
    else:
        per_release = judge_releases(list(range(len(releases))), jobs, progress)
    items = [item for items in loaded for item in items]
    if bundle is not None:
        from crdtool.cli import bundle_checks

        bundle_checks.apply(bundle, releases, per_release, items, flag_items)
    return (per_release[0] if len(releases) == 1 else combine(releases, per_release)), items


def _prepare_flag_crds(flag_items: list[Document | InputError], release: Release) -> Callable[[], None]:
    """What prepares the CRDs of ``--crd`` for ``release`` (:meth:`CrdSource.warm` without the validity), to run
    while the workers load a large input: their sources, made from the same documents, find the preparations in
    ``prepare_crd``'s memo (by the dict's identity, checked against its content)."""

    def prepare() -> None:
        from crdtool.core.customresource import CustomResourceError, prepare_crd

        for item in flag_items:
            if not isinstance(item, Document) or not is_crd(item.data):
                continue
            try:
                prepared = prepare_crd(item.data, release.name)
            except CustomResourceError:
                continue  # the source finds the error again
            for version in prepared.versions:
                if version.served and version.cel_validator is not None:
                    version.cel_validator.get()

    return prepare


def _documents_in_parallel(entries: dict[int, list[tuple[int, Document | InputError]]]) -> bool:
    """Whether loaded inputs are judged a document per task on the workers: at least
    :data:`PARALLEL_MIN_DOCUMENTS` documents besides CRDs (whose verdicts are in when they have loaded: a
    bundle of CRDs is not forked again for its few other documents), none a List large enough to be spread over the workers itself
    (:data:`LIST_PARALLEL_MIN_OBJECTS`: its items are, in ranges, as before)."""
    count = 0
    for pairs in entries.values():
        for _, item in pairs:
            if not isinstance(item, Document):
                continue
            if _is_list(item.data) and len(item.data["items"]) >= LIST_PARALLEL_MIN_OBJECTS:
                return False
            if not is_crd(item.data):  # a CRD's verdict is in already (judged as it loaded)
                count += 1
    return count >= PARALLEL_MIN_DOCUMENTS


#: Documents per worker task when loaded inputs are judged in parallel (:func:`_judge_entries_in_parallel`).
DOCUMENTS_PER_TASK = 32


def _judge_entries_in_parallel(
    entries: dict[int, list[tuple[int, Document | InputError]]],
    ctx: _Judging,
    crd_results: dict[int, DocumentResult],
    jobs: int,
    progress: Any,
) -> Iterator[DocumentResult]:
    """:func:`_judge_item` of every loaded input under ``ctx``'s release, in order, on ``jobs`` forked workers.

    The workers inherit the documents, the catalog and the CRDs the documents need, prepared and compiled here
    before the fork; whether a CRD is itself valid is left to this process (an :class:`_InvalidCrdWarning`
    from the workers, resolved here while they go on), as :func:`_judge_stream` does. Each task is
    :data:`DOCUMENTS_PER_TASK` consecutive documents (their indexes, not the documents, cross the pipe);
    each document is judged on one process (a List's objects are not spread further). The results are
    those of judging them here one after another (tests/cli/test_validate_jobs_loaded.py compares them).
    """
    from crdtool.cli.jobs import batches, ordered_map

    order = [(i, n, item) for i in sorted(entries) for n, item in entries[i]]
    seen: set[tuple[Any, Any, str]] = set()
    for _, _, item in order:
        if not isinstance(item, Document) or _kind_skipped(item.data, ctx.skip_kinds):
            continue
        objects = [o for o in item.data["items"] if isinstance(o, dict)] if _is_list(item.data) else [item.data]
        for obj in objects:
            key = (obj.get("apiVersion"), obj.get("kind"), item.file)
            if key in seen:
                continue
            seen.add(key)
            source, _ = ctx.catalog.find(obj, item.file)
            if source is not None:
                source.warm(validity=False)
    ctx.defer_validity = True

    def judge_task(numbers: list[int]) -> list[DocumentResult]:
        out = []
        for k in numbers:
            i, n, item = order[k]
            out.append(_judge_item(item, ctx, (i, n), crd_results.get(id(item)), None, 1, deferring=True))
        return out

    tasks = batches(range(len(order)), lambda _: 1, DOCUMENTS_PER_TASK)
    done = 0
    # enough tasks ahead that the workers go on while this process settles a CRD's validity (the first result
    # that asks for it waits for check_crd_manifest here)
    for results in ordered_map(judge_task, tasks, jobs, in_flight=16):
        for result in results:
            item = order[done][2]
            done += 1
            if isinstance(item, Document) and not _kind_skipped(item.data, ctx.skip_kinds):
                _tick(progress, _weight(item) - _crd_weight(item))
            yield _resolve_warnings(result, ctx.catalog)


def _judge_item(
    item: Document | InputError,
    ctx: _Judging,
    at: At,
    crd_result: DocumentResult | None,
    progress: Any,
    jobs: int,
    deferring: bool = False,
) -> DocumentResult:
    """One input's result: an input error, a skipped kind, a CRD's verdict (``crd_result``), a custom resource's.

    ``at``: where the item sits among the inputs. ``crd_result``: the verdict
    of its CRDs (a CRD, or a List holding CRDs), judged before. ``deferring``:
    in a worker of a stream whose parent resolves :class:`_InvalidCrdWarning`.
    """
    if isinstance(item, InputError):
        return input_error_result(item)
    if _kind_skipped(item.data, ctx.skip_kinds):
        api_version, kind, name = _identity(item)
        result = DocumentResult(item.file, item.index, item.line, api_version, kind, name, "skipped",
                                note="skipped by --skip-kind")
        if _is_list(item.data) and item.data["items"]:
            result.item_statuses = ["skipped"] * len(item.data["items"])
    elif is_crd(item.data):
        assert crd_result is not None
        result = crd_result
    elif crd_result is not None:
        result = _merge_list_results(
            crd_result, judge_custom_resource(item, ctx.catalog, ctx.field_validation, at, jobs, progress)
        )
    else:
        defer = deferring and ctx.defer_validity
        result = judge_custom_resource(item, ctx.catalog, ctx.field_validation, at, jobs, progress, defer)
    if item.warnings:
        # the input's own warnings (size limits) come first, whatever the document's verdict
        result.warnings[:0] = item.warnings
    if result.status == "invalid":
        from crdtool.cli.selection import helm_value_hint  # imported only for an invalid document

        hint = helm_value_hint(result.errors)
        if hint:
            result.warnings.insert(0, hint)
    return result


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
    from crdtool.cli.inputs import load_inputs

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
    if crds.item_statuses is not None:
        theirs = others.item_statuses or [None] * len(crds.item_statuses)
        crds.item_statuses = [mine or other or "skipped" for mine, other in zip(crds.item_statuses, theirs)]
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
    valid: bool | None = None  # would the apiserver create it (storage aside)? Known once asked
    prepared: Any = None  # the PreparedCrd, once prepared
    error: str | None = None  # why it cannot be prepared
    #: the verdicts of its create as an input, by where the input is (:meth:`is_valid`)
    verdicts: list[tuple[At, bool]] = field(default_factory=list)
    number: int = -1  # its place in its catalog (:meth:`CrdCatalog.sources`)
    release: Release = DEFAULT_RELEASE  # the Kubernetes release that decodes, serves and validates it

    @property
    def where(self) -> str:
        return f"{self.doc.file}:{self.doc.line}"

    @property
    def name(self) -> str:
        meta = self.doc.data.get("metadata")
        name = meta.get("name") if isinstance(meta, dict) else None
        return name if isinstance(name, str) and name else f"{self.kind}.{self.group}"

    def prepare(self) -> Any:
        if self.prepared is None and self.error is None:
            from crdtool.core.customresource import CustomResourceError, prepare_crd

            try:
                self.prepared = prepare_crd(self.doc.data, self.release.name)
            except CustomResourceError as exc:
                self.error = str(exc)
        return self.prepared

    def warm(self, at: At | None = None, validity: bool = True, compiled: bool = True) -> None:
        """Do now what the first custom resource would (prepare, build the CEL validator trees with every rule
        compiled unless not ``compiled``, :meth:`is_valid` at ``at`` unless not ``validity``): before worker
        processes fork, so that they inherit it instead of each doing it."""
        prepared = self.prepare()
        if prepared is None:
            return
        for version in prepared.versions:
            if version.served and version.cel_validator is not None:
                version.cel_validator.get(compiled=compiled)
        if validity:
            self.is_valid(at)

    def knows_validity(self, at: At | None = None) -> bool:
        """:meth:`is_valid` at ``at`` is answered without validating the CRD (recorded, or validated already)."""
        return self.valid is not None or any(at is None or where < at for where, _ in self.verdicts)

    def is_valid(self, at: At | None = None) -> bool:
        """Whether the apiserver would create this CRD, as a custom resource at ``at`` among the inputs sees it.

        After the CRD's own document (the last verdict before ``at``): the
        verdict reported for it, storage included (a CRD exported with
        ``metadata.resourceVersion`` is refused). Before it, or for a CRD that
        is not an input document of its own (``--crd``, a List item): its
        validation alone. ``at`` None: the last verdict recorded.
        """
        recorded = [valid for where, valid in self.verdicts if at is None or where < at]
        if recorded:
            return recorded[-1]
        if self.valid is None:
            self.valid = check_crd_manifest(self.doc.data, storage=False, kubernetes_version=self.release.name).valid
        return self.valid


class CrdCatalog:
    """The CRDs of a run, by group and kind; each is decoded and converted at most once (for one release)."""

    def __init__(self, release: Release = DEFAULT_RELEASE) -> None:
        self.release = release
        self._by_gk: dict[tuple[str, str], list[CrdSource]] = {}
        self._by_doc: dict[int, CrdSource] = {}
        self._all: list[CrdSource] = []

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
                           number=len(self._all), release=self.release)
        self._all.append(source)
        self._by_gk.setdefault((group, kind), []).append(source)
        self._by_doc[id(doc)] = source

    def record_verdict(self, doc: Document, valid: bool, at: At | None = None) -> None:
        """The verdict on the CRD document ``doc``, at ``at`` among the inputs (see :meth:`CrdSource.is_valid`)."""
        source = self._by_doc.get(id(doc))
        if source is not None:
            source.verdicts.append(((-1, -1) if at is None else at, valid))

    def sources(self) -> list[CrdSource]:
        """Every CRD of the catalog, in the order added (:attr:`CrdSource.number`)."""
        return list(self._all)

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


#: A List with at least this many custom resources has them judged by the workers, in ranges.
LIST_PARALLEL_MIN_OBJECTS = 64


@dataclass
class _Outcome:
    """One object of a document judged against its CRD (positions not yet looked up)."""

    prefix: str  # "" for the document, ``items[i]`` for a List item
    errors: list[FieldError]
    warnings: list[str]
    problem: str | None = None  # why it could not be checked (it counts as skipped)
    note: str | None = None  # several CRDs define its kind: which one it was checked against
    api_status: dict[str, Any] | None = None  # the metav1.Status kubectl would get


def judge_custom_resource(
    doc: Document,
    catalog: CrdCatalog,
    field_validation: str = "Strict",
    at: At | None = None,
    jobs: int = 1,
    progress: Any = None,
    defer_validity: bool = False,
) -> DocumentResult:
    """Judge a non-CRD document: a custom resource (or a ``v1`` List of them) against its CRD, else skipped.

    ``at``: where the document sits among the inputs (for :meth:`CrdSource.is_valid`). A List of
    at least :data:`LIST_PARALLEL_MIN_OBJECTS` custom resources has them judged by ``jobs`` forked
    workers; the positions of all the document's errors are then found here, in one pass.
    ``progress`` advances by one per List item (by one for a single object).
    """
    api_version, kind, name = _identity(doc)
    if api_version == _POLICY_API_VERSION and (kind in _POLICY_KINDS or (
            kind in _MUTATING_POLICY_KINDS and catalog.release.minor >= 36)):
        return _judge_policy(doc, catalog, api_version, kind, name)
    result = DocumentResult(doc.file, doc.index, doc.line, api_version, kind, name, "skipped")
    is_list = _is_list(doc.data)
    if is_list:
        items = doc.data["items"]
        objects = [(f"items[{i}]", item) for i, item in enumerate(items) if isinstance(item, dict) and not is_crd(item)]
        numbers = [i for i, item in enumerate(items) if isinstance(item, dict) and not is_crd(item)]
        weight = len(items) - sum(1 for item in items if is_crd(item))
    else:
        objects, numbers, weight = [("", doc.data)], [0], 1
    outcomes = _judge_objects(doc, objects, catalog, field_validation, at, jobs, progress, defer_validity)
    _tick(progress, weight - len(objects))
    _prefetch_all(doc, [(o.prefix, e) for o in outcomes if o is not None for e in o.errors])
    statuses: list[str | None] = [None if is_crd(item) else "skipped" for item in doc.data["items"]] if is_list else []
    checked = 0
    notes: list[str] = []
    for number, outcome in zip(numbers, outcomes):
        if outcome is None:
            continue
        for error in outcome.errors:
            result.errors.append(_error_entry(doc, error, outcome.prefix))
        result.warnings.extend(outcome.warnings)
        if outcome.problem:
            notes.append(outcome.problem)
            continue
        checked += 1
        if outcome.api_status is not None and (result.api_status is None or (
                result.api_status.get("status") == "Success" and outcome.api_status.get("status") != "Success")):
            result.api_status = outcome.api_status
        if outcome.note:
            notes.append(outcome.note)
        if is_list:
            statuses[number] = "invalid" if outcome.errors else "valid"
    if is_list and statuses:
        result.item_statuses = statuses  # type: ignore[assignment] # None: a CRD item, judge_document's
    if not checked and not result.errors:
        result.note = "; ".join(dict.fromkeys(notes)) or _skip_note(doc.data, kind)
        if not notes and not is_list:
            result.missing_crd = _missing_crd_message(doc.data, kind)
        return result
    result.status = "invalid" if result.errors else "valid"
    result.note = "; ".join(dict.fromkeys(notes)) or None
    return result


_POLICY_API_VERSION = "admissionregistration.k8s.io/v1"
_POLICY_KINDS = ("ValidatingAdmissionPolicy", "ValidatingAdmissionPolicyBinding")
#: admissionregistration.k8s.io/v1 MutatingAdmissionPolicy is served (GA) from 1.36
_MUTATING_POLICY_KINDS = ("MutatingAdmissionPolicy", "MutatingAdmissionPolicyBinding")


def _judge_policy(doc: Document, catalog: CrdCatalog, api_version: str | None, kind: str | None,
                  name: str | None) -> DocumentResult:
    """An admission policy or binding as the apiserver judges it at create (defaults, then the strategy's
    ``Validate``: validation.go's native checks with the CEL of every expression in the policy environment of the
    release, and the static suffix), with ``WarningsOnCreate`` and, for a ValidatingAdmissionPolicy, the type
    checker's warnings against the run's CRDs (:mod:`crdtool.core.admission.policy.create`)."""
    from crdtool.core.admission.policy.create import create_warnings, default_binding, default_policy, refusals
    from crdtool.core.admission.policy.typechecking import type_check

    result = DocumentResult(doc.file, doc.index, doc.line, api_version, kind, name, "valid")
    kind = kind or ""
    defaulted = default_binding(doc.data) if kind.endswith("Binding") else default_policy(doc.data)
    errors = refusals(kind, defaulted, catalog.release)
    if not errors:
        result.warnings.extend(create_warnings(kind, defaulted, catalog.release))
    if kind == "ValidatingAdmissionPolicy" and not errors:
        crds = [source.doc.data for source in catalog.sources()]
        for w in type_check(defaulted, catalog.release, crds):
            result.warnings.append(f"{w['fieldRef']}: type checking: {w['warning'].rstrip()}")
    _prefetch_all(doc, [("", e) for e in errors])
    result.errors.extend(_error_entry(doc, e, "") for e in errors)
    result.status = "invalid" if errors else "valid"
    return result


def _judge_objects(
    doc: Document,
    objects: list[tuple[str, dict[str, Any]]],
    catalog: CrdCatalog,
    field_validation: str,
    at: At | None,
    jobs: int,
    progress: Any,
    defer_validity: bool = False,
) -> list[_Outcome | None]:
    """:func:`_judge_object` of each object, in order: here, or by ``jobs`` forked workers in ranges."""
    if jobs <= 1 or len(objects) < LIST_PARALLEL_MIN_OBJECTS:
        return [_ticked_outcome(_judge_object(doc, prefix, obj, catalog, field_validation, at, defer_validity), progress)
                for prefix, obj in objects]
    from crdtool.cli.jobs import index_ranges, ordered_map

    # what every worker would do first, done once before they fork: prepare the CRDs the objects need
    seen: set[tuple[Any, Any]] = set()
    for _, obj in objects:
        key = (obj.get("apiVersion"), obj.get("kind"))
        if key in seen:
            continue
        seen.add(key)
        source, _ = catalog.find(obj, doc.file)
        if source is not None:
            source.warm(at)

    def judge_range(numbers: range) -> list[_Outcome | None]:
        return [_judge_object(doc, *objects[i], catalog, field_validation, at) for i in numbers]

    out: list[_Outcome | None] = []
    for part in ordered_map(judge_range, index_ranges(len(objects), jobs, per_worker=8, least=8), jobs):
        out.extend(part)
        _tick(progress, len(part))
    return out


def _ticked_outcome(outcome: _Outcome | None, progress: Any) -> _Outcome | None:
    _tick(progress)
    return outcome


#: The API groups of Kubernetes' own kinds that hold a dot (k8s.io/api at v0.37.0-beta.0, and the aggregator's
#: and apiextensions' groups): objects of these are built-ins, not custom resources. A group without a dot (``apps``,
#: ``batch``, the core group) is a built-in's too: a CRD's group must hold one (ValidateCustomResourceDefinitionSpec).
BUILTIN_GROUPS = frozenset({
    "admissionregistration.k8s.io", "apiextensions.k8s.io", "apiregistration.k8s.io", "authentication.k8s.io",
    "authorization.k8s.io", "certificates.k8s.io", "coordination.k8s.io", "discovery.k8s.io", "events.k8s.io",
    "flowcontrol.apiserver.k8s.io", "internal.apiserver.k8s.io", "networking.k8s.io", "node.k8s.io",
    "rbac.authorization.k8s.io", "resource.k8s.io", "scheduling.k8s.io", "storage.k8s.io",
    "storagemigration.k8s.io", "metrics.k8s.io", "imagepolicy.k8s.io", "apidiscovery.k8s.io",
})


def _missing_crd_message(data: dict[str, Any], kind: str | None) -> str | None:
    """kubectl's answer for a custom resource whose CRD is not installed, or None for a built-in kind."""
    api_version = data.get("apiVersion")
    if not (isinstance(api_version, str) and "/" in api_version and kind):
        return None
    group = api_version.rpartition("/")[0]
    if "." not in group or group in BUILTIN_GROUPS:
        return None
    return (f'no matches for kind "{kind}" in version "{api_version}": no CRD for {kind}.{group} among the inputs '
            "or the CRD catalog (give it with --crd, or crd: in the configuration file; --ignore-missing-crds "
            "skips such objects)")


def missing_crds(results: Iterable[DocumentResult], ignore: bool) -> Iterator[DocumentResult]:
    """``results`` with each custom resource no CRD defines made invalid, with kubectl's "no matches for kind"
    (``ensure CRDs are installed first``) as its error at the document; ``ignore`` (``--ignore-missing-crds``):
    unchanged, skipped with a note (kubeconform's ``-ignore-missing-schemas``)."""
    for r in results:
        if not ignore and r.status == "skipped" and r.missing_crd:
            _make_missing_crd_finding(r)
            for sub in (r.versions or {}).values():
                if sub.status == "skipped":
                    _make_missing_crd_finding(sub, r)
        yield r


def _make_missing_crd_finding(r: DocumentResult, top: DocumentResult | None = None) -> None:
    message = r.missing_crd or (top.missing_crd if top is not None else None) or ""
    r.status, r.note = "invalid", None
    r.errors = [{"type": "NoKindMatch", "field": "<nil>", "detail": message, "badValue": None, "message": message,
                 "line": (top or r).line or None, "column": 1}]


def _skip_note(data: dict[str, Any], kind: str | None) -> str:
    api_version = data.get("apiVersion")
    if isinstance(api_version, str) and "/" in api_version and kind:
        group = api_version.rpartition("/")[0]
        return f"no CRD for {kind}.{group} among the inputs, and no Kubernetes release defines it (give it with --crd)"
    if not isinstance(api_version, str) or not api_version:
        return "no apiVersion: not a Kubernetes object"
    if not kind:
        return "no kind: not a Kubernetes object"
    return f"no Kubernetes release defines {kind} in {api_version}, nor a CRD among the inputs (give it with --crd)"


def _judge_object(
    doc: Document,
    prefix: str,
    obj: dict[str, Any],
    catalog: CrdCatalog,
    field_validation: str,
    at: At | None,
    defer_validity: bool = False,
) -> _Outcome | None:
    """One object (the document, or its List item at ``prefix``) against its CRD; None when no CRD defines it.

    An object that cannot be checked (its CRD cannot be decoded or served) has
    a :attr:`_Outcome.problem` and counts as skipped. ``defer_validity``:
    when whether the CRD is valid is not known here yet, an
    :class:`_InvalidCrdWarning` stands for the warning.
    """
    source, count = catalog.find(obj, doc.file)
    if source is None:
        return _judge_builtin(doc, prefix, obj, catalog.release, field_validation)
    from crdtool.core.customresource import CustomResourceError, apply_create

    prepared = source.prepare()
    if prepared is None:
        return _Outcome(prefix, [], [], f"CRD {source.name} ({source.where}) cannot be used: {source.error}")
    dups = _duplicates_under(doc.duplicate_keys, prefix)
    from crdtool.core import apistatus

    try:
        outcome = apply_create(obj, prepared, duplicate_fields=dups, field_validation=field_validation)
        errors, warnings = list(outcome.errors), list(outcome.warnings)
        meta = obj.get("metadata") if isinstance(obj.get("metadata"), dict) else {}
        name = meta.get("name") if isinstance(meta.get("name"), str) else ""
        status = apistatus.for_create(source.group, str(obj.get("apiVersion", "")).rpartition("/")[2],
                                      str(obj.get("kind", "")), name, errors)
    except CustomResourceError as exc:
        if exc.reason not in ("unknown-version", "not-served"):
            return _Outcome(prefix, [], [], f"cannot be checked against CRD {source.name} ({source.where}): {exc}")
        errors, warnings = [invalid(Path("apiVersion"), obj.get("apiVersion"), str(exc))], []
        status = apistatus.not_found(str(exc))
    if defer_validity and not source.knows_validity(at):
        warnings.append(_InvalidCrdWarning(source.number, (-1, -1) if at is None else at))  # type: ignore[arg-type]
    elif not source.is_valid(at):
        warnings.append(_invalid_crd_warning(source))
    note = f"{count} CRDs define {obj.get('kind')}.{source.group}; checked against {source.where}" if count > 1 else None
    return _Outcome(prefix, errors, warnings, None, note, status)


def _judge_builtin(doc: Document, prefix: str, obj: dict[str, Any], release: Release, field_validation: str) -> _Outcome | None:
    """A built-in kind's create (:func:`crdtool.core.registry.create.create_builtin`); None for a kind no
    Kubernetes release defines in a group-version none has (a custom resource without its CRD: skipped)."""
    import crdtool.core.registry.create as builtin  # not "from ... import": no importlib _handle_fromlist per object

    verdict = builtin.create_builtin(obj, release, field_validation=field_validation,
                                     duplicate_fields=_duplicates_under(doc.duplicate_keys, prefix))
    if verdict.outcome == builtin.NOT_A_KIND:
        return None
    errors = list(verdict.errors)
    if verdict.outcome == builtin.NOT_SERVED:
        hint = f" ({verdict.warnings[0]})" if verdict.warnings else ""
        errors = [invalid(Path("apiVersion"), obj.get("apiVersion"), verdict.status["message"] + hint)]
        return _Outcome(prefix, errors, [], None, None, verdict.status)
    if verdict.outcome == builtin.UNKNOWN_KIND:
        errors = [invalid(Path("kind"), obj.get("kind"), verdict.status["message"])]
    return _Outcome(prefix, errors, list(verdict.warnings), None, None, verdict.status)


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
    _prefetch_all(doc, [(prefix, e) for e in errors])


def _prefetch_all(doc: Document, errors: list[tuple[str, FieldError]]) -> None:
    """Find the positions :func:`_error_entry` will show for ``(prefix, error)`` pairs, in one pass over ``doc``.

    All the errors of a document at once (a List's items' included): one pass
    however many there are.
    """
    paths: list[str] = []
    for prefix, e in errors:
        if e.field == "<nil>":
            if prefix:  # shown at the List item
                paths.append(position_path(doc, prefix, e))
        elif path := _entry_path(e, prefix):
            paths.append(position_path(doc, path, e))
    if paths:
        doc.prefetch_positions(paths)


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
