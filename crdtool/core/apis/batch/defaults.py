"""Defaulting of batch/v1: Job, CronJob.

Mirrors kubernetes/kubernetes ``pkg/apis/batch/v1/defaults.go`` and ``zz_generated.defaults.go`` (1.30 …
1.36, openshift/microshift ``release-4.17`` … ``release-4.23``). ``podReplacementPolicy`` is defaulted under
gate ``JobPodReplacementPolicy``, on by default in all of them (Beta 1.29, GA 1.34). The pod failure policy's
``onPodConditions[].status`` defaults to ``True`` (``SetDefaults_PodFailurePolicyOnPodConditionsPattern``).
"""

from __future__ import annotations

from typing import Any

from crdtool.core.apis._util import ensure_dict as _d
from crdtool.core.apis._util import rel
from crdtool.core.apis.core.defaults import set_defaults_pod_template_spec
from crdtool.core.releases import Release


def _list(v: Any) -> list[Any]:
    """A list field (anything else: empty)."""
    return v if isinstance(v, list) else []


def set_defaults_job_spec(obj: dict[str, Any], spec: dict[str, Any], release: Release) -> None:
    """``SetDefaults_Job`` and the generated defaults of ``spec`` (``obj``: the Job, whose labels default from
    the template's)."""
    if spec.get("completions") is None and spec.get("parallelism") is None:
        spec["completions"] = 1
        spec["parallelism"] = 1
    if spec.get("parallelism") is None:
        spec["parallelism"] = 1
    if spec.get("backoffLimit") is None:
        spec["backoffLimit"] = 2147483647 if spec.get("backoffLimitPerIndex") is not None else 6
    template = _d(spec, "template")
    labels = template.get("metadata", {}).get("labels") if isinstance(template.get("metadata"), dict) else None
    if isinstance(labels, dict):
        meta = _d(obj, "metadata")
        if not meta.get("labels"):
            meta["labels"] = dict(labels)
    if spec.get("completionMode") is None:
        spec["completionMode"] = "NonIndexed"
    if spec.get("suspend") is None:
        spec["suspend"] = False
    if spec.get("podReplacementPolicy") is None:
        spec["podReplacementPolicy"] = "Failed" if spec.get("podFailurePolicy") is not None else "TerminatingOrFailed"
    if spec.get("manualSelector") is None:
        spec["manualSelector"] = False
    _pod_failure_policy_defaults(spec)
    set_defaults_pod_template_spec(template, release)


def _pod_failure_policy_defaults(spec: dict[str, Any]) -> None:
    pfp = spec.get("podFailurePolicy")
    if isinstance(pfp, dict):
        for rule in _list(pfp.get("rules")):
            if isinstance(rule, dict):
                for pattern in _list(rule.get("onPodConditions")):
                    if isinstance(pattern, dict) and not pattern.get("status"):
                        pattern["status"] = "True"


def set_defaults(obj: dict[str, Any], version: str, release: Any) -> None:
    """``SetObjectDefaults_Job`` / ``SetObjectDefaults_CronJob`` of batch/v1. Mutates ``obj``."""
    r = rel(release)
    kind = obj.get("kind")
    spec = _d(obj, "spec")
    if kind == "Job":
        set_defaults_job_spec(obj, spec, r)
    elif kind == "CronJob":
        if not spec.get("concurrencyPolicy"):
            spec["concurrencyPolicy"] = "Allow"
        if spec.get("suspend") is None:
            spec["suspend"] = False
        if spec.get("successfulJobsHistoryLimit") is None:
            spec["successfulJobsHistoryLimit"] = 3
        if spec.get("failedJobsHistoryLimit") is None:
            spec["failedJobsHistoryLimit"] = 1
        # SetObjectDefaults_CronJob does not run SetDefaults_Job on the job template: only the failure
        # policy's patterns and the pod template get their defaults
        jspec = _d(_d(spec, "jobTemplate"), "spec")
        _pod_failure_policy_defaults(jspec)
        set_defaults_pod_template_spec(_d(jspec, "template"), r)


def set_object_defaults(obj: dict[str, Any], version: str, kind: str, release: Any) -> None:
    """The create path's entry (:mod:`crdtool.core.registry.create`): :func:`set_defaults` of ``obj``
    (``kind`` is ``obj['kind']``)."""
    set_defaults(obj, version, release)
