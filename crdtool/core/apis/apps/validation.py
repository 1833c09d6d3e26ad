"""Native validation of apps/v1: Deployment, StatefulSet, DaemonSet, ReplicaSet.

Mirrors kubernetes/kubernetes ``pkg/apis/apps/validation/validation.go`` (1.30 … 1.36 read from
openshift/microshift ``release-4.17`` … ``release-4.23``; the functions ported here do not change between
those releases). Works on the versioned objects (decoded JSON, after defaulting).
"""

from __future__ import annotations

from typing import Any, Mapping

from crdtool.core.apis._util import go_int_or_string, go_pointer, go_rolling_update_stateful_set, go_stateful_set_update_strategy, go_label_selector, go_labels, i, lst, m, nonnegative, s, selector_empty, selector_matches, selector_ok, validate_label_selector
from crdtool.core.apis.core.validation import (
    validate_object_meta_core,
    validate_pod_specific_annotations,
    validate_persistent_volume_claim_spec,
    validate_pod_template_spec,
)
from crdtool.core.errors import FieldError, Path, forbidden, invalid, not_supported, required
from crdtool.core.objectmeta import validate_annotations, validate_labels
from crdtool.core.releases import Release
from crdtool.core.validation_util import is_dns1123_label, is_valid_percent, name_is_dns_label, name_is_dns_subdomain

#: ``field.NewPath("metadata")``, built once (a Path is an immutable str).
_METADATA = Path("metadata")

#: ``"statefulset-pod-template"`` (``ValidateStatefulSetSpec`` @1.34): a StatefulSet's pod template and its
#: volume claim templates are validated (claims counted as the template's volumes); through 1.33 only the
#: template's labels and annotations were (``ValidatePodTemplateSpec`` was commented out upstream).
APPS_CHANGES: dict[str, int] = {"statefulset-pod-template": 34}

validate_deployment_name = name_is_dns_subdomain
validate_daemon_set_name = name_is_dns_subdomain
validate_replica_set_name = name_is_dns_subdomain
validate_stateful_set_name = name_is_dns_label


def _int_or_string(v: Any) -> tuple[str, Any]:
    """An ``intstr.IntOrString``: ``("int", n)`` or ``("string", s)``."""
    if isinstance(v, str):
        return "string", v
    return "int", i(v)


def validate_positive_int_or_percent(v: Any, path: Path) -> list[FieldError]:
    """Upstream ``ValidatePositiveIntOrPercent``."""
    kind, value = _int_or_string(v)
    if kind == "string":
        return [invalid(path, go_int_or_string(value), msg) for msg in is_valid_percent(value)]
    return nonnegative(value, path)


def _percent_value(v: Any) -> int | None:
    kind, value = _int_or_string(v)
    if kind != "string" or is_valid_percent(value):
        return None
    return int(value[:-1])


def get_int_or_percent_value(v: Any) -> int:
    """Upstream ``getIntOrPercentValue`` (a non-percent string is ``IntValue()``: its ``Atoi``, 0 on error)."""
    p = _percent_value(v)
    if p is not None:
        return p
    kind, value = _int_or_string(v)
    if kind == "int":
        return int(value)
    try:
        return int(value)
    except ValueError:
        return 0


def is_not_more_than_100_percent(v: Any, path: Path) -> list[FieldError]:
    """Upstream ``IsNotMoreThan100Percent``."""
    p = _percent_value(v)
    if p is None or p <= 100:
        return []
    return [invalid(path, go_int_or_string(v), "must not be greater than 100%")]


def _template_for_replicas(template: Any, selector: Any, path: Path, owner: str, release: Release) -> list[FieldError]:
    """Upstream ``ValidatePodTemplateSpecForReplicaSet`` (the selector is valid here)."""
    template = m(template)
    errs: list[FieldError] = []
    labels = m(m(template.get("metadata")).get("labels"))
    if not selector_empty(selector) and not selector_matches(selector, labels):
        errs.append(invalid(path.child("metadata", "labels"), go_labels(m(template.get("metadata")).get("labels")), "`selector` does not match template `labels`"))
    errs.extend(validate_pod_template_spec(template, path, release))
    spec = m(template.get("spec"))
    rp = s(spec.get("restartPolicy"))
    if rp != "Always":
        errs.append(not_supported(path.child("spec", "restartPolicy"), rp, ("Always",)))
    if spec.get("activeDeadlineSeconds") is not None:
        errs.append(forbidden(path.child("spec", "activeDeadlineSeconds"), f"activeDeadlineSeconds in {owner} is not Supported"))
    return errs


def _strict_selector(spec: Mapping[str, Any], path: Path, what: str, release: Release) -> list[FieldError]:
    sel = spec.get("selector")
    if not isinstance(sel, dict):
        return [required(path.child("selector"), "")]
    errs = validate_label_selector(sel, path.child("selector"), release)
    if selector_empty(sel):
        errs.append(invalid(path.child("selector"), go_label_selector(sel), f"empty selector is invalid for {what}"))
    return errs


def validate_deployment_spec(spec: Mapping[str, Any], path: Path, release: Release) -> list[FieldError]:
    """Upstream ``ValidateDeploymentSpec``."""
    errs = nonnegative(i(spec.get("replicas")), path.child("replicas"))
    errs.extend(_strict_selector(spec, path, "deployment", release))
    sel = spec.get("selector")
    if not selector_ok(sel, release):
        errs.append(invalid(path.child("selector"), go_label_selector(sel), "invalid label selector"))
    else:
        errs.extend(_template_for_replicas(spec.get("template"), sel, path.child("template"), "ReplicaSet", release))
    strategy = m(spec.get("strategy"))
    sp = path.child("strategy")
    stype = s(strategy.get("type"))
    ru = strategy.get("rollingUpdate")
    if stype == "Recreate":
        if ru is not None:
            errs.append(forbidden(sp.child("rollingUpdate"), "may not be specified when strategy `type` is 'Recreate'"))
    elif stype == "RollingUpdate":
        if not isinstance(ru, dict):
            errs.append(required(sp.child("rollingUpdate"), "this should be defaulted and never be nil"))
        else:
            rp = sp.child("rollingUpdate")
            mu, ms = ru.get("maxUnavailable"), ru.get("maxSurge")
            errs.extend(validate_positive_int_or_percent(mu, rp.child("maxUnavailable")))
            errs.extend(validate_positive_int_or_percent(ms, rp.child("maxSurge")))
            if get_int_or_percent_value(mu) == 0 and get_int_or_percent_value(ms) == 0:
                errs.append(invalid(rp.child("maxUnavailable"), go_int_or_string(mu if mu is not None else 0), "may not be 0 when `maxSurge` is 0"))
            errs.extend(is_not_more_than_100_percent(mu, rp.child("maxUnavailable")))
    else:
        errs.append(not_supported(sp, strategy, ("Recreate", "RollingUpdate")))
    mrs = i(spec.get("minReadySeconds"))
    errs.extend(nonnegative(mrs, path.child("minReadySeconds")))
    if spec.get("revisionHistoryLimit") is not None:
        errs.extend(nonnegative(i(spec.get("revisionHistoryLimit")), path.child("revisionHistoryLimit")))
    pds = spec.get("progressDeadlineSeconds")
    if pds is not None:
        errs.extend(nonnegative(i(pds), path.child("progressDeadlineSeconds")))
        if i(pds) <= mrs:
            errs.append(invalid(path.child("progressDeadlineSeconds"), go_pointer(i(pds)), "must be greater than minReadySeconds"))
    return errs


def validate_deployment(obj: Mapping[str, Any], release: Release) -> list[FieldError]:
    """Upstream ``ValidateDeployment``."""
    errs = validate_object_meta_core(obj.get("metadata"), True, validate_deployment_name, _METADATA, release)
    errs.extend(validate_deployment_spec(m(obj.get("spec")), Path("spec"), release))
    return errs


def validate_replica_set(obj: Mapping[str, Any], release: Release) -> list[FieldError]:
    """Upstream ``ValidateReplicaSet`` → ``ValidateReplicaSetSpec``."""
    errs = validate_object_meta_core(obj.get("metadata"), True, validate_replica_set_name, _METADATA, release)
    spec, path = m(obj.get("spec")), Path("spec")
    errs.extend(nonnegative(i(spec.get("replicas")), path.child("replicas")))
    errs.extend(nonnegative(i(spec.get("minReadySeconds")), path.child("minReadySeconds")))
    errs.extend(_strict_selector(spec, path, "deployment", release))
    sel = spec.get("selector")
    if not selector_ok(sel, release):
        errs.append(invalid(path.child("selector"), go_label_selector(sel), "invalid label selector"))
    else:
        errs.extend(_template_for_replicas(spec.get("template"), sel, path.child("template"), "ReplicaSet", release))
    return errs


