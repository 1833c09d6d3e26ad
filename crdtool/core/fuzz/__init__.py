"""Property-based round-trip testing of CRD conversion functions (``crdtool fuzz-roundtrip``).

The package has three parts:

* this module: the per-version model of a CRD (:class:`VersionSchema`,
  :func:`versions_from_crd`) and the apiserver's acceptance check of a
  custom resource at one version (:func:`check_object`). It imports neither
  hypothesis nor deepdiff, so it is cheap to import;
* :mod:`crdtool.core.fuzz.strategies`: hypothesis strategies that generate
  objects the apiserver would accept, from each version's structural schema;
* :mod:`crdtool.core.fuzz.properties`: the round-trip properties, the
  failure model, the guarded call of the user's function (timeout) and the
  hypothesis runner for one ordered pair of versions.

The conversion function under test has ConversionReview semantics for one
object: ``convert(obj: dict, desired_api_version: str) -> dict``, any served
version in, the desired version out, as a conversion webhook converts each
entry of ``request.objects``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from crdtool.core.errors import DecodeError, FieldError, Path, invalid
from crdtool.core.schema.structural import Structural, StructuralError, new_structural

__all__ = [
    "ConvertFn",
    "ObjectCheck",
    "VersionSchema",
    "apiserver_validator",
    "check_object",
    "cel_validator",
    "versions_from_crd",
]

#: The contract of the function under test: ``(object, desired apiVersion) -> converted object``.
ConvertFn = Callable[[dict[str, Any], str], Any]


@dataclass(frozen=True)
class VersionSchema:
    """One version of a CRD, as the fuzzer needs it.

    ``schema`` is the version's ``openAPIV3Schema`` dict (None when the
    version has none, which only v1beta1 CRDs with
    ``preserveUnknownFields: true`` allow); ``structural`` is its structural
    model (None when absent). ``prunes`` is false for a v1beta1 CRD with
    ``spec.preserveUnknownFields: true``: the apiserver then keeps unknown
    fields, so they are neither generated away nor reported.
    """

    group: str
    version: str
    kind: str
    namespaced: bool
    served: bool
    storage: bool
    schema: Mapping[str, Any] | None = field(compare=False, repr=False)
    structural: Structural | None = field(compare=False, repr=False)
    prunes: bool = True
    #: ``schema`` compiled once: ``(CompiledValidator, Defaulter or None)``, or None (interpreted)
    compiled: Any = field(default=None, compare=False, repr=False)

    @property
    def api_version(self) -> str:
        """``group/version``, the ``apiVersion`` of objects at this version."""
        return f"{self.group}/{self.version}"


def versions_from_crd(crd: Mapping[str, Any]) -> list[VersionSchema]:
    """The versions of a CRD manifest, in ``spec.versions`` order.

    In: a CRD manifest (``apiextensions.k8s.io/v1`` or ``v1beta1``) that
    :func:`crdtool.core.crd.manifest.check_crd_manifest` accepts. It is
    decoded, defaulted and converted to the internal type exactly as the
    apiserver does (``decode_crd``, ``default_crd``, ``to_internal``), so a
    v1beta1 top-level ``validation`` applies to every version.

    Out: one :class:`VersionSchema` per version. Raises ``ValueError`` when
    the manifest cannot be decoded or a schema is not structural (with
    upstream ``NewStructural``'s message).
    """
    from crdtool.core.crd.conversion import to_internal
    from crdtool.core.crd.decode import decode_crd
    from crdtool.core.crd.defaults import default_crd
    from crdtool.core.errors import UNMARSHAL_TYPE

    decoded, errors = decode_crd(dict(crd))
    if any(e.type == UNMARSHAL_TYPE for e in errors):
        raise ValueError(f"cannot decode the CRD: {errors[0]}")
    spec = to_internal(default_crd(decoded)).get("spec") or {}
    names = spec.get("names") or {}
    top_schema = ((spec.get("validation") or {}).get("openAPIV3Schema")) or None
    prunes = spec.get("preserveUnknownFields") is not True
    out: list[VersionSchema] = []
    for v in spec.get("versions") or []:
        schema = ((v.get("schema") or {}).get("openAPIV3Schema")) or top_schema
        try:
            structural = new_structural(schema) if schema else None
        except StructuralError as exc:
            raise ValueError(f"version {v.get('name')}: schema is not structural: {exc}") from None
        out.append(
            VersionSchema(
                group=spec.get("group") or "",
                version=v.get("name") or "",
                kind=names.get("kind") or "",
                namespaced=spec.get("scope") != "Cluster",
                served=bool(v.get("served")),
                storage=bool(v.get("storage")),
                schema=schema,
                structural=structural,
                prunes=prunes,
                compiled=_compile(schema) if schema else None,
            )
        )
    return out


def _compile(schema: Mapping[str, Any]) -> tuple[Any, Any]:
    """The schema's compiled value validation and defaulting (same results as the interpreters)."""
    from crdtool.core.validation.compiled_validation import CompiledValidator
    from crdtool.core.schema.defaulting import compile_defaulter

    plain = dict(schema)
    return CompiledValidator(plain), compile_defaulter(plain)


@dataclass(frozen=True)
class ObjectCheck:
    """What the apiserver would do with an object at one version.

    ``pruned``: paths of fields it would silently drop (upstream pruning
    syntax, e.g. ``spec.foo``); ``errors``: why it would reject the object.
    """

    pruned: tuple[str, ...] = ()
    errors: tuple[FieldError, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.pruned and not self.errors


#: Optional extra validator ``(object, version) -> errors`` (e.g. CEL rules); see :func:`cel_validator`.
ExtraValidator = Callable[[dict[str, Any], VersionSchema], list[FieldError]]


def check_object(
    obj: Any, version: VersionSchema, *, extra: ExtraValidator | None = None
) -> ObjectCheck:
    """Would the apiserver accept ``obj`` at ``version`` unchanged?

    Mirrors the custom resource create path of apiextensions-apiserver:
    pruning (``pkg/apiserver/schema/pruning`` ``PruneWithOptions``),
    defaulting (``schema/defaulting`` ``Default``), then
    ``pkg/registry/customresource/validator.go``
    ``customResourceValidator.Validate``: ``ValidateTypeMeta`` (apiVersion and
    kind), ``ValidateObjectMetaAccessor`` with ``NameIsDNSSubdomain``,
    ``ValidateCustomResource`` (OpenAPI value validation),
    ``objectmeta.Validate`` for embedded resources and
    ``listtype.ValidateListSetsAndMaps``. CEL rules and scale replicas are
    checked only by ``extra`` (see :func:`apiserver_validator`); its errors
    are added unless already reported (strict-decoding findings are left out:
    pruning is reported as ``pruned``).

    In: a decoded JSON value (not modified). Out: an :class:`ObjectCheck`.
    Never raises.
    """
    from crdtool.core.objectmeta import validate_object_meta
    from crdtool.core.schema import objectmeta as schema_objectmeta
    from crdtool.core.schema.defaulting import default
    from crdtool.core.schema.pruning import prune
    from crdtool.core.validation.value_validation import validate_list_sets_and_maps, validate_value
    from crdtool.core.validation_util import name_is_dns_subdomain

    if not isinstance(obj, dict):
        return ObjectCheck(errors=(invalid(Path(""), obj, "must be an object"),))
    schema = dict(version.schema) if version.schema is not None else None
    pruned: tuple[str, ...] = ()
    if version.prunes:
        pruned = tuple(prune(obj, schema)[1])
    errors: list[FieldError] = []
    if obj.get("kind") != version.kind:
        errors.append(invalid(Path("kind"), obj.get("kind"), f"must be {version.kind}"))
    if obj.get("apiVersion") != version.api_version:
        errors.append(invalid(Path("apiVersion"), obj.get("apiVersion"), f"must be {version.api_version}"))
    if errors:
        return ObjectCheck(pruned, tuple(errors))
    meta_error = schema_objectmeta.get_object_meta_error(obj.get("metadata"))
    if meta_error:
        return ObjectCheck(pruned, (invalid(Path("metadata"), obj.get("metadata"), meta_error),))
    validator, defaulter = version.compiled if version.compiled is not None else (None, None)
    defaulted = defaulter(obj) if defaulter is not None else default(obj, schema)
    meta = defaulted.get("metadata") if isinstance(defaulted.get("metadata"), dict) else {}
    errors.extend(validate_object_meta(meta, version.namespaced, name_is_dns_subdomain, Path("metadata")))
    if validator is not None:
        errors.extend(validator.validate(defaulted, Path("")))
        errors.extend(validator.validate_list_sets_and_maps(Path(""), defaulted))
    elif schema is not None:
        errors.extend(validate_value(defaulted, schema, Path("")))
        errors.extend(validate_list_sets_and_maps(Path(""), schema, defaulted))
    errors.extend(schema_objectmeta.validate(None, defaulted, version.structural, False))
    if extra is not None:
        try:
            more = extra(obj, version)
        except Exception as exc:  # noqa: BLE001 - an optional validator must not break fuzzing
            more = [invalid(Path(""), None, f"validator failed: {type(exc).__name__}: {exc}")]
        seen = {str(e) for e in errors}
        errors.extend(e for e in more if not isinstance(e, DecodeError) and str(e) not in seen)
    return ObjectCheck(pruned, tuple(errors))


def apiserver_validator(crd: Mapping[str, Any], kubernetes_version: str | None = None) -> ExtraValidator | None:
    """The rest of the apiserver's verdict on an object of ``crd``: CEL rules, scale replicas, everything.

    Prefers ``crdtool.core.customresource.validate_object`` (the create path
    of ``customresource_handler.go`` and ``registry/customresource``:
    ObjectMeta, OpenAPI schema, scale replicas, embedded resources, list
    types, CEL rules), on a CRD prepared once. That path models a create,
    which drops ``status`` under a status subresource; a conversion must keep
    a stored object's status valid too, so CEL rules under ``status`` are
    then evaluated separately (what a status update runs). Falls back to
    :func:`cel_validator` when the create path is unavailable or the object's
    version is not served (``--versions`` may name unserved versions).

    In: the CRD manifest, the Kubernetes release whose apiserver judges (None:
    the default). Out: ``(object, version) -> errors``, or None when neither
    validator is available.
    """
    cel = cel_validator(kubernetes_version)
    try:
        from crdtool.core.customresource import CustomResourceError, prepare_crd, validate_object
        from crdtool.core.customresource.create import RESOURCE_VERSION_SET_ON_CREATE

        prepared = prepare_crd(dict(crd), kubernetes_version)
    except Exception:  # noqa: BLE001 - ImportError, or a CRD the create path cannot serve
        return cel

    status_rules: dict[int, bool] = {}

    def validate(obj: dict[str, Any], version: VersionSchema) -> list[FieldError]:
        served = prepared.version(version.version)
        try:
            # a stored object has a resourceVersion: only a create is refused for it
            errors = [
                e for e in validate_object(obj, prepared, version.version)
                if e.detail != RESOURCE_VERSION_SET_ON_CREATE
            ]
        except CustomResourceError:
            return cel(obj, version) if cel is not None else []
        if served is None or not served.status_enabled:
            return errors
        if served.scale is not None:
            errors.extend(_scale_status_errors(obj, served.scale))
        node = version.structural.properties.get("status") if version.structural is not None else None
        if node is None:
            return errors
        if id(node) not in status_rules:
            status_rules[id(node)] = any(n.extensions.x_validations for n in node.walk())
        if status_rules[id(node)]:
            errors.extend(_status_cel_errors(obj, node, prepared.release))
        return errors

    return validate


_MAX_INT32 = (1 << 31) - 1


def _scale_status_errors(obj: dict[str, Any], scale: Mapping[str, Any]) -> list[FieldError]:
    """``customResourceValidator.ValidateScaleStatus``'s range checks (a status update runs them; a create drops status).

    Mirrors ``pkg/registry/customresource/validator.go``; a value of the
    wrong type is left to the value validator.
    """
    path = scale.get("statusReplicasPath")
    if not isinstance(path, str) or not path:
        return []
    value: Any = obj
    for key in path.removeprefix(".").split("."):
        if not isinstance(value, dict) or key not in value:
            return []
        value = value[key]
    if not isinstance(value, int) or isinstance(value, bool):
        return []
    if value < 0:
        return [invalid(path, value, "should be a non-negative integer")]
    if value > _MAX_INT32:
        return [invalid(path, value, f"should be less than or equal to {_MAX_INT32}")]
    return []


def _status_cel_errors(obj: dict[str, Any], node: Structural, release: Any = None) -> list[FieldError]:
    """CEL rules of the ``status`` schema ``node`` on ``obj["status"]`` (what a status update evaluates)."""
    status = obj.get("status")
    if not isinstance(status, dict):
        return []
    try:
        from crdtool.core.crdcel.validation import validate_cel
        from crdtool.core.schema.defaulting import default
    except ImportError:
        return []
    status = default(status, node.to_schema())
    return list(validate_cel(status, node, Path("status"), is_resource_root=False, release=release).errors)


def cel_validator(kubernetes_version: str | None = None) -> ExtraValidator | None:
    """A validator for ``x-kubernetes-validations`` (CEL) rules alone, or None when CEL evaluation is unavailable.

    The fallback of :func:`apiserver_validator`: runs
    ``crdtool.core.crdcel.validation.validate_cel`` (upstream
    ``apiextensions-apiserver/pkg/apiserver/schema/cel/validation.go``
    ``Validator.Validate``) on the defaulted whole object, status included.
    Versions without rules cost nothing.
    """
    try:
        from crdtool.core.crdcel.validation import validate_cel
        from crdtool.core.schema.defaulting import default
    except ImportError:
        return None
    from crdtool.core.releases import resolve_release

    release = resolve_release(kubernetes_version)
    has_rules: dict[int, bool] = {}

    def validate(obj: dict[str, Any], version: VersionSchema) -> list[FieldError]:
        s = version.structural
        if s is None:
            return []
        if id(s) not in has_rules:
            has_rules[id(s)] = any(node.extensions.x_validations for node in s.walk())
        if not has_rules[id(s)]:
            return []
        defaulted = default(obj, dict(version.schema)) if version.schema is not None else obj
        return list(validate_cel(defaulted, s, None, is_resource_root=True, release=release).errors)

    return validate
