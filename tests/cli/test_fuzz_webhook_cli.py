"""`crdtool fuzz-roundtrip --webhook`: usage errors (the runs against a live webhook are in tests/server)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from crdtool.cli.app import app

CRD = str(Path(__file__).resolve().parents[2] / "samples" / "crontab-multiversion-v1.yaml")
TARGET = str(Path(__file__).resolve().parents[2] / "samples" / "crontab_conversion.py") + ":convert"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([], "give either TARGET (module:function) or --webhook URL"),
        ([TARGET, "--webhook", "https://127.0.0.1:1/convert"], "give either TARGET"),
        ([TARGET, "--ca-bundle", "ca.pem"], "--ca-bundle goes with --webhook"),
        (["--webhook", "ftp://example.com/convert"], "--webhook must be an https:// URL"),
        (["--webhook", "https://127.0.0.1:1/convert", "--ca-bundle", "/nonexistent.pem"], "/nonexistent.pem: no such file"),
    ],
)
def test_usage_errors(args: list[str], message: str) -> None:
    result = CliRunner().invoke(app, ["fuzz-roundtrip", "--crd", CRD, *args])
    assert result.exit_code == 2
    assert message in result.stderr


def test_unreachable_webhook_is_a_call_failure(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import socket

    with socket.socket() as s:  # a loopback port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    monkeypatch.setenv("CRDTOOL_CACHE_DIR", str(tmp_path))
    result = CliRunner().invoke(app, ["fuzz-roundtrip", "--crd", CRD, "--webhook", f"https://127.0.0.1:{port}/convert",
                                      "--examples", "2", "--seed", "1", "--timeout", "2"])
    assert result.exit_code == 1
    assert f'conversion webhook for stable.example.com/v1, Kind=CronTab failed: Post "https://127.0.0.1:{port}/convert"' in result.stdout
