"""`crdtool lint` of the whole corpus against `crdtool validate` of it (issue #22: lint < 2x validate).

Run: python benchmarks/bench_lint.py [CORPUS_DIR...]

For each corpus (default: ../shared/corpus and ../shared/corpus-outside) prints the median wall time of
3 runs of `crdtool validate DIR --output json` and of `crdtool lint DIR --output json` (the default codes:
the CEL cost breakdown with its fix searches, and the convention checks; `--select ALL` too), their
ratio, and the machine's load average before and after (other processes on the machine slow both).
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_CORPORA = [ROOT.parent / "shared" / "corpus", ROOT.parent / "shared" / "corpus-outside"]


def crdtool_cmd() -> list[str]:
    exe = shutil.which("crdtool")
    return [exe] if exe else [sys.executable, "-m", "crdtool"]


def wall(cmd: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - start


def median(cmd: list[str], runs: int = 3) -> float:
    return statistics.median(wall(cmd) for _ in range(runs))


def main() -> int:
    corpora = [Path(p) for p in sys.argv[1:]] or DEFAULT_CORPORA
    cmd = crdtool_cmd()
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())} ({os.cpu_count()} CPUs)")
    wall(cmd + ["sort-versions", "v1"])  # warm the page cache and the bytecode
    worst = 0.0
    for corpus in corpora:
        validate = median(cmd + ["validate", str(corpus), "--output", "json"])
        lint = median(cmd + ["lint", str(corpus), "--output", "json"])
        lint_all = median(cmd + ["lint", str(corpus), "--output", "json", "--select", "ALL"])
        worst = max(worst, lint / validate, lint_all / validate)
        print(f"{corpus.name}: validate {validate:.2f} s, lint {lint:.2f} s ({lint / validate:.2f}x), "
              f"lint --select ALL {lint_all:.2f} s ({lint_all / validate:.2f}x)  [median of 3]")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"worst lint/validate ratio: {worst:.2f}x (target < 2x)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
