"""Fields a release's default feature gates drop from a pod spec before validation: kubernetes/kubernetes
``pkg/api/pod/util.go`` ``DropDisabledTemplateFields`` / ``DropDisabledPodFields`` → ``dropDisabledFields``, for a
create (no old object, so no field is "in use").

The strategies' ``PrepareForCreate`` call it (Deployment, ReplicaSet, StatefulSet, DaemonSet, Job, CronJob, Pod):
the field is silently gone from the stored object, and validation never sees it. Functions take the versioned
(v1) pod spec dict after defaulting and change it in place; the internal type's ``SecurityContext.HostUsers`` is
v1's ``spec.hostUsers``.

Gate defaults: :data:`POD_GATES`, from ``pkg/features/kube_features.go`` (``versioned_kube_features.go`` at 1.32)
at openshift/microshift ``release-4.17`` … ``release-4.23`` (= 1.30 … 1.36); 1.37 keeps 1.36's defaults. A gate that
is on at every release 1.30 … 1.37 (``SidecarContainers``, ``PodLifecycleSleepAction``,
``NodeInclusionPolicyInPodTopologySpread``, ``MatchLabelKeysInPodTopologySpread``) drops nothing and is not listed.
"""

from __future__ import annotations

from typing import Any, Callable

from crdtool.core.releases import Release

#: Default of each pod-spec gate by release: ``(first minor, default)`` steps; the default at 1.N is the last step
#: at or before N (off before the first step).
POD_GATES: dict[str, tuple[tuple[int, bool], ...]] = {
    "UserNamespacesSupport": ((30, False), (33, True)),  # Beta false 1.30, Beta true 1.33, GA 1.36
    "SupplementalGroupsPolicy": ((31, False), (33, True)),  # Alpha 1.31, Beta true 1.33, GA 1.35
    "PodLevelResources": ((32, False), (34, True)),  # Alpha 1.32, Beta true 1.34
    "ProcMountType": ((30, False), (33, True)),  # Alpha/Beta false until 1.33 (Beta true)
    "MatchLabelKeysInPodAffinity": ((30, False), (31, True)),  # Alpha 1.29, Beta true 1.31
    "DynamicResourceAllocation": ((30, False), (34, True)),  # Alpha 1.30/31, Beta false 1.32, GA 1.34
    "ClusterTrustBundleProjection": ((30, False),),  # Alpha 1.29, Beta false 1.33
    "PodCertificateRequest": ((34, False),),  # Alpha 1.34
    "InPlacePodVerticalScaling": ((30, False), (33, True)),  # Alpha until 1.33 (Beta true)
    "ContainerRestartRules": ((34, False), (35, True)),  # Alpha 1.34, Beta true 1.35
    "RecursiveReadOnlyMounts": ((30, False), (31, True)),  # Alpha 1.30, Beta true 1.31
    "HostnameOverride": ((34, False), (35, True)),  # Alpha 1.34, Beta true 1.35
    "EnvFiles": ((34, False), (35, True)),  # Alpha 1.34, Beta true 1.35
    "ImageVolume": ((31, False), (35, True)),  # Alpha 1.31, Beta false 1.33, Beta true 1.35, GA 1.36
    "SELinuxChangePolicy": ((32, False), (33, True)),  # Alpha 1.32, Beta true 1.33
    "ContainerStopSignals": ((33, False),),  # Alpha 1.33
    "GenericWorkload": ((35, False),),  # Alpha 1.35 (workloadRef), 1.36 (schedulingGroup)
}


def pod_gate(name: str, release: Release) -> bool:
    """The default of pod-spec gate ``name`` at ``release`` (:data:`POD_GATES`); KeyError if unknown."""
    return release.gate_default(POD_GATES[name])


def dig(obj: Any, *keys: str) -> Any:
    """``obj[k1][k2]...``, or None where a level is missing or not an object."""
    for key in keys:
        if not isinstance(obj, dict):
            return None
        obj = obj.get(key)
    return obj


def _dicts(v: Any) -> list[dict[str, Any]]:
    return [x for x in v if isinstance(x, dict)] if isinstance(v, list) else []


def _containers(spec: dict[str, Any]) -> list[dict[str, Any]]:
    """``VisitContainers(podSpec, AllContainers, ...)``: init, regular, ephemeral containers."""
    return _dicts(spec.get("initContainers")) + _dicts(spec.get("containers")) + _dicts(spec.get("ephemeralContainers"))


