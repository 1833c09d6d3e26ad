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
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

from crdtool.core.errors import FieldError, Path, forbidden, go_quote, invalid, required, too_long
from crdtool.core.validation_util import (
    byte_len,
    go_to_lower,
    is_qualified_name,
    is_valid_label_value,
    validate_namespace_name,
)

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
) -> list[FieldError]:
    """Upstream ``ValidateObjectMeta`` / ``ValidateObjectMetaAccessor`` (create).

    Args:
        meta: the ``metadata`` dict (None is an empty ObjectMeta).
        requires_namespace: whether the type is namespaced.
        name_fn: upstream ``ValidateNameFunc``: ``(name, prefix) -> problems``;
            called with ``prefix=True`` for ``generateName``.
        path: the path of ``metadata`` (usually ``Path("metadata")``).

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
    errs.extend(_validate_common(meta, requires_namespace, path))
    return errs


#: Upstream ``ValidateObjectMetaAccessor``: the same checks as :func:`validate_object_meta`.
validate_object_meta_accessor = validate_object_meta


def _validate_common(meta: Mapping[str, Any], requires_namespace: bool, path: Path) -> list[FieldError]:
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
        errs.extend(validate_labels(labels, path.child("labels")))
    annotations = _map(meta.get("annotations"))
    if annotations:
        errs.extend(validate_annotations(annotations, path.child("annotations")))
    for key, check in (
        ("ownerReferences", validate_owner_references),
        ("finalizers", validate_finalizers),
        ("managedFields", validate_managed_fields),
    ):
        items = _list(meta.get(key))
        if items:
            errs.extend(check(items, path.child(key)))
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


def validate_object_meta_update(new: Mapping[str, Any] | None, old: Mapping[str, Any] | None, path: Path) -> list[FieldError]:
    """Upstream ``ValidateObjectMetaUpdate`` / ``ValidateObjectMetaAccessorUpdate``.

    In: the new and old ``metadata`` dicts (None is an empty ObjectMeta).
    Out, in upstream order: no new finalizers on an object being deleted,
    ``resourceVersion`` required (``must be specified for an update``),
    ``generation`` not decremented, ``name``, ``namespace``, ``uid``,
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
    if generation < _int(old.get("generation")):
        errs.append(invalid(path.child("generation"), generation, "must not be decremented"))
    for key in ("name", "namespace", "uid", "creationTimestamp"):
        errs.extend(validate_immutable_field(_str(new.get(key)), _str(old.get(key)), path.child(key)))
    errs.extend(
        validate_immutable_field(new.get("deletionTimestamp") or None, old.get("deletionTimestamp") or None, path.child("deletionTimestamp"))
    )
    errs.extend(
        validate_immutable_field(
            new.get("deletionGracePeriodSeconds"), old.get("deletionGracePeriodSeconds"), path.child("deletionGracePeriodSeconds")
        )
    )
    errs.extend(validate_labels(_map(new.get("labels")), path.child("labels")))
    errs.extend(validate_annotations(_map(new.get("annotations")), path.child("annotations")))
    errs.extend(validate_owner_references(_list(new.get("ownerReferences")), path.child("ownerReferences")))
    errs.extend(validate_managed_fields(_list(new.get("managedFields")), path.child("managedFields")))
    return errs


def validate_nonnegative_field(value: int, path: Path) -> list[FieldError]:
    """Upstream ``ValidateNonnegativeField`` (``validate.NonNegative``)."""
    if value < 0:
        return [invalid(path, value, IS_NEGATIVE_ERROR_MSG)]
    return []


def validate_label_name(label_name: str, path: Path) -> list[FieldError]:
    """Upstream ``ValidateLabelName``: a qualified name."""
    return [invalid(path, label_name, msg) for msg in is_qualified_name(label_name)]


def validate_labels(labels: Mapping[str, Any], path: Path) -> list[FieldError]:
    """Upstream ``ValidateLabels``: keys are qualified names, values label values."""
    errs: list[FieldError] = []
    for key, value in labels.items():
        errs.extend(validate_label_name(key, path))
        value = _str(value)
        errs.extend(invalid(path, value, msg) for msg in is_valid_label_value(value))
    return errs


