"""The CEL environment of admission policies: ``k8s.io/apiserver/pkg/admission/plugin/cel``.

Mirrors ``compile.go`` (``BuildRequestType``, ``BuildNamespaceType``, ``CompileCELExpression``,
``createEnvForOpts``: ``object``, ``oldObject`` and ``params`` are ``dyn``, ``request`` a
``kubernetes.AdmissionRequest``, ``namespaceObject`` a ``kubernetes.Namespace``, ``authorizer`` and
``authorizer.requestResource`` the authorization library's types) and ``composition.go``
(``CompositionEnv``: ``variables`` of type ``kubernetes.variables`` whose fields are the compiled
variables' output types, ``convertCelTypeToDeclType``), identical at v0.30.0 … v0.37.0-beta.0 in what is
ported here. The environment is the release's base environment (:mod:`crdtool.core.kubecel.environment`):
``StoredExpressions`` when the plugins evaluate, ``NewExpressions`` when a policy is created.

The ``authorizer`` values and functions at run time are :mod:`crdtool.core.kubecel.authz` (their costs in
:mod:`crdtool.core.kubecel.library`); the admission chain binds them (``activation.go``). What is not modelled:
the ``StrictCost`` extension.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from crdtool.core.celgo import types as T
from crdtool.core.celgo.env import Compiled, Environment, compile_expression
from crdtool.core.kubecel.decltype import DeclField, DeclType, DeclTypeProvider
from crdtool.core.kubecel.environment import base_environment
from crdtool.core.releases import Release, resolve_release

__all__ = [
    "AUTHORIZER_TYPE", "NAMESPACE_TYPE", "PolicyCompilation", "PolicyEnvironment", "REQUEST_TYPE",
    "RESOURCE_CHECK_TYPE", "VariableTypes",
]

#: ``library.AuthorizerType``, ``library.ResourceCheckType``.
AUTHORIZER_TYPE = T.object_type("kubernetes.authorization.Authorizer")
RESOURCE_CHECK_TYPE = T.object_type("kubernetes.authorization.ResourceCheck")


def _decl(name: str, cel_type: T.Type) -> DeclType:
    return DeclType(name, cel_type)


_STRING = _decl("string", T.STRING)
_BOOL = _decl("bool", T.BOOL)
_INT = _decl("int", T.INT)
_TIMESTAMP = _decl("timestamp", T.TIMESTAMP)
_DYN = _decl("dyn", T.DYN)


def _list(elem: DeclType) -> DeclType:
    return DeclType("list", T.list_of(elem.cel_type), elem_type=elem, max_elements=-1)


def _map(key: DeclType, elem: DeclType) -> DeclType:
    return DeclType("map", T.map_of(key.cel_type, elem.cel_type), key_type=key, elem_type=elem, max_elements=-1)


def _object(name: str, *fields: tuple[str, DeclType, bool]) -> DeclType:
    return DeclType(name, T.object_type(name), fields={n: DeclField(n, t, r) for n, t, r in fields})


def _build_request_type() -> DeclType:
    """``BuildRequestType``."""
    gvk = _object("kubernetes.GroupVersionKind", ("group", _STRING, True), ("version", _STRING, True),
                  ("kind", _STRING, True))
    gvr = _object("kubernetes.GroupVersionResource", ("group", _STRING, True), ("version", _STRING, True),
                  ("resource", _STRING, True))
    user_info = _object(
        "kubernetes.UserInfo", ("username", _STRING, False), ("uid", _STRING, False),
        ("groups", _list(_STRING), False), ("extra", _map(_STRING, _list(_STRING)), False),
    )
    return _object(
        "kubernetes.AdmissionRequest",
        ("kind", gvk, True), ("resource", gvr, True), ("subResource", _STRING, False),
        ("requestKind", gvk, True), ("requestResource", gvr, True), ("requestSubResource", _STRING, False),
        ("name", _STRING, True), ("namespace", _STRING, False), ("operation", _STRING, True),
        ("userInfo", user_info, True), ("dryRun", _BOOL, False), ("options", _DYN, False),
    )


def _build_namespace_type() -> DeclType:
    """``BuildNamespaceType``."""
    spec = _object("kubernetes.NamespaceSpec", ("finalizers", _list(_STRING), True))
    condition = _object(
        "kubernetes.NamespaceCondition", ("status", _STRING, True), ("type", _STRING, True),
        ("lastTransitionTime", _TIMESTAMP, True), ("message", _STRING, True), ("reason", _STRING, True),
    )
    status = _object("kubernetes.NamespaceStatus", ("conditions", _list(condition), True), ("phase", _STRING, True))
    metadata = _object(
        "kubernetes.NamespaceMetadata", ("name", _STRING, True), ("generateName", _STRING, True),
        ("namespace", _STRING, True), ("labels", _map(_STRING, _STRING), True),
        ("annotations", _map(_STRING, _STRING), True), ("UID", _STRING, True),
        ("creationTimestamp", _TIMESTAMP, True), ("deletionGracePeriodSeconds", _INT, True),
        ("deletionTimestamp", _TIMESTAMP, True), ("generation", _INT, True), ("resourceVersion", _STRING, True),
        ("finalizers", _list(_STRING), True),
    )
    return _object("kubernetes.Namespace", ("metadata", metadata, True), ("spec", spec, True), ("status", status, True))


REQUEST_TYPE = _build_request_type()
NAMESPACE_TYPE = _build_namespace_type()
_VARIABLES_TYPE_NAME = "kubernetes.variables"


def convert_cel_type_to_decl_type(t: T.Type | None) -> DeclType:
    """``convertCelTypeToDeclType`` (composition.go): scalars keep their type, lists and maps their
    element types, anything else (objects, ``dyn``, optionals) is ``dyn``."""
    if t is None:
        return _DYN
    simple = {
        T.Kind.BOOL: "bool", T.Kind.BYTES: "bytes", T.Kind.DOUBLE: "double", T.Kind.DURATION: "duration",
        T.Kind.INT: "int", T.Kind.NULL_TYPE: "null_type", T.Kind.STRING: "string", T.Kind.TIMESTAMP: "timestamp",
        T.Kind.UINT: "uint", T.Kind.ANY: "any",
    }.get(t.kind)
    if simple is not None:
        return _decl(simple, t)
    if t.kind == T.Kind.LIST and len(t.params) == 1:
        return _list(convert_cel_type_to_decl_type(t.params[0]))
    if t.kind == T.Kind.MAP and len(t.params) == 2:
        return _map(convert_cel_type_to_decl_type(t.params[0]), convert_cel_type_to_decl_type(t.params[1]))
    return _DYN


#: The compiled variables' names and output types, in declaration order (``CompositionEnv.MapType``).
VariableTypes = tuple[tuple[str, T.Type | None], ...]


class _Providers:
    """The object types the policy environment declares: request, namespace, variables."""

    def __init__(self, roots: tuple[DeclType, ...], keywords: bool) -> None:
        self.providers = [DeclTypeProvider(r, keywords) for r in roots]

    def _owner(self, name: str) -> DeclTypeProvider | None:
        for p in self.providers:
            if name in p.registered:
                return p
        return None

    def find_struct_type(self, name: str) -> T.Type | None:
        p = self._owner(name)
        return p.find_struct_type(name) if p is not None else self.providers[0].find_struct_type(name)

    def find_struct_field_type(self, struct_name: str, field_name: str) -> T.Type | None:
        p = self._owner(struct_name)
        return (p if p is not None else self.providers[0]).find_struct_field_type(struct_name, field_name)

    def find_enum_value(self, name: str) -> bool:
        return self.providers[0].find_enum_value(name)


class _PatchProviders(_Providers):
    """:class:`_Providers` and the mutation types (``common.ResolverEnvOption(&mutation.DynamicTypeResolver{})``)."""

    def __init__(self, roots: tuple[DeclType, ...], keywords: bool) -> None:
        from crdtool.core.kubecel.mutation import MutationTypes

        super().__init__(roots, keywords)
        self.mutation = MutationTypes()

    def find_struct_type(self, name: str) -> T.Type | None:
        found = self.mutation.find_struct_type(name)
        return found if found is not None else super().find_struct_type(name)

    def find_struct_field_type(self, struct_name: str, field_name: str) -> T.Type | None:
        if self.mutation.find_struct_type(struct_name) is not None:
            return self.mutation.find_struct_field_type(struct_name, field_name)
        return super().find_struct_field_type(struct_name, field_name)


@dataclass(frozen=True)
class PolicyCompilation:
    """``cel.CompilationResult``: the program, or the error (``apiservercel.Error``: type and detail)."""

    expression: str
    error_type: str = ""
    error: str = ""
    output_type: T.Type | None = None
    program: Any = field(default=None, compare=False, repr=False)
    checked: Any = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class PolicyEnvironment:
    """One ``OptionalVariableDeclarations`` environment of a release (``mustBuildEnvs``).

    ``stored``: the ``StoredExpressions`` environment (the plugins compile with it), else
    ``NewExpressions`` at the release's compatibility version (create-time validation).
    """

    release: Release
    has_params: bool = False
    has_authorizer: bool = False
    stored: bool = True
    variables: VariableTypes = ()
    #: the type checker's environment (``typechecking.go buildEnvSet``): ``object``/``oldObject`` (and
    #: ``params``, declared only when typed) of these types, ``authorizer`` without ``requestResource``, and
    #: no return-type check
    object_decl: DeclType | None = None
    params_decl: DeclType | None = None
    type_checking: bool = False
    #: ``HasPatchTypes`` (the mutating policies): ``Object...{}`` and ``JSONPatch{}`` construction, the
    #: ``jsonpatch`` library
    has_patch_types: bool = False
    #: a composited compiler (``variables`` declared); create-time validation of a policy without variables and
    #: of matchConditions uses the stateless one
    composition: bool = True

    def environment(self) -> Environment:
        r = resolve_release(self.release)
        env = base_environment(None if self.stored else r.compatibility_minor, r)
        if self.has_patch_types and "k8s.jsonpatch" not in env.libraries:
            env = replace(env, libraries=env.libraries + ("k8s.jsonpatch",))
        return env

    def declarations(self) -> dict[str, T.Type]:
        """The variables an expression sees (``createEnvForOpts`` plus ``variables``)."""
        decls: dict[str, T.Type] = {
            "object": T.DYN, "oldObject": T.DYN, "namespaceObject": NAMESPACE_TYPE.cel_type,
            "request": REQUEST_TYPE.cel_type,
        }
        if self.composition:
            decls["variables"] = T.object_type(_VARIABLES_TYPE_NAME)
        if self.type_checking:
            obj = self.object_decl.cel_type if self.object_decl is not None else T.DYN
            decls["object"] = decls["oldObject"] = obj
            if self.has_params and self.params_decl is not None:
                decls["params"] = self.params_decl.cel_type
            if self.has_authorizer:
                decls["authorizer"] = AUTHORIZER_TYPE
            return decls
        if self.has_params:
            decls["params"] = T.DYN
        if self.has_authorizer:
            decls["authorizer"] = AUTHORIZER_TYPE
            decls["authorizer.requestResource"] = RESOURCE_CHECK_TYPE
        return decls

    def variables_type(self) -> DeclType:
        return _object(_VARIABLES_TYPE_NAME, *((n, convert_cel_type_to_decl_type(t), True) for n, t in self.variables))

    def compile(self, expression: str, return_types: tuple[T.Type, ...]) -> PolicyCompilation:
        """``compiler.CompileCELExpression``: compile, check the output type against ``return_types``
        (``T.ANY`` accepts any), plan the program.

        Errors (``error_type``, ``error``): ``Invalid`` ``compilation failed: <issues>``; ``Invalid``
        ``must evaluate to <t> but got <u>`` / ``must evaluate to one of [<t> <u>] but got <v>``;
        ``Internal`` ``program instantiation failed: <cel-go's error>``.
        """
        from crdtool.core.celgo.interpreter import PlanError, plan_program
        from crdtool.core.kubecel.environment import runtime_of

        env = self.environment()
        roots = (REQUEST_TYPE, NAMESPACE_TYPE, self.variables_type(),
                 *(d for d in (self.object_decl, self.params_decl) if d is not None))
        providers = (_PatchProviders if self.has_patch_types else _Providers)(roots, env.recognize_keyword_as_field_name)
        compiled: Compiled = compile_expression(expression, self.declarations(), providers, env)
        if compiled.checked is None:
            if self.type_checking:  # typeCheckingCompiler: the issues alone
                return PolicyCompilation(expression, "Invalid", compiled.error)
            return PolicyCompilation(expression, "Invalid", "compilation failed: " + compiled.error)
        out = compiled.output_type
        if self.type_checking:
            return PolicyCompilation(expression, output_type=out, checked=compiled.checked)
        if not any(rt == T.ANY or (out is not None and T.is_exact_type(out, rt)) for rt in return_types):
            got = T.type_string(out) if out is not None else "dyn"
            if len(return_types) == 1:
                reason = f"must evaluate to {T.type_string(return_types[0])} but got {got}"
            else:
                reason = f"must evaluate to one of [{' '.join(T.type_string(t) for t in return_types)}] but got {got}"
            return PolicyCompilation(expression, "Invalid", reason, out)
        runtime = runtime_of(env)
        if self.has_patch_types:
            from crdtool.core.kubecel.mutation import new_value

            runtime = replace(runtime, struct_factory=new_value)
        try:
            program = plan_program(compiled.checked, runtime)
        except PlanError as exc:
            return PolicyCompilation(expression, "Internal", f"program instantiation failed: {exc}", out)
        return PolicyCompilation(expression, output_type=out, program=program, checked=compiled.checked)
