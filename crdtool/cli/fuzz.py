"""``crdtool fuzz-roundtrip``: property-test a conversion function against a CRD's own version schemas.

Loads the CRD (it must be valid), imports the conversion function
(``module:function`` with the current directory on ``sys.path``, or
``path/to/file.py:function``), then for every selected source version
runs :func:`crdtool.core.fuzz.properties.run_source`, which generates each
object once and checks it against every selected version (each ordered pair
is reported on its own), in worker processes when there are cores free
(:func:`_run_sources`), and reports the shrunk failures. With ``--webhook``
each pair runs on its own (:func:`crdtool.core.fuzz.properties.run_pair`),
its objects batched into ConversionReviews. hypothesis and deepdiff are
imported only here, inside :func:`run`, never at CLI start-up.

Failing examples are saved in a hypothesis example database under
``$CRDTOOL_CACHE_DIR/fuzz`` (default ``.crdtool-cache/fuzz`` in the current
directory, next to the project whose converter is tested, like
``.hypothesis`` or ``.pytest_cache``); each later run replays them first, and
``--replay`` runs only them.

Exit codes: 0 all properties hold, 1 a property failed, 2 usage or input
errors (module or function not found, CRD unreadable or invalid, unknown
version, a schema the generator cannot satisfy).
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import inspect
import os
import random
import time
from collections.abc import Iterator
from typing import Any, Callable

from crdtool.cli.markup import escape

from crdtool.loading import UsageError, load_crd, load_target

from crdtool.cli.report import OutputFormat, console

CACHE_ENV = "CRDTOOL_CACHE_DIR"
#: Overrides the number of worker processes (default: as many as there are free cores, at most one per source version).
WORKERS_ENV = "CRDTOOL_FUZZ_WORKERS"
DEFAULT_CACHE_DIR = ".crdtool-cache"
#: Seconds spent shrinking one pair's failure before the smallest example so far is reported.
SHRINK_SECONDS = 30.0


def run(
    target: str | None,
    crd: str,
    *,
    versions: str | None,
    examples: int,
    seed: int | None,
    timeout: float,
    replay: bool,
    output: OutputFormat,
    webhook: str | None = None,
    ca_bundle: str | None = None,
    batch: int = 4,
    kubernetes_version: str | None = None,
) -> int:
    """Run the round-trip properties for every ordered pair of versions; return the exit code.

    The apiserver's checks of each object (the CRD's own, objects' validity) are those of
    ``kubernetes_version``'s apiserver (None: the default release).

    With ``webhook`` (a URL) the conversions go over HTTP(S) as ConversionReviews of up to
    ``batch`` objects (see :mod:`crdtool.server.client`) instead of calling ``target``; pairs of
    a version with itself are skipped (the apiserver never sends those objects).
    """
    err = console(stderr=True)
    client: Any = None
    try:
        if (target is None) == (webhook is None):
            raise UsageError("give either TARGET (module:function) or --webhook URL")
        if ca_bundle and not webhook:
            raise UsageError("--ca-bundle goes with --webhook")
        crd_doc = load_crd(crd, kubernetes_version=kubernetes_version)
        all_versions = _versions_of(crd_doc, crd)
        selected = select_versions(all_versions, versions)
        _require_fuzz_dependencies()
        if webhook is not None:
            convert, target_id, client = _webhook_target(webhook, ca_bundle, crd_doc, timeout)
            target = webhook
        else:
            assert target is not None
            convert, target_id = load_target(target)
    except UsageError as exc:
        err.print(f"crdtool: {escape(str(exc))}")
        return 2
    try:
        # hypothesis's storage lives under the cache directory (see hypothesis_storage)
        with hypothesis_storage(hypothesis_dir()):
            return _run_pairs(convert, target, target_id, crd_doc, selected, examples=examples, seed=seed,
                              timeout=timeout, replay=replay, output=output, webhook=client is not None, batch=batch,
                              kubernetes_version=kubernetes_version)
    finally:
        if client is not None:
            client.client.close()


def _webhook_target(url: str, ca_bundle: str | None, crd_doc: dict[str, Any], timeout: float) -> tuple[Any, str, Any]:
    """The webhook-backed ``convert`` for ``url``, its database id, and the adapter (to close)."""
    if not url.startswith(("https://", "http://")):
        raise UsageError(f"--webhook must be an https:// URL, not {url!r}")
    if ca_bundle and not os.path.isfile(ca_bundle):
        raise UsageError(f"{ca_bundle}: no such file")
    from crdtool.server.client import WebhookClient, WebhookConvert
    from crdtool.server.handler import CrdInfo

    try:
        client = WebhookClient(url, ca_bundle=ca_bundle, timeout=timeout)
    except (OSError, ValueError) as exc:
        raise UsageError(f"{ca_bundle}: not a PEM CA bundle: {exc}") from None
    adapter = WebhookConvert(client, CrdInfo.from_manifest(crd_doc).review_versions)
    return adapter, url, adapter


def _run_pairs(
    convert: Callable[..., Any],
    target: str,
    target_id: str,
    crd_doc: dict[str, Any],
    selected: list[Any],
    *,
    examples: int,
    seed: int | None,
    timeout: float,
    replay: bool,
    output: Any,
    webhook: bool,
    kubernetes_version: str | None = None,
    batch: int,
) -> int:
    err = console(stderr=True)
    from crdtool.core.fuzz import apiserver_validator
    from crdtool.core.fuzz.properties import PairResult, run_pair

    database, db_warning = open_database()
    if db_warning:
        err.print(f"crdtool: warning: {escape(db_warning)}")
    if seed is None:
        seed = random.SystemRandom().randrange(2**32)
    first = selected[0]
    key = f"{target_id}\0{first.group}/{first.kind}".encode()
    extra = apiserver_validator(crd_doc, kubernetes_version)
    pairs = [(a, b) for a in selected for b in selected if not (webhook and a == b)]
    if not pairs:
        err.print("crdtool: --webhook needs at least two versions to convert between")
        return 2
    common = {"examples": examples, "seed": seed, "timeout": timeout, "database": database, "replay": replay,
              "key": key, "extra": extra, "shrink_seconds": SHRINK_SECONDS}
    results: list[PairResult] = []
    from crdtool.cli.progress import wanted

    with _Progress(wanted(), examples) as progress:
        if webhook:
            for a, b in pairs:
                task = progress.add(f"{a.version} → {b.version}")
                prefetch = lambda objs, a=a, b=b: convert.prefetch(objs, a.api_version, b.api_version)  # noqa: E731
                results.append(run_pair(convert, a, b, on_example=progress.ticker(task), batch_size=batch,
                                        before_batch=prefetch, **common))
                progress.done(task)
        else:
            by_source = _run_sources(convert, selected, common, progress)
            results = [r for source_results in by_source for r in source_results]

    from crdtool.cli.reporters import CheckRun, report

    name = str(getattr(output, "value", output))
    run_report = CheckRun(
        command="fuzz-roundtrip",
        cases=_cases(results, target, convert, crd_doc),
        render_text=lambda: _text_report(results, target, first, examples, seed, replay, extra is not None),
        json_payload=lambda: _json_report(results, examples, seed),
        summary=_summary(results),
        rules={f"fuzz-{p}": d for p, d in RULES.items()},
    )
    report(run_report, name)
    gave_up = [r for r in results if r.gave_up]
    for r in gave_up:
        err.print(f"crdtool: {escape(r.from_version)} → {escape(r.to_version)}: {escape(r.gave_up or '')}")
    if any(r.failure for r in results):
        return 1
    return 2 if gave_up else 0


def _run_sources(convert: Callable[..., Any], selected: list[Any], common: dict[str, Any], progress: _Progress) -> list[Any]:
    """Each source version's objects, generated once and checked against every selected version.

    Returns one list of :class:`PairResult` per source, in ``selected`` order
    (each in ``selected`` order too). The sources run in worker processes
    (forked, so the converter and everything built here are inherited, not
    pickled) when there are several and the machine has cores free: the
    workers are at most the sources, the usable cores minus the 1-minute
    load average, rounded. Each run is the same as a serial one (the seed
    and the example database decide every example), so results do not
    depend on the number of workers.
    """
    from crdtool.core.fuzz.properties import objects_per_example, run_source

    tasks = [progress.add(f"{a.version} → {', '.join(b.version for b in selected)}") for a in selected]
    workers = _worker_count(len(selected))
    if workers <= 1:
        out = []
        for a, task in zip(selected, tasks):
            out.append(run_source(convert, a, list(selected), on_example=progress.ticker(task),
                                  per_example=objects_per_example(a), **common))
            progress.done(task)
        return out
    import multiprocessing
    import time

    ctx = multiprocessing.get_context("fork")
    counters = [ctx.RawValue("q", 0) for _ in selected]
    state = (convert, list(selected), common, counters)
    with ctx.Pool(workers, initializer=_init_worker, initargs=(state,)) as pool:
        pending = [pool.apply_async(_source_worker, (i,)) for i in range(len(selected))]
        while not all(p.ready() for p in pending):
            for task, counter in zip(tasks, counters):
                progress.set(task, counter.value)
            time.sleep(0.05)
        out = [p.get() for p in pending]
    for task in tasks:
        progress.done(task)
    return out


def _worker_count(sources: int) -> int:
    """Worker processes for ``sources`` source versions: 1 unless several cores are free (and fork exists).

    A core counts as busy for each whole unit of the 1-minute load average (``int``, not rounded: the average lags,
    and a second worker on a core that is partly busy still gains: 2 workers ran the CronTab's 4,000 round trips in
    2.64 s against 4.18 s for 1 at load 0.5-0.9). ``$CRDTOOL_FUZZ_WORKERS`` (a positive integer) overrides it.
    """
    import multiprocessing

    if sources < 2 or "fork" not in multiprocessing.get_all_start_methods():
        return 1
    wanted = os.environ.get(WORKERS_ENV, "").strip()
    if wanted.isdigit() and int(wanted) > 0:
        return min(sources, int(wanted))
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        cores = os.cpu_count() or 1
    try:
        busy = os.getloadavg()[0]
    except OSError:
        busy = 0.0
    return max(1, min(sources, cores - int(busy)))


_WORKER_STATE: tuple[Any, ...] = ()


def _init_worker(state: tuple[Any, ...]) -> None:
    """Pool initializer: the job, inherited through fork (never pickled)."""
    global _WORKER_STATE
    _WORKER_STATE = state


def _source_worker(index: int) -> list[Any]:
    """One source version's run, in a worker process; results go back pickled (plain data)."""
    from crdtool.core.fuzz.properties import objects_per_example, run_source

    convert, selected, common, counters = _WORKER_STATE
    counter = counters[index]

    def tick() -> None:
        counter.value += 1

    source = selected[index]
    return run_source(convert, source, list(selected), on_example=tick, per_example=objects_per_example(source),
                      **common)


