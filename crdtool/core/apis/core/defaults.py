"""Defaulting of the core group's v1 kinds, as the apiserver does it after decoding.

Mirrors kubernetes/kubernetes ``pkg/apis/core/v1/defaults.go`` (``SetDefaults_*``) and the generated
``zz_generated.defaults.go`` (``SetObjectDefaults_*``: which ``SetDefaults_*`` run on which nested structs,
and the declarative ``+default`` markers such as a container port's ``protocol: TCP``), 1.30 … 1.36
(openshift/microshift ``release-4.17`` … ``release-4.23``). The differences between those releases in what is
ported here: ``SetDefaults_Volume`` defaults an image volume's ``pullPolicy`` when gate ``ImageVolume`` is on
(1.35 Beta true, 1.36 GA); ``fileKeyRef.optional`` defaults to false where the field exists (1.34+).

``SetDefaults_ResourceList`` rounds each quantity up to milli units and the stored text is the canonical one
(``"0.5"`` → ``500m``, :mod:`crdtool.core.apis._quantity`). Left out: the Pod-only defaults (``SetDefaults_Pod``), PersistentVolume, Node, Endpoints, LimitRange.

Every function mutates its dict argument in place and returns None.
"""

from __future__ import annotations

from typing import Any

from crdtool.core.apis._util import ensure_dict as _d
from crdtool.core.apis._util import rel
from crdtool.core.releases import Release


def _dicts(v: Any) -> list[dict[str, Any]]:
    return [x for x in v if isinstance(x, dict)] if isinstance(v, list) else []


def image_tag(image: str) -> str:
    """The tag ``parsers.ParseImageName`` gives: the explicit tag, ``latest`` when there is neither tag nor
    digest, ``""`` for a digest alone."""
    name, _, digest = image.partition("@")
    last = name.rsplit("/", 1)[-1]
    if ":" in last:
        return last.rsplit(":", 1)[1]
    return "" if digest else "latest"


def _http_get(h: Any) -> None:
    if isinstance(h, dict):
        if not h.get("path"):
            h["path"] = "/"
        if not h.get("scheme"):
            h["scheme"] = "HTTP"


def _probe(p: Any) -> None:
    """``SetDefaults_Probe`` and the handlers' defaults."""
    if not isinstance(p, dict):
        return
    for key, value in (("timeoutSeconds", 1), ("periodSeconds", 10), ("successThreshold", 1), ("failureThreshold", 3)):
        if not p.get(key):
            p[key] = value
    _http_get(p.get("httpGet"))
    grpc = p.get("grpc")
    if isinstance(grpc, dict) and grpc.get("service") is None:
        grpc["service"] = ""


def set_defaults_resource_list(rl: Any) -> None:
    """``SetDefaults_ResourceList``: every quantity rounded up to milli units, kept in canonical form."""
    if not isinstance(rl, dict):
        return
    from crdtool.core.apis._quantity import canonical_text

    for key, raw in list(rl.items()):
        text = canonical_text(raw, round_up_milli=True)
        if text is not None:
            rl[key] = text


def _resources(holder: Any) -> None:
    if isinstance(holder, dict):
        set_defaults_resource_list(holder.get("limits"))
        set_defaults_resource_list(holder.get("requests"))


def _field_selector(fs: Any) -> None:
    if isinstance(fs, dict) and not fs.get("apiVersion"):
        fs["apiVersion"] = "v1"


def set_defaults_container(c: dict[str, Any], release: Release) -> None:
    """``SetDefaults_Container`` with the generated defaults of its ports, env, probes and lifecycle."""
    if not c.get("imagePullPolicy"):
        image = c.get("image")
        c["imagePullPolicy"] = "Always" if image_tag(image if isinstance(image, str) else "") == "latest" else "IfNotPresent"
    if not c.get("terminationMessagePath"):
        c["terminationMessagePath"] = "/dev/termination-log"
    if not c.get("terminationMessagePolicy"):
        c["terminationMessagePolicy"] = "File"
    for port in _dicts(c.get("ports")):
        if not port.get("protocol"):
            port["protocol"] = "TCP"
    for env in _dicts(c.get("env")):
        vf = env.get("valueFrom")
        if isinstance(vf, dict):
            _field_selector(vf.get("fieldRef"))
            fkr = vf.get("fileKeyRef")
            if isinstance(fkr, dict) and fkr.get("optional") is None and release.minor >= 34:
                fkr["optional"] = False
    _resources(c.get("resources"))
    for key in ("livenessProbe", "readinessProbe", "startupProbe"):
        _probe(c.get(key))
    lc = c.get("lifecycle")
    if isinstance(lc, dict):
        for hook in ("postStart", "preStop"):
            if isinstance(lc.get(hook), dict):
                _http_get(lc[hook].get("httpGet"))


