"""cel-go v0.27.0's namespace resolution (``namespace_resolution_v027``) and the releases that pin it.

cel-go 3cb57058 "Namespace resolution fix" (#1256, in v0.27.0; fe26efa8): ``checker/env.go`` resolveSimpleIdent /
resolveQualifiedIdent, ``checker/checker.go`` checkIdent / checkSelect, ``interpreter/attributes.go``
absoluteAttribute.Resolve. Cases: ``interpreter/interpreter_test.go@v0.27.0`` testData (the checked ones added by
3cb57058) and ``checker/checker_test.go@v0.27.0`` testCases; the outputs of v0.26.0 and earlier for the same
shapes are in ``tests/core/cel_upstream/celgo_versions.yaml`` (cel-go builds of each tag, see
test_celgo_versions.py).
"""

from __future__ import annotations

from typing import Any

import pytest

from crdtool.core.celgo import types as T
from crdtool.core.celgo import values as V
from crdtool.core.celgo.env import Environment, compile_expression
from crdtool.core.celgo.functions import runtime
from crdtool.core.celgo.interpreter import plan_program
from crdtool.core.celgo.version import has
from crdtool.core.releases import RELEASES


def _eval(expr: str, variables: dict[str, T.Type], data: dict[str, Any], container: str = "",
          cel_go: str = "v0.27.0") -> Any:
    env = Environment(libraries=("stdlib",), cel_go=cel_go, container=container)
    compiled = compile_expression(expr, variables, env=env)
    if compiled.checked is None:
        return compiled.error
    return plan_program(compiled.checked, runtime(env.libraries, cel_go)).eval(
        {k: V.adapt_native(v) for k, v in data.items()}
    )


MAP_SI = T.parse_type("map(string, int)")


@pytest.mark.parametrize(
    ("name", "expr", "container", "variables", "data"),
    [
        # interpreter_test.go@v0.27.0 testData (checked)
        ("local_shadow_identifier_in_select", "[{'z': 0}].exists(y, y.z == 0)", "cel.example",
         {"cel.example.y": T.INT}, {"cel.example.y": {"z": 1}}),
        ("local_shadow_identifier_in_select_global_disambiguation", "[{'z': 0}].exists(y, y.z == 0 && .y.z == 1)",
         "y", {"y.z": T.INT}, {"y.z": 1}),
        ("local_shadow_identifier_with_global_disambiguation", "[0].exists(x, x == 0 && .x == 1)", "",
         {"x": T.INT}, {"x": 1}),
        ("local_double_shadow_identifier_with_global_disambiguation", "[0].exists(x, [x+1].exists(x, x == .x))", "",
         {"x": T.INT}, {"x": 1}),
    ],
)
def test_interpreter_cases_v0_27(name: str, expr: str, container: str, variables: dict[str, T.Type],
                                 data: dict[str, Any]) -> None:
    assert _eval(expr, variables, data, container) is True, name


@pytest.mark.parametrize(
    ("expr", "variables", "ref"),
    [
        # checker_test.go@v0.27.0 testCases (3cb57058): the local wins, `.x` is the global, `.y.z` the dotted one
        ("[{'y': 0}].exists(x, x.y == 0)", {"x": MAP_SI}, None),
        ("[0].exists(x, x != .x)", {"x": T.INT}, ".x"),
        ("[{'z': 0}].exists(y, .y.z == y.z)", {"y.z": T.INT}, ".y.z"),
    ],
)
def test_checker_cases_v0_27(expr: str, variables: dict[str, T.Type], ref: str | None) -> None:
    env = Environment(libraries=("stdlib",), cel_go="v0.27.0")
    compiled = compile_expression(expr, variables, env=env)
    assert compiled.checked is not None, compiled.error
    assert compiled.output_type == T.BOOL
    names = {r.name for r in compiled.checked.reference_map.values() if r.name}
    assert (ref in names) if ref is not None else not any(n.startswith(".") for n in names)


def test_dot_names_the_local_before_v0_27() -> None:
    # checker/env.go@v0.26.0 LookupIdent: ResolveCandidateNames(".x") = ["x"], found in the innermost scope first
    assert _eval("[0].exists(x, x == 0 && .x == 1)", {"x": T.INT}, {"x": 1}, cel_go="v0.26.0") is False
    assert _eval("[0].exists(x, x == 0 && .x == 1)", {"x": T.INT}, {"x": 1}, cel_go="v0.27.0") is True


def test_container_candidate_before_the_local_before_v0_27() -> None:
    # @v0.26.0 the container-qualified global `cel.example.y` (an int) is found before the local y
    expr, variables, data = "[{'z': 0}].exists(y, y.z == 0)", {"cel.example.y": T.INT}, {"cel.example.y": 1}
    assert "type 'int' does not support field selection" in _eval(expr, variables, data, "cel.example", "v0.26.0")
    assert _eval(expr, variables, data, "cel.example", "v0.27.0") is True


@pytest.mark.parametrize("minor", sorted(RELEASES))
def test_releases_that_pin_v0_27_resolve_as_it_does(minor: int) -> None:
    # k8s.io/apiserver go.mod: v0.37.0-beta.0 pins cel-go v0.27.0, v0.36.3 and earlier v0.26.0 or older
    assert has(RELEASES[minor].cel_go, "namespace_resolution_v027") is (minor >= 37)


@pytest.mark.parametrize(("version", "ok"), [("1.36", False), ("1.37", True)])
def test_crd_rule_with_a_dotted_self(version: str, ok: bool) -> None:
    """A CRD rule that names the global ``self`` past a comprehension variable ``self`` compiles from 1.37 on."""
    from crdtool.core.crd.manifest import check_crd_manifest

    crd = {
        "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "widgets.example.com"},
        "spec": {
            "group": "example.com", "scope": "Namespaced",
            "names": {"plural": "widgets", "singular": "widget", "kind": "Widget"},
            "versions": [{"name": "v1", "served": True, "storage": True, "schema": {"openAPIV3Schema": {
                "type": "object",
                "properties": {"spec": {"type": "object", "properties": {"items": {
                    "type": "array", "maxItems": 10, "items": {"type": "integer"},
                    "x-kubernetes-validations": [{"rule": "self.all(self, .self.size() > 0)"}],
                }}}},
            }}}],
        },
    }
    findings = check_crd_manifest(crd, kubernetes_version=version).findings
    if ok:
        assert findings == ()
    else:
        assert [f.error.field for f in findings] == [
            "spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[items].x-kubernetes-validations[0].rule"
        ]
        assert "found no matching overload for 'size' applied to 'int.()'" in findings[0].error.detail
