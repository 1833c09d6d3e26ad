"""Correlating an updated object with its old version: ``k8s.io/apiserver/pkg/cel/common`` ``equality.go`` and ``maplist.go``.

Validation ratcheting, of OpenAPI value validation
(:mod:`crdtool.core.validation.ratcheting`) and of CEL rules
(:mod:`crdtool.core.crdcel.validation`) alike, asks of every node of the new
object whether it is unchanged from its *correlated* old value.
:class:`CorrelatedObject` answers, caching its children and its equality as
upstream does: properties and map values correlate by name, list items only in
``x-kubernetes-list-type: map`` lists, by their keys (:func:`make_map_list`);
items of atomic lists and sets never correlate.

Upstream's ``CorrelatedObject`` takes a ``common.Schema`` (an interface with
one implementation over the structural schema and one over kube-openapi's
``spec.Schema``); here a schema is a
:class:`~crdtool.core.schema.structural.Structural` or a schema dict wrapped in
:class:`DictSchema`, which offer the same attributes.

Pure; nothing is mutated. Values are decoded JSON as the apiserver decodes it.
"""

from __future__ import annotations

from typing import Any, Mapping

from crdtool.core.errors import go_quote

__all__ = ["CorrelatedObject", "DictSchema", "deep_equal", "go_kind", "make_map_list"]

_INT64_MIN, _INT64_MAX = -(1 << 63), (1 << 63) - 1


def go_kind(v: Any) -> str:
    """The Go dynamic type of a decoded JSON value: ``nil``, ``bool``, ``int`` (int64), ``float`` (float64),
    ``string``, ``map`` or ``slice`` (an integer beyond int64 is a float64, as the apiserver decodes it); ``other``
    for anything else."""
    if v is None:
        return "nil"
    t = type(v)
    if t is bool:
        return "bool"
    if t is int:
        return "int" if _INT64_MIN <= v <= _INT64_MAX else "float"
    if t is float:
        return "float"
    if t is str:
        return "string"
    if isinstance(v, dict):
        return "map"
    if isinstance(v, (list, tuple)):
        return "slice"
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, int):
        return "int"
    if isinstance(v, float):
        return "float"
    if isinstance(v, str):
        return "string"
    return "other"


def deep_equal(a: Any, b: Any) -> bool:
    """Go ``reflect.DeepEqual`` (``equality.Semantic.DeepEqual``) of two decoded JSON values.

    Values compare with their Go types: an int64 never equals a float64, a bool
    never equals a number. Iterative: any depth.
    """
    stack = [(a, b)]
    while stack:
        x, y = stack.pop()
        kind = go_kind(x)
        if kind != go_kind(y):
            return False
        if kind == "map":
            if x.keys() != y.keys():
                return False
            stack.extend((x[k], y[k]) for k in x)
        elif kind == "slice":
            if len(x) != len(y):
                return False
            stack.extend(zip(x, y))
        elif kind == "float":
            if float(x) != float(y):
                return False
        elif x != y:
            return False
    return True


# --- maplist.go ------------------------------------------------------------------------------------------------


def _single_key(v: Any) -> Any:
    """``singleKeyStrategy``: the value itself, typed (Go map keys compare type and value)."""
    kind = go_kind(v)
    if kind in ("bool", "int", "float", "string"):
        return (kind, float(v) if kind == "float" else v)
    return None  # non-scalar


def _multi_key_part(v: Any) -> str | None:
    """One part of ``multiKeyStrategy``'s key: ``"\\x00"`` and ``%t``/``%f``/``%d``/``%q`` of the value.

    ``%f`` keeps six decimals, so two float keys that differ only beyond them
    collide, as upstream.
    """
    kind = go_kind(v)
    if kind == "bool":
        return "\x00" + ("true" if v else "false")
    if kind == "float":
        return "\x00" + f"{float(v):.6f}"
    if kind == "int":
        return "\x00" + str(v)
    if kind == "string":
        return "\x00" + go_quote(v)
    return None  # values must be scalars


