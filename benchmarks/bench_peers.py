"""Built-in documents per second: crdtool against its Go peers kubeconform and kubectl-validate (issue 29).

Run: python benchmarks/bench_peers.py [--kubeconform PATH] [--kubectl-validate PATH] [--kubeconform-schemas DIR]
                                      [--copies N] [--runs N] [--kubernetes-version 1.35]

(binaries also from $KUBECONFORM and $KUBECTL_VALIDATE). The documents are those of ../shared/corpus and
../shared/corpus-outside of a kind release 1.35 serves (``catalog.kind_info(...).served``; the others, such as
rbac v1beta1, PodSecurityPolicy or ``List``, are counted and left out so that each tool judges every document),
one per file, copied ``N`` times (default 10; each copy with its own label ``bench-copy``, so that no memo of a tool sees a
document twice) into a temporary folder. Each tool runs as a whole process over that folder
(start-up included, as a CI runs it), in rounds (each tool once per round, so that a change of load falls on
all), ``--runs`` rounds (default 3, medians of wall time and of CPU time, user + system of the child):

- ``kubeconform -n 1 -strict -summary -kubernetes-version 1.35.0 -schema-location DIR/{{ .ResourceKind }}{{ .KindSuffix }}.json``
  over the strict JSON Schemas of the ``kubernetes-validate`` PyPI package made readable by kubeconform
  (``benchmarks/kubeconform_schemas.py``: ``$ref`` relative, ``$schema``/``$id`` dropped), prepared in a temporary
  folder from the installed package unless ``--kubeconform-schemas`` names one; its summary line is printed, so
  that skipped documents (no schema) are seen, never counted silently as fast work;
- ``kubectl-validate DIR --version 1.35`` (built-in schemas embedded in the binary; no cluster);
- ``crdtool validate DIR --jobs 1 --quiet --kubernetes-version 1.35`` (strict decoding, defaulting, the native
  validation of each kind, the checks across the bundle).

A peer whose binary is not given or not found prints "<peer>: not measured (...)" — never a figure not run.
crdtool's modules are byte-compiled first (``compileall``, as an install does): with ``PYTHONDONTWRITEBYTECODE``
set (as on the shared machine) a checkout edited since its ``.pyc`` files were written would otherwise compile
those modules again in every run (~50 ms of CPU for ``cli/validate.py``, ``yaml/loader.py`` and two more).
Printed: documents/s of each (wall and per CPU second), crdtool's ratios to each peer, the machine's load
average before the runs and with each figure. On a shared machine the CPU figures move least.

Measured 2026-12-02 (2 cores shared, load 1.9 → 2.6, --runs 5): 810 documents: crdtool 1653 docs/s, kubeconform
1901, kubectl-validate 1067 (crdtool / kubeconform 0.87); 3240 documents: 2491, 3886, 1297 (0.64). Issue 29's
target (crdtool >= kubeconform) is not met; half of crdtool's per-document time is reading the YAML.
After the speed-ups of branch h29speed (same day, load 1.4 → 1.8, --runs 3, modules byte-compiled): 810 documents:
crdtool 1864 docs/s, kubeconform 1939, kubectl-validate 1056 (0.96; per CPU second 1.00); 3240 documents: 3236,
3909, 1359 (0.83; per CPU second 0.84). The same commit before them, byte-compiled too: 0.87 and 0.63 per CPU second.
Measured 2026-12-03 (2 cores shared by four sessions, load 2.9 → 4.8; kubectl-validate too), 3240 documents,
crdtool / kubeconform -n 1, main at 5377f4e (after the composed YAML and create-path fast paths) against branch
h29peers (validate parsed without Typer, the text report without Rich when it is plain, the modules imported
before the collector's thresholds rise, objects frozen at exit). This script, --copies 40 --runs 3, two rounds
each (documents/s / per CPU second): main 1.06 / 1.17 and 1.30 / 1.31, h29peers 1.27 / 1.33 and 1.26 / 1.38
(kubectl-validate 930 documents/s, 2.8-3.2 s of CPU: crdtool / kubectl-validate 2.6-3.1 and 3.6-3.7). The same
commands alternated 9 times in one loop (main, h29peers, kubeconform; medians; load 4.4 → 3.8): CPU 0.824 s,
0.665 s, 0.931 s; wall 0.880 s, 0.715 s, 1.053 s: crdtool / kubeconform 1.13 → 1.40 per CPU second, 1.20 → 1.47
in documents/s. callgrind of crdtool alone: 3,580 → 3,370 million instructions over the 3240 documents, 714 → 530
million for one file (the collector's walk of the loaded documents, ~40 ms, is cache misses: not counted there).

How the peers were built for the figures in the notes of issue 29 (none of this is committed):

- Go 1.26.11 from Debian's trixie-backports (``golang-1.26-go 1.26.11-1~bpo13+1``) on Debian 12: an apt source
  for ``trixie trixie-backports`` (main) with ``/etc/apt/preferences.d`` pins of priority 1 for every package of
  trixie*, 500 for ``golang-*`` of trixie-backports (100 of trixie), then
  ``apt-get install -t trixie-backports golang-1.26-go``; ``GOTOOLCHAIN=local``, no module proxy (both
  repositories vendor their modules).
- kubeconform at yannh/kubeconform e65429b1e5990dd019ebb7b5642dcd22a3e9cd13 (2025-05-12, after v0.7.0):
  ``go build -mod=vendor -o kubeconform ./cmd/kubeconform``.
- kubectl-validate at kubernetes-sigs/kubectl-validate a97ccfaca20b164819afdae780392496f6ed6bbd (2026-01-05,
  "kube-1.35", k8s.io modules v0.35.0): ``go build -mod=vendor -o kubectl-validate .``.
- kubeconform's schemas: kubernetes-validate 1.37.0 (PyPI), ``v1.35.0-local-strict``.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import yaml

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_builtins import ROOT, _load, builtin_documents  # noqa: E402


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _run_once(cmd: list[str]) -> tuple[float, float, subprocess.CompletedProcess[str]]:
    """Wall seconds and CPU seconds (user + system of the child, all its threads) of one run of ``cmd``."""
    cpu, t = _cpu(), time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    return time.perf_counter() - t, _cpu() - cpu, out


def _binary(given: str | None, env: str, name: str) -> str | None:
    """The peer's binary from the option, else ``$env``; None with a printed reason when absent."""
    path = given or os.environ.get(env)
    if not path:
        print(f"{name}: not measured (no binary: --{name} PATH or ${env})")
        return None
    found = shutil.which(path)
    if found is None:
        print(f"{name}: not measured ({path}: not found or not executable)")
        return None
    return found


