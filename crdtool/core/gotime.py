"""Helpers of Go's ``time`` package shared by the ports of ``time.Parse``.

:mod:`crdtool.core.crd.decode` (``metav1.Time``'s RFC 3339 errors) and
:mod:`crdtool.core.kubecel.strfmt` (``strfmt`` date-time parsing) both word
their errors as Go's ``time.Parse`` does; these are its small helpers
(``time/format.go`` ``quote``, ``isDigit``, ``getnum``).
"""

from __future__ import annotations


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
