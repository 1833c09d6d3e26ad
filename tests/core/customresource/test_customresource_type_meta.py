"""The create path for objects of another kind or group, the decoding-only path, and resourceVersion.

Derived from apiextensions-apiserver v0.36.3 ``pkg/registry/customresource/validator.go``
(``customResourceValidator.Validate`` returns ``ValidateTypeMeta``'s errors before any other check;
``ValidateTypeMeta``: ``field.Invalid(field.NewPath("kind"), kind, fmt.Sprintf("must be %v", a.kind.Kind))``
and the same for ``apiVersion``), ``strategy.go`` ``Validate`` (embedded resources, list types and CEL
rules still run on the object), ``customresource_handler.go`` ``unstructuredSchemaCoercer.apply`` and
``unstructuredDefaulter.Default`` (only the CRD's group and kind are pruned and defaulted), and
k8s.io/apiserver v0.36.3 ``pkg/storage/etcd3/store.go`` ``Create`` (``storage.ErrResourceVersionSetOnCreate``
when ``APIObjectVersioner.ObjectResourceVersion`` parses a non-zero uint64).
"""

from __future__ import annotations

import importlib.util
from typing import Any

import pytest

import crdtool
from crdtool.core.customresource import BLOCKING_ERROR_DETAIL, CustomResourceError, apply_create, decode_object

HAS_CEL = importlib.util.find_spec("crdtool.core.crdcel.validation") is not None

GROUP = "example.com"
SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "spec": {
            "type": "object",
            "properties": {
                "replicas": {"type": "integer", "default": 1, "minimum": 1},
                "tags": {"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "string"}},
                "template": {"type": "object", "x-kubernetes-embedded-resource": True,
                             "x-kubernetes-preserve-unknown-fields": True},
            },
            "x-kubernetes-validations": [{"rule": "!has(self.replicas) || self.replicas != 7", "message": "not seven"}],
        },
        "status": {"type": "object", "properties": {"phase": {"type": "string", "default": "Pending"}}},
    },
}


def make_crd(*, status: bool = True, versions: list[str] | None = None) -> dict[str, Any]:
    listed = []
    for i, name in enumerate(versions or ["v1"]):
        v: dict[str, Any] = {"name": name, "served": True, "storage": i == 0, "schema": {"openAPIV3Schema": SCHEMA}}
        if status:
            v["subresources"] = {"status": {}}
        listed.append(v)
    return {
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": f"foos.{GROUP}"},
        "spec": {"group": GROUP, "scope": "Namespaced",
                 "names": {"plural": "foos", "singular": "foo", "kind": "Foo", "listKind": "FooList"},
                 "versions": listed},
    }


def cr(kind: str = "Foo", api_version: str = f"{GROUP}/v1", **extra: Any) -> dict[str, Any]:
    return {"apiVersion": api_version, "kind": kind, "metadata": {"name": "foo"}, **extra}


def triples(errors: list[Any]) -> list[tuple[str, str, str]]:
    return [(e.type, e.field, e.detail) for e in errors]


# --- ValidateTypeMeta -------------------------------------------------------------------------


def test_another_kind_fails_validate_type_meta_only() -> None:
    # metadata (an invalid name) and the OpenAPI schema (replicas: 0 < minimum) are not checked
    obj = {"apiVersion": f"{GROUP}/v1", "kind": "Bar", "metadata": {"name": "Not_Valid"}, "spec": {"replicas": 0}}
    errors = crdtool.validate_object(obj, make_crd())
    assert triples(errors) == [("FieldValueInvalid", "kind", "must be Foo")]
    assert str(errors[0]) == 'kind: Invalid value: "Bar": must be Foo'


def test_another_group_fails_the_api_version_check() -> None:
    errors = crdtool.validate_object(cr(api_version="other.com/v1"), make_crd())
    assert triples(errors) == [("FieldValueInvalid", "apiVersion", "must be example.com/v1")]
    assert str(errors[0]) == 'apiVersion: Invalid value: "other.com/v1": must be example.com/v1'


def test_another_group_and_kind_fail_both_checks_in_upstream_order() -> None:
    errors = crdtool.validate_object(cr(kind="Bar", api_version="other.com/v2"), make_crd(versions=["v1", "v2"]))
    assert triples(errors) == [
        ("FieldValueInvalid", "kind", "must be Foo"),
        ("FieldValueInvalid", "apiVersion", "must be example.com/v2"),
    ]


def test_a_version_the_crd_lacks_falls_back_to_the_preferred_served_version() -> None:
    errors = crdtool.validate_object(cr(kind="Bar", api_version="other.com/v9"), make_crd(versions=["v1beta1", "v1"]))
    assert triples(errors)[-1] == ("FieldValueInvalid", "apiVersion", "must be example.com/v1")


