"""MutatingAdmissionPolicy: ``k8s.io/apiserver`` ``pkg/admission/plugin/policy/mutating`` (``compilation.go``
``compilePolicy``, ``dispatcher.go`` ``dispatchInvocations``/``dispatchOne``, ``reinvocationcontext.go``,
``patch/json_patch.go``, ``patch/smd.go``) over ``policy/generic/policy_dispatcher.go`` (``Dispatch``: matching,
params, the ``policy '<p>' with binding '<b>' denied request: ...`` errors), v0.32.0 … v0.37.0-beta.0.

Served behind the ``MutatingAdmissionPolicy`` feature gate: alpha (off) at 1.32 and 1.33, beta (off) at 1.34
and 1.35, GA (on) from 1.36 (``pkg/features/kube_features.go``).

ApplyConfiguration is merged as structured-merge-diff merges a typed value under the object's schema (the CRD's
structural schema: ``x-kubernetes-list-type: map`` lists by key, ``set`` lists as unions, other lists and
``x-kubernetes-map-type: atomic`` maps atomic, which ``validatePatch`` refuses in a patch); an object without a
schema here (a built-in kind) is merged as a deduced type: maps merged, lists replaced. JSONPatch is applied as
``gopkg.in/evanphx/json-patch.v4`` applies it (a failed ``test`` leaves the object unchanged).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from crdtool.core.admission.attributes import GVK, GVR, Attributes
from crdtool.core.admission.policy.matching import MatchError, Resources, matches_criteria
from crdtool.core.admission.policy.observer import EXPRESSION_OBSERVER
from crdtool.core.admission.policy.validating import (
    PER_CALL_LIMIT,
    RUNTIME_CEL_COST_BUDGET,
    Params,
    _activation,
    _collect_params,
    _EvalError,
    _match_conditions_for,
    evaluate_expressions,
)
from crdtool.core.celgo import types as T
from crdtool.core.celgo import values as V
from crdtool.core.kubecel.admission import PolicyCompilation, PolicyEnvironment
from crdtool.core.kubecel.mutation import JSONPatchVal, ObjectVal, check_type_names, to_json
from crdtool.core.releases import Release

__all__ = ["CompiledMutatingPolicy", "MutationOutcome", "compile_mutating_policy", "dispatch_mutating",
           "gate_default"]

#: ``MutatingAdmissionPolicy`` feature gate defaults by release (kube_features.go @v0.32.0 … @v0.37.0-beta.0).
_GATE_DEFAULTS = {32: False, 33: False, 34: False, 35: False, 36: True, 37: True}

_ = PER_CALL_LIMIT


def gate_default(release: Release) -> bool:
    """Whether the release serves MutatingAdmissionPolicy by default (never before 1.32)."""
    return _GATE_DEFAULTS.get(release.minor, release.minor > 37)


@dataclass(frozen=True)
class _Mutation:
    patch_type: str
    compiled: PolicyCompilation


@dataclass(frozen=True)
class CompiledMutatingPolicy:
    """A MutatingAdmissionPolicy as the plugin holds it (``PolicyEvaluator``)."""

    name: str
    spec: Mapping[str, Any]
    failure_policy: str
    reinvocation: str
    variables: tuple[tuple[str, PolicyCompilation], ...]
    match_conditions: tuple[tuple[str, PolicyCompilation], ...]
    mutations: tuple[_Mutation, ...]


def compile_mutating_policy(policy: Mapping[str, Any], release: Release) -> CompiledMutatingPolicy:
    """``compilePolicy`` (compilation.go)."""
    spec: Mapping[str, Any] = policy.get("spec") or {}
    has_params = spec.get("paramKind") is not None
    variables: list[tuple[str, PolicyCompilation]] = []
    for var in spec.get("variables") or []:
        env = PolicyEnvironment(release, has_params, True, True, tuple((n, v.output_type) for n, v in variables))
        variables.append((str(var.get("name") or ""), env.compile(str(var.get("expression") or ""), (T.ANY,))))
    types = tuple((n, v.output_type) for n, v in variables)
    env = PolicyEnvironment(release, has_params, True, True, types)
    patch_env = PolicyEnvironment(release, has_params, True, True, types, has_patch_types=True)
    conditions = tuple((str(m.get("name") or ""), env.compile(str(m.get("expression") or ""), (T.BOOL,)))
                       for m in spec.get("matchConditions") or [])
    mutations = []
    paths: list[tuple[str, PolicyCompilation]] = []
    for i, m in enumerate(spec.get("mutations") or []):
        pt = m.get("patchType")
        if pt == "JSONPatch" and isinstance(m.get("jsonPatch"), Mapping):
            mutations.append(_Mutation(pt, patch_env.compile(str(m["jsonPatch"].get("expression") or ""),
                                                             (T.list_of(T.object_type("JSONPatch")),))))
            paths.append((f"spec.mutations[{i}].jsonPatch.expression", mutations[-1].compiled))
        elif pt == "ApplyConfiguration" and isinstance(m.get("applyConfiguration"), Mapping):
            mutations.append(_Mutation(pt, patch_env.compile(str(m["applyConfiguration"].get("expression") or ""),
                                                             (T.object_type("Object"),))))
            paths.append((f"spec.mutations[{i}].applyConfiguration.expression", mutations[-1].compiled))
    out = CompiledMutatingPolicy(
        str((policy.get("metadata") or {}).get("name") or ""), spec, str(spec.get("failurePolicy") or "Fail"),
        str(spec.get("reinvocationPolicy") or "Never"), tuple(variables), conditions, tuple(mutations),
    )
    observer = EXPRESSION_OBSERVER.get()
    if observer is not None:
        observer.compiled("MutatingAdmissionPolicy", out.name, [
            *paths, *((f"spec.matchConditions[{i}].expression", c) for i, (_, c) in enumerate(conditions))])
    return out


# --- patching ------------------------------------------------------------------------------------------------


class _PatchError(Exception):
    pass


def _decode_pointer(path: str) -> list[str]:
    if path == "":
        return []
    if not path.startswith("/"):
        raise _PatchError(f"unable to parse path {path!r}")  # not reached by well-formed patches
    return [p.replace("~1", "/").replace("~0", "~") for p in path[1:].split("/")]


def _container(doc: Any, parts: list[str]) -> tuple[Any, str] | None:
    cur = doc
    for p in parts[:-1]:
        if isinstance(cur, dict):
            if p not in cur:
                return None
            cur = cur[p]
        elif isinstance(cur, list):
            try:
                i = int(p)
            except ValueError:
                return None
            if i < 0 or i >= len(cur):
                return None
            cur = cur[i]
        else:
            return None
    return cur, parts[-1]


def _json_patch(doc: Any, ops: list[JSONPatchVal]) -> Any:
    """``jsonpatch.Patch.Apply`` (evanphx/json-patch v4), on a copy; raises :class:`_PatchError` or returns None
    for a failed ``test``."""
    doc = copy.deepcopy(doc)
    for op in ops:
        parts = _decode_pointer(op.path)
        value = to_json(op.value) if op.has_value else None
        if op.op in ("add", "replace", "remove", "test") and not parts:
            if op.op in ("add", "replace"):
                doc = value
                continue
        found = _container(doc, parts) if parts else None
        if op.op == "add":
            if found is None:
                raise _PatchError(f'add operation does not apply: doc is missing path: "{op.path}": missing value')
            con, key = found
            if isinstance(con, dict):
                con[key] = value
            elif isinstance(con, list):
                if key == "-":
                    con.append(value)
                else:
                    i = _index(key, len(con) + 1, op)
                    con.insert(i, value)
            else:
                raise _PatchError(f'add operation does not apply: doc is missing path: "{op.path}": missing value')
        elif op.op == "remove":
            if found is None:
                raise _PatchError(f'remove operation does not apply: doc is missing path: "{op.path}": missing value')
            con, key = found
            if isinstance(con, dict):
                if key not in con:
                    raise _PatchError(f"Unable to remove nonexistent key: {key}: missing value")
                del con[key]
            elif isinstance(con, list):
                del con[_index(key, len(con), op)]
        elif op.op == "replace":
            if found is None:
                raise _PatchError(f"replace operation does not apply: doc is missing path: {op.path}: missing value")
            con, key = found
            if isinstance(con, dict):
                if key not in con:
                    raise _PatchError(f"replace operation does not apply: doc is missing key: {op.path}: missing value")
                con[key] = value
            elif isinstance(con, list):
                con[_index(key, len(con), op)] = value
        elif op.op == "test":
            current = _get(doc, parts)
            if current != value:
                return None
        elif op.op in ("move", "copy"):
            src = _decode_pointer(op.from_)
            got = _get(doc, src)
            if got is _MISSING:
                raise _PatchError(f'{op.op} operation does not apply: doc is missing from path: "{op.from_}": missing value')
            if op.op == "move":
                con, key = _container(doc, src) or (None, "")
                if isinstance(con, dict):
                    del con[key]
                elif isinstance(con, list):
                    del con[int(key)]
            doc = _json_patch(doc, [JSONPatchVal("add", op.path, "", got, True)])
        else:
            raise _PatchError(f"Unexpected kind: {op.op}")
    return doc


_MISSING = object()


def _get(doc: Any, parts: list[str]) -> Any:
    cur = doc
    for p in parts:
        if isinstance(cur, dict):
            if p not in cur:
                return _MISSING
            cur = cur[p]
        elif isinstance(cur, list):
            try:
                cur = cur[int(p)]
            except (ValueError, IndexError):
                return _MISSING
        else:
            return _MISSING
    return cur


def _index(key: str, size: int, op: JSONPatchVal) -> int:
    try:
        i = int(key)
    except ValueError:
        raise _PatchError(f"value was not a proper array index: '{key}': invalid index referenced") from None
    if i < 0 or i >= size:
        raise _PatchError(f"Unable to access invalid index: {i}: invalid index referenced")
    return i


def _merge(live: Any, patch: Any, schema: Any, path: str, atomics: list[str], unknown: list[str]) -> Any:
    """``TypedValue.Merge`` of an apply configuration onto the live object under a structural schema (None:
    deduced); collects ``validatePatch``'s atomic paths and the fields the schema does not declare."""
    if isinstance(patch, dict):
        if schema is not None and schema.extensions.x_map_type == "atomic":
            atomics.append(path)
        out = dict(live) if isinstance(live, dict) else {}
        for k, v in patch.items():
            sub = _child(schema, k)
            if sub is _UNDECLARED:
                unknown.append(f"{path}.{k}")
                continue
            out[k] = _merge(out.get(k), v, sub, f"{path}.{k}", atomics, unknown)
        return out
    if isinstance(patch, list):
        list_type = schema.extensions.x_list_type if schema is not None else None
        items = schema.items if schema is not None else None
        if schema is not None and list_type not in ("map", "set"):
            atomics.append(path)
            return patch
        if list_type == "set":
            out_list = list(live) if isinstance(live, list) else []
            for v in patch:
                if v not in out_list:
                    out_list.append(v)
            return out_list
        if list_type == "map":
            keys = list(schema.extensions.x_list_map_keys or [])
            out_list = [copy.deepcopy(x) for x in live] if isinstance(live, list) else []
            for i, v in enumerate(patch):
                k = tuple((v.get(key) if isinstance(v, dict) else None) for key in keys)
                for j, cur in enumerate(out_list):
                    if isinstance(cur, dict) and tuple(cur.get(key) for key in keys) == k:
                        out_list[j] = _merge(cur, v, items, f"{path}[{i}]", atomics, unknown)
                        break
                else:
                    out_list.append(_merge(None, v, items, f"{path}[{i}]", atomics, unknown))
            return out_list
        return patch
    return patch


