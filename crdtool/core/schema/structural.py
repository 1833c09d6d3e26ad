"""Structural schemas: the model, its construction and its validation.

Mirrors three files of apiextensions-apiserver ``pkg/apiserver/schema``:

* ``structural.go``: the types :class:`Structural`, :class:`Generic`,
  :class:`Extensions`, :class:`ValueValidation` and
  :class:`NestedValueValidation`;
* ``convert.go``: :func:`new_structural` (upstream ``NewStructural``);
* ``validation.go`` + ``complete.go``: :func:`validate_structural` (upstream
  ``ValidateStructural``, i.e. ``ValidateStructuralWithOptions`` with every
  ``Allow*`` option false, which is what CRD validation uses).

Differences in shape from the Go types, chosen for Python:

* ``x_validations`` lives in :class:`Extensions` (upstream has a separate
  ``ValidationExtensions`` struct embedded next to ``Extensions``); in a
  :class:`NestedValueValidation` the rules of a junctor are in
  ``forbidden_extensions.x_validations``.
* ``additional_properties`` is ``Structural | bool | None``: a schema (which
  upstream stores as ``StructuralOrBool{Structural: s, Bool: true}``), a bare
  boolean, or absent.
* ``properties`` is always a dict (empty when upstream's map is nil; upstream
  never builds an empty map in ``NewStructural``).
* The classes are slotted dataclasses that must be treated as immutable.
  They are not ``frozen`` because frozen dataclasses cost about five times
  as much to construct, and a large CRD has tens of thousands of nodes;
  nodes without extensions or value validations share one empty instance.

Every walk here is iterative, so schemas nested thousands of levels deep
cannot raise ``RecursionError``: upstream Go recursion has no practical depth
limit (the apiserver's JSON decoder stops at 10000 nesting levels), so a depth
guard would reject schemas upstream accepts.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Iterator, Mapping, Union

from crdtool.core.errors import FieldError, Path, forbidden, invalid, required
from crdtool.core.gostd import go_regexp_error
from crdtool.core.releases import DEFAULT_RELEASE, Release

__all__ = [
    "Extensions",
    "Generic",
    "NestedValueValidation",
    "Structural",
    "StructuralError",
    "ValueValidation",
    "new_structural",
    "validate_structural",
]

Schema = Mapping[str, Any]


class StructuralError(ValueError):
    """A schema that upstream ``NewStructural`` refuses; ``str()`` is upstream's error text."""


# --- the model (structural.go) ---------------------------------------------


@dataclass(slots=True)
class Generic:
    """Upstream ``Generic``: generic schema fields not allowed in value validation.

    ``default`` is the JSON default value, ``None`` when absent (upstream's
    ``JSON{Object: nil}``; a JSON ``null`` default is the same as none).
    ``external_docs`` and ``example`` (``None`` when absent) are upstream's from 1.36 only
    (``structural.go@v0.36.0``); the checks that compare whole nodes ignore them before
    (:func:`validate_structural`'s ``release``).
    """

    description: str = ""
    type: str = ""
    title: str = ""
    default: Any = None
    nullable: bool = False
    external_docs: Any = None
    example: Any = None


@dataclass(slots=True)
class Extensions:
    """Upstream ``Extensions`` plus ``ValidationExtensions.XValidations``.

    ``x_list_type``/``x_map_type`` are ``None`` when unset (Go ``*string``);
    ``x_validations`` holds the rule dicts as given
    (``{rule, message, messageExpression, reason, fieldPath, optionalOldSelf}``).
    """

    x_preserve_unknown_fields: bool = False
    x_embedded_resource: bool = False
    x_int_or_string: bool = False
    x_list_map_keys: tuple[str, ...] = ()
    x_list_type: str | None = None
    x_map_type: str | None = None
    x_validations: tuple[Mapping[str, Any], ...] = ()


@dataclass(slots=True)
class ValueValidation:
    """Upstream ``ValueValidation``: schema fields that do not contribute to the structure.

    Numbers keep their JSON type (int or float); ``enum`` is ``None`` when
    absent or empty (upstream appends into a nil slice).
    """

    format: str = ""
    maximum: int | float | None = None
    exclusive_maximum: bool = False
    minimum: int | float | None = None
    exclusive_minimum: bool = False
    max_length: int | None = None
    min_length: int | None = None
    pattern: str = ""
    max_items: int | None = None
    min_items: int | None = None
    unique_items: bool = False
    multiple_of: int | float | None = None
    enum: tuple[Any, ...] | None = None
    max_properties: int | None = None
    min_properties: int | None = None
    required: tuple[str, ...] = ()
    all_of: tuple[NestedValueValidation, ...] = ()
    one_of: tuple[NestedValueValidation, ...] = ()
    any_of: tuple[NestedValueValidation, ...] = ()
    not_: NestedValueValidation | None = None


