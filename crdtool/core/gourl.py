"""Go's ``net/url.Parse``, as the apiserver applies it to webhook URLs and annotations.

A port of the parts of Go's ``net/url`` (``url.go``: ``Parse``, ``parse``,
``getScheme``, ``parseAuthority``, ``parseHost``, ``unescape``, ``shouldEscape``)
that decide whether a URL parses and what its scheme, host, user info, query
and fragment are. Not a Kubernetes concept, but Kubernetes' verdicts depend on
Go's exact parsing rules, so Python's ``urllib`` would not do.
"""

from __future__ import annotations

import dataclasses

from crdtool.core.errors import go_quote

@dataclasses.dataclass
class GoURL:
    """The parts of a Go ``url.URL`` the validators read."""

    scheme: str = ""
    opaque: str = ""
    user: tuple[bytes, bytes | None] | None = None
    host: str = ""
    path: str = ""
    raw_query: str = ""
    fragment: str = ""

    def user_string(self) -> str:
        """Go ``Userinfo.String()``: escaped ``user[:password]``."""
        if self.user is None:
            return ""
        username, password = self.user
        s = _go_escape(username, _USER_PASSWORD)
        if password is not None:
            s += ":" + _go_escape(password, _USER_PASSWORD)
        return s


_PATH, _HOST, _ZONE, _USER_PASSWORD, _FRAGMENT = "path", "host", "zone", "userpassword", "fragment"
_HEX = b"0123456789abcdefABCDEF"
_ALNUM = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
_HOST_EXTRA = frozenset(b"!$&'()*+,;=:[]<>\"")
_USERINFO_OK = frozenset(b"-._:~!$&'()*+,;=%@") | _ALNUM


def _should_escape(c: int, mode: str) -> bool:
    """Go ``shouldEscape``."""
    if c in _ALNUM:
        return False
    if mode in (_HOST, _ZONE) and c in _HOST_EXTRA:
        return False
    ch = chr(c)
    if ch in "-_.~":
        return False
    if ch in "$&+,/:;=?@":
        if mode == _PATH:
            return ch == "?"
        if mode == _USER_PASSWORD:
            return ch in "@/?:"
        if mode == _FRAGMENT:
            return False
    if mode == _FRAGMENT and ch in "!()*":
        return False
    return True


def _go_quote_bytes(b: bytes) -> str:
    """Go ``strconv.Quote`` of a byte string (invalid UTF-8 as ``\\xNN``)."""
    text = b.decode("utf-8", "surrogateescape")
    out = ['"']
    for ch in text:
        if "\udc80" <= ch <= "\udcff":
            out.append(f"\\x{ord(ch) - 0xDC00:02x}")
        else:
            out.append(go_quote(ch)[1:-1])
    out.append('"')
    return "".join(out)


def _unhex(c: int) -> int:
    return int(chr(c), 16)


def _go_unescape(s: bytes, mode: str) -> bytes:
    """Go ``unescape``; raises ValueError with Go's ``EscapeError``/``InvalidHostError`` text."""
    i = 0
    n = 0
    while i < len(s):
        c = s[i]
        if c == 0x25:  # '%'
            n += 1
            if i + 2 >= len(s) or s[i + 1] not in _HEX or s[i + 2] not in _HEX:
                raise ValueError("invalid URL escape " + _go_quote_bytes(s[i:][:3]))
            if mode == _HOST and _unhex(s[i + 1]) < 8 and s[i : i + 3] != b"%25":
                raise ValueError("invalid URL escape " + _go_quote_bytes(s[i : i + 3]))
            if mode == _ZONE:
                v = _unhex(s[i + 1]) << 4 | _unhex(s[i + 2])
                if s[i : i + 3] != b"%25" and v != 0x20 and _should_escape(v, _HOST):
                    raise ValueError("invalid URL escape " + _go_quote_bytes(s[i : i + 3]))
            i += 3
            continue
        if mode in (_HOST, _ZONE) and c < 0x80 and _should_escape(c, mode):
            raise ValueError("invalid character " + _go_quote_bytes(s[i : i + 1]) + " in host name")
        i += 1
    if n == 0:
        return s
    out = bytearray()
    i = 0
    while i < len(s):
        if s[i] == 0x25:
            out.append(_unhex(s[i + 1]) << 4 | _unhex(s[i + 2]))
            i += 3
        else:
            out.append(s[i])
            i += 1
    return bytes(out)


def _go_escape(s: bytes, mode: str) -> str:
    """Go ``escape`` (not for query components)."""
    out: list[str] = []
    for c in s:
        if _should_escape(c, mode):
            out.append(f"%{c:02X}")
        else:
            out.append(chr(c))
    return "".join(out)


def _decode(b: bytes) -> str:
    return b.decode("utf-8", "replace")


