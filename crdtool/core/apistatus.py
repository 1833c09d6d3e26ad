"""The ``metav1.Status`` the apiserver answers a failed (or successful) create with, as kubectl receives it.

Mirrors ``k8s.io/apimachinery/pkg/api/errors/errors.go`` (``NewInvalid``, ``NewBadRequest``,
``NewNotFound``, ``NewInternalError``) and ``pkg/util/validation/field/errors.go`` (``ErrorList.ToAggregate``:
duplicate messages dropped; one error is its own text, several are ``[a, b]``). The dicts have the JSON
field order of ``metav1.Status``: ``kind``, ``apiVersion``, ``metadata``, ``status``, ``message``,
``reason``, ``details`` (``name``, ``group``, ``kind``, ``causes``: ``reason``, ``message``, ``field``), ``code``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from crdtool.core.errors import FieldError, go_quote

__all__ = ["bad_request", "created", "for_create", "internal_error", "invalid", "not_found", "qualified_kind"]


def _status(status: str, message: str, reason: str, code: int, details: dict[str, Any] | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": status}
    if message:
        out["message"] = message
    if reason:
        out["reason"] = reason
    if details is not None:
        out["details"] = details
    out["code"] = code
    return out


def qualified_kind(group: str, kind: str) -> str:
    """``schema.GroupKind.String()``: ``Deployment.apps``, ``Pod`` for the core group."""
    return f"{kind}.{group}" if group else kind


def aggregate(errors: Sequence[FieldError]) -> str:
    """``ErrorList.ToAggregate().Error()``: messages deduplicated; ``[a, b]`` for several."""
    seen: list[str] = []
    for e in errors:
        text = str(e)
        if text not in seen:
            seen.append(text)
    return seen[0] if len(seen) == 1 else "[" + ", ".join(seen) + "]"


def invalid(group: str, kind: str, name: str, errors: Sequence[FieldError]) -> dict[str, Any]:
    """``errors.NewInvalid``: 422, ``Kind.group "name" is invalid: ...``, one cause per error."""
    causes = []
    for e in errors:
        cause: dict[str, Any] = {"reason": e.type, "message": e.body(), "field": e.field}
        causes.append(cause)
    message = f"{qualified_kind(group, kind)} {go_quote(name)} is invalid"
    if errors:
        message += ": " + aggregate(errors)
    details: dict[str, Any] = {}
    if name:
        details["name"] = name
    if group:
        details["group"] = group
    details["kind"] = kind
    if causes:
        details["causes"] = causes
    return _status("Failure", message, "Invalid", 422, details)


def bad_request(message: str) -> dict[str, Any]:
    """``errors.NewBadRequest``: 400 with the message, no details."""
    return _status("Failure", message, "BadRequest", 400)


def not_found(message: str) -> dict[str, Any]:
    """404 ``NotFound`` (an unserved group-version: kubectl's RESTMapper fails before any request)."""
    return _status("Failure", message, "NotFound", 404, {})


def internal_error(message: str, cause: str = "") -> dict[str, Any]:
    """``errors.NewInternalError``: 500, ``Internal error occurred: ...``."""
    return _status("Failure", f"Internal error occurred: {message}", "InternalError", 500,
                   {"causes": [{"message": cause or message}]})


def created() -> dict[str, Any]:
    """A successful create: ``Success``, 201."""
    return _status("Success", "", "", 201)


def for_create(group: str, version: str, kind: str, name: str, errors: Sequence[FieldError]) -> dict[str, Any]:
    """The status of a create whose findings are ``errors`` (CRDs and custom resources alike).

    None: ``Success``. A decoding error first (``UnmarshalTypeError``; unknown or duplicate fields under
    ``Strict``): ``BadRequest`` with ``transformDecodeError``'s words (``Widget in version "v1" cannot be
    handled as a Widget: strict decoding error: unknown field "spec.foo"``). The storage's refusal
    (``InternalError`` at ``metadata.resourceVersion``): 500. Otherwise ``Invalid``.
    """
    from crdtool.core.errors import UNMARSHAL_TYPE, DecodeError, ErrorType

    if not errors:
        return created()
    decode = [e for e in errors if isinstance(e, DecodeError)]
    if decode:
        typed = [e for e in decode if e.type == UNMARSHAL_TYPE]
        text = str(typed[0]) if typed else "strict decoding error: " + ", ".join(str(e) for e in decode)
        return bad_request(f"{kind} in version {go_quote(version)} cannot be handled as a {kind}: {text}")
    if len(errors) == 1 and errors[0].type == ErrorType.INTERNAL.value:
        return internal_error(errors[0].detail)
    return invalid(group, kind, name, errors)
