"""CEL runtime values, as cel-go v0.26.0 represents and operates on them.

Mirrors ``github.com/google/cel-go`` ``common/types``: the scalar types
(``bool.go``, ``int.go``, ``uint.go``, ``double.go``, ``string.go``,
``bytes.go``, ``null.go``), ``duration.go``, ``timestamp.go``, ``err.go``,
``optional.go``, ``list.go`` (``baseList``, ``concatList``, ``mutableList``),
``map.go`` (``baseMap`` over a ``map[ref.Val]ref.Val``, ``mutableMap``,
``InsertMapKeyValue``), ``compare.go``, ``overflow.go`` and the runtime type
values of ``types.go``; plus the bits of Go's ``fmt``, ``strconv`` and ``time``
whose output CEL exposes (``%v`` and ``%g`` of floats, ``time.ParseDuration``,
RFC 3339 parsing and formatting).

Representation (chosen for speed; dispatch is on ``type(v) is ...`` so that
``bool`` is never taken for ``int``):

* ``bool``, ``int`` (int64), ``float`` (double), ``str``, ``bytes`` and
  ``None`` (null) are plain Python values;
* :class:`Uint`, :class:`Duration`, :class:`Timestamp`, :class:`Optional`,
  :class:`TypeValue` and :class:`Err` are small classes;
* lists implement :class:`ListValue` and maps :class:`MapValue` (the
  unstructured, lazily converted custom-resource values of
  :mod:`crdtool.core.kubecel.unstructured` are further implementations).

Errors are values (:class:`Err`), never raised, so that ``&&``, ``||`` and the
comprehension macros absorb them exactly as cel-go does.
"""

from __future__ import annotations

import functools
import math
import re
from typing import Any, Callable, Iterator

from crdtool.core.gostd import go_regexp_error

__all__ = [
    "BOOL_TYPE", "BYTES_TYPE", "DOUBLE_TYPE", "DURATION_TYPE", "BaseList", "BaseMap", "Duration", "Err",
    "INT_TYPE", "LIST_TYPE", "ListValue", "MAP_TYPE", "MapValue", "MutableList", "MutableMap", "NULL_TYPE",
    "NO_SUCH_OVERLOAD", "OPTIONAL_NONE", "OPTIONAL_TYPE", "Optional", "STRING_TYPE", "TIMESTAMP_TYPE",
    "TYPE_TYPE", "Timestamp", "TypeValue", "UINT_TYPE", "UNKNOWN_TYPE", "Uint", "compare", "equal",
    "go_format_float", "go_quote", "is_error", "type_of", "type_name",
]

INT64_MIN = -(1 << 63)
INT64_MAX = (1 << 63) - 1
UINT64_MAX = (1 << 64) - 1

# traits (common/types/traits/traits.go)
ADDER, COMPARER, CONTAINER, DIVIDER, FIELD_TESTER, INDEXER, ITERABLE, ITERATOR, MATCHER, MODDER, MULTIPLIER, \
    NEGATOR, RECEIVER, SIZER, SUBTRACTOR, FOLDABLE = (1 << i for i in range(16))
#: ``ListerType`` and ``MapperType`` are unions of traits.
LISTER = ADDER | CONTAINER | INDEXER | ITERABLE | SIZER
MAPPER = CONTAINER | INDEXER | ITERABLE | SIZER


# --- errors ----------------------------------------------------------------------------------------


class Err:
    """``types.Err``: an error value; ``msg`` is ``Error()``."""

    __slots__ = ("msg", "node_id")

    def __init__(self, msg: str, node_id: int = 0) -> None:
        self.msg = msg
        self.node_id = node_id

    def __repr__(self) -> str:
        return f"Err({self.msg!r})"

    def __str__(self) -> str:
        return self.msg


class EvaluationTooLarge(Exception):
    """A value beyond :data:`MAX_VALUE_SIZE`: upstream would exhaust memory; crdtool stops the evaluation."""


class GoPanic(Exception):
    """A Go panic inside cel-go's evaluation (a failed type assertion in a cost tracker): ``prog.Eval`` recovers
    it as the error ``internal error: <panic value>``."""


#: The largest string, bytes or list a function may build (elements); larger results raise EvaluationTooLarge.
MAX_VALUE_SIZE = 1 << 27


def check_size(n: int) -> None:
    if n > MAX_VALUE_SIZE:
        raise EvaluationTooLarge(f"a CEL value of {n} elements exceeds crdtool's evaluation limit of {MAX_VALUE_SIZE}")


#: ``types.NoSuchOverloadErr()``.
NO_SUCH_OVERLOAD = Err("no such overload")


def is_error(v: Any) -> bool:
    return type(v) is Err


def val_or_err(val: Any, msg: str) -> Any:
    """``types.ValOrErr``: ``val`` when it is an error (or unknown), else a new error."""
    if type(val) is Err:
        return val
    return Err(msg)


def maybe_no_such_overload(val: Any) -> Any:
    """``types.MaybeNoSuchOverloadErr``."""
    if type(val) is Err:
        return val
    return Err("no such overload")


# --- scalar classes --------------------------------------------------------------------------------


class Uint:
    """``types.Uint`` (uint64)."""

    __slots__ = ("v",)

    def __init__(self, v: int) -> None:
        self.v = v

    def __eq__(self, other: object) -> bool:
        return type(other) is Uint and other.v == self.v

    def __hash__(self) -> int:
        return hash(("u", self.v))

    def __repr__(self) -> str:
        return f"{self.v}u"


class Duration:
    """``types.Duration``: a Go ``time.Duration`` in nanoseconds (int64)."""

    __slots__ = ("ns",)

    def __init__(self, ns: int) -> None:
        self.ns = ns

    def __eq__(self, other: object) -> bool:
        return type(other) is Duration and other.ns == self.ns

    def __hash__(self) -> int:
        return hash(("d", self.ns))

    def __repr__(self) -> str:
        return f"duration({format_duration_string(self.ns)!r})"


#: Unix seconds of 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z (``minUnixTime``, ``maxUnixTime``).
MIN_UNIX_TIME = -62135596800
MAX_UNIX_TIME = 253402300799


class Timestamp:
    """``types.Timestamp``: a Go ``time.Time`` as Unix seconds, nanoseconds and the zone offset (seconds east)."""

    __slots__ = ("sec", "nsec", "offset")

    def __init__(self, sec: int, nsec: int = 0, offset: int = 0) -> None:
        self.sec = sec
        self.nsec = nsec
        self.offset = offset

    def __eq__(self, other: object) -> bool:
        return type(other) is Timestamp and other.sec == self.sec and other.nsec == self.nsec

    def __hash__(self) -> int:
        return hash(("t", self.sec, self.nsec))

    def __repr__(self) -> str:
        return f"timestamp({format_rfc3339_nano(self)!r})"


class Optional:
    """``types.Optional``; :data:`OPTIONAL_NONE` has no value."""

    __slots__ = ("value", "has_value")

    def __init__(self, value: Any = None, has_value: bool = True) -> None:
        self.value = value
        self.has_value = has_value

    def get_value(self) -> Any:
        """``GetValue``: the value, or the ``optional.none() dereference`` error."""
        if not self.has_value:
            return Err("optional.none() dereference")
        return self.value

    def __repr__(self) -> str:
        return f"optional.of({self.value!r})" if self.has_value else "optional.none()"


OPTIONAL_NONE = Optional(None, False)


class TypeValue:
    """A runtime type (``*types.Type`` as a value): equal to another type of the same runtime name."""

    __slots__ = ("name", "traits")

    def __init__(self, name: str, traits: int = 0) -> None:
        self.name = name
        self.traits = traits

    def __eq__(self, other: object) -> bool:
        return type(other) is TypeValue and other.name == self.name

    def __hash__(self) -> int:
        return hash(("type", self.name))

    def __repr__(self) -> str:
        return self.name


