"""Lint runs over both real-world corpora (../shared/corpus, ../shared/corpus-outside) without a crash.

Every code is selected (``ALL``) on every CRD document (and every CRD item of a ``List``); the counts per
code are the ones README.md's table gives. On every CRD with CEL rules, the cost breakdown's over-limit
expressions and totals, turned into the apiserver's messages, are exactly the cost errors crdtool's
validator reports for the manifest (so the breakdown cannot drift from the validator).
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from crdtool.core.crd.cel_validation import cost_error_message
from crdtool.core.crd.manifest import check_crd_manifest, is_crd
from crdtool.core.lint import CODES, CRD_LIMIT, RULE_LIMIT, lint_crd
from crdtool.yaml import Document, load_path

ROOT = Path(__file__).resolve().parents[4]
SHARED = ROOT.parent / "shared"
CORPORA = {"corpus": SHARED / "corpus" / "crds", "corpus-outside": SHARED / "corpus-outside"}


def _crds(directory: Path) -> list[tuple[str, dict[str, Any]]]:
    out = []
    for item in load_path(str(directory)):
        if not isinstance(item, Document):
            continue
        data = item.data
        if is_crd(data):
            out.append((item.file, data))
        elif isinstance(data, dict) and data.get("kind") == "List" and isinstance(data.get("items"), list):
            out.extend((item.file, i) for i in data["items"] if is_crd(i))
    return out


@functools.lru_cache(maxsize=None)
def _counts(corpus: str) -> tuple[int, Counter[str], tuple[tuple[str, dict[str, Any]], ...]]:
    crds = _crds(CORPORA[corpus])
    counts: Counter[str] = Counter()
    for _, data in crds:
        counts.update(f.code for f in lint_crd(data, select=["ALL"]).findings)
    return len(crds), counts, tuple(crds)


def _readme_counts() -> dict[str, tuple[int, int]]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `(CRD\d{3})` \| `([a-z-]+)` \| (\w+) \|.*\| ([\d,]+) \| ([\d,]+) \|$", text, flags=re.M)
    out = {}
    for code, name, severity, first, second in rows:
        assert CODES[code].name == name and CODES[code].severity == severity, code
        out[code] = (int(first.replace(",", "")), int(second.replace(",", "")))
    return out


@pytest.mark.parametrize("corpus", sorted(CORPORA))
def test_lint_runs_over_the_corpus(corpus: str) -> None:
    n, counts, _ = _counts(corpus)
    assert n > 200
    assert set(counts) <= set(CODES)


def test_readme_lists_every_code_and_the_corpus_counts() -> None:
    readme = _readme_counts()
    crd_codes = {c for c in CODES if c.startswith("CRD")}  # the POL codes lint policy documents, not CRDs
    assert set(readme) == crd_codes
    for code in crd_codes:
        assert readme[code] == (_counts("corpus")[1][code], _counts("corpus-outside")[1][code]), code


def _has_rules(value: Any) -> bool:
    return "x-kubernetes-validations" in repr(value)


@pytest.mark.parametrize("corpus", sorted(CORPORA))
def test_cost_findings_are_the_validators_cost_errors(corpus: str) -> None:
    checked = 0
    for file, data in _counts(corpus)[2]:
        if not _has_rules(data):
            continue
        checked += 1
        report = lint_crd(data, select=["CRD00"], fixes=False)
        mine = set()
        for s in report.cost.schemas:
            for e in s.expressions:
                if e.over:
                    name = "estimated rule cost" if e.kind == "rule" else "estimated messageExpression cost"
                    mine.add((e.path, cost_error_message(name, e.estimated, RULE_LIMIT)))
            if s.over:
                mine.add((s.paths[0], cost_error_message(
                    "x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema", s.total, CRD_LIMIT)))
        theirs = {(f.error.field, f.error.detail) for f in check_crd_manifest(data).findings
                  if "exceeds budget" in f.error.detail}
        assert mine == theirs, file
    assert checked >= 10
