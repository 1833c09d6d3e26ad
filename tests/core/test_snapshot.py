"""Snapshots of JSON-like values (crdtool/core/snapshot.py and its C walk, crdtool/core/_snapshot.c).

The property that matters to ``prepare_crd``'s memo: a snapshot that says a
value is unchanged is right, whatever the caller did to the value in between
(the oracle is a type-strict, order-strict JSON comparison with a deep copy
taken beforehand). The C walk is also checked against a Python reference of
its documented semantics, on the same hypothesis-generated values and
mutations, and both ways of checking (the C walk, ``marshal``) are run.
"""

from __future__ import annotations

import copy
import math
import sys
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crdtool._compiled import compiled_state
from crdtool.core import snapshot
from crdtool.core.snapshot import MAX_DEPTH, Snapshot, flatten, take


def _same_json(a: Any, b: Any) -> bool:
    """a and b are the same JSON: same types (1, 1.0 and True differ), same key order, equal leaves."""
    if type(a) is not type(b):
        return False
    if type(a) is dict:
        return list(a) == list(b) and all(_same_json(a[k], b[k]) for k in a)
    if type(a) is list:
        return len(a) == len(b) and all(_same_json(x, y) for x, y in zip(a, b))
    if type(a) is float and math.isnan(a):
        return math.isnan(b)
    return bool(a == b)


def _reference_walk(value: Any, items: list[Any]) -> bool:
    """The C walk's documented semantics in Python: same shape, same keys and leaves by identity.

    Reads every entry: the C walk's dict-version shortcut must give the same answers.
    """
    pos = 0

    def walk(v: Any, depth: int) -> bool:
        nonlocal pos
        if pos >= len(items):
            return False
        tag = items[pos]
        if tag is not dict and tag is not list:
            pos += 1
            return tag is v
        head = 4 if tag is dict else 3  # tag, len, (version,) address: the version is the C walk's shortcut
        if depth >= MAX_DEPTH or type(v) is not tag or pos + head > len(items) or items[pos + 1] != len(v):
            return False
        pos += head
        if tag is dict:
            for k, x in v.items():
                if pos >= len(items) or items[pos] is not k:
                    return False
                pos += 1
                if not walk(x, depth + 1):
                    return False
            return True
        return all(walk(x, depth + 1) for x in v)

    return walk(value, 0) and pos == len(items)


def _marshal_snapshot(value: Any) -> Snapshot | None:
    """The pure-Python way (no C extension): a ``marshal`` snapshot."""
    import marshal

    try:
        return Snapshot(None, marshal.dumps(value))
    except (ValueError, TypeError):
        return None


LEAVES = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 3), st.integers(), st.floats(allow_nan=True),
    st.sampled_from(["", "a", "type", "object"]), st.text(max_size=4),
)
JSON = st.recursive(
    LEAVES,
    lambda children: st.one_of(
        st.lists(children, max_size=4),
        st.dictionaries(st.sampled_from(["a", "b", "type", "properties", "x"]) | st.text(max_size=3), children,
                        max_size=4),
    ),
    max_leaves=30,
)


def _containers(value: Any) -> list[Any]:
    out = []
    if type(value) in (dict, list):
        out.append(value)
        for child in value.values() if type(value) is dict else value:
            out.extend(_containers(child))
    return out


def _equal_other_object(leaf: Any) -> Any:
    """A leaf of the same type and value that is (usually) another object."""
    if type(leaf) is str:
        return "".join([leaf, "x"])[:-1]
    if type(leaf) is int and type(leaf) is not bool:
        return int(str(leaf))
    if type(leaf) is float:
        return float(repr(leaf))
    return leaf


MUTATIONS: list[Callable[[Any, Any, Any], None]] = []


def mutation(fn: Callable[[Any, Any, Any], None]) -> Callable[[Any, Any, Any], None]:
    MUTATIONS.append(fn)
    return fn