BOOL_TYPE = TypeValue("bool", COMPARER | NEGATOR)
BYTES_TYPE = TypeValue("bytes", ADDER | COMPARER | SIZER)
DOUBLE_TYPE = TypeValue("double", ADDER | COMPARER | DIVIDER | MULTIPLIER | NEGATOR | SUBTRACTOR)
DURATION_TYPE = TypeValue("google.protobuf.Duration", ADDER | COMPARER | NEGATOR | RECEIVER | SUBTRACTOR)
INT_TYPE = TypeValue("int", ADDER | COMPARER | DIVIDER | MODDER | MULTIPLIER | NEGATOR | SUBTRACTOR)
LIST_TYPE = TypeValue("list", ADDER | CONTAINER | INDEXER | ITERABLE | SIZER)
MAP_TYPE = TypeValue("map", CONTAINER | INDEXER | ITERABLE | SIZER)
NULL_TYPE = TypeValue("null_type")
STRING_TYPE = TypeValue("string", ADDER | COMPARER | MATCHER | RECEIVER | SIZER)
TIMESTAMP_TYPE = TypeValue("google.protobuf.Timestamp", ADDER | COMPARER | RECEIVER | SUBTRACTOR)
TYPE_TYPE = TypeValue("type")
UINT_TYPE = TypeValue("uint", ADDER | COMPARER | DIVIDER | MODDER | MULTIPLIER | SUBTRACTOR)
UNKNOWN_TYPE = TypeValue("unknown")
ERROR_TYPE = TypeValue("error")
OPTIONAL_TYPE = TypeValue("optional_type")

#: Type identifiers and the type values ``FindIdent`` returns for them.
STANDARD_TYPE_IDENTS: dict[str, TypeValue] = {
    t.name: t for t in (BOOL_TYPE, BYTES_TYPE, DOUBLE_TYPE, INT_TYPE, LIST_TYPE, MAP_TYPE, NULL_TYPE,
                        STRING_TYPE, TYPE_TYPE, UINT_TYPE, OPTIONAL_TYPE)
}
STANDARD_TYPE_IDENTS["duration"] = DURATION_TYPE
STANDARD_TYPE_IDENTS["timestamp"] = TIMESTAMP_TYPE
STANDARD_TYPE_IDENTS["google.protobuf.Duration"] = DURATION_TYPE
STANDARD_TYPE_IDENTS["google.protobuf.Timestamp"] = TIMESTAMP_TYPE


# --- lists -------------------------------------------------------------------------------------------


class ListValue:
    """``traits.Lister``. Subclasses implement ``size``, ``get`` and ``items``."""

    __slots__ = ()

    def size(self) -> int:
        raise NotImplementedError

    def get(self, index: Any) -> Any:
        """``Get``: the element at a CEL index (int, or a lossless double/uint), or an error value."""
        raise NotImplementedError

    def items(self) -> list[Any]:
        """The elements as CEL values, in order (``Iterator``)."""
        raise NotImplementedError

    def contains(self, elem: Any) -> Any:
        raise NotImplementedError

    def equal(self, other: Any) -> Any:
        raise NotImplementedError

    def add(self, other: Any) -> Any:
        raise NotImplementedError

    def fold_entries(self) -> Iterator[tuple[Any, Any]]:
        """``ToFoldableList(l).Fold``: (index, element) pairs."""
        for i in range(self.size()):
            yield i, self.get(i)


def index_or_error(index: Any) -> tuple[int, str | None]:
    """``types.IndexOrError``."""
    t = type(index)
    if t is int:
        return index, None
    if t is float:
        ik = double_to_int64_lossless(index)
        if ik is not None:
            return ik, None
        return -1, f"unsupported index value {go_format_value(index)} in list"
    if t is Uint:
        if index.v <= INT64_MAX:
            return index.v, None
        return -1, f"unsupported index value {go_format_value(index)} in list"
    return -1, f"unsupported index type '{type_name(index)}' in list"


class BaseList(ListValue):
    """``baseList`` over CEL values (``NewRefValList``, the result of list literals and functions)."""

    __slots__ = ("elems",)

    def __init__(self, elems: list[Any]) -> None:
        self.elems = elems

    def size(self) -> int:
        return len(self.elems)

    def get(self, index: Any) -> Any:
        i, err = index_or_error(index)
        if err is not None:
            return val_or_err(index, err)
        if i < 0 or i >= len(self.elems):
            return Err(f"index '{i}' out of range in list size '{len(self.elems)}'")
        return self.elems[i]

    def items(self) -> list[Any]:
        return self.elems

    def contains(self, elem: Any) -> Any:
        for v in self.elems:
            if value_equal(elem, v) is True:
                return True
        return False

    def equal(self, other: Any) -> Any:
        if not isinstance(other, ListValue):
            return False
        n = len(self.elems)
        if n != other.size():
            return False
        for i in range(n):
            if equal(self.elems[i], other.get(i)) is False:
                return False
        return True

    def add(self, other: Any) -> Any:
        if not isinstance(other, ListValue):
            return maybe_no_such_overload(other)
        if not self.elems:
            return other
        if other.size() == 0:
            return self
        return ConcatList(self, other)

    def fold_entries(self) -> Iterator[tuple[Any, Any]]:
        return enumerate(self.elems)

    def __repr__(self) -> str:
        return f"BaseList({self.elems!r})"


class MutableList(BaseList):
    """``mutableList``: a comprehension accumulator that ``+`` extends in place."""

    __slots__ = ()

    def add(self, other: Any) -> Any:
        if isinstance(other, MutableList):
            self.elems.extend(other.elems)
        elif isinstance(other, ListValue):
            for i in range(other.size()):
                self.elems.append(other.get(i))
        else:
            return maybe_no_such_overload(other)
        return self

    def to_immutable(self) -> BaseList:
        return BaseList(self.elems)


class ConcatList(ListValue):
    """``concatList``: the lazy concatenation ``baseList.Add`` returns."""

    __slots__ = ("prev", "next", "_size")

    def __init__(self, prev: ListValue, nxt: ListValue) -> None:
        self.prev = prev
        self.next = nxt
        self._size = prev.size() + nxt.size()

    def size(self) -> int:
        return self._size

    def get(self, index: Any) -> Any:
        i, err = index_or_error(index)
        if err is not None:
            return val_or_err(index, err)
        n = self.prev.size()
        if i < n:
            return self.prev.get(i)
        return self.next.get(i - n)

    def items(self) -> list[Any]:
        return [self.get(i) for i in range(self._size)]

    def contains(self, elem: Any) -> Any:
        prev = self.prev.contains(elem)
        if prev is True:
            return prev
        nxt = self.next.contains(elem)
        if nxt is True:
            return nxt
        if type(prev) is Err:
            return prev
        return nxt

    def equal(self, other: Any) -> Any:
        if not isinstance(other, ListValue):
            return False
        if self._size != other.size():
            return False
        maybe_err = None
        for i in range(self._size):
            eq = equal(self.get(i), other.get(i))
            if eq is False:
                return False
            if maybe_err is None and type(eq) is Err:
                maybe_err = eq
        if maybe_err is not None:
            return maybe_err
        return True

    def add(self, other: Any) -> Any:
        if not isinstance(other, ListValue):
            return maybe_no_such_overload(other)
        if self._size == 0:
            return other
        if other.size() == 0:
            return self
        return ConcatList(self, other)


# --- maps --------------------------------------------------------------------------------------------


def map_key(k: Any) -> Any:
    """A Python dict key with Go's map-key identity for a CEL value (``1``, ``1u``, ``1.0``, ``true`` differ)."""
    t = type(k)
    if t is str:
        return k
    if t is int:
        return ("i", k)
    if t is bool:
        return ("b", k)
    if t is float:
        return ("f", k)
    try:
        hash(k)
    except TypeError:
        return ("id", id(k))
    return ("o", k)


