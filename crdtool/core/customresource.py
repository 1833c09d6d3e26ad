"""The create path of a custom resource, as kube-apiserver runs it.

Given a CRD manifest and an object, this module reproduces what the
apiextensions-apiserver does with ``POST /apis/<group>/<version>/...``:

1. **Version resolution** (``customresource_handler.go`` ``ServeHTTP`` /
   ``getOrCreateServingInfoFor``): the object's ``apiVersion`` names a
   ``group/version`` of the CRD, which must exist and be served; upstream
   answers an unknown or unserved version with 404, kubectl with ``no
   matches for kind``. Here that is a :class:`CustomResourceError`.
2. **Decoding** (``customresource_handler.go``
   ``unstructuredSchemaCoercer.apply``, run by ``schemaCoercingDecoder``):
   ``metadata`` is decoded into ``metav1.ObjectMeta`` (``objectmeta.
   GetObjectMetaWithOptions``: a wrong type fails the request, unknown fields
   are reported), the object is pruned (``pruning.PruneWithOptions``, unless
   the CRD preserves unknown fields), non-nullable nulls without defaults are
   dropped (``defaulting.PruneNonNullableNullsWithoutDefaults``), embedded
   resources are coerced (``objectmeta.CoerceWithOptions``), and metadata is
   written back (``objectmeta.SetObjectMeta``). With server-side field
   validation ``Strict`` (kubectl's default) every pruned or unknown field
   fails the request (``strict decoding error: unknown field "spec.foo"``).
3. **Defaulting** (``unstructuredDefaulter.Default`` ->
   ``defaulting.Default``) over a schema whose ``default`` values were pruned
   when the storage was built (``defaulting.PruneDefaults``).
4. **Create** (``k8s.io/apiserver/pkg/registry/rest/create.go``
   ``BeforeCreate``): the request namespace is applied
   (``EnsureObjectNamespaceMatchesRequestNamespace``: a namespaced object
   without one is created in ``default``, as kubectl does; a cluster-scoped
   object loses its namespace), ``generateName`` becomes a name, then the
   strategy's ``PrepareForCreate`` (``registry/customresource/strategy.go``:
   ``status`` is dropped when the status subresource is enabled, generation
   is 1) and ``Validate``:
   ``validator.go`` ``customResourceValidator.Validate`` (ObjectMeta with
   ``NameIsDNSSubdomain``, OpenAPI value validation, scale replicas),
   ``objectmeta.Validate`` of embedded resources,
   ``listtype.ValidateListSetsAndMaps``, and the CEL rules unless a
   *blocking* error exists (``hasBlockingErr``), in which case upstream adds
   ``<nil>: Invalid value: null: some validation rules were not checked
   because the object was invalid; correct the existing errors to complete
   validation``. ``WarningsOnCreate`` warns about finalizer names; a
   deprecated version adds its deprecation warning.

An object of another group or kind is not decoded against the schema and
fails ``ValidateTypeMeta`` (see :func:`apply_create`); a create that passes
validation with ``metadata.resourceVersion`` set is refused by the storage
(etcd3 ``store.Create``). :func:`decode_object` stops after step 3.

What is not modelled: server-populated metadata (uid, creationTimestamp,
managedFields entries, the random suffix of a generated
name: ``xxxxx`` is used), admission webhooks, and the second ObjectMeta pass
of ``BeforeCreate`` (``path.ValidatePathSegmentName``), which cannot fail
once ``NameIsDNSSubdomain`` has passed. User-supplied ``managedFields`` are
never reported: the field manager replaces entries it cannot decode.

Everything here is pure; arguments are never mutated. For many objects of one
CRD call :func:`prepare_crd` once and pass the result instead of the dict.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from crdtool.core.errors import (
    UNMARSHAL_TYPE,
    ErrorType,
    FieldError,
    Path,
    duplicate_field,
    go_quote,
    go_type_name,
    invalid,
    unknown_field,
    unmarshal_type_error,
)
from crdtool.core.crd.manifest import FIELD_VALIDATION_DIRECTIVES
from crdtool.core.objectmeta import parse_group_version
from crdtool.core.schema.defaulting import default as _structural_default
from crdtool.core.schema.defaulting import prune_non_nullable_nulls
from crdtool.core.schema.pruning import prune
from crdtool.core.snapshot import Snapshot
from crdtool.core.snapshot import take as take_snapshot
from crdtool.core.storage import RESOURCE_VERSION_SET_ON_CREATE as RESOURCE_VERSION_SET_ON_CREATE  # re-exported

__all__ = [
    "BLOCKING_ERROR_DETAIL",
    "FIELD_VALIDATION_DIRECTIVES",
    "CrdVersion",
    "CreateResult",
    "CustomResourceError",
    "PreparedCrd",
    "apply_create",
    "coerce_converted",
    "decode_object",
    "default",
    "prepare_crd",
    "prune",
    "prune_non_nullable_nulls",
    "resolve_version",
    "validate_object",
]

#: Upstream ``hasBlockingErr``'s error detail (``strategy.go``).
BLOCKING_ERROR_DETAIL = (
    "some validation rules were not checked because the object was invalid; "
    "correct the existing errors to complete validation"
)
#: Error types after which upstream does not evaluate CEL rules (``hasBlockingErr``).
BLOCKING_ERROR_TYPES = frozenset(
    {
        ErrorType.NOT_SUPPORTED.value,
        ErrorType.REQUIRED.value,
        ErrorType.TOO_LONG.value,
        ErrorType.TOO_MANY.value,
        ErrorType.TYPE_INVALID.value,
    }
)
#: kubectl creates a namespaced object without a namespace in its context's namespace.
DEFAULT_NAMESPACE = "default"
#: ``names.SimpleNameGenerator``: 5 random characters after at most 58 of generateName.
_GENERATED_SUFFIX = "xxxxx"
_MAX_GENERATED_NAME_LENGTH = 63 - len(_GENERATED_SUFFIX)
_MAX_INT32 = (1 << 31) - 1
#: ``corev1.FinalizerKubernetes``, ``metav1.FinalizerOrphanDependents``, ``FinalizerDeleteDependents``.
_STANDARD_FINALIZERS = frozenset({"kubernetes", "orphan", "foregroundDeletion"})

# metav1.ObjectMeta, metav1.OwnerReference, metav1.ManagedFieldsEntry JSON fields.
_OBJECT_META_FIELDS = (
    "name", "generateName", "namespace", "selfLink", "uid", "resourceVersion", "generation",
    "creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds", "labels", "annotations",
    "ownerReferences", "finalizers", "managedFields",
)
_OWNER_REFERENCE_FIELDS = frozenset({"apiVersion", "kind", "name", "uid", "controller", "blockOwnerDeletion"})
_OWNER_REFERENCE_ALWAYS = ("apiVersion", "kind", "name", "uid")  # no omitempty
_MANAGED_FIELDS_FIELDS = frozenset(
    {"manager", "operation", "apiVersion", "time", "fieldsType", "fieldsV1", "subresource"}
)


class CustomResourceError(ValueError):
    """The object cannot be sent to this CRD at all (no field errors apply).

    ``reason`` is one of ``not-an-object``, ``no-kind``, ``no-api-version``,
    ``bad-api-version``, ``kind-mismatch`` (group or kind differ from the
    CRD), ``version-mismatch`` (the object's version is not the requested
    one), ``unknown-version``, ``not-served``, ``bad-crd`` (the CRD cannot be
    decoded or its schema cannot be served), ``coerce`` (a converted object whose metadata or
    embedded resources cannot be decoded, see :func:`coerce_converted`). ``str()`` is a
    one-line message.
    """

    def __init__(self, message: str, reason: str) -> None:
        super().__init__(message)
        self.reason = reason


# =============================================================================
# The CRD, prepared once
# =============================================================================


@dataclass(frozen=True)
class CrdVersion:
    """One version of a CRD as the apiserver serves it.

    ``schema`` is the version's ``openAPIV3Schema`` as decoded (value
    validation uses it); ``serving_schema`` the same with every ``default``
    pruned (upstream ``PruneDefaults``; pruning and defaulting use it);
    ``structural`` its :class:`~crdtool.core.schema.structural.Structural`
    (None without a schema). ``subresources`` is the internal
    ``{status: {...}, scale: {...}}`` dict (empty when none). ``validator``,
    ``defaulter`` and ``cel_validator`` are the compiled forms the create
    path runs; they give exactly the interpreters' results.
    """

    name: str
    served: bool
    storage: bool
    deprecated: bool
    deprecation_warning: str | None
    schema: dict[str, Any] | None
    serving_schema: dict[str, Any] | None
    structural: Any
    subresources: Mapping[str, Any]
    has_cel: bool
    #: ids of the structural nodes with an embedded resource at or below them (empty: none at all)
    embedded_paths: frozenset[int] = frozenset()
    #: some node has ``x-kubernetes-list-type: set`` or ``map``
    has_list_types: bool = False
    #: ``schema`` compiled for value validation and list-type checks
    #: (:class:`~crdtool.core.schema.compiled_validation.CompiledValidator`; None without a schema)
    validator: Any = field(default=None, repr=False, compare=False)
    #: ``serving_schema`` compiled for defaulting (:class:`~crdtool.core.schema.defaulting.Defaulter`;
    #: None when only the interpreter handles the schema)
    defaulter: Any = field(default=None, repr=False, compare=False)
    #: the CEL validator tree of ``structural`` (compiled rules), built on first use and kept
    cel_validator: Any = field(default=None, repr=False, compare=False)

    @property
    def status_enabled(self) -> bool:
        return isinstance(self.subresources.get("status"), dict)

    @property
    def scale(self) -> Mapping[str, Any] | None:
        scale = self.subresources.get("scale")
        return scale if isinstance(scale, dict) else None


@dataclass(frozen=True)
class PreparedCrd:
    """A CRD decoded, defaulted and converted once, ready for many objects.

    Built by :func:`prepare_crd`; ``versions`` keep the manifest's order.
    """

    name: str
    group: str
    kind: str
    plural: str
    namespaced: bool
    preserve_unknown_fields: bool
    versions: tuple[CrdVersion, ...]
    internal: Mapping[str, Any] = field(repr=False, compare=False, default_factory=dict)

    def version(self, name: str) -> CrdVersion | None:
        """The version called ``name``, or None."""
        for v in self.versions:
            if v.name == name:
                return v
        return None

    @property
    def served_versions(self) -> tuple[str, ...]:
        return tuple(v.name for v in self.versions if v.served)


def prepare_crd(crd: dict[str, Any] | PreparedCrd) -> PreparedCrd:
    """Decode, default and convert a CRD manifest and build each version's serving schemas.

    In: a CRD manifest dict (``apiextensions.k8s.io/v1`` or ``v1beta1``),
    or an already prepared CRD (returned as is). Out: a :class:`PreparedCrd`.
    The CRD is not validated (use ``check_crd_manifest`` for that): the
    apiserver would refuse an invalid CRD, but its schema still tells what
    the objects would look like.

    Raises :class:`CustomResourceError` (reason ``bad-crd``) when the manifest
    is not a CRD, cannot be decoded (wrong JSON types), or a schema cannot be
    turned into a structural schema ("the server could not properly serve the
    CR schema").

    Everything the create path needs is built here, once: the structural
    schemas, the defaults-pruned serving schemas, each version's compiled
    value validation and defaulting, and its CEL programs. The result shares
    nothing mutable with ``crd``.

    A plain dict is prepared once and remembered (the 8 CRDs used last, by
    identity): a later call with the same dict returns the same
    :class:`PreparedCrd` if the dict still holds exactly the same JSON
    (key order and the types ``1``, ``1.0`` and ``true`` included), and
    prepares it again if anything changed. That check reads the whole dict
    (:mod:`crdtool.core.snapshot`): about 0.06 ms for the Prometheus CRD
    with the compiled extension, 0.4 ms without; passing the
    :class:`PreparedCrd` itself costs nothing.

    Mirrors ``customresource_handler.go`` ``getOrCreateServingInfoFor``
    (``apiextensionshelpers.GetSchemaForVersion`` / ``GetSubresourcesForVersion``,
    ``structuralschema.NewStructural``, ``structuraldefaulting.PruneDefaults``).
    """
    if isinstance(crd, PreparedCrd):
        return crd
    return _PREPARED.get(crd)


class _PreparedMemo:
    """:func:`prepare_crd`'s memo of plain-dict CRDs: never a stale result.

    Keyed by the dict's identity and checked, on every reuse, against a
    :class:`~crdtool.core.snapshot.Snapshot` of its content taken when it was
    prepared: a hit means the dict still holds exactly the same JSON (key
    order and the types ``1``, ``1.0`` and ``true`` included). A dict that is
    not plain JSON-like data (dict and str subclasses included) is prepared on
    every call. The CRD is prepared from a ``marshal`` copy, so the prepared
    form shares nothing with the caller's dict. A memo, not state: results
    are those of a fresh preparation.
    """

    _SIZE = 8

    def __init__(self) -> None:
        import threading

        self._entries: dict[int, tuple[Snapshot, PreparedCrd]] = {}
        self._lock = threading.Lock()

    def get(self, crd: Any) -> PreparedCrd:
        key = id(crd)
        with self._lock:
            hit = self._entries.pop(key, None)
            if hit is not None and hit[0].matches(crd):
                self._entries[key] = hit  # the most recently used last
                return hit[1]
        snapshot = take_snapshot(crd)
        if snapshot is None:  # not plain JSON-like data (or nested too deeply)
            return _prepare(crd)
        prepared = _prepare(snapshot.copy(crd))
        with self._lock:
            self._entries.pop(key, None)
            if len(self._entries) >= self._SIZE:
                self._entries.pop(next(iter(self._entries)))
            self._entries[key] = (snapshot, prepared)
        return prepared


_PREPARED = _PreparedMemo()


def _prepare(crd: Any) -> PreparedCrd:
    """:func:`prepare_crd` of a manifest dict, without the memo."""
    from crdtool.core.crd.conversion import to_internal
    from crdtool.core.crd.decode import decode_crd
    from crdtool.core.crd.defaults import default_crd
    from crdtool.core.crd.manifest import is_crd

    if not is_crd(crd):
        raise CustomResourceError(
            "not an apiextensions.k8s.io/v1 or v1beta1 CustomResourceDefinition", "bad-crd"
        )
    decoded, errors = decode_crd(crd)
    fatal = [e for e in errors if e.type == UNMARSHAL_TYPE]
    if fatal:
        raise CustomResourceError(f"the CRD cannot be decoded: {fatal[0]}", "bad-crd")
    internal = to_internal(default_crd(decoded))
    spec = _dict(internal.get("spec"))
    names = _dict(spec.get("names"))
    group = _str(spec.get("group"))
    plural = _str(names.get("plural"))
    name = _str(_dict(internal.get("metadata")).get("name")) or (f"{plural}.{group}" if plural else group)
    preserve = spec.get("preserveUnknownFields") is True
    versions = tuple(_prepare_version(spec, v, preserve, name) for v in _list(spec.get("versions")) if isinstance(v, dict))
    return PreparedCrd(
        name=name,
        group=group,
        kind=_str(names.get("kind")),
        plural=plural,
        namespaced=spec.get("scope") != "Cluster",
        preserve_unknown_fields=preserve,
        versions=versions,
        internal=internal,
    )


def _prepare_version(spec: Mapping[str, Any], v: Mapping[str, Any], preserve: bool, crd_name: str) -> CrdVersion:
    from crdtool.core.schema.structural import StructuralError, new_structural

    validation = spec.get("validation") if spec.get("validation") is not None else v.get("schema")
    schema = _dict(validation).get("openAPIV3Schema") if isinstance(validation, dict) else None
    schema = schema if isinstance(schema, dict) else None
    subresources = spec.get("subresources") if spec.get("subresources") is not None else v.get("subresources")
    structural = None
    serving = schema
    if schema is not None:
        try:
            structural = new_structural(schema)
        except (StructuralError, RecursionError) as exc:
            if not preserve:
                raise CustomResourceError(
                    f"CRD {crd_name} version {_str(v.get('name'))}: the server could not properly serve "
                    f"the CR schema: {exc}",
                    "bad-crd",
                ) from None
        if not preserve and structural is not None:
            serving = _prune_defaults(schema, structural)
    return _compiled(CrdVersion(
        name=_str(v.get("name")),
        served=v.get("served") is True,
        storage=v.get("storage") is True,
        deprecated=v.get("deprecated") is True,
        deprecation_warning=v.get("deprecationWarning") if isinstance(v.get("deprecationWarning"), str) else None,
        schema=schema,
        serving_schema=serving,
        structural=structural,
        subresources=_dict(subresources),
        has_cel=structural is not None and _has_x_validations(structural),
        embedded_paths=_embedded_paths(structural) if structural is not None else frozenset(),
        has_list_types=structural is not None
        and any(node.extensions.x_list_type in ("set", "map") for node in structural.walk()),
    ))


def _compiled(ver: CrdVersion) -> CrdVersion:
    """``ver`` with its compiled value validation, defaulting and CEL validator tree."""
    from dataclasses import replace

    from crdtool.core.schema.compiled_validation import CompiledValidator
    from crdtool.core.schema.defaulting import compile_defaulter

    validator = CompiledValidator(ver.schema) if ver.schema is not None else None
    defaulter = compile_defaulter(ver.serving_schema)
    cel = _CelTree(ver.structural) if ver.has_cel else None
    return replace(ver, validator=validator, defaulter=defaulter, cel_validator=cel)


class _CelTree:
    """The CEL validator tree of one version: every rule compiled, on the first validation, then kept.

    Built on first use rather than by :func:`prepare_crd`, so decoding and
    defaulting (``crdtool default``) do not pay for compiling rules they never
    run. ``cel_eval.validate_cel`` finds the tree again by the structural
    node's identity (``cel_eval._validator``'s cache); holding it here keeps
    the compiled programs alive as long as the prepared CRD.
    """

    __slots__ = ("structural", "tree", "built")

    def __init__(self, structural: Any) -> None:
        self.structural = structural
        self.tree: Any = None
        self.built = False

    def get(self) -> Any:
        """The tree (None when CEL evaluation is unavailable)."""
        if not self.built:
            try:
                from crdtool.core.schema.cel_eval import _validator

                self.tree = _validator(self.structural, True)
            except (ImportError, RecursionError):
                self.tree = None
            self.built = True
        return self.tree


def _has_x_validations(root: Any) -> bool:
    """Upstream ``cel.NewValidator`` returns nil unless some node has rules (``hasXValidations``)."""
    return any(node.extensions.x_validations for node in root.walk())


def _embedded_paths(root: Any) -> frozenset[int]:
    """ids of the nodes on a path from ``root`` to an ``x-kubernetes-embedded-resource`` node.

    Only these subtrees need the embedded-resource walks (``Coerce``, ``objectmeta.Validate``);
    for most CRDs the set is empty and both walks are skipped.
    """
    parents: dict[int, int | None] = {id(root): None}
    found: list[int] = []
    stack = [root]
    while stack:
        node = stack.pop()
        if node.extensions.x_embedded_resource:
            found.append(id(node))
        children = list(node.properties.values())
        if node.items is not None:
            children.append(node.items)
        if isinstance(node.additional_properties, type(root)):
            children.append(node.additional_properties)
        for child in children:
            if id(child) not in parents:
                parents[id(child)] = id(node)
                stack.append(child)
    marked: set[int] = set()
    for node_id in found:
        cur: int | None = node_id
        while cur is not None and cur not in marked:
            marked.add(cur)
            cur = parents[cur]
    return frozenset(marked)


def _schema_children(s: Mapping[str, Any]) -> Iterable[tuple[str, Any, dict[str, Any]]]:
    """(key, sub-key, schema) of the nodes defaulting walks: properties, items, additionalProperties."""
    props = s.get("properties")
    if isinstance(props, dict):
        for k, p in props.items():
            if isinstance(p, dict):
                yield "properties", k, p
    items = s.get("items")
    if isinstance(items, dict):
        yield "items", None, items
    ap = s.get("additionalProperties")
    if isinstance(ap, dict):
        yield "additionalProperties", None, ap


def _prune_defaults(schema: dict[str, Any], structural: Any) -> dict[str, Any]:
    """Upstream ``defaulting.PruneDefaults``: each ``default`` pruned (and its embedded metadata coerced).

    ``structural`` is ``new_structural(schema)``: each node's structural
    schema is found in it, not rebuilt. Returns ``schema`` itself when no
    default changes (the common case: CRD validation already rejects
    unpruned defaults), else a copy.
    """
    changes: list[tuple[tuple[tuple[str, Any], ...], Any]] = []
    stack: list[tuple[dict[str, Any], tuple[tuple[str, Any], ...], Any]] = [(schema, (), structural)]
    while stack:
        node, where, ss = stack.pop()
        dv = node.get("default")
        if dv is not None:
            pruned, _ = prune(dv, node, is_resource_root=node.get("x-kubernetes-embedded-resource") is True)
            pruned, _, _ = _coerce_dict_schema(pruned, node, ss)
            if pruned != dv:
                changes.append((where, pruned))
        for key, sub, child in _schema_children(node):
            stack.append((child, (*where, (key, sub)), _structural_child(ss, key, sub)))
    if not changes:
        return schema
    out: dict[str, Any] = _copy_json(schema)
    for where, value in changes:
        node = out
        for key, sub in where:
            node = node[key] if sub is None else node[key][sub]
        node["default"] = value
    return out


def _structural_child(ss: Any, key: str, sub: Any) -> Any:
    """The structural node of a schema child (``properties``/``items``/``additionalProperties``), or None."""
    if ss is None:
        return None
    if key == "properties":
        return ss.properties.get(sub)
    if key == "items":
        return ss.items
    return ss.additional_properties_schema


def _coerce_dict_schema(value: Any, schema: Mapping[str, Any], ss: Any = None) -> tuple[Any, list[str], FieldError | None]:
    """:func:`_coerce` for a raw schema dict (only used on default values); ``ss``: its structural node, if known."""
    from crdtool.core.schema.structural import StructuralError, new_structural

    if ss is None:
        try:
            ss = new_structural(schema)
        except (StructuralError, RecursionError):
            return value, [], None
    out = _copy_json(value)
    err, paths = _coerce(out, ss, Path(""), strict=False)
    return out, paths, err


# =============================================================================
# Version resolution
# =============================================================================


def resolve_version(obj: Any, crd: dict[str, Any] | PreparedCrd, version: str | None = None) -> CrdVersion:
    """The CRD version that serves ``obj``.

    In: the object (a dict with ``apiVersion`` ``<group>/<version>`` and
    ``kind``), the CRD (manifest dict or :class:`PreparedCrd`), and
    optionally the version to use (then the object's version must be it).
    Out: the :class:`CrdVersion`.

    Raises :class:`CustomResourceError` when the object has no kind or
    apiVersion (upstream ``runtime.NewMissingKindErr``), names another group
    or kind, or a version the CRD does not define or does not serve (upstream
    404; kubectl: ``no matches for kind``).
    """
    prepared = prepare_crd(crd)
    if not isinstance(obj, dict):
        raise CustomResourceError("the object is not a JSON object", "not-an-object")
    kind = obj.get("kind")
    api_version = obj.get("apiVersion")
    if not isinstance(kind, str) or not kind:
        raise CustomResourceError("Object 'Kind' is missing", "no-kind")
    if not isinstance(api_version, str) or not api_version:
        raise CustomResourceError("Object 'apiVersion' is missing", "no-api-version")
    gv = parse_group_version(api_version)
    if gv is None:
        raise CustomResourceError(f"unexpected GroupVersion string: {api_version}", "bad-api-version")
    group, obj_version = gv
    if group != prepared.group or kind != prepared.kind:
        raise CustomResourceError(
            f"{kind} in group {go_quote(group)} is not the kind of CRD {prepared.name} "
            f"({prepared.kind} in group {go_quote(prepared.group)})",
            "kind-mismatch",
        )
    wanted = version if version else obj_version
    if version and obj_version != version:
        raise CustomResourceError(
            f"apiVersion {go_quote(api_version)} is not the requested version {go_quote(prepared.group + '/' + version)}",
            "version-mismatch",
        )
    found = prepared.version(wanted)
    defined = ", ".join(v.name for v in prepared.versions) or "none"
    if found is None:
        raise CustomResourceError(
            f"no matches for kind {go_quote(kind)} in version {go_quote(api_version)}: "
            f"CRD {prepared.name} has no version {go_quote(wanted)} (versions: {defined})",
            "unknown-version",
        )
    if not found.served:
        served = ", ".join(prepared.served_versions) or "none"
        raise CustomResourceError(
            f"no matches for kind {go_quote(kind)} in version {go_quote(api_version)}: "
            f"version {go_quote(wanted)} of CRD {prepared.name} is not served (served: {served})",
            "not-served",
        )
    return found


# =============================================================================
# The create path
# =============================================================================


@dataclass(frozen=True)
class CreateResult:
    """The outcome of creating one object.

    ``stored``: the object as the apiserver stores it, minus server-populated
    metadata (decoded, pruned, defaulted, ``status`` dropped when the status
    subresource is enabled). ``pruned``: the unknown-field paths dropped on
    decoding, in upstream order and syntax (``metadata.foo``, ``spec.bar``,
    ``spec.template.metadata.baz``). ``errors``: why the create would fail:
    decoding findings first (``UnknownField`` for each pruned path under
    ``Strict`` field validation, ``DuplicateField`` passed in by the caller,
    ``UnmarshalTypeError`` for undecodable metadata, which stops the create),
    then the strategy's validation errors in upstream order. ``warnings``:
    what a successful create returns as warnings.
    """

    stored: dict[str, Any]
    pruned: list[str]
    errors: list[FieldError]
    warnings: list[str]

    @property
    def valid(self) -> bool:
        return not self.errors


def apply_create(
    obj: dict[str, Any],
    crd: dict[str, Any] | PreparedCrd,
    version: str | None = None,
    *,
    prune: bool = True,
    field_validation: str = "Strict",
    validate: bool = True,
    duplicate_fields: Sequence[str] = (),
) -> CreateResult:
    """Run an object through the apiserver's create path for ``crd``.

    Args:
        obj: the custom resource (plain JSON data); not modified.
        crd: the CRD manifest dict or a :class:`PreparedCrd`.
        version: the CRD version to use; default: the object's apiVersion.
        prune: drop unknown fields (False: keep them, as a CRD with
            ``preserveUnknownFields: true`` would; nulls are still pruned).
        field_validation: ``Strict`` (kubectl's default: unknown and
            duplicate fields are errors), ``Warn`` (they are warnings) or
            ``Ignore``.
        validate: run the strategy's validation (False: decode, default and
            prepare for create only).
        duplicate_fields: paths of duplicate keys found by the caller's parser.

    Returns: a :class:`CreateResult`.

    An object whose group or kind is not the CRD's is not decoded against the
    schema (no pruning, no defaulting: ``unstructuredSchemaCoercer.apply``
    only handles the CRD's group and kind) and fails upstream's
    ``ValidateTypeMeta`` (``kind: Invalid value: "Bar": must be Foo``,
    ``apiVersion: Invalid value: "other.com/v1": must be example.com/v1``);
    metadata and OpenAPI validation are then skipped, as
    ``customResourceValidator.Validate`` returns early, while the strategy's
    embedded-resource, list-type and CEL checks still run on the raw
    object. Its version is ``version``, else the object's when the CRD
    serves it, else the CRD's highest-priority served version.

    A create that passes validation but sets ``metadata.resourceVersion``
    (to a non-zero number) fails in storage, as upstream's etcd3 store
    ``Create`` refuses it: an ``InternalError`` at
    ``metadata.resourceVersion`` with upstream's text ``resourceVersion
    should not be set on objects to be created`` (the apiserver answers 500).

    Raises :class:`CustomResourceError` when the object has no kind or
    apiVersion, names a version the CRD does not define or serve, or the CRD
    cannot be served; ``ValueError`` for an unknown ``field_validation``.

    Mirrors ``customresource_handler.go`` (``schemaCoercingDecoder.Decode``,
    ``unstructuredSchemaCoercer.apply``, ``unstructuredDefaulter.Default``),
    ``registry/rest/create.go`` ``BeforeCreate``,
    ``registry/customresource/strategy.go`` (``PrepareForCreate``,
    ``Validate``, ``WarningsOnCreate``), ``validator.go``
    ``ValidateTypeMeta`` and ``storage/etcd3/store.go`` ``Create``.
    """
    if field_validation not in FIELD_VALIDATION_DIRECTIVES:
        raise ValueError(f"field_validation must be one of {', '.join(FIELD_VALIDATION_DIRECTIVES)}")
    prepared = prepare_crd(crd)
    ver, foreign = _version_for_create(obj, prepared, version)
    decoded, decode_errors, warnings = _decode_request(obj, prepared, ver, prune, field_validation, duplicate_fields, foreign)
    if decoded.fatal is not None:
        return CreateResult(decoded.obj, decoded.unknown, [*decode_errors, decoded.fatal], warnings)
    stored = decoded.obj
    if ver.status_enabled:
        stored.pop("status", None)  # PrepareForCreate: create cannot set status
    if not validate:
        return CreateResult(stored, decoded.unknown, decode_errors, warnings)

    type_meta_errors = _validate_type_meta(stored, prepared, ver) if foreign else []
    errors = _validate_create(stored, prepared, ver, warnings, type_meta_errors)
    if not decode_errors and not errors:
        errors = _storage_create_errors(stored)
    return CreateResult(stored, decoded.unknown, [*decode_errors, *errors], warnings)


def decode_object(
    obj: dict[str, Any],
    crd: dict[str, Any] | PreparedCrd,
    version: str | None = None,
    *,
    prune: bool = True,
) -> CreateResult:
    """The object as the apiserver decodes a request for ``crd``: nothing of the create strategy.

    In: a custom resource and its CRD (manifest dict or :class:`PreparedCrd`),
    optionally the CRD version. Out: a :class:`CreateResult` whose ``stored``
    is the object after upstream's request decoding: pruned (``prune``
    False: kept), non-nullable nulls without a default dropped, metadata
    (and embedded resources' metadata) decoded into ObjectMeta and written
    back, then defaulted by the version's structural schema. ``status`` is
    kept, and defaulted where its schema has defaults: ``PrepareForCreate``
    is not applied, nor is any server-populated metadata. ``pruned`` lists
    the dropped unknown fields; ``errors`` holds only a metadata decoding
    error (``UnmarshalTypeError``, which stops the decoding); ``warnings`` a
    deprecated version's warning.

    Raises :class:`CustomResourceError` when the object names another group
    or kind (upstream leaves such objects undecoded), has no kind or
    apiVersion, or names a version the CRD does not define or serve.

    Mirrors ``customresource_handler.go`` ``unstructuredSchemaCoercer.apply``
    and ``unstructuredDefaulter.Default``.
    """
    prepared = prepare_crd(crd)
    ver = resolve_version(obj, prepared, version)
    decoded, _, warnings = _decode_request(obj, prepared, ver, prune, "Ignore", (), False)
    errors = [decoded.fatal] if decoded.fatal is not None else []
    return CreateResult(decoded.obj, decoded.unknown, errors, warnings)


def default(obj: Any, schema: dict[str, Any] | PreparedCrd | None, version: str | None = None) -> Any:
    """Structural defaulting, or the whole request decoding when given a CRD.

    * ``default(obj, schema)`` with an ``openAPIV3Schema`` dict (or None):
      upstream ``structuraldefaulting.Default`` on a copy of ``obj`` (see
      :func:`crdtool.core.schema.defaulting.default`).
    * ``default(obj, crd[, version])`` with a CRD manifest dict (``kind:
      CustomResourceDefinition``) or a :class:`PreparedCrd`: the object after
      the apiserver's request decoding path, ``decode_object(obj, crd,
      version).stored``: pruned, non-nullable nulls without defaults dropped,
      ObjectMeta coerced, defaulted; ``status`` kept (nothing of
      ``PrepareForCreate``). Raises :class:`CustomResourceError` as
      :func:`decode_object` does.

    Never mutates its arguments.
    """
    from crdtool.core.crd.manifest import is_crd

    if isinstance(schema, PreparedCrd) or (schema is not None and is_crd(schema)):
        return decode_object(obj, schema, version).stored
    return _structural_default(obj, schema)


def validate_object(obj: dict[str, Any], crd: dict[str, Any] | PreparedCrd, version: str | None = None) -> list[FieldError]:
    """Why the apiserver would refuse to create ``obj`` (empty: it would accept it).

    In: a custom resource and its CRD (manifest dict or :class:`PreparedCrd`).
    Out: ``UnknownField`` findings for fields pruned on decoding (server-side
    field validation ``Strict``, kubectl's default), then the validation
    errors of the create strategy in upstream order (metadata, OpenAPI schema,
    scale, embedded resources, list sets/maps, CEL rules or the blocking
    error), or ``ValidateTypeMeta``'s errors for an object of another group
    or kind, then the storage's ``resourceVersion`` refusal. Field paths are
    upstream's (``spec.replicas``, ``metadata.name``; ``<nil>`` for errors
    upstream reports without a field).

    Raises :class:`CustomResourceError` for an object without kind or
    apiVersion, or whose version the CRD does not define or serve.

    Mirrors the create path of ``customresource_handler.go`` and
    ``registry/customresource/strategy.go`` (see :func:`apply_create`).
    """
    return apply_create(obj, crd, version).errors


def coerce_converted(obj: dict[str, Any], crd: dict[str, Any] | PreparedCrd, version: str) -> tuple[dict[str, Any], list[str]]:
    """What the apiserver does to an object right after converting it to ``version``.

    In: the converted object (e.g. a webhook's answer after
    :func:`crdtool.core.conversion_review.convert_from_response`), the CRD and the
    version it was converted to. Out: ``(object, pruned)``: a copy pruned by that version's
    structural schema (unless the CRD preserves unknown fields), with non-nullable nulls
    without defaults dropped, embedded resources coerced and ``metadata`` re-encoded as
    ``ObjectMeta`` (unknown metadata fields dropped); ``pruned`` lists the dropped paths. No
    defaulting: upstream defaults before conversion, never after a webhook's (defaulting KEP:
    "we do not default after webhook conversions").

    Raises :class:`CustomResourceError` (reason ``unknown-version``) for a version the CRD
    does not define, and (reason ``coerce``) with upstream's error text when the object's
    metadata or an embedded resource cannot be decoded, which fails the request.

    Mirrors ``customresource_handler.go`` ``schemaCoercingConverter.ConvertToVersion``
    (``unstructuredSchemaCoercer.apply`` without ``dropInvalidMetadata``).
    """
    prepared = prepare_crd(crd)
    ver = prepared.version(version)
    if ver is None:
        raise CustomResourceError(f"CRD {prepared.name} has no version {go_quote(version)}", "unknown-version")
    decoded = _decode(obj, prepared, ver, True)
    if decoded.fatal is not None:
        raise CustomResourceError(str(decoded.fatal), "coerce")
    return decoded.obj, decoded.unknown


def _version_for_create(obj: Any, prepared: PreparedCrd, version: str | None) -> tuple[CrdVersion, bool]:
    """The version serving ``obj`` and whether ``obj`` is of another group or kind than the CRD."""
    foreign = _foreign_group_kind(obj, prepared)
    if not foreign:
        return resolve_version(obj, prepared, version), False
    if version:
        found = prepared.version(version)
    else:
        gv = parse_group_version(obj["apiVersion"])
        found = prepared.version(gv[1]) if gv is not None else None
        if found is None or not found.served:
            found = _preferred_served_version(prepared)
    if found is None:
        raise CustomResourceError(
            f"CRD {prepared.name} has no version {go_quote(version or '')} to check the object against",
            "unknown-version",
        )
    if not found.served:
        raise CustomResourceError(f"version {go_quote(found.name)} of CRD {prepared.name} is not served", "not-served")
    return found, True


def _foreign_group_kind(obj: Any, prepared: PreparedCrd) -> bool:
    """Is ``obj`` a well-formed object of a group or kind other than the CRD's?"""
    if not isinstance(obj, dict):
        return False
    kind, api_version = obj.get("kind"), obj.get("apiVersion")
    if not isinstance(kind, str) or not kind or not isinstance(api_version, str) or not api_version:
        return False
    gv = parse_group_version(api_version)
    return gv is not None and (gv[0] != prepared.group or kind != prepared.kind)


