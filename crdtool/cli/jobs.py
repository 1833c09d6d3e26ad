"""``--jobs N``: how many worker processes a judging command uses, and an ordered map over forked workers.

Judging manifests is CPU-bound Python: the commands that judge many documents
(``validate``, ``diff --objects``, ``default``) spread them over worker
processes started with ``fork``, which inherit what the parent has loaded and
prepared (documents, CRDs, compiled rules) instead of receiving it pickled.
``--jobs 1`` (or a platform without ``fork``) is the serial path, in this
process; the default is one worker per core this process may run on. Results
always come back in input order, so the output does not depend on ``--jobs``.

Two maps count this process as one of the jobs and fork their workers with
``os.fork`` and pipes of their own (no ``multiprocessing`` import, no thread):
:func:`ordered_map` with ``here`` (one big file's runs of documents) and
:func:`completed_map` (files, in any order); the others use a
``ProcessPoolExecutor`` of forked workers.
"""

from __future__ import annotations

import os
from collections import deque
from contextlib import contextmanager
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

T = TypeVar("T")
R = TypeVar("R")


def available_cores() -> int:
    """The cores this process may run on (its CPU affinity where the platform has one)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def can_fork() -> bool:
    """Worker processes can be forked here (not on Windows; macOS has fork, used as on Linux).

    ``multiprocessing`` offers its ``fork`` start method exactly where ``os.fork`` exists; asked without
    importing it (a command that ends up judging in one process does not pay for that import).
    """
    return hasattr(os, "fork")


def resolve_jobs(jobs: int | None) -> int:
    """``--jobs`` as a worker count: the cores for None, 1 where processes cannot be forked."""
    if jobs is None:
        jobs = available_cores()
    if jobs < 1:
        raise ValueError(f"--jobs must be at least 1, not {jobs}")
    return jobs if can_fork() else 1


#: What a forked worker of :func:`ordered_map` runs (set in the parent before the fork, inherited).
_WORKER_FUNCTION: Callable[[Any], Any] | None = None


def _call_in_worker(task: Any) -> Any:
    assert _WORKER_FUNCTION is not None
    return _WORKER_FUNCTION(task)


class _Here:
    """A result of :func:`ordered_map` computed in the calling process (``here=True``), in its place in order."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value


def ordered_map(
    function: Callable[[T], R],
    tasks: Iterable[T],
    jobs: int,
    in_flight: int = 2,
    started: Callable[[], None] | None = None,
    here: bool = False,
) -> Iterator[R]:
    """``function(task)`` for every task, in the tasks' order, over ``jobs`` forked workers.

    ``function`` and what it reaches are inherited by the workers at the fork
    (closures are fine: nothing but each task and its result is pickled). At
    most ``in_flight`` tasks per worker are submitted ahead of the one whose
    result is awaited, so a lazy ``tasks`` iterable is consumed as the
    results are, never held whole. With ``jobs`` 1 the tasks run here. A
    worker's exception is raised here, at its task; the tasks not started are
    dropped. ``started``: called here once the workers have their first tasks, before their results are awaited
    (work of this process's own that they do not need), or with the tasks when there are no workers.
    ``here``: this process is one of the ``jobs``: ``jobs - 1`` workers are forked, and this process computes
    the next task itself whenever the result awaited is not in yet (no task or result of its own is pickled,
    and no process waits idle beside the workers).
    """
    if jobs <= 1:
        if started is not None:
            started()
        yield from map(function, tasks)
        return
    if here:
        yield from _ordered_here(function, tasks, jobs, in_flight, started)
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    workers = jobs
    global _WORKER_FUNCTION
    _WORKER_FUNCTION = function
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("fork"))
    try:
        pending: deque[Any] = deque()  # Futures, in the tasks' order
        iterator = iter(tasks)
        limit = max(1, workers * in_flight)
        in_pool = 0
        with _frozen_heap():
            # the first submit forks every worker (fork workers are not spawned on demand)
            for task in iterator:
                pending.append(pool.submit(_call_in_worker, task))
                in_pool += 1
                break
        if in_pool < limit:
            for task in iterator:
                pending.append(pool.submit(_call_in_worker, task))
                in_pool += 1
                if in_pool >= limit:
                    break
        if started is not None:
            started()
        exhausted = False
        while pending:
            result = pending.popleft().result()
            in_pool -= 1
            while in_pool < limit and not exhausted:
                for task in iterator:
                    pending.append(pool.submit(_call_in_worker, task))
                    in_pool += 1
                    break
                else:
                    exhausted = True
            if not pending:
                # done before the last result is handed over: a consumer that stops there (it knows how
                # many to expect) leaves no pool behind for the interpreter's exit to trip over
                pool.shutdown()
            yield result
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    finally:
        _WORKER_FUNCTION = None


