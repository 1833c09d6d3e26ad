"""Round trips per second of `crdtool fuzz-roundtrip`, on the CronTab and on a large corpus CRD.

Run: python benchmarks/bench_fuzz.py [EXAMPLES] [CORPUS_DIR]

Prints, for every source version, the examples checked per ordered pair and round trips per second
(one example = generate a valid object at A once, then for every version B: convert A -> B, check
metadata and schema, convert back, compare), including hypothesis's own overhead, in one process
as ``crdtool fuzz-roundtrip`` runs each source (``run_source``, several objects per hypothesis example
for small schemas, ``objects_per_example``;
the CLI also runs the sources in parallel processes when cores are free, see bench_speed.py):

- CronTab (samples/crontab-multiversion-v1.yaml) with samples/crontab_conversion.py's
  lossless converter, EXAMPLES per pair (default 1000: the issue's done-when;
  every pair must pass);
- gateway-api HTTPRoute v1.6.1 (a ~430 KB CRD with CEL rules, versions v1 and
  v1beta1 sharing one schema) with a converter that only rewrites apiVersion,
  EXAMPLES // 10 per pair; with and without the full apiserver validation (CEL rules).
"""

from __future__ import annotations

import copy
import sys
import time
from pathlib import Path
from typing import Any, Callable

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "samples"))

from crdtool.core.fuzz import apiserver_validator, versions_from_crd  # noqa: E402
from crdtool.core.fuzz.properties import objects_per_example, run_source  # noqa: E402

DEFAULT_CORPUS = ROOT.parent / "shared" / "corpus"
LARGE_CRD = "crds/v1/gateway-api__v1.6.1__standard__httproutes.yaml"


def set_api_version(obj: dict[str, Any], desired: str) -> dict[str, Any]:
    out = copy.deepcopy(obj)
    out["apiVersion"] = desired
    return out


def bench(title: str, crd_path: Path, convert: Callable[..., Any], examples: int, *, cel: bool) -> bool:
    with crd_path.open("rb") as f:
        crd = yaml.load(f, Loader=yaml.CSafeLoader)
    versions = versions_from_crd(crd)
    extra = apiserver_validator(crd) if cel else None
    what = "full apiserver validation (CEL, scale)" if extra else "schema validation only"
    print(f"{title}: {crd_path.name}, {examples} examples per pair, {what}")
    ok = True
    total_examples = 0
    total_seconds = 0.0
    for a in versions:
        start = time.perf_counter()
        results = run_source(convert, a, versions, examples=examples, seed=1, timeout=5.0, extra=extra,
                             per_example=objects_per_example(a))
        seconds = time.perf_counter() - start
        checked = sum(r.examples for r in results)
        total_examples += checked
        total_seconds += seconds
        for result in results:
            status = "ok" if result.ok else f"FAILED ({result.failure.property if result.failure else result.gave_up})"
            print(f"  {a.version:>8} -> {result.to_version:<8} {result.examples:5d} examples  {status}")
            ok = ok and result.ok
        print(f"  {a.version:>8} -> all      {checked:5d} round trips in {seconds:7.2f} s = {checked / seconds:8.1f}/s")
    print(f"  total: {total_examples} examples in {total_seconds:.1f} s = {total_examples / total_seconds:.1f} round trips/s")
    return ok


def main() -> int:
    examples = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    corpus = Path(sys.argv[2]) if len(sys.argv) > 2 else DEFAULT_CORPUS
    import crontab_conversion

    ok = bench("CronTab, lossless converter", ROOT / "samples" / "crontab-multiversion-v1.yaml",
               crontab_conversion.convert_lossless, examples, cel=True)
    large = corpus / LARGE_CRD
    if large.exists():
        ok = bench("HTTPRoute, apiVersion-only converter", large, set_api_version, max(examples // 10, 1), cel=False) and ok
        ok = bench("HTTPRoute, apiVersion-only converter", large, set_api_version, max(examples // 10, 1), cel=True) and ok
    else:
        print(f"skipped the large CRD: {large} not found")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
