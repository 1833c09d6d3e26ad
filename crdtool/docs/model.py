"""What an API reference page says about a CRD: the model the templates render.

:func:`crd_page` reads one CRD manifest the way the apiserver reads it (strict decoding, the
apiextensions defaults, the v1 shape with one schema per version) and returns frozen records: the
CRD's names, its versions in discovery's priority order (storage, served, deprecated with the
warning the apiserver sends), each version's fields as a flat pre-order tree, the rules of each field
in words (:func:`crdtool.core.crdcel.idioms.classify_rule`, the words ``lint`` and ``explain`` use),
and what changed from the next older version (:func:`crdtool.core.crd.compare.compare_versions`, the
comparison of ``crdtool diff``). The same manifest gives the same model (no clock, no order of a
``set``), so pages are byte-for-byte reproducible.

Field paths are JSONPath-like, as ``diff`` prints them: ``.spec.listeners[*].port`` for the items of
a list, ``.metadata.labels.*`` for the values of a map.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, replace
from typing import Any, Mapping

__all__ = ["CrdPage", "ExampleDoc", "FieldDoc", "RuleDoc", "VersionDoc", "crd_page", "example_doc", "type_text"]

_SIMPLE = re.compile(r"^[A-Za-z0-9_$@-]+$")


@dataclass(frozen=True)
class RuleDoc:
    """One ``x-kubernetes-validations`` entry: the ``rule``, its ``message`` (or ``message_expression``),
    ``reason``, ``field_path``, ``optional_old_self``, the idiom's words (``idiom``: "" when the rule is
    not a known idiom), whether it is a ``transition`` rule, and ``scope`` ("" for the field itself,
    "each item", "each value")."""

    rule: str
    message: str
    message_expression: str
    reason: str
    field_path: str
    optional_old_self: bool
    idiom: str
    idiom_kind: str
    transition: bool
    scope: str = ""
    index: int = 0
    #: "estimated cost 2,501,234 per request: 25% of the per-rule limit" when at least :data:`COST_SHARE_SHOWN`
    cost: str = ""

    @property
    def when(self) -> str:
        """When the apiserver checks it, in words ("" for an ordinary rule)."""
        if not self.transition:
            return ""
        if self.optional_old_self:
            return "a transition rule (optionalOldSelf): checked on creates too, oldSelf is then none"
        return "a transition rule: checked on updates that keep a value here, never on creates"


@dataclass(frozen=True)
class FieldDoc:
    """One field of a version's schema (``depth`` 1 for ``.spec``)."""

    path: str
    name: str
    depth: int
    type: str
    format: str
    required: bool
    nullable: bool
    default: str
    enum: tuple[str, ...]
    bounds: tuple[str, ...]
    pattern: str
    notes: tuple[str, ...]
    description: str
    rules: tuple[RuleDoc, ...]
    anchor: str


@dataclass(frozen=True)
class ChangeDoc:
    """One change from the previous version (a :class:`crdtool.core.crd.compare.Change` as text)."""

    path: str
    kind: str
    severity: str
    message: str


@dataclass(frozen=True)
class ExampleDoc:
    """A custom resource given with ``--examples``: where it came from, whether the apiserver would create it
    (``errors`` as the apiserver words them, ``pruned`` unknown fields) and ``stored``: the object as stored,
    defaults applied, as YAML."""

    source: str
    errors: tuple[str, ...]
    pruned: tuple[str, ...]
    stored: str


@dataclass(frozen=True)
class VersionDoc:
    """One version of the CRD, its fields and what changed from ``previous`` (the next older version)."""

    name: str
    served: bool
    storage: bool
    deprecated: bool
    deprecation_warning: str
    description: str
    root_rules: tuple[RuleDoc, ...]
    fields: tuple[FieldDoc, ...]
    subresources: tuple[str, ...]
    columns: tuple[tuple[str, str, str], ...]
    previous: str
    changes: tuple[ChangeDoc, ...]
    preserve_unknown_fields: bool
    has_schema: bool
    examples: tuple[ExampleDoc, ...] = ()


