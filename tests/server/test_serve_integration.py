"""``crdtool serve`` for real: subprocesses on loopback ports with self-signed certificates, spoken to over
HTTPS with httpx, judged with crdtool.core.conversion_review (the apiserver's own checks).

Servers (all bound to 127.0.0.1, all stopped by the fixtures, each bounded in time):

- ``behaviours``: tests/server/behaviours.py:convert (the lossless CronTab converter plus behaviours
  switched on by an annotation), 2 workers, 1 s request timeout, 64 KiB body limit;
- ``lossy``: samples/crontab_conversion.py:convert (the KEP's converter), 1 worker;
- ``strict``: tests/server/behaviours.py:convert, 1 worker (so that a probe meets the same event loop as
  the slow review), 2 s request timeout, 1 s read timeout;
- others in the SIGTERM tests, which terminate them themselves.

Times asserted are generous (the machine may be loaded); the strict figures are benchmarks/bench_serve.py's.
"""

from __future__ import annotations

import base64
import json
import os
import re
import signal
import socket
import ssl
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from crdtool.core.conversion_review import REVIEW_V1, REVIEW_V1BETA1, convert_from_response, create_conversion_review

ROOT = Path(__file__).resolve().parents[2]
CRD = ROOT / "samples" / "crontab-multiversion-v1.yaml"
BEHAVIOUR = "crdtool-test.example/behaviour"
START_TIMEOUT = 30.0


@dataclass
class Server:
    process: subprocess.Popen[str]
    url: str
    base: str
    ca_file: Path
    stanza: str
    stderr_path: Path

    def client(self, **kw: Any) -> httpx.Client:
        context = ssl.create_default_context(cafile=str(self.ca_file))
        return httpx.Client(verify=context, timeout=kw.pop("timeout", 10.0), **kw)

    def stop(self) -> int:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=5)
        return self.process.returncode


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(tmp: Path, target: str, *extra: str) -> Server:
    port = _free_port()
    if "--drain-delay" not in extra:  # stopping the test servers need not wait for endpoints to update
        extra = (*extra, "--drain-delay", "0")
    stderr_path = tmp / f"serve-{port}.log"
    stderr = open(stderr_path, "w")  # noqa: SIM115 - closed with the process
    process = subprocess.Popen(
        [sys.executable, "-m", "crdtool", "serve", target, "--crd", str(CRD), "--self-signed",
         "--host", "127.0.0.1", "--port", str(port), *extra],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=stderr, text=True,
        env={**os.environ, "NO_COLOR": "1"},
    )
    stderr.close()
    lines: list[str] = []
    deadline = time.monotonic() + START_TIMEOUT
    assert process.stdout is not None
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            break
        lines.append(line)
        if "caBundle:" in line:
            break
    stanza = "".join(lines)
    match = re.search(r"caBundle: (\S+)", stanza)
    if match is None:
        process.kill()
        raise AssertionError(f"no caBundle printed: {stanza!r}\n{stderr_path.read_text()}")
    ca_file = tmp / f"ca-{port}.pem"
    ca_file.write_bytes(base64.b64decode(match.group(1)))
    base = f"https://127.0.0.1:{port}"
    server = Server(process, base + "/convert", base, ca_file, stanza, stderr_path)
    with server.client(timeout=2.0) as client:
        while time.monotonic() < deadline:
            if process.poll() is not None:
                raise AssertionError(f"server exited: {stderr_path.read_text()}")
            try:
                if client.get(base + "/healthz").status_code == 200:
                    return server
            except httpx.TransportError:
                time.sleep(0.1)
    server.stop()
    raise AssertionError(f"server did not become healthy: {stderr_path.read_text()}")


@pytest.fixture(scope="module")
def servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Server]]:
    tmp = tmp_path_factory.mktemp("serve")
    started: dict[str, Server] = {}
    try:
        started["behaviours"] = start_server(
            tmp, "tests/server/behaviours.py:convert", "--workers", "2", "--timeout", "1",
            "--max-body-bytes", "65536",
        )
        started["lossy"] = start_server(tmp, "samples/crontab_conversion.py:convert")
        started["strict"] = start_server(
            tmp, "tests/server/behaviours.py:convert", "--timeout", "2", "--read-timeout", "1",
        )
        yield started
    finally:
        for server in started.values():
            server.stop()


