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
* Without it, on CPython 3.11 (a pure-Python install, or
  ``CRDTOOL_PURE_PYTHON=1``): the same dict versions, read through
  ``ctypes`` (:class:`_VersionWalk`). The snapshot keeps the value's dicts and
  lists, each dict's version and each list's length, item array and items'
  identities, read as raw words through strided ``memoryview`` objects, one per
  run of neighbouring containers; a check is one list comparison in C (about
  0.02 ms for the Prometheus CRD as a YAML loader allocates it, 0.08 ms for
  one decoded by ``json``, against 2 to 4 ms for ``marshal``). It is used only
  when a self-test at its first use sees the fields where 3.11 keeps them,
  changing with every kind of change.
* Otherwise: the snapshot is ``marshal.dumps`` of the value, and a check
  compares a fresh ``marshal.dumps`` with it (2 to 4 ms for the same CRD).

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
import sys
from collections.abc import Callable, Iterable, Iterator
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
    if _version_views() is not None:
        return _VersionWalk.take(value)
    try:
        data = marshal.dumps(value)
    except (ValueError, TypeError):  # not plain data, or nested too deeply for marshal
        return None
    return Snapshot(None, data)


def accelerated() -> bool:
    """Whether checks use the C identity walk (False: the ctypes version walk or ``marshal``)."""
    return _WALK is not None


# --- the dict versions through ctypes (pure Python, CPython 3.11) ------------------------------------------


class _VersionWalk(Snapshot):
    """A snapshot that checks dicts by their PEP 509 version and lists by length and item identity.

    A dict holds the same keys and values, in the same order, while its version is the one recorded
    (CPython 3.11: every creation and every change of a dict takes a new value of one global counter;
    the same as ``_snapshot.c`` relies on). A list holds the same items while its length, its item array
    and its items' identities are the recorded ones. The snapshot keeps references to every container
    and list item (so no address is reused while it lives), so all the checks together say that ``value``
    is still made of the very same containers and leaves: the same JSON. Split-table dicts (an instance's
    ``__dict__``) get no snapshot here (the marshal way takes them).

    The words read are those ``_snapshot.c`` reads through the C API, read here as raw memory: each
    container's second and third words after its type (a dict's ``ma_used`` and ``ma_version_tag``, a
    list's ``ob_size`` and ``ob_item``), then each list's item pointers (the items' ids). They are
    grouped into arithmetic progressions of addresses, each one strided ``memoryview`` over the process's
    memory (:func:`_word_views`): a YAML loader allocates a CRD's dicts and lists one after another, so
    the Prometheus CRD of the corpus (2,623 dicts, 392 lists, 761 list items) is read through about 130
    views instead of 3,800 reads (0.02 ms a check instead of 0.1 to 0.16 ms). A check is one list
    comparison in C, views against recorded copies, which stops at the first difference: the item
    arrays come last and are read only when every list still has its recorded array and length (a
    list that was reallocated is never read at its old address). Nothing runs Python code or lets
    another thread in during that comparison.
    """

    __slots__ = ("_root", "_keep", "_live", "_recorded")

    def __init__(self, root: Any, keep: list[Any], live: list[memoryview]) -> None:
        super().__init__(None, None)
        self._root = root
        self._keep = keep  # the containers and list items, kept alive: their addresses are read
        self._live = live
        self._recorded = [memoryview(v.tobytes()).cast("Q") for v in live]

    @classmethod
    def take(cls, value: Any) -> Snapshot | None:
        dicts: list[dict[Any, Any]] = []
        lists: list[list[Any]] = []
        stack: list[tuple[Any, int]] = [(value, 0)]
        while stack:
            item, depth = stack.pop()
            kind = type(item)
            if kind is dict:
                if depth >= MAX_DEPTH:
                    return None
                dicts.append(item)
                for k, v in item.items():
                    if type(k) is not str and type(k) is not int:
                        return None
                    stack.append((v, depth + 1))
            elif kind is list:
                if depth >= MAX_DEPTH:
                    return None
                lists.append(item)
                stack.extend((v, depth + 1) for v in item)
            elif not (kind is str or kind is int or kind is float or kind is bool or item is None):
                return None
        if _version_views() is None:
            return None
        dict_ids = {id(d) for d in dicts}
        list_ids = {id(lst) for lst in lists}
        if any(_read_words(a + _DICT_VALUES_AT for a in dict_ids).values()):
            return None  # a split table: its version is not relied on (as in _snapshot.c)
        arrays = _read_words(a + _LIST_ITEMS_AT for a in list_ids)
        items: set[int] = set()
        for lst in lists:
            at = arrays[id(lst) + _LIST_ITEMS_AT]
            items.update(range(at, at + 8 * len(lst), 8))
        # the headers first: the comparison reads the item arrays only once every header matched
        live = _header_views(dict_ids, list_ids) + _word_views(items)
        keep: list[Any] = [*dicts, *lists, *chain.from_iterable(lists)]
        return cls(value, keep, live)

    def matches(self, value: Any) -> bool:
        # one comparison in C, view by view, stopping at the first difference (see the class docstring)
        return value is self._root and self._live == self._recorded


