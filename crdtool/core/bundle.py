"""Checks across a bundle: the objects of a chart, a kustomize render or a directory judged as a whole.

No apiserver makes these checks: each object alone is accepted, and the bundle still fails once installed (a
webhook whose Service is not there makes every matching request fail; an RBAC rule with a misspelt plural grants
nothing). Each check has a stable code (``BND001`` ...), selected as ``lint``'s are (ruff's semantics: codes or
prefixes, ``ALL``; see :func:`select_rules`).

The cross references checked, and the upstream code that resolves each reference at run time:

- ``BND001``/``BND002``: a webhook's ``clientConfig.service`` (``namespace``, ``name``, ``port`` defaulting to 443:
  ``SetDefaults_ServiceReference``, k8s.io/api admissionregistration/v1 and apiextensions/v1 ``defaults.go``)
  must name a Service of the bundle and one of its ``spec.ports[].port`` (the apiserver dials the Service's
  port: k8s.io/apiserver ``pkg/util/webhook/serviceresolver.go``). Webhooks of Validating and
  MutatingWebhookConfigurations, and a CRD's conversion webhook (v1 ``spec.conversion.webhook.clientConfig``,
  v1beta1 ``spec.conversion.webhookClientConfig``).
- ``BND003``: a Service's ``spec.selector`` (equality on every pair: ``labels.SelectorFromSet``) must match the
  pod template labels of a workload in its namespace (Pod, Deployment, StatefulSet, DaemonSet, ReplicaSet,
  ReplicationController, Job, CronJob, and a custom resource with a pod template at ``spec.template``, such as
  an Argo Rollout). Services without a selector (manual Endpoints) and ExternalName ones
  are left alone.
- ``BND004``/``BND005``/``BND006``: an RBAC rule's ``apiGroups`` x ``resources`` must name something served:
  a built-in resource of the release (:func:`crdtool.core.builtin.catalog.kinds`), a resource the authorizer
  checks that is no REST resource (:data:`VIRTUAL_RESOURCES`), a CRD of the bundle (``spec.group``,
  ``spec.names.plural``) or any resource of a group an APIService of the bundle serves. A rule is the cross
  product of its lists (``rbac/v1`` ``PolicyRule``; ``RuleAllows`` in kubernetes ``pkg/apis/rbac/v1/evaluation_helpers.go``),
  so a resource is fine when one of the rule's groups serves it; ``x/status`` is checked as ``x``; ``*`` is
  fine. ``BND006`` (a group nobody in the bundle serves and no known group resembles: another operator's API)
  is not in the default set.
- ``BND007``: a ServiceAccount named by a pod template (``spec.serviceAccountName``, or the deprecated
  ``spec.serviceAccount``) or by a binding's subject must be in the bundle. A RoleBinding's subject without a
  namespace is the binding's namespace (``appliesToUser``, kubernetes ``pkg/registry/rbac/validation/rule.go``).
  ``default`` is created by the ServiceAccount controller in every namespace and never reported.
- ``BND008``: a binding's ``roleRef`` must name a Role of the binding's namespace, a ClusterRole of the bundle,
  or a bootstrap ClusterRole (``cluster-admin``, ``admin``, ``edit``, ``view``, ``system:*``: ``ClusterRoles()``
  in kubernetes ``plugin/pkg/auth/authorizer/rbac/bootstrappolicy/policy.go``).

A check whose targets may live outside the bundle runs only when the bundle holds some of them, so a partial
input (one CRD file, the RBAC alone) is not flooded: ``BND001``/``BND002`` need a Service or a workload in the
bundle, ``BND003`` a workload, ``BND007`` a ServiceAccount, ``BND008`` a Role or ClusterRole.

Objects without ``metadata.namespace`` are in the run's default namespace (``namespace=``). A ``List``'s items
are objects of their own, found at ``items[i]`` of the document.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, NamedTuple

__all__ = [
    "BOOTSTRAP_CLUSTER_ROLES",
    "BundleFinding",
    "BundleRule",
    "RULES",
    "VIRTUAL_RESOURCES",
    "check_bundle",
    "select_rules",
    "takes_part",
]


@dataclass(frozen=True)
class BundleRule:
    """One check: ``code`` (``BND001``), ``name`` (``webhook-service-missing``), whether it runs by default, and a
    one-line rationale (``summary``)."""

    code: str
    name: str
    default: bool
    summary: str


#: Every check by code. Codes are stable: a code is never reused for another check.
RULES: dict[str, BundleRule] = {r.code: r for r in (
    BundleRule("BND001", "webhook-service-missing", True,
               "A webhook whose Service is not installed fails every call: with failurePolicy Fail every matching "
               "request (every conversion, for a CRD) is refused."),
    BundleRule("BND002", "webhook-service-port", True,
               "The apiserver dials the Service's port (443 unless clientConfig.service.port says otherwise): a port "
               "the Service does not expose refuses the connection."),
    BundleRule("BND003", "service-selects-nothing", True,
               "A Service whose selector matches no pod template of the bundle has no endpoints."),
    BundleRule("BND004", "rbac-unknown-resource", True,
               "An RBAC rule naming a resource its groups do not serve (a misspelt plural) grants nothing, and the "
               "controller is forbidden at run time."),
    BundleRule("BND005", "rbac-unknown-group", True,
               "An RBAC rule naming a group that looks like a known one (a typo) or that serves nothing any more "
               "grants nothing."),
    BundleRule("BND006", "rbac-foreign-group", False,
               "An RBAC rule naming a group neither built in nor served by the bundle (another operator's API, or a "
               "typo no known group resembles)."),
    BundleRule("BND007", "serviceaccount-missing", True,
               "A pod whose ServiceAccount does not exist is not created; a binding to a missing ServiceAccount "
               "grants nothing."),
    BundleRule("BND008", "role-missing", True,
               "A binding whose Role or ClusterRole does not exist grants nothing."),
)}


def _matches(code: str, selector: str) -> bool:
    return selector == "ALL" or code.startswith(selector)


def select_rules(select: Iterable[str] | None = None, ignore: Iterable[str] = ()) -> frozenset[str]:
    """The codes that run: ``select`` (codes or prefixes such as ``BND00``, or ``ALL``; None: the default set)
    minus ``ignore``.

    Raises ValueError naming a selector that matches no code (a typo must not silence a check).
    """
    chosen: set[str]
    if select is None:
        chosen = {c for c, r in RULES.items() if r.default}
    else:
        chosen = set()
        for s in select:
            chosen |= _hits(s)
    for s in ignore:
        chosen -= _hits(s)
    return frozenset(chosen)


def _hits(selector: str) -> set[str]:
    hit = {c for c in RULES if _matches(c, selector.strip())}
    if not hit:
        raise ValueError(f"unknown bundle check code or prefix {selector!r} (codes: {', '.join(RULES)})")
    return hit


@dataclass(frozen=True)
class BundleFinding:
    """One problem found across the bundle.

    Attributes:
        code, name: the check (:data:`RULES`).
        message: one line for people, naming the objects involved.
        document: the index of the document in the sequence given to :func:`check_bundle`.
        field: the path in that document (``webhooks[0].clientConfig.service``; under ``items[i].`` for a
            List's item).
    """

    code: str
    name: str
    message: str
    document: int
    field: str

    def to_dict(self) -> dict[str, Any]:
        """``{"code", "name", "message", "document", "field"}``."""
        return {"code": self.code, "name": self.name, "message": self.message, "document": self.document,
                "field": self.field}


#: Resources the authorizer is asked about that are no REST resource of a group (so no kind documents them):
#: impersonation (k8s.io/apiserver ``pkg/endpoints/filters/impersonation.go``: users, groups, serviceaccounts,
#: userextras/<key>, uids) and signer names (kubernetes ``plugin/pkg/admission/certificates/util.go``
#: ``IsAuthorizedForSignerName``: ``signers`` with verbs approve, sign, attest).
VIRTUAL_RESOURCES: frozenset[tuple[str, str]] = frozenset({
    ("", "users"), ("", "groups"), ("authentication.k8s.io", "userextras"), ("authentication.k8s.io", "uids"),
    ("certificates.k8s.io", "signers"),
})

#: Groups that served built-in kinds once and serve none on 1.30-1.37, with the release that removed the last
#: (k8s.io/api ``extensions/v1beta1`` ``zz_generated.prerelease-lifecycle.go``: Ingress, removed in 1.22).
REMOVED_GROUPS: dict[str, str] = {"extensions": "1.22"}

#: The bootstrap ClusterRoles that are not ``system:``-prefixed (kubernetes
#: ``plugin/pkg/auth/authorizer/rbac/bootstrappolicy/policy.go``, ``ClusterRoles()``, unchanged 1.30-1.37).
BOOTSTRAP_CLUSTER_ROLES: frozenset[str] = frozenset({"cluster-admin", "admin", "edit", "view"})

#: Workload kinds with a pod template: (group, kind) -> path of the template (a Pod is its own template).
_WORKLOADS: dict[tuple[str, str], tuple[str, ...]] = {
    ("", "Pod"): (),
    ("", "ReplicationController"): ("spec", "template"),
    ("apps", "Deployment"): ("spec", "template"),
    ("apps", "StatefulSet"): ("spec", "template"),
    ("apps", "DaemonSet"): ("spec", "template"),
    ("apps", "ReplicaSet"): ("spec", "template"),
    ("extensions", "Deployment"): ("spec", "template"),
    ("extensions", "DaemonSet"): ("spec", "template"),
    ("extensions", "ReplicaSet"): ("spec", "template"),
    ("batch", "Job"): ("spec", "template"),
    ("batch", "CronJob"): ("spec", "jobTemplate", "spec", "template"),
}

_RBAC = "rbac.authorization.k8s.io"
_ADMISSION = "admissionregistration.k8s.io"


def _map(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _str(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _group(obj: Mapping[str, Any]) -> str:
    api_version = _str(obj.get("apiVersion"))
    return api_version.partition("/")[0] if "/" in api_version else ""


class _Obj(NamedTuple):
    """One object of the bundle (a document, or a List's item) with what the checks index it by. A named tuple:
    immutable as a frozen dataclass, and built in a third of its time (one per document)."""

    document: int
    prefix: str  # "" or "items[3]"
    group: str
    kind: str
    name: str
    namespace: str
    data: Mapping[str, Any]

    def at(self, path: str) -> str:
        return f"{self.prefix}.{path}" if self.prefix and path else (self.prefix or path)

    @property
    def ref(self) -> str:
        return f"{self.kind} {self.namespace}/{self.name}"


def _objects(documents: Sequence[Any], namespace: str) -> Iterator[_Obj]:
    for i, doc in enumerate(documents):
        if not isinstance(doc, Mapping):
            continue
        kind = _str(doc.get("kind"))
        if kind.endswith("List") and isinstance(doc.get("items"), list):
            for j, item in enumerate(doc["items"]):
                if isinstance(item, Mapping):
                    yield _obj(i, f"items[{j}]", item, namespace)
        else:
            yield _obj(i, "", doc, namespace)


def _obj(document: int, prefix: str, data: Mapping[str, Any], namespace: str) -> _Obj:
    meta = _map(data.get("metadata"))
    return _Obj(document, prefix, _group(data), _str(data.get("kind")), _str(meta.get("name")),
                _str(meta.get("namespace")) or namespace, data)


def _q(value: str) -> str:
    return '"' + value + '"'


def _nearest(word: str, candidates: Iterable[str]) -> str | None:
    pool = sorted(set(candidates))
    for c in pool:
        if c.lower() == word.lower() and c != word:
            return c
    got = difflib.get_close_matches(word, pool, n=1, cutoff=0.75)
    return got[0] if got else None


def _did_you_mean(word: str, candidates: Iterable[str]) -> str:
    near = _nearest(word, candidates)
    return f" (did you mean {_q(near)}?)" if near else ""


def _is_custom_workload(o: _Obj) -> bool:
    """A custom resource with a pod template at ``spec.template`` (Argo Rollout, OpenKruise CloneSet, ...): its
    controller makes the pods, so Services select them and their ServiceAccount must exist."""
    if (o.group, o.kind) in _WORKLOADS or "." not in o.group or o.group.endswith(".k8s.io"):
        return False
    template = _map(_map(o.data.get("spec")).get("template"))
    return isinstance(_map(template.get("spec")).get("containers"), list)


#: The kinds the checks read besides the workloads: the targets of references (Services, ServiceAccounts, Roles,
#: ClusterRoles, what serves RBAC's groups) and what refers to them (webhooks, bindings, RBAC rules).
_READ_KINDS: frozenset[tuple[str, str]] = frozenset({
    ("", "Service"), ("", "ServiceAccount"),
    (_RBAC, "Role"), (_RBAC, "ClusterRole"), (_RBAC, "RoleBinding"), (_RBAC, "ClusterRoleBinding"),
    ("apiextensions.k8s.io", "CustomResourceDefinition"), ("apiregistration.k8s.io", "APIService"),
    (_ADMISSION, "ValidatingWebhookConfiguration"), (_ADMISSION, "MutatingWebhookConfiguration"),
})


def takes_part(document: Any) -> bool:
    """Whether :func:`check_bundle` reads ``document`` (a plain dict as decoded) at all.

    When False, ``None`` in its place changes no finding, of any rule, release or namespace: none of its objects
    (the document, or a List's items) is of a kind a check reads (:data:`_READ_KINDS`) or a workload with a pod
    template (Pod, Deployment, ..., or a custom resource with one at ``spec.template``). For a process that
    judges part of a bundle and sends back only what the checks across it need.
    """
    for o in _objects((document,), ""):
        if (o.group, o.kind) in _READ_KINDS or (o.group, o.kind) in _WORKLOADS or _is_custom_workload(o):
            return True
    return False


class _Bundle:
    """The objects of the bundle indexed by what the checks look up."""

    def __init__(self, documents: Sequence[Any], namespace: str) -> None:
        self.objects = list(_objects(documents, namespace))
        self.services: dict[tuple[str, str], _Obj] = {}
        self.service_accounts: set[tuple[str, str]] = set()
        self.roles: set[tuple[str, str]] = set()
        self.cluster_roles: set[str] = set()
        self.workloads: list[tuple[_Obj, str, dict[str, Any]]] = []  # (object, template path, template)
        self.crds: list[_Obj] = []
        self.api_service_groups: set[str] = set()
        for o in self.objects:
            if o.group == "" and o.kind == "Service":
                self.services.setdefault((o.namespace, o.name), o)
            elif o.group == "" and o.kind == "ServiceAccount":
                self.service_accounts.add((o.namespace, o.name))
            elif o.group == _RBAC and o.kind == "Role":
                self.roles.add((o.namespace, o.name))
            elif o.group == _RBAC and o.kind == "ClusterRole":
                self.cluster_roles.add(o.name)
            elif o.group == "apiextensions.k8s.io" and o.kind == "CustomResourceDefinition":
                self.crds.append(o)
            elif o.group == "apiregistration.k8s.io" and o.kind == "APIService":
                group = _str(_map(o.data.get("spec")).get("group"))
                if group:
                    self.api_service_groups.add(group)
            template_path = _WORKLOADS.get((o.group, o.kind))
            if template_path is None and _is_custom_workload(o):
                template_path = ("spec", "template")
            if template_path is not None:
                template: Any = o.data
                for key in template_path:
                    template = _map(template).get(key)
                self.workloads.append((o, ".".join(template_path), _map(template)))


def check_bundle(
    documents: Sequence[Any],
    release: Any = "1.37",
    *,
    namespace: str = "default",
    rules: Iterable[str] | None = None,
) -> list[BundleFinding]:
    """The problems across ``documents`` (plain dicts as decoded; anything else is ignored) at ``release``.

    ``release``: ``"1.33"``, ``33`` or a :class:`~crdtool.core.releases.Release` (only the RBAC checks depend on
    it: which group/resources are built in; messages do not name it, so a matrix of releases merges them). ``namespace``: the namespace of objects that name none.
    ``rules``: the codes to run (:func:`select_rules`; None: the default set). Returns the findings ordered by
    document, then by check, then by field. Raises nothing for malformed objects: a field of the wrong type is
    taken as absent (validation reports it).
    """
    chosen = select_rules() if rules is None else frozenset(rules)
    bundle = _Bundle(documents, namespace)
    found: list[BundleFinding] = []
    if chosen & {"BND001", "BND002"} and (bundle.services or bundle.workloads):
        found.extend(_webhook_services(bundle))
    if "BND003" in chosen and bundle.workloads:
        found.extend(_service_selectors(bundle))
    if chosen & {"BND004", "BND005", "BND006"}:
        found.extend(_rbac_rules(bundle, release))
    if "BND007" in chosen and bundle.service_accounts:
        found.extend(_service_accounts(bundle))
    if "BND008" in chosen and (bundle.roles or bundle.cluster_roles):
        found.extend(_role_refs(bundle))
    found = [f for f in found if f.code in chosen]
    found.sort(key=lambda f: (f.document, f.code, f.field))
    return found


def _finding(code: str, obj: _Obj, path: str, message: str) -> BundleFinding:
    return BundleFinding(code, RULES[code].name, message, obj.document, obj.at(path))


# --- BND001, BND002: webhook Services -------------------------------------------------------------------------

def _webhook_refs(o: _Obj) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """(path of clientConfig.service, who calls, the service reference) of each webhook of ``o``."""
    if o.group == _ADMISSION and o.kind in ("ValidatingWebhookConfiguration", "MutatingWebhookConfiguration"):
        for i, hook in enumerate(_list(o.data.get("webhooks"))):
            service = _map(_map(_map(hook).get("clientConfig")).get("service"))
            if service:
                who = f"webhook {_q(_str(_map(hook).get('name')))} of {o.kind} {_q(o.name)}"
                yield f"webhooks[{i}].clientConfig.service", who, service
    elif o.group == "apiextensions.k8s.io" and o.kind == "CustomResourceDefinition":
        conversion = _map(_map(o.data.get("spec")).get("conversion"))
        who = f"the conversion webhook of CustomResourceDefinition {_q(o.name)}"
        v1 = _map(_map(_map(conversion.get("webhook")).get("clientConfig")).get("service"))
        if v1:
            yield "spec.conversion.webhook.clientConfig.service", who, v1
        v1beta1 = _map(_map(conversion.get("webhookClientConfig")).get("service"))
        if v1beta1:
            yield "spec.conversion.webhookClientConfig.service", who, v1beta1


def _webhook_services(bundle: _Bundle) -> Iterator[BundleFinding]:
    for o in bundle.objects:
        for path, who, ref in _webhook_refs(o):
            name = _str(ref.get("name"))
            ns = _str(ref.get("namespace")) or o.namespace
            if not name:
                continue
            service = bundle.services.get((ns, name))
            if service is None:
                elsewhere = sorted(n for n, s in bundle.services if s == name)
                hint = (f" (a Service {_q(name)} is in namespace {_q(elsewhere[0])})" if elsewhere
                        else _did_you_mean(name, (s for n, s in bundle.services if n == ns)))
                yield _finding("BND001", o, path, f"{who} calls Service {_q(ns + '/' + name)}, which is not in the "
                               f"bundle{hint}")
                continue
            port = ref.get("port", 443)
            if not isinstance(port, int) or isinstance(port, bool):
                continue
            ports = [p.get("port") for p in map(_map, _list(_map(service.data.get("spec")).get("ports")))]
            if port not in ports:
                default = " (the default)" if "port" not in ref else ""
                have = ", ".join(str(p) for p in ports if isinstance(p, int)) or "none"
                yield _finding("BND002", o, path + ".port" if "port" in ref else path,
                               f"{who} calls port {port}{default} of Service {_q(ns + '/' + name)}, which exposes "
                               f"{'port' if len(ports) == 1 else 'ports'} {have}")


# --- BND003: Service selectors -----------------------------------------------------------------------------

def _labels(template: Mapping[str, Any]) -> dict[str, Any]:
    return _map(_map(template.get("metadata")).get("labels"))


def _service_selectors(bundle: _Bundle) -> Iterator[BundleFinding]:
    for (ns, name), o in bundle.services.items():
        spec = _map(o.data.get("spec"))
        selector = _map(spec.get("selector"))
        if not selector or spec.get("type") == "ExternalName":
            continue
        candidates = [(w, _labels(t)) for w, _, t in bundle.workloads if w.namespace == ns]
        if any(all(labels.get(k) == v for k, v in selector.items()) for _, labels in candidates):
            continue
        shown = ",".join(f"{k}={v}" for k, v in selector.items())
        hint = ""
        scored = [(sum(labels.get(k) == v for k, v in selector.items()), w, labels) for w, labels in candidates]
        best = max(scored, key=lambda s: s[0], default=None)
        if best is not None and best[0]:
            _, w, labels = best
            misses = [f"{k}={labels[k]}" if k in labels else f"no label {k}" for k, v in selector.items()
                      if labels.get(k) != v]
            hint = f"; nearest: the pod template of {w.kind} {_q(w.name)} has {', '.join(misses)}"
        yield _finding("BND003", o, "spec.selector", f"Service {_q(ns + '/' + name)} selects no pod template of the "
                       f"bundle in namespace {_q(ns)} (selector {shown}){hint}")


# --- BND004, BND005, BND006: RBAC rules ------------------------------------------------------------------

@cache
def _builtin_resources(release: str) -> dict[str, frozenset[str]]:
    from crdtool.core.builtin import catalog

    out: dict[str, set[str]] = {}
    for k in catalog.kinds(release):
        if k.resource:
            out.setdefault(k.group, set()).add(k.resource)
    for group, resource in VIRTUAL_RESOURCES:
        out.setdefault(group, set()).add(resource)
    return {g: frozenset(r) for g, r in out.items()}


def _release_name(release: Any) -> str:
    from crdtool.core.releases import resolve_release

    return resolve_release(release).name


def _group_label(group: str) -> str:
    return '"" (core)' if group == "" else _q(group)


def _rbac_rules(bundle: _Bundle, release: Any) -> Iterator[BundleFinding]:
    roles = [o for o in bundle.objects if o.group == _RBAC and o.kind in ("Role", "ClusterRole")]
    if not roles:
        return  # nothing to check: the release's built-in kinds are not even read (~10 ms, their catalog's import)
    name = _release_name(release)
    served: dict[str, set[str]] = {g: set(r) for g, r in _builtin_resources(name).items()}
    for crd in bundle.crds:
        spec = _map(crd.data.get("spec"))
        group, plural = _str(spec.get("group")), _str(_map(spec.get("names")).get("plural"))
        if group and plural:
            served.setdefault(group, set()).add(plural)
    open_groups = bundle.api_service_groups
    known = set(served) | open_groups
    nearest: dict[str, str | None] = {}  # _nearest(g, known) by g: the same unknown group recurs across Roles
    for o in roles:
        for i, rule in enumerate(map(_map, _list(o.data.get("rules")))):
            groups = [g for g in _list(rule.get("apiGroups")) if isinstance(g, str)]
            resources = [r for r in _list(rule.get("resources")) if isinstance(r, str)]
            if not resources:
                continue
            where = f"rule {i} of {o.kind} {_q(o.name)}"
            unknown = False
            for j, g in enumerate(groups):
                if g == "*" or g in known:
                    continue
                unknown = True
                path = f"rules[{i}].apiGroups[{j}]"
                if g in REMOVED_GROUPS:
                    yield _finding("BND005", o, path, f"{where}: group {_q(g)} serves nothing since "
                                   f"{REMOVED_GROUPS[g]}")
                    continue
                if g not in nearest:
                    nearest[g] = _nearest(g, known)
                near = nearest[g]
                if near is not None and (g.endswith("." + near) or near.endswith("." + g)):
                    near = None  # a sibling API (acme.cert-manager.io beside cert-manager.io), not a typo
                if near is not None:
                    yield _finding("BND005", o, path, f"{where}: group {_q(g)} is neither built in nor served by "
                                   f"the bundle (did you mean {_q(near)}?)")
                else:
                    yield _finding("BND006", o, path, f"{where}: group {_q(g)} is neither built in nor served by a "
                                   "CustomResourceDefinition or APIService of the bundle")
            if unknown or not groups or "*" in groups or any(g in open_groups for g in groups):
                continue
            pool = set().union(*(served.get(g, set()) for g in groups))
            for j, r in enumerate(resources):
                resource = r.partition("/")[0]
                if resource == "*" or resource in pool:
                    continue
                others = sorted(g for g, rs in served.items() if resource in rs)
                hint = (f"; {_group_label(others[0])} serves it" if others
                        else _did_you_mean(resource, pool))
                by = ", ".join(_group_label(g) for g in groups)
                yield _finding("BND004", o, f"rules[{i}].resources[{j}]",
                               f"{where}: resource {_q(resource)} is not served by {'group' if len(groups) == 1 else 'groups'} "
                               f"{by}{hint}")


# --- BND007: ServiceAccounts -------------------------------------------------------------------------------

def _missing_account(bundle: _Bundle, ns: str, name: str) -> str | None:
    """The hint for a missing ServiceAccount ``ns/name``, or None if it is there (or is ``default``)."""
    if not name or name == "default" or (ns, name) in bundle.service_accounts:
        return None
    elsewhere = sorted(n for n, s in bundle.service_accounts if s == name)
    if elsewhere:
        return f" (a ServiceAccount {_q(name)} is in namespace {_q(elsewhere[0])})"
    return _did_you_mean(name, (s for n, s in bundle.service_accounts if n == ns))


def _service_accounts(bundle: _Bundle) -> Iterator[BundleFinding]:
    for o, template_path, template in bundle.workloads:
        spec = _map(template.get("spec"))
        for key in ("serviceAccountName", "serviceAccount"):
            name = _str(spec.get(key))
            if name:
                break
        hint = _missing_account(bundle, o.namespace, name)
        if hint is not None:
            path = ".".join(p for p in (template_path, "spec", key) if p)
            yield _finding("BND007", o, path, f"the pod template of {o.kind} {_q(o.name)} runs as ServiceAccount "
                           f"{_q(o.namespace + '/' + name)}, which is not in the bundle{hint}")
    for o in bundle.objects:
        if o.group != _RBAC or o.kind not in ("RoleBinding", "ClusterRoleBinding"):
            continue
        for i, subject in enumerate(map(_map, _list(o.data.get("subjects")))):
            if subject.get("kind") != "ServiceAccount":
                continue
            ns = _str(subject.get("namespace"))
            if not ns:
                if o.kind == "ClusterRoleBinding":
                    continue  # required there: validation reports it
                ns = o.namespace
            name = _str(subject.get("name"))
            hint = _missing_account(bundle, ns, name)
            if hint is not None:
                yield _finding("BND007", o, f"subjects[{i}]", f"{o.kind} {_q(o.name)} binds ServiceAccount "
                               f"{_q(ns + '/' + name)}, which is not in the bundle{hint}")


# --- BND008: roleRef -------------------------------------------------------------------------------------------

def _role_refs(bundle: _Bundle) -> Iterator[BundleFinding]:
    for o in bundle.objects:
        if o.group != _RBAC or o.kind not in ("RoleBinding", "ClusterRoleBinding"):
            continue
        ref = _map(o.data.get("roleRef"))
        kind, name = _str(ref.get("kind")), _str(ref.get("name"))
        if not name:
            continue
        if kind == "ClusterRole":
            if name in bundle.cluster_roles or name in BOOTSTRAP_CLUSTER_ROLES or name.startswith("system:"):
                continue
            hint = (f" (a Role {_q(name)} is in namespace {_q(o.namespace)})"
                    if o.kind == "RoleBinding" and (o.namespace, name) in bundle.roles
                    else _did_you_mean(name, bundle.cluster_roles | BOOTSTRAP_CLUSTER_ROLES))
            yield _finding("BND008", o, "roleRef.name", f"{o.kind} {_q(o.name)} refers to ClusterRole {_q(name)}, "
                           f"which is neither in the bundle nor a bootstrap ClusterRole{hint}")
        elif kind == "Role" and o.kind == "RoleBinding":
            if (o.namespace, name) in bundle.roles:
                continue
            elsewhere = sorted(n for n, r in bundle.roles if r == name)
            hint = (" (a ClusterRole of that name is in the bundle: roleRef.kind ClusterRole?)"
                    if name in bundle.cluster_roles
                    else f" (a Role {_q(name)} is in namespace {_q(elsewhere[0])})" if elsewhere
                    else _did_you_mean(name, (r for n, r in bundle.roles if n == o.namespace)))
            yield _finding("BND008", o, "roleRef.name", f"RoleBinding {_q(o.name)} refers to Role "
                           f"{_q(o.namespace + '/' + name)}, which is not in the bundle{hint}")
