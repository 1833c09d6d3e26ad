"""CronJob and Job create validation, cases from kubernetes/kubernetes
``pkg/apis/batch/validation/validation_test.go`` (openshift/microshift ``release-4.23`` = 1.36: ``TestValidateCronJob``
error table, ``TestValidateScheduleFormatPanicRecovery``, ``TestValidateScheduleFormatNormalCases``,
``TestValidateCronJobScheduleTZ``) and robfig/cron v3.0.1 ``parser_test.go`` (``TestRange``, ``TestParseScheduleErrors``)."""

from __future__ import annotations

from typing import Any

import pytest

from crdtool.core.apis.batch.cron import parse_cron_schedule
from tests.core.apis._create import create, pairs, pod_template


def cron_job(**spec: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "schedule": "* * * * ?",
        "concurrencyPolicy": "Allow",
        "jobTemplate": {"spec": {"template": pod_template(labels={}, restartPolicy="OnFailure", dnsPolicy="ClusterFirst")}},
    }
    body.update(spec)
    return {"apiVersion": "batch/v1", "kind": "CronJob", "metadata": {"name": "mycronjob", "namespace": "default"}, "spec": body}


def _job_spec(**fields: Any) -> dict[str, Any]:
    spec = {"template": pod_template(labels={}, restartPolicy="OnFailure", dnsPolicy="ClusterFirst")}
    spec.update(fields)
    return {"spec": spec}


# TestValidateCronJob's errorCases @1.36: the key is "<field>: <text in the first error>".
CRON_ERROR_CASES: list[tuple[str, dict[str, Any]]] = [
    ("spec.schedule: Invalid value", {"schedule": "error"}),
    ("spec.schedule: Required value", {"schedule": ""}),
    ("spec.timeZone: timeZone must be nil or non-empty string", {"schedule": "0 * * * *", "timeZone": ""}),
    ("spec.timeZone: timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones", {"schedule": "0 * * * *", "timeZone": "LOCAL"}),
    ('spec.timeZone: unknown time zone  Europe/Rome', {"schedule": "0 * * * *", "timeZone": " Europe/Rome"}),
    ("spec.timeZone: unknown time zone Europe/InvalidRome", {"schedule": "0 * * * *", "timeZone": "Europe/InvalidRome"}),
    ("spec.timeZone: unknown time zone  ", {"schedule": "0 * * * *", "timeZone": " "}),
    ("spec.timeZone: unknown time zone Europe/Rome ", {"schedule": "0 * * * *", "timeZone": "Europe/Rome "}),
    ("spec.startingDeadlineSeconds: must be greater than or equal to 0", {"startingDeadlineSeconds": -1}),
    ("spec.successfulJobsHistoryLimit: must be greater than or equal to 0", {"successfulJobsHistoryLimit": -1}),
    ("spec.failedJobsHistoryLimit: must be greater than or equal to 0", {"failedJobsHistoryLimit": -1}),
    ("spec.jobTemplate.spec.parallelism: must be greater than or equal to 0", {"jobTemplate": _job_spec(parallelism=-1)}),
    ("spec.jobTemplate.spec.completions: must be greater than or equal to 0", {"jobTemplate": _job_spec(completions=-1)}),
    ("spec.jobTemplate.spec.activeDeadlineSeconds: must be greater than or equal to 0", {"jobTemplate": _job_spec(activeDeadlineSeconds=-1)}),
    ('spec.jobTemplate.spec.selector: Invalid value: {"matchLabels":{"a":"b"}}: `selector` will be auto-generated', {"jobTemplate": _job_spec(selector={"matchLabels": {"a": "b"}})}),
    ("spec.jobTemplate.spec.manualSelector: Unsupported value", {"jobTemplate": _job_spec(manualSelector=True)}),
    ("spec.jobTemplate.spec.template.spec.restartPolicy: Unsupported value", {"jobTemplate": {"spec": {"template": pod_template(labels={}, restartPolicy="Invalid")}}}),
    ("spec.jobTemplate.spec.ttlSecondsAfterFinished: must be greater than or equal to 0", {"jobTemplate": _job_spec(ttlSecondsAfterFinished=-1)}),
]


@pytest.mark.parametrize(("key", "spec"), CRON_ERROR_CASES, ids=[k for k, _ in CRON_ERROR_CASES])
def test_cron_job_error_cases_1_36(key: str, spec: dict[str, Any]) -> None:
    errs, _, _ = create(cron_job(**spec))
    assert errs, key
    field, _, text = key.partition(":")
    assert errs[0].field == field
    assert text.strip() in str(errs[0])


def test_cron_job_name_limit_and_concurrency_policy_default() -> None:
    obj = cron_job()
    obj["metadata"]["name"] = "10000000002000000000300000000040000000005000000000123"
    errs, warnings, _ = create(obj)
    assert [str(e) for e in errs] == ['metadata.name: Invalid value: "10000000002000000000300000000040000000005000000000123": must be no more than 52 characters']
    # the name is also not a DNS label: WarningsOnCreate says so
    assert warnings == []
    # concurrencyPolicy is defaulted before validation, so an absent one is valid
    body = cron_job()
    del body["spec"]["concurrencyPolicy"]
    assert create(body)[0] == []


def test_cron_job_success_cases_1_36() -> None:
    for spec in ({}, {"timeZone": "Europe/Rome", "schedule": "0 * * * *"}, {"schedule": "@every 1h"}, {"schedule": "0 1 * JAN,feb MON-fri"}):
        assert create(cron_job(**spec))[0] == []


