"""CEL types as cel-go's checker sees them.

Mirrors ``github.com/google/cel-go`` v0.26.0:

* ``common/types/types.go``: :class:`Type` (kind, runtime type name,
  parameters; ``NewNullableType`` wrappers), ``IsExactType``,
  ``IsEquivalentType``, ``IsAssignableType``, ``DeclaredTypeName``,
  ``String``;
* ``checker/types.go``: ``isDyn``, ``isAssignable``, ``isEqualOrLessSpecific``,
  ``isValidTypeSubstitution``, ``notReferencedIn``, ``substitute``,
  ``mostGeneral``, ``newFunctionType``;
* ``checker/mapping.go``: the type-parameter substitution :class:`Mapping`,
  keyed by ``FormatCELType`` like upstream;
* ``checker/format.go``: :func:`format_cel_type` and
  :func:`format_function_decl_type` (the texts in checker error messages).

Types are immutable and compared structurally (upstream compares pointers in
a few fast paths; the structural result is the same). :func:`parse_type`
reads the compact signature syntax used by :mod:`crdtool.core.celgo.decls`
(``list(A)``, ``map(string, dyn)``, ``optional_type(V)``, ``type(A)``,
``net.IP``).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

__all__ = [
    "ANY",
    "BOOL",
    "BYTES",
    "DOUBLE",
    "DURATION",
    "DYN",
    "ERROR",
    "INT",
    "Kind",
    "Mapping",
    "NULL",
    "STRING",
    "TIMESTAMP",
    "TYPE",
    "Type",
    "UINT",
    "format_cel_type",
    "format_function_decl_type",
    "function_type",
    "is_assignable",
    "is_assignable_list",
    "is_dyn",
    "is_dyn_or_error",
    "is_error",
    "is_optional",
    "list_of",
    "map_of",
    "maybe_unwrap_optional",
    "most_general",
    "object_type",
    "opaque_type",
    "optional_of",
    "parse_type",
    "substitute",
    "type_param",
    "type_type",
]


class Kind(enum.IntEnum):
    """``types.Kind``."""

    UNSPECIFIED = 0
    DYN = 1
    ANY = 2
    BOOL = 3
    BYTES = 4
    DOUBLE = 5
    DURATION = 6
    ERROR = 7
    INT = 8
    LIST = 9
    MAP = 10
    NULL_TYPE = 11
    OPAQUE = 12
    STRING = 13
    STRUCT = 14
    TIMESTAMP = 15
    TYPE = 16
    TYPE_PARAM = 17
    UINT = 18
    UNKNOWN = 19


@dataclass(frozen=True, slots=True)
class Type:
    """``types.Type``: a kind, the runtime type name and type parameters.

    ``nullable`` marks ``NewNullableType`` wrappers (proto wrapper types such
    as ``google.protobuf.Int64Value``): assignable from ``null`` as well.
    """

    kind: Kind
    name: str
    params: tuple[Type, ...] = ()
    nullable: bool = False

    def __str__(self) -> str:
        return type_string(self)


DYN = Type(Kind.DYN, "dyn")
ANY = Type(Kind.ANY, "google.protobuf.Any")
BOOL = Type(Kind.BOOL, "bool")
BYTES = Type(Kind.BYTES, "bytes")
DOUBLE = Type(Kind.DOUBLE, "double")
DURATION = Type(Kind.DURATION, "google.protobuf.Duration")
ERROR = Type(Kind.ERROR, "error")
INT = Type(Kind.INT, "int")
NULL = Type(Kind.NULL_TYPE, "null_type")
STRING = Type(Kind.STRING, "string")
TIMESTAMP = Type(Kind.TIMESTAMP, "google.protobuf.Timestamp")
TYPE = Type(Kind.TYPE, "type")
UINT = Type(Kind.UINT, "uint")
UNKNOWN = Type(Kind.UNKNOWN, "unknown")


def list_of(elem: Type) -> Type:
    """``types.NewListType``."""
    return Type(Kind.LIST, "list", (elem,))


def map_of(key: Type, value: Type) -> Type:
    """``types.NewMapType``."""
    return Type(Kind.MAP, "map", (key, value))


def opaque_type(name: str, *params: Type) -> Type:
    """``types.NewOpaqueType``."""
    return Type(Kind.OPAQUE, name, tuple(params))


def optional_of(param: Type) -> Type:
    """``types.NewOptionalType``: ``optional_type(T)``."""
    return Type(Kind.OPAQUE, "optional_type", (param,))


def type_param(name: str) -> Type:
    """``types.NewTypeParamType``."""
    return Type(Kind.TYPE_PARAM, name)


def type_type(param: Type | None = None) -> Type:
    """``types.NewTypeTypeWithParam`` (``TypeType`` without a parameter)."""
    return TYPE if param is None else Type(Kind.TYPE, "type", (param,))


def nullable(wrapped: Type) -> Type:
    """``types.NewNullableType``."""
    return Type(wrapped.kind, wrapped.name, wrapped.params, True)


_CHECKED_WELL_KNOWNS: dict[str, Type] = {
    "google.protobuf.BoolValue": nullable(BOOL),
    "google.protobuf.BytesValue": nullable(BYTES),
    "google.protobuf.DoubleValue": nullable(DOUBLE),
    "google.protobuf.FloatValue": nullable(DOUBLE),
    "google.protobuf.Int64Value": nullable(INT),
    "google.protobuf.Int32Value": nullable(INT),
    "google.protobuf.UInt64Value": nullable(UINT),
    "google.protobuf.UInt32Value": nullable(UINT),
    "google.protobuf.StringValue": nullable(STRING),
    "google.protobuf.Any": ANY,
    "google.protobuf.Duration": DURATION,
    "google.protobuf.Timestamp": TIMESTAMP,
    "google.protobuf.ListValue": list_of(DYN),
    "google.protobuf.NullValue": NULL,
    "google.protobuf.Struct": map_of(STRING, DYN),
    "google.protobuf.Value": DYN,
}


def object_type(name: str) -> Type:
    """``types.NewObjectType``: a message type (well-known names map to their CEL type)."""
    wkt = _CHECKED_WELL_KNOWNS.get(name)
    if wkt is not None:
        return wkt
    return Type(Kind.STRUCT, name)


# --- common/types/types.go ------------------------------------------------------------------


def _is_dyn_like(t: Type) -> bool:
    """``Type.isDyn``: dyn, any or a type parameter."""
    return t.kind in (Kind.DYN, Kind.ANY, Kind.TYPE_PARAM)


def is_exact_type(t: Type, other: Type) -> bool:
    """``Type.IsExactType``."""
    return _is_type_internal(t, other, True)


def is_equivalent_type(t: Type, other: Type) -> bool:
    """``Type.IsEquivalentType``: like exact, but type parameter names may differ."""
    return _is_type_internal(t, other, False)


def _is_type_internal(t: Type, other: Type, check_type_param_name: bool) -> bool:
    if t is other:
        return True
    if t.kind != other.kind or len(t.params) != len(other.params):
        return False
    if (check_type_param_name or t.kind != Kind.TYPE_PARAM) and t.name != other.name:
        return False
    return all(_is_type_internal(p, o, check_type_param_name) for p, o in zip(t.params, other.params))


def is_assignable_type(t: Type, from_type: Type) -> bool:
    """``Type.IsAssignableType`` (with ``NewNullableType``'s override)."""
    if t.nullable:
        return is_assignable_type(NULL, from_type) or _default_is_assignable_type(t, from_type)
    return _default_is_assignable_type(t, from_type)


def _default_is_assignable_type(t: Type, from_type: Type) -> bool:
    if t == from_type or _is_dyn_like(t):
        return True
    if t.kind != from_type.kind or t.name != from_type.name or len(t.params) != len(from_type.params):
        return False
    return all(is_assignable_type(tp, fp) for tp, fp in zip(t.params, from_type.params))


def declared_type_name(t: Type) -> str:
    """``Type.DeclaredTypeName``: ``wrapper(int)`` for nullable primitives, else the type name."""
    if t.kind != Kind.NULL_TYPE and not _is_dyn_like(t) and is_assignable_type(t, NULL):
        return f"wrapper({t.name})"
    return t.name


def type_string(t: Type) -> str:
    """``Type.String``."""
    if t.kind == Kind.TYPE_PARAM:
        return f"<{declared_type_name(t)}>"
    if not t.params:
        return declared_type_name(t)
    return f"{declared_type_name(t)}({', '.join(type_string(p) for p in t.params)})"


# --- checker/format.go ----------------------------------------------------------------------


#: The kinds whose ``FormatCELType`` text is their name when they have no parameters and are not nullable: the
#: ``DeclaredTypeName`` of every other kind than those :func:`format_cel_type` tells apart, and a type parameter's.
_NAMED_FORMAT_KINDS = frozenset({
    Kind.DYN, Kind.BOOL, Kind.BYTES, Kind.DOUBLE, Kind.INT, Kind.LIST, Kind.MAP, Kind.STRING, Kind.STRUCT, Kind.TYPE,
    Kind.TYPE_PARAM, Kind.UINT, Kind.UNKNOWN,
})


def format_cel_type(t: Type | None) -> str:
    """``checker.FormatCELType``: the type text of checker error messages (and :class:`Mapping`'s keys)."""
    if t is None:
        return ""
    if not t.params and not t.nullable and t.kind in _NAMED_FORMAT_KINDS:
        return t.name  # the common case first: _format_cases gives the name too
    return _format_cases(t)


def _format_cases(t: Type) -> str:
    """``checker.FormatCELType`` of a type, case by case in upstream's order (:func:`format_cel_type` without its
    shortcut for the types named by their name)."""
    k = t.kind
    if k == Kind.ANY:
        return "any"
    if k == Kind.DURATION:
        return "duration"
    if k == Kind.ERROR:
        return "!error!"
    if k == Kind.NULL_TYPE:
        return "null"
    if k == Kind.TIMESTAMP:
        return "timestamp"
    if k == Kind.TYPE_PARAM:
        return t.name
    if k == Kind.OPAQUE and t.name == "function":
        return format_function_decl_type(t.params[0], list(t.params[1:]), False)
    if k == Kind.UNSPECIFIED:
        return ""
    if not t.params:
        return declared_type_name(t)
    return f"{t.name}({', '.join(format_cel_type(p) for p in t.params)})"


def format_function_decl_type(result: Type | None, args: list[Type], is_instance: bool) -> str:
    """``checker.formatFunctionDeclType``: ``target.(arg, ...) -> result``."""
    out = ""
    if is_instance:
        out += format_cel_type(args[0]) + "."
        args = args[1:]
    out += "(" + ", ".join(format_cel_type(a) for a in args) + ")"
    rt = format_cel_type(result)
    if rt:
        out += " -> " + rt
    return out


# --- checker/mapping.go -----------------------------------------------------------------------


class Mapping:
    """``checker.mapping``: type-parameter substitutions keyed by ``FormatCELType``."""

    __slots__ = ("_m",)

    def __init__(self, m: dict[str, Type] | None = None) -> None:
        self._m: dict[str, Type] = {} if m is None else m

    def add(self, from_type: Type, to: Type) -> None:
        self._m[format_cel_type(from_type)] = to

    def find(self, from_type: Type) -> Type | None:
        return self._m.get(format_cel_type(from_type))

    def copy(self) -> Mapping:
        return Mapping(dict(self._m))


# --- checker/types.go -------------------------------------------------------------------------


def is_dyn(t: Type) -> bool:
    """``checker.isDyn``: dyn or any (not type parameters)."""
    return t.kind in (Kind.DYN, Kind.ANY)


def is_error(t: Type) -> bool:
    return t.kind == Kind.ERROR


def is_dyn_or_error(t: Type) -> bool:
    return is_error(t) or is_dyn(t)


def is_optional(t: Type) -> bool:
    return t.kind == Kind.OPAQUE and t.name == "optional_type"


def maybe_unwrap_optional(t: Type) -> tuple[Type, bool]:
    if is_optional(t):
        return t.params[0], True
    return t, False


def _is_equal_or_less_specific(t1: Type, t2: Type) -> bool:
    k1, k2 = t1.kind, t2.kind
    if is_dyn(t1) or k1 == Kind.TYPE_PARAM:
        return True
    if is_dyn(t2) or k2 == Kind.TYPE_PARAM:
        return False
    if k1 != k2:
        return False
    if k1 == Kind.OPAQUE:
        if t1.name != t2.name or len(t1.params) != len(t2.params):
            return False
        return all(_is_equal_or_less_specific(p1, p2) for p1, p2 in zip(t1.params, t2.params))
    if k1 == Kind.LIST:
        return _is_equal_or_less_specific(t1.params[0], t2.params[0])
    if k1 == Kind.MAP:
        return _is_equal_or_less_specific(t1.params[0], t2.params[0]) and _is_equal_or_less_specific(
            t1.params[1], t2.params[1]
        )
    if k1 == Kind.TYPE:
        return True
    return is_exact_type(t1, t2)


_ASSIGNABLE_BY_TYPE = frozenset(
    {
        Kind.BOOL, Kind.BYTES, Kind.DOUBLE, Kind.INT, Kind.STRING, Kind.UINT,
        Kind.ANY, Kind.DURATION, Kind.TIMESTAMP, Kind.STRUCT,
    }
)


def _internal_is_assignable(m: Mapping, t1: Type, t2: Type) -> bool:
    k1, k2 = t1.kind, t2.kind
    if k2 == Kind.TYPE_PARAM:
        valid, t2_has_sub = _is_valid_type_substitution(m, t1, t2)
        if valid:
            return True
        if t2_has_sub:
            return False
    if k1 == Kind.TYPE_PARAM:
        valid, _ = _is_valid_type_substitution(m, t2, t1)
        return valid
    if is_dyn_or_error(t1) or is_dyn_or_error(t2):
        return True
    if k1 == Kind.NULL_TYPE:
        return _internal_is_assignable_null(t2)
    if k2 == Kind.NULL_TYPE:
        return _internal_is_assignable_null(t1)
    if k1 in _ASSIGNABLE_BY_TYPE:
        return is_assignable_type(t2, t1)
    if k1 == Kind.TYPE:
        return k2 == Kind.TYPE
    if k1 in (Kind.OPAQUE, Kind.LIST, Kind.MAP):
        return k1 == k2 and t1.name == t2.name and _internal_is_assignable_list(m, t1.params, t2.params)
    return False


def _is_valid_type_substitution(m: Mapping, t1: Type, t2: Type) -> tuple[bool, bool]:
    """``isValidTypeSubstitution``: ``(valid, t2 already had a substitution)``."""
    if t1.kind == t2.kind and is_exact_type(t1, t2):
        return True, True
    t2_sub = m.find(t2)
    if t2_sub is not None:
        if t1.kind == t2_sub.kind and is_exact_type(t1, t2_sub):
            return True, True
        if _internal_is_assignable(m, t1, t2_sub):
            t2_new = most_general(t1, t2_sub)
            if _not_referenced_in(m, t2, t2_new):
                m.add(t2, t2_new)
            return True, True
        return False, True
    if _not_referenced_in(m, t2, t1):
        m.add(t2, t1)
        return True, False
    return False, False


def _internal_is_assignable_list(m: Mapping, l1: tuple[Type, ...] | list[Type], l2: tuple[Type, ...] | list[Type]) -> bool:
    if len(l1) != len(l2):
        return False
    return all(_internal_is_assignable(m, a, b) for a, b in zip(l1, l2))


def _internal_is_assignable_null(t: Type) -> bool:
    return _is_legacy_nullable(t) or is_assignable_type(t, NULL)


def _is_legacy_nullable(t: Type) -> bool:
    return t.kind in (Kind.OPAQUE, Kind.STRUCT, Kind.ANY, Kind.DURATION, Kind.TIMESTAMP)


def is_assignable(m: Mapping, t1: Type, t2: Type) -> Mapping | None:
    """``checker.isAssignable``: the extended mapping if ``t2`` is assignable to ``t1``, else None."""
    copy = m.copy()
    if _internal_is_assignable(copy, t1, t2):
        return copy
    return None


def is_assignable_list(m: Mapping, l1: list[Type], l2: tuple[Type, ...] | list[Type]) -> Mapping | None:
    """``checker.isAssignableList``."""
    copy = m.copy()
    if _internal_is_assignable_list(copy, l1, l2):
        return copy
    return None


def most_general(t1: Type, t2: Type) -> Type:
    if _is_equal_or_less_specific(t1, t2):
        return t1
    return t2


def _not_referenced_in(m: Mapping, t: Type, within: Type) -> bool:
    if is_exact_type(t, within):
        return False
    k = within.kind
    if k == Kind.TYPE_PARAM:
        sub = m.find(within)
        if sub is None:
            return True
        return _not_referenced_in(m, t, sub)
    if k in (Kind.OPAQUE, Kind.LIST, Kind.MAP, Kind.TYPE):
        return all(_not_referenced_in(m, t, p) for p in within.params)
    return True


def substitute(m: Mapping, t: Type, type_param_to_dyn: bool) -> Type:
    """``checker.substitute``: apply the mapping (type parameters left unbound become dyn if asked)."""
    sub = m.find(t)
    if sub is not None:
        return substitute(m, sub, type_param_to_dyn)
    k = t.kind
    if type_param_to_dyn and k == Kind.TYPE_PARAM:
        return DYN
    if k == Kind.OPAQUE:
        return opaque_type(t.name, *(substitute(m, p, type_param_to_dyn) for p in t.params))
    if k == Kind.LIST:
        return list_of(substitute(m, t.params[0], type_param_to_dyn))
    if k == Kind.MAP:
        return map_of(substitute(m, t.params[0], type_param_to_dyn), substitute(m, t.params[1], type_param_to_dyn))
    if k == Kind.TYPE and t.params:
        return type_type(substitute(m, t.params[0], type_param_to_dyn))
    return t


def function_type(result: Type, *args: Type) -> Type:
    """``checker.newFunctionType``: ``function(result, args...)``."""
    return opaque_type("function", result, *args)


# --- signature syntax ---------------------------------------------------------------------------

_NAMED: dict[str, Type] = {
    "bool": BOOL, "bytes": BYTES, "double": DOUBLE, "duration": DURATION, "dyn": DYN, "any": ANY,
    "error": ERROR, "int": INT, "null_type": NULL, "string": STRING, "timestamp": TIMESTAMP,
    "type": TYPE, "uint": UINT,
}

#: Opaque (abstract) type names used by the Kubernetes libraries.
_OPAQUE_NAMES = frozenset({"net.IP", "net.CIDR"})


def parse_type(text: str) -> Type:
    """Read a signature type: ``int``, ``list(A)``, ``map(string, V)``, ``optional_type(V)``, ``type(A)``.

    Single upper-case letters are type parameters; ``net.IP``/``net.CIDR`` are
    opaque; other dotted names are object (message) types.
    Raises ``ValueError`` on malformed text.
    """
    t, rest = _parse_type(text.strip())
    if rest.strip():
        raise ValueError(f"trailing text in type {text!r}")
    return t


def _parse_type(s: str) -> tuple[Type, str]:
    s = s.lstrip()
    i = 0
    while i < len(s) and (s[i].isalnum() or s[i] in "._"):
        i += 1
    name, rest = s[:i], s[i:].lstrip()
    if not name:
        raise ValueError(f"expected a type at {s!r}")
    params: list[Type] = []
    if rest.startswith("("):
        rest = rest[1:]
        while True:
            p, rest = _parse_type(rest)
            params.append(p)
            rest = rest.lstrip()
            if rest.startswith(","):
                rest = rest[1:]
                continue
            if rest.startswith(")"):
                rest = rest[1:]
                break
            raise ValueError(f"expected ',' or ')' at {rest!r}")
    if name == "list":
        return list_of(params[0] if params else DYN), rest
    if name == "map":
        return (map_of(params[0], params[1]) if params else map_of(DYN, DYN)), rest
    if name == "type":
        return type_type(params[0] if params else None), rest
    if name == "optional_type":
        return optional_of(params[0]), rest
    if name == "wrapper":
        return nullable(params[0]), rest
    if name == "null" and not params:
        return NULL, rest
    if name in _NAMED and not params:
        return _NAMED[name], rest
    if len(name) == 1 and name.isupper():
        return type_param(name), rest
    if name in _OPAQUE_NAMES or params:
        return opaque_type(name, *params), rest
    return object_type(name), rest
