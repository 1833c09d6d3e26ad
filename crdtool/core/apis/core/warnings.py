"""Warnings the apiserver returns for a pod template on create (``Warning:`` headers, not errors).

Mirrors kubernetes/kubernetes ``pkg/api/pod/warnings.go`` (``GetWarningsForPodTemplate`` →
``warningsForPodSpecAndMeta``) and ``pkg/api/node/util.go`` (``GetNodeLabelDeprecatedMessage``,
``GetWarningsForNodeSelectorTerm``), 1.30 … 1.36 (openshift/microshift ``release-4.17`` … ``release-4.23``).
Ported: deprecated node labels (node selector, node affinity, topology spread keys), null label selectors in
topology spread constraints and pod affinity terms, deprecated annotations, deprecated volume types (gitRepo's
text per release), duplicate image pull secrets, fractional byte quantities, env entries hiding earlier ones,
duplicate and overlapping container ports, duplicate port names (1.32+), a negative grace period, non-standard
IP addresses (1.33+; ``GetWarningsForIP``/``GetWarningsForCIDR`` are here too, for Services and NetworkPolicies),
duplicate host alias IPs, seccomp and AppArmor annotations without their fields, a host IP without a host port.
overlapping volume paths (1.32+), a pod overhead's fractional bytes.
Go ranges over maps here (node selector keys); crdtool sorts them.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from crdtool.core.apis._util import i, lst, m, s
from crdtool.core.errors import Path
from crdtool.core.releases import Release
from crdtool.core.validation_util import is_valid_label_value

#: ``deprecatedNodeLabels`` (``pkg/api/node/util.go``, unchanged 1.30 … 1.36).
DEPRECATED_NODE_LABELS: dict[str, str] = {
    "beta.kubernetes.io/arch": 'deprecated since v1.14; use "kubernetes.io/arch" instead',
    "beta.kubernetes.io/os": 'deprecated since v1.14; use "kubernetes.io/os" instead',
    "failure-domain.beta.kubernetes.io/region": 'deprecated since v1.17; use "topology.kubernetes.io/region" instead',
    "failure-domain.beta.kubernetes.io/zone": 'deprecated since v1.17; use "topology.kubernetes.io/zone" instead',
    "beta.kubernetes.io/instance-type": 'deprecated since v1.17; use "node.kubernetes.io/instance-type" instead',
    "app.kubernetes.io/created-by": "deprecated since v1.9",
    "scheduler.alpha.kubernetes.io/preferAvoidPods": "deprecated since v1.22; use Taints and Tolerations instead",
    "node-role.kubernetes.io/master": 'use "node-role.kubernetes.io/control-plane" instead',
}

_DEPRECATED_ANNOTATIONS = (
    ("scheduler.alpha.kubernetes.io/critical-pod", 'non-functional in v1.16+; use the "priorityClassName" field instead'),
    ("security.alpha.kubernetes.io/sysctls", 'non-functional in v1.11+; use the "sysctls" field instead'),
    ("security.alpha.kubernetes.io/unsafe-sysctls", 'non-functional in v1.11+; use the "sysctls" field instead'),
)

#: Deprecated volume types and their text; gitRepo's says "disabled by default in v1.33+" from 1.32.
_DEPRECATED_VOLUMES: tuple[tuple[str, str | None], ...] = (
    ("photonPersistentDisk", "deprecated in v1.11, non-functional in v1.16+"),
    ("gitRepo", None),
    ("scaleIO", "deprecated in v1.16, non-functional in v1.22+"),
    ("flocker", "deprecated in v1.22, non-functional in v1.25+"),
    ("storageos", "deprecated in v1.22, non-functional in v1.25+"),
    ("quobyte", "deprecated in v1.22, non-functional in v1.25+"),
    ("glusterfs", "deprecated in v1.25, non-functional in v1.26+"),
    ("cephfs", "deprecated in v1.28, non-functional in v1.31+"),
    ("rbd", "deprecated in v1.28, non-functional in v1.31+"),
)
# the field names upstream's warnings print (Go field names where they differ from the JSON ones)
_VOLUME_WARNING_FIELD = {"storageos": "storageOS"}


def _go_q(text: str) -> str:
    from crdtool.core.errors import go_quote

    return go_quote(text)


def _node_selector_term(term: Mapping[str, Any], check_values: bool, path: Path, release: Release) -> list[str]:
    """``GetWarningsForNodeSelectorTerm``."""
    out: list[str] = []
    for index, expr in enumerate(lst(term.get("matchExpressions"))):
        expr = m(expr)
        key = s(expr.get("key"))
        if key in DEPRECATED_NODE_LABELS:
            out.append(f"{path.child('matchExpressions').index(index).child('key')}: {key} is {DEPRECATED_NODE_LABELS[key]}")
        if check_values:
            for vi, value in enumerate(lst(expr.get("values"))):
                for msg in is_valid_label_value(s(value), release):
                    out.append(f"{path.child('matchExpressions').index(index).child('values').index(vi)}: {s(value)} is invalid, {msg}")
    return out


def _canonical(v: Any) -> str:
    from crdtool.core.apis._quantity import canonical_text

    text = canonical_text(v)
    return text if text is not None else str(v)


def _fractional_bytes(v: Any) -> bool:
    """Upstream's ``value.MilliValue()%1000 != 0`` (``MilliValue`` rounds away from zero, so ``1.9999`` is 2000
    thousandths: not fractional)."""
    from crdtool.core.apis.core.validation import _milli_value, _quantity

    q = _quantity(v)
    if q is None:
        return False
    return _milli_value(q) % 1000 != 0


def pvc_spec_warnings(path: Path, spec: Mapping[str, Any]) -> list[str]:
    """Upstream ``GetWarningsForPersistentVolumeClaimSpec`` (``pkg/api/persistentvolumeclaim/util.go``, the same at
    release-4.17 … 4.23): fractional storage requests and limits."""
    out: list[str] = []
    resources = m(spec.get("resources"))
    for section in ("requests", "limits"):
        value = m(resources.get(section)).get("storage")
        if value is not None and _fractional_bytes(value):
            out.append(f"{path.child('resources', section).key('storage')}: fractional byte value {_go_q(_canonical(value))} is invalid, must be an integer")
    return out


#: ``deprecatedStorageClassAnnotationsMsg`` of ``GetWarningsForPersistentVolumeClaim``.
BETA_STORAGE_CLASS_ANNOTATION = "volume.beta.kubernetes.io/storage-class"


def pvc_warnings(obj: Mapping[str, Any]) -> list[str]:
    """Upstream ``GetWarningsForPersistentVolumeClaim``: the beta storage-class annotation, then the spec's."""
    out: list[str] = []
    if BETA_STORAGE_CLASS_ANNOTATION in m(m(obj.get("metadata")).get("annotations")):
        out.append(f'{Path("metadata", "annotations").key(BETA_STORAGE_CLASS_ANNOTATION)}: deprecated since v1.8; use "storageClassName" attribute instead')
    out.extend(pvc_spec_warnings(Path("spec"), m(obj.get("spec"))))
    return out