def _preferred_served_version(prepared: PreparedCrd) -> CrdVersion | None:
    """The highest-priority served version (the one kubectl uses by default)."""
    from functools import cmp_to_key

    from crdtool.core.versions import compare_versions

    served = {v.name: v for v in prepared.versions if v.served}
    if not served:
        return None
    return served[sorted(served, key=cmp_to_key(compare_versions))[-1]]


def _decode_request(
    obj: dict[str, Any],
    prepared: PreparedCrd,
    ver: CrdVersion,
    prune: bool,
    field_validation: str,
    duplicate_fields: Sequence[str],
    foreign: bool,
) -> tuple[_Decoded, list[FieldError], list[str]]:
    """Decoding and defaulting of a request body: (decoded, strict-decoding errors, warnings)."""
    warnings: list[str] = []
    if ver.deprecated:
        warnings.append(ver.deprecation_warning if ver.deprecation_warning is not None else _deprecation_warning(prepared, ver))
    decoded = _decode(obj, prepared, ver, prune, schema_applies=not foreign)
    decode_errors: list[FieldError] = []
    if field_validation == "Strict":
        decode_errors = [duplicate_field(p) for p in duplicate_fields]
        decode_errors += [unknown_field(p) for p in decoded.unknown]
    elif field_validation == "Warn":
        warnings.extend(f"duplicate field {go_quote(p)}" for p in duplicate_fields)
        warnings.extend(f"unknown field {go_quote(p)}" for p in decoded.unknown)
    if decoded.fatal is None and not foreign:
        # unstructuredDefaulter.Default only defaults the CRD's own group and kind
        if ver.defaulter is not None:
            decoded.obj = ver.defaulter.apply(decoded.obj)  # our own copy: defaulted in place, as upstream does
        else:
            decoded.obj = _structural_default(decoded.obj, ver.serving_schema)
    return decoded, decode_errors, warnings


