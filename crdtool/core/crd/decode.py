"""Strict decoding of a CRD manifest into its Go types, as the apiserver does.

The apiserver decodes a CRD request body with ``sigs.k8s.io/json``
``UnmarshalStrict`` (server-side field validation ``Strict``), a fork of Go's
encoding/json with case-sensitive keys, ints preserved in ``interface{}``
values, and unknown/duplicate fields collected as "strict errors". This module
mirrors, for a manifest already parsed into Python data:

* ``sigs.k8s.io/json/internal/golang/encoding/json/decode.go`` (``literalStore``,
  ``object``, ``array``, ``addErrorContext``, ``saveError``) and
  ``kubernetes_patch.go`` (``newFieldError``, ``saveStrictError``,
  ``appendStrictFieldStackKey``/``Index``);
* ``k8s.io/apimachinery/pkg/runtime/serializer/json/json.go`` ``Serializer.unmarshal``:
  a decoding error (wrong JSON type) is returned alone and the strict errors are
  then dropped;
* the custom ``UnmarshalJSON`` methods of
  ``apiextensions-apiserver/pkg/apis/apiextensions/v1{,beta1}/marshal.go``
  (``JSON``, ``JSONSchemaPropsOrBool``, ``JSONSchemaPropsOrArray``,
  ``JSONSchemaPropsOrStringArray``) and ``apimachinery/pkg/apis/meta/v1``
  (``Time``, ``FieldsV1``).

Upstream behaviours worth knowing, all mirrored here:

* A value of the wrong JSON type is an ``UnmarshalTypeError``; decoding goes on
  but only the first one is returned (``json: cannot unmarshal number into Go
  struct field CustomResourceDefinitionNames.spec.names.plural of type string``).
  The "field" in that text is the chain of *struct field* names only: list
  indices and map keys are not part of it.
* An error returned by a custom ``UnmarshalJSON`` aborts decoding at once and
  wins over an earlier type error (``boolean or JSON schema expected``, a
  ``metav1.Time`` parse error).
* ``items``, ``additionalProperties``, ``additionalItems`` and ``dependencies``
  values are decoded by their custom ``UnmarshalJSON`` with a *nested, non-strict*
  ``json.Unmarshal``: unknown fields inside them are silently dropped (kubernetes
  issue #128033), and any type error inside them aborts decoding and is reported
  with the struct/field of the outermost such field (the outer decoder's
  ``addErrorContext`` overwrites the inner one).
* ``items`` or a ``dependencies`` value that is neither an object nor an array
  decodes, without error, to an empty ``JSONSchemaPropsOrArray`` /
  ``JSONSchemaPropsOrStringArray``; we represent that as ``[]`` (no schema, no
  array: what every validator sees for it upstream).
* JSON ``null`` leaves a struct field at its zero value (the key is dropped
  here); a ``null`` list element or map value becomes the element's zero value
  (``""``, ``{}``, ...); inside JSON values (``default``, ``enum``, ``example``,
  ``fieldsV1``) ``null`` is kept.
* JSON nesting deeper than 10000 is a syntax error before anything else
  (``invalid character '{' exceeded max depth``).

Numbers: the manifest reaches the apiserver as JSON produced by kubectl from
YAML (sigs.k8s.io/yaml), where a float like ``1.0`` is written ``1``. So an
integral float is accepted by int fields and becomes an int inside JSON values,
while ``1.5`` into an int64 field is ``cannot unmarshal number 1.5 ...``.
"""

from __future__ import annotations

import base64
import binascii
import datetime as _dt
import math
import re
from typing import Any

from crdtool.core.crd import types as T
from crdtool.core.errors import OMIT, DecodeError, unknown_field, unmarshal_type_error
from crdtool.core.gojson import go_json_float, go_json_marshal
from crdtool.core.gotime import rfc3339_parse_error
from crdtool.core.quantity import parse_quantity_error
from crdtool.core.releases import Release

#: encoding/json scanner ``maxNestingDepth``.
MAX_DEPTH = 10000
#: ``saveStrictError`` keeps at most this many strict errors.
MAX_STRICT_ERRORS = 100

#: The first release whose ``sigs.k8s.io/json`` writes a type error's whole field path. ``go.mod`` of
#: k8s.io/apiextensions-apiserver pins ``bc3834ca7abd`` (v0.30.14, v0.31.14), ``9aa6b5e7a4b3`` (v0.32.13,
#: v0.33.13), ``cfa47c3a1cc8`` (v0.34.10), then ``2d320260d730`` (v0.35.7, v0.36.3, v0.37.0-beta.0): Go 1.24's
#: encoding/json synced, whose ``addErrorContext`` appends the field path of an error from a nested
#: ``json.Unmarshal`` (a custom ``UnmarshalJSON``: ``items``, ``additionalProperties``...) to the outer one
#: (``…properties.properties.items.properties.description``; the older decoders overwrote it:
#: ``…properties.properties.items``), and whose ``object`` puts a promoted field's embedded struct in the path
#: (``Volume.spec.volumes.VolumeSource.hostPath``; :attr:`crdtool.core.crd.types.Field.embedded`).
FULL_FIELD_PATH_SINCE = 35

