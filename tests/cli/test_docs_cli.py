"""``crdtool docs`` and ``crdtool explain`` on the command line: files written, exit codes, messages.

The texts themselves are checked by the golden files of tests/docs; here, the wiring: ``--out`` writes
the index and one page per CRD (a second CRD of the same name gets ``-2``), one CRD without ``--out``
goes to stdout, several need ``--out`` (exit 2), a file without a CRD is exit 2, ``-o json`` lists what
was written; ``explain`` prints kubectl's text (exit 0) and kubectl's errors (exit 2).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

from typer.testing import CliRunner

from crdtool.cli.app import app

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "docs" / "fixtures" / "widgets.yaml"
GOLDEN = ROOT / "tests" / "golden"


@dataclass
class _Result:
    returncode: int
    stdout: str
    stderr: str


def _run(*args: str) -> _Result:
    """The application in this process (Typer's runner: stdout and stderr apart), from the repository root."""
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        result = CliRunner().invoke(app, list(args), env={"NO_COLOR": "1", "COLUMNS": "80", "TERM": "dumb"})
    finally:
        os.chdir(cwd)
    return _Result(result.exit_code, result.stdout, result.stderr)


def test_docs_writes_the_index_and_a_page_per_crd(tmp_path: Path) -> None:
    twice = tmp_path / "twice.yaml"
    twice.write_text(FIXTURE.read_text(encoding="utf-8") + "\n---\n" + FIXTURE.read_text(encoding="utf-8"), encoding="utf-8")
    out = _run("docs", "--out", str(tmp_path / "site"), str(twice), "-o", "json")
    assert out.returncode == 0, out.stderr
    listed = json.loads(out.stdout)
    assert [Path(p["page"]).name for p in listed["pages"]] == ["widgets.example.com.html", "widgets.example.com-2.html"]
    assert sorted(p.name for p in (tmp_path / "site").iterdir()) == ["index.html", "widgets.example.com-2.html", "widgets.example.com.html"]
    index = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert 'href="widgets.example.com-2.html"' in index and "from " in index
    assert (tmp_path / "site" / "widgets.example.com.html").read_text(encoding="utf-8") == (GOLDEN / "docs" / "widgets.example.com.html").read_text(encoding="utf-8").replace(
        "tests/docs/fixtures/widgets.yaml", str(twice))


def test_markdown_of_one_crd_goes_to_stdout() -> None:
    out = _run("docs", "--format", "markdown", "tests/docs/fixtures/widgets.yaml")
    assert out.returncode == 0, out.stderr
    assert out.stdout == (GOLDEN / "docs" / "widgets.example.com.md").read_text(encoding="utf-8")


def test_several_crds_need_out(tmp_path: Path) -> None:
    twice = tmp_path / "twice.yaml"
    twice.write_text(FIXTURE.read_text(encoding="utf-8") + "\n---\n" + FIXTURE.read_text(encoding="utf-8"), encoding="utf-8")
    out = _run("docs", str(twice))
    assert out.returncode == 2
    assert out.stderr.strip() == "crdtool docs: 2 CRDs: write their pages into a directory with --out DIR"


def test_no_crd_is_an_input_error(tmp_path: Path) -> None:
    other = tmp_path / "cm.yaml"
    other.write_text("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n", encoding="utf-8")
    out = _run("docs", str(other))
    assert out.returncode == 2 and "no apiextensions.k8s.io/v1 or v1beta1 CustomResourceDefinition found" in out.stderr
    broken = tmp_path / "broken.yaml"
    broken.write_text("a: [\n", encoding="utf-8")
    out = _run("docs", "--format", "markdown", str(broken), str(FIXTURE))
    assert out.returncode == 2 and "broken.yaml" in out.stderr and "Traceback" not in out.stderr
    assert out.stdout.startswith("# Widget\n")  # the readable CRD's page is still written


def test_explain_prints_kubectls_text() -> None:
    out = _run("explain", "--crd", str(FIXTURE), "wd.spec.size")
    assert out.returncode == 0, out.stderr
    assert out.stdout == (GOLDEN / "explain" / "widget.spec.size.txt").read_text(encoding="utf-8")
    out = _run("explain", "--crd", str(FIXTURE), "Widget.spec.color", "--no-extras")
    assert out.stdout == (GOLDEN / "explain" / "widget.spec.color.no-extras.txt").read_text(encoding="utf-8")
    out = _run("explain", "--crd", str(FIXTURE), "widgets", "--api-version", "example.com/v1alpha1", "-o", "json")
    document = json.loads(out.stdout)
    assert (document["group"], document["version"], document["kind"]) == ("example.com", "v1alpha1", "Widget")


def test_explain_errors_are_kubectls() -> None:
    out = _run("explain", "--crd", str(FIXTURE), "gadgets.spec")
    assert (out.returncode, out.stderr) == (2, 'error: the server doesn\'t have a resource type "gadgets"\n')
    out = _run("explain", "--crd", str(FIXTURE), "widgets.spec.nope")
    assert (out.returncode, out.stderr) == (2, 'error: field "nope" does not exist\n')
    out = _run("explain", "--crd", str(FIXTURE), "widgets..spec")
    assert out.returncode == 2 and "RESOURCE[.FIELD...]" in out.stderr


def test_explain_builtin_kinds_of_a_release() -> None:
    out = _run("explain", "deploy.spec.replicas", "--kubernetes-version", "1.35")
    assert out.returncode == 0, out.stderr
    assert out.stdout == (GOLDEN / "explain" / "deployment.spec.replicas-1.35.txt").read_text(encoding="utf-8")
    # a resource no --crd file defines is looked up among the built-ins
    out = _run("explain", "--crd", str(FIXTURE), "pods.spec.containers.image", "--kubernetes-version", "1.30")
    assert out.stdout == (GOLDEN / "explain" / "pod.spec.containers.image-1.30.txt").read_text(encoding="utf-8")
    out = _run("explain", "gadgets", "--kubernetes-version", "1.35")
    assert (out.returncode, out.stderr) == (2, 'error: the server doesn\'t have a resource type "gadgets"\n')
    out = _run("explain", "pods", "--kubernetes-version", "1.29")
    assert out.returncode == 2 and "1.29" in out.stderr


def test_examples_are_validated_and_defaulted() -> None:
    """Expected by reading the fixture: w1 gets color's default "red" and parts[0].count's default 1, its
    unknown spec.extra is dropped (and, under kubectl's Strict field validation, an error); w2 fails the enum
    and the required size, as the apiserver words them (validate's texts)."""
    out = _run("docs", "--format", "markdown", str(FIXTURE), "--examples", "tests/docs/fixtures/widget-examples.yaml")
    assert out.returncode == 0, out.stderr
    section = out.stdout[out.stdout.index("### Examples"):out.stdout.index("### What changed")]
    assert "`tests/docs/fixtures/widget-examples.yaml:3`: **the apiserver refuses it**; unknown fields dropped: `spec.extra`." in section
    assert "  parts:\n  - name: a\n    count: 1\n  color: red\n" in section
    assert '- spec.color: Unsupported value: "purple": supported values: "red", "green", "blue"\n- spec.size: Required value\n' in section
    out = _run("docs", "--format", "markdown", str(FIXTURE), "--examples", str(FIXTURE))
    assert out.returncode == 2 and "no CRD among the inputs defines apiextensions.k8s.io/v1 CustomResourceDefinition" in out.stderr