SECCOMP_POD_ANNOTATION = "seccomp.security.alpha.kubernetes.io/pod"
SECCOMP_CONTAINER_ANNOTATION_PREFIX = "container.seccomp.security.alpha.kubernetes.io/"
APPARMOR_ANNOTATION_PREFIX = "container.apparmor.security.beta.kubernetes.io/"
#: From 1.34 (release-4.21) a container's deprecated AppArmor annotation warns only when the pod's
#: ``appArmorProfile`` is not the profile the annotation names; before, any pod or container profile silenced it
#: (AppArmorFields on: Beta in 1.30, GA in 1.31).
APPARMOR_WARNING_MATCHES_POD_SINCE = 34


def _app_armor_for_annotation(value: str) -> dict[str, Any] | None:
    """Upstream ``ApparmorFieldForAnnotation`` (``pkg/api/pod/util.go``)."""
    if value == "unconfined":
        return {"type": "Unconfined"}
    if value == "runtime/default":
        return {"type": "RuntimeDefault"}
    if value.startswith("localhost/") and value[len("localhost/"):]:
        return {"type": "Localhost", "localhostProfile": value[len("localhost/"):]}
    return None


def _app_armor_annotation_warns(annotation: Any, pod_profile: Any, container_profile: Any, release: Release) -> bool:
    """Whether a pod template's ``container.apparmor.security.beta.kubernetes.io/<name>`` annotation warns."""
    if not isinstance(annotation, str) or container_profile is not None:
        return False
    if release.minor < APPARMOR_WARNING_MATCHES_POD_SINCE:
        return pod_profile is None
    if not isinstance(pod_profile, dict):
        return True
    wanted = _app_armor_for_annotation(annotation)
    have = {"type": s(pod_profile.get("type"))}
    if pod_profile.get("localhostProfile") is not None:
        have["localhostProfile"] = s(pod_profile.get("localhostProfile"))
    return wanted != have