class _MapList:
    """``mapListImpl``: old list items by their list-map keys, keyed lazily (the first item of a key wins)."""

    __slots__ = ("keys", "keyed", "unkeyed")

    def __init__(self, keys: tuple[str, ...], items: list[Any]) -> None:
        self.keys = keys
        self.keyed: dict[Any, Any] = {}
        self.unkeyed = list(items)

    def composite_key(self, obj: dict[str, Any]) -> Any:
        if len(self.keys) == 1:
            k = self.keys[0]
            if k not in obj:
                return None
            return _single_key(obj[k])
        parts = []
        for k in self.keys:
            if k not in obj:
                return None
            p = _multi_key_part(obj[k])
            if p is None:
                return None
            parts.append(p)
        return "".join(parts)

    def get(self, obj: Any) -> Any:
        """``Get``: the first old item with ``obj``'s keys, or None."""
        if type(obj) is not dict:
            return None
        key = self.composite_key(obj)
        if key is None:
            return None
        if key in self.keyed:
            return self.keyed[key]
        while self.unkeyed:
            item = self.unkeyed.pop(0)
            if type(item) is not dict:
                continue
            ik = self.composite_key(item)
            if ik is None:
                continue
            if ik not in self.keyed:
                self.keyed[ik] = item
            if ik == key:
                return item
        return None


class _EmptyMapList:
    def get(self, obj: Any) -> Any:
        return None


def make_map_list(sts: Any, items: Any) -> Any:
    """``MakeMapList``: a lookup of ``items`` (the old list) by the list-map keys of ``sts``'s schema.

    ``sts``: a :class:`~crdtool.core.schema.structural.Structural` or :class:`DictSchema`
    of the list. Out: an object whose ``get(new_item)`` is the correlated old item or None.
    """
    keys = sts.extensions.x_list_map_keys
    if sts.type != "array" or sts.extensions.x_list_type != "map" or not keys or not isinstance(items, list) or not items:
        return _EmptyMapList()
    return _MapList(tuple(keys), items)


# --- schemas over dicts ---------------------------------------------------------------------------------------


class _DictExtensions:
    __slots__ = ("x_list_type", "x_list_map_keys")

    def __init__(self, schema: Mapping[str, Any]) -> None:
        list_type = schema.get("x-kubernetes-list-type")
        self.x_list_type = list_type if isinstance(list_type, str) else None
        keys = schema.get("x-kubernetes-list-map-keys")
        self.x_list_map_keys = [k for k in keys if isinstance(k, str)] if isinstance(keys, list) else []


class DictSchema:
    """A schema dict seen through the attributes :class:`CorrelatedObject` reads (``openapi.Schema``'s role).

    ``raw`` is the dict itself; children are wrapped (and cached) on access.
    """

    __slots__ = ("raw", "type", "extensions", "_props", "_additional", "_items")

    def __init__(self, schema: Mapping[str, Any]) -> None:
        self.raw = schema
        t = schema.get("type")
        self.type = t if isinstance(t, str) else ""
        self.extensions = _DictExtensions(schema)
        self._props: dict[str, DictSchema] | None = None
        self._additional: DictSchema | None | bool = False
        self._items: DictSchema | None | bool = False

    @property
    def properties(self) -> dict[str, DictSchema]:
        if self._props is None:
            props = self.raw.get("properties")
            self._props = (
                {k: DictSchema(v) for k, v in props.items() if isinstance(v, dict)} if isinstance(props, dict) else {}
            )
        return self._props

    @property
    def additional_properties_schema(self) -> DictSchema | None:
        if self._additional is False:
            additional = self.raw.get("additionalProperties")
            self._additional = DictSchema(additional) if isinstance(additional, dict) else None
        return self._additional  # type: ignore[return-value]

    @property
    def items(self) -> DictSchema | None:
        if self._items is False:
            items = self.raw.get("items")
            self._items = DictSchema(items) if isinstance(items, dict) else None
        return self._items  # type: ignore[return-value]