@dataclass(frozen=True)
class CrdPage:
    """One CRD: names, scope, versions (priority order: the preferred version first)."""

    name: str
    group: str
    kind: str
    plural: str
    singular: str
    short_names: tuple[str, ...]
    categories: tuple[str, ...]
    scope: str
    versions: tuple[VersionDoc, ...]
    source: str
    slug: str

    @property
    def storage_version(self) -> str:
        return next((v.name for v in self.versions if v.storage), "")


def crd_page(doc: Mapping[str, Any], *, source: str = "", slug: str = "", with_costs: bool = True) -> CrdPage:
    """The page model of one CRD manifest.

    In: a CRD manifest (``apiextensions.k8s.io/v1`` or ``v1beta1``, as parsed from YAML), where it came
    from (``source``, shown on the page) and the page's file stem (``slug``, default the CRD's name).
    Out: a :class:`CrdPage`. A CRD the apiserver would reject is still described as written (what
    decodes of it). ``with_costs``: estimate the rules' CEL costs (as ``lint`` does) to show those close to
    the budget. Raises ValueError when ``doc`` is not a CRD.
    """
    from crdtool.core.crd.conversion import internal_to_v1, to_internal
    from crdtool.core.crd.decode import decode_crd
    from crdtool.core.crd.defaults import default_crd
    from crdtool.core.crd.manifest import is_crd
    from crdtool.core.versions import sort_versions

    if not is_crd(doc):
        raise ValueError("not an apiextensions.k8s.io/v1 or v1beta1 CustomResourceDefinition")
    decoded, _ = decode_crd(doc)
    v1 = internal_to_v1(to_internal(default_crd(decoded)))
    spec = _map(v1.get("spec"))
    names = _map(spec.get("names"))
    group = _str(spec.get("group"))
    name = _str(_map(v1.get("metadata")).get("name")) or f"{_str(names.get('plural'))}.{group}"
    entries = {_str(_map(v).get("name")): _map(v) for v in _list(spec.get("versions"))}
    order = sort_versions(list(entries))
    changes = _changes(dict(doc), order)
    costs = _costs(doc) if with_costs else {}
    versions = []
    for i, vname in enumerate(order):
        previous = order[i + 1] if i + 1 < len(order) else ""
        versions.append(_version_doc(entries[vname], group, _str(names.get("kind")), previous, changes.get(vname, ()),
                                     costs.get(vname)))
    return CrdPage(
        name=name, group=group, kind=_str(names.get("kind")), plural=_str(names.get("plural")),
        singular=_str(names.get("singular")), short_names=tuple(_str(s) for s in _list(names.get("shortNames"))),
        categories=tuple(_str(s) for s in _list(names.get("categories"))), scope=_str(spec.get("scope")),
        versions=tuple(versions), source=source, slug=slug or _file_stem(name),
    )


def example_doc(crd: Mapping[str, Any], obj: Mapping[str, Any], source: str) -> tuple[str, ExampleDoc]:
    """``(version, ExampleDoc)`` for a custom resource of ``crd``: the apiserver's create path
    (:func:`crdtool.core.customresource.apply_create`: decoding, pruning, defaulting, validation) at the
    object's apiVersion. Raises ValueError when the object is not of this CRD's group and kind, or its
    version is not one of the CRD's."""
    import yaml

    from crdtool.core.customresource import CustomResourceError, apply_create

    spec = _map(crd.get("spec"))
    api_version = _str(obj.get("apiVersion"))
    group, _, version = api_version.rpartition("/")
    if group != _str(spec.get("group")) or _str(obj.get("kind")) != _str(_map(spec.get("names")).get("kind")):
        raise ValueError(f"{api_version} {_str(obj.get('kind'))} is not a {_str(_map(spec.get('names')).get('kind'))} of {_str(spec.get('group'))}")
    try:
        result = apply_create(dict(obj), dict(crd), version)
    except CustomResourceError as exc:
        raise ValueError(str(exc)) from None
    stored = yaml.safe_dump(result.stored, sort_keys=False, allow_unicode=True, default_flow_style=False)
    return version, ExampleDoc(source, tuple(str(e) for e in result.errors), tuple(result.pruned), stored)


