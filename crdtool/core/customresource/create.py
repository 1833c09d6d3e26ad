"""The create path of a custom resource, as kube-apiserver runs it.

Given a CRD manifest and an object, this module reproduces what the
apiextensions-apiserver does with ``POST /apis/<group>/<version>/...``:

1. **Version resolution** (``customresource_handler.go`` ``ServeHTTP`` /
   ``getOrCreateServingInfoFor``): the object's ``apiVersion`` names a
   ``group/version`` of the CRD, which must exist and be served; upstream
   answers an unknown or unserved version with 404, kubectl with ``no
   matches for kind``. Here that is a :class:`CustomResourceError`.
2. **Decoding** (``customresource_handler.go``
   ``unstructuredSchemaCoercer.apply``, run by ``schemaCoercingDecoder``):
   ``metadata`` is decoded into ``metav1.ObjectMeta`` (``objectmeta.
   GetObjectMetaWithOptions``: a wrong type fails the request, unknown fields
   are reported), the object is pruned (``pruning.PruneWithOptions``, unless
   the CRD preserves unknown fields), non-nullable nulls without defaults are
   dropped (``defaulting.PruneNonNullableNullsWithoutDefaults``), embedded
   resources are coerced (``objectmeta.CoerceWithOptions``), and metadata is
   written back (``objectmeta.SetObjectMeta``). With server-side field
   validation ``Strict`` (kubectl's default) every pruned or unknown field
   fails the request (``strict decoding error: unknown field "spec.foo"``).
3. **Defaulting** (``unstructuredDefaulter.Default`` ->
   ``defaulting.Default``) over a schema whose ``default`` values were pruned
   when the storage was built (``defaulting.PruneDefaults``).
4. **Create** (``k8s.io/apiserver/pkg/registry/rest/create.go``
   ``BeforeCreate``): the request namespace is applied
   (``EnsureObjectNamespaceMatchesRequestNamespace``: a namespaced object
   without one is created in ``default``, as kubectl does; a cluster-scoped
   object loses its namespace), ``generateName`` becomes a name, then the
   strategy's ``PrepareForCreate`` (``registry/customresource/strategy.go``:
   ``status`` is dropped when the status subresource is enabled, generation
   is 1) and ``Validate``:
   ``validator.go`` ``customResourceValidator.Validate`` (ObjectMeta with
   ``NameIsDNSSubdomain``, OpenAPI value validation, scale replicas),
   ``objectmeta.Validate`` of embedded resources,
   ``listtype.ValidateListSetsAndMaps``, and the CEL rules unless a
   *blocking* error exists (``hasBlockingErr``), in which case upstream adds
   ``<nil>: Invalid value: null: some validation rules were not checked
   because the object was invalid; correct the existing errors to complete
   validation``. ``WarningsOnCreate`` warns about finalizer names; a
   deprecated version adds its deprecation warning.

An object of another group or kind is not decoded against the schema and
fails ``ValidateTypeMeta`` (see :func:`apply_create`); a create that passes
validation with ``metadata.resourceVersion`` set is refused by the storage
(etcd3 ``store.Create``). :func:`decode_object` stops after step 3.

What is not modelled: server-populated metadata (uid, creationTimestamp,
managedFields entries, the random suffix of a generated
name: ``xxxxx`` is used), admission webhooks, and the second ObjectMeta pass
of ``BeforeCreate`` (``path.ValidatePathSegmentName``), which cannot fail
once ``NameIsDNSSubdomain`` has passed. User-supplied ``managedFields`` are
never reported: the field manager replaces entries it cannot decode.

Everything here is pure; arguments are never mutated. For many objects of one
CRD call :func:`prepare_crd` once and pass the result instead of the dict.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from crdtool.core.crd.manifest import FIELD_VALIDATION_DIRECTIVES
from crdtool.core.customresource.decode import (
    CreateResult,
    coerce_converted,
    decode_object,
    decode_request,
    default,
    prune,
    prune_non_nullable_nulls,
)
from crdtool.core.customresource.prepared import (
    CelTree,
    CrdVersion,
    CustomResourceError,
    PreparedCrd,
    prepare_crd,
    resolve_version,
    version_for_create,
)
from crdtool.core.customresource.validator import finalizer_warnings, validate_scale, validate_type_meta
from crdtool.core.errors import ErrorType, FieldError, Path, errors_at_release, invalid
from crdtool.core.releases import Release
from crdtool.core.storage import RESOURCE_VERSION_SET_ON_CREATE as RESOURCE_VERSION_SET_ON_CREATE  # re-exported

__all__ = [
    "BLOCKING_ERROR_DETAIL",
    "FIELD_VALIDATION_DIRECTIVES",
    "CrdVersion",
    "CreateResult",
    "CustomResourceError",
    "PreparedCrd",
    "apply_create",
    "coerce_converted",
    "decode_object",
    "default",
    "prepare_crd",
    "prune",
    "prune_non_nullable_nulls",
    "resolve_version",
    "validate_object",
]

#: Upstream ``hasBlockingErr``'s error detail (``strategy.go``).
BLOCKING_ERROR_DETAIL = (
    "some validation rules were not checked because the object was invalid; "
    "correct the existing errors to complete validation"
)
#: Error types after which upstream does not evaluate CEL rules (``hasBlockingErr``).
BLOCKING_ERROR_TYPES = frozenset(
    {
        ErrorType.NOT_SUPPORTED.value,
        ErrorType.REQUIRED.value,
        ErrorType.TOO_LONG.value,
        ErrorType.TOO_MANY.value,
        ErrorType.TYPE_INVALID.value,
    }
)
#: kubectl creates a namespaced object without a namespace in its context's namespace.
DEFAULT_NAMESPACE = "default"
#: ``names.SimpleNameGenerator``: 5 random characters after at most 58 of generateName.
_GENERATED_SUFFIX = "xxxxx"
_MAX_GENERATED_NAME_LENGTH = 63 - len(_GENERATED_SUFFIX)



# =============================================================================
# The create path
# =============================================================================


def apply_create(
    obj: dict[str, Any],
    crd: dict[str, Any] | PreparedCrd,
    version: str | None = None,
    *,
    prune: bool = True,
    field_validation: str = "Strict",
    validate: bool = True,
    duplicate_fields: Sequence[str] = (),
    kubernetes_version: str | None = None,
) -> CreateResult:
    """Run an object through the apiserver's create path for ``crd``.

    Args:
        obj: the custom resource (plain JSON data); not modified.
        crd: the CRD manifest dict or a :class:`PreparedCrd`.
        version: the CRD version to use; default: the object's apiVersion.
        prune: drop unknown fields (False: keep them, as a CRD with
            ``preserveUnknownFields: true`` would; nulls are still pruned).
        field_validation: ``Strict`` (kubectl's default: unknown and
            duplicate fields are errors), ``Warn`` (they are warnings) or
            ``Ignore``.
        validate: run the strategy's validation (False: decode, default and
            prepare for create only).
        duplicate_fields: paths of duplicate keys found by the caller's parser.
        kubernetes_version: the Kubernetes release whose apiserver runs the request (``"1.30"`` …
            ``"1.37"``; None: the prepared CRD's, else the default, 1.37).

    Returns: a :class:`CreateResult`.

    An object whose group or kind is not the CRD's is not decoded against the
    schema (no pruning, no defaulting: ``unstructuredSchemaCoercer.apply``
    only handles the CRD's group and kind) and fails upstream's
    ``ValidateTypeMeta`` (``kind: Invalid value: "Bar": must be Foo``,
    ``apiVersion: Invalid value: "other.com/v1": must be example.com/v1``);
    metadata and OpenAPI validation are then skipped, as
    ``customResourceValidator.Validate`` returns early, while the strategy's
    embedded-resource, list-type and CEL checks still run on the raw
    object. Its version is ``version``, else the object's when the CRD
    serves it, else the CRD's highest-priority served version.

    A create that passes validation but sets ``metadata.resourceVersion``
    (to a non-zero number) fails in storage, as upstream's etcd3 store
    ``Create`` refuses it: an ``InternalError`` at
    ``metadata.resourceVersion`` with upstream's text ``resourceVersion
    should not be set on objects to be created`` (the apiserver answers 500).

    Raises :class:`CustomResourceError` when the object has no kind or
    apiVersion, names a version the CRD does not define or serve, or the CRD
    cannot be served; ``ValueError`` for an unknown ``field_validation`` or
    Kubernetes version.

    Mirrors ``customresource_handler.go`` (``schemaCoercingDecoder.Decode``,
    ``unstructuredSchemaCoercer.apply``, ``unstructuredDefaulter.Default``),
    ``registry/rest/create.go`` ``BeforeCreate``,
    ``registry/customresource/strategy.go`` (``PrepareForCreate``,
    ``Validate``, ``WarningsOnCreate``), ``validator.go``
    ``ValidateTypeMeta`` and ``storage/etcd3/store.go`` ``Create``.
    """
    if field_validation not in FIELD_VALIDATION_DIRECTIVES:
        raise ValueError(f"field_validation must be one of {', '.join(FIELD_VALIDATION_DIRECTIVES)}")
    prepared = prepare_crd(crd, kubernetes_version)
    ver, foreign = version_for_create(obj, prepared, version)
    decoded, decode_errors, warnings = decode_request(obj, prepared, ver, prune, field_validation, duplicate_fields, foreign)
    # the errors are built with the newest field.Error text; errors_at_release gives them the release's
    if decoded.fatal is not None:
        return CreateResult(
            decoded.obj, decoded.unknown, errors_at_release([*decode_errors, decoded.fatal], prepared.release), warnings
        )
    stored = decoded.obj
    if ver.status_enabled:
        stored.pop("status", None)  # PrepareForCreate: create cannot set status
    if not validate:
        return CreateResult(stored, decoded.unknown, decode_errors, warnings)

    type_meta_errors = validate_type_meta(stored, prepared, ver) if foreign else []
    errors = _validate_create(stored, prepared, ver, warnings, type_meta_errors)
    if not decode_errors and not errors:
        errors = _storage_create_errors(stored)
    return CreateResult(stored, decoded.unknown, errors_at_release([*decode_errors, *errors], prepared.release), warnings)


def validate_object(
    obj: dict[str, Any],
    crd: dict[str, Any] | PreparedCrd,
    version: str | None = None,
    *,
    kubernetes_version: str | None = None,
) -> list[FieldError]:
    """Why the apiserver would refuse to create ``obj`` (empty: it would accept it).

    In: a custom resource and its CRD (manifest dict or :class:`PreparedCrd`).
    Out: ``UnknownField`` findings for fields pruned on decoding (server-side
    field validation ``Strict``, kubectl's default), then the validation
    errors of the create strategy in upstream order (metadata, OpenAPI schema,
    scale, embedded resources, list sets/maps, CEL rules or the blocking
    error), or ``ValidateTypeMeta``'s errors for an object of another group
    or kind, then the storage's ``resourceVersion`` refusal. Field paths are
    upstream's (``spec.replicas``, ``metadata.name``; ``<nil>`` for errors
    upstream reports without a field).

    ``kubernetes_version``: the release whose apiserver judges (``"1.30"`` …
    ``"1.37"``; None: the prepared CRD's, else the default, 1.37).

    Raises :class:`CustomResourceError` for an object without kind or
    apiVersion, or whose version the CRD does not define or serve;
    ``ValueError`` for an unknown Kubernetes version.

    Mirrors the create path of ``customresource_handler.go`` and
    ``registry/customresource/strategy.go`` (see :func:`apply_create`).
    """
    return apply_create(obj, crd, version, kubernetes_version=kubernetes_version).errors


def _storage_create_errors(stored: dict[str, Any]) -> list[FieldError]:
    """``etcd3.store.Create``'s resourceVersion rule (:func:`crdtool.core.storage.resource_version_set_on_create`)."""
    from crdtool.core.storage import resource_version_set_on_create

    return resource_version_set_on_create(stored)


# --- decoding -----------------------------------------------------------------


# --- validation -----------------------------------------------------------------


def _validation_view(stored: dict[str, Any], prepared: PreparedCrd) -> dict[str, Any]:
    """The object as ``strategy.Validate`` sees it after the handler and ``BeforeCreate``.

    Namespace from the request (kubectl: the object's, else ``default``;
    cleared for cluster-scoped kinds), a generated name for ``generateName``,
    ``generation: 1`` (``PrepareForCreate``); ``managedFields`` are left out
    (the field manager resets entries it cannot decode, so they never fail).
    """
    meta = dict(stored.get("metadata") or {}) if isinstance(stored.get("metadata"), dict) else {}
    if prepared.namespaced:
        if not meta.get("namespace"):
            meta["namespace"] = DEFAULT_NAMESPACE
    else:
        meta.pop("namespace", None)
    generate_name = meta.get("generateName")
    if isinstance(generate_name, str) and generate_name and not meta.get("name"):
        meta["name"] = generate_name[:_MAX_GENERATED_NAME_LENGTH] + _GENERATED_SUFFIX
    meta["generation"] = 1
    meta.pop("managedFields", None)
    view = dict(stored)
    view["metadata"] = meta
    return view


def _validate_create(
    stored: dict[str, Any],
    prepared: PreparedCrd,
    ver: CrdVersion,
    warnings: list[str],
    type_meta_errors: Sequence[FieldError] = (),
) -> list[FieldError]:
    """``customResourceStrategy.Validate`` (+ ``WarningsOnCreate``) on the prepared object.

    With ``type_meta_errors`` (``ValidateTypeMeta`` failed) the validator's
    own checks (metadata, OpenAPI schema, scale) are replaced by them, as
    ``customResourceValidator.Validate`` returns early.
    """
    from crdtool.core.objectmeta import validate_object_meta_declaratively
    from crdtool.core.schema import objectmeta as schema_objectmeta
    from crdtool.core.validation.value_validation import (
        validate_list_sets_and_maps,
        validate_value,
    )
    from crdtool.core.validation_util import name_is_dns_subdomain

    view = _validation_view(stored, prepared)
    root = Path("")
    errs: list[FieldError] = []
    # customResourceValidator.Validate
    if type_meta_errors:
        errs.extend(type_meta_errors)
    else:
        # (1.37: ValidateObjectMetaDeclaratively: the handwritten errors, each message once)
        errs.extend(
            validate_object_meta_declaratively(
                view["metadata"], None, prepared.namespaced, name_is_dns_subdomain, Path("metadata"), prepared.release
            )
        )
        if ver.validator is not None:
            # ValidateCustomResource(nil, ...): kube-openapi's field-less errors land at <nil>
            errs.extend(ver.validator.validate(view, None))
        elif ver.schema is not None:
            errs.extend(validate_value(view, ver.schema, None, release=prepared.release))
        scale = ver.scale
        if scale is not None:
            errs.extend(validate_scale(view, scale))
    # embedded resources, list-type invariants
    # (both walks find nothing when the schema has no embedded resources or list types)
    if ver.embedded_paths:
        errs.extend(schema_objectmeta.validate(None, view, ver.structural, False, prepared.release))
    if ver.has_list_types and ver.validator is not None:
        errs.extend(ver.validator.validate_list_sets_and_maps(root, view))
    elif ver.has_list_types and ver.schema is not None:
        errs.extend(validate_list_sets_and_maps(root, ver.schema, view))
    if ver.has_cel:
        if any(e.type in BLOCKING_ERROR_TYPES for e in errs):
            errs.append(invalid("<nil>", None, BLOCKING_ERROR_DETAIL))
        else:
            errs.extend(_validate_cel(view, ver, warnings, prepared.release))
    if not errs:  # rest.BeforeCreate asks WarningsOnCreate only once Validate passed
        warnings.extend(finalizer_warnings(view["metadata"].get("finalizers"), prepared.release))
    return errs


def _validate_cel(obj: dict[str, Any], ver: CrdVersion, warnings: list[str], release: Release) -> list[FieldError]:
    """``celValidator.Validate(ctx, nil, s, obj, nil, RuntimeCELCostBudget)``."""
    try:
        from crdtool.core.crdcel import validation as cel_validation
    except ImportError:
        warnings.append("x-kubernetes-validations rules were not evaluated: CEL evaluation is not available")
        return []
    if isinstance(ver.cel_validator, CelTree):
        ver.cel_validator.get(compiled=False)  # the tree kept alive; a node's rules compile when reached
    result = cel_validation.validate_cel(obj, ver.structural, None, is_resource_root=True, budget=None, release=release)
    skipped = getattr(result, "skipped_transition_rules", ())
    paths = [] if isinstance(skipped, int) else [str(p) or "<root>" for p in skipped]
    count = skipped if isinstance(skipped, int) else len(paths)
    if count:
        rules = "rule" if count == 1 else "rules"
        where = f" (at {', '.join(dict.fromkeys(paths))})" if paths else ""
        warnings.append(f"{count} transition {rules} (using oldSelf) not evaluated: they only apply to updates{where}")
    return list(result.errors)


# --- helpers -----------------------------------------------------------------------


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _str(value: Any) -> str:
    return value if isinstance(value, str) else ""
