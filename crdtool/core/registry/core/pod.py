"""The Pod create strategy: ``pkg/registry/core/pod/strategy.go`` (1.30 … 1.36); pods reach bundles as Helm
test hooks. Admission (the ServiceAccount plugin's ``serviceAccountName`` and token volume) is not emulated."""

from __future__ import annotations

from typing import Any

from crdtool.core.apis.core.validation import MATCH_LABEL_KEYS_SELECTOR_MERGE_SINCE, pod_qos_class, validate_pod_create
from crdtool.core.apis.core.warnings import app_armor_version_skew, pod_template_warnings
from crdtool.core.apis.core.podutil import drop_disabled_pod_spec_fields, pod_gate
from crdtool.core.errors import FieldError, Path
from crdtool.core.registry._common import rel, set_generation


def prepare_for_create(obj: dict[str, Any], release: Any) -> list[str]:
    """``PrepareForCreate``: generation 1, status ``Pending`` with the QoS class, then ``DropDisabledPodFields``
    (the QoS class is computed before the drop, as upstream does), ``mutatePodAffinity``,
    ``mutateTopologySpreadConstraints``, then ``applyAppArmorVersionSkew`` (the scheduling-gated condition is not
    ported). Returns the warnings upstream adds to the request here."""
    set_generation(obj)
    spec = obj.get("spec")
    obj["status"] = {"phase": "Pending", "qosClass": pod_qos_class(spec if isinstance(spec, dict) else {})}
    drop_disabled_pod_spec_fields(spec, rel(release))
    if isinstance(spec, dict):
        labels = obj.get("metadata", {}).get("labels") if isinstance(obj.get("metadata"), dict) else None
        labels = labels if isinstance(labels, dict) else {}
        if pod_gate("MatchLabelKeysInPodAffinity", rel(release)):
            _mutate_pod_affinity(spec, labels)
        if rel(release).minor >= MATCH_LABEL_KEYS_SELECTOR_MERGE_SINCE:
            _mutate_topology_spread_constraints(spec, labels)
    return app_armor_version_skew(obj)


def _apply_label_keys(selector: dict[str, Any], keys: Any, operator: str, labels: dict[str, Any]) -> None:
    """Upstream ``applyLabelKeysToLabelSelector``: a requirement per key the pod has a label for."""
    for key in keys if isinstance(keys, list) else []:
        if isinstance(key, str) and key in labels:
            exprs = selector.get("matchExpressions")
            if not isinstance(exprs, list):
                exprs = selector["matchExpressions"] = []
            exprs.append({"key": key, "operator": operator, "values": [labels[key]]})


def _mutate_pod_affinity(spec: dict[str, Any], labels: dict[str, Any]) -> None:
    """Upstream ``mutatePodAffinity`` / ``applyMatchLabelKeysAndMismatchLabelKeys`` (MatchLabelKeysInPodAffinity on,
    1.31+): the keys become requirements of the term's label selector."""
    affinity = spec.get("affinity")
    if not isinstance(affinity, dict):
        return
    for kind in ("podAffinity", "podAntiAffinity"):
        section = affinity.get(kind)
        if not isinstance(section, dict):
            continue
        preferred = [w.get("podAffinityTerm") for w in section.get("preferredDuringSchedulingIgnoredDuringExecution") or [] if isinstance(w, dict)]
        required = list(section.get("requiredDuringSchedulingIgnoredDuringExecution") or [])
        for term in preferred + required:
            if not isinstance(term, dict) or not isinstance(term.get("labelSelector"), dict):
                continue
            _apply_label_keys(term["labelSelector"], term.get("matchLabelKeys"), "In", labels)
            _apply_label_keys(term["labelSelector"], term.get("mismatchLabelKeys"), "NotIn", labels)


def _mutate_topology_spread_constraints(spec: dict[str, Any], labels: dict[str, Any]) -> None:
    """Upstream ``mutateTopologySpreadConstraints`` / ``applyMatchLabelKeys`` (the selector merge, 1.34+)."""
    for constraint in spec.get("topologySpreadConstraints") or []:
        if isinstance(constraint, dict) and isinstance(constraint.get("labelSelector"), dict):
            _apply_label_keys(constraint["labelSelector"], constraint.get("matchLabelKeys"), "In", labels)


def validate(obj: dict[str, Any], release: Any, version: str = "") -> list[FieldError]:
    """``Validate``: ``ValidatePodCreate``."""
    return validate_pod_create(obj, rel(release))


def warnings_on_create(obj: dict[str, Any], release: Any, version: str = "") -> list[str]:
    """``GetWarningsForPod``: the pod template warnings at the root path."""
    return pod_template_warnings(obj, Path(""), rel(release), is_template=False)
