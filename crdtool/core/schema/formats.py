"""OpenAPI string formats as the apiserver checks them in custom resources.

Mirrors two upstream pieces:

* ``k8s.io/apiextensions-apiserver/pkg/apiserver/validation/formats.go``
  (``supportedVersionedFormats``, ``StripUnsupportedFormatsPostProcessorForVersion``):
  which ``format`` values a CRD schema may use. Anything else is *ignored*
  (set to ``""`` before validation), never an error. The rules are those of
  the Kubernetes release asked for (:func:`effective_format`): the 1.34
  additions ``k8s-short-name`` and ``k8s-long-name`` count from a
  compatibility version of 1.34 (Kubernetes 1.35), the type-aware stripping
  from Kubernetes 1.36.
* ``k8s.io/kube-openapi/pkg/validation/strfmt`` (``default.go``,
  ``duration.go``, ``time.go``, ``bson.go``, ``quantity.go``,
  ``kubernetes-extensions.go``) and the Go standard library functions they
  call (``net.ParseIP``, ``k8s.io/utils/net.ParseIPSloppy``/``ParseCIDRSloppy``,
  ``net.ParseMAC``, ``net/url.ParseRequestURI``, ``net/mail.ParseAddress``,
  ``time.Parse``, ``time.ParseDuration``, ``resource.ParseQuantity``) and the
  forked ``govalidator`` checks (ISBN, credit card, SSN, colours, base64).

Everything here is a pure predicate ``str -> bool``; nothing raises.

Known approximations (documented, deliberately small):

* ``email``: RFC 2047 encoded words in display names are treated as plain
  atoms (Go rejects encoded words with an unknown charset).
* ``uri``: the classic ``net/url`` host rule (``LastIndex(":")`` for the
  port); newer Go releases may reject some hosts with several colons.
* ``hostname``: ``\\p{L}``/``\\p{S}`` come from Python's ``unicodedata``, whose
  Unicode version can differ slightly from Go's tables.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Callable

from crdtool.core.gotime import go_parse_duration
from crdtool.core.releases import DEFAULT_RELEASE, RELEASES, Release

_DIGITS = frozenset("0123456789")

__all__ = [
    "SUPPORTED_STRING_FORMATS",
    "effective_format",
    "is_known_format",
    "validate_format",
    "normalize_format_name",
]

#: formats.go ``supportedVersionedFormats``: (compatibility minor that introduced them, names normalized as
#: go-openapi's ``DefaultNameNormalizer`` does: every "-" dropped). ``quantity`` is not a CRD format in any
#: release (formats.go@v0.30.0 … v0.37.0-beta.0; kube-openapi's ``strfmt.Default`` registers none).
VERSIONED_STRING_FORMATS: tuple[tuple[int, frozenset[str]], ...] = (
    (0, frozenset({
        "bsonobjectid", "uri", "email", "hostname", "ipv4", "ipv6", "cidr", "mac",
        "uuid", "uuid3", "uuid4", "uuid5", "isbn", "isbn10", "isbn13", "creditcard",
        "ssn", "hexcolor", "rgbcolor", "byte", "password", "date", "duration",
        "datetime",
    })),
    # formats.go@v0.34.0: introducedVersion 1.34, i.e. validated by binaries whose compatibility version
    # (binary - 1) is 1.34: Kubernetes 1.35 on
    (34, frozenset({"k8sshortname", "k8slongname"})),
)
#: The string formats of the newest compatibility version.
SUPPORTED_STRING_FORMATS: frozenset[str] = frozenset().union(*(names for _, names in VERSIONED_STRING_FORMATS))
#: formats.go@v0.36.0 ``StripUnsupportedFormatsPostProcessorForVersion`` looks at the type: numeric formats
#: kept on numbers, string formats only on strings (and untyped nodes); before, only string formats were kept,
#: on any type.
TYPE_AWARE_FORMATS_SINCE = 36


def supported_string_formats(release: Release | None = None) -> frozenset[str]:
    """The normalized string formats Kubernetes ``release`` validates (None: the default release).

    ``supportedFormatsAtVersion(environment.DefaultCompatibilityVersion())``: the release's compatibility
    version is its minor minus one (1.30: 1.29).
    """
    compat = (release or DEFAULT_RELEASE).compatibility_minor
    known = _SUPPORTED_AT.get(compat)
    return known if known is not None else _formats_at(compat)


def _formats_at(compat: int) -> frozenset[str]:
    return frozenset().union(*(names for since, names in VERSIONED_STRING_FORMATS if compat >= since))


# each release's set, computed once
_SUPPORTED_AT: dict[int, frozenset[str]] = {r.compatibility_minor: _formats_at(r.compatibility_minor) for r in RELEASES.values()}


def normalize_format_name(name: str) -> str:
    """go-openapi ``strfmt.DefaultNameNormalizer``: drop every dash."""
    return name.replace("-", "")


def effective_format(types: tuple[str, ...], fmt: str, release: Release | None = None) -> str:
    """The ``format`` kube-openapi validates after upstream's stripping, in Kubernetes ``release``.

    Mirrors ``StripUnsupportedFormatsPostProcessorForVersion`` (formats.go):
    ``types`` is the converted ``spec.Schema.Type`` (``()``, ``("string",)``,
    or ``("integer", "string")`` for ``x-kubernetes-int-or-string``).
    Returns ``fmt`` unchanged when supported, else ``""`` (ignored). Before
    1.36 (``formats.go@v0.35.7``) only the release's string formats are kept,
    whatever the type. ``release`` None is the default release.
    """
    if not fmt:
        return ""
    supported = supported_string_formats(release)
    if (release or DEFAULT_RELEASE).minor < TYPE_AWARE_FORMATS_SINCE:
        return fmt if normalize_format_name(fmt) in supported else ""
    schema_type = types[0] if len(types) == 1 else ""
    if schema_type in ("", "string"):
        return fmt if normalize_format_name(fmt) in supported else ""
    if schema_type == "integer":
        return fmt if fmt in ("int32", "int64") else ""
    if schema_type == "number":
        return fmt if fmt in ("float", "double") else ""
    return ""


def is_known_format(fmt: str) -> bool:
    """``strfmt.Default.ContainsName``: is there a string validator for ``fmt``?"""
    return normalize_format_name(fmt) in _VALIDATORS


def validate_format(fmt: str, value: str) -> bool:
    """``strfmt.Default.Validates(fmt, value)``; unknown formats give False."""
    check = _VALIDATORS.get(normalize_format_name(fmt))
    if check is None:
        return False
    try:
        return bool(check(value))
    except (ValueError, IndexError, OverflowError):  # hostile input never raises
        return False


# --- small helpers -----------------------------------------------------------

_HEX = frozenset("0123456789abcdefABCDEF")


def _is_hex(c: str) -> bool:
    return c in _HEX


# --- net.ParseIP (netip, strict) ------------------------------------------------


def _parse_ipv4_strict(s: str) -> bool:
    """``netip.parseIPv4``: four decimal octets, no leading zeros, <= 255."""
    if not s:
        return False
    val = 0
    pos = 0
    dig_len = 0
    n = len(s)
    for i, c in enumerate(s):
        if c in _DIGITS:
            if dig_len == 1 and val == 0:
                return False
            val = val * 10 + (ord(c) - 48)
            dig_len += 1
            if val > 255:
                return False
        elif c == ".":
            if i == 0 or i == n - 1 or s[i - 1] == ".":
                return False
            if pos == 3:
                return False
            pos += 1
            val = 0
            dig_len = 0
        else:
            return False
    return pos >= 3


def _parse_ipv6_strict(s: str) -> bool:
    """``netip.parseIPv6`` without zone (``net.ParseIP`` rejects zones)."""
    if "%" in s:
        return False
    ellipsis = -1
    if len(s) >= 2 and s[0] == ":" and s[1] == ":":
        ellipsis = 0
        s = s[2:]
        if not s:
            return True
    i = 0
    while i < 16:
        off = 0
        acc = 0
        while off < len(s) and _is_hex(s[off]):
            acc = (acc << 4) + int(s[off], 16)
            if off > 3 or acc > 0xFFFF:
                return False
            off += 1
        if off == 0:
            return False
        if off < len(s) and s[off] == ".":
            if ellipsis < 0 and i != 12:
                return False
            if i + 4 > 16:
                return False
            if not _parse_ipv4_strict(s):
                return False
            s = ""
            i += 4
            break
        i += 2
        s = s[off:]
        if not s:
            break
        if s[0] != ":" or len(s) == 1:
            return False
        s = s[1:]
        if s[0] == ":":
            if ellipsis >= 0:
                return False
            ellipsis = i
            s = s[1:]
            if not s:
                break
    if s:
        return False
    if i < 16:
        return ellipsis >= 0
    return ellipsis < 0


def parse_ip_strict(s: str) -> bool:
    """Go ``net.ParseIP(s) != nil`` (netip-based, Go >= 1.17 rules)."""
    for c in s:
        if c == ".":
            return _parse_ipv4_strict(s)
        if c == ":":
            return _parse_ipv6_strict(s)
        if c == "%":
            return False
    return False


# --- k8s.io/utils/net ParseIPSloppy / ParseCIDRSloppy (Go 1.16 rules) -------------

_BIG = 0xFFFFFF


def _dtoi(s: str) -> tuple[int, int, bool]:
    n = 0
    i = 0
    while i < len(s) and s[i] in _DIGITS:
        n = n * 10 + (ord(s[i]) - 48)
        if n >= _BIG:
            return _BIG, i, False
        i += 1
    if i == 0:
        return 0, 0, False
    return n, i, True


def _xtoi(s: str) -> tuple[int, int, bool]:
    n = 0
    i = 0
    while i < len(s) and _is_hex(s[i]):
        n = n * 16 + int(s[i], 16)
        if n >= _BIG:
            return 0, i, False
        i += 1
    if i == 0:
        return 0, i, False
    return n, i, True


def _sloppy_ipv4(s: str) -> bool:
    for i in range(4):
        if not s:
            return False
        if i > 0:
            if s[0] != ".":
                return False
            s = s[1:]
        n, c, ok = _dtoi(s)
        if not ok or n > 0xFF:
            return False
        s = s[c:]
    return not s


def _sloppy_ipv6(s: str) -> bool:
    ellipsis = -1
    if len(s) >= 2 and s[0] == ":" and s[1] == ":":
        ellipsis = 0
        s = s[2:]
        if not s:
            return True
    i = 0
    while i < 16:
        n, c, ok = _xtoi(s)
        if not ok or n > 0xFFFF:
            return False
        if c < len(s) and s[c] == ".":
            if ellipsis < 0 and i != 12:
                return False
            if i + 4 > 16:
                return False
            if not _sloppy_ipv4(s):
                return False
            s = ""
            i += 4
            break
        i += 2
        s = s[c:]
        if not s:
            break
        if s[0] != ":" or len(s) == 1:
            return False
        s = s[1:]
        if s[0] == ":":
            if ellipsis >= 0:
                return False
            ellipsis = i
            s = s[1:]
            if not s:
                break
    if s:
        return False
    if i < 16:
        return ellipsis >= 0
    return ellipsis < 0


def parse_ip_sloppy(s: str) -> bool:
    """``k8s.io/utils/net.ParseIPSloppy(s) != nil`` (leading zeros allowed)."""
    for c in s:
        if c == ".":
            return _sloppy_ipv4(s)
        if c == ":":
            return _sloppy_ipv6(s)
    return False


def parse_cidr_sloppy(s: str) -> bool:
    """``k8s.io/utils/net.ParseCIDRSloppy`` succeeds."""
    i = s.find("/")
    if i < 0:
        return False
    addr, mask = s[:i], s[i + 1 :]
    iplen = 4
    ok_ip = _sloppy_ipv4(addr)
    if not ok_ip:
        iplen = 16
        ok_ip = _sloppy_ipv6(addr)
    n, c, ok = _dtoi(mask)
    return ok_ip and ok and c == len(mask) and 0 <= n <= 8 * iplen


# --- net.ParseMAC ------------------------------------------------------------------


def _xtoi2(s: str, e: str) -> bool:
    if len(s) > 2 and s[2] != e:
        return False
    if len(s) < 2:
        return False
    return _is_hex(s[0]) and _is_hex(s[1])


def parse_mac(s: str) -> bool:
    """Go ``net.ParseMAC`` succeeds (EUI-48, EUI-64, 20-octet InfiniBand)."""
    if not s.isascii() or len(s) < 14:
        return False
    if s[2] in ":-":
        if (len(s) + 1) % 3 != 0:
            return False
        n = (len(s) + 1) // 3
        if n not in (6, 8, 20):
            return False
        x = 0
        for _ in range(n):
            if not _xtoi2(s[x:], s[2]):
                return False
            x += 3
        return True
    if s[4] == ".":
        if (len(s) + 1) % 5 != 0:
            return False
        n = 2 * (len(s) + 1) // 5
        if n not in (6, 8, 20):
            return False
        x = 0
        for _ in range(0, n, 2):
            if not _xtoi2(s[x : x + 2], "\x00"):
                return False
            if not _xtoi2(s[x + 2 :], s[4]):
                return False
            x += 5
        return True
    return False


# --- net/url.ParseRequestURI ---------------------------------------------------------

_HOST_OK = frozenset("!$&'()*+,;=:[]<>\"-_.~")
_USERINFO_OK = frozenset("-._:~!$&'()*+,;=%@")


def _unescape_ok(s: str, host: bool) -> bool:
    i = 0
    n = len(s)
    while i < n:
        c = s[i]
        if c == "%":
            if i + 2 >= n or not _is_hex(s[i + 1]) or not _is_hex(s[i + 2]):
                return False
            if host and int(s[i + 1], 16) < 8 and s[i : i + 3] != "%25":
                return False
            i += 3
            continue
        if host and ord(c) < 0x80 and not (c.isascii() and c.isalnum()) and c not in _HOST_OK:
            return False
        i += 1
    return True


def _valid_optional_port(port: str) -> bool:
    if port == "":
        return True
    if port[0] != ":":
        return False
    return all(c in _DIGITS for c in port[1:])


def _parse_host_ok(host: str) -> bool:
    if host.startswith("["):
        i = host.rfind("]")
        if i < 0:
            return False
        if not _valid_optional_port(host[i + 1 :]):
            return False
        zone = host[:i].find("%25")
        if zone >= 0:
            # encodeZone: %XX may only re-encode bytes valid in a host.
            return (
                _unescape_ok(host[:zone], True)
                and _zone_ok(host[zone:i])
                and _unescape_ok(host[i:], True)
            )
    else:
        i = host.rfind(":")
        if i != -1 and not _valid_optional_port(host[i:]):
            return False
    return _unescape_ok(host, True)


def _zone_ok(s: str) -> bool:
    i = 0
    n = len(s)
    while i < n:
        c = s[i]
        if c == "%":
            if i + 2 >= n or not _is_hex(s[i + 1]) or not _is_hex(s[i + 2]):
                return False
            v = chr(int(s[i + 1 : i + 3], 16))
            if s[i : i + 3] != "%25" and v != " " and not (v.isascii() and v.isalnum()) and v not in _HOST_OK:
                return False
            i += 3
            continue
        if ord(c) < 0x80 and not (c.isascii() and c.isalnum()) and c not in _HOST_OK:
            return False
        i += 1
    return True


def _get_scheme(raw: str) -> tuple[str, str, bool]:
    for i, c in enumerate(raw):
        if ("a" <= c <= "z") or ("A" <= c <= "Z"):
            continue
        if ("0" <= c <= "9") or c in "+-.":
            if i == 0:
                return "", raw, True
            continue
        if c == ":":
            if i == 0:
                return "", "", False
            return raw[:i], raw[i + 1 :], True
        return "", raw, True
    return "", raw, True


def parse_request_uri(raw: str) -> bool:
    """Go ``url.ParseRequestURI(raw)`` succeeds (govalidator ``IsRequestURI``)."""
    if any(ord(c) < 0x20 or ord(c) == 0x7F for c in raw):
        return False
    if raw == "":
        return False
    if raw == "*":
        return True
    scheme, rest, ok = _get_scheme(raw)
    if not ok:
        return False
    if rest.endswith("?") and rest.count("?") == 1:
        rest = rest[:-1]
    else:
        rest = rest.split("?", 1)[0]
    if not rest.startswith("/"):
        # rootless paths with a scheme are opaque; without one a request needs a path
        return scheme != ""
    if scheme != "" and rest.startswith("//"):
        authority = rest[2:]
        rest = ""
        i = authority.find("/")
        if i >= 0:
            authority, rest = authority[:i], authority[i:]
        at = authority.rfind("@")
        host = authority if at < 0 else authority[at + 1 :]
        if not _parse_host_ok(host):
            return False
        if at >= 0:
            userinfo = authority[:at]
            if not all((c.isascii() and c.isalnum()) or c in _USERINFO_OK for c in userinfo):
                return False
            if not _unescape_ok(userinfo, False):
                return False
    return _unescape_ok(rest, False)


# --- net/mail.ParseAddress -------------------------------------------------------------

_SPECIALS = frozenset('()<>[]:;@\\,"')


def _is_vchar(c: str) -> bool:
    o = ord(c)
    return 0x21 <= o <= 0x7E or o >= 0x80


def _is_atext(c: str, dot: bool) -> bool:
    if c == ".":
        return dot
    if c in _SPECIALS:
        return False
    return _is_vchar(c)


class _MailParser:
    """A port of Go's ``net/mail`` ``addrParser`` (validity only)."""

    __slots__ = ("s",)

    def __init__(self, s: str) -> None:
        self.s = s

    def skip_space(self) -> None:
        self.s = self.s.lstrip(" \t")

    def consume(self, c: str) -> bool:
        if self.s and self.s[0] == c:
            self.s = self.s[1:]
            return True
        return False

    def peek(self) -> str:
        return self.s[0] if self.s else ""

    def skip_cfws(self) -> bool:
        self.skip_space()
        while self.consume("("):
            if not self.consume_comment():
                return False
            self.skip_space()
        return True

    def consume_comment(self) -> bool:
        depth = 1
        while self.s and depth != 0:
            if self.s[0] == "\\" and len(self.s) > 1:
                self.s = self.s[1:]
            elif self.s[0] == "(":
                depth += 1
            elif self.s[0] == ")":
                depth -= 1
            self.s = self.s[1:]
        return depth == 0

    def consume_atom(self, dot: bool, permissive: bool) -> str | None:
        i = 0
        while i < len(self.s) and _is_atext(self.s[i], dot):
            i += 1
        if i == 0:
            return None
        atom, self.s = self.s[:i], self.s[i:]
        if not permissive and (atom.startswith(".") or ".." in atom or atom.endswith(".")):
            return None
        return atom

    def consume_quoted_string(self) -> str | None:
        i = 1
        out: list[str] = []
        escaped = False
        while True:
            if i >= len(self.s):
                return None
            r = self.s[i]
            if escaped:
                if not _is_vchar(r) and r not in " \t":
                    return None
                out.append(r)
                escaped = False
            elif (r not in '\\"' and _is_vchar(r)) or r in " \t":
                out.append(r)
            elif r == '"':
                break
            elif r == "\\":
                escaped = True
            else:
                return None
            i += 1
        self.s = self.s[i + 1 :]
        return "".join(out)

    def consume_domain_literal(self) -> str | None:
        if not self.consume("["):
            return None
        dtext = []
        while True:
            if not self.s:
                return None
            if self.s[0] == "]":
                break
            r = self.s[0]
            if r in "[]\\" or not _is_vchar(r):
                return None
            dtext.append(r)
            self.s = self.s[1:]
        if not self.consume("]"):
            return None
        text = "".join(dtext)
        if not parse_ip_strict(text):
            return None
        return "[" + text + "]"

    def consume_addr_spec(self) -> str | None:
        orig = self.s
        spec = self._addr_spec()
        if spec is None:
            self.s = orig
        return spec

    def _addr_spec(self) -> str | None:
        self.skip_space()
        if not self.s:
            return None
        if self.peek() == '"':
            local = self.consume_quoted_string()
            if not local:
                return None
        else:
            local = self.consume_atom(True, False)
            if local is None:
                return None
        if not self.consume("@"):
            return None
        self.skip_space()
        if not self.s:
            return None
        domain = self.consume_domain_literal() if self.peek() == "[" else self.consume_atom(True, False)
        if domain is None:
            return None
        return local + "@" + domain

    def consume_phrase(self) -> str | None:
        words: list[str] = []
        while True:
            if words and not self.skip_cfws():
                return None
            self.skip_space()
            if not self.s:
                break
            word = self.consume_quoted_string() if self.peek() == '"' else self.consume_atom(True, True)
            if word is None:
                break
            words.append(word)
        if not words:
            return None
        return " ".join(words)

    def parse_address(self, handle_group: bool) -> list[str] | None:
        self.skip_space()
        if not self.s:
            return None
        spec = self.consume_addr_spec()
        if spec is not None:
            self.skip_space()
            if self.s and self.peek() == "(":
                self.consume("(")
                if not self.consume_comment():
                    return None
            return [spec]
        # display-name (its text does not matter for validity)
        if self.peek() != "<" and self.consume_phrase() is None:
            return None
        self.skip_space()
        if handle_group and self.consume(":"):
            return self.consume_group_list()
        if not self.consume("<"):
            return None
        spec = self.consume_addr_spec()
        if spec is None or not self.consume(">"):
            return None
        return [spec]

    def consume_group_list(self) -> list[str] | None:
        group: list[str] = []
        self.skip_space()
        if self.consume(";"):
            return group if self.skip_cfws() else None
        while True:
            self.skip_space()
            addrs = self.parse_address(False)
            if addrs is None:
                return None
            group.extend(addrs)
            if not self.skip_cfws():
                return None
            if self.consume(";"):
                if not self.skip_cfws():
                    return None
                break
            if not self.consume(","):
                return None
        return group


