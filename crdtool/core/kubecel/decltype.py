"""CEL types of structural schemas: what ``self`` is when a CRD's rules are compiled.

Mirrors ``k8s.io/apiserver`` v0.36:

* ``pkg/cel/common/schemas.go`` ``SchemaDeclType`` (through the
  apiextensions adaptor ``pkg/apiserver/schema/cel/model``): objects with
  properties become object types whose fields are the escaped property names,
  maps (``additionalProperties``) ``map(string, V)``, arrays ``list(E)``,
  ``int-or-string`` ``dyn``, strings with formats ``byte``/``duration``/
  ``date``/``date-time`` bytes/duration/timestamp; each type carries
  ``MaxElements`` (``maxLength`` x 4, ``maxItems``, ``maxProperties``, or the
  estimates from the 3 MiB request limit) and ``MinSerializedSize``;
* ``pkg/cel/types.go``: ``DeclType``, ``MaybeAssignTypeName`` (object types
  named ``<root>.<field>``, ``.@idx``, ``.@elem``), ``DeclTypeProvider``
  (field lookup with the reserved-word fallback ``namespace`` ->
  ``__namespace__``);
* ``pkg/cel/escaping.go`` ``Escape``;
* ``model.WithTypeAndObjectMeta`` for resource roots and embedded resources.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from crdtool.core.celgo import types as T
from crdtool.core.celgo.checker import NoStructs
from crdtool.core.releases import DEFAULT_RELEASE
from crdtool.core.schema.structural import Generic, Structural, ValueValidation

_REGISTRY = NoStructs()

__all__ = [
    "DeclField",
    "DeclType",
    "DeclTypeProvider",
    "MAX_REQUEST_SIZE_BYTES",
    "escape",
    "schema_decl_type",
    "with_type_and_object_meta",
]

#: ``celconfig.MaxRequestSizeBytes``.
MAX_REQUEST_SIZE_BYTES = 3 * 1024 * 1024
# pkg/cel/limits.go
MAX_DURATION_SIZE_JSON = 32
MAX_DATETIME_SIZE_JSON = 32
MIN_DURATION_SIZE_JSON = 3
JSON_DATE_SIZE = 12
MIN_DATETIME_SIZE_JSON = 21
MIN_STRING_SIZE = 2
MIN_BOOL_SIZE = 4
MIN_NUMBER_SIZE = 1

_RESERVED = frozenset(
    "true false null in as break const continue else for function if import let loop package namespace "
    "return var void while".split()
)
_EXPAND = re.compile(r"__|[-./]|[^a-zA-Z0-9\-./_]")
_ESCAPES = {"__": "__underscores__", ".": "__dot__", "-": "__dash__", "/": "__slash__"}


def escape(ident: str) -> str | None:
    """``cel.Escape``: a property name as a CEL identifier, or None when it cannot be escaped."""
    if not ident or "0" <= ident[0] <= "9":
        return None
    if ident in _RESERVED:
        return f"__{ident}__"
    ok = True

    def repl(m: re.Match[str]) -> str:
        nonlocal ok
        s = m.group(0)
        if s in _ESCAPES:
            return _ESCAPES[s]
        ok = False
        return ""

    out = _EXPAND.sub(repl, ident)
    return out if ok else None


@dataclass(eq=False)
class DeclField:
    """``cel.DeclField``: a field's name (escaped), type and whether it is required."""

    name: str
    type: DeclType
    required: bool = False


