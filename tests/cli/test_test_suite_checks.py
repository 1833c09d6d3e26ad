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
