"""One big input on every core (issue #21): a YAML stream read document by document, a List judged in ranges.

The report must not depend on how the work is spread: ``--jobs 1`` and
``--jobs 2`` give byte-identical output, and both give what loading the input
whole gives (the path below :data:`~crdtool.cli.validate.STREAM_MIN_BYTES`),
on a file and on stdin, with a broken document in the middle, custom resources
before and after their CRDs, and the odd chunks kubectl's reader produces.
The stream's splitter and chunk loader are held to the loader's own
(``crdtool.yaml.loader``) on generated streams.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from crdtool.cli import validate
from crdtool.cli.progress import DelayedProgress
from crdtool.yaml import stream as yaml_stream
from crdtool.yaml.loader import Document, InputError, _split_chunks, load_bytes
from crdtool.yaml.stream import iter_chunks, load_chunk

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"

# --- the splitter and the chunk loader against the loader ------------------------------------

_PIECES = [
    b"a: 1\n", b"---\n", b"--- # c\n", b"---x\n", b"----\n", b"\n", b"  ---\n", b"b: [1,\n 2]\n", b"---",
    b"# only a comment\n", b"---\r\n", b"c: d", b"~\n", b"- item\n", b"{e: f}\n", b"plain scalar\n",
    b"g: {unclosed\n", b"h: &x [1]\ni: *x\n", b"null\n", b"%YAML 1.1\n", b"j: 1\nj: 2\n", b"k: !!binary aGk=\n",
]


def _streams(count: int) -> list[bytes]:
    rng = random.Random(21)
    return [b"".join(rng.choice(_PIECES) for _ in range(rng.randint(0, 14))) for _ in range(count)]


def test_chunks_split_as_the_loader_splits() -> None:
    for raw in _streams(1500):
        expected = list(_split_chunks(raw))
        for block in (1, 2, 5, 64, 1 << 20):
            got = [(c.line, c.text if c.bad_separator is None else b"", c.bad_separator)
                   for c in iter_chunks(io.BytesIO(raw).read, block)]
            assert got == expected, (raw, block)


def _shape(item: Document | InputError) -> tuple[Any, ...]:
    if isinstance(item, InputError):
        return ("error", item.file, item.line, item.column, item.message, item.index)
    return ("doc", item.file, item.index, item.line, item.column, json.dumps(item.data), tuple(item.duplicate_keys),
            item.warnings)


def test_chunks_load_as_the_loader_loads() -> None:
    """Chunk by chunk, numbered by the caller, a stream loads into the same items, positions included."""
    for raw in _streams(600):
        if raw.lstrip()[:1] == b"{":
            continue  # a JSON stream: never read in chunks
        expected = [_shape(item) for item in load_bytes(raw, "s.yaml")]
        got = []
        index = 0
        for chunk in iter_chunks(io.BytesIO(raw).read, 3):
            loaded = load_chunk(chunk, "s.yaml", index)
            index += loaded.takes_index
            if loaded.item is not None:
                got.append(_shape(loaded.item))
        assert got == expected, raw
        for expected_doc, chunk_doc in zip(load_bytes(raw, "s.yaml"), _loaded_docs(raw)):
            if isinstance(expected_doc, Document) and not expected_doc.duplicate_keys:
                for path in _paths(expected_doc.data):
                    assert chunk_doc.position(path) == expected_doc.position(path), (raw, path)


def _loaded_docs(raw: bytes) -> list[Any]:
    out = []
    for chunk in iter_chunks(io.BytesIO(raw).read, 4):
        item = load_chunk(chunk, "s.yaml").item
        if item is not None:
            out.append(item)
    return out


def _paths(data: Any, prefix: str = "") -> list[str]:
    out = [prefix]
    if isinstance(data, dict):
        for k, v in data.items():
            out += _paths(v, f"{prefix}.{k}" if prefix else str(k))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            out += _paths(v, f"{prefix}[{i}]")
    return out


def test_an_oversized_document_is_refused_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(yaml_stream, "MAX_INPUT_BYTES", 100)
    big = b"a: " + b"x" * 300 + b"\nb: 1\n"
    raw = b"first: 1\n---\n" + big + b"---\nlast: 1\n"
    chunks = list(iter_chunks(io.BytesIO(raw).read, 16))
    assert [(c.line, c.text is None) for c in chunks] == [(1, False), (3, True), (6, False)]
    loaded = [load_chunk(c, "big.yaml", i) for i, c in enumerate(chunks)]
    error = loaded[1].item
    assert isinstance(error, InputError) and (error.line, error.index) == (3, 1)
    assert error.message == "document is larger than 100 bytes; refusing to load it"
    assert isinstance(loaded[2].item, Document) and loaded[2].item.line == 6


# --- the command: --jobs 1, --jobs 2 and the input loaded whole agree -------------------------------


def _crontab_with_resource_version() -> str:
    text = (SAMPLES / "crontab-v1.yaml").read_text()
    return text.replace("metadata:\n", "metadata:\n  resourceVersion: \"42\"\n", 1)


def _cronjob(name: str, replicas: Any) -> str:
    """A CronTab of samples/crontab-v1.yaml: valid with 1 to 10 replicas."""
    return (f"apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: {name}\nspec:\n"
            f"  cronSpec: '* * * * */5'\n  image: img\n  replicas: {json.dumps(replicas)}\n")


def _cli(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "NO_COLOR": "1", "TERM": "dumb"}
    for name in ("GITHUB_ACTIONS", "CI", "CRDTOOL_PROGRESS_DELAY"):
        env.pop(name, None)
    return subprocess.run([sys.executable, "-m", "crdtool", "validate", *args], input=stdin, capture_output=True,
                          env=env, timeout=600, cwd=ROOT, check=False)


def _in_process(monkeypatch: pytest.MonkeyPatch, args: list[str], *, whole: bool, stdin: bytes = b"",
                jobs: int = 1, progress: Any = None) -> tuple[int, str]:
    """``validate.run`` here, the input loaded whole (``whole``) or as a stream (from 64 KiB), the JSON report."""
    with monkeypatch.context() as m:
        m.setattr(validate, "STREAM_MIN_BYTES", 1 << 40 if whole else 64 << 10)
        m.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin)))
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            status = validate.run(args, "json", jobs=jobs, progress=progress)
    return status, out.getvalue()


def test_a_crd_the_scan_cannot_see_makes_the_stream_load_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A kind written with a YAML escape hides a CRD from the text scan: a worker meets it, and the input is
    judged again loaded whole, with the same report as a run that never streamed."""
    crd = (
        'apiVersion: apiextensions.k8s.io/v1\nkind: "CustomResource\\x44efinition"\n'
        "metadata: {name: crontabs.stable.example.com}\n"
        "spec:\n  group: stable.example.com\n  scope: Namespaced\n"
        "  names: {kind: CronTab, plural: crontabs, singular: crontab, listKind: CronTabList}\n"
        "  versions:\n  - name: v1\n    served: true\n    storage: true\n    schema:\n      openAPIV3Schema:\n"
        "        type: object\n        properties:\n          spec:\n            type: object\n            properties:\n"
        "              cronSpec: {type: string}\n              image: {type: string}\n"
        "              replicas: {type: integer}\n"
    )
    assert "CustomResourceDefinition" not in crd
    filler = "".join(f"---\n{_cronjob(f'c{i}', i % 3 or 'x')}" for i in range(1000))
    path = tmp_path / "hidden.yaml"
    path.write_text(_cronjob("first", 1) + "---\n" + crd + filler)
    assert path.stat().st_size >= 64 << 10
    whole = _in_process(monkeypatch, [str(path)], whole=True)
    for jobs in (1, 2):
        assert _in_process(monkeypatch, [str(path)], whole=False, jobs=jobs) == whole
    assert whole[0] == 1 and json.loads(whole[1])["summary"]["valid"] > 600


