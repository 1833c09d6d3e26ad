"""Where a CRD manifest keeps its versions' schemas, and how to walk and edit them by location.

No upstream counterpart: :mod:`crdtool.core.lint` reads the manifest as its author wrote it
(``apiextensions.k8s.io/v1``: ``spec.versions[i].schema.openAPIV3Schema``; ``v1beta1``: the
top-level ``spec.validation.openAPIV3Schema`` or per version), so that every finding and every
suggested edit has a path (and so a ``file:line``) in that manifest.

A schema node's *location* is a tuple of steps from the ``openAPIV3Schema`` root:
``("properties", name)``, ``("items",)``, ``("items", i)`` (a list-form ``items``) or
``("additionalProperties",)``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator, Mapping

from crdtool.core.errors import Path

__all__ = ["Step", "VersionSchema", "as_dict", "child_nodes", "node_at", "node_path", "version_schemas", "walk", "with_edits"]

Step = tuple[Any, ...]
Location = tuple[Step, ...]


@dataclass(frozen=True)
class VersionSchema:
    """One CRD version and the schema it is served with.

    Attributes:
        name: the version's name (``spec.versions[i].name``, or v1beta1's ``spec.version``).
        path: the manifest path of its ``openAPIV3Schema`` (v1beta1 with a top-level
            ``spec.validation``: ``spec.validation.openAPIV3Schema``, shared by every version).
        schema: the ``openAPIV3Schema`` dict (None when the version has none).
        version_path: the manifest path of the version entry (``spec.versions[i]``), or ``spec``
            for a v1beta1 CRD without ``versions``.
        entry: the version entry dict (``{}`` for v1beta1's ``spec.version``).
        subresources: the subresources that apply to it (the version's, else v1beta1's top-level).
    """

    name: str
    path: str
    schema: dict[str, Any] | None
    version_path: str
    entry: Mapping[str, Any]
    subresources: Mapping[str, Any] | None


def as_dict(value: Any) -> dict[str, Any]:
    """``value`` if it is a dict, else ``{}``."""
    return value if isinstance(value, dict) else {}


def version_schemas(crd: Mapping[str, Any]) -> list[VersionSchema]:
    """Every version of ``crd`` (a CRD manifest dict, v1 or v1beta1) with its schema, in manifest order.

    A v1beta1 CRD without ``spec.versions`` has one version, ``spec.version``. Never raises.
    """
    spec = as_dict(crd.get("spec"))
    top_schema = as_dict(spec.get("validation")).get("openAPIV3Schema")
    top_sub = spec.get("subresources") if isinstance(spec.get("subresources"), dict) else None
    listed = spec.get("versions")
    versions: list[Any] = listed if isinstance(listed, list) else []
    out: list[VersionSchema] = []
    for i, entry in enumerate(versions):
        if not isinstance(entry, dict):
            continue
        name = str(entry.get("name")) if isinstance(entry.get("name"), str) else ""
        own = as_dict(entry.get("schema")).get("openAPIV3Schema")
        sub = entry.get("subresources") if isinstance(entry.get("subresources"), dict) else top_sub
        if isinstance(own, dict):
            out.append(VersionSchema(name, f"spec.versions[{i}].schema.openAPIV3Schema", own, f"spec.versions[{i}]",
                                     entry, sub))
        else:
            schema = top_schema if isinstance(top_schema, dict) else None
            out.append(VersionSchema(name, "spec.validation.openAPIV3Schema", schema, f"spec.versions[{i}]", entry, sub))
    if not versions and isinstance(spec.get("version"), str):
        schema = top_schema if isinstance(top_schema, dict) else None
        out.append(VersionSchema(str(spec["version"]), "spec.validation.openAPIV3Schema", schema, "spec", {}, top_sub))
    return out


def node_path(base: str, location: Location) -> Path:
    """The manifest path of the node at ``location`` below the schema at ``base``."""
    p = Path(base)
    for step in location:
        if step[0] == "properties":
            p = p.child("properties").key(step[1])
        elif len(step) == 2:
            p = p.child(step[0]).index(step[1])
        else:
            p = p.child(step[0])
    return p


def child_nodes(s: Mapping[str, Any]) -> Iterator[tuple[Step, dict[str, Any]]]:
    """The typed sub-schemas of ``s``: properties, additionalProperties, items (not junctors or definitions)."""
    props = s.get("properties")
    if isinstance(props, dict):
        for name, sub in props.items():
            if isinstance(sub, dict):
                yield ("properties", name), sub
    ap = s.get("additionalProperties")
    if isinstance(ap, dict):
        yield ("additionalProperties",), ap
    items = s.get("items")
    if isinstance(items, dict):
        yield ("items",), items
    elif isinstance(items, list):
        for i, sub in enumerate(items):
            if isinstance(sub, dict):
                yield ("items", i), sub


def walk(schema: Mapping[str, Any]) -> Iterator[tuple[Location, dict[str, Any], tuple[dict[str, Any], ...]]]:
    """Every node of ``schema`` reachable through :func:`child_nodes`, pre-order, with its ancestors.

    Yields ``(location, node, ancestors)`` (ancestors root first). Iterative; a node reached
    twice on one branch (a YAML-aliased recursive schema) is not entered again.
    """
    if not isinstance(schema, dict):
        return
    stack: list[tuple[Location, dict[str, Any], tuple[dict[str, Any], ...]]] = [((), schema, ())]
    while stack:
        loc, node, ancestors = stack.pop()
        yield loc, node, ancestors
        if any(a is node for a in ancestors):
            continue
        children = list(child_nodes(node))
        for step, sub in reversed(children):
            if not any(a is sub for a in ancestors):
                stack.append(((*loc, step), sub, (*ancestors, node)))


def node_at(schema: Mapping[str, Any], location: Location) -> dict[str, Any] | None:
    """The node at ``location``, or None when the schema has none there."""
    cur: Any = schema
    for step in location:
        if not isinstance(cur, dict):
            return None
        if step[0] == "properties":
            cur = as_dict(cur.get("properties")).get(step[1])
        elif len(step) == 2:
            items = cur.get("items")
            cur = items[step[1]] if isinstance(items, list) and step[1] < len(items) else None
        else:
            cur = cur.get(step[0])
    return cur if isinstance(cur, dict) else None


def with_edits(schema: dict[str, Any], edits: Mapping[Location, Mapping[str, Any]]) -> dict[str, Any]:
    """A copy of ``schema`` with ``edits[location]`` merged into the node at each location.

    Only the dicts on the way to an edited node are copied (the rest is shared). A location
    whose node is missing is created as ``{}`` (with a ``properties`` map) on the way. ``schema``
    is not changed.
    """
    root = dict(schema)
    for location, keys in edits.items():
        cur = root
        for step in location:
            if step[0] == "properties":
                props = dict(as_dict(cur.get("properties")))
                cur["properties"] = props
                nxt = dict(as_dict(props.get(step[1])))
                props[step[1]] = nxt
            elif len(step) == 2:
                items = list(cur.get("items") or [])
                nxt = dict(as_dict(items[step[1]]))
                items[step[1]] = nxt
                cur["items"] = items
            else:
                nxt = dict(as_dict(cur.get(step[0])))
                cur[step[0]] = nxt
            cur = nxt
        cur.update(keys)
    return root
