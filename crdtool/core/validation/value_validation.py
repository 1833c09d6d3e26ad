"""OpenAPI v3 value validation of custom resources, as the apiserver does it.

Mirrors, on raw ``openAPIV3Schema`` dicts:

* ``k8s.io/apiextensions-apiserver/pkg/apiserver/validation/validation.go``:
  ``NewSchemaValidator`` (``ConvertJSONSchemaPropsWithPostProcess`` with
  ``StripUnsupportedFormatsPostProcessorForVersion``), ``ValidateCustomResource``
  and ``kubeOpenAPIResultToFieldErrors`` (kube-openapi errors -> ``field.Error``).
* ``k8s.io/kube-openapi/pkg/validation/validate``: ``SchemaValidator.Validate``
  with its validator chain (type, allOf/anyOf/oneOf/not, string, format,
  number, slice, enum, object), ``Result`` merging with message
  de-duplication and ``MatchCount`` (which picks the reported branch of a
  failing ``anyOf``/``oneOf``), and the error texts of
  ``pkg/validation/errors/schema.go``.
* ``k8s.io/apiextensions-apiserver/pkg/apiserver/schema/listtype/validation.go``:
  ``ValidateListSetsAndMaps``.

Regular expressions (``pattern``) are Go RE2 syntax. :func:`compile_go_regexp`
translates them to Python ``re`` (cached by pattern string) and reports Go's
``regexp.Compile`` errors for the common mistakes. Known differences:

* Unicode *scripts* (``\\p{Greek}``) cannot be expressed with ``unicodedata``;
  a pattern using one is treated as matching everything (never a false error).
* Python backtracks, RE2 does not: pathological patterns can be slow.
* Go's size limits (``expression too large``, nesting depth 1000) are not
  enforced.
"""

from __future__ import annotations

import functools
import math
import re
import unicodedata
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Iterable, Sequence

from crdtool.core.errors import (
    FieldError,
    Path,
    duplicate,
    go_float,
    go_quote,
    internal_error,
    invalid,
    not_supported,
    required,
    too_long,
    too_many,
    type_invalid,
)
from crdtool.core.gojson import go_json_float
from crdtool.core.kubecel.equality import go_kind as _go_kind
from crdtool.core.releases import DEFAULT_RELEASE, RELEASES, Release
from crdtool.core.schema.formats import (
    effective_format,
    is_known_format,
    validate_format,
)

__all__ = [
    "ValueRules",
    "value_rules",
    "validate_value",
    "validate_list_sets_and_maps",
    "compile_go_regexp",
    "python_regexp",
    "go_json_marshal",
]

Schema = dict[str, Any]

_IN = "body"
#: ``(*field.Path)(nil).String()``: the field of an error reported on a nil path.
NIL_PATH = "<nil>"
_INT64_MIN = -(1 << 63)
_INT64_MAX = (1 << 63) - 1

# kube-openapi errors codes (pkg/validation/errors/schema.go)
_COMPOSITE = 422
_INVALID_TYPE = 600
_REQUIRED = 601
_TOO_LONG = 602
_TOO_SHORT = 603
_PATTERN = 604
_ENUM = 605
_MULTIPLE_OF = 606
_MAX = 607
_MIN = 608
_UNIQUE = 609
_MAX_ITEMS = 610
_MIN_ITEMS = 611
_TOO_FEW_PROPS = 613
_TOO_MANY_PROPS = 614
_UNALLOWED_PROP = 615
_MULTIPLE_OF_POSITIVE = 617


# =============================================================================
# What changed between releases
# =============================================================================

#: github.com/go-openapi/swag ``IsFloat64AJSONInteger``: Kubernetes 1.30 - 1.36 build with swag v0.22.3 -
#: v0.23.0 (``convert.go``: relative error against the value truncated toward zero), 1.37
#: (apiextensions-apiserver ``go.mod@v0.37.0-beta.0``: swag v0.25.4) with ``conv/convert.go``'s algorithm
#: (relative error against the value rounded to the nearest integer, first in v0.24.0).
SWAG_ROUNDING_IS_INTEGER_SINCE = 37
#: kube-openapi ``validate/schema.go@43fb72c`` (Kubernetes 1.36) ``numberValidator()`` passes the schema's
#: type and format, so ``IsValueValidAgainstRange`` checks values and bounds against ``int32``/``int64``/
#: ``float`` (``Checked value must be of type integer ...``); with ``@70dd376`` … ``@589584f`` (1.30 - 1.35)
#: both were empty and nothing was ever out of range.
TYPED_NUMBER_RANGES_SINCE = 36


@dataclass(frozen=True)
class ValueRules:
    """How one Kubernetes release validates values, where releases differ.

    ``release``: the release (its string formats: :func:`crdtool.core.schema.formats.effective_format`);
    ``rounding_is_integer``: swag's newer ``IsFloat64AJSONInteger`` (:data:`SWAG_ROUNDING_IS_INTEGER_SINCE`);
    ``typed_number_ranges``: kube-openapi's range checks (:data:`TYPED_NUMBER_RANGES_SINCE`).
    """

    release: Release
    rounding_is_integer: bool
    typed_number_ranges: bool

    def is_json_integer(self, f: float) -> bool:
        """``swag.IsFloat64AJSONInteger`` of this release."""
        return _is_json_integer(f) if self.rounding_is_integer else _is_json_integer_truncating(f)


_RULES: dict[int, ValueRules] = {
    r.minor: ValueRules(r, r.minor >= SWAG_ROUNDING_IS_INTEGER_SINCE, r.minor >= TYPED_NUMBER_RANGES_SINCE)
    for r in RELEASES.values()
}


def value_rules(release: Release | None = None) -> ValueRules:
    """The :class:`ValueRules` of Kubernetes ``release`` (None: the default release)."""
    return _RULES[(release or DEFAULT_RELEASE).minor]


# =============================================================================
# Public API
# =============================================================================


def validate_value(value: Any, schema: Schema | None, path: Path | None, *, release: Release | None = None) -> list[FieldError]:
    """Validate a custom resource (or any JSON value) against a raw schema.

    Mirrors ``validation.ValidateCustomResource(fldPath, value, validator)``
    with ``validator = NewSchemaValidator(schema)`` (create semantics, no
    ratcheting): kube-openapi's ``SchemaValidator.Validate`` followed by
    ``kubeOpenAPIResultToFieldErrors``.

    Args:
        value: decoded JSON (dict/list/str/int/float/bool/None). Python ints
            outside int64 behave as Go's float64, as the apiserver decodes them.
        schema: an ``openAPIV3Schema`` dict, or None (no validation).
        path: the ``fldPath`` prefix of every error, or None for upstream's nil
            path, as the custom resource validator passes it
            (``ValidateCustomResource(nil, ...)``): field errors then start at
            the root (``spec.x``) and the errors kube-openapi reports without a
            field (failed ``anyOf``/``oneOf``/``allOf``/``not``, the number
            range checks of ``IsValueValidAgainstRange``) are at ``<nil>``.
        release: the Kubernetes release whose apiserver validates (None: the
            default release); see :class:`ValueRules`.

    Returns:
        FieldErrors in upstream order (properties in schema order where Go
        iterates a map), with the release's ``field.Error`` text. Never raises: a schema nested deeper than Python
        can recurse yields one ``InternalError``.
    """
    if schema is None or not isinstance(schema, dict):
        return []
    rules = value_rules(release)
    try:
        errs, _ = _validate(schema, "", value, rules)
    except RecursionError:
        return [internal_error(NIL_PATH if path is None else path, "schema or value nests too deeply to validate")]
    if not errs:
        return []
    return [_to_field_error(path, e).at_release(rules.release) for e in errs]


def validate_list_sets_and_maps(fld_path: Path, schema: Schema, obj: Any) -> list[FieldError]:
    """Uniqueness of ``x-kubernetes-list-type: set|map`` arrays in ``obj``.

    Mirrors ``listtype.ValidateListSetsAndMaps`` (apiextensions-apiserver
    ``pkg/apiserver/schema/listtype/validation.go``): ``obj`` is an object
    validated against the object schema ``schema``. Reports
    ``FieldValueDuplicate`` for the first repeat of each duplicated set item
    or map key, ``FieldValueInvalid`` ("must be an object for an array of
    list-type map") for non-object map-list items. Scalars compare by Go type
    (``1`` and ``1.0`` differ), compounds by their JSON encoding.
    """
    if not isinstance(schema, dict) or not isinstance(obj, dict):
        return []
    try:
        return _ls_object(fld_path, schema, obj)
    except RecursionError:
        return [internal_error(fld_path, "schema or value nests too deeply to validate")]


