"""The Go 1.26 standard-library behaviour that Kubernetes CEL functions expose, ported by hand.

* ``net/url`` (``url.go``): :func:`url_parse` (``Parse``, ``ParseRequestURI``)
  into a :class:`GoURL` with ``String``, ``EscapedPath``, ``Hostname``,
  ``Port`` and ``Query`` (``ParseQuery``), with Go's error texts
  (``parse "x": invalid URI for request``, ``invalid port ":x" after host``,
  ``invalid URL escape "%zz"`` ...);
* ``net/netip`` (``netip.go``): :func:`parse_addr` (``ParseAddr``) and
  :func:`parse_prefix` (``ParsePrefix``) with their error texts, and the
  ``Addr``/``Prefix`` predicates and ``String`` forms;
* ``regexp``: :func:`find_all` (``FindAllString``'s rule that an empty match
  right after a previous match is skipped).

Go strings are byte strings; here they are Python ``str`` encoded as UTF-8
where byte positions matter.
"""

from __future__ import annotations

import functools
import ipaddress
import re
from dataclasses import dataclass, field
from typing import Any

__all__ = ["GoURL", "URLError", "find_all", "parse_addr", "parse_prefix", "url_parse"]


def go_quote(s: str) -> str:
    from crdtool.core.errors import go_quote as q

    return q(s)


# --- net/url --------------------------------------------------------------------------------------

ENCODE_PATH, ENCODE_PATH_SEGMENT, ENCODE_HOST, ENCODE_ZONE, ENCODE_USER_PASSWORD, ENCODE_QUERY_COMPONENT, \
    ENCODE_FRAGMENT = (1 << i for i in range(7))


def _should_escape_gen(c: int, mode: int) -> bool:
    """``gen_encoding_table.go shouldEscape`` (the rule the encoding table is generated from)."""
    ch = chr(c)
    if "a" <= ch <= "z" or "A" <= ch <= "Z" or "0" <= ch <= "9":
        return False
    if mode in (ENCODE_HOST, ENCODE_ZONE) and ch in "!$&'()*+,;=:[]<>\"":
        return False
    if ch in "-_.~":
        return False
    if ch in "$&+,/:;=?@":
        if mode == ENCODE_PATH:
            return ch == "?"
        if mode == ENCODE_PATH_SEGMENT:
            return ch in "/;,?"
        if mode == ENCODE_USER_PASSWORD:
            return ch in "@/?:"
        if mode == ENCODE_QUERY_COMPONENT:
            return True
        if mode == ENCODE_FRAGMENT:
            return False
    if mode == ENCODE_FRAGMENT and ch in "!()*":
        return False
    return True


_ESCAPE_TABLE: list[int] = []
for _c in range(256):
    _bits = 0
    for _m in (ENCODE_PATH, ENCODE_PATH_SEGMENT, ENCODE_HOST, ENCODE_ZONE, ENCODE_USER_PASSWORD,
               ENCODE_QUERY_COMPONENT, ENCODE_FRAGMENT):
        if not _should_escape_gen(_c, _m):
            _bits |= _m
    _ESCAPE_TABLE.append(_bits)


def _should_escape(c: int, mode: int) -> bool:
    return _ESCAPE_TABLE[c] & mode == 0


def _ishex(c: int) -> bool:
    return 48 <= c <= 57 or 97 <= c <= 102 or 65 <= c <= 70


def _unhex(c: int) -> int:
    return 9 * (c >> 6) + (c & 15)


class URLError(Exception):
    """A ``net/url`` error; ``str()`` is Go's ``Error()``."""


