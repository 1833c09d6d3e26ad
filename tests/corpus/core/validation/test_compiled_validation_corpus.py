"""The corpus tier of ``tests/core/validation/test_compiled_validation.py`` (these tests read ``../shared``)."""

from __future__ import annotations

from typing import Any

import pytest
import yaml
from hypothesis import settings

from tests.core.validation.test_compiled_validation import ROOT, _mutations, assert_same

CORPUS = ROOT.parent / "shared" / "corpus" / "crds"


def _corpus_versions() -> list[Any]:
    from crdtool.core.fuzz import versions_from_crd

    out = []
    for path in sorted(CORPUS.rglob("*.yaml")):
        with path.open("rb") as fh:
            docs = [d for d in yaml.load_all(fh, Loader=yaml.CSafeLoader) if isinstance(d, dict)]
        for doc in docs:
            if doc.get("kind") != "CustomResourceDefinition":
                continue
            try:
                versions = versions_from_crd(doc)
            except ValueError:
                continue
            out.extend((path.name, v) for v in versions[:1] if v.schema is not None and v.structural is not None)
    return out


CORPUS_VERSIONS = _corpus_versions()


@pytest.mark.parametrize("name, version", CORPUS_VERSIONS, ids=[f"{n}:{v.version}" for n, v in CORPUS_VERSIONS])
def test_corpus_objects_and_their_mutations(name: str, version: Any) -> None:
    from hypothesis import HealthCheck as HC
    from hypothesis import Phase, Verbosity, find

    from crdtool.core.fuzz.strategies import object_strategy

    schema = dict(version.schema)
    objects: list[Any] = []

    def collect(obj: Any) -> bool:
        objects.append(obj)
        return len(objects) >= 3

    try:
        find(
            object_strategy(version),
            collect,
            settings=settings(
                max_examples=20, database=None, phases=[Phase.generate], verbosity=Verbosity.quiet, suppress_health_check=list(HC)
            ),
        )
    except Exception:  # noqa: BLE001 - hypothesis could not satisfy the schema: mutations of what we have
        pass
    valid = 0
    for obj in objects or [{"apiVersion": "x/v1", "kind": "X", "metadata": {"name": "a"}}]:
        valid += assert_same(schema, obj)
        for mutated in _mutations(obj):
            assert_same(schema, mutated, (None,))
    assert valid == len(objects)  # what the fuzzer generates is valid, on both paths


def test_the_corpus_custom_resource_verdicts_pass_with_every_call_checked_against_the_compiled_path() -> None:
    """The corpus tier's share of test_compiled_validation's differential run: the corpus's custom resources."""
    import os
    import subprocess
    import sys

    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--tier", "corpus", "-p",
         "tests.core.differential", "tests/corpus/core/test_corpus_crs.py"],
        cwd=ROOT, capture_output=True, text=True, env=env, check=False,
    )
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    summary = next(line for line in proc.stdout.splitlines() if line.startswith("differential checks:"))
    counts = dict(part.rsplit(" ", 1) for part in summary.removeprefix("differential checks: ").split(", "))
    # the corpus's objects go through the prepared (compiled) validators; the exact path checks each of them
    assert int(counts["compiled"]) > 200 and int(counts["validate_value"]) >= 1
