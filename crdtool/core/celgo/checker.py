"""The CEL type checker: a port of cel-go v0.26.0 ``checker/checker.go``, ``env.go`` and ``errors.go``.

:func:`check` walks a parsed expression exactly as ``checker.Check`` does:
identifiers are resolved against the declared variables, the type
identifiers and the type provider; selections are typed from struct field
declarations (Kubernetes schema objects), maps or ``dyn``; calls are resolved
against every overload of the function (type parameters unified through
:class:`~crdtool.core.celgo.types.Mapping`, the result dyn when several
overloads with different results match); list and map literals join their
element types; comprehensions type their variables from the range. Errors
carry cel-go's messages (``undeclared reference to 'x' (in container '')``,
``undefined field 'x'``, ``found no matching overload for '_+_' applied to
'(string, int)'``, ``expected type 'bool' but found 'int'`` ...).

Like upstream, the checked tree is a copy in which qualified identifiers
(``net.IP``) and namespaced functions (``sets.contains(a, b)``) are rewritten
to the names they resolve to; the original parse result is not modified.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping, Protocol

from crdtool.core.celgo import ast as A
from crdtool.core.celgo import types as T
from crdtool.core.celgo.version import DEFAULT as DEFAULT_CEL_GO
from crdtool.core.celgo.version import has
from crdtool.core.celgo.decls import FunctionDecl, functions, type_identifiers

__all__ = ["CheckedAst", "Provider", "Reference", "check"]

#: ``checker/env.go crossTypeNumericComparisonOverloads``: disabled unless the option is on.
CROSS_TYPE_NUMERIC_COMPARISON_OVERLOADS = frozenset(
    f"{op}_{a}_{b}"
    for op in ("less", "less_equals", "greater", "greater_equals")
    for a, b in (("double", "int64"), ("double", "uint64"), ("int64", "double"), ("int64", "uint64"),
                 ("uint64", "double"), ("uint64", "int64"))
)


class Provider(Protocol):
    """The part of cel-go's ``types.Provider`` the checker uses."""

    def find_struct_type(self, name: str) -> T.Type | None:
        """``FindStructType``: the struct's type (not wrapped in ``type()``), or None."""

    def find_struct_field_type(self, struct_name: str, field_name: str) -> T.Type | None:
        """``FindStructFieldType``: the field's type, or None when undefined."""

    def find_enum_value(self, name: str) -> bool:
        """``EnumValue``: whether ``name`` is an enum constant (typed ``int``)."""


#: The protobuf well-known messages cel-go's default registry holds (``pb.DefaultDb``:
#: any, duration, empty, timestamp, struct and wrappers), with their fields as CEL sees them.
WELL_KNOWN_MESSAGES: dict[str, dict[str, str]] = {
    "google.protobuf.Any": {"type_url": "string", "value": "bytes"},
    "google.protobuf.Duration": {"seconds": "int", "nanos": "int"},
    "google.protobuf.Empty": {},
    "google.protobuf.Timestamp": {"seconds": "int", "nanos": "int"},
    "google.protobuf.Struct": {"fields": "map(string, dyn)"},
    "google.protobuf.Value": {
        "null_value": "null", "number_value": "double", "string_value": "string", "bool_value": "bool",
        "struct_value": "map(string, dyn)", "list_value": "list(dyn)",
    },
    "google.protobuf.ListValue": {"values": "list(dyn)"},
    "google.protobuf.BoolValue": {"value": "bool"},
    "google.protobuf.BytesValue": {"value": "bytes"},
    "google.protobuf.DoubleValue": {"value": "double"},
    "google.protobuf.FloatValue": {"value": "double"},
    "google.protobuf.Int32Value": {"value": "int"},
    "google.protobuf.Int64Value": {"value": "int"},
    "google.protobuf.StringValue": {"value": "string"},
    "google.protobuf.UInt32Value": {"value": "uint"},
    "google.protobuf.UInt64Value": {"value": "uint"},
}
WELL_KNOWN_ENUMS = frozenset({"google.protobuf.NullValue.NULL_VALUE"})


