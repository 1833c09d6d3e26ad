"""`crdtool sort-versions` end to end (real start-up through a subprocess)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

SAMPLES = Path(__file__).resolve().parents[2] / "samples"


def crdtool(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "crdtool", *args], input=stdin, capture_output=True, text=True, timeout=60
    )


def test_issue_example() -> None:
    out = crdtool("sort-versions", "v12alpha1", "v10", "foo10", "v11beta2", "v1", "v3beta1", "foo1", "v2", "v10beta3", "v11alpha2")
    assert out.returncode == 0, out.stderr
    assert out.stdout == "v10 v2 v1 v11beta2 v10beta3 v3beta1 v12alpha1 v11alpha2 foo1 foo10\n"


def test_stdin_one_per_line() -> None:
    out = crdtool("sort-versions", stdin="v1alpha1\n\nv1\nv1beta1\n")
    assert out.returncode == 0
    assert out.stdout == "v1\nv1beta1\nv1alpha1\n"


def test_json_output() -> None:
    out = crdtool("sort-versions", "--output", "json", "v1beta1", "v2", "v1")
    assert json.loads(out.stdout) == ["v2", "v1", "v1beta1"]


def test_crd_table_marks_kubectl_default() -> None:
    out = crdtool("sort-versions", "--crd", str(SAMPLES / "crontab-multiversion-v1.yaml"))
    assert out.returncode == 0, out.stderr
    lines = [ln for ln in out.stdout.splitlines() if "v1" in ln or "v2" in ln]
    v2_line = next(ln for ln in lines if " v2 " in f" {ln} ")
    assert "kubectl default" in v2_line


def test_crd_json_carries_the_tables_columns_in_priority_order() -> None:
    out = crdtool("sort-versions", "--crd", str(SAMPLES / "crontab-multiversion-v1.yaml"), "--output", "json")
    assert out.returncode == 0, out.stderr
    # samples/crontab-multiversion-v1.yaml: v1 served, v2 served + storage; v2 has priority (kubectl's default)
    assert json.loads(out.stdout) == [
        {"name": "v2", "served": True, "storage": True, "deprecated": False, "kubectlDefault": True},
        {"name": "v1", "served": True, "storage": False, "deprecated": False, "kubectlDefault": False},
    ]
    table = crdtool("sort-versions", "--crd", str(SAMPLES / "crontab-multiversion-v1.yaml")).stdout
    header = next(ln for ln in table.splitlines() if "version" in ln and "served" in ln)
    assert [c.strip() for c in header.strip("┃│ ").replace("┃", "|").replace("│", "|").split("|")] == [
        "version", "served", "storage", "deprecated", "default"]


def test_crd_json_of_a_file_with_several_crds_is_keyed_by_name(tmp_path: Path) -> None:
    text = (SAMPLES / "crontab-multiversion-v1.yaml").read_text() + "---\n" + (SAMPLES / "crontab-v1beta1.yaml").read_text().replace(
        "crontabs.stable.example.com", "other.stable.example.com")
    path = tmp_path / "crds.yaml"
    path.write_text(text)
    data = json.loads(crdtool("sort-versions", "--crd", str(path), "--output", "json").stdout)
    assert list(data) == ["crontabs.stable.example.com", "other.stable.example.com"]
    assert data["other.stable.example.com"] == [
        {"name": "v1", "served": True, "storage": True, "deprecated": False, "kubectlDefault": True}]


def test_crd_missing_file_is_input_error() -> None:
    out = crdtool("sort-versions", "--crd", "/nonexistent/crd.yaml")
    assert out.returncode == 2
    assert "/nonexistent/crd.yaml" in out.stderr
    assert "Traceback" not in out.stderr


def test_versions_and_crd_together_is_usage_error() -> None:
    out = crdtool("sort-versions", "v1", "--crd", str(SAMPLES / "crontab-v1.yaml"))
    assert out.returncode == 2


def test_unknown_option_is_usage_error() -> None:
    out = crdtool("sort-versions", "--bogus")
    assert out.returncode == 2
    assert "Traceback" not in out.stderr


def test_start_up_imports_neither_rich_nor_tempfile() -> None:
    # issue 9: rich and tempfile cost ~30 ms of start-up; only commands that render or write import them
    code = (
        "import sys; from crdtool.cli.app import main; sys.argv = ['crdtool', 'sort-versions', 'v1', 'v2']\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('rich', 'tempfile'))\n"
        "assert not bad, bad"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                         cwd=SAMPLES.parent)
    assert out.returncode == 0, out.stderr
    assert out.stdout == "v2 v1\n"
