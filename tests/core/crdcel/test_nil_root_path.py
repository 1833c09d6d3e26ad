"""CEL rules on the root of a custom resource report at upstream's nil path, ``<nil>``.

Upstream (apiextensions-apiserver v0.36.3): ``pkg/registry/customresource/strategy.go``
``customResourceStrategy.Validate`` and ``ValidateUpdate`` (and ``status_strategy.go``
``ValidateUpdate``) call ``celValidator.Validate(ctx, nil, ...)``; ``pkg/apiserver/schema/cel/validation.go``
``validateExpressions`` reports a failing rule at ``fldPath`` (``currentFldPath.Child(fieldPath)`` when the
rule has a ``fieldPath``) with ``fieldErrorForReason``; apimachinery v0.36.3
``pkg/util/validation/field/path.go``: ``(*Path)(nil).String()`` is ``"<nil>"`` and ``nil.Child("spec")``
is ``"spec"``. kubectl-validate ``testcases/manifests/error_cel_basic_multiple.yaml`` records the
apiserver's answer for a root rule: ``"field": "<nil>"``, ``"message": "Invalid value: Other must be a
multiple of value"``. CEL validation of defaults (``pkg/apiserver/schema/defaulting/validation.go``) passes
``pth.Child("default")``, a non-nil path, and is unaffected.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from crdtool.core.customresource import validate_object
from crdtool.core.customresource import validate_object_update
from crdtool.core.errors import OMIT
from crdtool.core.crdcel.validation import validate_cel
from crdtool.core.schema.structural import new_structural

RULES: list[dict[str, Any]] = [
    # error_cel_basic_multiple.yaml's rule
    {"message": "Other must be a multiple of value", "rule": "!has(self.other_value) || self.other_value % self.value == 0"},
    {"rule": "self.value < 3", "messageExpression": "'value is ' + string(self.value)"},
    {"rule": "self.value < 4", "messageExpression": "'forbidden: ' + string(self.value)", "reason": "FieldValueForbidden"},
    {"rule": "self.value < 5", "message": "needs less", "reason": "FieldValueRequired"},
    {"rule": "self.value < 6", "reason": "FieldValueDuplicate"},
    {"rule": "self.value < 7", "fieldPath": ".value", "reason": "FieldValueInvalid"},
]

# (type, field, detail, bad value) in rule order; a rule on an object omits its value (field.OmitValueType)
EXPECTED = [
    ("FieldValueInvalid", "<nil>", "Other must be a multiple of value", OMIT),
    ("FieldValueInvalid", "<nil>", "value is 9", OMIT),
    ("FieldValueForbidden", "<nil>", "forbidden: 9", ""),
    ("FieldValueRequired", "<nil>", "needs less", ""),
    ("FieldValueDuplicate", "<nil>", "", OMIT),
    ("FieldValueInvalid", "value", "failed rule: self.value < 7", OMIT),
]
MESSAGES = [
    "<nil>: Invalid value: Other must be a multiple of value",
    "<nil>: Invalid value: value is 9",
    "<nil>: Forbidden: forbidden: 9",
    "<nil>: Required value: needs less",
    "<nil>: Duplicate value",
    "value: Invalid value: failed rule: self.value < 7",
]


def crd(rules: list[dict[str, Any]] = RULES) -> dict[str, Any]:
    return {
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "celbasics.stable.example.com"},
        "spec": {
            "group": "stable.example.com",
            "scope": "Namespaced",
            "names": {"plural": "celbasics", "singular": "celbasic", "kind": "CELBasic", "listKind": "CELBasicList"},
            "versions": [{"name": "v1", "served": True, "storage": True, "schema": {"openAPIV3Schema": {
                "type": "object",
                "x-kubernetes-validations": rules,
                "properties": {"value": {"type": "integer"}, "other_value": {"type": "integer"}},
            }}}],
        },
    }


def obj(value: int = 9, other: int = 10, rv: str | None = None) -> dict[str, Any]:
    meta: dict[str, Any] = {"name": "my-basic", "namespace": "default"}
    if rv is not None:
        meta["resourceVersion"] = rv
    return {"apiVersion": "stable.example.com/v1", "kind": "CELBasic", "metadata": meta, "value": value, "other_value": other}


def triples(errors: list[Any]) -> list[tuple[str, str, str, Any]]:
    return [(e.type, e.field, e.detail, e.bad_value) for e in errors]


def test_create_reports_root_rules_at_nil() -> None:
    errors = validate_object(obj(), crd())
    assert triples(errors) == EXPECTED
    assert [str(e) for e in errors] == MESSAGES
    assert errors[0].to_dict()["field"] == "<nil>"


def test_update_reports_root_rules_at_nil() -> None:
    errors = validate_object_update(obj(rv="1"), obj(value=1, other=1, rv="1"), crd())
    assert triples(errors) == EXPECTED


def test_kubectl_validate_error_cel_basic_multiple() -> None:
    manifest = {"apiVersion": "stable.example.com/v1", "kind": "CELBasic", "metadata": {"name": "my-basic"},
                "value": 3, "other_value": 8}
    [error] = validate_object(manifest, crd(RULES[:1]))
    assert error.to_dict() == {"type": "FieldValueInvalid", "field": "<nil>", "detail": "Other must be a multiple of value",
                               "badValue": None, "message": "<nil>: Invalid value: Other must be a multiple of value"}


@pytest.mark.parametrize(("fld_path", "root", "child"), [(None, "<nil>", "value"), ("root", "root", "root.value")])
def test_validate_cel_nil_path_vs_a_named_path(fld_path: str | None, root: str, child: str) -> None:
    """``Validate(ctx, nil, ...)`` vs ``Validate(ctx, field.NewPath("root"), ...)`` (validation_test.go's root)."""
    schema = copy.deepcopy(crd()["spec"]["versions"][0]["schema"]["openAPIV3Schema"])
    schema["properties"]["value"]["x-kubernetes-validations"] = [{"rule": "self < 0"}]
    result = validate_cel({"value": 9, "other_value": 10}, new_structural(schema), fld_path, is_resource_root=False)
    fields = [e.field for e in result.errors]
    assert fields == [root] * 5 + [child, child]


def test_cli_json_field_is_nil(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from crdtool.cli.app import app

    (tmp_path / "crd.json").write_text(json.dumps(crd(RULES[:1])))
    (tmp_path / "cr.yaml").write_text(
        "apiVersion: stable.example.com/v1\nkind: CELBasic\nmetadata:\n  name: my-basic\nvalue: 3\nother_value: 8 # error\n"
    )
    result = CliRunner().invoke(app, ["validate", "--output", "json", "--crd", str(tmp_path / "crd.json"), str(tmp_path / "cr.yaml")])
    assert result.exit_code == 1, result.output
    [doc] = json.loads(result.stdout)["documents"]
    [error] = doc["errors"]
    assert (error["type"], error["field"], error["detail"]) == ("FieldValueInvalid", "<nil>", "Other must be a multiple of value")
    assert (error["line"], error["column"]) == (1, 1)  # the object itself
