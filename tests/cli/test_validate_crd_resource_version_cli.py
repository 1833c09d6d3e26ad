"""`crdtool validate` of a CRD exported with `kubectl get crd -o yaml`: the create is refused, single and in a List.

The rule is k8s.io/apiserver v0.36.3 ``pkg/storage/etcd3/store.go`` ``store.Create``
(tests/core/test_crd_resource_version.py). Commands that only read a CRD accept the export.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml
from typer.testing import CliRunner

from crdtool.cli.app import app
from tests.core.test_crd_resource_version import DETAIL, EXPORTED

WIDGET = {"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w", "namespace": "default"}}


def invoke(*args: str) -> Any:
    return CliRunner().invoke(app, list(args))


def test_single_crd(tmp_path: Path) -> None:
    path = tmp_path / "crd.yaml"
    path.write_text(yaml.safe_dump(EXPORTED, sort_keys=False))
    result = invoke("validate", "--output", "json", str(path))
    assert result.exit_code == 1, result.output
    [doc] = json.loads(result.stdout)["documents"]
    assert doc["status"] == "invalid"
    assert [(e["type"], e["field"], e["detail"], e["line"]) for e in doc["errors"]] == [
        ("InternalError", "metadata.resourceVersion", DETAIL, 5)
    ]


def test_in_a_list(tmp_path: Path) -> None:
    fresh = json.loads(json.dumps(EXPORTED))
    del fresh["metadata"]["resourceVersion"]
    path = tmp_path / "crds.yaml"
    path.write_text(yaml.safe_dump({"apiVersion": "v1", "kind": "List", "metadata": {"resourceVersion": ""},
                                    "items": [fresh, EXPORTED]}, sort_keys=False))
    result = invoke("validate", "--output", "json", str(path))
    assert result.exit_code == 1, result.output
    [doc] = json.loads(result.stdout)["documents"]
    assert [(e["type"], e["field"], e["detail"]) for e in doc["errors"]] == [
        ("InternalError", "items[1].metadata.resourceVersion", DETAIL)
    ]


def test_reading_an_exported_crd_is_fine(tmp_path: Path) -> None:
    crd = tmp_path / "crd.yaml"
    crd.write_text(yaml.safe_dump(EXPORTED, sort_keys=False))
    cr = tmp_path / "w.yaml"
    cr.write_text(yaml.safe_dump(WIDGET))
    result = invoke("validate", "--output", "json", "--crd", str(crd), str(cr))
    assert result.exit_code == 0, result.output
    [doc] = json.loads(result.stdout)["documents"]
    assert doc["status"] == "valid" and doc["warnings"] == []
    result = invoke("schema", "--crd", str(crd))
    assert result.exit_code == 0, result.output
