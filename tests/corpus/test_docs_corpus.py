"""``crdtool docs`` and ``explain`` over the real CRDs of ``../shared/corpus`` and ``../shared/corpus-outside``.

Every CRD of both corpora (valid or not: cert-manager-2021's templated CRDs are described as written)
gets an HTML and a Markdown page without an error, with a block per field (the browser test checks
the fields by name on three of them); ``explain``
answers for every field path of cert-manager v1.21.1's Certificate and Gateway API v1.6.1's HTTPRoute
with kubectl's ``FIELD: name <type>`` line (plaintext.tmpl @kubectl v0.35.0).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

import pytest
import yaml

from crdtool.docs.explain import explain_crd
from crdtool.docs.model import crd_page
from crdtool.docs.render import render_html_page, render_markdown_page

SHARED = Path(__file__).resolve().parents[2].parent / "shared"
CORPORA = {"corpus": SHARED / "corpus" / "crds", "corpus-outside": SHARED / "corpus-outside"}


def _crds(root: Path) -> Iterator[tuple[str, dict[str, Any]]]:
    for path in sorted(root.rglob("*")):
        if path.suffix not in (".yaml", ".yml", ".json") or "/crs/" in str(path):
            continue
        try:
            docs = list(yaml.load_all(path.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader))
        except yaml.YAMLError:
            continue  # not YAML as PyYAML reads it (crdtool's loader reports these as input errors)
        for i, doc in enumerate(docs):
            if isinstance(doc, dict) and doc.get("kind") == "CustomResourceDefinition" and str(doc.get("apiVersion", "")).startswith("apiextensions.k8s.io/"):
                yield f"{path.relative_to(root)}#{i}", doc


def _field_paths(schema: Any, prefix: str = "") -> Iterator[list[str]]:
    if not isinstance(schema, dict):
        return
    for name, child in (schema.get("properties") or {}).items():
        yield [*prefix.split(".")[1:], name] if prefix else [name]
        yield from _field_paths_under(child, f"{prefix}.{name}")


def _field_paths_under(node: Any, prefix: str) -> Iterator[list[str]]:
    if not isinstance(node, dict):
        return
    yield from _field_paths(node, prefix)
    for key in ("items", "additionalProperties"):
        yield from _field_paths_under(node.get(key), prefix)


@pytest.mark.parametrize("corpus", sorted(CORPORA))
def test_every_crd_gets_its_pages(corpus: str) -> None:
    count = 0
    for where, doc in _crds(CORPORA[corpus]):
        page = crd_page(doc, source=where)
        html, md = render_html_page(page), render_markdown_page(page)
        fields = sum(len(v.fields) for v in page.versions)
        assert html.count('<div class="field" id=') == fields, where
        assert md.count("\n#### `") == fields, where
        count += 1
    assert count > (150 if corpus == "corpus-outside" else 150)


@pytest.mark.parametrize("name", [
    "cert-manager__v1.21.1__cert-manager.io_certificates.yaml",
    "gateway-api__v1.6.1__standard__httproutes.yaml",
])
def test_explain_answers_every_field_path(name: str) -> None:
    crd = yaml.load((CORPORA["corpus"] / "v1" / name).read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
    version = next(v for v in crd["spec"]["versions"] if v.get("storage"))
    paths = list(_field_paths(version["schema"]["openAPIV3Schema"]))
    assert len(paths) > 90
    for path in paths:
        text = explain_crd(crd, path, api_version=f"{crd['spec']['group']}/{version['name']}")
        assert f"\nFIELD: {path[-1]} <" in text, path


@pytest.mark.parametrize("release", ["1.30", "1.35"])
def test_builtin_explain_is_kubectls_over_the_published_document(release: str) -> None:
    """explain_builtin (catalog data: descriptions folded out, allOf-$refs folded in) prints exactly what the
    template prints over the release's published OpenAPI v3 document (../shared/openapi/<release>)."""
    import json

    from crdtool.docs.explain import explain_builtin, render_explain

    root = SHARED / "openapi" / release
    cases = [("apis/apps/v1.json", "apps", "v1", "Deployment", "deployments"), ("api/v1.json", "", "v1", "Pod", "pods"),
             ("api/v1.json", "", "v1", "Service", "services"), ("apis/batch/v1.json", "batch", "v1", "CronJob", "cronjobs")]
    for file, group, version, kind, resource in cases:
        schemas = json.loads((root / file).read_text(encoding="utf-8"))["components"]["schemas"]
        name = next(n for n, s in schemas.items() if {"group": group, "version": version, "kind": kind} in (s.get("x-kubernetes-group-version-kind") or []))
        deep = {"Deployment": ["spec", "template", "spec", "containers", "ports"], "Pod": ["spec", "volumes", "csi"],
                "Service": ["spec", "selector"], "CronJob": ["spec", "jobTemplate", "spec"]}[kind]
        for path, recursive in (([], True), ([], False), (["spec"], False), (["metadata"], False), (deep, False)):
            expected = render_explain(group, version, kind, schemas[name], path, recursive=recursive, definitions=schemas, extras=False)
            got = explain_builtin(release, resource, path, api_version=f"{group}/{version}" if group else version,
                                  recursive=recursive, extras=False)
            assert got == expected, (kind, path, recursive)
    golden = Path(__file__).resolve().parents[1] / "golden" / "explain"
    if release == "1.35":
        schemas = json.loads((root / "apis/apps/v1.json").read_text(encoding="utf-8"))["components"]["schemas"]
        text = render_explain("apps", "v1", "Deployment", schemas["io.k8s.api.apps.v1.Deployment"], ["spec", "replicas"], definitions=schemas)
        assert text == (golden / "deployment.spec.replicas-1.35.txt").read_text(encoding="utf-8")