def _changes(doc: dict[str, Any], order: list[str]) -> dict[str, tuple[ChangeDoc, ...]]:
    from crdtool.core.crd.compare import compare_versions, severity_rank

    out: dict[str, tuple[ChangeDoc, ...]] = {}
    for i in range(len(order) - 1):
        new, old = order[i], order[i + 1]
        try:
            found = compare_versions(doc, old, new)
        except (ValueError, TypeError, KeyError, AttributeError):  # an undecodable CRD: no comparison
            continue
        # by field, then severity: the same bytes whatever order the manifest's keys came in
        ranked = sorted(found, key=lambda c: (c.path, severity_rank(c.severity), c.kind, c.message))
        out[new] = tuple(ChangeDoc(c.path, c.kind, c.severity, c.message) for c in ranked)
    return out


def _version_doc(
    v: Mapping[str, Any], group: str, kind: str, previous: str, changes: tuple[ChangeDoc, ...],
    costs: Mapping[tuple[str, str, int], str] | None = None,
) -> VersionDoc:
    vname = _str(v.get("name"))
    schema = _map(_map(v.get("schema")).get("openAPIV3Schema"))
    deprecated = v.get("deprecated") is True
    warning = v.get("deprecationWarning")
    if deprecated and not isinstance(warning, str):
        # customresource_handler.go: the default warning of a deprecated version
        warning = f"{group}/{vname} {kind} is deprecated"
    fields: list[FieldDoc] = []
    anchor_base = _anchor(vname)
    _walk(schema, "", 0, fields, anchor_base, set(_strs(schema.get("required"))))
    root_rules = _rules(schema, "")
    if costs:
        fields = [replace(f, rules=_with_costs(f.path, f.rules, costs)) for f in fields]
        root_rules = _with_costs("", root_rules, costs)
    sub = _map(v.get("subresources"))
    subresources = tuple(k for k in ("status", "scale") if k in sub)
    columns = tuple(
        (_str(_map(c).get("name")), _str(_map(c).get("type")), _str(_map(c).get("jsonPath")))
        for c in _list(v.get("additionalPrinterColumns"))
    )
    return VersionDoc(
        name=vname, served=v.get("served") is True, storage=v.get("storage") is True, deprecated=deprecated,
        deprecation_warning=warning if isinstance(warning, str) else "", description=_str(schema.get("description")),
        root_rules=root_rules, fields=tuple(fields), subresources=subresources, columns=columns,
        previous=previous, changes=changes, preserve_unknown_fields=schema.get("x-kubernetes-preserve-unknown-fields") is True,
        has_schema=bool(schema),
    )


def _with_costs(path: str, rules: tuple[RuleDoc, ...], costs: Mapping[tuple[str, str, int], str]) -> tuple[RuleDoc, ...]:
    return tuple(replace(r, cost=costs.get((path, r.scope, r.index), "")) for r in rules)


#: A rule's estimated cost is shown from this share of the per-rule limit (lint's CRD002 warns from 90%).
COST_SHARE_SHOWN = 0.1


def _costs(doc: Mapping[str, Any]) -> dict[str, dict[tuple[str, str, int], str]]:
    """``{version: {(field path, scope, rule index): words}}`` for rules estimated at
    :data:`COST_SHARE_SHOWN` of the per-rule limit or more (the estimates of ``crdtool lint``, which are
    CRD validation's: :func:`crdtool.core.lint.cost.cost_breakdown`). Empty for a CRD without rules."""
    if "x-kubernetes-validations" not in repr(doc):
        return {}
    from crdtool.core.lint.cost import cost_breakdown

    try:
        breakdown = cost_breakdown(doc, fixes=False)
    except (ValueError, TypeError, KeyError, AttributeError, RecursionError):  # a CRD too broken to cost
        return {}
    out: dict[str, dict[tuple[str, str, int], str]] = {}
    for schema in breakdown.schemas:
        for e in schema.expressions:
            if e.kind != "rule" or e.estimated < COST_SHARE_SHOWN * breakdown.rule_limit:
                continue
            path, scope = _location_path(e.location)
            share = e.estimated / breakdown.rule_limit
            words = f"estimated cost {e.estimated:,}: {share:.0%} of the per-rule limit ({breakdown.rule_limit:,})"
            for version in schema.versions:
                out.setdefault(version, {})[(path, scope, e.index)] = words
    return out


