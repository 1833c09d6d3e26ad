"""Native validation of batch/v1: Job, CronJob.

Mirrors kubernetes/kubernetes ``pkg/apis/batch/validation/validation.go`` (1.30 … 1.36, openshift/microshift
``release-4.17`` … ``release-4.23``; the create-path functions ported here are the same in all of them but for
the ``TooLong`` constructors, which :meth:`~crdtool.core.errors.FieldError.at_release` renders per release).
Schedules are parsed by :mod:`crdtool.core.apis.batch.cron` (robfig/cron v3), time zones by Python's
``zoneinfo`` standing for Go's ``time.LoadLocation`` (the IANA database both read).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, Mapping

from crdtool.core.apis._util import go_label_selector, go_labels, go_success_policy, i, lst, m, nonnegative, s, selector_matches, selector_ok, validate_label_selector
from crdtool.core.apis.batch.cron import parse_cron_schedule
from crdtool.core.apis.core.validation import validate_object_meta_core, validate_pod_template_spec
from crdtool.core.errors import OMIT, FieldError, Path, duplicate, internal_error, invalid, not_supported, required, too_long, too_many
from crdtool.core.releases import Release
from crdtool.core.validation_util import is_dns1123_label, is_qualified_name, name_is_dns_subdomain

#: ``field.NewPath("metadata")``, built once (a Path is an immutable str).
_METADATA = Path("metadata")

#: ``"cron-panic-recovery"``: schedules parsed through ``parsers.ParseCronScheduleWithPanicRecovery``
#: (``validation.go`` @1.35; before, ``cron.ParseStandard`` directly).
BATCH_CHANGES: dict[str, int] = {"cron-panic-recovery": 35}

MAX_PARALLELISM_FOR_INDEXED_JOB = 100000
MAX_FAILED_INDEXES_FOR_INDEXED_JOB = 100_000
COMPLETIONS_SOFT_LIMIT = 100_000
PARALLELISM_LIMIT_FOR_HIGH_COMPLETIONS = 10_000
MAX_FAILED_INDEXES_LIMIT_FOR_HIGH_COMPLETIONS = 10_000
MAX_POD_FAILURE_POLICY_RULES = 20
MAX_POD_FAILURE_POLICY_ON_EXIT_CODES_VALUES = 255
MAX_POD_FAILURE_POLICY_ON_POD_CONDITIONS_PATTERNS = 20
MAX_MANAGED_BY_LENGTH = 63
MAX_SUCCEEDED_INDEXES_LENGTH = 64 * 1024
MAX_SUCCESS_POLICY_RULE = 20

_ACTIONS = ("Count", "FailIndex", "FailJob", "Ignore")
_EXIT_OPS = ("In", "NotIn")
_COND_STATUS = ("False", "True", "Unknown")


def _go_q_list(values: tuple[str, ...]) -> str:
    """Go's ``%q`` of a ``[]string``."""
    return "[" + " ".join(f'"{v}"' for v in values) + "]"


