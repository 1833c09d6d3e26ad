"""Self-describing CRD cases: each file in tests/cases/crd carries its expected errors.

A header line ``# expect: <type> <field>`` names one expected error (upstream ErrorType name and
the path in the manifest); a file without expect lines must be valid. The expected errors were
derived from upstream apiextensions-apiserver validation.go and its tests, not from our output.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
import yaml

from crdtool import check_crd_manifest

CASES = sorted((Path(__file__).resolve().parents[1] / "cases" / "crd").glob("*.yaml"))
EXPECT = re.compile(r"^# expect: (\S+) (\S+)\s*$", re.M)


def test_there_are_cases() -> None:
    assert len(CASES) >= 20


@pytest.mark.parametrize("case", CASES, ids=[c.stem for c in CASES])
def test_case(case: Path) -> None:
    text = case.read_text(encoding="utf-8")
    expected = Counter(EXPECT.findall(text))
    doc = yaml.load(text, Loader=yaml.CSafeLoader)
    verdict = check_crd_manifest(doc)
    got = Counter((f.error.type, f.error.field) for f in verdict.findings)
    assert got == expected, "\n".join(str(f.error) for f in verdict.findings)
