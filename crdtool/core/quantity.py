"""Parsing a ``resource.Quantity`` as ``k8s.io/apimachinery/pkg/api/resource/quantity.go`` ``ParseQuantity``.

The text-level steps (``parseQuantityString``, the suffixer, ``inf.Dec.SetString``) and the error texts, light
enough for the decoder of built-in objects (:mod:`crdtool.core.crd.decode`, ``Quantity.UnmarshalJSON``); the
CEL quantity library (:mod:`crdtool.core.kubecel.library`) builds its values on them.
"""

from __future__ import annotations

__all__ = ["parse_quantity_error"]

_FORMAT_WRONG = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"
_NUMERIC = "unable to parse numeric part of quantity"
_SUFFIX = "unable to parse quantity's suffix"
_DEC_SUFFIXES = {"n": -9, "u": -6, "m": -3, "": 0, "k": 3, "M": 6, "G": 9, "T": 12, "P": 15, "E": 18}
_BIN_SUFFIXES = {"Ki": 10, "Mi": 20, "Gi": 30, "Ti": 40, "Pi": 50, "Ei": 60}
_INT64_MAX = (1 << 63) - 1


def _parse_quantity_string(s: str) -> tuple[bool, str, str, str, str] | str:
    """``parseQuantityString``: (positive, value, num, denom, suffix) or the error text."""
    positive = True
    pos = 0
    end = len(s)
    if pos < end and s[0] in "+-":
        positive = s[0] != "-"
        pos += 1
    i = pos
    while True:
        if i >= end:
            return positive, "0", "0", "", ""
        if s[i] == "0":
            pos += 1
            i += 1
            continue
        break
    i = pos
    num = ""
    while True:
        if i >= end:
            return positive, s[:end], s[pos:end], "", ""
        if "0" <= s[i] <= "9":
            i += 1
            continue
        num = s[pos:i]
        pos = i
        break
    if not num:
        num = "0"
    denom = ""
    if pos < end and s[pos] == ".":
        pos += 1
        i = pos
        while True:
            if i >= end:
                return positive, s[:end], num, s[pos:end], ""
            if "0" <= s[i] <= "9":
                i += 1
                continue
            denom = s[pos:i]
            pos = i
            break
    value = s[:pos]
    suffix_start = pos
    i = pos
    while True:
        if i >= end:
            return positive, value, num, denom, s[suffix_start:end]
        if s[i] not in "eEinumkKMGTP":
            pos = i
            break
        i += 1
    if pos < end and s[pos] in "-+":
        pos += 1
    i = pos
    while True:
        if i >= end:
            return positive, value, num, denom, s[suffix_start:end]
        if "0" <= s[i] <= "9":
            i += 1
            continue
        break
    return _FORMAT_WRONG


def _interpret_suffix(suf: str) -> tuple[int, int, str] | None:
    if suf in _DEC_SUFFIXES:
        return 10, _DEC_SUFFIXES[suf], "DecimalSI"
    if suf in _BIN_SUFFIXES:
        return 2, _BIN_SUFFIXES[suf], "BinarySI"
    if len(suf) > 1 and suf[0] in "eE":
        body = suf[1:]
        b = body[1:] if body[:1] in "+-" else body
        if not b or not all("0" <= c <= "9" for c in b):
            return None
        parsed = int(body)
        if not -(1 << 63) <= parsed <= _INT64_MAX:
            return None
        e = parsed & 0xFFFFFFFF
        if e >= 1 << 31:
            e -= 1 << 32
        return 10, e, "DecimalExponent"
    return None


def _inf_dec_set_string(value: str) -> tuple[int, int] | None:
    """``inf.Dec.SetString``: (unscaled, scale) or None."""
    unscaled = ""
    dp = dg = -1
    i = 0
    while i < len(value):
        ch = value[i]
        if ch in "+-":
            if unscaled or dp >= 0:
                return None
        elif ch == ".":
            if dp >= 0:
                return None
            dp = len(unscaled)
            i += 1
            continue
        elif "0" <= ch <= "9":
            if dg == -1:
                dg = len(unscaled)
        else:
            return None
        unscaled += ch
        i += 1
    if dg == -1:
        return None
    scale = len(unscaled) - dp if dp >= 0 else 0
    try:
        return int(unscaled), scale
    except ValueError:
        return None



def parse_quantity_error(s: str) -> str:
    """``resource.ParseQuantity(s)``'s error text, or ``""`` when ``s`` is a quantity.

    ``quantities must match the regular expression ...`` (``ErrFormatWrong``), ``unable to parse quantity's
    suffix`` (``ErrSuffix``) or ``unable to parse numeric part of quantity`` (``ErrNumeric``).
    """
    if not s:
        return _FORMAT_WRONG
    if s == "0":
        return ""
    parsed = _parse_quantity_string(s)
    if isinstance(parsed, str):
        return parsed
    _, value, num, denom, suf = parsed
    interp = _interpret_suffix(suf)
    if interp is None:
        return _SUFFIX
    _, exponent, fmt = interp
    if fmt in ("DecimalExponent", "DecimalSI"):
        scale, precision = exponent, 18 - (len(num) + len(denom))
    elif exponent >= 0 and not denom:
        scale, precision = 0, 15 - len(num) - int(float(exponent) * 3 / 10) - 1
    else:
        scale, precision = 0, -1
    if precision >= 0 and scale - len(denom) >= -9:
        return ""  # the int64 fast path: at most 18 digits, ParseInt cannot fail
    return "" if _inf_dec_set_string(value) is not None else _NUMERIC