def _unescape(s: bytes, mode: int) -> bytes:
    """``unescape``; raises URLError."""
    n = 0
    has_plus = False
    i = 0
    while i < len(s):
        c = s[i]
        if c == 0x25:  # %
            n += 1
            if i + 2 >= len(s) or not _ishex(s[i + 1]) or not _ishex(s[i + 2]):
                rest = s[i:][:3]
                raise URLError("invalid URL escape " + go_quote(rest.decode("utf-8", "surrogateescape")))
            if mode == ENCODE_HOST and _unhex(s[i + 1]) < 8 and s[i:i + 3] != b"%25":
                raise URLError("invalid URL escape " + go_quote(s[i:i + 3].decode("utf-8", "surrogateescape")))
            if mode == ENCODE_ZONE:
                v = _unhex(s[i + 1]) << 4 | _unhex(s[i + 2])
                if s[i:i + 3] != b"%25" and v != 0x20 and _should_escape(v, ENCODE_HOST):
                    raise URLError("invalid URL escape " + go_quote(s[i:i + 3].decode("utf-8", "surrogateescape")))
            i += 3
        elif c == 0x2B:  # +
            has_plus = mode == ENCODE_QUERY_COMPONENT
            i += 1
        else:
            if mode in (ENCODE_HOST, ENCODE_ZONE) and c < 0x80 and _should_escape(c, mode):
                raise URLError("invalid character " + go_quote(chr(c)) + " in host name")
            i += 1
    if n == 0 and not has_plus:
        return s
    plus = b" " if mode == ENCODE_QUERY_COMPONENT else b"+"
    out = bytearray()
    i = 0
    while i < len(s):
        c = s[i]
        if c == 0x25:
            out.append(_unhex(s[i + 1]) << 4 | _unhex(s[i + 2]))
            i += 3
            continue
        if c == 0x2B:
            out += plus
        else:
            out.append(c)
        i += 1
    return bytes(out)


def _escape(s: bytes, mode: int) -> bytes:
    out = bytearray()
    for c in s:
        if c == 0x20 and mode == ENCODE_QUERY_COMPONENT:
            out.append(0x2B)
        elif _should_escape(c, mode):
            out += b"%" + b"0123456789ABCDEF"[c >> 4:(c >> 4) + 1] + b"0123456789ABCDEF"[c & 15:(c & 15) + 1]
        else:
            out.append(c)
    return bytes(out)


def _valid_encoded(s: bytes, mode: int) -> bool:
    for c in s:
        if chr(c) in "!$&'()*+,;=:@[]%":
            continue
        if _should_escape(c, mode):
            return False
    return True


def _valid_optional_port(port: bytes) -> bool:
    if not port:
        return True
    if port[0:1] != b":":
        return False
    return all(48 <= c <= 57 for c in port[1:])


@dataclass
class GoURL:
    """``url.URL`` (fields as Go byte strings)."""

    scheme: bytes = b""
    opaque: bytes = b""
    user: tuple[bytes, bytes | None] | None = None
    host: bytes = b""
    path: bytes = b""
    raw_path: bytes = b""
    omit_host: bool = False
    force_query: bool = False
    raw_query: bytes = b""
    fragment: bytes = b""
    raw_fragment: bytes = b""

    def escaped_path(self) -> bytes:
        """``EscapedPath``."""
        if self.raw_path and _valid_encoded(self.raw_path, ENCODE_PATH):
            try:
                p = _unescape(self.raw_path, ENCODE_PATH)
            except URLError:
                p = None
            if p == self.path:
                return self.raw_path
        if self.path == b"*":
            return b"*"
        return _escape(self.path, ENCODE_PATH)

    def escaped_fragment(self) -> bytes:
        if self.raw_fragment and _valid_encoded(self.raw_fragment, ENCODE_FRAGMENT):
            try:
                f = _unescape(self.raw_fragment, ENCODE_FRAGMENT)
            except URLError:
                f = None
            if f == self.fragment:
                return self.raw_fragment
        return _escape(self.fragment, ENCODE_FRAGMENT)

    def string(self) -> bytes:
        """``String``."""
        buf = bytearray()
        if self.scheme:
            buf += self.scheme + b":"
        if self.opaque:
            buf += self.opaque
        else:
            if self.scheme or self.host or self.user is not None:
                if not (self.omit_host and not self.host and self.user is None):
                    if self.host or self.path or self.user is not None:
                        buf += b"//"
                    if self.user is not None:
                        buf += _userinfo_string(self.user) + b"@"
                    if self.host:
                        buf += _escape(self.host, ENCODE_HOST)
            path = self.escaped_path()
            if path and path[0:1] != b"/" and self.host:
                buf += b"/"
            if not buf:
                segment = path.split(b"/", 1)[0]
                if b":" in segment:
                    buf += b"./"
            buf += path
        if self.force_query or self.raw_query:
            buf += b"?" + self.raw_query
        if self.fragment:
            buf += b"#" + self.escaped_fragment()
        return bytes(buf)

    def hostname(self) -> bytes:
        return _split_host_port(self.host)[0]

    def port(self) -> bytes:
        return _split_host_port(self.host)[1]

    def query(self) -> dict[bytes, list[bytes]]:
        """``Query``: ``ParseQuery(RawQuery)`` ignoring its error."""
        m: dict[bytes, list[bytes]] = {}
        _parse_query(m, self.raw_query)
        return m