def is_email(s: str) -> bool:
    """strfmt ``IsEmail``: ``mail.ParseAddress`` succeeds with a non-empty address."""
    p = _MailParser(s)
    addrs = p.parse_address(True)
    if addrs is None or not p.skip_cfws() or p.s:
        return False
    return len(addrs) == 1 and addrs[0] != ""


# --- hostname (strfmt IsHostname) ---------------------------------------------------------


def _host_char(c: str, dash: bool = False) -> bool:
    if c.isascii():
        return c.isalnum() or (dash and c == "-")
    cat = unicodedata.category(c)
    return cat[0] in "LS"


def _tld_char(c: str) -> bool:
    if c.isascii():
        return c.isalpha()
    return unicodedata.category(c)[0] == "L"


def _single_label(s: str) -> bool:
    # [C]((-?[C]{0,62})?)
    if not s or not _host_char(s[0]):
        return False
    rest = s[1:]
    if rest.startswith("-"):
        rest = rest[1:]
    return len(rest) <= 62 and all(_host_char(c) for c in rest)


def _dotted_label(p: str) -> bool:
    # [C](([C-]{0,61}[C])?)
    if not p or not _host_char(p[0]):
        return False
    if len(p) == 1:
        return True
    return len(p) <= 63 and _host_char(p[-1]) and all(_host_char(c, True) for c in p[1:-1])


