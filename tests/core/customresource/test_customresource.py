"""The create path of custom resources (``crdtool.core.customresource``).

Our own cases, each pinning a behaviour of upstream's create path:

- ``customresource_handler.go`` ``unstructuredSchemaCoercer.apply`` (metadata decoding, pruning with
  unknown-field paths, null pruning, embedded-resource coercion), ``unstructuredDefaulter``;
- ``registry/rest/create.go`` ``BeforeCreate`` (request namespace, generateName);
- ``registry/customresource/strategy.go`` (``PrepareForCreate`` drops ``status`` when the status
  subresource is on; ``Validate``: ``hasBlockingErr`` and its message; ``WarningsOnCreate``);
- ``registry/customresource/validator.go`` (``NameIsDNSSubdomain``, scale replicas, and
  ``validator_test.go``'s rule that the DNS-1123 name check applies whatever the schema says);
- ``schema/objectmeta`` ``Validate``/``Coerce`` of embedded resources;
- the defaulting KEP (shared/seeds/002) examples, end to end.
"""

from __future__ import annotations

import copy
import importlib.util
import json
import re
import sys
import types
from pathlib import Path as FsPath
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from crdtool.core import crdcel as crdcel_package
from crdtool.core.customresource import (
    BLOCKING_ERROR_DETAIL,
    CreateResult,
    CustomResourceError,
    apply_create,
    default,
    prepare_crd,
    prune,
    prune_non_nullable_nulls,
    resolve_version,
    validate_object,
)
from crdtool.core.errors import FieldError

HAS_CEL = importlib.util.find_spec("crdtool.core.crdcel.validation") is not None
needs_cel = pytest.mark.xfail(not HAS_CEL, strict=True, reason="needs CEL evaluation (crdtool.core.crdcel.validation)")
#: the defaulting KEP's "Examples" section (a copy of ../shared/seeds/002, see its header)
KEP_EXAMPLES = FsPath(__file__).resolve().parent / "kep_defaulting_examples.md"

GROUP = "example.com"
API_VERSION = f"{GROUP}/v1"


