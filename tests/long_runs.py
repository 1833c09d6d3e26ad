"""Choose the long runs from a timed run of the default tier (``tests/timing_plugin.py``) and write
``tests/long_runs.txt``: every test that took at least THRESHOLD seconds of CPU, except the cheapest test of a file
whose tests would all go (each module keeps a test in the default tier), added to the long runs listed already
(the timed run does not run those). The corpus tier runs them
(``tests/conftest.py``); the default tier must stay within 3 minutes on the project's 2-core machine.

    CPU_OUT=/tmp/cpu.json python -m pytest -q -p no:cacheprovider -p tests.timing_plugin
    python tests/long_runs.py /tmp/cpu.json
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from pathlib import Path

THRESHOLD = 0.05  # seconds of CPU (the test's process and its children)
OUT = Path(__file__).resolve().parent / "long_runs.txt"
HEADER = (
    "# The long runs, chosen by tests/long_runs.py from a timed run of the default tier: CPU seconds, node id.\n"
    "# The corpus tier runs them; the default tier does not (tests/conftest.py). Regenerate, do not edit.\n"
)


def choose(timings: dict[str, dict[str, float]], threshold: float = THRESHOLD) -> dict[str, float]:
    """``{node id: CPU seconds}`` of the long runs among ``timings`` (``{node id: {"cpu", "child", "wall"}}``)."""
    cost = {k: v["cpu"] + v["child"] for k, v in timings.items()}
    by_file: dict[str, list[str]] = defaultdict(list)
    for k in cost:
        by_file[k.split("::", 1)[0]].append(k)
    out: dict[str, float] = {}
    for ids in by_file.values():
        long = [k for k in ids if cost[k] >= threshold]
        if len(long) == len(ids):
            long.remove(min(long, key=lambda k: cost[k]))
        out.update((k, cost[k]) for k in long)
    return out


def previous() -> dict[str, float]:
    """The long runs :data:`OUT` lists now (``{node id: CPU seconds}``)."""
    out: dict[str, float] = {}
    if OUT.is_file():
        for line in OUT.read_text(encoding="utf-8").splitlines():
            if line.strip() and not line.startswith("#"):
                seconds, _, nodeid = line.partition("\t")
                out[nodeid] = float(seconds)
    return out


def main(argv: list[str]) -> None:
    timings = json.loads(Path(argv[1]).read_text(encoding="utf-8"))
    # the timed run of the default tier deselects the long runs listed already: they stay long runs
    chosen = {k: v for k, v in previous().items() if k not in timings}
    chosen.update(choose(timings))
    lines = [f"{cost:.2f}\t{k}\n" for k, cost in sorted(chosen.items(), key=lambda kv: kv[0])]
    OUT.write_text(HEADER + "".join(lines), encoding="utf-8")
    kept = sum(v["cpu"] + v["child"] for k, v in timings.items() if k not in chosen)
    print(f"{len(chosen)} long runs ({sum(chosen.values()):.0f} s of CPU); the default tier keeps {kept:.0f} s")


if __name__ == "__main__":
    main(sys.argv)