# =============================================================================
# Go value helpers
# =============================================================================


def _go_num(v: Any) -> Any:
    """A Python int outside int64 is a float64 after the apiserver decodes JSON."""
    if type(v) is int and not _INT64_MIN <= v <= _INT64_MAX:
        try:
            return float(v)
        except OverflowError:
            return math.inf if v > 0 else -math.inf
    return v


def _go_f2i(f: float) -> int:
    """Go ``int64(f)``: truncation; out of range (and NaN) is MinInt64 on amd64."""
    if f != f or not (-9.223372036854775808e18 <= f < 9.223372036854775808e18):
        return _INT64_MIN
    return int(f)


def _go_deep_equal(a: Any, b: Any) -> bool:
    """``reflect.DeepEqual`` of two decoded JSON values (types must match)."""
    ka, kb = _go_kind(a), _go_kind(b)
    if ka != kb:
        return False
    if ka == "map":
        if len(a) != len(b):
            return False
        for k, v in a.items():
            if k not in b or not _go_deep_equal(v, b[k]):
                return False
        return True
    if ka == "slice":
        if len(a) != len(b):
            return False
        return all(_go_deep_equal(x, y) for x, y in zip(a, b))
    if ka in ("int", "float"):
        return bool(_go_num(a) == _go_num(b))
    return bool(a == b)


def _go_rune_string(i: int) -> str:
    if 0 <= i <= 0x10FFFF and not 0xD800 <= i <= 0xDFFF:
        return chr(i)
    return "\ufffd"


def _enum_match(data: Any, ev: Any) -> bool:
    """``reflect`` ConvertibleTo + Convert + DeepEqual, as basicCommonValidator does."""
    if ev is None or data is None:
        return False
    kd, ke = _go_kind(data), _go_kind(ev)
    if kd == ke:
        return _go_deep_equal(data, ev)
    if kd == "int" and ke == "float":
        return bool(float(data) == _go_num(ev))
    if kd == "float" and ke == "int":
        return bool(_go_f2i(_go_num(data)) == ev)
    if kd == "int" and ke == "string":
        return bool(_go_rune_string(data) == ev)
    return False


_JSON_ESCAPES = {
    '"': '\\"',
    "\\": "\\\\",
    "\b": "\\b",
    "\f": "\\f",
    "\n": "\\n",
    "\r": "\\r",
    "\t": "\\t",
    "<": "\\u003c",
    ">": "\\u003e",
    "&": "\\u0026",
    "\u2028": "\\u2028",
    "\u2029": "\\u2029",
}
_JSON_NEEDS_ESCAPE = re.compile('["\\\\<>&\u2028\u2029\x00-\x1f\ud800-\udfff]')


def _go_json_string(s: str) -> str:
    def repl(m: re.Match[str]) -> str:
        c = m.group(0)
        esc = _JSON_ESCAPES.get(c)
        if esc is not None:
            return esc
        if "\ud800" <= c <= "\udfff":
            return "\ufffd"
        return f"\\u{ord(c):04x}"

    return '"' + _JSON_NEEDS_ESCAPE.sub(repl, s) + '"'


def _go_json_float(f: float) -> str:
    if f != f or f in (math.inf, -math.inf):
        raise ValueError(f"json: unsupported value: {go_float(f)}")
    return go_json_float(f)


class _Lit(str):
    """Literal JSON text queued by :func:`go_json_marshal` (not a value)."""

    __slots__ = ()


def go_json_marshal(v: Any) -> str:
    """Go ``encoding/json.Marshal`` of a decoded JSON value.

    Map keys sorted, HTML-safe escaping (``<`` -> ``\\u003c``), floats in Go's
    shortest form (``1.0`` -> ``1``, ``1e21`` -> ``1e+21``). Raises ValueError
    for NaN/Inf, as Go does. Iterative: any nesting depth is fine.
    """
    out: list[str] = []
    stack: list[Any] = [v]
    while stack:
        item = stack.pop()
        if type(item) is _Lit:
            out.append(item)
            continue
        k = _go_kind(item)
        if k == "nil":
            out.append("null")
        elif k == "bool":
            out.append("true" if item else "false")
        elif k == "int":
            out.append(str(int(item)))
        elif k == "float":
            out.append(_go_json_float(float(_go_num(item))))
        elif k == "string":
            out.append(_go_json_string(item))
        elif k == "slice":
            stack.append(_Lit("]"))
            for i in range(len(item) - 1, -1, -1):
                stack.append(item[i])
                if i:
                    stack.append(_Lit(","))
            stack.append(_Lit("["))
        elif k == "map":
            pairs = sorted((str(key), val) for key, val in item.items())
            stack.append(_Lit("}"))
            for i in range(len(pairs) - 1, -1, -1):
                key, val = pairs[i]
                stack.append(val)
                stack.append(_Lit(_go_json_string(key) + ":"))
                if i:
                    stack.append(_Lit(","))
            stack.append(_Lit("{"))
        else:
            out.append(_go_json_string(str(item)))
    return "".join(out)


def _go_fmt_v(v: Any) -> str:
    """Go ``%v`` of a decoded JSON value (only used for message de-duplication)."""
    k = _go_kind(v)
    if k == "nil":
        return "<nil>"
    if k == "bool":
        return "true" if v else "false"
    if k == "int":
        return str(v)
    if k == "float":
        return go_float(float(_go_num(v)))
    if k == "string":
        return str(v)
    if k == "slice":
        return "[" + " ".join(_go_fmt_v(x) for x in v) + "]"
    if k == "map":
        return "map[" + " ".join(f"{key}:{_go_fmt_v(v[key])}" for key in sorted(v)) + "]"
    return str(v)


def _is_json_integer(f: float) -> bool:
    """go-openapi ``swag.IsFloat64AJSONInteger`` of swag v0.24+ (``conv/convert.go@conv/v0.25.4``; Kubernetes 1.37).

    ``|f - Round(f)| < 1e-9 * |Round(f)|``, with Go's ``math.Round`` (halves away from zero).
    """
    if f != f or f in (math.inf, -math.inf) or f < -9007199254740991.0 or f > 9007199254740991.0:
        return False
    rounded = _go_round(f)
    if f == rounded:
        return True
    if rounded == 0:
        return False
    diff = abs(f - rounded)
    if diff == 0:
        return True
    return diff < 1e-9 * abs(rounded)


def _go_round(f: float) -> float:
    """Go's ``math.Round``: the nearest integer, halves away from zero (Python's ``round`` goes to even)."""
    t = float(math.trunc(f))
    if abs(f - t) >= 0.5:  # f - t is exact
        t += math.copysign(1.0, f)
    return t


def _is_json_integer_truncating(f: float) -> bool:
    """go-openapi ``swag.IsFloat64AJSONInteger`` of swag v0.22 - v0.23 (``convert.go@v0.23.0``; Kubernetes 1.30 - 1.36).

    Compares ``f`` with ``g = float64(uint64(f))``: ``f`` truncated toward zero for ``f >= 0``; for a
    negative ``f`` Go's conversion is implementation-defined (amd64 wraps through int64, arm64 gives 0),
    and either way a negative non-integer is not an integer, a negative integer is (``f ==
    float64(int64(f))``). A positive non-integer passes when ``(f - g) / (f + g) < 1e-9`` (never below 1,
    where ``g`` is 0).
    """
    if f != f or f in (math.inf, -math.inf) or f < -9007199254740991.0 or f > 9007199254740991.0:
        return False
    g = float(math.trunc(f))  # float64(int64(f)); float64(uint64(f)) for f >= 0
    if f == g:
        return True
    if f < 0 or g == 0:
        return False
    return (f - g) / min(f + g, 1.7976931348623157e308) < 1e-9


# =============================================================================
# Go RE2 -> Python re
# =============================================================================


class _RegexpError(Exception):
    """A Go ``regexp/syntax`` error: ``error parsing regexp: CODE: `EXPR```."""

    def __init__(self, code: str, expr: str) -> None:
        super().__init__(f"error parsing regexp: {code}: `{expr}`")


class _Unsupported(Exception):
    """Valid Go syntax we cannot express in Python ``re`` (Unicode scripts)."""