class NoStructs:
    """cel-go's default registry: the well-known protobuf messages and the libraries' object types.

    ``type_idents``: the environment's type identifiers (:func:`crdtool.core.celgo.decls.type_identifiers`
    by default: the standard library's).
    """

    def __init__(self, type_idents: Mapping[str, T.Type] | None = None) -> None:
        self.type_idents = type_idents if type_idents is not None else type_identifiers()

    def find_struct_type(self, name: str) -> T.Type | None:
        if name in WELL_KNOWN_MESSAGES:
            return T.object_type(name)
        t = self.type_idents.get(name)
        if t is not None and t.params and t.params[0].kind == T.Kind.STRUCT:
            return t.params[0]
        return None

    def find_struct_field_type(self, struct_name: str, field_name: str) -> T.Type | None:
        fields = WELL_KNOWN_MESSAGES.get(struct_name)
        if fields is None or field_name not in fields:
            return None
        return T.parse_type(fields[field_name])

    def find_enum_value(self, name: str) -> bool:
        return name in WELL_KNOWN_ENUMS


@dataclass(frozen=True)
class Reference:
    """``ast.ReferenceInfo``: the resolved identifier name, or the matching overload ids of a call."""

    name: str = ""
    overload_ids: tuple[str, ...] = ()


@dataclass
class CheckedAst:
    """``checker.Check``'s result: the (rewritten) expression, its types and references.

    ``type_map`` maps expression ids to types (type parameters left unbound
    are ``dyn``, as upstream's final substitution makes them);
    ``reference_map`` maps identifier and call ids to :class:`Reference`.
    """

    expr: A.Expr
    info: A.SourceInfo
    type_map: dict[int, T.Type] = field(default_factory=dict)
    reference_map: dict[int, Reference] = field(default_factory=dict)
    issues: list[A.Issue] = field(default_factory=list)
    total_errors: int = 0

    def output_type(self) -> T.Type:
        return self.type_map.get(self.expr.id, T.DYN)

    def overload_ids(self, expr_id: int) -> tuple[str, ...]:
        ref = self.reference_map.get(expr_id)
        return ref.overload_ids if ref is not None else ()


@dataclass
class _Scope:
    idents: dict[str, T.Type]
    parent: _Scope | None = None

    def find(self, name: str) -> T.Type | None:
        s: _Scope | None = self
        while s is not None:
            t = s.idents.get(name)
            if t is not None:
                return t
            s = s.parent
        return None


@dataclass(frozen=True)
class _Resolution:
    type: T.Type
    reference: Reference


def legacy_type_names(message: str, cel_go: str) -> str:
    """A checker or validator message as cel-go ``cel_go`` words its types: the optional type is ``optional(T)``
    before v0.20.1 (``common/types/optional.go@v0.17.8``: ``NewOpaqueType("optional")``), ``optional_type(T)``
    after."""
    if has(cel_go, "optional_type_name"):
        return message
    return message.replace("optional_type(", "optional(")


#: A Go ``(*types.Type)(nil)``: the type cel-go v0.22.0's ``checkComprehension`` leaves on the second variable of a
#: two-variable comprehension over ``dyn``, an error or a non-iterable range (``var2Type`` never assigned; fixed by
#: 933f926a in v0.23.0). Its kind is unspecified and it formats as ``''``.
_NIL_TYPE = T.Type(T.Kind.UNSPECIFIED, "")


