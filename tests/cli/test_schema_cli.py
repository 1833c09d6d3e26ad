"""`crdtool schema` and `crdtool completion` end to end (real start-up through a subprocess)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from jsonschema import Draft202012Validator

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"
MULTIVERSION = str(SAMPLES / "crontab-multiversion-v1.yaml")


def crdtool(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "GITHUB_ACTIONS"}
    return subprocess.run([sys.executable, "-m", "crdtool", *args], cwd=cwd, env={**env, "NO_COLOR": "1"},
                          capture_output=True, text=True, timeout=120)


def test_one_version_on_stdout_validates_the_sample_custom_resource() -> None:
    out = crdtool("schema", "--crd", MULTIVERSION, "--version", "v1", "--strict")
    assert out.returncode == 0, out.stderr
    schema = json.loads(out.stdout)
    Draft202012Validator.check_schema(schema)
    assert schema["properties"]["apiVersion"]["const"] == "stable.example.com/v1"
    import yaml

    cr = yaml.safe_load((SAMPLES / "crontab-cr-v1.yaml").read_text())
    assert Draft202012Validator(schema).is_valid(cr)
    cr["spec"]["bogus"] = 1
    assert not Draft202012Validator(schema).is_valid(cr)  # --strict: unknown fields are rejected, as Strict does


def test_output_directory_gets_kind_version_files(tmp_path: Path) -> None:
    out = crdtool("schema", "--crd", MULTIVERSION, "--output-dir", str(tmp_path / "schemas"))
    assert out.returncode == 0, out.stderr
    assert sorted(p.name for p in (tmp_path / "schemas").iterdir()) == ["crontab_v1.json", "crontab_v2.json"]
    assert out.stderr.splitlines() == [f"wrote {tmp_path / 'schemas' / 'crontab_v1.json'}",
                                       f"wrote {tmp_path / 'schemas' / 'crontab_v2.json'}"]
    v2 = json.loads((tmp_path / "schemas" / "crontab_v2.json").read_text())
    assert v2["properties"]["kind"] == {"type": "string", "const": "CronTab"}


def test_several_schemas_without_a_directory_is_a_usage_error() -> None:
    out = crdtool("schema", "--crd", MULTIVERSION)
    assert out.returncode == 2
    assert out.stdout == ""
    assert out.stderr == ("crdtool schema: 2 schemas (crontab_v1.json, crontab_v2.json): pick one with --version, "
                          "or write them all with --output-dir DIR\n")


def test_unknown_version_invalid_crd_and_no_crd_are_exit_2(tmp_path: Path) -> None:
    unknown = crdtool("schema", "--crd", MULTIVERSION, "--version", "v9")
    assert unknown.returncode == 2
    assert "has no version 'v9' (versions: v1, v2)" in unknown.stderr
    invalid = crdtool("schema", "--crd", str(ROOT / "tests/cases/crd/property-without-type.yaml"))
    assert invalid.returncode == 2
    assert ":23: the CRD is invalid: spec.versions[0].schema.openAPIV3Schema.properties[spec].type: Required value" in invalid.stderr
    none = crdtool("schema", "--crd", str(SAMPLES / "crontab-cr-v1.yaml"))
    assert none.returncode == 2 and "no apiextensions.k8s.io/v1 or v1beta1 CustomResourceDefinition found" in none.stderr
    clash = crdtool("schema", "--crd", MULTIVERSION, "--crd", str(SAMPLES / "crontab-multiversion-v1beta1.yaml"),
                    "--output-dir", str(tmp_path))
    assert clash.returncode == 2 and "crontab_v1.json: both" in clash.stderr
    assert list(tmp_path.iterdir()) == []  # nothing written


def test_completion_prints_the_shipped_scripts() -> None:
    for shell in ("bash", "zsh", "fish"):
        out = crdtool("completion", shell)
        assert out.returncode == 0, out.stderr
        assert out.stdout == (ROOT / "completions" / f"crdtool.{shell}").read_text(encoding="utf-8")
    bad = crdtool("completion", "tcsh")
    assert bad.returncode == 2
    assert "tcsh" in bad.stderr