def validate_annotations(annotations: Mapping[str, Any], path: Path) -> list[FieldError]:
    """Upstream ``ValidateAnnotations``: case-insensitive qualified-name keys, 256 KiB total."""
    errs: list[FieldError] = []
    for key in annotations:
        # The rule is QualifiedName except that case doesn't matter.
        errs.extend(invalid(path, key, msg) for msg in is_qualified_name(go_to_lower(key)))
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


def _validate_owner_reference(ref: Mapping[str, Any], path: Path) -> list[FieldError]:
    """Upstream ``validateOwnerReference``."""
    errs: list[FieldError] = []
    api_version = _str(ref.get("apiVersion"))
    kind = _str(ref.get("kind"))
    # schema.FromAPIVersionAndKind: an unparsable apiVersion keeps only the kind.
    group, version = parse_group_version(api_version) or ("", "")
    if not version:
        errs.append(invalid(path.child("apiVersion"), api_version, "version must not be empty"))
    if not kind:
        errs.append(invalid(path.child("kind"), kind, "must not be empty"))
    name = _str(ref.get("name"))
    if not name:
        errs.append(invalid(path.child("name"), name, "must not be empty"))
    uid = _str(ref.get("uid"))
    if not uid:
        errs.append(invalid(path.child("uid"), uid, "must not be empty"))
    if (group, version, kind) in _BANNED_OWNERS:
        gvk = f"{group}/{version}, Kind={kind}"
        errs.append(invalid(path, dict(ref), f"{gvk} is disallowed from being an owner"))
    return errs


def validate_owner_references(refs: Sequence[Any], path: Path) -> list[FieldError]:
    """Upstream ``ValidateOwnerReferences``: each reference, and at most one controller."""
    errs: list[FieldError] = []
    first_controller = ""
    for ref in refs:
        ref = ref if isinstance(ref, Mapping) else {}
        errs.extend(_validate_owner_reference(ref, path))
        if ref.get("controller") is True:
            current = _str(ref.get("kind")) + "/" + _str(ref.get("name"))
            if first_controller:
                errs.append(
                    invalid(
                        path,
                        list(refs),
                        "Only one reference can have Controller set to true. "
                        f'Found "true" in references for {first_controller} and {current}',
                    )
                )
            else:
                first_controller = current
    return errs


def validate_finalizer_name(name: str, path: Path) -> list[FieldError]:
    """Upstream ``ValidateFinalizerName``: a qualified name."""
    return [invalid(path, name, msg) for msg in is_qualified_name(name)]


def validate_finalizers(finalizers: Sequence[Any], path: Path) -> list[FieldError]:
    """Upstream ``ValidateFinalizers``: names, and not both orphan and foregroundDeletion."""
    errs: list[FieldError] = []
    has_orphan = has_foreground = False
    for finalizer in finalizers:
        finalizer = _str(finalizer)
        errs.extend(validate_finalizer_name(finalizer, path))
        has_orphan = has_orphan or finalizer == _FINALIZER_ORPHAN
        has_foreground = has_foreground or finalizer == _FINALIZER_FOREGROUND
    if has_orphan and has_foreground:
        errs.append(
            invalid(
                path,
                list(finalizers),
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
        printable = ch.isprintable() or "\ud800" <= ch <= "\udfff"
        if not printable:
            errs.append(invalid(path, field_manager, f"invalid character U+{ord(ch):04X} (at position {position})"))
        position += byte_len(ch)
    return errs


def validate_managed_fields(entries: Sequence[Any], path: Path) -> list[FieldError]:
    """Upstream ``ValidateManagedFields``: operation, fieldsType, manager, subresource."""
    errs: list[FieldError] = []
    for i, entry in enumerate(entries):
        entry = entry if isinstance(entry, Mapping) else {}
        entry_path = path.index(i)
        operation = _str(entry.get("operation"))
        if operation not in ("Apply", "Update"):
            errs.append(invalid(entry_path.child("operation"), operation, "must be `Apply` or `Update`"))
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
    return value if isinstance(value, Mapping) else {}


def _list(value: Any) -> Sequence[Any]:
    return value if isinstance(value, list) else []
