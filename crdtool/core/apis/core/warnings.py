"""Warnings the apiserver returns for a pod template on create (``Warning:`` headers, not errors).

Mirrors kubernetes/kubernetes ``pkg/api/pod/warnings.go`` (``GetWarningsForPodTemplate`` →
``warningsForPodSpecAndMeta``) and ``pkg/api/node/util.go`` (``GetNodeLabelDeprecatedMessage``,
``GetWarningsForNodeSelectorTerm``), 1.30 … 1.36 (openshift/microshift ``release-4.17`` … ``release-4.23``).
Ported: deprecated node labels (node selector, node affinity, topology spread keys), null label selectors in
topology spread constraints and pod affinity terms, deprecated annotations, deprecated volume types (gitRepo's
text per release), duplicate image pull secrets, fractional byte quantities, env entries hiding earlier ones,
duplicate and overlapping container ports, duplicate port names (1.32+), a negative grace period. Left out:
IP/CIDR format warnings, overlapping volume paths, seccomp/AppArmor annotations, PVC template warnings.
Go ranges over maps here (node selector keys); crdtool sorts them.
"""

from __future__ import annotations

from typing import Any, Mapping

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
    """A memory or ephemeral-storage quantity that is not a whole number of bytes."""
    from crdtool.core.apis.core.validation import _quantity

    q = _quantity(v)
    if q is None:
        return False
    num, den = q.exact()
    return num % den != 0


def pod_template_warnings(template: Mapping[str, Any], path: Path, release: Release) -> list[str]:
    """``GetWarningsForPodTemplate(ctx, path, template, nil)``."""
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
            if vol.get(kind) is None:
                continue
            message = fixed or ("deprecated in v1.11, and disabled by default in v1.33+" if release.minor >= 32 else "deprecated in v1.11")
            out.append(f"{path.child('spec', 'volumes').index(index).child(_VOLUME_WARNING_FIELD.get(kind, kind))}: {message}")
    secrets = [s(m(ref).get("name")) for ref in lst(spec.get("imagePullSecrets"))]
    seen_secrets: set[str] = set()
    for index, name in enumerate(secrets):
        if len(secrets) > 1 and name in seen_secrets:
            out.append(f"{path.child('spec', 'imagePullSecrets').index(index).child('name')}: duplicate name {_go_q(name)}")
        seen_secrets.add(name)
    for index, name in enumerate(secrets):
        if not name:
            out.append(f"{path.child('spec', 'imagePullSecrets').index(index).child('name')}: invalid empty name {_go_q(name)}")
    containers = [(kind, index, m(c)) for kind in ("initContainers", "containers") for index, c in enumerate(lst(spec.get(kind)))]
    for kind, index, c in containers:
        cp = path.child("spec", kind).index(index)
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
    return out