_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1
_INT32_MIN, _INT32_MAX = -(2**31), 2**31 - 1

# Pseudo-kinds of work items that are not Go types.
_SKIP = T.GoType("skip", "")
_UNKNOWN = T.GoType("unknown", "")
_END = T.GoType("end", "")
_JSONNODE = T.GoType("jsonnode", "interface {}")
_UINT8 = T.GoType("uint8", "uint8")
_STRING_SLICE = T.GoType(T.SLICE, "[]string", T.GoType(T.STRING, "string"))


def decode_crd(
    obj: Any, release: Release | None = None, *, sent_by_kubectl: bool = True
) -> tuple[dict[str, Any], list[DecodeError]]:
    """Decode a CRD manifest strictly, dispatching on its ``apiVersion``.

    Args:
        obj: the parsed manifest (plain YAML/JSON data; never mutated).

    Returns:
        ``(decoded, errors)``. ``decoded`` is a new dict holding the Go value in
        JSON shape: nulls dropped, ints as ``int``, float64 fields as ``float``,
        ``caBundle`` as canonical base64, unknown fields removed. ``errors`` is
        either one decoding error (a wrong JSON type, an upstream
        ``UnmarshalTypeError`` or custom ``UnmarshalJSON`` error: type
        ``UnmarshalTypeError``) or all unknown fields in the order kubectl's
        JSON has them (every object's keys sorted: :func:`sorted_keys`; type
        ``UnknownField``), as ``sigs.k8s.io/json.UnmarshalStrict`` plus
        ``Serializer.unmarshal`` report them. A manifest whose ``apiVersion`` is
        not ``apiextensions.k8s.io/v1`` or ``/v1beta1`` is returned as a plain
        normalized copy (errors only for NaN/Inf or nesting beyond 10000); a
        non-object is decoded as v1 (and is a type error). Each error's
        ``field`` is the path of the offending value in the manifest
        (``spec.versions[0].name``); its text is upstream's. Never raises.

    ``release``: the Kubernetes release whose types decode (None: the newest); a field that release does
    not have yet (:data:`crdtool.core.crd.types.FIELDS_SINCE`) is an unknown field. ``sent_by_kubectl``: as
    :func:`decode_value` (False: a JSON body in the manifest's own key order).

    Mirrors ``sigs.k8s.io/json.UnmarshalStrict`` into
    ``v1.CustomResourceDefinition`` / ``v1beta1.CustomResourceDefinition``.
    """
    if isinstance(obj, dict):
        api = T.api_for(obj.get("apiVersion"), release)
        if api is None:
            copied, errors = decode_value(obj, _JSONNODE, sent_by_kubectl=sent_by_kubectl)
            return (copied if isinstance(copied, dict) else {}), errors
    else:
        api = T.api_for(T.V1, release) or T.API_V1
    # Not kept by content for the next release of a matrix (as structural schemas are): marshal's copy of a hit
    # (with the key) cost more than decoding afresh (../shared/corpus/crds: 0.17-0.26 s against 0.12-0.21 s,
    # and 0.25 s for a miss, issue #28)
    decoded, errors = decode_value(obj, api.root, release, sent_by_kubectl=sent_by_kubectl)
    return (decoded if isinstance(decoded, dict) else {}), errors


def decode_value(
    value: Any, t: T.GoType, release: Release | None = None, *, sent_by_kubectl: bool = True
) -> tuple[Any, list[DecodeError]]:
    """Strictly decode ``value`` into Go type ``t`` (e.g. ``API_V1.struct("JSONSchemaProps")``).

    Same rules and result shape as :func:`decode_crd`; the decoded value is
    ``None`` when the top-level value has the wrong JSON type or is null.
    ``release`` (None: the newest) picks the decoder's error texts (:data:`FULL_FIELD_PATH_SINCE`).
    ``sent_by_kubectl``: the body is the JSON kubectl sends for ``value`` (every object's keys sorted:
    :func:`sorted_keys`), which orders the unknown fields and picks the first type error; False: a body
    with ``value``'s own key order (a client that writes its JSON itself).
    """
    full = release is None or release.at_least(FULL_FIELD_PATH_SINCE)
    decoded, errors = _Decoder(full).run(value, t)
    if errors and sent_by_kubectl:
        # kubectl sends the object as encoding/json writes its map[string]interface{}: every object's keys sorted
        # (sigs.k8s.io/yaml YAMLToJSON, then unstructured's json.Marshal), so the apiserver meets the unknown
        # fields and the first type error in that order. Only the errors come from it: the decoded value keeps
        # the manifest's order.
        _, errors = _Decoder(full).run(sorted_keys(value), t)
    return decoded, errors


