"""Which cel-go the port answers as: the versions Kubernetes 1.30 … 1.37 pin, and what differs between them.

crdtool's cel-go port follows v0.26.0/v0.27.0; a behaviour that an older version has differently is switched by
:func:`has` on a named behaviour of :data:`BEHAVIOURS` (the first version that has it, the first that no longer
has it), never by a second copy of the code. The version travels with the environment
(:attr:`crdtool.core.celgo.env.Environment.cel_go`), the parser options, the coster and the runtime; nothing here
is global state.

Versions are cel-go tags (``"v0.22.0"``); Kubernetes pins (``k8s.io/apiserver`` ``go.mod``): 1.30 v0.17.8,
1.31 v0.20.1, 1.32 v0.22.0, 1.33 v0.23.2, 1.34–1.36 v0.26.0, 1.37 (v0.37.0-beta.0) v0.27.0.
"""

from __future__ import annotations

import functools

__all__ = ["BEHAVIOURS", "DEFAULT", "VERSIONS", "has", "version_key"]

#: The cel-go versions a Kubernetes release 1.30 … 1.37 pins, oldest first.
VERSIONS: tuple[str, ...] = ("v0.17.8", "v0.20.1", "v0.22.0", "v0.23.2", "v0.26.0", "v0.27.0")

#: The version of an environment that names none (the newest; Kubernetes 1.37's).
DEFAULT = "v0.27.0"

