"""PodDisruptionBudget create, cases from kubernetes/kubernetes ``pkg/apis/policy/validation/validation_test.go``
(openshift/microshift ``release-4.23`` = 1.36): ``TestValidatePodDisruptionBudgetSpec``,
``TestValidateMinAvailablePodDisruptionBudgetSpec``, ``TestValidateMinAvailablePodAndMaxUnavailableDisruptionBudgetSpec``,
``TestValidateUnhealthyPodEvictionPolicyDisruptionBudgetSpec``; and the bad value of "cannot be both set": the
internal ``policy.PodDisruptionBudgetSpec`` (Go field names in JSON from 1.34)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.core.apis._create import create


def pdb(**spec: Any) -> dict[str, Any]:
    return {"apiVersion": "policy/v1", "kind": "PodDisruptionBudget", "metadata": {"name": "p", "namespace": "d"}, "spec": spec}


@pytest.mark.parametrize(("spec", "valid"), [
    *[({"minAvailable": v}, True) for v in ("0%", "1%", "100%", 0, 1, 100)],
    *[({"minAvailable": v}, False) for v in ("1.1%", "nope", "-1%", "101%", -1)],
    ({"minAvailable": "0%", "maxUnavailable": "10%"}, False),
    ({"minAvailable": "10%", "maxUnavailable": 1}, False),
    ({"minAvailable": "10%"}, True),
    ({"minAvailable": "10%", "unhealthyPodEvictionPolicy": "AlwaysAllow"}, True),
    ({"minAvailable": "10%", "unhealthyPodEvictionPolicy": ""}, False),
    ({"minAvailable": "10%", "unhealthyPodEvictionPolicy": "Invalid"}, False),
])
def test_pdb_spec_1_36(spec: dict[str, Any], valid: bool) -> None:
    assert (create(pdb(**spec))[0] == []) is valid


def test_both_set_bad_value_is_the_internal_spec() -> None:
    errs = create(pdb(minAvailable=1, maxUnavailable="50%", selector={"matchLabels": {"b": "1", "a": "2"}}))[0]
    assert [str(e) for e in errs] == [
        'spec: Invalid value: {"MinAvailable":1,"Selector":{"matchLabels":{"a":"2","b":"1"}},"MaxUnavailable":"50%","UnhealthyPodEvictionPolicy":null}: '
        "minAvailable and maxUnavailable cannot be both set"]
