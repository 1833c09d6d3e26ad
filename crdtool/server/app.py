"""The ASGI application of ``crdtool serve`` (no framework: a conversion webhook needs four routes).

Routes:

- ``POST <path>`` (default ``/convert``): a ConversionReview, answered by
  :class:`crdtool.server.handler.ReviewHandler` in a converter process
  (:mod:`crdtool.server.pool`). Before any conversion: other methods get 405, a ``Content-Type``
  other than ``application/json`` 415, a body larger than ``max_body_bytes`` 413 (from its
  ``Content-Length`` or while reading), a body not read within ``read_timeout`` seconds 408; the
  last two close the connection;
- ``GET /healthz``: 200 while the process serves; ``GET /readyz``: 200 once started, 503 from the
  moment it is told to stop (SIGTERM: :mod:`crdtool.server.worker` then keeps serving for the drain
  delay, so that endpoints stop sending here first); every answer sent while draining says
  ``Connection: close``;
- ``GET /metrics``: Prometheus text exposition (:mod:`crdtool.server.metrics`).

Every request is logged as one JSON line on stderr (logger ``crdtool.access``): time, remote
address, method, path, status, duration, and for reviews the uid, review version, desired
apiVersion, object count, result and failure message.

Conversions never run on the event loop: the loop only reads bodies and writes answers, so the
health routes answer in milliseconds whatever the converter does. The lifespan starts the converter
processes (startup fails when they cannot load the converter) and stops them.
:func:`create_app` builds the app of a worker process from the ``CRDTOOL_SERVE_CONFIG`` environment
variable (JSON).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import sys
import time
from dataclasses import replace
from typing import Any, Awaitable, Callable, Protocol

from crdtool.server.config import CONFIG_ENV, DEFAULT_READ_TIMEOUT, ServeConfig, load_handler  # noqa: F401 - re-exported
from crdtool.server.handler import DEFAULT_MAX_BODY_BYTES

ACCESS_LOGGER = "crdtool.access"

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]


class Converter(Protocol):
    """What the app converts with: :class:`crdtool.server.pool.ConverterPool`'s interface."""

    async def start(self) -> None:
        """Get ready (called at lifespan startup; raises when it cannot)."""

    async def convert(self, body: bytes, arrival: float) -> Any:
        """The :class:`~crdtool.server.handler.Outcome` for ``body`` (``arrival``: ``time.monotonic()``)."""

    async def close(self) -> None:
        """Stop (called at lifespan shutdown)."""


