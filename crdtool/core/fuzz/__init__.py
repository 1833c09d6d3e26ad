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

from crdtool.core.errors import FieldError, Path, invalid
from crdtool.core.schema.structural import Structural, StructuralError, new_structural

__all__ = [
    "ConvertFn",
    "ObjectCheck",
    "VersionSchema",
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
            )
        )
    return out


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
    ``listtype.ValidateListSetsAndMaps``. CEL rules run only when ``extra``
    is given (see :func:`cel_validator`).

    In: a decoded JSON value (not modified). Out: an :class:`ObjectCheck`.
    Never raises.
    """
    from crdtool.core.objectmeta import validate_object_meta
    from crdtool.core.schema import objectmeta as schema_objectmeta
    from crdtool.core.schema.defaulting import default
    from crdtool.core.schema.pruning import prune
    from crdtool.core.schema.value_validation import validate_list_sets_and_maps, validate_value
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
    defaulted = default(obj, schema)
    meta = defaulted.get("metadata") if isinstance(defaulted.get("metadata"), dict) else {}
    errors.extend(validate_object_meta(meta, version.namespaced, name_is_dns_subdomain, Path("metadata")))
    if schema is not None:
        errors.extend(validate_value(defaulted, schema, Path("")))
        errors.extend(validate_list_sets_and_maps(Path(""), schema, defaulted))
    errors.extend(schema_objectmeta.validate(None, defaulted, version.structural, False))
    if extra is not None and not errors:
        try:
            errors.extend(extra(defaulted, version))
        except Exception as exc:  # noqa: BLE001 - an optional validator must not break fuzzing
            errors.append(invalid(Path(""), None, f"validator failed: {type(exc).__name__}: {exc}"))
    return ObjectCheck(pruned, tuple(errors))


def cel_validator() -> ExtraValidator | None:
    """A validator for ``x-kubernetes-validations`` (CEL) rules, or None when CEL evaluation is unavailable.

    Uses ``crdtool.core.schema.cel_eval.validate_cel`` (upstream
    ``apiextensions-apiserver/pkg/apiserver/schema/cel/validation.go``
    ``Validator.Validate``) on the whole object. The create path of
    ``crdtool.core.customresource.validate_object`` is not used as a whole:
    it models a create, which drops ``status`` under a status subresource and
    resets ``generation``, while a conversion sees (and must keep valid) the
    stored object, status included; :func:`check_object` does the rest of the
    same checks itself. Versions without rules cost nothing.
    """
    try:
        from crdtool.core.schema.cel_eval import validate_cel
    except ImportError:
        return None
    has_rules: dict[int, bool] = {}

    def validate(obj: dict[str, Any], version: VersionSchema) -> list[FieldError]:
        s = version.structural
        if s is None:
            return []
        if id(s) not in has_rules:
            has_rules[id(s)] = any(node.extensions.x_validations for node in s.walk())
        if not has_rules[id(s)]:
            return []
        return list(validate_cel(obj, s, Path(""), is_resource_root=True).errors)

    return validate
