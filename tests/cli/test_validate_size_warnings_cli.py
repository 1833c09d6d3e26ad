"""`crdtool validate` reports the size warnings of its inputs, client-side kubectl apply's annotation limit first.

Limits: kube-apiserver's 3 MiB request body and etcd's default 1.5 MiB (``crdtool.yaml.loader``), and apimachinery
v0.36.3 ``pkg/api/validation/objectmeta.go`` ``ValidateAnnotationsSize`` (``TotalAnnotationSizeLimitB`` = 262144
bytes of annotation keys and values; ``metadata.annotations: Too long: may not be more than 262144 bytes``), which
client-side ``kubectl apply`` hits by storing the object as JSON in ``kubectl.kubernetes.io/last-applied-
configuration`` (kubectl ``util.GetModifiedConfiguration``: compact Go JSON plus a newline, existing annotations
kept, ``"annotations":{}`` when there are none). The sizes below were checked against kubectl v1.32.4: ``kubectl
create --dry-run=client --save-config -o json`` of ``crd(250000)`` gives annotations totalling 250695 bytes.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from crdtool.cli.app import app

KUBECTL_TOTAL_AT_250000 = 250695
LIMIT = 262144


def crd(description_bytes: int) -> dict[str, Any]:
    return {
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {
            "name": "crontabs.stable.example.com",
            "uid": "0b7a3f0e-0000-4000-8000-000000000001",
            "creationTimestamp": "2024-01-01T00:00:00Z",
            "generation": 1,
            "annotations": {"a.example.com/x": "v<&>é", "kubectl.kubernetes.io/last-applied-configuration": "old"},
        },
        "spec": {
            "group": "stable.example.com",
            "scope": "Namespaced",
            "names": {"plural": "crontabs", "singular": "crontab", "kind": "CronTab", "listKind": "CronTabList"},
            "versions": [{"name": "v1", "served": True, "storage": True, "schema": {"openAPIV3Schema": {
                "type": "object",
                "description": "x" * description_bytes,
                "properties": {"f": {"type": "number", "default": 1e-7, "maximum": 1e21}},
            }}}],
        },
    }


def validate(tmp_path: Path, doc: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    path = tmp_path / "crd.yaml"
    path.write_text(yaml.safe_dump(doc))
    result = CliRunner().invoke(app, ["validate", "--output", "json", str(path)])
    return result.exit_code, json.loads(result.stdout)["documents"][0]


def apply_warning(total: int) -> str:
    return (
        "client-side kubectl apply would fail: the kubectl.kubernetes.io/last-applied-configuration annotation it adds "
        f"(this object as JSON) brings metadata.annotations to {total} bytes, over the 262144-byte limit "
        "(metadata.annotations: Too long: may not be more than 262144 bytes); use kubectl apply --server-side "
        "(or kubectl create)"
    )


@pytest.mark.parametrize(("extra", "warned"), [(LIMIT - KUBECTL_TOTAL_AT_250000, False), (LIMIT - KUBECTL_TOTAL_AT_250000 + 1, True)])
def test_last_applied_annotation_limit(tmp_path: Path, extra: int, warned: bool) -> None:
    code, doc = validate(tmp_path, crd(250000 + extra))
    assert code == 0 and doc["status"] == "valid"
    assert doc["warnings"] == ([apply_warning(LIMIT + 1)] if warned else [])


def test_list_items_are_applied_one_by_one(tmp_path: Path) -> None:
    big = crd(250000 + LIMIT - KUBECTL_TOTAL_AT_250000 + 1)
    code, doc = validate(tmp_path, {"apiVersion": "v1", "kind": "List", "items": [crd(10), big]})
    assert code == 0
    assert doc["warnings"] == [f"items[1]: {apply_warning(LIMIT + 1)}"]


@pytest.mark.parametrize(("size", "warning"), [
    (1600 * 1024, "etcd rejects objects over 1572864 bytes (1.5 MiB) by default"),
    (3100 * 1024, "kube-apiserver rejects request bodies over 3145728 bytes (3 MiB)"),
])
def test_request_and_etcd_limits_are_reported(tmp_path: Path, size: int, warning: str) -> None:
    code, doc = validate(tmp_path, crd(size))
    assert code == 0 and doc["status"] == "valid"
    [w] = doc["warnings"]
    assert w.startswith("document is ") and w.endswith(warning)


def test_text_output_shows_the_warning(tmp_path: Path) -> None:
    path = tmp_path / "crd.yaml"
    path.write_text(yaml.safe_dump(crd(270000)))
    result = CliRunner().invoke(app, ["validate", str(path)])
    assert result.exit_code == 0
    assert "use kubectl apply --server-side" in result.stdout
