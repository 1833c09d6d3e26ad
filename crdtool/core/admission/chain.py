"""The apiserver's admission chain for one request, offline: what ``crdtool admit`` (and ``test``) run.

In: the objects of a bundle (CRDs, Namespaces, params objects, ValidatingAdmissionPolicies and bindings) and one
``admission.k8s.io/v1`` ``AdmissionReview``; out: an :class:`AdmitResult`. The order is the apiserver's
(``k8s.io/apiserver/pkg/endpoints/handlers/create.go``, ``update.go``, ``delete.go`` with the default plugin
order of ``kubernetes/pkg/kubeapiserver/options/plugins.go``):

1. ``NamespaceLifecycle`` (``pkg/admission/plugin/namespace/lifecycle/admission.go``): a request in a namespace
   the bundle does not hold is answered 404 ``namespaces "<ns>" not found`` (DELETE and Namespaces excepted);
2. for a custom resource, the CRD's create or update path up to and including the strategy's validation
   (:mod:`crdtool.core.customresource`: decoding with pruning and null-dropping, defaulting,
   ``PrepareForCreate``, schema, CEL and metadata validation): invalid objects are answered 422;
3. the ``ValidatingAdmissionPolicy`` plugin (:mod:`crdtool.core.admission.policy.validating`).

The policies' ``authorizer`` is the apiserver's authorizer chain for the request's ``userInfo``
(:class:`crdtool.core.auth.authorizer.ClusterAuthorizer`): ``system:masters`` is allowed everything, otherwise RBAC
decides over the bootstrap policy's default roles and the bundle's Roles, ClusterRoles (aggregated),
RoleBindings and ClusterRoleBindings.

A policy or binding the apiserver would refuse at create (:mod:`crdtool.core.admission.policy.create`) is reported
in :attr:`AdmitResult.rejected` and takes no part.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
import copy
from dataclasses import dataclass, field, replace
from typing import Any

from crdtool.core.admission.attributes import GVK, GVR, Attributes
from crdtool.core.admission.policy import create as policy_create
from crdtool.core.admission.policy.matching import Resources
from crdtool.core.admission.policy.mutating import compile_mutating_policy, dispatch_mutating, gate_default
from crdtool.core.admission.policy.typechecking import type_check
from crdtool.core.admission.policy.validating import Params, compile_policy, dispatch
from crdtool.core.auth.authorizer import ClusterAuthorizer
from crdtool.core.errors import FieldError, go_quote
from crdtool.core.kubecel.authz import Binder
from crdtool.core.releases import FEATURE_GATES, Release, resolve_release

__all__ = ["AdmitError", "AdmitResult", "KNOWN_FEATURE_GATES", "admit"]

_ADMISSIONREGISTRATION = "admissionregistration.k8s.io"

#: Built-in kinds a request may name without a CRD: kind -> (group, preferred version, resource, namespaced).
#: (until the built-in catalog lands: the kinds of ``kubectl api-resources`` policies commonly match)
_BUILTIN: dict[tuple[str, str], tuple[str, bool]] = {
    ("", "Namespace"): ("namespaces", False), ("", "ConfigMap"): ("configmaps", True),
    ("", "Secret"): ("secrets", True), ("", "Pod"): ("pods", True), ("", "Service"): ("services", True),
    ("", "ServiceAccount"): ("serviceaccounts", True), ("", "PersistentVolumeClaim"): ("persistentvolumeclaims", True),
    ("", "PersistentVolume"): ("persistentvolumes", False), ("", "Node"): ("nodes", False),
    ("", "Endpoints"): ("endpoints", True), ("", "Event"): ("events", True), ("", "LimitRange"): ("limitranges", True),
    ("", "ResourceQuota"): ("resourcequotas", True), ("", "ReplicationController"): ("replicationcontrollers", True),
    ("apps", "Deployment"): ("deployments", True), ("apps", "StatefulSet"): ("statefulsets", True),
    ("apps", "DaemonSet"): ("daemonsets", True), ("apps", "ReplicaSet"): ("replicasets", True),
    ("batch", "Job"): ("jobs", True), ("batch", "CronJob"): ("cronjobs", True),
    ("networking.k8s.io", "Ingress"): ("ingresses", True), ("networking.k8s.io", "NetworkPolicy"): ("networkpolicies", True),
    ("networking.k8s.io", "IngressClass"): ("ingressclasses", False),
    ("rbac.authorization.k8s.io", "Role"): ("roles", True), ("rbac.authorization.k8s.io", "RoleBinding"): ("rolebindings", True),
    ("rbac.authorization.k8s.io", "ClusterRole"): ("clusterroles", False),
    ("rbac.authorization.k8s.io", "ClusterRoleBinding"): ("clusterrolebindings", False),
    ("policy", "PodDisruptionBudget"): ("poddisruptionbudgets", True),
    ("autoscaling", "HorizontalPodAutoscaler"): ("horizontalpodautoscalers", True),
    ("storage.k8s.io", "StorageClass"): ("storageclasses", False),
    ("scheduling.k8s.io", "PriorityClass"): ("priorityclasses", False),
    ("apiextensions.k8s.io", "CustomResourceDefinition"): ("customresourcedefinitions", False),
    (_ADMISSIONREGISTRATION, "ValidatingAdmissionPolicy"): ("validatingadmissionpolicies", False),
    (_ADMISSIONREGISTRATION, "ValidatingAdmissionPolicyBinding"): ("validatingadmissionpolicybindings", False),
    (_ADMISSIONREGISTRATION, "MutatingAdmissionPolicy"): ("mutatingadmissionpolicies", False),
    (_ADMISSIONREGISTRATION, "MutatingAdmissionPolicyBinding"): ("mutatingadmissionpolicybindings", False),
    (_ADMISSIONREGISTRATION, "ValidatingWebhookConfiguration"): ("validatingwebhookconfigurations", False),
    (_ADMISSIONREGISTRATION, "MutatingWebhookConfiguration"): ("mutatingwebhookconfigurations", False),
}
_EXEMPT_KINDS = frozenset({
    "ValidatingWebhookConfiguration", "MutatingWebhookConfiguration", "ValidatingAdmissionPolicy",
    "ValidatingAdmissionPolicyBinding", "MutatingAdmissionPolicy", "MutatingAdmissionPolicyBinding",
})


#: The feature gates ``--feature-gates`` may set: the release table's and the admission policies' own.
KNOWN_FEATURE_GATES: frozenset[str] = frozenset(FEATURE_GATES) | {"MutatingAdmissionPolicy", "StrictCostEnforcementForVAP"}


class AdmitError(ValueError):
    """The bundle cannot make a request (no AdmissionReview, two of them, a kind nothing serves)."""


@dataclass(frozen=True)
class Rejected:
    """A policy or binding the apiserver would refuse at create: its kind, name and errors (strings)."""

    kind: str
    name: str
    errors: tuple[str, ...]


@dataclass
class AdmitResult:
    """The apiserver's answer to the request.

    ``code``: the HTTP status (200 when allowed); ``reason``/``message``: the ``metav1.Status`` of a refusal;
    ``warnings``: the admission warnings; ``audit_annotations``: the audit annotations admission added;
    ``patched_object``: the object after mutation (None: unchanged); ``type_check_warnings``: ``{policy,
    fieldRef, warning}``; ``rejected``: the policies and bindings refused at create.
    """

    allowed: bool = True
    code: int = 200
    reason: str = ""
    message: str = ""
    warnings: list[str] = field(default_factory=list)
    audit_annotations: dict[str, str] = field(default_factory=dict)
    patched_object: dict[str, Any] | None = None
    type_check_warnings: list[dict[str, str]] = field(default_factory=list)
    rejected: list[Rejected] = field(default_factory=list)
    uid: str = ""
    details: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """``-o json``'s object (the issue's interface: allowed, code, reason, message, warnings,
        auditAnnotations, patchedObject when a mutation changed the object, typeCheckWarnings, response)."""
        out: dict[str, Any] = {
            "allowed": self.allowed, "code": self.code, "reason": self.reason, "message": self.message,
            "warnings": list(self.warnings), "auditAnnotations": dict(self.audit_annotations),
        }
        if self.patched_object is not None:
            out["patchedObject"] = self.patched_object
        out["typeCheckWarnings"] = list(self.type_check_warnings)
        out["response"] = self.response()
        if self.rejected:
            out["rejected"] = [{"kind": r.kind, "name": r.name, "errors": list(r.errors)} for r in self.rejected]
        return out

    def response(self) -> dict[str, Any]:
        """The ``AdmissionResponse`` (``admission/v1``) the apiserver's chain amounts to."""
        resp: dict[str, Any] = {"uid": self.uid, "allowed": self.allowed}
        if not self.allowed:
            status: dict[str, Any] = {"metadata": {}, "status": "Failure", "message": self.message,
                                      "reason": self.reason}
            if self.details:
                status["details"] = self.details
            status["code"] = self.code
            resp["status"] = status
        if self.warnings:
            resp["warnings"] = list(self.warnings)
        if self.audit_annotations:
            resp["auditAnnotations"] = dict(self.audit_annotations)
        return resp