class _Checker:
    def __init__(
        self,
        info: A.SourceInfo,
        variables: dict[str, T.Type],
        provider: Provider,
        container: str,
        cross_type_numeric_comparisons: bool,
        fns: dict[str, FunctionDecl],
        type_idents: Mapping[str, T.Type],
        cel_go: str = DEFAULT_CEL_GO,
    ) -> None:
        self.cel_go = cel_go
        self.info = info
        self.type_idents = type_idents
        self.globals = variables
        self.provider = provider
        self.container = container
        self.functions = fns
        self.disabled = frozenset() if cross_type_numeric_comparisons else CROSS_TYPE_NUMERIC_COMPARISON_OVERLOADS
        self.scope: _Scope | None = None
        self.type_map: dict[int, T.Type] = {}
        self.ref_map: dict[int, Reference] = {}
        self.mappings = T.Mapping()
        self.free_type_var_counter = 0
        self.issues: list[A.Issue] = []
        self.error_count = 0
        self.lookup_cache: dict[str, tuple[str, T.Type] | None] = {}

    # -- errors (checker/errors.go) --
    def error(self, expr_id: int, message: str) -> None:
        self.error_count += 1
        if self.error_count > A.MAX_ERRORS_TO_REPORT:
            return
        line, col = self.info.start_location(expr_id)
        self.issues.append(A.Issue(line, col, legacy_type_names(message, self.cel_go), expr_id))

    # -- env.go --
    def candidates(self, name: str) -> list[str]:
        """``Container.ResolveCandidateNames`` (no aliases)."""
        if name.startswith("."):
            return [name[1:]]
        if not self.container:
            return [name]
        out = []
        cont = self.container
        out.append(f"{cont}.{name}")
        while "." in cont:
            cont = cont[: cont.rindex(".")]
            out.append(f"{cont}.{name}")
        out.append(name)
        return out

    def lookup_ident(self, name: str) -> tuple[str, T.Type] | None:
        """The identifier ``name`` resolves to: (resolved name, type) or None.

        cel-go v0.27.0 (``checker/env.go`` ``resolveSimpleIdent``, #1256): a comprehension variable wins over every
        container-qualified global unless the name has a leading dot; a global that a local of the same name
        hides resolves as ``.name`` (the interpreter reads it from the expression's input). Before
        (``Env.LookupIdent``): each candidate name in turn, in the local scopes then the globals.
        """
        if has(self.cel_go, "namespace_resolution_v027"):
            return self._resolve_simple_ident(name)
        for cand in self.candidates(name):
            if self.scope is not None:
                t = self.scope.find(cand)
                if t is not None:
                    return cand, t
            t = self.globals.get(cand)
            if t is not None:
                return cand, t
            st = self.provider.find_struct_type(cand)
            if st is not None:
                return cand, T.type_type(st)
            tid = self.type_idents.get(cand)
            if tid is not None:
                return cand, tid
            if self.provider.find_enum_value(cand):
                return cand, T.INT
        return None

    def _local(self, name: str) -> T.Type | None:
        """``Scopes.FindLocalIdent``: a comprehension variable (the leading dot ignored), not a global."""
        return self.scope.find(name[1:] if name.startswith(".") else name) if self.scope is not None else None

    def _global(self, cand: str) -> T.Type | None:
        """``Env.lookupGlobalIdent`` (v0.27.0): a declared variable, a type name, a struct type, an enum value."""
        t = self.globals.get(cand)
        if t is not None:
            return t
        tid = self.type_idents.get(cand)
        if tid is not None:
            return tid
        st = self.provider.find_struct_type(cand)
        if st is not None:
            return T.type_type(st)
        if self.provider.find_enum_value(cand):
            return T.INT
        return None

    def _resolve_simple_ident(self, name: str) -> tuple[str, T.Type] | None:
        """``Env.resolveSimpleIdent`` + ``checkIdent``'s naming (v0.27.0): (name, type), ``.name`` when a local hides
        the global it resolved to."""
        local = self._local(name)
        if local is not None and not name.startswith("."):
            return name, local
        for cand in self.candidates(name):
            t = self._global(cand)
            if t is not None:
                return ("." + cand if local is not None else cand), t
        return None

    def _resolve_qualified_ident(self, qualifiers: list[str]) -> tuple[str, T.Type] | None:
        """``Env.resolveQualifiedIdent`` (v0.27.0): ``a.b.c`` as one global name, unless ``a`` is a local (then a
        field selection: None)."""
        if len(qualifiers) == 1:
            return self._resolve_simple_ident(qualifiers[0])
        local = self._local(qualifiers[0])
        if local is not None and not qualifiers[0].startswith("."):
            return None
        for cand in self.candidates(".".join(qualifiers)):
            t = self._global(cand)
            if t is not None:
                return ("." + cand if local is not None else cand), t
        return None

    def lookup_function(self, name: str) -> FunctionDecl | None:
        for cand in self.candidates(name):
            fn = self.functions.get(cand)
            if fn is not None:
                return fn
        return None

    # -- checker.go --
    def check(self, e: A.Expr | None) -> None:
        if e is None:
            return
        k = e.kind
        if k == A.LITERAL:
            self.set_type(e, _LITERAL_TYPES[e.lit])
        elif k == A.IDENT:
            self.check_ident(e)
        elif k == A.SELECT:
            self.check_select(e)
        elif k == A.CALL:
            self.check_call(e)
        elif k == A.LIST:
            self.check_create_list(e)
        elif k == A.MAP:
            self.check_create_map(e)
        elif k == A.STRUCT:
            self.check_create_struct(e)
        elif k == A.COMPREHENSION:
            self.check_comprehension(e)
        else:
            self.error(e.id, "unexpected unspecified type: Expr")

    def check_ident(self, e: A.Expr) -> None:
        found = self.lookup_ident(e.name)
        if found is not None:
            name, t = found
            self.set_type(e, t)
            self.set_reference(e, Reference(name=name))
            e.name = name
            return
        self.set_type(e, T.ERROR)
        self.error(e.id, f"undeclared reference to '{e.name}' (in container '{self.container}')")

    def check_select(self, e: A.Expr) -> None:
        qname = _qualified_name(e)
        if qname is not None:
            # v0.27.0 computeQualifiers + resolveQualifiedIdent; before, ToQualifiedName + LookupIdent
            if has(self.cel_go, "namespace_resolution_v027"):
                found = self._resolve_qualified_ident(_qualifiers(e))
            else:
                found = self.lookup_ident(qname)
            if found is not None:
                name, t = found
                self.set_type(e, t)
                self.set_reference(e, Reference(name=name))
                e.kind, e.name, e.operand = A.IDENT, name, None
                return
        assert e.operand is not None
        result = self.check_select_field(e, e.operand, e.name, False)
        if e.test_only:
            result = T.BOOL
        self.set_type(e, T.substitute(self.mappings, result, False))

    def check_opt_select(self, e: A.Expr) -> None:
        if len(e.args) != 2 or e.target is not None:
            t = " member call with" if e.target is not None else ""
            self.error(e.id, f"unsupported optional field selection: incorrect signature.{t} argument count: {len(e.args)}")
            return
        operand, fld = e.args
        if fld.kind != A.LITERAL or fld.lit != A.LIT_STRING:
            self.error(fld.id, f"unsupported optional field selection: {_debug_expr(fld)}")
            return
        result = self.check_select_field(e, operand, fld.value, True)
        self.set_type(e, T.substitute(self.mappings, result, False))
        self.set_reference(e, Reference(overload_ids=("select_optional_field",)))

    def check_select_field(self, e: A.Expr, operand: A.Expr, field_name: str, optional: bool) -> T.Type:
        self.check(operand)
        operand_type = T.substitute(self.mappings, self.get_type(operand), False)
        target, is_opt = T.maybe_unwrap_optional(operand_type)
        result = T.ERROR
        k = target.kind
        if k == T.Kind.MAP:
            result = target.params[1]
        elif k == T.Kind.STRUCT:
            ft = self.lookup_field_type(e.id, target.name, field_name)
            if ft is not None:
                result = ft
        elif k == T.Kind.TYPE_PARAM:
            self.is_assignable(T.DYN, target)
            result = T.DYN
        else:
            if not T.is_dyn_or_error(target):
                self.error(e.id, f"type '{T.format_cel_type(target)}' does not support field selection")
            result = T.DYN
        if is_opt or optional:
            return T.optional_of(result)
        return result

    def check_call(self, e: A.Expr) -> None:
        fn_name = e.name
        if fn_name == "_?._":
            self.check_opt_select(e)
            return
        for arg in e.args:
            self.check(arg)
        if e.target is None:
            fn = self.lookup_function(fn_name)
            if fn is None:
                self.error(e.id, f"undeclared reference to '{fn_name}' (in container '{self.container}')")
                self.set_type(e, T.ERROR)
                return
            e.name = fn.name
            self.resolve_overload_or_error(e, fn, None, e.args)
            return
        target = e.target
        qualified = _qualified_name(target)
        if qualified is not None:
            fn = self.lookup_function(f"{qualified}.{fn_name}")
            if fn is not None:
                e.name, e.target = fn.name, None
                self.resolve_overload_or_error(e, fn, None, e.args)
                return
        self.check(target)
        fn = self.lookup_function(fn_name)
        if fn is not None:
            self.resolve_overload_or_error(e, fn, target, e.args)
            return
        self.set_type(e, T.ERROR)
        self.error(e.id, f"undeclared reference to '{fn_name}' (in container '{self.container}')")

    def resolve_overload_or_error(
        self, e: A.Expr, fn: FunctionDecl, target: A.Expr | None, args: list[A.Expr]
    ) -> None:
        res = self.resolve_overload(e, fn, target, args)
        if res is None:
            self.set_type(e, T.ERROR)
            return
        self.set_type(e, res.type)
        self.set_reference(e, res.reference)

    def resolve_overload(
        self, call: A.Expr, fn: FunctionDecl, target: A.Expr | None, args: list[A.Expr]
    ) -> _Resolution | None:
        arg_types: list[T.Type] = []
        if target is not None:
            arg_types.append(self.get_type(target))
        arg_types.extend(self.get_type(a) for a in args)
        result: T.Type | None = None
        ids: list[str] = []
        for ov in fn.overloads:
            if ov.id in self.disabled:
                continue
            if (target is None and ov.member) or (target is not None and not ov.member):
                continue
            if fn.name in ("_&&_", "_||_"):
                ok = True
                for i, at in enumerate(arg_types):
                    if not self.is_assignable(at, T.BOOL):
                        self.error(args[i].id, _type_mismatch(T.BOOL, at))
                        ok = False
                if not ok:
                    return None
                return _Resolution(T.BOOL, Reference(overload_ids=(ov.id,)))
            overload_type = T.function_type(ov.result, *ov.args)
            if ov.type_params:
                subs = T.Mapping()
                for tp in ov.type_params:
                    subs.add(T.type_param(tp), self.new_type_var())
                overload_type = T.substitute(subs, overload_type, False)
            candidate_args = overload_type.params[1:]
            if self.is_assignable_list(arg_types, candidate_args):
                ids.append(ov.id)
                fn_result = T.substitute(self.mappings, overload_type.params[0], False)
                if result is None:
                    result = fn_result
                elif not T.is_dyn(result) and not T.is_exact_type(fn_result, result):
                    result = T.DYN
        if result is None:
            shown = [T.substitute(self.mappings, at, True) for at in arg_types]
            sig = T.format_function_decl_type(None, shown, target is not None)
            self.error(call.id, f"found no matching overload for '{fn.name}' applied to '{sig}'")
            return None
        return _Resolution(result, Reference(overload_ids=tuple(ids)))

    def check_create_list(self, e: A.Expr) -> None:
        elems_type: T.Type | None = None
        optionals = set(e.optional_indices)
        for i, elem in enumerate(e.args):
            self.check(elem)
            et = self.get_type(elem)
            if i in optionals:
                et, is_opt = T.maybe_unwrap_optional(et)
                if not is_opt and not T.is_dyn(et):
                    self.error(elem.id, _type_mismatch(T.optional_of(et), et))
            elems_type = self.join_types(elem, elems_type, et)
        if elems_type is None:
            elems_type = self.new_type_var()
        self.set_type(e, T.list_of(elems_type))

    def check_create_map(self, e: A.Expr) -> None:
        key_type: T.Type | None = None
        value_type: T.Type | None = None
        for entry in e.entries:
            key = entry.key
            assert key is not None
            self.check(key)
            key_type = self.join_types(key, key_type, self.get_type(key))
            val = entry.value
            self.check(val)
            vt = self.get_type(val)
            if entry.optional:
                vt, is_opt = T.maybe_unwrap_optional(vt)
                if not is_opt and not T.is_dyn(vt):
                    self.error(val.id, _type_mismatch(T.optional_of(vt), vt))
            value_type = self.join_types(val, value_type, vt)
        if key_type is None:
            key_type = self.new_type_var()
            value_type = self.new_type_var()
        assert value_type is not None
        self.set_type(e, T.map_of(key_type, value_type))

    def check_create_struct(self, e: A.Expr) -> None:
        result = T.ERROR
        found = self.lookup_ident(e.name)
        if found is None:
            self.error(e.id, f"undeclared reference to '{e.name}' (in container '{self.container}')")
            self.set_type(e, T.ERROR)
            return
        type_name, ident_type = found
        e.name = type_name
        self.set_reference(e, Reference(name=type_name))
        if ident_type.kind != T.Kind.ERROR:
            if ident_type.kind != T.Kind.TYPE:
                self.error(e.id, f"'{T.declared_type_name(ident_type)}' is not a type")
            else:
                result = ident_type.params[0]
                if _is_well_known_type(result):
                    type_name = _WELL_KNOWN_TYPE_NAMES.get(result.kind, "")
                elif result.kind == T.Kind.STRUCT:
                    type_name = T.declared_type_name(result)
                else:
                    self.error(e.id, f"'{T.declared_type_name(result)}' is not a message type")
                    result = T.ERROR
        self.set_type(e, result)
        for f in e.entries:
            value = f.value
            self.check(value)
            field_type = T.ERROR
            ft = self.lookup_field_type(f.id, type_name, f.field)
            if ft is not None:
                field_type = ft
            vt = self.get_type(value)
            if f.optional:
                vt, is_opt = T.maybe_unwrap_optional(vt)
                if not is_opt and not T.is_dyn(vt):
                    self.error(value.id, _type_mismatch(T.optional_of(vt), vt))
            if not self.is_assignable(field_type, vt):
                self.error(
                    f.id,
                    f"expected type of field '{f.field}' is '{T.format_cel_type(field_type)}' "
                    f"but provided type is '{T.format_cel_type(vt)}'",
                )

    def check_comprehension(self, e: A.Expr) -> None:
        assert e.iter_range is not None and e.accu_init is not None
        self.check(e.iter_range)
        self.check(e.accu_init)
        range_type = T.substitute(self.mappings, self.get_type(e.iter_range), False)
        accu_type = self.get_type(e.accu_init)
        self.scope = _Scope({e.accu_var: accu_type}, self.scope)
        var2: T.Type | None = None
        k = range_type.kind
        if k == T.Kind.LIST:
            var = range_type.params[0]
            if e.iter_var2:
                var2, var = var, T.INT
        elif k == T.Kind.MAP:
            var = range_type.params[0]
            if e.iter_var2:
                var2 = range_type.params[1]
        elif k in (T.Kind.DYN, T.Kind.ERROR, T.Kind.TYPE_PARAM):
            self.is_assignable(T.DYN, range_type)
            var = T.DYN
            if e.iter_var2:
                var2 = _NIL_TYPE if has(self.cel_go, "two_var_nil_second_type") else T.DYN
        else:
            self.error(
                e.iter_range.id,
                f"expression of type '{T.format_cel_type(range_type)}' cannot be range of a comprehension "
                "(must be list, map, or dynamic)",
            )
            var = T.ERROR
            if e.iter_var2:
                var2 = _NIL_TYPE if has(self.cel_go, "two_var_nil_second_type") else T.ERROR
        idents = {e.iter_var: var}
        if e.iter_var2:
            assert var2 is not None
            idents[e.iter_var2] = var2
        self.scope = _Scope(idents, self.scope)
        self.check(e.loop_condition)
        assert e.loop_condition is not None and e.loop_step is not None
        self.assert_type(e.loop_condition, T.BOOL)
        self.check(e.loop_step)
        self.assert_type(e.loop_step, accu_type)
        self.scope = self.scope.parent
        self.check(e.result)
        assert self.scope is not None and e.result is not None
        self.scope = self.scope.parent
        self.set_type(e, T.substitute(self.mappings, self.get_type(e.result), False))

    def join_types(self, e: A.Expr, previous: T.Type | None, current: T.Type) -> T.Type:
        if previous is None:
            return current
        if self.is_assignable(previous, current):
            return T.most_general(previous, current)
        # cel.HomogeneousAggregateLiterals is an AST validator in v0.26: the checker
        # itself joins mixed element types as dyn (dynElementType).
        return T.DYN

    def new_type_var(self) -> T.Type:
        n = self.free_type_var_counter
        self.free_type_var_counter += 1
        return T.type_param(f"_var{n}")

    def is_assignable(self, t1: T.Type, t2: T.Type) -> bool:
        subs = T.is_assignable(self.mappings, t1, t2)
        if subs is not None:
            self.mappings = subs
            return True
        return False

    def is_assignable_list(self, l1: list[T.Type], l2: tuple[T.Type, ...]) -> bool:
        subs = T.is_assignable_list(self.mappings, l1, l2)
        if subs is not None:
            self.mappings = subs
            return True
        return False

    def set_type(self, e: A.Expr, t: T.Type) -> None:
        old = self.type_map.get(e.id)
        if old is not None and not T.is_exact_type(old, t):
            self.error(
                e.id, f"incompatible type already exists for expression: {e}({e.id}) old:{old}, new:{t}"
            )
            return
        self.type_map[e.id] = t

    def get_type(self, e: A.Expr) -> T.Type:
        return self.type_map.get(e.id, T.ERROR)

    def set_reference(self, e: A.Expr, r: Reference) -> None:
        old = self.ref_map.get(e.id)
        if old is not None and old != r:
            self.error(e.id, f"reference already exists for expression: {e}({e.id}) old:{old}, new:{r}")
            return
        self.ref_map[e.id] = r

    def assert_type(self, e: A.Expr, t: T.Type) -> None:
        if not self.is_assignable(t, self.get_type(e)):
            self.error(e.id, _type_mismatch(t, self.get_type(e)))

    def lookup_field_type(self, expr_id: int, struct_type: str, field_name: str) -> T.Type | None:
        if self.provider.find_struct_type(struct_type) is None:
            self.error(expr_id, f"unexpected failed resolution of '{struct_type}'")
            return None
        ft = self.provider.find_struct_field_type(struct_type, field_name)
        if ft is not None:
            return ft
        self.error(expr_id, f"undefined field '{field_name}'")
        return None