def sorted_keys(value: Any) -> Any:
    """A copy of ``value`` (JSON-like data) with every mapping's keys in the order ``json.Marshal`` of a Go map
    writes them: sorted by their JSON text (:func:`_key`, compared as Go compares strings; equal texts keep their
    order). Lists, scalars and other values are kept as they are; no recursion. Containers deeper than
    :data:`MAX_DEPTH` + 1 (where decoding stops: a cycle, too) are kept as they are, not copied."""
    root: list[Any] = [None]
    stack: list[tuple[Any, Any, Any, int]] = [(value, root, 0, 0)]
    while stack:
        val, holder, slot, depth = stack.pop()
        if depth > MAX_DEPTH + 1:
            holder[slot] = val
        elif isinstance(val, dict):
            out: dict[Any, Any] = {}
            holder[slot] = out
            for key, sub in sorted(val.items(), key=lambda kv: _key(kv[0]).encode("utf-8", "surrogatepass")):
                out[key] = None
                stack.append((sub, out, key, depth + 1))
        elif isinstance(val, (list, tuple)):
            lst: list[Any] = [None] * len(val)
            holder[slot] = lst
            for i, sub in enumerate(val):
                stack.append((sub, lst, i, depth + 1))
        else:
            holder[slot] = val
    return root[0]


def normalize_json(value: Any) -> Any:
    """A copy of a JSON value as Go's ``interface{}`` decoding (PreserveInts) yields it.

    Integral floats within int64 become ints, ints beyond int64 become floats,
    tuples become lists, object keys become strings. Iterative. Used for
    ``default``/``enum``/``example`` values.
    """
    copied, _ = decode_value(value, _JSONNODE)
    return copied


class _Scope:
    """A nested, non-strict ``json.Unmarshal`` run by a custom ``UnmarshalJSON``."""

    __slots__ = ("override", "pending")

    def __init__(self, override: tuple[str, _P]) -> None:
        # The outer decoder's errorContext at the custom field: it is what the
        # top-level addErrorContext finally writes into any error from inside.
        self.override = override
        self.pending: _Err | None = None


class _Err:
    """An error before formatting (the type-error context may still be overwritten)."""

    __slots__ = ("path", "value", "desc", "go", "est", "efs", "plain")

    def __init__(
        self, path: _P, value: Any, desc: str = "", go: str = "", est: str = "", efs: _P = None, plain: str = ""
    ) -> None:
        self.path = path
        self.value = value
        self.desc = desc
        self.go = go
        self.est = est
        self.efs = efs
        self.plain = plain

    def to_error(self) -> DecodeError:
        path = render_path(self.path)
        if self.plain:
            return unmarshal_type_error(path, self.value, self.plain)
        if self.est or self.efs is not None:
            field = render_path(self.efs)
            msg = f"json: cannot unmarshal {self.desc} into Go struct field {self.est}.{field} of type {self.go}"
        else:
            msg = f"json: cannot unmarshal {self.desc} into Go value of type {self.go}"
        return unmarshal_type_error(path, self.value, msg)


# A path as a linked list (parent, segment), rendered only for an error: building
# every node's path string would cost O(depth^2) on deep documents.
_P = Any


def render_path(p: _P) -> str:
    """Render a linked path ``(parent, segment)`` to ``spec.versions[0].name``."""
    parts: list[str] = []
    while p is not None:
        p, seg = p
        parts.append(seg)
    return "".join(reversed(parts))


def _joined(outer: _P, inner: _P) -> _P:
    """The linked path ``outer`` then ``inner`` (struct field names joined with dots)."""
    if inner is None:
        return outer
    if outer is None:
        return inner
    segments: list[str] = []
    while inner is not None:
        inner, seg = inner
        segments.append(seg)
    out = outer
    for seg in reversed(segments):
        out = (out, seg if seg.startswith(".") else "." + seg)
    return out


def _child(p: _P, key: str) -> _P:
    return (p, "." + key) if p is not None else (None, key)


# A work item: (value, type, holder, slot, path, errStruct, errFields, scope, depth, isElem)
_Item = tuple[Any, T.GoType, Any, Any, Any, str, Any, "_Scope | None", int, bool]


