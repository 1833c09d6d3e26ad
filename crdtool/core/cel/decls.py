"""The function declarations of the Kubernetes CEL environment, for the type checker.

Each table lists ``(function name, ((overload id, member?, argument types,
result type), ...))`` in the compact type syntax of
:func:`crdtool.core.cel.types.parse_type`, transcribed from upstream's
declarations:

* cel-go v0.26.0 ``common/stdlib/standard.go`` (the standard library, with
  ``DefaultUTCTimeZone``; disabled legacy declarations omitted);
* ``cel/library.go`` (``cel.OptionalTypes()``, every version), ``ext/strings.go``
  (version 2), ``ext/sets.go``, ``ext/lists.go`` (version 3),
  ``ext/comprehensions.go`` (``cel.@mapInsert``);
* ``k8s.io/apiserver`` v0.36 ``pkg/cel/library``: ``urls.go``, ``regex.go``,
  ``lists.go``, ``authz.go`` (and the ``AuthorizeWithSelectors`` selectors),
  ``quantity.go``, ``ip.go``, ``cidr.go``, ``format.go``, ``semverlib.go``
  (version 1).

:func:`functions` merges them in the order ``environment/base.go`` applies the
libraries, as cel-go's ``FunctionDecl.Merge`` does (overloads appended, an
overload id seen before skipped). :func:`type_identifiers` lists the type
names usable as identifiers (``int``, ``list``, ``optional_type``, ``net.IP`` ...).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from crdtool.core.cel.types import Type, format_cel_type, opaque_type, parse_type, type_type
from crdtool.core.cel.types import Kind as _Kind

__all__ = [
    "FORMAT_MAX_REGEX_SIZE", "FunctionDecl", "KUBERNETES_LIBRARIES", "LIBRARIES", "OverloadDecl", "functions",
    "type_identifiers",
]

_Table = tuple[tuple[str, tuple[tuple[str, bool, tuple[str, ...], str], ...]], ...]

_UUID_PATTERN = "(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$"
_DATE_TIME_PATTERN = "^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$"

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

# k8s.io/apiserver pkg/cel/library: urls.go, regex.go, lists.go, authz.go, quantity.go,
# ip.go, cidr.go, format.go, semverlib.go.
_URL, _QTY, _IP, _CIDR = "kubernetes.URL", "kubernetes.Quantity", "net.IP", "net.CIDR"
_FMT, _SEMVER = "kubernetes.NamedFormat", "kubernetes.Semver"
_AUTHZ, _PATH, _GROUP, _RES, _DEC = (
    "kubernetes.authorization.Authorizer", "kubernetes.authorization.PathCheck",
    "kubernetes.authorization.GroupCheck", "kubernetes.authorization.ResourceCheck",
    "kubernetes.authorization.Decision",
)
_K8S_URLS: _Table = (
    ("url", (("string_to_url", False, ("string",), _URL),)),
    ("getScheme", (("url_get_scheme", True, (_URL,), "string"),)),
    ("getHost", (("url_get_host", True, (_URL,), "string"),)),
    ("getHostname", (("url_get_hostname", True, (_URL,), "string"),)),
    ("getPort", (("url_get_port", True, (_URL,), "string"),)),
    ("getEscapedPath", (("url_get_escaped_path", True, (_URL,), "string"),)),
    ("getQuery", (("url_get_query", True, (_URL,), "map(string, list(string))"),)),
    ("isURL", (("is_url_string", False, ("string",), "bool"),)),
)
_K8S_REGEX: _Table = (
    ("find", (("string_find_string", True, ("string", "string"), "string"),)),
    ("findAll", (
        ("string_find_all_string", True, ("string", "string"), "list(string)"),
        ("string_find_all_string_int", True, ("string", "string", "int"), "list(string)"),
    )),
)
_K8S_COMPARABLE = ("int", "uint", "double", "bool", "duration", "timestamp", "string", "bytes")
_K8S_SUMMABLE = ("int", "uint", "double", "duration")
_K8S_LISTS: _Table = (
    ("isSorted", tuple((f"list_{t}_is_sorted_bool", True, (f"list({t})",), "bool") for t in _K8S_COMPARABLE)),
    ("sum", tuple((f"list_{t}_sum_{t}", True, (f"list({t})",), t) for t in _K8S_SUMMABLE)),
    ("max", tuple((f"list_{t}_max_{t}", True, (f"list({t})",), t) for t in _K8S_COMPARABLE)),
    ("min", tuple((f"list_{t}_min_{t}", True, (f"list({t})",), t) for t in _K8S_COMPARABLE)),
    ("indexOf", (("list_a_index_of_int", True, ("list(A)", "A"), "int"),)),
    ("lastIndexOf", (("list_a_last_index_of_int", True, ("list(A)", "A"), "int"),)),
)
_K8S_AUTHZ: _Table = (
    ("path", (("authorizer_path", True, (_AUTHZ, "string"), _PATH),)),
    ("group", (("authorizer_group", True, (_AUTHZ, "string"), _GROUP),)),
    ("serviceAccount", (("authorizer_serviceaccount", True, (_AUTHZ, "string", "string"), _AUTHZ),)),
    ("resource", (("groupcheck_resource", True, (_GROUP, "string"), _RES),)),
    ("subresource", (("resourcecheck_subresource", True, (_RES, "string"), _RES),)),
    ("namespace", (("resourcecheck_namespace", True, (_RES, "string"), _RES),)),
    ("name", (("resourcecheck_name", True, (_RES, "string"), _RES),)),
    ("check", (
        ("pathcheck_check", True, (_PATH, "string"), _DEC),
        ("resourcecheck_check", True, (_RES, "string"), _DEC),
    )),
    ("errored", (("decision_errored", True, (_DEC,), "bool"),)),
    ("error", (("decision_error", True, (_DEC,), "string"),)),
    ("allowed", (("decision_allowed", True, (_DEC,), "bool"),)),
    ("reason", (("decision_reason", True, (_DEC,), "string"),)),
)
_K8S_AUTHZ_SELECTORS: _Table = (
    ("fieldSelector", (("authorizer_fieldselector", True, (_RES, "string"), _RES),)),
    ("labelSelector", (("authorizer_labelselector", True, (_RES, "string"), _RES),)),
)
_K8S_QUANTITY: _Table = (
    ("quantity", (("string_to_quantity", False, ("string",), _QTY),)),
    ("isQuantity", (("is_quantity_string", False, ("string",), "bool"),)),
    ("sign", (("quantity_sign", False, (_QTY,), "int"),)),
    ("isGreaterThan", (("quantity_is_greater_than", True, (_QTY, _QTY), "bool"),)),
    ("isLessThan", (("quantity_is_less_than", True, (_QTY, _QTY), "bool"),)),
    ("compareTo", (("quantity_compare_to", True, (_QTY, _QTY), "int"),)),
    ("asApproximateFloat", (("quantity_get_float", True, (_QTY,), "double"),)),
    ("asInteger", (("quantity_get_int", True, (_QTY,), "int"),)),
    ("isInteger", (("quantity_is_integer", True, (_QTY,), "bool"),)),
    ("add", (
        ("quantity_add", True, (_QTY, _QTY), _QTY),
        ("quantity_add_int", True, (_QTY, "int"), _QTY),
    )),
    ("sub", (
        ("quantity_sub", True, (_QTY, _QTY), _QTY),
        ("quantity_sub_int", True, (_QTY, "int"), _QTY),
    )),
)
_K8S_IP: _Table = (
    ("ip", (("string_to_ip", False, ("string",), _IP),)),
    ("family", (("ip_family", True, (_IP,), "int"),)),
    ("ip.isCanonical", (("ip_is_canonical", False, ("string",), "bool"),)),
    ("isUnspecified", (("ip_is_unspecified", True, (_IP,), "bool"),)),
    ("isLoopback", (("ip_is_loopback", True, (_IP,), "bool"),)),
    ("isLinkLocalMulticast", (("ip_is_link_local_multicast", True, (_IP,), "bool"),)),
    ("isLinkLocalUnicast", (("ip_is_link_local_unicast", True, (_IP,), "bool"),)),
    ("isGlobalUnicast", (("ip_is_global_unicast", True, (_IP,), "bool"),)),
    ("isIP", (("is_ip", False, ("string",), "bool"),)),
    ("string", (("ip_to_string", False, (_IP,), "string"),)),
)
_K8S_CIDR: _Table = (
    ("cidr", (("string_to_cidr", False, ("string",), _CIDR),)),
    ("containsIP", (
        ("cidr_contains_ip_string", True, (_CIDR, "string"), "bool"),
        ("cidr_contains_ip_ip", True, (_CIDR, _IP), "bool"),
    )),
    ("containsCIDR", (
        ("cidr_contains_cidr_string", True, (_CIDR, "string"), "bool"),
        ("cidr_contains_cidr", True, (_CIDR, _CIDR), "bool"),
    )),
    ("ip", (("cidr_ip", True, (_CIDR,), _IP),)),
    ("prefixLength", (("cidr_prefix_length", True, (_CIDR,), "int"),)),
    ("masked", (("cidr_masked", True, (_CIDR,), _CIDR),)),
    ("isCIDR", (("is_cidr", False, ("string",), "bool"),)),
    ("string", (("cidr_to_string", False, (_CIDR,), "string"),)),
)
#: ``library.ConstantFormats``: name -> ``MaxRegexSize`` (used by the cost of ``validate``).
FORMAT_MAX_REGEX_SIZE: dict[str, int] = {
    "dns1123Label": 30, "dns1123Subdomain": 60, "dns1035Label": 30, "qualifiedName": 60,
    "dns1123LabelPrefix": 30, "dns1123SubdomainPrefix": 60, "dns1035LabelPrefix": 30, "labelValue": 40,
    "uri": 1103, "uuid": len(_UUID_PATTERN),
    "byte": 84, "date": len(_DATE_TIME_PATTERN), "datetime": len(_DATE_TIME_PATTERN),
}
_K8S_FORMAT: _Table = (
    ("validate", (("format-validate", True, (_FMT, "string"), "optional_type(list(string))"),)),
    ("format.named", (("format-named", False, ("string",), f"optional_type({_FMT})"),)),
    *((f"format.{n}", ((f"format.{n}", False, (), _FMT),)) for n in FORMAT_MAX_REGEX_SIZE),
)
_K8S_JSONPATCH: _Table = (
    ("jsonpatch.escapeKey", (("string_jsonpatch_escapeKey_string", False, ("string",), "string"),)),
)
_K8S_SEMVER: _Table = (
    ("semver", (
        ("string_to_semver", False, ("string",), _SEMVER),
        ("string_bool_to_semver", False, ("string", "bool"), _SEMVER),
    )),
    ("isSemver", (
        ("is_semver_string", False, ("string",), "bool"),
        ("is_semver_string_bool", False, ("string", "bool"), "bool"),
    )),
    ("isGreaterThan", (("semver_is_greater_than", True, (_SEMVER, _SEMVER), "bool"),)),
    ("isLessThan", (("semver_is_less_than", True, (_SEMVER, _SEMVER), "bool"),)),
    ("compareTo", (("semver_compare_to", True, (_SEMVER, _SEMVER), "int"),)),
    ("major", (("semver_major", True, (_SEMVER,), "int"),)),
    ("minor", (("semver_minor", True, (_SEMVER,), "int"),)),
    ("patch", (("semver_patch", True, (_SEMVER,), "int"),)),
)

#: ``library.Test()`` (k8s.io/apiserver v0.36.3 ``pkg/cel/library/test.go``, default version ``math.MaxUint32``):
#: ``test()`` (which then returns false) and ``testV1()``. Upstream's own tests add it to environments
#: (``EnvSet.Extend``) to have functions that only stored expressions may use; not in the base environment.
_K8S_TEST: _Table = (
    ("test", (("test", False, (), "bool"),)),
    ("testV1", (("testV1", False, (), "bool"),)),
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


#: Every library by name.
LIBRARIES: dict[str, _Table] = {
    "stdlib": _STANDARD, "k8s.urls": _K8S_URLS, "k8s.regex": _K8S_REGEX, "k8s.lists": _K8S_LISTS,
    "k8s.authz": _K8S_AUTHZ, "optional": _OPTIONAL, "k8s.quantity": _K8S_QUANTITY, "ext.strings.v2": _STRINGS_V2, "ext.strings.v0": _STRINGS_V0,
    "ext.sets": _SETS, "k8s.ip": _K8S_IP, "k8s.cidr": _K8S_CIDR, "k8s.format": _K8S_FORMAT,
    "k8s.authz_selectors": _K8S_AUTHZ_SELECTORS, "ext.two_var_comprehensions": _TWO_VAR, "k8s.semver": _K8S_SEMVER,
    "ext.lists.v3": _EXT_LISTS, "k8s.jsonpatch": _K8S_JSONPATCH, "k8s.test": _K8S_TEST,
}

#: The libraries of the CRD environment, in the order ``environment/base.go`` (v0.36) applies them.
KUBERNETES_LIBRARIES: tuple[str, ...] = (
    "stdlib", "k8s.urls", "k8s.regex", "k8s.lists", "k8s.authz", "optional", "k8s.quantity", "ext.strings.v2",
    "ext.sets", "k8s.ip", "k8s.cidr", "k8s.format", "k8s.authz_selectors", "ext.two_var_comprehensions",
    "k8s.semver", "ext.lists.v3",
)


@functools.lru_cache(maxsize=16)
def functions(libraries: tuple[str, ...] = KUBERNETES_LIBRARIES) -> dict[str, FunctionDecl]:
    """Every function of an environment by name, overloads merged across its libraries in order."""
    merged: dict[str, list[OverloadDecl]] = {}
    for lib in libraries:
        for name, overloads in LIBRARIES[lib]:
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


@functools.lru_cache(maxsize=1)
def type_identifiers() -> dict[str, Type]:
    """Identifiers that name types: ``stdlib`` ``decls.TypeVariable`` plus the libraries' ``cel.Types``.

    Maps the identifier to its type, ``type(T)``.
    """
    out: dict[str, Type] = {}
    for text in ("bool", "bytes", "double", "duration", "int", "list(A)", "map(A, B)", "null_type", "string",
                 "timestamp", "type", "uint"):
        t = parse_type(text)
        out[t.name] = type_type(t)
    # types.OptionalType is the unparameterised opaque type
    out["optional_type"] = type_type(opaque_type("optional_type"))
    for text in (_URL, _QTY, _IP, _CIDR, _FMT, _SEMVER, _AUTHZ, _PATH, _GROUP, _RES, _DEC):
        t = parse_type(text)
        out[t.name] = type_type(t)
    return out


def describe(fn: FunctionDecl) -> list[str]:
    """Human-readable signatures (for documentation and tests)."""
    return [
        f"{fn.name}: {', '.join(format_cel_type(a) for a in o.args)} -> {format_cel_type(o.result)}"
        for o in fn.overloads
    ]
