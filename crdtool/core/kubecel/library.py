"""The Kubernetes CEL libraries at run time: their values, functions and actual costs.

Mirrors ``k8s.io/apiserver`` v0.36 ``pkg/cel/library``: ``lists.go``
(``isSorted``, ``sum``, ``min``, ``max``, ``indexOf``, ``lastIndexOf``),
``regex.go`` (``find``, ``findAll``, with the constant-pattern optimisations),
``urls.go``, ``quantity.go``, ``ip.go``, ``cidr.go``, ``format.go``,
``semverlib.go`` and ``cost.go`` (``CostEstimator.CallCost``); and the value
types of ``pkg/cel`` (``quantity.go``, ``url.go``, ``ip.go``, ``cidr.go``,
``format.go``, ``semver.go``) with their ``Equal``, ``Type`` and ``Size``.
Behind them, ports of what they call: ``resource.Quantity``
(``k8s.io/apimachinery pkg/api/resource``: ``ParseQuantity`` with its int64
and ``inf.Dec`` representations, ``Cmp``, ``Add``, ``Sub``, ``AsInt64``,
``AsApproximateFloat64``), ``github.com/blang/semver/v4`` (``Parse``,
``Compare``), and Go's ``net/url``, ``net/netip`` and ``regexp``
(:mod:`crdtool.core.gostd`).

The ``kubernetes.authorization`` functions (``authz.go``) are in
:mod:`crdtool.core.kubecel.authz`; only admission policies have an authorizer
value to call them on.
"""

from __future__ import annotations

import math
from typing import Any, Callable

from crdtool.core import validation_util as vu
from crdtool.core.celgo import values as V
from crdtool.core.schema import formats
from crdtool.core import gostd
from crdtool.core.celgo.functions import FnSpec, binary, function, unary
from crdtool.core.celgo.interpreter import REGEX_STRING_LENGTH_COST_FACTOR, STRING_TRAVERSAL_COST_FACTOR
from crdtool.core.celgo.values import Err
from crdtool.core.quantity import (
    _FORMAT_WRONG,
    _NUMERIC,
    _SUFFIX,
    _inf_dec_set_string,
    _interpret_suffix,
    _parse_quantity_string,
)
from crdtool.core.releases import DEFAULT_RELEASE

__all__ = ["CALL_COST_FUNCTIONS", "call_cost", "library_specs", "type_idents"]

_mnso = V.maybe_no_such_overload

QUANTITY_TYPE = V.TypeValue("kubernetes.Quantity")
URL_TYPE = V.TypeValue("kubernetes.URL")
IP_TYPE = V.TypeValue("net.IP")
CIDR_TYPE = V.TypeValue("net.CIDR")
FORMAT_TYPE = V.TypeValue("kubernetes.NamedFormat")
SEMVER_TYPE = V.TypeValue("kubernetes.Semver")


def _conv_err(src: V.TypeValue, dst: V.TypeValue) -> Err:
    return Err(f"type conversion error from '{src.name}' to '{dst.name}'")


# --- resource.Quantity ---------------------------------------------------------------------------------

_INT64_MAX = (1 << 63) - 1


class _Dec:
    """A mutable ``*inf.Dec``: value = unscaled * 10**-scale (shared by shallow copies, as in Go)."""

    __slots__ = ("unscaled", "scale")

    def __init__(self, unscaled: int, scale: int) -> None:
        self.unscaled = unscaled
        self.scale = scale

    def add(self, x_unscaled: int, x_scale: int, sign: int = 1) -> None:
        s = max(self.scale, x_scale)
        a = self.unscaled * 10 ** (s - self.scale)
        b = x_unscaled * 10 ** (s - x_scale)
        self.unscaled = a + sign * b
        self.scale = s


def _frac(unscaled: int, scale: int) -> tuple[int, int]:
    """(numerator, denominator) of unscaled * 10**-scale."""
    if scale >= 0:
        return unscaled, 10**scale
    return unscaled * 10 ** (-scale), 1


class Quantity:
    """``apiservercel.Quantity`` over a ``resource.Quantity``; ``pointer`` marks ``*Quantity`` results (add/sub)."""

    __slots__ = ("i_value", "i_scale", "dec", "pointer")
    cel_type = QUANTITY_TYPE
    go_type = "apiservercel.Quantity"

    def __init__(self, i_value: int = 0, i_scale: int = 0, dec: _Dec | None = None, pointer: bool = False) -> None:
        self.i_value = i_value
        self.i_scale = i_scale
        self.dec = dec
        self.pointer = pointer

    def copy(self, pointer: bool, deep: bool = False) -> Quantity:
        """``copy := *q`` (the ``inf.Dec`` pointer is shared), or ``q.DeepCopy()`` (``deep``: its own ``inf.Dec``)."""
        dec = self.dec
        if deep and dec is not None:
            dec = _Dec(dec.unscaled, dec.scale)
        return Quantity(self.i_value, self.i_scale, dec, pointer)

    def as_dec(self) -> tuple[int, int]:
        if self.dec is not None:
            return self.dec.unscaled, self.dec.scale
        return self.i_value, -self.i_scale

    def exact(self) -> tuple[int, int]:
        u, s = self.as_dec()
        return _frac(u, s)

    def cmp(self, other: Quantity) -> int:
        an, ad = self.exact()
        bn, bd = other.exact()
        x, y = an * bd, bn * ad
        return (x > y) - (x < y)

    def sign(self) -> int:
        u = self.dec.unscaled if self.dec is not None else self.i_value
        return (u > 0) - (u < 0)

    def is_zero(self) -> bool:
        return self.sign() == 0

    def as_int64(self) -> int | None:
        if self.dec is not None:
            return None
        if self.i_scale == 0:
            return self.i_value
        if self.i_scale < 0:
            return None
        v = self.i_value * 10**self.i_scale
        return v if -(1 << 63) <= v <= _INT64_MAX else None

    def approximate_float(self) -> float:
        if self.dec is not None:
            base = float(self.dec.unscaled)
            exponent = -self.dec.scale
        else:
            base = float(self.i_value)
            exponent = self.i_scale
        if exponent == 0:
            return base
        return base * go_pow10(exponent)

    def _to_dec(self) -> _Dec:
        if self.dec is None:
            self.dec = _Dec(self.i_value, -self.i_scale)
            self.i_value, self.i_scale = 0, 0
        return self.dec

    def add_in_place(self, y: Quantity, sign: int = 1) -> None:
        """``Quantity.Add`` (``sign`` 1) and ``Quantity.Sub`` (-1)."""
        if self.dec is None and y.dec is None:
            ok = _int64_amount_add(self, y.i_value * sign, y.i_scale)
            if ok:
                return
        yu, ys = y.as_dec()
        self._to_dec().add(yu, ys, sign)

    def equal(self, other: Any) -> Any:
        if type(other) is not Quantity or other.pointer:
            return _mnso(other)
        return self.cmp(other) == 0

    def convert_to_type(self, t: V.TypeValue) -> Any:
        if t.name == "kubernetes.Quantity":
            return self
        if t.name == "type":
            return QUANTITY_TYPE
        return _conv_err(QUANTITY_TYPE, t)

    def go_string(self) -> str:
        n, d = self.exact()
        return str(n / d)


