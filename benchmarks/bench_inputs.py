"""Benchmark the input loader designs on the real CRD corpus; prints figures.

Usage::

    PYTHONPATH=. /work/venv/bin/python benchmarks/bench_inputs.py [--big] [corpus_dir]

Designs measured (all over libyaml, best of N runs):

* ``baseline``  ``yaml.load_all(..., Loader=yaml.CSafeLoader)``: the reference
  cost the whole validation pipeline is budgeted against (target: 2x).
* ``A``  compose nodes with the C composer, then build the data (and detect
  duplicate keys) in one iterative pass over the nodes; the node tree is kept
  as the side table of marks, so positions need no re-parse.
* ``B``  plain ``yaml.load_all`` with CSafeLoader for the data; duplicate keys
  need a second, composing pass (``B+dups``); positions re-parse on demand.
* ``C``  (chosen, ``crdtool.cli.inputs``) one pass over libyaml *events*
  builds the data directly (no node objects), with duplicate detection, alias
  accounting and depth limits; positions re-parse one document on demand.

Also printed: the cost of computing one position in every document (the worst
case, every document has an error), peak RSS holding every loaded document
(each design in a fresh subprocess), and with ``--big`` the 50 MB inputs.
"""

from __future__ import annotations

import gc
import glob
import os
import subprocess
import sys
from pathlib import Path
import tempfile
import time
from typing import Any, Callable

import yaml
from yaml.nodes import MappingNode, ScalarNode, SequenceNode

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from crdtool.cli import inputs  # noqa: E402

DEFAULT_CORPUS = str(Path(__file__).resolve().parents[1].parent / "shared" / "corpus" / "crds")
RUNS = 3


def corpus_files(root: str) -> list[str]:
    return sorted(glob.glob(os.path.join(root, "**", "*.y*ml"), recursive=True))


def read_all(files: list[str]) -> list[bytes]:
    out = []
    for f in files:
        with open(f, "rb") as fh:
            out.append(fh.read())
    return out


# --- design A: C composer + one pass over nodes -------------------------------


class _NodeLoader(yaml.CSafeLoader):
    """CSafeLoader whose resolver only marks plain scalars (cheaper than regexes)."""

    def resolve(self, kind: Any, value: Any, implicit: Any) -> str:  # type: ignore[override]
        if kind is ScalarNode:
            return "?" if implicit[0] else "tag:yaml.org,2002:str"
        return ""


def design_a_load(text: bytes) -> list[tuple[Any, Any, list[str]]]:
    """[(data, root node, duplicate paths)] per document; nodes kept for marks."""
    docs = []
    for node in yaml.compose_all(text, Loader=_NodeLoader):
        if node is None:
            continue
        data, dups = _construct(node)
        docs.append((data, node, dups))
    return docs


def _construct(root: Any) -> tuple[Any, list[str]]:
    memo: dict[int, Any] = {}
    dups: list[str] = []
    resolve = inputs._resolve_plain
    out: list[Any] = []
    # Iterative post-order: (node, container-or-None, state)
    stack: list[Any] = [(root, None)]
    while stack:
        node, built = stack.pop()
        nid = id(node)
        if built is None:
            if nid in memo:
                out.append(memo[nid])
                continue
            cls = node.__class__
            if cls is ScalarNode:
                value = resolve(node.value) if node.tag == "?" else node.value
                memo[nid] = value
                out.append(value)
                continue
            stack.append((node, True))
            children = node.value
            if cls is MappingNode:
                for k, v in reversed(children):
                    stack.append((v, None))
                    stack.append((k, None))
            else:
                for v in reversed(children):
                    stack.append((v, None))
            out.append(len(children))
            continue
        # Children built: collect them from `out`.
        if node.__class__ is MappingNode:
            n = len(node.value)
            items = out[-2 * n:] if n else []
            del out[len(out) - 2 * n:]
            out.pop()
            d: dict[str, Any] = {}
            for i in range(0, len(items), 2):
                k = items[i]
                k = k if k.__class__ is str else str(k)
                if k in d:
                    dups.append(k)
                d[k] = items[i + 1]
            memo[nid] = d
            out.append(d)
        else:
            n = len(node.value)
            items = out[-n:] if n else []
            del out[len(out) - n:]
            out.pop()
            memo[nid] = items
            out.append(items)
    return out[0], dups


def design_a_position(root: Any, path: list[Any]) -> tuple[int, int]:
    node = root
    mark = root.start_mark
    for step in path:
        if node.__class__ is MappingNode:
            for k, v in node.value:
                if k.value == step:
                    mark, node = k.start_mark, v
                    break
            else:
                break
        elif node.__class__ is SequenceNode and isinstance(step, int) and step < len(node.value):
            node = node.value[step]
            mark = node.start_mark
        else:
            break
    return mark.line + 1, mark.column + 1