@dataclass(slots=True)
class NestedValueValidation:
    """Upstream ``NestedValueValidation``: a schema under ``allOf``/``anyOf``/``oneOf``/``not``.

    ``forbidden_generics`` and ``forbidden_extensions`` catch everything that
    makes a schema non-structural when used under a junctor.
    ``additional_properties`` is an empty validation for ``additionalProperties: true`` and the nested
    validation of a schema (``convert.go@v0.31.0`` ``newNestedValueValidation``); a bare ``false`` leaves
    it ``None`` and sets ``additional_properties_false`` (1.30 kept it, as
    ``ForbiddenGenerics.AdditionalProperties``, and so rejected it).
    """

    value_validation: ValueValidation = field(default_factory=ValueValidation)
    items: NestedValueValidation | None = None
    properties: dict[str, NestedValueValidation] = field(default_factory=dict)
    additional_properties: NestedValueValidation | None = None
    forbidden_generics: Generic = field(default_factory=Generic)
    forbidden_extensions: Extensions = field(default_factory=Extensions)
    additional_properties_false: bool = False


@dataclass(slots=True)
class Structural:
    """Upstream ``Structural``: a structural schema node.

    ``value_validation`` is never ``None`` for a node built by
    :func:`new_structural` (upstream always allocates it).
    """

    generic: Generic = field(default_factory=Generic)
    extensions: Extensions = field(default_factory=Extensions)
    value_validation: ValueValidation | None = None
    items: Structural | None = None
    properties: dict[str, Structural] = field(default_factory=dict)
    additional_properties: Union[Structural, bool, None] = None

    @property
    def type(self) -> str:
        """``generic.type`` (upstream's promoted ``s.Type``)."""
        return self.generic.type

    @property
    def nullable(self) -> bool:
        """``generic.nullable``."""
        return self.generic.nullable

    @property
    def default(self) -> Any:
        """``generic.default`` (``None`` when absent)."""
        return self.generic.default

    @property
    def additional_properties_schema(self) -> Structural | None:
        """The ``additionalProperties`` schema, if it is one (upstream ``AdditionalProperties.Structural``)."""
        ap = self.additional_properties
        return ap if isinstance(ap, Structural) else None

    def to_schema(self) -> dict[str, Any]:
        """This node back as a JSONSchemaProps dict (upstream ``Structural.ToKubeOpenAPI``).

        Used to hand a structural (sub)schema to dict-based consumers such as
        pruning and value validation. Builds new dicts; JSON values (defaults,
        enums) are shared with the model.
        """
        return _to_schema(self)

    def walk(self) -> Iterator[Structural]:
        """Yield this node and every node below it (items, properties, additionalProperties), iteratively."""
        stack: list[Structural] = [self]
        while stack:
            cur = stack.pop()
            yield cur
            ap = cur.additional_properties
            if isinstance(ap, Structural):
                stack.append(ap)
            stack.extend(cur.properties.values())
            if cur.items is not None:
                stack.append(cur.items)


# --- ToKubeOpenAPI (kubeopenapi.go) -------------------------------------------


def _generic_to(g: Generic, out: dict[str, Any]) -> None:
    if g.description:
        out["description"] = g.description
    if g.type:
        out["type"] = g.type
    if g.title:
        out["title"] = g.title
    if g.default is not None:
        out["default"] = g.default
    if g.nullable:
        out["nullable"] = True


def _extensions_to(x: Extensions, out: dict[str, Any]) -> None:
    if x.x_preserve_unknown_fields:
        out["x-kubernetes-preserve-unknown-fields"] = True
    if x.x_embedded_resource:
        out["x-kubernetes-embedded-resource"] = True
    if x.x_int_or_string:
        out["x-kubernetes-int-or-string"] = True
    if x.x_list_map_keys:
        out["x-kubernetes-list-map-keys"] = list(x.x_list_map_keys)
    if x.x_list_type is not None:
        out["x-kubernetes-list-type"] = x.x_list_type
    if x.x_map_type is not None:
        out["x-kubernetes-map-type"] = x.x_map_type
    if x.x_validations:
        out["x-kubernetes-validations"] = [dict(r) for r in x.x_validations]


_VV_KEYS = (
    ("format", "format"), ("maximum", "maximum"), ("exclusive_maximum", "exclusiveMaximum"),
    ("minimum", "minimum"), ("exclusive_minimum", "exclusiveMinimum"), ("max_length", "maxLength"),
    ("min_length", "minLength"), ("pattern", "pattern"), ("max_items", "maxItems"), ("min_items", "minItems"),
    ("unique_items", "uniqueItems"), ("multiple_of", "multipleOf"), ("max_properties", "maxProperties"),
    ("min_properties", "minProperties"),
)


def _value_validation_to(v: ValueValidation | None, out: dict[str, Any], todo: list[tuple[Any, dict[str, Any]]]) -> None:
    if v is None:
        return
    for attr, key in _VV_KEYS:
        val = getattr(v, attr)
        if val is not None and val != "" and val is not False:
            out[key] = val
    if v.enum:
        out["enum"] = list(v.enum)
    if v.required:
        out["required"] = list(v.required)
    for attr, key in (("all_of", "allOf"), ("one_of", "oneOf"), ("any_of", "anyOf")):
        subs = getattr(v, attr)
        if subs:
            out[key] = [_pending(x, todo) for x in subs]
    if v.not_ is not None:
        out["not"] = _pending(v.not_, todo)