def _userinfo_string(u: tuple[bytes, bytes | None]) -> bytes:
    s = _escape(u[0], ENCODE_USER_PASSWORD)
    if u[1] is not None:
        s += b":" + _escape(u[1], ENCODE_USER_PASSWORD)
    return s


def _split_host_port(host_port: bytes) -> tuple[bytes, bytes]:
    host, port = host_port, b""
    colon = host.rfind(b":")
    if colon != -1 and _valid_optional_port(host[colon:]):
        host, port = host[:colon], host[colon + 1:]
    if host.startswith(b"[") and host.endswith(b"]"):
        host = host[1:-1]
    return host, port


def _parse_query(m: dict[bytes, list[bytes]], query: bytes) -> None:
    if query.count(b"&") + 1 > 10000:
        return
    while query:
        key, _, query = query.partition(b"&")
        if b";" in key:
            continue
        if not key:
            continue
        key, _, value = key.partition(b"=")
        try:
            k = _unescape(key, ENCODE_QUERY_COMPONENT)
            v = _unescape(value, ENCODE_QUERY_COMPONENT)
        except URLError:
            continue
        m.setdefault(k, []).append(v)


def _get_scheme(raw: bytes) -> tuple[bytes, bytes]:
    for i, c in enumerate(raw):
        ch = chr(c)
        if "a" <= ch <= "z" or "A" <= ch <= "Z":
            continue
        if "0" <= ch <= "9" or ch in "+-.":
            if i == 0:
                return b"", raw
            continue
        if ch == ":":
            if i == 0:
                raise URLError("missing protocol scheme")
            return raw[:i], raw[i + 1:]
        return b"", raw
    return b"", raw


def _valid_userinfo(s: bytes) -> bool:
    for ch in s.decode("utf-8", "replace"):
        if "A" <= ch <= "Z" or "a" <= ch <= "z" or "0" <= ch <= "9":
            continue
        if ch in "-._:~!$&'()*+,;=%@":
            continue
        return False
    return True


def _parse_host(scheme: bytes, host: bytes) -> bytes:
    open_idx = host.rfind(b"[")
    if open_idx > 0:
        raise URLError("invalid IP-literal")
    if open_idx == 0:
        close_idx = host.rfind(b"]")
        if close_idx < 0:
            raise URLError("missing ']' in host")
        colon_port = host[close_idx + 1:]
        if not _valid_optional_port(colon_port):
            raise URLError(f"invalid port {go_quote(colon_port.decode('utf-8', 'surrogateescape'))} after host")
        unescaped_port = _unescape(colon_port, ENCODE_HOST)
        hostname = host[open_idx + 1:close_idx]
        zone_idx = hostname.find(b"%25")
        if zone_idx >= 0:
            unescaped_host = _unescape(hostname[:zone_idx], ENCODE_HOST) + _unescape(hostname[zone_idx:], ENCODE_ZONE)
        else:
            unescaped_host = _unescape(hostname, ENCODE_HOST)
        addr = parse_addr(unescaped_host.decode("utf-8", "surrogateescape"))
        if isinstance(addr, str):
            raise URLError("invalid host: " + addr)
        if addr.version == 4:
            raise URLError("invalid IP-literal")
        return b"[" + unescaped_host + b"]" + unescaped_port
    i = host.find(b":")
    if i != -1:
        last = host.rfind(b":")
        if last != i and scheme not in (b"http", b"https"):
            i = last
        colon_port = host[i:]
        if not _valid_optional_port(colon_port):
            raise URLError(f"invalid port {go_quote(colon_port.decode('utf-8', 'surrogateescape'))} after host")
    return _unescape(host, ENCODE_HOST)


