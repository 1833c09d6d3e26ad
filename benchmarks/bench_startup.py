"""Start-up of the commands that need no schema engine, and of validating one small CRD, over `python -c pass`.

Run: python benchmarks/bench_startup.py [RUNS]

Runs each command RUNS times (default 20), round-robin so that a burst of load on the machine hits every
command alike, and prints the median wall time of each minus the median of `python -c pass` with the same
interpreter, against issue #21's targets: --version, --help, sort-versions and completion within 60 ms of
it, validate of one small CRD within 150 ms. The machine's load average is printed before and after
(os.getloadavg()): other processes sharing the cores make every figure larger.
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
SAMPLE = ROOT / "samples" / "crontab-v1.yaml"


def crdtool() -> list[str]:
    exe = shutil.which("crdtool")
    return [exe] if exe else [sys.executable, "-m", "crdtool"]


COMMANDS: dict[str, tuple[list[str], int | None]] = {
    "python -c pass": ([sys.executable, "-c", "pass"], None),
    "crdtool --version": (crdtool() + ["--version"], 60),
    "crdtool --help": (crdtool() + ["--help"], 60),
    "crdtool sort-versions v1 v2": (crdtool() + ["sort-versions", "v1", "v2"], 60),
    "crdtool completion bash": (crdtool() + ["completion", "bash"], 60),
    "crdtool validate samples/crontab-v1.yaml": (crdtool() + ["validate", str(SAMPLE)], 150),
}


def wall(cmd: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, cwd=ROOT)
    return time.perf_counter() - start


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> int:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    print(f"load average before: {load()} ({os.cpu_count()} CPUs); {runs} runs each, round-robin")
    for cmd, _ in COMMANDS.values():  # warm the page cache
        wall(cmd)
    times: dict[str, list[float]] = {name: [] for name in COMMANDS}
    for _ in range(runs):
        for name, (cmd, _) in COMMANDS.items():
            times[name].append(wall(cmd))
    base = statistics.median(times["python -c pass"])
    print(f"{'command':45} {'median':>8} {'- pass':>8}  target")
    for name, (_, target) in COMMANDS.items():
        median = statistics.median(times[name])
        over = (median - base) * 1000
        verdict = "" if target is None else f"<= {target} ms: {'met' if over <= target else 'MISSED'}"
        print(f"{name:45} {median * 1000:6.0f} ms {over:6.0f} ms  {verdict}")
    print(f"load average after: {load()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
