"""The runtime functions of cel-go's libraries, and how an environment's runtime is assembled.

Mirrors cel-go v0.26.0: ``common/stdlib/standard.go`` (operators, conversions,
string and time functions with ``DefaultUTCTimeZone``), ``cel/library.go``
(optional types), ``ext/strings.go`` (version 2) with ``ext/formatting.go``
(``string.format``), ``ext/sets.go``, ``ext/lists.go`` (version 3, with Go's
``sort.Slice`` ported so ties order as upstream), ``ext/comprehensions.go``
(``cel.@mapInsert``); ``common/decls/decls.go`` ``FunctionDecl.Bindings`` (how
overloads become dispatcher entries: per-overload implementations behind
runtime type guards, singletons with operand traits, dynamic dispatch by
function name); and the ``ext`` lists and sets ``OverloadCostTracker``s.
:func:`build_runtime` assembles an environment's runtime from its libraries'
functions; the Kubernetes libraries and their cost estimator come from
:mod:`crdtool.core.kubecel` (:func:`crdtool.core.kubecel.environment.runtime`).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field
from typing import Any, Callable

from crdtool.core.celgo import types as T
from crdtool.core.celgo import values as V
from crdtool.core.celgo.decls import FunctionDecl, functions
from crdtool.core.celgo.interpreter import (
    STRING_TRAVERSAL_COST_FACTOR,
    Dispatcher,
    Overload,
    Runtime,
    actual_size,
    go_type_name,
)
from crdtool.core.celgo.values import Err
from crdtool.core.celgo.version import DEFAULT as DEFAULT_CEL_GO
from crdtool.core.celgo.version import has, version_key
from crdtool.core.gostd import sprintf_no_args

#: golang.org/x/text's en-US scientific pattern puts U+202F (narrow no-break space) around ``×`` until v0.22.0
#: (``3.140000\u202f×\u202f10⁰⁰``, as apiextensions-apiserver ``celcoststability_test.go`` asserts at v0.30.14 …
#: v0.32.13, whose apiserver pins x/text v0.14.0 … v0.19.0); from v0.23.0 none (``3.140000×10⁰⁰``, asserted at
#: v0.33.13 … v0.37.0-beta.0). The x/text of a program is its host's (Kubernetes' ``go.mod``), not cel-go's.
X_TEXT_NO_SPACES_AROUND_TIMES = "v0.23.0"
DEFAULT_X_TEXT = "v0.40.0"

__all__ = ["Binding", "FnSpec", "LIBRARIES", "build_runtime", "runtime"]


_NSO = V.NO_SUCH_OVERLOAD
_mnso = V.maybe_no_such_overload


# --- binding specifications ---------------------------------------------------------------------------


@dataclass
class Binding:
    """One overload's implementation: ``unary``/``binary``/``function`` ops, its trait and strictness."""

    id: str
    unary: Callable[[Any], Any] | None = None
    binary: Callable[[Any, Any], Any] | None = None
    function: Callable[..., Any] | None = None
    trait: int = 0
    non_strict: bool = False


@dataclass
class FnSpec:
    """A function of a library: its bound overloads or a singleton binding."""

    name: str
    overloads: list[Binding] = field(default_factory=list)
    singleton: Binding | None = None
    disable_type_guards: bool = False


def unary(oid: str, fn: Callable[[Any], Any], **kw: Any) -> Binding:
    return Binding(oid, unary=fn, **kw)


def binary(oid: str, fn: Callable[[Any, Any], Any], **kw: Any) -> Binding:
    return Binding(oid, binary=fn, **kw)


def function(oid: str, fn: Callable[..., Any], **kw: Any) -> Binding:
    return Binding(oid, function=fn, **kw)


def _resprintf(b: Binding) -> Binding:
    """The binding with its error texts run through ``fmt.Sprintf`` without operands: ``types.NewErr(err.Error())``
    of ``cel/library.go`` (time-zone getters) and ``ext/guards.go`` (every ext.strings error) up to cel-go v0.22.0
    (v0.23.2: ``types.NewErrFromString``)."""

    def fix(v: Any) -> Any:
        return Err(sprintf_no_args(v.msg), v.node_id) if type(v) is Err else v

    if b.unary is not None:
        u = b.unary
        return Binding(b.id, unary=lambda a: fix(u(a)), trait=b.trait, non_strict=b.non_strict)
    if b.binary is not None:
        bi = b.binary
        return Binding(b.id, binary=lambda a, c: fix(bi(a, c)), trait=b.trait, non_strict=b.non_strict)
    assert b.function is not None
    fn = b.function
    return Binding(b.id, function=lambda *a: fix(fn(*a)), trait=b.trait, non_strict=b.non_strict)


def _resprintf_specs(specs: list[FnSpec], overloads: frozenset[str] | None = None) -> list[FnSpec]:
    """:func:`_resprintf` on the bound overloads of ``specs`` (those in ``overloads``; None: all)."""
    out = []
    for spec in specs:
        ovs = [_resprintf(b) if overloads is None or b.id in overloads else b for b in spec.overloads]
        out.append(FnSpec(spec.name, ovs, spec.singleton, spec.disable_type_guards))
    return out


# --- runtime type guards (Type.IsAssignableRuntimeType) -----------------------------------------------


def is_assignable_runtime_type(t: T.Type, val: Any) -> bool:
    """``Type.IsAssignableRuntimeType``: dyn-like types, or the same runtime type name (lists and maps: the first entry)."""
    if t.kind not in (T.Kind.DYN, T.Kind.ANY, T.Kind.TYPE_PARAM) and t.name != V.type_name(val):
        return False
    if t.kind == T.Kind.LIST and isinstance(val, V.ListValue):
        if val.size() == 0:
            return True
        return is_assignable_runtime_type(t.params[0], val.items()[0])
    if t.kind == T.Kind.MAP and isinstance(val, V.MapValue):
        if val.size() == 0:
            return True
        k = val.keys()[0]
        return is_assignable_runtime_type(t.params[0], k) and is_assignable_runtime_type(t.params[1], val.get(k))
    return True


def maybe_no_such_overload_fn(name: str, args: tuple[Any, ...]) -> Any:
    """``decls.MaybeNoSuchOverload``."""
    for a in args:
        if type(a) is Err:
            return a
    return Err(f"no such overload: {name}({', '.join(V.type_name(a) for a in args)})")


def _match_arg(non_strict: bool, disable_guards: bool, t: T.Type, arg: Any) -> bool:
    if non_strict and (disable_guards or type(arg) is Err):
        return True
    if type(arg) is Err:
        return False
    return disable_guards or is_assignable_runtime_type(t, arg)


def _matches(decl_args: tuple[T.Type, ...], b: Binding, disable_guards: bool, args: tuple[Any, ...]) -> bool:
    if len(args) != len(decl_args):
        return False
    if not args:
        return True
    for t, a in zip(decl_args, args):
        if not _match_arg(b.non_strict, disable_guards, t, a):
            return False
    return b.trait == 0 or V.has_trait(args[0], b.trait) or type(args[0]) is Err


def _guarded(fn_name: str, decl_args: tuple[T.Type, ...], b: Binding, disable: bool) -> tuple[Any, Any, Any]:
    u = bi = f = None
    if b.unary is not None:
        op_u = b.unary

        def u(arg: Any) -> Any:
            if not (_match_arg(b.non_strict, disable, decl_args[0], arg)
                    and (b.trait == 0 or V.has_trait(arg, b.trait) or type(arg) is Err)):
                return maybe_no_such_overload_fn(fn_name, (arg,))
            return op_u(arg)
    if b.binary is not None:
        op_b = b.binary

        def bi(a1: Any, a2: Any) -> Any:
            if not (_match_arg(b.non_strict, disable, decl_args[0], a1)
                    and _match_arg(b.non_strict, disable, decl_args[1], a2)
                    and (b.trait == 0 or V.has_trait(a1, b.trait) or type(a1) is Err)):
                return maybe_no_such_overload_fn(fn_name, (a1, a2))
            return op_b(a1, a2)
    if b.function is not None:
        op_f = b.function

        def f(*args: Any) -> Any:
            if not _matches(decl_args, b, disable, args):
                return maybe_no_such_overload_fn(fn_name, args)
            return op_f(*args)
    return u, bi, f