def make_crd(
    spec_schema: dict[str, Any] | None = None,
    *,
    root: dict[str, Any] | None = None,
    scope: str = "Namespaced",
    subresources: dict[str, Any] | None = None,
    versions: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """A v1 CRD for kind Foo in example.com whose v1 schema has ``spec_schema`` under ``spec``."""
    if root is None:
        root = {"type": "object", "properties": {"spec": spec_schema or {"type": "object"}}}
    version: dict[str, Any] = {"name": "v1", "served": True, "storage": True, "schema": {"openAPIV3Schema": root}}
    if subresources is not None:
        version["subresources"] = subresources
    return {
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": f"foos.{GROUP}"},
        "spec": {
            "group": GROUP,
            "scope": scope,
            "names": {"plural": "foos", "singular": "foo", "kind": "Foo", "listKind": "FooList"},
            "versions": versions or [version],
        },
    }


def make_cr(spec: Any = None, **meta: Any) -> dict[str, Any]:
    obj: dict[str, Any] = {"apiVersion": API_VERSION, "kind": "Foo", "metadata": {"name": "foo", **meta}}
    if spec is not None:
        obj["spec"] = spec
    return obj


def kinds(errors: list[FieldError]) -> list[tuple[str, str]]:
    return [(e.type, e.field) for e in errors]


# --- version resolution ----------------------------------------------------------------


def test_resolves_the_objects_version() -> None:
    crd = make_crd(versions=[
        {"name": "v1", "served": True, "storage": True, "schema": {"openAPIV3Schema": {"type": "object"}}},
        {"name": "v2", "served": True, "storage": False, "schema": {"openAPIV3Schema": {"type": "object"}}},
    ])
    assert resolve_version({**make_cr(), "apiVersion": f"{GROUP}/v2"}, crd).name == "v2"
    assert resolve_version(make_cr(), crd, "v1").name == "v1"


@pytest.mark.parametrize(
    ("obj", "version", "reason", "text"),
    [
        ({**make_cr(), "apiVersion": f"{GROUP}/v9"}, None, "unknown-version",
         'no matches for kind "Foo" in version "example.com/v9"'),
        (make_cr(), "v2", "version-mismatch", 'is not the requested version "example.com/v2"'),
        ({"apiVersion": API_VERSION}, None, "no-kind", "Object 'Kind' is missing"),
        ({"kind": "Foo"}, None, "no-api-version", "Object 'apiVersion' is missing"),
        ({**make_cr(), "apiVersion": "a/b/c"}, None, "bad-api-version", "unexpected GroupVersion string: a/b/c"),
    ],
)
def test_objects_the_crd_does_not_serve_raise(obj: dict[str, Any], version: str | None, reason: str, text: str) -> None:
    with pytest.raises(CustomResourceError) as info:
        validate_object(obj, make_crd(), version)
    assert info.value.reason == reason
    assert text in str(info.value)
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize(
    ("obj", "reason", "text"),
    [
        ({**make_cr(), "kind": "Bar"}, "kind-mismatch", 'Bar in group "example.com" is not the kind of CRD'),
        ({**make_cr(), "apiVersion": "other.com/v1"}, "kind-mismatch", 'group "other.com"'),
    ],
)
def test_resolving_an_object_of_another_group_or_kind_raises(obj: dict[str, Any], reason: str, text: str) -> None:
    with pytest.raises(CustomResourceError) as info:
        resolve_version(obj, make_crd())
    assert info.value.reason == reason and text in str(info.value)


def test_unserved_version_is_not_found() -> None:
    crd = make_crd(versions=[
        {"name": "v1", "served": True, "storage": True, "schema": {"openAPIV3Schema": {"type": "object"}}},
        {"name": "v1alpha1", "served": False, "storage": False, "schema": {"openAPIV3Schema": {"type": "object"}}},
    ])
    with pytest.raises(CustomResourceError) as info:
        apply_create({**make_cr(), "apiVersion": f"{GROUP}/v1alpha1"}, crd)
    assert info.value.reason == "not-served"
    assert 'version "v1alpha1" of CRD foos.example.com is not served (served: v1)' in str(info.value)


def test_undecodable_crd_is_a_bad_crd() -> None:
    crd = make_crd()
    crd["spec"]["versions"][0]["served"] = "yes"
    with pytest.raises(CustomResourceError) as info:
        prepare_crd(crd)
    assert info.value.reason == "bad-crd"


def test_top_level_v1beta1_validation_applies_to_every_version() -> None:
    crd = {
        "apiVersion": "apiextensions.k8s.io/v1beta1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": f"foos.{GROUP}"},
        "spec": {
            "group": GROUP,
            "names": {"plural": "foos", "kind": "Foo"},
            "scope": "Namespaced",
            "preserveUnknownFields": False,
            "versions": [{"name": "v1", "served": True, "storage": True}, {"name": "v2", "served": True, "storage": False}],
            "validation": {"openAPIV3Schema": {"type": "object", "properties": {"spec": {
                "type": "object", "properties": {"replicas": {"type": "integer", "minimum": 1}}}}}},
        },
    }
    for version in ("v1", "v2"):
        errors = validate_object({**make_cr({"replicas": 0}), "apiVersion": f"{GROUP}/{version}"}, crd)
        assert kinds(errors) == [("FieldValueInvalid", "spec.replicas")]


# --- decoding: pruning, unknown fields, metadata -----------------------------------------


SPEC = {"type": "object", "properties": {"replicas": {"type": "integer"}, "image": {"type": "string"}}}


