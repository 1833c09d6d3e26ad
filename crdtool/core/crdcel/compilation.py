"""Compilation of ``x-kubernetes-validations`` rules at CRD create, as the apiserver compiles them.

Mirrors ``k8s.io/apiextensions-apiserver`` v0.36
``pkg/apiserver/schema/cel/compilation.go``: :func:`compile_rules` is
``Compile`` (``self`` typed by the node's :class:`DeclType` under a generated
``selfType<N>`` name, ``oldSelf`` the same type, or ``optional_type`` of it
for ``optionalOldSelf`` rules), :func:`compile_rule` is ``compileRule``
(``compilation failed: <issues>``, ``cel expression must evaluate to a bool``,
``program instantiation failed: ...``, the ``messageExpression`` checks, ``UsesOldSelf``, the static cost with
cel-go's estimator and the Kubernetes library costs, the size estimator over
the schema's types) and :func:`max_cardinality` is ``maxCardinality``.

The generated type name is ``selfType0`` here (upstream uses the current
nanosecond, deliberately unstable): it only appears in messages about object
types, which no test of upstream can pin either.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from crdtool.core.celgo import types as T
from crdtool.core.celgo.cost import AstNode, SizeEstimate, estimate_cost, library_estimators
from crdtool.core.celgo.env import Compiled, Environment, compile_expression
from crdtool.core.kubecel.environment import KUBERNETES_ENV_SET, EnvSet, compile_key
from crdtool.core.kubecel.library_cost import LibraryCostEstimator
from crdtool.core.kubecel.decltype import MAX_REQUEST_SIZE_BYTES, DeclType, DeclTypeProvider
from crdtool.core.releases import resolve_release

__all__ = ["CompilationResult", "RuleSource", "compile_rule", "compile_rules", "decl_type_digest", "max_cardinality"]

#: The generated name of ``self``'s type (``generateUniqueSelfTypeName``).
SELF_TYPE_NAME = "selfType0"


@dataclass(frozen=True)
class CompilationResult:
    """``cel.CompilationResult`` for one rule (without the programs).

    Attributes:
        error: ``(type, detail)`` with type ``"Invalid"``, ``"Required"`` or
            ``"InternalError"``, or None.
        message_expression_error: likewise for the messageExpression.
        uses_old_self: the rule references ``oldSelf``.
        max_cost: the rule's estimated worst-case cost (cost units).
        max_cardinality: ``maxCardinality(declType.MinSerializedSize)``.
        message_expression_max_cost: the messageExpression's worst-case cost.
        has_message_expression: a messageExpression compiled.
        empty: the rule text is blank (nothing compiled, no error).
        program: the rule's planned program
            (:class:`crdtool.core.celgo.interpreter.Program`, upstream's
            ``Program``), None on an error; message_program: the
            messageExpression's. Not part of equality.
        size_paths: the data paths (``("self", "spec", "@items", ...)``,
            escaped field names) whose size the cost estimate of the rule read
            from the schema, in the order first read; message_size_paths: the
            messageExpression's. No upstream counterpart (what
            :mod:`crdtool.core.lint` explains a cost with); not part of equality.
    """

    error: tuple[str, str] | None = None
    message_expression_error: tuple[str, str] | None = None
    uses_old_self: bool = False
    max_cost: int = 0
    max_cardinality: int = 0
    message_expression_max_cost: int = 0
    has_message_expression: bool = False
    empty: bool = False
    program: Any = field(default=None, compare=False, repr=False)
    message_program: Any = field(default=None, compare=False, repr=False)
    size_paths: tuple[tuple[str, ...], ...] = field(default=(), compare=False, repr=False)
    message_size_paths: tuple[tuple[str, ...], ...] = field(default=(), compare=False, repr=False)


@dataclass(frozen=True)
class RuleSource:
    """The fields of an ``x-kubernetes-validations`` entry that compilation reads."""

    rule: str
    message_expression: str = ""
    optional_old_self: bool = False

    @staticmethod
    def of(rule: Mapping[str, Any]) -> RuleSource:
        return RuleSource(
            str(rule.get("rule") or ""),
            str(rule.get("messageExpression") or ""),
            bool(rule.get("optionalOldSelf")),
        )


def max_cardinality(min_size: int) -> int:
    """``maxCardinality``: how often data of this minimum JSON size can occur in a 3 MiB request."""
    return MAX_REQUEST_SIZE_BYTES // (min_size + 1)


class SchemaSizeEstimator:
    """``compilation.go sizeEstimator``: sizes from the ``DeclType`` tree along a node's path."""

    def __init__(self, root: DeclType) -> None:
        self.root = root
        # the paths whose size was found, in order (read by compile_rule; never changes an estimate)
        self.read: dict[tuple[str, ...], None] = {}

    def estimate_size(self, node: AstNode) -> SizeEstimate | None:
        path = node.path
        if not path:
            return None
        cur = self.root
        for name in path[1:]:
            if name in ("@items", "@values"):
                if cur.elem_type is None:
                    return None
                cur = cur.elem_type
            elif name == "@keys":
                if cur.key_type is None:
                    return None
                cur = cur.key_type
            else:
                f = cur.fields.get(name) if cur.fields is not None else None
                if f is None:
                    return None
                cur = f.type
        self.read[path] = None
        return SizeEstimate(0, cur.max_elements)