#: where CPython 3.11 keeps a dict's ``ma_used``, ``ma_version_tag`` and ``ma_values`` and a list's ``ob_size``
#: and ``ob_item`` (Include/cpython/dictobject.h, Include/cpython/listobject.h, v3.11.0): checked by
#: :func:`_self_test` before any of them is read
_USED_AT: Final = 16
_VERSION_AT: Final = 24
_DICT_VALUES_AT: Final = 40
_LIST_ITEMS_AT: Final = 24
#: the length of the one ctypes array type that spans every progression (ctypes keeps each array type it
#: makes for good: one type, not one per length); no more than the address space of x86-64 and arm64
_SPAN: Final = 1 << 47


def _progressions(addresses: Iterable[int]) -> list[tuple[int, int, int]]:
    """``(start, step, count)`` runs covering the sorted distinct ``addresses``, each run as long as it goes
    within one view's span (:data:`_SPAN` bytes from its start)."""
    todo = sorted(set(addresses))
    runs = []
    i, n = 0, len(todo)
    while i < n:
        if i + 1 == n:
            runs.append((todo[i], 8, 1))
            break
        step = todo[i + 1] - todo[i]
        if step >= _SPAN - 16:  # farther apart than one view spans: alone
            runs.append((todo[i], 8, 1))
            i += 1
            continue
        j = i + 1
        while j + 1 < n and todo[j + 1] - todo[j] == step and todo[j + 1] - todo[i] < _SPAN - 16:
            j += 1
        runs.append((todo[i], step, j - i + 1))
        i = j + 1
    return runs


