"""Field errors and field paths, as in k8s.io/apimachinery.

Mirrors ``staging/src/k8s.io/apimachinery/pkg/util/validation/field/errors.go``
(``field.Error``, ``field.ErrorType`` and the constructors ``Required``,
``Invalid``, ``NotSupported``, ...) and ``field/path.go`` (``field.Path``).

A :class:`FieldError` renders exactly like upstream's ``Error()``::

    >>> str(required(Path("spec").child("names", "plural")))
    'spec.names.plural: Required value'
    >>> str(invalid(Path("spec", "scope"), "Foo", "bad"))
    'spec.scope: Invalid value: "Foo": bad'

The text is that of the newest release (apimachinery ``v0.34`` and later render alike). Older releases
rendered differently (see :data:`RENDERING_CHANGES`); :meth:`FieldError.at_release` gives an error the
text of a given Kubernetes release, which the public entry points apply to what they return::

    >>> str(invalid("<nil>", None, "x").at_release(33))
    '<nil>: Invalid value: "null": x'
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from dataclasses import field as dc_field
from enum import Enum
from typing import Any, Iterable

from crdtool.core.gojson import GoStruct, go_json_marshal


class ErrorType(str, Enum):
    """Upstream ``field.ErrorType``: the machine-readable reason of an error."""

    NOT_FOUND = "FieldValueNotFound"
    REQUIRED = "FieldValueRequired"
    DUPLICATE = "FieldValueDuplicate"
    INVALID = "FieldValueInvalid"
    NOT_SUPPORTED = "FieldValueNotSupported"
    FORBIDDEN = "FieldValueForbidden"
    TOO_LONG = "FieldValueTooLong"
    TOO_MANY = "FieldValueTooMany"
    INTERNAL = "InternalError"
    TYPE_INVALID = "FieldValueTypeInvalid"

    @property
    def message(self) -> str:
        """Upstream ``ErrorType.String()``: the human prefix of the error body."""
        return _MESSAGES[self]


_MESSAGES = {
    ErrorType.NOT_FOUND: "Not found",
    ErrorType.REQUIRED: "Required value",
    ErrorType.DUPLICATE: "Duplicate value",
    ErrorType.INVALID: "Invalid value",
    ErrorType.NOT_SUPPORTED: "Unsupported value",
    ErrorType.FORBIDDEN: "Forbidden",
    ErrorType.TOO_LONG: "Too long",
    ErrorType.TOO_MANY: "Too many",
    ErrorType.INTERNAL: "Internal error",
    ErrorType.TYPE_INVALID: "Invalid value",
}

# Types whose body never shows the bad value (upstream ErrorBody's first cases).
_VALUE_OMITTED = {ErrorType.REQUIRED, ErrorType.FORBIDDEN, ErrorType.TOO_LONG, ErrorType.INTERNAL}

#: What changed in ``field.Error``'s text, by the Kubernetes minor that first has it
#: (k8s.io/apimachinery ``pkg/util/validation/field/errors.go``):
#:
#: * ``"too-long-bytes"`` (``v0.32.0``): ``TooLong`` says ``may not be more than N bytes`` and omits the bad
#:   value (``<value omitted>``); ``TooLongMaxLength`` (kube-openapi ``maxLength``) became ``TooLong``. Before
#:   (``v0.31.14``): ``TooLong`` ``must have at most N bytes``, ``TooLongMaxLength`` ``may not be longer than N``
#:   (``value is too long`` when N < 0), both keeping the bad value.
#: * ``"json-values"`` (``v0.34.0``): ``ErrorBody`` renders a bad value that is not a number, a bool or a
#:   string as ``json.Marshal`` writes it (``nil`` as ``null``); ``TooLong``/``TooMany`` say ``1 byte`` /
#:   ``1 item``. Before (``v0.33.13``): nil as ``"null"``, ``fmt.Stringer`` values by ``String()``, anything
#:   else as Go's ``%#v`` (``map[string]interface {}{"k":"a"}``, ``[]string{"a"}``), always plural.
RENDERING_CHANGES: dict[str, int] = {"too-long-bytes": 32, "json-values": 34}


class _Omit:
    """Upstream ``omitValue``: a bad value that is not printed."""

    _instance: _Omit | None = None

    def __new__(cls) -> _Omit:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "OMIT"


OMIT: Any = _Omit()


class GoTyped:
    """A bad value whose Go type shows in the text of releases before 1.34.

    Upstream passes typed Go values (``[]string``, ``metav1.OwnerReference``, ``*metav1.Time``, ``uint64``)
    as bad values; apimachinery ``v0.34`` renders them as JSON, older releases with ``%#v`` or ``String()``.
    Build one with :func:`go_typed`: it is the JSON value itself (a ``str``, ``int``, ``list`` or ``dict``
    subclass, equal to the plain value) that also carries ``go_v``, the older text (None when Go's text
    cannot be reproduced, e.g. ``%#v`` of a non-nil pointer, which prints an address).
    """

    go_v: str | None = None


class _GoStr(str, GoTyped):
    pass


class _GoList(list, GoTyped):  # type: ignore[type-arg]
    pass


class _GoMap(GoStruct, GoTyped):
    pass


class _GoInt(int, GoTyped):
    pass


class GoNil(GoTyped):
    """A typed Go nil as a bad value (a nil ``[]string``): ``json.Marshal`` writes ``null`` (1.34 and later);
    older releases print its ``%#v``, ``go_v`` (``[]string(nil)``). ``None`` in a JSON report."""

    __slots__ = ("go_v",)

    def __init__(self, go_v: str) -> None:
        self.go_v = go_v

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GoNil) and other.go_v == self.go_v

    def __hash__(self) -> int:
        return hash(("GoNil", self.go_v))

    def __repr__(self) -> str:
        return f"GoNil({self.go_v!r})"


