"""``kubectl explain``'s answer for a CRD, offline: the same layout, plus the rules, default and enum.

kubectl 1.27+ explains a resource from the apiserver's OpenAPI v3 document of its group-version
through the Go template ``pkg/explain/v2/templates/plaintext.tmpl`` (kubernetes/kubectl @v0.35.0;
identical in what it prints from v0.30.0 to v0.36.0 but for ``extractEnum``, present since v0.30.0). This module
ports that template function by function (``output``, ``fieldList``, ``fieldDetail``, ``description``,
``typeGuess``, ``extractEnum``) with its helpers (``wrap``: ``pkg/util/term`` over
``github.com/mitchellh/go-wordwrap`` v1.0.1 ``WrapString``; ``indent``; ``resolveRef``), over the
document the apiserver would publish for the CRD: the version's schema with ``metadata`` replaced by
a reference to ObjectMeta and ``apiVersion``/``kind`` by TypeMeta's, embedded resources given the
same (``pkg/controller/openapi/builder/builder.go`` @v0.35.0, ``buildKubeNative``,
``addEmbeddedProperties``); ObjectMeta and the types it references are bundled from Kubernetes 1.35's
published OpenAPI (``crdtool/docs/data/objectmeta-1.35.json``).

Beyond kubectl (after the DESCRIPTION of the explained field, before its FIELDS): ``DEFAULT:`` (the
value defaulting applies), ``RULES:`` (each ``x-kubernetes-validations`` entry with its idiom in words
from :mod:`crdtool.core.crdcel.idioms`, its message, reason and fieldPath) and, for list items and
map values, their enum and rules. ``extras=False`` prints kubectl's text alone.
"""

from __future__ import annotations

import copy
import json
import math
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any, Callable, Mapping, Sequence

__all__ = ["ExplainError", "explain_builtin", "explain_crd", "find_builtin", "find_version", "go_wrap", "matches_resource",
           "render_explain"]

_OBJECT_META_REF = "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"
#: metav1beta1.PartialObjectMetadata{}.SwaggerDoc()["metadata"]
_METADATA_DESCRIPTION = (
    "Standard object's metadata. More info: "
    "https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata"
)
#: TypeMeta's properties as the v3 definitions give them (openapi-spec/v3 of kubernetes 1.35)
_TYPE_META = {
    "apiVersion": {
        "description": "APIVersion defines the versioned schema of this representation of an object. Servers should "
        "convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: "
        "https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources",
        "type": "string",
    },
    "kind": {
        "description": "Kind is a string value representing the REST resource this object represents. Servers may "
        "infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: "
        "https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds",
        "type": "string",
    },
}
#: builder.go addEmbeddedProperties: the descriptions of an embedded resource's apiVersion and kind
_EMBEDDED_DESCRIPTIONS = {
    "apiVersion": "apiVersion defines the versioned schema of this representation of an object. More info: "
    "https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources",
    "kind": "kind is a string value representing the type of this object. In CamelCase. More info: "
    "https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds",
}


class ExplainError(Exception):
    """What kubectl prints as ``error: ...`` (the text without the prefix)."""


@dataclass(frozen=True)
class _Target:
    group: str
    version: str
    kind: str
    schema: dict[str, Any]


def matches_resource(crd: Mapping[str, Any], name: str) -> bool:
    """Does ``name`` name the CRD's resource as kubectl's RESTMapper matches it: the plural, the
    singular, a short name or the kind, case-insensitively (``ResourceFor`` lower-cases the input)?"""
    names = _map(_map(crd.get("spec")).get("names"))
    wanted = name.lower()
    candidates = [names.get("plural"), names.get("singular"), names.get("kind"), *_list(names.get("shortNames"))]
    return any(isinstance(c, str) and c and c.lower() == wanted for c in candidates)