_ERR_MISSING_BRACKET = "missing closing ]"
_ERR_MISSING_PAREN = "missing closing )"
_ERR_UNEXPECTED_PAREN = "unexpected )"
_ERR_INVALID_ESCAPE = "invalid escape sequence"
_ERR_INVALID_CHAR_RANGE = "invalid character class range"
_ERR_INVALID_PERL_OP = "invalid or unsupported Perl syntax"
_ERR_INVALID_NAMED_CAPTURE = "invalid named capture"
_ERR_INVALID_REPEAT_OP = "invalid nested repetition operator"
_ERR_INVALID_REPEAT_SIZE = "invalid repeat count"
_ERR_MISSING_REPEAT_ARG = "missing argument to repetition operator"
_ERR_TRAILING_BACKSLASH = "trailing backslash at end of expression"

_MAX_RUNE = 0x10FFFF
Ranges = list[tuple[int, int]]

_PERL_GROUPS: dict[str, tuple[int, Ranges]] = {
    "\\d": (+1, [(0x30, 0x39)]),
    "\\D": (-1, [(0x30, 0x39)]),
    "\\s": (+1, [(0x09, 0x0A), (0x0C, 0x0D), (0x20, 0x20)]),
    "\\S": (-1, [(0x09, 0x0A), (0x0C, 0x0D), (0x20, 0x20)]),
    "\\w": (+1, [(0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A)]),
    "\\W": (-1, [(0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A)]),
}

_POSIX_BASE: dict[str, Ranges] = {
    "alnum": [(0x30, 0x39), (0x41, 0x5A), (0x61, 0x7A)],
    "alpha": [(0x41, 0x5A), (0x61, 0x7A)],
    "ascii": [(0x00, 0x7F)],
    "blank": [(0x09, 0x09), (0x20, 0x20)],
    "cntrl": [(0x00, 0x1F), (0x7F, 0x7F)],
    "digit": [(0x30, 0x39)],
    "graph": [(0x21, 0x7E)],
    "lower": [(0x61, 0x7A)],
    "print": [(0x20, 0x7E)],
    "punct": [(0x21, 0x2F), (0x3A, 0x40), (0x5B, 0x60), (0x7B, 0x7E)],
    "space": [(0x09, 0x0D), (0x20, 0x20)],
    "upper": [(0x41, 0x5A)],
    "word": [(0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A)],
    "xdigit": [(0x30, 0x39), (0x41, 0x46), (0x61, 0x66)],
}

_GO_CATEGORIES = frozenset(
    {
        "C", "Cc", "Cf", "Co", "Cs", "L", "Ll", "Lm", "Lo", "Lt", "Lu", "M", "Mc", "Me", "Mn",
        "N", "Nd", "Nl", "No", "P", "Pc", "Pd", "Pe", "Pf", "Pi", "Po", "Ps",
        "S", "Sc", "Sk", "Sm", "So", "Z", "Zl", "Zp", "Zs",
    }
)


@functools.lru_cache(maxsize=1)
def _unicode_categories() -> dict[str, tuple[tuple[int, int], ...]]:
    """Ranges of every two-letter Unicode general category, built in one pass."""
    acc: dict[str, Ranges] = {}
    prev_cat = ""
    start = 0
    for cp in range(_MAX_RUNE + 2):
        cat = unicodedata.category(chr(cp)) if cp <= _MAX_RUNE else ""
        if cat != prev_cat:
            if prev_cat:
                acc.setdefault(prev_cat, []).append((start, cp - 1))
            prev_cat = cat
            start = cp
    return {k: tuple(v) for k, v in acc.items()}


@functools.lru_cache(maxsize=None)
def _category_ranges(name: str) -> tuple[tuple[int, int], ...]:
    """Code point ranges of a Go ``unicode.Categories`` entry (or ``Any``).

    A one-letter name is the union of its two-letter categories; as in Go,
    ``C`` does not include unassigned code points (``Cn``).
    """
    if name == "Any":
        return ((0, _MAX_RUNE),)
    cats = _unicode_categories()
    if len(name) == 2:
        return cats.get(name, ())
    merged: Ranges = []
    for cat, ranges in cats.items():
        if cat[0] == name and cat != "Cn":
            merged.extend(ranges)
    return tuple(_normalize(merged))


def _negate(ranges: Ranges) -> Ranges:
    out: Ranges = []
    nxt = 0
    for lo, hi in _normalize(ranges):
        if lo > nxt:
            out.append((nxt, lo - 1))
        nxt = hi + 1
    if nxt <= _MAX_RUNE:
        out.append((nxt, _MAX_RUNE))
    return out


def _normalize(ranges: Iterable[tuple[int, int]]) -> Ranges:
    out: Ranges = []
    for lo, hi in sorted(ranges):
        if out and lo <= out[-1][1] + 1:
            if hi > out[-1][1]:
                out[-1] = (out[-1][0], hi)
        else:
            out.append((lo, hi))
    return out


def _esc_cp(cp: int) -> str:
    if cp <= 0xFF:
        return f"\\x{cp:02x}"
    if cp <= 0xFFFF:
        return f"\\u{cp:04x}"
    return f"\\U{cp:08x}"


def _class_source(ranges: Ranges, negate: bool) -> str:
    ranges = _normalize(ranges)
    if negate:
        ranges = _negate(ranges)
    if not ranges:
        return "(?!)"
    body = "".join(_esc_cp(lo) if lo == hi else f"{_esc_cp(lo)}-{_esc_cp(hi)}" for lo, hi in ranges)
    return f"[{body}]"


_WORD = "[0-9A-Za-z_]"
_WORD_BOUNDARY = f"(?:(?<={_WORD})(?!{_WORD})|(?<!{_WORD})(?={_WORD}))"
_NOT_WORD_BOUNDARY = f"(?:(?<={_WORD})(?={_WORD})|(?<!{_WORD})(?!{_WORD}))"


class _Flags:
    __slots__ = ("fold", "dotnl", "multiline", "ungreedy")

    def __init__(self, fold: bool = False, dotnl: bool = False, multiline: bool = False, ungreedy: bool = False):
        self.fold = fold
        self.dotnl = dotnl
        self.multiline = multiline
        self.ungreedy = ungreedy

    def copy(self) -> _Flags:
        return _Flags(self.fold, self.dotnl, self.multiline, self.ungreedy)


