"""``crdtool serve TARGET --crd CRD.yaml``: wiring of options to :mod:`crdtool.server.runner`.

The target is loaded exactly as ``crdtool fuzz-roundtrip`` loads it (``module:function`` or
``path/to/file.py:function``). Exit codes: 0 after a graceful stop (SIGTERM), 2 usage or input
errors (no TLS choice, unreadable certificate files, bad target or CRD, a port that cannot be bound),
130 on Ctrl-C.
"""

from __future__ import annotations

from crdtool.cli.markup import escape

from crdtool.cli.report import console


def run(
    target: str,
    crd: str,
    *,
    host: str,
    port: int,
    path: str,
    tls_cert: str | None,
    tls_key: str | None,
    self_signed: bool,
    insecure_http: bool,
    tls_names: list[str],
    workers: int,
    timeout: float,
    max_body_bytes: int,
    max_objects: int,
    converters: int = 2,
    drain_delay: float = 3.0,
    read_timeout: float = 5.0,
    kubernetes_version: str | None = None,
) -> int:
    """Serve ``target`` as the conversion webhook of ``crd`` (checked as ``kubernetes_version``'s apiserver
    checks it; None: the default release); return the exit code."""
    from crdtool.loading import UsageError
    from crdtool.server.config import ServeConfig
    from crdtool.server.runner import ListenOptions, ServeError, serve

    err = console(stderr=True)
    if not path.startswith("/"):
        err.print("crdtool: --path must start with /")
        return 2
    config = ServeConfig(
        target=target, crd_path=crd, path=path, timeout=timeout, max_body_bytes=max_body_bytes, max_objects=max_objects,
        converters=converters, read_timeout=read_timeout, kubernetes_version=kubernetes_version,
    )
    listen = ListenOptions(
        host=host, port=port, tls_cert=tls_cert, tls_key=tls_key, self_signed=self_signed,
        insecure_http=insecure_http, tls_names=tuple(tls_names), workers=workers, drain_delay=drain_delay,
    )
    try:
        return serve(config, listen, out=lambda text: print(text, flush=True),
                     note=lambda text: err.print(f"crdtool: {escape(text)}"))
    except (ServeError, UsageError) as exc:
        err.print(f"crdtool: {escape(str(exc))}")
        return 2