def _validate_type_meta(obj: dict[str, Any], prepared: PreparedCrd, ver: CrdVersion) -> list[FieldError]:
    """Upstream ``customResourceValidator.ValidateTypeMeta`` (validator.go)."""
    kind = _str(obj.get("kind"))
    api_version = _str(obj.get("apiVersion"))
    errs: list[FieldError] = []
    if kind != prepared.kind:
        errs.append(invalid(Path("kind"), kind, f"must be {prepared.kind}"))
    want = f"{prepared.group}/{ver.name}"
    if api_version != want:
        errs.append(invalid(Path("apiVersion"), api_version, f"must be {want}"))
    return errs


def _storage_create_errors(stored: dict[str, Any]) -> list[FieldError]:
    """``etcd3.store.Create``'s resourceVersion rule (:func:`crdtool.core.storage.resource_version_set_on_create`)."""
    from crdtool.core.storage import resource_version_set_on_create

    return resource_version_set_on_create(stored)


# --- decoding -----------------------------------------------------------------


@dataclass
class _Decoded:
    obj: dict[str, Any]
    unknown: list[str]
    fatal: FieldError | None


def _decode(
    obj: dict[str, Any], prepared: PreparedCrd, ver: CrdVersion, prune_enabled: bool, *, schema_applies: bool = True
) -> _Decoded:
    """``unstructuredSchemaCoercer.apply`` with ``returnUnknownFieldPaths`` and no dropping.

    ``schema_applies`` False: the object is of another group or kind, so only
    its metadata is decoded (no pruning, no null pruning, no coercion).
    """
    unknown: list[str] = []
    has_meta = "metadata" in obj
    meta: dict[str, Any] | None = None
    if has_meta:
        meta_result = _object_meta(obj["metadata"], Path("metadata"))
        if meta_result.error is not None:
            return _Decoded(_copy_json(obj), [], meta_result.error)
        meta = meta_result.meta
        if prune_enabled:
            unknown.extend(meta_result.unknown)
    schema = ver.serving_schema
    if not schema_applies:
        out = _copy_json(obj)
    elif prune_enabled and not prepared.preserve_unknown_fields:
        out, paths = prune(obj, schema, is_resource_root=True)
        unknown.extend(paths)
        if _has_null(out):  # the null pruning is a no-op otherwise; skip its copy
            out = prune_non_nullable_nulls(out, schema)
    else:
        out = prune_non_nullable_nulls(obj, schema) if not prepared.preserve_unknown_fields else _copy_json(obj)
    if ver.embedded_paths and schema_applies:
        err, paths = _coerce(out, ver.structural, Path(""), strict=prune_enabled, only=ver.embedded_paths)
        if err is not None:
            return _Decoded(out, unknown, err)
        unknown.extend(paths)
    if has_meta:
        if prune_enabled:
            out["metadata"] = meta if meta is not None else {}
        elif isinstance(obj["metadata"], dict):
            out["metadata"] = _copy_json(obj["metadata"])
    return _Decoded(out, unknown, None)


