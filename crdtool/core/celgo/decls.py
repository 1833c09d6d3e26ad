"""The function declarations of cel-go's libraries, for the type checker.

Each table lists ``(function name, ((overload id, member?, argument types,
result type), ...))`` in the compact type syntax of
:func:`crdtool.core.celgo.types.parse_type`, transcribed from cel-go v0.26.0:

* ``common/stdlib/standard.go`` (the standard library, with
  ``DefaultUTCTimeZone``; disabled legacy declarations omitted);
* ``cel/library.go`` (``cel.OptionalTypes()``, every version), ``ext/strings.go``
  (version 2, and version 0 without ``format`` and ``strings.quote``),
  ``ext/sets.go``, ``ext/lists.go`` (version 3), ``ext/comprehensions.go``
  (``cel.@mapInsert``).

:func:`merge_functions` merges tables in the order an environment applies its
libraries, as cel-go's ``FunctionDecl.Merge`` does (overloads appended, an
overload id seen before skipped); the Kubernetes libraries' tables are in
:mod:`crdtool.core.kubecel.library_decls`. :func:`type_identifiers` lists the
type names usable as identifiers (``int``, ``list``, ``optional_type`` ...).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from crdtool.core.celgo.types import Type, format_cel_type, opaque_type, parse_type, type_type
from crdtool.core.celgo.types import Kind as _Kind
from crdtool.core.celgo.version import DEFAULT as DEFAULT_CEL_GO
from crdtool.core.celgo.version import has

__all__ = ["FunctionDecl", "LIBRARIES", "OPTIONAL_V2_FUNCTIONS", "OverloadDecl", "Table", "functions", "library_table",
           "merge_functions", "type_identifiers"]

#: A library's declarations: ``(function name, ((overload id, member?, argument types, result type), ...))``.
Table = tuple[tuple[str, tuple[tuple[str, bool, tuple[str, ...], str], ...]], ...]
_Table = Table


# common/stdlib/standard.go
_STANDARD: _Table = (
    ("_?_:_", (
        ("conditional", False, ("bool", "A", "A"), "A"),
    )),
    ("_&&_", (
        ("logical_and", False, ("bool", "bool"), "bool"),
    )),
    ("_||_", (
        ("logical_or", False, ("bool", "bool"), "bool"),
    )),
    ("!_", (
        ("logical_not", False, ("bool",), "bool"),
    )),
    ("@not_strictly_false", (
        ("not_strictly_false", False, ("bool",), "bool"),
    )),
    ("_==_", (
        ("equals", False, ("A", "A"), "bool"),
    )),
    ("_!=_", (
        ("not_equals", False, ("A", "A"), "bool"),
    )),
    ("_+_", (
        ("add_bytes", False, ("bytes", "bytes"), "bytes"),
        ("add_double", False, ("double", "double"), "double"),
        ("add_duration_duration", False, ("duration", "duration"), "duration"),
        ("add_duration_timestamp", False, ("duration", "timestamp"), "timestamp"),
        ("add_timestamp_duration", False, ("timestamp", "duration"), "timestamp"),
        ("add_int64", False, ("int", "int"), "int"),
        ("add_list", False, ("list(A)", "list(A)"), "list(A)"),
        ("add_string", False, ("string", "string"), "string"),
        ("add_uint64", False, ("uint", "uint"), "uint"),
    )),
    ("_/_", (
        ("divide_double", False, ("double", "double"), "double"),
        ("divide_int64", False, ("int", "int"), "int"),
        ("divide_uint64", False, ("uint", "uint"), "uint"),
    )),
    ("_%_", (
        ("modulo_int64", False, ("int", "int"), "int"),
        ("modulo_uint64", False, ("uint", "uint"), "uint"),
    )),
    ("_*_", (
        ("multiply_double", False, ("double", "double"), "double"),
        ("multiply_int64", False, ("int", "int"), "int"),
        ("multiply_uint64", False, ("uint", "uint"), "uint"),
    )),
    ("-_", (
        ("negate_double", False, ("double",), "double"),
        ("negate_int64", False, ("int",), "int"),
    )),
    ("_-_", (
        ("subtract_double", False, ("double", "double"), "double"),
        ("subtract_duration_duration", False, ("duration", "duration"), "duration"),
        ("subtract_int64", False, ("int", "int"), "int"),
        ("subtract_timestamp_duration", False, ("timestamp", "duration"), "timestamp"),
        ("subtract_timestamp_timestamp", False, ("timestamp", "timestamp"), "duration"),
        ("subtract_uint64", False, ("uint", "uint"), "uint"),
    )),
    ("_<_", (
        ("less_bool", False, ("bool", "bool"), "bool"),
        ("less_int64", False, ("int", "int"), "bool"),
        ("less_int64_double", False, ("int", "double"), "bool"),
        ("less_int64_uint64", False, ("int", "uint"), "bool"),
        ("less_uint64", False, ("uint", "uint"), "bool"),
        ("less_uint64_double", False, ("uint", "double"), "bool"),
        ("less_uint64_int64", False, ("uint", "int"), "bool"),
        ("less_double", False, ("double", "double"), "bool"),
        ("less_double_int64", False, ("double", "int"), "bool"),
        ("less_double_uint64", False, ("double", "uint"), "bool"),
        ("less_string", False, ("string", "string"), "bool"),
        ("less_bytes", False, ("bytes", "bytes"), "bool"),
        ("less_timestamp", False, ("timestamp", "timestamp"), "bool"),
        ("less_duration", False, ("duration", "duration"), "bool"),
    )),
    ("_<=_", (
        ("less_equals_bool", False, ("bool", "bool"), "bool"),
        ("less_equals_int64", False, ("int", "int"), "bool"),
        ("less_equals_int64_double", False, ("int", "double"), "bool"),
        ("less_equals_int64_uint64", False, ("int", "uint"), "bool"),
        ("less_equals_uint64", False, ("uint", "uint"), "bool"),
        ("less_equals_uint64_double", False, ("uint", "double"), "bool"),
        ("less_equals_uint64_int64", False, ("uint", "int"), "bool"),
        ("less_equals_double", False, ("double", "double"), "bool"),
        ("less_equals_double_int64", False, ("double", "int"), "bool"),
        ("less_equals_double_uint64", False, ("double", "uint"), "bool"),
        ("less_equals_string", False, ("string", "string"), "bool"),
        ("less_equals_bytes", False, ("bytes", "bytes"), "bool"),
        ("less_equals_timestamp", False, ("timestamp", "timestamp"), "bool"),
        ("less_equals_duration", False, ("duration", "duration"), "bool"),
    )),
    ("_>_", (
        ("greater_bool", False, ("bool", "bool"), "bool"),
        ("greater_int64", False, ("int", "int"), "bool"),
        ("greater_int64_double", False, ("int", "double"), "bool"),
        ("greater_int64_uint64", False, ("int", "uint"), "bool"),
        ("greater_uint64", False, ("uint", "uint"), "bool"),
        ("greater_uint64_double", False, ("uint", "double"), "bool"),
        ("greater_uint64_int64", False, ("uint", "int"), "bool"),
        ("greater_double", False, ("double", "double"), "bool"),
        ("greater_double_int64", False, ("double", "int"), "bool"),
        ("greater_double_uint64", False, ("double", "uint"), "bool"),
        ("greater_string", False, ("string", "string"), "bool"),
        ("greater_bytes", False, ("bytes", "bytes"), "bool"),
        ("greater_timestamp", False, ("timestamp", "timestamp"), "bool"),
        ("greater_duration", False, ("duration", "duration"), "bool"),
    )),
    ("_>=_", (
        ("greater_equals_bool", False, ("bool", "bool"), "bool"),
        ("greater_equals_int64", False, ("int", "int"), "bool"),
        ("greater_equals_int64_double", False, ("int", "double"), "bool"),
        ("greater_equals_int64_uint64", False, ("int", "uint"), "bool"),
        ("greater_equals_uint64", False, ("uint", "uint"), "bool"),
        ("greater_equals_uint64_double", False, ("uint", "double"), "bool"),
        ("greater_equals_uint64_int64", False, ("uint", "int"), "bool"),
        ("greater_equals_double", False, ("double", "double"), "bool"),
        ("greater_equals_double_int64", False, ("double", "int"), "bool"),
        ("greater_equals_double_uint64", False, ("double", "uint"), "bool"),
        ("greater_equals_string", False, ("string", "string"), "bool"),
        ("greater_equals_bytes", False, ("bytes", "bytes"), "bool"),
        ("greater_equals_timestamp", False, ("timestamp", "timestamp"), "bool"),
        ("greater_equals_duration", False, ("duration", "duration"), "bool"),
    )),
    ("_[_]", (
        ("index_list", False, ("list(A)", "int"), "A"),
        ("index_map", False, ("map(A, B)", "A"), "B"),
    )),
    ("@in", (
        ("in_list", False, ("A", "list(A)"), "bool"),
        ("in_map", False, ("A", "map(A, B)"), "bool"),
    )),
    ("size", (
        ("size_bytes", False, ("bytes",), "int"),
        ("bytes_size", True, ("bytes",), "int"),
        ("size_list", False, ("list(A)",), "int"),
        ("list_size", True, ("list(A)",), "int"),
        ("size_map", False, ("map(A, B)",), "int"),
        ("map_size", True, ("map(A, B)",), "int"),
        ("size_string", False, ("string",), "int"),
        ("string_size", True, ("string",), "int"),
    )),
    ("type", (
        ("type", False, ("A",), "type(A)"),
    )),
    ("bool", (
        ("bool_to_bool", False, ("bool",), "bool"),
        ("string_to_bool", False, ("string",), "bool"),
    )),
    ("bytes", (
        ("bytes_to_bytes", False, ("bytes",), "bytes"),
        ("string_to_bytes", False, ("string",), "bytes"),
    )),
    ("double", (
        ("double_to_double", False, ("double",), "double"),
        ("int64_to_double", False, ("int",), "double"),
        ("string_to_double", False, ("string",), "double"),
        ("uint64_to_double", False, ("uint",), "double"),
    )),
    ("duration", (
        ("duration_to_duration", False, ("duration",), "duration"),
        ("int64_to_duration", False, ("int",), "duration"),
        ("string_to_duration", False, ("string",), "duration"),
    )),
    ("dyn", (
        ("to_dyn", False, ("A",), "dyn"),
    )),
    ("int", (
        ("int64_to_int64", False, ("int",), "int"),
        ("double_to_int64", False, ("double",), "int"),
        ("duration_to_int64", False, ("duration",), "int"),
        ("string_to_int64", False, ("string",), "int"),
        ("timestamp_to_int64", False, ("timestamp",), "int"),
        ("uint64_to_int64", False, ("uint",), "int"),
    )),
    ("string", (
        ("string_to_string", False, ("string",), "string"),
        ("bool_to_string", False, ("bool",), "string"),
        ("bytes_to_string", False, ("bytes",), "string"),
        ("double_to_string", False, ("double",), "string"),
        ("duration_to_string", False, ("duration",), "string"),
        ("int64_to_string", False, ("int",), "string"),
        ("timestamp_to_string", False, ("timestamp",), "string"),
        ("uint64_to_string", False, ("uint",), "string"),
    )),
    ("timestamp", (
        ("timestamp_to_timestamp", False, ("timestamp",), "timestamp"),
        ("int64_to_timestamp", False, ("int",), "timestamp"),
        ("string_to_timestamp", False, ("string",), "timestamp"),
    )),
    ("uint", (
        ("uint64_to_uint64", False, ("uint",), "uint"),
        ("double_to_uint64", False, ("double",), "uint"),
        ("int64_to_uint64", False, ("int",), "uint"),
        ("string_to_uint64", False, ("string",), "uint"),
    )),
    ("contains", (
        ("contains_string", True, ("string", "string"), "bool"),
    )),
    ("endsWith", (
        ("ends_with_string", True, ("string", "string"), "bool"),
    )),
    ("startsWith", (
        ("starts_with_string", True, ("string", "string"), "bool"),
    )),
    ("matches", (
        ("matches", False, ("string", "string"), "bool"),
        ("matches_string", True, ("string", "string"), "bool"),
    )),
    ("getFullYear", (
        ("timestamp_to_year", True, ("timestamp",), "int"),
        ("timestamp_to_year_with_tz", True, ("timestamp", "string"), "int"),
    )),
    ("getMonth", (
        ("timestamp_to_month", True, ("timestamp",), "int"),
        ("timestamp_to_month_with_tz", True, ("timestamp", "string"), "int"),
    )),
    ("getDayOfYear", (
        ("timestamp_to_day_of_year", True, ("timestamp",), "int"),
        ("timestamp_to_day_of_year_with_tz", True, ("timestamp", "string"), "int"),
    )),
    ("getDayOfMonth", (
        ("timestamp_to_day_of_month", True, ("timestamp",), "int"),
        ("timestamp_to_day_of_month_with_tz", True, ("timestamp", "string"), "int"),
    )),
    ("getDate", (
        ("timestamp_to_day_of_month_1_based", True, ("timestamp",), "int"),
        ("timestamp_to_day_of_month_1_based_with_tz", True, ("timestamp", "string"), "int"),
    )),
    ("getDayOfWeek", (
        ("timestamp_to_day_of_week", True, ("timestamp",), "int"),
        ("timestamp_to_day_of_week_with_tz", True, ("timestamp", "string"), "int"),
    )),
    ("getHours", (
        ("timestamp_to_hours", True, ("timestamp",), "int"),
        ("timestamp_to_hours_with_tz", True, ("timestamp", "string"), "int"),
        ("duration_to_hours", True, ("duration",), "int"),
    )),
    ("getMinutes", (
        ("timestamp_to_minutes", True, ("timestamp",), "int"),
        ("timestamp_to_minutes_with_tz", True, ("timestamp", "string"), "int"),
        ("duration_to_minutes", True, ("duration",), "int"),
    )),
    ("getSeconds", (
        ("timestamp_to_seconds", True, ("timestamp",), "int"),
        ("timestamp_to_seconds_tz", True, ("timestamp", "string"), "int"),
        ("duration_to_seconds", True, ("duration",), "int"),
    )),
    ("getMilliseconds", (
        ("timestamp_to_milliseconds", True, ("timestamp",), "int"),
        ("timestamp_to_milliseconds_with_tz", True, ("timestamp", "string"), "int"),
        ("duration_to_milliseconds", True, ("duration",), "int"),
    )),
)

# cel.OptionalTypes() (cel/library.go optionalLib, all versions)
_OPTIONAL: _Table = (
    ("optional.of", (("optional_of", False, ("V",), "optional_type(V)"),)),
    ("optional.ofNonZeroValue", (("optional_ofNonZeroValue", False, ("V",), "optional_type(V)"),)),
    ("optional.none", (("optional_none", False, (), "optional_type(V)"),)),
    ("value", (("optional_value", True, ("optional_type(V)",), "V"),)),
    ("hasValue", (("optional_hasValue", True, ("optional_type(V)",), "bool"),)),
    ("or", (("optional_or_optional", True, ("optional_type(V)", "optional_type(V)"), "optional_type(V)"),)),
    ("orValue", (("optional_orValue_value", True, ("optional_type(V)", "V"), "V"),)),
    ("_?._", (("select_optional_field", False, ("dyn", "string"), "optional_type(V)"),)),
    ("_[?_]", (
        ("list_optindex_optional_int", False, ("list(V)", "int"), "optional_type(V)"),
        ("optional_list_optindex_optional_int", False, ("optional_type(list(V))", "int"), "optional_type(V)"),
        ("map_optindex_optional_value", False, ("map(K, V)", "K"), "optional_type(V)"),
        ("optional_map_optindex_optional_value", False, ("optional_type(map(K, V))", "K"), "optional_type(V)"),
    )),
    ("_[_]", (
        ("optional_list_index_int", False, ("optional_type(list(V))", "int"), "optional_type(V)"),
        ("optional_map_index_value", False, ("optional_type(map(K, V))", "K"), "optional_type(V)"),
    )),
    ("last", (("list_last", True, ("list(V)",), "optional_type(V)"),)),
    ("first", (("list_first", True, ("list(V)",), "optional_type(V)"),)),
    ("optional.unwrap", (("optional_unwrap", False, ("list(optional_type(V))",), "list(V)"),)),
    ("unwrapOpt", (("optional_unwrapOpt", True, ("list(optional_type(V))",), "list(V)"),)),
)

#: The functions of the optional library's version 2 (``cel/library.go@v0.23.2`` ``if lib.version >= 2``):
#: undeclared with an older cel-go (``cel.OptionalTypes()`` takes the newest version its cel-go has).
OPTIONAL_V2_FUNCTIONS = frozenset({"last", "first", "optional.unwrap", "unwrapOpt"})

# ext.Strings(ext.StringsVersion(2)) (ext/strings.go)
_STRINGS_V2: _Table = (
    ("charAt", (("string_char_at_int", True, ("string", "int"), "string"),)),
    ("indexOf", (
        ("string_index_of_string", True, ("string", "string"), "int"),
        ("string_index_of_string_int", True, ("string", "string", "int"), "int"),
    )),
    ("lastIndexOf", (
        ("string_last_index_of_string", True, ("string", "string"), "int"),
        ("string_last_index_of_string_int", True, ("string", "string", "int"), "int"),
    )),
    ("lowerAscii", (("string_lower_ascii", True, ("string",), "string"),)),
    ("replace", (
        ("string_replace_string_string", True, ("string", "string", "string"), "string"),
        ("string_replace_string_string_int", True, ("string", "string", "string", "int"), "string"),
    )),
    ("split", (
        ("string_split_string", True, ("string", "string"), "list(string)"),
        ("string_split_string_int", True, ("string", "string", "int"), "list(string)"),
    )),
    ("substring", (
        ("string_substring_int", True, ("string", "int"), "string"),
        ("string_substring_int_int", True, ("string", "int", "int"), "string"),
    )),
    ("trim", (("string_trim", True, ("string",), "string"),)),
    ("upperAscii", (("string_upper_ascii", True, ("string",), "string"),)),
    ("format", (("string_format", True, ("string", "list(dyn)"), "string"),)),
    ("strings.quote", (("strings_quote", False, ("string",), "string"),)),
    ("join", (
        ("list_join", True, ("list(string)",), "string"),
        ("list_join_string", True, ("list(string)", "string"), "string"),
    )),
)

# ext.Strings(ext.StringsVersion(0)): no format, strings.quote (v1) nor reverse (v3); join is v0's.
_STRINGS_V0: _Table = tuple(entry for entry in _STRINGS_V2 if entry[0] not in ("format", "strings.quote"))

# ext.Sets() (ext/sets.go)
_SETS: _Table = (
    ("sets.contains", (("list_sets_contains_list", False, ("list(T)", "list(T)"), "bool"),)),
    ("sets.equivalent", (("list_sets_equivalent_list", False, ("list(T)", "list(T)"), "bool"),)),
    ("sets.intersects", (("list_sets_intersects_list", False, ("list(T)", "list(T)"), "bool"),)),
)

# ext.TwoVarComprehensions() (ext/comprehensions.go)
_TWO_VAR: _Table = (
    ("cel.@mapInsert", (
        ("@mapInsert_map_key_value", False, ("map(K, V)", "K", "V"), "map(K, V)"),
        ("@mapInsert_map_map", False, ("map(K, V)", "map(K, V)"), "map(K, V)"),
    )),
)

# ext.Lists(ext.ListsVersion(3)) (ext/lists.go); sort overload ids use Type.TypeName().
_EXT_LIST_COMPARABLE = ("int", "uint", "double", "bool", "duration", "timestamp", "string", "bytes")
_RUNTIME_NAME = {"duration": "google.protobuf.Duration", "timestamp": "google.protobuf.Timestamp"}
_EXT_LISTS: _Table = (
    ("slice", (("list_slice", True, ("list(T)", "int", "int"), "list(T)"),)),
    ("flatten", (
        ("list_flatten", True, ("list(list(T))",), "list(T)"),
        ("list_flatten_int", True, ("list(dyn)", "int"), "list(dyn)"),
    )),
    ("sort", tuple(
        (f"list_{_RUNTIME_NAME.get(t, t)}_sort", True, (f"list({t})",), f"list({t})") for t in _EXT_LIST_COMPARABLE
    )),
    ("@sortByAssociatedKeys", tuple(
        (f"list_{_RUNTIME_NAME.get(t, t)}_sortByAssociatedKeys", True, ("list(T)", f"list({t})"), "list(T)")
        for t in _EXT_LIST_COMPARABLE
    )),
    ("lists.range", (("lists_range", False, ("int",), "list(int)"),)),
    ("reverse", (("list_reverse", True, ("list(T)",), "list(T)"),)),
    ("distinct", (("list_distinct", True, ("list(T)",), "list(T)"),)),
)

@dataclass(frozen=True)
class OverloadDecl:
    """``decls.OverloadDecl``: id, member style, argument types (target first) and result type."""

    id: str
    member: bool
    args: tuple[Type, ...]
    result: Type
    type_params: tuple[str, ...]


@dataclass(frozen=True)
class FunctionDecl:
    """``decls.FunctionDecl``: a name and its overloads in declaration order."""

    name: str
    overloads: tuple[OverloadDecl, ...]


def _type_params(types: tuple[Type, ...]) -> tuple[str, ...]:
    names: list[str] = []
    stack = list(types)
    while stack:
        t = stack.pop(0)
        if t.kind == _Kind.TYPE_PARAM and t.name not in names:
            names.append(t.name)
        stack.extend(t.params)
    return tuple(names)


#: The cel-go libraries by name: the standard library, optional types and the ``ext`` libraries.
LIBRARIES: dict[str, _Table] = {
    "stdlib": _STANDARD, "optional": _OPTIONAL, "ext.strings.v2": _STRINGS_V2, "ext.strings.v0": _STRINGS_V0,
    "ext.sets": _SETS, "ext.two_var_comprehensions": _TWO_VAR, "ext.lists.v3": _EXT_LISTS,
}

#: The type names of ``common/stdlib`` ``decls.TypeVariable`` (plus ``optional_type``), usable as identifiers.
_STANDARD_TYPE_NAMES = ("bool", "bytes", "double", "duration", "int", "list(A)", "map(A, B)", "null_type", "string",
                        "timestamp", "type", "uint")


def merge_functions(tables: tuple[Table, ...]) -> dict[str, FunctionDecl]:
    """Every function of an environment by name, overloads merged across its libraries in order.

    ``FunctionDecl.Merge`` (``common/decls/decls.go``): overloads appended in
    library order, an overload id seen before skipped.
    """
    merged: dict[str, list[OverloadDecl]] = {}
    for table in tables:
        for name, overloads in table:
            bucket = merged.setdefault(name, [])
            seen = {o.id for o in bucket}
            for oid, member, args, result in overloads:
                if oid in seen:
                    continue
                arg_types = tuple(parse_type(a) for a in args)
                result_type = parse_type(result)
                bucket.append(OverloadDecl(oid, member, arg_types, result_type, _type_params((*arg_types, result_type))))
                seen.add(oid)
    return {name: FunctionDecl(name, tuple(ovs)) for name, ovs in merged.items()}


def library_table(lib: str, cel_go: str = DEFAULT_CEL_GO) -> Table | None:
    """The declarations of cel-go library ``lib`` as cel-go ``cel_go`` has them; None if ``lib`` is not cel-go's."""
    table = LIBRARIES.get(lib)
    if table is not None and lib == "optional" and not has(cel_go, "optional_v2"):
        return tuple(entry for entry in table if entry[0] not in OPTIONAL_V2_FUNCTIONS)
    return table