def is_hostname(s: str) -> bool:
    """strfmt ``IsHostname`` (HostnamePattern plus the 255/63-octet limits)."""
    matched = _single_label(s)
    if not matched and "." in s:
        parts = s.split(".")
        tld = parts[-1]
        matched = (
            2 <= len(tld) <= 63
            and all(_tld_char(c) for c in tld)
            and all(_dotted_label(p) for p in parts[:-1])
        )
    if not matched:
        return False
    if len(s.encode("utf-8", "surrogatepass")) > 255:
        return False
    return all(len(p.encode("utf-8", "surrogatepass")) <= 63 for p in s.split("."))


# --- time.Parse("2006-01-02"), strfmt IsDateTime ----------------------------------------------

_DATE_RE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_DATETIME_RE = re.compile(r"([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))")
_DAYS = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


def is_date(s: str) -> bool:
    """strfmt ``IsDate``: Go ``time.Parse("2006-01-02", s)`` succeeds."""
    if not _DATE_RE.fullmatch(s):
        return False
    year, month, day = int(s[0:4]), int(s[5:7]), int(s[8:10])
    if not 1 <= month <= 12:
        return False
    dim = _DAYS[month - 1]
    if month == 2 and year % 4 == 0 and (year % 100 != 0 or year % 400 == 0):
        dim = 29
    return 1 <= day <= dim


def is_datetime(s: str) -> bool:
    """strfmt ``IsDateTime`` (split on ``t``, date plus an RFC 3339 time)."""
    if len(s.encode("utf-8", "surrogatepass")) < 4:
        return False
    parts = s.lower().split("t")
    if len(parts) < 2 or not is_date(parts[0]):
        return False
    m = _DATETIME_RE.fullmatch(parts[1])
    if m is None:
        return False
    return m.group(1) <= "23" and m.group(2) <= "59" and m.group(3) <= "59"


# --- durations --------------------------------------------------------------------------------



_DURATION_MATCHER = re.compile(r"(((?:-[\t\n\f\r ]?)?[0-9]+)[\t\n\f\r ]*([A-Za-z\u00b5]+))")
_TIME_UNITS = (
    ("ns", "nano"),
    ("us", "\u00b5s", "micro"),
    ("ms", "milli"),
    ("s", "sec"),
    ("m", "min"),
    ("h", "hr", "hour"),
    ("d", "day"),
    ("w", "wk", "week"),
)


def is_duration(s: str) -> bool:
    """strfmt ``IsDuration``: Go duration, or the Scala-like fallback syntax."""
    if go_parse_duration(s):
        return True
    ok = False
    for m in _DURATION_MATCHER.finditer(s):
        value = m.group(2)
        if value.startswith("-"):
            value = value[1:]
        digits = value.strip(" \t\n\r\v\f")
        # strconv.Atoi: int64 range
        if not digits or int(digits) > (1 << 63) - 1:
            return False
        unit = m.group(3).strip().lower()
        for variants in _TIME_UNITS:
            last = len(variants) - 1
            for i, variant in enumerate(variants):
                if (i == last and unit.startswith(variant)) or variant.lower() == unit:
                    ok = True
    return ok


