"""Issue #19's figures: one Kubernetes release against another, the matrix against one release, and today
against an earlier commit.

Run: python benchmarks/bench_releases.py [--repeat R] [--baseline REF ...] [--quick]

Prints, each with the machine's load average before and after (the machine is shared: rerun and compare
the runs with the lowest load):

1. ``crdtool validate --output json ../shared/corpus`` (whole processes, median of R) under the default
   release, under ``--kubernetes-version 1.30``, and the matrix ``--kubernetes-version all`` (8 releases);
   target: the matrix costs less than 3x one release;
2. library throughput: ``validate_object`` of 2,000 Gateway API v1.6.1 HTTPRoutes (renamed copies of
   ``../shared/corpus/crs``) against the CRD prepared once per release (``prepare_crd(crd, "1.30")`` ...),
   objects/s, median of R passes, for 1.30, 1.36 and 1.37;
3. with ``--baseline REF`` (repeatable; e.g. ``b51198d``, the last commit before #19): section 1's
   single-release command and ``crdtool sort-versions v1 v2`` run from a temporary worktree of REF (its
   sources on ``PYTHONPATH``, pure Python as this checkout is), interleaved with this checkout's, and the
   ratio now / REF; target for #19: within 5%.

Nothing here is asserted: the script prints figures and says which targets were met; the exit status is 0.
"""

from __future__ import annotations

import argparse
import copy
import os
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
CORPUS = SHARED / "corpus"
HTTPROUTE_CRD = CORPUS / "crds" / "v1" / "gateway-api__v1.6.1__standard__httproutes.yaml"
COPIES = 2000


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} cores"


def run_cli(args: list[str], tree: Path = ROOT) -> float:
    """Wall seconds of ``python -m crdtool ARGS`` with ``tree``'s sources first on the path."""
    env = {**os.environ, "NO_COLOR": "1", "PYTHONPATH": str(tree)}
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "crdtool", *args], env=env, cwd=ROOT, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - start


def median_cli(args: list[str], repeat: int, tree: Path = ROOT) -> float:
    return statistics.median(run_cli(args, tree) for _ in range(repeat))


def section_cli(repeat: int) -> None:
    print(f"\n1. crdtool validate --output json {CORPUS} (median of {repeat}); {load()}")
    base = ["validate", "--output", "json", str(CORPUS)]
    single = median_cli(base, repeat)
    print(f"   default release (1.37):        {single:7.2f} s")
    old = median_cli([*base, "--kubernetes-version", "1.30"], repeat)
    print(f"   --kubernetes-version 1.30:      {old:7.2f} s  ({old / single:.2f}x the default)")
    matrix = median_cli([*base, "--kubernetes-version", "all"], repeat)
    verdict = "met" if matrix < 3 * single else "NOT met"
    print(f"   --kubernetes-version all (8):   {matrix:7.2f} s  ({matrix / single:.2f}x one release; target < 3x: {verdict})")
    print(f"   {load()}")


def _routes() -> list[dict[str, Any]]:
    objects = []
    for path in sorted((CORPUS / "crs").glob("*.yaml")):
        for doc in yaml.safe_load_all(path.read_text()):
            if isinstance(doc, dict) and doc.get("kind") == "HTTPRoute" and doc.get("apiVersion", "").startswith("gateway.networking.k8s.io/"):
                objects.append(doc)
    out = []
    for i in range(COPIES):
        obj = copy.deepcopy(objects[i % len(objects)])
        obj.setdefault("metadata", {})["name"] = f"route-{i}"
        out.append(obj)
    return out


def section_library(repeat: int) -> None:
    from crdtool.core.customresource import prepare_crd, validate_object

    crd = yaml.safe_load(HTTPROUTE_CRD.read_text())
    routes = _routes()
    print(f"\n2. validate_object: {COPIES} HTTPRoutes against the CRD prepared per release (median of {repeat}); {load()}")
    rates = {}
    for release in ("1.30", "1.36", "1.37"):
        prepared = prepare_crd(crd, release)
        validate_object(routes[0], prepared)  # compile the rules once, as a long run would
        times = []
        for _ in range(repeat):
            start = time.perf_counter()
            for obj in routes:
                validate_object(obj, prepared)
            times.append(time.perf_counter() - start)
        rates[release] = COPIES / statistics.median(times)
        print(f"   {release}: {rates[release]:8.0f} objects/s  ({rates[release] / rates.get('1.30', rates[release]):.2f}x 1.30)")
    print(f"   {load()}")


def section_baseline(refs: list[str], repeat: int) -> None:
    base = ["validate", "--output", "json", str(CORPUS)]
    for ref in refs:
        with tempfile.TemporaryDirectory() as tmp:
            tree = Path(tmp) / "tree"
            subprocess.run(["git", "worktree", "add", "--detach", str(tree), ref], cwd=ROOT, check=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            try:
                print(f"\n3. today against {ref} (interleaved, median of {repeat}); {load()}")
                for label, args in (("validate corpus", base), ("sort-versions v1 v2", ["sort-versions", "v1", "v2"])):
                    runs = 3 * repeat if args[0] == "sort-versions" else repeat
                    now, then = [], []
                    for _ in range(runs):
                        then.append(run_cli(args, tree))
                        now.append(run_cli(args))
                    a, b = statistics.median(now), statistics.median(then)
                    verdict = "met" if a <= 1.05 * b else "NOT met"
                    print(f"   {label:20} now {a * 1000:8.0f} ms  {ref} {b * 1000:8.0f} ms  ratio {a / b:.3f} "
                          f"(target <= 1.05: {verdict})")
                print(f"   {load()}")
            finally:
                subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT, check=False,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--baseline", action="append", default=[], metavar="REF")
    parser.add_argument("--quick", action="store_true", help="one repetition (a smoke test)")
    args = parser.parse_args()
    repeat = 1 if args.quick else args.repeat
    print(f"crdtool benchmarks (releases); python {sys.version.split()[0]}; {load()}")
    section_cli(repeat)
    section_library(repeat)
    section_baseline(args.baseline, repeat)


if __name__ == "__main__":
    main()
