"""Hypothesis strategies of ``crdtool fuzz-roundtrip``: only objects the apiserver accepts, covering the schema.

Every generated object is checked with the project's own validators
(``validate_value``, ``prune``, ``validate_object_meta``, ``objectmeta.validate``,
``validate_list_sets_and_maps``), which mirror the apiserver; coverage tests
assert that the edge values the issue lists do show up.
"""

from __future__ import annotations

import copy
import re
import uuid
from pathlib import Path as FsPath
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, seed, settings

from crdtool.core.errors import Path
from crdtool.core.fuzz import VersionSchema, check_object, versions_from_crd
from crdtool.core.fuzz.strategies import (
    any_json,
    metadata_strategy,
    object_strategy,
    value_strategy,
)
from crdtool.core.objectmeta import validate_annotations, validate_labels
from crdtool.core.schema.formats import SUPPORTED_STRING_FORMATS, validate_format
from crdtool.core.schema.pruning import prune
from crdtool.core.schema.structural import new_structural
from crdtool.core.validation.value_validation import (
    validate_list_sets_and_maps,
    validate_value,
)
from crdtool.core.validation_util import is_dns1123_label, is_dns1123_subdomain

ROOT = FsPath(__file__).resolve().parents[2]
WIDGET = ROOT / "tests" / "fuzz_converters" / "widget-crd.yaml"
CRONTAB = ROOT / "samples" / "crontab-multiversion-v1.yaml"


def sample(strategy: Any, n: int = 60, seed_value: int = 0) -> list[Any]:
    """``n`` examples of ``strategy`` (deterministic)."""
    out: list[Any] = []

    @seed(seed_value)
    @settings(max_examples=n, database=None, deadline=None, suppress_health_check=list(HealthCheck))
    @given(strategy)
    def collect(x: Any) -> None:
        out.append(x)

    collect()
    return out


def versions(path: FsPath) -> list[VersionSchema]:
    return versions_from_crd(yaml.safe_load(path.read_text(encoding="utf-8")))


def values(schema: dict[str, Any], n: int = 60, seed_value: int = 0) -> list[Any]:
    return sample(value_strategy(new_structural(schema)), n, seed_value)


def assert_valid(value: Any, schema: dict[str, Any]) -> None:
    assert validate_value(value, schema, Path("")) == [], value
    kept, pruned = prune(value, schema, is_resource_root=False)
    assert pruned == [], value


def walk(x: Any) -> list[Any]:
    out, stack = [], [x]
    while stack:
        v = stack.pop()
        out.append(v)
        if isinstance(v, dict):
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
    return out


# --- whole objects ----------------------------------------------------------------------------------


@pytest.mark.parametrize("index", [0, 1])
def test_widget_objects_are_accepted_unchanged_by_the_apiserver(index: int) -> None:
    version = versions(WIDGET)[index]
    objects = sample(object_strategy(version), 80)
    assert len(objects) == 80
    for obj in objects:
        assert obj["apiVersion"] == f"fuzz.example.com/{version.version}"
        assert obj["kind"] == "Widget"
        kept, pruned = prune(obj, dict(version.schema or {}))
        assert pruned == [] and kept == obj
        assert validate_value(obj, dict(version.schema or {}), Path("")) == []
        assert validate_list_sets_and_maps(Path(""), dict(version.schema or {}), obj) == []
        assert check_object(obj, version).ok


def test_metadata_is_realistic_for_a_namespaced_kind() -> None:
    version = versions(CRONTAB)[0]
    for obj in sample(object_strategy(version), 60):
        meta = obj["metadata"]
        assert list(meta)[:6] == ["name", "namespace", "uid", "resourceVersion", "generation", "creationTimestamp"]
        assert is_dns1123_subdomain(meta["name"]) == []
        assert is_dns1123_label(meta["namespace"]) == []
        assert uuid.UUID(meta["uid"]).version == 4
        assert meta["resourceVersion"].isdigit()
        assert isinstance(meta["generation"], int) and meta["generation"] >= 1
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", meta["creationTimestamp"])
        # ObjectMeta omits empty maps: labels and annotations are absent or non-empty and valid
        for key, check in (("labels", validate_labels), ("annotations", validate_annotations)):
            if key in meta:
                assert meta[key] and check(meta[key], Path("metadata", key)) == []


def test_metadata_has_no_namespace_for_a_cluster_scoped_kind() -> None:
    crd = yaml.safe_load(CRONTAB.read_text(encoding="utf-8"))
    crd["spec"]["scope"] = "Cluster"
    version = versions_from_crd(crd)[0]
    assert not version.namespaced
    assert all("namespace" not in o["metadata"] for o in sample(object_strategy(version), 30))


