"""`crdtool serve` under load and hostile traffic, on loopback: the figures of the README's serve section.

Run: python benchmarks/bench_serve.py [CASE ...] [--seconds S]

CASEs (default: all, in this order; each starts its own servers on 127.0.0.1, free ports, self-signed):

- ``throughput``: reviews/s, objects/s and p50/p99 latency (client-side, request sent to answer parsed)
  of v1 -> v2 CronTab reviews of 1 and 100 objects, with 1 and 2 workers, and as many keep-alive client
  threads as workers and then 8, for ``--seconds`` each (default 5); every answer is checked (a
  Success with the right objects) and wrong or lost answers are counted.
- ``ipc``: the cost of converting in a converter process: one 1-object review through
  ``ConverterPool.convert`` against ``ReviewHandler.handle`` called directly, 2,000 times each.
- ``garbage``: the server's RSS before and after 3,000 connections sending random bytes to the TLS
  port, 300 plain-HTTP requests (a probe configured with http://) and 300 TLS connections sending
  random bytes, on uvloop and on asyncio (``CRDTOOL_SERVE_LOOP=asyncio``); the server must still answer.
- ``slowloris``: 1,000 TLS connections trickling header bytes (one every 0.5 s), a TCP connection that
  never sends a byte and a TLS connection that sends nothing: seconds until the server closed each
  (bounded at 30 s), RSS, and /healthz latency meanwhile.
- ``slow``: ``--timeout 10``: /healthz probed every second and 1-object reviews sent back to back while
  a review's converter sleeps 40 s, then while one swallows the timeout (bare ``except:``) for 40 s,
  then during a 3 MiB review of 8,950 objects: the probes' worst latency, when the slow review got its
  Failure, and the other reviews answered meanwhile; plus a converter that raises and one whose process exits.
- ``sigterm``: 8 keep-alive connections sending reviews whose conversion takes 1 s, SIGTERM after 3 s,
  with 1 and 2 workers (default ``--drain-delay`` 3 s, ``--timeout`` 10): requests sent before SIGTERM and
  how many were answered correctly, /readyz from the signal on, seconds to exit, and how the connections
  were spread over the workers.

The converter is samples/crontab_conversion.py:convert_lossless (throughput, ipc, garbage, slowloris)
or tests/server/behaviours.py:convert (its annotation-driven behaviours: sleep, swallow, raise, exit).
RSS is read from /proc (Linux). The load average is printed before and after each case: the benchmark
shares the machine's cores with the server. Every loop is bounded in count and time.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import os
import random
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
LOSSLESS = "samples/crontab_conversion.py:convert_lossless"
BEHAVIOURS = "tests/server/behaviours.py:convert"
BEHAVIOUR = "crdtool-test.example/behaviour"
HOST = "127.0.0.1"
LOGS = Path(os.environ.get("TMPDIR", "/tmp"))


# --- reviews ---------------------------------------------------------------------------------------------


def crontab(i: int, behaviour: str | None = None) -> dict[str, Any]:
    obj: dict[str, Any] = {
        "apiVersion": "stable.example.com/v1",
        "kind": "CronTab",
        "metadata": {"name": f"cron-{i}", "namespace": "default", "uid": f"00000000-0000-0000-0000-{i:012d}",
                     "resourceVersion": str(1000 + i), "generation": 1, "creationTimestamp": "2024-01-01T00:00:00Z",
                     "labels": {"app": "cron", "tier": "batch"}},
        "spec": {"cronSpec": f"*/{i % 59 + 1} * * * *", "image": "registry.example.com/cron:1.2.3"},
    }
    if behaviour:
        obj["metadata"]["annotations"] = {BEHAVIOUR: behaviour}
    return obj


def body(n: int, behaviour: str | None = None, uid: str = "bench") -> bytes:
    review = {"apiVersion": "apiextensions.k8s.io/v1", "kind": "ConversionReview",
              "request": {"uid": uid, "desiredAPIVersion": "stable.example.com/v2",
                          "objects": [crontab(i, behaviour) for i in range(n)]}}
    return json.dumps(review).encode()


def check(response: httpx.Response, n: int, uid: str = "bench") -> str:
    """'' for a correct Success of ``n`` objects, else what is wrong."""
    if response.status_code != 200:
        return f"HTTP {response.status_code}"
    answer = response.json().get("response") or {}
    if answer.get("uid") != uid:
        return f"uid {answer.get('uid')!r}"
    if (answer.get("result") or {}).get("status") != "Success":
        return f"Failure: {(answer.get('result') or {}).get('message')}"
    objs = answer.get("convertedObjects") or []
    if len(objs) != n or any(o.get("apiVersion") != "stable.example.com/v2" or o["metadata"]["name"] != f"cron-{i}"
                             for i, o in enumerate(objs)):
        return "wrong objects"
    return ""


JSON = {"content-type": "application/json"}


# --- the server under test --------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


class Server:
    """``crdtool serve`` in a subprocess, on a free loopback port with a self-signed certificate."""

    def __init__(self, target: str, *args: str, env: dict[str, str] | None = None) -> None:
        self.port = free_port()
        self.log = LOGS / f"crdtool-bench-serve-{os.getpid()}-{self.port}.log"
        err = open(self.log, "w")  # noqa: SIM115 - closed below
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "crdtool", "serve", target, "--crd", str(CRD), "--self-signed",
             "--host", HOST, "--port", str(self.port), *args],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=err, text=True, env={**os.environ, **(env or {})},
        )
        err.close()
        assert self.proc.stdout is not None
        text = ""
        deadline = time.monotonic() + 60
        while "caBundle:" not in text and time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                break
            text += line
        match = re.search(r"caBundle: (\S+)", text)
        if not match:
            self.proc.kill()
            raise SystemExit(f"server did not start: {self.log.read_text()}")
        self.ca = self.log.with_suffix(".pem")
        self.ca.write_bytes(base64.b64decode(match.group(1)))
        self.base = f"https://{HOST}:{self.port}"
        self.url = self.base + "/convert"
        with self.client() as c:
            while time.monotonic() < deadline:
                try:
                    if c.get(self.base + "/healthz").status_code == 200:
                        break
                except httpx.TransportError:
                    time.sleep(0.1)
        time.sleep(0.3)  # the other workers

    def context(self) -> ssl.SSLContext:
        return ssl.create_default_context(cafile=str(self.ca))

    def client(self, timeout: float = 30.0) -> httpx.Client:
        return httpx.Client(verify=self.context(), timeout=timeout)

    def processes(self) -> dict[str, list[int]]:
        """PIDs by role: the HTTP processes (workers) and the converter processes."""
        pids = [self.proc.pid, *descendants(self.proc.pid)]
        roles: dict[str, list[int]] = {"http": [], "converters": [], "all": pids}
        for pid in pids:
            cmd = cmdline(pid)
            if "crdtool.server.child" in cmd:
                roles["converters"].append(pid)
            elif "crdtool.server.worker" in cmd:
                roles["http"].append(pid)
        if not roles["http"]:
            roles["http"] = [self.proc.pid]
        return roles

    def rss_mb(self, role: str = "http") -> float:
        return sum(rss_kib(pid) for pid in self.processes()[role]) / 1024

    def stop(self, timeout: float = 30.0) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)  # no drain delay
            try:
                self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        if self.proc.stdout:
            self.proc.stdout.close()


def descendants(pid: int) -> list[int]:
    out: list[int] = []
    todo = [pid]
    while todo:
        p = todo.pop()
        try:
            tasks = os.listdir(f"/proc/{p}/task")
        except OSError:
            continue
        for tid in tasks:
            try:
                children = Path(f"/proc/{p}/task/{tid}/children").read_text().split()
            except OSError:
                continue
            for c in children:
                out.append(int(c))
                todo.append(int(c))
    return out


def cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def rss_kib(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))] * 1000


def connections_by_process(port: int, pids: list[int]) -> dict[int, int]:
    """Established TCP connections to ``port``, counted by the process holding them (Linux /proc)."""
    inodes: set[str] = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            local_port = int(fields[1].rsplit(":", 1)[1], 16)
            if local_port == port and fields[3] == "01":  # ESTABLISHED
                inodes.add(fields[9])
    counts: dict[int, int] = {}
    for pid in pids:
        n = 0
        try:
            for fd in os.listdir(f"/proc/{pid}/fd"):
                try:
                    link = os.readlink(f"/proc/{pid}/fd/{fd}")
                except OSError:
                    continue
                if link.startswith("socket:[") and link[8:-1] in inodes:
                    n += 1
        except OSError:
            continue
        counts[pid] = n
    return counts


# --- throughput -------------------------------------------------------------------------------------------


def run_load(server: Server, payload: bytes, n: int, threads: int, seconds: float) -> tuple[float, list[float], int]:
    latencies: list[float] = []
    wrong = [0]
    lock = threading.Lock()
    stop_at = time.monotonic() + seconds

    def worker() -> None:
        mine: list[float] = []
        bad = 0
        with server.client() as c:
            for _ in range(3):  # warm-up: connection, first requests
                c.post(server.url, content=payload, headers=JSON)
            while time.monotonic() < stop_at:
                t0 = time.perf_counter()
                try:
                    r = c.post(server.url, content=payload, headers=JSON)
                    problem = check(r, n)
                except httpx.HTTPError as exc:
                    problem = repr(exc)
                mine.append(time.perf_counter() - t0)
                bad += bool(problem)
        with lock:
            latencies.extend(mine)
            wrong[0] += bad

    pool = [threading.Thread(target=worker) for _ in range(threads)]
    start = time.monotonic()
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    return len(latencies) / (time.monotonic() - start), latencies, wrong[0]


def case_throughput(seconds: float) -> None:
    print(f"throughput: {LOSSLESS}, v1 -> v2, {seconds:g} s per case, keep-alive clients")
    total, wrong = 0, 0
    for workers in (1, 2):
        server = Server(LOSSLESS, "--workers", str(workers))
        try:
            for threads in sorted({workers, 8}):
                for n in (1, 100):
                    rate, lat, bad = run_load(server, body(n), n, threads, seconds)
                    total += len(lat)
                    wrong += bad
                    print(f"  workers={workers} clients={threads} objects={n:>3}: {rate:7.0f} reviews/s "
                          f"{rate * n:8.0f} objects/s  p50 {pct(lat, 50):6.2f} ms  p99 {pct(lat, 99):6.2f} ms "
                          f"({len(lat)} reviews, {bad} wrong or lost)")
            print(f"  workers={workers}: RSS HTTP {server.rss_mb('http'):.1f} MB, converters "
                  f"{server.rss_mb('converters'):.1f} MB, all {server.rss_mb('all'):.1f} MB")
        finally:
            server.stop()
    print(f"  {total} answers checked, {wrong} wrong or lost")


# --- ipc --------------------------------------------------------------------------------------------------


def case_ipc(count: int = 2000) -> None:
    sys.path.insert(0, str(ROOT))
    from crdtool.server.app import ServeConfig, load_handler
    from crdtool.server.pool import ConverterPool

    config = ServeConfig(target=LOSSLESS, crd_path=str(CRD), cwd=str(ROOT))
    handler = load_handler(config)
    config = ServeConfig(target=LOSSLESS, crd_path=str(CRD), cwd=str(ROOT), crd_info=handler.crd.to_dict())
    payload = body(1)
    direct: list[float] = []
    for i in range(count + 100):
        t0 = time.perf_counter()
        outcome = handler.handle(payload)
        if i >= 100:
            direct.append(time.perf_counter() - t0)
        assert outcome.result == "success"

    async def through_pool() -> list[float]:
        pool = ConverterPool(handler, config.to_env(), size=1, cwd=str(ROOT))
        await pool.start()
        times: list[float] = []
        try:
            for i in range(count + 100):
                t0 = time.perf_counter()
                outcome = await pool.convert(payload, time.monotonic())
                if i >= 100:
                    times.append(time.perf_counter() - t0)
                assert outcome.result == "success", outcome.message
        finally:
            await pool.close()
        return times

    try:
        import uvloop

        pooled = uvloop.run(through_pool())
    except ImportError:
        pooled = asyncio.run(through_pool())
    d, p = statistics.median(direct) * 1e6, statistics.median(pooled) * 1e6
    print(f"ipc: 1-object review, {count} each: in-process {d:.0f} us, through a converter process {p:.0f} us "
          f"(median; p99 {pct(direct, 99) * 1000:.0f} / {pct(pooled, 99) * 1000:.0f} us): +{p - d:.0f} us per review")


# --- garbage ----------------------------------------------------------------------------------------------


def hammer(server: Server, connections: int, make: Any, threads: int = 16) -> int:
    """``connections`` connections, ``threads`` at a time, each running ``make(sock)``; returns failures to connect."""
    counter = iter(range(connections))
    lock = threading.Lock()
    refused = [0]

    def worker() -> None:
        rnd = random.Random(threading.get_ident())
        while True:
            with lock:
                i = next(counter, None)
            if i is None:
                return
            try:
                with socket.create_connection((HOST, server.port), timeout=10) as sock:
                    make(sock, rnd)
            except OSError:
                with lock:
                    refused[0] += 1

    pool = [threading.Thread(target=worker) for _ in range(threads)]
    for t in pool:
        t.start()
    for t in pool:
        t.join(timeout=600)
    return refused[0]


def _drain(sock: socket.socket) -> None:
    try:
        while sock.recv(65536):
            pass
    except OSError:
        pass


def random_bytes(sock: socket.socket, rnd: random.Random) -> None:
    sock.sendall(rnd.randbytes(rnd.randint(1, 4096)))
    sock.shutdown(socket.SHUT_WR)
    _drain(sock)


def plain_http(sock: socket.socket, rnd: random.Random) -> None:
    payload = body(1)
    sock.sendall(b"POST /convert HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                 b"Content-Length: " + str(len(payload)).encode() + b"\r\n\r\n" + payload)
    _drain(sock)


def tls_then_garbage(context: ssl.SSLContext) -> Any:
    def make(sock: socket.socket, rnd: random.Random) -> None:
        with context.wrap_socket(sock, server_hostname="localhost") as tls:
            tls.sendall(rnd.randbytes(rnd.randint(1, 4096)))
            try:
                while tls.recv(65536):
                    pass
            except OSError:
                pass
    return make


def case_garbage() -> None:
    print("garbage: RSS of the HTTP process before and after hostile traffic on the TLS port (1 worker)")
    for loop in ("uvloop", "asyncio"):
        server = Server(LOSSLESS, env={"CRDTOOL_SERVE_LOOP": loop})
        try:
            with server.client() as c:
                for _ in range(200):  # steady state: imports, caches, buffers
                    assert not check(c.post(server.url, content=body(1), headers=JSON), 1)
            time.sleep(1)
            before = server.rss_mb()
            t0 = time.monotonic()
            failed = hammer(server, 3000, random_bytes)
            after_random = server.rss_mb()
            failed += hammer(server, 300, plain_http)
            after_http = server.rss_mb()
            failed += hammer(server, 300, tls_then_garbage(server.context()), threads=8)
            elapsed = time.monotonic() - t0
            time.sleep(2)
            after = server.rss_mb()
            with server.client() as c:
                answers = sum(not check(c.post(server.url, content=body(1), headers=JSON), 1) for _ in range(20))
            print(f"  {loop:8}: RSS {before:.1f} MB -> {after_random:.1f} after 3,000 random-byte connections -> "
                  f"{after_http:.1f} after 300 plain-HTTP requests -> {after:.1f} after 300 TLS+garbage "
                  f"(+{after - before:.1f} MB; {elapsed:.1f} s, {failed} connections refused); then "
                  f"{answers}/20 reviews answered correctly")
        finally:
            server.stop()


# --- slowloris --------------------------------------------------------------------------------------------


async def _slowloris(server: Server, count: int, limit: float) -> dict[str, Any]:
    context = server.context()
    closed_after: list[float] = []
    never_closed = [0]
    opened = [0]
    gate = asyncio.Semaphore(50)

    async def trickle() -> None:
        async with gate:
            try:
                reader, writer = await asyncio.wait_for(
                    asyncio.open_connection(HOST, server.port, ssl=context, server_hostname="localhost"), 20)
            except (OSError, asyncio.TimeoutError):
                return
        opened[0] += 1
        start = time.monotonic()
        try:
            writer.write(b"POST /convert HTTP/1.1\r\nHost: localhost\r\n")
            while time.monotonic() - start < limit:
                try:
                    data = await asyncio.wait_for(reader.read(1024), 0.5)
                    if not data:
                        break
                except asyncio.TimeoutError:
                    writer.write(b"X")
                    await writer.drain()
            else:
                never_closed[0] += 1
                return
        except (OSError, ssl.SSLError):
            pass
        closed_after.append(time.monotonic() - start)
        writer.close()

    async def silent(tls: bool) -> float:
        start = time.monotonic()
        reader, writer = await asyncio.open_connection(
            HOST, server.port, **({"ssl": context, "server_hostname": "localhost"} if tls else {}))
        start = time.monotonic() if tls else start
        try:
            await asyncio.wait_for(reader.read(), limit)
        except asyncio.TimeoutError:
            return float("inf")
        except (OSError, ssl.SSLError):
            pass
        finally:
            writer.close()
        return time.monotonic() - start

    async def probe() -> list[float]:
        times: list[float] = []
        async with httpx.AsyncClient(verify=context, timeout=10) as c:
            for _ in range(int(limit)):
                t0 = time.perf_counter()
                try:
                    await c.get(server.base + "/healthz")
                    times.append(time.perf_counter() - t0)
                except httpx.HTTPError:
                    times.append(float("inf"))
                await asyncio.sleep(1)
        return times

    results = await asyncio.gather(silent(False), silent(True), probe(), *(trickle() for _ in range(count)))
    return {"silent_tcp": results[0], "silent_tls": results[1], "probes": results[2], "closed_after": closed_after,
            "never_closed": never_closed[0], "opened": opened[0]}


def case_slowloris(count: int = 1000, limit: float = 30.0) -> None:
    print(f"slowloris: {count} TLS connections trickling headers (a byte every 0.5 s), one silent TCP and one "
          f"silent TLS connection; default --read-timeout 5 s")
    server = Server(LOSSLESS)
    try:
        before = server.rss_mb()
        peak = [before]
        done = threading.Event()

        def watch() -> None:
            while not done.wait(0.5):
                peak[0] = max(peak[0], server.rss_mb())

        watcher = threading.Thread(target=watch)
        watcher.start()
        try:
            r = asyncio.run(_slowloris(server, count, limit))
        finally:
            done.set()
            watcher.join()
        time.sleep(1)
        closed = r["closed_after"]
        print(f"  trickling: {r['opened']} opened, {len(closed)} closed by the server after "
              f"{min(closed, default=0):.1f}-{max(closed, default=0):.1f} s, {r['never_closed']} still open after {limit:g} s")
        print(f"  silent TCP connection closed after {r['silent_tcp']:.1f} s; silent TLS connection after "
              f"{r['silent_tls']:.1f} s")
        probes = r["probes"]
        print(f"  /healthz meanwhile: {len(probes)} probes, worst {max(probes) * 1000:.1f} ms; RSS {before:.1f} MB, "
              f"peak {peak[0]:.1f} MB, after {server.rss_mb():.1f} MB")
    finally:
        server.stop()


# --- slow converters --------------------------------------------------------------------------------------


def case_slow() -> None:
    timeout = 10.0
    print(f"slow: {BEHAVIOURS}, --timeout {timeout:g}, 1 worker, 2 converter processes")
    server = Server(BEHAVIOURS, "--timeout", str(timeout))
    try:
        for title, behaviour, n in [
            ("a converter sleeping 40 s", "sleep:40", 1),
            ("a converter swallowing the timeout for 40 s", "swallow:40", 1),
            ("a 3 MiB review of 8,950 objects", None, 8950),
        ]:
            _slow_scenario(server, title, behaviour, n, timeout)
        with server.client() as c:
            for title, behaviour in [("raises", "raise"), ("exits its process", "exit")]:
                t0 = time.perf_counter()
                r = c.post(server.url, content=body(1, behaviour), headers=JSON)
                message = r.json()["response"]["result"].get("message")
                print(f"  a converter that {title}: Failure after {(time.perf_counter() - t0) * 1000:.0f} ms: {message}")
    finally:
        server.stop()


def _slow_scenario(server: Server, title: str, behaviour: str | None, n: int, timeout: float) -> None:
    payload = body(n, behaviour)
    stop = threading.Event()
    probes: list[float] = []
    others: list[tuple[float, str]] = []

    def probe() -> None:
        with server.client(timeout=10) as c:
            while not stop.is_set():
                t0 = time.perf_counter()
                try:
                    ok = c.get(server.base + "/healthz").status_code == 200
                    probes.append(time.perf_counter() - t0 if ok else float("inf"))
                except httpx.HTTPError:
                    probes.append(float("inf"))
                stop.wait(1.0)

    def other() -> None:
        small = body(1)
        with server.client(timeout=30) as c:
            while not stop.is_set():
                t0 = time.perf_counter()
                try:
                    problem = check(c.post(server.url, content=small, headers=JSON), 1)
                except httpx.HTTPError as exc:
                    problem = repr(exc)
                others.append((time.perf_counter() - t0, problem))

    threads = [threading.Thread(target=probe), threading.Thread(target=other)]
    for t in threads:
        t.start()
    time.sleep(1)
    t0 = time.perf_counter()
    with server.client(timeout=60) as c:
        r = c.post(server.url, content=payload, headers=JSON)
    elapsed = time.perf_counter() - t0
    result = r.json()["response"]["result"]
    time.sleep(1.5)  # and after: a killed converter process is replaced
    stop.set()
    for t in threads:
        t.join(timeout=60)
    answered = [s for s, p in others if not p]
    wrong = [p for _, p in others if p]
    verdict = "Success" if result["status"] == "Success" else f"Failure ({result.get('message', '')[:60]}...)"
    print(f"  {title}: {verdict} after {elapsed:.2f} s (limit {timeout + 1:g} s for a Failure); /healthz: "
          f"{len(probes)} probes, worst {max(probes) * 1000:.1f} ms; other 1-object reviews: {len(answered)} answered, "
          f"p99 {pct(answered, 99):.1f} ms, worst {max(answered, default=0) * 1000:.1f} ms, {len(wrong)} wrong or lost")


# --- SIGTERM ----------------------------------------------------------------------------------------------


def case_sigterm() -> None:
    print("sigterm: 8 keep-alive connections, reviews whose conversion takes 1 s, SIGTERM after 3 s "
          "(--timeout 10, --drain-delay 3)")
    for workers in (1, 2):
        _sigterm(workers)


def _sigterm(workers: int, connections: int = 8, timeout: float = 10.0) -> None:
    server = Server(BEHAVIOURS, "--workers", str(workers), "--timeout", str(timeout))
    records: list[tuple[float, float, str]] = []  # (sent, answered, problem)
    readyz: list[tuple[float, str]] = []
    lock = threading.Lock()
    signalled = threading.Event()
    sig_at = [0.0]
    end = time.monotonic() + 40

    def client(k: int) -> None:
        with server.client(timeout=30) as c:
            i = 0
            while time.monotonic() < end:
                uid = f"c{k}-{i}"
                i += 1
                sent = time.monotonic()
                try:
                    r = c.post(server.url, content=body(1, "sleep:1", uid=uid), headers=JSON)
                    problem = check(r, 1, uid)
                except httpx.HTTPError as exc:
                    problem = type(exc).__name__
                with lock:
                    records.append((sent, time.monotonic(), problem))
                if problem and signalled.is_set():
                    if server.proc.poll() is not None:
                        return
                    time.sleep(0.2)

    def probe() -> None:
        signalled.wait(30)
        with server.client(timeout=5) as c:
            while server.proc.poll() is None and time.monotonic() < end:
                try:
                    status = str(c.get(server.base + "/readyz").status_code)
                except httpx.HTTPError:
                    status = "refused"
                readyz.append((time.monotonic() - sig_at[0], status))
                time.sleep(0.25)

    threads = [threading.Thread(target=client, args=(k,)) for k in range(connections)] + [threading.Thread(target=probe)]
    for t in threads:
        t.start()
    time.sleep(2.5)
    roles = server.processes()
    spread = connections_by_process(server.port, roles["http"])
    time.sleep(0.5)
    sig_at[0] = time.monotonic()
    server.proc.send_signal(signal.SIGTERM)
    signalled.set()
    try:
        server.proc.wait(timeout=timeout + 20)
    except subprocess.TimeoutExpired:
        server.proc.kill()
    exited = time.monotonic() - sig_at[0]
    for t in threads:
        t.join(timeout=60)
    before = [r for r in records if r[0] < sig_at[0]]
    lost = [r for r in before if r[2]]
    after = [r for r in records if r[0] >= sig_at[0]]
    statuses = sorted({s for _, s in readyz})
    first_ok = [t for t, s in readyz if s == "200"]
    print(f"  workers={workers}: connections per worker before SIGTERM {sorted(spread.values(), reverse=True)}; "
          f"{len(before)} requests sent before SIGTERM, {len(before) - len(lost)} answered correctly, {len(lost)} lost "
          f"{sorted({r[2] for r in lost})[:3]}; {sum(not r[2] for r in after)} of {len(after)} sent after it answered; "
          f"/readyz after SIGTERM: {statuses}{' (200 at ' + str(first_ok[:3]) + ')' if first_ok else ''}; "
          f"exit {server.proc.returncode} after {exited:.1f} s (limit {timeout + 5:g} s)")
    server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("cases", nargs="*", metavar="CASE", help="throughput, ipc, garbage, slowloris, slow, sigterm")
    parser.add_argument("--seconds", type=float, default=5.0, help="seconds per throughput case")
    args = parser.parse_args()
    cases = {
        "throughput": lambda: case_throughput(args.seconds),
        "ipc": case_ipc,
        "garbage": case_garbage,
        "slowloris": case_slowloris,
        "slow": case_slow,
        "sigterm": case_sigterm,
    }
    unknown = [c for c in args.cases if c not in cases]
    if unknown:
        parser.error(f"unknown case {unknown[0]!r} (choose from {', '.join(cases)})")
    print(f"crdtool serve on loopback, {os.cpu_count()} CPUs, Python {sys.version.split()[0]}")
    for name in args.cases or list(cases):
        print(f"[load average before: {load()}]")
        t0 = time.monotonic()
        cases[name]()
        print(f"[load average after: {load()}; {time.monotonic() - t0:.0f} s]")


if __name__ == "__main__":
    main()
