"""Custom-resource throughput: validation and defaulting against prometheus-operator's Prometheus CRD.

Run: python benchmarks/bench_customresource.py [N] [--seed S]

Generates N (default 10,000) Prometheus objects, deterministically, by filling the CRD's v1 schema
with a seeded ``random.Random``: every required property, each optional one with a probability
that falls with depth, enum values, values within minimum/maximum and lengths, formats (date-time,
int-or-string, ...), list-type map/set keys kept unique. Then prints:

- prepare: decoding, defaulting and converting the CRD, structural schemas (once);
- validation: objects/s of ``validate_object`` (the whole create path: pruning, defaulting,
  metadata, OpenAPI value validation, list types, embedded resources, CEL rules);
- defaulting: objects/s of ``default()`` (upstream ``defaulting.Default``, which here also
  copies) and of the decode path ``apply_create(validate=False)`` (metadata, pruning, null pruning,
  defaulting);
- the ratio of each defaulting time to ``copy.deepcopy`` of the same objects (the interpreter
  ``default`` and the prepared CRD version's compiled ``defaulter``). The defaulting KEP's
  rule of thumb: defaulting should be considerably faster than a deep copy (target ratio <= 1.0).
  Real objects are sparse, which these dense generated ones hide: ``bench_speed.py`` measures both.
"""

from __future__ import annotations

import copy
import random
import re
import statistics
import string
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

from crdtool.core.customresource import (
    apply_create,
    default,
    prepare_crd,
    validate_object,
)

ROOT = Path(__file__).resolve().parents[1]
CRD = ROOT.parent / "shared" / "corpus" / "crds" / "v1" / "prometheus-operator__v0.93.0__monitoring.coreos.com_prometheuses.yaml"
MAX_DEPTH = 7
# Values tried against a schema's pattern (URLs, quantities, durations, names, ...).
PATTERN_CANDIDATES = (
    "http://example.com", "https://example.com/api", "10Gi", "500m", "512MB", "0.5", "1", "30d", "1h", "5m", "30s",
    "example", "app.example.com", "a", "RFC3339", "1.0", "info", "9090", "UTF-8", "/", "SHA256",
)


