"""The Job create strategy: ``pkg/registry/batch/job/strategy.go`` (1.30 … 1.36).

``PrepareForCreate`` generates the selector and the template labels from the Job's name and uid
(``generateSelector``); the uid is the one ``rest.FillObjectMetaSystemFields`` gives the object before, or
:data:`PLACEHOLDER_UID` when the object has none (crdtool creates nothing). Fields of disabled gates are
dropped per release: ``managedBy`` (``JobManagedBy``: Alpha off in 1.30/1.31, Beta on from 1.32) and
``successPolicy`` (``JobSuccessPolicy``: Alpha off in 1.30, Beta on from 1.31).
"""

from __future__ import annotations

from typing import Any

from crdtool.core.apis.apps.validation import deployment_name_warnings
from crdtool.core.apis.batch.validation import validate_job
from crdtool.core.apis.batch.validation import job_spec_warnings
from crdtool.core.apis.core.podutil import dig, drop_disabled_template_fields
from crdtool.core.errors import FieldError, Path
from crdtool.core.registry._common import meta, rel, reset_status, set_generation

#: The uid a Job is given when the object carries none (what ``FillObjectMetaSystemFields`` would generate).
PLACEHOLDER_UID = "00000000-0000-0000-0000-000000000000"
#: First minor where each gate is on by default (``pkg/features/kube_features.go``).
JOB_GATES = {"JobManagedBy": 32, "JobSuccessPolicy": 31}


def _labels(template: dict[str, Any]) -> dict[str, Any]:
    md = template.get("metadata")
    if not isinstance(md, dict):
        md = template["metadata"] = {}
    labels = md.get("labels")
    if not isinstance(labels, dict):
        labels = md["labels"] = {}
    return labels


def generate_selector(obj: dict[str, Any]) -> None:
    """Upstream ``generateSelector``."""
    md = meta(obj)
    spec = obj.setdefault("spec", {})
    template = spec.get("template")
    if not isinstance(template, dict):
        template = spec["template"] = {}
    labels = _labels(template)
    name, uid = md.get("name") or "", md.get("uid") or ""
    for key in ("job-name", "batch.kubernetes.io/job-name"):
        labels.setdefault(key, name)
    for key in ("controller-uid", "batch.kubernetes.io/controller-uid"):
        labels.setdefault(key, uid)
    sel = spec.get("selector")
    if not isinstance(sel, dict):
        sel = spec["selector"] = {}
    ml = sel.get("matchLabels")
    if not isinstance(ml, dict):
        ml = sel["matchLabels"] = {}
    ml.setdefault("batch.kubernetes.io/controller-uid", uid)


def prepare_for_create(obj: dict[str, Any], release: Any) -> None:
    """``PrepareForCreate``; ``DropDisabledTemplateFields``."""
    r = rel(release)
    md = meta(obj)
    if not md.get("uid"):
        md["uid"] = PLACEHOLDER_UID
    spec = obj.setdefault("spec", {})
    if spec.get("manualSelector") is not True:
        generate_selector(obj)
    reset_status(obj)
    set_generation(obj)
    if r.minor < JOB_GATES["JobManagedBy"]:
        spec.pop("managedBy", None)
    if r.minor < JOB_GATES["JobSuccessPolicy"]:
        spec.pop("successPolicy", None)
    drop_disabled_template_fields(dig(obj, "spec", "template"), rel(release))


def validate(obj: dict[str, Any], release: Any, version: str = "") -> list[FieldError]:
    """``Validate``: ``ValidateJob`` with ``RequirePrefixedLabels``."""
    return validate_job(obj, rel(release))


def warnings_on_create(obj: dict[str, Any], release: Any, version: str = "") -> list[str]:
    """``WarningsOnCreate``: the name warning and ``WarningsForJobSpec``."""
    spec = obj.get("spec")
    return deployment_name_warnings(obj) + job_spec_warnings(spec if isinstance(spec, dict) else {}, Path("spec"), rel(release))
