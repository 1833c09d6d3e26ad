"""Built-in documents per second, and what loading one release's schema data costs.

Run: python benchmarks/bench_builtins.py [--copies N]

Prints, with the machine's load average (os.getloadavg()) before each figure:

1. the cost of one release's data in a fresh process (``python -c``; median of 3): wall and CPU ms
   (``time.perf_counter``, ``time.process_time``) and max RSS added (``resource.getrusage``), split into
   importing the create path's code (``crdtool.core.registry.create``) and the data's first use (the first
   ``kind_info`` and the creates of a Deployment, a Pod and a ClusterRole: the release's index, the kinds'
   definitions, their Go types, the strategies' modules), against the targets of issue 29 (loading one
   release's data <= 100 ms, <= 30 MB; the total is printed too);
2. ``crdtool validate --jobs 1`` over the built-in documents of ../shared/corpus and ../shared/corpus-outside
   (every document of a built-in API group, one per file, copied ``N`` times, default 10): documents/s, the
   median of 3 runs (start-up included, as a CI runs it).

The comparison with kubeconform and kubectl-validate is ``benchmarks/bench_peers.py``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
sys.path.insert(0, str(ROOT))


def _load() -> str:
    return f"load {' '.join(f'{x:.2f}' for x in os.getloadavg())}"


def data_cost() -> None:
    code = """
import resource, time
def now(): return time.perf_counter(), time.process_time(), resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
t0 = now()
from crdtool.core.builtin import catalog
from crdtool.core.registry.create import create_builtin
t1 = now()
catalog.kind_info("1.37", "apps/v1", "Deployment")
for obj in ({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "d"}, "spec": {"replicas": 1}},
            {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}, "spec": {"containers": [{"name": "a"}]}},
            {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole", "metadata": {"name": "r"}}):
    create_builtin(obj, "1.37")
t2 = now()
for a, b in ((t0, t1), (t1, t2), (t0, t2)):
    print((b[0] - a[0]) * 1000, (b[1] - a[1]) * 1000, (b[2] - a[2]) / 1024)
"""
    runs = []
    for _ in range(3):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
        runs.append([float(x) for x in out.stdout.split()])
    med = [statistics.median(r[i] for r in runs) for i in range(9)]
    for label, i in (("import of the create path's code", 0), ("first use of 1.37's data (kind_info + 3 creates)", 3),
                     ("total", 6)):
        print(f"[{_load()}] {label}: {med[i]:.0f} ms wall, {med[i + 1]:.0f} ms CPU, +{med[i + 2]:.1f} MB max RSS")
    print("targets of issue 29 for loading one release's data: <= 100 ms, <= 30 MB")


def builtin_documents() -> list[dict[str, Any]]:
    from crdtool.core.builtin import catalog, lifecycle
    from crdtool.core.crd.manifest import is_crd
    from crdtool.yaml.loader import Document, load_path

    groups = {k.group for minor in range(30, 38) for k in catalog.kinds(minor)} | {g[0] for g in lifecycle.LIFECYCLE}
    out = []
    for root in (SHARED / "corpus", SHARED / "corpus-outside"):
        for path in sorted(root.rglob("*")):
            if path.suffix not in (".yaml", ".yml", ".json") or not path.is_file():
                continue
            for doc in load_path(str(path)):
                data = doc.data if isinstance(doc, Document) else None
                if isinstance(data, dict) and not is_crd(data) and isinstance(data.get("apiVersion"), str) \
                        and data["apiVersion"].rpartition("/")[0] in groups:
                    out.append(data)
    return out


def _time(cmd: list[str], runs: int = 3) -> float:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--copies", type=int, default=10)
    args = parser.parse_args()
    data_cost()
    docs = builtin_documents()
    tmp = Path(tempfile.mkdtemp(prefix="bench-builtins-"))
    try:
        n = 0
        for copy in range(args.copies):
            for i, obj in enumerate(docs):
                (tmp / f"{copy:03d}-{i:04d}.yaml").write_text(yaml.safe_dump(obj, sort_keys=False))
                n += 1
        seconds = _time([sys.executable, "-m", "crdtool", "validate", str(tmp), "--jobs", "1", "--quiet",
                         "--kubernetes-version", "1.35"])
        print(f"[{_load()}] crdtool validate --jobs 1: {n} built-in documents ({len(docs)} distinct) in "
              f"{seconds:.2f} s = {n / seconds:.0f} documents/s")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
