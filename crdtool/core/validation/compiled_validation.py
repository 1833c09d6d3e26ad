"""Value validation compiled once per schema: a fast yes/no path in front of the exact validator.

:func:`crdtool.core.validation.value_validation.validate_value` interprets the
raw schema dict for every object and builds kube-openapi's whole result
(messages, match counts) even when nothing fails. Most objects a CRD sees are
valid, so :class:`CompiledValidator` compiles the schema once into one
closure per schema node that answers a single question, *would the exact
validator report any error for this value?*, without building messages or
field paths; only when the answer is yes does it run the exact,
message-producing interpreter on the whole object. Errors are therefore always
the interpreter's own, in its order.

The closures are exact, not merely conservative: a node's check returns True
if and only if ``value_validation._validate`` on that node yields no error.
Validity composes exactly (kube-openapi accumulates every child's errors;
``anyOf`` is valid iff some branch is, ``allOf`` iff all are, ``oneOf`` iff
exactly one is, ``not`` iff its branch is invalid), and whatever a node's
check does not model in closed form (integral floats of ``integer`` fields,
integers beyond int64, ``multipleOf``, float32 ranges, bounds that
kube-openapi itself refuses, Python values that are not plain JSON types) is
answered by running the interpreter on that node alone. The differential tests
(``tests/core/validation/test_compiled_validation.py``, ``tests/core/differential.py``)
hold the two paths equal on every call the custom-resource test suites make and
on hypothesis-generated schemas and objects.

A node's properties are compiled when a value first reaches them (each at most
once): an object of a large CRD touches a few dozen of its thousands of nodes,
and compiling them all up front would cost more than validating thousands of
objects. Schemas nested deeper than 200 levels are left to the interpreter.

``x-kubernetes-list-type`` uniqueness (``listtype.ValidateListSetsAndMaps``)
is compiled the same way: the walk visits only the object's fields whose
schema has a ``set`` or ``map`` list at or below it, and each such list is
first checked by the interpreter's own helpers with no field path, then, if
anything is reported, again with the real path.

Mirrors, as :mod:`crdtool.core.validation.value_validation` does,
``k8s.io/kube-openapi/pkg/validation/validate`` ``SchemaValidator.Validate``
(through ``apiextensions-apiserver`` ``validation.ValidateCustomResource``) and
``apiextensions-apiserver/pkg/apiserver/schema/listtype/validation.go``
``ValidateListSetsAndMaps``.
"""

from __future__ import annotations

import math
from typing import Any, Callable

from crdtool.core.errors import FieldError, Path, duplicate
from crdtool.core.releases import Release
from crdtool.core.validation import value_validation as vv
from crdtool.core.validation.value_validation import ValueRules
from crdtool.core.schema.formats import effective_format, is_known_format, validate_format

__all__ = ["CompiledValidator", "compile_list_types", "compile_value_check"]

Schema = dict[str, Any]
#: ``check(value) -> bool``: True iff the exact validator reports no error for ``value``.
Check = Callable[[Any], bool]

# Nesting beyond this is left to the interpreter (which turns a RecursionError into an error).
_MAX_COMPILE_DEPTH = 200
_INT64_MIN = -(1 << 63)
_INT64_MAX = (1 << 63) - 1
# A value of each Go kind for the type check, whose outcome depends on the value only for
# integral floats (0.5 is not one; such floats are left to the interpreter).
_KIND_SAMPLES: dict[str, Any] = {"bool": True, "string": "", "int": 0, "float": 0.5, "slice": [], "map": {}}
_ALL_KINDS = frozenset(_KIND_SAMPLES)
_KIND_OF_TYPE: dict[type, str] = {bool: "bool", str: "string", float: "float", list: "slice", dict: "map"}
_NUMBER_KINDS = frozenset({"int", "float"})


class _TooDeep(Exception):
    """The schema nests deeper than :data:`_MAX_COMPILE_DEPTH`: not compiled."""


def _exact(s: Schema, r: ValueRules) -> Check:
    """The interpreter on one node: no error at all?"""

    def check(d: Any) -> bool:
        return not vv._validate(s, "", d, r)[0]

    return check


def _always(d: Any) -> bool:
    return True