#: ``warningsForOverlappingVirtualPaths`` from 1.32 (release-4.19); in 1.32 and 1.33 (release-4.19/4.20) a projected
#: source that yields no paths reuses the previous source's (``var sourcePaths`` declared outside the loop), which
#: reports those paths again, as overlapping themselves; fixed in 1.34 (release-4.21).
OVERLAPPING_PATHS_SINCE = 32
OVERLAPPING_PATHS_FRESH_PER_SOURCE_SINCE = 34

_PathAndSource = tuple[str, str]


def _ps_text(ps: _PathAndSource) -> str:
    """``pathAndSource.String()``."""
    return f"{_go_q(ps[0])} ({ps[1]})" if ps[1] else _go_q(ps[0])


def _check_for_overlap(haystack: list[_PathAndSource], needle: _PathAndSource) -> list[_PathAndSource]:
    """Upstream ``checkForOverlap``."""
    if not needle[0]:
        return []
    out = []
    for item in haystack:
        if not item[0]:
            continue
        if item == needle or (item[0] + "/").startswith(needle[0] + "/") or (needle[0] + "/").startswith(item[0] + "/"):
            out.append(item)
    return out


def _mapping_overlaps(paths: list[_PathAndSource]) -> list[str]:
    """Upstream ``checkVolumeMappingForOverlap``."""
    out: list[str] = []
    seen: list[_PathAndSource] = []
    for path, source in paths:
        ps = (path.rstrip("/"), source)
        out.extend(f"{_ps_text(ps)} with {_ps_text(c)}" for c in _check_for_overlap(seen, ps))
        seen.append(ps)
    return out


def _items(src: Any, source: str) -> list[_PathAndSource] | None:
    """``extractPaths``/``extractPathsDownwardAPI`` of a source's ``items`` (None: no ``items`` list)."""
    items = m(src).get("items") if isinstance(src, dict) else None
    if not isinstance(items, list):
        return None
    return [(s(m(item).get("path")), source) for item in items]


def _overlapping_virtual_paths(volumes: Sequence[Any], release: Release) -> list[str]:
    """Upstream ``warningsForOverlappingVirtualPaths`` (``pkg/api/pod/warnings.go``)."""
    out: list[str] = []
    for vol in volumes:
        vol = m(vol)
        name = s(vol.get("name"))

        def warn(desc: str, body: str) -> str:
            return f"volume {_go_q(name)} ({desc}): overlapping paths: {body}"

        cm, secret, dapi = vol.get("configMap"), vol.get("secret"), vol.get("downwardAPI")
        for src, desc in ((cm, f"ConfigMap {_go_q(s(m(cm).get('name')))}"), (secret, f"Secret {_go_q(s(m(secret).get('secretName')))}"),
                          (dapi, "DownwardAPI")):
            paths = _items(src, "")
            if paths is not None:
                out.extend(warn(desc, ol) for ol in _mapping_overlaps(paths))
        projected = vol.get("projected")
        if not isinstance(projected, dict):
            continue
        all_paths: list[_PathAndSource] = []
        source_paths: list[_PathAndSource] = []
        for source in lst(projected.get("sources")):
            source = m(source)
            if not any(v is not None for v in source.values()):
                out.append(f"volume {_go_q(name)} (Projected) has no sources provided")
                continue
            if release.minor >= OVERLAPPING_PATHS_FRESH_PER_SOURCE_SINCE:
                source_paths = []
            found: list[_PathAndSource] | None = None
            if isinstance(source.get("configMap"), dict) and _items(source["configMap"], "") is not None:
                found = _items(source["configMap"], f"ConfigMap {_go_q(s(source['configMap'].get('name')))}")
            elif isinstance(source.get("secret"), dict) and _items(source["secret"], "") is not None:
                found = _items(source["secret"], f"Secret {_go_q(s(source['secret'].get('name')))}")
            elif isinstance(source.get("downwardAPI"), dict) and _items(source["downwardAPI"], "") is not None:
                found = _items(source["downwardAPI"], "DownwardAPI")
            elif isinstance(source.get("serviceAccountToken"), dict):
                found = [(s(source["serviceAccountToken"].get("path")), "ServiceAccountToken")]
            elif isinstance(source.get("clusterTrustBundle"), dict):
                ctb = source["clusterTrustBundle"]
                ctb_name = s(ctb.get("name")) if ctb.get("name") is not None else s(ctb.get("signerName"))
                found = [(s(ctb.get("path")), f"ClusterTrustBundle {_go_q(ctb_name)}")]
            if found is not None:
                source_paths = found
            if not source_paths:
                continue
            for path, src_desc in source_paths:
                ps = (path.rstrip("/"), src_desc)
                out.extend(warn("Projected", f"{_ps_text(ps)} with {_ps_text(c)}") for c in _check_for_overlap(all_paths, ps))
                all_paths.append(ps)
    return out