def crontab(name: str, version: str = "v1", behaviour: str | None = None) -> dict[str, Any]:
    obj: dict[str, Any] = {
        "apiVersion": f"stable.example.com/{version}",
        "kind": "CronTab",
        "metadata": {"name": name, "namespace": "default", "uid": f"uid-{name}", "resourceVersion": "7",
                     "labels": {"app": name}},
        "spec": {"cronSpec": "*/5 * * * *", "image": "busybox"} if version == "v1" else
                {"min": "*/5", "hour": "*", "dayOfMonth": "*", "month": "*", "dayOfWeek": "*", "image": "busybox"},
    }
    if behaviour is not None:
        obj["metadata"]["annotations"] = {BEHAVIOUR: behaviour}
    return obj


def review(server: Server, objects: list[dict[str, Any]], desired: str, version: str = "v1",
           uid: str = "req-1") -> tuple[str, httpx.Response]:
    review_version, request, _ = create_conversion_review([version], objects, desired, uid)
    with server.client() as client:
        return review_version, client.post(server.url, json=request)


# --- conversions ------------------------------------------------------------------------------------


@pytest.mark.parametrize("version", ["v1", "v1beta1"])
def test_reviews_are_answered_in_their_version_with_objects_in_order(servers: dict[str, Server], version: str) -> None:
    objects = [crontab("a"), crontab("b"), crontab("c")]
    review_version, response = review(servers["behaviours"], objects, "stable.example.com/v2", version)
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/json"
    body = response.json()
    assert body["apiVersion"] == review_version == {"v1": REVIEW_V1, "v1beta1": REVIEW_V1BETA1}[version]
    assert body["kind"] == "ConversionReview"
    assert body["response"]["uid"] == "req-1"
    # the apiserver's own judgement of the answer: a list conversion of the three objects
    lst = {"apiVersion": "stable.example.com/v1", "kind": "CronTabList", "items": objects}
    converted = convert_from_response(lst, "stable.example.com/v2", review_version, "req-1", response.content)
    assert [o["metadata"]["name"] for o in converted["items"]] == ["a", "b", "c"]
    assert converted["items"][0]["spec"] == {
        "image": "busybox", "min": "*/5", "hour": "*", "dayOfMonth": "*", "month": "*", "dayOfWeek": "*"}


def test_answers_are_byte_identical_to_the_handlers(servers: dict[str, Server]) -> None:
    """Converting in a converter process changes nothing the apiserver sees: the same bytes as ReviewHandler.handle."""
    from crdtool.cli.fuzz import load_crd
    from crdtool.server.handler import CrdInfo, ReviewHandler
    from tests.server.behaviours import convert

    handler = ReviewHandler(convert, CrdInfo.from_manifest(load_crd(str(CRD))), timeout=1,
                            name="tests/server/behaviours.py:convert")
    bodies = [
        json.dumps(create_conversion_review([version], objects, desired, f"uid-{i}")[1]).encode()
        for i, (version, objects, desired) in enumerate([
            ("v1", [crontab("a"), crontab("b", "v2")], "stable.example.com/v2"),
            ("v1beta1", [crontab("a", "v2")], "stable.example.com/v1"),
            ("v1", [crontab("a"), crontab("b", behaviour="raise")], "stable.example.com/v2"),
            ("v1", [crontab("a", behaviour="generation")], "stable.example.com/v2"),
            ("v1", [crontab("a")], "stable.example.com/v9"),
        ])
    ] + [b'{"kind": "ConversionReview"}']
    with servers["behaviours"].client() as client:
        for raw in bodies:
            response = client.post(servers["behaviours"].url, content=raw, headers={"content-type": "application/json"})
            expected = handler.handle(raw)
            assert (response.status_code, response.content) == (expected.status, expected.body)


def _failure(response: httpx.Response) -> str:
    assert response.status_code == 200
    result = response.json()["response"]["result"]
    assert result["status"] == "Failure"
    assert "convertedObjects" not in response.json()["response"]
    return str(result["message"])


def test_converter_exception_is_a_failure_with_its_message(servers: dict[str, Server]) -> None:
    _, response = review(servers["behaviours"], [crontab("a"), crontab("b", behaviour="raise")], "stable.example.com/v2")
    assert _failure(response) == "boom: b"
    # the apiserver would then fail the request with that message
    with pytest.raises(Exception, match="conversion webhook for stable.example.com/v1, Kind=CronTab failed: boom: b"):
        convert_from_response(crontab("b"), "stable.example.com/v2", REVIEW_V1, "req-1", response.content)


