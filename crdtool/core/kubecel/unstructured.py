"""Custom-resource data as CEL values, converted lazily as the apiserver converts them.

Mirrors ``k8s.io/apiserver`` v0.36 ``pkg/cel/common/valuesunstructured.go``:
:func:`unstructured_to_val` is ``UnstructuredToVal`` — a value is converted
only when a rule touches it (a field selection, ``has()``, ``in``, an index, an
iteration, an equality), so bad data surfaces as an error value exactly where
upstream's does (``invalid data, expected int, got float64``, ``expected a map
for the provided schema with type=object``, ``got null for schema with
nullable=false`` ...). The value types are upstream's:

* :class:`UnstructuredMap` (``unstructuredMap``): objects with properties
  (property names escaped, null fields absent, ``size()`` counting every key,
  iteration yielding ``null`` for keys the schema does not declare), maps
  with ``additionalProperties`` and schemaless objects;
* :class:`UnstructuredList` (``unstructuredList``) and its ``set`` and ``map``
  list-type variants, whose ``==`` ignores order and whose ``+`` is a union
  or a merge by key;
* :class:`UnknownPreserved` (``unknownPreserved``) for
  ``x-kubernetes-preserve-unknown-fields`` data without a type.

:class:`NativeMap` and :class:`NativeList` are cel-go's ``NewStringInterfaceMap``
and ``NewDynamicList``: raw JSON data adapted without a schema, as upstream
meets it when an optional's value is unwrapped (``oldSelf.value()`` of an
``optionalOldSelf`` rule, ``x.?f`` on an optional).
"""

from __future__ import annotations

import base64
import binascii
import re
from typing import Any, Iterator

from crdtool.core.celgo import values as V
from crdtool.core.kubecel.decltype import escape
from crdtool.core.kubecel.equality import deep_equal
from crdtool.core.kubecel.decltype import with_type_and_object_meta
from crdtool.core.celgo.values import Err, NativeList, NativeMap, adapt_native
from crdtool.core.schema.structural import Structural

__all__ = ["NativeList", "NativeMap", "UnknownPreserved", "UnstructuredList", "UnstructuredMap", "adapt_native",
           "deep_equal", "go_type_of", "unescape", "unstructured_to_val"]


# --- Go names of JSON data --------------------------------------------------------------------------


def go_type_of(v: Any) -> str:
    """Go's ``%T`` of decoded JSON data (``int64`` for integers, as apimachinery decodes them)."""
    t = type(v)
    if t is str:
        return "string"
    if t is bool:
        return "bool"
    if t is int:
        return "int64"
    if t is float:
        return "float64"
    if t is dict:
        return "map[string]interface {}"
    if t is list:
        return "[]interface {}"
    if v is None:
        return "<nil>"
    return t.__name__


# --- cel.Unescape --------------------------------------------------------------------------------------

_UNEXPAND = re.compile(r"(_{2}[^_]+_{2})")
_UNESCAPES = {"underscores": "__", "dot": ".", "dash": "-", "slash": "/"}
_RESERVED = frozenset({"true", "false", "null", "in", "as", "break", "const", "continue", "else", "for", "function",
                       "if", "import", "let", "loop", "package", "namespace", "return", "var", "void", "while"})


def unescape(escaped: str) -> str | None:
    """``cel.Unescape``: the property name of a CEL field name, or None."""
    if "__" not in escaped:
        return escaped
    ok = True

    def repl(m: re.Match[str]) -> str:
        nonlocal ok
        s = m.group(0)
        contents = s[2:-2]
        hit = _UNESCAPES.get(contents)
        if hit is not None:
            return hit
        if contents in _RESERVED:
            if len(s) != len(escaped):
                ok = False
            return contents
        ok = False
        return ""

    out = _UNEXPAND.sub(repl, escaped)
    return out if ok else None


# --- UnstructuredToVal ------------------------------------------------------------------------------------