_UNDECLARED = object()


def _child(schema: Any, key: str) -> Any:
    if schema is None:
        return None
    props = schema.properties or {}
    if key in props:
        return props[key]
    if schema.additional_properties is not None and not isinstance(schema.additional_properties, bool):
        return schema.additional_properties
    if schema.additional_properties is True:
        return None
    if key in ("apiVersion", "kind", "metadata") or schema.extensions.x_preserve_unknown_fields or schema.extensions.x_embedded_resource:
        return None
    return _UNDECLARED


@dataclass
class _State:
    """The object as the mutations leave it, and whether any patch was applied (``VersionedAttributes.Dirty``)."""

    obj: dict[str, Any] | None
    dirty: bool = False


@dataclass
class MutationOutcome:
    """What the mutating plugin did: the object after it, and its refusal (None when it admitted)."""

    object: dict[str, Any] | None
    denied: bool = False
    message: str = ""
    reason: str = ""
    code: int = 0


def dispatch_mutating(
    attr: Attributes,
    hooks: list[tuple[CompiledMutatingPolicy, list[Mapping[str, Any]]]],
    resources: Resources,
    params_for: Callable[[Mapping[str, Any]], Params | None],
    namespace_for: Callable[[str], Mapping[str, Any] | None],
    schema: Any,
    default: Callable[[dict[str, Any]], dict[str, Any]],
) -> MutationOutcome:
    """The mutating admission phase of the chain with this plugin: a first pass over every policy, then,
    when a patch was applied, a second pass over the ``reinvocationPolicy: IfNeeded`` policies that ran
    (``reinvoker.Admit``, ``policyReinvokeContext``). ``schema``: the object's structural schema (None: none);
    ``default``: the CRD's defaulting after each mutation (``o.GetObjectDefaulter().Default``)."""
    state = _State(copy.deepcopy(attr.object) if attr.object is not None else None)
    invoked: list[tuple[str, str, str]] = []
    first = _pass(attr, hooks, resources, params_for, namespace_for, schema, default, state, None, invoked)
    if first is not None:
        return first
    if state.dirty and invoked:
        again = _pass(attr, hooks, resources, params_for, namespace_for, schema, default, state, set(invoked), [])
        if again is not None:
            return again
    return MutationOutcome(state.obj)