@mutation
def set_leaf(c: Any, key: Any, new: Any) -> None:
    if type(c) is dict and c:
        c[list(c)[key % len(c)]] = new
    elif type(c) is list and c:
        c[key % len(c)] = new


@mutation
def same_value_other_type(c: Any, key: Any, new: Any) -> None:
    for k in list(c) if type(c) is dict else range(len(c)):
        v = c[k]
        if type(v) is bool:
            c[k] = int(v)
        elif type(v) is int:
            c[k] = float(v) if abs(v) < 2**53 else True
        elif type(v) is float and v.is_integer():
            c[k] = int(v)
        else:
            continue
        return


@mutation
def equal_leaf_other_object(c: Any, key: Any, new: Any) -> None:
    for k in list(c) if type(c) is dict else range(len(c)):
        if type(c[k]) not in (dict, list):
            c[k] = _equal_other_object(c[k])
            return


@mutation
def delete(c: Any, key: Any, new: Any) -> None:
    if c:
        del c[list(c)[key % len(c)] if type(c) is dict else key % len(c)]


@mutation
def add(c: Any, key: Any, new: Any) -> None:
    if type(c) is dict:
        c[f"k{key}"] = new
    else:
        c.append(new)


@mutation
def rename_key_in_place(c: Any, key: Any, new: Any) -> None:
    """Another key with the same value at the same position: only the key differs."""
    if type(c) is dict and c:
        old_key = list(c)[key % len(c)]
        items = [((f"{old_key}_" if k == old_key else k), v) for k, v in c.items()]
        c.clear()
        c.update(items)


@mutation
def move_to_end(c: Any, key: Any, new: Any) -> None:
    if type(c) is dict and c:
        k = list(c)[key % len(c)]
        c[k] = c.pop(k)
    elif type(c) is list and c:
        c.append(c.pop(key % len(c)))


@mutation
def replace_with_equal_copy(c: Any, key: Any, new: Any) -> None:
    """Another container with the same leaf objects: the same JSON, which a snapshot may accept."""
    for k in list(c) if type(c) is dict else range(len(c)):
        if type(c[k]) in (dict, list):
            c[k] = copy.copy(c[k])
            return


@mutation
def replace_with_other_container_type(c: Any, key: Any, new: Any) -> None:
    class Sub(dict):  # type: ignore[type-arg]
        pass

    for k in list(c) if type(c) is dict else range(len(c)):
        if type(c[k]) is dict:
            c[k] = Sub(c[k])
            return
        if type(c[k]) is list:
            c[k] = tuple(c[k])
            return


@mutation
def noop(c: Any, key: Any, new: Any) -> None:
    pass


def _version_snapshot(value: Any) -> Snapshot | None:
    """The pure-Python dict-version way (CPython 3.11 without the C extension), wherever its self-test passes."""
    return snapshot._VersionWalk.take(value) if snapshot._version_views() is not None else None


def _check(value: Any, mutate: Callable[[Any], None]) -> None:
    before = copy.deepcopy(value)
    items = flatten(value)
    assert items is not None
    snaps = [s for s in (take(value), _marshal_snapshot(value), _version_snapshot(value)) if s is not None]
    assert snaps, "plain JSON-like data always gets a snapshot"
    for snap in snaps:
        assert snap.matches(value), "an untouched value matches its snapshot"
    if snapshot.accelerated():
        assert snapshot._WALK is not None
        assert snapshot._WALK(value, items) is _reference_walk(value, items) is True
    mutate(value)
    same = _same_json(value, before)
    for snap in snaps:
        if snap.matches(value):
            assert same, f"a snapshot matched a changed value: {before!r} -> {value!r}"
    assert _reference_walk(value, items) is False or same
    if snapshot.accelerated():
        assert snapshot._WALK is not None
        assert snapshot._WALK(value, items) is _reference_walk(value, items)


