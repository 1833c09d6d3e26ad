"""``crdtool test`` cases whose object is a built-in kind (issue 29): judged by the release's create path of
built-in kinds (``create_builtin``), a suite needing no CRD."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import yaml

from crdtool.testing import SCHEMA_PATH
from crdtool.testing.runner import run
from crdtool.testing.suite import load_suite


def _deployment(template_labels: dict[str, str]) -> dict[str, Any]:
    return {
        "apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "d", "namespace": "default"},
        "spec": {"selector": {"matchLabels": {"a": "b"}},
                 "template": {"metadata": {"labels": template_labels}, "spec": {"containers": [{"name": "c", "image": "nginx"}]}}},
    }


def _run(tmp_path: Path, cases: list[dict[str, Any]], versions: list[str] | None = None) -> Any:
    suite: dict[str, Any] = {"cases": cases}
    if versions:
        suite["kubernetesVersions"] = versions
    path = tmp_path / "b.crdtest.yaml"
    path.write_text(yaml.safe_dump(suite, sort_keys=False))
    jsonschema.validate(suite, json.loads(Path(SCHEMA_PATH).read_text()))
    return run([load_suite(str(path))])


def test_builtin_cases_pass_and_fail_on_native_validation(tmp_path: Path) -> None:
    """ValidateDeployment's selector check (pkg/apis/apps/validation) decides; the message is the apiserver's."""
    result = _run(tmp_path, [
        {"name": "ok", "object": _deployment({"a": "b"}), "expect": {"valid": True}},
        {"name": "mismatch", "object": _deployment({"a": "c"}), "expect": {
            "errors": [{"field": "spec.template.metadata.labels", "type": "FieldValueInvalid"}],
            "statusMessage": 'Deployment.apps "d" is invalid: spec.template.metadata.labels: Invalid value: '
                             '{"a":"c"}: `selector` does not match template `labels`'}},
        {"name": "wrong", "object": _deployment({"a": "c"}), "expect": {"valid": True}},
    ])
    assert result.suite_errors == []
    assert [(r.case.name, r.outcome) for r in result.results] == [("ok", "passed"), ("mismatch", "passed"), ("wrong", "failed")]
    assert result.results[2].problems == ["expected the object to be valid, got 1 error"]


def test_builtin_decoding_defaults_and_serving(tmp_path: Path) -> None:
    """Strict decoding's BadRequest text, SetDefaults_Service / ServicePort in the stored object, and an unserved
    group-version refused with kubectl's RESTMapper words."""
    service = {"apiVersion": "v1", "kind": "Service", "metadata": {"name": "s", "namespace": "default"},
               "spec": {"ports": [{"port": 80}], "selector": {"a": "b"}}}
    result = _run(tmp_path, [
        {"name": "unknown field", "object": {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}, "bogus": 1},
         "expect": {"errors": [{"type": "UnknownField", "field": "bogus"}],
                    "statusMessage": 'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "bogus"'}},
        {"name": "defaults", "object": service,
         "expect": {"valid": True, "object": {"spec": {"type": "ClusterIP", "sessionAffinity": "None",
                                                        "ports": [{"port": 80, "protocol": "TCP", "targetPort": 80}]}}}},
        {"name": "unserved", "object": {"apiVersion": "batch/v1beta1", "kind": "CronJob", "metadata": {"name": "c"}},
         "expect": {"statusMessage": 'no matches for kind "CronJob" in version "batch/v1beta1"'}},
    ], versions=["1.30", "1.37"])
    assert result.suite_errors == []
    assert [r.outcome for r in result.results] == ["passed"] * 6, [r.problems for r in result.results]


def test_builtin_updates_are_not_judged(tmp_path: Path) -> None:
    """Only creates of built-in kinds are modelled: an update case is an error, never a silent pass."""
    cm = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}}
    result = _run(tmp_path, [{"name": "update", "oldObject": cm, "object": cm, "expect": {"valid": True}}])
    assert [r.outcome for r in result.results] == ["error"]
    assert "built-in kind" in result.results[0].problems[0]


def test_a_custom_resource_without_crd_is_still_an_error(tmp_path: Path) -> None:
    """A kind no release defines and no suite CRD defines: the case errs, naming the CRDs it looked in."""
    result = _run(tmp_path, [{"name": "cr", "object": {"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"}},
                              "expect": {"valid": True}}])
    assert [r.outcome for r in result.results] == ["error"]
    assert "no CRD of the suite defines 'Widget'" in result.results[0].problems[0]