def app_armor_version_skew(pod: dict[str, Any]) -> list[str]:
    """Upstream ``applyAppArmorVersionSkew`` of the Pod strategy's ``PrepareForCreate`` (release-4.17 … 4.23): a
    container's deprecated AppArmor annotation becomes its ``appArmorProfile`` (when valid and other than the
    pod's), and warns (also when it names no valid profile). ``pod`` is changed in place; the warnings are returned
    (upstream adds them to the request there, before validation). 1.30's reverse sync (fields to annotations) is not
    ported: it changes neither errors nor warnings."""
    spec = pod.get("spec")
    if not isinstance(spec, dict) or s(m(spec.get("os")).get("name")) == "windows":
        return []
    annotations = m(m(pod.get("metadata")).get("annotations"))
    pod_profile = m(spec.get("securityContext")).get("appArmorProfile")
    out: list[str] = []
    for key in ("initContainers", "containers", "ephemeralContainers"):
        for ctr in lst(spec.get(key)):
            if not isinstance(ctr, dict):
                continue
            name = APPARMOR_ANNOTATION_PREFIX + s(ctr.get("name"))
            annotation = annotations.get(name)
            if not isinstance(annotation, str) or m(ctr.get("securityContext")).get("appArmorProfile") is not None:
                continue
            field = _app_armor_for_annotation(annotation)
            lp = s(m(field).get("localhostProfile")) if field else ""
            if field is not None and field["type"] == "Localhost" and (lp != lp.strip() or len(lp.encode()) > 4095):
                field = None  # ValidateAppArmorProfileField refuses it: not copied
            have = None
            if isinstance(pod_profile, dict):
                have = {"type": s(pod_profile.get("type"))}
                if pod_profile.get("localhostProfile") is not None:
                    have["localhostProfile"] = s(pod_profile.get("localhostProfile"))
            warn = field is None
            if field is not None and field != have:
                sc = ctr.get("securityContext")
                if not isinstance(sc, dict):
                    sc = ctr["securityContext"] = {}
                sc["appArmorProfile"] = field
                warn = True
            if warn:
                out.append(f'{Path("metadata", "annotations").key(name)}: deprecated since v1.30; use the "appArmorProfile" field instead')
    return out


