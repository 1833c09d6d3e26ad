"""``validate --jobs 2`` on inputs loaded whole (the bundle checks, the default): a large file's documents
loaded by the workers (``_load_split``), then judged by them a run of documents per task
(``_judge_entries_in_parallel``). Differential: each parallel path must give exactly what the serial one gives
(the documents, their numbering, positions and Helm hints; the report, byte for byte).
"""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path
from typing import Any

import pytest

from crdtool.cli import validate
from crdtool.cli.bundle_checks import BundleOptions
from crdtool.cli.selection import load_selected_file
from crdtool.core.bundle import select_rules
from crdtool.yaml.loader import Document, InputError, load_bytes
from crdtool.yaml.stream import load_chunk, split_file

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"


def _cronjob(name: str, replicas: Any) -> str:
    """A CronTab of samples/crontab-v1.yaml: valid with 1 to 10 replicas (its openAPIV3Schema's bounds)."""
    return (f"apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: {name}\nspec:\n"
            f"  cronSpec: '* * * * */5'\n  image: img\n  replicas: {json.dumps(replicas)}\n")


#: Every kind of chunk the loader meets: comments before the first separator, an invalid separator, empty and
#: null documents, a root that is not a mapping, a parse error on a Helm template line, duplicate keys, an
#: alias, a List, a ConfigMap, a Service selecting nothing (a bundle finding), CRLF line ends.
_TRICKY = (
    "# leading comment\n---\n" + _cronjob("a", 1)
    + "--- not a separator\n" + _cronjob("b", "many")
    + "---\n\n---\nnull\n---\n- a list root\n"
    + "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm, name: twice}\ndata: &d {k: v}\n"
    + "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Values.name }}\n"
    + "---\napiVersion: v1\nkind: List\nitems:\n- " + _cronjob("l1", 2).replace("\n", "\n  ").rstrip()
    + "\n- " + _cronjob("l2", 99).replace("\n", "\n  ").rstrip() + "\n"
    + "---\r\napiVersion: v1\r\nkind: Service\r\nmetadata: {name: svc}\r\nspec:\r\n  selector: {app: nothing}\r\n"
    + "  ports: [{port: 80}]\r\n"
)


def _snapshot(items: list[Document | InputError]) -> list[object]:
    out: list[object] = []
    for item in items:
        if isinstance(item, InputError):
            out.append(("error", item.file, item.line, item.column, item.message, item.index))
        else:
            out.append(("doc", item.file, item.index, item.line, item.column, json.dumps(item.data, sort_keys=True),
                        tuple(item.duplicate_keys), item.warnings, item.position(""), item.position("metadata.name"),
                        item.source_text()))
    return out


@pytest.mark.parametrize("bom", [b"", b"\xef\xbb\xbf"])
def test_split_chunks_load_as_the_file_loads(bom: bytes) -> None:
    raw = bom + _TRICKY.encode()
    chunks = split_file(raw)
    assert chunks is not None
    got: list[Document | InputError] = []
    index = 0
    for chunk in chunks:
        loaded = load_chunk(chunk, "f.yaml")
        item = loaded.item
        if loaded.takes_index:
            item = _renumbered(item, index)
            index += 1
        if item is not None:
            got.append(item)
    expected = list(load_bytes(raw, "f.yaml"))
    assert _snapshot(got) == _snapshot(expected)
    assert sum(isinstance(i, InputError) for i in expected) == 3 and sum(isinstance(i, Document) for i in expected) == 5


def _renumbered(item: Any, index: int) -> Any:
    from dataclasses import replace

    return replace(item, index=index)


@pytest.mark.parametrize("raw", [b'{"kind": "ConfigMap"}\n', b"\xff\xfe" + "a: 1\n".encode("utf-16-le"), b"  \n"])
def test_split_file_leaves_json_utf16_and_blank_files_to_the_loader(raw: bytes) -> None:
    assert split_file(raw) is None