_VOLUME_SOURCES = (
    "hostPath", "emptyDir", "gcePersistentDisk", "awsElasticBlockStore", "gitRepo", "secret", "nfs", "iscsi",
    "glusterfs", "persistentVolumeClaim", "rbd", "flexVolume", "cinder", "cephfs", "flocker", "downwardAPI", "fc",
    "azureFile", "configMap", "vsphereVolume", "quobyte", "azureDisk", "photonPersistentDisk", "projected",
    "portworxVolume", "scaleIO", "storageos", "csi", "ephemeral", "image",
)


def set_defaults_volume(v: dict[str, Any], release: Release) -> None:
    """``SetDefaults_Volume`` and the generated defaults of its sources."""
    if not any(v.get(k) is not None for k in _VOLUME_SOURCES):
        v["emptyDir"] = {}
    image = v.get("image")
    if isinstance(image, dict) and not image.get("pullPolicy") and release.minor >= 35:
        ref = image.get("reference")
        image["pullPolicy"] = "Always" if image_tag(ref if isinstance(ref, str) else "") == "latest" else "IfNotPresent"
    hp = v.get("hostPath")
    if isinstance(hp, dict) and hp.get("type") is None:
        hp["type"] = ""
    for key in ("secret", "configMap", "downwardAPI", "projected"):
        src = v.get(key)
        if isinstance(src, dict) and src.get("defaultMode") is None:
            src["defaultMode"] = 0o644  # Secret/ConfigMap/DownwardAPI/ProjectedVolumeSourceDefaultMode
    dapi = v.get("downwardAPI")
    if isinstance(dapi, dict):
        for item in _dicts(dapi.get("items")):
            _field_selector(item.get("fieldRef"))
    proj = v.get("projected")
    if isinstance(proj, dict):
        for source in _dicts(proj.get("sources")):
            if isinstance(source.get("downwardAPI"), dict):
                for item in _dicts(source["downwardAPI"].get("items")):
                    _field_selector(item.get("fieldRef"))
            sat = source.get("serviceAccountToken")
            if isinstance(sat, dict) and sat.get("expirationSeconds") is None:
                sat["expirationSeconds"] = 3600
    iscsi = v.get("iscsi")
    if isinstance(iscsi, dict) and not iscsi.get("iscsiInterface"):
        iscsi["iscsiInterface"] = "default"
    rbd = v.get("rbd")
    if isinstance(rbd, dict):
        for key, value in (("pool", "rbd"), ("user", "admin"), ("keyring", "/etc/ceph/keyring")):
            if not rbd.get(key):
                rbd[key] = value
    azure = v.get("azureDisk")
    if isinstance(azure, dict):
        azure_defaults: tuple[tuple[str, Any], ...] = (("cachingMode", "ReadWrite"), ("fsType", "ext4"), ("readOnly", False), ("kind", "Shared"))
        for key, value in azure_defaults:
            if azure.get(key) is None:
                azure[key] = value
    scaleio = v.get("scaleIO")
    if isinstance(scaleio, dict):
        if not scaleio.get("storageMode"):
            scaleio["storageMode"] = "ThinProvisioned"
        if not scaleio.get("fsType"):
            scaleio["fsType"] = "xfs"
    eph = v.get("ephemeral")
    if isinstance(eph, dict) and isinstance(eph.get("volumeClaimTemplate"), dict):
        set_defaults_pvc_spec(_d(eph["volumeClaimTemplate"], "spec"))


def set_defaults_pod_spec(spec: dict[str, Any], release: Release) -> None:
    """``SetDefaults_PodSpec`` and the generated defaults of a pod template's spec."""
    if not spec.get("dnsPolicy"):
        spec["dnsPolicy"] = "ClusterFirst"
    if not spec.get("restartPolicy"):
        spec["restartPolicy"] = "Always"
    if spec.get("securityContext") is None:
        spec["securityContext"] = {}
    if spec.get("terminationGracePeriodSeconds") is None:
        spec["terminationGracePeriodSeconds"] = 30
    if not spec.get("schedulerName"):
        spec["schedulerName"] = "default-scheduler"
    for v in _dicts(spec.get("volumes")):
        set_defaults_volume(v, release)
    set_defaults_resource_list(spec.get("overhead"))
    _resources(spec.get("resources"))
    for key in ("initContainers", "containers", "ephemeralContainers"):
        for c in _dicts(spec.get(key)):
            set_defaults_container(c, release)


