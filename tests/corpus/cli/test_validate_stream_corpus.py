"""The corpus tier of ``tests/cli/test_validate_stream.py`` (these tests read ``../shared``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from crdtool.cli import validate
from tests.cli.test_validate_stream import ROOT, _cli, _cronjob, _crontab_with_resource_version, _in_process

CORPUS = ROOT.parent / "shared" / "corpus"


@pytest.fixture(scope="module")
def big_stream(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Gateway API and cert-manager CRDs, the corpus's custom resources before and after them, odd chunks, a
    broken document in the middle, and a CRD refused by storage with custom resources on both sides of it."""
    crds = sorted((CORPUS / "crds").rglob("gateway-api__*")) + sorted((CORPUS / "crds").rglob("cert-manager__*"))
    crs = sorted((CORPUS / "crs").glob("*.yaml"))
    assert len(crds) >= 10 and len(crs) >= 40
    parts: list[str] = []

    def add(text: str) -> None:
        parts.append(text if text.endswith("\n") else text + "\n")

    for f in crs[: len(crs) // 2]:
        add(f.read_text())
    add(_cronjob("before-its-crd", 1))
    add(_crontab_with_resource_version())
    add(_cronjob("after-its-crd", "many"))
    for f in crds[: len(crds) // 2]:
        add(f.read_text())
    add("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: broken\n")  # broken: the others are still judged
    add("# a comment only\n")
    add("~\n")
    add("- a sequence\n")
    add("{apiVersion: v1, kind: ConfigMap, metadata: {name: flow}}\n")
    for f in crds[len(crds) // 2 :]:
        add(f.read_text())
    for copy in range(3):
        for f in crs[len(crs) // 2 :]:
            add(f.read_text())
    path = tmp_path_factory.mktemp("stream") / "dump.yaml"
    path.write_text("---\n".join(parts) + "--- not a separator\nlast: document\n")
    assert path.stat().st_size >= validate.STREAM_MIN_BYTES
    return path


def test_a_big_file_reports_the_same_with_one_or_two_workers(big_stream: Path) -> None:
    one = _cli("--jobs", "1", str(big_stream))
    two = _cli("--jobs", "2", str(big_stream))
    assert one.returncode == two.returncode == 2, one.stderr  # the broken document is an input error
    assert one.stdout == two.stdout
    text = one.stdout.decode()
    # the broken document's error is the Helm hint (a corpus file holds a template line above it); later parse
    # errors of the same file, the bad separator's too, say nothing more: as for a file loaded whole
    assert "this looks like a Helm template" in text and text.endswith(", 1 input error\n")
    assert one.stderr == two.stderr == b""


def test_a_big_file_as_a_stream_reports_what_loading_it_whole_does(big_stream: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    whole = _in_process(monkeypatch, [str(big_stream)], whole=True)
    # the checks across a bundle (BND) need the inputs whole: off here, where streaming is what is compared
    streamed = _cli("--jobs", "2", "--ignore", "BND", str(big_stream), "--output", "json")
    assert streamed.returncode == whole[0] == 2
    assert streamed.stdout.decode() == whole[1]
    report = json.loads(whole[1])
    before, after = (next(d for d in report["documents"] if d["name"] == n) for n in ("before-its-crd", "after-its-crd"))
    # the CRD refused by storage: only the custom resources after it have seen its verdict
    assert not any("is itself invalid" in w for w in before["warnings"]) and before["status"] == "valid"
    assert any("is itself invalid" in w for w in after["warnings"]) and after["status"] == "invalid"
    assert sum(1 for d in report["documents"] if d["status"] == "error") == 1  # the broken one (see above)
    assert report["summary"]["documents"] > len(report["documents"]) > 150  # the corpus holds Lists


def test_a_big_stdin_reports_the_same_streamed_with_two_workers_as_loaded_whole(
    big_stream: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = big_stream.read_bytes()
    streamed = _cli("--jobs", "2", "--ignore", "BND", "-", "--output", "json", stdin=data)
    whole = _in_process(monkeypatch, ["-"], whole=True, stdin=data)
    assert streamed.returncode == whole[0] == 2, streamed.stderr
    assert streamed.stdout.decode() == whole[1]
    assert '"file": "<stdin>"' in whole[1]
