"""Conversion of a CRD between v1, v1beta1 and the internal version.

Mirrors ``staging/src/k8s.io/apiextensions-apiserver/pkg/apis/apiextensions``:

* ``v1/conversion.go``: ``Convert_v1_CustomResourceDefinitionSpec_To_apiextensions_CustomResourceDefinitionSpec``
  (``version`` := ``versions[0].name``; per-version ``schema``, ``subresources``,
  ``additionalPrinterColumns`` and ``selectableFields`` that are identical in every
  version, by ``apiequality.Semantic.DeepEqual``, move to the top level; the
  selectable fields only together with the schema) and its inverse
  ``Convert_apiextensions_CustomResourceDefinitionSpec_To_v1_...`` (top-level
  fields are copied into every version; a lone ``version`` becomes
  ``versions: [{name, served: true, storage: true}]``);
  ``Convert_v1_CustomResourceConversion_To_apiextensions_...`` and inverse
  (``webhook.clientConfig`` <-> ``webhookClientConfig``,
  ``webhook.conversionReviewVersions`` <-> ``conversionReviewVersions``; a webhook
  exists in v1 iff the internal client config or review versions are non-nil);
  ``Convert_apiextensions_JSONSchemaProps_To_v1_JSONSchemaProps`` and the JSON
  conversions (a nil ``default``/``example`` is dropped; JSON values go through
  ``json.Marshal``/``Unmarshal``);
* ``v1/zz_generated.conversion.go`` for the rest: ``JSONPath`` <-> ``jsonPath`` in
  printer columns, ``preserveUnknownFields`` bool <-> *bool, the webhook service
  ``port`` *int32 <-> int32 (``Convert_Pointer_int32_To_int32``: nil is 0;
  ``Convert_int32_To_Pointer_int32``: always set);
* ``v1beta1/conversion.go`` + ``v1beta1/zz_generated.conversion.go``: field by
  field, with the same JSON and port rules.

Dicts in and out are decoded CRDs (see :mod:`crdtool.core.crd.decode`); the
internal dict has the v1beta1 JSON shape with ``apiVersion:
apiextensions.k8s.io/__internal``. Functions are pure; outputs may share
unchanged sub-objects (metadata, status, schemas) with their input, so treat
both as immutable. In the spec, keys that are not fields of the Go types are
dropped, as a Go conversion would; metadata and status are carried as they are
(their types are the same in every version).
"""

from __future__ import annotations

import re
from typing import Any, Callable

from crdtool.core.crd import types as T
from crdtool.core.crd.decode import normalize_json
from crdtool.core.crd.defaults import default_crd

_INTERNAL_VERSION = T.API_INTERNAL.struct("CustomResourceDefinitionVersion")
_SCHEMA_FIELDS = frozenset(T.API_V1.struct("JSONSchemaProps").fields)
_SCHEMA_MAPS = frozenset({"properties", "patternProperties", "definitions", "dependencies"})
_SCHEMA_LISTS = ("allOf", "oneOf", "anyOf")
_JSON_FIELDS = ("default", "example")


# --- dispatch -------------------------------------------------------------------


def to_internal(crd: dict[str, Any]) -> dict[str, Any]:
    """Convert a decoded v1 or v1beta1 CRD to the internal version (no defaulting).

    An internal CRD, or one of an unknown ``apiVersion``, comes back as a
    shallow copy. Mirrors ``scheme.Convert(obj, &apiextensions.CustomResourceDefinition{})``.
    """
    api_version = crd.get("apiVersion") if isinstance(crd, dict) else None
    if api_version == T.V1:
        return v1_to_internal(crd)
    if api_version == T.V1BETA1:
        return v1beta1_to_internal(crd)
    return dict(crd) if isinstance(crd, dict) else {}


def convert_crd(crd: dict[str, Any], to: str) -> dict[str, Any]:
    """Convert a decoded CRD manifest to ``to`` (``"v1"``, ``"v1beta1"`` or a full apiVersion).

    The apiserver's path: the source version's defaults, conversion to the
    internal version, conversion to the target, then the target object as
    ``json.Marshal`` writes it (:func:`crdtool.core.crd.types.marshal_json`):
    every field without ``omitempty`` in the target's Go types is present,
    with Go's zero value where unset (``group: ""``, ``names: {plural: "",
    kind: ""}``, ``versions: null``, ``status: {conditions: null,
    acceptedNames: {plural: "", kind: ""}, storedVersions: [...]}``,
    ``metadata.creationTimestamp: null``), ``omitempty`` fields holding a
    zero value are dropped, struct fields come in Go declaration order and
    map keys (``properties``) sorted. A CRD of an unknown ``apiVersion`` is
    returned as a shallow copy. For the same conversion without the Go zero
    values, see :func:`convert_crd_tidy`.

    Raises:
        ValueError: ``to`` names no CRD version.
    """
    target = _target(to)
    if not isinstance(crd, dict) or crd.get("apiVersion") not in (T.V1, T.V1BETA1):
        return dict(crd) if isinstance(crd, dict) else {}
    api = T.api_for(target)
    assert api is not None
    out = T.marshal_json(convert_crd_tidy(crd, target), api.root)
    return out if isinstance(out, dict) else {}


def convert_crd_tidy(crd: dict[str, Any], to: str) -> dict[str, Any]:
    """:func:`convert_crd` without ``json.Marshal``'s zero values: only the fields the conversion sets.

    Used where the result is shown to people (``upgrade_crd``). Raises
    ValueError when ``to`` names no CRD version.
    """
    target = _target(to)
    if not isinstance(crd, dict) or crd.get("apiVersion") not in (T.V1, T.V1BETA1):
        return dict(crd) if isinstance(crd, dict) else {}
    internal = to_internal(default_crd(crd))
    return internal_to_v1(internal) if target == T.V1 else internal_to_v1beta1(internal)


def _target(to: str) -> str:
    target = to if "/" in to else f"{T.GROUP}/{to}"
    if target not in (T.V1, T.V1BETA1):
        raise ValueError(f"cannot convert a CustomResourceDefinition to {to!r}: want v1 or v1beta1")
    return target


# --- v1 <-> internal -------------------------------------------------------------


def v1_to_internal(crd: dict[str, Any]) -> dict[str, Any]:
    """Convert a decoded ``apiextensions.k8s.io/v1`` CRD to the internal version.

    Mirrors ``Convert_v1_CustomResourceDefinition_To_apiextensions_CustomResourceDefinition``
    (and the spec/conversion/column functions it calls) in ``v1/conversion.go``
    and ``v1/zz_generated.conversion.go``.
    """
    out = _type_meta(crd, T.INTERNAL)
    spec = crd.get("spec")
    spec = spec if isinstance(spec, dict) else {}
    out["spec"] = _spec_v1_to_internal(spec)
    if "status" in crd:
        out["status"] = crd["status"]
    return out


def internal_to_v1(crd: dict[str, Any]) -> dict[str, Any]:
    """Convert an internal CRD dict to ``apiextensions.k8s.io/v1``.

    Mirrors ``Convert_apiextensions_CustomResourceDefinition_To_v1_CustomResourceDefinition``
    in ``v1/conversion.go`` and ``v1/zz_generated.conversion.go``.
    """
    out = _type_meta(crd, T.V1)
    spec = crd.get("spec")
    spec = spec if isinstance(spec, dict) else {}
    out["spec"] = _spec_internal_to_v1(spec)
    if "status" in crd:
        out["status"] = crd["status"]
    return out


def _spec_v1_to_internal(spec: dict[str, Any]) -> dict[str, Any]:
    versions = None
    if isinstance(spec.get("versions"), list):
        versions = [_version_to_internal(v, "jsonPath") for v in spec["versions"] if isinstance(v, dict)]
    top: dict[str, Any] = {}
    if versions:
        versions = _hoist_identical(versions, top)
    out: dict[str, Any] = {}
    _copy(spec, out, "group")
    if versions:
        # Copy versions[0] to version.
        name = versions[0].get("name")
        if name is not None:
            out["version"] = name
    _copy(spec, out, "names", "scope")
    _copy(top, out, "validation", "subresources")
    if versions is not None:
        out["versions"] = versions
    _copy(top, out, "additionalPrinterColumns", "selectableFields")
    if isinstance(spec.get("conversion"), dict):
        out["conversion"] = _conversion_v1_to_internal(spec["conversion"])
    out["preserveUnknownFields"] = bool(spec.get("preserveUnknownFields"))
    return out


def _hoist_identical(versions: list[dict[str, Any]], top: dict[str, Any]) -> list[dict[str, Any]]:
    """If versions[*].{subresources,schema,additionalPrinterColumns,selectableFields} are identical, move to spec."""
    first = versions[0]
    same = {
        key: all(T.go_equal(v.get(key), first.get(key), _INTERNAL_VERSION.fields[key].type) for v in versions)
        for key in ("subresources", "schema", "additionalPrinterColumns", "selectableFields")
    }
    # each on its own, as upstream's loop does: identical selectableFields move to spec even when the schemas stay
    # per version, and ValidateCustomResourceDefinitionSpec then rejects them ("may only be set when
    # validations.schema is included"; kubernetes/kubernetes#140689, open), what every release does
    moved = [key for key, identical in same.items() if identical]
    if not moved:
        return versions
    for key in moved:
        if first.get(key) is not None:
            top["validation" if key == "schema" else key] = first[key]
    return [{k: v for k, v in version.items() if k not in moved} for version in versions]


def _spec_internal_to_v1(spec: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    _copy(spec, out, "group", "names", "scope")
    versions = None
    if isinstance(spec.get("versions"), list):
        versions = [_version_to_external(v, "jsonPath") for v in spec["versions"] if isinstance(v, dict)]
    if not versions and spec.get("version"):
        # No versions were specified, and a version name was: make the one version.
        versions = [{"name": spec["version"], "served": True, "storage": True}]
    if versions is not None:
        _spread_top_level(spec, versions, "jsonPath")
        out["versions"] = versions
    if isinstance(spec.get("conversion"), dict):
        out["conversion"] = _conversion_internal_to_v1(spec["conversion"])
    if spec.get("preserveUnknownFields"):
        out["preserveUnknownFields"] = True
    return out


def _spread_top_level(spec: dict[str, Any], versions: list[dict[str, Any]], json_path_key: str) -> None:
    """If spec.{subresources,validation,additionalPrinterColumns,selectableFields} exist, copy to every version."""
    moves: list[tuple[str, Any]] = []
    if spec.get("subresources") is not None:
        moves.append(("subresources", spec["subresources"]))
    if spec.get("validation") is not None:
        moves.append(("schema", _validation_to_external(spec["validation"])))
    if spec.get("additionalPrinterColumns") is not None:
        moves.append(("additionalPrinterColumns", _columns(spec["additionalPrinterColumns"], "JSONPath", json_path_key)))
    if spec.get("selectableFields") is not None:
        moves.append(("selectableFields", spec["selectableFields"]))
    for i, version in enumerate(versions):
        for key, value in moves:
            version[key] = value
        if moves:
            versions[i] = _in_field_order(version)


#: Field order of upstream's CustomResourceDefinitionVersion (v1 and v1beta1 ``types.go``), which is the
#: order Go's encoding/json writes: a version entry filled from top-level fields reads as the apiserver
#: would return it (and a v1 -> v1beta1 -> v1 round trip keeps the usual key order).
_VERSION_FIELD_ORDER = ("name", "served", "storage", "deprecated", "deprecationWarning", "schema", "subresources",
                        "additionalPrinterColumns", "selectableFields")


def _in_field_order(version: dict[str, Any]) -> dict[str, Any]:
    ordered = {k: version[k] for k in _VERSION_FIELD_ORDER if k in version}
    ordered.update((k, v) for k, v in version.items() if k not in ordered)
    return ordered


def _conversion_v1_to_internal(conversion: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    _copy(conversion, out, "strategy")
    webhook = conversion.get("webhook")
    if isinstance(webhook, dict):
        if isinstance(webhook.get("clientConfig"), dict):
            out["webhookClientConfig"] = _client_config(webhook["clientConfig"])
        if webhook.get("conversionReviewVersions") is not None:
            out["conversionReviewVersions"] = webhook["conversionReviewVersions"]
    return out


def _conversion_internal_to_v1(conversion: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    _copy(conversion, out, "strategy")
    client_config = conversion.get("webhookClientConfig")
    review_versions = conversion.get("conversionReviewVersions")
    if client_config is not None or review_versions is not None:
        webhook: dict[str, Any] = {}
        if isinstance(client_config, dict):
            webhook["clientConfig"] = _client_config(client_config)
        if review_versions is not None:
            webhook["conversionReviewVersions"] = review_versions
        out["webhook"] = webhook
    return out


# --- v1beta1 <-> internal ----------------------------------------------------------


def v1beta1_to_internal(crd: dict[str, Any]) -> dict[str, Any]:
    """Convert a decoded ``apiextensions.k8s.io/v1beta1`` CRD to the internal version.

    Field by field (the internal type has the v1beta1 shape); the webhook
    service port becomes a plain int (nil -> 0). Mirrors
    ``Convert_v1beta1_CustomResourceDefinition_To_apiextensions_CustomResourceDefinition``
    in ``v1beta1/zz_generated.conversion.go`` and ``v1beta1/conversion.go``.
    """
    out = _type_meta(crd, T.INTERNAL)
    spec = crd.get("spec")
    spec = spec if isinstance(spec, dict) else {}
    out["spec"] = _spec_v1beta1(spec, _version_to_internal, lambda s: s)
    if "status" in crd:
        out["status"] = crd["status"]
    return out


def internal_to_v1beta1(crd: dict[str, Any]) -> dict[str, Any]:
    """Convert an internal CRD dict to ``apiextensions.k8s.io/v1beta1``.

    Mirrors ``Convert_apiextensions_CustomResourceDefinition_To_v1beta1_CustomResourceDefinition``
    (``v1beta1/zz_generated.conversion.go``) and
    ``Convert_apiextensions_JSONSchemaProps_To_v1beta1_JSONSchemaProps`` (nil
    ``default``/``example`` dropped).
    """
    out = _type_meta(crd, T.V1BETA1)
    spec = crd.get("spec")
    spec = spec if isinstance(spec, dict) else {}
    out["spec"] = _spec_v1beta1(spec, _version_to_external, _validation_to_external)
    if "status" in crd:
        out["status"] = crd["status"]
    return out


def _spec_v1beta1(
    spec: dict[str, Any],
    version_fn: Callable[[dict[str, Any], str], dict[str, Any]],
    validation_fn: Callable[[Any], Any],
) -> dict[str, Any]:
    out: dict[str, Any] = {}
    _copy(spec, out, "group", "version", "names", "scope")
    if spec.get("validation") is not None:
        out["validation"] = validation_fn(spec["validation"])
    _copy(spec, out, "subresources")
    if isinstance(spec.get("versions"), list):
        out["versions"] = [version_fn(v, "JSONPath") for v in spec["versions"] if isinstance(v, dict)]
    if isinstance(spec.get("additionalPrinterColumns"), list):
        out["additionalPrinterColumns"] = _columns(spec["additionalPrinterColumns"], "JSONPath", "JSONPath")
    _copy(spec, out, "selectableFields")
    if isinstance(spec.get("conversion"), dict):
        conversion = spec["conversion"]
        conv: dict[str, Any] = {}
        _copy(conversion, conv, "strategy")
        if isinstance(conversion.get("webhookClientConfig"), dict):
            conv["webhookClientConfig"] = _client_config(conversion["webhookClientConfig"])
        _copy(conversion, conv, "conversionReviewVersions")
        out["conversion"] = conv
    _copy(spec, out, "preserveUnknownFields")
    return out


# --- pieces ------------------------------------------------------------------------

_VERSION_KEYS = ("name", "served", "storage", "deprecated", "deprecationWarning")


def _version_to_internal(version: dict[str, Any], json_path_key: str) -> dict[str, Any]:
    """An external version (v1 columns use ``jsonPath``, v1beta1 ``JSONPath``) as internal."""
    out: dict[str, Any] = {}
    _copy(version, out, *_VERSION_KEYS, "schema", "subresources")
    if isinstance(version.get("additionalPrinterColumns"), list):
        out["additionalPrinterColumns"] = _columns(version["additionalPrinterColumns"], json_path_key, "JSONPath")
    _copy(version, out, "selectableFields")
    return out


def _version_to_external(version: dict[str, Any], json_path_key: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    _copy(version, out, *_VERSION_KEYS)
    if version.get("schema") is not None:
        out["schema"] = _validation_to_external(version["schema"])
    _copy(version, out, "subresources")
    if isinstance(version.get("additionalPrinterColumns"), list):
        out["additionalPrinterColumns"] = _columns(version["additionalPrinterColumns"], "JSONPath", json_path_key)
    _copy(version, out, "selectableFields")
    return out


_COLUMN_KEYS = ("name", "type", "format", "description", "priority")


def _columns(columns: list[Any], src_key: str, dst_key: str) -> list[dict[str, Any]]:
    out = []
    for column in columns:
        if not isinstance(column, dict):
            continue
        converted: dict[str, Any] = {}
        _copy(column, converted, *_COLUMN_KEYS)
        if src_key in column:
            converted[dst_key] = column[src_key]
        out.append(converted)
    return out


def _client_config(config: dict[str, Any]) -> dict[str, Any]:
    """WebhookClientConfig; the service port is always set (*int32 <-> int32, nil is 0)."""
    out: dict[str, Any] = {}
    _copy(config, out, "url")
    service = config.get("service")
    if isinstance(service, dict):
        svc: dict[str, Any] = {}
        _copy(service, svc, "namespace", "name", "path")
        svc["port"] = service.get("port") or 0
        out["service"] = svc
    _copy(config, out, "caBundle")
    return out


def _validation_to_external(validation: Any) -> Any:
    """Convert an internal CustomResourceValidation (its schema tree) to v1/v1beta1.

    Mirrors ``Convert_apiextensions_JSONSchemaProps_To_v1_JSONSchemaProps``
    applied through the tree: nil ``default``/``example`` are dropped, JSON
    values take the form ``json.Marshal`` then ``Unmarshal`` gives them, keys
    that are no JSONSchemaProps field are dropped. Iterative.
    """
    if not isinstance(validation, dict):
        return validation
    out: dict[str, Any] = {}
    schema = validation.get("openAPIV3Schema")
    if isinstance(schema, dict):
        out["openAPIV3Schema"] = _schema_tree_to_external(schema)
    return out


def _schema_tree_to_external(root: dict[str, Any]) -> dict[str, Any]:
    result: list[Any] = [None]
    stack: list[tuple[dict[str, Any], Any, Any]] = [(root, result, 0)]
    while stack:
        src, holder, slot = stack.pop()
        dst: dict[str, Any] = {}
        holder[slot] = dst
        for key, value in src.items():
            if key not in _SCHEMA_FIELDS:
                continue
            if key in _JSON_FIELDS:
                if value is not None:
                    dst[key] = normalize_json(value)
            elif key == "enum":
                dst[key] = normalize_json(value)
            elif key in _SCHEMA_MAPS:
                dst[key] = _push_schema_map(stack, value, key == "dependencies")
            elif key in _SCHEMA_LISTS:
                dst[key] = _push_schema_list(stack, value)
            elif key == "items":
                if isinstance(value, dict):
                    stack.append((value, dst, key))
                else:
                    dst[key] = _push_schema_list(stack, value)
            elif key in ("not", "additionalProperties", "additionalItems"):
                if isinstance(value, dict):
                    stack.append((value, dst, key))
                else:
                    dst[key] = value
            else:
                dst[key] = value
    out = result[0]
    assert isinstance(out, dict)
    return out


def _push_schema_map(stack: list[tuple[dict[str, Any], Any, Any]], value: Any, dependencies: bool) -> Any:
    if not isinstance(value, dict):
        return value
    out: dict[str, Any] = {}
    for name, sub in value.items():
        if isinstance(sub, dict):
            out[name] = None
            stack.append((sub, out, name))
        else:
            out[name] = list(sub) if dependencies and isinstance(sub, list) else sub
    return out


def _push_schema_list(stack: list[tuple[dict[str, Any], Any, Any]], value: Any) -> Any:
    if not isinstance(value, list):
        return value
    out: list[Any] = [None] * len(value)
    for i, sub in enumerate(value):
        if isinstance(sub, dict):
            stack.append((sub, out, i))
        else:
            out[i] = sub
    return out


def _type_meta(crd: dict[str, Any], api_version: str) -> dict[str, Any]:
    out: dict[str, Any] = {"apiVersion": api_version}
    if "kind" in crd:
        out["kind"] = crd["kind"]
    if "metadata" in crd:
        out["metadata"] = crd["metadata"]
    return out


def _copy(src: dict[str, Any], dst: dict[str, Any], *keys: str) -> None:
    for key in keys:
        if key in src and src[key] is not None:
            dst[key] = src[key]


# --- paths ----------------------------------------------------------------------

# Internal path prefix -> where that field is in a v1 manifest. When all versions
# of a v1 CRD share a schema (subresources, columns, selectable fields) upstream
# validates, and reports, the top-level internal field; the first version holds it.
_V1_PREFIXES = (
    ("spec.validation", "spec.versions[0].schema"),
    ("spec.subresources", "spec.versions[0].subresources"),
    ("spec.additionalPrinterColumns", "spec.versions[0].additionalPrinterColumns"),
    ("spec.selectableFields", "spec.versions[0].selectableFields"),
    ("spec.conversion.webhookClientConfig", "spec.conversion.webhook.clientConfig"),
    ("spec.conversion.conversionReviewVersions", "spec.conversion.webhook.conversionReviewVersions"),
    ("spec.version", "spec.versions[0].name"),
)
_COLUMN_JSONPATH = re.compile(r"^(spec\.versions\[\d+\]\.additionalPrinterColumns\[\d+\])\.JSONPath(?=$|[.\[])")


def manifest_path(internal_path: str, crd: dict[str, Any]) -> str:
    """Where an upstream (internal-version) field path is in the user's manifest.

    For a v1 manifest: ``spec.validation.openAPIV3Schema...`` ->
    ``spec.versions[0].schema.openAPIV3Schema...`` (likewise ``subresources``,
    ``additionalPrinterColumns``, ``selectableFields``; ``spec.version`` ->
    ``spec.versions[0].name``), a column's ``JSONPath`` -> ``jsonPath``,
    ``spec.conversion.webhookClientConfig`` -> ``spec.conversion.webhook.clientConfig``,
    ``spec.conversion.conversionReviewVersions`` ->
    ``spec.conversion.webhook.conversionReviewVersions``. For a v1beta1 (or any
    other) manifest the path is returned unchanged.
    """
    if not isinstance(crd, dict) or crd.get("apiVersion") != T.V1:
        return internal_path
    path = internal_path
    for prefix, replacement in _V1_PREFIXES:
        if path == prefix or path.startswith((prefix + ".", prefix + "[")):
            path = replacement + path[len(prefix) :]
            break
    return _COLUMN_JSONPATH.sub(r"\1.jsonPath", path)