def _location_path(location: Any) -> tuple[str, str]:
    """A schema location (``(("properties", "spec"), ("items",), ...)``) as this model's ``(path, scope)``."""
    path, pending = "", []
    for step in location:
        if step[0] == "properties":
            for p in pending:
                path += "[*]" if p == "items" else ".*"
            pending = []
            path = _child(path, str(step[1]))
        elif step[0] in ("items", "additionalProperties"):
            pending.append(step[0])
    scope = ""
    for i, p in enumerate(pending):
        scope = ("each item" if p == "items" else "each value") if i == 0 else f"{scope}'s items"
    return path, scope


def _walk(node: Mapping[str, Any], path: str, depth: int, out: list[FieldDoc], anchor: str, required: set[str]) -> None:
    props = _map(node.get("properties"))
    for name in sorted(props):
        child = _map(props[name])
        child_path = _child(path, name)
        out.append(_field(child, name, child_path, depth + 1, name in required, anchor))
        _walk_children(child, child_path, depth + 1, out, anchor)


def _walk_children(node: Mapping[str, Any], path: str, depth: int, out: list[FieldDoc], anchor: str) -> None:
    """The fields under a field: its properties, its items' or map values' properties (nested lists too)."""
    _walk(node, path, depth, out, anchor, set(_strs(node.get("required"))))
    items = node.get("items")
    if isinstance(items, dict):
        _walk_children(items, path + "[*]", depth, out, anchor)
    extra = node.get("additionalProperties")
    if isinstance(extra, dict):
        _walk_children(extra, path + ".*", depth, out, anchor)


def _field(s: Mapping[str, Any], name: str, path: str, depth: int, required: bool, anchor: str) -> FieldDoc:
    rules = list(_rules(s, ""))
    notes = list(_notes(s))
    bounds = list(_bounds(s))
    enum = _enum(s)
    pattern = _str(s.get("pattern"))
    # what each item of a list / value of a map must be, said on the field itself
    for key, scope in (("items", "each item"), ("additionalProperties", "each value")):
        inner = s.get(key)
        while isinstance(inner, dict):
            rules.extend(_rules(inner, scope))
            bounds.extend(f"{scope}: {b}" for b in _bounds(inner))
            notes.extend(f"{scope}: {n}" for n in _notes(inner))
            if not enum and _enum(inner):
                enum = _enum(inner)
                notes.append(f"the enum applies to {scope}")
            if not pattern and isinstance(inner.get("pattern"), str):
                pattern = inner["pattern"]
                notes.append(f"the pattern applies to {scope}")
            if inner.get("format") and inner.get("type") == "string":
                notes.append(f"{scope}: format {inner['format']}")
            if inner.get("default") is not None:
                notes.append(f"{scope}: default {_json(inner['default'])}")
            if inner.get("properties") or inner.get("type") == "object":
                break
            inner = inner.get("items") if isinstance(inner.get("items"), dict) else None
            scope = f"{scope}'s items"
    default = _json(s["default"]) if "default" in s else ""
    return FieldDoc(
        path=path, name=name, depth=depth, type=type_text(s), format=_str(s.get("format")), required=required,
        nullable=s.get("nullable") is True, default=default, enum=enum, bounds=tuple(bounds), pattern=pattern,
        notes=tuple(notes), description=_str(s.get("description")), rules=tuple(rules), anchor=f"{anchor}{_anchor(path)}",
    )


def type_text(s: Mapping[str, Any]) -> str:
    """kubectl explain's type hint (``typeGuess`` of ``pkg/explain/v2/templates/plaintext.tmpl``):
    ``string``, ``Object``, ``[]Object``, ``map[string]string``; ``int-or-string`` where
    ``x-kubernetes-int-or-string`` says so (kubectl shows the ``IntOrString`` of the built-ins)."""
    if s.get("x-kubernetes-int-or-string") is True:
        return "IntOrString"
    items = s.get("items")
    if isinstance(items, dict):
        return "[]" + type_text(items)
    extra = s.get("additionalProperties")
    if isinstance(extra, dict):
        return "map[string]" + type_text(extra)
    t = s.get("type")
    if t == "object" or not isinstance(t, str) or not t:
        return "Object"
    return t


