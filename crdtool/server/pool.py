"""The converter processes of one server worker: conversions off the event loop, with a hard timeout.

Each server worker (one event loop) keeps ``size`` converter processes (:mod:`crdtool.server.child`),
started with ``python -m crdtool.server.child`` (a fresh interpreter: it inherits no listening socket
and no event-loop state) and spoken to over a Unix socket pair. :meth:`ConverterPool.convert` hands
one request body to an idle process and awaits its :class:`~crdtool.server.handler.Outcome`, so the
event loop keeps answering ``/healthz``, ``/readyz``, ``/metrics`` and other reviews whatever the
converter does. The request's ``timeout`` runs from its arrival (waiting for a free process counts,
as it does for the apiserver):

1. inside the process, the handler's ``SIGALRM`` timer interrupts the converter when the time is up
   and the process answers the usual timeout Failure (and stays);
2. if no answer has come :data:`HARD_KILL_GRACE` seconds later (the converter caught the timeout, or
   is stuck where Python cannot interrupt it), the process is killed with ``SIGKILL``, the Failure
   is built here (:meth:`ReviewHandler.timed_out`, naming the object it was converting, read from
   shared memory) and a new process is started in its place;
3. a process that dies (``os._exit``, a crash in an extension) answers a Failure saying so
   (:meth:`ReviewHandler.crashed`) and is replaced too.

Cost: a 1-object review spends 0.1-0.2 ms more than converting in the event loop's process (two
socket messages and the wake-ups; ``benchmarks/bench_serve.py ipc`` measures it).
"""

from __future__ import annotations

import asyncio
import logging
import mmap
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from typing import Any

from crdtool.server.config import CONFIG_ENV
from crdtool.server.child import ANSWER_HEADER, ERROR, OUTCOME, READY, REQUEST_HEADER, decode_outcome

#: Seconds after the timeout before a converter process that has not answered is killed.
HARD_KILL_GRACE = 0.5
#: Seconds a new converter process may take to load the converter.
START_TIMEOUT = 60.0
#: Bodies above this size are parsed in a thread when the Failure is built here.
_PARSE_INLINE_BYTES = 256 * 1024

logger = logging.getLogger("uvicorn.error")


class ConverterStartError(Exception):
    """A converter process could not start (its message says why)."""


class _Process:
    """One converter process: the ``Popen``, the channel's streams and the shared progress index."""

    def __init__(self, popen: subprocess.Popen[bytes], reader: asyncio.StreamReader,
                 writer: asyncio.StreamWriter, shared: mmap.mmap) -> None:
        self.popen = popen
        self.reader = reader
        self.writer = writer
        self.shared = shared
        self.progress = memoryview(shared).cast("q")

    async def read(self) -> tuple[bytes, bytes]:
        kind, size = ANSWER_HEADER.unpack(await self.reader.readexactly(ANSWER_HEADER.size))
        return kind, (await self.reader.readexactly(size) if size else b"")

    async def exchange(self, body: bytes, budget: float) -> bytes:
        self.writer.writelines([REQUEST_HEADER.pack(len(body), budget), body])
        await self.writer.drain()
        kind, payload = await self.read()
        if kind != OUTCOME:
            raise ConnectionError(f"unexpected message {kind!r} from the converter process")
        return payload

    def kill(self) -> None:
        if self.popen.poll() is None:
            try:
                self.popen.send_signal(signal.SIGKILL)
            except ProcessLookupError:  # pragma: no cover - it just ended
                pass
        self.writer.close()
        self.progress.release()
        self.shared.close()

    def how_it_ended(self) -> str:
        code = self.popen.poll()
        if code is None:
            return "stopped answering"
        if code < 0:
            try:
                return f"was killed by signal {signal.Signals(-code).name}"
            except ValueError:
                return f"was killed by signal {-code}"
        return f"exited with status {code}"


