"""The string-format conversions of CEL values, as ``k8s.io/kube-openapi pkg/validation/strfmt`` performs them.

``UnstructuredToVal`` converts strings of format ``duration``, ``date``,
``date-time`` and ``byte`` with strfmt's parsers, and reports their errors
(``Invalid duration 3x: unable to parse 3x as duration`` ...). Ported here:

* :func:`parse_duration`: ``strfmt.ParseDuration`` (Go ``time.ParseDuration``,
  then strfmt's ``"3 days"`` forms);
* :func:`parse_full_date`: ``time.Parse("2006-01-02", s)``;
* :func:`parse_date_time`: ``strfmt.ParseDateTime`` (``time.Parse`` with
  ``RFC3339Micro``, ``RFC3339Millis``, ``RFC3339``, ``RFC3339Nano`` and
  ``2006-01-02T15:04:05`` in turn; the empty string is the Unix epoch);
* :func:`parse_base64`: ``strfmt.Base64.UnmarshalText`` (``base64.URLEncoding``).

Go's ``time.Parse`` is ported for the layout elements these layouts use, with
its error texts (``parsing time "x" as "2006-01-02": cannot parse "x" as
"2006"``).
"""

from __future__ import annotations

import re
from typing import Any

from crdtool.core.gotime import getnum, is_digit, time_quote
from crdtool.core.celgo import values as V

__all__ = ["parse_base64", "parse_date_time", "parse_duration", "parse_full_date"]


# --- durations --------------------------------------------------------------------------------------

_DURATION_MATCHER = re.compile(r"((\d+)\s*([A-Za-zµ]+))")
_TIME_UNITS = (("ns", "nano"), ("us", "µs", "micro"), ("ms", "milli"), ("s", "sec"), ("m", "min"),
               ("h", "hr", "hour"), ("d", "day"), ("w", "wk", "week"))
_MULTIPLIER = {"ns": 1, "us": 1000, "ms": 1_000_000, "s": 10**9, "m": 60 * 10**9, "h": 3600 * 10**9,
               "d": 86400 * 10**9, "w": 7 * 86400 * 10**9}


def _wrap64(v: int) -> int:
    v &= (1 << 64) - 1
    return v - (1 << 64) if v >= 1 << 63 else v


def parse_duration(cand: str) -> int | str:
    """``strfmt.ParseDuration``: nanoseconds, or the error text."""
    d = V.parse_go_duration(cand)
    if isinstance(d, int):
        return d
    dur = 0
    ok = False
    for m in _DURATION_MATCHER.finditer(cand):
        digits = m.group(2)
        factor = int(digits)
        if factor > (1 << 63) - 1:
            return f'strconv.Atoi: parsing {V.go_quote(digits)}: value out of range'
        unit = m.group(3).strip().lower()
        for variants in _TIME_UNITS:
            last = len(variants) - 1
            mult = _MULTIPLIER[variants[0]]
            for i, variant in enumerate(variants):
                if (last == i and unit.startswith(variant)) or variant.lower() == unit:
                    ok = True
                    dur = _wrap64(dur + _wrap64(factor * mult))
    if ok:
        return dur
    return f"unable to parse {cand} as duration"


# --- time.Parse ------------------------------------------------------------------------------------------

_LAYOUTS: dict[str, list[tuple[str, str]]] = {}


def _layout(text: str) -> list[tuple[str, str]]:
    """Split a layout into (prefix literal, std element) chunks (``nextStdChunk`` for these layouts)."""
    hit = _LAYOUTS.get(text)
    if hit is not None:
        return hit
    stds = ("Z07:00", "2006", ".999999999", ".000000", ".000", "01", "02", "15", "04", "05")
    chunks: list[tuple[str, str]] = []
    prefix = ""
    i = 0
    while i < len(text):
        for s in stds:
            if text.startswith(s, i):
                chunks.append((prefix, s))
                prefix = ""
                i += len(s)
                break
        else:
            prefix += text[i]
            i += 1
    chunks.append((prefix, ""))
    _LAYOUTS[text] = chunks
    return chunks



class _ParseError(Exception):
    pass


