"""Reviews per second and latency of `crdtool serve` on loopback, with one and two workers.

Run: python benchmarks/bench_serve.py [SECONDS_PER_CASE]

Starts `crdtool serve samples/crontab_conversion.py:convert_lossless --crd
samples/crontab-multiversion-v1.yaml --self-signed` on 127.0.0.1 (a free port), once with
--workers 1 and once with --workers 2, and for each sends v1 ConversionReviews of 1 and of 100
CronTab objects (v1 -> v2) over HTTPS with httpx (keep-alive connections; as many client threads
as workers), for SECONDS_PER_CASE seconds each (default 5) after a short warm-up. Every answer is
checked to be a Success with the right number of objects. Prints, per case: reviews/s, objects/s,
and p50/p99 latency in milliseconds (client-side, request sent to response parsed), with the
machine's load average before and after. The target (issue #11): p99 <= 50 ms for 100 objects.
The benchmark process itself shares the machine's cores with the server.
"""

from __future__ import annotations

import base64
import json
import os
import re
import signal
import socket
import ssl
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
CRD = ROOT / "samples" / "crontab-multiversion-v1.yaml"
TARGET = "samples/crontab_conversion.py:convert_lossless"


def crontab(i: int) -> dict[str, Any]:
    return {
        "apiVersion": "stable.example.com/v1",
        "kind": "CronTab",
        "metadata": {"name": f"cron-{i}", "namespace": "default", "uid": f"00000000-0000-0000-0000-{i:012d}",
                     "resourceVersion": str(1000 + i), "generation": 1, "creationTimestamp": "2024-01-01T00:00:00Z",
                     "labels": {"app": "cron", "tier": "batch"}},
        "spec": {"cronSpec": f"*/{i % 59 + 1} * * * *", "image": "registry.example.com/cron:1.2.3"},
    }


def body(n: int) -> bytes:
    review = {"apiVersion": "apiextensions.k8s.io/v1", "kind": "ConversionReview",
              "request": {"uid": "bench", "desiredAPIVersion": "stable.example.com/v2",
                          "objects": [crontab(i) for i in range(n)]}}
    return json.dumps(review).encode()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start(workers: int, log: Path) -> tuple[subprocess.Popen[str], str, Path]:
    port = free_port()
    err = open(log, "w")  # noqa: SIM115
    proc = subprocess.Popen(
        [sys.executable, "-m", "crdtool", "serve", TARGET, "--crd", str(CRD), "--self-signed",
         "--host", "127.0.0.1", "--port", str(port), "--workers", str(workers)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=err, text=True,
    )
    err.close()
    assert proc.stdout is not None
    text = ""
    deadline = time.monotonic() + 30
    while "caBundle:" not in text and time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        text += line
    match = re.search(r"caBundle: (\S+)", text)
    if not match:
        proc.kill()
        raise SystemExit(f"server did not start: {log.read_text()}")
    ca = log.with_suffix(".pem")
    ca.write_bytes(base64.b64decode(match.group(1)))
    url = f"https://127.0.0.1:{port}"
    ctx = ssl.create_default_context(cafile=str(ca))
    with httpx.Client(verify=ctx) as c:
        while time.monotonic() < deadline:
            try:
                if c.get(url + "/healthz").status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.1)
    return proc, url, ca


def load(url: str, ca: Path, payload: bytes, n: int, threads: int, seconds: float) -> tuple[int, list[float]]:
    latencies: list[float] = []
    lock = threading.Lock()
    stop_at = time.monotonic() + seconds

    def worker() -> None:
        ctx = ssl.create_default_context(cafile=str(ca))
        mine: list[float] = []
        with httpx.Client(verify=ctx, timeout=30) as c:
            for _ in range(3):  # warm-up (connection, imports in the worker)
                c.post(url + "/convert", content=payload, headers={"content-type": "application/json"})
            while time.monotonic() < stop_at:
                t0 = time.perf_counter()
                r = c.post(url + "/convert", content=payload, headers={"content-type": "application/json"})
                answer = r.json()["response"]
                mine.append(time.perf_counter() - t0)
                if answer["result"]["status"] != "Success" or len(answer["convertedObjects"]) != n:
                    raise SystemExit(f"bad answer: {answer['result']}")
        with lock:
            latencies.extend(mine)

    pool = [threading.Thread(target=worker) for _ in range(threads)]
    start_time = time.monotonic()
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    return int(len(latencies) / (time.monotonic() - start_time)), latencies


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))] * 1000


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 5.0
    print(f"crdtool serve on loopback, {TARGET}, v1 -> v2, {seconds:g} s per case, {os.cpu_count()} CPUs")
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    logs = Path(os.environ.get("TMPDIR", "/tmp"))
    for workers in (1, 2):
        proc, url, ca = start(workers, logs / f"crdtool-bench-serve-{os.getpid()}-{workers}.log")
        try:
            for n in (1, 100):
                rate, lat = load(url, ca, body(n), n, workers, seconds)
                print(f"  workers={workers} objects={n:>3}: {rate:>5} reviews/s, {rate * n:>6} objects/s, "
                      f"p50 {pct(lat, 50):6.2f} ms, p99 {pct(lat, 99):6.2f} ms, mean {statistics.mean(lat) * 1000:6.2f} ms"
                      f" ({len(lat)} reviews, {workers} client thread{'s' if workers > 1 else ''})")
        finally:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
    print(f"load average after:  {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print("target: p99 <= 50 ms for 100 objects")


if __name__ == "__main__":
    main()