class _Translator:
    """A single pass over a Go regexp emitting equivalent Python ``re`` source."""

    def __init__(self, pattern: str) -> None:
        self.whole = pattern
        self.t = pattern
        self.out: list[str] = []
        self.flags = _Flags()
        # one entry per open paren: flags to restore at ")"
        self.stack: list[_Flags] = []
        # "none" (nothing to repeat), "atom", or "repeat" (a repetition just ended)
        self.last = "none"
        self.last_repeat = ""  # Go's lastRepeat: text from the previous repeat op

    def translate(self) -> str:
        while self.t:
            repeat_text = ""
            c = self.t[0]
            if c == "(":
                self._open_paren()
            elif c == "|":
                self.out.append("|")
                self.t = self.t[1:]
                self.last = "none"
            elif c == ")":
                if not self.stack:
                    raise _RegexpError(_ERR_UNEXPECTED_PAREN, self.whole)
                self.flags = self.stack.pop()
                self.out.append(")")
                self.t = self.t[1:]
                self.last = "atom"
            elif c == "^":
                self._atom("(?m:^)" if self.flags.multiline else "(?:\\A)")
                self.t = self.t[1:]
            elif c == "$":
                self._atom("(?m:$)" if self.flags.multiline else "(?:\\Z)")
                self.t = self.t[1:]
            elif c == ".":
                self._atom("(?s:.)" if self.flags.dotnl else ".")
                self.t = self.t[1:]
            elif c == "[":
                self._atom(self._parse_class())
            elif c in "*+?":
                repeat_text = self._repeat(c, 1)
            elif c == "{":
                rep = self._parse_repeat_braces(self.t)
                if rep is None:
                    self._literal("{")
                    self.t = self.t[1:]
                else:
                    lo, hi, n = rep
                    if lo < 0 or lo > 1000 or hi > 1000 or (hi >= 0 and lo > hi):
                        raise _RegexpError(_ERR_INVALID_REPEAT_SIZE, self.t[:n])
                    op = "{%d}" % lo if hi == lo else ("{%d,}" % lo if hi < 0 else "{%d,%d}" % (lo, hi))
                    repeat_text = self._repeat(op, n)
            elif c == "\\":
                self._backslash()
            else:
                self._literal(c)
                self.t = self.t[1:]
            self.last_repeat = repeat_text
        if self.stack:
            raise _RegexpError(_ERR_MISSING_PAREN, self.whole)
        return "".join(self.out)

    # --- atoms -------------------------------------------------------------

    def _atom(self, src: str) -> None:
        self.out.append(src)
        self.last = "atom"

    def _literal(self, ch: str) -> None:
        src = re.escape(ch)
        if self.flags.fold and ch.lower() != ch.upper():
            src = f"(?i:{src})"
        self._atom(src)

    def _class_atom(self, ranges: Ranges, negate: bool) -> None:
        src = _class_source(ranges, negate)
        if self.flags.fold:
            src = f"(?i:{src})"
        self._atom(src)

    # --- repetition --------------------------------------------------------

    def _repeat(self, op: str, consumed: int) -> str:
        before = self.t
        after = self.t[consumed:]
        lazy = False
        if after.startswith("?"):
            after = after[1:]
            lazy = True
        if self.last_repeat:
            raise _RegexpError(_ERR_INVALID_REPEAT_OP, self.last_repeat[: len(self.last_repeat) - len(after)])
        if self.last == "none":
            raise _RegexpError(_ERR_MISSING_REPEAT_ARG, before[: len(before) - len(after)])
        if self.flags.ungreedy:
            lazy = not lazy
        self.out.append(op + ("?" if lazy else ""))
        self.t = after
        self.last = "repeat"
        return before

    @staticmethod
    def _parse_int(s: str) -> tuple[int, str] | None:
        if not s or not s[0].isdigit() or not s[0].isascii():
            return None
        if len(s) >= 2 and s[0] == "0" and s[1] in "0123456789":
            return None
        i = 0
        while i < len(s) and s[i] in "0123456789":
            i += 1
        digits = s[:i]
        value = -1 if len(digits) > 8 else int(digits)
        return value, s[i:]

    def _parse_repeat_braces(self, s: str) -> tuple[int, int, int] | None:
        """Go ``parseRepeat``: (min, max, consumed) or None when ``{`` is literal."""
        rest = s[1:]
        got = self._parse_int(rest)
        if got is None:
            return None
        lo, rest = got
        if not rest:
            return None
        if rest[0] != ",":
            hi = lo
        else:
            rest = rest[1:]
            if not rest:
                return None
            if rest[0] == "}":
                hi = -1
            else:
                got = self._parse_int(rest)
                if got is None:
                    return None
                hi, rest = got
                if hi < 0:
                    lo = -1
        if not rest or rest[0] != "}":
            return None
        rest = rest[1:]
        return lo, hi, len(s) - len(rest)

    # --- groups --------------------------------------------------------------

    def _open_paren(self) -> None:
        t = self.t
        if len(t) >= 2 and t[1] == "?":
            self._perl_flags()
            return
        self.stack.append(self.flags.copy())
        self.out.append("(?:")
        self.t = t[1:]
        self.last = "none"

    def _perl_flags(self) -> None:
        s = self.t
        if (len(s) > 4 and s[2] == "P" and s[3] == "<") or (len(s) > 3 and s[2] == "<"):
            begin = 4 if s[2] == "P" else 3
            end = s.find(">")
            if end < 0:
                raise _RegexpError(_ERR_INVALID_NAMED_CAPTURE, s)
            name = s[begin:end]
            if not name or not all(ch == "_" or (ch.isascii() and ch.isalnum()) for ch in name):
                raise _RegexpError(_ERR_INVALID_NAMED_CAPTURE, s[: end + 1])
            self.stack.append(self.flags.copy())
            self.out.append("(?:")
            self.t = s[end + 1 :]
            self.last = "none"
            return
        t = s[2:]
        flags = self.flags.copy()
        sign = 1
        saw_flag = False
        while t:
            c, t = t[0], t[1:]
            if c == "i":
                flags.fold = sign > 0
                saw_flag = True
            elif c == "m":
                flags.multiline = sign > 0
                saw_flag = True
            elif c == "s":
                flags.dotnl = sign > 0
                saw_flag = True
            elif c == "U":
                flags.ungreedy = sign > 0
                saw_flag = True
            elif c == "-":
                if sign < 0:
                    break
                sign = -1
                saw_flag = False
            elif c in ":)":
                if sign < 0 and not saw_flag:
                    break
                if c == ":":
                    self.stack.append(self.flags.copy())
                    self.out.append("(?:")
                    self.last = "none"
                self.flags = flags
                self.t = t
                return
            else:
                break
        raise _RegexpError(_ERR_INVALID_PERL_OP, s[: len(s) - len(t)])

    # --- escapes -------------------------------------------------------------

    def _backslash(self) -> None:
        t = self.t
        if len(t) >= 2:
            c = t[1]
            if c == "A":
                self._atom("(?:\\A)")
                self.t = t[2:]
                return
            if c == "z":
                self._atom("(?:\\Z)")
                self.t = t[2:]
                return
            if c == "b":
                self._atom(_WORD_BOUNDARY)
                self.t = t[2:]
                return
            if c == "B":
                self._atom(_NOT_WORD_BOUNDARY)
                self.t = t[2:]
                return
            if c == "C":
                raise _RegexpError(_ERR_INVALID_ESCAPE, t[:2])
            if c == "Q":
                lit, sep, rest = t[2:].partition("\\E")
                for ch in lit:
                    self._literal(ch)
                self.t = rest
                return
            if c in "pP":
                ranges, negate, rest = self._unicode_class(t)
                self._class_atom(ranges, negate)
                self.t = rest
                return
            group = _PERL_GROUPS.get(t[:2])
            if group is not None:
                sign, ranges = group
                self._class_atom(list(ranges), sign < 0)
                self.t = t[2:]
                return
        r, rest = self._parse_escape(t)
        self._literal(chr(r))
        self.t = rest

    def _parse_escape(self, s: str) -> tuple[int, str]:
        """Go ``parseEscape``: the escaped rune and the rest of the input."""
        t = s[1:]
        if not t:
            raise _RegexpError(_ERR_TRAILING_BACKSLASH, "")
        c, t = t[0], t[1:]
        if c.isascii() and not c.isalnum():
            return ord(c), t
        if c in "01234567":
            if c != "0" and (not t or not "0" <= t[0] <= "7"):
                # a single non-zero digit is a backreference: unsupported
                raise _RegexpError(_ERR_INVALID_ESCAPE, s[: len(s) - len(t)])
            r = ord(c) - 48
            for _ in range(2):
                if not t or not "0" <= t[0] <= "7":
                    break
                r = r * 8 + ord(t[0]) - 48
                t = t[1:]
            return r, t
        if c == "x" and t:
            return self._hex_escape(s, t)
        simple = {"a": 7, "f": 12, "n": 10, "r": 13, "t": 9, "v": 11}
        if c in simple:
            return simple[c], t
        raise _RegexpError(_ERR_INVALID_ESCAPE, s[: len(s) - len(t)])

    @staticmethod
    def _hex_escape(s: str, t: str) -> tuple[int, str]:
        """``\\xHH`` or ``\\x{H...}``; ``t`` is the text after ``\\x``."""
        hexdigits = "0123456789abcdefABCDEF"
        c, t = t[0], t[1:]
        if c == "{":
            nhex = 0
            r = 0
            while True:
                if not t:
                    raise _RegexpError(_ERR_INVALID_ESCAPE, s[: len(s) - len(t)])
                c, t = t[0], t[1:]
                if c == "}":
                    break
                if c not in hexdigits:
                    raise _RegexpError(_ERR_INVALID_ESCAPE, s[: len(s) - len(t)])
                r = r * 16 + int(c, 16)
                if r > _MAX_RUNE:
                    raise _RegexpError(_ERR_INVALID_ESCAPE, s[: len(s) - len(t)])
                nhex += 1
            if nhex == 0:
                raise _RegexpError(_ERR_INVALID_ESCAPE, s[: len(s) - len(t)])
            return r, t
        if not t:
            raise _RegexpError(_ERR_INVALID_ESCAPE, s[: len(s) - len(t)])
        c2, t = t[0], t[1:]
        if c not in hexdigits or c2 not in hexdigits:
            raise _RegexpError(_ERR_INVALID_ESCAPE, s[: len(s) - len(t)])
        return int(c + c2, 16), t

    def _unicode_class(self, s: str) -> tuple[Ranges, bool, str]:
        """Go ``parseUnicodeClass`` for ``\\pL``, ``\\p{Greek}``, ``\\P{^L}``."""
        negate = s[1] == "P"
        t = s[2:]
        if t[:1] != "{":
            seq_len = 3 if t else 2
            name = t[:1]
            rest = t[1:]
        else:
            end = s.find("}")
            if end < 0:
                raise _RegexpError(_ERR_INVALID_CHAR_RANGE, s)
            seq_len = end + 1
            name = s[3:end]
            rest = s[end + 1 :]
        if name.startswith("^"):
            negate = not negate
            name = name[1:]
        if name == "Any" or name in _GO_CATEGORIES:
            return list(_category_ranges(name)), negate, rest
        if name and name[0].isupper() and name.isascii() and name.replace("_", "").isalpha():
            # Unicode script names (Latin, Greek, Han, ...): valid in Go.
            raise _Unsupported(s[:seq_len])
        raise _RegexpError(_ERR_INVALID_CHAR_RANGE, s[:seq_len])

    # --- classes -------------------------------------------------------------

    def _parse_class(self) -> str:
        whole = self.t
        t = whole[1:]
        negate = False
        if t.startswith("^"):
            negate = True
            t = t[1:]
        ranges: Ranges = []
        first = True
        while not t or t[0] != "]" or first:
            first = False
            if len(t) > 2 and t[0] == "[" and t[1] == ":":
                i = t.find(":]", 2)
                if i >= 0:
                    name = t[: i + 2]
                    inner = name[2:-2]
                    neg = inner.startswith("^")
                    base = _POSIX_BASE.get(inner[1:] if neg else inner)
                    if base is None:
                        raise _RegexpError(_ERR_INVALID_CHAR_RANGE, name)
                    ranges.extend(_negate(base) if neg else base)
                    t = t[i + 2 :]
                    continue
            if len(t) >= 2 and t[0] == "\\" and t[1] in "pP":
                rs, neg, t = self._unicode_class(t)
                ranges.extend(_negate(rs) if neg else rs)
                continue
            group = _PERL_GROUPS.get(t[:2]) if t[:1] == "\\" else None
            if group is not None:
                sign, rs = group
                ranges.extend(_negate(rs) if sign < 0 else rs)
                t = t[2:]
                continue
            rng_start = t
            lo, t = self._class_char(t, whole)
            hi = lo
            if len(t) >= 2 and t[0] == "-" and t[1] != "]":
                t = t[1:]
                hi, t = self._class_char(t, whole)
                if hi < lo:
                    raise _RegexpError(_ERR_INVALID_CHAR_RANGE, rng_start[: len(rng_start) - len(t)])
            ranges.append((lo, hi))
        self.t = t[1:]
        src = _class_source(ranges, negate)
        if self.flags.fold:
            src = f"(?i:{src})"
        return src

    def _class_char(self, s: str, whole: str) -> tuple[int, str]:
        if not s:
            raise _RegexpError(_ERR_MISSING_BRACKET, whole)
        if s[0] == "\\":
            return self._parse_escape(s)
        return ord(s[0]), s[1:]


