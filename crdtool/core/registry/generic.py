"""What every built-in kind's create gets, whatever its strategy: namespace, generated name, ObjectMeta.

* :func:`before_create`: ``k8s.io/apiserver/pkg/registry/rest/create.go`` ``BeforeCreate``'s generic part
  (``EnsureObjectNamespaceMatchesRequestNamespace`` with kubectl's request namespace: the object's, else
  ``default``; a cluster-scoped object loses its namespace; deletion fields cleared) and the store's name
  generation for ``generateName`` (``names.SimpleNameGenerator``: at most 58 characters and 5 random ones,
  written ``xxxxx`` here).
* :func:`validate_object_meta`: the ``ValidateObjectMeta`` call each kind's ``Validate<Kind>`` makes, with the
  kind's name function (:data:`NAME_FUNCTIONS`, from ``pkg/apis/<group>/validation/validation.go`` of
  kubernetes v1.36.3 = openshift/microshift release-4.23 ``deps/github.com/openshift/kubernetes``); used for a
  kind whose strategy module has no ``validate`` of its own.
* :func:`validate_object_meta_accessor`: ``BeforeCreate``'s second pass, ``ValidateObjectMetaAccessor`` with
  ``path.ValidatePathSegmentName``, run once the strategy's ``Validate`` found nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from crdtool.core.errors import FieldError, Path, invalid
from crdtool.core.objectmeta import validate_object_meta as _validate_object_meta
from crdtool.core.releases import Release
from crdtool.core.validation_util import (
    is_path_segment_name,
    name_is_dns1035_label,
    name_is_dns_label,
    name_is_dns_subdomain,
    validate_path_segment,
)

#: ``field.NewPath("metadata")``, built once (a Path is an immutable str).
_METADATA = Path("metadata")

__all__ = ["DEFAULT_NAMESPACE", "NAME_FUNCTIONS", "before_create", "name_function", "validate_object_meta",
           "validate_object_meta_accessor"]

NameFn = Callable[[str, bool], list[str]]

#: kubectl creates a namespaced object without a namespace in its context's namespace.
DEFAULT_NAMESPACE = "default"
_GENERATED_SUFFIX = "xxxxx"
_MAX_GENERATED_NAME_LENGTH = 63 - len(_GENERATED_SUFFIX)


def _rbac_name(name: str, prefix: bool) -> list[str]:
    # rbac/validation ValidateRBACName: content.IsPathSegmentName(name), prefix or not
    return is_path_segment_name(name)


def _any_name(name: str, prefix: bool) -> list[str]:
    # certificates/validation ValidateCertificateRequestName: no constraint
    return []


def _api_service_name(name: str, prefix: bool) -> list[str]:
    # kube-aggregator apiregistration/validation ValidateAPIServiceName: "<version>.<group>" (or a version
    # alone for the legacy core group), each part checked elsewhere; here only path-segment safety
    return is_path_segment_name(name)


#: ``(group, kind)`` → the name function ``Validate<Kind>`` passes to ``ValidateObjectMeta``; a kind not
#: listed uses ``NameIsDNSSubdomain`` (the name function of most kinds). Service's depends on the release
#: (:func:`name_function`).
NAME_FUNCTIONS: dict[tuple[str, str], NameFn] = {
    ("", "Namespace"): name_is_dns_label,  # ValidateNamespaceName = NameIsDNSLabel
    ("rbac.authorization.k8s.io", "Role"): _rbac_name,
    ("rbac.authorization.k8s.io", "ClusterRole"): _rbac_name,
    ("rbac.authorization.k8s.io", "RoleBinding"): _rbac_name,
    ("rbac.authorization.k8s.io", "ClusterRoleBinding"): _rbac_name,
    ("certificates.k8s.io", "CertificateSigningRequest"): _any_name,
    ("apiregistration.k8s.io", "APIService"): _api_service_name,
}

#: ``RelaxedServiceNameValidation`` (kubernetes ``pkg/features/kube_features.go``): Alpha off in 1.34 and
#: 1.35, Beta on from 1.36 (microshift release-4.21 … 4.23). On: Service names are DNS labels, else DNS-1035.
_RELAXED_SERVICE_NAMES_SINCE = 36


def name_function(group: str, kind: str, release: Release) -> NameFn:
    """The name function of ``Validate<Kind>`` at ``release``."""
    if (group, kind) == ("", "Service"):
        return name_is_dns_label if release.minor >= _RELAXED_SERVICE_NAMES_SINCE else name_is_dns1035_label
    return NAME_FUNCTIONS.get((group, kind), name_is_dns_subdomain)


def before_create(obj: dict[str, Any], namespaced: bool) -> None:
    """``BeforeCreate``'s generic part on ``obj`` (mutated): namespace, generated name, deletion fields."""
    meta = obj.get("metadata")
    if not isinstance(meta, dict):
        meta = obj["metadata"] = {}
    if namespaced:
        if not meta.get("namespace"):
            meta["namespace"] = DEFAULT_NAMESPACE
    else:
        meta.pop("namespace", None)
    meta.pop("deletionTimestamp", None)
    meta.pop("deletionGracePeriodSeconds", None)
    generate_name = meta.get("generateName")
    if isinstance(generate_name, str) and generate_name and not meta.get("name"):
        meta["name"] = generate_name[:_MAX_GENERATED_NAME_LENGTH] + _GENERATED_SUFFIX


def validate_object_meta(obj: dict[str, Any], group: str, kind: str, namespaced: bool, release: Release) -> list[FieldError]:
    """``ValidateObjectMeta(&obj.ObjectMeta, namespaced, <kind's name function>, "metadata")``."""
    meta = obj.get("metadata")
    return _validate_object_meta(meta if isinstance(meta, dict) else {}, namespaced,
                                 name_function(group, kind, release), _METADATA, release)


def validate_object_meta_accessor(obj: dict[str, Any], namespaced: bool, release: Release) -> list[FieldError]:
    """``BeforeCreate``: ``ValidateObjectMetaAccessor(meta, namespaced, path.ValidatePathSegmentName, "metadata")``.

    Run only once the strategy's ``Validate`` (which includes ``ValidateObjectMeta`` with the same namespace
    scope) found nothing: every check but the name function's then passes again, so only the names are
    checked here (``generateName`` with ``prefix``, then ``name``), in upstream's order and words.
    """
    meta = obj.get("metadata")
    meta = meta if isinstance(meta, dict) else {}
    errs: list[FieldError] = []
    generate_name = meta.get("generateName")
    if isinstance(generate_name, str) and generate_name:
        problems = validate_path_segment(generate_name, True)
        if problems:
            errs.extend(invalid(Path("metadata", "generateName"), generate_name, m) for m in problems)
    name = meta.get("name")
    if isinstance(name, str) and name:
        problems = validate_path_segment(name, False)
        if problems:
            errs.extend(invalid(Path("metadata", "name"), name, m) for m in problems)
    return errs
