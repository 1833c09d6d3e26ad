"""Broken and hostile input to `crdtool validate`: exit code, file and line, no traceback, bounded time.

Each case runs the real command in a subprocess (real start-up, real exit code) on files generated
in tmp_path, next to a valid CRD that must still be processed.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

SAMPLES = Path(__file__).resolve().parents[2] / "samples"
VALID = (SAMPLES / "crontab-v1.yaml").read_text()


def run(*args: str, timeout: float = 60) -> tuple[subprocess.CompletedProcess[str], float]:
    start = time.monotonic()
    out = subprocess.run([sys.executable, "-m", "crdtool", "validate", *args], capture_output=True, text=True, timeout=timeout)
    return out, time.monotonic() - start


def assert_clean(out: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in out.stdout + out.stderr
    assert "unexpected error" not in out.stdout + out.stderr


def _input_errors(stdout: str) -> list[dict]:
    data = json.loads(stdout)
    return [d for d in data["documents"] if d["status"] == "error"]


CASES = {
    # libyaml (like go-yaml) reports where it detects the error: the line after the opening bracket.
    "syntax-error.yaml": ("apiVersion: v1\nkind: [unclosed\nmetadata: {}\n", 3),
    "non-utf8.yaml": (b"apiVersion: v1\nkind: Foo\nname: \xff\xfe\n", 3),
    "a-list.yaml": ("- a\n- b\n", 1),
    "a-scalar.yaml": ("just a string\n", 1),
    "tab-indent.yaml": ("apiVersion: v1\nkind: Foo\nmetadata:\n\tname: x\n", 4),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_broken_input_names_file_and_line_and_others_are_processed(tmp_path: Path, name: str) -> None:
    content, line = CASES[name]
    bad = tmp_path / name
    bad.write_bytes(content if isinstance(content, bytes) else content.encode())
    good = tmp_path / "good.yaml"
    good.write_text(VALID)
    out, took = run(str(bad), str(good), "--output", "json")
    assert_clean(out)
    assert out.returncode == 2
    assert took < 30
    [err] = _input_errors(out.stdout)
    assert err["file"] == str(bad)
    assert err["line"] == line
    assert str(bad) in err["errors"][0]["message"]
    assert any(d["status"] == "valid" and d["file"] == str(good) for d in json.loads(out.stdout)["documents"])
    # Text output: one line naming file:line, and the location is not printed twice.
    text, _ = run(str(bad), str(good))
    assert_clean(text)
    lines = [ln for ln in text.stdout.splitlines() if f"{bad}:{line}" in ln]
    assert lines and all(ln.count(str(bad)) == 1 for ln in lines if "error" in ln.lower() or "yaml" in ln.lower())


def test_empty_file_is_not_an_error(tmp_path: Path) -> None:
    empty = tmp_path / "empty.yaml"
    empty.write_text("")
    comments = tmp_path / "comments.yaml"
    comments.write_text("# nothing here\n---\n")
    out, _ = run(str(empty), str(comments), "--output", "json")
    assert_clean(out)
    assert out.returncode == 0
    assert json.loads(out.stdout)["summary"]["documents"] == 0


def test_missing_path_is_an_input_error(tmp_path: Path) -> None:
    out, _ = run(str(tmp_path / "nope.yaml"))
    assert_clean(out)
    assert out.returncode == 2
    assert str(tmp_path / "nope.yaml") in out.stdout + out.stderr


def test_billion_laughs_is_rejected_quickly(tmp_path: Path) -> None:
    lines = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i in range(1, 10):
        prev = f"*a{i - 1}"
        lines.append(f"a{i}: &a{i} [{', '.join([prev] * 9)}]")
    bomb = tmp_path / "bomb.yaml"
    bomb.write_text("\n".join(lines) + "\n")
    out, took = run(str(bomb), "--output", "json")
    assert_clean(out)
    assert out.returncode == 2
    assert took < 20
    [err] = _input_errors(out.stdout)
    assert "aliasing" in err["errors"][0]["message"]
    assert err["line"] >= 1


def test_very_deep_nesting_is_rejected_cleanly(tmp_path: Path) -> None:
    deep = tmp_path / "deep.yaml"
    deep.write_text("a: " + "[" * 100_000 + "]" * 100_000 + "\n")
    out, took = run(str(deep), "--output", "json")
    assert_clean(out)
    assert out.returncode == 2
    assert took < 20
    [err] = _input_errors(out.stdout)
    assert err["line"] == 1


def test_deeply_nested_schema_in_a_crd_gets_a_verdict(tmp_path: Path) -> None:
    depth = 3000
    schema = "{type: object}"
    for _ in range(depth):
        schema = "{type: object, properties: {a: " + schema + "}}"
    crd = VALID.replace(
        "        openAPIV3Schema:\n          type: object\n",
        "        openAPIV3Schema:\n          type: object\n          properties:\n            spec: " + schema + "\n          x-placeholder: 1\n",
        1,
    ).replace("          x-placeholder: 1\n", "")
    path = tmp_path / "deep-crd.yaml"
    path.write_text(crd)
    out, took = run(str(path), "--output", "json")
    assert_clean(out)
    assert out.returncode in (0, 1)
    assert took < 60


def test_fifty_megabyte_file_in_bounded_time(tmp_path: Path) -> None:
    big = tmp_path / "big.yaml"
    doc = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata:\n" + "".join(f"  k{i}: {'v' * 200}\n" for i in range(2000))
    with big.open("w") as fh:
        while fh.tell() < 50 * 1024 * 1024:
            fh.write("---\n" + doc)
    out, took = run(str(big), "--output", "json", timeout=300)
    assert_clean(out)
    assert out.returncode == 0
    assert took < 120
    assert json.loads(out.stdout)["summary"]["valid"] > 100  # ConfigMaps: judged as built-in kinds