def test_timeout_stops_the_converter_and_answers_failure(servers: dict[str, Server]) -> None:
    start = time.monotonic()
    _, response = review(servers["behaviours"], [crontab("slow", behaviour="sleep:5")], "stable.example.com/v2")
    elapsed = time.monotonic() - start
    message = _failure(response)
    assert message.startswith("conversion timed out: ") and "within 1 s" in message and "default/slow" in message
    assert elapsed < 4.0  # interrupted at 1 s, not after the 5 s sleep


@pytest.mark.parametrize(
    ("behaviour", "expected"),
    [
        ("rename", "converted object 0 (default/a): must have the same name: a != renamed"),
        ("generation", "converted object 0 (default/a): metadata.generation changed: a conversion may change only "
                       "metadata.labels and metadata.annotations"),
        ("bad-label", 'converted object 0 (default/a): invalid metadata: metadata.labels: Invalid value: "a/b/c"'),
    ],
)
def test_the_apiservers_checks_refuse_bad_answers_before_sending(
    servers: dict[str, Server], behaviour: str, expected: str
) -> None:
    _, response = review(servers["behaviours"], [crontab("a", behaviour=behaviour)], "stable.example.com/v2")
    assert _failure(response).startswith(expected)


def test_a_desired_version_the_crd_lacks_is_a_failure(servers: dict[str, Server]) -> None:
    _, response = review(servers["behaviours"], [crontab("a")], "stable.example.com/v9")
    assert _failure(response).startswith("desiredAPIVersion stable.example.com/v9 is not a version of CRD crontabs.stable.example.com")


# --- bad requests -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        (b"{not json", "the body is not JSON"),
        (b"[1, 2]", "the body is not a JSON object"),
        (json.dumps({"apiVersion": "v1", "kind": "Pod"}).encode(), "kind is 'Pod', not 'ConversionReview'"),
        (json.dumps({"apiVersion": "apiextensions.k8s.io/v2", "kind": "ConversionReview"}).encode(), "apiVersion is"),
        (json.dumps({"apiVersion": REVIEW_V1, "kind": "ConversionReview"}).encode(), "the ConversionReview has no request"),
        (json.dumps({"apiVersion": REVIEW_V1, "kind": "ConversionReview", "request": {"uid": "u",
                     "desiredAPIVersion": "stable.example.com/v2", "objects": [1]}}).encode(),
         "request.objects[0] is not an object"),
        (json.dumps({"apiVersion": REVIEW_V1, "kind": "ConversionReview", "request": {"uid": "u",
                     "desiredAPIVersion": "stable.example.com/v2", "objects": [{}] * 10_001}}).encode(),
         "request.objects has 10001 objects, more than the limit of 10000"),
    ],
)
def test_bad_requests_get_400_with_a_reason(servers: dict[str, Server], body: bytes, reason: str) -> None:
    with servers["behaviours"].client() as client:
        response = client.post(servers["behaviours"].url, content=body, headers={"content-type": "application/json"})
    assert response.status_code == 400
    assert response.json()["error"].startswith(reason)


def test_oversized_body_gets_413_and_the_connection_is_closed(servers: dict[str, Server]) -> None:
    with servers["behaviours"].client() as client:
        response = client.post(servers["behaviours"].url, content=b"x" * 70_000, headers={"content-type": "application/json"})
    assert response.status_code == 413
    assert response.json()["error"] == "the request body is larger than the limit of 65536 bytes"
    assert response.headers["connection"] == "close"


def test_oversized_body_without_content_length_is_refused(servers: dict[str, Server]) -> None:
    def chunks() -> Iterator[bytes]:
        for _ in range(20):
            yield b"y" * 8192

    with servers["behaviours"].client() as client:
        response = client.post(servers["behaviours"].url, content=chunks(), headers={"content-type": "application/json"})
    assert response.status_code == 413
    assert "larger than the limit" in response.json()["error"]