def compile_value_check(schema: Schema, release: Release | None = None) -> Check | None:
    """The compiled check of ``schema``: ``check(value)`` is True iff ``validate_value`` finds no error.

    In: an ``openAPIV3Schema`` dict (any shape the interpreter accepts), the
    Kubernetes release (None: the default). Out:
    the check, or None when the schema nests deeper than 200 levels or is
    cyclic (then use the interpreter). The schema must not be mutated while
    the check is in use: the check holds parts of it.
    """
    try:
        return _compile(schema, {}, 0, vv.value_rules(release))
    except (_TooDeep, RecursionError):
        return None


def _compile(s: Schema, memo: dict[int, Check], depth: int, r: ValueRules) -> Check:  # noqa: C901 - one closure per node kind
    if depth > _MAX_COMPILE_DEPTH:
        raise _TooDeep
    known = memo.get(id(s))
    if known is not None:
        return known
    types = vv._types_of(s)
    raw_fmt = s.get("format")
    fmt = effective_format(types, raw_fmt, r.release) if isinstance(raw_fmt, str) else ""
    nullable = s.get("nullable") is True
    enum = s.get("enum")
    has_enum = isinstance(enum, list) and bool(enum)
    # data None: the type check, then the enum (which no null matches); combinators are not run
    null_ok = vv._type_validate(types, nullable, fmt, "", None, "nil", r)[0] is None and not has_enum
    if types or fmt:
        accepted = frozenset(
            k for k, v in _KIND_SAMPLES.items() if vv._type_validate(types, nullable, fmt, "", v, k, r)[0] is None
        )
    else:
        accepted = _ALL_KINDS
    exact = _exact(s, r)
    sub = depth + 1

    def branches(key: str) -> list[Check] | None:
        raw = s.get(key)
        if not isinstance(raw, list) or not raw:
            return None
        return [_compile(b, memo, sub, r) for b in raw if isinstance(b, dict)]

    any_of = branches("anyOf")
    one_of = branches("oneOf")
    all_of = branches("allOf")
    not_raw = s.get("not")
    not_check = _compile(not_raw, memo, sub, r) if isinstance(not_raw, dict) else None
    has_junctors = any_of is not None or one_of is not None or all_of is not None or not_check is not None

    string_check = _string_check(s, fmt)
    number_check = _number_check(s, exact, r)
    slice_check = _slice_check(s, memo, sub, r)
    map_check = _map_check(s, memo, sub, r)
    str_enum: frozenset[str] | None = None
    if has_enum:
        assert isinstance(enum, list)
        str_enum = frozenset(e for e in enum if isinstance(e, str))

    def check(d: Any) -> bool:  # noqa: C901 - the interpreter's order, flattened
        t = type(d)
        kind = _KIND_OF_TYPE.get(t)
        if kind is None:
            if d is None:
                return null_ok
            if t is not int or not _INT64_MIN <= d <= _INT64_MAX:
                return exact(d)  # big ints, subclasses, non-JSON values: the interpreter decides
            kind = "int"
        elif kind == "float" and not math.isfinite(d):
            return exact(d)
        if kind not in accepted:
            # a wrong type is an error, except an integral float of an integer field
            return exact(d) if kind == "float" else False
        if has_junctors:
            if any_of is not None and not any(c(d) for c in any_of):
                return False
            if one_of is not None and sum(1 for c in one_of if c(d)) != 1:
                return False
            if all_of is not None and not all(c(d) for c in all_of):
                return False
            if not_check is not None and not_check(d):
                return False
        if kind == "map":
            if map_check is not None and not map_check(d):
                return False
        elif kind == "string":
            if string_check is not None and not string_check(d):
                return False
        elif kind == "slice":
            if slice_check is not None and not slice_check(d):
                return False
        elif kind in _NUMBER_KINDS:
            if number_check is not None and not number_check(d, kind):
                return False
        if has_enum:
            if kind == "string":
                assert str_enum is not None
                return d in str_enum  # only string enum values match a string
            return vv._enum_validate(s, "", d) is None
        return True

    memo[id(s)] = check
    return check


