"""Native validation of admissionregistration.k8s.io/v1: webhook configurations and admission policies.

Mirrors kubernetes/kubernetes ``pkg/apis/admissionregistration/validation/validation.go`` (openshift/microshift
``release-4.17`` … ``release-4.23`` = 1.30 … 1.36; 1.37 is judged as 1.36 where no table says otherwise):

* ValidatingWebhookConfiguration and MutatingWebhookConfiguration, ported whole:
  ``ValidateValidatingWebhookConfiguration``, ``ValidateMutatingWebhookConfiguration`` (create options: side
  effects must be ``None``/``NoneOnDryRun``, a recognized AdmissionReview version required, unique webhook names,
  label values checked, match conditions compiled without ``params``), ``validateValidatingWebhook``,
  ``validateMutatingWebhook``, ``validateRuleWithOperations``, ``validateRule``, ``validateResources``,
  ``validateAdmissionReviewVersions``, ``validateMatchConditions``, and ``static_suffix.go`` (1.36). The client
  configuration's rules are ``k8s.io/apiserver/pkg/util/webhook``'s (:mod:`crdtool.core.webhook`).
* ValidatingAdmissionPolicy, MutatingAdmissionPolicy and their bindings, ported whole (create):
  ``ValidateValidatingAdmissionPolicy`` (:func:`validate_policy`), ``ValidateValidatingAdmissionPolicyBinding``
  (:func:`validate_binding`), ``ValidateMutatingAdmissionPolicy`` (:func:`validate_mutating_policy`),
  ``ValidateMutatingAdmissionPolicyBinding`` (:func:`validate_binding` with ``mutating``): ObjectMeta,
  ``validateParamKind``, ``validateMatchResources``, ``validateNamedRuleWithOperations``, ``validateParamRef``,
  ``validateValidationActions``, ``validateVariable``, ``validateValidation``, ``validateAuditAnnotation``,
  ``validateMutation``; every expression compiled in the policy environment of the release's ``NewExpressions``,
  its error as ``convertCELErrorToValidationError`` reports it. Their per-release table is at the head of their
  section below.

What changes between releases, each in the function it concerns: ``ValidateWebhookService``'s Required details
(empty from 1.34, :func:`crdtool.core.webhook.validate_webhook_service`), ``IsQualifiedName``'s words (1.35,
:func:`crdtool.core.validation_util.is_qualified_name`), the CEL environment of expressions (the release's
``NewExpressions`` base environment), the bad values' rendering (``%#v`` before 1.34, JSON from 1.34), and the
reserved ``.static.k8s.io`` names (a warning in 1.36, an error in 1.37: :data:`STATIC_SUFFIX_ON_CREATE`). The
``StrictCostEnforcementForWebhooks`` gate of 1.30 … 1.33 only changes runtime costs: compiling a match condition
estimates no cost.

Functions take the versioned (v1) object as a decoded, defaulted JSON dict; a missing field is Go's zero value.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from crdtool.core.apis._util import i, lst, m, s, validate_label_selector
from crdtool.core.celgo import types as T
from crdtool.core.errors import (
    FieldError,
    Path,
    duplicate,
    forbidden,
    go_quote,
    go_string_slice,
    go_typed,
    internal_error,
    invalid,
    not_supported,
    required,
    too_many,
)
from crdtool.core.kubecel.admission import PolicyCompilation, PolicyEnvironment
from crdtool.core.objectmeta import validate_object_meta
from crdtool.core.releases import Release
from crdtool.core.validation_util import (
    is_dns1035_label,
    is_dns1123_subdomain,
    is_path_segment_name,
    is_qualified_name,
    name_is_dns_subdomain,
)
from crdtool.core.webhook import validate_webhook_service, validate_webhook_url

#: ``field.NewPath("metadata")``, built once (a Path is an immutable str).
_METADATA = Path("metadata")

__all__ = [
    "ACCEPTED_ADMISSION_REVIEW_VERSIONS", "STATIC_CONFIG_SUFFIX", "STATIC_SUFFIX_ON_CREATE", "is_fully_qualified_name",
    "static_suffix_mode", "validate_admission_review_versions", "validate_binding", "validate_match_conditions",
    "validate_match_resources", "validate_mutating_policy", "validate_mutating_webhook_configuration",
    "validate_named_rule_with_operations", "validate_param_kind", "validate_param_ref", "validate_policy",
    "validate_rule", "validate_rule_with_operations", "validate_static_suffix", "validate_validating_webhook_configuration",
    "validate_validation_actions", "warnings_for_static_suffix",
]

#: ``AcceptedAdmissionReviewVersions``: v1, v1beta1 (in this order in the messages).
ACCEPTED_ADMISSION_REVIEW_VERSIONS = ("v1", "v1beta1")

# The sets of validation.go, as ``sets.String.List()`` gives them: sorted.
_SUPPORTED_FAILURE_POLICIES = ("Fail", "Ignore")
_SUPPORTED_MATCH_POLICIES = ("Equivalent", "Exact")
#: all side effect classes: what an update keeps accepting when the old object had them (not ported: create only)
_SUPPORTED_SIDE_EFFECT_CLASSES = ("None", "NoneOnDryRun", "Some", "Unknown")
_NO_SIDE_EFFECT_CLASSES = ("None", "NoneOnDryRun")
_SUPPORTED_OPERATIONS = ("*", "CONNECT", "CREATE", "DELETE", "UPDATE")
_SUPPORTED_REINVOCATION_POLICIES = ("IfNeeded", "Never")
_VALID_SCOPES = ("*", "Cluster", "Namespaced")

#: ``validateMatchConditions``: at most 64 match conditions.
MAX_MATCH_CONDITIONS = 64

#: static_suffix.go ``StaticConfigSuffix`` (1.36): names the manifest-based admission configurations reserve.
STATIC_CONFIG_SUFFIX = ".static.k8s.io"
#: What the strategies do on create with a name ending with :data:`STATIC_CONFIG_SUFFIX`, by release: they warn
#: (``WarningsForStaticSuffix``) while gate ``ManifestBasedAdmissionControlConfig`` is off and refuse
#: (``ValidateStaticSuffix``) while it is on. The gate: Alpha, off, in 1.36 (k8s.io/apiserver
#: ``pkg/features/kube_features.go@v0.36.3``), Beta, on, in 1.37 (``@v0.37.0-beta.0``; the 1.37 strategies are
#: taken to be 1.36's). No such check before 1.36 (``static_suffix.go`` is new in release-4.23).
STATIC_SUFFIX_ON_CREATE: dict[int, str] = {36: "warn", 37: "refuse"}


def _go_operations(ops: Sequence[Any]) -> Any:
    """A ``[]admissionregistration.OperationType`` bad value (``%#v`` before 1.34)."""
    return go_typed([s(o) for o in ops], "[]admissionregistration.OperationType{" + ", ".join(go_quote(s(o)) for o in ops) + "}")


def _strings(v: Any) -> list[str]:
    return [s(x) for x in lst(v)]


def is_fully_qualified_name(path: Path, name: str) -> list[FieldError]:
    """apimachinery ``util/validation.IsFullyQualifiedName`` (identical v0.30 … v0.36): Required when empty, the
    DNS-1123 subdomain's errors joined by ``,``, or ``should be a domain with at least three segments separated by
    dots``."""
    if not name:
        return [required(path, "")]
    errs = is_dns1123_subdomain(name)
    if errs:
        return [invalid(path, name, ",".join(errs))]
    if len(name.split(".")) < 3:
        return [invalid(path, name, "should be a domain with at least three segments separated by dots")]
    return []


def _has_wildcard(values: Sequence[str]) -> bool:
    return "*" in values


def _validate_resources(resources: list[str], path: Path) -> list[FieldError]:
    """``validateResources``: sub-resources allowed, wildcards not mixed with what they cover."""
    errs: list[FieldError] = []
    if not resources:
        errs.append(required(path, ""))
    with_wildcard_sub: set[str] = set()  # x/*
    sub_with_wildcard_res: set[str] = set()  # */x
    has_double_wildcard = has_single_wildcard = has_resource_without_sub = False
    for index, res_sub in enumerate(resources):
        if res_sub == "":
            errs.append(required(path.index(index), ""))
            continue
        if res_sub == "*/*":
            has_double_wildcard = True
        if res_sub == "*":
            has_single_wildcard = True
        res, sep, sub = res_sub.partition("/")
        if not sep:
            has_resource_without_sub = res_sub != "*"
            continue
        if res in with_wildcard_sub:
            errs.append(invalid(path.index(index), res_sub, f"if '{res}/*' is present, must not specify {res_sub}"))
        if sub in sub_with_wildcard_res:
            errs.append(invalid(path.index(index), res_sub, f"if '*/{sub}' is present, must not specify {res_sub}"))
        if sub == "*":
            with_wildcard_sub.add(res)
        if res == "*":
            sub_with_wildcard_res.add(sub)
    if len(resources) > 1 and has_double_wildcard:
        errs.append(invalid(path, go_string_slice(resources), "if '*/*' is present, must not specify other resources"))
    if has_single_wildcard and has_resource_without_sub:
        errs.append(invalid(path, go_string_slice(resources), "if '*' is present, must not specify other resources without subresources"))
    return errs


def validate_rule(rule: Mapping[str, Any], path: Path) -> list[FieldError]:
    """``validateRule(rule, fldPath, allowSubResource=true)`` (the only form webhooks use): apiGroups, apiVersions,
    resources, scope. ``rule``: the v1 ``Rule`` fields (inline in a ``RuleWithOperations``)."""
    errs: list[FieldError] = []
    groups, versions = _strings(rule.get("apiGroups")), _strings(rule.get("apiVersions"))
    if not groups:
        errs.append(required(path.child("apiGroups"), ""))
    if len(groups) > 1 and _has_wildcard(groups):
        errs.append(invalid(path.child("apiGroups"), go_string_slice(groups), "if '*' is present, must not specify other API groups"))
    if not versions:
        errs.append(required(path.child("apiVersions"), ""))
    if len(versions) > 1 and _has_wildcard(versions):
        errs.append(invalid(path.child("apiVersions"), go_string_slice(versions), "if '*' is present, must not specify other API versions"))
    for index, version in enumerate(versions):
        if version == "":
            errs.append(required(path.child("apiVersions").index(index), ""))
    errs.extend(_validate_resources(_strings(rule.get("resources")), path.child("resources")))
    scope = rule.get("scope")
    if isinstance(scope, str) and scope not in _VALID_SCOPES:
        errs.append(not_supported(path.child("scope"), scope, _VALID_SCOPES))
    return errs


def validate_rule_with_operations(rule: Mapping[str, Any], path: Path) -> list[FieldError]:
    """``validateRuleWithOperations``: operations (Required, ``*`` alone, each supported), then :func:`validate_rule`."""
    errs: list[FieldError] = []
    ops = lst(rule.get("operations"))
    if not ops:
        errs.append(required(path.child("operations"), ""))
    if len(ops) > 1 and "*" in ops:
        errs.append(invalid(path.child("operations"), _go_operations(ops), "if '*' is present, must not specify other operations"))
    for index, op in enumerate(ops):
        if op not in _SUPPORTED_OPERATIONS:
            errs.append(not_supported(path.child("operations").index(index), s(op), _SUPPORTED_OPERATIONS))
    errs.extend(validate_rule(rule, path))
    return errs


def validate_admission_review_versions(versions: list[str], require_recognized: bool, path: Path) -> list[FieldError]:
    """``validateAdmissionReviewVersions``: Required when empty; each a DNS-1035 label, no duplicates; at least one
    of :data:`ACCEPTED_ADMISSION_REVIEW_VERSIONS` when ``require_recognized`` (create)."""
    accepted = ", ".join(ACCEPTED_ADMISSION_REVIEW_VERSIONS)
    if not versions:
        return [required(path, f"must specify one of {accepted}")]
    errs: list[FieldError] = []
    seen: set[str] = set()
    has_accepted = False
    for index, v in enumerate(versions):
        if v in seen:
            errs.append(invalid(path.index(index), v, "duplicate version"))
            continue
        seen.add(v)
        errs.extend(invalid(path.index(index), v, msg) for msg in is_dns1035_label(v))
        if v in ACCEPTED_ADMISSION_REVIEW_VERSIONS:
            has_accepted = True
    if require_recognized and not has_accepted:
        errs.append(invalid(path, go_string_slice(versions), f"must include at least one of {accepted}"))
    return errs


def _go_trim_space(text: str) -> str:
    """Go ``strings.TrimSpace``: Python's ``str.strip()`` also strips the separators U+001C … U+001F, which
    ``unicode.IsSpace`` does not count."""
    start, end = 0, len(text)
    while start < end and text[start].isspace() and text[start] not in "\x1c\x1d\x1e\x1f":
        start += 1
    while end > start and text[end - 1].isspace() and text[end - 1] not in "\x1c\x1d\x1e\x1f":
        end -= 1
    return text[start:end]


def validate_match_conditions(
    conditions: Sequence[Any], path: Path, release: Release, allow_params: bool = False
) -> list[FieldError]:
    """``validateMatchConditions`` / ``validateMatchCondition`` on create (no pre-existing expressions).

    ``conditions``: the ``matchConditions`` list. Out, in upstream's order: TooMany (more than 64); per condition
    the expression (Required when blank after ``strings.TrimSpace``, else the trimmed text compiled to a ``bool`` by
    the stateless compiler in the release's ``NewExpressions`` environment with ``authorizer`` and, when
    ``allow_params`` (a policy with a ``paramKind``), ``params``: ``Invalid`` with the expression, or
    ``InternalError``, as ``convertCELErrorToValidationError`` reports), the name (Required, or
    ``ValidateQualifiedName``), then Duplicate names.
    """
    errs: list[FieldError] = []
    if len(conditions) > MAX_MATCH_CONDITIONS:
        errs.append(too_many(path, len(conditions), MAX_MATCH_CONDITIONS))
    env = PolicyEnvironment(release, allow_params, True, False, composition=False)
    names: set[str] = set()
    for index, condition in enumerate(conditions):
        condition = m(condition)
        p = path.index(index)
        expression = _go_trim_space(s(condition.get("expression")))
        if not expression:
            errs.append(required(p.child("expression"), ""))
        else:
            result = env.compile(expression, (T.BOOL,))
            if result.error:
                errs.append(invalid(p.child("expression"), result.expression, result.error) if result.error_type == "Invalid"
                            else internal_error(p.child("expression"), result.error))
        name = s(condition.get("name"))
        if not name:
            errs.append(required(p.child("name"), ""))
        else:
            errs.extend(invalid(p.child("name"), name, msg) for msg in is_qualified_name(name, release))
        if name:
            if name in names:
                errs.append(duplicate(p.child("name"), name))
            names.add(name)
    return errs


def _validate_client_config(cc: Mapping[str, Any], path: Path, release: Release) -> list[FieldError]:
    url, service = cc.get("url"), cc.get("service")
    if (url is None) == (service is None):
        return [required(path, "exactly one of url or service is required")]
    if url is not None:
        return validate_webhook_url(path.child("url"), s(url), True)
    service = m(service)
    # upstream passes (Service.Name, Service.Namespace) for ValidateWebhookService's (namespace, name)
    p = service.get("path")
    return validate_webhook_service(path.child("service"), s(service.get("name")), s(service.get("namespace")),
                                    p if isinstance(p, str) else None, i(service.get("port")), release)


def _validate_webhook(hook: Mapping[str, Any], mutating: bool, path: Path, release: Release) -> list[FieldError]:
    """``validateValidatingWebhook`` / ``validateMutatingWebhook`` with the create options."""
    errs = is_fully_qualified_name(path.child("name"), s(hook.get("name")))
    for index, rule in enumerate(lst(hook.get("rules"))):
        errs.extend(validate_rule_with_operations(m(rule), path.child("rules").index(index)))
    failure_policy = hook.get("failurePolicy")
    if isinstance(failure_policy, str) and failure_policy not in _SUPPORTED_FAILURE_POLICIES:
        errs.append(not_supported(path.child("failurePolicy"), failure_policy, _SUPPORTED_FAILURE_POLICIES))
    match_policy = hook.get("matchPolicy")
    if isinstance(match_policy, str) and match_policy not in _SUPPORTED_MATCH_POLICIES:
        errs.append(not_supported(path.child("matchPolicy"), match_policy, _SUPPORTED_MATCH_POLICIES))
    allowed_side_effects = _NO_SIDE_EFFECT_CLASSES  # requireNoSideEffects: true on create
    side_effects = hook.get("sideEffects")
    if side_effects is None:
        errs.append(required(path.child("sideEffects"), "must specify one of " + ", ".join(allowed_side_effects)))
    elif side_effects not in allowed_side_effects:
        errs.append(not_supported(path.child("sideEffects"), s(side_effects), allowed_side_effects))
    timeout = hook.get("timeoutSeconds")
    if timeout is not None and not 1 <= i(timeout) <= 30:
        errs.append(invalid(path.child("timeoutSeconds"), i(timeout), "the timeout value must be between 1 and 30 seconds"))
    for key in ("namespaceSelector", "objectSelector"):
        if isinstance(hook.get(key), dict):
            errs.extend(validate_label_selector(hook[key], path.child(key), release))
    if mutating:
        reinvocation = hook.get("reinvocationPolicy")
        if isinstance(reinvocation, str) and reinvocation not in _SUPPORTED_REINVOCATION_POLICIES:
            errs.append(not_supported(path.child("reinvocationPolicy"), reinvocation, _SUPPORTED_REINVOCATION_POLICIES))
    errs.extend(_validate_client_config(m(hook.get("clientConfig")), path.child("clientConfig"), release))
    errs.extend(validate_match_conditions(lst(hook.get("matchConditions")), path.child("matchConditions"), release))
    return errs


def _validate_configuration(obj: Mapping[str, Any], mutating: bool, release: Release) -> list[FieldError]:
    errs = validate_object_meta(m(obj.get("metadata")), False, name_is_dns_subdomain, _METADATA, release)
    names: set[str] = set()
    for index, hook in enumerate(lst(obj.get("webhooks"))):
        hook = m(hook)
        p = Path("webhooks").index(index)
        errs.extend(_validate_webhook(hook, mutating, p, release))
        errs.extend(validate_admission_review_versions(_strings(hook.get("admissionReviewVersions")), True,
                                                       p.child("admissionReviewVersions")))
        name = s(hook.get("name"))
        if name:
            if name in names:
                errs.append(duplicate(p.child("name"), name))
            names.add(name)
    return errs


def validate_validating_webhook_configuration(obj: Mapping[str, Any], release: Release) -> list[FieldError]:
    """Upstream ``ValidateValidatingWebhookConfiguration`` (create): ObjectMeta (a cluster-scoped DNS subdomain
    name, apimachinery's ``ValidateObjectMeta``), then per webhook ``validateValidatingWebhook``, its
    ``admissionReviewVersions`` and a Duplicate name."""
    return _validate_configuration(obj, False, release)


def validate_mutating_webhook_configuration(obj: Mapping[str, Any], release: Release) -> list[FieldError]:
    """Upstream ``ValidateMutatingWebhookConfiguration`` (create): as
    :func:`validate_validating_webhook_configuration`, plus each webhook's ``reinvocationPolicy``."""
    return _validate_configuration(obj, True, release)


def static_suffix_mode(release: Release) -> str | None:
    """``"warn"``, ``"refuse"`` or None: :data:`STATIC_SUFFIX_ON_CREATE` at ``release``."""
    return STATIC_SUFFIX_ON_CREATE.get(release.minor)


def validate_static_suffix(name: str, path: Path) -> list[FieldError]:
    """static_suffix.go ``ValidateStaticSuffix``: Invalid when ``name`` ends with ``.static.k8s.io`` (the strategies
    call it only while gate ``ManifestBasedAdmissionControlConfig`` is on: :func:`static_suffix_mode`)."""
    if name.endswith(STATIC_CONFIG_SUFFIX):
        return [invalid(path, name, f"names ending with {go_quote(STATIC_CONFIG_SUFFIX)} are reserved for static "
                                    "manifest-based configurations and cannot be managed via the API")]
    return []


def warnings_for_static_suffix(name: str) -> list[str]:
    """static_suffix.go ``WarningsForStaticSuffix``: the warning for a name ending with ``.static.k8s.io`` (the
    strategies' ``WarningsOnCreate`` while the gate is off: :func:`static_suffix_mode`)."""
    if not name.endswith(STATIC_CONFIG_SUFFIX):
        return []
    return [f"metadata.name: names ending with {go_quote(STATIC_CONFIG_SUFFIX)} are reserved for static "
            "manifest-based configurations and cannot be managed via the API"]


# --- ValidatingAdmissionPolicy, MutatingAdmissionPolicy and their bindings (create) --------------------------
#
# ValidateValidatingAdmissionPolicy, ValidateValidatingAdmissionPolicyBinding, ValidateMutatingAdmissionPolicy
# and ValidateMutatingAdmissionPolicyBinding with the create options (validationOptions{ignoreMatchConditions:
# false}, no pre-existing expressions). Upstream validates the internal type, whatever group-version the object
# came in (v1, v1beta1, v1alpha1): these functions take the decoded, defaulted object of any of them.
#
# What differs between releases (openshift/microshift release-4.17 … release-4.23 = 1.30 … 1.36, validation.go):
#   1.30, 1.31 (release-4.17, 4.18)  the binding's matchResources errors are reported under "spec.matchResouces"
#                                     (upstream's typo, fixed in release-4.19): :data:`_BINDING_MATCH_RESOURCES_FIELD`
#   1.32 (release-4.19)              MutatingAdmissionPolicy(Binding) validation appears (whole, unchanged to 1.36)
#   1.34 (release-4.21)              validateVariable / validateValidation lose their subject word:
#                                     :data:`_TERSE_POLICY_WORDS_SINCE`
#   1.36 (release-4.23)              resourceNames and paramRef.name checked by content.IsPathSegmentName instead of
#                                     path.ValidatePathSegmentName(name, false): the same messages (apimachinery
#                                     v0.35.0 pkg/api/validation/path/name.go), no change here
#   1.37                             judged as 1.36
# StrictCostEnforcementForVAP (1.30 … 1.33, removed in release-4.22) only changes cost limits at runtime: compiling
# estimates no cost.


def _cel_error(path: str, result: PolicyCompilation) -> FieldError:
    """``convertCELErrorToValidationError``."""
    if result.error_type == "Invalid":
        return invalid(path, result.expression, result.error)
    return internal_error(path, result.error)


_CEL_RESERVED = frozenset({"true", "false", "null", "in", "as", "break", "const", "continue", "else", "for", "function",
                           "if", "import", "let", "loop", "package", "namespace", "return", "var", "void", "while"})
#: ``supportedValidationPolicyReason`` (identical 1.30 … 1.36): not Unauthorized, which the API's docs list.
_SUPPORTED_REASONS = ["Forbidden", "Invalid", "RequestEntityTooLarge"]
#: validation.go's words of ``validateVariable`` / ``validateValidation`` that lost their subject in 1.34
#: (release-4.20 = 1.33: "name is not a valid CEL identifier", "message must ..."; release-4.21 = 1.34 on:
#: "must be a valid CEL identifier", "must ...").
_TERSE_POLICY_WORDS_SINCE = 34
_MAX_AUDIT_ANNOTATIONS = 20
_MAX_AUDIT_VALUE_EXPRESSION_LENGTH = 5 * 1024
#: ``validValidationActions.List()``: sorted.
_VALIDATION_ACTIONS = ("Audit", "Deny", "Warn")
#: ``validateParamRef``'s list, in its order (not sorted).
_PARAMETER_NOT_FOUND_ACTIONS = ("Deny", "Allow")
#: ``supportedMutatingOperations.List()`` (1.32 on): a MutatingAdmissionPolicy cannot match DELETE.
_SUPPORTED_MUTATING_OPERATIONS = ("*", "CONNECT", "CREATE", "UPDATE")
#: ``supportedPatchType.List()``.
_SUPPORTED_PATCH_TYPES = ("ApplyConfiguration", "JSONPatch")
#: The field name under which ``validateValidatingAdmissionPolicyBindingSpec`` reports ``validateMatchResources``'
#: errors, by release: ``matchResouces`` (sic) in release-4.17 / release-4.18 = 1.30 / 1.31, ``matchResources``
#: from release-4.19 = 1.32 (MutatingAdmissionPolicyBinding, new in 1.32, always spells it right).
_BINDING_MATCH_RESOURCES_FIELD: dict[int, str] = {30: "matchResouces", 31: "matchResouces"}


def _is_cel_identifier(name: str) -> bool:
    """``isCELIdentifier``: ``[_a-zA-Z][_a-zA-Z0-9]*``, not a reserved word."""
    import re

    return re.fullmatch(r"[_a-zA-Z][_a-zA-Z0-9]*", name) is not None and name not in _CEL_RESERVED


def _go_trim(s: str) -> str:
    return _go_trim_space(s)


def _spec(obj: Mapping[str, Any]) -> Mapping[str, Any]:
    spec = obj.get("spec")
    return spec if isinstance(spec, Mapping) else {}


def _object_meta(obj: Mapping[str, Any], release: Release) -> list[FieldError]:
    """``genericvalidation.ValidateObjectMeta(&p.ObjectMeta, false, NameIsDNSSubdomain, "metadata")``:
    cluster-scoped, a DNS subdomain name."""
    return validate_object_meta(m(obj.get("metadata")), False, name_is_dns_subdomain, _METADATA, release)


def _parse_group_version(gv: str) -> tuple[str, str] | None:
    """``parseGroupVersion``: (group, version), None for more than one ``/``."""
    if not gv or gv == "/":
        return "", ""
    if gv.count("/") == 0:
        return "", gv
    if gv.count("/") == 1:
        group, _, version = gv.partition("/")
        return group, version
    return None


def validate_param_kind(param_kind: Mapping[str, Any], path: Path) -> list[FieldError]:
    """``validateParamKind``: ``apiVersion`` (Required; at most one ``/``; the group a DNS-1123 subdomain, the
    version present and a DNS-1035 label: APIService's rules), then ``kind`` (Required; lower-cased, a DNS-1035
    label)."""
    errs: list[FieldError] = []
    api_version, kind = s(param_kind.get("apiVersion")), s(param_kind.get("kind"))
    if not api_version:
        errs.append(required(path.child("apiVersion"), ""))
    else:
        gv = _parse_group_version(api_version)
        if gv is None:
            errs.append(invalid(path.child("apiVersion"), api_version, f"unexpected GroupVersion string: {api_version}"))
        else:
            group, version = gv
            if group and (msgs := is_dns1123_subdomain(group)):
                errs.append(invalid(path.child("apiVersion"), group, ",".join(msgs)))
            if not version:
                errs.append(invalid(path.child("apiVersion"), api_version, "version must be specified"))
            elif msgs := is_dns1035_label(version):
                errs.append(invalid(path.child("apiVersion"), version, ",".join(msgs)))
    if not kind:
        errs.append(required(path.child("kind"), ""))
    elif msgs := is_dns1035_label(kind.lower()):
        errs.append(invalid(path.child("kind"), kind, "may have mixed case, but should otherwise match: " + ",".join(msgs)))
    return errs


def validate_named_rule_with_operations(rule: Mapping[str, Any], path: Path) -> list[FieldError]:
    """``validateNamedRuleWithOperations``: each of ``resourceNames`` a path segment name (Invalid per message),
    no Duplicate; then :func:`validate_rule_with_operations`."""
    errs: list[FieldError] = []
    seen: set[str] = set()
    for index, name in enumerate(_strings(rule.get("resourceNames"))):
        p = path.child("resourceNames").index(index)
        errs.extend(invalid(p, name, msg) for msg in is_path_segment_name(name))
        if name in seen:
            errs.append(duplicate(p, name))
        else:
            seen.add(name)
    errs.extend(validate_rule_with_operations(rule, path))
    return errs


def validate_match_resources(mr: Mapping[str, Any] | None, path: Path, release: Release) -> list[FieldError]:
    """``validateMatchResources``: nothing for None; else ``matchPolicy`` (Required, Exact/Equivalent),
    ``namespaceSelector`` and ``objectSelector`` (Required, else ``metav1validation.ValidateLabelSelector``, strict),
    then each of ``resourceRules`` and ``excludeResourceRules`` (:func:`validate_named_rule_with_operations`). A
    policy's "resourceRules must be specified" is its caller's."""
    if mr is None:
        return []
    errs: list[FieldError] = []
    match_policy = mr.get("matchPolicy")
    if match_policy is None:
        errs.append(required(path.child("matchPolicy"), ""))
    elif match_policy not in _SUPPORTED_MATCH_POLICIES:
        errs.append(not_supported(path.child("matchPolicy"), s(match_policy), _SUPPORTED_MATCH_POLICIES))
    for key in ("namespaceSelector", "objectSelector"):
        selector = mr.get(key)
        if selector is None:
            errs.append(required(path.child(key), ""))
        else:
            errs.extend(validate_label_selector(m(selector), path.child(key), release))
    for key in ("resourceRules", "excludeResourceRules"):
        for index, rule in enumerate(lst(mr.get(key))):
            errs.extend(validate_named_rule_with_operations(m(rule), path.child(key).index(index)))
    return errs


def _mutating_operations(mr: Mapping[str, Any], path: Path) -> list[FieldError]:
    """"It is only possible to mutate create and update requests": NotSupported per operation of each resource rule,
    all reported at ``<path>.resourceRules.operations`` (no index, as upstream)."""
    return [not_supported(path.child("resourceRules", "operations"), s(op), _SUPPORTED_MUTATING_OPERATIONS)
            for rule in lst(mr.get("resourceRules")) for op in lst(m(rule).get("operations"))
            if op not in _SUPPORTED_MUTATING_OPERATIONS]


def _failure_policy(spec: Mapping[str, Any]) -> list[FieldError]:
    fp = spec.get("failurePolicy")
    if fp is None:
        return [required("spec.failurePolicy", "")]
    if fp not in _SUPPORTED_FAILURE_POLICIES:
        return [not_supported("spec.failurePolicy", s(fp), _SUPPORTED_FAILURE_POLICIES)]
    return []


def _policy_head(spec: Mapping[str, Any], release: Release, mutating: bool) -> list[FieldError]:
    """failurePolicy, paramKind, matchConstraints (with Required resourceRules, and a mutating policy's
    operations), matchConditions: the common start of both specs' validation."""
    errs = _failure_policy(spec)
    param_kind = spec.get("paramKind")
    if param_kind is not None:
        errs.extend(validate_param_kind(m(param_kind), Path("spec", "paramKind")))
    mc = spec.get("matchConstraints")
    if mc is None:
        errs.append(required("spec.matchConstraints", ""))
    else:
        mc = m(mc)
        errs.extend(validate_match_resources(mc, Path("spec", "matchConstraints"), release))
        if not lst(mc.get("resourceRules")):
            errs.append(required("spec.matchConstraints.resourceRules", ""))
        if mutating:
            errs.extend(_mutating_operations(mc, Path("spec", "matchConstraints")))
    errs.extend(validate_match_conditions(lst(spec.get("matchConditions")), Path("spec", "matchConditions"),
                                          release, param_kind is not None))
    return errs


def _validate_variables(spec: Mapping[str, Any], release: Release,
                        has_params: bool) -> tuple[list[FieldError], list[tuple[str, T.Type | None]]]:
    """``validateVariable`` of each of ``spec.variables``: the name (Required when blank, a CEL identifier), the
    expression (Required when blank, else compiled and stored in the composited environment, so later variables
    and expressions see its type). Out: the errors and the declared ``(name, type)``."""
    terse = release.minor >= _TERSE_POLICY_WORDS_SINCE
    errs: list[FieldError] = []
    variables: list[tuple[str, T.Type | None]] = []
    for n, var in enumerate(lst(spec.get("variables"))):
        var = m(var)
        path = f"spec.variables[{n}]"
        name = s(var.get("name"))
        if not _go_trim(name):
            errs.append(required(f"{path}.name", "name is not specified"))
        elif not _is_cel_identifier(name):
            errs.append(invalid(f"{path}.name", name, "must be a valid CEL identifier" if terse
                                else "name is not a valid CEL identifier"))
        expr = s(var.get("expression"))
        if not _go_trim(expr):
            errs.append(required(f"{path}.expression", "expression is not specified"))
            continue
        r = PolicyEnvironment(release, has_params, True, False, tuple(variables)).compile(expr, (T.ANY,))
        if r.error:
            errs.append(_cel_error(f"{path}.expression", r))
        variables.append((name, r.output_type))
    return errs, variables


def _go_audit_annotations(audits: Sequence[Any]) -> Any:
    """The ``[]admissionregistration.AuditAnnotation`` bad value: the internal type has no json tags, so from 1.34
    its JSON keys are the Go field names; ``%#v`` before."""
    pairs = [(s(m(a).get("key")), s(m(a).get("valueExpression"))) for a in audits]
    return go_typed([{"Key": k, "ValueExpression": v} for k, v in pairs], "[]admissionregistration.AuditAnnotation{"
                    + ", ".join(f"admissionregistration.AuditAnnotation{{Key:{go_quote(k)}, ValueExpression:{go_quote(v)}}}"
                                for k, v in pairs) + "}")


def validate_policy(policy: Mapping[str, Any], release: Release) -> list[FieldError]:
    """Upstream ``ValidateValidatingAdmissionPolicy`` (create) of a decoded, defaulted ValidatingAdmissionPolicy.

    Out, in upstream's order: ObjectMeta (cluster-scoped, DNS subdomain), then ``validateValidatingAdmissionPolicySpec``:
    failurePolicy, paramKind (:func:`validate_param_kind`), matchConstraints (Required; :func:`validate_match_resources`;
    resourceRules Required), matchConditions (:func:`validate_match_conditions`), variables, then validations
    (expression, messageExpression, message, reason) and auditAnnotations (at most 20; key as a qualified name
    ``<policy name>/<key>``, valueExpression, Duplicate keys) — or the Required pair when both are empty.
    Expressions compile in the release's ``NewExpressions`` environment: composited (``variables`` declared) when
    the policy has variables; messageExpressions without the authorizer. The words of a variable's name and a
    validation's message depend on the release (:data:`_TERSE_POLICY_WORDS_SINCE`).
    """
    spec = _spec(policy)
    terse = release.minor >= _TERSE_POLICY_WORDS_SINCE
    subject = "" if terse else "message "
    has_params = spec.get("paramKind") is not None
    errs = _object_meta(policy, release)
    errs.extend(_policy_head(spec, release, False))
    var_errs, variables = _validate_variables(spec, release, has_params)
    errs.extend(var_errs)
    composition = bool(lst(spec.get("variables")))
    env = PolicyEnvironment(release, has_params, True, False, tuple(variables), composition=composition)
    msg_env = PolicyEnvironment(release, has_params, False, False, tuple(variables), composition=composition)
    validations = lst(spec.get("validations"))
    audits = lst(spec.get("auditAnnotations"))
    if not validations and not audits:
        errs.append(required("spec.validations", "validations or auditAnnotations must contain at least one item"))
        errs.append(required("spec.auditAnnotations", "validations or auditAnnotations must contain at least one item"))
        return errs
    for n, v in enumerate(validations):
        v = m(v)
        path = f"spec.validations[{n}]"
        expr = s(v.get("expression"))
        if not _go_trim(expr):
            errs.append(required(f"{path}.expression", "expression is not specified"))
        else:
            r = env.compile(expr, (T.BOOL,))
            if r.error:
                errs.append(_cel_error(f"{path}.expression", r))
        msg_expr = s(v.get("messageExpression"))
        if msg_expr and not _go_trim(msg_expr):
            errs.append(invalid(f"{path}.messageExpression", msg_expr, "must be non-empty if specified"))
        elif msg_expr:
            r = msg_env.compile(msg_expr, (T.STRING,))
            if r.error:
                errs.append(_cel_error(f"{path}.messageExpression", r))
        message = s(v.get("message"))
        if message and not _go_trim(message):
            errs.append(invalid(f"{path}.message", message, subject + "must be non-empty if specified"))
        elif "\n" in _go_trim(message) or "\r" in _go_trim(message):
            errs.append(invalid(f"{path}.message", message, subject + "must not contain line breaks"))
        reason = v.get("reason")
        if reason is not None and reason not in _SUPPORTED_REASONS:
            errs.append(not_supported(f"{path}.reason", reason, _SUPPORTED_REASONS))
    if audits:
        if len(audits) > _MAX_AUDIT_ANNOTATIONS:
            errs.append(invalid("spec.auditAnnotations", _go_audit_annotations(audits),
                                f"must not have more than {_MAX_AUDIT_ANNOTATIONS} auditAnnotations"))
        keys: set[str] = set()
        policy_name = s(m(policy.get("metadata")).get("name"))
        for n, a in enumerate(audits):
            a = m(a)
            path = f"spec.auditAnnotations[{n}]"
            key = s(a.get("key"))
            if policy_name:
                errs.extend(invalid(f"{path}.key", f"{policy_name}/{key}", msg)
                            for msg in is_qualified_name(f"{policy_name}/{key}", release))
            else:
                errs.append(invalid(f"{path}.key", key, "requires metadata.name be non-empty"))
            value = _go_trim(s(a.get("valueExpression")))
            if not value:
                errs.append(required(f"{path}.valueExpression", "valueExpression is not specified"))
            elif len(value.encode()) > _MAX_AUDIT_VALUE_EXPRESSION_LENGTH:
                errs.append(required(f"{path}.valueExpression",
                                     f"must not exceed {_MAX_AUDIT_VALUE_EXPRESSION_LENGTH} bytes in length"))
            else:
                r = env.compile(value, (T.STRING, T.NULL))
                if r.error:
                    errs.append(invalid(f"{path}.valueExpression", a.get("valueExpression"), r.error)
                                if r.error_type == "Invalid" else internal_error(f"{path}.valueExpression", r.error))
            if key in keys:
                errs.append(duplicate(f"{path}.key", key))
            keys.add(key)
    return errs


def validate_param_ref(pr: Mapping[str, Any] | None, path: Path, release: Release) -> list[FieldError]:
    """``validateParamRef``: nothing for None; else ``name`` (a path segment name; Forbidden beside a selector),
    ``selector`` (``ValidateLabelSelector``; Forbidden beside a name), Required when neither, then
    ``parameterNotFoundAction`` (Required, Deny or Allow)."""
    if pr is None:
        return []
    errs: list[FieldError] = []
    name, selector = s(pr.get("name")), pr.get("selector")
    if name:
        errs.extend(invalid(path.child("name"), name, msg) for msg in is_path_segment_name(name))
        if selector is not None:
            errs.append(forbidden(path.child("name"), "name and selector are mutually exclusive"))
    if selector is not None:
        errs.extend(validate_label_selector(m(selector), path.child("selector"), release))
        if name:
            errs.append(forbidden(path.child("selector"), "name and selector are mutually exclusive"))
    if not name and selector is None:
        errs.append(required(path, "one of name or selector must be specified"))
    action = pr.get("parameterNotFoundAction")
    if not action:
        errs.append(required(path.child("parameterNotFoundAction"), ""))
    elif action not in _PARAMETER_NOT_FOUND_ACTIONS:
        errs.append(not_supported(path.child("parameterNotFoundAction"), s(action), _PARAMETER_NOT_FOUND_ACTIONS))
    return errs


def validate_validation_actions(actions: Sequence[Any], path: Path) -> list[FieldError]:
    """``validateValidationActions``: each supported (Audit, Deny, Warn) and not a Duplicate, not Deny and Warn
    together, at least one."""
    errs: list[FieldError] = []
    seen: set[str] = set()
    for n, action in enumerate(actions):
        if action not in _VALIDATION_ACTIONS:
            errs.append(not_supported(path.index(n), s(action), _VALIDATION_ACTIONS))
        if action in seen:
            errs.append(duplicate(path.index(n), s(action)))
        seen.add(s(action))
    if "Deny" in seen and "Warn" in seen:
        bad = go_typed([s(a) for a in actions], "[]admissionregistration.ValidationAction{"
                       + ", ".join(go_quote(s(a)) for a in actions) + "}")
        errs.append(invalid(path, bad, "must not contain both Deny and Warn (repeating the same validation failure "
                                       "information in the API response and headers serves no purpose)"))
    if not seen:
        errs.append(required(path, "at least one validation action is required"))
    return errs


def validate_binding(binding: Mapping[str, Any], release: Release, mutating: bool = False) -> list[FieldError]:
    """Upstream ``ValidateValidatingAdmissionPolicyBinding`` / ``ValidateMutatingAdmissionPolicyBinding`` (create)
    of a decoded, defaulted binding.

    Out, in upstream's order: ObjectMeta (cluster-scoped, DNS subdomain), policyName (Required, a DNS subdomain),
    paramRef (:func:`validate_param_ref`), matchResources (:func:`validate_match_resources`, no Required
    resourceRules; under ``spec.matchResouces`` in 1.30 / 1.31: :data:`_BINDING_MATCH_RESOURCES_FIELD`), then
    validationActions (:func:`validate_validation_actions`) for a ValidatingAdmissionPolicyBinding, or the
    matchResources' operations (no DELETE) for a MutatingAdmissionPolicyBinding.
    """
    spec = _spec(binding)
    errs = _object_meta(binding, release)
    name = s(spec.get("policyName"))
    if not name:
        errs.append(required("spec.policyName", ""))
    else:
        errs.extend(invalid("spec.policyName", name, msg) for msg in name_is_dns_subdomain(name, False))
    pr = spec.get("paramRef")
    errs.extend(validate_param_ref(None if pr is None else m(pr), Path("spec", "paramRef"), release))
    mr = spec.get("matchResources")
    field_name = "matchResources" if mutating else _BINDING_MATCH_RESOURCES_FIELD.get(release.minor, "matchResources")
    errs.extend(validate_match_resources(None if mr is None else m(mr), Path("spec", field_name), release))
    if mutating:
        if mr is not None:
            errs.extend(_mutating_operations(m(mr), Path("spec", "matchResources")))
        return errs
    errs.extend(validate_validation_actions(lst(spec.get("validationActions")), Path("spec", "validationActions")))
    return errs


def _validate_patch_expression(holder: Mapping[str, Any], path: Path, env: PolicyEnvironment,
                               output: T.Type) -> list[FieldError]:
    """``validateApplyConfiguration`` / ``validateJSONPatch``: the expression Required when blank, else its
    trimmed text compiled (the Invalid value is the trimmed text, as upstream's accessor holds it)."""
    expression = _go_trim_space(s(holder.get("expression")))
    if not expression:
        return [required(path.child("expression"), "")]
    r = env.compile(expression, (output,))
    return [_cel_error(path.child("expression"), r)] if r.error else []


def _validate_mutation(mutation: Mapping[str, Any], path: Path, env: PolicyEnvironment) -> list[FieldError]:
    """``validateMutation``: patchType (Required; ApplyConfiguration or JSONPatch), the matching member Required and
    validated, the other one Invalid when present."""
    patch_type = s(mutation.get("patchType"))
    ac, jp = mutation.get("applyConfiguration"), mutation.get("jsonPatch")
    errs: list[FieldError] = []
    if not patch_type:
        errs.append(required(path.child("patchType"), ""))
    elif patch_type == "JSONPatch":
        if jp is None:
            errs.append(required(path.child("jsonPatch"), "must be specified when patchType is JSONPatch"))
        else:
            errs.extend(_validate_patch_expression(m(jp), path.child("jsonPatch"), env,
                                                   T.list_of(T.object_type("JSONPatch"))))
        if ac is not None:
            errs.append(invalid(path.child("applyConfiguration"), "{applyConfiguration}",
                                "must not be specified when patchType is JSONPatch"))
    elif patch_type == "ApplyConfiguration":
        if ac is None:
            errs.append(required(path.child("applyConfiguration"), "must be specified when patchType is ApplyConfiguration"))
        else:
            errs.extend(_validate_patch_expression(m(ac), path.child("applyConfiguration"), env, T.object_type("Object")))
        if jp is not None:
            errs.append(invalid(path.child("jsonPatch"), "{jsonPatch}",
                                "must not be specified when patchType is ApplyConfiguration"))
    else:
        errs.append(not_supported(path.child("patchType"), patch_type, _SUPPORTED_PATCH_TYPES))
    return errs


def validate_mutating_policy(policy: Mapping[str, Any], release: Release) -> list[FieldError]:
    """Upstream ``ValidateMutatingAdmissionPolicy`` (create, 1.32 on) of a decoded, defaulted MutatingAdmissionPolicy.

    Out, in upstream's order: ObjectMeta, then ``validateMutatingAdmissionPolicySpec``: failurePolicy, paramKind,
    matchConstraints (as a ValidatingAdmissionPolicy's, plus NotSupported operations other than ``*``, CONNECT,
    CREATE, UPDATE), matchConditions, variables, mutations (Required; each ``validateMutation``: patchType and its
    member, ``applyConfiguration.expression`` compiled to an ``Object``, ``jsonPatch.expression`` to a
    ``list(JSONPatch)``, in the release's ``NewExpressions`` environment with the patch types), then
    reinvocationPolicy (Required — no version defaults it —, IfNeeded or Never).
    """
    spec = _spec(policy)
    has_params = spec.get("paramKind") is not None
    errs = _object_meta(policy, release)
    errs.extend(_policy_head(spec, release, True))
    var_errs, variables = _validate_variables(spec, release, has_params)
    errs.extend(var_errs)
    patch_env = PolicyEnvironment(release, has_params, True, False, tuple(variables), has_patch_types=True)
    mutations = lst(spec.get("mutations"))
    if not mutations:
        errs.append(required("spec.mutations", "mutations must contain at least one item"))
    for n, item in enumerate(mutations):
        errs.extend(_validate_mutation(m(item), Path("spec", "mutations").index(n), patch_env))
    reinvocation = s(spec.get("reinvocationPolicy"))
    if not reinvocation:
        errs.append(required("spec.reinvocationPolicy", ""))
    elif reinvocation not in _SUPPORTED_REINVOCATION_POLICIES:
        errs.append(not_supported("spec.reinvocationPolicy", reinvocation, _SUPPORTED_REINVOCATION_POLICIES))
    return errs
