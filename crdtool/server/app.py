"""The ASGI application of ``crdtool serve`` (no framework: a conversion webhook needs four routes).

Routes:

- ``POST <path>`` (default ``/convert``): a ConversionReview, answered by
  :class:`crdtool.server.handler.ReviewHandler`. The body is read up to ``max_body_bytes``
  (a larger ``Content-Length`` or body is a 400 before any conversion); other methods get 405;
- ``GET /healthz``: 200 while the process serves; ``GET /readyz``: 200 once started, 503 while
  shutting down;
- ``GET /metrics``: Prometheus text exposition (:mod:`crdtool.server.metrics`).

Every request is logged as one JSON line on stderr (logger ``crdtool.access``): time, remote
address, method, path, status, duration, and for reviews the uid, review version, desired
apiVersion, object count, result and failure message.

The conversion runs on the event loop's thread (the main thread), so the handler's ``SIGALRM``
timeout can interrupt the user's code; a CPU-bound converter gains nothing from threads under the
GIL, and ``--workers`` gives parallelism. :func:`create_app` is the factory uvicorn imports in each
worker; its configuration comes from the ``CRDTOOL_SERVE_CONFIG`` environment variable (JSON).
"""

from __future__ import annotations

import json
import logging
import os
import sys
import time
from dataclasses import asdict, dataclass
from typing import Any, Awaitable, Callable

from crdtool.server.handler import DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_OBJECTS, ReviewHandler

CONFIG_ENV = "CRDTOOL_SERVE_CONFIG"
ACCESS_LOGGER = "crdtool.access"

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]


@dataclass(frozen=True)
class ServeConfig:
    """What each worker needs to build the app (passed through the environment as JSON)."""

    target: str
    crd_path: str
    path: str = "/convert"
    timeout: float = 10.0
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES
    max_objects: int = DEFAULT_MAX_OBJECTS
    cwd: str = ""

    def to_env(self) -> str:
        return json.dumps(asdict(self))

    @classmethod
    def from_env(cls, text: str) -> ServeConfig:
        return cls(**json.loads(text))


class WebhookApp:
    """The ASGI callable."""

    def __init__(self, handler: ReviewHandler, metrics: Any, *, path: str = "/convert",
                 max_body_bytes: int = DEFAULT_MAX_BODY_BYTES, logger: logging.Logger | None = None) -> None:
        self.handler = handler
        self.metrics = metrics
        self.path = path
        self.max_body_bytes = max_body_bytes
        self.log = logger or logging.getLogger(ACCESS_LOGGER)
        self.ready = True

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
            return
        if scope["type"] != "http":
            return
        start = time.perf_counter()
        path, method = scope.get("path", ""), scope.get("method", "")
        entry: dict[str, Any] = {}
        if path == self.path:
            status = await self._convert(scope, receive, send, entry)
        elif path == "/healthz" and method in ("GET", "HEAD"):
            status = await _respond(send, 200, b"ok\n", "text/plain; charset=utf-8")
        elif path == "/readyz" and method in ("GET", "HEAD"):
            status = await _respond(send, 200 if self.ready else 503, b"ok\n" if self.ready else b"shutting down\n",
                                    "text/plain; charset=utf-8")
        elif path == "/metrics" and method == "GET":
            body, content_type = self.metrics.exposition()
            status = await _respond(send, 200, body, content_type)
        else:
            status = await _respond(send, 404, _json({"error": f"no route {method} {path}"}), "application/json")
        client = scope.get("client") or ("", 0)
        self.log.info(json.dumps({
            "time": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
            "remote": f"{client[0]}:{client[1]}",
            "method": method,
            "path": path,
            "status": status,
            "duration_ms": round((time.perf_counter() - start) * 1000, 3),
            **entry,
        }, ensure_ascii=False))

    async def _lifespan(self, receive: Receive, send: Send) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                self.ready = True
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                self.ready = False
                await send({"type": "lifespan.shutdown.complete"})
                return

    async def _convert(self, scope: Scope, receive: Receive, send: Send, entry: dict[str, Any]) -> int:
        if scope.get("method") != "POST":
            return await _respond(send, 405, _json({"error": "POST a ConversionReview here"}), "application/json",
                                  extra=[(b"allow", b"POST")])
        body, too_large = await self._read_body(scope, receive)
        if too_large:
            message = f"the request body is larger than the limit of {self.max_body_bytes} bytes"
            entry.update(result="bad_request", message=message)
            self.metrics.observe(_bad_request(message))
            return await _respond(send, 400, _json({"error": message}), "application/json")
        outcome = self.handler.handle(body)
        self.metrics.observe(outcome)
        entry.update(
            uid=outcome.uid, review=outcome.review_version, desired=outcome.desired, objects=outcome.objects,
            result=outcome.result,
        )
        if outcome.message:
            entry["message"] = outcome.message
        return await _respond(send, outcome.status, outcome.body, "application/json")

    async def _read_body(self, scope: Scope, receive: Receive) -> tuple[bytes, bool]:
        for name, value in scope.get("headers") or ():
            if name == b"content-length":
                try:
                    if int(value) > self.max_body_bytes:
                        return b"", True
                except ValueError:
                    pass
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                break
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body_bytes:
                return b"", True
            chunks.append(chunk)
            if not message.get("more_body"):
                break
        return b"".join(chunks), False


def _bad_request(message: str) -> Any:
    from crdtool.server.handler import Outcome

    return Outcome(400, b"", "bad_request", message, "bad_request")


def _json(value: Any) -> bytes:
    return json.dumps(value, separators=(",", ":")).encode()


async def _respond(send: Send, status: int, body: bytes, content_type: str,
                   extra: list[tuple[bytes, bytes]] | None = None) -> int:
    headers = [(b"content-type", content_type.encode()), (b"content-length", str(len(body)).encode())]
    headers.extend(extra or [])
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
    return status


def configure_access_log() -> logging.Logger:
    """The ``crdtool.access`` logger writing bare JSON lines to stderr (once per process)."""
    log = logging.getLogger(ACCESS_LOGGER)
    if not log.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("%(message)s"))
        log.addHandler(handler)
        log.setLevel(logging.INFO)
        log.propagate = False
    return log


def build_app(config: ServeConfig) -> WebhookApp:
    """Load the converter and the CRD named by ``config`` and build the app.

    Raises ``crdtool.loading.UsageError`` when the target or the CRD cannot be loaded.
    """
    from crdtool.loading import load_crd, load_target
    from crdtool.server.handler import CrdInfo
    from crdtool.server.metrics import Metrics

    if config.cwd:
        os.chdir(config.cwd)
    crd = CrdInfo.from_manifest(load_crd(config.crd_path))
    convert, _ = load_target(config.target)
    handler = ReviewHandler(convert, crd, timeout=config.timeout, max_objects=config.max_objects, name=config.target)
    return WebhookApp(handler, Metrics(crd.name, config.target), path=config.path,
                      max_body_bytes=config.max_body_bytes, logger=configure_access_log())


def create_app() -> WebhookApp:
    """uvicorn's app factory (``crdtool.server.app:create_app``): the app for ``$CRDTOOL_SERVE_CONFIG``."""
    text = os.environ.get(CONFIG_ENV)
    if not text:
        raise RuntimeError(f"{CONFIG_ENV} is not set; start the server with `crdtool serve`")
    return build_app(ServeConfig.from_env(text))