def go_string_slice(value: list[str] | None) -> Any:
    """A Go ``[]string`` as a bad value: ``None`` is a nil slice (``null``; ``[]string(nil)`` before 1.34), a
    list its JSON form carrying ``%#v`` (``[]string{"v1", "v2"}``, ``[]string{}``)."""
    if value is None:
        return GoNil("[]string(nil)")
    return go_typed(list(value), "[]string{" + ", ".join(go_quote(str(v)) for v in value) + "}")


#: The text used for a bad value whose ``%#v`` upstream prints with pointer addresses.
UNREPRODUCIBLE_GO_VALUE = "<Go value with pointers>"


def go_typed(value: Any, go_v: str | None) -> Any:
    """``value`` (its JSON form: str, int, list, or dict in Go struct field order) marked with Go's ``%#v``/``String()`` text."""
    out: Any
    if isinstance(value, int) and not isinstance(value, bool):
        out = _GoInt(value)
    elif isinstance(value, str):
        out = _GoStr(value)
    elif isinstance(value, list):
        out = _GoList(value)
    elif isinstance(value, dict):
        out = _GoMap(value)
    else:
        raise TypeError(f"go_typed: {type(value).__name__} is not a str, int, list or dict")
    out.go_v = go_v
    return out


class Path(str):
    """An upstream ``field.Path`` rendered as its string (``spec.versions[0].name``).

    ``Path("spec", "names")`` is ``field.NewPath("spec", "names")``; ``child``,
    ``index`` and ``key`` mirror ``Path.Child``, ``Path.Index`` and ``Path.Key``.
    Being a ``str``, a Path compares, hashes and serialises as its text.
    """

    __slots__ = ()

    def __new__(cls, name: str = "", *more: str) -> Path:
        text = name
        for m in more:
            text = f"{text}.{m}" if text else m
        return super().__new__(cls, text)

    def child(self, name: str, *more: str) -> Path:
        text = f"{self}.{name}" if self else name
        for n in more:
            text = f"{text}.{n}" if text else n
        return _new_path(Path, text)

    def index(self, i: int) -> Path:  # type: ignore[override]  # upstream Path.Index, deliberately not str.index
        return _new_path(Path, f"{self}[{i}]")

    def key(self, k: str) -> Path:
        return _new_path(Path, f"{self}[{k}]")


