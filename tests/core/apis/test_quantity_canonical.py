"""``resource.Quantity.String()`` (k8s.io/apimachinery ``pkg/api/resource/quantity_test.go`` @v0.36:
``TestQuantityCanonicalize``-style rows, and the examples of the Kubernetes docs) and ``SetDefaults_ResourceList``."""

from __future__ import annotations

import pytest

from crdtool.core.apis._quantity import canonical_text
from tests.core.apis._create import create


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("0.5", "500m"), ("1.5Gi", "1536Mi"), ("1000m", "1"), ("1e3", "1e3"), ("2048Ki", "2Mi"), ("1024", "1024"),
        ("1023Ki", "1023Ki"), ("128974848", "128974848"), ("129e6", "129e6"), ("129M", "129M"), ("123Mi", "123Mi"),
        ("0.1Gi", "107374182400m"), ("0", "0"), ("1.5", "1500m"), ("100n", "100n"), ("1k", "1k"), ("1000", "1k"),
    ],
)
def test_canonical(text: str, expected: str) -> None:
    assert canonical_text(text) == expected


def test_resource_lists_are_rounded_up_and_canonical() -> None:
    obj = {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "a", "namespace": "d"},
           "spec": {"selector": {"matchLabels": {"a": "b"}}, "template": {"metadata": {"labels": {"a": "b"}}, "spec": {
               "containers": [{"name": "c", "image": "i", "resources": {"limits": {"cpu": "0.5"}, "requests": {"cpu": "0.7", "memory": "0.0001"}}}]}}}}
    errs, _, stored = create(obj)
    assert stored["spec"]["template"]["spec"]["containers"][0]["resources"] == {"limits": {"cpu": "500m"}, "requests": {"cpu": "700m", "memory": "1m"}}
    assert [str(e) for e in errs] == ['spec.template.spec.containers[0].resources.requests: Invalid value: "700m": must be less than or equal to cpu limit of 500m']
