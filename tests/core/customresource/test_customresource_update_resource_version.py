"""An update without ``metadata.resourceVersion``: the store's one error, before and instead of validation.

Derived from k8s.io/apiserver v0.36.3 ``pkg/registry/generic/registry/store.go`` ``Store.Update``: inside
``GuaranteedUpdate``, ``newResourceVersion, err := e.Storage.Versioner().ObjectResourceVersion(obj)`` (an error
is returned as is), then, custom resources not allowing unconditional updates (``customResourceStrategy
.AllowUnconditionalUpdate`` is false, apiextensions-apiserver v0.36.3 ``pkg/registry/customresource/strategy.go``),
``field.Invalid(field.NewPath("metadata").Child("resourceVersion"), newResourceVersion, "must be specified for
an update")`` with ``newResourceVersion`` a ``uint64`` 0 (``ErrorBody`` json-marshals it: ``0``) — all before
``rest.BeforeUpdate`` (``pkg/registry/rest/update.go``: namespace check, ``validateCommonFields``,
``strategy.ValidateUpdate``), whose ``ValidateObjectMetaUpdate`` check of the same field is thus never reached.
``pkg/storage/api_object_versioner.go`` ``ObjectResourceVersion``: ``""`` is 0, else ``strconv.ParseUint(v, 10,
64)``.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from crdtool.core.customresource import apply_update
from tests.core.customresource.test_customresource_update import CRD, STORED

MISSING = ("FieldValueInvalid", "metadata.resourceVersion", "must be specified for an update", 0)


def errors_of(new: dict[str, Any], **kw: Any) -> list[tuple[str, str, str, Any]]:
    return [(e.type, e.field, e.detail, e.bad_value) for e in apply_update(new, STORED, CRD, **kw).errors]


def without_rv(rv: str | None = None) -> dict[str, Any]:
    new = copy.deepcopy(STORED)
    if rv is None:
        del new["metadata"]["resourceVersion"]
    else:
        new["metadata"]["resourceVersion"] = rv
    return new


@pytest.mark.parametrize("rv", [None, "", "0", "00"])
def test_missing_or_zero_resource_version_is_reported_once(rv: str | None) -> None:
    new = without_rv(rv)
    assert errors_of(new) == [MISSING]
    [error] = apply_update(new, STORED, CRD).errors
    assert str(error) == "metadata.resourceVersion: Invalid value: 0: must be specified for an update"
    assert error.to_dict()["badValue"] == 0


def test_it_replaces_validation_and_the_namespace_check() -> None:
    new = without_rv()
    new["metadata"]["name"] = "renamed"  # immutable: ValidateObjectMetaUpdate (twice) if validation ran
    new["metadata"]["namespace"] = "elsewhere"  # BeforeUpdate's namespace check comes after the store's
    new["spec"]["replicas"] = 8  # beyond the schema's maximum
    assert errors_of(new) == [MISSING]


def test_strict_decoding_errors_come_first() -> None:
    # the request body is decoded (and refused under Strict field validation) before the store is asked
    new = without_rv()
    new["spec"]["bogus"] = 1
    assert [e[:2] for e in errors_of(new)] == [("UnknownField", "spec.bogus"), MISSING[:2]]
    assert errors_of(new, field_validation="Ignore") == [MISSING]


@pytest.mark.parametrize(("rv", "detail"), [
    ("abc", 'strconv.ParseUint: parsing "abc": invalid syntax'),
    ("-1", 'strconv.ParseUint: parsing "-1": invalid syntax'),
    ("+7", 'strconv.ParseUint: parsing "+7": invalid syntax'),
    (str(2**64), 'strconv.ParseUint: parsing "18446744073709551616": value out of range'),
])
def test_an_unparsable_resource_version_is_the_versioners_error(rv: str, detail: str) -> None:
    assert errors_of(without_rv(rv)) == [("InternalError", "metadata.resourceVersion", detail, None)]


@pytest.mark.parametrize("rv", ["7", "1", str(2**64 - 1)])
def test_a_resource_version_lets_validation_run(rv: str) -> None:
    new = without_rv(rv)
    new["metadata"]["name"] = "renamed"
    assert [e[1] for e in errors_of(new)] == ["metadata.name", "metadata.name"]
