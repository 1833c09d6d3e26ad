"""``crdtool test``: what issue 27 asked of it (repros in ../shared/repros/2026-11-29/, copied here as small
inline suites): CI reporters state a coverage shortfall, the CRDs under test are judged first, suite checks."""

from __future__ import annotations

import json
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from typer.testing import CliRunner

from crdtool.cli.app import app

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"


@pytest.fixture()
def samples(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name in ("crontab-v1.yaml", "crontab.crdtest.yaml", "widgets.crdtest.yaml"):
        shutil.copy(SAMPLES / name, tmp_path / name)
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    monkeypatch.delenv("CRDTOOL_KUBERNETES_VERSION", raising=False)
    return tmp_path


def invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["test", *args])
    return result.exit_code, result.output


# ------------------------------------------------------------------------------------------------
# 08: --fail-under in the CI reporters


def test_fail_under_is_stated_by_every_ci_reporter(samples: Path) -> None:
    args = ("--fail-under", "100", "-k", "not size", "widgets.crdtest.yaml")
    code, out = invoke("--output", "github", *args)
    assert code == 1
    line = next(x for x in out.splitlines() if "Coverage" in x)
    assert line.startswith("::error file=widgets.crdtest.yaml,line=") and "below --fail-under 100%25" in line
    assert out.rstrip().splitlines()[-1].endswith("rule coverage 20.0% below --fail-under 100")
    code, out = invoke("--output", "junit", *args)
    assert code == 1
    suite = ET.fromstring(out.split("\n", 1)[1]).find("testsuite")
    assert suite is not None and suite.get("failures") == "1"
    case = next(c for c in suite.iter("testcase") if c.get("name") == "coverage")
    failure = case.find("failure")
    assert failure is not None and failure.get("type") == "Coverage" and "20.0%" in (failure.get("message") or "")
    code, out = invoke("--output", "sarif", *args)
    assert code == 1
    results = json.loads(out)["runs"][0]["results"]
    assert [r["ruleId"] for r in results] == ["Coverage"] and "below --fail-under 100%" in results[0]["message"]["text"]
    code, out = invoke("--output", "github", "--fail-under", "100", "widgets.crdtest.yaml")
    assert code == 0 and "Coverage" not in out


def test_a_suite_error_is_stated_by_every_ci_reporter(samples: Path) -> None:
    (samples / "bad.crdtest.yaml").write_text("crds: [nope.yaml]\ncases: []\n")
    code, out = invoke("--output", "github", "bad.crdtest.yaml")
    assert code == 2 and out.startswith("::error file=bad.crdtest.yaml,") and "nope.yaml" in out
    code, out = invoke("--output", "sarif", "bad.crdtest.yaml")
    assert code == 2 and [r["ruleId"] for r in json.loads(out)["runs"][0]["results"]] == ["InputError"]


# ------------------------------------------------------------------------------------------------
# 11: a failing statusMessage shows the apiserver's message


def test_a_failing_status_message_shows_the_apiservers_message(samples: Path) -> None:
    suite = (samples / "widgets.crdtest.yaml").read_text()
    start = suite.index("cases:")
    (samples / "sm.crdtest.yaml").write_text(suite[:start] + """cases:
  - name: size below the minimum
    object: {apiVersion: example.com/v1, kind: Widget, metadata: {name: w}, spec: {size: 0}}
    expect: {statusMessage: ['Widget.example.com "w" is invalid: spec.size: Invalid value: 0: nope']}
""")
    code, out = invoke("sm.crdtest.yaml")
    assert code == 1
    assert ('| message: Widget.example.com "w" is invalid: spec.size: Invalid value: 0: '
            "spec.size in body should be greater than or equal to 1") in out


# ------------------------------------------------------------------------------------------------
# 05: the CRDs under test are judged first, at every release the suite runs under

WIDGET = """apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget}
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              properties:
                version:
                  type: string
                  maxLength: 64
                  x-kubernetes-validations:
                    - {rule: "%s", message: must be semver}
                size: {type: integer}
                maxSize: {type: integer}
"""

CASES = """cases:
  - name: a semver passes
    object: {apiVersion: example.com/v1, kind: Widget, metadata: {name: a}, spec: {version: "1.2.3"}}
    expect: {valid: true}
"""


def _suite(path: Path, crd: str, head: str = "") -> None:
    (path.parent / "crd.yaml").write_text(crd)
    path.write_text(f"crds: [crd.yaml]\n{head}{CASES}")


def test_a_rule_that_does_not_compile_at_one_release_of_the_matrix_fails_the_suite(samples: Path) -> None:
    # isSemver arrived in the semver library of Kubernetes 1.34 (k8s.io/apiserver pkg/cel/library/semverlib.go,
    # base.go @v0.34.0): a CRD create refuses the rule on 1.33
    _suite(samples / "s.crdtest.yaml", WIDGET % "isSemver(self)")
    code, out = invoke("--kubernetes-version", "1.37", "s.crdtest.yaml")
    assert code == 0 and out.rstrip().endswith("1 case: 1 passed, 0 failed")
    code, out = invoke("--kubernetes-version", "1.33,1.37", "s.crdtest.yaml")
    assert code == 1, out
    assert "CRD widgets.example.com (crd.yaml:1) is refused by the apiserver of Kubernetes 1.33 on create" in out
    assert "undeclared reference to 'isSemver'" in out and "1.37" not in out.split("\n")[0]
    assert out.rstrip().endswith("0 cases: 0 passed, 0 failed, 2 not run; 1 suite error")
    code, out = invoke("--kubernetes-version", "1.33,1.37", "--output", "json", "s.crdtest.yaml")
    data = json.loads(out)
    assert code == 1 and data["summary"]["passed"] == 0 and data["suiteErrors"][0]["kind"] == "crd-invalid"
    code, out = invoke("--kubernetes-version", "1.33", "--output", "junit", "s.crdtest.yaml")
    suite = ET.fromstring(out.split("\n", 1)[1]).find("testsuite")
    assert code == 1 and suite is not None and (suite.get("tests"), suite.get("failures")) == ("1", "1")


