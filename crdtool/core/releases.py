"""The Kubernetes releases crdtool judges as: 1.30 … 1.37, each with what its apiserver pins and enables.

A :class:`Release` is the data one release's kube-apiserver brings to CRD and custom-resource handling:
the tags of ``k8s.io/apiextensions-apiserver`` and ``k8s.io/apiserver`` read for it (the newest patch of the
release, where its behaviour is settled), the cel-go it pins, the compatibility version its CEL environment
uses for new expressions, and its feature gates at their defaults. Behaviour that differs between releases
is looked up here, or in tables keyed by release next to the rule they change (``environment/base.go``'s
table in :mod:`crdtool.core.kubecel.environment`, for instance) — never in a second copy of a function.

1.37 is the newest release (``v0.37.0-beta.0`` of the staging repositories, the newest tag upstream's
mirrors hold; ``master`` of 2026-07-22 has no difference in the code crdtool ports) and the default.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = [
    "DEFAULT_RELEASE", "FEATURE_GATES", "RELEASES", "Release", "SUPPORTED_BY_UPSTREAM", "parse_release_matrix",
    "resolve_release",
]

#: Feature gates of ``k8s.io/apiextensions-apiserver`` (``pkg/features/kube_features.go``) and
#: ``k8s.io/apiserver`` that change CRD or custom-resource handling: ``(first release, default)`` steps.
#: The default at release 1.N is the last step at or before N.
FEATURE_GATES: dict[str, tuple[tuple[int, bool], ...]] = {
    # apiextensions kube_features.go@v0.30.0: Beta, default true; @v0.33.0: GA, locked
    "CRDValidationRatcheting": ((28, False), (30, True)),
    # @v0.30.0 Alpha false; @v0.31.0 Beta true; @v0.32.0 GA locked
    "CustomResourceFieldSelectors": ((30, False), (31, True)),
    # @v0.35.0 Beta false; @v0.36.0 Beta true
    "CRDObservedGenerationTracking": ((35, False), (36, True)),
    # k8s.io/apiserver kube_features.go@v0.31.0 Alpha false; @v0.32.0 Beta true; @v0.34.0 GA; @v0.37.0-beta.0 removed
    "AuthorizeWithSelectors": ((31, False), (32, True)),
}


@dataclass(frozen=True)
class Release:
    """One Kubernetes release's apiserver, as far as CRDs and custom resources are concerned.

    Attributes:
        minor: the minor version (``37`` for Kubernetes 1.37).
        tag: the tag of ``k8s.io/apiextensions-apiserver`` and ``k8s.io/apiserver`` whose code is mirrored
            (the newest patch of the release).
        cel_go: the ``github.com/google/cel-go`` version ``k8s.io/apiserver``'s ``go.mod`` pins at ``tag``.
    """

    minor: int
    tag: str
    cel_go: str

    @property
    def name(self) -> str:
        """``"1.37"``."""
        return f"1.{self.minor}"

    @property
    def compatibility_minor(self) -> int:
        """The minor of ``environment.DefaultCompatibilityVersion()``: the CEL environment of new expressions.

        1.30 hard-codes 1.29 (``pkg/cel/environment/base.go@v0.30.0``); from 1.31 on it is the effective
        version's ``MinCompatibilityVersion()``, the binary version minus one minor
        (``component-base`` ``NewEffectiveVersion``).
        """
        return self.minor - 1

    def at_least(self, minor: int) -> bool:
        """Whether this is Kubernetes 1.``minor`` or newer."""
        return self.minor >= minor

    def gate(self, name: str) -> bool:
        """The default of feature gate ``name`` in this release (:data:`FEATURE_GATES`); KeyError if unknown."""
        return self.gate_default(FEATURE_GATES[name])

    def gate_default(self, steps: tuple[tuple[int, bool], ...]) -> bool:
        """A gate's default in this release from its ``(first minor, default)`` steps (the last step at or before
        this minor; off before the first), as :data:`FEATURE_GATES` and other gate tables write them."""
        enabled = False
        for since, default in steps:
            if self.minor >= since:
                enabled = default
        return enabled

    def __str__(self) -> str:
        return self.name


#: Every release crdtool knows, by minor. Tags are the newest patch of each release in upstream's
#: repositories (``k8s.io/apiextensions-apiserver``, ``k8s.io/apiserver``), cel-go as their ``go.mod`` pins it.
RELEASES: dict[int, Release] = {
    30: Release(30, "v0.30.14", "v0.17.8"),
    31: Release(31, "v0.31.14", "v0.20.1"),
    32: Release(32, "v0.32.13", "v0.22.0"),
    33: Release(33, "v0.33.13", "v0.23.2"),
    34: Release(34, "v0.34.10", "v0.26.0"),
    35: Release(35, "v0.35.7", "v0.26.0"),
    36: Release(36, "v0.36.3", "v0.26.0"),
    37: Release(37, "v0.37.0-beta.0", "v0.27.0"),
}

#: The newest release, crdtool's default.
DEFAULT_RELEASE = RELEASES[37]

#: The releases upstream still patches (the three newest minors, as of 1.37).
SUPPORTED_BY_UPSTREAM: tuple[int, ...] = (35, 36, 37)

# A version as Kubernetes prints one (k8s.io/apimachinery pkg/util/version ParseSemantic, SemVer 2.0.0 §9-10): a
# pre-release or build suffix follows a patch number ("v1.37.0-beta.0", "v1.33.2-eks-1a2b3c", "1.33.2+k3s1"), and
# its identifiers are non-empty. A pre-release must start with a letter (alpha, beta, rc, a vendor's name), so that
# "1.34-" and "1.34-1.35-1.30" are not taken for a version with a pre-release suffix: they are malformed ranges.
_IDENT = r"[0-9A-Za-z-]+"
_VERSION_RE = re.compile(
    rf"v?1\.(\d+)(?:\.\d+(?:-[A-Za-z][0-9A-Za-z-]*(?:\.{_IDENT})*)?(?:\+{_IDENT}(?:\.{_IDENT})*)?)?"
)
_RANGE_RE = re.compile(r"(v?1\.\d+(?:\.\d+)?)\s*-\s*(v?1\.\d+(?:\.\d+)?)")

#: What a ``--kubernetes-version`` value may be, for the messages.
ACCEPTED_SPELLINGS = "a version (1.33), a range (1.30-1.37), a comma list of either (1.31,1.33-1.35), supported or all"


def _unsupported(text: str) -> ValueError:
    first, last = min(RELEASES), max(RELEASES)
    return ValueError(f"Kubernetes version {text!r} is not supported: crdtool knows 1.{first} … 1.{last}")


def _malformed(part: str, text: str) -> ValueError:
    first, last = min(RELEASES), max(RELEASES)
    where = "" if part == text.strip() else f" in {text!r}"
    return ValueError(
        f"Kubernetes version {part!r}{where} is not a version, range or list: use {ACCEPTED_SPELLINGS} "
        f"(crdtool knows 1.{first} … 1.{last})"
    )


def resolve_release(version: str | int | Release | None = None) -> Release:
    """The :class:`Release` named by ``version``.

    In: ``None`` (the default, :data:`DEFAULT_RELEASE`), a :class:`Release`, a minor (``33``), or text:
    ``"1.33"``, ``"v1.33"``, ``"1.33.2"``, ``"v1.37.0-beta.0"``, ``"1.33.2+k3s1"`` (a patch, pre-release or build
    suffix names its release; a suffix follows a patch number, a pre-release starts with a letter).
    Raises ``ValueError`` naming the supported range for anything else.
    """
    if version is None:
        return DEFAULT_RELEASE
    if isinstance(version, Release):
        return version
    if isinstance(version, bool):
        raise _unsupported(str(version))
    if isinstance(version, int):
        if version in RELEASES:
            return RELEASES[version]
        raise _unsupported(str(version))
    m = _VERSION_RE.fullmatch(version.strip())
    if m is None or int(m.group(1)) not in RELEASES:
        raise _unsupported(version)
    return RELEASES[int(m.group(1))]


def parse_release_matrix(text: str) -> tuple[Release, ...]:
    """The releases a ``--kubernetes-version`` value names, oldest first, without repeats.

    In: one version (``"1.33"``), a range (``"1.30-1.37"``), a comma list of either (``"1.31,1.33-1.35"``),
    ``"supported"`` (the releases upstream still patches, :data:`SUPPORTED_BY_UPSTREAM`) or ``"all"``.
    Raises ``ValueError`` (with the supported range) for anything else, an empty list or a reversed range; a
    malformed range (``"1.34-"``, ``"1.34-1.35-1.30"``) is named as such, with the accepted spellings.
    """
    out: list[Release] = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        if part == "supported":
            picked = [RELEASES[m] for m in SUPPORTED_BY_UPSTREAM]
        elif part == "all":
            picked = list(RELEASES.values())
        elif (m := _RANGE_RE.fullmatch(part)) is not None:
            low, high = resolve_release(m.group(1)), resolve_release(m.group(2))
            if low.minor > high.minor:
                raise ValueError(f"Kubernetes version range {part!r} runs backwards")
            picked = [RELEASES[m] for m in range(low.minor, high.minor + 1)]
        elif "-" in part and _VERSION_RE.fullmatch(part) is None:
            # "1.34-", "-1.35", "1.34-1.35-1.30", "1.30 - latest": a range with a missing or extra end
            raise _malformed(part, text)
        else:
            picked = [resolve_release(part)]
        out.extend(r for r in picked if r not in out)
    if not out:
        raise _unsupported(text)
    return tuple(sorted(out, key=lambda r: r.minor))
