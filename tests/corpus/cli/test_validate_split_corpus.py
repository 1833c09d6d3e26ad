"""The corpus tier of ``tests/cli/test_validate_split.py`` (these tests read ``../shared``): one large file of the
corpus's custom resources judged in one pool of workers reports what one process reports, and the documents the
bundle checks do not read change none of their findings over the whole corpus."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from crdtool.cli import validate
from crdtool.core.bundle import check_bundle, select_rules, takes_part
from crdtool.yaml.loader import Document, load_path
from tests.cli.test_validate_split import _invoke

ROOT = Path(__file__).resolve().parents[3]
CORPUS = ROOT.parent / "shared" / "corpus"


def _crd_files_by_group_kind() -> dict[tuple[str, str], list[Path]]:
    out: dict[tuple[str, str], list[Path]] = {}
    for path in sorted((CORPUS / "crds").rglob("*.yaml")):
        try:
            documents = list(yaml.load_all(path.read_bytes(), Loader=yaml.CSafeLoader))
        except yaml.YAMLError:
            continue
        for doc in documents:
            spec = doc.get("spec") if isinstance(doc, dict) else None
            if isinstance(spec, dict) and isinstance(spec.get("names"), dict):
                out.setdefault((str(spec.get("group")), str(spec["names"].get("kind"))), []).append(path)
    return out


def test_the_corpus_custom_resources_in_one_file_judged_in_one_pool(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[bool] = []
    real = validate._judge_split_file

    def spy(*args: Any) -> Any:
        got = real(*args)
        if args[5] > 1:
            calls.append(got is not None)
        return got

    monkeypatch.setattr(validate, "_judge_split_file", spy)
    files = [p for p in sorted((CORPUS / "crs").glob("*.yaml")) if b"CustomResourceDefinition" not in p.read_bytes()]
    texts = [p.read_text(encoding="utf-8") for p in files]
    big = tmp_path / "crs.yaml"
    big.write_text("".join(f"---\n{text}\n" for _ in range(10) for text in texts))  # the corpus's CRs, ten times
    assert big.stat().st_size >= validate.SPLIT_MIN_BYTES
    by_gk = _crd_files_by_group_kind()
    wanted: set[Path] = set()
    for doc in yaml.load_all(big.read_bytes(), Loader=yaml.CSafeLoader):
        if isinstance(doc, dict) and isinstance(doc.get("apiVersion"), str):
            wanted.update(by_gk.get((doc["apiVersion"].rpartition("/")[0], str(doc.get("kind"))), []))
    assert len(wanted) >= 10
    crds = [arg for path in sorted(wanted) for arg in ("--crd", str(path))]
    reports = {}
    for output in ("json", "text"):
        serial = _invoke([str(big), *crds, "--output", output, "--jobs", "1"])
        parallel = _invoke([str(big), *crds, "--output", output, "--jobs", "2"])
        assert parallel == serial
        reports[output] = serial[0]
    assert calls == [True, True]
    report = json.loads(reports["json"])
    statuses = {d["status"] for d in report["documents"]}
    assert {"valid", "invalid"} <= statuses and report["summary"]["documents"] >= 10 * len(files)


def test_documents_the_bundle_checks_do_not_read_change_no_finding_over_the_corpus() -> None:
    documents = [item.data for path in sorted(CORPUS.rglob("*.yaml")) for item in load_path(str(path))
                 if isinstance(item, Document)]
    kept = [d if takes_part(d) else None for d in documents]
    assert sum(d is None for d in kept) >= 40
    everything = select_rules(["ALL"])
    for release in ("1.30", "1.37"):
        found = check_bundle(documents, release, rules=everything)
        assert found and check_bundle(kept, release, rules=everything) == found