def _pending(node: Any, todo: list[tuple[Any, dict[str, Any]]]) -> dict[str, Any]:
    d: dict[str, Any] = {}
    todo.append((node, d))
    return d


def _to_schema(root: Structural | NestedValueValidation) -> dict[str, Any]:
    """Iterative ``ToKubeOpenAPI`` of a structural or nested node."""
    todo: list[tuple[Any, dict[str, Any]]] = []
    result = _pending(root, todo)
    while todo:
        node, out = todo.pop()
        if isinstance(node, Structural):
            _generic_to(node.generic, out)
            _extensions_to(node.extensions, out)
            vv = node.value_validation
        else:
            _generic_to(node.forbidden_generics, out)
            _extensions_to(node.forbidden_extensions, out)
            vv = node.value_validation
        _value_validation_to(vv, out, todo)
        if node.items is not None:
            out["items"] = _pending(node.items, todo)
        if node.properties:
            out["properties"] = {k: _pending(x, todo) for k, x in node.properties.items()}
        ap = node.additional_properties
        if isinstance(ap, (Structural, NestedValueValidation)):
            out["additionalProperties"] = _pending(ap, todo)
        elif isinstance(ap, bool):
            out["additionalProperties"] = ap
    return result


# --- NewStructural (convert.go) ----------------------------------------------

# Upstream field checks of validateUnsupportedFields, in upstream order: key,
# "is set" predicate (Go zero-value semantics of the internal type), message.
_UNSUPPORTED: tuple[tuple[str, str], ...] = (
    ("id", "OpenAPIV3Schema 'id' is not supported"),
    ("$schema", "OpenAPIV3Schema 'schema' is not supported"),
    ("$ref", "OpenAPIV3Schema '$ref' is not supported"),
    ("patternProperties", "OpenAPIV3Schema 'patternProperties' is not supported"),
    ("dependencies", "OpenAPIV3Schema 'dependencies' is not supported"),
    ("additionalItems", "OpenAPIV3Schema 'additionalItems' is not supported"),
    ("definitions", "OpenAPIV3Schema 'definitions' is not supported"),
)
_ITEMS_ARRAY = "OpenAPIV3Schema 'items' must be a schema, but is an array"
_PRESERVE_FALSE = "internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined"


def _unsupported_error(s: Schema) -> str | None:
    """Upstream ``validateUnsupportedFields``: the first unsupported field set, or None."""
    for key, msg in _UNSUPPORTED:
        v = s.get(key)
        if key == "additionalItems":
            if v is not None:
                return msg
        elif v:  # len(...) > 0 for strings, maps; non-empty *string for $ref
            return msg
    return None


def _items_array(s: Schema) -> bool:
    items = s.get("items")
    return isinstance(items, list) and len(items) > 0


def _items_schema(s: Schema) -> Schema | None:
    items = s.get("items")
    return items if isinstance(items, dict) else None


def _dict_of_schemas(v: Any) -> dict[str, Schema]:
    return {k: x for k, x in v.items() if isinstance(x, dict)} if isinstance(v, dict) else {}


def _list_of_schemas(v: Any) -> list[Schema]:
    return [x for x in v if isinstance(x, dict)] if isinstance(v, list) else []


def _check_convertible(root: Schema) -> None:
    """Raise the first error upstream ``NewStructural`` would return, in upstream order.

    Pre-order walk with an explicit task stack; ``("n", schema, nested)``
    converts a node, ``("x", schema)`` checks its extensions, ``("i", schema,
    nested)`` checks and converts its items.
    """
    tasks: list[tuple[Any, ...]] = [("n", root, False)]
    seen: set[int] = set()  # shared (YAML-aliased) sub-schemas are checked once
    while tasks:
        task = tasks.pop()
        kind = task[0]
        s: Schema = task[1]
        if kind == "n":
            if id(s) in seen:
                continue
            seen.add(id(s))
        if kind == "x":
            if s.get("x-kubernetes-preserve-unknown-fields") is False:
                raise StructuralError(_PRESERVE_FALSE)
            continue
        if kind == "i":
            if _items_array(s):
                raise StructuralError(_ITEMS_ARRAY)
            item = _items_schema(s)
            if item is not None:
                tasks.append(("n", item, task[2]))
            continue
        err = _unsupported_error(s)
        if err:
            raise StructuralError(err)
        nested: bool = task[2]
        # Pushed in reverse so they pop in upstream order.
        later: list[tuple[Any, ...]] = []
        if isinstance(s.get("not"), dict):
            later.append(("n", s["not"], True))
        for key in ("allOf", "anyOf", "oneOf"):
            later.extend(("n", x, True) for x in _list_of_schemas(s.get(key)))
        later.append(("x", s))
        ap = s.get("additionalProperties")
        if not nested and isinstance(ap, dict):
            later.append(("n", ap, False))
        later.append(("i", s, nested))
        later.extend(("n", x, nested) for x in _dict_of_schemas(s.get("properties")).values())
        if nested and isinstance(ap, dict):
            later.append(("n", ap, True))
        tasks.extend(reversed(later))


