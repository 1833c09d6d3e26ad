"""`crdtool validate` options CI users expect (--quiet, --exclude, --skip-kind, --exit-zero), no input found,
and the configuration file ([tool.crdtool] in pyproject.toml or .crdtool.yaml; the command line wins)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"
INVALID = ROOT / "tests" / "cases" / "crd" / "property-without-type.yaml"

CONFIGMAP = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  a: b\n"


def crdtool(*args: str, cwd: Path = ROOT, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if k not in ("GITHUB_ACTIONS", "CI")}
    base.update({"NO_COLOR": "1", "TERM": "dumb", **(env or {})})
    return subprocess.run([sys.executable, "-m", "crdtool", *args], cwd=cwd, env=base, capture_output=True,
                          text=True, timeout=120)


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    """A repository with a valid CRD, an invalid one, a custom resource, a ConfigMap and a Helm template."""
    (tmp_path / ".git").mkdir()  # the configuration search stops here
    crds = tmp_path / "crds"
    crds.mkdir()
    shutil.copy(SAMPLES / "crontab-v1.yaml", crds / "crontab.yaml")
    shutil.copy(INVALID, crds / "broken.yaml")
    (tmp_path / "examples").mkdir()
    shutil.copy(SAMPLES / "crontab-cr-v1.yaml", tmp_path / "examples" / "cr.yaml")
    (tmp_path / "examples" / "cm.yaml").write_text(CONFIGMAP)
    templates = tmp_path / "charts" / "web" / "templates"
    templates.mkdir(parents=True)
    (templates / "cm.yaml").write_text("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Values.name }}\n")
    return tmp_path


def test_quiet_shows_only_failures_and_the_summary(project: Path) -> None:
    loud = crdtool("validate", "crds", "examples", cwd=project)
    quiet = crdtool("validate", "--quiet", "crds", "examples", cwd=project)
    assert loud.returncode == quiet.returncode == 1
    assert "valid: CustomResourceDefinition crontabs.stable.example.com" in loud.stdout
    assert quiet.stdout == (
        "crds/broken.yaml\n"
        "  crds/broken.yaml:5: invalid: CustomResourceDefinition foos.example.com (apiextensions.k8s.io/v1)\n"
        "    crds/broken.yaml:23:13: spec.versions[0].schema.openAPIV3Schema.properties[spec].type: Required value: "
        "must not be empty for specified object fields\n"
        "\n"
        "4 documents: 3 valid, 1 invalid, 0 skipped, 0 input errors\n"  # the ConfigMap is judged (valid)
    )
    short = crdtool("validate", "-q", "crds/crontab.yaml", cwd=project)
    assert short.returncode == 0
    assert short.stdout == "1 document: 1 valid, 0 invalid, 0 skipped, 0 input errors\n"


def test_exclude_drops_helm_templates_like_a_gitignore_line(project: Path) -> None:
    everything = crdtool("validate", ".", cwd=project)
    assert everything.returncode == 2  # the template cannot be parsed
    assert "charts/web/templates/cm.yaml:4:9: this looks like a Helm template" in everything.stdout
    for glob in ("templates/", "templates", "charts/*/templates", "*/templates/*.yaml"):
        out = crdtool("validate", ".", "--exclude", glob, "--exclude", "broken.yaml", cwd=project)
        assert out.returncode == 0, (glob, out.stdout)
        assert "templates" not in out.stdout and "broken" not in out.stdout
        assert out.stdout.endswith("3 documents: 3 valid, 0 invalid, 0 skipped, 0 input errors\n")


def test_skip_kind_by_kind_or_api_version_and_kind(project: Path) -> None:
    out = crdtool("validate", "--output", "json", "--skip-kind", "CustomResourceDefinition", "crds", "examples", cwd=project)
    assert out.returncode == 0  # the invalid CRD is skipped; the CronTab is still checked against it
    docs = json.loads(out.stdout)["documents"]
    assert [(d["kind"], d["status"]) for d in docs] == [
        ("CustomResourceDefinition", "skipped"), ("CustomResourceDefinition", "skipped"),
        ("ConfigMap", "valid"), ("CronTab", "valid"),
    ]
    text = crdtool("validate", "--skip-kind", "stable.example.com/v1/CronTab", "examples/cr.yaml",
                   "--crd", "crds/crontab.yaml", cwd=project)
    assert "skipped: CronTab my-new-cron-object (stable.example.com/v1): skipped by --skip-kind" in text.stdout
    other_version = crdtool("validate", "--skip-kind", "stable.example.com/v2/CronTab", "examples/cr.yaml",
                            "--crd", "crds/crontab.yaml", cwd=project)
    assert "valid: CronTab" in other_version.stdout


def test_exit_zero_reports_without_failing_but_input_errors_still_exit_2(project: Path) -> None:
    out = crdtool("validate", "--exit-zero", "crds", cwd=project)
    assert out.returncode == 0
    assert "1 invalid" in out.stdout
    broken = crdtool("validate", "--exit-zero", "crds", "charts", cwd=project)
    assert broken.returncode == 2


@pytest.mark.parametrize("layout", ["empty-dir", "no-yaml", "missing"])
def test_no_input_file_found_is_exit_2(tmp_path: Path, layout: str) -> None:
    target = tmp_path / "manifests"
    if layout != "missing":
        target.mkdir()
    if layout == "no-yaml":
        (target / "README.md").write_text("# nothing here\n")
    out = crdtool("validate", str(target))
    assert out.returncode == 2
    assert "0 documents" not in out.stdout
    if layout == "missing":
        assert f"{target}: no such file or directory" in out.stdout
    else:
        assert out.stderr == (
            f"crdtool: no input files found in {target} (directories are searched for *.yaml, *.yml and *.json)\n"
        )


def test_all_inputs_excluded_is_not_an_error(project: Path) -> None:
    # as pre-commit passes file names: excluding every one of them leaves nothing to do, successfully
    out = crdtool("validate", "charts/web/templates/cm.yaml", "--exclude", "templates/", cwd=project)
    assert out.returncode == 0
    assert "all 1 input files match --exclude" in out.stderr


def test_pyproject_configuration_and_command_line_winning(project: Path) -> None:
    (project / "pyproject.toml").write_text(
        '[project]\nname = "x"\n\n[tool.crdtool]\nexclude = ["templates/"]\nquiet = true\n'
        'skip-kind = ["ConfigMap"]\n\n[tool.crdtool.validate]\nexit-zero = true\n'
    )
    sub = project / "examples"
    out = crdtool("validate", ".", cwd=project)
    assert out.returncode == 0  # exit-zero from the [tool.crdtool.validate] table
    assert out.stdout.startswith("./crds/broken.yaml\n")  # quiet
    assert "valid: CustomResourceDefinition crontabs" not in out.stdout
    assert out.stdout.endswith("4 documents: 2 valid, 1 invalid, 1 skipped, 0 input errors\n")  # templates excluded
    # found from a subdirectory too (the search walks up to the repository root)
    assert crdtool("validate", "cm.yaml", cwd=sub).stdout == "1 document: 0 valid, 0 invalid, 1 skipped, 0 input errors\n"
    # the command line wins: --no-quiet, --no-exit-zero, and a list replaces the file's list
    loud = crdtool("validate", ".", "--no-quiet", "--no-exit-zero", "--skip-kind", "CronTab", cwd=project)
    assert loud.returncode == 1
    assert "valid: CustomResourceDefinition crontabs" in loud.stdout
    assert "valid: ConfigMap settings (v1)" in loud.stdout  # a built-in kind: judged (the file's skip-kind replaced)
    assert "skipped by --skip-kind" in loud.stdout  # the CronTab
    assert crdtool("validate", ".", "--output", "json", cwd=project).stdout.startswith("{")


def test_crdtool_yaml_configuration_wins_over_pyproject_and_resolves_crd_paths(project: Path) -> None:
    (project / "pyproject.toml").write_text('[tool.crdtool]\nquiet = true\n')
    (project / ".crdtool.yaml").write_text("crd: [crds/crontab.yaml]\noutput: json\n")
    out = crdtool("validate", "cr.yaml", cwd=project / "examples")
    assert out.returncode == 0, out.stdout + out.stderr
    assert [d["status"] for d in json.loads(out.stdout)["documents"]] == ["valid"]


@pytest.mark.parametrize(
    "content, message",
    [
        ("quiet: maybe\n", ".crdtool.yaml: quiet: must be true or false"),
        ("excludes: [a]\n", ".crdtool.yaml: unknown key 'excludes'"),
        ("output: xml\n", ".crdtool.yaml: output must be one of text, json, github, sarif, junit, not 'xml'"),
        ("- a\n", ".crdtool.yaml: must be a mapping of option names to values"),
        ("a: [\n", ".crdtool.yaml: invalid YAML"),
    ],
)
def test_a_broken_configuration_is_a_usage_error(project: Path, content: str, message: str) -> None:
    (project / ".crdtool.yaml").write_text(content)
    out = crdtool("validate", "crds", cwd=project)
    assert out.returncode == 2
    assert message in out.stderr
    assert "Traceback" not in out.stderr


def test_explicit_config_file(project: Path, tmp_path: Path) -> None:
    cfg = project / "ci.toml"
    cfg.write_text('[tool.crdtool]\nskip-kind = ["CustomResourceDefinition"]\n')
    out = crdtool("validate", "--config", "ci.toml", "crds", cwd=project)
    assert out.returncode == 0
    missing = crdtool("validate", "--config", "nope.yaml", "crds", cwd=project)
    assert missing.returncode == 2 and "nope.yaml: no such file" in missing.stderr
