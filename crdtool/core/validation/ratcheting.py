"""Validation ratcheting of OpenAPI value validation on UPDATE (``CRDValidationRatcheting``).

On an update, the apiserver tolerates a value that fails the schema as long
as it is unchanged: kube-openapi's ``SchemaValidator`` runs as on create, but
every property, map value and list item it descends into through the
object's *structure* (not through ``allOf``/``anyOf``/``oneOf``/``not``) is
validated by a ratcheting validator, whose errors are dropped (turned into
warnings upstream, never returned) when its value is deep-equal to the
*correlated* old value. Correlation follows property names and map keys, and
list items only in ``x-kubernetes-list-type: map`` lists (by their keys);
items of atomic lists and sets are not correlatable, so their errors are
ratcheted only as part of an unchanged enclosing list.

Mirrors:

* ``k8s.io/apiextensions-apiserver/pkg/apiserver/validation/ratcheting.go``:
  ``RatchetingSchemaValidator.ValidateUpdate``, ``ratchetingValueValidator``
  (``Validate``, ``SubPropertyValidator``, ``SubIndexValidator``;
  ``apiVersion`` and ``kind`` at the root are never ratcheted);
* ``k8s.io/apiserver/pkg/cel/common/equality.go``: ``CorrelatedObject``
  (``Key``, ``Index``, ``CachedDeepEqual``) and ``maplist.go`` (``MakeMapList``);
* ``validation.go`` ``ValidateCustomResourceUpdate`` /
  ``kubeOpenAPIResultToFieldErrors``.

The non-ratcheting parts of each node (type, junctors, string, format,
number, enum, object and list bounds, ``required``) are kube-openapi's
``SchemaValidator`` as :mod:`crdtool.core.validation.value_validation` ports it;
this module only re-does its descent into properties, map values and items,
in the same order, so errors come in upstream order.

Pure; nothing is mutated. Values are decoded JSON as the apiserver decodes
it (``int`` for integers, ``float`` for other numbers).
"""

from __future__ import annotations

from typing import Any

from crdtool.core.errors import FieldError, Path, internal_error

# kube-openapi SchemaValidator as value_validation ports it: one node's validation, its error
# record, the de-duplicating merge, Go's kind of a decoded value, and the conversion of a result
# to field errors (kubeOpenAPIResultToFieldErrors).
from crdtool.core.validation.value_validation import NIL_PATH, _add, _go_kind, _to_field_error, _validate

__all__ = ["CorrelatedObject", "validate_value_update"]

Schema = dict[str, Any]

# The keys of a node's own checks that kube-openapi runs before it descends into a list's
# items (type, junctors) or a map's properties (type, junctors, enum, property counts) ...
_PRE_KEYS_COMMON = ("type", "nullable", "format", "x-kubernetes-int-or-string", "allOf", "anyOf", "oneOf", "not")
_PRE_KEYS_MAP = (*_PRE_KEYS_COMMON, "enum", "minProperties", "maxProperties")
# ... and after (the list's bounds and enum; the map's required properties).
_POST_KEYS_LIST = ("minItems", "maxItems", "uniqueItems", "enum")
_POST_KEYS_MAP = ("required",)


