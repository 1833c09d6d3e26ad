"""``crdtool test``: discovery, exit codes, -k, --kubernetes-version, reporters, --coverage / --fail-under."""

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
    for name in ("crontab-v1.yaml", "crontab.crdtest.yaml", "crontab-too-many-replicas.crdtest.yaml", "widgets.crdtest.yaml"):
        shutil.copy(SAMPLES / name, tmp_path / name)
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    monkeypatch.delenv("CRDTOOL_KUBERNETES_VERSION", raising=False)
    return tmp_path


def invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["test", *args])
    return result.exit_code, result.output


def test_discovers_and_passes(samples: Path) -> None:
    code, out = invoke()
    assert code == 0, out
    assert out.rstrip().endswith("14 cases: 14 passed, 0 failed")


def test_a_failing_case_exits_1_and_explains(samples: Path) -> None:
    text = (samples / "widgets.crdtest.yaml").read_text().replace("errors: [{field: spec.class, message: class is immutable}]",
                                                                  "valid: true")
    (samples / "widgets.crdtest.yaml").write_text(text)
    code, out = invoke("widgets.crdtest.yaml")
    assert code == 1
    assert "UPDATE 'class cannot change'" in out and "spec.class: Invalid value: \"b\": class is immutable" in out
    assert "rule: self == oldSelf  (widgets.crdtest.yaml:" in out
    assert "7 cases: 6 passed, 1 failed" in out


def test_k_selects_cases(samples: Path) -> None:
    code, out = invoke("-k", "replicas and not too")
    assert code == 0 and "deselected" in out
    assert out.rstrip().endswith("11 deselected")


def test_no_suite_and_bad_options_are_usage_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert invoke()[0] == 2
    assert invoke("missing/")[0] == 2
    (tmp_path / "bad.crdtest.yaml").write_text("crds: [nope.yaml]\ncases: []\n")
    code, out = invoke()
    assert code == 2 and "nope.yaml" in out


def test_kubernetes_version_matrix(samples: Path) -> None:
    code, out = invoke("--kubernetes-version", "1.33,1.37", "--output", "json", "crontab.crdtest.yaml")
    assert code == 0
    data = json.loads(out)
    assert data["summary"]["cases"] == 12 and {c["release"] for c in data["cases"]} == {"1.33", "1.37"}
    assert invoke("--kubernetes-version", "1.20")[0] == 2


def _releases_run(*args: str) -> set[str]:
    code, out = invoke("--output", "json", *args)
    assert code == 0, out
    return {c["release"] for c in json.loads(out)["cases"]}


def test_the_environment_and_the_configuration_give_the_release_of_cases_that_name_none(
    samples: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert _releases_run("crontab.crdtest.yaml") == {"1.37"}  # the default release
    (samples / ".crdtool.yaml").write_text('kubernetesVersion: "1.31"\n')
    assert _releases_run("crontab.crdtest.yaml") == {"1.31"}
    monkeypatch.setenv("CRDTOOL_KUBERNETES_VERSION", "1.33,1.35")  # the environment before the file
    assert _releases_run("crontab.crdtest.yaml") == {"1.33", "1.35"}
    assert _releases_run("--kubernetes-version", "1.30", "crontab.crdtest.yaml") == {"1.30"}  # the option first
    suite = (samples / "crontab.crdtest.yaml").read_text()
    (samples / "crontab.crdtest.yaml").write_text('kubernetesVersions: "1.32"\n' + suite)
    assert _releases_run("crontab.crdtest.yaml") == {"1.32"}  # a suite's own releases before the environment
    monkeypatch.setenv("CRDTOOL_KUBERNETES_VERSION", "1.20")
    code, out = invoke("crontab.crdtest.yaml")
    assert code == 2 and "$CRDTOOL_KUBERNETES_VERSION" in out


def test_json_carries_errors_with_their_rules(samples: Path) -> None:
    code, out = invoke("--output", "json", "--coverage", "widgets.crdtest.yaml")
    data = json.loads(out)
    assert code == 0 and data["summary"]["passed"] == 7
    case = next(c for c in data["cases"] if c["name"] == "class cannot change")
    assert case["errors"][0]["rule"]["rule"] == "self == oldSelf" and case["errors"][0]["rule"]["line"] > 0
    assert data["coverage"]["percent"] == 100.0
    assert {i["kind"] for i in data["coverage"]["items"]} == {"rule", "minimum", "enum", "required"}


def test_fail_under(samples: Path) -> None:
    code, out = invoke("--fail-under", "100", "-k", "not size", "widgets.crdtest.yaml")
    assert code == 1
    assert "never failed" in out and "(--fail-under 100: FAILED)" in out
    assert invoke("--fail-under", "100", "widgets.crdtest.yaml")[0] == 0


def test_junit_and_github(samples: Path) -> None:
    (samples / "crontab-too-many-replicas.crdtest.yaml").write_text(
        (samples / "crontab-too-many-replicas.crdtest.yaml").read_text().replace("replicas: 12", "replicas: 2"))
    code, out = invoke("--output", "junit")
    assert code == 1
    suite = ET.fromstring(out.split("\n", 1)[1]).find("testsuite")
    assert suite is not None and (suite.get("tests"), suite.get("failures")) == ("14", "1")
    code, out = invoke("--output", "github")
    assert code == 1 and out.startswith("::error file=crontab-too-many-replicas.crdtest.yaml,line=4,")


def test_sarif_is_valid(samples: Path) -> None:
    import jsonschema

    schema = json.loads((ROOT / "tests" / "schemas" / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
    (samples / "crontab-too-many-replicas.crdtest.yaml").write_text(
        (samples / "crontab-too-many-replicas.crdtest.yaml").read_text().replace("replicas: 12", "replicas: 2"))
    code, out = invoke("--output", "sarif")
    assert code == 1
    log = json.loads(out)
    jsonschema.validate(log, schema, cls=jsonschema.Draft4Validator)
    results = log["runs"][0]["results"]
    assert [r["ruleId"] for r in results] == ["TestFailure"]
