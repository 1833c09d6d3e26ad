"""The corpus tier of ``tests/core/test_upgrade_corpus.py`` (these tests read ``../shared``)."""

from __future__ import annotations

import glob
import os
from typing import Any

import pytest
import yaml

from crdtool.core.crd.manifest import check_crd_manifest
from crdtool.core.crd.upgrade import MANUAL as MANUAL_KIND
from crdtool.core.crd.upgrade import upgrade_crd
from tests.core.test_upgrade_corpus import (
    MANUAL,
    MANUAL_NOTES_WITH_FIX,
    MANUAL_NOTES_WITHOUT_FIX,
    REPAIRED,
    _check_notes_name_every_error,
    _defaulted,
    assert_same,
    upgraded,
    v1_round_trip_expectation,
    v1beta1_round_trip_expectation,
)

CORPUS = os.path.join(os.path.dirname(__file__), "..", "..", "..", "..", "shared", "corpus", "crds")


def _corpus(version: str) -> list[tuple[str, dict[str, Any]]]:
    out = []
    for path in sorted(glob.glob(os.path.join(CORPUS, version, "*.yaml"))):
        with open(path, encoding="utf-8") as f:
            for i, doc in enumerate(yaml.load_all(f, Loader=yaml.CSafeLoader)):
                if (
                    isinstance(doc, dict)
                    and doc.get("kind") == "CustomResourceDefinition"
                    and doc.get("apiVersion") == f"apiextensions.k8s.io/{version}"
                ):
                    out.append((f"{os.path.basename(path)}#{i}", doc))
    return out


V1_DOCS = _corpus("v1")


V1BETA1_DOCS = _corpus("v1beta1")


needs_corpus = pytest.mark.skipif(not V1_DOCS or not V1BETA1_DOCS, reason="shared corpus not present")


@needs_corpus
@pytest.mark.parametrize("fix", [False, True])
def test_v1beta1_corpus_upgrades_to_valid_v1_or_names_each_field(fix: bool) -> None:
    assert len(V1BETA1_DOCS) == 124
    manual_cases: dict[str, int] = {}
    total = 0
    for name, doc in V1BETA1_DOCS:
        out, notes = upgraded(name, doc, "v1", fix)
        assert out["apiVersion"] == "apiextensions.k8s.io/v1", name
        count = _check_notes_name_every_error(out, notes)
        total += count
        if count:
            manual_cases[name] = count
    if fix:
        assert manual_cases == {name: count for name, (count, _) in MANUAL.items()}
        assert total == MANUAL_NOTES_WITH_FIX == 512  # 513 before 1.37 reported an identical error once
    else:
        assert set(manual_cases) == set(MANUAL) | set(REPAIRED)
        assert len(manual_cases) == 23
        assert total == MANUAL_NOTES_WITHOUT_FIX


@needs_corpus
def test_v1_corpus_round_trip() -> None:
    assert len(V1_DOCS) == 91
    normalised = []
    for name, doc in V1_DOCS:
        beta, notes = upgraded(name, doc, "v1beta1")
        assert beta["apiVersion"] == "apiextensions.k8s.io/v1beta1", name
        # The internal object is the same, so today's validation judges both manifests alike.
        assert bool(check_crd_manifest(doc).findings) == any(n.kind == MANUAL_KIND for n in notes), name
        back, _ = upgrade_crd(beta, "v1")
        expected = v1_round_trip_expectation(doc)
        assert_same(expected, back, name)
        if expected != doc:
            normalised.append(name)
    # Only Go zero values (explicit preserveUnknownFields: false) and upstream's fuzzed fixture differ.
    assert normalised == [
        "apiextensions-apiserver__v0.36.3__testdata-HEAD__v1.CustomResourceDefinition.yaml#0",
        "tekton-pipeline__v0.18.0__300-task.yaml#0",
        "tekton-pipeline__v1.15.0__300-task.yaml#0",
        "tekton-pipeline__v1.15.0__300-taskrun.yaml#0",
    ]


@needs_corpus
def test_v1beta1_corpus_round_trip() -> None:
    for name, doc in V1BETA1_DOCS:
        v1, _ = upgraded(name, doc, "v1")
        back, _ = upgrade_crd(v1, "v1beta1")
        assert_same(v1beta1_round_trip_expectation(doc), _defaulted(back), name)
