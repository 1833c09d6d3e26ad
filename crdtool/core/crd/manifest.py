"""The whole CREATE path of a CRD manifest, as kube-apiserver runs it.

One function per step, each mirroring upstream:

1. strict decoding at the manifest's apiVersion (``decode.decode_crd``: unknown
   fields and wrong types, as server-side field validation ``Strict`` reports);
2. that version's ``SetDefaults`` (``defaults.default_crd``);
3. conversion to the internal type (``conversion.to_internal``);
4. the registry strategy's ``PrepareForCreate`` and ``Validate``
   (``validation.validate_crd_create``), which returns errors and warnings;
5. mapping each error path from the internal type back to the manifest the
   user wrote (``conversion.manifest_path``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from crdtool.core.errors import UNMARSHAL_TYPE, FieldError, duplicate_field, errors_at_release

#: Server-side field validation directives (``metav1.FieldValidation*``).
FIELD_VALIDATION_DIRECTIVES = ("Strict", "Warn", "Ignore")

V1 = "apiextensions.k8s.io/v1"
V1BETA1 = "apiextensions.k8s.io/v1beta1"
CRD_API_VERSIONS = (V1, V1BETA1)

V1BETA1_WARNING = (
    "apiextensions.k8s.io/v1beta1 CustomResourceDefinition is deprecated in v1.16+, unavailable in v1.22+; "
    "use apiextensions.k8s.io/v1 CustomResourceDefinition (crdtool upgrade-manifest --to v1 converts it)"
)


def is_crd(doc: Any) -> bool:
    """Is ``doc`` a CustomResourceDefinition at an apiextensions version we judge?"""
    return isinstance(doc, dict) and doc.get("kind") == "CustomResourceDefinition" and doc.get("apiVersion") in CRD_API_VERSIONS


@dataclass(frozen=True)
class Finding:
    """One error of a manifest.

    ``error.field`` is the path in the manifest as written (for a v1 manifest,
    ``spec.versions[0].schema.openAPIV3Schema...``); ``upstream_field`` is the
    path upstream reports on its internal type when that differs
    (``spec.validation.openAPIV3Schema...``), else None.
    """

    error: FieldError
    upstream_field: str | None = None


@dataclass(frozen=True)
class CrdVerdict:
    """The apiserver's verdict on creating one CRD manifest.

    ``findings`` holds decoding findings first (unknown or duplicate fields,
    wrong types), then validation errors in upstream order; ``warnings`` holds
    the warning strings the apiserver would return with a successful create.
    """

    findings: tuple[Finding, ...]
    warnings: tuple[str, ...]

    @property
    def valid(self) -> bool:
        return not self.findings


def check_crd_manifest(
    doc: dict[str, Any],
    *,
    field_validation: str = "Strict",
    duplicate_fields: Sequence[str] = (),
    storage: bool = True,
    kubernetes_version: str | None = None,
) -> CrdVerdict:
    """Judge a CRD manifest as kube-apiserver judges a CREATE at its own apiVersion.

    Input: a CRD document (plain JSON-like dict) whose ``apiVersion`` is
    ``apiextensions.k8s.io/v1`` or ``v1beta1``. A v1beta1 manifest is decoded
    with v1beta1 defaults and then validated by the rules of
    ``kubernetes_version`` (upstream apiextensions-apiserver of that
    release), plus the deprecation warning.

    ``field_validation`` is the request's server-side field validation
    directive (kubectl's ``--validate``/``fieldValidation``): ``Strict``
    (kubectl's default) reports unknown fields and the ``duplicate_fields``
    (paths of keys given twice, found by the caller's parser) as
    ``UnknownField``/``DuplicateField`` findings; ``Warn`` turns them into
    warnings (``unknown field "spec.foo"``, as the apiserver returns them);
    ``Ignore`` drops them. With Strict they are reported together with the
    validation errors (the apiserver would stop at the strict-decoding error;
    seeing everything at once is kinder). A wrong JSON type stops the check
    as it stops upstream decoding, whatever the directive: no validation runs
    on an object that cannot be decoded.

    A CRD that passes validation but sets ``metadata.resourceVersion`` (to a
    non-zero number: ``kubectl get crd -o yaml`` exports it) fails in storage,
    as for a custom resource: ``InternalError`` at ``metadata.resourceVersion``,
    ``resourceVersion should not be set on objects to be created``
    (:mod:`crdtool.core.storage`). ``storage=False`` leaves that step out, to
    judge what a manifest says rather than a create of it (a CRD read to
    export its schemas, fuzz a converter, upgrade it, or serve custom
    resources may well come from ``kubectl get``).

    ``kubernetes_version``: the release whose apiserver judges (``"1.30"`` …
    ``"1.37"``; None: the default, 1.37): its rules, texts, warnings, feature
    gates and CEL environments.

    Raises ValueError when ``doc`` is not a CRD at a supported apiVersion, or
    for an unknown ``field_validation`` or Kubernetes version.
    """
    from crdtool.core.releases import resolve_release

    from crdtool.core.crd.conversion import manifest_path, to_internal
    from crdtool.core.crd.decode import decode_crd
    from crdtool.core.crd.defaults import default_crd
    from crdtool.core.crd.validation import validate_crd_create

    if not is_crd(doc):
        raise ValueError("not an apiextensions.k8s.io/v1 or v1beta1 CustomResourceDefinition")
    if field_validation not in FIELD_VALIDATION_DIRECTIVES:
        raise ValueError(f"field_validation must be one of {', '.join(FIELD_VALIDATION_DIRECTIVES)}")
    release = resolve_release(kubernetes_version)
    warnings: list[str] = [V1BETA1_WARNING] if doc.get("apiVersion") == V1BETA1 else []
    decoded, decode_errors = decode_crd(doc, release)
    if any(e.type == UNMARSHAL_TYPE for e in decode_errors):
        return CrdVerdict(tuple(Finding(e) for e in decode_errors), tuple(warnings))
    strict: list[FieldError] = [duplicate_field(p) for p in duplicate_fields]
    strict += decode_errors
    findings: list[Finding] = []
    if field_validation == "Strict":
        findings = [Finding(e) for e in strict]
    elif field_validation == "Warn":
        warnings.extend(e.detail for e in strict)  # the strict-decoding error texts, as warnings

    defaulted = default_crd(decoded)
    internal = to_internal(defaulted)
    errors, create_warnings = validate_crd_create(internal, release)
    errors = errors_at_release(errors, release)  # built with the newest field.Error text: the release's
    for err in errors:
        mapped = manifest_path(err.field, defaulted)
        if mapped == err.field:
            findings.append(Finding(err))
        else:
            findings.append(Finding(replace(err, field=mapped), upstream_field=err.field))
    warnings.extend(create_warnings)
    if storage and not findings:  # the request reached storage, which refuses a resourceVersion (etcd3 store.Create)
        from crdtool.core.storage import resource_version_set_on_create

        findings = [Finding(e) for e in resource_version_set_on_create(defaulted)]
    return CrdVerdict(tuple(findings), tuple(warnings))


def validate_crd(crd: dict[str, Any], *, kubernetes_version: str | None = None) -> list[FieldError]:
    """Upstream ``ValidateCustomResourceDefinition`` on a CRD object exactly as given.

    No defaulting and no registry strategy: ``status`` is validated as
    present, so a CRD without ``status.storedVersions`` gets
    ``status.storedVersions: Invalid value: []: must have at least one stored
    version`` and ``status.acceptedNames`` is checked like ``spec.names`` (as
    upstream ``validation_test.go`` calls it). For what a create of the
    manifest returns, use :func:`check_crd_manifest`.

    In: a CRD dict. A v1beta1-shaped dict (any ``apiVersion`` but
    ``apiextensions.k8s.io/v1``) is read field for field as upstream's
    internal type; a v1 dict is first converted to it. Out: the decoding
    findings (unknown fields, wrong JSON types), then the validation errors in
    upstream order, with upstream's internal field paths
    (``spec.validation.openAPIV3Schema...`` for a v1 CRD whose versions share
    one schema). An object that cannot be decoded (wrong JSON types) yields
    the decoding error only. ``kubernetes_version``: the release whose
    apiserver validates (``"1.30"`` … ``"1.37"``; None: 1.37); ``ValueError``
    for an unknown one, else never raises.

    Mirrors ``pkg/apis/apiextensions/validation/validation.go``
    ``ValidateCustomResourceDefinition``.
    """
    from crdtool.core.crd.conversion import to_internal
    from crdtool.core.crd.decode import decode_crd
    from crdtool.core.crd.validation import validate_custom_resource_definition
    from crdtool.core.releases import resolve_release

    release = resolve_release(kubernetes_version)

    source = dict(crd)
    if source.get("apiVersion") not in CRD_API_VERSIONS:
        source["apiVersion"] = V1BETA1
    decoded, decode_errors = decode_crd(source, release)
    errors: list[FieldError] = list(decode_errors)
    if any(e.type == UNMARSHAL_TYPE for e in decode_errors):
        return errors
    return errors_at_release(errors + validate_custom_resource_definition(to_internal(decoded), release), release)