# --- inputs ----------------------------------------------------------------------------------------


def _versions_of(crd_doc: dict[str, Any], path: str) -> list[Any]:
    from crdtool.core.fuzz import versions_from_crd

    try:
        return versions_from_crd(crd_doc)
    except ValueError as exc:
        raise UsageError(f"{path}: {exc}") from None


def select_versions(all_versions: list[Any], wanted: str | None) -> list[Any]:
    """The versions named by ``--versions`` (comma-separated, in that order), or every served version."""
    if not wanted:
        served = [v for v in all_versions if v.served]
        if not served:
            raise UsageError("the CRD serves no version; name the versions to test with --versions")
        return served
    by_name = {v.version: v for v in all_versions}
    out = []
    for name in (n.strip() for n in wanted.split(",")):
        if not name:
            continue
        if name not in by_name:
            raise UsageError(f"--versions: the CRD has no version {name!r} (it has {', '.join(by_name)})")
        if by_name[name] not in out:
            out.append(by_name[name])
    if not out:
        raise UsageError("--versions: no version given")
    return out


def _require_fuzz_dependencies() -> None:
    missing = []
    for module in ("hypothesis", "deepdiff"):
        if importlib.util.find_spec(module) is None:
            missing.append(module)
    if missing:
        raise UsageError(
            f"fuzz-roundtrip needs {' and '.join(missing)} (dependencies of crdtool): pip install {' '.join(missing)}"
        )


