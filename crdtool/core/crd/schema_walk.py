"""Walking a JSONSchemaProps tree (an ``openAPIV3Schema`` dict).

Mirrors ``SchemaHas`` in apiextensions-apiserver
``pkg/apis/apiextensions/validation/validation.go``: its visiting order is
items, allOf, anyOf, oneOf, not, properties, additionalProperties,
patternProperties, additionalItems, definitions, dependencies (upstream visits
a Go map in random order; here maps go in key order). A schema here is the
decoded dict (type-checked by :mod:`crdtool.core.crd.decode`): ``items`` is a
dict or a list of dicts, ``additionalProperties``/``additionalItems`` a bool or
a dict, ``dependencies`` values a dict or a list of strings.
"""

from __future__ import annotations

from typing import Any, Callable, Iterator, Mapping

Schema = dict[str, Any]

# key -> how its value holds sub-schemas, in SchemaHas order
_CHILD_KEYS: tuple[tuple[str, str], ...] = (
    ("items", "schema-or-list"),
    ("allOf", "list"),
    ("anyOf", "list"),
    ("oneOf", "list"),
    ("not", "schema"),
    ("properties", "map"),
    ("additionalProperties", "schema"),
    ("patternProperties", "map"),
    ("additionalItems", "schema"),
    ("definitions", "map"),
    ("dependencies", "map"),
)


_SHAPE = dict(_CHILD_KEYS)
_ORDER = {key: i for i, (key, _) in enumerate(_CHILD_KEYS)}


def sub_schemas(s: Mapping[str, Any]) -> list[Schema]:
    """Every direct sub-schema of ``s``, in upstream ``SchemaHas`` order."""
    # A node has a handful of keys and rarely more than one holding sub-schemas: look at its keys,
    # not at all eleven child keys (this runs for every node of every walk).
    found = [k for k in s if k in _SHAPE]
    if not found:
        return []
    if len(found) > 1:
        found.sort(key=_ORDER.__getitem__)
    out: list[Schema] = []
    for key in found:
        value = s[key]
        if isinstance(value, dict):
            if _SHAPE[key] == "map":
                out.extend(sub for sub in value.values() if isinstance(sub, dict))
            else:
                out.append(value)
        elif isinstance(value, list) and _SHAPE[key] in ("list", "schema-or-list"):
            out.extend(sub for sub in value if isinstance(sub, dict))
    return out


def walk(root: Schema) -> Iterator[Schema]:
    """Every node of ``root``, pre-order in ``SchemaHas`` order; iterative, so deep schemas are fine."""
    stack = [root]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(reversed(sub_schemas(node)))


def schema_has(s: Schema | None, pred: Callable[[Schema], bool]) -> bool:
    """Upstream ``SchemaHas``: does ``pred`` hold for ``s`` or any sub-schema?"""
    if not isinstance(s, dict):
        return False
    return any(pred(node) for node in walk(s))
