"""Native validation of networking.k8s.io/v1: NetworkPolicy, Ingress, IngressClass.

Mirrors kubernetes/kubernetes ``pkg/apis/networking/validation/validation.go`` (1.36 from openshift/microshift
``release-4.23``, compared with ``release-4.17`` … ``release-4.22``). Per release: an Ingress backend's
service name is a DNS label instead of an RFC 1035 label when gate ``RelaxedServiceNameValidation`` is on (1.36,
see :data:`crdtool.core.apis.core.validation.CORE_CHANGES`). CIDRs are checked as ``ParseCIDRSloppy`` does
(``StrictIPCIDRValidation`` is off by default through 1.36).
"""

from __future__ import annotations

import re
from typing import Any, Mapping

from crdtool.core.apis._util import i, lst, m, s, validate_label_selector
from crdtool.core.apis.batch.validation import _is_domain_prefixed_path
from crdtool.core.apis.core.validation import (
    CORE_CHANGES,
    is_valid_cidr_for_legacy_field,
    parse_cidr_sloppy,
    parse_ip_sloppy,
    validate_namespace_name,
    validate_object_meta_core,
    validate_secret_name,
)
from crdtool.core.errors import FieldError, Path, forbidden, invalid, not_supported, required, too_long
from crdtool.core.releases import Release
from crdtool.core.validation_util import (
    DNS1123_SUBDOMAIN_MAX_LENGTH,
    _DNS1123_SUBDOMAIN_FMT,
    byte_len,
    is_dns1123_subdomain,
    is_path_segment_name,
    is_valid_port_name,
    is_valid_port_num,
    max_len_error,
    name_is_dns1035_label,
    name_is_dns_label,
    name_is_dns_subdomain,
    regex_error,
)

#: ``field.NewPath("metadata")``, built once (a Path is an immutable str).
_METADATA = Path("metadata")

MAX_LEN_INGRESS_CLASS_CONTROLLER = 250
_PATH_TYPES = ("Exact", "ImplementationSpecific", "Prefix")
_INVALID_PATH_SEQUENCES = ("//", "/./", "/../", "%2f", "%2F")
_INVALID_PATH_SUFFIXES = ("/..", "/.")
_WILDCARD_FMT = "\\*\\." + _DNS1123_SUBDOMAIN_FMT
_WILDCARD_RE = re.compile(_WILDCARD_FMT)


def is_wildcard_dns1123_subdomain(value: str) -> list[str]:
    """Upstream ``IsWildcardDNS1123Subdomain``."""
    errs: list[str] = []
    if byte_len(value) > DNS1123_SUBDOMAIN_MAX_LENGTH:
        errs.append(max_len_error(DNS1123_SUBDOMAIN_MAX_LENGTH))
    if _WILDCARD_RE.fullmatch(value) is None:
        errs.append(regex_error(
            "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must "
            "consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character",
            _WILDCARD_FMT, "*.example.com"))
    return errs


def _ip_block(ipb: Mapping[str, Any], path: Path, release: Release) -> list[FieldError]:
    """Upstream ``ValidateIPBlock`` (``IsValidCIDRForLegacyField``: strict from 1.36)."""
    cidr = s(ipb.get("cidr"))
    if not cidr:
        return [required(path.child("cidr"), "")]
    errs = is_valid_cidr_for_legacy_field(path.child("cidr"), cidr, release)
    net = parse_cidr_sloppy(cidr)
    if net is None:
        return errs
    fam, base, plen = net
    width = 32 if fam == 4 else 128
    for index, ex in enumerate(lst(ipb.get("except"))):
        ep = path.child("except").index(index)
        ex = s(ex)
        errs.extend(is_valid_cidr_for_legacy_field(ep, ex, release))
        exnet = parse_cidr_sloppy(ex)
        if exnet is None:
            continue
        efam, ebase, eplen = exnet
        ewidth = 32 if efam == 4 else 128
        contains = efam == fam and (ebase >> (width - plen) if plen else 0) == (base >> (width - plen) if plen else 0) and ewidth == width
        if not contains or plen >= eplen:
            errs.append(invalid(ep, ex, "must be a strict subset of `cidr`"))
    return errs


def _np_port(port: Mapping[str, Any], path: Path) -> list[FieldError]:
    """Upstream ``ValidateNetworkPolicyPort``."""
    errs: list[FieldError] = []
    proto = port.get("protocol")
    if isinstance(proto, str) and proto not in ("TCP", "UDP", "SCTP"):
        errs.append(not_supported(path.child("protocol"), proto, ("TCP", "UDP", "SCTP")))
    p, end = port.get("port"), port.get("endPort")
    if p is not None:
        if not isinstance(p, str):
            n = i(p)
            errs.extend(invalid(path.child("port"), n, msg) for msg in is_valid_port_num(n))
            if end is not None:
                if i(end) < n:
                    errs.append(invalid(path.child("endPort"), n, "must be greater than or equal to `port`"))
                errs.extend(invalid(path.child("endPort"), i(end), msg) for msg in is_valid_port_num(i(end)))
        else:
            if end is not None:
                errs.append(invalid(path.child("endPort"), i(end), "may not be specified when `port` is non-numeric"))
            errs.extend(invalid(path.child("port"), p, msg) for msg in is_valid_port_name(p))
    elif end is not None:
        errs.append(invalid(path.child("endPort"), i(end), "may not be specified when `port` is not specified"))
    return errs


def _np_peer(peer: Mapping[str, Any], path: Path, release: Release) -> list[FieldError]:
    """Upstream ``ValidateNetworkPolicyPeer``."""
    errs: list[FieldError] = []
    num = 0
    for key in ("podSelector", "namespaceSelector"):
        if isinstance(peer.get(key), dict):
            num += 1
            errs.extend(validate_label_selector(peer[key], path.child(key), release))
    if isinstance(peer.get("ipBlock"), dict):
        num += 1
        errs.extend(_ip_block(peer["ipBlock"], path.child("ipBlock"), release))
    if num == 0:
        errs.append(required(path, "must specify a peer"))
    elif num > 1 and isinstance(peer.get("ipBlock"), dict):
        errs.append(forbidden(path, "may not specify both ipBlock and another peer"))
    return errs


def validate_network_policy(obj: Mapping[str, Any], release: Release) -> list[FieldError]:
    """Upstream ``ValidateNetworkPolicy`` → ``ValidateNetworkPolicySpec``."""
    errs = validate_object_meta_core(obj.get("metadata"), True, name_is_dns_subdomain, _METADATA, release)
    spec, path = m(obj.get("spec")), Path("spec")
    errs.extend(validate_label_selector(m(spec.get("podSelector")), path.child("podSelector"), release))
    for direction, peers in (("ingress", "from"), ("egress", "to")):
        for index, rule in enumerate(lst(spec.get(direction))):
            rule = m(rule)
            rp = path.child(direction).index(index)
            for j, port in enumerate(lst(rule.get("ports"))):
                errs.extend(_np_port(m(port), rp.child("ports").index(j)))
            for j, peer in enumerate(lst(rule.get(peers))):
                errs.extend(_np_peer(m(peer), rp.child(peers).index(j), release))
    types = lst(spec.get("policyTypes"))
    if len(types) > 2:
        errs.append(invalid(path.child("policyTypes"), list(types), "may not specify more than two policyTypes"))
        return errs
    for index, t in enumerate(types):
        if t not in ("Ingress", "Egress"):
            errs.append(not_supported(path.child("policyTypes").index(index), t, ("Ingress", "Egress")))
    return errs


def _typed_ref(params: Mapping[str, Any], path: Path) -> list[FieldError]:
    errs: list[FieldError] = []
    group = params.get("apiGroup")
    if isinstance(group, str):
        errs.extend(invalid(path.child("apiGroup"), group, msg) for msg in is_dns1123_subdomain(group))
    for key in ("kind", "name"):
        v = s(params.get(key))
        if not v:
            errs.append(required(path.child(key), ""))
        else:
            errs.extend(invalid(path.child(key), v, msg) for msg in is_path_segment_name(v))
    return errs


def _backend(backend: Mapping[str, Any], path: Path, release: Release) -> list[FieldError]:
    """Upstream ``validateIngressBackend``."""
    res, svc = backend.get("resource"), backend.get("service")
    if isinstance(res, dict) and isinstance(svc, dict):
        return [invalid(path, "", "cannot set both resource and service backends")]
    errs: list[FieldError] = []
    if isinstance(res, dict):
        errs.extend(_typed_ref(res, path.child("resource")))
    elif isinstance(svc, dict):
        name = s(svc.get("name"))
        if not name:
            errs.append(required(path.child("service", "name"), ""))
        else:
            fn = name_is_dns_label if release.minor >= CORE_CHANGES["service-name-dns-label"] else name_is_dns1035_label
            errs.extend(invalid(path.child("service", "name"), name, msg) for msg in fn(name, False))
        port = m(svc.get("port"))
        pname, pnum = s(port.get("name")), i(port.get("number"))
        if pname and pnum:
            errs.append(invalid(path, "", "cannot set both port name & port number"))
        elif pname:
            errs.extend(invalid(path.child("service", "port", "name"), pname, msg) for msg in is_valid_port_name(pname))
        elif pnum:
            errs.extend(invalid(path.child("service", "port", "number"), pnum, msg) for msg in is_valid_port_num(pnum))
        else:
            errs.append(required(path, "port name or number is required"))
    else:
        errs.append(invalid(path, "", "resource or service backend is required"))
    return errs


def _host_errs(host: str, path: Path) -> tuple[list[FieldError], bool]:
    if "*" in host:
        return [invalid(path, host, msg) for msg in is_wildcard_dns1123_subdomain(host)], True
    return [invalid(path, host, msg) for msg in is_dns1123_subdomain(host)], False