def _pod_failure_policy(spec: Mapping[str, Any], path: Path, release: Release) -> list[FieldError]:
    """Upstream ``validatePodFailurePolicy`` and its rules."""
    errs: list[FieldError] = []
    pfp = m(spec.get("podFailurePolicy"))
    rules = lst(pfp.get("rules"))
    rules_path = path.child("rules")
    if len(rules) > MAX_POD_FAILURE_POLICY_RULES:
        errs.append(too_many(rules_path, len(rules), MAX_POD_FAILURE_POLICY_RULES))
    tspec = m(m(spec.get("template")).get("spec"))
    names = {s(m(c).get("name")) for c in [*lst(tspec.get("containers")), *lst(tspec.get("initContainers"))]}
    for index, rule in enumerate(rules):
        rule = m(rule)
        rp = rules_path.index(index)
        action = s(rule.get("action"))
        ap = rp.child("action")
        if not action:
            errs.append(required(ap, f"valid values: {_go_q_list(_ACTIONS)}"))
        elif action == "FailIndex":
            if spec.get("backoffLimitPerIndex") is None:
                errs.append(invalid(ap, action, "requires the backoffLimitPerIndex to be set"))
        elif action not in _ACTIONS:
            errs.append(not_supported(ap, action, _ACTIONS))
        oec = rule.get("onExitCodes")
        conds = lst(rule.get("onPodConditions"))
        if isinstance(oec, dict):
            ep = rp.child("onExitCodes")
            op = s(oec.get("operator"))
            if not op:
                errs.append(required(ep.child("operator"), f"valid values: {_go_q_list(_EXIT_OPS)}"))
            elif op not in _EXIT_OPS:
                errs.append(not_supported(ep.child("operator"), op, _EXIT_OPS))
            cn = oec.get("containerName")
            if isinstance(cn, str) and cn not in names:
                errs.append(invalid(ep.child("containerName"), cn, "must be one of the container or initContainer names in the pod template"))
            values = [i(v) for v in lst(oec.get("values"))]
            vp = ep.child("values")
            if not values:
                errs.append(invalid(vp, values, "at least one value is required"))
            elif len(values) > MAX_POD_FAILURE_POLICY_ON_EXIT_CODES_VALUES:
                errs.append(too_many(vp, len(values), MAX_POD_FAILURE_POLICY_ON_EXIT_CODES_VALUES))
            seen: set[int] = set()
            ordered = True
            for j, v in enumerate(values):
                if op == "In" and v == 0:
                    errs.append(invalid(vp.index(j), v, "must not be 0 for the In operator"))
                if v in seen:
                    errs.append(duplicate(vp.index(j), v))
                seen.add(v)
                if j > 0 and values[j - 1] > v:
                    ordered = False
            if not ordered:
                errs.append(invalid(vp, values, "must be ordered"))
        if conds:
            cp = rp.child("onPodConditions")
            if len(conds) > MAX_POD_FAILURE_POLICY_ON_POD_CONDITIONS_PATTERNS:
                errs.append(too_many(cp, len(conds), MAX_POD_FAILURE_POLICY_ON_POD_CONDITIONS_PATTERNS))
            for j, pattern in enumerate(conds):
                pattern = m(pattern)
                pp = cp.index(j)
                ct = s(pattern.get("type"))
                errs.extend(invalid(pp.child("type"), ct, msg) for msg in is_qualified_name(ct, release))
                st = s(pattern.get("status"))
                if not st:
                    errs.append(required(pp.child("status"), f"valid values: {_go_q_list(_COND_STATUS)}"))
                elif st not in _COND_STATUS:
                    errs.append(not_supported(pp.child("status"), st, _COND_STATUS))
        if isinstance(oec, dict) and conds:
            errs.append(invalid(rp, OMIT, "specifying both OnExitCodes and OnPodConditions is not supported"))
        if not isinstance(oec, dict) and not conds:
            errs.append(invalid(rp, OMIT, "specifying one of OnExitCodes and OnPodConditions is required"))
    return errs


def _atoi(text: str) -> int | None:
    """Go's ``strconv.Atoi`` (64-bit ``int``): None for anything it refuses, out-of-range values included (and
    without converting a huge digit string, which Python limits)."""
    body = text[1:] if text[:1] in "+-" else text
    if not (body.isascii() and body.isdigit()) or len(body.lstrip("0")) > 19:
        return None
    n = int(text)
    return n if -(2**63) <= n < 2**63 else None


def _indexes_format(indexes: str, completions: int) -> tuple[int, str | None]:
    """Upstream ``validateIndexesFormat``: (total, error)."""
    if not indexes:
        return 0, None
    last: int | None = None
    total = 0
    for interval in indexes.split(","):
        limits = interval.split("-")
        if len(limits) > 2:
            return 0, f'the fragment "{interval}" violates the requirement that an index interval can have at most two parts separated by \'-\''
        x = _atoi(limits[0])
        if x is None:
            return 0, f'cannot convert string to integer for index: "{limits[0]}"'
        if x >= completions:
            return 0, f'too large index: "{limits[0]}"'
        y = x
        if len(limits) > 1:
            y2 = _atoi(limits[1])
            if y2 is None:
                return 0, f'cannot convert string to integer for index: "{limits[1]}"'
            if y2 >= completions:
                return 0, f'too large index: "{limits[1]}"'
            if x >= y2:
                return 0, f"non-increasing order, previous: {x}, current: {y2}"
            y = y2
        if last is not None and last >= x:
            return 0, f"non-increasing order, previous: {last}, current: {x}"
        total += y - x + 1
        last = y
    return total, None


