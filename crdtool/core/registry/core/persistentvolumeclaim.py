"""The PersistentVolumeClaim create strategy: ``pkg/registry/core/persistentvolumeclaim/strategy.go`` with
``pkg/api/persistentvolumeclaim/util.go`` (1.30 … 1.36)."""

from __future__ import annotations

from typing import Any

from crdtool.core.apis._util import s
from crdtool.core.apis.core.validation import VOLUME_ATTRIBUTES_CLASS_SINCE, validate_persistent_volume_claim
from crdtool.core.apis.core.warnings import pvc_warnings
from crdtool.core.errors import FieldError
from crdtool.core.registry._common import rel, reset_status


def _pvc_or_snapshot(ds: Any) -> bool:
    """``dataSourceIsPvcOrSnapshot``."""
    if not isinstance(ds, dict):
        return False
    kind, group = s(ds.get("kind")), s(ds.get("apiGroup"))
    return (kind == "PersistentVolumeClaim" and group == "") or (kind == "VolumeSnapshot" and group == "snapshot.storage.k8s.io")


def prepare_for_create(obj: dict[str, Any], release: Any) -> None:
    """``PrepareForCreate``: status cleared; ``DropDisabledFields`` (``volumeAttributesClassName`` while
    VolumeAttributesClass is off, before 1.34; a ``dataSourceRef`` with a namespace, CrossNamespaceVolumeDataSource
    being Alpha off through 1.36); ``EnforceDataSourceBackwardsCompatibility`` (without a ``dataSourceRef``, a
    ``dataSource`` other than a PVC or a VolumeSnapshot is dropped); ``NormalizeDataSources`` (AnyVolumeDataSource
    on: each of ``dataSource``/``dataSourceRef`` copied from the other when missing)."""
    reset_status(obj)
    spec = obj.get("spec")
    if not isinstance(spec, dict):
        return
    if rel(release).minor < VOLUME_ATTRIBUTES_CLASS_SINCE:
        spec.pop("volumeAttributesClassName", None)
    dsr = spec.get("dataSourceRef")
    if isinstance(dsr, dict) and s(dsr.get("namespace")):
        spec.pop("dataSourceRef")
    if spec.get("dataSourceRef") is None and not _pvc_or_snapshot(spec.get("dataSource")):
        spec.pop("dataSource", None)
    ds, dsr = spec.get("dataSource"), spec.get("dataSourceRef")
    if isinstance(ds, dict) and dsr is None:
        spec["dataSourceRef"] = {k: ds[k] for k in ("apiGroup", "kind", "name") if ds.get(k) is not None}
    elif isinstance(dsr, dict) and ds is None and not s(dsr.get("namespace")):
        spec["dataSource"] = {k: dsr[k] for k in ("apiGroup", "kind", "name") if dsr.get(k) is not None}


def validate(obj: dict[str, Any], release: Any, version: str = "") -> list[FieldError]:
    """``Validate``: ``ValidatePersistentVolumeClaim``."""
    return validate_persistent_volume_claim(obj, rel(release))


def warnings_on_create(obj: dict[str, Any], release: Any, version: str = "") -> list[str]:
    """``GetWarningsForPersistentVolumeClaim``."""
    return pvc_warnings(obj)