# --- equality.go ----------------------------------------------------------------------------------------------


class CorrelatedObject:
    """``common.CorrelatedObject``: a node of the new object, its correlated old value and its schema.

    ``new``/``old``: the values at this node; ``schema``: a
    :class:`~crdtool.core.schema.structural.Structural` or :class:`DictSchema` (None: nothing
    correlates below). Children and the equality result are cached, as upstream
    caches them during one validation.
    """

    __slots__ = ("old", "new", "schema", "result", "map_list", "children")

    def __init__(self, new: Any, old: Any, schema: Any) -> None:
        self.old = old
        self.new = new
        self.schema = schema
        self.result: bool | None = None
        self.map_list: Any = None
        self.children: dict[Any, CorrelatedObject] = {}

    def cached_deep_equal(self) -> bool:
        """``CachedDeepEqual``: is the new value equal to the correlated old one?

        Maps compare key by key through :meth:`key` (so a key the schema does
        not describe makes them unequal, as upstream), map-type lists item by
        item through :meth:`index`, other lists and scalars as Go's
        ``reflect.DeepEqual``.
        """
        if self.result is not None:
            return self.result
        self.result = self._deep_equal()
        return self.result

    def _deep_equal(self) -> bool:
        new, old = self.new, self.old
        if new is None and old is None:
            return True
        if new is None or old is None:
            return False
        old_list, new_list = type(old) is list, type(new) is list
        old_map, new_map = type(old) is dict, type(new) is dict
        if old_list != new_list or old_map != new_map:
            return False
        if old_list:
            if len(old) != len(new):
                return False
            for i in range(len(new)):
                child = self.index(i)
                if child is None:
                    if self.map_list is None:
                        return deep_equal(old, new)
                    return False
                if not child.cached_deep_equal():
                    return False
            return True
        if old_map:
            if len(old) != len(new):
                return False
            for k in new:
                child = self.key(k)
                if child is None or not child.cached_deep_equal():
                    return False
            return True
        return deep_equal(old, new)

    def key(self, fld: str) -> CorrelatedObject | None:
        """``Key``: the child for ``fld``; None when it is missing from the new or the old map, or the schema
        has neither a property nor an ``additionalProperties`` schema for it."""
        if self.schema is None:
            return None
        hit = self.children.get(fld)
        if hit is not None:
            return hit
        if type(self.old) is not dict or type(self.new) is not dict:
            return None
        if fld not in self.old or fld not in self.new:
            return None
        prop = self.schema.properties.get(fld)
        if prop is None:
            prop = self.schema.additional_properties_schema
            if prop is None:
                return None
        res = CorrelatedObject(self.new[fld], self.old[fld], prop)
        self.children[fld] = res
        return res

    def index(self, i: int) -> CorrelatedObject | None:
        """``Index``: the child at ``i``; only items of ``x-kubernetes-list-type: map`` lists correlate."""
        if self.schema is None:
            return None
        hit = self.children.get(i)
        if hit is not None:
            return hit
        if type(self.new) is not list or len(self.new) <= i:
            return None
        old = self._correlate_old_at(i)
        if old is None:
            return None
        items = self.schema.items
        if items is None:
            return None
        res = CorrelatedObject(self.new[i], old, items)
        self.children[i] = res
        return res

    def _correlate_old_at(self, i: int) -> Any:
        """``correlateOldValueForChildAtNewIndex``: atomic lists and sets are not correlatable by item."""
        if type(self.old) is not list or type(self.new) is not list or len(self.new) <= i:
            return None
        assert self.schema is not None
        if self.schema.extensions.x_list_type == "map":
            if self.map_list is None:
                self.map_list = make_map_list(self.schema, self.old)
            return self.map_list.get(self.new[i])
        return None
