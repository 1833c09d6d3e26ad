"""`crdtool lint`: text, json, github, sarif and junit output, --select/--ignore/--fail-on, the configuration
file's lint keys (per-file-ignores), --fix and --diff with the comment-preserving editor, and
`validate --explain-cost`.

The cases are tests/cases/lint/: `over-budget.yaml` (refused by the apiserver for its CEL cost: `crdtool
validate` says so) and `conventions.yaml` (valid, against four conventions).
"""

from __future__ import annotations

import difflib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from dataclasses import dataclass

import jsonschema
import pytest
from typer.testing import CliRunner

from crdtool.cli.app import app

from crdtool.core.crd.manifest import check_crd_manifest
from crdtool.yaml import load_path

ROOT = Path(__file__).resolve().parents[2]
CASES = ROOT / "tests" / "cases" / "lint"
SARIF_SCHEMA = json.loads((ROOT / "tests" / "schemas" / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))


@dataclass
class Run:
    returncode: int
    stdout: str
    stderr: str


def crdtool(*args: str, cwd: Path = ROOT, stdin: str = "") -> Run:
    """The command in this process (Typer's runner: fast); :func:`test_end_to_end` runs a real process."""
    previous = os.getcwd()
    os.chdir(cwd)
    try:
        result = CliRunner().invoke(app, list(args), input=stdin,
                                    env={"NO_COLOR": "1", "TERM": "dumb", "GITHUB_ACTIONS": None, "CI": None})
    finally:
        os.chdir(previous)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return Run(result.exit_code, result.stdout, result.stderr)


