"""The corpus tier of ``tests/core/test_fuzz_strategies.py`` (these tests read ``../shared``)."""

from __future__ import annotations

import pytest

from crdtool.core.fuzz import check_object
from crdtool.core.fuzz.strategies import (
    object_strategy,
)
from tests.core.test_fuzz_strategies import ROOT, sample, versions

CORPUS = ROOT.parent / "shared" / "corpus" / "crds" / "v1"


@pytest.mark.skipif(not CORPUS.is_dir(), reason="corpus not available")
@pytest.mark.parametrize(
    "name",
    ["cert-manager__v1.21.1__cert-manager.io_certificates.yaml", "argo-cd__v3.5.1__application-crd.yaml"],
)
def test_corpus_crd_objects_are_valid(name: str) -> None:
    version = versions(CORPUS / name)[0]
    objs = sample(object_strategy(version), 8)
    assert objs
    for obj in objs:
        assert check_object(obj, version).ok