def _crontab_list(count: int) -> str:
    items = []
    for i in range(count):
        replicas = "many" if i % 5 in (1, 3) else i % 10 + 1
        items.append(f"- apiVersion: stable.example.com/v1\n  kind: CronTab\n  metadata: {{name: c{i}, namespace: ns}}\n"
                     f"  spec: {{cronSpec: '* * * * */5', image: img, replicas: {json.dumps(replicas)}}}\n")
    items.append("- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: cm}\n")
    items.append("- 42\n")
    return "apiVersion: v1\nkind: List\nitems:\n" + "".join(items)


def test_a_list_judged_in_ranges_reports_the_same_and_counts_its_items(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "list.yaml"
    path.write_text(_crontab_list(300))
    args = ["--crd", str(SAMPLES / "crontab-v1.yaml"), str(path)]
    one = _in_process(monkeypatch, [str(path)], whole=True)  # no CRD: every item skipped but the ConfigMap (built-in)
    assert json.loads(one[1])["summary"] == {"documents": 302, "valid": 1, "invalid": 0, "skipped": 301, "errors": 0}
    serial = _cli("--jobs", "1", *args, "--output", "json")
    parallel = _cli("--jobs", "2", *args, "--output", "json")
    assert serial.returncode == parallel.returncode == 1
    assert serial.stdout == parallel.stdout
    report = json.loads(serial.stdout)
    # the items count as documents: 300 custom resources, 40% invalid, a ConfigMap (valid) and a number skipped
    assert report["summary"] == {"documents": 302, "valid": 181, "invalid": 120, "skipped": 1, "errors": 0}
    [listed] = report["documents"]
    assert len(listed["errors"]) == 120
    first = listed["errors"][0]
    assert first["field"] == "items[1].spec.replicas" and (first["line"], first["column"]) == (11, 47)
    assert _cli("--jobs", "2", *args).stdout == _cli("--jobs", "1", *args).stdout  # the text report too


def test_the_progress_bar_counts_list_items_and_stream_documents(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    listed = tmp_path / "list.yaml"
    listed.write_text(_crontab_list(100))
    progress = DelayedProgress("validating", enabled=False)
    _in_process(monkeypatch, [str(listed)], whole=True, progress=progress)
    assert progress.total == progress.done == 102
    streamed = tmp_path / "stream.yaml"
    odd = "---\n~\n---\n# a comment\n---\nkind: {broken\n--- not a separator\n"
    streamed.write_text(_crontab_list(100) + "---\n" + "".join(f"---\n{_cronjob(f'd{i}', 1)}" for i in range(500)) + odd)
    assert streamed.stat().st_size >= 64 << 10
    for jobs in (1, 2):
        progress = DelayedProgress("validating", enabled=False)
        _in_process(monkeypatch, [str(streamed)], whole=False, jobs=jobs, progress=progress)
        assert progress.total == progress.done == 102 + 500 + 3  # the null, the comment and the broken chunks


def test_results_kept_on_disk_report_the_same(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Past SPILL_AFTER results go to a temporary file: the text and JSON reports are the same bytes."""
    from crdtool.cli import report

    path = tmp_path / "stream.yaml"
    path.write_text(_crontab_list(30) + "".join(f"---\n{_cronjob(f'd{i}', i % 12)}" for i in range(700)))
    outputs = {}
    for spill_after in (7, 1 << 30):
        monkeypatch.setattr(report, "SPILL_AFTER", spill_after)
        for output in ("json", "text"):
            with monkeypatch.context() as m:
                m.setattr(validate, "STREAM_MIN_BYTES", 64 << 10)
                buffer = io.StringIO()
                with contextlib.redirect_stdout(buffer):
                    status = validate.run([str(path)], output, crd_paths=[str(SAMPLES / "crontab-v1.yaml")], jobs=2)
            outputs[spill_after, output] = (status, buffer.getvalue())
    assert outputs[7, "json"] == outputs[1 << 30, "json"] and outputs[7, "text"] == outputs[1 << 30, "text"]
    status, text = outputs[7, "json"]
    data = json.loads(text)
    assert status == 1 and data["summary"]["documents"] == 32 + 700 == len(data["documents"]) + 31  # a 32-item List


def test_the_json_report_written_in_pieces_is_the_whole_payloads_text() -> None:
    from crdtool.cli.report import DocumentResult, write_validate_json
    from crdtool.core.gojson import go_json_dumps

    results = [DocumentResult("a.yaml", i, i + 1, "v1", "X", f"n{i}", "invalid" if i % 2 else "valid",
                              errors=[{"type": "FieldValueInvalid", "badValue": 1e-7, "message": "m\nn"}] if i % 2 else [],
                              warnings=["w"]) for i in range(5)]
    for chosen in (results, results[:1], []):
        buffer = io.StringIO()
        write_validate_json(chosen, buffer)
        from crdtool.cli.report import summary

        payload = {"summary": summary(chosen), "documents": [r.to_dict() for r in chosen]}
        assert buffer.getvalue() == go_json_dumps(payload, indent=2) + "\n"


def test_a_crd_that_is_itself_invalid_is_reported_the_same_by_workers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With workers, whether a --crd CRD is itself valid is settled by the parent while they judge: the
    warning of every custom resource checked against it is the one --jobs 1 gives."""
    crd = (SAMPLES / "crontab-v1.yaml").read_text().replace(
        "      served: true", "      served: true\n      additionalPrinterColumns:\n      - {name: Spec, type: string, jsonPath: spec}", 1)
    invalid_crd = tmp_path / "crd.yaml"
    invalid_crd.write_text(crd)
    path = tmp_path / "objects.yaml"
    path.write_text("".join(f"---\n{_cronjob(f'c{i}', i % 12)}" for i in range(600)))
    outputs = []
    for jobs in (1, 2):
        with monkeypatch.context() as m:
            m.setattr(validate, "STREAM_MIN_BYTES", 64 << 10)
            buffer = io.StringIO()
            with contextlib.redirect_stdout(buffer):
                validate.run([str(path)], "json", crd_paths=[str(invalid_crd)], jobs=jobs)
            outputs.append(buffer.getvalue())
    assert outputs[0] == outputs[1]
    documents = json.loads(outputs[0])["documents"]
    assert len(documents) == 600
    assert all(any("is itself invalid" in w for w in d["warnings"]) for d in documents)


def test_a_matrix_counts_list_items_per_release_and_does_not_depend_on_jobs(tmp_path: Path) -> None:
    """Several releases load the inputs once and judge them per release: each release's summary counts a List's
    items as documents, and the report is the same with one worker or two."""
    path = tmp_path / "list.yaml"
    path.write_text(_crontab_list(100))
    args = ["--crd", str(SAMPLES / "crontab-v1.yaml"), "--kubernetes-version", "1.30,1.37", str(path), "--output", "json"]
    serial = _cli("--jobs", "1", *args)
    parallel = _cli("--jobs", "2", *args)
    assert serial.returncode == parallel.returncode == 1, serial.stderr
    assert serial.stdout == parallel.stdout
    summary = json.loads(serial.stdout)["summary"]
    counts = {"documents": 102, "valid": 61, "invalid": 40, "skipped": 1, "errors": 0}  # the ConfigMap is judged
    assert summary == {**counts, "kubernetesVersions": {"1.30": counts, "1.37": counts}}


def _with_bundle(monkeypatch: pytest.MonkeyPatch, args: list[str], *, decided_before: bool,
                 jobs: int = 1) -> tuple[int, str, str]:
    """``validate.run`` with the default checks across the bundle, streams from 64 KiB: the whole-load decided
    before any stream is planned (``decided_before``, the fast path) or after planning them (the exact path)."""
    from crdtool.cli.bundle_checks import BundleOptions
    from crdtool.core.bundle import select_rules

    with monkeypatch.context() as m:
        m.setattr(validate, "STREAM_MIN_BYTES", 64 << 10)
        if not decided_before:
            m.setattr(validate, "_loaded_whole", lambda selected: False)
        m.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"")))
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = validate.run(args, "json", jobs=jobs, bundle=BundleOptions(select_rules()))
    return status, out.getvalue(), err.getvalue()


