"""``TestValidateServiceCreate`` of kubernetes/kubernetes ``pkg/apis/core/validation/validation_test.go``
(openshift/microshift ``release-4.23`` = 1.36): each row tweaks upstream's ``makeValidService()`` and counts the
errors of ``ValidateServiceCreate`` (called directly, as upstream does: no defaults, no allocation). Upstream runs
the table with StrictIPCIDRValidation on (1.36's default) and the 1.34 emulated gates otherwise: the rows are run at
1.36, but the relaxed-service-name rows (1.36 turns RelaxedServiceNameValidation on; tested elsewhere) and the
``legacyIPs`` rows (tests/core/apis/test_strict_ip_cidr.py runs them at 1.35) are left out."""

from __future__ import annotations

import copy
from typing import Any, Callable

import pytest

from crdtool.core.apis.core.validation import validate_service_create
from crdtool.core.releases import resolve_release

R36 = resolve_release("1.36")
Tweak = Callable[[dict[str, Any]], None]


def make_valid_service() -> dict[str, Any]:
    return {"apiVersion": "v1", "kind": "Service",
            "metadata": {"name": "valid", "namespace": "valid", "labels": {}, "annotations": {}, "resourceVersion": "1"},
            "spec": {"selector": {"key": "val"}, "sessionAffinity": "None", "type": "ClusterIP",
                     "ports": [{"name": "p", "protocol": "TCP", "port": 8675, "targetPort": 8675}], "internalTrafficPolicy": "Cluster"}}


def spec(**fields: Any) -> Tweak:
    def tweak(svc: dict[str, Any]) -> None:
        for key, value in fields.items():
            if value is None:
                svc["spec"].pop(key, None)
            else:
                svc["spec"][key] = value
    return tweak


def meta(section: str, key: str, value: str) -> Tweak:
    return lambda svc: svc["metadata"][section].__setitem__(key, value)


def port0(**fields: Any) -> Tweak:
    return lambda svc: svc["spec"]["ports"][0].update(fields)


def add_port(name: str, port: int, protocol: str = "TCP", target: Any = None, node_port: int = 0) -> Tweak:
    p: dict[str, Any] = {"name": name, "port": port, "protocol": protocol, "targetPort": target if target is not None else port}
    if node_port:
        p["nodePort"] = node_port
    return lambda svc: svc["spec"]["ports"].append(p)


def ips(*values: str, first: str | None = None) -> Tweak:
    return spec(clusterIP=first if first is not None else values[0], clusterIPs=list(values))


LB = spec(type="LoadBalancer", externalTrafficPolicy="Cluster", allocateLoadBalancerNodePorts=True)
NP = spec(type="NodePort", externalTrafficPolicy="Cluster")
HEADLESS = ips("None")
DS, SS, PDS = "RequireDualStack", "SingleStack", "PreferDualStack"
SRC = "service.beta.kubernetes.io/load-balancer-source-ranges"

