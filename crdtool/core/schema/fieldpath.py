"""Field paths in JSON-path form (``.spec.a['b']``) resolved against a structural schema.

Mirrors ``ValidFieldPath`` in apiextensions-apiserver
``pkg/apiserver/schema/cel/validation.go``: used for selectable fields, for the
``fieldPath`` of ``x-kubernetes-validations`` rules, and by CEL evaluation.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Iterator, Mapping

class NilSchemaError(Exception):
    """Upstream dereferences a nil structural schema here and the request panics."""


class FieldPathError(Exception):
    """An error of upstream ``ValidFieldPath``."""


@dataclasses.dataclass
class FieldPath:
    """A ``field.Path`` under construction: its rendering and its root element."""

    text: str = ""
    root: str = ""

    def child(self, name: str) -> None:
        if not self.text:
            self.text = self.root = name
        else:
            self.text += "." + name

    def key(self, name: str) -> None:
        if not self.text:
            self.text = self.root = f"[{name}]"
        else:
            self.text += f"[{name}]"


def _scan_field_path(json_path: str) -> Iterator[str]:
    """The ``bufio.Scanner`` split of ``ValidFieldPath``: ``.``, ``[``, ``]``, quoted strings, words."""
    data = json_path
    while data:
        if data[0] == "'":
            end = 1
            while end < len(data) and not (data[end] == "'" and data[end - 1] != "\\"):
                end += 1
            if end < len(data):
                yield data[: end + 1]
                data = data[end + 1 :]
                continue
            yield data
            return
        if data[0] in ".[]":
            yield data[0]
            data = data[1:]
            continue
        end = 0
        while end < len(data) and data[end] not in ".[]":
            end += 1
        yield data[:end]
        data = data[end:]


_SINGLE_QUOTE_ESCAPES = {
    "a": "\a", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v", "'": "'", "\\": "\\",
}


def _unescape_single_quote(s: str) -> str:
    """Upstream ``unescapeSingleQuote``."""
    out: list[str] = []
    i = 0
    err: str | None = None
    while i < len(s):
        ch = s[i]
        if ch == "\\" and i + 1 < len(s):
            directive = s[i + 1]
            if directive in _SINGLE_QUOTE_ESCAPES:
                out.append(_SINGLE_QUOTE_ESCAPES[directive])
            else:
                err = f"invalid escape char {s[i:i + 2]}"
            i += 2
            continue
        out.append(ch)
        i += 1
    if err is not None:
        raise FieldPathError(f"invalid string literal: {err}")
    return "".join(out)


def _properties_of(schema: Any) -> Mapping[str, Any] | None:
    props = getattr(schema, "properties", None)
    return props if props else None


def _additional_of(schema: Any) -> Any:
    """``schema.AdditionalProperties``: a StructuralOrBool-like object, or None."""
    return getattr(schema, "additional_properties", None)


def _additional_structural(additional: Any) -> Any:
    """``AdditionalProperties.Structural`` (None for a bare boolean)."""
    if additional is None or isinstance(additional, bool):
        return None
    if hasattr(additional, "structural"):
        return additional.structural
    return additional


def valid_field_path(json_path: str, schema: Any, allow_array_notation: bool = True) -> tuple[FieldPath, Any]:
    """Upstream ``cel.ValidFieldPath``: resolve a JSON path of field accessors in ``schema``.

    Returns ``(path, found_schema)``; raises :class:`FieldPathError` with
    upstream's message, or :class:`NilSchemaError` where upstream would panic.
    """
    path = FieldPath()
    tokens = _scan_field_path(json_path)

    def step(name: str) -> None:
        nonlocal schema
        if schema is None:
            raise NilSchemaError()
        props = _properties_of(schema)
        additional = _additional_of(schema)
        if props is not None:
            path.child(name)
            if name not in props:
                raise FieldPathError("does not refer to a valid field")
            schema = props[name]
        elif additional is not None:
            path.key(name)
            schema = _additional_structural(additional)
        else:
            raise FieldPathError("does not refer to a valid field")

    tok: str | None
    for tok in tokens:
        if tok == "[":
            if not allow_array_notation:
                raise FieldPathError("array notation is not allowed")
            tok = next(tokens, None)
            if tok is None:
                raise FieldPathError("unexpected end of JSON path")
            if len(tok) < 2 or tok[0] != "'" or tok[-1] != "'":
                raise FieldPathError(f"expected single quoted string but got {tok}")
            step(_unescape_single_quote(tok[1:-1]))
            tok = next(tokens, None)
            if tok is None:
                raise FieldPathError("unexpected end of JSON path")
            if tok != "]":
                raise FieldPathError(f"expected ] but got {tok}")
        elif tok == ".":
            tok = next(tokens, None)
            if tok is None:
                raise FieldPathError("unexpected end of JSON path")
            step(tok)
        else:
            raise FieldPathError(f"expected [ or . but got: {tok}")
    return path, schema


# ============================================================================
# Go net/url.Parse (for webhook URLs and the API-approval annotation)
