"""The Pod create strategy: ``pkg/registry/core/pod/strategy.go`` (1.30 … 1.36); pods reach bundles as Helm
test hooks. Admission (the ServiceAccount plugin's ``serviceAccountName`` and token volume) is not emulated."""

from __future__ import annotations

from typing import Any

from crdtool.core.apis.core.validation import pod_qos_class, validate_pod_create
from crdtool.core.apis.core.warnings import app_armor_version_skew, pod_template_warnings
from crdtool.core.apis.core.podutil import drop_disabled_pod_spec_fields
from crdtool.core.errors import FieldError, Path
from crdtool.core.registry._common import rel, set_generation


def prepare_for_create(obj: dict[str, Any], release: Any) -> list[str]:
    """``PrepareForCreate``: generation 1, status ``Pending`` with the QoS class, then ``DropDisabledPodFields``
    (the QoS class is computed before the drop, as upstream does), then ``applyAppArmorVersionSkew`` (the
    scheduling-gated condition and the matchLabelKeys selector merges are not ported). Returns the warnings
    upstream adds to the request here."""
    set_generation(obj)
    spec = obj.get("spec")
    obj["status"] = {"phase": "Pending", "qosClass": pod_qos_class(spec if isinstance(spec, dict) else {})}
    drop_disabled_pod_spec_fields(spec, rel(release))
    return app_armor_version_skew(obj)


def validate(obj: dict[str, Any], release: Any, version: str = "") -> list[FieldError]:
    """``Validate``: ``ValidatePodCreate``."""
    return validate_pod_create(obj, rel(release))


def warnings_on_create(obj: dict[str, Any], release: Any, version: str = "") -> list[str]:
    """``GetWarningsForPod``: the pod template warnings at the root path."""
    return pod_template_warnings(obj, Path(""), rel(release), is_template=False)