# str.__new__ itself: the methods above already have the text (walks build a path per schema node).
_new_path = str.__new__


@dataclass(frozen=True)
class FieldError:
    """One validation error, as upstream ``field.Error``.

    Attributes:
        type: the upstream ``ErrorType`` name, e.g. ``"FieldValueRequired"``.
        field: the upstream path string, e.g. ``"spec.names.plural"``.
        detail: free text after the value.
        bad_value: the offending value (plain JSON-like data), or :data:`OMIT`.
    """

    type: str
    field: str
    detail: str = ""
    bad_value: Any = dc_field(default=None, compare=True)
    #: the Kubernetes minor whose ``field.Error`` renders this error (None: the newest); set by :meth:`at_release`
    minor: int | None = dc_field(default=None, compare=False, repr=False)
    #: how a ``TooLong``/``TooMany`` detail was built (``(kind, limit, value)``), to rebuild it for an older release
    sized: tuple[str, int, Any] | None = dc_field(default=None, compare=False, repr=False)

    def body(self) -> str:
        """Upstream ``Error.ErrorBody()``: the message without the field."""
        etype = ErrorType(self.type)
        if etype in _VALUE_OMITTED or self.bad_value is OMIT:
            s = etype.message
        elif self.minor is not None and self.minor < RENDERING_CHANGES["json-values"]:
            s = f"{etype.message}: {format_value_go(self.bad_value)}"
        else:
            s = f"{etype.message}: {format_value(self.bad_value)}"
        if self.detail:
            s += f": {self.detail}"
        return s

    def at_release(self, release: Any) -> FieldError:
        """This error as Kubernetes ``release`` renders it (a :class:`~crdtool.core.releases.Release` or a minor).

        The same error with the detail and bad value that release's constructors give (``TooLong``,
        ``TooMany``, see :data:`RENDERING_CHANGES`) and the release's ``ErrorBody``; itself for releases that
        render as the newest does (1.34 and later). Errors are built with the newest text; the public entry
        points call this on what they return.
        """
        minor = getattr(release, "minor", release)
        if minor is not None and minor >= RENDERING_CHANGES["json-values"]:
            minor = None  # renders as the newest
        if minor == self.minor:
            return self
        detail, bad_value = self.detail, self.bad_value
        if self.sized is not None:
            detail, bad_value = _sized_detail(self.sized, minor)
        return replace(self, detail=detail, bad_value=bad_value, minor=minor)

    def __str__(self) -> str:
        return f"{self.field}: {self.body()}"

    def to_dict(self) -> dict[str, Any]:
        """JSON shape: ``{"type", "field", "detail", "badValue", "message"}``."""
        return {
            "type": self.type,
            "field": self.field,
            "detail": self.detail,
            "badValue": None if self.bad_value is OMIT else _jsonable(self.bad_value),
            "message": str(self),
        }


def errors_at_release(errors: Iterable[FieldError], release: Any) -> list[FieldError]:
    """:meth:`FieldError.at_release` of each error (``release``: a ``Release``, a minor, or None: the newest)."""
    return [e.at_release(release) for e in errors]


def unique_messages(errors: Iterable[FieldError]) -> list[FieldError]:
    """The errors without those whose message an earlier one has: ``ErrorList.ToAggregate``'s de-duplication.

    Upstream ``ToAggregate`` (``pkg/util/validation/field/errors.go``, every tag 1.30 … 1.37) keeps the first
    error of each ``fmt.Sprintf("%v", err)`` (``Error()``: field, type, value and detail); ``ErrorList.Filter``
    goes through it, so a list that is filtered comes back without repeats, in its order. In: field errors as
    the release renders them (the message is compared as :meth:`FieldError.__str__` gives it). Out: a new list.
    """
    seen: set[str] = set()
    out: list[FieldError] = []
    for e in errors:
        msg = str(e)
        if msg not in seen:
            seen.add(msg)
            out.append(e)
    return out


