"""The corpus tier of ``tests/cli/test_validate_crs_cli.py`` (these tests read ``../shared``)."""

from __future__ import annotations

from pathlib import Path

from tests.cli.test_validate_crs_cli import run_json

CORPUS = Path(__file__).resolve().parents[3].parent / "shared" / "corpus"


def test_corpus_crs_against_gateway_crds() -> None:
    code, data = run_json(
        "--crd",
        str(CORPUS / "crds/v1/gateway-api__v1.0.0__standard__gateways.yaml"),
        str(CORPUS / "crs/gateway-api__v1.0.0__INVALID__gateway__hostname-tcp.yaml"),
    )
    assert code == 1
    [error] = data["documents"][0]["errors"]
    assert (error["field"], error["detail"]) == ("spec.listeners", "hostname must not be specified for protocols ['TCP', 'UDP']")