def test_unknown_fields_are_pruned_and_strict_field_validation_reports_them() -> None:
    obj = make_cr({"replicas": 1, "bogus": True}, bogus2="x")
    obj["extra"] = {"a": 1}
    result = apply_create(obj, make_crd(SPEC))
    # upstream order: unknown metadata fields (GetObjectMetaWithOptions), then the sorted pruned paths
    assert result.pruned == ["metadata.bogus2", "extra", "spec.bogus"]
    assert [(e.type, e.field, e.detail) for e in result.errors] == [
        ("UnknownField", "metadata.bogus2", 'unknown field "metadata.bogus2"'),
        ("UnknownField", "extra", 'unknown field "extra"'),
        ("UnknownField", "spec.bogus", 'unknown field "spec.bogus"'),
    ]
    assert result.stored == {"apiVersion": API_VERSION, "kind": "Foo", "metadata": {"name": "foo"}, "spec": {"replicas": 1}}


def test_warn_field_validation_turns_unknown_fields_into_warnings() -> None:
    result = apply_create(make_cr({"bogus": 1}), make_crd(SPEC), field_validation="Warn", duplicate_fields=["spec.x"])
    assert result.errors == []
    assert result.warnings == ['duplicate field "spec.x"', 'unknown field "spec.bogus"']
    ignored = apply_create(make_cr({"bogus": 1}), make_crd(SPEC), field_validation="Ignore")
    assert ignored.errors == [] and ignored.warnings == [] and ignored.pruned == ["spec.bogus"]
    with pytest.raises(ValueError):
        apply_create(make_cr(), make_crd(SPEC), field_validation="Lenient")


def test_duplicate_fields_are_strict_decoding_errors() -> None:
    result = apply_create(make_cr({"replicas": 1}), make_crd(SPEC), duplicate_fields=["spec.replicas"])
    assert [(e.type, str(e)) for e in result.errors] == [("DuplicateField", 'duplicate field "spec.replicas"')]


def test_preserve_unknown_fields_keeps_them() -> None:
    spec = {"type": "object", "x-kubernetes-preserve-unknown-fields": True}
    result = apply_create(make_cr({"anything": {"goes": [1]}}), make_crd(spec))
    assert result.pruned == [] and result.errors == []
    assert result.stored["spec"] == {"anything": {"goes": [1]}}


def test_v1beta1_preserve_unknown_fields_true_neither_prunes_nor_drops_nulls() -> None:
    crd = {
        "apiVersion": "apiextensions.k8s.io/v1beta1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": f"foos.{GROUP}"},
        "spec": {"group": GROUP, "version": "v1", "names": {"plural": "foos", "kind": "Foo"}, "scope": "Namespaced",
                 "validation": {"openAPIV3Schema": {"properties": {"spec": {"type": "object"}}}}},
    }
    result = apply_create(make_cr(None) | {"spec": None, "other": 1}, crd)
    assert result.pruned == []
    assert result.stored["other"] == 1
    assert [(e.type, e.field, e.detail) for e in result.errors] == [
        ("FieldValueTypeInvalid", "spec", 'spec in body must be of type object: "null"'),
    ]


def test_no_prune_keeps_unknown_fields_but_still_drops_nulls() -> None:
    result = apply_create(make_cr({"bogus": 1, "image": None}, bogus2=1), make_crd(SPEC), prune=False)
    assert result.pruned == [] and result.errors == []
    assert result.stored["spec"] == {"bogus": 1}
    assert result.stored["metadata"] == {"name": "foo", "bogus2": 1}


def test_nulls_without_default_are_dropped_before_validation() -> None:
    # PruneNonNullableNullsWithoutDefaults: no "must be of type string" error for image: null
    result = apply_create(make_cr({"image": None, "replicas": 2}), make_crd(SPEC))
    assert result.errors == []
    assert result.stored["spec"] == {"replicas": 2}


def test_metadata_is_rewritten_as_object_meta() -> None:
    obj = make_cr(labels={"a": "b"}, annotations={}, namespace="", generation=0, uid="",
                  ownerReferences=[{"apiVersion": "v1", "kind": "ConfigMap", "name": "x", "uid": "u", "extra": 1}])
    result = apply_create(obj, make_crd())
    assert result.stored["metadata"] == {
        "name": "foo",
        "labels": {"a": "b"},
        "ownerReferences": [{"apiVersion": "v1", "kind": "ConfigMap", "name": "x", "uid": "u"}],
    }
    assert result.pruned == ["metadata.ownerReferences[0].extra"]