@pytest.mark.parametrize("content_type", [None, "text/plain", "application/yaml", "application/jsonx"])
def test_a_content_type_other_than_json_gets_415(servers: dict[str, Server], content_type: str | None) -> None:
    review_version, request, _ = create_conversion_review(["v1"], [crontab("a")], "stable.example.com/v2", "u")
    headers = {"content-type": content_type} if content_type else {}
    with servers["behaviours"].client() as client:
        response = client.post(servers["behaviours"].url, content=json.dumps(request).encode(), headers=headers)
        assert response.status_code == 415
        assert response.json()["error"].startswith(f"the Content-Type is {content_type or 'none'}; ")
        # application/json with parameters is JSON (the apiserver sends plain application/json)
        response = client.post(servers["behaviours"].url, content=json.dumps(request).encode(),
                               headers={"content-type": "Application/JSON; charset=utf-8"})
        assert response.status_code == 200 and response.json()["response"]["result"]["status"] == "Success"


def test_routes(servers: dict[str, Server]) -> None:
    server = servers["behaviours"]
    with server.client() as client:
        assert client.get(server.base + "/healthz").status_code == 200
        assert client.get(server.base + "/readyz").status_code == 200
        assert client.get(server.url).status_code == 405
        assert client.get(server.base + "/nope").status_code == 404


def test_metrics_cover_latency_failures_and_timeouts_across_workers(servers: dict[str, Server]) -> None:
    server = servers["behaviours"]
    for _ in range(4):
        review(server, [crontab("m1"), crontab("m2", "v2")], "stable.example.com/v2")
    review(server, [crontab("x", behaviour="raise")], "stable.example.com/v2")
    review(server, [crontab("t", behaviour="sleep:3")], "stable.example.com/v2")
    with server.client() as client:
        text = client.get(server.base + "/metrics").text
    crd = 'crd="crontabs.stable.example.com"'

    def value(name: str, *labels: str) -> float:
        total = 0.0
        for line in text.splitlines():
            if line.startswith(name + "{") and crd in line and all(label in line for label in labels):
                total += float(line.rsplit(" ", 1)[1])
        return total

    # per request (all its conversions), per CRD and version pair, failures and timeouts
    assert value("crdtool_conversion_request_duration_seconds_count", 'result="success"') >= 4
    assert value("crdtool_conversion_duration_seconds_count", 'from_version="v1"', 'to_version="v2"') >= 4
    assert value("crdtool_conversion_objects_total", 'from_version="v2"', 'to_version="v2"') >= 4
    assert value("crdtool_conversion_requests_total", 'result="failure"') >= 1
    assert value("crdtool_conversion_failures_total", 'reason="converter_error"') >= 1
    assert value("crdtool_conversion_timeouts_total") >= 1
    assert value("crdtool_conversion_requests_total", 'result="bad_request"') >= 0  # series exist once used
    assert 'webhook="tests/server/behaviours.py:convert"' in text


def test_access_log_is_one_json_object_per_request(servers: dict[str, Server]) -> None:
    review(servers["behaviours"], [crontab("logged")], "stable.example.com/v2", uid="uid-for-the-log")
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        entries = [json.loads(line) for line in servers["behaviours"].stderr_path.read_text().splitlines()
                   if line.startswith("{")]
        mine = [e for e in entries if e.get("uid") == "uid-for-the-log"]
        if mine:
            assert mine[0]["status"] == 200 and mine[0]["objects"] == 1 and mine[0]["result"] == "success"
            assert mine[0]["path"] == "/convert" and mine[0]["remote"].startswith("127.0.0.1:")
            return
        time.sleep(0.1)
    raise AssertionError("no access log line for the request")


def test_stanza_points_at_the_server(servers: dict[str, Server]) -> None:
    stanza = servers["lossy"].stanza
    assert "strategy: Webhook" in stanza and 'conversionReviewVersions: ["v1", "v1beta1"]' in stanza
    assert f"url: {servers['lossy'].url}" in stanza


# --- fuzz-roundtrip --webhook ------------------------------------------------------------------------------


def _fuzz(server: Server, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "crdtool", "fuzz-roundtrip", "--webhook", server.url, "--ca-bundle", str(server.ca_file),
         "--crd", str(CRD), "--examples", "25", "--seed", "7", "--output", "json"],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
        env={**os.environ, "CRDTOOL_CACHE_DIR": str(tmp_path / "cache")},
    )


def test_fuzz_webhook_finds_the_lossy_converter(servers: dict[str, Server], tmp_path: Path) -> None:
    result = _fuzz(servers["lossy"], tmp_path)
    assert result.returncode == 1, result.stderr
    report = json.loads(result.stdout)
    assert not report["ok"]
    assert {(p["from"], p["to"]) for p in report["pairs"]} == {("v1", "v2"), ("v2", "v1")}
    messages = " ".join(f["error"] or "" for f in report["failures"])
    assert "conversion webhook for stable.example.com/v1, Kind=CronTab failed: invalid spec string, needs five parts" in messages


