"""CEL as the Kubernetes apiserver compiles it: a Python port of the parts of cel-go v0.26.0 it uses.

The apiserver type-checks every ``x-kubernetes-validations`` rule and
``messageExpression`` at CRD create, and estimates its worst-case cost, with
cel-go (``k8s.io/apiserver/pkg/cel/environment/base.go`` builds the
environment; ``apiextensions-apiserver pkg/apiserver/schema/cel/compilation.go``
compiles). Verdicts and messages depend on cel-go's exact behaviour (its
parser's positions and macro expansions, its checker's overload resolution and
type formatting, its cost estimator's arithmetic), so this package mirrors
cel-go module by module:

* :mod:`.types` — ``common/types`` ``Type`` plus ``checker/types.go``,
  ``checker/format.go`` and ``checker/mapping.go`` (assignability, type
  substitution, ``FormatCELType``);
* :mod:`.ast` — ``common/ast`` expressions, ``SourceInfo`` and
  ``common/errors.go`` (``Issues.String()`` rendering);
* :mod:`.parser` — ``parser/parser.go``, ``helper.go``, ``macro.go``,
  ``unescape.go`` and the macros of the optional-types, two-variable
  comprehension and lists libraries;
* :mod:`.decls` — the function declarations of the Kubernetes base
  environment (cel-go standard library and extensions, Kubernetes libraries);
* :mod:`.checker` — ``checker/checker.go``;
* :mod:`.validators` — ``cel/validator.go`` AST validators and
  ``ext/formatting.go``'s string format validator;
* :mod:`.cost` — ``checker/cost.go`` with the ``ext`` lists/sets estimators;
* :mod:`.library_cost` — ``k8s.io/apiserver pkg/cel/library/cost.go``;
* :mod:`.env` — ``environment/base.go``: one environment object that parses,
  checks, validates and estimates.

Evaluation stays with cel-cpp (:mod:`crdtool.core.schema.cel_eval`).
Nothing here does I/O or keeps mutable global state; compiled results are
cached by the callers.
"""