class _Decoder:
    def __init__(self, full_paths: bool = True) -> None:
        #: ``addErrorContext`` keeps a nested decode's field path, and promoted fields name their embedded
        #: struct (:data:`FULL_FIELD_PATH_SINCE`)
        self.full_paths = full_paths
        self.top_saved: _Err | None = None
        self.final: _Err | None = None
        self.syntax: _Err | None = None
        self.unknown: list[str] = []
        self.seen_unknown: set[str] = set()

    # -- errors ---------------------------------------------------------------

    def saved(self, scope: _Scope | None, err: _Err) -> None:
        """``d.saveError``: remember the first error of this decode, go on."""
        if self.final is not None:
            return
        if scope is None:
            if self.top_saved is None:
                self.top_saved = err
        elif scope.pending is None:
            scope.pending = err

    def fatal(self, scope: _Scope | None, err: _Err) -> None:
        """An error returned up the stack: decoding stops (we only stop recording)."""
        if self.final is not None:
            return
        if scope is not None and not err.plain:
            est, efs = scope.override
            if self.full_paths and err.efs is not None:
                efs = _joined(efs, err.efs)  # addErrorContext: the outer FieldStack, then the error's Field
            err.est, err.efs = est, efs
        self.final = err

    def unknown_field(self, scope: _Scope | None, p: _P) -> None:
        # Nested decodes are not strict: their unknown fields are dropped silently.
        if scope is not None or self.final is not None or len(self.unknown) >= MAX_STRICT_ERRORS:
            return
        path = render_path(p)
        if path in self.seen_unknown:
            return
        self.seen_unknown.add(path)
        self.unknown.append(path)

    def result(self) -> list[DecodeError]:
        for err in (self.syntax, self.final, self.top_saved):
            if err is not None:
                return [err.to_error()]
        return [unknown_field(p) for p in self.unknown]

    # -- the walk -------------------------------------------------------------

    def run(self, value: Any, t: T.GoType) -> tuple[Any, list[DecodeError]]:
        root: list[Any] = [None]
        stack: list[_Item] = [(value, _unptr(t), root, 0, None, "", None, None, 0, False)]
        pop, push = stack.pop, stack.append
        string, boolean, struct, slice_, map_, ptr = T.STRING, T.BOOL, T.STRUCT, T.SLICE, T.MAP, T.PTR
        int32, int64, int_or_string = T.INT32, T.INT64, T.INT_OR_STRING
        while stack:
            val, typ, holder, slot, path, est, efs, scope, depth, elem = pop()
            kind = typ.kind
            # the commonest items, a string field's string and a bool field's bool: what scalar() does for them
            if (kind == string and val.__class__ is str) or (kind == boolean and val.__class__ is bool):
                holder[slot] = val
                continue
            if kind == "end":
                if scope is not None and scope.pending is not None:
                    self.fatal(scope, scope.pending)
                continue
            cdepth = depth
            if isinstance(val, (dict, list, tuple)):
                cdepth = depth + 1
                if cdepth > MAX_DEPTH:
                    brace = "{" if isinstance(val, dict) else "["
                    self.syntax = _Err(None, OMIT, plain=f"invalid character '{brace}' exceeded max depth")
                    break
            if kind == "skip":
                _push_skip(push, val, cdepth)
                continue
            if kind == "unknown":
                self.unknown_field(scope, path)
                _push_skip(push, val, cdepth)
                continue
            if val is None:
                if elem:
                    holder[slot] = _zero(typ)
                continue
            if kind == struct:
                if not isinstance(val, dict):
                    self.mismatch(val, typ, path, est, efs, scope, cdepth, push)
                    if elem:
                        holder[slot] = _zero(typ)
                    continue
                out: dict[str, Any] = {}
                holder[slot] = out
                fields = typ.fields
                name = typ.name
                items = list(val.items())
                # The leading fields whose work item would only copy the value (a string field's string, a bool
                # field's bool, an int field's int in range, an IntOrString's string or int32, a []string's
                # strings, a map[string]string's strings) or leave it out (null) are done here: nothing before them
                # in the object is pending, so the decoded keys come in the same order, and they make no error and
                # no unknown field (a list or map one level deeper is within MAX_DEPTH: cdepth < MAX_DEPTH).
                start = 0
                for key, sub in items:
                    if key.__class__ is not str:
                        break
                    f = fields.get(key)
                    if f is None:
                        break
                    ft = f.type
                    if ft.kind == ptr:
                        ft = _unptr(ft)
                    fkind = ft.kind
                    cls = sub.__class__
                    if cls is str:
                        if fkind != string and fkind != int_or_string:
                            break
                    elif cls is bool:
                        if fkind != boolean:
                            break
                    elif cls is int:
                        if fkind == int32 or fkind == int_or_string:
                            if not _INT32_MIN <= sub <= _INT32_MAX:
                                break
                        elif fkind != int64 or not _INT64_MIN <= sub <= _INT64_MAX:
                            break
                    elif sub is None:
                        start += 1
                        continue
                    elif cls is list:
                        if fkind != slice_ or cdepth >= MAX_DEPTH or _unptr(ft.elem).kind != string:  # type: ignore[arg-type]
                            break
                        if not _all_str(sub):
                            break
                        sub = list(sub)
                    elif cls is dict:
                        if fkind != map_ or cdepth >= MAX_DEPTH or _unptr(ft.elem).kind != string:  # type: ignore[arg-type]
                            break
                        if not _all_str_items(sub):
                            break
                        sub = dict(sub)
                    else:
                        break
                    out[key] = sub
                    start += 1
                for key, sub in reversed(items[start:] if start else items):
                    if type(key) is not str:
                        key = _key(key)
                    f = fields.get(key)
                    cpath = (path, "." + key) if path is not None else (None, key)
                    if f is None:
                        push((sub, _UNKNOWN, None, None, cpath, est, efs, scope, cdepth, False))
                        continue
                    ft = f.type
                    if ft.kind == ptr:
                        ft = _unptr(ft)
                    fefs = efs
                    if f.embedded and self.full_paths:
                        # object(): the embedded structs' Go field names, then the field's JSON name
                        for go_name in f.embedded:
                            fefs = (fefs, "." + go_name) if fefs is not None else (None, go_name)
                    cefs = (fefs, "." + key) if fefs is not None else (None, key)
                    push((sub, ft, out, key, cpath, name, cefs, scope, cdepth, False))
            elif kind == slice_:
                if not isinstance(val, (list, tuple)):
                    self.mismatch(val, typ, path, est, efs, scope, cdepth, push)
                    if elem:
                        holder[slot] = _zero(typ)
                    continue
                et = typ.elem
                assert et is not None
                if et.kind == ptr:
                    et = _unptr(et)
                if et.kind == string and _all_str(val):
                    # what the items would do one by one: each string copied
                    holder[slot] = list(val)
                    continue
                lst: list[Any] = [None] * len(val)
                holder[slot] = lst
                for i in range(len(val) - 1, -1, -1):
                    push((val[i], et, lst, i, (path, f"[{i}]"), est, efs, scope, cdepth, True))
            elif kind == map_:
                if not isinstance(val, dict):
                    self.mismatch(val, typ, path, est, efs, scope, cdepth, push)
                    if elem:
                        holder[slot] = _zero(typ)
                    continue
                et = typ.elem
                assert et is not None
                if et.kind == ptr:
                    et = _unptr(et)
                if et.kind == string and _all_str_items(val):
                    # what the items would do one by one: each string copied under its key, in order
                    holder[slot] = dict(val)
                    continue
                mp: dict[str, Any] = {}
                holder[slot] = mp
                for key, sub in reversed(list(val.items())):
                    if type(key) is not str:
                        key = _key(key)
                    push((sub, et, mp, key, _child(path, key), est, efs, scope, cdepth, True))
            elif kind in (T.JSON, T.FIELDS_V1, "jsonnode"):
                self.json_node(val, holder, slot, path, scope, cdepth, push)
            elif kind == T.OR_BOOL:
                if isinstance(val, bool):
                    holder[slot] = val
                elif isinstance(val, dict):
                    self.nested(val, typ.elem, holder, slot, path, est, efs, scope, depth, push)  # type: ignore[arg-type]
                else:
                    self.fatal(scope, _Err(path, val, plain="boolean or JSON schema expected"))
                    _push_skip(push, val, cdepth)
            elif kind in (T.OR_ARRAY, T.OR_STRING_ARRAY):
                if isinstance(val, dict):
                    self.nested(val, typ.elem, holder, slot, path, est, efs, scope, depth, push)  # type: ignore[arg-type]
                elif isinstance(val, (list, tuple)):
                    schema = typ.elem
                    assert schema is not None
                    st = _schema_slice(schema) if kind == T.OR_ARRAY else _STRING_SLICE
                    self.nested(val, st, holder, slot, path, est, efs, scope, depth, push)
                else:
                    # UnmarshalJSON ignores anything but '{' and '[': an empty value, no error.
                    holder[slot] = []
            elif kind == T.TIME:
                self.time(val, holder, slot, path, est, efs, scope, cdepth, push)
            elif kind == T.BYTES:
                self.bytes(val, typ, holder, slot, path, est, efs, scope, cdepth, push)
            else:
                if not self.scalar(val, typ, holder, slot, path, est, efs, scope, cdepth, push) and elem:
                    holder[slot] = _zero(typ)
        return root[0], self.result()

    def nested(
        self,
        val: Any,
        t: T.GoType,
        holder: Any,
        slot: Any,
        path: _P,
        est: str,
        efs: _P,
        scope: _Scope | None,
        depth: int,
        push: Any,
    ) -> None:
        """Decode ``val`` with a nested ``json.Unmarshal`` (a custom UnmarshalJSON)."""
        if scope is None:
            override = (est, efs)
        elif self.full_paths:
            # what this nested decode's own addErrorContext puts before the inner error's field path, after
            # the outer's: the struct stays the outermost one
            override = (scope.override[0], _joined(scope.override[1], efs))
        else:
            override = scope.override
        inner = _Scope(override)
        push((None, _END, None, None, path, est, efs, inner, depth, False))
        push((val, t, holder, slot, path, "", None, inner, depth, False))

    def mismatch(
        self, val: Any, t: T.GoType, path: _P, est: str, efs: _P, scope: _Scope | None, cdepth: int, push: Any
    ) -> None:
        desc = _desc(val)
        if desc == "number":
            lit = _number_text(val)
            if lit is None:
                self.fatal(scope, _Err(path, val, plain=_unsupported(val)))
                return
        self.saved(scope, _Err(path, val, desc, t.go, est, efs))
        _push_skip(push, val, cdepth)

    def json_node(self, val: Any, holder: Any, slot: Any, path: _P, scope: _Scope | None, cdepth: int, push: Any) -> None:
        if isinstance(val, dict):
            out: dict[str, Any] = {}
            holder[slot] = out
            for key, sub in reversed(list(val.items())):
                key = _key(key)
                push((sub, _JSONNODE, out, key, _child(path, key), "", None, scope, cdepth, True))
            return
        if isinstance(val, (list, tuple)):
            lst: list[Any] = [None] * len(val)
            holder[slot] = lst
            for i in range(len(val) - 1, -1, -1):
                push((val[i], _JSONNODE, lst, i, (path, f"[{i}]"), "", None, scope, cdepth, True))
            return
        if isinstance(val, bool) or isinstance(val, str):
            holder[slot] = val
        elif isinstance(val, int):
            holder[slot] = val if _INT64_MIN <= val <= _INT64_MAX else _int_to_float(val)
        elif isinstance(val, float):
            if not math.isfinite(val):
                self.fatal(scope, _Err(path, val, plain=_unsupported(val)))
                return
            holder[slot] = int(val) if val.is_integer() and _INT64_MIN <= val < 2.0**63 else val
        else:
            holder[slot] = _as_string(val)

    def time(
        self, val: Any, holder: Any, slot: Any, path: _P, est: str, efs: _P, scope: _Scope | None, cdepth: int, push: Any
    ) -> None:
        if isinstance(val, (_dt.datetime, _dt.date)):
            val = _as_string(val)
        if not isinstance(val, str):
            # Time.UnmarshalJSON: json.Unmarshal(b, &str) fails; the error comes back up
            # and the top-level addErrorContext names the Time field.
            desc = _desc(val)
            if desc == "number" and _number_text(val) is None:
                self.fatal(scope, _Err(path, val, plain=_unsupported(val)))
                return
            self.fatal(scope, _Err(path, val, desc, "string", est, efs))
            _push_skip(push, val, cdepth)
            return
        problem = rfc3339_parse_error(val)
        if problem:
            self.fatal(scope, _Err(path, val, plain=problem))
            return
        holder[slot] = val

    def bytes(
        self,
        val: Any,
        t: T.GoType,
        holder: Any,
        slot: Any,
        path: _P,
        est: str,
        efs: _P,
        scope: _Scope | None,
        cdepth: int,
        push: Any,
    ) -> None:
        if isinstance(val, str):
            data, problem = go_base64_decode(val)
            if problem:
                self.saved(scope, _Err(path, val, plain=problem))
                return
            holder[slot] = base64.b64encode(data).decode("ascii")
            return
        if not isinstance(val, (list, tuple)):
            self.mismatch(val, t, path, est, efs, scope, cdepth, push)
            return
        # A JSON array decodes into []byte element by element, as uint8 numbers.
        out = bytearray()
        for i, item in enumerate(val):
            ipath = (path, f"[{i}]")
            if item is None:
                out.append(0)
                continue
            if isinstance(item, bool) or not isinstance(item, (int, float)):
                self.mismatch(item, _UINT8, ipath, est, efs, scope, cdepth + 1, push)
                out.append(0)
                continue
            n = _as_int(item, 0, 255)
            if n is None:
                self.bad_number(item, "uint8", ipath, est, efs, scope)
                out.append(0)
                continue
            out.append(n)
        holder[slot] = base64.b64encode(bytes(out)).decode("ascii")

    def bad_number(self, val: Any, go: str, path: _P, est: str, efs: _P, scope: _Scope | None) -> None:
        lit = _number_text(val)
        if lit is None:
            self.fatal(scope, _Err(path, val, plain=_unsupported(val)))
        else:
            self.saved(scope, _Err(path, val, f"number {lit}", go, est, efs))

    def scalar(
        self,
        val: Any,
        t: T.GoType,
        holder: Any,
        slot: Any,
        path: _P,
        est: str,
        efs: _P,
        scope: _Scope | None,
        cdepth: int,
        push: Any,
    ) -> bool:
        """Decode a string, bool, int or float field; False if it is left at its zero value."""
        kind = t.kind
        if kind == T.STRING:
            if isinstance(val, str):
                holder[slot] = val
                return True
            if isinstance(val, (_dt.datetime, _dt.date, bytes)):
                holder[slot] = _as_string(val)
                return True
        elif kind == T.BOOL:
            if isinstance(val, bool):
                holder[slot] = val
                return True
        elif kind in (T.INT32, T.INT64):
            if not isinstance(val, bool) and isinstance(val, (int, float)):
                lo, hi = (_INT32_MIN, _INT32_MAX) if kind == T.INT32 else (_INT64_MIN, _INT64_MAX)
                n = _as_int(val, lo, hi)
                if n is None:
                    self.bad_number(val, t.go, path, est, efs, scope)
                    return False
                holder[slot] = n
                return True
        elif kind == T.FLOAT64:
            if not isinstance(val, bool) and isinstance(val, (int, float)):
                if isinstance(val, float) and not math.isfinite(val):
                    self.fatal(scope, _Err(path, val, plain=_unsupported(val)))
                    return False
                try:
                    holder[slot] = float(val)
                except OverflowError:
                    self.bad_number(val, t.go, path, est, efs, scope)
                    return False
                return True
        elif kind == T.INT_OR_STRING:
            return self.int_or_string(val, holder, slot, path, est, efs, scope, cdepth, push)
        elif kind == T.QUANTITY:
            return self.quantity(val, holder, slot, path, scope, cdepth, push)
        else:  # a kind we do not know: keep the value as JSON
            holder[slot] = normalize_json(val)
            return True
        self.mismatch(val, t, path, est, efs, scope, cdepth, push)
        return False

    def int_or_string(
        self, val: Any, holder: Any, slot: Any, path: _P, est: str, efs: _P, scope: _Scope | None, cdepth: int, push: Any
    ) -> bool:
        """``intstr.IntOrString.UnmarshalJSON``: a JSON string, else ``json.Unmarshal`` into its ``int32``.

        The inner error comes back up and aborts decoding; the top-level ``addErrorContext`` names the
        IntOrString field (``json: cannot unmarshal number 1.5 into Go struct field ServicePort.spec.ports.targetPort
        of type int32``). Mirrors ``k8s.io/apimachinery/pkg/util/intstr/intstr.go``.
        """
        if isinstance(val, str):
            holder[slot] = val
            return True
        if isinstance(val, (_dt.datetime, _dt.date)):
            holder[slot] = _as_string(val)
            return True
        if not isinstance(val, bool) and isinstance(val, (int, float)):
            n = _as_int(val, _INT32_MIN, _INT32_MAX)
            if n is not None:
                holder[slot] = n
                return True
            lit = _number_text(val)
            if lit is None:
                self.fatal(scope, _Err(path, val, plain=_unsupported(val)))
            else:
                self.fatal(scope, _Err(path, val, f"number {lit}", "int32", est, efs))
            return False
        self.fatal(scope, _Err(path, val, _desc(val), "int32", est, efs))
        _push_skip(push, val, cdepth)
        return False

    def quantity(self, val: Any, holder: Any, slot: Any, path: _P, scope: _Scope | None, cdepth: int, push: Any) -> bool:
        """``resource.Quantity.UnmarshalJSON``: ``ParseQuantity`` of the JSON text (a string's without quotes).

        Its error (``quantities must match the regular expression ...``) is not an ``UnmarshalTypeError``: it
        aborts decoding and is reported as it is. Mirrors ``k8s.io/apimachinery/pkg/api/resource/quantity.go``.
        """
        if isinstance(val, (_dt.datetime, _dt.date)):
            val = _as_string(val)
        if isinstance(val, str):
            text = val
        elif isinstance(val, float) and not math.isfinite(val):
            self.fatal(scope, _Err(path, val, plain=_unsupported(val)))
            return False
        elif not isinstance(val, bool) and isinstance(val, (int, float)):
            text = _number_text(val) or str(val)
        else:
            text = go_json_marshal(normalize_json(val))
        problem = parse_quantity_error(text.strip(" \t\n\r\v\f"))
        if problem:
            self.fatal(scope, _Err(path, val, plain=problem))
            _push_skip(push, val, cdepth)
            return False
        holder[slot] = val if isinstance(val, str) else text
        return True


