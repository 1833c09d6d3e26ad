"""CRD field errors in each release's text: apimachinery ``pkg/util/validation/field/errors.go`` ``ErrorBody``.

@v0.33.0 a struct bad value prints with ``%#v`` (the internal ``apiextensions.ValidationRule``, nil pointers as
``(*T)(nil)``); @v0.34.0 with ``json.Marshal`` (its fields have no json tags: ``{"Rule":...}``).
"""

from __future__ import annotations

from crdtool import check_crd_manifest
from crdtool.core.crd.internal_json import internal_validation_rule
from crdtool.core.errors import UNREPRODUCIBLE_GO_VALUE, invalid

CRD = {
    "apiVersion": "apiextensions.k8s.io/v1",
    "kind": "CustomResourceDefinition",
    "metadata": {"name": "widgets.example.com"},
    "spec": {
        "group": "example.com",
        "names": {"kind": "Widget", "plural": "widgets"},
        "scope": "Namespaced",
        "versions": [{
            "name": "v1", "served": True, "storage": True,
            "schema": {"openAPIV3Schema": {
                "type": "object",
                "x-kubernetes-validations": [{"rule": "self.nope > 0", "message": "m"}],
            }},
        }],
    },
}


def message(version: str) -> str:
    (finding,) = check_crd_manifest(CRD, kubernetes_version=version).findings
    return str(finding.error)


def test_a_rule_prints_as_the_go_struct_before_1_34() -> None:
    assert message("1.33").startswith(
        'spec.versions[0].schema.openAPIV3Schema.x-kubernetes-validations[0].rule: Invalid value: '
        'apiextensions.ValidationRule{Rule:"self.nope > 0", Message:"m", MessageExpression:"", '
        'Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:"", OptionalOldSelf:(*bool)(nil)}: '
        "compilation failed: ERROR: <input>:1:5: undefined field 'nope'"
    )


def test_a_rule_prints_as_json_from_1_34() -> None:
    assert message("1.34").startswith(
        'spec.versions[0].schema.openAPIV3Schema.x-kubernetes-validations[0].rule: Invalid value: '
        '{"Rule":"self.nope \\u003e 0","Message":"m","MessageExpression":"","Reason":null,"FieldPath":"",'
        '"OptionalOldSelf":null}: compilation failed:'
    )
    assert message("1.37") == message("1.34")


def test_a_set_pointer_field_cannot_be_reproduced() -> None:
    rule = internal_validation_rule({"rule": "self.x > 0", "optionalOldSelf": True})
    assert UNREPRODUCIBLE_GO_VALUE in str(invalid("x", rule, "d").at_release(33))