@dataclass
class _MetaResult:
    meta: dict[str, Any] | None
    unknown: list[str]
    error: FieldError | None


def _object_meta(value: Any, path: Path) -> _MetaResult:
    """``GetObjectMetaWithOptions`` + ``SetObjectMeta``: decode ``metadata`` into ObjectMeta and back.

    Returns the metadata as ``SetObjectMeta`` writes it (unknown fields and
    Go zero values dropped; ``creationTimestamp: null`` is left out, the
    server sets it), the unknown-field paths (sorted, as ``json.Marshal`` of a
    map orders the keys strict decoding reports), or the decoding error.
    """
    from crdtool.core.schema.objectmeta import get_object_meta_error

    if value is None:
        return _MetaResult({}, [], None)
    message: str | None
    if not isinstance(value, dict):
        message = get_object_meta_error(value) or "json: cannot unmarshal into Go value of type v1.ObjectMeta"
        return _MetaResult(None, [], unmarshal_type_error(path, value, message))
    for key in value:
        if key in _OBJECT_META_FIELDS:
            message = get_object_meta_error({key: value[key]})
            if message:
                return _MetaResult(None, [], unmarshal_type_error(path.child(key), value[key], message))
    unknown: list[str] = []
    out: dict[str, Any] = {}
    for key in sorted(value):
        if key not in _OBJECT_META_FIELDS:
            unknown.append(f"{path}.{key}")
    for key, v in value.items():
        if key not in _OBJECT_META_FIELDS:
            continue
        normalized = _meta_field(key, v, unknown, path)
        if normalized is not None:
            out[key] = normalized
    return _MetaResult(out, unknown, None)


