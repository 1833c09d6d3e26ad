"""Strict decoding of a built-in object into its release's Go types, as kube-apiserver decodes a request body.

For a built-in kind the apiserver runs no schema validator: it decodes the JSON body with
``sigs.k8s.io/json`` ``UnmarshalStrict`` into the versioned Go struct (``k8s.io/api/<group>/<version>``), then
defaults and validates natively. A value of the wrong JSON type, an unknown or a duplicate field fail the
request with ``400 BadRequest`` and the decoder's own words (``create.py`` wraps them:
``Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.foo"``).

The Go types come from the release's OpenAPI definitions (:mod:`crdtool.core.builtin.catalog`): a definition
with properties is a struct (``v1.DeploymentSpec``: the package's last segment and the definition's name, as
``reflect.Type.String()`` writes it), ``format: int32``/``int64`` integers, ``number`` a float64, ``format:
byte`` a ``[]byte`` (base64), arrays slices, ``additionalProperties`` maps; ``intstr.IntOrString``,
``resource.Quantity``, ``metav1.Time``/``MicroTime``, ``metav1.FieldsV1`` and ``runtime.RawExtension``
decode with their own ``UnmarshalJSON``. ``metadata`` is ``metav1.ObjectMeta`` with its exact Go field types
(:mod:`crdtool.core.crd.types`). The walk itself is the CRD decoder's (:mod:`crdtool.core.crd.decode`:
``sigs.k8s.io/json``'s ``decode.go`` and ``kubernetes_patch.go``, ``Serializer.unmarshal``).

Named Go types the OpenAPI does not name (``v1.PullPolicy``, ``v1.ResourceList``, ``[]v1.Capability``) come
from k8s.io/api's sources per release tag (``gotypes.json.gz``, ``build_backend/gen_builtin_gotypes.py``).
Known approximations: named types of k8s.io/apimachinery's meta/v1 structs other than ObjectMeta
(``v1.LabelSelectorOperator``) are written as their underlying type; a
``metav1.Duration`` decodes as a string (its ``time.ParseDuration`` error is not reproduced); a Quantity keeps
the text it was given (upstream re-serializes it in canonical form: ``1.5`` → ``1500m``).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from crdtool.core.builtin import catalog, data
from crdtool.core.crd import types as T
from crdtool.core.crd.decode import decode_value
from crdtool.core.errors import DecodeError
from crdtool.core.releases import Release, resolve_release

__all__ = ["decode_builtin", "go_type"]

_META = "io.k8s.apimachinery.pkg.apis.meta.v1."
#: Definitions with a custom ``UnmarshalJSON``, by the kind the decoder gives them.
_SPECIAL: dict[str, tuple[str, str]] = {
    "io.k8s.apimachinery.pkg.util.intstr.IntOrString": (T.INT_OR_STRING, "intstr.IntOrString"),
    "io.k8s.apimachinery.pkg.api.resource.Quantity": (T.QUANTITY, "resource.Quantity"),
    _META + "Time": (T.TIME, "v1.Time"),
    _META + "MicroTime": (T.TIME, "v1.MicroTime"),
    _META + "FieldsV1": (T.FIELDS_V1, "v1.FieldsV1"),
    "io.k8s.apimachinery.pkg.runtime.RawExtension": (T.JSON, "runtime.RawExtension"),
    "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSON": (T.JSON, "v1.JSON"),
}
_STRING = T.GoType(T.STRING, "string")
_BOOL = T.GoType(T.BOOL, "bool")
_INT32 = T.GoType(T.INT32, "int32")
_INT64 = T.GoType(T.INT64, "int64")
_FLOAT64 = T.GoType(T.FLOAT64, "float64")
_BYTES = T.GoType(T.BYTES, "[]uint8")
_ANY = T.GoType(T.JSON, "interface {}")


class _Builder:
    """GoTypes of one release's definitions; a struct is built once and shared (types may recurse)."""

    def __init__(self, release: str) -> None:
        self.release = release
        self.structs: dict[str, T.GoType] = {}

    def definition(self, name: str) -> T.GoType:
        special = _SPECIAL.get(name)
        if special is not None:
            return T.GoType(special[0], special[1])
        if name == _META + "ObjectMeta":
            return T.API_V1.struct("ObjectMeta")
        hit = self.structs.get(name)
        if hit is not None:
            return hit
        schema = catalog.definition(self.release, name)
        go = _go_name(name)
        if "properties" not in schema:
            return self.schema(schema, go)
        t = T.GoType(T.STRUCT, go, name=go.rpartition(".")[2])
        self.structs[name] = t
        named = _named_fields(self.release, name)
        embedded = _embedded_fields(self.release, name)
        for prop, sub in schema["properties"].items():
            ft = self.schema(sub)
            if prop in named:
                ft = _renamed(ft, named[prop])
            t.fields[prop] = T.Field(prop, ft, True, tuple(embedded.get(prop, ())))
        return t

    def schema(self, s: dict[str, Any], go: str = "") -> T.GoType:
        ref = s.get("$ref")
        if ref is not None:
            return self.definition(ref)
        kind = s.get("type")
        fmt = s.get("format")
        if fmt == "int-or-string" or s.get("x-kubernetes-int-or-string"):
            return T.GoType(T.INT_OR_STRING, "intstr.IntOrString")
        if kind == "string":
            return _BYTES if fmt == "byte" else (T.GoType(T.STRING, go) if go else _STRING)
        if kind == "integer":
            return _INT32 if fmt == "int32" else _INT64
        if kind == "number":
            return _FLOAT64
        if kind == "boolean":
            return _BOOL
        if kind == "array":
            elem = self.schema(s.get("items") or {})
            return T.GoType(T.SLICE, "[]" + elem.go, elem)
        if kind == "object" and isinstance(s.get("additionalProperties"), dict):
            elem = self.schema(s["additionalProperties"])
            return T.GoType(T.MAP, "map[string]" + elem.go, elem)
        return _ANY