def _get_scheme(raw: bytes) -> tuple[bytes, bytes]:
    """Go ``getScheme``; raises ValueError on a leading colon."""
    for i, c in enumerate(raw):
        if 0x61 <= c <= 0x7A or 0x41 <= c <= 0x5A:
            continue
        if 0x30 <= c <= 0x39 or c in b"+-.":
            if i == 0:
                return b"", raw
            continue
        if c == 0x3A:
            if i == 0:
                raise ValueError("missing protocol scheme")
            return raw[:i], raw[i + 1 :]
        return b"", raw
    return b"", raw


def _valid_optional_port(port: bytes) -> bool:
    if not port:
        return True
    if port[:1] != b":":
        return False
    return all(0x30 <= c <= 0x39 for c in port[1:])


def _parse_host(host: bytes) -> bytes:
    """Go ``parseHost`` (colons as before Go 1.26's ``urlstrictcolons``)."""
    if host.startswith(b"["):
        i = host.rfind(b"]")
        if i < 0:
            raise ValueError("missing ']' in host")
        colon_port = host[i + 1 :]
        if not _valid_optional_port(colon_port):
            raise ValueError(f"invalid port {_go_quote_bytes(colon_port)} after host")
        zone = host[:i].find(b"%25")
        if zone >= 0:
            return _go_unescape(host[:zone], _HOST) + _go_unescape(host[zone:i], _ZONE) + _go_unescape(host[i:], _HOST)
    else:
        i = host.rfind(b":")
        if i != -1:
            colon_port = host[i:]
            if not _valid_optional_port(colon_port):
                raise ValueError(f"invalid port {_go_quote_bytes(colon_port)} after host")
    return _go_unescape(host, _HOST)


def _parse_authority(authority: bytes) -> tuple[tuple[bytes, bytes | None] | None, bytes]:
    """Go ``parseAuthority``."""
    i = authority.rfind(b"@")
    host = _parse_host(authority if i < 0 else authority[i + 1 :])
    if i < 0:
        return None, host
    userinfo = authority[:i]
    text = userinfo.decode("utf-8", "surrogateescape")
    if not all(ord(ch) < 0x80 and ord(ch) in _USERINFO_OK for ch in text):
        raise ValueError("net/url: invalid userinfo")
    if b":" not in userinfo:
        return (_go_unescape(userinfo, _USER_PASSWORD), None), host
    username, _, password = userinfo.partition(b":")
    return (_go_unescape(username, _USER_PASSWORD), _go_unescape(password, _USER_PASSWORD)), host


def _parse(raw: bytes, via_request: bool) -> GoURL:
    """Go's internal ``parse``; raises ValueError with the bare error text."""
    if any(c < 0x20 or c == 0x7F for c in raw):
        raise ValueError("net/url: invalid control character in URL")
    if not raw and via_request:
        raise ValueError("empty url")
    url = GoURL()
    if raw == b"*":
        url.path = "*"
        return url
    scheme, rest = _get_scheme(raw)
    url.scheme = _decode(scheme).lower()
    if rest.endswith(b"?") and rest.count(b"?") == 1:
        rest = rest[:-1]
    else:
        rest, _, query = rest.partition(b"?")
        url.raw_query = _decode(query)
    if not rest.startswith(b"/"):
        if url.scheme:
            url.opaque = _decode(rest)
            return url
        if via_request:
            raise ValueError("invalid URI for request")
        if b":" in rest.split(b"/", 1)[0]:
            raise ValueError("first path segment in URL cannot contain colon")
    if (url.scheme or (not via_request and not rest.startswith(b"///"))) and rest.startswith(b"//"):
        authority, rest = rest[2:], b""
        i = authority.find(b"/")
        if i >= 0:
            authority, rest = authority[:i], authority[i:]
        url.user, host = _parse_authority(authority)
        url.host = _decode(host)
    url.path = _decode(_go_unescape(rest, _PATH))
    return url


def go_url_parse(raw: str, via_request: bool = False) -> tuple[GoURL | None, str]:
    """Go ``url.Parse`` (or ``url.ParseRequestURI`` with ``via_request``).

    Returns ``(url, "")`` or ``(None, error)`` with Go's error text
    (``parse "<url>": <why>``).
    """
    data = raw.encode("utf-8", "surrogatepass")
    if via_request:
        try:
            return _parse(data, True), ""
        except ValueError as exc:
            return None, f"parse {_go_quote_bytes(data)}: {exc}"
    before, _, frag = data.partition(b"#")
    try:
        url = _parse(before, False)
    except ValueError as exc:
        return None, f"parse {_go_quote_bytes(before)}: {exc}"
    if not frag:
        return url, ""
    try:
        url.fragment = _decode(_go_unescape(frag, _FRAGMENT))
    except ValueError as exc:
        return None, f"parse {_go_quote_bytes(data)}: {exc}"
    return url, ""
