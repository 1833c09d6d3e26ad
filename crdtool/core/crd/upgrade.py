"""Upgrade (or downgrade) a CRD manifest between apiextensions v1beta1 and v1.

Two layers:

* :func:`convert_crd` is exactly the apiserver's conversion (source-version
  ``SetDefaults``, conversion to the internal type, conversion to the target,
  written as ``json.Marshal`` writes it, Go zero values included);
  it is :func:`crdtool.core.crd.conversion.convert_crd`, re-exported.
* :func:`upgrade_crd` is that conversion plus the steps that make the result
  acceptable at the target version, each recorded as a :class:`Note`, and it
  keeps the manifest as close to what the author wrote as the conversion allows.

The pipeline of :func:`upgrade_crd`:

1. strict decoding (``decode.decode_crd``); a value of the wrong JSON type stops
   everything (nothing can be converted), the input comes back unchanged;
2. the conversion of the decoded manifest (``convert_crd_tidy``: ``convert_crd``
   without ``json.Marshal``'s zero values);
3. *minimal output*: fields the conversion filled from the source version's
   defaults are removed again when the target version defaults them to the
   same value and the author had not written them (``names.singular``,
   ``names.listKind``, ``conversion: {strategy: None}``, the webhook service
   ``port: 443``, ``status.storedVersions``). Defaults the target requires
   explicitly stay: ``scope`` and ``conversionReviewVersions`` (v1 has no
   default for them), ``versions`` made from ``version``, and for v1beta1
   ``preserveUnknownFields: false`` (v1beta1 defaults it to true) and
   ``spec.version`` (the first version, as the internal type has it);
4. target-specific steps: for v1 the "made-valid" steps (root
   ``x-kubernetes-preserve-unknown-fields: true`` where v1beta1 preserved
   unknown fields, a preserve-everything schema for versions without one, no
   ``preserveUnknownFields``); for v1beta1 warnings about what clusters serving
   v1beta1 cannot take;
5. with ``fix=True``, the mechanical repairs of :data:`FIX_RULES`, driven by the
   apiserver's own errors and repeated until nothing more can be repaired;
6. *reconciling* with the source: wherever a value survives unchanged the
   author's spelling is kept (``minimum: 1`` rather than ``1.0``, ``null``
   values, fields the Go types do not know), keys keep the source order, and
   new keys are placed next to their neighbours in the conversion's order;
7. validation of the result (``manifest.check_crd_manifest``): each remaining
   error becomes a "manual" note.

Round trips (pinned by ``tests/core/test_upgrade_corpus.py``):

* v1 -> v1beta1 -> v1 returns the same object, with two normalisations that
  only concern manifests v1 rejects or Go's zero values: an explicit
  ``preserveUnknownFields: false`` is dropped (the v1 field is a plain bool with
  ``omitempty``: false and absent are the same value, and the apiserver omits
  it); a v1 manifest with ``preserveUnknownFields: true`` or a version without
  a schema (both rejected by v1 validation) comes back with the v1 made-valid
  steps applied.
* v1beta1 -> v1 -> v1beta1 returns the defaulted original (v1beta1
  ``SetDefaults``; the comparison is between defaulted forms because step 3
  writes no default the author did not) except that (N0) top-level
  validation/subresources/columns/selectable fields replace per-version ones
  (v1beta1 forbids having both); (N1) ``preserveUnknownFields: true`` becomes
  false with ``x-kubernetes-preserve-unknown-fields: true`` at the root of
  every schema; (N2) a version without any schema gets ``{type: object,
  x-kubernetes-preserve-unknown-fields: true}``; (N3) per-version schemas,
  subresources, printer columns (and selectable fields, with the schema) that
  are identical in every version move to the top level, as the apiserver's v1
  to internal conversion does; (N4) ``spec.version`` becomes the first
  version's name (v1 has no ``spec.version``; v1beta1 requires them to match).

Why minimal output: the CLI reconciles the result onto the author's YAML, so
every key written is a line in the reviewer's diff. Defaults both versions
apply identically carry no information; they are left to the apiserver.

Notes on shared schemas: when every version of a v1 manifest has the same
schema, upstream validates it once as the internal ``spec.validation`` and
``check_crd_manifest`` reports it at ``spec.versions[0]``; a "manual" note
then stands for every version, while a repair is made (and noted) in each.

Upstream: apiextensions-apiserver ``pkg/apis/apiextensions/v1/conversion.go``,
``v1beta1/conversion.go`` (and the generated conversions), ``v1/defaults.go``,
``v1beta1/defaults.go``, ``pkg/apis/apiextensions/validation/validation.go``
and ``pkg/apiserver/schema/validation.go`` (``validateStructuralInvariants``,
``validateNestedValueValidation``, ``validateStructuralMetadataInvariants``).
"""

from __future__ import annotations

import datetime as _dt
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from crdtool.core.crd import types as T
from crdtool.core.crd.conversion import convert_crd, convert_crd_tidy
from crdtool.core.crd.decode import decode_crd
from crdtool.core.crd.defaults import DEFAULT_WEBHOOK_PORT, NONE_CONVERTER, go_to_lower
from crdtool.core.crd.manifest import Finding, check_crd_manifest, is_crd
from crdtool.core.errors import UNKNOWN_FIELD, UNMARSHAL_TYPE, FieldError

__all__ = [
    "CONVERTED",
    "FIXED",
    "FIX_RULES",
    "KINDS",
    "MADE_VALID",
    "MANUAL",
    "REJECTED_FIX_RULES",
    "WARNING",
    "Note",
    "convert_crd",
    "upgrade_crd",
]

#: A step of the apiserver's conversion (or a source default it makes explicit).
CONVERTED = "converted"
#: A step beyond the conversion that makes the result valid at the target version.
MADE_VALID = "made-valid"
#: A mechanical, unambiguous repair applied because ``fix=True``.
FIXED = "fixed"
#: A problem left for the author: the path and the apiserver's error text.
MANUAL = "manual"
#: Something the target version, or clusters serving it, cannot express.
WARNING = "warning"
KINDS = (CONVERTED, MADE_VALID, FIXED, MANUAL, WARNING)


@dataclass(frozen=True)
class Note:
    """One thing :func:`upgrade_crd` did, or could not do.

    Attributes:
        path: the field in the *result* manifest, in upstream notation
            (``spec.versions[0].schema.openAPIV3Schema.properties[spec].type``).
        change: what was changed there (``"added type: object"``); empty for a
            "manual" note, which changes nothing.
        reason: why. For a "manual" note the apiserver's error text after the
            path (``"Required value: must not be empty for specified object
            fields"``), so ``f"{path}: {reason}"`` is the apiserver's message.
        kind: one of :data:`KINDS`.
    """

    path: str
    change: str
    reason: str
    kind: str