# --- resource.ParseQuantity -------------------------------------------------------------------

_SUFFIX_CHARS = frozenset("eEinumkKMGTP")
_DEC_EXPONENTS = {"n": -9, "u": -6, "m": -3, "": 0, "k": 3, "M": 6, "G": 9, "T": 12, "P": 15, "E": 18}
_BIN_EXPONENTS = {"Ki": 10, "Mi": 20, "Gi": 30, "Ti": 40, "Pi": 50, "Ei": 60}
_MAX_INT64_FACTORS = 18


def _int32(v: int) -> int:
    return ((v + (1 << 31)) % (1 << 32)) - (1 << 31)


def _split_quantity(s: str) -> tuple[str, str, str, str] | None:
    """``parseQuantityString``: (value, num, denom, suffix) or None (``ErrFormatWrong``)."""
    pos = 0
    end = len(s)
    if pos < end and s[0] in "+-":
        pos += 1
    while pos < end and s[pos] == "0":
        pos += 1
    if pos >= end:
        return s, "0", "", ""
    start = pos
    while pos < end and s[pos] in _DIGITS:
        pos += 1
    num = s[start:pos] or "0"
    if pos >= end:
        return s, num, "", ""
    denom = ""
    if s[pos] == ".":
        pos += 1
        start = pos
        while pos < end and s[pos] in _DIGITS:
            pos += 1
        denom = s[start:pos]
        if pos >= end:
            return s, num, denom, ""
    value = s[:pos]
    suffix_start = pos
    while pos < end and s[pos] in _SUFFIX_CHARS:
        pos += 1
    if pos < end and s[pos] in "+-":
        pos += 1
    while pos < end:
        if s[pos] not in _DIGITS:
            return None
        pos += 1
    return value, num, denom, s[suffix_start:]