@functools.lru_cache(maxsize=64)
def functions(libraries: tuple[str, ...] = ("stdlib",), cel_go: str = DEFAULT_CEL_GO) -> dict[str, FunctionDecl]:
    """The functions of a cel-go ``cel_go`` environment made of :data:`LIBRARIES` (by name, in application order)."""
    return merge_functions(tuple(library_table(lib, cel_go) or LIBRARIES[lib] for lib in libraries))


@functools.lru_cache(maxsize=64)
def type_identifiers(library_types: tuple[str, ...] = (), cel_go: str = DEFAULT_CEL_GO) -> dict[str, Type]:
    """Identifiers that name types: ``stdlib`` ``decls.TypeVariable``, ``optional_type`` and ``library_types``.

    ``library_types``: further type names (in :func:`crdtool.core.celgo.types.parse_type` syntax) that the
    environment's libraries declare as identifiers. Maps the identifier to its type, ``type(T)``.
    ``optional_type`` (registered by ``cel.OptionalTypes`` with ``cel.Types``) resolves through
    ``provider.FindIdent``, which ``checker/env.go LookupIdent`` consults from cel-go v0.20.1 on only.
    """
    out: dict[str, Type] = {}
    for text in _STANDARD_TYPE_NAMES:
        t = parse_type(text)
        out[t.name] = type_type(t)
    if has(cel_go, "type_idents_from_provider"):
        # types.OptionalType is the unparameterised opaque type
        out["optional_type"] = type_type(opaque_type("optional_type"))
    for text in library_types:
        t = parse_type(text)
        out[t.name] = type_type(t)
    return out


def describe(fn: FunctionDecl) -> list[str]:
    """Human-readable signatures (for documentation and tests)."""
    return [
        f"{fn.name}: {', '.join(format_cel_type(a) for a in o.args)} -> {format_cel_type(o.result)}"
        for o in fn.overloads
    ]