#: The repairs ``fix=True`` applies, each only where the apiserver reports the error it repairs.
FIX_RULES = (
    ("type: object where the type is missing beside properties or additionalProperties, or where "
     "x-kubernetes-embedded-resource or x-kubernetes-map-type demand an object"),
    ("type: array where the type is missing beside items, or where x-kubernetes-list-type demands an array "
     "(not for a list map without items)"),
    ("the one type upstream allows where it is missing: object at the root and for metadata, string for "
     "kind and apiVersion (of the root or an embedded resource), object for list-map items that have properties"),
    ("x-kubernetes-int-or-string: true where the type is missing and anyOf is exactly "
     "[{type: integer}, {type: string}] (in either order; reordered to the order upstream recognises)"),
    ("the type shared by every anyOf/oneOf branch (or given by an allOf branch) where the type is missing, "
     "for scalar types only and when no branch is nullable"),
    "the type of an enum whose values are all strings, all booleans, all integers or all numbers",
    ("x-kubernetes-preserve-unknown-fields: true where the type is missing and nothing else says what "
     "the value is (the exact meaning of a schema without a type: any value, kept as it is)"),
    ("items: {x-kubernetes-preserve-unknown-fields: true} for type: array without items (any element), "
     "except for list maps and beside junctors"),
    ("inside anyOf/allOf/oneOf/not: removal of description, title and default (never used by validation "
     "or defaulting), of a type equal to the type at the same place outside the junctor (redundant), of "
     "nullable once no type is left, of x-kubernetes-* extensions and additionalProperties equal to the "
     "ones outside (redundant), of x-kubernetes-preserve-unknown-fields: false -- applied only when every "
     "problem under that node's junctors is repairable"),
    "x-kubernetes-preserve-unknown-fields: false removed (false and absent are the same value)",
    "nullable removed at the root (the object itself is never null)",
    ("root metadata schema reduced to what v1 allows (type, default, properties name/generateName): "
     "the removed restrictions are no longer enforced"),
    "unknown fields removed (the apiserver drops them unless field validation is Strict)",
)

#: Repairs considered and rejected, with the reason.
REJECTED_FIX_RULES = (
    ("type: object together with x-kubernetes-preserve-unknown-fields alone: upstream accepts a schema "
     "with x-kubernetes-preserve-unknown-fields and no type, and a type would reject non-object values"),
    ("hoisting object/array types out of junctor branches: the structural node would then prune every "
     "field the branches describe"),
    ("type: object or array for items of an x-kubernetes-list-type: set array: they must then also be "
     "x-kubernetes-map-type/list-type atomic, a merge-semantics choice"),
    "list-map keys without default or required: which default, or making it required, is the author's choice",
    ("additionalProperties at the root, properties beside additionalProperties, $ref/definitions/"
     "patternProperties/dependencies/additionalItems/id, uniqueItems: no equivalent structural form"),
    ("junctor branches with structure (properties, items) missing outside the junctor: the structural "
     "schema would have to merge the branches, which is a design decision"),
    "x-kubernetes-validations or metadata inside junctors: rules the author must move on purpose",
    "x-kubernetes-list-map-keys without x-kubernetes-list-type: map: changes merge and uniqueness semantics",
    ("descriptions inside a junctor whose other problems need the author: kept, as material for the rewrite "
     "(the manual count of CRDs is the same either way)"),
)

_SCALAR_TYPES = frozenset({"string", "integer", "number", "boolean"})
_JUNCTORS = ("allOf", "anyOf", "oneOf")
_MOVED_V1BETA1 = ("validation", "subresources", "additionalPrinterColumns", "selectableFields")
_VERSION_KEY = {
    "validation": "schema",
    "subresources": "subresources",
    "additionalPrinterColumns": "additionalPrinterColumns",
    "selectableFields": "selectableFields",
}
_MAP_PARENTS = frozenset({"properties", "patternProperties", "definitions", "dependencies", "annotations", "labels"})
_MAX_FIX_ROUNDS = 8
_INT_OR_STRING = [{"type": "integer"}, {"type": "string"}]


# --- entry point ------------------------------------------------------------------------


def upgrade_crd(crd: dict[str, Any], to: str, *, fix: bool = False) -> tuple[dict[str, Any], list[Note]]:
    """Convert a CRD manifest to ``to`` and make it valid there, noting every step.

    Args:
        crd: a parsed CRD manifest (plain JSON-like data; never mutated).
        to: ``"v1"``, ``"v1beta1"`` or the full ``apiextensions.k8s.io/...``.
        fix: also apply the mechanical, unambiguous repairs of :data:`FIX_RULES`.

    Returns:
        ``(result, notes)``. ``result`` is a new plain dict (no sub-object is
        shared with ``crd`` or within itself) in the source's key order, new
        keys placed beside their neighbours. ``notes`` lists the conversion
        steps, the made-valid steps, repairs, warnings and, last, one "manual"
        note per error ``check_crd_manifest`` still finds in ``result``.
        Anything that is not a v1/v1beta1 CRD, and a CRD already at ``to``,
        comes back as an unchanged copy without notes. A manifest with a value
        of the wrong JSON type comes back unchanged with the decoding error as
        a "manual" note.

    Raises:
        ValueError: ``to`` names no CRD version.

    Mirrors the apiserver's conversion (``convert_crd``) and create validation
    (``check_crd_manifest``); see the module docstring for the steps between.
    """
    target = _target(to)
    if not is_crd(crd) or crd.get("apiVersion") == target:
        return _plain(crd) if isinstance(crd, dict) else {}, []
    decoded, decode_errors = decode_crd(crd)
    type_errors = [e for e in decode_errors if e.type == UNMARSHAL_TYPE]
    if type_errors:
        return _plain(crd), [_manual(e) for e in type_errors]

    result = _plain(convert_crd_tidy(decoded, target))
    dview = _source_view(decoded, result, target)
    rview = _source_view(crd, result, target)
    notes = _conversion_notes(decoded, result, target)
    _minimise_defaults(result, dview)
    if target == T.V1:
        notes.extend(_make_valid_v1(result, decoded))
    else:
        notes.extend(_v1beta1_warnings(result))
    findings = None
    if fix:
        fix_notes, findings = _fix(result, target)
        notes.extend(fix_notes)
    out, dropped = _reconcile(result, dview, rview, drop_unknown=fix)
    notes.extend(dropped)
    if findings is None:
        findings = check_crd_manifest(out, storage=False).findings
    notes.extend(_manual(f.error) for f in findings)
    return out, notes


def _target(to: str) -> str:
    target = to if isinstance(to, str) and "/" in to else f"{T.GROUP}/{to}"
    if target not in (T.V1, T.V1BETA1):
        raise ValueError(f"cannot convert a CustomResourceDefinition to {to!r}: want v1 or v1beta1")
    return target


def _manual(err: FieldError) -> Note:
    return Note(err.field, "", err.body(), MANUAL)


# --- plain copies -----------------------------------------------------------------------


def _plain(value: Any) -> Any:
    """A deep copy made of plain dicts, lists and JSON scalars; iterative, shares nothing."""
    root: list[Any] = [None]
    stack: list[tuple[Any, Any, Any]] = [(value, root, 0)]
    while stack:
        src, holder, slot = stack.pop()
        if isinstance(src, dict):
            dst: dict[Any, Any] = {}
            holder[slot] = dst
            for k, v in src.items():
                dst[k] = None
                stack.append((v, dst, k))
        elif isinstance(src, (list, tuple)):
            lst: list[Any] = [None] * len(src)
            holder[slot] = lst
            stack.extend((v, lst, i) for i, v in enumerate(src))
        else:
            holder[slot] = _scalar(src)
    return root[0]


def _scalar(v: Any) -> Any:
    if v is None or type(v) in (str, int, float, bool):
        return v
    if isinstance(v, bool):
        return bool(v)
    if isinstance(v, str):
        return str(v)
    if isinstance(v, int):
        return int(v)
    if isinstance(v, float):
        return float(v)
    if isinstance(v, (_dt.datetime, _dt.date)):
        return v.isoformat()
    return v


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _insert(node: dict[str, Any], key: str, value: Any, *, after: tuple[str, ...] = (), before: tuple[str, ...] = ()) -> None:
    """Set ``node[key]`` in place: after the last present key of ``after``, else before the first of ``before``."""
    if key in node:
        node[key] = value
        return
    items = list(node.items())
    pos = len(items)
    keys = [k for k, _ in items]
    anchors = [keys.index(k) for k in after if k in node]
    if anchors:
        pos = max(anchors) + 1
    else:
        following = [keys.index(k) for k in before if k in node]
        if following:
            pos = min(following)
    items.insert(pos, (key, value))
    node.clear()
    node.update(items)