def _generic(s: Schema) -> Generic:
    return Generic(
        description=s.get("description") or "",
        type=s.get("type") or "",
        title=s.get("title") or "",
        default=s.get("default"),
        nullable=bool(s.get("nullable")),
        external_docs=s.get("externalDocs"),
        example=s.get("example"),
    )


_EXTENSION_KEYS = frozenset(
    {"x-kubernetes-preserve-unknown-fields", "x-kubernetes-embedded-resource", "x-kubernetes-int-or-string",
     "x-kubernetes-list-map-keys", "x-kubernetes-list-type", "x-kubernetes-map-type", "x-kubernetes-validations"}
)
_VALUE_VALIDATION_KEYS = frozenset(
    {"format", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum", "maxLength", "minLength", "pattern",
     "maxItems", "minItems", "uniqueItems", "multipleOf", "enum", "maxProperties", "minProperties", "required",
     "allOf", "oneOf", "anyOf", "not"}
)
# Most nodes have no extensions and no value validations: share the empty
# (immutable) instances, which also keeps construction cheap.
_NO_EXTENSIONS = Extensions()
_NO_VALUE_VALIDATION = ValueValidation()


def _extensions(s: Schema) -> Extensions:
    if _EXTENSION_KEYS.isdisjoint(s):
        return _NO_EXTENSIONS
    return Extensions(
        x_preserve_unknown_fields=s.get("x-kubernetes-preserve-unknown-fields") is True,
        x_embedded_resource=bool(s.get("x-kubernetes-embedded-resource")),
        x_int_or_string=bool(s.get("x-kubernetes-int-or-string")),
        x_list_map_keys=tuple(s.get("x-kubernetes-list-map-keys") or ()),
        x_list_type=s.get("x-kubernetes-list-type"),
        x_map_type=s.get("x-kubernetes-map-type"),
        x_validations=tuple(r for r in (s.get("x-kubernetes-validations") or ()) if isinstance(r, dict)),
    )


#: The junctors among :data:`_VALUE_VALIDATION_KEYS`: a node with none of them has no nested value validation.
_JUNCTOR_KEYS = frozenset({"allOf", "oneOf", "anyOf", "not"})


def _value_validation(s: Schema, built: Mapping[tuple[int, bool], Any]) -> ValueValidation:
    if _VALUE_VALIDATION_KEYS.isdisjoint(s):
        return _NO_VALUE_VALIDATION
    get = s.get
    enum = get("enum")
    if _JUNCTOR_KEYS.isdisjoint(s):  # the common node (a format, a pattern, an enum, required keys): no junctor
        all_of: tuple[NestedValueValidation, ...] = ()
        one_of: tuple[NestedValueValidation, ...] = ()
        any_of: tuple[NestedValueValidation, ...] = ()
        not_: NestedValueValidation | None = None
    else:
        all_of = tuple(built[(id(x), True)] for x in _list_of_schemas(get("allOf")))
        one_of = tuple(built[(id(x), True)] for x in _list_of_schemas(get("oneOf")))
        any_of = tuple(built[(id(x), True)] for x in _list_of_schemas(get("anyOf")))
        not_schema = get("not")
        not_ = built[(id(not_schema), True)] if isinstance(not_schema, dict) else None
    # positional, in the fields' order (format, maximum, exclusive_maximum, minimum, exclusive_minimum, max_length,
    # min_length, pattern, max_items, min_items, unique_items, multiple_of, enum, max_properties, min_properties,
    # required, all_of, one_of, any_of, not_): keywords cost more, on ~1 node in 2 of a real schema
    return ValueValidation(
        get("format") or "", get("maximum"), bool(get("exclusiveMaximum")), get("minimum"),
        bool(get("exclusiveMinimum")), get("maxLength"), get("minLength"), get("pattern") or "", get("maxItems"),
        get("minItems"), bool(get("uniqueItems")), get("multipleOf"),
        tuple(enum) if isinstance(enum, list) and enum else None, get("maxProperties"), get("minProperties"),
        tuple(get("required") or ()), all_of, one_of, any_of, not_,
    )


#: The keys :func:`_children` reads: a node with none of them (most are leaves) has no sub-schema to convert.
_CHILD_KEYS = frozenset({"not", "allOf", "anyOf", "oneOf", "items", "properties", "additionalProperties"})
#: The keys :func:`_convertible` reads: a node with none of them is convertible.
_CONVERTIBLE_KEYS = frozenset({key for key, _ in _UNSUPPORTED} | {"x-kubernetes-preserve-unknown-fields", "items"})