def _parse(raw: bytes, via_request: bool) -> GoURL:
    if any(c < 0x20 or c == 0x7F for c in raw):
        raise URLError("net/url: invalid control character in URL")
    if not raw and via_request:
        raise URLError("empty url")
    u = GoURL()
    if raw == b"*":
        u.path = b"*"
        return u
    scheme, rest = _get_scheme(raw)
    u.scheme = scheme.lower()
    if rest.endswith(b"?") and rest.count(b"?") == 1:
        u.force_query = True
        rest = rest[:-1]
    else:
        rest, _, u.raw_query = rest.partition(b"?")
    if not rest.startswith(b"/"):
        if u.scheme:
            u.opaque = rest
            return u
        if via_request:
            raise URLError("invalid URI for request")
        segment = rest.split(b"/", 1)[0]
        if b":" in segment:
            raise URLError("first path segment in URL cannot contain colon")
    if (u.scheme or (not via_request and not rest.startswith(b"///"))) and rest.startswith(b"//"):
        authority, rest = rest[2:], b""
        j = authority.find(b"/")
        if j >= 0:
            authority, rest = authority[:j], authority[j:]
        at = authority.rfind(b"@")
        u.host = _parse_host(u.scheme, authority if at < 0 else authority[at + 1:])
        if at >= 0:
            userinfo = authority[:at]
            if not _valid_userinfo(userinfo):
                raise URLError("net/url: invalid userinfo")
            if b":" not in userinfo:
                u.user = (_unescape(userinfo, ENCODE_USER_PASSWORD), None)
            else:
                name, _, pw = userinfo.partition(b":")
                u.user = (_unescape(name, ENCODE_USER_PASSWORD), _unescape(pw, ENCODE_USER_PASSWORD))
    elif u.scheme and rest.startswith(b"/"):
        u.omit_host = True
    path = _unescape(rest, ENCODE_PATH)
    u.path = path
    u.raw_path = b"" if _escape(path, ENCODE_PATH) == rest else rest
    return u


def url_parse(raw: str, via_request: bool) -> GoURL | str:
    """``url.Parse`` (``via_request`` False) or ``url.ParseRequestURI``: the URL, or Go's error text."""
    b = raw.encode("utf-8", "surrogateescape")
    if via_request:
        try:
            return _parse(b, True)
        except URLError as exc:
            return f"parse {go_quote(raw)}: {exc}"
    u_part, _, frag = b.partition(b"#")
    try:
        u = _parse(u_part, False)
    except URLError as exc:
        return f"parse {go_quote(u_part.decode('utf-8', 'surrogateescape'))}: {exc}"
    if not frag:
        return u
    try:
        f = _unescape(frag, ENCODE_FRAGMENT)
    except URLError as exc:
        return f"parse {go_quote(raw)}: {exc}"
    u.fragment = f
    u.raw_fragment = b"" if _escape(f, ENCODE_FRAGMENT) == frag else frag
    return u


# --- net/netip ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Addr:
    """``netip.Addr``: version (4 or 6), the address as an int, and the IPv6 zone."""

    version: int
    value: int
    zone: str = ""

    def is4in6(self) -> bool:
        return self.version == 6 and (self.value >> 32) == 0xFFFF

    def bit_len(self) -> int:
        return 32 if self.version == 4 else 128

    def string(self) -> str:
        """``Addr.String``."""
        if self.version == 4:
            return str(ipaddress.IPv4Address(self.value))
        if self.is4in6():
            s = "::ffff:" + str(ipaddress.IPv4Address(self.value & 0xFFFFFFFF))
        else:
            s = str(ipaddress.IPv6Address(self.value))
        return s + ("%" + self.zone if self.zone else "")

    def unmap(self) -> Addr:
        if self.is4in6():
            return Addr(4, self.value & 0xFFFFFFFF)
        return self

    def is_loopback(self) -> bool:
        a = self.unmap()
        if a.version == 4:
            return a.value >> 24 == 127
        return a.value == 1

    def is_multicast(self) -> bool:
        a = self.unmap()
        if a.version == 4:
            return (a.value >> 24) & 0xF0 == 0xE0
        return a.value >> 120 == 0xFF

    def is_link_local_unicast(self) -> bool:
        a = self.unmap()
        if a.version == 4:
            return a.value >> 16 == 0xA9FE
        return (a.value >> 112) & 0xFFC0 == 0xFE80

    def is_link_local_multicast(self) -> bool:
        a = self.unmap()
        if a.version == 4:
            return a.value >> 8 == 0xE00000
        return (a.value >> 112) & 0xFF0F == 0xFF02

    def is_unspecified(self) -> bool:
        return self.value == 0 and not self.zone

    def is_global_unicast(self) -> bool:
        a = self.unmap()
        if a.version == 4 and a.value in (0, 0xFFFFFFFF):
            return False
        if a.version == 6 and a.value == 0 and not a.zone:
            return False
        return not a.is_loopback() and not a.is_multicast() and not a.is_link_local_unicast()