# --- the source, seen in the target's layout --------------------------------------------


def _source_view(doc: dict[str, Any], result: dict[str, Any], target: str) -> dict[str, Any]:
    """``doc`` (the source manifest, raw or decoded) with its parts where the conversion puts them.

    No copy is made: the view holds the source's own sub-objects, in the
    source's key order, so that unknown fields and nulls stay visible. Only
    renamed or moved fields are rebuilt: v1beta1 -> v1 copies the top-level
    ``validation``/``subresources``/``additionalPrinterColumns``/
    ``selectableFields`` into every version (as
    ``Convert_apiextensions_CustomResourceDefinitionSpec_To_v1_...`` does), turns
    a lone ``version`` into ``versions`` and ``webhookClientConfig``/
    ``conversionReviewVersions`` into ``webhook``; v1 -> v1beta1 moves the
    per-version fields the result has at the top level out of the versions.
    Columns rename ``JSONPath``/``jsonPath``.
    """
    spec = doc.get("spec")
    if not isinstance(spec, dict):
        return doc
    out = dict(doc)
    if target == T.V1:
        out["spec"] = _spec_view_v1(spec)
    else:
        out["spec"] = _spec_view_v1beta1(spec, _dict(result.get("spec")))
    return out


def _spec_view_v1(spec: dict[str, Any]) -> dict[str, Any]:
    top = {k: spec[k] for k in _MOVED_V1BETA1 if spec.get(k) is not None}
    has_versions = bool(_list(spec.get("versions")))
    out: dict[str, Any] = {}
    for key, value in spec.items():
        if key in _MOVED_V1BETA1:
            continue
        if key == "version":
            if not has_versions and value:
                out["versions"] = [_version_view_v1({"name": value, "served": True, "storage": True}, top)]
            continue
        if key == "versions":
            if has_versions:
                out[key] = [_version_view_v1(v, top) if isinstance(v, dict) else v for v in value]
            continue
        if key == "conversion" and isinstance(value, dict):
            out[key] = _conversion_view_v1(value)
            continue
        out[key] = value
    return out


#: Field order of upstream's v1 ``CustomResourceDefinitionVersion`` (the order Go's encoding/json writes).
_V1_VERSION_FIELDS = ("name", "served", "storage", "deprecated", "deprecationWarning", "schema", "subresources",
                      "additionalPrinterColumns", "selectableFields")


def _version_view_v1(version: dict[str, Any], top: dict[str, Any]) -> dict[str, Any]:
    """A version entry with the top-level fields copied in, each placed before the first of the entry's own
    keys that follows it in upstream's field order (so that a v1 -> v1beta1 -> v1 round trip, whose v1beta1
    entries kept some per-version fields, gives every entry its keys back in the usual order)."""
    out = {k: (_columns_view(v, "JSONPath", "jsonPath") if k == "additionalPrinterColumns" else v) for k, v in version.items()}
    for key, value in top.items():
        name = _VERSION_KEY[key]
        out.pop(name, None)
        out = _insert_in_field_order(
            out, name, _columns_view(value, "JSONPath", "jsonPath") if key == "additionalPrinterColumns" else value
        )
    return out


def _insert_in_field_order(entry: dict[str, Any], name: str, value: Any) -> dict[str, Any]:
    rank = {k: i for i, k in enumerate(_V1_VERSION_FIELDS)}
    keys = list(entry)
    at = len(keys)
    for i, k in enumerate(keys):
        if k in rank and rank[k] > rank[name]:
            at = i
            break
    keys.insert(at, name)
    merged = dict(entry)
    merged[name] = value
    return {k: merged[k] for k in keys}