def _bindings(spec: FnSpec, decl_args: dict[str, tuple[T.Type, ...]]) -> list[Any]:
    """``FunctionDecl.Bindings``: dispatcher entries of one (merged) function."""
    out: list[Overload] = []
    for b in spec.overloads:
        args = decl_args.get(b.id, ())
        u, bi, f = _guarded(spec.name, args, b, spec.disable_type_guards)
        out.append(Overload(b.id, u, bi, f, b.trait, b.non_strict))
    if spec.singleton is not None:
        s = spec.singleton
        return [Overload(spec.name, s.unary, s.binary, s.function, s.trait, False)]
    if not out:
        return out
    if len(out) == 1:
        if out[0].operator == spec.name:
            return out
        o = out[0]
        return out + [Overload(spec.name, o.unary, o.binary, o.function, o.operand_trait, o.non_strict)]
    specs = list(spec.overloads)
    disable = spec.disable_type_guards
    name = spec.name

    def dispatch(*args: Any) -> Any:
        for b in specs:
            dargs = decl_args.get(b.id, ())
            n = len(args)
            if n == 1 and b.unary is not None and _matches(dargs, b, disable, args):
                return b.unary(args[0])
            if n == 2 and b.binary is not None and _matches(dargs, b, disable, args):
                return b.binary(args[0], args[1])
            if b.function is not None and _matches(dargs, b, disable, args):
                return b.function(*args)
        return maybe_no_such_overload_fn(name, args)

    return out + [Overload(name, None, None, dispatch, 0, any(b.non_strict for b in specs))]


# --- receivers (traits.Receiver) -------------------------------------------------------------------------


# --- standard library (common/stdlib/standard.go) -----------------------------------------------------------


def _add(lhs: Any, rhs: Any) -> Any:  # noqa: C901 - Add of every adder type
    t = type(lhs)
    if t is int:
        if type(rhs) is not int:
            return _mnso(rhs)
        return V.int_result(lhs + rhs)
    if t is str:
        if type(rhs) is not str:
            return _mnso(rhs)
        V.check_size(len(lhs) + len(rhs))
        return lhs + rhs
    if t is float:
        if type(rhs) is not float:
            return _mnso(rhs)
        return lhs + rhs
    if t is V.Uint:
        if type(rhs) is not V.Uint:
            return _mnso(rhs)
        return V.uint_result(lhs.v + rhs.v)
    if t is bytes:
        if type(rhs) is not bytes:
            return V.val_or_err(rhs, "no such overload")
        V.check_size(len(lhs) + len(rhs))
        return lhs + rhs
    if t is V.Duration:
        if type(rhs) is V.Duration:
            return V.Duration(lhs.ns + rhs.ns) if V.INT64_MIN <= lhs.ns + rhs.ns <= V.INT64_MAX else Err("integer overflow")
        if type(rhs) is V.Timestamp:
            return V.add_time_duration(rhs, lhs.ns)
        return _mnso(rhs)
    if t is V.Timestamp:
        if type(rhs) is V.Duration:
            return V.add_time_duration(lhs, rhs.ns)
        return _mnso(rhs)
    add = getattr(lhs, "add", None)
    if add is not None:
        return add(rhs)
    return _NSO


def _subtract(lhs: Any, rhs: Any) -> Any:
    t = type(lhs)
    if t is int:
        if type(rhs) is not int:
            return _mnso(rhs)
        return V.int_result(lhs - rhs)
    if t is float:
        if type(rhs) is not float:
            return _mnso(rhs)
        return lhs - rhs
    if t is V.Uint:
        if type(rhs) is not V.Uint:
            return _mnso(rhs)
        return V.uint_result(lhs.v - rhs.v)
    if t is V.Duration:
        if type(rhs) is not V.Duration:
            return _mnso(rhs)
        r = lhs.ns - rhs.ns
        return V.Duration(r) if V.INT64_MIN <= r <= V.INT64_MAX else Err("integer overflow")
    if t is V.Timestamp:
        if type(rhs) is V.Duration:
            if rhs.ns == V.INT64_MIN:
                return Err("integer overflow")
            return V.add_time_duration(lhs, -rhs.ns)
        if type(rhs) is V.Timestamp:
            return V.subtract_times(lhs, rhs)
        return _mnso(rhs)
    return _NSO


def _multiply(lhs: Any, rhs: Any) -> Any:
    t = type(lhs)
    if t is int:
        if type(rhs) is not int:
            return _mnso(rhs)
        return V.int_result(lhs * rhs)
    if t is float:
        if type(rhs) is not float:
            return _mnso(rhs)
        return lhs * rhs
    if t is V.Uint:
        if type(rhs) is not V.Uint:
            return _mnso(rhs)
        return V.uint_result(lhs.v * rhs.v)
    return _NSO


def _fdiv(a: float, b: float) -> float:
    try:
        return a / b
    except ZeroDivisionError:
        if a == 0 or a != a:
            return math.nan
        return math.copysign(math.inf, a) * math.copysign(1.0, b)