def _notes(s: Mapping[str, Any]) -> list[str]:
    out: list[str] = []
    list_type = s.get("x-kubernetes-list-type")
    if list_type == "map":
        keys = ", ".join(f"`{k}`" for k in _strs(s.get("x-kubernetes-list-map-keys")))
        out.append(f"a list of entries keyed by {keys}: server-side apply merges entries by key" if keys else "list type map")
    elif list_type == "set":
        out.append("a set: items are unique, server-side apply merges them")
    elif list_type == "atomic":
        out.append("atomic: server-side apply replaces the list as a whole")
    if s.get("x-kubernetes-map-type") == "atomic":
        out.append("atomic: server-side apply replaces the object as a whole")
    elif s.get("x-kubernetes-map-type") == "granular":
        out.append("granular: server-side apply merges its fields")
    if s.get("x-kubernetes-preserve-unknown-fields") is True:
        out.append("fields not in the schema are kept (not pruned)")
    if s.get("x-kubernetes-embedded-resource") is True:
        out.append("an embedded Kubernetes object: apiVersion, kind and metadata are checked")
    if s.get("x-kubernetes-int-or-string") is True:
        out.append("an integer or a string")
    return out


def _bounds(s: Mapping[str, Any]) -> list[str]:
    out: list[str] = []
    if "minimum" in s:
        out.append(f"minimum {_num(s['minimum'])}{' (exclusive)' if s.get('exclusiveMinimum') is True else ''}")
    if "maximum" in s:
        out.append(f"maximum {_num(s['maximum'])}{' (exclusive)' if s.get('exclusiveMaximum') is True else ''}")
    if "multipleOf" in s:
        out.append(f"a multiple of {_num(s['multipleOf'])}")
    for key, words, noun in (("minLength", "at least", "character"), ("maxLength", "at most", "character"),
                             ("minItems", "at least", "item"), ("maxItems", "at most", "item"),
                             ("minProperties", "at least", "entry"), ("maxProperties", "at most", "entry")):
        if key in s:
            count = _num(s[key])
            plural = noun if count == "1" else ("entries" if noun == "entry" else noun + "s")
            out.append(f"{words} {count} {plural}")
    if s.get("uniqueItems") is True:
        out.append("items unique")
    return out


def _enum(s: Mapping[str, Any]) -> tuple[str, ...]:
    return tuple(_json(x) for x in _list(s.get("enum")))


def _rules(s: Mapping[str, Any], scope: str) -> tuple[RuleDoc, ...]:
    from crdtool.core.crdcel.idioms import classify_rule, uses_old_self

    out = []
    for index, r in enumerate(_list(s.get("x-kubernetes-validations"))):
        r = _map(r)
        text = _str(r.get("rule"))
        idiom = classify_rule(text)
        out.append(RuleDoc(
            rule=text, message=_str(r.get("message")), message_expression=_str(r.get("messageExpression")),
            reason=_str(r.get("reason")), field_path=_str(r.get("fieldPath")), optional_old_self=r.get("optionalOldSelf") is True,
            idiom=idiom.text if idiom else "", idiom_kind=idiom.kind if idiom else "",
            transition=idiom.transition if idiom else uses_old_self(text), scope=scope, index=index,
        ))
    return tuple(out)


def _child(path: str, name: str) -> str:
    return path + (f".{name}" if _SIMPLE.match(name) else f"[{json.dumps(name)}]")


def _file_stem(name: str) -> str:
    """A file name for the page: the CRD's name with anything but letters, digits, ``.``, ``-``, ``_`` as ``_``."""
    stem = re.sub(r"[^A-Za-z0-9._-]", "_", name).lstrip(".")
    return stem or "crd"


def _anchor(text: str) -> str:
    """An HTML id fragment: letters, digits, ``-``, ``_``, ``.`` kept, the rest as ``-XX``."""
    return "".join(c if c.isascii() and (c.isalnum() or c in "-_.") else f"-{ord(c):X}" for c in text)


def _json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(", ", ": "))


def _num(value: Any) -> str:
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return str(value)


def _str(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _strs(value: Any) -> list[str]:
    return [x for x in _list(value) if isinstance(x, str)]


def _map(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []
