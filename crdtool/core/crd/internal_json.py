"""The internal apiextensions types as ``json.Marshal`` writes them into error messages.

Upstream validates the *internal* CRD (``k8s.io/apiextensions-apiserver/pkg/apis/apiextensions``),
and some errors carry an internal struct as their bad value: ``field.Invalid(fldPath.Child("versions"),
spec.Versions, "must have exactly one version marked as storage version")``, the root schema when
fields other than those allowed sit beside the status subresource, a list-map's ``items`` array,
a rule that does not compile. apimachinery v0.36's ``field.Error.ErrorBody`` renders such a value
with ``json.Marshal``. The internal types have **no json tags**, so every field is written under its
Go name, in declaration order, with no ``omitempty`` (``""``, ``false``, ``0``, ``null``), and
``JSONSchemaPropsOrBool``/``OrArray``/``OrStringArray`` (which have no ``MarshalJSON`` in the
internal package) as plain structs::

    [{"Name":"v1","Served":true,"Storage":false,"Deprecated":false,"DeprecationWarning":null,
      "Schema":null,"Subresources":null,"AdditionalPrinterColumns":null,"SelectableFields":null}]

The functions here take the internal CRD's parts as crdtool holds them (decoded dicts in the
v1beta1 JSON shape, see :mod:`crdtool.core.crd.conversion`) and return :class:`GoStruct` trees
that :func:`crdtool.core.gojson.go_json_marshal` writes exactly as Go does. Struct layouts mirror
``pkg/apis/apiextensions/types.go`` and ``types_jsonschema.go`` (v0.36.3). Iterative: any nesting.
"""

from __future__ import annotations

from typing import Any

from crdtool.core.errors import GoNil, go_quote, go_sharp_v, go_typed
from crdtool.core.gojson import GoStruct

__all__ = ["internal_schema", "internal_schema_or_array", "internal_validation_rule", "internal_versions"]

