"""Kubernetes releases a test case runs under: ``--kubernetes-version`` and ``kubernetesVersions``.

The spellings are ``--kubernetes-version``'s everywhere else (:func:`crdtool.core.releases.parse_release_matrix`):
``"1.33"``, ``"1.30-1.37"``, ``"1.31,1.33-1.35"``, ``"supported"`` (the releases upstream still patches) and
``"all"``; here they are release names (``"1.33"``), the form suites and reports use.
"""

from __future__ import annotations

from crdtool.core.releases import DEFAULT_RELEASE as _DEFAULT
from crdtool.core.releases import RELEASES, parse_release_matrix

__all__ = ["DEFAULT_RELEASE", "ReleaseError", "SUPPORTED_RELEASES", "parse_kubernetes_versions"]

#: The releases crdtool models (apiextensions-apiserver v0.30 ... v0.37), oldest first.
SUPPORTED_RELEASES: tuple[str, ...] = tuple(r.name for r in RELEASES.values())
#: The release judged when none is named.
DEFAULT_RELEASE = _DEFAULT.name


class ReleaseError(ValueError):
    """A release spelling that names no supported release."""


def parse_kubernetes_versions(spec: str) -> tuple[str, ...]:
    """``"1.33"`` -> ``("1.33",)``; ``"1.30-1.32"`` -> ``("1.30", "1.31", "1.32")``; ``"1.31,1.33"``;
    ``"supported"`` -> ``("1.35", "1.36", "1.37")``; ``"all"`` -> every release crdtool knows. Oldest first,
    without repeats; raises :class:`ReleaseError` (naming the supported range) for anything else."""
    try:
        return tuple(r.name for r in parse_release_matrix(spec))
    except ValueError as exc:
        raise ReleaseError(str(exc)) from None
