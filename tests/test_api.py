"""The public Python API: every exported name resolves; importing crdtool and the CLI stays light."""

from __future__ import annotations

import subprocess
import sys

import crdtool


def test_every_export_resolves() -> None:
    for name in crdtool.__all__:
        assert getattr(crdtool, name) is not None, name


def test_public_functions_have_docstrings_naming_their_shapes() -> None:
    for name in crdtool.__all__:
        obj = getattr(crdtool, name)
        assert obj.__doc__ and len(obj.__doc__.strip()) > 20, name


def test_cli_start_up_does_not_import_heavy_libraries() -> None:
    code = (
        "import sys, crdtool.cli.app\n"
        "heavy = [m for m in ('hypothesis', 'deepdiff', 'cel_expr_python', 'ruamel.yaml', 'jsonschema', 're2', 'yaml')"
        " if m in sys.modules]\n"
        "print(','.join(heavy))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_sort_versions_and_errors_through_the_api() -> None:
    assert crdtool.sort_versions(["v1beta1", "v2", "v1"]) == ["v2", "v1", "v1beta1"]
    assert crdtool.compare_versions("v1", "v1beta1") > 0
    crd = {
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "foos.example.com"},
        "spec": {
            "group": "example.com",
            "scope": "Namespaced",
            "names": {"kind": "Foo", "singular": "foo", "listKind": "FooList"},
            "versions": [{"name": "v1", "served": True, "storage": True, "schema": {"openAPIV3Schema": {"type": "object"}}}],
        },
    }
    errors = crdtool.validate_crd(crdtool.default_crd(crd))
    assert "spec.names.plural: Required value" in [str(e) for e in errors]
    assert crd["spec"]["names"] == {"kind": "Foo", "singular": "foo", "listKind": "FooList"}  # not mutated