def test_fuzz_webhook_passes_the_lossless_converter(servers: dict[str, Server], tmp_path: Path) -> None:
    result = _fuzz(servers["behaviours"], tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    report = json.loads(result.stdout)
    assert report["ok"] and all(p["examples"] >= 25 for p in report["pairs"])


# --- slow converters ----------------------------------------------------------------------------------


def _in_background(fn: Any) -> tuple[threading.Thread, dict[str, Any]]:
    box: dict[str, Any] = {}

    def run() -> None:
        try:
            box["result"] = fn()
        except Exception as exc:  # noqa: BLE001 - reported by the test
            box["error"] = exc

    thread = threading.Thread(target=run)
    thread.start()
    return thread, box


def test_health_and_other_reviews_are_answered_while_a_converter_swallows_the_timeout(servers: dict[str, Server]) -> None:
    server = servers["strict"]
    start = time.monotonic()
    thread, box = _in_background(
        lambda: review(server, [crontab("a"), crontab("stuck", behaviour="swallow:8")], "stable.example.com/v2")[1])
    time.sleep(0.3)
    probes: list[float] = []
    with server.client(timeout=10.0) as client:
        for _ in range(4):
            t0 = time.monotonic()
            assert client.get(server.base + "/healthz").status_code == 200
            probes.append(time.monotonic() - t0)
            time.sleep(0.2)
        other = client.post(server.url, json=create_conversion_review(["v1"], [crontab("b")], "stable.example.com/v2",
                                                                       "other")[1])
    assert other.json()["response"]["result"]["status"] == "Success"
    # the event loop never waits for the converter (before, it did for the whole conversion)
    assert max(probes) < 1.0, probes
    thread.join(timeout=20)
    assert "error" not in box, box.get("error")
    # stopped by killing its process: the converter would have slept 8 s
    assert time.monotonic() - start < 6.0
    message = _failure(box["result"])
    assert message == ("conversion timed out: tests/server/behaviours.py:convert did not convert 2 object(s) "
                       "within 2 s (stopped at object 1, default/stuck)")
    # a new converter process took its place
    _, response = review(server, [crontab("after")], "stable.example.com/v2")
    assert response.json()["response"]["result"]["status"] == "Success"


def test_a_converter_whose_process_exits_gets_a_failure(servers: dict[str, Server]) -> None:
    _, response = review(servers["strict"], [crontab("a", behaviour="exit")], "stable.example.com/v2")
    assert _failure(response) == ("the process running tests/server/behaviours.py:convert exited with status 3 "
                                  "while converting object 0 (default/a)")
    _, response = review(servers["strict"], [crontab("after")], "stable.example.com/v2")
    assert response.json()["response"]["result"]["status"] == "Success"


# --- slow and silent clients -------------------------------------------------------------------------


def _seconds_until_closed(sock: Any, limit: float = 15.0) -> tuple[float, bytes]:
    """Read until the server closes the connection; seconds it took and what it sent."""
    start = time.monotonic()
    sock.settimeout(limit)
    data = b""
    try:
        while chunk := sock.recv(65536):
            data += chunk
    except (OSError, ssl.SSLError):
        pass
    return time.monotonic() - start, data


def _tls(server: Server) -> ssl.SSLSocket:
    context = ssl.create_default_context(cafile=str(server.ca_file))
    return context.wrap_socket(socket.create_connection(("127.0.0.1", int(server.base.rsplit(":", 1)[1]))),
                               server_hostname="127.0.0.1")


def test_a_connection_that_sends_nothing_is_closed(servers: dict[str, Server]) -> None:
    port = int(servers["strict"].base.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port)) as raw:  # not even a TLS handshake
        seconds, _ = _seconds_until_closed(raw)
    assert seconds < 5.0  # --read-timeout 1
    with _tls(servers["strict"]) as tls:  # a handshake, then nothing
        seconds, data = _seconds_until_closed(tls)
    assert seconds < 5.0 and data == b""