def _meta_field(key: str, v: Any, unknown: list[str], path: Path) -> Any:
    """One ObjectMeta field after the JSON round trip; None when ``omitempty`` drops it."""
    if v is None:
        return None
    if key in ("generation", "deletionGracePeriodSeconds"):
        n = int(v)
        return n if n != 0 or key == "deletionGracePeriodSeconds" else None
    if key in ("labels", "annotations"):
        return {k: ("" if x is None else x) for k, x in v.items()} or None
    if key == "finalizers":
        return [("" if x is None else x) for x in v] or None
    if key == "ownerReferences":
        refs = [_owner_reference(r, path.child(key).index(i), unknown) for i, r in enumerate(v)]
        return refs or None
    if key == "managedFields":
        entries = [_managed_fields_entry(e, path.child(key).index(i), unknown) for i, e in enumerate(v)]
        return entries or None
    if key == "creationTimestamp" and not v:
        return None
    return v if v != "" else None


def _owner_reference(ref: Any, path: Path, unknown: list[str]) -> dict[str, Any]:
    ref = ref if isinstance(ref, dict) else {}
    unknown.extend(f"{path}.{k}" for k in sorted(ref) if k not in _OWNER_REFERENCE_FIELDS)
    out: dict[str, Any] = {k: (ref.get(k) if isinstance(ref.get(k), str) else "") for k in _OWNER_REFERENCE_ALWAYS}
    for k in ("controller", "blockOwnerDeletion"):
        if isinstance(ref.get(k), bool):
            out[k] = ref[k]
    return out


