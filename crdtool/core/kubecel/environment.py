"""The Kubernetes CEL environment: ``k8s.io/apiserver/pkg/cel/environment`` (``base.go``, ``environment.go``).

An :class:`~crdtool.core.celgo.env.Environment` whose library names resolve to
cel-go's libraries (:mod:`crdtool.core.celgo.decls`, :mod:`crdtool.core.celgo.functions`)
and Kubernetes' (:mod:`crdtool.core.kubecel.library_decls`, :mod:`crdtool.core.kubecel.library`):
:func:`functions` and :func:`type_identifiers` for the checker, :func:`runtime` for
programs. ``base.go``'s table of versioned options is :data:`_BASE_OPTIONS`;
:func:`base_environment` and :func:`base_env_set` build the environments of a
compatibility version, and :data:`KUBERNETES_ENV_SET` is an apiserver v1.36's.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace
from typing import Any

from crdtool.core.celgo import decls as celgo_decls
from crdtool.core.celgo import functions as celgo_functions
from crdtool.core.celgo import values as V
from crdtool.core.celgo.decls import FunctionDecl
from crdtool.core.celgo.env import Environment
from crdtool.core.celgo.interpreter import Runtime
from crdtool.core.celgo.types import Type
from crdtool.core.kubecel import library, library_decls

__all__ = [
    "EnvSet", "KUBERNETES", "KUBERNETES_ENV_SET", "KUBERNETES_LIBRARIES", "base_env_set", "base_environment",
    "functions", "kubernetes_environment", "runtime", "type_identifiers",
]

#: The libraries of the CRD environment, in the order ``environment/base.go`` (v0.36) applies them.
KUBERNETES_LIBRARIES: tuple[str, ...] = (
    "stdlib", "k8s.urls", "k8s.regex", "k8s.lists", "k8s.authz", "optional", "k8s.quantity", "ext.strings.v2",
    "ext.sets", "k8s.ip", "k8s.cidr", "k8s.format", "k8s.authz_selectors", "ext.two_var_comprehensions",
    "k8s.semver", "ext.lists.v3",
)


@functools.lru_cache(maxsize=16)
def functions(libraries: tuple[str, ...] = KUBERNETES_LIBRARIES) -> dict[str, FunctionDecl]:
    """Every function of an environment by name, overloads merged across its libraries in order.

    In: library names of :data:`crdtool.core.celgo.decls.LIBRARIES` and
    :data:`crdtool.core.kubecel.library_decls.LIBRARIES`, in application order.
    """
    tables = tuple(celgo_decls.LIBRARIES.get(lib) or library_decls.LIBRARIES[lib] for lib in libraries)
    return celgo_decls.merge_functions(tables)


def type_identifiers(libraries: tuple[str, ...] = KUBERNETES_LIBRARIES) -> dict[str, Type]:
    """The identifiers that name types: the standard library's and every Kubernetes library object type."""
    return celgo_decls.type_identifiers(library_decls.TYPE_NAMES)


def _specs(lib: str) -> list[Any]:
    make = celgo_functions.LIBRARIES.get(lib)
    return make() if make is not None else library.library_specs(lib)


@functools.lru_cache(maxsize=16)
def runtime(libraries: tuple[str, ...] = KUBERNETES_LIBRARIES) -> Runtime:
    """The runtime of an environment of these libraries: dispatcher, type identifiers, costs (``env.Program``)."""
    type_idents: dict[str, Any] = dict(V.STANDARD_TYPE_IDENTS)
    type_idents.update(library.type_idents(libraries))
    k8s = any(lib.startswith("k8s.") for lib in libraries)
    return celgo_functions.build_runtime(
        libraries, _specs, functions(libraries), type_idents,
        estimator=library.call_cost if k8s else None,
        estimator_functions=library.CALL_COST_FUNCTIONS if k8s else None,
        regex_functions=("find", "findAll") if "k8s.regex" in libraries else (),
    )