def _addr_error(s: str, msg: str, at: str = "") -> str:
    if at:
        return f"ParseAddr({go_quote(s)}): {msg} (at {go_quote(at)})"
    return f"ParseAddr({go_quote(s)}): {msg}"


def _parse_ipv4_fields(inp: str, off: int, end: int) -> list[int] | str:
    fields = [0, 0, 0, 0]
    val = pos = dig_len = 0
    s = inp[off:end]
    for i, ch in enumerate(s):
        if "0" <= ch <= "9":
            if dig_len == 1 and val == 0:
                return _addr_error(inp, "IPv4 field has octet with leading zero")
            val = val * 10 + ord(ch) - 48
            dig_len += 1
            if val > 255:
                return _addr_error(inp, "IPv4 field has value >255")
        elif ch == ".":
            if i == 0 or i == len(s) - 1 or s[i - 1] == ".":
                return _addr_error(inp, "IPv4 field must have at least one digit", s[i:])
            if pos == 3:
                return _addr_error(inp, "IPv4 address too long")
            fields[pos] = val
            pos += 1
            val = dig_len = 0
        else:
            return _addr_error(inp, "unexpected character", s[i:])
    if pos < 3:
        return _addr_error(inp, "IPv4 address too short")
    fields[3] = val
    return fields


def _parse_ipv6(inp: str) -> Addr | str:  # noqa: C901 - mirrors parseIPv6
    s = inp
    zone = ""
    i = s.find("%")
    if i != -1:
        s, zone = s[:i], s[i + 1:]
        if zone == "":
            return _addr_error(inp, "zone must be a non-empty string")
    ip = [0] * 16
    ellipsis = -1
    if len(s) >= 2 and s[0] == ":" and s[1] == ":":
        ellipsis = 0
        s = s[2:]
        if not s:
            return Addr(6, 0, zone)
    i = 0
    while i < 16:
        off = 0
        acc = 0
        while off < len(s):
            c = s[off]
            if "0" <= c <= "9":
                acc = (acc << 4) + ord(c) - 48
            elif "a" <= c <= "f":
                acc = (acc << 4) + ord(c) - 97 + 10
            elif "A" <= c <= "F":
                acc = (acc << 4) + ord(c) - 65 + 10
            else:
                break
            if off > 3:
                return _addr_error(inp, "each group must have 4 or less digits", s)
            if acc > 0xFFFF:
                return _addr_error(inp, "IPv6 field has value >=2^16", s)
            off += 1
        if off == 0:
            return _addr_error(inp, "each colon-separated field must have at least one digit", s)
        if off < len(s) and s[off] == ".":
            if ellipsis < 0 and i != 12:
                return _addr_error(inp, "embedded IPv4 address must replace the final 2 fields of the address", s)
            if i + 4 > 16:
                return _addr_error(inp, "too many hex fields to fit an embedded IPv4 at the end of the address", s)
            end = len(inp)
            if zone:
                end -= len(zone) + 1
            f = _parse_ipv4_fields(inp, end - len(s), end)
            if isinstance(f, str):
                return f
            ip[i:i + 4] = f
            s = ""
            i += 4
            break
        ip[i] = acc >> 8
        ip[i + 1] = acc & 0xFF
        i += 2
        s = s[off:]
        if not s:
            break
        if s[0] != ":":
            return _addr_error(inp, "unexpected character, want colon", s)
        if len(s) == 1:
            return _addr_error(inp, "colon must be followed by more characters", s)
        s = s[1:]
        if s[0] == ":":
            if ellipsis >= 0:
                return _addr_error(inp, "multiple :: in address", s)
            ellipsis = i
            s = s[1:]
            if not s:
                break
    if s:
        return _addr_error(inp, "trailing garbage after address", s)
    if i < 16:
        if ellipsis < 0:
            return _addr_error(inp, "address string too short")
        n = 16 - i
        for j in range(i - 1, ellipsis - 1, -1):
            ip[j + n] = ip[j]
        for j in range(ellipsis, ellipsis + n):
            ip[j] = 0
    elif ellipsis >= 0:
        return _addr_error(inp, "the :: must expand to at least one field of zeros")
    return Addr(6, int.from_bytes(bytes(ip), "big"), zone)