def _jsonable(value: Any) -> Any:
    if isinstance(value, GoNil):
        return None
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if isinstance(value, dict):
        out = {str(k): _jsonable(v) for k, v in value.items()}
        return GoStruct(out) if isinstance(value, GoStruct) else out
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return str(value)


def go_quote(s: str) -> str:
    """Go's ``%q`` / ``strconv.Quote`` for a string."""
    out = ['"']
    for ch in s:
        o = ord(ch)
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\r":
            out.append("\\r")
        elif ch == "\a":
            out.append("\\a")
        elif ch == "\b":
            out.append("\\b")
        elif ch == "\f":
            out.append("\\f")
        elif ch == "\v":
            out.append("\\v")
        elif o < 0x20 or o == 0x7F:
            out.append(f"\\x{o:02x}")
        elif not ch.isprintable() and o > 0x7F:
            out.append(f"\\u{o:04x}" if o <= 0xFFFF else f"\\U{o:08x}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def go_float(f: float) -> str:
    """Go's ``%v`` for a float64 (``strconv.FormatFloat(f, 'g', -1, 64)``)."""
    if math.isnan(f):
        return "NaN"
    if math.isinf(f):
        return "+Inf" if f > 0 else "-Inf"
    r = repr(f)
    mantissa, _, exp = r.partition("e")
    if not exp:
        # Go's %v ('g', shortest) switches to exponent form at exponent < -4 or >= 6.
        if f != 0 and (abs(f) >= 1e6 or abs(f) < 1e-4):
            return go_float_exp(f)
        return mantissa[:-2] if mantissa.endswith(".0") else mantissa
    return go_float_exp(f)


def go_float_exp(f: float) -> str:
    """Go's ``%e`` with the shortest digits, as ``%v`` prints large floats."""
    from decimal import Decimal

    sign, digits, exponent = Decimal(repr(f)).normalize().as_tuple()
    ds = "".join(str(d) for d in digits)
    exp10 = exponent + len(ds) - 1  # type: ignore[operator]
    mantissa = ds[0] + ("." + ds[1:] if len(ds) > 1 else "")
    esign = "-" if exp10 < 0 else "+"
    return f"{'-' if sign else ''}{mantissa}e{esign}{abs(exp10):02d}"


def go_type_name(value: Any) -> str:
    """Go's ``%T`` of a JSON value as ``encoding/json`` decodes it into ``interface{}``.

    Integers beyond int64 are ``float64``, as the apiserver's decoder makes them.
    """
    if value is None:
        return "<nil>"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int64" if -(1 << 63) <= value < (1 << 63) else "float64"
    if isinstance(value, float):
        return "float64"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "[]interface {}"
    return "map[string]interface {}"


def format_value(value: Any) -> str:
    """Render a bad value as upstream's ``ErrorBody`` does.

    Numbers and booleans as Go ``%v``, strings as Go ``%q``, ``None`` as
    ``null``, and
    composite values as Go's ``json.Marshal`` writes them (map keys sorted,
    HTML characters escaped; a :class:`~crdtool.core.gojson.GoStruct` in field
    order), as ``field.Error.ErrorBody`` of apimachinery v0.36 does.
    """
    if value is None or isinstance(value, GoNil):
        # json.Marshal(nil): apimachinery v0.36 prints a nil value as null (older releases printed "null")
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return go_float(value)
    if isinstance(value, str):
        return go_quote(value)
    return go_json_marshal(_jsonable(value))


def format_value_go(value: Any) -> str:
    """Render a bad value as ``ErrorBody`` of apimachinery before ``v0.34`` does.

    nil as ``"null"``; int64, float64 and bool as ``%v``; a string as ``%q``; a :class:`GoTyped` value by
    its ``go_v`` (``String()`` of a ``metav1.Time``, ``%#v`` of a ``[]string`` or a struct); anything else
    as ``%#v`` of what ``encoding/json`` decodes into ``interface{}``: ``map[string]interface {}{"k":"a",
    "n":1}`` (keys sorted), ``[]interface {}{"a", 1}``, nested nil as ``interface {}(nil)``. A bad value of
    another Go type (a struct, a typed slice) must be a :class:`GoTyped` to render right.
    """
    if value is None:
        return '"null"'
    if isinstance(value, GoTyped):
        return value.go_v if value.go_v is not None else UNREPRODUCIBLE_GO_VALUE
    if isinstance(value, (bool, int, float, str)):
        return format_value(value)
    return go_sharp_v(value)


def go_sharp_v(value: Any) -> str:
    """Go's ``%#v`` of a decoded JSON value held in an ``interface{}`` (``map[string]interface {}``, ...)."""
    if value is None:
        return "interface {}(nil)"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value) if -(1 << 63) <= value < (1 << 63) else go_float(float(value))
    if isinstance(value, float):
        return go_float(value)
    if isinstance(value, str):
        return go_quote(value)
    if isinstance(value, dict):
        items = ", ".join(f"{go_quote(str(k))}:{go_sharp_v(value[k])}" for k in sorted(value, key=str))
        return "map[string]interface {}{" + items + "}"
    if isinstance(value, (list, tuple)):
        return "[]interface {}{" + ", ".join(go_sharp_v(v) for v in value) + "}"
    return go_quote(str(value))


