"""``crdtool docs`` on the whole corpus against ``crdtool validate`` on it (issue #32's goal: docs <= 4x).

Run: python benchmarks/bench_docs.py [--rounds N]

Prints, with the machine's load average before each figure, the wall time of
``crdtool validate ../shared/corpus/crds`` and of ``crdtool docs --format html|markdown --out TMP
../shared/corpus/crds`` (the median of N rounds, default 3, the commands alternating so that load
changes hit each alike), and the ratio docs / validate.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus" / "crds"


def crdtool() -> list[str]:
    exe = shutil.which("crdtool")
    return [exe] if exe else [sys.executable, "-m", "crdtool"]


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def wall(args: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run([*crdtool(), *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - start


def main() -> None:
    rounds = int(sys.argv[sys.argv.index("--rounds") + 1]) if "--rounds" in sys.argv else 3
    times: dict[str, list[float]] = {"validate": [], "docs html": [], "docs markdown": []}
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(rounds):
            for name in times:
                print(f"round {i + 1} {name}: load {load()}", flush=True)
                if name == "validate":
                    args = ["validate", str(CORPUS)]
                else:
                    args = ["docs", "--format", name.split()[1], "--out", os.path.join(tmp, f"{i}-{name.split()[1]}"), str(CORPUS)]
                times[name].append(wall(args))
                print(f"  {times[name][-1]:.2f} s", flush=True)
    base = statistics.median(times["validate"])
    print(f"load {load()}")
    for name, values in times.items():
        median = statistics.median(values)
        print(f"{name:14s} median {median:6.2f} s  ({', '.join(f'{v:.2f}' for v in values)})  x{median / base:.2f} of validate")


if __name__ == "__main__":
    main()