def _success_policy(spec: Mapping[str, Any], path: Path) -> list[FieldError]:
    errs: list[FieldError] = []
    rules = lst(m(spec.get("successPolicy")).get("rules"))
    rp = path.child("rules")
    if not rules:
        errs.append(required(rp, "at least one rules must be specified when the successPolicy is specified"))
    if len(rules) > MAX_SUCCESS_POLICY_RULE:
        errs.append(too_many(rp, len(rules), MAX_SUCCESS_POLICY_RULE))
    completions = i(spec.get("completions"))
    for index, rule in enumerate(rules):
        rule = m(rule)
        p = rp.index(index)
        sc, si = rule.get("succeededCount"), rule.get("succeededIndexes")
        if sc is None and si is None:
            errs.append(required(p, "at least one of succeededCount or succeededIndexes must be specified"))
        total = 0
        if isinstance(si, str):
            if len(si) > MAX_SUCCEEDED_INDEXES_LENGTH:
                errs.append(too_long(p.child("succeededIndexes"), si, MAX_SUCCEEDED_INDEXES_LENGTH))
            total, err = _indexes_format(si, completions)
            if err is not None:
                errs.append(invalid(p.child("succeededIndexes"), si, f"error parsing succeededIndexes: {err}"))
        if sc is not None:
            scp = p.child("succeededCount")
            errs.extend(nonnegative(i(sc), scp))
            if i(sc) > completions:
                errs.append(invalid(scp, i(sc), f"must be less than or equal to {completions} (the number of specified completions)"))
            if si is not None and i(sc) > total:
                errs.append(invalid(scp, i(sc), f"must be less than or equal to {total} (the number of indexes in the specified succeededIndexes field)"))
    return errs


_HTTP_PATH_FMT = "[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+"
_HTTP_PATH_RE = re.compile(_HTTP_PATH_FMT)


def _is_domain_prefixed_path(path: Path, value: str) -> list[FieldError]:
    """Upstream ``IsDomainPrefixedPath`` (util/validation)."""
    from crdtool.core.validation_util import is_dns1123_subdomain, regex_error

    if not value:
        return [required(path, "")]
    parts = value.split("/", 1)
    if len(parts) != 2 or not parts[0] or not parts[1]:
        return [invalid(path, value, 'must be a domain-prefixed path (such as "acme.io/foo")')]
    host, rest = parts
    errs = [invalid(path, host, msg) for msg in is_dns1123_subdomain(host)]
    if _HTTP_PATH_RE.fullmatch(rest) is None:
        errs.append(invalid(path, rest, regex_error("Invalid path", _HTTP_PATH_FMT)))
    return errs


