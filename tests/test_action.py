"""The GitHub Action (``action.yml``, issue 27 "Conventions"): its shape, and its run step (``action/run.sh``) run
here as the runner would run it, with the inputs as ``INPUT_*`` variables and crdtool on ``PATH``."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "action" / "run.sh"
CRONTAB = ROOT / "samples" / "crontab-v1.yaml"
OVER_BUDGET = ROOT / "tests" / "cases" / "lint" / "over-budget.yaml"
BAD_CR = "apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: bad}\nspec: {replicas: 11}\n"


def run_step(cwd: Path, **inputs: str) -> subprocess.CompletedProcess[str]:
    crdtool = shutil.which("crdtool", path=str(Path(sys.executable).parent)) or shutil.which("crdtool")
    assert crdtool, "crdtool is not installed beside this Python"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("INPUT_", "CRDTOOL_"))}
    env["PATH"] = f"{Path(crdtool).parent}{os.pathsep}{env.get('PATH', '')}"
    env.update({"NO_COLOR": "1", "GITHUB_ACTIONS": "true"})
    env.update({f"INPUT_{k.upper()}": v for k, v in inputs.items()})
    return subprocess.run(["bash", str(SCRIPT)], cwd=cwd, env=env, capture_output=True, text=True, timeout=300,
                          check=False)


def test_the_action_is_composite_and_passes_inputs_through_the_environment() -> None:
    action = yaml.safe_load((ROOT / "action.yml").read_text())
    assert action["runs"]["using"] == "composite"
    assert set(action["inputs"]) == {"command", "paths", "kubernetes-version", "crd", "fail-on", "args",
                                     "python-version", "crdtool-version"}
    steps = action["runs"]["steps"]
    assert steps[0]["uses"].startswith("actions/setup-python@")
    last = steps[-1]
    assert last["run"] == 'bash "${{ github.action_path }}/action/run.sh"'
    assert {f"INPUT_{name.upper().replace('-', '_')}" for name in ("command", "paths", "kubernetes-version", "crd",
                                                                   "fail-on", "args")} == set(last["env"])
    for step in steps:  # an input pasted into a script would be shell code
        assert not re.search(r"\$\{\{\s*inputs\.", step.get("run", "")), step


def test_validate_with_the_crd_catalog_annotates_and_fails(tmp_path: Path) -> None:
    (tmp_path / "crds").mkdir()
    shutil.copy(CRONTAB, tmp_path / "crds" / "crontab.yaml")
    (tmp_path / "deploy").mkdir()
    (tmp_path / "deploy" / "bad.yaml").write_text(BAD_CR)
    out = run_step(tmp_path, command="validate", paths="deploy/\n", crd="crds/", kubernetes_version="1.36-1.37")
    assert out.returncode == 1, out.stdout + out.stderr
    assert out.stdout.startswith("crdtool validate --output github --kubernetes-version 1.36-1.37 --crd crds/ deploy/\n")
    assert "::error file=deploy/bad.yaml,line=4," in out.stdout and "less than or equal to 10" in out.stdout
    never = run_step(tmp_path, paths="deploy", crd="crds", fail_on="never")
    assert never.returncode == 0 and "::error file=deploy/bad.yaml" in never.stdout


def test_lint_with_fail_on(tmp_path: Path) -> None:
    shutil.copy(OVER_BUDGET, tmp_path / "crd.yaml")
    out = run_step(tmp_path, command="lint", paths="crd.yaml", fail_on="error", args="--select CRD005")
    assert out.returncode == 0, out.stdout  # CRD005 is a warning
    assert "::warning file=crd.yaml," in out.stdout and "--fail-on error --select CRD005 crd.yaml" in out.stdout


@pytest.mark.parametrize(("inputs", "message"), [
    ({"command": "apply"}, "command must be validate, test or lint"),
    ({"command": "lint", "crd": "crds/"}, "the crd input is for validate"),
    ({"fail_on": "sometimes"}, "fail-on must be error, warning, info or never"),
    ({"command": "validate", "fail_on": "warning"}, "fail-on warning is for lint"),
])
def test_bad_inputs_are_usage_errors(tmp_path: Path, inputs: dict[str, str], message: str) -> None:
    out = run_step(tmp_path, **inputs)
    assert out.returncode == 2 and message in out.stdout
