"""``validate_cel`` throughput on the corpus's real HTTPRoute objects.

Run: python benchmarks/bench_cel_httproute.py [N]

Takes every ``HTTPRoute`` of ``../shared/corpus/crs`` (Gateway API v1.0.0 and v1.6.1 examples,
the v1.0.0 ``INVALID`` ones included), prunes and defaults each with its CRD's ``v1`` schema
(v1.6.1 objects with the experimental CRD, a superset of the standard one; v1.0.0 objects with
the v1.0.0 standard CRD), makes N (default 2000) copies with distinct names, and times
``validate_cel`` over them after one warm-up pass (which compiles the rules). Prints the machine
load, objects/s, and how many objects CEL rejected. With ``cost_path`` available (the evaluator
since the cel-go interpreter port), it also times each cost path: ``auto`` (static bounds, exact
re-run only when a limit could trip), ``exact`` (cel-go's runtime cost tracker on every rule).
"""

from __future__ import annotations

import copy
import inspect
import os
import sys
import time
from pathlib import Path
from typing import Any

import yaml

from crdtool.core.errors import Path as FieldPath
from crdtool.core.crdcel.validation import validate_cel
from crdtool.core.schema.defaulting import default
from crdtool.core.schema.pruning import prune
from crdtool.core.schema.structural import Structural, new_structural

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus"
CRDS = {
    "v1.0.0": CORPUS / "crds" / "v1" / "gateway-api__v1.0.0__standard__httproutes.yaml",
    "v1.6.1": CORPUS / "crds" / "v1" / "gateway-api__v1.6.1__experimental__httproutes.yaml",
}


def load_schema(path: Path) -> dict[str, Any]:
    doc = yaml.safe_load(path.read_text())
    (version,) = [v for v in doc["spec"]["versions"] if v["name"] == "v1"]
    return version["schema"]["openAPIV3Schema"]  # type: ignore[no-any-return]


def corpus_routes() -> list[tuple[dict[str, Any], Structural, dict[str, Any]]]:
    """(object, structural schema, schema) for every HTTPRoute document of the corpus."""
    schemas = {ref: load_schema(path) for ref, path in CRDS.items()}
    structurals = {ref: new_structural(s) for ref, s in schemas.items()}
    out = []
    for path in sorted((CORPUS / "crs").glob("gateway-api__*.yaml")):
        ref = path.name.split("__")[1]
        for doc in yaml.safe_load_all(path.read_text()):
            if isinstance(doc, dict) and doc.get("kind") == "HTTPRoute" and ref in schemas:
                out.append((doc, structurals[ref], schemas[ref]))
    return out


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    routes = corpus_routes()
    work: list[tuple[dict[str, Any], Structural]] = []
    for i in range(n):
        obj, ss, schema = routes[i % len(routes)]
        obj = copy.deepcopy(obj)
        obj.setdefault("metadata", {})["name"] = f"route-{i}"
        work.append((default(prune(obj, schema)[0], schema), ss))
    for obj, ss in work[: len(routes)]:
        validate_cel(obj, ss, FieldPath(""))  # warm-up: compiles every rule

    paths = ["auto", "exact"] if "cost_path" in inspect.signature(validate_cel).parameters else [None]
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())} ({os.cpu_count()} CPUs)")
    print(f"objects: {n} copies of the {len(routes)} corpus HTTPRoutes")
    for cost_path in paths:
        kw: dict[str, Any] = {} if cost_path is None else {"cost_path": cost_path}
        best = 0.0
        rejected = 0
        for _ in range(3):
            rejected = 0
            start = time.perf_counter()
            for obj, ss in work:
                rejected += bool(validate_cel(obj, ss, FieldPath(""), **kw).errors)
            best = max(best, n / (time.perf_counter() - start))
        label = f" (cost path: {cost_path})" if cost_path else ""
        print(f"validate_cel{label}: {best:,.0f} objects/s (best of 3), rejected by CEL: {rejected}")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
