"""Evaluation of ``x-kubernetes-validations`` rules on custom resources (CREATE).

Mirrors ``staging/src/k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel/validation.go``
(``NewValidator``, ``Validator.Validate``, ``validateExpressions``,
``evalMessageExpression``, ``fieldErrorForReason``, ``ruleMessageOrDefault``,
``ValidFieldPath``) and the value mapping of
``staging/src/k8s.io/apiserver/pkg/cel/common/values.go`` (``UnstructuredToVal``)
and ``pkg/apiserver/schema/cel/model/schemas.go`` (``SchemaDeclType``,
``WithTypeAndObjectMeta``), for a create request: there is no old object, so
transition rules (rules using ``oldSelf``) are skipped and reported in
:attr:`CelResult.skipped_transition_rules`, except rules with
``optionalOldSelf: true``, which upstream evaluates with ``oldSelf`` bound to
``optional.none()`` (CRDValidationRatcheting is GA).

The rules are compiled as upstream compiles them (types from the schema,
cel-go's checker and cost estimator: :mod:`crdtool.core.schema.cel_compile`),
so a rule that does not compile gets upstream's ``rule compile error``. The
engine that evaluates them is ``cel-expr-python`` (Google's cel-cpp); the
Kubernetes libraries are in :mod:`crdtool.core.schema.cel_k8s_lib`. In cel-cpp
``self`` is declared ``dyn``: the static types were already checked.

Cost. cel-go meters the *actual* cost of every evaluation and cancels a call
beyond ``PerCallLimit`` (1,000,000); the apiserver also charges every rule
against a per-request ``RuntimeCELCostBudget`` (10,000,000). cel-cpp has no cost
tracking and cannot be interrupted, so before each evaluation this module
computes an upper bound of cel-go's cost *on the actual object*: an abstract
interpretation of the checked AST in which every value is either a set of
concrete candidate values taken from the object (``self.spec.rules`` is the
real list) or a size bound, charging cel-go's runtime cost model (1 per
identifier, selection and call; string operations by length times 0.1; regexes
by string times pattern length; list literal 10, map literal 30; comprehensions
iterations times body). A rule whose bound exceeds the per-call limit is not
run and gets upstream's ``operation cancelled: actual cost limit exceeded``
error; otherwise it runs and its bound is charged against the budget. So a rule
can never hang (nested ``all`` over big lists, doubling strings with
``cel.bind``, ``replace`` explosions are all refused up front), at the price of
occasionally refusing a rule whose real cost short-circuits under the limit.
"""

from __future__ import annotations

import base64
import binascii
import calendar
import dataclasses
import functools
import math
import re
import threading
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

from crdtool.core.errors import (
    OMIT,
    FieldError,
    Path,
    duplicate,
    forbidden,
    internal_error,
    invalid,
    required,
)
from crdtool.core.schema.cel_decltype import DeclType, escape, schema_decl_type
from crdtool.core.schema.cel_decltype import with_type_and_object_meta as _with_type_and_object_meta
from crdtool.core.schema.structural import NestedValueValidation, Structural

__all__ = [
    "CelResult",
    "PER_CALL_LIMIT",
    "RUNTIME_CEL_COST_BUDGET",
    "escape",
    "estimate_cost",
    "validate_cel",
]

#: ``celconfig.PerCallLimit``: the actual-cost limit of one evaluation.
PER_CALL_LIMIT = 1_000_000
#: ``celconfig.RuntimeCELCostBudget``: the cost budget of one request.
RUNTIME_CEL_COST_BUDGET = 10_000_000
#: ``celconfig.MaxEvaluatedMessageExpressionSizeBytes``.
MAX_EVALUATED_MESSAGE_EXPRESSION_SIZE_BYTES = 5 * 1024

_BUDGET_MSG = "validation failed due to running out of cost budget, no further validation rules will be run"
_COST_LIMIT_ERR = "operation cancelled: actual cost limit exceeded"


@dataclass(frozen=True)
class CelResult:
    """The outcome of :func:`validate_cel`.

    Attributes:
        errors: upstream ``field.ErrorList`` entries, in evaluation order.
        skipped_transition_rules: one field path per transition rule (a rule
            using ``oldSelf`` without ``optionalOldSelf``) that was not
            evaluated because a create has no old object.
        remaining_budget: the cost budget left; negative when the budget or a
            per-call limit was exhausted and evaluation stopped.
    """

    errors: list[FieldError] = field(default_factory=list)
    skipped_transition_rules: list[str] = field(default_factory=list)
    remaining_budget: int = RUNTIME_CEL_COST_BUDGET


# --- the CEL environment and compiled programs -------------------------------------------------


@functools.lru_cache(maxsize=1)
def _environment() -> Any:
    """The cel-cpp environment: standard library, strings, optionals, bindings, math + Kubernetes."""
    from cel_expr_python import cel
    from cel_expr_python.ext import ext_bindings, ext_optional, ext_strings

    from crdtool.core.schema.cel_k8s_lib import k8s_extensions, message_pool

    pool, _ = message_pool()
    return cel.NewEnv(
        pool,
        variables={"self": cel.Type.DYN, "oldSelf": cel.Type.DYN},
        extensions=[
            ext_strings.ExtStrings(),
            ext_optional.ExtOptional(),
            # not in the Kubernetes environment (rules using it fail to compile first):
            # used here only to bind oldSelf to optional.none() for optionalOldSelf rules
            ext_bindings.ExtBindings(),
            *k8s_extensions(),
        ],
    )


@dataclass(frozen=True)
class _Program:
    """A compiled expression: the cel-cpp program, its decoded AST, or the compile error."""

    program: Any = None
    ast: Any = None
    error: str = ""
    uses_old_self: bool = False
    has_comprehension: bool = False


_STATUS_PREFIX = re.compile(r"^[A-Z_]+: ")
_STATUS_SUFFIX = re.compile(r" \[[A-Z_]+\]$")


def _strip_status(msg: str) -> str:
    msg = _STATUS_SUFFIX.sub("", msg.strip())
    return _STATUS_PREFIX.sub("", msg, count=1)


_COMPILE_LOCK = threading.Lock()