def _word_views(addresses: Iterable[int]) -> list[memoryview]:
    """Native ``"Q"`` memoryviews reading the 8-byte words at ``addresses`` (8-aligned, each the memory of a
    live object the caller holds), in ascending order of address, one view per progression.

    Creating a view reads nothing; the caller must make sure that every word is still in memory it may
    read whenever it reads a view.
    """
    import ctypes

    span = ctypes.c_char * _SPAN
    views = []
    for start, step, count in _progressions(addresses):
        words = memoryview(span.from_address(start)).cast("B").cast("Q")
        views.append(words[: (count - 1) * (step // 8) + 1 : step // 8])
    return views


def _header_views(dicts: set[int], lists: set[int]) -> list[memoryview]:
    """Views of the words at ``_VERSION_AT`` of the dicts and lists at the addresses ``dicts`` and ``lists`` (a
    dict's version, a list's item array), and at ``_USED_AT`` where a list is among them (its length; a dict's
    ``ma_used`` changes only with its version): per progression of addresses, a strided view for each word, or
    one view of both words for a list alone in its progression."""
    import ctypes

    span = ctypes.c_char * _SPAN
    views = []
    for start, step, count in _progressions(dicts | lists):
        words = memoryview(span.from_address(start + _USED_AT)).cast("B").cast("Q")
        stride = step // 8
        end = (count - 1) * stride + 1
        if count == 1:
            views.append(words[:2] if start in lists else words[1:2])
        elif lists.isdisjoint(range(start, start + (count - 1) * step + 1, step)):
            views.append(words[1 : end + 1 : stride])
        else:
            views.append(words[:end:stride])
            views.append(words[1 : end + 1 : stride])
    return views


def _read_words(addresses: Iterable[int]) -> dict[int, int]:
    """The 8-byte words at ``addresses`` (as :func:`_word_views`), by address."""
    todo = sorted(set(addresses))
    data = b"".join(v.tobytes() for v in _word_views(todo))
    return dict(zip(todo, memoryview(data).cast("Q").tolist()))


ViewsOf = Callable[[list[dict[Any, Any]]], "list[memoryview] | None"]


def dict_versions(dicts: list[dict[Any, Any]]) -> list[memoryview] | None:
    """The PEP 509 version of each dict as an 8-byte memoryview over the dict's memory, read afresh by
    ``b"".join(views)``; None where versions cannot be read (not CPython 3.11, the self-test failed, or a
    split-table dict among them).

    A dict holds the same keys and values in the same order while its version is unchanged. The caller
    must keep the dicts alive while it reads the views (they point into them).
    """
    views_of = _version_views()
    return views_of(dicts) if views_of is not None else None


def versions_readable() -> bool:
    """Whether :func:`version_guard` can read dict versions here (CPython 3.11 and a passing self-test)."""
    return _version_views() is not None


def version_guard(dicts: list[dict[Any, Any]]) -> tuple[list[memoryview], list[memoryview]] | None:
    """``(live, recorded)``: while ``live == recorded`` (one list comparison in C), none of ``dicts`` has
    changed since this call (the same keys and values, in the same order); None where versions cannot be read
    (as :func:`dict_versions`).

    The PEP 509 versions are read through as few strided views as the dicts' addresses allow (one per
    arithmetic progression, see :class:`_VersionWalk`). The caller must hold a reference to every one of
    the dicts for as long as it keeps the views (they point into the dicts' memory, and are read in address
    order: a dict dropped by a change to another must not be freed before the comparison sees the change).
    """
    if _version_views() is None:
        return None
    at = {id(d) for d in dicts}
    if any(_read_words(a + _DICT_VALUES_AT for a in at).values()):
        return None  # a split table
    live = _word_views(a + _VERSION_AT for a in at)
    return live, [memoryview(v.tobytes()).cast("Q") for v in live]


#: :func:`compact_copy` leaves values with fewer dicts as they are
_COMPACT_MIN: Final = 256


def compact_copy(value: Any) -> Any:
    """A deep copy of plain JSON data (exact dicts, lists and scalars) whose dicts sit side by side in memory,
    so that :func:`version_guard` reads the versions of a node's property schemas through one or two views
    instead of one per schema; ``value`` itself when it is not a dict or versions cannot be read here.

    Equal to ``value`` (the same keys in the same order, the very same scalar objects); shares no container
    with it. The dicts are copied in one run (each container's children together, then each child's subtree in
    turn: a node's property schemas sit together, and so does each subtree; the containers in and below lists
    last, see :func:`_allocation_order`), after the free blocks of their
    size that earlier frees left scattered through the allocator's pools are taken up by placeholders (at
    most 65,536 empty dicts, a few ms, freed again at once): a schema decoded depth first, or copied from such
    a one, otherwise gets its dicts wherever the allocator has holes. Only speed depends on where they land.
    """
    if type(value) is not dict or _version_views() is None:
        return value
    order = _allocation_order(value)
    dicts = [c for c in order if type(c) is dict]
    if len(dicts) < _COMPACT_MIN:
        return value  # a few guards of a few views each: not worth a copy
    lists = [c for c in order if type(c) is list]
    placeholders: list[list[dict[Any, Any]]] = []
    for _ in range(256):
        chunk: list[dict[Any, Any]] = [{} for _ in range(256)]
        placeholders.append(chunk)
        tail = [id(d) for d in chunk[-64:]]
        if len({b - a for a, b in zip(tail, tail[1:])}) == 1:  # fresh memory: one block after another
            break
    new_dicts = list(map(dict.copy, dicts))
    del placeholders
    new_lists = list(map(list.copy, lists))
    new_of: dict[int, Any] = {id(old): new for old, new in zip(dicts, new_dicts)}
    new_of.update((id(old), new) for old, new in zip(lists, new_lists))
    for d in new_dicts:
        for k, v in d.items():
            if type(v) is dict or type(v) is list:
                d[k] = new_of[id(v)]
    for lst in new_lists:
        for j, v in enumerate(lst):
            if type(v) is dict or type(v) is list:
                lst[j] = new_of[id(v)]
    return new_dicts[0]


def _allocation_order(value: dict[Any, Any]) -> list[Any]:
    """The dicts and lists of ``value`` (itself first), each once, in the order :func:`compact_copy` allocates
    their copies."""
    # the order of allocation: a container's children one after another, then each child's subtree in turn
    # (depth first): a node's property schemas sit together, and so does every subtree; the containers in and
    # below a list (a schema's anyOf/allOf entries, x-kubernetes-validations rules, list values) come after all
    # the others, so that they do not break the runs of the schema nodes a guard reads
    order: list[Any] = [value]
    late: list[Any] = []
    seen = {id(value)}  # a container met again (shared, or an ancestor: a cycle) is copied once, kept shared
    stack: list[tuple[Any, bool]] = [(value, False)]
    while stack:
        container, below_list = stack.pop()
        if type(container) is list:
            below_list = True
        kids: list[Any] = []
        for v in container.values() if type(container) is dict else container:
            if (type(v) is dict or type(v) is list) and id(v) not in seen:
                seen.add(id(v))
                kids.append(v)
        (late if below_list else order).extend(kids)
        stack.extend((kid, below_list) for kid in reversed(kids))
    order += late
    return order


#: the self-test's answer, once it ran: ``[views_of]`` or ``[None]`` (a fact about this interpreter)
_VIEWS_OF: list[ViewsOf | None] = []


def _version_views() -> ViewsOf | None:
    """``views_of(dicts)``: a ctypes view of each dict's version (None for a split-table dict among them),
    where :class:`_VersionWalk` may be used: CPython 3.11 and a passing self-test (run once); else None."""
    if not _VIEWS_OF:
        views_of = None
        if sys.implementation.name == "cpython" and sys.version_info[:2] == (3, 11):
            try:
                views_of = _self_test()
            except Exception:  # ctypes missing or refusing: the marshal way
                views_of = None
        _VIEWS_OF.append(views_of)  # a memo: the same answer every time
    return _VIEWS_OF[0]


def _self_test() -> ViewsOf | None:
    """``views_of`` if 3.11's ``PyDictObject`` layout is where it is expected and versions change as expected.

    ``PyDictObject``: ``PyObject_HEAD`` (two words), ``Py_ssize_t ma_used``, ``uint64_t ma_version_tag``,
    ``PyDictKeysObject *ma_keys``, ``PyDictValues *ma_values`` (Include/cpython/dictobject.h, v3.11.0).
    """
    import ctypes

    word = ctypes.sizeof(ctypes.c_void_p)
    if word != 8 or ctypes.sizeof(ctypes.c_ssize_t) != 8:
        return None
    used_at, version_at, values_at = 2 * word, 3 * word, 5 * word
    from_address = ctypes.c_uint64.from_address
    values_of = ctypes.c_void_p.from_address

    def views(dicts: list[dict[Any, Any]]) -> list[memoryview] | None:
        """The 8 bytes of each dict's version, as a memoryview over the dict's own memory (read, never written)."""
        if any(values_of(id(d) + values_at).value for d in dicts):
            return None  # a split table: its version is not relied on (as in _snapshot.c)
        return [memoryview(from_address(id(d) + version_at)) for d in dicts]

    d: dict[Any, Any] = {"a": 1, "b": [2]}
    if ctypes.c_ssize_t.from_address(id(d) + used_at).value != 2 or views([d]) is None:
        return None
    changes: list[Callable[[dict[Any, Any]], Any]] = [
        lambda d: d.__setitem__("a", 2), lambda d: d.__setitem__("c", 3), lambda d: d.pop("c"),
        lambda d: d.update(a=1), lambda d: d.setdefault("z", 0), lambda d: d.popitem(), lambda d: d.clear(),
        lambda d: d.update({"a": 1, "b": 2}), lambda d: d.__delitem__("b"), lambda d: d.__ior__({"q": 1}),
        lambda d: d.__init__(a=3),  # type: ignore[misc]
    ]
    view = from_address(id(d) + version_at)
    if bytes(memoryview(view)) != view.value.to_bytes(8, sys.byteorder):
        return None
    seen = {view.value}
    for change in changes:
        change(d)
        if view.value in seen or ctypes.c_ssize_t.from_address(id(d) + used_at).value != len(d):
            return None
        seen.add(view.value)
    other = dict(d)
    if from_address(id(other) + version_at).value in seen:
        return None
    same = d["a"]
    before = view.value
    d["a"] = same
    if view.value != before:
        return None
    return views if _lists_and_views_work(ctypes) else None


def _lists_and_views_work(ctypes: Any) -> bool:
    """Whether a list's ``ob_size`` and ``ob_item`` are where :class:`_VersionWalk` reads them
    (``PyListObject``: ``PyObject_VAR_HEAD``, ``PyObject **ob_item``; Include/cpython/listobject.h, v3.11.0),
    and :func:`_word_views` reads words afresh, strided and compared as :class:`_VersionWalk` compares them."""
    items: list[Any] = [object(), "x", 3]
    if ctypes.c_ssize_t.from_address(id(items) + _USED_AT).value != len(items):
        return False
    at = ctypes.c_void_p.from_address(id(items) + _LIST_ITEMS_AT).value
    if not at or list(_read_words(range(at, at + 24, 8)).values()) != [id(x) for x in items]:
        return False
    live = _word_views([at, at + 16])  # one view of two words, 16 bytes apart
    recorded = [memoryview(v.tobytes()).cast("Q") for v in live]
    if len(live) != 1 or live != recorded or recorded[0].tolist() != [id(items[0]), id(items[2])]:
        return False
    items[1] = "y"  # a word between the two: not read
    if live != recorded:
        return False
    items[2] = 4
    return bool(live != recorded)
