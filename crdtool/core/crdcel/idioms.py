"""The common idioms of ``x-kubernetes-validations`` rules, recognised and said in words.

``docs``, ``explain`` and ``lint`` describe a rule the same way: this module reads a rule's expression
(the parse tree of :func:`crdtool.core.celgo.parser.parse`, macros expanded as cel-go expands them) and,
when it is one of the idioms CRD authors write again and again, says what it means for a user of the
field. Only the exact shapes below are recognised; anything else gets ``None`` and is shown as the
expression itself (never a guess).

Transition rules (those that read ``oldSelf``) are checked by the apiserver only on updates where the
old object has the value (``pkg/apiserver/schema/cel/validation.go`` @v0.35.0, ``validateExpressions``:
``if compiled.UsesOldSelf && oldObj == nil { continue }`` unless ``optionalOldSelf``), so "immutable
once set" is exactly what ``self == oldSelf`` gives: the value may be set later (if it was absent) and,
as no rule runs when the new value is absent, removed, unless a rule on the parent forbids that.

Our own (no upstream counterpart). Pure: strings in, frozen :class:`Idiom` out.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from crdtool.core.celgo import ast as A
from crdtool.core.celgo.parser import parse

__all__ = ["Idiom", "classify_rule", "uses_old_self"]


@dataclass(frozen=True)
class Idiom:
    """A recognised rule: ``kind`` (stable kebab-case: ``immutable``, ``may-only-grow``, ...), ``text``
    (the words, a sentence fragment starting in lower case, field names in backticks) and whether it is
    a ``transition`` rule (reads ``oldSelf``)."""

    kind: str
    text: str
    transition: bool


# cel-go operator function names (common/operators/operators.go)
_EQ, _NE, _GE, _GT, _LE, _LT = "_==_", "_!=_", "_>=_", "_>_", "_<=_", "_<_"
_AND, _OR, _NOT, _COND, _ADD, _IN = "_&&_", "_||_", "!_", "_?_:_", "_+_", "@in"
_FLIP = {_GE: _LE, _GT: _LT, _LE: _GE, _LT: _GT, _EQ: _EQ, _NE: _NE}


def uses_old_self(rule: str) -> bool:
    """Does the rule's parse tree name the variable ``oldSelf`` (a transition rule)?

    Upstream decides ``UsesOldSelf`` from the type-checked reference map (``compilation.go``
    @v0.35.0); for a rule that compiles, the parse tree names the same identifier. False when the
    rule does not parse.
    """
    expr = parse(rule).expr
    return expr is not None and _mentions(expr, "oldSelf")


@lru_cache(maxsize=4096)
def classify_rule(rule: str) -> Idiom | None:
    """The idiom ``rule`` is, or None.

    In: the ``rule`` text of one ``x-kubernetes-validations`` entry. Out: an :class:`Idiom` for the
    shapes listed in this module's tests (``self == oldSelf``: "immutable once set"; ``self >= oldSelf``
    and ``size(self) >= size(oldSelf)``: "may only grow"; ``oldSelf.all(x, x in self)``: "entries may
    be added, never removed"; ``!has(oldSelf.f) || has(self.f)``: "`f` may not be removed once set";
    ``has(self.a) != has(self.b)``: "exactly one of `a` and `b`"; ``!(has(self.a) && has(self.b))``:
    "`a` and `b` are mutually exclusive"; a sum of ``has(...) ? 1 : 0`` compared with 1; ``lo <= self &&
    self <= hi``; ...), else None. Never raises (an unparsable rule is None).
    """
    expr = parse(rule).expr
    if expr is None:
        return None
    found = _classify(expr)
    if found is None:
        return None
    kind, text = found
    return Idiom(kind, text, _mentions(expr, "oldSelf"))


def _classify(e: A.Expr) -> tuple[str, str] | None:
    for matcher in (_transition, _presence, _range):
        found = matcher(e)
        if found is not None:
            return found
    return None


# --- transition rules -------------------------------------------------------------------------------


def _transition(e: A.Expr) -> tuple[str, str] | None:  # noqa: C901 - one branch per idiom
    cmp = _comparison(e, "oldSelf")
    if cmp is not None:
        op, subject = cmp
        field = _field_words(subject)
        words = {
            _EQ: ("immutable", "immutable once set"),
            _GE: ("may-only-grow", "may only grow (never decrease)"),
            _GT: ("must-increase", "must increase on every update"),
            _LE: ("may-only-shrink", "may only shrink (never increase)"),
            _LT: ("must-decrease", "must decrease on every update"),
        }.get(op)
        if words is not None:
            kind, text = words
            if subject.startswith("size:"):
                text = {"may-only-grow": "may only grow (never fewer items or characters)",
                        "may-only-shrink": "may only shrink (never more items or characters)"}.get(kind, text)
            if not field:
                return (kind, text)
            return (kind, f"{field} is {text}" if kind == "immutable" else f"{field} {text}")
    # oldSelf.all(x, x in self): an append-only set
    if e.kind == A.COMPREHENSION and _is_ident(e.iter_range, "oldSelf") and _all_step(e) is not None:
        pred = _all_step(e)
        if pred is not None and _is_call(pred, _IN) and _is_ident(pred.args[0], e.iter_var) and _is_ident(pred.args[1], "self"):
            return ("append-only", "entries may be added, never removed")
    # !has(oldSelf.f) || has(self.f)
    if _is_call(e, _OR):
        left, right = e.args
        for a, b in ((left, right), (right, left)):
            if _is_call(a, _NOT) and _has_of(a.args[0], "oldSelf") is not None and _has_of(a.args[0], "oldSelf") == _has_of(b, "self"):
                return ("may-not-be-removed", f"`{_has_of(b, 'self')}` may not be removed once set")
    # has(self.f) == has(oldSelf.f)
    if _is_call(e, _EQ):
        a, b = e.args
        fa, fb = _has_of(a, "self") or _has_of(b, "self"), _has_of(a, "oldSelf") or _has_of(b, "oldSelf")
        if fa is not None and fa == fb:
            return ("presence-immutable", f"`{fa}` may not be added or removed after creation")
    return None


def _comparison(e: A.Expr, other: str) -> tuple[str, str] | None:
    """``(op, subject)`` for ``S op S'`` where S reads ``self`` and S' is the same read of ``other``
    (op as written with self on the left); subject: ``""`` (self), ``"f.g"`` (a field) or ``"size:..."``."""
    if e.kind != A.CALL or e.name not in _FLIP or len(e.args) != 2:
        return None
    a, b = e.args
    for left, right, op in ((a, b, e.name), (b, a, _FLIP[e.name])):
        sl, sr = _read(left, "self"), _read(right, other)
        if sl is not None and sl == sr:
            return op, sl
    return None


def _read(e: A.Expr | None, root: str) -> str | None:
    """``""`` for ``root``, ``"a.b"`` for ``root.a.b``, ``"size:a"`` for ``size(root.a)``/``root.a.size()``."""
    if e is None:
        return None
    if e.kind == A.IDENT:
        return "" if e.name == root else None
    if e.kind == A.SELECT and not e.test_only:
        inner = _read(e.operand, root)
        if inner is None or inner.startswith("size:"):
            return None
        return f"{inner}.{e.name}" if inner else e.name
    if e.kind == A.CALL and e.name == "size":
        arg = e.target if e.target is not None and not e.args else (e.args[0] if len(e.args) == 1 and e.target is None else None)
        inner = _read(arg, root)
        if inner is None or inner.startswith("size:"):
            return None
        return f"size:{inner}"
    return None


def _field_words(subject: str) -> str:
    if subject.startswith("size:"):
        subject = subject[5:]
        return f"the size of `{subject}`" if subject else ""
    return f"`{subject}`" if subject else ""


def _all_step(e: A.Expr) -> A.Expr | None:
    """The predicate of an ``all`` macro (``accu && pred``), else None."""
    init, step = e.accu_init, e.loop_step
    if init is None or init.kind != A.LITERAL or init.value is not True or step is None:
        return None
    if _is_call(step, _AND) and _is_ident(step.args[0], e.accu_var):
        return step.args[1]
    return None


# --- presence of fields -----------------------------------------------------------------------------


def _presence(e: A.Expr) -> tuple[str, str] | None:  # noqa: C901 - one branch per idiom
    # has(self.a) != has(self.b) / has(self.a) == has(self.b)
    if _is_call(e, _NE) or _is_call(e, _EQ):
        a, b = _has_of(e.args[0], "self"), _has_of(e.args[1], "self")
        if a is not None and b is not None and a != b:
            if e.name == _NE:
                return ("exactly-one-of", f"exactly one of `{a}` and `{b}` must be set")
            return ("together", f"`{a}` and `{b}` are set together or not at all")
    # !(has(self.a) && has(self.b))
    if _is_call(e, _NOT) and _is_call(e.args[0], _AND):
        a, b = (_has_of(x, "self") for x in e.args[0].args)
        if a is not None and b is not None and a != b:
            return ("mutually-exclusive", f"`{a}` and `{b}` are mutually exclusive")
    # has(self.a) || has(self.b) || ...
    if _is_call(e, _OR):
        names = _or_of_has(e)
        if names is not None and len(names) >= 2:
            return ("at-least-one-of", f"at least one of {_names(names)} must be set")
    # has(self.a)
    if e.kind == A.SELECT and e.test_only and _is_ident(e.operand, "self"):
        return ("required", f"`{e.name}` must be set")
    # (has(self.a) ? 1 : 0) + (has(self.b) ? 1 : 0) + ... == 1 / <= 1
    if e.kind == A.CALL and e.name in (_EQ, _LE, _LT) and len(e.args) == 2:
        names = _count_of_has(e.args[0])
        limit = e.args[1]
        if names is not None and len(names) >= 2 and limit.kind == A.LITERAL and limit.lit == A.LIT_INT:
            if e.name == _EQ and limit.value == 1:
                return ("exactly-one-of", f"exactly one of {_names(names)} must be set")
            if (e.name == _LE and limit.value == 1) or (e.name == _LT and limit.value == 2):
                return ("at-most-one-of", f"at most one of {_names(names)} may be set")
    return None


def _or_of_has(e: A.Expr) -> list[str] | None:
    if _is_call(e, _OR):
        left, right = _or_of_has(e.args[0]), _or_of_has(e.args[1])
        return None if left is None or right is None else left + right
    name = _has_of(e, "self")
    return None if name is None else [name]


def _count_of_has(e: A.Expr) -> list[str] | None:
    if _is_call(e, _ADD):
        left, right = _count_of_has(e.args[0]), _count_of_has(e.args[1])
        return None if left is None or right is None else left + right
    if _is_call(e, _COND):
        cond, yes, no = e.args
        name = _has_of(cond, "self")
        if name is not None and _int_literal(yes) == 1 and _int_literal(no) == 0:
            return [name]
    return None


def _names(names: list[str]) -> str:
    quoted = [f"`{n}`" for n in names]
    return ", ".join(quoted[:-1]) + f" and {quoted[-1]}"


# --- ranges -----------------------------------------------------------------------------------------


def _range(e: A.Expr) -> tuple[str, str] | None:
    """``lo <= self && self <= hi`` (either order, strict or not) on ``self`` or one of its fields."""
    if not _is_call(e, _AND):
        return None
    bounds: dict[str, str] = {}
    subjects: set[str] = set()
    for part in e.args:
        if part.kind != A.CALL or part.name not in (_LE, _LT, _GE, _GT) or len(part.args) != 2:
            return None
        a, b = part.args
        for value, bound, op in ((a, b, part.name), (b, a, _FLIP[part.name])):
            subject, number = _read(value, "self"), _number(bound)
            if subject is not None and number is not None and not subject.startswith("size:"):
                side = "low" if op in (_GE, _GT) else "high"
                if side in bounds:
                    return None
                strict = op in (_GT, _LT)
                bounds[side] = f"{'greater than' if strict else 'at least'} {number}" if side == "low" else \
                    f"{'less than' if strict else 'at most'} {number}"
                subjects.add(subject)
                break
        else:
            return None
    if set(bounds) != {"low", "high"} or len(subjects) != 1:
        return None
    subject = subjects.pop()
    who = f"`{subject}` must be" if subject else "must be"
    return ("range", f"{who} {bounds['low']} and {bounds['high']}")


# --- helpers ----------------------------------------------------------------------------------------


def _is_call(e: A.Expr | None, name: str) -> bool:
    return e is not None and e.kind == A.CALL and e.name == name and e.target is None


def _is_ident(e: A.Expr | None, name: str) -> bool:
    return e is not None and e.kind == A.IDENT and e.name == name


def _has_of(e: A.Expr | None, root: str) -> str | None:
    """``"f"`` for ``has(root.f)`` (``"a.f"`` for ``has(root.a.f)``), else None."""
    if e is None or e.kind != A.SELECT or not e.test_only:
        return None
    inner = _read(e.operand, root)
    if inner is None or inner.startswith("size:"):
        return None
    return f"{inner}.{e.name}" if inner else e.name


def _int_literal(e: A.Expr) -> int | None:
    return e.value if e.kind == A.LITERAL and e.lit in (A.LIT_INT, A.LIT_UINT) and isinstance(e.value, int) else None


def _number(e: A.Expr) -> str | None:
    if e.kind == A.LITERAL and e.lit in (A.LIT_INT, A.LIT_UINT, A.LIT_DOUBLE) and not isinstance(e.value, bool):
        return str(e.value)
    if _is_call(e, "-_") and len(e.args) == 1:
        inner = _number(e.args[0])
        return None if inner is None else f"-{inner}"
    return None


def _mentions(e: A.Expr, name: str) -> bool:
    stack = [e]
    while stack:
        node = stack.pop()
        if node.kind == A.IDENT and node.name == name:
            return True
        for child in (node.operand, node.target, node.iter_range, node.accu_init, node.loop_condition, node.loop_step, node.result):
            if child is not None:
                stack.append(child)
        stack.extend(node.args)
        for entry in node.entries:
            stack.extend(x for x in (entry.key, entry.value) if isinstance(x, A.Expr))
    return False
