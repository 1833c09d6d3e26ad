"""The corpus tier of ``tests/core/test_content_memo.py`` (these tests read ``../shared``)."""

from __future__ import annotations

import copy
import functools
import glob
from pathlib import Path
from typing import Any

import pytest
import yaml

from crdtool.core.crd import schema_validation
from crdtool.core.crd.decode import decode_crd
from crdtool.core.crd.manifest import check_crd_manifest
from crdtool.core.customresource import prepare_crd
from crdtool.core.releases import resolve_release
from crdtool.core.schema.structural import StructuralError, new_structural
from tests.core.test_content_memo import _clear

CORPUS = Path(__file__).resolve().parents[3].parent / "shared" / "corpus" / "crds"


def _corpus_crds(limit: int = 40) -> list[dict[str, Any]]:
    """About ``limit`` CRDs spread over the corpus (fresh copies: tests may mutate them)."""
    return copy.deepcopy(_load_corpus_crds(limit))


@functools.lru_cache(maxsize=None)
def _load_corpus_crds(limit: int) -> list[dict[str, Any]]:
    files = sorted(glob.glob(str(CORPUS / "**" / "*.yaml"), recursive=True))
    assert files, f"{CORPUS} is missing: these tests need ../shared beside the checkout"
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    out = []
    for path in files[:: max(1, len(files) // limit)]:
        with open(path, encoding="utf-8") as fh:
            for doc in yaml.load_all(fh, Loader=loader):  # noqa: S506 - a safe loader
                if isinstance(doc, dict) and doc.get("kind") == "CustomResourceDefinition":
                    out.append(doc)
    return out


@pytest.mark.parametrize("releases", [("1.30", "1.37"), ("1.36", "1.37")])
def test_decoding_again_is_decoding(releases: tuple[str, str]) -> None:
    """Decoding is not kept by content (issue #28): the releases of a matrix decode a CRD in a row, each getting
    a value of its own."""
    for crd in _corpus_crds():
        for name in releases:
            release = resolve_release(name)
            _clear()
            exact = decode_crd(crd, release)
            decode_crd(crd, release)
            got = decode_crd(crd, release)
            assert got == exact
            got[0]["mutated"] = True  # the caller's own: the next one is not affected
            if got[0].get("spec"):
                got[0]["spec"].clear()
            assert decode_crd(crd, release) == exact


def test_a_crd_checked_under_releases_in_a_row_gets_each_releases_exact_verdict() -> None:
    """check_crd_manifest with the memos warm from other releases (as a matrix runs) against a cold run."""
    releases = ("1.30", "1.33", "1.36", "1.37")
    for crd in _corpus_crds(12):
        warm = [check_crd_manifest(crd, kubernetes_version=r) for r in releases]
        cold = []
        for r in releases:
            _clear()
            cold.append(check_crd_manifest(crd, kubernetes_version=r))
        assert [(v.findings, v.warnings) for v in warm] == [(v.findings, v.warnings) for v in cold]


def test_structural_of_is_new_structural() -> None:
    for crd in _corpus_crds(20):
        for version in crd.get("spec", {}).get("versions") or []:
            schema = (version.get("schema") or {}).get("openAPIV3Schema")
            if not isinstance(schema, dict):
                continue
            schema_validation._STRUCTURAL.clear()
            try:
                exact = new_structural(schema)
            except StructuralError as exc:
                for _ in range(2):
                    with pytest.raises(StructuralError, match=str(exc).replace("'", ".").replace("$", ".")):
                        schema_validation.structural_of(copy.deepcopy(schema))
                continue
            first = schema_validation.structural_of(copy.deepcopy(schema))
            again = schema_validation.structural_of(copy.deepcopy(schema))  # equal content: the same object
            assert again is first and first == exact
    bad = {"type": "object", "properties": {"a": {"$ref": "#/x"}}}
    with pytest.raises(StructuralError) as exact:
        new_structural(bad)
    for _ in range(2):  # computed, then remembered: the same error text
        with pytest.raises(StructuralError) as got:
            schema_validation.structural_of(copy.deepcopy(bad))
        assert str(got.value) == str(exact.value)


def test_preparing_under_releases_in_a_row_shares_only_what_does_not_depend_on_the_release() -> None:
    crd = next(c for c in _corpus_crds(10) if prepare_crd(c, "1.37").versions[0].structural is not None)
    _clear()
    # 1.36 and 1.37 decode a CRD with the same Go types: the same schema (1.30's lack fields, see decode.py)
    old, new = prepare_crd(copy.deepcopy(crd), "1.36"), prepare_crd(copy.deepcopy(crd), "1.37")
    _clear()
    fresh = prepare_crd(copy.deepcopy(crd), "1.37")
    for a, b, c in zip(old.versions, new.versions, fresh.versions):
        assert b.schema is a.schema and b.structural is a.structural  # shared, as the docstring says
        assert b.validator is not a.validator  # compiled per release
        assert (b.schema, b.serving_schema, b.structural, b.embedded_paths) == (
            c.schema,
            c.serving_schema,
            c.structural,
            c.embedded_paths,
        )