def _perr(layout: str, value: str, layout_elem: str, value_elem: str, message: str = "") -> _ParseError:
    if message:
        return _ParseError("parsing time " + time_quote(value) + message)
    return _ParseError("parsing time " + time_quote(value) + " as " + time_quote(layout) + ": cannot parse "
                       + time_quote(value_elem) + " as " + time_quote(layout_elem))




def _parse_nanoseconds(value: str, nbytes: int) -> tuple[int, str] | None:
    if value[0] not in ".,":
        return None
    if nbytes > 10:
        value = value[:10]
        nbytes = 10
    digits = value[1:nbytes]
    body = digits[1:] if digits[:1] in ("+", "-") else digits
    if not body or not all("0" <= c <= "9" for c in body):
        return None
    ns = int(digits)
    if ns < 0:
        return ns, "fractional second"
    for _ in range(10 - nbytes):
        ns *= 10
    return ns, ""


def go_time_parse(layout: str, value: str) -> V.Timestamp:  # noqa: C901 - mirrors time.parse
    """Go ``time.parse`` for the RFC 3339 family of layouts; raises _ParseError with Go's text."""
    avalue = value
    year, month, day = 0, -1, -1
    hour = minute = sec = nsec = 0
    zone_offset: int | None = None
    chunks = _layout(layout)
    for idx, (prefix, std) in enumerate(chunks):
        # skip(value, prefix)
        v = value
        for ch in prefix:
            if not v or v[0] != ch:
                raise _perr(layout, avalue, prefix, value)
            v = v[1:]
        value = v
        if std == "":
            if value:
                raise _perr(layout, avalue, "", value, ": extra text: " + time_quote(value))
            break
        hold = value
        err = False
        range_err = ""
        if std == "2006":
            if len(value) < 4 or not is_digit(value, 0):
                err = True
            else:
                p, value = value[:4], value[4:]
                body = p[1:] if p[:1] in "+-" else p
                if not body or not all("0" <= c <= "9" for c in body):
                    err = True
                else:
                    year = int(p)
        elif std == "01":
            r = getnum(value, True)
            if r is None:
                err = True
            else:
                month, value = r
                if month <= 0 or month > 12:
                    range_err = "month"
        elif std == "02":
            r = getnum(value, True)
            if r is None:
                err = True
            else:
                day, value = r
        elif std == "15":
            r = getnum(value, False)
            if r is None:
                err = True
            else:
                hour, value = r
                if hour >= 24:
                    range_err = "hour"
        elif std == "04":
            r = getnum(value, True)
            if r is None:
                err = True
            else:
                minute, value = r
                if minute >= 60:
                    range_err = "minute"
        elif std == "05":
            r = getnum(value, True)
            if r is None:
                err = True
            else:
                sec, value = r
                if sec >= 60:
                    range_err = "second"
                elif len(value) >= 2 and value[0] in ".," and is_digit(value, 1):
                    nxt = chunks[idx + 1][1] if idx + 1 < len(chunks) else ""
                    if not nxt.startswith("."):
                        n = 2
                        while n < len(value) and is_digit(value, n):
                            n += 1
                        pn = _parse_nanoseconds(value, n)
                        if pn is None:
                            err = True
                        else:
                            nsec, range_err = pn
                            value = value[n:]
        elif std in (".000", ".000000"):
            ndigit = len(std)
            if len(value) < ndigit:
                err = True
            else:
                pn = _parse_nanoseconds(value, ndigit)
                if pn is None:
                    err = True
                else:
                    nsec, range_err = pn
                    value = value[ndigit:]
        elif std == ".999999999":
            if len(value) >= 2 and value[0] in ".," and "0" <= value[1] <= "9":
                i = 0
                while i + 1 < len(value) and "0" <= value[i + 1] <= "9":
                    i += 1
                pn = _parse_nanoseconds(value, 1 + i)
                if pn is None:
                    err = True
                else:
                    nsec, range_err = pn
                    value = value[1 + i:]
        elif std == "Z07:00":
            if value[:1] == "Z":
                value = value[1:]
                zone_offset = 0
            elif len(value) < 6 or value[3] != ":":
                err = True
            else:
                sign, hh, mm, value = value[0], value[1:3], value[4:6], value[6:]
                rh = getnum(hh, True)
                rm = getnum(mm, True) if rh is not None else None
                if rh is None or rm is None:
                    err = True
                else:
                    if rh[0] > 24:
                        range_err = "time zone offset hour"
                    if rm[0] > 60:
                        range_err = "time zone offset minute"
                    off = (rh[0] * 60 + rm[0]) * 60
                    if sign == "-":
                        off = -off
                    elif sign != "+":
                        err = True
                    zone_offset = off
        if range_err:
            raise _perr(layout, avalue, std, value, ": " + range_err + " out of range")
        if err:
            raise _perr(layout, avalue, std, hold)
    if month < 0:
        month = 1
    if day < 0:
        day = 1
    if day < 1 or day > V.days_in(month, year):
        raise _perr(layout, avalue, "", value, ": day out of range")
    secs = V.days_from_civil(year, month, day) * 86400 + hour * 3600 + minute * 60 + sec
    if zone_offset is None:
        return V.Timestamp(secs, nsec, 0)
    return V.Timestamp(secs - zone_offset, nsec, zone_offset)


