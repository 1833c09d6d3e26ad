"""Helpers of Go's ``time`` package shared by the ports of ``time.Parse``.

:mod:`crdtool.core.crd.decode` (``metav1.Time``'s RFC 3339 errors) and
:mod:`crdtool.core.kubecel.strfmt` (``strfmt`` date-time parsing) both word
their errors as Go's ``time.Parse`` does; these are its small helpers
(``time/format.go`` ``quote``, ``isDigit``, ``getnum``).
"""

from __future__ import annotations

import calendar
import re
from functools import lru_cache
from typing import Any


def time_quote(s: str) -> str:
    """``time.quote``: ``"..."`` with ``\\xNN`` escapes for the bytes of non-ASCII and control characters."""
    out = ['"']
    for ch in s:
        if ord(ch) >= 0x80 or ch < " ":
            out.extend(f"\\x{b:02x}" for b in ch.encode("utf-8", "surrogatepass"))
        else:
            if ch in '"\\':
                out.append("\\")
            out.append(ch)
    out.append('"')
    return "".join(out)


def is_digit(s: str, i: int) -> bool:
    """``time.isDigit``: ``s[i]`` exists and is an ASCII digit."""
    return i < len(s) and "0" <= s[i] <= "9"


def getnum(s: str, fixed: bool) -> tuple[int, str] | None:
    """``time.getnum``: a leading one- or two-digit number (two digits when ``fixed``) and the rest, or None."""
    if not is_digit(s, 0):
        return None
    if not is_digit(s, 1):
        if fixed:
            return None
        return int(s[0]), s[1:]
    return int(s[:2]), s[2:]


_DIGITS = frozenset("0123456789")


_UNIT_MAP = {
    "ns": 1,
    "us": 1_000,
    "\u00b5s": 1_000,  # U+00B5 micro sign
    "\u03bcs": 1_000,  # U+03BC Greek small letter mu
    "ms": 1_000_000,
    "s": 1_000_000_000,
    "m": 60_000_000_000,
    "h": 3_600_000_000_000,
}


_MAX_DUR = 1 << 63


def go_parse_duration(s: str) -> bool:
    """Go ``time.ParseDuration(s)`` succeeds."""
    orig_neg = False
    if s and s[0] in "+-":
        orig_neg = s[0] == "-"
        s = s[1:]
    if s == "0":
        return True
    if s == "":
        return False
    total = 0
    while s:
        if not (s[0] == "." or s[0] in _DIGITS):
            return False
        i = 0
        v = 0
        while i < len(s) and s[i] in _DIGITS:
            v = v * 10 + ord(s[i]) - 48
            if v > _MAX_DUR:  # leadingInt overflow
                return False
            i += 1
        pre = i > 0
        s = s[i:]
        post = False
        f = 0
        scale = 1.0
        if s and s[0] == ".":
            s = s[1:]
            j = 0
            overflow = False
            while j < len(s) and s[j] in _DIGITS:
                if not overflow:
                    if f > ((1 << 63) - 1) // 10:
                        overflow = True
                    else:
                        f = f * 10 + ord(s[j]) - 48
                        scale *= 10
                j += 1
            post = j > 0
            s = s[j:]
        if not pre and not post:
            return False
        k = 0
        while k < len(s) and not (s[k] == "." or s[k] in _DIGITS):
            k += 1
        if k == 0:
            return False
        unit = _UNIT_MAP.get(s[:k])
        if unit is None:
            return False
        s = s[k:]
        if v > _MAX_DUR // unit:
            return False
        v *= unit
        if f > 0:
            v += int(float(f) * (float(unit) / scale))
            if v > _MAX_DUR:
                return False
        total += v
        if total > _MAX_DUR:
            return False
    if not orig_neg and total > _MAX_DUR - 1:
        return False
    return True


_RFC3339 = "2006-01-02T15:04:05Z07:00"


# (prefix literal, layout element) pairs of the RFC 3339 layout, as nextStdChunk splits it.
_CHUNKS = [("", "2006"), ("-", "01"), ("-", "02"), ("T", "15"), (":", "04"), (":", "05"), ("", "Z07:00")]


#: The memo of :func:`rfc3339_parse_error` and :func:`rfc3339_instant`: pure functions of the text, whose
#: answers (a string, a tuple) cannot change; the same timestamps are read many times (an object's metadata is
#: decoded, validated and served at every step of a create or a round trip).
_MEMO_SIZE = 4096


