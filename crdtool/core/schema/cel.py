"""Static checks of CEL expressions (``x-kubernetes-validations`` rules and messageExpressions).

Upstream compiles each rule with cel-go in a Kubernetes environment whose
``self``/``oldSelf`` variables are typed from the structural schema
(``pkg/apiserver/schema/cel/compilation.go`` ``compileRule``). We have no
cel-go; this module parses with the CEL grammar shipped by ``cel-python``
(``celpy``, lark-based) and reproduces the checks that need no types:

* syntax (cel-go would say ``Syntax error: ...``; our wording after that
  prefix comes from lark, not ANTLR, so it differs from upstream's);
* macro misuse (``invalid argument to has() macro``, ``argument must be a
  simple name``);
* references to undeclared variables and unknown functions
  (``undeclared reference to 'x' (in container '')``), with cel-go's
  location conventions (identifier token, or the ``(`` of a call);
* cel-go's literal validators: ``invalid matches argument`` (Go regexp),
  ``invalid duration argument``, ``invalid timestamp argument``;
* results that are obviously not ``bool`` (rule) or not ``string``
  (messageExpression): literals, arithmetic, comparisons;
* whether the rule references ``oldSelf`` (for the transition-rule checks).

Issues are rendered as cel-go's ``Issues.String()``: one
``ERROR: <input>:LINE:COL: MESSAGE`` line per issue plus the source snippet
and a caret line, sorted by location.

What upstream also checks and we cannot: type checking against the schema
(``undefined field 'x'``, ``found no matching overload for ...``), result
types of field selections and calls, and cost estimation
(``estimated rule cost exceeds budget ...``).

Everything is cached by expression text; the parser (built from celpy's
grammar file) is created lazily on first use.
"""

from __future__ import annotations

import functools
import re
import threading
from dataclasses import dataclass
from typing import Any

__all__ = [
    "CelCheck",
    "check_expression",
    "compile_message_expression",
    "compile_rule",
    "uses_old_self",
]

#: cel-go's default ``ExpressionSizeCodePointLimit``.
EXPRESSION_SIZE_LIMIT = 100_000
#: cel-go's default parser ``MaxRecursionDepth``; deeper nesting is refused.
MAX_RECURSION_DEPTH = 250

_ROOT_IDENTS = frozenset(
    {
        "self", "oldSelf",
        # type identifiers usable in expressions, e.g. type(x) == string
        "int", "uint", "double", "bool", "string", "bytes", "list", "map",
        "null_type", "type", "dyn", "optional_type", "google",
    }
)

# Every function (global or member) declared in the Kubernetes CEL base
# environment at any version, plus cel-go's standard library. Generous on
# purpose: an unknown name here is a certain error upstream.
_FUNCTIONS = frozenset(
    """
    size contains endsWith startsWith matches int uint double string bytes bool duration timestamp dyn type
    getDate getDayOfMonth getDayOfWeek getDayOfYear getFullYear getHours getMilliseconds getMinutes getMonth
    getSeconds has all exists exists_one map filter existsOne transformList transformMap transformMapEntry
    hasValue value or orValue optMap optFlatMap
    charAt indexOf lastIndexOf lowerAscii upperAscii replace split substring trim join format reverse quote
    isSorted sum min max slice flatten sort sortBy distinct first last
    find findAll url isURL getScheme getHost getHostname getPort getEscapedPath getQuery
    path group serviceAccount resource subresource namespace name check allowed reason errored error
    fieldSelector labelSelector authorizer
    quantity isQuantity sign isGreaterThan isLessThan compareTo add sub asInteger asApproximateFloat isInteger
    ip isIP isCanonical family isUnspecified isLoopback isLinkLocalMulticast isLinkLocalUnicast isGlobalUnicast
    cidr isCIDR containsIP containsCIDR masked prefixLength
    validate named semver isSemver major minor patch
    """.split()
)

