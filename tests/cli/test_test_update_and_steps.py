"""``crdtool test --update`` (a failing case's expectation rewritten to the apiserver's answer, the file's
layout kept) and multi-step cases (a create, then updates of what it stored), issue 27."""

from __future__ import annotations

import difflib
import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from crdtool.cli.app import app

ROOT = Path(__file__).resolve().parents[2]
WIDGETS = ROOT / "samples" / "widgets.crdtest.yaml"


@pytest.fixture()
def widgets(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    shutil.copy(WIDGETS, tmp_path / "widgets.crdtest.yaml")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CRDTOOL_KUBERNETES_VERSION", raising=False)
    return tmp_path / "widgets.crdtest.yaml"


def invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["test", *args])
    return result.exit_code, result.output


def _crd_part(path: Path) -> str:
    text = path.read_text()
    return text[:text.index("cases:")]


def test_update_rewrites_only_the_failing_expectations_and_keeps_the_rest_byte_for_byte(widgets: Path) -> None:
    original = widgets.read_text()
    broken = (original.replace("message: class is immutable}]", "message: nope}]")
              .replace("warnings: [size 5 exceeds maxSize 4]", "warnings: [wrong]"))
    widgets.write_text(broken)
    code, out = invoke("--update", "widgets.crdtest.yaml")
    assert code == 0, out
    assert "updated: widgets.crdtest.yaml:" in out and "'class cannot change': expect " in out
    assert "--update: 2 cases updated, 0 not" in out
    text = widgets.read_text()
    # everything outside the two expectations is as written: comments, flow mappings, order, quoting
    changed = [line for line in difflib.ndiff(broken.splitlines(), text.splitlines()) if line[:2] in ("- ", "+ ")]
    assert changed == [  # one-line flow values stay one-line flow values
        "-       errors: [{field: spec.class, message: nope}]",
        '+       errors: [{field: spec.class, type: FieldValueInvalid, message: "spec.class: Invalid value: \\"b\\": '
        'class is immutable"}]',
        "-       warnings: [wrong]",
        '+       warnings: ["spec: Invalid value: size 5 exceeds maxSize 4"]',
    ]
    assert _crd_part(widgets) == _crd_part(WIDGETS)
    assert "  # the apiserver's whole answer, as envtest suites compare it (two errors: in brackets)" in text
    code, out = invoke("widgets.crdtest.yaml")
    assert code == 0 and out.rstrip().endswith("7 cases: 7 passed, 0 failed")
    code, out = invoke("--update", "widgets.crdtest.yaml")  # nothing fails: nothing to change
    assert code == 0 and "updated" not in out and widgets.read_text() == text


def test_update_leaves_a_case_that_cannot_run_and_says_so(widgets: Path) -> None:
    text = widgets.read_text().replace("name: a small widget\n    object: {apiVersion: example.com/v1, kind: Widget",
                                       "name: a small widget\n    object: {apiVersion: example.com/v1, kind: Gadget")
    widgets.write_text(text)
    code, out = invoke("--update", "widgets.crdtest.yaml")
    assert code == 1
    assert "not updated: widgets.crdtest.yaml:" in out and "'a small widget': it could not be run" in out
    assert widgets.read_text() == text


STEPS = """  - name: class is set once, then kept
    steps:
      - object: {apiVersion: example.com/v1, kind: Widget, metadata: {name: w}, spec: {size: 1, class: a}}
        expect: {valid: true}
      - object: {apiVersion: example.com/v1, kind: Widget, metadata: {name: w}, spec: {size: 2, class: a}}
        expect: {valid: true}
      - object: {apiVersion: example.com/v1, kind: Widget, metadata: {name: w}, spec: {size: 2, class: b}}
        expect: {errors: [{field: spec.class, message: class is immutable}]}
      - object: {apiVersion: example.com/v1, kind: Widget, metadata: {name: w}, spec: {size: 3, class: a}}
        expect: {valid: true}
"""


def test_a_multi_step_case_carries_the_stored_object_from_step_to_step(widgets: Path) -> None:
    widgets.write_text(widgets.read_text() + STEPS)
    code, out = invoke("--output", "json", "-k", "once", "widgets.crdtest.yaml")
    assert code == 0, out
    case = json.loads(out)["cases"][0]
    assert case["operation"] == "4 STEPS" and case["outcome"] == "passed"
    assert [s["operation"] for s in case["steps"]] == ["CREATE", "UPDATE", "UPDATE", "UPDATE"]
    # the refused third step stored nothing: the fourth updates what the second stored (class a), and passes
    assert [len(s["errors"]) for s in case["steps"]] == [0, 0, 1, 0]


def test_a_failing_step_is_named_and_update_fixes_that_step_only(widgets: Path) -> None:
    widgets.write_text(widgets.read_text() + STEPS.replace("message: class is immutable", "message: nope"))
    code, out = invoke("-k", "once", "widgets.crdtest.yaml")
    assert code == 1
    assert "step 3 (UPDATE): expected error not reported: spec.class 'nope'" in out
    assert "  step 3 (UPDATE, line " in out
    code, out = invoke("--update", "-k", "once", "widgets.crdtest.yaml")
    assert code == 0 and "'class is set once, then kept' step 3: expect" in out
    assert invoke("widgets.crdtest.yaml")[0] == 0
    assert widgets.read_text().count("expect: {valid: true}") == 3 + 1  # the other steps as written


def test_steps_are_read_strictly() -> None:
    from crdtool.testing.suite import load_suite

    bad = ("crds: [c.yaml]\ncases:\n  - name: a\n    object: {kind: X}\n    steps:\n"
           "      - {object: {kind: X}, expect: {valid: true}}\n")
    suite = load_suite("s.crdtest.yaml", bad)
    assert any("object goes inside each of its steps" in e.message for e in suite.errors)
    first_status = ("crds: [c.yaml]\ncases:\n  - name: a\n    steps:\n"
                    "      - {object: {kind: X}, subresource: status, expect: {valid: true}}\n")
    suite = load_suite("s.crdtest.yaml", first_status)
    assert any("not in the first step" in e.message for e in suite.errors)


def test_update_rewrites_the_expect_lines_of_an_annotated_manifest(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("crontab-v1.yaml", "crontab-too-many-replicas.crdtest.yaml"):
        shutil.copy(ROOT / "samples" / name, tmp_path / name)
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "crontab-too-many-replicas.crdtest.yaml"
    path.write_text(path.read_text().replace("replicas: 12", "replicas: 2"))
    before = path.read_text().splitlines()
    code, out = invoke("--update", path.name)
    assert code == 0, out
    after = path.read_text().splitlines()
    assert [(a, b) for a, b in zip(before, after) if a != b] == [
        ('# expect: FieldValueInvalid spec.replicas "should be less than or equal to 10"', "# expect: valid")]
    assert invoke(path.name)[0] == 0
    path.write_text(path.read_text().replace("replicas: 2", "replicas: -1"))
    code, out = invoke("--update", path.name)
    assert code == 0, out
    assert path.read_text().splitlines()[2] == (
        '# expect: FieldValueInvalid spec.replicas "spec.replicas: Invalid value: -1: spec.replicas in body should be '
        'greater than or equal to 1"')
    assert invoke(path.name)[0] == 0