def served_documents(release: int) -> tuple[list[dict[str, Any]], int]:
    """The corpus's built-in documents of a kind ``release`` serves, and how many others were left out."""
    from crdtool.core.builtin import catalog

    docs = builtin_documents()
    kept = []
    for doc in docs:
        info = catalog.kind_info(release, doc["apiVersion"], str(doc.get("kind")))
        if info is not None and info.served:
            kept.append(doc)
    return kept, len(docs) - len(kept)


def _copy(obj: dict[str, Any], copy: int) -> dict[str, Any]:
    """``obj`` with the label ``bench-copy: "<copy>"``: copies differ, so no memo of a tool sees one twice."""
    meta = dict(obj.get("metadata") or {})
    meta["labels"] = {**(meta.get("labels") or {}), "bench-copy": str(copy)}
    return {**obj, "metadata": meta}


def _kubeconform_schemas(given: str | None, release: str, tmp: Path) -> str | None:
    if given:
        return str(Path(given) / "{{ .ResourceKind }}{{ .KindSuffix }}.json")
    from kubeconform_schemas import prepare

    try:
        n, version, template = prepare(release, tmp / "kubeconform-schemas")
    except (FileNotFoundError, ModuleNotFoundError) as e:
        print(f"kubeconform: not measured (no schemas: {e}; pip install kubernetes-validate or "
              f"--kubeconform-schemas DIR)")
        return None
    print(f"kubeconform schemas: {n} files of kubernetes-validate {version}, release {release}")
    return template


def _report(name: str, n: int, walls: list[float], cpus: list[float], detail: str) -> tuple[float, float]:
    """Print the medians as documents/s (wall) and documents per CPU second; return both."""
    wall, cpu = statistics.median(walls), statistics.median(cpus)
    print(f"[{_load()}] {name}: {n} documents in {wall:.2f} s = {n / wall:.0f} documents/s "
          f"(CPU {cpu:.2f} s = {n / cpu:.0f} documents per CPU second; {detail})")
    return n / wall, n / cpu