# struct name -> fields: (Go name, key in the decoded dict, type spec)
_STRUCTS: dict[str, tuple[tuple[str, str, str], ...]] = {
    "CustomResourceDefinitionVersion": (
        ("Name", "name", "string"), ("Served", "served", "bool"), ("Storage", "storage", "bool"),
        ("Deprecated", "deprecated", "bool"), ("DeprecationWarning", "deprecationWarning", "*string"),
        ("Schema", "schema", "*CustomResourceValidation"), ("Subresources", "subresources", "*CustomResourceSubresources"),
        ("AdditionalPrinterColumns", "additionalPrinterColumns", "[]CustomResourceColumnDefinition"),
        ("SelectableFields", "selectableFields", "[]SelectableField"),
    ),
    "CustomResourceValidation": (("OpenAPIV3Schema", "openAPIV3Schema", "*JSONSchemaProps"),),
    "CustomResourceSubresources": (
        ("Status", "status", "*CustomResourceSubresourceStatus"), ("Scale", "scale", "*CustomResourceSubresourceScale"),
    ),
    "CustomResourceSubresourceStatus": (),
    "CustomResourceSubresourceScale": (
        ("SpecReplicasPath", "specReplicasPath", "string"), ("StatusReplicasPath", "statusReplicasPath", "string"),
        ("LabelSelectorPath", "labelSelectorPath", "*string"),
    ),
    "CustomResourceColumnDefinition": (
        ("Name", "name", "string"), ("Type", "type", "string"), ("Format", "format", "string"),
        ("Description", "description", "string"), ("Priority", "priority", "int"), ("JSONPath", "JSONPath", "string"),
    ),
    "SelectableField": (("JSONPath", "jsonPath", "string"),),
    # as _convert builds it from "OrArray" (only %#v reads this entry)
    "JSONSchemaPropsOrArray": (("Schema", "", "*JSONSchemaProps"), ("JSONSchemas", "", "[]JSONSchemaProps")),
    "ExternalDocumentation": (("Description", "description", "string"), ("URL", "url", "string")),
    "ValidationRule": (
        ("Rule", "rule", "string"), ("Message", "message", "string"), ("MessageExpression", "messageExpression", "string"),
        ("Reason", "reason", "*string"), ("FieldPath", "fieldPath", "string"), ("OptionalOldSelf", "optionalOldSelf", "*bool"),
    ),
    "JSONSchemaProps": (
        ("ID", "id", "string"), ("Schema", "$schema", "string"), ("Ref", "$ref", "*string"),
        ("Description", "description", "string"), ("Type", "type", "string"), ("Nullable", "nullable", "bool"),
        ("Format", "format", "string"), ("Title", "title", "string"), ("Default", "default", "*JSON"),
        ("Maximum", "maximum", "*float"), ("ExclusiveMaximum", "exclusiveMaximum", "bool"),
        ("Minimum", "minimum", "*float"), ("ExclusiveMinimum", "exclusiveMinimum", "bool"),
        ("MaxLength", "maxLength", "*int"), ("MinLength", "minLength", "*int"), ("Pattern", "pattern", "string"),
        ("MaxItems", "maxItems", "*int"), ("MinItems", "minItems", "*int"), ("UniqueItems", "uniqueItems", "bool"),
        ("MultipleOf", "multipleOf", "*float"), ("Enum", "enum", "[]JSON"),
        ("MaxProperties", "maxProperties", "*int"), ("MinProperties", "minProperties", "*int"),
        ("Required", "required", "[]string"), ("Items", "items", "*OrArray"),
        ("AllOf", "allOf", "[]JSONSchemaProps"), ("OneOf", "oneOf", "[]JSONSchemaProps"),
        ("AnyOf", "anyOf", "[]JSONSchemaProps"), ("Not", "not", "*JSONSchemaProps"),
        ("Properties", "properties", "map JSONSchemaProps"), ("AdditionalProperties", "additionalProperties", "*OrBool"),
        ("PatternProperties", "patternProperties", "map JSONSchemaProps"),
        ("Dependencies", "dependencies", "map OrStringArray"), ("AdditionalItems", "additionalItems", "*OrBool"),
        ("Definitions", "definitions", "map JSONSchemaProps"), ("ExternalDocs", "externalDocs", "*ExternalDocumentation"),
        ("Example", "example", "*JSON"), ("XPreserveUnknownFields", "x-kubernetes-preserve-unknown-fields", "*bool"),
        ("XEmbeddedResource", "x-kubernetes-embedded-resource", "bool"),
        ("XIntOrString", "x-kubernetes-int-or-string", "bool"),
        ("XListMapKeys", "x-kubernetes-list-map-keys", "[]string"), ("XListType", "x-kubernetes-list-type", "*string"),
        ("XMapType", "x-kubernetes-map-type", "*string"), ("XValidations", "x-kubernetes-validations", "[]ValidationRule"),
    ),
}

_ZERO = {"string": "", "bool": False, "int": 0}


def _convert(value: Any, spec: str) -> Any:  # noqa: C901 - one case per Go kind
    """The Go value of type ``spec`` behind decoded ``value``, ready for ``go_json_marshal``."""
    holder: list[Any] = [None]
    stack: list[tuple[Any, str, Any, Any]] = [(value, spec, holder, 0)]
    while stack:
        v, t, container, slot = stack.pop()
        if t.startswith("*"):
            if v is None:
                container[slot] = None
                continue
            t = t[1:]
        if t in _ZERO:
            container[slot] = v if v is not None and not (t == "int" and isinstance(v, bool)) else _ZERO[t]
        elif t == "float":
            container[slot] = float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else v
        elif t == "JSON":
            container[slot] = v
        elif t.startswith("[]"):
            if not isinstance(v, list):
                container[slot] = None
                continue
            out: list[Any] = [None] * len(v)
            container[slot] = out
            stack.extend((x, t[2:], out, i) for i, x in enumerate(v))
        elif t.startswith("map "):
            if not isinstance(v, dict):
                container[slot] = None
                continue
            m: dict[str, Any] = {}
            container[slot] = m
            for k, x in v.items():
                m[k] = None
                stack.append((x, t[4:], m, k))
        elif t == "OrBool":
            # JSONSchemaPropsOrBool{Allows, Schema}: a schema means Allows: true
            s = GoStruct(Allows=isinstance(v, dict) or v is True, Schema=None)
            container[slot] = s
            if isinstance(v, dict):
                stack.append((v, "JSONSchemaProps", s, "Schema"))
        elif t == "OrArray":
            s = GoStruct(Schema=None, JSONSchemas=None)
            container[slot] = s
            if isinstance(v, dict):
                stack.append((v, "JSONSchemaProps", s, "Schema"))
            elif isinstance(v, list):
                stack.append((v, "[]JSONSchemaProps", s, "JSONSchemas"))
        elif t == "OrStringArray":
            s = GoStruct(Schema=None, Property=None)
            container[slot] = s
            if isinstance(v, dict):
                stack.append((v, "JSONSchemaProps", s, "Schema"))
            elif isinstance(v, list):
                stack.append((v, "[]string", s, "Property"))
        else:
            src = v if isinstance(v, dict) else {}
            st = GoStruct()
            container[slot] = st
            for go_name, key, ft in _STRUCTS[t]:
                st[go_name] = None
                stack.append((src.get(key), ft, st, go_name))
    return holder[0]


