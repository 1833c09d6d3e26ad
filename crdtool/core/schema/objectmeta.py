"""TypeMeta/ObjectMeta of embedded resources: type coercion checks and validation.

Mirrors apiextensions-apiserver ``pkg/apiserver/schema/objectmeta``:
``validation.go`` (``Validate``, ``validateEmbeddedResource``),
``algorithm.go`` (``Coerce`` with ``dropInvalidFields=false``, reporting
only; nothing is modified) and ``coerce.go`` (``GetObjectMeta``: can the
``metadata`` value be decoded into ``metav1.ObjectMeta``?).

Values are plain JSON data (dicts, lists, scalars). All walks are iterative.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from crdtool.core.errors import FieldError, Path, invalid, required, unmarshal_type_error
from crdtool.core.gotime import rfc3339_instant, rfc3339_parse_error
from crdtool.core.objectmeta import go_time, validate_object_meta_declaratively
from crdtool.core.releases import DEFAULT_RELEASE, Release
from crdtool.core.schema.defaulting import copy_json
from crdtool.core.schema.structural import Extensions, Structural
from crdtool.core.validation_util import go_to_lower, is_dns1035_label, validate_path_segment

__all__ = ["MetaResult", "coerce", "coerce_with_options", "get_object_meta_error", "object_meta_round_trip", "validate"]

# JSON type expected for each metav1.ObjectMeta field: str, int, bool-less.
_META_STRING = ("name", "generateName", "namespace", "selfLink", "uid", "resourceVersion")
_META_INT = ("generation", "deletionGracePeriodSeconds")
_META_TIME = ("creationTimestamp", "deletionTimestamp")
_META_STRING_MAP = ("labels", "annotations")
_META_OBJECT_LIST = ("ownerReferences", "managedFields")
_GO_FIELD = {
    "name": ("Name", "string"), "generateName": ("GenerateName", "string"), "namespace": ("Namespace", "string"),
    "selfLink": ("SelfLink", "string"), "uid": ("UID", "types.UID"), "resourceVersion": ("ResourceVersion", "string"),
    "generation": ("Generation", "int64"), "deletionGracePeriodSeconds": ("DeletionGracePeriodSeconds", "int64"),
    "creationTimestamp": ("CreationTimestamp", "v1.Time"), "deletionTimestamp": ("DeletionTimestamp", "v1.Time"),
    "labels": ("Labels", "map[string]string"), "annotations": ("Annotations", "map[string]string"),
    "ownerReferences": ("OwnerReferences", "[]v1.OwnerReference"), "finalizers": ("Finalizers", "[]string"),
    "managedFields": ("ManagedFields", "[]v1.ManagedFieldsEntry"),
}


def _json_type(v: Any) -> str:
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, (int, float)):
        return "number"
    if isinstance(v, str):
        return "string"
    if isinstance(v, list):
        return "array"
    if isinstance(v, dict):
        return "object"
    return "null"


def _decode_error(key: str, v: Any) -> str:
    go_field, go_type = _GO_FIELD[key]
    return f"json: cannot unmarshal {_json_type(v)} into Go struct field ObjectMeta.{go_field} of type {go_type}"


def get_object_meta_error(metadata: Any) -> str | None:
    """Why ``metadata`` cannot be decoded into ``metav1.ObjectMeta``, or None.

    Upstream ``GetObjectMeta(obj, false)`` round-trips through JSON and
    returns json-iterator's error; we report the first mistyped field with
    ``encoding/json``'s wording (json-iterator's differs: it adds byte
    offsets and context), which is a known deviation. ``null`` values are
    accepted, as JSON decoding does.
    """
    if metadata is None:
        return None
    if not isinstance(metadata, dict):
        return f"json: cannot unmarshal {_json_type(metadata)} into Go value of type v1.ObjectMeta"
    for key, v in metadata.items():
        if v is None or key not in _GO_FIELD:
            continue
        if key in _META_STRING and not isinstance(v, str):
            return _decode_error(key, v)
        if key in _META_INT and not (isinstance(v, int) and not isinstance(v, bool)):
            if not (isinstance(v, float) and v.is_integer()):
                return _decode_error(key, v)
        if key in _META_TIME:
            if not isinstance(v, str):
                return _decode_error(key, v)
            # metav1.Time.UnmarshalJSON: time.Parse(time.RFC3339, s)'s error, as it is
            problem = rfc3339_parse_error(v)
            if problem:
                return problem
        if key in _META_STRING_MAP:
            if not isinstance(v, dict) or any(x is not None and not isinstance(x, str) for x in v.values()):
                return _decode_error(key, v)
        if key == "finalizers" and (not isinstance(v, list) or any(not isinstance(x, str) for x in v if x is not None)):
            return _decode_error(key, v)
        if key in _META_OBJECT_LIST and (not isinstance(v, list) or any(not isinstance(x, (dict, type(None))) for x in v)):
            return _decode_error(key, v)
    return None


def _as_resource_root(s: Structural | None, is_resource_root: bool) -> Structural | None:
    if not is_resource_root:
        return s
    if s is None:
        s = Structural()
    if s.extensions.x_embedded_resource:
        return s
    x = s.extensions
    return Structural(
        generic=s.generic,
        extensions=Extensions(
            x_preserve_unknown_fields=x.x_preserve_unknown_fields, x_embedded_resource=True,
            x_int_or_string=x.x_int_or_string, x_list_map_keys=x.x_list_map_keys, x_list_type=x.x_list_type,
            x_map_type=x.x_map_type, x_validations=x.x_validations,
        ),
        value_validation=s.value_validation,
        items=s.items,
        properties=s.properties,
        additional_properties=s.additional_properties,
    )


def _children(x: Any, s: Structural, pth: Path) -> list[tuple[Path, Any, Structural | None]]:
    """The (path, value, schema) pairs upstream's walks descend into."""
    if isinstance(x, dict):
        out: list[tuple[Path, Any, Structural | None]] = []
        for k, v in x.items():
            prop = s.properties.get(k)
            if prop is not None:
                out.append((pth.child(k), v, prop))
            elif s.additional_properties is not None:
                out.append((pth.key(k), v, s.additional_properties_schema))
        return out
    if isinstance(x, list):
        return [(pth.index(i), v, s.items) for i, v in enumerate(x)]
    return []


