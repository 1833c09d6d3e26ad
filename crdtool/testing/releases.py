"""Kubernetes releases a test case runs under: ``--kubernetes-version`` and ``kubernetesVersions``.

A stand-in for ``crdtool/core/releases.py`` (issue #19, being built on main), which will replace it: the same
spellings (``"1.33"``, ``"1.30-1.37"``, ``"1.31,1.33"``, ``"supported"``) give the same tuples of release names.
"""

from __future__ import annotations

__all__ = ["DEFAULT_RELEASE", "ReleaseError", "SUPPORTED_RELEASES", "parse_kubernetes_versions"]

#: The releases crdtool models (apiextensions-apiserver v0.30 ... v0.37), oldest first.
SUPPORTED_RELEASES: tuple[str, ...] = tuple(f"1.{minor}" for minor in range(30, 38))
#: The release judged when none is named.
DEFAULT_RELEASE = "1.37"


class ReleaseError(ValueError):
    """A release spelling that names no supported release."""


def _minor(name: str) -> int:
    text = name.strip().lower().removeprefix("v")
    parts = text.split(".")
    if len(parts) not in (2, 3) or parts[0] != "1" or not all(p.isdigit() for p in parts):
        raise ReleaseError(f"{name.strip()!r} is not a Kubernetes release such as 1.33")
    release = f"1.{int(parts[1])}"
    if release not in SUPPORTED_RELEASES:
        raise ReleaseError(f"Kubernetes {release} is not supported (supported: {SUPPORTED_RELEASES[0]}-{SUPPORTED_RELEASES[-1]})")
    return int(parts[1])


def parse_kubernetes_versions(spec: str) -> tuple[str, ...]:
    """``"1.33"`` -> ``("1.33",)``; ``"1.30-1.32"`` -> ``("1.30", "1.31", "1.32")``; ``"1.31,1.33"``;
    ``"supported"`` -> every supported release. Order kept, duplicates dropped; raises :class:`ReleaseError`."""
    out: list[str] = []
    for part in spec.split(","):
        part = part.strip()
        if not part:
            continue
        if part.lower() == "supported":
            out.extend(SUPPORTED_RELEASES)
        elif "-" in part:
            low, high = part.split("-", 1)
            lo, hi = _minor(low), _minor(high)
            if lo > hi:
                raise ReleaseError(f"{part!r}: the range runs backwards")
            out.extend(f"1.{m}" for m in range(lo, hi + 1))
        else:
            out.append(f"1.{_minor(part)}")
    if not out:
        raise ReleaseError("no Kubernetes release given")
    return tuple(dict.fromkeys(out))