CASES: list[tuple[str, list[Tweak], int]] = [
    ("default", [], 0),
    ("missing namespace", [lambda s: s["metadata"].__setitem__("namespace", "")], 1),
    ("invalid namespace", [lambda s: s["metadata"].__setitem__("namespace", "-123")], 1),
    ("missing name", [lambda s: s["metadata"].__setitem__("name", "")], 1),
    ("invalid name", [lambda s: s["metadata"].__setitem__("name", "-123")], 1),
    ("too long name", [lambda s: s["metadata"].__setitem__("name", "a" * 64)], 1),
    ("invalid generateName", [lambda s: s["metadata"].__setitem__("generateName", "-123")], 1),
    ("too long generateName", [lambda s: s["metadata"].__setitem__("generateName", "a" * 64)], 1),
    ("invalid label", [meta("labels", "NoUppercaseOrSpecialCharsLike=Equals", "bar")], 1),
    ("invalid annotation", [meta("annotations", "NoSpecialCharsLike=Equals", "bar")], 1),
    ("nil selector", [spec(selector=None)], 0),
    ("invalid selector", [lambda s: s["spec"]["selector"].__setitem__("NoSpecialCharsLike=Equals", "bar")], 1),
    ("missing session affinity", [spec(sessionAffinity="")], 1),
    ("missing type", [spec(type="")], 1),
    ("missing ports", [spec(ports=None)], 1),
    ("missing ports but headless", [spec(ports=None), HEADLESS], 0),
    ("empty port[0] name", [port0(name="")], 0),
    ("empty port[1] name", [add_port("", 12345)], 1),
    ("empty multi-port port[0] name", [port0(name=""), add_port("p", 12345)], 1),
    ("invalid port name", [port0(name="INVALID")], 1),
    ("missing protocol", [port0(protocol="")], 1),
    ("invalid protocol", [port0(protocol="INVALID")], 1),
    ("invalid cluster ip", [ips("invalid")], 1),
    ("invalid legacy cluster ip with strict validation", [ips("001.002.003.004")], 1),
    ("missing port", [port0(port=0)], 1),
    ("invalid port", [port0(port=65536)], 1),
    ("invalid TargetPort int", [port0(targetPort=65536)], 1),
    ("valid port headless", [port0(port=11722, targetPort=11722), HEADLESS], 0),
    ("invalid port headless 1", [port0(port=11722, targetPort=11721), HEADLESS], 0),
    ("invalid port headless 2", [port0(port=11722, targetPort="target"), HEADLESS], 0),
    ("invalid externalIPs localhost", [spec(externalTrafficPolicy="Cluster", externalIPs=["127.0.0.1"])], 1),
    ("invalid externalIPs unspecified", [spec(externalTrafficPolicy="Cluster", externalIPs=["0.0.0.0"])], 1),
    ("invalid externalIPs host", [spec(externalTrafficPolicy="Cluster", externalIPs=["myhost.mydomain"])], 1),
    ("invalid legacy externalIPs with strict validation", [spec(externalTrafficPolicy="Cluster", externalIPs=["001.002.003.004"])], 1),
    ("valid externalIPs", [spec(externalTrafficPolicy="Cluster", externalIPs=["1.2.3.4"])], 0),
    ("dup port name", [port0(name="p"), add_port("p", 12345)], 1),
    ("valid load balancer protocol UDP 1", [LB, port0(protocol="UDP")], 0),
    ("valid load balancer protocol UDP 2", [LB, lambda s: s["spec"]["ports"].__setitem__(0, {"name": "q", "port": 12345, "protocol": "UDP", "targetPort": 12345})], 0),
    ("load balancer with mix protocol", [LB, add_port("q", 12345, "UDP")], 0),
    ("valid 2", [port0(protocol="UDP", targetPort=12345)], 0),
    ("valid 3", [port0(targetPort="http")], 0),
    ("valid cluster ip - none ", [HEADLESS], 0),
    ("valid cluster ip - empty", [spec(clusterIPs=None), port0(targetPort="http")], 0),
    ("valid type - loadbalancer", [LB], 0),
    ("valid type - loadbalancer with allocateLoadBalancerNodePorts=false", [LB, spec(allocateLoadBalancerNodePorts=False)], 0),
    ("invalid type - missing AllocateLoadBalancerNodePorts for loadbalancer type", [spec(type="LoadBalancer", externalTrafficPolicy="Cluster")], 1),
    ("valid type loadbalancer 2 ports", [LB, add_port("q", 12345)], 0),
    ("duplicate nodeports", [NP, add_port("q", 1, node_port=1), add_port("r", 2, node_port=1)], 1),
    ("duplicate nodeports (different protocols)", [NP, add_port("q", 1, node_port=1), add_port("r", 2, "UDP", node_port=1), add_port("s", 3, "SCTP", node_port=1)], 0),
    ("invalid duplicate ports (with same protocol)", [add_port("q", 12345, target=8080), add_port("r", 12345, target=80)], 1),
    ("valid duplicate ports (with different protocols)", [add_port("q", 12345, target=8080), add_port("r", 12345, "UDP", target=80), add_port("s", 12345, "SCTP", target=8088)], 0),
    ("valid type - nodeport", [NP], 0),
    ("valid type loadbalancer with NodePort", [LB, add_port("q", 12345, node_port=12345)], 0),
    ("valid type=NodePort service with NodePort", [NP, add_port("q", 12345, node_port=12345)], 0),
    ("invalid cluster service with NodePort", [add_port("q", 12345, node_port=12345)], 1),
    ("invalid public service with duplicate NodePort", [NP, add_port("p1", 1, node_port=1), add_port("p2", 2, node_port=1)], 1),
    ("valid port type=LoadBalancer", [LB, add_port("kubelet", 10250, target=12345)], 0),
    ("valid LoadBalancer source range annotation", [LB, meta("annotations", SRC, "1.2.3.0/24,  5.6.0.0/16")], 0),
    ("valid empty LoadBalancer source range annotation", [LB, meta("annotations", SRC, "")], 0),
    ("valid whitespace-only LoadBalancer source range annotation", [LB, meta("annotations", SRC, "  ")], 0),
    ("invalid LoadBalancer source range annotation (hostname)", [LB, meta("annotations", SRC, "foo.bar")], 1),
    ("invalid LoadBalancer source range annotation (invalid CIDR)", [LB, meta("annotations", SRC, "1.2.3.4/33")], 1),
    ("invalid LoadBalancer source range annotation for non LoadBalancer type service", [meta("annotations", SRC, "1.2.3.0/24")], 1),
    ("invalid empty-but-set LoadBalancer source range annotation for non LoadBalancer type service", [meta("annotations", SRC, "")], 1),
    ("invalid legacy LoadBalancer source range annotation with strict validation", [LB, meta("annotations", SRC, "001.002.003.000/24")], 1),
    ("valid LoadBalancer source range", [LB, spec(loadBalancerSourceRanges=["1.2.3.0/24", "5.6.0.0/16"])], 0),
    ("valid LoadBalancer source range with whitespace", [LB, spec(loadBalancerSourceRanges=["1.2.3.0/24  ", " 5.6.0.0/16"])], 0),
    ("invalid empty LoadBalancer source range", [LB, spec(loadBalancerSourceRanges=["   "])], 1),
    ("invalid LoadBalancer source range (hostname)", [LB, spec(loadBalancerSourceRanges=["foo.bar"])], 1),
    ("invalid LoadBalancer source range (invalid CIDR)", [LB, spec(loadBalancerSourceRanges=["1.2.3.4/33"])], 1),
    ("invalid source range for non LoadBalancer type service", [spec(loadBalancerSourceRanges=["1.2.3.0/24", "5.6.0.0/16"])], 1),
    ("invalid source range annotation ignored with valid source range field", [LB, meta("annotations", SRC, "foo.bar"), spec(loadBalancerSourceRanges=["1.2.3.0/24", "5.6.0.0/16"])], 0),
    ("valid ExternalName", [spec(type="ExternalName", externalName="foo.bar.example.com")], 0),
    ("valid ExternalName (trailing dot)", [spec(type="ExternalName", externalName="foo.bar.example.com.")], 0),
    ("invalid ExternalName clusterIP (valid IP)", [spec(type="ExternalName", externalName="foo.bar.example.com"), ips("1.2.3.4")], 1),
    ("invalid ExternalName clusterIP (None)", [spec(type="ExternalName", externalName="foo.bar.example.com"), ips("None")], 1),
    ("invalid ExternalName (not a DNS name)", [spec(type="ExternalName", externalName="-123")], 1),
    ("LoadBalancer type cannot have None ClusterIP", [HEADLESS, LB], 1),
    ("invalid node port with clusterIP None", [NP, add_port("q", 1, node_port=1), HEADLESS], 1),
    ("invalid externalTraffic field", [spec(type="LoadBalancer", allocateLoadBalancerNodePorts=True, externalTrafficPolicy="invalid")], 1),
    ("nil internalTraffic field when feature gate is on", [spec(internalTrafficPolicy=None)], 1),
    ("internalTrafficPolicy field nil when type is ExternalName", [spec(internalTrafficPolicy=None, type="ExternalName", externalName="foo.bar.com")], 0),
    ("internalTrafficPolicy field is set when type is ExternalName", [spec(internalTrafficPolicy="Cluster", type="ExternalName", externalName="foo.bar.com")], 0),
    ("invalid internalTraffic field", [spec(internalTrafficPolicy="invalid")], 1),
    ("internalTrafficPolicy field set to Local", [spec(internalTrafficPolicy="Local")], 0),
    ("negative healthCheckNodePort field", [spec(type="LoadBalancer", allocateLoadBalancerNodePorts=True, externalTrafficPolicy="Local", healthCheckNodePort=-1)], 1),
    ("healthCheckNodePort field", [spec(type="LoadBalancer", allocateLoadBalancerNodePorts=True, externalTrafficPolicy="Local", healthCheckNodePort=31100)], 0),
    ("invalid timeoutSeconds field", [spec(sessionAffinity="ClientIP", sessionAffinityConfig={"clientIP": {"timeoutSeconds": -1}})], 1),
    ("sessionAffinityConfig can't be set when session affinity is None", [LB, spec(sessionAffinityConfig={"clientIP": {"timeoutSeconds": 90}})], 1),
    ("invalid, service with invalid ipFamilies", [spec(ipFamilies=["not-a-valid-ip-family"])], 1),
    ("invalid, service with invalid ipFamilies (2nd)", [spec(ipFamilyPolicy=DS, ipFamilies=["IPv4", "not-a-valid-ip-family"])], 1),
    ("IPFamilyPolicy(singleStack) is set for two families", [spec(ipFamilyPolicy=SS, ipFamilies=["IPv4", "IPv6"])], 0),
    ("valid, IPFamilyPolicy(preferDualStack) is set for two families", [spec(ipFamilyPolicy=PDS, ipFamilies=["IPv4", "IPv6"])], 0),
    ("invalid, service with 2+ ipFamilies", [spec(ipFamilyPolicy=DS, ipFamilies=["IPv4", "IPv6", "IPv4"])], 1),
    ("invalid, service with same ip families", [spec(ipFamilyPolicy=DS, ipFamilies=["IPv6", "IPv6"])], 1),
    ("valid, service with valid ipFamilies (v6)", [spec(ipFamilies=["IPv6"])], 0),
    ("valid, service with valid ipFamilies(v6,v4)", [spec(ipFamilyPolicy=DS, ipFamilies=["IPv6", "IPv4"])], 0),
    ("valid, service preferred dual stack with single family", [spec(ipFamilyPolicy=PDS, ipFamilies=["IPv6"])], 0),
    ("invalid, garbage single ip", [ips("garbage-ip")], 1),
    ("invalid, garbage ips", [spec(ipFamilyPolicy=DS), ips("garbage-ip", "garbage-second-ip")], 2),
    ("invalid, garbage first ip", [spec(ipFamilyPolicy=DS), ips("garbage-ip", "2001::1")], 1),
    ("invalid, garbage second ip", [spec(ipFamilyPolicy=DS), ips("2001::1", "garbage-ip")], 1),
    ("invalid, NONE + IP", [spec(ipFamilyPolicy=DS), ips("None", "2001::1")], 1),
    ("invalid, IP + NONE", [spec(ipFamilyPolicy=DS), ips("2001::1", "None")], 1),
    ("invalid, EMPTY STRING + IP", [spec(ipFamilyPolicy=DS), ips("", "2001::1")], 2),
    ("invalid, IP + EMPTY STRING", [spec(ipFamilyPolicy=DS), ips("2001::1", "")], 1),
    ("invalid, same ip family (v6)", [spec(ipFamilyPolicy=DS, ipFamilies=["IPv4", "IPv6"]), ips("2001::1", "2001::4")], 2),
    ("invalid, same ip family (v4)", [spec(ipFamilyPolicy=DS, ipFamilies=["IPv4", "IPv6"]), ips("10.0.0.1", "10.0.0.10")], 2),
    ("invalid, more than two ips", [spec(ipFamilyPolicy=DS, ipFamilies=["IPv4", "IPv6"]), ips("10.0.0.1", "2001::1", "10.0.0.10")], 1),
    (" multi ip, dualstack not set (request for downgrade)", [spec(ipFamilyPolicy=SS, ipFamilies=["IPv4", "IPv6"]), ips("10.0.0.1", "2001::1")], 0),
    ("valid, headless-no-selector + multi family + gate off", [spec(ipFamilyPolicy=DS, ipFamilies=["IPv4", "IPv6"], selector=None), HEADLESS], 0),
    ("valid, multi ip, single ipfamilies preferDualStack", [spec(ipFamilyPolicy=PDS, ipFamilies=["IPv4"]), ips("10.0.0.1", "2001::1")], 0),
    ("invalid, families don't match (v4=>v6)", [ips("10.0.0.1"), spec(ipFamilies=["IPv6"])], 1),
    ("invalid, families don't match (v6=>v4)", [ips("2001::1"), spec(ipFamilies=["IPv4"])], 1),
    ("valid, single ip + single family", [spec(ipFamilyPolicy=SS, ipFamilies=["IPv6"]), ips("2001::1")], 0),
    ("valid, single ip, multi ipfamilies", [spec(ipFamilyPolicy=DS, ipFamilies=["IPv4", "IPv6"]), ips("10.0.0.1")], 0),
    ("valid, ips, multi ipfamilies (6,4)", [spec(ipFamilyPolicy=DS, ipFamilies=["IPv6", "IPv4"]), ips("2001::1", "10.0.0.1")], 0),
    ("valid, multi ips (4,6)", [spec(ipFamilyPolicy=DS), ips("10.0.0.1", "2001::1")], 0),
    ("valid, dual stack", [spec(ipFamilyPolicy=DS)], 0),
    ("valid appProtocol", [spec(ports=[{"port": 12345, "targetPort": 12345, "protocol": "TCP", "appProtocol": "HTTP"}])], 0),
    ("valid custom appProtocol", [spec(ports=[{"port": 12345, "targetPort": 12345, "protocol": "TCP", "appProtocol": "example.com/protocol"}])], 0),
    ("invalid appProtocol", [spec(ports=[{"port": 12345, "targetPort": 12345, "protocol": "TCP", "appProtocol": "example.com/protocol_with{invalid}[characters]"}])], 1),
    ("invalid cluster ip != clusterIP in multi ip service", [spec(ipFamilyPolicy=DS), ips("10.0.0.1", "2001::1", first="10.0.0.10")], 1),
    ("invalid cluster ip != clusterIP in single ip service", [ips("10.0.0.1", first="10.0.0.10")], 1),
    ("Use AllocateLoadBalancerNodePorts when type is not LoadBalancer", [spec(allocateLoadBalancerNodePorts=True)], 1),
    ("valid LoadBalancerClass when type is LoadBalancer", [LB, spec(loadBalancerClass="test.com/test-load-balancer-class")], 0),
    ("invalid LoadBalancerClass", [LB, spec(loadBalancerClass="Bad/LoadBalancerClass")], 1),
    ("invalid: set LoadBalancerClass when type is not LoadBalancer", [spec(loadBalancerClass="test.com/test-load-balancer-class")], 1),
    ("topology annotations are mismatched", [meta("annotations", "service.kubernetes.io/topology-aware-hints", "original"),
                                             meta("annotations", "service.kubernetes.io/topology-mode", "different")], 1),
    ("valid: trafficDistribution field set to PreferClose", [spec(trafficDistribution="PreferClose")], 0),
    ("valid: trafficDistribution field set to PreferSameZone with feature gate", [spec(trafficDistribution="PreferSameZone")], 0),
    ("valid: trafficDistribution field set to PreferSameNode with feature gate", [spec(trafficDistribution="PreferSameNode")], 0),
    ("invalid: trafficDistribution field set to Random", [spec(trafficDistribution="Random")], 1),
]


