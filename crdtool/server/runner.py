"""Running the webhook: listening sockets, TLS, worker processes, and the stop on SIGTERM.

:func:`serve` loads the converter and the CRD once in the parent (so a bad target or CRD is a
usage error before anything listens), binds the port (an error there too is a usage error),
prepares TLS (given files, or a self-signed certificate in a temporary directory), prints the CRD
``conversion`` stanza to paste (with the ``caBundle`` when crdtool made the certificate), and serves:

- ``--workers 1``: :func:`crdtool.server.worker.run_worker` in this process;
- ``--workers N``: N processes ``python -m crdtool.server.worker``, each on its own listening
  socket bound with ``SO_REUSEPORT`` (Linux), so that the kernel spreads connections over them
  (one shared socket elsewhere). The parent forwards SIGTERM and SIGINT to them, starts a new one
  when one dies, and kills what still runs :data:`EXIT_MARGIN` seconds after the longest drain
  (``--drain-delay`` + ``--timeout`` + the hard-kill grace). Workers run in their own session, so
  that a terminal's Ctrl-C reaches them once, through the parent; on Linux they stop (draining)
  if the parent dies.

Each worker serves with its own converter processes (:mod:`crdtool.server.pool`) and drains as
:mod:`crdtool.server.worker` describes; temporary files are removed once every worker has ended.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, replace
from typing import Callable

from crdtool.server.config import CONFIG_ENV, ServeConfig

#: Seconds a stopping worker may run past ``--drain-delay`` + ``--timeout`` + the hard-kill grace.
EXIT_MARGIN = 4.0
#: The listening sockets' accept queue length (uvicorn's default).
BACKLOG = 2048


@dataclass(frozen=True)
class ListenOptions:
    """Where and how to listen, and how long to keep serving after SIGTERM (``drain_delay``, seconds)."""

    host: str = "127.0.0.1"
    port: int = 8443
    tls_cert: str | None = None
    tls_key: str | None = None
    self_signed: bool = False
    insecure_http: bool = False
    tls_names: tuple[str, ...] = ()
    workers: int = 1
    log_level: str = "info"
    drain_delay: float = 3.0


class ServeError(Exception):
    """A usage problem (exit 2) with a one-line message."""


def check_options(listen: ListenOptions) -> None:
    """Exactly one of ``--tls-cert/--tls-key``, ``--self-signed`` and ``--insecure-http``."""
    chosen = sum([bool(listen.tls_cert or listen.tls_key), listen.self_signed, listen.insecure_http])
    if chosen == 0:
        raise ServeError(
            "serving needs TLS: give --tls-cert and --tls-key, or --self-signed for development "
            "(--insecure-http only behind a TLS-terminating proxy)"
        )
    if chosen > 1:
        raise ServeError("choose one of --tls-cert/--tls-key, --self-signed and --insecure-http")
    if bool(listen.tls_cert) != bool(listen.tls_key):
        raise ServeError("--tls-cert and --tls-key go together")
    for path in (listen.tls_cert, listen.tls_key):
        if path and not os.path.isfile(path):
            raise ServeError(f"{path}: no such file")
    if listen.workers < 1:
        raise ServeError("--workers must be at least 1")


def stanza(url: str, review_versions: tuple[str, ...], ca_bundle: str | None) -> str:
    """The ``spec.conversion`` of the CRD pointing at ``url`` (YAML text)."""
    versions = ", ".join(f'"{v}"' for v in review_versions if v in ("v1", "v1beta1")) or '"v1"'
    lines = [
        "conversion:",
        "  strategy: Webhook",
        "  webhook:",
        f"    conversionReviewVersions: [{versions}]",
        "    clientConfig:",
        f"      url: {url}",
    ]
    if ca_bundle:
        lines.append(f"      caBundle: {ca_bundle}")
    return "\n".join(lines)


def serve(config: ServeConfig, listen: ListenOptions, *, out: Callable[[str], None],
          note: Callable[[str], None]) -> int:
    """Serve until SIGTERM or Ctrl-C; return the exit status (0 after a graceful stop).

    ``out`` prints the stanza (stdout), ``note`` a human line (stderr). Raises
    :class:`ServeError` for usage problems (including a port that cannot be bound),
    ``crdtool.loading.UsageError`` when the target or CRD cannot be loaded, ``KeyboardInterrupt``
    after a stop by SIGINT.
    """
    from crdtool.server.config import load_handler

    check_options(listen)
    config = replace(config, cwd=config.cwd or os.getcwd())
    handler = load_handler(config)  # fail early, in the parent, on a bad target or CRD
    config = replace(config, crd_info=handler.crd.to_dict())
    port, sockets = listening_sockets(listen.host, listen.port, listen.workers)
    scheme = "http" if listen.insecure_http else "https"
    shown_host = listen.host if listen.host not in ("0.0.0.0", "::", "") else "localhost"
    if ":" in shown_host:
        shown_host = f"[{shown_host}]"
    url = f"{scheme}://{shown_host}:{port}{config.path}"

    try:
        with tempfile.TemporaryDirectory(prefix="crdtool-serve-") as tmp:
            cert, key, ca_bundle = listen.tls_cert, listen.tls_key, None
            if listen.self_signed:
                from crdtool.server.tls import generate

                made = generate(tmp, names=(listen.host, *listen.tls_names))
                cert, key, ca_bundle = made.cert_path, made.key_path, made.ca_bundle
            out(stanza(url, handler.crd.review_versions, ca_bundle))
            if listen.insecure_http:
                note("warning: plain HTTP; the apiserver only calls https:// webhooks: put a TLS-terminating proxy in front")
            note(f"serving {config.target} for CRD {handler.crd.name} on {url} "
                 f"({listen.workers} worker{'s' if listen.workers > 1 else ''}, {config.converters} converter "
                 f"process{'es' if config.converters > 1 else ''} each); SIGTERM drains and stops")
            listen = replace(listen, tls_cert=cert, tls_key=key)
            if listen.workers == 1:
                _serve_here(config, listen, sockets[0])
            else:
                metrics_dir = os.path.join(tmp, "metrics")
                os.makedirs(metrics_dir)
                _Supervisor(config, listen, port, sockets, metrics_dir, note).run()
    finally:
        for sock in sockets:
            sock.close()
    return 0


def _serve_here(config: ServeConfig, listen: ListenOptions, sock: socket.socket) -> None:
    from crdtool.server.app import build_app
    from crdtool.server.worker import run_worker

    app = build_app(config)
    # uvicorn raises the signal again once drained: SIGTERM then ends here with status 0
    previous = signal.signal(signal.SIGTERM, lambda signum, frame: None)
    try:
        try:
            server = run_worker(app, config, sock, tls_cert=listen.tls_cert, tls_key=listen.tls_key,
                                drain_delay=listen.drain_delay, log_level=listen.log_level)
        except SystemExit:  # uvicorn exits when its startup fails (after logging why)
            raise ServeError("the server could not start (see the log above)") from None
        if not server.started:
            raise ServeError("the server could not start (see the log above)")
    finally:
        signal.signal(signal.SIGTERM, previous)


class _Supervisor:
    """The parent of ``--workers N`` worker processes (see the module docstring)."""

    def __init__(self, config: ServeConfig, listen: ListenOptions, port: int, sockets: list[socket.socket],
                 metrics_dir: str, note: Callable[[str], None]) -> None:
        from crdtool.server.pool import HARD_KILL_GRACE
        from crdtool.server.worker import LISTEN_ENV

        self.config = config
        self.listen = listen
        self.port = port
        self.sockets = sockets
        self.shared = len(sockets) == 1
        self.note = note
        self.env = {
            **os.environ,
            CONFIG_ENV: config.to_env(),
            LISTEN_ENV: json.dumps({"tls_cert": listen.tls_cert, "tls_key": listen.tls_key,
                                    "drain_delay": listen.drain_delay, "log_level": listen.log_level}),
            "PROMETHEUS_MULTIPROC_DIR": metrics_dir,
        }
        self.stop_seconds = config.timeout + HARD_KILL_GRACE + EXIT_MARGIN
        self.signals: list[int] = []

    def run(self) -> None:
        workers: list[subprocess.Popen[bytes]] = []

        def forward(signum: int, frame: object) -> None:
            self.signals.append(signum)
            for worker in workers:  # at once: /readyz must turn 503 from the signal on
                _signal(worker, signum)

        handlers = {sig: signal.signal(sig, forward) for sig in (signal.SIGTERM, signal.SIGINT)}
        try:
            if self.shared:
                workers.extend(self._start() for _ in range(self.listen.workers))
            else:
                workers.extend(self._start(sock) for sock in self.sockets)
            for sig in self.signals:  # came while they were starting
                for worker in workers:
                    _signal(worker, sig)
            first = self._watch(workers)
            deadline = time.monotonic() + self.stop_seconds + (self.listen.drain_delay if first == signal.SIGTERM else 0)
            while any(w.poll() is None for w in workers) and time.monotonic() < deadline:
                time.sleep(0.05)
        finally:
            for worker in workers:
                if worker.poll() is None:
                    worker.kill()
                worker.wait()
            for sig, handler in handlers.items():
                signal.signal(sig, handler)
        if first == signal.SIGINT:
            raise KeyboardInterrupt

    def _watch(self, workers: list[subprocess.Popen[bytes]]) -> int:
        """Keep ``workers`` running until a signal comes; return it."""
        from uvicorn.config import STARTUP_FAILURE

        while not self.signals:
            time.sleep(0.1)
            for i, worker in enumerate(workers):
                code = worker.poll()
                if code is None or self.signals:
                    continue
                if code == STARTUP_FAILURE:
                    for other in workers:
                        _signal(other, signal.SIGINT)
                    raise ServeError("a worker could not start (see the log above)")
                self.note(f"worker {worker.pid} ended ({_how(code)}); starting another")
                workers[i] = self._start()
        return self.signals[0]

    def _start(self, sock: socket.socket | None = None) -> subprocess.Popen[bytes]:
        """A worker on ``sock``, on a new ``SO_REUSEPORT`` socket, or on the one shared socket."""
        if self.shared:
            sock = self.sockets[0]
        elif sock is None:
            sock = bind(self.listen.host, self.port, reuse_port=True)
        worker = subprocess.Popen(
            [sys.executable, "-m", "crdtool.server.worker", str(sock.fileno())],
            pass_fds=(sock.fileno(),), env=self.env, cwd=self.config.cwd or None, start_new_session=True,
        )
        if not self.shared:
            sock.close()  # the worker owns it now: when it closes it, what is queued there is not left hanging
        return worker


def _signal(worker: subprocess.Popen[bytes], sig: int) -> None:
    if worker.poll() is None:
        try:
            worker.send_signal(sig)
        except ProcessLookupError:  # pragma: no cover - it just ended
            pass


def _how(code: int) -> str:
    if code < 0:
        try:
            return f"signal {signal.Signals(-code).name}"
        except ValueError:
            return f"signal {-code}"
    return f"status {code}"


def listening_sockets(host: str, port: int, workers: int) -> tuple[int, list[socket.socket]]:
    """The port and the listening sockets: one per worker with ``SO_REUSEPORT`` on Linux, else one.

    The address is first bound without ``SO_REUSEPORT``, so that a port another server (another
    ``crdtool serve`` included) listens on is an error rather than silently shared; port 0 picks a
    free port. Raises :class:`ServeError` when the address cannot be bound.
    """
    probe = bind(host, port, reuse_port=False, listen=False)
    port = int(probe.getsockname()[1])
    if workers == 1 or not (hasattr(socket, "SO_REUSEPORT") and sys.platform.startswith("linux")):
        probe.listen(BACKLOG)
        return port, [probe]
    probe.close()
    sockets: list[socket.socket] = []
    try:
        for _ in range(workers):
            sockets.append(bind(host, port, reuse_port=True))
    except ServeError:
        for sock in sockets:
            sock.close()
        raise
    return port, sockets


def bind(host: str, port: int, *, reuse_port: bool, listen: bool = True) -> socket.socket:
    """A TCP socket bound to ``host:port`` (and listening, unless ``listen`` is false), inheritable.

    Created with ``proto=IPPROTO_TCP``: sockets made with ``proto`` 0 (uvicorn's ``Config.bind_socket``)
    pass it on to accepted sockets and asyncio then skips ``TCP_NODELAY``, so every keep-alive request
    after the first waits ~40 ms for a delayed ACK (Kludex/uvicorn#3149, open); crdtool's worker also
    sets ``TCP_NODELAY`` itself. Raises ``ServeError`` when the address cannot be bound.
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    if reuse_port:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    try:
        sock.bind((host, port))
        if listen:
            sock.listen(BACKLOG)
    except OSError as exc:
        sock.close()
        raise ServeError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    sock.set_inheritable(True)
    return sock

