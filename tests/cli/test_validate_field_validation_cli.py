"""`crdtool validate --field-validation Strict|Warn|Ignore` (kubectl's server-side field validation).

Semantics from k8s.io/apiserver v0.36.3 ``pkg/endpoints/handlers/create.go``: with ``Strict`` a
strict-decoding error fails the request; with ``Warn`` each strict error becomes a warning
(``addStrictDecodingWarnings``: the error text, ``unknown field "spec.bogus"``) and the decoded
object is validated; with ``Ignore`` they are dropped.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from crdtool.cli.app import app
from crdtool.core.crd.manifest import check_crd_manifest

CRD = """\
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  scope: Namespaced
  bogus: 1
  names: {plural: widgets, singular: widget, kind: Widget, listKind: WidgetList}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: {type: object, properties: {size: {type: integer, maximum: 5}}}
"""

CR_UNKNOWN = """\
apiVersion: example.com/v1
kind: Widget
metadata: {name: w, namespace: default}
spec: {size: 1, extra: true}
"""

CR_DUPLICATE_AND_INVALID = """\
apiVersion: example.com/v1
kind: Widget
metadata: {name: w, namespace: default}
spec:
  size: 3
  size: 9
"""


def run(tmp_path: Path, *args: str, files: dict[str, str]) -> tuple[int, dict[str, Any]]:
    paths = []
    for name, text in files.items():
        (tmp_path / name).write_text(text)
        paths.append(str(tmp_path / name))
    result = CliRunner().invoke(app, ["validate", *paths, "--output", "json", *args])
    return result.exit_code, json.loads(result.stdout)


def test_strict_rejects_unknown_fields(tmp_path: Path) -> None:
    code, out = run(tmp_path, files={"crd.yaml": CRD, "cr.yaml": CR_UNKNOWN})
    assert code == 1
    crd, cr = out["documents"]
    assert [(e["type"], e["field"]) for e in crd["errors"]] == [("UnknownField", "spec.bogus")]
    assert [(e["type"], e["field"]) for e in cr["errors"]] == [("UnknownField", "spec.extra")]


@pytest.mark.parametrize("flag", ["Warn", "warn"])
def test_warn_turns_them_into_warnings(tmp_path: Path, flag: str) -> None:
    code, out = run(tmp_path, "--field-validation", flag, files={"crd.yaml": CRD, "cr.yaml": CR_UNKNOWN})
    assert code == 0
    crd, cr = out["documents"]
    assert crd["status"] == "valid" and cr["status"] == "valid"
    assert 'unknown field "spec.bogus"' in crd["warnings"]
    assert 'unknown field "spec.extra"' in cr["warnings"]


def test_warn_keeps_the_validation_verdict(tmp_path: Path) -> None:
    code, out = run(tmp_path, "--field-validation", "Warn", files={"crd.yaml": CRD, "cr.yaml": CR_DUPLICATE_AND_INVALID})
    assert code == 1
    cr = out["documents"][1]
    assert [(e["type"], e["field"], e["detail"]) for e in cr["errors"]] == [
        ("FieldValueInvalid", "spec.size", "spec.size in body should be less than or equal to 5")
    ]
    assert 'duplicate field "spec.size"' in cr["warnings"]


def test_ignore_drops_them(tmp_path: Path) -> None:
    code, out = run(tmp_path, "--field-validation", "Ignore", files={"crd.yaml": CRD, "cr.yaml": CR_UNKNOWN})
    assert code == 0
    assert all(not d["errors"] and not any("field" in w for w in d["warnings"]) for d in out["documents"])


def test_an_unknown_directive_is_a_usage_error(tmp_path: Path) -> None:
    (tmp_path / "crd.yaml").write_text(CRD)
    result = CliRunner().invoke(app, ["validate", str(tmp_path / "crd.yaml"), "--field-validation", "Lenient"])
    assert result.exit_code == 2


def test_core_check_crd_manifest_directives() -> None:
    import yaml

    doc = yaml.safe_load(CRD)
    strict = check_crd_manifest(doc, duplicate_fields=["spec.group"])
    assert [(f.error.type, f.error.field) for f in strict.findings] == [
        ("DuplicateField", "spec.group"), ("UnknownField", "spec.bogus")
    ]
    warn = check_crd_manifest(doc, field_validation="Warn", duplicate_fields=["spec.group"])
    assert warn.valid and list(warn.warnings) == ['duplicate field "spec.group"', 'unknown field "spec.bogus"']
    ignore = check_crd_manifest(doc, field_validation="Ignore", duplicate_fields=["spec.group"])
    assert ignore.valid and ignore.warnings == ()
    with pytest.raises(ValueError):
        check_crd_manifest(doc, field_validation="strict")
