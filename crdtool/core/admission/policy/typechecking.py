"""Type checking of a ValidatingAdmissionPolicy against the kinds it matches: ``k8s.io/apiserver``
``pkg/admission/plugin/policy/validating/typechecking.go`` (``TypeChecker.Check``, ``typesToCheck``,
``CheckExpression``; v0.30.0 … v0.37.0-beta.0), what the apiserver writes to
``status.typeChecking.expressionWarnings``.

The kinds are those of the bundle's CRDs that the policy's ``matchConstraints.resourceRules`` name without
wildcards (at most 10, sorted by group, version, kind); each ``validations[i].expression`` and
``messageExpression`` is compiled with ``object``/``oldObject`` typed by the kind's schema (and ``params`` by the
paramKind's, when the bundle has it; undeclared otherwise, as upstream). A warning is ``<GVK>: <issues>\\n``
per failing kind, joined by newlines.

Differences: the object's type is the CRD's structural schema with ``metadata`` as the full ``ObjectMeta``
(upstream resolves the published OpenAPI, whose ``metadata`` is ``ObjectMeta``); the generated type name is
``<Kind>0`` (upstream appends the current nanosecond); built-in kinds are checked against the release's OpenAPI
definitions (:mod:`crdtool.core.builtin.catalog`), a schema without a type (IntOrString, Quantity) as ``dyn`` and a
definition that refers back to itself (``JSONSchemaProps``) as ``dyn`` below its first use.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from crdtool.core.celgo import types as T
from crdtool.core.kubecel.admission import PolicyEnvironment
from crdtool.core.kubecel.decltype import DeclField, DeclType, schema_decl_type
from crdtool.core.releases import Release

__all__ = ["type_check"]

_MAX_TYPES_TO_CHECK = 10


def _string() -> DeclType:
    return DeclType("string", T.STRING)


def _object_meta(prefix: str) -> DeclType:
    """``metav1.ObjectMeta`` as the published OpenAPI declares it (the fields a policy reads)."""
    s = T.STRING
    smap = DeclType("map", T.map_of(s, s), key_type=_string(), elem_type=_string(), max_elements=-1)
    slist = DeclType("list", T.list_of(s), elem_type=_string(), max_elements=-1)
    owner_name = f"{prefix}.metadata.ownerReferences.@idx"
    owner = DeclType(owner_name, T.object_type(owner_name), fields={
        n: DeclField(n, t, r) for n, t, r in (
            ("apiVersion", _string(), True), ("kind", _string(), True), ("name", _string(), True),
            ("uid", _string(), True), ("controller", DeclType("bool", T.BOOL), False),
            ("blockOwnerDeletion", DeclType("bool", T.BOOL), False))})
    fields: list[tuple[str, DeclType]] = [
        ("name", _string()), ("generateName", _string()), ("namespace", _string()), ("uid", _string()),
        ("resourceVersion", _string()), ("generation", DeclType("int", T.INT)),
        ("creationTimestamp", DeclType("timestamp", T.TIMESTAMP)),
        ("deletionTimestamp", DeclType("timestamp", T.TIMESTAMP)),
        ("deletionGracePeriodSeconds", DeclType("int", T.INT)), ("labels", smap), ("annotations", smap),
        ("finalizers", slist),
        ("ownerReferences", DeclType("list", T.list_of(owner.cel_type), elem_type=owner, max_elements=-1)),
        ("managedFields", DeclType("list", T.list_of(T.DYN), elem_type=DeclType("dyn", T.DYN), max_elements=-1)),
    ]
    name = f"{prefix}.metadata"
    return DeclType(name, T.object_type(name), fields={n: DeclField(n, t, False) for n, t in fields})


def _kind_decl(crd: Mapping[str, Any], version: str, release: Release) -> DeclType | None:
    from crdtool.core.customresource import prepare_crd

    try:
        prepared = prepare_crd(dict(crd), release.name)
    except Exception:  # a CRD the apiserver would not serve has no schema to check against
        return None
    ver = prepared.version(version)
    if ver is None or not ver.served or ver.structural is None:
        return None
    decl = schema_decl_type(ver.structural, True, release.minor)
    if decl is None:
        return None
    named = decl.maybe_assign_type_name(f"{prepared.kind}0")
    if named.fields is not None:
        fields = dict(named.fields)
        fields["metadata"] = DeclField("metadata", _object_meta(named.name), True)
        named = DeclType(named.name, named.cel_type, fields, named.key_type, named.elem_type, named.max_elements,
                         named.min_serialized_size)
    return named


_SCALARS = {"boolean": T.BOOL, "integer": T.INT, "number": T.DOUBLE}
_STRING_FORMATS = {"byte": T.BYTES, "date-time": T.TIMESTAMP, "duration": T.DURATION}


def _openapi_decl(schema: Mapping[str, Any], release: Release, name: str, depth: int = 0,
                  seen: frozenset[str] = frozenset()) -> DeclType:
    """``common.SchemaDeclType`` of a built-in kind's OpenAPI schema (``$ref`` resolved in the release's
    definitions); a schema without a type (IntOrString, Quantity) is ``dyn``."""
    from crdtool.core.builtin import catalog

    ref = schema.get("$ref")
    if isinstance(ref, str):
        target = ref.rsplit("/", 1)[-1]
        if depth > 60 or target in seen:
            return DeclType("dyn", T.DYN)
        return _openapi_decl(catalog.definition(release, target), release, name, depth + 1, seen | {target})
    all_of = schema.get("allOf")
    if isinstance(all_of, list) and len(all_of) == 1 and isinstance(all_of[0], Mapping):
        return _openapi_decl(all_of[0], release, name, depth + 1, seen)
    t = schema.get("type")
    if t == "object" or (t is None and "properties" in schema):
        props = schema.get("properties")
        if isinstance(props, Mapping) and props:
            fields = {k: DeclField(k, _openapi_decl(v, release, f"{name}.{k}", depth + 1, seen), False)
                      for k, v in props.items() if isinstance(v, Mapping)}
            return DeclType(name, T.object_type(name), fields=fields)
        add = schema.get("additionalProperties")
        elem = _openapi_decl(add, release, f"{name}.@elem", depth + 1, seen) if isinstance(add, Mapping) else DeclType("dyn", T.DYN)
        return DeclType("map", T.map_of(T.STRING, elem.cel_type), key_type=_string(), elem_type=elem, max_elements=-1)
    if t == "array":
        items = schema.get("items")
        elem = _openapi_decl(items, release, f"{name}.@idx", depth + 1, seen) if isinstance(items, Mapping) else DeclType("dyn", T.DYN)
        return DeclType("list", T.list_of(elem.cel_type), elem_type=elem, max_elements=-1)
    if t == "string":
        fmt = _STRING_FORMATS.get(str(schema.get("format") or ""))
        return DeclType("string", fmt or T.STRING)
    if t in _SCALARS:
        return DeclType(str(t), _SCALARS[str(t)])
    return DeclType("dyn", T.DYN)


def _builtin_kind_decl(release: Release, group: str, version: str, kind: str) -> DeclType | None:
    from crdtool.core.builtin import catalog

    info = catalog.kind_info(release, f"{group}/{version}" if group else version, kind)
    if info is None or not info.definition:
        return None
    return _openapi_decl(catalog.definition(release, info.definition), release, f"{kind}0")


def _builtin_kinds_for(release: Release, group: str, version: str, resource: str) -> list[str]:
    """``RESTMapper.KindsFor`` among the release's served built-in kinds."""
    from crdtool.core.builtin import catalog

    return sorted({k.kind for k in catalog.kinds(release)
                   if k.group == group and k.version == version and k.resource == resource and k.served})