def test_undecodable_metadata_stops_the_create() -> None:
    result = apply_create(make_cr({"replicas": "x"}, labels={"a": 1}), make_crd(SPEC))
    assert [(e.type, e.field) for e in result.errors] == [("UnmarshalTypeError", "metadata.labels")]
    assert "cannot unmarshal" in result.errors[0].detail


# --- BeforeCreate and PrepareForCreate ------------------------------------------------------


def test_namespaced_object_without_namespace_is_created_in_default() -> None:
    result = apply_create(make_cr(), make_crd())
    assert result.errors == []
    assert "namespace" not in result.stored["metadata"]  # the request namespace is not written back


def test_invalid_namespace_is_reported() -> None:
    errors = validate_object(make_cr(namespace="Not_Valid"), make_crd())
    assert kinds(errors) == [("FieldValueInvalid", "metadata.namespace")]


def test_cluster_scoped_object_loses_its_namespace() -> None:
    # EnsureObjectNamespaceMatchesRequestNamespace clears it: no "not allowed on this type" error
    assert validate_object(make_cr(namespace="default"), make_crd(scope="Cluster")) == []


def test_generate_name_becomes_a_name() -> None:
    obj = make_cr()
    obj["metadata"] = {"generateName": "foo-"}
    assert validate_object(obj, make_crd()) == []
    obj["metadata"] = {"generateName": "Foo-"}
    errors = validate_object(obj, make_crd())
    assert kinds(errors) == [("FieldValueInvalid", "metadata.generateName"), ("FieldValueInvalid", "metadata.name")]
    assert errors[1].bad_value == "Foo-xxxxx"


def test_missing_name_is_required() -> None:
    obj = make_cr()
    del obj["metadata"]
    errors = validate_object(obj, make_crd())
    assert [str(e) for e in errors] == ["metadata.name: Required value: name or generateName is required"]


def test_name_is_a_dns_subdomain_whatever_the_schema_says() -> None:
    # validator_test.go TestValidateCustomResourceName: both checks apply
    root = {"type": "object", "properties": {"metadata": {"type": "object", "properties": {
        "name": {"type": "string", "pattern": "^[A-Za-z]+$"}}}}}
    crd = make_crd(root=root, scope="Cluster")
    assert validate_object(make_cr(), crd) == []
    upper = validate_object({**make_cr(), "metadata": {"name": "Foo"}}, crd)
    assert kinds(upper) == [("FieldValueInvalid", "metadata.name")]
    assert "RFC 1123 subdomain" in upper[0].detail
    digits = validate_object({**make_cr(), "metadata": {"name": "foo123"}}, crd)
    assert kinds(digits) == [("FieldValueInvalid", "metadata.name")]
    assert "should match" in digits[0].detail
    long_prefix = validate_object({**make_cr(), "metadata": {"name": "foo", "generateName": "a" * 253}}, crd)
    assert long_prefix == []


def test_labels_and_annotations_are_validated() -> None:
    errors = validate_object(make_cr(labels={"bad key!": "v"}, annotations={"ok": "v"}), make_crd())
    assert kinds(errors) == [("FieldValueInvalid", "metadata.labels")]


def test_user_generation_is_replaced_by_one() -> None:
    assert validate_object(make_cr(generation=-5), make_crd()) == []


def test_status_is_dropped_with_the_status_subresource() -> None:
    root = {"type": "object", "properties": {
        "spec": SPEC, "status": {"type": "object", "properties": {"ready": {"type": "integer"}}}}}
    obj = make_cr({"replicas": 1}) | {"status": {"ready": "not a number"}}
    with_status = apply_create(obj, make_crd(root=root, subresources={"status": {}}))
    assert with_status.errors == []
    assert "status" not in with_status.stored
    without = apply_create(obj, make_crd(root=root))
    assert kinds(without.errors) == [("FieldValueTypeInvalid", "status.ready")]
    assert without.stored["status"] == {"ready": "not a number"}


