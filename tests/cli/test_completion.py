"""The shipped completion scripts are generated from the CLI and must be current."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from crdtool.cli.app import app
from crdtool.cli.completion import render_all

COMPLETIONS = Path(__file__).resolve().parents[2] / "completions"


@pytest.mark.parametrize("name", sorted(render_all(app)))
def test_completion_scripts_are_current(name: str) -> None:
    expected = render_all(app)[name]
    shipped = (COMPLETIONS / name).read_text(encoding="utf-8")
    assert shipped == expected, f"completions/{name} is stale: run `python -m crdtool.cli.write_completions completions/`"


def _bash_complete(words: list[str]) -> list[str]:
    script = (COMPLETIONS / "crdtool.bash").read_text(encoding="utf-8")
    quoted = " ".join(f"'{w}'" for w in words)
    program = f"""{script}
COMP_WORDS=({quoted}); COMP_CWORD={len(words) - 1}
_crdtool
printf '%s\\n' "${{COMPREPLY[@]}}"
"""
    out = subprocess.run(["bash", "-c", program], capture_output=True, text=True, check=True)
    return out.stdout.split()


def test_bash_completes_subcommands_and_choices() -> None:
    assert {"validate", "sort-versions"} <= set(_bash_complete(["crdtool", ""]))
    assert _bash_complete(["crdtool", "validate", "--output", "j"]) == ["json", "junit"]
    assert _bash_complete(["crdtool", "validate", "--output", "s"]) == ["sarif"]
    assert _bash_complete(["crdtool", "completion", ""]) == ["bash", "zsh", "fish"]
    assert {"schema", "completion"} <= set(_bash_complete(["crdtool", ""]))
    assert "--crd" in _bash_complete(["crdtool", "sort-versions", "--c"])
