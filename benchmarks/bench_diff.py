"""``crdtool diff`` timings: the largest corpus release pair, and ``--objects`` over 10,000 objects.

Run: python benchmarks/bench_diff.py [N] [--seed S]

1. ``crdtool diff`` (a fresh process, as in CI) of gateway-api's HTTPRoute CRD v1.0.0 -> v1.6.1,
   the largest of the corpus's release pairs (327 kB -> 429 kB of YAML; 178 CEL rules in v1.6.1):
   median wall time of 3 runs, text and JSON output;
2. ``crdtool diff ... --objects FILE`` where FILE is a ``kubectl get -A -o yaml``-style ``List`` of N
   (default 10,000) HTTPRoutes generated from the v1.0.0 schema (seeded; the generator of
   ``bench_customresource.py``): wall time, and objects/s of the no-op update checks alone (that time
   minus run 1's);
3. the core alone: objects/s of ``apply_update(obj, obj, new_crd)`` in this process.

Prints the machine's load average before and after: figures on a busy machine are slower.
"""

from __future__ import annotations

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
sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_customresource import Generator  # noqa: E402

CORPUS = ROOT.parent / "shared" / "corpus" / "crds" / "v1"
OLD = CORPUS / "gateway-api__v1.0.0__standard__httproutes.yaml"
NEW = CORPUS / "gateway-api__v1.6.1__standard__httproutes.yaml"


def wall(args: list[str], repeat: int = 3) -> tuple[float, int]:
    """Median seconds of ``repeat`` runs of ``crdtool`` with ``args``, and the exit status."""
    runs, status = [], 0
    env = {**os.environ, "NO_COLOR": "1"}
    for _ in range(repeat):
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "crdtool", *args], capture_output=True, env=env, check=False)
        runs.append(time.perf_counter() - start)
        status = done.returncode
        if b"Traceback" in done.stderr:
            raise SystemExit(done.stderr.decode())
    return statistics.median(runs), status


def generate(n: int, seed: int) -> list[dict[str, Any]]:
    from crdtool.core.customresource import prepare_crd

    schema = prepare_crd(yaml.load(OLD.read_text(), Loader=yaml.CSafeLoader)).version("v1").schema  # type: ignore[union-attr]
    assert schema is not None
    gen = Generator(seed)
    return [
        {
            "apiVersion": "gateway.networking.k8s.io/v1",
            "kind": "HTTPRoute",
            "metadata": {
                "name": f"route-{i}",
                "namespace": f"team-{i % 20}",
                "resourceVersion": str(1000 + i),
                "uid": f"00000000-0000-4000-8000-{i:012d}",
                "generation": 1,
                "creationTimestamp": "2024-05-01T10:00:00Z",
            },
            "spec": gen.object(schema["properties"]["spec"], 1),
        }
        for i in range(n)
    ]


def main() -> int:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    n = int(args[0]) if args else 10_000
    seed = int(sys.argv[sys.argv.index("--seed") + 1]) if "--seed" in sys.argv else 20240501
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())} ({os.cpu_count()} CPUs)")
    print(f"pair: {OLD.name} ({OLD.stat().st_size / 1e3:.0f} kB) -> {NEW.name} ({NEW.stat().st_size / 1e3:.0f} kB)")

    t_text, status = wall(["diff", str(OLD), str(NEW)])
    t_json, _ = wall(["diff", str(OLD), str(NEW), "--output", "json"])
    print(f"crdtool diff (text): {t_text:.2f} s   (json: {t_json:.2f} s; exit {status})")

    objects = generate(n, seed)
    with tempfile.TemporaryDirectory() as tmp:
        dump = Path(tmp) / "httproutes.yaml"
        dump.write_text(yaml.dump({"apiVersion": "v1", "kind": "List", "items": objects}, Dumper=yaml.CSafeDumper))
        print(f"objects: {n} HTTPRoutes generated (seed {seed}), {dump.stat().st_size / 1e6:.1f} MB of YAML")
        t_objects, status = wall(["diff", str(OLD), str(NEW), "--objects", str(dump), "--output", "json"], repeat=1)
        done = subprocess.run(
            [sys.executable, "-m", "crdtool", "diff", str(OLD), str(NEW), "--objects", str(dump), "--output", "json"],
            capture_output=True, check=False,
        )
    import json

    report = json.loads(done.stdout)
    tally: dict[str, int] = {}
    for o in report["objects"]:
        tally[o["status"]] = tally.get(o["status"], 0) + 1
    per_object = t_objects - t_json
    print(f"crdtool diff --objects ({n} objects): {t_objects:.1f} s; the object checks {per_object:.1f} s = {n / per_object:,.0f} objects/s")
    print(f"  verdicts: {tally}")

    from crdtool.core.customresource import prepare_crd
    from crdtool.core.customresource import apply_update

    crd = prepare_crd(yaml.load(NEW.read_text(), Loader=yaml.CSafeLoader))
    sample = objects[: min(n, 2000)]
    start = time.perf_counter()
    for obj in sample:
        apply_update(obj, obj, crd, field_validation="Ignore")
    core = time.perf_counter() - start
    print(f"core apply_update (no-op update, ratcheting, CEL): {len(sample) / core:,.0f} objects/s over {len(sample)}")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
