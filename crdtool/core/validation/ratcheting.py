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
from crdtool.core.kubecel.equality import CorrelatedObject, DictSchema
from crdtool.core.kubecel.equality import go_kind as _go_kind
from crdtool.core.releases import Release

# kube-openapi SchemaValidator as value_validation ports it: one node's validation, its error
# record, the de-duplicating merge, Go's kind of a decoded value, and the conversion of a result
# to field errors (kubeOpenAPIResultToFieldErrors).
from crdtool.core.validation.value_validation import (
    NIL_PATH,
    ValueRules,
    _add,
    _to_field_error,
    _validate,
    value_rules,
)

__all__ = ["validate_value_update"]

Schema = dict[str, Any]

# The keys of a node's own checks that kube-openapi runs before it descends into a list's
# items (type, junctors) or a map's properties (type, junctors, enum, property counts) ...
_PRE_KEYS_COMMON = ("type", "nullable", "format", "x-kubernetes-int-or-string", "allOf", "anyOf", "oneOf", "not")
_PRE_KEYS_MAP = (*_PRE_KEYS_COMMON, "enum", "minProperties", "maxProperties")
# ... and after (the list's bounds and enum; the map's required properties).
_POST_KEYS_LIST = ("minItems", "maxItems", "uniqueItems", "enum")
_POST_KEYS_MAP = ("required",)


def validate_value_update(
    new: Any, old: Any, schema: Schema | None, path: Path | None = None, *, release: Release | None = None
) -> list[FieldError]:
    """OpenAPI value validation of an update, with validation ratcheting.

    In: the new and the old object (decoded JSON; the custom resource as the
    update strategy sees them), the version's ``openAPIV3Schema`` dict (None:
    nothing to validate), and the ``fldPath`` of the errors (None for
    upstream's nil path, as the custom resource validator passes it), the
    Kubernetes release (None: the default; ``ratcheting.go`` itself is the
    same in 1.30 - 1.37, the node validation follows the release). Out:
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
    rules = value_rules(release)
    try:
        errs = _Ratchet(rules).validate(CorrelatedObject(new, old, DictSchema(schema)), schema, "")
    except RecursionError:
        return [internal_error(NIL_PATH if path is None else path, "schema or value nests too deeply to validate")]
    return [_to_field_error(path, e).at_release(rules.release) for e in errs or ()]


class _Ratchet:
    """One ``ValidateUpdate`` call: the ratcheting validators of every correlated node, with per-schema caches."""

    def __init__(self, rules: ValueRules) -> None:
        self._rules = rules
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
            return _validate(schema, name, value, self._rules)[0]
        return self.validate(corr, schema, name)

    def _schema_validate(self, corr: CorrelatedObject, schema: Schema, name: str) -> Any:
        """kube-openapi ``SchemaValidator.Validate`` with the ratcheting child validators."""
        data = corr.new
        r = self._rules
        kind = _go_kind(data) if data is not None else "nil"
        if kind == "slice":
            errs = _validate(self._part(schema, "pre-list", _PRE_KEYS_COMMON), name, data, r)[0]
            items = schema.get("items")
            if isinstance(items, dict):
                for i, v in enumerate(data):
                    errs = _add(errs, self._child(corr.index(i), items, f"{name}[{i}]", v))
            return _add(errs, _validate(self._part(schema, "post-list", _POST_KEYS_LIST), name, data, r)[0])
        if kind == "map":
            errs = _validate(self._part(schema, "pre-map", _PRE_KEYS_MAP), name, data, r)[0]
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
            return _add(errs, _validate(self._part(schema, "post-map", _POST_KEYS_MAP), name, data, r)[0])
        return _validate(schema, name, data, r)[0]