def _lazy(s: Schema, memo: dict[int, Check], depth: int, table: dict[str, Check], key: str, r: ValueRules) -> Check:
    """A check that compiles ``s`` on its first call and puts the compiled check in ``table[key]``."""

    def first(d: Any) -> bool:
        try:
            compiled = _compile(s, memo, depth, r)
        except (_TooDeep, RecursionError):
            compiled = _exact(s, r)
        table[key] = compiled
        return compiled(d)

    return first


def _string_check(s: Schema, fmt: str) -> Callable[[str], bool] | None:
    """``stringValidator`` (maxLength, minLength, pattern) and the format check, or None if there is nothing to check."""
    max_len = vv._int_of(s.get("maxLength"))
    min_len = vv._int_of(s.get("minLength"))
    pattern = s.get("pattern")
    rx: Any = None
    if isinstance(pattern, str) and pattern:
        rx = vv.compile_go_regexp(pattern)
        if isinstance(rx, str):  # an invalid pattern fails every string
            return lambda d: False
    check_format = bool(fmt) and is_known_format(fmt)
    if max_len is None and min_len is None and rx is None and not check_format:
        return None

    def check(d: str) -> bool:
        if max_len is not None and len(d) > max_len:
            return False
        if min_len is not None and len(d) < min_len:
            return False
        if rx is not None and not rx.search(d):
            return False
        return not check_format or validate_format(fmt, d)

    return check


def _number_check(s: Schema, exact: Check, r: ValueRules) -> Callable[[Any, str], bool] | None:
    """``numberValidator`` in closed form for the common cases, else the interpreter on the node.

    Closed form: no ``multipleOf``; the value's own range check is int32/int64
    for ``integer`` and none for ``number`` without format ``float``; bounds
    kube-openapi accepts for the type and format (precomputed), compared as
    it compares them (int64 for an int, float64 for a float).
    """
    type_name, fmt = vv._number_type_format(s, r)
    minimum = vv._float_of(s.get("minimum"))
    maximum = vv._float_of(s.get("maximum"))
    mult = s.get("multipleOf")
    if mult is None and minimum is None and maximum is None and type_name != "integer" and fmt != "float":
        return None
    simple = mult is None and fmt != "float"
    for bound, prefix in ((minimum, "Minimum boundary"), (maximum, "Maximum boundary")):
        if bound is not None and vv._range_error(bound, "float", type_name, fmt, prefix, "") is not None:
            simple = False
    if not simple:
        return lambda d, kind: exact(d)
    int_lo, int_hi = (-(1 << 31), (1 << 31) - 1) if fmt == "int32" else (_INT64_MIN, _INT64_MAX)
    excl_min = s.get("exclusiveMinimum") is True
    excl_max = s.get("exclusiveMaximum") is True
    imin = vv._go_f2i(minimum) if minimum is not None else None
    imax = vv._go_f2i(maximum) if maximum is not None else None
    is_integer = type_name == "integer"

    def check(d: Any, kind: str) -> bool:
        if kind == "int":
            if is_integer and not int_lo <= d <= int_hi:
                return False
            if imin is not None and (d <= imin if excl_min else d < imin):
                return False
            if imax is not None and (d >= imax if excl_max else d > imax):
                return False
            return True
        if is_integer:
            return exact(d)  # a float's text against ParseInt: the interpreter decides
        f = float(d)
        if minimum is not None and (f <= minimum if excl_min else f < minimum):
            return False
        if maximum is not None and (f >= maximum if excl_max else f > maximum):
            return False
        return True

    return check


def _slice_check(s: Schema, memo: dict[int, Check], depth: int, r: ValueRules) -> Callable[[list[Any]], bool] | None:
    """``schemaSliceValidator``: items, minItems, maxItems, uniqueItems."""
    items = s.get("items")
    item_check = _compile(items, memo, depth, r) if isinstance(items, dict) else None
    min_items = vv._int_of(s.get("minItems"))
    max_items = vv._int_of(s.get("maxItems"))
    unique = s.get("uniqueItems") is True
    if item_check is None and min_items is None and max_items is None and not unique:
        return None

    def check(d: list[Any]) -> bool:
        n = len(d)
        if min_items is not None and n < min_items:
            return False
        if max_items is not None and n > max_items:
            return False
        if unique and vv._has_duplicates(d):
            return False
        if item_check is not None:
            for v in d:
                if not item_check(v):
                    return False
        return True

    return check