def unstructured_to_val(value: Any, schema: Structural) -> Any:  # noqa: C901 - mirrors UnstructuredToVal
    """``UnstructuredToVal``: a CEL value (or an error value) for data of this schema node."""
    if value is None:
        if schema.generic.nullable:
            return None
        return Err("invalid data, got null for schema with nullable=false")
    ext = schema.extensions
    if ext.x_int_or_string:
        t = type(value)
        if t is str or t is int:
            return value
        return Err("invalid data, expected XIntOrString value to be either a string or integer")
    typ = schema.generic.type
    if typ == "object":
        if type(value) is not dict:
            return Err("invalid data, expected a map for the provided schema with type=object")
        if ext.x_embedded_resource or schema.properties:
            if ext.x_embedded_resource:
                schema = with_type_and_object_meta(schema)
            return UnstructuredMap(value, schema, _OBJECT)
        ap = schema.additional_properties_schema
        if ap is not None:
            return UnstructuredMap(value, schema, _ADDITIONAL)
        return UnstructuredMap(value, schema, _EMPTY)
    if typ == "array":
        if type(value) is not list:
            return Err("invalid data, expected an array for the provided schema with type=array")
        items = schema.items
        if items is None:
            return Err("invalid array type, expected Items with a non-empty Schema")
        lt = ext.x_list_type
        if lt:
            if lt == "map":
                return UnstructuredMapList(value, items, tuple(escape(k) or k for k in ext.x_list_map_keys))
            if lt == "set":
                return UnstructuredSetList(value, items)
            if lt == "atomic":
                return UnstructuredList(value, items)
            return Err(f"invalid x-kubernetes-list-type, expected 'map', 'set' or 'atomic' but got {lt}")
        return UnstructuredList(value, items)
    if typ == "string":
        if type(value) is not str:
            return Err(f"invalid data, expected string, got {go_type_of(value)}")
        vv = schema.value_validation
        fmt = vv.format if vv is not None else ""
        if fmt:
            return _format_string(value, fmt)
        return value
    if typ == "number":
        t = type(value)
        if t is float:
            return value
        if t is int:
            return float(value)
        return Err(f"invalid data, expected float, got {go_type_of(value)}")
    if typ == "integer":
        if type(value) is int:
            return value
        return Err(f"invalid data, expected int, got {go_type_of(value)}")
    if typ == "boolean":
        if type(value) is not bool:
            return Err(f"invalid data, expected bool, got {go_type_of(value)}")
        return value
    if ext.x_preserve_unknown_fields:
        return UnknownPreserved(value)
    return Err("invalid type, expected object, array, number, integer, boolean or string, or no type with "
               f"x-kubernetes-int-or-string or x-kubernetes-preserve-unknown-fields is true, got {typ}")


def _format_string(s: str, fmt: str) -> Any:
    """The ``duration``, ``date``, ``date-time`` and ``byte`` formats of string data."""
    from crdtool.core.kubecel import strfmt

    if fmt == "duration":
        d = strfmt.parse_duration(s)
        if isinstance(d, str):
            return Err(f"Invalid duration {s}: {d}")
        return V.Duration(d)
    if fmt == "date":
        t = strfmt.parse_full_date(s)
        if isinstance(t, str):
            return Err(f"Invalid date formatted string {s}: {t}")
        return t
    if fmt == "date-time":
        t = strfmt.parse_date_time(s)
        if isinstance(t, str):
            return Err(f"Invalid date-time formatted string {s}: {t}")
        return t
    if fmt == "byte":
        b = strfmt.parse_base64(s)
        if isinstance(b, str):
            return Err(f"Invalid byte formatted string {s}: {b}")
        return b
    return s


UNKNOWN_TYPE = V.UNKNOWN_TYPE


class UnknownPreserved:
    """``unknownPreserved``: untyped preserved data; only equality is supported."""

    __slots__ = ("u",)
    cel_type = UNKNOWN_TYPE
    go_type = "*common.unknownPreserved"

    def __init__(self, u: Any) -> None:
        self.u = u

    def equal(self, other: Any) -> Any:
        return deep_equal(self.u, V.native_value(other))

    def native(self) -> Any:
        return self.u

    def convert_to_type(self, t: V.TypeValue) -> Any:
        return Err(f"type conversion to '{t.name}' not supported for values preserved by "
                   "x-kubernetes-preserve-unknown-fields")


# --- maps -------------------------------------------------------------------------------------------------

_OBJECT, _ADDITIONAL, _EMPTY = 0, 1, 2