def parse_addr(s: str) -> Addr | str:
    """``netip.ParseAddr``: the address, or Go's error text."""
    for ch in s:
        if ch == ".":
            f = _parse_ipv4_fields(s, 0, len(s))
            if isinstance(f, str):
                return f
            return Addr(4, int.from_bytes(bytes(f), "big"))
        if ch == ":":
            return _parse_ipv6(s)
        if ch == "%":
            return _addr_error(s, "missing IPv6 address")
    return _addr_error(s, "unable to parse IP")


@dataclass(frozen=True)
class Prefix:
    """``netip.Prefix``: an address (not masked) and a prefix length."""

    addr: Addr
    bits: int

    def string(self) -> str:
        return f"{self.addr.string()}/{self.bits}"

    def masked(self) -> Prefix:
        width = self.addr.bit_len()
        v = (self.addr.value >> (width - self.bits) << (width - self.bits)) if self.bits else 0
        return Prefix(Addr(self.addr.version, v), self.bits)

    def contains(self, ip: Addr) -> bool:
        if ip.zone:
            return False
        if ip.bit_len() != self.addr.bit_len():
            return False
        width = ip.bit_len()
        shift = width - self.bits
        return (ip.value ^ self.addr.value) >> shift == 0 if self.bits else True

    def overlaps(self, o: Prefix) -> bool:
        if self == o:
            return True
        if (self.addr.version == 4) != (o.addr.version == 4):
            return False
        min_bits = min(self.bits, o.bits)
        if min_bits == 0:
            return True
        return Prefix(self.addr, min_bits).masked().addr == Prefix(o.addr, min_bits).masked().addr


def parse_prefix(s: str) -> Prefix | str:
    """``netip.ParsePrefix``: the prefix, or Go's error text."""
    def err(msg: str) -> str:
        return f"netip.ParsePrefix({go_quote(s)}): {msg}"

    i = s.rfind("/")
    if i < 0:
        return err("no '/'")
    ip = parse_addr(s[:i])
    if isinstance(ip, str):
        return err(ip)
    if ip.version == 6 and ip.zone:
        return err("IPv6 zones cannot be present in a prefix")
    bits_s = s[i + 1:]
    if len(bits_s) > 1 and not ("1" <= bits_s[0] <= "9"):
        return err("bad bits after slash: " + go_quote(bits_s))
    body = bits_s[1:] if bits_s[:1] in ("+", "-") else bits_s
    if not body or not all("0" <= c <= "9" for c in body):
        return err("bad bits after slash: " + go_quote(bits_s))
    bits = int(bits_s)
    max_bits = 32 if ip.version == 4 else 128
    if bits < 0 or bits > max_bits:
        return err("prefix length out of range")
    return Prefix(ip, bits)


# --- regexp ------------------------------------------------------------------------------------------


def find_all(rx: Any, s: str, n: int) -> list[str]:
    """Go ``Regexp.FindAllString(s, n)`` (``n`` < 0: all) with a compiled RE2 pattern."""
    if n < 0:
        n = len(s) + 1
    out: list[str] = []
    pos = 0
    prev_end = -1
    end = len(s)
    while len(out) < n and pos <= end:
        m = rx.search(s, pos)
        if m is None:
            break
        accept = True
        if m.end() == pos:
            if m.start() == prev_end:
                accept = False
            pos += 1 if pos < end else 1
        else:
            pos = m.end()
        prev_end = m.end()
        if accept:
            out.append(m.group(0))
    return out


field  # keep the dataclasses import used


# --- Go regexp syntax (``regexp.Compile``, for ``pattern`` and CEL) ----------------------------------------

try:  # RE2 is the engine Go's regexp syntax follows; Python's re is a fallback.
    import re2 as _re2

    _RE2_OPTIONS: Any = _re2.Options()
    _RE2_OPTIONS.log_errors = False
except ImportError:  # pragma: no cover - depends on the environment
    _re2 = None
    _RE2_OPTIONS = None


