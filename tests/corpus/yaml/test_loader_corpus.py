"""The corpus tier of ``tests/yaml/test_loader.py`` (these tests read ``../shared``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from crdtool.cli.inputs import load_inputs
from crdtool.yaml.loader import Document

CORPUS = Path(__file__).resolve().parents[3].parent / "shared" / "corpus" / "crds"


def test_corpus_files_with_anchors_and_merge_keys() -> None:
    tekton = CORPUS / "v1" / "tekton-pipeline__v0.18.0__300-task.yaml"
    knative = CORPUS / "v1" / "knative-eventing__v0.16.0__trigger.yaml"
    if not tekton.exists() or not knative.exists():
        pytest.fail(f"the corpus is missing: {CORPUS} (../shared beside the checkout)")
    [t] = [d for d in load_inputs([str(tekton)]) if isinstance(d, Document)]
    v1alpha1, v1beta1 = t.data["spec"]["versions"]
    assert (v1alpha1["name"], v1alpha1["storage"]) == ("v1alpha1", False)
    assert (v1beta1["name"], v1beta1["storage"], v1beta1["served"]) == ("v1beta1", True, True)
    assert v1beta1["subresources"] == {"status": {}}
    assert v1beta1["schema"] == v1alpha1["schema"]
    [k] = [d for d in load_inputs([str(knative)]) if isinstance(d, Document)]
    names = [v["name"] for v in k.data["spec"]["versions"]]
    assert names == ["v1alpha1", "v1beta1", "v1"]
    v1beta1 = k.data["spec"]["versions"][1]
    assert v1beta1["additionalPrinterColumns"] == k.data["spec"]["versions"][0]["additionalPrinterColumns"]
    assert v1beta1["served"] is True
    assert v1beta1["schema"]["openAPIV3Schema"]["properties"]["spec"]["required"] == ["subscriber"]
    assert t.duplicate_keys == [] and k.duplicate_keys == []


def test_whole_corpus_loads_without_errors() -> None:
    if not CORPUS.exists():
        pytest.fail(f"the corpus is missing: {CORPUS} (../shared beside the checkout)")
    items = list(load_inputs([str(CORPUS)]))
    assert items and all(isinstance(i, Document) for i in items)
    assert all(i.duplicate_keys == [] for i in items)
    for doc in items:
        assert doc.position("") == (doc.line, doc.column)
        assert doc.position("kind")[0] >= doc.line
