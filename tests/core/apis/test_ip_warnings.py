"""Warnings for non-standard IP and CIDR values: apimachinery ``pkg/util/validation/ip.go`` ``GetWarningsForIP`` /
``GetWarningsForCIDR`` (tables ``TestGetWarningsForIP`` / ``TestGetWarningsForCIDR`` of ``ip_test.go`` @release-4.23
= 1.36, where non-standard values "are invalid"; 1.33 … 1.35 say they "will be considered invalid in a future
Kubernetes release"), 1.30 … 1.32's Service-only ``getWarningsForIP`` / ``getWarningsForCIDR``
(``pkg/api/service/warnings.go`` @release-4.17), and who calls them on create: the Service strategy (every
release), the NetworkPolicy strategy (``networkPolicyWarnings``, 1.33+), pod templates (1.33+)."""

from __future__ import annotations

from typing import Any

import pytest

from crdtool.core.apis.core.warnings import get_warnings_for_cidr, get_warnings_for_ip
from crdtool.core.releases import resolve_release
from tests.core.apis._create import create

R35, R36 = resolve_release("1.35"), resolve_release("1.36")
CIP, LBR = "spec.clusterIPs[0]", "spec.loadBalancerSourceRanges[0]"


@pytest.mark.parametrize(("path", "value", "want"), [
    (CIP, "192.12.2.2", []),
    (CIP, "2001:db8::2", []),
    (CIP, "192.012.2.2", [f'{CIP}: non-standard IP address "192.012.2.2" is invalid: use "192.12.2.2"']),
    (CIP, "::ffff:192.12.2.2", [f'{CIP}: non-standard IP address "::ffff:192.12.2.2" is invalid: use "192.12.2.2"']),
    ("spec.loadBalancerIP", "2001:db8:0:0::2", ['spec.loadBalancerIP: IPv6 address "2001:db8:0:0::2" should be in RFC 5952 canonical format ("2001:db8::2")']),
])
def test_get_warnings_for_ip_1_36(path: str, value: str, want: list[str]) -> None:
    """TestGetWarningsForIP @release-4.23."""
    assert get_warnings_for_ip(path, value, R36) == want


@pytest.mark.parametrize(("value", "want"), [
    ("192.12.2.0/24", []),
    ("2001:db8::/64", []),
    ("192.012.2.0/24", [f'{LBR}: non-standard CIDR value "192.012.2.0/24" is invalid: use "192.12.2.0/24"']),
    ("192.12.2.0/024", [f'{LBR}: non-standard CIDR value "192.12.2.0/024" is invalid: use "192.12.2.0/24"']),
    ("::ffff:192.12.2.0/120", [f'{LBR}: non-standard CIDR value "::ffff:192.12.2.0/120" is invalid: use "192.12.2.0/24"']),
    ("192.12.2.8/24", [f'{LBR}: CIDR value "192.12.2.8/24" is ambiguous in this context (should be "192.12.2.0/24" or "192.12.2.8/32"?)']),
    ("192.012.2.8/24", [f'{LBR}: CIDR value "192.012.2.8/24" is ambiguous in this context (should be "192.12.2.0/24" or "192.12.2.8/32"?)',
                        f'{LBR}: non-standard CIDR value "192.012.2.8/24" is invalid: use "192.12.2.0/24"']),
    ("2001:db8:0:0::/64", [f'{LBR}: IPv6 CIDR value "2001:db8:0:0::/64" should be in RFC 5952 canonical format ("2001:db8::/64")']),
])
def test_get_warnings_for_cidr_1_36(value: str, want: list[str]) -> None:
    """TestGetWarningsForCIDR @release-4.23."""
    assert get_warnings_for_cidr(LBR, value, R36) == want


