"""The corpus tier of ``tests/core/test_decode.py`` (these tests read ``../shared``)."""

from __future__ import annotations

import glob
import os
from typing import Any

import pytest
import yaml

from crdtool.core.crd import types as T
from crdtool.core.crd.decode import (
    decode_crd,
)
from tests.core.test_decode import EXPECTED_CORPUS_FINDINGS

CORPUS = os.path.join(os.path.dirname(__file__), "..", "..", "..", "..", "shared", "corpus", "crds")


def _corpus() -> list[tuple[str, int, Any]]:
    docs = []
    for path in sorted(glob.glob(os.path.join(CORPUS, "*", "*.yaml"))):
        with open(path, encoding="utf-8") as f:
            for i, doc in enumerate(yaml.load_all(f, Loader=yaml.CSafeLoader)):
                if doc:
                    docs.append((os.path.relpath(path, CORPUS), i, doc))
    return docs


CORPUS_DOCS = _corpus()


@pytest.mark.skipif(not CORPUS_DOCS, reason="shared corpus not present")
def test_corpus_decode_findings() -> None:
    found = {}
    for name, i, doc in CORPUS_DOCS:
        _, errors = decode_crd(doc)
        if errors:
            found[(name, i)] = [str(e) for e in errors]
    assert found == EXPECTED_CORPUS_FINDINGS
    assert sum(1 for _, _, d in CORPUS_DOCS if T.api_for(d.get("apiVersion"))) >= 210


@pytest.mark.skipif(not CORPUS_DOCS, reason="shared corpus not present")
@pytest.mark.parametrize("version", ["v1", "v1beta1"])
def test_upstream_roundtrip_fixture_decodes_cleanly(version: str) -> None:
    # testdata/HEAD/apiextensions.k8s.io.<v>.CustomResourceDefinition.yaml sets every field
    # to a placeholder ("strategyValue", "<no json tag> PropertyValue", caBundle "Ag==", ...).
    # Placeholders are well-typed, so the strict decoder accepts them all (upstream's
    # round-trip test decodes these files); only validation would object to them.
    name = f"{version}/apiextensions-apiserver__v0.36.3__testdata-HEAD__{version}.CustomResourceDefinition.yaml"
    docs = [d for n, _, d in CORPUS_DOCS if n == name]
    assert len(docs) == 1
    decoded, errors = decode_crd(docs[0])
    assert errors == []
    schema_key = "validation" if version == "v1beta1" else None
    spec = decoded["spec"]
    schema = (spec[schema_key] if schema_key else spec["versions"][0]["schema"])["openAPIV3Schema"]
    assert schema["maximum"] == 9.5 and schema["maxItems"] == 16
    assert schema["dependencies"] == {"dependenciesKey": ["<no json tag> PropertyValue"]}
    assert schema["items"] == [{}]
    assert schema["x-kubernetes-validations"][0]["optionalOldSelf"] is True
    assert decoded["status"]["conditions"][0]["observedGeneration"] == 6
    assert decoded["metadata"]["managedFields"][0]["fieldsV1"] == {}