def _conversion_view_v1(conversion: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    webhook: dict[str, Any] = {}
    for key, value in conversion.items():
        if key in ("webhookClientConfig", "conversionReviewVersions"):
            webhook["clientConfig" if key == "webhookClientConfig" else key] = value
            out.setdefault("webhook", webhook)
        else:
            out[key] = value
    return out


def _spec_view_v1beta1(spec: dict[str, Any], result_spec: dict[str, Any]) -> dict[str, Any]:
    hoisted = [k for k in _MOVED_V1BETA1 if k in result_spec]
    out: dict[str, Any] = {}
    for key, value in spec.items():
        if key == "versions" and isinstance(value, list):
            first = value[0] if value and isinstance(value[0], dict) else {}
            for k in ("validation", "subresources"):
                if k in hoisted and first.get(_VERSION_KEY[k]) is not None:
                    out[k] = first[_VERSION_KEY[k]]
            dropped = {_VERSION_KEY[k] for k in hoisted}
            out[key] = [
                {
                    k: (_columns_view(x, "jsonPath", "JSONPath") if k == "additionalPrinterColumns" else x)
                    for k, x in v.items()
                    if k not in dropped
                }
                if isinstance(v, dict)
                else v
                for v in value
            ]
            for k in ("additionalPrinterColumns", "selectableFields"):
                if k in hoisted and first.get(k) is not None:
                    out[k] = _columns_view(first[k], "jsonPath", "JSONPath") if k == "additionalPrinterColumns" else first[k]
            continue
        if key == "conversion" and isinstance(value, dict):
            out[key] = _conversion_view_v1beta1(value)
            continue
        out[key] = value
    return out


def _conversion_view_v1beta1(conversion: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in conversion.items():
        if key == "webhook" and isinstance(value, dict):
            for k, v in value.items():
                out["webhookClientConfig" if k == "clientConfig" else k] = v
        else:
            out[key] = value
    return out


def _columns_view(columns: Any, src: str, dst: str) -> Any:
    if not isinstance(columns, list):
        return columns
    return [{(dst if k == src else k): v for k, v in c.items()} if isinstance(c, dict) else c for c in columns]


# --- notes on the conversion ------------------------------------------------------------


def _conversion_notes(source: dict[str, Any], result: dict[str, Any], target: str) -> list[Note]:
    """One "converted" note per field the apiserver's conversion moves, renames or makes explicit."""
    spec = _dict(source.get("spec"))
    rspec = _dict(result.get("spec"))
    frm = str(source.get("apiVersion"))
    notes = [Note("apiVersion", f"{frm} -> {target}", "the target version of the manifest", CONVERTED)]
    if target == T.V1:
        notes.extend(_notes_to_v1(spec, rspec))
    else:
        notes.extend(_notes_to_v1beta1(spec, rspec))
    return notes


def _notes_to_v1(spec: dict[str, Any], rspec: dict[str, Any]) -> Iterator[Note]:
    conv = "v1 Convert_apiextensions_CustomResourceDefinitionSpec_To_v1_CustomResourceDefinitionSpec"
    if not spec.get("scope"):
        yield Note("spec.scope", "set to Namespaced", "the v1beta1 default, made explicit: v1 requires spec.scope", CONVERTED)
    if spec.get("version"):
        first = _dict(_list(rspec.get("versions"))[0]).get("name") if _list(rspec.get("versions")) else None
        change = "removed" if first in (None, spec["version"]) else f"removed ({spec['version']!r}; the first version is {first!r})"
        yield Note("spec.version", change, "v1 has no spec.version: the first entry of spec.versions plays its part "
                   "(v1beta1 requires the two to match)", CONVERTED)
        if not _list(spec.get("versions")):
            yield Note(
                "spec.versions",
                f"created as [{{name: {spec['version']}, served: true, storage: true}}]",
                "v1beta1 SetDefaults_CustomResourceDefinitionSpec makes the one version from spec.version; v1 requires spec.versions",
                CONVERTED,
            )
    versions = _list(rspec.get("versions"))
    for key in _MOVED_V1BETA1:
        if spec.get(key) is None:
            continue
        extra = ", JSONPath renamed jsonPath" if key == "additionalPrinterColumns" else ""
        for i in range(len(versions)):
            yield Note(f"spec.versions[{i}].{_VERSION_KEY[key]}", f"copied from spec.{key}{extra}",
                       f"v1 has per-version fields only ({conv})", CONVERTED)
    for i, version in enumerate(_list(spec.get("versions"))):
        if isinstance(version, dict) and _list(version.get("additionalPrinterColumns")):
            yield Note(f"spec.versions[{i}].additionalPrinterColumns", "JSONPath renamed jsonPath",
                       "the v1 name of the field (zz_generated.conversion.go)", CONVERTED)
    conversion = _dict(spec.get("conversion"))
    if conversion.get("webhookClientConfig") is not None:
        yield Note("spec.conversion.webhook.clientConfig", "moved from spec.conversion.webhookClientConfig",
                   "v1 Convert_apiextensions_CustomResourceConversion_To_v1_CustomResourceConversion", CONVERTED)
    if conversion.get("conversionReviewVersions") is not None:
        yield Note("spec.conversion.webhook.conversionReviewVersions", "moved from spec.conversion.conversionReviewVersions",
                   "v1 Convert_apiextensions_CustomResourceConversion_To_v1_CustomResourceConversion", CONVERTED)
    elif conversion.get("strategy") == "Webhook":
        yield Note("spec.conversion.webhook.conversionReviewVersions", 'set to ["v1beta1"]',
                   "the v1beta1 default, made explicit: v1 requires conversionReviewVersions for a webhook", CONVERTED)
    if spec.get("preserveUnknownFields") is False:
        yield Note("spec.preserveUnknownFields", "removed (was false)",
                   "false is v1's default and only accepted value; the field is deprecated in v1", CONVERTED)


def _notes_to_v1beta1(spec: dict[str, Any], rspec: dict[str, Any]) -> Iterator[Note]:
    conv = "v1 Convert_v1_CustomResourceDefinitionSpec_To_apiextensions_CustomResourceDefinitionSpec"
    if rspec.get("version"):
        yield Note("spec.version", f"set to {rspec['version']}", "the first version, as the internal type keeps it", CONVERTED)
    for key in _MOVED_V1BETA1:
        if key in rspec:
            yield Note(f"spec.{key}", f"moved from spec.versions[*].{_VERSION_KEY[key]}",
                       f"identical in every version, so top-level ({conv})", CONVERTED)
    columns = [_list(rspec.get("additionalPrinterColumns"))]
    columns.extend(_list(_dict(v).get("additionalPrinterColumns")) for v in _list(rspec.get("versions")))
    if any(columns):
        yield Note("spec.additionalPrinterColumns", "jsonPath renamed JSONPath",
                   "the v1beta1 name of the field (zz_generated.conversion.go)", CONVERTED)
    webhook = _dict(_dict(spec.get("conversion")).get("webhook"))
    if webhook.get("clientConfig") is not None:
        yield Note("spec.conversion.webhookClientConfig", "moved from spec.conversion.webhook.clientConfig",
                   "v1 Convert_v1_CustomResourceConversion_To_apiextensions_CustomResourceConversion", CONVERTED)
    if webhook.get("conversionReviewVersions") is not None:
        yield Note("spec.conversion.conversionReviewVersions", "moved from spec.conversion.webhook.conversionReviewVersions",
                   "v1 Convert_v1_CustomResourceConversion_To_apiextensions_CustomResourceConversion", CONVERTED)
    if rspec.get("preserveUnknownFields") is False and spec.get("preserveUnknownFields") is not False:
        yield Note("spec.preserveUnknownFields", "set to false",
                   "v1beta1 defaults it to true (no pruning); v1 always prunes, so false keeps the meaning", CONVERTED)


# --- minimal output -----------------------------------------------------------------------


def _minimise_defaults(result: dict[str, Any], view: dict[str, Any]) -> None:
    """Drop, in place, defaults the conversion wrote that the author had not and the target sets anyway.

    ``view`` is the decoded source in the target's layout. Both versions'
    ``SetDefaults`` give ``names.singular``/``listKind``, ``conversion.strategy:
    None``, the webhook service ``port: 443`` and ``status.storedVersions``.
    """
    spec, vspec = _dict(result.get("spec")), _dict(view.get("spec"))
    names, vnames = _dict(spec.get("names")), _dict(vspec.get("names"))
    kind = names.get("kind") if isinstance(names.get("kind"), str) else ""
    if "singular" not in vnames and kind and names.get("singular") == go_to_lower(kind):
        del names["singular"]
    if "listKind" not in vnames and kind and names.get("listKind") == kind + "List":
        del names["listKind"]
    if "conversion" not in vspec and spec.get("conversion") == {"strategy": NONE_CONVERTER}:
        del spec["conversion"]
    for chain in (("conversion", "webhook", "clientConfig", "service"), ("conversion", "webhookClientConfig", "service")):
        service, vservice = _walk(spec, chain), _walk(vspec, chain)
        if service.get("port") == DEFAULT_WEBHOOK_PORT and "port" not in vservice:
            del service["port"]
    status, vstatus = _dict(result.get("status")), _dict(view.get("status"))
    if "storedVersions" in status and not vstatus.get("storedVersions"):
        if "storedVersions" in vstatus:
            status["storedVersions"] = vstatus["storedVersions"]
        else:
            del status["storedVersions"]
        if not status and "status" not in view:
            del result["status"]


def _walk(node: dict[str, Any], chain: tuple[str, ...]) -> dict[str, Any]:
    for key in chain:
        node = _dict(node.get(key))
    return node


# --- v1: made valid -------------------------------------------------------------------------


def _make_valid_v1(result: dict[str, Any], source: dict[str, Any]) -> list[Note]:
    """The steps that make a converted v1beta1 CRD acceptable as v1, in place.

    v1 rejects ``spec.preserveUnknownFields: true`` (``validatePreserveUnknownFields``:
    "cannot set to true, set x-kubernetes-preserve-unknown-fields to true in
    spec.versions[*].schema instead") and requires a schema for every version
    (``requireOpenAPISchema``: ``spec.versions[i].schema.openAPIV3Schema: Required value``). Where v1beta1 kept unknown
    fields (``preserveUnknownFields`` true, which is its default), the root of each
    schema gets ``x-kubernetes-preserve-unknown-fields: true``.
    """
    notes: list[Note] = []
    spec = _dict(result.get("spec"))
    preserving = spec.get("preserveUnknownFields") is True
    explicit = _dict(source.get("spec")).get("preserveUnknownFields") is True
    for i, version in enumerate(_list(spec.get("versions"))):
        if not isinstance(version, dict):
            continue
        path = f"spec.versions[{i}].schema"
        schema = version.get("schema")
        root = schema.get("openAPIV3Schema") if isinstance(schema, dict) else None
        if not isinstance(root, dict):
            new_root = {"type": "object", "x-kubernetes-preserve-unknown-fields": True}
            if isinstance(schema, dict):
                schema["openAPIV3Schema"] = new_root
            else:
                _insert(version, "schema", {"openAPIV3Schema": new_root}, after=("name", "served", "storage", "deprecated", "deprecationWarning"))
            notes.append(Note(
                f"{path}.openAPIV3Schema", "added {type: object, x-kubernetes-preserve-unknown-fields: true}",
                "v1 requires a schema for every version; this one accepts any object "
                "and keeps every field, as v1beta1 did without a schema",
                MADE_VALID,
            ))
            continue
        if preserving and root.get("x-kubernetes-preserve-unknown-fields") is not True:
            _insert(root, "x-kubernetes-preserve-unknown-fields", True, after=("type",), before=("properties", "additionalProperties", "items"))
            why = "spec.preserveUnknownFields was true" + ("" if explicit else " (the v1beta1 default)")
            notes.append(Note(
                f"{path}.openAPIV3Schema.x-kubernetes-preserve-unknown-fields", "set to true",
                f"{why}: v1beta1 kept unknown fields; v1 prunes them. This keeps unknown top-level fields; nested "
                "objects that specify properties are now pruned unless they set it too. Tighten it when you can",
                MADE_VALID,
            ))
    if "preserveUnknownFields" in spec and spec["preserveUnknownFields"] is not False:
        del spec["preserveUnknownFields"]
        notes.append(Note(
            "spec.preserveUnknownFields", "removed (was true" + ("" if explicit else " by default") + ")",
            "v1 rejects true: \"cannot set to true, set x-kubernetes-preserve-unknown-fields to true in "
            "spec.versions[*].schema instead\"",
            MADE_VALID,
        ))
    return notes


# --- v1beta1: warnings ------------------------------------------------------------------------


def _v1beta1_warnings(result: dict[str, Any]) -> list[Note]:
    """What a v1beta1 manifest cannot carry to the clusters that serve v1beta1 (Kubernetes <= 1.21)."""
    notes = [Note(
        "apiVersion", "apiextensions.k8s.io/v1beta1",
        "Kubernetes 1.22 and later do not serve apiextensions.k8s.io/v1beta1 CustomResourceDefinitions",
        WARNING,
    )]
    for path, root in _schema_roots(result, T.V1BETA1):
        defaults: list[str] = []
        rules = 0
        for p, node in _walk_schema(root, path):
            if node.get("default") is not None:
                defaults.append(p)
            if node.get("x-kubernetes-validations"):
                rules += 1
        if defaults:
            shown = ", ".join(p + ".default" for p in defaults[:3])
            more = f" and {len(defaults) - 3} more" if len(defaults) > 3 else ""
            notes.append(Note(
                path, f"{len(defaults)} default value(s) kept: {shown}{more}",
                "the v1beta1 API of Kubernetes 1.16-1.21 rejects defaults on create (\"default: Forbidden: must not "
                "be set\": validation.go allowDefaults is false for v1beta1 requests); create the CRD through v1",
                WARNING,
            ))
        if rules:
            notes.append(Note(
                path, f"{rules} schema(s) with x-kubernetes-validations kept",
                "CEL validation rules came with Kubernetes 1.23, after the last release that serves v1beta1: "
                "those clusters drop and do not enforce them",
                WARNING,
            ))
    spec = _dict(result.get("spec"))
    fields = [spec.get("selectableFields")] + [_dict(v).get("selectableFields") for v in _list(spec.get("versions"))]
    if any(fields):
        notes.append(Note(
            "spec.selectableFields", "kept",
            "selectable fields came with Kubernetes 1.30; clusters that serve v1beta1 drop them",
            WARNING,
        ))
    return notes


def _schema_roots(doc: dict[str, Any], target: str) -> list[tuple[str, dict[str, Any]]]:
    """``(path, openAPIV3Schema)`` of every schema in a manifest of version ``target``."""
    spec = _dict(doc.get("spec"))
    roots: list[tuple[str, dict[str, Any]]] = []
    if target == T.V1BETA1:
        root = _dict(spec.get("validation")).get("openAPIV3Schema")
        if isinstance(root, dict):
            roots.append(("spec.validation.openAPIV3Schema", root))
    for i, version in enumerate(_list(spec.get("versions"))):
        root = _dict(_dict(version).get("schema")).get("openAPIV3Schema")
        if isinstance(root, dict):
            roots.append((f"spec.versions[{i}].schema.openAPIV3Schema", root))
    return roots


def _walk_schema(root: dict[str, Any], path: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every schema node under ``root`` with its upstream path (iterative, preorder)."""
    stack: list[tuple[str, dict[str, Any]]] = [(path, root)]
    while stack:
        p, node = stack.pop()
        yield p, node
        children: list[tuple[str, dict[str, Any]]] = []
        for key in ("properties", "patternProperties", "definitions"):
            sub_schemas = node.get(key)
            if isinstance(sub_schemas, dict):
                children.extend((f"{p}.{key}[{name}]", sub) for name, sub in sub_schemas.items() if isinstance(sub, dict))
        items = node.get("items")
        if isinstance(items, dict):
            children.append((f"{p}.items", items))
        elif isinstance(items, list):
            children.extend((f"{p}.items[{i}]", s) for i, s in enumerate(items) if isinstance(s, dict))
        for key in ("additionalProperties", "additionalItems", "not"):
            if isinstance(node.get(key), dict):
                children.append((f"{p}.{key}", node[key]))
        for key in _JUNCTORS:
            children.extend((f"{p}.{key}[{i}]", s) for i, s in enumerate(_list(node.get(key))) if isinstance(s, dict))
        stack.extend(reversed(children))


# --- fixes ------------------------------------------------------------------------------------


@dataclass
class _Entry:
    """A schema node of the result, as the apiserver's error paths name it."""

    node: dict[str, Any]
    path: str
    #: the structural node this node constrains (the node itself outside junctors), or None
    counterpart: dict[str, Any] | None
    #: inside a junctor: the path of the structural node that owns the outermost junctor
    owner: str | None
    #: the only type upstream allows here, if any: "object" for the root and for ``metadata``
    #: of the root or of an embedded resource, "string" for their ``kind`` and ``apiVersion``
    required_type: str | None = None
    #: the root's ``metadata`` (which may only restrict name and generateName)
    is_root_metadata: bool = False
    #: items of an ``x-kubernetes-list-type: set`` array (objects and arrays there must be atomic)
    set_item: bool = False
    #: items of an ``x-kubernetes-list-type: map`` array (which must be objects)
    map_item: bool = False
    is_root: bool = False


_Action = tuple[str, str, Any]  # (node path, operation, argument)
_META_TYPES = {"metadata": "object", "kind": "string", "apiVersion": "string"}


def _index(doc: dict[str, Any], target: str) -> dict[str, _Entry]:
    """Every schema node of ``doc`` by its upstream path, with what the fixes need to know about it."""
    index: dict[str, _Entry] = {}
    for root_path, root in _schema_roots(doc, target):
        index[root_path] = _Entry(root, root_path, root, None, "object", is_root=True)
        stack: list[tuple[dict[str, Any], str, dict[str, Any] | None, str | None, bool]] = [
            (root, root_path, root, None, True)
        ]
        while stack:
            node, p, cp, owner, structural = stack.pop()
            meta_level = structural and (p == root_path or bool(node.get("x-kubernetes-embedded-resource")))
            for name, sub in _dict(node.get("properties")).items():
                if not isinstance(sub, dict):
                    continue
                sub_path = f"{p}.properties[{name}]"
                sub_cp = sub if structural else _dict(_dict(_dict(cp).get("properties")).get(name)) or None
                entry = _Entry(sub, sub_path, sub_cp, owner)
                if meta_level and name in _META_TYPES:
                    entry.required_type = _META_TYPES[name]
                    entry.is_root_metadata = p == root_path and name == "metadata"
                index[sub_path] = entry
                stack.append((sub, sub_path, sub_cp, owner, structural))
            for key in ("items", "additionalProperties"):
                sub = node.get(key)
                if not isinstance(sub, dict):
                    continue
                sub_path = f"{p}.{key}"
                sub_cp = sub if structural else (_dict(cp).get(key) if isinstance(_dict(cp).get(key), dict) else None)
                entry = _Entry(sub, sub_path, sub_cp, owner)
                if key == "items" and structural:
                    list_type = node.get("x-kubernetes-list-type")
                    entry.map_item = list_type == "map"
                    entry.set_item = list_type == "set"
                index[sub_path] = entry
                stack.append((sub, sub_path, sub_cp, owner, structural))
            junctor_owner = p if structural else owner
            branches = [(f"{p}.{key}[{i}]", sub) for key in _JUNCTORS for i, sub in enumerate(_list(node.get(key)))]
            if "not" in node:
                branches.append((f"{p}.not", node["not"]))
            for sub_path, sub in branches:
                if isinstance(sub, dict):
                    index[sub_path] = _Entry(sub, sub_path, cp, junctor_owner)
                    stack.append((sub, sub_path, cp, junctor_owner, False))
    return index


def _fix(doc: dict[str, Any], target: str) -> tuple[list[Note], tuple[Finding, ...] | None]:
    """Apply the repairs of :data:`FIX_RULES` in place, round after round, as long as any applies.

    Returns the notes and the findings of the final state (None when the
    rounds ran out), which are those of the reconciled manifest too: with
    ``fix`` it decodes to ``doc`` exactly (unknown fields are dropped, nulls
    are absent values).
    """
    notes: list[Note] = []
    for _ in range(_MAX_FIX_ROUNDS):
        findings = check_crd_manifest(doc, storage=False).findings
        index = _index(doc, target)
        actions = _plan(findings, index, doc, target)
        if not actions:
            return notes, findings
        for path, op, arg in actions:
            notes.extend(_apply(index[path], op, arg))
    return notes, None


def _plan(findings: tuple[Finding, ...], index: dict[str, _Entry], doc: dict[str, Any], target: str) -> list[_Action]:
    """The repairs for this round's errors; junctor repairs only for owners whose every problem is repairable."""
    structural: list[_Action] = []
    nested: dict[str, list[_Action]] = {}
    blocked: set[str] = set()
    for finding in findings:
        err: FieldError = finding.error
        if err.type == UNKNOWN_FIELD:
            continue  # handled while reconciling with the source
        for path in _equivalent_paths(err.field, finding.upstream_field, doc, target):
            blocked.update(_completeness_owner(err, path, index))
            entry, name = _locate(path, index)
            if entry is None:
                continue
            if entry.owner is not None:
                action = _nested_action(entry, name, err)
                if action is None:
                    blocked.add(entry.owner)
                else:
                    nested.setdefault(entry.owner, []).append(action)
                continue
            action = _structural_action(entry, name, err)
            if action is not None:
                structural.append(action)
    planned = _dedupe(structural + [a for owner, acts in nested.items() if owner not in blocked for a in acts])
    # Cleaning the root metadata removes whatever else was planned inside it.
    cleaned = [a[0] + "." for a in planned if a[1] == "metadata"]
    return [a for a in planned if not any(a[0].startswith(c) for c in cleaned)]


def _dedupe(actions: list[_Action]) -> list[_Action]:
    """Drop repeated actions; two different repairs of the same field cancel each other."""
    seen: dict[tuple[str, str], _Action] = {}
    conflicting: set[tuple[str, str]] = set()
    for action in actions:
        key = (action[0], _target_field(action))
        if key in seen and seen[key] != action:
            conflicting.add(key)
        seen.setdefault(key, action)
    return [a for k, a in seen.items() if k not in conflicting]


def _target_field(action: _Action) -> str:
    op = action[1]
    if op in ("set_type", "int_or_string", "preserve"):
        return "type"
    if op == "drop":
        return str(action[2])
    return op


def _equivalent_paths(field: str, upstream: str | None, doc: dict[str, Any], target: str) -> list[str]:
    """Upstream reports a schema shared by every version once; the result repeats it in each version."""
    if target != T.V1 or not upstream or not upstream.startswith("spec.validation"):
        return [field]
    prefix = "spec.versions[0]."
    if not field.startswith(prefix):
        return [field]
    versions = _list(_dict(doc.get("spec")).get("versions"))
    return [f"spec.versions[{i}].{field[len(prefix):]}" for i in range(len(versions))]


def _locate(path: str, index: dict[str, _Entry]) -> tuple[_Entry | None, str]:
    """The indexed node an error path names (``X`` itself, or ``X.<field>``) and the field name."""
    if path in index:
        return index[path], ""
    head, _, name = path.rpartition(".")
    entry = index.get(head)
    if entry is not None:
        return entry, name
    # A path deeper than the index (e.g. items given as a list): blame the nearest indexed ancestor.
    while head:
        head, _, _ = head.rpartition(".")
        if head in index:
            return index[head], "?"
    return None, ""


_DEFINED_IN = re.compile(r"^because it is defined in (.*)$")


def _completeness_owner(err: FieldError, path: str, index: dict[str, _Entry]) -> set[str]:
    """``validateStructuralCompleteness``: the junctor owner whose branch names a field missing outside.

    When every version shares the schema, upstream validates (and names in the
    detail) the internal top-level ``spec.validation``; ``path`` says which
    version of the result this error is being read for.
    """
    m = _DEFINED_IN.match(err.detail)
    if not m:
        return set()
    defined_in = m.group(1)
    version = re.match(r"spec\.versions\[\d+\]\.", path)
    if defined_in.startswith("spec.validation.") and version:
        defined_in = version.group(0) + "schema." + defined_in[len("spec.validation."):]
    entry, _ = _locate(defined_in, index)
    return {entry.owner} if entry is not None and entry.owner is not None else set()


_TYPE_REQUIRED = (
    "must not be empty at the root",
    "must not be empty for specified array items",
    "must not be empty for specified object fields",
    "must be object if x-kubernetes-embedded-resource is true",
    "must be object if x-kubernetes-map-type is specified",
    "must be array if x-kubernetes-list-type is specified",
)
_META_TYPE_REQUIRED = (
    "must be object",
    "must be string",
    "must be object if parent array's x-kubernetes-list-type is map",
)
_METADATA_DIRTY = "must not specify anything other than name and generateName, but metadata is implicitly specified"


def _structural_action(entry: _Entry, name: str, err: FieldError) -> _Action | None:
    node = entry.node
    if name == "type" and not node.get("type") and (err.detail in _TYPE_REQUIRED or err.detail in _META_TYPE_REQUIRED):
        return _infer_type(entry)
    if name == "items" and err.detail == "must be specified" and node.get("type") == "array" and "items" not in node:
        return (entry.path, "items", None) if _items_addable(node) else None
    if name == "nullable" and entry.is_root and err.detail == "nullable cannot be true at the root":
        return (entry.path, "drop", "nullable")
    if name == "x-kubernetes-preserve-unknown-fields" and err.detail == "must be true or undefined":
        return (entry.path, "drop", name)
    if name == "" and entry.is_root_metadata and err.detail == _METADATA_DIRTY:
        return (entry.path, "metadata", None)
    return None


def _infer_type(entry: _Entry) -> _Action | None:
    """What a type-less structural node is, when only one answer keeps its meaning (see :data:`FIX_RULES`)."""
    node = entry.node
    wants: set[str] = {entry.required_type} if entry.required_type else set()
    if node.get("x-kubernetes-embedded-resource") or node.get("x-kubernetes-map-type") is not None:
        wants.add("object")
    if node.get("x-kubernetes-list-type") is not None or node.get("x-kubernetes-list-map-keys"):
        wants.add("array")
    if isinstance(node.get("properties"), dict) or "additionalProperties" in node:
        wants.add("object")
    if "items" in node:
        wants.add("array")
    if entry.map_item:
        # A list map's items must be objects; only when they say so themselves (properties) is that
        # their meaning rather than a type that would prune whatever they held.
        return (entry.path, "set_type", "object") if wants == {"object"} else None
    if wants:
        if len(wants) != 1 or (entry.set_item and wants & {"object", "array"}):
            # A set's object or array items must also be atomic: a merge-semantics choice for the author.
            return None
        if wants == {"array"} and "items" not in node and not _items_addable(node):
            return None  # an array needs items, and these the author must describe
        return (entry.path, "set_type", wants.pop())
    if node.get("x-kubernetes-int-or-string") or node.get("x-kubernetes-preserve-unknown-fields"):
        return None
    if _int_or_string_branches(node.get("anyOf")):
        return (entry.path, "int_or_string", None)
    if any(k in node for k in (*_JUNCTORS, "not")):
        junctor_type = _junctor_type(node)
        return (entry.path, "set_type", junctor_type) if junctor_type else None
    enum_type = _enum_type(node.get("enum"))
    if enum_type:
        return (entry.path, "set_type", enum_type)
    return (entry.path, "preserve", None)


def _items_addable(node: dict[str, Any]) -> bool:
    """Can an array without items get ``items: {x-kubernetes-preserve-unknown-fields: true}``?

    Not a list map (its items are keyed objects: what they hold is the author's to say), nor
    beside junctors (the items they describe would have to be merged into these).
    """
    return node.get("x-kubernetes-list-type") != "map" and not any(k in node for k in (*_JUNCTORS, "not"))


def _int_or_string_branches(any_of: Any) -> bool:
    """``anyOf`` is exactly ``{type: integer}`` and ``{type: string}``, in either order."""
    if not isinstance(any_of, list) or len(any_of) != 2:
        return False
    shapes = sorted(str(b.get("type")) for b in any_of if isinstance(b, dict) and list(b) == ["type"])
    return shapes == ["integer", "string"]


def _junctor_type(node: dict[str, Any]) -> str | None:
    """The scalar type every value must have because of anyOf/oneOf (all branches) or allOf (any branch)."""
    found: set[Any] = set()
    for key in ("anyOf", "oneOf"):
        branches = _list(node.get(key))
        if not branches:
            continue
        types = {b.get("type") if isinstance(b, dict) else None for b in branches}
        if len(types) != 1 or any(_dict(b).get("nullable") for b in branches):
            return None
        found |= types
    for b in _list(node.get("allOf")):
        if isinstance(b, dict) and b.get("type"):
            if b.get("nullable"):
                return None
            found.add(b["type"])
    if len(found) != 1:
        return None
    t = found.pop()
    return t if t in _SCALAR_TYPES else None


def _enum_type(enum: Any) -> str | None:
    if not isinstance(enum, list) or not enum:
        return None
    kinds = {_json_kind(v) for v in enum}
    if kinds == {"str"}:
        return "string"
    if kinds == {"bool"}:
        return "boolean"
    if kinds == {"int"}:
        return "integer"
    if kinds <= {"int", "float"}:
        return "number"
    return None


def _json_kind(v: Any) -> str:
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, int):
        return "int"
    if isinstance(v, float):
        return "float"
    return "str" if isinstance(v, str) else "other"


_NESTED_REDUNDANT_EXTENSIONS = (
    "x-kubernetes-preserve-unknown-fields",
    "x-kubernetes-embedded-resource",
    "x-kubernetes-int-or-string",
    "x-kubernetes-list-type",
    "x-kubernetes-map-type",
    "x-kubernetes-list-map-keys",
    "additionalProperties",
)


def _nested_action(entry: _Entry, name: str, err: FieldError) -> _Action | None:
    """The repair of one ``validateNestedValueValidation`` error, or None when it needs the author."""
    node, cp = entry.node, entry.counterpart
    if name in ("description", "title") and err.detail == "must be empty to be structural":
        return (entry.path, "drop", name)
    if name == "default" and err.detail == "must be undefined to be structural":
        return (entry.path, "drop", name)
    if name == "x-kubernetes-preserve-unknown-fields" and err.detail == "must be true or undefined":
        return (entry.path, "drop", name)
    if name == "type" and err.detail == "must be empty to be structural":
        if _reorder_int_or_string(entry):
            return (entry.path.rpartition(".")[0], "int_or_string", None)
        return (entry.path, "drop", name) if _nested_type_redundant(node, cp) else None
    if name == "nullable" and err.detail == "must be false to be structural":
        gone = not node.get("type") or _nested_type_redundant(node, cp)
        return (entry.path, "drop", name) if gone else None
    if name in _NESTED_REDUNDANT_EXTENSIONS and err.detail.endswith("to be structural"):
        same = cp is not None and name in cp and T.json_equal(cp[name], node.get(name))
        return (entry.path, "drop", name) if same else None
    return None


def _nested_type_redundant(node: dict[str, Any], cp: dict[str, Any] | None) -> bool:
    """A junctor's ``type`` repeats the structural type, and null is judged the same without it."""
    if cp is None or not node.get("type") or cp.get("type") != node.get("type"):
        return False
    return not cp.get("nullable") or bool(node.get("nullable"))


def _reorder_int_or_string(entry: _Entry) -> bool:
    """``x-kubernetes-int-or-string`` with its anyOf branches in the order upstream does not recognise."""
    parent_path, _, last = entry.path.rpartition(".")
    owner = entry.counterpart
    if owner is None or entry.owner != parent_path or not re.fullmatch(r"anyOf\[[01]\]", last):
        return False
    return bool(owner.get("x-kubernetes-int-or-string")) and _int_or_string_branches(owner.get("anyOf"))


# --- applying a repair ------------------------------------------------------------------------

_NESTED_WHY = {
    "description": "documentation inside a junctor is not used (validateNestedValueValidation: must be empty to be structural)",
    "title": "documentation inside a junctor is not used (validateNestedValueValidation: must be empty to be structural)",
    "default": "defaults inside a junctor are never applied, defaulting follows the structural schema only "
    "(validateNestedValueValidation: must be undefined to be structural)",
    "type": "the same type is required outside the junctor, so this one is redundant "
    "(validateNestedValueValidation: must be empty to be structural)",
    "nullable": "nullable only matters beside a type, and none is left here "
    "(validateNestedValueValidation: must be false to be structural)",
}


def _apply(entry: _Entry, op: str, arg: Any) -> list[Note]:
    node, path = entry.node, entry.path
    if op == "set_type":
        if node.get("type"):
            return []
        _insert(node, "type", arg, before=("properties", "additionalProperties", "items", "anyOf", "allOf", "oneOf", "not"))
        return [Note(f"{path}.type", f"added type: {arg}", _TYPE_WHY.get(arg, _TYPE_WHY["scalar"]), FIXED)]
    if op == "preserve":
        _insert(node, "x-kubernetes-preserve-unknown-fields", True)
        return [Note(
            f"{path}.x-kubernetes-preserve-unknown-fields", "added x-kubernetes-preserve-unknown-fields: true",
            "a schema without a type accepts any value and, before pruning, kept it whole; structural schemas "
            "need a type or this extension to say so (\"type: must not be empty\")",
            FIXED,
        )]
    if op == "int_or_string":
        return _apply_int_or_string(node, path)
    if op == "items":
        _insert(node, "items", {"x-kubernetes-preserve-unknown-fields": True}, after=("type",))
        return [Note(
            f"{path}.items", "added items: {x-kubernetes-preserve-unknown-fields: true}",
            "an array without items accepts any elements; structural schemas require items (\"must be specified\")",
            FIXED,
        )]
    if op == "drop":
        return _apply_drop(entry, str(arg))
    if op == "metadata":
        return _apply_metadata(node, path)
    return []


_TYPE_WHY = {
    "object": "properties, additionalProperties, x-kubernetes-embedded-resource or x-kubernetes-map-type only "
    "describe objects (and the root and its metadata are objects); structural schemas require the type",
    "array": "items and x-kubernetes-list-type only describe arrays; structural schemas require the type",
    "scalar": "every value already had to have this type (all junctor branches, or the enum, say so); "
    "structural schemas require the type",
}


def _apply_drop(entry: _Entry, key: str) -> list[Note]:
    node, path = entry.node, entry.path
    if key not in node:
        return []
    value = node.pop(key)
    shown = value if not isinstance(value, str) else (value if len(value) <= 60 else value[:57] + "...")
    if entry.owner is not None:
        why = _NESTED_WHY.get(key, "the same value is set outside the junctor, so this one is redundant "
                                   "(validateNestedValueValidation)")
    elif key == "nullable":
        why = "the root of a custom resource is never null (\"nullable cannot be true at the root\")"
    else:
        why = "false is the same as absent, and upstream accepts only true or absent (\"must be true or undefined\")"
    return [Note(f"{path}.{key}", f"removed {key}: {shown!r}", why, FIXED)]


def _apply_int_or_string(node: dict[str, Any], path: str) -> list[Note]:
    changes: list[str] = []
    any_of = _list(node.get("anyOf"))
    if [_dict(b).get("type") for b in any_of] != ["integer", "string"]:
        node["anyOf"] = [dict(b) for b in sorted(any_of, key=lambda b: str(_dict(b).get("type")))]
        changes.append("reordered anyOf to [{type: integer}, {type: string}]")
    if not node.get("x-kubernetes-int-or-string"):
        _insert(node, "x-kubernetes-int-or-string", True, after=("anyOf",))
        changes.insert(0, "added x-kubernetes-int-or-string: true")
    return [Note(
        f"{path}.x-kubernetes-int-or-string", ", ".join(changes),
        "anyOf [{type: integer}, {type: string}] is the int-or-string pattern; structural schemas mark it with "
        "this extension instead of a type, and recognise the anyOf only in this order (isIntOrStringAnyOfPattern; "
        "anyOf itself does not depend on the order)",
        FIXED,
    )]


_METADATA_KEEP = ("type", "default", "properties")


def _apply_metadata(node: dict[str, Any], path: str) -> list[Note]:
    removed = [k for k in node if k not in _METADATA_KEEP]
    props = node.get("properties")
    kept_props = {k: v for k, v in _dict(props).items() if k in ("name", "generateName")}
    if props is not None and kept_props != props:
        removed.extend(f"properties[{k}]" for k in _dict(props) if k not in kept_props)
    for key in [k for k in node if k not in _METADATA_KEEP]:
        del node[key]
    if props is not None:
        if kept_props:
            node["properties"] = kept_props
        else:
            del node["properties"]
    change = "removed " + ", ".join(removed)
    if not node.get("type"):
        _insert(node, "type", "object", before=("properties",))
        change += "; added type: object"
    return [Note(
        path, change, "structural schemas may restrict metadata only in name and "
        "generateName (validateStructuralMetadataInvariants); the removed restrictions are no longer enforced",
        FIXED,
    )]


# --- reconciling with the source --------------------------------------------------------------

_MISSING: Any = object()


def _reconcile(result: Any, dview: Any, rview: Any, *, drop_unknown: bool) -> tuple[Any, list[Note]]:
    """``result`` spelled as the source wherever it did not change (iterative).

    ``dview``/``rview`` are the decoded and the raw source in the result's
    layout. A value equal (by JSON type and value) to the decoded source's is
    taken from the raw source; dict keys keep the raw order and new keys go
    after their predecessor in ``result``'s order (before their successor when
    none is placed). Raw keys the decoder dropped (nulls, unknown fields) are
    kept, unknown fields only unless ``drop_unknown``. Lists of another length
    are the result's.
    """
    notes: list[Note] = []
    root: list[Any] = [None]
    # A node's place is a trail (parent trail, key); its path is rendered only for a note.
    stack: list[tuple[Any, Any, Any, Any, Any, Any]] = [(result, dview, rview, root, 0, None)]
    while stack:
        res, dv, rv, holder, slot, trail = stack.pop()
        if isinstance(res, dict):
            out: dict[str, Any] = {}
            holder[slot] = out
            rd = rv if isinstance(rv, dict) else {}
            dd = dv if isinstance(dv, dict) else {}
            for key in _merged_keys(res, rd, dd):
                if key in res:
                    out[key] = None
                    stack.append((res[key], dd.get(key, _MISSING), rd.get(key, _MISSING), out, key, (trail, key)))
                elif rd[key] is not None and drop_unknown:
                    notes.append(Note(_render(trail, key), f"removed unknown field {key}",
                                      "not a field of the CustomResourceDefinition type: the apiserver rejects it "
                                      "under Strict field validation and drops it otherwise", FIXED))
                else:
                    out[key] = _plain(rd[key])
        elif isinstance(res, list):
            out_list: list[Any] = [None] * len(res)
            holder[slot] = out_list
            same = isinstance(rv, list) and isinstance(dv, list) and len(rv) == len(res) == len(dv)
            for i, item in enumerate(res):
                pair = (dv[i], rv[i]) if same else (_MISSING, _MISSING)
                stack.append((item, pair[0], pair[1], out_list, i, (trail, i)))
        else:
            keep = dv is not _MISSING and T.json_equal(res, dv) and (rv is None or type(rv) in (str, int, float, bool))
            holder[slot] = rv if keep else res
    return root[0], notes


def _render(trail: Any, last: Any) -> str:
    """The upstream path of ``last`` under ``trail``: ``.key``, ``[index]``, ``[map key]``."""
    segments = [last]
    while trail is not None:
        trail, key = trail
        segments.append(key)
    segments.reverse()
    path = ""
    parent: Any = None
    for seg in segments:
        if isinstance(seg, int) or parent in _MAP_PARENTS:
            path += f"[{seg}]"
        else:
            path = f"{path}.{seg}" if path else str(seg)
        parent = seg
    return path


def _merged_keys(res: dict[str, Any], rd: dict[str, Any], dd: dict[str, Any]) -> list[str]:
    """Raw keys that survive (in raw order) with the result's new keys slotted in."""
    if not rd:
        return list(res)
    kept = [k for k in rd if k in res or k not in dd]
    placed = set(kept)
    order = list(res)
    if placed.issuperset(order):
        return kept
    for i, key in enumerate(order):
        if key in placed:
            continue
        following = [kept.index(k) for k in order[i + 1:] if k in placed]
        pos = len(kept)  # last in the result's order: last in the output
        if following:
            pos = min(following)
            for prev in reversed(order[:i]):
                if prev in placed:
                    pos = kept.index(prev) + 1
                    break
        kept.insert(pos, key)
        placed.add(key)
    return kept
