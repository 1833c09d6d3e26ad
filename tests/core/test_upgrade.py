"""upgrade_crd: the apiserver's conversion plus the steps that make the result valid.

Expectations come from upstream, not from our output:

* conversion and defaults: apiextensions ``v1/conversion.go``, ``v1beta1/conversion.go``,
  ``v1/defaults.go``, ``v1beta1/defaults.go`` (see tests/core/test_crd_conversion.py);
* what v1 rejects: ``validation.go`` (``validatePreserveUnknownFields``: "cannot set to
  true, ...", ``requireOpenAPISchema``: a Required schema) and the structural rules
  of ``pkg/apiserver/schema/validation.go`` (``validateStructuralInvariants``,
  ``validateNestedValueValidation``, ``validateStructuralMetadataInvariants``) whose
  error texts the "manual" notes carry;
* the repairs: each before/after pair is the smallest change that removes the upstream
  error while keeping what the schema accepts (see ``upgrade.FIX_RULES``).
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crdtool.core.crd import conversion
from crdtool.core.crd.manifest import check_crd_manifest
from crdtool.core.crd.upgrade import (
    CONVERTED,
    FIX_RULES,
    FIXED,
    KINDS,
    MADE_VALID,
    MANUAL,
    REJECTED_FIX_RULES,
    WARNING,
    Note,
    convert_crd,
    upgrade_crd,
)

V1 = "apiextensions.k8s.io/v1"
V1BETA1 = "apiextensions.k8s.io/v1beta1"
ROOT0 = "spec.versions[0].schema.openAPIV3Schema"


def beta(spec: dict[str, Any], **top: Any) -> dict[str, Any]:
    """A v1beta1 CRD whose names, group and metadata are valid."""
    doc: dict[str, Any] = {
        "apiVersion": V1BETA1,
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "foos.example.com"},
        "spec": {"group": "example.com", "version": "v1", "names": {"plural": "foos", "kind": "Foo"},
                 "scope": "Namespaced", **spec},
    }
    doc.update(top)
    return doc


def v1crd(versions: list[dict[str, Any]], **spec: Any) -> dict[str, Any]:
    return {
        "apiVersion": V1,
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "foos.example.com"},
        "spec": {"group": "example.com", "names": {"plural": "foos", "kind": "Foo"}, "scope": "Namespaced",
                 "versions": versions, **spec},
    }


def version(name: str = "v1", schema: dict[str, Any] | None = None, **kw: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"name": name, "served": True, "storage": True}
    if schema is not None:
        out["schema"] = {"openAPIV3Schema": schema}
    out.update(kw)
    return out


def obj(**props: Any) -> dict[str, Any]:
    return {"type": "object", "properties": props}


def pruned(schema: dict[str, Any]) -> dict[str, Any]:
    """A v1beta1 CRD with pruning on (preserveUnknownFields: false) and this schema."""
    return beta({"validation": {"openAPIV3Schema": schema}, "preserveUnknownFields": False})


def by_kind(notes: list[Note], kind: str) -> list[tuple[str, str]]:
    return [(n.path, n.change if kind != MANUAL else n.reason) for n in notes if n.kind == kind]


def schema0(doc: dict[str, Any]) -> dict[str, Any]:
    root = doc["spec"]["versions"][0]["schema"]["openAPIV3Schema"]
    assert isinstance(root, dict)
    return root


def containers(value: Any) -> list[int]:
    stack, out = [value], []
    while stack:
        v = stack.pop()
        if isinstance(v, dict):
            out.append(id(v))
            stack.extend(v.values())
        elif isinstance(v, list):
            out.append(id(v))
            stack.extend(v)
    return out


# --- API ------------------------------------------------------------------------------------


def test_convert_crd_is_the_apiservers_conversion() -> None:
    assert convert_crd is conversion.convert_crd
    # Exactly upstream: v1beta1 defaults (singular, listKind, storedVersions, preserveUnknownFields) are in it.
    out = convert_crd(beta({}), "v1")
    assert out["spec"]["names"] == {"plural": "foos", "kind": "Foo", "singular": "foo", "listKind": "FooList"}
    assert out["spec"]["preserveUnknownFields"] is True
    assert out["status"] == {"conditions": None, "acceptedNames": {"plural": "", "kind": ""}, "storedVersions": ["v1"]}


def test_targets_and_pass_through() -> None:
    with pytest.raises(ValueError):
        upgrade_crd(beta({}), "v2")
    full, _ = upgrade_crd(beta({}), V1)
    short, _ = upgrade_crd(beta({}), "v1")
    assert full == short and full["apiVersion"] == V1
    # Not a CRD, or already at the target: an unchanged copy without notes.
    ns = {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "x"}}
    out, notes = upgrade_crd(ns, "v1")
    assert (out, notes) == (ns, []) and out is not ns
    doc = v1crd([version(schema={"type": "object"})])
    out, notes = upgrade_crd(doc, "v1", fix=True)
    assert (out, notes) == (doc, []) and out["spec"] is not doc["spec"]


def test_note_kinds_and_rule_lists() -> None:
    assert KINDS == ("converted", "made-valid", "fixed", "manual", "warning")
    assert len(FIX_RULES) >= 10 and len(REJECTED_FIX_RULES) >= 5
    with pytest.raises(AttributeError):
        Note("a", "b", "c", MANUAL).path = "x"  # type: ignore[misc]


def test_pure_and_shares_nothing() -> None:
    doc = beta({"validation": {"openAPIV3Schema": obj(a={"type": "string"})},
                "versions": [{"name": "v1", "served": True, "storage": True},
                             {"name": "v2", "served": True, "storage": False}]})
    before = copy.deepcopy(doc)
    out, _ = upgrade_crd(doc, "v1", fix=True)
    assert doc == before
    ids = containers(out)
    assert len(ids) == len(set(ids))  # no shared sub-object (YAML would write anchors)
    assert not set(ids) & set(containers(doc))
    assert out["spec"]["versions"][0]["schema"] == out["spec"]["versions"][1]["schema"]


def test_wrong_json_type_stops_with_the_decoding_error() -> None:
    doc = beta({"names": {"plural": 1, "kind": "Foo"}})
    out, notes = upgrade_crd(doc, "v1")
    assert out == doc
    assert notes == [Note("spec.names.plural", "",
                          "json: cannot unmarshal number into Go struct field "
                          "CustomResourceDefinitionNames.spec.names.plural of type string", MANUAL)]


# --- v1beta1 -> v1 ---------------------------------------------------------------------------


def test_upgrade_structural_crd_exactly() -> None:
    doc = pruned(obj(spec=obj(replicas={"type": "integer", "minimum": 1})))
    doc["spec"]["additionalPrinterColumns"] = [{"name": "R", "type": "integer", "JSONPath": ".spec.replicas"}]
    out, notes = upgrade_crd(doc, "v1")
    # v1beta1 -> internal -> v1: version dropped, versions made from it, validation and columns copied
    # into the version (JSONPath -> jsonPath); false preserveUnknownFields is v1's zero value.
    # Defaults v1 also sets (singular, listKind, conversion, storedVersions) are not written out.
    assert out == {
        "apiVersion": V1,
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "foos.example.com"},
        "spec": {
            "group": "example.com",
            "versions": [{
                "name": "v1", "served": True, "storage": True,
                "schema": {"openAPIV3Schema": obj(spec=obj(replicas={"type": "integer", "minimum": 1}))},
                "additionalPrinterColumns": [{"name": "R", "type": "integer", "jsonPath": ".spec.replicas"}],
            }],
            "names": {"plural": "foos", "kind": "Foo"},
            "scope": "Namespaced",
        },
    }
    assert list(out["spec"]) == ["group", "versions", "names", "scope"]  # versions where version was
    assert isinstance(schema0(out)["properties"]["spec"]["properties"]["replicas"]["minimum"], int)
    assert check_crd_manifest(out).valid
    assert by_kind(notes, CONVERTED) == [
        ("apiVersion", f"{V1BETA1} -> {V1}"),
        ("spec.version", "removed"),
        ("spec.versions", "created as [{name: v1, served: true, storage: true}]"),
        ("spec.versions[0].schema", "copied from spec.validation"),
        ("spec.versions[0].additionalPrinterColumns", "copied from spec.additionalPrinterColumns, JSONPath renamed jsonPath"),
        ("spec.preserveUnknownFields", "removed (was false)"),
    ]
    assert not [n for n in notes if n.kind not in (CONVERTED,)]


@pytest.mark.parametrize("explicit", [None, True])
def test_preserved_unknown_fields_move_to_the_schema_root(explicit: bool | None) -> None:
    spec: dict[str, Any] = {"validation": {"openAPIV3Schema": {"type": "object", "properties": {"a": {"type": "string"}}}}}
    if explicit is not None:
        spec["preserveUnknownFields"] = explicit
    out, notes = upgrade_crd(beta(spec), "v1")
    root = schema0(out)
    assert root == {"type": "object", "x-kubernetes-preserve-unknown-fields": True, "properties": {"a": {"type": "string"}}}
    assert list(root) == ["type", "x-kubernetes-preserve-unknown-fields", "properties"]
    assert "preserveUnknownFields" not in out["spec"]
    assert check_crd_manifest(out).valid
    made = by_kind(notes, MADE_VALID)
    assert made == [
        (f"{ROOT0}.x-kubernetes-preserve-unknown-fields", "set to true"),
        ("spec.preserveUnknownFields", "removed (was true)" if explicit else "removed (was true by default)"),
    ]
    # Without the step, upstream rejects the converted manifest.
    plain = check_crd_manifest(convert_crd(beta(spec), "v1"))
    assert [str(f.error) for f in plain.findings] == [
        ("spec.preserveUnknownFields: Invalid value: true: cannot set to true, set x-kubernetes-preserve-unknown-fields "
         "to true in spec.versions[*].schema instead")
    ]


def test_versions_without_schema_get_a_preserving_one() -> None:
    doc = beta({"versions": [{"name": "v1", "served": True, "storage": True, "deprecated": True},
                             {"name": "v2", "served": False, "storage": False}]})
    out, notes = upgrade_crd(doc, "v1")
    preserve = {"openAPIV3Schema": {"type": "object", "x-kubernetes-preserve-unknown-fields": True}}
    assert out["spec"]["versions"] == [
        {"name": "v1", "served": True, "storage": True, "deprecated": True, "schema": preserve},
        {"name": "v2", "served": False, "storage": False, "schema": preserve},
    ]
    assert check_crd_manifest(out).valid
    assert [p for p, _ in by_kind(notes, MADE_VALID)] == [
        "spec.versions[0].schema.openAPIV3Schema", "spec.versions[1].schema.openAPIV3Schema", "spec.preserveUnknownFields"]
    # upstream: v1 requires a schema for every version
    # (validation.go validateCustomResourceDefinitionSpec: field.Required(...openAPIV3Schema, ""))
    findings = check_crd_manifest(convert_crd(doc, "v1")).findings
    assert ("FieldValueRequired", "spec.versions[0].schema.openAPIV3Schema", "") in {
        (f.error.type, f.error.field, f.error.detail) for f in findings
    }


def test_top_level_fields_go_to_every_version() -> None:
    doc = beta({
        "validation": {"openAPIV3Schema": {"type": "object"}},
        "subresources": {"status": {}},
        "additionalPrinterColumns": [{"name": "A", "type": "string", "JSONPath": ".a"}],
        "versions": [{"name": "v1", "served": True, "storage": True}, {"name": "v2", "served": True, "storage": False}],
        "preserveUnknownFields": False,
    })
    out, notes = upgrade_crd(doc, "v1")
    for v in out["spec"]["versions"]:
        assert v["schema"] == {"openAPIV3Schema": {"type": "object"}}
        assert v["subresources"] == {"status": {}}
        assert v["additionalPrinterColumns"] == [{"name": "A", "type": "string", "jsonPath": ".a"}]
        assert list(v)[3:] == ["schema", "subresources", "additionalPrinterColumns"]
    assert check_crd_manifest(out).valid
    copied = [p for p, c in by_kind(notes, CONVERTED) if c.startswith("copied")]
    assert copied == [f"spec.versions[{i}].{k}" for k in ("schema", "subresources", "additionalPrinterColumns") for i in (0, 1)]


def test_webhook_conversion_moves_and_review_versions_default_made_explicit() -> None:
    doc = beta({
        "validation": {"openAPIV3Schema": {"type": "object"}},
        "preserveUnknownFields": False,
        "versions": [{"name": "v1", "served": True, "storage": True}, {"name": "v2", "served": True, "storage": False}],
        "conversion": {"strategy": "Webhook", "webhookClientConfig": {"service": {"namespace": "ns", "name": "svc"}}},
    })
    out, notes = upgrade_crd(doc, "v1")
    # v1beta1 SetDefaults: conversionReviewVersions ["v1beta1"]; port 443 is defaulted by v1 as well.
    assert out["spec"]["conversion"] == {
        "strategy": "Webhook",
        "webhook": {"clientConfig": {"service": {"namespace": "ns", "name": "svc"}}, "conversionReviewVersions": ["v1beta1"]},
    }
    assert check_crd_manifest(out).valid
    assert ("spec.conversion.webhook.conversionReviewVersions", 'set to ["v1beta1"]') in by_kind(notes, CONVERTED)
    assert ("spec.conversion.webhook.clientConfig", "moved from spec.conversion.webhookClientConfig") in by_kind(notes, CONVERTED)
    # An explicit port stays, explicit review versions move.
    doc["spec"]["conversion"]["webhookClientConfig"]["service"]["port"] = 443
    doc["spec"]["conversion"]["conversionReviewVersions"] = ["v1", "v1beta1"]
    out, _ = upgrade_crd(doc, "v1")
    assert out["spec"]["conversion"]["webhook"] == {
        "clientConfig": {"service": {"namespace": "ns", "name": "svc", "port": 443}},
        "conversionReviewVersions": ["v1", "v1beta1"],
    }


def test_scope_default_made_explicit_and_other_defaults_stay_unwritten() -> None:
    doc = beta({"validation": {"openAPIV3Schema": {"type": "object"}}, "preserveUnknownFields": False})
    del doc["spec"]["scope"]
    doc["status"] = {"storedVersions": [], "conditions": None}
    out, notes = upgrade_crd(doc, "v1")
    assert out["spec"]["scope"] == "Namespaced"  # v1 requires it, v1beta1 defaulted it
    assert ("spec.scope", "set to Namespaced") in by_kind(notes, CONVERTED)
    assert out["spec"]["names"] == {"plural": "foos", "kind": "Foo"}
    assert "conversion" not in out["spec"]
    assert out["status"] == {"storedVersions": [], "conditions": None}  # as written: nulls and empty lists kept


def test_source_spelling_nulls_and_unknown_fields() -> None:
    doc = beta({"validation": {"openAPIV3Schema": {"type": "object", "properties": {"n": {"type": "number", "maximum": 2}}}},
                "preserveUnknownFields": False, "colour": "blue"},
               metadata={"name": "foos.example.com", "creationTimestamp": None})
    out, notes = upgrade_crd(doc, "v1")
    assert out["metadata"] == {"name": "foos.example.com", "creationTimestamp": None}
    assert out["spec"]["colour"] == "blue" and list(out["spec"])[-1] == "colour"
    assert type(schema0(out)["properties"]["n"]["maximum"]) is int  # float64 field, spelled as written
    assert by_kind(notes, MANUAL) == [("spec.colour", 'unknown field "spec.colour"')]
    fixed, fixed_notes = upgrade_crd(doc, "v1", fix=True)
    assert "colour" not in fixed["spec"]
    assert by_kind(fixed_notes, FIXED) == [("spec.colour", "removed unknown field colour")]
    assert check_crd_manifest(fixed).valid


def test_version_mismatch_is_named() -> None:
    doc = beta({"version": "v2", "versions": [{"name": "v1", "served": True, "storage": True},
                                              {"name": "v2", "served": True, "storage": False}]})
    _, notes = upgrade_crd(doc, "v1")
    assert ("spec.version", "removed ('v2'; the first version is 'v1')") in by_kind(notes, CONVERTED)


def test_non_structural_schema_is_reported_field_by_field() -> None:
    schema = {"properties": {"spec": {"properties": {"a": {"type": "string"}}}, "tags": {"items": {"type": "string"}}}}
    out, notes = upgrade_crd(beta({"validation": {"openAPIV3Schema": schema}}), "v1")
    # The root keeps unknown fields (made-valid), so only the nested nodes lack a type.
    assert by_kind(notes, MANUAL) == [
        (f"{ROOT0}.properties[spec].type", "Required value: must not be empty for specified object fields"),
        (f"{ROOT0}.properties[tags].type", "Required value: must not be empty for specified object fields"),
    ]
    assert [str(f.error) for f in check_crd_manifest(out).findings] == [f"{p}: {r}" for p, r in by_kind(notes, MANUAL)]


# --- v1 -> v1beta1 ---------------------------------------------------------------------------


def test_downgrade_hoists_identical_per_version_fields() -> None:
    schema = obj(a={"type": "string"})
    doc = v1crd([version("v1", schema, subresources={"status": {}},
                         additionalPrinterColumns=[{"name": "A", "type": "string", "jsonPath": ".a"}])])
    out, notes = upgrade_crd(doc, "v1beta1")
    assert out["spec"] == {
        "group": "example.com",
        "version": "v1",
        "names": {"plural": "foos", "kind": "Foo"},
        "scope": "Namespaced",
        "validation": {"openAPIV3Schema": schema},
        "subresources": {"status": {}},
        "versions": [{"name": "v1", "served": True, "storage": True}],
        "additionalPrinterColumns": [{"name": "A", "type": "string", "JSONPath": ".a"}],
        "preserveUnknownFields": False,
    }
    assert list(out["spec"]) == ["group", "version", "names", "scope", "validation", "subresources", "versions",
                                 "additionalPrinterColumns", "preserveUnknownFields"]
    assert check_crd_manifest(out).findings == ()
    assert by_kind(notes, CONVERTED) == [
        ("apiVersion", f"{V1} -> {V1BETA1}"),
        ("spec.version", "set to v1"),
        ("spec.validation", "moved from spec.versions[*].schema"),
        ("spec.subresources", "moved from spec.versions[*].subresources"),
        ("spec.additionalPrinterColumns", "moved from spec.versions[*].additionalPrinterColumns"),
        ("spec.additionalPrinterColumns", "jsonPath renamed JSONPath"),
        ("spec.preserveUnknownFields", "set to false"),
    ]


def test_downgrade_keeps_differing_fields_per_version() -> None:
    doc = v1crd([version("v1", obj(a={"type": "string"}), subresources={"status": {}}),
                 version("v2", obj(b={"type": "string"}), storage=False, subresources={"status": {}})],
                conversion={"strategy": "Webhook", "webhook": {"clientConfig": {"url": "https://c.example.com/x"},
                                                               "conversionReviewVersions": ["v1"]}})
    out, _ = upgrade_crd(doc, "v1beta1")
    spec = out["spec"]
    assert "validation" not in spec and spec["subresources"] == {"status": {}}
    assert [v["schema"]["openAPIV3Schema"] for v in spec["versions"]] == [obj(a={"type": "string"}), obj(b={"type": "string"})]
    assert [list(v) for v in spec["versions"]] == [["name", "served", "storage", "schema"]] * 2
    assert spec["conversion"] == {"strategy": "Webhook", "webhookClientConfig": {"url": "https://c.example.com/x"},
                                  "conversionReviewVersions": ["v1"]}
    assert spec["version"] == "v1"
    assert check_crd_manifest(out).findings == ()


def test_downgrade_warnings() -> None:
    schema = obj(a={"type": "string", "default": "x"}, b={"type": "integer", "default": 1},
                 c={"type": "object", "x-kubernetes-validations": [{"rule": "self == self"}]})
    doc = v1crd([version("v1", schema, selectableFields=[{"jsonPath": ".a"}])])
    out, notes = upgrade_crd(doc, "v1beta1")
    warnings = by_kind(notes, WARNING)
    assert warnings[0] == ("apiVersion", "apiextensions.k8s.io/v1beta1")
    assert ("spec.validation.openAPIV3Schema",
            ("2 default value(s) kept: spec.validation.openAPIV3Schema.properties[a].default, "
             "spec.validation.openAPIV3Schema.properties[b].default")) in warnings
    assert ("spec.validation.openAPIV3Schema", "1 schema(s) with x-kubernetes-validations kept") in warnings
    assert ("spec.selectableFields", "kept") in warnings
    assert "Kubernetes 1.22" in notes[[n.kind for n in notes].index(WARNING)].reason
    # Still valid for today's apiserver: preserveUnknownFields false allows defaults.
    assert check_crd_manifest(out).findings == ()


# --- --fix --------------------------------------------------------------------------------------


def fixed(schema: dict[str, Any], **spec: Any) -> tuple[dict[str, Any], list[Note]]:
    """Upgrade a pruning v1beta1 CRD with ``schema`` using fix=True; return the v1 root schema and the notes."""
    doc = pruned(schema)
    doc["spec"].update(spec)
    out, notes = upgrade_crd(doc, "v1", fix=True)
    return schema0(out), notes


FIX_CASES = [
    # missing type beside properties / items (the issue's examples)
    ("object beside properties",
     obj(spec={"properties": {"a": {"type": "string"}}}),
     obj(spec={"type": "object", "properties": {"a": {"type": "string"}}}),
     [(f"{ROOT0}.properties[spec].type", "added type: object")]),
    ("object beside additionalProperties",
     obj(m={"description": "d", "additionalProperties": {"type": "string"}}),
     obj(m={"description": "d", "type": "object", "additionalProperties": {"type": "string"}}),
     [(f"{ROOT0}.properties[m].type", "added type: object")]),
    ("array beside items",
     obj(tags={"items": {"type": "string"}}),
     obj(tags={"type": "array", "items": {"type": "string"}}),
     [(f"{ROOT0}.properties[tags].type", "added type: array")]),
    ("root object",
     {"properties": {"a": {"type": "string"}}},
     obj(a={"type": "string"}),
     [(f"{ROOT0}.type", "added type: object")]),
    # a schema without a type accepts anything and (before pruning) kept it whole
    ("empty schema",
     obj(anything={}),
     obj(anything={"x-kubernetes-preserve-unknown-fields": True}),
     [(f"{ROOT0}.properties[anything].x-kubernetes-preserve-unknown-fields",
       "added x-kubernetes-preserve-unknown-fields: true")]),
    ("documentation only",
     obj(anything={"description": "free form"}),
     obj(anything={"description": "free form", "x-kubernetes-preserve-unknown-fields": True}),
     [(f"{ROOT0}.properties[anything].x-kubernetes-preserve-unknown-fields",
       "added x-kubernetes-preserve-unknown-fields: true")]),
    ("string enum", obj(mode={"enum": ["a", "b"]}), obj(mode={"type": "string", "enum": ["a", "b"]}),
     [(f"{ROOT0}.properties[mode].type", "added type: string")]),
    ("integer enum", obj(n={"enum": [1, 2]}), obj(n={"type": "integer", "enum": [1, 2]}),
     [(f"{ROOT0}.properties[n].type", "added type: integer")]),
    ("int-or-string",
     obj(port={"anyOf": [{"type": "string"}, {"type": "integer"}], "description": "p"}),
     obj(port={"anyOf": [{"type": "integer"}, {"type": "string"}], "x-kubernetes-int-or-string": True, "description": "p"}),
     [(f"{ROOT0}.properties[port].x-kubernetes-int-or-string",
       "added x-kubernetes-int-or-string: true, reordered anyOf to [{type: integer}, {type: string}]")]),
    ("int-or-string order",
     obj(port={"x-kubernetes-int-or-string": True, "anyOf": [{"type": "string"}, {"type": "integer"}]}),
     obj(port={"x-kubernetes-int-or-string": True, "anyOf": [{"type": "integer"}, {"type": "string"}]}),
     [(f"{ROOT0}.properties[port].x-kubernetes-int-or-string", "reordered anyOf to [{type: integer}, {type: string}]")]),
    ("scalar type shared by every branch, then the redundant branch types",
     obj(id={"anyOf": [{"type": "string", "pattern": "^a"}, {"type": "string", "maxLength": 3}]}),
     obj(id={"type": "string", "anyOf": [{"pattern": "^a"}, {"maxLength": 3}]}),
     [(f"{ROOT0}.properties[id].type", "added type: string"),
      (f"{ROOT0}.properties[id].anyOf[0].type", "removed type: 'string'"),
      (f"{ROOT0}.properties[id].anyOf[1].type", "removed type: 'string'")]),
    ("documentation and defaults inside junctors",
     obj(s={"type": "string", "oneOf": [{"description": "short", "title": "t", "maxLength": 2},
                                        {"default": "abc", "pattern": "^abc$"}]}),
     obj(s={"type": "string", "oneOf": [{"maxLength": 2}, {"pattern": "^abc$"}]}),
     [(f"{ROOT0}.properties[s].oneOf[0].description", "removed description: 'short'"),
      (f"{ROOT0}.properties[s].oneOf[0].title", "removed title: 't'"),
      (f"{ROOT0}.properties[s].oneOf[1].default", "removed default: 'abc'")]),
    ("redundant nested type and nullable",
     {"type": "object", "properties": {"a": {"type": "string", "nullable": True}},
      "anyOf": [{"properties": {"a": {"type": "string", "nullable": True, "minLength": 1}}}, {"required": ["a"]}]},
     {"type": "object", "properties": {"a": {"type": "string", "nullable": True}},
      "anyOf": [{"properties": {"a": {"minLength": 1}}}, {"required": ["a"]}]},
     [(f"{ROOT0}.anyOf[0].properties[a].nullable", "removed nullable: True"),
      (f"{ROOT0}.anyOf[0].properties[a].type", "removed type: 'string'")]),
    ("array without items",
     obj(list={"type": "array"}),
     obj(list={"type": "array", "items": {"x-kubernetes-preserve-unknown-fields": True}}),
     [(f"{ROOT0}.properties[list].items", "added items: {x-kubernetes-preserve-unknown-fields: true}")]),
    ("preserve-unknown-fields false",
     obj(a={"type": "object", "x-kubernetes-preserve-unknown-fields": False}),
     obj(a={"type": "object"}),
     [(f"{ROOT0}.properties[a].x-kubernetes-preserve-unknown-fields", "removed x-kubernetes-preserve-unknown-fields: False")]),
    ("nullable root",
     {"type": "object", "nullable": True, "properties": {"a": {"type": "string"}}},
     obj(a={"type": "string"}),
     [(f"{ROOT0}.nullable", "removed nullable: True")]),
    ("embedded resource without type",
     obj(raw={"x-kubernetes-embedded-resource": True, "x-kubernetes-preserve-unknown-fields": True}),
     obj(raw={"type": "object", "x-kubernetes-embedded-resource": True, "x-kubernetes-preserve-unknown-fields": True}),
     [(f"{ROOT0}.properties[raw].type", "added type: object")]),
    ("map type without type",
     obj(m={"x-kubernetes-map-type": "atomic", "x-kubernetes-preserve-unknown-fields": True}),
     obj(m={"type": "object", "x-kubernetes-map-type": "atomic", "x-kubernetes-preserve-unknown-fields": True}),
     [(f"{ROOT0}.properties[m].type", "added type: object")]),
    # upstream: kind and apiVersion of a resource "must be string"
    ("kind and apiVersion", obj(kind={"description": "k"}, apiVersion={}),
     obj(kind={"description": "k", "type": "string"}, apiVersion={"type": "string"}),
     [(f"{ROOT0}.properties[kind].type", "added type: string"),
      (f"{ROOT0}.properties[apiVersion].type", "added type: string")]),
    # a list map's items "must be object"; these say so with their properties
    ("list map items",
     obj(ports={"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"],
                "items": {"properties": {"name": {"type": "string"}}, "required": ["name"]}}),
     obj(ports={"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"],
                "items": {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}}),
     [(f"{ROOT0}.properties[ports].items.type", "added type: object")]),
    ("metadata restrictions",
     obj(metadata={"description": "m", "properties": {"name": {"type": "string", "maxLength": 20},
                                                      "labels": {"type": "object"}}, "required": ["name"]}),
     obj(metadata={"type": "object", "properties": {"name": {"type": "string", "maxLength": 20}}}),
     [(f"{ROOT0}.properties[metadata].type", "added type: object"),
      (f"{ROOT0}.properties[metadata]", "removed description, required, properties[labels]")]),
]


@pytest.mark.parametrize("name, before, after, changes", FIX_CASES, ids=[c[0] for c in FIX_CASES])
def test_fix(name: str, before: dict[str, Any], after: dict[str, Any], changes: list[tuple[str, str]]) -> None:
    # Without fix the upstream errors are manual notes ...
    _, plain_notes = upgrade_crd(pruned(before), "v1")
    assert by_kind(plain_notes, MANUAL)
    assert not by_kind(plain_notes, FIXED)
    # ... with fix each is repaired exactly, noted, and the manifest is valid.
    root, notes = fixed(before)
    assert root == after
    assert sorted(by_kind(notes, FIXED)) == sorted(changes)
    assert not by_kind(notes, MANUAL)


def test_fix_key_placement() -> None:
    root, _ = fixed(obj(spec={"description": "d", "properties": {"a": {"type": "string"}}, "required": ["a"]}))
    assert list(root["properties"]["spec"]) == ["description", "type", "properties", "required"]
    root, _ = fixed(obj(port={"anyOf": [{"type": "string"}, {"type": "integer"}], "description": "p"}))
    assert list(root["properties"]["port"]) == ["anyOf", "x-kubernetes-int-or-string", "description"]


MANUAL_CASES = [
    # properties and items: object or array? the author decides
    ("conflicting structure", obj(x={"properties": {"a": {"type": "string"}}, "items": {"type": "string"}}),
     [(f"{ROOT0}.properties[x].type", "Required value: must not be empty for specified object fields")]),
    # integer is narrower than number: the branch type is not redundant
    ("narrowing branch type", obj(n={"type": "number", "anyOf": [{"type": "integer"}, {"minimum": 0}]}),
     [(f"{ROOT0}.properties[n].anyOf[0].type", "Forbidden: must be empty to be structural")]),
    # one unrepairable problem under a node's junctors keeps all of them (their text is the author's material)
    ("all or nothing per junctor owner",
     obj(n={"type": "number", "anyOf": [{"type": "integer", "description": "whole"}, {"description": "any"}]}),
     [(f"{ROOT0}.properties[n].anyOf[0].description", "Forbidden: must be empty to be structural"),
      (f"{ROOT0}.properties[n].anyOf[0].type", "Forbidden: must be empty to be structural"),
      (f"{ROOT0}.properties[n].anyOf[1].description", "Forbidden: must be empty to be structural")]),
    # a union of object and array: no structural form
    ("object or array", obj(u={"oneOf": [{"type": "object"}, {"type": "array", "items": {"type": "string"}}]}),
     [(f"{ROOT0}.properties[u].oneOf[0].type", "Forbidden: must be empty to be structural"),
      (f"{ROOT0}.properties[u].oneOf[1].items.type", "Forbidden: must be empty to be structural"),
      (f"{ROOT0}.properties[u].oneOf[1].type", "Forbidden: must be empty to be structural"),
      (f"{ROOT0}.properties[u].type", "Required value: must not be empty for specified object fields")]),
    # hoisting an object type would prune everything the branches describe
    ("object branches", obj(o={"anyOf": [{"type": "object", "properties": {"a": {"type": "string"}}}, {"type": "object"}]}),
     [(f"{ROOT0}.properties[o].anyOf[0].properties[a].type", "Forbidden: must be empty to be structural"),
      (f"{ROOT0}.properties[o].anyOf[0].type", "Forbidden: must be empty to be structural"),
      (f"{ROOT0}.properties[o].anyOf[1].type", "Forbidden: must be empty to be structural"),
      (f"{ROOT0}.properties[o].type", "Required value: must not be empty for specified object fields")]),
    # a junctor names a field the structural schema lacks (validateStructuralCompleteness, checked at the
    # root only, as upstream): the description beside it is kept for the author's rewrite
    ("field missing outside the junctor",
     {"type": "object", "properties": {"b": {"type": "string"}},
      "anyOf": [{"description": "d", "properties": {"a": {"minLength": 1}}}]},
     [(f"{ROOT0}.properties[a]", "Required value: because it is defined in spec.validation.openAPIV3Schema.anyOf[0].properties[a]"),
      (f"{ROOT0}.anyOf[0].description", "Forbidden: must be empty to be structural")]),
    # nullable structure, non-nullable branch type: dropping the branch type would admit null
    ("nullable counterpart", obj(s={"type": "string", "nullable": True, "anyOf": [{"type": "string"}]}),
     [(f"{ROOT0}.properties[s].anyOf[0].type", "Forbidden: must be empty to be structural")]),
    # which default (or required) for a list-map key is the author's choice
    ("list map key without default",
     obj(ports={"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"],
                "items": obj(name={"type": "string"})}),
     [(f"{ROOT0}.properties[ports].items.properties[name].default",
       "Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property")]),
    # object items of a set must also be x-kubernetes-map-type: atomic: a merge-semantics choice
    ("object items of a set",
     obj(s={"type": "array", "x-kubernetes-list-type": "set", "items": {"properties": {"a": {"type": "string"}}}}),
     [(f"{ROOT0}.properties[s].items.type", "Required value: must not be empty for specified array items")]),
    # what a list map holds (keyed objects) is not "any element"
    ("list map without items",
     obj(l={"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["a"]}),
     [(f"{ROOT0}.properties[l].items", "Required value: must be specified"),
      (f"{ROOT0}.properties[l].items", "Required value: must have a schema if x-kubernetes-list-type is map")]),
    ("CEL rule in a junctor", obj(s={"type": "string", "allOf": [{"x-kubernetes-validations": [{"rule": "self != ''"}]}]}),
     [(f"{ROOT0}.properties[s].allOf[0].x-kubernetes-validations", "Forbidden: must be empty to be structural")]),
]


@pytest.mark.parametrize("name, schema, manual", MANUAL_CASES, ids=[c[0] for c in MANUAL_CASES])
def test_not_mechanical_stays_manual(name: str, schema: dict[str, Any], manual: list[tuple[str, str]]) -> None:
    root, notes = fixed(schema)
    assert root == schema  # untouched
    assert sorted(by_kind(notes, MANUAL)) == sorted(manual)
    assert not by_kind(notes, FIXED)


def test_fix_repeats_in_every_version_sharing_the_schema() -> None:
    doc = pruned(obj(spec={"properties": {"a": {"type": "string"}}}))
    doc["spec"]["versions"] = [{"name": "v1", "served": True, "storage": True}, {"name": "v2", "served": True, "storage": False}]
    out, notes = upgrade_crd(doc, "v1", fix=True)
    # upstream validates the shared schema once (spec.validation) and reports it at versions[0]
    _, plain = upgrade_crd(doc, "v1")
    assert by_kind(plain, MANUAL) == [(f"{ROOT0}.properties[spec].type", "Required value: must not be empty for specified object fields")]
    assert by_kind(notes, FIXED) == [(f"spec.versions[{i}].schema.openAPIV3Schema.properties[spec].type", "added type: object") for i in (0, 1)]
    assert all(v["schema"]["openAPIV3Schema"]["properties"]["spec"]["type"] == "object" for v in out["spec"]["versions"])
    assert check_crd_manifest(out).valid


def test_fix_downgrade_too() -> None:
    doc = v1crd([version("v1", obj(spec={"properties": {"a": {"type": "string"}}}))])
    out, notes = upgrade_crd(doc, "v1beta1", fix=True)
    assert out["spec"]["validation"]["openAPIV3Schema"]["properties"]["spec"]["type"] == "object"
    assert by_kind(notes, FIXED) == [("spec.validation.openAPIV3Schema.properties[spec].type", "added type: object")]
    assert check_crd_manifest(out).valid


# --- hostile input -------------------------------------------------------------------------------

junk = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 3) | st.sampled_from([0.5, "x", "object", "array", "v1", "Webhook"]),
    lambda kids: st.lists(kids, max_size=3) | st.dictionaries(
        st.sampled_from(["spec", "versions", "version", "schema", "openAPIV3Schema", "validation", "properties", "items",
                         "type", "anyOf", "not", "conversion", "webhook", "webhookClientConfig", "name", "storage",
                         "metadata", "status", "storedVersions", "preserveUnknownFields", "x-kubernetes-preserve-unknown-fields",
                         "additionalPrinterColumns", "JSONPath", "nullable", "description"]),
        kids, max_size=4),
    max_leaves=16,
)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from([V1, V1BETA1]), junk, st.booleans(), st.sampled_from(["v1", "v1beta1"]))
def test_hostile_input_never_raises(api_version: str, spec: Any, fix: bool, to: str) -> None:
    doc = {"apiVersion": api_version, "kind": "CustomResourceDefinition", "metadata": {"name": "x"}, "spec": spec}
    before = copy.deepcopy(doc)
    out, notes = upgrade_crd(doc, to, fix=fix)
    assert doc == before
    assert isinstance(out, dict) and all(n.kind in KINDS for n in notes)


def test_deep_schema_does_not_overflow() -> None:
    deep: dict[str, Any] = {"type": "object"}
    node = deep
    for _ in range(3000):
        child: dict[str, Any] = {}
        node["properties"] = {"a": child}
        node = child
    out, notes = upgrade_crd(pruned(deep), "v1", fix=True)
    assert out["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["type"] == "object"
    assert isinstance(notes, list)


# --- property: fix never makes a manifest worse ------------------------------------------------

loose_leaves = st.fixed_dictionaries({}, optional={
    "type": st.sampled_from(["string", "integer", "number", "boolean"]),
    "description": st.just("d"),
    "enum": st.sampled_from([["a", "b"], [1], [True], [1, 2.5]]),
    "nullable": st.booleans(),
    # (no default: upstream checks defaults only once the schema is structural, so a repair would reveal them)
    "pattern": st.just("^a"),
})
loose_schemas = st.recursive(
    loose_leaves,
    lambda kids: st.fixed_dictionaries({}, optional={
        "type": st.sampled_from(["object", "array", "string"]),
        "description": st.just("d"),
        "properties": st.dictionaries(st.sampled_from(["a", "b", "metadata", "kind"]), kids, max_size=2),
        "items": kids,
        "additionalProperties": kids,
        "anyOf": st.lists(kids, min_size=1, max_size=2),
        "oneOf": st.lists(kids, min_size=1, max_size=2),
        "nullable": st.booleans(),
        # (not false: that stops NewStructural, hiding errors a repair would then reveal)
        "x-kubernetes-preserve-unknown-fields": st.just(True),
        "x-kubernetes-int-or-string": st.just(True),
        "x-kubernetes-list-type": st.sampled_from(["atomic", "set", "map"]),
        "x-kubernetes-map-type": st.just("atomic"),
    }),
    max_leaves=6,
)


@settings(max_examples=150, deadline=None)
@given(loose_schemas, st.sampled_from([None, True, False]))
def test_fix_only_removes_errors(schema: dict[str, Any], preserve: bool | None) -> None:
    doc = beta({"validation": {"openAPIV3Schema": schema}})
    if preserve is not None:
        doc["spec"]["preserveUnknownFields"] = preserve
    before = copy.deepcopy(doc)
    plain, plain_notes = upgrade_crd(doc, "v1")
    out, notes = upgrade_crd(doc, "v1", fix=True)
    assert doc == before
    manual = [(n.path, n.reason) for n in notes if n.kind == MANUAL]
    assert manual == [(f.error.field, f.error.body()) for f in check_crd_manifest(out).findings]
    # Every repair removes an error and adds none: the errors left are a subset of those without fix ...
    plain_manual = {(n.path, n.reason) for n in plain_notes if n.kind == MANUAL}
    assert set(manual) <= plain_manual
    # ... and a manifest that was fine needs no repair.
    if not plain_manual:
        assert out == plain and not by_kind(notes, FIXED)