def _managed_fields_entry(entry: Any, path: Path, unknown: list[str]) -> dict[str, Any]:
    entry = entry if isinstance(entry, dict) else {}
    unknown.extend(f"{path}.{k}" for k in sorted(entry) if k not in _MANAGED_FIELDS_FIELDS)
    return {k: _copy_json(v) for k, v in entry.items() if k in _MANAGED_FIELDS_FIELDS and v not in (None, "")}


def _coerce(
    obj: Any, ss: Any, pth: Path, *, strict: bool, only: frozenset[int] | None = None
) -> tuple[FieldError | None, list[str]]:
    """Upstream ``objectmeta.CoerceWithOptions(nil, obj, s, false, {ReturnUnknownFieldPaths})``.

    Walks ``obj`` (modified in place: it is our own copy) along the structural
    schema ``ss``; in every embedded resource ``apiVersion``/``kind`` must be
    strings and ``metadata`` must decode, and is rewritten as ObjectMeta
    (unknown fields dropped and reported when ``strict``). Returns the first
    error (upstream stops there) and the sorted unknown-field paths. ``only``
    restricts the walk to these node ids (see :func:`_embedded_paths`).
    """
    unknown: list[str] = []
    stack: list[tuple[Path, Any, Any]] = [(pth, obj, ss)]
    while stack:
        p, x, s = stack.pop()
        if s is None or (only is not None and id(s) not in only):
            continue
        if isinstance(x, dict):
            if s.extensions.x_embedded_resource:
                err = _coerce_embedded(p, x, unknown, strict)
                if err is not None:
                    return err, []
            for k, v in x.items():
                prop = s.properties.get(k)
                if prop is not None:
                    stack.append((p.child(k), v, prop))
                elif s.additional_properties is not None:
                    stack.append((p.key(k), v, s.additional_properties_schema))
        elif isinstance(x, list) and s.items is not None:
            for i, v in enumerate(x):
                stack.append((p.index(i), v, s.items))
    unknown.sort()
    return None, unknown