def internal_versions(versions: list[Any] | None) -> list[GoStruct] | GoNil:
    """``spec.Versions`` ([]CustomResourceDefinitionVersion) of an internal CRD, as Go marshals it.

    In: the internal spec's ``versions`` list (decoded dicts). Out: a list of
    :class:`GoStruct` (a :class:`~crdtool.core.errors.GoNil` for a nil slice when ``versions`` is not a list).
    """
    out = _convert(versions, "[]CustomResourceDefinitionVersion")
    if not isinstance(out, list):
        return GoNil("[]apiextensions.CustomResourceDefinitionVersion(nil)")  # null from 1.34, %#v before
    typed = go_typed(out, _go_sharp_v_text(out, "[]CustomResourceDefinitionVersion"))
    assert isinstance(typed, list)
    return typed


def internal_schema(schema: dict[str, Any]) -> GoStruct:
    """A ``JSONSchemaProps`` value (``*schema``) as Go marshals the internal type (and, for releases before
    1.34, as ``%#v`` prints it: :func:`_go_sharp_v`)."""
    out = _convert(schema, "JSONSchemaProps")
    assert isinstance(out, GoStruct)
    typed = go_typed(out, _go_sharp_v_text(out, "JSONSchemaProps"))
    assert isinstance(typed, GoStruct)
    return typed


def internal_schema_or_array(items: Any) -> GoStruct | None:
    """A ``*JSONSchemaPropsOrArray`` (a schema's ``items``) as Go marshals the internal type; None for nil.

    Before 1.34 ``ErrorBody`` dereferences the pointer and prints the struct with ``%#v``
    (``apiextensions.JSONSchemaPropsOrArray{Schema:..., JSONSchemas:...}``)."""
    out = _convert(items, "*OrArray")
    if not isinstance(out, GoStruct):
        return None
    typed = go_typed(out, _go_sharp_v_text(out, "JSONSchemaPropsOrArray"))
    assert isinstance(typed, GoStruct)
    return typed


def internal_validation_rule(rule: dict[str, Any]) -> GoStruct:
    """One ``ValidationRule`` of ``x-kubernetes-validations`` as Go marshals the internal type.

    ``{"Rule":"self.x \\u003e 0","Message":"","MessageExpression":"","Reason":null,"FieldPath":"","OptionalOldSelf":null}``
    """
    out = _convert(rule, "ValidationRule")
    assert isinstance(out, GoStruct)
    typed = go_typed(out, _go_sharp_v_text(out, "ValidationRule"))
    assert isinstance(typed, GoStruct)  # go_typed makes a dict an _GoMap, a GoStruct
    return typed


#: Go's names of the type specs of :data:`_STRUCTS` that are not spelt out there (``types.go``,
#: ``types_jsonschema.go`` @v0.30.0 … @v0.33.0): the integers of the structs here are ``int32`` (``Priority``)
#: by value and ``int64`` behind a pointer (``MaxLength``); ``JSON`` is ``type JSON interface{}``.
_GO_NAMES = {
    "int": "int32", "*int": "*int64", "*float": "*float64", "*JSON": "*apiextensions.JSON",
    "[]JSON": "[]apiextensions.JSON", "*OrArray": "*apiextensions.JSONSchemaPropsOrArray",
    "*OrBool": "*apiextensions.JSONSchemaPropsOrBool", "map JSONSchemaProps": "map[string]apiextensions.JSONSchemaProps",
}
#: Fields declared with a named type (``%#v`` writes its name): (struct, field) -> Go type name.
_NAMED_FIELDS = {
    ("JSONSchemaProps", "XValidations"): "apiextensions.ValidationRules",
    ("JSONSchemaProps", "Definitions"): "apiextensions.JSONSchemaDefinitions",
    ("JSONSchemaProps", "Dependencies"): "apiextensions.JSONSchemaDependencies",
    ("ValidationRule", "Reason"): "*apiextensions.FieldValueErrorReason",
}


