"""A ``resource.Quantity``'s canonical text, as the apiserver prints and stores it.

Mirrors k8s.io/apimachinery ``pkg/api/resource/quantity.go`` (``CanonicalizeBytes``, ``String``),
``amount.go`` (``int64Amount.AsCanonicalBytes``, ``AsCanonicalBase1024Bytes``, ``removeInt64Factors``) and
``suffix.go`` (``constructBytes``), unchanged @v0.30.0 … @v0.36.x, and ``Quantity.RoundUp`` for
``SetDefaults_ResourceList`` (``pkg/apis/core/v1/defaults.go``: values rounded up to milli units).

``"0.5"`` prints ``500m``, ``"1.5Gi"`` ``1536Mi``, ``"1000m"`` ``1``, ``"1e3"`` ``1e3``, ``"2048Ki"`` ``2Mi``.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from crdtool.core.quantity import _interpret_suffix, _parse_quantity_string

_DEC_SUFFIX = {-9: "n", -6: "u", -3: "m", 0: "", 3: "k", 6: "M", 9: "G", 12: "T", 15: "P", 18: "E"}
_BIN_SUFFIX = {0: "", 10: "Ki", 20: "Mi", 30: "Gi", 40: "Ti", 50: "Pi", 60: "Ei"}


def _value_and_format(text: str) -> tuple[Fraction, str] | None:
    """The exact value ``ParseQuantity`` gives ``text`` and its format, or None when it does not parse."""
    from crdtool.core.kubecel.library import Quantity, parse_quantity

    q = parse_quantity(text)
    if not isinstance(q, Quantity):
        return None
    num, den = q.exact()
    parsed = _parse_quantity_string(text)
    if isinstance(parsed, str):
        return None
    interp = _interpret_suffix(parsed[4])
    if interp is None:
        return None
    return Fraction(num, den), interp[2]


def _decimal(value: Fraction) -> tuple[int, int]:
    """``value`` as ``mantissa * 10**exponent`` with the exponent a multiple of 3 (``AsCanonicalBytes``)."""
    exponent = 0
    while value.denominator != 1:
        value *= 10
        exponent -= 1
    mantissa = int(value)
    while mantissa != 0 and mantissa % 10 == 0:
        mantissa //= 10
        exponent += 1
    rem = exponent % 3  # Python's modulo: how far above the multiple of 3 below
    return mantissa * 10**rem, exponent - rem


def canonical(value: Fraction, fmt: str) -> str:
    """``Quantity.String()`` of ``value`` in format ``fmt`` (``DecimalSI``, ``BinarySI``, ``DecimalExponent``)."""
    if value == 0:
        return "0"
    if fmt == "BinarySI" and (-1024 < value < 1024 or value.denominator != 1):
        fmt = "DecimalSI"
    if fmt == "BinarySI":
        amount, exponent = int(value), 0
        while amount % 1024 == 0:
            amount //= 1024
            exponent += 1
        return f"{amount}{_BIN_SUFFIX.get(exponent * 10, '')}"
    mantissa, exponent = _decimal(value)
    if fmt == "DecimalSI" and exponent in _DEC_SUFFIX:
        return f"{mantissa}{_DEC_SUFFIX[exponent]}"
    return f"{mantissa}e{exponent}" if exponent != 0 else str(mantissa)


def canonical_text(raw: Any, round_up_milli: bool = False) -> str | None:
    """The canonical text of a quantity written as ``raw`` (a JSON string or number), rounded up to milli units
    when ``round_up_milli``; None when it does not parse."""
    if isinstance(raw, bool) or not isinstance(raw, (str, int, float)):
        return None
    parsed = _value_and_format(str(raw))
    if parsed is None:
        return None
    value, fmt = parsed
    if round_up_milli:
        scaled = value * 1000
        whole = -((-scaled.numerator) // scaled.denominator) if scaled > 0 else -((-scaled).numerator // (-scaled).denominator)
        value = Fraction(whole, 1000)
    return canonical(value, fmt)
