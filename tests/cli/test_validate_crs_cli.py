"""`crdtool validate` with custom resources (real start-up through a subprocess)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

SAMPLES = Path(__file__).resolve().parents[2] / "samples"
CRONTAB = str(SAMPLES / "crontab-v1.yaml")

BAD_CR = """\
apiVersion: stable.example.com/v1
kind: CronTab
metadata:
  name: Bad_Name
spec:
  cronSpec: "* * * * */5"
  replicas: 20
  bogus: 1
"""

CEL_CRD = """\
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  scope: Cluster
  names: {plural: widgets, singular: widget, kind: Widget}
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
              size: {type: string, enum: [small, large]}
              count: {type: integer}
            x-kubernetes-validations:
            - rule: "self.count < 5"
              message: count must be below 5
"""


def crdtool(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "crdtool", "validate", *args], capture_output=True, text=True, timeout=120, check=False,
    )


def run_json(*args: str) -> tuple[int, dict[str, Any]]:
    out = crdtool(*args, "--output", "json")
    assert "Traceback" not in out.stdout + out.stderr
    return out.returncode, json.loads(out.stdout)


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_valid_cr_against_crd_flag() -> None:
    code, data = run_json("--crd", CRONTAB, str(SAMPLES / "crontab-cr-v1.yaml"))
    assert code == 0
    [doc] = data["documents"]  # the --crd file is not itself reported
    assert doc == {
        "file": str(SAMPLES / "crontab-cr-v1.yaml"),
        "index": 0,
        "line": 2,
        "apiVersion": "stable.example.com/v1",
        "kind": "CronTab",
        "name": "my-new-cron-object",
        "status": "valid",
        "errors": [],
        "warnings": [],
        "apiStatus": {"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Success", "code": 201},
    }
    assert data["summary"] == {"documents": 1, "valid": 1, "invalid": 0, "skipped": 0, "errors": 0}


def test_invalid_cr_errors_have_the_crd_error_shape(tmp_path: Path) -> None:
    cr = write(tmp_path, "cr.yaml", BAD_CR)
    code, data = run_json("--crd", CRONTAB, cr)
    assert code == 1
    [doc] = data["documents"]
    assert doc["status"] == "invalid"
    assert [(e["type"], e["field"], e["line"], e["column"]) for e in doc["errors"]] == [
        ("UnknownField", "spec.bogus", 8, 3),
        ("FieldValueInvalid", "metadata.name", 4, 3),
        ("FieldValueInvalid", "spec.replicas", 7, 3),
    ]
    replicas = doc["errors"][2]
    assert replicas["detail"] == "spec.replicas in body should be less than or equal to 10"
    assert replicas["badValue"] == 20
    assert replicas["message"] == "spec.replicas: Invalid value: 20: spec.replicas in body should be less than or equal to 10"
    assert set(replicas) == {"type", "field", "detail", "badValue", "message", "line", "column"}


def test_crds_among_the_inputs_are_used_without_crd_flag(tmp_path: Path) -> None:
    cr = write(tmp_path, "cr.yaml", BAD_CR)
    code, data = run_json(CRONTAB, cr)
    assert code == 1
    statuses = [(d["kind"], d["status"]) for d in data["documents"]]
    assert statuses == [("CustomResourceDefinition", "valid"), ("CronTab", "invalid")]


def test_cr_before_its_crd_in_the_same_file(tmp_path: Path) -> None:
    both = write(tmp_path, "both.yaml", BAD_CR + "---\n" + Path(CRONTAB).read_text())
    code, data = run_json(both)
    assert code == 1
    assert [d["status"] for d in data["documents"]] == ["invalid", "valid"]


def test_cr_without_its_crd_is_a_finding(tmp_path: Path) -> None:
    """Issue 27, repro 06: a custom resource whose CRD is nowhere was "skipped" (exit 0), so a pre-commit run on a
    commit that changes only custom resources passed. kubectl answers such an object ``no matches for kind``."""
    cr = write(tmp_path, "cr.yaml", BAD_CR)
    code, data = run_json(cr)
    assert code == 1
    [doc] = data["documents"]
    assert doc["status"] == "invalid"
    assert doc["errors"][0]["message"].startswith(
        'no matches for kind "CronTab" in version "stable.example.com/v1": no CRD for CronTab.stable.example.com')
    text = crdtool(cr)
    assert text.returncode == 1 and f"{cr}:1:1: no matches for kind" in text.stdout
    matrix = crdtool("--kubernetes-version", "1.36-1.37", cr)
    assert matrix.returncode == 1 and "no matches for kind" in matrix.stdout


def test_ignore_missing_crds_skips_them_with_a_note(tmp_path: Path) -> None:
    cr = write(tmp_path, "cr.yaml", BAD_CR)
    code, data = run_json("--ignore-missing-crds", cr)
    assert code == 0 and data["documents"][0]["status"] == "skipped"
    text = crdtool("--ignore-missing-crds", cr)
    assert "skipped: CronTab Bad_Name (stable.example.com/v1): no CRD for CronTab.stable.example.com among the inputs" in text.stdout


def test_built_in_kinds_are_not_custom_resources(tmp_path: Path) -> None:
    docs = ["apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n",
            "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: a}\n",
            "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {name: a}\n"]
    code, data = run_json(write(tmp_path, "builtin.yaml", "---\n".join(docs)))
    # judged as the built-in kinds they are (#29, #30), never as custom resources missing their CRD
    assert code == 1 and [d["status"] for d in data["documents"]] == ["valid", "invalid", "invalid"]
    messages = [e["message"] for d in data["documents"] for e in d["errors"]]
    assert not any("no matches for kind" in m for m in messages), messages
    assert "spec.selector: Required value" in messages


def test_the_crd_catalog_of_the_configuration_file(tmp_path: Path) -> None:
    """What the README's pre-commit snippet relies on: crd: in .crdtool.yaml is loaded on every run."""
    (tmp_path / ".git").mkdir()
    (tmp_path / "deploy" / "crds").mkdir(parents=True)
    (tmp_path / "deploy" / "crds" / "crontab.yaml").write_text(Path(CRONTAB).read_text())
    (tmp_path / "deploy" / "cr.yaml").write_text(BAD_CR)
    (tmp_path / ".crdtool.yaml").write_text("crd: [deploy/crds/]\n")
    out = subprocess.run([sys.executable, "-m", "crdtool", "validate", "deploy/cr.yaml"], capture_output=True,
                         text=True, timeout=120, check=False, cwd=tmp_path)
    assert out.returncode == 1 and "spec.replicas: Invalid value: 20" in out.stdout, out.stdout + out.stderr
    (tmp_path / ".crdtool.yaml").write_text("ignore-missing-crds: true\n")
    out = subprocess.run([sys.executable, "-m", "crdtool", "validate", "deploy/cr.yaml"], capture_output=True,
                         text=True, timeout=120, check=False, cwd=tmp_path)
    assert out.returncode == 0 and "skipped" in out.stdout