class CompiledGoRegexp:
    """A compiled Go regexp; ``search`` is Go's ``MatchString``.

    The matcher is RE2 (google-re2) when it accepts the pattern: Go's regexp
    follows RE2's syntax and semantics, and RE2 runs in linear time, so a
    hostile ``pattern`` such as ``^(a+)+$`` cannot hang validation. Without
    RE2 the pattern's Python translation is used.
    """

    __slots__ = ("pattern", "_rx", "_match", "_anchor")

    def __init__(self, pattern: str, rx: Any) -> None:
        self.pattern = pattern
        self._rx = rx
        self._match, self._anchor = _re2_matcher(rx)

    def search(self, s: str) -> bool:
        """Unanchored match, like Go ``(*Regexp).MatchString``."""
        if self._rx is None:  # a construct we cannot express: never a false error
            return True
        if self._match is not None:
            try:
                b = s.encode("utf-8")
            except UnicodeEncodeError:
                pass
            else:
                return bool(self._match(self._anchor, b, 0, len(b))[0][0] != -1)
        return self._rx.search(s) is not None


def _re2_matcher(rx: Any) -> tuple[Any, Any]:
    """google-re2's own ``RE2.Match`` of a compiled pattern and its unanchored mode, or ``(None, None)``.

    ``re2._Regexp.search`` builds a match object and maps every group's byte
    offsets back to characters in Python (several microseconds); a yes/no
    answer needs only the C++ ``Match`` on the UTF-8 bytes (the text RE2
    and Go's regexp both match). Private API of google-re2: anything
    unexpected falls back to ``search``.
    """
    try:
        import re2

        match = rx._regexp.Match
        anchor = re2._Anchor.UNANCHORED
        if match(anchor, b"", 0, 0)[0] not in ((-1, -1), (0, 0)):
            return None, None
    except Exception:  # noqa: BLE001 - not google-re2, or another version of its internals
        return None, None
    return match, anchor


@functools.lru_cache(maxsize=4096)
def compile_go_regexp(pattern: str) -> CompiledGoRegexp | str:
    """Compile a Go (RE2) regexp once; cached by pattern string.

    Returns a :class:`CompiledGoRegexp`, or the Go ``regexp.Compile`` error
    text (``error parsing regexp: missing argument to repetition operator: `+```)
    when Go would reject the pattern.
    """
    from crdtool.core.gostd import go_regexp_error

    # one verdict on the syntax for CRD validation and value validation alike
    syntax_error = go_regexp_error(pattern)
    if syntax_error is not None:
        return syntax_error
    src: str | None
    try:
        src = _Translator(pattern).translate()
    except (_RegexpError, _Unsupported, RecursionError):
        src = None
    rx2 = _re2_compile(pattern)
    if rx2 is not None:
        return CompiledGoRegexp(pattern, rx2)
    if src is None:
        return CompiledGoRegexp(pattern, None)
    try:
        return CompiledGoRegexp(pattern, re.compile(src))
    except (re.error, OverflowError, RecursionError):
        # Valid for Go (we checked its syntax) but not expressible here.
        return CompiledGoRegexp(pattern, None)


@functools.lru_cache(maxsize=1024)
def python_regexp(pattern: str) -> re.Pattern[str] | None:
    """A Go pattern translated to a Python ``re`` pattern, or None when it cannot be expressed.

    For generating strings that match (hypothesis ``from_regex``); matching
    itself goes through :func:`compile_go_regexp`.
    """
    try:
        src = _Translator(pattern).translate()
    except (_RegexpError, _Unsupported, RecursionError):
        return None
    try:
        return re.compile(src)
    except (re.error, OverflowError, RecursionError):
        return None


def _re2_compile(pattern: str) -> Any:
    """The pattern compiled by RE2 (the engine Go's regexp follows), or None."""
    try:
        import re2
    except ImportError:  # pragma: no cover - google-re2 is a dependency
        return None
    options = re2.Options()
    options.log_errors = False
    options.never_capture = True  # only whether it matches is asked: no submatch tracking
    try:
        return re2.compile(pattern, options)
    except Exception:  # noqa: BLE001 - re2.error and friends: fall back to the translation
        return None


# =============================================================================
# kube-openapi SchemaValidator on raw schema dicts
# =============================================================================


class _E:
    """One kube-openapi error (``errors.Validation`` or a composite ``apiError``)."""

    __slots__ = ("code", "name", "value", "message", "valid", "values")

    def __init__(
        self,
        code: int,
        name: str | None,
        message: str,
        value: Any = None,
        valid: Any = None,
        values: Sequence[Any] | None = None,
    ) -> None:
        self.code = code
        self.name = name
        self.value = value
        self.message = message
        self.valid = valid
        self.values = values


Errs = list[_E] | None


def _add(errs: Errs, new: Iterable[_E] | None) -> Errs:
    """``Result.AddErrors``/``Merge``: append, skipping already reported messages."""
    if not new:
        return errs
    if errs is None:
        errs = []
    for e in new:
        if any(x.message == e.message for x in errs):
            continue
        errs.append(e)
    return errs


def _types_of(s: Schema) -> tuple[str, ...]:
    if s.get("x-kubernetes-int-or-string") is True:
        return ("integer", "string")
    t = s.get("type")
    if isinstance(t, str) and t:
        return (t,)
    return ()