# Functions reachable only under a namespace (``ns.fn(...)``).
_NAMESPACED_FUNCTIONS = frozenset(
    """
    optional.of optional.ofNonZeroValue optional.none optional.unwrap
    strings.quote sets.contains sets.equivalent sets.intersects lists.range
    base64.encode base64.decode cel.bind cel.block cel.index cel.iterVar cel.accuVar
    ip.isCanonical
    math.greatest math.least math.ceil math.floor math.round math.trunc math.abs math.sign math.isNaN
    math.isInf math.isFinite math.bitAnd math.bitOr math.bitXor math.bitNot math.bitShiftLeft
    math.bitShiftRight math.sqrt
    format.dns1123Label format.dns1123Subdomain format.dns1035Label format.qualifiedName
    format.dns1123LabelPrefix format.dns1123SubdomainPrefix format.dns1035LabelPrefix format.labelValue
    format.uri format.uuid format.byte format.date format.datetime format.named
    """.split()
)


def _comprehension_vars(fname: str, nargs: int) -> int:
    """How many iteration variables a member-call macro binds (0: not a macro)."""
    if fname in ("all", "exists", "exists_one", "filter", "optMap", "optFlatMap") and nargs == 2:
        return 1
    if fname == "map" and nargs in (2, 3):
        return 1
    if fname in ("all", "exists", "existsOne") and nargs == 3:
        return 2
    if fname in ("transformList", "transformMap", "transformMapEntry") and nargs in (3, 4):
        return 2
    return 0


# Result kinds of well-known calls, for the "must evaluate to" checks.
_CALL_RESULT = {
    **dict.fromkeys(
        "size int uint double bytes duration timestamp indexOf lastIndexOf quantity split getHours getMinutes "
        "getSeconds getMilliseconds getFullYear getMonth getDayOfMonth getDayOfWeek getDayOfYear getDate".split(),
        "other",
    ),
    **dict.fromkeys("string lowerAscii upperAscii trim replace substring join charAt".split(), "string"),
    **dict.fromkeys("contains startsWith endsWith matches has all exists exists_one isSorted".split(), "bool"),
}

_ARITHMETIC = frozenset({"+", "-", "*", "/", "%", "neg"})
_BOOLEAN_OPS = frozenset({"==", "!=", "<", "<=", ">", ">=", "in", "&&", "||", "!"})

_VALID_ESCAPES = frozenset("abfnrtv\"'\\?`")


@dataclass(frozen=True)
class CelCheck:
    """The static check of one expression.

    Attributes:
        issues: cel-go ``Issues.String()`` text, or ``""`` when none were found.
        result: ``"bool"``, ``"string"``, ``"other"`` (known not to be bool
            nor string: a number, list, map, bytes, null), ``"non-bool"``
            (arithmetic, possibly a string), or ``None`` when unknown.
        uses_old_self: the expression references the variable ``oldSelf``.
    """

    issues: str
    result: str | None
    uses_old_self: bool


# --- the parser ---------------------------------------------------------------

_PARSER: Any = None
_PARSER_LOCK = threading.Lock()


def _parser() -> Any:
    """A lark LALR parser of celpy's CEL grammar that keeps punctuation tokens."""
    global _PARSER
    if _PARSER is None:
        with _PARSER_LOCK:
            if _PARSER is None:
                import importlib.resources

                import lark
                from celpy.celparser import CELParser

                grammar = importlib.resources.files("celpy").joinpath("cel.lark").read_text()
                _PARSER = lark.Lark(
                    grammar,
                    parser="lalr",
                    start="expr",
                    keep_all_tokens=True,
                    maybe_placeholders=False,
                    priority="invert",
                    g_regex_flags=re.M,
                    lexer_callbacks={"IDENT": CELParser.ambiguous_literals},
                )
    return _PARSER


# --- issue rendering ------------------------------------------------------------


@dataclass(frozen=True)
class _Issue:
    line: int  # 1-based; -1 for "no location"
    col: int  # 0-based, in code points
    message: str


