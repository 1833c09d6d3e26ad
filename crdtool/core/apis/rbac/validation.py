"""Native validation of rbac.authorization.k8s.io/v1: Role, ClusterRole (aggregation), RoleBinding,
ClusterRoleBinding.

Mirrors kubernetes/kubernetes ``pkg/apis/rbac/validation/validation.go`` (1.30 … 1.36, openshift/microshift
``release-4.17`` … ``release-4.23``). ``ValidateRBACName`` is ``path.IsValidPathSegmentName`` through 1.35 and
``content.IsPathSegmentName`` in 1.36: the same rule and texts, and neither looks at the ``prefix`` flag.
"""

from __future__ import annotations

from typing import Any, Mapping

from crdtool.core.apis._util import lst, m, s, selector_ok, validate_label_selector
from crdtool.core.apis.core.validation import validate_object_meta_core, validate_service_account_name
from crdtool.core.errors import FieldError, Path, invalid, not_supported, required
from crdtool.core.releases import Release
from crdtool.core.validation_util import is_path_segment_name

#: ``field.NewPath("metadata")``, built once (a Path is an immutable str).
_METADATA = Path("metadata")
_RULES, _SUBJECTS = Path("rules"), Path("subjects")

GROUP_NAME = "rbac.authorization.k8s.io"


def validate_rbac_name(name: str, prefix: bool) -> list[str]:
    """Upstream ``ValidateRBACName``: a path segment name (``prefix`` is ignored)."""
    return is_path_segment_name(name)


def validate_policy_rule(rule: Mapping[str, Any], namespaced: bool, path: Path) -> list[FieldError]:
    """Upstream ``ValidatePolicyRule``."""
    errs: list[FieldError] = []
    if not lst(rule.get("verbs")):
        errs.append(required(path.child("verbs"), "verbs must contain at least one value"))
    urls = lst(rule.get("nonResourceURLs"))
    if urls:
        if namespaced:
            errs.append(invalid(path.child("nonResourceURLs"), list(urls), "namespaced rules cannot apply to non-resource URLs"))
        if lst(rule.get("apiGroups")) or lst(rule.get("resources")) or lst(rule.get("resourceNames")):
            errs.append(invalid(path.child("nonResourceURLs"), list(urls), "rules cannot apply to both regular resources and non-resource URLs"))
        return errs
    if not lst(rule.get("apiGroups")):
        errs.append(required(path.child("apiGroups"), "resource rules must supply at least one api group"))
    if not lst(rule.get("resources")):
        errs.append(required(path.child("resources"), "resource rules must supply at least one resource"))
    return errs


def validate_role(obj: Mapping[str, Any], release: Release) -> list[FieldError]:
    """Upstream ``ValidateRole``."""
    errs = validate_object_meta_core(obj.get("metadata"), True, validate_rbac_name, _METADATA, release)
    for index, rule in enumerate(lst(obj.get("rules"))):
        errs.extend(validate_policy_rule(m(rule), True, _RULES.index(index)))
    return errs


def validate_cluster_role(obj: Mapping[str, Any], release: Release) -> list[FieldError]:
    """Upstream ``ValidateClusterRole`` (create: label values in selectors must be valid)."""
    errs = validate_object_meta_core(obj.get("metadata"), False, validate_rbac_name, _METADATA, release)
    for index, rule in enumerate(lst(obj.get("rules"))):
        errs.extend(validate_policy_rule(m(rule), False, _RULES.index(index)))
    agg = obj.get("aggregationRule")
    if isinstance(agg, dict):
        selectors = lst(agg.get("clusterRoleSelectors"))
        if not selectors:
            errs.append(required(Path("aggregationRule", "clusterRoleSelectors"), "at least one clusterRoleSelector required if aggregationRule is non-nil"))
        for index, sel in enumerate(selectors):
            p = Path("aggregationRule", "clusterRoleSelectors").index(index)
            errs.extend(validate_label_selector(m(sel), p, release))
            if not selector_ok(m(sel), release):
                # the bad value is the nil labels.Selector LabelSelectorAsSelector returned with its error
                errs.append(invalid(p, None, "invalid label selector."))
    return errs


def validate_subject(subject: Mapping[str, Any], namespaced: bool, path: Path) -> list[FieldError]:
    """Upstream ``ValidateRoleBindingSubject``."""
    errs: list[FieldError] = []
    name, kind, group = s(subject.get("name")), s(subject.get("kind")), s(subject.get("apiGroup"))
    if not name:
        errs.append(required(path.child("name"), ""))
    if kind == "ServiceAccount":
        if name:
            errs.extend(invalid(path.child("name"), name, msg) for msg in validate_service_account_name(name, False))
        if group:
            errs.append(not_supported(path.child("apiGroup"), group, ("",)))
        if not namespaced and not s(subject.get("namespace")):
            errs.append(required(path.child("namespace"), ""))
    elif kind in ("User", "Group"):
        if group != GROUP_NAME:
            errs.append(not_supported(path.child("apiGroup"), group, (GROUP_NAME,)))
    else:
        errs.append(not_supported(path.child("kind"), kind, ("ServiceAccount", "User", "Group")))
    return errs


def _validate_binding(obj: Mapping[str, Any], namespaced: bool, kinds: tuple[str, ...], release: Release) -> list[FieldError]:
    errs = validate_object_meta_core(obj.get("metadata"), namespaced, validate_rbac_name, _METADATA, release)
    ref = m(obj.get("roleRef"))
    if s(ref.get("apiGroup")) != GROUP_NAME:
        errs.append(not_supported(Path("roleRef", "apiGroup"), s(ref.get("apiGroup")), (GROUP_NAME,)))
    if s(ref.get("kind")) not in kinds:
        errs.append(not_supported(Path("roleRef", "kind"), s(ref.get("kind")), kinds))
    name = s(ref.get("name"))
    if not name:
        errs.append(required(Path("roleRef", "name"), ""))
    else:
        errs.extend(invalid(Path("roleRef", "name"), name, msg) for msg in validate_rbac_name(name, False))
    for index, subject in enumerate(lst(obj.get("subjects"))):
        errs.extend(validate_subject(m(subject), namespaced, _SUBJECTS.index(index)))
    return errs


def validate_role_binding(obj: Mapping[str, Any], release: Release) -> list[FieldError]:
    """Upstream ``ValidateRoleBinding``."""
    return _validate_binding(obj, True, ("Role", "ClusterRole"), release)


def validate_cluster_role_binding(obj: Mapping[str, Any], release: Release) -> list[FieldError]:
    """Upstream ``ValidateClusterRoleBinding``."""
    return _validate_binding(obj, False, ("ClusterRole",), release)