def pod_template_warnings(template: Mapping[str, Any], path: Path, release: Release, is_template: bool = True) -> list[str]:
    """``GetWarningsForPodTemplate(ctx, path, template, nil)``; ``is_template`` False: ``GetWarningsForPod`` (no
    AppArmor annotation warning: a Pod's comes from :func:`app_armor_version_skew`)."""
    spec, meta = m(template.get("spec")), m(template.get("metadata"))
    out: list[str] = []
    for key in sorted(m(spec.get("nodeSelector"))):
        if key in DEPRECATED_NODE_LABELS:
            out.append(f"{path.child('spec', 'nodeSelector').key(key)}: {DEPRECATED_NODE_LABELS[key]}")
    na = m(m(spec.get("affinity")).get("nodeAffinity"))
    req = na.get("requiredDuringSchedulingIgnoredDuringExecution")
    if isinstance(req, dict):
        tp = path.child("spec", "affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution", "nodeSelectorTerms")
        for index, term in enumerate(lst(req.get("nodeSelectorTerms"))):
            out.extend(_node_selector_term(m(term), False, tp.index(index), release))
    pp = path.child("spec", "affinity", "nodeAffinity", "preferredDuringSchedulingIgnoredDuringExecution")
    for index, pref in enumerate(lst(na.get("preferredDuringSchedulingIgnoredDuringExecution"))):
        out.extend(_node_selector_term(m(m(pref).get("preference")), True, pp.index(index).child("preference"), release))
    for index, tsc in enumerate(lst(spec.get("topologySpreadConstraints"))):
        tsc = m(tsc)
        tp = path.child("spec", "topologySpreadConstraints").index(index)
        key = s(tsc.get("topologyKey"))
        if key in DEPRECATED_NODE_LABELS:
            out.append(f"{tp.child('topologyKey')}: {key} is {DEPRECATED_NODE_LABELS[key]}")
        if tsc.get("labelSelector") is None:
            out.append(f"{tp.child('labelSelector')}: a null labelSelector results in matching no pod")
    annotations = m(meta.get("annotations"))
    for key, message in _DEPRECATED_ANNOTATIONS:
        if key in annotations:
            out.append(f"{path.child('metadata', 'annotations').key(key)}: {message}")
    for index, vol in enumerate(lst(spec.get("volumes"))):
        vol = m(vol)
        for kind, fixed in _DEPRECATED_VOLUMES:
            if kind == "cephfs":  # the ephemeral volume's claim template comes between glusterfs and cephfs
                vct = m(vol.get("ephemeral")).get("volumeClaimTemplate")
                if isinstance(vct, dict):
                    out.extend(pvc_spec_warnings(path.child("spec", "volumes").index(index).child("ephemeral", "volumeClaimTemplate", "spec"), m(vct.get("spec"))))
            if vol.get(kind) is None:
                continue
            message = fixed or ("deprecated in v1.11, and disabled by default in v1.33+" if release.minor >= 32 else "deprecated in v1.11")
            out.append(f"{path.child('spec', 'volumes').index(index).child(_VOLUME_WARNING_FIELD.get(kind, kind))}: {message}")
    if release.minor >= OVERLAPPING_PATHS_SINCE:
        out.extend(_overlapping_virtual_paths(lst(spec.get("volumes")), release))
    aliases = lst(spec.get("hostAliases"))
    if len(aliases) > 1:  # duplicate hostAliases (the same at release-4.17 … 4.23)
        seen_ips: set[str] = set()
        for index, alias in enumerate(aliases):
            ip = s(m(alias).get("ip"))
            if ip in seen_ips:
                out.append(f"{path.child('spec', 'hostAliases').index(index).child('ip')}: duplicate ip {_go_q(ip)}")
            seen_ips.add(ip)
    secrets = [s(m(ref).get("name")) for ref in lst(spec.get("imagePullSecrets"))]
    seen_secrets: set[str] = set()
    for index, name in enumerate(secrets):
        if len(secrets) > 1 and name in seen_secrets:
            out.append(f"{path.child('spec', 'imagePullSecrets').index(index).child('name')}: duplicate name {_go_q(name)}")
        seen_secrets.add(name)
    for index, name in enumerate(secrets):
        if not name:
            out.append(f"{path.child('spec', 'imagePullSecrets').index(index).child('name')}: invalid empty name {_go_q(name)}")
    overhead = m(spec.get("overhead"))
    for res in ("memory", "ephemeral-storage"):
        if res in overhead and _fractional_bytes(overhead[res]):
            out.append(f"{path.child('spec', 'overhead').key(res)}: fractional byte value {_go_q(_canonical(overhead[res]))} is invalid, must be an integer")
    pod_sc = m(spec.get("securityContext"))
    ann_path = path.child("metadata", "annotations")
    if pod_sc.get("seccompProfile") is None and SECCOMP_POD_ANNOTATION in annotations:
        out.append(f'{ann_path.key(SECCOMP_POD_ANNOTATION)}: non-functional in v1.27+; use the "seccompProfile" field instead')
    containers = [(kind, index, m(c)) for kind in ("initContainers", "containers") for index, c in enumerate(lst(spec.get(kind)))]
    for kind, index, c in containers:
        cp = path.child("spec", kind).index(index)
        csc = m(c.get("securityContext"))
        name = s(c.get("name"))
        if csc.get("seccompProfile") is None and SECCOMP_CONTAINER_ANNOTATION_PREFIX + name in annotations:
            out.append(f'{ann_path.key(SECCOMP_CONTAINER_ANNOTATION_PREFIX + name)}: non-functional in v1.27+; use the "seccompProfile" field instead')
        if is_template and _app_armor_annotation_warns(annotations.get(APPARMOR_ANNOTATION_PREFIX + name), pod_sc.get("appArmorProfile"),
                                                       csc.get("appArmorProfile"), release):
            out.append(f'{ann_path.key(APPARMOR_ANNOTATION_PREFIX + name)}: deprecated since v1.30; use the "appArmorProfile" field instead')
        resources = m(c.get("resources"))
        for section in ("limits", "requests"):
            values = m(resources.get(section))
            for res in ("memory", "ephemeral-storage"):
                if res in values and _fractional_bytes(values[res]):
                    out.append(f"{cp.child('resources', section).key(res)}: fractional byte value {_go_q(_canonical(values[res]))} is invalid, must be an integer")
        names: set[str] = set()
        for ei, env in enumerate(lst(c.get("env"))):
            env = m(env)
            name = s(env.get("name"))
            if name in names:
                ref = f"$({name})"
                value = s(env.get("value"))
                if env.get("valueFrom") is not None or value == ref or ref not in value:
                    out.append(f"{cp.child('env').index(ei)}: hides previous definition of {_go_q(name)}, which may be dropped when using apply")
            else:
                names.add(name)
    ports: dict[str, list[tuple[Path, Mapping[str, Any]]]] = {}
    for kind, index, c in containers:
        cp = path.child("spec", kind).index(index)
        for pi, port in enumerate(lst(c.get("ports"))):
            port = m(port)
            fp = cp.child("ports").index(pi)
            if s(port.get("hostIP")) and not i(port.get("hostPort")):
                # %+v of the internal core.ContainerPort
                out.append(f"{fp}: hostIP set without hostPort: {{Name:{s(port.get('name'))} HostPort:0 ContainerPort:{i(port.get('containerPort'))} "
                           f"Protocol:{s(port.get('protocol'))} HostIP:{s(port.get('hostIP'))}}}")
            key_ = f"{i(port.get('containerPort'))}/{s(port.get('protocol'))}"
            for other_path, other in ports.get(key_, []):
                hp, ohp = i(port.get("hostPort")), i(other.get("hostPort"))
                hip, ohip = s(port.get("hostIP")), s(other.get("hostIP"))
                if hip == ohip and hp == ohp:
                    out.append(f"{fp}: duplicate port definition with {other_path}")
                elif hp == 0 or ohp == 0:
                    out.append(f"{fp}: overlapping port definition with {other_path}")
                elif hp == ohp and (hip == "" or ohip == "") and not (hip == "" and ohip == ""):
                    out.append(f"{fp}: dangerously ambiguous port definition with {other_path}")
            ports.setdefault(key_, []).append((fp, port))
    if release.minor >= 32:
        port_names: dict[str, Path] = {}
        for kind, index, c in containers:
            cp = path.child("spec", kind).index(index)
            for pi, port in enumerate(lst(c.get("ports"))):
                name = s(m(port).get("name"))
                if not name:
                    continue
                fp = cp.child("ports").index(pi)
                if name in port_names:
                    first = port_names[name]
                    out.append(f"{fp}: duplicate port name {_go_q(name)} with {first}, services and probes that select ports by name will use {first}")
                else:
                    port_names[name] = fp
    tgps = spec.get("terminationGracePeriodSeconds")
    if isinstance(tgps, int) and tgps < 0:
        out.append(f"{path.child('spec', 'terminationGracePeriodSeconds')}: must be >= 0; negative values are invalid and will be treated as 1")
    for affinity_kind in ("podAffinity", "podAntiAffinity"):
        pa = m(m(spec.get("affinity")).get(affinity_kind))
        rp = path.child("spec", "affinity", affinity_kind, "requiredDuringSchedulingIgnoredDuringExecution")
        for index, term in enumerate(lst(pa.get("requiredDuringSchedulingIgnoredDuringExecution"))):
            if m(term).get("labelSelector") is None:
                out.append(f"{rp.index(index).child('labelSelector')}: a null labelSelector results in matching no pod")
        wp = path.child("spec", "affinity", affinity_kind, "preferredDuringSchedulingIgnoredDuringExecution")
        for index, wt in enumerate(lst(pa.get("preferredDuringSchedulingIgnoredDuringExecution"))):
            if m(m(wt).get("podAffinityTerm")).get("labelSelector") is None:
                out.append(f"{wp.index(index).child('podAffinityTerm', 'labelSelector')}: a null labelSelector results in matching no pod")
    if release.minor >= IP_WARNINGS_SINCE:  # "Deprecated IP address formats", release-4.20 on
        for index, ns in enumerate(lst(m(spec.get("dnsConfig")).get("nameservers"))):
            out.extend(get_warnings_for_ip(str(path.child("spec", "dnsConfig", "nameservers").index(index)), s(ns), release))
        for index, alias in enumerate(lst(spec.get("hostAliases"))):
            out.extend(get_warnings_for_ip(str(path.child("spec", "hostAliases").index(index).child("ip")), s(m(alias).get("ip")), release))
    return out


