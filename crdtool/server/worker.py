"""One server worker: uvicorn's HTTP/1.1 on a listening socket, with limits for hostile clients and a Kubernetes drain.

:func:`run_worker` serves :class:`crdtool.server.app.WebhookApp` on one listening socket with
uvicorn's HTTP protocol (httptools when installed, else h11) on uvloop when installed (its TLS keeps
no memory after failed handshakes; CPython 3.11.7's asyncio kept ~220 kB per connection of random
bytes, python/cpython#109534, see ``benchmarks/bench_serve.py garbage``). :class:`WebhookServer` (a ``uvicorn.Server``)
accepts connections itself, to bound and track TLS handshakes, and adds:

- **timeouts for slow clients**, each ``read_timeout`` seconds (default 5): the TLS handshake; a
  request's headers, from the connection's start or from the first byte of a later request (a
  connection that sends nothing, or trickles headers, is closed); the body (the app answers 408).
  Headers still incomplete after :data:`MAX_HEADER_BYTES` get 431 (httptools sets no limit of its
  own; a head that completes within one more read is accepted). Idle keep-alive connections are closed
  after :data:`KEEP_ALIVE_SECONDS`.
- **a drain as Kubernetes expects**: on SIGTERM, ``/readyz`` turns 503 and answers say
  ``Connection: close`` at once; the server keeps accepting for ``drain_delay`` seconds (endpoints
  and kube-proxy rules stop sending here meanwhile); then it accepts what the kernel already queued,
  closes the listening socket, waits for TLS handshakes under way, closes idle connections (one
  whose next request has begun is served first), lets every in-flight request finish (each is
  bounded by ``--timeout`` and the converter's hard kill) and exits. SIGINT (Ctrl-C) drains
  without the delay; a second SIGINT stops at once.

``python -m crdtool.server.worker FD`` runs a worker of a multi-worker server
(:mod:`crdtool.server.runner`) on the inherited listening socket ``FD``, configured by
``$CRDTOOL_SERVE_CONFIG`` and ``$CRDTOOL_SERVE_LISTEN``.
"""

from __future__ import annotations

import asyncio
import errno
import json
import logging
import math
import os
import signal
import socket
import sys
import time
from types import FrameType
from typing import Any

import uvicorn
from uvicorn.config import STARTUP_FAILURE

from crdtool.server.app import WebhookApp
from crdtool.server.config import CONFIG_ENV, ServeConfig
from crdtool.server.pool import HARD_KILL_GRACE

LISTEN_ENV = "CRDTOOL_SERVE_LISTEN"
#: Bytes of a request head (request line and headers) read without its end; then 431.
MAX_HEADER_BYTES = 64 * 1024
#: Seconds an idle keep-alive connection is kept (uvicorn's ``timeout_keep_alive``).
KEEP_ALIVE_SECONDS = 5
#: Connections accepted per wake-up of the listening socket (then other events get their turn).
_ACCEPT_BATCH = 32
#: Ticks of uvicorn's main loop (0.1 s each) between two returns of free memory to the system.
_TRIM_TICKS = 50


def _glibc_malloc_trim() -> Any:
    """glibc's ``malloc_trim``, or None elsewhere.

    Connections that come and go (1,000 slow clients, say) leave glibc's heap full of free but
    scattered chunks that it keeps: each such wave of TLS connections grew the process by ~14 MB,
    every time; ``malloc_trim(0)`` gives them back (~1 ms, ~25 ms after a large burst).
    """
    if not sys.platform.startswith("linux"):
        return None
    try:
        import ctypes

        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):  # not glibc (musl has no malloc_trim)
        return None
    trim.argtypes = [ctypes.c_size_t]
    return trim


_malloc_trim = _glibc_malloc_trim()

logger = logging.getLogger("uvicorn.error")


