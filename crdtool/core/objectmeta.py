"""Validation of ``metadata`` (ObjectMeta) on create and update, as k8s.io/apimachinery does it.

Mirrors ``staging/src/k8s.io/apimachinery/pkg/api/validation/objectmeta.go``
(``ValidateObjectMeta``, ``ValidateObjectMetaAccessor``, ``ValidateObjectMetaUpdate``,
``ValidateObjectMetaAccessorUpdate``, ``ValidateImmutableField``, ``ValidateNoNewFinalizers``,
``validateObjectMetaAccessorWithOptsCommon``, ``ValidateAnnotations``,
``ValidateAnnotationsSize``, ``ValidateOwnerReferences``,
``ValidateFinalizers``, ``ValidateFinalizerName``) and
``staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/validation/validation.go``
(``ValidateLabels``, ``ValidateLabelName``, ``ValidateManagedFields``,
``ValidateFieldManager``).

``meta`` is the decoded ``metadata`` dict (JSON keys of ``metav1.ObjectMeta``:
``name``, ``generateName``, ``namespace``, ``generation``, ``labels``,
``annotations``, ``ownerReferences``, ``finalizers``, ``managedFields``).
Absent keys are Go zero values. Errors come in upstream order; for labels and
annotations (Go maps, iterated in random order upstream) in key order.

Every function takes the Kubernetes ``release`` whose apimachinery judges (a
:class:`~crdtool.core.releases.Release`; None: the default release); what
changed between 1.30 and 1.37 is in :data:`OBJECT_META_CHANGES`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from crdtool.core.errors import (
    FieldError,
    Path,
    forbidden,
    go_quote,
    go_typed,
    invalid,
    not_supported,
    required,
    too_long,
    unique_messages,
)
from crdtool.core.gojson import GoStruct
from crdtool.core.gotime import rfc3339_instant
from crdtool.core.releases import DEFAULT_RELEASE, Release
from crdtool.core.validation_util import (
    byte_len,
    go_to_lower,
    is_qualified_name,
    is_valid_label_value,
    validate_namespace_name,
)

#: What changed in k8s.io/apimachinery ``pkg/api/validation/objectmeta.go`` and
#: ``pkg/apis/meta/v1/validation/validation.go``, by the Kubernetes minor that first has it:
#:
#: * ``"owner-reference-details"`` (``v0.34.0`` ``validateOwnerReference``): an empty kind, name or uid is
#:   ``must not be empty`` (``v0.33.13``: ``kind must not be empty``, ``name …``, ``uid …``).
#: * ``"owner-references-indexed"`` (``v0.37.0-beta.0``): each reference is validated at
#:   ``ownerReferences[i]``; an empty apiVersion, kind, name or uid is ``Required`` (``must not be empty``),
#:   an apiVersion without a version ``Invalid`` ``must be <group>/<version> or <version>`` (before: all four
#:   ``Invalid`` at ``ownerReferences.<field>``, the apiVersion's ``version must not be empty``).
#: * ``"managed-fields-operation"`` (``v0.37.0-beta.0`` ``ValidateManagedFields``): an empty operation is
#:   ``Required`` (``must not be empty``), another one ``NotSupported`` (before: ``Invalid`` ``must be `Apply`
#:   or `Update```).
#: * ``"generation-on-update"`` (``v0.37.0-beta.0`` ``ValidateObjectMetaAccessorUpdate``): the generation must
#:   also be non-negative on update.
#: * ``"declarative-unique-messages"`` (``v0.37.0-beta.0`` ``ValidateObjectMetaDeclaratively``, which the
#:   apiextensions-apiserver calls for a CRD's, a custom resource's and an embedded resource's metadata where it
#:   called ``ValidateObjectMeta``/``ValidateObjectMetaAccessor``/``…Update`` before): the handwritten errors
#:   pass through ``validate.FilterCoveredHandwrittenErrors``, an ``ErrorList.Filter``, which goes through
#:   ``ToAggregate`` and so drops an error whose message repeats an earlier one (two labels with the same bad
#:   value: one error). The generated declarative rules of ObjectMeta (``meta/v1/validation/
#:   zz_generated.validations.go``) are all alpha, never enforced, and cover nothing.
OBJECT_META_CHANGES: dict[str, int] = {
    "owner-reference-details": 34,
    "owner-references-indexed": 37,
    "managed-fields-operation": 37,
    "generation-on-update": 37,
    "declarative-unique-messages": 37,
}


def _minor(release: Release | None) -> int:
    return (release or DEFAULT_RELEASE).minor

#: Upstream ``TotalAnnotationSizeLimitB``: 256 KiB over all keys and values.
TOTAL_ANNOTATION_SIZE_LIMIT_B = 256 * (1 << 10)
#: Upstream ``FieldManagerMaxLength``.
FIELD_MANAGER_MAX_LENGTH = 128
#: Upstream ``MaxSubresourceNameLength``.
MAX_SUBRESOURCE_NAME_LENGTH = 256
#: Upstream ``IsNegativeErrorMsg`` (= ``content.MinError(0)``).
IS_NEGATIVE_ERROR_MSG = "must be greater than or equal to 0"

_FINALIZER_ORPHAN = "orphan"
_FINALIZER_FOREGROUND = "foregroundDeletion"
# Upstream BannedOwners: (group, version, kind).
_BANNED_OWNERS = {("", "v1", "Event")}


def validate_object_meta(
    meta: Mapping[str, Any] | None,
    requires_namespace: bool,
    name_fn: Callable[[str, bool], list[str]],
    path: Path,
    release: Release | None = None,
) -> list[FieldError]:
    """Upstream ``ValidateObjectMeta`` / ``ValidateObjectMetaAccessor`` (create).

    Args:
        meta: the ``metadata`` dict (None is an empty ObjectMeta).
        requires_namespace: whether the type is namespaced.
        name_fn: upstream ``ValidateNameFunc``: ``(name, prefix) -> problems``;
            called with ``prefix=True`` for ``generateName``.
        path: the path of ``metadata`` (usually ``Path("metadata")``).
        release: the Kubernetes release (None: the default release).

    Returns the errors in upstream order; never raises.
    """
    meta = meta or {}
    errs: list[FieldError] = []
    generate_name = _str(meta.get("generateName"))
    if generate_name:
        for msg in name_fn(generate_name, True):
            errs.append(invalid(path.child("generateName"), generate_name, msg))
    name = _str(meta.get("name"))
    if not name:
        errs.append(required(path.child("name"), "name or generateName is required"))
    else:
        for msg in name_fn(name, False):
            errs.append(invalid(path.child("name"), name, msg))
    errs.extend(_validate_common(meta, requires_namespace, path, release))
    return errs


#: Upstream ``ValidateObjectMetaAccessor``: the same checks as :func:`validate_object_meta`.
validate_object_meta_accessor = validate_object_meta


def validate_object_meta_declaratively(
    meta: Mapping[str, Any] | None,
    old_meta: Mapping[str, Any] | None,
    requires_namespace: bool,
    name_fn: Callable[[str, bool], list[str]] | None,
    path: Path,
    release: Release | None = None,
) -> list[FieldError]:
    """Upstream ``ValidateObjectMetaDeclaratively`` (``pkg/api/validation/objectmeta.go@v0.37.0-beta.0``).

    What the apiextensions-apiserver's metadata checks call: ``ValidateCustomResourceDefinition`` (create),
    ``validateCustomResourceDefinitionUpdate``, ``customResourceValidator.Validate``/``ValidateUpdate``/
    ``ValidateStatusUpdate`` and ``schema/objectmeta`` ``validateEmbeddedResource``. ``old_meta`` None is
    ``operation.Create`` (:func:`validate_object_meta` with ``requires_namespace`` and ``name_fn``), a dict
    ``operation.Update`` (:func:`validate_object_meta_update`; ``requires_namespace`` and ``name_fn`` unused,
    as upstream). Releases before 1.37 called those directly; from 1.37 their errors come back with each
    message once (:data:`OBJECT_META_CHANGES` ``"declarative-unique-messages"``,
    :func:`~crdtool.core.errors.unique_messages`). Out: the errors in upstream order. TypeError for a create
    without ``name_fn``.
    """
    if old_meta is None:
        if name_fn is None:
            raise TypeError("validate_object_meta_declaratively: a create needs a name function")
        errs = validate_object_meta(meta, requires_namespace, name_fn, path, release)
    else:
        errs = validate_object_meta_update(meta, old_meta, path, release)
    if errs and _minor(release) >= OBJECT_META_CHANGES["declarative-unique-messages"]:
        errs = unique_messages(errs)
    return errs


def _validate_common(
    meta: Mapping[str, Any], requires_namespace: bool, path: Path, release: Release | None = None
) -> list[FieldError]:
    """Upstream ``validateObjectMetaAccessorWithOptsCommon``."""
    errs: list[FieldError] = []
    namespace = _str(meta.get("namespace"))
    if requires_namespace:
        if not namespace:
            errs.append(required(path.child("namespace"), ""))
        else:
            for msg in validate_namespace_name(namespace, False):
                errs.append(invalid(path.child("namespace"), namespace, msg))
    elif namespace:
        errs.append(forbidden(path.child("namespace"), "not allowed on this type"))
    generation = meta.get("generation")
    if isinstance(generation, int) and generation < 0:
        errs.extend(validate_nonnegative_field(generation, path.child("generation")))
    # each check below finds nothing in an empty (or absent) field: skip it, and the field's path
    labels = _map(meta.get("labels"))
    if labels:
        errs.extend(validate_labels(labels, path.child("labels"), release))
    annotations = _map(meta.get("annotations"))
    if annotations:
        errs.extend(validate_annotations(annotations, path.child("annotations"), release))
    for key, check in (
        ("ownerReferences", validate_owner_references),
        ("finalizers", validate_finalizers),
        ("managedFields", validate_managed_fields),
    ):
        items = _list(meta.get(key))
        if items:
            errs.extend(check(items, path.child(key), release))
    return errs


#: Upstream ``FieldImmutableErrorMsg``.
FIELD_IMMUTABLE_ERROR_MSG = "field is immutable"


def validate_immutable_field(new: Any, old: Any, path: Path) -> list[FieldError]:
    """Upstream ``ValidateImmutableField``: Invalid (with the new value) unless ``new`` equals ``old``.

    Equality is ``apiequality.Semantic.DeepEqual`` on decoded JSON (absent and
    zero values are passed in as the same Python value by the callers).
    """
    if new != old or type(new) is not type(old):
        return [invalid(path, new, FIELD_IMMUTABLE_ERROR_MSG)]
    return []


def validate_no_new_finalizers(new: Sequence[Any], old: Sequence[Any], path: Path) -> list[FieldError]:
    """Upstream ``ValidateNoNewFinalizers``: an object being deleted gets no new finalizers."""
    extra = sorted({_str(f) for f in new} - {_str(f) for f in old})
    if not extra:
        return []
    listed = ", ".join(go_quote(f) for f in extra)
    return [forbidden(path, f"no new finalizers can be added if the object is being deleted, found new finalizers []string{{{listed}}}")]


def validate_object_meta_update(
    new: Mapping[str, Any] | None, old: Mapping[str, Any] | None, path: Path, release: Release | None = None
) -> list[FieldError]:
    """Upstream ``ValidateObjectMetaUpdate`` / ``ValidateObjectMetaAccessorUpdate``.

    In: the new and old ``metadata`` dicts (None is an empty ObjectMeta), the
    Kubernetes release (None: the default release).
    Out, in upstream order: no new finalizers on an object being deleted,
    ``resourceVersion`` required (``must be specified for an update``),
    ``generation`` non-negative (from 1.37) and not decremented, ``name``, ``namespace``, ``uid``,
    ``creationTimestamp``, ``deletionTimestamp`` and
    ``deletionGracePeriodSeconds`` immutable, then labels, annotations, owner
    references and managed fields as on create. Never raises.
    """
    new = new or {}
    old = old or {}
    errs: list[FieldError] = []
    if old.get("deletionTimestamp"):
        errs.extend(validate_no_new_finalizers(_list(new.get("finalizers")), _list(old.get("finalizers")), path.child("finalizers")))
    resource_version = _str(new.get("resourceVersion"))
    if not resource_version:
        errs.append(invalid(path.child("resourceVersion"), resource_version, "must be specified for an update"))
    generation = _int(new.get("generation"))
    if _minor(release) >= OBJECT_META_CHANGES["generation-on-update"]:
        errs.extend(validate_nonnegative_field(generation, path.child("generation")))
    if generation < _int(old.get("generation")):
        errs.append(invalid(path.child("generation"), generation, "must not be decremented"))
    for key in ("name", "namespace", "uid", "creationTimestamp"):
        errs.extend(validate_immutable_field(_str(new.get(key)), _str(old.get(key)), path.child(key)))
    # Semantic.DeepEqual of two *metav1.Time: the same instant (the decoded texts are UTC, whole seconds)
    new_deletion, old_deletion = go_time(new.get("deletionTimestamp") or None), go_time(old.get("deletionTimestamp") or None)
    if new_deletion != old_deletion:
        # the bad value is a *metav1.Time: JSON from 1.34, String() before
        errs.append(invalid(path.child("deletionTimestamp"), new_deletion, FIELD_IMMUTABLE_ERROR_MSG))
    errs.extend(
        validate_immutable_field(
            new.get("deletionGracePeriodSeconds"), old.get("deletionGracePeriodSeconds"), path.child("deletionGracePeriodSeconds")
        )
    )
    errs.extend(validate_labels(_map(new.get("labels")), path.child("labels"), release))
    errs.extend(validate_annotations(_map(new.get("annotations")), path.child("annotations"), release))
    errs.extend(validate_owner_references(_list(new.get("ownerReferences")), path.child("ownerReferences"), release))
    errs.extend(validate_managed_fields(_list(new.get("managedFields")), path.child("managedFields"), release))
    return errs


def go_time(value: Any) -> Any:
    """A ``metav1.Time`` bad value (``*metav1.Time`` for None): its JSON, marked with its ``String()`` before 1.34.

    In: the RFC 3339 text the decoded metadata holds (or None). Out: ``"2024-01-01T00:00:00Z"``
    (``MarshalJSON``: UTC, whole seconds) carrying Go's ``time.Time.String()`` of the time the apiserver
    decoded (``2024-01-01 00:00:00 +0000 UTC``; the apiserver's local time zone is taken to be UTC). None
    and text that is not RFC 3339 are returned as they are.
    """
    import time

    instant = rfc3339_instant(value)
    if instant is None:
        return value
    try:
        t = time.gmtime(instant[0])
    except (OverflowError, OSError, ValueError):
        return value
    if not 0 <= t.tm_year <= 9999:
        return value
    date = f"{t.tm_year:04d}-{t.tm_mon:02d}-{t.tm_mday:02d}"
    clock = f"{t.tm_hour:02d}:{t.tm_min:02d}:{t.tm_sec:02d}"
    return go_typed(f"{date}T{clock}Z", f"{date} {clock} +0000 UTC")


def validate_nonnegative_field(value: int, path: Path) -> list[FieldError]:
    """Upstream ``ValidateNonnegativeField`` (``validate.NonNegative``)."""
    if value < 0:
        return [invalid(path, value, IS_NEGATIVE_ERROR_MSG)]
    return []


def validate_label_name(label_name: str, path: Path, release: Release | None = None) -> list[FieldError]:
    """Upstream ``ValidateLabelName``: a qualified name."""
    return [invalid(path, label_name, msg) for msg in is_qualified_name(label_name, release)]


def validate_labels(labels: Mapping[str, Any], path: Path, release: Release | None = None) -> list[FieldError]:
    """Upstream ``ValidateLabels``: keys are qualified names, values label values."""
    errs: list[FieldError] = []
    for key, value in labels.items():
        problems = is_qualified_name(key, release)  # validate_label_name's, with its errors built only when found
        if problems:
            errs.extend(invalid(path, key, msg) for msg in problems)
        value = _str(value)
        problems = is_valid_label_value(value, release)
        if problems:
            errs.extend(invalid(path, value, msg) for msg in problems)
    return errs


def validate_annotations(annotations: Mapping[str, Any], path: Path, release: Release | None = None) -> list[FieldError]:
    """Upstream ``ValidateAnnotations``: case-insensitive qualified-name keys, 256 KiB total."""
    errs: list[FieldError] = []
    for key in annotations:
        # The rule is QualifiedName except that case doesn't matter.
        errs.extend(invalid(path, key, msg) for msg in is_qualified_name(go_to_lower(key), release))
    if validate_annotations_size(annotations) is not None:
        errs.append(too_long(path, "", TOTAL_ANNOTATION_SIZE_LIMIT_B))
    return errs


def validate_annotations_size(annotations: Mapping[str, Any]) -> str | None:
    """Upstream ``ValidateAnnotationsSize``: the error text, or None when within the limit."""
    total = 0
    for key, value in annotations.items():
        total += byte_len(key) + byte_len(_str(value))
    if total > TOTAL_ANNOTATION_SIZE_LIMIT_B:
        return f"annotations size {total} is larger than limit {TOTAL_ANNOTATION_SIZE_LIMIT_B}"
    return None


def parse_group_version(api_version: str) -> tuple[str, str] | None:
    """Upstream ``schema.ParseGroupVersion``: ``(group, version)``, or None on error."""
    if api_version in ("", "/"):
        return "", ""
    slashes = api_version.count("/")
    if slashes == 0:
        return "", api_version
    if slashes == 1:
        group, _, version = api_version.partition("/")
        return group, version
    return None


def _validate_owner_reference(ref: Mapping[str, Any], path: Path, release: Release | None = None) -> list[FieldError]:
    """Upstream ``validateOwnerReference`` (see :data:`OBJECT_META_CHANGES` for what changed when)."""
    minor = _minor(release)
    errs: list[FieldError] = []
    api_version = _str(ref.get("apiVersion"))
    kind = _str(ref.get("kind"))
    # schema.FromAPIVersionAndKind (gv.WithKind from 1.37): an unparsable apiVersion keeps only the kind.
    group, version = parse_group_version(api_version) or ("", "")
    name = _str(ref.get("name"))
    uid = _str(ref.get("uid"))
    if minor >= OBJECT_META_CHANGES["owner-references-indexed"]:
        # objectmeta.go@v0.37.0-beta.0
        if not api_version:
            errs.append(required(path.child("apiVersion"), "must not be empty"))
        elif not version:
            errs.append(invalid(path.child("apiVersion"), api_version, "must be <group>/<version> or <version>"))
        for key, value in (("kind", kind), ("name", name), ("uid", uid)):
            if not value:
                errs.append(required(path.child(key), "must not be empty"))
    else:
        if not version:
            errs.append(invalid(path.child("apiVersion"), api_version, "version must not be empty"))
        for key, value in (("kind", kind), ("name", name), ("uid", uid)):
            if not value:
                # objectmeta.go@v0.34.0 "must not be empty"; @v0.33.13 "kind must not be empty", ...
                detail = "must not be empty" if minor >= OBJECT_META_CHANGES["owner-reference-details"] else f"{key} must not be empty"
                errs.append(invalid(path.child(key), value, detail))
    if (group, version, kind) in _BANNED_OWNERS:
        gvk = f"{group}/{version}, Kind={kind}"
        errs.append(invalid(path, _owner_reference_value(ref), f"{gvk} is disallowed from being an owner"))
    return errs


def _owner_reference_value(ref: Mapping[str, Any]) -> Any:
    """A ``metav1.OwnerReference`` bad value: JSON in field order, and Go's ``%#v`` (before 1.34).

    ``%#v`` prints the ``*bool`` fields as ``(*bool)(nil)``, or as an address when set: such a
    value cannot be reproduced (``go_v`` None).
    """
    out = GoStruct({k: _str(ref.get(k)) for k in ("apiVersion", "kind", "name", "uid")})
    for k in ("controller", "blockOwnerDeletion"):
        if isinstance(ref.get(k), bool):
            out[k] = ref[k]
    go_v = None
    if "controller" not in out and "blockOwnerDeletion" not in out:
        go_v = (
            f"v1.OwnerReference{{APIVersion:{go_quote(out['apiVersion'])}, Kind:{go_quote(out['kind'])}, "
            f"Name:{go_quote(out['name'])}, UID:{go_quote(out['uid'])}, "
            "Controller:(*bool)(nil), BlockOwnerDeletion:(*bool)(nil)}"
        )
    return go_typed(out, go_v)


def validate_owner_references(refs: Sequence[Any], path: Path, release: Release | None = None) -> list[FieldError]:
    """Upstream ``ValidateOwnerReferences``: each reference, and at most one controller."""
    indexed = _minor(release) >= OBJECT_META_CHANGES["owner-references-indexed"]
    errs: list[FieldError] = []
    first_controller = ""
    for i, ref in enumerate(refs):
        ref = ref if isinstance(ref, Mapping) else {}
        errs.extend(_validate_owner_reference(ref, path.index(i) if indexed else path, release))
        if ref.get("controller") is True:
            current = _str(ref.get("kind")) + "/" + _str(ref.get("name"))
            if first_controller:
                # the bad value is the []metav1.OwnerReference: its %#v (before 1.34) prints pointer addresses
                value = go_typed([_owner_reference_value(r if isinstance(r, Mapping) else {}) for r in refs], None)
                errs.append(
                    invalid(
                        path,
                        value,
                        "Only one reference can have Controller set to true. "
                        f'Found "true" in references for {first_controller} and {current}',
                    )
                )
            else:
                first_controller = current
    return errs


def validate_finalizer_name(name: str, path: Path, release: Release | None = None) -> list[FieldError]:
    """Upstream ``ValidateFinalizerName``: a qualified name."""
    return [invalid(path, name, msg) for msg in is_qualified_name(name, release)]


def validate_finalizers(finalizers: Sequence[Any], path: Path, release: Release | None = None) -> list[FieldError]:
    """Upstream ``ValidateFinalizers``: names, and not both orphan and foregroundDeletion."""
    errs: list[FieldError] = []
    has_orphan = has_foreground = False
    for finalizer in finalizers:
        finalizer = _str(finalizer)
        errs.extend(validate_finalizer_name(finalizer, path, release))
        has_orphan = has_orphan or finalizer == _FINALIZER_ORPHAN
        has_foreground = has_foreground or finalizer == _FINALIZER_FOREGROUND
    if has_orphan and has_foreground:
        names = [_str(f) for f in finalizers]
        errs.append(
            invalid(
                path,
                go_typed(names, "[]string{" + ", ".join(go_quote(f) for f in names) + "}"),
                f"finalizer {_FINALIZER_ORPHAN} and {_FINALIZER_FOREGROUND} cannot be both set",
            )
        )
    return errs


def validate_field_manager(field_manager: str, path: Path) -> list[FieldError]:
    """Upstream ``ValidateFieldManager``: at most 128 bytes, printable characters only."""
    errs: list[FieldError] = []
    if byte_len(field_manager) > FIELD_MANAGER_MAX_LENGTH:
        errs.append(too_long(path, field_manager, FIELD_MANAGER_MAX_LENGTH))
    position = 0
    for ch in field_manager:
        # A lone surrogate is what Go decodes as U+FFFD: printable, 3 bytes.
        printable = ch.isprintable() or 0xD800 <= ord(ch) <= 0xDFFF
        if not printable:
            errs.append(invalid(path, field_manager, f"invalid character U+{ord(ch):04X} (at position {position})"))
        position += byte_len(ch)
    return errs


def validate_managed_fields(entries: Sequence[Any], path: Path, release: Release | None = None) -> list[FieldError]:
    """Upstream ``ValidateManagedFields``: operation, fieldsType, manager, subresource."""
    new_operation_errors = _minor(release) >= OBJECT_META_CHANGES["managed-fields-operation"]
    errs: list[FieldError] = []
    for i, entry in enumerate(entries):
        entry = entry if isinstance(entry, Mapping) else {}
        entry_path = path.index(i)
        operation = _str(entry.get("operation"))
        if operation not in ("Apply", "Update"):
            if not new_operation_errors:
                errs.append(invalid(entry_path.child("operation"), operation, "must be `Apply` or `Update`"))
            elif not operation:  # validation.go@v0.37.0-beta.0
                errs.append(required(entry_path.child("operation"), "must not be empty"))
            else:
                errs.append(not_supported(entry_path.child("operation"), operation, ["Apply", "Update"]))
        fields_type = _str(entry.get("fieldsType"))
        if fields_type and fields_type != "FieldsV1":
            errs.append(invalid(entry_path.child("fieldsType"), fields_type, "must be `FieldsV1`"))
        errs.extend(validate_field_manager(_str(entry.get("manager")), entry_path.child("manager")))
        subresource = _str(entry.get("subresource"))
        if byte_len(subresource) > MAX_SUBRESOURCE_NAME_LENGTH:
            errs.append(too_long(entry_path.child("subresource"), subresource, MAX_SUBRESOURCE_NAME_LENGTH))
    return errs


def _str(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _int(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _map(value: Any) -> Mapping[str, Any]:
    # a dict first, then None (an absent field: most documents have no annotations), then the ABC check
    # (collections.abc's Mapping: typing's alias answers the same through two more calls)
    if value.__class__ is dict:
        return value
    return {} if value is None or not isinstance(value, Mapping) else value


def _list(value: Any) -> Sequence[Any]:
    return value if isinstance(value, list) else []