def _crdtool_detail(out: subprocess.CompletedProcess[str]) -> str:
    return f"exit {out.returncode}: {(out.stdout.strip().splitlines() or [''])[-1]}"


def _kubeconform_detail(out: subprocess.CompletedProcess[str]) -> str:
    summary = re.search(r"Summary: .*", out.stdout + out.stderr)
    return f"exit {out.returncode}: " + (summary.group(0) if summary else (out.stdout + out.stderr).strip()[-300:])


def _kubectl_validate_detail(out: subprocess.CompletedProcess[str]) -> str:
    return f"exit {out.returncode}: {(out.stdout + out.stderr).count('ERROR')} files in error"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kubeconform", help="kubeconform binary (or $KUBECONFORM)")
    parser.add_argument("--kubeconform-schemas", help="a folder made by benchmarks/kubeconform_schemas.py")
    parser.add_argument("--kubectl-validate", help="kubectl-validate binary (or $KUBECTL_VALIDATE)")
    parser.add_argument("--copies", type=int, default=10)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--kubernetes-version", default="1.35")
    args = parser.parse_args()
    release = args.kubernetes_version
    minor = int(release.split(".")[1])
    kubeconform = _binary(args.kubeconform, "KUBECONFORM", "kubeconform")
    kubectl_validate = _binary(args.kubectl_validate, "KUBECTL_VALIDATE", "kubectl-validate")

    import compileall

    import py_compile

    # checked-hash bytecode, as the editable install writes it (setup.py): a timestamp .pyc here would replace it
    compileall.compile_dir(str(ROOT / "crdtool"), quiet=1, invalidation_mode=py_compile.PycInvalidationMode.CHECKED_HASH)
    docs, left_out = served_documents(minor)
    tmp = Path(tempfile.mkdtemp(prefix="bench-peers-"))
    try:
        folder = tmp / "docs"
        folder.mkdir()
        n = 0
        for copy in range(args.copies):
            for i, obj in enumerate(docs):
                (folder / f"{copy:03d}-{i:04d}.yaml").write_text(yaml.safe_dump(_copy(obj, copy), sort_keys=False))
                n += 1
        print(f"{n} documents: {len(docs)} distinct built-in documents of ../shared/corpus{{,-outside}} "
              f"x {args.copies} copies, one per file ({left_out} others left out: not served at {release}); "
              f"median of {args.runs} runs, whole processes")
        tools: dict[str, tuple[list[str], Any]] = {
            "crdtool validate --jobs 1": ([sys.executable, "-m", "crdtool", "validate", str(folder), "--jobs", "1",
                                          "--quiet", "--kubernetes-version", release], _crdtool_detail),
        }
        if kubeconform:
            template = _kubeconform_schemas(args.kubeconform_schemas, release, tmp)
            if template:
                tools["kubeconform -n 1"] = ([kubeconform, "-n", "1", "-strict", "-summary", "-kubernetes-version",
                                             f"{release}.0", "-schema-location", template, str(folder)],
                                            _kubeconform_detail)
        if kubectl_validate:
            tools["kubectl-validate"] = ([kubectl_validate, str(folder), "--version", release], _kubectl_validate_detail)

        print(f"[{_load()}] before the runs")
        # rounds: each tool once per round, so that a change of the machine's load falls on all of them
        walls: dict[str, list[float]] = {name: [] for name in tools}
        cpus: dict[str, list[float]] = {name: [] for name in tools}
        last: dict[str, subprocess.CompletedProcess[str]] = {}
        for _ in range(args.runs):
            for name, (cmd, _detail) in tools.items():
                wall, cpu, last[name] = _run_once(cmd)
                walls[name].append(wall)
                cpus[name].append(cpu)
        rates = {name: _report(name, n, walls[name], cpus[name], detail(last[name]))
                 for name, (_cmd, detail) in tools.items()}
        ours = rates.pop("crdtool validate --jobs 1")
        for name, rate in rates.items():
            target = " (issue 29's target: >= 1)" if name.startswith("kubeconform") else ""
            print(f"crdtool / {name}: {ours[0] / rate[0]:.2f} in documents/s, {ours[1] / rate[1]:.2f} in documents "
                  f"per CPU second{target}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