@dataclass(eq=False)
class DeclType:
    """``cel.DeclType``: a CEL type with the sizes used by cost estimation.

    ``fields`` is set for objects, ``elem_type`` for lists and maps,
    ``key_type`` for maps. ``max_elements`` bounds the string length, list
    length or map size; ``min_serialized_size`` is the smallest JSON the value
    can serialize to.
    """

    name: str
    cel_type: T.Type
    fields: dict[str, DeclField] | None = None
    key_type: DeclType | None = None
    elem_type: DeclType | None = None
    max_elements: int = 0
    min_serialized_size: int = 0

    def is_list(self) -> bool:
        return self.key_type is None and self.elem_type is not None and self.fields is None

    def is_map(self) -> bool:
        return self.key_type is not None and self.elem_type is not None and self.fields is None

    def is_object(self) -> bool:
        return self.key_type is None and self.elem_type is None and self.fields is not None

    def maybe_assign_type_name(self, name: str) -> DeclType:
        """``DeclType.MaybeAssignTypeName`` (iterative: schemas may nest thousands deep)."""
        # Post-order over (type, assigned name); results by identity of the input type.
        out: dict[int, DeclType] = {}
        stack: list[tuple[DeclType, str, bool]] = [(self, name, False)]
        while stack:
            t, n, done = stack.pop()
            if t.is_object():
                assert t.fields is not None
                base = n if t.name == "object" else t.name
                if not done:
                    stack.append((t, n, True))
                    stack.extend((f.type, f"{base}.{fname}", False) for fname, f in t.fields.items())
                    continue
                updated = t.name == "object"
                fields: dict[str, DeclField] = {}
                for fname, f in t.fields.items():
                    new_type = out[id(f.type)]
                    if new_type is f.type:
                        fields[fname] = f
                        continue
                    updated = True
                    fields[fname] = DeclField(fname, new_type, f.required)
                out[id(t)] = t if not updated else DeclType(
                    base, T.object_type(base), fields, t.key_type, t.elem_type, t.max_elements, t.min_serialized_size
                )
            elif t.is_map() or t.is_list():
                assert t.elem_type is not None
                if not done:
                    stack.append((t, n, True))
                    stack.append((t.elem_type, f"{n}.@elem" if t.is_map() else f"{n}.@idx", False))
                    continue
                elem = out[id(t.elem_type)]
                if elem is t.elem_type:
                    out[id(t)] = t
                elif t.is_map():
                    assert t.key_type is not None
                    out[id(t)] = _map_type(t.key_type, elem, t.max_elements)
                else:
                    out[id(t)] = _list_type(elem, t.max_elements)
            else:
                out[id(t)] = t
        return out[id(self)]


def _list_type(elem: DeclType, max_items: int) -> DeclType:
    return DeclType("list", T.list_of(elem.cel_type), elem_type=elem, max_elements=max_items, min_serialized_size=2)


def _map_type(key: DeclType, elem: DeclType, max_props: int) -> DeclType:
    return DeclType(
        "map", T.map_of(key.cel_type, elem.cel_type), key_type=key, elem_type=elem, max_elements=max_props,
        min_serialized_size=2,
    )


def _simple(name: str, cel_type: T.Type, min_size: int, max_elements: int = 0) -> DeclType:
    return DeclType(name, cel_type, max_elements=max_elements, min_serialized_size=min_size)


# The shared scalar DeclTypes (pkg/cel/types.go); MaxElements 0.
BOOL_DECL = _simple("bool", T.BOOL, MIN_BOOL_SIZE)
DOUBLE_DECL = _simple("double", T.DOUBLE, MIN_NUMBER_SIZE)
INT_DECL = _simple("int", T.INT, MIN_NUMBER_SIZE)
STRING_DECL = _simple("string", T.STRING, MIN_STRING_SIZE)

_STRING_SCHEMA = Structural(generic=Generic(type="string"))


#: ``model.WithTypeAndObjectMeta`` caps ``metadata.name`` at ``maxLength`` 253 (``DNS1123SubdomainMaxLength``) and
#: ``metadata.generateName`` at 252, keeping a smaller ``maxLength`` the schema declares, from v0.37.0-beta.0
#: (apiextensions-apiserver ``pkg/apiserver/schema/cel/model/schemas.go``, ``cappedLengthStringType``); until v0.36
#: both are plain strings (sized by the request limit).
_NAME_CAPS_SINCE = 37
_NAME_MAX_LENGTH = 253

#: ``x-kubernetes-int-or-string`` takes its ``MaxElements`` from ``maxLength`` (×4) when it has one, from v0.34.0
#: (k8s.io/apiserver ``pkg/cel/common/schemas.go``, commit 76004fdd7); until v0.33 always the request size − 2.
_INT_OR_STRING_MAX_LENGTH_SINCE = 34

_NEWEST = DEFAULT_RELEASE.minor


def _capped_length_string(existing: Structural | None, max_length: int) -> Structural:
    """``cappedLengthStringType``."""
    if existing is not None and existing.value_validation is not None:
        declared = existing.value_validation.max_length
        if declared is not None and declared < max_length:
            max_length = declared
    return Structural(generic=Generic(type="string"), value_validation=ValueValidation(max_length=max_length))


