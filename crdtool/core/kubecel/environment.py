"""The Kubernetes CEL environment: ``k8s.io/apiserver/pkg/cel/environment`` (``base.go``, ``environment.go``).

An :class:`~crdtool.core.celgo.env.Environment` whose library names resolve to
cel-go's libraries (:mod:`crdtool.core.celgo.decls`, :mod:`crdtool.core.celgo.functions`)
and Kubernetes' (:mod:`crdtool.core.kubecel.library_decls`, :mod:`crdtool.core.kubecel.library`):
:func:`functions` and :func:`type_identifiers` for the checker, :func:`runtime` for
programs. ``base.go``'s table of versioned options is :data:`_BASE_OPTIONS`;
:func:`base_environment` and :func:`base_env_set` build the environments of a
release at a compatibility version, :func:`release_env_set` those of a release's default apiserver, and
:data:`KUBERNETES_ENV_SET` the default release's. :data:`KUBERNETES` has every library (upstream's own
library tests use such environments).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, replace
from typing import Any

from crdtool.core.celgo import decls as celgo_decls
from crdtool.core.celgo import functions as celgo_functions
from crdtool.core.celgo import values as V
from crdtool.core.celgo.decls import FunctionDecl
from crdtool.core.celgo.env import Environment
from crdtool.core.celgo.interpreter import Runtime
from crdtool.core.celgo.types import Type
from crdtool.core.celgo.version import DEFAULT as DEFAULT_CEL_GO
from crdtool.core.celgo.version import has
from crdtool.core.kubecel import library, library_decls
from crdtool.core.releases import FEATURE_GATES, Release, resolve_release

__all__ = [
    "EnvSet", "KUBERNETES", "KUBERNETES_ENV_SET", "KUBERNETES_LIBRARIES", "NAME_SCOPED_LIBRARIES", "base_env_set",
    "base_environment", "compile_key", "functions", "kubernetes_environment", "release_env_set", "runtime", "runtime_of", "type_identifiers",
]

#: The libraries of the CRD environment, in the order ``environment/base.go`` (v0.36) applies them.
KUBERNETES_LIBRARIES: tuple[str, ...] = (
    "stdlib", "k8s.urls", "k8s.regex", "k8s.lists", "k8s.authz", "optional", "k8s.quantity", "ext.strings.v2",
    "ext.sets", "k8s.ip", "k8s.cidr", "k8s.format", "k8s.authz_selectors", "ext.two_var_comprehensions",
    "k8s.semver", "ext.lists.v3",
)


@functools.lru_cache(maxsize=64)
def functions(
    libraries: tuple[str, ...] = KUBERNETES_LIBRARIES, cel_go: str = DEFAULT_CEL_GO
) -> dict[str, FunctionDecl]:
    """Every function of an environment by name, overloads merged across its libraries in order.

    In: library names of :data:`crdtool.core.celgo.decls.LIBRARIES` and
    :data:`crdtool.core.kubecel.library_decls.LIBRARIES`, in application order; the cel-go version (its
    libraries' declarations, e.g. the optional library's version).
    """
    tables = tuple(celgo_decls.library_table(lib, cel_go) or library_decls.LIBRARIES[lib] for lib in libraries)
    return celgo_decls.merge_functions(tables)


def type_identifiers(libraries: tuple[str, ...] = KUBERNETES_LIBRARIES, cel_go: str = DEFAULT_CEL_GO) -> dict[str, Type]:
    """The identifiers that name types: the standard library's, ``optional_type`` (cel-go v0.20.1+) and the
    object types of the IP and CIDR libraries when they are in the environment
    (:data:`crdtool.core.kubecel.library_decls.TYPE_NAMES`)."""
    names = tuple(n for lib in libraries for n in library_decls.TYPE_NAMES.get(lib, ()))
    return celgo_decls.type_identifiers(names, cel_go)


#: The golang.org/x/text version k8s.io/apiserver's ``go.mod`` pins at each release's tag (v0.30.14 … v0.37.0-beta.0):
#: its en-US number patterns format ``string.format``'s ``%e``.
X_TEXT: dict[int, str] = {
    30: "v0.14.0", 31: "v0.16.0", 32: "v0.19.0", 33: "v0.23.0", 34: "v0.23.0", 35: "v0.31.0", 36: "v0.33.0",
    37: "v0.40.0",
}


def _specs(lib: str, cel_go: str, minor: int) -> list[Any]:
    make = celgo_functions.LIBRARIES.get(lib)
    return make(cel_go, X_TEXT[minor]) if make is not None else library.library_specs(lib, minor)


def runtime(libraries: tuple[str, ...] = KUBERNETES_LIBRARIES, release: Release | int | None = None) -> Runtime:
    """The runtime of an environment of these libraries as ``release``'s apiserver builds it (default: the
    newest): dispatcher, type identifiers, costs (``env.Program``); the functions behave as that release's
    libraries and the cel-go it pins (:attr:`crdtool.core.releases.Release.cel_go`)."""
    return _runtime(libraries, resolve_release(release).minor)


def runtime_of(env: Environment) -> Runtime:
    """The runtime of ``env`` (its libraries, at its release)."""
    return runtime(env.libraries, env.release)


@functools.lru_cache(maxsize=64)
def _runtime(libraries: tuple[str, ...], minor: int) -> Runtime:
    cel_go = resolve_release(minor).cel_go
    type_idents: dict[str, Any] = dict(V.STANDARD_TYPE_IDENTS)
    type_idents.update(library.type_idents(libraries))
    k8s = any(lib.startswith("k8s.") for lib in libraries)
    return celgo_functions.build_runtime(
        libraries, lambda lib: _specs(lib, cel_go, minor), functions(libraries, cel_go), type_idents,
        estimator=library.call_cost_for(minor) if k8s else None,
        estimator_functions=library.CALL_COST_FUNCTIONS if k8s else None,
        regex_functions=("find", "findAll") if "k8s.regex" in libraries else (),
        cel_go=cel_go,
    )


def kubernetes_environment(**options: Any) -> Environment:
    """An :class:`Environment` whose library names resolve to cel-go's and Kubernetes' libraries.

    ``options`` are :class:`Environment`'s fields (``libraries`` defaults to :data:`KUBERNETES_LIBRARIES`).
    """
    options.setdefault("libraries", KUBERNETES_LIBRARIES)
    return Environment(resolve_functions=functions, resolve_type_identifiers=type_identifiers, **options)


#: ``environment.MustBaseEnvSet(DefaultCompatibilityVersion())``, NewExpressions and StoredExpressions alike.
KUBERNETES = kubernetes_environment()

@dataclass(frozen=True)
class _BaseOption:
    """One ``VersionedOptions`` entry of ``environment/base.go``'s ``baseOpts``, and the releases that have it.

    ``introduced``/``removed``: its ``IntroducedVersion``/``RemovedVersion`` minors (``removed`` only in
    the tables of ``removed_since`` and later); ``since``: the first release whose table has the entry;
    ``gate``: its ``FeatureEnabled`` feature gate (:data:`crdtool.core.releases.FEATURE_GATES`), if any.
    """

    library: str
    introduced: int
    since: int = 30
    removed: int | None = None
    removed_since: int = 30
    gate: str | None = None

    def removed_in(self, release: Release) -> int | None:
        return self.removed if self.removed is not None and release.minor >= self.removed_since else None


# environment/base.go baseOpts, in the order upstream applies them (v0.30.0 … v0.37.0-beta.0): libraries only;
# the options every release shares (homogeneous literals, UTC time zone, cost options) are Environment's fields.
_BASE_OPTIONS: tuple[_BaseOption, ...] = (
    _BaseOption("stdlib", 0),
    _BaseOption("k8s.urls", 0),
    _BaseOption("k8s.regex", 0),
    # library.Lists() in the 1.0 entry until 1.36; v0.37.0-beta.0: ListsVersion(0) with RemovedVersion 1.37
    _BaseOption("k8s.lists", 0, removed=37, removed_since=37),
    _BaseOption("k8s.authz", 27),
    _BaseOption("optional", 28),
    _BaseOption("k8s.quantity", 28),
    _BaseOption("ext.strings.v0", 0, removed=29),
    _BaseOption("ext.strings.v2", 29),
    _BaseOption("ext.sets", 29),
    _BaseOption("k8s.ip", 30),
    _BaseOption("k8s.cidr", 30),
    _BaseOption("k8s.format", 31, since=31),  # v0.31.0
    # v0.31.0: FeatureEnabled AuthorizeWithSelectors; v0.37.0-beta.0 drops the gate (and keeps the entry)
    _BaseOption("k8s.authz_selectors", 31, since=31, gate="AuthorizeWithSelectors"),
    _BaseOption("ext.two_var_comprehensions", 32, since=32),  # v0.32.0
    _BaseOption("k8s.semver", 33, since=33),  # v0.33.0 (SemverVersion(1))
    _BaseOption("ext.lists.v3", 34, since=34),  # v0.34.0
    _BaseOption("k8s.lists.v1", 37, since=37),  # v0.37.0-beta.0: ListsVersion(1), includes
)


def base_environment(minor: int | None, release: Release | None = None) -> Environment:
    """The base environment of ``release`` (default: :data:`crdtool.core.releases.DEFAULT_RELEASE`) at
    compatibility version 1.<minor>; ``minor`` None: its stored-expressions environment.

    Mirrors ``EnvSet.filterAndBuildOpts`` (``environment.go``): an entry is in the new-expressions
    environment when the compatibility version is at least its ``IntroducedVersion`` and below its
    ``RemovedVersion``, or when its feature gate is on (a gate that is off removes it); the
    stored-expressions environment (compatibility ``MaxUint``) has every entry without a
    ``RemovedVersion``, gates ignored. ``SetRecognizeKeywordAsFieldName`` exists from v0.31.0 and is set
    at compatibility 1.31 or later (the stored environment's included).
    """
    release = resolve_release(release)
    libs: list[str] = []
    for opt in _BASE_OPTIONS:
        if opt.since > release.minor:
            continue
        removed = opt.removed_in(release)
        if minor is None:
            if removed is None:
                libs.append(opt.library)
            continue
        gate_on = release.gate(opt.gate) if opt.gate is not None and opt.gate in FEATURE_GATES else None
        gate_on = None if opt.gate is not None and release.minor >= 37 else gate_on  # the gate is gone in 1.37
        if gate_on is False:
            continue
        if gate_on or (minor >= opt.introduced and (removed is None or minor < removed)):
            libs.append(opt.library)
    validators = ["homogeneous_literals"]
    if minor is None or minor >= 29:
        validators += ["duration", "timestamp", "matches"]
    # ext.Strings' format-string AST validator arrived with cel-go v0.20 (Kubernetes 1.31)
    if "ext.strings.v2" in libs and has(release.cel_go, "string_format_validator"):
        validators.append("string_format")
    keywords = release.at_least(31) and (minor is None or minor >= 31)
    return kubernetes_environment(
        libraries=tuple(libs),
        cross_type_numeric_comparisons=minor is None or minor >= 28,
        validators=tuple(validators),
        recognize_keyword_as_field_name=keywords,
        cel_go=release.cel_go,
        release=release,
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


def base_env_set(
    minor: int | None = None, extensions: tuple[tuple[int, str], ...] = (), release: Release | None = None
) -> EnvSet:
    """``environment.MustBaseEnvSet(version.MajorMinor(1, minor))`` of ``release``'s apiserver.

    ``minor`` None: the release's ``DefaultCompatibilityVersion()``
    (:attr:`crdtool.core.releases.Release.compatibility_minor`). ``extensions``: ``(introduced minor,
    library)`` pairs, as ``EnvSet.Extend(VersionedOptions{IntroducedVersion: 1.<introduced>, EnvOptions:
    <library>})`` adds them: the stored-expressions environment always has the library, the
    new-expressions one only when ``minor`` has reached its version (upstream's tests extend with
    ``library.Test()``, :data:`crdtool.core.kubecel.library_decls.LIBRARIES` ``"k8s.test"``, at 1.999).
    """
    release = resolve_release(release)
    if minor is None:
        minor = release.compatibility_minor
    new, stored = base_environment(minor, release), base_environment(None, release)
    for introduced, library in extensions:
        stored = replace(stored, libraries=stored.libraries + (library,))
        if minor >= introduced:
            new = replace(new, libraries=new.libraries + (library,))
    return EnvSet(new, stored)


@functools.lru_cache(maxsize=None)
def release_env_set(release: Release | None = None) -> EnvSet:
    """The :class:`EnvSet` a default apiserver of ``release`` compiles a CRD's rules in (cached)."""
    return base_env_set(release=resolve_release(release))


#: The default release's environments (:data:`crdtool.core.releases.DEFAULT_RELEASE`).
KUBERNETES_ENV_SET = release_env_set()


# --- what an expression's compilation can see of an environment ------------------------------------------------

#: The libraries whose every effect on compiling, costing, planning and running an expression goes through a name
#: the expression spells: their functions (``FunctionDecl`` by name, the runtime's implementations and call costs
#: by name and overload), their type identifiers (``net.IP``), their macros (``sortBy``, the two-variable
#: comprehensions) and their overload cost estimators (``ext.lists.v3``'s, by overload id of its own functions).
#: They are the libraries that tell a release's new-expressions environment from its stored-expressions one
#: (``environment/base.go``: IP and CIDR at 1.30, Format and AuthzSelectors at 1.31, TwoVarComprehensions at
#: 1.32, Semver at 1.33, Lists v3 at 1.34, ``library.Lists`` v0 removed and v1 introduced at 1.37, v0.37.0-beta.0).
#: Every other library (the standard library, optional types with their syntax, ext.strings with its format
#: validator, …) counts whether or not an expression names it.
NAME_SCOPED_LIBRARIES: frozenset[str] = frozenset({
    "k8s.ip", "k8s.cidr", "k8s.format", "k8s.authz_selectors", "ext.two_var_comprehensions", "k8s.semver",
    "ext.lists.v3", "k8s.lists", "k8s.lists.v1",
})

#: A CEL identifier (cel-spec ``IDENT``: ``[_a-zA-Z][_a-zA-Z0-9]*``); names have no escapes, so every identifier
#: of an expression is a maximal match of this in its text.
_WORD = re.compile(r"[_a-zA-Z][_a-zA-Z0-9]*")


#: A name an expression spells: identifiers joined by dots (``isSorted``, ``lists.range``, ``net.IP``).
_SPELLED = re.compile(r"[_a-zA-Z][_a-zA-Z0-9]*(?:\.[_a-zA-Z][_a-zA-Z0-9]*)*")


@functools.lru_cache(maxsize=None)
def _library_words(lib: str, cel_go: str, minor: int) -> frozenset[str] | None:
    """Every identifier in a name ``lib`` declares, implements or expands (``lists.range``: ``lists``,
    ``range``): its functions' declarations and runtime implementations, type identifiers (checker and runtime)
    and macros; None when ``lib`` has a name an expression reaches without spelling it (an operator such as
    ``_+_``): it is then not name-scoped. Internal names (``@sortByAssociatedKeys``, ``cel.@mapInsert``) are only
    reached through the library's own macros (no identifier holds ``@``), whose names are among the words."""
    from crdtool.core.celgo.parser import library_macro_names

    table = celgo_decls.library_table(lib, cel_go) or library_decls.LIBRARIES[lib]
    names = {name for name, _ in table}
    names.update(library_decls.TYPE_NAMES.get(lib, ()))
    names.update(library.type_idents((lib,)))
    names.update(spec.name for spec in _specs(lib, cel_go, minor))
    macros = library_macro_names(lib)
    for name in names:
        if not _SPELLED.fullmatch(name) and not ("@" in name and macros):
            return None
    names.update(macros)
    return frozenset(w for name in names for w in _WORD.findall(name))


def compile_key(env: Environment, *texts: str) -> Environment:
    """What compiling ``texts`` in ``env`` depends on: ``env`` without the libraries of
    :data:`NAME_SCOPED_LIBRARIES` that none of the texts names.

    Two environments with equal keys for an expression compile it alike -- the same parse (no macro of a left-out
    library is called), the same declarations of every function and type identifier it names (the left-out
    libraries declare none of them, the others are the same in the same order), the same validators and
    options, the same cost estimate and the same program behaviour (implementations and call costs by name) --
    so a compilation result may be shared between them (:func:`crdtool.core.crdcel.compilation.compile_rules`:
    a CRD's rules compiled for its create checks, new expressions, serve its defaults' checks and custom
    resources, stored expressions, wherever the two environments differ only in libraries the rules do not
    name). An environment whose names are not resolved as this module resolves them is its own key.
    No upstream counterpart (upstream compiles in each environment).
    """
    if env.resolve_functions is not functions or env.resolve_type_identifiers is not type_identifiers:
        return env
    words: frozenset[str] | None = None
    kept: list[str] = []
    minor = resolve_release(env.release).minor
    for lib in env.libraries:
        if lib in NAME_SCOPED_LIBRARIES:
            if words is None:
                words = frozenset(w for text in texts for w in _WORD.findall(text))
            spelled = _library_words(lib, env.cel_go, minor)
            if spelled is not None and words.isdisjoint(spelled):
                continue
        kept.append(lib)
    return env if len(kept) == len(env.libraries) else replace(env, libraries=tuple(kept))
