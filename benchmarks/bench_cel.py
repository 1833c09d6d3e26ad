"""CEL rule evaluation speed on Gateway API HTTPRoute objects.

Run: python benchmarks/bench_cel.py [N]

Builds N (default 2000) HTTPRoute objects of varying shape (1-4 rules, 1-3 matches, filters,
backendRefs, parentRefs), prunes and defaults them with the v1.6.1 standard CRD, then times
``validate_cel`` over all of them (after one warm-up pass that compiles the 178 rules), on each cost
path (``auto``: static bounds, ``exact``: cel-go's runtime cost tracker on every rule). Prints the
machine load, objects/s, rule evaluations/s, the mean time per evaluation, and the share of the
time spent in the interpreter (cel-go port) versus value conversion and the validator walk.
"""

from __future__ import annotations

import cProfile
import os
import pstats
import sys
import time
from pathlib import Path
from typing import Any

import yaml

from crdtool.core.errors import Path as FieldPath
from crdtool.core.crdcel.validation import validate_cel
from crdtool.core.schema.defaulting import default
from crdtool.core.schema.pruning import prune
from crdtool.core.schema.structural import new_structural

ROOT = Path(__file__).resolve().parents[1]
CRD = ROOT.parent / "shared" / "corpus" / "crds" / "v1" / "gateway-api__v1.6.1__standard__httproutes.yaml"


def make_route(i: int) -> dict[str, Any]:
    """A valid HTTPRoute whose size varies with ``i``."""
    rules = []
    for r in range(1 + i % 4):
        matches = [
            {"path": {"type": "PathPrefix", "value": f"/app{i}/r{r}/m{m}"},
             "headers": [{"name": f"x-h{m}", "value": "v"}]}
            for m in range(1 + (i + r) % 3)
        ]
        filters = [{"type": "RequestHeaderModifier", "requestHeaderModifier": {"set": [{"name": "x", "value": "y"}]}}]
        if r % 2:
            filters.append({"type": "URLRewrite", "urlRewrite": {"hostname": f"h{i}.example.com"}})
        rules.append({
            "matches": matches,
            "filters": filters,
            "backendRefs": [{"name": f"svc-{i}-{b}", "port": 8080 + b, "weight": 1} for b in range(1 + r % 2)],
            "timeouts": {"request": "10s", "backendRequest": "5s"},
        })
    return {
        "apiVersion": "gateway.networking.k8s.io/v1",
        "kind": "HTTPRoute",
        "metadata": {"name": f"route-{i}", "namespace": "default"},
        "spec": {
            "parentRefs": [{"name": "gw", "sectionName": f"s{p}"} for p in range(1 + i % 2)],
            "hostnames": [f"app{i}.example.com"],
            "rules": rules,
        },
    }


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    doc = yaml.safe_load(CRD.read_text())
    (version,) = [v for v in doc["spec"]["versions"] if v["name"] == "v1"]
    schema = version["schema"]["openAPIV3Schema"]
    ss = new_structural(schema)
    objects = [default(prune(make_route(i), schema)[0], schema) for i in range(n)]

    warm = validate_cel(objects[0], ss, FieldPath(""))
    assert not warm.errors, warm.errors

    from crdtool.core.crdcel import validation as cel_eval

    calls = 0
    original = cel_eval._run

    def counting(*args: Any) -> Any:
        nonlocal calls
        calls += 1
        return original(*args)

    cel_eval._run = counting  # type: ignore[assignment]
    try:
        for obj in objects:
            validate_cel(obj, ss, FieldPath(""))
    finally:
        cel_eval._run = original  # type: ignore[assignment]

    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())} ({os.cpu_count()} CPUs)")
    print(f"objects: {n} HTTPRoutes (v1.6.1 standard CRD, 178 rules)")
    print(f"rule evaluations: {calls} ({calls / n:.1f} per object)")
    for cost_path in ("auto", "exact"):
        start = time.perf_counter()
        failures = 0
        for obj in objects:
            failures += bool(validate_cel(obj, ss, FieldPath(""), cost_path=cost_path).errors)
        elapsed = time.perf_counter() - start
        print(f"validate_cel ({cost_path}): {n / elapsed:,.0f} objects/s, {calls / elapsed:,.0f} evaluations/s, "
              f"{elapsed / calls * 1e6:.1f} us per evaluation, invalid: {failures}")

    profiler = cProfile.Profile()
    profiler.enable()
    for obj in objects[: min(n, 500)]:
        validate_cel(obj, ss, FieldPath(""))
    profiler.disable()
    stats = pstats.Stats(profiler)
    total = stats.total_tt  # type: ignore[attr-defined]
    by_name: dict[str, float] = {}
    for (filename, _, func), (_, _, _, cumtime, _) in stats.stats.items():  # type: ignore[attr-defined]
        by_name[f"{Path(filename).name}:{func}"] = max(by_name.get(f"{Path(filename).name}:{func}", 0.0), cumtime)
    engine = by_name.get("interpreter.py:eval_bounded", 0.0)
    convert = by_name.get("unstructured.py:unstructured_to_val", 0.0)
    print(f"profile share (auto): interpreter {engine / total:.0%}, value conversion {convert / total:.0%}, "
          f"validator walk and the rest {(total - engine - convert) / total:.0%}")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