def _go_type(spec: str) -> str:
    """Go's name of a type spec of :data:`_STRUCTS` as ``%#v`` writes it (``[]apiextensions.SelectableField``)."""
    if spec in _GO_NAMES:
        return _GO_NAMES[spec]
    prefix = ""
    while spec.startswith(("*", "[]")):
        cut = 1 if spec.startswith("*") else 2
        prefix, spec = prefix + spec[:cut], spec[cut:]
    if spec in _STRUCTS:
        spec = "apiextensions." + spec
    return prefix + spec


def _go_sharp_v(value: Any, spec: str, name: str | None = None) -> str | None:
    """Go's ``%#v`` of the internal value ``value`` (from :func:`_convert`) of type ``spec`` (``name``: the
    type's name when the field declares a named type), or None when a pointer is set (``%#v`` prints its
    address) or a value is outside what is modelled here.

    fmt's rules (``fmt/print.go``, ``printValue`` with ``sharpV``): a struct as ``pkg.T{F:v, ...}`` in field
    order, a slice as ``T{v, ...}``, a map as ``T{"k":v, ...}`` with sorted keys, a nil pointer, slice or map as
    ``(T)(nil)`` / ``T(nil)``, a string quoted, an interface element by its dynamic value
    (``apiextensions.JSON(nil)`` when nil).
    """
    go_name = name or _go_type(spec)
    if spec.startswith("*"):
        return f"({go_name})(nil)" if value is None else None
    if spec.startswith("[]"):
        if value is None:
            return f"{go_name}(nil)"
        items: list[str | None] = (
            [_go_sharp_json(v) for v in value] if spec == "[]JSON" else [_go_sharp_v(v, spec[2:]) for v in value]
        )
        if any(i is None for i in items):
            return None
        return go_name + "{" + ", ".join(i for i in items if i is not None) + "}"
    if spec.startswith("map "):
        if value is None:
            return f"{go_name}(nil)"
        if not isinstance(value, dict):
            return None
        entries = [(k, _go_sharp_v(value[k], spec[4:])) for k in sorted(value)]
        if any(v is None for _, v in entries):
            return None
        return go_name + "{" + ", ".join(f"{go_quote(k)}:{v}" for k, v in entries) + "}"
    if spec == "string":
        return go_quote(value if isinstance(value, str) else "")
    if spec == "bool":
        return "true" if value is True else "false"
    if spec == "int":
        return str(value) if isinstance(value, int) and not isinstance(value, bool) else "0"
    if spec not in _STRUCTS or not isinstance(value, dict):
        return None
    parts = []
    for field_name, _, field_spec in _STRUCTS[spec]:
        text = _go_sharp_v(value.get(field_name), field_spec, _NAMED_FIELDS.get((spec, field_name)))
        if text is None:
            return None
        parts.append(f"{field_name}:{text}")
    return f"{go_name}{{" + ", ".join(parts) + "}"


def _go_sharp_v_text(value: Any, spec: str) -> str | None:
    """:func:`_go_sharp_v`, or None for a value nested too deeply to print here (it recurses; the schemas
    that reach this are otherwise handled iteratively, at any depth)."""
    try:
        return _go_sharp_v(value, spec)
    except RecursionError:
        return None


def _go_sharp_json(value: Any) -> str:
    """``%#v`` of an ``apiextensions.JSON`` element (what ``encoding/json`` decoded: float64 numbers)."""
    if value is None:
        return "apiextensions.JSON(nil)"
    if isinstance(value, int) and not isinstance(value, bool):
        return go_sharp_v(float(value))
    return go_sharp_v(value)