def _release_variant(index: str, variants: str, release: str, definition: str) -> dict[str, Any]:
    """The variant of ``definition`` that ``release`` uses in a ``gotypes.json.gz`` table (its ``index`` and
    ``variants`` keys: ``index``/``variants`` or ``embeddedIndex``/``embeddedVariants``); {} when it has none."""
    gotypes = data.load_gotypes()
    row = gotypes[index].get(definition)
    if row is None or release not in gotypes["releases"]:
        return {}
    variant = row[gotypes["releases"].index(release)]
    out: dict[str, Any] = gotypes[variants][definition][variant] if variant >= 0 else {}
    return out


def _named_fields(release: str, definition: str) -> dict[str, str]:
    """The fields of ``definition`` whose Go type is a named type (``{"imagePullPolicy": "v1.PullPolicy"}``)."""
    return _release_variant("index", "variants", release, definition)


def _embedded_fields(release: str, definition: str) -> dict[str, list[str]]:
    """The fields ``definition`` gets from the structs it embeds, with their Go field names, outermost first
    (``{"hostPath": ["VolumeSource"]}`` for ``io.k8s.api.core.v1.Volume``; ``gotypes.json.gz``)."""
    return _release_variant("embeddedIndex", "embeddedVariants", release, definition)


_SCALARS = frozenset({T.STRING, T.BOOL, T.INT32, T.INT64, T.FLOAT64})


def _renamed(t: T.GoType, go: str) -> T.GoType:
    """``t`` under the Go name ``go`` (its element too, for a slice or map of a named scalar type)."""
    if t.kind in _SCALARS:
        return T.GoType(t.kind, go)
    if t.kind == T.SLICE and t.elem is not None and go.startswith("[]"):
        elem = T.GoType(t.elem.kind, go[2:]) if t.elem.kind in _SCALARS else t.elem
        return T.GoType(T.SLICE, go, elem)
    if t.kind == T.MAP and t.elem is not None:
        elem = t.elem
        if go.startswith("map[") and elem.kind in _SCALARS:
            elem = T.GoType(elem.kind, go.partition("]")[2])
        return T.GoType(T.MAP, go, elem)
    return t


def _go_name(definition: str) -> str:
    """``v1.DeploymentSpec`` for ``io.k8s.api.apps.v1.DeploymentSpec`` (``reflect.Type.String()``)."""
    parts = definition.split(".")
    return f"{parts[-2]}.{parts[-1]}"


@cache
def _builder(release: str) -> _Builder:
    return _Builder(release)


def go_type(release: str | int | Release, definition: str) -> T.GoType:
    """The Go type of OpenAPI definition ``definition`` at ``release`` (KeyError if the release lacks it)."""
    return _builder(resolve_release(release).name).definition(definition)


def decode_builtin(
    obj: Any, info: catalog.KindInfo, release: str | int | Release, *, sent_by_kubectl: bool = True
) -> tuple[dict[str, Any], list[DecodeError]]:
    """Decode ``obj`` strictly into the Go type of the built-in kind ``info`` at ``release``.

    Returns ``(decoded, errors)`` as :func:`crdtool.core.crd.decode.decode_value` does: ``decoded`` is a new
    dict (nulls dropped from structs, unknown fields removed, ints as ints, ``[]byte`` as canonical base64);
    ``errors`` is either the one decoding error (``UnmarshalTypeError``, or a custom ``UnmarshalJSON``'s
    error such as a Quantity's) or every unknown field (``UnknownField``), both in the order of kubectl's JSON
    (every object's keys sorted) unless not ``sent_by_kubectl``. Never raises;
    ``obj`` is not mutated. ``info.definition`` must be set (a served or listed kind). ``sent_by_kubectl``: as
    :func:`crdtool.core.crd.decode.decode_value` (False: a JSON body in ``obj``'s own key order).
    """
    t = go_type(release, info.definition)
    decoded, errors = decode_value(obj, t, resolve_release(release), sent_by_kubectl=sent_by_kubectl)
    return (decoded if isinstance(decoded, dict) else {}), errors
