"""The CronJob create strategy: ``pkg/registry/batch/cronjob/strategy.go`` (1.30 … 1.36)."""

from __future__ import annotations

from typing import Any

from crdtool.core.apis.apps.validation import deployment_name_warnings
from crdtool.core.apis.batch.validation import validate_cron_job_create
from crdtool.core.apis.batch.validation import job_spec_warnings
from crdtool.core.apis.core.podutil import dig, drop_disabled_template_fields
from crdtool.core.errors import FieldError, Path
from crdtool.core.registry._common import rel, reset_status, set_generation


def prepare_for_create(obj: dict[str, Any], release: Any) -> None:
    """``PrepareForCreate``: status cleared, generation 1; ``DropDisabledTemplateFields``."""
    reset_status(obj)
    set_generation(obj)
    drop_disabled_template_fields(dig(obj, "spec", "jobTemplate", "spec", "template"), rel(release))


def validate(obj: dict[str, Any], release: Any, version: str = "") -> list[FieldError]:
    """``Validate``: ``ValidateCronJobCreate``."""
    return validate_cron_job_create(obj, rel(release))


def warnings_on_create(obj: dict[str, Any], release: Any, version: str = "") -> list[str]:
    """``WarningsOnCreate``: the name warning and ``WarningsForJobSpec`` of the job template."""
    spec = obj.get("spec")
    jt = spec.get("jobTemplate") if isinstance(spec, dict) else None
    jspec = jt.get("spec") if isinstance(jt, dict) else None
    return deployment_name_warnings(obj) + job_spec_warnings(jspec if isinstance(jspec, dict) else {}, Path("spec", "jobTemplate", "spec"), rel(release))
