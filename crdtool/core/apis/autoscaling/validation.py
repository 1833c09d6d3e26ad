"""Native validation of autoscaling/v2 (and v1): HorizontalPodAutoscaler.

Mirrors kubernetes/kubernetes ``pkg/apis/autoscaling/validation/validation.go`` (1.30 … 1.36, openshift/microshift
``release-4.17`` … ``release-4.23``). Per release (:data:`HPA_CHANGES`): the ``scaleTargetRef`` and object
metrics' ``apiVersion`` are checked from 1.34. ``minReplicas`` is at least 1 (gate ``HPAScaleToZero`` is
Alpha, off, in all of them). An autoscaling/v1 object is judged through its conversion to the internal type
(``targetCPUUtilizationPercentage`` becomes a cpu ``Utilization`` metric).
"""

from __future__ import annotations

from typing import Any, Mapping

from crdtool.core.apis._quantity import canonical_text
from crdtool.core.apis._util import go_pointer, i, lst, m, s
from crdtool.core.apis.core.validation import _quantity, validate_container_resource_name, validate_object_meta_core
from crdtool.core.errors import FieldError, Path, forbidden, go_typed, invalid, not_supported, required
from crdtool.core.releases import Release
from crdtool.core.validation_util import is_dns1123_label, is_path_segment_name, name_is_dns_subdomain

#: ``field.NewPath("metadata")``, built once (a Path is an immutable str).
_METADATA = Path("metadata")

#: ``"api-version-checked"``: ``ValidateCrossVersionObjectReference`` checks ``apiVersion``
#: (``validation.go`` @1.34, ``ValidateAPIVersion``).
HPA_CHANGES: dict[str, int] = {"api-version-checked": 34}
MAX_PERIOD_SECONDS = 1800
MAX_STABILIZATION_WINDOW_SECONDS = 3600
_METRIC_TYPES = ("ContainerResource", "External", "Object", "Pods", "Resource")
_SOURCE_FIELDS = (("Object", "object"), ("External", "external"), ("Pods", "pods"), ("Resource", "resource"), ("ContainerResource", "containerResource"))


def _api_version_error(api_version: str, allow_empty_group: bool) -> str | None:
    """``ValidateAPIVersion`` (``schema.ParseGroupVersion``)."""
    if api_version.count("/") > 1:
        return f"unexpected GroupVersion string: {api_version}"
    group = api_version.split("/")[0] if "/" in api_version else ""
    if not allow_empty_group and group == "":
        return "apiVersion must specify API group"
    return None


def _cross_version_ref(ref: Mapping[str, Any], path: Path, allow_empty_group: bool, release: Release) -> list[FieldError]:
    """Upstream ``ValidateCrossVersionObjectReference``."""
    errs: list[FieldError] = []
    for key in ("kind", "name"):
        v = s(ref.get(key))
        if not v:
            errs.append(required(path.child(key), ""))
        else:
            errs.extend(invalid(path.child(key), v, msg) for msg in is_path_segment_name(v))
    if release.minor >= HPA_CHANGES["api-version-checked"]:
        av = s(ref.get("apiVersion"))
        err = _api_version_error(av, allow_empty_group)
        if err is not None:
            errs.append(invalid(path.child("apiVersion"), av, err))
    return errs


def _metric_target(mt: Mapping[str, Any], path: Path) -> list[FieldError]:
    errs: list[FieldError] = []
    t = s(mt.get("type"))
    if not t:
        errs.append(required(path.child("type"), "must specify a metric target type"))
    if t not in ("Utilization", "Value", "AverageValue"):
        errs.append(invalid(path.child("type"), t, "must be either Utilization, Value, or AverageValue"))
    for key in ("value", "averageValue"):
        raw = mt.get(key)
        if raw is not None:
            q = _quantity(raw)
            if q is not None and q.sign() != 1:
                # a *resource.Quantity: JSON (quoted) from 1.34, its String() (a fmt.Stringer) before
                text = canonical_text(raw) or str(raw)
                errs.append(invalid(path.child(key), go_typed(text, text), "must be positive"))
    au = mt.get("averageUtilization")
    if au is not None and i(au) < 1:
        errs.append(invalid(path.child("averageUtilization"), go_pointer(i(au)), "must be greater than 0"))
    return errs


