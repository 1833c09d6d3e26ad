"""The update path of a custom resource (``crdtool.core.customresource.update``).

1. The 14 upstream cases of apiextensions-apiserver v0.36.3 ``test/integration/ratcheting_test.go``
   ``TestRatchetingFunctionality`` that have operations and are enabled, replayed step by step on the
   main resource (data Go-dumped: ``crd_update_upstream/README.md``): every schema update must be
   accepted by ``check_crd_update`` and every apply must succeed or fail as upstream's
   ``expectError`` says, including the cases that rest on CEL transition rules (``oldSelf``).
2. Upstream rules of ``rest.BeforeUpdate`` and ``customResourceStrategy`` checked one by one.
"""

from __future__ import annotations

import copy
import pathlib
from typing import Any

import pytest
import yaml

from crdtool.core.crd.update import check_crd_update
from crdtool.core.customresource import CustomResourceError, apply_create, apply_update

DATA = yaml.load(
    (pathlib.Path(__file__).parent.parent / "crd_update_upstream" / "ratcheting_functionality.yaml").read_text(),
    Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader),
)
REPLAYED = [c for c in DATA["cases"] if c["operations"] and not c["disabled"]]

# runTests' initial CRD (ratcheting_test.go:380)
INITIAL_SCHEMA = {
    "type": "object",
    "properties": {
        "content": {"type": "object", "additionalProperties": {"type": "string"}},
        "num": {"type": "object", "additionalProperties": {"type": "integer"}},
        "status": {"type": "object"},
    },
}


def test_crd(schema: dict[str, Any]) -> dict[str, Any]:
    return {
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "mycrds.mygroup.example.com"},
        "spec": {
            "group": "mygroup.example.com",
            "scope": "Namespaced",
            "names": {"plural": "mycrds", "kind": "MyCoolCRD", "listKind": "MyCoolCRDList"},
            "versions": [
                {"name": "v1beta1", "served": True, "storage": True, "schema": {"openAPIV3Schema": schema}, "subresources": {"status": {}}}
            ],
        },
    }


test_crd.__test__ = False  # type: ignore[attr-defined]


def merge_patch(target: Any, patch: Any) -> Any:
    """RFC 7386 JSON merge patch (what jsonpatch.MergePatch does in patchMyCRDV1Beta1Schema)."""
    if not isinstance(patch, dict):
        return copy.deepcopy(patch)
    out = copy.deepcopy(target) if isinstance(target, dict) else {}
    for k, v in patch.items():
        if v is None:
            out.pop(k, None)
        else:
            out[k] = merge_patch(out.get(k), v)
    return out


def replay(case: dict[str, Any]) -> list[tuple[str, bool, bool, list[str]]]:
    """(description, expected error, got error, errors) per apply."""
    schema, crd, stored = INITIAL_SCHEMA, test_crd(INITIAL_SCHEMA), None
    outcomes = []
    for op in case["operations"]:
        if op["op"] in ("update_schema", "patch_schema"):
            new_schema = op["schema"] if op["op"] == "update_schema" else merge_patch(schema, op["merge_patch"])
            verdict = check_crd_update(test_crd(new_schema), crd)
            assert verdict.accepted, [str(f.error) for f in verdict.findings]
            schema, crd = new_schema, test_crd(new_schema)
            continue
        body = yaml.safe_load(op["patch_yaml"]) if "patch_yaml" in op else op["patch"]
        obj = {"apiVersion": "mygroup.example.com/v1beta1", "kind": "MyCoolCRD", "metadata": {"name": op["name"], "namespace": "default"}, **body}
        if stored is None:
            result = apply_create(obj, crd, field_validation="Warn")
            errors, new_stored = result.errors, result.stored
        else:
            obj["metadata"]["resourceVersion"] = "1"
            update = apply_update(obj, stored, crd, field_validation="Warn")
            errors, new_stored = update.errors, update.stored
        outcomes.append((op["description"], bool(op.get("expect_error")), bool(errors), [str(e) for e in errors]))
        if not errors:
            stored = new_stored
    return outcomes


@pytest.mark.parametrize("case", REPLAYED, ids=[c["name"] for c in REPLAYED])
def test_ratcheting_functionality_upstream(case: dict[str, Any]) -> None:
    outcomes = replay(case)
    assert outcomes
    for description, want_error, got_error, errors in outcomes:
        assert got_error == want_error, (description, errors)


def test_the_replay_covers_every_enabled_case() -> None:
    assert len(DATA["cases"]) == 19 and len(REPLAYED) == 14
    names = {c["name"] for c in REPLAYED}
    assert {"CEL Optional OldSelf", "CEL_transition_rules_should_not_ratchet"} <= names


def test_transition_rules_are_not_ratcheted() -> None:
    # Upstream rejects the second apply: the unchanged myStringField fails the transition rule, and
    # transition rules are never ratcheted (ratcheting_test.go "CEL_transition_rules_should_not_ratchet").
    case = next(c for c in DATA["cases"] if c["name"] == "CEL_transition_rules_should_not_ratchet")
    outcomes = replay(case)
    assert [o[1] for o in outcomes] == [False, True, False]
    assert [o[2] for o in outcomes] == [False, True, False]


# --- BeforeUpdate and the strategy, rule by rule ------------------------------------------------

