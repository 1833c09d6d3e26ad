"""The Service create path: ``pkg/registry/core/service/strategy.go`` and the allocation the REST storage
does before it (``pkg/registry/core/service/storage/storage.go`` ``beginCreate``, ``alloc.go``
``allocateCreate``: ``initIPFamilyFields``, ``txnAllocClusterIPs``, ``txnAllocNodePorts``), 1.30 … 1.36.

The cluster is kube-apiserver's default: single-stack IPv4, service CIDR ``10.0.0.0/24``
(``--service-cluster-ip-range``), node ports ``30000-32767``. A cluster IP the object leaves empty gets
:data:`ALLOCATED_CLUSTER_IP`; node ports are given from the bottom of the range, skipping requested ones. Left
out: a requested cluster IP outside the range or already in use, ports already used by other Services.

When the allocation fails upstream returns its ``Invalid`` status before the strategy runs; here
:func:`prepare_for_create` leaves the object as the failing allocation left it and :func:`validate` returns
the allocation's errors alone (:func:`allocation_errors` finds nothing on an allocated object).
"""

from __future__ import annotations

from typing import Any

from crdtool.core.apis._util import i, lst, m, s
from crdtool.core.apis.core.validation import (
    needs_health_check,
    parse_ip_sloppy,
    validate_service_cluster_ips_related_fields,
    validate_service_create,
)
from crdtool.core.errors import FieldError, Path, invalid
from crdtool.core.apis.core.warnings import get_warnings_for_cidr, get_warnings_for_ip
from crdtool.core.registry._common import rel, reset_status
from crdtool.core.schema.defaulting import copy_json

ALLOCATED_CLUSTER_IP = "10.0.0.10"
NODE_PORT_RANGE = (30000, 32767)
_NOT_IN_RANGE = f"provided port is not in the valid range. The range of valid ports is {NODE_PORT_RANGE[0]}-{NODE_PORT_RANGE[1]}"
_ALREADY_ALLOCATED = "provided port is already allocated"


def _normalize_cluster_ips(spec: dict[str, Any]) -> None:
    """``normalizeClusterIPs`` on create: ``clusterIPs`` from ``clusterIP`` when only that is set."""
    cip = s(spec.get("clusterIP"))
    if cip and not lst(spec.get("clusterIPs")):
        spec["clusterIPs"] = [cip]