@functools.lru_cache(maxsize=4096)
def _compile(source: str, optional_old_self: bool = False) -> _Program:
    """Compile ``source`` (a rule or messageExpression); cached by text.

    With ``optional_old_self`` a rule that uses ``oldSelf`` is wrapped in
    ``cel.bind(oldSelf, optional.none(), ...)``: on create upstream binds
    ``oldSelf`` to ``optional.none()`` for such rules.
    """
    from crdtool.core.schema.cel_k8s_lib import rewrite_expression

    env = _environment()
    text = rewrite_expression(source)
    try:
        with _COMPILE_LOCK:
            program = env.compile(text)
            ast = _decode_checked(program.serialize())
    except Exception as exc:  # noqa: BLE001 - cel-cpp reports compile errors as RuntimeError
        return _Program(error="compilation failed: " + _strip_status(str(exc)))
    uses_old_self = _references(ast, "oldSelf")
    if uses_old_self and optional_old_self:
        try:
            with _COMPILE_LOCK:
                program = env.compile(f"cel.bind(oldSelf, optional.none(), ({text}\n))")
                ast = _decode_checked(program.serialize())
        except Exception as exc:  # noqa: BLE001
            return _Program(error="compilation failed: " + _strip_status(str(exc)), uses_old_self=True)
    return _Program(program=program, ast=ast, uses_old_self=uses_old_self, has_comprehension=_has_kind(ast, "comp"))


# --- the checked AST (cel.expr.CheckedExpr, decoded from protobuf wire format) ---------------------


def _varint(buf: bytes, i: int) -> tuple[int, int]:
    result = 0
    shift = 0
    while True:
        b = buf[i]
        i += 1
        result |= (b & 0x7F) << shift
        if b < 0x80:
            return result, i
        shift += 7


def _fields(buf: bytes) -> Iterable[tuple[int, int, Any]]:
    i, n = 0, len(buf)
    v: int | bytes
    while i < n:
        key, i = _varint(buf, i)
        fno, wt = key >> 3, key & 7
        if wt == 0:
            v, i = _varint(buf, i)
        elif wt == 1:
            v, i = buf[i : i + 8], i + 8
        elif wt == 2:
            ln, i = _varint(buf, i)
            v, i = buf[i : i + ln], i + ln
        elif wt == 5:
            v, i = buf[i : i + 4], i + 4
        else:
            raise ValueError(f"unsupported wire type {wt}")
        yield fno, wt, v


def _decode_checked(serialized: bytes) -> Any:
    """``google.protobuf.Any{CheckedExpr}`` -> the root expression node."""
    payload = b""
    for fno, _, v in _fields(serialized):
        if fno == 2:
            payload = v
    expr = b""
    for fno, _, v in _fields(payload):
        if fno == 4:
            expr = v
    return _decode_expr(expr)


def _signed(v: int) -> int:
    return v - (1 << 64) if v >= 1 << 63 else v


def _decode_const(buf: bytes) -> Any:
    import struct

    for fno, _, v in _fields(buf):
        if fno == 1:
            return None
        if fno == 2:
            return bool(v)
        if fno == 3:
            return _signed(v)
        if fno == 4:
            return v
        if fno == 5:
            return struct.unpack("<d", v)[0]
        if fno == 6:
            return bytes(v).decode("utf-8", "replace")
        if fno == 7:
            return bytes(v)
    return None


def _decode_expr(buf: bytes) -> Any:  # noqa: C901 - one case per proto field
    """One ``cel.expr.Expr`` as a tuple: ``(kind, ...)``."""
    for fno, _, v in _fields(buf):
        if fno == 3:
            return ("const", _decode_const(v))
        if fno == 4:
            name = ""
            for f2, _, v2 in _fields(v):
                if f2 == 1:
                    name = bytes(v2).decode()
            return ("ident", name)
        if fno == 5:
            operand, fld, test = None, "", False
            for f2, _, v2 in _fields(v):
                if f2 == 1:
                    operand = _decode_expr(v2)
                elif f2 == 2:
                    fld = bytes(v2).decode()
                elif f2 == 3:
                    test = bool(v2)
            return ("select", operand, fld, test)
        if fno == 6:
            target, fn, args = None, "", []
            for f2, _, v2 in _fields(v):
                if f2 == 1:
                    target = _decode_expr(v2)
                elif f2 == 2:
                    fn = bytes(v2).decode()
                elif f2 == 3:
                    args.append(_decode_expr(v2))
            return ("call", fn, target, tuple(args))
        if fno == 7:
            return ("list", tuple(_decode_expr(v2) for f2, _, v2 in _fields(v) if f2 == 1))
        if fno == 8:
            entries = []
            for f2, _, v2 in _fields(v):
                if f2 != 2:
                    continue
                key: Any = None
                value: Any = None
                for f3, _, v3 in _fields(v2):
                    if f3 == 2:
                        key = ("const", bytes(v3).decode())
                    elif f3 == 3:
                        key = _decode_expr(v3)
                    elif f3 == 4:
                        value = _decode_expr(v3)
                entries.append((key, value))
            return ("struct", tuple(entries))
        if fno == 9:
            parts: dict[int, Any] = {}
            for f2, _, v2 in _fields(v):
                if f2 in (1, 3, 8):
                    parts[f2] = bytes(v2).decode()
                else:
                    parts[f2] = _decode_expr(v2)
            return (
                "comp",
                parts.get(1, ""),
                parts.get(8, ""),
                parts.get(2, ("const", None)),
                parts.get(3, ""),
                parts.get(4, ("const", None)),
                parts.get(5, ("const", True)),
                parts.get(6, ("const", None)),
                parts.get(7, ("const", None)),
            )
    return ("const", None)


def _has_kind(node: Any, kind: str) -> bool:
    return _references(node, "", kind)


def _references(node: Any, name: str, kind: str = "ident") -> bool:
    """Does the AST contain an ``ident`` node named ``name`` (or any node of ``kind``)?"""
    stack = [node]
    while stack:
        cur = stack.pop()
        if not isinstance(cur, tuple) or not cur:
            continue
        if cur[0] == kind and (kind != "ident" or cur[1] == name):
            return True
        for part in cur[1:]:
            if isinstance(part, tuple):
                if part and isinstance(part[0], str):
                    stack.append(part)
                else:
                    stack.extend(p for p in part if isinstance(p, tuple))
    return False


