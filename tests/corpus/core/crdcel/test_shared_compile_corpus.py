"""The corpus tier of ``tests/core/kubecel/test_compile_key.py``: every CEL rule of the corpus CRDs, as the CRD
create checks and the defaults' checks compile them (through ``compile_rules``' memo, which shares a result
between a release's new- and stored-expressions environments where :func:`compile_key` agrees), is what
compiling it alone, in its own environment, with nothing remembered, gives (reads ``../shared``)."""

from __future__ import annotations

from pathlib import Path as FsPath
from typing import Any

import pytest

from crdtool.core.crd.manifest import check_crd_manifest
from crdtool.core.crdcel import compilation as cel_compile
from crdtool.core.crdcel.compilation import CompilationResult, compile_rules
from crdtool.core.kubecel.environment import EnvSet
from crdtool.core.celgo.env import Environment
from crdtool.yaml.loader import Document, load_file
from tests.core.kubecel.test_compile_key import _same

CORPUS = FsPath(__file__).resolve().parents[4].parent / "shared" / "corpus" / "crds"
MEMO = cel_compile._COMPILED


def _crds_with_rules() -> list[dict[str, Any]]:
    out = []
    for path in sorted(CORPUS.rglob("*.yaml")):
        if b"x-kubernetes-validations" not in path.read_bytes():
            continue
        out += [d.data for d in load_file(str(path)) if isinstance(d, Document) and isinstance(d.data, dict)
                and d.data.get("kind") == "CustomResourceDefinition"]
    return out


@pytest.mark.parametrize("release", ["1.30", "1.32", "1.34", "1.36", "1.37"])
def test_shared_compilations_of_corpus_rules(release: str, monkeypatch: pytest.MonkeyPatch) -> None:
    crds = _crds_with_rules()
    assert len(crds) >= 10
    calls: list[tuple[Any, ...]] = []

    def recording(rules: Any, decl: Any, env_set: Any = cel_compile.KUBERNETES_ENV_SET,
                  preexisting: frozenset[str] = frozenset(), preexisting_messages: Any = None,
                  *, digests: Any = None) -> list[CompilationResult]:
        # (with the digest table the contexts of a schema share, where the caller has one: each result is then
        # held below against a compilation alone, without a table)
        out = compile_rules(rules, decl, env_set, preexisting, preexisting_messages, digests=digests)
        calls.append((rules, decl, env_set, preexisting, preexisting_messages, out))
        return out

    for module in ("crdtool.core.crd.cel_validation", "crdtool.core.crdcel.validation", "crdtool.core.crdcel.compilation"):
        monkeypatch.setattr(f"{module}.compile_rules", recording, raising=False)
    MEMO.clear()
    for crd in crds:
        check_crd_manifest(crd, kubernetes_version=release)
    monkeypatch.undo()
    envs: set[int] = set()
    checked = 0
    for rules, decl, env_set, pre, pre_msgs, out in calls:
        if isinstance(env_set, Environment):
            env_set = EnvSet(env_set, env_set)
        envs.add(id(env_set.new))
        for rule, got in zip(rules, out):
            MEMO.clear()
            alone = compile_rules([rule], decl, env_set, pre, pre_msgs)[0]
            assert _same(got, alone), rule
            checked += 1
    assert checked > 200 and len(envs) == 2  # both environments' compilations were seen