def cache_dir() -> str:
    """Where the example database lives: ``$CRDTOOL_CACHE_DIR/fuzz`` or ``./.crdtool-cache/fuzz``."""
    return os.path.join(os.environ.get(CACHE_ENV) or DEFAULT_CACHE_DIR, "fuzz")


def hypothesis_dir() -> str:
    """hypothesis's own storage (what it would put in ``./.hypothesis``): ``$CRDTOOL_CACHE_DIR/hypothesis``."""
    return os.path.join(os.environ.get(CACHE_ENV) or DEFAULT_CACHE_DIR, "hypothesis")


@contextlib.contextmanager
def hypothesis_storage(path: str) -> Iterator[None]:
    """Point hypothesis's storage directory (constants and Unicode caches, ``.hypothesis``) at ``path``
    for the duration, so that a run writes nothing outside the cache directory; restored afterwards
    (the command may run inside a process that uses hypothesis itself, such as a test suite)."""
    import hypothesis.configuration as configuration

    saved_env = os.environ.get("HYPOTHESIS_STORAGE_DIRECTORY")
    saved_home = vars(configuration).get("__hypothesis_home_directory")
    os.environ["HYPOTHESIS_STORAGE_DIRECTORY"] = path
    configuration.set_hypothesis_home_dir(path)
    try:
        yield
    finally:
        if saved_env is None:
            os.environ.pop("HYPOTHESIS_STORAGE_DIRECTORY", None)
        else:
            os.environ["HYPOTHESIS_STORAGE_DIRECTORY"] = saved_env
        configuration.set_hypothesis_home_dir(saved_home)