def test_finalizer_warnings() -> None:
    # validator.go validateKubeFinalizerName: a name with a dot but no path gets its own text
    result = apply_create(make_cr(finalizers=["example.com/ok", "kubernetes", "mine", "my.domain"]), make_crd())
    assert result.errors == []
    assert result.warnings == [
        ('metadata.finalizers: "mine": prefer a domain-qualified finalizer name to avoid accidental conflicts '
         "with other finalizer writers"),
        ('metadata.finalizers: "my.domain": prefer a domain-qualified finalizer name including a path (/) '
         "to avoid accidental conflicts with other finalizer writers"),
    ]
    # rest.BeforeCreate: no WarningsOnCreate when validation fails
    failing = apply_create(make_cr(finalizers=["mine"], namespace="Not_Valid"), make_crd())
    assert failing.errors and failing.warnings == []


def test_deprecated_version_warns() -> None:
    schema = {"openAPIV3Schema": {"type": "object"}}
    crd = make_crd(versions=[
        {"name": "v1", "served": True, "storage": True, "deprecated": True, "schema": schema},
        {"name": "v2", "served": True, "storage": False, "schema": schema},
        {"name": "v3", "served": True, "storage": False, "schema": schema, "deprecated": True,
         "deprecationWarning": "v3 is going away"},
    ])
    assert apply_create(make_cr(), crd).warnings == ["example.com/v1 Foo is deprecated; use example.com/v2 Foo"]
    assert apply_create({**make_cr(), "apiVersion": f"{GROUP}/v3"}, crd).warnings == ["v3 is going away"]


# --- scale subresource ------------------------------------------------------------------------


SCALE = {"scale": {"specReplicasPath": ".spec.replicas", "statusReplicasPath": ".status.replicas",
                   "labelSelectorPath": ".status.selector"}}


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ({"replicas": 3}, []),
        ({}, []),
        ({"replicas": -1}, [("FieldValueInvalid", ".spec.replicas", "should be a non-negative integer")]),
        ({"replicas": 2**31}, [("FieldValueInvalid", ".spec.replicas", "should be less than or equal to 2147483647")]),
        ({"replicas": "3"}, [("FieldValueInvalid", ".spec.replicas",
                              ".spec.replicas accessor error: 3 is of the type string, expected int64")]),
    ],
)
def test_scale_spec_replicas(spec: dict[str, Any], expected: list[tuple[str, str, str]]) -> None:
    crd = make_crd({"type": "object", "x-kubernetes-preserve-unknown-fields": True}, subresources=SCALE)
    errors = validate_object(make_cr(spec), crd)
    assert [(e.type, e.field, e.detail) for e in errors] == expected


# --- embedded resources ------------------------------------------------------------------------


EMBEDDED = {"type": "object", "properties": {"template": {
    "type": "object", "x-kubernetes-embedded-resource": True, "x-kubernetes-preserve-unknown-fields": True}}}


def test_embedded_resource_needs_api_version_and_kind() -> None:
    errors = validate_object(make_cr({"template": {"metadata": {"name": "x"}}}), make_crd(EMBEDDED))
    assert [str(e) for e in errors] == ["spec.template.apiVersion: Required value", "spec.template.kind: Required value"]


def test_embedded_metadata_is_validated_and_its_unknown_fields_pruned() -> None:
    template = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "a/b", "foo": 1}, "spec": {"x": 1}}
    result = apply_create(make_cr({"template": template}), make_crd(EMBEDDED))
    assert result.pruned == ["spec.template.metadata.foo"]
    assert kinds(result.errors) == [("UnknownField", "spec.template.metadata.foo"),
                                    ("FieldValueInvalid", "spec.template.metadata.name")]
    assert result.stored["spec"]["template"] == {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "a/b"}, "spec": {"x": 1}}