def _pop_in(obj: Any, *keys: str) -> None:
    """``obj[k1][k2]...`` removed when present."""
    for key in keys[:-1]:
        obj = obj.get(key) if isinstance(obj, dict) else None
    if isinstance(obj, dict):
        obj.pop(keys[-1], None)


def _drop_image_volumes(spec: dict[str, Any]) -> None:
    """``dropImageVolumes``: image volumes and the mounts that name them."""
    volumes = spec.get("volumes")
    if not isinstance(volumes, list):
        return
    names = {v.get("name") for v in _dicts(volumes) if v.get("image") is not None}
    if not names:
        return
    # Go rebuilds both lists from nil: emptied, they are nil and omitted from JSON
    kept = [v for v in volumes if not (isinstance(v, dict) and v.get("image") is not None)]
    if kept:
        spec["volumes"] = kept
    else:
        del spec["volumes"]
    for ctr in _containers(spec):
        mounts = ctr.get("volumeMounts")
        if isinstance(mounts, list):
            kept_mounts = [mt for mt in mounts if not (isinstance(mt, dict) and mt.get("name") in names)]
            if kept_mounts:
                ctr["volumeMounts"] = kept_mounts
            else:
                del ctr["volumeMounts"]


def _drop_match_label_keys_in_pod_affinity(spec: dict[str, Any]) -> None:
    """``dropDisabledMatchLabelKeysFieldInPodAffinity``: terms' ``matchLabelKeys`` and ``mismatchLabelKeys``."""
    affinity = spec.get("affinity")
    if not isinstance(affinity, dict):
        return
    for kind in ("podAffinity", "podAntiAffinity"):
        aff = affinity.get(kind)
        if not isinstance(aff, dict):
            continue
        terms = _dicts(aff.get("requiredDuringSchedulingIgnoredDuringExecution"))
        terms += [t["podAffinityTerm"] for t in _dicts(aff.get("preferredDuringSchedulingIgnoredDuringExecution")) if isinstance(t.get("podAffinityTerm"), dict)]
        for term in terms:
            term.pop("matchLabelKeys", None)
            term.pop("mismatchLabelKeys", None)


def _drop_dra(spec: dict[str, Any]) -> None:
    """``dropDisabledDynamicResourceAllocationFields``: containers' ``resources.claims`` and ``resourceClaims``."""
    for ctr in _containers(spec):
        _pop_in(ctr, "resources", "claims")
    spec.pop("resourceClaims", None)


def _drop_projected_source(spec: dict[str, Any], key: str) -> None:
    """``dropDisabledClusterTrustBundleProjection`` / ``...PodCertificateProjection``: the source's field (the
    source entry stays, empty)."""
    for vol in _dicts(spec.get("volumes")):
        projected = vol.get("projected")
        if isinstance(projected, dict):
            for source in _dicts(projected.get("sources")):
                source.pop(key, None)


def _drop_proc_mount(spec: dict[str, Any]) -> None:
    """``dropDisabledProcMountField``: a set ``procMount`` becomes ``Default``."""
    for ctr in _containers(spec):
        sc = ctr.get("securityContext")
        if isinstance(sc, dict) and sc.get("procMount") is not None:
            sc["procMount"] = "Default"


def _drop_container_restart_rules(spec: dict[str, Any]) -> None:
    """``dropContainerRestartRules``: init containers keep ``restartPolicy: Always`` (sidecars)."""
    for ctr in _dicts(spec.get("initContainers")):
        if ctr.get("restartPolicy") is not None and ctr.get("restartPolicy") != "Always":
            ctr.pop("restartPolicy", None)
        ctr.pop("restartPolicyRules", None)
    for key in ("containers", "ephemeralContainers"):
        for ctr in _dicts(spec.get(key)):
            ctr.pop("restartPolicy", None)
            ctr.pop("restartPolicyRules", None)


def _drop_rro(spec: dict[str, Any]) -> None:
    for ctr in _containers(spec):
        for mount in _dicts(ctr.get("volumeMounts")):
            mount.pop("recursiveReadOnly", None)


