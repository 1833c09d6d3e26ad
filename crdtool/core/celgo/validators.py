"""cel-go's AST validators, which an environment runs after type checking.

Mirrors cel-go v0.26.0 ``cel/validator.go``: ``ValidateHomogeneousAggregateLiterals``
(list and map literals whose elements' types differ, the ``format`` function's
arguments exempt), ``ValidateDurationLiterals``, ``ValidateTimestampLiterals``
and ``ValidateRegexLiterals`` (a literal argument that does not evaluate or
compile: ``invalid duration argument`` ...), registered in this order by
``k8s.io/apiserver/pkg/cel/environment/base.go``; and ``ext/formatting.go``'s
``stringFormatValidator`` (``ext.Strings`` version 2): a literal format
string with a literal argument list is checked clause by clause.

Each validator visits the checked tree in post-order (``ast.MatchDescendants``)
and reports at the offending expression's position.
"""

from __future__ import annotations


from crdtool.core.celgo import ast as A
from crdtool.core.celgo import types as T
from crdtool.core.celgo.checker import CheckedAst, legacy_type_names
from crdtool.core.celgo.version import DEFAULT as DEFAULT_CEL_GO
from crdtool.core.celgo.version import has
from crdtool.core.gostd import go_regexp_error
from crdtool.core.gotime import go_parse_duration, rfc3339_instant, rfc3339_parse_error

__all__ = ["validate"]

_MIN_UNIX_TIME = -62135596800
_MAX_UNIX_TIME = 253402300799


def _parents(nodes: list[A.Expr]) -> dict[int, A.Expr]:
    """Each node's parent, by the node's ``id``, among ``nodes`` (a whole tree)."""
    out: dict[int, A.Expr] = {}
    for node in nodes:
        for child in _children(node):
            out[id(child)] = node
    return out


def _children(node: A.Expr) -> list[A.Expr]:
    k = node.kind
    if k == A.CALL:
        return ([node.target] if node.target is not None else []) + list(node.args)
    if k == A.COMPREHENSION:
        return [c for c in (node.iter_range, node.accu_init, node.loop_condition, node.loop_step, node.result) if c]
    if k == A.LIST:
        return list(node.args)
    if k == A.MAP:
        out: list[A.Expr] = []
        for en in node.entries:
            assert en.key is not None
            out.extend((en.key, en.value))
        return out
    if k == A.SELECT:
        return [node.operand] if node.operand is not None else []
    if k == A.STRUCT:
        return [en.value for en in node.entries]
    return []


class _Reporter:
    def __init__(self, checked: CheckedAst, cel_go: str = DEFAULT_CEL_GO) -> None:
        self.checked = checked
        self.cel_go = cel_go
        self.issues: list[A.Issue] = []

    def at(self, expr_id: int, message: str) -> None:
        line, col = self.checked.info.start_location(expr_id)
        self.issues.append(A.Issue(line, col, legacy_type_names(message, self.cel_go), expr_id))


# --- homogeneous aggregate literals ---------------------------------------------------------------


def _homogeneous(checked: CheckedAst, rep: _Reporter, exempt: tuple[str, ...], any_ancestor: bool = True,
                 nodes: list[A.Expr] | None = None) -> None:
    """``any_ancestor``: ``inExemptFunction`` climbs every ancestor (cel-go v0.20.1+); before, only through list and
    map literal parents (``cel/validator.go@v0.17.8``). ``nodes``: the expression's nodes in ``post_order`` (None:
    found here)."""
    if nodes is None:
        nodes = list(A.post_order(checked.expr))
    if not any(e.kind == A.LIST or e.kind == A.MAP for e in nodes):
        return  # no aggregate literal: nothing to check
    parents = _parents(nodes) if exempt else {}

    def in_exempt(e: A.Expr) -> bool:
        p = parents.get(id(e))
        while p is not None:
            if p.kind == A.CALL and p.name in exempt:
                return True
            if not any_ancestor and p.kind not in (A.LIST, A.MAP):
                return False
            p = parents.get(id(p))
        return False

    def mismatch(eid: int, expected: T.Type, actual: T.Type) -> None:
        rep.at(eid, f"expected type '{T.format_cel_type(expected)}' but found '{T.format_cel_type(actual)}'")

    tm = checked.type_map
    for e in nodes:
        if e.kind != A.LIST or in_exempt(e):
            continue
        elem_type: T.Type | None = None
        optionals = set(e.optional_indices)
        for i, el in enumerate(e.args):
            et = tm.get(el.id, T.DYN)
            if i in optionals and et.params:
                et = et.params[0]
            if elem_type is None:
                elem_type = et
                continue
            if not T.is_equivalent_type(elem_type, et):
                mismatch(el.id, elem_type, et)
                break
    for e in nodes:
        if e.kind != A.MAP or in_exempt(e):
            continue
        key_type: T.Type | None = None
        val_type: T.Type | None = None
        for en in e.entries:
            assert en.key is not None
            kt = tm.get(en.key.id, T.DYN)
            vt = tm.get(en.value.id, T.DYN)
            if en.optional and vt.params:
                vt = vt.params[0]
            if key_type is None and val_type is None:
                key_type, val_type = kt, vt
                continue
            assert key_type is not None and val_type is not None
            if not T.is_equivalent_type(key_type, kt):
                mismatch(en.key.id, key_type, kt)
            if not T.is_equivalent_type(val_type, vt):
                mismatch(en.value.id, val_type, vt)


