"""Golden files for `crdtool validate` output (text for people, JSON for machines).

The inputs are the self-describing CRD cases and the samples; each expected file was reviewed by hand
(messages are upstream's, positions point at the offending node). Regenerate deliberately with
`CRDTOOL_REGEN_GOLDEN=1 pytest tests/cli/test_validate_golden.py` and review the diff.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden" / "validate"

CASES = {
    "invalid-v1-and-v1beta1": ["tests/cases/crd/property-without-type.yaml", "tests/cases/crd/v1beta1-no-schema.yaml", "tests/cases/crd/unknown-field.yaml"],
    "samples": ["samples/"],
}


SUFFIX = {"text": "txt", "json": "json", "github": "github"}


def _run(args: list[str], output: str) -> str:
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "80", "TERM": "dumb"}
    env.pop("GITHUB_ACTIONS", None)  # else github would be the default output
    extra = ["--output", output] if output != "text" else []
    out = subprocess.run(
        [sys.executable, "-m", "crdtool", "validate", *args, *extra], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert "Traceback" not in out.stderr
    return out.stdout


@pytest.mark.parametrize("output", sorted(SUFFIX))
@pytest.mark.parametrize("case", sorted(CASES))
def test_validate_output_matches_golden(case: str, output: str) -> None:
    got = _run(CASES[case], output)
    expected = GOLDEN / f"{case}.{SUFFIX[output]}"
    if os.environ.get("CRDTOOL_REGEN_GOLDEN") == "1":
        expected.write_text(got, encoding="utf-8")
        pytest.skip(f"regenerated {expected.name}: review the diff before committing")
    assert got == expected.read_text(encoding="utf-8")


def test_text_output_has_no_colour_codes_when_not_a_terminal() -> None:
    got = _run(CASES["invalid-v1-and-v1beta1"], "text")
    assert "\x1b[" not in got
