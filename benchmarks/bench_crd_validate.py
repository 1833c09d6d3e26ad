"""CRD validation of the corpora, in process: this tree against a baseline commit.

Run: python benchmarks/bench_crd_validate.py [--baseline REF] [--runs N]

Loads every CRD document of ``../shared/corpus/crds`` and ``../shared/corpus-outside``
once (PyYAML's C loader, outside the timing), then, in a fresh interpreter per run,
times ``check_crd_manifest`` over all of them: the create path of ``crdtool validate``
without file reading and reporting. A fresh process per run, so the CEL compilation
caches start cold, as in one ``crdtool validate`` invocation.

With ``--baseline REF`` the same is timed on a temporary ``git worktree`` of REF
(default ``9f14499``, main before CEL rules were type-checked and cost-estimated at CRD
create), so one run prints both lines and the ratio. Issue #8's budget: the type
checking and cost estimation may make this at most 15% slower.

Prints the machine's load average before and after.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
CORPORA = (SHARED / "corpus" / "crds", SHARED / "corpus-outside")

CHILD = r"""
import sys, time, yaml
from pathlib import Path
files = sys.argv[1:]
docs = []
for f in files:
    with open(f, "rb") as fh:
        try:
            docs.extend(d for d in yaml.load_all(fh, Loader=yaml.CSafeLoader)
                        if isinstance(d, dict) and d.get("kind") == "CustomResourceDefinition"
                        and d.get("apiVersion") in ("apiextensions.k8s.io/v1", "apiextensions.k8s.io/v1beta1"))
        except yaml.YAMLError:
            pass
from crdtool.core.crd.manifest import check_crd_manifest
start = time.perf_counter()
valid = 0
for d in docs:
    try:
        valid += check_crd_manifest(d).valid
    except ValueError:
        pass
print(len(docs), valid, time.perf_counter() - start)
"""


def corpus_files() -> list[str]:
    out: list[str] = []
    for base in CORPORA:
        out.extend(str(p) for p in sorted(base.rglob("*")) if p.suffix in (".yaml", ".yml", ".json"))
    return out


def timed(tree: Path, files: list[str], runs: int) -> tuple[int, int, list[float]]:
    env = dict(os.environ, PYTHONPATH=str(tree))
    times: list[float] = []
    n = valid = 0
    for _ in range(runs):
        out = subprocess.run(
            [sys.executable, "-c", CHILD, *files], env=env, cwd=tree, capture_output=True, text=True, check=True
        ).stdout.split()
        n, valid, seconds = int(out[0]), int(out[1]), float(out[2])
        times.append(seconds)
    return n, valid, times


def line(label: str, n: int, valid: int, times: list[float]) -> str:
    med = statistics.median(times)
    runs = ", ".join(f"{t:.2f}" for t in times)
    return f"{label}: {n} CRDs ({valid} valid), median {med:.2f} s ({n / med:.0f} CRDs/s); runs: {runs}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--baseline", default="9f14499", help="git commit to compare with ('' to skip)")
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    files = corpus_files()
    print(f"load average before: {os.getloadavg()[0]:.2f} (2-core machine: {os.cpu_count()} CPUs)")
    n, valid, after = timed(ROOT, files, args.runs)
    print(line("this tree", n, valid, after))
    if args.baseline:
        with tempfile.TemporaryDirectory(prefix="crdtool-bench-") as tmp:
            wt = Path(tmp) / "baseline"
            subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(wt), args.baseline], check=True)
            try:
                bn, bvalid, before = timed(wt, files, args.runs)
            finally:
                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(wt)], check=False)
        print(line(f"baseline {args.baseline}", bn, bvalid, before))
        ratio = statistics.median(after) / statistics.median(before)
        print(f"this tree / baseline: {ratio:.2f}x (issue #8 budget: <= 1.15x)")
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
