"""CRD update: functions declared only for stored expressions, rules and messageExpressions apart.

Transcribed cases: apiextensions-apiserver v0.36.3 ``pkg/apis/apiextensions/validation/validation_test.go``
``TestValidateCustomResourceDefinitionValidationRuleCompatibility`` (data in
tests/core/cel_upstream/crd_validation_cel_k8s.yaml ``rule_compatibility_cases``; harness in its README):
``validateCustomResourceDefinitionUpdate(ctx, resource, old, validationOptions{preexistingExpressions:
findPreexistingExpressions(&old.Spec), celEnvironmentSet: MustBaseEnvSet(1.998).Extend({1.999,
library.Test()})})``, errors matched as a multiset of type and path. ``validation.go``
``preexistingExpressions.RuleEnv`` / ``MessageExpressionEnv`` pick the stored-expressions environment for a rule
(messageExpression) that the old CRD had; ``compilation.go`` ``compileRule`` returns at the rule's error before
compiling its messageExpression. k8s.io/apiserver v0.36.3 ``pkg/cel/library/test.go``: ``library.Test()``.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from crdtool.core.kubecel.environment import base_env_set
from crdtool.core.crd.options import ValidationOptions
from crdtool.core.crd.update import find_preexisting_expressions, validate_custom_resource_definition_update
from tests.core.celgo.upstream import case_id, load

CASES = load("crd_validation_cel_k8s.yaml")["rule_compatibility_cases"]
ENV_SET = base_env_set(998, extensions=((999, "k8s.test"),))


def options(old: dict[str, Any]) -> ValidationOptions:
    """Exactly the two options the test sets; every other one false/empty (Go zero values)."""
    zero = {f: False for f, v in vars(ValidationOptions()).items() if isinstance(v, bool)}
    return ValidationOptions(**{**zero, "cel_env_set": ENV_SET,
                                "preexisting_expressions": find_preexisting_expressions(old["spec"])})


@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])
def test_rule_compatibility(case: dict[str, Any]) -> None:
    errs = validate_custom_resource_definition_update(case["resource"], case["old"], options(case["old"]))
    assert Counter((e.type, e.field) for e in errs) == Counter((e["type"], e["path"]) for e in case["expected_errors"])
    for e in errs:  # the function is unknown where the expression compiles in the new-expressions environment
        prefix = "compilation failed: " if e.field.endswith(".rule") else "messageExpression compilation failed: "
        assert e.detail.startswith(prefix + "ERROR: <input>:1:")
        assert "undeclared reference to 'test' (in container '')" in e.detail


def test_the_three_cases_are_upstreams() -> None:
    assert [c["name"] for c in CASES] == [
        "functions declared for storage mode allowed if expressions are unchanged from what is stored",
        "functions declared for storage mode not allowed if rule expression is changed",
        "functions declared for storage mode not allowed if message expression is changed",
    ]
    assert [len(c["expected_errors"]) for c in CASES] == [0, 7, 7]


def test_the_test_library_only_extends_stored_expressions_before_its_version() -> None:
    assert "k8s.test" in ENV_SET.stored.libraries and "k8s.test" not in ENV_SET.new.libraries
    assert "k8s.test" in base_env_set(999, extensions=((999, "k8s.test"),)).new.libraries