def _metric_identifier(mid: Mapping[str, Any], path: Path) -> list[FieldError]:
    name = s(mid.get("name"))
    if not name:
        return [required(path.child("name"), "must specify a metric name")]
    return [invalid(path.child("name"), name, msg) for msg in is_path_segment_name(name)]


def _source(kind: str, src: Mapping[str, Any], path: Path, release: Release) -> list[FieldError]:
    errs: list[FieldError] = []
    target = m(src.get("target"))
    tp = path.child("target")
    if kind == "object":
        errs.extend(_cross_version_ref(m(src.get("describedObject")), path.child("describedObject"), True, release))
        errs.extend(_metric_identifier(m(src.get("metric")), path.child("metric")))
        errs.extend(_metric_target(target, tp))
        if target.get("value") is None and target.get("averageValue") is None:
            errs.append(required(tp.child("averageValue"), "must set either a target value or averageValue"))
    elif kind == "external":
        errs.extend(_metric_identifier(m(src.get("metric")), path.child("metric")))
        errs.extend(_metric_target(target, tp))
        if target.get("value") is None and target.get("averageValue") is None:
            errs.append(required(tp.child("averageValue"), "must set either a target value for metric or a per-pod target"))
        if target.get("value") is not None and target.get("averageValue") is not None:
            errs.append(forbidden(tp.child("value"), "may not set both a target value for metric and a per-pod target"))
    elif kind == "pods":
        errs.extend(_metric_identifier(m(src.get("metric")), path.child("metric")))
        errs.extend(_metric_target(target, tp))
        if target.get("averageValue") is None:
            errs.append(required(tp.child("averageValue"), "must specify a positive target averageValue"))
    else:
        name = s(src.get("name"))
        if kind == "containerResource":
            if not name:
                errs.append(required(path.child("name"), "must specify a resource name"))
            else:
                errs.extend(validate_container_resource_name(name, path.child("name"), release))
            container = s(src.get("container"))
            if not container:
                errs.append(required(path.child("container"), "must specify a container"))
            else:
                errs.extend(invalid(path.child("container"), container, msg) for msg in is_dns1123_label(container))
        elif not name:
            errs.append(required(path.child("name"), "must specify a resource name"))
        errs.extend(_metric_target(target, tp))
        if target.get("averageUtilization") is None and target.get("averageValue") is None:
            errs.append(required(tp.child("averageUtilization"), "must set either a target raw value or a target utilization"))
        if target.get("averageUtilization") is not None and target.get("averageValue") is not None:
            errs.append(forbidden(tp.child("averageValue"), "may not set both a target raw value and a target utilization"))
    return errs


def _metric_spec(spec: Mapping[str, Any], path: Path, release: Release) -> list[FieldError]:
    """Upstream ``validateMetricSpec``."""
    errs: list[FieldError] = []
    t = s(spec.get("type"))
    if not t:
        errs.append(required(path.child("type"), "must specify a metric source type"))
    if t not in _METRIC_TYPES:
        errs.append(not_supported(path.child("type"), t, _METRIC_TYPES))
    present: list[str] = []
    for _, key in _SOURCE_FIELDS:
        if isinstance(spec.get(key), dict):
            present.append(key)
            if len(present) == 1:
                errs.extend(_source(key, spec[key], path.child(key), release))
    expected = ""
    match = dict(_SOURCE_FIELDS).get(t)
    if match is not None:
        if not isinstance(spec.get(match), dict):
            errs.append(required(path.child(match), "must populate information for the given metric source"))
        expected = match
    else:
        errs.append(not_supported(path.child("type"), t, _METRIC_TYPES))
    if len(present) != 1:
        # upstream ranges over a Go set: the order is random; kept in declaration order here
        for typ in present:
            if typ != expected:
                errs.append(forbidden(path.child(typ), "must populate the given metric source only"))
    return errs


def _scaling_rules(rules: Any, path: Path, release: Release) -> list[FieldError]:
    if not isinstance(rules, dict):
        return []
    errs: list[FieldError] = []
    sws = rules.get("stabilizationWindowSeconds")
    if sws is not None and i(sws) < 0:
        errs.append(invalid(path.child("stabilizationWindowSeconds"), go_pointer(i(sws)), "must be greater than or equal to zero"))
    if sws is not None and i(sws) > MAX_STABILIZATION_WINDOW_SECONDS:
        errs.append(invalid(path.child("stabilizationWindowSeconds"), go_pointer(i(sws)), f"must be less than or equal to {MAX_STABILIZATION_WINDOW_SECONDS}"))
    sp = rules.get("selectPolicy")
    if isinstance(sp, str) and sp not in ("Disabled", "Max", "Min"):
        errs.append(not_supported(path.child("selectPolicy"), sp, ("Disabled", "Max", "Min")))
    policies = lst(rules.get("policies"))
    if not policies:
        errs.append(required(path.child("policies"), "must specify at least one Policy"))
    for index, policy in enumerate(policies):
        policy = m(policy)
        pp = path.child("policies").index(index)
        pt = s(policy.get("type"))
        if pt not in ("Pods", "Percent"):
            errs.append(not_supported(pp.child("type"), pt, ("Percent", "Pods")))
        if i(policy.get("value")) <= 0:
            errs.append(invalid(pp.child("value"), i(policy.get("value")), "must be greater than zero"))
        ps = i(policy.get("periodSeconds"))
        if ps <= 0:
            errs.append(invalid(pp.child("periodSeconds"), ps, "must be greater than zero"))
        if ps > MAX_PERIOD_SECONDS:
            errs.append(invalid(pp.child("periodSeconds"), ps, f"must be less than or equal to {MAX_PERIOD_SECONDS}"))
    return errs


def v1_to_v2_spec(spec: Mapping[str, Any]) -> dict[str, Any]:
    """The internal spec of an autoscaling/v1 HPA (``Convert_v1_HorizontalPodAutoscalerSpec_To_...``)."""
    out = {k: v for k, v in spec.items() if k in ("scaleTargetRef", "minReplicas", "maxReplicas")}
    cpu = spec.get("targetCPUUtilizationPercentage")
    if cpu is not None:
        out["metrics"] = [{"type": "Resource", "resource": {"name": "cpu", "target": {"type": "Utilization", "averageUtilization": cpu}}}]
    return out


def validate_horizontal_pod_autoscaler(obj: Mapping[str, Any], release: Release) -> list[FieldError]:
    """Upstream ``ValidateHorizontalPodAutoscaler`` with the strategy's create options."""
    errs = validate_object_meta_core(obj.get("metadata"), True, name_is_dns_subdomain, _METADATA, release)
    spec = m(obj.get("spec"))
    if s(obj.get("apiVersion")) == "autoscaling/v1":
        spec = v1_to_v2_spec(spec)
    path = Path("spec")
    min_r = spec.get("minReplicas")
    max_r = i(spec.get("maxReplicas"))
    if min_r is not None and i(min_r) < 1:
        errs.append(invalid(path.child("minReplicas"), i(min_r), "must be greater than or equal to 1"))
    if max_r == 0:
        errs.append(required(path.child("maxReplicas"), "must be set and greater than 0"))
    elif max_r < 0:
        errs.append(invalid(path.child("maxReplicas"), max_r, "must be greater than or equal to 1"))
    if min_r is not None and max_r < i(min_r):
        errs.append(invalid(path.child("maxReplicas"), max_r, "must be greater than or equal to `minReplicas`"))
    ref = m(spec.get("scaleTargetRef"))
    errs.extend(_cross_version_ref(ref, path.child("scaleTargetRef"), s(ref.get("kind")) == "ReplicationController", release))
    has_obj_or_ext = False
    for index, metric in enumerate(lst(spec.get("metrics"))):
        metric = m(metric)
        errs.extend(_metric_spec(metric, path.child("metrics").index(index), release))
        if s(metric.get("type")) in ("Object", "External"):
            has_obj_or_ext = True
    if min_r is not None and i(min_r) == 0 and not has_obj_or_ext:
        errs.append(forbidden(path.child("metrics"), "must specify at least one Object or External metric to support scaling to zero replicas"))
    behavior = spec.get("behavior")
    if isinstance(behavior, dict):
        errs.extend(_scaling_rules(behavior.get("scaleUp"), path.child("behavior", "scaleUp"), release))
        errs.extend(_scaling_rules(behavior.get("scaleDown"), path.child("behavior", "scaleDown"), release))
    return errs
