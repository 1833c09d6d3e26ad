"""Custom-resource data as CEL values, converted lazily as the apiserver converts them.

Mirrors ``k8s.io/apiserver`` ``pkg/cel/common/valuesunstructured.go`` (``values.go`` until v0.33) of the release
given as ``minor`` (default: the newest); the differences between releases are the switches
:data:`_MAP_EQUAL_NULLS_SINCE` and :data:`_CEL_VALUE_LISTS_SINCE`:
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
from crdtool.core.releases import DEFAULT_RELEASE
from crdtool.core.schema.structural import Structural

#: ``unstructuredMap.Equal`` reads both sides through ``Find``, so a declared property whose value is null is absent
#: on both sides (``pkg/cel/common/valuesunstructured.go@v0.34.0``, commit c199f9d39); until v0.33 it looked the key up
#: in the other map only (``values.go@v0.33.13``), and a null there is "not found": ``{a: null} == {a: null}`` is false.
_MAP_EQUAL_NULLS_SINCE = 34

#: ``valuesunstructured.go@v0.37.0-beta.0`` (commits b202c1600, 05d835cf0): ``+`` of lists builds CEL values
#: (``types.NewRefValList`` for atomic lists, ``refValSetList``/``refValMapList`` keeping set and map-list semantics),
#: set elements are keyed by their converted value (``setElementKey``: an error for lists and maps), set and map-list
#: ``==`` count the distinct keys seen, and map-list keys of more than 3 properties print with ``%#v``. Until v0.36,
#: ``+`` appended the right operand's raw ``Value()``s to a list re-read with the left operand's schema, sets hashed
#: raw data (a Go panic for non-scalar elements) and ``Add`` of a set list added to the receiver's cached set.
_CEL_VALUE_LISTS_SINCE = 37

_NEWEST = DEFAULT_RELEASE.minor

__all__ = ["GO_NULL", "NativeList", "NativeMap", "RefValMapList", "RefValSetList", "UnknownPreserved",
           "UnstructuredList", "UnstructuredMap", "adapt_native", "deep_equal", "go_sharp_v", "go_sprint_v", "go_type_of",
           "unescape", "unstructured_to_val"]


# --- Go names of JSON data --------------------------------------------------------------------------


#: Go's ``%T`` of what a CEL value's ``Value()`` returns, for the values ``+`` appended raw until v0.36.
_GO_VALUE_TYPES: dict[type, str] = {
    bytes: "[]uint8", V.Uint: "uint64", V.Duration: "time.Duration", V.Timestamp: "time.Time",
    V.TypeValue: "*types.Type",
}


class GoNull:
    """``types.NullValue.Value()``: ``structpb.NullValue_NULL_VALUE`` (not Go's ``nil``), as ``+`` appended a CEL
    ``null`` until v0.36."""

    __slots__ = ()
    go_type = "structpb.NullValue"


GO_NULL = GoNull()


def go_type_of(v: Any) -> str:
    """Go's ``%T`` of decoded JSON data (``int64`` for integers, as apimachinery decodes them) and of the raw
    ``Value()`` of CEL values (``time.Duration``, ``map[ref.Val]ref.Val`` of a map literal ...)."""
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
    name = _GO_VALUE_TYPES.get(t)
    if name is not None:
        return name
    if isinstance(v, V.ListValue):
        return "[]ref.Val"
    if isinstance(v, V.MapValue):
        return "map[ref.Val]ref.Val"
    go = getattr(v, "go_value_type", None) or getattr(v, "go_type", None)
    return go if isinstance(go, str) else t.__name__


def _raw_value(v: Any) -> Any:
    """``v.Value()`` of a CEL value as ``+`` appended it until v0.36: JSON data for unstructured values, the Go value
    otherwise (:data:`GO_NULL` for ``null``)."""
    if v is None:
        return GO_NULL
    return V.native_value(v)


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


def unstructured_to_val(value: Any, schema: Structural, minor: int = _NEWEST) -> Any:  # noqa: C901 - mirrors UnstructuredToVal
    """``UnstructuredToVal`` of Kubernetes 1.``minor``: a CEL value (or an error value) for data of this schema node."""
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
                schema = with_type_and_object_meta(schema, minor)
            return UnstructuredMap(value, schema, _OBJECT, minor)
        ap = schema.additional_properties_schema
        if ap is not None:
            return UnstructuredMap(value, schema, _ADDITIONAL, minor)
        return UnstructuredMap(value, schema, _EMPTY, minor)
    if typ == "array":
        if type(value) is not list:
            return Err("invalid data, expected an array for the provided schema with type=array")
        items = schema.items
        if items is None:
            return Err("invalid array type, expected Items with a non-empty Schema")
        lt = ext.x_list_type
        if lt:
            if lt == "map":
                return UnstructuredMapList(value, items, tuple(escape(k) or k for k in ext.x_list_map_keys), minor)
            if lt == "set":
                return UnstructuredSetList(value, items, minor)
            if lt == "atomic":
                return UnstructuredList(value, items, minor)
            return Err(f"invalid x-kubernetes-list-type, expected 'map', 'set' or 'atomic' but got {lt}")
        return UnstructuredList(value, items, minor)
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

    __slots__ = ("value", "schema", "kind", "minor")
    go_type = "*common.unstructuredMap"

    def __init__(self, value: dict[str, Any], schema: Structural, kind: int, minor: int = _NEWEST) -> None:
        self.value = value
        self.schema = schema
        self.kind = kind
        self.minor = minor

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
                return unstructured_to_val(v, ps, self.minor), True
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
        nulls_absent = self.minor >= _MAP_EQUAL_NULLS_SINCE
        for key, value in self.value.items():
            ps = self.prop_schema(key)
            if ps is not None:
                if nulls_absent:
                    v, found = self.find(key)
                    ov, ofound = other.find(key)
                    if found != ofound:
                        return False
                    if not found:
                        continue
                else:
                    # values.go@v0.33.13: only the other side is looked up; v converted from the raw value
                    ov, ofound = other.find(key)
                    if not ofound:
                        return False
                    v = unstructured_to_val(value, ps, self.minor)
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

    __slots__ = ("elements", "items_schema", "minor")
    go_type = "*common.unstructuredList"

    def __init__(self, elements: list[Any], items_schema: Structural, minor: int = _NEWEST) -> None:
        self.elements = elements
        self.items_schema = items_schema
        self.minor = minor

    def size(self) -> int:
        return len(self.elements)

    def get(self, index: Any) -> Any:
        if type(index) is not int:
            return V.val_or_err(index, f"unsupported index: {V.go_format_value(index)}")
        if index < 0 or index >= len(self.elements):
            return Err(f"index out of bounds: {index}")
        return unstructured_to_val(self.elements[index], self.items_schema, self.minor)

    def items(self) -> list[Any]:
        s, m = self.items_schema, self.minor
        return [unstructured_to_val(e, s, m) for e in self.elements]

    def contains(self, val: Any) -> Any:
        if type(val) is Err:
            return val
        err = None
        s, m = self.items_schema, self.minor
        for e in self.elements:
            elem = unstructured_to_val(e, s, m)
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
        if self.minor >= _CEL_VALUE_LISTS_SINCE:
            # types.NewRefValList(t.Get(i)... + the other's elements)
            return V.BaseList(self.items() + list(other.items()))
        elements = self.elements + [_raw_value(v) for v in other.items()]
        return UnstructuredList(elements, self.items_schema, self.minor)

    def fold_entries(self) -> Iterator[tuple[Any, Any]]:
        for i in range(len(self.elements)):
            yield i, self.get(i)

    def native(self) -> Any:
        return self.elements


# --- Go map keys -------------------------------------------------------------------------------------------


def _unhashable(go_type: str) -> V.GoPanic:
    """The Go runtime panic of using a value of a non-comparable dynamic type as a map key (cel-go's ``Eval``
    recovers it as ``internal error: runtime error: ...``)."""
    return V.GoPanic(f"runtime error: hash of unhashable type {go_type}")


def _raw_key(v: Any) -> Any:
    """A Go ``interface{}`` map key of raw data (JSON data, or a CEL value's ``Value()``): type and value, as Go
    compares them (``int64(1)`` and ``float64(1)`` differ). Raises the Go panic for non-comparable data."""
    t = type(v)
    if t is str or t is bool or t is int or t is float:
        return (t, v)
    if v is None:
        return (None, None)
    if v is GO_NULL:
        return (GoNull, 0)
    if t is dict or t is list or t is bytes or isinstance(v, (V.ListValue, V.MapValue)):
        raise _unhashable(go_type_of(v))
    if t is V.Duration or t is V.Uint:
        return (t, v)
    if t is V.Timestamp:
        # a time.Time compares its wall clock, monotonic reading and *Location: the instant and the offset here
        return (t, v.sec, v.nsec, v.offset)
    return (t, id(v))


def _cel_raw(v: Any) -> Any:
    """``element.Value()`` of a CEL value, for the v0.37 keys (a CEL ``null`` is ``structpb.NullValue``)."""
    if v is None:
        return GO_NULL
    return V.native_value(v)


def _comparable_key(raw: Any) -> Any:
    """v0.37's ``raw`` map-key rule (``setElementKey``, ``refValMapKey``): a comparable value as itself, anything
    else as its ``fmt.Sprintf("%#v", raw)`` (a Go string)."""
    try:
        return _raw_key(raw)
    except V.GoPanic:
        return (str, go_sharp_v(raw))


def _set_element_key(element: Any) -> tuple[Any, Err | None]:
    """``setElementKey`` (``valuesreflect.go@v0.37.0-beta.0``): the set key of a CEL value, or the error for lists and
    maps."""
    if isinstance(element, (V.ListValue, V.MapValue)):
        return None, Err("listSet operations are only supported on lists of scalar values")
    return _comparable_key(_cel_raw(element)), None


def go_sprint_v(x: Any) -> str:
    """Go ``fmt.Sprintf("%v", x)`` of JSON data."""
    t = type(x)
    if t is str:
        return str(x)
    if t is bool:
        return "true" if x else "false"
    if t is int:
        return str(x)
    if t is float:
        return V.go_format_float(x, "g", -1)
    if x is None:
        return "<nil>"
    if t is list:
        return "[" + " ".join(go_sprint_v(e) for e in x) + "]"
    if t is dict:
        return "map[" + " ".join(f"{go_sprint_v(k)}:{go_sprint_v(x[k])}" for k in sorted(x)) + "]"
    return str(x)


def go_sharp_v(x: Any, nested: bool = False) -> str:
    """Go ``fmt.Sprintf("%#v", x)`` of JSON data (``nested``: as an element of an ``interface{}`` container)."""
    from crdtool.core.errors import go_quote

    t = type(x)
    if t is str:
        return go_quote(x)
    if t is bool:
        return "true" if x else "false"
    if t is int:
        return str(x)
    if t is float:
        return V.go_format_float(x, "g", -1)
    if x is None:
        return "interface {}(nil)"
    if t is bytes:
        return "[]byte{" + ", ".join(f"0x{b:x}" for b in x) + "}"
    if t is list:
        return "[]interface {}{" + ", ".join(go_sharp_v(e, True) for e in x) + "}"
    if t is dict:
        return ("map[string]interface {}{" + ", ".join(f"{go_quote(k)}:{go_sharp_v(x[k], True)}" for k in sorted(x))
                + "}")
    if x is GO_NULL:
        return "0"
    return repr(x)


class _UniqueKey:
    """A ``*types.Err`` used as a map key: a fresh pointer, equal to nothing else."""

    __slots__ = ()


# --- set lists ------------------------------------------------------------------------------------------------


class UnstructuredSetList(UnstructuredList):
    """``unstructuredSetList``: ``==`` ignores order, ``+`` is a union."""

    __slots__ = ("_set", "_set_err")
    go_type = "*common.unstructuredSetList"

    def __init__(self, elements: list[Any], items_schema: Structural, minor: int = _NEWEST) -> None:
        super().__init__(elements, items_schema, minor)
        self._set: set[Any] | None = None
        self._set_err: Err | None = None

    def get_set(self) -> set[Any]:
        """``getSet`` until v0.36: the raw elements as Go map keys (panics on non-comparable elements)."""
        if self._set is None:
            self._set = {_raw_key(e) for e in self.elements}
        return self._set

    def get_value_set(self) -> tuple[set[Any] | None, Err | None]:
        """``getSet`` from v0.37: ``setElementKey`` of each converted element, or the first error."""
        if self._set is None and self._set_err is None:
            out: set[Any] = set()
            for e in self.items():
                k, err = _set_element_key(e)
                if err is not None:
                    self._set_err = err
                    break
                out.add(k)
            else:
                self._set = out
        return self._set, self._set_err

    def equal(self, other: Any) -> Any:
        if not isinstance(other, V.ListValue):
            return V.maybe_no_such_overload(other)
        if len(self.elements) != other.size():
            return False
        if self.minor >= _CEL_VALUE_LISTS_SINCE:
            tset, err = self.get_value_set()
            if err is not None:
                return err
            assert tset is not None
            return _set_equal_seen(tset, other)
        s = self.get_set()
        for v in other.items():
            if _raw_key(_raw_value(v)) not in s:
                return False
        return True

    def add(self, other: Any) -> Any:
        if not isinstance(other, V.ListValue):
            return V.maybe_no_such_overload(other)
        if self.minor >= _CEL_VALUE_LISTS_SINCE:
            return _add_to_set_list(self.items(), other)
        # valuesunstructured.go@v0.36.3: the receiver's cached set takes the new keys (it is not copied), and
        # the elements slice is appended to in place of a copy
        s = self.get_set()
        elements = self.elements
        for v in other.items():
            nv = _raw_value(v)
            h = _raw_key(nv)
            if h not in s:
                s.add(h)
                elements = elements + [nv]
        return UnstructuredSetList(elements, self.items_schema, self.minor)


def _set_equal_seen(tset: set[Any], other: V.ListValue) -> Any:
    seen: set[Any] = set()
    for v in other.items():
        k, err = _set_element_key(v)
        if err is not None:
            return err
        if k not in tset:
            return False
        seen.add(k)
    return len(seen) == len(tset)


def _add_to_set_list(elements: list[Any], other: V.ListValue) -> Any:
    """``addToSetList`` (``valuesreflect.go@v0.37.0-beta.0``)."""
    keys: set[Any] = set()
    for e in elements:
        k, err = _set_element_key(e)
        if err is not None:
            return err
        keys.add(k)
    out = list(elements)
    for v in other.items():
        k, err = _set_element_key(v)
        if err is not None:
            return err
        if k not in keys:
            keys.add(k)
            out.append(v)
    return RefValSetList(out)


class RefValSetList(V.BaseList):
    """``refValSetList`` (v0.37): the result of ``+`` on a set list, a list of CEL values keeping set ``+``/``==``."""

    __slots__ = ()
    go_type = "*common.refValSetList"

    def add(self, other: Any) -> Any:
        if not isinstance(other, V.ListValue):
            return V.maybe_no_such_overload(other)
        return _add_to_set_list(list(self.elems), other)

    def equal(self, other: Any) -> Any:
        if not isinstance(other, V.ListValue):
            return V.maybe_no_such_overload(other)
        if len(self.elems) != other.size():
            return False
        tset: set[Any] = set()
        for e in self.elems:
            k, err = _set_element_key(e)
            if err is not None:
                return err
            tset.add(k)
        return _set_equal_seen(tset, other)


# --- map lists ------------------------------------------------------------------------------------------------


class UnstructuredMapList(UnstructuredList):
    """``unstructuredMapList``: ``==`` matches entries by their map keys, ``+`` merges by key."""

    __slots__ = ("escaped_key_props", "_map")
    go_type = "*common.unstructuredMapList"

    def __init__(self, elements: list[Any], items_schema: Structural, escaped_key_props: tuple[str, ...],
                 minor: int = _NEWEST) -> None:
        super().__init__(elements, items_schema, minor)
        self.escaped_key_props = escaped_key_props
        self._map: dict[Any, Any] | None = None

    def to_map_key(self, element: Any) -> Any:
        """``toMapKey`` on raw data: the key properties looked up by their **escaped** names (an upstream defect
        kept in every release: a key property named like a CEL keyword is never found in raw data)."""
        if type(element) is not dict:
            # a fresh *types.Err: equal to no other key
            return _UniqueKey()
        keys = self.escaped_key_props
        if len(keys) <= 3:
            return tuple(_raw_key(element.get(k)) for k in keys)
        parts = [element.get(k) for k in keys]
        if self.minor >= _CEL_VALUE_LISTS_SINCE:
            return (str, go_sharp_v(parts))
        return (str, go_sprint_v(parts))

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
        seen: set[Any] = set()
        for v in other.items():
            k = self.to_map_key(V.native_value(v))
            if k not in m:
                return False
            eq = V.value_equal(unstructured_to_val(m[k], self.items_schema, self.minor), v)
            if eq is not True:
                return eq
            seen.add(k)
        if self.minor >= _CEL_VALUE_LISTS_SINCE:
            return len(seen) == len(m)
        return True

    def add(self, other: Any) -> Any:
        if not isinstance(other, V.ListValue):
            return V.maybe_no_such_overload(other)
        if self.minor >= _CEL_VALUE_LISTS_SINCE:
            return _add_to_map_list(self.items(), other, self.escaped_key_props)
        elements = list(self.elements)
        key_to_idx = {self.to_map_key(e): i for i, e in enumerate(self.elements)}
        for v in other.items():
            nv = _raw_value(v)
            k = self.to_map_key(nv)
            pos = key_to_idx.get(k)
            if pos is not None:
                elements[pos] = nv
            else:
                elements.append(nv)
        return UnstructuredMapList(elements, self.items_schema, self.escaped_key_props, self.minor)


def _ref_val_map_key(element: Any, escaped_key_props: tuple[str, ...]) -> Any:
    """``refValMapKey`` (``valuesreflect.go@v0.37.0-beta.0``): key properties read with ``Find`` (maps) on CEL
    values; a missing or error property is ``nil``."""

    def get(prop: str) -> Any:
        if not isinstance(element, V.MapValue):
            return (None, None)
        v, found = element.find(prop)
        if not found or type(v) is Err:
            return (None, None)
        return _comparable_key(_cel_raw(v))

    if len(escaped_key_props) <= 3:
        return tuple(get(p) for p in escaped_key_props)
    parts: list[Any] = []
    for prop in escaped_key_props:
        v, found = element.find(prop) if isinstance(element, V.MapValue) else (None, False)
        parts.append(None if not found or type(v) is Err else _cel_raw(v))
    return (str, go_sharp_v(parts))


def _add_to_map_list(elements: list[Any], other: V.ListValue, escaped_key_props: tuple[str, ...]) -> Any:
    """``addToMapList`` (``valuesreflect.go@v0.37.0-beta.0``)."""
    out = list(elements)
    key_to_idx = {_ref_val_map_key(e, escaped_key_props): i for i, e in enumerate(out)}
    for v in other.items():
        k = _ref_val_map_key(v, escaped_key_props)
        pos = key_to_idx.get(k)
        if pos is not None:
            out[pos] = v
        else:
            out.append(v)
    return RefValMapList(out, escaped_key_props)


class RefValMapList(V.BaseList):
    """``refValMapList`` (v0.37): the result of ``+`` on a map list, a list of CEL values keeping map-list
    ``+``/``==``."""

    __slots__ = ("escaped_key_props",)
    go_type = "*common.refValMapList"

    def __init__(self, elems: list[Any], escaped_key_props: tuple[str, ...]) -> None:
        super().__init__(elems)
        self.escaped_key_props = escaped_key_props

    def add(self, other: Any) -> Any:
        if not isinstance(other, V.ListValue):
            return V.maybe_no_such_overload(other)
        return _add_to_map_list(list(self.elems), other, self.escaped_key_props)

    def equal(self, other: Any) -> Any:
        if not isinstance(other, V.ListValue):
            return V.maybe_no_such_overload(other)
        if len(self.elems) != other.size():
            return False
        by_key = {_ref_val_map_key(e, self.escaped_key_props): e for e in self.elems}
        seen: set[Any] = set()
        for v in other.items():
            k = _ref_val_map_key(v, self.escaped_key_props)
            e = by_key.get(k, _MISSING)
            if e is _MISSING:
                return False
            eq = V.value_equal(e, v)
            if eq is not True:
                return eq
            seen.add(k)
        return len(seen) == len(by_key)


_MISSING = object()


def _b64(s: str) -> bytes | None:
    try:
        return base64.b64decode(s, validate=True)
    except (binascii.Error, ValueError):
        return None