_SCHEMA_SLICES: dict[int, T.GoType] = {}


def _schema_slice(schema: T.GoType) -> T.GoType:
    """``[]JSONSchemaProps``, the target of ``JSONSchemaPropsOrArray`` given an array."""
    st = _SCHEMA_SLICES.get(id(schema))
    if st is None:
        st = _SCHEMA_SLICES[id(schema)] = T.GoType(T.SLICE, "[]" + schema.go, schema)
    return st


def _all_str(values: Any) -> bool:
    """Whether every element is a ``str`` itself (not a subclass): a []string the walk would copy as it is."""
    for v in values:
        if v.__class__ is not str:
            return False
    return True


def _all_str_items(mapping: dict[Any, Any]) -> bool:
    """Whether every key and value is a ``str`` itself: a map[string]string the walk would copy as it is."""
    for k, v in mapping.items():
        if k.__class__ is not str or v.__class__ is not str:
            return False
    return True


def _unptr(t: T.GoType) -> T.GoType:
    # For decoding, a pointer differs from its element only in null handling,
    # and null is handled the same way for both (dropped from a struct).
    while t.kind == T.PTR:
        assert t.elem is not None
        t = t.elem
    return t


def _push_skip(push: Any, val: Any, cdepth: int) -> None:
    """Walk a subtree the decoder skips, only to find nesting beyond MAX_DEPTH."""
    if isinstance(val, dict):
        for sub in val.values():
            if isinstance(sub, (dict, list, tuple)):
                push((sub, _SKIP, None, None, None, "", None, None, cdepth, False))
    elif isinstance(val, (list, tuple)):
        for sub in val:
            if isinstance(sub, (dict, list, tuple)):
                push((sub, _SKIP, None, None, None, "", None, None, cdepth, False))