def _drop_file_key_ref(spec: dict[str, Any]) -> None:
    """``dropFileKeyRefInUse``: ``env[].valueFrom.fileKeyRef``."""
    for ctr in _containers(spec):
        for env in _dicts(ctr.get("env")):
            _pop_in(env, "valueFrom", "fileKeyRef")


def _drop_stop_signals(spec: dict[str, Any]) -> None:
    """``dropContainerStopSignals``: ``lifecycle.stopSignal``, and the lifecycle when it is then empty."""
    for ctr in _containers(spec):
        lc = ctr.get("lifecycle")
        if isinstance(lc, dict) and lc.get("stopSignal") is not None:
            lc.pop("stopSignal")
            if not any(lc.get(k) is not None for k in ("postStart", "preStop", "stopSignal")):
                ctr.pop("lifecycle")


def _each_container(key: str) -> Callable[[dict[str, Any]], None]:
    def drop(spec: dict[str, Any]) -> None:
        for ctr in _containers(spec):
            ctr.pop(key, None)
    return drop


def _security_context(key: str) -> Callable[[dict[str, Any]], None]:
    def drop(spec: dict[str, Any]) -> None:
        _pop_in(spec, "securityContext", key)
    return drop


def _spec_field(key: str) -> Callable[[dict[str, Any]], None]:
    def drop(spec: dict[str, Any]) -> None:
        spec.pop(key, None)
    return drop


#: ``dropDisabledFields``'s steps in upstream's order: (gate, what is dropped while it is off).
_DROPS: tuple[tuple[str, Callable[[dict[str, Any]], None]], ...] = (
    ("UserNamespacesSupport", _spec_field("hostUsers")),
    ("SupplementalGroupsPolicy", _security_context("supplementalGroupsPolicy")),
    ("PodLevelResources", _spec_field("resources")),
    ("ProcMountType", _drop_proc_mount),
    ("MatchLabelKeysInPodAffinity", _drop_match_label_keys_in_pod_affinity),
    ("DynamicResourceAllocation", _drop_dra),
    ("ClusterTrustBundleProjection", lambda spec: _drop_projected_source(spec, "clusterTrustBundle")),
    ("PodCertificateRequest", lambda spec: _drop_projected_source(spec, "podCertificate")),
    # 1.35 names the field workloadRef, 1.36 schedulingGroup (dropDisabledSchedulingGroup, release-4.23); each
    # release's strict decoding refuses the other name
    ("GenericWorkload", _spec_field("workloadRef")),
    ("GenericWorkload", _spec_field("schedulingGroup")),
    ("InPlacePodVerticalScaling", _each_container("resizePolicy")),
    ("ContainerRestartRules", _drop_container_restart_rules),
    ("RecursiveReadOnlyMounts", _drop_rro),
    ("HostnameOverride", _spec_field("hostnameOverride")),
    ("EnvFiles", _drop_file_key_ref),
    ("ImageVolume", _drop_image_volumes),
    ("SELinuxChangePolicy", _security_context("seLinuxChangePolicy")),
    ("ContainerStopSignals", _drop_stop_signals),
)


#: Drops that a release has only from a minor on, for a field its types had before the gate: a container's
#: ``restartPolicy`` exists since 1.28 (sidecars), ``dropContainerRestartRules`` only since 1.34 (release-4.21;
#: release-4.20 = 1.33 drops nothing, so 1.30 … 1.33 validate a regular container's ``restartPolicy``: Forbidden).
_DROP_SINCE: dict[str, int] = {"ContainerRestartRules": 34}


def drop_disabled_pod_spec_fields(spec: Any, release: Release) -> None:
    """Upstream ``dropDisabledFields`` on a create: every field whose gate is off at ``release`` removed from
    ``spec`` (a v1 pod spec dict, changed in place; anything else is left alone). A gate's field that the release's
    types do not have yet is refused earlier, by strict decoding."""
    if not isinstance(spec, dict):
        return
    for gate, drop in _DROPS:
        if not pod_gate(gate, release) and release.minor >= _DROP_SINCE.get(gate, 0):
            drop(spec)


def drop_disabled_template_fields(template: Any, release: Release) -> None:
    """Upstream ``DropDisabledTemplateFields`` (``template``: a pod template dict, ``spec`` changed in place)."""
    if isinstance(template, dict):
        drop_disabled_pod_spec_fields(template.get("spec"), release)
