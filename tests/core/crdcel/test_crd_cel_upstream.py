"""apiextensions-apiserver pkg/apis/apiextensions/validation/validation_test.go: the CEL cases.

Data: tests/core/cel_upstream/crd_validation_cel_k8s.yaml (harnesses in its
README): ``TestValidateCustomResourceDefinitionValidation`` and
``TestValidateCustomResourceDefinition`` cases involving
``x-kubernetes-validations`` (expected errors as a multiset of type and
field path, as upstream matches them), ``TestValidateFieldPath``,
``TestCostInfo`` (cardinality), ``TestPerCRDEstimatedCost`` and
``TestCelContext``. The update cases (``TestValidateCustomResourceDefinitionUpdate``,
``...ValidationRuleCompatibility``) belong to CRD update validation and are
run by its tests.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import pytest

from crdtool.core.kubecel.environment import base_env_set
from crdtool.core.crd.cel_validation import CelSchemaContext, TotalCost
from crdtool.core.crd.options import ValidationOptions
from crdtool.core.crd.schema_validation import (
    valid_field_path,
    validate_custom_resource_definition_open_api_schema,
    validate_custom_resource_definition_validation,
)
from crdtool.core.crd.validation import validate_custom_resource_definition
from crdtool.core.errors import Path
from crdtool.core.schema.structural import new_structural
from tests.core.celgo.upstream import case_id, load

DOC = load("crd_validation_cel_k8s.yaml")


def _snake(go_name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", go_name).lower()


_OPTION_FIELDS = {f for f in ValidationOptions.__dataclass_fields__}


def _options(opts: dict[str, Any]) -> ValidationOptions:
    """``validationOptions`` with only the fields the case sets (all others false/empty)."""
    kwargs: dict[str, Any] = {f: False for f in _OPTION_FIELDS if isinstance(getattr(ValidationOptions(), f), bool)}
    for key, value in opts.items():
        if key == "celEnvironmentSet":
            version = value["compatibility_version"]
            minor = 35 if version == "DefaultCompatibilityVersion()" else int(version.split(".")[1])
            kwargs["cel_env_set"] = base_env_set(minor)
            continue
        name = _snake(key)
        assert name in _OPTION_FIELDS, key
        kwargs[name] = value
    return ValidationOptions(**kwargs)


def _multiset(errs: list[Any]) -> Counter[tuple[str, str]]:
    return Counter((e.type, e.field) for e in errs)


SCHEMA_CASES = DOC["schema_validation_cases"]


@pytest.mark.parametrize("case", SCHEMA_CASES, ids=[case_id(c) for c in SCHEMA_CASES])
def test_validate_custom_resource_definition_validation(case: dict[str, Any]) -> None:
    errs = validate_custom_resource_definition_validation(
        case["input"], case["status_enabled"], _options(case["opts"]), Path("spec.validation")
    )
    want = Counter((e["type"], e["path"]) for e in case["expected_errors"])
    assert _multiset(errs) == want, [str(e) for e in errs]


CREATE_CASES = DOC["crd_create_cases"]


@pytest.mark.parametrize("case", CREATE_CASES, ids=[case_id(c) for c in CREATE_CASES])
def test_validate_custom_resource_definition(case: dict[str, Any]) -> None:
    errs = validate_custom_resource_definition(case["resource"])
    want = Counter((e["type"], e["path"]) for e in case["expected_errors"])
    assert _multiset(errs) == want, [str(e) for e in errs]


FIELD_PATH_CASES = DOC["field_path_cases"]


@pytest.mark.parametrize("case", FIELD_PATH_CASES, ids=[case_id(c) for c in FIELD_PATH_CASES])
def test_valid_field_path(case: dict[str, Any]) -> None:
    ss = new_structural(DOC["field_path_schema"])
    _, _, err = valid_field_path(case["field_path"], ss)
    if case["expected_error_contains"] is None:
        assert err is None
    else:
        assert err is not None and case["expected_error_contains"] in err


COST_INFO_CASES = DOC["cost_info_cases"]


@pytest.mark.parametrize("case", COST_INFO_CASES, ids=[case_id(c) for c in COST_INFO_CASES])
def test_cost_info(case: dict[str, Any]) -> None:
    schemas = [*case["schemas"], {"type": "string"}]
    ctx = CelSchemaContext.root(schemas[0], None)
    for s in schemas[1:]:
        ctx = ctx.child(s, None, ())
    assert ctx.max_cardinality == case["expected_max_cardinality"]


PER_CRD_CASES = DOC["per_crd_estimated_cost_cases"]


@pytest.mark.parametrize("case", PER_CRD_CASES, ids=[case_id(c) for c in PER_CRD_CASES])
def test_per_crd_estimated_cost(case: dict[str, Any]) -> None:
    total = TotalCost()
    for cost in case["costs"]:
        total.observe(Path(""), cost)
    assert [c for _, c in total.most_expensive] == case["expected_most_expensive"]
    assert total.total == case["expected_total"]


def test_cel_context_type_info_is_derived_once() -> None:
    """TestCelContext: the root's CEL type is converted once and reused for nested rules."""
    from crdtool.core.kubecel import decltype

    [case] = DOC["cel_context_cases"]
    calls = []
    real = decltype.schema_decl_type  # imported from there by crd/cel_validation.py when a schema has rules

    def counting(*args: Any) -> Any:
        calls.append(args)
        return real(*args)

    decltype.schema_decl_type = counting  # type: ignore[assignment]
    schema = case["schema"]
    ss = new_structural(schema)
    opts = _options({"celEnvironmentSet": {"compatibility_version": "DefaultCompatibilityVersion()"}})
    try:
        schema_errs, cel_errs = validate_custom_resource_definition_open_api_schema(
            schema, Path("openAPIV3Schema"), opts, root_structural=ss, cel_context=CelSchemaContext.root(schema, ss)
        )
        errs = schema_errs + cel_errs
    finally:
        decltype.schema_decl_type = real  # type: ignore[assignment]
    assert errs == case["expected_errors"] == []
    assert len(calls) == case["expected_conversion_count"] == 1