def _render(source: str, issues: list[_Issue]) -> str:
    """cel-go ``Errors.ToDisplayString``: sorted by location, with snippet and caret."""
    lines = source.split("\n")
    out = []
    for iss in sorted(issues, key=lambda i: (i.line, i.col)):
        text = f"ERROR: <input>:{iss.line}:{iss.col + 1}: {iss.message}"
        if 1 <= iss.line <= len(lines):
            snippet = lines[iss.line - 1].replace("\t", " ")
            ind = "".join("\uff0e" if len(ch.encode("utf-8")) > 1 else "." for ch in snippet[: iss.col])
            at = snippet[iss.col : iss.col + 1]
            ind += "\uff3e" if at and len(at.encode("utf-8")) > 1 else "^"
            text += f"\n | {snippet}\n | {ind}"
        out.append(text)
    return "\n".join(out)


# --- preprocessing ----------------------------------------------------------------

_STRING_START = re.compile(r"""[rRbB]{0,2}(\"\"\"|'''|"|')""")


def _scan_strings(src: str) -> tuple[str, list[_Issue]]:
    """Blank optional-syntax ``?`` markers and check string escapes.

    celpy's grammar predates CEL optionals (``a.?b``, ``m[?k]``, ``[?x]``,
    ``{?k: v}``), which the Kubernetes environment enables; a ``?`` right
    after ``.``, ``[``, ``{`` or ``,`` can only be such a marker, so it is
    replaced by a space (keeping columns). celpy also accepts invalid escapes
    such as ``'\\d'`` that cel-go's lexer rejects.
    """
    chars = list(src)
    issues: list[_Issue] = []
    i, n = 0, len(src)
    prev = ""
    line, line_start = 1, 0
    while i < n:
        ch = src[i]
        if ch == "\n":
            line, line_start = line + 1, i + 1
        if ch == "/" and src.startswith("//", i):
            end = src.find("\n", i)
            i = n if end < 0 else end
            continue
        m = _STRING_START.match(src, i) if ch in "\"'rRbB" else None
        if m and (ch in "\"'" or not (prev.isalnum() or prev == "_")):
            quote = m.group(1)
            raw = "r" in m.group(0)[: -len(quote)].lower()
            j = m.end()
            start = i
            while j < n and not src.startswith(quote, j):
                if src[j] == "\\" and not raw:
                    nxt = src[j + 1 : j + 2]
                    if nxt and not (nxt in _VALID_ESCAPES or nxt in "xuU" or nxt.isdigit()):
                        issues.append(
                            _Issue(line, start - line_start, f"Syntax error: token recognition error at: '{src[start:j + 2]}'")
                        )
                    j += 2
                    continue
                j += 1
            i = j + len(quote)
            prev = quote[0]
            continue
        if ch == "?" and prev in (".", "[", "{", ","):
            chars[i] = " "
        if not ch.isspace():
            prev = ch
        i += 1
    return "".join(chars), issues


def _nesting_depth(src: str) -> int:
    depth = best = 0
    for ch in src:
        if ch in "([{":
            depth += 1
            best = max(best, depth)
        elif ch in ")]}":
            depth -= 1
    return best


# --- lark tree -> compact AST -----------------------------------------------------
#
# Nodes are tuples:
#   ("ident", name, tok)              ("lit", kind, text, tok)
#   ("select", operand, field, tok)   ("call", target|None, fname, args, tok)
#   ("index", operand, index, tok)    ("list", elems, tok)   ("map", values, tok)
#   ("msg", typename, values, tok)    ("op", op, args, tok)
# where tok is the lark Token whose position cel-go uses for the expression.

_LIT_KIND = {
    "INT_LIT": "int", "UINT_LIT": "uint", "FLOAT_LIT": "double", "STRING_LIT": "string",
    "MLSTRING_LIT": "string", "BYTES_LIT": "bytes", "BOOL_LIT": "bool", "NULL_LIT": "null",
}
_PASS_THROUGH = frozenset(
    {"expr", "conditionalor", "conditionaland", "relation", "addition", "multiplication", "unary", "member", "primary"}
)