_LITERAL_TYPES = {
    A.LIT_BOOL: T.BOOL, A.LIT_BYTES: T.BYTES, A.LIT_DOUBLE: T.DOUBLE, A.LIT_INT: T.INT,
    A.LIT_NULL: T.NULL, A.LIT_STRING: T.STRING, A.LIT_UINT: T.UINT,
}

_WELL_KNOWN_TYPE_NAMES = {
    T.Kind.ANY: "google.protobuf.Any", T.Kind.BOOL: "google.protobuf.BoolValue",
    T.Kind.BYTES: "google.protobuf.BytesValue", T.Kind.DOUBLE: "google.protobuf.DoubleValue",
    T.Kind.DURATION: "google.protobuf.Duration", T.Kind.DYN: "google.protobuf.Value",
    T.Kind.INT: "google.protobuf.Int64Value", T.Kind.LIST: "google.protobuf.ListValue",
    T.Kind.NULL_TYPE: "google.protobuf.NullValue", T.Kind.MAP: "google.protobuf.Struct",
    T.Kind.STRING: "google.protobuf.StringValue", T.Kind.TIMESTAMP: "google.protobuf.Timestamp",
    T.Kind.UINT: "google.protobuf.UInt64Value",
}


def _is_well_known_type(t: T.Type) -> bool:
    k = t.kind
    if k in (T.Kind.ANY, T.Kind.TIMESTAMP, T.Kind.DURATION, T.Kind.DYN, T.Kind.NULL_TYPE):
        return True
    if k in (T.Kind.BOOL, T.Kind.BYTES, T.Kind.DOUBLE, T.Kind.INT, T.Kind.STRING, T.Kind.UINT):
        return T.is_assignable_type(t, T.NULL)
    if k == T.Kind.LIST:
        return t.params[0] == T.DYN
    if k == T.Kind.MAP:
        return t.params[0] == T.STRING and t.params[1] == T.DYN
    return False


