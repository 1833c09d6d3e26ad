"""``-o`` is the short form of ``--output`` on every command that has ``--output`` (kubectl's habit: ``-o json``),
issue 27 "Conventions"; the file and directory options are long only, so ``-o`` never means two things."""

from __future__ import annotations

import json
from pathlib import Path

import typer.main
from typer.testing import CliRunner

from crdtool.cli.app import app

SAMPLE = Path(__file__).resolve().parents[2] / "samples" / "crontab-v1.yaml"


def _commands() -> dict[str, object]:
    group = typer.main.get_command(app)
    return dict(group.commands)  # type: ignore[attr-defined]


def test_every_output_option_has_the_short_form() -> None:
    with_output = []
    for name, command in _commands().items():
        for param in command.params:  # type: ignore[attr-defined]
            if "--output" in param.opts:
                with_output.append(name)
                assert "-o" in param.opts, name
            elif "-o" in param.opts:
                raise AssertionError(f"{name}: -o is {param.opts}, not --output")
    assert {"validate", "lint", "diff", "test", "default", "review", "sort-versions", "upgrade-manifest",
            "fuzz-roundtrip"} <= set(with_output)


def test_validate_o_json() -> None:
    result = CliRunner().invoke(app, ["validate", "-o", "json", str(SAMPLE)])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["summary"]