# --- IP and CIDR formats ---------------------------------------------------------------------------------------

#: The first minor whose ``GetWarningsForIP`` / ``GetWarningsForCIDR`` (apimachinery ``validation/ip.go``) say a
#: non-standard value "is invalid" rather than "will be considered invalid in a future Kubernetes release"
#: (release-4.23 = 1.36, when StrictIPCIDRValidation went Beta on); before 1.33 (release-4.17 … 4.19) only the
#: Service strategy warned, with its own ``getWarningsForIP`` / ``getWarningsForCIDR`` (``pkg/api/service/warnings.go``).
IP_WARNINGS_SINCE = 33
IP_WARNINGS_INVALID_SINCE = 36


def _go_ip_string(addr: Any) -> str:
    """Go's ``net.IP.String()`` / ``netip.Addr.String()`` of a Python address (IPv4-mapped IPv6 as ``::ffff:a.b.c.d``)."""
    if addr.version == 6 and addr.ipv4_mapped is not None:
        return f"::ffff:{addr.ipv4_mapped}"
    return str(addr)


def _sloppy_ip(value: str) -> Any:
    """``netutils.ParseIPSloppy`` as a Python address (IPv4 leading zeros read as decimal), or None."""
    import ipaddress

    parts = value.split(".")
    if len(parts) == 4 and all(p.isascii() and p.isdigit() and len(p) <= 3 and int(p) <= 255 for p in parts):
        return ipaddress.IPv4Address(".".join(str(int(p)) for p in parts))
    if ":" in value and "%" not in value:
        try:
            return ipaddress.IPv6Address(value)
        except ValueError:
            return None
    return None


