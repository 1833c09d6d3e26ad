"""``crdtool test --generate --seed N``: the same suite on every run whatever the load, the trivial transition
rule gets both its cases, nothing left in the working directory, the suite written with the umask's mode
(issue 27, repros 03 and 04). Default tier: the CRD is a small one kept beside this file."""

from __future__ import annotations

import itertools
import os
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from crdtool.cli.app import app
from crdtool.loading import load_crd
from crdtool.testing.generate import generate_suite, render

CRD = Path(__file__).resolve().parent / "data" / "immutable-crd.yaml"


def _generate(tmp_path: Path) -> str:
    return render(generate_suite(load_crd(str(CRD)), str(CRD), str(tmp_path / "g.crdtest.yaml"), seed=0,
                                 max_examples=20))


def test_the_same_seed_gives_the_same_suite_on_a_slow_machine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    idle = _generate(tmp_path)
    assert "# CEL rules: 2; exercised both ways: 2" in idle
    assert "name: self == oldSelf fails" in idle and "Value is immutable" in idle
    # a machine so loaded that every look at the clock finds a second gone: no time budget may decide anything
    clock = itertools.count(start=time.monotonic(), step=1.0)
    monkeypatch.setattr(time, "monotonic", lambda: float(next(clock)))
    assert _generate(tmp_path) == idle


def test_the_command_leaves_nothing_behind_and_writes_with_the_umasks_mode(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CRDTOOL_CACHE_DIR", raising=False)
    monkeypatch.delenv("HYPOTHESIS_STORAGE_DIRECTORY", raising=False)
    before = os.umask(0o022)
    try:
        done = CliRunner().invoke(app, ["test", "--generate", str(CRD), "--seed", "3", "--output-file", "g.crdtest.yaml"])
    finally:
        os.umask(before)
    assert done.exit_code == 0, done.output
    assert "wrote g.crdtest.yaml: 4 cases for 2 CEL rules" in done.output  # the header's count: "# CEL rules: 2"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.crdtest.yaml"]
    assert (tmp_path / "g.crdtest.yaml").stat().st_mode & 0o777 == 0o644
    assert CliRunner().invoke(app, ["test", "g.crdtest.yaml"]).exit_code == 0


def test_the_written_message_counts_in_the_singular_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """One rule: "2 cases for 1 CEL rule" (it said "1 CEL rules"; repro 03's GatewayClass CRD)."""
    import yaml

    crd = yaml.safe_load(CRD.read_text())
    del crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"]["replicas"]
    (tmp_path / "one-rule.yaml").write_text(yaml.safe_dump(crd))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("CRDTOOL_CACHE_DIR", str(tmp_path / "cache"))
    done = CliRunner().invoke(app, ["test", "--generate", "one-rule.yaml", "--seed", "3", "--output-file", "g.crdtest.yaml"])
    assert done.exit_code == 0, done.output
    assert "wrote g.crdtest.yaml: 2 cases for 1 CEL rule\n" in done.output