def find_version(crd: Mapping[str, Any], api_version: str | None) -> str:
    """The version kubectl explains: ``api_version`` (``group/version`` or ``version``) when given, else
    the preferred one (discovery's: the served version of the highest priority). Raises ExplainError."""
    from crdtool.core.versions import sort_versions

    spec = _map(crd.get("spec"))
    group = _str(spec.get("group"))
    versions = {_str(_map(v).get("name")): _map(v) for v in _list(spec.get("versions"))}
    if api_version:
        g, _, v = api_version.rpartition("/")
        if (g and g != group) or v not in versions or versions[v].get("served") is False:
            raise ExplainError(f"couldn't find resource for \"{group}/{v}, Resource={_str(_map(spec.get('names')).get('plural'))}\"")
        return v
    served = [v for v in sort_versions(list(versions)) if versions[v].get("served") is not False]
    if not served:
        raise ExplainError(f"the server doesn't have a resource type \"{_str(_map(spec.get('names')).get('plural'))}\"")
    return served[0]


def explain_crd(
    crd: Mapping[str, Any], field_path: Sequence[str], *, api_version: str | None = None, recursive: bool = False,
    extras: bool = True,
) -> str:
    """The text ``kubectl explain RESOURCE.FIELD...`` prints for a CRD installed on a cluster.

    In: a CRD manifest (``v1`` or ``v1beta1``), the field path after the resource (``["spec", "secretName"]``),
    ``api_version`` (``--api-version``), ``recursive`` (``--recursive``), ``extras`` (crdtool's DEFAULT and
    RULES sections). Out: the text, ending in a newline. Raises ExplainError (kubectl's messages:
    ``field "x" does not exist``) and ValueError when ``crd`` is not a CRD.
    """
    from crdtool.core.crd.conversion import internal_to_v1, to_internal
    from crdtool.core.crd.decode import decode_crd
    from crdtool.core.crd.defaults import default_crd
    from crdtool.core.crd.manifest import is_crd

    if not is_crd(crd):
        raise ValueError("not an apiextensions.k8s.io/v1 or v1beta1 CustomResourceDefinition")
    decoded, _ = decode_crd(crd)
    v1 = internal_to_v1(to_internal(default_crd(decoded)))
    version = find_version(v1, api_version)
    spec = _map(v1.get("spec"))
    entry = next(_map(v) for v in _list(spec.get("versions")) if _map(v).get("name") == version)
    raw = _map(_map(entry.get("schema")).get("openAPIV3Schema"))
    target = _Target(_str(spec.get("group")), version, _str(_map(spec.get("names")).get("kind")), published_schema(raw))
    return render_explain(target.group, target.version, target.kind, target.schema, field_path,
                          recursive=recursive, extras=extras)


def published_schema(schema: Mapping[str, Any]) -> dict[str, Any]:
    """The schema as the apiserver publishes it in OpenAPI v3 (builder.go ``buildKubeNative``): metadata a
    reference to ObjectMeta, apiVersion and kind TypeMeta's, embedded resources likewise. No schema: an
    object without properties."""
    if not schema:
        return {"type": "object"}
    out = copy.deepcopy(dict(schema))
    props = dict(_map(out.get("properties")))
    props["metadata"] = {"$ref": _OBJECT_META_REF, "description": _METADATA_DESCRIPTION}
    props.update(copy.deepcopy(_TYPE_META))
    out["properties"] = props
    _add_embedded(out)
    return out


def _add_embedded(s: dict[str, Any]) -> None:
    for v in _map(s.get("properties")).values():
        if isinstance(v, dict):
            _add_embedded(v)
    for key in ("items", "additionalProperties"):
        if isinstance(s.get(key), dict):
            _add_embedded(s[key])
    if s.get("x-kubernetes-embedded-resource") is True:
        props = dict(_map(s.get("properties")))
        for name in ("apiVersion", "kind"):
            props[name] = {**_TYPE_META[name], "description": _EMBEDDED_DESCRIPTIONS[name]}
        props["metadata"] = {"$ref": _OBJECT_META_REF, "description": _METADATA_DESCRIPTION}
        s["properties"] = props
        required = list(_list(s.get("required")))
        for name in ("kind", "apiVersion"):
            if name not in required:
                required.append(name)
        s["required"] = required


