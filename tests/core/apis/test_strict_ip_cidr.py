"""``StrictIPCIDRValidation`` by release: Alpha off 1.33 … 1.35, Beta **on** in 1.36 (kubernetes
``pkg/features/kube_features.go`` at openshift/microshift release-4.20 … 4.23), so from 1.36 the legacy IP and CIDR
fields refuse leading zeros, IPv4-mapped IPv6 addresses and CIDRs with bits set beyond the prefix length
(apimachinery ``pkg/util/validation/ip.go`` ``parseIP`` / ``parseCIDR``, through ``IsValidIPForLegacyField`` /
``IsValidCIDRForLegacyField``). Cases from upstream's ``validation_test.go`` @release-4.23: the "legacy …
with strict validation" rows of ``TestValidateServiceCreate``, ``TestValidatePodDNSConfig``, ``TestValidatePodSpec``
and ``TestValidateNetworkPolicy`` ("invalid cidr format" ``001.002.003.000/0``), run at 1.35 (gate off, the
"with legacy validation" rows: valid) and 1.36 (gate on)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.core.apis._create import create


def service(annotations: dict[str, str] | None = None, **spec: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"selector": {"key": "val"}, "ports": [{"name": "p", "port": 8675, "targetPort": 8675}]}
    body.update(spec)
    return {"apiVersion": "v1", "kind": "Service", "metadata": {"name": "valid", "namespace": "valid", "annotations": annotations or {}}, "spec": body}


def network_policy(cidr: str, except_: list[str] | None = None) -> dict[str, Any]:
    block: dict[str, Any] = {"cidr": cidr}
    if except_ is not None:
        block["except"] = except_
    return {"apiVersion": "networking.k8s.io/v1", "kind": "NetworkPolicy", "metadata": {"name": "np", "namespace": "default"},
            "spec": {"podSelector": {}, "ingress": [{"from": [{"ipBlock": block}]}]}}


def deployment(**spec: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"containers": [{"name": "c", "image": "i"}]}
    body.update(spec)
    return {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "d", "namespace": "ns"},
            "spec": {"selector": {"matchLabels": {"a": "b"}}, "template": {"metadata": {"labels": {"a": "b"}}, "spec": body}}}


LB = {"type": "LoadBalancer", "externalTrafficPolicy": "Cluster", "allocateLoadBalancerNodePorts": True}
IPB = "spec.ingress[0].from[0].ipBlock"

CASES: list[tuple[str, dict[str, Any], list[str]]] = [
    ("invalid legacy cluster ip with strict validation", service(clusterIP="001.002.003.004", clusterIPs=["001.002.003.004"]),
     ['spec.clusterIPs[0]: Invalid value: "001.002.003.004": must not have leading 0s']),
    ("invalid legacy externalIPs with strict validation", service(externalIPs=["001.002.003.004"]),
     ['spec.externalIPs[0]: Invalid value: "001.002.003.004": must not have leading 0s']),
    ("invalid legacy LoadBalancer source range with strict validation", service(**LB, loadBalancerSourceRanges=["001.002.003.000/24"]),
     ['spec.LoadBalancerSourceRanges[0]: Invalid value: "001.002.003.000/24": must not have leading 0s in IP or prefix length']),
    ("invalid legacy LoadBalancer source range annotation with strict validation",
     service({"service.beta.kubernetes.io/load-balancer-source-ranges": "001.002.003.000/24"}, **LB),
     ['metadata.annotations[service.beta.kubernetes.io/load-balancer-source-ranges]: Invalid value: "001.002.003.000/24": must not have leading 0s in IP or prefix length']),
    ("invalid cidr format (legacy)", network_policy("001.002.003.000/0"),
     [f'{IPB}.cidr: Invalid value: "001.002.003.000/0": must not have leading 0s in IP or prefix length']),
    # parseCIDR's other two strict checks, in its order (one error per value)
    ("bits set beyond the prefix length", network_policy("10.0.0.1/8", ["10.1.0.0/016"]),
     [f'{IPB}.cidr: Invalid value: "10.0.0.1/8": must not have bits set beyond the prefix length',
      f'{IPB}.except[0]: Invalid value: "10.1.0.0/016": must not have leading 0s in IP or prefix length']),
    ("IPv4-mapped IPv6 CIDR", network_policy("::ffff:10.0.0.0/104"),
     [f'{IPB}.cidr: Invalid value: "::ffff:10.0.0.0/104": must not have an IPv4-mapped IPv6 address']),
    ("invalid legacy IP nameserver with strict IP validation", deployment(dnsPolicy="None", dnsConfig={"nameservers": ["001.002.003.004"]}),
     ['spec.template.spec.dnsConfig.nameservers[0]: Invalid value: "001.002.003.004": must not have leading 0s']),
    ("with hostAliases with invalid legacy IP with strict IP validation", deployment(hostAliases=[{"ip": "001.002.003.004", "hostnames": ["host1", "host2"]}]),
     ['spec.template.spec.hostAliases[0].ip: Invalid value: "001.002.003.004": must not have leading 0s']),
    ("IPv4-mapped IPv6 host alias", deployment(hostAliases=[{"ip": "::ffff:1.2.3.4", "hostnames": ["h"]}]),
     ['spec.template.spec.hostAliases[0].ip: Invalid value: "::ffff:1.2.3.4": must not be an IPv4-mapped IPv6 address']),
]


@pytest.mark.parametrize(("obj", "strict"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_strict_from_1_36(obj: dict[str, Any], strict: list[str]) -> None:
    assert [str(e) for e in create(obj, "1.35")[0]] == []
    assert [str(e) for e in create(obj, "1.36")[0]] == strict


def test_canonical_values_stay_valid_in_1_36() -> None:
    assert create(network_policy("10.0.0.0/8", ["10.1.0.0/16"]), "1.36")[0] == []
    assert create(network_policy("2001:db8::/64"), "1.36")[0] == []
    assert create(service(**LB, loadBalancerSourceRanges=[" 10.0.0.0/8 "]), "1.36")[0] == []
