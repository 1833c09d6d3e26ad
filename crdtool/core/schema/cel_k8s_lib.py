"""The Kubernetes CEL libraries, as extensions of ``cel-expr-python`` (cel-cpp).

Mirrors ``staging/src/k8s.io/apiserver/pkg/cel/library``: ``lists.go``
(``isSorted``, ``sum``, ``min``, ``max``, ``indexOf``, ``lastIndexOf``,
``includes``), ``regex.go`` (``find``, ``findAll``), ``urls.go`` (``url``,
``isURL``, ``getScheme`` ...), ``quantity.go``, ``ip.go``, ``cidr.go``,
``format.go`` and ``semverlib.go``; plus cel-go's ``ext.Sets()`` (``sets.contains``,
``sets.equivalent``, ``sets.intersects``), which cel-cpp's Python wheel lacks.
The standard library, ``ext.Strings``, optional types, ``cel.bind`` and math
come from cel-cpp itself.

The opaque Kubernetes types (``kubernetes.Quantity``, ``kubernetes.URL``,
``kubernetes.Semver``, ``kubernetes.NamedFormat``, ``net.IP``, ``net.CIDR``) are
protobuf messages built at run time with a single string field ``v``, because
cel-cpp's Python binding passes only CEL values and protobuf messages across
the boundary. ``v`` holds a canonical form, so CEL's message equality is the
upstream type's ``Equal`` (``quantity('1Gi') == quantity('1024Mi')``); the
messages keep upstream's type names, so ``type(ip('::1'))`` is ``net.IP``.

Functions returning ``optional`` (``format.named``, ``<Format>.validate``) cannot
be written in Python for cel-cpp; :func:`rewrite_expression` turns them into
list-returning helpers followed by ``[?0]``, which yields the same optional.

Failures raise :class:`CelFunctionError` with upstream's message; cel-cpp turns
the exception into a CEL error value (prefixed by a status code, which the
evaluator strips).
"""

from __future__ import annotations

import datetime
import decimal
import functools
import ipaddress
import math
import re
import urllib.parse
from typing import Any, Callable, Iterable

from crdtool.core import validation_util as vu
from crdtool.core.schema import formats

__all__ = [
    "CelFunctionError",
    "k8s_extensions",
    "message_pool",
    "rewrite_expression",
    "iter_names",
]


class CelFunctionError(ValueError):
    """A Kubernetes library function failed; ``str()`` is upstream's error text."""


# --- protobuf types for the opaque values --------------------------------------

_TYPES = {
    "kubernetes.Quantity": "kubernetes",
    "kubernetes.URL": "kubernetes",
    "kubernetes.Semver": "kubernetes",
    "kubernetes.NamedFormat": "kubernetes",
    "net.IP": "net",
    "net.CIDR": "net",
}


@functools.lru_cache(maxsize=1)
def message_pool() -> tuple[Any, dict[str, Any]]:
    """The descriptor pool holding the opaque types, and their message classes by full name."""
    from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

    pool = descriptor_pool.DescriptorPool()
    for package in sorted(set(_TYPES.values())):
        fdp = descriptor_pb2.FileDescriptorProto(
            name=f"crdtool_{package}.proto", package=package, syntax="proto3"
        )
        for full in sorted(_TYPES):
            if _TYPES[full] != package:
                continue
            msg = fdp.message_type.add(name=full.split(".", 1)[1])
            msg.field.add(
                name="v",
                number=1,
                type=descriptor_pb2.FieldDescriptorProto.TYPE_STRING,
                label=descriptor_pb2.FieldDescriptorProto.LABEL_OPTIONAL,
            )
        pool.Add(fdp)
    classes = {
        full: message_factory.GetMessageClass(pool.FindMessageTypeByName(full)) for full in _TYPES
    }
    return pool, classes


def _make(type_name: str, canonical: str) -> Any:
    return message_pool()[1][type_name](v=canonical)


def _type_of(msg: Any) -> str:
    try:
        return str(msg.DESCRIPTOR.full_name)
    except AttributeError:
        return ""


def _expect(msg: Any, type_name: str) -> str:
    if _type_of(msg) != type_name:
        raise CelFunctionError("no such overload")
    return str(msg.v)


# --- CEL value helpers -------------------------------------------------------------