@lru_cache(maxsize=1)
def _object_meta_document() -> dict[str, Any]:
    text = resources.files("crdtool.docs").joinpath("data/objectmeta-1.35.json").read_text(encoding="utf-8")
    doc: dict[str, Any] = json.loads(text)
    return doc


def render_explain(
    group: str, version: str, kind: str, schema: Mapping[str, Any], field_path: Sequence[str], *,
    recursive: bool = False, extras: bool = True, definitions: Mapping[str, Any] | None = None,
) -> str:
    """plaintext.tmpl's top level for a kind whose published schema is ``schema``: the GROUP/KIND/VERSION
    header, then the explained field. ``definitions``: extra ``components.schemas`` for ``$ref``s (the
    bundled ObjectMeta types are always there). Raises ExplainError when the path does not exist."""
    schemas = dict(_object_meta_document()["components"]["schemas"])
    schemas.update(definitions or {})
    doc = {"components": {"schemas": schemas}}
    return _render(group, version, kind, schema, field_path, _Ctx(lambda ref: _resolve(ref, doc), recursive, extras))


def _render(group: str, version: str, kind: str, schema: Mapping[str, Any], field_path: Sequence[str], ctx: _Ctx) -> str:
    head = (f"GROUP:      {group}\n" if group else "") + f"KIND:       {kind}\n" + f"VERSION:    {version}\n" + "\n"
    body = _output(ctx, dict(schema), {}, list(field_path))
    if not body:
        name = field_path[-1] if field_path else ""
        raise ExplainError(f'field "{name}" does not exist')
    return head + body + "\n"


@dataclass(frozen=True)
class _Ctx:
    resolve: Callable[[Any], dict[str, Any] | None]  # funcs.go resolveRef over the group-version's document
    recursive: bool
    extras: bool


# --- built-in kinds --------------------------------------------------------------------------------------


def explain_builtin(
    release: str, resource: str, field_path: Sequence[str], *, api_version: str | None = None, recursive: bool = False,
    extras: bool = True,
) -> str:
    """``kubectl explain`` for a built-in kind of Kubernetes ``release`` (``"1.35"``), from the release's published
    OpenAPI v3 (:mod:`crdtool.core.builtin.catalog`). ``resource``: the plural resource, the kind or a short name
    (:data:`BUILTIN_SHORT_NAMES`), case-insensitively; the version is ``api_version``'s, else the served version of the highest priority
    (the core group first when several groups have the resource, as kubectl's RESTMapper orders them). Raises
    ExplainError (kubectl's messages) when no served kind matches or the field does not exist."""
    info = find_builtin(release, resource, api_version)
    ctx = _Ctx(lambda ref: _builtin_definition(release, ref), recursive, extras)
    root = _builtin_definition(release, info.definition)
    if root is None:
        raise ExplainError(f"GVK {info.api_version} {info.kind} not found in OpenAPI schema")
    return _render(info.group, info.version, info.kind, root, field_path, ctx)


