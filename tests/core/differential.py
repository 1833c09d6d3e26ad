"""A pytest plugin that holds the compiled paths equal to the interpreters on every call a test suite makes.

Load it with ``python -m pytest -p tests.core.differential TESTS...``
(``tests/core/test_compiled_validation.py`` runs the custom-resource test
modules under it). While it is loaded:

* every call of the interpreters, ``value_validation.validate_value``,
  ``value_validation.validate_list_sets_and_maps`` and ``defaulting.default``,
  is repeated through a freshly compiled ``CompiledValidator`` /
  ``compile_defaulter`` of the same schema;
* every use of the compiled forms (``CompiledValidator.validate``,
  ``.is_valid``, ``.validate_list_sets_and_maps``, ``Defaulter.__call__`` and
  ``.apply``), as the create path and the fuzzer make them, is repeated
  through the interpreter.

The results must be the same: the same errors in the same order, ``is_valid``
true exactly when there are none, defaulted values with the same types and
key order. A difference fails the test that made the call (``AssertionError``).
"""

from __future__ import annotations

import threading
from typing import Any, Callable

import pytest

from crdtool.core.schema import defaulting
from crdtool.core.validation import compiled_validation, value_validation

_GUARD = threading.local()
_ORIGINAL: dict[str, Any] = {}
CALLS = {"validate_value": 0, "validate_list_sets_and_maps": 0, "default": 0, "compiled": 0}


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


def _check(compare: Callable[[], None]) -> None:
    """Run ``compare`` unless a comparison is already running (the two paths call each other)."""
    if getattr(_GUARD, "active", False):
        return
    _GUARD.active = True
    try:
        compare()
    finally:
        _GUARD.active = False


# --- the interpreters, checked against fresh compilations ----------------------------------------------


def _checked_validate_value(value: Any, schema: Any, path: Any, *, release: Any = None) -> Any:
    errors = _ORIGINAL["validate_value"](value, schema, path, release=release)

    def compare() -> None:
        compiled = compiled_validation.CompiledValidator(schema, release)
        valid = _ORIGINAL["is_valid"](compiled, value)
        assert valid == (not errors), f"compiled is_valid={valid}; the interpreter: {[str(e) for e in errors]}"
        assert _ORIGINAL["validate"](compiled, value, path) == errors
        CALLS["validate_value"] += 1

    if isinstance(schema, dict):
        _check(compare)
    return errors


def _checked_list_sets(fld_path: Any, schema: Any, obj: Any) -> Any:
    errors = _ORIGINAL["validate_list_sets_and_maps"](fld_path, schema, obj)

    def compare() -> None:
        assert _ORIGINAL["lists"](compiled_validation.CompiledValidator(schema), fld_path, obj) == errors
        CALLS["validate_list_sets_and_maps"] += 1

    if isinstance(schema, dict):
        _check(compare)
    return errors


def _checked_default(obj: Any, schema: Any) -> Any:
    out = _ORIGINAL["default"](obj, schema)

    def compare() -> None:
        compiled = defaulting.compile_defaulter(schema)
        if compiled is None:
            return
        before = _shape(obj)
        assert _shape(_ORIGINAL["call"](compiled, obj)) == _shape(out)
        assert _shape(_ORIGINAL["apply"](compiled, defaulting.copy_json(obj))) == _shape(out)
        assert _shape(obj) == before, "the compiled defaulter changed its argument"
        CALLS["default"] += 1

    if schema is None or isinstance(schema, dict):
        _check(compare)
    return out


# --- the compiled forms, checked against the interpreters -------------------------------------------------


def _checked_validate(self: Any, value: Any, path: Any) -> Any:
    errors = _ORIGINAL["validate"](self, value, path)

    def compare() -> None:
        assert errors == _ORIGINAL["validate_value"](value, self.schema, path, release=self.release)
        CALLS["compiled"] += 1

    _check(compare)
    return errors


def _checked_is_valid(self: Any, value: Any) -> Any:
    valid = _ORIGINAL["is_valid"](self, value)

    def compare() -> None:
        exact = _ORIGINAL["validate_value"](value, self.schema, None, release=self.release)
        assert valid == (not exact), [str(e) for e in exact]
        CALLS["compiled"] += 1

    _check(compare)
    return valid


def _checked_lists(self: Any, fld_path: Any, obj: Any) -> Any:
    errors = _ORIGINAL["lists"](self, fld_path, obj)

    def compare() -> None:
        assert errors == _ORIGINAL["validate_list_sets_and_maps"](fld_path, self.schema, obj)
        CALLS["compiled"] += 1

    _check(compare)
    return errors


def _checked_call(self: Any, obj: Any) -> Any:
    out = _ORIGINAL["call"](self, obj)

    def compare() -> None:
        assert _shape(out) == _shape(_ORIGINAL["default"](obj, self.schema))
        CALLS["compiled"] += 1

    _check(compare)
    return out


def _checked_apply(self: Any, obj: Any) -> Any:
    before = defaulting.copy_json(obj)
    out = _ORIGINAL["apply"](self, obj)

    def compare() -> None:
        assert _shape(out) == _shape(_ORIGINAL["default"](before, self.schema))
        CALLS["compiled"] += 1

    _check(compare)
    return out


def pytest_configure(config: pytest.Config) -> None:
    cv = compiled_validation.CompiledValidator
    _ORIGINAL.update(
        validate_value=value_validation.validate_value,
        validate_list_sets_and_maps=value_validation.validate_list_sets_and_maps,
        default=defaulting.default,
        validate=cv.validate,
        is_valid=cv.is_valid,
        lists=cv.validate_list_sets_and_maps,
        call=defaulting.Defaulter.__call__,
        apply=defaulting.Defaulter.apply,
    )
    value_validation.validate_value = _checked_validate_value  # type: ignore[assignment]
    value_validation.validate_list_sets_and_maps = _checked_list_sets  # type: ignore[assignment]
    defaulting.default = _checked_default  # type: ignore[assignment]
    cv.validate = _checked_validate  # type: ignore[method-assign]
    cv.is_valid = _checked_is_valid  # type: ignore[method-assign]
    cv.validate_list_sets_and_maps = _checked_lists  # type: ignore[method-assign]
    defaulting.Defaulter.__call__ = _checked_call  # type: ignore[method-assign]
    defaulting.Defaulter.apply = _checked_apply  # type: ignore[method-assign]


def pytest_terminal_summary(terminalreporter: Any) -> None:
    terminalreporter.write_line(
        "differential checks: " + ", ".join(f"{name} {count}" for name, count in CALLS.items())
    )