def _schema_info(kind: str) -> tuple[str, str]:
    """kube-openapi ``typeValidator.schemaInfoForType`` for decoded JSON."""
    return {
        "bool": ("boolean", ""),
        "string": ("string", ""),
        "int": ("integer", "int64"),
        "float": ("number", "float64"),
        "slice": ("array", ""),
        "map": ("object", ""),
    }.get(kind, ("", ""))


def _invalid_type(name: str, type_name: str, value: Any) -> _E:
    if isinstance(value, str):
        msg = f"{name} in {_IN} must be of type {type_name}: {go_quote(value)}"
    else:
        msg = f"{name} in {_IN} must be of type {type_name}"
    return _E(_INVALID_TYPE, name, msg, value)


def _type_validate(
    types: tuple[str, ...], nullable: bool, fmt: str, name: str, data: Any, kind: str, r: ValueRules
) -> tuple[Errs, int]:
    """kube-openapi ``typeValidator.Validate``: (errors, match count)."""
    if data is None:
        if types and "null" not in types and not nullable:
            return [_invalid_type(name, ",".join(types), "null")], 0
        return None, 1
    sch_type, sch_format = _schema_info(kind)
    is_float_int = sch_type == "number" and "integer" in types and r.is_json_integer(float(_go_num(data)))
    is_int_float = sch_type == "integer" and "number" in types
    if (
        kind not in ("string", "slice")
        and fmt
        and not (sch_type in types or sch_format == fmt or is_float_int or is_int_float)
    ):
        return [_invalid_type(name, fmt, sch_format)], 0
    if "number" not in types and "integer" not in types and fmt and kind in ("string", "slice"):
        return None, 1
    if not (sch_type in types or is_float_int or is_int_float):
        return [_invalid_type(name, ",".join(types), sch_type)], 0
    return None, 1


def _enum_validate(s: Schema, name: str, data: Any) -> Errs:
    enum = s.get("enum")
    if not isinstance(enum, list) or not enum:
        return None
    for ev in enum:
        if _enum_match(data, ev):
            return None
    msg = f"{name} in {_IN} should be one of {_go_fmt_v(enum)}"
    return [_E(_ENUM, name, msg, data, values=enum)]


def _int_of(v: Any) -> int | None:
    if isinstance(v, bool) or v is None:
        return None
    if isinstance(v, int):
        return v
    if isinstance(v, float) and v == v and abs(v) != math.inf:
        return int(v)
    return None


def _float_of(v: Any) -> float | None:
    if isinstance(v, bool) or v is None:
        return None
    if isinstance(v, (int, float)):
        try:
            return float(v)
        except OverflowError:
            return math.inf if v > 0 else -math.inf
    return None


def _string_validate(s: Schema, name: str, data: str) -> Errs:
    """kube-openapi ``stringValidator``: the first failing check only."""
    max_len = _int_of(s.get("maxLength"))
    if max_len is not None and len(data) > max_len:
        return [_E(_TOO_LONG, name, f"{name} in {_IN} should be at most {max_len} chars long", data, valid=max_len)]
    min_len = _int_of(s.get("minLength"))
    if min_len is not None and len(data) < min_len:
        return [_E(_TOO_SHORT, name, f"{name} in {_IN} should be at least {min_len} chars long", data, valid=min_len)]
    pattern = s.get("pattern")
    if isinstance(pattern, str) and pattern:
        rx = compile_go_regexp(pattern)
        if isinstance(rx, str):
            shown = f"{pattern}, but pattern is invalid: {rx}"
            return [_E(_PATTERN, name, f"{name} in {_IN} should match '{shown}'", data)]
        if not rx.search(data):
            return [_E(_PATTERN, name, f"{name} in {_IN} should match '{pattern}'", data)]
    return None


def _fmt_num(v: Any) -> str:
    return str(v) if isinstance(v, int) else go_float(float(v))


def _number_type_format(s: Schema, r: ValueRules) -> tuple[str, str]:
    """kube-openapi ``SchemaValidator.numberValidator``: the type and format the range checks use.

    Only for exactly one type: ``integer`` with format ``int32``/``int64``,
    ``number`` with ``float``/``double`` (any other format is dropped).
    Before 1.36 (:data:`TYPED_NUMBER_RANGES_SINCE`) always ``("", "")``: no range is ever exceeded.
    """
    if not r.typed_number_ranges:
        return "", ""
    types = _types_of(s)
    if len(types) != 1:
        return "", ""
    raw = s.get("format")
    fmt = raw if isinstance(raw, str) else ""
    if types[0] == "integer":
        return "integer", fmt if fmt in ("int32", "int64") else ""
    if types[0] == "number":
        return "number", fmt if fmt in ("float", "double") else ""
    return "", ""