#: Short names kube-apiserver's discovery gives built-in resources: ``ShortNames()`` of
#: kubernetes ``pkg/registry/<group>/<resource>/storage/storage.go`` (read at openshift/microshift release-4.19,
#: Kubernetes 1.32; unchanged in the releases since), by ``(group, resource)``.
BUILTIN_SHORT_NAMES: dict[tuple[str, str], tuple[str, ...]] = {
    ("apps", "daemonsets"): ("ds",), ("apps", "deployments"): ("deploy",), ("apps", "replicasets"): ("rs",),
    ("apps", "statefulsets"): ("sts",), ("autoscaling", "horizontalpodautoscalers"): ("hpa",),
    ("batch", "cronjobs"): ("cj",), ("certificates.k8s.io", "certificatesigningrequests"): ("csr",),
    ("", "configmaps"): ("cm",), ("", "endpoints"): ("ep",), ("", "events"): ("ev",), ("", "limitranges"): ("limits",),
    ("", "namespaces"): ("ns",), ("", "nodes"): ("no",), ("", "persistentvolumes"): ("pv",),
    ("", "persistentvolumeclaims"): ("pvc",), ("", "pods"): ("po",), ("", "replicationcontrollers"): ("rc",),
    ("", "resourcequotas"): ("quota",), ("", "services"): ("svc",), ("", "serviceaccounts"): ("sa",),
    ("networking.k8s.io", "ingresses"): ("ing",), ("networking.k8s.io", "ipaddresses"): ("ip",),
    ("networking.k8s.io", "networkpolicies"): ("netpol",), ("policy", "poddisruptionbudgets"): ("pdb",),
    ("scheduling.k8s.io", "priorityclasses"): ("pc",), ("storage.k8s.io", "storageclasses"): ("sc",),
    ("storage.k8s.io", "volumeattributesclasses"): ("vac",),
}


def find_builtin(release: str, resource: str, api_version: str | None) -> Any:
    """The :class:`~crdtool.core.builtin.catalog.KindInfo` kubectl would explain for ``resource``."""
    from crdtool.core.builtin import catalog
    from crdtool.core.versions import sort_versions

    wanted = resource.lower()
    group = version = None
    if api_version:
        group, version = catalog.parse_api_version(api_version)
    found = [k for k in catalog.kinds(release)
             if k.served and k.definition
             and wanted in (k.resource.lower(), k.kind.lower(), *BUILTIN_SHORT_NAMES.get((k.group, k.resource), ()))
             and (group is None or (k.group, k.version) == (group, version))]
    if not found:
        target = f"{api_version}, Resource={resource}" if api_version else resource
        raise ExplainError(f"the server doesn't have a resource type \"{target}\"")
    groups = sorted({k.group for k in found}, key=lambda g: (g != "", g))
    in_group = [k for k in found if k.group == groups[0]]
    best = sort_versions([k.version for k in in_group])[0]
    return next(k for k in in_group if k.version == best)


def _builtin_definition(release: str, ref: Any) -> dict[str, Any] | None:
    if not isinstance(ref, str) or not ref:
        return None
    return _published_definition(release, ref.rsplit("/", 1)[-1])


@lru_cache(maxsize=4096)
def _published_definition(release: str, name: str) -> dict[str, Any] | None:
    """A definition as the published document has it: descriptions back, ``$ref`` as ``#/components/schemas/``
    references, a ``$ref`` beside other keywords inside ``allOf`` (kube-openapi's v3 form)."""
    from crdtool.core.builtin import catalog

    try:
        schema = catalog.definition(release, name)
        docs = catalog.definition_docs(release, name)
    except KeyError:
        return None
    out = _published(schema)
    if docs.get(""):
        out["description"] = docs[""]
    props = out.get("properties")
    if isinstance(props, dict):
        for prop, text in docs.items():
            if prop and isinstance(props.get(prop), dict):
                props[prop] = _wrap_ref({**props[prop], "description": text})
    return out


def _published(s: Any) -> Any:
    if isinstance(s, list):
        return [_published(x) for x in s]
    if not isinstance(s, dict):
        return s
    out = {k: (v if k in ("enum", "default", "example", "required") else _published(v)) for k, v in s.items()}
    if k_ref := out.get("$ref"):
        out["$ref"] = k_ref if str(k_ref).startswith("#") else f"#/components/schemas/{k_ref}"
    if "properties" in s and isinstance(s["properties"], dict):
        out["properties"] = {k: _wrap_ref(_published(v)) for k, v in s["properties"].items()}
    for key in ("items", "additionalProperties"):
        if isinstance(out.get(key), dict):
            out[key] = _wrap_ref(out[key])
    return out


def _wrap_ref(s: dict[str, Any]) -> dict[str, Any]:
    if "$ref" in s and len(s) > 1:
        rest = {k: v for k, v in s.items() if k != "$ref"}
        return {"allOf": [{"$ref": s["$ref"]}], **rest}
    return s