def test_before_1_36_non_standard_values_will_be_invalid() -> None:
    """release-4.20 … 4.22 ``ip.go``: the same checks, "will be considered invalid in a future Kubernetes release"."""
    assert get_warnings_for_ip(CIP, "192.012.2.2", R35) == [
        f'{CIP}: non-standard IP address "192.012.2.2" will be considered invalid in a future Kubernetes release: use "192.12.2.2"']
    assert get_warnings_for_cidr(LBR, "192.12.2.0/024", R35) == [
        f'{LBR}: non-standard CIDR value "192.12.2.0/024" will be considered invalid in a future Kubernetes release: use "192.12.2.0/24"']


def service(**spec: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"selector": {"a": "b"}, "ports": [{"port": 80}]}
    body.update(spec)
    return {"apiVersion": "v1", "kind": "Service", "metadata": {"name": "s", "namespace": "d"}, "spec": body}


def test_service_warnings_1_32() -> None:
    """``getWarningsForIP`` / ``getWarningsForCIDR`` of pkg/api/service/warnings.go @release-4.17 … 4.19: Go's
    ``netip`` parse errors, RFC 5952; an ambiguous CIDR is no warning yet."""
    obj = service(type="LoadBalancer", externalIPs=["001.2.3.4", "2001:DB8::1"], loadBalancerSourceRanges=["10.0.0.1/8", "001.2.3.0/24", "2001:DB8::/64"])
    errs, warnings, _ = create(obj, "1.32")
    assert errs == [] and warnings == [
        'spec.externalIPs[0]: IP address was accepted, but will be invalid in a future Kubernetes release: ParseAddr("001.2.3.4"): IPv4 field has octet with leading zero',
        'spec.externalIPs[1]: IPv6 address "2001:DB8::1" is not in RFC 5952 canonical format ("2001:db8::1"), which may cause controller apply-loops',
        'spec.loadBalancerSourceRanges[1]: IP prefix was accepted, but will be invalid in a future Kubernetes release: netip.ParsePrefix("001.2.3.0/24"): ParseAddr("001.2.3.0"): IPv4 field has octet with leading zero',
        'spec.loadBalancerSourceRanges[2]: IPv6 prefix "2001:DB8::/64" is not in RFC 5952 canonical format ("2001:db8::/64"), which may cause controller apply-loops',
    ]


@pytest.mark.parametrize(("release", "expected"), [
    ("1.33", []),  # GetWarningsForService has no headless warnings before release-4.21
    ("1.34", ["spec.externalIPs is ignored for headless services"]),
])
def test_headless_service_warnings_by_release(release: str, expected: list[str]) -> None:
    assert create(service(clusterIP="None", externalIPs=["1.2.3.4"]), release)[1] == expected


def test_network_policy_and_pod_template_warnings_from_1_33() -> None:
    np = {"apiVersion": "networking.k8s.io/v1", "kind": "NetworkPolicy", "metadata": {"name": "n", "namespace": "d"},
          "spec": {"podSelector": {}, "ingress": [{"from": [{"ipBlock": {"cidr": "10.0.0.0/8", "except": ["10.1.0.1/16"]}}]}],
                   "egress": [{"to": [{"ipBlock": {"cidr": "2001:DB8::/64"}}]}]}}
    assert create(np, "1.32")[1] == []
    assert create(np, "1.35")[1] == [
        'spec.ingress[0].from[0].ipBlock.except[0]: CIDR value "10.1.0.1/16" is ambiguous in this context (should be "10.1.0.0/16" or "10.1.0.1/32"?)',
        'spec.egress[0].to[0].ipBlock.cidr: IPv6 CIDR value "2001:DB8::/64" should be in RFC 5952 canonical format ("2001:db8::/64")',
    ]
    dep = {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "d", "namespace": "ns"},
           "spec": {"selector": {"matchLabels": {"a": "b"}}, "template": {"metadata": {"labels": {"a": "b"}}, "spec": {
               "containers": [{"name": "c", "image": "i"}], "hostAliases": [{"ip": "2001:DB8::1", "hostnames": ["h"]}]}}}}
    assert create(dep, "1.32")[1] == []
    assert create(dep, "1.33")[1] == ['spec.template.spec.hostAliases[0].ip: IPv6 address "2001:DB8::1" should be in RFC 5952 canonical format ("2001:db8::1")']
