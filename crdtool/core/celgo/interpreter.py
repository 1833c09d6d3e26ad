"""The CEL interpreter of cel-go v0.26.0, on the checked trees of :mod:`crdtool.core.celgo`.

Mirrors ``github.com/google/cel-go`` ``interpreter``: ``planner.go`` (one
*interpretable* per checked expression node; calls resolved through the
checker's overload ids to the dispatcher's bindings), ``interpretable.go``
(``evalConst``, ``evalAnd``/``evalOr`` with their error and short-circuit
rules, ``evalEq``/``evalNe``, ``evalUnary``/``evalBinary``/``evalVarArgs``
with trait checks and receiver dispatch, list/map constructors with optional
entries, ``evalFold`` and its lazily initialised ``folder``, the watch
decorators), ``attributes.go`` (absolute, relative and conditional
attributes, string/int/uint/bool/double and attribute qualifiers,
``refQualify`` with its presence tests and ``no such key`` / ``index out of
bounds`` errors, optional qualification), ``decorators.go`` and
``optimizations.go`` (the ``OptOptimize`` plan: constant list and map
literals, constant type conversions, ``in`` over constant lists as set
membership, constant ``matches`` patterns compiled at plan time) and
``runtimecost.go`` (the ``CostTracker``: the observer that charges every
attribute, qualifier, call and constructor, with the value stack it uses to
find call arguments, and the per-call limit that cancels evaluation), plus
``cel/library.go``'s ``or``/``orValue`` decorators.

A :class:`Program` holds two plans of the same expression: a plain one
(:meth:`Program.eval`) and one decorated with the cost observer
(:meth:`Program.eval_with_cost`), which returns cel-go's actual cost.
Function implementations come from :mod:`crdtool.core.celgo.functions`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable

from crdtool.core.celgo import ast as A
from crdtool.core.celgo import types as T
from crdtool.core.celgo.checker import CheckedAst
from crdtool.core.celgo import values as V
from crdtool.core.celgo.values import Err
from crdtool.core.celgo.version import DEFAULT as DEFAULT_CEL_GO
from crdtool.core.celgo.version import has

__all__ = ["Activation", "CostLimitExceeded", "PlanError", "Program", "Runtime", "plan_program"]

#: ``common.SelectAndIdentCost`` and the constructor base costs (``common/cost.go``).
SELECT_AND_IDENT_COST = 1
LIST_CREATE_BASE_COST = 10
MAP_CREATE_BASE_COST = 30
STRUCT_CREATE_BASE_COST = 40

MISSING = object()


class PlanError(Exception):
    """Program planning failed (cel-go's ``program instantiation failed: ...``)."""


class CostLimitExceeded(Exception):
    """``EvalCancelledError{CostLimitExceeded}``: raised by the tracker, caught by :class:`Program`."""


# --- activations ---------------------------------------------------------------------------------


class Counter:
    """Steps that cel-go's runtime cost charges but its static estimate may not (see :meth:`Program.eval_bounded`)."""

    __slots__ = ("n",)

    def __init__(self) -> None:
        self.n = 0


class Activation:
    """``interpreter.Activation`` over a dict of variables; ``tracker`` is the evaluation's cost tracker."""

    __slots__ = ("vars", "tracker", "counter")

    def __init__(self, variables: dict[str, Any], tracker: CostTracker | None = None) -> None:
        self.vars = variables
        self.tracker = tracker
        self.counter = Counter()

    def resolve(self, name: str) -> Any:
        return self.vars.get(name, MISSING)


# --- qualifiers and attributes (attributes.go) ----------------------------------------------------


class Qualifier:
    """``Qualifier``: ``qualify`` returns the value or an :class:`Err`; ``qualify_if_present`` a (value, present) pair."""

    __slots__ = ()
    id: int

    def is_optional(self) -> bool:
        return False

    def qualify(self, act: Any, obj: Any) -> Any:
        raise NotImplementedError

    def qualify_if_present(self, act: Any, obj: Any, presence_only: bool) -> tuple[Any, bool]:
        raise NotImplementedError


class ConstantQualifier(Qualifier):
    """``ConstantQualifier``: a qualifier with a constant ``value()``."""

    __slots__ = ()

    def value(self) -> Any:
        raise NotImplementedError


class Attribute(Qualifier):
    """``Attribute``: a variable or value with qualifiers."""

    __slots__ = ()

    def add_qualifier(self, q: Qualifier) -> Attribute:
        raise NotImplementedError

    def resolve(self, act: Any) -> Any:
        """The value, or an :class:`Err` for a resolution error."""
        raise NotImplementedError

    def attr_id(self) -> int:
        return self.id


def _missing_key(v: Any) -> Err:
    return Err(f"no such key: {V.go_format_value(v)}")


def _missing_index(v: Any) -> Err:
    return Err(f"index out of bounds: {V.go_format_value(v)}")


def ref_qualify(obj: Any, idx: Any, presence_test: bool, presence_only: bool) -> tuple[Any, bool]:
    """``refQualify``: qualify a CEL value by a CEL key/index; errors come back as (Err, False)."""
    if type(obj) is Err:
        return obj, False
    if isinstance(obj, V.MapValue):
        val, found = obj.find(idx)
        if type(val) is Err:
            return val, False
        if found:
            return val, True
        if presence_test:
            return None, False
        return _missing_key(idx), False
    if isinstance(obj, V.ListValue):
        i, err = V.index_or_error(idx)
        if err is not None:
            return Err(err), False
        if 0 <= i < obj.size():
            return obj.get(idx), True
        if presence_test:
            return None, False
        return _missing_index(idx), False
    if presence_test:
        return None, False
    return _missing_key(idx), False


class _ConstQual(ConstantQualifier):
    """string/int/uint/bool/double qualifiers (they differ only in Go's native fast paths)."""

    __slots__ = ("id", "cel_value", "optional")

    def __init__(self, qid: int, cel_value: Any, optional: bool) -> None:
        self.id = qid
        self.cel_value = cel_value
        self.optional = optional

    def is_optional(self) -> bool:
        return self.optional

    def value(self) -> Any:
        return self.cel_value

    def qualify(self, act: Any, obj: Any) -> Any:
        if type(obj) is dict:  # a Go map[string]any reached through an optional's Value()
            return _native_qualify(self, obj, False)[0]
        return ref_qualify(obj, self.cel_value, False, False)[0]

    def qualify_if_present(self, act: Any, obj: Any, presence_only: bool) -> tuple[Any, bool]:
        if type(obj) is dict:
            return _native_qualify(self, obj, True)
        return ref_qualify(obj, self.cel_value, True, presence_only)


def _native_qualify(q: _ConstQual, obj: dict[str, Any], presence_test: bool) -> tuple[Any, bool]:
    """The ``map[string]any`` case of ``stringQualifier.qualifyInternal`` (other key types fall back to refQualify)."""
    key = q.cel_value
    if type(key) is str:
        if key in obj:
            return obj[key], True
        if presence_test:
            return None, False
        return _missing_key(key), False
    return ref_qualify(V.adapt_native(obj), key, presence_test, False)


class _IndexNativeList:
    """Marker: ``[]any`` reached through an optional's ``Value()`` is qualified directly by int qualifiers."""


def new_qualifier(qid: int, val: Any, optional: bool) -> Qualifier:
    """``newQualifier``."""
    if isinstance(val, Attribute):
        return AttrQualifier(qid, val, optional)
    t = type(val)
    if t in (str, int, bool, float) or t is V.Uint:
        return _ConstQual(qid, val, optional)
    if isinstance(val, Qualifier):
        return val
    return _InvalidQualifier(qid, val)


class _InvalidQualifier(ConstantQualifier):
    """A qualifier of an unsupported key type: ``invalid qualifier type: %T`` when used."""

    __slots__ = ("id", "val")

    def __init__(self, qid: int, val: Any) -> None:
        self.id = qid
        self.val = val

    def value(self) -> Any:
        return self.val

    def qualify(self, act: Any, obj: Any) -> Any:
        return Err(f"invalid qualifier type: {go_type_name(self.val)}")

    def qualify_if_present(self, act: Any, obj: Any, presence_only: bool) -> tuple[Any, bool]:
        return Err(f"invalid qualifier type: {go_type_name(self.val)}"), False


def go_type_name(v: Any) -> str:
    """Go's ``%T`` of a CEL value's Go representation."""
    t = type(v)
    if t is str:
        return "types.String"
    if t is int:
        return "types.Int"
    if t is bool:
        return "types.Bool"
    if t is float:
        return "types.Double"
    if v is None:
        return "types.Null"
    if t is bytes:
        return "types.Bytes"
    if t is V.Uint:
        return "types.Uint"
    if t is V.Duration:
        return "types.Duration"
    if t is V.Timestamp:
        return "types.Timestamp"
    if t is V.Optional:
        return "*types.Optional"
    if t is V.TypeValue:
        return "*types.Type"
    if t is Err:
        return "*types.Err"
    name = getattr(v, "go_type", None)
    if name is not None:
        return name  # type: ignore[no-any-return]
    if isinstance(v, V.MutableList):
        return "*types.mutableList"
    if isinstance(v, V.ConcatList):
        return "*types.concatList"
    if isinstance(v, V.ListValue):
        return "*types.baseList"
    if isinstance(v, V.MutableMap):
        return "*types.mutableMap"
    if isinstance(v, V.MapValue):
        return "*types.baseMap"
    return t.__name__


def apply_qualifiers(act: Any, obj: Any, quals: list[Qualifier]) -> tuple[Any, bool]:
    """``applyQualifiers``: (value or Err, is optional)."""
    is_opt = False
    act.counter.n += len(quals)
    if type(obj) is V.Optional:
        is_opt = True
        if not obj.has_value:
            return obj, False
        obj = V.native_value(obj.value)
    for q in quals:
        if is_opt or q.is_optional():
            is_opt = True
            val, present = q.qualify_if_present(act, obj, False)
            if type(val) is Err:
                return val, False
            if not present:
                return V.OPTIONAL_NONE, False
        else:
            val = q.qualify(act, obj)
            if type(val) is Err:
                return val, False
        obj = val
    return obj, is_opt


def attr_qualify(act: Any, obj: Any, attr: Attribute) -> Any:
    """``attrQualify``."""
    val = attr.resolve(act)
    if type(val) is Err:
        return val
    return new_qualifier(attr.attr_id(), val, attr.is_optional()).qualify(act, obj)


def attr_qualify_if_present(act: Any, obj: Any, attr: Attribute, presence_only: bool) -> tuple[Any, bool]:
    val = attr.resolve(act)
    if type(val) is Err:
        return val, False
    return new_qualifier(attr.attr_id(), val, attr.is_optional()).qualify_if_present(act, obj, presence_only)


class AbsoluteAttribute(Attribute):
    """``absoluteAttribute``: a variable (or type name) and its qualifiers."""

    __slots__ = ("id", "name", "qualifiers", "type_value", "disambiguate")

    def __init__(self, aid: int, name: str, type_value: Any = MISSING) -> None:
        self.id = aid
        # attributes.go@v0.27.0 AbsoluteAttribute: a `.x` name (the checker's reference to a global that a local
        # hides) is read, with its qualifiers, from the expression's input activation, past the comprehensions
        self.disambiguate = name.startswith(".")
        self.name = name[1:] if self.disambiguate else name
        self.qualifiers: list[Qualifier] = []
        self.type_value = type_value

    def attr_id(self) -> int:
        return self.qualifiers[-1].id if self.qualifiers else self.id

    def add_qualifier(self, q: Qualifier) -> Attribute:
        self.qualifiers.append(q)
        return self

    def qualify(self, act: Any, obj: Any) -> Any:
        return attr_qualify(act, obj, self)

    def qualify_if_present(self, act: Any, obj: Any, presence_only: bool) -> tuple[Any, bool]:
        return attr_qualify_if_present(act, obj, self, presence_only)

    def resolve(self, act: Any) -> Any:
        if self.disambiguate:
            while type(act) is Folder:  # activationWrapper.Unwrap: only the folds' activations wrap
                act = act.parent
        obj = act.resolve(self.name)
        if obj is not MISSING:
            if type(obj) is Err:
                return obj
            if not self.qualifiers and type(obj) is not V.Optional:
                return obj
            val, is_opt = apply_qualifiers(act, obj, self.qualifiers)
            if type(val) is Err:
                return val
            if is_opt:
                return V.Optional(V.adapt_native(val))
            return val
        if self.type_value is not MISSING and not self.qualifiers:
            return self.type_value
        return Err(f"no such attribute(s): {self.name}")


class ConditionalAttribute(Attribute):
    """``conditionalAttribute``: ``cond ? truthy : falsy`` with qualifiers pushed into both branches."""

    __slots__ = ("id", "expr", "truthy", "falsy")

    def __init__(self, aid: int, expr: Interpretable, truthy: Attribute, falsy: Attribute) -> None:
        self.id = aid
        self.expr = expr
        self.truthy = truthy
        self.falsy = falsy

    def attr_id(self) -> int:
        t = self.truthy.attr_id()
        if t == self.falsy.attr_id():
            return t
        return self.id

    def add_qualifier(self, q: Qualifier) -> Attribute:
        self.truthy.add_qualifier(q)
        self.falsy.add_qualifier(q)
        return self

    def qualify(self, act: Any, obj: Any) -> Any:
        return attr_qualify(act, obj, self)

    def qualify_if_present(self, act: Any, obj: Any, presence_only: bool) -> tuple[Any, bool]:
        return attr_qualify_if_present(act, obj, self, presence_only)

    def resolve(self, act: Any) -> Any:
        val = self.expr.eval(act)
        if val is True:
            return self.truthy.resolve(act)
        if val is False:
            return self.falsy.resolve(act)
        return V.maybe_no_such_overload(val)


class RelativeAttribute(Attribute):
    """``relativeAttribute``: qualifiers applied to a computed value."""

    __slots__ = ("id", "operand", "qualifiers")

    def __init__(self, aid: int, operand: Interpretable) -> None:
        self.id = aid
        self.operand = operand
        self.qualifiers: list[Qualifier] = []

    def attr_id(self) -> int:
        return self.qualifiers[-1].id if self.qualifiers else self.id

    def add_qualifier(self, q: Qualifier) -> Attribute:
        self.qualifiers.append(q)
        return self

    def qualify(self, act: Any, obj: Any) -> Any:
        return attr_qualify(act, obj, self)

    def qualify_if_present(self, act: Any, obj: Any, presence_only: bool) -> tuple[Any, bool]:
        return attr_qualify_if_present(act, obj, self, presence_only)

    def resolve(self, act: Any) -> Any:
        v = self.operand.eval(act)
        if type(v) is Err:
            return v
        val, is_opt = apply_qualifiers(act, v, self.qualifiers)
        if type(val) is Err:
            return val
        if is_opt:
            return V.Optional(V.adapt_native(val))
        return val


class AttrQualifier(Attribute):
    """``attrQualifier``: an attribute used as a qualifier, with its own id and optional flag."""

    __slots__ = ("id", "attr", "optional")

    def __init__(self, qid: int, attr: Attribute, optional: bool) -> None:
        self.id = qid
        self.attr = attr
        self.optional = optional

    def is_optional(self) -> bool:
        return self.optional

    def attr_id(self) -> int:
        return self.id

    def add_qualifier(self, q: Qualifier) -> Attribute:
        return self.attr.add_qualifier(q)

    def qualify(self, act: Any, obj: Any) -> Any:
        return self.attr.qualify(act, obj)

    def qualify_if_present(self, act: Any, obj: Any, presence_only: bool) -> tuple[Any, bool]:
        return self.attr.qualify_if_present(act, obj, presence_only)

    def resolve(self, act: Any) -> Any:
        return self.attr.resolve(act)


class TestOnlyQualifier(ConstantQualifier):
    """``testOnlyQualifier``: a presence test by a constant qualifier."""

    __slots__ = ("id", "inner")

    def __init__(self, inner: ConstantQualifier) -> None:
        self.id = inner.id
        self.inner = inner

    def is_optional(self) -> bool:
        return self.inner.is_optional()

    def value(self) -> Any:
        return self.inner.value()

    def qualify(self, act: Any, obj: Any) -> Any:
        out, present = self.inner.qualify_if_present(act, obj, True)
        if type(out) is Err:
            return out
        return present

    def qualify_if_present(self, act: Any, obj: Any, presence_only: bool) -> tuple[Any, bool]:
        return self.inner.qualify_if_present(act, obj, True)


# --- interpretables (interpretable.go) ------------------------------------------------------------


class Interpretable:
    """``Interpretable``: ``eval`` returns a CEL value (errors as :class:`Err`)."""

    __slots__ = ()
    id: int

    def eval(self, act: Any) -> Any:
        raise NotImplementedError


class InterpretableConst(Interpretable):
    __slots__ = ()

    def value(self) -> Any:
        raise NotImplementedError


class InterpretableAttribute(Interpretable, Attribute):
    """``InterpretableAttribute``: an interpretable that is also an attribute."""

    __slots__ = ()

    def attr(self) -> Attribute:
        raise NotImplementedError


class InterpretableCall(Interpretable):
    """``InterpretableCall``: function, overload id and arguments (for the cost tracker)."""

    __slots__ = ()
    function: str
    overload: str

    def call_args(self) -> list[Interpretable]:
        raise NotImplementedError


class InterpretableConstructor(Interpretable):
    __slots__ = ()

    def init_vals(self) -> list[Interpretable]:
        raise NotImplementedError

    def ctor_type(self) -> str:
        raise NotImplementedError


class EvalConst(InterpretableConst):
    __slots__ = ("id", "val")

    def __init__(self, cid: int, val: Any) -> None:
        self.id = cid
        self.val = val

    def eval(self, act: Any) -> Any:
        return self.val

    def value(self) -> Any:
        return self.val


class EvalAttr(InterpretableAttribute):
    """``evalAttr``."""

    __slots__ = ("_attr", "optional")

    def __init__(self, attr: Attribute, optional: bool = False) -> None:
        self._attr = attr
        self.optional = optional

    @property
    def id(self) -> int:  # type: ignore[override]
        return self._attr.attr_id()

    def attr_id(self) -> int:
        return self._attr.attr_id()

    def attr(self) -> Attribute:
        return self._attr

    def add_qualifier(self, q: Qualifier) -> Attribute:
        self._attr = self._attr.add_qualifier(q)
        return self._attr

    def eval(self, act: Any) -> Any:
        return self._attr.resolve(act)

    def qualify(self, act: Any, obj: Any) -> Any:
        return self._attr.qualify(act, obj)

    def qualify_if_present(self, act: Any, obj: Any, presence_only: bool) -> tuple[Any, bool]:
        return self._attr.qualify_if_present(act, obj, presence_only)

    def is_optional(self) -> bool:
        return self.optional

    def resolve(self, act: Any) -> Any:
        return self._attr.resolve(act)


class EvalTestOnly(InterpretableAttribute):
    """``evalTestOnly``: ``has(x.f)``."""

    __slots__ = ("id", "inner")

    def __init__(self, tid: int, inner: InterpretableAttribute) -> None:
        self.id = tid
        self.inner = inner

    def attr_id(self) -> int:
        return self.inner.attr_id()

    def attr(self) -> Attribute:
        return self.inner.attr()

    def add_qualifier(self, q: Qualifier) -> Attribute:
        if not isinstance(q, ConstantQualifier):
            raise PlanError(f"test only expressions must have constant qualifiers: {q}")
        return self.inner.add_qualifier(TestOnlyQualifier(q))

    def eval(self, act: Any) -> Any:
        val = self.inner.resolve(act)
        if type(val) is Err:
            return val
        if type(val) is V.Optional:
            return val.has_value
        return val

    def qualify(self, act: Any, obj: Any) -> Any:
        return self.inner.qualify(act, obj)

    def qualify_if_present(self, act: Any, obj: Any, presence_only: bool) -> tuple[Any, bool]:
        return self.inner.qualify_if_present(act, obj, presence_only)

    def is_optional(self) -> bool:
        return self.inner.is_optional()

    def resolve(self, act: Any) -> Any:
        return self.inner.resolve(act)


class EvalOr(Interpretable):
    __slots__ = ("id", "terms")

    def __init__(self, oid: int, terms: list[Interpretable]) -> None:
        self.id = oid
        self.terms = terms

    def eval(self, act: Any) -> Any:
        err = None
        for term in self.terms:
            val = term.eval(act)
            if val is True:
                return True
            if type(val) is not bool and err is None:
                err = val if type(val) is Err else V.maybe_no_such_overload(val)
        if err is not None:
            return err
        return False


class EvalAnd(Interpretable):
    __slots__ = ("id", "terms")

    def __init__(self, aid: int, terms: list[Interpretable]) -> None:
        self.id = aid
        self.terms = terms

    def eval(self, act: Any) -> Any:
        err = None
        for term in self.terms:
            val = term.eval(act)
            if val is False:
                return False
            if type(val) is not bool and err is None:
                err = val if type(val) is Err else V.maybe_no_such_overload(val)
        if err is not None:
            return err
        return True


class EvalEq(InterpretableCall):
    __slots__ = ("id", "lhs", "rhs")
    function = "_==_"
    overload = "equals"

    def __init__(self, eid: int, lhs: Interpretable, rhs: Interpretable) -> None:
        self.id = eid
        self.lhs = lhs
        self.rhs = rhs

    def eval(self, act: Any) -> Any:
        lv = self.lhs.eval(act)
        rv = self.rhs.eval(act)
        act.counter.n += 1
        if type(lv) is Err:
            return lv
        if type(rv) is Err:
            return rv
        return V.equal(lv, rv)

    def call_args(self) -> list[Interpretable]:
        return [self.lhs, self.rhs]


class EvalNe(InterpretableCall):
    __slots__ = ("id", "lhs", "rhs")
    function = "_!=_"
    overload = "not_equals"

    def __init__(self, eid: int, lhs: Interpretable, rhs: Interpretable) -> None:
        self.id = eid
        self.lhs = lhs
        self.rhs = rhs

    def eval(self, act: Any) -> Any:
        lv = self.lhs.eval(act)
        rv = self.rhs.eval(act)
        act.counter.n += 1
        if type(lv) is Err:
            return lv
        if type(rv) is Err:
            return rv
        return V.equal(lv, rv) is not True

    def call_args(self) -> list[Interpretable]:
        return [self.lhs, self.rhs]


class Overload:
    """``functions.Overload``: the bound implementations of an overload id or function name."""

    __slots__ = ("operator", "unary", "binary", "function", "operand_trait", "non_strict")

    def __init__(
        self,
        operator: str,
        unary: Callable[[Any], Any] | None = None,
        binary: Callable[[Any, Any], Any] | None = None,
        function: Callable[..., Any] | None = None,
        operand_trait: int = 0,
        non_strict: bool = False,
    ) -> None:
        self.operator = operator
        self.unary = unary
        self.binary = binary
        self.function = function
        self.operand_trait = operand_trait
        self.non_strict = non_strict


def _receive(val: Any, function: str, args: list[Any]) -> Any:
    """``traits.Receiver.Receive`` of the receiver types (string, duration, timestamp)."""
    return V.receive(val, function, args)


class EvalZeroArity(InterpretableCall):
    __slots__ = ("id", "function", "overload", "impl")

    def __init__(self, zid: int, function: str, overload: str, impl: Callable[..., Any]) -> None:
        self.id = zid
        self.function = function
        self.overload = overload
        self.impl = impl

    def eval(self, act: Any) -> Any:
        return self.impl()

    def call_args(self) -> list[Interpretable]:
        return []


class EvalUnary(InterpretableCall):
    __slots__ = ("id", "function", "overload", "arg", "trait", "impl", "non_strict")

    def __init__(self, uid: int, function: str, overload: str, arg: Interpretable, trait: int,
                 impl: Callable[[Any], Any] | None, non_strict: bool) -> None:
        self.id = uid
        self.function = function
        self.overload = overload
        self.arg = arg
        self.trait = trait
        self.impl = impl
        self.non_strict = non_strict

    def eval(self, act: Any) -> Any:
        v = self.arg.eval(act)
        strict = not self.non_strict
        if strict and type(v) is Err:
            return v
        impl = self.impl
        if impl is not None and (self.trait == 0 or (not strict and type(v) is Err) or V.has_trait(v, self.trait)):
            return impl(v)
        if V.has_trait(v, V.RECEIVER):
            return _receive(v, self.function, [])
        return Err(f"no such overload: {self.function}")

    def call_args(self) -> list[Interpretable]:
        return [self.arg]

    def apply(self, v: Any) -> Any:
        """``eval`` after the argument: the same logic on a value."""
        strict = not self.non_strict
        if strict and type(v) is Err:
            return v
        impl = self.impl
        if impl is not None and (self.trait == 0 or (not strict and type(v) is Err) or V.has_trait(v, self.trait)):
            return impl(v)
        if V.has_trait(v, V.RECEIVER):
            return _receive(v, self.function, [])
        return Err(f"no such overload: {self.function}")


class EvalBinary(InterpretableCall):
    __slots__ = ("id", "function", "overload", "lhs", "rhs", "trait", "impl", "non_strict")

    def __init__(self, bid: int, function: str, overload: str, lhs: Interpretable, rhs: Interpretable, trait: int,
                 impl: Callable[[Any, Any], Any] | None, non_strict: bool) -> None:
        self.id = bid
        self.function = function
        self.overload = overload
        self.lhs = lhs
        self.rhs = rhs
        self.trait = trait
        self.impl = impl
        self.non_strict = non_strict

    def eval(self, act: Any) -> Any:
        lv = self.lhs.eval(act)
        rv = self.rhs.eval(act)
        strict = not self.non_strict
        if strict:
            if type(lv) is Err:
                return lv
            if type(rv) is Err:
                return rv
        impl = self.impl
        if impl is not None and (self.trait == 0 or (not strict and type(lv) is Err) or V.has_trait(lv, self.trait)):
            return impl(lv, rv)
        if V.has_trait(lv, V.RECEIVER):
            return _receive(lv, self.function, [rv])
        return Err(f"no such overload: {self.function}")

    def call_args(self) -> list[Interpretable]:
        return [self.lhs, self.rhs]

    def apply(self, lv: Any, rv: Any) -> Any:
        """``eval`` after the arguments: the same logic on values."""
        strict = not self.non_strict
        if strict:
            if type(lv) is Err:
                return lv
            if type(rv) is Err:
                return rv
        impl = self.impl
        if impl is not None and (self.trait == 0 or (not strict and type(lv) is Err) or V.has_trait(lv, self.trait)):
            return impl(lv, rv)
        if V.has_trait(lv, V.RECEIVER):
            return _receive(lv, self.function, [rv])
        return Err(f"no such overload: {self.function}")


class EvalTrackerPanics(InterpretableCall):
    """A unary or binary call whose cost tracker can panic (a Go type assertion on its arguments), in a plan
    evaluated without the tracker: runs the tracker after the call, as cel-go's cost observer would (the
    Kubernetes programs always track cost), so that the panic, not the value, is the outcome."""

    __slots__ = ("inner", "id", "function", "overload", "tracker")

    def __init__(self, inner: EvalUnary | EvalBinary, tracker: Callable[[list[Any], Any], Any]) -> None:
        self.inner = inner
        self.id = inner.id
        self.function = inner.function
        self.overload = inner.overload
        self.tracker = tracker

    def eval(self, act: Any) -> Any:
        inner = self.inner
        if isinstance(inner, EvalUnary):
            v = inner.arg.eval(act)
            res = inner.apply(v)
            self.tracker([v], res)
            return res
        lv = inner.lhs.eval(act)
        rv = inner.rhs.eval(act)
        res = inner.apply(lv, rv)
        self.tracker([lv, rv], res)
        return res

    def call_args(self) -> list[Interpretable]:
        return self.inner.call_args()


class EvalVarArgs(InterpretableCall):
    __slots__ = ("id", "function", "overload", "args", "trait", "impl", "non_strict")

    def __init__(self, vid: int, function: str, overload: str, args: list[Interpretable], trait: int,
                 impl: Callable[..., Any] | None, non_strict: bool) -> None:
        self.id = vid
        self.function = function
        self.overload = overload
        self.args = args
        self.trait = trait
        self.impl = impl
        self.non_strict = non_strict

    def eval(self, act: Any) -> Any:
        strict = not self.non_strict
        vals = []
        for a in self.args:
            v = a.eval(act)
            if strict and type(v) is Err:
                return v
            vals.append(v)
        arg0 = vals[0]
        impl = self.impl
        if impl is not None and (self.trait == 0 or (not strict and type(arg0) is Err) or V.has_trait(arg0, self.trait)):
            return impl(*vals)
        if V.has_trait(arg0, V.RECEIVER):
            return _receive(arg0, self.function, vals[1:])
        return Err(f"no such overload: {self.function} {self.id}")

    def call_args(self) -> list[Interpretable]:
        return self.args


class EvalList(InterpretableConstructor):
    __slots__ = ("id", "elems", "optionals", "has_optionals")

    def __init__(self, lid: int, elems: list[Interpretable], optionals: list[bool]) -> None:
        self.id = lid
        self.elems = elems
        self.optionals = optionals
        self.has_optionals = any(optionals)

    def eval(self, act: Any) -> Any:
        out = []
        for i, e in enumerate(self.elems):
            v = e.eval(act)
            if type(v) is Err:
                return v
            if self.has_optionals and self.optionals[i]:
                if type(v) is not V.Optional:
                    return Err(f"cannot initialize optional list element from non-optional value {V.go_format_value(v)}")
                if not v.has_value:
                    continue
                v = v.value
            out.append(v)
        return V.BaseList(out)

    def init_vals(self) -> list[Interpretable]:
        return self.elems

    def ctor_type(self) -> str:
        return "list"


class EvalMap(InterpretableConstructor):
    __slots__ = ("id", "keys", "vals", "optionals", "has_optionals")

    def __init__(self, mid: int, keys: list[Interpretable], vals: list[Interpretable], optionals: list[bool]) -> None:
        self.id = mid
        self.keys = keys
        self.vals = vals
        self.optionals = optionals
        self.has_optionals = any(optionals)

    def eval(self, act: Any) -> Any:
        entries: dict[Any, tuple[Any, Any]] = {}
        for i, k in enumerate(self.keys):
            kv = k.eval(act)
            if type(kv) is Err:
                return kv
            vv = self.vals[i].eval(act)
            if type(vv) is Err:
                return vv
            if self.has_optionals and self.optionals[i]:
                if type(vv) is not V.Optional:
                    return Err(f"cannot initialize optional entry '{V.go_format_value(kv)}' from non-optional value "
                               f"{V.go_format_value(vv)}")
                if not vv.has_value:
                    entries.pop(V.map_key(kv), None)
                    continue
                vv = vv.value
            entries[V.map_key(kv)] = (kv, vv)
        return V.BaseMap(entries)

    def init_vals(self) -> list[Interpretable]:
        out: list[Interpretable] = []
        for k, v in zip(self.keys, self.vals):
            out.append(k)
            out.append(v)
        return out

    def ctor_type(self) -> str:
        return "map"


class EvalObj(InterpretableConstructor):
    """``evalObj``: message construction; no message types exist in the Kubernetes environment."""

    __slots__ = ("id", "type_name", "fields", "vals", "factory")

    def __init__(self, oid: int, type_name: str, fields: list[str], vals: list[Interpretable],
                 factory: Callable[[str, dict[str, Any]], Any] | None = None) -> None:
        self.id = oid
        self.type_name = type_name
        self.fields = fields
        self.vals = vals
        #: the host's ``TypeProvider.NewValue`` for its own object types (None: no object types)
        self.factory = factory

    def eval(self, act: Any) -> Any:
        values: dict[str, Any] = {}
        for name, v in zip(self.fields, self.vals):
            r = v.eval(act)
            if type(r) is Err:
                return r
            values[name] = r
        if self.factory is not None:
            return self.factory(self.type_name, values)
        return Err(f"unknown type '{self.type_name}'")

    def init_vals(self) -> list[Interpretable]:
        return self.vals

    def ctor_type(self) -> str:
        return "struct"


class EvalSetMembership(Interpretable):
    """``evalSetMembership``: ``x in [constants]`` as a hash lookup."""

    __slots__ = ("id", "arg", "value_set")

    def __init__(self, sid: int, arg: Interpretable, value_set: set[Any]) -> None:
        self.id = sid
        self.arg = arg
        self.value_set = value_set

    def eval(self, act: Any) -> Any:
        v = self.arg.eval(act)
        if type(v) is Err:
            return v
        try:
            return V.map_key(v) in self.value_set
        except TypeError:
            return False


class EvalOptionalOr(Interpretable):
    """``evalOptionalOr`` (cel/library.go): ``a.or(b)`` evaluates ``b`` only when ``a`` is none."""

    __slots__ = ("id", "lhs", "rhs")

    def __init__(self, oid: int, lhs: Interpretable, rhs: Interpretable) -> None:
        self.id = oid
        self.lhs = lhs
        self.rhs = rhs

    def eval(self, act: Any) -> Any:
        v = self.lhs.eval(act)
        if type(v) is not V.Optional:
            return v
        if v.has_value:
            return v
        return self.rhs.eval(act)


class EvalOptionalOrValue(Interpretable):
    """``evalOptionalOrValue``: ``a.orValue(b)``."""

    __slots__ = ("id", "lhs", "rhs")

    def __init__(self, oid: int, lhs: Interpretable, rhs: Interpretable) -> None:
        self.id = oid
        self.lhs = lhs
        self.rhs = rhs

    def eval(self, act: Any) -> Any:
        v = self.lhs.eval(act)
        if type(v) is not V.Optional:
            return v
        if v.has_value:
            return v.value
        return self.rhs.eval(act)


class Folder:
    """``folder``: the activation of a comprehension's loop, with a lazily initialised accumulator."""

    __slots__ = ("fold", "parent", "tracker", "counter", "accu_val", "iter1", "iter2", "initialized",
                 "mutable_value", "compute_result")

    def __init__(self, fold: EvalFold, parent: Any) -> None:
        self.fold = fold
        self.parent = parent
        self.tracker = parent.tracker
        self.counter = parent.counter
        self.accu_val: Any = None
        self.iter1: Any = None
        self.iter2: Any = None
        self.initialized = False
        self.mutable_value = False
        self.compute_result = False

    def resolve(self, name: str) -> Any:
        fold = self.fold
        if name == fold.accu_var:
            if not self.initialized:
                self.initialized = True
                init = fold.accu.eval(self.parent)
                if isinstance(init, V.ListValue) and not isinstance(init, V.MutableList) and init.size() == 0:
                    init = V.MutableList([])
                    self.mutable_value = True
                elif isinstance(init, V.MapValue) and not isinstance(init, V.MutableMap) and init.size() == 0:
                    init = V.MutableMap({})
                    self.mutable_value = True
                self.accu_val = init
            return self.accu_val
        if not self.compute_result:
            if name == fold.iter_var:
                return self.iter1
            if name == fold.iter_var2:
                return self.iter2
        return self.parent.resolve(name)

    def fold_entry(self, key: Any, val: Any) -> bool:
        self.iter1 = key
        self.iter2 = val
        cond = self.fold.cond.eval(self)
        if type(cond) is bool and cond is not True:
            return False
        self.accu_val = self.fold.step.eval(self)
        self.initialized = True
        return True

    def fold_iterable(self, items: Any) -> Any:
        fold = self.fold
        cond_eval = fold.cond.eval
        step_eval = fold.step.eval
        for item in items:
            self.iter1 = item
            cond = cond_eval(self)
            if type(cond) is bool and cond is not True:
                return self.eval_result()
            self.accu_val = step_eval(self)
            self.initialized = True
        return self.eval_result()

    def eval_result(self) -> Any:
        self.compute_result = True
        res = self.fold.result.eval(self)
        if type(res) is not Err and self.mutable_value:
            if isinstance(res, V.MutableList):
                res = res.to_immutable()
            elif isinstance(res, V.MutableMap):
                res = res.to_immutable()
        return res


class EvalFold(Interpretable):
    """``evalFold``: a comprehension (macros ``all``, ``exists``, ``map`` ... and the two-variable forms)."""

    __slots__ = ("id", "accu_var", "iter_var", "iter_var2", "iter_range", "accu", "cond", "step", "result",
                 "range_kind_first")

    def __init__(self, fid: int, accu_var: str, accu: Interpretable, iter_var: str, iter_var2: str,
                 iter_range: Interpretable, cond: Interpretable, step: Interpretable, result: Interpretable,
                 range_kind_first: bool = False) -> None:
        #: cel-go v0.22.0 (``two_var_error_range``): a two-variable fold switches on the range's kind before
        #: returning an error range, so an error is "unsupported comprehension range type: *types.Err"
        self.range_kind_first = range_kind_first
        self.id = fid
        self.accu_var = accu_var
        self.accu = accu
        self.iter_var = iter_var
        self.iter_var2 = iter_var2
        self.iter_range = iter_range
        self.cond = cond
        self.step = step
        self.result = result

    def eval(self, act: Any) -> Any:
        f = Folder(self, act)
        rng = self.iter_range.eval(act)
        if type(rng) is Err and not (self.iter_var2 and self.range_kind_first):
            return rng
        if self.iter_var2:
            if isinstance(rng, (V.MapValue, V.ListValue)):
                for k, v in rng.fold_entries():
                    if not f.fold_entry(k, v):
                        break
                return f.eval_result()
            return Err(f"unsupported comprehension range type: {go_type_name(rng)}")
        if isinstance(rng, V.ListValue):
            return f.fold_iterable(rng.items())
        if isinstance(rng, V.MapValue):
            return f.fold_iterable(rng.keys())
        return V.val_or_err(rng, f"got '{go_type_name(rng)}', expected iterable type")


# --- the cost tracker (runtimecost.go) --------------------------------------------------------------


class CostTracker:
    """``CostTracker``: the actual cost of one evaluation and the value stack of the observer.

    The stack is upstream's ``refValStack`` (parallel lists ``ids``/``vals``);
    ``positions`` indexes it by expression id so that ``drop``/``dropArgs``
    find the topmost entry of an id without scanning: the indexes of an id
    are appended on push and discarded lazily once they no longer point at an
    entry of that id (same results as upstream's top-down scan, amortised
    constant time).
    """

    __slots__ = ("cost", "ids", "vals", "positions", "limit", "estimator", "estimator_functions",
                 "overload_trackers", "presence_test_has_cost", "unwrap_optional")

    def __init__(self, estimator: Callable[[str, str, list[Any], Any], int | None] | None,
                 overload_trackers: dict[str, Callable[[list[Any], Any], int | None]],
                 limit: int | None, presence_test_has_cost: bool = False,
                 estimator_functions: frozenset[str] | None = None, unwrap_optional: bool = True) -> None:
        #: ``actualSize`` of a present optional is its value's (cel-go v0.23.2+); before, 1
        self.unwrap_optional = unwrap_optional
        self.cost = 0
        self.ids: list[int] = []
        self.vals: list[Any] = []
        self.positions: dict[int, list[int]] = {}
        self.limit = _NO_LIMIT if limit is None else limit
        self.estimator = estimator
        self.estimator_functions = estimator_functions
        self.overload_trackers = overload_trackers
        self.presence_test_has_cost = presence_test_has_cost

    def push(self, val: Any, vid: int) -> None:
        """``refValStack.push``, then the per-call limit check of ``Observe``."""
        ids = self.ids
        lst = self.positions.get(vid)
        if lst is None:
            self.positions[vid] = [len(ids)]
        else:
            lst.append(len(ids))
        ids.append(vid)
        self.vals.append(val)
        if self.cost > self.limit:
            raise CostLimitExceeded()

    def _find(self, vid: int) -> int:
        lst = self.positions.get(vid)
        if not lst:
            return -1
        ids = self.ids
        n = len(ids)
        while lst:
            idx = lst[-1]
            if idx < n and ids[idx] == vid:
                return idx
            lst.pop()
        return -1

    def drop(self, *vids: int) -> None:
        """``refValStack.drop``: for each id, remove its topmost entry and everything above it."""
        for vid in vids:
            idx = self._find(vid)
            if idx >= 0:
                del self.ids[idx:]
                del self.vals[idx:]

    def drop_ids(self, arg_ids: tuple[int, ...]) -> list[Any] | None:
        """``refValStack.dropArgs``: the arguments' values, last argument first, or None if one is missing."""
        result: list[Any] = [None] * len(arg_ids)
        ids = self.ids
        vals = self.vals
        for n in range(len(arg_ids) - 1, -1, -1):
            idx = self._find(arg_ids[n])
            if idx < 0:
                return None
            result[n] = vals[idx]
            del ids[idx:]
            del vals[idx:]
        return result

    def drop_args(self, args: list[Interpretable]) -> list[Any] | None:
        return self.drop_ids(tuple(a.id for a in args))

    def cost_fn(self, call: InterpretableCall) -> Callable[[list[Any], Any], int]:
        """``costCall`` for one call site: overload tracker, then the estimator, then the default."""
        overload = call.overload
        function = call.function
        tr = self.overload_trackers.get(overload) if self.overload_trackers else None
        est = self.estimator
        if est is not None and self.estimator_functions is not None and function not in self.estimator_functions:
            est = None
        unwrap = self.unwrap_optional
        if tr is None and est is None:
            return default_call_cost_fn(overload, unwrap)

        def cost(args: list[Any], result: Any) -> int:
            if tr is not None:
                c = tr(args, result)
                if c is not None:
                    return c
            if est is not None:
                c = est(function, overload, args, result)
                if c is not None:
                    return c
            return default_call_cost(overload, args, unwrap)

        return cost

    def observe(self, vid: int, kind: int, step: Any, val: Any) -> None:
        """``costTrackerFactory.Observe``; ``kind`` is the branch of its type switch, fixed at plan time."""
        if kind == K_CALL:
            arg_vals = self.drop_args(step.call_args())
            if arg_vals is not None:
                self.cost += self.cost_fn(step)(arg_vals, val)
        elif kind == K_ATTR:
            self.drop(step.attr().attr_id())
            self.cost += SELECT_AND_IDENT_COST
        elif kind == K_QUAL:
            self.cost += 1
        elif kind == K_TEST_ONLY:
            self.drop(step.attr().attr_id())
            if self.presence_test_has_cost:
                self.cost += SELECT_AND_IDENT_COST
        elif kind == K_COND:
            attr = step.attr()
            self.drop(attr.falsy.attr_id(), attr.truthy.attr_id(), attr.expr.id)
        elif kind == K_LOGIC:
            for term in step.terms:
                self.drop(term.id)
        elif kind == K_FOLD:
            self.drop(step.iter_range.id)
        elif kind == K_CTOR:
            self.drop_args(step.init_vals())
            self.cost += _ctor_cost(step.ctor_type())
        self.push(val, vid)


_NO_LIMIT = 1 << 64  # cel-go's cost is a uint64


def _ctor_cost(t: str) -> int:
    if t == "list":
        return LIST_CREATE_BASE_COST
    if t == "map":
        return MAP_CREATE_BASE_COST
    return STRUCT_CREATE_BASE_COST


# --- watch decorators (decObserveEval) --------------------------------------------------------------

K_OTHER, K_CONST, K_ATTR, K_TEST_ONLY, K_COND, K_LOGIC, K_FOLD, K_QUAL, K_CALL, K_CTOR = range(10)


def _kind(step: Any) -> int:  # noqa: C901 - the order of Observe's type switch
    """The branch of ``costTrackerFactory.Observe``'s type switch a program step takes."""
    if isinstance(step, ConstantQualifier):
        return K_QUAL
    if isinstance(step, InterpretableConst):
        return K_CONST
    if isinstance(step, InterpretableAttribute):
        if isinstance(step.attr(), ConditionalAttribute):
            return K_COND
        if isinstance(step, EvalTestOnly):
            return K_TEST_ONLY
        return K_ATTR
    if isinstance(step, (EvalOr, EvalAnd)):
        return K_LOGIC
    if isinstance(step, EvalFold):
        return K_FOLD
    if isinstance(step, Qualifier):
        return K_QUAL
    if isinstance(step, InterpretableCall):
        return K_CALL
    if isinstance(step, InterpretableConstructor):
        return K_CTOR
    return K_OTHER


def _attr_drop_ids(kind: int, step: Any) -> tuple[int, ...]:
    """The ids ``Observe`` drops for an attribute step (fixed once the plan is complete)."""
    if kind == K_COND:
        attr = step.attr()
        return (attr.falsy.attr_id(), attr.truthy.attr_id(), attr.expr.id)
    if kind in (K_ATTR, K_TEST_ONLY):
        return (step.attr().attr_id(),)
    return ()


class EvalWatch(Interpretable):
    """``evalWatch``: observes a step that is not a call, attribute, constant or constructor."""

    __slots__ = ("inner", "kind")

    def __init__(self, inner: Interpretable) -> None:
        self.inner = inner
        self.kind = _kind(inner)

    @property
    def id(self) -> int:  # type: ignore[override]
        return self.inner.id

    def eval(self, act: Any) -> Any:
        inner = self.inner
        val = inner.eval(act)
        tracker = act.tracker
        if tracker is not None:
            tracker.observe(inner.id, self.kind, inner, val)
        return val


class _EvalWatchCall(EvalWatch):
    """``evalWatch`` of a call: drops the arguments' values and charges ``costCall``."""

    __slots__ = ("vid", "arg_ids", "cost")

    def __init__(self, inner: Interpretable) -> None:
        super().__init__(inner)
        self.vid = inner.id
        self.arg_ids: tuple[int, ...] | None = None
        self.cost: Callable[[list[Any], Any], int] | None = None

    def eval(self, act: Any) -> Any:
        val = self.inner.eval(act)
        tr = act.tracker
        if tr is not None:
            arg_ids = self.arg_ids
            if arg_ids is None:
                arg_ids = self.arg_ids = tuple(a.id for a in self.inner.call_args())  # type: ignore[attr-defined]
            args = tr.drop_ids(arg_ids)
            if args is not None:
                cost = self.cost
                if cost is None:
                    cost = self.cost = tr.cost_fn(self.inner)
                tr.cost += cost(args, val)
            tr.push(val, self.vid)
        return val


class _EvalWatchDrop(EvalWatch):
    """``evalWatch`` of ``&&``/``||`` (drops each term) and of a comprehension (drops its range)."""

    __slots__ = ("vid", "drop_ids")

    def __init__(self, inner: Interpretable) -> None:
        super().__init__(inner)
        self.vid = inner.id
        self.drop_ids: tuple[int, ...] | None = None

    def eval(self, act: Any) -> Any:
        val = self.inner.eval(act)
        tr = act.tracker
        if tr is not None:
            drop_ids = self.drop_ids
            if drop_ids is None:
                inner: Any = self.inner
                drop_ids = self.drop_ids = (tuple(t.id for t in inner.terms) if self.kind == K_LOGIC
                                            else (inner.iter_range.id,))
            tr.drop(*drop_ids)
            tr.push(val, self.vid)
        return val


class EvalWatchConst(InterpretableConst):
    __slots__ = ("inner", "vid", "val")

    def __init__(self, inner: InterpretableConst) -> None:
        self.inner = inner
        self.vid = inner.id
        self.val = inner.value()

    @property
    def id(self) -> int:  # type: ignore[override]
        return self.vid

    def value(self) -> Any:
        return self.val

    def eval(self, act: Any) -> Any:
        val = self.val
        tracker = act.tracker
        if tracker is not None:
            tracker.push(val, self.vid)
        return val


class EvalWatchConstructor(InterpretableConstructor):
    __slots__ = ("inner", "arg_ids", "base_cost")

    def __init__(self, inner: InterpretableConstructor) -> None:
        self.inner = inner
        self.arg_ids: tuple[int, ...] | None = None
        self.base_cost = _ctor_cost(inner.ctor_type())

    @property
    def id(self) -> int:  # type: ignore[override]
        return self.inner.id

    def init_vals(self) -> list[Interpretable]:
        return self.inner.init_vals()

    def ctor_type(self) -> str:
        return self.inner.ctor_type()

    def eval(self, act: Any) -> Any:
        val = self.inner.eval(act)
        tr = act.tracker
        if tr is not None:
            arg_ids = self.arg_ids
            if arg_ids is None:
                arg_ids = self.arg_ids = tuple(a.id for a in self.inner.init_vals())
            tr.drop_ids(arg_ids)
            tr.cost += self.base_cost
            tr.push(val, self.inner.id)
        return val


class EvalWatchConstQual(ConstantQualifier):
    __slots__ = ("inner", "vid")

    def __init__(self, inner: ConstantQualifier) -> None:
        self.inner = inner
        self.vid = inner.id

    @property
    def id(self) -> int:  # type: ignore[override]
        return self.vid

    def is_optional(self) -> bool:
        return self.inner.is_optional()

    def value(self) -> Any:
        return self.inner.value()

    def qualify(self, act: Any, obj: Any) -> Any:
        out = self.inner.qualify(act, obj)
        tr = act.tracker
        if tr is not None:
            tr.cost += 1
            tr.push(out, self.vid)
        return out

    def qualify_if_present(self, act: Any, obj: Any, presence_only: bool) -> tuple[Any, bool]:
        out, present = self.inner.qualify_if_present(act, obj, presence_only)
        if present or presence_only:
            tr = act.tracker
            if tr is not None:
                val = out if (type(out) is Err or out is not None) else (present if presence_only else None)
                tr.cost += 1
                tr.push(val, self.vid)
        return out, present


class EvalWatchAttrQual(Attribute):
    """``evalWatchAttrQual``: observes a qualification by a value computed at run time."""

    __slots__ = ("inner", "kind")

    def __init__(self, inner: Attribute) -> None:
        self.inner = inner
        self.kind = _kind(inner)

    @property
    def id(self) -> int:  # type: ignore[override]
        return self.inner.attr_id()

    def attr_id(self) -> int:
        return self.inner.attr_id()

    def is_optional(self) -> bool:
        return self.inner.is_optional()

    def add_qualifier(self, q: Qualifier) -> Attribute:
        return self.inner.add_qualifier(q)

    def resolve(self, act: Any) -> Any:
        return self.inner.resolve(act)

    def qualify(self, act: Any, obj: Any) -> Any:
        out = self.inner.qualify(act, obj)
        tracker = act.tracker
        if tracker is not None:
            tracker.observe(self.inner.attr_id(), self.kind, self.inner, out)
        return out

    def qualify_if_present(self, act: Any, obj: Any, presence_only: bool) -> tuple[Any, bool]:
        out, present = self.inner.qualify_if_present(act, obj, presence_only)
        if present or presence_only:
            tracker = act.tracker
            if tracker is not None:
                val = out if (type(out) is Err or out is not None) else (present if presence_only else None)
                tracker.observe(self.inner.attr_id(), self.kind, self.inner, val)
        return out, present


class EvalWatchAttr(InterpretableAttribute):
    """``evalWatchAttr``: observes an attribute's evaluation and wraps the qualifiers added to it."""

    __slots__ = ("inner", "kind", "drop_ids", "charge")

    def __init__(self, inner: InterpretableAttribute) -> None:
        self.inner = inner
        self.kind = _kind(inner)
        self.drop_ids: tuple[int, ...] | None = None
        self.charge: int | None = None

    @property
    def id(self) -> int:  # type: ignore[override]
        return self.inner.attr_id()

    def attr_id(self) -> int:
        return self.inner.attr_id()

    def attr(self) -> Attribute:
        return self.inner.attr()

    def add_qualifier(self, q: Qualifier) -> Attribute:
        if isinstance(q, ConstantQualifier):
            q = EvalWatchConstQual(q)
        elif isinstance(q, EvalWatchAttr):
            q = EvalWatchAttrQual(q.inner)
        elif isinstance(q, Attribute):
            q = EvalWatchAttrQual(q)
        self.inner.add_qualifier(q)
        return self

    def eval(self, act: Any) -> Any:
        inner = self.inner
        val = inner.eval(act)
        tr = act.tracker
        if tr is not None:
            drop_ids = self.drop_ids
            if drop_ids is None:
                kind = self.kind
                if kind in (K_ATTR, K_TEST_ONLY, K_COND):
                    drop_ids = _attr_drop_ids(kind, inner)
                    charge = SELECT_AND_IDENT_COST if (
                        kind == K_ATTR or (kind == K_TEST_ONLY and tr.presence_test_has_cost)) else 0
                else:  # not reached: attributes take one of the three branches above
                    drop_ids = ()
                    charge = 0
                self.drop_ids = drop_ids
                self.charge = charge
            tr.drop(*drop_ids)
            tr.cost += self.charge
            tr.push(val, inner.attr_id())
        return val

    def qualify(self, act: Any, obj: Any) -> Any:
        return self.inner.qualify(act, obj)

    def qualify_if_present(self, act: Any, obj: Any, presence_only: bool) -> tuple[Any, bool]:
        return self.inner.qualify_if_present(act, obj, presence_only)

    def is_optional(self) -> bool:
        return self.inner.is_optional()

    def resolve(self, act: Any) -> Any:
        return self.inner.resolve(act)


def _dec_observe(i: Interpretable) -> Interpretable:
    if isinstance(i, (EvalWatch, EvalWatchAttr, EvalWatchConst, EvalWatchConstructor)):
        return i
    if isinstance(i, InterpretableAttribute):
        return EvalWatchAttr(i)
    if isinstance(i, InterpretableConst):
        return EvalWatchConst(i)
    if isinstance(i, InterpretableConstructor):
        return EvalWatchConstructor(i)
    kind = _kind(i)
    if kind == K_CALL:
        return _EvalWatchCall(i)
    if kind in (K_LOGIC, K_FOLD):
        return _EvalWatchDrop(i)
    return EvalWatch(i)


# --- the planner (planner.go) -------------------------------------------------------------------------


class Dispatcher:
    """``Dispatcher``: overloads by overload id and by function name."""

    def __init__(self, overloads: dict[str, Overload]) -> None:
        self.overloads = overloads

    def find(self, name: str) -> Overload | None:
        return self.overloads.get(name)


class _Planner:
    def __init__(self, checked: CheckedAst, dispatcher: Dispatcher, observe: bool,
                 type_idents: dict[str, Any], optimize: bool = True,
                 regex_optimizations: tuple[str, ...] = ("matches",),
                 panicking_trackers: dict[str, Callable[[list[Any], Any], Any]] | None = None,
                 cel_go: str = DEFAULT_CEL_GO,
                 struct_factory: Callable[[str, dict[str, Any]], Any] | None = None) -> None:
        self.cel_go = cel_go
        self.struct_factory = struct_factory
        self.ref_map = checked.reference_map
        self.type_map = checked.type_map
        self.disp = dispatcher
        self.observe = observe
        self.type_idents = type_idents
        self.optimize = optimize
        self.regex_optimizations = regex_optimizations
        self.panicking_trackers = panicking_trackers

    def decorate(self, i: Interpretable) -> Interpretable:
        """The planner options in cel-go's order: library decorators (optional ``or``), ``Optimize``,
        ``CompileRegexConstants``, then the cost observer."""
        i = _dec_optional_or(i)
        if self.optimize:
            i = _dec_optimize(i)
        if self.regex_optimizations:
            i = _dec_regex(i, self.regex_optimizations)
        if self.observe:
            i = _dec_observe(i)
        elif self.panicking_trackers and isinstance(i, (EvalUnary, EvalBinary)):
            tr = self.panicking_trackers.get(i.overload)
            if tr is not None:
                i = EvalTrackerPanics(i, tr)
        return i

    def plan(self, e: A.Expr) -> Interpretable:
        k = e.kind
        if k == A.CALL:
            i = self.plan_call(e)
        elif k == A.IDENT:
            i = self.plan_ident(e)
        elif k == A.LITERAL:
            i = EvalConst(e.id, _literal_value(e))
        elif k == A.SELECT:
            i = self.plan_select(e)
        elif k == A.LIST:
            i = self.plan_list(e)
        elif k == A.MAP:
            i = self.plan_map(e)
        elif k == A.STRUCT:
            i = self.plan_struct(e)
        elif k == A.COMPREHENSION:
            i = self.plan_comprehension(e)
        else:
            raise PlanError(f"unsupported expr: {e}")
        return self.decorate(i)

    def plan_ident(self, e: A.Expr) -> Interpretable:
        ref = self.ref_map.get(e.id)
        name = ref.name if ref is not None and ref.name else e.name
        return self.plan_checked_ident(e.id, name)

    def plan_checked_ident(self, eid: int, name: str) -> Interpretable:
        t = self.type_map.get(eid)
        if t is not None and t.kind == T.Kind.TYPE:
            tv = self.type_idents.get(name[1:] if name.startswith(".") else name)
            if tv is None:
                # planner.go planCheckedIdent: a type-typed identifier the provider does not know (a comprehension
                # variable ranging over types: [int].all(x, x == int)) fails program creation
                raise PlanError(f"reference to undefined type: {name}")
            return EvalConst(eid, tv)
        return EvalAttr(AbsoluteAttribute(eid, name, self.type_idents.get(name.lstrip("."), MISSING)))

    def relative_attr(self, rid: int, ev: Interpretable, opt: bool) -> InterpretableAttribute:
        if isinstance(ev, InterpretableAttribute):
            e_attr: InterpretableAttribute = ev
        else:
            e_attr = EvalAttr(RelativeAttribute(rid, ev), opt)
        dec = self.decorate(e_attr)
        assert isinstance(dec, InterpretableAttribute)
        return dec

    def plan_select(self, e: A.Expr) -> Interpretable:
        ref = self.ref_map.get(e.id)
        if ref is not None and ref.name:
            return self.plan_checked_ident(e.id, ref.name)
        assert e.operand is not None
        op = self.plan(e.operand)
        attr = op if isinstance(op, InterpretableAttribute) else self.relative_attr(op.id, op, False)
        qual = new_qualifier(e.id, e.name, False)
        if e.test_only:
            attr = EvalTestOnly(e.id, attr)
        attr.add_qualifier(qual)
        return attr

    def plan_call(self, e: A.Expr) -> Interpretable:  # noqa: C901 - planCall's cases
        fn_name = e.name
        ref = self.ref_map.get(e.id)
        o_name = ref.overload_ids[0] if ref is not None and len(ref.overload_ids) == 1 else ""
        target = e.target
        args: list[Interpretable] = []
        if target is not None:
            args.append(self.plan(target))
        for a in e.args:
            args.append(self.plan(a))
        if fn_name == "_&&_":
            return EvalAnd(e.id, args)
        if fn_name == "_||_":
            return EvalOr(e.id, args)
        if fn_name == "_?_:_":
            return self.plan_conditional(e, args)
        if fn_name == "_==_":
            return EvalEq(e.id, args[0], args[1])
        if fn_name == "_!=_":
            return EvalNe(e.id, args[0], args[1])
        if fn_name == "_[_]":
            return self.plan_index(e, args, False)
        if fn_name in ("_?._", "_[?_]"):
            return self.plan_index(e, args, True)
        fn_def = self.disp.find(o_name) if o_name else None
        if fn_def is None:
            fn_def = self.disp.find(fn_name)
        argc = len(args)
        if argc == 0:
            if fn_def is None or fn_def.function is None:
                raise PlanError(f"no such overload: {fn_name}()")
            return EvalZeroArity(e.id, fn_name, o_name, fn_def.function)
        if argc == 1:
            if fn_def is not None and fn_def.unary is None and fn_def.function is not None:
                return self.var_args(e, fn_name, o_name, fn_def, args)
            if fn_def is not None and fn_def.unary is None:
                raise PlanError(f"no such overload: {fn_name}(arg)")
            return EvalUnary(e.id, fn_name, o_name, args[0], fn_def.operand_trait if fn_def else 0,
                             fn_def.unary if fn_def else None, fn_def.non_strict if fn_def else False)
        if argc == 2:
            if fn_def is not None and fn_def.binary is None and fn_def.function is not None:
                return self.var_args(e, fn_name, o_name, fn_def, args)
            if fn_def is not None and fn_def.binary is None:
                raise PlanError(f"no such overload: {fn_name}(lhs, rhs)")
            return EvalBinary(e.id, fn_name, o_name, args[0], args[1], fn_def.operand_trait if fn_def else 0,
                              fn_def.binary if fn_def else None, fn_def.non_strict if fn_def else False)
        return self.var_args(e, fn_name, o_name, fn_def, args)

    def var_args(self, e: A.Expr, fn_name: str, o_name: str, fn_def: Overload | None,
                 args: list[Interpretable]) -> Interpretable:
        if fn_def is not None and fn_def.function is None:
            raise PlanError(f"no such overload: {fn_name}(...)")
        return EvalVarArgs(e.id, fn_name, o_name, args, fn_def.operand_trait if fn_def else 0,
                           fn_def.function if fn_def else None, fn_def.non_strict if fn_def else False)

    def plan_conditional(self, e: A.Expr, args: list[Interpretable]) -> Interpretable:
        cond, t, f = args
        t_attr = t.attr() if isinstance(t, InterpretableAttribute) else RelativeAttribute(t.id, t)
        f_attr = f.attr() if isinstance(f, InterpretableAttribute) else RelativeAttribute(f.id, f)
        return EvalAttr(ConditionalAttribute(e.id, cond, t_attr, f_attr))

    def plan_index(self, e: A.Expr, args: list[Interpretable], optional: bool) -> Interpretable:
        op, ind = args
        attr = op if isinstance(op, InterpretableAttribute) else self.relative_attr(op.id, op, False)
        qual: Qualifier
        if isinstance(ind, InterpretableConst):
            qual = new_qualifier(e.id, ind.value(), optional)
            if isinstance(qual, _InvalidQualifier):
                # planner.go planIndex: the constant qualifier's error fails program creation
                # ("invalid qualifier type: types.Null" for d[null])
                raise PlanError(f"invalid qualifier type: {go_type_name(qual.val)}")
        elif isinstance(ind, InterpretableAttribute):
            qual = new_qualifier(e.id, ind, optional)
        else:
            qual = self.relative_attr(e.id, ind, optional)
        attr.add_qualifier(qual)
        return attr

    def plan_list(self, e: A.Expr) -> Interpretable:
        optionals = [False] * len(e.args)
        for idx in e.optional_indices:
            if idx < 0 or idx >= len(e.args):
                raise PlanError(f"optional index {idx} out of element bounds [0, {len(e.args)}]")
            optionals[idx] = True
        return EvalList(e.id, [self.plan(a) for a in e.args], optionals)

    def plan_map(self, e: A.Expr) -> Interpretable:
        keys, vals, optionals = [], [], []
        for en in e.entries:
            assert en.key is not None
            keys.append(self.plan(en.key))
            vals.append(self.plan(en.value))
            optionals.append(en.optional)
        return EvalMap(e.id, keys, vals, optionals)

    def plan_struct(self, e: A.Expr) -> Interpretable:
        return EvalObj(e.id, e.name, [en.field for en in e.entries], [self.plan(en.value) for en in e.entries],
                       self.struct_factory)

    def plan_comprehension(self, e: A.Expr) -> Interpretable:
        assert e.accu_init is not None and e.iter_range is not None and e.loop_condition is not None
        assert e.loop_step is not None and e.result is not None
        accu = self.plan(e.accu_init)
        rng = self.plan(e.iter_range)
        cond = self.plan(e.loop_condition)
        step = self.plan(e.loop_step)
        result = self.plan(e.result)
        return EvalFold(e.id, e.accu_var, accu, e.iter_var, e.iter_var2, rng, cond, step, result,
                        has(self.cel_go, "two_var_error_range"))


def _literal_value(e: A.Expr) -> Any:
    if e.lit == A.LIT_UINT:
        return V.Uint(e.value)
    if e.lit == A.LIT_NULL:
        return None
    return e.value


# --- plan-time decorators --------------------------------------------------------------------------------


def _dec_optional_or(i: Interpretable) -> Interpretable:
    """``decorateOptionalOr``."""
    if not isinstance(i, InterpretableCall):
        return i
    args = i.call_args()
    if len(args) != 2:
        return i
    if i.function == "or" and i.overload in ("", "optional_or_optional"):
        return EvalOptionalOr(i.id, args[0], args[1])
    if i.function == "orValue" and i.overload in ("", "optional_orValue_value"):
        return EvalOptionalOrValue(i.id, args[0], args[1])
    return i


_CONVERSIONS = frozenset({"bool", "bytes", "double", "duration", "dyn", "int", "string", "timestamp", "type", "uint"})
_EMPTY = Activation({})


def _dec_optimize(i: Interpretable) -> Interpretable:
    """``decOptimize``: constant list/map literals, set membership, constant conversions."""
    if isinstance(i, EvalList):
        if all(isinstance(e, InterpretableConst) for e in i.elems):
            return EvalConst(i.id, i.eval(_EMPTY))
        return i
    if isinstance(i, EvalMap):
        if all(isinstance(k, InterpretableConst) for k in i.keys) and all(
                isinstance(v, InterpretableConst) for v in i.vals):
            return EvalConst(i.id, i.eval(_EMPTY))
        return i
    if isinstance(i, InterpretableCall):
        if i.overload == "in_list":
            return _optimize_set_membership(i)
        if i.function in _CONVERSIONS:
            args = i.call_args()
            if len(args) == 1 and isinstance(args[0], InterpretableConst):
                val = i.eval(_EMPTY)
                if type(val) is Err:
                    raise PlanError(val.msg)
                return EvalConst(i.id, val)
    return i


def _optimize_set_membership(i: InterpretableCall) -> Interpretable:
    lhs, rhs = i.call_args()
    if not isinstance(rhs, InterpretableConst):
        return i
    lst = rhs.value()
    if not isinstance(lst, V.ListValue):
        return i
    if lst.size() == 0:
        return EvalConst(i.id, False)
    value_set: set[Any] = set()
    for elem in lst.items():
        t = type(elem)
        if t not in (bool, float, int, str) and t is not V.Uint:
            return i
        value_set.add(V.map_key(elem))
        if t is float:
            iv = V.double_to_int64_checked(elem)
            if type(iv) is not Err and V.value_equal(iv, elem) is True:
                value_set.add(V.map_key(iv))
            uv = V.double_to_uint64_checked(elem)
            if type(uv) is not Err and V.value_equal(uv, elem) is True:
                value_set.add(V.map_key(uv))
        elif t is int:
            value_set.add(V.map_key(float(elem)))
            if elem >= 0:
                value_set.add(V.map_key(V.Uint(elem)))
        elif t is V.Uint:
            value_set.add(V.map_key(float(elem.v)))
            if elem.v <= V.INT64_MAX:
                value_set.add(V.map_key(elem.v))
    return EvalSetMembership(i.id, lhs, value_set)


def _dec_regex(i: Interpretable, functions: tuple[str, ...]) -> Interpretable:
    """``decRegexOptimizer``: a call of one of ``functions`` (``matches``: cel-go's
    ``MatchesRegexOptimization``, with ``OptOptimize``; ``find``/``findAll``: the Kubernetes regex
    library's ``FindRegexOptimization``/``FindAllRegexOptimization``) whose pattern argument is a
    constant string gets its pattern compiled at plan time; a bad pattern fails the plan.
    """
    if not isinstance(i, InterpretableCall) or i.function not in functions:
        return i
    args = i.call_args()
    if len(args) <= 1:
        return i
    pat = args[1]
    if not isinstance(pat, InterpretableConst) or type(pat.value()) is not str:
        return i
    rx = V.compile_regex(pat.value())
    if type(rx) is Err:
        raise PlanError(rx.msg)
    impl: Callable[..., Any]
    if i.function == "matches":
        def impl(*values: Any) -> Any:
            if len(values) != 2:
                return V.NO_SUCH_OVERLOAD
            s = values[0]
            if type(s) is not str:
                return V.NO_SUCH_OVERLOAD
            return rx.search(s) is not None
    elif i.function == "find":
        def impl(*values: Any) -> Any:
            if len(values) != 2:
                return V.NO_SUCH_OVERLOAD
            s = values[0]
            if type(s) is not str:
                return V.maybe_no_such_overload(s)
            m = rx.search(s)
            return m.group(0) if m else ""
    else:
        from crdtool.core.gostd import find_all

        def impl(*values: Any) -> Any:
            if len(values) < 2 or len(values) > 3:
                return V.NO_SUCH_OVERLOAD
            s = values[0]
            if type(s) is not str:
                return V.maybe_no_such_overload(s)
            n = -1
            if len(values) == 3:
                if type(values[2]) is not int:
                    return V.maybe_no_such_overload(values[2])
                n = values[2]
            return V.BaseList(find_all(rx, s, n))

    return EvalVarArgs(i.id, i.function, i.overload, args, 0, impl, False)


# --- programs ------------------------------------------------------------------------------------------


class Program:
    """A planned expression: a plain plan and, built on first use, a cost-observed one."""

    __slots__ = ("checked", "dispatcher", "type_idents", "plain", "_observed", "estimator", "overload_trackers",
                 "estimator_functions", "optimize", "regex_optimizations", "presence_test_has_cost",
                 "panicking_trackers", "cel_go", "struct_factory")

    def __init__(self, checked: CheckedAst, dispatcher: Dispatcher, type_idents: dict[str, Any],
                 estimator: Callable[[str, str, list[Any], Any], int | None] | None,
                 overload_trackers: dict[str, Callable[[list[Any], Any], int | None]],
                 estimator_functions: frozenset[str] | None = None, *, optimize: bool = True,
                 regex_optimizations: tuple[str, ...] = ("matches",),
                 presence_test_has_cost: bool = False,
                 panicking_trackers: dict[str, Callable[[list[Any], Any], Any]] | None = None,
                 cel_go: str = DEFAULT_CEL_GO,
                 struct_factory: Callable[[str, dict[str, Any]], Any] | None = None) -> None:
        self.cel_go = cel_go
        self.struct_factory = struct_factory
        self.checked = checked
        self.dispatcher = dispatcher
        self.type_idents = type_idents
        self.optimize = optimize
        self.regex_optimizations = regex_optimizations
        self.presence_test_has_cost = presence_test_has_cost
        self.panicking_trackers = panicking_trackers
        self.plain = self._plan(False)
        self._observed: Interpretable | None = None
        self.estimator = estimator
        self.overload_trackers = overload_trackers
        self.estimator_functions = estimator_functions

    def _plan(self, observe: bool) -> Interpretable:
        return _Planner(self.checked, self.dispatcher, observe, self.type_idents, self.optimize,
                        self.regex_optimizations, self.panicking_trackers, self.cel_go,
                        self.struct_factory).plan(self.checked.expr)

    def eval(self, variables: dict[str, Any]) -> Any:
        """The value (errors as :class:`Err`), without cost tracking.

        Raises :class:`crdtool.core.celgo.values.EvaluationTooLarge`.
        """
        return self.eval_bounded(variables)[0]

    def eval_bounded(self, variables: dict[str, Any]) -> tuple[Any, int]:
        """(value, slack): the value without cost tracking, and how many equality tests and qualifications it
        made. cel-go's static estimate can be below the runtime cost it bounds: ``checker/cost.go`` prices
        ``==``/``!=`` of values without a size at 0 where ``runtimecost.go`` charges 1, and a field selection on
        a ``dyn`` operand at 0 where the qualifier is charged 1; the static estimate plus this slack bounds the
        actual cost (``validate_cel``'s fast path).

        Raises :class:`crdtool.core.celgo.values.EvaluationTooLarge`.
        """
        act = Activation(variables)
        try:
            val = self.plain.eval(act)
        except V.GoPanic as exc:
            val = Err(f"internal error: {exc}")
        return val, act.counter.n

    def eval_with_cost(self, variables: dict[str, Any], limit: int | None) -> tuple[Any, int, bool]:
        """(value, actual cost, cancelled): cel-go's tracked evaluation with the per-call ``limit``."""
        if self._observed is None:
            self._observed = self._plan(True)
        tracker = CostTracker(self.estimator, self.overload_trackers, limit, self.presence_test_has_cost,
                              self.estimator_functions, has(self.cel_go, "actual_size_unwraps_optional"))
        try:
            val = self._observed.eval(Activation(variables, tracker))
        except CostLimitExceeded:
            return Err("operation cancelled: actual cost limit exceeded"), tracker.cost, True
        except V.GoPanic as exc:  # prog.Eval's recover(): "internal error: %v"; the cost so far stands
            return Err(f"internal error: {exc}"), tracker.cost, False
        return val, tracker.cost, False


@dataclass
class Runtime:
    """What a program needs from its environment: the function dispatcher, the runtime type identifiers,
    the libraries' cost estimator (``CostEstimator.CallCost``) and ``OverloadCostTracker``s.

    Built by :func:`crdtool.core.celgo.functions.build_runtime`.
    """

    dispatcher: Any
    type_idents: dict[str, Any]
    estimator: Callable[[str, str, list[Any], Any], int | None] | None
    overload_trackers: dict[str, Callable[[list[Any], Any], int | None]]
    #: the functions ``estimator`` may price (others always take the default), None: any
    estimator_functions: frozenset[str] | None = None
    #: functions whose constant pattern argument a program compiles once (the Kubernetes regex library's)
    regex_functions: tuple[str, ...] = ()
    #: the trackers that assert their arguments' types and so panic on what only ``dyn`` lets through
    panicking_trackers: dict[str, Callable[[list[Any], Any], int | None]] = field(default_factory=dict)
    #: the cel-go version whose interpreter this is (:mod:`crdtool.core.celgo.version`)
    cel_go: str = DEFAULT_CEL_GO
    #: ``TypeProvider.NewValue`` of the host's object types (``Object{...}`` of the mutating policies' environment)
    struct_factory: Callable[[str, dict[str, Any]], Any] | None = None


def plan_program(checked: CheckedAst, runtime: Runtime, *, optimize: bool = True,
                 presence_test_has_cost: bool = False, cost_tracking: bool = True) -> Program:
    """Plan a checked expression for an environment's runtime (``env.Program``).

    The defaults are the Kubernetes base environment's program options
    (``cel.EvalOptions(cel.OptOptimize, cel.OptTrackCost)``,
    ``cel.CostTrackerOptions(interpreter.PresenceTestHasCost(false))``); a plain
    ``cel.NewEnv`` program is ``optimize=False, presence_test_has_cost=True``.
    The runtime's ``regex_functions`` (the Kubernetes regex library's ``find``/``findAll``)
    get their constant-pattern optimisations either way; ``matches`` only when optimizing.
    ``cost_tracking``: the program always runs with cel-go's cost tracker
    (Kubernetes' programs do), so the plain plan reproduces the trackers' panics
    (``internal error: ...``).

    Raises :class:`PlanError` when cel-go's program creation would fail
    (e.g. a constant ``int('x')`` conversion, a constant bad regex).
    """
    rt = runtime
    regex = rt.regex_functions
    if optimize:
        regex = regex + ("matches",)
    panicking = (rt.panicking_trackers or None) if cost_tracking else None
    return Program(checked, rt.dispatcher, rt.type_idents, rt.estimator, rt.overload_trackers,
                   rt.estimator_functions, optimize=optimize, regex_optimizations=regex,
                   presence_test_has_cost=presence_test_has_cost, panicking_trackers=panicking,
                   cel_go=rt.cel_go, struct_factory=rt.struct_factory)


STRING_TRAVERSAL_COST_FACTOR = 0.1


REGEX_STRING_LENGTH_COST_FACTOR = 0.25


def actual_size(v: Any, unwrap_optional: bool = True) -> int:
    """``actualSize`` (runtimecost.go): sizers by size, a present optional by its value (cel-go v0.23.2+;
    ``unwrap_optional`` False: 1, as before), else 1."""
    t = type(v)
    if t is str or t is bytes:
        return len(v)
    if isinstance(v, (V.ListValue, V.MapValue)):
        return v.size()
    if t is V.Optional and v.has_value and unwrap_optional:
        return actual_size(v.value)
    size = getattr(v, "size", None)
    if size is not None and t is not V.Optional:
        return size()  # type: ignore[no-any-return]
    return 1


def _ceil(x: float) -> int:
    return int(math.ceil(x))


_O_N = frozenset({"starts_with_string", "ends_with_string", "string_to_bytes", "bytes_to_string", "strings_quote",
                  "string_format"})


_MIN_SIZE = frozenset({f"{op}_{t}" for op in ("less", "greater", "less_equals", "greater_equals")
                       for t in ("string", "bytes")} | {"equals", "not_equals"})


def default_call_cost(overload: str, args: list[Any], unwrap_optional: bool = True) -> int:
    """The default branch of ``CostTracker.costCall``."""
    if overload in _O_N:
        return _ceil(actual_size(args[0]) * STRING_TRAVERSAL_COST_FACTOR)
    if overload == "in_list":
        return actual_size(args[1])
    if overload in _MIN_SIZE:
        return _ceil(min(actual_size(args[0], unwrap_optional), actual_size(args[1], unwrap_optional))
                     * STRING_TRAVERSAL_COST_FACTOR)
    if overload in ("add_string", "add_bytes"):
        return _ceil((actual_size(args[0]) + actual_size(args[1])) * STRING_TRAVERSAL_COST_FACTOR)
    if overload == "matches_string":
        str_cost = _ceil((1.0 + actual_size(args[0])) * STRING_TRAVERSAL_COST_FACTOR)
        regex_cost = _ceil(actual_size(args[1]) * REGEX_STRING_LENGTH_COST_FACTOR)
        return str_cost * regex_cost
    if overload == "contains_string":
        return _ceil(actual_size(args[0]) * STRING_TRAVERSAL_COST_FACTOR) * _ceil(
            actual_size(args[1]) * STRING_TRAVERSAL_COST_FACTOR)
    return 1


def _cost_one(args: list[Any], result: Any) -> int:
    return 1


def default_call_cost_fn(overload: str, unwrap_optional: bool = True) -> Callable[[list[Any], Any], int]:
    """:func:`default_call_cost` for one overload, as a function of (args, result)."""
    if overload in _O_N or overload in _MIN_SIZE or overload in (
            "in_list", "add_string", "add_bytes", "matches_string", "contains_string"):
        return lambda args, result: default_call_cost(overload, args, unwrap_optional)
    return _cost_one
