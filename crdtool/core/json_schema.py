"""A CRD version's structural schema as JSON Schema (draft 2020-12), for editors and other validators.

What users assemble today with ``openapi2jsonschema`` and the CRDs catalogs for
yaml-language-server and kubeconform, made to agree with the apiserver: the
exported schema accepts every object the apiserver's OpenAPI validation
(``k8s.io/kube-openapi/pkg/validation/validate``, as
:mod:`crdtool.core.validation.value_validation` mirrors it) accepts on create,
after upstream's pruning and defaulting. The translation, node by node:

* ``type`` as is; ``nullable: true`` adds ``"null"`` to the type (the
  apiserver's ``typeValidator`` lets null through; ``enum`` still applies
  to it, and junctors do not: such a node becomes ``anyOf: [{type: null}, ...]``);
* ``x-kubernetes-int-or-string: true`` -> ``anyOf: [{type: integer}, {type: string}]``;
* ``x-kubernetes-preserve-unknown-fields: true`` -> an open object (no
  ``additionalProperties``); without it an object is open too, unless
  ``strict`` makes it ``additionalProperties: false`` (the apiserver prunes
  unknown fields, and server-side field validation ``Strict`` rejects them);
  ``metadata`` and the implicit ``apiVersion``/``kind``/``metadata`` of
  embedded resources stay allowed;
* a property that is not nullable may still be ``null`` where the apiserver
  removes or defaults the null before validating it
  (``structuraldefaulting.PruneNonNullableNullsWithoutDefaults``, then
  ``Default``): unless it is required without a default. A required
  property with a default is not required (it is defaulted);
* OpenAPI 3.0's boolean ``exclusiveMinimum``/``exclusiveMaximum`` become
  2020-12's numbers; ``example`` becomes ``examples``;
* ``format`` is kept where the apiserver honours it (Kubernetes' names and
  semantics, kube-openapi ``strfmt``: an annotation here);
* ``x-kubernetes-list-type: set`` -> ``uniqueItems: true``; other
  ``x-kubernetes-*`` keys are kept as annotations;
* at the root, ``apiVersion`` and ``kind`` are pinned by ``const``; with the
  status subresource on, ``status`` is unconstrained (the apiserver drops it
  on create).

Not expressible, and said so in each schema's ``description``:
``x-kubernetes-validations`` (CEL) rules, list-map key uniqueness
(``x-kubernetes-list-type: map``), the ObjectMeta rules for ``metadata``
(name format, labels, annotations, ...) and those of embedded resources.

Pure: plain dicts in, plain dicts out.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from crdtool.core.schema.formats import effective_format

__all__ = ["DRAFT_2020_12", "ExportedSchema", "NOT_EXPRESSIBLE", "crd_json_schemas", "to_json_schema"]

DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema"

#: What the apiserver checks that JSON Schema cannot say (appended to every root description).
NOT_EXPRESSIBLE = (
    "Not expressible in JSON Schema, and checked only by the apiserver (and crdtool validate): "
    "x-kubernetes-validations (CEL) rules, x-kubernetes-list-type map key uniqueness, and the ObjectMeta rules "
    "of metadata and of embedded resources (name format, labels, annotations, ...). Formats are Kubernetes' "
    "(kube-openapi strfmt) and patterns are RE2 (Go) syntax."
)

_JUNCTORS = ("allOf", "anyOf", "oneOf", "not")
_INT_OR_STRING = [{"type": "integer"}, {"type": "string"}]
_COPIED = ("title", "description", "default", "multipleOf", "maxLength", "minLength", "maxItems",
           "minItems", "uniqueItems", "maxProperties", "minProperties")


@dataclass(frozen=True)
class ExportedSchema:
    """One version's JSON Schema.

    Attributes:
        file_name: ``{kind}_{version}.json``, the kind in lower case (the
            naming of openapi2jsonschema and the CRDs catalogs).
        group, version, kind: the resource's.
        schema: the JSON Schema document (a plain dict).
    """

    file_name: str
    group: str
    version: str
    kind: str
    schema: dict[str, Any]


def crd_json_schemas(
    crd: Any, *, version: str | None = None, strict: bool = False, kubernetes_version: str | None = None
) -> list[ExportedSchema]:
    """Every version's schema of a CRD manifest (or only ``version``), in ``spec.versions`` order.

    In: a CRD manifest (``apiextensions.k8s.io/v1`` or ``v1beta1``) or a
    :class:`~crdtool.core.customresource.PreparedCrd`; a manifest is decoded,
    defaulted and converted as the apiserver does
    (:func:`crdtool.core.customresource.prepare_crd`). Out: one
    :class:`ExportedSchema` per version. Raises ``ValueError`` when the CRD
    cannot be prepared or has no version ``version``.
    """
    from crdtool.core.customresource import CustomResourceError, prepare_crd

    try:
        prepared = prepare_crd(dict(crd) if isinstance(crd, Mapping) else crd, kubernetes_version)
    except CustomResourceError as exc:
        raise ValueError(str(exc)) from None
    versions = [v for v in prepared.versions if version is None or v.name == version]
    if not prepared.versions:
        raise ValueError(f"CRD {prepared.name} has no versions")
    if not versions:
        names = ", ".join(v.name for v in prepared.versions)
        raise ValueError(f"CRD {prepared.name} has no version {version!r} (versions: {names})")
    out = []
    for v in versions:
        schema = to_json_schema(
            v.schema,
            group=prepared.group,
            version=v.name,
            kind=prepared.kind,
            crd_name=prepared.name,
            strict=strict,
            prunes=not prepared.preserve_unknown_fields,
            status_subresource=v.status_enabled,
        )
        out.append(ExportedSchema(f"{prepared.kind.lower()}_{v.name}.json", prepared.group, v.name, prepared.kind, schema))
    return out


def to_json_schema(
    openapi: Mapping[str, Any] | None,
    *,
    group: str,
    version: str,
    kind: str,
    crd_name: str = "",
    strict: bool = False,
    prunes: bool = True,
    status_subresource: bool = False,
) -> dict[str, Any]:
    """One version's ``openAPIV3Schema`` (structural, as decoded) as a JSON Schema 2020-12 document.

    In: the schema dict (None: a version without schema, which only a v1beta1
    CRD preserving unknown fields has), the resource's group, version and
    kind, the CRD's name for the description; ``strict`` closes objects
    (``additionalProperties: false``) where the apiserver prunes unknown
    fields; ``prunes`` is False for a v1beta1 CRD with
    ``preserveUnknownFields: true`` (nothing is pruned: objects stay open
    and nulls are not removed); ``status_subresource`` when the version has
    the status subresource. Out: the document (a new dict). See the module
    docstring for the rules.
    """
    api_version = f"{group}/{version}" if group else version
    ctx = _Context(strict=strict and prunes, prunes=prunes)
    root = _convert(dict(openapi or {"type": "object"}), ctx, role="root")
    root.pop("default", None)
    properties = dict(root.get("properties") or {})
    properties["apiVersion"] = {"type": "string", "const": api_version, **_described(properties.get("apiVersion"))}
    properties["kind"] = {"type": "string", "const": kind, **_described(properties.get("kind"))}
    properties.setdefault("metadata", {"type": "object"})
    if status_subresource:
        properties["status"] = {
            "description": "Written by controllers through the status subresource; the apiserver drops it on create."
        }
    required = [r for r in root.get("required", []) if r not in ("apiVersion", "kind")]
    out: dict[str, Any] = {
        "$schema": DRAFT_2020_12,
        "title": f"{kind} ({api_version})",
        "description": _root_description(root.get("description"), kind, api_version, crd_name),
    }
    for key, value in root.items():
        if key not in ("title", "description", "properties", "required", "type"):
            out[key] = value
    out["type"] = "object"
    out["properties"] = properties
    out["required"] = ["apiVersion", "kind", *required]
    # a key order that reads well: $schema, title, description, type, properties, required, the rest
    head = ("$schema", "title", "description", "type", "properties", "required")
    return {**{k: out[k] for k in head}, **{k: v for k, v in out.items() if k not in head}}


@dataclass(frozen=True)
class _Context:
    strict: bool
    prunes: bool


def _described(schema: Any) -> dict[str, Any]:
    if isinstance(schema, dict) and isinstance(schema.get("description"), str):
        return {"description": schema["description"]}
    return {}


def _root_description(own: Any, kind: str, api_version: str, crd_name: str) -> str:
    parts = [own] if isinstance(own, str) and own else []
    source = f" of CustomResourceDefinition {crd_name}" if crd_name else ""
    parts.append(f"JSON Schema (draft 2020-12) of {kind} {api_version}{source}, exported by crdtool from the "
                 f"version's structural schema. {NOT_EXPRESSIBLE}")
    return "\n\n".join(parts)


def _has_default(schema: Any) -> bool:
    return isinstance(schema, dict) and "default" in schema


def _convert(s: Mapping[str, Any], ctx: _Context, *, role: str = "", junctor: bool = False) -> dict[str, Any]:
    """One schema node (and what is below it) in JSON Schema 2020-12.

    ``role``: ``root``, ``metadata`` (the root's or an embedded resource's:
    never closed) or ``""``; ``junctor``: the node is inside
    allOf/anyOf/oneOf/not (value validation only: never closed, no nulls).
    """
    out: dict[str, Any] = {}
    for key in _COPIED:
        if key in s:
            out[key] = s[key]
    if "example" in s:
        out["examples"] = [s["example"]]
    schema_type = s.get("type") if isinstance(s.get("type"), str) and s.get("type") else None
    int_or_string = s.get("x-kubernetes-int-or-string") is True
    if int_or_string:
        out["anyOf"] = [dict(b) for b in _INT_OR_STRING]
    elif schema_type:
        out["type"] = schema_type
    fmt = s.get("format")
    if isinstance(fmt, str) and fmt:
        types = ("integer", "string") if int_or_string else ((schema_type,) if schema_type else ())
        if effective_format(types, fmt):
            out["format"] = fmt
    if isinstance(s.get("enum"), list):
        out["enum"] = list(s["enum"])
    _bounds(s, out)
    _pattern(s, out)

    properties = s.get("properties") if isinstance(s.get("properties"), dict) else None
    required = [r for r in s.get("required") or [] if isinstance(r, str)]
    if properties is not None:
        out["properties"] = {
            name: _property(child, ctx, required=name in required, role="metadata" if _is_metadata(name, role, s) else "",
                            junctor=junctor)
            for name, child in properties.items()
            if isinstance(child, dict)
        }
    required = [r for r in required if not _has_default((properties or {}).get(r))]
    if required:
        out["required"] = required
    additional = s.get("additionalProperties")
    preserve = s.get("x-kubernetes-preserve-unknown-fields") is True
    embedded = s.get("x-kubernetes-embedded-resource") is True
    if isinstance(additional, dict):
        out["additionalProperties"] = _property(additional, ctx, required=False, junctor=junctor)
    elif isinstance(additional, bool):
        out["additionalProperties"] = additional
    elif ctx.strict and not junctor and not preserve and role != "metadata" and (schema_type == "object" or role == "root"):
        if embedded:
            implicit = {"apiVersion": {"type": "string"}, "kind": {"type": "string"}, "metadata": {"type": "object"}}
            out["properties"] = {**implicit, **out.get("properties", {})}
        out["additionalProperties"] = False
    if isinstance(s.get("items"), dict):
        items = s["items"]
        out["items"] = _convert(items, ctx, junctor=junctor)
        if ctx.prunes and not junctor and "default" in items and items.get("nullable") is not True:
            # upstream Default (structuraldefaulting algorithm.go) fills null items from the items' default
            out["items"] = _accept_null(out["items"], user_junctors=_has_junctors(items), enum_applies=False)
    if s.get("x-kubernetes-list-type") == "set":
        out["uniqueItems"] = True
    for key in ("allOf", "anyOf", "oneOf"):
        branches = s.get(key)
        if isinstance(branches, list):
            converted = [_convert(b, ctx, junctor=True) for b in branches if isinstance(b, dict)]
            if key == "anyOf" and int_or_string:
                out["allOf"] = [*out.get("allOf", []), {"anyOf": converted}]
            elif key == "allOf" and "allOf" in out:
                out["allOf"] = [*out["allOf"], *converted]
            else:
                out[key] = converted
    if isinstance(s.get("not"), dict):
        out["not"] = _convert(s["not"], ctx, junctor=True)
    for key, value in s.items():
        if key.startswith("x-kubernetes-"):
            out[key] = value
    if s.get("nullable") is True and not junctor:
        enum = out.get("enum")
        if enum is None or None in enum:
            out = _accept_null(out, user_junctors=_has_junctors(s))
    return out


def _is_metadata(name: str, parent_role: str, parent: Mapping[str, Any]) -> bool:
    return name == "metadata" and (parent_role == "root" or parent.get("x-kubernetes-embedded-resource") is True)


def _property(child: Mapping[str, Any], ctx: _Context, *, required: bool, role: str = "", junctor: bool = False) -> dict[str, Any]:
    """A property (or additionalProperties value): its node, accepting null where the apiserver prunes or defaults it."""
    out = _convert(child, ctx, role=role, junctor=junctor)
    if junctor or not ctx.prunes or child.get("nullable") is True:
        return out
    if required and "default" not in child:
        return out  # a null is removed, then the field is missing: Required value
    return _accept_null(out, user_junctors=_has_junctors(child), enum_applies=False)


def _has_junctors(s: Mapping[str, Any]) -> bool:
    return any(k in s for k in _JUNCTORS)


def _accept_null(out: dict[str, Any], *, user_junctors: bool, enum_applies: bool = True) -> dict[str, Any]:
    """``out`` also accepting ``null``.

    ``enum_applies``: the null is validated (a nullable node, whose enum must
    list null for it to pass, see the caller); False: the null never reaches
    validation (pruned or defaulted), so neither enum nor junctors apply.
    """
    enum = out.get("enum")
    blocked_by_enum = enum is not None and None not in enum and not enum_applies
    if user_junctors or blocked_by_enum or ("allOf" in out or "oneOf" in out or "not" in out):
        return {"anyOf": [{"type": "null"}, out]}
    if "type" in out:
        types = out["type"] if isinstance(out["type"], list) else [out["type"]]
        if "null" not in types:
            out["type"] = [*types, "null"]
        return out
    if out.get("anyOf") == _INT_OR_STRING:
        out["anyOf"] = [*out["anyOf"], {"type": "null"}]
        return out
    if "anyOf" in out:
        return {"anyOf": [{"type": "null"}, out]}
    return out  # no type, no enum, no junctor: null already passes


def _pattern(s: Mapping[str, Any], out: dict[str, Any]) -> None:
    """``pattern`` as is when a common regex engine reads it (Python's ``re`` here, which, like ECMA-262,
    has no POSIX classes or ``\\p{..}``); otherwise it cannot be expressed and is left in a ``$comment``
    (dropping a constraint keeps every object the apiserver accepts accepted)."""
    import re

    pattern = s.get("pattern")
    if not isinstance(pattern, str):
        return
    try:
        re.compile(pattern)
        expressible = "[[:" not in pattern
    except (re.error, OverflowError, RecursionError):
        expressible = False
    if expressible:
        out["pattern"] = pattern
    else:
        out["$comment"] = f"RE2 pattern not expressible here (checked by the apiserver): {pattern}"


def _bounds(s: Mapping[str, Any], out: dict[str, Any]) -> None:
    """``minimum``/``maximum`` with OpenAPI 3.0's boolean exclusive flags as 2020-12's numeric keywords."""
    for bound, exclusive in (("minimum", "exclusiveMinimum"), ("maximum", "exclusiveMaximum")):
        value = s.get(bound)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            continue
        if s.get(exclusive) is True:
            out[exclusive] = value
        else:
            out[bound] = value
