"""Static cost estimation: a port of cel-go v0.26.0 ``checker/cost.go``.

:func:`estimate_cost` computes the ``CostEstimate{Min, Max}`` the apiserver
gets from ``env.EstimateCost(ast, estimator)`` for a checked expression:
identifiers and selections cost 1, literals 0, list/map/struct literals 10/30/40
plus their parts, calls 1 plus their arguments unless a cost function knows
better (string operations by size times 0.1, ``matches`` by string size times
regex size times 0.25, ``&&``/``||``/``?:`` by their branches,
comprehensions by range size times the loop body), with every size taken
from literal sizes, the sizes computed for sub-expressions, or the
:class:`CostEstimator`'s ``estimate_size`` (the Kubernetes schema's
``maxLength``/``maxItems``/``maxProperties`` and the request-size estimates).
Arithmetic is cel-go's: unsigned 64-bit with saturation, cost factors
multiplied in float64 and rounded up.

The ``ext`` libraries' overload estimators the Kubernetes environment
registers (``ext.Lists`` version 3: ``slice``, ``flatten``, ``lists.range``,
``reverse``, ``distinct``, ``sort``, ``sortBy``; ``ext.Sets``) take
precedence over the estimator, as ``cel.CostEstimatorOptions`` makes them.
The presence test (``has()``) costs 0, as the apiserver configures
(``PresenceTestHasCost(false)``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Protocol

from crdtool.core.celgo import ast as A
from crdtool.core.celgo import types as T
from crdtool.core.celgo.checker import CheckedAst
from crdtool.core.celgo.parser import ACCUMULATOR, LEGACY_ACCUMULATOR
from crdtool.core.celgo.version import DEFAULT as DEFAULT_CEL_GO
from crdtool.core.celgo.version import has

__all__ = [
    "AstNode",
    "CallEstimate",
    "GoPath",
    "CostEstimate",
    "CostEstimator",
    "MAX_UINT64",
    "SizeEstimate",
    "estimate_cost",
    "multiply_by_cost_factor",
]

MAX_UINT64 = (1 << 64) - 1
_TWO_TO_64 = float(1 << 64)

SELECT_AND_IDENT_COST = 1
CONST_COST = 0
LIST_CREATE_BASE_COST = 10
MAP_CREATE_BASE_COST = 30
STRUCT_CREATE_BASE_COST = 40
STRING_TRAVERSAL_COST_FACTOR = 0.1
REGEX_STRING_LENGTH_COST_FACTOR = 0.25


def add_no_overflow(x: int, y: int) -> int:
    """``addUint64NoOverflow``."""
    return MAX_UINT64 if y > 0 and x > MAX_UINT64 - y else x + y


def multiply_no_overflow(x: int, y: int) -> int:
    """``multiplyUint64NoOverflow``."""
    if y != 0 and x > MAX_UINT64 // y:
        return MAX_UINT64
    return x * y


def multiply_by_cost_factor(x: int, y: float) -> int:
    """``multiplyByCostFactor``: ``ceil(x * y)`` in float64, saturating at 2^64-1."""
    xf = float(x)
    if xf > 0 and y > 0 and xf > float(MAX_UINT64) / y:
        return MAX_UINT64
    c = math.ceil(xf * y)
    if c >= _TWO_TO_64:
        return MAX_UINT64
    return int(c)


@dataclass(frozen=True, slots=True)
class SizeEstimate:
    """``checker.SizeEstimate``: bounds of a string/bytes length or list/map size."""

    min: int
    max: int

    def add(self, o: SizeEstimate) -> SizeEstimate:
        return SizeEstimate(add_no_overflow(self.min, o.min), add_no_overflow(self.max, o.max))

    def multiply(self, o: SizeEstimate) -> SizeEstimate:
        return SizeEstimate(multiply_no_overflow(self.min, o.min), multiply_no_overflow(self.max, o.max))

    def multiply_by_cost_factor(self, f: float) -> CostEstimate:
        return CostEstimate(multiply_by_cost_factor(self.min, f), multiply_by_cost_factor(self.max, f))

    def multiply_by_cost(self, c: CostEstimate) -> CostEstimate:
        return CostEstimate(multiply_no_overflow(self.min, c.min), multiply_no_overflow(self.max, c.max))

    def union(self, o: SizeEstimate) -> SizeEstimate:
        return SizeEstimate(min(self.min, o.min), max(self.max, o.max))


@dataclass(frozen=True, slots=True)
class CostEstimate:
    """``checker.CostEstimate``."""

    min: int
    max: int

    def add(self, o: CostEstimate) -> CostEstimate:
        return CostEstimate(add_no_overflow(self.min, o.min), add_no_overflow(self.max, o.max))

    def multiply(self, o: CostEstimate) -> CostEstimate:
        return CostEstimate(multiply_no_overflow(self.min, o.min), multiply_no_overflow(self.max, o.max))

    def multiply_by_cost_factor(self, f: float) -> CostEstimate:
        return CostEstimate(multiply_by_cost_factor(self.min, f), multiply_by_cost_factor(self.max, f))

    def union(self, o: CostEstimate) -> CostEstimate:
        return CostEstimate(min(self.min, o.min), max(self.max, o.max))


UNKNOWN_SIZE = SizeEstimate(0, MAX_UINT64)
ZERO_COST = CostEstimate(0, 0)


def fixed_cost(c: int) -> CostEstimate:
    return CostEstimate(c, c)


def fixed_size(s: int) -> SizeEstimate:
    return SizeEstimate(s, s)


@dataclass(frozen=True, slots=True)
class CallEstimate:
    """``checker.CallEstimate``: a call's cost and, if known, its result size."""

    cost: CostEstimate
    result_size: SizeEstimate | None = None