@settings(max_examples=400, deadline=None)
@given(
    value=st.one_of(st.dictionaries(st.text(max_size=3), JSON, max_size=5), st.lists(JSON, max_size=5)),
    which=st.integers(0, 10_000),
    op=st.sampled_from(MUTATIONS),
    key=st.integers(0, 100),
    new=LEAVES | st.lists(LEAVES, max_size=2),
)
def test_a_snapshot_that_matches_is_right_whatever_the_change(value: Any, which: int, op: Any, key: int,
                                                               new: Any) -> None:
    containers = _containers(value)
    _check(value, lambda v: op(containers[which % len(containers)], key, new))


def test_every_kind_of_change_is_seen() -> None:
    def crd() -> dict[str, Any]:
        return {"spec": {"versions": [{"name": "v1", "served": True, "schema": {"type": "object", "maximum": 5,
                                                                               "enum": ["a", "b"]}}]}}

    changes: list[Callable[[dict[str, Any]], None]] = [
        lambda c: c["spec"]["versions"][0].__setitem__("served", 1),
        lambda c: c["spec"]["versions"][0]["schema"].__setitem__("maximum", 5.0),
        lambda c: c["spec"]["versions"][0]["schema"].__setitem__("maximum", 6),
        lambda c: c["spec"]["versions"][0]["schema"]["enum"].append("c"),
        lambda c: c["spec"]["versions"][0]["schema"]["enum"].reverse(),
        lambda c: c["spec"]["versions"][0]["schema"].__setitem__("type", c["spec"]["versions"][0]["schema"].pop("type")),
        lambda c: c["spec"]["versions"].append({}),
        lambda c: c["spec"].__setitem__("versions", tuple(c["spec"]["versions"])),
        lambda c: c.__setitem__("spec", None),
        lambda c: c["spec"]["versions"][0]["schema"].clear(),
        # a key renamed in place: same position, same value
        lambda c: c["spec"]["versions"][0].__setitem__(
            "schema", {("minimum" if k == "maximum" else k): v for k, v in c["spec"]["versions"][0]["schema"].items()}),
    ]
    for change in changes:
        value = crd()
        snaps = [take(value), _marshal_snapshot(value)]
        if snapshot._version_views() is not None:
            snaps.append(_version_snapshot(value))
        change(value)
        for snap in snaps:
            assert snap is not None and not snap.matches(value), change


def test_flatten_layout_and_what_it_refuses() -> None:
    leaf = "x" * 3
    inner: dict[str, Any] = {"b": None}
    items: list[Any] = [1, inner]
    value = {"a": items, "c": leaf}
    v = snapshot._DICT_VERSION
    assert flatten(value) == [dict, 2, v(value), id(value), "a", list, 2, id(items), 1,
                              dict, 1, v(inner), id(inner), "b", None, "c", leaf]
    assert flatten(1.5) == [1.5]

    class Sub(str):
        pass

    for bad in ({"a": (1,)}, {"a": Sub("x")}, {(1,): 1}, {"a": {1, 2}}, {"a": b"x"}, [type(None)], [dict]):
        assert flatten(bad) is None, bad
        assert take(bad) is None or not snapshot.accelerated(), bad


def _nested(depth: int) -> Any:
    value: Any = "leaf"
    for _ in range(depth):
        value = [value]
    return value


def test_depth_bound() -> None:
    deepest = _nested(MAX_DEPTH)
    snap = take(deepest)
    assert snap is not None and snap.matches(deepest)
    assert flatten(_nested(MAX_DEPTH + 1)) is None
    inner = deepest
    while type(inner[0]) is list:
        inner = inner[0]
    inner[0] = ["leaf"]  # now one deeper than a snapshot is taken of
    assert not snap.matches(deepest)


def test_the_c_walk_is_there_when_the_build_compiled() -> None:
    """A compiled build checks with the C walk; CRDTOOL_PURE_PYTHON=1 or a pure install with marshal."""
    import os

    state = compiled_state()["crdtool.core._snapshot"]
    if os.environ.get("CRDTOOL_PURE_PYTHON", "") not in ("", "0") or state == "source":
        assert not snapshot.accelerated()
        with pytest.raises(ImportError):
            import crdtool.core._snapshot  # noqa: F401
    else:
        assert state == "compiled"
        assert snapshot.accelerated()


