"""The update path for objects of another kind or group: upstream's ValidateTypeMeta errors, not an exception.

Derived from apiextensions-apiserver v0.36.3 ``pkg/registry/customresource/validator.go``
(``customResourceValidator.ValidateUpdate`` returns ``ValidateTypeMeta``'s errors before the ObjectMeta update
rules, the OpenAPI schema and the scale checks: ``field.Invalid(field.NewPath("kind"), kind, fmt.Sprintf("must
be %v", a.kind.Kind))`` and the same for ``apiVersion``), ``strategy.go`` ``ValidateUpdate`` (embedded
resources, list types and CEL rules with the old object still run), and k8s.io/apiserver v0.36.3
``pkg/registry/rest/update.go`` ``BeforeUpdate`` (``validateCommonFields``, ObjectMeta and its update rules,
comes first and always runs).
"""

from __future__ import annotations

import copy
import importlib.util
from typing import Any

import pytest

import crdtool
from crdtool.core.customresource import BLOCKING_ERROR_DETAIL
from crdtool.core.customresource import apply_update

from tests.core.customresource.test_customresource_type_meta import GROUP, SCHEMA, cr, make_crd, triples

HAS_CEL = importlib.util.find_spec("crdtool.core.crdcel.validation") is not None


def stored(**extra: Any) -> dict[str, Any]:
    obj = cr(spec={"replicas": 2}, **extra)
    obj["metadata"].update(resourceVersion="5", namespace="default")
    return obj


def sent(kind: str = "Foo", api_version: str = f"{GROUP}/v1", **extra: Any) -> dict[str, Any]:
    obj = cr(kind=kind, api_version=api_version, **extra)
    obj["metadata"].update(resourceVersion="5")
    return obj


def test_another_kind_fails_validate_type_meta_only() -> None:
    # the OpenAPI schema (replicas: 0 < minimum) is not checked
    errors = crdtool.validate_object_update(sent("Bar", spec={"replicas": 0}), stored(), make_crd())
    assert triples(errors) == [("FieldValueInvalid", "kind", "must be Foo")]
    assert str(errors[0]) == 'kind: Invalid value: "Bar": must be Foo'
    assert errors[0].bad_value == "Bar"


def test_another_group_fails_the_api_version_check() -> None:
    errors = crdtool.validate_object_update(sent(api_version="other.com/v1"), stored(), make_crd())
    assert triples(errors) == [("FieldValueInvalid", "apiVersion", "must be example.com/v1")]
    assert str(errors[0]) == 'apiVersion: Invalid value: "other.com/v1": must be example.com/v1'


def test_another_group_and_kind_fail_both_checks_in_upstream_order() -> None:
    errors = crdtool.validate_object_update(sent("Bar", "other.com/v2"), stored(), make_crd(versions=["v1", "v2"]))
    assert triples(errors) == [
        ("FieldValueInvalid", "kind", "must be Foo"),
        ("FieldValueInvalid", "apiVersion", "must be example.com/v2"),
    ]


def test_a_version_the_crd_lacks_falls_back_to_the_preferred_served_version() -> None:
    errors = crdtool.validate_object_update(sent("Bar", "other.com/v9"), stored(), make_crd(versions=["v1beta1", "v1"]))
    assert triples(errors)[-1] == ("FieldValueInvalid", "apiVersion", "must be example.com/v1")


def test_validate_common_fields_still_run_first_and_once() -> None:
    # BeforeUpdate's validateCommonFields reports the immutable name once; ValidateUpdate's own
    # ValidateObjectMetaAccessorUpdate (which would report it again) is skipped after ValidateTypeMeta
    new = sent("Bar")
    new["metadata"]["name"] = "other"
    errors = crdtool.validate_object_update(new, stored(), make_crd())
    assert triples(errors) == [
        ("FieldValueInvalid", "metadata.name", "field is immutable"),
        ("FieldValueInvalid", "kind", "must be Foo"),
    ]
    # the same rename of the right kind: reported twice, as upstream does
    new = sent()
    new["metadata"]["name"] = "other"
    assert [e.field for e in crdtool.validate_object_update(new, stored(), make_crd())] == ["metadata.name"] * 2


def test_list_type_and_embedded_resource_checks_still_run_on_the_raw_object() -> None:
    new = sent("Bar", spec={"tags": ["a", "a"], "template": {"kind": "Pod"}, "unknownField": 1})
    result = apply_update(new, stored(), make_crd())
    assert triples(result.errors) == [
        ("FieldValueInvalid", "kind", "must be Foo"),
        ("FieldValueRequired", "spec.template.apiVersion", ""),
        ("FieldValueDuplicate", "spec.tags[1]", ""),
        ("FieldValueInvalid", "<nil>", BLOCKING_ERROR_DETAIL),
    ]
    # not pruned, not defaulted
    assert result.stored["spec"]["unknownField"] == 1
    assert result.pruned == []
    assert result.ratcheted == []


@pytest.mark.skipif(not HAS_CEL, reason="needs CEL evaluation")
def test_cel_rules_still_run_with_the_old_object() -> None:
    schema = copy.deepcopy(SCHEMA)
    schema["properties"]["spec"]["x-kubernetes-validations"].append(
        {"rule": "self.replicas >= oldSelf.replicas", "message": "no scaling down"}
    )
    crd = make_crd()
    crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"] = schema
    errors = crdtool.validate_object_update(sent("Bar", spec={"replicas": 1}), stored(), crd)
    assert triples(errors) == [
        ("FieldValueInvalid", "kind", "must be Foo"),
        ("FieldValueInvalid", "spec", "no scaling down"),
    ]


def test_a_stored_object_of_another_kind_still_raises() -> None:
    # what etcd holds passed ValidateTypeMeta on create: a stored Bar is the caller's mistake
    with pytest.raises(crdtool.CustomResourceError):
        crdtool.validate_object_update(sent(), stored() | {"kind": "Bar"}, make_crd())
