"""The tree passes `ruff check` with the rules of pyproject.toml's [tool.ruff.lint] (errors, not style)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_ruff_check_passes() -> None:
    out = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "--output-format", "concise", str(ROOT)],
                         capture_output=True, text=True, cwd=ROOT, timeout=300, check=False)
    assert out.returncode == 0, out.stdout + out.stderr


def test_ruff_reads_the_projects_configuration() -> None:
    out = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "--show-settings", "setup.py"],
                         capture_output=True, text=True, cwd=ROOT, timeout=300, check=False)
    assert out.returncode == 0, out.stderr
    assert f'Settings path: "{ROOT / "pyproject.toml"}"' in out.stdout
    assert "line_length = 130" in out.stdout
