"""The built-in kinds of each release: group, version, kind, scope, resource, schema definition, serving.

Read from the generated data of :mod:`crdtool.core.builtin.data` (Kubernetes' published OpenAPI v3,
``api/openapi-spec/v3`` of kubernetes/kubernetes per release: a kind is a ``x-kubernetes-group-version-kind``
of a REST path, namespaced when the path has ``namespaces/{namespace}``, its resource the path's last
segment; see ``build_backend/gen_builtin_schemas.py``) and the serving rules of
:mod:`crdtool.core.builtin.serving`. 1.37's documents are 1.36's patched with what k8s.io/api v0.37.0-beta.0's
Go types add and remove (no published copy was available when the data was generated; ``derived_from``,
``build_backend/gen_builtin_1_37.py``).

Every function takes a release as ``"1.33"``, ``33`` or a :class:`~crdtool.core.releases.Release`.
Definitions are loaded lazily, one Go package (``io.k8s.api.apps.v1``) at a time.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from crdtool.core.builtin import data, serving
from crdtool.core.releases import Release, resolve_release

__all__ = ["KindInfo", "definition", "definition_docs", "derived_from", "kind_info", "kinds", "parse_api_version"]


@dataclass(frozen=True)
class KindInfo:
    """One built-in kind at one release.

    Attributes:
        group: the API group (``""`` for the core group), version, kind: as in ``apiVersion``/``kind``.
        namespaced: whether objects live in a namespace (``namespaces/{namespace}`` paths).
        resource: the plural resource name (``deployments``); ``""`` for a removed kind.
        definition: the OpenAPI definition name (``io.k8s.api.apps.v1.Deployment``); ``""`` for a removed kind.
        verbs: the ``x-kubernetes-action`` values of its collection paths (``post``, ``list``, ...).
        served: whether a default kube-apiserver of the release serves it (:mod:`serving`).
        deprecated, removed: ``(major, minor)`` from k8s.io/api's prerelease-lifecycle data, or None.
        replacement: ``(group, version, kind)`` to use instead, or None.
        warning: the apiserver's deprecation warning when served and deprecated, else ``""``.
    """

    group: str
    version: str
    kind: str
    namespaced: bool
    resource: str
    definition: str
    verbs: tuple[str, ...]
    served: bool
    deprecated: tuple[int, int] | None
    removed: tuple[int, int] | None
    replacement: tuple[str, str, str] | None
    warning: str

    @property
    def api_version(self) -> str:
        """``apps/v1``, or ``v1`` for the core group."""
        return f"{self.group}/{self.version}" if self.group else self.version

    @property
    def group_version(self) -> str:
        """Alias of :attr:`api_version`."""
        return self.api_version

    @property
    def replacement_api_version(self) -> str:
        """``apps/v1 Deployment`` for the replacement, or ``""``."""
        if not self.replacement:
            return ""
        g, v, k = self.replacement
        return f"{g + '/' + v if g else v} {k}"


def _name(release: str | int | Release) -> str:
    return resolve_release(release).name


def parse_api_version(api_version: str) -> tuple[str, str]:
    """``("apps", "v1")`` for ``apps/v1``, ``("", "v1")`` for ``v1`` (``schema.ParseGroupVersion``).

    Raises ``ValueError`` for more than one ``/`` (upstream: ``unexpected GroupVersion string``).
    """
    if api_version.count("/") > 1:
        raise ValueError(f"unexpected GroupVersion string: {api_version}")
    if "/" not in api_version:
        return "", api_version
    group, _, version = api_version.partition("/")
    return group, version


@cache
def _kinds_at(release: str) -> dict[tuple[str, str, str], KindInfo]:
    minor = int(release.split(".")[1])
    out: dict[tuple[str, str, str], KindInfo] = {}
    for group, version, kind, namespaced, resource, definition_name, verbs in data.load_index()["kinds"][release]:
        life = serving.lifecycle(minor, group, version, kind)
        removed = serving.is_removed(minor, group, version, kind)
        served = serving.enabled_by_default(minor, group, version, resource) and not removed
        out[(group, version, kind)] = KindInfo(
            group, version, kind, bool(namespaced), resource, definition_name, tuple(verbs), served,
            life.deprecated, life.removed, life.replacement,
            serving.deprecation_warning(minor, group, version, kind) if served else "",
        )
    return out


def kinds(release: str | int | Release) -> list[KindInfo]:
    """Every kind the release's OpenAPI documents (alpha and beta included: see :attr:`KindInfo.served`)."""
    return list(_kinds_at(_name(release)).values())


def kind_info(release: str | int | Release, api_version: str, kind: str) -> KindInfo | None:
    """The kind ``kind`` of ``api_version`` at ``release``, or None if no Kubernetes release defines it.

    A kind the release's documents lack but k8s.io/api marks removed (``extensions/v1beta1 Deployment``,
    ``batch/v1beta1 CronJob``) is returned with ``served=False``, ``definition=""`` and its replacement.
    """
    return _kind_info(_name(release), api_version, kind)


@lru_cache(maxsize=1024)
def _kind_info(name: str, api_version: str, kind: str) -> KindInfo | None:
    # every create asks this first: kept by (release, apiVersion, kind), the answer of tables that do not change
    try:
        group, version = parse_api_version(api_version)
    except ValueError:
        return None
    found = _kinds_at(name).get((group, version, kind))
    if found is not None:
        return found
    minor = int(name.split(".")[1])
    life = serving.lifecycle(minor, group, version, kind)
    if life.removed is None or (life.removed[0], life.removed[1]) > (1, minor):
        return None  # not a REST kind of this release (not yet introduced, or not a resource)
    return KindInfo(group, version, kind, False, "", "", (), False, life.deprecated, life.removed,
                    life.replacement, "")


def definition(release: str | int | Release, name: str) -> dict[str, Any]:
    """The OpenAPI v3 schema of definition ``name`` at ``release``, ``$ref`` values as definition names.

    Without descriptions (:func:`definition_docs` has them). Raises ``KeyError`` for a definition the
    release does not have. The dict is shared: do not mutate it.
    """
    index = data.load_index()
    slot = index["releases"].index(_name(release))
    variant = index["definitions"].get(name, [])[slot] if name in index["definitions"] else -1
    if variant < 0:
        raise KeyError(name)
    return data.load_package(_package(name))[name][variant]


def definition_docs(release: str | int | Release, name: str) -> dict[str, str]:
    """The descriptions of definition ``name``: ``""`` its own, a property's by name. KeyError if absent."""
    index = data.load_index()
    slot = index["releases"].index(_name(release))
    variant = index["docs"][name][slot] if name in index["docs"] else -1
    if variant < 0:
        raise KeyError(name)
    return data.load_docs(_package(name))[name][variant]


def derived_from(release: str | int | Release) -> str | None:
    """The release whose documents stand in for ``release`` (``"1.36"`` for 1.37), or None."""
    out: str | None = data.load_index()["derived"].get(_name(release))
    return out


def _package(name: str) -> str:
    return name.rpartition(".")[0]