class MapValue:
    """``traits.Mapper``. Subclasses implement ``size``, ``find``, ``keys`` and ``get``."""

    __slots__ = ()

    def size(self) -> int:
        raise NotImplementedError

    def find(self, key: Any) -> tuple[Any, bool]:
        """``Find``: (value, found); an error value comes back as (err, True)."""
        raise NotImplementedError

    def keys(self) -> list[Any]:
        """The keys in iteration order (``Iterator``)."""
        raise NotImplementedError

    def get(self, key: Any) -> Any:
        v, found = self.find(key)
        if not found:
            return val_or_err(v, f"no such key: {go_format_value(key)}")
        return v

    def contains(self, key: Any) -> Any:
        _, found = self.find(key)
        return found

    def equal(self, other: Any) -> Any:
        if not isinstance(other, MapValue):
            return False
        if self.size() != other.size():
            return False
        for key in self.keys():
            this_val, _ = self.find(key)
            other_val, found = other.find(key)
            if not found:
                return False
            if equal(this_val, other_val) is False:
                return False
        return True

    def fold_entries(self) -> Iterator[tuple[Any, Any]]:
        """``ToFoldableMap(m).Fold``: (key, value) pairs."""
        for k in self.keys():
            yield k, self.get(k)


class BaseMap(MapValue):
    """``baseMap`` with a ``refValMapAccessor`` (map literals, function results)."""

    __slots__ = ("entries",)

    def __init__(self, entries: dict[Any, tuple[Any, Any]]) -> None:
        self.entries = entries  # map_key(k) -> (k, v)

    @staticmethod
    def of(pairs: list[tuple[Any, Any]]) -> BaseMap:
        return BaseMap({map_key(k): (k, v) for k, v in pairs})

    def size(self) -> int:
        return len(self.entries)

    def find(self, key: Any) -> tuple[Any, bool]:
        entries = self.entries
        if not entries:
            return None, False
        hit = entries.get(map_key(key))
        if hit is not None:
            return hit[1], True
        t = type(key)
        if t is float:
            ik = double_to_int64_lossless(key)
            if ik is not None:
                hit = entries.get(("i", ik))
                if hit is not None:
                    return hit[1], True
            uk = double_to_uint64_lossless(key)
            if uk is not None:
                hit = entries.get(("o", Uint(uk)))
                return (hit[1], True) if hit is not None else (None, False)
        elif t is int:
            if key >= 0:
                hit = entries.get(("o", Uint(key)))
                return (hit[1], True) if hit is not None else (None, False)
        elif t is Uint:
            if key.v <= INT64_MAX:
                hit = entries.get(("i", key.v))
                return (hit[1], True) if hit is not None else (None, False)
        return None, False

    def keys(self) -> list[Any]:
        return [k for k, _ in self.entries.values()]

    def fold_entries(self) -> Iterator[tuple[Any, Any]]:
        return iter(self.entries.values())

    def __repr__(self) -> str:
        return f"BaseMap({list(self.entries.values())!r})"


class MutableMap(BaseMap):
    """``mutableMap``: a comprehension accumulator ``cel.@mapInsert`` extends in place."""

    __slots__ = ()

    def insert(self, k: Any, v: Any) -> Any:
        _, found = self.find(k)
        if found:
            return Err(f"insert failed: key {go_format_value(k)} already exists")
        self.entries[map_key(k)] = (k, v)
        return self

    def to_immutable(self) -> BaseMap:
        return BaseMap(self.entries)


def insert_map_key_value(m: MapValue, k: Any, v: Any) -> Any:
    """``types.InsertMapKeyValue``."""
    if isinstance(m, MutableMap):
        return m.insert(k, v)
    _, found = m.find(k)
    if not found:
        entries = {map_key(k): (k, v)}
        for nk in m.keys():
            entries[map_key(nk)] = (nk, m.get(nk))
        return BaseMap(entries)
    return Err(f"insert failed: key {go_format_value(k)} already exists")


# --- type of a value -----------------------------------------------------------------------------


def type_of(v: Any) -> TypeValue:
    """``v.Type()`` as a runtime type value."""
    t = type(v)
    if t is str:
        return STRING_TYPE
    if t is int:
        return INT_TYPE
    if t is bool:
        return BOOL_TYPE
    if t is float:
        return DOUBLE_TYPE
    if v is None:
        return NULL_TYPE
    if t is bytes:
        return BYTES_TYPE
    if isinstance(v, ListValue):
        return LIST_TYPE
    if isinstance(v, MapValue):
        return MAP_TYPE
    if t is Uint:
        return UINT_TYPE
    if t is Duration:
        return DURATION_TYPE
    if t is Timestamp:
        return TIMESTAMP_TYPE
    if t is Optional:
        return OPTIONAL_TYPE
    if t is TypeValue:
        return TYPE_TYPE
    if t is Err:
        return ERROR_TYPE
    cel_type = getattr(v, "cel_type", None)
    if cel_type is not None:
        return cel_type  # type: ignore[no-any-return]
    return UNKNOWN_TYPE


def type_name(v: Any) -> str:
    """``v.Type().TypeName()``."""
    return type_of(v).name


def type_string(v: Any) -> str:
    """``fmt.Sprintf("%v", v.Type())``: the ``*types.Type`` string, with the runtime type parameters
    (``list(dyn)``, ``map(dyn, dyn)``, ``optional_type(T)``)."""
    name = type_of(v).name
    if name == "list":
        return "list(dyn)"
    if name == "map":
        return "map(dyn, dyn)"
    if name == "optional_type":
        return "optional_type(T)"
    return name


def has_trait(v: Any, trait: int) -> bool:
    return (type_of(v).traits & trait) == trait


# --- equality and ordering (Equal / Compare of every type) ---------------------------------------


def value_equal(a: Any, b: Any) -> Any:
    """``a.Equal(b)`` (no null special case; see :func:`equal`)."""
    ta = type(a)
    if ta is str:
        return type(b) is str and a == b
    if ta is int:
        tb = type(b)
        if tb is int:
            return a == b
        if tb is float:
            if b != b:
                return False
            return compare_int_double(a, b) == 0
        if tb is Uint:
            return compare_int_uint(a, b.v) == 0
        return False
    if ta is bool:
        return type(b) is bool and a == b
    if ta is float:
        if a != a:
            return False
        tb = type(b)
        if tb is float:
            return a == b
        if tb is int:
            return compare_double_int(a, b) == 0
        if tb is Uint:
            return compare_double_uint(a, b.v) == 0
        return False
    if a is None:
        return b is None
    if ta is bytes:
        return type(b) is bytes and a == b
    if ta is Uint:
        tb = type(b)
        if tb is Uint:
            return a.v == b.v
        if tb is int:
            return compare_int_uint(b, a.v) == 0
        if tb is float:
            if b != b:
                return False
            return compare_double_uint(b, a.v) == 0
        return False
    if ta is Duration:
        return type(b) is Duration and a.ns == b.ns
    if ta is Timestamp:
        return type(b) is Timestamp and a.sec == b.sec and a.nsec == b.nsec
    if ta is Err:
        return a
    if ta is Optional:
        if type(b) is not Optional:
            return False
        if not a.has_value:
            return not b.has_value
        if not b.has_value:
            return False
        return value_equal(a.value, b.value)
    if ta is TypeValue:
        return type(b) is TypeValue and a.name == b.name
    eq = getattr(a, "equal", None)
    if eq is not None:
        return eq(b)
    return False


def equal(a: Any, b: Any) -> Any:
    """``types.Equal``: heterogeneous equality, null equal only to null."""
    if a is None or b is None:
        return a is None and b is None
    return value_equal(a, b)


#: Go's ``math.MinInt64``, ``math.MaxInt64`` and ``math.MaxUint64`` as the untyped constants become in a
#: comparison with a ``Double``: float64 values (``-2**63``, ``2**63``, ``2**64``; the two maxima round up).
#: Python compares a float with an int exactly, so ``d > INT64_MAX`` would be true for ``d == 2.0**63``, where
#: cel-go's ``d > math.MaxInt64`` is false and the comparison goes on to ``compareDouble(d, Double(i))``.
_INT64_MIN_F = float(-(1 << 63))
_INT64_MAX_F = float((1 << 63) - 1)
_UINT64_MAX_F = float((1 << 64) - 1)


