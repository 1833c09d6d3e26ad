"""`crdtool validate --crd FILE` where FILE holds no CRD is a usage error (exit 2), as in the other commands.

`default`, `schema`, `sort-versions` and `fuzz-roundtrip` already refuse a `--crd` without a CRD with exit 2;
`validate` used to skip every custom resource and exit 0, so a mistyped `--crd` passed in CI.
"""

from __future__ import annotations

from pathlib import Path

from tests.cli.test_validate_options import CONFIGMAP, SAMPLES, crdtool

CR = str(SAMPLES / "crontab-cr-v1.yaml")
MESSAGE = "no apiextensions.k8s.io/v1 or v1beta1 CustomResourceDefinition found"


def test_a_crd_file_without_a_crd_is_exit_2(tmp_path: Path) -> None:
    out = crdtool("validate", "--crd", CR, CR)
    assert out.returncode == 2
    assert out.stderr == f"crdtool: --crd {CR}: {MESSAGE}\n"
    assert out.stdout == ""


def test_each_crd_path_must_hold_one(tmp_path: Path) -> None:
    other = tmp_path / "cm.yaml"
    other.write_text(CONFIGMAP)
    out = crdtool("validate", "--crd", str(SAMPLES / "crontab-v1.yaml"), "--crd", str(other), CR)
    assert out.returncode == 2
    assert out.stderr == f"crdtool: --crd {other}: {MESSAGE}\n"
    empty_dir = tmp_path / "crds"
    empty_dir.mkdir()
    (empty_dir / "cm.yaml").write_text(CONFIGMAP)
    out = crdtool("validate", "--crd", str(empty_dir), CR)
    assert out.returncode == 2 and out.stderr == f"crdtool: --crd {empty_dir}: {MESSAGE}\n"


def test_a_list_of_crds_counts_and_the_custom_resource_is_checked(tmp_path: Path) -> None:
    out = crdtool("validate", "--crd", str(SAMPLES / "crontab-v1.yaml"), CR)
    assert out.returncode == 0, out.stderr
    assert "1 valid" in out.stdout
    lst = tmp_path / "list.yaml"
    crd = (SAMPLES / "crontab-v1.yaml").read_text()
    lst.write_text("apiVersion: v1\nkind: List\nitems:\n" + "".join(
        ("- " if i == 0 else "  ") + line + "\n" for i, line in enumerate(l for l in crd.splitlines() if not l.startswith("#"))
    ))
    out = crdtool("validate", "--crd", str(lst), CR)
    assert out.returncode == 0, out.stdout + out.stderr


def test_an_unreadable_crd_file_stays_an_input_error(tmp_path: Path) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text("a: [\n")
    out = crdtool("validate", "--crd", str(broken), CR)
    assert out.returncode == 2
    assert MESSAGE not in out.stderr
    assert "1 input error\n" in out.stdout
