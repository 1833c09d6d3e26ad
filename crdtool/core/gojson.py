"""Numbers as Go's ``encoding/json`` writes and reads them, and JSON text with Go's floats.

A Kubernetes manifest reaches the apiserver as JSON written by Go: kubectl
turns YAML into JSON with ``sigs.k8s.io/yaml`` (go-yaml v2 values, then
``json.Marshal``), and the apiserver decodes JSON numbers as ``int64`` when
the text is an integer that fits, else as ``float64``. So what a float
*means* depends on the text Go writes for it: ``1.0`` is written ``1`` and
read back as an int; ``-9223372036854775809`` (a float64 for go-yaml, as it
fits no int64 or uint64) is written with the shortest decimal digits that
round-trip, ``-9223372036854776000``, which fits no int64, so it stays a
float.

Mirrors ``encoding/json`` ``floatEncoder`` (``strconv.AppendFloat(b, f, 'f' or
'e', -1, 64)``, exponent form below 1e-6 and from 1e21, ``e-07`` trimmed to
``e-7``) and ``k8s.io/apimachinery/pkg/util/json`` number conversion
(``convertNumber``: ``Int64()`` first, then ``Float64()``).

Pure and light (standard library only): the CLI imports it at start-up.
"""

from __future__ import annotations

import json
import math
from decimal import Decimal
from typing import Any, Callable

__all__ = ["GoStruct", "go_json_dumps", "go_json_float", "go_json_marshal", "go_json_size", "json_number"]

_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1


def go_json_float(f: float) -> str:
    """The text ``encoding/json`` writes for the float64 ``f``.

    ``'f'`` format with the shortest digits that round-trip (``1.0`` ->
    ``1``, ``1e20`` -> ``100000000000000000000``, ``0.1`` -> ``0.1``), the
    ``'e'`` format below 1e-6 and from 1e21 (``1e-07`` -> ``1e-7``,
    ``1e21`` -> ``1e+21``). ``f`` must be finite (Go refuses NaN and
    infinities: ``json: unsupported value``).
    """
    a = abs(f)
    if a != 0 and (a < 1e-6 or a >= 1e21):
        sign, digits, exponent = Decimal(repr(f)).normalize().as_tuple()
        ds = "".join(str(d) for d in digits)
        exp10 = int(exponent) + len(ds) - 1
        mantissa = ds[0] + ("." + ds[1:] if len(ds) > 1 else "")
        # strconv 'e' writes at least two exponent digits; encoding/json trims "e-07" to "e-7".
        exp = f"{'-' if exp10 < 0 else '+'}{abs(exp10):02d}"
        if exp[0] == "-" and exp[1] == "0":
            exp = "-" + exp[2:]
        return f"{'-' if sign else ''}{mantissa}e{exp}"
    return format(Decimal(repr(f)).normalize(), "f")


def json_number(f: float) -> int | float:
    """The float64 ``f`` after ``json.Marshal`` and the apiserver's JSON decoding.

    An ``int`` when Go's text for ``f`` (:func:`go_json_float`) is an integer
    that fits int64 (``3.0`` -> ``3``, ``9.223372036854775e18`` ->
    ``9223372036854775000``), else ``f`` itself (the text parses back to the
    same float64). ``f`` must be finite.
    """
    text = go_json_float(f)
    body = text[1:] if text.startswith("-") else text
    if body.isdigit():
        n = int(text)
        if _INT64_MIN <= n <= _INT64_MAX:
            return n
    return f


def go_json_dumps(value: Any, indent: int | None = 2) -> str:
    """``json.dumps(value, indent=indent, ensure_ascii=False)`` with floats as Go writes them.

    In: plain JSON data (dict, list, str, int, float, bool, None; tuples as
    lists; anything else as ``str()``). Out: the same text Python's
    ``json.dumps`` gives, except every finite float is written by
    :func:`go_json_float` (``1e+20`` becomes ``100000000000000000000``,
    ``1e-07`` becomes ``1e-7``, ``2.0`` becomes ``2``); non-finite floats
    are written as strings (``"NaN"``, ``"+Inf"``). Key order is kept.
    Any nesting depth: containers nested deeper than :data:`_RECURSIVE_DEPTH` are written by the iterative
    :func:`_dumps_iterative` (the whole value's text is the same either way; tests/core/test_gojson.py
    compares them).
    """
    out: list[str] = []
    if indent is None:
        _write(value, 0, out, "", "", ", ")
    else:
        _write(value, 0, out, "\n", " " * indent, ",")
    return "".join(out)