def _convert(tree: Any) -> Any:
    """Iterative post-order conversion of the lark parse tree."""
    from lark import Token, Tree

    done: dict[int, Any] = {}
    stack: list[tuple[Any, bool]] = [(tree, False)]
    while stack:
        node, expanded = stack.pop()
        if not expanded:
            stack.append((node, True))
            stack.extend((c, False) for c in node.children if isinstance(c, Tree))
            continue
        kids = [done.pop(id(c)) if isinstance(c, Tree) else c for c in node.children]
        done[id(node)] = _convert_node(node.data, kids, Token)
    return done[id(tree)]


def _exprs(kids: list[Any], token_cls: Any) -> list[Any]:
    return [k for k in kids if not isinstance(k, token_cls)]


def _convert_node(rule: str, kids: list[Any], token_cls: Any) -> Any:  # noqa: C901 - a dispatch table
    toks = [k for k in kids if isinstance(k, token_cls)]
    subs = _exprs(kids, token_cls)
    if rule in _PASS_THROUGH:
        if len(kids) == 1:
            return kids[0]
        if rule == "expr":  # a ? b : c
            return ("op", "?:", subs, toks[0])
        if rule in ("conditionalor", "conditionaland"):
            return ("op", toks[0].value, subs, toks[0])
        if rule == "unary":  # [("opmark", op, tok), operand]
            mark, operand = subs
            return ("op", mark[1], [operand], mark[2])
        # relation/addition/multiplication: [("binleft", op, left, tok), right]
        left, right = subs
        return ("op", left[1], [left[2], right], left[3])
    if rule.startswith(("relation_", "addition_", "multiplication_")):
        return ("binleft", toks[0].value, subs[0], toks[0])
    if rule == "unary_not":
        return ("opmark", "!", toks[0])
    if rule == "unary_neg":
        return ("opmark", "neg", toks[0])
    if rule == "literal":
        tok = toks[0]
        return ("lit", _LIT_KIND.get(tok.type, "unknown"), tok.value, tok)
    if rule == "ident":
        return ("ident", toks[0].value, toks[0])
    if rule == "dot_ident":
        return ("ident", "." + toks[1].value, toks[1])
    if rule in ("ident_arg", "dot_ident_arg"):
        idents = [t for t in toks if t.type == "IDENT"]
        prefix = "." if rule == "dot_ident_arg" else ""
        open_tok = next(t for t in toks if t.value == "(")
        return ("call", None, prefix + idents[0].value, subs[0] if subs else [], open_tok)
    if rule == "member_dot":
        return ("select", subs[0], toks[-1].value, toks[0])
    if rule == "member_dot_arg":
        ident = next(t for t in toks if t.type == "IDENT")
        open_tok = next(t for t in toks if t.value == "(")
        args = subs[1] if len(subs) > 1 else []
        return ("call", subs[0], ident.value, args, open_tok)
    if rule == "member_index":
        return ("index", subs[0], subs[1], toks[0])
    if rule == "member_object":
        values = subs[1] if len(subs) > 1 else []
        return ("msg", subs[0], values, toks[0])
    if rule == "paren_expr":
        return subs[0]
    if rule == "list_lit":
        return ("list", subs[0] if subs else [], toks[0])
    if rule == "map_lit":
        return ("map", subs[0] if subs else [], toks[0])
    if rule in ("exprlist", "mapinits"):
        return subs
    if rule == "fieldinits":
        return subs  # field names are tokens; only the values are expressions
    return ("unknown", rule, toks[0] if toks else None)  # pragma: no cover


def _pos(node: Any) -> tuple[int, int]:
    """(line, 0-based column) cel-go reports for an expression."""
    tok = node[-1]
    if tok is None:  # pragma: no cover
        return (-1, -1)
    return (tok.line, tok.column - 1)


# --- analysis ---------------------------------------------------------------------


def _qualified_name(node: Any) -> str | None:
    """``a.b.c`` for a select chain of identifiers, else None."""
    parts = []
    while node[0] == "select":
        parts.append(node[2])
        node = node[1]
    if node[0] != "ident":
        return None
    parts.append(node[1])
    return ".".join(reversed(parts))


