"""``compare_crds``: the compatibility changes between two CRDs.

Each kind of change on a minimal pair of CRDs (the severities follow the apiserver's behaviour
documented in ``crdtool/core/crd/compare.py``), then properties: a CRD compared with itself, or
with its v1beta1 <-> v1 conversion, has no change.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crdtool import compare_crds
from crdtool.core.crd.compare import match_crds


def crd(schema: dict[str, Any] | None = None, **spec: Any) -> dict[str, Any]:
    version: dict[str, Any] = {"name": "v1", "served": True, "storage": True}
    version["schema"] = {"openAPIV3Schema": schema or {"type": "object", "properties": {"spec": {"type": "object"}}}}
    out = {
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "widgets.example.com"},
        "spec": {
            "group": "example.com",
            "scope": "Namespaced",
            "names": {"plural": "widgets", "singular": "widget", "kind": "Widget", "listKind": "WidgetList"},
            "versions": [version],
        },
    }
    out["spec"].update(spec)
    return out


def spec_schema(**props: Any) -> dict[str, Any]:
    return {"type": "object", "properties": {"spec": {"type": "object", "properties": props}}}


def kinds(old: dict[str, Any], new: dict[str, Any], **kw: Any) -> list[tuple[str, str, str, str]]:
    return [(c.version, c.path, c.kind, c.severity) for c in compare_crds(old, new, **kw)]


def test_no_change() -> None:
    assert compare_crds(crd(), crd()) == []


def test_identity_changes_are_errors() -> None:
    new = crd()
    new["spec"]["scope"] = "Cluster"
    new["spec"]["names"]["kind"] = "Gadget"
    assert kinds(crd(), new) == [("", "spec.names.kind", "kind-changed", "error"), ("", "spec.scope", "scope-changed", "error")]
    renamed = crd()
    renamed["metadata"]["name"] = "widgets.example.org"
    renamed["spec"]["group"] = "example.org"
    assert [k[2] for k in kinds(crd(), renamed)] == ["crd-renamed", "group-changed"]


def two_versions(storage: str = "v1", served_v1: bool = True) -> dict[str, Any]:
    out = crd()
    v1 = out["spec"]["versions"][0]
    v1["storage"], v1["served"] = storage == "v1", served_v1
    out["spec"]["versions"].append({**copy.deepcopy(v1), "name": "v2", "storage": storage == "v2", "served": True})
    return out


def test_version_removed_is_an_error_only_while_stored() -> None:
    old, new = two_versions("v2"), crd()
    new["spec"]["versions"][0]["name"] = "v2"
    assert kinds(old, new) == [("v1", "spec.versions[v1]", "version-removed", "breaking")]
    changes = compare_crds(old, new, stored_versions=["v1", "v2"])
    removed = next(c for c in changes if c.version == "v1")
    assert (removed.kind, removed.severity) == ("stored-version-removed", "error")
    assert "status.storedVersions" in removed.message and "storage version migrator" in removed.message


def test_storage_move_unserve_and_add() -> None:
    changes = kinds(two_versions("v1"), two_versions("v2", served_v1=False))
    assert ("v1", "spec.versions[v1].served", "version-unserved", "breaking") in changes
    assert ("v2", "spec.versions[v2].storage", "storage-version-changed", "warning") in changes
    assert ("v2", "spec.versions[v2]", "version-added", "info") in kinds(crd(), two_versions())


def test_storage_move_gives_the_stored_versions_and_migration() -> None:
    change = next(c for c in compare_crds(two_versions("v1"), two_versions("v2")) if c.kind == "storage-version-changed")
    assert "status.storedVersions becomes ['v1', 'v2']" in change.message
    assert "remove v1 from the CRD's status.storedVersions" in change.message


@pytest.mark.parametrize(
    "old,new,expected",
    [
        ({"a": {"type": "string"}}, {}, [(".spec.a", "field-removed", "breaking")]),
        ({}, {"a": {"type": "string"}}, [(".spec.a", "field-added", "info")]),
        ({"a": {"type": "string"}}, {"a": {"type": "integer"}}, [(".spec.a", "type-changed", "breaking")]),
        ({"a": {"type": "string", "nullable": True}}, {"a": {"type": "string"}}, [(".spec.a", "nullable-removed", "breaking")]),
        ({"a": {"type": "string"}}, {"a": {"type": "string", "enum": ["x"]}}, [(".spec.a", "enum-added", "breaking")]),
        ({"a": {"type": "string", "enum": ["x", "y"]}}, {"a": {"type": "string", "enum": ["x", "z"]}},
         [(".spec.a", "enum-values-removed", "breaking"), (".spec.a", "enum-values-added", "info")]),
        ({"a": {"type": "integer", "maximum": 10}}, {"a": {"type": "integer", "maximum": 5}}, [(".spec.a", "maximum-tightened", "breaking")]),
        ({"a": {"type": "integer", "maximum": 5}}, {"a": {"type": "integer", "maximum": 10}}, [(".spec.a", "maximum-loosened", "info")]),
        ({"a": {"type": "integer", "minimum": 1}}, {"a": {"type": "integer", "minimum": 1, "exclusiveMinimum": True}},
         [(".spec.a", "minimum-tightened", "breaking")]),
        ({"a": {"type": "string"}}, {"a": {"type": "string", "maxLength": 3}}, [(".spec.a", "max-length-added", "breaking")]),
        ({"a": {"type": "array", "items": {"type": "string"}, "minItems": 1}}, {"a": {"type": "array", "items": {"type": "string"}, "minItems": 2}},
         [(".spec.a", "min-items-tightened", "breaking")]),
        ({"a": {"type": "object", "maxProperties": 3}}, {"a": {"type": "object"}}, [(".spec.a", "max-properties-removed", "info")]),
        ({"a": {"type": "string"}}, {"a": {"type": "string", "pattern": "^x"}}, [(".spec.a", "pattern-added", "breaking")]),
        ({"a": {"type": "string", "pattern": "^x"}}, {"a": {"type": "string", "pattern": "^y"}}, [(".spec.a", "pattern-changed", "breaking")]),
        ({"a": {"type": "string"}}, {"a": {"type": "string", "format": "date-time"}}, [(".spec.a", "format-added", "breaking")]),
        ({"a": {"type": "string"}}, {"a": {"type": "string", "format": "not-a-known-format"}}, [(".spec.a", "format-changed", "info")]),
        ({"a": {"type": "string"}}, {"a": {"type": "string", "default": "x"}}, [(".spec.a", "default-added", "info")]),
        ({"a": {"type": "string", "default": "x"}}, {"a": {"type": "string", "default": "y"}}, [(".spec.a", "default-changed", "warning")]),
        ({"a": {"type": "string", "default": "x"}}, {"a": {"type": "string"}}, [(".spec.a", "default-removed", "warning")]),
        ({"a": {"type": "object", "x-kubernetes-preserve-unknown-fields": True}}, {"a": {"type": "object"}},
         [(".spec.a", "preserve-unknown-fields-removed", "breaking")]),
        ({"a": {"type": "array", "items": {"type": "string"}}}, {"a": {"type": "array", "items": {"type": "string"}, "x-kubernetes-list-type": "set"}},
         [(".spec.a", "list-type-changed", "breaking")]),
        ({"a": {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["n"], "items": {"type": "object", "required": ["n"], "properties": {"n": {"type": "string"}, "m": {"type": "string"}}}}},
         {"a": {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["m"], "items": {"type": "object", "required": ["n"], "properties": {"n": {"type": "string"}, "m": {"type": "string", "default": "x"}}}}},
         [(".spec.a", "list-map-keys-changed", "breaking"), (".spec.a[*].m", "default-added", "info")]),
        ({"a": {"type": "array", "items": {"type": "object", "properties": {"b": {"type": "string"}}}}},
         {"a": {"type": "array", "items": {"type": "object", "properties": {"b": {"type": "integer"}}}}},
         [(".spec.a[*].b", "type-changed", "breaking")]),
        ({"m": {"type": "object", "additionalProperties": {"type": "string"}}}, {"m": {"type": "object", "additionalProperties": {"type": "string", "maxLength": 2}}},
         [(".spec.m.*", "max-length-added", "breaking")]),
        ({"a": {"type": "string"}}, {"a": {"type": "string", "x-kubernetes-validations": [{"rule": "self != 'x'"}]}},
         [(".spec.a", "cel-rule-added", "breaking")]),
        ({"a": {"type": "string", "x-kubernetes-validations": [{"rule": "self != 'x'"}]}}, {"a": {"type": "string"}},
         [(".spec.a", "cel-rule-removed", "info")]),
        ({"a": {"type": "string", "x-kubernetes-validations": [{"rule": "self != 'x'"}]}}, {"a": {"type": "string", "x-kubernetes-validations": [{"rule": "self != 'y'"}]}},
         [(".spec.a", "cel-rule-changed", "breaking")]),
        ({"a": {"type": "string", "x-kubernetes-validations": [{"rule": "self != 'x'", "message": "m1"}]}},
         {"a": {"type": "string", "x-kubernetes-validations": [{"rule": "self != 'x'", "message": "m2"}]}},
         [(".spec.a", "cel-rule-message-changed", "info")]),
        ({"a.b": {"type": "string"}}, {}, [('.spec["a.b"]', "field-removed", "breaking")]),
    ],
)
def test_schema_changes(old: dict[str, Any], new: dict[str, Any], expected: list[tuple[str, str, str]]) -> None:
    got = [(path, kind, severity) for version, path, kind, severity in kinds(crd(spec_schema(**old)), crd(spec_schema(**new)))]
    assert got == expected


def test_required_added_at_the_root_and_below() -> None:
    old = spec_schema(a={"type": "string"})
    new = copy.deepcopy(old)
    new["required"] = ["spec"]
    new["properties"]["spec"]["required"] = ["a"]
    changes = compare_crds(crd(old), crd(new))
    assert [(c.path, c.kind, c.severity) for c in changes] == [
        (".spec", "required-added", "breaking"),
        (".spec.a", "required-added", "breaking"),
    ]
    assert "even updates that change nothing" in changes[0].message


def test_transition_rules_are_named() -> None:
    new = spec_schema(a={"type": "string", "x-kubernetes-validations": [{"rule": "self == oldSelf", "message": "immutable"}]})
    change = compare_crds(crd(spec_schema(a={"type": "string"})), crd(new))[0]
    assert "transition rule (oldSelf): checked on updates only, never ratcheted" in change.message
    assert "`self == oldSelf`" in change.message and '"immutable"' in change.message


def test_subresources_columns_and_selectable_fields() -> None:
    old = crd(spec_schema(a={"type": "string"}))
    new = copy.deepcopy(old)
    v = new["spec"]["versions"][0]
    v["subresources"] = {"status": {}}
    v["additionalPrinterColumns"] = [{"name": "A", "type": "string", "jsonPath": ".spec.a"}]
    v["selectableFields"] = [{"jsonPath": ".spec.a"}]
    assert kinds(old, new) == [
        ("v1", "spec.versions[v1].subresources.status", "status-subresource-added", "warning"),
        ("v1", "spec.versions[v1].additionalPrinterColumns", "printer-columns-added", "info"),
        ("v1", "spec.versions[v1].selectableFields", "selectable-fields-added", "info"),
    ]
    assert [k[2:] for k in kinds(new, old)][0] == ("status-subresource-removed", "breaking")


def test_pruning_enabled_when_a_v1beta1_crd_becomes_v1() -> None:
    old = {
        "apiVersion": "apiextensions.k8s.io/v1beta1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "widgets.example.com"},
        "spec": {"group": "example.com", "version": "v1", "scope": "Namespaced",
                 "names": {"plural": "widgets", "singular": "widget", "kind": "Widget", "listKind": "WidgetList"}},
    }
    assert kinds(old, crd()) == [
        ("", "spec.preserveUnknownFields", "pruning-enabled", "breaking"),
        ("v1", ".", "schema-added", "breaking"),
    ]


def test_conversion_changes() -> None:
    webhook = {"strategy": "Webhook", "webhook": {"conversionReviewVersions": ["v1"], "clientConfig": {"url": "https://x.example.com/c"}}}
    assert kinds(two_versions(), {**two_versions(), "spec": {**two_versions()["spec"], "conversion": webhook}}) == [
        ("", "spec.conversion.strategy", "conversion-strategy-changed", "warning")
    ]
    assert kinds({**two_versions(), "spec": {**two_versions()["spec"], "conversion": webhook}}, two_versions())[0][3] == "breaking"


def test_match_crds() -> None:
    a, b = crd(), crd()
    b["metadata"]["name"] = "gadgets.example.com"
    assert match_crds([a], [b]) == ([(0, 0)], [], [])  # one each: paired whatever the names
    assert match_crds([a, b], [b]) == ([(1, 0)], [0], [])
    assert match_crds([a], [a, b]) == ([(0, 0)], [], [1])
    c = crd()
    c["metadata"]["name"] = "things.example.com"
    assert match_crds([a, b], [a, c]) == ([(0, 0)], [1], [1])  # several CRDs: only by name


def test_not_a_crd() -> None:
    with pytest.raises(ValueError):
        compare_crds({"kind": "ConfigMap"}, crd())


# --- properties -------------------------------------------------------------------------------


leaf = st.fixed_dictionaries(
    {"type": st.sampled_from(["string", "integer", "number", "boolean"])},
    optional={"maxLength": st.integers(0, 9), "minimum": st.integers(-5, 5), "enum": st.lists(st.text(max_size=2), min_size=1, max_size=3),
              "pattern": st.sampled_from(["^a", "b$"]), "default": st.text(max_size=2), "nullable": st.booleans()},
)
schemas = st.recursive(
    leaf,
    lambda c: st.one_of(
        st.fixed_dictionaries({"type": st.just("object"), "properties": st.dictionaries(st.sampled_from(list("abcd")), c, max_size=3)},
                              optional={"required": st.lists(st.sampled_from(list("abcd")), max_size=2, unique=True)}),
        st.fixed_dictionaries({"type": st.just("array"), "items": c}, optional={"maxItems": st.integers(0, 4)}),
    ),
    max_leaves=8,
)


@settings(max_examples=100, deadline=None)
@given(schemas)
def test_any_schema_compared_with_itself_has_no_change(schema: dict[str, Any]) -> None:
    doc = crd({"type": "object", "properties": {"spec": schema}})
    assert compare_crds(doc, copy.deepcopy(doc)) == []


@settings(max_examples=100, deadline=None)
@given(schemas, schemas)
def test_changes_are_well_formed(a: dict[str, Any], b: dict[str, Any]) -> None:
    changes = compare_crds(crd({"type": "object", "properties": {"spec": a}}), crd({"type": "object", "properties": {"spec": b}}))
    for c in changes:
        assert c.severity in ("error", "breaking", "warning", "info") and c.message and c.kind
        assert c.path.startswith(".spec") and c.version == "v1"