def _children(s: Schema, nested: bool) -> list[tuple[Schema, bool]]:
    """Every sub-schema the conversion of ``s`` needs, with its nestedness."""
    if _CHILD_KEYS.isdisjoint(s):
        return []
    out: list[tuple[Schema, bool]] = []
    if isinstance(s.get("not"), dict):
        out.append((s["not"], True))
    for key in ("allOf", "anyOf", "oneOf"):
        for x in _list_of_schemas(s.get(key)):
            out.append((x, True))
    item = _items_schema(s)
    if item is not None:
        out.append((item, nested))
    for x in _dict_of_schemas(s.get("properties")).values():
        out.append((x, nested))
    ap = s.get("additionalProperties")
    if isinstance(ap, dict):
        out.append((ap, nested))
    return out


class _NotConvertible(Exception):
    """Raised by :func:`_build` on the first problem; the ordered check then names upstream's error."""


def _convertible(s: Schema) -> bool:
    return (
        _unsupported_error(s) is None
        and s.get("x-kubernetes-preserve-unknown-fields") is not False
        and not _items_array(s)
    )


def _build(root: Schema) -> Structural:
    """Post-order construction; raises :class:`_NotConvertible` on any unsupported node."""
    built: dict[tuple[int, bool], Any] = {}
    in_progress: set[tuple[int, bool]] = set()
    stack: list[tuple[Schema, bool, bool]] = [(root, False, False)]
    while stack:
        s, nested, expanded = stack.pop()
        key = (id(s), nested)
        if key in built:
            continue
        if not expanded:
            if key in in_progress:
                # Only a recursive YAML alias can do this; JSON cannot.
                raise StructuralError("OpenAPIV3Schema must not be recursive")
            if not (_CONVERTIBLE_KEYS.isdisjoint(s) or _convertible(s)):
                raise _NotConvertible
            if _CHILD_KEYS.isdisjoint(s):
                # a leaf (most nodes): nothing to convert first, so converted now rather than pushed back; it
                # cannot be on a cycle, so it need not be marked in progress
                built[key] = _make_nested(s, built) if nested else _make_structural(s, built)
                continue
            in_progress.add(key)
            stack.append((s, nested, True))
            stack.extend((c, n, False) for c, n in _children(s, nested) if (id(c), n) not in built)
            continue
        built[key] = _make_nested(s, built) if nested else _make_structural(s, built)
    return built[(id(root), False)]  # type: ignore[no-any-return]


def _make_structural(s: Schema, built: Mapping[tuple[int, bool], Any]) -> Structural:
    get = s.get
    ap = get("additionalProperties")
    additional: Structural | bool | None
    if isinstance(ap, dict):
        additional = built[(id(ap), False)]
    elif isinstance(ap, bool):
        additional = ap
    else:
        additional = None
    item = get("items")
    props = get("properties")
    # positional, in the fields' order (what _generic and _dict_of_schemas build, inline): one node of each
    # schema node of every CRD version
    return Structural(
        Generic(get("description") or "", get("type") or "", get("title") or "", get("default"),
                bool(get("nullable")), get("externalDocs"), get("example")),
        _extensions(s),
        _value_validation(s, built),
        built[(id(item), False)] if isinstance(item, dict) else None,
        {k: built[(id(x), False)] for k, x in props.items() if isinstance(x, dict)} if isinstance(props, dict) else {},
        additional,
    )


def _make_nested(s: Schema, built: Mapping[tuple[int, bool], Any]) -> NestedValueValidation:
    ap = s.get("additionalProperties")
    additional: NestedValueValidation | None = None
    if isinstance(ap, dict):
        additional = built[(id(ap), True)]
    elif ap is True:
        additional = NestedValueValidation()
    item = _items_schema(s)
    return NestedValueValidation(
        value_validation=_value_validation(s, built),
        items=built[(id(item), True)] if item is not None else None,
        properties={k: built[(id(x), True)] for k, x in _dict_of_schemas(s.get("properties")).items()},
        additional_properties=additional,
        forbidden_generics=_generic(s),
        forbidden_extensions=_extensions(s),
        additional_properties_false=ap is False,
    )


def new_structural(schema: Schema) -> Structural:
    """Convert an OpenAPI v3 schema dict into a :class:`Structural`.

    In: a decoded JSONSchemaProps dict (``openAPIV3Schema``). Out: the
    structural model; it references (does not copy) JSON values such as
    ``default`` and ``enum`` of the input, which must therefore not be mutated.

    Raises :class:`StructuralError` with upstream's message, e.g.
    ``OpenAPIV3Schema '$ref' is not supported`` or ``OpenAPIV3Schema 'items'
    must be a schema, but is an array``; the first error in upstream's
    traversal order wins.

    Upstream: ``pkg/apiserver/schema/convert.go`` ``NewStructural``.
    """
    try:
        return _build(schema)
    except _NotConvertible:
        # Rare path: walk again in upstream's order so the same error wins.
        _check_convertible(schema)
        raise StructuralError("OpenAPIV3Schema is not supported") from None  # pragma: no cover


