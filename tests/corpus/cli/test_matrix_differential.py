"""A matrix of releases (``validate --kubernetes-version 1.30,1.37``) against each release judged alone.

The matrix loads the inputs once, judges each CRD under the releases in a row (sharing its decoding and
structural schemas between them, :mod:`crdtool.core.content_memo`) and each custom resource under every
release with that release's catalog, on forked workers: each release's part of its report must be exactly
what a run under that release alone reports (the exact path), whatever ``--jobs``.
"""

from __future__ import annotations

import contextlib
import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from crdtool.cli import validate
from crdtool.core.releases import resolve_release

ROOT = Path(__file__).resolve().parents[3]
CORPUS = ROOT.parent / "shared" / "corpus"
INPUTS = [
    str(CORPUS / "crds" / "v1" / "gateway-api__v1.6.1__standard__tlsroutes.yaml"),  # invalid on 1.30 only
    str(CORPUS / "crds" / "v1" / "gateway-api__v1.6.1__standard__httproutes.yaml"),
    str(CORPUS / "crds" / "v1" / "gateway-api__v1.6.1__standard__gateways.yaml"),
    str(CORPUS / "crs"),
    str(ROOT / "samples"),
]


def _forget() -> None:
    """Every memo of work shared between releases emptied: the next run computes afresh."""
    from crdtool.core.crd import schema_validation
    from crdtool.core.customresource import prepared

    schema_validation._STRUCTURAL.clear()
    prepared._SERVING.clear()
    prepared._PREPARED._entries.clear()
    prepared._BY_CONTENT.clear()


def _run(monkeypatch: pytest.MonkeyPatch, releases: tuple[str, ...], jobs: int) -> tuple[int, dict[str, Any]]:
    _forget()
    for path in INPUTS:
        assert Path(path).exists(), f"{path} is missing: these tests need ../shared beside the checkout"
    with monkeypatch.context() as m:
        m.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"")))
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            status = validate.run(INPUTS, "json", jobs=jobs,
                                  releases=tuple(resolve_release(r) for r in releases))
    return status, json.loads(out.getvalue())


@pytest.mark.parametrize("jobs", [1, 2])
def test_each_release_of_a_matrix_reports_what_it_reports_alone(monkeypatch: pytest.MonkeyPatch, jobs: int) -> None:
    releases = ("1.30", "1.37")
    status, matrix = _run(monkeypatch, releases, jobs)
    alone = {r: _run(monkeypatch, (r,), 1) for r in releases}
    assert status == max(s for s, _ in alone.values())
    for r, (_, report) in alone.items():
        assert matrix["summary"]["kubernetesVersions"][r] == report["summary"]
        assert len(matrix["documents"]) == len(report["documents"])
        for combined, single in zip(matrix["documents"], report["documents"]):
            assert (combined["file"], combined["index"]) == (single["file"], single["index"])
            assert combined["kubernetesVersions"][r] == {
                "status": single["status"], "errors": single["errors"], "warnings": single["warnings"],
                **({"apiStatus": single["apiStatus"]} if "apiStatus" in single else {})}
    tls = next(d for d in matrix["documents"] if d["file"].endswith("tlsroutes.yaml"))
    assert {r: v["status"] for r, v in tls["kubernetesVersions"].items()} == {"1.30": "invalid", "1.37": "valid"}
    judged = [d for d in matrix["documents"] if d["kind"] != "CustomResourceDefinition" and d["status"] != "skipped"]
    assert len(judged) >= 15  # custom resources were judged against their CRDs, not skipped