def open_database() -> tuple[Any, str | None]:
    """A hypothesis directory database under :func:`cache_dir`, or an in-memory one if it is not writable."""
    from hypothesis.database import DirectoryBasedExampleDatabase, InMemoryExampleDatabase

    path = cache_dir()
    try:
        os.makedirs(path, exist_ok=True)
        probe = os.path.join(path, ".write-test")
        with open(probe, "w", encoding="utf-8") as f:
            f.write("")
        os.remove(probe)
    except OSError as exc:
        return InMemoryExampleDatabase(), f"cannot write the example database {path} ({exc.strerror}); failures will not be saved"
    return DirectoryBasedExampleDatabase(path), None


# --- progress --------------------------------------------------------------------------------------


class _Progress:
    """Rich progress bars (one per run) on stderr, where a person watches (:func:`crdtool.cli.progress.wanted`),
    once the run has lasted the progress delay (about 2 s); nothing otherwise.

    ``add`` returns a handle (None when bars are off); the bars themselves appear
    only after the delay, with the counts reached so far.
    """

    def __init__(self, enabled: bool, total: int) -> None:
        from crdtool.cli.progress import _delay

        self.enabled = enabled
        self.total = total
        self.delay = _delay()
        self.started = time.monotonic()
        self.progress: Any = None
        self.bars: list[tuple[str, int]] = []  # handle -> (description, examples done)
        self.rich_tasks: dict[int, Any] = {}

    def __enter__(self) -> _Progress:
        return self

    def __exit__(self, *exc: Any) -> None:
        if self.progress is not None:
            self.progress.stop()

    def _show(self) -> bool:
        if self.progress is None:
            if time.monotonic() - self.started < self.delay:
                return False
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

            self.progress = Progress(
                TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                console=console(stderr=True),
            )
            self.progress.start()
        for handle, (description, done) in enumerate(self.bars):
            if handle not in self.rich_tasks:
                self.rich_tasks[handle] = self.progress.add_task(description, total=self.total, completed=done)
        return True

    def add(self, description: str) -> int | None:
        """A new bar; its handle (None when bars are off)."""
        if not self.enabled:
            return None
        self.bars.append((description, 0))
        self._show()
        return len(self.bars) - 1

    def ticker(self, task: int | None) -> Callable[[], None] | None:
        """A callback advancing ``task`` by one example (None when bars are off)."""
        if task is None:
            return None
        return lambda: self.set(task, self.bars[task][1] + 1)

    def set(self, task: int | None, done: int) -> None:
        if task is None or done == self.bars[task][1]:
            return
        done = min(done, self.total)
        self.bars[task] = (self.bars[task][0], done)
        if self._show():
            self.progress.update(self.rich_tasks[task], completed=done)

    def done(self, task: int | None) -> None:
        self.set(task, self.total)


