"""``validate --jobs 2`` on a bundle of CRD files (issue #28, point 4: ``validate ../shared/corpus/crds``): the file
pool's workers judge the CRDs as they load them, with the cyclic collector off; the few other documents are then
judged here, not by a second pool (``_documents_in_parallel`` counts only documents that are not CRDs).
Differential: the report is the one ``--jobs 1`` gives, byte for byte.
"""

from __future__ import annotations

import contextlib
import gc
import io
from pathlib import Path

import pytest

from crdtool.cli import validate
from crdtool.cli.bundle_checks import BundleOptions
from crdtool.core.bundle import select_rules
from crdtool.yaml.loader import load_bytes

ROOT = Path(__file__).resolve().parents[2]
CRD = (ROOT / "samples" / "crontab-v1.yaml").read_text()
CR = (ROOT / "samples" / "crontab-cr-v1.yaml").read_text()


def _crd(i: int) -> str:
    """samples/crontab-v1.yaml for plural ``crontabs{i}`` (every third one with an invalid, empty version name)."""
    text = CRD.replace("crontabs.stable.example.com", f"crontabs{i}.stable.example.com")
    text = text.replace("plural: crontabs", f"plural: crontabs{i}").replace("kind: CronTab", f"kind: CronTab{i}")
    return text.replace("- name: v1", "- name: ''", 1) if i % 3 == 0 else text


def _run(paths: list[str], jobs: int) -> tuple[int, str]:
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        status = validate.run(paths, "json", jobs=jobs, bundle=BundleOptions(select_rules()))
    return status, buffer.getvalue()


def test_a_bundle_of_crds_reports_the_same_with_one_or_two_workers(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    for i in range(12):
        (tmp_path / f"crd{i:02}.yaml").write_text(_crd(i) + ("---\n" + CR.replace("kind: CronTab", "kind: CronTab1")
                                                           if i == 1 else ""))
    monkeypatch.setattr(validate, "PARALLEL_MIN_BYTES", 0)  # the file pool, as for a large bundle
    calls: list[str] = []
    real = validate._judge_entries_in_parallel
    monkeypatch.setattr(validate, "_judge_entries_in_parallel", lambda *a: calls.append("judge") or real(*a))
    status, report = _run([str(tmp_path)], 2)
    assert (status, report) == _run([str(tmp_path)], 1)
    assert status == 1 and '"status": "invalid"' in report and '"kind": "CronTab1"' in report
    assert calls == []  # 12 CRDs and one custom resource: judged here after the file pool, no second pool


def test_only_documents_that_are_not_crds_count_for_a_second_pool() -> None:
    crds = list(load_bytes(("---\n".join(_crd(i) for i in range(10))).encode(), "crds.yaml"))
    crs = list(load_bytes(("---\n".join(CR.replace("name: my-new-cron-object", f"name: c{i}") for i in range(8))).encode(),
                          "crs.yaml"))
    assert not validate._documents_in_parallel({0: list(enumerate(crds))})
    assert not validate._documents_in_parallel({0: list(enumerate(crds + crs[:7]))})
    assert validate._documents_in_parallel({0: list(enumerate(crds + crs))})


def test_file_workers_collect_cycles_rarely_but_still_collect() -> None:
    was = gc.get_threshold()
    try:
        validate._without_cyclic_gc()
        assert gc.isenabled()  # judging makes cyclic garbage: a worker given many files must still free it
        assert gc.get_threshold()[0] == 100_000
    finally:
        gc.set_threshold(*was)