def coerce(pth: Path | None, obj: Any, s: Structural | None, is_resource_root: bool) -> FieldError | None:
    """Upstream ``Coerce(pth, obj, s, isResourceRoot, false)``: the first TypeMeta/ObjectMeta type error.

    In: a JSON value, its structural schema. Out: ``field.Invalid`` for an
    embedded ``apiVersion``/``kind`` that is not a string (``must be a
    string``) or a ``metadata`` that does not decode, else None. Unlike
    upstream, ``obj`` is not modified (upstream prunes unknown metadata fields).
    """
    root = _as_resource_root(s, is_resource_root)
    stack: list[tuple[Path, Any, Structural | None]] = [(Path(pth or ""), obj, root)]
    while stack:
        p, x, node = stack.pop()
        if node is None:
            continue
        if isinstance(x, dict) and node.extensions.x_embedded_resource:
            for k, v in x.items():
                if k in ("apiVersion", "kind") and not isinstance(v, str):
                    return invalid(p.child(k), v, "must be a string")
                if k == "metadata":
                    err = get_object_meta_error(v)
                    if err:
                        return invalid(p.child("metadata"), v, err)
        stack.extend(reversed(_children(x, node, p)))
    return None


#: ``validateEmbeddedResource`` (schema/objectmeta/validation.go@v0.34.0): a missing apiVersion or kind is
#: ``Required`` without detail; ``@v0.33.13`` and older say ``must not be empty``.
EMBEDDED_REQUIRED_WITHOUT_DETAIL_SINCE = 34


def validate(
    pth: Path | None, obj: Any, s: Structural | None, is_resource_root: bool, release: Release | None = None
) -> list[FieldError]:
    """Upstream ``objectmeta.Validate``: validate embedded TypeMeta and ObjectMeta.

    In: a JSON value and its structural schema; ``is_resource_root`` treats
    the root as an embedded resource; the Kubernetes release (None: the default).
    Out: errors such as ``spec.template.apiVersion: Required value`` or
    ``spec.template.metadata.name: Invalid value: "a/b": may not contain '/'``.
    """
    root = _as_resource_root(s, is_resource_root)
    errs: list[FieldError] = []
    stack: list[tuple[Path, Any, Structural | None]] = [(Path(pth or ""), obj, root)]
    while stack:
        p, x, node = stack.pop()
        if node is None:
            continue
        if isinstance(x, dict) and node.extensions.x_embedded_resource:
            errs.extend(_validate_embedded_resource(p, x, release))
        stack.extend(reversed(_children(x, node, p)))
    return errs


