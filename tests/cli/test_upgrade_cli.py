"""`crdtool upgrade-manifest`: golden files, passthrough, --check/--diff/--output json, -o, --in-place.

Golden files live in tests/golden/upgrade: ``CASE.in.yaml`` (input), ``CASE.args``
(the options) and ``CASE.out.yaml`` (expected stdout). They are compared byte
for byte; to regenerate them after an intended change run the tests with
``CRDTOOL_REGEN_GOLDEN=1`` (the regenerated cases are reported as skipped) and
review the diff. Independently of the golden text, every converted document
must re-read as exactly what ``upgrade_crd`` returns.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from crdtool.cli import upgrade
from crdtool.cli.app import app
from crdtool.core.crd.upgrade import upgrade_crd
from crdtool.yaml import edit as yamledit
from crdtool.yaml.loader import Document, load_documents

REPO = Path(__file__).resolve().parents[2]
GOLDEN = REPO / "tests" / "golden" / "upgrade"
CASES = sorted(p.name[: -len(".in.yaml")] for p in GOLDEN.glob("*.in.yaml"))
V1 = "apiextensions.k8s.io/v1"
V1BETA1 = "apiextensions.k8s.io/v1beta1"

SIMPLE_V1BETA1 = """\
apiVersion: apiextensions.k8s.io/v1beta1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
spec:
  group: example.com
  version: v1
  names:
    kind: Foo
    plural: foos
  scope: Namespaced
  preserveUnknownFields: false
  validation:
    openAPIV3Schema:
      type: object
      properties:
        spec:
          type: object
          properties:
            size: {type: integer}   # how big
