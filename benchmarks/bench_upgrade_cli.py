"""Benchmark ``crdtool upgrade-manifest`` on the real CRD corpus; prints figures.

Usage::

    PYTHONPATH=. /work/venv/bin/python benchmarks/bench_upgrade_cli.py [corpus_dir]

Measured (best of N runs, in-process unless said otherwise):

* the largest corpus CRD, v1beta1 -> v1 (and the largest v1 CRD -> v1beta1):
  the whole CLI path for one file (``upgrade._process``: decode, load, convert,
  rewrite the text, verify), split into its phases: loading the documents
  (``inputs.load_documents``), the pure conversion (``upgrade_crd``), the text
  rewrite (``yamledit.rewrite_document``, which includes parsing the node tree
  and re-reading the result to verify it);
* the whole v1beta1 corpus -> v1, in-process, and end to end as one process
  (``crdtool upgrade-manifest DIR --to v1 -o FILE``, start-up included);
* for reference, the alternative design the rewrite replaced: a ruamel.yaml
  round-trip load + dump of the same file (which also re-folds long lines).
"""

from __future__ import annotations

import glob
import io
import os
import subprocess
import sys
from pathlib import Path
import tempfile
import time
from collections.abc import Callable
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from crdtool.cli import upgrade
from crdtool.yaml import edit as yamledit
from crdtool.yaml.loader import Document, load_documents
from crdtool.core.crd.upgrade import upgrade_crd

DEFAULT_CORPUS = str(Path(__file__).resolve().parents[1].parent / "shared" / "corpus" / "crds")
RUNS = 3


def best(fn: Callable[[], Any], runs: int = RUNS) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def read(path: str) -> bytes:
    with open(path, "rb") as fh:
        return fh.read()


def phases(path: str, target: str) -> dict[str, float]:
    raw = read(path)
    text = raw.decode("utf-8")
    spans = yamledit.split_documents(text)
    docs = [(text[s.start:s.end], [d for d in load_documents(text[s.start:s.end], path) if isinstance(d, Document)])
            for s in spans]
    work = [(chunk, d[0].data) for chunk, d in docs if d and d[0].data.get("kind") == "CustomResourceDefinition"]
    converted = [(chunk, data, upgrade_crd(data, target)[0]) for chunk, data in work]
    return {
        "load": best(lambda: load_documents(text, path)),
        "upgrade_crd": best(lambda: [upgrade_crd(data, target) for _, data in work]),
        "rewrite": best(lambda: [yamledit.rewrite_document(c, d, n) for c, d, n in converted]),
        "total (_process)": best(lambda: upgrade._process(path, raw, target, False)),
    }


def ruamel_round_trip(path: str) -> float | None:
    try:
        from ruamel.yaml import YAML
    except ImportError:
        return None
    text = read(path).decode("utf-8")

    def run() -> None:
        yaml = YAML(typ="rt")
        out = io.StringIO()
        yaml.dump_all(list(yaml.load_all(text)), out)

    return best(run, 1)


def main() -> None:
    corpus = sys.argv[1] if len(sys.argv) > 1 else DEFAULT_CORPUS
    v1beta1 = sorted(glob.glob(os.path.join(corpus, "v1beta1", "*.y*ml")))
    v1 = sorted(glob.glob(os.path.join(corpus, "v1", "*.y*ml")))
    size = sum(os.path.getsize(f) for f in v1beta1)
    print(f"corpus: {len(v1beta1)} v1beta1 files ({size / 1e6:.1f} MB), {len(v1)} v1 files; best of {RUNS}\n")

    for label, files, target in (("largest v1beta1 CRD -> v1", v1beta1, "v1"), ("largest v1 CRD -> v1beta1", v1, "v1beta1")):
        if not files:
            continue
        largest = max(files, key=os.path.getsize)
        print(f"{label}: {os.path.basename(largest)} ({os.path.getsize(largest) / 1e3:.0f} kB)")
        for phase, seconds in phases(largest, f"apiextensions.k8s.io/{target}").items():
            print(f"  {phase:<18} {seconds * 1e3:8.1f} ms")
        rt = ruamel_round_trip(largest)
        if rt is not None:
            print(f"  {'(ruamel rt load+dump)':<18} {rt * 1e3:8.1f} ms  (reference: the design not taken)")
        print()

    if v1beta1:
        raws = [(f, read(f)) for f in v1beta1]
        seconds = best(lambda: [upgrade._process(f, raw, "apiextensions.k8s.io/v1", False) for f, raw in raws])
        print(f"whole v1beta1 corpus -> v1, in-process:       {seconds * 1e3:8.1f} ms")
        seconds = best(lambda: [upgrade._process(f, raw, "apiextensions.k8s.io/v1", True) for f, raw in raws], 1)
        print(f"whole v1beta1 corpus -> v1 --fix, in-process: {seconds * 1e3:8.1f} ms")
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "out.yaml")
            cmd = [sys.executable, "-m", "crdtool", "upgrade-manifest", os.path.join(corpus, "v1beta1"), "--to", "v1",
                   "-o", out]
            env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
            seconds = best(lambda: subprocess.run(cmd, capture_output=True, env=env, check=False))
            print(f"whole v1beta1 corpus -> v1, one process:      {seconds * 1e3:8.1f} ms  (start-up included)")


if __name__ == "__main__":
    main()