class CorrelatedObject:
    """A node of the new object with its correlated old value (upstream ``common.CorrelatedObject``).

    ``value``/``old_value`` are the new and old values at this node; ``schema``
    the node's schema dict (its ``properties``, ``additionalProperties``,
    ``items``, ``x-kubernetes-list-type`` and ``x-kubernetes-list-map-keys``
    decide how children correlate). Children and the deep-equality result
    are cached, as upstream caches them during one validation.
    """

    __slots__ = ("value", "old_value", "schema", "_equal", "_children", "_map_list")

    def __init__(self, value: Any, old_value: Any, schema: Schema | None) -> None:
        self.value = value
        self.old_value = old_value
        self.schema = schema
        self._equal: bool | None = None
        self._children: dict[Any, CorrelatedObject | None] = {}
        self._map_list: _MapList | None = None

    def key(self, field: str) -> CorrelatedObject | None:
        """Upstream ``Key``: the child for ``field``, or None when it cannot be correlated.

        None when the field is missing from the new or the old map, or when
        the schema has neither a property nor an ``additionalProperties``
        schema for it.
        """
        if self.schema is None:
            return None
        if field in self._children:
            return self._children[field]
        if not isinstance(self.old_value, dict) or not isinstance(self.value, dict):
            return None
        if field not in self.old_value or field not in self.value:
            return None
        props = self.schema.get("properties")
        additional = self.schema.get("additionalProperties")
        if isinstance(props, dict) and isinstance(props.get(field), dict):
            sub: Schema = props[field]
        elif isinstance(additional, dict):
            sub = additional
        else:
            return None
        child = CorrelatedObject(self.value[field], self.old_value[field], sub)
        self._children[field] = child
        return child

    def index(self, i: int) -> CorrelatedObject | None:
        """Upstream ``Index``: the child at ``i``; only items of ``x-kubernetes-list-type: map`` lists correlate."""
        if self.schema is None:
            return None
        if i in self._children:
            return self._children[i]
        if not isinstance(self.value, list) or len(self.value) <= i:
            return None
        old = self._correlate_old_item(i)
        if old is None:
            return None
        items = self.schema.get("items")
        if not isinstance(items, dict):
            return None
        child = CorrelatedObject(self.value[i], old, items)
        self._children[i] = child
        return child

    def _correlate_old_item(self, i: int) -> Any:
        """Upstream ``correlateOldValueForChildAtNewIndex``."""
        if not isinstance(self.old_value, list) or not isinstance(self.value, list) or len(self.value) <= i:
            return None
        assert self.schema is not None
        if self.schema.get("x-kubernetes-list-type") != "map":
            return None  # atomic lists and sets are not correlatable by item
        if self._map_list is None:
            self._map_list = _MapList(self.schema, self.old_value)
        return self._map_list.get(self.value[i])

    def cached_deep_equal(self) -> bool:
        """Upstream ``CachedDeepEqual``: is the new value equal to the correlated old one?

        Maps compare key by key through :meth:`key` (so a key the schema does
        not describe makes them unequal, as upstream), map-type lists item by
        item through :meth:`index`, other lists and scalars as Go's
        ``reflect.DeepEqual`` (an int64 never equals a float64).
        """
        if self._equal is None:
            self._equal = self._deep_equal()
        return self._equal

    def _deep_equal(self) -> bool:
        new, old = self.value, self.old_value
        if new is None and old is None:
            return True
        if new is None or old is None:
            return False
        if isinstance(new, list) != isinstance(old, list) or isinstance(new, dict) != isinstance(old, dict):
            return False
        if isinstance(new, list):
            if len(new) != len(old):
                return False
            for i in range(len(new)):
                child = self.index(i)
                if child is None:
                    if self._map_list is None:
                        return go_deep_equal(old, new)
                    return False
                if not child.cached_deep_equal():
                    return False
            return True
        if isinstance(new, dict):
            if len(new) != len(old):
                return False
            for k in new:
                child = self.key(k)
                if child is None or not child.cached_deep_equal():
                    return False
            return True
        return go_deep_equal(old, new)


def go_deep_equal(a: Any, b: Any) -> bool:
    """Go ``reflect.DeepEqual`` of two decoded JSON values.

    Values compare with their Go types: an int64 never equals a float64 (an
    integer beyond int64 is a float64, as the apiserver decodes it), a bool
    never equals a number.
    """
    stack = [(a, b)]
    while stack:
        x, y = stack.pop()
        kind = _go_kind(x)
        if kind != _go_kind(y):
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


class _MapList:
    """Upstream ``MakeMapList``: lookup of old items of a list-type map by their key values."""

    __slots__ = ("keys", "keyed", "unkeyed")

    def __init__(self, schema: Schema, items: list[Any]) -> None:
        keys = schema.get("x-kubernetes-list-map-keys")
        self.keys = [k for k in keys if isinstance(k, str)] if isinstance(keys, list) else []
        if schema.get("type") != "array" or not self.keys or not items:
            self.keys = []
        self.keyed: dict[Any, Any] = {}
        self.unkeyed = list(items)

    def _composite_key(self, obj: Any) -> Any:
        """``singleKeyStrategy`` / ``multiKeyStrategy.CompositeKeyFor``; None when the item has no key."""
        if not isinstance(obj, dict):
            return None
        parts: list[Any] = []
        for key in self.keys:
            if key not in obj:
                return None
            v = obj[key]
            kind = _go_kind(v)
            if kind not in ("bool", "int", "float", "string"):
                return None  # values must be scalars
            # Go compares the typed value: 1 (int64) != 1.0 (float64)
            parts.append((kind, float(v) if kind == "float" else v))
        return tuple(parts)

    def get(self, obj: Any) -> Any:
        """Upstream ``mapListImpl.Get``: the first old item with ``obj``'s keys, or None."""
        if not self.keys:
            return None
        key = self._composite_key(obj)
        if key is None:
            return None
        if key in self.keyed:
            return self.keyed[key]
        while self.unkeyed:
            item = self.unkeyed.pop(0)
            item_key = self._composite_key(item)
            if item_key is None:
                continue
            self.keyed.setdefault(item_key, item)
            if item_key == key:
                return item
        return None


