"""What kube-apiserver's storage refuses once validation has passed, for any resource.

Mirrors k8s.io/apiserver v0.36.3 ``pkg/storage/etcd3/store.go`` ``store.Create`` with
``pkg/storage/api_object_versioner.go`` ``APIObjectVersioner.ObjectResourceVersion``. Custom resources
and CRDs alike are stored through ``genericregistry.Store``, so the rule is the same for both.
"""

from __future__ import annotations

from typing import Any

from crdtool.core.errors import FieldError, Path, internal_error

__all__ = ["RESOURCE_VERSION_SET_ON_CREATE", "resource_version_set_on_create"]

#: ``storage.ErrResourceVersionSetOnCreate`` (k8s.io/apiserver pkg/storage/errors.go).
RESOURCE_VERSION_SET_ON_CREATE = "resourceVersion should not be set on objects to be created"


def resource_version_set_on_create(obj: Any) -> list[FieldError]:
    """``etcd3.store.Create``: ``versioner.ObjectResourceVersion(obj)`` must be 0 (or unparsable).

    In: the object being created (a dict; its ``metadata.resourceVersion`` is read). Out: ``[]``, or
    an ``InternalError`` at ``metadata.resourceVersion`` with upstream's text (the apiserver
    answers 500 with it). ``ObjectResourceVersion`` is ``strconv.ParseUint(rv, 10, 64)``; a parse
    error skips the check (the store then overwrites the field).
    """
    meta = obj.get("metadata") if isinstance(obj, dict) else None
    rv = meta.get("resourceVersion") if isinstance(meta, dict) else None
    if not isinstance(rv, str) or not rv.isascii() or not rv.isdigit():
        return []
    value = int(rv)
    if value == 0 or value >= 1 << 64:
        return []
    return [internal_error(Path("metadata", "resourceVersion"), RESOURCE_VERSION_SET_ON_CREATE)]