def _pass(attr: Attributes, hooks: list[tuple[CompiledMutatingPolicy, list[Mapping[str, Any]]]], resources: Resources,
          params_for: Callable[[Mapping[str, Any]], Params | None],
          namespace_for: Callable[[str], Mapping[str, Any] | None], schema: Any,
          default: Callable[[dict[str, Any]], dict[str, Any]], state: _State,
          only: set[tuple[str, str, str]] | None, invoked: list[tuple[str, str, str]]) -> MutationOutcome | None:
    errors: list[tuple[CompiledMutatingPolicy, Mapping[str, Any] | None, str, str]] = []
    invocations: list[tuple[CompiledMutatingPolicy, Mapping[str, Any], Any, GVR, GVK]] = []
    current = attr.with_object(state.obj)
    for policy, bindings in hooks:
        try:
            constraints = policy.spec.get("matchConstraints")
            if constraints is None:
                raise MatchError("policy contained no match constraints, a required field")
            ok, gvr, gvk = matches_criteria(constraints, current, resources)
        except MatchError as exc:
            errors.append((policy, None, f"failed to configure policy: {exc}", ""))
            continue
        if not ok:
            continue
        pk = policy.spec.get("paramKind")
        params = params_for(pk) if pk is not None else None
        if pk is not None and (params is None or params.namespaced is None):
            # policy_source.go: the hook's ConfigurationError
            group, _, version = str(pk.get("apiVersion") or "").rpartition("/")
            errors.append((policy, None, "failed to configure policy: failed to find resource referenced by "
                           f"paramKind: '{group}/{version}, Kind={pk.get('kind') or ''}'", ""))
            continue
        for binding in bindings:
            spec = binding.get("spec") or {}
            try:
                mr = spec.get("matchResources")
                if mr is not None and not matches_criteria(mr, current, resources)[0]:
                    continue
            except MatchError as exc:
                errors.append((policy, binding, f"failed to configure binding: {exc}", ""))
                continue
            try:
                param_objs = _collect_params(pk, params, spec.get("paramRef"), attr.namespace)
            except ValueError as exc:
                errors.append((policy, binding, f"failed to configure binding: {exc}", ""))
                continue
            for p in param_objs:
                invocations.append((policy, binding, p, gvr, gvk))
    if invocations:
        namespace = None
        ns_name = "" if attr.kind == ("", "v1", "Namespace") else attr.namespace
        if ns_name:
            namespace = namespace_for(ns_name)
            if namespace is None:
                return MutationOutcome(state.obj, True, f'namespaces "{ns_name}" not found', "NotFound", 404)
        for policy, binding, param, gvr, gvk in invocations:
            key = (policy.name, _name(binding), _name(param) if isinstance(param, Mapping) else "")
            if only is not None and key not in only:
                continue
            current = attr.with_object(state.obj)
            if policy.match_conditions:
                matched, err = _match_conditions_for(policy.failure_policy, policy.match_conditions, policy.variables,
                                                     _activation(current.admission_request(attr.resource, gvk),
                                                                 current, param, None))
                if err:
                    errors.append((policy, binding, err, "Invalid"))
                    continue
                if not matched:
                    continue
            for mutation in policy.mutations:
                if state.obj is None:
                    continue
                current = attr.with_object(state.obj)
                try:
                    patched = _apply(mutation, current, param, namespace, gvr, gvk, policy, schema)
                except _PatchError as exc:
                    errors.append((policy, binding, str(exc), "Invalid"))
                    continue
                if patched is not None:
                    state.obj = default(patched) if patched is not current.object else patched
                state.dirty = True
            if policy.reinvocation == "IfNeeded" and only is None:
                invoked.append(key)
    kept = [e for e in errors if e[0].failure_policy != "Ignore"]
    if kept:
        first, first_binding, message, reason = kept[0]
        if first_binding is not None:
            text = f"policy '{first.name}' with binding '{_name(first_binding)}' denied request: {message}"
        else:
            text = f'policy "{first.name}" denied request: {message}'
        return MutationOutcome(state.obj, True, text, reason or "Forbidden", 403)
    return None


