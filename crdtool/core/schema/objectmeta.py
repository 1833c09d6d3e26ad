"""TypeMeta/ObjectMeta of embedded resources: type coercion checks and validation.

Mirrors apiextensions-apiserver ``pkg/apiserver/schema/objectmeta``:
``validation.go`` (``Validate``, ``validateEmbeddedResource``),
``algorithm.go`` (``Coerce`` with ``dropInvalidFields=false``, reporting
only; nothing is modified) and ``coerce.go`` (``GetObjectMeta``: can the
``metadata`` value be decoded into ``metav1.ObjectMeta``?).

Values are plain JSON data (dicts, lists, scalars). All walks are iterative.
"""

from __future__ import annotations

from typing import Any, Mapping

from crdtool.core.errors import FieldError, Path, invalid, required
from crdtool.core.objectmeta import validate_object_meta
from crdtool.core.schema.structural import Extensions, Structural
from crdtool.core.validation_util import go_to_lower, is_dns1035_label, validate_path_segment

__all__ = ["coerce", "get_object_meta_error", "validate"]

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
        if key in _META_TIME and not isinstance(v, str):
            return _decode_error(key, v)
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


def validate(pth: Path | None, obj: Any, s: Structural | None, is_resource_root: bool) -> list[FieldError]:
    """Upstream ``objectmeta.Validate``: validate embedded TypeMeta and ObjectMeta.

    In: a JSON value and its structural schema; ``is_resource_root`` treats
    the root as an embedded resource. Out: errors such as
    ``spec.template.apiVersion: Required value`` or
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
            errs.extend(_validate_embedded_resource(p, x))
        stack.extend(reversed(_children(x, node, p)))
    return errs


def _validate_embedded_resource(pth: Path, x: Mapping[str, Any]) -> list[FieldError]:
    """Upstream ``validateEmbeddedResource``."""
    errs: list[FieldError] = []
    if "apiVersion" not in x:
        errs.append(required(pth.child("apiVersion"), ""))
    if "kind" not in x:
        errs.append(required(pth.child("kind"), ""))
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
            errs.extend(
                validate_object_meta(meta, bool(meta.get("namespace")), validate_path_segment, pth.child("metadata"))
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
