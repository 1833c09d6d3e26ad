"""Which strategy module and which defaulting module each built-in kind has.

The create path (:mod:`crdtool.core.registry.create`) imports them lazily, by name, from two tables:

* :data:`STRATEGIES`: ``(group, kind)`` → module path of the kind's strategy, mirroring
  kubernetes ``pkg/registry/<group>/<resource>/strategy.go``. A strategy module may define (each optional;
  a missing one falls back to :mod:`crdtool.core.registry.generic`):

  - ``prepare_for_create(obj: dict, release: Release) -> None``: ``PrepareForCreate``; mutates ``obj`` (the
    create path's own defaulted copy: status cleared, generation set, ...).
  - ``validate(obj: dict, release: Release, version: str) -> list[FieldError]``: ``Validate``, ObjectMeta
    included (upstream's ``Validate<Kind>`` calls ``ValidateObjectMeta`` with the kind's name function).
  - ``warnings_on_create(obj: dict, release: Release, version: str) -> list[str]``: ``WarningsOnCreate``.

  ``obj`` is the versioned object as decoded (:mod:`crdtool.core.builtin.decode`) and defaulted: a missing
  field stands for Go's zero value.
* the defaulting module of a group is ``crdtool.core.apis.<package>.defaults`` (:func:`api_package`), mirroring
  ``pkg/apis/<group>/<version>/defaults.go`` and ``zz_generated.defaults.go``. It may define
  ``set_object_defaults(obj: dict, version: str, kind: str, release: Release) -> None`` (mutates ``obj``:
  ``SetObjectDefaults_<Kind>`` of that version). Absent: no defaults.
"""

from __future__ import annotations

import importlib
from functools import cache
from types import ModuleType

__all__ = ["API_PACKAGES", "STRATEGIES", "api_package", "defaults_module", "strategy_module"]

#: API group → the folder name kubernetes uses under ``pkg/apis`` (and ``crdtool/core/apis``).
API_PACKAGES: dict[str, str] = {
    "": "core",
    "admissionregistration.k8s.io": "admissionregistration",
    "apiregistration.k8s.io": "apiregistration",
    "apps": "apps",
    "authentication.k8s.io": "authentication",
    "authorization.k8s.io": "authorization",
    "autoscaling": "autoscaling",
    "batch": "batch",
    "certificates.k8s.io": "certificates",
    "coordination.k8s.io": "coordination",
    "discovery.k8s.io": "discovery",
    "events.k8s.io": "events",
    "flowcontrol.apiserver.k8s.io": "flowcontrol",
    "internal.apiserver.k8s.io": "apiserverinternal",
    "networking.k8s.io": "networking",
    "node.k8s.io": "node",
    "policy": "policy",
    "rbac.authorization.k8s.io": "rbac",
    "resource.k8s.io": "resource",
    "scheduling.k8s.io": "scheduling",
    "storage.k8s.io": "storage",
    "storagemigration.k8s.io": "storagemigration",
}

#: ``(group, kind)`` → the module of its strategy (``pkg/registry/<group>/<resource>/strategy.go``).
#: A kind without an entry gets :mod:`crdtool.core.registry.generic` only.
STRATEGIES: dict[tuple[str, str], str] = {
    ("", "ConfigMap"): "crdtool.core.registry.core.configmap",
    ("", "Namespace"): "crdtool.core.registry.core.namespace",
    ("", "PersistentVolumeClaim"): "crdtool.core.registry.core.persistentvolumeclaim",
    ("", "Pod"): "crdtool.core.registry.core.pod",
    ("", "Secret"): "crdtool.core.registry.core.secret",
    ("", "Service"): "crdtool.core.registry.core.service",
    ("", "ServiceAccount"): "crdtool.core.registry.core.serviceaccount",
    ("apps", "DaemonSet"): "crdtool.core.registry.apps.daemonset",
    ("apps", "Deployment"): "crdtool.core.registry.apps.deployment",
    ("apps", "ReplicaSet"): "crdtool.core.registry.apps.replicaset",
    ("apps", "StatefulSet"): "crdtool.core.registry.apps.statefulset",
    ("batch", "CronJob"): "crdtool.core.registry.batch.cronjob",
    ("batch", "Job"): "crdtool.core.registry.batch.job",
    ("rbac.authorization.k8s.io", "ClusterRole"): "crdtool.core.registry.rbac.clusterrole",
    ("rbac.authorization.k8s.io", "ClusterRoleBinding"): "crdtool.core.registry.rbac.clusterrolebinding",
    ("rbac.authorization.k8s.io", "Role"): "crdtool.core.registry.rbac.role",
    ("rbac.authorization.k8s.io", "RoleBinding"): "crdtool.core.registry.rbac.rolebinding",
    ("policy", "PodDisruptionBudget"): "crdtool.core.registry.policy.poddisruptionbudget",
    ("autoscaling", "HorizontalPodAutoscaler"): "crdtool.core.registry.autoscaling.horizontalpodautoscaler",
    ("networking.k8s.io", "Ingress"): "crdtool.core.registry.networking.ingress",
    ("networking.k8s.io", "IngressClass"): "crdtool.core.registry.networking.ingressclass",
    ("networking.k8s.io", "NetworkPolicy"): "crdtool.core.registry.networking.networkpolicy",
    ("scheduling.k8s.io", "PriorityClass"): "crdtool.core.registry.scheduling.priorityclass",
    ("coordination.k8s.io", "Lease"): "crdtool.core.registry.coordination.lease",
    ("apiregistration.k8s.io", "APIService"): "crdtool.core.registry.apiregistration.apiservice",
    ("admissionregistration.k8s.io", "ValidatingWebhookConfiguration"):
        "crdtool.core.registry.admissionregistration.validatingwebhookconfiguration",
    ("admissionregistration.k8s.io", "MutatingWebhookConfiguration"):
        "crdtool.core.registry.admissionregistration.mutatingwebhookconfiguration",
    ("admissionregistration.k8s.io", "ValidatingAdmissionPolicy"):
        "crdtool.core.registry.admissionregistration.validatingadmissionpolicy",
    ("admissionregistration.k8s.io", "ValidatingAdmissionPolicyBinding"):
        "crdtool.core.registry.admissionregistration.validatingadmissionpolicybinding",
    ("admissionregistration.k8s.io", "MutatingAdmissionPolicy"):
        "crdtool.core.registry.admissionregistration.mutatingadmissionpolicy",
    ("admissionregistration.k8s.io", "MutatingAdmissionPolicyBinding"):
        "crdtool.core.registry.admissionregistration.mutatingadmissionpolicybinding",
}


def api_package(group: str) -> str:
    """``"core"`` for ``""``, ``"rbac"`` for ``rbac.authorization.k8s.io``; the group's first label otherwise."""
    return API_PACKAGES.get(group) or group.split(".")[0]


def _import(name: str) -> ModuleType | None:
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name is not None and name.startswith(exc.name):
            return None  # the module (or its package) does not exist: nothing to run
        raise


@cache
def strategy_module(group: str, kind: str) -> ModuleType | None:
    """The kind's strategy module, or None (see :data:`STRATEGIES`)."""
    name = STRATEGIES.get((group, kind))
    return _import(name) if name else None


@cache
def defaults_module(group: str) -> ModuleType | None:
    """``crdtool.core.apis.<package>.defaults``, or None when the group has none."""
    return _import(f"crdtool.core.apis.{api_package(group)}.defaults")