def test_headers_sent_slowly_are_cut(servers: dict[str, Server]) -> None:
    with _tls(servers["strict"]) as tls:
        tls.sendall(b"POST /convert HTTP/1.1\r\nHost: x\r\n")
        start = time.monotonic()
        data = b""
        tls.settimeout(0.3)
        while time.monotonic() - start < 15:
            try:
                chunk = tls.recv(65536)
                if not chunk:
                    break
                data += chunk
            except TimeoutError:
                tls.sendall(b"X")  # a byte now and then: each arrives in time, the headers never do
            except (OSError, ssl.SSLError):
                break
    assert time.monotonic() - start < 5.0
    assert data.startswith(b"HTTP/1.1 408 ")


def test_a_body_sent_slowly_gets_408(servers: dict[str, Server]) -> None:
    with _tls(servers["strict"]) as tls:
        tls.sendall(b"POST /convert HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                    b"Content-Length: 100\r\n\r\n{\"apiVersion\"")
        seconds, data = _seconds_until_closed(tls)
    assert seconds < 5.0
    head, _, payload = data.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 408 ") and b"connection: close" in head.lower()
    assert json.loads(payload) == {"error": "the request body was not received within 1 s"}


def test_oversized_headers_get_431(servers: dict[str, Server]) -> None:
    with _tls(servers["strict"]) as tls:
        # more than 64 KiB of headers, still not ended: the server stops reading them
        tls.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n" + b"X-Big: " + b"a" * 140_000)
        _, data = _seconds_until_closed(tls)
    assert data.startswith(b"HTTP/1.1 431 ")


# --- SIGTERM -----------------------------------------------------------------------------------------


def _descendants(pid: int) -> set[int]:
    found: set[int] = set()
    todo = [pid]
    while todo:
        p = todo.pop()
        for children in Path(f"/proc/{p}/task").glob("*/children"):
            try:
                kids = {int(c) for c in children.read_text().split()}
            except OSError:
                continue
            found |= kids
            todo.extend(kids)
    return found


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads child processes from /proc (Linux)")
@pytest.mark.parametrize("workers", ["1", "2"])
def test_sigterm_answers_every_request_then_exits(tmp_path: Path, workers: str) -> None:
    server = start_server(tmp_path, "tests/server/behaviours.py:convert", "--workers", workers, "--timeout", "5",
                          "--drain-delay", "1")
    try:
        expected = 2 if workers == "1" else 6  # 2 converter processes per worker (and the workers)
        deadline = time.monotonic() + 20
        while len(children := _descendants(server.process.pid)) < expected and time.monotonic() < deadline:
            time.sleep(0.1)  # the other worker is still starting
        assert len(children) == expected
        in_flight = [
            _in_background(lambda i=i: review(server, [crontab(f"d{i}", behaviour="sleep:1")], "stable.example.com/v2",
                                              uid=f"in-flight-{i}")[1])
            for i in range(4)
        ]
        time.sleep(0.4)  # the requests are being converted now
        signalled = time.monotonic()
        server.process.send_signal(signal.SIGTERM)
        time.sleep(0.1)
        with server.client(timeout=5.0) as client:
            # not ready any more, still serving (the drain delay); answers close their connections
            ready = client.get(server.base + "/readyz")
            assert ready.status_code == 503 and ready.headers["connection"] == "close"
            late = client.post(server.url, json=create_conversion_review(["v1"], [crontab("late")],
                                                                          "stable.example.com/v2", "late")[1])
            assert late.json()["response"]["result"]["status"] == "Success"
        for thread, box in in_flight:
            thread.join(timeout=20)
            assert "error" not in box, box.get("error")
            assert box["result"].json()["response"]["result"]["status"] == "Success"
        assert server.process.wait(timeout=20) == 0
        assert time.monotonic() - signalled < 5 + 5  # --timeout + 5 s
        with pytest.raises(httpx.TransportError), server.client(timeout=2.0) as client:
            client.get(server.base + "/healthz")
        deadline = time.monotonic() + 5
        while any(Path(f"/proc/{pid}").exists() for pid in children) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not [pid for pid in children if Path(f"/proc/{pid}/cmdline").exists()
                    and b"crdtool" in Path(f"/proc/{pid}/cmdline").read_bytes()]
    finally:
        server.stop()


def test_serving_needs_a_tls_choice() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "crdtool", "serve", "samples/crontab_conversion.py:convert", "--crd", str(CRD)],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
    )
    assert result.returncode == 2
    assert "serving needs TLS" in result.stderr