def _net_ip_string(addr: Any) -> str:
    """Go's ``net.IP.String()``: an IPv4-mapped IPv6 address prints as IPv4."""
    if addr.version == 6 and addr.ipv4_mapped is not None:
        return str(addr.ipv4_mapped)
    return str(addr)


def _netip_addr(value: str) -> Any:
    import ipaddress

    try:
        return ipaddress.ip_address(value)
    except ValueError:
        return None


def get_warnings_for_ip(path: str, value: str, release: Release) -> list[str]:
    """Upstream ``GetWarningsForIP`` (1.33+; 1.30 … 1.32 the Service strategy's ``getWarningsForIP``)."""
    if release.minor < IP_WARNINGS_SINCE:
        addr = _netip_addr(value)
        if addr is None:
            if _sloppy_ip(value) is not None and "." in value and ":" not in value:
                return [f"{path}: IP address was accepted, but will be invalid in a future Kubernetes release: "
                        f"ParseAddr({_go_q(value)}): IPv4 field has octet with leading zero"]
            return []
        if addr.version == 6 and _go_ip_string(addr) != value:
            return [f"{path}: IPv6 address {_go_q(value)} is not in RFC 5952 canonical format ({_go_q(_go_ip_string(addr))}), which may cause controller apply-loops"]
        return []
    ip = _sloppy_ip(value)
    if ip is None:
        return []
    addr = _netip_addr(value)
    if addr is None or (addr.version == 6 and addr.ipv4_mapped is not None):
        verdict = "is invalid" if release.minor >= IP_WARNINGS_INVALID_SINCE else "will be considered invalid in a future Kubernetes release"
        return [f"{path}: non-standard IP address {_go_q(value)} {verdict}: use {_go_q(_net_ip_string(ip))}"]
    if addr.version == 6 and _go_ip_string(addr) != value:
        return [f"{path}: IPv6 address {_go_q(value)} should be in RFC 5952 canonical format ({_go_q(_go_ip_string(addr))})"]
    return []


