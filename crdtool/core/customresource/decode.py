"""A custom resource as the apiserver decodes a request: pruning, coercion, defaulting.

Mirrors ``customresource_handler.go``: ``unstructuredSchemaCoercer.apply``
(run by ``schemaCoercingDecoder``): ``metadata`` is decoded into
``metav1.ObjectMeta`` (``objectmeta.GetObjectMetaWithOptions``: a wrong type
fails the request, unknown fields are reported), the object is pruned
(``pruning.PruneWithOptions``, unless the CRD preserves unknown fields),
non-nullable nulls without defaults are dropped
(``defaulting.PruneNonNullableNullsWithoutDefaults``), embedded resources are
coerced (``objectmeta.CoerceWithOptions``), and metadata is written back
(``objectmeta.SetObjectMeta``). With server-side field validation ``Strict``
(kubectl's default) every pruned or unknown field fails the request
(``strict decoding error: unknown field "spec.foo"``). Then defaulting
(``unstructuredDefaulter.Default`` -> ``defaulting.Default``) over the schema
whose ``default`` values were pruned; and ``defaultDeprecationWarning``.

:func:`decode_object` and :func:`default` stop there (nothing of the create
strategy); :func:`coerce_converted` is what happens to an object right after a
conversion.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from crdtool.core.customresource.prepared import (
    CrdVersion,
    CustomResourceError,
    PreparedCrd,
    prepare_crd,
    resolve_version,
)
from crdtool.core.errors import FieldError, Path, duplicate_field, errors_at_release, go_quote, unknown_field
from crdtool.core.schema.defaulting import copy_json
from crdtool.core.schema.defaulting import default as _structural_default
from crdtool.core.schema.defaulting import prune_non_nullable_nulls
from crdtool.core.schema.objectmeta import coerce_with_options, object_meta_round_trip
from crdtool.core.schema.pruning import prune

__all__ = ["CreateResult", "coerce_converted", "decode_object", "decode_request", "default", "prune",
           "prune_non_nullable_nulls"]


@dataclass(frozen=True)
class CreateResult:
    """The outcome of creating one object.

    ``stored``: the object as the apiserver stores it, minus server-populated
    metadata (decoded, pruned, defaulted, ``status`` dropped when the status
    subresource is enabled). ``pruned``: the unknown-field paths dropped on
    decoding, in upstream order and syntax (``metadata.foo``, ``spec.bar``,
    ``spec.template.metadata.baz``). ``errors``: why the create would fail:
    decoding findings first (``UnknownField`` for each pruned path under
    ``Strict`` field validation, ``DuplicateField`` passed in by the caller,
    ``UnmarshalTypeError`` for undecodable metadata, which stops the create),
    then the strategy's validation errors in upstream order. ``warnings``:
    what a successful create returns as warnings.
    """

    stored: dict[str, Any]
    pruned: list[str]
    errors: list[FieldError]
    warnings: list[str]

    @property
    def valid(self) -> bool:
        return not self.errors


def decode_object(
    obj: dict[str, Any],
    crd: dict[str, Any] | PreparedCrd,
    version: str | None = None,
    *,
    prune: bool = True,
    kubernetes_version: str | None = None,
) -> CreateResult:
    """The object as the apiserver decodes a request for ``crd``: nothing of the create strategy.

    In: a custom resource and its CRD (manifest dict or :class:`PreparedCrd`),
    optionally the CRD version. Out: a :class:`CreateResult` whose ``stored``
    is the object after upstream's request decoding: pruned (``prune``
    False: kept), non-nullable nulls without a default dropped, metadata
    (and embedded resources' metadata) decoded into ObjectMeta and written
    back, then defaulted by the version's structural schema. ``status`` is
    kept, and defaulted where its schema has defaults: ``PrepareForCreate``
    is not applied, nor is any server-populated metadata. ``pruned`` lists
    the dropped unknown fields; ``errors`` holds only a metadata decoding
    error (``UnmarshalTypeError``, which stops the decoding); ``warnings`` a
    deprecated version's warning.

    ``kubernetes_version``: the release whose apiserver decodes (``"1.30"`` …
    ``"1.37"``; None: the prepared CRD's, else the default, 1.37).

    Raises :class:`CustomResourceError` when the object names another group
    or kind (upstream leaves such objects undecoded), has no kind or
    apiVersion, or names a version the CRD does not define or serve;
    ``ValueError`` for an unknown Kubernetes version.

    Mirrors ``customresource_handler.go`` ``unstructuredSchemaCoercer.apply``
    and ``unstructuredDefaulter.Default``.
    """
    prepared = prepare_crd(crd, kubernetes_version)
    ver = resolve_version(obj, prepared, version)
    decoded, _, warnings = decode_request(obj, prepared, ver, prune, "Ignore", (), False)
    errors = errors_at_release([decoded.fatal], prepared.release) if decoded.fatal is not None else []
    return CreateResult(decoded.obj, decoded.unknown, errors, warnings)


def default(
    obj: Any,
    schema: dict[str, Any] | PreparedCrd | None,
    version: str | None = None,
    *,
    kubernetes_version: str | None = None,
) -> Any:
    """Structural defaulting, or the whole request decoding when given a CRD.

    * ``default(obj, schema)`` with an ``openAPIV3Schema`` dict (or None):
      upstream ``structuraldefaulting.Default`` on a copy of ``obj`` (see
      :func:`crdtool.core.schema.defaulting.default`).
    * ``default(obj, crd[, version])`` with a CRD manifest dict (``kind:
      CustomResourceDefinition``) or a :class:`PreparedCrd`: the object after
      the apiserver's request decoding path, ``decode_object(obj, crd,
      version).stored``: pruned, non-nullable nulls without defaults dropped,
      ObjectMeta coerced, defaulted; ``status`` kept (nothing of
      ``PrepareForCreate``). Raises :class:`CustomResourceError` as
      :func:`decode_object` does. ``kubernetes_version`` as for :func:`decode_object`.

    Never mutates its arguments.
    """
    if type(schema) is dict and schema.get("kind") != "CustomResourceDefinition":
        return _structural_default(obj, schema)
    if isinstance(schema, PreparedCrd) or (isinstance(schema, dict) and _is_crd(schema)):
        return decode_object(obj, schema, version, kubernetes_version=kubernetes_version).stored
    return _structural_default(obj, schema)


def _is_crd(doc: Any) -> bool:
    from crdtool.core.crd.manifest import is_crd

    return is_crd(doc)


def coerce_converted(
    obj: dict[str, Any], crd: dict[str, Any] | PreparedCrd, version: str, *, kubernetes_version: str | None = None
) -> tuple[dict[str, Any], list[str]]:
    """What the apiserver does to an object right after converting it to ``version``.

    In: the converted object (e.g. a webhook's answer after
    :func:`crdtool.core.conversion_review.convert_from_response`), the CRD and the
    version it was converted to. Out: ``(object, pruned)``: a copy pruned by that version's
    structural schema (unless the CRD preserves unknown fields), with non-nullable nulls
    without defaults dropped, embedded resources coerced and ``metadata`` re-encoded as
    ``ObjectMeta`` (unknown metadata fields dropped); ``pruned`` lists the dropped paths. No
    defaulting: upstream defaults before conversion, never after a webhook's (defaulting KEP:
    "we do not default after webhook conversions").

    Raises :class:`CustomResourceError` (reason ``unknown-version``) for a version the CRD
    does not define, and (reason ``coerce``) with upstream's error text when the object's
    metadata or an embedded resource cannot be decoded, which fails the request.

    Mirrors ``customresource_handler.go`` ``schemaCoercingConverter.ConvertToVersion``
    (``unstructuredSchemaCoercer.apply`` without ``dropInvalidMetadata``).
    """
    prepared = prepare_crd(crd, kubernetes_version)
    ver = prepared.version(version)
    if ver is None:
        raise CustomResourceError(f"CRD {prepared.name} has no version {go_quote(version)}", "unknown-version")
    decoded = _decode(obj, prepared, ver, True)
    if decoded.fatal is not None:
        raise CustomResourceError(str(decoded.fatal.at_release(prepared.release)), "coerce")
    return decoded.obj, decoded.unknown


def decode_request(
    obj: dict[str, Any],
    prepared: PreparedCrd,
    ver: CrdVersion,
    prune: bool,
    field_validation: str,
    duplicate_fields: Sequence[str],
    foreign: bool,
) -> tuple[_Decoded, list[FieldError], list[str]]:
    """Decoding and defaulting of a request body: (decoded, strict-decoding errors, warnings)."""
    warnings: list[str] = []
    if ver.deprecated:
        warnings.append(ver.deprecation_warning if ver.deprecation_warning is not None else _deprecation_warning(prepared, ver))
    decoded = _decode(obj, prepared, ver, prune, schema_applies=not foreign)
    decode_errors: list[FieldError] = []
    if field_validation == "Strict":
        decode_errors = [duplicate_field(p) for p in duplicate_fields]
        decode_errors += [unknown_field(p) for p in decoded.unknown]
    elif field_validation == "Warn":
        warnings.extend(f"duplicate field {go_quote(p)}" for p in duplicate_fields)
        warnings.extend(f"unknown field {go_quote(p)}" for p in decoded.unknown)
    if decoded.fatal is None and not foreign:
        # unstructuredDefaulter.Default only defaults the CRD's own group and kind
        if ver.defaulter is not None:
            decoded.obj = ver.defaulter.apply(decoded.obj)  # our own copy: defaulted in place, as upstream does
        else:
            decoded.obj = _structural_default(decoded.obj, ver.serving_schema)
    return decoded, decode_errors, warnings


@dataclass
class _Decoded:
    obj: dict[str, Any]
    unknown: list[str]
    fatal: FieldError | None


def _decode(
    obj: dict[str, Any], prepared: PreparedCrd, ver: CrdVersion, prune_enabled: bool, *, schema_applies: bool = True
) -> _Decoded:
    """``unstructuredSchemaCoercer.apply`` with ``returnUnknownFieldPaths`` and no dropping.

    ``schema_applies`` False: the object is of another group or kind, so only
    its metadata is decoded (no pruning, no null pruning, no coercion).
    """
    unknown: list[str] = []
    has_meta = "metadata" in obj
    meta: dict[str, Any] | None = None
    if has_meta:
        meta_result = object_meta_round_trip(obj["metadata"], Path("metadata"))
        if meta_result.error is not None:
            return _Decoded(copy_json(obj), [], meta_result.error)
        meta = meta_result.meta
        if prune_enabled:
            unknown.extend(meta_result.unknown)
    schema = ver.serving_schema
    if not schema_applies:
        out = copy_json(obj)
    elif prune_enabled and not prepared.preserve_unknown_fields:
        out, paths = prune(obj, schema, is_resource_root=True)
        unknown.extend(paths)
        if _has_null(out):  # the null pruning is a no-op otherwise; skip its copy
            out = prune_non_nullable_nulls(out, schema)
    else:
        out = prune_non_nullable_nulls(obj, schema) if not prepared.preserve_unknown_fields else copy_json(obj)
    if ver.embedded_paths and schema_applies:
        err, paths = coerce_with_options(out, ver.structural, Path(""), strict=prune_enabled, only=ver.embedded_paths)
        if err is not None:
            return _Decoded(out, unknown, err)
        unknown.extend(paths)
    if has_meta:
        if prune_enabled:
            out["metadata"] = meta if meta is not None else {}
        elif isinstance(obj["metadata"], dict):
            out["metadata"] = copy_json(obj["metadata"])
    return _Decoded(out, unknown, None)


def _deprecation_warning(prepared: PreparedCrd, ver: CrdVersion) -> str:
    """``customresource_handler.go`` ``defaultDeprecationWarning``."""
    from functools import cmp_to_key

    from crdtool.core.versions import compare_versions

    msg = f"{prepared.group}/{ver.name} {prepared.kind} is deprecated"
    newer = [
        v.name for v in prepared.versions
        if v.served and not v.deprecated and compare_versions(ver.name, v.name) < 0
    ]
    if not newer:
        return msg
    newer.sort(key=cmp_to_key(compare_versions), reverse=True)
    return msg + f"; use {prepared.group}/{newer[0]} {prepared.kind}"


def _has_null(x: Any) -> bool:
    """Does any value in ``x`` (iteratively) equal JSON null?"""
    if not isinstance(x, (dict, list)):
        return x is None
    stack = [x]
    while stack:
        cur = stack.pop()
        values = cur.values() if isinstance(cur, dict) else cur
        for v in values:
            if v is None:
                return True
            if isinstance(v, (dict, list)):
                stack.append(v)
    return False
