"""``crdtool validate``'s checks across the bundle (BND001-BND008) over tests/cases/bundle/: golden output.

The bundle holds one mistake per check (a conversion webhook on the Service's default port 443 that the Service
does not expose, a webhook naming a Service that is not there, a Service selecting no pod template, a misspelt
ServiceAccount, misspelt RBAC plurals, a RoleBinding to a missing Role, and DeviceTaintRules: resource.k8s.io v1alpha3 from 1.33,
k8s.io/api v0.33.0); each golden file was read by hand
against the bundle. Regenerate deliberately with ``CRDTOOL_REGEN_GOLDEN=1`` and review the diff.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from crdtool.cli.app import app

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden" / "validate"
BUNDLE = "tests/cases/bundle/"

CASES = {
    # name: (arguments, exit status)
    "bundle.txt": ([BUNDLE], 0),
    "bundle-strict.json": ([BUNDLE, "--strict", "--output", "json"], 1),
    "bundle-strict-matrix.github": ([BUNDLE, "--strict", "--kubernetes-version", "1.32-1.33", "--select", "BND004,BND008",
                                     "--output", "github"], 1),
}


def _invoke(args: list[str]) -> tuple[str, int]:
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        got = CliRunner().invoke(app, ["validate", "--jobs", "1", *args],
                                 env={"NO_COLOR": "1", "COLUMNS": "200", "TERM": "dumb", "GITHUB_ACTIONS": ""})
    finally:
        os.chdir(cwd)
    assert got.exception is None or isinstance(got.exception, SystemExit), got.exception
    return got.stdout, got.exit_code


@pytest.mark.parametrize("name", sorted(CASES))
def test_bundle_golden(name: str) -> None:
    args, status = CASES[name]
    out, code = _invoke(args)
    expected = GOLDEN / name
    if os.environ.get("CRDTOOL_REGEN_GOLDEN") == "1":
        expected.write_text(out, encoding="utf-8")
    assert out == expected.read_text(encoding="utf-8")
    assert code == status


def test_every_check_with_a_mistake_in_the_bundle_is_reported() -> None:
    out = (GOLDEN / "bundle-strict.json").read_text(encoding="utf-8")  # the golden run's own output
    found = sorted({e["type"] for d in json.loads(out)["documents"] for e in d["errors"] if e["type"].startswith("BND")})
    assert found == ["BND001", "BND002", "BND003", "BND004", "BND007", "BND008"]


def test_ignore_all_and_unknown_code() -> None:
    out, code = _invoke([BUNDLE, "--ignore", "BND", "--strict"])
    assert code == 0 and "BND0" not in out
    _, code = _invoke([BUNDLE, "--select", "BND9"])
    assert code == 2


def _stdin_run(monkeypatch: pytest.MonkeyPatch, text: str, bundle_max: int) -> tuple[int, str]:
    """``validate.run`` on stdin read as a stream (from 1 KiB), with the bundle checks, the JSON report."""
    import contextlib
    import io
    import sys

    from crdtool.cli import bundle_checks, validate
    from crdtool.core.bundle import select_rules

    with monkeypatch.context() as m:
        m.setattr(validate, "STREAM_MIN_BYTES", 1 << 10)
        m.setattr(bundle_checks, "BUNDLE_MAX_BYTES", bundle_max)
        m.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode())))
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            status = validate.run(["-"], "json", jobs=1, bundle=bundle_checks.BundleOptions(select_rules()))
    return status, out.getvalue()


_STREAMED = "".join(
    f"---\napiVersion: v1\nkind: Service\nmetadata: {{name: s{i}, namespace: ops}}\n"
    f"spec: {{selector: {{app: a{i}}}, ports: [{{port: 80}}]}}\n" for i in range(12)
) + ("---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: a0, namespace: ops}\n"
     "spec: {selector: {matchLabels: {app: a0}}, template: {metadata: {labels: {app: a0}}, "
     "spec: {containers: [{name: c, image: x}]}}}\n")


def test_stdin_that_would_stream_is_loaded_whole_for_the_bundle(monkeypatch: pytest.MonkeyPatch,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    assert len(_STREAMED) > 1 << 10
    status, out = _stdin_run(monkeypatch, _STREAMED, 1 << 20)
    docs = json.loads(out)["documents"]
    assert status == 0 and len(docs) == 13
    flagged = [d["name"] for d in docs if any(w.startswith("BND003") for w in d["warnings"])]
    assert flagged == [f"s{i}" for i in range(1, 12)]
    # over the cap: streamed, not checked, and said so
    status, out = _stdin_run(monkeypatch, _STREAMED, 1 << 10)
    assert status == 0 and not any(d["warnings"] for d in json.loads(out)["documents"])
    assert "checks across the bundle are skipped" in capsys.readouterr().err


def test_configuration_file_select_ignore_strict(tmp_path: Path) -> None:
    config = tmp_path / ".crdtool.yaml"
    # top-level select/ignore also hold lint's codes: validate takes the BND ones only
    config.write_text("select: [CRD1]\nignore: [CRD101]\nvalidate:\n  ignore: [BND001, BND002, BND003, BND007]\n"
                      "  strict: true\n")
    out, code = _invoke([BUNDLE, "--config", str(config), "--output", "json"])
    found = sorted({e["type"] for d in json.loads(out)["documents"] for e in d["errors"]})
    assert (found, code) == (["BND004", "BND008"], 1)
    out, code = _invoke([BUNDLE, "--config", str(config), "--no-strict", "--select", "BND004", "--output", "json"])
    warned = [w[:6] for d in json.loads(out)["documents"] for w in d["warnings"]]
    assert (warned, code) == (["BND004", "BND004"], 0)


def test_sarif_rule_ids_are_the_codes_with_their_descriptions() -> None:
    out, code = _invoke([BUNDLE, "--strict", "--select", "BND008", "--output", "sarif"])
    run = json.loads(out)["runs"][0]
    [rule] = run["tool"]["driver"]["rules"]
    assert code == 1 and rule["id"] == "BND008"
    assert rule["shortDescription"]["text"].startswith("role-missing: A binding whose Role or ClusterRole")
    [result] = run["results"]
    assert result["ruleId"] == "BND008" and result["locations"][0]["physicalLocation"]["region"]["startLine"] == 32


def test_inline_suppressions_as_lint_s(tmp_path: Path) -> None:
    bundle = tmp_path / "rbac.yaml"
    bundle.write_text(
        "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: a}\nrules:\n"
        "- apiGroups: [apps]\n  resources: [deployment]  # crdtool: ignore[BND004]\n  verbs: [get]\n"
        "- apiGroups: [apps]\n  # crdtool: ignore[BND004]\n  resources: [statefulset]\n  verbs: [get]\n"
        "- apiGroups: [apps]\n  resources: [daemonset]  # crdtool: ignore[BND008]\n  verbs: [get]\n"
        "---\n# crdtool: ignore[BND004]\napiVersion: rbac.authorization.k8s.io/v1\nkind: Role\n"
        "metadata: {name: b, namespace: ops}\nrules:\n- {apiGroups: [''], resources: [pod], verbs: [get]}\n"
    )
    out, code = _invoke([str(bundle), "--strict", "--output", "json"])
    errors = [(d["name"], e["field"]) for d in json.loads(out)["documents"] for e in d["errors"]]
    assert (errors, code) == ([("a", "rules[2].resources[0]")], 1)