def validate_job_spec_common(spec: Mapping[str, Any], path: Path, release: Release) -> list[FieldError]:
    """Upstream ``validateJobSpec``."""
    errs: list[FieldError] = []
    for key in ("parallelism", "completions", "activeDeadlineSeconds", "backoffLimit", "ttlSecondsAfterFinished", "backoffLimitPerIndex"):
        if spec.get(key) is not None:
            errs.extend(nonnegative(i(spec.get(key)), path.child(key)))
    mfi = spec.get("maxFailedIndexes")
    if mfi is not None:
        errs.extend(nonnegative(i(mfi), path.child("maxFailedIndexes")))
        if spec.get("backoffLimitPerIndex") is None:
            errs.append(required(path.child("backoffLimitPerIndex"), "when maxFailedIndexes is specified"))
    mb = spec.get("managedBy")
    if isinstance(mb, str):
        errs.extend(_is_domain_prefixed_path(path.child("managedBy"), mb))
        if len(mb) > MAX_MANAGED_BY_LENGTH:
            errs.append(too_long(path.child("managedBy"), mb, MAX_MANAGED_BY_LENGTH))
    cm = spec.get("completionMode")
    completions, parallelism = spec.get("completions"), spec.get("parallelism")
    if isinstance(cm, str):
        if cm not in ("NonIndexed", "Indexed"):
            errs.append(not_supported(path.child("completionMode"), cm, ("NonIndexed", "Indexed")))
        if cm == "Indexed":
            if completions is None:
                errs.append(required(path.child("completions"), "when completion mode is Indexed"))
            if parallelism is not None and i(parallelism) > MAX_PARALLELISM_FOR_INDEXED_JOB:
                errs.append(invalid(path.child("parallelism"), i(parallelism), f"must be less than or equal to {MAX_PARALLELISM_FOR_INDEXED_JOB} when completion mode is Indexed"))
            if completions is not None and mfi is not None and i(mfi) > i(completions):
                errs.append(invalid(path.child("maxFailedIndexes"), i(mfi), "must be less than or equal to completions"))
            if mfi is not None and i(mfi) > MAX_FAILED_INDEXES_FOR_INDEXED_JOB:
                errs.append(invalid(path.child("maxFailedIndexes"), i(mfi), f"must be less than or equal to {MAX_FAILED_INDEXES_FOR_INDEXED_JOB}"))
            if completions is not None and i(completions) > COMPLETIONS_SOFT_LIMIT and spec.get("backoffLimitPerIndex") is not None:
                if mfi is None:
                    errs.append(required(path.child("maxFailedIndexes"), f"must be specified when completions is above {COMPLETIONS_SOFT_LIMIT}"))
                if parallelism is not None and i(parallelism) > PARALLELISM_LIMIT_FOR_HIGH_COMPLETIONS:
                    errs.append(invalid(path.child("parallelism"), i(parallelism), f"must be less than or equal to {PARALLELISM_LIMIT_FOR_HIGH_COMPLETIONS} when completions are above {COMPLETIONS_SOFT_LIMIT} and used with backoff limit per index"))
                if mfi is not None and i(mfi) > MAX_FAILED_INDEXES_LIMIT_FOR_HIGH_COMPLETIONS:
                    errs.append(invalid(path.child("maxFailedIndexes"), i(mfi), f"must be less than or equal to {MAX_FAILED_INDEXES_LIMIT_FOR_HIGH_COMPLETIONS} when completions are above {COMPLETIONS_SOFT_LIMIT} and used with backoff limit per index"))
    if cm is None or cm == "NonIndexed":
        if spec.get("backoffLimitPerIndex") is not None:
            errs.append(invalid(path.child("backoffLimitPerIndex"), i(spec.get("backoffLimitPerIndex")), "requires indexed completion mode"))
        if mfi is not None:
            errs.append(invalid(path.child("maxFailedIndexes"), i(mfi), "requires indexed completion mode"))
    pfp = spec.get("podFailurePolicy")
    if isinstance(pfp, dict):
        errs.extend(_pod_failure_policy(spec, path.child("podFailurePolicy"), release))
    sp = spec.get("successPolicy")
    if isinstance(sp, dict):
        if cm != "Indexed":
            errs.append(invalid(path.child("successPolicy"), go_success_policy(sp), "requires indexed completion mode"))
        else:
            errs.extend(_success_policy(spec, path.child("successPolicy")))
    prp = spec.get("podReplacementPolicy")
    if isinstance(prp, str):
        if isinstance(pfp, dict):
            if prp != "Failed":
                errs.append(not_supported(path.child("podReplacementPolicy"), prp, ("Failed",)))
        elif prp not in ("Failed", "TerminatingOrFailed"):
            errs.append(not_supported(path.child("podReplacementPolicy"), prp, ("Failed", "TerminatingOrFailed")))
    template = m(spec.get("template"))
    errs.extend(validate_pod_template_spec(template, path.child("template"), release))
    rp = s(m(template.get("spec")).get("restartPolicy"))
    rpp = path.child("template", "spec", "restartPolicy")
    if rp in ("Always", ""):
        errs.append(required(rpp, 'valid values: "OnFailure", "Never"'))
    elif rp not in ("OnFailure", "Never"):
        errs.append(not_supported(rpp, rp, ("OnFailure", "Never")))
    elif isinstance(pfp, dict) and rp != "Never":
        errs.append(invalid(rpp, rp, 'only "Never" is supported when podFailurePolicy is specified'))
    return errs