def with_type_and_object_meta(s: Structural, minor: int = _NEWEST) -> Structural:
    """``model.WithTypeAndObjectMeta`` of Kubernetes 1.``minor``: declare ``kind``, ``apiVersion`` and
    ``metadata.{name,generateName}``.

    Returns ``s`` itself when it already declares them all as strings (and
    ``metadata`` as an object); otherwise a copy with those properties set
    (``metadata`` replaced by an object with only ``name`` and ``generateName``, capped in length from 1.37).
    """
    props = s.properties
    meta = props.get("metadata")
    if (
        props
        and _prop_type(props, "kind") == "string"
        and _prop_type(props, "apiVersion") == "string"
        and meta is not None
        and meta.type == "object"
        and meta.properties
        and _prop_type(meta.properties, "name") == "string"
        and _prop_type(meta.properties, "generateName") == "string"
    ):
        return s
    new_props = dict(props)
    new_props["kind"] = _STRING_SCHEMA
    new_props["apiVersion"] = _STRING_SCHEMA
    if minor >= _NAME_CAPS_SINCE:
        meta_props = meta.properties if meta is not None else {}
        name = _capped_length_string(meta_props.get("name"), _NAME_MAX_LENGTH)
        generate_name = _capped_length_string(meta_props.get("generateName"), _NAME_MAX_LENGTH - 1)
    else:
        name = generate_name = _STRING_SCHEMA
    new_props["metadata"] = Structural(
        generic=Generic(type="object"), properties={"name": name, "generateName": generate_name}
    )
    return Structural(
        generic=s.generic,
        extensions=s.extensions,
        value_validation=s.value_validation,
        items=s.items,
        properties=new_props,
        additional_properties=s.additional_properties,
    )


def _prop_type(props: dict[str, Structural], name: str) -> str:
    p = props.get(name)
    return p.type if p is not None else ""


def _max_length(s: Structural) -> int | None:
    return s.value_validation.max_length if s.value_validation is not None else None


def _format(s: Structural) -> str:
    return s.value_validation.format if s.value_validation is not None else ""


def _zero_if_negative(v: int) -> int:
    return max(v, 0)


def _estimate_max_string_length_per_request(s: Structural) -> int:
    if s.extensions.x_int_or_string:
        return MAX_REQUEST_SIZE_BYTES - 2
    fmt = _format(s)
    if fmt == "duration":
        return MAX_DURATION_SIZE_JSON
    if fmt == "date":
        return JSON_DATE_SIZE
    if fmt == "date-time":
        return MAX_DATETIME_SIZE_JSON
    return MAX_REQUEST_SIZE_BYTES - 2


def schema_decl_type(s: Structural | None, is_resource_root: bool, minor: int = _NEWEST) -> DeclType | None:
    """``common.SchemaDeclType`` of Kubernetes 1.``minor``: the CEL type of a structural schema node, or None if CEL
    cannot describe it.

    ``is_resource_root``: the node is a resource root or an embedded resource
    (``apiVersion``, ``kind`` and ``metadata.name``/``generateName`` added, as ``release`` adds them).
    Iterative (post-order), so schemas nested thousands deep are fine.
    """
    if s is None:
        return None
    done: dict[tuple[int, bool], DeclType | None] = {}
    views: dict[tuple[int, bool], Structural] = {}
    stack: list[tuple[Structural, bool, bool]] = [(s, is_resource_root, False)]
    while stack:
        orig, root, expanded = stack.pop()
        key = (id(orig), root)
        if not expanded and key in done:
            continue
        view = views.get(key)
        if view is None:
            view = with_type_and_object_meta(orig, minor) if root and not orig.extensions.x_int_or_string else orig
            views[key] = view
        children = _decl_children(view)
        if not expanded:
            stack.append((orig, root, True))
            stack.extend((c, c.extensions.x_embedded_resource, False) for c in children)
            continue
        done[key] = _decl_node(view, {id(c): done[(id(c), c.extensions.x_embedded_resource)] for c in children},
                               minor)
    return done[(id(s), is_resource_root)]


def _decl_children(s: Structural) -> list[Structural]:
    if s.extensions.x_int_or_string:
        return []
    if s.type == "array":
        return [s.items] if s.items is not None else []
    if s.type == "object":
        ap = s.additional_properties_schema
        if ap is not None:
            return [ap]
        return list(s.properties.values())
    return []


