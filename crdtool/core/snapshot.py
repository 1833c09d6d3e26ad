"""Snapshots of JSON-like values: has the caller's dict changed since we last saw it?

``prepare_crd``'s memo (:mod:`crdtool.core.customresource.prepared`) keeps the prepared
form of a plain CRD dict and must never hand back a stale one: before every
reuse it asks :meth:`Snapshot.matches` whether the dict still holds exactly the
JSON it was prepared from. Python reports no mutation of a caller's nested
dicts and lists, so every check reads the whole value; this module makes that
read as cheap as it can be.

Two ways, the same answers for the memo:

* With the C extension ``crdtool.core._snapshot`` (built with the mypyc
  modules when a C compiler works; see ``crdtool/_compiled.py``): the snapshot
  is :func:`flatten`'s list of the value's shape and leaf objects, and a check
  walks the value comparing pointers: the same containers' lengths, the same
  key objects in the same order, the very same leaf objects (which it never
  reads). On CPython 3.11 it skips the entries of every dict whose PEP 509
  version is still the one recorded (the dict has not changed since), and
  only looks at the dicts and lists below it. About 0.06 ms for the
  Prometheus CRD of the corpus (2,623 dicts and 392 lists holding 8,462
  entries; 0.09 ms reading every entry, as on other Pythons).
* Without it (a pure-Python install, or ``CRDTOOL_PURE_PYTHON=1``): the
  snapshot is ``marshal.dumps`` of the value, and a check compares a fresh
  ``marshal.dumps`` with it (about 0.4 ms for the same CRD).

Both are exact in the direction that matters: a check that says "unchanged"
means the value holds the same JSON, with the same key order and the same
types (``1``, ``1.0`` and ``true`` differ). The identity walk is stricter than
the JSON: a leaf replaced by an equal but different object counts as changed,
which only costs a new preparation. Values that are not plain JSON-like data
(dict, list, str, int, float, bool and None, exact types only, keys str or
int), or nested deeper than :data:`MAX_DEPTH`, get no snapshot.

Pure: no I/O, no globals mutated.
"""

from __future__ import annotations

import marshal
from collections.abc import Callable, Iterator
from itertools import chain
from typing import Any, Final

#: Values nested deeper than this get no snapshot (the C walk has the same bound).
MAX_DEPTH: Final = 1000


def _load_walk() -> tuple[Callable[[Any, list[Any]], bool] | None, Callable[[dict[Any, Any]], int]]:
    try:
        from crdtool.core._snapshot import dict_version, unchanged
    except ImportError:  # pure-Python install, or CRDTOOL_PURE_PYTHON=1 (crdtool/_compiled.py)
        return None, lambda d: 0
    return unchanged, dict_version


#: The C identity walk, or None without the extension; and the dict version it may rely on (0: none).
_WALK, _DICT_VERSION = _load_walk()


def flatten(value: Any) -> list[Any] | None:
    """The shape and leaves of ``value`` in pre-order, as the C walk reads them; None if not plain JSON-like data.

    In: decoded JSON (dicts with str or int keys, lists, str, int, float,
    bool, None; exact types, at most :data:`MAX_DEPTH` containers deep).
    Out: a list: a dict is ``dict, len(d), version, id(d), key1, <value1>,
    ...``, a list is ``list, len(l), id(l), <item1>, ...``, a leaf is the
    leaf object itself. ``version`` is the dict's PEP 509 version (CPython
    3.11 with the C extension; else 0), which the C walk uses to skip the
    entries of a dict that has not changed (see ``_snapshot.c``). The list
    holds references to the leaves (keeping them alive, so their identities
    stay theirs) and none to the containers.
    """
    dict_version = _DICT_VERSION
    out: list[Any] = []
    append = out.append
    stack: list[Iterator[Any]] = [iter((value,))]
    while stack:
        for item in stack[-1]:
            kind = type(item)
            if kind is dict or kind is list:
                if len(stack) > MAX_DEPTH:
                    return None
                append(kind)
                append(len(item))
                if kind is dict:
                    append(dict_version(item))  # before reading the entries: a later change shows
                append(id(item))
                # a dict's keys go through this loop as leaves, each before its value
                stack.append(chain.from_iterable(item.items()) if kind is dict else iter(item))
                break
            if kind is str or kind is int or kind is float or kind is bool or item is None:
                append(item)
            else:
                return None
        else:
            stack.pop()
    return out


class Snapshot:
    """What a JSON-like value held when :func:`take` looked at it."""

    __slots__ = ("_items", "_data")

    def __init__(self, items: list[Any] | None, data: bytes | None) -> None:
        self._items = items
        self._data = data

    def matches(self, value: Any) -> bool:
        """Whether ``value`` still holds exactly the JSON it held (key order and types included).

        False may also mean "could not tell cheaply" (a leaf replaced by an
        equal object); True is always right. Raises nothing.
        """
        if self._items is not None and _WALK is not None:
            return _WALK(value, self._items)
        try:
            return marshal.dumps(value) == self._data
        except (ValueError, TypeError):
            return False


    def copy(self, value: Any) -> Any:
        """A deep copy of ``value``, just taken a snapshot of, sharing nothing with it (the ``marshal`` bytes, reused).

        Raises ``ValueError`` or ``TypeError`` as ``marshal.dumps`` does (not
        for a value :func:`take` accepted).
        """
        return marshal.loads(self._data if self._data is not None else marshal.dumps(value))


def take(value: Any) -> Snapshot | None:
    """A :class:`Snapshot` of ``value``, or None when it is not plain JSON-like data (see the module docstring)."""
    if _WALK is not None:
        items = flatten(value)
        return None if items is None else Snapshot(items, None)
    try:
        data = marshal.dumps(value)
    except (ValueError, TypeError):  # not plain data, or nested too deeply for marshal
        return None
    return Snapshot(None, data)


def accelerated() -> bool:
    """Whether checks use the C identity walk (False: ``marshal``)."""
    return _WALK is not None
