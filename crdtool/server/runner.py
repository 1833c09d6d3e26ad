"""Running the webhook: uvicorn with HTTPS, worker processes and graceful shutdown.

:func:`serve` loads the converter and the CRD once in the parent (so a bad target or CRD is a
usage error before anything listens), prepares TLS (given files, or a self-signed certificate in a
temporary directory), prints the CRD ``conversion`` stanza to paste (with the ``caBundle`` when
crdtool made the certificate), and runs uvicorn on the app factory
``crdtool.server.app:create_app`` with ``--workers`` processes. On SIGTERM (or Ctrl-C) uvicorn
stops accepting connections and lets in-flight requests finish (up to the request timeout plus
five seconds) before the process exits; temporary files are then removed.
"""

from __future__ import annotations

import os
import signal
import socket
import tempfile
from dataclasses import dataclass, replace
from typing import Callable

from crdtool.server.app import CONFIG_ENV, ServeConfig


@dataclass(frozen=True)
class ListenOptions:
    """Where and how to listen."""

    host: str = "127.0.0.1"
    port: int = 8443
    tls_cert: str | None = None
    tls_key: str | None = None
    self_signed: bool = False
    insecure_http: bool = False
    tls_names: tuple[str, ...] = ()
    workers: int = 1
    log_level: str = "info"


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
    :class:`ServeError` for usage problems, ``crdtool.loading.UsageError`` when the target or
    CRD cannot be loaded, ``OSError`` when the port cannot be bound.
    """
    import uvicorn

    from crdtool.server.app import build_app

    check_options(listen)
    config = replace(config, cwd=config.cwd or os.getcwd())
    app = build_app(config)  # fail early, in the parent, on a bad target or CRD
    review_versions = app.handler.crd.review_versions
    scheme = "http" if listen.insecure_http else "https"
    shown_host = listen.host if listen.host not in ("0.0.0.0", "::", "") else "localhost"
    if ":" in shown_host:
        shown_host = f"[{shown_host}]"
    url = f"{scheme}://{shown_host}:{listen.port}{config.path}"

    with tempfile.TemporaryDirectory(prefix="crdtool-serve-") as tmp:
        cert, key, ca_bundle = listen.tls_cert, listen.tls_key, None
        if listen.self_signed:
            from crdtool.server.tls import generate

            made = generate(tmp, names=(listen.host, *listen.tls_names))
            cert, key, ca_bundle = made.cert_path, made.key_path, made.ca_bundle
        out(stanza(url, review_versions, ca_bundle))
        if listen.insecure_http:
            note("warning: plain HTTP; the apiserver only calls https:// webhooks: put a TLS-terminating proxy in front")
        env: dict[str, str] = {CONFIG_ENV: config.to_env()}
        if listen.workers > 1:
            metrics_dir = os.path.join(tmp, "metrics")
            os.makedirs(metrics_dir)
            env["PROMETHEUS_MULTIPROC_DIR"] = metrics_dir
        os.environ.update(env)
        note(f"serving {config.target} for CRD {app.handler.crd.name} on {url} "
             f"({listen.workers} worker{'s' if listen.workers > 1 else ''}); SIGTERM drains and stops")
        stopped: list[int] = []
        previous = signal.signal(signal.SIGTERM, lambda signum, frame: stopped.append(signum))
        try:
            uv_config = uvicorn.Config(
                "crdtool.server.app:create_app",
                factory=True,
                host=listen.host,
                port=listen.port,
                workers=listen.workers,
                ssl_certfile=cert,
                ssl_keyfile=key,
                access_log=False,
                log_level=listen.log_level,
                lifespan="on",
                timeout_graceful_shutdown=int(config.timeout) + 5,
                server_header=False,
            )
            if listen.workers == 1:
                server = uvicorn.Server(uv_config)
                try:
                    server.run()
                except SystemExit:  # uvicorn exits when it cannot bind (after logging why)
                    pass
                if not server.started:
                    raise ServeError(f"could not serve on {listen.host}:{listen.port} (see the log above)")
            else:
                from uvicorn.supervisors import Multiprocess

                Multiprocess(uv_config, sockets=[_bind(listen.host, listen.port)]).run()
        finally:
            signal.signal(signal.SIGTERM, previous)
            for name in env:
                os.environ.pop(name, None)
    return 0


def _bind(host: str, port: int) -> socket.socket:
    """The listening socket the worker processes share.

    Created with ``proto=IPPROTO_TCP``: uvicorn's own ``Config.bind_socket`` leaves ``proto`` at 0,
    accepted sockets inherit it and asyncio then skips ``TCP_NODELAY``, so every keep-alive request
    after the first waits ~40 ms for a delayed ACK (Kludex/uvicorn#3149, open). Raises ``ServeError``
    when the address cannot be bound.
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise ServeError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    sock.set_inheritable(True)
    return sock