class UnstructuredMap(V.MapValue):
    """``unstructuredMap``: an object (``kind`` 0), a map (1) or an object without fields (2)."""

    __slots__ = ("value", "schema", "kind")
    go_type = "*common.unstructuredMap"

    def __init__(self, value: dict[str, Any], schema: Structural, kind: int) -> None:
        self.value = value
        self.schema = schema
        self.kind = kind

    def prop_schema(self, key: str) -> Structural | None:
        if self.kind == _OBJECT:
            return self.schema.properties.get(key)
        if self.kind == _ADDITIONAL:
            return self.schema.additional_properties_schema
        return None

    def size(self) -> int:
        return len(self.value)

    def find(self, key: Any) -> tuple[Any, bool]:
        if type(key) is not str:
            return V.maybe_no_such_overload(key), True
        is_object = bool(self.schema.properties)
        k: str | None = key
        if is_object:
            k = unescape(key)
            if k is None:
                return None, False
        value = self.value
        if k in value:
            v = value[k]
            if is_object and v is None:
                return None, False
            ps = self.prop_schema(k)
            if ps is not None:
                return unstructured_to_val(v, ps), True
        return None, False

    def contains(self, key: Any) -> Any:
        v, found = self.find(key)
        if type(v) is Err:
            return v
        return found

    def get(self, key: Any) -> Any:
        v, found = self.find(key)
        if found:
            return v
        return V.val_or_err(key, f"no such key: {V.go_format_value(key)}")

    def keys(self) -> list[Any]:
        is_object = bool(self.schema.properties)
        known: list[Any] = []
        for k in self.value:
            if self.prop_schema(k) is not None:
                known.append((escape(k) or k) if is_object else k)
        # the iterator's key slice has len(value) entries; the unknown keys' slots stay nil (null)
        return known + [None] * (len(self.value) - len(known))

    def equal(self, other: Any) -> Any:
        if not isinstance(other, V.MapValue):
            return V.maybe_no_such_overload(other)
        if self.size() != other.size():
            return False
        for key, value in self.value.items():
            if self.prop_schema(key) is not None:
                v, found = self.find(key)
                ov, ofound = other.find(key)
                if found != ofound:
                    return False
                if not found:
                    continue
                eq = V.value_equal(v, ov)
                if eq is not True:
                    return eq
            else:
                if not isinstance(other, UnstructuredMap):
                    return V.maybe_no_such_overload(other)
                if key in other.value and not deep_equal(value, other.value[key]):
                    return False
        return True

    def fold_entries(self) -> Iterator[tuple[Any, Any]]:
        for k in self.keys():
            yield k, self.get(k)

    def native(self) -> Any:
        return self.value


# --- lists ------------------------------------------------------------------------------------------------


class UnstructuredList(V.ListValue):
    """``unstructuredList`` (``x-kubernetes-list-type: atomic`` or unset)."""

    __slots__ = ("elements", "items_schema")
    go_type = "*common.unstructuredList"

    def __init__(self, elements: list[Any], items_schema: Structural) -> None:
        self.elements = elements
        self.items_schema = items_schema

    def size(self) -> int:
        return len(self.elements)

    def get(self, index: Any) -> Any:
        if type(index) is not int:
            return V.val_or_err(index, f"unsupported index: {V.go_format_value(index)}")
        if index < 0 or index >= len(self.elements):
            return Err(f"index out of bounds: {index}")
        return unstructured_to_val(self.elements[index], self.items_schema)

    def items(self) -> list[Any]:
        s = self.items_schema
        return [unstructured_to_val(e, s) for e in self.elements]

    def contains(self, val: Any) -> Any:
        if type(val) is Err:
            return val
        err = None
        s = self.items_schema
        for e in self.elements:
            elem = unstructured_to_val(e, s)
            cmp = V.value_equal(elem, val)
            if type(cmp) is not bool and err is None:
                err = V.maybe_no_such_overload(cmp)
            if cmp is True:
                return True
        if err is not None:
            return err
        return False

    def equal(self, other: Any) -> Any:
        if not isinstance(other, V.ListValue):
            return V.maybe_no_such_overload(other)
        n = len(self.elements)
        if n != other.size():
            return False
        for i in range(n):
            eq = V.value_equal(self.get(i), other.get(i))
            if eq is not True:
                return eq
        return True

    def add(self, other: Any) -> Any:
        if not isinstance(other, V.ListValue):
            return V.maybe_no_such_overload(other)
        elements = self.elements + [V.native_value(v) for v in other.items()]
        return UnstructuredList(elements, self.items_schema)

    def fold_entries(self) -> Iterator[tuple[Any, Any]]:
        for i in range(len(self.elements)):
            yield i, self.get(i)

    def native(self) -> Any:
        return self.elements


