"""Validation of a CRD's ``openAPIV3Schema``: structure, OpenAPI rules, defaults and CEL rules.

Mirrors, in apiextensions-apiserver:

* ``pkg/apis/apiextensions/validation/validation.go`` (file id 120534391):
  ``validateCustomResourceDefinitionValidation``,
  ``ValidateCustomResourceDefinitionOpenAPISchema``, ``specStandardValidatorV3``,
  ``validateMapListKeysMapSet``, ``pathValid``, ``allowedAtRootSchema``;
* ``pkg/apiserver/schema/cel/validation.go``: ``ValidFieldPath``;
* ``pkg/apiserver/schema/defaulting/validation.go``: ``ValidateDefaults``.

The CEL rules (type checking, cost budgets) are compiled through
:mod:`crdtool.core.crd.cel_validation` (``cel_validation.go``). The final
``NewSchemaValidator`` construction check (which cannot fail for schemas that
passed the checks above) is skipped.

What differs between releases 1.30 … 1.37 (``ValidationOptions.release``) is looked up in
:mod:`crdtool.core.crd.release_texts` (detail texts) and the per-release switches of the modules called
(structural schemas, the CEL types and environments).

The schema walk is iterative (explicit stack), so hostile nesting depth
cannot overflow; a recursive (YAML-aliased) schema gets a single error.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any, Mapping

from crdtool.core.crd.cel_validation import CelSchemaContext, total_cost_errors, validate_rules
from crdtool.core.crd.internal_json import internal_schema, internal_schema_or_array
from crdtool.core.crd.options import ValidationOptions
from crdtool.core.crd.release_texts import text
from crdtool.core.content_memo import ContentMemo, content_key
from crdtool.core.crd.schema_walk import sub_schemas
from crdtool.core.errors import (
    FieldError,
    Path,
    forbidden,
    invalid,
    not_supported,
    required,
)
from crdtool.core.releases import DEFAULT_RELEASE, Release
from crdtool.core.schema import objectmeta as schemaobjectmeta
from crdtool.core.schema.fieldpath import FieldPathError, NilSchemaError
from crdtool.core.schema.fieldpath import valid_field_path as _valid_field_path
from crdtool.core.schema.structural import (
    Structural,
    StructuralError,
    new_structural,
    validate_structural,
)

__all__ = [
    "StructuralError",
    "new_structural",
    "structural_of",
    "valid_field_path",
    "validate_custom_resource_definition_open_api_schema",
    "validate_custom_resource_definition_validation",
    "validate_defaults",
    "validate_structural",
]

Schema = Mapping[str, Any]

OPENAPI_V3_TYPES = ("array", "boolean", "integer", "number", "object", "string")  # sorted, as sets.List()
SUPPORTED_VALIDATION_REASONS = ("FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired")
_META_FIELDS = frozenset({"metadata", "kind", "apiVersion"})
# _SpecValidator.validate's fast path: a node with a valid type (or none) and none of these keys has no error.
_VALID_TYPES = frozenset(OPENAPI_V3_TYPES)
_SPEC_CHECKED_KEYS = frozenset({
    "default", "id", "additionalItems", "patternProperties", "definitions", "dependencies", "$ref", "items",
    "x-kubernetes-embedded-resource",
})
# _post_checks: each of its checks reads one of these keys.
_POST_CHECKED_KEYS = frozenset({
    "x-kubernetes-preserve-unknown-fields", "x-kubernetes-map-type", "x-kubernetes-list-type",
    "x-kubernetes-list-map-keys",
})
_NEWLINE = re.compile(r"[\n\r]+")

# Upstream allowedFieldsAtRootSchema.
ALLOWED_FIELDS_AT_ROOT_SCHEMA = (
    "Description", "Type", "Format", "Title", "Maximum", "ExclusiveMaximum", "Minimum", "ExclusiveMinimum",
    "MaxLength", "MinLength", "Pattern", "MaxItems", "MinItems", "UniqueItems", "MultipleOf", "Required", "Items",
    "Properties", "ExternalDocs", "Example", "XPreserveUnknownFields", "XValidations",
)

# The internal JSONSchemaProps fields in Go declaration order: (JSON key, Go name, zero-value kind).
# "str": zero is ""; "bool": zero is false; "set": any present value (pointer, slice, map) is non-zero.
_JSON_SCHEMA_PROPS_FIELDS = (
    ("id", "ID", "str"), ("$schema", "Schema", "str"), ("$ref", "Ref", "set"),
    ("description", "Description", "str"), ("type", "Type", "str"), ("nullable", "Nullable", "bool"),
    ("format", "Format", "str"), ("title", "Title", "str"), ("default", "Default", "set"),
    ("maximum", "Maximum", "set"), ("exclusiveMaximum", "ExclusiveMaximum", "bool"),
    ("minimum", "Minimum", "set"), ("exclusiveMinimum", "ExclusiveMinimum", "bool"),
    ("maxLength", "MaxLength", "set"), ("minLength", "MinLength", "set"), ("pattern", "Pattern", "str"),
    ("maxItems", "MaxItems", "set"), ("minItems", "MinItems", "set"), ("uniqueItems", "UniqueItems", "bool"),
    ("multipleOf", "MultipleOf", "set"), ("enum", "Enum", "set"), ("maxProperties", "MaxProperties", "set"),
    ("minProperties", "MinProperties", "set"), ("required", "Required", "set"), ("items", "Items", "set"),
    ("allOf", "AllOf", "set"), ("oneOf", "OneOf", "set"), ("anyOf", "AnyOf", "set"), ("not", "Not", "set"),
    ("properties", "Properties", "set"), ("additionalProperties", "AdditionalProperties", "set"),
    ("patternProperties", "PatternProperties", "set"), ("dependencies", "Dependencies", "set"),
    ("additionalItems", "AdditionalItems", "set"), ("definitions", "Definitions", "set"),
    ("externalDocs", "ExternalDocs", "set"), ("example", "Example", "set"),
    ("x-kubernetes-preserve-unknown-fields", "XPreserveUnknownFields", "set"),
    ("x-kubernetes-embedded-resource", "XEmbeddedResource", "bool"),
    ("x-kubernetes-int-or-string", "XIntOrString", "bool"),
    ("x-kubernetes-list-map-keys", "XListMapKeys", "set"), ("x-kubernetes-list-type", "XListType", "set"),
    ("x-kubernetes-map-type", "XMapType", "set"), ("x-kubernetes-validations", "XValidations", "set"),
)

# --- helpers ------------------------------------------------------------------------


def _go_trim_space(s: str) -> str:
    """Go ``strings.TrimSpace`` (Unicode White_Space; Python's isspace also strips U+001C..U+001F)."""
    return s.strip(" \t\n\v\f\r\u0085\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009"
                   "\u200a\u2028\u2029\u202f\u205f\u3000")


def _has_newlines(s: str) -> bool:
    return _NEWLINE.search(s) is not None


def _is_set(value: Any, kind: str) -> bool:
    if kind == "str":
        return bool(value)
    if kind == "bool":
        return value is True
    return value is not None


def _items_schema(s: Schema) -> Schema | None:
    items = s.get("items")
    return items if isinstance(items, dict) else None


def _schema_list(v: Any) -> list[Schema]:
    return [x for x in v if isinstance(x, dict)] if isinstance(v, list) else []


def _schema_map(v: Any) -> dict[str, Schema]:
    return {k: x for k, x in v.items() if isinstance(x, dict)} if isinstance(v, dict) else {}


def _is_recursive(root: Schema) -> bool:
    """A schema that contains itself (only possible through YAML aliases or a caller's shared dicts).

    One cheap pass first: without a node reached twice there is no cycle (a
    cycle would be reached again and again). Only a tree with shared nodes
    (aliases used twice, not recursively) needs the depth-first search.
    """
    seen: set[int] = set()
    stack: list[Schema] = [root]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            return _has_cycle(root)
        seen.add(id(node))
        stack.extend(sub_schemas(node))
    return False


def _has_cycle(root: Schema) -> bool:
    on_path: set[int] = set()
    done: set[int] = set()
    stack: list[tuple[Schema, bool]] = [(root, False)]
    while stack:
        node, leaving = stack.pop()
        if leaving:
            on_path.discard(id(node))
            done.add(id(node))
            continue
        if id(node) in on_path:
            return True
        if id(node) in done:
            continue
        on_path.add(id(node))
        stack.append((node, True))
        stack.extend((c, False) for c in sub_schemas(node))
    return False


# --- the validator state (specStandardValidatorV3) ----------------------------------


@dataclasses.dataclass(frozen=True)
class _SpecValidator:
    """Upstream ``specStandardValidatorV3``."""

    allow_defaults: bool
    disallow_defaults_reason: str
    require_valid_property_type: bool
    inside_resource_meta: bool = False
    uncorrelatable_old_self_path: str | None = None

    def with_forbidden_defaults(self, reason: str) -> _SpecValidator:
        return dataclasses.replace(self, allow_defaults=False, disallow_defaults_reason=reason)

    def with_inside_resource_meta(self) -> _SpecValidator:
        return dataclasses.replace(self, inside_resource_meta=True)

    def with_forbid_old_self_validations(self, path: Path) -> _SpecValidator:
        if self.uncorrelatable_old_self_path is not None:
            return self  # keep the highest path that forbids oldSelf
        return dataclasses.replace(self, uncorrelatable_old_self_path=str(path))

    def validate(self, s: Schema, p: Path) -> list[FieldError]:
        """Upstream ``specStandardValidatorV3.validate``."""
        t = s.get("type") or ""
        if (not t or t.__class__ is str and t in _VALID_TYPES) and _SPEC_CHECKED_KEYS.isdisjoint(s):
            return []  # the common node: nothing below can fire
        errs: list[FieldError] = []
        if self.require_valid_property_type and t and t not in OPENAPI_V3_TYPES:
            errs.append(not_supported(p.child("type"), t, OPENAPI_V3_TYPES))
        if s.get("default") is not None and not self.allow_defaults:
            detail = "must not be set"
            if self.disallow_defaults_reason:
                detail += " " + self.disallow_defaults_reason
            errs.append(forbidden(p.child("default"), detail))
        if s.get("id"):
            errs.append(forbidden(p.child("id"), "id is not supported"))
        if s.get("additionalItems") is not None:
            errs.append(forbidden(p.child("additionalItems"), "additionalItems is not supported"))
        if s.get("patternProperties"):
            errs.append(forbidden(p.child("patternProperties"), "patternProperties is not supported"))
        if s.get("definitions"):
            errs.append(forbidden(p.child("definitions"), "definitions is not supported"))
        if s.get("dependencies") is not None:
            errs.append(forbidden(p.child("dependencies"), "dependencies is not supported"))
        if s.get("$ref") is not None:
            errs.append(forbidden(p.child("$ref"), "$ref is not supported"))
        if t == "null":
            errs.append(forbidden(p.child("type"), "type cannot be set to null, use nullable as an alternative"))
        items = s.get("items")
        if isinstance(items, list) and items:
            errs.append(forbidden(p.child("items"), "items must be a schema object and not an array"))
        if self.inside_resource_meta and s.get("x-kubernetes-embedded-resource"):
            errs.append(forbidden(p.child("x-kubernetes-embedded-resource"), "must not be used inside of resource meta"))
        return errs


# --- ValidFieldPath (schema/cel/validation.go) -------------------------------------------


def valid_field_path(
    json_path: str, schema: Structural | None, *, allow_array_notation: bool = True
) -> tuple[Path | None, Structural | None, str | None]:
    """Upstream ``cel.ValidFieldPath`` as ``(field path, schema found, error text or None)``.

    A thin adapter over :func:`crdtool.core.schema.fieldpath.valid_field_path`;
    where upstream would dereference a nil schema the path counts as invalid.
    """
    try:
        path, found = _valid_field_path(json_path, schema, allow_array_notation)
    except FieldPathError as exc:
        return None, None, str(exc)
    except NilSchemaError:
        return None, None, "does not refer to a valid field"
    return Path(path.text), found, None


# --- ValidateCustomResourceDefinitionOpenAPISchema ------------------------------------------


class _Frame:
    """One schema node of the walk: its inputs, then its children and errors as the walk fills them in."""

    __slots__ = ("schema", "path", "ssv", "is_root", "cel", "structural", "pre", "children", "schema_errs", "cel_errs")

    def __init__(
        self, schema: Schema, path: Path, ssv: _SpecValidator, is_root: bool, cel: CelSchemaContext | None,
        structural: Structural | None,
    ) -> None:
        self.schema = schema
        self.path = path
        self.ssv = ssv
        self.is_root = is_root
        self.cel = cel
        self.structural = structural
        self.pre: list[FieldError] = []
        self.children: list[_Frame] = []
        self.schema_errs: list[FieldError] = []
        self.cel_errs: list[FieldError] = []


def validate_custom_resource_definition_open_api_schema(
    schema: Schema | None,
    fld_path: Path,
    opts: ValidationOptions,
    *,
    root_structural: Structural | None = None,
    cel_context: CelSchemaContext | None = None,
) -> tuple[list[FieldError], list[FieldError]]:
    """Upstream ``ValidateCustomResourceDefinitionOpenAPISchema`` for a root schema.

    In: the ``openAPIV3Schema`` dict, its path, the options;
    ``root_structural`` (if the schema converted) maps nodes to structural
    nodes; ``cel_context`` is upstream's root ``CELSchemaContext`` (None: CEL rules are not compiled).
    Out: ``(schema errors, CEL errors)``, upstream's ``OpenAPISchemaErrorList``.
    """
    if schema is None:
        return [], []
    ssv = _SpecValidator(opts.allow_defaults, opts.disallow_defaults_reason, opts.require_valid_property_type)
    root = _Frame(schema, Path(fld_path), ssv, True, cel_context, root_structural)
    stack: list[tuple[_Frame, bool]] = [(root, False)]
    while stack:
        frame, finishing = stack.pop()
        if finishing:
            _finish(frame, opts)
            continue
        frame.pre = _pre_checks(frame)
        if _CHILD_FRAME_KEYS.isdisjoint(frame.schema):
            _finish(frame, opts)  # a leaf: no child frames (what popping it back right away would do)
            continue
        frame.children = _child_frames(frame)
        stack.append((frame, True))
        stack.extend((c, False) for c in reversed(frame.children))
    return root.schema_errs, root.cel_errs


def _pre_checks(f: _Frame) -> list[FieldError]:
    s, p = f.schema, f.path
    errs = f.ssv.validate(s, p)
    if s.get("uniqueItems") is True:
        errs.append(forbidden(p.child("uniqueItems"), "uniqueItems cannot be set to true since the runtime complexity becomes quadratic"))
    ap = s.get("additionalProperties")
    if ap is not None and s.get("properties"):
        if ap is False or isinstance(ap, dict):
            errs.append(forbidden(p.child("additionalProperties"), "additionalProperties and properties are mutual exclusive"))
    return errs


def _struct_child(ss: Structural | None, kind: str, name: str = "") -> Structural | None:
    if ss is None:
        return None
    if kind == "additionalProperties":
        return ss.additional_properties_schema
    if kind == "items":
        return ss.items
    return ss.properties.get(name)


#: The keys :func:`_child_frames` reads: a node with none of them has no child frame.
_CHILD_FRAME_KEYS = frozenset({
    "additionalProperties", "properties", "not", "allOf", "oneOf", "anyOf", "definitions", "items", "dependencies",
})


def _child_frames(f: _Frame) -> list[_Frame]:
    s, p, ssv = f.schema, f.path, f.ssv
    out: list[_Frame] = []

    def add(sub: Schema, path: Path, v: _SpecValidator, cel: CelSchemaContext | None, ss: Structural | None) -> None:
        out.append(_Frame(sub, path, v, False, cel, ss))

    ap = s.get("additionalProperties")
    if isinstance(ap, dict):
        sub_ssv = ssv.with_forbidden_defaults("inside additionalProperties applying to object metadata") if ssv.inside_resource_meta else ssv
        ss = _struct_child(f.structural, "additionalProperties")
        add(ap, p.child("additionalProperties"), sub_ssv, f.cel.child(ap, ss, ("additionalProperties",)) if f.cel else None, ss)
    props = s.get("properties")
    if isinstance(props, dict) and props:
        map_type = s.get("x-kubernetes-map-type")
        prop_ssv = ssv
        if not (map_type is None or map_type in ("granular", "atomic")):  # upstream cel.MapIsCorrelatable
            prop_ssv = ssv.with_forbid_old_self_validations(p)
        meta_possible = f.is_root or bool(s.get("x-kubernetes-embedded-resource"))
        props_path = p.child("properties")
        struct_props = f.structural.properties if f.structural is not None else None
        cel = f.cel
        for name, prop in props.items():
            if not isinstance(prop, dict):
                continue
            sub_ssv = prop_ssv
            if meta_possible and name in _META_FIELDS:
                sub_ssv = sub_ssv.with_inside_resource_meta()
                if f.is_root:
                    sub_ssv = sub_ssv.with_forbidden_defaults(f"in top-level {name}")
            ss = struct_props.get(name) if struct_props is not None else None
            out.append(_Frame(prop, props_path.key(name), sub_ssv, False,
                              cel.child(prop, ss, ("property", name)) if cel else None, ss))
    rare = not _RARE_CHILD_FRAME_KEYS.isdisjoint(s)
    if rare:
        if isinstance(s.get("not"), dict):
            add(s["not"], p.child("not"), ssv, None, None)
        for key in ("allOf", "oneOf", "anyOf"):
            for i, sub in enumerate(_schema_list(s.get(key))):
                add(sub, p.child(key).index(i), ssv, None, None)
        for name, sub in _schema_map(s.get("definitions")).items():
            add(sub, p.child("definitions").key(name), ssv, None, None)
    items = s.get("items")
    if items is not None:
        sub_ssv = ssv
        if s.get("x-kubernetes-list-type") != "map":
            sub_ssv = sub_ssv.with_forbid_old_self_validations(p)
        if isinstance(items, dict):
            ss = _struct_child(f.structural, "items")
            add(items, p.child("items"), sub_ssv, f.cel.child(items, ss, ("items",)) if f.cel else None, ss)
        elif isinstance(items, list):
            for i, sub in enumerate(_schema_list(items)):
                add(sub, p.child("items").index(i), sub_ssv, f.cel.child(sub, None, ("items",)) if f.cel else None, None)
    if rare:
        for name, dep in _schema_map(s.get("dependencies")).items():
            add(dep, p.child("dependencies").key(name), ssv, None, None)
    return out


#: The keys of :func:`_child_frames`' rare children (junctors, definitions, dependencies): a node with none of
#: them (most nodes) skips their lookups.
_RARE_CHILD_FRAME_KEYS = frozenset({"not", "allOf", "oneOf", "anyOf", "definitions", "dependencies"})


def _finish(f: _Frame, opts: ValidationOptions) -> None:
    schema_errs = list(f.pre)
    cel_errs: list[FieldError] = []
    for c in f.children:
        schema_errs.extend(c.schema_errs)
        cel_errs.extend(c.cel_errs)
        c.schema_errs = c.cel_errs = []  # release memory early; results now live in the parent
        c.children = []
    schema_errs.extend(_post_checks(f.schema, f.path, opts))
    given = f.schema.get("x-kubernetes-validations")
    rules: list[Mapping[str, Any]] = [r for r in given if isinstance(r, dict)] if given else []
    if rules:
        schema_errs.extend(_validation_rule_checks(f, rules, opts.release))
        if not schema_errs and f.cel is not None:
            cel_errs.extend(_cel_checks(f, rules, opts))
    f.schema_errs, f.cel_errs = schema_errs, cel_errs


def _post_checks(s: Schema, p: Path, opts: ValidationOptions) -> list[FieldError]:  # noqa: C901 - mirrors upstream
    if _POST_CHECKED_KEYS.isdisjoint(s):
        return []  # every check below needs one of these keys
    errs: list[FieldError] = []
    t = s.get("type") or ""
    if s.get("x-kubernetes-preserve-unknown-fields") is False:
        errs.append(invalid(p.child("x-kubernetes-preserve-unknown-fields"), False, "must be true or undefined"))
    map_type = s.get("x-kubernetes-map-type")
    if map_type is not None and t != "object":
        detail = "must be object if x-kubernetes-map-type is specified"
        errs.append(required(p.child("type"), detail) if not t else invalid(p.child("type"), t, detail))
    if map_type is not None and map_type not in ("atomic", "granular"):
        errs.append(not_supported(p.child("x-kubernetes-map-type"), map_type, ["atomic", "granular"]))
    list_type = s.get("x-kubernetes-list-type")
    items = _items_schema(s)
    if list_type is not None and t != "array":
        detail = "must be array if x-kubernetes-list-type is specified"
        errs.append(required(p.child("type"), detail) if not t else invalid(p.child("type"), t, detail))
    elif opts.require_atomic_set_type and list_type == "set" and items is not None:
        item_type = items.get("type") or ""
        if item_type == "array":
            item_list_type = items.get("x-kubernetes-list-type")
            if item_list_type is not None and item_list_type != "atomic":
                errs.append(invalid(p.child("items").child("x-kubernetes-list-type"), item_list_type,
                                    "must be atomic as item of a list with x-kubernetes-list-type=set"))
        elif item_type == "object":
            if items.get("x-kubernetes-map-type") != "atomic":
                # upstream reports the items' list type (usually unset) as the bad value
                errs.append(invalid(p.child("items").child("x-kubernetes-map-type"), items.get("x-kubernetes-list-type"),
                                    "must be atomic as item of a list with x-kubernetes-list-type=set"))
    if list_type is not None and list_type not in ("atomic", "set", "map"):
        errs.append(not_supported(p.child("x-kubernetes-list-type"), list_type, ["atomic", "set", "map"]))
    map_keys = list(s.get("x-kubernetes-list-map-keys") or [])
    if map_keys:
        detail = "must be map if x-kubernetes-list-map-keys is non-empty"
        if list_type is None:
            errs.append(required(p.child("x-kubernetes-list-type"), detail))
        elif list_type != "map":
            errs.append(invalid(p.child("x-kubernetes-list-type"), list_type, detail))
    if list_type == "map":
        errs.extend(_list_map_checks(s, p, map_keys))
    if opts.require_map_list_keys_map_set_validation:
        errs.extend(validate_map_list_keys_map_set(s, p))
    return errs


def _list_map_checks(s: Schema, p: Path, map_keys: list[str]) -> list[FieldError]:
    errs: list[FieldError] = []
    raw_items = s.get("items")
    items = _items_schema(s)
    if not map_keys:
        errs.append(required(p.child("x-kubernetes-list-map-keys"), "must not be empty if x-kubernetes-list-type is map"))
    if raw_items is None:
        errs.append(required(p.child("items"), "must have a schema if x-kubernetes-list-type is map"))
    if raw_items is not None and items is None:
        errs.append(invalid(p.child("items"), internal_schema_or_array(raw_items), "must only have a single schema if x-kubernetes-list-type is map"))
    if items is not None:
        item_type = items.get("type") or ""
        if item_type != "object":
            errs.append(invalid(p.child("items").child("type"), item_type, "must be object if parent array's x-kubernetes-list-type is map"))
        else:
            props = _schema_map(items.get("properties"))
            seen: set[str] = set()
            for k in map_keys:
                prop = props.get(k)
                if prop is not None:
                    if (prop.get("type") or "") in ("array", "object"):
                        errs.append(invalid(p.child("items").child("properties").key(k).child("type"), item_type,
                                            "must be a scalar type if parent array's x-kubernetes-list-type is map"))
                else:
                    errs.append(invalid(p.child("x-kubernetes-list-map-keys"), map_keys, "entries must all be names of item properties"))
                if k in seen:
                    errs.append(invalid(p.child("x-kubernetes-list-map-keys"), map_keys, "must not contain duplicate entries"))
                seen.add(k)
    return errs


def validate_map_list_keys_map_set(s: Schema, p: Path) -> list[FieldError]:
    """Upstream ``validateMapListKeysMapSet``: set/map list items and map keys must not be nullable, keys must be required or defaulted."""
    items = _items_schema(s)
    list_type = s.get("x-kubernetes-list-type")
    if items is None or list_type not in ("set", "map"):
        return []
    errs: list[FieldError] = []
    if items.get("nullable"):
        errs.append(forbidden(p.child("items").child("nullable"), "cannot be nullable when x-kubernetes-list-type is " + list_type))
    if list_type == "map":
        required_keys = set(items.get("required") or ())
        props = _schema_map(items.get("properties"))
        for k in s.get("x-kubernetes-list-map-keys") or ():
            prop = props.get(k)
            if prop is None:
                continue
            if k not in required_keys and prop.get("default") is None:
                errs.append(required(p.child("items").child("properties").key(k).child("default"),
                                     "this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property"))
            if prop.get("nullable"):
                errs.append(forbidden(p.child("items").child("properties").key(k).child("nullable"),
                                      "this property is in x-kubernetes-list-map-keys, so it cannot be nullable"))
    return errs


def structural_of(schema: Any) -> Structural:
    """:func:`new_structural` of a CRD version's schema (raises :class:`StructuralError` as it does), kept for
    the next check of the same content.

    The releases of a matrix validate a CRD one after another, and the structural schema does not depend on
    the release (``NewStructural`` is the same function in v0.30 … v0.37; the release-dependent checks are in
    ``validate_structural``): the last few are kept by the schema's content (:mod:`crdtool.core.content_memo`).
    The CRD checks only read a structural schema, so one may serve several checks; it references the JSON
    values (defaults, enums, rules) of the first schema it was built from, equal to those of the others. Not
    used where a structural schema is kept beyond the check (``prepare_crd``: rules are told apart there by
    identity).
    """
    return _structural_by_key(schema, content_key(schema))


def _structural_by_key(schema: Any, key: bytes | None) -> Structural:
    """:func:`structural_of` with the schema's :func:`content_key` already computed."""
    if key is None:
        return new_structural(schema)
    hit = _STRUCTURAL.get(key, None)
    if isinstance(hit, Structural):
        return hit
    if isinstance(hit, str):
        raise StructuralError(hit)
    try:
        built = new_structural(schema)
    except StructuralError as exc:
        _STRUCTURAL.put(key, None, str(exc))
        raise
    _STRUCTURAL.put(key, None, built)
    return built


#: :func:`structural_of`'s last results: a structural schema, or the text of the StructuralError.
_STRUCTURAL: ContentMemo[Structural | str] = ContentMemo(16)


def _node_structural(f: _Frame) -> Structural | None:
    if f.structural is not None:
        return f.structural
    try:
        return new_structural(f.schema)
    except StructuralError:
        return None


def _validation_rule_checks(f: _Frame, rules: list[Mapping[str, Any]], release: Release) -> list[FieldError]:
    """The schema-error half of upstream's x-kubernetes-validations checks (texts of ``release``)."""
    errs: list[FieldError] = []
    base = f.path.child("x-kubernetes-validations")
    for i, rule in enumerate(rules):
        p = base.index(i)
        rule_text = rule.get("rule") or ""
        message = rule.get("message") or ""
        message_expr = rule.get("messageExpression") or ""
        trimmed_rule = _go_trim_space(rule_text)
        trimmed_msg = _go_trim_space(message)
        if not trimmed_rule:
            errs.append(required(p.child("rule"), "rule is not specified"))
        elif message and not trimmed_msg:
            errs.append(invalid(p.child("message"), message, text("rule.message.empty", release)))
        elif _has_newlines(trimmed_msg):
            errs.append(invalid(p.child("message"), message, text("rule.message.newlines", release)))
        elif _has_newlines(trimmed_rule) and not trimmed_msg:
            errs.append(required(p.child("message"), "message must be specified if rule contains line breaks"))
        if message_expr and not _go_trim_space(message_expr):
            errs.append(required(p.child("messageExpression"), "messageExpression must be non-empty if specified"))
        reason = rule.get("reason")
        if reason is not None and reason not in SUPPORTED_VALIDATION_REASONS:
            errs.append(not_supported(p.child("reason"), reason, SUPPORTED_VALIDATION_REASONS))
        field_path = rule.get("fieldPath") or ""
        if field_path and not _go_trim_space(field_path):
            errs.append(invalid(p.child("fieldPath"), field_path, text("rule.fieldPath.empty", release)))
        if _has_newlines(field_path):
            errs.append(invalid(p.child("fieldPath"), field_path, text("rule.fieldPath.newlines", release)))
        if field_path:
            ss = _node_structural(f)
            if ss is not None and valid_field_path(field_path, ss)[2] is not None:
                errs.append(invalid(p.child("fieldPath"), field_path, text("rule.fieldPath.invalid", release)))
    return errs


def _cel_checks(f: _Frame, rules: list[Mapping[str, Any]], opts: ValidationOptions) -> list[FieldError]:
    """The CEL-error half: compile each rule and messageExpression (upstream ``cel.Compile`` use)."""
    assert f.cel is not None
    if not f.cel.within_scope:
        return []
    from crdtool.core.kubecel.environment import release_env_set  # the CEL layers: only for a schema with rules

    base = f.path.child("x-kubernetes-validations")
    return validate_rules(
        f.cel, rules, base, f.ssv.uncorrelatable_old_self_path,
        env_set=opts.cel_env_set or release_env_set(opts.release), preexisting=opts.preexisting_expressions,
        suppress_per_expression_cost=opts.suppress_per_expression_cost,
    )


# --- validateCustomResourceDefinitionValidation ------------------------------------------------


def _status_root_errors(schema: Schema, p: Path) -> list[FieldError]:
    """Only some fields are allowed at the root when the status subresource is enabled."""
    for key, go_name, kind in _JSON_SCHEMA_PROPS_FIELDS:
        if key not in schema or not _is_set(schema[key], kind):
            continue
        if go_name == "Type":
            if schema["type"] != "object":
                return [invalid(p.child("openAPIV3Schema.type"), schema["type"],
                                'only "object" is allowed as the type at the root of the schema if the status subresource is enabled')]
            continue
        if go_name not in ALLOWED_FIELDS_AT_ROOT_SCHEMA:
            allowed = "[" + " ".join(ALLOWED_FIELDS_AT_ROOT_SCHEMA) + "]"
            return [invalid(p.child("openAPIV3Schema"), internal_schema(dict(schema)),
                            f"only {allowed} fields are allowed at the root of the schema if the status subresource is enabled")]
    return []


def validate_custom_resource_definition_validation(
    custom_resource_validation: Mapping[str, Any] | None,
    status_subresource_enabled: bool,
    opts: ValidationOptions,
    fld_path: Path,
) -> list[FieldError]:
    """Validate a ``CustomResourceValidation`` (``{"openAPIV3Schema": {...}}``).

    In: the validation dict (``spec.validation`` or ``spec.versions[i].schema``)
    or None, whether the status subresource is enabled for it, the options
    (``require_structural_schema`` already adjusted by the caller as upstream's
    ``validateCustomResourceDefinitionSpec`` does), and its path. Out: upstream
    field errors (schema errors first, then CEL errors). Never raises.

    Upstream: ``pkg/apis/apiextensions/validation/validation.go``
    ``validateCustomResourceDefinitionValidation``.
    """
    if custom_resource_validation is None:
        return []
    schema = custom_resource_validation.get("openAPIV3Schema")
    if not isinstance(schema, dict):
        return []
    p = Path(fld_path)
    # the structural memo's key: marshal (format 0) writes every container it reaches, nested, so it fails on a
    # cycle (beyond its nesting limit) and a schema it writes contains no cycle: then no walk for one is needed
    key = content_key(schema)
    if key is None and _is_recursive(schema):
        return [invalid(p.child("openAPIV3Schema"), "", "must not be recursive")]
    errs: list[FieldError] = []
    if status_subresource_enabled:
        errs.extend(_status_root_errors(schema, p))
    if schema.get("nullable"):
        errs.append(forbidden(p.child("openAPIV3Schema.nullable"), "nullable cannot be true at the root"))

    schema_path = p.child("openAPIV3Schema")
    root_ss: Structural | None = None
    structural_err: StructuralError | None = None
    try:
        root_ss = _structural_by_key(schema, key)
    except StructuralError as e:
        structural_err = e
    cel_context: CelSchemaContext | None = None
    structural_init_errs: list[FieldError] = []
    if opts.require_structural_schema:
        if structural_err is not None:
            # These overlap with the OpenAPI checks; shown only if those find nothing.
            structural_init_errs.append(invalid(schema_path, "", str(structural_err)))
        else:
            assert root_ss is not None
            structural_errs = validate_structural(schema_path, root_ss, opts.release)
            if structural_errs:
                errs.extend(structural_errs)
            else:
                default_errs = validate_defaults(schema_path, root_ss, True, opts.require_pruned_defaults, opts.release)
                if default_errs:
                    errs.extend(default_errs)
                else:
                    cel_context = CelSchemaContext.root(schema, root_ss, opts.release.minor)
    schema_errs, cel_errs = validate_custom_resource_definition_open_api_schema(
        schema, schema_path, opts, root_structural=root_ss, cel_context=cel_context
    )
    errs.extend(schema_errs)
    errs.extend(cel_errs)
    if not errs and structural_init_errs:
        errs.extend(structural_init_errs)
    if cel_context is not None:
        errs.extend(total_cost_errors(cel_context, schema_path))
    return errs


# --- ValidateDefaults (defaulting/validation.go) -------------------------------------------------


def _embedded(ss: Structural) -> Structural:
    x = ss.extensions
    return dataclasses.replace(ss, extensions=dataclasses.replace(x, x_embedded_resource=True))


def _surrounding_object(default: Any, steps: tuple[str | None, ...]) -> Any:
    """Upstream ``SurroundingObjectFunc``: wrap ``default`` along ``steps`` (None = list index) under a typed root."""
    x: Any = default
    for step in reversed(steps):
        x = [x] if step is None else {step: x}
    if not isinstance(x, dict):
        return None
    x = dict(x)
    x.setdefault("kind", "Validation")
    x.setdefault("apiVersion", "validation/v1")
    return x


def _aggregate(errs: list[FieldError]) -> str:
    """``ErrorList.ToAggregate().Error()``: one message, or ``[a, b]`` (duplicates removed)."""
    msgs: list[str] = []
    for e in errs:
        m = str(e)
        if m not in msgs:
            msgs.append(m)
    return msgs[0] if len(msgs) == 1 else "[" + ", ".join(msgs) + "]"


def validate_defaults(
    fld_path: Path,
    ss: Structural | None,
    is_resource_root: bool,
    require_pruned_defaults: bool,
    release: Release = DEFAULT_RELEASE,
) -> list[FieldError]:
    """Check that every ``default`` in the schema is pruned, valid, and yields valid metadata.

    In: the path of the schema, its structural model, whether it is a
    resource root, whether defaults must already be pruned. Out: errors such as
    ``...properties[a].default: Invalid value: {...}: must not have unknown fields``
    or the value-validation errors of the default (``...default.b: Invalid
    value: "string": b in body must be of type integer: "string"``).

    Uses ``crdtool.core.schema.pruning.prune`` and
    ``crdtool.core.validation.value_validation.validate_value`` on
    :meth:`Structural.to_schema` of each node with a default; a default that
    is otherwise valid is then checked against the node's CEL rules
    (``crdtool.core.crdcel.validation.validate_cel``), sharing one runtime cost
    budget across the walk as upstream does: first with the default as its own
    old value (transition rules run), then, if that passes, as a create
    (``optionalOldSelf`` rules see no old value); the run that leaves less
    budget counts.

    Upstream: ``pkg/apiserver/schema/defaulting/validation.go`` ``ValidateDefaults``.
    """
    if is_resource_root:
        ss = ss or Structural()
        if not ss.extensions.x_embedded_resource:
            ss = _embedded(ss)
    if ss is None:
        return []
    # every error of the walk is a default's: a schema without one (4 in 5 of ../shared/corpus/crds) has none, and
    # the walk (a path and a frame per node) is skipped; ss.walk() reaches every node the walk does, and more
    for node in ss.walk():
        if node.generic.default is not None:
            return _defaults_walk(fld_path, ss, require_pruned_defaults, release)
    return []


def _defaults_walk(fld_path: Path, ss: Structural, require_pruned_defaults: bool, release: Release) -> list[FieldError]:
    """:func:`validate_defaults`' walk of a (root-adjusted) structural schema: every node's default checked."""
    # Imported here: sibling modules of the schema package, kept off this module's import path.
    from crdtool.core.schema.pruning import prune
    from crdtool.core.validation.value_validation import validate_value

    errs: list[FieldError] = []
    # NewValidator is nil for a schema without rules outside junctors (hasXValidations, as Structural.walk):
    # then no default meets a rule, and the CEL layers are not imported
    has_rules = any(node.extensions.x_validations for node in ss.walk())
    if has_rules:
        from crdtool.core.crdcel.validation import RUNTIME_CEL_COST_BUDGET, validate_cel
    budget = [RUNTIME_CEL_COST_BUDGET if has_rules else 0]  # upstream's remainingCost, shared by every default
    # (node, path, root schema, steps from the root, inside meta)
    stack: list[tuple[Structural, Path, Structural, tuple[str | None, ...], bool]] = [(ss, Path(fld_path), ss, (), False)]
    while stack:
        s, p, root, steps, inside_meta = stack.pop()
        if s.extensions.x_embedded_resource:
            inside_meta, root, steps = False, s, ()
        if s.generic.default is not None:
            default_errs = _default_errors(s, p, root, steps, inside_meta, require_pruned_defaults, prune, validate_value)
            errs.extend(default_errs)
            if not default_errs and has_rules:
                default, dp, is_root = s.generic.default, p.child("default"), s is root
                # the default as its own old value (transition rules run, no ratcheting option) ...
                result = validate_cel(default, s, dp, old_obj=default, is_resource_root=is_root, budget=budget[0],
                                      ratcheting=False, release=release)
                errs.extend(result.errors)
                remaining = result.remaining_budget
                if not result.errors:
                    # ... and, CRDValidationRatcheting being on, as a create (optionalOldSelf rules see no old value);
                    # the run that leaves less budget counts
                    created = validate_cel(default, s, dp, is_resource_root=is_root, budget=budget[0], ratcheting=False,
                                           release=release)
                    errs.extend(created.errors)
                    remaining = min(remaining, created.remaining_budget)
                budget[0] = remaining
                if budget[0] < 0:
                    return errs
        children: list[tuple[Structural, Path, Structural, tuple[str | None, ...], bool]] = []
        if s.items is not None:
            children.append((s.items, p.child("items"), root, steps + (None,), inside_meta))
        for k, sub in s.properties.items():
            sub_inside = inside_meta or (s.extensions.x_embedded_resource and k in _META_FIELDS)
            children.append((sub, p.child("properties").key(k), root, steps + (k,), sub_inside))
        stack.extend(reversed(children))
    return errs


def _default_errors(
    s: Structural, p: Path, root: Structural, steps: tuple[str | None, ...], inside_meta: bool,
    require_pruned: bool, prune: Any, validate_value: Any,
) -> list[FieldError]:
    default = s.generic.default
    dp = p.child("default")
    if inside_meta:
        obj = _surrounding_object(default, steps)
        if obj is None:
            return [invalid(p, "", "failed to validate default value inside metadata: object root default value must be of object type")]
        err = schemaobjectmeta.coerce(None, obj, root, True)
        if err is not None:
            return [invalid(dp, default, f"must result in valid metadata: {err}")]
        meta_errs = schemaobjectmeta.validate(None, obj, root, True)
        if meta_errs:
            return [invalid(dp, default, f"must result in valid metadata: {_aggregate(meta_errs)}")]
        return list(validate_value(default, _defaults_validator_schema(s.to_schema()), dp))
    errs: list[FieldError] = []
    schema_dict = s.to_schema()
    if require_pruned:
        pruned, _ = prune(default, schema_dict, is_resource_root=s.extensions.x_embedded_resource)
        if pruned != default:
            errs.append(invalid(dp, default, "must not have unknown fields"))
    err = schemaobjectmeta.coerce(dp, default, s, s.extensions.x_embedded_resource)
    if err is not None:
        errs.append(err)
        return errs
    meta_errs = schemaobjectmeta.validate(dp, default, s, s.extensions.x_embedded_resource)
    if meta_errs:
        errs.extend(meta_errs)
        return errs
    errs.extend(validate_value(default, _defaults_validator_schema(schema_dict), dp))
    return errs


def _defaults_validator_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """The schema a default is validated against: ``NewSchemaValidatorFromOpenAPI(s.ToKubeOpenAPI())``.

    ``defaulting/validation.go`` (v0.30.14 … v0.37.0-beta.0) validates defaults against the structural
    schema's ``ToKubeOpenAPI`` (``kubeopenapi.go``), which keeps ``x-kubernetes-int-or-string`` only as a
    vendor extension: unlike the custom-resource validator (``ConvertJSONSchemaPropsWithPostProcess`` sets
    ``Type: ["integer", "string"]``) an int-or-string node has no type, so kube-openapi's type check does not
    apply to it. :func:`validate_value` derives that type from the extension; it is dropped here (on
    ``schema``, a fresh dict from :meth:`Structural.to_schema`). Not reproduced: ToKubeOpenAPI keeps every
    ``format`` unstripped, so an untyped node's format (``format: int-or-string``) would reject a number default
    (``must be of type int-or-string: "int64"``); :func:`validate_value` strips unsupported formats.
    """
    stack = [schema]
    while stack:
        node = stack.pop()
        node.pop("x-kubernetes-int-or-string", None)
        stack.extend(sub_schemas(node))
    return schema