# --- ValidateStructural (validation.go, complete.go) --------------------------

_ROOT, _ITEM, _FIELD = 0, 1, 2
_INT_OR_STRING_ANY_OF = (
    NestedValueValidation(forbidden_generics=Generic(type="integer")),
    NestedValueValidation(forbidden_generics=Generic(type="string")),
)
_EMPTY_VV = ValueValidation()

#: The first release whose structural schema ... (pkg/apiserver/schema, by tag):
#: accepts a bare ``additionalProperties: false`` under allOf/anyOf/oneOf/not (``convert.go@v0.31.0``
#: ``newNestedValueValidation`` leaves it nil; ``@v0.30.14`` kept it in ``Generic`` and
#: ``validateNestedValueValidation`` said "must be undefined to be structural");
_NESTED_ADDITIONAL_PROPERTIES_FALSE_ALLOWED_SINCE = 31
#: has ``Generic.ExternalDocs`` and ``Generic.Example`` (``structural.go@v0.36.0``), which the whole-node
#: comparisons (root ``metadata``, the int-or-string ``anyOf`` pattern) then see.
_GENERIC_DOCS_AND_EXAMPLE_SINCE = 36


def _as_upstream(n: NestedValueValidation, release: Release) -> NestedValueValidation:
    """``n`` with only the fields ``release``'s ``NestedValueValidation`` has, for ``reflect.DeepEqual``."""
    if n.additional_properties_false and release.at_least(_NESTED_ADDITIONAL_PROPERTIES_FALSE_ALLOWED_SINCE):
        n = replace(n, additional_properties_false=False)
    g = n.forbidden_generics
    if not release.at_least(_GENERIC_DOCS_AND_EXAMPLE_SINCE) and (g.example is not None or g.external_docs is not None):
        n = replace(n, forbidden_generics=replace(g, example=None, external_docs=None))
    return n


def _is_int_or_string_pattern(any_of: tuple[NestedValueValidation, ...], release: Release) -> bool:
    """``reflect.DeepEqual(anyOf, intOrStringAnyOf)``."""
    return len(any_of) == 2 and tuple(_as_upstream(n, release) for n in any_of) == _INT_OR_STRING_ANY_OF


def _is_int_or_string_any_of(vv: ValueValidation | None, release: Release = DEFAULT_RELEASE) -> bool:
    return vv is not None and _is_int_or_string_pattern(vv.any_of, release)


def _is_int_or_string_all_of(vv: ValueValidation | None, release: Release = DEFAULT_RELEASE) -> bool:
    return vv is not None and len(vv.all_of) >= 1 and _is_int_or_string_pattern(vv.all_of[0].value_validation.any_of, release)


def validate_structural(fld_path: Path, ss: Structural | None, release: Release = DEFAULT_RELEASE) -> list[FieldError]:
    """Check that ``ss`` is a structural schema; errors sorted by their text.

    In: the path of the schema (e.g. ``spec.versions[0].schema.openAPIV3Schema``)
    and the model from :func:`new_structural`. Out: upstream field errors, e.g.
    ``...properties[foo].type: Required value: must not be empty for specified
    object fields``. Never raises.

    Upstream: ``pkg/apiserver/schema/validation.go`` ``ValidateStructural``
    (``validateStructuralInvariants``, ``validateStructuralMetadataInvariants``,
    ``validateExtensions``, ``validateValueValidation``,
    ``validateNestedValueValidation``) and ``complete.go``
    ``validateStructuralCompleteness``, with ``ValidationOptions{}``, as ``release``'s apiserver
    (default: :data:`crdtool.core.releases.DEFAULT_RELEASE`) runs them.
    """
    if ss is None:
        return []
    errs = _validate_invariants(ss, Path(fld_path), release)
    errs.extend(_validate_completeness(ss, Path(fld_path)))
    errs.sort(key=str)
    return errs


def _validate_invariants(root: Structural, root_path: Path, release: Release) -> list[FieldError]:
    """Upstream ``validateStructuralInvariants`` over the whole tree."""
    errs: list[FieldError] = []
    stack: list[tuple[Structural, int, Path]] = [(root, _ROOT, root_path)]
    while stack:
        s, lvl, p = stack.pop()
        if s.type == "array" and s.items is None:
            errs.append(required(p.child("items"), "must be specified"))
        if s.items is not None:
            stack.append((s.items, _ITEM, p.child("items")))
        for k, v in s.properties.items():
            stack.append((v, _FIELD, p.child("properties").key(k)))
        if s.additional_properties is not None:
            if lvl == _ROOT:
                errs.append(forbidden(p.child("additionalProperties"), "must not be used at the root"))
            if isinstance(s.additional_properties, Structural):
                stack.append((s.additional_properties, _FIELD, p.child("additionalProperties")))
        vv = s.value_validation
        if s.extensions is _NO_EXTENSIONS and (vv is None or vv is _NO_VALUE_VALIDATION) and s.type and lvl != _ROOT:
            continue  # the common node: no extensions, no value validation, typed, not the root: nothing to report
        errs.extend(_node_invariants(s, lvl, p, release))
    return errs