def _hashable(v: Any) -> Any:
    """A Go map key for scalar JSON data (set elements), preserving Go type identity (1 vs 1.0)."""
    t = type(v)
    if t in (str, int, float, bool) or v is None:
        return (t.__name__, v)
    if t is dict or t is list:
        raise TypeError("unhashable")
    return (t.__name__, id(v))


class UnstructuredSetList(UnstructuredList):
    """``unstructuredSetList``: ``==`` ignores order, ``+`` is a union."""

    __slots__ = ("_set",)
    go_type = "*common.unstructuredSetList"

    def __init__(self, elements: list[Any], items_schema: Structural) -> None:
        super().__init__(elements, items_schema)
        self._set: set[Any] | None = None

    def get_set(self) -> set[Any]:
        if self._set is None:
            self._set = {_hashable(e) for e in self.elements}
        return self._set

    def equal(self, other: Any) -> Any:
        if not isinstance(other, V.ListValue):
            return V.maybe_no_such_overload(other)
        if len(self.elements) != other.size():
            return False
        s = self.get_set()
        for v in other.items():
            try:
                if _hashable(V.native_value(v)) not in s:
                    return False
            except TypeError:
                return False
        return True

    def add(self, other: Any) -> Any:
        if not isinstance(other, V.ListValue):
            return V.maybe_no_such_overload(other)
        elements = list(self.elements)
        s = self.get_set()
        for v in other.items():
            nv = V.native_value(v)
            try:
                h = _hashable(nv)
            except TypeError:
                elements.append(nv)
                continue
            if h not in s:
                s.add(h)
                elements.append(nv)
        return UnstructuredSetList(elements, self.items_schema)


class UnstructuredMapList(UnstructuredList):
    """``unstructuredMapList``: ``==`` matches entries by their map keys, ``+`` merges by key."""

    __slots__ = ("escaped_key_props", "_map")
    go_type = "*common.unstructuredMapList"

    def __init__(self, elements: list[Any], items_schema: Structural, escaped_key_props: tuple[str, ...]) -> None:
        super().__init__(elements, items_schema)
        self.escaped_key_props = escaped_key_props
        self._map: dict[Any, Any] | None = None

    def to_map_key(self, element: Any) -> Any:
        if type(element) is not dict:
            return ("err", f"unexpected data format for element of array with x-kubernetes-list-type=map: "
                           f"{go_type_of(element)}")
        keys = self.escaped_key_props
        if len(keys) <= 3:
            return tuple(_key_part(element.get(k)) for k in keys)
        return ("fmt", str([_key_part(element.get(k)) for k in keys]))

    def get_map(self) -> dict[Any, Any]:
        if self._map is None:
            self._map = {self.to_map_key(e): e for e in self.elements}
        return self._map

    def equal(self, other: Any) -> Any:
        if not isinstance(other, V.ListValue):
            return V.maybe_no_such_overload(other)
        if len(self.elements) != other.size():
            return False
        m = self.get_map()
        for v in other.items():
            k = self.to_map_key(V.native_value(v))
            if k not in m:
                return False
            eq = V.value_equal(unstructured_to_val(m[k], self.items_schema), v)
            if eq is not True:
                return eq
        return True

    def add(self, other: Any) -> Any:
        if not isinstance(other, V.ListValue):
            return V.maybe_no_such_overload(other)
        elements = list(self.elements)
        key_to_idx = {self.to_map_key(e): i for i, e in enumerate(self.elements)}
        for v in other.items():
            nv = V.native_value(v)
            k = self.to_map_key(nv)
            pos = key_to_idx.get(k)
            if pos is not None:
                elements[pos] = nv
            else:
                elements.append(nv)
        return UnstructuredMapList(elements, self.items_schema, self.escaped_key_props)


def _key_part(v: Any) -> Any:
    try:
        return _hashable(v)
    except TypeError:
        return ("id", id(v))


def _b64(s: str) -> bytes | None:
    try:
        return base64.b64decode(s, validate=True)
    except (binascii.Error, ValueError):
        return None