def test_end_to_end() -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("GITHUB_ACTIONS", "CI")}
    env.update({"NO_COLOR": "1", "TERM": "dumb"})
    out = subprocess.run([sys.executable, "-m", "crdtool", "lint", str(CASES / "conventions.yaml")], env=env,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 1 and "CRD201 warning: floating-point field" in out.stdout


@pytest.fixture(scope="module")
def lint_json() -> dict[str, Any]:
    out = crdtool("lint", "--output", "json", str(CASES))
    assert out.returncode == 1, out.stderr
    return json.loads(out.stdout)


def _codes(doc: dict[str, Any]) -> list[str]:
    return [f["code"] for f in doc["findings"]]


def test_json_findings_costs_and_positions(lint_json: dict[str, Any]) -> None:
    conventions, over = lint_json["documents"]
    assert _codes(conventions) == ["CRD201", "CRD101", "CRD301", "CRD103"]
    assert [(f["line"], f["column"]) for f in conventions["findings"]] == [(21, 17), (22, 17), (23, 13), (27, 17)]
    assert sorted(_codes(over)) == ["CRD001", "CRD003", "CRD005", "CRD005"]
    crd001 = next(f for f in over["findings"] if f["code"] == "CRD001")
    assert crd001["severity"] == "error" and crd001["name"] == "cel-rule-over-budget"
    assert (crd001["line"], crd001["column"]) == (31, 23)
    assert crd001["path"].endswith("properties[hosts].x-kubernetes-validations[0].rule")
    best = crd001["fixes"][0]["bounds"]
    assert {(b["keyword"], b["line"]) for b in best} == {("maxLength", 28), ("maxItems", 24)}
    [cost] = over["cost"]
    assert cost["kubernetesVersion"] == "1.37" and cost["ruleLimit"] == 10_000_000 and cost["crdLimit"] == 100_000_000
    [expr] = cost["schemas"][0]["expressions"]
    assert expr["estimated"] == expr["cost"] * expr["cardinality"] and expr["overLimit"]
    assert {d["keyword"] for d in expr["drivers"] if d["assumed"]} == {"maxItems", "maxLength"}
    assert lint_json["summary"] == {"documents": 2, "crds": 2, "policies": 0, "skipped": 0, "inputErrors": 0, "findings": 8,
                                    "error": 2, "warning": 6, "info": 0}


def test_the_over_budget_case_is_what_validate_refuses() -> None:
    out = crdtool("validate", str(CASES / "over-budget.yaml"))
    assert out.returncode == 1 and "estimated rule cost exceeds budget" in out.stdout


def test_text_output() -> None:
    out = crdtool("lint", str(CASES / "over-budget.yaml"))
    assert out.returncode == 1
    text = out.stdout
    assert "over-budget.yaml:31:23: CRD001 error: estimated rule cost 2,638,831,262,102" in text
    assert "assumed 1,048,575 items from the 3 MiB request limit" in text
    assert ("fix 1 (the largest common value that keeps the cost under 90% of the limit, so neither over nor near "
            "it; estimated cost then") in text
    assert "over-budget.yaml:24: maxItems:" in text
    assert text.rstrip().endswith("2 CRDs linted, 0 skipped, 0 input errors; 4 findings: 2 error, 2 warning, 0 info") \
        or text.rstrip().endswith("1 CRD linted, 0 skipped, 0 input errors; 4 findings: 2 error, 2 warning, 0 info")


def test_select_ignore_fail_on_and_exit_zero() -> None:
    conventions = str(CASES / "conventions.yaml")
    assert crdtool("lint", "--select", "CRD3", "--ignore", "CRD301", conventions).returncode == 0
    only = json.loads(crdtool("lint", "--output", "json", "--select", "CRD1,CRD201", conventions).stdout)
    assert _codes(only["documents"][0]) == ["CRD201", "CRD101", "CRD103"]
    assert crdtool("lint", "--fail-on", "error", conventions).returncode == 0
    assert crdtool("lint", "--exit-zero", conventions).returncode == 0
    bad = crdtool("lint", "--select", "CRD999", conventions)
    assert bad.returncode == 2 and "unknown lint code or prefix 'CRD999'" in bad.stderr


def test_sarif_rules_carry_the_codes_and_their_help(lint_json: dict[str, Any]) -> None:
    out = crdtool("lint", "--output", "sarif", str(CASES))
    assert out.returncode == 1
    sarif = json.loads(out.stdout)
    jsonschema.validate(sarif, SARIF_SCHEMA)
    run = sarif["runs"][0]
    rules = {r["id"]: r for r in run["tool"]["driver"]["rules"]}
    assert set(rules) == {f["code"] for d in lint_json["documents"] for f in d["findings"]}
    assert rules["CRD101"]["name"] == "list-type-missing"
    assert rules["CRD101"]["helpUri"] == "https://kubernetes.io/docs/reference/using-api/server-side-apply/#merge-strategy"
    assert "atomic under server-side apply" in rules["CRD101"]["help"]["text"]
    assert rules["CRD001"]["defaultConfiguration"]["level"] == "error"
    assert len(run["results"]) == lint_json["summary"]["findings"]


def test_github_and_junit() -> None:
    github = crdtool("lint", "--output", "github", str(CASES / "conventions.yaml")).stdout.splitlines()
    assert github[0].startswith("::warning file=") and "title=crdtool lint%3A CRD201::CRD201 floating-point field" in github[0]
    junit = crdtool("lint", "--output", "junit", str(CASES)).stdout
    assert junit.startswith('<?xml version="1.0" encoding="UTF-8"?>') and 'failures="2"' in junit


def test_configuration_file_lint_keys(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "legacy").mkdir()
    shutil.copy(CASES / "conventions.yaml", tmp_path / "legacy" / "gadgets.yaml")
    shutil.copy(CASES / "conventions.yaml", tmp_path / "gadgets.yaml")
    (tmp_path / ".crdtool.yaml").write_text(
        "lint:\n  select: [CRD1, CRD2]\n  ignore: [CRD103]\n  per-file-ignores:\n    legacy/: [CRD2]\n")
    out = json.loads(crdtool("lint", "--output", "json", ".", cwd=tmp_path).stdout)
    by_file = {d["file"]: _codes(d) for d in out["documents"]}
    assert by_file == {"./gadgets.yaml": ["CRD201", "CRD101"], "./legacy/gadgets.yaml": ["CRD101"]}
    (tmp_path / ".crdtool.yaml").write_text("lint:\n  per-file-ignores: [CRD2]\n")
    bad = crdtool("lint", ".", cwd=tmp_path)
    assert bad.returncode == 2 and "per-file-ignores: must be a table of globs to lists of codes" in bad.stderr


def test_fix_writes_the_printed_bounds_and_keeps_comments(tmp_path: Path, lint_json: dict[str, Any]) -> None:
    target = tmp_path / "crd.yaml"
    shutil.copy(CASES / "over-budget.yaml", target)
    printed = next(f for f in lint_json["documents"][1]["findings"] if f["code"] == "CRD001")["fixes"][0]["bounds"]
    diff = crdtool("lint", "--diff", str(target))
    assert diff.returncode == 1 and diff.stdout.startswith(f"--- a/{target}\n+++ b/{target}\n")
    assert target.read_text() == (CASES / "over-budget.yaml").read_text()  # --diff writes nothing
    out = crdtool("lint", "--fix", "--select", "CRD001,CRD003", str(target))
    assert out.returncode == 0, out.stdout + out.stderr
    assert "crd.yaml:24: fixed: maxItems:" in out.stderr
    text = target.read_text()
    assert "# keep this comment" in text and text.startswith("# A CRD the apiserver refuses")
    added = [line[1:].strip() for line in diff.stdout.splitlines() if line.startswith("+ ")]
    assert sorted(added) == sorted(f"{b['keyword']}: {b['value']}" for b in printed)
    [doc] = list(load_path(str(target)))
    assert check_crd_manifest(doc.data).valid
    again = crdtool("lint", "--diff", str(target))
    assert again.returncode == 0 and again.stdout == ""  # idempotent


def test_after_fix_lint_finds_nothing(tmp_path: Path) -> None:
    """Issue 27, repro 02: the bound --fix wrote was the largest under the limit (99.96% of it), and the next
    lint reported CRD002 near-budget (exit 1). Now the bounds leave 10% headroom."""
    target = tmp_path / "work.yaml"
    shutil.copy(CASES / "over-budget.yaml", target)
    fixed = crdtool("lint", "--fix", str(target))
    assert "fixed: maxItems: 1675" in fixed.stderr and "fixed: maxLength: 1675" in fixed.stderr
    again = crdtool("lint", "--output", "json", str(target))
    assert again.returncode == 0, again.stdout
    [doc] = json.loads(again.stdout)["documents"]
    assert doc["findings"] == []
    [expr] = doc["cost"][0]["schemas"][0]["expressions"]
    assert expr["estimated"] <= 9_000_000 and not expr["nearLimit"]


# issue 27, repro 10 (../shared/repros/2026-11-29/10-lint-fix-rewrites-flow-yaml-as-json/ob-flow.yaml): --fix
# rewrote this 10-line flow-style document as 56 lines of indented JSON
FLOW_CRD = """\
# my comment
{apiVersion: apiextensions.k8s.io/v1, kind: CustomResourceDefinition, metadata: {
    name: widgets.example.com}, spec: {group: example.com, names: {kind: Widget, plural: widgets},
    scope: Namespaced, versions: [{name: v1, schema: {openAPIV3Schema: {description: A
              widget., properties: {spec: {description: What the widget should be.,
                properties: {hosts: {description: Host names., items: {type: string},
                    type: array, x-kubernetes-list-type: set, x-kubernetes-validations: [
                      {message: every host must be a DNS label, rule: 'self.all(h,
                          h.matches(''^[a-z0-9]([-a-z0-9]*[a-z0-9])?$''))'}]}}, type: object}},
            type: object}}, served: true, storage: true, subresources: {status: {}}}]}}
"""


def test_fix_keeps_flow_style_yaml(tmp_path: Path) -> None:
    target = tmp_path / "work.yaml"
    target.write_text(FLOW_CRD)
    assert crdtool("lint", "--fix", str(target)).returncode == 0
    text = target.read_text()
    before, after = FLOW_CRD.splitlines(), text.splitlines()
    assert len(after) == len(before) and after[0] == "# my comment"
    changed = [(b, a) for b, a in zip(before, after) if b != a]
    assert changed == [
        (before[5], before[5].replace("items: {type: string}", "items: {type: string, maxLength: 1675}")),
        (before[8], before[8].replace("'}]}}, type: object}},", "'}], maxItems: 1675}}, type: object}},")),
    ]
    assert crdtool("lint", str(target)).returncode == 0


def test_fix_keeps_a_json_file_json_with_its_layout(tmp_path: Path) -> None:
    import yaml

    target = tmp_path / "crd.json"
    data = yaml.safe_load(FLOW_CRD)
    original = json.dumps(data, indent=4) + "\n"
    target.write_text(original)
    assert crdtool("lint", "--fix", str(target)).returncode == 0
    text = target.read_text()
    hosts = json.loads(text)["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"]["hosts"]
    assert hosts["maxItems"] == 1675 and hosts["items"]["maxLength"] == 1675
    added = [line[2:].strip() for line in difflib.ndiff(original.splitlines(), text.splitlines()) if line.startswith("+ ")]
    assert sorted(added) == ['"maxItems": 1675', '"maxLength": 1675', '"type": "string",', '],']


def test_a_crd_that_cannot_be_decoded_is_a_finding_with_file_and_line(tmp_path: Path) -> None:
    """Issue 27, repro 13: "0 findings", exit 0 on CRDs with no spec, versions a mapping, spec a list."""
    head = "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: x.example.com}\n"
    (tmp_path / "b1.yaml").write_text(head)
    (tmp_path / "b2.yaml").write_text(head + "spec: {group: example.com, names: {plural: things, kind: Thing}, "
                                      "scope: Namespaced, versions: {name: v1}}\n")
    (tmp_path / "b6.yaml").write_text(head + "spec: [1, 2]\n")
    out = crdtool("lint", "--select", "ALL", "b1.yaml", "b2.yaml", "b6.yaml", cwd=tmp_path)
    assert out.returncode == 1, out.stdout
    assert "b1.yaml:1:1: CRD900 error: the CRD has no versions" in out.stdout
    assert "b2.yaml:4:85: CRD900 error: the apiserver cannot decode this CRD (json: cannot unmarshal object" in out.stdout
    assert "b6.yaml:4:1: CRD900 error: the apiserver cannot decode this CRD (json: cannot unmarshal array" in out.stdout
    assert out.stdout.rstrip().endswith("3 findings: 3 error, 0 warning, 0 info")


# --- inline suppressions (issue 27): ``# crdtool: ignore[CODE]`` as ruff's noqa comments ------------------------

# 1700 hosts of 1700 characters, each matched against a regex: 9,268,402, within 10% of the per-rule limit (CRD002)
NEAR = """\
apiVersion: apiextensions.k8s.io/v1{first}
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  names: {{kind: Widget, plural: widgets}}
  scope: Namespaced
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
                hosts:
                  type: array
                  x-kubernetes-list-type: set
                  maxItems: 1700
                  items: {{type: string, maxLength: 1700}}
                  x-kubernetes-validations:{above}
                    - rule: "self.all(h, h.matches('^[a-z0-9]([-a-z0-9]*[a-z0-9])?$'))"{inline}
"""


def _near(tmp_path: Path, first: str = "", above: str = "", inline: str = "") -> Path:
    path = tmp_path / "near.yaml"
    path.write_text(NEAR.format(first=first, above=above, inline=inline))
    return path


def test_a_finding_without_suppression(tmp_path: Path) -> None:
    out = crdtool("lint", "--select", "CRD002", str(_near(tmp_path)))
    assert out.returncode == 1 and "near.yaml:26:23: CRD002 warning" in out.stdout


@pytest.mark.parametrize(
    ("where", "comment"),
    [("inline", "  # crdtool: ignore[CRD002]"),  # on the finding's line
     ("above", "\n                    # crdtool: ignore[crd002, CRD005]"),  # on the line above it
     ("first", "  # crdtool: ignore[CRD002]"),  # on the document's first line: the whole document
     ("inline", "  # crdtool: ignore")],  # every code
)
def test_a_suppression_silences_its_code_there(tmp_path: Path, where: str, comment: str) -> None:
    path = _near(tmp_path, **{where: comment})
    out = crdtool("lint", "--select", "CRD002,CRD901", "--output", "json", str(path))
    assert out.returncode == 0, out.stdout
    [doc] = json.loads(out.stdout)["documents"]
    assert doc["findings"] == [] and [s["code"] for s in doc["suppressed"]] == ["CRD002"]


def test_a_suppression_of_another_code_or_line_silences_nothing(tmp_path: Path) -> None:
    out = crdtool("lint", "--select", "CRD002", str(_near(tmp_path, inline="  # crdtool: ignore[CRD101]")))
    assert out.returncode == 1 and "CRD002 warning" in out.stdout
    path = tmp_path / "other.yaml"
    path.write_text(NEAR.format(first="", above="", inline="").replace(
        "                  maxItems: 1700\n", "                  maxItems: 1700  # crdtool: ignore[CRD002]\n"))
    assert crdtool("lint", "--select", "CRD002", str(path)).returncode == 1


def test_unused_suppressions_are_reported_with_their_code_selected(tmp_path: Path) -> None:
    path = _near(tmp_path, first="  # crdtool: ignore[CRD205, CRD777]",
                 above="\n                    # crdtool: ignore[CRD002]")
    text = path.read_text().replace("kind: CustomResourceDefinition",
                                    "kind: CustomResourceDefinition  # crdtool: ignore[CRD101]")
    path.write_text(text)
    quiet = crdtool("lint", "--select", "CRD002", str(path))
    assert quiet.returncode == 0, quiet.stdout  # CRD901 is not a default code, as ruff's RUF100
    out = crdtool("lint", "--select", "CRD002,CRD101,CRD901", "near.yaml", cwd=tmp_path)
    assert out.returncode == 1
    lines = [line.strip() for line in out.stdout.splitlines() if "CRD901" in line]
    assert lines == [
        "near.yaml:1:38: CRD901 warning: unused suppression: CRD777 is not a lint code (codes: CRD001 … CRD901, POL001 … POL103)",
        "near.yaml:2:33: CRD901 warning: unused suppression: no CRD101 finding on line 2 to ignore",
    ]  # CRD205 did not run: whether it is used is not known; CRD002 above the rule was used


def test_fix_cannot_rewrite_stdin() -> None:
    out = crdtool("lint", "--fix", "-", stdin=(CASES / "conventions.yaml").read_text())
    assert out.returncode == 2 and "--fix cannot rewrite stdin" in out.stderr


def test_explain_cost() -> None:
    out = crdtool("lint", "--explain-cost", "--select", "CRD2", str(CASES / "over-budget.yaml"))
    assert "CEL cost (Kubernetes 1.37), versions v1: total 2,638,831,262,102" in out.stdout
    assert "2,638,831,262,102 26388313% of the rule limit  = 2,638,831,262,102 x 1" in out.stdout


def test_validate_explain_cost_text_and_json() -> None:
    text = crdtool("validate", "--explain-cost", str(CASES / "over-budget.yaml")).stdout
    assert "invalid: CustomResourceDefinition widgets.example.com" in text
    assert "CEL cost (Kubernetes 1.37), versions v1: total 2,638,831,262,102" in text
    data = json.loads(crdtool("validate", "--explain-cost", "--output", "json", str(CASES / "over-budget.yaml")).stdout)
    [doc] = data["documents"]
    assert doc["status"] == "invalid" and doc["cost"][0]["schemas"][0]["expressions"][0]["overLimit"]
    plain = json.loads(crdtool("validate", "--output", "json", str(CASES / "over-budget.yaml")).stdout)
    assert "cost" not in plain["documents"][0]  # without the flag, validate's output is unchanged


def test_lists_of_crds_and_other_documents(tmp_path: Path) -> None:
    import yaml

    crd = yaml.safe_load((CASES / "conventions.yaml").read_text())
    path = tmp_path / "list.yaml"
    path.write_text(yaml.safe_dump({"apiVersion": "v1", "kind": "List", "items": [crd]}) + "---\n"
                    "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n")
    out = json.loads(crdtool("lint", "--output", "json", "--select", "CRD201", str(path)).stdout)
    listed, configmap = out["documents"]
    assert [f["path"] for f in listed["findings"]] == [
        "items[0].spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[ratio]"]
    assert configmap["status"] == "skipped"


def test_no_input_is_exit_2(tmp_path: Path) -> None:
    out = crdtool("lint", str(tmp_path))
    assert out.returncode == 2 and "no input files found" in out.stderr


def test_the_readme_example_is_what_lint_prints() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    command = "$ crdtool lint --select CRD001 tests/cases/lint/over-budget.yaml\n"
    start = readme.index(command) + len(command)
    shown = readme[start:readme.index("$ crdtool lint --fix", start)]
    out = crdtool("lint", "--select", "CRD001", "tests/cases/lint/over-budget.yaml")
    assert out.stdout == shown
