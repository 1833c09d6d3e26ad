"""The suite format, expectations, -k, coverage and the failure report, on hand-made suites."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
import yaml

from crdtool.testing import SCHEMA_PATH
from crdtool.testing.coverage import Coverage
from crdtool.testing.releases import ReleaseError, parse_kubernetes_versions
from crdtool.testing.runner import compile_selector, run
from crdtool.testing.suite import load_suite

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"

CRD = {
    "apiVersion": "apiextensions.k8s.io/v1",
    "kind": "CustomResourceDefinition",
    "metadata": {"name": "widgets.example.com"},
    "spec": {
        "group": "example.com", "scope": "Namespaced",
        "names": {"plural": "widgets", "kind": "Widget", "listKind": "WidgetList"},
        "versions": [{"name": "v1", "served": True, "storage": True, "schema": {"openAPIV3Schema": {
            "type": "object",
            "properties": {"spec": {
                "type": "object",
                "x-kubernetes-validations": [{"rule": "self.size <= 10", "message": "too big"}],
                "properties": {
                    "size": {"type": "integer", "minimum": 1},
                    "class": {"type": "string", "x-kubernetes-validations": [{"rule": "self == oldSelf", "message": "immutable"}]},
                },
            }},
        }}}],
    },
}


def widget(**spec: object) -> dict[str, object]:
    return {"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"}, "spec": spec}


def write(tmp_path: Path, cases: list[dict[str, object]], **extra: object) -> Path:
    (tmp_path / "crd.yaml").write_text(yaml.safe_dump(CRD))
    path = tmp_path / "w.crdtest.yaml"
    path.write_text(yaml.safe_dump({"crds": ["crd.yaml"], **extra, "cases": cases}, sort_keys=False))
    return path


def run_one(tmp_path: Path, case: dict[str, object]) -> list[str]:
    result = run([load_suite(str(write(tmp_path, [case])))])
    assert not result.suite_errors
    return result.results[0].problems


def test_samples_validate_against_the_shipped_json_schema() -> None:
    schema = json.loads(Path(SCHEMA_PATH).read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    suites = [p for p in SAMPLES.glob("*.crdtest.yaml") if "apiVersion" not in yaml.safe_load(p.read_text())]
    assert len(suites) >= 2
    for path in suites:
        jsonschema.validate(yaml.safe_load(path.read_text()), schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"crds": ["a.yaml"], "cases": [{"name": "x", "object": {}, "expect": {"bogus": 1}}]}, schema)


def test_the_sample_suites_pass() -> None:
    result = run([load_suite(str(p)) for p in sorted(SAMPLES.glob("*.crdtest.yaml"))])
    assert result.suite_errors == []
    assert len(result.results) == 14 and result.failed == []


def test_an_error_must_match_field_type_and_message_of_one_error(tmp_path: Path) -> None:
    base = {"name": "c", "object": widget(size=20)}
    assert run_one(tmp_path, {**base, "expect": {"errors": [{"field": "spec", "message": "too big"}]}}) == []
    assert run_one(tmp_path, {**base, "expect": {"errors": [{"field": "spec", "type": "FieldValueInvalid",
                                                             "messageRegex": "too b.g$"}]}}) == []
    assert run_one(tmp_path, {**base, "expect": {"errors": [{"field": "spec.size", "message": "too big"}]}}) == [
        "expected error not reported: spec.size 'too big'", "unexpected error: spec: Invalid value: too big"]
    assert run_one(tmp_path, {**base, "expect": {"valid": True}}) == ["expected the object to be valid, got 1 error"]


def test_other_errors_fail_unless_allowed(tmp_path: Path) -> None:
    case = {"name": "c", "object": widget(size=0, bogus=1)}
    problems = run_one(tmp_path, {**case, "expect": {"errors": [{"field": "spec.size"}]}})
    assert problems == ['unexpected error: unknown field "spec.bogus"']
    assert run_one(tmp_path, {**case, "expect": {"errors": [{"field": "spec.size"}], "allowOtherErrors": True}}) == []
    assert run_one(tmp_path, {**case, "fieldValidation": "Warn",
                              "expect": {"errors": [{"field": "spec.size"}], "warnings": ["spec.bogus"],
                                         "pruned": ["spec.bogus"]}}) == []


def test_status_message_is_the_apiservers_answer(tmp_path: Path) -> None:
    case = {"name": "c", "object": widget(size=0)}
    assert run_one(tmp_path, {**case, "expect": {"statusMessage": [
        'Widget.example.com "w" is invalid: spec.size: Invalid value: 0: spec.size in body should be greater than or '
        'equal to 1']}}) == []
    two = {"name": "c", "object": widget(size=0, **{"class": 5})}  # a blocking error: the CEL rules are not run
    assert run_one(tmp_path, {**two, "expect": {"statusMessage": [
        'Widget.example.com "w" is invalid: [spec.class: Invalid value: "integer": spec.class in body must be of type '
        'string: "integer", spec.size: Invalid value: 0: spec.size in body should be greater than or equal to 1, '
        '<nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct '
        'the existing errors to complete validation]']}}) == []
    assert run_one(tmp_path, {**case, "expect": {"statusMessage": ["WIDGET.EXAMPLE.COM"], "ignoreCase": True}}) == []


def test_update_cases_run_transition_rules(tmp_path: Path) -> None:
    case = {"name": "c", "oldObject": widget(size=1, **{"class": "a"}), "object": widget(size=1, **{"class": "b"})}
    assert run_one(tmp_path, {**case, "expect": {"errors": [{"field": "spec.class", "message": "immutable"}]}}) == []
    old = widget(size=20)
    same = {"name": "c", "oldObject": old, "object": {**old, "metadata": {"name": "w", "labels": {"a": "b"}}}}
    assert run_one(tmp_path, {**same, "expect": {"valid": True, "warnings": ["too big"],
                                                 "object": {"metadata": {"labels": {"a": "b"}}}}}) == []


def test_the_light_form(tmp_path: Path) -> None:
    (tmp_path / "crd.yaml").write_text(yaml.safe_dump(CRD))
    path = tmp_path / "big.crdtest.yaml"
    path.write_text('# crd: crd.yaml\n# expect: FieldValueInvalid spec "too big"\n' + yaml.safe_dump(widget(size=11)))
    result = run([load_suite(str(path))])
    assert [r.outcome for r in result.results] == ["passed"]
    path.write_text('# crd: crd.yaml\n# expect: valid\n' + yaml.safe_dump(widget(size=11)))
    assert [r.outcome for r in run([load_suite(str(path))]).results] == ["failed"]


def test_suite_errors_name_the_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.crdtest.yaml"
    path.write_text("crds: [missing.yaml]\ncases:\n  - name: a\n    object: {kind: X}\n    expect: {valid: maybe}\n  - name: b\n")
    errors = [str(e) for e in load_suite(str(path)).errors]
    assert any(":5:" in e and "expect.valid" in e for e in errors), errors
    assert any(":6:" in e and "object or objectFile is required" in e for e in errors), errors
    assert any("missing.yaml" in e for e in errors), errors


def test_selector_is_pytest_k() -> None:
    match = compile_selector("immutable and not (tls or size)")
    assert match("w.crdtest.yaml class is immutable")
    assert not match("w.crdtest.yaml size is immutable")
    assert not match("w.crdtest.yaml other")
    with pytest.raises(ValueError):
        compile_selector("a and")


def test_kubernetes_versions() -> None:
    assert parse_kubernetes_versions("1.33") == ("1.33",)
    assert parse_kubernetes_versions("1.30-1.32,1.31,v1.37") == ("1.30", "1.31", "1.32", "1.37")
    # the spellings of --kubernetes-version elsewhere (core/releases.py parse_release_matrix)
    assert parse_kubernetes_versions("supported") == ("1.35", "1.36", "1.37")
    assert len(parse_kubernetes_versions("all")) == 8
    for bad in ("1.29", "2.0", "1.35-1.33", "latest"):
        with pytest.raises(ReleaseError):
            parse_kubernetes_versions(bad)


def test_each_case_runs_under_each_release(tmp_path: Path) -> None:
    path = write(tmp_path, [{"name": "c", "object": widget(size=2), "expect": {"valid": True}}],
                 kubernetesVersions="1.33-1.35")
    result = run([load_suite(str(path))])
    assert [r.name for r in result.results] == ["c [1.33]", "c [1.34]", "c [1.35]"]
    assert [r.release for r in run([load_suite(str(path))], releases=("1.37",)).results] == ["1.37"]


def rule_line(tmp_path: Path) -> int:
    lines = (tmp_path / "crd.yaml").read_text().splitlines()
    return next(i for i, line in enumerate(lines, 1) if "rule: self.size <= 10" in line)


def coverage_of(tmp_path: Path, cases: list[dict[str, object]]) -> Coverage:
    result = run([load_suite(str(write(tmp_path, cases)))])
    assert result.failed == []
    return result.coverage


def test_coverage_flips_when_a_case_is_removed(tmp_path: Path) -> None:
    cases = [
        {"name": "ok", "object": widget(size=2), "expect": {"valid": True}},
        {"name": "too big", "object": widget(size=11), "expect": {"errors": [{"message": "too big"}]}},
        {"name": "too small", "object": widget(size=0), "expect": {"errors": [{"field": "spec.size"}], "allowOtherErrors": True}},
        {"name": "class kept", "oldObject": widget(size=1, **{"class": "a"}), "object": widget(size=2, **{"class": "a"}),
         "expect": {"valid": True}},
        {"name": "class changed", "oldObject": widget(size=1, **{"class": "a"}), "object": widget(size=1, **{"class": "b"}),
         "expect": {"errors": [{"message": "immutable"}]}},
    ]
    full = coverage_of(tmp_path, cases)
    by_text = {i.text: i.key for i in full.items.values()}
    assert set(by_text) == {"self.size <= 10", "self == oldSelf", ">= 1"}
    assert all(full.covered(k) for k in full.items) and full.percent() == 100.0
    rule = full.items[by_text["self.size <= 10"]]
    assert (rule.file, rule.line) == (str(tmp_path / "crd.yaml"), rule_line(tmp_path))
    without = coverage_of(tmp_path, [c for c in cases if c["name"] != "too big"])
    assert not without.covered(by_text["self.size <= 10"]) and by_text["self.size <= 10"] not in without.failed
    assert without.covered(by_text["self == oldSelf"])
    without = coverage_of(tmp_path, [c for c in cases if c["name"] != "class changed"])
    assert not without.covered(by_text["self == oldSelf"])
    without = coverage_of(tmp_path, [c for c in cases if c["name"] != "too small"])
    assert not without.covered(by_text[">= 1"]) and without.percent() == pytest.approx(200 / 3)


def test_a_failure_explains_itself(tmp_path: Path) -> None:
    path = write(tmp_path, [{"name": "big", "object": widget(size=11), "expect": {"valid": True}}])
    text = run([load_suite(str(path))]).results[0].explain()
    assert "expected the object to be valid, got 1 error" in text
    assert "expected" in text and "| got" in text
    assert "spec: Invalid value: too big" in text
    assert "rule: self.size <= 10" in text and f"{tmp_path / 'crd.yaml'}:{rule_line(tmp_path)}" in text


# issue 27, repro 07: before 1.34 the errors are re-rendered for the release (FieldError.at_release: a new object),
# and the rule that produced one was no longer found -- no "rule: ... (file:line)", no errors[].rule
@pytest.mark.parametrize("release", ["1.30", "1.33", "1.34", "1.37"])
def test_a_failure_names_its_rule_on_every_release(tmp_path: Path, release: str) -> None:
    path = write(tmp_path, [{"name": "big", "object": widget(size=11), "expect": {"valid": True}}])
    [result] = run([load_suite(str(path))], releases=(release,)).results
    [err] = result.verdict.errors
    assert result.rules[id(err)].text == "self.size <= 10"
    assert [e for _, _, _, e in result.verdict.events if e is not None] == [err]
    text = result.explain()
    assert "rule: self.size <= 10" in text and f"{tmp_path / 'crd.yaml'}:{rule_line(tmp_path)}" in text


def test_a_release_written_as_a_number_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, [{"name": "c", "object": widget(size=2), "expect": {"valid": True}}])
    path.write_text(path.read_text().replace("cases:", "kubernetesVersions: [1.30]\ncases:"))
    assert any("quote Kubernetes releases" in str(e) for e in load_suite(str(path)).errors)


# A maxLength failure's text changed in apimachinery v0.32.0 (field/errors.go: TooLongMaxLength
# "may not be longer than %d" became TooLong "may not be more than %d bytes"); in v0.34.0 one byte is "1 byte".
SHORT = {**CRD, "spec": {**CRD["spec"], "versions": [{
    "name": "v1", "served": True, "storage": True, "subresources": {"status": {}},
    "schema": {"openAPIV3Schema": {"type": "object", "properties": {
        "spec": {"type": "object", "properties": {"name": {"type": "string", "maxLength": 3}}},
        "status": {"type": "object", "properties": {"name": {"type": "string", "maxLength": 3}}},
    }}},
}]}}


def test_each_case_is_judged_by_the_release_it_names(tmp_path: Path) -> None:
    (tmp_path / "crd.yaml").write_text(yaml.safe_dump(SHORT))
    long_name = {"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w", "namespace": "d"},
                 "spec": {"name": "abcd"}}
    expect_new = {"errors": [{"field": "spec.name", "type": "FieldValueTooLong", "message": "may not be more than 3 bytes"}]}
    path = tmp_path / "r.crdtest.yaml"
    path.write_text(yaml.safe_dump({"crds": ["crd.yaml"], "kubernetesVersions": "1.30-1.37",
                                    "cases": [{"name": "too long", "object": long_name, "expect": expect_new}]}))
    result = run([load_suite(str(path))])
    assert [(r.release, r.outcome) for r in result.results] == [
        ("1.30", "failed"), ("1.31", "failed"), *((f"1.{m}", "passed") for m in range(32, 38))]
    old = {**long_name, "spec": {"name": "ab"}, "status": {"name": "ok"}}
    new = {**old, "status": {"name": "abcd"}}
    path.write_text(yaml.safe_dump({"crds": ["crd.yaml"], "cases": [
        {"name": "status 1.31", "kubernetesVersions": "1.31", "subresource": "status", "object": new, "oldObject": old,
         "expect": {"errors": [{"field": "status.name", "message": "may not be longer than 3"}]}},
        {"name": "status 1.33", "kubernetesVersions": "1.33", "subresource": "status", "object": new, "oldObject": old,
         "expect": {"errors": [{"field": "status.name", "message": "may not be more than 3 bytes"}]}},
    ]}))
    result = run([load_suite(str(path))])
    assert [(r.release, r.outcome, r.problems) for r in result.results] == [("1.31", "passed", []), ("1.33", "passed", [])]


def test_the_python_assertions_take_the_release() -> None:
    from crdtool.testing import assert_invalid

    obj = {"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w", "namespace": "d"},
           "spec": {"name": "abcd"}}
    old_text = [str(e) for e in assert_invalid(obj, SHORT, field="spec.name", kubernetes_version="1.31")]
    assert old_text == ["spec.name: Too long: may not be longer than 3"]
    new_text = [str(e) for e in assert_invalid(obj, SHORT, field="spec.name", kubernetes_version="1.37")]
    assert new_text == ["spec.name: Too long: may not be more than 3 bytes"]


def test_crd_refusals_group_the_releases_that_answer_alike(tmp_path: Path) -> None:
    """A CRD whose rule calls isSemver (the semver library of Kubernetes 1.34, k8s.io/apiserver
    pkg/cel/environment/base.go @v0.34.0) is refused by 1.33 and earlier, created by 1.34 and later."""
    from crdtool.testing.runner import Session, crd_refusals
    from crdtool.testing.suite import load_suite

    crd = (ROOT / "samples" / "crontab-v1.yaml").read_text().replace(
        "cronSpec:\n", "cronSpec:\n                  x-kubernetes-validations: [{rule: isSemver(self)}]\n", 1)
    (tmp_path / "crd.yaml").write_text(crd)
    (tmp_path / "s.crdtest.yaml").write_text("crds: [crd.yaml]\ncases: []\n")
    suite = load_suite(str(tmp_path / "s.crdtest.yaml"))
    assert not suite.errors
    session = Session()
    refused = crd_refusals(suite, session, ["1.34", "1.32", "1.33"])
    assert [e.kind for e in refused] == ["crd-invalid"]
    assert "refused by the apiserver of Kubernetes 1.32, 1.33 on create" in refused[0].message
    assert crd_refusals(suite, session, ["1.34"]) == []