def _divide(lhs: Any, rhs: Any) -> Any:
    t = type(lhs)
    if t is int:
        if type(rhs) is not int:
            return _mnso(rhs)
        return V.int_divide(lhs, rhs)
    if t is float:
        if type(rhs) is not float:
            return _mnso(rhs)
        return _fdiv(lhs, rhs)
    if t is V.Uint:
        if type(rhs) is not V.Uint:
            return _mnso(rhs)
        if rhs.v == 0:
            return Err("division by zero")
        return V.Uint(lhs.v // rhs.v)
    return _NSO


def _modulo(lhs: Any, rhs: Any) -> Any:
    t = type(lhs)
    if t is int:
        if type(rhs) is not int:
            return _mnso(rhs)
        return V.int_modulo(lhs, rhs)
    if t is V.Uint:
        if type(rhs) is not V.Uint:
            return _mnso(rhs)
        if rhs.v == 0:
            return Err("modulus by zero")
        return V.Uint(lhs.v % rhs.v)
    return _NSO


def _negate(val: Any) -> Any:
    t = type(val)
    if t is bool:
        return _mnso(val)
    if t is int:
        return V.int_result(-val)
    if t is float:
        return -val
    if t is V.Duration:
        return V.Duration(-val.ns) if val.ns != V.INT64_MIN else Err("integer overflow")
    return _NSO


def _cmp_op(accept: tuple[int, ...]) -> Callable[[Any, Any], Any]:
    def op(lhs: Any, rhs: Any) -> Any:
        c = V.compare(lhs, rhs)
        if type(c) is int:
            return c in accept
        return c

    return op


def _logical_not(val: Any) -> Any:
    if type(val) is not bool:
        return _mnso(val)
    return not val


def _not_strictly_false(val: Any) -> Any:
    if type(val) is bool:
        return val
    return True


def _in_aggregate(lhs: Any, rhs: Any) -> Any:
    if isinstance(rhs, (V.ListValue, V.MapValue)):
        return rhs.contains(lhs)
    return V.val_or_err(rhs, "no such overload")


def _size(val: Any) -> Any:
    t = type(val)
    if t is str:
        return len(val)
    if t is bytes:
        return len(val)
    if isinstance(val, (V.ListValue, V.MapValue)):
        return val.size()
    size = getattr(val, "size", None)
    if size is not None:
        return size()
    return _NSO


def _index(lhs: Any, rhs: Any) -> Any:
    if isinstance(lhs, (V.ListValue, V.MapValue)):
        return lhs.get(rhs)
    return _NSO


def _identity(val: Any) -> Any:
    return val


def _convert(target: V.TypeValue) -> Callable[[Any], Any]:
    return lambda val: V.convert_to_type(val, target)


def _string_matches(s: Any, pat: Any) -> Any:
    if type(pat) is not str:
        return _mnso(pat)
    if type(s) is not str:
        return _NSO
    rx = V.compile_regex(pat)
    if type(rx) is Err:
        return rx
    return rx.search(s) is not None


_type_of = _convert(V.TYPE_TYPE)
#: ``types.OptionalType`` of cel-go v0.17.8: ``NewOpaqueType("optional")`` (``optional_type`` from v0.20.1)
OPTIONAL_TYPE_V0 = V.TypeValue("optional")


def _type_of_v0(v: Any) -> Any:
    t = _type_of(v)
    return OPTIONAL_TYPE_V0 if t is V.OPTIONAL_TYPE else t


def _stdlib(cel_go: str = DEFAULT_CEL_GO, x_text: str = DEFAULT_X_TEXT) -> list[FnSpec]:  # noqa: C901 - the standard library table
    arith = V.ADDER
    specs = [
        FnSpec("!_", singleton=Binding("!_", unary=_logical_not)),
        FnSpec("@not_strictly_false", [unary("not_strictly_false", _not_strictly_false, non_strict=True)]),
        FnSpec("_+_", singleton=Binding("_+_", binary=_add, trait=arith)),
        FnSpec("_/_", singleton=Binding("_/_", binary=_divide, trait=V.DIVIDER)),
        FnSpec("_%_", singleton=Binding("_%_", binary=_modulo, trait=V.MODDER)),
        FnSpec("_*_", singleton=Binding("_*_", binary=_multiply, trait=V.MULTIPLIER)),
        FnSpec("-_", singleton=Binding("-_", unary=_negate, trait=V.NEGATOR)),
        FnSpec("_-_", singleton=Binding("_-_", binary=_subtract, trait=V.SUBTRACTOR)),
        FnSpec("_<_", singleton=Binding("_<_", binary=_cmp_op((-1,)), trait=V.COMPARER)),
        FnSpec("_<=_", singleton=Binding("_<=_", binary=_cmp_op((-1, 0)), trait=V.COMPARER)),
        FnSpec("_>_", singleton=Binding("_>_", binary=_cmp_op((1,)), trait=V.COMPARER)),
        FnSpec("_>=_", singleton=Binding("_>=_", binary=_cmp_op((1, 0)), trait=V.COMPARER)),
        FnSpec("_[_]", singleton=Binding("_[_]", binary=_index, trait=V.INDEXER)),
        FnSpec("@in", singleton=Binding("@in", binary=_in_aggregate)),
        FnSpec("size", singleton=Binding("size", unary=_size, trait=V.SIZER)),
        FnSpec("type", singleton=Binding("type", unary=_type_of if has(cel_go, "optional_type_name") else _type_of_v0)),
        FnSpec("dyn", singleton=Binding("dyn", unary=_identity)),
        FnSpec("bool", [unary("bool_to_bool", _identity), unary("string_to_bool", _convert(V.BOOL_TYPE))]),
        FnSpec("bytes", [unary("bytes_to_bytes", _identity), unary("string_to_bytes", _convert(V.BYTES_TYPE))]),
        FnSpec("double", [unary("double_to_double", _identity), unary("int64_to_double", _convert(V.DOUBLE_TYPE)),
                          unary("string_to_double", _convert(V.DOUBLE_TYPE)),
                          unary("uint64_to_double", _convert(V.DOUBLE_TYPE))]),
        FnSpec("duration", [unary("duration_to_duration", _identity),
                            unary("int64_to_duration", _convert(V.DURATION_TYPE)),
                            unary("string_to_duration", _convert(V.DURATION_TYPE))]),
        FnSpec("int", [unary("int64_to_int64", _identity), unary("double_to_int64", _convert(V.INT_TYPE)),
                       unary("duration_to_int64", _convert(V.INT_TYPE)), unary("string_to_int64", _convert(V.INT_TYPE)),
                       unary("timestamp_to_int64", _convert(V.INT_TYPE)),
                       unary("uint64_to_int64", _convert(V.INT_TYPE))]),
        FnSpec("string", [unary("string_to_string", _identity)] + [
            unary(f"{t}_to_string", _convert(V.STRING_TYPE))
            for t in ("bool", "bytes", "double", "duration", "int64", "timestamp", "uint64")
        ]),
        FnSpec("timestamp", [unary("timestamp_to_timestamp", _identity),
                             unary("int64_to_timestamp", _convert(V.TIMESTAMP_TYPE)),
                             unary("string_to_timestamp", _convert(V.TIMESTAMP_TYPE))]),
        FnSpec("uint", [unary("uint64_to_uint64", _identity), unary("double_to_uint64", _convert(V.UINT_TYPE)),
                        unary("int64_to_uint64", _convert(V.UINT_TYPE)),
                        unary("string_to_uint64", _convert(V.UINT_TYPE))]),
        FnSpec("contains", [binary("contains_string", V.string_contains)], disable_type_guards=True),
        FnSpec("endsWith", [binary("ends_with_string", V.string_ends_with)], disable_type_guards=True),
        FnSpec("startsWith", [binary("starts_with_string", V.string_starts_with)], disable_type_guards=True),
        FnSpec("matches", singleton=Binding("matches", binary=_string_matches, trait=V.MATCHER)),
    ]
    tz_ids = {
        "getFullYear": ("timestamp_to_year", "timestamp_to_year_with_tz"),
        "getMonth": ("timestamp_to_month", "timestamp_to_month_with_tz"),
        "getDayOfYear": ("timestamp_to_day_of_year", "timestamp_to_day_of_year_with_tz"),
        "getDayOfMonth": ("timestamp_to_day_of_month", "timestamp_to_day_of_month_with_tz"),
        "getDate": ("timestamp_to_day_of_month_1_based", "timestamp_to_day_of_month_1_based_with_tz"),
        "getDayOfWeek": ("timestamp_to_day_of_week", "timestamp_to_day_of_week_with_tz"),
        "getHours": ("timestamp_to_hours", "timestamp_to_hours_with_tz"),
        "getMinutes": ("timestamp_to_minutes", "timestamp_to_minutes_with_tz"),
        "getSeconds": ("timestamp_to_seconds", "timestamp_to_seconds_tz"),
        "getMilliseconds": ("timestamp_to_milliseconds", "timestamp_to_milliseconds_with_tz"),
    }
    dur_ids = {"getHours": "duration_to_hours", "getMinutes": "duration_to_minutes",
               "getSeconds": "duration_to_seconds", "getMilliseconds": "duration_to_milliseconds"}
    resprintf = has(cel_go, "runtime_error_sprintf")
    for name, (plain, with_tz) in tz_ids.items():
        g = V.TIME_GETTERS[name]
        tz_binding = binary(with_tz, V.timestamp_getter(g))
        ovs = [unary(plain, V.utc_getter(g)), _resprintf(tz_binding) if resprintf else tz_binding]
        if name in dur_ids:
            ovs.append(unary(dur_ids[name], V.DURATION_GETTERS[name]))
        specs.append(FnSpec(name, ovs))
    return specs


# --- optional types (cel/library.go) ------------------------------------------------------------------------


def _of_non_zero(v: Any) -> Any:
    z = V.is_zero_value(v)
    if z is None or not z:
        return V.Optional(v)
    return V.OPTIONAL_NONE


def _opt_value(v: Any) -> Any:
    return v.get_value()


def _opt_has_value(v: Any) -> Any:
    return v.has_value


def _list_last(v: Any) -> Any:
    n = v.size()
    if n == 0:
        return V.OPTIONAL_NONE
    return V.Optional(v.get(n - 1))


def _list_first(v: Any) -> Any:
    if v.size() == 0:
        return V.OPTIONAL_NONE
    return V.Optional(v.get(0))


def _opt_unwrap(v: Any) -> Any:
    out = []
    for e in v.items():
        if type(e) is not V.Optional:
            return Err(f"value {V.go_format_value(e)} is not optional")
        if e.has_value:
            out.append(e.value)
    return V.BaseList(out)


def _optional(cel_go: str = DEFAULT_CEL_GO, x_text: str = DEFAULT_X_TEXT) -> list[FnSpec]:
    return [
        FnSpec("optional.of", [unary("optional_of", lambda v: V.Optional(v))]),
        FnSpec("optional.ofNonZeroValue", [unary("optional_ofNonZeroValue", _of_non_zero)]),
        FnSpec("optional.none", [function("optional_none", lambda *a: V.OPTIONAL_NONE)]),
        FnSpec("value", [unary("optional_value", _opt_value)]),
        FnSpec("hasValue", [unary("optional_hasValue", _opt_has_value)]),
        FnSpec("last", [unary("list_last", _list_last)]),
        FnSpec("first", [unary("list_first", _list_first)]),
        FnSpec("optional.unwrap", [unary("optional_unwrap", _opt_unwrap)]),
        FnSpec("unwrapOpt", [unary("optional_unwrapOpt", _opt_unwrap)]),
    ]


# --- ext.Strings version 2 (ext/strings.go) ---------------------------------------------------------------

#: Go ``unicode.IsSpace``.
GO_SPACE = frozenset("\t\n\v\f\r \u0085\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009"
                     "\u200a\u2028\u2029\u202f\u205f\u3000")


def go_trim_space(s: str) -> str:
    i, j = 0, len(s)
    while i < j and s[i] in GO_SPACE:
        i += 1
    while j > i and s[j - 1] in GO_SPACE:
        j -= 1
    return s[i:j]


def _char_at(s: Any, i: Any) -> Any:
    if i < 0 or i > len(s):
        return Err(f"index out of range: {i}")
    if i == len(s):
        return ""
    return s[i]


def _index_of_offset(s: str, sub: str, off: int, past_end_error: bool = False) -> Any:
    """``indexOfOffset`` (ext/strings.go); ``past_end_error``: cel-go before v0.22.0, where an offset at or
    past the end is ``index out of range: N`` (``off < 0 || off >= len(runes)``), not -1."""
    if sub == "":
        return off
    if off < 0 or (past_end_error and off >= len(s)):
        return Err(f"index out of range: {off}")
    if off >= len(s):
        return -1
    return s.find(sub, off) if len(sub) <= len(s) - off else -1


def _last_index_of(s: str, sub: str, short_receiver: bool = True, past_end_error: bool = False) -> Any:
    """``lastIndexOf``; ``short_receiver``: cel-go v0.26.0's ``len(str) < len(substr)`` (bytes) early -1 (before,
    an empty receiver reached ``lastIndexOfOffset(str, substr, -1)``: ``index out of range: -1``)."""
    if sub == "":
        return len(s)
    if short_receiver and len(s.encode("utf-8", "surrogatepass")) < len(sub.encode("utf-8", "surrogatepass")):
        return -1
    return _last_index_of_offset(s, sub, len(s) - 1, past_end_error)


def _last_index_of_offset(s: str, sub: str, off: int, past_end_error: bool = False) -> Any:
    if sub == "":
        return off
    if off < 0 or (past_end_error and off >= len(s)):
        return Err(f"index out of range: {off}")
    if off >= len(s):
        return -1
    if off > len(s) - len(sub):
        off = len(s) - len(sub)
    if off < 0:
        return -1
    return s.rfind(sub, 0, off + len(sub))


def _lower_ascii(s: str) -> str:
    return "".join(c.lower() if c <= "\x7f" else c for c in s) if not s.isascii() else s.lower()


def _upper_ascii(s: str) -> str:
    return "".join(c.upper() if c <= "\x7f" else c for c in s) if not s.isascii() else s.upper()


def go_split(s: str, sep: str, n: int = -1) -> list[str]:
    """Go ``strings.SplitN`` (``n`` < 0: all)."""
    if n == 0:
        return []
    if sep == "":
        chars = list(s)
        if n < 0 or n > len(chars):
            return chars
        return chars[: n - 1] + ["".join(chars[n - 1:])]
    if n < 0:
        return s.split(sep)
    return s.split(sep, n - 1)


def _substring(s: str, start: int) -> Any:
    if start < 0 or start > len(s):
        return Err(f"index out of range: {start}")
    return s[start:]


def _substring_range(s: str, start: int, end: int) -> Any:
    if start > end:
        return Err(f"invalid substring range. start: {start}, end: {end}")
    if start < 0 or start > len(s):
        return Err(f"index out of range: {start}")
    if end < 0 or end > len(s):
        return Err(f"index out of range: {end}")
    return s[start:end]


def _replace(s: str, old: str, new: str, n: int) -> str:
    """Go ``strings.Replace`` (``n`` < 0: every occurrence)."""
    count = len(s) + 1 if old == "" else s.count(old)
    if n >= 0:
        count = min(count, n)
    V.check_size(len(s) + count * (len(new) - len(old)))
    return s.replace(old, new, n if n >= 0 else -1)


def _join(lst: Any, sep: str) -> Any:
    parts = []
    n = lst.size()
    for i in range(n):
        e = lst.get(i)
        if type(e) is not str:
            return Err(f"join: invalid input: {V.go_format_value(e)}")
        parts.append(e)
    return sep.join(parts)


def _sanitize(s: str) -> str:
    return "".join("\ufffd" if "\ud800" <= c <= "\udfff" else c for c in s)


_QUOTE_ESCAPES = {"\a": "\\a", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\v": "\\v",
                  "\\": "\\\\", '"': '\\"'}


def strings_quote(s: str) -> str:
    return '"' + "".join(_QUOTE_ESCAPES.get(c, c) for c in _sanitize(s)) + '"'


def _format_binding(cel_go: str, x_text: str) -> Callable[[Any, Any], Any]:
    """``string.format`` of cel-go ``cel_go`` with the host's x/text; before v0.20.1 the optional type is named
    ``optional`` in its errors (``... was given optional``)."""
    if has(cel_go, "optional_type_name"):
        return lambda s, args: string_format(s, args, x_text)

    def fmt_v0(s: str, args: Any) -> Any:
        out = string_format(s, args, x_text)
        if type(out) is Err and out.msg.endswith("was given optional_type"):
            return Err(out.msg[: -len("optional_type")] + "optional", out.node_id)
        return out

    return fmt_v0


def _strings(cel_go: str = DEFAULT_CEL_GO, x_text: str = DEFAULT_X_TEXT) -> list[FnSpec]:
    past_end = not has(cel_go, "strings_offset_past_end_minus_one")
    short = has(cel_go, "last_index_of_short_receiver")
    specs = [
        FnSpec("charAt", [binary("string_char_at_int", _char_at)]),
        FnSpec("indexOf", [binary("string_index_of_string", lambda s, sub: _index_of_offset(s, sub, 0, past_end)),
                           function("string_index_of_string_int",
                                    lambda s, sub, off: _index_of_offset(s, sub, off, past_end))]),
        FnSpec("lastIndexOf", [binary("string_last_index_of_string",
                                      lambda s, sub: _last_index_of(s, sub, short, past_end)),
                               function("string_last_index_of_string_int",
                                        lambda s, sub, off: _last_index_of_offset(s, sub, off, past_end))]),
        FnSpec("lowerAscii", [unary("string_lower_ascii", _lower_ascii)]),
        FnSpec("replace", [function("string_replace_string_string", lambda s, o, n: _replace(s, o, n, -1)),
                           function("string_replace_string_string_int", _replace)]),
        FnSpec("split", [binary("string_split_string", lambda s, sep: V.BaseList(go_split(s, sep))),
                         function("string_split_string_int", lambda s, sep, n: V.BaseList(go_split(s, sep, n)))]),
        FnSpec("substring", [binary("string_substring_int", _substring),
                             function("string_substring_int_int", _substring_range)]),
        FnSpec("trim", [unary("string_trim", go_trim_space)]),
        FnSpec("upperAscii", [unary("string_upper_ascii", _upper_ascii)]),
        FnSpec("format", [function("string_format", _format_binding(cel_go, x_text))]),
        FnSpec("strings.quote", [unary("strings_quote", strings_quote)]),
        FnSpec("join", [unary("list_join", lambda lst: _join(lst, "")), binary("list_join_string", _join)]),
    ]
    return _resprintf_specs(specs) if has(cel_go, "runtime_error_sprintf") else specs


# --- string.format (ext/formatting.go, the v1 formatter with locale en_US) ------------------------------


class _FormatError(Exception):
    pass


def _format_string_clause(arg: Any) -> str:
    """``FormatString`` (the ``%s`` clause)."""
    t = V.type_of(arg)
    if t is V.LIST_TYPE:
        return _format_list(arg)
    if t is V.MAP_TYPE:
        return _format_map(arg)
    if t in (V.INT_TYPE, V.UINT_TYPE, V.DOUBLE_TYPE, V.BOOL_TYPE, V.STRING_TYPE, V.TIMESTAMP_TYPE, V.BYTES_TYPE,
             V.DURATION_TYPE, V.TYPE_TYPE):
        s = V.convert_to_type(arg, V.STRING_TYPE)
        if type(s) is not str:
            raise _FormatError(f"could not convert argument {V.go_quote(V.go_format_value(s))} to string")
        return s
    if t is V.NULL_TYPE:
        return "null"
    raise _FormatError("string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, types, "
                       f"durations, and timestamps, was given {t.name}")


def _format_decimal(arg: Any) -> str:
    t = type(arg)
    if t is int:
        return str(arg)
    if t is V.Uint:
        return str(arg.v)
    raise _FormatError(f"decimal clause can only be used on integers, was given {V.type_name(arg)}")


def _clause_for_type(arg: Any) -> Callable[[Any], str]:
    t = V.type_of(arg)
    if t in (V.INT_TYPE, V.UINT_TYPE):
        return _format_decimal
    if t in (V.STRING_TYPE, V.BYTES_TYPE, V.BOOL_TYPE, V.NULL_TYPE, V.TYPE_TYPE):
        return _format_string_clause
    if t in (V.TIMESTAMP_TYPE, V.DURATION_TYPE):
        def lit(a: Any) -> str:
            s = V.convert_to_type(a, V.STRING_TYPE)
            kind = "timestamp" if type(a) is V.Timestamp else "duration"
            return f"{kind}({V.go_quote(s)})"
        return lit
    if t is V.LIST_TYPE:
        return _format_list
    if t is V.MAP_TYPE:
        return _format_map
    if t is V.DOUBLE_TYPE:
        return lambda a: _go_fixed(a, 6)
    raise _FormatError(f"no formatting function for {t.name}")


def _quote_for_cel(val: Any, s: str) -> str:
    t = type(val)
    if t is str:
        return V.go_quote(s)
    if t is bytes:
        return "b" + V.go_quote(s)
    if t is float and (math.isinf(val) or math.isnan(val)):
        return V.go_quote(s)
    return s


def _go_fixed(f: float, prec: int) -> str:
    """Go ``fmt.Sprintf("%.Nf", f)``."""
    if f != f:
        return "NaN"
    if math.isinf(f):
        return "+Inf" if f > 0 else "-Inf"
    return f"{f:.{prec}f}"


def _format_list(arg: Any) -> str:
    parts = []
    for m in arg.items():
        parts.append(_quote_for_cel(m, _clause_for_type(m)(m)))
    return "[" + ", ".join(parts) + "]"


def _format_map(arg: Any) -> str:
    pairs = []
    for k in arg.keys():
        tk = type(k)
        if tk in (str, bool):
            ks = _format_string_clause(k)
        elif tk is int or tk is V.Uint:
            ks = _format_decimal(k)
        else:
            raise _FormatError(f"no formatting function for map key of type {V.type_name(k)}")
        key = _quote_for_cel(k, ks)
        v, found = arg.find(k)
        if not found:
            raise _FormatError(f"could not find key: {V.go_quote(V.go_format_value(k))}")
        pairs.append((key, _quote_for_cel(v, _clause_for_type(v)(v))))
    pairs.sort(key=lambda p: p[0].encode("utf-8", "surrogatepass"))
    return "{" + ", ".join(f"{k}:{v}" for k, v in pairs) + "}"


def _group(int_part: str) -> str:
    out = []
    while len(int_part) > 3:
        out.append(int_part[-3:])
        int_part = int_part[:-3]
    out.append(int_part)
    return ",".join(reversed(out))


def localized_fixed(f: float, prec: int) -> str:
    """``message.NewPrinter(en-US).Sprintf("%.Nf", f)`` (x/text v0.33.0: grouping, ``∞``, unsigned ``-0.0``)."""
    if f != f:
        return "NaN"
    if math.isinf(f):
        return "∞" if f > 0 else "-∞"
    s = f"{abs(f):.{prec}f}"
    int_part, _, frac = s.partition(".")
    body = _group(int_part) + ("." + frac if prec > 0 else "")
    return ("-" if f < 0 else "") + body  # x/text: "-0" for -0.001 rounded, "0" for -0.0


_SUPERSCRIPT = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")


def localized_scientific(f: float, width: int, narrow_spaces: bool = False) -> str:
    """``message.NewPrinter(en-US).Sprintf("%We", f)`` with golang.org/x/text v0.33.0 (the version Kubernetes v0.36
    builds with): ``1.234568×10⁰⁶`` (W is a width, precision 6); ``narrow_spaces``: x/text before v0.23.0, which
    puts U+202F around ``×``."""
    if f != f:
        s = "NaN"
    elif math.isinf(f):
        s = "∞" if f > 0 else "-∞"
    else:
        m, _, e = f"{abs(f):.6e}".partition("e")
        exp = int(e)
        sign = "-" if f < 0 else ""
        times = "\u202f×\u202f" if narrow_spaces else "×"
        s = f"{sign}{m}{times}10" + (("-" if exp < 0 else "") + f"{abs(exp):02d}").translate(_SUPERSCRIPT)
    return s.rjust(width)


def _fixed_clause(precision: int | None) -> Callable[[Any], str]:
    prec = 6 if precision is None else precision

    def fixed(arg: Any) -> str:
        return localized_fixed(_double_argument(arg, "fixed-point"), prec)

    return fixed


def _scientific_clause(precision: int | None, narrow_spaces: bool = False) -> Callable[[Any], str]:
    width = 6 if precision is None else precision

    def sci(arg: Any) -> str:
        return localized_scientific(_double_argument(arg, "scientific"), width, narrow_spaces)

    return sci


def _double_argument(arg: Any, clause: str) -> Any:
    """The double a fixed-point or scientific clause formats (the strings NaN/±Infinity allowed), as cel-go checks it."""
    str_exc = type(arg) is str and arg in ("NaN", "Infinity", "-Infinity")
    if type(arg) is not float and not str_exc:
        raise _FormatError(f"{clause} clause can only be used on doubles, was given {V.type_name(arg)}")
    return V.convert_to_type(arg, V.DOUBLE_TYPE)


def _binary_clause(arg: Any) -> str:
    t = type(arg)
    if t is int:
        return ("-" if arg < 0 else "") + format(abs(arg), "b")
    if t is V.Uint:
        return format(arg.v, "b")
    if t is bool:
        return "1" if arg else "0"
    raise _FormatError(f"only integers and bools can be formatted as binary, was given {V.type_name(arg)}")


def _hex_clause(upper: bool) -> Callable[[Any], str]:
    def hexf(arg: Any) -> str:
        t = type(arg)
        if t is str:
            out = arg.encode("utf-8", "surrogatepass").hex()
        elif t is bytes:
            out = arg.hex()
        elif t is int:
            out = ("-" if arg < 0 else "") + format(abs(arg), "x")
        elif t is V.Uint:
            out = format(arg.v, "x")
        else:
            raise _FormatError(
                f"only integers, byte buffers, and strings can be formatted as hex, was given {V.type_name(arg)}")
        return str(out.upper() if upper else out)

    return hexf


def _octal_clause(arg: Any) -> str:
    t = type(arg)
    if t is int:
        return ("-" if arg < 0 else "") + format(abs(arg), "o")
    if t is V.Uint:
        return format(arg.v, "o")
    raise _FormatError(f"octal clause can only be used on integers, was given {V.type_name(arg)}")


def string_format(fmt: str, args: Any, x_text: str = DEFAULT_X_TEXT) -> Any:
    """``parseFormatString`` with the ``stringFormatter``: the formatted string, or an error value. ``x_text``: the
    golang.org/x/text version the host links (its en-US number patterns)."""
    try:
        return _parse_format_string(fmt, args, version_key(x_text) < version_key(X_TEXT_NO_SPACES_AROUND_TIMES))
    except _FormatError as exc:
        return Err(str(exc))


def _parse_format_string(fmt: str, args: Any, narrow_spaces: bool = False) -> str:  # noqa: C901 - the Go scanner
    raw = fmt.encode("utf-8", "surrogatepass")
    i = 0
    arg_index = 0
    out = bytearray()
    n = len(raw)
    size = args.size()
    while i < n:
        if raw[i:i + 1] == b"%":
            if i + 1 < n and raw[i + 1:i + 2] == b"%":
                out += b"%"
                i += 2
                continue
            if arg_index >= size:
                raise _FormatError(f"index {arg_index} out of range")
            arg = args.get(arg_index)
            if i + 1 >= n:
                raise _FormatError("unexpected end of string")
            # parseAndFormatClause
            j = i + 1
            precision: int | None = None
            if raw[j:j + 1] == b".":
                k = j + 1
                digits = b""
                while True:
                    if k >= n:
                        raise _FormatError("could not parse formatting clause: error while parsing precision: "
                                           "could not find end of precision specifier")
                    if not (48 <= raw[k] <= 57):
                        break
                    digits += raw[k:k + 1]
                    k += 1
                if not digits:
                    raise _FormatError('could not parse formatting clause: error while parsing precision: '
                                       'error while converting precision to integer: strconv.Atoi: parsing "": '
                                       "invalid syntax")
                precision = int(digits)
                j = k
            r = raw[j:j + 1].decode("latin-1")
            j += 1
            clause: Callable[[Any], str]
            if r == "s":
                clause = _format_string_clause
            elif r == "d":
                clause = _format_decimal
            elif r == "f":
                clause = _fixed_clause(precision)
            elif r == "e":
                clause = _scientific_clause(precision, narrow_spaces)
            elif r == "b":
                clause = _binary_clause
            elif r in ("x", "X"):
                clause = _hex_clause(r == "X")
            elif r == "o":
                clause = _octal_clause
            else:
                raise _FormatError(f'could not parse formatting clause: unrecognized formatting clause "{r}"')
            try:
                val = clause(arg)
            except _FormatError as exc:
                raise _FormatError(f"error during formatting: {exc}") from None
            out += val.encode("utf-8", "surrogatepass")
            i = j
            arg_index += 1
        else:
            out += raw[i:i + 1]
            i += 1
    return out.decode("utf-8", "surrogatepass")


# --- ext.Sets (ext/sets.go) -------------------------------------------------------------------------------------


def _sets_contains(lst: Any, sub: Any) -> Any:
    for e in sub.items():
        exists = lst.contains(e)
        if exists is not True:
            return exists
    return True


def _sets_equivalent(a: Any, b: Any) -> Any:
    r = _sets_contains(a, b)
    if r is not True:
        return r
    return _sets_contains(b, a)


def _sets_intersects(a: Any, b: Any) -> Any:
    for e in a.items():
        if b.contains(e) is True:
            return True
    return False


def _sets(cel_go: str = DEFAULT_CEL_GO, x_text: str = DEFAULT_X_TEXT) -> list[FnSpec]:
    return [
        FnSpec("sets.contains", [binary("list_sets_contains_list", _sets_contains)]),
        FnSpec("sets.equivalent", [binary("list_sets_equivalent_list", _sets_equivalent)]),
        FnSpec("sets.intersects", [binary("list_sets_intersects_list", _sets_intersects)]),
    ]


# --- ext.Lists version 3 (ext/lists.go) ------------------------------------------------------------------------


def go_sort_slice(items: list[Any], less: Callable[[Any, Any], bool]) -> None:
    """Go ``sort.Slice`` (pdqsort, not stable) on ``items`` in place; ``less`` compares elements."""
    n = len(items)
    limit = n.bit_length()

    def lt(i: int, j: int) -> bool:
        return less(items[i], items[j])

    def swap(i: int, j: int) -> None:
        items[i], items[j] = items[j], items[i]

    def insertion_sort(a: int, b: int) -> None:
        for i in range(a + 1, b):
            j = i
            while j > a and lt(j, j - 1):
                swap(j, j - 1)
                j -= 1

    def sift_down(lo: int, hi: int, first: int) -> None:
        root = lo
        while True:
            child = 2 * root + 1
            if child >= hi:
                break
            if child + 1 < hi and lt(first + child, first + child + 1):
                child += 1
            if not lt(first + root, first + child):
                return
            swap(first + root, first + child)
            root = child

    def heap_sort(a: int, b: int) -> None:
        first, lo, hi = a, 0, b - a
        for i in range((hi - 1) // 2, -1, -1):
            sift_down(i, hi, first)
        for i in range(hi - 1, -1, -1):
            swap(first, first + i)
            sift_down(lo, i, first)

    def order2(a: int, b: int, swaps: list[int]) -> tuple[int, int]:
        if lt(b, a):
            swaps[0] += 1
            return b, a
        return a, b

    def median(a: int, b: int, c: int, swaps: list[int]) -> int:
        a, b = order2(a, b, swaps)
        b, c = order2(b, c, swaps)
        a, b = order2(a, b, swaps)
        return b

    def choose_pivot(a: int, b: int) -> tuple[int, int]:
        ln = b - a
        swaps = [0]
        i, j, k = a + ln // 4 * 1, a + ln // 4 * 2, a + ln // 4 * 3
        if ln >= 8:
            if ln >= 50:
                i = median(i - 1, i, i + 1, swaps)
                j = median(j - 1, j, j + 1, swaps)
                k = median(k - 1, k, k + 1, swaps)
            j = median(i, j, k, swaps)
        if swaps[0] == 0:
            return j, 1  # increasing
        if swaps[0] == 12:
            return j, 2  # decreasing
        return j, 0

    def reverse_range(a: int, b: int) -> None:
        i, j = a, b - 1
        while i < j:
            swap(i, j)
            i += 1
            j -= 1

    def partial_insertion_sort(a: int, b: int) -> bool:
        i = a + 1
        for _ in range(5):
            while i < b and not lt(i, i - 1):
                i += 1
            if i == b:
                return True
            if b - a < 50:
                return False
            swap(i, i - 1)
            if i - a >= 2:
                for j in range(i - 1, 0, -1):
                    if not lt(j, j - 1):
                        break
                    swap(j, j - 1)
            if b - i >= 2:
                for j in range(i + 1, b):
                    if not lt(j, j - 1):
                        break
                    swap(j, j - 1)
        return False

    def break_patterns(a: int, b: int) -> None:
        length = b - a
        if length >= 8:
            r = length
            modulus = 1 << length.bit_length()
            idx = a + (length // 4) * 2 - 1
            while idx <= a + (length // 4) * 2 + 1:
                r ^= (r << 13) & 0xFFFFFFFFFFFFFFFF
                r ^= r >> 7
                r ^= (r << 17) & 0xFFFFFFFFFFFFFFFF
                other = r & (modulus - 1)
                if other >= length:
                    other -= length
                swap(idx, a + other)
                idx += 1

    def partition_equal(a: int, b: int, pivot: int) -> int:
        swap(a, pivot)
        i, j = a + 1, b - 1
        while True:
            while i <= j and not lt(a, i):
                i += 1
            while i <= j and lt(a, j):
                j -= 1
            if i > j:
                break
            swap(i, j)
            i += 1
            j -= 1
        return i

    def partition(a: int, b: int, pivot: int) -> tuple[int, bool]:
        swap(a, pivot)
        i, j = a + 1, b - 1
        while i <= j and lt(i, a):
            i += 1
        while i <= j and not lt(j, a):
            j -= 1
        if i > j:
            swap(j, a)
            return j, True
        swap(i, j)
        i += 1
        j -= 1
        while True:
            while i <= j and lt(i, a):
                i += 1
            while i <= j and not lt(j, a):
                j -= 1
            if i > j:
                break
            swap(i, j)
            i += 1
            j -= 1
        swap(j, a)
        return j, False

    def pdqsort(a: int, b: int, lim: int) -> None:
        was_balanced = True
        was_partitioned = True
        while True:
            length = b - a
            if length <= 12:
                insertion_sort(a, b)
                return
            if lim == 0:
                heap_sort(a, b)
                return
            if not was_balanced:
                break_patterns(a, b)
                lim -= 1
            pivot, hint = choose_pivot(a, b)
            if hint == 2:
                reverse_range(a, b)
                pivot = (b - 1) - (pivot - a)
                hint = 1
            if was_balanced and was_partitioned and hint == 1:
                if partial_insertion_sort(a, b):
                    return
            if a > 0 and not lt(a - 1, pivot):
                a = partition_equal(a, b, pivot)
                continue
            mid, already = partition(a, b, pivot)
            was_partitioned = already
            left_len, right_len = mid - a, b - mid
            threshold = length // 8
            if left_len < right_len:
                was_balanced = left_len >= threshold
                pdqsort(a, mid, lim)
                a = mid + 1
            else:
                was_balanced = right_len >= threshold
                pdqsort(mid + 1, b, lim)
                b = mid

    pdqsort(0, n, limit)


def sort_by_associated_keys(lst: Any, keys: Any) -> Any:
    """``sortListByAssociatedKeys``."""
    n = lst.size()
    nk = keys.size()
    if n != nk:
        return Err("@sortByAssociatedKeys() expected a list of the same size as the associated keys list, but got "
                   f"{n} and {nk} elements respectively")
    if n == 0:
        return lst
    elem = keys.get(0)
    if not V.has_trait(elem, V.COMPARER):
        return Err("list elements must be comparable")
    elem_type = V.type_of(elem)
    key_vals = keys.items()
    indices = list(range(n))
    err = [False]

    def less(i: int, j: int) -> bool:
        ik, jk = key_vals[i], key_vals[j]
        if V.type_of(ik) is not elem_type or V.type_of(jk) is not elem_type:
            err[0] = True
            return False
        return bool(V.compare(ik, jk) == -1)

    go_sort_slice(indices, less)
    if err[0]:
        return Err("list elements must have the same type")
    return V.BaseList([lst.get(i) for i in indices])


def _flatten(lst: Any, depth: int) -> Any:
    if depth < 0:
        return Err("level must be non-negative")
    out: list[Any] = []
    for v in lst.items():
        if not isinstance(v, V.ListValue) or depth == 0:
            out.append(v)
            continue
        r = _flatten(v, depth - 1)
        if type(r) is Err:
            return r
        out.extend(r.elems)
    return V.BaseList(out)


def _flatten1(arg: Any) -> Any:
    if not isinstance(arg, V.ListValue):
        return V.val_or_err(arg, f"no such overload: {V.type_string(arg)}.flatten()")
    return _flatten(arg, 1)


def _flatten_n(a1: Any, a2: Any) -> Any:
    if not isinstance(a1, V.ListValue) or type(a2) is not int:
        return V.val_or_err(a1, f"no such overload: {V.type_string(a1)}.flatten({V.type_string(a2)})")
    return _flatten(a1, a2)


def _slice(lst: Any, start: int, end: int) -> Any:
    n = lst.size()
    if start < 0 or end < 0:
        return Err(f"cannot slice({start}, {end}), negative indexes not supported")
    if start > end:
        return Err(f"cannot slice({start}, {end}), start index must be less than or equal to end index")
    if n < end:
        return Err(f"cannot slice({start}, {end}), list is length {n}")
    return V.BaseList([lst.get(i) for i in range(start, end)])


def _distinct(lst: Any) -> Any:
    n = lst.size()
    if n == 0:
        return lst
    unique: list[Any] = []
    for i in range(n):
        val = lst.get(i)
        seen = False
        for j, other in enumerate(unique):
            if i == j:
                continue
            if V.value_equal(val, other) is True:
                seen = True
                break
        if not seen:
            unique.append(val)
    return V.BaseList(unique)


def _lists_range(n: int) -> Any:
    V.check_size(n)
    return V.BaseList(list(range(n)))


def _lists(cel_go: str = DEFAULT_CEL_GO, x_text: str = DEFAULT_X_TEXT) -> list[FnSpec]:
    sort_ids = [o.id for o in functions(("ext.lists.v3",))["sort"].overloads]
    by_ids = [o.id for o in functions(("ext.lists.v3",))["@sortByAssociatedKeys"].overloads]
    del sort_ids, by_ids
    return [
        FnSpec("slice", [function("list_slice", _slice)]),
        FnSpec("flatten", [unary("list_flatten", _flatten1), binary("list_flatten_int", _flatten_n)],
               disable_type_guards=True),
        FnSpec("sort", singleton=Binding("sort", unary=lambda lst: sort_by_associated_keys(lst, lst), trait=V.LISTER)),
        FnSpec("@sortByAssociatedKeys", singleton=Binding("@sortByAssociatedKeys", binary=sort_by_associated_keys,
                                                          trait=V.LISTER)),
        FnSpec("lists.range", [unary("lists_range", _lists_range)]),
        FnSpec("reverse", [unary("list_reverse", lambda lst: V.BaseList(list(reversed(lst.items()))))]),
        FnSpec("distinct", [unary("list_distinct", _distinct)]),
    ]


# --- ext.TwoVarComprehensions (ext/comprehensions.go) ------------------------------------------------------------


def _map_insert_map(target: Any, update: Any) -> Any:
    tm = target
    for k in update.keys():
        r = V.insert_map_key_value(tm, k, update.get(k))
        if type(r) is Err:
            return r
        tm = r
    return tm


def _two_var(cel_go: str = DEFAULT_CEL_GO, x_text: str = DEFAULT_X_TEXT) -> list[FnSpec]:
    return [
        FnSpec("cel.@mapInsert", [function("@mapInsert_map_key_value", lambda m, k, v: V.insert_map_key_value(m, k, v)),
                                  binary("@mapInsert_map_map", _map_insert_map)]),
    ]


# --- costs ----------------------------------------------------------------------------------------------------


def _track_alloc_list(cost_factor: float, size: int) -> int:
    return int(float(size) * cost_factor) + 1 + 10


def _track_output(args: list[Any], result: Any) -> int:
    return _track_alloc_list(1, actual_size(result))


def _go_type(v: Any) -> str:
    return go_type_name(v)


def _assert_int(v: Any) -> int:
    """Go ``v.(types.Int)``: panics unless ``v`` is an int."""
    if type(v) is not int:
        raise V.GoPanic(f"interface conversion: ref.Val is {_go_type(v)}, not types.Int")
    return v


_ADDERS = (str, int, float, bytes, V.Uint, V.Duration, V.Timestamp)


def _assert_lister(v: Any) -> Any:
    """Go ``v.(traits.Lister)``: panics unless ``v`` is a list, naming the first method (in name order: Add,
    Contains, ...) its type lacks."""
    if not isinstance(v, V.ListValue):
        missing = "Contains" if type(v) in _ADDERS else "Add"
        raise V.GoPanic(f"interface conversion: {_go_type(v)} is not traits.Lister: missing method {missing}")
    return v


def _track_flatten(args: list[Any], result: Any) -> int:
    """``trackListFlatten``: ``args[1].(types.Int)`` panics on a non-int depth (reachable through ``dyn``)."""
    depth = float(_assert_int(args[1])) if len(args) == 2 else 1.0
    return _track_alloc_list(depth, actual_size(args[0]))


def _track_self_compare(lst: Any) -> int:
    sz = actual_size(lst)
    factor = 2.0
    if sz == 0:
        return _track_alloc_list(factor, 0)
    elem = lst.get(0)
    if type(elem) in (str, bytes):
        factor += STRING_TRAVERSAL_COST_FACTOR
    return _track_alloc_list(factor, sz * sz)


def _track_sets(factor: float) -> Callable[[list[Any], Any], int]:
    return lambda args, result: 1 + int(float(actual_size(args[0]) * actual_size(args[1])) * factor)


@functools.lru_cache(maxsize=1)
def panicking_trackers() -> frozenset[str]:
    """The overloads whose cost tracker asserts argument types (``args[1].(types.Int)`` of ``flatten(int)``,
    ``.(traits.Lister)`` of ``distinct``, ``sort`` and ``@sortByAssociatedKeys``) and so panics on arguments that
    only ``dyn`` lets through."""
    fns = functions(("ext.lists.v3",))
    return frozenset({"list_flatten_int", "list_distinct"} | {o.id for o in fns["sort"].overloads}
                     | {o.id for o in fns["@sortByAssociatedKeys"].overloads})


def _overload_trackers(libraries: tuple[str, ...]) -> dict[str, Callable[[list[Any], Any], int | None]]:
    out: dict[str, Callable[[list[Any], Any], int | None]] = {}
    if "ext.lists.v3" in libraries:
        fns = functions(("ext.lists.v3",))
        out.update({"list_slice": _track_output, "list_flatten": _track_flatten, "list_flatten_int": _track_flatten,
                    "lists_range": _track_output, "list_reverse": _track_output,
                    "list_distinct": lambda a, r: _track_self_compare(_assert_lister(a[0]))})
        for o in fns["sort"].overloads:
            out[o.id] = lambda a, r: _track_self_compare(_assert_lister(a[0]))
        for o in fns["@sortByAssociatedKeys"].overloads:
            out[o.id] = lambda a, r: _track_self_compare(_assert_lister(a[1]))
    if "ext.sets" in libraries:
        out["list_sets_contains_list"] = _track_sets(1)
        out["list_sets_intersects_list"] = _track_sets(1)
        out["list_sets_equivalent_list"] = _track_sets(2)
    return out


# --- environments ---------------------------------------------------------------------------------------------


#: The runtime functions of cel-go's libraries (:data:`crdtool.core.celgo.decls.LIBRARIES`), by library name.
def _strings_v0(cel_go: str = DEFAULT_CEL_GO, x_text: str = DEFAULT_X_TEXT) -> list[FnSpec]:
    return [s for s in _strings(cel_go, x_text) if s.name not in ("format", "strings.quote")]


#: Each maker takes the cel-go version and the host's golang.org/x/text version.
LIBRARIES: dict[str, Callable[[str, str], list[FnSpec]]] = {
    "stdlib": _stdlib, "optional": _optional, "ext.strings.v2": _strings, "ext.strings.v0": _strings_v0,
    "ext.sets": _sets, "ext.lists.v3": _lists, "ext.two_var_comprehensions": _two_var,
}


def build_runtime(
    libraries: tuple[str, ...],
    specs: Callable[[str], list[FnSpec]],
    decls: dict[str, FunctionDecl],
    type_idents: dict[str, Any],
    *,
    estimator: Callable[[str, str, list[Any], Any], int | None] | None = None,
    estimator_functions: frozenset[str] | None = None,
    regex_functions: tuple[str, ...] = (),
    cel_go: str = DEFAULT_CEL_GO,
) -> Runtime:
    """Merge the libraries' functions (``FunctionDecl.Merge``) and build the dispatcher (``FunctionDecl.Bindings``).

    In: the libraries by name, in application order; ``specs(name)``, the runtime
    functions of one library; the environment's declarations (for overload order
    and runtime type guards); the runtime type identifiers; a library cost
    estimator (``CostEstimator.CallCost``) with the functions it may price, and
    the functions whose constant regex argument is compiled at plan time. The
    ``ext`` lists and sets libraries bring their ``OverloadCostTracker``s.
    """
    merged: dict[str, FnSpec] = {}
    for lib in libraries:
        for spec in specs(lib):
            cur = merged.get(spec.name)
            if cur is None:
                merged[spec.name] = FnSpec(spec.name, list(spec.overloads), spec.singleton, spec.disable_type_guards)
                continue
            seen = {b.id for b in cur.overloads}
            cur.overloads.extend(b for b in spec.overloads if b.id not in seen)
            cur.singleton = cur.singleton or spec.singleton
            cur.disable_type_guards = cur.disable_type_guards or spec.disable_type_guards
    overloads: dict[str, Any] = {}
    for name, spec in merged.items():
        decl = decls.get(name)
        decl_args = {o.id: o.args for o in decl.overloads} if decl is not None else {}
        # order overloads as declared (cel-go keeps the declaration order across merged libraries)
        if decl is not None:
            order = {o.id: i for i, o in enumerate(decl.overloads)}
            spec.overloads.sort(key=lambda b: order.get(b.id, len(order)))
        for o in _bindings(spec, decl_args):
            overloads.setdefault(o.operator, o)
    trackers = _overload_trackers(libraries)
    panicking = {k: v for k, v in trackers.items() if k in panicking_trackers()}
    return Runtime(Dispatcher(overloads), type_idents, estimator, trackers, estimator_functions,
                   regex_functions, panicking, cel_go)


@functools.lru_cache(maxsize=16)
def runtime(libraries: tuple[str, ...] = ("stdlib",), cel_go: str = DEFAULT_CEL_GO) -> Runtime:
    """The runtime of a cel-go ``cel_go`` environment made of :data:`LIBRARIES` (by name, in application order)."""
    return build_runtime(libraries, lambda lib: LIBRARIES[lib](cel_go, DEFAULT_X_TEXT), functions(libraries, cel_go),
                         dict(V.STANDARD_TYPE_IDENTS), cel_go=cel_go)