# --- design B: load_all, compose on demand --------------------------------------


def design_b_load(text: bytes) -> list[Any]:
    return [d for d in yaml.load_all(text, Loader=yaml.CSafeLoader) if d is not None]


def design_b_dups(text: bytes) -> int:
    count = 0
    for node in yaml.compose_all(text, Loader=_NodeLoader):
        stack = [node]
        while stack:
            n = stack.pop()
            if n.__class__ is MappingNode:
                seen = set()
                for k, v in n.value:
                    if k.value in seen:
                        count += 1
                    seen.add(k.value)
                    stack.append(v)
            elif n.__class__ is SequenceNode:
                stack.extend(n.value)
    return count


def design_b_position(text: bytes, index: int, path: list[Any]) -> tuple[int, int]:
    for i, node in enumerate(yaml.compose_all(text, Loader=_NodeLoader)):
        if i == index:
            return design_a_position(node, path)
    return (0, 0)


# --- design C: crdtool.cli.inputs ----------------------------------------------


def design_c_load(files: list[str]) -> list[Any]:
    return list(inputs.load_inputs(files))


# --- measurement ----------------------------------------------------------------


def best_of(fn: Callable[[], Any], runs: int = RUNS) -> float:
    """Best wall time; results are dropped and garbage collected between runs
    (results kept alive across runs make every later run pay for GC scans)."""
    best = float("inf")
    for _ in range(runs):
        gc.collect()
        t0 = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - t0)
        del result
    gc.collect()
    return best


