"""A CEL environment's compile step: parse, type-check, validate (``cel/env.go``).

Mirrors ``cel.Env.Compile`` (``CompileSource``: ``ParseSource`` then
``Check``, then the environment's AST validators). :class:`Environment`
describes an environment: its libraries by name, its options and validators,
and where the names of its libraries are resolved (cel-go's own libraries by
default; :mod:`crdtool.core.kubecel.environment` builds the Kubernetes ones).

:func:`compile_expression` returns the checked tree (for cost estimation)
or the ``Issues.String()`` text upstream puts after ``compilation failed: ``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Callable

from crdtool.core.celgo import ast as A
from crdtool.core.celgo import types as T
from crdtool.core.celgo.checker import CheckedAst, Provider, check
from crdtool.core.celgo.decls import FunctionDecl, functions, type_identifiers
from crdtool.core.celgo.parser import DEFAULT_OPTIONS, ParserOptions, parse
from crdtool.core.celgo.version import DEFAULT as DEFAULT_CEL_GO

__all__ = ["ALL_VALIDATORS", "Compiled", "Environment", "compile_expression"]

#: The AST validators of :mod:`crdtool.core.celgo.validators`, in the order Kubernetes' ``base.go`` registers them.
ALL_VALIDATORS = ("homogeneous_literals", "duration", "timestamp", "matches", "string_format")


def _standard_type_identifiers(libraries: tuple[str, ...], cel_go: str = DEFAULT_CEL_GO) -> dict[str, T.Type]:
    return type_identifiers(cel_go=cel_go)


@dataclass(frozen=True)
class Environment:
    """A CEL environment: its libraries (in application order), options and AST validators.

    ``presence_test_has_cost`` and the ``ext`` overload cost estimators belong
    to ``EstimateCost``; they follow the libraries present.
    """

    libraries: tuple[str, ...] = ("stdlib",)
    cross_type_numeric_comparisons: bool = True
    validators: tuple[str, ...] = ALL_VALIDATORS
    parser_options: ParserOptions = field(default=DEFAULT_OPTIONS)
    presence_test_has_cost: bool = False
    #: Further functions, declared after the libraries (upstream tests add their own).
    extra_functions: tuple[FunctionDecl, ...] = ()
    #: ``DeclTypeProvider.SetRecognizeKeywordAsFieldName``: ``self.namespace`` finds a
    #: property escaped as ``__namespace__`` (environments at compatibility 1.31+).
    recognize_keyword_as_field_name: bool = True
    #: The functions of a tuple of library names in a cel-go version (:func:`crdtool.core.celgo.decls.functions`:
    #: cel-go's libraries).
    resolve_functions: Callable[[tuple[str, ...], str], dict[str, FunctionDecl]] = functions
    #: The type identifiers of a tuple of library names in a cel-go version.
    resolve_type_identifiers: Callable[[tuple[str, ...], str], dict[str, T.Type]] = _standard_type_identifiers
    #: The cel-go version whose parser, checker, validators, coster and runtime the environment answers as
    #: (:mod:`crdtool.core.celgo.version`).
    cel_go: str = DEFAULT_CEL_GO
    #: The release of the libraries the host adds (opaque to cel-go; :mod:`crdtool.core.kubecel.environment`
    #: puts the Kubernetes :class:`~crdtool.core.releases.Release` here), None: the newest.
    release: Any = None
    #: ``cel.Container``: the namespace names resolve in (``""``, as in every Kubernetes environment).
    container: str = ""

    def effective_parser_options(self) -> ParserOptions:
        """:attr:`parser_options` as cel-go :attr:`cel_go`'s parser applies them, with the macros of the
        environment's libraries."""
        opts = self.parser_options
        macros = self.libraries if opts.macro_libraries is None else opts.macro_libraries
        if opts.cel_go == self.cel_go and opts.macro_libraries == macros:
            return opts
        return replace(opts, cel_go=self.cel_go, macro_libraries=macros)

    def type_identifiers(self) -> dict[str, T.Type]:
        """The identifiers that name types (``int``, ``optional_type``, the libraries' object types)."""
        return self.resolve_type_identifiers(self.libraries, self.cel_go)

    def function_decls(self) -> dict[str, FunctionDecl]:
        """The environment's functions by name."""
        fns = self.resolve_functions(self.libraries, self.cel_go)
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


@dataclass
class Compiled:
    """A compiled expression: the checked tree, or the error text (``Issues.String()``)."""

    checked: CheckedAst | None
    error: str = ""
    #: cel-go panicked while compiling (``error`` is the panic value); upstream has no compile result at all
    panic: bool = False

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
    env: Environment | None = None,
) -> Compiled:
    """``env.Compile(source)``.

    In: the expression text; the declared variables (``self``, ``oldSelf``)
    by name; the struct type provider for the schema's object types; the
    environment. Out: :class:`Compiled`. Never raises.
    """
    from crdtool.core.celgo.formatting import CompilerPanic
    from crdtool.core.celgo.parser import _deep_stack
    from crdtool.core.celgo.validators import validate

    env = env or Environment()
    parsed = parse(source, env.effective_parser_options())
    if parsed.expr is None:
        return Compiled(None, parsed.error_text())
    with _deep_stack(source):
        checked = check(
            parsed.expr,
            parsed.info,
            variables,
            provider,
            container=env.container,
            cross_type_numeric_comparisons=env.cross_type_numeric_comparisons,
            function_decls=env.function_decls(),
            type_idents=env.type_identifiers(),
            cel_go=env.cel_go,
        )
        if checked.issues:
            return Compiled(None, A.format_issues(checked.issues, checked.info, checked.total_errors))
        try:
            issues = validate(checked, env.validators, env.cel_go)
        except CompilerPanic as exc:
            return Compiled(None, str(exc), panic=True)
    if issues:
        return Compiled(None, A.format_issues(issues, checked.info))
    return Compiled(checked)