# C++ RE2 error code text -> Go regexp/syntax ErrorCode text.
_RE2_TO_GO = {
    "missing ]": "missing closing ]",
    "missing )": "missing closing )",
    "unexpected )": "unexpected )",
    "trailing \\": "trailing backslash at end of expression",
    "no argument for repetition operator": "missing argument to repetition operator",
    "invalid repetition size": "invalid repeat count",
    "bad repetition operator": "invalid nested repetition operator",
    "invalid perl operator": "invalid or unsupported Perl syntax",
    "invalid named capture group": "invalid named capture",
    "invalid escape sequence": "invalid escape sequence",
    "invalid character class": "invalid character class",
    "invalid character class range": "invalid character class range",
    "invalid UTF-8": "invalid UTF-8",
    "missing argument to repetition operator": "missing argument to repetition operator",
    "bad named capture group": "invalid named capture",
    "pattern too large - compile failed": "expression too large",
    "pattern too large - reverse compile failed": "expression too large",
    "expression nests too deeply": "expression nests too deeply",
}


_CAPTURE_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")


def _go_only_rejects(pattern: str) -> tuple[int, str] | None:
    """Where Go's ``regexp/syntax`` rejects what C++ RE2 accepts or words differently: ``(position, Go error)``.

    The ``\\C`` escape, and named captures as ``parsePerlFlags`` reads them:
    ``(?<`` always starts a name (RE2 reads ``(?<=`` as a lookbehind), a
    missing ``>`` reports the rest of the pattern, and a name must be
    ``[A-Za-z0-9_]+`` (``isValidCaptureName`` is ASCII-only; RE2 allows
    Unicode word characters). Character classes and ``\\Q...\\E`` literals
    are skipped. None when there is nothing of the kind.
    """
    i, n = 0, len(pattern)
    while i < n:
        c = pattern[i]
        if c == "\\" and i + 1 < n:
            nxt = pattern[i + 1]
            if nxt == "Q":
                end = pattern.find("\\E", i + 2)
                i = n if end < 0 else end + 2
                continue
            if nxt == "C":
                return i, "invalid escape sequence: `\\C`"
            i += 2
            continue
        if c == "[":
            i = _skip_class(pattern, i)
            continue
        if c == "(" and pattern.startswith("(?", i):
            t = pattern[i:]
            starts_with_p = len(t) > 4 and t[2:4] == "P<"
            if starts_with_p or (len(t) > 3 and t[2] == "<"):
                # parsePerlFlags: (?P<name> or (?<name> (RE2 reads (?<= as a lookbehind instead)
                end = t.find(">")
                if end < 0:
                    return i, f"invalid named capture: `{t}`"
                name = t[4 if starts_with_p else 3 : end]
                if not name or not set(name) <= _CAPTURE_NAME_CHARS:
                    return i, f"invalid named capture: `{t[: end + 1]}`"
        i += 1
    return None


def _skip_class(pattern: str, i: int) -> int:
    """The index after the character class opening at ``i`` (the end of the pattern if unclosed)."""
    n = len(pattern)
    j = i + 1
    if j < n and pattern[j] == "^":
        j += 1
    first = True
    while j < n:
        c = pattern[j]
        if c == "]" and not first:
            return j + 1
        first = False
        if c == "\\":
            j += 2
            continue
        if c == "[" and pattern.startswith("[:", j):
            close = pattern.find(":]", j + 2)
            if close >= 0:
                j = close + 2
                continue
        j += 1
    return n


@functools.lru_cache(maxsize=8192)
def go_regexp_error(pattern: str) -> str | None:
    """Go's ``regexp.Compile(pattern)`` error text, or ``None`` if it compiles.

    The text has Go's shape: ``error parsing regexp: missing closing ]: `[a```.
    Checked with RE2 (``google-re2``), the engine Go's syntax follows, with the
    error codes renamed to Go's; without it, Python's ``re`` approximates.
    Cached by pattern.
    """
    go_only = _go_only_rejects(pattern)
    if go_only is not None:
        # Go stops at the first error: one RE2 also finds before this point wins (unless it is only the
        # parenthesis the cut leaves open)
        earlier = _re2_error(pattern[: go_only[0]])
        if earlier is not None and "missing closing )" not in earlier:
            return earlier
        return f"error parsing regexp: {go_only[1]}"
    return _re2_error(pattern)


