"""What each release's kube-apiserver serves by default, and what it says about the rest.

A built-in group-version is served by a default kube-apiserver when it is stable (``v1``, ``v2``) or one of
the legacy beta resources still enabled by default, and the release is before the one its types are removed
in. Alpha versions and beta versions introduced since 1.24 are off unless ``--runtime-config`` enables them.

Upstream:

* ``kubernetes/pkg/controlplane/instance.go`` ``DefaultAPIResourceConfigSource`` (stable versions enabled,
  beta and alpha disabled, ``legacyBetaEnabledByDefaultResources``: flowcontrol ``v1beta3`` ``flowschemas``
  and ``prioritylevelconfigurations`` through 1.31 — read in openshift/microshift release-4.17 … 4.23, the
  kubernetes trees of 1.30 … 1.36; 1.37 as 1.36);
* ``k8s.io/apiserver/pkg/server/deleted_kinds.go`` (``ResourceExpirationEvaluator``: a version whose types are
  all removed at the current release is not installed);
* ``k8s.io/apiserver/pkg/endpoints/deprecation/deprecation.go`` ``WarningMessage`` (the ``Warning:`` header
  of a deprecated version, added by ``installer.go`` for every verb);
* k8s.io/api's ``zz_generated.prerelease-lifecycle.go`` and ``core/v1/lifecycle.go`` per tag
  (:mod:`crdtool.core.builtin.lifecycle`).
"""

from __future__ import annotations

import re

from crdtool.core.builtin.lifecycle import GVK, LIFECYCLE, Version
from crdtool.core.errors import go_quote

__all__ = [
    "LEGACY_BETA_ENABLED", "REMOVED_BEFORE_LIFECYCLE", "Lifecycle", "deprecation_warning", "enabled_by_default",
    "is_removed", "lifecycle", "not_served_message",
]

_STABLE = re.compile(r"v\d+")

#: ``legacyBetaEnabledByDefaultResources`` of ``pkg/controlplane/instance.go`` by release minor: (group, version,
#: resource). kubernetes v1.30 (microshift release-4.17) and v1.31 (release-4.18) list the two flowcontrol
#: v1beta3 resources ("deprecate in 1.29, remove in 1.32"); v1.32 (release-4.19) and later list none.
LEGACY_BETA_ENABLED: dict[int, frozenset[tuple[str, str, str]]] = {
    30: frozenset({("flowcontrol.apiserver.k8s.io", "v1beta3", "flowschemas"),
                   ("flowcontrol.apiserver.k8s.io", "v1beta3", "prioritylevelconfigurations")}),
    31: frozenset({("flowcontrol.apiserver.k8s.io", "v1beta3", "flowschemas"),
                   ("flowcontrol.apiserver.k8s.io", "v1beta3", "prioritylevelconfigurations")}),
}

#: Removed kinds whose types are no longer in k8s.io/api (or live in another repository), with the release of
#: removal and the replacement, from Kubernetes' deprecated API migration guide
#: (kubernetes/website ``content/en/docs/reference/using-api/deprecation-guide.md``).
REMOVED_BEFORE_LIFECYCLE: dict[GVK, tuple[Version, GVK | None]] = {
    ("policy", "v1beta1", "PodSecurityPolicy"): ((1, 25), None),
    ("extensions", "v1beta1", "PodSecurityPolicy"): ((1, 16), ("policy", "v1beta1", "PodSecurityPolicy")),
    ("apiextensions.k8s.io", "v1beta1", "CustomResourceDefinition"):
        ((1, 22), ("apiextensions.k8s.io", "v1", "CustomResourceDefinition")),
    ("apiregistration.k8s.io", "v1beta1", "APIService"): ((1, 22), ("apiregistration.k8s.io", "v1", "APIService")),
}


class Lifecycle(tuple):  # type: ignore[type-arg]
    """``(introduced, deprecated, removed, replacement)`` of a kind at a release; each may be None."""

    __slots__ = ()

    @property
    def introduced(self) -> Version | None:
        v: Version | None = self[0]
        return v

    @property
    def deprecated(self) -> Version | None:
        v: Version | None = self[1]
        return v

    @property
    def removed(self) -> Version | None:
        v: Version | None = self[2]
        return v

    @property
    def replacement(self) -> GVK | None:
        v: GVK | None = self[3]
        return v


def lifecycle(minor: int, group: str, version: str, kind: str) -> Lifecycle:
    """The prerelease-lifecycle data of ``group/version kind`` at Kubernetes 1.``minor`` (all None if none)."""
    steps = LIFECYCLE.get((group, version, kind))
    found: tuple[Version | None, Version | None, Version | None, GVK | None] = (None, None, None, None)
    if steps:
        # the step in force at ``minor``; before the first step (no data at that tag yet), the first
        step = steps[0]
        for candidate in steps:
            if candidate[0] <= minor:
                step = candidate
        found = step[1:]
    else:
        gone = REMOVED_BEFORE_LIFECYCLE.get((group, version, kind))
        if gone is not None:
            found = (None, None, gone[0], gone[1])
    return Lifecycle(found)


def _at_or_before(v: Version | None, minor: int) -> bool:
    return v is not None and v != (0, 0) and (v[0] < 1 or (v[0] == 1 and v[1] <= minor))


def is_removed(minor: int, group: str, version: str, kind: str) -> bool:
    """Whether the kind's types are removed at 1.``minor`` (``ResourceExpirationEvaluator``: not installed)."""
    return _at_or_before(lifecycle(minor, group, version, kind).removed, minor)


def enabled_by_default(minor: int, group: str, version: str, resource: str) -> bool:
    """``DefaultAPIResourceConfigSource``: a stable version, or a legacy beta resource still on."""
    if _STABLE.fullmatch(version):
        return True
    return (group, version, resource) in LEGACY_BETA_ENABLED.get(minor, frozenset())


def deprecation_warning(minor: int, group: str, version: str, kind: str) -> str:
    """The apiserver's ``Warning:`` for a served deprecated kind at 1.``minor``, or ``""``.

    ``"flowcontrol.apiserver.k8s.io/v1beta3 FlowSchema is deprecated in v1.29+, unavailable in v1.32+; use
    flowcontrol.apiserver.k8s.io/v1 FlowSchema"`` (``deprecation.WarningMessage``, given ``IsDeprecated``).
    """
    life = lifecycle(minor, group, version, kind)
    if not _at_or_before(life.deprecated, minor):
        return ""
    assert life.deprecated is not None
    gv = f"{group}/{version}" if group else version
    text = f"{gv} {kind} is deprecated in v{life.deprecated[0]}.{life.deprecated[1]}+"
    if life.removed is not None and life.removed != (0, 0):
        text += f", unavailable in v{life.removed[0]}.{life.removed[1]}+"
    if life.replacement is not None and any(life.replacement):
        rg, rv, rk = life.replacement
        text += f"; use {rg + '/' + rv if rg else rv} {rk}"
    return text


def not_served_message(kind: str, api_version: str) -> str:
    """What kubectl prints for a kind the server does not serve (its RESTMapper's ``NoKindMatchError``).

    ``no matches for kind "CronJob" in version "batch/v1beta1"`` (``k8s.io/apimachinery/pkg/api/meta``
    ``NoKindMatchError.Error``); kubectl adds ``resource mapping not found for name: ...`` and
    ``ensure CRDs are installed first`` around it.
    """
    return f"no matches for kind {go_quote(kind)} in version {go_quote(api_version)}"