def set_defaults_pod(spec: dict[str, Any]) -> None:
    """``SetDefaults_Pod`` (after the pod spec's): requests default to limits, ``enableServiceLinks``, host
    network ports (pod-level resources' defaults are not ported)."""
    for key in ("containers", "initContainers"):
        for c in _dicts(spec.get(key)):
            res = c.get("resources")
            if isinstance(res, dict) and isinstance(res.get("limits"), dict):
                requests = res.get("requests")
                if not isinstance(requests, dict):
                    requests = res["requests"] = {}
                for name, value in res["limits"].items():
                    requests.setdefault(name, value)
    if spec.get("enableServiceLinks") is None:
        spec["enableServiceLinks"] = True
    if spec.get("hostNetwork") is True:
        for key in ("containers", "initContainers"):
            for c in _dicts(spec.get(key)):
                for port in _dicts(c.get("ports")):
                    if not port.get("hostPort"):
                        port["hostPort"] = port.get("containerPort", 0)


def set_defaults_pod_template_spec(template: dict[str, Any], release: Release) -> None:
    """The generated defaults of a ``PodTemplateSpec`` (its ``spec``)."""
    set_defaults_pod_spec(_d(template, "spec"), release)


def set_defaults_pvc_spec(spec: dict[str, Any]) -> None:
    """``SetDefaults_PersistentVolumeClaimSpec`` and its resource lists' ``SetDefaults_ResourceList``."""
    if spec.get("volumeMode") is None:
        spec["volumeMode"] = "Filesystem"
    _resources(spec.get("resources"))


def set_defaults_service(obj: dict[str, Any]) -> None:
    """``SetDefaults_Service`` (the status' load-balancer ``ipMode`` aside)."""
    spec = _d(obj, "spec")
    if not spec.get("sessionAffinity"):
        spec["sessionAffinity"] = "None"
    if spec["sessionAffinity"] == "None":
        spec.pop("sessionAffinityConfig", None)
    if spec["sessionAffinity"] == "ClientIP":
        sac = spec.get("sessionAffinityConfig")
        cip = sac.get("clientIP") if isinstance(sac, dict) else None
        if not isinstance(cip, dict) or cip.get("timeoutSeconds") is None:
            spec["sessionAffinityConfig"] = {"clientIP": {"timeoutSeconds": 10800}}
    if not spec.get("type"):
        spec["type"] = "ClusterIP"
    for sp in _dicts(spec.get("ports")):
        if not sp.get("protocol"):
            sp["protocol"] = "TCP"
        tp = sp.get("targetPort")
        if tp is None or tp == 0 or tp == "":
            sp["targetPort"] = sp.get("port", 0)
    if externally_accessible(spec) and not spec.get("externalTrafficPolicy"):
        spec["externalTrafficPolicy"] = "Cluster"
    if spec.get("internalTrafficPolicy") is None and spec["type"] in ("NodePort", "LoadBalancer", "ClusterIP"):
        spec["internalTrafficPolicy"] = "Cluster"
    if spec["type"] == "LoadBalancer" and spec.get("allocateLoadBalancerNodePorts") is None:
        spec["allocateLoadBalancerNodePorts"] = True


def externally_accessible(spec: Any) -> bool:
    """``service.ExternallyAccessible``: LoadBalancer, NodePort, or ClusterIP with external IPs."""
    if not isinstance(spec, dict):
        return False
    t = spec.get("type")
    return t in ("LoadBalancer", "NodePort") or (t == "ClusterIP" and bool(spec.get("externalIPs")))


def set_defaults(obj: dict[str, Any], version: str, release: Any) -> None:
    """``SetObjectDefaults_<Kind>`` of core/v1 for the kinds crdtool ports; other kinds are left alone.

    In: the decoded object (``kind`` names it), its version (``"v1"``), the release. Mutates ``obj``.
    """
    r = rel(release)
    kind = obj.get("kind")
    if kind == "Service":
        set_defaults_service(obj)
    elif kind == "Secret":
        if not obj.get("type"):
            obj["type"] = "Opaque"
    elif kind == "ConfigMap":
        pass  # SetDefaults_ConfigMap makes an empty data map: nothing a JSON reader sees
    elif kind == "Namespace":
        meta = _d(obj, "metadata")
        name = meta.get("name")
        if isinstance(name, str) and name:
            _d(meta, "labels")["kubernetes.io/metadata.name"] = name
        status = _d(obj, "status")
        if not status.get("phase"):
            status["phase"] = "Active"
    elif kind == "PersistentVolumeClaim":
        set_defaults_pvc_spec(_d(obj, "spec"))
        status = _d(obj, "status")
        if not status.get("phase"):
            status["phase"] = "Pending"
    elif kind == "Pod":
        spec = _d(obj, "spec")
        set_defaults_pod_spec(spec, r)
        set_defaults_pod(spec)
    elif kind == "PodTemplate":
        set_defaults_pod_template_spec(_d(obj, "template"), r)


def set_object_defaults(obj: dict[str, Any], version: str, kind: str, release: Any) -> None:
    """The create path's entry (:mod:`crdtool.core.registry.create`): :func:`set_defaults` of ``obj``
    (``kind`` is ``obj['kind']``)."""
    set_defaults(obj, version, release)