#: behaviour -> (first version that has it, first version that no longer has it); None: unbounded. Each entry
#: cites the cel-go source at the tags where it changes (``path@tag``).
BEHAVIOURS: dict[str, tuple[str | None, str | None]] = {
    # parser/parser.go@v0.23.2 NewParser: p.enableHiddenAccumulatorName = true (accumulator "@result"); before,
    # "__result__", readable from the loop body; parser/macro.go@v0.23.2 makeQuantifier/MakeMap/MakeFilter add
    # "iteration variable overwrites accumulator variable" (ext/comprehensions.go has it from v0.22.0)
    "hidden_accumulator": ("v0.23.2", None),
    # parser/macro.go@v0.23.0: ExistsOneMacroNew (two-argument `existsOne`), in parser.AllMacros only
    "exists_one_macro_new": ("v0.23.2", None),
    # parser/errors.go@v0.22.0 syntaxError: ReportErrorAtID(0, l, fmt.Sprintf("Syntax error: %s", message)) formats
    # ANTLR's message a second time without arguments; @v0.23.2 passes it as an argument
    "syntax_error_sprintf": (None, "v0.23.2"),
    # parser/gen/CEL.g4@v0.23.2: ESC_IDENTIFIER token and the escapeIdent rule (field names, selections)
    "escaped_identifier_grammar": ("v0.23.2", None),
    # parser/unescape.go@v0.23.2: `!utf8.ValidRune(v)` -> "invalid unicode code point"; before `v > utf8.MaxRune`
    # -> "unable to unescape string" and surrogates accepted (as U+FFFD)
    "unescape_valid_rune": ("v0.23.2", None),
    # common/ast/ast.go@v0.22.0 GetLocationByOffset (`lineOffset > offset`); @v0.20.1 GetStartLocation and
    # checker/checker.go locationByID@v0.17.8 test `lineOffset < offset`: a node at column 0 of line k >= 2 is
    # reported one past the end of line k-1 (checker and AST-validator errors)
    "location_strict_lt_checker": (None, "v0.22.0"),
    # @v0.20.1 only: the parser's own (non-ANTLR) errors also go through the strict `<` (parser/helper.go
    # getLocation via ast.SourceInfo.GetStartLocation); @v0.17.8 they use source.OffsetLocation
    "location_strict_lt_parser": ("v0.20.1", "v0.22.0"),
    # an empty source: @v0.22.0+ GetLocationByOffset reports column 0 (`1:0`), before `1:1`
    "empty_source_column_zero": ("v0.22.0", None),
    # cel/library.go@v0.23.2 optionalLib version 2: first(), last(), optional.unwrap(), unwrapOpt()
    "optional_v2": ("v0.23.2", None),
    # common/types/optional.go@v0.20.1: OptionalType = NewOpaqueType("optional_type"); @v0.17.8 "optional"
    "optional_type_name": ("v0.20.1", None),
    # checker/env.go LookupIdent@v0.20.1: types registered with cel.Types resolve as identifiers
    # (provider.FindIdent); @v0.17.8 only declared identifiers, struct types and enums
    "type_idents_from_provider": ("v0.20.1", None),
    # ext/strings.go@v0.20.1: cel.ASTValidators(stringFormatValidator{}) (format strings checked at compile time)
    "string_format_validator": ("v0.20.1", None),
    # ext/formatting.go@v0.20.1 matchConstantFormatStringWithListLiteralArgs: `Kind() != LiteralKind &&
    # AsLiteral().Type() != StringType` dereferences nil for a non-literal receiver (a panic in env.Compile);
    # badfce05 (v0.21.0) makes it `||`
    "format_validator_nonliteral_panic": ("v0.20.1", "v0.22.0"),
    # cel/validator.go@v0.20.1 inExemptFunction climbs every ancestor; @v0.17.8 only list/map literal parents
    "format_exempt_any_ancestor": ("v0.20.1", None),
    # checker/checker.go@v0.22.0 checkComprehension: a two-variable comprehension over dyn/error or a
    # non-iterable range leaves the second variable's type nil (formatted as ''); fixed by 933f926a (v0.23.0)
    "two_var_nil_second_type": ("v0.22.0", "v0.23.2"),
    # interpreter/interpretable.go@v0.22.0 evalFold.Eval: a two-variable fold tests the range kind before
    # errors ("unsupported comprehension range type: *types.Err"); @v0.23.2 returns the error first
    "two_var_error_range": ("v0.22.0", "v0.23.2"),
    # checker/cost.go@v0.23.2: sizes of literals' entries, comprehension variables and results, dyn(x),
    # optional-of-scalar, local variables (#1104, #1113, #1119); before: the v0.17.8 model
    "cost_size_propagation": ("v0.23.2", None),
    # interpreter/runtimecost.go@v0.23.2 actualSize: a present optional has its value's size (before: 1)
    "actual_size_unwraps_optional": ("v0.23.2", None),
    # cel/library.go, ext/guards.go@v0.23.2: types.NewErrFromString(err.Error()); before types.NewErr(err.Error())
    # formats the text a second time (`%d` -> `%!d(MISSING)`)
    "runtime_error_sprintf": (None, "v0.23.2"),
    # ext/strings.go@v0.22.0 indexOfOffset/lastIndexOfOffset: an offset >= len returns -1; before
    # "index out of range: N"
    "strings_offset_past_end_minus_one": ("v0.22.0", None),
    # ext/strings.go@v0.26.0 lastIndexOf: `len(str) < len(substr)` -> -1 (an empty receiver was
    # "index out of range: -1")
    "last_index_of_short_receiver": ("v0.26.0", None),
    # checker/cost.go@v0.26.0 costCall: estimators get a nil target for global calls (before: a pointer to an
    # empty node). Recorded, not consulted: the one estimator crdtool ports that tested the target of global
    # calls (apiserver pkg/cel/library/cost.go: `quantity`, `isIP`, `cidr`, `validate`, … behind
    # `target != nil` at v0.33.0) tests `len(args) >= 1` from v0.34.0, the release that took cel-go v0.26.0,
    # so every release estimates those calls alike (library_cost.py).
    "global_call_target_nil": ("v0.26.0", None),
    # checker/env.go@v0.27.0 resolveSimpleIdent/resolveQualifiedIdent, checker/checker.go checkIdent/checkSelect,
    # interpreter/attributes.go absoluteAttribute.Resolve (3cb57058 "Namespace resolution fix", #1256; fe26efa8):
    # a comprehension variable wins over the container-qualified candidates of its name; `.x` names the global x
    # even where a local x hides it (the reference is `.x`, read from the expression's input, past the
    # comprehensions); `a.b` with a local `a` is a field selection, never the global `a.b`. Before
    # (Env.LookupIdent@v0.26.0): each candidate name in turn (`container.x` first), locals then globals, so a
    # local hid `.x` and a global `a.b` won over the local `a`.
    "namespace_resolution_v027": ("v0.27.0", None),
}


@functools.lru_cache(maxsize=None)
def version_key(version: str) -> tuple[int, ...]:
    """``"v0.22.0"`` -> ``(0, 22, 0)``; ValueError for anything else."""
    parts = version.strip().lstrip("v").split(".")
    try:
        return tuple(int(p) for p in parts)
    except ValueError:
        raise ValueError(f"not a cel-go version: {version!r}") from None


@functools.lru_cache(maxsize=None)
def has(version: str, behaviour: str) -> bool:
    """Whether cel-go ``version`` has ``behaviour`` (a key of :data:`BEHAVIOURS`; KeyError otherwise)."""
    since, until = BEHAVIOURS[behaviour]
    v = version_key(version)
    if since is not None and v < version_key(since):
        return False
    return until is None or v < version_key(until)
