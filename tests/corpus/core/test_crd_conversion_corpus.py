"""The corpus tier of ``tests/core/test_crd_conversion.py`` (these tests read ``../shared``)."""

from __future__ import annotations

import glob
import os
from typing import Any

import pytest
import yaml

from crdtool.core.crd import types as T
from crdtool.core.crd.conversion import (
    convert_crd,
    internal_to_v1,
    internal_to_v1beta1,
    v1_to_internal,
    v1beta1_to_internal,
)
from crdtool.core.crd.decode import decode_crd
from crdtool.core.crd.defaults import default_crd
from tests.core.test_crd_conversion import _without_false_preserve

CORPUS = os.path.join(os.path.dirname(__file__), "..", "..", "..", "..", "shared", "corpus", "crds")


def _corpus(version: str) -> list[tuple[str, dict[str, Any]]]:
    out = []
    for path in sorted(glob.glob(os.path.join(CORPUS, version, "*.yaml"))):
        with open(path, encoding="utf-8") as f:
            for i, doc in enumerate(yaml.load_all(f, Loader=yaml.CSafeLoader)):
                if isinstance(doc, dict) and doc.get("apiVersion") == f"apiextensions.k8s.io/{version}":
                    out.append((f"{os.path.basename(path)}#{i}", doc))
    return out


V1_DOCS = _corpus("v1")


V1BETA1_DOCS = _corpus("v1beta1")


@pytest.mark.skipif(not V1_DOCS, reason="shared corpus not present")
def test_corpus_v1_round_trip() -> None:
    assert len(V1_DOCS) >= 90
    for name, doc in V1_DOCS:
        decoded, _ = decode_crd(doc)
        defaulted = default_crd(decoded)
        back = internal_to_v1(v1_to_internal(defaulted))
        assert T.go_equal(back, defaulted, T.API_V1.root), name
        # Exactly equal too, but for an explicit `preserveUnknownFields: false` (v1's zero value).
        assert back == _without_false_preserve(defaulted), name


@pytest.mark.skipif(not V1BETA1_DOCS, reason="shared corpus not present")
def test_corpus_v1beta1_round_trip_and_upgrade() -> None:
    assert len(V1BETA1_DOCS) >= 120
    for name, doc in V1BETA1_DOCS:
        decoded, _ = decode_crd(doc)
        defaulted = default_crd(decoded)
        inner = v1beta1_to_internal(defaulted)
        assert internal_to_v1beta1(inner) == defaulted, name
        # v1beta1 -> v1 -> internal -> v1 is stable: the v1 manifest is a fixed point.
        v1 = convert_crd(decoded, "v1")
        assert T.go_equal(internal_to_v1(v1_to_internal(v1)), v1, T.API_V1.root), name
        assert T.go_equal(v1, internal_to_v1(inner), T.API_V1.root), name
