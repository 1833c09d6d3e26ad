"""crdtool docs: the page model, the Markdown and HTML pages (golden files), determinism, safety, contrast.

The fixture is ``tests/docs/fixtures/widgets.yaml`` (written for these tests). The changes between its
versions are cross-checked against ``compare_crds`` (``crdtool diff``'s comparison) run on two manifests
that differ only in v1's schema; the rule words against :mod:`crdtool.core.crdcel.idioms`; the
deprecation warning against apiextensions-apiserver ``pkg/apiserver/customresource_handler.go``
@v0.35.0 (``"%s/%s %s is deprecated"`` of group, version and kind). Regenerate the golden files with
``CRDTOOL_REGEN_GOLDEN=1`` and review the diff.
"""

from __future__ import annotations

import copy
import os
import re
from pathlib import Path

import pytest
import yaml

from crdtool.core.crd.compare import compare_crds, compare_versions
from crdtool.docs.model import crd_page
from crdtool.docs.render import render_html_index, render_html_page, render_markdown_index, render_markdown_page

HERE = Path(__file__).resolve().parent
GOLDEN = HERE.parent / "golden" / "docs"
WIDGETS = yaml.safe_load((HERE / "fixtures" / "widgets.yaml").read_text(encoding="utf-8"))


def _schema_paths(node: dict, prefix: str = "") -> list[str]:
    """Every field of a schema, written independently of the model (JSONPath-like, [*] and .* steps)."""
    out = []
    for name, child in sorted((node.get("properties") or {}).items()):
        path = f"{prefix}.{name}"
        out.append(path)
        out.extend(_below(child, path))
    return out


def _below(node: dict, path: str) -> list[str]:
    out = _schema_paths(node, path)
    if isinstance(node.get("items"), dict):
        out.extend(_below(node["items"], path + "[*]"))
    if isinstance(node.get("additionalProperties"), dict):
        out.extend(_below(node["additionalProperties"], path + ".*"))
    return out


def test_every_field_is_on_the_page_once() -> None:
    page = crd_page(WIDGETS)
    assert [v.name for v in page.versions] == ["v1", "v1alpha1"]  # discovery's priority: GA first
    for version in WIDGETS["spec"]["versions"]:
        doc = next(v for v in page.versions if v.name == version["name"])
        expected = _schema_paths(version["schema"]["openAPIV3Schema"])
        assert sorted(f.path for f in doc.fields) == sorted(expected)


def test_fields_say_what_the_schema_says() -> None:
    v1 = crd_page(WIDGETS).versions[0]
    fields = {f.path: f for f in v1.fields}
    assert v1.storage and v1.served and not v1.deprecated and v1.subresources == ("status",)
    assert fields[".spec.size"].required and fields[".spec.size"].bounds == ("minimum 1", "maximum 100")
    assert fields[".spec.color"].default == '"red"' and fields[".spec.color"].enum == ('"red"', '"green"', '"blue"')
    assert fields[".spec.pattern"].pattern == "^[a-z]+$" and fields[".spec.pattern"].bounds == ("at most 20 characters",)
    assert fields[".spec.parts"].type == "[]Object" and "keyed by `name`" in fields[".spec.parts"].notes[0]
    assert fields[".spec.parts[*].count"].default == "1"
    assert fields[".spec.labels"].type == "map[string]string" and fields[".spec.labels"].bounds == ("each value: at most 63 characters",)
    assert any("embedded" in n for n in fields[".spec.template"].notes)
    assert fields[".spec.port"].type == "IntOrString"
    size_rule, = fields[".spec.size"].rules
    assert (size_rule.idiom, size_rule.message, size_rule.transition) == ("may only grow (never decrease)", "size may not shrink", True)
    owner_rule, = fields[".spec.owner"].rules
    assert (owner_rule.idiom, owner_rule.reason) == ("immutable once set", "FieldValueForbidden")
    spec_rule, = fields[".spec"].rules
    assert spec_rule.idiom == "`color` and `pattern` are mutually exclusive" and not spec_rule.transition


def test_deprecated_version_gets_the_apiservers_default_warning() -> None:
    old = crd_page(WIDGETS).versions[1]
    assert old.deprecated and old.deprecation_warning == "example.com/v1alpha1 Widget is deprecated"
    custom = copy.deepcopy(WIDGETS)
    custom["spec"]["versions"][0]["deprecationWarning"] = "use example.com/v1"
    assert crd_page(custom).versions[1].deprecation_warning == "use example.com/v1"


def test_changes_between_versions_are_diffs() -> None:
    """compare_versions(crd, v1alpha1, v1) == the per-version changes compare_crds finds when a CRD's v1
    schema (and columns, subresources) change from v1alpha1's to v1's."""
    old = copy.deepcopy(WIDGETS)
    alpha, ga = old["spec"]["versions"]
    for key in ("schema", "subresources", "additionalPrinterColumns"):
        ga.pop(key, None)
        if key in alpha:
            ga[key] = copy.deepcopy(alpha[key])
    expected = [c for c in compare_crds(old, WIDGETS) if c.version == "v1"]
    got = compare_versions(WIDGETS, "v1alpha1", "v1")
    assert got == expected and got
    page = crd_page(WIDGETS)
    assert page.versions[0].previous == "v1alpha1"
    assert sorted((c.path, c.kind) for c in page.versions[0].changes) == sorted((c.path, c.kind) for c in got)
    assert any(c.kind == "cel-rule-added" and c.path == ".spec" for c in got)
    assert any(c.kind == "field-added" and c.path == ".spec.owner" for c in got)
    with pytest.raises(ValueError):
        compare_versions(WIDGETS, "v1alpha1", "v9")


