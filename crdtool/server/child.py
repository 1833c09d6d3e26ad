"""A converter process of :mod:`crdtool.server.pool`: ``python -m crdtool.server.child CHANNEL_FD PROGRESS_FD``.

It loads the converter and builds a :class:`crdtool.server.handler.ReviewHandler` from
``$CRDTOOL_SERVE_CONFIG`` (the CRD comes as its :class:`~crdtool.server.handler.CrdInfo`, not re-read),
says it is ready, then answers requests on the channel (a Unix stream socket) one at a time until the
channel closes:

- in: ``!Id`` (body length, seconds left of the request's timeout), then the body;
- out: ``!cI`` (kind, length), then the payload: ``R`` ready (empty), ``O`` an outcome
  (:func:`encode_outcome`), ``E`` it could not load the converter (the message, UTF-8).

The handler's ``SIGALRM`` timer interrupts the converter when the time is up; the index of the
object being converted is kept in the 8-byte shared memory ``PROGRESS_FD``, so that the parent can
still say where a converter stopped after killing it (when it caught the timeout, or is stuck where
Python cannot interrupt it). SIGINT and SIGTERM are ignored: the parent decides when a converter
process ends (it closes the channel, or kills it); on Linux it also dies with its parent.
"""

from __future__ import annotations

import marshal
import mmap
import os
import signal
import socket
import struct
import sys
from typing import Any

REQUEST_HEADER = struct.Struct("!Id")
ANSWER_HEADER = struct.Struct("!cI")
READY, OUTCOME, ERROR = b"R", b"O", b"E"


def encode_outcome(outcome: Any) -> bytes:
    """An :class:`~crdtool.server.handler.Outcome` as bytes (``marshal``: the fastest codec of plain values)."""
    return marshal.dumps((
        outcome.status, outcome.body, outcome.result, outcome.message, outcome.reason, outcome.uid,
        outcome.review_version, outcome.desired, outcome.objects, outcome.seconds,
        [(t.from_version, t.seconds, t.ok) for t in outcome.timings],
    ))


def decode_outcome(data: bytes) -> Any:
    """The :class:`~crdtool.server.handler.Outcome` :func:`encode_outcome` encoded."""
    from crdtool.server.handler import ObjectTiming, Outcome

    (status, body, result, message, reason, uid, review_version, desired, objects, seconds,
     timings) = marshal.loads(data)
    return Outcome(status, body, result, message, reason, uid, review_version, desired, objects, seconds,
                   [ObjectTiming(*t) for t in timings])


def die_with_parent(sig: int = signal.SIGKILL) -> None:
    """On Linux, have the kernel send ``sig`` to this process when its parent dies (``PR_SET_PDEATHSIG``)."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, int(sig), 0, 0, 0)  # PR_SET_PDEATHSIG = 1
    except (OSError, AttributeError):  # no libc with prctl: the closed channel still ends us
        pass


def _recv_exact(channel: socket.socket, size: int) -> bytes | None:
    buffer = bytearray(size)
    view = memoryview(buffer)
    got = 0
    while got < size:
        n = channel.recv_into(view[got:])
        if n == 0:
            return None
        got += n
    return bytes(buffer)


def _send(channel: socket.socket, kind: bytes, payload: bytes) -> None:
    header = ANSWER_HEADER.pack(kind, len(payload))
    if len(payload) <= 65536:  # one write, one wake-up of the parent
        channel.sendall(header + payload)
    else:
        channel.sendall(header)
        channel.sendall(payload)


def main(argv: list[str]) -> int:
    try:
        return _serve(argv)
    except (ConnectionError, OSError):  # the parent closed the channel (it is stopping, or gone)
        return 0


def _serve(argv: list[str]) -> int:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    parent = os.getppid()
    die_with_parent()
    if os.getppid() != parent:  # the parent died before we asked to die with it
        return 0
    channel = socket.socket(fileno=int(argv[1]))
    shared = mmap.mmap(int(argv[2]), 8)
    try:
        from crdtool.server.config import CONFIG_ENV, ServeConfig, load_handler

        handler = load_handler(ServeConfig.from_env(os.environ[CONFIG_ENV]))
        # check_converted imports these on first use: pay for it before saying ready
        from crdtool.core.fuzz.properties import json_equal  # noqa: F401
    except BaseException as exc:  # noqa: BLE001 - reported to the parent, which logs it
        _send(channel, ERROR, (str(exc) or type(exc).__name__).encode("utf-8", "replace"))
        return 1
    handler.progress = memoryview(shared).cast("q")
    _send(channel, READY, b"")
    while True:
        header = _recv_exact(channel, REQUEST_HEADER.size)
        if header is None:
            return 0
        size, budget = REQUEST_HEADER.unpack(header)
        body = _recv_exact(channel, size)
        if body is None:
            return 0
        _send(channel, OUTCOME, encode_outcome(handler.handle(body, budget)))


if __name__ == "__main__":
    sys.exit(main(sys.argv))