def _int64_amount_add(q: Quantity, bv: int, bs: int) -> bool:
    """``int64Amount.Add`` on ``q``'s int64 form; False (q unchanged) on overflow."""
    if bv == 0:
        return True
    if q.i_value == 0:
        q.i_value, q.i_scale = bv, bs
        return True
    if q.i_scale == bs:
        c = q.i_value + bv
    elif q.i_scale > bs:
        a = q.i_value * 10 ** (q.i_scale - bs)
        if not -(1 << 63) <= a <= _INT64_MAX:
            return False
        c = a + bv
        if not -(1 << 63) <= c <= _INT64_MAX:
            return False
        q.i_scale = bs
        q.i_value = c
        return True
    else:
        b = bv * 10 ** (bs - q.i_scale)
        if not -(1 << 63) <= b <= _INT64_MAX:
            return False
        c = q.i_value + b
    if not -(1 << 63) <= c <= _INT64_MAX:
        return False
    q.i_value = c
    return True


_POW10_TAB = [float(f"1e{i}") for i in range(32)]
_POW10_POS32 = [float(f"1e{32 * i}") for i in range(10)]
_POW10_NEG32 = [float(f"1e-{32 * i}") for i in range(11)]


def go_pow10(n: int) -> float:
    """Go ``math.Pow10``."""
    if 0 <= n <= 308:
        return _POW10_POS32[n // 32] * _POW10_TAB[n % 32]
    if -323 <= n <= 0:
        return _POW10_NEG32[(-n) // 32] / _POW10_TAB[(-n) % 32]
    return math.inf if n > 0 else 0.0


def parse_quantity(s: str) -> Quantity | str:
    """``resource.ParseQuantity``: the quantity, or the error text."""
    if not s:
        return _FORMAT_WRONG
    if s == "0":
        return Quantity()
    parsed = _parse_quantity_string(s)
    if isinstance(parsed, str):
        return parsed
    positive, value, num, denom, suf = parsed
    interp = _interpret_suffix(suf)
    if interp is None:
        return _SUFFIX
    base, exponent, fmt = interp
    precision = 0
    scale = 0
    mantissa = 1
    if fmt in ("DecimalExponent", "DecimalSI"):
        scale = exponent
        precision = 18 - (len(num) + len(denom))
    else:
        scale = 0
        if exponent >= 0 and not denom:
            mantissa = 1 << exponent
            precision = 15 - len(num) - int(float(exponent) * 3 / 10) - 1
        else:
            precision = -1
    if precision >= 0:
        scale -= len(denom)
        if scale >= -9:
            shifted = num + denom
            try:
                v = int(shifted)
            except ValueError:
                return _NUMERIC
            if not -(1 << 63) <= v <= _INT64_MAX:
                return _NUMERIC
            result = v * mantissa
            if -(1 << 63) <= result <= _INT64_MAX:
                return Quantity(result if positive else -result, scale)
    dec = _inf_dec_set_string(value)
    if dec is None:
        return _NUMERIC
    unscaled, dscale = dec
    if base == 10:
        dscale -= exponent
    else:
        unscaled *= 1 << exponent
    sign = (unscaled > 0) - (unscaled < 0)
    if sign == -1:
        unscaled = -unscaled
    if unscaled != 0 or not -(1 << 63) <= unscaled <= _INT64_MAX:
        # Round(amount, Nano, RoundUp): the quotient at scale 9, away from zero
        if dscale <= 9:
            unscaled *= 10 ** (9 - dscale)
        else:
            q, r = divmod(unscaled, 10 ** (dscale - 9))
            unscaled = q + (1 if r else 0)
        dscale = 9
    if fmt == "BinarySI" and unscaled * 1 > _INT64_MAX * 10**dscale:
        unscaled, dscale = _INT64_MAX, 0
    if sign == -1:
        unscaled = -unscaled
    return Quantity(dec=_Dec(unscaled, dscale))


def _q(v: Any) -> Quantity | None:
    return v if type(v) is Quantity else None


def _string_to_quantity(arg: Any) -> Any:
    if type(arg) is not str:
        return _mnso(arg)
    q = parse_quantity(arg)
    if isinstance(q, str):
        return Err(q)
    return q


def _is_quantity(arg: Any) -> Any:
    if type(arg) is not str:
        return _mnso(arg)
    return not isinstance(parse_quantity(arg), str)


def _q_unary(fn: Callable[[Quantity], Any]) -> Callable[[Any], Any]:
    def op(arg: Any) -> Any:
        q = _q(arg)
        if q is None:
            return _mnso(arg)
        return fn(q)

    return op


def _q_binary(fn: Callable[[Quantity, Quantity], Any]) -> Callable[[Any, Any], Any]:
    def op(arg: Any, other: Any) -> Any:
        q = _q(arg)
        if q is None:
            return _mnso(arg)
        q2 = _q(other)
        if q2 is None:
            return _mnso(arg)
        return fn(q, q2)

    return op


def _q_as_integer(q: Quantity) -> Any:
    v = q.as_int64()
    if v is None:
        return Err("cannot convert value to integer")
    return v


#: ``quantityAdd``/``quantityAddInt``/``quantitySub``/``quantitySubInt`` copy the receiver with ``q.DeepCopy()`` from
#: v0.37.0-beta.0 (commit aada2b1f1 "Fix bug where CEL quantity add would mutate the receiver"); until v0.36
#: ``copy := *q`` shares the receiver's ``inf.Dec``, so adding to a quantity held as an ``inf.Dec`` (beyond int64)
#: changes the receiver and every earlier result sharing it (``library/quantity.go@v0.36.3`` and ``@v0.37.0-beta.0``).
_QUANTITY_DEEP_COPY_SINCE = 37


def _q_add(q: Quantity, q2: Quantity, sign: int = 1, deep: bool = True) -> Any:
    c = q.copy(pointer=True, deep=deep)
    c.add_in_place(q2.copy(False), sign)
    return c


def _q_add_int(arg: Any, other: Any, sign: int = 1, deep: bool = True) -> Any:
    q = _q(arg)
    if q is None:
        return _mnso(arg)
    if type(other) is not int:
        return _mnso(arg)
    c = q.copy(pointer=True, deep=deep)
    c.add_in_place(Quantity(other, 0), sign)
    return c


def _quantity_specs(minor: int = DEFAULT_RELEASE.minor) -> list[FnSpec]:
    deep = minor >= _QUANTITY_DEEP_COPY_SINCE
    return [
        FnSpec("quantity", [unary("string_to_quantity", _string_to_quantity)]),
        FnSpec("isQuantity", [unary("is_quantity_string", _is_quantity)]),
        FnSpec("sign", [unary("quantity_sign", _q_unary(lambda q: q.sign()))]),
        FnSpec("isGreaterThan", [binary("quantity_is_greater_than", _q_binary(lambda a, b: a.cmp(b) == 1))]),
        FnSpec("isLessThan", [binary("quantity_is_less_than", _q_binary(lambda a, b: a.cmp(b) == -1))]),
        FnSpec("compareTo", [binary("quantity_compare_to", _q_binary(lambda a, b: a.cmp(b)))]),
        FnSpec("asApproximateFloat", [unary("quantity_get_float", _q_unary(lambda q: q.approximate_float()))]),
        FnSpec("asInteger", [unary("quantity_get_int", _q_unary(_q_as_integer))]),
        FnSpec("isInteger", [unary("quantity_is_integer", _q_unary(lambda q: q.as_int64() is not None))]),
        FnSpec("add", [binary("quantity_add", _q_binary(lambda a, b: _q_add(a, b, 1, deep))),
                       binary("quantity_add_int", lambda a, b: _q_add_int(a, b, 1, deep))]),
        FnSpec("sub", [binary("quantity_sub", _q_binary(lambda a, b: _q_add(a, b, -1, deep))),
                       binary("quantity_sub_int", lambda a, b: _q_add_int(a, b, -1, deep))]),
    ]


# --- urls.go (url.URL) --------------------------------------------------------------------------------------


class URL:
    """``apiservercel.URL`` over Go's ``*url.URL``."""

    __slots__ = ("u",)
    cel_type = URL_TYPE
    go_type = "apiservercel.URL"

    def __init__(self, u: gostd.GoURL) -> None:
        self.u = u

    def equal(self, other: Any) -> Any:
        if type(other) is not URL:
            return _mnso(other)
        return self.u.string() == other.u.string()

    def convert_to_type(self, t: V.TypeValue) -> Any:
        if t.name == "kubernetes.URL":
            return self
        if t.name == "type":
            return URL_TYPE
        return _conv_err(URL_TYPE, t)

    def go_string(self) -> str:
        return _s(self.u.string())


def _s(b: bytes) -> str:
    return b.decode("utf-8", "surrogateescape")


def _string_to_url(arg: Any) -> Any:
    if type(arg) is not str:
        return _mnso(arg)
    r = gostd.url_parse(arg, True)
    if isinstance(r, str):
        return Err(f"URL parse error during conversion from string: {r}")
    u = gostd.url_parse(arg, False)
    if isinstance(u, str):
        return Err(f"URL parse error during conversion from string: {u}")
    return URL(u)


def _is_url(arg: Any) -> Any:
    if type(arg) is not str:
        return _mnso(arg)
    return not isinstance(gostd.url_parse(arg, True), str)


def _url_unary(fn: Callable[[gostd.GoURL], Any]) -> Callable[[Any], Any]:
    def op(arg: Any) -> Any:
        if type(arg) is not URL:
            return _mnso(arg)
        return fn(arg.u)

    return op


def _get_query(u: gostd.GoURL) -> Any:
    return V.BaseMap.of([(_s(k), V.BaseList([_s(x) for x in v])) for k, v in u.query().items()])


def _url_specs() -> list[FnSpec]:
    return [
        FnSpec("url", [unary("string_to_url", _string_to_url)]),
        FnSpec("getScheme", [unary("url_get_scheme", _url_unary(lambda u: _s(u.scheme)))]),
        FnSpec("getHost", [unary("url_get_host", _url_unary(lambda u: _s(u.host)))]),
        FnSpec("getHostname", [unary("url_get_hostname", _url_unary(lambda u: _s(u.hostname())))]),
        FnSpec("getPort", [unary("url_get_port", _url_unary(lambda u: _s(u.port())))]),
        FnSpec("getEscapedPath", [unary("url_get_escaped_path", _url_unary(lambda u: _s(u.escaped_path())))]),
        FnSpec("getQuery", [unary("url_get_query", _url_unary(_get_query))]),
        FnSpec("isURL", [unary("is_url_string", _is_url)]),
    ]


# --- regex.go --------------------------------------------------------------------------------------------------


def _illegal(rx: Any) -> Any:
    return Err(f"Illegal regex: {rx.msg}") if type(rx) is Err else None


def _find(s: Any, regex: Any) -> Any:
    if type(s) is not str:
        return _mnso(s)
    if type(regex) is not str:
        return _mnso(regex)
    rx = V.compile_regex(regex)
    bad = _illegal(rx)
    if bad is not None:
        return bad
    m = rx.search(s)
    return m.group(0) if m else ""


def _find_all(*args: Any) -> Any:
    if len(args) < 2 or len(args) > 3:
        return V.NO_SUCH_OVERLOAD
    s, regex = args[0], args[1]
    if type(s) is not str:
        return _mnso(s)
    if type(regex) is not str:
        return _mnso(regex)
    n = -1
    if len(args) == 3:
        if type(args[2]) is not int:
            return _mnso(args[2])
        n = args[2]
    rx = V.compile_regex(regex)
    bad = _illegal(rx)
    if bad is not None:
        return bad
    return V.BaseList(gostd.find_all(rx, s, n))


def _regex_specs() -> list[FnSpec]:
    return [
        FnSpec("find", [binary("string_find_string", _find)]),
        FnSpec("findAll", [binary("string_find_all_string", lambda s, r: _find_all(s, r, -1)),
                           function("string_find_all_string_int", _find_all)]),
    ]


# --- lists.go ----------------------------------------------------------------------------------------------------


def _is_sorted(val: Any) -> Any:
    if not isinstance(val, V.ListValue):
        return _mnso(val)
    prev = None
    have = False
    for nxt in val.items():
        if not V.has_trait(nxt, V.COMPARER):
            return _mnso(nxt)
        if have and V.compare(prev, nxt) == 1:
            return False
        prev, have = nxt, True
    return True


def _sum(zero: Any) -> Callable[[Any], Any]:
    from crdtool.core.celgo.functions import _add

    def fn(val: Any) -> Any:
        acc = zero
        if not isinstance(val, V.ListValue):
            return _mnso(val)
        for nxt in val.items():
            if not V.has_trait(nxt, V.ADDER):
                return _mnso(nxt)
            s = _add(acc, nxt)
            if not V.has_trait(s, V.ADDER) or type(s) is Err:
                return _mnso(s)
            acc = s
        return acc

    return fn


def _cmp_fold(name: str, prefer: int) -> Callable[[Any], Any]:
    def fn(val: Any) -> Any:
        if not isinstance(val, V.ListValue):
            return _mnso(val)
        result = None
        have = False
        for nxt in val.items():
            if not V.has_trait(nxt, V.COMPARER):
                return _mnso(nxt)
            if not have:
                result, have = nxt, True
            elif V.compare(result, nxt) == prefer:
                result = nxt
        if not have:
            return Err(f"{name} called on empty list")
        return result

    return fn


def _index_of(lst: Any, item: Any) -> Any:
    if not isinstance(lst, V.ListValue):
        return _mnso(lst)
    for i in range(lst.size()):
        if V.value_equal(lst.get(i), item) is True:
            return i
    return -1


def _last_index_of(lst: Any, item: Any) -> Any:
    if not isinstance(lst, V.ListValue):
        return _mnso(lst)
    for i in range(lst.size() - 1, -1, -1):
        if V.value_equal(lst.get(i), item) is True:
            return i
    return -1


_COMPARABLE = ("int", "uint", "double", "bool", "duration", "timestamp", "string", "bytes")
_SUMMABLE = {"int": 0, "uint": V.Uint(0), "double": 0.0, "duration": V.Duration(0)}


def _lists_specs() -> list[FnSpec]:
    return [
        FnSpec("isSorted", [unary(f"list_{t}_is_sorted_bool", _is_sorted) for t in _COMPARABLE]),
        FnSpec("sum", [unary(f"list_{t}_sum_{t}", _sum(z)) for t, z in _SUMMABLE.items()]),
        FnSpec("max", [unary(f"list_{t}_max_{t}", _cmp_fold("max", -1)) for t in _COMPARABLE]),
        FnSpec("min", [unary(f"list_{t}_min_{t}", _cmp_fold("min", 1)) for t in _COMPARABLE]),
        FnSpec("indexOf", [binary("list_a_index_of_int", _index_of)]),
        FnSpec("lastIndexOf", [binary("list_a_last_index_of_int", _last_index_of)]),
    ]


def _includes(target: Any, arg: Any) -> Any:
    """``includes`` (v0.37.0-beta.0 ``library/lists.go``): a list has an element equal to ``arg``, or any
    other value equals it; element comparison errors count as not equal (never returned)."""
    if isinstance(target, V.ListValue):
        for i in range(target.size()):
            if V.value_equal(target.get(i), arg) is True:
                return True
        return False
    return V.value_equal(target, arg) is True


# --- ip.go, cidr.go (netip) ------------------------------------------------------------------------------------


class IP:
    """``apiservercel.IP`` over a ``netip.Addr``."""

    __slots__ = ("addr",)
    cel_type = IP_TYPE
    go_type = "apiservercel.IP"

    def __init__(self, addr: gostd.Addr) -> None:
        self.addr = addr

    def equal(self, other: Any) -> Any:
        if type(other) is not IP:
            return V.val_or_err(other, "no such overload")
        return self.addr == other.addr

    def size(self) -> int:
        return math.ceil(self.addr.bit_len() / 8)

    def convert_to_type(self, t: V.TypeValue) -> Any:
        if t.name == "net.IP":
            return self
        if t.name == "type":
            return IP_TYPE
        if t.name == "string":
            return self.addr.string()
        return _conv_err(IP_TYPE, t)

    def go_string(self) -> str:
        return self.addr.string()


class CIDR:
    """``apiservercel.CIDR`` over a ``netip.Prefix``."""

    __slots__ = ("prefix",)
    cel_type = CIDR_TYPE
    go_type = "apiservercel.CIDR"

    def __init__(self, prefix: gostd.Prefix) -> None:
        self.prefix = prefix

    def equal(self, other: Any) -> Any:
        if type(other) is not CIDR:
            return V.val_or_err(other, "no such overload")
        return self.prefix == other.prefix

    def size(self) -> int:
        return math.ceil(self.prefix.bits / 8)

    def convert_to_type(self, t: V.TypeValue) -> Any:
        if t.name == "net.CIDR":
            return self
        if t.name == "type":
            return CIDR_TYPE
        if t.name == "string":
            return self.prefix.string()
        return _conv_err(CIDR_TYPE, t)

    def go_string(self) -> str:
        return self.prefix.string()


def _parse_ip_addr(raw: str) -> gostd.Addr | str:
    """``parseIPAddr``."""
    addr = gostd.parse_addr(raw)
    if isinstance(addr, str):
        return f"IP Address {V.go_quote(raw)} parse error during conversion from string: {addr}"
    if addr.zone:
        return f"IP address {V.go_quote(raw)} with zone value is not allowed"
    if addr.is4in6():
        return f"IPv4-mapped IPv6 address {V.go_quote(raw)} is not allowed"
    return addr


def _string_to_ip(arg: Any) -> Any:
    if type(arg) is not str:
        return _mnso(arg)
    a = _parse_ip_addr(arg)
    if isinstance(a, str):
        return Err(a)
    return IP(a)


def _ip_unary(fn: Callable[[gostd.Addr], Any]) -> Callable[[Any], Any]:
    def op(arg: Any) -> Any:
        if type(arg) is not IP:
            return _mnso(arg)
        return fn(arg.addr)

    return op


def _ip_is_canonical(arg: Any) -> Any:
    if type(arg) is not str:
        return _mnso(arg)
    a = _parse_ip_addr(arg)
    if isinstance(a, str):
        return Err(a)
    return a.string() == arg


def _is_ip(arg: Any) -> Any:
    if type(arg) is not str:
        return _mnso(arg)
    return not isinstance(_parse_ip_addr(arg), str)


def _family(a: gostd.Addr) -> Any:
    return 4 if a.version == 4 else 6


def _parse_cidr(raw: str) -> gostd.Prefix | str:
    p = gostd.parse_prefix(raw)
    if isinstance(p, str):
        return f"network address parse error during conversion from string: {p}"
    if p.addr.is4in6():
        return f"IPv4-mapped IPv6 address {V.go_quote(raw)} is not allowed"
    return p


def _string_to_cidr(arg: Any) -> Any:
    if type(arg) is not str:
        return _mnso(arg)
    p = _parse_cidr(arg)
    if isinstance(p, str):
        return Err(f"network address parse error during conversion from string: {p}")
    return CIDR(p)


def _cidr_contains_ip(arg: Any, other: Any) -> Any:
    if type(arg) is not CIDR:
        return _mnso(other)
    if type(other) is not IP:
        return _mnso(arg)
    return arg.prefix.contains(other.addr)


#: ``cidrContainsCIDR`` tests ``cidr.Overlaps(containsCIDR.Prefix)`` from v0.33.0 and v0.32.4 (``library/cidr.go``);
#: v0.30.x, v0.31.x and v0.32.0–v0.32.3 compare the masked receiver with ``netip.PrefixFrom(<the argument's
#: address>, <the receiver's bits>)``, which is not masked: false whenever the argument's address is not the
#: receiver's base address. Release 1.32 is its newest patch here (fixed).
_CONTAINS_CIDR_OVERLAPS_SINCE = 32


def _cidr_contains_cidr(arg: Any, other: Any, overlaps: bool = True) -> Any:
    if type(arg) is not CIDR:
        return _mnso(arg)
    if type(other) is not CIDR:
        return _mnso(other)
    if overlaps:
        return arg.prefix.overlaps(other.prefix) and arg.prefix.bits <= other.prefix.bits
    # cidr.go@v0.31.14: cidr.Prefix.Masked() == netip.PrefixFrom(containsCIDR.Prefix.Addr(), cidr.Prefix.Bits());
    # PrefixFrom gives bits -1 (an invalid prefix) beyond the address's length
    bits = arg.prefix.bits if arg.prefix.bits <= other.prefix.addr.bit_len() else -1
    equal_masked = arg.prefix.masked() == gostd.Prefix(other.prefix.addr, bits)
    return equal_masked and arg.prefix.bits <= other.prefix.bits


def _cidr_unary(fn: Callable[[gostd.Prefix], Any]) -> Callable[[Any], Any]:
    def op(arg: Any) -> Any:
        if type(arg) is not CIDR:
            return _mnso(arg)
        return fn(arg.prefix)

    return op


def _is_cidr(arg: Any) -> Any:
    if type(arg) is not str:
        return _mnso(arg)
    return not isinstance(_parse_cidr(arg), str)


def _ip_specs() -> list[FnSpec]:
    return [
        FnSpec("ip", [unary("string_to_ip", _string_to_ip)]),
        FnSpec("family", [unary("ip_family", _ip_unary(_family))]),
        FnSpec("ip.isCanonical", [unary("ip_is_canonical", _ip_is_canonical)]),
        FnSpec("isUnspecified", [unary("ip_is_unspecified", _ip_unary(lambda a: a.is_unspecified()))]),
        FnSpec("isLoopback", [unary("ip_is_loopback", _ip_unary(lambda a: a.is_loopback()))]),
        FnSpec("isLinkLocalMulticast",
               [unary("ip_is_link_local_multicast", _ip_unary(lambda a: a.is_link_local_multicast()))]),
        FnSpec("isLinkLocalUnicast",
               [unary("ip_is_link_local_unicast", _ip_unary(lambda a: a.is_link_local_unicast()))]),
        FnSpec("isGlobalUnicast", [unary("ip_is_global_unicast", _ip_unary(lambda a: a.is_global_unicast()))]),
        FnSpec("isIP", [unary("is_ip", _is_ip)]),
        FnSpec("string", [unary("ip_to_string", _ip_unary(lambda a: a.string()))]),
    ]


def _cidr_specs(minor: int = DEFAULT_RELEASE.minor) -> list[FnSpec]:
    overlaps = minor >= _CONTAINS_CIDR_OVERLAPS_SINCE
    return [
        FnSpec("cidr", [unary("string_to_cidr", _string_to_cidr)]),
        FnSpec("containsIP", [binary("cidr_contains_ip_string", lambda a, o: _cidr_contains_ip(a, _string_to_ip(o))),
                              binary("cidr_contains_ip_ip", _cidr_contains_ip)]),
        FnSpec("containsCIDR", [binary("cidr_contains_cidr_string",
                                       lambda a, o: _cidr_contains_cidr(a, _string_to_cidr(o), overlaps)),
                                binary("cidr_contains_cidr", lambda a, o: _cidr_contains_cidr(a, o, overlaps))]),
        FnSpec("ip", [unary("cidr_ip", _cidr_unary(lambda p: IP(p.addr)))]),
        FnSpec("prefixLength", [unary("cidr_prefix_length", _cidr_unary(lambda p: p.bits))]),
        FnSpec("masked", [unary("cidr_masked", _cidr_unary(lambda p: CIDR(p.masked())))]),
        FnSpec("isCIDR", [unary("is_cidr", _is_cidr)]),
        FnSpec("string", [unary("cidr_to_string", _cidr_unary(lambda p: p.string()))]),
    ]


# --- format.go --------------------------------------------------------------------------------------------------


class Format:
    """``apiservercel.Format``: a named validation format."""

    __slots__ = ("key", "name", "validate", "max_regex_size")
    cel_type = FORMAT_TYPE
    go_type = "apiservercel.Format"

    def __init__(self, key: str, name: str, validate: Callable[[str], list[str]], max_regex_size: int) -> None:
        self.key = key
        self.name = name
        self.validate = validate
        self.max_regex_size = max_regex_size

    def equal(self, other: Any) -> Any:
        if type(other) is not Format:
            return _mnso(other)
        return self.name == other.name

    def convert_to_type(self, t: V.TypeValue) -> Any:
        if t.name == "kubernetes.NamedFormat":
            return self
        if t.name == "type":
            return FORMAT_TYPE
        return _conv_err(FORMAT_TYPE, t)


def _uri_problems(s: str) -> list[str]:
    r = gostd.url_parse(s, True)
    return [r] if isinstance(r, str) else []


def _strfmt(name: str, message: str) -> Callable[[str], list[str]]:
    return lambda s: [] if formats.validate_format(name, s) else [message]


_UUID_PATTERN_LEN = len("(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$")
_DATE_TIME_PATTERN_LEN = len("^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$")

#: ``library.ConstantFormats``.
CONSTANT_FORMATS: dict[str, Format] = {
    f.key: f for f in (
        Format("dns1123Label", "DNS1123Label", lambda s: vu.name_is_dns_label(s, False), 30),
        Format("dns1123Subdomain", "DNS1123Subdomain", lambda s: vu.name_is_dns_subdomain(s, False), 60),
        Format("dns1035Label", "DNS1035Label", lambda s: vu.name_is_dns1035_label(s, False), 30),
        Format("qualifiedName", "QualifiedName", vu.is_qualified_name, 60),
        Format("dns1123LabelPrefix", "DNS1123LabelPrefix", lambda s: vu.name_is_dns_label(s, True), 30),
        Format("dns1123SubdomainPrefix", "DNS1123SubdomainPrefix", lambda s: vu.name_is_dns_subdomain(s, True), 60),
        Format("dns1035LabelPrefix", "DNS1035LabelPrefix", lambda s: vu.name_is_dns1035_label(s, True), 30),
        Format("labelValue", "LabelValue", vu.is_valid_label_value, 40),
        Format("uri", "URI", _uri_problems, 1103),
        Format("uuid", "uuid", _strfmt("uuid", "does not match the UUID format"), _UUID_PATTERN_LEN),
        Format("byte", "byte", _strfmt("byte", "invalid base64"), 84),
        Format("date", "date", _strfmt("date", "invalid date"), _DATE_TIME_PATTERN_LEN),
        Format("datetime", "datetime", _strfmt("datetime", "invalid datetime"), _DATE_TIME_PATTERN_LEN),
    )
}


def _format_validate(f: Any, s: Any) -> Any:
    if type(f) is not Format:
        return _mnso(f)
    if type(s) is not str:
        return _mnso(s)
    res = f.validate(s)
    if not res:
        return V.OPTIONAL_NONE
    return V.Optional(V.BaseList(list(res)))


def _format_named(name: Any) -> Any:
    if type(name) is not str:
        return _mnso(name)
    f = CONSTANT_FORMATS.get(name)
    if f is None:
        return V.OPTIONAL_NONE
    return V.Optional(f)


def _format_specs() -> list[FnSpec]:
    specs = [
        FnSpec("validate", [binary("format-validate", _format_validate)]),
        FnSpec("format.named", [unary("format-named", _format_named)]),
    ]
    for key, f in CONSTANT_FORMATS.items():
        specs.append(FnSpec(f"format.{key}", [function(f"format.{key}", lambda *a, f=f: f)]))
    return specs


# --- semverlib.go (blang/semver v4) ---------------------------------------------------------------------------------

_NUMBERS = frozenset("0123456789")
_ALPHANUM = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-")


def _contains_only(s: str, chars: frozenset[str]) -> bool:
    return all(c in chars for c in s)


def _has_leading_zeroes(s: str) -> bool:
    return len(s) > 1 and s[0] == "0"


def _parse_uint(s: str) -> int | str:
    if not s or not _contains_only(s, _NUMBERS):
        return f"strconv.ParseUint: parsing {V.go_quote(s)}: invalid syntax"
    v = int(s)
    if v > V.UINT64_MAX:
        return f"strconv.ParseUint: parsing {V.go_quote(s)}: value out of range"
    return v


class Semver:
    """``apiservercel.Semver`` over a blang ``semver.Version``: (major, minor, patch, prerelease, build)."""

    __slots__ = ("major", "minor", "patch", "pre", "build")
    cel_type = SEMVER_TYPE
    go_type = "apiservercel.Semver"

    def __init__(self, major: int, minor: int, patch: int, pre: tuple[tuple[bool, int, str], ...],
                 build: tuple[str, ...]) -> None:
        self.major = major
        self.minor = minor
        self.patch = patch
        self.pre = pre
        self.build = build

    def compare(self, o: Semver) -> int:
        """``Version.Compare``."""
        for a, b in ((self.major, o.major), (self.minor, o.minor), (self.patch, o.patch)):
            if a != b:
                return 1 if a > b else -1
        if not self.pre and not o.pre:
            return 0
        if not self.pre:
            return 1
        if not o.pre:
            return -1
        for p, q in zip(self.pre, o.pre):
            c = _pr_compare(p, q)
            if c != 0:
                return c
        if len(self.pre) == len(o.pre):
            return 0
        return -1 if len(self.pre) < len(o.pre) else 1

    def equal(self, other: Any) -> Any:
        if type(other) is not Semver:
            return _mnso(other)
        return self.compare(other) == 0

    def convert_to_type(self, t: V.TypeValue) -> Any:
        if t.name == "kubernetes.Semver":
            return self
        if t.name == "type":
            return SEMVER_TYPE
        return _conv_err(SEMVER_TYPE, t)


def _pr_compare(p: tuple[bool, int, str], q: tuple[bool, int, str]) -> int:
    if p[0] and not q[0]:
        return -1
    if not p[0] and q[0]:
        return 1
    a, b = (p[1], q[1]) if p[0] else (p[2], q[2])
    if a == b:
        return 0
    return 1 if a > b else -1  # type: ignore[operator]


def parse_semver(s: str) -> Semver | str:
    """blang ``semver.Parse``: the version, or the error text."""
    if not s:
        return "Version string empty"
    parts = s.split(".", 2)
    if len(parts) != 3:
        return "No Major.Minor.Patch elements found"
    nums: list[int] = []
    for label, part in (("major", parts[0]), ("minor", parts[1])):
        if not _contains_only(part, _NUMBERS):
            return f"Invalid character(s) found in {label} number {V.go_quote(part)}"
        if _has_leading_zeroes(part):
            return f"{label.capitalize()} number must not contain leading zeroes {V.go_quote(part)}"
        v = _parse_uint(part)
        if isinstance(v, str):
            return v
        nums.append(v)
    patch_str = parts[2]
    build: list[str] = []
    pre: list[str] = []
    bi = patch_str.find("+")
    has_build = bi != -1
    if has_build:
        build = patch_str[bi + 1:].split(".")
        patch_str = patch_str[:bi]
    pi = patch_str.find("-")
    has_pre = pi != -1
    if has_pre:
        pre = patch_str[pi + 1:].split(".")
        patch_str = patch_str[:pi]
    if not _contains_only(patch_str, _NUMBERS):
        return f"Invalid character(s) found in patch number {V.go_quote(patch_str)}"
    if _has_leading_zeroes(patch_str):
        return f"Patch number must not contain leading zeroes {V.go_quote(patch_str)}"
    patch = _parse_uint(patch_str)
    if isinstance(patch, str):
        return patch
    prs: list[tuple[bool, int, str]] = []
    for p in pre:
        if not p:
            return "Prerelease is empty"
        if _contains_only(p, _NUMBERS):
            if _has_leading_zeroes(p):
                return f"Numeric PreRelease version must not contain leading zeroes {V.go_quote(p)}"
            n = _parse_uint(p)
            if isinstance(n, str):
                return n
            prs.append((True, n, ""))
        elif _contains_only(p, _ALPHANUM):
            prs.append((False, 0, p))
        else:
            return f"Invalid character(s) found in prerelease {V.go_quote(p)}"
    for b in build:
        if not b:
            return "Build meta data is empty"
        if not _contains_only(b, _ALPHANUM):
            return f"Invalid character(s) found in build meta data {V.go_quote(b)}"
    return Semver(nums[0], nums[1], patch, tuple(prs), tuple(build))


def _normalize_and_parse(s: str) -> Semver | str:
    """``normalizeAndParse``."""
    if s.startswith("v"):
        s = s[1:]
    parts = s.split(".", 2)
    for i, p in enumerate(parts):
        if len(p) > 1:
            p = p.lstrip("0")
            if not p or p[0] not in "0123456789":
                p = "0" + p
            parts[i] = p
    if len(parts) < 3:
        if any(c in parts[-1] for c in "+-"):
            return "short version cannot contain PreRelease/Build meta data"
        while len(parts) < 3:
            parts.append("0")
    return parse_semver(".".join(parts))


def _semver_of(arg: Any, normalize: Any = False) -> Any:
    if type(arg) is not str:
        return _mnso(arg)
    if type(normalize) is not bool:
        return _mnso(arg)
    v = _normalize_and_parse(arg) if normalize else parse_semver(arg)
    if isinstance(v, str):
        return Err(v)
    return v


def _is_semver(arg: Any, normalize: Any = False) -> Any:
    r = _semver_of(arg, normalize)
    if type(r) is Err:
        return False if type(arg) is str and type(normalize) is bool else r
    return True


def _wrap_int(u: int) -> int:
    """Go's ``types.Int(uint64)`` conversion (two's complement)."""
    return u - (1 << 64) if u >= 1 << 63 else u


def _sv_unary(fn: Callable[[Semver], Any]) -> Callable[[Any], Any]:
    def op(arg: Any) -> Any:
        if type(arg) is not Semver:
            return _mnso(arg)
        return fn(arg)

    return op


def _sv_binary(fn: Callable[[Semver, Semver], Any]) -> Callable[[Any, Any], Any]:
    def op(arg: Any, other: Any) -> Any:
        if type(arg) is not Semver:
            return _mnso(arg)
        if type(other) is not Semver:
            return _mnso(arg)
        return fn(arg, other)

    return op


def _semver_specs() -> list[FnSpec]:
    return [
        FnSpec("semver", [unary("string_to_semver", _semver_of), binary("string_bool_to_semver", _semver_of)]),
        FnSpec("isSemver", [unary("is_semver_string", _is_semver), binary("is_semver_string_bool", _is_semver)]),
        FnSpec("isGreaterThan", [binary("semver_is_greater_than", _sv_binary(lambda a, b: a.compare(b) == 1))]),
        FnSpec("isLessThan", [binary("semver_is_less_than", _sv_binary(lambda a, b: a.compare(b) == -1))]),
        FnSpec("compareTo", [binary("semver_compare_to", _sv_binary(lambda a, b: a.compare(b)))]),
        FnSpec("major", [unary("semver_major", _sv_unary(lambda v: _wrap_int(v.major)))]),
        FnSpec("minor", [unary("semver_minor", _sv_unary(lambda v: _wrap_int(v.minor)))]),
        FnSpec("patch", [unary("semver_patch", _sv_unary(lambda v: _wrap_int(v.patch)))]),
    ]


# --- library registry --------------------------------------------------------------------------------------------


def library_specs(lib: str, minor: int = DEFAULT_RELEASE.minor) -> list[FnSpec]:
    """The runtime functions of a Kubernetes library (names of :data:`crdtool.core.kubecel.library_decls.LIBRARIES`)."""
    if lib == "k8s.urls":
        return _url_specs()
    if lib == "k8s.regex":
        return _regex_specs()
    if lib == "k8s.lists":
        return _lists_specs()
    if lib == "k8s.lists.v1":
        return [*_lists_specs(), FnSpec("includes", [binary("list_includes_dyn_dyn", _includes)])]
    if lib == "k8s.quantity":
        return _quantity_specs(minor)
    if lib == "k8s.ip":
        return _ip_specs()
    if lib == "k8s.cidr":
        return _cidr_specs(minor)
    if lib == "k8s.format":
        return _format_specs()
    if lib == "k8s.semver":
        return _semver_specs()
    if lib == "k8s.authz":
        from crdtool.core.kubecel.authz import authz_specs

        return authz_specs()
    if lib == "k8s.authz_selectors":
        from crdtool.core.kubecel.authz import authz_selectors_specs

        return authz_selectors_specs()
    if lib == "k8s.jsonpatch":
        return [FnSpec("jsonpatch.escapeKey", [unary("string_jsonpatch_escapeKey_string", _jsonpatch_escape)])]
    if lib == "k8s.test":
        # library.Test() at its default version (math.MaxUint32 >= 1): test() is false, testV1() true
        return [FnSpec("test", [function("test", lambda *a: False)]),
                FnSpec("testV1", [function("testV1", lambda *a: True)])]
    return []


_JSONPATCH_ESCAPES = {ord("/"): "~1", ord("~"): "~0"}


def _jsonpatch_escape(arg: Any) -> Any:
    """``jsonpatch.go`` ``escape``: ``strings.NewReplacer("/", "~1", "~", "~0")``."""
    if type(arg) is not str:
        return _mnso(arg)
    return arg.translate(_JSONPATCH_ESCAPES)


_LIB_TYPES = {"k8s.ip": (IP_TYPE,), "k8s.cidr": (CIDR_TYPE,)}


def type_idents(libraries: tuple[str, ...]) -> dict[str, V.TypeValue]:
    """The runtime values of the type identifiers the libraries declare
    (:data:`crdtool.core.kubecel.library_decls.TYPE_NAMES`: ``net.IP``, ``net.CIDR``)."""
    out: dict[str, V.TypeValue] = {}
    for lib in libraries:
        for t in _LIB_TYPES.get(lib, ()):
            out[t.name] = t
    return out


# --- runtime cost (library/cost.go CallCost) -------------------------------------------------------------------------

_NOMINAL = frozenset({"serviceAccount", "path", "group", "resource", "subresource", "namespace", "name", "allowed",
                      "reason", "error", "errored", "masked", "prefixLength", "family", "isUnspecified", "isLoopback",
                      "isLinkLocalMulticast", "isLinkLocalUnicast", "isGlobalUnicast", "format.named", "sign",
                      "asInteger", "isInteger", "asApproximateFloat", "isGreaterThan", "isLessThan", "compareTo",
                      "add", "sub", "major", "minor", "patch", "getScheme", "getHostname", "getHost", "getPort",
                      "getEscapedPath", "getQuery"})


def _ceil(x: float) -> int:
    return int(math.ceil(x))


def _csize(v: Any) -> int:
    """cost.go ``actualSize``: sizers by size, else 1."""
    t = type(v)
    if t is str or t is bytes:
        return len(v)
    if isinstance(v, (V.ListValue, V.MapValue)):
        return v.size()
    size = getattr(v, "size", None)
    if size is not None and t is not V.Optional:
        return size()  # type: ignore[no-any-return]
    return 1


def traversal_cost(v: Any) -> int:
    """``traversalCost``."""
    t = type(v)
    if t is str:
        return int(float(len(v.encode("utf-8", "surrogatepass"))) * STRING_TRAVERSAL_COST_FACTOR)
    if t is bytes:
        return int(float(len(v)) * STRING_TRAVERSAL_COST_FACTOR)
    if isinstance(v, V.ListValue):
        return sum(traversal_cost(i) for i in v.items())
    if isinstance(v, V.MapValue):
        return sum(traversal_cost(k) + traversal_cost(v.get(k)) for k in v.keys())
    return 1


_K8S_EQ_TYPES = (Quantity, IP, CIDR, Format, URL, Semver)


def _selector_call_cost(length: int) -> int:
    """``selectorCostEstimate(checker.SizeEstimate{Min: length, Max: length}).Max`` (cost.go v0.31.0 on)."""
    from crdtool.core.celgo.cost import SizeEstimate
    from crdtool.core.kubecel.library_cost import _selector_cost

    return _selector_cost(SizeEstimate(length, length)).max


def call_cost(function: str, overload: str, args: list[Any], result: Any) -> int | None:  # noqa: C901 - CallCost
    """``CostEstimator.CallCost``: the actual cost of a call, or None for the default."""
    if function == "check":
        return 350000
    if function in _NOMINAL:
        return 1
    if function in ("fieldSelector", "labelSelector"):
        if len(args) >= 2:
            return _selector_call_cost(_csize(args[1]))
        return None
    if function in ("isSorted", "sum", "max", "min", "indexOf", "lastIndexOf", "includes"):
        return traversal_cost(args[0]) if args else 0
    if function in ("url", "lowerAscii", "upperAscii", "substring", "trim", "jsonpatch.escapeKey"):
        if args:
            return _ceil(_csize(args[0]) * STRING_TRAVERSAL_COST_FACTOR)
        return None
    if function in ("replace", "split"):
        if args:
            return _ceil(_csize(args[0]) * 2 * STRING_TRAVERSAL_COST_FACTOR)
        return None
    if function == "join":
        if args:
            return _ceil(_csize(result) * 2 * STRING_TRAVERSAL_COST_FACTOR)
        return None
    if function in ("find", "findAll"):
        if len(args) >= 2:
            str_cost = _ceil((1.0 + _csize(args[0])) * STRING_TRAVERSAL_COST_FACTOR)
            regex_cost = _ceil(_csize(args[1]) * REGEX_STRING_LENGTH_COST_FACTOR)
            return str_cost * regex_cost
        return None
    if function in ("cidr", "isIP", "isCIDR"):
        if args:
            return _ceil(_csize(args[0]) * STRING_TRAVERSAL_COST_FACTOR)
        return None
    if function == "ip":
        if args:
            if overload == "cidr_ip":
                return 1
            return _ceil(_csize(args[0]) * STRING_TRAVERSAL_COST_FACTOR)
        return None
    if function == "ip.isCanonical":
        if args:
            return _ceil(_csize(args[0]) * 2 * STRING_TRAVERSAL_COST_FACTOR)
        return None
    if function == "containsIP":
        if len(args) >= 2:
            c = _csize(args[0])
            cost = _ceil((c + c) * STRING_TRAVERSAL_COST_FACTOR)
            if overload == "cidr_contains_ip_string":
                cost += _ceil(_csize(args[1]) * STRING_TRAVERSAL_COST_FACTOR)
            return cost
        return None
    if function == "containsCIDR":
        if len(args) >= 2:
            c = _csize(args[0])
            cost = _ceil((c + c) * STRING_TRAVERSAL_COST_FACTOR)
            cost += _ceil(c * STRING_TRAVERSAL_COST_FACTOR) + 1
            if overload == "cidr_contains_cidr_string":
                cost += _ceil(_csize(args[1]) * STRING_TRAVERSAL_COST_FACTOR)
            return cost
        return None
    if function in ("quantity", "isQuantity", "semver", "isSemver"):
        if args:
            return _ceil(_csize(args[0]) * STRING_TRAVERSAL_COST_FACTOR)
        return None
    if function == "validate":
        if len(args) >= 2 and type(args[0]) is Format:
            str_cost = _ceil((1.0 + _csize(args[1])) * STRING_TRAVERSAL_COST_FACTOR)
            regex_cost = _ceil(args[0].max_regex_size * REGEX_STRING_LENGTH_COST_FACTOR)
            return str_cost * regex_cost
        return None
    if function == "_==_":
        if len(args) == 2 and type(args[0]) in _K8S_EQ_TYPES:
            return 1
        return None
    return None



#: ``library/cost.go@v0.32.0`` added the ``_==_`` case (equality of Kubernetes object types costs 1, estimated and
#: actual); before (v0.30, v0.31) the equality of those types takes cel-go's default cost.
_EQUALITY_COST_SINCE = 32


def _call_cost_without_equality(function: str, overload: str, args: list[Any], result: Any) -> int | None:
    """:func:`call_cost` of ``library/cost.go@v0.31.14``: no ``_==_`` case."""
    if function == "_==_":
        return None
    return call_cost(function, overload, args, result)


def call_cost_for(minor: int) -> Callable[[str, str, list[Any], Any], int | None]:
    """``CostEstimator.CallCost`` of Kubernetes 1.``minor``."""
    return call_cost if minor >= _EQUALITY_COST_SINCE else _call_cost_without_equality


#: every function :func:`call_cost` may price (for the others it always answers None)
CALL_COST_FUNCTIONS = _NOMINAL | frozenset({
    "check", "fieldSelector", "labelSelector", "isSorted", "sum", "max", "min", "indexOf", "lastIndexOf", "includes", "url", "lowerAscii", "upperAscii",
    "substring", "trim", "jsonpatch.escapeKey", "replace", "split", "join", "find", "findAll", "cidr", "isIP",
    "isCIDR", "ip", "ip.isCanonical", "containsIP", "containsCIDR", "quantity", "isQuantity", "semver", "isSemver",
    "validate", "_==_"})