def _map_check(s: Schema, memo: dict[int, Check], depth: int, r: ValueRules) -> Callable[[dict[str, Any]], bool] | None:
    """``objectValidator``: min/maxProperties, additionalProperties, properties, required."""
    min_props = vv._int_of(s.get("minProperties"))
    max_props = vv._int_of(s.get("maxProperties"))
    raw_props = s.get("properties")
    props: dict[str, Any] = raw_props if isinstance(raw_props, dict) else {}
    # every declared property has a check (non-dict property schemas are declared but unchecked),
    # compiled when a value first reaches it: most objects use few of a large schema's properties
    prop_checks: dict[str, Check] = {}
    for k, p in props.items():
        prop_checks[k] = _lazy(p, memo, depth, prop_checks, k, r) if isinstance(p, dict) else _always
    ap = s.get("additionalProperties")
    forbid_others = ap is False
    ap_check = _compile(ap, memo, depth, r) if isinstance(ap, dict) else None
    raw_req = s.get("required")
    required = tuple(k for k in raw_req if isinstance(k, str)) if isinstance(raw_req, list) else ()
    if (
        min_props is None and max_props is None and not prop_checks and not forbid_others
        and ap_check is None and not required
    ):
        return None

    def check(d: dict[str, Any]) -> bool:
        if min_props is not None and len(d) < min_props:
            return False
        if max_props is not None and len(d) > max_props:
            return False
        for k in required:
            if k not in d:
                return False
        for k, v in d.items():
            c = prop_checks.get(k)
            if c is not None:
                if not c(v):
                    return False
            elif ap_check is not None:
                if not ap_check(v):
                    return False
            elif forbid_others:
                return False
        return True

    return check


# =============================================================================
# listtype.ValidateListSetsAndMaps, visiting only the fields that can hold a set or map list
# =============================================================================

_NO_PATH = Path("")


class _ListNode:
    """One schema node that has a ``set``/``map`` list at or below it."""

    __slots__ = ("schema", "list_type", "items", "properties", "additional")

    def __init__(self, schema: Schema, list_type: str | None) -> None:
        self.schema = schema
        self.list_type = list_type
        self.items: _ListNode | None = None
        self.properties: dict[str, _ListNode] = {}
        self.additional: _ListNode | None = None


def compile_list_types(schema: Schema) -> _ListNode | None:
    """The part of ``schema`` where ``ValidateListSetsAndMaps`` can find something; None: nowhere.

    Raises nothing; a schema nesting deeper than 200 levels (or cyclic) is
    returned whole-interpreted by :class:`CompiledValidator`.
    """
    return _list_node(schema, 0, set(), {})


def _list_node(s: Any, depth: int, active: set[int], memo: dict[int, _ListNode | None]) -> _ListNode | None:
    if not isinstance(s, dict):
        return None
    if id(s) in memo:  # a schema shared by several fields (YAML anchors) is walked once
        return memo[id(s)]
    if depth > _MAX_COMPILE_DEPTH or id(s) in active:
        raise _TooDeep
    active.add(id(s))
    node = _list_node_of(s, depth, active, memo)
    active.discard(id(s))
    memo[id(s)] = node
    return node


def _list_node_of(s: Schema, depth: int, active: set[int], memo: dict[int, _ListNode | None]) -> _ListNode | None:
    lt = s.get("x-kubernetes-list-type")
    node = _ListNode(s, lt if lt in ("set", "map") else None)
    items = _list_node(s.get("items"), depth + 1, active, memo)
    ap = _list_node(s.get("additionalProperties"), depth + 1, active, memo)
    raw_props = s.get("properties")
    props: dict[str, _ListNode] = {}
    if isinstance(raw_props, dict):
        for k, p in raw_props.items():
            child = _list_node(p, depth + 1, active, memo)
            if child is not None:
                props[k] = child
    if node.list_type is None and items is None and ap is None and not props:
        return None
    node.items, node.additional, node.properties = items, ap, props
    return node