def _has_label(labels: Mapping[str, Any], key: str, expected: str, path: Path) -> list[FieldError]:
    """Upstream ``ValidateHasLabel``."""
    if key not in labels:
        return [required(path.child("labels").key(key), f"must be '{expected}'")]
    if labels[key] != expected:
        return [invalid(path.child("labels").key(key), go_labels(labels), f"must be '{expected}'")]
    return []


def validate_job(obj: Mapping[str, Any], release: Release) -> list[FieldError]:
    """Upstream ``ValidateJob`` (create: ``RequirePrefixedLabels``)."""
    meta = m(obj.get("metadata"))
    errs = validate_object_meta_core(meta, True, name_is_dns_subdomain, _METADATA, release)
    spec = m(obj.get("spec"))
    name, uid = s(meta.get("name")), s(meta.get("uid"))
    sel = spec.get("selector")
    if spec.get("manualSelector") is not True and isinstance(sel, dict):
        if not uid:
            errs.append(required(_METADATA.child("uid"), ""))
        tmeta = m(m(spec.get("template")).get("metadata"))
        tlabels = m(tmeta.get("labels"))
        tp = Path("spec").child("template").child("metadata")
        errs.extend(_has_label(tlabels, "controller-uid", uid, tp))
        errs.extend(_has_label(tlabels, "job-name", name, tp))
        errs.extend(_has_label(tlabels, "batch.kubernetes.io/controller-uid", uid, tp))
        errs.extend(_has_label(tlabels, "batch.kubernetes.io/job-name", name, tp))
        expected = {"batch.kubernetes.io/controller-uid": uid, "batch.kubernetes.io/job-name": name, "controller-uid": uid, "job-name": name}
        if selector_ok(sel, release) and not selector_matches(sel, expected):
            errs.append(invalid(Path("spec").child("selector"), go_label_selector(sel), "`selector` not auto-generated"))
    path = Path("spec")
    errs.extend(validate_job_spec_common(spec, path, release))
    if not isinstance(sel, dict):
        errs.append(required(path.child("selector"), ""))
    else:
        errs.extend(validate_label_selector(sel, path.child("selector"), release))
    tlabels = m(m(m(spec.get("template")).get("metadata")).get("labels"))
    if sel is None or (selector_ok(sel, release) and not selector_matches(sel, tlabels)):
        errs.append(invalid(path.child("template", "metadata", "labels"), go_labels(m(m(spec.get("template")).get("metadata")).get("labels")), "`selector` does not match template `labels`"))
    cm, completions = spec.get("completionMode"), spec.get("completions")
    if cm == "Indexed" and completions is not None and i(completions) > 0:
        hostname = f"{name}-{i(completions) - 1}"
        if is_dns1123_label(hostname):
            errs.append(invalid(_METADATA.child("name"), name, f"will not able to create pod with invalid DNS label: {hostname}"))
    return errs


_TZ_PART = re.compile(r"[A-Za-z.\-_0-9+]{1,14}")


@lru_cache(maxsize=256)
def load_location(name: str) -> str | None:
    """Go ``time.LoadLocation(name)``'s error text, or None (the IANA database through ``zoneinfo``)."""
    if name in ("", "UTC"):
        return None
    if name == "Local":
        return None
    import zoneinfo

    try:
        zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError, OSError):
        return f"unknown time zone {name}"
    return None


