"""The corpus tier of ``tests/cli/test_upgrade_cli.py`` (these tests read ``../shared``)."""

from __future__ import annotations

import glob
import os
from pathlib import Path

import pytest

from tests.cli.test_upgrade_cli import V1, V1BETA1, assert_converts_exactly, convert_file

CORPUS = Path(__file__).resolve().parents[3].parent / "shared" / "corpus" / "crds"


V1BETA1_CORPUS = sorted(glob.glob(str(CORPUS / "v1beta1" / "*.y*ml")))


V1_CORPUS = sorted(glob.glob(str(CORPUS / "v1" / "*.y*ml")))


@pytest.mark.skipif(not V1BETA1_CORPUS, reason="no corpus")
@pytest.mark.parametrize("path", V1BETA1_CORPUS, ids=lambda p: Path(p).name)
def test_every_v1beta1_corpus_file_upgrades_to_exactly_upgrade_crds_result(path: str) -> None:
    result = convert_file(path, V1, fix=False)
    assert result.documents, "every v1beta1 corpus file holds a v1beta1 CRD"
    assert {d.layout for d in result.documents} <= {"patched", "expanded"}  # never regenerated
    assert len(assert_converts_exactly(result.original, result.output, V1)) == len(result.documents)


@pytest.mark.skipif(not V1_CORPUS, reason="no corpus")
@pytest.mark.parametrize("path", V1_CORPUS, ids=lambda p: Path(p).name)
def test_every_v1_corpus_file_downgrades_to_exactly_upgrade_crds_result(path: str) -> None:
    result = convert_file(path, V1BETA1, fix=False)
    assert {d.layout for d in result.documents} <= {"patched", "expanded"}
    assert len(assert_converts_exactly(result.original, result.output, V1BETA1)) == len(result.documents)


@pytest.mark.skipif(not V1BETA1_CORPUS, reason="no corpus")
def test_fix_on_the_largest_v1beta1_files() -> None:
    for path in sorted(V1BETA1_CORPUS, key=os.path.getsize)[-3:]:
        result = convert_file(path, V1, fix=True)
        assert {d.layout for d in result.documents} <= {"patched", "expanded"}
        assert assert_converts_exactly(result.original, result.output, V1, fix=True)