def _allocate(spec: dict[str, Any], release: Any = None) -> list[FieldError]:
    """``allocateCreate`` on ``spec`` (mutated); the errors of the ``Invalid`` it returns, if any (cluster IPs
    checked strictly from 1.36, as ``validation.IsValidIPForLegacyField`` is)."""
    if spec.get("type") == "ExternalName":
        return []
    if spec.get("ipFamilyPolicy") is None:
        if spec.get("clusterIP") == "None" and not m(spec.get("selector")):
            spec["ipFamilyPolicy"] = "RequireDualStack"
        else:
            spec["ipFamilyPolicy"] = "SingleStack"
    errs = validate_service_cluster_ips_related_fields(spec, None if release is None else rel(release))
    if errs:
        return errs
    policy = spec["ipFamilyPolicy"]
    ips = [s(x) for x in lst(spec.get("clusterIPs"))]
    families = list(lst(spec.get("ipFamilies")))
    pp = Path("spec", "ipFamilyPolicy")
    if policy == "SingleStack":
        if len(ips) == 2:
            errs.append(invalid(pp, policy, "must be 'RequireDualStack' or 'PreferDualStack' when multiple cluster IPs are specified"))
        if len(families) == 2:
            errs.append(invalid(pp, policy, "must be 'RequireDualStack' or 'PreferDualStack' when multiple IP families are specified"))
    for index, ip in enumerate(ips):
        if ip == "None":
            break
        fam = "IPv6" if parse_ip_sloppy(ip) == 6 else "IPv4"
        if index >= len(families):
            if fam != "IPv4":
                errs.append(invalid(Path("spec", "clusterIPs").index(index), ips, f"{fam} is not configured on this cluster"))
            else:
                families.append(fam)
    if errs:
        return errs
    if spec.get("clusterIP") == "None" and not m(spec.get("selector")):
        if not families:
            families = ["IPv4"]
        if len(families) < 2 and policy != "SingleStack":
            families.append("IPv6" if families[0] == "IPv4" else "IPv4")
        spec["ipFamilies"] = families
    else:
        if policy == "RequireDualStack":
            errs.append(invalid(pp, policy, "this cluster is not configured for dual-stack services"))
        for index, fam in enumerate(families):
            if fam != "IPv4":
                errs.append(invalid(Path("spec", "ipFamilies").index(index), fam, "not configured on this cluster"))
        if errs:
            return errs
        if not families:
            families = ["IPv4"]
        spec["ipFamilies"] = families
    # txnAllocClusterIPs
    if not s(spec.get("clusterIP")):
        spec["clusterIP"] = ALLOCATED_CLUSTER_IP
        spec["clusterIPs"] = [ALLOCATED_CLUSTER_IP]
    # txnAllocNodePorts
    used: set[int] = set()

    def allocate(port: int) -> str | None:
        if not NODE_PORT_RANGE[0] <= port <= NODE_PORT_RANGE[1]:
            return _NOT_IN_RANGE
        if port in used:
            return _ALREADY_ALLOCATED
        used.add(port)
        return None

    def allocate_next() -> int:
        port = NODE_PORT_RANGE[0]
        requested = {i(m(p).get("nodePort")) for p in lst(spec.get("ports"))} | {i(spec.get("healthCheckNodePort"))}
        while port in used or port in requested:
            port += 1
        used.add(port)
        return port

    stype = spec.get("type")
    if stype in ("NodePort", "LoadBalancer"):
        should = stype == "NodePort" or spec.get("allocateLoadBalancerNodePorts") is True
        by_port: dict[int, int] = {}
        ports = [p for p in lst(spec.get("ports")) if isinstance(p, dict)]
        for index, sp in enumerate(ports):
            np = i(sp.get("nodePort"))
            if np == 0 and not should:
                continue
            pnum = i(sp.get("port"))
            allocated = by_port.get(pnum, 0)
            if allocated == 0:
                requested = next((i(q.get("nodePort")) for q in ports if i(q.get("port")) == pnum and i(q.get("nodePort")) != 0), 0)
                if requested:
                    err = allocate(requested)
                    if err is not None:
                        return [invalid(Path("spec", "ports").index(index).child("nodePort"), requested, err)]
                    sp["nodePort"] = requested
                    by_port[pnum] = requested
                else:
                    sp["nodePort"] = by_port[pnum] = allocate_next()
            elif np != allocated:
                if np == 0:
                    sp["nodePort"] = allocated
                else:
                    err = allocate(np)
                    if err is not None:
                        return [invalid(Path("spec", "ports").index(index).child("nodePort"), np, err)]
    if needs_health_check(spec):
        hc = i(spec.get("healthCheckNodePort"))
        if hc:
            # upstream returns an InternalError ("failed to allocate requested HealthCheck NodePort …") here;
            # crdtool reports it as an Invalid cause at the field
            err = allocate(hc)
            if err is not None:
                return [invalid(Path("spec", "healthCheckNodePort"), hc, f"failed to allocate requested HealthCheck NodePort {hc}: {err}")]
        else:
            spec["healthCheckNodePort"] = allocate_next()
    return []


def allocation_errors(obj: dict[str, Any], release: Any = None) -> list[FieldError]:
    """The errors the create-time allocation returns for ``obj`` (not changed)."""
    spec = copy_json(dict(m(obj.get("spec"))))
    _normalize_cluster_ips(spec)
    return _allocate(spec, release)