def _root_ident(node: Any) -> str | None:
    while node[0] == "select":
        node = node[1]
    return node[1] if node[0] == "ident" else None


class _Analysis:
    def __init__(self) -> None:
        self.parse_issues: list[_Issue] = []
        self.check_issues: list[_Issue] = []
        self.literal_issues: list[_Issue] = []
        self.uses_old_self = False

    def issue(self, bucket: list[_Issue], node: Any, msg: str) -> None:
        line, col = _pos(node)
        bucket.append(_Issue(line, col, msg))

    def walk(self, root: Any) -> None:
        stack: list[tuple[Any, frozenset[str]]] = [(root, frozenset())]
        while stack:
            node, bound = stack.pop()
            kind = node[0]
            if kind == "ident":
                self._ident(node, bound)
            elif kind == "lit":
                continue
            elif kind == "select":
                stack.append((node[1], bound))
            elif kind == "index":
                stack.extend([(node[1], bound), (node[2], bound)])
            elif kind in ("list", "map"):
                stack.extend((x, bound) for x in node[1])
            elif kind == "msg":
                stack.extend((x, bound) for x in node[2])
            elif kind == "op":
                stack.extend((x, bound) for x in node[2])
            elif kind == "call":
                stack.extend(self._call(node, bound))

    def _ident(self, node: Any, bound: frozenset[str]) -> None:
        name = node[1].lstrip(".")
        if name in bound:
            return
        if name == "oldSelf":
            self.uses_old_self = True
        if name not in _ROOT_IDENTS:
            self.issue(self.check_issues, node, f"undeclared reference to '{name}' (in container '')")

    def _call(self, node: Any, bound: frozenset[str]) -> list[tuple[Any, frozenset[str]]]:
        _, target, fname, args, _tok = node
        if target is None:
            return self._global_call(node, bound)
        nvars = _comprehension_vars(fname, len(args))
        if nvars:
            return self._comprehension(target, args, nvars, bound)
        qname = _qualified_name(target)
        if qname is not None and _root_ident(target) not in bound:
            full = f"{qname}.{fname}"
            if full == "cel.bind" and len(args) == 3:
                return self._bind(args, bound)
            if full in _NAMESPACED_FUNCTIONS:
                return [(a, bound) for a in args]
        if fname not in _FUNCTIONS:
            self.issue(self.check_issues, node, f"undeclared reference to '{fname}' (in container '')")
        self._literal_arg(fname, args)
        return [(target, bound)] + [(a, bound) for a in args]

    def _global_call(self, node: Any, bound: frozenset[str]) -> list[tuple[Any, frozenset[str]]]:
        _, _target, fname, args, _tok = node
        name = fname.lstrip(".")
        if name == "has" and len(args) == 1:
            if args[0][0] != "select":
                self.issue(self.parse_issues, args[0], "invalid argument to has() macro")
                return []
            return [(args[0][1], bound)]
        if name not in _FUNCTIONS and name not in _NAMESPACED_FUNCTIONS:
            self.issue(self.check_issues, node, f"undeclared reference to '{name}' (in container '')")
        self._literal_arg(name, args)
        return [(a, bound) for a in args]

    def _comprehension(
        self, target: Any, args: list[Any], nvars: int, bound: frozenset[str]
    ) -> list[tuple[Any, frozenset[str]]]:
        names = []
        for a in args[:nvars]:
            if a[0] != "ident" or a[1].startswith("."):
                self.issue(self.parse_issues, a, "argument must be a simple name")
                return [(target, bound)]
            names.append(a[1])
        inner = bound | frozenset(names)
        return [(target, bound)] + [(a, inner) for a in args[nvars:]]

    def _bind(self, args: list[Any], bound: frozenset[str]) -> list[tuple[Any, frozenset[str]]]:
        var, init, body = args
        if var[0] != "ident":
            self.issue(self.parse_issues, var, "cel.bind() variable names must be simple identifiers")
            return []
        return [(init, bound), (body, bound | {var[1]})]

    def _literal_arg(self, fname: str, args: list[Any]) -> None:
        """cel-go's ``ValidateRegexLiterals``/``ValidateDurationLiterals``/``ValidateTimestampLiterals``."""
        if fname not in ("matches", "duration", "timestamp") or not args:
            return
        lit = args[0]
        if lit[0] != "lit" or lit[1] != "string":
            return
        value = _string_value(lit[2])
        if value is None:
            return
        if fname == "matches":
            from crdtool.core.schema.structural import go_regexp_error

            bad = go_regexp_error(value) is not None
        elif fname == "duration":
            bad = not _is_go_duration(value)
        else:
            bad = not _is_rfc3339(value)
        if bad:
            self.issue(self.literal_issues, lit, f"invalid {fname} argument")