class _GuardedHTTP:
    """Mixed into uvicorn's HTTP protocol: a deadline for each request's headers, and a size limit."""

    read_timeout: float = 5.0
    max_header_bytes: int = MAX_HEADER_BYTES

    cycle: Any
    transport: asyncio.Transport
    loop: asyncio.AbstractEventLoop
    _header_timer: asyncio.TimerHandle | None = None
    _header_bytes = 0

    def connection_made(self, transport: asyncio.Transport) -> None:
        super().connection_made(transport)  # type: ignore[misc]
        self._header_timer = self.loop.call_later(self.read_timeout, self._headers_too_slow)

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_header_timer()
        super().connection_lost(exc)  # type: ignore[misc]

    def data_received(self, data: bytes) -> None:
        before = self.cycle
        super().data_received(data)  # type: ignore[misc]
        if self.transport.is_closing():
            self._stop_header_timer()
        elif self.cycle is not before:  # a request's headers are complete
            self._stop_header_timer()
            self._header_bytes = 0
        elif before is None or before.response_complete:  # within the headers of the next request
            self._header_bytes += len(data)
            if self._header_bytes > self.max_header_bytes:
                self._stop_header_timer()
                self.transport.write(b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-length: 0\r\n"
                                     b"connection: close\r\n\r\n")
                self.transport.close()
            elif self._header_timer is None:
                self._header_timer = self.loop.call_later(self.read_timeout, self._headers_too_slow)

    def shutdown(self) -> None:
        if self._header_bytes and (self.cycle is None or self.cycle.response_complete):
            return  # a request has begun: serve it (the app closes the connection after it, or the timer does)
        super().shutdown()  # type: ignore[misc]

    def _stop_header_timer(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _headers_too_slow(self) -> None:
        self._header_timer = None
        if self.transport.is_closing():
            return
        if self._header_bytes:
            self.transport.write(b"HTTP/1.1 408 Request Timeout\r\ncontent-length: 0\r\nconnection: close\r\n\r\n")
        self.transport.close()


class _Deferred(asyncio.Protocol):
    """Stands for the HTTP protocol until the connection is made (after the TLS handshake), then hands over to it.

    uvicorn's protocol and its parser refer to each other; a connection whose handshake fails never
    calls ``connection_lost``, which breaks that cycle, so each would wait for a full garbage
    collection, rare in a process this size: 15,000 connections of random bytes grew the process by
    25 MB. This stand-in holds no cycle.
    """

    __slots__ = ("_make",)

    def __init__(self, make: Any) -> None:
        self._make = make

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        protocol = self._make()
        transport.set_protocol(protocol)
        protocol.connection_made(transport)


def protocol_class(read_timeout: float) -> type[asyncio.Protocol]:
    """uvicorn's HTTP/1.1 protocol (httptools if installed, else h11) with :class:`_GuardedHTTP` mixed in."""
    base: type[asyncio.Protocol]
    try:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

        base = HttpToolsProtocol
    except ImportError:  # pragma: no cover - httptools does not install everywhere
        from uvicorn.protocols.http.h11_impl import H11Protocol

        base = H11Protocol
    return type(f"Guarded{base.__name__}", (_GuardedHTTP, base),
                {"read_timeout": read_timeout, "max_header_bytes": MAX_HEADER_BYTES})


class WebhookServer(uvicorn.Server):
    """uvicorn's server with its own accept loop (bounded TLS handshakes) and the drain of the module docstring."""

    def __init__(self, config: uvicorn.Config, app: WebhookApp, *, drain_delay: float, read_timeout: float) -> None:
        super().__init__(config)
        self.app = app
        self.drain_delay = drain_delay
        self.read_timeout = read_timeout
        self.drain_started: float | None = None
        self.drain_until = 0.0
        self.listeners: list[socket.socket] = []
        self.handshakes: set[asyncio.Task[None]] = set()
        self.accepted_since_trim = 0
        self.open_at_trim = 0

    # --- signals ---------------------------------------------------------------------------------

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        self._captured_signals.append(sig)
        now = time.monotonic()
        if self.drain_started is None:
            self.drain_started = now
            self.drain_until = now + (self.drain_delay if sig == signal.SIGTERM else 0.0)
            self.app.start_draining()
            logger.info("%s: /readyz answers 503; serving for %g s more, then draining",
                        signal.Signals(sig).name, max(self.drain_until - now, 0.0))
        elif sig == signal.SIGINT:
            self.force_exit = True
            self.should_exit = True
        else:
            self.drain_until = now  # a second SIGTERM ends the delay

    async def on_tick(self, counter: int) -> bool:
        if self.drain_started is not None and time.monotonic() >= self.drain_until:
            self.should_exit = True
        if counter % _TRIM_TICKS == 0 and _malloc_trim is not None:
            open_now = len(self.server_state.connections)
            if self.accepted_since_trim or open_now < self.open_at_trim:  # connections came or went
                _malloc_trim(0)
            self.accepted_since_trim, self.open_at_trim = 0, open_now
        return await super().on_tick(counter)

    # --- accepting -------------------------------------------------------------------------------

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await self.lifespan.startup()
        if self.lifespan.should_exit:
            sys.exit(STARTUP_FAILURE)
        loop = asyncio.get_running_loop()
        self.servers = []
        for sock in sockets or []:
            sock.setblocking(False)
            self.listeners.append(sock)
            loop.add_reader(sock.fileno(), self._accept, sock)
        self.started = True

    def _accept(self, sock: socket.socket, batch: int = _ACCEPT_BATCH) -> None:
        loop = asyncio.get_running_loop()
        for _ in range(batch):
            try:
                conn, _addr = sock.accept()
            except (BlockingIOError, InterruptedError, ConnectionAbortedError):
                return
            except OSError as exc:
                if exc.errno in (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM):
                    # out of descriptors or memory: pause accepting for a second, as asyncio does
                    logger.error("cannot accept connections: %s", exc)
                    loop.remove_reader(sock.fileno())
                    loop.call_later(1.0, self._resume_accepting, sock)
                    return
                raise
            self.accepted_since_trim += 1
            task = loop.create_task(self._connection(conn))
            self.handshakes.add(task)
            task.add_done_callback(self.handshakes.discard)

    def _resume_accepting(self, sock: socket.socket) -> None:
        if sock in self.listeners:
            asyncio.get_running_loop().add_reader(sock.fileno(), self._accept, sock)

    async def _connection(self, conn: socket.socket) -> None:
        conn.setblocking(False)
        if conn.family in (socket.AF_INET, socket.AF_INET6):
            conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        tls: dict[str, Any] = {}
        if self.config.ssl is not None:
            tls = {"ssl": self.config.ssl, "ssl_handshake_timeout": self.read_timeout,
                   "ssl_shutdown_timeout": self.read_timeout}
        try:
            await asyncio.get_running_loop().connect_accepted_socket(self._protocol, conn, **tls)
        except Exception as exc:  # noqa: BLE001 - a failed handshake (garbage, plain HTTP, a silent client)
            logger.debug("connection dropped before HTTP: %r", exc)
            conn.close()

    def _protocol(self) -> asyncio.Protocol:
        return _Deferred(self._http_protocol)

    def _http_protocol(self) -> asyncio.Protocol:
        return self.config.http_protocol_class(  # type: ignore[call-arg]
            config=self.config, server_state=self.server_state, app_state=self.lifespan.state,
            _loop=asyncio.get_running_loop(),
        )

    # --- stopping --------------------------------------------------------------------------------

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        loop = asyncio.get_running_loop()
        for sock in self.listeners:
            loop.remove_reader(sock.fileno())
            self._accept(sock, batch=1_000_000)  # what the kernel queued was sent before we stopped
            sock.close()
        self.listeners = []
        if self.handshakes:  # a client's handshake takes milliseconds; a silent one is not worth waiting for
            await asyncio.wait(set(self.handshakes), timeout=min(self.read_timeout, 1.0))
        # let requests already in the connections' buffers be read before idle connections are closed
        await asyncio.sleep(0.1)
        await super().shutdown(sockets=None)


def event_loop() -> str:
    """``uvloop`` when installed (unless ``$CRDTOOL_SERVE_LOOP`` says ``asyncio``), else ``asyncio``."""
    if os.environ.get("CRDTOOL_SERVE_LOOP", "").strip().lower() == "asyncio":
        return "asyncio"
    try:
        import uvloop  # noqa: F401
    except ImportError:  # pragma: no cover - uvloop does not install everywhere
        return "asyncio"
    return "uvloop"


def uvicorn_config(app: WebhookApp, serve: ServeConfig, *, tls_cert: str | None, tls_key: str | None,
                   log_level: str = "info") -> uvicorn.Config:
    """uvicorn's configuration for ``app``: uvloop when installed, the guarded protocol, TLS files.

    ``$CRDTOOL_SERVE_LOOP=asyncio`` runs on CPython's asyncio even where uvloop is installed (to compare).
    """
    return uvicorn.Config(
        app,
        loop=event_loop(),
        http=protocol_class(serve.read_timeout),
        ssl_certfile=tls_cert,
        ssl_keyfile=tls_key,
        access_log=False,
        log_level=log_level,
        lifespan="on",
        timeout_keep_alive=KEEP_ALIVE_SECONDS,
        # in-flight requests end by the timeout and the hard kill; +2 s to write the answers
        timeout_graceful_shutdown=math.ceil(serve.timeout + HARD_KILL_GRACE) + 2,
        server_header=False,
    )


def run_worker(app: WebhookApp, serve: ServeConfig, sock: socket.socket, *, tls_cert: str | None,
               tls_key: str | None, drain_delay: float, log_level: str = "info") -> WebhookServer:
    """Serve ``app`` on the listening ``sock`` until drained; return the server (``.started`` tells if it ran)."""
    config = uvicorn_config(app, serve, tls_cert=tls_cert, tls_key=tls_key, log_level=log_level)
    server = WebhookServer(config, app, drain_delay=drain_delay, read_timeout=serve.read_timeout)
    server.run(sockets=[sock])
    return server


def main(argv: list[str]) -> int:
    """A worker of a multi-worker server: ``python -m crdtool.server.worker FD`` (see the module docstring)."""
    from crdtool.server.app import build_app
    from crdtool.server.child import die_with_parent

    supervisor = os.getppid()
    die_with_parent(signal.SIGTERM)  # drain and stop when the supervisor dies
    if os.getppid() != supervisor:
        return 0
    serve = ServeConfig.from_env(os.environ[CONFIG_ENV])
    listen = json.loads(os.environ[LISTEN_ENV])
    sock = socket.socket(fileno=int(argv[1]))
    # uvicorn raises the signal again once drained: end quietly with status 0
    signal.signal(signal.SIGTERM, lambda signum, frame: None)
    try:
        run_worker(build_app(serve), serve, sock, tls_cert=listen.get("tls_cert"), tls_key=listen.get("tls_key"),
                   drain_delay=float(listen.get("drain_delay", 0.0)), log_level=listen.get("log_level", "info"))
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