def _is_bool(t: T.Type | None) -> bool:
    return t is not None and t == T.BOOL


def _is_string(t: T.Type | None) -> bool:
    return t is not None and t == T.STRING


def compile_rule(
    rule: RuleSource,
    variables: dict[str, T.Type],
    providers: _Providers,
    estimator: LibraryCostEstimator,
    cardinality: int,
    env_set: EnvSet = KUBERNETES_ENV_SET,
    preexisting: frozenset[str] = frozenset(),
    preexisting_messages: frozenset[str] | None = None,
) -> CompilationResult:
    """``compileRule`` for one rule; ``self``/``oldSelf`` typed by ``variables``, object types from ``providers``.

    The rule and its messageExpression each compile in the environment the
    ``EnvLoader`` picks: the stored-expressions one if the expression is in
    ``preexisting`` (it was in the CRD before an update), else the new one;
    a messageExpression is looked up in ``preexisting_messages`` instead when
    given (upstream's ``preexistingExpressions`` keeps ``rules`` and
    ``messageExpressions`` apart).
    """
    if preexisting_messages is None:
        preexisting_messages = preexisting
    if not rule.rule.strip():
        return CompilationResult(empty=True)
    env = env_set.for_expression(rule.rule, preexisting)

    sizes = estimator.size_estimator if isinstance(estimator.size_estimator, SchemaSizeEstimator) else None

    def cost_of(c: Compiled, env: Environment) -> tuple[int, tuple[tuple[str, ...], ...]]:
        """The expression's estimated cost, and the paths whose size the estimate read."""
        assert c.checked is not None
        if sizes is not None:
            sizes.read.clear()
        cost = estimate_cost(
            c.checked, estimator, presence_test_has_cost=env.presence_test_has_cost,
            overload_estimators=library_estimators(env.libraries), cel_go=env.cel_go,
        ).max
        return cost, tuple(sizes.read) if sizes is not None else ()

    compiled = compile_expression(rule.rule, variables, providers.get(env), env)
    if compiled.panic:
        return CompilationResult(error=("InternalError", _panic_detail(compiled.error)))
    if compiled.checked is None:
        return CompilationResult(error=("Invalid", "compilation failed: " + compiled.error))
    if not _is_bool(compiled.output_type):
        return CompilationResult(error=("Invalid", "cel expression must evaluate to a bool"))
    uses_old_self = compiled.references("oldSelf")
    program, problem = _program(compiled, env)
    if problem is not None:
        # upstream returns before the cost estimate: MaxCost and MaxCardinality stay 0
        return CompilationResult(error=("Invalid", "program instantiation failed: " + problem), uses_old_self=uses_old_self)
    cost, size_paths = cost_of(compiled, env)
    base = dict(uses_old_self=uses_old_self, max_cost=cost, max_cardinality=cardinality, program=program,
                size_paths=size_paths)
    if rule.message_expression:
        msg_env = env_set.for_expression(rule.message_expression, preexisting_messages)
        msg = compile_expression(rule.message_expression, variables, providers.get(msg_env), msg_env)
        if msg.panic:
            return CompilationResult(message_expression_error=("InternalError", _panic_detail(msg.error)), **base)
        if msg.checked is None:
            detail = "messageExpression compilation failed: " + msg.error
            return CompilationResult(message_expression_error=("Invalid", detail), **base)
        if not _is_string(msg.output_type):
            return CompilationResult(
                message_expression_error=("Invalid", "messageExpression must evaluate to a string"), **base
            )
        msg_program, problem = _program(msg, msg_env)
        if problem is not None:
            return CompilationResult(
                message_expression_error=("Invalid", "messageExpression instantiation failed: " + problem), **base
            )
        msg_cost, msg_size_paths = cost_of(msg, msg_env)
        return CompilationResult(
            message_expression_max_cost=msg_cost, has_message_expression=True, message_program=msg_program,
            message_size_paths=msg_size_paths, **base,
        )
    return CompilationResult(**base)


