"""messageExpression costs in the CRD-wide total, and the cost of ``join`` on a computed list.

Upstream, apiextensions-apiserver v0.36.3:

* ``pkg/apis/apiextensions/validation/validation.go`` ``ValidateCustomResourceDefinitionOpenAPISchema``: per rule,
  the rule's cost (times the cardinality) is checked against ``StaticEstimatedCostLimit`` and observed in the
  total, then, when the messageExpression compiled, ``cr.MessageExpressionMaxCost`` (not multiplied) is checked
  (``estimated messageExpression cost exceeds budget ...``) and observed (``TotalCost.ObserveExpressionCost``,
  ``cel_validation.go``: the four most expensive over 1% of the limit); ``validateCustomResourceDefinitionValidation``
  then, when the total exceeds ``StaticEstimatedCRDCostLimit``, appends ``contributed to estimated rule cost
  total exceeding cost limit for entire OpenAPIv3 schema`` at each most expensive path, then ``x-kubernetes-
  validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of ...`` at
  ``openAPIV3Schema``. ``validation_test.go`` ``TestValidateCustomResourceDefinitionValidation`` "x-kubernetes-
  validations rule invalidated by messageExpression exceeding per-CRD estimated cost limit" expects these three.
* k8s.io/apiserver v0.36.3 ``pkg/cel/library/cost.go`` ``EstimateCallCost`` ``join``: the element size comes
  from ``listElementNode``, which gives the element a path only when the list has one (``nodePath != nil``);
  cel-go v0.26.0 ``checker/cost.go`` gives a comprehension (``map``) no path (``exprPaths[id][:]`` of a missing
  entry is nil), so the element of ``self.tags.map(t, t + t)`` has no size estimate
  (``compilation.go`` ``sizeEstimator.EstimateSize`` returns nil for an empty path): ``MaxUint64``, bounded list
  or not.
"""

from __future__ import annotations

from typing import Any

import pytest

from crdtool.core.crd.manifest import check_crd_manifest

MSG = "self.tags.map(t, t + t).join(',')"
BASE = "spec.versions[0].schema.openAPIV3Schema"
UPSTREAM = "spec.validation.openAPIV3Schema"
HINT = ("(try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings "
        "are declared)")
PER_EXPRESSION = f"estimated messageExpression cost exceeds budget by factor of more than 100x {HINT}"
CONTRIBUTED = "contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema"
TOTAL = f"x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of more than 100x {HINT}"


def crd(tags: dict[str, Any], rules: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "widgets.example.com"},
        "spec": {
            "group": "example.com",
            "scope": "Namespaced",
            "names": {"plural": "widgets", "singular": "widget", "kind": "Widget", "listKind": "WidgetList"},
            "versions": [{"name": "v1", "served": True, "storage": True, "schema": {"openAPIV3Schema": {
                "type": "object",
                "properties": {"spec": {"type": "object", "x-kubernetes-validations": rules, "properties": {"tags": tags}}},
            }}}],
        },
    }


def findings(manifest: dict[str, Any]) -> list[tuple[str, str, str | None, str]]:
    return [(f.error.type, f.error.field, f.upstream_field, f.error.detail) for f in check_crd_manifest(manifest).findings]


def msg_path(i: int, base: str = BASE) -> str:
    return f"{base}.properties[spec].x-kubernetes-validations[{i}].messageExpression"


TAGS = {
    "unbounded": {"type": "array", "items": {"type": "string"}},
    "bounded": {"type": "array", "maxItems": 10, "items": {"type": "string", "maxLength": 10}},
    "bounded items, unbounded strings": {"type": "array", "maxItems": 10, "items": {"type": "string"}},
}


@pytest.mark.parametrize("tags", TAGS.values(), ids=TAGS.keys())
def test_map_join_message_expression_exceeds_both_limits(tags: dict[str, Any]) -> None:
    got = findings(crd(tags, [{"rule": "true", "messageExpression": MSG}]))
    assert got == [
        ("FieldValueForbidden", msg_path(0), msg_path(0, UPSTREAM), PER_EXPRESSION),
        ("FieldValueForbidden", msg_path(0), msg_path(0, UPSTREAM), CONTRIBUTED),
        ("FieldValueForbidden", BASE, UPSTREAM, TOTAL),
    ]


def test_the_four_most_expensive_contribute_in_cost_order() -> None:
    rules = [{"rule": "true", "messageExpression": MSG} for _ in range(5)]
    got = findings(crd(TAGS["bounded"], rules))
    assert got == (
        [("FieldValueForbidden", msg_path(i), msg_path(i, UPSTREAM), PER_EXPRESSION) for i in range(5)]
        # equal costs: sort.Slice on at most five entries is an insertion sort, stable
        + [("FieldValueForbidden", msg_path(i), msg_path(i, UPSTREAM), CONTRIBUTED) for i in range(4)]
        + [("FieldValueForbidden", BASE, UPSTREAM, TOTAL)]
    )


def test_join_of_a_schema_list_uses_its_element_sizes() -> None:
    # the list has a path (self.tags): listElementNode finds maxLength at self.tags.@items, a small cost
    assert findings(crd(TAGS["bounded"], [{"rule": "true", "messageExpression": "self.tags.join(',')"}])) == []


def test_a_rule_with_a_compile_error_has_no_message_expression_cost() -> None:
    # compileRule returns before compiling the messageExpression: only the rule's error
    got = findings(crd(TAGS["bounded"], [{"rule": "self.nope", "messageExpression": MSG}]))
    assert [(t, f) for t, f, _, _ in got] == [
        ("FieldValueInvalid", f"{BASE}.properties[spec].x-kubernetes-validations[0].rule")
    ]