@pytest.mark.parametrize("schedule", ["TZ=0", "TZ=", "CRON_TZ=UTC", "TZ=Invalid/Timezone"])
def test_schedule_panic_recovery_1_36(schedule: str) -> None:
    """TestValidateScheduleFormatPanicRecovery: Invalid, ``invalid schedule format`` (1.35+); before, an
    internal error (the panic reaches the apiserver's handler)."""
    errs = create(cron_job(schedule=schedule))[0]
    assert errs[0].type == "FieldValueInvalid" and errs[0].field == "spec.schedule"
    assert "invalid schedule format" in errs[0].detail
    assert create(cron_job(schedule=schedule), "1.34")[0][0].type == "InternalError"


def test_schedule_tz_1_36() -> None:
    """TestValidateCronJobScheduleTZ / TestValidateScheduleFormatNormalCases (create)."""
    errs = create(cron_job(schedule="TZ=UTC 0 * * * *"))[0]
    assert [str(e) for e in errs] == ['spec.schedule: Invalid value: "TZ=UTC 0 * * * *": cannot use TZ or CRON_TZ in schedule, use timeZone field instead']


@pytest.mark.parametrize(
    ("spec", "err"),
    [
        # robfig/cron v3.0.1 parser_test.go TestRange / TestParseScheduleErrors
        ("* 5 j * * *", "expected exactly 5 fields, found 6: [* 5 j * * *]"),
        ("@every Xm", 'failed to parse duration @every Xm: time: invalid duration "Xm"'),
        ("@unrecognized * * * * *", "unrecognized descriptor: @unrecognized * * * * *"),
        ("* * * *", "expected exactly 5 fields, found 4: [* * * *]"),
        ("", "empty spec string"),
        ("65 * * * *", "end of range (65) above maximum (59): 65"),
        ("5-4 * * * *", "beginning of range (5) beyond end of range (4): 5-4"),
        ("*/0 * * * *", "step of range should be a positive number: */0"),
        ("1-2-3 * * * *", "too many hyphens: 1-2-3"),
        ("1/2/3 * * * *", "too many slashes: 1/2/3"),
        ("x * * * *", 'failed to parse int from x: strconv.Atoi: parsing "x": invalid syntax'),
        ("-1 * * * *", 'failed to parse int from : strconv.Atoi: parsing "": invalid syntax'),
        ("* * 0 * *", "beginning of range (0) below minimum (1): 0"),
    ],
)
def test_cron_parser_errors(spec: str, err: str) -> None:
    assert parse_cron_schedule(spec) == err


def job(**spec: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"template": pod_template(labels={}, restartPolicy="OnFailure")}
    body.update(spec)
    return {"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "myjob", "namespace": "default"}, "spec": body}


def test_job_generated_selector_and_labels_1_36() -> None:
    errs, _, stored = create(job())
    assert errs == []
    labels = stored["spec"]["template"]["metadata"]["labels"]
    assert labels["batch.kubernetes.io/job-name"] == labels["job-name"] == "myjob"
    assert stored["spec"]["selector"] == {"matchLabels": {"batch.kubernetes.io/controller-uid": stored["metadata"]["uid"]}}


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        # TestValidateJob errorCases @1.36 (type, field)
        ({"parallelism": -1}, [("FieldValueInvalid", "spec.parallelism")]),
        ({"completions": -1}, [("FieldValueInvalid", "spec.completions")]),
        ({"activeDeadlineSeconds": -1}, [("FieldValueInvalid", "spec.activeDeadlineSeconds")]),
        ({"backoffLimit": -1}, [("FieldValueInvalid", "spec.backoffLimit")]),
        ({"ttlSecondsAfterFinished": -1}, [("FieldValueInvalid", "spec.ttlSecondsAfterFinished")]),
        ({"completionMode": "Indexed", "completions": None, "parallelism": 1}, [("FieldValueRequired", "spec.completions")]),
        ({"completionMode": "Indexed", "completions": 2, "parallelism": 100001}, [("FieldValueInvalid", "spec.parallelism")]),
        ({"backoffLimitPerIndex": 1}, [("FieldValueInvalid", "spec.backoffLimitPerIndex")]),
        ({"template": pod_template(labels={}, restartPolicy="Always")}, [("FieldValueRequired", "spec.template.spec.restartPolicy")]),
        ({"podFailurePolicy": {"rules": [{"action": "FailJob", "onExitCodes": {"operator": "In", "values": [0]}}]}, "template": pod_template(labels={}, restartPolicy="Never")},
         [("FieldValueInvalid", "spec.podFailurePolicy.rules[0].onExitCodes.values[0]")]),
        ({"podFailurePolicy": {"rules": [{"action": "FailJob"}]}, "template": pod_template(labels={}, restartPolicy="Never")},
         [("FieldValueInvalid", "spec.podFailurePolicy.rules[0]")]),
        ({"podFailurePolicy": {"rules": [{"action": "Ignore", "onPodConditions": [{"type": "DisruptionTarget"}]}]}, "template": pod_template(labels={}, restartPolicy="OnFailure")},
         [("FieldValueInvalid", "spec.template.spec.restartPolicy")]),
    ],
)
def test_job_error_cases_1_36(spec: dict[str, Any], expected: list[tuple[str, str]]) -> None:
    body = job(**spec)
    if body["spec"].get("completions", 0) is None:
        del body["spec"]["completions"]
    assert pairs(create(body)[0]) == expected


def test_job_indexed_name_too_long_for_hostnames() -> None:
    body = job(completionMode="Indexed", completions=10, parallelism=1)
    body["metadata"]["name"] = "a" * 62
    assert [str(e) for e in create(body)[0]] == [f'metadata.name: Invalid value: "{"a" * 62}": will not able to create pod with invalid DNS label: {"a" * 62}-9']