def _node_invariants(s: Structural, lvl: int, p: Path, release: Release) -> list[FieldError]:
    errs = _validate_extensions(s.extensions, p)
    errs.extend(
        _validate_value_validation(
            s.value_validation, _is_int_or_string_any_of(s.value_validation, release),
            _is_int_or_string_all_of(s.value_validation, release), lvl, p, release,
        )
    )
    x = s.extensions
    check_metadata = lvl == _ROOT or x.x_embedded_resource
    if x.x_embedded_resource and s.type != "object":
        detail = "must be object if x-kubernetes-embedded-resource is true"
        if not s.type:
            errs.append(required(p.child("type"), detail))
        else:
            errs.append(invalid(p.child("type"), s.type, detail))
    elif not s.type and not x.x_int_or_string and not x.x_preserve_unknown_fields:
        detail = {
            _ROOT: "must not be empty at the root",
            _ITEM: "must not be empty for specified array items",
            _FIELD: "must not be empty for specified object fields",
        }[lvl]
        errs.append(required(p.child("type"), detail))
    if x.x_embedded_resource and s.additional_properties is not None:
        errs.append(forbidden(p.child("additionalProperties"), "must not be used if x-kubernetes-embedded-resource is set"))
    if lvl == _ROOT and s.type and s.type != "object":
        errs.append(invalid(p.child("type"), s.type, "must be object at the root"))
    for name in ("kind", "apiVersion"):
        sub = s.properties.get(name)
        if sub is not None and check_metadata and sub.type != "string":
            errs.append(invalid(p.child("properties").key(name).child("type"), sub.type, "must be string"))
    metadata = s.properties.get("metadata")
    if metadata is not None:
        errs.extend(_validate_metadata_invariants(metadata, check_metadata, lvl, p.child("properties").key("metadata"), release))
    if x.x_embedded_resource and not x.x_preserve_unknown_fields and not s.properties:
        errs.append(
            required(
                p.child("properties"),
                "must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields",
            )
        )
    return errs


def _validate_metadata_invariants(
    s: Structural, check_metadata: bool, lvl: int, p: Path, release: Release = DEFAULT_RELEASE
) -> list[FieldError]:
    """Upstream ``validateStructuralMetadataInvariants`` (without mutating ``s``)."""
    errs: list[FieldError] = []
    if check_metadata and s.type != "object":
        errs.append(invalid(p.child("type"), s.type, "must be object"))
    if lvl != _ROOT:
        return errs
    # Upstream drops properties that are exactly {name}, {generateName} or both.
    props_ok = set(s.properties) <= {"name", "generateName"}
    g = s.generic
    vv = s.value_validation or _EMPTY_VV
    # Upstream compares the node, with type/default/allowed properties cleared,
    # against the zero Structural.
    clean = (
        props_ok
        and s.items is None
        and s.additional_properties is None
        and not g.description
        and not g.title
        and not g.nullable
        and s.extensions == Extensions()
        and vv == _EMPTY_VV
        # from 1.36 the compared Generic has externalDocs and example too [derived: no upstream test]
        and (not release.at_least(_GENERIC_DOCS_AND_EXAMPLE_SINCE) or (g.external_docs is None and g.example is None))
    )
    if not clean:
        errs.append(forbidden(p, "must not specify anything other than name and generateName, but metadata is implicitly specified"))
    return errs


def _validate_extensions(x: Extensions, p: Path) -> list[FieldError]:
    """Upstream ``validateExtensions``."""
    errs: list[FieldError] = []
    if x.x_int_or_string and x.x_preserve_unknown_fields:
        errs.append(invalid(p.child("x-kubernetes-preserve-unknown-fields"), True, "must be false if x-kubernetes-int-or-string is true"))
    if x.x_int_or_string and x.x_embedded_resource:
        errs.append(invalid(p.child("x-kubernetes-embedded-resource"), True, "must be false if x-kubernetes-int-or-string is true"))
    return errs