class WorkerLost(Exception):
    """A worker of :func:`ordered_map` with ``here`` or of :func:`completed_map` ended before sending a result it
    owed (killed, out of memory, no room for its answer's file): the caller may do the work another way, as for
    ``concurrent.futures``' ``BrokenProcessPool``."""


class RemoteTraceback(Exception):
    """The traceback of an exception raised in a worker, as its ``__cause__`` where it is raised again here."""

    def __str__(self) -> str:
        return "\n" + str(self.args[0]) if self.args else ""


class _Worker:
    """A forked worker of :func:`_ordered_here` or :func:`completed_map`: its process, the pipe ends this process
    writes tasks to and reads results from, and the numbers of the tasks it owes results for (it answers them in
    the order it was given them)."""

    __slots__ = ("pid", "tasks", "results", "queue")

    def __init__(self, pid: int, tasks: int, results: int) -> None:
        self.pid, self.tasks, self.results = pid, tasks, results
        self.queue: deque[int] = deque()

    def give(self, number: int, task: Any) -> None:
        """Send ``task`` (number ``number``) to the worker."""
        import pickle

        _send(self.tasks, pickle.dumps(task, protocol=pickle.HIGHEST_PROTOCOL))
        self.queue.append(number)


_LENGTH = 8  # the bytes of a message's length, before it (little-endian)


def _send(fd: int, payload: bytes) -> None:
    data = memoryview(len(payload).to_bytes(_LENGTH, "little") + payload)
    while data:
        data = data[os.write(fd, data):]


def _receive(fd: int) -> bytes | None:
    """The next message on ``fd``; None at its end (the other side closed it, or died, before or within it)."""
    head = _read_exactly(fd, _LENGTH)
    if head is None:
        return None
    return _read_exactly(fd, int.from_bytes(head, "little"))


def _read_exactly(fd: int, n: int) -> bytes | None:
    parts: list[bytes] = []
    while n > 0:
        part = os.read(fd, min(n, 1 << 20))
        if not part:
            return None
        parts.append(part)
        n -= len(part)
    return b"".join(parts)


#: A worker's answer longer than this goes through a file of the spill folder (when it has one), its name through
#: the pipe: the worker never waits for this process to read a big answer (which it does between tasks of its own).
#: Where a pipe cannot be given 1 MiB (F_SETPIPE_SZ is Linux's), :data:`SPILL_BYTES_SMALL_PIPE` instead.
SPILL_BYTES = 256 << 10
SPILL_BYTES_SMALL_PIPE = 16 << 10
_PIPE_BYTES = 1 << 20