def test_labels_and_annotations_appear() -> None:
    metas = sample(metadata_strategy(namespaced=True), 100)
    assert any("labels" in m for m in metas) and any("annotations" in m for m in metas)
    assert any(m.get("labels") and "/" in next(iter(m["labels"])) for m in metas)  # prefixed keys too


def test_metadata_name_honours_the_crd_name_schema() -> None:
    name_schema = {"type": "string", "maxLength": 5, "pattern": "^[a-z]+$"}
    for meta in sample(metadata_strategy(namespaced=False, name_schema=name_schema), 40):
        assert re.fullmatch("[a-z]{1,5}", meta["name"]), meta["name"]


SMALL_OBJECT = {
    "type": "object",
    "properties": {
        "i": {"type": "integer"},
        "s": {"type": "string"},
        "b": {"type": "boolean"},
        "l": {"type": "array", "items": {"type": "string"}},
        "m": {"type": "object", "additionalProperties": {"type": "string"}},
        "o": {"type": "object", "properties": {"x": {"type": "string"}}},
        "n": {"type": "string", "nullable": True},
    },
}


def test_optional_fields_are_sometimes_absent_and_objects_sometimes_empty() -> None:
    got = values(SMALL_OBJECT, 150)
    assert {} in got
    assert any("l" in v for v in got) and any("l" not in v for v in got)
    assert any(v.get("l") == [] for v in got)
    assert any(v.get("m") == {} for v in got)
    assert any(v.get("o") == {} for v in got)
    for v in got:
        assert_valid(v, SMALL_OBJECT)


def test_edge_modes_put_one_kind_of_edge_value_in_every_field() -> None:
    got = values(SMALL_OBJECT, 200)
    zero = {"i": 0, "s": "", "b": False, "l": [], "m": {}}
    assert any(all(v.get(k) == z for k, z in zero.items()) for v in got), "no all-zero object"
    assert any(isinstance(v.get("i"), int) and abs(v["i"]) > 2**53 for v in got)
    assert any(v.get("s") in ("10", "-1", "1.5", "50%") for v in got)
    assert any(v.get("s") in (" a", "a ") for v in got)


def test_nullable_gives_explicit_nulls_and_non_nullable_never() -> None:
    got = values(SMALL_OBJECT, 150)
    assert any("n" in v and v["n"] is None for v in got)
    assert any(isinstance(v.get("n"), str) for v in got)
    for v in got:
        assert all(x is not None for k, x in v.items() if k != "n")


def test_defaults_are_applied_as_stored() -> None:
    crd = yaml.safe_load(CRONTAB.read_text(encoding="utf-8"))
    props = crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]
    props["properties"]["image"]["default"] = "busybox"
    crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["default"] = {}
    version = versions_from_crd(crd)[0]
    for obj in sample(object_strategy(version), 30):
        assert "image" in obj["spec"]


# --- scalars -----------------------------------------------------------------------------------------


def test_integers_span_int64_with_edges() -> None:
    schema = {"type": "integer"}
    got = values(schema, 300)
    assert all(isinstance(v, int) and -(2**63) <= v < 2**63 for v in got)
    assert 0 in got
    assert any(abs(v) > 2**53 for v in got)  # beyond float64 precision


@pytest.mark.parametrize(
    "schema, lo, hi",
    [
        ({"type": "integer", "minimum": 3, "maximum": 7}, 3, 7),
        ({"type": "integer", "minimum": 3, "maximum": 7, "exclusiveMinimum": True, "exclusiveMaximum": True}, 4, 6),
        # (an integer schema with a non-integral bound accepts nothing: kube-openapi reports the bound,
        # "Minimum boundary value must be of type integer", for every value)
        ({"type": "integer", "minimum": 1.0, "maximum": 2.0}, 1, 2),
        ({"type": "number", "minimum": 0, "maximum": 1}, 0, 1),
    ],
)
def test_numeric_bounds(schema: dict[str, Any], lo: float, hi: float) -> None:
    got = values(schema, 80)
    assert all(lo <= v <= hi for v in got)
    for v in got:
        assert_valid(v, schema)


def test_multiple_of() -> None:
    schema = {"type": "integer", "multipleOf": 5, "minimum": -100, "maximum": 100}
    got = values(schema, 60)
    assert all(v % 5 == 0 and -100 <= v <= 100 for v in got)
    assert len(set(got)) > 5


def test_numbers_include_floats_and_integers() -> None:
    got = values({"type": "number"}, 100)
    assert any(isinstance(v, float) for v in got) and any(isinstance(v, int) and not isinstance(v, bool) for v in got)
    assert all(v == v and abs(v) != float("inf") for v in got)  # finite JSON numbers