def kubernetes_environment(**options: Any) -> Environment:
    """An :class:`Environment` whose library names resolve to cel-go's and Kubernetes' libraries.

    ``options`` are :class:`Environment`'s fields (``libraries`` defaults to :data:`KUBERNETES_LIBRARIES`).
    """
    options.setdefault("libraries", KUBERNETES_LIBRARIES)
    return Environment(resolve_functions=functions, resolve_type_identifiers=type_identifiers, **options)


#: ``environment.MustBaseEnvSet(DefaultCompatibilityVersion())``, NewExpressions and StoredExpressions alike.
KUBERNETES = kubernetes_environment()

# environment/base.go baseOpts: (introduced minor, removed minor or None, library or option).
_BASE_OPTIONS: tuple[tuple[int, int | None, str], ...] = (
    (0, None, "stdlib"), (0, None, "k8s.urls"), (0, None, "k8s.regex"), (0, None, "k8s.lists"),
    (27, None, "k8s.authz"), (28, None, "optional"), (28, None, "k8s.quantity"),
    (0, 29, "ext.strings.v0"), (29, None, "ext.strings.v2"), (29, None, "ext.sets"),
    (30, None, "k8s.ip"), (30, None, "k8s.cidr"), (31, None, "k8s.format"), (31, None, "k8s.authz_selectors"),
    (32, None, "ext.two_var_comprehensions"), (33, None, "k8s.semver"), (34, None, "ext.lists.v3"),
)


def base_environment(minor: int | None) -> Environment:
    """The base environment at compatibility version 1.<minor> (None: the stored-expressions one, every option)."""
    libs = tuple(
        lib for intro, removed, lib in _BASE_OPTIONS
        if minor is None and removed is None or minor is not None and minor >= intro and (removed is None or minor < removed)
    )
    validators = ["homogeneous_literals"]
    if minor is None or minor >= 29:
        validators += ["duration", "timestamp", "matches"]
    if "ext.strings.v2" in libs:
        validators.append("string_format")
    return kubernetes_environment(
        libraries=libs,
        cross_type_numeric_comparisons=minor is None or minor >= 28,
        validators=tuple(validators),
        recognize_keyword_as_field_name=minor is None or minor >= 31,
    )


@dataclass(frozen=True)
class EnvSet:
    """``environment.EnvSet``: the environment for new expressions and the one for stored expressions.

    A rule or messageExpression the CRD already had before an update compiles
    in ``stored`` (every library, as ``StoredExpressionsEnvLoader`` picks);
    any other in ``new`` (only what the compatibility version allows).
    """

    new: Environment = KUBERNETES
    stored: Environment = KUBERNETES

    def for_expression(self, expression: str, preexisting: frozenset[str]) -> Environment:
        return self.stored if expression in preexisting else self.new


def base_env_set(minor: int = 35, extensions: tuple[tuple[int, str], ...] = ()) -> EnvSet:
    """``environment.MustBaseEnvSet(version.MajorMinor(1, minor))``; 1.35 is v1.36's default.

    ``extensions``: ``(introduced minor, library)`` pairs, as ``EnvSet.Extend(VersionedOptions{IntroducedVersion:
    1.<introduced>, EnvOptions: <library>})`` adds them: the stored-expressions environment always has the
    library, the new-expressions one only when ``minor`` has reached its version (upstream's tests extend
    with ``library.Test()``, :data:`crdtool.core.kubecel.library_decls.LIBRARIES` ``"k8s.test"``, at 1.999).
    """
    new, stored = base_environment(minor), base_environment(None)
    for introduced, library in extensions:
        stored = replace(stored, libraries=stored.libraries + (library,))
        if minor >= introduced:
            new = replace(new, libraries=new.libraries + (library,))
    return EnvSet(new, stored)


#: The apiserver v1.36 default (``DefaultCompatibilityVersion()`` = 1.35).
KUBERNETES_ENV_SET = base_env_set()