class ConverterPool:
    """``size`` converter processes for one server worker.

    ``handler`` is a :class:`~crdtool.server.handler.ReviewHandler` of this process (its converter is
    never called here: it builds the Failures of killed processes); ``config_env`` is the
    ``ServeConfig`` JSON the processes load the converter from (``$CRDTOOL_SERVE_CONFIG``).
    """

    def __init__(self, handler: Any, config_env: str, *, size: int = 2, cwd: str | None = None,
                 grace: float = HARD_KILL_GRACE) -> None:
        self.handler = handler
        self.config_env = config_env
        self.size = max(1, size)
        self.cwd = cwd
        self.grace = grace
        self.timeout = float(handler.timeout)
        self._idle: asyncio.Queue[_Process] = asyncio.Queue()
        self._all: set[_Process] = set()
        self._background: set[asyncio.Future[Any]] = set()
        self._closing = False

    @property
    def alive(self) -> int:
        """How many converter processes are running (idle or busy)."""
        return len(self._all)

    async def start(self) -> None:
        """Start every process and wait until each has loaded the converter.

        Raises :class:`ConverterStartError` when one cannot (the others are stopped).
        """
        results = await asyncio.gather(*(self._spawn() for _ in range(self.size)), return_exceptions=True)
        errors = [r for r in results if isinstance(r, BaseException)]
        for r in results:
            if isinstance(r, _Process):
                self._all.add(r)
                self._idle.put_nowait(r)
        if errors:
            await self.close()
            raise ConverterStartError(str(errors[0])) from errors[0]

    async def convert(self, body: bytes, arrival: float) -> Any:
        """The :class:`~crdtool.server.handler.Outcome` for ``body``; never raises (but cancellation).

        ``arrival``: ``time.monotonic()`` when the request was read; the timeout runs from there.
        """
        deadline = arrival + self.timeout
        while True:
            try:
                if self._idle.empty():
                    async with asyncio.timeout(max(deadline - time.monotonic(), 0)):
                        process = await self._idle.get()
                else:
                    process = self._idle.get_nowait()
            except TimeoutError:
                return await self._outside(self.handler.timed_out, body, 0, arrival)
            if process.popen.poll() is None:
                break
            self._replace(process)  # it died while idle: the request has not started, take another
        process.progress[0] = 0
        try:
            async with asyncio.timeout(max(deadline + self.grace - time.monotonic(), 0.0)):
                payload = await process.exchange(body, max(deadline - time.monotonic(), 0.0))
        except TimeoutError:
            index = process.progress[0]
            self._replace(process)
            logger.warning("killed a converter process that overran the %g s timeout by %g s (pid %d)",
                           self.timeout, self.grace, process.popen.pid)
            return await self._outside(self.handler.timed_out, body, index, arrival)
        except (asyncio.IncompleteReadError, ConnectionError, OSError):
            index = process.progress[0]
            await _wait_exit(process.popen, 0.5)
            how = process.how_it_ended()
            self._replace(process)
            logger.error("the converter process %d %s", process.popen.pid, how)
            return await self._outside(self.handler.crashed, body, index, arrival, how)
        except BaseException:
            self._replace(process)  # cancelled mid-exchange: the channel's state is unknown
            raise
        self._idle.put_nowait(process)
        outcome = decode_outcome(payload)
        outcome.seconds = time.monotonic() - arrival
        return outcome

    async def close(self) -> None:
        """Stop every process: close the channels (idle ones exit), kill what is still running after 1 s."""
        self._closing = True
        for task in list(self._background):
            task.cancel()
        processes = list(self._all)
        self._all.clear()
        for process in processes:
            process.writer.close()
        await asyncio.gather(*(_wait_exit(p.popen, 1.0) for p in processes))
        for process in processes:
            process.kill()
        await asyncio.gather(*(_wait_exit(p.popen, 5.0) for p in processes))

    async def _outside(self, build: Any, body: bytes, index: int, arrival: float, *args: Any) -> Any:
        seconds = time.monotonic() - arrival
        if len(body) > _PARSE_INLINE_BYTES:
            return await asyncio.to_thread(build, body, index, seconds, *args)
        return build(body, index, seconds, *args)

    def _replace(self, process: _Process) -> None:
        process.kill()
        self._all.discard(process)
        self._track(asyncio.ensure_future(_wait_exit(process.popen, 10.0)))
        if not self._closing:
            self._track(asyncio.ensure_future(self._respawn()))

    def _track(self, task: asyncio.Future[Any]) -> None:
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _respawn(self) -> None:
        delay = 0.0
        while not self._closing:
            try:
                process = await self._spawn()
            except (ConverterStartError, OSError) as exc:
                delay = min(max(delay * 2, 0.5), 30.0)
                logger.error("could not start a converter process (retrying in %g s): %s", delay, exc)
                await asyncio.sleep(delay)
                continue
            if self._closing:
                process.kill()
                return
            self._all.add(process)
            self._idle.put_nowait(process)
            return

    async def _spawn(self) -> _Process:
        parent_end, child_end = socket.socketpair()
        shared_fd = _shared_memory_fd()
        try:
            popen = subprocess.Popen(
                [sys.executable, "-m", "crdtool.server.child", str(child_end.fileno()), str(shared_fd)],
                pass_fds=(child_end.fileno(), shared_fd), stdin=subprocess.DEVNULL, cwd=self.cwd,
                env={**os.environ, CONFIG_ENV: self.config_env}, start_new_session=True,
            )
            shared = mmap.mmap(shared_fd, 8)
        finally:
            child_end.close()
            os.close(shared_fd)
        reader, writer = await asyncio.open_unix_connection(sock=parent_end)
        process = _Process(popen, reader, writer, shared)
        try:
            async with asyncio.timeout(START_TIMEOUT):
                kind, payload = await process.read()
        except (TimeoutError, asyncio.IncompleteReadError, ConnectionError, OSError):
            await _wait_exit(popen, 0.5)
            how = process.how_it_ended()
            process.kill()
            raise ConverterStartError(f"the converter process {how} before it was ready") from None
        except BaseException:
            process.kill()
            raise
        if kind != READY:
            process.kill()
            message = payload.decode("utf-8", "replace") if kind == ERROR else f"unexpected message {kind!r}"
            raise ConverterStartError(message)
        return process


def _shared_memory_fd() -> int:
    """A file descriptor of 8 zero bytes of memory to share with a child (memfd on Linux, else a temp file)."""
    if hasattr(os, "memfd_create"):
        fd = os.memfd_create("crdtool-progress", 0)
    else:  # pragma: no cover - macOS
        handle, path = tempfile.mkstemp(prefix="crdtool-progress-")
        os.unlink(path)
        fd = handle
    os.ftruncate(fd, 8)
    return fd


async def _wait_exit(popen: subprocess.Popen[bytes], seconds: float) -> None:
    """Wait (off the event loop) up to ``seconds`` for ``popen`` to end, reaping it."""
    if popen.poll() is not None:
        return
    try:
        await asyncio.to_thread(popen.wait, seconds)
    except subprocess.TimeoutExpired:
        pass