def compare_double_int(d: float, i: int) -> int:
    """cel-go ``compareDoubleInt`` (``common/types/compare.go``, the same at v0.17.8 … v0.27.0): -1, 0 or 1.

    ``d`` is not NaN (the callers check); the bounds are float64 values as in Go, and ``i`` is rounded to the
    nearest float64 (``Double(i)``), so ``2.0**63`` compares equal to ``9223372036854775807``.
    """
    if d < _INT64_MIN_F:
        return -1
    if d > _INT64_MAX_F:
        return 1
    return _cmp_float(d, float(i))


def compare_int_double(i: int, d: float) -> int:
    """cel-go ``compareIntDouble``: ``-compareDoubleInt(d, i)``."""
    return -compare_double_int(d, i)


def compare_double_uint(d: float, u: int) -> int:
    """cel-go ``compareDoubleUint``: -1, 0 or 1; float64 bounds (``2.0**64`` equals ``18446744073709551615u``)."""
    if d < 0:
        return -1
    if d > _UINT64_MAX_F:
        return 1
    return _cmp_float(d, float(u))


def compare_uint_double(u: int, d: float) -> int:
    return -compare_double_uint(d, u)


def compare_int_uint(i: int, u: int) -> int:
    if i < 0 or u > INT64_MAX:
        return -1
    c = i - u
    return -1 if c < 0 else (1 if c > 0 else 0)


def _cmp_float(a: float, b: float) -> int:
    if a < b:
        return -1
    if a > b:
        return 1
    return 0


def _cmp(a: Any, b: Any) -> int:
    return -1 if a < b else (1 if a > b else 0)


_NAN_ERR = "NaN values cannot be ordered"


def compare(a: Any, b: Any) -> Any:
    """``a.Compare(b)`` for the comparable types: -1, 0, 1 or an error value.

    The caller has checked that ``a`` has the comparer trait.
    """
    ta = type(a)
    tb = type(b)
    if ta is int:
        if tb is int:
            return _cmp(a, b)
        if tb is float:
            if b != b:
                return Err(_NAN_ERR)
            return compare_int_double(a, b)
        if tb is Uint:
            return compare_int_uint(a, b.v)
        return maybe_no_such_overload(b)
    if ta is str:
        if tb is str:
            return _cmp(a, b)
        return maybe_no_such_overload(b)
    if ta is float:
        if a != a:
            return Err(_NAN_ERR)
        if tb is float:
            if b != b:
                return Err(_NAN_ERR)
            return _cmp_float(a, b)
        if tb is int:
            return compare_double_int(a, b)
        if tb is Uint:
            return compare_double_uint(a, b.v)
        return maybe_no_such_overload(b)
    if ta is Uint:
        if tb is Uint:
            return _cmp(a.v, b.v)
        if tb is int:
            return -compare_int_uint(b, a.v)
        if tb is float:
            if b != b:
                return Err(_NAN_ERR)
            return compare_uint_double(a.v, b)
        return maybe_no_such_overload(b)
    if ta is bool:
        if tb is not bool:
            return val_or_err(b, "no such overload")
        return _cmp(a, b)
    if ta is bytes:
        if tb is not bytes:
            return val_or_err(b, "no such overload")
        return _cmp(a, b)
    if ta is Duration:
        if tb is not Duration:
            return maybe_no_such_overload(b)
        return _cmp(a.ns, b.ns)
    if ta is Timestamp:
        if tb is not Timestamp:
            return maybe_no_such_overload(b)
        return _cmp((a.sec, a.nsec), (b.sec, b.nsec))
    cmp = getattr(a, "compare", None)
    if cmp is not None:
        return cmp(b)
    return Err("no such overload")


def is_zero_value(v: Any) -> bool | None:
    """``traits.Zeroer.IsZeroValue``; None when the value is not a Zeroer."""
    t = type(v)
    if t in (str, bytes):
        return bool(len(v) == 0)
    if t is int or t is float:
        return bool(v == 0)
    if t is bool:
        return bool(v is False)
    if v is None:
        return True
    if t is Uint:
        return bool(v.v == 0)
    if t is Duration:
        return bool(v.ns == 0)
    if t is Timestamp:
        return bool(v.sec == MIN_UNIX_TIME and v.nsec == 0)
    if isinstance(v, ListValue):
        return bool(v.size() == 0)
    if isinstance(v, BaseMap):
        return bool(v.size() == 0)
    return None


# --- arithmetic (overflow.go) --------------------------------------------------------------------

_INT_OVERFLOW = "integer overflow"
_UINT_OVERFLOW = "unsigned integer overflow"


def int_result(v: int) -> Any:
    if INT64_MIN <= v <= INT64_MAX:
        return v
    return Err(_INT_OVERFLOW)


def int_divide(x: int, y: int) -> Any:
    if y == 0:
        return Err("division by zero")
    if x == INT64_MIN and y == -1:
        return Err(_INT_OVERFLOW)
    q = abs(x) // abs(y)
    return q if (x < 0) == (y < 0) else -q


def int_modulo(x: int, y: int) -> Any:
    if y == 0:
        return Err("modulus by zero")
    if x == INT64_MIN and y == -1:
        return Err(_INT_OVERFLOW)
    r = abs(x) % abs(y)
    return -r if x < 0 else r


def uint_result(v: int) -> Any:
    if 0 <= v <= UINT64_MAX:
        return Uint(v)
    return Err(_UINT_OVERFLOW)


def double_to_int64_checked(v: float) -> Any:
    """``doubleToInt64Checked``: int, or the integer-overflow error."""
    if math.isinf(v) or math.isnan(v) or v <= float(INT64_MIN) or v >= float(INT64_MAX):
        return Err(_INT_OVERFLOW)
    return int(v)


def double_to_uint64_checked(v: float) -> Any:
    if math.isinf(v) or math.isnan(v) or v < 0 or v >= 18446744073709551616.0:
        return Err(_UINT_OVERFLOW)
    return Uint(int(v))


def double_to_int64_lossless(v: float) -> int | None:
    r = double_to_int64_checked(v)
    if type(r) is Err or float(r) != v:
        return None
    return r  # type: ignore[no-any-return]


def double_to_uint64_lossless(v: float) -> int | None:
    r = double_to_uint64_checked(v)
    if type(r) is Err or float(r.v) != v:
        return None
    return r.v  # type: ignore[no-any-return]


NANOS_PER_SECOND = 1_000_000_000