def _panic_detail(panic: str) -> str:
    """What crdtool reports where cel-go panics inside ``env.Compile`` (no upstream text: the apiserver's panic
    filter answers HTTP 500 to the request; cel-go v0.20.1, Kubernetes 1.31, ``<non-literal>.format(...)``)."""
    return f"the apiserver's CEL compiler panics on this expression: {panic}"


def _program(compiled: Compiled, env: Environment) -> tuple[Any, str | None]:
    """``env.Program(ast, ...)``: (the planned program, None), or (None, cel-go's error).

    With ``OptOptimize`` (the Kubernetes environment's) cel-go folds constant
    type conversions and compiles constant regular expressions while planning,
    so ``int('x') == 1`` fails here with ``type conversion error from 'string'
    to 'int'``, before any object is seen.
    """
    from crdtool.core.celgo.interpreter import PlanError, plan_program
    from crdtool.core.kubecel.environment import runtime_of

    assert compiled.checked is not None
    try:
        return plan_program(compiled.checked, runtime_of(env)), None
    except PlanError as exc:
        return None, str(exc)


class _Providers:
    """The providers of one scoped type's object types, one per keyword setting, built on first use."""

    def __init__(self, scoped: DeclType) -> None:
        self.scoped = scoped
        self.built: dict[bool, DeclTypeProvider] = {}

    def get(self, env: Environment) -> DeclTypeProvider:
        flag = env.recognize_keyword_as_field_name
        hit = self.built.get(flag)
        if hit is None:
            hit = self.built[flag] = DeclTypeProvider(self.scoped, flag)
        return hit


def compile_rules(
    rules: list[RuleSource],
    decl_type: DeclType,
    env_set: EnvSet | Environment = KUBERNETES_ENV_SET,
    preexisting: frozenset[str] = frozenset(),
    preexisting_messages: frozenset[str] | None = None,
    *,
    digests: dict[int, tuple[DeclType, bytes]] | None = None,
) -> list[CompilationResult]:
    """``cel.Compile``: compile a node's rules against its declared type.

    In: the node's rules; its :class:`DeclType` (``schema_decl_type`` of
    the node, or the field type reached from an ancestor's); the CEL
    environments (the apiserver's by default; a single :class:`Environment`
    serves new and stored expressions alike) and the expressions that
    pre-existed an update (``preexisting_messages``: the message expressions,
    when they are a set of their own). Out: one :class:`CompilationResult` per rule, in
    order. Never raises. ``digests``: :func:`decl_type_digest`'s table, shared by the calls on the types of one
    schema (each node's type is part of its ancestors'), or None.
    """
    if not rules:
        return []
    if isinstance(env_set, Environment):
        env_set = EnvSet(env_set, env_set)
    digest = decl_type_digest(decl_type, digests)
    if preexisting_messages is None:
        preexisting_messages = preexisting
    keys = [_memo_key(r, digest, env_set, preexisting, preexisting_messages) for r in rules]
    results: list[CompilationResult | None] = [_COMPILED.get(k) for k in keys]
    if all(r is not None for r in results):
        return [r for r in results if r is not None]
    scoped = decl_type.maybe_assign_type_name(SELF_TYPE_NAME)
    providers = _Providers(scoped)
    estimator = LibraryCostEstimator(SchemaSizeEstimator(decl_type), _release_minor(env_set.new))
    cardinality = max_cardinality(decl_type.min_serialized_size)
    self_type = scoped.cel_type
    plain = {"self": self_type, "oldSelf": self_type}
    optional = {"self": self_type, "oldSelf": T.optional_of(self_type)}
    out: list[CompilationResult] = []
    for r, key, hit in zip(rules, keys, results):
        if hit is None:
            hit = compile_rule(r, optional if r.optional_old_self else plain, providers, estimator, cardinality,
                               env_set, preexisting, preexisting_messages)
            _COMPILED.put(key, hit)
        out.append(hit)
    return out


def _release_minor(env: Environment) -> int:
    """The Kubernetes release of an environment's libraries (their cost functions)."""
    return resolve_release(env.release).minor


def _blake2b() -> Any:
    """``hashlib.blake2b``, which is CPython's ``_blake2.blake2b``: taken from there, without the OpenSSL bindings
    ``import hashlib`` loads (~3 ms of a command's start)."""
    try:
        from _blake2 import blake2b
    except ImportError:  # pragma: no cover - a Python without the module: hashlib's, wherever it is from
        from hashlib import blake2b
    return blake2b