def is_quantity(s: str) -> bool:
    """``resource.ParseQuantity(s)`` succeeds (strfmt ``isQuantity``).

    Besides the syntax, ParseQuantity fails only when its slow path
    (``inf.Dec.SetString``) sees no digit at all, e.g. ``"+e-10"``.
    """
    if not s or not s.isascii():
        return False
    if s == "0":
        return True
    parts = _split_quantity(s)
    if parts is None:
        return False
    value, num, denom, suffix = parts
    if suffix in _DEC_EXPONENTS:
        exponent, binary = _DEC_EXPONENTS[suffix], False
    elif suffix in _BIN_EXPONENTS:
        exponent, binary = _BIN_EXPONENTS[suffix], True
    elif len(suffix) > 1 and suffix[0] in "eE":
        exp = suffix[1:]
        body = exp[1:] if exp[:1] in ("+", "-") else exp
        if not body or not all(c in _DIGITS for c in body):
            return False
        parsed = int(exp)
        if not -(1 << 63) <= parsed <= (1 << 63) - 1:
            return False
        exponent, binary = _int32(parsed), False
    else:
        return False
    if binary:
        scale = 0
        if exponent >= 0 and not denom:
            precision = 15 - len(num) - int(exponent * 3 / 10) - 1
        else:
            precision = -1
    else:
        scale = exponent
        precision = _MAX_INT64_FACTORS - (len(num) + len(denom))
    if precision >= 0 and _int32(scale - len(denom)) >= -9:
        return True
    return any(c in _DIGITS for c in value)