# Go slice capacities for []string (16-byte elements): runtime size classes up to 32 KiB.
_SIZE_CLASSES = (
    0, 8, 16, 24, 32, 48, 64, 80, 96, 112, 128, 144, 160, 176, 192, 208, 224, 240, 256, 288, 320, 352, 384, 416,
    448, 480, 512, 576, 640, 704, 768, 896, 1024, 1152, 1280, 1408, 1536, 1792, 2048, 2304, 2688, 3072, 3200,
    3456, 4096, 4864, 5376, 6144, 6528, 6784, 6912, 8192, 9472, 9728, 10240, 10880, 12288, 13568, 14336, 16384,
    18432, 19072, 20480, 21760, 24576, 27264, 28672, 32768,
)


def _grow_cap(old_cap: int, new_len: int) -> int:
    """``runtime.growslice``'s new capacity for a ``[]string`` (``nextslicecap`` + ``roundupsize``)."""
    double = old_cap + old_cap
    if new_len > double:
        cap = new_len
    elif old_cap < 256:
        cap = double
    else:
        cap = old_cap
        while cap < new_len:
            cap += (cap + 3 * 256) >> 2
    mem = cap * 16
    for size in _SIZE_CLASSES:
        if size >= mem:
            return size // 16
    return -(-mem // 8192) * 8192 // 16


class GoPath:
    """A ``[]string`` path with Go's slice semantics.

    cel-go builds paths with ``append(path, name)`` on shared slices, so two
    appends to the same slice (an iteration variable's path extended by two
    field selections, a two-variable comprehension's key and value paths)
    write the same backing array and the first path then reads the second
    name. Estimates read paths when they run, so they see those overwrites as
    upstream does; this class reproduces it (backing array, length, capacity).
    """

    __slots__ = ("arr", "n", "cap")

    def __init__(self, arr: list[str], n: int, cap: int) -> None:
        self.arr = arr
        self.n = n
        self.cap = cap

    @staticmethod
    def of(name: str) -> GoPath:
        """``[]string{name}``."""
        return GoPath([name], 1, 1)

    def append(self, name: str) -> GoPath:
        if self.n < self.cap:
            self.arr[self.n] = name
            return GoPath(self.arr, self.n + 1, self.cap)
        cap = _grow_cap(self.cap, self.n + 1)
        arr = self.arr[: self.n] + [name] + [""] * (cap - self.n - 1)
        return GoPath(arr, self.n + 1, cap)

    def view(self) -> tuple[str, ...]:
        return tuple(self.arr[: self.n])


_NIL_PATH = GoPath([], 0, 0)


class AstNode:
    """``checker.AstNode``: a sub-expression as estimators see it.

    ``path`` is the data path the value comes from (``("self", "spec",
    "@items")``), read when asked (see :class:`GoPath`), or None;
    ``computed_size`` the size the estimator already derived for it.
    """

    __slots__ = ("_path", "type", "expr", "computed_size")

    def __init__(
        self, path: GoPath | tuple[str, ...] | None, type: T.Type, expr: A.Expr | None,  # noqa: A002
        computed_size: SizeEstimate | None,
    ) -> None:
        if isinstance(path, tuple):
            path = GoPath(list(path), len(path), len(path))
        self._path = path
        self.type = type
        self.expr = expr
        self.computed_size = computed_size

    @property
    def path(self) -> tuple[str, ...] | None:
        # an empty path is Go's nil slice (exprPaths[id][:] of an expression without a path, such as a
        # comprehension): cel-go never builds an empty non-nil one, and listElementNode tests "!= nil"
        if self._path is None or self._path.n == 0:
            return None
        return self._path.view()


class CostEstimator(Protocol):
    """``checker.CostEstimator``."""

    def estimate_size(self, node: AstNode) -> SizeEstimate | None: ...

    def estimate_call_cost(
        self, function: str, overload_id: str, target: AstNode | None, args: list[AstNode]
    ) -> CallEstimate | None: ...


def node_size(estimator: CostEstimator, node: AstNode) -> SizeEstimate:
    """The ``estimateSize`` helper of ``ext`` and the Kubernetes library: computed, estimated or unknown."""
    if node.computed_size is not None:
        return node.computed_size
    sz = estimator.estimate_size(node)
    return sz if sz is not None else UNKNOWN_SIZE


# --- ext overload estimators (ext/lists.go v3, ext/sets.go) ------------------------------------------

_FunctionEstimator = Callable[[CostEstimator, "AstNode | None", "list[AstNode]"], "CallEstimate | None"]
_CALL_COST = fixed_cost(1)


def _node_int(node: AstNode, default: int) -> int:
    """``nodeAsIntValue``."""
    e = node.expr
    if e is None or e.kind != A.LITERAL or e.lit != A.LIT_INT:
        return default
    return 0 if e.value < 0 else int(e.value)


def _allocating_list_call(factor: float, size: SizeEstimate) -> CallEstimate:
    cost = size.multiply_by_cost_factor(factor).add(_CALL_COST).add(fixed_cost(LIST_CREATE_BASE_COST))
    return CallEstimate(cost, size)


def _list_slice(est: CostEstimator, target: AstNode | None, args: list[AstNode]) -> CallEstimate | None:
    if target is None or len(args) != 2:
        return None
    sz = node_size(est, target)
    start = _node_int(args[0], 0)
    end = _node_int(args[1], sz.max)
    return _allocating_list_call(1, fixed_size((end - start) & MAX_UINT64))


def _lists_range(est: CostEstimator, target: AstNode | None, args: list[AstNode]) -> CallEstimate | None:
    if target is not None or len(args) != 1:
        return None
    return _allocating_list_call(1, fixed_size(_node_int(args[0], MAX_UINT64)))


def _list_reverse(est: CostEstimator, target: AstNode | None, args: list[AstNode]) -> CallEstimate | None:
    if target is None or args:
        return None
    return _allocating_list_call(1, node_size(est, target))


def _list_flatten(est: CostEstimator, target: AstNode | None, args: list[AstNode]) -> CallEstimate | None:
    if target is None or len(args) > 1:
        return None
    depth = _node_int(args[0], MAX_UINT64) if args else 1
    return _allocating_list_call(float(depth), node_size(est, target))


def _list_distinct(est: CostEstimator, target: AstNode | None, args: list[AstNode]) -> CallEstimate | None:
    if target is None or args:
        return None
    sz = node_size(est, target)
    return _allocating_list_call(2.0, sz.multiply(sz))


def _sort_cost(est: CostEstimator, node: AstNode, elem: str) -> CallEstimate:
    sz = node_size(est, node)
    factor = 2.0
    if elem in ("string", "bytes"):
        factor += STRING_TRAVERSAL_COST_FACTOR
    return _allocating_list_call(factor, sz.multiply(sz))


def _list_sort(elem: str) -> _FunctionEstimator:
    def fn(est: CostEstimator, target: AstNode | None, args: list[AstNode]) -> CallEstimate | None:
        if target is None or args:
            return None
        return _sort_cost(est, target, elem)

    return fn


def _list_sort_by(elem: str) -> _FunctionEstimator:
    def fn(est: CostEstimator, target: AstNode | None, args: list[AstNode]) -> CallEstimate | None:
        if target is None or len(args) != 1:
            return None
        return _sort_cost(est, args[0], elem)

    return fn


def _sets(factor: float) -> _FunctionEstimator:
    def fn(est: CostEstimator, target: AstNode | None, args: list[AstNode]) -> CallEstimate | None:
        if len(args) != 2:
            return None
        cost = node_size(est, args[0]).multiply(node_size(est, args[1])).multiply_by_cost_factor(factor).add(_CALL_COST)
        return CallEstimate(cost)

    return fn


_RUNTIME_NAME = {"duration": "google.protobuf.Duration", "timestamp": "google.protobuf.Timestamp"}
OVERLOAD_ESTIMATORS: dict[str, _FunctionEstimator] = {
    "list_slice": _list_slice,
    "list_flatten": _list_flatten,
    "list_flatten_int": _list_flatten,
    "lists_range": _lists_range,
    "list_reverse": _list_reverse,
    "list_distinct": _list_distinct,
    **{f"list_{_RUNTIME_NAME.get(t, t)}_sort": _list_sort(t)
       for t in ("int", "uint", "double", "bool", "duration", "timestamp", "string", "bytes")},
    **{f"list_{_RUNTIME_NAME.get(t, t)}_sortByAssociatedKeys": _list_sort_by(t)
       for t in ("int", "uint", "double", "bool", "duration", "timestamp", "string", "bytes")},
    "list_sets_contains_list": _sets(1),
    "list_sets_intersects_list": _sets(1),
    "list_sets_equivalent_list": _sets(2),
}


# --- the coster ----------------------------------------------------------------------------------------


@dataclass(slots=True)
class _EntrySize:
    """``entrySizeEstimate``: a container literal's kind and its keys' and values' sizes."""

    container: T.Kind
    key: SizeEstimate
    val: SizeEstimate

    def union(self, other: _EntrySize | None) -> _EntrySize | None:
        if other is None:
            return None
        return _EntrySize(self.container, self.key.union(other.key), self.val.union(other.val))


def _union_entries(a: _EntrySize | None, b: _EntrySize | None) -> _EntrySize | None:
    return a.union(b) if a is not None else None


@dataclass(slots=True)
class _LocalVar:
    path: GoPath
    size: SizeEstimate | None
    entry: _EntrySize | None


_COMPARISON_OVERLOADS = frozenset(
    {
        "less_string", "greater_string", "less_equals_string", "greater_equals_string",
        "less_bytes", "greater_bytes", "less_equals_bytes", "greater_equals_bytes",
        "equals", "not_equals",
    }
)


class _Coster:
    """``checker.coster``.

    ``size_propagation``: cel-go v0.23.2's model (``#1104``, ``#1113``, ``#1119``): sizes of list/map literal entries,
    comprehension variables as local variables with sizes, comprehension result sizes by accumulator kind,
    ``dyn(x)`` transparent, per-call computed sizes, binds. Without it, cel-go v0.17.8 … v0.22.0
    (``checker/cost.go@v0.22.0``): an iteration variable gets the path of its range plus ``@items``/``@keys`` by the
    range's type (none for ``dyn``), the second variable of a two-variable comprehension and the accumulator are
    plain identifiers, a comprehension's size is its range's, and a size is the computed one (call results,
    literals), the estimator's, 1 for scalars, or unknown.
    """

    def __init__(
        self,
        checked: CheckedAst,
        estimator: CostEstimator,
        presence_test_cost: CostEstimate,
        overload_estimators: dict[str, _FunctionEstimator],
        size_propagation: bool = True,
    ) -> None:
        self.v2 = size_propagation
        self.iter_ranges: dict[str, list[A.Expr]] = {}
        self.overload_estimators = overload_estimators
        self.checked = checked
        self.estimator = estimator
        self.presence_test_cost = presence_test_cost
        self.paths: dict[int, GoPath] = {}
        self.locals: dict[str, list[_LocalVar]] = {}
        self.sizes: dict[int, SizeEstimate] = {}
        self.entries: dict[int, _EntrySize] = {}

    # -- scopes --
    def push(self, name: str, path: GoPath, size: SizeEstimate | None, entry: _EntrySize | None) -> None:
        self.locals.setdefault(name, []).append(_LocalVar(path, size, entry))

    def pop(self, name: str) -> None:
        self.locals[name].pop()

    def peek(self, name: str) -> _LocalVar | None:
        stack = self.locals.get(name)
        return stack[-1] if stack else None

    def push_local(self, name: str, e: A.Expr) -> None:
        self.push(name, self.get_path(e), self.compute_size(e), self.compute_entry_size(e))

    def push_iter_single(self, name: str, rng: A.Expr) -> None:
        entry = self.compute_entry_size(rng)
        size = entry.key if entry is not None else None
        sub = "@keys"
        container = entry.container if entry is not None else self.get_type(rng).kind
        if container == T.Kind.LIST:
            size = entry.val if entry is not None else None
            sub = "@items"
        self.push(name, self.get_path(rng).append(sub), size, None)

    def push_iter_key(self, name: str, rng: A.Expr) -> None:
        entry = self.compute_entry_size(rng)
        size = entry.key if entry is not None else None
        container = entry.container if entry is not None else self.get_type(rng).kind
        sub = "@indices" if container == T.Kind.LIST else "@keys"
        self.push(name, self.get_path(rng).append(sub), size, None)

    def push_iter_value(self, name: str, rng: A.Expr) -> None:
        entry = self.compute_entry_size(rng)
        size = entry.val if entry is not None else None
        container = entry.container if entry is not None else self.get_type(rng).kind
        sub = "@items" if container == T.Kind.LIST else "@values"
        self.push(name, self.get_path(rng).append(sub), size, None)

    # -- cost --
    def cost(self, e: A.Expr | None) -> CostEstimate:
        if e is None:
            return ZERO_COST
        k = e.kind
        if k == A.LITERAL:
            return fixed_cost(CONST_COST)
        if k == A.IDENT:
            return self.cost_ident(e) if self.v2 else self.cost_ident_v1(e)
        if k == A.SELECT:
            return self.cost_select(e)
        if k == A.CALL:
            return self.cost_call(e)
        if k == A.LIST:
            return self.cost_list(e)
        if k == A.MAP:
            return self.cost_map(e)
        if k == A.STRUCT:
            total = ZERO_COST
            for f in e.entries:
                total = total.add(self.cost(f.value))
            return total.add(fixed_cost(STRUCT_CREATE_BASE_COST))
        if k == A.COMPREHENSION:
            if not self.v2:
                return self.cost_comprehension_v1(e)
            return self.cost_bind(e) if self.is_bind(e) else self.cost_comprehension(e)
        return ZERO_COST

    def cost_ident(self, e: A.Expr) -> CostEstimate:
        v = self.peek(e.name)
        self.paths[e.id] = v.path if v is not None else GoPath.of(e.name)
        return fixed_cost(SELECT_AND_IDENT_COST)

    def cost_ident_v1(self, e: A.Expr) -> CostEstimate:
        """``costIdent@v0.22.0``: an iteration variable's path is its range's plus ``@items`` (list) or ``@keys``
        (map), none for other range types; any other identifier's is its name."""
        stack = self.iter_ranges.get(e.name)
        if stack:
            rng = stack[-1]
            k = self.get_type(rng).kind
            if k == T.Kind.LIST:
                self.paths[e.id] = self.paths.get(rng.id, _NIL_PATH).append("@items")
            elif k == T.Kind.MAP:
                self.paths[e.id] = self.paths.get(rng.id, _NIL_PATH).append("@keys")
        else:
            self.paths[e.id] = GoPath.of(e.name)
        return fixed_cost(SELECT_AND_IDENT_COST)

    def cost_select(self, e: A.Expr) -> CostEstimate:
        assert e.operand is not None
        total = ZERO_COST
        if e.test_only:
            total = total.add(self.presence_test_cost)
            return total.add(self.cost(e.operand))
        total = total.add(self.cost(e.operand))
        if self.get_type(e.operand).kind in (T.Kind.MAP, T.Kind.STRUCT, T.Kind.TYPE_PARAM):
            total = total.add(fixed_cost(SELECT_AND_IDENT_COST))
        self.paths[e.id] = self.get_path(e.operand).append(e.name)
        return total

    def cost_call(self, e: A.Expr) -> CostEstimate:
        if self.v2 and e.name == "dyn" and e.target is None and len(e.args) == 1:
            arg = e.args[0]
            arg_cost = self.cost(arg)
            self.copy_sizes(e, arg)
            return fixed_cost(1).add(arg_cost)
        args = e.args
        arg_nodes: list[AstNode] = []
        arg_costs: list[CostEstimate] = []
        for a in args:
            arg_costs.append(self.cost(a))
            arg_nodes.append(self.new_node(a))
        overload_ids = self.checked.overload_ids(e.id)
        if not overload_ids:
            return ZERO_COST
        total = ZERO_COST
        target_node: AstNode | None = None
        if e.target is not None:
            total = total.add(self.cost(e.target))
            target_node = self.new_node(e.target)
        fn_cost = CostEstimate(MAX_UINT64, 0)
        result_size: SizeEstimate | None = None
        for oid in overload_ids:
            est = self.function_cost(e, e.name, oid, target_node, arg_nodes, arg_costs)
            fn_cost = fn_cost.union(est.cost)
            if est.result_size is not None:
                result_size = est.result_size if result_size is None else result_size.union(est.result_size)
            if oid == "index_list" and args:
                if self.v2:
                    entry = self.compute_entry_size(args[0])
                    result_size = entry.val if entry is not None else None
                self.paths[e.id] = self.get_path(args[0]).append("@items")
            elif oid == "index_map" and args:
                if self.v2:
                    entry = self.compute_entry_size(args[0])
                    result_size = entry.val if entry is not None else None
                self.paths[e.id] = self.get_path(args[0]).append("@values")
            if result_size is None and self.v2:
                result_size = self.compute_size(e)
        self.set_size(e, result_size)
        return total.add(fn_cost)

    def cost_list(self, e: A.Expr) -> CostEstimate:
        total = ZERO_COST
        item = SizeEstimate(0 if not e.args else MAX_UINT64, 0)
        for el in e.args:
            total = total.add(self.cost(el))
            item = item.union(self.size_or_unknown(el))
        self.entries[e.id] = _EntrySize(T.Kind.LIST, fixed_size(1), item)
        return total.add(fixed_cost(LIST_CREATE_BASE_COST))

    def cost_map(self, e: A.Expr) -> CostEstimate:
        total = ZERO_COST
        empty = not e.entries
        key = SizeEstimate(0 if empty else MAX_UINT64, 0)
        val = SizeEstimate(0 if empty else MAX_UINT64, 0)
        for en in e.entries:
            assert en.key is not None
            total = total.add(self.cost(en.key))
            total = total.add(self.cost(en.value))
            key = key.union(self.size_or_unknown(en.key))
            val = val.union(self.size_or_unknown(en.value))
        self.entries[e.id] = _EntrySize(T.Kind.MAP, key, val)
        return total.add(fixed_cost(MAP_CREATE_BASE_COST))

    def cost_comprehension(self, e: A.Expr) -> CostEstimate:
        assert e.iter_range is not None and e.accu_init is not None
        total = ZERO_COST
        total = total.add(self.cost(e.iter_range))
        total = total.add(self.cost(e.accu_init))
        self.push_local(e.accu_var, e.accu_init)
        if e.iter_var2:
            self.push_iter_key(e.iter_var, e.iter_range)
            self.push_iter_value(e.iter_var2, e.iter_range)
        else:
            self.push_iter_single(e.iter_var, e.iter_range)
        loop_cost = self.cost(e.loop_condition)
        step_cost = self.cost(e.loop_step)
        self.pop(e.iter_var)
        if e.iter_var2:
            self.pop(e.iter_var2)
        total = total.add(self.cost(e.result))
        self.pop(e.accu_var)
        range_cnt = self.size_or_unknown(e.iter_range)
        total = total.add(range_cnt.multiply_by_cost(step_cost.add(loop_cost)))
        k = e.accu_init.kind
        if k == A.LITERAL:
            self.set_size(e, self.compute_size(e.accu_init))
        elif k in (A.LIST, A.MAP):
            self.set_size(e, range_cnt)
            assert e.loop_step is not None
            step_entry = self.compute_entry_size(e.loop_step)
            if step_entry is not None:
                self.entries[e.id] = step_entry
        return total

    def cost_comprehension_v1(self, e: A.Expr) -> CostEstimate:
        """``costComprehension@v0.22.0``: only the first iteration variable is tracked; the comprehension's size is
        its range's."""
        assert e.iter_range is not None and e.accu_init is not None
        total = ZERO_COST
        total = total.add(self.cost(e.iter_range))
        total = total.add(self.cost(e.accu_init))
        self.iter_ranges.setdefault(e.iter_var, []).append(e.iter_range)
        loop_cost = self.cost(e.loop_condition)
        step_cost = self.cost(e.loop_step)
        self.iter_ranges[e.iter_var].pop()
        total = total.add(self.cost(e.result))
        range_cnt = self.size_estimate_v1(self.new_node(e.iter_range))
        self.sizes[e.id] = range_cnt
        return total.add(range_cnt.multiply_by_cost(step_cost.add(loop_cost)))

    def is_bind(self, e: A.Expr) -> bool:
        rng, cond = e.iter_range, e.loop_condition
        assert rng is not None and cond is not None
        return (
            rng.kind == A.LIST and not rng.args
            and cond.kind == A.LITERAL and cond.lit == A.LIT_BOOL and cond.value is False
            and e.accu_var != LEGACY_ACCUMULATOR
        )

    def cost_bind(self, e: A.Expr) -> CostEstimate:
        assert e.accu_init is not None and e.result is not None
        total = ZERO_COST
        total = total.add(self.cost(e.iter_range))
        total = total.add(self.cost(e.accu_init))
        self.push_local(e.accu_var, e.accu_init)
        total = total.add(self.cost(e.result))
        self.pop(e.accu_var)
        self.copy_sizes(e, e.result)
        return total

    def function_cost(
        self,
        e: A.Expr,
        function: str,
        overload_id: str,
        target: AstNode | None,
        args: list[AstNode],
        arg_costs: list[CostEstimate],
    ) -> CallEstimate:
        arg_sum = ZERO_COST
        for c in arg_costs:
            arg_sum = arg_sum.add(c)
        ov_est = self.overload_estimators.get(overload_id)
        if ov_est is not None:
            got = ov_est(self.estimator, target, args)
            if got is not None:
                return CallEstimate(got.cost.add(arg_sum), got.result_size)
        got = self.estimator.estimate_call_cost(function, overload_id, target, args)
        if got is not None:
            return CallEstimate(got.cost.add(arg_sum), got.result_size)
        f = STRING_TRAVERSAL_COST_FACTOR
        if overload_id == "string_format":
            if target is not None:
                return CallEstimate(self.node_size(target).multiply_by_cost_factor(f).add(arg_sum))
        elif overload_id == "string_to_bytes":
            if len(args) == 1:
                sz = self.node_size(args[0])
                return CallEstimate(sz.multiply_by_cost_factor(f).add(arg_sum), SizeEstimate(sz.min, sz.max * 4 & MAX_UINT64))
        elif overload_id == "bytes_to_string":
            if len(args) == 1:
                sz = self.node_size(args[0])
                return CallEstimate(sz.multiply_by_cost_factor(f).add(arg_sum), SizeEstimate(sz.min // 4, sz.max))
        elif overload_id == "strings_quote":
            if len(args) == 1:
                sz = self.node_size(args[0])
                return CallEstimate(
                    sz.multiply_by_cost_factor(f).add(arg_sum),
                    SizeEstimate((sz.min + 2) & MAX_UINT64, (sz.max * 2 + 2) & MAX_UINT64),
                )
        elif overload_id in ("starts_with_string", "ends_with_string"):
            if len(args) == 1:
                return CallEstimate(self.node_size(args[0]).multiply_by_cost_factor(f).add(arg_sum))
        elif overload_id == "in_list":
            if len(args) == 2:
                return CallEstimate(self.node_size(args[1]).multiply_by_cost_factor(1).add(arg_sum))
        elif overload_id == "matches_string":
            if target is not None and len(args) == 1:
                str_cost = self.node_size(target).add(fixed_size(1)).multiply_by_cost_factor(f)
                regex_cost = self.node_size(args[0]).multiply_by_cost_factor(REGEX_STRING_LENGTH_COST_FACTOR)
                return CallEstimate(str_cost.multiply(regex_cost).add(arg_sum))
        elif overload_id == "contains_string":
            if target is not None and len(args) == 1:
                str_cost = self.node_size(target).multiply_by_cost_factor(f)
                sub_cost = self.node_size(args[0]).multiply_by_cost_factor(f)
                return CallEstimate(str_cost.multiply(sub_cost).add(arg_sum))
        elif overload_id in ("logical_or", "logical_and"):
            lhs, rhs = arg_costs[0], arg_costs[1]
            return CallEstimate(CostEstimate(lhs.min, lhs.add(rhs).max))
        elif overload_id == "conditional":
            size = self.node_size(args[1]).union(self.node_size(args[2]))
            a1, a2 = args[1].expr, args[2].expr
            assert a1 is not None and a2 is not None
            entry = _union_entries(self.compute_entry_size(a1), self.compute_entry_size(a2)) if self.v2 else None
            if entry is not None:
                self.entries[e.id] = entry
            cond, if_true, if_false = arg_costs
            return CallEstimate(cond.add(if_true.union(if_false)), size)
        elif overload_id in ("add_string", "add_bytes", "add_list"):
            if len(args) == 2:
                lhs_size = self.node_size(args[0])
                rhs_size = self.node_size(args[1])
                result_size = lhs_size.add(rhs_size)
                a0, a1 = args[0].expr, args[1].expr
                assert a0 is not None and a1 is not None
                entry = _union_entries(self.compute_entry_size(a0), self.compute_entry_size(a1)) if self.v2 else None
                if entry is not None:
                    self.entries[e.id] = entry
                if overload_id == "add_list":
                    return CallEstimate(fixed_cost(1).add(arg_sum), result_size)
                return CallEstimate(result_size.multiply_by_cost_factor(f).add(arg_sum), result_size)
        elif overload_id in _COMPARISON_OVERLOADS:
            lhs_size = self.node_size(args[0])
            rhs_size = self.node_size(args[1])
            smallest = min(lhs_size.max, rhs_size.max)
            lo = 1 if smallest > 0 else 0
            return CallEstimate(CostEstimate(lo, smallest).multiply_by_cost_factor(f).add(arg_sum))
        return CallEstimate(fixed_cost(1).add(arg_sum))

    # -- sizes and paths --
    def get_type(self, e: A.Expr) -> T.Type:
        return self.checked.type_map.get(e.id, T.DYN)

    def get_path(self, e: A.Expr) -> GoPath:
        if self.v2 and e.kind == A.IDENT:
            v = self.peek(e.name)
            if v is not None:
                return v.path
        return self.paths.get(e.id, _NIL_PATH)

    def new_node(self, e: A.Expr) -> AstNode:
        path: GoPath | None = self.get_path(e)
        assert path is not None
        if path.n > 0 and path.arr[0] in (ACCUMULATOR, LEGACY_ACCUMULATOR):
            path = None
        if not self.v2:
            # astNode.ComputedSize@v0.22.0: a computed (call result, comprehension) size, or a literal's
            derived = self.sizes.get(e.id)
            return AstNode(path, self.get_type(e), e, derived if derived is not None else _expr_size(e))
        return AstNode(path, self.get_type(e), e, self.compute_size(e))

    def node_size(self, node: AstNode) -> SizeEstimate:
        if not self.v2:
            return self.size_estimate_v1(node)
        return node.computed_size if node.computed_size is not None else UNKNOWN_SIZE

    def size_estimate_v1(self, node: AstNode) -> SizeEstimate:
        """``coster.sizeEstimate@v0.22.0``: computed, the estimator's, 1 for scalars (optionals are not), unknown."""
        if node.computed_size is not None:
            return node.computed_size
        est = self.estimator.estimate_size(node)
        if est is not None:
            return est
        k = node.type.kind
        if k in (T.Kind.BOOL, T.Kind.DOUBLE, T.Kind.DURATION, T.Kind.INT, T.Kind.TIMESTAMP, T.Kind.UINT):
            return fixed_size(1)
        return UNKNOWN_SIZE

    def size_or_unknown(self, e: A.Expr) -> SizeEstimate:
        sz = self.compute_size(e)
        return sz if sz is not None else UNKNOWN_SIZE

    def set_size(self, e: A.Expr, size: SizeEstimate | None) -> None:
        if size is not None:
            self.sizes[e.id] = size

    def copy_sizes(self, dst: A.Expr, src: A.Expr) -> None:
        self.set_size(dst, self.compute_size(src))
        entry = self.compute_entry_size(src)
        if entry is not None:
            self.entries[dst.id] = entry

    def compute_size(self, e: A.Expr) -> SizeEstimate | None:
        sz = self.sizes.get(e.id)
        if sz is not None:
            return sz
        lit = _expr_size(e)
        if lit is not None:
            return lit
        node = AstNode(self.get_path(e), self.get_type(e), e, None)
        est = self.estimator.estimate_size(node)
        if est is not None:
            self.sizes[e.id] = est
            return est
        if _is_scalar(self.get_type(e)):
            return fixed_size(1)
        if e.kind == A.IDENT:
            v = self.peek(e.name)
            if v is not None and v.size is not None:
                return v.size
        return None

    def compute_entry_size(self, e: A.Expr) -> _EntrySize | None:
        got = self.entries.get(e.id)
        if got is not None:
            return got
        if e.kind == A.IDENT:
            v = self.peek(e.name)
            if v is not None and v.entry is not None:
                return v.entry
        return None


def _expr_size(e: A.Expr) -> SizeEstimate | None:
    """``computeExprSize``: sizes of literals and list/map literals."""
    if e.kind == A.LITERAL:
        if e.lit == A.LIT_STRING:
            return fixed_size(len(e.value))
        if e.lit == A.LIT_BYTES:
            return fixed_size(len(e.value))
        return fixed_size(1)
    if e.kind == A.LIST:
        return fixed_size(len(e.args))
    if e.kind == A.MAP:
        return fixed_size(len(e.entries))
    return None


def _is_scalar(t: T.Type) -> bool:
    k = t.kind
    if k in (T.Kind.BOOL, T.Kind.DOUBLE, T.Kind.DURATION, T.Kind.INT, T.Kind.TIMESTAMP, T.Kind.UINT):
        return True
    if k == T.Kind.OPAQUE and t.name == "optional_type":
        return _is_scalar(t.params[0])
    return False


def library_estimators(libraries: tuple[str, ...]) -> dict[str, _FunctionEstimator]:
    """The ``cel.CostEstimatorOptions`` overload estimators the given libraries register."""
    out: dict[str, _FunctionEstimator] = {}
    for oid, fn in OVERLOAD_ESTIMATORS.items():
        lib = "ext.sets" if oid.startswith("list_sets_") else "ext.lists.v3"
        if lib in libraries:
            out[oid] = fn
    return out


def estimate_cost(
    checked: CheckedAst,
    estimator: CostEstimator,
    *,
    presence_test_has_cost: bool = False,
    overload_estimators: dict[str, _FunctionEstimator] | None = None,
    cel_go: str = DEFAULT_CEL_GO,
) -> CostEstimate:
    """``checker.Cost`` (``env.EstimateCost``) of cel-go ``cel_go``.

    In: a checked expression; a size/call-cost estimator;
    ``presence_test_has_cost`` (cel-go's default is true, the apiserver turns
    it off); the overload estimators (default: those the Kubernetes
    environment's libraries register). Out: the worst-case ``CostEstimate``
    (``min``, ``max``: cost units, saturating at 2^64-1).
    """
    presence = fixed_cost(SELECT_AND_IDENT_COST) if presence_test_has_cost else fixed_cost(0)
    ests = OVERLOAD_ESTIMATORS if overload_estimators is None else overload_estimators
    coster = _Coster(checked, estimator, presence, ests, has(cel_go, "cost_size_propagation"))
    return coster.cost(checked.expr)