def _types_to_check(policy: Mapping[str, Any], crds: list[dict[str, Any]],
                    release: Release | None = None) -> list[tuple[str, str, str, dict[str, Any] | None]]:
    """``typesToCheck``: the (group, version, kind, crd or None for a built-in kind) the rules name, sorted."""
    mc = (policy.get("spec") or {}).get("matchConstraints") or {}
    found: dict[tuple[str, str, str], dict[str, Any] | None] = {}
    count = 0
    for rule in mc.get("resourceRules") or []:
        groups = [str(g) for g in rule.get("apiGroups") or []]
        versions = [str(v) for v in rule.get("apiVersions") or []]
        if not groups or any("*" in g for g in groups) or not versions or any("*" in v for v in versions):
            continue
        resources = sorted(str(r) for r in rule.get("resources") or [] if "*" not in str(r) and "/" not in str(r))
        for g in sorted(groups):
            for v in sorted(versions):
                for r in resources:
                    for bkind in _builtin_kinds_for(release, g, v, r) if release is not None else []:
                        if (g, v, bkind) not in found:
                            found[(g, v, bkind)] = None
                            count += 1
                            if count == _MAX_TYPES_TO_CHECK:
                                return [(*k, found[k]) for k in sorted(found)]
                    for crd in crds:
                        spec = crd.get("spec") or {}
                        names = spec.get("names") or {}
                        served = {str(x.get("name")) for x in spec.get("versions") or [] if x.get("served")}
                        if spec.get("group") == g and names.get("plural") == r and v in served:
                            found[(g, v, str(names.get("kind") or ""))] = crd
                            count += 1
                            if count == _MAX_TYPES_TO_CHECK:
                                return [(*k, found[k]) for k in sorted(found)]
    return [(*k, found[k]) for k in sorted(found)]