def validate_daemon_set(obj: Mapping[str, Any], release: Release) -> list[FieldError]:
    """Upstream ``ValidateDaemonSet`` → ``ValidateDaemonSetSpec``."""
    errs = validate_object_meta_core(obj.get("metadata"), True, validate_daemon_set_name, _METADATA, release)
    spec, path = m(obj.get("spec")), Path("spec")
    sel = spec.get("selector")
    errs.extend(validate_label_selector(sel, path.child("selector"), release))
    template = m(spec.get("template"))
    labels = m(m(template.get("metadata")).get("labels"))
    if selector_ok(sel, release) and not selector_matches(sel, labels):
        errs.append(invalid(path.child("template", "metadata", "labels"), go_labels(m(template.get("metadata")).get("labels")), "`selector` does not match template `labels`"))
    if isinstance(sel, dict) and selector_empty(sel):
        errs.append(invalid(path.child("selector"), go_label_selector(sel), "empty selector is invalid for daemonset"))
    errs.extend(validate_pod_template_spec(template, path.child("template"), release))
    tspec = m(template.get("spec"))
    rp = s(tspec.get("restartPolicy"))
    if rp != "Always":
        errs.append(not_supported(path.child("template", "spec", "restartPolicy"), rp, ("Always",)))
    if tspec.get("activeDeadlineSeconds") is not None:
        errs.append(forbidden(path.child("template", "spec", "activeDeadlineSeconds"), "activeDeadlineSeconds in DaemonSet is not Supported"))
    errs.extend(nonnegative(i(spec.get("minReadySeconds")), path.child("minReadySeconds")))
    errs.extend(nonnegative(i(spec.get("templateGeneration")), path.child("templateGeneration")))
    strategy = m(spec.get("updateStrategy"))
    up = path.child("updateStrategy")
    stype = s(strategy.get("type"))
    if stype == "RollingUpdate":
        ru = strategy.get("rollingUpdate")
        if not isinstance(ru, dict):
            errs.append(required(up.child("rollingUpdate"), ""))
        else:
            rp_ = up.child("rollingUpdate")
            mu, ms = ru.get("maxUnavailable"), ru.get("maxSurge")
            errs.extend(validate_positive_int_or_percent(mu, rp_.child("maxUnavailable")))
            errs.extend(validate_positive_int_or_percent(ms, rp_.child("maxSurge")))
            errs.extend(is_not_more_than_100_percent(mu, rp_.child("maxUnavailable")))
            errs.extend(is_not_more_than_100_percent(ms, rp_.child("maxSurge")))
            has_u, has_s = get_int_or_percent_value(mu) != 0, get_int_or_percent_value(ms) != 0
            if has_u and has_s:
                errs.append(invalid(rp_.child("maxSurge"), go_int_or_string(ms), "may not be set when maxUnavailable is non-zero"))
            elif not has_u and not has_s:
                errs.append(required(rp_.child("maxUnavailable"), "cannot be 0 when maxSurge is 0"))
    elif stype != "OnDelete":
        errs.append(not_supported(up, strategy, ("RollingUpdate", "OnDelete")))
    if spec.get("revisionHistoryLimit") is not None:
        errs.extend(nonnegative(i(spec.get("revisionHistoryLimit")), path.child("revisionHistoryLimit")))
    return errs


def validate_stateful_set(obj: Mapping[str, Any], release: Release) -> list[FieldError]:
    """Upstream ``ValidateStatefulSet`` → ``ValidateStatefulSetSpec`` (create: service name checked; the pod
    template per :data:`APPS_CHANGES`)."""
    errs = validate_object_meta_core(obj.get("metadata"), True, validate_stateful_set_name, _METADATA, release)
    spec, path = m(obj.get("spec")), Path("spec")
    pmp = s(spec.get("podManagementPolicy"))
    if not pmp:
        errs.append(required(path.child("podManagementPolicy"), ""))
    elif pmp not in ("OrderedReady", "Parallel"):
        errs.append(invalid(path.child("podManagementPolicy"), pmp, "must be 'OrderedReady' or 'Parallel'"))
    us = m(spec.get("updateStrategy"))
    ut = s(us.get("type"))
    ru = us.get("rollingUpdate")
    if not ut:
        errs.append(required(path.child("updateStrategy"), ""))
    elif ut == "OnDelete":
        if ru is not None:
            errs.append(invalid(path.child("updateStrategy").child("rollingUpdate"), go_rolling_update_stateful_set(ru), "only allowed for updateStrategy 'RollingUpdate'"))
    elif ut == "RollingUpdate":
        if isinstance(ru, dict):
            rp = path.child("updateStrategy", "rollingUpdate")
            errs.extend(nonnegative(i(ru.get("partition")), rp.child("partition")))
            mu = ru.get("maxUnavailable")
            if mu is not None:
                errs.extend(validate_positive_int_or_percent(mu, rp.child("maxUnavailable")))
                if get_int_or_percent_value(mu) == 0:
                    errs.append(invalid(rp.child("maxUnavailable"), go_int_or_string(mu), "cannot be 0"))
                errs.extend(is_not_more_than_100_percent(mu, rp.child("maxUnavailable")))
    else:
        errs.append(invalid(path.child("updateStrategy"), go_stateful_set_update_strategy(us), "must be 'RollingUpdate' or 'OnDelete'"))
    policy = spec.get("persistentVolumeClaimRetentionPolicy")
    if isinstance(policy, dict):
        pp = path.child("persistentVolumeClaimRetentionPolicy")
        for key in ("whenDeleted", "whenScaled"):
            v = s(policy.get(key))
            if v not in ("Retain", "Delete"):
                errs.append(not_supported(pp.child(key), v, ("Retain", "Delete")))
    vcts = lst(spec.get("volumeClaimTemplates"))
    full_template = release.minor >= APPS_CHANGES["statefulset-pod-template"]
    if full_template:
        for index, pvc in enumerate(vcts):
            errs.extend(validate_persistent_volume_claim_spec(m(m(pvc).get("spec")), path.child("volumeClaimTemplates").index(index).child("spec"), release))
    errs.extend(nonnegative(i(spec.get("replicas")), path.child("replicas")))
    errs.extend(nonnegative(i(spec.get("minReadySeconds")), path.child("minReadySeconds")))
    ordinals = spec.get("ordinals")
    if isinstance(ordinals, dict):
        errs.extend(nonnegative(i(ordinals.get("start")), path.child("ordinals.start")))
    svc = s(spec.get("serviceName"))
    if svc:
        errs.extend(invalid(path.child("serviceName"), svc, msg) for msg in is_dns1123_label(svc))
    sel = spec.get("selector")
    if not isinstance(sel, dict):
        errs.append(required(path.child("selector"), ""))
    else:
        errs.extend(validate_label_selector(sel, path.child("selector"), release))
        if selector_empty(sel):
            errs.append(invalid(path.child("selector"), go_label_selector(sel), "empty selector is invalid for statefulset"))
    template = m(spec.get("template"))
    if not selector_ok(sel, release):
        errs.append(invalid(path.child("selector"), go_label_selector(sel), ""))
    else:
        tspec = dict(m(template.get("spec")))
        if tspec.get("subdomain") or tspec.get("hostname") or vcts:
            tspec.pop("subdomain", None)
            tspec.pop("hostname", None)
            if vcts:
                claim_vols = {}
                for pvc in vcts:
                    name = s(m(m(pvc).get("metadata")).get("name"))
                    claim_vols[name] = {"name": name, "persistentVolumeClaim": {"claimName": name}}
                # upstream ranges over a Go map here: the claims' order is random; kept in template order
                vols = list(claim_vols.values())
                vols.extend(v for v in lst(tspec.get("volumes")) if s(m(v).get("name")) not in claim_vols)
                tspec["volumes"] = vols
        tpath = path.child("template")
        labels = m(m(template.get("metadata")).get("labels"))
        if not selector_empty(sel) and not selector_matches(sel, labels):
            errs.append(invalid(tpath.child("metadata", "labels"), go_labels(m(template.get("metadata")).get("labels")), "`selector` does not match template `labels`"))
        if full_template:
            errs.extend(validate_pod_template_spec({**template, "spec": tspec}, tpath, release))
        annotations = m(m(template.get("metadata")).get("annotations"))
        if labels:
            errs.extend(validate_labels(labels, tpath.child("labels"), release))
        if annotations:
            errs.extend(validate_annotations(annotations, tpath.child("annotations"), release))
            errs.extend(validate_pod_specific_annotations(annotations, m(template.get("spec")), tpath.child("annotations")))
    tspec0 = m(template.get("spec"))
    rp0 = s(tspec0.get("restartPolicy"))
    if rp0 != "Always":
        errs.append(not_supported(path.child("template", "spec", "restartPolicy"), rp0, ("Always",)))
    if tspec0.get("activeDeadlineSeconds") is not None:
        errs.append(forbidden(path.child("template", "spec", "activeDeadlineSeconds"), "activeDeadlineSeconds in StatefulSet is not Supported"))
    return errs


def deployment_name_warnings(obj: Mapping[str, Any]) -> list[str]:
    """The ``metadata.name`` warning of the Deployment, ReplicaSet, StatefulSet and DaemonSet strategies'
    ``WarningsOnCreate``: a name that is not a DNS label."""
    name = s(m(obj.get("metadata")).get("name"))
    msgs = is_dns1123_label(name)
    if not msgs:
        return []
    return [f"metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: [{' '.join(msgs)}]"]
