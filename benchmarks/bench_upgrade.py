"""Time of ``upgrade_crd`` (core only: no YAML parsing, no CLI) on the real CRD corpus.

Usage::

    PYTHONPATH=. /work/venv/bin/python benchmarks/bench_upgrade.py [CORPUS_DIR]

Prints, each as the median of several runs, with and without ``fix=True``:

- the largest v1beta1 CRD of the corpus (by JSON size) upgraded to v1;
- the whole v1beta1 corpus upgraded to v1;
- for reference, the largest v1 CRD downgraded to v1beta1, and the share of the
  whole-corpus time spent in the final ``check_crd_manifest`` (the apiserver's
  validation every upgrade ends with).
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from crdtool.core.crd.manifest import check_crd_manifest
from crdtool.core.crd.upgrade import upgrade_crd

DEFAULT_CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"


def load(corpus: Path, version: str) -> list[tuple[str, dict[str, Any]]]:
    docs = []
    for path in sorted((corpus / "crds" / version).glob("*.yaml")):
        with path.open("rb") as f:
            for i, doc in enumerate(yaml.load_all(f, Loader=yaml.CSafeLoader)):
                if (isinstance(doc, dict) and doc.get("kind") == "CustomResourceDefinition"
                        and doc.get("apiVersion") == f"apiextensions.k8s.io/{version}"):
                    docs.append((f"{path.name}#{i}", doc))
    return docs


def median_time(fn: Any, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> int:
    corpus = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_CORPUS
    beta = load(corpus, "v1beta1")
    v1 = load(corpus, "v1")
    if not beta:
        print(f"no v1beta1 CRDs under {corpus}", file=sys.stderr)
        return 2
    size = {name: len(json.dumps(doc, default=str)) for name, doc in beta + v1}
    big_name, big = max(beta, key=lambda nd: size[nd[0]])
    print(f"corpus: {len(beta)} v1beta1 CRDs ({sum(size[n] for n, _ in beta) / 1e6:.1f} MB as JSON), "
          f"{len(v1)} v1 CRDs; python {sys.version.split()[0]}, pid {os.getpid()}")
    for fix in (False, True):
        label = "fix=True " if fix else "fix=False"
        one = median_time(lambda fix=fix: upgrade_crd(big, "v1", fix=fix), 7)
        print(f"[{label}] largest v1beta1 CRD {big_name} ({size[big_name] / 1e3:.0f} kB) -> v1, "
              f"median of 7: {one * 1000:.0f} ms")
        whole = median_time(lambda fix=fix: [upgrade_crd(doc, "v1", fix=fix) for _, doc in beta], 3)
        print(f"[{label}] whole v1beta1 corpus ({len(beta)} CRDs) -> v1, median of 3: {whole * 1000:.0f} ms "
              f"({whole / len(beta) * 1000:.1f} ms per CRD)")
    if v1:
        big1_name, big1 = max(v1, key=lambda nd: size[nd[0]])
        down = median_time(lambda: upgrade_crd(big1, "v1beta1"), 5)
        print(f"[reference] largest v1 CRD {big1_name} ({size[big1_name] / 1e3:.0f} kB) -> v1beta1, "
              f"median of 5: {down * 1000:.0f} ms")
    results = [upgrade_crd(doc, "v1")[0] for _, doc in beta]
    check = median_time(lambda: [check_crd_manifest(doc) for doc in results], 3)
    print(f"[reference] check_crd_manifest of the upgraded corpus alone, median of 3: {check * 1000:.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