# --- the cost bound ---------------------------------------------------------------------------

_CAP = 20_000  # candidate values kept per abstract value before summarising


class _AV:
    """An abstract value: concrete candidates from the object, or a size bound.

    ``n`` bounds the size (string/bytes length, list length, map entries);
    ``elem`` describes list elements / map values (``None``: the whole-object
    bound); ``kind`` is ``str``, ``bytes``, ``list``, ``map``, ``scalar`` or ``any``.
    """

    __slots__ = ("cands", "n", "elem", "kind")

    def __init__(self, cands: list[Any] | None, n: int, elem: _AV | None, kind: str) -> None:
        self.cands = cands
        self.n = n
        self.elem = elem
        self.kind = kind


_SCALAR = _AV(None, 1, None, "scalar")


def _size(v: Any) -> int:
    if isinstance(v, (str, bytes, bytearray, list, dict)):
        return len(v)
    return 1


def _kind(v: Any) -> str:
    if isinstance(v, str):
        return "str"
    if isinstance(v, (bytes, bytearray)):
        return "bytes"
    if isinstance(v, list):
        return "list"
    if isinstance(v, dict):
        return "map"
    return "scalar"


class _Estimator:
    """Computes cel-go-like cost upper bounds of checked ASTs on a concrete ``self``."""

    def __init__(self, self_value: Any, top: _AV | None = None) -> None:
        self._self = self_value
        self._top = top
        self._self_av: _AV | None = None

    def top(self) -> _AV:
        """Any value derived from the object: bounded by the largest size in it."""
        if self._top is None:
            biggest = 1
            stack = [self._self]
            while stack:
                cur = stack.pop()
                biggest = max(biggest, _size(cur))
                if isinstance(cur, dict):
                    stack.extend(cur.values())
                    biggest = max(biggest, max((len(k) for k in cur if isinstance(k, str)), default=0))
                elif isinstance(cur, list):
                    stack.extend(cur)
            self._top = _AV(None, biggest, None, "any")
        return self._top

    def concrete(self, values: list[Any]) -> _AV:
        kinds = {_kind(v) for v in values}
        kind = kinds.pop() if len(kinds) == 1 else "any"
        n = max((_size(v) for v in values), default=0)
        if len(values) > _CAP:
            return _AV(None, n, None, kind)
        return _AV(values, n, None, kind)

    def elem(self, av: _AV) -> _AV:
        return av.elem if av.elem is not None else self.top()

    def iter_elems(self, av: _AV) -> _AV:
        """The values an iteration variable takes: list items or map keys."""
        if av.cands is None:
            return self.elem(av) if av.kind != "map" else _AV(None, self.top().n, None, "str")
        out: list[Any] = []
        for c in av.cands:
            if isinstance(c, list):
                out.extend(c)
            elif isinstance(c, dict):
                out.extend(c.keys())
            if len(out) > _CAP:
                break
        return self.concrete(out)

    def values(self, av: _AV) -> _AV:
        """The values an index expression yields: list items or map values."""
        if av.cands is None:
            return self.elem(av)
        out: list[Any] = []
        for c in av.cands:
            if isinstance(c, list):
                out.extend(c)
            elif isinstance(c, dict):
                out.extend(c.values())
            if len(out) > _CAP:
                break
        return self.concrete(out)

    def select(self, av: _AV, name: str) -> _AV:
        if av.cands is None:
            return self.elem(av)
        return self.concrete([c[name] for c in av.cands if isinstance(c, dict) and name in c])

    def join(self, a: _AV, b: _AV) -> _AV:
        if a.cands is not None and b.cands is not None and len(a.cands) + len(b.cands) <= _CAP:
            return self.concrete(a.cands + b.cands)
        kind = a.kind if a.kind == b.kind else "any"
        if a.elem is None and b.elem is None:
            elem = None
        else:
            elem = self.join(self.elem(a), self.elem(b)) if (a.elem is not b.elem) else a.elem
        return _AV(None, max(a.n, b.n), elem, kind)

    # -- the walk --

    def cost(self, node: Any, env: Mapping[str, _AV]) -> tuple[int, _AV]:
        kind = node[0]
        if kind == "const":
            v = node[1]
            return 0, _AV(None, _size(v), None, _kind(v))
        if kind == "ident":
            name = node[1]
            if name == "self":
                if self._top is not None and self._self is None:
                    return 1, self._top  # static mode: sizes only
                if self._self_av is None:
                    self._self_av = self.concrete([self._self])
                return 1, self._self_av
            return 1, env.get(name, self.top())
        if kind == "select":
            c, av = self.cost(node[1], env)
            if node[3]:
                return c + 1, _SCALAR
            return c + 1, self.select(av, node[2])
        if kind == "call":
            return self._call(node, env)
        if kind == "list":
            total = 10
            elem: _AV | None = None
            for e in node[1]:
                c, av = self.cost(e, env)
                total += c
                elem = av if elem is None else self.join(elem, av)
            return total, _AV(None, len(node[1]), elem or _SCALAR, "list")
        if kind == "struct":
            total = 30
            elem = None
            for key, value in node[1]:
                kc, _ = self.cost(key, env) if key is not None else (0, _SCALAR)
                vc, vav = self.cost(value, env) if value is not None else (0, _SCALAR)
                total += kc + vc
                elem = vav if elem is None else self.join(elem, vav)
            return total, _AV(None, len(node[1]), elem or _SCALAR, "map")
        if kind == "comp":
            return self._comprehension(node, env)
        return 1, self.top()

    def _comprehension(self, node: Any, env: Mapping[str, _AV]) -> tuple[int, _AV]:
        _, iter_var, iter_var2, rng, accu_var, init, cond, step, result = node
        rc, rav = self.cost(rng, env)
        iters = rav.n if rav.kind in ("list", "map", "any") else 0
        if rav.cands is not None:
            iters = max((len(c) for c in rav.cands if isinstance(c, (list, dict))), default=0)
        ic, iav = self.cost(init, env)
        inner = dict(env)
        if iter_var2:
            if rav.kind == "map" or (rav.cands and isinstance(rav.cands[0], dict)):
                inner[iter_var] = self.iter_elems(rav)
            else:
                inner[iter_var] = _SCALAR
            inner[iter_var2] = self.values(rav)
        else:
            inner[iter_var] = self.iter_elems(rav)
        inner[accu_var] = iav
        cc, _ = self.cost(cond, inner)
        sc, sav = self.cost(step, inner)
        growth = max(0, sav.n - iav.n)
        accu = self.join(iav, sav)
        accu = _AV(None, iav.n + iters * growth, accu.elem, accu.kind)
        inner[accu_var] = accu
        fc, fav = self.cost(result, inner)
        return rc + ic + iters * (cc + sc) + fc, fav

    def _call(self, node: Any, env: Mapping[str, _AV]) -> tuple[int, _AV]:  # noqa: C901 - cost table
        _, fn, target, args = node
        costs: list[int] = []
        avs: list[_AV] = []
        for a in ((target,) if target is not None else ()) + tuple(args):
            c, av = self.cost(a, env)
            costs.append(c)
            avs.append(av)
        base = sum(costs)
        if fn in ("_&&_", "_||_", "@not_strictly_false", "!_"):
            return base + (1 if fn == "!_" else 0), _SCALAR
        if fn == "_?_:_":
            return base, self.join(avs[1], avs[2])
        if fn in ("_[_]", "_[?_]", "_?._"):
            key = args[1] if target is None and len(args) > 1 else None
            if key is not None and key[0] == "const" and isinstance(key[1], str):
                return base + 1, self.select(avs[0], key[1])
            if fn == "_?._" and len(avs) > 1:
                return base + 1, self.values(avs[0])
            return base + 1, self.values(avs[0])
        if fn == "_+_" and len(avs) == 2:
            a, b = avs
            n = a.n + b.n
            if a.kind == "list" or b.kind == "list":
                elem = self.join(self.elem(a), self.elem(b))
                return base + 1, _AV(None, n, elem, "list")
            if a.kind == "scalar" and b.kind == "scalar":
                return base + 1, _SCALAR
            return base + 1 + math.ceil(n * 0.1), _AV(None, n, None, "str" if a.kind != "bytes" else "bytes")
        if fn in ("_==_", "_!=_", "_<_", "_<=_", "_>_", "_>=_") and len(avs) == 2:
            return base + 1 + math.ceil(min(avs[0].n, avs[1].n) * 0.1), _SCALAR
        if fn == "@in" and len(avs) == 2:
            return base + 1 + avs[1].n, _SCALAR
        if fn in ("matches", "find", "findAll") and len(avs) >= 2:
            s, r = avs[0], avs[1]
            c = math.ceil((1 + s.n) * 0.1) * max(1, math.ceil(r.n * 0.25))
            out = _SCALAR if fn == "matches" else _AV(None, s.n, None, "str")
            if fn == "findAll":
                out = _AV(None, s.n + 1, _AV(None, s.n, None, "str"), "list")
            return base + 1 + c, out
        if fn == "contains" and len(avs) == 2:
            return base + 1 + math.ceil(avs[0].n * 0.1) * max(1, math.ceil(avs[1].n * 0.1)), _SCALAR
        if fn in ("size", "has", "dyn", "type", "int", "uint", "double", "bool", "duration", "timestamp"):
            return base + 1, _SCALAR if fn != "dyn" else (avs[0] if avs else _SCALAR)
        return self._library_call(fn, base, avs)

    def _library_call(self, fn: str, base: int, avs: list[_AV]) -> tuple[int, _AV]:
        total = sum(a.n for a in avs)
        linear = base + 1 + math.ceil(total * 0.1)
        t = avs[0] if avs else _SCALAR
        if fn == "replace" and len(avs) >= 3:
            n = t.n + (t.n + 1) * avs[2].n
            return base + 1 + math.ceil((t.n + n) * 0.1), _AV(None, n, None, "str")
        if fn == "split":
            return linear, _AV(None, t.n + 1, _AV(None, t.n, None, "str"), "list")
        if fn == "join":
            e = self.elem(t)
            sep = avs[1].n if len(avs) > 1 else 0
            n = t.n * (e.n + sep)
            return base + 1 + math.ceil(n * 0.1), _AV(None, n, None, "str")
        if fn == "format" and len(avs) >= 2:
            e = self.elem(avs[1])
            n = t.n + avs[1].n * max(e.n, 32)
            return base + 1 + math.ceil(n * 0.1), _AV(None, n, None, "str")
        if fn in ("lowerAscii", "upperAscii", "trim", "substring", "reverse", "charAt"):
            return linear, _AV(None, t.n, None, "str")
        if fn in ("quote", "strings.quote", "base64.encode", "string"):
            n = 2 * max(t.n, 16) + 2
            return linear, _AV(None, n, None, "str")
        if fn in ("isSorted", "sum", "min", "max", "indexOf", "lastIndexOf", "includes") and t.kind in ("list", "any"):
            return base + 1 + t.n, self.elem(t) if fn in ("sum", "min", "max") else _SCALAR
        if fn.startswith("sets.") and len(avs) == 2:
            return base + 1 + avs[0].n * avs[1].n, _SCALAR
        if fn in ("getQuery",):
            return linear, _AV(None, t.n, _AV(None, t.n, _AV(None, t.n, None, "str"), "list"), "map")
        if fn in ("orValue", "value", "or", "optional.of", "optional.ofNonZeroValue"):
            return base + 1, self.join(*avs) if len(avs) == 2 else t
        return linear, _AV(None, 2 * total + 16, None, "any")


