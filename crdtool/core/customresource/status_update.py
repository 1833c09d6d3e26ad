"""The UPDATE of a custom resource's ``status`` subresource, as kube-apiserver runs it.

``PUT .../<name>/status`` (``kubectl ... --subresource=status``, a controller's ``Status().Update``) goes
through the status strategy (``apiextensions-apiserver/pkg/registry/customresource/status_strategy.go``):

1. the request is decoded as for the main resource (pruned, defaulted, unknown fields reported under
   ``Strict``), the stored object read under the CRD, ``Store.Update``'s resourceVersion rule;
2. ``rest.BeforeUpdate`` with ``statusStrategy.PrepareForUpdate``: the object becomes the stored one with the
   request's ``status`` (or none when the request has none): spec and metadata changes are dropped;
3. ``validateCommonFields`` (ObjectMeta, ObjectMeta update), then ``statusStrategy.ValidateUpdate``:
   ``customResourceValidator.ValidateStatusUpdate`` (``validator.go``: type meta, the ObjectMeta update rules,
   the ``status`` value validated **alone** with the status schema at ``status`` -- so kube-openapi names
   ``addresses[0].value in body``, not ``status.addresses[0].value`` -- with ratcheting against the old status,
   the scale subresource's status checks), list-type invariants (only when the stored object passes them), and
   the CEL rules of the whole object with the old object (transition rules, ratcheting) unless a blocking error
   exists. No embedded-resource validation and no warnings (``WarningsOnUpdate`` returns none).

Pure; arguments are never mutated. The CRD must have the status subresource on the version.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

from crdtool.core.crd.manifest import FIELD_VALIDATION_DIRECTIVES
from crdtool.core.customresource.create import BLOCKING_ERROR_DETAIL, BLOCKING_ERROR_TYPES
from crdtool.core.customresource.decode import decode_request
from crdtool.core.customresource.prepared import CrdVersion, CustomResourceError, PreparedCrd, prepare_crd
from crdtool.core.customresource.update import (
    UpdateResult,
    _read_stored,
    _storage_update_errors,
    before_update,
    evaluate_cel_update,
)
from crdtool.core.errors import FieldError, Path, errors_at_release, invalid

__all__ = ["apply_status_update"]


def apply_status_update(
    new_obj: dict[str, Any],
    old_obj: dict[str, Any],
    crd: dict[str, Any] | PreparedCrd,
    version: str | None = None,
    *,
    field_validation: str = "Strict",
    duplicate_fields: Sequence[str] = (),
    kubernetes_version: str | None = None,
) -> UpdateResult:
    """Run an UPDATE of the ``status`` subresource of ``old_obj`` with ``new_obj`` (see the module docstring).

    Returns an :class:`~crdtool.core.customresource.update.UpdateResult` (``stored``: the old object with the
    new status; ``ratcheted``: status schema errors tolerated because the values are unchanged; ``warnings``:
    decoding warnings and the ratcheted CEL violations). Raises :class:`CustomResourceError` as
    :func:`~crdtool.core.customresource.apply_update` does, and (reason ``no-status-subresource``) when the
    version has no status subresource (upstream serves no ``/status`` then: 404); ``ValueError`` for an
    unknown ``field_validation`` or Kubernetes version. ``kubernetes_version``: the release whose apiserver
    runs the request (``"1.30"`` … ``"1.37"``; None: the prepared CRD's, else the default, 1.37); the errors
    carry that release's ``field.Error`` text (:func:`~crdtool.core.errors.errors_at_release`).

    Mirrors ``registry/customresource/status_strategy.go`` (``PrepareForUpdate``, ``ValidateUpdate``) and
    ``validator.go`` ``ValidateStatusUpdate`` (apiextensions-apiserver v0.36.3).
    """
    if field_validation not in FIELD_VALIDATION_DIRECTIVES:
        raise ValueError(f"field_validation must be one of {', '.join(FIELD_VALIDATION_DIRECTIVES)}")
    from crdtool.core.customresource.prepared import version_for_create

    prepared = prepare_crd(crd, kubernetes_version)
    release = prepared.release
    ver, foreign = version_for_create(new_obj, prepared, version)
    if not ver.status_enabled:
        raise CustomResourceError(f"version {ver.name} of {prepared.name} has no status subresource", "no-status-subresource")
    # the request decoded as the handler decodes it (pruned, defaulted), its status kept
    decoded, decode_errors, warnings = decode_request(new_obj, prepared, ver, True, field_validation,
                                                      duplicate_fields, foreign)
    request_errors = [*decode_errors, decoded.fatal] if decoded.fatal is not None else list(decode_errors)
    old_view = _read_stored(old_obj, new_obj, prepared, ver)
    if decoded.fatal is not None or any(e.type == "UnmarshalTypeError" for e in request_errors):
        return UpdateResult(decoded.obj, old_view, decoded.unknown, errors_at_release(request_errors, release), warnings)
    storage_errors = _storage_update_errors(decoded.obj)
    if storage_errors:
        return UpdateResult(decoded.obj, old_view, decoded.unknown,
                            errors_at_release([*request_errors, *storage_errors], release), warnings)
    # PrepareForUpdate: everything but the status from the stored object
    prepared_request = copy.deepcopy(old_view)
    if "status" in decoded.obj:
        prepared_request["status"] = decoded.obj["status"]
    else:
        prepared_request.pop("status", None)
    new_view = _before_status_update(prepared_request, old_view, prepared, ver)
    ratcheted_rules: list[str] = []
    errors, ratcheted = _validate_status_update(new_view, old_view, prepared, ver, warnings, ratcheted_rules, foreign)
    return UpdateResult(new_view, old_view, decoded.unknown, errors_at_release([*request_errors, *errors], release),
                        warnings, errors_at_release(ratcheted, release), ratcheted_rules)


def _before_status_update(new: dict[str, Any], old: dict[str, Any], prepared: PreparedCrd, ver: CrdVersion) -> dict[str, Any]:
    """``rest.BeforeUpdate`` of the status strategy: as the main one (namespace, uid, timestamps), but the
    generation stays the stored one (status changes never bump it) and ``status`` is the request's."""
    status = new.get("status")
    has_status = "status" in new
    out = before_update(new, old, prepared, ver)  # with the status subresource on, this takes the old status back
    meta = dict(out["metadata"])
    old_generation = (old.get("metadata") or {}).get("generation")
    meta["generation"] = old_generation if isinstance(old_generation, int) and not isinstance(old_generation, bool) else 0
    out["metadata"] = meta
    if has_status:
        out["status"] = status
    else:
        out.pop("status", None)
    return out


def _validate_status_update(
    new: dict[str, Any],
    old: dict[str, Any],
    prepared: PreparedCrd,
    ver: CrdVersion,
    warnings: list[str],
    ratcheted_rules: list[str],
    foreign: bool,
) -> tuple[list[FieldError], list[FieldError]]:
    """``validateCommonFields`` + ``statusStrategy.ValidateUpdate``: (errors, ratcheted status schema errors)."""
    from crdtool.core.customresource.validator import validate_scale, validate_type_meta
    from crdtool.core.objectmeta import (
        validate_object_meta,
        validate_object_meta_declaratively,
        validate_object_meta_update,
    )
    from crdtool.core.validation.ratcheting import validate_value_update
    from crdtool.core.validation.value_validation import validate_list_sets_and_maps, validate_value
    from crdtool.core.validation_util import validate_path_segment

    release = prepared.release
    meta, old_meta = _dict(new.get("metadata")), _dict(old.get("metadata"))
    errs = validate_object_meta(meta, prepared.namespaced, validate_path_segment, Path("metadata"), release)
    errs.extend(validate_object_meta_update(meta, old_meta, Path("metadata"), release))
    # ValidateStatusUpdate: ValidateTypeMeta's errors, if any, are all it returns
    type_meta_errors = validate_type_meta(new, prepared, ver) if foreign else []
    errs.extend(type_meta_errors)
    ratcheted: list[FieldError] = []
    if not type_meta_errors:
        # ValidateObjectMetaAccessorUpdate (1.37: ValidateObjectMetaDeclaratively: each message once)
        errs.extend(validate_object_meta_declaratively(meta, old_meta, prepared.namespaced, None, Path("metadata"), release))
        status_schema = _dict(_dict(ver.schema).get("properties")).get("status") if ver.schema is not None else None
        if "status" in new and isinstance(status_schema, dict):
            kept = validate_value_update(new["status"], old.get("status"), status_schema, Path("status"), release=release)
            errs.extend(kept)
            plain = validate_value(new["status"], status_schema, Path("status"), release=release)
            left = list(kept)
            for e in plain:
                if e in left:
                    left.remove(e)
                else:
                    ratcheted.append(e)
        if ver.scale is not None:
            errs.extend(validate_scale(new, {k: v for k, v in ver.scale.items() if k != "specReplicasPath"}))
    if ver.has_list_types and ver.schema is not None:
        new_list_errors = validate_list_sets_and_maps(Path(""), ver.schema, new)
        if new_list_errors and not validate_list_sets_and_maps(Path(""), ver.schema, old):
            errs.extend(new_list_errors)
    if ver.has_cel:
        if any(e.type in BLOCKING_ERROR_TYPES for e in errs):
            errs.append(invalid("<nil>", None, BLOCKING_ERROR_DETAIL))
        else:
            cel_errors, cel_ratcheted, cel_notes = evaluate_cel_update(new, old, ver, release)
            errs.extend(cel_errors)
            warnings.extend(cel_notes)
            warnings.extend(cel_ratcheted)
            ratcheted_rules.extend(cel_ratcheted)
    return errs, ratcheted


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}
