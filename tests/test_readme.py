"""README's two set-up commands and .ci/run stay in step."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _sh_blocks() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return [b.strip() for b in re.findall(r"```sh\n(.*?)```", text, flags=re.S)]


def test_first_command_installs_and_validates_a_bundled_sample() -> None:
    first = _sh_blocks()[0]
    assert "pip install" in first and "crdtool validate samples/" in first
    assert (ROOT / "samples").is_dir()


def test_ci_runs_exactly_the_readme_test_commands() -> None:
    default, corpus = _sh_blocks()[1:3]
    assert "pytest" in default and "--tier" not in default
    assert "pytest" in corpus and "--tier corpus" in corpus
    ci_lines = [ln.strip() for ln in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()]
    assert default in ci_lines and corpus in ci_lines
    assert ci_lines.index(default) < ci_lines.index(corpus)