def _cel_equal(a: Any, b: Any) -> bool:
    """CEL heterogeneous equality on the Python values cel-cpp hands over."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, (bytes, bytearray)) and isinstance(b, (bytes, bytearray)):
        return bytes(a) == bytes(b)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_cel_equal(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        if len(a) != len(b):
            return False
        for k, v in a.items():
            if k not in b or not _cel_equal(v, b[k]):
                return False
        return True
    if type(a) is not type(b):
        return False
    return bool(a == b)


def _to_cel(value: Any) -> Any:
    """A Python result back into something cel-cpp accepts (durations and timestamps as protobuf)."""
    if isinstance(value, datetime.timedelta):
        from google.protobuf import duration_pb2

        d = duration_pb2.Duration()
        d.FromTimedelta(value)
        return d
    if isinstance(value, datetime.datetime):
        from google.protobuf import timestamp_pb2

        t = timestamp_pb2.Timestamp()
        t.FromDatetime(value)
        return t
    return value


def _comparable(items: list[Any]) -> None:
    kinds = {("num" if isinstance(x, (int, float)) and not isinstance(x, bool) else type(x).__name__) for x in items}
    if len(kinds) > 1:
        raise CelFunctionError("no such overload")


# --- lists.go -----------------------------------------------------------------------


def _is_sorted(items: list[Any]) -> bool:
    _comparable(items)
    return all(not (items[i] > items[i + 1]) for i in range(len(items) - 1))


def _sum(items: list[Any]) -> Any:
    if not items:
        return 0
    if all(isinstance(x, datetime.timedelta) for x in items):
        return _to_cel(sum(items, datetime.timedelta()))
    if any(isinstance(x, bool) or not isinstance(x, (int, float)) for x in items):
        raise CelFunctionError("no such overload")
    if all(isinstance(x, int) for x in items):
        total = sum(items)
        if not -(1 << 63) <= total < (1 << 63):
            raise CelFunctionError("integer overflow")
        return total
    return float(sum(float(x) for x in items))


def _min_max(name: str, pick: Callable[[list[Any]], Any]) -> Callable[[list[Any]], Any]:
    def fn(items: list[Any]) -> Any:
        if not items:
            raise CelFunctionError(f"{name} called on empty list")
        _comparable(items)
        return _to_cel(pick(items))

    return fn


def _index_of(items: list[Any], x: Any) -> int:
    for i, v in enumerate(items):
        if _cel_equal(v, x):
            return i
    return -1


def _last_index_of(items: list[Any], x: Any) -> int:
    for i in range(len(items) - 1, -1, -1):
        if _cel_equal(items[i], x):
            return i
    return -1


def _includes(target: Any, x: Any) -> bool:
    if isinstance(target, list):
        return any(_cel_equal(v, x) for v in target)
    return _cel_equal(target, x)


# --- cel-go ext.Sets ----------------------------------------------------------------


def _sets_contains(a: list[Any], b: list[Any]) -> bool:
    return all(any(_cel_equal(x, y) for x in a) for y in b)


def _sets_equivalent(a: list[Any], b: list[Any]) -> bool:
    return _sets_contains(a, b) and _sets_contains(b, a)


def _sets_intersects(a: list[Any], b: list[Any]) -> bool:
    return any(any(_cel_equal(x, y) for x in a) for y in b)


# --- regex.go -----------------------------------------------------------------------


@functools.lru_cache(maxsize=256)
def _regex(pattern: str) -> Any:
    try:
        import re2  # Go's regexp is RE2

        return re2.compile(pattern)
    except ImportError:  # pragma: no cover - google-re2 is a dependency
        return re.compile(pattern)
    except Exception as exc:  # noqa: BLE001 - re2 raises its own error type
        raise CelFunctionError(f"error parsing regexp: {exc}") from None


def _find(s: str, pattern: str) -> str:
    m = _regex(pattern).search(s)
    return m.group(0) if m else ""


def _find_all(s: str, pattern: str, limit: int = -1) -> list[str]:
    if limit == 0:
        return []
    out: list[str] = []
    for m in _regex(pattern).finditer(s):
        out.append(m.group(0))
        if 0 < limit <= len(out):
            break
    return out


# --- quantity.go (resource.Quantity) -----------------------------------------------------

_Q_CTX = decimal.Context(prec=200, Emax=10**6, Emin=-(10**6), rounding=decimal.ROUND_HALF_EVEN)
_Q_RE = re.compile(r"([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)")
_Q_FORMAT_ERR = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"
_DEC_SUFFIX = {"": 0, "n": -9, "u": -6, "m": -3, "k": 3, "M": 6, "G": 9, "T": 12, "P": 15, "E": 18}
_BIN_SUFFIX = {"Ki": 10, "Mi": 20, "Gi": 30, "Ti": 40, "Pi": 50, "Ei": 60}
_NANO = decimal.Decimal("1e-9")


def parse_quantity(s: str) -> decimal.Decimal:
    """Upstream ``resource.ParseQuantity``: the exact value, rounded up to nano precision.

    Raises CelFunctionError with upstream's ``ErrFormatWrong``/``ErrSuffix`` text.
    """
    if not formats.is_quantity(s):
        m = _Q_RE.fullmatch(s)
        if m is None or not s:
            raise CelFunctionError(_Q_FORMAT_ERR)
        raise CelFunctionError("unable to parse quantity's suffix")
    m = _Q_RE.fullmatch(s)
    if m is None:  # pragma: no cover - is_quantity accepted it
        raise CelFunctionError(_Q_FORMAT_ERR)
    number, suffix = m.group(1), m.group(2)
    try:
        value = _Q_CTX.create_decimal(number if number not in ("+", "-", ".") else "0")
    except decimal.InvalidOperation:
        raise CelFunctionError("unable to parse numeric part of quantity") from None
    if suffix in _BIN_SUFFIX:
        value = _Q_CTX.multiply(value, decimal.Decimal(2) ** _BIN_SUFFIX[suffix])
    elif suffix in _DEC_SUFFIX:
        value = _Q_CTX.multiply(value, _Q_CTX.power(10, _DEC_SUFFIX[suffix]))
    else:
        value = _Q_CTX.multiply(value, _Q_CTX.power(10, int(suffix[1:])))
    if value != value.quantize(_NANO, rounding=decimal.ROUND_UP, context=_Q_CTX):
        value = value.quantize(_NANO, rounding=decimal.ROUND_UP, context=_Q_CTX)
    return value


def _q_canonical(value: decimal.Decimal) -> str:
    if value == 0:
        return "0"
    return str(value.normalize(_Q_CTX))


def _q_value(msg: Any) -> decimal.Decimal:
    return decimal.Decimal(_expect(msg, "kubernetes.Quantity"))


def _quantity(s: str) -> Any:
    return _make("kubernetes.Quantity", _q_canonical(parse_quantity(s)))


def _is_quantity(s: str) -> bool:
    return formats.is_quantity(s)


def _q_as_int(value: decimal.Decimal) -> int | None:
    if value != value.to_integral_value(context=_Q_CTX):
        return None
    iv = int(value)
    return iv if -(1 << 63) <= iv < (1 << 63) else None


def _q_as_integer(q: Any) -> int:
    iv = _q_as_int(_q_value(q))
    if iv is None:
        raise CelFunctionError("cannot convert value to integer")
    return iv


def _q_is_integer(q: Any) -> bool:
    return _q_as_int(_q_value(q)) is not None


def _q_float(q: Any) -> float:
    try:
        return float(_q_value(q))
    except OverflowError:  # pragma: no cover - Decimal -> float saturates to inf
        return math.inf


def _q_sign(q: Any) -> int:
    v = _q_value(q)
    return (v > 0) - (v < 0)


def _q_cmp(a: Any, b: Any) -> int:
    x, y = _q_value(a), _q_value(b)
    return (x > y) - (x < y)


def _q_add(a: Any, b: Any) -> Any:
    other = decimal.Decimal(b) if isinstance(b, int) else _q_value(b)
    return _make("kubernetes.Quantity", _q_canonical(_Q_CTX.add(_q_value(a), other)))


def _q_sub(a: Any, b: Any) -> Any:
    other = decimal.Decimal(b) if isinstance(b, int) else _q_value(b)
    return _make("kubernetes.Quantity", _q_canonical(_Q_CTX.subtract(_q_value(a), other)))


def _q_mul(a: Any, b: int) -> Any:
    return _make("kubernetes.Quantity", _q_canonical(_Q_CTX.multiply(_q_value(a), decimal.Decimal(b))))


# --- ip.go / cidr.go (net/netip) -----------------------------------------------------------


def _parse_addr(raw: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address:
    """Upstream ``parseIPAddr``: netip.ParseAddr without zones or IPv4-mapped IPv6."""
    if "%" in raw:
        try:
            ipaddress.ip_address(raw.split("%", 1)[0])
        except ValueError:
            raise CelFunctionError(
                f"IP Address {_q(raw)} parse error during conversion from string: ParseAddr({_q(raw)}): "
                "unable to parse IP"
            ) from None
        raise CelFunctionError(f"IP address {_q(raw)} with zone value is not allowed")
    try:
        addr = ipaddress.ip_address(raw)
    except ValueError:
        raise CelFunctionError(
            f"IP Address {_q(raw)} parse error during conversion from string: ParseAddr({_q(raw)}): "
            "unable to parse IP"
        ) from None
    if isinstance(addr, ipaddress.IPv6Address) and addr.ipv4_mapped is not None:
        raise CelFunctionError(f"IPv4-mapped IPv6 address {_q(raw)} is not allowed")
    return addr


def _q(s: str) -> str:
    from crdtool.core.errors import go_quote

    return go_quote(s)


def _ip(s: str) -> Any:
    return _make("net.IP", str(_parse_addr(s)))


def _addr_of(msg: Any) -> ipaddress.IPv4Address | ipaddress.IPv6Address:
    return ipaddress.ip_address(_expect(msg, "net.IP"))


def _is_ip(s: str) -> bool:
    try:
        _parse_addr(s)
    except CelFunctionError:
        return False
    return True


def _ip_is_canonical(s: str) -> bool:
    return str(_parse_addr(s)) == s


def _family(msg: Any) -> int:
    return _addr_of(msg).version


def _is_unspecified(msg: Any) -> bool:
    return int(_addr_of(msg)) == 0


def _is_loopback(msg: Any) -> bool:
    a = _addr_of(msg)
    return (a.version == 4 and int(a) >> 24 == 127) or (a.version == 6 and int(a) == 1)


def _is_multicast(a: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    return (a.version == 4 and int(a) >> 28 == 0xE) or (a.version == 6 and int(a) >> 120 == 0xFF)


def _is_ll_unicast(a: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    return (a.version == 4 and int(a) >> 16 == 0xA9FE) or (a.version == 6 and int(a) >> 118 == 0x3FA)


def _is_link_local_multicast(msg: Any) -> bool:
    a = _addr_of(msg)
    if a.version == 4:
        return int(a) >> 8 == 0xE00000
    return (int(a) >> 112) & 0xFF0F == 0xFF02


def _is_link_local_unicast(msg: Any) -> bool:
    return _is_ll_unicast(_addr_of(msg))


def _is_global_unicast(msg: Any) -> bool:
    """netip ``Addr.IsGlobalUnicast``: private and ULA addresses count as global."""
    a = _addr_of(msg)
    if a.version == 4 and int(a) in (0, 0xFFFFFFFF):
        return False
    return int(a) != 0 and not _is_loopback(msg) and not _is_multicast(a) and not _is_ll_unicast(a)


def _ip_string(msg: Any) -> str:
    return _expect(msg, "net.IP")


_BITS_RE = re.compile(r"0|[1-9][0-9]{0,2}")


def _parse_prefix(raw: str) -> tuple[ipaddress.IPv4Address | ipaddress.IPv6Address, int]:
    """Upstream ``parseCIDR``: netip.ParsePrefix without IPv4-mapped IPv6."""
    err = f"network address parse error during conversion from string: netip.ParsePrefix({_q(raw)})"
    addr_s, slash, bits_s = raw.rpartition("/")
    if not slash:
        raise CelFunctionError(f"{err}: no '/'")
    if "%" in addr_s:
        raise CelFunctionError(f"{err}: IPv6 zones cannot be present in a prefix")
    try:
        addr = ipaddress.ip_address(addr_s)
    except ValueError:
        raise CelFunctionError(f"{err}: ParseAddr({_q(addr_s)}): unable to parse IP") from None
    if _BITS_RE.fullmatch(bits_s) is None or int(bits_s) > (32 if addr.version == 4 else 128):
        raise CelFunctionError(f"{err}: bad bits after slash: {_q(bits_s)}")
    if isinstance(addr, ipaddress.IPv6Address) and addr.ipv4_mapped is not None:
        raise CelFunctionError(f"IPv4-mapped IPv6 address {_q(raw)} is not allowed")
    return addr, int(bits_s)


def _cidr(s: str) -> Any:
    try:
        addr, bits = _parse_prefix(s)
    except CelFunctionError as exc:
        raise CelFunctionError(f"network address parse error during conversion from string: {exc}") from None
    return _make("net.CIDR", f"{addr}/{bits}")


def _prefix_of(msg: Any) -> tuple[ipaddress.IPv4Address | ipaddress.IPv6Address, int]:
    addr_s, _, bits = _expect(msg, "net.CIDR").rpartition("/")
    return ipaddress.ip_address(addr_s), int(bits)


def _masked_int(addr: ipaddress.IPv4Address | ipaddress.IPv6Address, bits: int) -> int:
    width = 32 if addr.version == 4 else 128
    return int(addr) >> (width - bits) << (width - bits) if bits else 0


def _is_cidr(s: str) -> bool:
    try:
        _parse_prefix(s)
    except CelFunctionError:
        return False
    return True


def _contains_ip(cidr: Any, ip: Any) -> bool:
    addr, bits = _prefix_of(cidr)
    other = _parse_addr(ip) if isinstance(ip, str) else _addr_of(ip)
    if other.version != addr.version:
        return False
    return _masked_int(other, bits) == _masked_int(addr, bits)


def _contains_cidr(cidr: Any, other: Any) -> bool:
    addr, bits = _prefix_of(cidr)
    if isinstance(other, str):
        o_addr, o_bits = _parse_prefix(other)
    else:
        o_addr, o_bits = _prefix_of(other)
    if o_addr.version != addr.version:
        return False
    return _masked_int(addr, bits) == _masked_int(o_addr, bits) and bits <= o_bits


def _cidr_ip(cidr: Any) -> Any:
    return _make("net.IP", str(_prefix_of(cidr)[0]))


def _prefix_length(cidr: Any) -> int:
    return _prefix_of(cidr)[1]


def _masked(cidr: Any) -> Any:
    addr, bits = _prefix_of(cidr)
    net = ipaddress.ip_address(_masked_int(addr, bits)) if addr.version == 4 else ipaddress.IPv6Address(
        _masked_int(addr, bits)
    )
    return _make("net.CIDR", f"{net}/{bits}")


def _cidr_string(cidr: Any) -> str:
    return _expect(cidr, "net.CIDR")


def _net_string(value: Any) -> str:
    """``string(<IP>)`` / ``string(<CIDR>)``."""
    return _cidr_string(value) if _type_of(value) == "net.CIDR" else _ip_string(value)


# --- urls.go (net/url) ------------------------------------------------------------------

_PATH_SAFE = "$&+,/:;=@-._~"
_VALID_ENCODED = re.compile(r"(?:[A-Za-z0-9\-._~!$&'()*+,;=:@\[\]/]|%[0-9A-Fa-f]{2})*")


def _split_url(s: str) -> tuple[str, str, str, str]:
    """Go ``url.Parse`` pieces: (scheme, host, raw path, raw query)."""
    rest = s.split("#", 1)[0]
    scheme = ""
    m = re.match(r"([A-Za-z][A-Za-z0-9+.\-]*):", rest)
    if m:
        scheme, rest = m.group(1), rest[m.end():]
    rest, _, query = rest.partition("?")
    host = ""
    if rest.startswith("//") and (scheme or True):
        authority, slash, path = rest[2:].partition("/")
        rest = slash + path
        host = authority.rpartition("@")[2]
    return scheme, host, rest, query


def _url(s: str) -> Any:
    if not formats.parse_request_uri(s):
        raise CelFunctionError(
            f"URL parse error during conversion from string: parse {_q(s)}: invalid URI for request"
        )
    return _make("kubernetes.URL", s)


def _is_url(s: str) -> bool:
    return formats.parse_request_uri(s)


def _url_parts(msg: Any) -> tuple[str, str, str, str]:
    return _split_url(_expect(msg, "kubernetes.URL"))


def _get_scheme(msg: Any) -> str:
    return _url_parts(msg)[0]


def _get_host(msg: Any) -> str:
    return _url_parts(msg)[1]


def _split_host_port(host: str) -> tuple[str, str]:
    hostname, port = host, ""
    colon = host.rfind(":")
    if colon >= 0 and all(c.isdigit() for c in host[colon + 1 :]):
        hostname, port = host[:colon], host[colon + 1 :]
    if hostname.startswith("[") and hostname.endswith("]"):
        hostname = hostname[1:-1]
    return hostname, port


def _get_hostname(msg: Any) -> str:
    return _split_host_port(_url_parts(msg)[1])[0]


def _get_port(msg: Any) -> str:
    return _split_host_port(_url_parts(msg)[1])[1]


def _get_escaped_path(msg: Any) -> str:
    raw = _url_parts(msg)[2]
    if _VALID_ENCODED.fullmatch(raw):
        return raw
    return urllib.parse.quote(urllib.parse.unquote(raw), safe=_PATH_SAFE)


def _get_query(msg: Any) -> dict[str, list[str]]:
    query = _url_parts(msg)[3]
    out: dict[str, list[str]] = {}
    for part in query.split("&"):
        if not part or ";" in part:
            continue
        key, _, value = part.partition("=")
        try:
            k = urllib.parse.unquote_plus(key, errors="strict")
            v = urllib.parse.unquote_plus(value, errors="strict")
        except UnicodeDecodeError:
            continue
        out.setdefault(k, []).append(v)
    return out


# --- semverlib.go (blang/semver v4) ---------------------------------------------------------

_SEMVER_ALNUM = re.compile(r"[0-9A-Za-z-]+")


def _parse_semver(s: str) -> tuple[int, int, int, tuple[str, ...]]:
    """blang ``semver.Parse``: (major, minor, patch, prerelease identifiers)."""
    if not s:
        raise CelFunctionError("Version string empty")
    parts = s.split(".", 2)
    if len(parts) != 3:
        raise CelFunctionError("No Major.Minor.Patch elements found")
    nums: list[int] = []
    for label, part in (("Major", parts[0]), ("Minor", parts[1])):
        if not part.isdigit() or not part.isascii():
            raise CelFunctionError(f"Invalid character(s) found in {label.lower()} number {_q(part)}")
        if len(part) > 1 and part[0] == "0":
            raise CelFunctionError(f"{label} number must not contain leading zeroes {_q(part)}")
        nums.append(int(part))
    patch_str = parts[2]
    build = ""
    if "+" in patch_str:
        patch_str, build = patch_str.split("+", 1)
    pre = ""
    if "-" in patch_str:
        patch_str, pre = patch_str.split("-", 1)
    if not patch_str.isdigit() or not patch_str.isascii():
        raise CelFunctionError(f"Invalid character(s) found in patch number {_q(patch_str)}")
    if len(patch_str) > 1 and patch_str[0] == "0":
        raise CelFunctionError(f"Patch number must not contain leading zeroes {_q(patch_str)}")
    nums.append(int(patch_str))
    pre_ids: tuple[str, ...] = ()
    if pre or s.split("+", 1)[0].endswith("-"):
        pre_ids = tuple(pre.split("."))
        for p in pre_ids:
            if not p:
                raise CelFunctionError("Prerelease is empty")
            if not _SEMVER_ALNUM.fullmatch(p):
                raise CelFunctionError(f"Invalid character(s) found in prerelease {_q(p)}")
            if p.isdigit() and len(p) > 1 and p[0] == "0":
                raise CelFunctionError(f"Numeric PreRelease version must not contain leading zeroes {_q(p)}")
    if build or s.endswith("+"):
        for b in build.split("."):
            if not b:
                raise CelFunctionError("Build meta data is empty")
            if not _SEMVER_ALNUM.fullmatch(b):
                raise CelFunctionError(f"Invalid character(s) found in build meta data {_q(b)}")
    for n in nums:
        if n >= 1 << 64:
            raise CelFunctionError("value out of range")
    return nums[0], nums[1], nums[2], pre_ids


def _normalize_semver(s: str) -> str:
    """Upstream ``normalizeAndParse`` before the parse."""
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
            raise CelFunctionError("short version cannot contain PreRelease/Build meta data")
        parts += ["0"] * (3 - len(parts))
    return ".".join(parts)


def _semver_canonical(v: tuple[int, int, int, tuple[str, ...]]) -> str:
    base = f"{v[0]}.{v[1]}.{v[2]}"
    return base + ("-" + ".".join(v[3]) if v[3] else "")


def _semver(s: str, normalize: bool = False) -> Any:
    text = _normalize_semver(s) if normalize else s
    return _make("kubernetes.Semver", _semver_canonical(_parse_semver(text)))


def _is_semver(s: str, normalize: bool = False) -> bool:
    try:
        _semver(s, normalize)
    except CelFunctionError:
        return False
    return True


def _semver_of(msg: Any) -> tuple[int, int, int, tuple[str, ...]]:
    return _parse_semver(_expect(msg, "kubernetes.Semver"))


def _semver_cmp(a: Any, b: Any) -> int:
    x, y = _semver_of(a), _semver_of(b)
    if x[:3] != y[:3]:
        return -1 if x[:3] < y[:3] else 1
    if not x[3] or not y[3]:
        return (len(x[3]) == 0) - (len(y[3]) == 0)
    for p, q in zip(x[3], y[3]):
        if p == q:
            continue
        pd, qd = p.isdigit(), q.isdigit()
        if pd and qd:
            return -1 if int(p) < int(q) else 1
        if pd != qd:
            return -1 if pd else 1
        return -1 if p < q else 1
    return (len(x[3]) > len(y[3])) - (len(x[3]) < len(y[3]))


def _compare(a: Any, b: Any) -> int:
    """``compareTo`` of Quantity or Semver (both operands of the same type)."""
    if _type_of(a) == "kubernetes.Semver":
        return _semver_cmp(a, b)
    return _q_cmp(a, b)


# --- format.go ----------------------------------------------------------------------------


def _uri_problems(s: str) -> list[str]:
    if formats.parse_request_uri(s):
        return []
    return [f"parse {_q(s)}: invalid URI for request"]


def _strfmt(fmt: str, message: str) -> Callable[[str], list[str]]:
    return lambda s: [] if formats.validate_format(fmt, s) else [message]


_NAMED_FORMATS: dict[str, Callable[[str], list[str]]] = {
    "dns1123Label": lambda s: vu.name_is_dns_label(s, False),
    "dns1123Subdomain": lambda s: vu.name_is_dns_subdomain(s, False),
    "dns1035Label": lambda s: vu.name_is_dns1035_label(s, False),
    "qualifiedName": vu.is_qualified_name,
    "dns1123LabelPrefix": lambda s: vu.name_is_dns_label(s, True),
    "dns1123SubdomainPrefix": lambda s: vu.name_is_dns_subdomain(s, True),
    "dns1035LabelPrefix": lambda s: vu.name_is_dns1035_label(s, True),
    "labelValue": vu.is_valid_label_value,
    "uri": _uri_problems,
    "uuid": _strfmt("uuid", "does not match the UUID format"),
    "byte": _strfmt("byte", "invalid base64"),
    "date": _strfmt("date", "invalid date"),
    "datetime": _strfmt("datetime", "invalid datetime"),
}


def _format_named_list(name: str) -> list[Any]:
    """``format.named``'s optional as a list: ``[Format]`` or ``[]``."""
    return [_make("kubernetes.NamedFormat", name)] if name in _NAMED_FORMATS else []