def test_inputs_loaded_whole_for_the_bundle_are_not_planned_as_streams(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With the checks across the bundle, inputs within BUNDLE_MAX_BYTES are loaded whole: decided before the
    streams are planned (issue #28), the same report as planning them first; and above the limit (made small
    here) both stream, with the same note."""
    big = tmp_path / "big.yaml"
    big.write_text((SAMPLES / "crontab-v1.yaml").read_text() + "".join(
        f"---\n{_cronjob(f'c{i}', i % 3 or 'x')}" for i in range(800)))
    assert big.stat().st_size >= 64 << 10
    single = tmp_path / "single.yaml"  # one large document: scanned, not a stream
    single.write_text(_crontab_list(700))
    small = tmp_path / "small.yaml"
    small.write_text(_cronjob("alone", 2))
    args = [str(big), str(single), str(small)]
    exact = _with_bundle(monkeypatch, args, decided_before=False)
    assert json.loads(exact[1])["summary"]["invalid"] > 200
    for jobs in (1, 2):
        assert _with_bundle(monkeypatch, args, decided_before=True, jobs=jobs) == exact
    from crdtool.cli import bundle_checks

    with monkeypatch.context() as m:
        m.setattr(bundle_checks, "BUNDLE_MAX_BYTES", 64 << 10)
        over = _with_bundle(monkeypatch, args, decided_before=True)
        assert over == _with_bundle(monkeypatch, args, decided_before=False)
    assert over[2] and over[2] != exact[2]  # the note that the bundle is too large to check
    assert validate._loaded_whole(args) and not validate._loaded_whole(["-"])