def _decl_node(  # noqa: C901 - one case per type
    s: Structural, child: dict[int, DeclType | None], minor: int = _NEWEST
) -> DeclType | None:
    """One node of ``SchemaDeclType``, its children's types given (``s`` already has type/object meta)."""
    if s.extensions.x_int_or_string:
        max_length = _max_length(s)
        if max_length is not None and minor >= _INT_OR_STRING_MAX_LENGTH_SINCE:
            max_el = _zero_if_negative(max_length) * 4
        else:
            max_el = _estimate_max_string_length_per_request(s)
        return _simple("dyn", T.DYN, 1, max_el)
    t = s.type
    vv = s.value_validation
    if t == "array":
        if s.items is None:
            return None
        items = child[id(s.items)]
        if items is None:
            return None
        if vv is not None and vv.max_items is not None:
            max_items = _zero_if_negative(vv.max_items)
        else:
            max_items = (MAX_REQUEST_SIZE_BYTES - 2) // (items.min_serialized_size + 1)
        return _list_type(items, max_items)
    if t == "object":
        ap = s.additional_properties_schema
        if ap is not None:
            props = child[id(ap)]
            if props is None:
                return None
            if vv is not None and vv.max_properties is not None:
                max_props = _zero_if_negative(vv.max_properties)
            else:
                max_props = (MAX_REQUEST_SIZE_BYTES - 2) // (props.min_serialized_size + 6)
            return _map_type(STRING_DECL, props, max_props)
        required = set(vv.required) if vv is not None else set()
        fields: dict[str, DeclField] = {}
        min_size = 2
        for name, prop in s.properties.items():
            ft = child[id(prop)]
            if ft is None:
                continue
            escaped = escape(name)
            if escaped is not None:
                fields[escaped] = DeclField(escaped, ft, name in required)
            if name in required and prop.generic.default is None:
                min_size += len(name.encode("utf-8")) + ft.min_serialized_size + 4
        return DeclType("object", T.object_type("object"), fields=fields, min_serialized_size=min_size)
    if t == "string":
        fmt = _format(s)
        max_length = _max_length(s)
        if fmt == "byte":
            max_el = _zero_if_negative(max_length) if max_length is not None else _estimate_max_string_length_per_request(s)
            return _simple("bytes", T.BYTES, MIN_STRING_SIZE, max_el)
        if fmt == "duration":
            return _simple("duration", T.DURATION, MIN_DURATION_SIZE_JSON, _estimate_max_string_length_per_request(s))
        if fmt == "date":
            return _simple("timestamp", T.TIMESTAMP, JSON_DATE_SIZE, _estimate_max_string_length_per_request(s))
        if fmt == "date-time":
            return _simple(
                "timestamp", T.TIMESTAMP, MIN_DATETIME_SIZE_JSON, _estimate_max_string_length_per_request(s)
            )
        if max_length is not None:
            max_el = _zero_if_negative(max_length) * 4
        elif vv is not None and vv.enum:
            max_el = max((len(v.encode("utf-8")) for v in vv.enum if isinstance(v, str)), default=0)
        else:
            max_el = _estimate_max_string_length_per_request(s)
        return _simple("string", T.STRING, MIN_STRING_SIZE, max_el)
    if t == "boolean":
        return BOOL_DECL
    if t == "number":
        return DOUBLE_DECL
    if t == "integer":
        return INT_DECL
    return None


@dataclass
class DeclTypeProvider:
    """``cel.DeclTypeProvider`` over one root type, with ``SetRecognizeKeywordAsFieldName(true)``.

    Struct lookups find the root's object types by name (``FieldTypeMap``),
    then the Kubernetes libraries' object types.
    """

    root: DeclType
    recognize_keyword_as_field_name: bool = True
    registered: dict[str, DeclType] = field(default_factory=dict)

    def __post_init__(self) -> None:
        path = self.root.name
        self._build(path, self.root)

    def _build(self, path: str, t: DeclType) -> None:
        """``buildDeclTypes``."""
        stack = [(path, t)]
        while stack:
            p, d = stack.pop()
            if d.is_object():
                assert d.fields is not None
                self.registered[d.name] = d
                for name, f in d.fields.items():
                    stack.append((f"{p}.{name}", f.type))
            if d.is_map():
                assert d.elem_type is not None
                stack.append((f"{p}.@elem", d.elem_type))
                self.registered[p] = d
            if d.is_list():
                assert d.elem_type is not None
                stack.append((f"{p}.@idx", d.elem_type))
                self.registered[p] = d

    def _find(self, name: str) -> DeclType | None:
        return self.registered.get(name)

    def find_struct_type(self, name: str) -> T.Type | None:
        d = self._find(name)
        if d is not None:
            return d.cel_type
        return _REGISTRY.find_struct_type(name)

    def find_enum_value(self, name: str) -> bool:
        return _REGISTRY.find_enum_value(name)

    def find_struct_field_type(self, struct_name: str, field_name: str) -> T.Type | None:
        d = self._find(struct_name)
        if d is None:
            return _REGISTRY.find_struct_field_type(struct_name, field_name)
        f = d.fields.get(field_name) if d.fields is not None else None
        if f is None and self.recognize_keyword_as_field_name and field_name in _RESERVED and d.fields is not None:
            f = d.fields.get(f"__{field_name}__")
        if f is not None:
            return f.type.cel_type
        if d.is_map():
            assert d.elem_type is not None
            return d.elem_type.cel_type
        return None