def _validate_embedded_resource(pth: Path, x: Mapping[str, Any], release: Release | None = None) -> list[FieldError]:
    """Upstream ``validateEmbeddedResource``."""
    errs: list[FieldError] = []
    missing = "" if (release or DEFAULT_RELEASE).minor >= EMBEDDED_REQUIRED_WITHOUT_DETAIL_SINCE else "must not be empty"
    if "apiVersion" not in x:
        errs.append(required(pth.child("apiVersion"), missing))
    if "kind" not in x:
        errs.append(required(pth.child("kind"), missing))
    for k, v in x.items():
        if k == "apiVersion":
            errs.extend(_validate_api_version(pth.child("apiVersion"), v))
        elif k == "kind":
            errs.extend(_validate_kind(pth.child("kind"), v))
        elif k == "metadata":
            err = get_object_meta_error(v)
            if err:
                errs.append(invalid(pth.child("metadata"), v, err))
                continue
            meta = dict(v) if isinstance(v, dict) else {}
            if not meta.get("name"):
                meta["name"] = "fakename"  # upstream sets something to avoid an error
            # 1.37: ValidateObjectMetaDeclaratively (each message once)
            errs.extend(
                validate_object_meta_declaratively(
                    meta, None, bool(meta.get("namespace")), validate_path_segment, pth.child("metadata"), release
                )
            )
    return errs


def _validate_api_version(p: Path, v: Any) -> list[FieldError]:
    if not isinstance(v, str):
        return [invalid(p, v, "must be a string")]
    if not v:
        return [invalid(p, v, "must not be empty")]
    if v != "/" and v.count("/") > 1:  # upstream schema.ParseGroupVersion
        return [invalid(p, v, f"unexpected GroupVersion string: {v}")]
    return []


def _validate_kind(p: Path, v: Any) -> list[FieldError]:
    if not isinstance(v, str):
        return [invalid(p, v, "must be a string")]
    if not v:
        return [invalid(p, v, "must not be empty")]
    problems = is_dns1035_label(go_to_lower(v))
    if problems:
        return [invalid(p, v, "may have mixed case, but should otherwise match: " + ",".join(problems))]
    return []


# metav1.ObjectMeta, metav1.OwnerReference, metav1.ManagedFieldsEntry JSON fields.
OBJECT_META_FIELDS = (
    "name", "generateName", "namespace", "selfLink", "uid", "resourceVersion", "generation",
    "creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds", "labels", "annotations",
    "ownerReferences", "finalizers", "managedFields",
)


_OWNER_REFERENCE_FIELDS = frozenset({"apiVersion", "kind", "name", "uid", "controller", "blockOwnerDeletion"})


_OWNER_REFERENCE_ALWAYS = ("apiVersion", "kind", "name", "uid")  # no omitempty


_MANAGED_FIELDS_FIELDS = frozenset(
    {"manager", "operation", "apiVersion", "time", "fieldsType", "fieldsV1", "subresource"}
)


@dataclass
class MetaResult:
    meta: dict[str, Any] | None
    unknown: list[str]
    error: FieldError | None


def object_meta_round_trip(value: Any, path: Path) -> MetaResult:
    """``GetObjectMetaWithOptions`` + ``SetObjectMeta``: decode ``metadata`` into ObjectMeta and back.

    Returns the metadata as ``SetObjectMeta`` writes it (unknown fields and
    Go zero values dropped; ``creationTimestamp: null`` is left out, the
    server sets it), the unknown-field paths (sorted, as ``json.Marshal`` of a
    map orders the keys strict decoding reports), or the decoding error.
    """
    if value is None:
        return MetaResult({}, [], None)
    message: str | None
    if not isinstance(value, dict):
        message = get_object_meta_error(value) or "json: cannot unmarshal into Go value of type v1.ObjectMeta"
        return MetaResult(None, [], unmarshal_type_error(path, value, message))
    # the whole mapping first: it decodes exactly when each of its fields does (get_object_meta_error checks
    # them one by one); only then is the field that does not looked for
    if get_object_meta_error(value) is not None:
        for key in value:
            if key in OBJECT_META_FIELDS:
                message = get_object_meta_error({key: value[key]})
                if message:
                    return MetaResult(None, [], unmarshal_type_error(path.child(key), value[key], message))
    unknown: list[str] = []
    out: dict[str, Any] = {}
    for key in sorted(value):
        if key not in OBJECT_META_FIELDS:
            unknown.append(f"{path}.{key}")
    for key, v in value.items():
        if key not in OBJECT_META_FIELDS:
            continue
        normalized = _meta_field(key, v, unknown, path)
        if normalized is not None:
            out[key] = normalized
    return MetaResult(out, unknown, None)


