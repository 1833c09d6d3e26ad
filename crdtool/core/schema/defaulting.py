"""Defaulting of custom resources from ``default`` values in the schema.

Mirrors ``k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting``:

* ``algorithm.go`` ``Default``: top-down. For an object, every property
  with a ``default`` is set when the field is *absent*, or when it is an
  explicit ``null`` and the property is not ``nullable`` (present values,
  including ``""``, ``0``, ``false``, ``[]`` and ``{}``, are never replaced).
  Then every field is defaulted recursively, newly defaulted ones included,
  through ``properties``, else ``additionalProperties`` (whose non-nullable
  ``null`` values also take its ``default``). Array items likewise use
  ``items``.
* ``prunenulls.go`` ``PruneNonNullableNullsWithoutDefaults``: drops
  ``null`` fields whose schema is neither nullable nor defaulted (the
  apiserver runs it before ``Default``).

A ``default: null`` is no default (upstream's ``Default.Object == nil``).

Both functions copy while they walk, in one pass: the result shares nothing
with the arguments or with the schema's ``default`` values, and the
arguments are never mutated. The walk is recursive for speed and switches
to an explicit stack below :data:`_MAX_DEPTH` levels, so hostile nesting
cannot exhaust the interpreter stack.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from crdtool.core.snapshot import version_guard, versions_readable

__all__ = ["Defaulter", "compile_defaulter", "copy_json", "default", "prune_non_nullable_nulls"]

Schema = dict[str, Any]

# Recursion is used down to this depth, an explicit stack below it.
_MAX_DEPTH = 150

_SCALARS = (str, int, float, bool, type(None))
_SCALAR_TYPES = frozenset(_SCALARS)


def default(obj: Any, schema: Schema | None) -> Any:
    """Return a defaulted deep copy of ``obj``.

    Mirrors ``defaulting.Default(x, s)`` (algorithm.go).

    Args:
        obj: decoded JSON (dict/list/scalars); not modified.
        schema: a raw structural ``openAPIV3Schema`` dict, or None (no-op copy).

    Returns:
        A new value: ``obj`` with defaults applied top-down.

    A schema dict is walked through :func:`_node`'s guarded summaries of its nodes (CPython 3.11: see
    :func:`_guarded_default`); elsewhere, or for a schema that is not of the shape structural schemas have,
    by the plain walk. Both give the same result, and see a schema changed in place between calls.
    """
    if type(schema) is dict:  # each node falls back to _default where versions cannot be read
        node = _NODES.get(id(schema))
        if (node is None or node[0] is not schema) and _SEEN.get(id(schema)) is not schema:
            # the first call with this dict: a schema made afresh for each call (``dict(schema)``) is not worth
            # summarising; the nodes below a summarised root are the schema's own, reached through its guards
            if len(_SEEN) >= _SEEN_SIZE:
                _SEEN.clear()
            _SEEN[id(schema)] = schema  # held: its id is not reused meanwhile
            return _default(obj, schema, 0)
        return _g_object(obj, schema, 0) if type(obj) is dict else _g_any(obj, schema, 0)
    return _default(obj, schema, 0)


def prune_non_nullable_nulls(obj: Any, schema: Schema | None) -> Any:
    """Return a copy of ``obj`` without ``null`` fields that must not be null.

    Mirrors ``defaulting.PruneNonNullableNullsWithoutDefaults(x, s)``
    (prunenulls.go): an object field whose value is ``null`` is removed when
    its schema (from ``properties``, else ``additionalProperties``) exists,
    is not ``nullable`` and has no ``default``. Array items are never removed.
    """
    return _prune_nulls(obj, schema, 0)


def copy_json(x: Any) -> Any:
    """A deep copy of decoded JSON (dicts, lists, scalars; tuples become lists), sharing nothing mutable.

    Several times faster than ``copy.deepcopy`` (no memo); any depth.
    """
    return _copy(x, 0)


# --- copying --------------------------------------------------------------------------


def _copy(x: Any, depth: int) -> Any:
    """Deep copy of decoded JSON (faster than ``copy.deepcopy``, no memo).

    A dict is copied whole (C speed) and then only its non-scalar values are
    replaced by copies: most values of a Kubernetes object are scalars.
    """
    t = type(x)
    if t is dict:
        if depth > _MAX_DEPTH:
            return _copy_iter(x)
        d = depth + 1
        out = x.copy()
        for k, v in x.items():
            if type(v) not in _SCALAR_TYPES:
                out[k] = _copy(v, d)
        return out
    if t is list:
        if depth > _MAX_DEPTH:
            return _copy_iter(x)
        d = depth + 1
        return [v if type(v) in _SCALAR_TYPES else _copy(v, d) for v in x]
    if t in _SCALAR_TYPES:
        return x
    if isinstance(x, (dict, list, tuple)):
        return _copy_iter(x)
    return x


def _copy_iter(x: Any) -> Any:
    holder: list[Any] = [None]
    stack: list[tuple[Any, Any, Any]] = [(x, holder, 0)]
    while stack:
        v, container, slot = stack.pop()
        if isinstance(v, dict):
            out: dict[str, Any] = {}
            container[slot] = out
            for k, item in v.items():
                out[k] = None
                stack.append((item, out, k))
        elif isinstance(v, (list, tuple)):
            lst: list[Any] = [None] * len(v)
            container[slot] = lst
            for i, item in enumerate(v):
                stack.append((item, lst, i))
        else:
            container[slot] = v
    return holder[0]


# --- Default ---------------------------------------------------------------------------


def _field_schema(props: Any, ap: Any, k: str) -> tuple[bool, Schema | None, bool]:
    """(has schema, schema, from additionalProperties) of object field ``k``."""
    if props is not None:
        p = props.get(k)
        if p is not None:
            return True, p, False
    if ap is not None:
        return True, (ap if type(ap) is dict else None), True
    return False, None, False


def _with_defaults(props: dict[str, Any]) -> Iterable[tuple[str, Any]]:
    """The entries of a ``properties`` map that ``Default`` must look at for absent fields: all of them, or
    (remembered) only those whose schema has a non-null ``default``.

    A sparse object of a big CRD reaches nodes with a hundred properties and few defaults; scanning them all
    on every call is most of the defaulting's time. The scan's result is kept for the very ``props`` dict
    while neither it nor any of its property schemas changed: the dicts' PEP 509 versions are the recorded
    ones (:func:`crdtool.core.snapshot.version_guard`; where versions cannot be read, every entry is
    returned, as the plain loop reads them). Exact: the caller's checks on each entry are unchanged, and an
    entry left out has no default, as its unchanged dict says.
    """
    entry = _SCANS.get(id(props))
    if entry is not None and entry[0] is props and entry[1] == entry[2]:
        return entry[3]
    schemas = list(props.values())
    guard = version_guard([props, *schemas]) if all(type(p) is dict for p in schemas) else None
    if guard is None:
        return props.items()
    found = tuple((k, p) for k, p in props.items() if p.get("default") is not None)
    if len(_SCANS) >= _SCANS_SIZE:
        _SCANS.clear()
    # holds props and every property schema: their memory is read by the views, their ids not reused meanwhile
    _SCANS[id(props)] = (props, *guard, found, schemas)
    return found


#: :func:`_with_defaults`' memo: id(props) -> (props, live version views, recorded versions, entries with a default,
#: the property schemas)
_SCANS: dict[int, tuple[dict[str, Any], list[memoryview], list[memoryview], tuple[tuple[str, Any], ...], list[Any]]] = {}
_SCANS_SIZE = 512
#: smaller ``properties`` maps are scanned every time
_SCAN_MEMO_MIN = 8


def _default(x: Any, s: Schema | None, depth: int) -> Any:
    if s is None:
        return _copy(x, depth)
    if depth > _MAX_DEPTH:
        return _default_iter(x, s)
    t = type(x)
    if t is dict or (t is not list and isinstance(x, dict)):
        props = s.get("properties")
        ap = s.get("additionalProperties")
        d = depth + 1
        # a plain dict is copied whole (C speed) and only its null and container values are looked at: every
        # other value is copied as it is by each branch below (the same keys, in the same order)
        whole = t is dict and (props is None or type(props) is dict)
        out: dict[str, Any] = x.copy() if whole else {}
        for k, v in x.items():
            if whole and v is not None and type(v) in _SCALAR_TYPES:
                continue
            if props is not None:
                p = props.get(k)
                if p is not None:
                    if v is None and p.get("nullable") is not True and p.get("default") is not None:
                        out[k] = _default(p["default"], p, d)
                    elif type(v) in _SCALARS:
                        out[k] = v
                    else:
                        out[k] = _default(v, p, d)
                    continue
            if ap is not None:
                aps = ap if type(ap) is dict else None
                if v is None and aps is not None and aps.get("nullable") is not True:
                    dv = aps.get("default")
                    out[k] = None if dv is None else _default(dv, aps, d)
                elif type(v) in _SCALARS:
                    out[k] = v
                else:
                    out[k] = _default(v, aps, d)
            elif type(v) in _SCALARS:
                out[k] = v
            else:
                out[k] = _copy(v, d)
        if props:
            for k, p in _with_defaults(props) if type(props) is dict and len(props) >= _SCAN_MEMO_MIN else props.items():
                if k not in x and type(p) is dict:
                    dv = p.get("default")
                    if dv is not None:
                        out[k] = dv if type(dv) in _SCALAR_TYPES else _default(dv, p, d)  # a scalar is itself
        return out
    if t is list or isinstance(x, (list, tuple)):
        items = s.get("items")
        if type(items) is not dict:
            return _copy(x, depth)
        d = depth + 1
        dv = items.get("default")
        null_default = dv is not None and items.get("nullable") is not True
        return [
            (_default(dv, items, d) if null_default else None)
            if v is None
            else (v if type(v) in _SCALARS else _default(v, items, d))
            for v in x
        ]
    return x


def _default_iter(x: Any, s: Schema | None) -> Any:
    """``_default`` with an explicit stack, for very deep values."""
    holder: list[Any] = [None]
    stack: list[tuple[Any, Schema | None, Any, Any]] = [(x, s, holder, 0)]
    while stack:
        v, sch, container, slot = stack.pop()
        if sch is None:
            container[slot] = _copy_iter(v)
            continue
        if isinstance(v, dict):
            props = sch.get("properties")
            ap = sch.get("additionalProperties")
            out: dict[str, Any] = {}
            container[slot] = out
            for k, item in v.items():
                has, fs, from_ap = _field_schema(props, ap, k)
                out[k] = None
                if not has:
                    stack.append((item, None, out, k))
                    continue
                if item is None and fs is not None and fs.get("nullable") is not True:
                    dv = fs.get("default")
                    if dv is not None:
                        stack.append((dv, fs, out, k))
                        continue
                    if from_ap:
                        continue  # null stays null
                stack.append((item, fs, out, k))
            if props:
                for k, p in props.items():
                    if k not in v and type(p) is dict and p.get("default") is not None:
                        out[k] = None
                        stack.append((p["default"], p, out, k))
        elif isinstance(v, (list, tuple)):
            items = sch.get("items")
            if type(items) is not dict:
                container[slot] = _copy_iter(v)
                continue
            lst: list[Any] = [None] * len(v)
            container[slot] = lst
            dv = items.get("default")
            null_default = dv is not None and items.get("nullable") is not True
            for i, item in enumerate(v):
                if item is None:
                    if null_default:
                        stack.append((dv, items, lst, i))
                else:
                    stack.append((item, items, lst, i))
        else:
            container[slot] = v
    return holder[0]


# --- Default, with guarded node summaries (issue #28) --------------------------------------------------
#
# The public ``default(obj, schema_dict)`` must not trust a schema dict the caller may have changed since the
# last call, yet a sparse object of a big CRD must cost less than a deep copy of it. Each schema node the
# object reaches gets a summary (:func:`_node`): its ``properties`` map, its ``additionalProperties`` schema and
# the properties with a non-null ``default``, kept while the PEP 509 versions of the node, of its
# ``properties`` map and of each property schema are the recorded ones (read through strided views,
# :func:`crdtool.core.snapshot.version_guard`: one list comparison in C, no scan of the hundred properties of
# a wide node). A default value is read from its property schema on every use (a container default is
# defaulted afresh, so a change inside it is seen); everything else comes from the dicts themselves, read on
# every call. The walk is :func:`_default`'s, branch for branch; values of other types than exact dicts,
# lists and JSON scalars, schema nodes of other shapes, and depths beyond ``_MAX_DEPTH`` go to it.


def _node(s: Schema) -> tuple[Any, ...] | None:
    """``(s, live views, recorded versions, properties or None, additionalProperties dict or None, scalar
    defaults, copy only, other defaults, the dicts guarded)`` of the schema node ``s``, remembered by ``id(s)``; None when ``s`` has a shape :func:`_default`
    handles alone (``properties`` not a dict or holding a non-dict schema) or versions cannot be read.

    The defaults of the properties whose ``default`` is not null, in schema order: ``(key, value)`` when all
    are scalars, else ``(key, property schema, value)`` in the last field.
    ``copy only``: no schema below ``s`` has a default (:func:`_without_defaults`): defaulting a value by ``s``
    is copying it; the views then guard every dict of that subtree, else ``s``, its ``properties`` map and
    the property schemas.
    """
    if not versions_readable():
        return None
    props = s.get("properties")
    if props is not None and type(props) is not dict:
        return None
    schemas = [] if props is None else [p for p in props.values() if p is not None]
    if any(type(p) is not dict for p in schemas):
        return None
    below = _without_defaults(s)
    guard = version_guard(below) if below is not None else None
    copy_only = guard is not None and len(guard[0]) <= _SUBTREE_VIEWS
    guarded = below
    if not copy_only:
        guarded = [s, props, *schemas] if props is not None else [s]
        guard = version_guard(guarded)
    if guard is None:
        return None
    ap = s.get("additionalProperties")
    # the guard holds each property schema, hence the identity of its default: a scalar one is inserted as it
    # is, a container one (whose inside the guard does not cover) is defaulted afresh on each use
    defaults = [(k, p, p["default"]) for k, p in props.items() if p is not None and p.get("default") is not None] if props else []
    scalars = tuple((k, dv) for k, _, dv in defaults if type(dv) in _SCALAR_TYPES)
    containers = tuple((k, p, dv) for k, p, dv in defaults if type(dv) not in _SCALAR_TYPES)
    if scalars and containers:  # schema order matters for the keys added: one loop over both
        scalars, containers = (), tuple(defaults)
    # the node holds every dict its views read (their memory stays theirs, even after a change drops them)
    node = (s, guard[0], guard[1], props or None, ap if type(ap) is dict else None, scalars, copy_only, containers,
            guarded)
    if len(_NODES) >= _NODES_SIZE:
        _NODES.clear()
    _NODES[id(s)] = node  # holds s: its id is not reused meanwhile
    return node


def _without_defaults(s: Schema) -> list[dict[str, Any]] | None:
    """The dicts ``Default`` reads below ``s`` (``s``, and through ``properties``, ``additionalProperties`` and
    ``items`` every schema and ``properties`` map), when none of the schemas below ``s`` has a non-null
    ``default`` and there are at most :data:`_SUBTREE_DICTS` of them; else None.

    ``s``'s own ``default`` is its parent's business: defaulting a value by ``s`` never reads it.
    """
    out: list[dict[str, Any]] = []
    seen: set[int] = set()
    stack = [s]
    while stack:
        n = stack.pop()
        if id(n) in seen:
            continue
        seen.add(id(n))
        out.append(n)
        if n is not s and n.get("default") is not None:
            return None
        props = n.get("properties")
        if props is not None:
            if type(props) is not dict:
                return None
            out.append(props)
            for p in props.values():
                if p is not None:
                    if type(p) is not dict:
                        return None
                    stack.append(p)
        for key in ("additionalProperties", "items"):
            c = n.get(key)
            if type(c) is dict:
                stack.append(c)
        if len(out) > _SUBTREE_DICTS:
            return None
    return out


#: :func:`_node`'s memo, by ``id(s)``
_NODES: dict[int, tuple[Any, ...]] = {}
_NODES_SIZE = 4096
#: the root schemas :func:`default` has seen once, by ``id``: the second call summarises
_SEEN: dict[int, dict[str, Any]] = {}
_SEEN_SIZE = 256
#: a subtree without defaults is guarded whole (and values below it copied, not walked) up to this many dicts
#: read through at most this many views: reading a version costs a few nanoseconds, walking a node ~0.5 us
_SUBTREE_DICTS = 160
_SUBTREE_VIEWS = 48


def _g_any(x: Any, s: Schema, depth: int) -> Any:
    """``_default(x, s, depth)`` for a schema dict ``s``."""
    t = type(x)
    if t is dict:
        return _g_object(x, s, depth)
    if t is list:
        return _g_array(x, s, depth)
    if t in _SCALAR_TYPES:
        return x
    return _default(x, s, depth)


def _g_object(x: dict[str, Any], s: Schema, depth: int) -> Any:
    node = _NODES.get(id(s))
    if node is None or node[0] is not s or node[1] != node[2]:
        node = _node(s)
        if node is None:
            return _default(x, s, depth)
    if depth > _MAX_DEPTH:
        return _default_iter(x, s)
    if node[6]:
        return _copy(x, depth)
    props = node[3]
    aps = node[4]
    d = depth + 1
    out = x.copy()
    for k, v in x.items():
        tv = type(v)
        if tv in _SCALAR_TYPES and v is not None:
            continue  # copied as it is by every branch of _default
        p = props.get(k) if props is not None else None
        if p is None:
            p = aps  # additionalProperties, when a dict: a null there takes its default too
            if p is None:
                if v is not None:
                    out[k] = _copy(v, d)
                continue
        if v is None:
            if p.get("nullable") is not True:
                dv = p.get("default")
                if dv is not None:
                    out[k] = _g_any(dv, p, d)
        elif tv is dict:
            out[k] = _g_object(v, p, d)
        elif tv is list:
            out[k] = _g_array(v, p, d)
        else:
            out[k] = _default(v, p, d)
    if node[5]:
        for k, dv in node[5]:
            if k not in x:
                out[k] = dv
    if node[7]:
        for k, p, dv in node[7]:
            if k not in x:
                out[k] = dv if type(dv) in _SCALAR_TYPES else _g_any(dv, p, d)  # a scalar is itself
    return out


def _g_array(x: list[Any], s: Schema, depth: int) -> Any:
    items = s.get("items")
    if type(items) is not dict or depth > _MAX_DEPTH:
        return _default(x, s, depth)
    node = _NODES.get(id(items))
    if node is None or node[0] is not items or node[1] != node[2]:
        node = _node(items)
    if node is not None and node[6] and items.get("default") is None:
        return _copy(x, depth)  # nothing below items is defaulted, nor a null item
    d = depth + 1
    dv = items.get("default")
    if dv is not None and items.get("nullable") is not True:
        return [_g_any(dv, items, d) if v is None else _g_any(v, items, d) for v in x]
    return [v if type(v) in _SCALAR_TYPES else _g_any(v, items, d) for v in x]


# --- PruneNonNullableNullsWithoutDefaults -------------------------------------------------


def _drops_null(fs: Schema | None) -> bool:
    """``isNonNullableNonDefaultableNull`` for a null value with schema ``fs``."""
    return fs is not None and fs.get("nullable") is not True and fs.get("default") is None


def _prune_nulls(x: Any, s: Schema | None, depth: int) -> Any:
    if s is None:
        return _copy(x, depth)
    if depth > _MAX_DEPTH:
        return _prune_nulls_iter(x, s)
    if isinstance(x, dict):
        props = s.get("properties")
        ap = s.get("additionalProperties")
        d = depth + 1
        out: dict[str, Any] = {}
        for k, v in x.items():
            _, fs, _ = _field_schema(props, ap, k)
            if v is None:
                if not _drops_null(fs):
                    out[k] = None
            elif type(v) in _SCALARS:
                out[k] = v
            else:
                out[k] = _prune_nulls(v, fs, d)
        return out
    if isinstance(x, (list, tuple)):
        items = s.get("items")
        if type(items) is not dict:
            return _copy(x, depth)
        d = depth + 1
        return [v if type(v) in _SCALARS else _prune_nulls(v, items, d) for v in x]
    return x


def _prune_nulls_iter(x: Any, s: Schema | None) -> Any:
    holder: list[Any] = [None]
    stack: list[tuple[Any, Schema | None, Any, Any]] = [(x, s, holder, 0)]
    while stack:
        v, sch, container, slot = stack.pop()
        if sch is None:
            container[slot] = _copy_iter(v)
        elif isinstance(v, dict):
            props = sch.get("properties")
            ap = sch.get("additionalProperties")
            out: dict[str, Any] = {}
            container[slot] = out
            for k, item in v.items():
                _, fs, _ = _field_schema(props, ap, k)
                if item is None and _drops_null(fs):
                    continue
                out[k] = None
                stack.append((item, fs, out, k))
        elif isinstance(v, (list, tuple)):
            items = sch.get("items")
            lst: list[Any] = [None] * len(v)
            container[slot] = lst
            for i, item in enumerate(v):
                stack.append((item, items if type(items) is dict else None, lst, i))
        else:
            container[slot] = v
    return holder[0]


# --- Default, compiled ----------------------------------------------------------------------------

# A schema nesting deeper than this is not compiled (the interpreter above handles any depth).
_MAX_COMPILE_DEPTH = 150


class _TooDeep(Exception):
    pass


class _DefaultNode:
    """What ``Default`` can change at one schema node, precomputed.

    ``defaults``: ``(key, defaulted default, nullable)`` of the properties
    with a default, in schema order; ``props``: the declared properties (a
    present key with a schema is never handled by ``additionalProperties``);
    ``children``: the compiled properties with something to default below
    them; ``ap``/``items``: the ``additionalProperties``/``items`` schema when
    it is a dict, ``ap_null``/``items_null``: whether a ``null`` there takes
    a default (then ``ap_default``/``items_default`` is it, defaulted), and
    ``ap_node``/``items_node`` the compiled schema when something is
    defaulted below it.
    """

    __slots__ = (
        "defaults", "props", "children", "ap", "ap_null", "ap_default", "ap_node",
        "items", "items_null", "items_default", "items_node",
    )

    def __init__(self) -> None:
        self.defaults: tuple[tuple[str, Any, bool], ...] = ()
        self.props: dict[str, Any] | None = None
        self.children: dict[str, _DefaultNode] = {}
        self.ap: Schema | None = None
        self.ap_null = False
        self.ap_default: Any = None
        self.ap_node: _DefaultNode | None = None
        self.items: Schema | None = None
        self.items_null = False
        self.items_default: Any = None
        self.items_node: _DefaultNode | None = None


class Defaulter:
    """``Default`` for one schema, compiled: only the fields with defaults at or below them are visited.

    Built by :func:`compile_defaulter`. ``defaulter(obj)`` returns what
    :func:`default` returns (a defaulted deep copy; ``obj`` is not modified):
    the object is copied once, then only the properties whose schema has a
    ``default`` at or below it are looked at, instead of every property of
    every schema node the object reaches (a sparse object of a large CRD
    touches a handful of the hundreds of properties). :meth:`apply` defaults
    in place an object the caller owns. Each default value is defaulted by
    its own schema once, at compile time, and deep-copied into each object.
    """

    __slots__ = ("_root", "schema")

    def __init__(self, root: _DefaultNode | None, schema: Schema | None = None) -> None:
        self._root = root
        #: the schema this defaulter was compiled from
        self.schema = schema

    def __call__(self, obj: Any) -> Any:
        out = _copy(obj, 0)
        return self.apply(out)

    def apply(self, obj: Any) -> Any:
        """Default ``obj`` in place (a plain-JSON value the caller owns: dicts, lists, scalars) and return it.

        Default values are copied into ``obj``, never shared with the schema.
        """
        root = self._root
        if root is not None and type(obj) in (dict, list):
            _apply(root, obj)
        return obj


def compile_defaulter(schema: Schema | None) -> Defaulter | None:
    """:func:`default` for ``schema``, compiled; None when the schema is not one it compiles.

    In: a structural ``openAPIV3Schema`` dict (or None: a defaulter that only
    copies). Out: a :class:`Defaulter`, or None when the schema nests deeper
    than 150 levels, is cyclic or is not of the shape structural schemas have
    (``properties`` values that are not dicts, ...): use :func:`default`,
    which copes with any shape. The schema must not be mutated afterwards.
    """
    if schema is None:
        return Defaulter(None)
    if type(schema) is not dict:
        return None
    try:
        return Defaulter(_compile_default(schema, 0, set(), {}), schema)
    except (_TooDeep, RecursionError):
        return None


def _compile_default(
    s: Schema, depth: int, active: set[int], memo: dict[int, _DefaultNode | None]
) -> _DefaultNode | None:
    """The node for ``s``, or None when nothing is defaulted at or below any field of ``s``.

    ``active``: the schemas being compiled (a cycle is refused); ``memo``: those
    compiled (a schema shared by several fields, as YAML anchors make, is
    compiled once).
    """
    if id(s) in memo:
        return memo[id(s)]
    if depth > _MAX_COMPILE_DEPTH or id(s) in active:
        raise _TooDeep
    active.add(id(s))
    node = _compile_node(s, depth, active, memo)
    active.discard(id(s))
    memo[id(s)] = node
    return node


def _compile_node(
    s: Schema, depth: int, active: set[int], memo: dict[int, _DefaultNode | None]
) -> _DefaultNode | None:
    node = _DefaultNode()
    props = s.get("properties")
    if props is not None:
        if type(props) is not dict:
            raise _TooDeep  # not structural: the interpreter decides
        node.props = props
        defaults = []
        for k, p in props.items():
            if p is None:
                continue
            if type(p) is not dict:
                raise _TooDeep
            dv = p.get("default")
            if dv is not None:
                defaults.append((k, _default(dv, p, 0), p.get("nullable") is True))
            child = _compile_default(p, depth + 1, active, memo)
            if child is not None:
                node.children[k] = child
        node.defaults = tuple(defaults)
    ap = s.get("additionalProperties")
    if type(ap) is dict:
        node.ap = ap
        dv = ap.get("default")
        node.ap_null = ap.get("nullable") is not True
        node.ap_default = None if dv is None else _default(dv, ap, 0)
        node.ap_node = _compile_default(ap, depth + 1, active, memo)
    items = s.get("items")
    if type(items) is dict:
        node.items = items
        dv = items.get("default")
        node.items_null = dv is not None and items.get("nullable") is not True
        node.items_default = None if dv is None else _default(dv, items, 0)
        node.items_node = _compile_default(items, depth + 1, active, memo)
    if (
        not node.defaults and not node.children and node.ap_default is None and node.ap_node is None
        and not node.items_null and node.items_node is None
    ):
        return None
    return node


def _fresh(v: Any) -> Any:
    return v if type(v) in _SCALARS else _copy(v, 0)


def _apply(node: _DefaultNode, x: Any) -> None:
    """``Default(x, s)`` in place on a plain-JSON value (our own copy), for the compiled ``node`` of ``s``.

    The order of ``algorithm.go``'s ``Default``: fields already present keep
    their place, absent defaulted properties are added after them in schema
    order.
    """
    if type(x) is dict:
        props = node.props
        children = node.children
        ap = node.ap
        if children or ap is not None:
            for k, v in x.items():
                if props is not None and props.get(k) is not None:
                    if v is not None and type(v) not in _SCALARS:
                        child = children.get(k)
                        if child is not None:
                            _apply(child, v)
                elif ap is not None:
                    if v is None:
                        if node.ap_null and node.ap_default is not None:
                            x[k] = _fresh(node.ap_default)
                    elif type(v) not in _SCALARS and node.ap_node is not None:
                        _apply(node.ap_node, v)
        for k, dv, nullable in node.defaults:
            if k not in x:
                x[k] = _fresh(dv)
            elif x[k] is None and not nullable:
                x[k] = _fresh(dv)
    elif type(x) is list:
        items_node = node.items_node
        if node.items is None or (not node.items_null and items_node is None):
            return
        for i, v in enumerate(x):
            if v is None:
                if node.items_null:
                    x[i] = _fresh(node.items_default)
            elif items_node is not None and type(v) not in _SCALARS:
                _apply(items_node, v)
