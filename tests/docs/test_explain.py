"""crdtool explain: kubectl explain's plaintext layout (kubernetes/kubectl @v0.35.0
``pkg/explain/v2/templates/plaintext.tmpl``), offline, for a CRD.

``go_wrap`` is checked against go-wordwrap v1.0.1's own table (``wordwrap_test.go``, kubectl's pin in
go.mod @v0.35.0); ``go_value`` against Go's ``%v`` of float64 (``strconv.FormatFloat(f, 'g', -1, 64)``);
the layout against the template's cases in ``plaintext_test.go`` @v0.35.0 (``FIELD: kind <string>``,
``field "exist" does not exist``, fields through lists and maps) and golden files whose every line was
derived by hand from the template (header, ``FIELD:`` line plus two newlines, ``DESCRIPTION:`` wrapped
at 76 and indented 4 with the trailing indented empty line, ``FIELDS:`` entries ``name\\t<type>
-required-`` with descriptions wrapped at 78 - 2·level, the final newline). Regenerate the golden files
with ``CRDTOOL_REGEN_GOLDEN=1`` and review the diff.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import yaml

from crdtool.docs.explain import ExplainError, explain_crd, go_value, go_wrap

HERE = Path(__file__).resolve().parent
GOLDEN = HERE.parent / "golden" / "explain"
WIDGETS = yaml.safe_load((HERE / "fixtures" / "widgets.yaml").read_text(encoding="utf-8"))

WRAP_CASES = [  # go-wordwrap v1.0.1 wordwrap_test.go TestWrapString
    ("foo", "foo", 4),
    ("foobarbaz", "foobarbaz", 4),
    ("foo bar baz", "foo\nbar\nbaz", 4),
    ("foo bars bazzes", "foo\nbars\nbazzes", 4),
    ("fo sop", "fo\nsop", 4),
    ("foo bar\u00a0baz", "foo\nbar\u00a0baz", 10),
    ("foo\nb\t r\n baz", "foo\nb\t r\n baz", 4),
    ("foo    \nb   ar   ", "foo\nb\nar", 4),
    ("foo bar baz\n", "foo\nbar\nbaz\n", 4),
    ("\nfoo bar\n\n\nbaz\n", "\nfoo\nbar\n\n\nbaz\n", 4),
    (" This is a list: \n\n\t* foo\n\t* bar\n\n\n\t* baz  \nBAM    ", " This\nis a\nlist: \n\n\t* foo\n\t* bar\n\n\n\t* baz\nBAM", 6),
    ("\u2584 " * 4, "\u2584 \u2584" + "\n" + "\u2584 " * 2, 4),
]


@pytest.mark.parametrize(("text", "expected", "limit"), WRAP_CASES)
def test_wrap_is_go_wordwrap(text: str, expected: str, limit: int) -> None:
    assert go_wrap(limit, text) == expected


@pytest.mark.parametrize(("value", "expected"), [
    (1, "1"), (2.5, "2.5"), (-3, "-3"), (123456, "123456"), (1000000, "1e+06"), (1234567, "1.234567e+06"),
    (0.0001, "0.0001"), (0.00001, "1e-05"), (True, "true"), (None, "<nil>"), ("x", "x"),
])
def test_enum_values_print_as_go_percent_v(value: object, expected: str) -> None:
    assert go_value(value) == expected


GOLDEN_CASES = {
    "widget": ([], {}),
    "widget.spec": (["spec"], {}),
    "widget.spec.size": (["spec", "size"], {}),
    "widget.spec.color": (["spec", "color"], {}),
    "widget.spec.color.no-extras": (["spec", "color"], {"extras": False}),
    "widget.spec.parts.name": (["spec", "parts", "name"], {}),
    "widget.spec.labels": (["spec", "labels"], {}),
    "widget.spec.recursive": (["spec"], {"recursive": True}),
    "widget.metadata": (["metadata"], {"extras": False}),
    "widget.v1alpha1": ([], {"api_version": "example.com/v1alpha1"}),
}


@pytest.mark.parametrize("name", sorted(GOLDEN_CASES))
def test_explain_matches_golden(name: str) -> None:
    path, options = GOLDEN_CASES[name]
    got = explain_crd(WIDGETS, path, **options)  # type: ignore[arg-type]
    expected = GOLDEN / f"{name}.txt"
    if os.environ.get("CRDTOOL_REGEN_GOLDEN") == "1":
        expected.write_text(got, encoding="utf-8")
        pytest.skip(f"regenerated {expected.name}: review the diff before committing")
    assert got == expected.read_text(encoding="utf-8")


def test_layout_lines_of_the_template() -> None:
    # plaintext_test.go SchemaFieldPathShallow / SchemaFieldPathDeep / SchemaFieldPathViaList: "FIELD: name <type>"
    assert "FIELD: kind <string>\n" in explain_crd(WIDGETS, ["kind"])
    assert "FIELD: name <string>\n" in explain_crd(WIDGETS, ["spec", "parts", "name"])
    text = explain_crd(WIDGETS, [], extras=False)
    assert text.startswith("GROUP:      example.com\nKIND:       Widget\nVERSION:    v1\n\nDESCRIPTION:\n")
    assert "  spec\t<Object>\n    Spec is what the widget should be.\n\n" in text
    assert "  status\t<Object>\n    <no description>\n\n" in text
    assert text.endswith("\n\n\n")  # the last field's blank line, then the template's final newline


def test_without_extras_the_text_is_kubectls() -> None:
    with_extras = explain_crd(WIDGETS, ["spec", "owner"])
    plain = explain_crd(WIDGETS, ["spec", "owner"], extras=False)
    assert "RULES:" in with_extras and "RULES:" not in plain
    assert "immutable once set" in with_extras and "owner is immutable" in with_extras
    assert with_extras.replace(with_extras[with_extras.index("RULES:"):].split("\n\n")[0] + "\n\n", "") == plain


def test_missing_field_is_kubectls_error() -> None:
    # plaintext_test.go SchemaFieldPathNotFound: `field "exist" does not exist`
    with pytest.raises(ExplainError, match='^field "exist" does not exist$'):
        explain_crd(WIDGETS, ["does", "not", "exist"])


def test_unknown_or_unserved_version() -> None:
    with pytest.raises(ExplainError):
        explain_crd(WIDGETS, [], api_version="example.com/v2")
    with pytest.raises(ExplainError):
        explain_crd(WIDGETS, [], api_version="other.io/v1")


def test_every_field_path_of_the_fixture_is_explained() -> None:
    def paths(node: dict, prefix: list[str]) -> list[list[str]]:
        out = []
        for name, child in (node.get("properties") or {}).items():
            out.append([*prefix, name])
            for inner in (child, child.get("items") or {}, child.get("additionalProperties") or {}):
                out.extend(paths(inner, [*prefix, name]) if isinstance(inner, dict) else [])
        return out

    schema = WIDGETS["spec"]["versions"][1]["schema"]["openAPIV3Schema"]
    found = paths(schema, [])
    assert len(found) > 10
    for p in found:
        assert f"FIELD: {p[-1]} <" in explain_crd(WIDGETS, p)


BUILTIN_GOLDEN = {
    "deployment.spec.replicas-1.35": ("1.35", "deploy", ["spec", "replicas"], None),
    "pod.spec.containers.image-1.30": ("1.30", "pods", ["spec", "containers", "image"], None),
    "cronjob-1.35": ("1.35", "cj", [], None),
    "hpa-1.35-v1": ("1.35", "horizontalpodautoscalers", [], "autoscaling/v1"),
}


@pytest.mark.parametrize("name", sorted(BUILTIN_GOLDEN))
def test_explain_builtin_matches_golden(name: str) -> None:
    """Built-in kinds (the release's published OpenAPI through crdtool.core.builtin.catalog); the corpus tier
    checks these texts against the published documents of ../shared/openapi (tests/corpus/test_docs_corpus.py)."""
    from crdtool.docs.explain import explain_builtin

    release, resource, path, api_version = BUILTIN_GOLDEN[name]
    got = explain_builtin(release, resource, path, api_version=api_version)
    expected = GOLDEN / f"{name}.txt"
    if os.environ.get("CRDTOOL_REGEN_GOLDEN") == "1":
        expected.write_text(got, encoding="utf-8")
        pytest.skip(f"regenerated {expected.name}: review the diff before committing")
    assert got == expected.read_text(encoding="utf-8")


def test_builtin_resource_names_and_errors() -> None:
    from crdtool.docs.explain import explain_builtin, find_builtin

    assert (find_builtin("1.35", "hpa", None).version, find_builtin("1.35", "HPA", None).group) == ("v2", "autoscaling")
    assert find_builtin("1.35", "events", None).group == ""  # the core group before events.k8s.io
    assert find_builtin("1.35", "Deployment", None).resource == "deployments"
    with pytest.raises(ExplainError, match='^the server doesn\'t have a resource type "gadgets"$'):
        find_builtin("1.35", "gadgets", None)
    with pytest.raises(ExplainError, match='^field "nope" does not exist$'):
        explain_builtin("1.35", "pods", ["spec", "nope"])
