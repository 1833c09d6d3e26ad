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


def test_the_version_walk_over_loaded_corpus_crds_is_right_after_changes_at_any_depth() -> None:
    """Issue #28: the pure-Python memo check (strided views over a loaded CRD's neighbouring containers) on
    corpus CRDs as the YAML loader allocates them, after sequences of in-place changes to containers picked at
    every depth; the oracle is a type- and order-strict comparison with a deep copy taken before."""
    import random

    from tests.core.test_snapshot import MUTATIONS, _containers, _same_json

    if snapshot._version_views() is None:
        return  # not CPython 3.11: the marshal way (checked above)
    rnd = random.Random(28)
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    files = sorted(glob.glob(str(CORPUS / "crds" / "**" / "*.yaml"), recursive=True))[::5]
    checked = changed = 0
    for path in files:
        with open(path, encoding="utf-8") as fh:
            crds = [d for d in yaml.load_all(fh, Loader=loader) if isinstance(d, dict)]  # noqa: S506
        for crd in crds:
            snap = snapshot._VersionWalk.take(crd)
            assert snap is not None and snap.matches(crd)
            before = copy.deepcopy(crd)
            containers = _containers(crd)
            for _ in range(3):
                target = containers[rnd.randrange(len(containers))]
                rnd.choice(MUTATIONS)(target, rnd.randrange(100), rnd.choice([None, 0, "x", [1]]))
                same = _same_json(crd, before)
                if snap.matches(crd):
                    assert same, path
                changed += not same
                checked += 1
    assert checked > 100 and changed > 50


def test_the_plain_dict_call_follows_in_place_changes_deep_in_the_prometheus_crd() -> None:
    """``validate_object(obj, crd_dict)`` (the memo) against a fresh preparation of a deep copy, after each of a
    few in-place changes deep in the Prometheus CRD, for its corpus objects."""
    from crdtool.core.customresource import validate_object
    from crdtool.core.customresource.prepared import _prepare

    crd = next(d for d in _crds() if d["metadata"]["name"] == "prometheuses.monitoring.coreos.com")
    objects = _objects_of(crd)
    assert objects
    spec = crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]
    props = spec["properties"]
    changes = [
        lambda: props["replicas"].__setitem__("maximum", 0),  # every object with replicas > 0 now fails
        lambda: props["replicas"].__setitem__("type", "string"),
        lambda: props["replicas"].pop("type"),
        lambda: props["serviceAccountName"].__setitem__("maxLength", 1),
        lambda: spec.__setitem__("required", ["nosuchfield"]),
        lambda: spec["required"].__setitem__(0, "replicas"),
    ]
    for obj in objects:
        validate_object(obj, crd)
    for change in changes:
        change()
        fresh = _prepare(copy.deepcopy(crd))
        for obj in objects:
            assert validate_object(obj, crd) == validate_object(obj, fresh)


def test_guarded_defaulting_follows_in_place_changes_of_corpus_schemas() -> None:
    """Issue #28: ``default(obj, schema_dict)`` (guarded node summaries, whole subtrees copied when they have no
    default) against the explicit-stack walk, on corpus version schemas as loaded and as a prepared CRD lays
    them out (:func:`crdtool.core.snapshot.compact_copy`), for their corpus objects, before and after in-place
    changes of schema nodes the objects reach (a default added deep down, a nullable flipped, a default
    dropped)."""
    import random

    rnd = random.Random(2028)
    checked = 0
    for crd in _crds()[::2]:
        objects = _objects_of(crd)[:4]
        if not objects:
            continue
        for v in (crd.get("spec") or {}).get("versions") or []:
            raw = (v.get("schema") or {}).get("openAPIV3Schema")
            if not isinstance(raw, dict):
                continue
            for schema in (raw, snapshot.compact_copy(copy.deepcopy(raw))):
                for obj in [{}, *objects]:
                    assert repr(defaulting.default(obj, schema)) == repr(defaulting._default_iter(obj, schema))
                nodes = _reached(schema, objects)
                for _ in range(3):
                    node = nodes[rnd.randrange(len(nodes))]
                    op = rnd.randrange(3)
                    if op == 0:
                        node.setdefault("properties", {})[f"added{rnd.randrange(9)}"] = {"default": {"x": [1]}}
                    elif op == 1:
                        node["nullable"] = not node.get("nullable")
                    else:
                        for p in (node.get("properties") or {}).values():
                            if isinstance(p, dict) and p.pop("default", None) is not None:
                                break
                    for obj in [{}, *objects]:
                        for _ in range(2):
                            assert repr(defaulting.default(obj, schema)) == repr(defaulting._default_iter(obj, schema))
                            checked += 1
    assert checked > 100


def _reached(schema: dict[str, Any], objects: list[Any]) -> list[dict[str, Any]]:
    """The schema nodes the objects' dicts reach (through properties, additionalProperties and items)."""
    out: dict[int, dict[str, Any]] = {}
    stack: list[tuple[Any, Any]] = [(o, schema) for o in objects]
    while stack:
        value, s = stack.pop()
        if not isinstance(s, dict):
            continue
        if isinstance(value, dict):
            out[id(s)] = s
            props = s.get("properties") if isinstance(s.get("properties"), dict) else {}
            for k, v in value.items():
                stack.append((v, props.get(k) if k in props else s.get("additionalProperties")))
        elif isinstance(value, list):
            stack.extend((v, s.get("items")) for v in value)
    return list(out.values())