def test_text_output_points_at_file_line_column(tmp_path: Path) -> None:
    cr = write(tmp_path, "cr.yaml", BAD_CR)
    out = crdtool("--crd", CRONTAB, cr)
    assert out.returncode == 1
    assert f"{cr}:7:3: spec.replicas: Invalid value: 20: spec.replicas in body should be less than or equal to 10" in out.stdout
    assert f'{cr}:8:3: unknown field "spec.bogus"' in out.stdout


def test_unserved_version_is_invalid(tmp_path: Path) -> None:
    crd = Path(SAMPLES / "crontab-multiversion-v1.yaml").read_text().replace(
        "served: true\n      storage: false", "served: false\n      storage: false", 1
    )
    crd_path = write(tmp_path, "crd.yaml", crd)
    code, data = run_json("--crd", crd_path, str(SAMPLES / "crontab-cr-v1.yaml"))
    assert code == 1
    [error] = data["documents"][0]["errors"]
    assert (error["type"], error["field"], error["badValue"]) == ("FieldValueInvalid", "apiVersion", "stable.example.com/v1")
    assert 'no matches for kind "CronTab" in version "stable.example.com/v1"' in error["detail"]


def test_cel_rules_and_the_blocking_error(tmp_path: Path) -> None:
    crd = write(tmp_path, "crd.yaml", CEL_CRD)
    head = "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\nspec:\n"
    blocked = write(tmp_path, "blocked.yaml", head + "  size: huge\n  count: 9\n")
    code, data = run_json("--crd", crd, blocked)
    assert code == 1
    errors = data["documents"][0]["errors"]
    assert [(e["type"], e["field"]) for e in errors] == [("FieldValueNotSupported", "spec.size"), ("FieldValueInvalid", "<nil>")]
    assert errors[1]["message"] == (
        '<nil>: Invalid value: null: some validation rules were not checked because the object was invalid; '
        "correct the existing errors to complete validation"
    )
    assert (errors[1]["line"], errors[1]["column"]) == (1, 1)  # the nil path: the object itself
    evaluated = write(tmp_path, "evaluated.yaml", head + "  size: small\n  count: 9\n")
    code, data = run_json("--crd", crd, evaluated)
    assert code == 1
    [error] = data["documents"][0]["errors"]
    assert (error["type"], error["field"], error["detail"]) == ("FieldValueInvalid", "spec", "count must be below 5")
    assert (error["line"], error["column"]) == (5, 1)