def _serve(
    function: Callable[[Any], Any], tasks: int, results: int, spill: str | None = None, most: int = SPILL_BYTES
) -> None:  # pragma: no cover - in the worker
    """A worker's life: each task read from ``tasks`` answered on ``results`` (``(True, result)``, or
    ``(False, exception, traceback text)``, pickled, after a tag: ``P`` and the pickle, or ``F`` and the name of
    the file of ``spill`` holding it, when the pickle is longer than ``most`` bytes) until ``tasks`` ends."""
    import pickle

    count = 0
    while True:
        message = _receive(tasks)
        if message is None:
            return
        try:
            answer: tuple[Any, ...] = (True, function(pickle.loads(message)))
        except BaseException as exc:  # sent back, raised again where its result is awaited
            import traceback  # here: ~2 ms of every worker's start otherwise

            answer = (False, exc, traceback.format_exc())
        try:
            payload = pickle.dumps(answer, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception as exc:  # an unpicklable result or exception: a crdtool bug, reported as such
            import traceback

            text = answer[2] if not answer[0] else traceback.format_exc()
            payload = pickle.dumps((False, RuntimeError(f"a worker's answer could not be sent back: {exc!r}"), text))
        if spill is not None and len(payload) > most:
            count += 1
            name = os.path.join(spill, f"{os.getpid()}-{count}")
            with open(name, "wb") as fh:
                fh.write(payload)
            _send(results, b"F" + os.fsencode(name))
        else:
            _send(results, b"P" + payload)


def _fork_worker(function: Callable[[Any], Any], others: list[_Worker], spill: str | None = None) -> _Worker:
    """A worker forked to serve ``function`` (:func:`_serve`, big answers through files of ``spill``); ``others``:
    the workers forked before, whose pipe ends it closes (so that each worker sees its tasks end when this process
    closes them)."""
    tasks_in, tasks_out = os.pipe()
    results_in, results_out = os.pipe()
    most = SPILL_BYTES_SMALL_PIPE
    try:
        import fcntl

        # room for a run's answers without waiting for this process to read them (Linux; 64 KiB otherwise)
        command = getattr(fcntl, "F_SETPIPE_SZ", None)
        if command is not None and fcntl.fcntl(results_out, command, _PIPE_BYTES) >= _PIPE_BYTES:
            most = SPILL_BYTES
    except (ImportError, OSError):
        pass
    try:
        pid = os.fork()
    except OSError:
        for fd in (tasks_in, tasks_out, results_in, results_out):
            os.close(fd)
        raise
    if pid == 0:  # pragma: no cover - the worker: covered by the results it sends back
        status = 1
        try:
            import signal

            signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is this process's parent's to handle
            for w in others:
                os.close(w.tasks)
                os.close(w.results)
            os.close(tasks_out)
            os.close(results_in)
            _serve(function, tasks_in, results_out, spill, min(most, SPILL_BYTES))
            status = 0
        finally:
            os._exit(status)  # neither the parent's exit handlers nor its buffered output
    os.close(tasks_in)
    os.close(results_out)
    return _Worker(pid, tasks_out, results_in)


def _ordered_here(
    function: Callable[[T], R], tasks: Iterable[T], jobs: int, in_flight: int, started: Callable[[], None] | None
) -> Iterator[R]:
    """:func:`ordered_map` with ``here``: ``jobs - 1`` workers forked with ``os.fork``, each given its tasks and
    sending its results through pipes of its own (no ``multiprocessing`` to import, no thread), this process
    computing the next task itself whenever the result awaited is not in.

    Tasks should be small (numbers, names): one is written to a worker while it may be busy. A result waits in
    its pipe (1 MiB on Linux) until this process reads it, when its turn comes or between two tasks of its own.
    Raises :class:`WorkerLost` if a worker ends without its result, a worker's exception at its task (its
    traceback as ``__cause__``).
    """
    import select

    workers: list[_Worker] = []
    pending: deque[Any] = deque()  # a _Worker (its next result) or a _Here, in the tasks' order
    iterator = iter(tasks)
    exhausted = False
    given = 0  # the number of the next task taken from the iterator by a worker

    def give() -> bool:
        """The next task to the worker owing the fewest results, if one owes fewer than ``in_flight``."""
        nonlocal exhausted, given
        worker = min(workers, key=lambda w: len(w.queue))
        if exhausted or len(worker.queue) >= max(1, in_flight):
            return False
        for task in iterator:
            worker.give(given, task)
            given += 1
            pending.append(worker)
            return True
        exhausted = True
        return False

    try:
        with _frozen_heap():
            for _ in range(jobs - 1):
                workers.append(_fork_worker(function, workers))
        while give():
            pass
        if started is not None:
            started()
        while pending:
            head = pending[0]
            if (not exhausted and isinstance(head, _Worker)
                    and not select.select([head.results], [], [], 0)[0]):
                for task in iterator:
                    pending.append(_Here(function(task)))
                    break
                else:
                    exhausted = True
                continue
            pending.popleft()
            if isinstance(head, _Here):
                result = head.value
            else:
                result = _answer(head)
            while give():
                pass
            if not pending:
                # done before the last result is handed over: a consumer that stops there (it knows how many to
                # expect) leaves no worker behind
                _end_workers(workers)
                workers.clear()
            yield result
    finally:
        _end_workers(workers)


def _answer(worker: _Worker) -> Any:
    """The next result ``worker`` owes, read from its pipe (or the file it names); its exception raised again
    here with its traceback as ``__cause__``; :class:`WorkerLost` if it ended first."""
    import pickle

    message = _receive(worker.results)
    if message is None:
        raise WorkerLost(f"a worker (process {worker.pid}) ended before sending its result")
    worker.queue.popleft()
    if message[:1] == b"F":
        name = os.fsdecode(message[1:])
        with open(name, "rb") as fh:
            payload = fh.read()
        os.unlink(name)
        answer = pickle.loads(payload)
    else:
        answer = pickle.loads(memoryview(message)[1:])
    if not answer[0]:
        raise answer[1] from RemoteTraceback(answer[2])
    return answer[1]


def completed_map(
    function: Callable[[T], R], tasks: Iterable[T], jobs: int, in_flight: int = 2
) -> Iterator[tuple[T, R]]:
    """``(task, function(task))`` for every task, as they are done, by this process and ``jobs - 1`` forked workers.

    For tasks given biggest first whose results may come in any order (files to load and judge): the workers
    take them from the front, each with at most ``in_flight`` given ahead, and this process takes them from the
    back, computing each itself (neither task nor result pickled) and reading the answers the workers sent
    meanwhile between two of its own. A worker's answer over :data:`SPILL_BYTES` goes through a file of a
    private temporary folder (``tempfile``'s: ``$TMPDIR``, ``/tmp``), removed afterwards: no worker waits for
    this process to read. Tasks should be small (they are written to a busy worker's pipe). At most one worker
    per task beyond the first is forked. With ``jobs`` 1 (or fewer than two tasks) the tasks run here, in
    order. Raises :class:`WorkerLost` if a worker ends without its answer, a worker's exception (its traceback
    as ``__cause__``) when its answer is read; the workers are ended and waited for either way.
    """
    import select
    import shutil
    import tempfile

    tasks = list(tasks)
    if jobs <= 1 or len(tasks) < 2:
        for task in tasks:
            yield task, function(task)
        return
    spill = tempfile.mkdtemp(prefix="crdtool-")
    workers: list[_Worker] = []
    front, back = 0, len(tasks)  # the workers take tasks[front], this process tasks[back - 1]

    def give() -> None:
        nonlocal front
        for worker in workers:
            while len(worker.queue) < max(1, in_flight) and front < back:
                worker.give(front, tasks[front])
                front += 1

    try:
        with _frozen_heap():
            for _ in range(min(jobs, len(tasks)) - 1):  # one worker per task beyond the first, at most
                workers.append(_fork_worker(function, workers, spill))
        give()
        while front < back:
            back -= 1
            yield tasks[back], function(tasks[back])
            for worker in workers:
                while worker.queue and select.select([worker.results], [], [], 0)[0]:
                    n = worker.queue[0]
                    yield tasks[n], _answer(worker)
            give()
        for worker in workers:
            while worker.queue:
                n = worker.queue[0]
                yield tasks[n], _answer(worker)
    finally:
        _end_workers(workers)
        shutil.rmtree(spill, ignore_errors=True)


def _end_workers(workers: list[_Worker]) -> None:
    """Close every worker's pipes (a worker between tasks then ends), stop those still busy, wait for all."""
    import signal

    for w in workers:
        for fd in (w.tasks, w.results):
            try:
                os.close(fd)
            except OSError:
                pass
    for w in workers:
        if w.queue:
            try:
                os.kill(w.pid, signal.SIGTERM)  # its results are no longer wanted
            except OSError:
                pass
        try:
            os.waitpid(w.pid, 0)
        except ChildProcessError:
            pass


@contextmanager
def _frozen_heap() -> Iterator[None]:
    """The objects that exist now moved out of the garbage collector's sight while workers fork (``gc.freeze``).

    A forked worker's collections then never walk the heap it inherited: no time spent on it, and no page of it
    copied for the collector's bookkeeping (copy-on-write stays shared). This process gets them back afterwards
    (``gc.unfreeze``); what is collected, and when, changes no result.
    """
    import gc

    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


@contextmanager
def paused_gc() -> Iterator[None]:
    """The cyclic garbage collector off for a while (``gc.disable``), on again after if it was on.

    For building many objects that all live on (documents loaded or received from workers): the collector would
    walk the growing heap again and again for no garbage (unpickling 3,000 documents took four times as long
    with it on). Garbage made meanwhile is collected afterwards; no result depends on when.
    """
    import gc

    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


def batches(items: Iterable[T], size: Callable[[T], int], limit: int, most: int = 1 << 30) -> Iterator[list[T]]:
    """``items`` in consecutive lists of about ``limit`` in ``size`` (at least one item, at most ``most`` items)."""
    batch: list[T] = []
    total = 0
    for item in items:
        batch.append(item)
        total += size(item)
        if total >= limit or len(batch) >= most:
            yield batch
            batch, total = [], 0
    if batch:
        yield batch


def index_ranges(count: int, jobs: int, per_worker: int = 4, least: int = 1) -> list[range]:
    """``range(count)`` cut into about ``jobs * per_worker`` consecutive ranges of at least ``least`` indexes."""
    if count <= 0:
        return []
    pieces = max(1, min(jobs * per_worker, count // max(1, least)))
    step = -(-count // pieces)
    return [range(start, min(start + step, count)) for start in range(0, count, step)]