def _zero(t: T.GoType) -> Any:
    kind = t.kind
    if kind in (T.OR_ARRAY, T.OR_STRING_ARRAY):
        return []
    if kind == T.OR_BOOL:
        return False
    return T.zero_value(t)


def _desc(val: Any) -> str:
    """``UnmarshalTypeError.Value`` for a JSON value."""
    if isinstance(val, bool):
        return "bool"
    if isinstance(val, (int, float)):
        return "number"
    if isinstance(val, dict):
        return "object"
    if isinstance(val, (list, tuple)):
        return "array"
    return "string"


def _key(key: Any) -> str:
    """A mapping key as the JSON object key sigs.k8s.io/yaml would write."""
    if isinstance(key, str):
        return key
    if isinstance(key, bool):
        return "true" if key else "false"
    if key is None:
        return "null"
    if isinstance(key, (int, float)):
        return _number_text(key) or str(key)
    return _as_string(key)


def _as_string(val: Any) -> str:
    if isinstance(val, _dt.datetime):
        text = val.isoformat()
        return text[:-6] + "Z" if text.endswith("+00:00") else text
    if isinstance(val, _dt.date):
        return val.isoformat()
    if isinstance(val, bytes):
        return val.decode("utf-8", "replace")
    return str(val)


def _int_to_float(n: int) -> Any:
    try:
        return float(n)
    except OverflowError:
        return n


