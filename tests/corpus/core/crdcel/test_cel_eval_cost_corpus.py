"""The corpus tier of ``tests/core/crdcel/test_cel_eval_cost.py`` (these tests read ``../shared``)."""

from __future__ import annotations

import copy
from pathlib import Path as FsPath
from typing import Any

import pytest
import yaml

from crdtool.core.schema.defaulting import default
from crdtool.core.schema.pruning import prune
from crdtool.core.schema.structural import new_structural
from tests.core.crdcel.test_cel_eval_cost import assert_agree, assert_agree_near_limits

CORPUS = FsPath(__file__).resolve().parents[4].parent / "shared" / "corpus"


def _crds_with_rules() -> dict[tuple[str, str, str], list[tuple[str, dict[str, Any]]]]:
    """(project prefix, group, kind) -> [(version, schema)] of every corpus v1 CRD with CEL rules."""
    out: dict[tuple[str, str, str], list[tuple[str, dict[str, Any]]]] = {}
    for path in sorted((CORPUS / "crds" / "v1").glob("*.yaml")):
        text = path.read_text()
        if "x-kubernetes-validations" not in text:
            continue
        for doc in yaml.safe_load_all(text):
            if not isinstance(doc, dict) or doc.get("kind") != "CustomResourceDefinition":
                continue
            spec = doc["spec"]
            release = "__".join(path.name.split("__")[:2])
            for v in spec.get("versions") or []:
                schema = (v.get("schema") or {}).get("openAPIV3Schema")
                if schema:
                    out.setdefault((release, spec["group"], spec["names"]["kind"]), []).append((v["name"], schema))
    return out


def corpus_objects() -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    """(id, defaulted pruned object, schema) for every corpus CR whose CRD (same project and release) has rules."""
    crds = _crds_with_rules()
    out = []
    for path in sorted((CORPUS / "crs").glob("*.yaml")):
        release = "__".join(path.name.split("__")[:2])
        for i, doc in enumerate(yaml.safe_load_all(path.read_text())):
            if not isinstance(doc, dict) or "apiVersion" not in doc or "kind" not in doc:
                continue
            group, _, version = str(doc["apiVersion"]).rpartition("/")
            for v, schema in crds.get((release, group, doc["kind"]), []):
                if v == version:
                    obj = default(prune(copy.deepcopy(doc), schema)[0], schema)
                    out.append((f"{path.name}#{i}", obj, schema))
    return out


CORPUS_OBJECTS = corpus_objects()


def test_corpus_has_objects_with_rules() -> None:
    assert len(CORPUS_OBJECTS) >= 15


@pytest.mark.parametrize("case", CORPUS_OBJECTS, ids=[c[0] for c in CORPUS_OBJECTS])
def test_corpus_objects(case: tuple[str, dict[str, Any], dict[str, Any]]) -> None:
    _, obj, schema = case
    ss = new_structural(schema)
    assert_agree_near_limits(obj, ss)
    # an update from a changed copy: transition rules and ratcheting on both paths
    old = copy.deepcopy(obj)
    old.setdefault("metadata", {})["generation"] = 1
    assert_agree(obj, ss, old=old)