class WebhookApp:
    """The ASGI callable.

    ``converter``: see :class:`Converter`; ``read_timeout``: seconds to read a request body (408 after).
    """

    def __init__(self, converter: Converter, metrics: Any, *, crd: Any, path: str = "/convert",
                 max_body_bytes: int = DEFAULT_MAX_BODY_BYTES, read_timeout: float = DEFAULT_READ_TIMEOUT,
                 logger: logging.Logger | None = None) -> None:
        self.converter = converter
        self.metrics = metrics
        self.crd = crd
        self.path = path
        self.max_body_bytes = max_body_bytes
        self.read_timeout = read_timeout
        self.log = logger or logging.getLogger(ACCESS_LOGGER)
        self.ready = True
        self.draining = False

    def start_draining(self) -> None:
        """From now on /readyz answers 503 and every answer closes its connection."""
        self.draining = True
        self.ready = False

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
            status = await self._respond(send, 200, b"ok\n", "text/plain; charset=utf-8")
        elif path == "/readyz" and method in ("GET", "HEAD"):
            status = await self._respond(send, 200 if self.ready else 503,
                                         b"ok\n" if self.ready else b"shutting down\n", "text/plain; charset=utf-8")
        elif path == "/metrics" and method == "GET":
            body, content_type = self.metrics.exposition()
            status = await self._respond(send, 200, body, content_type)
        else:
            status = await self._respond(send, 404, _json({"error": f"no route {method} {path}"}), "application/json")
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
                try:
                    await self.converter.start()
                except Exception as exc:  # noqa: BLE001 - uvicorn logs the message and exits
                    await send({"type": "lifespan.startup.failed", "message": f"cannot start the converter: {exc}"})
                    return
                self.ready = not self.draining
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                self.ready = False
                await self.converter.close()
                await send({"type": "lifespan.shutdown.complete"})
                return

    async def _convert(self, scope: Scope, receive: Receive, send: Send, entry: dict[str, Any]) -> int:
        if scope.get("method") != "POST":
            return await self._respond(send, 405, _json({"error": "POST a ConversionReview here"}), "application/json",
                                       extra=[(b"allow", b"POST")])
        content_type = _header(scope, b"content-type")
        if content_type is None or content_type.split(b";", 1)[0].strip().lower() != b"application/json":
            shown = content_type.decode("latin-1") if content_type is not None else "none"
            return await self._refuse(send, entry, 415, f"the Content-Type is {shown}; a ConversionReview is application/json")
        body, status = await self._read_body(scope, receive)
        if status == 413:
            message = f"the request body is larger than the limit of {self.max_body_bytes} bytes"
            return await self._refuse(send, entry, 413, message, close=True)
        if status == 408:
            message = f"the request body was not received within {self.read_timeout:g} s"
            return await self._refuse(send, entry, 408, message, close=True)
        outcome = await self.converter.convert(body, time.monotonic())
        self.metrics.observe(outcome)
        entry.update(
            uid=outcome.uid, review=outcome.review_version, desired=outcome.desired, objects=outcome.objects,
            result=outcome.result,
        )
        if outcome.message:
            entry["message"] = outcome.message
        return await self._respond(send, outcome.status, outcome.body, "application/json")

    async def _refuse(self, send: Send, entry: dict[str, Any], status: int, message: str, close: bool = False) -> int:
        entry.update(result="bad_request", message=message)
        self.metrics.observe(_bad_request(message))
        return await self._respond(send, status, _json({"error": message}), "application/json", close=close)

    async def _read_body(self, scope: Scope, receive: Receive) -> tuple[bytes, int]:
        """The body and 0, or ``b""`` and 413 (too large) or 408 (not received in time)."""
        length = _header(scope, b"content-length")
        if length is not None:
            try:
                if int(length) > self.max_body_bytes:
                    return b"", 413
            except ValueError:
                pass
        chunks: list[bytes] = []
        size = 0
        try:
            async with asyncio.timeout(self.read_timeout):
                while True:
                    message = await receive()
                    if message["type"] == "http.disconnect":
                        break
                    chunk = message.get("body", b"")
                    size += len(chunk)
                    if size > self.max_body_bytes:
                        return b"", 413
                    chunks.append(chunk)
                    if not message.get("more_body"):
                        break
        except TimeoutError:
            return b"", 408
        return b"".join(chunks), 0

    async def _respond(self, send: Send, status: int, body: bytes, content_type: str,
                       extra: list[tuple[bytes, bytes]] | None = None, close: bool = False) -> int:
        headers = [(b"content-type", content_type.encode()), (b"content-length", str(len(body)).encode())]
        headers.extend(extra or [])
        if close or self.draining:
            headers.append((b"connection", b"close"))
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})
        return status


def _header(scope: Scope, name: bytes) -> bytes | None:
    for key, value in scope.get("headers") or ():
        if key == name:
            return bytes(value)
    return None


def _bad_request(message: str) -> Any:
    from crdtool.server.handler import Outcome

    return Outcome(400, b"", "bad_request", message, "bad_request")


def _json(value: Any) -> bytes:
    return json.dumps(value, separators=(",", ":")).encode()


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
    """The app of one server worker, converting in ``config.converters`` processes (started by its lifespan).

    Raises ``crdtool.loading.UsageError`` when the CRD cannot be loaded (``config.crd_info`` empty).
    """
    from crdtool.server.metrics import Metrics
    from crdtool.server.pool import ConverterPool

    handler = load_handler(config, load_converter=False)
    if not config.crd_info:
        config = replace(config, crd_info=handler.crd.to_dict())
    pool = ConverterPool(handler, config.to_env(), size=config.converters, cwd=config.cwd or None)
    return WebhookApp(pool, Metrics(handler.crd.name, config.target), crd=handler.crd, path=config.path,
                      max_body_bytes=config.max_body_bytes, read_timeout=config.read_timeout,
                      logger=configure_access_log())


def create_app() -> WebhookApp:
    """The app for ``$CRDTOOL_SERVE_CONFIG`` (what a worker process serves)."""
    text = os.environ.get(CONFIG_ENV)
    if not text:
        raise RuntimeError(f"{CONFIG_ENV} is not set; start the server with `crdtool serve`")
    return build_app(ServeConfig.from_env(text))