def estimate_cost(source: str, self_value: Any) -> int:
    """An upper bound of cel-go's actual cost of ``source`` with ``self`` = ``self_value``.

    ``self_value`` is the CEL-ready value (see :func:`_to_cel_value`). Raises
    ``ValueError`` when ``source`` does not compile. Used for the per-call limit
    and the request budget (there is no upstream counterpart: cel-go meters cost
    while evaluating, see the module docstring).
    """
    prog = _compile(source)
    if prog.error:
        raise ValueError(prog.error)
    return _bound(prog.ast, self_value)


def _bound(ast: Any, self_value: Any, estimator: _Estimator | None = None) -> int:
    try:
        return (estimator or _Estimator(self_value)).cost(ast, {})[0]
    except RecursionError:
        return PER_CALL_LIMIT + 1


_STATIC_BOUNDS: dict[tuple[int, int], tuple[Any, int]] = {}
_STATIC_LOCK = threading.Lock()


def _program_bound(prog: _Program, estimator: _Estimator) -> int:
    """The cost bound of ``prog`` on the estimator's ``self``.

    Without comprehensions the cost is small and barely depends on the data,
    so the bound is taken with every value as large as the largest one in
    ``self`` and cached by (program, that size): a dictionary lookup instead of
    an abstract interpretation per evaluation.
    """
    if prog.has_comprehension:
        return _bound(prog.ast, None, estimator)
    biggest = estimator.top().n
    key = (id(prog.ast), biggest)
    with _STATIC_LOCK:
        hit = _STATIC_BOUNDS.get(key)
    if hit is not None and hit[0] is prog.ast:
        return hit[1]
    value = _bound(prog.ast, None, _Estimator(None, top=estimator.top()))
    with _STATIC_LOCK:
        if len(_STATIC_BOUNDS) > 65536:
            _STATIC_BOUNDS.clear()
        _STATIC_BOUNDS[key] = (prog.ast, value)
    return value


