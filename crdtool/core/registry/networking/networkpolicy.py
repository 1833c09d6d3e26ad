"""The NetworkPolicy create strategy: ``pkg/registry/networking/networkpolicy/strategy.go`` (1.30 … 1.36)."""

from __future__ import annotations

from typing import Any

from crdtool.core.apis._util import lst, m, s
from crdtool.core.apis.core.warnings import IP_WARNINGS_SINCE, get_warnings_for_cidr
from crdtool.core.apis.networking.validation import validate_network_policy
from crdtool.core.errors import FieldError
from crdtool.core.registry._common import rel, set_generation


def prepare_for_create(obj: dict[str, Any], release: Any) -> None:
    """``PrepareForCreate``: generation 1."""
    set_generation(obj)


def validate(obj: dict[str, Any], release: Any, version: str = "") -> list[FieldError]:
    """``Validate``: ``ValidateNetworkPolicy``."""
    return validate_network_policy(obj, rel(release))


def warnings_on_create(obj: dict[str, Any], release: Any, version: str = "") -> list[str]:
    """``WarningsOnCreate``: ``networkPolicyWarnings`` (1.33+, release-4.20; none before): non-standard CIDRs of
    the ingress then the egress ``ipBlock``s."""
    r = rel(release)
    if r.minor < IP_WARNINGS_SINCE:
        return []
    spec = m(obj.get("spec"))
    out: list[str] = []
    for rules, peers in (("ingress", "from"), ("egress", "to")):
        for index, rule in enumerate(lst(spec.get(rules))):
            for j, peer in enumerate(lst(m(rule).get(peers))):
                block = m(peer).get("ipBlock")
                if not isinstance(block, dict):
                    continue
                path = f"spec.{rules}[{index}].{peers}[{j}].ipBlock"
                out.extend(get_warnings_for_cidr(f"{path}.cidr", s(block.get("cidr")), r))
                for k, ex in enumerate(lst(block.get("except"))):
                    out.extend(get_warnings_for_cidr(f"{path}.except[{k}]", s(ex), r))
    return out
