"""The corpus tier of ``tests/core/test_structural_fast_paths.py``: every schema of every CRD of ``../shared/corpus``
and ``../shared/corpus-outside`` (the top-level one and each version's, and one sub-schema in 50 as a root of its
own) converts with ``new_structural``'s fast paths as the plain walk converts it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from crdtool.core.crd.schema_walk import walk
from crdtool.core.schema.structural import new_structural
from crdtool.yaml.loader import Document, load_file
from tests.core.test_structural_fast_paths import outcome, reference

SHARED = Path(__file__).resolve().parents[3].parent / "shared"


def _schemas() -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for corpus in ("corpus", "corpus-outside"):
        for path in sorted((SHARED / corpus).rglob("*.yaml")):
            for doc in load_file(str(path)):
                if not isinstance(doc, Document) or not isinstance(doc.data, dict):
                    continue
                spec = doc.data.get("spec")
                if doc.data.get("kind") != "CustomResourceDefinition" or not isinstance(spec, dict):
                    continue
                holders = [spec.get("validation")] + [v.get("schema") for v in spec.get("versions") or []
                                                      if isinstance(v, dict)]
                out += [h["openAPIV3Schema"] for h in holders
                        if isinstance(h, dict) and isinstance(h.get("openAPIV3Schema"), dict)]
    return out


def test_corpus_schemas_convert_as_the_plain_walk_converts_them() -> None:
    roots = _schemas()
    assert len(roots) > 300
    nodes = 0
    for root in roots:
        assert outcome(new_structural, root) == outcome(reference, root)
        for node in walk(root):
            nodes += 1
            if nodes % 50 == 0:
                assert outcome(new_structural, node) == outcome(reference, node)
    assert nodes > 100_000