def _validate_time_zone(tz: Any, path: Path) -> list[FieldError]:
    """Upstream ``validateTimeZone``."""
    if tz is None:
        return []
    tz = s(tz)
    if not tz:
        return [invalid(path, tz, "timeZone must be nil or non-empty string")]
    for part in tz.split("/"):
        if part in (".", "..") or part.startswith("-") or _TZ_PART.fullmatch(part) is None:
            return [invalid(path, tz, f"unknown time zone {tz}")]
    errs: list[FieldError] = []
    if tz.lower() == "local":
        errs.append(invalid(path, tz, "timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones"))
    err = load_location(tz)
    if err is not None:
        errs.append(invalid(path, tz, err))
    return errs


def validate_cron_job_create(obj: Mapping[str, Any], release: Release) -> list[FieldError]:
    """Upstream ``ValidateCronJobCreate`` → ``validateCronJobSpec``."""
    meta = m(obj.get("metadata"))
    errs = validate_object_meta_core(meta, True, name_is_dns_subdomain, _METADATA, release)
    spec, path = m(obj.get("spec")), Path("spec")
    schedule = s(spec.get("schedule"))
    if not schedule:
        errs.append(required(path.child("schedule"), ""))
    else:
        err = parse_cron_schedule(schedule, load_location)
        if err is not None and err.startswith("invalid schedule format: ") and release.minor < BATCH_CHANGES["cron-panic-recovery"]:
            # robfig/cron panics; before 1.35 nothing in validation recovers it and the apiserver's handler
            # answers 500: reported as an internal error at the field
            errs.append(internal_error(path.child("schedule"), err.removeprefix("invalid schedule format: ")))
        elif err is not None:
            errs.append(invalid(path.child("schedule"), schedule, err))
        if "TZ" in schedule:
            errs.append(invalid(path.child("schedule"), schedule, "cannot use TZ or CRON_TZ in schedule, use timeZone field instead"))
    if spec.get("startingDeadlineSeconds") is not None:
        errs.extend(nonnegative(i(spec.get("startingDeadlineSeconds")), path.child("startingDeadlineSeconds")))
    errs.extend(_validate_time_zone(spec.get("timeZone"), path.child("timeZone")))
    cp = s(spec.get("concurrencyPolicy"))
    if not cp:
        errs.append(required(path.child("concurrencyPolicy"), ""))
    elif cp not in ("Allow", "Forbid", "Replace"):
        errs.append(not_supported(path.child("concurrencyPolicy"), cp, ("Allow", "Forbid", "Replace")))
    jt = m(spec.get("jobTemplate"))
    jp = path.child("jobTemplate")
    jspec = m(jt.get("spec"))
    errs.extend(validate_job_spec_common(jspec, jp.child("spec"), release))
    if jspec.get("selector") is not None:
        errs.append(invalid(jp.child("spec", "selector"), go_label_selector(jspec.get("selector")), "`selector` will be auto-generated"))
    if jspec.get("manualSelector") is True:
        errs.append(not_supported(jp.child("spec", "manualSelector"), True, ("nil", "false")))
    for key in ("successfulJobsHistoryLimit", "failedJobsHistoryLimit"):
        if spec.get(key) is not None:
            errs.extend(nonnegative(i(spec.get(key)), path.child(key)))
    name = s(meta.get("name"))
    if len(name) > 63 - 11:
        errs.append(invalid(_METADATA.child("name"), name, "must be no more than 52 characters"))
    return errs


def job_spec_warnings(spec: Mapping[str, Any], path: Path, release: Release) -> list[str]:
    """``pkg/api/job/warnings.go`` ``WarningsForJobSpec`` (create)."""
    from crdtool.core.apis.core.warnings import pod_template_warnings

    out: list[str] = []
    if spec.get("completionMode") == "Indexed":
        if i(spec.get("completions")) > COMPLETIONS_SOFT_LIMIT and i(spec.get("parallelism")) > PARALLELISM_LIMIT_FOR_HIGH_COMPLETIONS:
            out.append(f"{path}: In Indexed Jobs with a number of completions higher than 10^5 and a parallelism higher than 10^4, "
                       "Kubernetes might not be able to track completedIndexes when a big number of indexes fail")
    template = spec.get("template")
    out.extend(pod_template_warnings(template if isinstance(template, dict) else {}, path.child("template"), release))
    return out