def get_warnings_for_cidr(path: str, value: str, release: Release) -> list[str]:
    """Upstream ``GetWarningsForCIDR`` (1.33+; 1.30 … 1.32 the Service strategy's ``getWarningsForCIDR``)."""
    import ipaddress

    ip_text, sep, bits = value.partition("/")
    ip = _sloppy_ip(ip_text)
    width = 32 if ip is not None and ip.version == 4 and ":" not in ip_text else 128
    if ip is None or not sep or not (bits.isascii() and bits.isdigit()) or int(bits) > width:
        return []
    addr = _netip_addr(ip_text)
    leading_zero_bits = len(bits) > 1 and bits[0] == "0"
    if release.minor < IP_WARNINGS_SINCE:
        if addr is None:
            err = f"ParseAddr({_go_q(ip_text)}): IPv4 field has octet with leading zero"
            return [f"{path}: IP prefix was accepted, but will be invalid in a future Kubernetes release: netip.ParsePrefix({_go_q(value)}): {err}"]
        if leading_zero_bits:
            return [f"{path}: IP prefix was accepted, but will be invalid in a future Kubernetes release: "
                    f"netip.ParsePrefix({_go_q(value)}): bad bits after slash: {_go_q(bits)}"]
        canonical = f"{_go_ip_string(addr)}/{int(bits)}"
        if addr.version == 6 and canonical != value:
            return [f"{path}: IPv6 prefix {_go_q(value)} is not in RFC 5952 canonical format ({_go_q(canonical)}), which may cause controller apply-loops"]
        return []
    plen = int(bits)
    if ip.version == 6 and ip.ipv4_mapped is not None:
        # net.IPNet.String() prints a 4-in-6 network as IPv4 with the prefix length less 96; the mask stays 128 bits
        ip, plen = ip.ipv4_mapped, plen - 96
        if plen < 0:
            return []
    network = ipaddress.ip_network(f"{ip}/{plen}", strict=False)
    out: list[str] = []
    if network.network_address != ip:
        out.append(f"{path}: CIDR value {_go_q(value)} is ambiguous in this context (should be {_go_q(str(network))} or {_go_q(f'{_net_ip_string(ip)}/{width}')}?)")
    if addr is None or leading_zero_bits or (addr.version == 6 and addr.ipv4_mapped is not None):
        verdict = "is invalid" if release.minor >= IP_WARNINGS_INVALID_SINCE else "will be considered invalid in a future Kubernetes release"
        out.append(f"{path}: non-standard CIDR value {_go_q(value)} {verdict}: use {_go_q(str(network))}")
    if not out and addr.version == 6 and f"{_go_ip_string(addr)}/{plen}" != value:
        out.append(f"{path}: IPv6 CIDR value {_go_q(value)} should be in RFC 5952 canonical format ({_go_q(f'{_go_ip_string(addr)}/{plen}')})")
    return out
