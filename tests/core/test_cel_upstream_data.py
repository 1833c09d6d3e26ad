"""Shape checks for the upstream CEL test data in ``tests/core/cel_upstream/``.

The YAML files are transcriptions of upstream test tables (cel-go v0.26.0
checker/cost_test.go, checker/checker_test.go, parser/parser_test.go;
k8s.io/apiserver v0.36.3 pkg/cel/library/cost_test.go; apiextensions-apiserver
v0.36.3 pkg/apiserver/schema/cel/compilation_test.go and
pkg/apis/apiextensions/validation/validation_test.go). This module only checks
that each file loads and that every entry carries ``source`` and the keys its
kind requires (see the folder's README.md); it calls no crdtool code.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

DATA = Path(__file__).parent / "cel_upstream"

# file -> (kind, {list key: (required keys, expected count)})
FILES: dict[str, tuple[str, dict[str, tuple[set[str], int]]]] = {
    "cost_celgo.yaml": ("cost_celgo", {"cases": ({"name", "expr", "vars", "hints", "options", "wanted"}, 95)}),
    "checker_celgo.yaml": ("checker_celgo", {"cases": ({"name", "expr", "env", "options"}, 135)}),
    "parser_celgo.yaml": ("parser_celgo", {"cases": ({"name", "input"}, 194)}),
    "cost_k8s_library.yaml": (
        "cost_k8s_library",
        {
            "cases": ({"test", "subtest", "expr", "estimated", "runtime"}, 216),
            "size_cases": ({"name", "function", "overload", "target_size", "arg_sizes", "expect_size"}, 6),
        },
    ),
    "compile_k8s.yaml": (
        "compile_k8s",
        {
            "compilation_cases": ({"name", "env_loader", "schema", "expected_results"}, 25),
            "cost_estimation_cases": (
                {"name", "schema_generator", "set_max_elements", "calc_max_length", "set_max_length"},
                68,
            ),
        },
    ),
    "crd_validation_cel_k8s.yaml": (
        "crd_validation_cel_k8s",
        {
            "cost_info_cases": ({"name", "schemas", "expected_max_cardinality"}, 10),
            "cel_context_cases": ({"name", "schema", "expected_errors", "expected_conversion_count"}, 1),
            "per_crd_estimated_cost_cases": ({"name", "costs", "expected_most_expensive", "expected_total"}, 8),
            "field_path_cases": ({"name", "field_path", "expected_error_contains"}, 23),
            "crd_create_cases": ({"name", "resource", "expected_errors"}, 5),
            "crd_update_cases": ({"name", "old", "resource", "expected_errors"}, 2),
            "rule_compatibility_cases": ({"name", "old", "resource", "opts", "expected_errors"}, 3),
            "schema_validation_cases": (
                {"name", "input", "status_enabled", "opts", "cel_environment_set_from_harness", "expected_errors"},
                67,
            ),
        },
    ),
    "eval_k8s_validation.yaml": (
        "eval_k8s_validation",
        {
            "TestValidationExpressions": ({"name", "schema", "obj", "oldObj", "valid", "errors"}, 61),
            "TestValidationExpressionsAtSchemaLevels": ({"name", "schema", "obj", "oldObj", "errors"}, 25),
            "TestCELValidationLimit": ({"name", "schema", "obj", "valid"}, 1),
            "TestCELValidationContextCancellation": ({"name", "schema", "obj", "rule"}, 1),
            "TestCELMaxRecursionDepth": ({"name", "schema", "obj", "valid", "errors"}, 1),
            "TestMessageExpression": ({"name", "costBudget", "messageExpression", "expectedValidationErr"}, 12),
            "TestReasonAndFldPath": ({"name", "schema", "obj", "errors"}, 4),
            "TestValidateFieldPath": ({"name", "fieldPath", "schema", "errDetail", "validFieldPath"}, 28),
            "TestRatcheting": ({"name", "schema", "oldObj", "newObj", "errors", "warnings"}, 16),
            "TestOptionalOldSelf": ({"name", "schema", "obj", "oldObj", "errors"}, 11),
            "TestOptionalOldSelfCheckForNull": ({"name", "schema", "obj", "oldObj"}, 10),
            "TestOptionalOldSelfIsOptionalType": ({"name", "schema", "obj", "errors"}, 5),
        },
    ),
    "eval_celgo_ext.yaml": (
        "eval_celgo_ext",
        {
            t: ({"expr", "kubernetes_env", "kubernetes_env_unoptimized_cost"}, n)
            for t, n in (("TestLists", 42), ("TestListsRuntimeErrors", 4), ("TestListsCosts", 25), ("TestSets", 44),
                         ("TestStrings", 127), ("TestTwoVarComprehensions", 35), ("TestTwoVarComprehensionsCost", 16),
                         ("TestTwoVarComprehensionsStaticErrors", 22), ("TestTwoVarComprehensionsRuntimeErrors", 2))
        },
    ),
    "eval_k8s_cost_stability.yaml": (
        "eval_k8s_cost_stability",
        {
            "TestCelCostStability": ({"name", "schema", "obj", "expectCost"}, 41),
            "TestCelEstimatedCostStability": ({"name", "schema", "expectCost"}, 39),
        },
    ),
    "eval_k8s_values.yaml": (
        "eval_k8s_values",
        {
            "TestEquality": ({"name", "lhs", "rhs", "equal"}, 22),
            "TestLister": ({"name", "unstructured", "schema", "itemSchema", "size", "addition", "expectAdded"}, 3),
            "TestMapper": ({"name", "unstructured", "schema", "size", "notContains"}, 2),
        },
    ),
    "eval_k8s_correlation.yaml": (
        "eval_k8s_correlation",
        {"TestCorrelation": ({"Name", "Schema", "KeyPath", "RootObject", "RootOldObject", "ExpectEqual"}, 23)},
    ),
    "eval_k8s_library.yaml": (
        "eval_k8s_library",
        {
            t: ({"harness", "expr", "expect", "runtime_err", "compile_errs"}, n)
            for t, n in (("TestCIDR", 32), ("TestIP", 38), ("TestQuantity", 33), ("TestSemver", 33),
                         ("TestFormat", 213))
        },
    ),}

UPSTREAM_PREFIXES = ("cel-go/", "apiserver/", "apiext/")
TYPE_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_.]*(\((.+)\))?$|^!error!$")


def load(name: str) -> Any:
    with open(DATA / name, encoding="utf-8") as f:
        return yaml.safe_load(f)


def check_source(entry: dict[str, Any]) -> None:
    src = entry["source"]
    assert set(src) == {"file", "test", "case", "line"}, src
    assert src["file"].startswith(UPSTREAM_PREFIXES), src
    assert isinstance(src["line"], int) and src["line"] > 0, src
    assert isinstance(src["test"], str) and src["test"].startswith("Test"), src


def is_interval(v: Any) -> bool:
    return isinstance(v, list) and len(v) == 2 and all(isinstance(x, int) and x >= 0 for x in v) and v[0] <= v[1]


def is_type(t: Any) -> bool:
    return isinstance(t, str) and bool(TYPE_RE.match(t))


@pytest.mark.parametrize("name", sorted(FILES))
def test_file_loads_and_entries_have_required_keys(name: str) -> None:
    kind, lists = FILES[name]
    doc = load(name)
    assert doc["kind"] == kind
    assert doc["upstream"]["ref"] in ("v0.26.0", "v0.36.3")
    for key, (required, count) in lists.items():
        entries = doc[key]
        assert len(entries) == count, (key, len(entries))
        for entry in entries:
            missing = (required | {"source"}) - set(entry)
            assert not missing, (entry.get("name"), missing)
            check_source(entry)


def test_cost_celgo_shapes() -> None:
    for c in load("cost_celgo.yaml")["cases"]:
        assert is_interval(c["wanted"]), c["name"]
        assert all(is_type(t) for t in c["vars"].values()), c["name"]
        assert all(isinstance(v, int) for v in c["hints"].values()), c["name"]
        assert set(c["options"]) <= {"presence_test_has_cost", "overload_cost_estimates"}, c["name"]


def test_checker_celgo_shapes() -> None:
    for c in load("checker_celgo.yaml")["cases"]:
        assert "error" in c or "out_type" in c, c["name"]
        assert "cross_type_numeric_comparisons" in c["options"], c["name"]
        for t in c["env"].get("vars", {}).values():
            assert is_type(t), (c["name"], t)
        for f in c["env"].get("functions", []):
            for o in f["overloads"]:
                assert {"id", "member", "args", "result"} <= set(o), (c["name"], o)
                assert all(is_type(t) for t in [*o["args"], o["result"]]), (c["name"], o)


def test_parser_celgo_shapes() -> None:
    for c in load("parser_celgo.yaml")["cases"]:
        assert ("error" in c) != ("parsed" in c), c["name"]


def test_proto_types_shapes() -> None:
    doc = load("proto_types_celgo.yaml")
    msgs = doc["messages"]
    assert "google.expr.proto3.test.TestAllTypes" in msgs
    assert "google.expr.proto2.test.TestAllTypes" in msgs
    for m in msgs.values():
        assert all(is_type(t) for t in m["fields"].values()), m
    assert all(isinstance(v, int) for v in doc["enum_constants"].values())


def test_k8s_cost_shapes() -> None:
    doc = load("cost_k8s_library.yaml")
    for c in doc["cases"]:
        assert is_interval(c["estimated"]), c["expr"]
        assert isinstance(c["runtime"], int), c["expr"]
    for c in doc["size_cases"]:
        assert is_interval(c["target_size"]) and is_interval(c["expect_size"]), c["name"]
        assert all(is_interval(a) for a in c["arg_sizes"]), c["name"]


MATCHER_KEYS = {"no_error", "error", "message_expression_error", "transition_rule", "program_is_nil"}


def test_compile_k8s_shapes() -> None:
    doc = load("compile_k8s.yaml")
    for c in doc["compilation_cases"]:
        rules = c["schema"].get("x-kubernetes-validations", [])
        assert len(rules) == len(c["expected_results"]), c["name"]
        for matchers in c["expected_results"]:
            for m in matchers:
                assert len(m) == 1 and set(m) <= MATCHER_KEYS, (c["name"], m)
    for c in doc["cost_estimation_cases"]:
        for part in ("calc_max_length", "set_max_length"):
            p = c[part]
            assert {"schema", "expected_max_cost", "expected_max_cost_at_least"} == set(p), c["name"]
            for k in ("expected_max_cost", "expected_max_cost_at_least"):
                assert p[k] is None or (isinstance(p[k], int) and p[k] > 0), (c["name"], part, k)


def test_crd_validation_shapes() -> None:
    doc = load("crd_validation_cel_k8s.yaml")
    for c in doc["cost_info_cases"]:
        assert c["expected_max_cardinality"] is None or c["expected_max_cardinality"] > 0, c["name"]
        assert all(s["type"] in ("object", "array") for s in c["schemas"]), c["name"]
    for c in doc["per_crd_estimated_cost_cases"]:
        assert len(c["expected_most_expensive"]) <= 4, c["name"]
        assert c["expected_most_expensive"] == sorted(c["expected_most_expensive"], reverse=True), c["name"]


# validation_test.go helpers -> the field.ErrorType they set
HELPER_TYPES = {
    "required": "FieldValueRequired",
    "invalid": "FieldValueInvalid",
    "immutable": "FieldValueInvalid",
    "invalidIndex": "FieldValueInvalid",
    "invalidtypecode": "FieldValueTypeInvalid",
    "unsupported": "FieldValueNotSupported",
    "forbidden": "FieldValueForbidden",
    "duplicate": "FieldValueDuplicate",
    "tooMany": "FieldValueTooMany",
}
RULE_KEYS = {"rule", "message", "messageExpression", "reason", "fieldPath", "optionalOldSelf"}
OPTION_KEYS = {
    "allowDefaults",
    "disallowDefaultsReason",
    "requireRecognizedConversionReviewVersion",
    "requireImmutableNames",
    "requireOpenAPISchema",
    "requireValidPropertyType",
    "requireStructuralSchema",
    "requirePrunedDefaults",
    "requireAtomicSetType",
    "requireMapListKeysMapSetValidation",
    "preexistingExpressions",
    "versionsWithUnchangedSchemas",
    "suppressPerExpressionCost",
    "celEnvironmentSet",
    "allowInvalidCABundle",
    "allowTooManySelectableFields",
}
VALIDATION_TESTS = {
    "field_path_cases": "TestValidateFieldPath",
    "crd_create_cases": "TestValidateCustomResourceDefinition",
    "crd_update_cases": "TestValidateCustomResourceDefinitionUpdate",
    "rule_compatibility_cases": "TestValidateCustomResourceDefinitionValidationRuleCompatibility",
    "schema_validation_cases": "TestValidateCustomResourceDefinitionValidation",
}


def rules_in(x: Any) -> list[dict[str, Any]]:
    """Every x-kubernetes-validations rule anywhere inside a dict/list tree."""
    found: list[dict[str, Any]] = []
    if isinstance(x, dict):
        found.extend(x.get("x-kubernetes-validations", []))
        for v in x.values():
            found.extend(rules_in(v))
    elif isinstance(x, list):
        for v in x:
            found.extend(rules_in(v))
    return found


def has_validations(x: Any) -> bool:
    if isinstance(x, dict):
        return "x-kubernetes-validations" in x or any(has_validations(v) for v in x.values())
    if isinstance(x, list):
        return any(has_validations(v) for v in x)
    return False


def check_crd(crd: dict[str, Any]) -> None:
    assert set(crd) <= {"metadata", "spec", "status"}, set(crd)
    assert {"group", "names", "scope"} <= set(crd["spec"]), crd["spec"].keys()
    assert "validation" in crd["spec"] or any("schema" in v for v in crd["spec"].get("versions", []))


def test_crd_validation_cel_cases_shapes() -> None:
    doc = load("crd_validation_cel_k8s.yaml")
    assert set(VALIDATION_TESTS.values()) | {"TestCostInfo", "TestCelContext", "TestPerCRDEstimatedCost"} == set(
        doc["upstream"]["tests"]
    )
    for key, test in VALIDATION_TESTS.items():
        names = [c["name"] for c in doc[key]]
        assert len(set(names)) == len(names), key
        lines = [c["source"]["line"] for c in doc[key]]
        assert lines == sorted(lines) and len(set(lines)) == len(lines), key
        for c in doc[key]:
            assert c["source"]["test"] == test and c["source"]["case"] == c["name"], c["name"]
    inputs = {
        "crd_create_cases": ("resource",),
        "crd_update_cases": ("old", "resource"),
        "rule_compatibility_cases": ("old", "resource"),
        "schema_validation_cases": ("input",),
    }
    for key, input_keys in inputs.items():
        for c in doc[key]:
            for k in input_keys:
                if key != "schema_validation_cases":
                    check_crd(c[k])
                else:
                    assert set(c[k]) == {"openAPIV3Schema"}, c["name"]
            # every case is CEL-related: x-kubernetes-validations occurs (one case has it empty: `[]`)
            assert any(has_validations(c[k]) for k in input_keys), c["name"]
            rules = [r for k in input_keys for r in rules_in(c[k])]
            for r in rules:
                assert set(r) <= RULE_KEYS and isinstance(r.get("rule", ""), str), (c["name"], r)
                assert r.get("optionalOldSelf", True) in (True, False), (c["name"], r)
            for e in c["expected_errors"]:
                assert set(e) <= {"helper", "type", "path", "contains"} and {"helper", "type", "path"} <= set(e), e
                assert HELPER_TYPES[e["helper"]] == e["type"], (c["name"], e)
                assert e["path"].startswith("spec"), (c["name"], e)
            for k, notes in c.get("encoding_notes", {}).items():
                assert k in input_keys and notes and all(isinstance(n, str) for n in notes), (c["name"], k)
    for c in doc["schema_validation_cases"]:
        assert set(c["opts"]) <= OPTION_KEYS and "celEnvironmentSet" in c["opts"], c["name"]
        env = c["opts"]["celEnvironmentSet"]
        assert env["compatibility_version"] in ("DefaultCompatibilityVersion()", "1.30", "1.31"), c["name"]
        if c["cel_environment_set_from_harness"]:
            assert env == {"compatibility_version": "DefaultCompatibilityVersion()"}, c["name"]
        assert isinstance(c["status_enabled"], bool), c["name"]
        for e in c["expected_errors"]:
            assert e["path"].startswith("spec.validation.openAPIV3Schema"), (c["name"], e)
    for c in doc["rule_compatibility_cases"]:
        assert set(c["opts"]) == {"celEnvironmentSet", "preexistingExpressions"}, c["name"]
        stored = rules_in(c["old"])
        pe = c["opts"]["preexistingExpressions"]
        assert pe["rules"] == sorted({r["rule"] for r in stored}), c["name"]
        stored_messages = {r["messageExpression"] for r in stored if r.get("messageExpression")}
        assert pe["messageExpressions"] == sorted(stored_messages), c["name"]
        assert c["opts"]["celEnvironmentSet"] == {
            "compatibility_version": "1.998",
            "extensions": [{"env_options": ["library.Test()"], "introduced_version": "1.999"}],
        }
        assert bool(c["expected_errors"]) == ("expected_errors_var" in c), c["name"]
    assert isinstance(doc["field_path_schema"], dict) and doc["field_path_schema"]["type"] == "object"
    for c in doc["field_path_cases"]:
        assert isinstance(c["field_path"], str), c["name"]
        assert c["expected_error_contains"] is None or (
            isinstance(c["expected_error_contains"], str) and c["expected_error_contains"]
        ), c["name"]
    # totals the README states: 100 dumped cases, 19 hand-written ones
    assert sum(len(doc[k]) for k in VALIDATION_TESTS) == 100


# --- the per-release transcriptions (issue #19): the tag is part of each case's source -------------------------

PER_RELEASE_FILES: dict[str, tuple[str, dict[str, int]]] = {
    "eval_k8s_list_add.yaml": ("eval_k8s_list_add", {"cases": 60}),
    "k8s_library_per_release.yaml": ("k8s_library_per_release",
                                     {"cost_cases": 23, "eval_cases": 3, "environment_cases": 4}),
    "compile_k8s_per_release.yaml": ("compile_k8s_per_release", {"cases": 4}),
    "eval_k8s_validation_per_release.yaml": ("eval_k8s_validation_per_release", {"cases": 5}),
}
RELEASE_TAGS = ("v0.30.14", "v0.31.14", "v0.32.13", "v0.33.13", "v0.34.0", "v0.34.10", "v0.35.7", "v0.36.3",
                "v0.37.0-beta.0")


@pytest.mark.parametrize("name", sorted(PER_RELEASE_FILES))
def test_per_release_file_shapes(name: str) -> None:
    kind, lists = PER_RELEASE_FILES[name]
    doc = load(name)
    assert doc["kind"] == kind
    for key, count in lists.items():
        entries = doc[key]
        assert len(entries) == count, (key, len(entries))
        for entry in entries:
            src = entry["source"]
            assert src["file"].startswith(UPSTREAM_PREFIXES) and src["test"].startswith("Test"), src
            assert src.get("ref", doc.get("upstream", {}).get("ref")) in RELEASE_TAGS, src


def test_other_per_release_files() -> None:
    assert load("eval_k8s_validation_v0_34.yaml")["upstream"]["ref"] == "v0.34.10"
    assert set(load("eval_k8s_cost_stability_per_release.yaml")["tags"]) == {"v0.31.14", "v0.32.13"}
    doc = load("celgo_versions.yaml")
    assert doc["versions"] == ["v0.17.8", "v0.20.1", "v0.22.0", "v0.23.2", "v0.26.0", "v0.27.0"]
    assert (len(doc["cases"]), len(doc["cost_table"])) == (191, 8)
    for case in doc["cases"]:
        covered = [v for group in case["expect"] for v in group["versions"]]
        assert covered == doc["versions"], case["expr"]