def add_time_duration(t: Timestamp, d: int) -> Any:
    """``addTimeDurationChecked``."""
    sec2 = int(d / NANOS_PER_SECOND) if d >= 0 else -((-d) // NANOS_PER_SECOND)
    nsec2 = d - sec2 * NANOS_PER_SECOND
    sec = t.sec + sec2
    if not INT64_MIN <= sec <= INT64_MAX:
        return Err(_INT_OVERFLOW)
    nsec = t.nsec + nsec2
    if nsec < 0 or nsec >= NANOS_PER_SECOND:
        q = int(nsec / NANOS_PER_SECOND)
        sec += q
        nsec -= q * NANOS_PER_SECOND
        if nsec < 0:
            sec -= 1
            nsec += NANOS_PER_SECOND
    if sec < MIN_UNIX_TIME or sec > MAX_UNIX_TIME:
        return Err("timestamp overflow")
    return Timestamp(sec, nsec, t.offset)


def subtract_times(x: Timestamp, y: Timestamp) -> Any:
    """``subtractTimeChecked``."""
    sec = x.sec - y.sec
    if not INT64_MIN <= sec <= INT64_MAX:
        return Err(_INT_OVERFLOW)
    tsec = sec * NANOS_PER_SECOND
    if not INT64_MIN <= tsec <= INT64_MAX:
        return Err(_INT_OVERFLOW)
    val = tsec + (x.nsec - y.nsec)
    if not INT64_MIN <= val <= INT64_MAX:
        return Err(_INT_OVERFLOW)
    return Duration(val)


# --- Go formatting ---------------------------------------------------------------------------------


def _shortest_digits(f: float) -> tuple[str, int]:
    """Shortest round-trip decimal digits of ``abs(f)`` and the decimal-point position (Go's ``dp``)."""
    r = repr(abs(f))
    mant, _, exp_s = r.partition("e")
    exp = int(exp_s) if exp_s else 0
    int_part, _, frac = mant.partition(".")
    if frac == "0":
        frac = ""
    digits = (int_part + frac).lstrip("0")
    lead = len(int_part + frac) - len((int_part + frac).lstrip("0"))
    dp = len(int_part) + exp - lead
    digits = digits.rstrip("0")
    if not digits:
        return "", 0
    return digits, dp


def go_format_float(f: float, fmt: str = "g", prec: int = -1) -> str:
    """Go ``strconv.FormatFloat(f, fmt, prec, 64)`` for ``fmt`` in ``g``, ``e``, ``f`` (``prec`` -1: shortest)."""
    if f != f:
        return "NaN"
    if math.isinf(f):
        return "+Inf" if f > 0 else "-Inf"
    neg = f < 0 or (f == 0 and math.copysign(1.0, f) < 0)
    if prec >= 0:
        if fmt == "f":
            s = f"{abs(f):.{prec}f}"
        elif fmt == "e":
            s = _go_exp(f"{abs(f):.{prec}e}")
        else:
            p = prec or 1
            s = f"{abs(f):.{p - 1}e}"
            digits_part, _, exp_s = s.partition("e")
            exp = int(exp_s)
            if exp < -4 or exp >= p:
                s = _go_exp(f"{abs(f):.{p - 1}e}")
                m, _, e = s.partition("e")
                if "." in m:
                    m = m.rstrip("0").rstrip(".")
                s = m + "e" + e
            else:
                s = f"{abs(f):.{max(p - 1 - exp, 0)}f}"
                if "." in s:
                    s = s.rstrip("0").rstrip(".")
        return ("-" if neg else "") + s
    digits, dp = _shortest_digits(f)
    nd = len(digits)
    if fmt == "g":
        exp = dp - 1
        fmt = "e" if nd != 0 and (exp < -4 or exp >= 6) else "f"
    if fmt == "e":
        if nd == 0:
            body = "0e+00"
        else:
            exp = dp - 1
            body = digits[0] + ("." + digits[1:] if nd > 1 else "") + "e" + ("-" if exp < 0 else "+")
            body += f"{abs(exp):02d}"
        return ("-" if neg else "") + body
    # 'f', shortest
    if nd == 0:
        body = "0"
    elif dp <= 0:
        body = "0." + "0" * (-dp) + digits
    elif dp >= nd:
        body = digits + "0" * (dp - nd)
    else:
        body = digits[:dp] + "." + digits[dp:]
    return ("-" if neg else "") + body


def _go_exp(s: str) -> str:
    m, _, e = s.partition("e")
    sign = e[0]
    d = e[1:].lstrip("0") or "0"
    return f"{m}e{sign}{int(d):02d}"


def go_format_value(v: Any) -> str:
    """Go ``fmt.Sprintf("%v", v)`` of a CEL value (the form used in cel-go error messages)."""
    t = type(v)
    if t is str:
        return v  # type: ignore[no-any-return]
    if t is bool:
        return "true" if v else "false"
    if t is int:
        return str(v)
    if t is float:
        return go_format_float(v, "g")
    if t is Uint:
        return str(v.v)
    if v is None:
        return "NULL_VALUE"
    if t is bytes:
        return "[" + " ".join(str(b) for b in v) + "]"
    if t is Duration:
        return go_duration_string(v.ns)
    if t is Timestamp:
        return format_go_time_string(v)
    if t is TypeValue:
        return str(v.name)
    if t is Err:
        return str(v.msg)
    if t is Optional:
        return f"optional({go_format_value(v.value)})" if v.has_value else "optional.none()"
    if isinstance(v, ListValue):
        return "[" + ", ".join(go_format_value(e) for e in v.items()) + "]"
    if isinstance(v, MapValue):
        return "{" + ", ".join(f"{go_format_value(k)}: {go_format_value(v.get(k))}" for k in v.keys()) + "}"
    s = getattr(v, "go_string", None)
    if s is not None:
        return s()  # type: ignore[no-any-return]
    return str(v)


def go_quote(s: str) -> str:
    """Go ``strconv.Quote``."""
    from crdtool.core.errors import go_quote as q

    return q(s)


def native_value(v: Any) -> Any:
    """``v.Value()`` as far as CEL can observe it: raw data for the unstructured values, the value itself otherwise."""
    t = type(v)
    if t in (str, int, bool, float, bytes) or v is None:
        return v
    if t is Optional:
        return native_value(v.value) if v.has_value else None
    if isinstance(v, ConcatList):
        return [native_value(e) for e in v.items()]
    nat = getattr(v, "native", None)
    if nat is not None:
        return nat()
    return v


# --- durations (Go time.ParseDuration, Duration.String) --------------------------------------------

_UNIT_NS = {"ns": 1, "us": 1000, "\u00b5s": 1000, "\u03bcs": 1000, "ms": 1_000_000, "s": NANOS_PER_SECOND,
            "m": 60 * NANOS_PER_SECOND, "h": 3600 * NANOS_PER_SECOND}


def parse_go_duration(s: str) -> int | str:
    """Go ``time.ParseDuration``: nanoseconds, or the error text."""
    orig = s
    d = 0
    neg = False
    if s:
        c = s[0]
        if c in "-+":
            neg = c == "-"
            s = s[1:]
    if s == "0":
        return 0
    if s == "":
        return f"time: invalid duration {go_quote(orig)}"
    while s:
        if not (s[0] == "." or "0" <= s[0] <= "9"):
            return f"time: invalid duration {go_quote(orig)}"
        # leading int
        i = 0
        while i < len(s) and "0" <= s[i] <= "9":
            i += 1
        pl = i
        v = int(s[:i]) if i else 0
        if v > 1 << 63:
            return f"time: invalid duration {go_quote(orig)}"
        s = s[i:]
        pre = pl != 0
        post = False
        f, scale = 0, 1.0
        if s and s[0] == ".":
            s = s[1:]
            j = 0
            overflow = False
            while j < len(s) and "0" <= s[j] <= "9":
                if not overflow:
                    if f > (1 << 63) // 10:
                        overflow = True
                    else:
                        f = f * 10 + int(s[j])
                        scale *= 10
                j += 1
            post = j != 0
            s = s[j:]
        if not pre and not post:
            return f"time: invalid duration {go_quote(orig)}"
        i = 0
        while i < len(s) and not (s[i] == "." or "0" <= s[i] <= "9"):
            i += 1
        if i == 0:
            return f"time: missing unit in duration {go_quote(orig)}"
        u = s[:i]
        s = s[i:]
        unit = _UNIT_NS.get(u)
        if unit is None:
            return f"time: unknown unit {go_quote(u)} in duration {go_quote(orig)}"
        if v > (1 << 63) // unit:
            return f"time: invalid duration {go_quote(orig)}"
        v *= unit
        if f > 0:
            v += int(float(f) * (float(unit) / scale))
            if v > 1 << 63:
                return f"time: invalid duration {go_quote(orig)}"
        d += v
        if d > 1 << 63:
            return f"time: invalid duration {go_quote(orig)}"
    if neg:
        return -d
    if d > (1 << 63) - 1:
        return f"time: invalid duration {go_quote(orig)}"
    return d


def go_duration_string(ns: int) -> str:
    """Go ``time.Duration.String``."""
    if ns == 0:
        return "0s"
    neg = ns < 0
    u = -ns if neg else ns
    if u < NANOS_PER_SECOND:
        if u < 1000:
            s = f"{u}ns"
        elif u < 1_000_000:
            s = _frac_unit(u, 3) + "\u00b5s"
        else:
            s = _frac_unit(u, 6) + "ms"
    else:
        secs, frac = divmod(u, NANOS_PER_SECOND)
        sec_s = str(secs % 60)
        if frac:
            sec_s += "." + f"{frac:09d}".rstrip("0")
        s = sec_s + "s"
        mins = secs // 60
        if mins:
            s = f"{mins % 60}m" + s
            hours = mins // 60
            if hours:
                s = f"{hours}h" + s
    return ("-" if neg else "") + s


def _frac_unit(u: int, prec: int) -> str:
    whole, frac = divmod(u, 10**prec)
    out = str(whole)
    if frac:
        out += "." + f"{frac:0{prec}d}".rstrip("0")
    return out


def format_duration_string(ns: int) -> str:
    """``string(duration)``: ``strconv.FormatFloat(d.Seconds(), 'f', -1, 64) + "s"``."""
    sec, nsec = divmod(ns, NANOS_PER_SECOND) if ns >= 0 else (-((-ns) // NANOS_PER_SECOND), -((-ns) % NANOS_PER_SECOND))
    seconds = float(sec) + float(nsec) / 1e9
    return go_format_float(seconds, "f") + "s"


# --- timestamps (RFC 3339 parsing and formatting) --------------------------------------------------

_DAYS_BEFORE = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334, 365]


def _is_leap(y: int) -> bool:
    return y % 4 == 0 and (y % 100 != 0 or y % 400 == 0)


def days_in(month: int, year: int) -> int:
    if month == 2 and _is_leap(year):
        return 29
    return _DAYS_BEFORE[month] - _DAYS_BEFORE[month - 1]


def days_from_civil(y: int, m: int, d: int) -> int:
    """Days since 1970-01-01 of a proleptic Gregorian date."""
    y -= m <= 2
    era = (y if y >= 0 else y - 399) // 400
    yoe = y - era * 400
    doy = (153 * (m + (-3 if m > 2 else 9)) + 2) // 5 + d - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


def civil_from_days(z: int) -> tuple[int, int, int]:
    z += 719468
    era = (z if z >= 0 else z - 146096) // 146097
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    y = yoe + era * 400
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    d = doy - (153 * mp + 2) // 5 + 1
    m = mp + (3 if mp < 10 else -9)
    return y + (m <= 2), m, d


def _digits(s: str) -> bool:
    return bool(s) and all("0" <= c <= "9" for c in s)


def parse_nanoseconds(frac: str) -> int:
    """Go ``parseNanoseconds`` of the digits after the point (more than 9 digits are truncated)."""
    digits = frac[:9]
    return int(digits + "0" * (9 - len(digits)))


def parse_rfc3339(s: str) -> Timestamp | None:
    """Go ``time.Parse(time.RFC3339, s)``: the fast path, then the layout parser's leniencies."""
    t = _parse_rfc3339_fast(s)
    if t is not None:
        return t
    return _parse_rfc3339_layout(s)


def _parse_rfc3339_fast(s: str) -> Timestamp | None:
    if len(s) < 19:
        return None
    ys, mos, ds, hs, mis, ss = s[0:4], s[5:7], s[8:10], s[11:13], s[14:16], s[17:19]
    if not all(_digits(x) for x in (ys, mos, ds, hs, mis, ss)):
        return None
    year, month, day, hour, minute, sec = int(ys), int(mos), int(ds), int(hs), int(mis), int(ss)
    if not (1 <= month <= 12) or not (0 <= hour <= 23) or not (0 <= minute <= 59) or not (0 <= sec <= 59):
        return None
    if not (1 <= day <= days_in(month, year)):
        return None
    if not (s[4] == "-" and s[7] == "-" and s[10] == "T" and s[13] == ":" and s[16] == ":"):
        return None
    rest = s[19:]
    nsec = 0
    if len(rest) >= 2 and rest[0] == "." and "0" <= rest[1] <= "9":
        n = 2
        while n < len(rest) and "0" <= rest[n] <= "9":
            n += 1
        nsec = parse_nanoseconds(rest[1:n])
        rest = rest[n:]
    secs = days_from_civil(year, month, day) * 86400 + hour * 3600 + minute * 60 + sec
    if rest == "Z":
        return Timestamp(secs, nsec, 0)
    if len(rest) != 6:
        return None
    hh, mm = rest[1:3], rest[4:6]
    if not (_digits(hh) and _digits(mm)) or int(hh) > 23 or int(mm) > 59:
        return None
    if rest[0] not in "+-" or rest[3] != ":":
        return None
    offset = (int(hh) * 60 + int(mm)) * 60
    if rest[0] == "-":
        offset = -offset
    return Timestamp(secs - offset, nsec, offset)


def _parse_rfc3339_layout(s: str) -> Timestamp | None:
    """The lenient ``Parse`` of layout ``2006-01-02T15:04:05Z07:00`` (one-digit hours, ``,`` fractions)."""
    m = re.fullmatch(r"(\d{4})-(\d{2})-(\d{2})T(\d{1,2}):(\d{2}):(\d{2})(?:[.,](\d+))?(Z|[+-]\d{2}:\d{2})", s)
    if m is None:
        return None
    year, month, day, hour, minute, sec = (int(m.group(i)) for i in range(1, 7))
    if not (1 <= month <= 12) or hour > 23 or minute > 59 or sec > 59 or not (1 <= day <= days_in(month, year)):
        return None
    nsec = parse_nanoseconds(m.group(7)) if m.group(7) else 0
    secs = days_from_civil(year, month, day) * 86400 + hour * 3600 + minute * 60 + sec
    tz = m.group(8)
    if tz == "Z":
        return Timestamp(secs, nsec, 0)
    hh, mm = int(tz[1:3]), int(tz[4:6])
    if hh > 24 or mm > 60:
        return None
    offset = (hh * 60 + mm) * 60 * (-1 if tz[0] == "-" else 1)
    return Timestamp(secs - offset, nsec, offset)


def civil(t: Timestamp, offset: int | None = None) -> tuple[int, int, int, int, int, int, int]:
    """(year, month, day, hour, minute, second, weekday) of ``t`` in a zone ``offset`` seconds east of UTC."""
    off = t.offset if offset is None else offset
    local = t.sec + off
    days, rem = divmod(local, 86400)
    y, mo, d = civil_from_days(days)
    weekday = (days + 4) % 7  # 1970-01-01 was a Thursday
    return y, mo, d, rem // 3600, (rem // 60) % 60, rem % 60, weekday


def year_day(y: int, m: int, d: int) -> int:
    return _DAYS_BEFORE[m - 1] + d + (1 if m > 2 and _is_leap(y) else 0)


def format_rfc3339_nano(t: Timestamp) -> str:
    """Go ``t.Format(time.RFC3339Nano)`` (zone printed as its offset, ``Z`` for UTC)."""
    y, mo, d, h, mi, s, _ = civil(t)
    out = f"{y:04d}-{mo:02d}-{d:02d}T{h:02d}:{mi:02d}:{s:02d}"
    if t.nsec:
        out += "." + f"{t.nsec:09d}".rstrip("0")
    if t.offset == 0:
        return out + "Z"
    off = t.offset
    sign = "-" if off < 0 else "+"
    off = abs(off)
    return out + f"{sign}{off // 3600:02d}:{(off // 60) % 60:02d}"


def format_go_time_string(t: Timestamp) -> str:
    """Go ``time.Time.String()`` (``2006-01-02 15:04:05.999999999 -0700 MST``)."""
    y, mo, d, h, mi, s, _ = civil(t)
    out = f"{y:04d}-{mo:02d}-{d:02d} {h:02d}:{mi:02d}:{s:02d}"
    if t.nsec:
        out += "." + f"{t.nsec:09d}".rstrip("0")
    off = t.offset
    sign = "-" if off < 0 else "+"
    a = abs(off)
    zone = "UTC" if off == 0 else ""
    return out + f" {sign}{a // 3600:02d}{(a // 60) % 60:02d} {zone}".rstrip()


# --- type conversions (ConvertToType) ----------------------------------------------------------------


def _conv_err(src: str, dst: str) -> Err:
    return Err(f"type conversion error from '{src}' to '{dst}'")


_GO_INT_RE = re.compile(r"[+-]?[0-9]+")
_GO_FLOAT_RE = re.compile(
    r"[+-]?(?:(?:[0-9_]*[0-9][0-9_]*\.?[0-9_]*|\.[0-9_]*[0-9][0-9_]*)(?:[eE][+-]?[0-9_]+)?"
    r"|0[xX](?:[0-9a-fA-F_]*[0-9a-fA-F][0-9a-fA-F_]*\.?[0-9a-fA-F_]*|\.[0-9a-fA-F_]*[0-9a-fA-F][0-9a-fA-F_]*)"
    r"[pP][+-]?[0-9_]+"
    r"|[iI][nN][fF](?:[iI][nN][iI][tT][yY])?|[nN][aA][nN])"
)


def _underscore_ok(s: str) -> bool:
    """Go ``strconv.underscoreOK``: underscores only between digits, or between a base prefix and a digit."""
    saw = "^"
    i = 0
    if s[:1] in ("-", "+"):
        s = s[1:]
    hexa = False
    if len(s) >= 2 and s[0] == "0" and s[1].lower() in "box":
        i = 2
        saw = "0"
        hexa = s[1].lower() == "x"
    while i < len(s):
        c = s[i]
        if "0" <= c <= "9" or (hexa and "a" <= c.lower() <= "f"):
            saw = "0"
        elif c == "_":
            if saw != "0":
                return False
            saw = "_"
        else:
            if saw == "_":
                return False
            saw = "!"
        i += 1
    return saw != "_"


def parse_go_float(s: str) -> float | None:
    """Go ``strconv.ParseFloat(s, 64)`` (None on error, including out-of-range); digit-separating underscores are
    accepted as Go's ``readFloat`` accepts them (``underscoreOK``), so ``double('1_000')`` is 1000.0."""
    if not _GO_FLOAT_RE.fullmatch(s):
        return None
    if "_" in s and not _underscore_ok(s):
        return None
    t = s.replace("_", "")
    low = t.lower().lstrip("+-")
    neg = t.startswith("-")
    if low in ("inf", "infinity"):
        return -math.inf if neg else math.inf
    if low == "nan":
        return math.nan
    try:
        if low.startswith("0x"):
            v = float.fromhex(t)
        else:
            v = float(t)
    except (ValueError, OverflowError):
        return None
    if math.isinf(v):
        return None
    return v


_GO_BOOLS = {"1": True, "t": True, "T": True, "TRUE": True, "true": True, "True": True,
             "0": False, "f": False, "F": False, "FALSE": False, "false": False, "False": False}


def convert_to_type(v: Any, target: TypeValue) -> Any:  # noqa: C901 - one case per type, as upstream
    """``v.ConvertToType(target)`` for the conversion functions (``int()``, ``string()``, ``type()`` ...)."""
    t = type(v)
    name = target.name
    if name == "type":
        return type_of(v)
    if t is int:
        if name == "int":
            return v
        if name == "uint":
            return Uint(v) if v >= 0 else Err(_UINT_OVERFLOW)
        if name == "double":
            return float(v)
        if name == "string":
            return str(v)
        if name == "google.protobuf.Timestamp":
            if v < MIN_UNIX_TIME or v > MAX_UNIX_TIME:
                return Err("timestamp overflow")
            return Timestamp(v, 0, 0)
        return _conv_err("int", name)
    if t is str:
        if name == "string":
            return v
        if name == "int":
            if _GO_INT_RE.fullmatch(v):
                n = int(v)
                if INT64_MIN <= n <= INT64_MAX:
                    return n
        elif name == "uint":
            if re.fullmatch(r"\+?[0-9]+", v):
                n = int(v)
                if n <= UINT64_MAX:
                    return Uint(n)
        elif name == "double":
            f = parse_go_float(v)
            if f is not None:
                return f
        elif name == "bool":
            b = _GO_BOOLS.get(v)
            if b is not None:
                return b
        elif name == "bytes":
            return v.encode("utf-8", "surrogatepass")
        elif name == "google.protobuf.Duration":
            d = parse_go_duration(v)
            if type(d) is int:
                return Duration(d)
        elif name == "google.protobuf.Timestamp":
            ts = parse_rfc3339(v)
            if ts is not None:
                if ts.sec < MIN_UNIX_TIME or ts.sec > MAX_UNIX_TIME:
                    return Err("timestamp overflow")
                return ts
        return _conv_err("string", name)
    if t is float:
        if name == "int":
            return double_to_int64_checked(v)
        if name == "uint":
            return double_to_uint64_checked(v)
        if name == "double":
            return v
        if name == "string":
            return go_format_float(v, "g")
        return _conv_err("double", name)
    if t is Uint:
        if name == "int":
            return v.v if v.v <= INT64_MAX else Err(_INT_OVERFLOW)
        if name == "uint":
            return v
        if name == "double":
            return float(v.v)
        if name == "string":
            return str(v.v)
        return _conv_err("uint", name)
    if t is bool:
        if name == "string":
            return "true" if v else "false"
        if name == "bool":
            return v
        return Err(f"type conversion error from 'bool' to '{name}'")
    if t is bytes:
        if name == "string":
            try:
                return v.decode("utf-8")
            except UnicodeDecodeError:
                return Err("invalid UTF-8 in bytes, cannot convert to string")
        if name == "bytes":
            return v
        return _conv_err("bytes", name)
    if v is None:
        if name == "string":
            return "null"
        if name == "null_type":
            return v
        return _conv_err("null_type", name)
    if t is Duration:
        if name == "string":
            return format_duration_string(v.ns)
        if name == "int":
            return v.ns
        if name == "google.protobuf.Duration":
            return v
        return _conv_err("google.protobuf.Duration", name)
    if t is Timestamp:
        if name == "string":
            return format_rfc3339_nano(v)
        if name == "int":
            return v.sec
        if name == "google.protobuf.Timestamp":
            return v
        return _conv_err("google.protobuf.Timestamp", name)
    if t is TypeValue:
        if name == "string":
            return v.name
        return _conv_err("type", name)
    if t is Err:
        return v
    if t is Optional:
        if name == "optional_type":
            return v
        return _conv_err("optional_type", name)
    if isinstance(v, ListValue):
        if name == "list":
            return v
        return _conv_err("list", name)
    if isinstance(v, MapValue):
        if name == "map":
            return v
        return _conv_err("map", name)
    conv = getattr(v, "convert_to_type", None)
    if conv is not None:
        return conv(target)
    return _conv_err(type_name(v), name)


def make_list(elems: list[Any]) -> BaseList:
    return BaseList(elems)


Callable  # re-exported for type annotations in sibling modules


# --- raw data through the default type adapter ------------------------------------------------------------


class NativeMap(MapValue):
    """``NewStringInterfaceMap``: a ``map[string]any`` whose values are adapted on access."""

    __slots__ = ("value",)
    go_type = "*types.baseMap"

    def __init__(self, value: dict[str, Any]) -> None:
        self.value = value

    def size(self) -> int:
        return len(self.value)

    def find(self, key: Any) -> tuple[Any, bool]:
        if type(key) is not str or key not in self.value:
            return None, False
        return adapt_native(self.value[key]), True

    def keys(self) -> list[Any]:
        return list(self.value)

    def native(self) -> Any:
        return self.value


class NativeList(ListValue):
    """``NewDynamicList``: a ``[]any`` whose elements are adapted on access."""

    __slots__ = ("elems",)
    go_type = "*types.baseList"

    def __init__(self, elems: list[Any]) -> None:
        self.elems = elems

    def size(self) -> int:
        return len(self.elems)

    def get(self, index: Any) -> Any:
        i, err = index_or_error(index)
        if err is not None:
            return val_or_err(index, err)
        if i < 0 or i >= len(self.elems):
            return Err(f"index '{i}' out of range in list size '{len(self.elems)}'")
        return adapt_native(self.elems[i])

    def items(self) -> list[Any]:
        return [adapt_native(e) for e in self.elems]

    def contains(self, elem: Any) -> Any:
        for v in self.items():
            if value_equal(elem, v) is True:
                return True
        return False

    def equal(self, other: Any) -> Any:
        return BaseList(self.items()).equal(other)

    def add(self, other: Any) -> Any:
        return BaseList(self.items()).add(other)

    def native(self) -> Any:
        return self.elems


def adapt_native(v: Any) -> Any:
    """``DefaultTypeAdapter.NativeToValue`` of a Go value (raw JSON data, or a CEL value already)."""
    t = type(v)
    if t is dict:
        return NativeMap(v)
    if t is list:
        return NativeList(v)
    return v


def receive(val: Any, function: str, args: list[Any]) -> Any:
    """``Receive`` of strings (``contains``/``endsWith``/``startsWith``), durations and timestamps."""
    t = type(val)
    if t is str:
        if len(args) == 1:
            sf = {"contains": string_contains, "endsWith": string_ends_with, "startsWith": string_starts_with}.get(
                function)
            if sf is not None:
                return sf(val, args[0])
        return NO_SUCH_OVERLOAD
    if t is Duration:
        if not args:
            f = DURATION_GETTERS.get(function)
            if f is not None:
                return f(val)
        return NO_SUCH_OVERLOAD
    if t is Timestamp:
        if not args:
            g = TIME_GETTERS.get(function)
            if g is not None:
                return g(civil(val), val)
        elif len(args) == 1:
            g = TIME_GETTERS.get(function)
            if g is not None:
                return timestamp_getter(g)(val, args[0])
        return NO_SUCH_OVERLOAD
    return NO_SUCH_OVERLOAD


# --- receivers (traits.Receiver: common/types string.go, duration.go, timestamp.go) ---------------------


def string_contains(s: Any, sub: Any) -> Any:
    if type(s) is not str:
        return maybe_no_such_overload(s)
    if type(sub) is not str:
        return maybe_no_such_overload(sub)
    return sub in s


def string_ends_with(s: Any, suf: Any) -> Any:
    if type(s) is not str:
        return maybe_no_such_overload(s)
    if type(suf) is not str:
        return maybe_no_such_overload(suf)
    return s.endswith(suf)


def string_starts_with(s: Any, pre: Any) -> Any:
    if type(s) is not str:
        return maybe_no_such_overload(s)
    if type(pre) is not str:
        return maybe_no_such_overload(pre)
    return s.startswith(pre)


def _t_year(c: tuple[int, ...], t: Timestamp) -> int:
    return c[0]


TIME_GETTERS: dict[str, Callable[[tuple[int, ...], Timestamp], int]] = {
    "getFullYear": lambda c, t: c[0],
    "getMonth": lambda c, t: c[1] - 1,
    "getDayOfYear": lambda c, t: year_day(c[0], c[1], c[2]) - 1,
    "getDayOfMonth": lambda c, t: c[2] - 1,
    "getDate": lambda c, t: c[2],
    "getDayOfWeek": lambda c, t: c[6],
    "getHours": lambda c, t: c[3],
    "getMinutes": lambda c, t: c[4],
    "getSeconds": lambda c, t: c[5],
    "getMilliseconds": lambda c, t: t.nsec // 1_000_000,
}


def _go_atoi(s: str) -> int | str:
    """Go ``strconv.Atoi``: the int or the error text."""
    body = s[1:] if s[:1] in ("+", "-") else s
    if not body or not all("0" <= c <= "9" for c in body):
        return f'strconv.Atoi: parsing {go_quote(s)}: invalid syntax'
    n = int(s)
    if not INT64_MIN <= n <= INT64_MAX:
        return f'strconv.Atoi: parsing {go_quote(s)}: value out of range'
    return n


def zone_offset(t: Timestamp, tz: str) -> int | str:
    """The offset (seconds east) of zone ``tz`` at ``t`` (``inTimeZone``), or the error text."""
    ind = tz.find(":")
    if ind == -1:
        if tz in ("", "UTC", "Local"):
            return 0
        if ".." in tz or tz[0] in "/\\":
            return "time: invalid location name"
        try:
            import zoneinfo

            zi = zoneinfo.ZoneInfo(tz)
        except Exception:  # noqa: BLE001 - any lookup failure is "unknown time zone"
            return f"unknown time zone {tz}"
        import datetime

        dt = datetime.datetime.fromtimestamp(t.sec, tz=datetime.timezone.utc).astimezone(zi)
        off = dt.utcoffset()
        return int(off.total_seconds()) if off is not None else 0
    hr = _go_atoi(tz[:ind])
    if type(hr) is str:
        return hr
    mi = _go_atoi(tz[ind + 1:])
    if type(mi) is str:
        return mi
    assert isinstance(hr, int) and isinstance(mi, int)
    offset = hr * 60 - mi if tz[0] == "-" else hr * 60 + mi
    secs = offset * 60
    if not INT64_MIN <= secs * 1_000_000_000 <= INT64_MAX:
        secs = int((offset * 60_000_000_000 & 0xFFFFFFFFFFFFFFFF) - (1 << 64 if (offset * 60_000_000_000) & (1 << 63) else 0)) // 1_000_000_000
    return secs


def timestamp_getter(getter: Callable[[tuple[int, ...], Timestamp], int]) -> Callable[[Any, Any], Any]:
    def fn(ts: Any, tz: Any) -> Any:
        if type(tz) is not str:
            return maybe_no_such_overload(tz)
        off = zone_offset(ts, tz)
        if type(off) is str:
            return Err(off)
        assert isinstance(off, int)
        return getter(civil(ts, off), ts)

    return fn


def utc_getter(getter: Callable[[tuple[int, ...], Timestamp], int]) -> Callable[[Any], Any]:
    return lambda ts: getter(civil(ts, 0), ts)


def _dur_hours(d: Any) -> Any:
    if type(d) is not Duration:
        return maybe_no_such_overload(d)
    return int(d.ns / 3_600_000_000_000) if abs(d.ns) < (1 << 53) else _trunc_div_float(d.ns, 3_600_000_000_000)


def _trunc_div_float(ns: int, unit: int) -> int:
    q, r = abs(ns) // unit, abs(ns) % unit
    val = float(q) + float(r) / float(unit)
    return -int(val) if ns < 0 else int(val)


def _dur_minutes(d: Any) -> Any:
    if type(d) is not Duration:
        return maybe_no_such_overload(d)
    return _trunc_div_float(d.ns, 60_000_000_000)


def _dur_seconds(d: Any) -> Any:
    if type(d) is not Duration:
        return maybe_no_such_overload(d)
    return _trunc_div_float(d.ns, 1_000_000_000)


def _dur_millis(d: Any) -> Any:
    if type(d) is not Duration:
        return maybe_no_such_overload(d)
    return int(d.ns / 1_000_000) if abs(d.ns) < (1 << 53) else (abs(d.ns) // 1_000_000) * (1 if d.ns >= 0 else -1)


DURATION_GETTERS = {"getHours": _dur_hours, "getMinutes": _dur_minutes, "getSeconds": _dur_seconds,
                     "getMilliseconds": _dur_millis}


@functools.lru_cache(maxsize=512)
def compile_regex(pattern: str) -> Any:
    """Go ``regexp.Compile`` (RE2 syntax): the compiled pattern, or the error value."""
    import re2

    err = go_regexp_error(pattern)
    if err is not None:
        return Err(err)
    try:
        opts = re2.Options()
        opts.max_mem = 256 << 20
        return re2.compile(pattern, options=opts)
    except Exception as exc:  # noqa: BLE001 - re2 reports its own error type
        return Err(f"error parsing regexp: {exc}")