def _coerce_embedded(p: Path, x: dict[str, Any], unknown: list[str], strict: bool) -> FieldError | None:
    for k in ("apiVersion", "kind"):
        if k in x and not isinstance(x[k], str):
            return invalid(p.child(k), x[k], "must be a string")
    if "metadata" not in x:
        return None
    result = _object_meta(x["metadata"], p.child("metadata"))
    if result.error is not None:
        return invalid(p.child("metadata"), x["metadata"], result.error.detail)
    if strict:
        unknown.extend(result.unknown)
        x["metadata"] = result.meta if result.meta is not None else {}
    return None


# --- validation -----------------------------------------------------------------


def _validation_view(stored: dict[str, Any], prepared: PreparedCrd) -> dict[str, Any]:
    """The object as ``strategy.Validate`` sees it after the handler and ``BeforeCreate``.

    Namespace from the request (kubectl: the object's, else ``default``;
    cleared for cluster-scoped kinds), a generated name for ``generateName``,
    ``generation: 1`` (``PrepareForCreate``); ``managedFields`` are left out
    (the field manager resets entries it cannot decode, so they never fail).
    """
    meta = dict(stored.get("metadata") or {}) if isinstance(stored.get("metadata"), dict) else {}
    if prepared.namespaced:
        if not meta.get("namespace"):
            meta["namespace"] = DEFAULT_NAMESPACE
    else:
        meta.pop("namespace", None)
    generate_name = meta.get("generateName")
    if isinstance(generate_name, str) and generate_name and not meta.get("name"):
        meta["name"] = generate_name[:_MAX_GENERATED_NAME_LENGTH] + _GENERATED_SUFFIX
    meta["generation"] = 1
    meta.pop("managedFields", None)
    view = dict(stored)
    view["metadata"] = meta
    return view


def _validate_create(
    stored: dict[str, Any],
    prepared: PreparedCrd,
    ver: CrdVersion,
    warnings: list[str],
    type_meta_errors: Sequence[FieldError] = (),
) -> list[FieldError]:
    """``customResourceStrategy.Validate`` (+ ``WarningsOnCreate``) on the prepared object.

    With ``type_meta_errors`` (``ValidateTypeMeta`` failed) the validator's
    own checks (metadata, OpenAPI schema, scale) are replaced by them, as
    ``customResourceValidator.Validate`` returns early.
    """
    from crdtool.core.objectmeta import validate_object_meta
    from crdtool.core.schema import objectmeta as schema_objectmeta
    from crdtool.core.schema.value_validation import (
        validate_list_sets_and_maps,
        validate_value,
    )
    from crdtool.core.validation_util import name_is_dns_subdomain

    view = _validation_view(stored, prepared)
    root = Path("")
    errs: list[FieldError] = []
    # customResourceValidator.Validate
    if type_meta_errors:
        errs.extend(type_meta_errors)
    else:
        errs.extend(validate_object_meta(view["metadata"], prepared.namespaced, name_is_dns_subdomain, Path("metadata")))
        if ver.validator is not None:
            # ValidateCustomResource(nil, ...): kube-openapi's field-less errors land at <nil>
            errs.extend(ver.validator.validate(view, None))
        elif ver.schema is not None:
            errs.extend(validate_value(view, ver.schema, None))
        scale = ver.scale
        if scale is not None:
            errs.extend(_validate_scale(view, scale))
    # embedded resources, list-type invariants
    # (both walks find nothing when the schema has no embedded resources or list types)
    if ver.embedded_paths:
        errs.extend(schema_objectmeta.validate(None, view, ver.structural, False))
    if ver.has_list_types and ver.validator is not None:
        errs.extend(ver.validator.validate_list_sets_and_maps(root, view))
    elif ver.has_list_types and ver.schema is not None:
        errs.extend(validate_list_sets_and_maps(root, ver.schema, view))
    if ver.has_cel:
        if any(e.type in BLOCKING_ERROR_TYPES for e in errs):
            errs.append(invalid("<nil>", None, BLOCKING_ERROR_DETAIL))
        else:
            errs.extend(_validate_cel(view, ver, warnings))
    if not errs:  # rest.BeforeCreate asks WarningsOnCreate only once Validate passed
        warnings.extend(_finalizer_warnings(view["metadata"].get("finalizers")))
    return errs