def test_a_non_structural_crd_and_a_cost_over_budget_fail_the_suite(samples: Path) -> None:
    nonstructural = WIDGET.replace("            spec:\n              type: object\n", "            spec:\n")
    _suite(samples / "s.crdtest.yaml", nonstructural % "self.size() > 0")
    code, out = invoke("s.crdtest.yaml")
    assert code == 1
    assert "spec.versions[0].schema.openAPIV3Schema.properties[spec].type: Required value: must not be empty for " \
           "specified object fields" in out
    # string(int) has no size estimate (cel-go checker/cost.go): the concatenation's cost is unbounded (the
    # messageExpression samples/widgets.crdtest.yaml had until this check found it)
    over = WIDGET.replace("{rule: \"%s\", message: must be semver}",
                          "{rule: \"true\", messageExpression: \"'v' + string(self.size())\"}")
    _suite(samples / "s.crdtest.yaml", over)
    code, out = invoke("--kubernetes-version", "1.30-1.37", "s.crdtest.yaml")
    assert code == 1
    assert ("refused by the apiserver of Kubernetes 1.30, 1.31, 1.32, 1.33, 1.34, 1.35, 1.36, 1.37 on create" in out
            and "estimated messageExpression cost exceeds budget by factor of more than 100x" in out)


# ------------------------------------------------------------------------------------------------
# 09, 12: suite checks


def test_two_crds_of_one_name_are_a_suite_error_naming_both(samples: Path) -> None:
    (samples / "crds").mkdir()
    shutil.copy(samples / "crontab-v1.yaml", samples / "crds" / "a.yaml")
    (samples / "crds" / "b.yaml").write_text("# the other one\n" + (samples / "crontab-v1.yaml").read_text())
    (samples / "dup.crdtest.yaml").write_text("""crds: [crds/, crontab-v1.yaml, crontab-v1.yaml]
cases:
  - name: which crd?
    object: {apiVersion: stable.example.com/v1, kind: CronTab, metadata: {name: a}}
    expect: {valid: true}
""")
    code, out = invoke("dup.crdtest.yaml")
    assert code == 2
    assert "two CRDs named crontabs.stable.example.com: crds/a.yaml:" in out and " and crds/b.yaml:" in out
    assert out.count("two CRDs named") == 2  # a.yaml and b.yaml, a.yaml and crontab-v1.yaml (named twice: once)
    assert out.rstrip().endswith("0 cases: 0 passed, 0 failed, 1 not run; 2 suite errors")


def test_an_empty_expectation_is_a_suite_error(samples: Path) -> None:
    (samples / "e.crdtest.yaml").write_text("""crds: [crontab-v1.yaml]
cases:
  - name: a
    object: {apiVersion: stable.example.com/v1, kind: CronTab, metadata: {name: a}}
    expect: {}
""")
    code, out = invoke("e.crdtest.yaml")
    assert code == 2
    assert "e.crdtest.yaml:5: expect: says nothing: give valid: true, valid: false, or the errors expected" in out


def test_an_object_of_a_kind_no_crd_defines_is_an_error_with_one_crd_too(samples: Path) -> None:
    (samples / "k.crdtest.yaml").write_text("""crds: [crontab-v1.yaml]
cases:
  - name: a
    object: {apiVersion: other.example.com/v1, kind: Thing, metadata: {name: a}}
    expect: {valid: true}
  - name: no kind at all
    object: {apiVersion: stable.example.com/v1, metadata: {name: a}}
    expect: {statusMessage: ["Object 'Kind' is missing"]}
""")
    code, out = invoke("k.crdtest.yaml")
    assert code == 1
    assert "no CRD of the suite defines 'Thing' of 'other.example.com/v1' (CRDs: CronTab.stable.example.com)" in out
    assert out.rstrip().endswith("2 cases: 1 passed, 0 failed, 1 error")


def test_a_suite_file_of_two_documents_is_a_suite_error(samples: Path) -> None:
    (samples / "m.crdtest.yaml").write_text("crds: [crontab-v1.yaml]\ncases: []\n---\ncrds: [crontab-v1.yaml]\ncases: []\n")
    code, out = invoke("m.crdtest.yaml")
    assert code == 2
    assert "m.crdtest.yaml:4: a suite is one YAML document; this file holds 2 (at lines 1, 4)" in out


def test_k_selecting_no_case_exits_2_with_one_line(samples: Path) -> None:
    result = CliRunner().invoke(app, ["test", "-k", "nomatch", "crontab.crdtest.yaml"])
    assert result.exit_code == 2
    assert result.output == "crdtool test: -k 'nomatch' selects none of the 6 cases\n"