def prepare_for_create(obj: dict[str, Any], release: Any) -> None:
    """``beginCreate`` (cluster IPs normalised, IP families, cluster IP and node ports allocated) and
    ``PrepareForCreate`` (status cleared). On an allocation error nothing is allocated."""
    spec = obj.get("spec")
    if not isinstance(spec, dict):
        spec = obj["spec"] = {}
    _normalize_cluster_ips(spec)
    trial = copy_json(spec)
    if not _allocate(trial, release):
        spec.clear()
        spec.update(trial)
    reset_status(obj)
    if rel(release).minor < 31:
        # gate ServiceTrafficDistribution: Alpha off in 1.30 (dropServiceDisabledFields)
        spec.pop("trafficDistribution", None)


def validate(obj: dict[str, Any], release: Any, version: str = "") -> list[FieldError]:
    """The allocation's errors if it failed, else ``ValidateServiceCreate``."""
    errs = allocation_errors(obj, release)
    if errs:
        return errs
    return validate_service_create(obj, rel(release))


#: The first minor whose ``GetWarningsForService`` warns about the fields a headless Service ignores (release-4.21).
HEADLESS_WARNINGS_SINCE = 34


def warnings_on_create(obj: dict[str, Any], release: Any, version: str = "") -> list[str]:
    """``GetWarningsForService`` (``pkg/api/service/warnings.go``, release-4.17 … 4.23), in its order."""
    r = rel(release)
    spec = m(obj.get("spec"))
    out: list[str] = []
    annotations = m(m(obj.get("metadata")).get("annotations"))
    if "service.kubernetes.io/topology-aware-hints" in annotations:
        out.append("annotation service.kubernetes.io/topology-aware-hints is deprecated, please use service.kubernetes.io/topology-mode instead")
    cluster_ip = s(spec.get("clusterIP"))
    if cluster_ip and cluster_ip != "None":  # helper.IsServiceIPSet
        for index, ip in enumerate(lst(spec.get("clusterIPs"))):
            out.extend(get_warnings_for_ip(f"spec.clusterIPs[{index}]", s(ip), r))
    stype = spec.get("type")
    # isHeadlessService: type ClusterIP and clusterIP None
    headless = stype == "ClusterIP" and cluster_ip == "None"
    if headless and r.minor >= HEADLESS_WARNINGS_SINCE:
        if s(spec.get("loadBalancerIP")):
            out.append("spec.loadBalancerIP is ignored for headless services")
        if lst(spec.get("externalIPs")):
            out.append("spec.externalIPs is ignored for headless services")
        if spec.get("sessionAffinity") != "None":
            out.append("spec.SessionAffinity is ignored for headless services")
    for index, ip in enumerate(lst(spec.get("externalIPs"))):
        out.extend(get_warnings_for_ip(f"spec.externalIPs[{index}]", s(ip), r))
    if lst(spec.get("externalIPs")) and not headless and stype != "ExternalName" and r.minor >= 36:
        out.append("spec.externalIPs is deprecated and may no longer be implemented in some clusters")
    if s(spec.get("loadBalancerIP")):
        out.extend(get_warnings_for_ip("spec.loadBalancerIP", s(spec.get("loadBalancerIP")), r))
    for index, cidr in enumerate(lst(spec.get("loadBalancerSourceRanges"))):
        out.extend(get_warnings_for_cidr(f"spec.loadBalancerSourceRanges[{index}]", s(cidr), r))
    if stype == "ExternalName" and lst(spec.get("externalIPs")):
        out.append('spec.externalIPs is ignored when spec.type is "ExternalName"')
    if stype != "ExternalName" and s(spec.get("externalName")):
        out.append('spec.externalName is ignored when spec.type is not "ExternalName"')
    if spec.get("trafficDistribution") == "PreferClose" and r.minor >= 36:
        out.append('spec.trafficDistribution: "PreferClose" is deprecated; use "PreferSameZone"')
    return out