"""


def cli(*args: str, stdin: str | None = None) -> Any:
    """crdtool in-process (Typer's runner): exit_code, stdout, stderr."""
    return CliRunner().invoke(app, list(args), input=stdin)


def crdtool(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """crdtool as a real process, from the repository root."""
    return subprocess.run(
        [sys.executable, "-m", "crdtool", *args], input=stdin, capture_output=True, text=True, timeout=120, cwd=REPO,
        check=False,
    )


def chunks(text: str) -> list[str]:
    return [text[s.start:s.end] for s in yamledit.split_documents(text)]


def assert_converts_exactly(before: str, after: str, target: str, fix: bool = False) -> list[str]:
    """Each chunk of ``after`` is the chunk of ``before`` unchanged, or re-reads as upgrade_crd's result.

    Returns the names of the converted documents.
    """
    old_chunks, new_chunks = chunks(before), chunks(after)
    assert len(old_chunks) == len(new_chunks)
    converted = []
    for old, new in zip(old_chunks, new_chunks):
        docs = [d for d in load_documents(old, "in") if isinstance(d, Document)]
        data = docs[0].data if docs else None
        if not docs or data.get("kind") != "CustomResourceDefinition" or data.get("apiVersion") in (target, None):
            assert new == old, "a document that needs no conversion must pass through byte for byte"
            continue
        expected, _ = upgrade_crd(data, target, fix=fix)
        re_read = [d for d in load_documents(new, "out") if isinstance(d, Document)]
        assert len(re_read) == 1 and yamledit.same(re_read[0].data, expected), new
        converted.append(data["metadata"]["name"])
    return converted


# --------------------------------------------------------------------------
# Golden files


@pytest.mark.parametrize("case", CASES)
def test_golden(case: str) -> None:
    args = (GOLDEN / f"{case}.args").read_text().split()
    source = f"tests/golden/upgrade/{case}.in.yaml"
    out = crdtool("upgrade-manifest", source, *args)
    assert out.returncode == 0, out.stderr
    assert "Traceback" not in out.stderr
    expected = GOLDEN / f"{case}.out.yaml"
    if os.environ.get("CRDTOOL_REGEN_GOLDEN") == "1":
        expected.write_text(out.stdout)
        pytest.skip(f"regenerated {expected.name} (CRDTOOL_REGEN_GOLDEN=1): review the diff before committing")
    assert expected.exists(), f"{expected.name} is missing: run with CRDTOOL_REGEN_GOLDEN=1 and review it"
    assert out.stdout == expected.read_text()


@pytest.mark.parametrize("case", CASES)
def test_golden_output_is_exactly_upgrade_crds_result(case: str) -> None:
    args = (GOLDEN / f"{case}.args").read_text().split()
    target = f"apiextensions.k8s.io/{args[args.index('--to') + 1]}"
    before = (GOLDEN / f"{case}.in.yaml").read_text()
    after = (GOLDEN / f"{case}.out.yaml").read_text()
    assert assert_converts_exactly(before, after, target, fix="--fix" in args)


def test_golden_commented_manifest_keeps_comments_key_order_and_layout() -> None:
    before = (GOLDEN / "commented-multidoc.in.yaml").read_text()
    after = (GOLDEN / "commented-multidoc.out.yaml").read_text()
    # every comment survives (the moved ones once per version they were copied into)
    for line in before.splitlines():
        if "#" in line:
            comment = line[line.index("#"):].rstrip()
            assert comment in after, comment
    # the Namespace between the CRDs, the header and the separators are untouched
    assert chunks(before)[0] == chunks(after)[0]
    assert chunks(before)[2] == chunks(after)[2]
    assert after.count("\n---\n") == before.count("\n---\n")
    # the hand-written layout: 4-space mappings, indented sequences, flow lists, quotes, folded scalar
    for kept in ('        app.kubernetes.io/part-of: "widgets"', "        shortNames: [wd, wdg]",
                 "      - name: v1alpha1", "enum: ['red', \"green\", blue]", "description: >-",
                 'conversionReviewVersions: ["v1", "v1beta1"]'):
        assert kept in after, kept
    # key order: what was not moved keeps its order
    widget = load_documents(after, "out")[0]
    assert isinstance(widget, Document)
    assert list(widget.data) == ["apiVersion", "kind", "metadata", "spec"]
    assert list(widget.data["spec"]) == ["group", "versions", "names", "scope"]
    assert list(widget.data["spec"]["versions"][0]["additionalPrinterColumns"][0]) == ["name", "type", "jsonPath"]
    # the moved schema kept its comments, re-indented under each version
    assert "                                description: >-\n" in after
    assert "        # The schema of every version.\n        schema:\n            openAPIV3Schema:   # the root\n" in after


# --------------------------------------------------------------------------
# Passthrough


PASSTHROUGH = """\
# Only things that need no conversion: printed back byte for byte.
apiVersion: v1
kind:   ConfigMap    # odd spacing
metadata: {name: x}
data:
  long: a long plain scalar that someone folded by hand
    over two lines, which a YAML emitter would re-fold
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
    name: bars.example.com
spec:
    group: example.com
    names: {kind: Bar, plural: bars}
    scope: Namespaced
    versions:
      - name: v1
        served: yes
        storage: true
        schema:
            openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}
...
---
# trailing comment, no final newline"""


def test_documents_that_need_nothing_pass_through_byte_for_byte(tmp_path: Path) -> None:
    path = tmp_path / "same.yaml"
    path.write_text(PASSTHROUGH)
    out = cli("upgrade-manifest", str(path), "--to", "v1")
    assert out.exit_code == 0, out.stderr
    assert out.stdout == PASSTHROUGH
    assert cli("upgrade-manifest", str(path), "--to", "v1", "--check").exit_code == 0
    before = path.stat().st_mtime_ns
    time.sleep(0.01)
    assert cli("upgrade-manifest", str(path), "--to", "v1", "--in-place").exit_code == 0
    assert path.stat().st_mtime_ns == before  # not even rewritten with the same bytes


def test_only_the_crd_documents_change_in_a_mixed_file(tmp_path: Path) -> None:
    text = PASSTHROUGH.replace("# trailing comment, no final newline", SIMPLE_V1BETA1)
    path = tmp_path / "mixed.yaml"
    path.write_text(text)
    out = cli("upgrade-manifest", str(path), "--to", "v1")
    assert out.exit_code == 0, out.stderr
    assert assert_converts_exactly(text, out.stdout, V1) == ["foos.example.com"]
    assert out.stdout.startswith(text[: text.index("---\n# trailing") if "# trailing" in text else text.rindex("---")])


# --------------------------------------------------------------------------
# --check, --diff, --output json


def test_check_writes_nothing_lists_changes_and_exits_1(tmp_path: Path) -> None:
    path = tmp_path / "foo.yaml"
    path.write_text(SIMPLE_V1BETA1)
    out = cli("upgrade-manifest", str(path), "--to", "v1", "--check")
    assert out.exit_code == 1
    assert out.stdout == ""
    assert path.read_text() == SIMPLE_V1BETA1
    assert f"{path}:1: foos.example.com: would convert {V1BETA1} -> {V1}" in out.stderr
    assert "1 of 1 files would change" in out.stderr


def test_check_json_lists_files_and_documents(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text(SIMPLE_V1BETA1)
    (tmp_path / "b.yaml").write_text(PASSTHROUGH)
    out = cli("upgrade-manifest", str(tmp_path), "--to", "v1", "--check", "--output", "json")
    assert out.exit_code == 1
    report = json.loads(out.stdout)
    assert report["changed"] is True and report["manual"] is False
    assert report["summary"] == {"files": 2, "changedFiles": 1, "documents": 1, "manual": 0, "errors": 0}
    a, b = report["files"]
    assert (a["file"], a["changed"], a["written"], a["errors"]) == (str(tmp_path / "a.yaml"), True, False, [])
    assert (b["file"], b["changed"], b["documents"]) == (str(tmp_path / "b.yaml"), False, [])
    (doc,) = a["documents"]
    assert {k: doc[k] for k in ("index", "line", "name", "from", "to", "changed", "layout")} == {
        "index": 0, "line": 1, "name": "foos.example.com", "from": V1BETA1, "to": V1, "changed": True, "layout": "patched",
    }
    kinds = {n["kind"] for n in doc["notes"]}
    assert "converted" in kinds
    assert all(set(n) == {"kind", "path", "change", "reason", "line", "outputLine"} for n in doc["notes"])


def test_check_json_when_nothing_changes(tmp_path: Path) -> None:
    (tmp_path / "b.yaml").write_text(PASSTHROUGH)
    out = cli("upgrade-manifest", str(tmp_path / "b.yaml"), "--to", "v1", "--check", "--output", "json")
    assert out.exit_code == 0
    assert json.loads(out.stdout)["changed"] is False


def test_diff_is_a_patch_that_produces_the_converted_file(tmp_path: Path) -> None:
    if shutil.which("patch") is None:
        pytest.skip("no patch(1)")
    path = tmp_path / "foo.yaml"
    path.write_text(SIMPLE_V1BETA1)
    converted = cli("upgrade-manifest", str(path), "--to", "v1").stdout
    diff = cli("upgrade-manifest", str(path), "--to", "v1", "--diff")
    assert diff.exit_code == 0
    assert diff.stdout.startswith(f"--- {path}\n+++ {path}\n@@ ")
    assert f"-apiVersion: {V1BETA1}\n+apiVersion: {V1}\n" in diff.stdout
    subprocess.run(["patch", "-p0", "-s", "-i", "-"], input=diff.stdout, text=True, cwd="/", check=True)
    assert path.read_text() == converted


def test_diff_marks_a_missing_final_newline() -> None:
    diff = upgrade.unified_diff("a: 1\nb: 2", "a: 1\nb: 3", "f.yaml")
    assert diff.endswith("-b: 2\n\\ No newline at end of file\n+b: 3\n\\ No newline at end of file\n")


def test_check_with_diff_prints_the_diff_and_exits_1(tmp_path: Path) -> None:
    path = tmp_path / "foo.yaml"
    path.write_text(SIMPLE_V1BETA1)
    out = cli("upgrade-manifest", str(path), "--to", "v1", "--check", "--diff")
    assert out.exit_code == 1
    assert out.stdout.startswith(f"--- {path}\n")
    assert path.read_text() == SIMPLE_V1BETA1


def test_diff_of_unchanged_files_is_empty(tmp_path: Path) -> None:
    path = tmp_path / "b.yaml"
    path.write_text(PASSTHROUGH)
    out = cli("upgrade-manifest", str(path), "--to", "v1", "--diff")
    assert (out.exit_code, out.stdout) == (0, "")


# --------------------------------------------------------------------------
# stdout, -o, stdin


def test_several_inputs_form_one_stream(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text(SIMPLE_V1BETA1.replace("foos", "as"))
    (tmp_path / "b.yaml").write_text("kind: ConfigMap\napiVersion: v1")  # no final newline, no separator
    (tmp_path / "c.yaml").write_text("---\n" + SIMPLE_V1BETA1)
    out = cli("upgrade-manifest", str(tmp_path / "a.yaml"), str(tmp_path / "b.yaml"), str(tmp_path / "c.yaml"), "--to", "v1")
    assert out.exit_code == 0, out.stderr
    docs = load_documents(out.stdout, "out")
    assert [d.data["kind"] for d in docs if isinstance(d, Document)] == ["CustomResourceDefinition", "ConfigMap",
                                                                        "CustomResourceDefinition"]
    assert "\n---\nkind: ConfigMap\napiVersion: v1\n---\napiVersion" in out.stdout


def test_output_file_gets_the_stream_atomically_even_over_an_input(tmp_path: Path) -> None:
    path = tmp_path / "foo.yaml"
    path.write_text(SIMPLE_V1BETA1)
    expected = cli("upgrade-manifest", str(path), "--to", "v1").stdout
    out = cli("upgrade-manifest", str(path), "--to", "v1", "--output-file", str(path))
    assert (out.exit_code, out.stdout) == (0, "")
    assert path.read_text() == expected
    assert sorted(os.listdir(tmp_path)) == ["foo.yaml"]


def test_output_file_is_not_written_when_an_input_fails(tmp_path: Path) -> None:
    (tmp_path / "good.yaml").write_text(SIMPLE_V1BETA1)
    (tmp_path / "bad.yaml").write_text("a: [1, 2\n")
    target = tmp_path / "out.yaml"
    out = cli("upgrade-manifest", str(tmp_path / "good.yaml"), str(tmp_path / "bad.yaml"), "--to", "v1", "--output-file", str(target))
    assert out.exit_code == 2
    assert not target.exists()
    assert f"{target}: not written because of the input errors" in out.stderr


def test_stdin() -> None:
    out = cli("upgrade-manifest", "-", "--to", "v1", stdin=SIMPLE_V1BETA1)
    assert out.exit_code == 0, out.stderr
    assert assert_converts_exactly(SIMPLE_V1BETA1, out.stdout, V1) == ["foos.example.com"]
    assert "<stdin>:1: foos.example.com: converted" in out.stderr


def test_json_manifest_stays_json(tmp_path: Path) -> None:
    data = load_documents(SIMPLE_V1BETA1, "x")[0].data  # type: ignore[union-attr]
    path = tmp_path / "crd.json"
    path.write_text(json.dumps(data, indent=4) + "\n")
    out = cli("upgrade-manifest", str(path), "--to", "v1")
    assert out.exit_code == 0, out.stderr
    assert json.loads(out.stdout) == upgrade_crd(data, "v1")[0]
    assert out.stdout.startswith('{\n    "apiVersion": "apiextensions.k8s.io/v1",\n    "kind"')


def test_json_stream_of_several_objects(tmp_path: Path) -> None:
    data = load_documents(SIMPLE_V1BETA1, "x")[0].data  # type: ignore[union-attr]
    path = tmp_path / "crds.json"
    path.write_text(json.dumps(data) + "\n" + json.dumps({"apiVersion": "v1", "kind": "Namespace"}) + "\n")
    out = cli("upgrade-manifest", str(path), "--to", "v1")
    assert out.exit_code == 0, out.stderr
    first, second = out.stdout.splitlines()
    assert json.loads(first) == upgrade_crd(data, "v1")[0]
    assert json.loads(second) == {"apiVersion": "v1", "kind": "Namespace"}


# --------------------------------------------------------------------------
# Notes, exit status, errors


def test_notes_are_one_line_each_with_the_input_file_and_line_sorted(tmp_path: Path) -> None:
    path = tmp_path / "foo.yaml"
    source = SIMPLE_V1BETA1.replace("  preserveUnknownFields: false\n", "")
    path.write_text(source)
    out = cli("upgrade-manifest", str(path), "--to", "v1")
    assert out.exit_code == 0
    lines = source.splitlines()
    notes = [ln for ln in out.stderr.splitlines() if ln.startswith(f"{path}:")]
    note = next(ln for ln in notes if "x-kubernetes-preserve-unknown-fields: set to true" in ln)
    line = int(note.split(":")[1])
    # added to the schema the input holds at spec.validation.openAPIV3Schema: shown at that input line
    assert lines[line - 1].strip() == "openAPIV3Schema:"
    assert note.startswith(f"{path}:{line}: made-valid: spec.versions[0].schema.openAPIV3Schema.x-kubernetes-preserve-unknown-fields: ")
    copied = next(ln for ln in notes if "spec.versions[0].schema: copied from spec.validation" in ln)
    assert lines[int(copied.split(":")[1]) - 1].strip() == "validation:"  # where the value came from
    removed = next(ln for ln in notes if "spec.version: removed" in ln)
    assert lines[int(removed.split(":")[1]) - 1].strip() == "version: v1"
    numbers = [int(ln.split(":")[1]) for ln in notes]
    assert numbers == sorted(numbers)
    # the JSON report gives both lines
    report = json.loads(cli("upgrade-manifest", str(path), "--to", "v1", "--check", "--output", "json").stdout)
    (doc,) = report["files"][0]["documents"]
    by_path = {n["path"]: n for n in doc["notes"]}
    pruf = by_path["spec.versions[0].schema.openAPIV3Schema.x-kubernetes-preserve-unknown-fields"]
    assert pruf["line"] == line
    converted = cli("upgrade-manifest", str(path), "--to", "v1").stdout.splitlines()
    assert converted[pruf["outputLine"] - 1].strip() == "x-kubernetes-preserve-unknown-fields: true"
    assert [n["line"] for n in doc["notes"]] == sorted(n["line"] for n in doc["notes"])


def test_manual_fixes_exit_1_and_still_print_the_result(tmp_path: Path) -> None:
    path = tmp_path / "foo.yaml"
    path.write_text(SIMPLE_V1BETA1.replace("          type: object\n          properties:", "          properties:"))
    out = cli("upgrade-manifest", str(path), "--to", "v1")
    assert out.exit_code == 1
    assert out.stdout.startswith(f"apiVersion: {V1}\n")
    manual = [ln for ln in out.stderr.splitlines() if ": manual: " in ln]
    # line 17 of the input: the `spec:` property whose type is missing
    assert manual == [(f"{path}:17: manual: spec.versions[0].schema.openAPIV3Schema.properties[spec].type: "
                       "Required value: must not be empty for specified object fields")]
    assert "1 need manual fixes" in out.stderr
    fixed = cli("upgrade-manifest", str(path), "--to", "v1", "--fix")
    assert fixed.exit_code == 0
    assert ": fixed: spec.versions[0].schema.openAPIV3Schema.properties[spec].type: added type: object" in fixed.stderr


def test_input_errors_are_one_line_and_other_files_are_still_converted(tmp_path: Path) -> None:
    bad = tmp_path / "a-bad.yaml"
    bad.write_text("apiVersion: v1\nkind: [oops\n")
    good = tmp_path / "b-good.yaml"
    good.write_text(SIMPLE_V1BETA1)
    out = cli("upgrade-manifest", str(tmp_path), str(tmp_path / "missing.yaml"), "--to", "v1")
    assert out.exit_code == 2
    assert "Traceback" not in out.stderr
    error_lines = [ln for ln in out.stderr.splitlines() if ln.startswith(str(bad))]
    assert error_lines == [(f"{bad}:2:12: yaml: did not find expected ',' or ']' "
                            "(while parsing a flow sequence started at line 2, column 7)")]
    assert f"{tmp_path / 'missing.yaml'}: no such file or directory" in out.stderr
    assert out.stdout.startswith("apiVersion: v1\nkind: [oops\n---\n")  # the broken file passes through
    assert assert_converts_exactly(SIMPLE_V1BETA1, out.stdout.split("---\n", 1)[1], V1)


def test_a_broken_document_leaves_its_file_alone_in_place(tmp_path: Path) -> None:
    text = SIMPLE_V1BETA1 + "---\nkind: [oops\n"
    path = tmp_path / "two.yaml"
    path.write_text(text)
    out = cli("upgrade-manifest", str(path), "--to", "v1", "--in-place")
    assert out.exit_code == 2
    assert path.read_text() == text
    assert f"{path}:22:12: yaml: did not find expected" in out.stderr


def test_duplicate_keys_are_warned_about(tmp_path: Path) -> None:
    path = tmp_path / "dup.yaml"
    path.write_text(SIMPLE_V1BETA1.replace("  scope: Namespaced\n", "  scope: Cluster\n  scope: Namespaced\n"))
    out = cli("upgrade-manifest", str(path), "--to", "v1")
    assert out.exit_code == 0
    assert ": warning: spec.scope: duplicate key: the later value wins" in out.stderr


@pytest.mark.parametrize(
    "args, message",
    [
        (["--in-place", "--output-file", "out.yaml"], "--in-place and --output-file cannot be used together"),
        (["--check", "--output-file", "out.yaml"], "--check writes nothing"),
        (["--check", "--in-place"], "--check writes nothing"),
        (["--diff", "--in-place"], "--diff prints a diff instead of writing"),
        (["--output", "json"], "--output json prints the report on stdout"),
        (["--output", "json", "--check", "--diff"], "--output json and --diff both print on stdout"),
    ],
)
def test_conflicting_options_are_usage_errors(tmp_path: Path, args: list[str], message: str) -> None:
    path = tmp_path / "foo.yaml"
    path.write_text(SIMPLE_V1BETA1)
    out = cli("upgrade-manifest", str(path), "--to", "v1", *args)
    assert out.exit_code == 2
    assert f"crdtool: {message}" in out.stderr
    assert out.stdout == ""
    assert path.read_text() == SIMPLE_V1BETA1
    assert not (tmp_path / "out.yaml").exists() and not Path("out.yaml").exists()


def test_in_place_with_stdin_is_a_usage_error() -> None:
    out = cli("upgrade-manifest", "-", "--to", "v1", "--in-place", stdin=SIMPLE_V1BETA1)
    assert out.exit_code == 2
    assert "--in-place cannot rewrite stdin" in out.stderr


def test_unknown_target_is_rejected_by_the_option_parser() -> None:
    out = cli("upgrade-manifest", "x.yaml", "--to", "v2")
    assert out.exit_code == 2


# --------------------------------------------------------------------------
# --in-place


def test_in_place_rewrites_changed_files_keeping_mode_crlf_and_bom(tmp_path: Path) -> None:
    crlf = tmp_path / "crlf.yaml"
    crlf.write_bytes(SIMPLE_V1BETA1.replace("\n", "\r\n").encode())
    os.chmod(crlf, 0o640)
    bom = tmp_path / "bom.yaml"
    bom.write_bytes(b"\xef\xbb\xbf" + SIMPLE_V1BETA1.replace("foos", "boms").encode())
    utf16 = tmp_path / "utf16.yaml"
    utf16.write_bytes(b"\xff\xfe" + SIMPLE_V1BETA1.replace("foos", "wides").encode("utf-16-le"))
    same = tmp_path / "same.yaml"
    same.write_text(PASSTHROUGH)
    out = cli("upgrade-manifest", str(tmp_path), "--to", "v1", "--in-place")
    assert out.exit_code == 0, out.stderr
    assert out.stdout == ""
    raw = crlf.read_bytes()
    assert raw.count(b"\r\n") == raw.count(b"\n") and raw.startswith(b"apiVersion: apiextensions.k8s.io/v1\r\n")
    assert stat.S_IMODE(crlf.stat().st_mode) == 0o640
    assert assert_converts_exactly(SIMPLE_V1BETA1, raw.decode().replace("\r\n", "\n"), V1)
    assert bom.read_bytes().startswith(b"\xef\xbb\xbfapiVersion: apiextensions.k8s.io/v1\n")
    assert utf16.read_bytes().startswith(b"\xff\xfe" + "apiVersion: apiextensions.k8s.io/v1\n".encode("utf-16-le"))
    assert same.read_text() == PASSTHROUGH
    assert sorted(os.listdir(tmp_path)) == ["bom.yaml", "crlf.yaml", "same.yaml", "utf16.yaml"]


def test_in_place_failed_write_keeps_the_original(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from crdtool.cli import atomic

    fails = tmp_path / "a.yaml"
    fails.write_text(SIMPLE_V1BETA1)
    works = tmp_path / "b.yaml"
    works.write_text(SIMPLE_V1BETA1.replace("foos", "bars"))
    real_replace = os.replace

    def replace(src: Any, dst: Any) -> None:
        if str(dst) == str(fails):
            raise OSError(28, "No space left on device")
        real_replace(src, dst)

    monkeypatch.setattr(atomic.os, "replace", replace)
    out = cli("upgrade-manifest", str(fails), str(works), "--to", "v1", "--in-place", "--output", "json")
    assert out.exit_code == 2
    assert fails.read_text() == SIMPLE_V1BETA1
    assert works.read_text().startswith(f"apiVersion: {V1}\n")
    assert sorted(os.listdir(tmp_path)) == ["a.yaml", "b.yaml"]  # no temporary file left behind
    assert f"crdtool: {fails}: cannot write: No space left on device; the file is unchanged" in out.stderr
    written = {f["file"]: f["written"] for f in json.loads(out.stdout)["files"]}
    assert written == {str(fails): False, str(works): True}


KILLED_WRITER = r"""
import os, sys, time
sys.path.insert(0, {repo!r})
from crdtool.cli import atomic
from crdtool.cli.app import main

real_fdopen = os.fdopen

class HalfThenHang:
    # The temporary file gets half the bytes, is flushed to disk, then the process hangs until killed.
    def __init__(self, f):
        self.f = f
    def write(self, data):
        self.f.write(data[: len(data) // 2])
        self.f.flush()
        os.fsync(self.f.fileno())
        with open({marker!r}, "w") as m:
            m.write("half")
        time.sleep(120)
        return self.f.write(data[len(data) // 2:])
    def __getattr__(self, name):
        return getattr(self.f, name)
    def __enter__(self):
        return self
    def __exit__(self, *exc):
        return self.f.__exit__(*exc)

atomic.os.fdopen = lambda fd, mode: HalfThenHang(real_fdopen(fd, mode))
main(["upgrade-manifest", {path!r}, "--to", "v1", "--in-place"])
"""


def test_in_place_killed_mid_write_keeps_the_original(tmp_path: Path) -> None:
    path = tmp_path / "foo.yaml"
    path.write_text(SIMPLE_V1BETA1)
    marker = tmp_path / "half-written"
    script = KILLED_WRITER.format(repo=str(REPO), marker=str(marker), path=str(path))
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while not marker.exists():
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "the writer never reached the middle of its write"
            time.sleep(0.02)
        temporary = [p for p in tmp_path.iterdir() if p.name.startswith(".foo.yaml.crdtool-")]
        assert len(temporary) == 1 and 0 < temporary[0].stat().st_size  # killed with half a file written
        assert path.read_text() == SIMPLE_V1BETA1
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.communicate()
    assert proc.returncode == -signal.SIGKILL
    assert path.read_text() == SIMPLE_V1BETA1  # the original, intact
    half = next(p for p in tmp_path.iterdir() if p.name.startswith(".foo.yaml.crdtool-"))
    assert len(half.read_bytes()) < len(cli("upgrade-manifest", str(path), "--to", "v1").stdout.encode())
    # a later run replaces the file normally (the stray temporary file is the only trace)
    assert cli("upgrade-manifest", str(path), "--to", "v1", "--in-place").exit_code == 0
    assert path.read_text().startswith(f"apiVersion: {V1}\n")


# --------------------------------------------------------------------------
# The corpus


def convert_file(path: str, target: str, fix: bool) -> upgrade.FileResult:
    with open(path, "rb") as fh:
        raw = fh.read()
    result = upgrade._process(path, raw, target, fix)
    assert not result.errors
    return result


@pytest.mark.parametrize("name", ["tests/golden/upgrade/v1-to-v1beta1.in.yaml", "samples/crontab-multiversion-v1.yaml"])
def test_v1_to_v1beta1_to_v1_round_trip_keeps_each_version_entrys_key_order(name: str) -> None:
    source = (REPO / name).read_text()
    down = crdtool("upgrade-manifest", "--to", "v1beta1", "-", stdin=source)
    assert down.returncode == 0, down.stderr
    up = crdtool("upgrade-manifest", "--to", "v1", "-", stdin=down.stdout)
    assert up.returncode == 0, up.stderr
    before = yaml.safe_load(source)
    after = yaml.safe_load(up.stdout)
    assert after == before
    assert [list(v) for v in after["spec"]["versions"]] == [list(v) for v in before["spec"]["versions"]]
    # the golden input's entries hold schema, subresources and additionalPrinterColumns, which the v1beta1
    # step hoists (or keeps per version): the text comes back as it was
    assert up.stdout == source
