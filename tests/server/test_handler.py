"""crdtool.server.handler in-process: request checks, failures, the per-request timeout, the apiserver's checks."""

from __future__ import annotations

import copy
import json
import time
from typing import Any

import pytest

from crdtool.server.handler import BadRequest, CrdInfo, ReviewHandler, check_converted, parse_request

CRD = CrdInfo(name="crontabs.stable.example.com", group="stable.example.com", kind="CronTab", versions=("v1", "v2"))
OBJ = {"apiVersion": "stable.example.com/v1", "kind": "CronTab",
       "metadata": {"name": "a", "namespace": "ns", "uid": "u", "labels": {"x": "1"}}, "spec": {}}


def body(objects: list[Any], desired: str = "stable.example.com/v2", version: str = "v1") -> bytes:
    return json.dumps({"apiVersion": f"apiextensions.k8s.io/{version}", "kind": "ConversionReview",
                       "request": {"uid": "r", "desiredAPIVersion": desired, "objects": objects}}).encode()


def to_v2(obj: dict[str, Any], desired: str) -> dict[str, Any]:
    out = copy.deepcopy(obj)
    out["apiVersion"] = desired
    return out


def test_parse_request_reasons() -> None:
    assert parse_request(body([OBJ]))[1:3] == ("r", "stable.example.com/v2")
    for raw, reason in [
        (b"", "the body is not JSON"),
        (json.dumps({"apiVersion": "apiextensions.k8s.io/v1", "kind": "ConversionReview",
                     "request": {"uid": "", "desiredAPIVersion": "x", "objects": []}}).encode(),
         "request.uid must be a non-empty string"),
        (json.dumps({"apiVersion": "apiextensions.k8s.io/v1", "kind": "ConversionReview",
                     "request": {"uid": "u", "desiredAPIVersion": "x", "objects": {}}}).encode(),
         "request.objects must be a list"),
    ]:
        with pytest.raises(BadRequest, match=reason):
            parse_request(raw)
    with pytest.raises(BadRequest, match="3 objects, more than the limit of 2"):
        parse_request(body([OBJ] * 3), max_objects=2)


def test_success_in_the_requests_version_and_order() -> None:
    handler = ReviewHandler(to_v2, CRD)
    objs = [OBJ, {**OBJ, "metadata": {**OBJ["metadata"], "name": "b", "uid": "u2"}}]
    outcome = handler.handle(body(objs, version="v1beta1"))
    answer = json.loads(outcome.body)
    assert outcome.status == 200 and outcome.result == "success"
    assert answer["apiVersion"] == "apiextensions.k8s.io/v1beta1"
    assert [o["metadata"]["name"] for o in answer["response"]["convertedObjects"]] == ["a", "b"]
    assert [t.from_version for t in outcome.timings] == ["v1", "v1"]


def test_exception_without_message_reports_its_type() -> None:
    def fails(obj: dict[str, Any], desired: str) -> dict[str, Any]:
        raise KeyError()

    outcome = ReviewHandler(fails, CRD).handle(body([OBJ]))
    assert outcome.result == "failure" and outcome.reason == "converter_error"
    assert json.loads(outcome.body)["response"]["result"] == {"status": "Failure", "message": "KeyError"}


def test_timeout_interrupts_the_converter() -> None:
    def slow(obj: dict[str, Any], desired: str) -> dict[str, Any]:
        time.sleep(5)
        return obj

    start = time.monotonic()
    outcome = ReviewHandler(slow, CRD, timeout=0.2).handle(body([OBJ]))
    assert time.monotonic() - start < 2
    assert outcome.result == "timeout" and "within 0.2 s" in outcome.message and "ns/a" in outcome.message