def _meta(obj: Mapping[str, Any] | None) -> Mapping[str, Any]:
    m = obj.get("metadata") if isinstance(obj, Mapping) else None
    return m if isinstance(m, Mapping) else {}


def _gv(api_version: str) -> tuple[str, str]:
    group, _, version = api_version.rpartition("/")
    return group, version


@dataclass
class _Bundle:
    crds: list[dict[str, Any]] = field(default_factory=list)
    namespaces: dict[str, dict[str, Any]] = field(default_factory=dict)
    policies: list[dict[str, Any]] = field(default_factory=list)
    bindings: list[dict[str, Any]] = field(default_factory=list)
    mutating: list[dict[str, Any]] = field(default_factory=list)
    mutating_bindings: list[dict[str, Any]] = field(default_factory=list)
    others: list[dict[str, Any]] = field(default_factory=list)
    reviews: list[dict[str, Any]] = field(default_factory=list)

    def crd_for(self, group: str, kind: str) -> dict[str, Any] | None:
        for crd in self.crds:
            spec = crd.get("spec") or {}
            if spec.get("group") == group and (spec.get("names") or {}).get("kind") == kind:
                return crd
        return None

    def crd_for_resource(self, group: str, resource: str) -> dict[str, Any] | None:
        for crd in self.crds:
            spec = crd.get("spec") or {}
            if spec.get("group") == group and (spec.get("names") or {}).get("plural") == resource:
                return crd
        return None


