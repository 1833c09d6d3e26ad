"""A CRD as the apiserver serves it: decoded once, every version's schemas built, validators compiled.

Mirrors ``apiextensions-apiserver/pkg/apiserver/customresource_handler.go``
``getOrCreateServingInfoFor`` (the per-version structural schemas, the schema
whose ``default`` values were pruned by ``defaulting.PruneDefaults``, the
validators) and the version lookup of ``ServeHTTP``: the object's
``apiVersion`` names a ``group/version`` of the CRD, which must exist and be
served; upstream answers an unknown or unserved version with 404, kubectl
with ``no matches for kind``. Here that is a :class:`CustomResourceError`.

:func:`prepare_crd` is the public entry; plain CRD dicts are prepared through a
memo that never returns a stale result (:mod:`crdtool.core.snapshot`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from crdtool.core.content_memo import ContentMemo, content_key
from crdtool.core.errors import UNMARSHAL_TYPE, FieldError, Path, go_quote
from crdtool.core.objectmeta import parse_group_version
from crdtool.core.schema.defaulting import copy_json
from crdtool.core.schema.objectmeta import coerce_with_options
from crdtool.core.schema.pruning import prune
from crdtool.core.snapshot import Snapshot, compact_copy
from crdtool.core.releases import DEFAULT_RELEASE, Release, resolve_release
from crdtool.core.snapshot import take as take_snapshot

__all__ = ["CrdVersion", "CustomResourceError", "PreparedCrd", "prepare_crd", "resolve_version", "version_for_create"]


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
    #: (:class:`~crdtool.core.validation.compiled_validation.CompiledValidator`; None without a schema)
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
    #: the Kubernetes release whose apiserver serves the CRD (:func:`crdtool.core.releases.resolve_release`)
    release: Release = DEFAULT_RELEASE

    def version(self, name: str) -> CrdVersion | None:
        """The version called ``name``, or None."""
        for v in self.versions:
            if v.name == name:
                return v
        return None

    @property
    def served_versions(self) -> tuple[str, ...]:
        return tuple(v.name for v in self.versions if v.served)


def prepare_crd(crd: dict[str, Any] | PreparedCrd, kubernetes_version: str | None = None) -> PreparedCrd:
    """Decode, default and convert a CRD manifest and build each version's serving schemas.

    In: a CRD manifest dict (``apiextensions.k8s.io/v1`` or ``v1beta1``),
    or an already prepared CRD (returned as is); the Kubernetes release whose
    apiserver serves it (``"1.30"`` … ``"1.37"``; None: the default release,
    :data:`crdtool.core.releases.DEFAULT_RELEASE`). Out: a :class:`PreparedCrd`.
    The CRD is not validated (use ``check_crd_manifest`` for that): the
    apiserver would refuse an invalid CRD, but its schema still tells what
    the objects would look like.

    Raises ``ValueError`` for an unknown Kubernetes version, or a
    :class:`PreparedCrd` prepared for another release than the one named.
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
    prepares it again if anything changed. Another dict holding the same
    JSON as one of the 8 CRDs prepared last (by its ``marshal`` bytes) gets
    that preparation too. That check reads the whole dict
    (:mod:`crdtool.core.snapshot`): about 0.06 ms for the Prometheus CRD
    with the compiled extension, 0.02 to 0.08 ms without it on CPython 3.11
    (dict versions read through ``ctypes``), 2 to 4 ms elsewhere; passing the
    :class:`PreparedCrd` itself costs nothing.

    Mirrors ``customresource_handler.go`` ``getOrCreateServingInfoFor``
    (``apiextensionshelpers.GetSchemaForVersion`` / ``GetSubresourcesForVersion``,
    ``structuralschema.NewStructural``, ``structuraldefaulting.PruneDefaults``).
    """
    if isinstance(crd, PreparedCrd):
        if kubernetes_version is not None and resolve_release(kubernetes_version) != crd.release:
            raise ValueError(
                f"the CRD was prepared for Kubernetes {crd.release}, not {resolve_release(kubernetes_version)}: "
                "prepare it for that release (prepare_crd(crd, kubernetes_version=...))"
            )
        return crd
    return _PREPARED.get(crd, resolve_release(kubernetes_version))


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

        self._entries: dict[tuple[int, int], tuple[Snapshot, PreparedCrd]] = {}
        self._lock = threading.Lock()

    def get(self, crd: Any, release: Release = DEFAULT_RELEASE) -> PreparedCrd:
        key = (id(crd), release.minor)
        with self._lock:
            hit = self._entries.pop(key, None)
            if hit is not None and hit[0].matches(crd):
                self._entries[key] = hit  # the most recently used last
                return hit[1]
        snapshot = take_snapshot(crd)
        if snapshot is None:  # not plain JSON-like data (or nested too deeply)
            return _prepare(crd, release)
        # another dict with the same JSON (the CRD loaded again) shares the preparation: kept by content
        content = content_key(crd)
        found = _BY_CONTENT.get(content, release.minor) if content is not None else None
        prepared = found if found is not None else _prepare(snapshot.copy(crd), release)
        if content is not None and found is None:
            _BY_CONTENT.put(content, release.minor, prepared)
        with self._lock:
            self._entries.pop(key, None)
            if len(self._entries) >= self._SIZE:
                self._entries.pop(next(iter(self._entries)))
            self._entries[key] = (snapshot, prepared)
        return prepared


_PREPARED = _PreparedMemo()
#: the last preparations by the CRD's content (:func:`~crdtool.core.content_memo.content_key`) and release
_BY_CONTENT: ContentMemo[PreparedCrd] = ContentMemo(8)


def _prepare(crd: Any, release: Release = DEFAULT_RELEASE) -> PreparedCrd:
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
    versions = tuple(
        _prepare_version(spec, v, preserve, name, release) for v in _list(spec.get("versions")) if isinstance(v, dict)
    )
    return PreparedCrd(
        name=name,
        group=group,
        kind=_str(names.get("kind")),
        plural=plural,
        namespaced=spec.get("scope") != "Cluster",
        preserve_unknown_fields=preserve,
        versions=versions,
        internal=internal,
        release=release,
    )


def _prepare_version(
    spec: Mapping[str, Any], v: Mapping[str, Any], preserve: bool, crd_name: str, release: Release = DEFAULT_RELEASE
) -> CrdVersion:
    validation = spec.get("validation") if spec.get("validation") is not None else v.get("schema")
    schema = _dict(validation).get("openAPIV3Schema") if isinstance(validation, dict) else None
    schema = schema if isinstance(schema, dict) else None
    subresources = spec.get("subresources") if spec.get("subresources") is not None else v.get("subresources")
    schema, structural, serving, problem = _serving(schema, preserve)
    if problem is not None:
        raise CustomResourceError(
            f"CRD {crd_name} version {_str(v.get('name'))}: the server could not properly serve the CR schema: {problem}",
            "bad-crd",
        )
    return _compiled(release, CrdVersion(
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


def _serving(schema: dict[str, Any] | None, preserve: bool) -> tuple[Any, Any, Any, str | None]:
    """A version's ``(schema, structural, serving schema, problem)``: the structural schema (None when there is
    no schema, or it is not structural and ``preserveUnknownFields`` lets it be served), the serving schema
    with defaults pruned, and why the version cannot be served (the ``StructuralError`` text) or None.

    None of it depends on the Kubernetes release: the releases of a matrix prepare the same CRD one after
    another, and the last few results are kept by the schema's content (:mod:`crdtool.core.content_memo`).
    On a hit the schema returned is the one the structural schema was built from (equal to ``schema``):
    the rules of the prepared version are then told apart by identity consistently (``crdtool test``'s
    coverage), and a prepared CRD shares nothing mutable with its manifest, only with another prepared CRD.
    """
    from crdtool.core.schema.structural import StructuralError, new_structural

    if schema is None:
        return None, None, None, None
    key = content_key(schema)
    if key is not None:
        hit = _SERVING.get(key, preserve)
        if hit is not None:
            return hit
    # dicts side by side: the guards of the public default(obj, schema_dict) read a wide node's property
    # schemas through few views when given this version's serving schema (crdtool.core.snapshot.compact_copy)
    schema = compact_copy(schema)
    structural = None
    serving = schema
    problem = None
    try:
        structural = new_structural(schema)
    except (StructuralError, RecursionError) as exc:
        if not preserve:
            problem = str(exc)
    if problem is None and not preserve and structural is not None:
        serving = _prune_defaults(schema, structural)
        if serving is not schema:
            serving = compact_copy(serving)
    out = (schema, structural, serving, problem)
    if key is not None:
        _SERVING.put(key, preserve, out)
    return out


#: :func:`_serving`'s last results, by the schema's content and ``preserveUnknownFields``.
_SERVING: ContentMemo[tuple[Any, Any, Any, str | None]] = ContentMemo(16)


def _compiled(release: Release, ver: CrdVersion) -> CrdVersion:
    """``ver`` with its compiled value validation, defaulting and CEL validator tree."""
    from dataclasses import replace

    from crdtool.core.validation.compiled_validation import CompiledValidator
    from crdtool.core.schema.defaulting import compile_defaulter

    validator = CompiledValidator(ver.schema, release) if ver.schema is not None else None
    defaulter = compile_defaulter(ver.serving_schema)
    cel = CelTree(ver.structural, release) if ver.has_cel else None
    return replace(ver, validator=validator, defaulter=defaulter, cel_validator=cel)


class CelTree:
    """The CEL validator tree of one version: every rule compiled, on the first validation, then kept.

    Built on first use rather than by :func:`prepare_crd`, so decoding and
    defaulting (``crdtool default``) do not pay for compiling rules they never
    run. ``crdcel.validation.validate_cel`` finds the tree again by the structural
    node's identity (``crdcel.validation._validator``'s cache); holding it here keeps
    the compiled programs alive as long as the prepared CRD.
    """

    __slots__ = ("structural", "release", "tree", "built", "complete")

    def __init__(self, structural: Any, release: Release = DEFAULT_RELEASE) -> None:
        self.structural = structural
        self.release = release
        self.tree: Any = None
        self.built = False
        self.complete = False  # every rule of the tree compiled

    def get(self, compiled: bool = True) -> Any:
        """The tree (None when CEL evaluation is unavailable), with every rule compiled (``compiled``), or each
        node's rules compiled when a value first reaches it (not ``compiled``)."""
        if not self.built:
            try:
                from crdtool.core.crdcel.validation import _validator

                self.tree = _validator(self.structural, True, release=self.release)
            except (ImportError, RecursionError):
                self.tree = None
            self.built = True
        if compiled and not self.complete:
            if self.tree is not None:
                from crdtool.core.crdcel.validation import compile_tree

                compile_tree(self.tree)
            self.complete = True
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
            pruned, _, _ = coerce_dict_schema(pruned, node, ss)
            if pruned != dv:
                changes.append((where, pruned))
        for key, sub, child in _schema_children(node):
            stack.append((child, (*where, (key, sub)), _structural_child(ss, key, sub)))
    if not changes:
        return schema
    out: dict[str, Any] = copy_json(schema)
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


def coerce_dict_schema(value: Any, schema: Mapping[str, Any], ss: Any = None) -> tuple[Any, list[str], FieldError | None]:
    """:func:`coerce_with_options` for a raw schema dict (only used on default values); ``ss``: its structural node, if known."""
    from crdtool.core.schema.structural import StructuralError, new_structural

    if ss is None:
        try:
            ss = new_structural(schema)
        except (StructuralError, RecursionError):
            return value, [], None
    out = copy_json(value)
    err, paths = coerce_with_options(out, ss, Path(""), strict=False)
    return out, paths, err


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


def version_for_create(obj: Any, prepared: PreparedCrd, version: str | None) -> tuple[CrdVersion, bool]:
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


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _str(value: Any) -> str:
    return value if isinstance(value, str) else ""
