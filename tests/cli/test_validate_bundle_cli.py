"""``crdtool validate``'s checks across the bundle (BND001-BND008) over tests/cases/bundle/: golden output.

The bundle holds one mistake per check (a conversion webhook on the Service's default port 443 that the Service
does not expose, a webhook naming a Service that is not there, a Service selecting no pod template, a misspelt
ServiceAccount, misspelt RBAC plurals, a RoleBinding to a missing Role); each golden file was read by hand
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
    "bundle-strict-matrix.github": ([BUNDLE, "--strict", "--kubernetes-version", "1.30-1.31", "--select", "BND004,BND008",
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
    out, _ = _invoke([BUNDLE, "--strict", "--output", "json"])
    found = sorted({e["type"] for d in json.loads(out)["documents"] for e in d["errors"] if e["type"].startswith("BND")})
    assert found == ["BND001", "BND002", "BND003", "BND004", "BND007", "BND008"]


def test_ignore_all_and_unknown_code() -> None:
    out, code = _invoke([BUNDLE, "--ignore", "BND", "--strict"])
    assert code == 0 and "BND0" not in out
    _, code = _invoke([BUNDLE, "--select", "BND9"])
    assert code == 2
