"""The content memos (crdtool/core/content_memo.py) and the work they keep for a matrix of releases: a CRD's
structural schemas for validation, a version's serving schemas for preparation (decoding is not kept: done afresh,
it costs less than a hit's copy).

Each memo is a fast path: these tests hold it against the exact path (the memo cleared before each call) on
the corpus CRDs under releases whose Go types differ (1.30 lacks selectableFields) and agree (1.36, 1.37), and
check that a hit hands out nothing the caller can break.
"""

from __future__ import annotations

from typing import Any

from crdtool.core import content_memo
from crdtool.core.content_memo import ContentMemo, content_key
from crdtool.core.crd import schema_validation
from crdtool.core.customresource import prepared as prepared_module


def _clear() -> None:
    schema_validation._STRUCTURAL.clear()
    prepared_module._SERVING.clear()
    prepared_module._PREPARED._entries.clear()
    prepared_module._BY_CONTENT.clear()


def test_content_key_tells_apart_what_json_tells_apart() -> None:
    assert content_key({"a": 1}) == content_key({"a": 1})
    assert len({content_key(v) for v in ({"a": 1}, {"a": 1.0}, {"a": True}, {"a": "1"})}) == 4
    assert content_key({"a": 1, "b": 2}) != content_key({"b": 2, "a": 1})  # key order is part of the content
    assert content_key([0.0]) != content_key([-0.0])

    class Name(str):
        pass

    assert content_key({Name("a"): 1}) is None  # a subclass: no key, computed afresh
    assert content_key({"a": object()}) is None
    deep: Any = []
    for _ in range(3000):
        deep = [deep]
    assert content_key(deep) is None  # beyond marshal's nesting limit


def test_the_memo_keeps_the_last_ones_used() -> None:
    memo: ContentMemo[int] = ContentMemo(2)
    memo.put(b"a", None, 1)
    memo.put(b"b", None, 2)
    assert memo.get(b"a", None) == 1  # now the most recently used
    memo.put(b"c", None, 3)
    assert memo.get(b"b", None) is None and memo.get(b"a", None) == 1 and memo.get(b"c", None) == 3
    assert memo.get(b"a", "other tag") is None
    assert content_memo.__all__ == ["ContentMemo", "content_key"]


