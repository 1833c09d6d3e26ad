"""Kubernetes manifests as text: reading YAML and JSON as kubectl reads them, and editing YAML text in place.

The library's way to load manifests with the values the apiserver gets (go-yaml v2 scalars:
``yes``/``on`` are booleans, timestamps stay strings; ``1.0`` is the int ``1``; kubectl's
document splitting; duplicate keys, positions, hostile-input limits)::

    from crdtool.yaml import load_documents, Document, InputError

    for item in load_documents(text, "crds.yaml"):
        if isinstance(item, InputError):
            print(item)                       # crds.yaml:3:1: yaml: ...
        else:
            item.data, item.line, item.position("spec.names.kind")

* :mod:`.loader` — :func:`load_documents`, :func:`load_file`, :func:`load_path`, :class:`Document`,
  :class:`InputError` and the limits;
* :mod:`.positions` — where an error's field path points in a document;
* :mod:`.edit` — the comment-preserving text editor of ``upgrade-manifest`` and ``default --in-place``.
* :mod:`.suppressions` — ``# crdtool: ignore[CODE]`` comments (``lint``'s inline suppressions).
"""

from __future__ import annotations

from crdtool.yaml.loader import (
    APISERVER_BODY_LIMIT,
    ETCD_OBJECT_LIMIT,
    MAX_DEPTH,
    MAX_INPUT_BYTES,
    Document,
    InputError,
    expand_path,
    load_bytes,
    load_documents,
    load_file,
    load_path,
    load_stream,
)

__all__ = [
    "APISERVER_BODY_LIMIT", "Document", "ETCD_OBJECT_LIMIT", "InputError", "MAX_DEPTH", "MAX_INPUT_BYTES",
    "expand_path", "load_bytes", "load_documents", "load_file", "load_path", "load_stream",
]
