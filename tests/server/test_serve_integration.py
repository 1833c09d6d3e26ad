"""``crdtool serve`` for real: subprocesses on loopback ports with self-signed certificates, spoken to over
HTTPS with httpx, judged with crdtool.core.conversion_review (the apiserver's own checks).

Servers (all bound to 127.0.0.1, all stopped by the fixtures, each bounded in time):

- ``behaviours``: tests/server/behaviours.py:convert (the lossless CronTab converter plus behaviours
  switched on by an annotation), 2 workers, 1 s request timeout, 64 KiB body limit;
- ``lossy``: samples/crontab_conversion.py:convert (the KEP's converter), 1 worker;
- a third one in the SIGTERM test, which it terminates itself.
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


# --- SIGTERM -----------------------------------------------------------------------------------------


def test_sigterm_drains_in_flight_requests(tmp_path: Path) -> None:
    server = start_server(tmp_path, "tests/server/behaviours.py:convert", "--timeout", "5")
    try:
        box: dict[str, Any] = {}

        def slow() -> None:
            try:
                box["response"] = review(server, [crontab("draining", behaviour="sleep:1.5")], "stable.example.com/v2")[1]
            except Exception as exc:  # noqa: BLE001 - reported below
                box["error"] = exc

        worker = threading.Thread(target=slow)
        worker.start()
        time.sleep(0.5)  # the request is in the converter now
        server.process.send_signal(signal.SIGTERM)
        worker.join(timeout=15)
        assert "error" not in box, box.get("error")
        response = box["response"]
        assert response.status_code == 200
        assert response.json()["response"]["result"]["status"] == "Success"
        assert server.process.wait(timeout=15) == 0
        with pytest.raises(httpx.TransportError), server.client(timeout=2.0) as client:
            client.get(server.base + "/healthz")
    finally:
        server.stop()


def test_serving_needs_a_tls_choice() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "crdtool", "serve", "samples/crontab_conversion.py:convert", "--crd", str(CRD)],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
    )
    assert result.returncode == 2
    assert "serving needs TLS" in result.stderr