def test_int_or_string_gives_integers_and_numeric_looking_strings() -> None:
    schema = {"x-kubernetes-int-or-string": True}
    got = values(schema, 150)
    assert any(isinstance(v, int) for v in got)
    strings = [v for v in got if isinstance(v, str)]
    assert any(re.fullmatch(r"\d+", s) for s in strings)
    assert any(re.fullmatch(r"\d+%", s) for s in strings)
    for v in got:
        assert_valid(v, schema)


def test_strings_include_edge_values_and_words() -> None:
    got = values({"type": "string"}, 200)
    assert "" in got
    assert any(" " in s for s in got)


def test_string_length_bounds() -> None:
    schema = {"type": "string", "minLength": 3, "maxLength": 5}
    got = values(schema, 60)
    assert all(3 <= len(s) <= 5 for s in got)


def test_enum() -> None:
    schema = {"type": "string", "enum": ["Always", "Never", "IfNotPresent"]}
    got = values(schema, 40)
    assert set(got) == {"Always", "Never", "IfNotPresent"}


@pytest.mark.parametrize(
    "pattern",
    [r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$", r"^(\*|[0-9]+)(/[0-9]+)?$", r"\d+[smh]", r"^/(\S+)", r"^.{2,}|[^./]$",
     r"^\pL+\z"],
)
def test_pattern(pattern: str) -> None:
    schema = {"type": "string", "pattern": pattern}
    got = values(schema, 40)
    assert len(got) >= 10
    for v in got:
        assert_valid(v, schema)


@pytest.mark.parametrize("fmt", sorted(SUPPORTED_STRING_FORMATS | {"date-time", "k8s-short-name", "int32"}))
def test_formats(fmt: str) -> None:
    schema = {"type": "string", "format": fmt}
    got = values(schema, 25)
    assert len(got) >= 5
    for v in got:
        assert_valid(v, schema)
    norm = fmt.replace("-", "")
    if norm in SUPPORTED_STRING_FORMATS and norm != "password":
        assert all(validate_format(fmt, v) for v in got)


# --- collections -----------------------------------------------------------------------------------------


def test_item_bounds() -> None:
    schema = {"type": "array", "minItems": 2, "maxItems": 4, "items": {"type": "boolean"}}
    got = values(schema, 40)
    assert all(2 <= len(v) <= 4 for v in got)


def test_list_type_set_items_are_unique() -> None:
    schema = {"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "integer", "minimum": 0, "maximum": 3}}
    got = values(schema, 60)
    assert any(len(v) >= 2 for v in got)
    for v in got:
        assert len(set(v)) == len(v)
        assert validate_list_sets_and_maps(Path(""), {"type": "object", "properties": {"l": schema}}, {"l": v}) == []


def test_list_type_map_keys_are_unique() -> None:
    schema = {
        "type": "array",
        "x-kubernetes-list-type": "map",
        "x-kubernetes-list-map-keys": ["name", "protocol"],
        "items": {
            "type": "object",
            "required": ["name"],
            "properties": {
                "name": {"type": "string", "enum": ["a", "b"]},
                "protocol": {"type": "string", "default": "TCP", "enum": ["TCP", "UDP"]},
            },
        },
    }
    got = values(schema, 80)
    assert any(len(v) >= 2 for v in got)
    for v in got:
        keys = [(i["name"], i.get("protocol", "TCP")) for i in v]
        assert len(set(keys)) == len(keys)


def test_property_bounds() -> None:
    schema = {"type": "object", "minProperties": 1, "maxProperties": 2, "additionalProperties": {"type": "string"}}
    got = values(schema, 40)
    assert all(1 <= len(v) <= 2 for v in got)


def test_additional_properties_maps() -> None:
    schema = {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0}}
    got = values(schema, 60)
    assert any(len(v) >= 2 for v in got)
    for v in got:
        assert_valid(v, schema)


def test_required_fields_are_always_present() -> None:
    schema = {"type": "object", "required": ["a"], "properties": {"a": {"type": "string"}, "b": {"type": "string"}}}
    assert all("a" in v for v in values(schema, 40))


def test_preserve_unknown_fields_holds_arbitrary_json() -> None:
    schema = {"type": "object", "x-kubernetes-preserve-unknown-fields": True, "properties": {"known": {"type": "boolean"}}}
    got = values(schema, 100)
    unknown = [v for obj in got for k, v in obj.items() if k != "known"]
    assert unknown, "no unknown fields generated"
    assert any(isinstance(v, (dict, list)) for v in unknown)
    for v in got:
        assert_valid(v, schema)