def _resolve(ref: Any, document: Mapping[str, Any]) -> dict[str, Any] | None:
    """funcs.go ``resolveRef``: a fragment-only JSON reference into the document, else None."""
    if not isinstance(ref, str) or not ref.startswith("#"):
        return None
    cur: Any = document
    for k in ref[1:].split("/"):
        if not k:
            continue
        nxt = cur.get(k) if isinstance(cur, dict) else None
        if not isinstance(nxt, dict):
            return None
        cur = nxt
    return cur if isinstance(cur, dict) else None


def _is_map_schema(value: Any) -> bool:
    """``and .additionalProperties (not (eq "bool" (printf "%T" ...)))``: a non-empty schema object."""
    return isinstance(value, dict) and bool(value)


def _output(ctx: _Ctx, schema: dict[str, Any], history: dict[str, int], path: list[str]) -> str:
    ref = schema.get("$ref") or ""
    handed_down, history = history, {**history, ref: 1}
    resolved = ctx.resolve(ref) or schema
    if not path:
        out = "DESCRIPTION:\n"
        out += go_indent(4, go_wrap(76, _description(ctx, resolved) or "<empty>")) + "\n"
        if ctx.extras:
            out += _extras(resolved)
        fields = _field_list(ctx, resolved, 1, {})
        if fields:
            out += "FIELDS:\n" + fields
        return out
    if ref and handed_down.get(ref):  # a cycle
        return ""
    props = resolved.get("properties")
    if isinstance(props, dict) and props and props.get(path[0]):
        sub = props[path[0]]
        out = ""
        if len(path) == 1:
            out += f"FIELD: {path[0]} <{_type_guess(ctx, sub)}>\n"
            out += _extract_enum(sub, long_view=True, limit=-1, indent_amount=0) + "\n"
            out += "\n"
        return out + _output(ctx, sub, {}, path[1:])
    if resolved.get("items"):
        return _output(ctx, resolved["items"], history, path)
    if _is_map_schema(resolved.get("additionalProperties")):
        return _output(ctx, resolved["additionalProperties"], history, path)
    for sub in _list(resolved.get("allOf")):
        found = _output(ctx, sub, history, path)
        if found:
            return found
    return ""


def _field_list(ctx: _Ctx, schema: Mapping[str, Any], level: int, history: dict[str, int]) -> str:
    ref = schema.get("$ref") or ""
    if ref and history.get(ref):
        return ""
    history = {**history, ref: 1}
    resolved = ctx.resolve(ref) or dict(schema)
    out = []
    props = resolved.get("properties")
    if isinstance(props, dict):
        for name in sorted(props):
            out.append(_field_detail(ctx, name, resolved, short=ctx.recursive, level=level))
            if ctx.recursive:
                out.append(_field_list(ctx, props[name] if isinstance(props[name], dict) else {}, level + 1, history))
    for sub in _list(resolved.get("allOf")):
        out.append(_field_list(ctx, sub, level, history))
    if resolved.get("items"):
        out.append(_field_list(ctx, resolved["items"], level, history))
    if _is_map_schema(resolved.get("additionalProperties")):
        out.append(_field_list(ctx, resolved["additionalProperties"], level, history))
    return "".join(out)


def _field_detail(ctx: _Ctx, name: str, schema: Mapping[str, Any], *, short: bool, level: int) -> str:
    indent_amount = level * 2
    field = _map(_map(schema.get("properties")).get(name))
    out = go_indent(indent_amount, name) + "\t" + f"<{_type_guess(ctx, field)}>"
    if name in _list(schema.get("required")):
        out += " -required-"
    out += _extract_enum(field, long_view=False, limit=4, indent_amount=indent_amount)
    out += "\n"
    if not short:
        description = field.get("description") or "<no description>"
        out += go_indent(indent_amount + 2, go_wrap(78 - indent_amount, description)) + "\n"
        out += "\n"
    return out


