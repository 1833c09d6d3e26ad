"""Where in the input file an error points: the node at its field path, refined for label and annotation keys.

Upstream reports an invalid label or annotation *key* (and an invalid label
value) at the map itself -- ``metadata.labels: Invalid value: "bad key": ...``
(apimachinery ``pkg/api/validation/objectmeta.go``, ``ValidateAnnotations``;
``pkg/apis/meta/v1/validation``, ``ValidateLabels``) -- so the path alone
leads to the ``labels:`` line. The message is upstream's and stays as it is;
only the line and column shown for it move to the offending key.
"""

from __future__ import annotations

import re
from typing import Any

from crdtool.yaml.loader import Document
from crdtool.core.errors import FieldError
from crdtool.core.validation_util import go_to_lower

_STEP_RE = re.compile(r"\.?([^.\[\]]+)|\[([^\]]*)\]")


def _lookup(data: Any, path: str) -> Any:
    """The value at a simple field path (``items[2].metadata.labels``), or None."""
    node = data
    for m in _STEP_RE.finditer(path):
        name, bracket = m.group(1), m.group(2)
        if name is not None:
            node = node.get(name) if isinstance(node, dict) else None
        elif isinstance(node, list) and bracket.isdigit() and int(bracket) < len(node):
            node = node[int(bracket)]
        elif isinstance(node, dict):
            node = node.get(bracket)
        else:
            return None
        if node is None:
            return None
    return node


def _offending_key(mapping: dict[str, Any], error: FieldError, annotations: bool) -> str | None:
    bad = error.bad_value
    if not isinstance(bad, str):
        return None
    for key, value in mapping.items():
        if key == bad or (annotations and go_to_lower(key) == bad):
            return key
    if not annotations:
        for key, value in mapping.items():
            if value == bad:  # an invalid label value: point at its key
                return key
    return None


def error_position(doc: Document, path: str, error: FieldError) -> tuple[int, int] | None:
    """``(line, column)`` for ``error`` reported at ``path`` in ``doc``.

    ``path`` is the error's field path as it applies to ``doc`` (with any
    ``items[i].`` prefix). For a ``FieldValueInvalid`` at ``...metadata.labels``
    or ``...metadata.annotations`` whose bad value is one of the keys (or, for
    labels, a value), the key's position; otherwise :meth:`Document.position`.
    """
    return doc.position(position_path(doc, path, error))


def position_path(doc: Document, path: str, error: FieldError) -> str:
    """The path whose node :func:`error_position` shows: ``path``, or the offending label or annotation key's."""
    if error.type == "FieldValueInvalid" and (path.endswith("metadata.labels") or path.endswith("metadata.annotations")):
        mapping = _lookup(doc.data, path)
        if isinstance(mapping, dict):
            key = _offending_key(mapping, error, path.endswith("annotations"))
            if key is not None:
                return f"{path}[{key}]"
    return path