# --- literal format validators ---------------------------------------------------------------------


def _duration_ok(arg: A.Expr) -> bool:
    """``duration(<literal>)`` evaluates: a string Go's ``time.ParseDuration`` accepts.

    cel-go v0.26's ``Int.ConvertToType`` has no duration case, so
    ``duration(<int literal>)`` evaluates to an error and is reported too.
    """
    if arg.lit == A.LIT_STRING:
        return go_parse_duration(arg.value)
    return False


def _timestamp_ok(arg: A.Expr) -> bool:
    """``timestamp(<literal>)`` evaluates: RFC 3339 text or epoch seconds within years 1..9999."""
    if arg.lit == A.LIT_INT:
        return bool(_MIN_UNIX_TIME <= arg.value <= _MAX_UNIX_TIME)
    if arg.lit != A.LIT_STRING:
        return False
    if rfc3339_parse_error(arg.value):
        return False
    instant = rfc3339_instant(arg.value)
    return instant is None or _MIN_UNIX_TIME <= instant[0] <= _MAX_UNIX_TIME


def _regex_ok(arg: A.Expr) -> bool:
    """``regexp.Compile`` (Go's RE2 syntax) accepts the literal."""
    if not isinstance(arg.value, str):
        return True
    return go_regexp_error(arg.value) is None


def _format_validators(checked: CheckedAst, rep: _Reporter, validators: tuple[str, ...],
                       nodes: list[A.Expr] | None = None) -> None:
    """The literal arguments of ``duration``, ``timestamp`` and ``matches`` calls, as ``validators`` names them.
    ``nodes``: the expression's nodes in ``post_order`` (None: found here)."""
    checks = (("duration", _duration_ok), ("timestamp", _timestamp_ok), ("matches", _regex_ok))
    if nodes is None:
        nodes = list(A.post_order(checked.expr))
    for fn_name, ok in checks:
        if fn_name not in validators:
            continue
        for call in nodes:
            if call.kind != A.CALL or call.name != fn_name or not call.args:
                continue
            arg = call.args[0]
            if arg.kind != A.LITERAL:
                continue
            if not ok(arg):
                rep.at(arg.id, f"invalid {fn_name} argument")


def validate(checked: CheckedAst, validators: tuple[str, ...], cel_go: str = DEFAULT_CEL_GO) -> list[A.Issue]:
    """Run AST validators on a checked expression; their errors, in report order.

    ``validators`` names them (``homogeneous_literals``, ``duration``,
    ``timestamp``, ``matches``, ``string_format``); they run in the order the
    Kubernetes environment registers them. With ``string_format`` present, the
    ``format`` function's arguments are exempt from the homogeneity check, as
    ``stringFormatValidator.Configure`` arranges (cel-go v0.20.1+); cel-go v0.17.8's homogeneous validator
    exempts ``format`` itself (its own ``Configure``).
    """
    from crdtool.core.celgo.formatting import validate_format_calls

    rep = _Reporter(checked, cel_go)
    nodes = list(A.post_order(checked.expr))  # one walk for every validator: none changes the tree
    if "homogeneous_literals" in validators:
        any_ancestor = has(cel_go, "format_exempt_any_ancestor")
        exempt = ("format",) if "string_format" in validators or not any_ancestor else ()
        _homogeneous(checked, rep, exempt, any_ancestor, nodes)
    _format_validators(checked, rep, validators, nodes)
    if "string_format" in validators:
        validate_format_calls(checked, rep.at, has(cel_go, "format_validator_nonliteral_panic"), nodes)
    return rep.issues