def test_non_json_results_are_refused() -> None:
    def with_set(obj: dict[str, Any], desired: str) -> dict[str, Any]:
        out = to_v2(obj, desired)
        out["spec"] = {"x": {1, 2}}
        return out

    outcome = ReviewHandler(with_set, CRD).handle(body([OBJ]))
    assert outcome.result == "failure" and outcome.message.startswith("the converted objects are not JSON")


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (lambda o: o.update(apiVersion="stable.example.com/v1"),
         "invalid groupVersion (expected stable.example.com/v2, received stable.example.com/v1)"),
        (lambda o: o.update(kind="Other"), "invalid kind (expected CronTab, received Other)"),
        (lambda o: o["metadata"].update(namespace="n2"), "must have the same namespace: ns != n2"),
        (lambda o: o["metadata"].update(uid="u9"), "must have the same UID: u != u9"),
        (lambda o: o["metadata"].update(annotations={"bad key": "v"}),
         'invalid metadata: metadata.annotation: Invalid value: "bad key"'),
        (lambda o: o["metadata"].update(resourceVersion="5", finalizers=["f"]),
         "metadata.finalizers, metadata.resourceVersion changed"),
        (lambda o: o.__setitem__("metadata", "x"), "must have the same name: a != "),
    ],
)
def test_check_converted(change: Any, reason: str) -> None:
    converted = to_v2(OBJ, "stable.example.com/v2")
    assert check_converted(OBJ, converted, "stable.example.com/v2") is None
    change(converted)
    problem = check_converted(OBJ, converted, "stable.example.com/v2")
    assert problem is not None and problem.startswith(reason)


def test_labels_may_change() -> None:
    converted = to_v2(OBJ, "stable.example.com/v2")
    converted["metadata"]["labels"] = {"y": "2"}
    assert check_converted(OBJ, converted, "stable.example.com/v2") is None


def test_a_failure_built_outside_is_the_one_the_handler_answers() -> None:
    """ReviewHandler.timed_out (a converter process killed at object 1) answers byte for byte what handle does
    when its own timer stops the converter at that object."""
    def slow_second(obj: dict[str, Any], desired: str) -> dict[str, Any]:
        if obj["metadata"]["name"] == "b":
            time.sleep(5)
        return to_v2(obj, desired)

    objs = [OBJ, {**OBJ, "metadata": {**OBJ["metadata"], "name": "b", "uid": "u2"}}]
    handler = ReviewHandler(slow_second, CRD, timeout=0.3, name="conv")
    for version in ("v1", "v1beta1"):
        raw = body(objs, version=version)
        inside = handler.handle(raw)
        outside = handler.timed_out(raw, 1, 0.5)
        assert inside.result == outside.result == "timeout" and inside.reason == outside.reason == "timeout"
        assert inside.body == outside.body
        assert "(stopped at object 1, ns/b)" in outside.message
    # requests the handler refuses before converting are refused the same way
    for raw in (b"{", body(objs, desired="stable.example.com/v9")):
        inside, outside = handler.handle(raw), handler.timed_out(raw, 0, 0.1)
        assert (inside.status, inside.body, inside.result) == (outside.status, outside.body, outside.result)


def test_the_budget_shortens_the_timer_but_not_the_message() -> None:
    def slow(obj: dict[str, Any], desired: str) -> dict[str, Any]:
        time.sleep(5)
        return obj

    start = time.monotonic()
    outcome = ReviewHandler(slow, CRD, timeout=10).handle(body([OBJ]), budget=0.2)
    assert time.monotonic() - start < 3
    assert outcome.result == "timeout" and "within 10 s" in outcome.message


def test_crashed_names_the_object_and_how() -> None:
    objs = [OBJ, {**OBJ, "metadata": {**OBJ["metadata"], "name": "b", "uid": "u2"}}]
    outcome = ReviewHandler(to_v2, CRD, name="conv").crashed(body(objs), 1, 0.1, "was killed by signal SIGSEGV")
    assert outcome.result == "failure" and outcome.reason == "converter_error"
    assert json.loads(outcome.body)["response"] == {"uid": "r", "result": {
        "status": "Failure", "message": "the process running conv was killed by signal SIGSEGV while converting object 1 (ns/b)"}}


def test_progress_names_the_object_being_converted() -> None:
    seen: list[int] = []

    class Progress(list[int]):
        def __setitem__(self, i: Any, value: Any) -> None:
            seen.append(value)

    handler = ReviewHandler(to_v2, CRD)
    handler.progress = Progress([0])
    handler.handle(body([OBJ, OBJ, OBJ]))
    assert seen == [0, 1, 2]