def _gvk_string(group: str, version: str, kind: str) -> str:
    """``schema.GroupVersionKind.String()``."""
    return f"{group}/{version}, Kind={kind}"


def type_check(policy: Mapping[str, Any], release: Release, crds: list[dict[str, Any]]) -> list[dict[str, str]]:
    """``TypeChecker.Check``: ``[{policy, fieldRef, warning}]`` in the order of the validations."""
    spec = policy.get("spec") or {}
    name = str((policy.get("metadata") or {}).get("name") or "")
    kinds = []
    for g, v, k, crd in _types_to_check(policy, crds, release):
        decl = _kind_decl(crd, v, release) if crd is not None else _builtin_kind_decl(release, g, v, k)
        if decl is not None:
            kinds.append((g, v, k, decl))
    if not kinds:
        return []
    params_decl = None
    pk = spec.get("paramKind")
    if isinstance(pk, Mapping):
        pg, _, pv = str(pk.get("apiVersion") or "").rpartition("/")
        for crd in crds:
            cs = crd.get("spec") or {}
            if cs.get("group") == pg and (cs.get("names") or {}).get("kind") == pk.get("kind"):
                params_decl = _kind_decl(crd, pv, release)
        if params_decl is None:
            params_decl = _builtin_kind_decl(release, pg, pv, str(pk.get("kind") or ""))
    envs = []
    for g, v, k, decl in kinds:
        variables: list[tuple[str, T.Type | None]] = []
        for var in spec.get("variables") or []:
            env = PolicyEnvironment(release, params_decl is not None, True, True, tuple(variables), decl, params_decl, True)
            variables.append((str(var.get("name") or ""), env.compile(str(var.get("expression") or ""), (T.ANY,)).output_type))
        envs.append((_gvk_string(g, v, k), PolicyEnvironment(
            release, params_decl is not None, True, True, tuple(variables), decl, params_decl, True)))

    def check(expression: str) -> str:
        messages = []
        for gvk, env in envs:
            r = env.compile(expression, (T.ANY,))
            if r.error:
                messages.append(f"{gvk}: {r.error}\n" if r.error_type == "Invalid" else
                                f"{gvk}: type checking error: {r.error}\n")
        return "\n".join(messages)

    out: list[dict[str, str]] = []
    for i, val in enumerate(spec.get("validations") or []):
        w = check(str(val.get("expression") or ""))
        if w:
            out.append({"policy": name, "fieldRef": f"spec.validations[{i}].expression", "warning": w})
        msg = val.get("messageExpression")
        if msg:
            w = check(str(msg))
            if w:
                out.append({"policy": name, "fieldRef": f"spec.validations[{i}].messageExpression", "warning": w})
    return out