def _re2_error(pattern: str) -> str | None:
    """RE2's verdict on ``pattern`` in Go's words (None: it compiles)."""
    if _re2 is not None:
        try:
            _re2.compile(pattern, _RE2_OPTIONS)
            return None
        except Exception as e:  # re2.error; its arg is bytes "code: fragment"
            raw = e.args[0] if e.args else b""
            text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else str(raw)
            code, sep, arg = text.partition(": ")
            if code == "trailing \\":
                return "error parsing regexp: trailing backslash at end of expression: ``"
            go_code = _RE2_TO_GO.get(code)
            if go_code is None or not sep:
                return f"error parsing regexp: {text}"
            return f"error parsing regexp: {go_code}: `{arg}`"
    try:  # pragma: no cover - fallback
        re.compile(pattern)
        return None
    except re.error as e:  # pragma: no cover
        return f"error parsing regexp: {e}"


# --- fmt.Sprintf(format) with no arguments ----------------------------------------------------------


def _parse_num(b: bytes, i: int, end: int) -> tuple[int, bool, int]:
    """``fmt.parsenum``: (number, present, new index)."""
    if i >= end or not (48 <= b[i] <= 57):
        return 0, False, i
    num = 0
    while i < end and 48 <= b[i] <= 57:
        if num > 1_000_000:  # tooLarge: the value is then unusable, parsing still advances
            return 0, False, end
        num = num * 10 + b[i] - 48
        i += 1
    return num, True, i


def _arg_number(b: bytes, i: int) -> tuple[int, bool, bool]:
    """``pp.argNumber`` with no operands: (new index, found an index, the index is good)."""
    if i >= len(b) or b[i] != ord("["):
        return i, False, True
    # parseArgNumber on b[i:]
    rest = b[i:]
    if len(rest) < 3:
        return i + 1, False, False
    for k in range(1, len(rest)):
        if rest[k] == ord("]"):
            _, ok, newk = _parse_num(rest, 1, k)
            if not ok or newk != k:
                return i + k + 1, False, False
            # a valid index, but there are no operands: goodArgNum = false
            return i + k + 1, True, False
    return i + 1, False, False


def sprintf_no_args(fmt: str) -> str:
    """Go ``fmt.Sprintf(fmt)`` with no operands (``pp.doPrintf``): ``%%`` -> ``%``; a verb -> ``%!v(MISSING)``,
    ``%!v(BADINDEX)`` after an argument index; ``*`` widths/precisions -> ``%!(BADWIDTH)``/``%!(BADPREC)``; a
    ``%`` at the end -> ``%!(NOVERB)``. What cel-go's ``types.NewErr(err.Error())`` and ``ReportErrorAtID(id, l,
    msg)`` do to a message containing ``%``."""
    b = fmt.encode("utf-8", "surrogatepass")
    end = len(b)
    out = bytearray()
    i = 0
    while i < end:
        j = b.find(b"%", i)
        if j < 0:
            out += b[i:]
            break
        out += b[i:j]
        i = j + 1
        good = True
        while i < end and b[i] in b"#0+- ":
            i += 1
        i, after_index, ok = _arg_number(b, i)
        good = good and ok
        if i < end and b[i] == ord("*"):
            i += 1
            out += b"%!(BADWIDTH)"
            after_index = False
        else:
            _, present, i = _parse_num(b, i, end)
            if after_index and present:
                good = False
        if i + 1 < end and b[i] == ord("."):
            i += 1
            if after_index:
                good = False
            i, after_index, ok = _arg_number(b, i)
            good = good and ok
            if i < end and b[i] == ord("*"):
                i += 1
                out += b"%!(BADPREC)"
                after_index = False
            else:
                _, _, i = _parse_num(b, i, end)
        if not after_index:
            i, after_index, ok = _arg_number(b, i)
            good = good and ok
        if i >= end:
            out += b"%!(NOVERB)"
            break
        # the verb: one UTF-8 encoded rune
        k = i + 1
        if b[i] >= 0x80:
            while k < end and (b[k] & 0xC0) == 0x80 and k - i < 4:
                k += 1
        verb = b[i:k]
        i = k
        if verb == b"%":
            out += b"%"
        elif not good:
            out += b"%!" + verb + b"(BADINDEX)"
        else:
            out += b"%!" + verb + b"(MISSING)"
    return out.decode("utf-8", errors="replace")