def validate_value_update(new: Any, old: Any, schema: Schema | None, path: Path | None = None) -> list[FieldError]:
    """OpenAPI value validation of an update, with validation ratcheting.

    In: the new and the old object (decoded JSON; the custom resource as the
    update strategy sees them), the version's ``openAPIV3Schema`` dict (None:
    nothing to validate), and the ``fldPath`` of the errors (None for
    upstream's nil path, as the custom resource validator passes it). Out:
    the field errors of :func:`crdtool.core.validation.value_validation.validate_value`
    on ``new``, minus those of every correlated value that equals its old
    value, in upstream order. Never raises: a schema or value nested beyond
    Python's recursion limit yields one ``InternalError``.

    Mirrors ``ValidateCustomResourceUpdate(fldPath, new, old, validator,
    WithRatcheting(NewCorrelatedObject(new, old, schema)))`` with the
    ``RatchetingSchemaValidator`` of ``ratcheting.go``.
    """
    if not isinstance(schema, dict):
        return []
    try:
        errs = _Ratchet().validate(CorrelatedObject(new, old, schema), schema, "")
    except RecursionError:
        return [internal_error(NIL_PATH if path is None else path, "schema or value nests too deeply to validate")]
    return [_to_field_error(path, e) for e in errs or ()]


class _Ratchet:
    """One ``ValidateUpdate`` call: the ratcheting validators of every correlated node, with per-schema caches."""

    def __init__(self) -> None:
        self._parts: dict[tuple[int, str], dict[str, Any]] = {}

    def _part(self, schema: Schema, which: str, keys: tuple[str, ...]) -> dict[str, Any]:
        cached = self._parts.get((id(schema), which))
        if cached is None:
            cached = {k: schema[k] for k in keys if k in schema}
            if which == "pre-map" and schema.get("additionalProperties") is False:
                # additionalProperties: false (no properties beside it in a CRD): every key is forbidden
                cached["additionalProperties"] = False
            self._parts[(id(schema), which)] = cached
        return cached

    def validate(self, corr: CorrelatedObject, schema: Schema, name: str) -> Any:
        """``ratchetingValueValidator.Validate``: the node's errors, or none when it equals its old value."""
        errs = self._schema_validate(corr, schema, name)
        if errs and corr.cached_deep_equal():
            return None
        return errs

    def _child(self, corr: CorrelatedObject | None, schema: Schema, name: str, value: Any) -> Any:
        """``SubPropertyValidator`` / ``SubIndexValidator``: ratcheting where correlated, else plain kube-openapi."""
        if corr is None:
            return _validate(schema, name, value)[0]
        return self.validate(corr, schema, name)

    def _schema_validate(self, corr: CorrelatedObject, schema: Schema, name: str) -> Any:
        """kube-openapi ``SchemaValidator.Validate`` with the ratcheting child validators."""
        data = corr.value
        kind = _go_kind(data) if data is not None else "nil"
        if kind == "slice":
            errs = _validate(self._part(schema, "pre-list", _PRE_KEYS_COMMON), name, data)[0]
            items = schema.get("items")
            if isinstance(items, dict):
                for i, v in enumerate(data):
                    errs = _add(errs, self._child(corr.index(i), items, f"{name}[{i}]", v))
            return _add(errs, _validate(self._part(schema, "post-list", _POST_KEYS_LIST), name, data)[0])
        if kind == "map":
            errs = _validate(self._part(schema, "pre-map", _PRE_KEYS_MAP), name, data)[0]
            props = schema.get("properties")
            props = props if isinstance(props, dict) else {}
            additional = schema.get("additionalProperties")
            if isinstance(additional, dict):
                for k, v in data.items():
                    if k not in props:
                        errs = _add(errs, self._child(corr.key(k), additional, f"{name}.{k}", v))
            for p_name, p_schema in props.items():
                if p_name in data and isinstance(p_schema, dict):
                    child_name = f"{name}.{p_name}" if name else p_name
                    # apiVersion and kind of the object itself are never ratcheted
                    child = None if name == "" and p_name in ("apiVersion", "kind") else corr.key(p_name)
                    errs = _add(errs, self._child(child, p_schema, child_name, data[p_name]))
            return _add(errs, _validate(self._part(schema, "post-map", _POST_KEYS_MAP), name, data)[0])
        return _validate(schema, name, data)[0]