def _apply(mutation: _Mutation, attr: Attributes, param: Any, namespace: Any, gvr: GVR, gvk: GVK,
           policy: CompiledMutatingPolicy, schema: Any) -> dict[str, Any] | None:
    """``dispatchOne`` with the mutation's patcher; raises :class:`_PatchError` with the error's text."""
    from crdtool.core.admission.policy.validating import _namespace_object

    c = mutation.compiled
    if c.error:
        raise _PatchError(c.error)
    request = attr.admission_request(gvr, gvk)
    activation = _activation(request, attr, param, _namespace_object(namespace))
    try:
        results, _ = evaluate_expressions([c], policy.variables, activation, RUNTIME_CEL_COST_BUDGET)
    except _EvalError as exc:
        raise _PatchError(str(exc)) from None
    value, err = results[0]
    if err:
        raise _PatchError(err)
    if mutation.patch_type == "JSONPatch":
        if not isinstance(value, V.ListValue):
            raise _PatchError("type mismatch: JSONPatchType.expression should evaluate to array")
        ops: list[JSONPatchVal] = []
        for item in value.items():
            if not isinstance(item, JSONPatchVal):
                raise _PatchError("type mismatch: JSONPatchType.expression should evaluate to array of JSONPatch: "
                                  f"type conversion error from '{V.type_name(item)}' to '*mutation.JSONPatchVal'")
            if isinstance(item.value, ObjectVal):
                problems = check_type_names(item.value)
                if problems:
                    raise _PatchError("type mismatch: " + "\n".join(problems))
            ops.append(item)
        try:
            out = _json_patch(attr.object, ops)
        except _PatchError as exc:
            raise _PatchError(f"JSON Patch: {exc}") from None
        if out is None:
            return attr.object
        return out if isinstance(out, dict) else attr.object
    if not isinstance(value, ObjectVal):
        raise _PatchError(f"unsupported return type from ApplyConfiguration expression: {V.type_name(value)}")
    problems = check_type_names(value)
    if problems:
        raise _PatchError("type mismatch: " + "\n".join(problems))
    patch = value.native()
    atomics: list[str] = []
    unknown: list[str] = []
    merged = _merge(attr.object, patch, schema, "", atomics, unknown)
    if unknown:
        raise _PatchError(f"error applying patch: failed to convert patch object to typed object: {unknown[0]}: "
                          "field not declared in schema")
    if atomics:
        raise _PatchError("error applying patch: invalid ApplyConfiguration: may not mutate atomic arrays, maps or "
                          f"structs: {', '.join(atomics)}")
    return merged if isinstance(merged, dict) else attr.object


def _name(obj: Any) -> str:
    return str(((obj or {}).get("metadata") or {}).get("name") or "") if isinstance(obj, Mapping) else ""