def _parse_rfc3339(value: str) -> V.Timestamp:
    fast = V._parse_rfc3339_fast(value)
    if fast is not None:
        return fast
    return go_time_parse("2006-01-02T15:04:05Z07:00", value)


def parse_full_date(s: str) -> V.Timestamp | str:
    """``time.Parse(strfmt.RFC3339FullDate, s)``: the timestamp (UTC midnight), or the error text."""
    try:
        return go_time_parse("2006-01-02", s)
    except _ParseError as exc:
        return str(exc)


_DATE_TIME_LAYOUTS = ("2006-01-02T15:04:05.000000Z07:00", "2006-01-02T15:04:05.000Z07:00", "RFC3339",
                      "RFC3339Nano", "2006-01-02T15:04:05")


def parse_date_time(s: str) -> V.Timestamp | str:
    """``strfmt.ParseDateTime``: the timestamp, or the last layout's error text."""
    if s == "":
        return V.Timestamp(0, 0, 0)
    last = ""
    for layout in _DATE_TIME_LAYOUTS:
        try:
            if layout == "RFC3339":
                return _parse_rfc3339(s)
            if layout == "RFC3339Nano":
                fast = V._parse_rfc3339_fast(s)
                if fast is not None:
                    return fast
                return go_time_parse("2006-01-02T15:04:05.999999999Z07:00", s)
            return go_time_parse(layout, s)
        except _ParseError as exc:
            last = str(exc)
    return last


# --- base64 (URLEncoding) --------------------------------------------------------------------------------------

_URL_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
_DECODE = {ord(c): i for i, c in enumerate(_URL_ALPHABET)}


def parse_base64(s: str) -> bytes | str:
    """``strfmt.Base64.UnmarshalText`` (``base64.URLEncoding.Decode``): the bytes, or the error text."""
    src = s.encode("utf-8", "surrogatepass")
    out = bytearray()
    si = 0
    n = len(src)

    def corrupt(off: int) -> str:
        return f"illegal base64 data at input byte {off}"

    while si < n:
        dbuf = [0, 0, 0, 0]
        dlen = 4
        j = 0
        err: str | None = None
        while j < 4:
            if si == n:
                if j == 0:
                    return bytes(out)
                return corrupt(si - j)
            c = src[si]
            si += 1
            d = _DECODE.get(c)
            if d is not None:
                dbuf[j] = d
                j += 1
                continue
            if c in (0x0A, 0x0D):
                continue
            if c != 0x3D:  # '='
                return corrupt(si - 1)
            if j in (0, 1):
                return corrupt(si - 1)
            if j == 2:
                while si < n and src[si] in (0x0A, 0x0D):
                    si += 1
                if si == n:
                    return corrupt(n)
                if src[si] != 0x3D:
                    return corrupt(si - 1)
                si += 1
            while si < n and src[si] in (0x0A, 0x0D):
                si += 1
            if si < n:
                err = corrupt(si)
            dlen = j
            break
        val = dbuf[0] << 18 | dbuf[1] << 12 | dbuf[2] << 6 | dbuf[3]
        b = [(val >> 16) & 0xFF, (val >> 8) & 0xFF, val & 0xFF]
        out.extend(b[: dlen - 1])
        if err is not None:
            return err
    return bytes(out)


Any  # re-exported for annotations
