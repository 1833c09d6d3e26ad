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


def test_corpus_loads_as_the_reference_loader_loads_it() -> None:
    """Every corpus file (../shared/corpus and corpus-outside) through the tuned loader and its frozen reference
    (tests/yaml/_reference_loader.py, main 0df2e16): the same documents, errors, values, duplicates and marks."""
    from tests.yaml import _reference_loader as ref
    from tests.yaml.test_loader_differential import _marks, _outcome_item
    from crdtool.yaml import loader as new

    shared = CORPUS.parents[1]
    files = sorted(p for d in ("corpus", "corpus-outside") for p in (shared / d).rglob("*")
                   if p.suffix in (".yaml", ".yml", ".json"))
    if len(files) < 100:
        pytest.fail(f"the corpus is missing: {shared}/corpus* (../shared beside the checkout)")
    for path in files:
        got = [_outcome_item(new, i) for i in new.load_file(str(path))]
        assert got == [_outcome_item(ref, i) for i in ref.load_file(str(path))], path
        for doc in new.load_file(str(path)):
            if isinstance(doc, new.Document) and doc._source is not None:
                text = doc._source.text
                assert _marks(new, text) == _marks(ref, text), path