# --- values (UnstructuredToVal) ------------------------------------------------------------------

_DATETIME_RE = re.compile(
    r"(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:?\d{2})?)?"
)
_GO_DURATION_RE = re.compile(r"([-+]?)((?:(?:\d+\.?\d*|\.\d+)(?:ns|us|µs|μs|ms|s|m|h))+|0)")
_GO_DURATION_PART = re.compile(r"(\d+\.?\d*|\.\d+)(ns|us|µs|μs|ms|s|m|h)")
_UNIT_NANOS = {"ns": 1, "us": 1000, "µs": 1000, "μs": 1000, "ms": 10**6, "s": 10**9, "m": 60 * 10**9, "h": 3600 * 10**9}
_STRFMT_DURATION = re.compile(r"(?:\s+|^)(-?\d+)\s*([A-Za-zµ]+)")
_STRFMT_UNITS = {
    **dict.fromkeys(("ns", "nano"), 1),
    **dict.fromkeys(("us", "µs", "micro"), 1000),
    **dict.fromkeys(("ms", "milli"), 10**6),
    **dict.fromkeys(("s", "sec"), 10**9),
    **dict.fromkeys(("m", "min"), 60 * 10**9),
    **dict.fromkeys(("h", "hr", "hour"), 3600 * 10**9),
    **dict.fromkeys(("d", "day"), 86400 * 10**9),
    **dict.fromkeys(("w", "wk", "week"), 7 * 86400 * 10**9),
}


def _parse_duration_nanos(s: str) -> int | None:
    """strfmt ``ParseDuration``: Go ``time.ParseDuration``, then strfmt's ``3 days`` forms."""
    m = _GO_DURATION_RE.fullmatch(s)
    if m:
        total = 0.0
        for num, unit in _GO_DURATION_PART.findall(m.group(2)):
            total += float(num) * _UNIT_NANOS[unit]
        nanos = int(round(total))
        return -nanos if m.group(1) == "-" else nanos
    total_i = 0
    found = False
    for num, unit in _STRFMT_DURATION.findall(s):
        factor = _STRFMT_UNITS.get(unit.lower())
        if factor is None:
            continue
        total_i += int(num) * factor
        found = True
    return total_i if found else None


def _timestamp(s: str, date_only: bool) -> Any:
    m = _DATETIME_RE.fullmatch(s)
    if m is None or (date_only and m.group(4) is not None) or (not date_only and m.group(4) is None):
        return s
    from google.protobuf import timestamp_pb2

    year, month, day = int(m.group(1)), int(m.group(2)), int(m.group(3))
    hh, mm, ss = (int(m.group(i) or 0) for i in (4, 5, 6))
    try:
        secs = calendar.timegm((year, month, day, hh, mm, ss, 0, 0, 0))
    except (ValueError, OverflowError):
        return s
    frac = (m.group(7) or ".")[1:]
    nanos = int((frac + "000000000")[:9])
    tz = m.group(8) or "Z"
    if tz not in ("Z", "z"):
        sign = 1 if tz[0] == "+" else -1
        digits = tz[1:].replace(":", "")
        secs -= sign * (int(digits[:2]) * 3600 + int(digits[2:]) * 60)
    try:
        return timestamp_pb2.Timestamp(seconds=secs, nanos=nanos)
    except ValueError:  # pragma: no cover - out of protobuf's range
        return s


def _string_value(s: str, fmt: str) -> Any:
    """Upstream's format-dependent string conversions (duration, date, date-time, byte)."""
    if fmt == "duration":
        nanos = _parse_duration_nanos(s)
        if nanos is None:
            return s
        from google.protobuf import duration_pb2

        secs = int(nanos / 10**9)
        return duration_pb2.Duration(seconds=secs, nanos=nanos - secs * 10**9)
    if fmt == "date":
        return _timestamp(s, date_only=True)
    if fmt == "date-time":
        return _timestamp(s, date_only=False)
    if fmt == "byte":
        try:
            return base64.b64decode(s, validate=True)
        except (binascii.Error, ValueError):
            return s
    return s