def test_the_c_walk_refuses_wrong_arguments() -> None:
    if not snapshot.accelerated():  # no C extension in this install: the marshal way is the only one
        assert snapshot._WALK is None
        return
    assert snapshot._WALK is not None
    with pytest.raises(TypeError):
        snapshot._WALK({}, ())  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        snapshot._WALK({})  # type: ignore[call-arg]
    empty: dict[str, Any] = {}
    assert snapshot._WALK(empty, []) is False
    assert snapshot._WALK(empty, [dict, 0, 0, id(empty)]) is True
    assert snapshot._WALK(empty, [dict, 0, 0, id(empty), "extra"]) is False
    assert snapshot._WALK(empty, [dict]) is False
    assert snapshot._WALK(empty, [dict, 0, 0]) is False
    assert snapshot._WALK(empty, [dict, "0", 0, id(empty)]) is False
    with pytest.raises(TypeError):
        snapshot._DICT_VERSION([])  # type: ignore[arg-type]


def test_the_dict_version_changes_with_every_change() -> None:
    """What the C walk's shortcut relies on (CPython 3.11; elsewhere the version is 0 and never used)."""
    version = snapshot._DICT_VERSION
    d: dict[str, Any] = {"a": 1, "b": [2]}
    if version(d) == 0:
        assert not snapshot.accelerated() or sys.version_info[:2] != (3, 11)
        return
    changes: list[Callable[[dict[str, Any]], Any]] = [
        lambda d: d.__setitem__("a", 2), lambda d: d.__setitem__("c", 3), lambda d: d.pop("c"),
        lambda d: d.update(a=1), lambda d: d.setdefault("z", 0), lambda d: d.popitem(), lambda d: d.clear(),
        lambda d: d.update({"a": 1, "b": 2}), lambda d: d.__delitem__("b"), lambda d: d.__ior__({"q": 1}),
    ]
    seen = {version(d)}
    for change in changes:
        before = version(d)
        change(d)
        assert version(d) != before, change
        seen.add(version(d))
    assert len(seen) == len(changes) + 1
    assert version(dict(d)) != version(d)  # a copy is another dict with another version
    same_value = d["a"]
    before = version(d)
    d["a"] = same_value  # the very same object: nothing changed
    assert version(d) == before


def test_a_dict_replaced_by_an_equal_one_or_swapped_is_seen_through_the_shortcut() -> None:
    inner_a: dict[str, Any] = {"k": 1}
    inner_b: dict[str, Any] = {"k": 2}
    value: dict[str, Any] = {"a": inner_a, "b": inner_b, "l": [inner_a]}
    snap = take(value)
    assert snap is not None and snap.matches(value)
    inner_a["k"] = 3  # a change two levels down, under dicts whose own entries did not change
    assert not snap.matches(value)
    inner_a["k"] = 1
    snap = take(value)
    assert snap is not None and snap.matches(value)
    value["a"], value["b"] = value["b"], value["a"]
    assert not snap.matches(value)
    value["a"], value["b"] = value["b"], value["a"]
    # swapped back: changed twice, the same JSON again, the same objects everywhere. The identity walk sees
    # it; marshal may not (its bytes depend on which objects are shared), which only costs a preparation.
    assert snap.matches(value) or not snapshot.accelerated()
    value["l"][0] = {"k": 1}  # an equal dict, another object (interned key, cached int): the same JSON
    assert snap.matches(value) or not snapshot.accelerated()
    value["l"][0]["k"] = 2
    assert not snap.matches(value)


