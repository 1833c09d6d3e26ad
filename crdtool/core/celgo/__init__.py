"""cel-go, ported: the generic CEL language as the Kubernetes apiserver's pinned cel-go runs it.

The first of crdtool's three CEL layers (imports run one way: :mod:`crdtool.core.crdcel` →
:mod:`crdtool.core.kubecel` → this package). Nothing here is Kubernetes-specific: the parser,
checker, cost estimator, interpreter and runtime values of ``github.com/google/cel-go``
(v0.26.0, what Kubernetes 1.34–1.36 pin), module by module:

* :mod:`.types` — ``common/types`` ``Type`` plus ``checker/types.go``, ``checker/format.go`` and
  ``checker/mapping.go`` (assignability, type substitution, ``FormatCELType``);
* :mod:`.ast` — ``common/ast`` expressions, ``SourceInfo`` and ``common/errors.go``
  (``Issues.String()`` rendering), ``ast.MatchDescendants``'s visiting order;
* :mod:`.parser` — ``parser/parser.go``, ``helper.go``, ``macro.go``, ``unescape.go`` and the macros
  of the optional-types, two-variable comprehension and lists libraries;
* :mod:`.decls` — the declarations of ``common/stdlib/standard.go``, ``cel/library.go`` (optional
  types) and the ``ext`` libraries (strings, sets, lists, two-variable comprehensions), and the
  merge of declaration tables into an environment's functions;
* :mod:`.checker` — ``checker/checker.go``;
* :mod:`.validators` — ``cel/validator.go``'s AST validators; :mod:`.formatting` — ``ext/formatting.go``'s
  string format validator;
* :mod:`.cost` — ``checker/cost.go`` with the ``ext`` lists/sets estimators;
* :mod:`.env` — ``cel/env.go``'s compile step: parse, check, validate;
* :mod:`.values` — ``common/types`` runtime values (ints with overflow, strings, lists, maps,
  optionals, durations, timestamps, native JSON-like data);
* :mod:`.functions` — the runtime standard library and the ``ext`` libraries' functions, with
  ``interpreter/runtimecost.go``'s call costs;
* :mod:`.interpreter` — ``interpreter/``: planning, attributes, evaluation, cost tracking.

Nothing here does I/O or keeps mutable global state; compiled results are cached by the callers.
"""