def test_embedded_resources_have_type_and_object_meta() -> None:
    from crdtool.core.schema import objectmeta

    schema = {"type": "object", "x-kubernetes-embedded-resource": True, "x-kubernetes-preserve-unknown-fields": True}
    node = new_structural(schema)
    got = sample(value_strategy(node), 80)
    for t in got:
        assert isinstance(t["apiVersion"], str) and t["apiVersion"]
        assert isinstance(t["kind"], str) and t["kind"]
        assert objectmeta.validate(None, t, node, False) == []
        assert_valid(t, schema)
    assert any("metadata" in t for t in got) and any("metadata" not in t for t in got)
    assert any(set(t) - {"apiVersion", "kind", "metadata"} for t in got)  # its unknown fields are kept


def test_embedded_resources_inside_objects() -> None:
    version = versions(WIDGET)[1]
    templates = [o["spec"]["template"] for o in sample(object_strategy(version), 60) if "template" in o.get("spec", {})]
    assert templates
    assert all(isinstance(t["apiVersion"], str) and isinstance(t["kind"], str) for t in templates)


def test_any_json_is_json() -> None:
    import json

    for v in sample(any_json(), 60):
        assert json.loads(json.dumps(v)) == v


# --- real CRDs and unsatisfiable schemas -----------------------------------------------------------


def test_unsatisfiable_schema_generates_nothing() -> None:
    from hypothesis.errors import Unsatisfiable

    crd = yaml.safe_load(CRONTAB.read_text(encoding="utf-8"))
    schema = crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]
    schema["properties"]["image"].update({"minLength": 5, "maxLength": 2})
    schema["required"] = ["image"]
    crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["required"] = ["spec"]
    version = versions_from_crd(crd)[0]
    with pytest.raises(Unsatisfiable):
        sample(object_strategy(version), 5)


def test_objects_are_fresh_copies() -> None:
    version = versions(WIDGET)[0]
    objs = sample(object_strategy(version), 20)
    before = copy.deepcopy(objs)
    for o in objs:
        o.setdefault("spec", {})["count"] = 1
    again = sample(object_strategy(version), 20)
    assert again == before


# --- CEL rules and scale replicas (the apiserver's create path) --------------------------------------


def _ranged_crd() -> dict[str, Any]:
    crd = yaml.safe_load(CRONTAB.read_text(encoding="utf-8"))
    v1 = crd["spec"]["versions"][0]
    v1["subresources"] = {"status": {}, "scale": {"specReplicasPath": ".spec.replicas", "statusReplicasPath": ".status.replicas"}}
    v1["schema"]["openAPIV3Schema"]["properties"] = {
        "spec": {
            "type": "object",
            "properties": {"replicas": {"type": "integer"}, "min": {"type": "integer"}, "max": {"type": "integer"}},
            "x-kubernetes-validations": [{"rule": "!has(self.min) || !has(self.max) || self.min <= self.max"}],
        },
        "status": {
            "type": "object",
            "properties": {"replicas": {"type": "integer"}, "ready": {"type": "integer"}},
            "x-kubernetes-validations": [{"rule": "!has(self.ready) || self.ready >= 0"}],
        },
    }
    return crd


def test_cel_rules_and_scale_replicas_are_respected() -> None:
    from crdtool.core.fuzz import apiserver_validator

    crd = _ranged_crd()
    version = versions_from_crd(crd)[0]
    extra = apiserver_validator(crd)
    assert extra is not None
    objs = sample(object_strategy(version, extra=extra), 120)
    specs = [o["spec"] for o in objs if "spec" in o]
    assert any("min" in s and "max" in s for s in specs)
    for o in objs:
        spec, status = o.get("spec", {}), o.get("status", {})
        if "min" in spec and "max" in spec:
            assert spec["min"] <= spec["max"]
        assert 0 <= spec.get("replicas", 0) <= 2**31 - 1  # ValidateScaleSpec
        assert 0 <= status.get("replicas", 0) <= 2**31 - 1  # ValidateScaleStatus
        assert status.get("ready", 0) >= 0  # a status rule, though a create would drop status


def test_without_the_apiserver_validator_rules_are_not_enforced() -> None:
    crd = _ranged_crd()
    version = versions_from_crd(crd)[0]
    objs = sample(object_strategy(version), 120)
    assert any(o.get("spec", {}).get("replicas", 0) > 2**31 for o in objs)
    from crdtool.core.fuzz import apiserver_validator

    extra = apiserver_validator(crd)
    assert extra is not None
    bad = {"apiVersion": "stable.example.com/v1", "kind": "CronTab",
           "metadata": {"name": "a", "namespace": "b"}, "spec": {"min": 2, "max": 1}, "status": {"ready": -1}}
    errors = [str(e) for e in check_object(bad, version, extra=extra).errors]
    assert any(e.startswith("spec: Invalid value: ") and "failed rule: " in e for e in errors), errors
    assert any(e.startswith("status: Invalid value: ") and "failed rule: " in e for e in errors), errors
