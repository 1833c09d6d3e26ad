"""``TestValidateJob`` error table of kubernetes/kubernetes ``pkg/apis/batch/validation/validation_test.go``
(openshift/microshift ``release-4.23`` = 1.36), through the create path (v1 defaults, ``PrepareForCreate``'s generated
selector and labels): as upstream compares, the key is the field of the first error and a text its ``Error()``
contains. The template is upstream's ``podtest.MakePodSpec`` (one container ``ctr``, image ``image``)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.core.apis._create import create

NEVER, ON_FAILURE = "Never", "OnFailure"


def job(restart: str = ON_FAILURE, **spec: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"template": {"spec": {"restartPolicy": restart, "containers": [{"name": "ctr", "image": "image"}]}}}
    body.update(spec)
    return {"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "myjob", "namespace": "default"}, "spec": body}


def pfp(*rules: dict[str, Any]) -> dict[str, Any]:
    return {"podFailurePolicy": {"rules": list(rules)}}


def exit_codes(values: list[int], operator: str = "In", action: str = "FailJob", **more: Any) -> dict[str, Any]:
    return {"action": action, "onExitCodes": {"operator": operator, "values": values, **more}}


INDEXED = {"completionMode": "Indexed", "completions": 5}
DT = {"type": "DisruptionTarget", "status": "True"}

CASES: list[tuple[str, dict[str, Any]]] = [
    ("spec.managedBy: Too long: may not be more than 63 bytes", job(managedBy="example.com/" + "x" * 60)),
    ('spec.managedBy: Invalid value: "invalid custom controller name": must be a domain-prefixed path (such as "acme.io/foo")',
     job(managedBy="invalid custom controller name")),
    ('spec.successPolicy: Invalid value: {"Rules":[]}: requires indexed completion mode', job(NEVER, successPolicy={"rules": []})),
    ("spec.successPolicy.rules: Required value: at least one rules must be specified when the successPolicy is specified", job(NEVER, **INDEXED, successPolicy={})),
    ("spec.successPolicy.rules[0]: Required value: at least one of succeededCount or succeededIndexes must be specified",
     job(NEVER, **INDEXED, successPolicy={"rules": [{}]})),
    ('spec.successPolicy.rules[0].succeededIndexes: Invalid value: "invalid-format": error parsing succeededIndexes: cannot convert string to integer for index: "invalid"',
     job(NEVER, **INDEXED, successPolicy={"rules": [{"succeededIndexes": "invalid-format"}]})),
    ("spec.successPolicy.rules[0].succeededIndexes: Too long: may not be more than 65536 bytes",
     job(NEVER, **INDEXED, successPolicy={"rules": [{"succeededIndexes": "1" * 65537}]})),
    ("spec.successPolicy.rules[0].succeededCount: must be greater than or equal to 0", job(NEVER, **INDEXED, successPolicy={"rules": [{"succeededCount": -1}]})),
    ("spec.successPolicy.rules[0].succeededCount: Invalid value: 6: must be less than or equal to 5 (the number of specified completions)",
     job(NEVER, **INDEXED, successPolicy={"rules": [{"succeededCount": 6}]})),
    ("spec.successPolicy.rules[0].succeededCount: Invalid value: 4: must be less than or equal to 3 (the number of indexes in the specified succeededIndexes field)",
     job(NEVER, **INDEXED, successPolicy={"rules": [{"succeededCount": 4, "succeededIndexes": "0-2"}]})),
    ("spec.successPolicy.rules: Too many: 21: must have at most 20 items", job(NEVER, **INDEXED, successPolicy={"rules": [{"succeededCount": 5}] * 21})),
    ("spec.podFailurePolicy.rules[0]: Invalid value: specifying one of OnExitCodes and OnPodConditions is required", job(NEVER, **pfp({"action": "FailJob"}))),
    ("spec.podFailurePolicy.rules[0].onExitCodes.values[1]: Duplicate value: 11", job(NEVER, **pfp(exit_codes([11, 11])))),
    ("spec.podFailurePolicy.rules[0].onExitCodes.values: Too many: 256: must have at most 255 items", job(NEVER, **pfp(exit_codes(list(range(256)))))),
    ("spec.podFailurePolicy.rules: Too many: 21: must have at most 20 items", job(NEVER, **pfp(*[exit_codes([i + 1]) for i in range(21)]))),
    ("spec.podFailurePolicy.rules[0].onPodConditions: Too many: 21: must have at most 20 items",
     job(NEVER, **pfp({"action": "FailJob", "onPodConditions": [{"type": f"CustomType_{i}", "status": "True"} for i in range(21)]}))),
    ("spec.podFailurePolicy.rules[0].onExitCodes.values[2]: Duplicate value: 13", job(NEVER, **pfp(exit_codes([12, 13, 13, 13])))),
    ("spec.podFailurePolicy.rules[0].onExitCodes.values: Invalid value: [19,11]: must be ordered", job(NEVER, **pfp(exit_codes([19, 11])))),
    ("spec.podFailurePolicy.rules[0].onExitCodes.values: Invalid value: []: at least one value is required", job(NEVER, **pfp(exit_codes([])))),
    ('spec.podFailurePolicy.rules[0].action: Required value: valid values: ["Count" "FailIndex" "FailJob" "Ignore"]', job(NEVER, **pfp(exit_codes([1, 2, 3], action="")))),
    ('spec.podFailurePolicy.rules[0].onExitCodes.operator: Required value: valid values: ["In" "NotIn"]', job(NEVER, **pfp(exit_codes([1, 2, 3], operator="")))),
    ("spec.podFailurePolicy.rules[0]: Invalid value: specifying both OnExitCodes and OnPodConditions is not supported",
     job(NEVER, **pfp({**exit_codes([1, 2, 3], containerName="ctr"), "onPodConditions": [DT]}))),
    ("spec.podFailurePolicy.rules[0].onExitCodes.values[1]: Invalid value: 0: must not be 0 for the In operator", job(NEVER, **pfp(exit_codes([1, 0, 2], action="Ignore")))),
    ('spec.podFailurePolicy.rules[1].onExitCodes.containerName: Invalid value: "xyz": must be one of the container or initContainer names in the pod template',
     job(NEVER, **pfp(exit_codes([1, 2, 3], action="Ignore", containerName="ctr"), exit_codes([5, 6, 7], containerName="xyz")))),
    ('spec.podFailurePolicy.rules[0].action: Unsupported value: "UnknownAction": supported values: "Count", "FailIndex", "FailJob", "Ignore"',
     job(NEVER, **pfp(exit_codes([1, 2, 3], action="UnknownAction", containerName="ctr")))),
    ('spec.podFailurePolicy.rules[0].onExitCodes.operator: Unsupported value: "UnknownOperator": supported values: "In", "NotIn"',
     job(NEVER, **pfp(exit_codes([1, 2, 3], operator="UnknownOperator", action="Ignore")))),
    # v1 defaults onPodConditions[].status to True (SetDefaults_Job), so upstream's "status: Required" row has no v1 form
    ('spec.podFailurePolicy.rules[0].onPodConditions[0].status: Unsupported value: "UnknownStatus": supported values: "False", "True", "Unknown"',
     job(NEVER, **pfp({"action": "Ignore", "onPodConditions": [{"type": "DisruptionTarget", "status": "UnknownStatus"}]}))),
    ('spec.podFailurePolicy.rules[0].onPodConditions[0].type: Invalid value: "": name part must be non-empty',
     job(NEVER, **pfp({"action": "Ignore", "onPodConditions": [{"type": "", "status": "True"}]}))),
    ("spec.podFailurePolicy.rules[0].onPodConditions[0].type: Invalid value: \"Invalid Condition Type\": name part must consist of alphanumeric characters",
     job(NEVER, **pfp({"action": "Ignore", "onPodConditions": [{"type": "Invalid Condition Type", "status": "True"}]}))),
    ('spec.podReplacementPolicy: Unsupported value: "TerminatingOrFailed": supported values: "Failed"',
     job(NEVER, podReplacementPolicy="TerminatingOrFailed", **pfp({"action": "Ignore", "onPodConditions": [DT]}))),
    ('spec.podReplacementPolicy: Unsupported value: "": supported values: "Failed", "TerminatingOrFailed"', job(NEVER, podReplacementPolicy="")),
    ('spec.template.spec.restartPolicy: Invalid value: "OnFailure": only "Never" is supported when podFailurePolicy is specified', job(ON_FAILURE, **pfp())),
    ("spec.parallelism: must be greater than or equal to 0", job(parallelism=-1)),
    ("spec.backoffLimit: must be greater than or equal to 0", job(backoffLimit=-1)),
    ("spec.backoffLimitPerIndex: Invalid value: 1: requires indexed completion mode", job(backoffLimitPerIndex=1)),
    ("spec.backoffLimitPerIndex: must be greater than or equal to 0", job(backoffLimitPerIndex=-1, completionMode="Indexed", completions=1)),
    ("spec.maxFailedIndexes: Invalid value: 11: must be less than or equal to completions",
     job(completions=10, maxFailedIndexes=11, backoffLimitPerIndex=1, completionMode="Indexed")),
    ("spec.maxFailedIndexes: Required value: must be specified when completions is above 100000",
     job(completions=100_001, backoffLimitPerIndex=1, completionMode="Indexed")),
    ("spec.parallelism: Invalid value: 50000: must be less than or equal to 10000 when completions are above 100000 and used with backoff limit per index",
     job(completions=100_001, parallelism=50_000, backoffLimitPerIndex=1, maxFailedIndexes=1, completionMode="Indexed")),
    ("spec.maxFailedIndexes: Invalid value: 100001: must be less than or equal to 100000",
     job(completions=100_001, backoffLimitPerIndex=1, maxFailedIndexes=100_001, completionMode="Indexed")),
    ("spec.maxFailedIndexes: Invalid value: 50000: must be less than or equal to 10000 when completions are above 100000 and used with backoff limit per index",
     job(completions=100_001, backoffLimitPerIndex=1, maxFailedIndexes=50_000, completionMode="Indexed")),
    ("spec.maxFailedIndexes: must be greater than or equal to 0", job(backoffLimitPerIndex=1, maxFailedIndexes=-1, completionMode="Indexed", completions=1)),
    ("spec.backoffLimitPerIndex: Required value: when maxFailedIndexes is specified", job(maxFailedIndexes=1, completionMode="Indexed", completions=1)),
    ("spec.completions: must be greater than or equal to 0", job(completions=-1)),
    ("spec.activeDeadlineSeconds: must be greater than or equal to 0", job(activeDeadlineSeconds=-1)),
    ('spec.template.metadata.labels: Invalid value: {"y":"z"}: `selector` does not match template `labels`',
     job(selector={"matchLabels": {"a": "b"}}, manualSelector=True, template={"metadata": {"labels": {"y": "z"}}, "spec": {
         "restartPolicy": ON_FAILURE, "containers": [{"name": "ctr", "image": "image"}]}})),
    ("spec.template.spec.restartPolicy: Required value", job("Always")),
    ("spec.template.spec.restartPolicy: Unsupported value", job("Invalid")),
    ("spec.ttlSecondsAfterFinished: must be greater than or equal to 0", job(ttlSecondsAfterFinished=-1)),
    # SetDefaults_Job sets completions only when parallelism is unset too
    ("spec.completions: Required value: when completion mode is Indexed", job(completionMode="Indexed", parallelism=1)),
    ("spec.parallelism: must be less than or equal to 100000 when completion mode is Indexed", job(completionMode="Indexed", completions=2, parallelism=100_001)),
]


@pytest.mark.parametrize(("key", "obj"), [(c[0], c[1]) for c in CASES], ids=[c[0][:60] for c in CASES])
def test_validate_job_error_cases_1_36(key: str, obj: dict[str, Any]) -> None:
    field, _, text = key.partition(":")
    errs = create(obj)[0]
    assert errs, key
    assert errs[0].field == field and text.strip() in str(errs[0]), [str(e) for e in errs]


@pytest.mark.parametrize(("release", "expected"), [
    ("1.33", 'spec.successPolicy: Invalid value: batch.SuccessPolicy{Rules:[]batch.SuccessPolicyRule{}}: requires indexed completion mode'),
    ("1.36", 'spec.successPolicy: Invalid value: {"Rules":[]}: requires indexed completion mode'),
])
def test_success_policy_bad_value_is_the_internal_struct(release: str, expected: str) -> None:
    """The bad value is ``*batch.SuccessPolicy``, an internal type without json tags: ``json.Marshal`` writes
    ``Rules`` from 1.34 (upstream's key above), ``%#v`` of the dereferenced struct before."""
    errs = create(job(NEVER, successPolicy={"rules": []}), release)[0]
    assert [str(e.at_release(int(release[2:]))) for e in errs] == [expected]


def test_huge_index_numbers_are_atoi_errors() -> None:
    """strconv.Atoi refuses a number out of int range (no Python digit limit): "cannot convert"."""
    obj = job(NEVER, **INDEXED, successPolicy={"rules": [{"succeededIndexes": "9" * 5000}]})
    assert [e.detail for e in create(obj)[0]] == [f'error parsing succeededIndexes: cannot convert string to integer for index: "{"9" * 5000}"']