class Generator:
    """Schema-driven random objects; deterministic for a seed."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def value(self, s: dict[str, Any], depth: int) -> Any:
        if s.get("enum"):
            return self.rng.choice(s["enum"])
        if s.get("x-kubernetes-int-or-string"):
            text = self.string(s) if s.get("pattern") else f"{self.rng.randint(1, 99)}%"
            return self.rng.choice([self.rng.randint(1, 100), text])
        t = s.get("type")
        if t == "object" or "properties" in s:
            return self.object(s, depth)
        if t == "array":
            return self.array(s, depth)
        if t == "string":
            return self.string(s)
        if t == "integer":
            lo = int(s.get("minimum", 0))
            hi = int(s.get("maximum", lo + 100))
            return self.rng.randint(lo, max(lo, hi))
        if t == "number":
            return round(self.rng.uniform(float(s.get("minimum", 0)), float(s.get("maximum", 100))), 3)
        if t == "boolean":
            return self.rng.random() < 0.5
        return {}

    def object(self, s: dict[str, Any], depth: int) -> dict[str, Any]:
        out: dict[str, Any] = {}
        props = s.get("properties") or {}
        required = set(s.get("required") or ())
        p = 0.6 if depth < 2 else 0.35 / (depth - 1)
        for key, prop in props.items():
            if key in required or (depth < MAX_DEPTH and self.rng.random() < p):
                out[key] = self.value(prop, depth + 1)
        ap = s.get("additionalProperties")
        if isinstance(ap, dict) and not props and depth < MAX_DEPTH:
            for i in range(self.rng.randint(0, 3)):
                out[f"key-{i}"] = self.value(ap, depth + 1)
        return out

    def array(self, s: dict[str, Any], depth: int) -> list[Any]:
        items = s.get("items") if isinstance(s.get("items"), dict) else {}
        n = self.rng.randint(s.get("minItems", 0), min(s.get("maxItems", 2), 2)) if depth < MAX_DEPTH else s.get("minItems", 0)
        values = [self.value(items, depth + 1) for _ in range(n)]
        keys = s.get("x-kubernetes-list-map-keys") or ()
        for i, v in enumerate(values):
            for k in keys:
                if isinstance(v, dict):
                    key_schema = (items.get("properties") or {}).get(k, {})
                    v[k] = i if key_schema.get("type") == "integer" else f"{k}-{i}"
        if s.get("x-kubernetes-list-type") == "set":
            unique: list[Any] = []
            for v in values:
                if v not in unique:
                    unique.append(v)
            values = unique
        return values

    def string(self, s: dict[str, Any]) -> str:
        pattern = s.get("pattern")
        if pattern:
            matching = [c for c in PATTERN_CANDIDATES if re.search(pattern, c)]
            return self.rng.choice(matching) if matching else PATTERN_CANDIDATES[0]
        fmt = s.get("format")
        if fmt == "date-time":
            return f"2024-0{self.rng.randint(1, 9)}-1{self.rng.randint(0, 9)}T10:00:00Z"
        if fmt == "int-or-string":
            return f"{self.rng.randint(1, 99)}%"
        lo = s.get("minLength", 1)
        hi = min(s.get("maxLength", lo + 12), lo + 12)
        return "".join(self.rng.choice(string.ascii_lowercase) for _ in range(self.rng.randint(lo, max(lo, hi))))


def generate(n: int, seed: int, schema: dict[str, Any]) -> list[dict[str, Any]]:
    gen = Generator(seed)
    spec_schema = schema["properties"]["spec"]
    return [
        {
            "apiVersion": "monitoring.coreos.com/v1",
            "kind": "Prometheus",
            "metadata": {"name": f"prometheus-{i}", "namespace": "monitoring", "labels": {"app": "prometheus"}},
            "spec": gen.object(spec_schema, 1),
        }
        for i in range(n)
    ]


def timed(fn: Callable[[dict[str, Any]], Any], objects: list[dict[str, Any]], repeat: int = 3) -> float:
    """Median seconds of ``repeat`` passes over all objects."""
    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        for obj in objects:
            fn(obj)
        runs.append(time.perf_counter() - start)
    return statistics.median(runs)


def main() -> int:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    n = int(args[0]) if args else 10_000
    seed = int(sys.argv[sys.argv.index("--seed") + 1]) if "--seed" in sys.argv else 20190426
    with CRD.open("rb") as fh:
        manifest = yaml.load(fh, Loader=yaml.CSafeLoader)

    start = time.perf_counter()
    crd = prepare_crd(manifest)
    prepare = time.perf_counter() - start
    version = crd.version("v1")
    assert version is not None and version.schema is not None and version.serving_schema is not None
    serving = version.serving_schema

    objects = generate(n, seed, version.schema)
    size = sum(len(yaml.dump(o, Dumper=yaml.CSafeDumper)) for o in objects[:200]) / min(n, 200)
    print(f"CRD: {CRD.name} ({CRD.stat().st_size / 1e3:.0f} kB); prepared once in {prepare * 1000:.0f} ms")
    print(f"objects: {n} generated (seed {seed}), ~{size / 1e3:.1f} kB of YAML each")

    errors = [validate_object(o, crd) for o in objects[:500]]
    invalid = sum(1 for e in errors if e)
    print(f"  {invalid} of the first 500 are rejected (by cross-field CEL rules the generator does not know)")

    t_validate = timed(lambda o: validate_object(o, crd), objects, repeat=1)
    t_default = timed(lambda o: default(o, serving), objects)
    assert version.defaulter is not None
    t_compiled = timed(version.defaulter, objects)
    t_decode = timed(lambda o: apply_create(o, crd, validate=False, field_validation="Ignore"), objects)
    t_copy = timed(copy.deepcopy, objects)

    print(f"validation (validate_object, whole create path): {n / t_validate:,.0f} objects/s")
    print(f"defaulting (default):                            {n / t_default:,.0f} objects/s")
    print(f"defaulting (prepared version.defaulter):         {n / t_compiled:,.0f} objects/s")
    print(f"decode + default (apply_create, no validation):  {n / t_decode:,.0f} objects/s")
    print(f"copy.deepcopy:                                   {n / t_copy:,.0f} objects/s")
    print(f"ratio default / deepcopy:        {t_default / t_copy:.2f} (target <= 1.0)")
    print(f"ratio prepared defaulter / deepcopy: {t_compiled / t_copy:.2f}")
    print(f"ratio decode+default / deepcopy: {t_decode / t_copy:.2f}")
    return 0 if t_default / t_copy <= 1.0 else 1


if __name__ == "__main__":
    sys.exit(main())
