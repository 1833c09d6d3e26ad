"""Every reporter of `--output` on the golden inputs: SARIF against the OASIS schema, JUnit read back
by a real consumer (junitparser), github annotations, and the automatic choice under GitHub Actions.

The expected findings are not copied from crdtool's output: each comes from the text golden files
(reviewed against upstream messages) through `--output json`, and every other format must say the
same thing: the same documents, the same messages, at the same lines and columns.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from junitparser import Error, Failure, JUnitXml, Skipped

ROOT = Path(__file__).resolve().parents[2]
SARIF_SCHEMA = json.loads((ROOT / "tests" / "schemas" / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))

CASES = {
    "invalid-v1-and-v1beta1": ["tests/cases/crd/property-without-type.yaml", "tests/cases/crd/v1beta1-no-schema.yaml", "tests/cases/crd/unknown-field.yaml"],
    "samples": ["samples/"],
}


def crdtool(*args: str, env: dict[str, str] | None = None, cwd: Path = ROOT, stdin: str = "") -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if k not in ("GITHUB_ACTIONS", "CI")}
    base.update({"NO_COLOR": "1", "TERM": "dumb"})
    base.update(env or {})
    return subprocess.run([sys.executable, "-m", "crdtool", *args], cwd=cwd, env=base, capture_output=True,
                          text=True, timeout=120, input=stdin)


def json_documents(args: list[str]) -> list[dict[str, Any]]:
    out = crdtool("validate", *args, "--output", "json")
    return json.loads(out.stdout)["documents"]


@pytest.mark.parametrize("case", sorted(CASES))
def test_sarif_is_valid_against_the_oasis_schema_and_carries_every_error(case: str) -> None:
    out = crdtool("validate", *CASES[case], "--output", "sarif")
    assert out.returncode in (0, 1), out.stderr
    log = json.loads(out.stdout)
    jsonschema.validate(log, SARIF_SCHEMA, cls=jsonschema.Draft4Validator)
    run = log["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    # one rule per finding kind, no duplicates, each result pointing at its rule
    assert len({r["id"] for r in rules}) == len(rules)
    for result in run["results"]:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
    expected = []
    for doc in json_documents(CASES[case]):
        for e in doc["errors"]:
            expected.append((e["type"], "error", e["message"], doc["file"], e["line"], e["column"]))
        for w in doc["warnings"]:
            expected.append(("Warning", "warning", w, doc["file"], doc["line"], None))
    got = []
    for result in run["results"]:
        loc = result["locations"][0]["physicalLocation"]
        region = loc.get("region", {})
        got.append((result["ruleId"], result["level"], result["message"]["text"], loc["artifactLocation"]["uri"],
                    region.get("startLine"), region.get("startColumn")))
    assert got == expected


def test_sarif_rules_are_the_upstream_error_types() -> None:
    out = crdtool("validate", *CASES["invalid-v1-and-v1beta1"], "--output", "sarif")
    ids = [r["id"] for r in json.loads(out.stdout)["runs"][0]["tool"]["driver"]["rules"]]
    # property-without-type: Required; v1beta1-no-schema: Required + Invalid (+ the deprecation warning);
    # unknown-field: the strict decoder's finding (see tests/golden/validate/invalid-v1-and-v1beta1.txt)
    assert sorted(ids) == ["FieldValueInvalid", "FieldValueRequired", "UnknownField", "Warning"]


def test_sarif_of_an_input_error_and_an_absolute_path_is_valid(tmp_path: Path) -> None:
    bad = tmp_path / "broken file.yaml"
    bad.write_text("a: [1, 2\n")
    out = crdtool("validate", str(bad), "--output", "sarif")
    assert out.returncode == 2
    log = json.loads(out.stdout)
    jsonschema.validate(log, SARIF_SCHEMA, cls=jsonschema.Draft4Validator)
    result = log["runs"][0]["results"][0]
    assert result["ruleId"] == "InputError"
    assert result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == (
        "file://" + str(bad).replace(" ", "%20")
    )


@pytest.mark.parametrize("case", sorted(CASES))
def test_junit_is_read_back_by_junitparser(case: str, tmp_path: Path) -> None:
    out = crdtool("validate", *CASES[case], "--output", "junit")
    assert out.returncode in (0, 1), out.stderr
    report = tmp_path / "report.xml"
    report.write_text(out.stdout, encoding="utf-8")
    xml = JUnitXml.fromfile(str(report))
    cases = [c for suite in xml for c in suite]
    documents = json_documents(CASES[case])
    assert len(cases) == len(documents)
    for testcase, doc in zip(cases, documents):
        assert testcase.classname == doc["file"]
        results = testcase.result
        if doc["status"] == "valid":
            assert testcase.is_passed
        elif doc["status"] == "invalid":
            failures = [r for r in results if isinstance(r, Failure)]
            assert len(failures) == 1
            assert failures[0].message == doc["errors"][0]["message"]
            assert failures[0].type == doc["errors"][0]["type"]
            for e in doc["errors"]:  # every message is carried, with its position
                assert f"{doc['file']}:{e['line']}:{e['column']}: {e['type']}: {e['message']}" in failures[0].text
        elif doc["status"] == "skipped":
            assert isinstance(results[0], Skipped)
    suite = next(iter(xml))
    assert suite.tests == len(documents)
    assert suite.failures == sum(d["status"] == "invalid" for d in documents)


def test_junit_unreadable_input_is_an_error_and_skips_are_skipped(tmp_path: Path) -> None:
    (tmp_path / "bad.yaml").write_text("a: [1, 2\n")
    # a kind no release defines, without a CRD: skipped with --ignore-missing-crds
    (tmp_path / "cm.yaml").write_text("apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: x}\n")
    out = crdtool("validate", str(tmp_path), "--ignore-missing-crds", "--output", "junit")
    assert out.returncode == 2
    report = tmp_path / "report.xml"
    report.write_text(out.stdout, encoding="utf-8")
    cases = [c for suite in JUnitXml.fromfile(str(report)) for c in suite]
    assert [type(c.result[0]) for c in cases] == [Error, Skipped]
    assert "yaml:" in cases[0].result[0].message


def test_junit_escapes_control_characters(tmp_path: Path) -> None:
    from crdtool.cli.reporters import Case, CheckRun, Finding
    from crdtool.cli.reporters.junit import render

    run = CheckRun("validate", [Case("a\x01b", "f.yaml", 1, "failed", (Finding("X", "error", "bad \x00 value", "f.yaml", 1),))],
                   render_text=lambda: None, json_payload=lambda: None)
    report = tmp_path / "r.xml"
    report.write_text(render(run), encoding="utf-8")
    case = next(iter(next(iter(JUnitXml.fromfile(str(report))))))
    assert case.name == "a\\x01b"
    assert case.result[0].message == "bad \\x00 value"


def test_github_annotations_follow_the_actions_toolkit_escaping() -> None:
    from crdtool.cli.reporters import Finding
    from crdtool.cli.reporters.github import annotation

    # escapeData / escapeProperty of @actions/core (toolkit packages/core/src/command.ts)
    f = Finding("FieldValueInvalid", "error", "50% of\nlines", "dir/a,b:c.yaml", 3, 7)
    assert annotation(f, "validate") == (
        "::error file=dir/a%2Cb%3Ac.yaml,line=3,col=7,title=crdtool validate%3A FieldValueInvalid::50%25 of%0Alines"
    )
    assert annotation(Finding("Warning", "warning", "w", "x.yaml"), "validate") == (
        "::warning file=x.yaml,title=crdtool validate%3A Warning::w"
    )


def test_github_is_the_default_under_github_actions() -> None:
    args = CASES["invalid-v1-and-v1beta1"]
    auto = crdtool("validate", *args, env={"GITHUB_ACTIONS": "true"})
    explicit = crdtool("validate", *args, "--output", "github")
    assert auto.returncode == explicit.returncode == 1
    assert auto.stdout == explicit.stdout
    assert auto.stdout.startswith("::error file=tests/cases/crd/property-without-type.yaml,line=23,col=13,")
    # an explicit --output wins over the environment
    text = crdtool("validate", *args, "--output", "text", env={"GITHUB_ACTIONS": "true"})
    assert "::error" not in text.stdout and "3 documents: 0 valid, 3 invalid" in text.stdout
    # GITHUB_ACTIONS must be exactly "true"
    other = crdtool("validate", *args, env={"GITHUB_ACTIONS": "false"})
    assert "::error" not in other.stdout


# --- the checking modes of the other commands ---------------------------------------------------------------


def test_upgrade_check_in_every_reporter(tmp_path: Path) -> None:
    args = ["upgrade-manifest", "--to", "v1", "--check", "samples/"]
    report = json.loads(crdtool(*args, "--output", "json").stdout)
    would = [(f["file"], d["line"], d["name"]) for f in report["files"] for d in f["documents"] if d["changed"]]
    assert [w[0] for w in would] == ["samples/crontab-multiversion-v1beta1.yaml", "samples/crontab-v1beta1.yaml"]

    github = crdtool(*args, "--output", "github")
    assert github.returncode == 1
    annotations = [ln for ln in github.stdout.splitlines() if ln.startswith("::")]
    assert annotations == [
        f"::error file={file},line={line},title=crdtool upgrade-manifest%3A WouldChange::{name}: would convert "
        "apiextensions.k8s.io/v1beta1 -> apiextensions.k8s.io/v1 (crdtool upgrade-manifest --to v1 --in-place converts it)"
        for file, line, name in would
    ]
    assert github.stdout.endswith("2 of 6 files would change, 2 CRDs converted, 0 need manual fixes, 0 input errors\n")
    assert crdtool(*args, env={"GITHUB_ACTIONS": "true"}).stdout == github.stdout  # the default in Actions

    sarif = json.loads(crdtool(*args, "--output", "sarif").stdout)
    jsonschema.validate(sarif, SARIF_SCHEMA, cls=jsonschema.Draft4Validator)
    assert [(r["ruleId"], r["locations"][0]["physicalLocation"]["region"]["startLine"]) for r in sarif["runs"][0]["results"]] == [
        ("WouldChange", line) for _, line, _ in would]

    junit = tmp_path / "upgrade.xml"
    junit.write_text(crdtool(*args, "--output", "junit").stdout, encoding="utf-8")
    cases = [c for suite in JUnitXml.fromfile(str(junit)) for c in suite]
    failed = [(c.classname, c.result[0].type) for c in cases if c.result and isinstance(c.result[0], Failure)]
    assert failed == [(w[0], "WouldChange") for w in would]
    assert len(cases) == 6  # 2 CRDs to convert, 4 files with nothing to convert


def test_upgrade_manual_fixes_are_findings(tmp_path: Path) -> None:
    broken = tmp_path / "crd.yaml"
    broken.write_text(
        "apiVersion: apiextensions.k8s.io/v1beta1\nkind: CustomResourceDefinition\nmetadata:\n  name: foos.example.com\n"
        "spec:\n  group: example.com\n  version: v1\n  names: {kind: Foo, plural: foos}\n  scope: Namespaced\n"
        "  validation:\n    openAPIV3Schema:\n      type: object\n      properties:\n        spec:\n"
        "          properties:\n            size: {type: integer}\n"
    )
    out = crdtool("upgrade-manifest", "--to", "v1", "--output-file", str(tmp_path / "out.yaml"), str(broken), "--output", "sarif")
    assert out.returncode == 1, out.stderr
    results = json.loads(out.stdout)["runs"][0]["results"]
    assert {r["ruleId"] for r in results} == {"ManualFix"}
    assert all("Required value" in r["message"]["text"] for r in results)


def test_upgrade_without_check_keeps_text_under_github_actions(tmp_path: Path) -> None:
    out = crdtool("upgrade-manifest", "--to", "v1", "samples/crontab-v1beta1.yaml", env={"GITHUB_ACTIONS": "true"})
    assert out.returncode == 0
    assert "\napiVersion: apiextensions.k8s.io/v1\n" in out.stdout  # stdout carries the manifest
    assert "::" not in out.stdout
    bad = crdtool("upgrade-manifest", "--to", "v1", "samples/crontab-v1beta1.yaml", "--output", "junit")
    assert bad.returncode == 2
    assert "--output junit prints the report on stdout, where the manifests go" in bad.stderr


def test_fuzz_roundtrip_in_every_reporter(tmp_path: Path) -> None:
    args = ["fuzz-roundtrip", "samples/crontab_conversion.py:convert", "--crd", "samples/crontab-multiversion-v1.yaml",
            "--examples", "10", "--seed", "1"]
    env = {"CRDTOOL_CACHE_DIR": str(tmp_path / "cache")}
    report = json.loads(crdtool(*args, "--output", "json", env=env).stdout)
    failed = [(f["from"], f["to"], f["property"]) for f in report["failures"]]
    assert failed == [("v1", "v2", "call"), ("v2", "v1", "roundtrip")]  # as test_fuzz_cli pins for this converter

    github = crdtool(*args, "--output", "github", env=env)
    assert github.returncode == 1
    lines = github.stdout.splitlines()
    assert lines[0].startswith("::error file=samples/crontab_conversion.py,line=70,title=crdtool fuzz-roundtrip%3A fuzz-call::"
                               "v1 -> v2: call failed: convert(<stable.example.com/v1 object>, 'stable.example.com/v2') "
                               "raised ValueError: invalid spec string, needs five parts")
    assert "line 70" in report["failures"][0]["error"]  # where the converter raised
    assert lines[1].startswith("::error file=samples/crontab_conversion.py,line=")
    assert "fuzz-roundtrip::v2 -> v1: roundtrip failed: v2 -> v1 -> v2 did not return the original object" in lines[1]
    assert lines[-1] == "4 version pairs: 2 passed, 2 failed, 0 not tested"

    sarif = json.loads(crdtool(*args, "--output", "sarif", env=env).stdout)
    jsonschema.validate(sarif, SARIF_SCHEMA, cls=jsonschema.Draft4Validator)
    assert [r["ruleId"] for r in sarif["runs"][0]["results"]] == ["fuzz-call", "fuzz-roundtrip"]

    junit = tmp_path / "fuzz.xml"
    junit.write_text(crdtool(*args, "--output", "junit", env=env).stdout, encoding="utf-8")
    cases = [c for suite in JUnitXml.fromfile(str(junit)) for c in suite]
    assert [(c.name, c.is_passed) for c in cases] == [("v1 -> v1", True), ("v1 -> v2", False), ("v2 -> v1", False),
                                                       ("v2 -> v2", True)]


@pytest.mark.parametrize("color", [{"NO_COLOR": "1"}, {"FORCE_COLOR": "1", "NO_COLOR": ""}])
def test_text_report_in_blocks_is_the_line_by_line_report(capsys: pytest.CaptureFixture[str],
                                                          monkeypatch: pytest.MonkeyPatch, color: dict[str, str]) -> None:
    """``report_validate_text`` prints its lines in blocks (one ``Console.print`` each); a block of one line is
    how it printed before: the text (styles included) must not depend on the block size."""
    from crdtool.cli import report as rp

    for name, value in color.items():
        monkeypatch.setenv(name, value)
    results = [
        rp.DocumentResult(f"dir/f{i // 3}.yaml", i, 3 * i + 1, "v1", "Service", f"s[{i}]", "invalid", errors=[
            {"type": "FieldValueInvalid", "field": "spec.ports[0].port", "message": f"spec.ports[0].port: bad \\ [x] {i}",
             "line": 4, "column": 5},
            {"type": "InputError", "message": "dir/f.yaml:1:1: multi\nline"},
        ], warnings=["[w]"])
        for i in range(40)
    ] + [rp.DocumentResult("dir/ok.yaml", 0, 1, "v1", "ConfigMap", "c", "valid")]
    outputs = []
    for block in (1, 7, 512):
        monkeypatch.setattr(rp._Lines, "BLOCK", block)
        for quiet in (False, True):
            rp.report_validate_text(results, quiet=quiet)
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1] == outputs[2]
    assert "dir/f0.yaml:4:5: " in outputs[0] and "multi" in outputs[0] and "[x]" in outputs[0] and "line" in outputs[0]