def decl_type_digest(decl: DeclType, digests: dict[int, tuple[DeclType, bytes]] | None = None) -> bytes:
    """A 128-bit BLAKE2b digest of everything compilation reads from a :class:`DeclType` tree.

    In: a DeclType. Out: 16 bytes, equal for trees that agree on every
    type's name, CEL type, fields (escaped name, required, type),
    key and element types, ``max_elements`` and ``min_serialized_size``:
    compiling a rule against either gives the same result. Iterative (schemas
    may nest thousands deep); shared subtrees are digested once. No upstream
    counterpart: the key of :func:`compile_rules`' memo.

    ``digests``: the digests of types met before, by identity (each entry holds its type, so that no other object
    takes its ``id`` while the table lives), read and filled in: the calls for the nodes of one schema, whose
    types are subtrees of their ancestors', then digest each type once (without it, a rule at depth d had its
    type's whole tree digested again, d times over). The types must not change while the table is used.
    """
    blake2b = _blake2b()
    if digests is not None:
        hit = digests.get(id(decl))
        if hit is not None:
            return hit[1]
        known = digests
    else:
        known = {}
    done: dict[int, bytes] = {}
    stack: list[tuple[DeclType, bool]] = [(decl, False)]
    while stack:
        t, expanded = stack.pop()
        if id(t) in done:
            continue
        if not expanded:
            hit = known.get(id(t))
            if hit is not None:
                done[id(t)] = hit[1]
                continue
        children = [f.type for f in t.fields.values()] if t.fields is not None else []
        children += [c for c in (t.key_type, t.elem_type) if c is not None]
        if not expanded:
            stack.append((t, True))
            stack.extend((c, False) for c in children if id(c) not in done)
            continue
        h = blake2b(digest_size=16)
        h.update(repr((t.name, t.cel_type, t.max_elements, t.min_serialized_size, t.fields is not None,
                       t.key_type is not None, t.elem_type is not None)).encode())
        for name, f in (t.fields or {}).items():
            h.update(repr((name, f.required)).encode())
            h.update(done[id(f.type)])
        for c in (t.key_type, t.elem_type):
            if c is not None:
                h.update(done[id(c)])
        done[id(t)] = digest = h.digest()
        known[id(t)] = (t, digest)
    return done[id(decl)]


def _memo_key(
    rule: RuleSource, digest: bytes, env_set: EnvSet, preexisting: frozenset[str], preexisting_messages: frozenset[str]
) -> tuple[Any, ...]:
    """What :func:`compile_rule` of ``rule`` reads: the rule, its type's digest, the release of the cost estimator,
    and the environment each expression compiles in as far as the expression can see it
    (:func:`crdtool.core.kubecel.environment.compile_key`): a release's new- and stored-expressions environments
    share the result of a rule that names none of the libraries they differ in."""
    env = env_set.for_expression(rule.rule, preexisting)
    message: Environment | None = None
    if rule.message_expression:
        message = compile_key(env_set.for_expression(rule.message_expression, preexisting_messages),
                              rule.message_expression)
    return (rule, digest, _release_minor(env_set.new), compile_key(env, rule.rule), message)


class _CompiledMemo:
    """:func:`compile_rules`' memo: a rule compiled once per content of its type and environments.

    A CRD's rules are compiled at its create checks and again to validate
    its defaults and serve its custom resources, and releases of one API repeat most rules: a result is
    reused when the rule, the digest of its :class:`DeclType`, the release and the environments as far as its
    expressions see them (:func:`_memo_key`; the key holds them, so they are compared by value) agree.
    Results are immutable (frozen, and their planned programs are never changed by evaluation); a memo, not state.
    """

    _SIZE = 4096

    def __init__(self) -> None:
        import threading

        self._entries: dict[tuple[Any, ...], CompilationResult] = {}
        self._lock = threading.Lock()

    def get(self, key: tuple[Any, ...]) -> CompilationResult | None:
        with self._lock:
            return self._entries.get(key)

    def clear(self) -> None:
        """Forget every result (tests compare against compiling afresh)."""
        with self._lock:
            self._entries.clear()

    def put(self, key: tuple[Any, ...], result: CompilationResult) -> None:
        with self._lock:
            if len(self._entries) >= self._SIZE:
                self._entries.pop(next(iter(self._entries)))
            self._entries[key] = result


_COMPILED = _CompiledMemo()