def _sized_detail(sized: tuple[str, int, Any], minor: int | None) -> tuple[str, Any]:
    """The detail and bad value of a ``TooLong``/``TooMany`` built by Kubernetes 1.``minor`` (None: the newest)."""
    kind, limit, value = sized
    if minor is None:
        # field/errors.go@v0.34.0: singular units
        if kind == "too-many":
            unit = "item" if limit == 1 else "items"
            return (f"must have at most {limit} {unit}" if limit >= 0 else "has too many items"), (value if value >= 0 else OMIT)
        unit = "byte" if limit == 1 else "bytes"
        return (f"may not be more than {limit} {unit}" if limit >= 0 else "value is too long"), VALUE_OMITTED
    if kind == "too-many":
        # field/errors.go@v0.33.13 TooMany: always "items"
        return (f"must have at most {limit} items" if limit >= 0 else "has too many items"), (value if value >= 0 else OMIT)
    if minor >= RENDERING_CHANGES["too-long-bytes"]:
        # field/errors.go@v0.32.13 TooLong: no singular yet; TooLongMaxLength = TooLong
        return (f"may not be more than {limit} bytes" if limit >= 0 else "value is too long"), VALUE_OMITTED
    if kind == "max-length":
        # field/errors.go@v0.31.14 TooLongMaxLength
        return (f"may not be longer than {limit}" if limit >= 0 else "value is too long"), value
    # field/errors.go@v0.31.14 TooLong
    return f"must have at most {limit} bytes", value


# --- constructors (upstream field.Required, field.Invalid, ...) -------------


def required(path: str, detail: str = "") -> FieldError:
    """Upstream ``field.Required``."""
    return FieldError(ErrorType.REQUIRED.value, str(path), detail, "")


def invalid(path: str, value: Any, detail: str = "") -> FieldError:
    """Upstream ``field.Invalid``."""
    return FieldError(ErrorType.INVALID.value, str(path), detail, value)


def type_invalid(path: str, value: Any, detail: str = "") -> FieldError:
    """Upstream ``field.TypeInvalid``."""
    return FieldError(ErrorType.TYPE_INVALID.value, str(path), detail, value)


def not_found(path: str, value: Any) -> FieldError:
    """Upstream ``field.NotFound``."""
    return FieldError(ErrorType.NOT_FOUND.value, str(path), "", value)


def duplicate(path: str, value: Any) -> FieldError:
    """Upstream ``field.Duplicate``."""
    return FieldError(ErrorType.DUPLICATE.value, str(path), "", value)


def not_supported(path: str, value: Any, valid_values: Iterable[str] = ()) -> FieldError:
    """Upstream ``field.NotSupported``: detail lists the quoted valid values."""
    values = list(valid_values)
    detail = ""
    if values:
        detail = "supported values: " + ", ".join(go_quote(v) for v in values)
    return FieldError(ErrorType.NOT_SUPPORTED.value, str(path), detail, value)