def _meta_field(key: str, v: Any, unknown: list[str], path: Path) -> Any:
    """One ObjectMeta field after the JSON round trip; None when ``omitempty`` drops it."""
    if v is None:
        return None
    if key in ("generation", "deletionGracePeriodSeconds"):
        n = int(v)
        return n if n != 0 or key == "deletionGracePeriodSeconds" else None
    if key in ("labels", "annotations"):
        return {k: ("" if x is None else x) for k, x in v.items()} or None
    if key == "finalizers":
        return [("" if x is None else x) for x in v] or None
    if key == "ownerReferences":
        refs = [_owner_reference(r, path.child(key).index(i), unknown) for i, r in enumerate(v)]
        return refs or None
    if key == "managedFields":
        entries = [_managed_fields_entry(e, path.child(key).index(i), unknown) for i, e in enumerate(v)]
        return entries or None
    if key in _META_TIME:
        # metav1.Time.ToUnstructured: UTC, whole seconds; the zero time is left out
        instant = rfc3339_instant(v)
        if instant is None or instant[0] == _ZERO_TIME:
            return None
        normalized = go_time(v)
        return str(normalized) if isinstance(normalized, str) else v
    return v if v != "" else None


# time.Time{}: 0001-01-01T00:00:00Z, seconds from the Unix epoch
_ZERO_TIME = -62135596800


def _owner_reference(ref: Any, path: Path, unknown: list[str]) -> dict[str, Any]:
    ref = ref if isinstance(ref, dict) else {}
    unknown.extend(f"{path}.{k}" for k in sorted(ref) if k not in _OWNER_REFERENCE_FIELDS)
    out: dict[str, Any] = {k: (ref.get(k) if isinstance(ref.get(k), str) else "") for k in _OWNER_REFERENCE_ALWAYS}
    for k in ("controller", "blockOwnerDeletion"):
        if isinstance(ref.get(k), bool):
            out[k] = ref[k]
    return out


def _managed_fields_entry(entry: Any, path: Path, unknown: list[str]) -> dict[str, Any]:
    entry = entry if isinstance(entry, dict) else {}
    unknown.extend(f"{path}.{k}" for k in sorted(entry) if k not in _MANAGED_FIELDS_FIELDS)
    return {k: copy_json(v) for k, v in entry.items() if k in _MANAGED_FIELDS_FIELDS and v not in (None, "")}


def coerce_with_options(
    obj: Any, ss: Any, pth: Path, *, strict: bool, only: frozenset[int] | None = None
) -> tuple[FieldError | None, list[str]]:
    """Upstream ``objectmeta.CoerceWithOptions(nil, obj, s, false, {ReturnUnknownFieldPaths})``.

    Walks ``obj`` (modified in place: it is our own copy) along the structural
    schema ``ss``; in every embedded resource ``apiVersion``/``kind`` must be
    strings and ``metadata`` must decode, and is rewritten as ObjectMeta
    (unknown fields dropped and reported when ``strict``). Returns the first
    error (upstream stops there) and the sorted unknown-field paths. ``only``
    restricts the walk to these node ids (see :func:`_embedded_paths`).
    """
    unknown: list[str] = []
    stack: list[tuple[Path, Any, Any]] = [(pth, obj, ss)]
    while stack:
        p, x, s = stack.pop()
        if s is None or (only is not None and id(s) not in only):
            continue
        if isinstance(x, dict):
            if s.extensions.x_embedded_resource:
                err = _coerce_embedded(p, x, unknown, strict)
                if err is not None:
                    return err, []
            for k, v in x.items():
                prop = s.properties.get(k)
                if prop is not None:
                    stack.append((p.child(k), v, prop))
                elif s.additional_properties is not None:
                    stack.append((p.key(k), v, s.additional_properties_schema))
        elif isinstance(x, list) and s.items is not None:
            for i, v in enumerate(x):
                stack.append((p.index(i), v, s.items))
    unknown.sort()
    return None, unknown


def _coerce_embedded(p: Path, x: dict[str, Any], unknown: list[str], strict: bool) -> FieldError | None:
    for k in ("apiVersion", "kind"):
        if k in x and not isinstance(x[k], str):
            return invalid(p.child(k), x[k], "must be a string")
    if "metadata" not in x:
        return None
    result = object_meta_round_trip(x["metadata"], p.child("metadata"))
    if result.error is not None:
        return invalid(p.child("metadata"), x["metadata"], result.error.detail)
    if strict:
        unknown.extend(result.unknown)
        x["metadata"] = result.meta if result.meta is not None else {}
    return None