def _validate_cel(obj: dict[str, Any], ver: CrdVersion, warnings: list[str]) -> list[FieldError]:
    """``celValidator.Validate(ctx, nil, s, obj, nil, RuntimeCELCostBudget)``."""
    try:
        from crdtool.core.schema import cel_eval
    except ImportError:
        warnings.append("x-kubernetes-validations rules were not evaluated: CEL evaluation is not available")
        return []
    if isinstance(ver.cel_validator, _CelTree):
        ver.cel_validator.get()
    result = cel_eval.validate_cel(obj, ver.structural, None, is_resource_root=True, budget=None)
    skipped = getattr(result, "skipped_transition_rules", ())
    paths = [] if isinstance(skipped, int) else [str(p) or "<root>" for p in skipped]
    count = skipped if isinstance(skipped, int) else len(paths)
    if count:
        rules = "rule" if count == 1 else "rules"
        where = f" (at {', '.join(dict.fromkeys(paths))})" if paths else ""
        warnings.append(f"{count} transition {rules} (using oldSelf) not evaluated: they only apply to updates{where}")
    return list(result.errors)


def _validate_scale(obj: dict[str, Any], scale: Mapping[str, Any]) -> list[FieldError]:
    """``customResourceValidator.ValidateScaleSpec`` + ``ValidateScaleStatus``."""
    errs: list[FieldError] = []
    value: int | str
    for key in ("specReplicasPath", "statusReplicasPath"):
        json_path = _str(scale.get(key))
        value, error = _nested_int64(obj, json_path.removeprefix(".").split("."))
        if error:
            errs.append(invalid(json_path, value, error))
        elif value < 0:
            errs.append(invalid(json_path, value, "should be a non-negative integer"))
        elif value > _MAX_INT32:
            errs.append(invalid(json_path, value, f"should be less than or equal to {_MAX_INT32}"))
    selector_path = scale.get("labelSelectorPath")
    if isinstance(selector_path, str):
        value, error = _nested_string(obj, selector_path.removeprefix(".").split("."))
        if error:
            errs.append(invalid(selector_path, value, error))
    return errs


def _nested_field(obj: Any, fields: list[str]) -> tuple[Any, bool, str | None]:
    """``unstructured.NestedFieldNoCopy``: (value, found, error)."""
    val: Any = obj
    for i, f in enumerate(fields):
        if val is None:
            return None, False, None
        if not isinstance(val, dict):
            where = "." + ".".join(fields[: i + 1])
            return None, False, f"{where} accessor error: {_go_v(val)} is of the type {go_type_name(val)}, expected map[string]interface{{}}"
        if f not in val:
            return None, False, None
        val = val[f]
    return val, True, None


def _nested_int64(obj: Any, fields: list[str]) -> tuple[int, str | None]:
    val, found, error = _nested_field(obj, fields)
    if error or not found:
        return 0, error
    if isinstance(val, int) and not isinstance(val, bool) and -(1 << 63) <= val < (1 << 63):
        return val, None
    where = "." + ".".join(fields)
    return 0, f"{where} accessor error: {_go_v(val)} is of the type {go_type_name(val)}, expected int64"


def _nested_string(obj: Any, fields: list[str]) -> tuple[str, str | None]:
    val, found, error = _nested_field(obj, fields)
    if error or not found:
        return "", error
    if isinstance(val, str):
        return val, None
    where = "." + ".".join(fields)
    return "", f"{where} accessor error: {_go_v(val)} is of the type {go_type_name(val)}, expected string"


def _go_v(v: Any) -> str:
    """Go ``%v`` of a decoded JSON value."""
    from crdtool.core.errors import go_float

    if v is None:
        return "<nil>"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v) if -(1 << 63) <= v < (1 << 63) else go_float(float(v))
    if isinstance(v, float):
        return go_float(v)
    if isinstance(v, str):
        return v
    if isinstance(v, list):
        return "[" + " ".join(_go_v(x) for x in v) + "]"
    if isinstance(v, dict):
        return "map[" + " ".join(f"{k}:{_go_v(v[k])}" for k in sorted(v)) + "]"
    return str(v)


def _finalizer_warnings(finalizers: Any) -> list[str]:
    """``generateWarningsFromObj`` / ``validateKubeFinalizerName`` (validator.go)."""
    from crdtool.core.validation_util import is_qualified_name

    if not isinstance(finalizers, list):
        return []
    out: list[str] = []
    fld = "metadata.finalizers"
    for name in sorted({f for f in finalizers if isinstance(f, str)}):
        for msg in is_qualified_name(name):
            out.append(f"{fld}: {go_quote(name)}: {msg}")
        if "/" not in name and name not in _STANDARD_FINALIZERS:
            if "." in name:
                out.append(
                    f"{fld}: {go_quote(name)}: prefer a domain-qualified finalizer name including a path (/) "
                    "to avoid accidental conflicts with other finalizer writers"
                )
            else:
                out.append(
                    f"{fld}: {go_quote(name)}: prefer a domain-qualified finalizer name to avoid accidental "
                    "conflicts with other finalizer writers"
                )
    return out


def _deprecation_warning(prepared: PreparedCrd, ver: CrdVersion) -> str:
    """``customresource_handler.go`` ``defaultDeprecationWarning``."""
    from functools import cmp_to_key

    from crdtool.core.versions import compare_versions

    msg = f"{prepared.group}/{ver.name} {prepared.kind} is deprecated"
    newer = [
        v.name for v in prepared.versions
        if v.served and not v.deprecated and compare_versions(ver.name, v.name) < 0
    ]
    if not newer:
        return msg
    newer.sort(key=cmp_to_key(compare_versions), reverse=True)
    return msg + f"; use {prepared.group}/{newer[0]} {prepared.kind}"


# --- helpers -----------------------------------------------------------------------


def _has_null(x: Any) -> bool:
    """Does any value in ``x`` (iteratively) equal JSON null?"""
    if not isinstance(x, (dict, list)):
        return x is None
    stack = [x]
    while stack:
        cur = stack.pop()
        values = cur.values() if isinstance(cur, dict) else cur
        for v in values:
            if v is None:
                return True
            if isinstance(v, (dict, list)):
                stack.append(v)
    return False


def _copy_json(x: Any) -> Any:
    """Deep copy of decoded JSON, iterative (no recursion limit)."""
    from crdtool.core.schema.defaulting import _copy_iter

    return _copy_iter(x)


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _str(value: Any) -> str:
    return value if isinstance(value, str) else ""