# --- literal helpers ------------------------------------------------------------------

_SIMPLE_ESCAPES = {"a": "\a", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v",
                   '"': '"', "'": "'", "\\": "\\", "?": "?", "`": "`"}


def _string_value(text: str) -> str | None:
    """The value of a CEL string literal token, or None if it cannot be decoded."""
    raw = False
    while text and text[0] in "rR":
        raw, text = True, text[1:]
    for q in ('"""', "'''", '"', "'"):
        if text.startswith(q) and text.endswith(q) and len(text) >= 2 * len(q):
            body = text[len(q) : -len(q)]
            break
    else:
        return None
    if raw:
        return body
    out: list[str] = []
    i = 0
    while i < len(body):
        ch = body[i]
        if ch != "\\":
            out.append(ch)
            i += 1
            continue
        nxt = body[i + 1 : i + 2]
        if nxt in _SIMPLE_ESCAPES:
            out.append(_SIMPLE_ESCAPES[nxt])
            i += 2
        elif nxt in ("x", "u", "U"):
            width = {"x": 2, "u": 4, "U": 8}[nxt]
            digits = body[i + 2 : i + 2 + width]
            try:
                out.append(chr(int(digits, 16)))
            except ValueError:
                return None
            i += 2 + width
        elif nxt.isdigit():
            try:
                out.append(chr(int(body[i + 1 : i + 4], 8)))
            except ValueError:
                return None
            i += 4
        else:
            return None
    return "".join(out)


_DURATION = re.compile(r"[-+]?(?:(?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|\u00b5s|\u03bcs|ms|s|m|h))+")


def _is_go_duration(s: str) -> bool:
    """Go ``time.ParseDuration`` syntax (range limits not checked)."""
    return s in ("0", "+0", "-0") or _DURATION.fullmatch(s) is not None


_RFC3339 = re.compile(r"(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-](\d{2}):(\d{2}))")


def _is_rfc3339(s: str) -> bool:
    """Go ``time.Parse(time.RFC3339, s)`` acceptance."""
    import calendar

    m = _RFC3339.fullmatch(s)
    if m is None:
        return False
    year, month, day, hour, minute, sec = (int(m.group(i)) for i in range(1, 7))
    if not 1 <= month <= 12 or not 1 <= day <= calendar.monthrange(year, month)[1]:
        return False
    if hour > 23 or minute > 59 or sec > 59:
        return False
    if m.group(9) is not None and (int(m.group(9)) > 23 or int(m.group(10)) > 59):
        return False
    return True


# --- result kind ------------------------------------------------------------------------


def _result_kind(node: Any) -> str | None:
    """``bool``, ``string``, ``other`` (neither), ``non-bool`` (maybe a string) or None (unknown)."""
    kind = node[0]
    if kind == "lit":
        return {"bool": "bool", "string": "string"}.get(node[1], "other")
    if kind in ("list", "map"):
        return "other"
    if kind == "op":
        if node[1] in _BOOLEAN_OPS:
            return "bool"
        return "non-bool" if node[1] in _ARITHMETIC else None
    if kind == "call" and not (node[1] is not None and _qualified_name(node[1]) in ("cel", "optional", "math", "format", "sets", "strings", "lists", "base64")):
        return _CALL_RESULT.get(node[2].lstrip("."))
    return None


