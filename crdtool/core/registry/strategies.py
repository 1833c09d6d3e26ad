"""Which strategy module judges a built-in kind on create: ``(group, kind)`` → module path (group ``""`` is
core). Modules are imported lazily by the create path (:mod:`crdtool.core.registry.create`)."""

from __future__ import annotations

STRATEGIES: dict[tuple[str, str], str] = {
    ("", "ConfigMap"): "crdtool.core.registry.core.configmap",
    ("", "Namespace"): "crdtool.core.registry.core.namespace",
    ("", "PersistentVolumeClaim"): "crdtool.core.registry.core.persistentvolumeclaim",
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
}

#: ``crdtool.core.apis.<package>.defaults`` for each group (``set_defaults(obj, version, release)``).
DEFAULTS: dict[str, str] = {
    "": "crdtool.core.apis.core.defaults",
    "apps": "crdtool.core.apis.apps.defaults",
    "batch": "crdtool.core.apis.batch.defaults",
    "rbac.authorization.k8s.io": "crdtool.core.apis.rbac.defaults",
    "policy": "crdtool.core.apis.policy.defaults",
    "autoscaling": "crdtool.core.apis.autoscaling.defaults",
    "networking.k8s.io": "crdtool.core.apis.networking.defaults",
    "scheduling.k8s.io": "crdtool.core.apis.scheduling.defaults",
    "coordination.k8s.io": "crdtool.core.apis.coordination.defaults",
    "apiregistration.k8s.io": "crdtool.core.apis.apiregistration.defaults",
}