def _sort(documents: list[Mapping[str, Any]]) -> _Bundle:
    b = _Bundle()
    for doc in documents:
        if not isinstance(doc, Mapping):
            continue
        d = dict(doc)
        group, _ = _gv(str(d.get("apiVersion") or ""))
        kind = d.get("kind")
        if kind == "AdmissionReview" and group == "admission.k8s.io":
            b.reviews.append(d)
        elif kind == "CustomResourceDefinition" and group == "apiextensions.k8s.io":
            b.crds.append(d)
        elif kind == "Namespace" and group == "":
            b.namespaces[str(_meta(d).get("name") or "")] = d
        elif kind == "ValidatingAdmissionPolicy" and group == _ADMISSIONREGISTRATION:
            b.policies.append(d)
        elif kind == "ValidatingAdmissionPolicyBinding" and group == _ADMISSIONREGISTRATION:
            b.bindings.append(d)
        elif kind == "MutatingAdmissionPolicy" and group == _ADMISSIONREGISTRATION:
            b.mutating.append(d)
        elif kind == "MutatingAdmissionPolicyBinding" and group == _ADMISSIONREGISTRATION:
            b.mutating_bindings.append(d)
        else:
            b.others.append(d)
    return b


def _resource_of(bundle: _Bundle, group: str, version: str, kind: str,
                 release: Release | None = None) -> tuple[str, bool] | None:
    """(resource, namespaced) of a kind: the bundle's CRDs, then the release's built-in kinds
    (:mod:`crdtool.core.builtin.catalog`), then a table of common kinds."""
    crd = bundle.crd_for(group, kind)
    if crd is not None:
        spec = crd.get("spec") or {}
        return str((spec.get("names") or {}).get("plural") or ""), spec.get("scope") != "Cluster"
    info = _builtin_info(release, group, version, kind)
    if info is not None and info.resource:
        return info.resource, info.namespaced
    return _BUILTIN.get((group, kind))


def _builtin_info(release: Release | None, group: str, version: str, kind: str) -> Any:
    from crdtool.core.builtin import catalog

    api_version = f"{group}/{version}" if group else version
    try:
        return catalog.kind_info(resolve_release(release), api_version, kind)
    except (KeyError, ValueError):
        return None


def _status_result(status: Mapping[str, Any], uid: str) -> AdmitResult:
    """An :class:`AdmitResult` of a ``metav1.Status`` (:mod:`crdtool.core.apistatus`)."""
    return AdmitResult(False, int(status.get("code") or 500), str(status.get("reason") or ""),
                       str(status.get("message") or ""), uid=uid, details=dict(status.get("details") or {}))