#: How deep :func:`go_json_dumps` writes containers by recursion (faster), the rest iteratively.
_RECURSIVE_DEPTH = 100


def _write(v: Any, depth: int, out: list[str], newline: str, pad: str, item_sep: str) -> None:
    """``v``'s text at ``depth`` appended to ``out`` (as :func:`_dumps_iterative` writes it)."""
    t = type(v)
    if t is str:
        out.append(_encode_basestring(v))
        return
    is_map = t is dict or isinstance(v, dict)
    if not is_map and t is not list and not isinstance(v, (list, tuple)):
        out.append(_scalar(v))
    elif not v:
        out.append("{}" if is_map else "[]")
    elif depth >= _RECURSIVE_DEPTH:
        out.append(_dumps_iterative(v, newline, pad, item_sep, depth))
    else:
        inner = newline + pad * (depth + 1)
        sep = inner
        if is_map:
            out.append("{")
            for k, x in v.items():
                out.append(sep + (_encode_basestring(k) if type(k) is str else _json_key(k)) + ": ")
                sep = item_sep + inner
                _write(x, depth + 1, out, newline, pad, item_sep)
        else:
            out.append("[")
            for x in v:
                out.append(sep)
                sep = item_sep + inner
                _write(x, depth + 1, out, newline, pad, item_sep)
        out.append(newline + pad * depth + ("}" if is_map else "]"))


def _dumps_iterative(value: Any, newline: str, pad: str, item_sep: str, depth: int = 0) -> str:
    """:func:`go_json_dumps`' text of ``value`` at ``depth`` (its lines indented for that depth after the first),
    written with a stack of its own: any nesting depth."""
    out: list[str] = []
    # work items: a value with its depth, or literal text
    stack: list[tuple[bool, Any, int]] = [(False, value, depth)]
    while stack:
        literal, item, depth = stack.pop()
        if literal:
            out.append(item)
            continue
        if isinstance(item, dict):
            if not item:
                out.append("{}")
                continue
            inner = newline + pad * (depth + 1)
            pending: list[tuple[bool, Any, int]] = [(True, "{", 0)]
            for i, (k, v) in enumerate(item.items()):
                pending.append((True, (item_sep if i else "") + inner + _json_key(k) + ": ", 0))
                pending.append((False, v, depth + 1))
            pending.append((True, newline + pad * depth + "}", 0))
            stack.extend(reversed(pending))
        elif isinstance(item, (list, tuple)):
            if not item:
                out.append("[]")
                continue
            inner = newline + pad * (depth + 1)
            pending = [(True, "[", 0)]
            for i, v in enumerate(item):
                pending.append((True, (item_sep if i else "") + inner, 0))
                pending.append((False, v, depth + 1))
            pending.append((True, newline + pad * depth + "]", 0))
            stack.extend(reversed(pending))
        else:
            out.append(_scalar(item))
    return "".join(out)


def _scalar(v: Any) -> str:
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, int):
        return str(int(v))
    if isinstance(v, float):
        if math.isfinite(v):
            return go_json_float(v)
        return _json_str("NaN" if v != v else ("+Inf" if v > 0 else "-Inf"))
    return _json_str(v if isinstance(v, str) else str(v))


def _json_key(k: Any) -> str:
    """A mapping key as ``json.dumps`` converts it (``True`` -> ``"true"``, ``None`` -> ``"null"``)."""
    if isinstance(k, str):
        return _json_str(k)
    if k is None or isinstance(k, (bool, int, float)):
        return _json_str(_scalar(k).strip('"'))
    return _json_str(str(k))


def _json_str(s: str) -> str:
    # what json.dumps(s, ensure_ascii=False) returns, without building a JSONEncoder per string
    return _encode_basestring(s)


_encode_basestring: Callable[[str], str] = json.encoder.encode_basestring


class GoStruct(dict):  # type: ignore[type-arg]
    """A Go struct value for :func:`go_json_marshal`: its fields in declaration order.

    A plain ``dict`` stands for a Go map, whose keys ``json.Marshal`` sorts;
    a ``GoStruct`` keeps its order (the struct's field order), as ``json.Marshal``
    writes a struct. Build it with the JSON names Go would use (the field name
    itself for a type without ``json`` tags, e.g. apiextensions' internal types).
    """


_HTML_ESCAPES = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"}


