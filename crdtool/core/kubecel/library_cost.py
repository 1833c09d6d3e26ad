"""The Kubernetes CEL libraries' static cost functions: ``k8s.io/apiserver/pkg/cel/library/cost.go``.

:class:`LibraryCostEstimator` is ``library.CostEstimator``: ``estimate_call_cost``
mirrors ``EstimateCallCost`` case by case (authorizer checks, ``isSorted``/
``sum``/``min``/``max``/``indexOf``/``lastIndexOf`` by list size times element
cost, string functions by size times 0.1, ``replace``/``split``/``join`` with
their result sizes, ``find``/``findAll`` by string times regex size, IP and
CIDR functions, quantities and semvers at 1, ``validate`` by the 128-character
name-format regex, and equality of the library's types), and ``estimate_size``
delegates to the size estimator it wraps (for CRDs, the schema-derived
estimator of :mod:`crdtool.core.crdcel.compilation`).
"""

from __future__ import annotations

import math
from typing import Protocol

from crdtool.core.celgo import ast as A
from crdtool.core.celgo import types as T
from crdtool.core.celgo.cost import (
    MAX_UINT64,
    REGEX_STRING_LENGTH_COST_FACTOR,
    STRING_TRAVERSAL_COST_FACTOR,
    AstNode,
    CallEstimate,
    CostEstimate,
    SizeEstimate,
    fixed_cost,
)
from crdtool.core.releases import DEFAULT_RELEASE

__all__ = ["LibraryCostEstimator", "SizeEstimator"]

#: ``cel.MaxFormatSize`` and ``cel.MaxNameFormatRegexSize`` (``k8s.io/apiserver/pkg/cel/limits.go``).
MAX_FORMAT_SIZE = 64
MAX_NAME_FORMAT_REGEX_SIZE = 128

_LIST_CREATE = 10
_STRUCT_CREATE = 40
_SELECTOR_LENGTH_TO_REQUIREMENT_COUNT = 0.5
_COST_PER_REQUIREMENT = float(_LIST_CREATE + _STRUCT_CREATE)

_ONE = fixed_cost(1)
_UNIT_COST_FUNCTIONS = frozenset(
    {
        "serviceAccount", "path", "group", "resource", "subresource", "namespace", "name", "allowed", "reason",
        "error", "errored",
        "masked", "prefixLength", "family", "isUnspecified", "isLoopback", "isLinkLocalMulticast",
        "isLinkLocalUnicast", "isGlobalUnicast",
        "format.named",
        "sign", "asInteger", "isInteger", "asApproximateFloat", "isGreaterThan", "isLessThan", "compareTo", "add",
        "sub", "major", "minor", "patch",
        "getScheme", "getHostname", "getHost", "getPort", "getEscapedPath", "getQuery",
    }
)
_UNIT_EQUALITY_STRUCTS = frozenset(
    {
        "kubernetes.Quantity", "kubernetes.authorization.Authorizer", "kubernetes.authorization.PathCheck",
        "kubernetes.authorization.GroupCheck", "kubernetes.authorization.ResourceCheck",
        "kubernetes.authorization.Decision", "kubernetes.Semver",
    }
)


class SizeEstimator(Protocol):
    def estimate_size(self, node: AstNode) -> SizeEstimate | None: ...


def _selector_cost(length: SizeEstimate) -> CostEstimate:
    """``selectorCostEstimate``."""
    parse_cost = length.multiply_by_cost_factor(STRING_TRAVERSAL_COST_FACTOR)
    requirement_count = length.multiply_by_cost_factor(_SELECTOR_LENGTH_TO_REQUIREMENT_COUNT)
    requirement_cost = requirement_count.multiply_by_cost_factor(_COST_PER_REQUIREMENT)
    return fixed_cost(_LIST_CREATE).add(parse_cost).add(requirement_cost)


#: ``library/cost.go@v0.32.0``: ``EstimateCallCost`` prices ``_==_`` of the Kubernetes types (1, or by the format or
#: URL size) and gives ``url`` a result size; in v0.30/v0.31 the equality falls to cel-go's default estimate (the
#: operands' sizes, unknown for library results: ``{1, 1844674407370955264}`` plus the operands) and ``url``
#: has no result size.
_EQUALITY_AND_URL_SIZE_SINCE = 32


