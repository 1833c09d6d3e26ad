"""The pytest plugin collects the sample suites under samples/ as test items (through its entry point)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from importlib.metadata import entry_points
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def pytest_run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-o", "addopts=", *args],
                          cwd=cwd, capture_output=True, text=True, timeout=300)


def test_the_entry_point_is_declared() -> None:
    plugins = {ep.name: ep.value for ep in entry_points(group="pytest11")}
    assert plugins.get("crdtool") == "crdtool.testing.pytest_plugin"


def test_pytest_runs_the_sample_suites() -> None:
    done = pytest_run("-v", "samples/", cwd=ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "samples/widgets.crdtest.yaml::class cannot change PASSED" in done.stdout
    assert "samples/crontab-too-many-replicas.crdtest.yaml::crontab-too-many-replicas.crdtest.yaml PASSED" in done.stdout
    assert "14 passed" in done.stdout


def test_a_failing_case_and_a_broken_suite_fail(tmp_path: Path) -> None:
    shutil.copy(ROOT / "samples" / "widgets.crdtest.yaml", tmp_path / "widgets.crdtest.yaml")
    text = (tmp_path / "widgets.crdtest.yaml").read_text().replace("message: class is immutable}]", "message: nope}]")
    (tmp_path / "widgets.crdtest.yaml").write_text(text)
    (tmp_path / "broken.crdtest.yaml").write_text("crds: [absent.yaml]\ncases: []\n")
    # a CRD the apiserver refuses (string(int) concatenated: no size estimate, cost over budget): one suite
    # failure with its errors, none of its cases collected
    refused = (ROOT / "samples" / "widgets.crdtest.yaml").read_text().replace(
        "messageExpression: \"'size %d exceeds maxSize %d'.format([self.size, self.maxSize])\"",
        "messageExpression: \"'size ' + string(self.size)\"")
    (tmp_path / "refused.crdtest.yaml").write_text(refused)
    done = pytest_run("-k", "class or suite", "--crdtest-kubernetes-version", "1.35-1.36", str(tmp_path), cwd=tmp_path)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "widgets.crdtest.yaml::class cannot change[1.35]" in done.stdout
    assert "expected error not reported: spec.class 'nope'" in done.stdout
    assert "absent.yaml" in done.stdout
    assert "refused by the apiserver of Kubernetes 1.35, 1.36 on create" in done.stdout
    assert "refused.crdtest.yaml::class" not in done.stdout
    assert "4 failed" in done.stdout