def test_a_large_file_loaded_by_two_workers_is_the_file_loaded_here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "big.yaml"
    path.write_text(_TRICKY + "".join(f"---\n{_cronjob(f'c{i}', i % 12)}" for i in range(300)))
    monkeypatch.setattr(validate, "SPLIT_MIN_BYTES", 0)
    monkeypatch.setattr(validate, "SPLIT_TASK_BYTES", 2 << 10)  # many tasks
    split = validate._load_split(str(path), 2)
    assert split is not None
    whole = load_selected_file(str(path))
    assert _snapshot(split) == _snapshot(whole)
    assert any(isinstance(i, InputError) and "helm" in i.message.lower() for i in whole)  # the hint given once
    assert validate._load_split(str(path), 1) is None  # --jobs 1: loaded here
    assert validate._load_split("-", 2) is None  # stdin: read by the loader


def _run(paths: list[str], jobs: int, **kw: Any) -> tuple[int, str]:
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        status = validate.run(paths, "json", jobs=jobs, bundle=BundleOptions(select_rules()), **kw)
    return status, buffer.getvalue()


def test_validate_reports_the_same_with_one_or_two_workers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """One multi-document file (custom resources valid and not, a List, input errors, a bundle finding) against
    a --crd that is itself invalid (its warning is settled by the parent while the workers judge)."""
    crd = (SAMPLES / "crontab-v1.yaml").read_text().replace(
        "      served: true", "      served: true\n      additionalPrinterColumns:\n      - {name: Spec, type: string, jsonPath: spec}", 1)
    invalid_crd = tmp_path / "crd.yaml"
    invalid_crd.write_text(crd)
    path = tmp_path / "objects.yaml"
    deployment = ("---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  selector: {matchLabels: "
                  "{app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec: {containers: [{name: c, "
                  "image: img}]}\n")  # a workload: the Service selecting nothing is BND003
    path.write_text(_TRICKY + deployment + "".join(f"---\n{_cronjob(f'c{i}', i % 12)}" for i in range(120)))
    calls: list[str] = []
    real_split, real_judge = validate._load_split, validate._judge_entries_in_parallel
    monkeypatch.setattr(validate, "_load_split", lambda *a: calls.append("load") or real_split(*a))
    monkeypatch.setattr(validate, "_judge_entries_in_parallel", lambda *a: calls.append("judge") or real_judge(*a))
    # the path of files with CRDs, or of several files (one without is judged in one pool: test_validate_split.py)
    monkeypatch.setattr(validate, "_judge_split_file", lambda *a: None)
    monkeypatch.setattr(validate, "SPLIT_MIN_BYTES", 0)
    monkeypatch.setattr(validate, "SPLIT_TASK_BYTES", 2 << 10)
    monkeypatch.setattr(validate, "DOCUMENTS_PER_TASK", 7)
    serial = _run([str(path)], 1, crd_paths=[str(invalid_crd)])
    calls.clear()
    parallel = _run([str(path)], 2, crd_paths=[str(invalid_crd)])
    assert calls == ["load", "judge"]  # both parallel paths taken
    assert serial == parallel
    report = json.loads(serial[1])
    crontabs = [d for d in report["documents"] if d.get("kind") == "CronTab"]
    assert len(crontabs) == 122 and all(any("is itself invalid" in w for w in d["warnings"]) for d in crontabs)
    assert any(any(w.startswith("BND") for w in d["warnings"]) for d in report["documents"] if d.get("kind") == "Service")
    assert report["summary"]["errors"] == 3 and report["summary"]["invalid"] > 0


def test_no_worker_processes_means_the_file_is_loaded_here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from crdtool.cli import jobs

    def no_fork(*args: Any, **kw: Any) -> Any:
        raise OSError(11, "Resource temporarily unavailable")

    path = tmp_path / "big.yaml"
    path.write_text(_TRICKY)
    monkeypatch.setattr(validate, "SPLIT_MIN_BYTES", 0)
    monkeypatch.setattr(jobs, "ordered_map", no_fork)
    assert validate._load_split(str(path), 2) is None  # _load_entries then calls load_selected_file


def test_a_file_of_few_documents_is_loaded_here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A big List is one document: one worker would load it all and send it back; it is loaded here."""
    path = tmp_path / "list.yaml"
    items = "".join("- " + _cronjob(f"c{i}", 1).replace("\n", "\n  ").rstrip() + "\n" for i in range(200))
    path.write_text("apiVersion: v1\nkind: List\nitems:\n" + items)
    monkeypatch.setattr(validate, "SPLIT_MIN_BYTES", 0)
    assert validate._load_split(str(path), 2) is None
