"""Directory walks, anchored --exclude patterns, unreadable paths and the summary, as a new user meets them.

Rules (README, "Inputs" and the options table): a directory walk passes over hidden files and directories
(dot-names: `.git/`, `.github/workflows/`, `.crdtool.yaml`) and `node_modules/`, but a file named on the command
line is always read; `--exclude` with a leading `/` is anchored at the directory given (in the configuration file:
at the file's directory), like a .gitignore line.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.cli.test_validate_options import ROOT, SAMPLES, crdtool

TEMPLATE = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Values.x }}\n"


@pytest.fixture()
def repo(tmp_path: Path) -> Path:
    (tmp_path / ".git").mkdir()
    for d in ("deploy", "chart/templates", "sub/chart/templates", ".github/workflows", "node_modules/pkg", ".hidden"):
        (tmp_path / d).mkdir(parents=True)
    shutil.copy(SAMPLES / "crontab-v1.yaml", tmp_path / "deploy" / "crontab.yaml")
    (tmp_path / "chart" / "templates" / "cm.yaml").write_text(TEMPLATE)
    (tmp_path / "sub" / "chart" / "templates" / "cm.yaml").write_text(TEMPLATE)
    (tmp_path / ".github" / "workflows" / "ci.yml").write_text("on: push\njobs: {}\n")
    (tmp_path / "node_modules" / "pkg" / "x.yaml").write_text("a: 1\n")
    (tmp_path / ".hidden" / "crd.yaml").write_text((SAMPLES / "crontab-v1.yaml").read_text())
    (tmp_path / ".crdtool.yaml").write_text("validate:\n  quiet: false\n")
    return tmp_path


def files(out: str) -> list[str]:
    return [d["file"] for d in json.loads(out)["documents"]]


def test_a_walk_passes_over_hidden_entries_and_node_modules(repo: Path) -> None:
    out = crdtool("validate", "--output", "json", ".", cwd=repo)
    assert files(out.stdout) == ["./chart/templates/cm.yaml", "./deploy/crontab.yaml", "./sub/chart/templates/cm.yaml"]


def test_a_file_named_on_the_command_line_is_always_read(repo: Path) -> None:
    out = crdtool("validate", "--output", "json", ".github/workflows/ci.yml", ".hidden/crd.yaml", cwd=repo)
    assert out.returncode == 0
    assert [(d["file"], d["status"]) for d in json.loads(out.stdout)["documents"]] == [
        (".github/workflows/ci.yml", "skipped"), (".hidden/crd.yaml", "valid")
    ]
    # a hidden directory given itself is walked
    assert files(crdtool("validate", "--output", "json", ".hidden", cwd=repo).stdout) == [".hidden/crd.yaml"]


def test_a_leading_slash_anchors_exclude_at_the_directory_given(repo: Path) -> None:
    out = crdtool("validate", "--output", "json", "--exclude", "/chart/templates/", ".", cwd=repo)
    assert files(out.stdout) == ["./deploy/crontab.yaml", "./sub/chart/templates/cm.yaml"]
    out = crdtool("validate", "--output", "json", "--exclude", "/chart/templates/", str(repo), cwd=ROOT)
    assert files(out.stdout) == [str(repo / "deploy" / "crontab.yaml"), str(repo / "sub" / "chart" / "templates" / "cm.yaml")]
    out = crdtool("validate", "--output", "json", "--exclude", "/sub/chart/templates/", "..", cwd=repo / "sub")
    assert files(out.stdout) == ["../chart/templates/cm.yaml", "../deploy/crontab.yaml"]
    # without the slash, anywhere
    out = crdtool("validate", "--output", "json", "--exclude", "chart/templates/", ".", cwd=repo)
    assert files(out.stdout) == ["./deploy/crontab.yaml"]


def test_a_leading_slash_in_the_configuration_file_anchors_at_its_directory(repo: Path) -> None:
    (repo / ".crdtool.yaml").write_text("exclude: [/chart/templates/]\n")
    out = crdtool("validate", "--output", "json", "..", cwd=repo / "sub")
    assert files(out.stdout) == ["../deploy/crontab.yaml", "../sub/chart/templates/cm.yaml"]


def test_a_missing_file_has_no_line_zero_and_the_summary_counts_in_english(tmp_path: Path) -> None:
    out = crdtool("validate", "nosuch.yaml", cwd=tmp_path)
    assert out.returncode == 2
    assert out.stdout == (
        "nosuch.yaml\n"
        "  nosuch.yaml: error: input could not be read\n"
        "    nosuch.yaml: no such file or directory\n"
        "\n"
        "1 document: 0 valid, 0 invalid, 0 skipped, 1 input error\n"
    )
    assert ":0:" not in out.stdout


def test_the_readme_options_table_lists_field_validation() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "| `--field-validation Strict\\|Warn\\|Ignore` |" in readme
