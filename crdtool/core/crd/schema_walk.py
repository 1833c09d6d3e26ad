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

from typing import Any, Callable, Iterator

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


def sub_schemas(s: Schema) -> Iterator[Schema]:
    """Yield every direct sub-schema of ``s`` in upstream ``SchemaHas`` order."""
    for key, shape in _CHILD_KEYS:
        value = s.get(key)
        if isinstance(value, dict):
            if shape == "map":
                yield from (sub for sub in value.values() if isinstance(sub, dict))
            else:
                yield value
        elif isinstance(value, list) and shape in ("list", "schema-or-list"):
            yield from (sub for sub in value if isinstance(sub, dict))


def walk(root: Schema) -> Iterator[Schema]:
    """Every node of ``root``, pre-order in ``SchemaHas`` order; iterative, so deep schemas are fine."""
    stack = [root]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(reversed(list(sub_schemas(node))))


def schema_has(s: Schema | None, pred: Callable[[Schema], bool]) -> bool:
    """Upstream ``SchemaHas``: does ``pred`` hold for ``s`` or any sub-schema?"""
    if not isinstance(s, dict):
        return False
    return any(pred(node) for node in walk(s))
