"""The UPDATE path of a custom resource, as kube-apiserver runs it, with validation ratcheting.

Given a CRD, the object as stored and the object a client sends, this module
reproduces what the apiextensions-apiserver does with ``PUT`` (or an apply
patch, once merged) of ``/apis/<group>/<version>/...``:

1. **Decoding** of both objects under the CRD's schema for that version: the
   request as in :func:`crdtool.core.customresource.create.apply_create` (pruned,
   nulls dropped, ObjectMeta coerced, defaulted; unknown fields reported under
   ``Strict`` field validation), the stored object as the storage decoder
   reads it (pruned and defaulted too, so data the current schema no longer
   specifies is gone before validation).
2. ``Store.Update`` (``k8s.io/apiserver/pkg/registry/generic/registry/store.go``):
   a request without ``metadata.resourceVersion`` (or ``0``) is refused, once,
   with ``metadata.resourceVersion: Invalid value: 0: must be specified for an
   update``, before and instead of everything below.
3. ``rest.BeforeUpdate`` (``k8s.io/apiserver/pkg/registry/rest/update.go``):
   the namespace of the request (a namespaced object without one gets the old
   one; a cluster-scoped one loses it), the generation of the old object,
   the strategy's ``PrepareForUpdate`` (``registry/customresource/strategy.go``:
   with the status subresource, ``status`` is the old object's; the generation
   grows by one when anything but ``metadata`` changed), uid, creation and
   deletion timestamps from the old object, ``validateCommonFields``
   (ObjectMeta with ``validatePathSegment``, and the ObjectMeta update rules),
   then ``strategy.ValidateUpdate``:
   ``customResourceValidator.ValidateUpdate`` (``ValidateTypeMeta``: an
   object of another group or kind gets only its ``kind``/``apiVersion``
   errors here; else the ObjectMeta update rules
   again: upstream reports such an error twice; the OpenAPI schema with
   **validation ratcheting**, see :mod:`crdtool.core.validation.ratcheting`; the
   scale replicas), ``objectmeta.Validate`` of embedded resources,
   ``listtype.ValidateListSetsAndMaps`` (only when the old object passes it),
   and the CEL rules with the old object (transition rules with ``oldSelf``;
   errors of unchanged values ratcheted into warnings) unless a blocking
   error exists; finally ``WarningsOnUpdate`` (finalizers newly added).

Everything here is pure; arguments are never mutated. Conversion webhooks are
not modelled: both objects are taken at the requested version.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from crdtool.core.crd.manifest import FIELD_VALIDATION_DIRECTIVES
from crdtool.core.customresource.create import BLOCKING_ERROR_DETAIL, BLOCKING_ERROR_TYPES, DEFAULT_NAMESPACE, apply_create
from crdtool.core.customresource.decode import decode_object
from crdtool.core.customresource.prepared import CrdVersion, CustomResourceError, PreparedCrd, prepare_crd
from crdtool.core.errors import FieldError, Path, errors_at_release, go_quote, invalid
from crdtool.core.releases import Release

__all__ = ["UpdateResult", "apply_update", "evaluate_cel_update", "validate_object_update"]


@dataclass(frozen=True)
class UpdateResult:
    """The outcome of updating one object.

    ``stored``: the object as the apiserver would store it (minus
    server-populated metadata such as a new resourceVersion). ``old``: the
    stored object as the apiserver read it under the CRD (pruned, defaulted).
    ``pruned``: the unknown-field paths dropped from the request. ``errors``:
    why the update would fail (decoding findings first, then validation in
    upstream order). ``warnings``: what the apiserver returns as warnings,
    including the CEL rule violations it ratcheted. ``ratcheted``: the
    errors the same object would get on a create that the update tolerates:
    OpenAPI schema errors of values equal to their old values (validation
    ratcheting), and list-type (set/map uniqueness) errors, which are only
    checked when the stored object passes them. ``ratcheted_rules``: the CEL
    rule violations ratcheted, as the warning texts.
    """

    stored: dict[str, Any]
    old: dict[str, Any]
    pruned: list[str]
    errors: list[FieldError]
    warnings: list[str]
    ratcheted: list[FieldError] = field(default_factory=list)
    #: the CEL rule violations ratcheted (also among ``warnings``, as the apiserver returns them)
    ratcheted_rules: list[str] = field(default_factory=list)

    @property
    def valid(self) -> bool:
        return not self.errors


def apply_update(
    new_obj: dict[str, Any],
    old_obj: dict[str, Any],
    crd: dict[str, Any] | PreparedCrd,
    version: str | None = None,
    *,
    field_validation: str = "Strict",
    duplicate_fields: Sequence[str] = (),
    kubernetes_version: str | None = None,
) -> UpdateResult:
    """Run an UPDATE of ``old_obj`` to ``new_obj`` through the apiserver's update path for ``crd``.

    Args:
        new_obj: the object the client sends (plain JSON data; not modified).
        old_obj: the object as stored (e.g. from ``kubectl get -o yaml``); it
            is read at ``new_obj``'s version (its ``apiVersion`` is taken to be
            that version's, as a ``None`` conversion would give it); a
            namespaced object without a namespace is taken to be in
            ``default``, where kubectl creates it.
        crd: the CRD manifest dict or a :class:`PreparedCrd`.
        version: the CRD version of the request; default: ``new_obj``'s.
        field_validation: ``Strict`` (unknown and duplicate fields of the
            request are errors), ``Warn`` or ``Ignore``.
        duplicate_fields: paths of duplicate keys found by the caller's parser.
        kubernetes_version: the Kubernetes release whose apiserver runs the request (``"1.30"`` …
            ``"1.37"``; None: the prepared CRD's, else the default, 1.37).

    Returns: an :class:`UpdateResult`.

    A ``new_obj`` whose group or kind is not the CRD's is handled as
    :func:`~crdtool.core.customresource.apply_create` handles it (not decoded
    against the schema, served at ``version``, else its own version when
    served, else the preferred served version) and fails upstream's
    ``ValidateTypeMeta`` (``kind: Invalid value: "Bar": must be Foo``),
    which replaces the rest of ``customResourceValidator.ValidateUpdate``.

    Raises :class:`CustomResourceError` when ``new_obj`` has no kind or
    apiVersion, names a version the CRD does not define or serve, when
    ``old_obj`` is of another kind, when the CRD cannot be served, or (reason
    ``namespace-mismatch``) when the two objects are in different namespaces
    (upstream answers 400 before validation); ``ValueError`` for an unknown
    ``field_validation`` or Kubernetes version.

    Mirrors ``registry/rest/update.go`` ``BeforeUpdate`` and
    ``registry/customresource/strategy.go`` ``PrepareForUpdate``,
    ``ValidateUpdate``, ``WarningsOnUpdate`` (with ``validator.go``
    ``ValidateUpdate`` and ``ratcheting.go``).
    """
    if field_validation not in FIELD_VALIDATION_DIRECTIVES:
        raise ValueError(f"field_validation must be one of {', '.join(FIELD_VALIDATION_DIRECTIVES)}")
    from crdtool.core.customresource.prepared import version_for_create

    prepared = prepare_crd(crd, kubernetes_version)
    ver, foreign = version_for_create(new_obj, prepared, version)
    request = apply_create(
        new_obj, prepared, ver.name, field_validation=field_validation, validate=False, duplicate_fields=duplicate_fields
    )
    warnings = list(request.warnings)
    old_view = _read_stored(old_obj, new_obj, prepared, ver)
    release = prepared.release  # the errors are built with the newest field.Error text; errors_at_release: the release's
    if any(e.type == "UnmarshalTypeError" for e in request.errors):
        return UpdateResult(request.stored, old_view, request.pruned, errors_at_release(request.errors, release), warnings)
    storage_errors = _storage_update_errors(request.stored)
    if storage_errors:  # Store.Update refuses the request before BeforeUpdate (and so before any validation)
        return UpdateResult(
            request.stored, old_view, request.pruned, errors_at_release([*request.errors, *storage_errors], release), warnings
        )
    new_view = before_update(request.stored, old_view, prepared, ver)
    ratcheted_rules: list[str] = []
    errors, ratcheted = _validate_update(new_view, old_view, prepared, ver, warnings, ratcheted_rules, foreign)
    errors = [*request.errors, *errors]
    if not errors:  # rest.BeforeUpdate asks WarningsOnUpdate only once validation passed
        warnings.extend(_added_finalizer_warnings(new_view, old_view, release))
    return UpdateResult(
        new_view, old_view, request.pruned, errors_at_release(errors, release), warnings,
        errors_at_release(ratcheted, release), ratcheted_rules,
    )


def validate_object_update(
    new_obj: dict[str, Any],
    old_obj: dict[str, Any],
    crd: dict[str, Any] | PreparedCrd,
    version: str | None = None,
    *,
    kubernetes_version: str | None = None,
) -> list[FieldError]:
    """Why the apiserver would refuse to update ``old_obj`` to ``new_obj`` (empty: it would accept it).

    In: the object sent, the object stored, their CRD (manifest dict or
    :class:`PreparedCrd`), optionally the version and the Kubernetes release
    (``kubernetes_version``, as for :func:`apply_update`). Out: the errors of
    :func:`apply_update` (server-side field validation ``Strict``). Raises as
    :func:`apply_update`.
    """
    return apply_update(new_obj, old_obj, crd, version, kubernetes_version=kubernetes_version).errors


# =============================================================================
# Steps
# =============================================================================


def _read_stored(old_obj: dict[str, Any], new_obj: dict[str, Any], prepared: PreparedCrd, ver: CrdVersion) -> dict[str, Any]:
    """The stored object as the storage decoder reads it under the CRD: pruned, nulls dropped, defaulted."""
    old = dict(old_obj) if isinstance(old_obj, dict) else {}
    old["apiVersion"] = f"{prepared.group}/{ver.name}"
    if not isinstance(old.get("kind"), str) or not old.get("kind"):
        old["kind"] = prepared.kind
    if old.get("kind") != prepared.kind:
        raise CustomResourceError(f"the stored object is a {old.get('kind')}, not a {prepared.kind}", "kind-mismatch")
    decoded = decode_object(old, prepared, ver.name)
    stored = decoded.stored
    meta = stored.get("metadata")
    if prepared.namespaced and isinstance(meta, dict) and not meta.get("namespace"):
        # a stored namespaced object always has one; a manifest without one was created in kubectl's default
        stored = {**stored, "metadata": {**meta, "namespace": DEFAULT_NAMESPACE}}
    return stored


def _storage_update_errors(new: Mapping[str, Any]) -> list[FieldError]:
    """What ``genericregistry.Store.Update`` says of the request's ``metadata.resourceVersion`` before ``BeforeUpdate``.

    In: the decoded request. Out: ``[]``, or the one error that answers the
    request instead of validation. Upstream (k8s.io/apiserver v0.36.3
    ``pkg/registry/generic/registry/store.go`` ``Store.Update``, inside
    ``GuaranteedUpdate``): ``Versioner().ObjectResourceVersion(obj)``
    (``pkg/storage/api_object_versioner.go``: ``""`` is 0, else
    ``strconv.ParseUint(rv, 10, 64)``, whose error is returned as is, a 500:
    here an ``InternalError`` at ``metadata.resourceVersion``); custom
    resources do not ``AllowUnconditionalUpdate``, so a version of 0 is
    ``field.Invalid(metadata.resourceVersion, uint64(0), "must be specified
    for an update")`` (the bad value prints as ``0``; ``0x0``, Go's ``%#v`` of a
    uint64, before 1.34). The comparison with the
    stored object's version (a ``Conflict``) is not modelled: the stored object
    given may come from a file.
    """
    from crdtool.core.errors import go_typed, internal_error

    rv = _str(_dict(new.get("metadata")).get("resourceVersion"))
    path = Path("metadata", "resourceVersion")
    zero = go_typed(0, "0x0")  # uint64(0): field/errors.go@v0.33.13 renders it with %#v
    if not rv:
        return [invalid(path, zero, "must be specified for an update")]
    if not (rv.isascii() and rv.isdigit()):
        return [internal_error(path, f"strconv.ParseUint: parsing {go_quote(rv)}: invalid syntax")]
    value = int(rv)
    if value >= 1 << 64:
        return [internal_error(path, f"strconv.ParseUint: parsing {go_quote(rv)}: value out of range")]
    if value == 0:
        return [invalid(path, zero, "must be specified for an update")]
    return []


def before_update(new: dict[str, Any], old: Mapping[str, Any], prepared: PreparedCrd, ver: CrdVersion) -> dict[str, Any]:
    """``rest.BeforeUpdate`` up to validation, on a copy: namespace, generation, ``PrepareForUpdate``, uid, timestamps.

    In: the decoded request and the decoded stored object. Out: the object
    the strategy validates (``managedFields`` left out: the field manager
    resets entries it cannot decode, so they never fail).
    """
    out = dict(new)
    meta = dict(_dict(new.get("metadata")))
    old_meta = _dict(old.get("metadata"))
    namespace = _str(old_meta.get("namespace")) if prepared.namespaced else ""
    if prepared.namespaced:
        if not meta.get("namespace"):
            meta["namespace"] = namespace
        elif meta["namespace"] != namespace:
            raise CustomResourceError(
                "the namespace of the provided object does not match the namespace sent on the request", "namespace-mismatch"
            )
    else:
        meta.pop("namespace", None)
    meta["generation"] = _int(old_meta.get("generation"))
    # PrepareForUpdate
    if ver.status_enabled:
        if "status" in old:
            out["status"] = old["status"]
        else:
            out.pop("status", None)
    if _without_metadata(out) != _without_metadata(old) or not _same_types(_without_metadata(out), _without_metadata(old)):
        meta["generation"] = _int(old_meta.get("generation")) + 1
    if not meta.get("uid") and old_meta.get("uid"):
        meta["uid"] = old_meta["uid"]
    if old_meta.get("creationTimestamp"):
        meta["creationTimestamp"] = old_meta["creationTimestamp"]
    if old_meta.get("deletionTimestamp"):
        meta["deletionTimestamp"] = old_meta["deletionTimestamp"]
    if old_meta.get("deletionGracePeriodSeconds") is not None and meta.get("deletionGracePeriodSeconds") is None:
        meta["deletionGracePeriodSeconds"] = old_meta["deletionGracePeriodSeconds"]
    meta.pop("managedFields", None)
    out["metadata"] = meta
    return out


def _validate_update(
    new: dict[str, Any],
    old: dict[str, Any],
    prepared: PreparedCrd,
    ver: CrdVersion,
    warnings: list[str],
    ratcheted_rules: list[str],
    foreign: bool = False,
) -> tuple[list[FieldError], list[FieldError]]:
    """``validateCommonFields`` + ``customResourceStrategy.ValidateUpdate``: (errors, ratcheted schema errors).

    ``foreign``: ``new`` is of another group or kind than the CRD's.
    """
    from crdtool.core.customresource.validator import validate_scale  # the scale replicas checks of validator.go
    from crdtool.core.customresource.validator import validate_type_meta
    from crdtool.core.objectmeta import (
        validate_object_meta,
        validate_object_meta_declaratively,
        validate_object_meta_update,
    )
    from crdtool.core.schema import objectmeta as schema_objectmeta
    from crdtool.core.validation.ratcheting import validate_value_update
    from crdtool.core.validation.value_validation import validate_list_sets_and_maps, validate_value
    from crdtool.core.validation_util import validate_path_segment

    release = prepared.release
    meta, old_meta = _dict(new.get("metadata")), _dict(old.get("metadata"))
    # rest.validateCommonFields: ValidateObjectMetaAccessor (with validatePathSegment), then the update rules
    errs = validate_object_meta(meta, prepared.namespaced, validate_path_segment, Path("metadata"), release)
    errs.extend(validate_object_meta_update(meta, old_meta, Path("metadata"), release))
    # customResourceValidator.ValidateUpdate: ValidateTypeMeta's errors, if any, are all it returns
    type_meta_errors = validate_type_meta(new, prepared, ver) if foreign else []
    errs.extend(type_meta_errors)
    if not type_meta_errors:
        # ValidateObjectMetaAccessorUpdate (1.37: ValidateObjectMetaDeclaratively: each message once)
        errs.extend(validate_object_meta_declaratively(meta, old_meta, prepared.namespaced, None, Path("metadata"), release))
    ratcheted: list[FieldError] = []
    if ver.schema is not None and not type_meta_errors:
        kept = validate_value_update(new, old, ver.schema, None, release=release)
        errs.extend(kept)
        plain = validate_value(new, ver.schema, None, release=release)
        if len(plain) != len(kept):
            remaining = Counter(map(_error_key, kept))
            for e in plain:
                if remaining[_error_key(e)]:
                    remaining[_error_key(e)] -= 1
                else:
                    ratcheted.append(e)
    if ver.scale is not None and not type_meta_errors:
        errs.extend(validate_scale(new, ver.scale))
    if ver.embedded_paths:
        errs.extend(schema_objectmeta.validate(None, new, ver.structural, False, release))
    if ver.has_list_types and ver.schema is not None:
        if not validate_list_sets_and_maps(Path(""), ver.schema, old):
            errs.extend(validate_list_sets_and_maps(Path(""), ver.schema, new))
        else:  # not checked while the stored object itself breaks them
            ratcheted.extend(validate_list_sets_and_maps(Path(""), ver.schema, new))
    if ver.has_cel:
        if any(e.type in BLOCKING_ERROR_TYPES for e in errs):
            errs.append(invalid("<nil>", None, BLOCKING_ERROR_DETAIL))
        else:
            cel_errors, cel_ratcheted, cel_notes = evaluate_cel_update(new, old, ver, prepared.release)
            errs.extend(cel_errors)
            warnings.extend(cel_notes)
            warnings.extend(cel_ratcheted)
            ratcheted_rules.extend(cel_ratcheted)
    return errs, ratcheted


def evaluate_cel_update(
    new: Any, old: Any, ver: CrdVersion, release: Release | None = None
) -> tuple[list[FieldError], list[str], list[str]]:
    """The CEL rules of an UPDATE: the one place where CEL meets the update path.

    Upstream ``celValidator.Validate(ctx, nil, s, new, old,
    RuntimeCELCostBudget, WithRatcheting(correlation))``
    (``pkg/registry/customresource/strategy.go`` ``ValidateUpdate``):
    transition rules (``oldSelf``) are evaluated against the correlated old
    values, and the errors of a rule whose value (or nearest correlatable
    ancestor) equals its old value are ratcheted into warnings.

    Returns ``(errors, ratcheted, notes)``: the field errors; the ratcheted
    violations as the warnings the apiserver returns (``field: message``);
    crdtool's own notes (none today: every rule is evaluated).
    """
    from crdtool.core.crdcel.validation import validate_cel

    result = validate_cel(new, ver.structural, None, is_resource_root=True, budget=None, old_obj=old, release=release)
    return list(result.errors), list(result.warnings), []


def _added_finalizer_warnings(new: Mapping[str, Any], old: Mapping[str, Any], release: Release | None = None) -> list[str]:
    """``generateWarningsFromObj(obj, old)``: warnings for finalizers the update adds."""
    from crdtool.core.customresource.validator import finalizer_warnings

    before = {f for f in _list(_dict(old.get("metadata")).get("finalizers")) if isinstance(f, str)}
    added = [f for f in _list(_dict(new.get("metadata")).get("finalizers")) if isinstance(f, str) and f not in before]
    return finalizer_warnings(added, release)


# =============================================================================
# Helpers
# =============================================================================


def _error_key(e: FieldError) -> tuple[str, str, str]:
    return (e.type, e.field, e.detail)


def _without_metadata(obj: Mapping[str, Any]) -> dict[str, Any]:
    """``copyNonMetadata``."""
    return {k: v for k, v in obj.items() if k != "metadata"}


def _same_types(a: Any, b: Any) -> bool:
    """``Semantic.DeepEqual`` also tells an int64 from a float64: equal values, same Go types."""
    from crdtool.core.kubecel.equality import deep_equal

    return deep_equal(a, b)


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _str(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _int(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0