def _description(ctx: _Ctx, schema: Mapping[str, Any]) -> str:
    s = ctx.resolve(schema.get("$ref")) or schema
    out = ""
    if s.get("description"):
        out += str(s["description"]) + "\n"
    for sub in _list(s.get("allOf")):
        out += _description(ctx, sub)
    if s.get("items"):
        out += _description(ctx, s["items"])
    if _is_map_schema(s.get("additionalProperties")):
        out += _description(ctx, s["additionalProperties"])
    return out


def _type_guess(ctx: _Ctx, schema: Mapping[str, Any]) -> str:
    if schema.get("items"):
        return "[]" + _type_guess(ctx, schema["items"])
    if _is_map_schema(schema.get("additionalProperties")):
        return "map[string]" + _type_guess(ctx, schema["additionalProperties"])
    all_of = _list(schema.get("allOf"))
    if all_of and not schema.get("properties") and len(all_of) == 1:
        return _type_guess(ctx, all_of[0])
    ref = schema.get("$ref")
    if ref:
        target = ctx.resolve(ref)
        if not target or not target.get("type") or target.get("type") == "object":
            name = str(ref).split("/")[-1]
            return name.split(".")[-1] or "Object"
        return str(target["type"])
    t = schema.get("type")
    if t == "object":
        return "Object"
    return str(t) if t else "Object"


def _extract_enum(schema: Mapping[str, Any], *, long_view: bool, limit: int, indent_amount: int) -> str:
    enum = schema.get("enum")
    if not isinstance(enum, list) or not enum:
        return ""
    limit = limit or -1
    out = ("\n" + " " * indent_amount + "enum: ") if not long_view else "ENUM:"
    for index, element in enumerate(enum):
        if limit > -1 and index >= limit:
            out += ", ...."
            break
        if index > 0 and not long_view:
            out += ", "
        elif long_view:
            out += "\n" + "    "
        out += '""' if element == "" else go_value(element)
    return out


def _extras(schema: Mapping[str, Any]) -> str:
    """crdtool's additions: DEFAULT and RULES of the explained field (and of its items / map values)."""
    from crdtool.core.crdcel.idioms import classify_rule, uses_old_self

    out = ""
    if "default" in schema:
        out += "DEFAULT:\n" + go_indent(4, json.dumps(schema["default"], sort_keys=True, ensure_ascii=False)) + "\n\n"
    lines: list[str] = []
    for scope, node in _scopes(schema):
        if scope and isinstance(node.get("enum"), list) and node["enum"]:
            lines.append(f"({scope}) one of: " + ", ".join(json.dumps(e, ensure_ascii=False) for e in node["enum"]))
        for r in _list(node.get("x-kubernetes-validations")):
            r = _map(r)
            text = _str(r.get("rule"))
            idiom = classify_rule(text)
            head = f"({scope}) " if scope else ""
            lines.append(f"- {head}{text}")
            if idiom is not None:
                lines.append(f"  means: {idiom.text}")
            if r.get("message"):
                lines.append(f"  message: {r['message']}")
            if r.get("messageExpression"):
                lines.append(f"  messageExpression: {r['messageExpression']}")
            if r.get("reason"):
                lines.append(f"  reason: {r['reason']}")
            if r.get("fieldPath"):
                lines.append(f"  fieldPath: {r['fieldPath']}")
            if (idiom.transition if idiom else uses_old_self(text)):
                lines.append("  checked: on updates that keep a value here" + (" and on creates (optionalOldSelf)" if r.get("optionalOldSelf") is True else ""))
    if lines:
        out += "RULES:\n" + "\n".join(go_indent(4, line) for line in lines) + "\n\n"
    return out