# --- govalidator and friends ---------------------------------------------------------------------

_BASE64_RE = re.compile(
    r"(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})"
)
_UUID_RE = re.compile(r"[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}")
_UUID3_RE = re.compile(r"[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?3[0-9a-fA-F]{3}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}")
_UUID4_RE = re.compile(
    r"[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?4[0-9a-fA-F]{3}-?[89abAB][0-9a-fA-F]{3}-?[0-9a-fA-F]{12}"
)
_UUID5_RE = re.compile(
    r"[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?5[0-9a-fA-F]{3}-?[89abAB][0-9a-fA-F]{3}-?[0-9a-fA-F]{12}"
)
_ISBN10_RE = re.compile(r"(?:[0-9]{9}X|[0-9]{10})")
_ISBN13_RE = re.compile(r"(?:[0-9]{13})")
_CREDIT_CARD_RE = re.compile(
    r"(?:4[0-9]{12}(?:[0-9]{3})?|5[1-5][0-9]{14}|6(?:011|5[0-9][0-9])[0-9]{12}"
    r"|3[47][0-9]{13}|3(?:0[0-5]|[68][0-9])[0-9]{11}|(?:2131|1800|35[0-9]{3})[0-9]{11})"
)
_SSN_RE = re.compile(r"[0-9]{3}[- ]?[0-9]{2}[- ]?[0-9]{4}")
_HEXCOLOR_RE = re.compile(r"#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})")
_OCTET = r"(0|[1-9][0-9]?|1[0-9][0-9]?|2[0-4][0-9]|25[0-5])"
_WS = r"[\t\n\f\r ]*"
_RGB_RE = re.compile(rf"rgb\({_WS}{_OCTET}{_WS},{_WS}{_OCTET}{_WS},{_WS}{_OCTET}{_WS}\)")
_WS_MINUS_RE = re.compile(r"[\t\n\f\r -]+")
_NOT_NUMBER_RE = re.compile(r"[^0-9]+")
_SHORT_NAME_RE = re.compile(r"[a-z0-9]([-a-z0-9]*[a-z0-9])?")
_LONG_NAME_RE = re.compile(r"[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*")


