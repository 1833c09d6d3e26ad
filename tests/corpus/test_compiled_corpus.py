"""The corpus tier of ``tests/test_compiled.py`` (these tests read ``../shared``)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_compiled import COMPILED_ONLY, ROOT, _built, _env

SHARED = ROOT.parent / "shared"


#: Inputs of the differential test: the shared corpora, and the repository's own cases (present in any checkout).
DIFFERENTIAL_INPUTS = {
    "corpus": ([SHARED / "corpus"], 100_000),
    "corpus-outside": ([SHARED / "corpus-outside"], 100_000),
    "repository-cases": ([ROOT / "tests" / "cases", ROOT / "samples"], 10_000),
}


@pytest.mark.parametrize("inputs", sorted(DIFFERENTIAL_INPUTS))
def test_compiled_and_source_give_identical_reports(inputs: str, tmp_path: Path) -> None:
    if not _built():
        pytest.skip(COMPILED_ONLY)
    paths, minimum = DIFFERENTIAL_INPUTS[inputs]
    if not all(p.exists() for p in paths):
        pytest.fail(f"{inputs}: {', '.join(str(p) for p in paths if not p.exists())} missing")
    # run outside the checkout: `python -m` would otherwise import the source tree beside the tests
    cmd = [sys.executable, "-m", "crdtool", "validate", *map(str, paths), "--output", "json"]
    fast = subprocess.run(cmd, env=_env(), capture_output=True, cwd=tmp_path, check=False)
    exact = subprocess.run(cmd, env=_env(CRDTOOL_PURE_PYTHON="1"), capture_output=True, cwd=tmp_path, check=False)
    assert fast.returncode == exact.returncode == 1, fast.stderr  # the inputs hold invalid manifests on purpose
    assert len(exact.stdout) > minimum
    assert fast.stdout == exact.stdout
