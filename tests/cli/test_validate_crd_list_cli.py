"""`crdtool validate` on a `v1` List of CRDs (what `kubectl get crd -o yaml` prints): item by item."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from crdtool.cli.report import OutputFormat
from crdtool.cli.validate import run

CRD_LIST = """\
apiVersion: v1
kind: List
metadata:
  resourceVersion: ""
items:
- apiVersion: apiextensions.k8s.io/v1
  kind: CustomResourceDefinition
  metadata:
    name: widgets.example.com
  spec:
    group: example.com
    scope: Namespaced
    names: {plural: widgets, singular: widget, kind: Widget, listKind: WidgetList}
    versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              properties:
                size: {type: integer, maximum: 5}
  status:
    acceptedNames: {plural: widgets, kind: Widget}
    storedVersions: [v1]
- apiVersion: apiextensions.k8s.io/v1
  kind: CustomResourceDefinition
  metadata:
    name: gadgets.example.com
  spec:
    group: example.com
    scope: Namespaced
    names: {singular: gadget, kind: Gadget}
    versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          bogus: 1
"""

WIDGET = """\
apiVersion: example.com/v1
kind: Widget
metadata: {name: w, namespace: default}
spec: {size: 9}
"""


def validate_json(capsys: pytest.CaptureFixture[str], *paths: str, crd: list[str] | None = None) -> tuple[int, dict[str, Any]]:
    code = run(list(paths), OutputFormat.json, crd)
    return code, json.loads(capsys.readouterr().out)


def test_each_crd_of_a_list_is_judged_with_item_paths(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "crds.yaml"
    path.write_text(CRD_LIST)
    code, out = validate_json(capsys, str(path))
    assert code == 1
    [doc] = out["documents"]
    assert doc["kind"] == "List" and doc["status"] == "invalid"
    got = [(e["type"], e["field"], e["detail"], e["line"]) for e in doc["errors"]]
    assert got == [
        ("UnknownField", "items[1].spec.versions[0].schema.openAPIV3Schema.bogus",
         'unknown field "spec.versions[0].schema.openAPIV3Schema.bogus"', 44),
        ("FieldValueInvalid", "items[1].metadata.name", 'must be spec.names.plural+"."+spec.group', 32),
        ("FieldValueRequired", "items[1].spec.names.plural", "", 36),
    ]
    assert doc["errors"][2]["message"] == "items[1].spec.names.plural: Required value"


def test_custom_resources_are_checked_against_crds_of_a_list(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    crds = tmp_path / "crds.yaml"
    crds.write_text(CRD_LIST)
    widget = tmp_path / "widget.yaml"
    widget.write_text(WIDGET)
    code, out = validate_json(capsys, str(widget), crd=[str(crds)])
    assert code == 1
    [doc] = out["documents"]
    assert [(e["type"], e["field"], e["detail"]) for e in doc["errors"]] == [
        ("FieldValueInvalid", "spec.size", "spec.size in body should be less than or equal to 5")
    ]


def test_a_valid_list_of_crds(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "crds.yaml"
    path.write_text(CRD_LIST.split("- apiVersion: apiextensions.k8s.io/v1\n  kind: CustomResourceDefinition\n  metadata:\n    name: gadgets")[0])
    code, out = validate_json(capsys, str(path))
    assert code == 0
    assert out["documents"][0]["status"] == "valid"
