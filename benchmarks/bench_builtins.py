"""Built-in documents per second, and what loading one release's schema data costs.

Run: python benchmarks/bench_builtins.py [--copies N] [--kubeconform PATH] [--kubectl-validate PATH]

Prints, with the machine's load average (os.getloadavg()) before each figure:

1. the cost of one release's data: wall time and RSS added by the first ``kind_info`` + strict decode of a
   Deployment, a Pod and a ClusterRole in a fresh process (``python -c``, ``resource.getrusage`` max RSS
   before/after, ms from ``time.perf_counter``), against the targets of issue 29 (<= 100 ms, <= 30 MB);
2. ``crdtool validate --jobs 1`` over the built-in documents of ../shared/corpus and ../shared/corpus-outside
   (every document of a built-in API group, one per file, copied ``N`` times, default 10): documents/s, the
   median of 3 runs (start-up included, as a CI runs it);
3. the same files with kubeconform (``-n 1 -summary``) and kubectl-validate when given their binaries
   (``--kubeconform``, ``--kubectl-validate``); without, "not measured" is printed — never a figure not run.
   kubeconform needs the JSON Schemas of the kubernetes-validate package with ``$ref`` made relative
   (``-schema-location``: pass it with ``--kubeconform-schemas``).
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
t0 = time.perf_counter(); r0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
from crdtool.core.registry.create import create_builtin
for obj in ({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "d"}, "spec": {"replicas": 1}},
            {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}, "spec": {"containers": [{"name": "a"}]}},
            {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole", "metadata": {"name": "r"}}):
    create_builtin(obj, "1.37")
t1 = time.perf_counter(); r1 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(f"{(t1 - t0) * 1000:.0f} {(r1 - r0) / 1024:.1f}")
"""
    runs = []
    for _ in range(3):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
        ms, mb = out.stdout.split()
        runs.append((float(ms), float(mb)))
    ms = statistics.median(r[0] for r in runs)
    mb = statistics.median(r[1] for r in runs)
    print(f"[{_load()}] first use of 1.37's data (import + 3 creates): {ms:.0f} ms, +{mb:.1f} MB max RSS "
          f"(targets: <= 100 ms, <= 30 MB)")


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
    parser.add_argument("--kubeconform")
    parser.add_argument("--kubeconform-schemas")
    parser.add_argument("--kubectl-validate")
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
        if args.kubeconform:
            cmd = [args.kubeconform, "-n", "1", "-summary", "-kubernetes-version", "1.35.0"]
            if args.kubeconform_schemas:
                cmd += ["-schema-location", args.kubeconform_schemas]
            seconds = _time([*cmd, str(tmp)])
            print(f"[{_load()}] kubeconform -n 1: {n} documents in {seconds:.2f} s = {n / seconds:.0f} documents/s")
        else:
            print("kubeconform: not measured (no binary given: --kubeconform PATH)")
        if args.kubectl_validate:
            seconds = _time([args.kubectl_validate, str(tmp), "--version", "1.35"], runs=1)
            print(f"[{_load()}] kubectl-validate: {n} documents in {seconds:.2f} s = {n / seconds:.0f} documents/s")
        else:
            print("kubectl-validate: not measured (no binary given: --kubectl-validate PATH)")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