def test_embedded_kind_must_be_a_string() -> None:
    result = apply_create(make_cr({"template": {"apiVersion": "v1", "kind": 5}}), make_crd(EMBEDDED))
    assert [str(e) for e in result.errors] == ["spec.template.kind: Invalid value: 5: must be a string"]


# --- CEL and the blocking error ----------------------------------------------------------------------


CEL_SPEC = {
    "type": "object",
    "properties": {"replicas": {"type": "integer", "minimum": 0}, "mode": {"type": "string", "enum": ["a", "b"]}},
    "x-kubernetes-validations": [{"rule": "self.replicas < 10", "message": "too many"}],
}


@pytest.fixture
def fake_cel(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """A stand-in ``cel_eval`` honouring the agreed contract; records its calls."""
    calls: list[Any] = []

    class Result:
        def __init__(self, errors: list[FieldError], skipped: int) -> None:
            self.errors, self.skipped_transition_rules, self.remaining_budget = errors, skipped, 0

    def validate_cel(obj: Any, ss: Any, fld_path: str, is_resource_root: bool = True, budget: Any = None,
                     release: Any = None) -> Result:
        calls.append((obj, fld_path, is_resource_root, budget))
        return Result([FieldError("FieldValueInvalid", "spec", "too many", "object")], 1)

    module = types.ModuleType("crdtool.core.crdcel.validation")
    module.validate_cel = validate_cel  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "crdtool.core.crdcel.validation", module)
    monkeypatch.setattr(crdcel_package, "validation", module, raising=False)
    return calls


def test_cel_runs_when_no_blocking_error(fake_cel: list[Any]) -> None:
    # minimum is a FieldValueInvalid: not blocking, so the rules are evaluated
    result = apply_create(make_cr({"replicas": -1}), make_crd(CEL_SPEC))
    assert kinds(result.errors) == [("FieldValueInvalid", "spec.replicas"), ("FieldValueInvalid", "spec")]
    assert len(fake_cel) == 1
    obj, fld_path, is_root, budget = fake_cel[0]
    assert fld_path is None and is_root is True and budget is None  # celValidator.Validate(ctx, nil, ...)
    assert obj["metadata"]["namespace"] == "default"  # the rules see the object as it is validated
    assert result.warnings == ["1 transition rule (using oldSelf) not evaluated: they only apply to updates"]


@pytest.mark.parametrize(
    ("spec", "blocking_type"),
    [({"mode": "c"}, "FieldValueNotSupported"), ({"replicas": "x"}, "FieldValueTypeInvalid")],
)
def test_cel_is_skipped_after_a_blocking_error(fake_cel: list[Any], spec: dict[str, Any], blocking_type: str) -> None:
    errors = validate_object(make_cr(spec), make_crd(CEL_SPEC))
    assert fake_cel == []
    assert [e.type for e in errors] == [blocking_type, "FieldValueInvalid"]
    last = errors[-1]
    assert (last.field, last.bad_value, last.detail) == ("<nil>", None, BLOCKING_ERROR_DETAIL)
    assert str(last) == (
        '<nil>: Invalid value: null: some validation rules were not checked because the object was invalid; '
        "correct the existing errors to complete validation"
    )


def test_required_and_too_long_are_blocking_too(fake_cel: list[Any]) -> None:
    spec = {**CEL_SPEC, "required": ["mode"], "properties": {**CEL_SPEC["properties"], "name": {"type": "string", "maxLength": 2}}}
    errors = validate_object(make_cr({"name": "long"}), make_crd(spec))
    # (the order of the first two is kube-openapi's validator chain's)
    assert sorted(e.type for e in errors[:-1]) == ["FieldValueRequired", "FieldValueTooLong"]
    assert errors[-1].field == "<nil>" and fake_cel == []