def test_the_version_walk_is_the_pure_way_on_cpython_3_11() -> None:
    """Without the C extension, CPython 3.11 checks by dict versions read through ctypes; elsewhere by marshal."""
    value: dict[str, Any] = {"a": [1, {"b": "cd"}], "d": {}}
    works = snapshot._version_views() is not None
    assert works is (sys.implementation.name == "cpython" and sys.version_info[:2] == (3, 11))
    snap = take(value)
    assert snap is not None and snap.matches(value)
    assert isinstance(snap, snapshot._VersionWalk) is (works and not snapshot.accelerated())
    if not works:
        return
    vsnap = _version_snapshot(value)
    assert vsnap is not None and vsnap.matches(value)
    assert not vsnap.matches(copy.deepcopy(value))  # another object: not told apart by content, a miss
    value["a"][1]["b"] = "".join(["c", "d"])  # an equal string, another object: the version moves, a (harmless) miss
    assert not vsnap.matches(value)
    vsnap = _version_snapshot(value)
    assert vsnap is not None
    value["a"][0] = True  # 1 == True: seen by identity
    assert not vsnap.matches(value)
    value["a"][0] = 1
    vsnap = _version_snapshot(value)
    assert vsnap is not None
    value["a"].append(2)
    value["a"].pop(0)  # same length, items shifted
    assert not vsnap.matches(value)

    class Holder:
        def __init__(self) -> None:
            self.x = 1

    assert snapshot._VersionWalk.take({"a": Holder().__dict__}) is None  # a split table: the marshal way


# --- issue #28: the version walk reads its words through strided views over progressions of addresses -------


@settings(max_examples=50)
@given(st.sets(st.integers(0, 2**20).map(lambda n: 8 * n), max_size=60))
def test_progressions_cover_exactly_the_addresses(addresses: set[int]) -> None:
    runs = snapshot._progressions(addresses)
    covered = [start + k * step for start, step, count in runs for k in range(count)]
    assert sorted(covered) == sorted(addresses)  # each address once, nothing else
    assert all(step > 0 and step % 8 == 0 and count >= 1 for _, step, count in runs)


def _walk_or_skip(value: Any) -> Snapshot:
    if snapshot._version_views() is None:
        pytest.skip("dict versions cannot be read here (not CPython 3.11): the marshal way")
    snap = snapshot._VersionWalk.take(value)
    assert snap is not None and snap.matches(value)
    return snap


def test_the_version_walk_sees_a_change_inside_a_long_run_of_neighbours() -> None:
    """Containers allocated one after another are read through one strided view each way: a change to any one
    of them (the middle of a run, the item array of a list that kept its array) is seen."""
    changes: list[Callable[[list[Any]], None]] = [
        lambda v: v[0][500].__setitem__("k", -1),  # a dict in the middle of its run
        lambda v: v[0][500].__setitem__("k", v[0][500]["k"]),  # the very same value: no change
        lambda v: v[1][500].__setitem__(0, "other"),  # a list item: same array, same length
        lambda v: v[1][500].pop(),  # shorter, same array: the dropped pointer stays in it
        lambda v: v[1][500].append("x"),  # longer
        lambda v: v[1][500].reverse(),
        lambda v: v[1][500].__setitem__(slice(0, 2), [v[1][500][0], True]),  # 1 == True, another object
        lambda v: v[0].__setitem__(500, dict(v[0][500])),  # an equal dict, another object (harmless miss)
        lambda v: v[2].__setitem__("z", 1),
    ]
    for change in changes:
        value: list[Any] = [[{"k": i} for i in range(600)], [["a", 1] for _ in range(600)], {}]
        snap = _walk_or_skip(value)
        assert isinstance(snap, snapshot._VersionWalk)
        assert any(len(v) > 2 for v in snap._live)  # some run of neighbours read through one view
        before = copy.deepcopy(value)
        change(value)
        if snap.matches(value):
            assert _same_json(value, before), change
        else:
            assert change is not changes[1]