def _ls_object(node: _ListNode, obj: dict[str, Any], path: tuple[Any, ...], errs: list[FieldError]) -> None:
    """``validateListSetsAndMapsObject``, skipping the fields without lists below them (same order)."""
    if node.additional is not None:
        for k, v in obj.items():
            _ls_value(node.additional, v, (*path, ("key", k)), errs)
    if node.properties:
        for k, v in obj.items():
            child = node.properties.get(k)
            if child is not None:
                _ls_value(child, v, (*path, ("child", k)), errs)


def _ls_value(node: _ListNode, obj: Any, path: tuple[Any, ...], errs: list[FieldError]) -> None:
    if isinstance(obj, list):
        if node.list_type is not None:
            s = node.schema
            # the interpreter's helpers, without a path; with one only when they report something
            if node.list_type == "set":
                non_unique, err = vv._ls_set(_NO_PATH, obj)
                found = bool(non_unique) or err is not None
            else:
                found = bool(vv._ls_map(_NO_PATH, s, obj))
            if found:
                p = _path(path)
                if node.list_type == "set":
                    non_unique, err = vv._ls_set(p, obj)
                    if err is not None:
                        errs.append(err)
                    else:
                        errs.extend(duplicate(p.index(i), obj[i]) for i in non_unique)
                else:
                    errs.extend(vv._ls_map(p, s, obj))
        if node.items is not None:
            for i, v in enumerate(obj):
                _ls_value(node.items, v, (*path, ("index", i)), errs)
    elif isinstance(obj, dict):
        _ls_object(node, obj, path, errs)


def _path(steps: tuple[Any, ...]) -> Path:
    p = steps[0]
    for how, what in steps[1:]:
        p = p.child(what) if how == "child" else p.index(what) if how == "index" else p.key(what)
    assert isinstance(p, Path)
    return p


# =============================================================================
# The validator
# =============================================================================


class CompiledValidator:
    """A schema compiled once for :func:`validate_value` and :func:`validate_list_sets_and_maps`.

    ``CompiledValidator(schema, release)`` with an ``openAPIV3Schema`` dict (not
    mutated, and not to be mutated afterwards: the compiled checks hold parts
    of it) and the Kubernetes release whose rules apply (None: the default). Each method returns exactly what the interpreter function of the
    same name in :mod:`crdtool.core.validation.value_validation` returns for
    ``schema``; the work is done once per schema here instead of once per
    value, and the messages are only built for invalid values.
    """

    def __init__(self, schema: Schema, release: Release | None = None) -> None:
        self.schema = schema
        self.release = release
        self._check = compile_value_check(schema, release)
        self._lists_whole = False
        try:
            self._lists = compile_list_types(schema)
        except (_TooDeep, RecursionError):
            self._lists, self._lists_whole = None, True

    def is_valid(self, value: Any) -> bool:
        """Does ``validate_value(value, schema, path)`` report nothing (for any path)?"""
        if self._check is None:
            return not vv.validate_value(value, self.schema, None, release=self.release)
        try:
            return self._check(value)
        except RecursionError:
            return False  # the interpreter reports the nesting

    def validate(self, value: Any, path: Path | None) -> list[FieldError]:
        """``validate_value(value, schema, path)``: [] at once for a valid value, else the interpreter's errors."""
        if self.is_valid(value):
            return []
        return vv.validate_value(value, self.schema, path, release=self.release)

    @property
    def has_list_types(self) -> bool:
        """Some node has ``x-kubernetes-list-type`` ``set`` or ``map``."""
        return self._lists is not None or self._lists_whole

    def validate_list_sets_and_maps(self, fld_path: Path, obj: Any) -> list[FieldError]:
        """``validate_list_sets_and_maps(fld_path, schema, obj)``, visiting only fields that can hold such lists."""
        if self._lists_whole:
            return vv.validate_list_sets_and_maps(fld_path, self.schema, obj)
        if self._lists is None or not isinstance(obj, dict):
            return []
        errs: list[FieldError] = []
        try:
            _ls_object(self._lists, obj, (fld_path,), errs)
        except RecursionError:
            return vv.validate_list_sets_and_maps(fld_path, self.schema, obj)
        return errs