SCHEMA = {
    "type": "object",
    "properties": {
        "apiVersion": {"type": "string"},
        "kind": {"type": "string"},
        "metadata": {"type": "object"},
        "spec": {
            "type": "object",
            "properties": {
                "replicas": {"type": "integer", "maximum": 3},
                "mode": {"type": "string", "x-kubernetes-validations": [{"rule": "self != 'b'", "message": "mode b is gone"}]},
                "note": {"type": "string", "enum": ["n", "changed"]},
            },
        },
        "status": {"type": "object", "properties": {"phase": {"type": "string"}}},
    },
}
CRD = test_crd(SCHEMA)
STORED = {
    "apiVersion": "mygroup.example.com/v1beta1",
    "kind": "MyCoolCRD",
    "metadata": {"name": "x", "namespace": "ns", "resourceVersion": "7", "uid": "u-1", "generation": 4, "creationTimestamp": "2024-01-01T00:00:00Z"},
    "spec": {"replicas": 9, "mode": "b", "note": "n"},
    "status": {"phase": "Ready"},
}


def update(**changes: Any) -> Any:
    new = copy.deepcopy(STORED)
    for key, value in changes.items():
        new["spec"][key] = value
    return apply_update(new, STORED, CRD)


def test_noop_update_of_an_object_the_new_schema_rejects_is_accepted_with_ratcheting() -> None:
    result = update()
    assert result.errors == []
    assert [e.field for e in result.ratcheted] == ["spec.replicas"]
    assert result.warnings == ['spec.mode: Invalid value: "b": mode b is gone']  # CEL ratcheted: a warning
    assert result.stored["metadata"]["generation"] == 4  # nothing but metadata changed


def test_changing_another_field_keeps_tolerating_the_invalid_ones() -> None:
    result = update(note="changed")
    assert [str(e) for e in result.errors] == []
    assert result.stored["metadata"]["generation"] == 5


def test_changing_a_value_that_violates_a_cel_rule_is_rejected() -> None:
    schema = copy.deepcopy(SCHEMA)
    schema["properties"]["spec"]["properties"]["mode"]["enum"] = ["a", "b", "c"]
    assert [str(e) for e in apply_update({**STORED, "spec": {**STORED["spec"], "mode": "b"}}, {**STORED, "spec": {**STORED["spec"], "mode": "c"}}, test_crd(schema)).errors] == [
        'spec.mode: Invalid value: "b": mode b is gone'
    ]


def test_changing_an_invalid_value_is_rejected() -> None:
    result = update(replicas=8)
    assert [str(e) for e in result.errors] == ["spec.replicas: Invalid value: 8: spec.replicas in body should be less than or equal to 3"]


def test_the_status_comes_from_the_stored_object() -> None:
    new = copy.deepcopy(STORED)
    new["status"] = {"phase": "Changed"}
    result = apply_update(new, STORED, CRD)
    assert result.stored["status"] == {"phase": "Ready"}


def test_metadata_update_rules() -> None:
    new = copy.deepcopy(STORED)
    new["metadata"]["name"] = "y"
    errors = [str(e) for e in apply_update(new, STORED, CRD).errors]
    # validateCommonFields and customResourceValidator.ValidateUpdate both run ValidateObjectMetaAccessorUpdate
    assert errors == ['metadata.name: Invalid value: "y": field is immutable'] * 2
    # without a resourceVersion Store.Update answers first, once (test_customresource_update_resource_version.py)
    del new["metadata"]["resourceVersion"]
    assert [str(e) for e in apply_update(new, STORED, CRD).errors] == [
        "metadata.resourceVersion: Invalid value: 0: must be specified for an update"
    ]


def test_uid_and_namespace_come_from_the_stored_object() -> None:
    new = copy.deepcopy(STORED)
    del new["metadata"]["uid"]
    del new["metadata"]["namespace"]
    result = apply_update(new, STORED, CRD)
    assert result.errors == []
    assert result.stored["metadata"]["uid"] == "u-1" and result.stored["metadata"]["namespace"] == "ns"
    new["metadata"]["namespace"] = "other"
    with pytest.raises(CustomResourceError) as info:
        apply_update(new, STORED, CRD)
    assert info.value.reason == "namespace-mismatch"


def test_pruned_fields_and_finalizer_warnings() -> None:
    new = copy.deepcopy(STORED)
    new["spec"]["gone"] = 1
    new["metadata"]["finalizers"] = ["example.com/x", "plain"]
    result = apply_update(new, STORED, CRD, field_validation="Warn")
    assert result.pruned == ["spec.gone"]
    assert 'unknown field "spec.gone"' in result.warnings
    assert any('"plain": prefer a domain-qualified finalizer name' in w for w in result.warnings)
    assert apply_update(new, STORED, CRD).errors[0].type == "UnknownField"


def test_list_types_are_only_checked_when_the_old_object_passes_them() -> None:
    schema = copy.deepcopy(SCHEMA)
    schema["properties"]["spec"]["properties"]["tags"] = {"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "string"}}
    crd = test_crd(schema)
    old = copy.deepcopy(STORED)
    old["spec"] = {"tags": ["a", "a"]}
    new = copy.deepcopy(old)
    new["spec"]["tags"] = ["a", "a", "b"]
    assert apply_update(new, old, crd).errors == []
    fixed = copy.deepcopy(old)
    fixed["spec"]["tags"] = ["a"]
    assert [e.type for e in apply_update(new, fixed, crd).errors] == ["FieldValueDuplicate"]