def is_isbn10(s: str) -> bool:
    """govalidator ``IsISBN10`` (checksum included)."""
    sanitized = _WS_MINUS_RE.sub("", s)
    if not _ISBN10_RE.fullmatch(sanitized):
        return False
    checksum = sum((i + 1) * int(sanitized[i]) for i in range(9))
    checksum += 100 if sanitized[9] == "X" else 10 * int(sanitized[9])
    return checksum % 11 == 0


def is_isbn13(s: str) -> bool:
    """govalidator ``IsISBN13`` (checksum included)."""
    sanitized = _WS_MINUS_RE.sub("", s)
    if not _ISBN13_RE.fullmatch(sanitized):
        return False
    checksum = sum((1, 3)[i % 2] * int(sanitized[i]) for i in range(12))
    return int(sanitized[12]) - ((10 - (checksum % 10)) % 10) == 0


def is_credit_card(s: str) -> bool:
    """govalidator ``IsCreditCard``: known issuer pattern plus Luhn checksum."""
    sanitized = _NOT_NUMBER_RE.sub("", s)
    if not _CREDIT_CARD_RE.fullmatch(sanitized):
        return False
    total = 0
    double = False
    for ch in reversed(sanitized):
        d = int(ch)
        if double:
            d *= 2
            total += (d % 10) + 1 if d >= 10 else d
        else:
            total += d
        double = not double
    return total % 10 == 0


def _is_ssn(s: str) -> bool:
    return len(s) == 11 and _SSN_RE.fullmatch(s) is not None


def _is_bson_object_id(s: str) -> bool:
    return len(s) == 24 and all(_is_hex(c) for c in s)


def _full(rx: re.Pattern[str]) -> Callable[[str], bool]:
    return lambda s: rx.fullmatch(s) is not None


_VALIDATORS: dict[str, Callable[[str], bool]] = {
    "uri": parse_request_uri,
    "email": is_email,
    "hostname": is_hostname,
    "ipv4": lambda s: parse_ip_sloppy(s) and "." in s,
    "ipv6": lambda s: parse_ip_strict(s) and ":" in s,
    "cidr": parse_cidr_sloppy,
    "mac": parse_mac,
    "uuid": _full(_UUID_RE),
    "uuid3": _full(_UUID3_RE),
    "uuid4": _full(_UUID4_RE),
    "uuid5": _full(_UUID5_RE),
    "isbn": lambda s: is_isbn10(s) or is_isbn13(s),
    "isbn10": is_isbn10,
    "isbn13": is_isbn13,
    "creditcard": is_credit_card,
    "ssn": _is_ssn,
    "hexcolor": _full(_HEXCOLOR_RE),
    "rgbcolor": _full(_RGB_RE),
    "byte": _full(_BASE64_RE),
    "password": lambda s: True,
    "date": is_date,
    "datetime": is_datetime,
    "duration": is_duration,
    "bsonobjectid": _is_bson_object_id,
    "k8sshortname": lambda s: len(s) <= 63 and _SHORT_NAME_RE.fullmatch(s) is not None,
    "k8slongname": lambda s: len(s) <= 253 and _LONG_NAME_RE.fullmatch(s) is not None,
}