class _Converter:
    """``UnstructuredToVal`` into plain values cel-cpp accepts, memoised for one validation."""

    def __init__(self) -> None:
        self._memo: dict[tuple[int, int], tuple[Any, Any]] = {}

    def convert(self, value: Any, ss: Structural) -> Any:
        key = (id(value), id(ss))
        hit = self._memo.get(key)
        if hit is not None and hit[0] is value:
            return hit[1]
        out = self._convert(value, ss)
        if isinstance(value, (dict, list)):
            self._memo[key] = (value, out)
        return out

    def _convert(self, value: Any, ss: Structural) -> Any:  # noqa: C901 - mirrors UnstructuredToVal
        if value is None:
            return None
        ext = ss.extensions
        if ext.x_int_or_string:
            return value
        t = ss.type
        if t == "object":
            if not isinstance(value, dict):
                return value
            if ext.x_embedded_resource or ss.properties:
                schema = _with_type_and_object_meta(ss) if ext.x_embedded_resource else ss
                out: dict[str, Any] = {}
                for k, v in value.items():
                    prop = schema.properties.get(k)
                    # null-valued fields of an object are absent, and unknown fields invisible
                    if prop is None or v is None:
                        continue
                    out[escape(k) or k] = self.convert(v, prop)
                return out
            ap = ss.additional_properties_schema
            if ap is not None:
                return {k: self.convert(v, ap) for k, v in value.items()}
            return {}
        if t == "array":
            if not isinstance(value, list) or ss.items is None:
                return value
            return [self.convert(v, ss.items) for v in value]
        if t == "string":
            if not isinstance(value, str):
                return value
            fmt = ss.value_validation.format if ss.value_validation is not None else ""
            return _string_value(value, fmt) if fmt else value
        if t == "number":
            return float(value) if isinstance(value, int) and not isinstance(value, bool) else value
        return value


# --- the validator tree (NewValidator / validator) ---------------------------------------------


@dataclass
class _Rule:
    rule: Mapping[str, Any]
    program: _Program
    message: _Program | None
    field_path: str


@dataclass
class _Node:
    schema: Structural
    is_resource_root: bool
    rules: list[_Rule] = field(default_factory=list)
    init_error: str = ""
    items: _Node | None = None
    properties: dict[str, _Node] = field(default_factory=dict)
    additional: _Node | None = None
    all_of: list[_Node] = field(default_factory=list)


def _has_x_validations(ss: Structural | None) -> bool:
    """Upstream ``hasXValidations`` (allOf is not searched, as upstream)."""
    if ss is None:
        return False
    return any(node.extensions.x_validations for node in ss.walk())


def _nested_to_structural(nested: NestedValueValidation) -> Structural:
    """Upstream ``nestedToStructural``: an allOf entry as a Structural carrying its rules."""
    out = Structural(
        generic=nested.forbidden_generics,
        extensions=nested.forbidden_extensions,
        value_validation=nested.value_validation,
        items=_nested_to_structural(nested.items) if nested.items is not None else None,
        properties={k: _nested_to_structural(v) for k, v in nested.properties.items()},
    )
    if nested.additional_properties is not None:
        out.additional_properties = _nested_to_structural(nested.additional_properties)
    return out


def _compile_rules(validation: Structural, node: Structural, decl: DeclType) -> list[_Rule]:
    """Upstream ``Compile`` (type checks, ``UsesOldSelf``) plus a cel-cpp program for each rule that compiles."""
    from crdtool.core.schema.cel_compile import RuleSource, compile_rules

    sources = list(validation.extensions.x_validations)
    results = compile_rules([RuleSource.of(r) for r in sources], decl)
    rules = []
    for rule, result in zip(sources, results):
        text = str(rule.get("rule") or "")
        message: _Program | None = None
        if result.empty:
            program = _Program()
        elif result.error is not None:
            program = _Program(error=result.error[1])
        else:
            program = _compile(text, bool(rule.get("optionalOldSelf")))
            program = dataclasses.replace(program, uses_old_self=result.uses_old_self)
            if result.has_message_expression:
                message = _compile(str(rule.get("messageExpression") or ""))
        fp = str(rule.get("fieldPath") or "")
        rules.append(_Rule(rule, program, message, _normalize_field_path(fp, node) if fp else ""))
    return rules


def _build(validation: Structural, node: Structural, is_root: bool, decl: DeclType | None) -> _Node | None:
    """Upstream ``validator``: compiled rules for this node and every child holding rules.

    ``decl`` is the node's CEL type (upstream passes it down: field types of
    the parent's, ``ElemType`` for items and additionalProperties); None makes
    ``Compile`` fail (``rule compiler initialization error``).
    """
    rules: list[_Rule] = []
    init_error = ""
    if validation.extensions.x_validations:
        if decl is None:
            init_error = "failed to convert to declType for CEL validation rules"
        else:
            rules = _compile_rules(validation, node, decl)
    out = _Node(schema=node, is_resource_root=is_root, rules=rules, init_error=init_error)
    elem = decl.elem_type if decl is not None else None
    if validation.items is not None and node.items is not None:
        out.items = _build(validation.items, node.items, node.items.extensions.x_embedded_resource, elem)
    for k, vprop in validation.properties.items():
        nprop = node.properties.get(k)
        if nprop is None:
            continue
        escaped = escape(k)
        if escaped is not None:
            if decl is None or decl.fields is None or escaped not in decl.fields:
                # fields with unknown types are omitted from CEL validation entirely
                continue
            field_type: DeclType | None = decl.fields[escaped].type
        else:
            field_type = schema_decl_type(nprop, nprop.extensions.x_embedded_resource)
            if field_type is None:
                continue
        child = _build(vprop, nprop, nprop.extensions.x_embedded_resource, field_type)
        if child is not None:
            out.properties[k] = child
    vap, nap = validation.additional_properties_schema, node.additional_properties_schema
    if vap is not None and nap is not None:
        out.additional = _build(vap, nap, nap.extensions.x_embedded_resource, elem)
    if validation.value_validation is not None:
        for nested in validation.value_validation.all_of:
            child = _build(_nested_to_structural(nested), node, is_root, decl)
            if child is not None:
                out.all_of.append(child)
    if out.rules or out.init_error or out.items or out.properties or out.additional or out.all_of:
        return out
    return None


_TREE_CACHE: dict[tuple[int, bool], tuple[Structural, _Node | None]] = {}
_TREE_CACHE_SIZE = 64
_TREE_LOCK = threading.Lock()


