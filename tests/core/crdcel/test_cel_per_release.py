"""Custom-resource CEL validation per release (tests/core/cel_upstream/eval_k8s_validation_per_release.yaml).

``validate_cel(obj, schema, Path("root"), old_obj=..., release=<minor>)`` as upstream's ``NewValidator(&s, false,
PerCallLimit).Validate(ctx, field.NewPath("root"), &s, obj, oldObj, RuntimeCELCostBudget)``: the errors, as strings,
for every release the case lists.
"""

from __future__ import annotations

from typing import Any

import pytest

from crdtool.core.crdcel.validation import validate_cel
from crdtool.core.errors import Path
from crdtool.core.schema.structural import new_structural
from tests.core.celgo.upstream import load

CASES = load("eval_k8s_validation_per_release.yaml")["cases"]


def _params() -> list[Any]:
    return [pytest.param(c, m, e, id=f"1.{m}:{c['name']}") for c in CASES for e in c["expect"] for m in e["releases"]]


@pytest.mark.parametrize(("case", "minor", "expect"), _params())
def test_validation_per_release(case: dict[str, Any], minor: int, expect: dict[str, Any]) -> None:
    res = validate_cel(case["obj"], new_structural(case["schema"]), Path("root"), old_obj=case.get("oldObj"),
                       is_resource_root=False, release=minor)
    assert [str(e) for e in res.errors] == expect["errors"]