def child_memory(design: str, files: list[str]) -> str:
    """Resident memory a fresh process gains by loading everything and keeping it
    (peak and retained)."""
    code = f"""
import sys, resource, gc
sys.path.insert(0, {os.path.dirname(os.path.dirname(os.path.abspath(__file__)))!r})
sys.path.insert(0, {os.path.dirname(os.path.abspath(__file__))!r})
import bench_inputs as b
def rss():
    with open('/proc/self/statm') as fh:
        return int(fh.read().split()[1]) * resource.getpagesize() / 2**20
files = {files!r}
texts = b.read_all(files)
before = rss()
if {design!r} == 'A':
    kept = [b.design_a_load(t) for t in texts]
elif {design!r} == 'B':
    kept = [b.design_b_load(t) for t in texts]
elif {design!r} == 'baseline':
    import yaml
    kept = [list(yaml.load_all(t, Loader=yaml.CSafeLoader)) for t in texts]
else:
    kept = b.design_c_load(files)
gc.collect()
print(f"{{rss() - before:.0f}} MB retained")
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    return out.stdout.strip() or out.stderr.strip()[-200:]


def pipeline_time(files: list[str]) -> float | None:
    """Load + validate every CRD (positions for every finding), if the validator exists."""
    try:
        from crdtool.core.crd.manifest import check_crd_manifest, is_crd
    except ImportError:
        return None

    def run() -> int:
        findings = 0
        for doc in inputs.load_inputs(files):
            if isinstance(doc, inputs.Document) and is_crd(doc.data):
                for finding in check_crd_manifest(doc.data).findings:
                    doc.position(finding.error.field)
                    findings += 1
        return findings

    return best_of(run)


def main(argv: list[str]) -> None:
    big = "--big" in argv
    args = [a for a in argv if not a.startswith("--")]
    root = args[0] if args else DEFAULT_CORPUS
    files = corpus_files(root)
    texts = read_all(files)
    size = sum(len(t) for t in texts)
    print(f"corpus: {len(files)} files, {size / 1e6:.1f} MB, libyaml={inputs.HAVE_LIBYAML}, best of {RUNS}")

    docs = sum(len(list(yaml.load_all(t, Loader=yaml.CSafeLoader))) for t in texts)
    # Streaming, as the CLI consumes documents: each file's result is dropped
    # before the next file is read.
    t_base = best_of(lambda: [len(list(yaml.load_all(t, Loader=yaml.CSafeLoader))) for t in texts])
    print(f"baseline yaml.load_all(CSafeLoader)        {t_base:6.3f} s  ({docs} documents incl. empty)")
    t_compose = best_of(lambda: [len(list(yaml.compose_all(t, Loader=yaml.CSafeLoader))) for t in texts])
    print(f"  (compose_all alone, C composer)          {t_compose:6.3f} s")

    t_a = best_of(lambda: [len(design_a_load(t)) for t in texts])
    print(f"A  compose + build pass (nodes kept)        {t_a:6.3f} s  = {t_a / t_base:4.2f}x baseline")
    t_b = best_of(lambda: [len(design_b_load(t)) for t in texts])
    t_bd = best_of(lambda: [design_b_dups(t) for t in texts])
    print(f"B  load_all (no duplicate detection)        {t_b:6.3f} s  = {t_b / t_base:4.2f}x baseline")
    print(f"B+dups  load_all + composing dup pass       {t_b + t_bd:6.3f} s  = {(t_b + t_bd) / t_base:4.2f}x baseline")
    t_c = best_of(lambda: sum(1 for _ in inputs.load_inputs(files)))
    c_docs = design_c_load(files)
    n_c = sum(isinstance(d, inputs.Document) for d in c_docs)
    n_err = sum(isinstance(d, inputs.InputError) for d in c_docs)
    del c_docs
    print(f"C  event pass (chosen; reads files too)     {t_c:6.3f} s  = {t_c / t_base:4.2f}x baseline"
          f"  ({n_c} documents, {n_err} errors)")
    print(f"   budget left for validation at 2x:        {2 * t_base - t_c:6.3f} s")
    t_pipe = pipeline_time(files)
    if t_pipe is not None:
        print(f"whole pipeline: C + check_crd_manifest     {t_pipe:6.3f} s  = {t_pipe / t_base:4.2f}x baseline"
              f"  (validation alone {t_pipe - t_c:.3f} s)")

    # Positions: one lookup in every document (worst case: all documents have errors).
    path_str = "spec.versions[0].schema.openAPIV3Schema.properties[spec].type"
    path_list: list[Any] = ["spec", "versions", 0, "schema", "openAPIV3Schema", "properties", "spec", "type"]
    a_docs = [design_a_load(t) for t in texts]
    t_pa = best_of(lambda: [design_a_position(node, path_list) for docs in a_docs for _, node, _ in docs])
    a_docs = []  # free them before the next design loads
    per_file_counts = [len(design_b_load(t)) for t in texts]
    t_pb = best_of(lambda: [design_b_position(t, i, path_list)
                            for t, n in zip(texts, per_file_counts) for i in range(n)], runs=1)

    def c_positions() -> None:
        fresh = design_c_load(files)  # caches live on the documents; start cold
        for d in fresh:
            if isinstance(d, inputs.Document):
                d.position(path_str)

    t_pc = best_of(c_positions) - t_c
    print(f"positions, one per document ({n_c} docs):")
    print(f"   A walk kept nodes                        {t_pa:6.3f} s")
    print(f"   B re-compose file up to the document     {t_pb:6.3f} s")
    print(f"   C re-parse the document (lazy, cached)   {t_pc:6.3f} s  ({1000 * t_pc / max(n_c, 1):.2f} ms/document)")

    print("memory holding every loaded document (fresh process each, file bytes excluded):")
    for design in ("baseline", "A", "B", "C"):
        print(f"   {design:9s}{child_memory(design, files):>10s}")

    if big:
        bench_big(files)


def bench_big(files: list[str]) -> None:
    """50 MB inputs: many documents, and one huge document."""
    with tempfile.TemporaryDirectory() as tmp:
        multi = os.path.join(tmp, "multi50.yaml")
        single = os.path.join(tmp, "single50.yaml")
        parts = read_all(files)
        out = bytearray()
        while len(out) < 50 * 1024 * 1024:
            for p in parts:
                out += b"---\n" + p + b"\n"
        with open(multi, "wb") as fh:
            fh.write(out)
        lines = ["apiVersion: apiextensions.k8s.io/v1", "kind: CustomResourceDefinition", "spec:",
                 "  versions:", "  - name: v1", "    schema:", "      openAPIV3Schema:", "        properties:"]
        i = 0
        total = 0
        while total < 50 * 1024 * 1024:
            block = f"          f{i}:\n            type: string\n            description: \"Field {i} of the test.\"\n"
            lines.append(block.rstrip("\n"))
            total += len(block)
            i += 1
        with open(single, "w") as fh:
            fh.write("\n".join(lines) + "\n")
        for path in (multi, single):
            code = f"""
import sys, time, resource
sys.path.insert(0, {os.path.dirname(os.path.dirname(os.path.abspath(__file__)))!r})
from crdtool.cli.inputs import load_inputs
t = time.perf_counter()
docs = list(load_inputs([{path!r}]))
print(f"{{time.perf_counter() - t:.2f}} s, {{len(docs)}} documents, peak RSS "
      f"{{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024}} MB")
"""
            out_run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
            print(f"{os.path.basename(path)} ({os.path.getsize(path) / 1e6:.0f} MB): C  "
                  f"{out_run.stdout.strip() or out_run.stderr.strip()[-300:]}")


if __name__ == "__main__":
    main(sys.argv[1:])
