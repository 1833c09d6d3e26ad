"""``--kubernetes-version``: which apiserver judges, the matrix of several, and where the value comes from.

The example CRD uses ``isSemver``: k8s.io/apiserver ``pkg/cel/environment/base.go@v0.33.0`` introduces the semver
library at 1.33, so a 1.33 apiserver (compatibility version 1.32) rejects it in a new rule and 1.34 accepts it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

CRD = """\
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
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
              version: {type: string, maxLength: 64}
            x-kubernetes-validations:
            - rule: "isSemver(self.version)"
"""


def crdtool(*args: str, cwd: Path | None = None, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if k != "CRDTOOL_KUBERNETES_VERSION"}
    return subprocess.run([sys.executable, "-m", "crdtool", *args], capture_output=True, text=True, cwd=cwd,
                          env={**base, "NO_COLOR": "1", **(env or {})}, check=False)


@pytest.fixture()
def crd(tmp_path: Path) -> Path:
    path = tmp_path / "crd.yaml"
    path.write_text(CRD)
    return path


def test_one_release_at_a_time(crd: Path) -> None:
    assert crdtool("validate", "--kubernetes-version", "1.33", str(crd)).returncode == 1
    assert crdtool("validate", "--kubernetes-version", "1.34", str(crd)).returncode == 0
    assert crdtool("validate", str(crd)).returncode == 0  # the default: 1.37


def test_the_matrix_says_where_verdicts_differ(crd: Path) -> None:
    proc = crdtool("validate", "--kubernetes-version", "1.30-1.37", str(crd))
    assert proc.returncode == 1, proc.stderr
    assert "valid on 1.34–1.37; rejected on 1.30–1.33" in proc.stdout
    assert "undeclared reference to 'isSemver'" in proc.stdout and "(on 1.30–1.33)" in proc.stdout
    assert "Kubernetes 1.33: 0 valid, 1 invalid; Kubernetes 1.34: 1 valid, 0 invalid" in proc.stdout


def test_the_matrix_in_json(crd: Path) -> None:
    proc = crdtool("validate", "--kubernetes-version", "1.33,1.34", "--output", "json", str(crd))
    data = json.loads(proc.stdout)
    assert data["summary"]["kubernetesVersions"]["1.33"]["invalid"] == 1
    assert data["summary"]["kubernetesVersions"]["1.34"]["valid"] == 1
    (doc,) = data["documents"]
    assert doc["status"] == "invalid"
    assert {k: v["status"] for k, v in doc["kubernetesVersions"].items()} == {"1.33": "invalid", "1.34": "valid"}
    (error,) = doc["errors"]
    assert error["kubernetesVersions"] == ["1.33"] and error["type"] == "FieldValueInvalid"
    assert error["field"] == "spec.versions[0].schema.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule"


def test_the_matrix_in_sarif_names_the_releases(crd: Path) -> None:
    proc = crdtool("validate", "--kubernetes-version", "1.33-1.34", "--output", "sarif", str(crd))
    (result,) = json.loads(proc.stdout)["runs"][0]["results"]
    assert result["message"]["text"].startswith("[Kubernetes 1.33] ")


@pytest.mark.parametrize("value", ["1.29", "1.38", "2.1", "one"])
def test_an_unsupported_release_is_a_usage_error(crd: Path, value: str) -> None:
    proc = crdtool("validate", "--kubernetes-version", value, str(crd))
    assert proc.returncode == 2
    assert "crdtool knows 1.30 … 1.37" in proc.stderr


# repro 01 (issue 27): "1.34-" and "1.34-1.35-1.30" were taken as release 1.34 with a pre-release suffix.
@pytest.mark.parametrize("value", ["1.34-", "1.34-1.35-1.30"])
def test_a_malformed_range_is_a_usage_error(crd: Path, value: str) -> None:
    proc = crdtool("validate", "-q", "--kubernetes-version", value, str(crd))
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "is not a version, range or list: use a version (1.33), a range (1.30-1.37)" in proc.stderr
    assert "Traceback" not in proc.stderr


@pytest.mark.parametrize("command", [["default", "--crd", "CRD", "CRD"], ["schema", "--crd", "CRD"]])
def test_commands_that_judge_once_take_one_release(crd: Path, command: list[str]) -> None:
    args = [str(crd) if a == "CRD" else a for a in command]
    proc = crdtool(*args, "--kubernetes-version", "1.30-1.31")
    assert proc.returncode == 2 and "judges as one Kubernetes release" in proc.stderr
    assert crdtool(*args, "--kubernetes-version", "1.34").returncode == 0


def test_the_environment_variable_and_the_configuration_file(crd: Path, tmp_path: Path) -> None:
    assert crdtool("validate", str(crd), env={"CRDTOOL_KUBERNETES_VERSION": "1.33"}).returncode == 1
    (tmp_path / ".crdtool.yaml").write_text('kubernetesVersion: "1.33"\n')
    assert crdtool("validate", "crd.yaml", cwd=tmp_path).returncode == 1
    # the option wins over the environment, which wins over the file
    assert crdtool("validate", "crd.yaml", cwd=tmp_path, env={"CRDTOOL_KUBERNETES_VERSION": "1.34"}).returncode == 0
    assert crdtool("validate", "crd.yaml", "--kubernetes-version", "1.34", cwd=tmp_path,
                   env={"CRDTOOL_KUBERNETES_VERSION": "1.33"}).returncode == 0
    bad = crdtool("validate", str(crd), env={"CRDTOOL_KUBERNETES_VERSION": "1.29"})
    assert bad.returncode == 2 and "$CRDTOOL_KUBERNETES_VERSION" in bad.stderr


def test_a_bare_number_in_the_configuration_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "crd.yaml").write_text(CRD)
    (tmp_path / ".crdtool.yaml").write_text("kubernetesVersion: 1.30\n")  # YAML reads 1.30 as the float 1.3
    proc = crdtool("validate", "crd.yaml", cwd=tmp_path)
    assert proc.returncode == 2 and "must be a string" in proc.stderr


def test_diff_judges_the_update_under_each_release(crd: Path, tmp_path: Path) -> None:
    old = tmp_path / "old.yaml"
    old.write_text(CRD.replace('            x-kubernetes-validations:\n            - rule: "isSemver(self.version)"\n', ""))
    proc = crdtool("diff", "--kubernetes-version", "1.33-1.34", "--fail-on", "error", "--output", "json", str(old), str(crd))
    assert proc.returncode == 1, proc.stderr
    update = json.loads(proc.stdout)["update"]
    assert update["accepted"] is False
    assert {k: v["accepted"] for k, v in update["kubernetesVersions"].items()} == {"1.33": False, "1.34": True}
    assert crdtool("diff", "--kubernetes-version", "1.34", "--fail-on", "error", str(old), str(crd)).returncode == 0