def _validator(ss: Structural, is_root: bool) -> _Node | None:
    """Upstream ``NewValidator``, cached by schema node identity."""
    key = (id(ss), is_root)
    with _TREE_LOCK:
        hit = _TREE_CACHE.get(key)
        if hit is not None and hit[0] is ss:
            return hit[1]
    tree = _build(ss, ss, is_root, schema_decl_type(ss, is_root)) if _has_x_validations(ss) else None
    with _TREE_LOCK:
        if len(_TREE_CACHE) >= _TREE_CACHE_SIZE:
            _TREE_CACHE.pop(next(iter(_TREE_CACHE)))
        _TREE_CACHE[key] = (ss, tree)
    return tree


# --- fieldPath (ValidFieldPath) -----------------------------------------------------------------

_FIELD_PATH_TOKEN = re.compile(r"'(?:[^'\\]|\\.)*'|[.\[\]]|[^.\[\]']+")
_UNESCAPE = {"a": "\a", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v", "'": "'", "\\": "\\"}


def _normalize_field_path(json_path: str, ss: Structural) -> str:
    """Upstream ``ValidFieldPath(...).String()``; ``""`` when the path is invalid."""
    tokens = _FIELD_PATH_TOKEN.findall(json_path)
    if "".join(tokens) != json_path:
        return ""
    parts: list[str] = []
    schema: Structural | None = ss
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        if tok not in (".", "["):
            return ""
        if i + 1 >= len(tokens) or schema is None:
            return ""
        name = tokens[i + 1]
        if tok == "[":
            if len(name) < 2 or name[0] != "'" or name[-1] != "'":
                return ""
            try:
                name = re.sub(r"\\(.)", lambda m: _UNESCAPE[m.group(1)], name[1:-1])
            except KeyError:
                return ""
            if i + 2 >= len(tokens) or tokens[i + 2] != "]":
                return ""
            i += 3
        else:
            i += 2
        if schema.properties:
            prop = schema.properties.get(name)
            if prop is None:
                return ""
            parts.append(("." if parts else "") + name)
            schema = prop
        elif schema.additional_properties is not None:
            parts.append(f"[{name}]")
            schema = schema.additional_properties_schema
        else:
            return ""
    return "".join(parts)


# --- evaluation (validateExpressions) ------------------------------------------------------------


def _rule_error_string(rule: Mapping[str, Any]) -> str:
    message = str(rule.get("message") or "")
    if message:
        return message.strip()
    return str(rule.get("rule") or "").strip()


def _rule_message_or_default(rule: Mapping[str, Any]) -> str:
    message = str(rule.get("message") or "")
    if not message:
        return f"failed rule: {_rule_error_string(rule)}"
    return message.strip()


def _field_error_for_reason(path: str, value: Any, detail: str, reason: str | None) -> FieldError:
    """Upstream ``fieldErrorForReason``."""
    if reason == "FieldValueForbidden":
        return forbidden(path, detail)
    if reason == "FieldValueRequired":
        return required(path, detail)
    if reason == "FieldValueDuplicate":
        return duplicate(path, value)
    return invalid(path, value, detail)


_ERROR_MAP = (
    (re.compile(r'^Key not found in map ?: ?"?(.*?)"?$'), r"no such key: \1"),
    (re.compile(r"^No such key: ?(.*)$"), r"no such key: \1"),
    (re.compile(r"^Index error: index=(-?\d+) size=\d+$"), r"index out of bounds: \1"),
    (re.compile(r"^index out of bounds.*?(-?\d+)"), r"index out of bounds: \1"),
    (re.compile(r"^divide by zero$"), "division by zero"),
    (re.compile(r"^No matching overloads? found.*$"), "no such overload"),
    (re.compile(r"^Applying SELECT to non-message type$"), "no such overload"),
)


def _go_error(message: str) -> str:
    """A cel-cpp runtime error in cel-go's words (``no such key: x``, ``no such overload``, ...)."""
    msg = _strip_status(message)
    for rx, repl in _ERROR_MAP:
        if rx.search(msg):
            return rx.sub(repl, msg, count=1)
    return msg


def _evaluate(program: Any, activation: Any) -> tuple[Any, str | None]:
    """Run a program: (value, None) or (None, cel-go style error text)."""
    from cel_expr_python import cel

    try:
        result = program.eval(activation)
    except Exception as exc:  # noqa: BLE001 - cel-cpp raises RuntimeError on internal failures
        return None, _go_error(str(exc))
    if result.type() == cel.Type.ERROR:
        return None, _go_error(str(result.value()))
    try:
        return result.value(), None
    except Exception as exc:  # noqa: BLE001 - a value Python cannot represent (e.g. optional)
        return None, _go_error(str(exc))


def _is_true(value: Any) -> bool:
    return value is True


@dataclass
class _State:
    remaining: int
    errors: list[FieldError]
    skipped: list[str]
    converter: _Converter


def _eval_message_expression(
    rule: _Rule, activation: Any, estimator: _Estimator, remaining: int
) -> tuple[str | None, int, str]:
    """Upstream ``evalMessageExpression``: (message or None, remaining budget, fatal error detail or "").

    A fatal detail (budget or per-call limit exhausted) stops validation; any
    other failure only falls back to the rule's message, as upstream (which
    logs it).
    """
    from crdtool.core.errors import go_quote

    prog = rule.message
    if prog is None or prog.error:
        return None, remaining, ""
    cost = _program_bound(prog, estimator)
    out_of_budget = (
        "messageExpression evaluation failed due to running out of cost budget, no further validation rules will be run"
    )
    if cost > PER_CALL_LIMIT:
        if PER_CALL_LIMIT + 1 > remaining:
            return None, -1, out_of_budget
        src = str(rule.rule.get("messageExpression") or "")
        return None, -1, f"no further validation rules will be run due to call cost exceeds limit for messageExpression: {go_quote(src)}"
    if cost > remaining:
        return None, -1, out_of_budget
    remaining -= cost
    value, err = _evaluate(prog.program, activation)
    if err is not None or not isinstance(value, str):
        return None, remaining, ""
    trimmed = value.strip()
    if len(trimmed.encode()) > MAX_EVALUATED_MESSAGE_EXPRESSION_SIZE_BYTES or "\n" in trimmed or not trimmed:
        return None, remaining, ""
    return trimmed, remaining, ""


def _validate_expressions(node: _Node, obj: Any, path: Path, state: _State) -> None:  # noqa: C901
    """Upstream ``validateExpressions`` for one node and value (no old object)."""
    sts = node.schema
    if obj is None:
        return
    if node.init_error:
        state.errors.append(invalid(path, sts.type, f"rule compiler initialization error: {node.init_error}"))
        return
    if not node.rules:
        return
    if state.remaining <= 0:
        state.errors.append(invalid(path, sts.type, _BUDGET_MSG))
        state.remaining = -1
        return
    schema = _with_type_and_object_meta(sts) if node.is_resource_root else sts
    self_value = state.converter.convert(obj, schema)
    activation: Any = None
    estimator = _Estimator(self_value)
    for rule in node.rules:
        prog = rule.program
        if prog.error:
            state.errors.append(invalid(path, sts.type, f"rule compile error: {prog.error}"))
            continue
        if prog.program is None:
            continue
        if prog.uses_old_self and not rule.rule.get("optionalOldSelf"):
            state.skipped.append(str(path))
            continue
        cost = _program_bound(prog, estimator)
        if cost > PER_CALL_LIMIT:
            # cel-go cancels the call as soon as its actual cost passes the limit
            if PER_CALL_LIMIT + 1 > state.remaining:
                state.errors.append(invalid(path, sts.type, _BUDGET_MSG))
            else:
                state.errors.append(
                    invalid(
                        path,
                        sts.type,
                        f"'{_COST_LIMIT_ERR}': no further validation rules will be run due to call cost "
                        f"exceeds limit for rule: {_rule_error_string(rule.rule)}",
                    )
                )
            state.remaining = -1
            return
        if cost > state.remaining:
            state.errors.append(invalid(path, sts.type, _BUDGET_MSG))
            state.remaining = -1
            return
        state.remaining -= cost
        if activation is None:
            activation = _environment().Activation({"self": self_value})
        value, err = _evaluate(prog.program, activation)
        detail: str | None
        if err is not None:
            if err.startswith("no such overload"):
                detail = (
                    f"'{err}': call arguments did not match a supported operator, function or macro signature "
                    f"for rule: {_rule_error_string(rule.rule)}"
                )
            else:
                detail = f"{err} evaluating rule: {_rule_error_string(rule.rule)}"
            state.errors.append(invalid(path, sts.type, detail))
            continue
        if _is_true(value):
            continue
        current = Path(path).child(rule.field_path) if rule.field_path else path
        detail = None
        if rule.message is not None:
            msg, remaining, fatal = _eval_message_expression(rule, activation, estimator, state.remaining)
            state.remaining = remaining
            if fatal:
                state.errors.append(invalid(current, sts.type, fatal))
                state.remaining = -1
                return
            detail = msg
        if detail is None:
            detail = _rule_message_or_default(rule.rule)
        bad: Any = OMIT if sts.type in ("object", "array") else obj
        reason = rule.rule.get("reason")
        state.errors.append(_field_error_for_reason(current, bad, detail, str(reason) if reason else None))


def _walk(root: _Node, obj: Any, fld_path: Path, state: _State) -> None:
    """Upstream ``Validator.validate``/``validateMap``/``validateArray``, iteratively, in upstream order."""
    stack: list[tuple[_Node, Any, Path]] = [(root, obj, fld_path)]
    while stack:
        node, value, path = stack.pop()
        if value is None:
            continue
        _validate_expressions(node, value, path, state)
        if state.remaining < 0:
            return
        children: list[tuple[_Node, Any, Path]] = [(a, value, path) for a in node.all_of]
        if isinstance(value, list):
            if node.items is not None:
                children.extend((node.items, v, path.index(i)) for i, v in enumerate(value))
        elif isinstance(value, dict):
            if node.additional is not None:
                children.extend((node.additional, v, path.key(str(k))) for k, v in value.items())
            if node.properties:
                children.extend(
                    (node.properties[k], v, path.child(k)) for k, v in value.items() if k in node.properties
                )
        stack.extend(reversed(children))


def validate_cel(
    obj: Any,
    ss: Structural,
    fld_path: Path,
    *,
    is_resource_root: bool = True,
    budget: int | None = None,
) -> CelResult:
    """Evaluate every ``x-kubernetes-validations`` rule of ``ss`` on ``obj`` (a create).

    Args:
        obj: the (pruned, defaulted, schema-valid) object; plain JSON-like data.
        ss: its structural schema (``new_structural`` of the version's openAPIV3Schema).
        fld_path: the path of ``obj`` (``Path("")`` for a whole custom resource).
        is_resource_root: ``obj`` is a resource root: ``apiVersion``, ``kind``
            and ``metadata.name``/``generateName`` are visible to root rules.
        budget: the request's cost budget (default ``RUNTIME_CEL_COST_BUDGET``).

    Returns:
        A :class:`CelResult`: upstream's field errors (rule false: ``Invalid``
        or the type named by ``reason``, detail = message, evaluated
        messageExpression or ``failed rule: <rule>``; runtime errors and
        cost exhaustion as upstream words them), the paths of skipped
        transition rules, and the remaining budget.

    Never raises. Mirrors upstream ``NewValidator(s, isResourceRoot,
    PerCallLimit).Validate(ctx, fldPath, s, obj, nil, budget)`` in
    ``apiextensions-apiserver/pkg/apiserver/schema/cel/validation.go``.
    """
    remaining = RUNTIME_CEL_COST_BUDGET if budget is None else budget
    state = _State(remaining=remaining, errors=[], skipped=[], converter=_Converter())
    try:
        tree = _validator(ss, is_resource_root)
        if tree is not None and obj is not None:
            _walk(tree, obj, Path(fld_path), state)
    except ImportError as exc:
        state.errors.append(internal_error(Path(fld_path), f"CEL evaluation is unavailable: {exc}"))
    except RecursionError:
        state.errors.append(
            internal_error(Path(fld_path), "schema or object too deeply nested for CEL validation")
        )
    return CelResult(errors=state.errors, skipped_transition_rules=state.skipped, remaining_budget=state.remaining)
