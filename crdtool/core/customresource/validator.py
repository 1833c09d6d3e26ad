"""``customResourceValidator`` (``registry/customresource/validator.go``): type meta, scale, finalizer warnings.

The parts of a custom resource's validation that are neither ObjectMeta, nor
its OpenAPI schema, nor CEL: ``ValidateTypeMeta`` (kind and group must be the
CRD's), ``ValidateScaleSpec``/``ValidateScaleStatus`` (the scale subresource's
replicas paths), and ``generateWarningsFromObj`` (finalizer names).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from crdtool.core.customresource.prepared import CrdVersion, PreparedCrd
from crdtool.core.errors import FieldError, Path, go_quote, go_type_name, invalid
from crdtool.core.releases import DEFAULT_RELEASE, Release

__all__ = ["finalizer_warnings", "validate_scale", "validate_type_meta"]


_MAX_INT32 = (1 << 31) - 1


#: ``corev1.FinalizerKubernetes``, ``metav1.FinalizerOrphanDependents``, ``FinalizerDeleteDependents``.
_STANDARD_FINALIZERS = frozenset({"kubernetes", "orphan", "foregroundDeletion"})


def validate_type_meta(obj: dict[str, Any], prepared: PreparedCrd, ver: CrdVersion) -> list[FieldError]:
    """Upstream ``customResourceValidator.ValidateTypeMeta`` (validator.go)."""
    kind = _str(obj.get("kind"))
    api_version = _str(obj.get("apiVersion"))
    errs: list[FieldError] = []
    if kind != prepared.kind:
        errs.append(invalid(Path("kind"), kind, f"must be {prepared.kind}"))
    want = f"{prepared.group}/{ver.name}"
    if api_version != want:
        errs.append(invalid(Path("apiVersion"), api_version, f"must be {want}"))
    return errs


def validate_scale(obj: dict[str, Any], scale: Mapping[str, Any]) -> list[FieldError]:
    """``customResourceValidator.ValidateScaleSpec`` + ``ValidateScaleStatus``."""
    errs: list[FieldError] = []
    value: int | str
    for key in ("specReplicasPath", "statusReplicasPath"):
        json_path = _str(scale.get(key))
        value, error = _nested_int64(obj, json_path.removeprefix(".").split("."))
        if error:
            errs.append(invalid(json_path, value, error))
        elif value < 0:
            errs.append(invalid(json_path, value, "should be a non-negative integer"))
        elif value > _MAX_INT32:
            errs.append(invalid(json_path, value, f"should be less than or equal to {_MAX_INT32}"))
    selector_path = scale.get("labelSelectorPath")
    if isinstance(selector_path, str):
        value, error = _nested_string(obj, selector_path.removeprefix(".").split("."))
        if error:
            errs.append(invalid(selector_path, value, error))
    return errs


def _nested_field(obj: Any, fields: list[str]) -> tuple[Any, bool, str | None]:
    """``unstructured.NestedFieldNoCopy``: (value, found, error)."""
    val: Any = obj
    for i, f in enumerate(fields):
        if val is None:
            return None, False, None
        if not isinstance(val, dict):
            where = "." + ".".join(fields[: i + 1])
            return None, False, f"{where} accessor error: {_go_v(val)} is of the type {go_type_name(val)}, expected map[string]interface{{}}"
        if f not in val:
            return None, False, None
        val = val[f]
    return val, True, None


def _nested_int64(obj: Any, fields: list[str]) -> tuple[int, str | None]:
    val, found, error = _nested_field(obj, fields)
    if error or not found:
        return 0, error
    if isinstance(val, int) and not isinstance(val, bool) and -(1 << 63) <= val < (1 << 63):
        return val, None
    where = "." + ".".join(fields)
    return 0, f"{where} accessor error: {_go_v(val)} is of the type {go_type_name(val)}, expected int64"


def _nested_string(obj: Any, fields: list[str]) -> tuple[str, str | None]:
    val, found, error = _nested_field(obj, fields)
    if error or not found:
        return "", error
    if isinstance(val, str):
        return val, None
    where = "." + ".".join(fields)
    return "", f"{where} accessor error: {_go_v(val)} is of the type {go_type_name(val)}, expected string"


def _go_v(v: Any) -> str:
    """Go ``%v`` of a decoded JSON value."""
    from crdtool.core.errors import go_float

    if v is None:
        return "<nil>"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v) if -(1 << 63) <= v < (1 << 63) else go_float(float(v))
    if isinstance(v, float):
        return go_float(v)
    if isinstance(v, str):
        return v
    if isinstance(v, list):
        return "[" + " ".join(_go_v(x) for x in v) + "]"
    if isinstance(v, dict):
        return "map[" + " ".join(f"{k}:{_go_v(v[k])}" for k in sorted(v)) + "]"
    return str(v)


#: ``validateKubeFinalizerName`` (validator.go@v0.32.0) warns about a name with a ``.`` (and no ``/``) that
#: it should include a path; 1.30 and 1.31 (``@v0.31.14``) give every such name the plain warning.
FINALIZER_PATH_WARNING_SINCE = 32


def finalizer_warnings(finalizers: Any, release: Release | None = None) -> list[str]:
    """``generateWarningsFromObj`` / ``validateKubeFinalizerName`` (validator.go) of Kubernetes ``release``.

    The name checks are ``IsQualifiedName``'s of the release (:func:`crdtool.core.validation_util.is_qualified_name`);
    ``release`` None is the default release.
    """
    from crdtool.core.validation_util import is_qualified_name

    if not isinstance(finalizers, list):
        return []
    path_warning = (release or DEFAULT_RELEASE).minor >= FINALIZER_PATH_WARNING_SINCE
    out: list[str] = []
    fld = "metadata.finalizers"
    for name in sorted({f for f in finalizers if isinstance(f, str)}):
        for msg in is_qualified_name(name, release):
            out.append(f"{fld}: {go_quote(name)}: {msg}")
        if "/" not in name and name not in _STANDARD_FINALIZERS:
            if "." in name and path_warning:
                out.append(
                    f"{fld}: {go_quote(name)}: prefer a domain-qualified finalizer name including a path (/) "
                    "to avoid accidental conflicts with other finalizer writers"
                )
            else:
                out.append(
                    f"{fld}: {go_quote(name)}: prefer a domain-qualified finalizer name to avoid accidental "
                    "conflicts with other finalizer writers"
                )
    return out


def _str(value: Any) -> str:
    return value if isinstance(value, str) else ""