def _decode_builtin(attr: Attributes, info: Any, release: Release) -> tuple[Attributes, AdmitResult | None]:
    """A built-in object as the apiserver's typed decoding and the codec's defaulting leave it
    (:func:`crdtool.core.builtin.decode.decode_builtin`, the group's ``set_object_defaults``)."""
    from crdtool.core import apistatus
    from crdtool.core.builtin.decode import decode_builtin
    from crdtool.core.errors import UNKNOWN_FIELD
    from crdtool.core.registry import strategies

    out = attr
    for which in ("object", "old_object"):
        obj = getattr(out, which)
        if obj is None:
            continue
        decoded, errors = decode_builtin(obj, info, release)
        hard = [e for e in errors if e.type != UNKNOWN_FIELD]
        if hard and which == "object":
            message = (f"{info.kind} in version {go_quote(info.version)} cannot be handled as a {info.kind}: "
                       f"{hard[0]}")
            return attr, _status_result(apistatus.bad_request(message), attr.uid)
        if errors and which == "object" and _field_validation(attr) == "Strict":
            message = (f"{info.kind} in version {go_quote(info.version)} cannot be handled as a {info.kind}: "
                       "strict decoding error: " + ", ".join(str(e) for e in errors))
            return attr, _status_result(apistatus.bad_request(message), attr.uid)
        defaults = strategies.defaults_module(info.group)
        set_defaults = getattr(defaults, "set_object_defaults", None)
        stored = copy.deepcopy(decoded)
        if set_defaults is not None:
            set_defaults(stored, info.version, info.kind, release)
        out = replace(out, object=stored) if which == "object" else replace(out, old_object=stored)
    return out, None


def _create_builtin(attr: Attributes, release: Release) -> tuple[Attributes, AdmitResult | None]:
    """The built-in kind's create strategy on the (mutated) object (``BeforeCreate``: ``PrepareForCreate``,
    ``Validate``): the object as stored, or the status the apiserver answers."""
    from crdtool.core.registry.create import create_builtin

    if attr.operation != "CREATE" or attr.object is None:
        return attr, None
    verdict = create_builtin(attr.object, release, field_validation="Ignore")
    if not verdict.ok:
        return attr, _status_result(verdict.status, attr.uid)
    return (attr.with_object(verdict.object) if verdict.object is not None else attr), None


def _request_attributes(bundle: _Bundle, req: Mapping[str, Any], release: Release) -> Attributes:
    """The request's ``admission.Attributes``; kind and resource filled in from the object and the bundle."""
    operation = str(req.get("operation") or "")
    if operation not in ("CREATE", "UPDATE", "DELETE", "CONNECT"):
        raise AdmitError(f"request.operation must be one of CREATE, UPDATE, DELETE, CONNECT, not {operation!r}")
    obj = req.get("object")
    old = req.get("oldObject")
    subject = obj if isinstance(obj, Mapping) else old if isinstance(old, Mapping) else None
    kind_in = req.get("kind") or {}
    if kind_in:
        kind: GVK = (str(kind_in.get("group") or ""), str(kind_in.get("version") or ""), str(kind_in.get("kind") or ""))
    elif subject is not None:
        g, v = _gv(str(subject.get("apiVersion") or ""))
        kind = (g, v, str(subject.get("kind") or ""))
    else:
        raise AdmitError("the AdmissionReview's request names no kind and carries no object")
    res_in = req.get("resource") or {}
    found = _resource_of(bundle, kind[0], kind[1], kind[2], release)
    if res_in:
        resource: GVR = (str(res_in.get("group") or ""), str(res_in.get("version") or ""),
                         str(res_in.get("resource") or ""))
    elif found is not None:
        resource = (kind[0], kind[1], found[0])
    else:
        raise AdmitError(f"no resource serves kind {kind[2]!r} of {'/'.join(p for p in kind[:2] if p)!r}: "
                         "give request.resource or the CRD")
    namespaced = found[1] if found is not None else True
    name = str(req.get("name") or _meta(subject).get("name") or "")
    namespace = str(req.get("namespace") or (_meta(subject).get("namespace") if namespaced else "") or "")
    if namespaced and not namespace and resource[2] != "namespaces" and found is not None:
        namespace = "default"
    user = req.get("userInfo") or {}
    return Attributes(
        operation=operation, kind=kind, resource=resource, name=name, namespace=namespace,
        subresource=str(req.get("subResource") or ""),
        object=dict(obj) if isinstance(obj, Mapping) else None,
        old_object=dict(old) if isinstance(old, Mapping) else None,
        user_info=dict(user) if isinstance(user, Mapping) else {}, dry_run=bool(req.get("dryRun")),
        options=req.get("options"), uid=str(req.get("uid") or ""),
    )


def _forbidden(attr: Attributes, message: str) -> tuple[str, dict[str, Any]]:
    """``admission.NewForbidden``: the message and the details."""
    name = attr.name
    if not name:
        meta = _meta(attr.object)
        name = str(meta.get("name") or meta.get("generateName") or "Unknown") if attr.object is not None else "Unknown"
    resource = attr.resource[2] + (f"/{attr.subresource}" if attr.subresource else "")
    qualified = f"{resource}.{attr.resource[0]}" if attr.resource[0] else resource
    details = {"name": name, "group": attr.resource[0], "kind": resource}
    if not qualified:
        return f"forbidden: {message}", details
    return f"{qualified} {go_quote(name)} is forbidden: {message}", details


