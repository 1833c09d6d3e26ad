"""The corpus tier of ``tests/cli/test_validate_stream.py``'s bundle test (this test reads ``../shared``): with the
checks across the bundle, ``../shared/corpus/crds`` (13 MB, within BUNDLE_MAX_BYTES) is loaded whole, decided
before any file is planned as a stream (issue #28), with the report of planning them first."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.test_validate_stream import _with_bundle

CRDS = Path(__file__).resolve().parents[3].parent / "shared" / "corpus" / "crds"


def test_the_corpus_loaded_whole_for_the_bundle_without_planning_streams(monkeypatch: pytest.MonkeyPatch) -> None:
    assert CRDS.is_dir(), f"{CRDS} is missing: these tests need ../shared beside the checkout"
    from crdtool.cli import validate

    assert validate._loaded_whole([str(p) for p in sorted(CRDS.rglob("*.yaml"))])
    fast = _with_bundle(monkeypatch, [str(CRDS)], decided_before=True, jobs=2)
    assert fast == _with_bundle(monkeypatch, [str(CRDS)], decided_before=False, jobs=2)
    assert '"invalid": 87' in fast[1]