def _validate_value_validation(
    v: ValueValidation | None, skip_any_of: bool, skip_first_all_of_any_of: bool, lvl: int, p: Path,
    release: Release = DEFAULT_RELEASE,
) -> list[FieldError]:
    """Upstream ``validateValueValidation`` with its nested walk made iterative."""
    errs: list[FieldError] = []
    if v is None:
        return errs
    # Work items: ("vv", ValueValidation, skipAnyOf, skipFirstAllOfAnyOf, lvl, path)
    #             ("nvv", NestedValueValidation, skipAnyOf, lvl, path)
    work: list[tuple[Any, ...]] = [("vv", v, skip_any_of, skip_first_all_of_any_of, lvl, p)]
    while work:
        item = work.pop()
        if item[0] == "vv":
            _, vv, skip_any, skip_first, lv, path = item
            if not skip_any:
                work.extend(("nvv", x, False, lv, path.child("anyOf").index(i)) for i, x in enumerate(vv.any_of))
            work.extend(
                ("nvv", x, skip_first and i == 0, lv, path.child("allOf").index(i)) for i, x in enumerate(vv.all_of)
            )
            work.extend(("nvv", x, False, lv, path.child("oneOf").index(i)) for i, x in enumerate(vv.one_of))
            if vv.not_ is not None:
                work.append(("nvv", vv.not_, False, lv, path.child("not")))
            if vv.pattern:
                err = go_regexp_error(vv.pattern)
                if err:
                    errs.append(invalid(path.child("pattern"), vv.pattern, f"must be a valid regular expression, but isn't: {err}"))
            continue
        _, nv, skip_any, lv, path = item
        errs.extend(_nested_forbidden(nv, path, release))
        work.append(("vv", nv.value_validation, skip_any, False, lv, path))
        if nv.items is not None:
            work.append(("nvv", nv.items, False, lv, path.child("items")))
        for k, sub in nv.properties.items():
            work.append(("nvv", sub, False, _FIELD, path.child("properties").key(k)))
    return errs


def _nested_forbidden(v: NestedValueValidation, p: Path, release: Release = DEFAULT_RELEASE) -> list[FieldError]:
    """The non-recursive checks of upstream ``validateNestedValueValidation``."""
    errs: list[FieldError] = []
    g, x = v.forbidden_generics, v.forbidden_extensions
    if g.type:
        errs.append(forbidden(p.child("type"), "must be empty to be structural"))
    if v.additional_properties is not None or (
        v.additional_properties_false and not release.at_least(_NESTED_ADDITIONAL_PROPERTIES_FALSE_ALLOWED_SINCE)
    ):
        # AllowNestedAdditionalProperties is false for CRDs.
        errs.append(forbidden(p.child("additionalProperties"), "must be undefined to be structural"))
    if g.default is not None:
        errs.append(forbidden(p.child("default"), "must be undefined to be structural"))
    if g.title:
        errs.append(forbidden(p.child("title"), "must be empty to be structural"))
    if g.description:
        errs.append(forbidden(p.child("description"), "must be empty to be structural"))
    if g.nullable:
        errs.append(forbidden(p.child("nullable"), "must be false to be structural"))
    if x.x_preserve_unknown_fields:
        errs.append(forbidden(p.child("x-kubernetes-preserve-unknown-fields"), "must be false to be structural"))
    if x.x_embedded_resource:
        errs.append(forbidden(p.child("x-kubernetes-embedded-resource"), "must be false to be structural"))
    if x.x_int_or_string:
        errs.append(forbidden(p.child("x-kubernetes-int-or-string"), "must be false to be structural"))
    if x.x_list_map_keys:
        errs.append(forbidden(p.child("x-kubernetes-list-map-keys"), "must be empty to be structural"))
    if x.x_list_type is not None:
        errs.append(forbidden(p.child("x-kubernetes-list-type"), "must be undefined to be structural"))
    if x.x_map_type is not None:
        errs.append(forbidden(p.child("x-kubernetes-map-type"), "must be undefined to be structural"))
    if x.x_validations:
        errs.append(forbidden(p.child("x-kubernetes-validations"), "must be empty to be structural"))
    if "metadata" in v.properties:
        errs.append(forbidden(p.child("properties").key("metadata"), "must not be specified in a nested context"))
    return errs


def _validate_completeness(root: Structural, root_path: Path) -> list[FieldError]:
    """Upstream ``validateStructuralCompleteness``: junctor fields must exist structurally.

    As upstream, only the root's value validation is checked (recursing into
    the junctors, not into the structural properties).
    """
    errs: list[FieldError] = []
    # ("vv", ValueValidation, Structural|None, sPath, vPath) / ("nvv", NestedValueValidation, ...)
    work: list[tuple[Any, ...]] = []
    if root.value_validation is not None:
        work.append(("vv", root.value_validation, root, root_path, root_path))
    while work:
        kind, v, s, s_path, v_path = work.pop()
        if s is None:
            errs.append(required(s_path, f"because it is defined in {v_path}"))
            continue
        if kind == "vv":
            if v.not_ is not None:
                work.append(("nvv", v.not_, s, s_path, v_path.child("not")))
            for name, subs in (("allOf", v.all_of), ("anyOf", v.any_of), ("oneOf", v.one_of)):
                work.extend(("nvv", x, s, s_path, v_path.child(name).index(i)) for i, x in enumerate(subs))
            continue
        work.append(("vv", v.value_validation, s, s_path, v_path))
        if v.items is not None:
            work.append(("nvv", v.items, s.items, s_path.child("items"), v_path.child("items")))
        for k, sub in v.properties.items():
            work.append(
                ("nvv", sub, s.properties.get(k), s_path.child("properties").key(k), v_path.child("properties").key(k))
            )
    return errs