def _as_int(val: Any, lo: int, hi: int) -> int | None:
    """``strconv.ParseInt`` of the JSON text of a number, with overflow check."""
    if isinstance(val, float):
        lit = _number_text(val)
        if lit is None or not lit.lstrip("-").isdigit():
            return None
        val = int(lit)
    if lo <= val <= hi:
        return int(val)
    return None


def _number_text(val: Any) -> str | None:
    """The JSON text of a number as kubectl sends it (Go encoding/json); None if not finite."""
    if isinstance(val, int):
        if _INT64_MIN <= val < 2**64:
            return str(val)
        try:
            val = float(val)
        except OverflowError:
            return str(val)
    if not math.isfinite(val):
        return None
    return go_json_float(val)


def _unsupported(val: Any) -> str:
    # What kubectl's json.Marshal says before anything reaches the apiserver.
    if isinstance(val, float) and math.isnan(val):
        return "json: unsupported value: NaN"
    return f"json: unsupported value: {'+Inf' if val > 0 else '-Inf'}"


# --- base64 (encoding/base64 StdEncoding.Decode) ------------------------------

_B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
_B64_MAP = {ord(c): i for i, c in enumerate(_B64)}


#: Base64 text that ``base64.StdEncoding`` decodes without a question, with a length that is a multiple of 4:
#: the alphabet, then at most two ``=`` (the padding of the last quantum, ``xx==`` or ``xxx=``), no line breaks
#: (Go skips them; the walk handles them).
_CANONICAL_B64_RE = re.compile(r"[A-Za-z0-9+/]*={0,2}")


