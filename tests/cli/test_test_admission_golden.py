"""``crdtool test`` with admission cases (issue 31): golden output of a passing suite (text with ``--coverage``,
``-o json``), of a failing one, and the file ``--update`` writes.

The expected answers follow k8s.io/apiserver v0.34.0: ``validating/dispatcher.go`` (``ValidatingAdmissionPolicy
'<p>' with binding '<b>' denied request: <message>`` inside ``admission.NewForbidden``'s ``<resource>.<group>
"<name>" is forbidden: ...``; the code of the validation's ``reason``: Forbidden 403, the default Invalid 422;
``Validation failed for ValidatingAdmissionPolicy '<p>' with binding '<b>': <message>`` warnings for ``Warn``;
audit annotations keyed ``<policy>/<key>``); ``webhook/matchconditions/matcher.go`` (a false matchCondition: the
policy does not apply); ``mutating/dispatcher.go`` with ``patch/json_patch.go`` (the JSONPatch ``add`` of
``metadata.annotations``). The verdicts are the chain's (:func:`crdtool.core.admission.chain.admit`), the one
``crdtool admit`` runs. Regenerate with ``CRDTOOL_REGEN_GOLDEN=1`` and review the diff.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from crdtool.cli.app import app

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "test"


def _regen() -> bool:
    return os.environ.get("CRDTOOL_REGEN_GOLDEN") == "1"


def _compare(out: str, name: str) -> None:
    expected = GOLDEN / name
    if _regen():
        expected.write_text(out, encoding="utf-8")
    assert out == expected.read_text(encoding="utf-8")


@pytest.fixture()
def in_golden(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(GOLDEN)
    monkeypatch.delenv("CRDTOOL_KUBERNETES_VERSION", raising=False)


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, ["test", *args], env={"NO_COLOR": "1"})
    return result.exit_code, result.stdout, result.stderr


def test_policy_suite_passes_with_every_expression_covered(in_golden: None) -> None:
    code, out, _ = _run("policies.crdtest.yaml", "--coverage", "--jobs", "1")
    _compare(out, "policies.txt")
    assert code == 0
    assert "total: 6/6 covered, 100.0%" in out


def test_policy_suite_json(in_golden: None) -> None:
    code, out, _ = _run("policies.crdtest.yaml", "--coverage", "-o", "json", "--jobs", "1")
    _compare(out, "policies.json")
    payload = json.loads(out)
    assert code == 0
    denied = next(c for c in payload["cases"] if c["name"] == "over the limit")
    assert denied["admission"]["code"] == 403 and denied["admission"]["reason"] == "Forbidden"
    assert {i["kind"] for i in payload["coverage"]["items"]} == {"validation", "matchCondition", "mutation"}


def test_policy_suite_failures_explained(in_golden: None) -> None:
    code, out, _ = _run("policies-fail.crdtest.yaml", "--jobs", "1")
    _compare(out, "policies-fail.txt")
    assert code == 1
    assert "4 cases: 1 passed, 3 failed" in out


def test_expression_never_evaluated_is_not_covered(in_golden: None) -> None:
    # only the exempt widget: widget-replicas' matchCondition is false, so its validations are never evaluated;
    # widget-owner's matchCondition is false too (an owner is set), its mutation never evaluated
    code, out, _ = _run("policies.crdtest.yaml", "--coverage", "-k", "exempt", "--jobs", "1")
    assert code == 0
    assert "ValidatingAdmissionPolicy widget-replicas (_policy-bundle.yaml): expressions 1/3 (33%)" in out
    assert "MutatingAdmissionPolicy widget-owner (_policy-bundle.yaml): expressions 1/2 (50%)" in out
    assert ("_policy-bundle.yaml:49: validation: object.spec.replicas <= int(params.data.max) (never evaluated)"
            in out)
    assert "total: 3/6 covered, 50.0%" in out


def test_update_writes_the_chains_answers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("policies-fail.crdtest.yaml", "_policy-bundle.yaml"):
        shutil.copy(GOLDEN / name, tmp_path / name)
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CRDTOOL_KUBERNETES_VERSION", raising=False)
    code, _, err = _run("--update", "policies-fail.crdtest.yaml", "--jobs", "1")
    assert code == 0, err
    assert "--update: 3 cases updated, 0 not" in err
    _compare((tmp_path / "policies-fail.crdtest.yaml").read_text(encoding="utf-8"), "policies-fail.updated.yaml")
    code, out, _ = _run("policies-fail.crdtest.yaml", "--jobs", "1")
    assert code == 0 and out.rstrip().endswith("4 cases: 4 passed, 0 failed")