@lru_cache(maxsize=_MEMO_SIZE)
def rfc3339_parse_error(value: str) -> str:
    """The error text of Go's ``time.Parse(time.RFC3339, value)``, or ``""`` if it parses.

    Mirrors ``time.parse`` (the generic path ``time.Parse`` falls back to) for
    the RFC 3339 layout, and ``time.ParseError.Error``. Memoised (``__wrapped__`` is the function itself).
    """
    rest = value
    year = month = day = 0
    for prefix, std in _CHUNKS:
        if prefix:
            if not rest or rest[0] != prefix:
                return _parse_error(value, prefix, rest)
            rest = rest[1:]
        hold = rest
        range_err = ""
        ok = True
        if std == "2006":
            if len(rest) < 4 or not is_digit(rest, 0) or not _atoi_ok(rest[:4]):
                ok = False
            else:
                year, rest = int(rest[:4]), rest[4:]
        elif std == "01":
            got = getnum(rest, True)
            ok = got is not None
            if got is not None:
                month, rest = got
                if month <= 0 or month > 12:
                    range_err = "month"
        elif std == "02":
            got = getnum(rest, True)
            ok = got is not None
            if got is not None:
                day, rest = got
        elif std == "15":
            got = getnum(rest, False)
            ok = got is not None
            if got is not None:
                hour, rest = got
                if hour >= 24:
                    range_err = "hour"
        elif std == "04":
            got = getnum(rest, True)
            ok = got is not None
            if got is not None:
                minute, rest = got
                if minute >= 60:
                    range_err = "minute"
        elif std == "05":
            got = getnum(rest, True)
            ok = got is not None
            if got is not None:
                sec, rest = got
                if sec >= 60:
                    range_err = "second"
                elif len(rest) >= 2 and rest[0] in ".," and is_digit(rest, 1):
                    k = 2
                    while k < len(rest) and is_digit(rest, k):
                        k += 1
                    rest = rest[k:]
        else:  # Z07:00
            ok, rest, range_err = _parse_zone(rest)
        if range_err:
            return f"parsing time {time_quote(value)}: {range_err} out of range"
        if not ok:
            return _parse_error(value, std, hold)
    if rest:
        return f"parsing time {time_quote(value)}: extra text: {time_quote(rest)}"
    if day < 1 or day > _days_in(month, year):
        return f"parsing time {time_quote(value)}: day out of range"
    return ""


def _parse_zone(rest: str) -> tuple[bool, str, str]:
    if rest[:1] == "Z":
        return True, rest[1:], ""
    if len(rest) < 6 or rest[3] != ":":
        return False, rest, ""
    sign, hh, mm = rest[0], rest[1:3], rest[4:6]
    hr_got, mm_got = getnum(hh, True), getnum(mm, True)
    if hr_got is None or mm_got is None:
        return False, rest, ""
    range_err = ""
    if hr_got[0] > 24:
        range_err = "time zone offset hour"
    if mm_got[0] > 60:
        range_err = "time zone offset minute"
    if range_err:
        return True, rest[6:], range_err
    if sign not in "+-":
        return False, rest, ""
    return True, rest[6:], ""


def _atoi_ok(s: str) -> bool:
    body = s[1:] if s[:1] in "+-" else s
    return bool(body) and all("0" <= c <= "9" for c in body)


def _days_in(month: int, year: int) -> int:
    if month == 2:
        leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
        return 29 if leap else 28
    return 30 if month in (4, 6, 9, 11) else 31


def _parse_error(value: str, layout_elem: str, value_elem: str) -> str:
    return (
        f"parsing time {time_quote(value)} as {time_quote(_RFC3339)}: "
        f"cannot parse {time_quote(value_elem)} as {time_quote(layout_elem)}"
    )


_RFC3339_RE = re.compile(
    r"([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{1,2}):([0-9]{2}):([0-9]{2})(?:[.,]([0-9]+))?(Z|[+-][0-9]{2}:[0-9]{2})"
)


def rfc3339_instant(s: Any) -> tuple[int, int] | None:
    """Seconds since the epoch and nanoseconds of an RFC 3339 string, or ``None``. Memoised by text."""
    if not isinstance(s, str):
        return None
    return _rfc3339_instant(str(s))


@lru_cache(maxsize=_MEMO_SIZE)
def _rfc3339_instant(s: str) -> tuple[int, int] | None:
    m = _RFC3339_RE.fullmatch(s)
    if m is None:
        return None
    year, month, day, hour, minute, sec = (int(g) for g in m.groups()[:6])
    frac = (m.group(7) or "")[:9].ljust(9, "0")
    zone = m.group(8)
    offset = 0
    if zone != "Z":
        offset = (int(zone[1:3]) * 60 + int(zone[4:6])) * 60
        if zone[0] == "-":
            offset = -offset
    try:
        secs = calendar.timegm((year, month, day, hour, minute, sec, 0, 0, 0)) - offset
    except (ValueError, OverflowError):
        return None
    return secs, int(frac)