def test_list_type_and_embedded_resource_checks_still_run_on_the_raw_object() -> None:
    obj = cr(kind="Bar", spec={"tags": ["a", "a"], "template": {"kind": "Pod"}, "unknownField": 1})
    result = apply_create(obj, make_crd())
    assert triples(result.errors) == [
        ("FieldValueInvalid", "kind", "must be Foo"),
        ("FieldValueRequired", "spec.template.apiVersion", ""),
        ("FieldValueDuplicate", "spec.tags[1]", ""),
        # Required is a blocking error (strategy.go hasBlockingErr): the CEL rules are not evaluated
        ("FieldValueInvalid", "<nil>", BLOCKING_ERROR_DETAIL),
    ]
    # not pruned, not defaulted (the schema does not apply to another kind)
    assert result.stored["spec"]["unknownField"] == 1
    assert "replicas" not in result.stored["spec"]
    assert result.pruned == []


@pytest.mark.skipif(not HAS_CEL, reason="needs CEL evaluation")
def test_cel_rules_still_run_after_type_meta_errors() -> None:
    # ValidateTypeMeta's errors are Invalid: not blocking (hasBlockingErr), so the rules run
    errors = crdtool.validate_object(cr(kind="Bar", spec={"replicas": 7}), make_crd())
    assert triples(errors) == [
        ("FieldValueInvalid", "kind", "must be Foo"),
        ("FieldValueInvalid", "spec", "not seven"),
    ]


def test_unknown_metadata_fields_of_another_kind_are_still_reported() -> None:
    # GetObjectMetaWithOptions runs before the group/kind check in unstructuredSchemaCoercer.apply
    obj = {"apiVersion": f"{GROUP}/v1", "kind": "Bar", "metadata": {"name": "foo", "bogus": 1}}
    assert triples(crdtool.validate_object(obj, make_crd())) == [
        ("UnknownField", "metadata.bogus", 'unknown field "metadata.bogus"'),
        ("FieldValueInvalid", "kind", "must be Foo"),
    ]


# --- decoding only -------------------------------------------------------------------------


def test_decode_object_keeps_and_defaults_status() -> None:
    obj = cr(spec={"tags": ["a"], "extra": 1, "replicas": None}, status={})
    result = decode_object(obj, make_crd())
    assert result.stored == {
        "apiVersion": f"{GROUP}/v1", "kind": "Foo", "metadata": {"name": "foo"},
        "spec": {"tags": ["a"], "replicas": 1}, "status": {"phase": "Pending"},
    }
    assert result.pruned == ["spec.extra"]
    assert result.errors == []
    # the create path drops status (PrepareForCreate with the status subresource on)
    assert "status" not in apply_create(obj, make_crd(), field_validation="Ignore").stored


def test_default_with_a_crd_is_the_request_decoding_path() -> None:
    obj = cr(spec={}, status={})
    assert crdtool.default(obj, make_crd()) == decode_object(obj, make_crd()).stored
    assert crdtool.default(obj, crdtool.prepare_crd(make_crd()))["status"] == {"phase": "Pending"}
    # with a schema, structural defaulting only (no pruning)
    assert crdtool.default({"spec": {}, "x": 1}, SCHEMA) == {"spec": {"replicas": 1}, "x": 1}


def test_decode_object_refuses_another_kind() -> None:
    with pytest.raises(CustomResourceError) as info:
        decode_object(cr(kind="Bar"), make_crd())
    assert info.value.reason == "kind-mismatch"


# --- resourceVersion on create --------------------------------------------------------------

RV_DETAIL = "resourceVersion should not be set on objects to be created"


@pytest.mark.parametrize(
    ("resource_version", "rejected"),
    [("12345", True), ("1", True), ("0", False), ("", False), ("abc", False), ("-1", False),
     (str(2**64), False), (str(2**64 - 1), True)],
)
def test_resource_version_on_create(resource_version: str, rejected: bool) -> None:
    obj = cr(spec={"replicas": 2})
    obj["metadata"]["resourceVersion"] = resource_version
    got = triples(crdtool.validate_object(obj, make_crd()))
    assert got == ([("InternalError", "metadata.resourceVersion", RV_DETAIL)] if rejected else [])


def test_resource_version_is_only_reported_once_validation_passed() -> None:
    obj = cr(spec={"replicas": 0})
    obj["metadata"]["resourceVersion"] = "99"
    assert triples(crdtool.validate_object(obj, make_crd())) == [
        ("FieldValueInvalid", "spec.replicas", "spec.replicas in body should be greater than or equal to 1")
    ]
    # a strict-decoding error stops the request before storage too; with Warn it reaches storage
    obj = cr(spec={"replicas": 2, "bogus": 1})
    obj["metadata"]["resourceVersion"] = "99"
    assert [e.type for e in apply_create(obj, make_crd()).errors] == ["UnknownField"]
    assert triples(apply_create(obj, make_crd(), field_validation="Warn").errors) == [
        ("InternalError", "metadata.resourceVersion", RV_DETAIL)
    ]
