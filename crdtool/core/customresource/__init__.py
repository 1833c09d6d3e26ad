"""Custom resources as kube-apiserver handles them: ``apiextensions-apiserver/pkg/registry/customresource``.

* :mod:`.prepared` — the CRD as the apiserver serves it (``getOrCreateServingInfoFor``) and version lookup;
* :mod:`.decode` — request decoding: pruning, ObjectMeta coercion, defaulting (``customresource_handler.go``);
* :mod:`.validator` — ``customResourceValidator``: type meta, scale, finalizer warnings (``validator.go``);
* :mod:`.create` — the create path: ``BeforeCreate``, the strategy's ``PrepareForCreate`` and ``Validate``;
* :mod:`.update` — the update path: ``BeforeUpdate``, ``PrepareForUpdate``, ``ValidateUpdate``, ratcheting.

The public names are importable from here and from :mod:`crdtool`.
"""

from __future__ import annotations

from crdtool.core.customresource.create import (
    BLOCKING_ERROR_DETAIL,
    BLOCKING_ERROR_TYPES,
    DEFAULT_NAMESPACE,
    apply_create,
    validate_object,
)
from crdtool.core.customresource.decode import (
    CreateResult,
    coerce_converted,
    decode_object,
    default,
    prune,
    prune_non_nullable_nulls,
)
from crdtool.core.customresource.prepared import (
    CrdVersion,
    CustomResourceError,
    PreparedCrd,
    prepare_crd,
    resolve_version,
)
from crdtool.core.customresource.update import UpdateResult, apply_update, validate_object_update

__all__ = [
    "BLOCKING_ERROR_DETAIL", "BLOCKING_ERROR_TYPES", "CrdVersion", "CreateResult", "CustomResourceError",
    "DEFAULT_NAMESPACE", "PreparedCrd", "UpdateResult", "apply_create", "apply_update", "coerce_converted",
    "decode_object", "default", "prepare_crd", "prune", "prune_non_nullable_nulls", "resolve_version",
    "validate_object", "validate_object_update",
]
