"""`crdtool validate` on large inputs: files read, parsed and judged in worker processes.

The parallel path (a file per task in forked workers) must give exactly what
the serial path gives: the same documents in the same order, the same
verdicts, the same positions.
"""

from __future__ import annotations

import json
import os
import pickle
from pathlib import Path

import pytest

from crdtool.cli import validate
from crdtool.cli.selection import Selection, select_files
from crdtool.yaml.loader import Document, InputError, load_documents

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"


def _snapshot(items: list[Document | InputError], verdicts: dict[int, validate.DocumentResult]) -> list[object]:
    out: list[object] = []
    for item in items:
        if isinstance(item, InputError):
            out.append(("error", item.file, item.line, item.column, item.message))
        else:
            verdict = verdicts.get(id(item))
            out.append(("doc", item.file, item.index, item.line, item.column, json.dumps(item.data, sort_keys=True),
                        tuple(item.duplicate_keys), item.warnings,
                        None if verdict is None else (verdict.status, json.dumps(verdict.errors, sort_keys=True),
                                                      tuple(verdict.warnings))))
    return out


def _load_and_judge(paths: list[str], parallel: bool, monkeypatch: pytest.MonkeyPatch,
                    skip_kinds: tuple[str, ...] = ()) -> list[object]:
    """load_and_judge with the file pool forced (two workers, whatever the machine) or kept off."""
    pools: list[int] = []
    real_pool = validate._load_and_judge_in_pool

    def pool(*args: object) -> object:
        pools.append(1)
        return real_pool(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(validate, "_file_worker_count", lambda n_files, n_bytes, jobs=None: 2 if parallel else 1)
    monkeypatch.setattr(validate, "_load_and_judge_in_pool", pool)
    selected = list(select_files(paths, (), Selection()))
    items, verdicts = validate.load_and_judge(selected, "Strict", skip_kinds)
    assert len(pools) == (1 if parallel else 0)
    return _snapshot(items, verdicts)


def test_worker_count_needs_two_files_and_enough_bytes() -> None:
    assert validate._file_worker_count(1, 1 << 30) == 1
    assert validate._file_worker_count(5, validate.PARALLEL_MIN_BYTES - 1) == 1
    cpus = len(os.sched_getaffinity(0))
    assert validate._file_worker_count(5, validate.PARALLEL_MIN_BYTES) == max(1, min(cpus, 5))  # --jobs: the cores
    assert validate._file_worker_count(5, validate.PARALLEL_MIN_BYTES, 3) == 3
    assert validate._file_worker_count(5, validate.PARALLEL_MIN_BYTES, 1) == 1  # --jobs 1: the serial path


def test_a_pickled_document_still_finds_positions() -> None:
    text = (SAMPLES / "crontab-v1.yaml").read_text()
    (doc,) = load_documents(text, "crontab-v1.yaml")
    assert isinstance(doc, Document)
    path = "spec.versions[0].schema.openAPIV3Schema.properties[spec]"
    expected = doc.position(path)
    copy = pickle.loads(pickle.dumps(doc))
    assert copy.data == doc.data and copy.position(path) == expected
    assert expected is not None and expected[0] > doc.line


