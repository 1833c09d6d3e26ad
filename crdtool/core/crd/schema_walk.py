"""Walking a JSONSchemaProps tree (an ``openAPIV3Schema`` dict).

Mirrors ``SchemaHas`` in apiextensions-apiserver
``pkg/apis/apiextensions/validation/validation.go``. A schema here is the
decoded dict (type-checked by :mod:`crdtool.core.crd.decode`): ``items`` is a
dict or a list of dicts, ``additionalProperties``/``additionalItems`` a bool or
a dict, ``dependencies`` values a dict or a list of strings.
"""

from __future__ import annotations

from typing import Any, Callable, Iterator

Schema = dict[str, Any]


def sub_schemas(s: Schema) -> Iterator[Schema]:
    """Yield every direct sub-schema of ``s`` in upstream ``SchemaHas`` order."""
    items = s.get("items")
    if isinstance(items, dict):
        yield items
    elif isinstance(items, list):
        yield from (i for i in items if isinstance(i, dict))
    for key in ("allOf", "anyOf", "oneOf"):
        for sub in s.get(key) or ():
            if isinstance(sub, dict):
                yield sub
    if isinstance(s.get("not"), dict):
        yield s["not"]
    for key in ("properties", "patternProperties", "definitions"):
        for sub in (s.get(key) or {}).values():
            if isinstance(sub, dict):
                yield sub
    for key in ("additionalProperties", "additionalItems"):
        if isinstance(s.get(key), dict):
            yield s[key]
    for dep in (s.get("dependencies") or {}).values():
        if isinstance(dep, dict):
            yield dep


def schema_has(s: Schema | None, pred: Callable[[Schema], bool]) -> bool:
    """Upstream ``SchemaHas``: does ``pred`` hold for ``s`` or any sub-schema?

    Iterative (no recursion limit), so hostile deep schemas cannot overflow.
    """
    if s is None:
        return False
    stack = [s]
    while stack:
        cur = stack.pop()
        if pred(cur):
            return True
        stack.extend(sub_schemas(cur))
    return False
