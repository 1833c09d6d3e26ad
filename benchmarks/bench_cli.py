"""CLI start-up and whole-corpus validation time.

Run: python benchmarks/bench_cli.py [CORPUS_DIR]

Prints:
- start-up: median wall time of 10 runs of `crdtool sort-versions v1 v2` (target <= 150 ms);
- corpus: time of `crdtool validate CORPUS/crds` (median of 3) against the time PyYAML's C loader
  alone takes to parse the same files (target: within 2x).
"""

from __future__ import annotations

import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_CORPUS = ROOT.parent / "shared" / "corpus"


def crdtool_cmd() -> list[str]:
    exe = shutil.which("crdtool")
    return [exe] if exe else [sys.executable, "-m", "crdtool"]


def wall(cmd: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - start


def parse_only(files: list[Path]) -> float:
    start = time.perf_counter()
    for f in files:
        with f.open("rb") as fh:
            for _ in yaml.load_all(fh, Loader=yaml.CSafeLoader):
                pass
    return time.perf_counter() - start


def main() -> int:
    corpus = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_CORPUS
    cmd = crdtool_cmd()
    wall(cmd + ["sort-versions", "v1", "v2"])  # warm the page cache
    startup = [wall(cmd + ["sort-versions", "v1", "v2"]) for _ in range(10)]
    print(f"start-up (sort-versions v1 v2), median of 10: {statistics.median(startup) * 1000:.0f} ms (target <= 150 ms)")

    crds = corpus / "crds"
    files = sorted(p for p in crds.rglob("*") if p.suffix in (".yaml", ".yml", ".json"))
    size = sum(f.stat().st_size for f in files)
    parse = statistics.median(parse_only(files) for _ in range(3))
    validate_runs = [wall(cmd + ["validate", str(crds), "--output", "json"]) for _ in range(3)]
    validate = statistics.median(validate_runs)
    print(f"corpus: {len(files)} files, {size / 1e6:.1f} MB")
    print(f"PyYAML CSafeLoader parse only, median of 3: {parse * 1000:.0f} ms")
    print(f"crdtool validate (whole process incl. start-up), median of 3: {validate * 1000:.0f} ms")
    print(f"ratio validate / parse: {validate / parse:.2f}x (target <= 2x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