def test_no_blocking_message_without_rules(fake_cel: list[Any]) -> None:
    spec = {k: v for k, v in CEL_SPEC.items() if k != "x-kubernetes-validations"}
    errors = validate_object(make_cr({"mode": "c"}), make_crd(spec))
    assert [e.type for e in errors] == ["FieldValueNotSupported"]
    assert fake_cel == []


def test_without_cel_evaluation_a_warning_says_so() -> None:
    result = apply_create(make_cr({"replicas": 1}), make_crd(CEL_SPEC))
    note = "x-kubernetes-validations rules were not evaluated: CEL evaluation is not available"
    assert (note in result.warnings) is not HAS_CEL


@needs_cel
def test_cel_rule_evaluates_for_real() -> None:
    assert validate_object(make_cr({"replicas": 3}), make_crd(CEL_SPEC)) == []
    errors = validate_object(make_cr({"replicas": 30}), make_crd(CEL_SPEC))
    assert [(e.type, e.field, e.detail) for e in errors] == [("FieldValueInvalid", "spec", "too many")]


# --- defaulting, end to end ---------------------------------------------------------------------------


def _kep_examples() -> list[tuple[str, dict[str, Any], Any, Any]]:
    """(title, schema, input, output) for every example of the defaulting KEP's "Examples" section."""
    import yaml

    text = KEP_EXAMPLES.read_text(encoding="utf-8")
    section = text[text.index("### Examples") :]
    examples = []
    for block in re.split(r"\n\d+\. ", section)[1:]:
        title = block.splitlines()[0].strip()
        fences = re.findall(r"```(yaml|json)\n(.*?)```", block, flags=re.DOTALL)
        schema = yaml.safe_load(fences[0][1])
        values = [json.loads(body) for kind, body in fences[1:] if kind == "json"]
        for i in range(0, len(values), 2):
            examples.append((f"{title} #{i // 2}", schema, values[i], values[i + 1]))
    return examples


KEP = _kep_examples()
# The KEP (2019) leaves an explicit null alone; since Kubernetes 1.20 Default() replaces the null of a
# non-nullable field that has a default (algorithm.go isNonNullableNull), so the stored object has it.
KEP_TODAY = {"array default in the undefined case #1": {"foo": [1]}}


def test_kep_has_four_examples_with_six_pairs() -> None:
    assert len({title.split(" #")[0] for title, *_ in KEP}) == 4
    assert len(KEP) == 6


@pytest.mark.parametrize(("title", "schema", "value", "expected"), KEP, ids=[k[0] for k in KEP])
def test_defaulting_kep_examples_end_to_end(title: str, schema: dict[str, Any], value: Any, expected: Any) -> None:
    result = apply_create(make_cr(value), make_crd(schema))
    assert result.stored["spec"] == KEP_TODAY.get(title, expected)
    assert result.errors == []


def test_defaults_apply_after_pruning_and_are_not_pruned() -> None:
    spec = {"type": "object", "properties": {"a": {"type": "object", "properties": {"x": {"type": "string"}},
                                                   "default": {"x": "1"}}}}
    result = apply_create(make_cr({"b": 1}), make_crd(spec))
    assert result.stored["spec"] == {"a": {"x": "1"}}
    assert result.pruned == ["spec.b"]


def test_unpruned_defaults_are_pruned_when_the_storage_is_built() -> None:
    # PruneDefaults: a default with unknown fields (which CRD validation rejects) loses them when served
    spec = {"type": "object", "properties": {"a": {"type": "object", "properties": {"x": {"type": "string"}},
                                                   "default": {"x": "1", "unknown": 2}}}}
    result = apply_create(make_cr({}), make_crd(spec))
    assert result.stored["spec"] == {"a": {"x": "1"}}
    assert result.errors == []


def test_defaults_are_never_shared_between_objects() -> None:
    spec = {"type": "object", "properties": {"a": {"type": "object", "default": {"list": [1]},
                                                   "x-kubernetes-preserve-unknown-fields": True}}}
    crd = prepare_crd(make_crd(spec))
    one = apply_create(make_cr({}), crd).stored
    one["spec"]["a"]["list"].append(2)
    assert apply_create(make_cr({}), crd).stored["spec"]["a"] == {"list": [1]}


