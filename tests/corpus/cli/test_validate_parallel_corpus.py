"""The corpus tier of ``tests/cli/test_validate_parallel.py`` (these tests read ``../shared``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from crdtool.cli import validate
from tests.cli.test_validate_parallel import ROOT, SAMPLES, _load_and_judge

CORPUS = ROOT.parent / "shared" / "corpus"


def test_parallel_and_serial_loading_agree_on_the_corpus(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x\n")
    paths = [str(CORPUS / "crds" / "v1beta1"), str(CORPUS / "crs"), str(tmp_path / "missing.yaml"), str(broken)]
    serial = _load_and_judge(paths, False, monkeypatch)
    parallel = _load_and_judge(paths, True, monkeypatch)
    assert parallel == serial
    kinds = [entry[0] for entry in serial]
    assert kinds.count("error") == 2  # the missing file and the broken one, in place
    judged = [entry for entry in serial if entry[0] == "doc" and entry[-1] is not None]
    statuses = {entry[-1][0] for entry in judged}  # type: ignore[index]
    assert statuses == {"valid", "invalid"} and len(judged) >= 37


def test_skipped_kinds_are_not_judged_in_the_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    paths = [str(CORPUS / "crds" / "v1beta1")]
    parallel = _load_and_judge(paths, True, monkeypatch, skip_kinds=("CustomResourceDefinition",))
    assert parallel and all(entry[-1] is None for entry in parallel if entry[0] == "doc")


def test_cli_with_stdin_among_large_inputs_keeps_the_order() -> None:
    """Files in the workers, stdin read by the parent: the report keeps the command line's order."""
    big = CORPUS / "crds" / "v1"
    assert sum(p.stat().st_size for p in big.iterdir()) >= validate.PARALLEL_MIN_BYTES
    crd = (SAMPLES / "crontab-v1.yaml").read_text()
    env = {**os.environ, "NO_COLOR": "1", "TERM": "dumb"}
    env.pop("GITHUB_ACTIONS", None)
    env.pop("CI", None)
    out = subprocess.run(
        [sys.executable, "-m", "crdtool", "validate", "-", str(big), "--output", "json"],
        input=crd,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        cwd=ROOT,
    )
    assert out.returncode == 1, out.stderr  # the v1 corpus holds invalid CRDs
    report = json.loads(out.stdout)
    documents = report["documents"]
    assert documents[0]["file"] == "<stdin>" and documents[0]["status"] == "valid"
    files = [d["file"] for d in documents[1:]]
    assert files == sorted(files) and all(f.startswith(str(big)) for f in files)
    assert len(files) >= 44
