"""Unit tests for a CRD's validation rules, without a cluster: suites, a runner, rule coverage, helpers.

For Python operator authors who build objects in code (kopf users)::

    from crdtool.testing import assert_invalid, assert_valid

    assert_valid(widget, crd)                                          # the create is accepted
    assert_invalid(widget, crd, field="spec.replicas", message="must be positive")
    assert_invalid_update(new, old, crd, message="image is immutable")  # an UPDATE: transition rules

``crd`` is a CRD manifest dict, a :class:`crdtool.core.customresource.PreparedCrd` (``crdtool.prepare_crd``:
the fast path for many objects) or a path to a CRD file. The assertions raise ``AssertionError`` with the
errors the apiserver would give, each with the rule that produced it.

* :mod:`.suite` — the ``*.crdtest.yaml`` format (JSON Schema: ``crdtest.schema.json`` beside it);
* :mod:`.runner` — judging cases on the apiserver's create and update paths, expectations, ``-k``;
* :mod:`.coverage` — rule coverage; :mod:`.generate` — starter suites (``crdtool test --generate``);
* :mod:`.pytest_plugin` — collects ``*.crdtest.yaml`` files as pytest items (entry point ``crdtool``).
"""

from __future__ import annotations

import os
from typing import Any

__all__ = [
    "SCHEMA_PATH", "assert_invalid", "assert_invalid_update", "assert_valid", "assert_valid_update", "judge",
]

#: The JSON Schema of the suite format.
SCHEMA_PATH = os.path.join(os.path.dirname(__file__), "crdtest.schema.json")

_FILE_CRDS: dict[tuple[str, str], Any] = {}


def _prepared(crd: Any, obj: dict[str, Any], release: str) -> Any:
    """A PreparedCrd for ``crd`` (dict, PreparedCrd, or a file path: the CRD of ``obj``'s kind in it) served by
    ``release`` (``"1.33"``); ``ValueError`` for a PreparedCrd prepared for another release."""
    from crdtool import prepare_crd

    if isinstance(crd, (str, os.PathLike)):
        key = (os.path.abspath(os.fspath(crd)), release)
        crds = _FILE_CRDS.get(key)
        if crds is None:
            from crdtool.yaml import Document, load_path

            crds = [prepare_crd(d.data, release) for d in load_path(key[0])
                    if isinstance(d, Document) and d.data.get("kind") == "CustomResourceDefinition"]
            if not crds:
                raise ValueError(f"{crd}: no CustomResourceDefinition found")
            _FILE_CRDS[key] = crds
        api_version = obj.get("apiVersion")
        group = api_version.rpartition("/")[0] if isinstance(api_version, str) else ""
        for p in crds:
            if p.group == group and p.kind == obj.get("kind"):
                return p
        return crds[0]
    return prepare_crd(crd, release)


def judge(obj: dict[str, Any], crd: Any, old: dict[str, Any] | None = None, *, version: str | None = None,
          field_validation: str = "Strict", subresource: str | None = None, kubernetes_version: str | None = None) -> Any:
    """Run ``obj`` through the create path (or the update path from ``old``): a
    :class:`crdtool.testing.runner.Verdict` (``errors``, ``warnings``, ``stored``, ``pruned``, ``events``).

    Raises :class:`crdtool.CustomResourceError` when the request cannot be judged (a version not served).
    """
    from crdtool.testing.runner import CrdEntry, _judge
    from crdtool.testing.suite import Expectation, TestCase
    from crdtool.yaml import Document

    from crdtool.core.releases import resolve_release

    release = resolve_release(kubernetes_version).name
    prepared = _prepared(crd, obj, release)
    entry = CrdEntry(Document("<crd>", 0, 1, {}))
    entry._prepared = {release: prepared}
    entry.doc = Document("<crd>", 0, 1, {"spec": {"group": prepared.group, "names": {"kind": prepared.kind}}})
    if subresource == "status":
        raise ValueError("subresource='status' needs the CRD manifest: use a suite")
    case = TestCase("assert", "<python>", 0, obj, Expectation(), old_object=old, version=version,
                    field_validation=field_validation, subresource=subresource)
    verdict = _judge(case, entry, release)
    if verdict.request_error is not None:
        from crdtool import CustomResourceError

        raise CustomResourceError(verdict.request_error, "request")
    return verdict