def _scopes(schema: Mapping[str, Any]) -> list[tuple[str, Mapping[str, Any]]]:
    out: list[tuple[str, Mapping[str, Any]]] = [("", schema)]
    node, scope = schema, ""
    while True:
        if isinstance(node.get("items"), dict):
            node, scope = node["items"], (scope + "'s items" if scope else "each item")
        elif _is_map_schema(node.get("additionalProperties")):
            node, scope = node["additionalProperties"], (scope + "'s values" if scope else "each value")
        else:
            return out
        out.append((scope, node))
        if node.get("properties"):
            return out


# --- Go's text helpers ---------------------------------------------------------------------------------


def go_indent(amount: int, text: str) -> str:
    """funcs.go ``indent``: the pad before the text and after every newline (empty lines too)."""
    pad = " " * amount
    return pad + text.replace("\n", "\n" + pad)


_GO_SPACE = frozenset("\t\n\v\f\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
                      "\u2028\u2029\u202f\u205f\u3000")
_NBSP = "\xa0"


def go_wrap(limit: int, s: str) -> str:
    """``wordwrap.WrapString`` (github.com/mitchellh/go-wordwrap v1.0.1), as kubectl's ``wrap`` calls it:
    breaks at white space (never inside a word, never at a non-breaking space) so that lines stay within
    ``limit`` characters where words allow. Counts characters as Go counts runes."""
    buf: list[str] = []
    current = 0
    word: list[str] = []
    space: list[str] = []
    for char in s:
        if char == "\n":
            if not word:
                if current + len(space) > limit:
                    current = 0
                else:
                    current += len(space)
                    buf.extend(space)
                space = []
            else:
                current += len(space) + len(word)
                buf.extend(space)
                space = []
                buf.extend(word)
                word = []
            buf.append(char)
            current = 0
        elif char in _GO_SPACE and char != _NBSP:
            if not space or word:
                current += len(space) + len(word)
                buf.extend(space)
                space = []
                buf.extend(word)
                word = []
            space.append(char)
        else:
            word.append(char)
            if current + len(word) + len(space) > limit and len(word) < limit:
                buf.append("\n")
                current = 0
                space = []
    if not word:
        if current + len(space) <= limit:
            buf.extend(space)
    else:
        buf.extend(space)
        buf.extend(word)
    return "".join(buf)


def go_value(value: Any) -> str:
    """A JSON value as Go's ``%v`` prints it after ``json.Unmarshal`` into ``any`` (numbers are float64)."""
    if value is None:
        return "<nil>"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return _go_float(float(value))
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return "[" + " ".join(go_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "map[" + " ".join(f"{k}:{go_value(value[k])}" for k in sorted(value)) + "]"
    return str(value)


def _go_float(f: float) -> str:
    """``strconv.FormatFloat(f, 'g', -1, 64)`` (what ``%v`` prints): the shortest digits that round-trip,
    in %e form when the decimal exponent is below -4 or at least 6 (``ftoa.go``: ``if shortest { eprec = 6 }``)."""
    if math.isinf(f):
        return "+Inf" if f > 0 else "-Inf"
    if math.isnan(f):
        return "NaN"
    if f == 0:
        return "-0" if math.copysign(1, f) < 0 else "0"
    sign = "-" if f < 0 else ""
    # repr gives the shortest round-tripping digits, as Go's shortest formatting does
    shortest = repr(abs(f))
    m, _, e = shortest.partition("e")
    whole, _, frac = m.partition(".")
    digits_all = (whole + frac).lstrip("0")
    lead_zeros = len(whole + frac) - len((whole + frac).lstrip("0"))
    point = len(whole) - lead_zeros + (int(e) if e else 0)  # digits before the decimal point
    digits = digits_all.rstrip("0") or "0"
    x = point - 1
    if x < -4 or x >= 6:
        mant = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
        return f"{sign}{mant}e{'+' if x >= 0 else '-'}{abs(x):02d}"
    if point <= 0:
        return f"{sign}0.{'0' * -point}{digits}"
    if point >= len(digits):
        return sign + digits + "0" * (point - len(digits))
    return f"{sign}{digits[:point]}.{digits[point:]}"


def _str(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _map(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []
