"""The Go types of a CustomResourceDefinition, as data.

Mirrors the struct definitions (JSON names, Go kinds, ``omitempty``) of

* ``staging/src/k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1/types.go``
  and ``types_jsonschema.go`` (``apiextensions.k8s.io/v1``),
* ``.../apiextensions/v1beta1/types.go`` and ``types_jsonschema.go``
  (``apiextensions.k8s.io/v1beta1``),
* ``.../apiextensions/types.go`` and ``types_jsonschema.go`` (the internal
  version, whose JSON shape is that of v1beta1),
* ``staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/types.go`` (``TypeMeta``,
  ``ObjectMeta``, ``OwnerReference``, ``ManagedFieldsEntry``),

at Kubernetes v1.37 (selectableFields, x-kubernetes-validations with
messageExpression/reason/fieldPath/optionalOldSelf, deprecationWarning,
status/condition observedGeneration; an older release lacks the fields :data:`FIELDS_SINCE`
lists). The field sets match the upstream
round-trip fixtures ``testdata/HEAD/apiextensions.k8s.io.v1{,beta1}.CustomResourceDefinition.yaml``.

No field has a ``resource.Quantity``-like type. A type is a :class:`GoType`: its :attr:`GoType.kind` says how JSON decodes into
it (the custom ``UnmarshalJSON`` methods of ``JSON``, ``JSONSchemaPropsOrArray``,
``JSONSchemaPropsOrBool``, ``JSONSchemaPropsOrStringArray``, ``metav1.Time`` and
``metav1.FieldsV1`` are kinds of their own), and :attr:`GoType.go` is its
``reflect.Type.String()``, the text encoding/json puts in type errors
(``v1.ResourceScope``, ``[]string``, ``map[string]v1.JSONSchemaProps``).

:func:`go_equal` is upstream ``apiequality.Semantic.DeepEqual`` on the Go
values that two decoded dicts stand for.
"""

from __future__ import annotations

import calendar
import datetime as _dt
from typing import Any, Mapping

from crdtool.core.gotime import rfc3339_instant
from crdtool.core.releases import Release

# --- kinds -------------------------------------------------------------------

STRING = "string"
BOOL = "bool"
INT32 = "int32"
INT64 = "int64"
FLOAT64 = "float64"
BYTES = "bytes"  # []byte: a base64 string in JSON (or an array of uint8)
PTR = "ptr"
SLICE = "slice"
MAP = "map"  # map[string]T
STRUCT = "struct"
JSON = "json"  # apiextensions JSON (any JSON value, custom UnmarshalJSON)
FIELDS_V1 = "fieldsv1"  # metav1.FieldsV1 (any JSON value, custom UnmarshalJSON)
TIME = "time"  # metav1.Time: RFC 3339 string or null (custom UnmarshalJSON)
OR_ARRAY = "orarray"  # JSONSchemaPropsOrArray
OR_BOOL = "orbool"  # JSONSchemaPropsOrBool
OR_STRING_ARRAY = "orstringarray"  # JSONSchemaPropsOrStringArray
INT_OR_STRING = "intorstring"  # intstr.IntOrString (custom UnmarshalJSON: a string, else an int32)
QUANTITY = "quantity"  # resource.Quantity (custom UnmarshalJSON: resource.ParseQuantity of the text)

SCALAR_KINDS = frozenset({STRING, BOOL, INT32, INT64, FLOAT64, BYTES})


class GoType:
    """One Go type. Treat as immutable (struct fields are filled in once, at import).

    Attributes:
        kind: one of the kind constants above.
        go: ``reflect.Type.String()``, e.g. ``"v1.CustomResourceDefinitionNames"``.
        elem: element type of a pointer, slice or map; the schema type of the
            ``JSONSchemaPropsOr*`` kinds.
        name: the Go type name of a struct (``errorContext.Struct.Name()``).
        fields: JSON name -> :class:`Field`, for structs, in Go declaration order.
    """

    __slots__ = ("kind", "go", "elem", "name", "fields")

    def __init__(self, kind: str, go: str, elem: GoType | None = None, name: str = "") -> None:
        self.kind = kind
        self.go = go
        self.elem = elem
        self.name = name
        self.fields: dict[str, Field] = {}

    def __repr__(self) -> str:
        return f"GoType({self.go})"


class Field:
    """One struct field: its JSON name, Go type and whether the tag says ``omitempty``.

    ``embedded``: for a field promoted from embedded structs (``hostPath`` of ``v1.Volume``, from its
    ``VolumeSource``), their Go field names, outermost first (``("VolumeSource",)``); empty for the struct's own.
    """

    __slots__ = ("json", "type", "omitempty", "embedded")

    def __init__(self, json: str, type: GoType, omitempty: bool, embedded: tuple[str, ...] = ()) -> None:
        self.json = json
        self.type = type
        self.omitempty = omitempty
        self.embedded = embedded

    def __repr__(self) -> str:
        return f"Field({self.json!r}, {self.type.go}{', omitempty' if self.omitempty else ''})"


class Api:
    """The types of one API version of the CRD kind.

    Attributes:
        api_version: ``apiextensions.k8s.io/v1``, ``.../v1beta1`` or ``.../__internal``.
        root: the ``CustomResourceDefinition`` struct type.
        structs: every struct type by Go name (``JSONSchemaProps``, ``ObjectMeta``, ...).
    """

    __slots__ = ("api_version", "root", "structs")

    def __init__(self, api_version: str, root: GoType, structs: Mapping[str, GoType]) -> None:
        self.api_version = api_version
        self.root = root
        self.structs = structs

    def struct(self, name: str) -> GoType:
        """The struct type called ``name`` (``KeyError`` if there is none)."""
        return self.structs[name]


# --- the type tables ---------------------------------------------------------
#
# One row per struct field: (JSON name, Go type as written in the Go source,
# omitempty). Go types are parsed by _TypeBuilder: "*T", "[]T", "map[string]T",
# builtins, named types of the package, "meta.X" for metav1 types.

_O = True  # omitempty
_R = False  # no omitempty

_META_STRUCTS: dict[str, list[tuple[str, str, bool]]] = {
    "ObjectMeta": [
        ("name", "string", _O),
        ("generateName", "string", _O),
        ("namespace", "string", _O),
        ("selfLink", "string", _O),
        ("uid", "types.UID", _O),
        ("resourceVersion", "string", _O),
        ("generation", "int64", _O),
        ("creationTimestamp", "Time", _O),
        ("deletionTimestamp", "*Time", _O),
        ("deletionGracePeriodSeconds", "*int64", _O),
        ("labels", "map[string]string", _O),
        ("annotations", "map[string]string", _O),
        ("ownerReferences", "[]OwnerReference", _O),
        ("finalizers", "[]string", _O),
        ("managedFields", "[]ManagedFieldsEntry", _O),
    ],
    "OwnerReference": [
        ("apiVersion", "string", _R),
        ("kind", "string", _R),
        ("name", "string", _R),
        ("uid", "types.UID", _R),
        ("controller", "*bool", _O),
        ("blockOwnerDeletion", "*bool", _O),
    ],
    "ManagedFieldsEntry": [
        ("manager", "string", _O),
        ("operation", "ManagedFieldsOperationType", _O),
        ("apiVersion", "string", _O),
        ("time", "*Time", _O),
        ("fieldsType", "string", _O),
        ("fieldsV1", "*FieldsV1", _O),
        ("subresource", "string", _O),
    ],
}

_META_NAMED = {
    "Time": TIME,
    "FieldsV1": FIELDS_V1,
    "ManagedFieldsOperationType": STRING,
}

_SCHEMA_STRUCTS: dict[str, list[tuple[str, str, bool]]] = {
    "JSONSchemaProps": [
        ("id", "string", _O),
        ("$schema", "JSONSchemaURL", _O),
        ("$ref", "*string", _O),
        ("description", "string", _O),
        ("type", "string", _O),
        ("format", "string", _O),
        ("title", "string", _O),
        ("default", "*JSON", _O),
        ("maximum", "*float64", _O),
        ("exclusiveMaximum", "bool", _O),
        ("minimum", "*float64", _O),
        ("exclusiveMinimum", "bool", _O),
        ("maxLength", "*int64", _O),
        ("minLength", "*int64", _O),
        ("pattern", "string", _O),
        ("maxItems", "*int64", _O),
        ("minItems", "*int64", _O),
        ("uniqueItems", "bool", _O),
        ("multipleOf", "*float64", _O),
        ("enum", "[]JSON", _O),
        ("maxProperties", "*int64", _O),
        ("minProperties", "*int64", _O),
        ("required", "[]string", _O),
        ("items", "*JSONSchemaPropsOrArray", _O),
        ("allOf", "[]JSONSchemaProps", _O),
        ("oneOf", "[]JSONSchemaProps", _O),
        ("anyOf", "[]JSONSchemaProps", _O),
        ("not", "*JSONSchemaProps", _O),
        ("properties", "map[string]JSONSchemaProps", _O),
        ("additionalProperties", "*JSONSchemaPropsOrBool", _O),
        ("patternProperties", "map[string]JSONSchemaProps", _O),
        ("dependencies", "JSONSchemaDependencies", _O),
        ("additionalItems", "*JSONSchemaPropsOrBool", _O),
        ("definitions", "JSONSchemaDefinitions", _O),
        ("externalDocs", "*ExternalDocumentation", _O),
        ("example", "*JSON", _O),
        ("nullable", "bool", _O),
        ("x-kubernetes-preserve-unknown-fields", "*bool", _O),
        ("x-kubernetes-embedded-resource", "bool", _O),
        ("x-kubernetes-int-or-string", "bool", _O),
        ("x-kubernetes-list-map-keys", "[]string", _O),
        ("x-kubernetes-list-type", "*string", _O),
        ("x-kubernetes-map-type", "*string", _O),
        ("x-kubernetes-validations", "ValidationRules", _O),
    ],
    "ValidationRule": [
        ("rule", "string", _R),
        ("message", "string", _O),
        ("messageExpression", "string", _O),
        ("reason", "*FieldValueErrorReason", _O),
        ("fieldPath", "string", _O),
        ("optionalOldSelf", "*bool", _O),
    ],
    "ExternalDocumentation": [
        ("description", "string", _O),
        ("url", "string", _O),
    ],
}

_COMMON_STRUCTS: dict[str, list[tuple[str, str, bool]]] = {
    "CustomResourceDefinition": [
        # metav1.TypeMeta is embedded inline: its fields belong to this struct.
        ("apiVersion", "string", _O),
        ("kind", "string", _O),
        ("metadata", "meta.ObjectMeta", _O),
        ("spec", "CustomResourceDefinitionSpec", _R),
        ("status", "CustomResourceDefinitionStatus", _O),
    ],
    "ServiceReference": [
        ("namespace", "string", _R),
        ("name", "string", _R),
        ("path", "*string", _O),
        ("port", "*int32", _O),
    ],
    "WebhookClientConfig": [
        ("url", "*string", _O),
        ("service", "*ServiceReference", _O),
        ("caBundle", "[]byte", _O),
    ],
    "CustomResourceDefinitionVersion": [
        ("name", "string", _R),
        ("served", "bool", _R),
        ("storage", "bool", _R),
        ("deprecated", "bool", _O),
        ("deprecationWarning", "*string", _O),
        ("schema", "*CustomResourceValidation", _O),
        ("subresources", "*CustomResourceSubresources", _O),
        ("additionalPrinterColumns", "[]CustomResourceColumnDefinition", _O),
        ("selectableFields", "[]SelectableField", _O),
    ],
    "SelectableField": [
        ("jsonPath", "string", _R),
    ],
    "CustomResourceDefinitionNames": [
        ("plural", "string", _R),
        ("singular", "string", _O),
        ("shortNames", "[]string", _O),
        ("kind", "string", _R),
        ("listKind", "string", _O),
        ("categories", "[]string", _O),
    ],
    "CustomResourceDefinitionCondition": [
        ("type", "CustomResourceDefinitionConditionType", _R),
        ("status", "ConditionStatus", _R),
        ("lastTransitionTime", "meta.Time", _O),
        ("reason", "string", _O),
        ("message", "string", _O),
        ("observedGeneration", "int64", _O),
    ],
    "CustomResourceDefinitionStatus": [
        ("conditions", "[]CustomResourceDefinitionCondition", _R),
        ("acceptedNames", "CustomResourceDefinitionNames", _R),
        ("storedVersions", "[]string", _R),
        ("observedGeneration", "int64", _O),
    ],
    "CustomResourceValidation": [
        ("openAPIV3Schema", "*JSONSchemaProps", _O),
    ],
    "CustomResourceSubresources": [
        ("status", "*CustomResourceSubresourceStatus", _O),
        ("scale", "*CustomResourceSubresourceScale", _O),
    ],
    "CustomResourceSubresourceStatus": [],
    "CustomResourceSubresourceScale": [
        ("specReplicasPath", "string", _R),
        ("statusReplicasPath", "string", _R),
        ("labelSelectorPath", "*string", _O),
    ],
}

_V1_STRUCTS: dict[str, list[tuple[str, str, bool]]] = {
    "CustomResourceDefinitionSpec": [
        ("group", "string", _R),
        ("names", "CustomResourceDefinitionNames", _R),
        ("scope", "ResourceScope", _R),
        ("versions", "[]CustomResourceDefinitionVersion", _R),
        ("conversion", "*CustomResourceConversion", _O),
        ("preserveUnknownFields", "bool", _O),
    ],
    "CustomResourceConversion": [
        ("strategy", "ConversionStrategyType", _R),
        ("webhook", "*WebhookConversion", _O),
    ],
    "WebhookConversion": [
        ("clientConfig", "*WebhookClientConfig", _O),
        ("conversionReviewVersions", "[]string", _R),
    ],
    "CustomResourceColumnDefinition": [
        ("name", "string", _R),
        ("type", "string", _R),
        ("format", "string", _O),
        ("description", "string", _O),
        ("priority", "int32", _O),
        ("jsonPath", "string", _R),
    ],
}

_V1BETA1_STRUCTS: dict[str, list[tuple[str, str, bool]]] = {
    "CustomResourceDefinitionSpec": [
        ("group", "string", _R),
        ("version", "string", _O),
        ("names", "CustomResourceDefinitionNames", _R),
        ("scope", "ResourceScope", _R),
        ("validation", "*CustomResourceValidation", _O),
        ("subresources", "*CustomResourceSubresources", _O),
        ("versions", "[]CustomResourceDefinitionVersion", _O),
        ("additionalPrinterColumns", "[]CustomResourceColumnDefinition", _O),
        ("selectableFields", "[]SelectableField", _O),
        ("conversion", "*CustomResourceConversion", _O),
        ("preserveUnknownFields", "*bool", _O),
    ],
    "CustomResourceConversion": [
        ("strategy", "ConversionStrategyType", _R),
        ("webhookClientConfig", "*WebhookClientConfig", _O),
        ("conversionReviewVersions", "[]string", _O),
    ],
    "CustomResourceColumnDefinition": [
        ("name", "string", _R),
        ("type", "string", _R),
        ("format", "string", _O),
        ("description", "string", _O),
        ("priority", "int32", _O),
        ("JSONPath", "string", _R),
    ],
}

# The internal ServiceReference has a plain int32 port (apiextensions/types.go);
# everything else of the internal type has the v1beta1 JSON shape.
_INTERNAL_OVERRIDES: dict[str, list[tuple[str, str, bool]]] = {
    "ServiceReference": [
        ("namespace", "string", _R),
        ("name", "string", _R),
        ("path", "*string", _O),
        ("port", "int32", _O),
    ],
}

_APIEXT_NAMED = {
    "ResourceScope": STRING,
    "ConversionStrategyType": STRING,
    "JSONSchemaURL": STRING,
    "ConditionStatus": STRING,
    "CustomResourceDefinitionConditionType": STRING,
    "FieldValueErrorReason": STRING,
    "JSON": JSON,
    "JSONSchemaPropsOrArray": OR_ARRAY,
    "JSONSchemaPropsOrBool": OR_BOOL,
    "JSONSchemaPropsOrStringArray": OR_STRING_ARRAY,
}

# Named composite types: name -> the Go type they are defined as.
_APIEXT_NAMED_COMPOSITE = {
    "ValidationRules": "[]ValidationRule",
    "JSONSchemaDependencies": "map[string]JSONSchemaPropsOrStringArray",
    "JSONSchemaDefinitions": "map[string]JSONSchemaProps",
}

_BUILTINS = {
    "string": STRING,
    "bool": BOOL,
    "int32": INT32,
    "int64": INT64,
    "float64": FLOAT64,
}


class _TypeBuilder:
    """Turns the tables above into linked :class:`GoType` objects for one package."""

    def __init__(self, pkg: str, structs: dict[str, list[tuple[str, str, bool]]]) -> None:
        self.pkg = pkg
        self.rows = structs
        self.meta_rows = _META_STRUCTS
        self.types: dict[str, GoType] = {}

    def build(self) -> dict[str, GoType]:
        for name in self.rows:
            self._struct(name, meta=False)
        for name in self.meta_rows:
            self._struct(name, meta=True)
        return {t.name: t for t in self.types.values() if t.kind == STRUCT}

    def _struct(self, name: str, meta: bool) -> GoType:
        key = ("meta." if meta else "") + name
        known = self.types.get(key)
        if known is not None:
            return known
        t = GoType(STRUCT, f"{'v1' if meta else self.pkg}.{name}", name=name)
        self.types[key] = t
        rows = self.meta_rows[name] if meta else self.rows[name]
        for json_name, spec, omitempty in rows:
            t.fields[json_name] = Field(json_name, self.parse(spec, meta), omitempty)
        return t

    def parse(self, spec: str, meta: bool) -> GoType:
        if spec.startswith("*"):
            elem = self.parse(spec[1:], meta)
            return GoType(PTR, "*" + elem.go, elem)
        if spec == "[]byte":
            return GoType(BYTES, "[]uint8")
        if spec.startswith("[]"):
            elem = self.parse(spec[2:], meta)
            return GoType(SLICE, "[]" + elem.go, elem)
        if spec.startswith("map[string]"):
            elem = self.parse(spec[len("map[string]") :], meta)
            return GoType(MAP, "map[string]" + elem.go, elem)
        if spec in _BUILTINS:
            return GoType(_BUILTINS[spec], spec)
        if spec == "types.UID":
            return GoType(STRING, "types.UID")
        if spec.startswith("meta."):
            return self._named(spec[len("meta.") :], meta=True)
        return self._named(spec, meta)

    def _named(self, name: str, meta: bool) -> GoType:
        pkg = "v1" if meta else self.pkg
        table = _META_NAMED if meta else _APIEXT_NAMED
        if name in table:
            kind = table[name]
            elem = None
            if kind in (OR_ARRAY, OR_BOOL, OR_STRING_ARRAY):
                elem = self._struct("JSONSchemaProps", meta=False)
            return GoType(kind, f"{pkg}.{name}", elem)
        if not meta and name in _APIEXT_NAMED_COMPOSITE:
            under = self.parse(_APIEXT_NAMED_COMPOSITE[name], meta)
            return GoType(under.kind, f"{pkg}.{name}", under.elem)
        rows = self.meta_rows if meta else self.rows
        if name in rows:
            return self._struct(name, meta)
        raise KeyError(f"unknown Go type {name!r}")


def _build(api_version: str, pkg: str, *tables: dict[str, list[tuple[str, str, bool]]]) -> Api:
    rows: dict[str, list[tuple[str, str, bool]]] = {}
    for table in tables:
        rows.update(table)
    structs = _TypeBuilder(pkg, rows).build()
    return Api(api_version, structs["CustomResourceDefinition"], structs)


GROUP = "apiextensions.k8s.io"
V1 = f"{GROUP}/v1"
V1BETA1 = f"{GROUP}/v1beta1"
#: ``runtime.APIVersionInternal``: the apiVersion our internal dicts carry.
INTERNAL = f"{GROUP}/__internal"

API_V1 = _build(V1, "v1", _COMMON_STRUCTS, _SCHEMA_STRUCTS, _V1_STRUCTS)
API_V1BETA1 = _build(V1BETA1, "v1beta1", _COMMON_STRUCTS, _SCHEMA_STRUCTS, _V1BETA1_STRUCTS)
API_INTERNAL = _build(
    INTERNAL, "apiextensions", _COMMON_STRUCTS, _SCHEMA_STRUCTS, _V1BETA1_STRUCTS, _INTERNAL_OVERRIDES
)

_APIS = {V1: API_V1, V1BETA1: API_V1BETA1, INTERNAL: API_INTERNAL}

#: Fields the types of older releases do not have: ``(struct, JSON name)`` -> the first release with the field
#: (``types.go`` of v1, v1beta1 and internal at each tag; the tables above are the newest release's).
FIELDS_SINCE: dict[tuple[str, str], int] = {
    # v0.35.0: CustomResourceDefinitionStatus.ObservedGeneration, CustomResourceDefinitionCondition.ObservedGeneration
    ("CustomResourceDefinitionStatus", "observedGeneration"): 35,
    ("CustomResourceDefinitionCondition", "observedGeneration"): 35,
}
_OLDER_APIS: dict[tuple[str, frozenset[tuple[str, str]]], Api] = {}
_SOURCES = {
    V1: ("v1", (_COMMON_STRUCTS, _SCHEMA_STRUCTS, _V1_STRUCTS)),
    V1BETA1: ("v1beta1", (_COMMON_STRUCTS, _SCHEMA_STRUCTS, _V1BETA1_STRUCTS)),
    INTERNAL: ("apiextensions", (_COMMON_STRUCTS, _SCHEMA_STRUCTS, _V1BETA1_STRUCTS, _INTERNAL_OVERRIDES)),
}


def api_for(api_version: Any, release: Release | None = None) -> Api | None:
    """The :class:`Api` for an ``apiVersion`` string as ``release`` (default: the newest) has it, or ``None``
    if it is not a CRD version."""
    api = _APIS.get(api_version) if isinstance(api_version, str) else None
    if api is None or release is None:
        return api
    missing = frozenset(key for key, since in FIELDS_SINCE.items() if not release.at_least(since))
    if not missing:
        return api
    hit = _OLDER_APIS.get((api.api_version, missing))
    if hit is None:
        pkg, tables = _SOURCES[api.api_version]
        pruned = [{name: [row for row in rows if (name, row[0]) not in missing] for name, rows in t.items()}
                  for t in tables]
        hit = _OLDER_APIS[(api.api_version, missing)] = _build(api.api_version, pkg, *pruned)
    return hit


# --- Semantic.DeepEqual --------------------------------------------------------


def zero_value(t: GoType) -> Any:
    """The JSON-ish value standing for Go's zero value of ``t`` (``None`` for nil)."""
    kind = t.kind
    if kind == STRING:
        return ""
    if kind == BOOL:
        return False
    if kind in (INT32, INT64):
        return 0
    if kind == FLOAT64:
        return 0.0
    if kind == STRUCT:
        return {}
    return None


def go_equal(a: Any, b: Any, t: GoType) -> bool:
    """Upstream ``apiequality.Semantic.DeepEqual`` of the Go values behind ``a`` and ``b``.

    ``a`` and ``b`` are decoded values of Go type ``t`` (``None`` = absent).
    As upstream: nil and empty slices/maps are equal; nil and non-nil pointers are
    not; a struct field that is absent equals its zero value; JSON values
    (``default``, ``enum`` items, ``example``) compare by JSON type and value, so
    ``1`` (int64) differs from ``1.0`` (float64) and ``true`` from ``1``;
    ``metav1.Time`` compares instants. Keys that are not fields of a struct are
    ignored (they do not exist in the Go value). Iterative: never recurses.

    Mirrors ``k8s.io/apimachinery/pkg/api/equality.Semantic`` and
    ``third_party/forked/golang/reflect/deep_equal.go``.
    """
    stack: list[tuple[Any, Any, GoType]] = [(a, b, t)]
    while stack:
        x, y, typ = stack.pop()
        if x is y and x is not None:
            continue
        kind = typ.kind
        if kind == PTR:
            if x is None or y is None:
                if (x is None) != (y is None):
                    return False
                continue
            stack.append((x, y, typ.elem))  # type: ignore[arg-type]
        elif kind == STRUCT:
            if not _push_struct(stack, x, y, typ):
                return False
        elif kind == SLICE:
            xs = x if isinstance(x, list) else []
            ys = y if isinstance(y, list) else []
            if len(xs) != len(ys):
                return False
            elem = typ.elem
            assert elem is not None
            stack.extend((p, q, elem) for p, q in zip(xs, ys))
        elif kind == MAP:
            xm = x if isinstance(x, dict) else {}
            ym = y if isinstance(y, dict) else {}
            if xm.keys() != ym.keys():
                return False
            elem = typ.elem
            assert elem is not None
            stack.extend((xm[k], ym[k], elem) for k in xm)
        elif kind in (JSON, FIELDS_V1):
            if not json_equal(x, y):
                return False
        elif kind == TIME:
            if not _time_equal(x, y):
                return False
        elif kind in (OR_ARRAY, OR_BOOL, OR_STRING_ARRAY):
            if not _push_or(stack, x, y, typ):
                return False
        else:
            if not _scalar_equal(x, y, typ):
                return False
    return True


def _push_struct(stack: list[tuple[Any, Any, GoType]], x: Any, y: Any, t: GoType) -> bool:
    xd = x if isinstance(x, dict) else {}
    yd = y if isinstance(y, dict) else {}
    for name, f in t.fields.items():
        p, q = xd.get(name), yd.get(name)
        if p is None and q is None:
            continue
        stack.append((p, q, f.type))
    return True


def _push_or(stack: list[tuple[Any, Any, GoType]], x: Any, y: Any, t: GoType) -> bool:
    schema = t.elem
    assert schema is not None
    if t.kind == OR_BOOL:
        # {Allows, Schema *JSONSchemaProps}: a schema means Allows=true.
        if isinstance(x, dict) and isinstance(y, dict):
            stack.append((x, y, schema))
            return True
        if isinstance(x, dict) or isinstance(y, dict):
            return False
        return bool(x) == bool(y)
    # OrArray {Schema *, JSONSchemas []} / OrStringArray {Schema *, Property []string}.
    if isinstance(x, dict) or isinstance(y, dict):
        if not (isinstance(x, dict) and isinstance(y, dict)):
            return False
        stack.append((x, y, schema))
        return True
    xs = x if isinstance(x, list) else []
    ys = y if isinstance(y, list) else []
    if len(xs) != len(ys):
        return False
    elem = schema if t.kind == OR_ARRAY else _STRING_TYPE
    stack.extend((p, q, elem) for p, q in zip(xs, ys))
    return True


_STRING_TYPE = GoType(STRING, "string")


def _scalar_equal(x: Any, y: Any, t: GoType) -> bool:
    zero = zero_value(t)
    if x is None:
        x = zero
    if y is None:
        y = zero
    if t.kind == BYTES:
        return (x or "") == (y or "")
    if t.kind == FLOAT64:
        return isinstance(x, (int, float)) and isinstance(y, (int, float)) and float(x) == float(y)
    return bool(x == y)


def json_equal(a: Any, b: Any) -> bool:
    """Deep equality of two JSON values with Go's typing: int64, float64 and bool differ.

    Iterative; object key presence matters (these are Go maps, not structs).
    """
    stack = [(a, b)]
    while stack:
        x, y = stack.pop()
        if x is y:
            continue
        tx, ty = _json_tag(x), _json_tag(y)
        if tx != ty:
            return False
        if tx == "list":
            if len(x) != len(y):
                return False
            stack.extend(zip(x, y))
        elif tx == "dict":
            if x.keys() != y.keys():
                return False
            stack.extend((x[k], y[k]) for k in x)
        elif x != y:  # NaN != NaN, as in Go
            return False
    return True


def _json_tag(v: Any) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, int):
        return "int"
    if isinstance(v, float):
        return "float"
    if isinstance(v, str):
        return "str"
    if isinstance(v, (list, tuple)):
        return "list"
    if isinstance(v, dict):
        return "dict"
    return type(v).__name__


def _time_equal(x: Any, y: Any) -> bool:
    # metav1.Time equality is on the instant (t.UTC() == u.UTC()); absent is the zero time.
    if x == y:
        return True
    ix, iy = rfc3339_instant(x), rfc3339_instant(y)
    return ix is not None and ix == iy


# --- encoding/json.Marshal -------------------------------------------------------

_NIL = object()  # a Go nil (absent pointer, slice or map): marshals as null


def marshal_json(value: Any, t: GoType) -> Any:
    """What Go's ``encoding/json.Marshal`` writes for the Go value behind ``value``, as plain data.

    In: ``value``, a decoded value of Go type ``t`` in JSON shape (as
    :func:`crdtool.core.crd.decode.decode_value` returns it: ``None`` or an
    absent key is the Go zero value). Out: a new value holding exactly the
    JSON ``json.Marshal`` produces, parsed back: struct fields in Go
    declaration order; a field without ``omitempty`` always present (Go zero
    values: ``""``, ``0``, ``false``, ``null`` for a nil pointer, slice or
    map, ``{...}`` for a struct); an ``omitempty`` field left out when it is
    ``""``, ``0``, ``false``, an empty slice or map, or a nil pointer (a
    struct is never empty, so ``metadata`` and ``status`` are always
    written, and a zero ``metav1.Time`` is ``null``); map keys sorted; a
    ``metav1.Time`` as UTC RFC 3339 in seconds. Never mutates ``value``;
    iterative (any nesting depth).

    Mirrors ``encoding/json`` ``Marshal`` (``isEmptyValue``, struct field
    order, sorted map keys) with the ``MarshalJSON`` methods of
    ``apiextensions/v1{,beta1}/marshal.go`` (``JSON``,
    ``JSONSchemaPropsOrBool``, ``JSONSchemaPropsOrArray``,
    ``JSONSchemaPropsOrStringArray``) and ``metav1.Time``.
    """
    holder: list[Any] = [None]
    stack: list[tuple[Any, GoType, Any, Any]] = [(value, t, holder, 0)]
    while stack:
        v, typ, container, slot = stack.pop()
        container[slot] = _marshal_one(v, typ, stack)
    return holder[0]


def _marshal_one(v: Any, t: GoType, stack: list[tuple[Any, GoType, Any, Any]]) -> Any:
    """The marshalled form of ``v`` (children are queued on ``stack`` to fill in)."""
    kind = t.kind
    if kind == STRUCT:
        src = v if isinstance(v, dict) else {}
        out: dict[str, Any] = {}
        for name, f in t.fields.items():
            fv = src.get(name, _NIL)
            if fv is None:
                fv = _NIL
            if f.omitempty and _is_empty(fv, f.type):
                continue
            out[name] = None
            stack.append((fv, f.type, out, name))
        return out
    if v is _NIL:
        return _marshal_zero(t, stack)
    if kind == PTR:
        assert t.elem is not None
        return _marshal_one(v, t.elem, stack)
    if kind == SLICE:
        assert t.elem is not None
        items = list(v) if isinstance(v, (list, tuple)) else []
        lst: list[Any] = [None] * len(items)
        stack.extend((x, t.elem, lst, i) for i, x in enumerate(items))
        return lst
    if kind == MAP:
        assert t.elem is not None
        src_map = v if isinstance(v, dict) else {}
        m: dict[str, Any] = {}
        for k in sorted(src_map):
            m[k] = None
            stack.append((src_map[k], t.elem, m, k))
        return m
    if kind == TIME:
        return _marshal_time(v)
    if kind in (JSON, FIELDS_V1):
        return _copy_json(v)
    if kind == OR_BOOL:
        if isinstance(v, dict):
            assert t.elem is not None
            return _marshal_one(v, t.elem, stack)
        return bool(v)
    if kind in (OR_ARRAY, OR_STRING_ARRAY):
        assert t.elem is not None
        if isinstance(v, dict):
            return _marshal_one(v, t.elem, stack)
        if isinstance(v, (list, tuple)) and v:
            elem = GoType(SLICE, "", t.elem) if kind == OR_ARRAY else GoType(SLICE, "", GoType(STRING, "string"))
            return _marshal_one(list(v), elem, stack)
        return None  # no schema and no array: MarshalJSON writes null
    return v


def _marshal_zero(t: GoType, stack: list[tuple[Any, GoType, Any, Any]]) -> Any:
    """``json.Marshal`` of Go's zero value of ``t``."""
    kind = t.kind
    if kind == STRUCT:
        return _marshal_one({}, t, stack)
    if kind == OR_BOOL:
        return False
    if kind in (STRING, BOOL, INT32, INT64, FLOAT64):
        return zero_value(t)
    return None  # nil pointer, slice, map, []byte, JSON; the zero metav1.Time


def _is_empty(v: Any, t: GoType) -> bool:
    """encoding/json ``isEmptyValue`` (for ``omitempty``) of the Go value behind ``v``."""
    kind = t.kind
    if kind in (STRUCT, TIME, OR_ARRAY, OR_BOOL, OR_STRING_ARRAY):
        return False  # structs are never empty
    if v is _NIL:
        return True
    if kind in (STRING, BYTES, SLICE, MAP):
        return len(v) == 0 if isinstance(v, (str, list, tuple, dict)) else False
    if kind == BOOL:
        return v is False
    if kind in (INT32, INT64, FLOAT64):
        return not isinstance(v, bool) and v == 0
    return False  # a non-nil pointer, a JSON value


def _marshal_time(v: Any) -> Any:
    """``metav1.Time.MarshalJSON``: null when zero, else ``UTC().Format(time.RFC3339)``."""
    instant = rfc3339_instant(v)
    if instant is None:
        return v if isinstance(v, str) and v else None
    secs = instant[0]
    if secs == _ZERO_TIME:
        return None
    try:
        d = _dt.datetime(1970, 1, 1) + _dt.timedelta(seconds=secs)
    except (OverflowError, ValueError):
        return v
    return f"{d.year:04d}-{d.month:02d}-{d.day:02d}T{d.hour:02d}:{d.minute:02d}:{d.second:02d}Z"


#: ``time.Time{}`` (0001-01-01T00:00:00Z) in seconds since the Unix epoch.
_ZERO_TIME = calendar.timegm((1, 1, 1, 0, 0, 0, 0, 0, 0))


def _copy_json(v: Any) -> Any:
    holder: list[Any] = [None]
    stack: list[tuple[Any, Any, Any]] = [(v, holder, 0)]
    while stack:
        x, container, slot = stack.pop()
        if isinstance(x, dict):
            d: dict[str, Any] = {}
            container[slot] = d
            for k, item in x.items():
                d[k] = None
                stack.append((item, d, k))
        elif isinstance(x, list):
            lst: list[Any] = [None] * len(x)
            container[slot] = lst
            stack.extend((item, lst, i) for i, item in enumerate(x))
        else:
            container[slot] = x
    return holder[0]