def _go_json_str(s: str) -> str:
    """A string as ``encoding/json`` writes it (``encodeState.string`` with ``escapeHTML``)."""
    out = json.dumps(s, ensure_ascii=False)
    if any(c in s for c in "<>&\u2028\u2029"):
        out = "".join(_HTML_ESCAPES.get(c, c) for c in out)
    return out


def go_json_marshal(value: Any) -> str:
    """``json.Marshal(value)`` of Go: compact JSON as the apiserver writes it into messages.

    In: plain JSON data (dict = Go map: keys sorted; :class:`GoStruct` =
    struct: order kept; list/tuple; str, int, float, bool, None). Out: the
    text Go writes: no spaces, ``<``, ``>``, ``&``, U+2028 and U+2029
    escaped as ``\\u003c`` ... (``escapeHTML``), floats as
    :func:`go_json_float`; non-finite floats (which Go refuses to marshal)
    as quoted strings. Iterative: any nesting depth.

    Mirrors ``encoding/json`` ``Marshal`` (``mapEncoder`` sorts keys,
    ``structEncoder`` keeps field order), as ``field.Error.ErrorBody`` in
    ``k8s.io/apimachinery/pkg/util/validation/field/errors.go`` uses it.
    """
    out: list[str] = []
    stack: list[tuple[bool, Any]] = [(False, value)]
    while stack:
        literal, item = stack.pop()
        if literal:
            out.append(item)
            continue
        if isinstance(item, dict):
            keys = list(item) if isinstance(item, GoStruct) else sorted(item, key=str)
            pending: list[tuple[bool, Any]] = [(True, "{")]
            for i, k in enumerate(keys):
                pending.append((True, ("," if i else "") + _go_json_str(str(k) if not isinstance(k, str) else k) + ":"))
                pending.append((False, item[k]))
            pending.append((True, "}"))
            stack.extend(reversed(pending))
        elif isinstance(item, (list, tuple)):
            pending = [(True, "[")]
            for i, v in enumerate(item):
                if i:
                    pending.append((True, ","))
                pending.append((False, v))
            pending.append((True, "]"))
            stack.extend(reversed(pending))
        elif isinstance(item, str):
            out.append(_go_json_str(item))
        else:
            out.append(_scalar(item))
    return "".join(out)


def go_json_size(value: Any) -> int:
    """``len(go_json_marshal(value).encode("utf-8", "surrogatepass"))``, mostly computed by C code.

    In: plain JSON data. Out: the byte length of Go's compact JSON of ``value``. For dicts with
    ``str`` keys, lists, tuples, ``str``, ``int``, ``bool``, ``None`` and finite floats (the common case),
    that is the length of Python's compact ``json.dumps`` (the same string escapes as
    :func:`go_json_marshal`, key order aside, which does not change the length) plus Go's HTML escapes
    (``<``, ``>``, ``&``: 1 byte to 6; U+2028, U+2029: 3 bytes to 6; these characters only occur inside
    strings) and each float's text as Go writes it (:func:`go_json_float`) instead of ``repr``. Anything
    else is measured by :func:`go_json_marshal` itself. Raises nothing more than it does.
    """
    floats: list[float] = []
    stack: list[Any] = [value]
    plain = True
    while stack and plain:
        item = stack.pop()
        kind = type(item)
        if kind is dict:
            for k, v in item.items():
                tv = type(v)
                if type(k) is not str:
                    plain = False
                    break
                if tv is dict or tv is list or tv is tuple:
                    stack.append(v)
                elif tv is float:
                    floats.append(v)
                elif not (tv is str or tv is int or tv is bool or v is None):
                    plain = False
                    break
        elif kind is list or kind is tuple:
            for v in item:
                tv = type(v)
                if tv is dict or tv is list or tv is tuple:
                    stack.append(v)
                elif tv is float:
                    floats.append(v)
                elif not (tv is str or tv is int or tv is bool or v is None):
                    plain = False
                    break
        elif kind is float:
            floats.append(item)
        elif not (kind is str or kind is int or kind is bool or item is None):
            plain = False
    if not plain or not all(map(math.isfinite, floats)):
        return len(go_json_marshal(value).encode("utf-8", "surrogatepass"))
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    size = len(text.encode("utf-8", "surrogatepass"))
    size += 5 * (text.count("<") + text.count(">") + text.count("&")) + 3 * (text.count("\u2028") + text.count("\u2029"))
    return size + sum(len(go_json_float(f)) - len(repr(f)) for f in floats)