def forbidden(path: str, detail: str = "") -> FieldError:
    """Upstream ``field.Forbidden``."""
    return FieldError(ErrorType.FORBIDDEN.value, str(path), detail, "")


VALUE_OMITTED = "<value omitted>"


def too_long(path: str, value: Any, max_length: int, *, max_length_error: bool = False) -> FieldError:
    """Upstream ``field.TooLong`` (``may not be more than N bytes``; the value is omitted).

    ``max_length_error``: the error is kube-openapi's ``maxLength`` (``kubeOpenAPIResultToFieldErrors``),
    which releases before 1.32 built with ``field.TooLongMaxLength`` (see :meth:`FieldError.at_release`);
    ``value`` is the bad value those releases kept.
    """
    unit = "byte" if max_length == 1 else "bytes"
    detail = f"may not be more than {max_length} {unit}" if max_length >= 0 else "value is too long"
    kind = "max-length" if max_length_error else "too-long"
    return FieldError(ErrorType.TOO_LONG.value, str(path), detail, VALUE_OMITTED, sized=(kind, max_length, value))


def too_long_characters(path: str, value: Any, max_length: int) -> FieldError:
    """Upstream ``field.TooLongCharacters`` (``may not be more than N characters``)."""
    unit = "character" if max_length == 1 else "characters"
    detail = f"may not be more than {max_length} {unit}" if max_length >= 0 else "value is too long"
    return FieldError(ErrorType.TOO_LONG.value, str(path), detail, VALUE_OMITTED)


def too_many(path: str, actual: int, max_quantity: int) -> FieldError:
    """Upstream ``field.TooMany`` (``must have at most N items``)."""
    unit = "item" if max_quantity == 1 else "items"
    detail = f"must have at most {max_quantity} {unit}" if max_quantity >= 0 else "has too many items"
    return FieldError(
        ErrorType.TOO_MANY.value, str(path), detail, actual if actual >= 0 else OMIT, sized=("too-many", max_quantity, actual)
    )


def internal_error(path: str, message: str) -> FieldError:
    """Upstream ``field.InternalError``."""
    return FieldError(ErrorType.INTERNAL.value, str(path), message, None)


# --- decoding findings ------------------------------------------------------

#: ``type`` of a :class:`DecodeError` for a field the Go type does not declare.
UNKNOWN_FIELD = "UnknownField"
#: ``type`` of a :class:`DecodeError` for a key given twice in one mapping.
DUPLICATE_FIELD = "DuplicateField"
#: ``type`` of a :class:`DecodeError` for a value of the wrong JSON type.
UNMARSHAL_TYPE = "UnmarshalTypeError"


@dataclass(frozen=True)
class DecodeError(FieldError):
    """A finding of the apiserver's strict decoder rather than of validation.

    Upstream these are not ``field.Error`` values: the apiserver rejects the
    request body before validation (``strict decoding error: unknown field
    "spec.bogusField"``, or ``json: cannot unmarshal number into Go struct
    field ... of type string``). ``type`` is one of :data:`UNKNOWN_FIELD`,
    :data:`DUPLICATE_FIELD`, :data:`UNMARSHAL_TYPE`; ``detail`` holds the
    upstream message, which is also ``str()``.
    """

    def body(self) -> str:
        return self.detail

    def __str__(self) -> str:
        return self.detail


def unknown_field(path: str) -> DecodeError:
    """``unknown field "spec.bogusField"`` (server-side field validation Strict)."""
    return DecodeError(UNKNOWN_FIELD, str(path), f"unknown field {go_quote(str(path))}", OMIT)


def duplicate_field(path: str) -> DecodeError:
    """``duplicate field "spec.group"`` (server-side field validation Strict)."""
    return DecodeError(DUPLICATE_FIELD, str(path), f"duplicate field {go_quote(str(path))}", OMIT)


def unmarshal_type_error(path: str, value: Any, message: str) -> DecodeError:
    """A wrong JSON type; ``message`` is the upstream ``json: cannot unmarshal ...`` text."""
    return DecodeError(UNMARSHAL_TYPE, str(path), message, value)