def _format_float64(f: float) -> str:
    """``swag.FormatFloat64``: ``strconv.FormatFloat(f, 'f', -1, 64)``."""
    if f != f or f in (math.inf, -math.inf):
        return "NaN" if f != f else ("+Inf" if f > 0 else "-Inf")
    text = format(Decimal(repr(f)), "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text == "-0" and f == 0 and math.copysign(1, f) > 0 else text


_FLOAT32_OVERFLOW = Decimal(2) ** 128 - Decimal(2) ** 103  # halfway past the largest float32: rounds to Inf


def _parse_int_ok(text: str, bits: int) -> bool:
    """``strconv.ParseInt(text, 10, bits)`` succeeds."""
    body = text[1:] if text[:1] in "+-" else text
    if not body or not body.isascii() or not body.isdigit():
        return False
    n = int(text)
    return -(1 << (bits - 1)) <= n < (1 << (bits - 1))


def _range_error(val: Any, kind: str, type_name: str, fmt: str, prefix: str, name: str) -> list[_E] | None:
    """kube-openapi ``IsValueValidAgainstRange(val, typeName, format, prefix, path)``.

    ``val`` is an int64 (``kind`` ``int``) or a float64. The error is a plain
    ``error`` (no field): upstream reports it at the validator's nil path.
    """
    text = str(val) if kind == "int" else _format_float64(float(val))
    bad = False
    if type_name == "integer":
        bad = not _parse_int_ok(text, 32 if fmt == "int32" else 64)
    elif fmt == "float":  # number (or no single type), format float: ConvertFloat32
        try:
            bad = abs(Decimal(text)) >= _FLOAT32_OVERFLOW
        except ArithmeticError:
            bad = True
    if not bad:
        return None
    if fmt:
        msg = f"{prefix} value must be of type {type_name} with format {fmt} in {name}"
    else:
        msg = f"{prefix} value must be of type {type_name} (default format) in {name}"
    return [_E(_COMPOSITE, None, msg)]


def _number_validate(s: Schema, name: str, data: Any, kind: str, r: ValueRules) -> Errs:
    """kube-openapi ``numberValidator.Validate`` (validator.go; its ranges as :func:`_number_type_format` gives them).

    ``data`` is an int64 (``kind`` ``int``) or a float64. First the value's
    range for the declared type and format (``Checked value must be of type
    integer (default format) in spec.x``); then multipleOf, minimum and
    maximum, each compared in the value's native type when the constraint
    itself fits the type and format, else as float64 after reporting that it
    does not (``Maximum boundary value must be of type integer ...``).
    """
    type_name, fmt = _number_type_format(s, r)
    res: Errs = _add(None, _range_error(data, kind, type_name, fmt, "Checked", name))
    fdata = float(data)
    mult = _float_of(s.get("multipleOf"))
    res_multiple: Errs = None
    if mult is not None:
        res_multiple = _add(res_multiple, _range_error(mult, "float", type_name, fmt, "MultipleOf", name))
        if not res_multiple:
            res_multiple = _add(res_multiple, _multiple_of_native(name, data, kind, mult, r))
        else:
            res_multiple = _add(res_multiple, _multiple_of_float(name, fdata, mult, r))
    res_minimum: Errs = None
    minimum = _float_of(s.get("minimum"))
    if minimum is not None:
        excl = s.get("exclusiveMinimum") is True
        res_minimum = _add(res_minimum, _range_error(minimum, "float", type_name, fmt, "Minimum boundary", name))
        if not res_minimum and kind == "int":
            res_minimum = _add(res_minimum, _bound_error(name, data, _go_f2i(minimum), excl, False, data))
        else:
            res_minimum = _add(res_minimum, _bound_error(name, fdata, minimum, excl, False, fdata))
    res_maximum: Errs = None
    maximum = _float_of(s.get("maximum"))
    if maximum is not None:
        excl = s.get("exclusiveMaximum") is True
        res_maximum = _add(res_maximum, _range_error(maximum, "float", type_name, fmt, "Maximum boundary", name))
        if not res_maximum and kind == "int":
            res_maximum = _add(res_maximum, _bound_error(name, data, _go_f2i(maximum), excl, True, data))
        else:
            res_maximum = _add(res_maximum, _bound_error(name, fdata, maximum, excl, True, fdata))
    for part in (res_multiple, res_minimum, res_maximum):
        res = _add(res, part)
    return res


def _bound_error(name: str, value: Any, bound: Any, exclusive: bool, is_max: bool, reported: Any) -> list[_E] | None:
    """kube-openapi ``Maximum``/``MaximumInt``/``Minimum``/``MinimumInt``."""
    if is_max:
        bad = value >= bound if exclusive else value > bound
        word = "less than" if exclusive else "less than or equal to"
        code = _MAX
    else:
        bad = value <= bound if exclusive else value < bound
        word = "greater than" if exclusive else "greater than or equal to"
        code = _MIN
    if not bad:
        return None
    return [_E(code, name, f"{name} in {_IN} should be {word} {_fmt_num(bound)}", reported)]


def _multiple_of_native(name: str, data: Any, kind: str, factor: float, r: ValueRules) -> list[_E] | None:
    """kube-openapi ``MultipleOfNativeType``: ``MultipleOfInt`` for an int64, else ``MultipleOf``."""
    if kind != "int":
        return _multiple_of_float(name, float(data), factor, r)
    ifactor = _go_f2i(factor)
    if ifactor <= 0:
        msg = f"factor MultipleOf declared for {name} must be positive: {ifactor}"
        return [_E(_MULTIPLE_OF_POSITIVE, name, msg, ifactor)]
    # Go's truncated division: mult*factor == data exactly when factor divides data
    if abs(data) % ifactor != 0:
        return [_E(_MULTIPLE_OF, name, f"{name} in {_IN} should be a multiple of {ifactor}", data)]
    return None


def _multiple_of_float(name: str, fdata: float, factor: float, r: ValueRules) -> list[_E] | None:
    """kube-openapi ``MultipleOf`` (float64)."""
    if factor <= 0:
        msg = f"factor MultipleOf declared for {name} must be positive: {go_float(factor)}"
        return [_E(_MULTIPLE_OF_POSITIVE, name, msg, factor)]
    try:
        mult = (1 / factor * fdata) if factor < 1 else (fdata / factor)
    except ZeroDivisionError:  # pragma: no cover - factor > 0
        mult = math.nan
    except OverflowError:
        mult = math.inf
    if not r.is_json_integer(mult):
        return [_E(_MULTIPLE_OF, name, f"{name} in {_IN} should be a multiple of {go_float(factor)}", fdata)]
    return None


def _unique_key(v: Any) -> Any:
    k = _go_kind(v)
    if k == "slice":
        return ("s", tuple(_unique_key(x) for x in v))
    if k == "map":
        return ("m", tuple(sorted((str(key), _unique_key(val)) for key, val in v.items())))
    if k in ("int", "float"):
        return (k, _go_num(v))
    if k == "other":
        return ("o", repr(v))
    return (k, v)


def _has_duplicates(data: Sequence[Any]) -> bool:
    """``validate.UniqueItems``: any two items ``reflect.DeepEqual``?"""
    seen: set[Any] = set()
    try:
        for v in data:
            key = _unique_key(v)
            if key in seen:
                return True
            seen.add(key)
    except RecursionError:  # uniqueItems is forbidden in CRDs; never fail on depth
        return False
    return False


def _slice_validate(s: Schema, name: str, data: list[Any] | tuple[Any, ...], r: ValueRules) -> tuple[Errs, int]:
    """kube-openapi ``schemaSliceValidator``: items, minItems, maxItems, uniqueItems."""
    res: Errs = None
    count = 0
    items = s.get("items")
    if isinstance(items, dict):
        for i, v in enumerate(data):
            e, c = _validate(items, f"{name}[{i}]", v, r)
            res = _add(res, e)
            count += c
    size = len(data)
    min_items = _int_of(s.get("minItems"))
    if min_items is not None and size < min_items:
        msg = f"{name} in {_IN} should have at least {min_items} items"
        res = _add(res, [_E(_MIN_ITEMS, name, msg, size, valid=min_items)])
    max_items = _int_of(s.get("maxItems"))
    if max_items is not None and size > max_items:
        msg = f"{name} in {_IN} should have at most {max_items} items"
        res = _add(res, [_E(_MAX_ITEMS, name, msg, size, valid=max_items)])
    if s.get("uniqueItems") is True and _has_duplicates(data):
        res = _add(res, [_E(_UNIQUE, name, f"{name} in {_IN} shouldn't contain duplicates")])
    return res, count + 1


def _object_validate(s: Schema, name: str, data: dict[str, Any], r: ValueRules) -> tuple[Errs, int]:
    """kube-openapi ``objectValidator`` (patternProperties are forbidden in CRDs)."""
    num_keys = len(data)
    res: Errs = None
    count = 0
    # kube-openapi object_validator.go (as pinned by v0.36): both bounds are checked and the
    # property checks still run.
    min_props = _int_of(s.get("minProperties"))
    if min_props is not None and num_keys < min_props:
        msg = f"{name} in {_IN} should have at least {min_props} properties"
        res = _add(res, [_E(_TOO_FEW_PROPS, name, msg, num_keys, valid=min_props)])
    max_props = _int_of(s.get("maxProperties"))
    if max_props is not None and num_keys > max_props:
        msg = f"{name} in {_IN} should have at most {max_props} properties"
        res = _add(res, [_E(_TOO_MANY_PROPS, name, msg, num_keys, valid=max_props)])
    props = s.get("properties")
    if not isinstance(props, dict):
        props = {}
    ap = s.get("additionalProperties")
    if ap is False:
        for k in data:
            if k not in props:
                msg = f"{name}.{k} in {_IN} is a forbidden property"
                res = _add(res, [_E(_UNALLOWED_PROP, name, msg, k)])
    elif isinstance(ap, dict):
        for k, v in data.items():
            if k not in props:
                e, c = _validate(ap, f"{name}.{k}", v, r)
                res = _add(res, e)
                count += c
    for p_name, p_schema in props.items():
        if p_name in data and isinstance(p_schema, dict):
            r_name = f"{name}.{p_name}" if name else p_name
            e, c = _validate(p_schema, r_name, data[p_name], r)
            res = _add(res, e)
            count += c
    req = s.get("required")
    if isinstance(req, list):
        for k in req:
            if isinstance(k, str) and k not in data:
                res = _add(res, [_E(_REQUIRED, f"{name}.{k}", f"{name}.{k} in {_IN} is required")])
    return res, count


def _props_validate(s: Schema, name: str, data: Any, rules: ValueRules) -> tuple[Errs, int]:
    """kube-openapi ``schemaPropsValidator``: anyOf, oneOf, allOf, not."""
    main: Errs = None
    count = 0
    any_of = s.get("anyOf")
    if isinstance(any_of, list) and any_of:
        best: tuple[Errs, int] | None = None
        first_success: tuple[Errs, int] | None = None
        for sub in any_of:
            if not isinstance(sub, dict):
                continue
            r = _validate(sub, name, data, rules)
            if not r[0]:
                best = None
                first_success = r
                break
            if best is None or r[1] > best[1]:
                best = r
        if first_success is None:
            main = _add(main, [_E(_COMPOSITE, None, f"{go_quote(name)} must validate at least one schema (anyOf)")])
        chosen = best if best is not None else first_success
        if chosen is not None:
            main = _add(main, chosen[0])
            count += chosen[1]
    one_of = s.get("oneOf")
    if isinstance(one_of, list) and one_of:
        best = None
        first_success = None
        validated = 0
        for sub in one_of:
            if not isinstance(sub, dict):
                continue
            r = _validate(sub, name, data, rules)
            if not r[0]:
                validated += 1
                best = None
                if first_success is None:
                    first_success = r
                continue
            if validated == 0 and (best is None or r[1] > best[1]):
                best = r
        if validated != 1:
            extra = "Found none valid" if validated == 0 else f"Found {validated} valid alternatives"
            msg = f"{go_quote(name)} must validate one and only one schema (oneOf). {extra}"
            main = _add(main, [_E(_COMPOSITE, None, msg)])
            if best is not None:
                main = _add(main, best[0])
                count += best[1]
        elif first_success is not None:
            main = _add(main, first_success[0])
            count += first_success[1]
    all_of = s.get("allOf")
    if isinstance(all_of, list) and all_of:
        validated = 0
        total = 0
        for sub in all_of:
            if not isinstance(sub, dict):
                continue
            total += 1
            e, c = _validate(sub, name, data, rules)
            if not e:
                validated += 1
            main = _add(main, e)
            count += c
        if validated != total:
            extra = ". None validated" if validated == 0 else ""
            msg = f"{go_quote(name)} must validate all the schemas (allOf){extra}"
            main = _add(main, [_E(_COMPOSITE, None, msg)])
    not_schema = s.get("not")
    if isinstance(not_schema, dict):
        e, _ = _validate(not_schema, name, data, rules)
        if not e:
            main = _add(main, [_E(_COMPOSITE, None, f"{go_quote(name)} must not validate the schema (not)")])
    return main, count + 1


def _validate(s: Schema, name: str, data: Any, r: ValueRules) -> tuple[Errs, int]:
    """kube-openapi ``SchemaValidator.Validate`` in Kubernetes ``r.release``: (errors, MatchCount)."""
    types = _types_of(s)
    raw_fmt = s.get("format")
    fmt = effective_format(types, raw_fmt, r.release) if isinstance(raw_fmt, str) else ""
    if data is None:
        null_errs, null_count = _type_validate(types, s.get("nullable") is True, fmt, name, None, "nil", r)
        return _add(null_errs, _enum_validate(s, name, None)), null_count
    kind = _go_kind(data)
    if kind == "other":
        data = str(data)
        kind = "string"
    errs: Errs = None
    count = 0
    if types or fmt:
        e, c = _type_validate(types, s.get("nullable") is True, fmt, name, data, kind, r)
        errs = _add(errs, e)
        count += c + 1
    e, c = _props_validate(s, name, data, r)
    errs = _add(errs, e)
    count += c + 1
    if kind == "string":
        errs = _add(errs, _string_validate(s, name, data))
        count += 1
        if fmt and is_known_format(fmt):
            if not validate_format(fmt, data):
                errs = _add(errs, [_invalid_type(name, fmt, data)])
            count += 1
    elif kind in ("int", "float"):
        errs = _add(errs, _number_validate(s, name, _go_num(data), kind, r))
        count += 2
    elif kind == "slice":
        e, c = _slice_validate(s, name, data, r)
        errs = _add(errs, e)
        count += c + 1
    errs = _add(errs, _enum_validate(s, name, data))
    count += 1
    if kind == "map":
        e, c = _object_validate(s, name, data, r)
        errs = _add(errs, e)
        count += c + 1
    return errs, count + 1


# =============================================================================
# kubeOpenAPIResultToFieldErrors
# =============================================================================


def _enum_value_string(v: Any) -> str:
    if isinstance(v, str):
        return v
    try:
        return go_json_marshal(v)
    except (ValueError, RecursionError):
        return ""


def _to_field_error(fld_path: Path | None, e: _E) -> FieldError:
    """One entry of upstream ``kubeOpenAPIResultToFieldErrors`` (``fld_path`` None: a nil path)."""
    if e.name is None:
        # not an *errors.Validation: field.Invalid(fldPath, "", err.Error())
        return invalid(NIL_PATH if fld_path is None else fld_path, "", e.message)
    err_path = Path("") if fld_path is None else fld_path
    if e.name and e.name != ".":
        err_path = err_path.child(e.name[1:] if e.name.startswith(".") else e.name)
    value = "" if e.value is None else e.value
    if e.code == _REQUIRED:
        return required(err_path, "")
    if e.code == _ENUM:
        return not_supported(err_path, e.value, [_enum_value_string(v) for v in e.values or ()])
    if e.code == _TOO_LONG:
        # field.TooLongMaxLength before 1.32 (validation.go@v0.31.14), field.TooLong after
        return too_long(err_path, value, e.valid if isinstance(e.valid, int) else -1, max_length_error=True)
    if e.code in (_MAX_ITEMS, _TOO_MANY_PROPS):
        actual = e.value if isinstance(e.value, int) else -1
        return too_many(err_path, actual, e.valid if isinstance(e.valid, int) else -1)
    if e.code == _INVALID_TYPE:
        return type_invalid(err_path, value, e.message)
    return invalid(err_path, value, e.message)


# =============================================================================
# listtype.ValidateListSetsAndMaps
# =============================================================================


class _Unspecified:
    """listtype's ``unspecifiedKeyValue{}``: a missing map-list key."""

    __slots__ = ()


_UNSPECIFIED = _Unspecified()


def _ls_object(fld_path: Path, s: Schema, obj: dict[str, Any]) -> list[FieldError]:
    errs: list[FieldError] = []
    ap = s.get("additionalProperties")
    if isinstance(ap, dict):
        for k, v in obj.items():
            errs.extend(_ls_value(fld_path.key(k), ap, v))
    props = s.get("properties")
    if isinstance(props, dict):
        for k, v in obj.items():
            sub = props.get(k)
            if isinstance(sub, dict):
                errs.extend(_ls_value(fld_path.child(k), sub, v))
    return errs


def _ls_value(fld_path: Path, s: Schema, obj: Any) -> list[FieldError]:
    if isinstance(obj, list):
        return _ls_array(fld_path, s, obj)
    if isinstance(obj, dict):
        return _ls_object(fld_path, s, obj)
    return []


def _ls_array(fld_path: Path, s: Schema, obj: list[Any]) -> list[FieldError]:
    errs: list[FieldError] = []
    list_type = s.get("x-kubernetes-list-type")
    if list_type == "set":
        non_unique, err = _ls_set(fld_path, obj)
        if err is not None:
            errs.append(err)
        else:
            errs.extend(duplicate(fld_path.index(i), obj[i]) for i in non_unique)
    elif list_type == "map":
        errs.extend(_ls_map(fld_path, s, obj))
    items = s.get("items")
    if isinstance(items, dict):
        for i, v in enumerate(obj):
            errs.extend(_ls_value(fld_path.index(i), items, v))
    return errs


def _ls_set(fld_path: Path, obj: Sequence[Any]) -> tuple[list[int], FieldError | None]:
    """``validateListSet``: indices of the first repeat of each non-unique item."""
    if len(obj) <= 1:
        return [], None
    seen: dict[Any, int] = {}
    non_unique: list[int] = []
    for i, x in enumerate(obj):
        kind = _go_kind(x)
        if kind in ("map", "slice"):
            try:
                key: Any = ("json", go_json_marshal(x))
            except (ValueError, RecursionError):
                return [], invalid(fld_path.index(i), x, "internal error")
        elif x is _UNSPECIFIED:
            key = _UNSPECIFIED
        else:
            key = (kind, _go_num(x))
        times = seen.get(key)
        if times is None:
            seen[key] = 1
        else:
            seen[key] = times + 1
            if times == 1:
                non_unique.append(i)
    return non_unique, None


def _ls_map(fld_path: Path, s: Schema, obj: list[Any]) -> list[FieldError]:
    """``validateListMap``: items must be objects with unique key tuples."""
    for i, x in enumerate(obj):
        if x is not None and not isinstance(x, dict):
            return [invalid(fld_path.index(i), x, "must be an object for an array of list-type map")]
    if len(obj) <= 1:
        return []
    key_fields = s.get("x-kubernetes-list-map-keys")
    if not isinstance(key_fields, list):
        key_fields = []
    if len(key_fields) == 1:
        key_field = key_fields[0]
        keys: list[Any] = []
        for x in obj:
            if x is None or key_field not in x:
                keys.append(_UNSPECIFIED)
            else:
                keys.append(x[key_field])
        non_unique, err = _ls_set(fld_path, keys)
        if err is not None:
            return [err]
        out = []
        for i in non_unique:
            bad = {} if keys[i] is _UNSPECIFIED else {key_field: keys[i]}
            out.append(duplicate(fld_path.index(i), bad))
        return out
    multi: list[Any] = []
    for x in obj:
        key: dict[str, Any] = {}
        if x is not None:
            for kf in key_fields:
                if kf in x:
                    key[kf] = x[kf]
        multi.append(key)
    non_unique, err = _ls_set(fld_path, multi)
    if err is not None:
        return [err]
    return [duplicate(fld_path.index(i), multi[i]) for i in non_unique]