def _type_mismatch(expected: T.Type, actual: T.Type) -> str:
    return f"expected type '{T.format_cel_type(expected)}' but found '{T.format_cel_type(actual)}'"


def _qualifiers(e: A.Expr) -> list[str]:
    """cel-go v0.27.0 ``computeQualifiers`` of a select chain that :func:`_qualified_name` accepts: the identifier
    (as written, a leading dot kept), then the field names."""
    parts: list[str] = []
    cur: A.Expr | None = e
    while cur is not None and cur.kind == A.SELECT:
        parts.append(cur.name)
        cur = cur.operand
    assert cur is not None
    parts.append(cur.name)
    return parts[::-1]


def _qualified_name(e: A.Expr) -> str | None:
    """``containers.ToQualifiedName``."""
    parts: list[str] = []
    cur: A.Expr | None = e
    while cur is not None and cur.kind == A.SELECT:
        if cur.test_only:
            return None
        parts.append(cur.name)
        cur = cur.operand
    if cur is None or cur.kind != A.IDENT:
        return None
    parts.append(cur.name)
    return ".".join(reversed(parts))


def _debug_expr(e: A.Expr) -> str:
    """A short rendering of a (non-string-literal) field argument for the optional-select error."""
    if e.kind == A.LITERAL:
        return repr(e.value)
    if e.kind == A.IDENT:
        return e.name
    return f"<expr {e.id}>"