class LibraryCostEstimator:
    """``library.CostEstimator{SizeEstimator: ...}`` of Kubernetes 1.``minor`` (default: the newest)."""

    def __init__(self, size_estimator: SizeEstimator | None = None, minor: int = DEFAULT_RELEASE.minor) -> None:
        self.size_estimator = size_estimator
        self.minor = minor

    def estimate_size(self, node: AstNode) -> SizeEstimate | None:
        if self.size_estimator is not None:
            return self.size_estimator.estimate_size(node)
        return None

    def _size(self, node: AstNode) -> SizeEstimate:
        """``CostEstimator.sizeEstimate``."""
        if node.computed_size is not None:
            return node.computed_size
        sz = self.estimate_size(node)
        return sz if sz is not None else SizeEstimate(0, MAX_UINT64)

    @staticmethod
    def _list_element_node(lst: AstNode) -> AstNode | None:
        """``listElementNode``: the element of a list, at ``path + "@items"``."""
        if not lst.type.params:
            return None
        path = lst.path
        return AstNode(None if path is None else (*path, "@items"), lst.type.params[0], None, None)

    def estimate_call_cost(  # noqa: C901 - one case per library function, as upstream
        self, function: str, overload_id: str, target: AstNode | None, args: list[AstNode]
    ) -> CallEstimate | None:
        f = STRING_TRAVERSAL_COST_FACTOR
        if function == "check":
            return CallEstimate(fixed_cost(350000))
        if function in _UNIT_COST_FUNCTIONS:
            return CallEstimate(_ONE)
        if function in ("fieldSelector", "labelSelector"):
            if len(args) == 1:
                return CallEstimate(_selector_cost(self._size(args[0])))
            return None
        if function in ("isSorted", "sum", "max", "min", "indexOf", "lastIndexOf", "includes"):
            if target is None:
                return None
            el_cost = _ONE
            el = self._list_element_node(target)
            if el is not None:
                if el.type.kind in (T.Kind.STRING, T.Kind.BYTES):
                    el_cost = el_cost.add(self._size(el).multiply_by_cost_factor(f))
                return CallEstimate(self._size(target).multiply_by_cost(el_cost))
            if function == "includes":
                # v0.37.0-beta.0: a dyn target may be a list compared element by element, each costing 1
                return CallEstimate(self._size(target).multiply_by_cost(el_cost))
            return CallEstimate(self._size(target).multiply_by_cost_factor(f))
        if function in ("url", "jsonpatch.escapeKey"):
            if len(args) == 1:
                sz = self._size(args[0])
                if self.minor < _EQUALITY_AND_URL_SIZE_SINCE:
                    return CallEstimate(sz.multiply_by_cost_factor(f))
                return CallEstimate(sz.multiply_by_cost_factor(f), sz)
            return None
        if function in ("lowerAscii", "upperAscii", "substring", "trim"):
            if target is not None:
                sz = self._size(target)
                return CallEstimate(sz.multiply_by_cost_factor(f), sz)
            return None
        if function == "replace":
            if target is None or len(args) < 2:
                return None
            return self._replace(target, args)
        if function == "split":
            if target is None:
                return None
            sz = self._size(target)
            mx = sz.max
            if len(args) > 1:
                e = args[1].expr
                if e is not None and e.kind == A.LITERAL and e.lit == A.LIT_INT:
                    mx = e.value & MAX_UINT64
            return CallEstimate(sz.multiply_by_cost_factor(2 * f), SizeEstimate(0, mx))
        if function == "join":
            if target is None:
                return None
            sz = SizeEstimate(0, 0)
            list_size = self._size(target)
            el = self._list_element_node(target)
            if el is not None:
                sz = list_size.multiply(self._size(el))
            if args:
                sep = self._size(args[0])
                min_seps = list_size.min - 1 if list_size.min > 0 else 0
                max_seps = list_size.max - 1 if list_size.max > 0 else 0
                sz = sz.add(sep.multiply(SizeEstimate(min_seps, max_seps)))
            return CallEstimate(sz.multiply_by_cost_factor(f), sz)
        if function in ("find", "findAll"):
            if target is None or not args:
                return None
            sz = self._size(target)
            str_cost = sz.add(SizeEstimate(1, 1)).multiply_by_cost_factor(f)
            regex_cost = self._size(args[0]).multiply_by_cost_factor(REGEX_STRING_LENGTH_COST_FACTOR)
            return CallEstimate(str_cost.multiply(regex_cost), SizeEstimate(0, sz.max))
        if function in ("cidr", "isIP", "isCIDR"):
            if args:
                return CallEstimate(self._size(args[0]).multiply_by_cost_factor(f))
            return None
        if function == "ip":
            if overload_id == "cidr_ip":
                return CallEstimate(_ONE)
            if args:
                return CallEstimate(self._size(args[0]).multiply_by_cost_factor(f))
            return None
        if function == "ip.isCanonical":
            if args:
                return CallEstimate(self._size(args[0]).multiply_by_cost_factor(2 * f))
            return None
        if function == "containsIP":
            if not args:
                return None
            ip_sz = SizeEstimate(4, 16)
            cost = ip_sz.add(ip_sz).multiply_by_cost_factor(f)
            if overload_id == "cidr_contains_ip_string":
                a = self._size(args[0])
                cost = cost.add(CostEstimate(a.min, a.max).multiply_by_cost_factor(f))
            return CallEstimate(cost)
        if function == "containsCIDR":
            if not args:
                return None
            ip_sz = SizeEstimate(4, 16)
            cost = ip_sz.add(ip_sz).multiply_by_cost_factor(f)
            cost = cost.add(ip_sz.multiply_by_cost_factor(f))
            cost = cost.add(_ONE)
            if overload_id == "cidr_contains_cidr_string":
                a = self._size(args[0])
                cost = cost.add(CostEstimate(a.min, a.max).multiply_by_cost_factor(f))
            return CallEstimate(cost)
        if function in ("quantity", "isQuantity", "semver", "isSemver"):
            if args:
                return CallEstimate(self._size(args[0]).multiply_by_cost_factor(f))
            return None
        if function == "validate":
            if args:
                sz = self._size(args[0])
                return CallEstimate(
                    sz.multiply_by_cost_factor(f).multiply_by_cost_factor(
                        MAX_NAME_FORMAT_REGEX_SIZE * REGEX_STRING_LENGTH_COST_FACTOR
                    )
                )
            return None
        if function == "_==_" and len(args) == 2 and self.minor >= _EQUALITY_AND_URL_SIZE_SINCE:
            return self._equality(args[0], args[1])
        return None

    def _replace(self, target: AstNode, args: list[AstNode]) -> CallEstimate:
        sz = self._size(target)
        to_replace = self._size(args[0])
        replace_with = self._size(args[1])
        count_min = count_max = 0
        retained_min = retained_max = 0
        if to_replace.min == 0:
            count_max = sz.max + 1 if sz.max < MAX_UINT64 else sz.max
            retained_max = sz.max
        elif replace_with.max <= to_replace.min:
            count_max = 0
            retained_max = sz.max
        else:
            count_max = int(math.ceil(float(sz.max) / float(to_replace.min)))
        if to_replace.max == 0:
            count_min = sz.min + 1 if sz.min < MAX_UINT64 else sz.min
            retained_min = sz.min
        elif to_replace.max <= replace_with.min:
            count_min = 0
            retained_min = sz.min
        else:
            count_min = int(math.ceil(float(sz.min) / float(to_replace.max)))
        count_max = _go_float_to_uint64(count_max)
        size = SizeEstimate(count_min, count_max).multiply(replace_with).add(SizeEstimate(retained_min, retained_max))
        return CallEstimate(sz.multiply_by_cost_factor(2 * STRING_TRAVERSAL_COST_FACTOR), size)

    def _equality(self, lhs: AstNode, rhs: AstNode) -> CallEstimate | None:
        lt, rt = lhs.type, rhs.type
        if lt.name != rt.name:  # types.Type.Equal compares type names
            return None
        if lt.kind == T.Kind.OPAQUE and lt.name in ("net.IP", "net.CIDR"):
            return CallEstimate(_ONE)
        if lt.kind == T.Kind.STRUCT:
            if lt.name in _UNIT_EQUALITY_STRUCTS:
                return CallEstimate(_ONE)
            if lt.name == "kubernetes.NamedFormat":
                return CallEstimate(CostEstimate(1, MAX_FORMAT_SIZE).multiply_by_cost_factor(STRING_TRAVERSAL_COST_FACTOR))
            if lt.name == "kubernetes.URL":
                size = SizeEstimate(1, 1)
                # upstream reads rhs.ComputedSize() for both sides
                rh = rhs.computed_size
                if rh is not None:
                    size = rh.union(rh)
                return CallEstimate(
                    CostEstimate(1, size.max).multiply_by_cost_factor(STRING_TRAVERSAL_COST_FACTOR)
                )
        return None


def _go_float_to_uint64(v: int) -> int:
    """``uint64(math.Ceil(x))``: values at or beyond 2^64 saturate (amd64 conversion of huge floats)."""
    if v >= 1 << 64:
        return 1 << 63
    return v
