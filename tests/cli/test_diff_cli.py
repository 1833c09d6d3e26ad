"""``crdtool diff``: golden output, exit codes, --base with git, --objects, JSON shape, errors without tracebacks.

Golden files (``tests/golden/diff``) were reviewed by hand: every change listed is one of the
differences between ``samples/crontab-v1.yaml`` and the fixtures of ``tests/cases/diff`` (read their
header comments), every update error is upstream's (field is immutable, storedVersions), and the object
verdicts follow the apiserver's update path with validation ratcheting. Regenerate deliberately with
``CRDTOOL_REGEN_GOLDEN=1`` and review the diff.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden" / "diff"
OLD = "samples/crontab-v1.yaml"
NEW = "tests/cases/diff/crontab-new.yaml"
CLUSTER = "tests/cases/diff/crontab-cluster.yaml"
STORED = "tests/cases/diff/crontabs-stored.yaml"

CASES = {
    "crontab-update": [OLD, NEW, "--objects", STORED],
    "crontab-rejected": [OLD, CLUSTER],
}


def run(args: list[str], cwd: Path = ROOT, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    full_env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "80", "TERM": "dumb", **(env or {})}
    out = subprocess.run(
        [sys.executable, "-m", "crdtool", "diff", *args], cwd=cwd, env=full_env, capture_output=True, text=True, timeout=120
    )
    assert "Traceback" not in out.stderr and "Traceback" not in out.stdout
    return out


@pytest.mark.parametrize("output", ["text", "json"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_diff_output_matches_golden(case: str, output: str) -> None:
    extra = ["--output", "json"] if output == "json" else []
    got = run([*CASES[case], *extra]).stdout
    expected = GOLDEN / f"{case}.{'json' if output == 'json' else 'txt'}"
    if os.environ.get("CRDTOOL_REGEN_GOLDEN") == "1":
        expected.parent.mkdir(parents=True, exist_ok=True)
        expected.write_text(got, encoding="utf-8")
        pytest.skip(f"regenerated {expected.name}: review the diff before committing")
    assert got == expected.read_text(encoding="utf-8")


def test_exit_codes_follow_fail_on() -> None:
    assert run([OLD, OLD]).returncode == 0
    assert run([OLD, NEW]).returncode == 1  # breaking changes
    assert run([OLD, NEW, "--fail-on", "error"]).returncode == 0
    assert run([OLD, CLUSTER, "--fail-on", "error"]).returncode == 1  # the update is rejected
    assert run([OLD, OLD, "--fail-on", "info"]).returncode == 0
    assert run([OLD, NEW, "--objects", STORED, "--fail-on", "error"]).returncode == 0


def test_json_shape_for_one_pair() -> None:
    data = json.loads(run([OLD, CLUSTER, "--output", "json"]).stdout)
    assert set(data) == {"crd", "update", "changes", "objects"}
    assert data["update"]["accepted"] is False
    for error in data["update"]["errors"]:
        assert set(error) == {"type", "field", "detail", "message", "line", "column"}
    scope = next(e for e in data["update"]["errors"] if e["field"] == "spec.scope")
    assert (scope["type"], scope["detail"], scope["line"]) == ("FieldValueInvalid", "field is immutable", 22)
    for change in data["changes"]:
        assert set(change) == {"version", "path", "kind", "severity", "message"}


def test_objects_report() -> None:
    data = json.loads(run([OLD, NEW, "--objects", STORED, "--output", "json"]).stdout)
    by_name = {o["name"]: o for o in data["objects"]}
    assert by_name["fine"]["status"] == "ok"
    eight = by_name["eight-replicas"]
    assert eight["status"] == "tolerated" and eight["errors"] == []
    assert [e["field"] for e in eight["ratcheted"]] == ["spec.cronSpec", "spec.replicas"]
    assert eight["pruned"] == ["spec.image"]
    assert eight["ratchetedRules"] == ['spec.cronSpec: Invalid value: "@daily": macros like @daily are not supported']
    no_spec = by_name["no-spec"]
    assert no_spec["status"] == "rejected" and no_spec["errors"][0]["message"] == "spec: Required value"
    assert no_spec["line"] == 26


def test_stored_versions_option() -> None:
    out = run([OLD, NEW, "--stored-versions", "v0,v1", "--output", "json"])
    data = json.loads(out.stdout)
    assert data["update"]["accepted"] is False
    assert data["update"]["errors"][0]["field"] == "status.storedVersions[0]"
    assert run([OLD, NEW, "--stored-versions", ","]).returncode == 2


def test_usage_and_input_errors() -> None:
    out = run([OLD])
    assert out.returncode == 2 and "two manifests" in out.stderr
    out = run([OLD, "no/such/file.yaml"])
    assert out.returncode == 2 and "no/such/file.yaml: no such file or directory" in out.stderr
    out = run(["README.md", "README.md"])
    assert out.returncode == 2
    out = run(["--base", "HEAD", "-"])
    assert out.returncode == 2 and "stdin" in out.stderr


def test_yaml_syntax_error_is_an_input_error_with_a_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("apiVersion: v1\nkind: [\n", encoding="utf-8")
    out = run([OLD, str(bad)])
    assert out.returncode == 2 and f"{bad}:" in out.stderr


def test_no_colour_codes_when_not_a_terminal() -> None:
    assert "\x1b[" not in run([OLD, NEW]).stdout


def test_base_reads_the_old_version_with_git(tmp_path: Path) -> None:
    def git(*args: str) -> None:
        subprocess.run(["git", *args], cwd=tmp_path, check=True, capture_output=True,
                       env={**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
                            "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com"})

    git("init", "-q")
    (tmp_path / "deploy").mkdir()
    crd = tmp_path / "deploy" / "crontab.yaml"
    shutil.copy(ROOT / OLD, crd)
    git("add", ".")
    git("commit", "-qm", "v1")
    shutil.copy(ROOT / CLUSTER, crd)
    shutil.copy(ROOT / NEW, tmp_path / "deploy" / "other.yaml")  # not at HEAD: a new CRD
    data = json.loads(run(["--base", "HEAD", str(crd), "--output", "json"], cwd=tmp_path).stdout)
    assert data["update"]["accepted"] is False and data["crd"]["old"]["file"] == f"HEAD:{crd}"
    out = run(["--base", "HEAD", "deploy/other.yaml", "--output", "json"], cwd=tmp_path)
    assert out.returncode == 0 and json.loads(out.stdout)["changes"][0]["kind"] == "crd-added"
    out = run(["--base", "HEAD", "deploy", "--output", "json"], cwd=tmp_path)  # a directory: each file against HEAD
    assert out.returncode == 1 and len(json.loads(out.stdout)) == 2
    out = run(["--base", "no-such-ref", str(crd)], cwd=tmp_path)
    assert out.returncode == 2 and "'no-such-ref' is not a commit" in out.stderr


def test_finding_reporters() -> None:
    github = run([OLD, NEW, "--output", "github"]).stdout.splitlines()
    # each change is annotated at its schema in the new manifest: .spec.replicas -> line 33 ("replicas:")
    replicas = next(ln for ln in github if "maximum-tightened" in ln)
    assert replicas.startswith("::error file=tests/cases/diff/crontab-new.yaml,line=33,")
    assert any(ln.startswith("::notice ") and "field-added" in ln for ln in github)
    junit = run([OLD, CLUSTER, "--output", "junit"]).stdout
    assert 'tests="1" failures="1"' in junit and "field is immutable" in junit
    sarif = json.loads(run([OLD, CLUSTER, "--output", "sarif"]).stdout)
    results = sarif["runs"][0]["results"]
    assert results[0]["locations"][0]["physicalLocation"]["region"] == {"startLine": 22, "startColumn": 3}
    assert run([OLD, NEW], env={"GITHUB_ACTIONS": "true"}).stdout.startswith("::")  # the default under GitHub Actions


def test_base_in_a_repository_without_commits(tmp_path: Path) -> None:
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    shutil.copy(ROOT / OLD, tmp_path / "crd.yaml")
    (tmp_path / "other.yaml").write_text("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n")
    out = run(["--base", "HEAD", "crd.yaml", "--output", "json"], cwd=tmp_path)
    assert out.returncode == 0 and json.loads(out.stdout)["changes"][0]["kind"] == "crd-added"
    out = run(["--base", "HEAD", "other.yaml"], cwd=tmp_path)  # no CRD at all: nothing to compare, not an error
    assert out.returncode == 0 and "no CustomResourceDefinition among the files" in out.stderr
