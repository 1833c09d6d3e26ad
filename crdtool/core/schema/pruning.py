"""Pruning of unknown fields, as the apiserver does for custom resources.

Mirrors ``k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning/algorithm.go``
(``PruneWithOptions``, ``prune``, ``skipPrune``) with
``UnknownFieldPathOptions{TrackUnknownFieldPaths: true}``, on a raw
``openAPIV3Schema`` dict read the way ``schema.NewStructural`` reads it:

* ``properties`` -> ``Properties``; ``items`` (a dict) -> ``Items``;
* ``additionalProperties`` present (a dict *or* a bool) -> non-nil
  ``AdditionalProperties``, whose ``Structural`` is the dict or nil: with
  ``additionalProperties: false`` keys are kept and their values pruned as
  if they had no schema (upstream's ``StructuralOrBool{Bool: false}``);
* ``x-kubernetes-preserve-unknown-fields: true`` -> ``skipPrune``;
* ``x-kubernetes-embedded-resource: true`` -> ``apiVersion``, ``kind`` and
  ``metadata`` are kept untouched (forced on at the resource root).

Like upstream, pruning never descends into ``metadata`` of a resource root
or of an embedded resource: dropping unknown ``ObjectMeta`` fields is the job
of ``objectmeta.Coerce`` (a separate step), not of this algorithm.
``allOf``/``anyOf``/``oneOf``/``not`` play no part (value validation only).

The walk is iterative (no recursion limit) and copies as it goes: the
arguments are never mutated and nothing in the result is shared with them.
"""

from __future__ import annotations

from typing import Any

__all__ = ["prune"]

_META_FIELDS = frozenset({"apiVersion", "kind", "metadata"})

# walk modes
_PRUNE = 0  # upstream prune()
_SKIP = 1  # upstream skipPrune()
_COPY = 2  # kept verbatim (deep copy)


def prune(obj: Any, schema: dict[str, Any] | None, *, is_resource_root: bool = True) -> tuple[Any, list[str]]:
    """Drop fields of ``obj`` that ``schema`` does not specify.

    Mirrors ``pruning.PruneWithOptions(obj, s, isResourceRoot,
    UnknownFieldPathOptions{TrackUnknownFieldPaths: true})``.

    Args:
        obj: decoded JSON (dict/list/scalars); not modified.
        schema: a raw structural ``openAPIV3Schema`` dict, or None (everything
            below an object is unknown).
        is_resource_root: the object is a resource: keep ``apiVersion``,
            ``kind`` and ``metadata`` at its top level (as if the schema had
            ``x-kubernetes-embedded-resource: true``).

    Returns:
        ``(pruned_copy, paths)``: a new value, and the sorted paths of the
        removed fields in upstream's syntax (``spec.foo``, ``items[1].bar``,
        ``[0].a`` for a top-level list). A top-level ``apiVersion``/``kind``/
        ``metadata`` of a non-root object is removed without being reported,
        as upstream does.
    """
    if is_resource_root and schema is None:
        schema = {}
    pruned: list[str] = []
    holder: list[Any] = [None]
    # (mode, value, schema, force embedded, path, container, slot)
    stack: list[tuple[int, Any, Any, bool, str, Any, Any]] = [
        (_PRUNE, obj, schema, is_resource_root, "", holder, 0)
    ]
    while stack:
        mode, x, s, force_embedded, path, container, slot = stack.pop()
        if mode == _PRUNE and s is not None and s.get("x-kubernetes-preserve-unknown-fields") is True:
            mode = _SKIP
        if isinstance(x, dict):
            container[slot] = _walk_object(mode, x, s, force_embedded, path, pruned, stack)
        elif isinstance(x, (list, tuple)):
            container[slot] = _walk_array(mode, x, s, path, stack)
        else:
            container[slot] = x
    pruned.sort()
    return holder[0], pruned


def _child_path(path: str, key: str) -> str:
    """``UnknownFieldPathOptions.AppendKey``."""
    return f"{path}.{key}" if path else key


def _walk_object(
    mode: int,
    x: dict[str, Any],
    s: dict[str, Any] | None,
    force_embedded: bool,
    path: str,
    pruned: list[str],
    stack: list[tuple[int, Any, Any, bool, str, Any, Any]],
) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if mode == _COPY or (mode == _SKIP and s is None):
        for k, v in x.items():
            out[k] = None
            stack.append((_COPY, v, None, False, "", out, k))
        return out
    if s is None:
        # prune(map, nil): every key is unknown
        for k in x:
            pruned.append(_child_path(path, k))
        return out
    embedded = force_embedded or s.get("x-kubernetes-embedded-resource") is True
    props = s.get("properties")
    if not isinstance(props, dict):
        props = {}
    has_ap = s.get("additionalProperties") is not None
    ap = s.get("additionalProperties")
    ap_schema = ap if isinstance(ap, dict) else None
    for k, v in x.items():
        if embedded and k in _META_FIELDS:
            out[k] = None
            stack.append((_COPY, v, None, False, "", out, k))
            continue
        prop = props.get(k)
        if prop is not None or k in props:
            out[k] = None
            stack.append((_PRUNE, v, prop if isinstance(prop, dict) else {}, False, _child_path(path, k), out, k))
        elif has_ap:
            out[k] = None
            stack.append((_PRUNE, v, ap_schema, False, _child_path(path, k), out, k))
        elif mode == _SKIP:
            out[k] = None
            stack.append((_COPY, v, None, False, "", out, k))
        elif k not in _META_FIELDS or path:
            pruned.append(_child_path(path, k))
    return out


def _walk_array(
    mode: int,
    x: list[Any] | tuple[Any, ...],
    s: dict[str, Any] | None,
    path: str,
    stack: list[tuple[int, Any, Any, bool, str, Any, Any]],
) -> list[Any]:
    out: list[Any] = [None] * len(x)
    if mode == _COPY or (mode == _SKIP and s is None):
        for i, v in enumerate(x):
            stack.append((_COPY, v, None, False, "", out, i))
        return out
    items = s.get("items") if s is not None else None
    if not isinstance(items, dict):
        items = None
    # upstream: prune(v, s.Items) for _PRUNE, skipPrune(v, s.Items) for _SKIP
    for i, v in enumerate(x):
        stack.append((mode, v, items, False, f"{path}[{i}]", out, i))
    return out
