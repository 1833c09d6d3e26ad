"""The corpus tier of ``tests/core/test_crd_compare.py`` (these tests read ``../shared``)."""

from __future__ import annotations

import copy
import pathlib
from typing import Any

import pytest
import yaml

from crdtool import compare_crds, convert_crd

CORPUS = pathlib.Path(__file__).resolve().parents[3].parent / "shared" / "corpus" / "crds"


def corpus_crds() -> list[Any]:
    out = []
    for path in sorted(CORPUS.rglob("*.yaml")):
        for doc in yaml.load_all(path.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader):
            if isinstance(doc, dict) and doc.get("kind") == "CustomResourceDefinition" and isinstance(doc.get("spec"), dict):
                out.append(pytest.param(doc, id=f"{path.name}:{doc.get('metadata', {}).get('name')}"))
    return out


CORPUS_CRDS = corpus_crds()


@pytest.mark.parametrize("doc", CORPUS_CRDS)
def test_a_corpus_crd_compared_with_itself_has_no_change(doc: dict[str, Any]) -> None:
    assert compare_crds(doc, copy.deepcopy(doc)) == []


def test_the_corpus_is_there() -> None:
    assert len(CORPUS_CRDS) > 100


@pytest.mark.parametrize("doc", [p for p in CORPUS_CRDS if p.values[0]["apiVersion"] == "apiextensions.k8s.io/v1beta1"][:40])
def test_the_v1_conversion_of_a_v1beta1_crd_changes_nothing_but_pruning(doc: dict[str, Any]) -> None:
    # a v1beta1 CRD defaults preserveUnknownFields to true, which v1 cannot express: only that shows
    kinds_found = {c.kind for c in compare_crds(doc, convert_crd(doc, "v1"))}
    assert kinds_found <= {"pruning-enabled"}
