"""`crdtool review`: a webhook's answer judged as kube-apiserver judges it.

Expected messages are upstream's (webhook_converter.go ``webhookConverter.Convert``), as kubectl prints an
apiserver error with reason Unknown: ``Error from server: <message>``.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from crdtool.cli.app import app

CRD = str(Path(__file__).resolve().parents[2] / "samples" / "crontab-multiversion-v1.yaml")


def stored(name: str = "a") -> dict[str, Any]:
    return {
        "apiVersion": "stable.example.com/v2",
        "kind": "CronTab",
        "metadata": {"name": name, "namespace": "default", "uid": f"uid-{name}", "resourceVersion": "12"},
        "spec": {"min": "*", "hour": "*", "dayOfMonth": "*", "month": "*", "dayOfWeek": "*/5", "image": "busybox"},
    }


def converted(obj: dict[str, Any], **meta: Any) -> dict[str, Any]:
    out = copy.deepcopy(obj)
    out["apiVersion"] = "stable.example.com/v1"
    out["spec"] = {"cronSpec": "* * * * */5", "image": "busybox"}
    out["metadata"].update(meta)
    return out


def files(tmp_path: Path, objects: list[dict[str, Any]], answer: list[Any], version: str = "v1",
          answer_version: str | None = None) -> tuple[str, str]:
    request = {"apiVersion": f"apiextensions.k8s.io/{version}", "kind": "ConversionReview",
               "request": {"uid": "705ab4f5", "desiredAPIVersion": "stable.example.com/v1", "objects": objects}}
    response = {"apiVersion": f"apiextensions.k8s.io/{answer_version or version}", "kind": "ConversionReview",
                "response": {"uid": "705ab4f5", "result": {"status": "Success"}, "convertedObjects": answer}}
    req, resp = tmp_path / "request.json", tmp_path / "response.json"
    req.write_text(json.dumps(request))
    resp.write_text(json.dumps(response))
    return str(req), str(resp)


def review(*args: str) -> Any:
    return CliRunner().invoke(app, ["review", "--crd", CRD, *args])


def test_accepted_answer_prints_what_clients_get(tmp_path: Path) -> None:
    answer = converted(stored(), resourceVersion="999", labels={"new": "label"})
    answer["spec"]["extra"] = "dropped"
    req, resp = files(tmp_path, [stored()], [answer])
    result = review(req, resp, "--output", "json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["ok"] and report["error"] is None
    (obj,) = report["objects"]
    # metadata restored but for labels; the field unknown to v1 pruned; nothing defaulted
    assert obj["metadata"] == {**stored()["metadata"], "labels": {"new": "label"}}
    assert obj["spec"] == {"cronSpec": "* * * * */5", "image": "busybox"}
    assert report["pruned"] == [["spec.extra"]]


def test_text_output_is_yaml(tmp_path: Path) -> None:
    req, resp = files(tmp_path, [stored()], [converted(stored())])
    result = review(req, resp)
    assert result.exit_code == 0
    assert "apiVersion: stable.example.com/v1" in result.stdout and "cronSpec: '* * * * */5'" in result.stdout


def test_renamed_object_fails_with_the_apiservers_message(tmp_path: Path) -> None:
    req, resp = files(tmp_path, [stored()], [converted(stored(), name="b")])
    result = review(req, resp)
    assert result.exit_code == 1
    assert result.stdout.strip() == (
        "Error from server: conversion webhook for stable.example.com/v2, Kind=CronTab returned invalid object: "
        "must have the same name: a != b"
    )


def test_invalid_labels_in_a_list_conversion(tmp_path: Path) -> None:
    objects = [stored("a"), stored("b")]
    answer = [converted(stored("a")), converted(stored("b"), labels={"bad key": "x"})]
    req, resp = files(tmp_path, objects, answer, version="v1beta1")
    result = review(req, resp, "--output", "json")
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert report["error"].startswith(
        "conversion webhook for stable.example.com/v1, Kind=CronTabList returned invalid metadata in object at index 1: "
        'metadata.labels: Invalid value: "bad key": '
    )
    assert report["failureType"] == "conversion_webhook_invalid_converted_object_failure"
    assert report["kubectl"] == "Error from server: " + report["error"]


def test_answer_in_another_review_version(tmp_path: Path) -> None:
    req, resp = files(tmp_path, [stored()], [converted(stored())], version="v1", answer_version="v1beta1")
    result = review(req, resp)
    assert result.exit_code == 1
    assert result.stdout.strip() == (
        "Error from server: conversion webhook for stable.example.com/v2, Kind=CronTab failed: "
        "converting (v1beta1.ConversionReview) to (v1.ConversionReview): unknown conversion"
    )


def test_count_mismatch(tmp_path: Path) -> None:
    req, resp = files(tmp_path, [stored("a"), stored("b")], [converted(stored("a"))])
    result = review(req, resp)
    assert result.exit_code == 1
    assert "returned 1 objects, expected 2" in result.stdout


def test_input_errors_exit_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"kind": "Pod"}))
    _, resp = files(tmp_path, [stored()], [converted(stored())])
    result = review(str(bad), resp)
    assert result.exit_code == 2 and "not a ConversionReview" in result.stderr
    req, resp = files(tmp_path, [{**stored(), "apiVersion": "stable.example.com/v7"}], [])
    result = review(req, resp)
    assert result.exit_code == 2
    assert "request to convert CR from an invalid group/version: stable.example.com/v7" in result.stderr