@settings(max_examples=30, deadline=None)
@given(
    value=st.lists(JSON, min_size=1, max_size=8),
    steps=st.lists(st.tuples(st.integers(0, 10_000), st.sampled_from(MUTATIONS), st.integers(0, 100),
                             LEAVES | st.lists(LEAVES, max_size=2)), min_size=1, max_size=4),
)
def test_the_version_walk_over_freshly_loaded_data_is_right_after_each_change(value: Any, steps: Any) -> None:
    """Sequences of changes anywhere in the value, the snapshot asked after each (of a value decoded afresh,
    as a loader allocates it: neighbours in memory)."""
    import json

    value = json.loads(json.dumps(value))
    snap = _walk_or_skip(value)
    before = copy.deepcopy(value)
    for which, op, key, new in steps:
        containers = _containers(value)
        op(containers[which % len(containers)], key, new)
        if snap.matches(value):
            assert _same_json(value, before)


def test_progressions_stay_within_one_view_s_span() -> None:
    span = snapshot._SPAN
    far = [8, 16, 24, span, span + 8]
    runs = snapshot._progressions(far)
    assert sorted(start + k * step for start, step, count in runs for k in range(count)) == far
    assert all(start + (count - 1) * step + 8 <= start + span for start, step, count in runs)
    assert all((count - 1) * step < span - 8 for _, step, count in runs)


def test_a_compact_copy_keeps_shared_containers_shared_and_copes_with_cycles() -> None:
    shared = {"type": "string"}
    value: dict[str, Any] = {"properties": {f"p{i}": {"items": shared, "n": [i]} for i in range(300)}}
    value["self"] = value  # a cycle
    out = snapshot.compact_copy(value)
    if out is value:
        assert not snapshot.versions_readable()
        return
    assert out["self"] is out
    assert out["properties"]["p1"]["items"] is out["properties"]["p2"]["items"] is not shared
    assert out["properties"]["p7"]["n"] == [7] and out["properties"]["p7"]["n"] is not value["properties"]["p7"]["n"]
    assert list(out["properties"]) == list(value["properties"])


def test_a_compact_copy_puts_the_containers_below_lists_after_the_schema_nodes() -> None:
    """The dicts inside lists (a schema's anyOf entries, x-kubernetes-validations rules) are allocated after the
    others, so that the schema nodes of a subtree are allocated one after another and a guard over them reads
    few views (the Prometheus CRD's storage subtree: 9 views before, 2 after: its int-or-string anyOf pairs
    broke the runs). Where the copies land is the allocator's business; the order asked of it is checked."""
    def quantity() -> dict[str, Any]:
        return {"anyOf": [{"type": "integer"}, {"type": "string"}], "x-kubernetes-int-or-string": True,
                "x-kubernetes-validations": [{"rule": "true"}]}

    def resources() -> dict[str, Any]:
        return {"type": "object", "properties": {"limits": quantity(), "name": {"type": "string"}}}

    sub = {"type": "object", "properties": {f"q{i}": resources() for i in range(20)}}
    value = {"type": "object", "properties": {"sub": sub, **{f"p{i}": quantity() for i in range(60)}}}
    nodes = [sub["properties"]]
    for q in sub["properties"].values():
        nodes += [q, q["properties"], *q["properties"].values()]
    dicts = [c for c in snapshot._allocation_order(value) if type(c) is dict]
    at = {id(d): i for i, d in enumerate(dicts)}
    assert len(at) == len(dicts)  # each once
    places = sorted(at[id(n)] for n in nodes)
    assert places == list(range(places[0], places[0] + len(nodes)))  # one run: nothing between them
    in_lists = {id(e) for d in dicts for v in d.values() if type(v) is list for e in v}
    assert len(in_lists) == 2 * 80 + 80  # anyOf pairs and one rule of each of the 80 quantities
    assert min(at[i] for i in in_lists) > max(at[id(d)] for d in dicts if id(d) not in in_lists)
    out = snapshot.compact_copy(value)
    assert repr(out) == repr(value)
