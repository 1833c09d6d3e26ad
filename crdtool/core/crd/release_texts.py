"""Detail texts of CRD validation errors that changed between Kubernetes releases.

One table, keyed by a short name of the error; each entry lists ``(first release, text)`` steps, oldest
first, and the last step at or before the release applies. The error's type and field path never change
with these texts; the upstream line is cited per entry (``pkg/apis/apiextensions/validation/validation.go``
of k8s.io/apiextensions-apiserver unless said otherwise).
"""

from __future__ import annotations

from crdtool.core.releases import Release

__all__ = ["TEXTS", "text"]

TEXTS: dict[str, tuple[tuple[int, str], ...]] = {
    # validateCustomResourceDefinitionVersion: field.Invalid(fldPath.Child("selectableFields"), "", ...)
    # (v0.33.13 -> v0.34.0)
    "version.selectableFields": (
        (30, "selectableFields may only be set when version.schema.openAPIV3Schema is not included"),
        (34, "may only be set when `version.schema.openAPIV3Schema` is not included"),
    ),
    # validateCustomResourceDefinitionSpec: field.Invalid(fldPath.Child("selectableFields"), "", ...)
    "spec.selectableFields": (
        (30, "selectableFields may only be set when validations.schema is included"),
        (34, "may only be set when validations.schema is included"),
    ),
    # validateCustomResourceDefinitionSpec, requireOpenAPISchema: field.Required(...schema.openAPIV3Schema, ...)
    "version.schema.required": ((30, "schemas are required"), (34, "")),
    # ValidateCustomResourceDefinitionOpenAPISchema, x-kubernetes-validations[i].message / fieldPath
    "rule.message.empty": ((30, "message must be non-empty if specified"), (34, "must be non-empty if specified")),
    "rule.message.newlines": ((30, "message must not contain line breaks"), (34, "must not contain line breaks")),
    "rule.fieldPath.empty": ((30, "fieldPath must be non-empty if specified"), (34, "must be non-empty if specified")),
    "rule.fieldPath.newlines": ((30, "fieldPath must not contain line breaks"), (34, "must not contain line breaks")),
    "rule.fieldPath.invalid": ((30, "fieldPath must be a valid path"), (34, "must be a valid path")),
    # ValidateCustomResourceDefinitionStoredVersions: field.Invalid(fldPath.Index(i), v, ...) (v0.32.13 -> v0.33.0);
    # "{v}" is the stored version
    "storedVersions.missing": (
        (30, "must appear in spec.versions"),
        (33, "missing from spec.versions; {v} was previously a storage version, and must remain in spec.versions "
             "until a storage migration ensures no data remains persisted in {v} and removes {v} from "
             "status.storedVersions"),
    ),
}


def text(key: str, release: Release, **values: str) -> str:
    """The detail text ``key`` has in ``release`` (``values`` fill its ``{placeholders}``); KeyError if unknown."""
    chosen = ""
    for since, detail in TEXTS[key]:
        if release.at_least(since):
            chosen = detail
    return chosen.format(**values) if values else chosen