def _namespace_lifecycle(attr: Attributes, bundle: _Bundle) -> AdmitResult | None:
    """``Lifecycle.Admit`` for a bundle's namespaces (all Active unless ``status.phase`` says otherwise)."""
    is_namespace = attr.kind[0] == "" and attr.kind[2] == "Namespace"
    if not attr.namespace and not is_namespace:
        return None
    if is_namespace or attr.operation == "DELETE":
        return None
    ns = bundle.namespaces.get(attr.namespace)
    if ns is None:
        return AdmitResult(False, 404, "NotFound", f'namespaces "{attr.namespace}" not found', uid=attr.uid,
                           details={"name": attr.namespace, "kind": "namespaces"})
    if attr.operation == "CREATE" and (ns.get("status") or {}).get("phase") == "Terminating":
        msg, details = _forbidden(attr, f"unable to create new content in namespace {attr.namespace} because it is "
                                        "being terminated")
        details["causes"] = [{"reason": "NamespaceTerminating", "message": f"namespace {attr.namespace} is being "
                              "terminated", "field": "metadata.namespace"}]
        return AdmitResult(False, 403, "Forbidden", msg, uid=attr.uid, details=details)
    return None


def _stored_namespace(ns: Mapping[str, Any]) -> dict[str, Any]:
    """A Namespace as the namespace strategy stores it (``PrepareForCreate``: phase Active, the
    ``kubernetes`` finalizer)."""
    out = dict(ns)
    spec = dict(out.get("spec") or {})
    finalizers = list(spec.get("finalizers") or [])
    if "kubernetes" not in finalizers:
        finalizers.append("kubernetes")
    spec["finalizers"] = finalizers
    out["spec"] = spec
    status = dict(out.get("status") or {})
    status.setdefault("phase", "Active")
    out["status"] = status
    return out


def _field_validation(attr: Attributes) -> str:
    options = attr.options if isinstance(attr.options, Mapping) else {}
    fv = str(options.get("fieldValidation") or "Warn")
    return fv if fv in ("Strict", "Warn", "Ignore") else "Warn"


def _decode_custom_resource(attr: Attributes, crd: dict[str, Any], release: Release) -> tuple[Attributes, AdmitResult | None]:
    """The CRD handler's decoding of the request's object (pruning, null-dropping, defaulting)."""
    from crdtool.core.customresource import CustomResourceError, decode_object

    if attr.object is None or attr.operation not in ("CREATE", "UPDATE"):
        return attr, None
    try:
        decoded = decode_object(attr.object, crd, kubernetes_version=release.name)
    except CustomResourceError as exc:
        return attr, AdmitResult(False, 400, "BadRequest", str(exc), uid=attr.uid)
    if decoded.errors:
        return attr, AdmitResult(False, 400, "BadRequest", str(decoded.errors[0]), uid=attr.uid)
    return attr.with_object(decoded.stored), None


def _with_resource_version(new: dict[str, Any], old: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any], bool]:
    """The objects of an UPDATE with ``metadata.resourceVersion`` set where the review left it out."""
    new_meta, old_meta = _meta(new), _meta(old)
    if new_meta.get("resourceVersion") or old_meta.get("resourceVersion"):
        return new, old, False
    return ({**new, "metadata": {**new_meta, "resourceVersion": "1"}},
            {**old, "metadata": {**old_meta, "resourceVersion": "1"}}, True)


