"""``crdtool lint`` of admission policy documents (issue 31): golden output (text and ``-o json``) of a bundle with
one finding of each POL code, ``--select``/``--ignore``, and the inline suppression of a POL code.

Expected findings follow upstream semantics (k8s.io/apiserver v0.34.0): a binding's ``policyName`` resolves only
to a policy of its kind (``policy/generic/policy_source.go``: bindings of unknown policies are skipped); a resource
rule matches requests for a group/resource something serves (``matching/matching.go``; the release's built-in
kinds in ``crdtool/core/builtin/data`` and the bundle's CRDs); a paramKind is looked up among objects of that kind
(``policy_dispatcher.go`` ``CollectParams``); ``PerCallLimit`` 1,000,000 and ``RuntimeCELCostBudget`` 10,000,000
(``pkg/apis/cel/config.go``). The cost numbers are the estimator's that lint uses for CRD rules
(``tests/core/lint/test_policies.py`` checks that they are the CRD rule's). Regenerate with
``CRDTOOL_REGEN_GOLDEN=1`` and review the diff.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from crdtool.cli.app import app

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "lint"


@pytest.fixture(autouse=True)
def in_golden(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(GOLDEN)


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["lint", "policy-bundle.yaml", "--kubernetes-version", "1.34", *args],
                                env={"NO_COLOR": "1", "COLUMNS": "200"})
    return result.exit_code, result.stdout


def _compare(out: str, name: str) -> None:
    expected = GOLDEN / name
    if os.environ.get("CRDTOOL_REGEN_GOLDEN") == "1":
        expected.write_text(out, encoding="utf-8")
    assert out == expected.read_text(encoding="utf-8")


def test_text_golden() -> None:
    code, out = _run()
    _compare(out, "policy-bundle.txt")
    assert code == 1


def test_json_golden_and_findings() -> None:
    code, out = _run("-o", "json")
    _compare(out, "policy-bundle.json")
    payload = json.loads(out)
    assert code == 1
    assert payload["summary"]["policies"] == 5 and payload["summary"]["crds"] == 1
    found = {(d["name"], f["code"], f["path"]) for d in payload["documents"] for f in d["findings"]}
    assert found == {
        ("unique-tag-prefixes", "POL001", "spec.validations[0].expression"),
        ("unique-tag-prefixes", "POL002", "spec"),
        ("unique-tag-prefixes", "POL102", "spec.matchConstraints.resourceRules[0].resources[1]"),
        ("unique-tag-prefixes", "POL103", "spec.paramKind"),
        ("replicas-limit-binding", "POL101", "spec.policyName"),
    }
    staged = next(d for d in payload["documents"] if d["name"] == "staged-binding")
    assert staged["findings"] == [] and [s["code"] for s in staged["suppressed"]] == ["POL101"]


def test_select_and_ignore() -> None:
    _, out = _run("-o", "json", "--select", "POL1", "--ignore", "POL103")
    codes = sorted(f["code"] for d in json.loads(out)["documents"] for f in d["findings"])
    assert codes == ["POL101", "POL102"]
    code, out = _run("-o", "json", "--select", "CRD")
    assert code == 0 and all(not d["findings"] for d in json.loads(out)["documents"])


def test_unused_suppression_of_a_policy_code(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = (GOLDEN / "policy-bundle.yaml").read_text(encoding="utf-8").replace(
        "policyName: not-yet-applied  # crdtool: ignore[POL101]", "policyName: replicas-limit  # crdtool: ignore[POL101]")
    (tmp_path / "policy-bundle.yaml").write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    _, out = _run("-o", "json", "--select", "ALL")
    staged = next(d for d in json.loads(out)["documents"] if d["name"] == "staged-binding")
    assert [(f["code"], f["message"]) for f in staged["findings"]] == [
        ("CRD901", "unused suppression: no POL101 finding on line 76 to ignore")]
