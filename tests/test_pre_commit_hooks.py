"""The pre-commit hooks of .pre-commit-hooks.yaml, run by pre-commit itself (`pre-commit try-repo`).

pre-commit builds the hooks' Python environment from this repository (a virtualenv and `pip install`
of the checkout: PyPI is the only network it needs, and pip's cache usually answers), then runs the
hooks on a temporary git repository holding a valid and an invalid manifest. The first run pays for
the environment (a pure-Python install: about 10-20 s with a warm pip cache); each call is bounded by a timeout.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
INSTALL_TIMEOUT = 600  # seconds: building the hook environment (pip) on a cold cache
RUN_TIMEOUT = 120


def test_hooks_are_declared_as_the_readme_says() -> None:
    hooks = {h["id"]: h for h in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())}
    assert set(hooks) == {"crdtool-validate", "crdtool-upgrade-check", "crdtool-diff"}
    assert hooks["crdtool-diff"]["entry"] == "crdtool diff --base HEAD"
    assert hooks["crdtool-validate"]["entry"] == "crdtool validate"
    assert hooks["crdtool-upgrade-check"]["entry"] == "crdtool upgrade-manifest --to v1 --check"
    assert all(h["language"] == "python" and h["types_or"] == ["yaml", "json"] for h in hooks.values())
    assert hooks["crdtool-validate"]["require_serial"] is True  # CRs and their CRDs in one process
    readme = (ROOT / "README.md").read_text()
    assert "id: crdtool-validate" in readme and "id: crdtool-upgrade-check" in readme and "id: crdtool-diff" in readme


def _git(*args: str, cwd: Path) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, timeout=60)


@pytest.fixture()
def manifests(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    repo.mkdir()
    _git("init", "-q", cwd=repo)
    shutil.copy(ROOT / "samples" / "crontab-v1.yaml", repo / "valid.yaml")
    shutil.copy(ROOT / "tests" / "cases" / "crd" / "property-without-type.yaml", repo / "invalid.yaml")
    shutil.copy(ROOT / "samples" / "crontab-v1beta1.yaml", repo / "old.yaml")
    _git("add", ".", cwd=repo)
    return repo


def _try_repo(repo: Path, home: Path, *files: str, timeout: int) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("GITHUB_ACTIONS", "PRE_COMMIT_HOME")}
    env.update({
        "PRE_COMMIT_HOME": str(home),  # a fresh environment, built from this checkout
        "NO_COLOR": "1",
        "PRE_COMMIT_COLOR": "never",
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
        "VIRTUALENV_NO_PERIODIC_UPDATE": "1",
    })
    env.pop("CRDTOOL_MYPYC", None)  # the hooks install as a user's do: pure Python, in seconds
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", "try-repo", str(ROOT), "--files", *files],
        cwd=repo, env=env, capture_output=True, text=True, timeout=timeout,
    )


def test_pre_commit_try_repo_runs_both_hooks(manifests: Path, tmp_path: Path) -> None:
    home = tmp_path / "pre-commit-home"
    out = _try_repo(manifests, home, "valid.yaml", "invalid.yaml", "old.yaml", timeout=INSTALL_TIMEOUT)
    text = out.stdout + out.stderr
    assert out.returncode == 1, text
    lines = text.splitlines()
    assert any(ln.startswith("crdtool validate.") and ln.endswith("Failed") for ln in lines), text
    assert any(ln.startswith("crdtool upgrade-manifest --check.") and ln.endswith("Failed") for ln in lines), text
    # validate: the invalid CRD's upstream error with its position; the valid one passes
    assert ("invalid.yaml:23:13: spec.versions[0].schema.openAPIV3Schema.properties[spec].type: Required value: "
            "must not be empty for specified object fields") in text
    assert "valid.yaml:3: valid: CustomResourceDefinition crontabs.stable.example.com" in text
    # upgrade-check: only the v1beta1 manifest would change
    assert "old.yaml:4: crontabs.stable.example.com: would convert apiextensions.k8s.io/v1beta1 -> apiextensions.k8s.io/v1" in text
    assert "1 of 3 files would change" in text
    assert "Traceback" not in text

    # the same environment again (no rebuild), on the valid v1 manifest alone: both hooks pass
    passed = _try_repo(manifests, home, "valid.yaml", timeout=RUN_TIMEOUT)
    lines = (passed.stdout + passed.stderr).splitlines()
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert any(ln.startswith("crdtool validate.") and ln.endswith("Passed") for ln in lines)
    assert any(ln.startswith("crdtool upgrade-manifest --check.") and ln.endswith("Passed") for ln in lines)
    # diff: no commit yet, so every CRD is new (info only)
    assert any(ln.startswith("crdtool diff --base HEAD.") and ln.endswith("Passed") for ln in lines)
