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

from typing import Any

__all__ = ["default", "prune_non_nullable_nulls"]

Schema = dict[str, Any]

# Recursion is used down to this depth, an explicit stack below it.
_MAX_DEPTH = 150

_SCALARS = (str, int, float, bool, type(None))


def default(obj: Any, schema: Schema | None) -> Any:
    """Return a defaulted deep copy of ``obj``.

    Mirrors ``defaulting.Default(x, s)`` (algorithm.go).

    Args:
        obj: decoded JSON (dict/list/scalars); not modified.
        schema: a raw structural ``openAPIV3Schema`` dict, or None (no-op copy).

    Returns:
        A new value: ``obj`` with defaults applied top-down.
    """
    return _default(obj, schema, 0)


def prune_non_nullable_nulls(obj: Any, schema: Schema | None) -> Any:
    """Return a copy of ``obj`` without ``null`` fields that must not be null.

    Mirrors ``defaulting.PruneNonNullableNullsWithoutDefaults(x, s)``
    (prunenulls.go): an object field whose value is ``null`` is removed when
    its schema (from ``properties``, else ``additionalProperties``) exists,
    is not ``nullable`` and has no ``default``. Array items are never removed.
    """
    return _prune_nulls(obj, schema, 0)


# --- copying --------------------------------------------------------------------------


def _copy(x: Any, depth: int) -> Any:
    """Deep copy of decoded JSON (faster than ``copy.deepcopy``, no memo)."""
    t = type(x)
    if t is dict:
        if depth > _MAX_DEPTH:
            return _copy_iter(x)
        d = depth + 1
        return {k: (v if type(v) in _SCALARS else _copy(v, d)) for k, v in x.items()}
    if t is list:
        if depth > _MAX_DEPTH:
            return _copy_iter(x)
        d = depth + 1
        return [v if type(v) in _SCALARS else _copy(v, d) for v in x]
    if t in _SCALARS:
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
        out: dict[str, Any] = {}
        for k, v in x.items():
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
            for k, p in props.items():
                if k not in x and type(p) is dict:
                    dv = p.get("default")
                    if dv is not None:
                        out[k] = _default(dv, p, d)
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