def _custom_resource(attr: Attributes, crd: dict[str, Any], release: Release) -> tuple[Attributes, AdmitResult | None]:
    """The CRD's create/update strategy on the (mutated) object: the object as stored, or the 422 it answers."""
    from crdtool.core.customresource import CustomResourceError, apply_create, apply_update

    fv = _field_validation(attr)
    try:
        if attr.operation == "CREATE" and attr.object is not None:
            res = apply_create(attr.object, crd, field_validation=fv, kubernetes_version=release.name)
            stored, errors = res.stored, res.errors
        elif attr.operation == "UPDATE" and attr.object is not None and attr.old_object is not None:
            # a request that reached admission passed the update's preconditions: a review without
            # resourceVersions is taken to be at the stored one
            new, old, filled = _with_resource_version(attr.object, attr.old_object)
            upd = apply_update(new, old, crd, field_validation=fv, kubernetes_version=release.name)
            stored, errors = upd.stored, list(upd.errors)
            if filled and isinstance(stored.get("metadata"), dict):
                stored = {**stored, "metadata": {k: v for k, v in stored["metadata"].items() if k != "resourceVersion"}}
        else:
            return attr, None
    except CustomResourceError as exc:
        return attr, AdmitResult(False, 400, "BadRequest", str(exc), uid=attr.uid)
    if errors:
        decode = [e for e in errors if e.type in ("UnknownField", "DuplicateField")]
        if decode:
            return attr, AdmitResult(False, 400, "BadRequest",
                                     "strict decoding error: " + ", ".join(str(e) for e in decode), uid=attr.uid)
        spec = crd.get("spec") or {}
        group_kind = f"{(spec.get('names') or {}).get('kind')}.{spec.get('group')}"
        messages = list(dict.fromkeys(str(e) for e in errors))
        body = messages[0] if len(messages) == 1 else "[" + ", ".join(messages) + "]"
        causes = [{"reason": e.type, "message": e.body(), "field": e.field} for e in errors]
        name = attr.name
        return attr, AdmitResult(False, 422, "Invalid", f"{group_kind} {go_quote(name)} is invalid: {body}",
                                 uid=attr.uid, details={"name": name, "group": spec.get("group"),
                                                        "kind": (spec.get("names") or {}).get("kind"),
                                                        "causes": causes})
    return attr.with_object(stored), None


def _crd_resources(bundle: _Bundle) -> Resources:
    def labels(name: str) -> Mapping[str, Any] | None:
        ns = bundle.namespaces.get(name)
        return None if ns is None else (_meta(ns).get("labels") or {})

    def equivalents(gvr: GVR, sub: str) -> list[GVR]:
        crd = bundle.crd_for_resource(gvr[0], gvr[2])
        if crd is None:
            return [gvr]
        versions = [str(v.get("name")) for v in (crd.get("spec") or {}).get("versions") or [] if v.get("served")]
        return [(gvr[0], v, gvr[2]) for v in versions]

    def kind_for(gvr: GVR, sub: str) -> GVK | None:
        crd = bundle.crd_for_resource(gvr[0], gvr[2])
        if crd is None:
            return None
        return gvr[0], gvr[1], str(((crd.get("spec") or {}).get("names") or {}).get("kind") or "")

    return Resources(labels, equivalents, kind_for)


def _decode_policy_document(doc: dict[str, Any], release: Release) -> tuple[dict[str, Any], str]:
    """A policy or binding as the apiserver's strict decoding (kubectl's default) reads it: (the typed object,
    ``""``), or (the document, the 400's message). Documents of a version the release does not define pass as
    they are."""
    from crdtool.core.builtin import catalog
    from crdtool.core.builtin.decode import decode_builtin
    from crdtool.core.errors import UNKNOWN_FIELD

    info = catalog.kind_info(release, str(doc.get("apiVersion") or ""), str(doc.get("kind") or ""))
    if info is None or not info.definition:
        return doc, ""
    decoded, errors = decode_builtin(doc, info, release)
    if not errors:
        return decoded, ""
    hard = [e for e in errors if e.type != UNKNOWN_FIELD]
    text = str(hard[0]) if hard else "strict decoding error: " + ", ".join(str(e) for e in errors)
    return doc, f"{info.kind} in version {go_quote(info.version)} cannot be handled as a {info.kind}: {text}"


def _accepted(docs: list[dict[str, Any]], kind: str, default: Callable[[dict[str, Any]], dict[str, Any]],
              validate: Callable[[dict[str, Any]], list[Any]], release: Release,
              rejected: list[Rejected]) -> list[dict[str, Any]]:
    """The documents the apiserver would create (decoded strictly, defaulted, valid), defaulted; the others are
    added to ``rejected`` with their errors."""
    out: list[dict[str, Any]] = []
    for doc in docs:
        decoded, bad = _decode_policy_document(doc, release)
        name = str(_meta(doc).get("name") or "")
        if bad:
            rejected.append(Rejected(kind, name, (bad,)))
            continue
        defaulted = default(decoded)
        errs = validate(defaulted)
        if errs:
            # as the release's field.Error renders them (%#v bad values before 1.34)
            rejected.append(Rejected(kind, name, tuple(str(e.at_release(release)) if isinstance(e, FieldError) else str(e)
                                                       for e in errs)))
        else:
            out.append(defaulted)
    return out


def _hooks(policies: list[dict[str, Any]], bindings: list[dict[str, Any]]) -> list[tuple[dict[str, Any], list[Mapping[str, Any]]]]:
    """The policies that have bindings, each with its bindings, in the bundle's order of the bindings."""
    by_name = {str(_meta(p).get("name") or ""): p for p in policies}
    order: list[str] = []
    grouped: dict[str, list[Mapping[str, Any]]] = {}
    for b in bindings:
        pname = str((b.get("spec") or {}).get("policyName") or "")
        if pname not in by_name:
            continue
        if pname not in grouped:
            order.append(pname)
        grouped.setdefault(pname, []).append(b)
    return [(by_name[n], grouped[n]) for n in order]