def go_base64_decode(text: str) -> tuple[bytes, str]:
    """``base64.StdEncoding.Decode``: bytes, or ``b""`` and ``illegal base64 data at input byte N``.

    Skips ``\\r`` and ``\\n`` like Go; padding is required. Mirrors
    ``encoding/base64`` ``Encoding.Decode``/``decodeQuantum`` (non-strict).
    Canonical text (whole quanta, :data:`_CANONICAL_B64_RE`) is decoded by ``binascii`` (the same bytes: both drop the
    padding bits of the last quantum, as Go's non-strict decoding does); anything else, by the walk below.
    """
    if len(text) % 4 == 0 and _CANONICAL_B64_RE.fullmatch(text) is not None:
        return binascii.a2b_base64(text), ""
    return _go_base64_decode_walk(text)


def _go_base64_decode_walk(text: str) -> tuple[bytes, str]:
    """:func:`go_base64_decode` byte by byte: ``encoding/base64`` ``Encoding.Decode``/``decodeQuantum``."""
    src = text.encode("utf-8", "surrogatepass")
    out = bytearray()
    si = 0
    n = len(src)
    while si < n:
        dbuf = [0, 0, 0, 0]
        dlen = 4
        j = 0
        while j < 4:
            if si == n:
                if j == 0:
                    return bytes(out), ""
                return b"", _corrupt(si - j)
            c = src[si]
            si += 1
            v = _B64_MAP.get(c)
            if v is not None:
                dbuf[j] = v
                j += 1
                continue
            if c in (0x0A, 0x0D):
                continue
            if c != 0x3D:  # '='
                return b"", _corrupt(si - 1)
            if j in (0, 1):
                return b"", _corrupt(si - 1)
            if j == 2:
                while si < n and src[si] in (0x0A, 0x0D):
                    si += 1
                if si == n:
                    return b"", _corrupt(n)
                if src[si] != 0x3D:
                    return b"", _corrupt(si - 1)
                si += 1
            while si < n and src[si] in (0x0A, 0x0D):
                si += 1
            if si < n:
                return b"", _corrupt(si)
            dlen = j
            break
        val = (dbuf[0] << 18) | (dbuf[1] << 12) | (dbuf[2] << 6) | dbuf[3]
        chunk = bytes([(val >> 16) & 0xFF, (val >> 8) & 0xFF, val & 0xFF])
        out += chunk[: dlen - 1]
    return bytes(out), ""


def _corrupt(offset: int) -> str:
    return f"illegal base64 data at input byte {offset}"


# --- metav1.Time (time.Parse(time.RFC3339, s)) ---------------------------------



