"""CronTab conversion functions for ``crdtool fuzz-roundtrip`` (samples/crontab-multiversion-v1.yaml).

The contract ``crdtool fuzz-roundtrip`` tests is a conversion webhook's, for
one object: ``convert(obj: dict, desired_api_version: str) -> dict`` takes an
object at any served version (``obj["apiVersion"]`` says which) and returns
it at ``desired_api_version``, as a webhook converts each entry of a
ConversionReview's ``request.objects``. Raise to fail the conversion.

Two converters between ``stable.example.com/v1`` (``spec.cronSpec``, a cron
expression) and ``stable.example.com/v2`` (``spec.min``, ``hour``,
``dayOfMonth``, ``month``, ``dayOfWeek``):

* :func:`convert` is the KEP's ``crontab_conversion.go`` ported literally,
  including Go's decoding into structs (absent fields become ``""`` and are
  written back). It is not round-trip safe: a ``cronSpec`` that does not
  split into exactly five space-separated parts cannot be converted, v2
  fields containing spaces do not survive, and absent fields come back as
  empty strings::

      crdtool fuzz-roundtrip samples/crontab_conversion.py:convert --crd samples/crontab-multiversion-v1.yaml

* :func:`convert_lossless` converts what each version can hold and stashes
  the rest in an annotation of the converted object, which the conversion
  back restores and removes, so every round trip is exact::

      crdtool fuzz-roundtrip samples/crontab_conversion.py:convert_lossless --crd samples/crontab-multiversion-v1.yaml
"""

from __future__ import annotations

import copy
import json
from typing import Any

V1 = "stable.example.com/v1"
V2 = "stable.example.com/v2"
SCHEDULE_FIELDS = ("min", "hour", "dayOfMonth", "month", "dayOfWeek")


# --- the KEP's crontab_conversion.go, literally ------------------------------------------------------


def _unmarshal_v1(obj: dict[str, Any]) -> dict[str, Any]:
    """``json.Unmarshal`` into the Go ``v1.Crontab`` struct: unknown fields dropped, absent ones zero."""
    spec = obj.get("spec") or {}
    return {
        "apiVersion": obj.get("apiVersion") or "",
        "kind": obj.get("kind") or "",
        "metadata": obj.get("metadata") or {},
        "spec": {"cronSpec": spec.get("cronSpec") or "", "image": spec.get("image") or ""},
    }


def _unmarshal_v2(obj: dict[str, Any]) -> dict[str, Any]:
    """``json.Unmarshal`` into the Go ``v2.Crontab`` struct."""
    spec = obj.get("spec") or {}
    fields = {k: spec.get(k) or "" for k in (*SCHEDULE_FIELDS, "image")}
    return {
        "apiVersion": obj.get("apiVersion") or "",
        "kind": obj.get("kind") or "",
        "metadata": obj.get("metadata") or {},
        "spec": fields,
    }


def convert_cron_v1_to_v2(cron_v1: dict[str, Any]) -> dict[str, Any]:
    """``convertCronV1toV2``."""
    items = cron_v1["spec"]["cronSpec"].split(" ")
    if len(items) != 5:
        raise ValueError(f"invalid spec string, needs five parts: {cron_v1['spec']['cronSpec']}")
    return {
        "kind": cron_v1["kind"],
        "apiVersion": V2,
        "metadata": cron_v1["metadata"],
        "spec": {
            "image": cron_v1["spec"]["image"],
            "min": items[0],
            "hour": items[1],
            "dayOfMonth": items[2],
            "month": items[3],
            "dayOfWeek": items[4],
        },
    }


def convert_cron_v2_to_v1(cron_v2: dict[str, Any]) -> dict[str, Any]:
    """``convertCronV2toV1``."""
    spec = cron_v2["spec"]
    cronspec = spec["min"] + " "
    cronspec += spec["hour"] + " "
    cronspec += spec["dayOfMonth"] + " "
    cronspec += spec["month"] + " "
    cronspec += spec["dayOfWeek"]
    return {
        "kind": cron_v2["kind"],
        "apiVersion": V1,
        "metadata": cron_v2["metadata"],
        "spec": {"image": spec["image"], "cronSpec": cronspec},
    }