def test_list_items_are_validated_with_item_paths(tmp_path: Path) -> None:
    lst = write(tmp_path, "list.yaml", """\
apiVersion: v1
kind: List
items:
- apiVersion: stable.example.com/v1
  kind: CronTab
  metadata: {name: ok}
- apiVersion: stable.example.com/v1
  kind: CronTab
  metadata: {name: bad}
  spec: {replicas: 0}
""")
    code, data = run_json("--crd", CRONTAB, lst)
    assert code == 1
    [doc] = data["documents"]
    [error] = doc["errors"]
    assert (error["field"], error["line"], error["column"]) == ("items[1].spec.replicas", 10, 10)
    assert error["message"].startswith("items[1].spec.replicas: Invalid value: 0:")


def test_duplicate_keys_in_a_cr_are_strict_decoding_errors(tmp_path: Path) -> None:
    cr = write(tmp_path, "cr.yaml", "apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: a\n"
                                    "spec:\n  image: a\n  image: b\n")
    code, data = run_json("--crd", CRONTAB, cr)
    assert code == 1
    [error] = data["documents"][0]["errors"]
    assert (error["type"], error["field"], error["message"]) == ("DuplicateField", "spec.image", 'duplicate field "spec.image"')


def test_cr_of_an_invalid_crd_gets_a_warning(tmp_path: Path) -> None:
    crd = Path(CRONTAB).read_text().replace("scope: Namespaced", "scope: Nowhere")
    crd_path = write(tmp_path, "crd.yaml", crd)
    code, data = run_json(crd_path, str(SAMPLES / "crontab-cr-v1.yaml"))
    assert code == 1  # the CRD is invalid
    cr = data["documents"][1]
    assert cr["status"] == "valid"
    assert any("is itself invalid" in w for w in cr["warnings"])


def test_samples_directory_validates() -> None:
    code, data = run_json(str(SAMPLES))
    assert code == 0
    by_kind = {(d["kind"], d["status"]) for d in data["documents"]}
    assert ("CronTab", "valid") in by_kind


def test_cr_of_an_undecodable_crd_is_skipped(tmp_path: Path) -> None:
    crd = Path(CRONTAB).read_text().replace("      served: true", "      served: 7", 1)
    crd_path = write(tmp_path, "crd.yaml", crd)
    code, data = run_json(crd_path, str(SAMPLES / "crontab-cr-v1.yaml"))
    assert code == 1  # the CRD cannot be decoded
    assert [d["status"] for d in data["documents"]] == ["invalid", "skipped"]
    text = crdtool(crd_path, str(SAMPLES / "crontab-cr-v1.yaml")).stdout
    assert "skipped: CronTab my-new-cron-object (stable.example.com/v1): CRD crontabs.stable.example.com" in text
    assert "cannot be used: the CRD cannot be decoded" in text