# --- public API ---------------------------------------------------------------------------


@functools.lru_cache(maxsize=16384)
def check_expression(expression: str) -> CelCheck:
    """Parse and statically check a CEL expression (cached by text).

    In: the expression text. Out: a :class:`CelCheck`. Never raises.
    Mirrors the parse and check phases of cel-go's ``Env.Compile`` as used by
    upstream ``compileRule`` (see the module docstring for what is not checked).
    """
    n = len(expression)
    if n > EXPRESSION_SIZE_LIMIT:
        msg = f"ERROR: <input>:-1:0: expression code point size exceeds limit: size: {n}, limit {EXPRESSION_SIZE_LIMIT}"
        return CelCheck(msg, None, False)
    if _nesting_depth(expression) > MAX_RECURSION_DEPTH:
        return CelCheck("ERROR: <input>:-1:0: max recursion depth exceeded", None, False)
    prepared, escape_issues = _scan_strings(expression)
    if escape_issues:
        return CelCheck(_render(expression, escape_issues), None, False)
    from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

    try:
        tree = _parser().parse(prepared)
    except UnexpectedToken as e:
        return CelCheck(_render(expression, [_syntax_issue(expression, e)]), None, False)
    except UnexpectedCharacters as e:
        pos = e.pos_in_stream if e.pos_in_stream is not None else -1
        char = expression[pos] if 0 <= pos < n else ""
        issue = _Issue(e.line, e.column - 1, f"Syntax error: token recognition error at: '{char}'")
        return CelCheck(_render(expression, [issue]), None, False)
    except UnexpectedInput as e:  # pragma: no cover - other lark failures
        return CelCheck(_render(expression, [_Issue(getattr(e, "line", 1), 0, "Syntax error: " + str(e))]), None, False)
    ast = _convert(tree)
    analysis = _Analysis()
    analysis.walk(ast)
    if analysis.parse_issues:
        return CelCheck(_render(expression, analysis.parse_issues), None, False)
    if analysis.check_issues:
        return CelCheck(_render(expression, analysis.check_issues), None, False)
    if analysis.literal_issues:
        return CelCheck(_render(expression, analysis.literal_issues), None, False)
    return CelCheck("", _result_kind(ast), analysis.uses_old_self)


def _syntax_issue(source: str, e: Any) -> _Issue:
    tok = e.token
    if tok.type == "$END":
        lines = source.split("\n")
        return _Issue(len(lines), len(lines[-1]), "Syntax error: mismatched input '<EOF>'")
    return _Issue(tok.line, tok.column - 1, f"Syntax error: mismatched input '{tok.value}'")


def compile_rule(expression: str) -> str | None:
    """Upstream ``compileRule``'s error detail for a rule, or ``None`` if it compiles (as far as we can tell).

    In: the rule text (non-blank). Out: ``"compilation failed: ERROR: <input>:..."``
    or ``"cel expression must evaluate to a bool"`` or ``None``.
    Upstream: ``pkg/apiserver/schema/cel/compilation.go`` ``compileRule``.
    """
    check = check_expression(expression)
    if check.issues:
        return "compilation failed: " + check.issues
    if check.result in ("string", "other", "non-bool"):
        return "cel expression must evaluate to a bool"
    return None


def compile_message_expression(expression: str) -> str | None:
    """Upstream ``compileRule``'s messageExpression error detail, or ``None``.

    Out: ``"messageExpression compilation failed: ERROR: ..."`` or
    ``"messageExpression must evaluate to a string"`` or ``None``.
    """
    check = check_expression(expression)
    if check.issues:
        return "messageExpression compilation failed: " + check.issues
    if check.result in ("bool", "other"):
        return "messageExpression must evaluate to a string"
    return None


def uses_old_self(expression: str) -> bool:
    """Whether a rule that compiles references ``oldSelf`` (upstream ``CompilationResult.UsesOldSelf``)."""
    return check_expression(expression).uses_old_self