def validate_ingress_create(obj: Mapping[str, Any], release: Release) -> list[FieldError]:
    """Upstream ``ValidateIngressCreate`` → ``validateIngress`` → ``ValidateIngressSpec``."""
    meta = m(obj.get("metadata"))
    errs = validate_object_meta_core(meta, True, name_is_dns_subdomain, _METADATA, release)
    spec, path = m(obj.get("spec")), Path("spec")
    rules = lst(spec.get("rules"))
    db = spec.get("defaultBackend")
    if not rules and not isinstance(db, dict):
        errs.append(invalid(path, list(rules) if rules else None, "either `defaultBackend` or `rules` must be specified"))
    if isinstance(db, dict):
        errs.extend(_backend(db, path.child("defaultBackend"), release))
    for index, rule in enumerate(rules):
        rule = m(rule)
        rp = path.child("rules").index(index)
        host = s(rule.get("host"))
        if host:
            if parse_ip_sloppy(host) is not None:
                errs.append(invalid(rp.child("host"), host, "must be a DNS name, not an IP address"))
            herrs, _ = _host_errs(host, rp.child("host"))
            errs.extend(herrs)
        http = rule.get("http")
        if isinstance(http, dict):
            hp = rp.child("http")
            paths = lst(http.get("paths"))
            if not paths:
                errs.append(required(hp.child("paths"), ""))
            for j, p in enumerate(paths):
                p = m(p)
                pp = hp.child("paths").index(j)
                pt = p.get("pathType")
                if pt is None:
                    errs.append(required(pp.child("pathType"), "pathType must be specified"))
                    continue
                ptext = s(p.get("path"))
                if pt in ("Exact", "Prefix"):
                    if not ptext.startswith("/"):
                        errs.append(invalid(pp.child("path"), ptext, "must be an absolute path"))
                    if ptext:
                        for seq in _INVALID_PATH_SEQUENCES:
                            if seq in ptext:
                                errs.append(invalid(pp.child("path"), ptext, f"must not contain '{seq}'"))
                        for suffix in _INVALID_PATH_SUFFIXES:
                            if ptext.endswith(suffix):
                                errs.append(invalid(pp.child("path"), ptext, f"cannot end with '{suffix}'"))
                elif pt == "ImplementationSpecific":
                    if ptext and not ptext.startswith("/"):
                        errs.append(invalid(pp.child("path"), ptext, "must be an absolute path"))
                else:
                    errs.append(not_supported(pp.child("pathType"), pt, _PATH_TYPES))
                errs.extend(_backend(m(p.get("backend")), pp.child("backend"), release))
    for t_index, tls in enumerate(lst(spec.get("tls"))):
        tls = m(tls)
        tp = path.child("tls").index(t_index)
        for j, host in enumerate(lst(tls.get("hosts"))):
            herrs, _ = _host_errs(s(host), tp.child("hosts").index(j))
            errs.extend(herrs)
        secret = s(tls.get("secretName"))
        if secret:
            errs.extend(invalid(tp.child("secretName"), secret, msg) for msg in validate_secret_name(secret, False))
    icn = spec.get("ingressClassName")
    if isinstance(icn, str):
        errs.extend(invalid(path.child("ingressClassName"), icn, msg) for msg in name_is_dns_subdomain(icn, False))
    ann = m(meta.get("annotations")).get("kubernetes.io/ingress.class")
    if isinstance(ann, str) and isinstance(icn, str) and ann != icn:
        errs.append(invalid(Path("annotations").child("kubernetes.io/ingress.class"), ann, "must match `ingressClassName` when both are specified"))
    return errs


def validate_ingress_class(obj: Mapping[str, Any], release: Release) -> list[FieldError]:
    """Upstream ``ValidateIngressClass`` → ``validateIngressClassSpec``."""
    errs = validate_object_meta_core(obj.get("metadata"), False, name_is_dns_subdomain, _METADATA, release)
    spec, path = m(obj.get("spec")), Path("spec")
    controller = s(spec.get("controller"))
    if len(controller) > MAX_LEN_INGRESS_CLASS_CONTROLLER:
        errs.append(too_long(path.child("controller"), controller, MAX_LEN_INGRESS_CLASS_CONTROLLER))
    errs.extend(_is_domain_prefixed_path(path.child("controller"), controller))
    params = spec.get("parameters")
    if isinstance(params, dict):
        pp = path.child("parameters")
        errs.extend(_typed_ref(params, pp))
        scope = params.get("scope")
        if scope is None:
            errs.append(required(pp.child("scope"), ""))
            return errs
        if scope not in ("Cluster", "Namespace"):
            errs.append(not_supported(pp.child("scope"), scope, ("Cluster", "Namespace")))
        else:
            ns = params.get("namespace")
            if scope == "Namespace":
                if ns is None:
                    errs.append(required(pp.child("namespace"), "`parameters.scope` is set to 'Namespace'"))
                else:
                    errs.extend(invalid(pp.child("namespace"), ns, msg) for msg in validate_namespace_name(s(ns), False))
            if scope == "Cluster" and ns is not None:
                errs.append(forbidden(pp.child("namespace"), "`parameters.scope` is set to 'Cluster'"))
    return errs