def copy_expr(e: A.Expr) -> A.Expr:
    """A deep copy of an expression tree (ids kept)."""
    c = A.Expr(e.id, e.kind)
    c.lit, c.value, c.name, c.test_only = e.lit, e.value, e.name, e.test_only
    c.iter_var, c.iter_var2, c.accu_var = e.iter_var, e.iter_var2, e.accu_var
    c.optional_indices = list(e.optional_indices)
    for attr in ("operand", "target", "iter_range", "accu_init", "loop_condition", "loop_step", "result"):
        sub = getattr(e, attr)
        if sub is not None:
            setattr(c, attr, copy_expr(sub))
    c.args = [copy_expr(a) for a in e.args]
    c.entries = [
        A.Entry(en.id, copy_expr(en.value), key=copy_expr(en.key) if en.key is not None else None,
                field=en.field, optional=en.optional)
        for en in e.entries
    ]
    return c


def check(
    parsed: A.Expr,
    info: A.SourceInfo,
    variables: dict[str, T.Type],
    provider: Provider | None = None,
    *,
    container: str = "",
    cross_type_numeric_comparisons: bool = True,
    function_decls: dict[str, FunctionDecl] | None = None,
    type_idents: Mapping[str, T.Type] | None = None,
    cel_go: str = DEFAULT_CEL_GO,
) -> CheckedAst:
    """Type-check a parsed expression (``checker.Check``).

    Args:
        parsed: the root of a :func:`crdtool.core.celgo.parser.parse` result (not modified).
        info: its source positions.
        variables: declared variables by name (e.g. ``self``, ``oldSelf``).
        provider: struct types (the Kubernetes schema objects); the default
            knows only the libraries' object types.
        container: the expression container (``""`` in Kubernetes).
        cross_type_numeric_comparisons: ``cel.CrossTypeNumericComparisons``
            (on in the Kubernetes environment since 1.28).
        function_decls: the declared functions (default: the standard
            library's, :func:`crdtool.core.celgo.decls.functions`).
        type_idents: the identifiers that name types (default: the standard
            library's, :func:`crdtool.core.celgo.decls.type_identifiers`).

    Returns:
        A :class:`CheckedAst`; ``issues`` holds the type errors (empty when
        the expression checks). Never raises.
    """
    fns = function_decls if function_decls is not None else functions()
    idents = type_idents if type_idents is not None else type_identifiers()
    chk = _Checker(info, variables, provider or NoStructs(idents), container, cross_type_numeric_comparisons, fns,
                   idents, cel_go)
    expr = copy_expr(parsed)
    chk.check(expr)
    type_map = {eid: T.substitute(chk.mappings, t, True) for eid, t in chk.type_map.items()}
    return CheckedAst(expr, info, type_map, chk.ref_map, chk.issues, chk.error_count)