def convert(obj: dict[str, Any], desired_api_version: str) -> dict[str, Any]:
    """The KEP's ``convert``: dispatch on the object's apiVersion and the desired one."""
    in_api_version = obj.get("apiVersion")
    if in_api_version == V1:
        cron_v1 = _unmarshal_v1(obj)
        if desired_api_version == V1:
            # "This should not happened as API server will not call the webhook in this case"
            return obj
        if desired_api_version == V2:
            return convert_cron_v1_to_v2(cron_v1)
    elif in_api_version == V2:
        cron_v2 = _unmarshal_v2(obj)
        if desired_api_version == V2:
            return obj
        if desired_api_version == V1:
            return convert_cron_v2_to_v1(cron_v2)
    else:
        raise ValueError(f"invalid conversion fromVersion requested: {in_api_version}")
    raise ValueError(f"invalid conversion toVersion requested: {desired_api_version}")


# --- a lossless converter ----------------------------------------------------------------------------

#: On a v2 object: the v1 ``cronSpec`` that does not split into five fields.
STASH_CRONSPEC = "conversion.stable.example.com/v1-cronSpec"
#: On a v1 object: the v2 schedule fields (JSON) that do not join into one ``cronSpec``.
STASH_SCHEDULE = "conversion.stable.example.com/v2-schedule"


def convert_lossless(obj: dict[str, Any], desired_api_version: str) -> dict[str, Any]:
    """Convert between v1 and v2 without losing anything.

    A ``cronSpec`` of exactly five space-separated parts becomes the five v2
    fields and back; anything else (another number of parts, v2 fields with
    spaces or only some of them set) travels in an annotation of the
    converted object and is restored, and the annotation removed, by the
    conversion back. Absent fields stay absent.
    """
    source = obj.get("apiVersion")
    if source not in (V1, V2):
        raise ValueError(f"invalid conversion fromVersion requested: {source}")
    if desired_api_version not in (V1, V2):
        raise ValueError(f"invalid conversion toVersion requested: {desired_api_version}")
    out = copy.deepcopy(obj)
    if source == desired_api_version:
        return out
    out["apiVersion"] = desired_api_version
    metadata = out.setdefault("metadata", {})
    annotations = dict(metadata.get("annotations") or {})
    spec = out.get("spec")
    if isinstance(spec, dict):
        out["spec"] = _v1_to_v2(spec, annotations) if source == V1 else _v2_to_v1(spec, annotations)
    if annotations:
        metadata["annotations"] = annotations
    else:
        metadata.pop("annotations", None)  # ObjectMeta omits an empty map
    return out


def _v1_to_v2(spec: dict[str, Any], annotations: dict[str, str]) -> dict[str, Any]:
    new = {k: v for k, v in spec.items() if k != "cronSpec"}
    stashed = annotations.pop(STASH_SCHEDULE, None)
    if stashed is not None and "cronSpec" not in spec:
        new.update(json.loads(stashed))
        return new
    if "cronSpec" not in spec:
        return new
    parts = spec["cronSpec"].split(" ")
    if len(parts) == len(SCHEDULE_FIELDS):
        new.update(zip(SCHEDULE_FIELDS, parts))
    else:
        annotations[STASH_CRONSPEC] = spec["cronSpec"]
    return new


def _v2_to_v1(spec: dict[str, Any], annotations: dict[str, str]) -> dict[str, Any]:
    new = {k: v for k, v in spec.items() if k not in SCHEDULE_FIELDS}
    schedule = {k: spec[k] for k in SCHEDULE_FIELDS if k in spec}
    stashed = annotations.pop(STASH_CRONSPEC, None)
    if stashed is not None and not schedule:
        new["cronSpec"] = stashed
    elif len(schedule) == len(SCHEDULE_FIELDS) and not any(" " in v for v in schedule.values()):
        new["cronSpec"] = " ".join(schedule[k] for k in SCHEDULE_FIELDS)
    elif schedule:
        annotations[STASH_SCHEDULE] = json.dumps(schedule, sort_keys=True)
    return new