GOLDEN_PAGES = {
    "widgets.example.com.md": lambda: render_markdown_page(crd_page(WIDGETS, source="tests/docs/fixtures/widgets.yaml")),
    "widgets.example.com.html": lambda: render_html_page(crd_page(WIDGETS, source="tests/docs/fixtures/widgets.yaml")),
    "index.md": lambda: render_markdown_index([crd_page(WIDGETS)]),
    "index.html": lambda: render_html_index([crd_page(WIDGETS)]),
}


@pytest.mark.parametrize("name", sorted(GOLDEN_PAGES))
def test_pages_match_golden(name: str) -> None:
    got = GOLDEN_PAGES[name]()
    expected = GOLDEN / name
    if os.environ.get("CRDTOOL_REGEN_GOLDEN") == "1":
        expected.write_text(got, encoding="utf-8")
        pytest.skip(f"regenerated {expected.name}: review the diff before committing")
    assert got == expected.read_text(encoding="utf-8")


def _reordered(value: object) -> object:
    if isinstance(value, dict):
        return {k: _reordered(value[k]) for k in reversed(list(value))}
    if isinstance(value, list):
        return [_reordered(v) for v in value]
    return value


def test_same_crd_same_bytes_whatever_the_key_order() -> None:
    shuffled = _reordered(WIDGETS)
    assert render_html_page(crd_page(shuffled)) == render_html_page(crd_page(WIDGETS))  # type: ignore[arg-type]
    assert render_markdown_page(crd_page(shuffled)) == render_markdown_page(crd_page(WIDGETS))  # type: ignore[arg-type]


HOSTILE = "Hi <script>alert(1)</script> <img src=x onerror=alert(2)> ![pic](http://example.invalid/p.png) [ok](https://example.com)\n# not a heading"


def test_descriptions_cannot_inject_markup_or_fetch() -> None:
    crd = copy.deepcopy(WIDGETS)
    crd["spec"]["versions"][1]["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"]["size"]["description"] = HOSTILE
    html = render_html_page(crd_page(crd))
    assert "<script" not in html and "<img" not in html and "onerror=alert" not in html.replace("&lt;img src=x onerror=alert(2)&gt;", "")
    assert '<a href="http://example.invalid/p.png">pic</a>' in html and '<a href="https://example.com">ok</a>' in html
    assert not re.search(r"<(link|script|img|iframe|object|embed|video|audio|source)\b", html)
    assert not re.search(r"url\(|@import", html)
    md = render_markdown_page(crd_page(crd))
    assert "&lt;script>" in md and "\\# not a heading" in md


def _luminance(hex_colour: str) -> float:
    rgb = [int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def _contrast(a: str, b: str) -> float:
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def test_colours_meet_wcag_aa_in_light_and_dark() -> None:
    css = (Path(__file__).resolve().parents[2] / "crdtool" / "docs" / "templates" / "style.css").read_text(encoding="utf-8")
    schemes = re.findall(r":root\{([^}]*)\}", css)
    assert len(schemes) == 2  # light, and dark under prefers-color-scheme
    for scheme in schemes:
        var = dict(re.findall(r"--(\w+):(#[0-9a-f]{6})", scheme))
        for fg, bg in (("fg", "bg"), ("muted", "bg"), ("accent", "bg"), ("req", "bg"), ("warn", "warnbg"), ("fg", "code"), ("fg", "rule"), ("accent", "rule")):
            assert _contrast(var[fg], var[bg]) >= 4.5, (fg, bg, scheme)


def test_rules_close_to_the_budget_show_lints_estimate() -> None:
    """A rule over a bounded list of strings: the page shows the estimate crdtool lint computes (the CRD
    validator's own, crdtool/core/lint/cost.py) once it reaches 10% of the per-rule limit, not below."""
    from crdtool.core.lint.cost import cost_breakdown

    def with_rule(max_items: int) -> dict:
        crd = copy.deepcopy(WIDGETS)
        props = crd["spec"]["versions"][1]["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"]
        props["hosts"] = {"type": "array", "maxItems": max_items, "items": {"type": "string", "maxLength": 253},
                          "x-kubernetes-validations": [{"rule": "self.all(x, x.matches('^[a-z.]+$'))", "message": "hosts"}]}
        return crd

    for max_items, shown in ((5000, True), (10, False)):
        crd = with_rule(max_items)
        (expected,) = [e for e in cost_breakdown(crd, fixes=False).expressions if e.expression.startswith("self.all")]
        field = next(f for f in crd_page(crd).versions[0].fields if f.path == ".spec.hosts")
        assert bool(field.rules[0].cost) is shown
        assert (expected.estimated >= 1_000_000) is shown
        if shown:
            assert field.rules[0].cost == f"estimated cost {expected.estimated:,}: {expected.estimated / 10_000_000:.0%} of the per-rule limit (10,000,000)"
            assert field.rules[0].cost in render_html_page(crd_page(crd))
