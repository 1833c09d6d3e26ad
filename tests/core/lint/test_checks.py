"""Each lint check: a manifest that has the problem (the code is reported, at the path given) and one that
does not (the code is not reported), plus selection, the codes table and the finding shapes.

The conventions checked come from the Kubernetes API conventions, the CRD and server-side apply
documentation and openshift/crd-schema-checker's comparators (each code's url); the cost codes' numbers
are tested against upstream in test_cost_upstream.py.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from crdtool.core.lint import CODES, lint_crd, select_codes

REGEX = "'^[a-z0-9]([-a-z0-9]*[a-z0-9])?$'"
ROOT = "spec.versions[0].schema.openAPIV3Schema"


def crd(root: dict[str, Any] | None = None, *, versions: list[dict[str, Any]] | None = None,
        api_version: str = "apiextensions.k8s.io/v1") -> dict[str, Any]:
    schema = root if root is not None else {"type": "object", "properties": {"spec": {"type": "object"}}}
    return {
        "apiVersion": api_version,
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "widgets.example.com"},
        "spec": {
            "group": "example.com",
            "names": {"kind": "Widget", "plural": "widgets"},
            "scope": "Namespaced",
            "versions": versions if versions is not None else [
                {"name": "v1", "served": True, "storage": True, "schema": {"openAPIV3Schema": schema}}],
        },
    }


def spec(**props: Any) -> dict[str, Any]:
    return crd({"type": "object", "properties": {"spec": {"type": "object", "properties": props}}})


def at(*names: str) -> str:
    return ROOT + "".join(f".properties[{n}]" if not n.startswith(".") else n for n in ("spec", *names))


STRINGS = {"type": "array", "items": {"type": "string"}}
MAPLIST = {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"],
           "items": {"type": "object", "required": ["name"], "properties": {"name": {"type": "string"}}}}
CONDITIONS = {"type": "array", "items": {"type": "object", "required": ["type", "status"], "properties": {
    "type": {"type": "string"}, "status": {"type": "string"}}}}
EXPENSIVE = {"type": "array", "items": {"type": "string"},
             "x-kubernetes-validations": [{"rule": f"self.all(x, x.matches({REGEX}))"}]}


def near_budget() -> dict[str, Any]:
    """A rule at about 95% of the per-expression limit: 1,000 strings of at most 2,950 characters."""
    return spec(f={**EXPENSIVE, "maxItems": 1000, "items": {"type": "string", "maxLength": 2950}})


def total_over(n: int) -> dict[str, Any]:
    props = {f"f{i}": {**EXPENSIVE, "maxItems": 1000, "items": {"type": "string", "maxLength": 2500}} for i in range(n)}
    return spec(**props)


def with_status(subresource: bool) -> dict[str, Any]:
    m = crd({"type": "object", "properties": {"spec": {"type": "object"}, "status": {"type": "object"}}})
    if subresource:
        m["spec"]["versions"][0]["subresources"] = {"status": {}}
    return m


def versions(*entries: dict[str, Any]) -> dict[str, Any]:
    schema = {"type": "object"}
    return crd(versions=[{"served": True, "storage": False, "schema": {"openAPIV3Schema": schema}, **e} for e in entries])


# code -> (positive manifest, path reported, negative manifest)
CASES: dict[str, tuple[dict[str, Any], str, dict[str, Any]]] = {
    "CRD001": (spec(f=EXPENSIVE), at("f") + ".x-kubernetes-validations[0].rule",
               spec(f={**EXPENSIVE, "maxItems": 10, "items": {"type": "string", "maxLength": 64}})),
    "CRD002": (near_budget(), at("f") + ".x-kubernetes-validations[0].rule",
               spec(f={**EXPENSIVE, "maxItems": 100, "items": {"type": "string", "maxLength": 64}})),
    "CRD003": (total_over(13), ROOT, total_over(3)),
    "CRD004": (total_over(12), ROOT, total_over(3)),
    "CRD005": (spec(f={**EXPENSIVE, "maxItems": 10}), at("f", ".items"),
               spec(f={**EXPENSIVE, "maxItems": 10, "items": {"type": "string", "maxLength": 64}})),
    "CRD101": (spec(f=STRINGS), at("f"), spec(f={**STRINGS, "x-kubernetes-list-type": "atomic"})),
    "CRD102": (spec(f={**MAPLIST, "items": {**MAPLIST["items"], "required": []}}), at("f", ".items", "name"),
               spec(f=MAPLIST)),
    "CRD103": (crd({"type": "object", "properties": {"status": {"type": "object", "properties": {
                   "conditions": CONDITIONS}}}}), ROOT + ".properties[status].properties[conditions]",
               crd({"type": "object", "properties": {"status": {"type": "object", "properties": {
                   "conditions": {**CONDITIONS, "x-kubernetes-list-type": "map",
                                  "x-kubernetes-list-map-keys": ["type"]}}}}})),
    "CRD104": (spec(f={"type": "array", "x-kubernetes-list-type": "set", "items": {
                   "type": "object", "x-kubernetes-map-type": "atomic"}}), at("f"),
               spec(f={**STRINGS, "x-kubernetes-list-type": "set"})),
    "CRD105": (spec(f={"type": "object", "additionalProperties": {"type": "string"}}), at("f"),
               spec(f={"type": "object", "properties": {"a": {"type": "string"}}})),
    "CRD201": (spec(f={"type": "number"}), at("f"), spec(f={"type": "integer", "format": "int64"})),
    "CRD202": (spec(f={"type": "integer", "format": "uint64"}), at("f"), spec(f={"type": "number", "format": "double"})),
    "CRD203": (spec(f={"type": "string", "format": "dateTime"}), at("f"), spec(f={"type": "string", "format": "date-time"})),
    "CRD204": (spec(f={"type": "boolean"}), at("f"), spec(f={"type": "string", "enum": ["On", "Off"]})),
    "CRD205": (spec(f={"type": "string"}), at("f"), crd({"type": "object", "properties": {"spec": {
                   "type": "object", "description": "d", "properties": {"f": {"type": "string", "description": "d"}}}}})),
    "CRD206": (crd({"type": "object", "x-kubernetes-preserve-unknown-fields": True}), ROOT,
               spec(f={"type": "object", "x-kubernetes-preserve-unknown-fields": True})),
    "CRD207": (spec(f={"type": "object", "required": ["a"], "properties": {"b": {"type": "string"}}}), at("f"),
               spec(f={"type": "object", "required": ["a"], "x-kubernetes-preserve-unknown-fields": True})),
    "CRD301": (with_status(False), ROOT + ".properties[status]", with_status(True)),
    "CRD302": (versions({"name": "v1", "storage": True}, {"name": "v1beta1", "deprecated": True}),
               "spec.versions[1].deprecated",
               versions({"name": "v1", "storage": True},
                        {"name": "v1beta1", "deprecated": True, "deprecationWarning": "use v1"})),
    "CRD303": (versions({"name": "v1beta1", "storage": True}, {"name": "v1"}), "spec.versions[0].storage",
               versions({"name": "v1beta1"}, {"name": "v1", "storage": True})),
    # the Kubernetes documentation's "immutable once set" field, then with the parent's guard it recommends
    "CRD401": (spec(f={"type": "string", "x-kubernetes-validations": [{"rule": "self == oldSelf"}]}), at("f"),
               crd({"type": "object", "properties": {"spec": {
                   "type": "object", "x-kubernetes-validations": [{"rule": "!has(oldSelf.f) || has(self.f)"}],
                   "properties": {"f": {"type": "string", "x-kubernetes-validations": [{"rule": "self == oldSelf"}]}}}}})),
    # issue 27, repro 13: versions a mapping (json: cannot unmarshal object ... of type []v1.CustomResourceDefinitionVersion)
    "CRD900": ({**spec(f=STRINGS), "spec": {**spec(f=STRINGS)["spec"], "versions": {"name": "v1"}}}, "spec.versions",
               spec(f=STRINGS)),
}


def test_every_code_has_a_case() -> None:
    # CRD901 (unused suppression) reads the manifest's comments: the CLI's, tests/cli/test_lint_cli.py; the POL codes
    # are about policy documents: tests/core/lint/test_policies.py
    assert set(CASES) == {c for c in CODES if c.startswith("CRD")} - {"CRD901"}


@pytest.mark.parametrize("code", sorted(CASES))
def test_positive(code: str) -> None:
    manifest, path, _ = CASES[code]
    found = [f for f in lint_crd(manifest, select=[code]).findings]
    assert found and all(f.code == code and f.severity == CODES[code].severity for f in found)
    assert path in {f.path for f in found}, [(f.path, f.message) for f in found]


@pytest.mark.parametrize("code", sorted(CASES))
def test_negative(code: str) -> None:
    _, _, manifest = CASES[code]
    assert [f.message for f in lint_crd(manifest, select=[code]).findings] == []


@pytest.mark.parametrize("code", sorted(c for c in CASES if not c.startswith("CRD00")))
def test_the_convention_cases_are_valid_crds(code: str) -> None:
    """The cases break conventions, not the apiserver's rules (except CRD102's, which v1 also refuses)."""
    from crdtool.core.crd.manifest import check_crd_manifest

    positive, _, negative = CASES[code]
    assert check_crd_manifest(negative).valid, [str(f.error) for f in check_crd_manifest(negative).findings]
    if code not in ("CRD102", "CRD900"):
        assert check_crd_manifest(positive).valid, [str(f.error) for f in check_crd_manifest(positive).findings]


def test_conditions_are_not_also_a_missing_list_type() -> None:
    manifest, _, _ = CASES["CRD103"]
    assert {f.code for f in lint_crd(manifest, select=["CRD1"]).findings} == {"CRD103"}


def test_arrays_inside_an_atomic_list_are_not_reported() -> None:
    nested = {"type": "array", "items": {"type": "object", "properties": {"inner": STRINGS}}}
    assert [f.path for f in lint_crd(spec(f=nested), select=["CRD101"]).findings] == [at("f")]


def test_required_but_undeclared_is_fine_when_a_v1beta1_crd_preserves_unknown_fields() -> None:
    manifest = copy.deepcopy(CASES["CRD207"][0])
    manifest["apiVersion"] = "apiextensions.k8s.io/v1beta1"
    assert lint_crd(manifest, select=["CRD207"]).findings == ()
    manifest["spec"]["preserveUnknownFields"] = False
    assert [f.code for f in lint_crd(manifest, select=["CRD207"]).findings] == ["CRD207"]


def test_versions_sharing_a_schema_are_reported_once() -> None:
    schema = {"type": "object", "properties": {"spec": {"type": "object", "properties": {"f": STRINGS}}}}
    manifest = crd(versions=[{"name": n, "served": True, "storage": n == "v2", "schema": {"openAPIV3Schema": schema}}
                             for n in ("v1", "v2")])
    [f] = lint_crd(manifest, select=["CRD101"]).findings
    assert f.versions == ("v1", "v2")


def test_v1beta1_top_level_validation() -> None:
    manifest = {"apiVersion": "apiextensions.k8s.io/v1beta1", "kind": "CustomResourceDefinition",
                "metadata": {"name": "widgets.example.com"},
                "spec": {"group": "example.com", "version": "v1", "names": {"kind": "Widget", "plural": "widgets"},
                         "scope": "Namespaced", "validation": {"openAPIV3Schema": {
                             "type": "object", "properties": {"f": {"type": "number"}}}}}}
    [f] = lint_crd(manifest, select=["CRD201"]).findings
    assert f.path == "spec.validation.openAPIV3Schema.properties[f]"


def test_selection_is_ruffs() -> None:
    default = select_codes()
    assert "CRD105" not in default and "CRD204" not in default and "CRD101" in default
    assert select_codes(["ALL"]) == frozenset(CODES)
    assert select_codes(["CRD1"], ["CRD105"]) == {"CRD101", "CRD102", "CRD103", "CRD104"}
    assert select_codes(["CRD00"]) == {"CRD001", "CRD002", "CRD003", "CRD004", "CRD005"}
    with pytest.raises(ValueError, match="CRD999"):
        select_codes(["CRD999"])
    with pytest.raises(ValueError, match="XYZ"):
        select_codes(None, ["XYZ"])


def test_codes_have_a_rationale_and_a_link() -> None:
    for code, lc in CODES.items():
        assert code == lc.code and code[:3] in ("CRD", "POL") and code[3:].isdigit() and len(code) == 6
        assert lc.severity in ("error", "warning", "info")
        assert lc.rationale.endswith(".") and "\n" not in lc.rationale
        assert lc.url.startswith("https://")
    assert len({lc.name for lc in CODES.values()}) == len(CODES)


def test_a_report_carries_the_cost_breakdown() -> None:
    report = lint_crd(CASES["CRD001"][0])
    [schema] = report.cost.schemas
    [e] = schema.expressions
    assert e.over and e.fixes
    finding = next(f for f in report.findings if f.code == "CRD001")
    assert finding.fixes == e.fixes and finding.to_dict()["name"] == "cel-rule-over-budget"
    [schema] = lint_crd(CASES["CRD001"][0], select=["CRD1"]).cost.schemas  # costed, not fixed
    assert schema.expressions[0].over and not schema.expressions[0].fixes


# --- robustness: any CRD-shaped dict ---------------------------------------------------------------------------

def test_odd_values_never_raise() -> None:
    """Values of the wrong JSON type anywhere in a schema or a version entry: findings or nothing, never an error."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    scalars = st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.text(max_size=3))
    values = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                           st.dictionaries(st.text(max_size=3), inner, max_size=3)),
                          max_leaves=6)
    keys = st.sampled_from(["type", "items", "properties", "required", "x-kubernetes-list-type",
                            "x-kubernetes-list-map-keys", "x-kubernetes-validations", "additionalProperties", "format",
                            "maxItems", "x-kubernetes-preserve-unknown-fields", "description", "enum", "default"])

    @settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
    @given(st.dictionaries(keys, values, max_size=4), st.dictionaries(keys, values, max_size=4),
           st.dictionaries(st.sampled_from(["served", "storage", "deprecated", "subresources", "name"]), values, max_size=3))
    def check(root_extra: dict[str, Any], field_extra: dict[str, Any], version_extra: dict[str, Any]) -> None:
        cheap = {"type": "array", "items": {"type": "string"}, "x-kubernetes-validations": [{"rule": "self.size() > 0"}]}
        root = {"type": "object", "properties": {"spec": {"type": "object", "properties": {
            "f": {**cheap, **field_extra}, "g": {**MAPLIST, **field_extra}}}}, **root_extra}
        manifest = crd(versions=[{"name": "v1", "served": True, "storage": True,
                                  "schema": {"openAPIV3Schema": root}, **version_extra}])
        report = lint_crd(manifest, select=["ALL"])
        assert all(f.code in CODES for f in report.findings)

    check()
    for odd in ({"x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": 3, "items": {"type": "object", "required": 5}},
                {"x-kubernetes-validations": "self.x", "required": "abc", "properties": []},
                {"x-kubernetes-validations": [{"rule": 5}, "x"], "items": [{"type": "string"}, 3]}):
        lint_crd(spec(f={"type": "array", **odd}), select=["ALL"])


# --- issue 27, repro 13: CRDs lint cannot check are a finding, not "0 findings" --------------------------------


@pytest.mark.parametrize(
    ("spec_value", "path", "text"),
    [
        (None, "spec", "the CRD has no versions (spec is missing or empty)"),
        ([1, 2], "spec", "json: cannot unmarshal array into Go struct field CustomResourceDefinition.spec of type "
                         "v1.CustomResourceDefinitionSpec"),
        ({"group": "example.com", "versions": []}, "spec.versions", "the CRD has no versions (spec.versions is"),
    ],
)
def test_a_crd_lint_cannot_check_is_crd900(spec_value: Any, path: str, text: str) -> None:
    from crdtool.core.crd.manifest import check_crd_manifest

    manifest = {"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
                "metadata": {"name": "a.example.com"}}
    if spec_value is not None:
        manifest["spec"] = spec_value
    [f] = lint_crd(manifest, select=["ALL"]).findings
    assert (f.code, f.severity, f.path) == ("CRD900", "error", path) and text in f.message
    assert not check_crd_manifest(manifest).valid  # the apiserver refuses each of them
    assert lint_crd(manifest, select=["CRD1"]).findings == ()  # a code like the others: selected or not