def _params_lookup(bundle: _Bundle, release: Release) -> Callable[[Mapping[str, Any]], Params | None]:
    def params_for(param_kind: Mapping[str, Any]) -> Params | None:
        group, version = _gv(str(param_kind.get("apiVersion") or ""))
        kind = str(param_kind.get("kind") or "")
        found = _resource_of(bundle, group, version, kind, release)
        if found is None:
            return None
        objs = tuple(_stored_param(bundle, o, group, version, kind, release)
                     for o in bundle.others + list(bundle.namespaces.values())
                     if o.get("apiVersion") == param_kind.get("apiVersion") and o.get("kind") == kind)
        return Params(found[1], objs)

    return params_for


def _stored_param(bundle: _Bundle, obj: dict[str, Any], group: str, version: str, kind: str,
                  release: Release) -> dict[str, Any]:
    """A params object as the informer holds it: decoded (pruned, defaulted) by its CRD, or by the built-in
    kind's typed decoding and defaults; as given when it would not decode."""
    crd = bundle.crd_for(group, kind)
    if crd is not None:
        from crdtool.core.customresource import CustomResourceError, decode_object

        try:
            decoded = decode_object(obj, crd, kubernetes_version=release.name)
        except CustomResourceError:
            return obj
        return obj if decoded.errors else decoded.stored
    info = _builtin_info(release, group, version, kind)
    if info is None or not info.served:
        return obj
    attr = Attributes("CREATE", (group, version, kind), ("", "", ""), object=obj)
    decoded_attr, refused = _decode_builtin(attr, info, release)
    return obj if refused is not None or decoded_attr.object is None else decoded_attr.object


def _schema_and_defaulter(crd: dict[str, Any] | None, attr: Attributes,
                          release: Release) -> tuple[Any, Callable[[dict[str, Any]], dict[str, Any]]]:
    """The object's structural schema and the CRD's defaulting (``unstructuredDefaulter``); none for built-ins."""
    if crd is None or attr.object is None:
        return None, lambda o: o
    from crdtool.core.customresource import prepare_crd, resolve_version
    from crdtool.core.customresource import default as cr_default

    prepared = prepare_crd(crd, release.name)
    try:
        ver = resolve_version(attr.object, prepared)
    except ValueError:
        return None, lambda o: o
    serving = ver.serving_schema
    return ver.structural, lambda o: cr_default(o, serving)


def _authorizer(bundle: _Bundle, release: Release, gates: Mapping[str, bool]) -> Binder:
    """The policy plugins' authorizer: the apiserver's chain (``system:masters``, then RBAC over the bootstrap
    policy and the bundle's Roles, ClusterRoles, RoleBindings and ClusterRoleBindings), with the selectors passed
    on as ``AuthorizeWithSelectors`` says (``authz.go``: gated v0.31.0 … v0.36.x, always from v0.37.0-beta.0)."""
    selectors = release.minor >= 37 or gates.get("AuthorizeWithSelectors", release.gate("AuthorizeWithSelectors"))
    return Binder(ClusterAuthorizer(bundle.others), bool(selectors))