# --- reports ---------------------------------------------------------------------------------------


#: The properties of ``crdtool.core.fuzz.properties.PROPERTIES`` as reporter rules (``fuzz-call``, ...).
RULES = {
    "call": "The conversion function raised, returned something other than a dict, or timed out.",
    "unchanged": "An object already at the desired version did not come back unchanged.",
    "metadata": "The converted object changed apiVersion/kind, or metadata other than labels and annotations.",
    "schema": "The converted object is not valid for the desired version's schema, or loses fields to pruning.",
    "roundtrip": "A -> B -> A did not give back the original object.",
}


def _summary(results: list[Any]) -> str:
    bad = sum(1 for r in results if r.failure is not None)
    untested = sum(1 for r in results if r.gave_up)
    return f"{len(results)} version pairs: {len(results) - bad - untested} passed, {bad} failed, {untested} not tested"


def _target_location(convert: Callable[..., Any]) -> tuple[str | None, int | None]:
    """The file (relative to the current directory when inside it) and line of the conversion function."""
    try:
        path = inspect.getsourcefile(convert)
        line = inspect.getsourcelines(convert)[1]
    except (TypeError, OSError):
        return None, None
    if path is None:
        return None, None
    rel = os.path.relpath(path)
    return (path if rel.startswith("..") else rel), line


def _error_frame(error: str | None, path: str | None) -> int | None:
    """The deepest traceback line in the converter's own file (where it raised), if the error shows one."""
    if not error or not path:
        return None
    import re

    absolute = os.path.abspath(path)
    line = None
    for m in re.finditer(r'File "([^"]+)", line (\d+)', error):
        if os.path.abspath(m.group(1)) == absolute:
            line = int(m.group(2))
    return line


def _cases(results: list[Any], target: str, convert: Callable[..., Any], crd_doc: dict[str, Any]) -> list[Any]:
    """One reporter case per version pair; a failure is located in the converter's source."""
    from crdtool.cli.reporters import Case, Finding

    path, def_line = _target_location(convert)
    file = path or target
    cases = []
    for r in results:
        name = f"{r.from_version} -> {r.to_version}"
        if r.failure is not None:
            f = r.failure
            head = (f.error or "").splitlines()[0] if f.error else RULES.get(f.property, f.property)
            message = f"{name}: {f.property} failed: {head}"
            line = _error_frame(f.error, path) or def_line
            finding = Finding(f"fuzz-{f.property}", "error", message, file, line)
            cases.append(Case(name, file, def_line, "failed", (finding,)))
        elif r.gave_up:
            finding = Finding("fuzz-not-tested", "warning", f"{name}: not tested: {r.gave_up}", file, def_line)
            cases.append(Case(name, file, def_line, "skipped", (finding,), note=r.gave_up))
        else:
            cases.append(Case(name, file, def_line, "passed"))
    return cases


