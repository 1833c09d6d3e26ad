"""The corpus tier of issue #28's fast paths (these tests read ``../shared``): each against its exact path.

* ``default(obj, schema_dict)`` (the remembered scan for defaults, the whole-dict copy) against the
  explicit-stack walk, which scans every property on every call, for every version schema of the corpus
  CRDs and every corpus custom resource of it (and the empty object), called twice (a memo hit);
* :func:`go_json_size` against ``len(go_json_marshal(...))`` for every corpus document;
* the plain-dict memo's snapshot ways (C walk, ctypes dict versions, marshal) on every corpus CRD, before and
  after a change deep in its schema.
"""

from __future__ import annotations

import copy
import functools
import glob
from pathlib import Path
from typing import Any

import yaml

from crdtool.core import snapshot
from crdtool.core.gojson import go_json_marshal, go_json_size
from crdtool.core.schema import defaulting

SHARED = Path(__file__).resolve().parents[3].parent / "shared"
CORPUS = SHARED / "corpus"


@functools.lru_cache(maxsize=None)
def _documents(folder: str) -> tuple[Any, ...]:
    files = sorted(glob.glob(str(CORPUS / folder / "**" / "*.yaml"), recursive=True))
    assert files, f"{CORPUS / folder} is missing: these tests need ../shared beside the checkout"
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    out = []
    for path in files:
        with open(path, encoding="utf-8") as fh:
            out.extend(d for d in yaml.load_all(fh, Loader=loader) if isinstance(d, dict))  # noqa: S506
    return tuple(out)


def _crds() -> list[dict[str, Any]]:
    return [copy.deepcopy(d) for d in _documents("crds") if d.get("kind") == "CustomResourceDefinition"]


def _objects_of(crd: dict[str, Any]) -> list[dict[str, Any]]:
    group = crd.get("spec", {}).get("group")
    kind = crd.get("spec", {}).get("names", {}).get("kind")
    return [d for d in _documents("crs") if d.get("kind") == kind and str(d.get("apiVersion", "")).startswith(f"{group}/")]


def test_defaulting_with_a_schema_dict_is_the_exact_walk_over_the_corpus() -> None:
    checked = 0
    for crd in _crds():
        spec = crd.get("spec") or {}
        schemas = [(v.get("schema") or {}).get("openAPIV3Schema") for v in spec.get("versions") or []]
        schemas.append((spec.get("validation") or {}).get("openAPIV3Schema"))
        objects = _objects_of(crd)
        for schema in schemas:
            if not isinstance(schema, dict):
                continue
            for obj in [{}, *objects]:
                for _ in range(2):  # the second call finds the remembered scans
                    assert repr(defaulting.default(obj, schema)) == repr(defaulting._default_iter(obj, schema))
                    checked += 1
    assert checked > 100


def test_go_json_size_is_the_length_of_go_json_marshal_over_the_corpus() -> None:
    docs = _documents("crds") + _documents("crs")
    for doc in docs:
        assert go_json_size(doc) == len(go_json_marshal(doc).encode("utf-8", "surrogatepass"))


def test_every_snapshot_way_sees_a_change_deep_in_every_corpus_crd() -> None:
    for crd in _crds()[::3]:
        snaps = [snapshot.take(crd), snapshot.Snapshot(None, __import__("marshal").dumps(crd))]
        if snapshot._version_views() is not None:
            snaps.append(snapshot._VersionWalk.take(crd))
        assert all(s is not None and s.matches(crd) for s in snaps)
        deepest: Any = crd
        while True:  # the last dict on the path of last values
            inner = [v for v in (deepest.values() if type(deepest) is dict else deepest) if type(v) in (dict, list)]
            if not inner:
                break
            deepest = inner[-1]
        if type(deepest) is dict:
            deepest["x-changed"] = True
        else:
            deepest.append(True)
        assert not any(s.matches(crd) for s in snaps if s is not None)