def admit(documents: list[Mapping[str, Any]], release: Release | str | None = None,
          feature_gates: Mapping[str, bool] | None = None) -> AdmitResult:
    """Run the bundle's AdmissionReview through the admission chain of ``release``.

    In: plain objects (one ``AdmissionReview``); the release (default: the newest); feature gates overriding the
    release's defaults. Out: :class:`AdmitResult`. Raises :class:`AdmitError` when the bundle does not make one
    request.
    """
    rel = resolve_release(release)
    bundle = _sort(list(documents))
    if len(bundle.reviews) != 1:
        raise AdmitError(f"the bundle must hold exactly one admission.k8s.io/v1 AdmissionReview, not {len(bundle.reviews)}")
    req = bundle.reviews[0].get("request")
    if not isinstance(req, Mapping):
        raise AdmitError("the AdmissionReview has no request")
    gates = dict(feature_gates or {})
    attr = replace(_request_attributes(bundle, req, rel), authorizer=_authorizer(bundle, rel, gates))

    rejected: list[Rejected] = []
    policies = _accepted(bundle.policies, "ValidatingAdmissionPolicy", policy_create.default_policy,
                         lambda d: policy_create.refusals("ValidatingAdmissionPolicy", d, rel), rel, rejected)
    bindings = _accepted(bundle.bindings, "ValidatingAdmissionPolicyBinding", policy_create.default_binding,
                         lambda d: policy_create.refusals("ValidatingAdmissionPolicyBinding", d, rel), rel,
                         rejected)
    type_warnings = [w for p in policies for w in type_check(p, rel, bundle.crds)]

    def finish(result: AdmitResult) -> AdmitResult:
        result.rejected = rejected
        result.type_check_warnings = type_warnings
        result.uid = attr.uid
        return result

    mutating_on = rel.minor >= 32 and gates.get("MutatingAdmissionPolicy", gate_default(rel))
    mutating_policies: list[dict[str, Any]] = []
    mutating_bindings: list[dict[str, Any]] = []
    if mutating_on:
        mutating_policies = _accepted(
            bundle.mutating, "MutatingAdmissionPolicy", lambda d: policy_create.default_policy(d, mutating=True),
            lambda d: policy_create.refusals("MutatingAdmissionPolicy", d, rel), rel, rejected)
        mutating_bindings = _accepted(
            bundle.mutating_bindings, "MutatingAdmissionPolicyBinding", policy_create.default_binding,
            lambda d: policy_create.refusals("MutatingAdmissionPolicyBinding", d, rel), rel, rejected)
    else:
        for kind_name, docs in (("MutatingAdmissionPolicy", bundle.mutating),
                                ("MutatingAdmissionPolicyBinding", bundle.mutating_bindings)):
            for d in docs:
                rejected.append(Rejected(kind_name, str(_meta(d).get("name") or ""), (
                    f"not served by Kubernetes {rel.name} without the MutatingAdmissionPolicy feature gate "
                    "(--feature-gates MutatingAdmissionPolicy=true)" if rel.minor >= 32 else
                    f"not served by Kubernetes {rel.name} (MutatingAdmissionPolicy arrived in 1.32)",)))

    lifecycle = _namespace_lifecycle(attr, bundle)
    if lifecycle is not None:
        return finish(lifecycle)
    exempt = attr.kind[0] == _ADMISSIONREGISTRATION and attr.kind[2] in _EXEMPT_KINDS
    resources = _crd_resources(bundle)
    params_for = _params_lookup(bundle, rel)

    def namespace_for(name: str) -> Mapping[str, Any] | None:
        ns = bundle.namespaces.get(name)
        return None if ns is None else _stored_namespace(ns)

    crd = bundle.crd_for(attr.kind[0], attr.kind[2])
    info = _builtin_info(rel, *attr.kind) if crd is None else None
    patched: dict[str, Any] | None = None
    if crd is not None:
        attr, refused = _decode_custom_resource(attr, crd, rel)
        if refused is not None:
            return finish(refused)
    elif info is not None and info.served:
        attr, refused = _decode_builtin(attr, info, rel)
        if refused is not None:
            return finish(refused)
    before = attr.object
    if mutating_on and not exempt and mutating_policies and attr.object is not None:
        m_hooks = [(compile_mutating_policy(p, rel), bs) for p, bs in _hooks(mutating_policies, mutating_bindings)]
        schema, default = _schema_and_defaulter(crd, attr, rel)
        outcome = dispatch_mutating(attr, m_hooks, resources, params_for, namespace_for, schema, default)
        if outcome.denied:
            result = AdmitResult(False, outcome.code, outcome.reason, outcome.message, uid=attr.uid)
            if outcome.reason != "NotFound":
                _, d = _forbidden(attr, "admission request denied by policy")
                d["causes"] = [{"message": outcome.message}]
                result.details = d
            return finish(result)
        if outcome.object != before:
            patched = outcome.object
            attr = attr.with_object(outcome.object)
    if crd is not None:
        attr, refused = _custom_resource(attr, crd, rel)
    elif info is not None and info.served:
        attr, refused = _create_builtin(attr, rel)
    else:
        refused = None
    if refused is not None:
        refused.patched_object = patched
        return finish(refused)

    if exempt:
        return finish(AdmitResult(patched_object=patched))
    hooks = [(compile_policy(p, rel), bs) for p, bs in _hooks(policies, bindings)]
    details: dict[str, Any] = {}

    def forbidden(message: str) -> str:
        text, d = _forbidden(attr, message)
        details.update(d)
        details["causes"] = [{"message": message}]
        return text

    vap = dispatch(attr, hooks, resources, params_for, namespace_for, rel, forbidden)
    result = AdmitResult(warnings=vap.warnings, audit_annotations=vap.annotations, patched_object=patched)
    if vap.denied:
        result.allowed, result.code, result.reason, result.message = False, vap.code, vap.reason, vap.message
        result.details = details
    return finish(result)
