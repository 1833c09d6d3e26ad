"""A small memo keyed by the exact JSON content of a value: work that depends only on a manifest's content,
done once for the Kubernetes releases of a matrix that judge it one after another.

``crdtool validate --kubernetes-version 1.30-1.37`` judges each CRD under eight releases in a row. Building the
structural schema its validation checks (:func:`crdtool.core.schema.structural.new_structural`) gives the same
result under every release: a :class:`ContentMemo` keeps the last few results, keyed by ``marshal.dumps`` of
the input (the same bytes mean the same JSON: the same key order, and ``1``, ``1.0`` and ``true`` differ) and
a tag naming what else the result depends on.

Values that are not plain data (``marshal`` refuses subclasses and other types) or are nested too deeply to
marshal get no key: the work is done afresh. A memo, not state: a hit returns what a fresh computation
returns, and callers receive either a copy or an object nobody mutates.
"""

from __future__ import annotations

import marshal
import threading
from typing import Any, Generic, Hashable, TypeVar

V = TypeVar("V")

__all__ = ["ContentMemo", "content_key"]


def content_key(value: Any) -> bytes | None:
    """``marshal.dumps(value, 0)``: equal bytes for equal plain-JSON content (exact types, key order); None for a
    value ``marshal`` refuses (a subclass, another type, nesting beyond its limit).

    Format version 0: the later ones mark interned strings and objects met twice, so two equal values built
    differently (one decoded, one copied) would get different bytes.
    """
    try:
        return marshal.dumps(value, 0)
    except (ValueError, RecursionError):
        return None


class ContentMemo(Generic[V]):
    """The last ``size`` results by ``(content key, tag)``, least recently used first out; thread-safe.

    ``tag``: whatever else the result depends on (a Go type table, a release class), compared by equality;
    an object compared by identity must be kept alive by the caller or put in the tag itself.
    """

    def __init__(self, size: int) -> None:
        self._size = size
        self._entries: dict[tuple[bytes, Hashable], V] = {}
        self._lock = threading.Lock()

    def get(self, key: bytes, tag: Hashable) -> V | None:
        with self._lock:
            hit = self._entries.pop((key, tag), None)
            if hit is not None:
                self._entries[(key, tag)] = hit  # the most recently used last
            return hit

    def put(self, key: bytes, tag: Hashable, value: V) -> None:
        with self._lock:
            self._entries.pop((key, tag), None)
            if len(self._entries) >= self._size:
                self._entries.pop(next(iter(self._entries)))
            self._entries[(key, tag)] = value

    def clear(self) -> None:
        """Forget every result (tests compare against computing afresh)."""
        with self._lock:
            self._entries.clear()