# --- API surface ---------------------------------------------------------------------------------------


def test_public_functions_are_the_schema_algorithms() -> None:
    schema = {"type": "object", "properties": {"a": {"type": "string", "default": "x"}, "n": {"type": "string"}}}
    assert prune({"a": "1", "b": 2}, schema, is_resource_root=False) == ({"a": "1"}, ["b"])
    assert prune_non_nullable_nulls({"n": None}, schema) == {}
    assert default({}, schema) == {"a": "x"}


def test_nothing_is_mutated() -> None:
    crd = make_crd(EMBEDDED)
    obj = make_cr({"template": {"apiVersion": "v1", "kind": "Pod", "metadata": {"foo": 1, "name": "x"}}, "bogus": None})
    obj["status"] = {"a": 1}
    before_obj, before_crd = copy.deepcopy(obj), copy.deepcopy(crd)
    result = apply_create(obj, crd)
    assert obj == before_obj and crd == before_crd
    assert isinstance(result, CreateResult)
    result.stored["spec"]["template"]["kind"] = "changed"
    assert obj["spec"]["template"]["kind"] == "Pod"


def test_prepared_crd_is_reusable_and_equivalent() -> None:
    crd = make_crd(SPEC)
    prepared = prepare_crd(crd)
    assert prepare_crd(prepared) is prepared
    obj = make_cr({"replicas": "x"})
    assert validate_object(obj, prepared) == validate_object(obj, crd)


def test_deeply_nested_objects_do_not_raise() -> None:
    spec = {"type": "object", "x-kubernetes-preserve-unknown-fields": True}
    deep: Any = {}
    for _ in range(5000):
        deep = {"a": deep}
    result = apply_create(make_cr(deep), make_crd(spec))
    assert result.errors == []


def test_deeply_nested_unknown_fields_are_pruned_without_recursion() -> None:
    deep: Any = 1
    for _ in range(5000):
        deep = {"a": deep}
    result = apply_create(make_cr({"replicas": 1, "x": deep}), make_crd(SPEC))
    assert result.pruned == ["spec.x"]


# --- hostile input -----------------------------------------------------------------------------------

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=6), children, max_size=3),
    max_leaves=12,
)
HOSTILE_CRD = prepare_crd(make_crd(
    {
        "type": "object",
        "properties": {
            "replicas": {"type": "integer", "default": 1},
            "template": EMBEDDED["properties"]["template"],
            "ports": {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"],
                      "items": {"type": "object", "required": ["name"], "properties": {"name": {"type": "string"}}}},
        },
        "x-kubernetes-validations": [{"rule": "self.replicas >= 0"}],
    },
    subresources={"status": {}, **SCALE},
))
SLOTS = ("spec", "metadata", "status", ("spec", "template"), ("spec", "ports"), ("spec", "replicas"),
         ("metadata", "labels"), ("metadata", "ownerReferences"), ("spec", "template", "metadata"))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(slot=st.sampled_from(SLOTS), value=JSON)
def test_any_value_anywhere_gives_a_clean_result(slot: Any, value: Any) -> None:
    obj = make_cr({"replicas": 1, "template": {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}}})
    before = copy.deepcopy(obj)
    if isinstance(slot, str):
        obj[slot] = value
    else:
        target = obj
        for key in slot[:-1]:
            target = target.setdefault(key, {}) if isinstance(target, dict) else {}
        if isinstance(target, dict):
            target[slot[-1]] = value
    snapshot = copy.deepcopy(obj)
    result = apply_create(obj, HOSTILE_CRD)
    assert obj == snapshot
    assert all(isinstance(e, FieldError) for e in result.errors)
    assert all(isinstance(w, str) for w in result.warnings)
    json.dumps([e.to_dict() for e in result.errors])
    assert before["apiVersion"] == obj["apiVersion"]
