"""The corpus tier of issue #28's CRD-check fast paths (these tests read ``../shared``): each against its exact path.

* the recursion check known from the structural memo's content key (marshal writes no schema with a cycle:
  the ``_is_recursive`` walk is skipped) against the walk run on every schema, with no memo: every CRD of
  ``../shared/corpus/crds`` under 1.30 and 1.37, and one in three of ``../shared/corpus-outside`` under 1.37,
  judged by :func:`check_crd_manifest` both ways (findings and warnings equal);
* ``validate_defaults`` skipping its walk for a schema without defaults against the walk itself
  (``_defaults_walk``), on every structural version schema of those CRDs (after the create's defaulting);
* ``warnings_on_create``'s one walk for formats and list-type sets against a walk for each (the public functions),
  on every CRD of corpus/crds and corpus-outside at 1.33, 1.34, 1.36 and 1.37;
* the digest table the CEL contexts of one schema share (``decl_type_digest``) against a fresh digest per
  compilation: every CRD with rules of corpus/crds and corpus-outside at 1.30 and 1.37, the compile memo emptied
  before each run.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import pytest

from crdtool.core.crd import schema_validation
from crdtool.core.crd.conversion import to_internal
from crdtool.core.crd.decode import decode_crd
from crdtool.core.crd.defaults import default_crd
from crdtool.core.crd.manifest import check_crd_manifest
from crdtool.core.crd.validation import warnings_on_create
from crdtool.core.errors import Path as FieldPath
from crdtool.core.releases import resolve_release
from crdtool.core.schema.structural import StructuralError, new_structural
from crdtool.yaml.loader import Document, load_file
from tests.core.test_crd_releases import warnings_on_create_reference

SHARED = Path(__file__).resolve().parents[3].parent / "shared"


@functools.lru_cache(maxsize=None)
def _crds(folder: str, step: int) -> tuple[dict[str, Any], ...]:
    files = sorted((SHARED / folder).rglob("*.yaml"))
    assert files, f"{SHARED / folder} is missing: these tests need ../shared beside the checkout"
    out = []
    for path in files:
        for doc in load_file(str(path)):
            if isinstance(doc, Document) and isinstance(doc.data, dict) and doc.data.get("kind") == "CustomResourceDefinition" \
                    and str(doc.data.get("apiVersion")).startswith("apiextensions.k8s.io/"):
                out.append(doc.data)
    return tuple(out[::step])


def _verdicts(crds: tuple[dict[str, Any], ...], release: str) -> list[Any]:
    schema_validation._STRUCTURAL.clear()
    out = []
    for crd in crds:
        v = check_crd_manifest(crd, kubernetes_version=release)
        out.append(([(f.error.type, f.error.field, str(f.error)) for f in v.findings], v.warnings))
    return out


@pytest.mark.parametrize(("folder", "step", "release"), [
    ("corpus/crds", 1, "1.30"), ("corpus/crds", 1, "1.37"), ("corpus-outside", 3, "1.37"),
])
def test_crd_checks_without_the_recursion_walk_are_the_checks_with_it(
    monkeypatch: pytest.MonkeyPatch, folder: str, step: int, release: str,
) -> None:
    crds = _crds(folder, step)
    assert len(crds) > 50
    fast = _verdicts(crds, release)
    with monkeypatch.context() as m:
        m.setattr(schema_validation, "content_key", lambda value: None)  # the walk, and no structural memo
        exact = _verdicts(crds, release)
    assert fast == exact
    assert any(findings for findings, _ in exact)  # invalid CRDs among them: the comparison sees errors


@pytest.mark.parametrize(("folder", "step"), [("corpus/crds", 1), ("corpus-outside", 1)])
def test_defaults_checks_skip_only_schemas_without_defaults(folder: str, step: int) -> None:
    release = resolve_release("1.37")
    compared = with_defaults = 0
    for crd in _crds(folder, step):
        spec = to_internal(default_crd(decode_crd(crd, release)[0])).get("spec") or {}
        holders = [spec.get("validation")] + [v.get("schema") for v in spec.get("versions") or [] if isinstance(v, dict)]
        for holder in holders:
            schema = holder.get("openAPIV3Schema") if isinstance(holder, dict) else None
            if not isinstance(schema, dict):
                continue
            try:
                ss = new_structural(schema)
            except StructuralError:
                continue
            path = FieldPath("spec", "validation", "openAPIV3Schema")
            got = schema_validation.validate_defaults(path, ss, True, True, release)
            root = ss if ss.extensions.x_embedded_resource else schema_validation._embedded(ss)
            exact = schema_validation._defaults_walk(path, root, True, release)
            assert [str(e) for e in got] == [str(e) for e in exact]
            compared += 1
            with_defaults += any(n.generic.default is not None for n in ss.walk())
    # (the corpus's defaults are valid ones: tests/core/test_schema_validation.py has refused ones)
    assert compared > 150 and with_defaults > 20


def test_create_warnings_of_one_walk_are_those_of_a_walk_each() -> None:
    warned = 0
    for name in ("1.33", "1.34", "1.36", "1.37"):
        release = resolve_release(name)
        for crd in _crds("corpus/crds", 1) + _crds("corpus-outside", 1):
            internal = to_internal(default_crd(decode_crd(crd, release)[0]))
            got = warnings_on_create(internal, release)
            assert got == warnings_on_create_reference(internal, release)
            warned += bool(got)
    assert warned > 20  # (all of them in corpus/crds: corpus-outside's CRDs warn of nothing)


def test_crd_checks_with_a_shared_digest_table_are_the_checks_without(monkeypatch: pytest.MonkeyPatch) -> None:
    from crdtool.core.crdcel import compilation

    crds = tuple(c for c in _crds("corpus/crds", 1) + _crds("corpus-outside", 1) if "x-kubernetes-validations" in str(c))
    assert len(crds) > 30
    fresh_digest = compilation.decl_type_digest
    for release in ("1.30", "1.37"):
        compilation._COMPILED.clear()
        shared = _verdicts(crds, release)
        with monkeypatch.context() as m:
            m.setattr(compilation, "decl_type_digest", lambda decl, digests=None: fresh_digest(decl))
            compilation._COMPILED.clear()
            alone = _verdicts(crds, release)
        assert shared == alone
