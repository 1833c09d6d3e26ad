"""Kubernetes version priority (the order kubectl and discovery use).

Mirrors ``CompareKubeAwareVersionStrings`` and ``parseKubeVersion`` in
``staging/src/k8s.io/apimachinery/pkg/version/helpers.go``.

Kube-like versions (``v<major>[alpha|beta<minor>]``) come first, GA before
beta before alpha, larger numbers first; every other string sorts after them,
alphabetically (``foo1`` before ``foo10``).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Any, Iterable

# Go's RE2 ``\d`` is ASCII-only; Python's is not, hence [0-9].
_KUBE_VERSION = re.compile(r"\Av([0-9]+)(?:(alpha|beta)([0-9]+))?\Z")

_ALPHA, _BETA, _GA = 0, 1, 2
_INT64_MAX = 2**63 - 1


def _atoi(digits: str) -> int | None:
    """Go's ``strconv.Atoi`` on a digit string: None when it overflows int64."""
    value = int(digits)
    return value if value <= _INT64_MAX else None


def parse_kube_version(v: str) -> tuple[int, int, int] | None:
    """Upstream ``parseKubeVersion``: ``(major, type, minor)`` or None if not kube-like.

    ``type`` is 0 for alpha, 1 for beta, 2 for GA (bigger is higher priority).
    A number beyond int64 makes the string not kube-like, as ``strconv.Atoi`` fails.
    """
    m = _KUBE_VERSION.match(v)
    if m is None:
        return None
    major = _atoi(m.group(1))
    if major is None:
        return None
    kind = {"alpha": _ALPHA, "beta": _BETA, None: _GA}[m.group(2)]
    minor = 0
    if kind != _GA:
        parsed = _atoi(m.group(3))
        if parsed is None:
            return None
        minor = parsed
    return major, kind, minor


def compare_versions(a: str, b: str) -> int:
    """Upstream ``CompareKubeAwareVersionStrings(a, b)``.

    Returns a positive number when ``a`` has higher priority than ``b``,
    negative when lower, 0 when equal. Non-kube-like strings compare with
    ``strings.Compare(b, a)`` (byte order, reversed), so that sorting by
    descending priority lists them alphabetically.
    """
    if a == b:
        return 0
    pa = parse_kube_version(a)
    pb = parse_kube_version(b)
    if pa is None and pb is None:
        # strings.Compare is bytewise on UTF-8, which orders like code points.
        return (b > a) - (b < a)
    if pa is None:
        return -1
    if pb is None:
        return 1
    if pa[1] != pb[1]:
        return pa[1] - pb[1]
    if pa[0] != pb[0]:
        return pa[0] - pb[0]
    return pa[2] - pb[2]


def sort_versions(versions: Iterable[str]) -> list[str]:
    """Versions highest priority first; equal strings keep their input order.

    Mirrors the sort discovery applies to a group's versions
    (apiextensions-apiserver ``sortGroupDiscoveryByKubeAwareVersion``:
    ``CompareKubeAwareVersionStrings(a, b) > 0`` means ``a`` comes first).
    """
    return sorted(versions, key=functools.cmp_to_key(compare_versions), reverse=True)


@dataclass(frozen=True)
class CrdVersionRow:
    """One row of ``sort-versions --crd``: a ``spec.versions`` entry in priority order."""

    name: str
    served: bool
    storage: bool
    deprecated: bool
    preferred: bool


def crd_version_rows(crd: dict[str, Any]) -> list[CrdVersionRow]:
    """A CRD's versions in priority order, marking the preferred (default) version.

    Input: a CRD dict (v1 or v1beta1; v1beta1's ``spec.version`` counts as a
    served storage version when ``spec.versions`` is empty, as its defaults do).
    The preferred version is the highest-priority *served* version: the one
    discovery advertises as ``preferredVersion`` and kubectl uses by default
    (apiextensions-apiserver ``pkg/apiserver/customresource_discovery_controller.go``).
    """
    spec = crd.get("spec")
    spec = spec if isinstance(spec, dict) else {}
    entries = [v for v in (spec.get("versions") or []) if isinstance(v, dict) and isinstance(v.get("name"), str)]
    if not entries and isinstance(spec.get("version"), str):
        entries = [{"name": spec["version"], "served": True, "storage": True}]
    by_name: dict[str, dict[str, Any]] = {}
    for v in entries:
        by_name.setdefault(v["name"], v)
    ordered = sort_versions(by_name)
    preferred = next((n for n in ordered if by_name[n].get("served") is True), None)
    return [
        CrdVersionRow(
            name=n,
            served=by_name[n].get("served") is True,
            storage=by_name[n].get("storage") is True,
            deprecated=by_name[n].get("deprecated") is True,
            preferred=n == preferred,
        )
        for n in ordered
    ]
