"""Bad values that are internal apiextensions structs, as apimachinery v0.36's ErrorBody prints them.

``field.Error.ErrorBody`` (k8s.io/apimachinery v0.36.3 pkg/util/validation/field/errors.go) renders a
composite bad value with ``json.Marshal``; the internal types of ``pkg/apis/apiextensions`` have no json
tags, so fields appear under their Go names, in declaration order, zero values included. The expected
strings below are written from those two sources (struct layouts of types.go and types_jsonschema.go
at v0.36.3, encoding/json's rules: sorted map keys, HTML escaping, nil slice/pointer -> null).
"""

from __future__ import annotations

from crdtool.core.crd.internal_json import (
    internal_schema,
    internal_schema_or_array,
    internal_validation_rule,
    internal_versions,
)
from crdtool.core.crd.manifest import check_crd_manifest
from crdtool.core.errors import format_value

ZERO_VERSION_TAIL = '"Deprecated":false,"DeprecationWarning":null,"Schema":null,"Subresources":null,' \
    '"AdditionalPrinterColumns":null,"SelectableFields":null}'


def test_versions_without_a_storage_version() -> None:
    crd = {
        "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "foos.example.com"},
        "spec": {"group": "example.com", "scope": "Namespaced", "names": {"plural": "foos", "kind": "Foo"},
                 "versions": [
                     {"name": "v1", "served": True, "storage": False,
                      "schema": {"openAPIV3Schema": {"type": "object"}}},
                     {"name": "v2", "served": False, "storage": False,
                      "schema": {"openAPIV3Schema": {"type": "object"}}}]},
    }
    errors = [f.error for f in check_crd_manifest(crd).findings if f.error.field == "spec.versions"]
    # The identical per-version schemas moved to spec.validation in the internal CRD (v1 conversion),
    # so each version's Schema is null.
    assert [str(e) for e in errors] == [
        'spec.versions: Invalid value: [{"Name":"v1","Served":true,"Storage":false,' + ZERO_VERSION_TAIL
        + ',{"Name":"v2","Served":false,"Storage":false,' + ZERO_VERSION_TAIL
        + "]: must have exactly one version marked as storage version"
    ]


def test_version_with_subresources_columns_and_selectable_fields() -> None:
    [v] = internal_versions([{
        "name": "v1", "served": True, "storage": True, "deprecationWarning": "old",
        "subresources": {"status": {}, "scale": {"specReplicasPath": ".spec.r", "statusReplicasPath": ".status.r"}},
        "additionalPrinterColumns": [{"name": "Age", "type": "date", "JSONPath": ".metadata.creationTimestamp"}],
        "selectableFields": [{"jsonPath": ".spec.x"}],
    }]) or [None]
    assert format_value(v) == (
        '{"Name":"v1","Served":true,"Storage":true,"Deprecated":false,"DeprecationWarning":"old","Schema":null,'
        '"Subresources":{"Status":{},"Scale":{"SpecReplicasPath":".spec.r","StatusReplicasPath":".status.r",'
        '"LabelSelectorPath":null}},"AdditionalPrinterColumns":[{"Name":"Age","Type":"date","Format":"",'
        '"Description":"","Priority":0,"JSONPath":".metadata.creationTimestamp"}],'
        '"SelectableFields":[{"JSONPath":".spec.x"}]}'
    )


def test_schema_field_order_and_or_types() -> None:
    s = internal_schema({
        "type": "object", "nullable": True, "maximum": 5, "required": ["b"],
        "properties": {"b": {"type": "string"}, "a": {"type": "integer", "default": 1}},
        "additionalProperties": False, "items": [{"type": "string"}],
        "x-kubernetes-validations": [{"rule": "a < b"}],
    })
    text = format_value(s)
    # Nullable right after Type (internal order, unlike the v1 JSON order); float64 5 written as 5
    assert text.startswith('{"ID":"","Schema":"","Ref":null,"Description":"","Type":"object","Nullable":true,'
                           '"Format":"","Title":"","Default":null,"Maximum":5,"ExclusiveMaximum":false,')
    # map keys sorted; an OrBool and an OrArray are plain structs in the internal package
    assert '"Properties":{"a":{"ID":"","Schema":"","Ref":null,"Description":"","Type":"integer"' in text
    assert '"AdditionalProperties":{"Allows":false,"Schema":null}' in text
    assert '"Items":{"Schema":null,"JSONSchemas":[{"ID":"",' in text
    assert text.endswith('"XValidations":[{"Rule":"a \\u003c b","Message":"","MessageExpression":"","Reason":null,'
                         '"FieldPath":"","OptionalOldSelf":null}]}')
    assert format_value(internal_schema_or_array(None)) == "null"


def test_validation_rule() -> None:
    rule = {"rule": "self.a > 0 && true", "reason": "FieldValueForbidden", "optionalOldSelf": False}
    assert format_value(internal_validation_rule(rule)) == (
        '{"Rule":"self.a \\u003e 0 \\u0026\\u0026 true","Message":"","MessageExpression":"",'
        '"Reason":"FieldValueForbidden","FieldPath":"","OptionalOldSelf":false}'
    )