@pytest.mark.parametrize(("tweaks", "num_errs"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_validate_service_create_1_36(tweaks: list[Tweak], num_errs: int) -> None:
    svc = copy.deepcopy(make_valid_service())
    for tweak in tweaks:
        tweak(svc)
    errs = validate_service_create(svc, R36)
    assert len(errs) == num_errs, [str(e) for e in errs]


def test_topology_annotations_and_three_cluster_ips_texts() -> None:
    """validateService's topology check (first, before the spec) and IsDualStackIPStrings (both families present:
    three IPs of two families are "up to 2 values" only)."""
    svc = make_valid_service()
    svc["metadata"]["annotations"].update({"service.kubernetes.io/topology-aware-hints": "original", "service.kubernetes.io/topology-mode": "different"})
    spec(ipFamilyPolicy=DS, ipFamilies=["IPv4", "IPv6"])(svc)
    ips("10.0.0.1", "2001::1", "10.0.0.10")(svc)
    assert [str(e) for e in validate_service_create(svc, R36)] == [
        'metadata.annotations[service.kubernetes.io/topology-mode]: Invalid value: "different": must match annotations[service.kubernetes.io/topology-aware-hints] when both are specified',
        'spec.clusterIPs: Invalid value: ["10.0.0.1","2001::1","10.0.0.10"]: may only hold up to 2 values',
    ]


ETP_CASES: list[tuple[str, list[Tweak], int]] = [
    ("valid loadBalancer service with externalTrafficPolicy and healthCheckNodePort set",
     [spec(type="LoadBalancer", allocateLoadBalancerNodePorts=True, externalTrafficPolicy="Local", healthCheckNodePort=34567)], 0),
    ("valid nodePort service with externalTrafficPolicy set", [spec(type="NodePort", externalTrafficPolicy="Local")], 0),
    ("valid clusterIP service with none of externalTrafficPolicy and healthCheckNodePort set", [spec(type="ClusterIP")], 0),
    ("cannot set healthCheckNodePort field on loadBalancer service with externalTrafficPolicy!=Local",
     [spec(type="LoadBalancer", allocateLoadBalancerNodePorts=True, externalTrafficPolicy="Cluster", healthCheckNodePort=34567)], 1),
    ("cannot set healthCheckNodePort field on nodePort service", [spec(type="NodePort", externalTrafficPolicy="Local", healthCheckNodePort=34567)], 1),
    ("cannot set externalTrafficPolicy or healthCheckNodePort fields on clusterIP service",
     [spec(type="ClusterIP", externalTrafficPolicy="Local", healthCheckNodePort=34567)], 2),
    ("cannot set externalTrafficPolicy field on ExternalName service", [spec(type="ExternalName", externalName="foo.bar.com", externalTrafficPolicy="Local")], 1),
    ("externalTrafficPolicy is required on NodePort service", [spec(type="NodePort")], 1),
    ("externalTrafficPolicy is required on LoadBalancer service", [spec(type="LoadBalancer", allocateLoadBalancerNodePorts=True)], 1),
    ("externalTrafficPolicy is required on ClusterIP service with externalIPs", [spec(type="ClusterIP", externalIPs=["1.2.3,4"])], 1),
]


@pytest.mark.parametrize(("tweaks", "num_errs"), [c[1:] for c in ETP_CASES], ids=[c[0] for c in ETP_CASES])
def test_validate_service_external_traffic_policy_1_36(tweaks: list[Tweak], num_errs: int) -> None:
    """TestValidateServiceExternalTrafficPolicy @release-4.23: the errors of validateServiceExternalTrafficPolicy
    (its two fields) within ValidateServiceCreate."""
    svc = copy.deepcopy(make_valid_service())
    for tweak in tweaks:
        tweak(svc)
    errs = [e for e in validate_service_create(svc, R36) if e.field in ("spec.externalTrafficPolicy", "spec.healthCheckNodePort")]
    assert len(errs) == num_errs, [str(e) for e in errs]