def _describe(verdict: Any) -> str:
    lines = [f"  {e}" for e in verdict.errors] or ["  (no error)"]
    rules = {id(err): rule for rule, _, outcome, err in verdict.events if err is not None}
    out = []
    for e, line in zip(verdict.errors, lines):
        out.append(line)
        rule = rules.get(id(e))
        if rule is not None:
            out.append(f"    rule: {rule.get('rule')}")
    return "\n".join(out or lines)


def _match(verdict: Any, field: str | None, type: str | None, message: str | None, message_regex: str | None,
           ignore_case: bool) -> bool:
    from crdtool.testing.runner import _error_matches
    from crdtool.testing.suite import ExpectedError, ExpectedText

    want = ExpectedError(field=field, type=type, text=ExpectedText(message=message, regex=message_regex))
    if any(_error_matches(want, e, ignore_case) for e in verdict.errors):
        return True
    if field is None and type is None:
        # as envtest suites compare: the apiserver's whole message (Kind.group "name" is invalid: [e1, e2])
        from crdtool.testing.runner import status_message

        return want.text.matches(status_message(verdict), ignore_case)
    return False


def assert_valid(obj: dict[str, Any], crd: Any, *, version: str | None = None, field_validation: str = "Strict",
                 kubernetes_version: str | None = None) -> Any:
    """Assert the apiserver would accept the create of ``obj``; return the stored object (pruned, defaulted).

    Raises ``AssertionError`` listing the errors (and the rules that gave them) otherwise.
    """
    verdict = judge(obj, crd, version=version, field_validation=field_validation, kubernetes_version=kubernetes_version)
    if verdict.errors:
        raise AssertionError(f"expected the create to be accepted; the apiserver would refuse it:\n{_describe(verdict)}")
    return verdict.stored


def assert_invalid(obj: dict[str, Any], crd: Any, *, field: str | None = None, type: str | None = None,
                   message: str | None = None, message_regex: str | None = None, ignore_case: bool = False,
                   version: str | None = None, field_validation: str = "Strict",
                   kubernetes_version: str | None = None) -> list[Any]:
    """Assert the apiserver would refuse the create of ``obj`` with an error matching every part given:
    ``field`` (exact path), ``type`` (``FieldValueInvalid``...), ``message`` (a substring of the error's
    text) or ``message_regex`` (searched); ``ignore_case`` for both. Given alone, ``message`` may also match
    the apiserver's whole answer (``Kind.group "name" is invalid: [e1, e2]``), what envtest suites compare. Returns the errors; raises
    ``AssertionError`` otherwise.
    """
    verdict = judge(obj, crd, version=version, field_validation=field_validation, kubernetes_version=kubernetes_version)
    return _assert_errors(verdict, "create", field, type, message, message_regex, ignore_case)


def assert_valid_update(new: dict[str, Any], old: dict[str, Any], crd: Any, *, version: str | None = None,
                        field_validation: str = "Strict", kubernetes_version: str | None = None) -> Any:
    """Assert the apiserver would accept the update of ``old`` to ``new`` (transition rules, ratcheting);
    return the stored object. A missing ``metadata.resourceVersion`` is filled in, as clients send it."""
    verdict = judge(new, crd, old, version=version, field_validation=field_validation, kubernetes_version=kubernetes_version)
    if verdict.errors:
        raise AssertionError(f"expected the update to be accepted; the apiserver would refuse it:\n{_describe(verdict)}")
    return verdict.stored


def assert_invalid_update(new: dict[str, Any], old: dict[str, Any], crd: Any, *, field: str | None = None,
                          type: str | None = None, message: str | None = None, message_regex: str | None = None,
                          ignore_case: bool = False, version: str | None = None, field_validation: str = "Strict",
                          kubernetes_version: str | None = None) -> list[Any]:
    """As :func:`assert_invalid`, for the update of ``old`` to ``new``."""
    verdict = judge(new, crd, old, version=version, field_validation=field_validation, kubernetes_version=kubernetes_version)
    return _assert_errors(verdict, "update", field, type, message, message_regex, ignore_case)


def _assert_errors(verdict: Any, what: str, field: str | None, type: str | None, message: str | None,
                   message_regex: str | None, ignore_case: bool = False) -> list[Any]:
    if not verdict.errors:
        raise AssertionError(f"expected the {what} to be refused, but the apiserver would accept it")
    if (field or type or message or message_regex) and not _match(verdict, field, type, message, message_regex,
                                                                  ignore_case):
        wanted = " ".join(p for p in (field, type, repr(message) if message else None,
                                      f"/{message_regex}/" if message_regex else None) if p)
        raise AssertionError(f"expected an error {wanted}; the apiserver's errors are:\n{_describe(verdict)}")
    return list(verdict.errors)