def _json_report(results: list[Any], examples: int, seed: int) -> dict[str, Any]:
    return {
        "ok": all(r.ok for r in results),
        "examples": examples,
        "seed": seed,
        "pairs": [r.to_dict() for r in results],
        "failures": [r.failure.to_dict() for r in results if r.failure is not None],
    }


def _yaml(value: Any) -> str:
    import yaml

    return yaml.safe_dump(value, sort_keys=False, allow_unicode=True, default_flow_style=False, width=100).rstrip("\n")


def _indent(text: str, prefix: str = "    ") -> str:
    return "\n".join(prefix + line if line else line for line in text.splitlines())


def _split_traceback(error: str) -> tuple[str, str]:
    """``(what happened, traceback)``: the text before a ``Traceback`` line and from it on."""
    lines = error.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("Traceback (most recent call last):"):
            return "\n".join(lines[:i]), "\n".join(lines[i:])
    return error, ""


def _text_report(
    results: list[Any], target: str, first: Any, examples: int, seed: int, replay: bool, cel: bool
) -> None:
    out = console()
    mode = "replaying saved failures" if replay else f"{examples} examples per pair"
    out.print(f"[bold]{escape(target)}[/bold]: {escape(first.kind)} ({escape(first.group)}), {mode}, seed {seed}")
    if not cel:
        out.print("[dim]x-kubernetes-validations (CEL) rules are not checked[/dim]")
    for r in results:
        pair = f"{r.from_version} → {r.to_version}"
        if r.failure is not None:
            status = f"[bold red]FAILED[/bold red]  {escape(r.failure.property)} (example {r.examples})"
        elif r.gave_up:
            status = "[bold magenta]NOT TESTED[/bold magenta]  no valid objects could be generated"
        elif replay and r.examples == 0:
            status = "[green]ok[/green]  no saved failures"
        else:
            status = f"[green]ok[/green]  {r.examples} examples"
        out.print(f"  {escape(pair):<24} {status}")
    failures = [r for r in results if r.failure is not None]
    seen_tracebacks: dict[str, int] = {}
    for n, r in enumerate(failures, 1):
        f = r.failure
        out.print()
        out.print(f"[bold red]Failure {n}: {escape(f.property)}[/bold red] ({escape(f.from_version)} → {escape(f.to_version)})")
        for note in r.notes:
            out.print(f"  [yellow]note[/yellow]: {escape(note)}")
        if f.error:
            head, trace = _split_traceback(f.error)
            if trace and trace in seen_tracebacks:
                # Several version pairs failing the same way: the traceback once, a pointer after that.
                out.print(_indent(head, "  "), markup=False, highlight=False)
                out.print(f"  (the same traceback as failure {seen_tracebacks[trace]})", markup=False, highlight=False)
            else:
                if trace:
                    seen_tracebacks[trace] = n
                out.print(_indent(f.error, "  "), markup=False, highlight=False)
        out.print("  [bold]input[/bold] (shrunk):")
        out.print(_indent(_yaml(f.input)), markup=False)
        if f.converted is not None:
            out.print(f"  [bold]converted[/bold] (to {escape(f.to_version)}):")
            out.print(_indent(_yaml(f.converted)), markup=False)
        if f.roundtrip is not None:
            out.print(f"  [bold]round trip[/bold] (back to {escape(f.from_version)}):")
            out.print(_indent(_yaml(f.roundtrip)), markup=False)
        if f.diff:
            out.print("  [bold]diff[/bold]:")
            out.print(_indent(f.diff), markup=False)
    out.print()
    bad = len(failures)
    total = len(results)
    if bad:
        out.print(f"[bold red]{bad} of {total} version pairs failed[/bold red]; failures are saved in {escape(cache_dir())} "
                  "and replayed first next time (--replay runs only them).")
    elif any(r.gave_up for r in results):
        out.print(f"[magenta]{sum(1 for r in results if r.gave_up)} of {total} version pairs could not be tested[/magenta]")
    else:
        out.print(f"[green]all {total} version pairs passed[/green]")
