"""The Kubernetes CEL environment's compile step: parse, type-check, validate.

Mirrors ``cel.Env.Compile`` (``CompileSource``: ``ParseSource`` then
``Check``, then the environment's AST validators) for the environment
``k8s.io/apiserver/pkg/cel/environment/base.go`` builds at compatibility
version 1.35 (the default of an apiserver v1.36): the standard library plus
the Kubernetes libraries listed in :data:`crdtool.core.cel.decls.KUBERNETES_LIBRARIES`,
cross-type numeric comparisons on, optional types on, and the AST validators
of :mod:`crdtool.core.cel.validators`. There is no ``cel.bind``
(``ext.Bindings``), ``math.*`` or ``base64.*`` in this environment: using
them is an ``undeclared reference``, as on the apiserver.

:func:`compile_expression` returns the checked tree (for cost estimation)
or the ``Issues.String()`` text upstream puts after ``compilation failed: ``.
:class:`Environment` describes an environment; :data:`KUBERNETES` is the
apiserver's, others exist for upstream's own library tests.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from crdtool.core.cel import ast as A
from crdtool.core.cel import types as T
from crdtool.core.cel.checker import CheckedAst, Provider, check
from crdtool.core.cel.decls import KUBERNETES_LIBRARIES, FunctionDecl, functions
from crdtool.core.cel.parser import DEFAULT_OPTIONS, ParserOptions, parse

__all__ = [
    "ALL_VALIDATORS", "Compiled", "EnvSet", "Environment", "KUBERNETES", "KUBERNETES_ENV_SET", "base_env_set",
    "base_environment", "compile_expression",
]

#: The AST validators, in the order ``base.go`` registers them.
ALL_VALIDATORS = ("homogeneous_literals", "duration", "timestamp", "matches", "string_format")


@dataclass(frozen=True)
class Environment:
    """A CEL environment: its libraries (in application order), options and AST validators.

    ``presence_test_has_cost`` and the ``ext`` overload cost estimators belong
    to ``EstimateCost``; they follow the libraries present.
    """

    libraries: tuple[str, ...] = KUBERNETES_LIBRARIES
    cross_type_numeric_comparisons: bool = True
    validators: tuple[str, ...] = ALL_VALIDATORS
    parser_options: ParserOptions = field(default=DEFAULT_OPTIONS)
    presence_test_has_cost: bool = False
    #: Further functions, declared after the libraries (upstream tests add their own).
    extra_functions: tuple[FunctionDecl, ...] = ()
    #: ``DeclTypeProvider.SetRecognizeKeywordAsFieldName``: ``self.namespace`` finds a
    #: property escaped as ``__namespace__`` (environments at compatibility 1.31+).
    recognize_keyword_as_field_name: bool = True

    def function_decls(self) -> dict[str, FunctionDecl]:
        """The environment's functions by name."""
        fns = functions(self.libraries)
        if not self.extra_functions:
            return fns
        out = dict(fns)
        for fn in self.extra_functions:
            prev = out.get(fn.name)
            if prev is None:
                out[fn.name] = fn
                continue
            seen = {o.id for o in prev.overloads}
            out[fn.name] = FunctionDecl(fn.name, prev.overloads + tuple(o for o in fn.overloads if o.id not in seen))
        return out


#: ``environment.MustBaseEnvSet(DefaultCompatibilityVersion())``, NewExpressions and StoredExpressions alike.
KUBERNETES = Environment()

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
    return Environment(
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
    with ``library.Test()``, :data:`crdtool.core.cel.decls.LIBRARIES` ``"k8s.test"``, at 1.999).
    """
    new, stored = base_environment(minor), base_environment(None)
    for introduced, library in extensions:
        stored = replace(stored, libraries=stored.libraries + (library,))
        if minor >= introduced:
            new = replace(new, libraries=new.libraries + (library,))
    return EnvSet(new, stored)


#: The apiserver v1.36 default (``DefaultCompatibilityVersion()`` = 1.35).
KUBERNETES_ENV_SET = base_env_set()


@dataclass
class Compiled:
    """A compiled expression: the checked tree, or the error text (``Issues.String()``)."""

    checked: CheckedAst | None
    error: str = ""

    @property
    def output_type(self) -> T.Type | None:
        return self.checked.output_type() if self.checked is not None else None

    def references(self, name: str) -> bool:
        """Whether the reference map names ``name`` (``compileRule``'s ``UsesOldSelf`` test)."""
        if self.checked is None:
            return False
        return any(ref.name == name for ref in self.checked.reference_map.values())


def compile_expression(
    source: str,
    variables: dict[str, T.Type],
    provider: Provider | None = None,
    env: Environment = KUBERNETES,
) -> Compiled:
    """``env.Compile(source)``.

    In: the expression text; the declared variables (``self``, ``oldSelf``)
    by name; the struct type provider for the schema's object types; the
    environment. Out: :class:`Compiled`. Never raises.
    """
    from crdtool.core.cel.parser import _deep_stack
    from crdtool.core.cel.validators import validate

    parsed = parse(source, env.parser_options)
    if parsed.expr is None:
        return Compiled(None, parsed.error_text())
    with _deep_stack(source):
        checked = check(
            parsed.expr,
            parsed.info,
            variables,
            provider,
            cross_type_numeric_comparisons=env.cross_type_numeric_comparisons,
            function_decls=env.function_decls(),
        )
        if checked.issues:
            return Compiled(None, A.format_issues(checked.issues, checked.info, checked.total_errors))
        issues = validate(checked, env.validators)
    if issues:
        return Compiled(None, A.format_issues(issues, checked.info))
    return Compiled(checked)