def _format_validate_list(fmt: Any, s: str) -> list[list[str]]:
    """``<Format>.validate``'s optional as a list: ``[problems]`` or ``[]`` when valid."""
    problems = _NAMED_FORMATS[_expect(fmt, "kubernetes.NamedFormat")](s)
    return [list(problems)] if problems else []


# --- registration -------------------------------------------------------------------------


def _guard(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Turn any Python failure into a CelFunctionError so cel-cpp reports a CEL error."""

    @functools.wraps(fn)
    def wrapper(*args: Any) -> Any:
        try:
            return fn(*args)
        except CelFunctionError:
            raise
        except (ValueError, TypeError, KeyError, IndexError, OverflowError, decimal.DecimalException) as exc:
            raise CelFunctionError(str(exc) or "no such overload") from None

    return wrapper


@functools.lru_cache(maxsize=1)
def k8s_extensions() -> tuple[Any, ...]:
    """The ``cel.CelExtension`` objects for the Kubernetes libraries (cel-cpp overloads merge per name)."""
    from cel_expr_python import cel

    T = cel.Type
    dyn, s, b, i, d = T.DYN, T.STRING, T.BOOL, T.INT, T.DOUBLE
    lst = T.List(T.DYN)
    Q, U, SV, F = T("kubernetes.Quantity"), T("kubernetes.URL"), T("kubernetes.Semver"), T("kubernetes.NamedFormat")
    IP, CIDR = T("net.IP"), T("net.CIDR")

    def fn(name: str, *overloads: tuple[str, Any, list[Any], bool, Callable[..., Any]]) -> Any:
        return cel.FunctionDecl(
            name,
            [
                cel.Overload(oid, ret, params, is_member=member, impl=_guard(impl))
                for oid, ret, params, member, impl in overloads
            ],
        )

    lists = cel.CelExtension(
        "kubernetes.lists",
        [
            fn("isSorted", ("list_is_sorted_bool", b, [lst], True, _is_sorted)),
            fn("sum", ("list_sum", dyn, [lst], True, _sum)),
            fn("min", ("list_min", dyn, [lst], True, _min_max("min", min))),
            fn("max", ("list_max", dyn, [lst], True, _min_max("max", max))),
            fn("indexOf", ("list_a_index_of_int", i, [lst, dyn], True, _index_of)),
            fn("lastIndexOf", ("list_a_last_index_of_int", i, [lst, dyn], True, _last_index_of)),
            fn("includes", ("list_includes_dyn_dyn", b, [dyn, dyn], True, _includes)),
        ],
    )
    sets = cel.CelExtension(
        "sets",
        [
            fn("sets.contains", ("list_sets_contains_list", b, [lst, lst], False, _sets_contains)),
            fn("sets.equivalent", ("list_sets_equivalent_list", b, [lst, lst], False, _sets_equivalent)),
            fn("sets.intersects", ("list_sets_intersects_list", b, [lst, lst], False, _sets_intersects)),
        ],
    )
    regex = cel.CelExtension(
        "kubernetes.regex",
        [
            fn("find", ("string_find_string", s, [s, s], True, _find)),
            fn(
                "findAll",
                ("string_find_all_string", T.List(s), [s, s], True, _find_all),
                ("string_find_all_string_int", T.List(s), [s, s, i], True, _find_all),
            ),
        ],
    )
    urls = cel.CelExtension(
        "kubernetes.urls",
        [
            fn("url", ("string_to_url", U, [s], False, _url)),
            fn("isURL", ("is_url_string", b, [s], False, _is_url)),
            fn("getScheme", ("url_get_scheme", s, [U], True, _get_scheme)),
            fn("getHost", ("url_get_host", s, [U], True, _get_host)),
            fn("getHostname", ("url_get_hostname", s, [U], True, _get_hostname)),
            fn("getPort", ("url_get_port", s, [U], True, _get_port)),
            fn("getEscapedPath", ("url_get_escaped_path", s, [U], True, _get_escaped_path)),
            fn("getQuery", ("url_get_query", T.Map(s, T.List(s)), [U], True, _get_query)),
        ],
    )
    quantity = cel.CelExtension(
        "kubernetes.quantity",
        [
            fn("quantity", ("string_to_quantity", Q, [s], False, _quantity)),
            fn("isQuantity", ("is_quantity_string", b, [s], False, _is_quantity)),
            # upstream declares sign as a global overload (cel.Overload), not a member one
            fn("sign", ("quantity_sign", i, [Q], False, _q_sign)),
            fn("asInteger", ("quantity_get_int", i, [Q], True, _q_as_integer)),
            fn("isInteger", ("quantity_is_integer", b, [Q], True, _q_is_integer)),
            fn("asApproximateFloat", ("quantity_get_float", d, [Q], True, _q_float)),
            fn("add", ("quantity_add", Q, [Q, Q], True, _q_add), ("quantity_add_int", Q, [Q, i], True, _q_add)),
            fn("sub", ("quantity_sub", Q, [Q, Q], True, _q_sub), ("quantity_sub_int", Q, [Q, i], True, _q_sub)),
            fn("mul", ("quantity_multiply_int", Q, [Q, i], True, _q_mul)),
            # cel-cpp's runtime keys overloads by argument kind, and every opaque type is a
            # message: one dyn overload per name dispatches on the message type instead.
            fn("isGreaterThan", ("k8s_is_greater_than", b, [dyn, dyn], True, lambda x, y: _compare(x, y) == 1)),
            fn("isLessThan", ("k8s_is_less_than", b, [dyn, dyn], True, lambda x, y: _compare(x, y) == -1)),
            fn("compareTo", ("k8s_compare_to", i, [dyn, dyn], True, _compare)),
        ],
    )
    semver = cel.CelExtension(
        "kubernetes.Semver",
        [
            fn(
                "semver",
                ("string_to_semver", SV, [s], False, _semver),
                ("string_bool_to_semver", SV, [s, b], False, _semver),
            ),
            fn(
                "isSemver",
                ("is_semver_string", b, [s], False, _is_semver),
                ("is_semver_string_bool", b, [s, b], False, _is_semver),
            ),
            fn("major", ("semver_major", i, [SV], True, lambda v: _semver_of(v)[0])),
            fn("minor", ("semver_minor", i, [SV], True, lambda v: _semver_of(v)[1])),
            fn("patch", ("semver_patch", i, [SV], True, lambda v: _semver_of(v)[2])),
        ],
    )
    ip = cel.CelExtension(
        "kubernetes.net.ip",
        [
            fn("ip", ("string_to_ip", IP, [s], False, _ip), ("cidr_ip", IP, [CIDR], True, _cidr_ip)),
            fn("isIP", ("is_ip", b, [s], False, _is_ip)),
            fn("ip.isCanonical", ("ip_is_canonical", b, [s], False, _ip_is_canonical)),
            fn("family", ("ip_family", i, [IP], True, _family)),
            fn("isUnspecified", ("ip_is_unspecified", b, [IP], True, _is_unspecified)),
            fn("isLoopback", ("ip_is_loopback", b, [IP], True, _is_loopback)),
            fn("isLinkLocalMulticast", ("ip_is_link_local_multicast", b, [IP], True, _is_link_local_multicast)),
            fn("isLinkLocalUnicast", ("ip_is_link_local_unicast", b, [IP], True, _is_link_local_unicast)),
            fn("isGlobalUnicast", ("ip_is_global_unicast", b, [IP], True, _is_global_unicast)),
            # string(<CIDR>) cannot be declared too: cel-cpp keys runtime overloads by
            # argument kind and both types are messages (a second overload collides).
            fn("string", ("ip_to_string", s, [IP], False, _net_string)),
            fn("cidr", ("string_to_cidr", CIDR, [s], False, _cidr)),
            fn("isCIDR", ("is_cidr", b, [s], False, _is_cidr)),
            fn(
                "containsIP",
                ("cidr_contains_ip_string", b, [CIDR, s], True, _contains_ip),
                ("cidr_contains_ip_ip", b, [CIDR, IP], True, _contains_ip),
            ),
            fn(
                "containsCIDR",
                ("cidr_contains_cidr_string", b, [CIDR, s], True, _contains_cidr),
                ("cidr_contains_cidr", b, [CIDR, CIDR], True, _contains_cidr),
            ),
            fn("prefixLength", ("cidr_prefix_length", i, [CIDR], True, _prefix_length)),
            fn("masked", ("cidr_masked", CIDR, [CIDR], True, _masked)),
        ],
    )
    named = [
        fn(f"format.{name}", (f"format.{name}", F, [], False, (lambda n=name: _make("kubernetes.NamedFormat", n))))
        for name in _NAMED_FORMATS
    ]
    fmt = cel.CelExtension(
        "format",
        [
            *named,
            fn("__k8s_format_named", ("format_named_list", T.List(F), [s], False, _format_named_list)),
            fn(
                "__k8s_format_validate",
                ("format_validate_list", T.List(T.List(s)), [F, s], True, _format_validate_list),
            ),
        ],
    )
    return (lists, sets, regex, urls, quantity, semver, ip, fmt)


# --- source rewriting for optional-returning functions --------------------------------------------

_IDENT_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")


def _string_end(src: str, i: int) -> int:
    """Index just past the string literal starting at ``i`` (prefix letters included), or -1."""
    j = i
    raw = False
    while j < len(src) and src[j] in "rRbB":
        raw = raw or src[j] in "rR"
        j += 1
    if j >= len(src) or src[j] not in "'\"":
        return -1
    quote = src[j]
    triple = src.startswith(quote * 3, j)
    delim = quote * 3 if triple else quote
    k = j + len(delim)
    while k < len(src):
        if not raw and src[k] == "\\":
            k += 2
            continue
        if src.startswith(delim, k):
            return k + len(delim)
        if not triple and src[k] == "\n":
            return len(src)
        k += 1
    return len(src)


def _matching_paren(src: str, open_idx: int) -> int:
    depth = 0
    i = open_idx
    while i < len(src):
        c = src[i]
        if c in "'\"" or (c in "rRbB" and (i == 0 or src[i - 1] not in _IDENT_CHARS)):
            end = _string_end(src, i)
            if end > 0:
                i = end
                continue
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return -1


_REWRITES = (
    (re.compile(r"(?<![A-Za-z0-9_.])format\s*\.\s*named\s*\("), "__k8s_format_named("),
    (re.compile(r"\.\s*validate\s*\("), ".__k8s_format_validate("),
)


def rewrite_expression(src: str) -> str:
    """Rewrite calls returning ``optional`` into list helpers followed by ``[?0]``.

    ``format.named(n)`` becomes ``__k8s_format_named(n)[?0]`` and
    ``F.validate(s)`` becomes ``F.__k8s_format_validate(s)[?0]``; string
    literals are left alone. Returns ``src`` unchanged when neither occurs.
    """
    if "named" not in src and "validate" not in src:
        return src
    out: list[str] = []
    i = 0
    while i < len(src):
        c = src[i]
        if c in "'\"" or (c in "rRbB" and (i == 0 or src[i - 1] not in _IDENT_CHARS)):
            end = _string_end(src, i)
            if end > 0:
                out.append(src[i:end])
                i = end
                continue
        for rx, repl in _REWRITES:
            m = rx.match(src, i)
            if m is None:
                continue
            close = _matching_paren(src, m.end() - 1)
            if close < 0:
                continue
            inner = rewrite_expression(src[m.end() : close])
            out.append(f"{repl}{inner})[?0]")
            i = close + 1
            break
        else:
            out.append(c)
            i += 1
    return "".join(out)


def iter_names() -> Iterable[str]:
    """Every function name the Kubernetes extensions declare (for documentation and tests)."""
    yield from (
        "isSorted sum min max indexOf lastIndexOf includes sets.contains sets.equivalent sets.intersects find "
        "findAll url isURL getScheme getHost getHostname getPort getEscapedPath getQuery quantity isQuantity "
        "sign asInteger isInteger asApproximateFloat add sub mul isGreaterThan isLessThan compareTo semver "
        "isSemver major minor patch ip isIP ip.isCanonical family isUnspecified isLoopback "
        "isLinkLocalMulticast isLinkLocalUnicast isGlobalUnicast string cidr isCIDR containsIP containsCIDR "
        "prefixLength masked format.named validate".split()
    )
    yield from (f"format.{n}" for n in _NAMED_FORMATS)
