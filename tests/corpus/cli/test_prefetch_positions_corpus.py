"""The corpus tier of ``tests/cli/test_prefetch_positions.py`` (these tests read ``../shared``)."""

from __future__ import annotations

import random
from pathlib import Path

from crdtool.cli.inputs import load_inputs
from crdtool.cli.validate import judge_document
from crdtool.yaml.loader import Document
from tests.cli.test_prefetch_positions import _assert_agree, _fresh, _paths_in

SHARED = Path(__file__).resolve().parents[3].parent / "shared"


CORPUS = SHARED / "corpus"


def _corpus_files() -> list[Path]:
    files = [p for p in sorted(CORPUS.rglob("*")) if p.suffix in (".yaml", ".yml", ".json")]
    assert len(files) > 100
    return files


def test_corpus_error_paths_agree() -> None:
    """Every error position of `validate` on the corpus CRDs, prefetched and re-parsed."""
    checked = 0
    for doc in load_inputs([str(p) for p in _corpus_files() if "crds" in p.parts]):
        if not isinstance(doc, Document) or doc.duplicate_keys:
            continue
        result = judge_document(_fresh(doc))
        paths = [e["field"] for e in result.errors if e.get("field") and e["field"] != "<nil>"]
        if paths:
            checked += _assert_agree(doc, paths)
    assert checked > 500


def test_corpus_sampled_paths_agree() -> None:
    rng = random.Random(9)
    checked = 0
    for doc in load_inputs([str(p) for p in _corpus_files()]):
        if isinstance(doc, Document) and not doc.duplicate_keys:
            checked += _assert_agree(doc, _paths_in(doc.data, rng, 40))
    assert checked > 5000
