"""A pytest plugin that holds the compiled paths equal to the interpreters on every call a test suite makes.

Load it with ``python -m pytest -p tests.core.differential TESTS...``
(``tests/core/test_compiled_validation.py`` runs the custom-resource test
modules under it). While it is loaded, every call of

* ``value_validation.validate_value(value, schema, path)`` is repeated through
  ``CompiledValidator(schema)``: the same errors, and ``is_valid`` true
  exactly when there are none;
* ``value_validation.validate_list_sets_and_maps(path, schema, obj)`` likewise;
* ``defaulting.default(obj, schema)`` is repeated through
  ``compile_defaulter(schema)`` (called, and ``apply`` on a copy): the same
  value, with the same types and key order.

A difference fails the test that made the call (``AssertionError``). The
compiled forms are built afresh for every call, from the arguments as they
are at that moment.
"""

from __future__ import annotations

import json
import threading
from typing import Any

import pytest

from crdtool.core.schema import defaulting, value_validation

_GUARD = threading.local()
_ORIGINAL: dict[str, Any] = {}
CALLS = {"validate_value": 0, "validate_list_sets_and_maps": 0, "default": 0}


class _Key(str):
    """A dict key on :func:`_shape`'s stack."""


def _shape(v: Any) -> list[str]:
    """The value as tokens showing every type and every key order (for an exact comparison); any depth."""
    out: list[str] = []
    stack: list[Any] = [v]
    while stack:
        x = stack.pop()
        if type(x) is _Key:
            out.append(f"key {str.__repr__(x)}")
        elif isinstance(x, dict):
            out.append(f"{type(x).__name__}{{{len(x)}")
            for k, item in reversed(list(x.items())):
                stack.append(item)
                stack.append(_Key(k) if isinstance(k, str) else k)
        elif isinstance(x, (list, tuple)):
            out.append(f"{type(x).__name__}[{len(x)}")
            stack.extend(reversed(x))
        else:
            out.append(f"{type(x).__name__} {x!r}")
    return out


def _reentrant() -> bool:
    return getattr(_GUARD, "active", False)


def _checked_validate_value(value: Any, schema: Any, path: Any) -> Any:
    errors = _ORIGINAL["validate_value"](value, schema, path)
    if _reentrant() or not isinstance(schema, dict):
        return errors
    from crdtool.core.schema.compiled_validation import CompiledValidator

    _GUARD.active = True
    try:
        compiled = CompiledValidator(schema)
        valid = compiled.is_valid(value)
        again = compiled.validate(value, path)
    finally:
        _GUARD.active = False
    CALLS["validate_value"] += 1
    assert valid == (not errors), f"compiled is_valid={valid} but the interpreter reports {[str(e) for e in errors]}"
    assert again == errors
    return errors


def _checked_list_sets(fld_path: Any, schema: Any, obj: Any) -> Any:
    errors = _ORIGINAL["validate_list_sets_and_maps"](fld_path, schema, obj)
    if _reentrant() or not isinstance(schema, dict):
        return errors
    from crdtool.core.schema.compiled_validation import CompiledValidator

    _GUARD.active = True
    try:
        again = CompiledValidator(schema).validate_list_sets_and_maps(fld_path, obj)
    finally:
        _GUARD.active = False
    CALLS["validate_list_sets_and_maps"] += 1
    assert again == errors
    return errors


def _checked_default(obj: Any, schema: Any) -> Any:
    out = _ORIGINAL["default"](obj, schema)
    if _reentrant():
        return out
    _GUARD.active = True
    try:
        compiled = defaulting.compile_defaulter(schema) if schema is None or isinstance(schema, dict) else None
        if compiled is not None:
            before = json.dumps(_shape(obj))
            again = compiled(obj)
            in_place = compiled.apply(defaulting.copy_json(obj))
            assert json.dumps(_shape(obj)) == before, "the compiled defaulter changed its argument"
    finally:
        _GUARD.active = False
    if compiled is not None:
        CALLS["default"] += 1
        assert _shape(again) == _shape(out)
        assert _shape(in_place) == _shape(out)
    return out


def pytest_configure(config: pytest.Config) -> None:
    _ORIGINAL["validate_value"] = value_validation.validate_value
    _ORIGINAL["validate_list_sets_and_maps"] = value_validation.validate_list_sets_and_maps
    _ORIGINAL["default"] = defaulting.default
    value_validation.validate_value = _checked_validate_value  # type: ignore[assignment]
    value_validation.validate_list_sets_and_maps = _checked_list_sets  # type: ignore[assignment]
    defaulting.default = _checked_default  # type: ignore[assignment]


def pytest_terminal_summary(terminalreporter: Any) -> None:
    terminalreporter.write_line(
        "differential checks: " + ", ".join(f"{name} {count}" for name, count in CALLS.items())
    )
