"""The UPDATE of a CustomResourceDefinition, as kube-apiserver runs it.

Mirrors apiextensions-apiserver of each release 1.30 … 1.37 (``v0.30.14`` … ``v0.37.0-beta.0``):

- ``pkg/apis/apiextensions/validation/validation.go``:
  ``ValidateCustomResourceDefinitionUpdate`` with the options it derives from
  the old object (``requireOpenAPISchema``, ``requireValidPropertyType``,
  ``requireStructuralSchema``, ``requirePrunedDefaults``,
  ``requireAtomicSetType``, ``requireMapListKeysMapSetValidation``,
  ``findPreexistingExpressions``, ``findVersionsWithUnchangedSchemas``,
  ``allowInvalidCABundle``, ``findTooManySelectableFieldsAllowed``,
  ``hasValidConversionReviewVersionOrEmpty``; the names are immutable once
  the old CRD is ``Established``), ``validateCustomResourceDefinitionSpecUpdate``
  and ``ValidateCustomResourceDefinitionStoredVersions`` (in
  :mod:`crdtool.core.crd.validation`);
- ``pkg/registry/customresourcedefinition/strategy.go``: ``PrepareForUpdate``
  (the old status carried over, the generation bumped when the spec changed,
  the new storage version appended to ``status.storedVersions``),
  ``ValidateUpdate`` and ``WarningsOnUpdate`` (only newly introduced
  unrecognized formats and list-type-set warnings);
- ``k8s.io/apiserver/pkg/registry/rest/update.go``: ``BeforeUpdate``
  (namespace cleared, generation, uid and creation timestamp from the old
  object, ``validateCommonFields``, then the strategy).

Inputs of the ``validate_*``/``prepare_*`` functions are *internal*-shaped CRD
dicts (v1beta1 JSON keys, type-decoded), as in
:mod:`crdtool.core.crd.validation`; :func:`check_crd_update` takes two
manifests. Nothing here mutates its arguments.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from crdtool.core.crd.manifest import (
    FIELD_VALIDATION_DIRECTIVES,
    V1BETA1,
    V1BETA1_WARNING,
    CRD_API_VERSIONS,
    Finding,
    is_crd,
)
from crdtool.core.crd.options import PreexistingExpressions, ValidationOptions
from crdtool.core.crd.schema_walk import schema_has, walk
from crdtool.core.crd.types import API_INTERNAL, go_equal
from crdtool.core.errors import UNMARSHAL_TYPE, FieldError, Path, duplicate_field, errors_at_release, go_quote
from crdtool.core.objectmeta import (
    validate_immutable_field,
    validate_object_meta,
    validate_object_meta_declaratively,
    validate_object_meta_update,
)
from crdtool.core.releases import DEFAULT_RELEASE, Release, resolve_release

Obj = Mapping[str, Any]

#: Upstream ``openapiV3Types``.
OPENAPI_V3_TYPES = frozenset({"string", "number", "integer", "boolean", "array", "object"})
_ACCEPTED_CONVERSION_REVIEW_VERSIONS = ("v1", "v1beta1")
ESTABLISHED = "Established"
#: validation.go: the first release that validates a conversion webhook's caBundle on update (v0.31.0
#: ``allowInvalidCABundle``) and the first that lets an update keep more than 8 unchanged selectable fields
#: (v0.35.0 ``findTooManySelectableFieldsAllowed``).
_CA_BUNDLE_VALIDATED_SINCE = 31
_SELECTABLE_FIELDS_RATCHETING_SINCE = 35

__all__ = [
    "UpdateVerdict",
    "check_crd_update",
    "find_preexisting_expressions",
    "find_versions_with_unchanged_schemas",
    "get_schema_for_version",
    "is_crd_condition_true",
    "prepare_for_update",
    "update_options",
    "validate_crd_update",
    "validate_crd_update_request",
    "validate_custom_resource_definition_spec_update",
    "validate_custom_resource_definition_update",
    "warnings_on_update",
]


# ============================================================================
# Options derived from the old object
# ============================================================================


def update_options(crd: Obj, old: Obj, release: Release = DEFAULT_RELEASE) -> ValidationOptions:
    """The ``validationOptions`` of upstream ``ValidateCustomResourceDefinitionUpdate``.

    In: the new and the old internal CRD dicts, the release whose apiserver validates. Out: the options; a
    requirement the old object already violates is switched off ("don't
    tighten validation on existing persisted data"), and so on for each
    field below. The CEL environment is the default one (None).
    """
    old_spec = _map(old.get("spec"))
    conversion = old_spec.get("conversion")
    return ValidationOptions(
        release=release,
        allow_defaults=True,
        require_recognized_conversion_review_version=not isinstance(conversion, dict)
        or has_valid_conversion_review_version_or_empty(_list(conversion.get("conversionReviewVersions"))),
        require_immutable_names=is_crd_condition_true(old, ESTABLISHED),
        require_open_api_schema=require_open_api_schema(old_spec),
        require_valid_property_type=require_valid_property_type(old_spec),
        require_structural_schema=require_structural_schema(old_spec, release),
        require_pruned_defaults=require_pruned_defaults(old_spec, release),
        require_atomic_set_type=require_atomic_set_type(old_spec),
        require_map_list_keys_map_set_validation=require_map_list_keys_map_set_validation(old_spec),
        preexisting_expressions=find_preexisting_expressions(old_spec, release),
        versions_with_unchanged_schemas=find_versions_with_unchanged_schemas(crd, old),
        # v0.30.14 has no caBundle check at all (allowInvalidCABundle arrives in v0.31.0)
        allow_invalid_ca_bundle=not release.at_least(_CA_BUNDLE_VALIDATED_SINCE) or allow_invalid_ca_bundle(old),
        # findTooManySelectableFieldsAllowed arrives in v0.35.0; before, more than 8 are always too many
        allow_too_many_selectable_fields=(
            find_too_many_selectable_fields_allowed(crd, old)
            if release.at_least(_SELECTABLE_FIELDS_RATCHETING_SINCE) else frozenset()
        ),
    )


def is_crd_condition_true(crd: Obj, condition_type: str) -> bool:
    """Upstream ``apiextensions.IsCRDConditionTrue``: the first condition of that type has status ``True``."""
    for condition in _list(_map(crd.get("status")).get("conditions")):
        condition = _map(condition)
        if condition.get("type") == condition_type:
            return condition.get("status") == "True"
    return False


def has_valid_conversion_review_version_or_empty(versions: Sequence[Any]) -> bool:
    """Upstream ``hasValidConversionReviewVersionOrEmpty``."""
    return not versions or any(v in _ACCEPTED_CONVERSION_REVIEW_VERSIONS for v in versions)


def _schemas(spec: Obj) -> list[dict[str, Any]]:
    """The top-level schema and each version's, in ``HasSchemaWith`` order."""
    out: list[dict[str, Any]] = []
    top = _map(spec.get("validation")).get("openAPIV3Schema")
    if isinstance(top, dict):
        out.append(top)
    for version in _list(spec.get("versions")):
        schema = _map(_map(version).get("schema")).get("openAPIV3Schema")
        if isinstance(schema, dict):
            out.append(schema)
    return out


def require_open_api_schema(old_spec: Obj) -> bool:
    """Upstream ``requireOpenAPISchema``: not when some old version had no schema."""
    if isinstance(_map(old_spec.get("validation")).get("openAPIV3Schema"), dict):
        return True
    for version in _list(old_spec.get("versions")):
        if not isinstance(_map(_map(version).get("schema")).get("openAPIV3Schema"), dict):
            return False
    return True


def require_valid_property_type(old_spec: Obj) -> bool:
    """Upstream ``requireValidPropertyType``: not when an old schema has a type outside ``openapiV3Types``."""

    def invalid_type(s: dict[str, Any]) -> bool:
        t = s.get("type")
        return isinstance(t, str) and bool(t) and t not in OPENAPI_V3_TYPES

    return not any(schema_has(s, invalid_type) for s in _schemas(old_spec))


def _is_non_structural(schema: dict[str, Any], release: Release = DEFAULT_RELEASE) -> bool:
    """Upstream ``schemaIsNonStructural`` (``ValidateStructural`` of ``release``)."""
    from crdtool.core.schema.structural import StructuralError, new_structural, validate_structural

    try:
        ss = new_structural(schema)
    except (StructuralError, RecursionError):
        return True
    return bool(validate_structural(Path(""), ss, release))


def require_structural_schema(old_spec: Obj, release: Release = DEFAULT_RELEASE) -> bool:
    """Upstream ``requireStructuralSchema``: not when an old schema is not structural (to ``release``)."""
    return not any(_is_non_structural(s, release) for s in _schemas(old_spec))


def _has_unpruned_defaults(schema: dict[str, Any], release: Release = DEFAULT_RELEASE) -> bool:
    """Upstream ``schemaHasUnprunedDefaults``: some ``default`` loses fields to pruning.

    Only structural schemas are judged (upstream returns an error, read as
    false, otherwise). The ObjectMeta coercion of embedded defaults that
    upstream's ``PruneDefaults`` also runs is not repeated here.
    """
    from crdtool.core.schema.pruning import prune

    if not schema_has(schema, lambda n: n.get("default") is not None) or _is_non_structural(schema, release):
        return False
    for node in walk(schema):
        value = node.get("default")
        if value is None:
            continue
        pruned, _ = prune(value, node, is_resource_root=node.get("x-kubernetes-embedded-resource") is True)
        if pruned != value:
            return True
    return False


def require_pruned_defaults(old_spec: Obj, release: Release = DEFAULT_RELEASE) -> bool:
    """Upstream ``requirePrunedDefaults``: not when an old default is not pruned."""
    return not any(_has_unpruned_defaults(s, release) for s in _schemas(old_spec))


def _has_non_atomic_set_type(schema: dict[str, Any]) -> bool:
    """Upstream ``hasNonAtomicSetType``."""

    def pred(s: dict[str, Any]) -> bool:
        items = s.get("items")
        if s.get("x-kubernetes-list-type") != "set" or not isinstance(items, dict):
            return False
        if items.get("type") == "array":
            list_type = items.get("x-kubernetes-list-type")
            return list_type is not None and list_type != "atomic"
        if items.get("type") == "object":
            return items.get("x-kubernetes-map-type") != "atomic"
        return False

    return schema_has(schema, pred)


def require_atomic_set_type(old_spec: Obj) -> bool:
    """Upstream ``requireAtomicSetType``: not when an old set-list has non-atomic items."""
    return not any(_has_non_atomic_set_type(s) for s in _schemas(old_spec))


def require_map_list_keys_map_set_validation(old_spec: Obj) -> bool:
    """Upstream ``requireMapListKeysMapSetValidation``: not when an old list-map/set fails those rules."""
    from crdtool.core.crd.schema_validation import validate_map_list_keys_map_set

    return not any(schema_has(s, lambda n: bool(validate_map_list_keys_map_set(n, Path("")))) for s in _schemas(old_spec))


#: validation.go findPreexistingExpressionsInSchema: the first release that records a rule's messageExpression
#: (v0.31.0); v0.30.14 inserts the *rule* text into the messageExpressions set instead
#: (``expressions.messageExpressions.Insert(v.Rule)``), so an unchanged messageExpression compiles in the
#: new-expressions environment unless it equals some old rule's text.
_PREEXISTING_MESSAGE_EXPRESSIONS_FIXED_SINCE = 31


def find_preexisting_expressions(spec: Obj, release: Release = DEFAULT_RELEASE) -> PreexistingExpressions:
    """Upstream ``findPreexistingExpressions`` of ``release``: the old CRD's rules and message expressions.

    ``rules``: every rule text (the empty one too); ``message_expressions``: every non-empty
    messageExpression, or in 1.30 the rule text of each rule that has one (an upstream defect, reproduced).
    """
    rules: set[str] = set()
    messages: set[str] = set()
    fixed = release.at_least(_PREEXISTING_MESSAGE_EXPRESSIONS_FIXED_SINCE)
    for schema in _schemas(spec):
        for node in walk(schema):
            for rule in _list(node.get("x-kubernetes-validations")):
                rule = _map(rule)
                raw = rule.get("rule")
                text = raw if isinstance(raw, str) else ""
                rules.add(text)
                message_expression = rule.get("messageExpression")
                if isinstance(message_expression, str) and message_expression:
                    messages.add(message_expression if fixed else text)
    return PreexistingExpressions(frozenset(rules), frozenset(messages))


class _SchemaLookupError(Exception):
    pass


def get_schema_for_version(crd: Obj, version: str) -> Any:
    """Upstream ``apiextensions.GetSchemaForVersion``: the ``CustomResourceValidation`` serving ``version``.

    The top-level ``validation`` when no version has a schema (None when
    absent); raises ``LookupError`` when both levels are set or the version
    does not exist.
    """
    spec = _map(crd.get("spec"))
    versions = [_map(v) for v in _list(spec.get("versions"))]
    if not any(v.get("schema") is not None for v in versions):
        return spec.get("validation")
    if spec.get("validation") is not None:
        raise LookupError("top-level and per-version schemas must be mutual exclusive")
    for v in versions:
        if v.get("name") == version:
            return v.get("schema")
    raise LookupError(f"version {version} not found")


def find_versions_with_unchanged_schemas(crd: Obj, old: Obj) -> frozenset[str]:
    """Upstream ``findVersionsWithUnchangedSchemas``: versions whose schema is ``Semantic.DeepEqual`` to the old one's."""
    struct = API_INTERNAL.struct("CustomResourceValidation")
    out: set[str] = set()
    for version in _list(_map(crd.get("spec")).get("versions")):
        name = _map(version).get("name")
        if not isinstance(name, str):
            continue
        try:
            new_schema = get_schema_for_version(crd, name)
            old_schema = get_schema_for_version(old, name)
        except LookupError:
            continue
        if (new_schema is None) != (old_schema is None):
            continue
        if new_schema is None or go_equal(new_schema, old_schema, struct):
            out.add(name)
    return frozenset(out)


def allow_invalid_ca_bundle(old: Obj) -> bool:
    """Upstream ``allowInvalidCABundle``: before the CRD is established, or when the old bundle is itself invalid."""
    from crdtool.core.webhook import validate_ca_bundle

    if not is_crd_condition_true(old, ESTABLISHED):
        return True
    conversion = _map(_map(old.get("spec")).get("conversion"))
    config = conversion.get("webhookClientConfig")
    ca_bundle = _map(config).get("caBundle")
    if not isinstance(config, dict) or not isinstance(ca_bundle, str) or not ca_bundle:
        return False
    return bool(validate_ca_bundle(Path("caBundle"), ca_bundle))


def _selectable_fields_equal(a: Any, b: Any) -> bool:
    a, b = _list(a), _list(b)
    struct = API_INTERNAL.struct("SelectableField")
    return len(a) == len(b) and all(go_equal(x, y, struct) for x, y in zip(a, b))


def find_too_many_selectable_fields_allowed(crd: Obj, old: Obj) -> frozenset[str]:
    """Upstream ``findTooManySelectableFieldsAllowed``: version names ("" = top level) with unchanged, too many fields."""
    from crdtool.core.crd.validation import MAX_SELECTABLE_FIELDS

    spec, old_spec = _map(crd.get("spec")), _map(old.get("spec"))
    out: set[str] = set()
    old_top = _list(old_spec.get("selectableFields"))
    if len(old_top) > MAX_SELECTABLE_FIELDS and _selectable_fields_equal(spec.get("selectableFields"), old_top):
        out.add("")
    old_versions: dict[str, Obj] = {}
    for v in _list(old_spec.get("versions")):
        v = _map(v)
        old_versions[str(v.get("name", ""))] = v  # the last of a repeated name wins, as upstream's map
    for v in _list(spec.get("versions")):
        v = _map(v)
        old_v = old_versions.get(str(v.get("name", "")))
        if old_v is None:
            continue
        old_fields = _list(old_v.get("selectableFields"))
        if len(old_fields) > MAX_SELECTABLE_FIELDS and _selectable_fields_equal(v.get("selectableFields"), old_fields):
            out.add(str(v.get("name", "")))
    return frozenset(out)


# ============================================================================
# ValidateCustomResourceDefinitionUpdate
# ============================================================================


def validate_custom_resource_definition_update(
    crd: Obj, old: Obj, opts: ValidationOptions | None = None, release: Release = DEFAULT_RELEASE
) -> list[FieldError]:
    """Upstream ``ValidateCustomResourceDefinitionUpdate`` (``opts`` None: :func:`update_options` of ``release``).

    In: the new and old internal CRD dicts, exactly as given (no strategy:
    ``status`` is validated as present). Out: field errors in upstream order:
    ObjectMeta update rules, the spec (with the update options), the immutable
    group and plural (and scope and kind once established), the status'
    accepted names, the stored versions, API approval and
    ``preserveUnknownFields``. Never raises.
    """
    from crdtool.core.crd.validation import (
        validate_api_approval,
        validate_custom_resource_definition_status,
        validate_custom_resource_definition_stored_versions,
        validate_preserve_unknown_fields,
    )

    if opts is None:
        opts = update_options(crd, old, release)
    spec, old_spec = _map(crd.get("spec")), _map(old.get("spec"))
    status = _map(crd.get("status"))
    # 1.37: ValidateObjectMetaDeclaratively (each message once)
    errs = validate_object_meta_declaratively(
        _map(crd.get("metadata")), _map(old.get("metadata")), False, None, Path("metadata"), opts.release
    )
    errs.extend(validate_custom_resource_definition_spec_update(spec, old_spec, opts, Path("spec")))
    errs.extend(validate_custom_resource_definition_status(status, Path("status")))
    errs.extend(
        validate_custom_resource_definition_stored_versions(
            _list(status.get("storedVersions")), _list(spec.get("versions")), Path("status").child("storedVersions"),
            opts.release,
        )
    )
    errs.extend(validate_api_approval(crd, old))
    errs.extend(validate_preserve_unknown_fields(crd, old))
    return errs


def validate_custom_resource_definition_spec_update(
    spec: Obj, old_spec: Obj, opts: ValidationOptions, fld_path: Path
) -> list[FieldError]:
    """Upstream ``validateCustomResourceDefinitionSpecUpdate``.

    The spec as on create (with the update options), then ``scope`` and
    ``names.kind`` immutable when ``opts.require_immutable_names`` (the old CRD
    is established), and ``group`` and ``names.plural`` always immutable (they
    make the resource's name).
    """
    from crdtool.core.crd.validation import validate_custom_resource_definition_spec

    errs = validate_custom_resource_definition_spec(spec, opts, fld_path)
    names, old_names = _map(spec.get("names")), _map(old_spec.get("names"))
    if opts.require_immutable_names:
        errs.extend(validate_immutable_field(_str(spec.get("scope")), _str(old_spec.get("scope")), fld_path.child("scope")))
        errs.extend(
            validate_immutable_field(_str(names.get("kind")), _str(old_names.get("kind")), fld_path.child("names", "kind"))
        )
    errs.extend(validate_immutable_field(_str(spec.get("group")), _str(old_spec.get("group")), fld_path.child("group")))
    errs.extend(
        validate_immutable_field(_str(names.get("plural")), _str(old_names.get("plural")), fld_path.child("names", "plural"))
    )
    return errs


# ============================================================================
# The registry: BeforeUpdate and the strategy
# ============================================================================


def prepare_for_update(crd: Obj, old: Obj, release: Release = DEFAULT_RELEASE) -> dict[str, Any]:
    """Upstream ``strategy.PrepareForUpdate`` on a shallow copy of ``crd``.

    The old ``status`` replaces the new one; ``metadata.generation`` becomes
    the old one plus one when the spec changed (``Semantic.DeepEqual``); the
    first version marked ``storage`` is appended to ``status.storedVersions``
    when missing; fields of feature gates the ``release`` has off are dropped
    unless the old CRD uses them (``dropDisabledFields``).
    """
    from crdtool.core.crd.validation import drop_disabled_fields

    out = dict(crd)
    status = dict(_map(old.get("status")))
    meta = dict(_map(crd.get("metadata")))
    spec_struct = API_INTERNAL.struct("CustomResourceDefinitionSpec")
    if not go_equal(old.get("spec"), crd.get("spec"), spec_struct):
        meta["generation"] = _int(_map(old.get("metadata")).get("generation")) + 1
    stored = [v for v in _list(status.get("storedVersions"))]
    for version in _list(_map(crd.get("spec")).get("versions")):
        version = _map(version)
        if version.get("storage") is True:
            name = _str(version.get("name"))
            if name not in stored:
                stored.append(name)
            break
    if stored or "storedVersions" in status:
        status["storedVersions"] = stored
    out["metadata"] = meta
    out["status"] = status
    # last, as upstream: the generation compares the specs before the drop (strategy.go@v0.30.14)
    out = drop_disabled_fields(out, old, release)
    return out


def warnings_on_update(crd: Obj, old: Obj, release: Release = DEFAULT_RELEASE) -> list[str]:
    """Upstream ``strategy.WarningsOnUpdate`` of ``release``: what the update newly introduces.

    ``unrecognized format "x"`` for each unrecognized format of the new CRD the old one did not have
    (repeats of a new one kept; from 1.34), then each list-type-set warning the old CRD did not already
    produce (ratcheted per text, i.e. per item type; from 1.37).
    """
    from crdtool.core.crd.validation import non_scalar_list_type_set_warnings, unrecognized_formats

    spec, old_spec = _map(crd.get("spec")), _map(old.get("spec"))
    old_formats = set(unrecognized_formats(old_spec, release))
    warnings = [f"unrecognized format {go_quote(f)}" for f in unrecognized_formats(spec, release) if f not in old_formats]
    old_list_sets = set(non_scalar_list_type_set_warnings(old_spec, release))
    warnings.extend(w for w in non_scalar_list_type_set_warnings(spec, release) if w not in old_list_sets)
    return warnings


def validate_crd_update_request(
    crd: Obj, old: Obj, release: Release = DEFAULT_RELEASE
) -> tuple[list[FieldError], list[str]]:
    """Run an UPDATE of ``old`` to ``crd`` through the registry as kube-apiserver does.

    Steps (upstream ``rest.BeforeUpdate``): the namespace is cleared (the CRD
    is cluster-scoped), the generation is the old one, ``PrepareForUpdate``,
    the uid and creation timestamp come from the old object when unset, then
    ``validateCommonFields`` (ObjectMeta with ``validatePathSegment``, and the
    ObjectMeta update rules) and ``strategy.ValidateUpdate``
    (:func:`validate_custom_resource_definition_update`, which checks the
    ObjectMeta update rules once more: upstream reports such an error twice),
    and ``WarningsOnUpdate`` once all of that passed.

    In: internal CRD dicts (not mutated), the release whose apiserver runs the
    update. Out: ``(errors, warnings)``.
    """
    from crdtool.core.crd.validation import record_warnings
    from crdtool.core.validation_util import validate_path_segment

    new = dict(crd)
    meta = dict(_map(crd.get("metadata")))
    old_meta = _map(old.get("metadata"))
    meta.pop("namespace", None)
    meta["generation"] = _int(old_meta.get("generation"))
    new["metadata"] = meta
    new = prepare_for_update(new, old, release)
    meta = dict(_map(new.get("metadata")))
    for key in ("uid", "creationTimestamp"):
        if not meta.get(key) and old_meta.get(key):
            meta[key] = old_meta[key]
    for key in ("deletionTimestamp", "deletionGracePeriodSeconds"):
        if old_meta.get(key) is not None and (key == "deletionTimestamp" or meta.get(key) is None):
            meta[key] = old_meta[key]
    new["metadata"] = meta
    errs = validate_object_meta(meta, False, validate_path_segment, Path("metadata"), release)
    errs.extend(validate_object_meta_update(meta, old_meta, Path("metadata"), release))
    errs.extend(validate_custom_resource_definition_update(new, old, release=release))
    if errs:
        return errs, []
    return [], record_warnings(warnings_on_update(new, old, release))


# ============================================================================
# Objects as given, and manifests
# ============================================================================


def _decode_as_given(crd: dict[str, Any], release: Release | None = None) -> tuple[dict[str, Any], list[FieldError]]:
    """As :func:`crdtool.core.crd.manifest.validate_crd` reads a CRD: v1beta1-shaped unless its apiVersion says v1."""
    from crdtool.core.crd.conversion import to_internal
    from crdtool.core.crd.decode import decode_crd

    source = dict(crd)
    if source.get("apiVersion") not in CRD_API_VERSIONS:
        source["apiVersion"] = V1BETA1
    decoded, errors = decode_crd(source, release)
    if any(e.type == UNMARSHAL_TYPE for e in errors):
        return {}, list(errors)
    return to_internal(decoded), list(errors)


def validate_crd_update(
    crd: dict[str, Any], old: dict[str, Any], *, kubernetes_version: str | None = None
) -> list[FieldError]:
    """Upstream ``ValidateCustomResourceDefinitionUpdate`` on two CRD objects exactly as given.

    In: the new and the old CRD as dicts, read as :func:`crdtool.validate_crd`
    reads one (a v1beta1-shaped dict unless ``apiVersion`` is
    ``apiextensions.k8s.io/v1``), ``status`` included (``status.conditions``
    decide whether the old CRD is ``Established``, which makes ``scope`` and
    ``names.kind`` immutable). No defaulting and no registry strategy. Out:
    the new object's decoding findings, then the validation errors in
    upstream order, with upstream's internal field paths. An object that
    cannot be decoded yields its decoding errors only. ``kubernetes_version``:
    the release whose apiserver validates (``"1.30"`` … ``"1.37"``; None: 1.37);
    ``ValueError`` for an unknown one, else never raises.

    For what an update of a manifest returns, use :func:`check_crd_update`.
    """
    release = resolve_release(kubernetes_version)
    new_internal, errors = _decode_as_given(crd, release)
    if any(e.type == UNMARSHAL_TYPE for e in errors):
        return errors
    old_internal, old_errors = _decode_as_given(old, release)
    if any(e.type == UNMARSHAL_TYPE for e in old_errors):
        return errors + [e for e in old_errors if e.type == UNMARSHAL_TYPE]
    return errors_at_release(
        errors + validate_custom_resource_definition_update(new_internal, old_internal, release=release), release
    )


@dataclass(frozen=True)
class UpdateVerdict:
    """The apiserver's verdict on updating a CRD from an old manifest to a new one.

    ``findings``: the new manifest's decoding findings, then the update's
    validation errors (paths of the new manifest; see
    :class:`~crdtool.core.crd.manifest.Finding`). ``warnings``: what a
    successful update returns. ``stored_versions``: ``status.storedVersions``
    after the update (the old list plus the new storage version).
    ``old_stored_versions``: the list the update started from.
    """

    findings: tuple[Finding, ...]
    warnings: tuple[str, ...]
    stored_versions: tuple[str, ...]
    old_stored_versions: tuple[str, ...]

    @property
    def accepted(self) -> bool:
        return not self.findings


def check_crd_update(
    new_doc: dict[str, Any],
    old_doc: dict[str, Any],
    *,
    stored_versions: Sequence[str] | None = None,
    established: bool = True,
    field_validation: str = "Strict",
    duplicate_fields: Sequence[str] = (),
    kubernetes_version: str | None = None,
) -> UpdateVerdict:
    """Judge applying the manifest ``new_doc`` over a cluster's CRD created from ``old_doc``.

    Each manifest is decoded at its own apiVersion with that version's
    defaults and converted to the internal version (``new_doc`` strictly, as
    ``kubectl apply`` with server-side field validation ``Strict`` sends it:
    see :func:`crdtool.core.crd.manifest.check_crd_manifest` for
    ``field_validation`` and ``duplicate_fields``). The old object is what the
    cluster holds: its ``status.storedVersions`` are ``stored_versions`` when
    given (as ``kubectl get crd -o jsonpath='{.status.storedVersions}'``
    reports them), else the old manifest's own ``status.storedVersions``, else
    what its create recorded (its storage version); unless the old manifest
    says otherwise it is ``Established`` when ``established`` (an accepted
    CRD is, and then ``scope`` and ``names.kind`` are immutable too); its
    server-set metadata (``resourceVersion``, ``uid``, ``creationTimestamp``,
    ``generation``) are filled in and carried into the new object, as
    ``kubectl apply`` patches the live object. Then
    :func:`validate_crd_update_request`.

    ``kubernetes_version``: the release whose apiserver runs the update
    (``"1.30"`` … ``"1.37"``; None: the default, 1.37).

    Raises ValueError when either document is not a CRD at a supported
    apiVersion, when the old manifest cannot be decoded (wrong JSON types),
    or for an unknown ``field_validation`` or Kubernetes version.

    Mirrors ``pkg/registry/customresourcedefinition/strategy.go`` and
    ``k8s.io/apiserver/pkg/registry/rest/update.go``.
    """
    from crdtool.core.crd.conversion import manifest_path, to_internal
    from crdtool.core.crd.decode import decode_crd
    from crdtool.core.crd.defaults import default_crd

    if not is_crd(new_doc) or not is_crd(old_doc):
        raise ValueError("not an apiextensions.k8s.io/v1 or v1beta1 CustomResourceDefinition")
    if field_validation not in FIELD_VALIDATION_DIRECTIVES:
        raise ValueError(f"field_validation must be one of {', '.join(FIELD_VALIDATION_DIRECTIVES)}")
    release = resolve_release(kubernetes_version)

    old_decoded, old_errors = decode_crd(old_doc, release)
    fatal = [e for e in old_errors if e.type == UNMARSHAL_TYPE]
    if fatal:
        raise ValueError(f"the old CRD cannot be decoded: {fatal[0]}")
    old = _as_stored(to_internal(default_crd(old_decoded)), stored_versions, established, release)

    warnings: list[str] = [V1BETA1_WARNING] if new_doc.get("apiVersion") == V1BETA1 else []
    decoded, decode_errors = decode_crd(new_doc, release)
    if any(e.type == UNMARSHAL_TYPE for e in decode_errors):
        return UpdateVerdict(tuple(Finding(e) for e in decode_errors), tuple(warnings), (), _stored(old))
    strict: list[FieldError] = [duplicate_field(p) for p in duplicate_fields]
    strict += decode_errors
    findings: list[Finding] = []
    if field_validation == "Strict":
        findings = [Finding(e) for e in strict]
    elif field_validation == "Warn":
        warnings.extend(e.detail for e in strict)

    defaulted = default_crd(decoded)
    new = _as_applied(to_internal(defaulted), old)
    errors, update_warnings = validate_crd_update_request(new, old, release)
    errors = errors_at_release(errors, release)  # built with the newest field.Error text: the release's
    for err in errors:
        mapped = manifest_path(err.field, defaulted)
        if mapped == err.field:
            findings.append(Finding(err))
        else:
            findings.append(Finding(replace(err, field=mapped), upstream_field=err.field))
    warnings.extend(update_warnings)
    after = _stored(prepare_for_update(new, old, release))
    return UpdateVerdict(tuple(findings), tuple(warnings), after, _stored(old))


_PLACEHOLDER_META = {"resourceVersion": "1", "uid": "00000000-0000-0000-0000-000000000000", "generation": 1}


def _as_stored(
    old: dict[str, Any], stored_versions: Sequence[str] | None, established: bool, release: Release = DEFAULT_RELEASE
) -> dict[str, Any]:
    """The old CRD as the cluster holds it: status, conditions and server-set metadata."""
    from crdtool.core.crd.validation import prepare_for_create

    out = dict(old)
    status = dict(_map(old.get("status")))
    if stored_versions is not None:
        status["storedVersions"] = list(stored_versions)
    elif not _list(status.get("storedVersions")):
        status["storedVersions"] = _list(_map(prepare_for_create(old, release).get("status")).get("storedVersions"))
    conditions = _list(status.get("conditions"))
    if established and not any(_map(c).get("type") == ESTABLISHED for c in conditions):
        status["conditions"] = [*conditions, {"type": ESTABLISHED, "status": "True"}]
    out["status"] = status
    meta = dict(_map(old.get("metadata")))
    meta.pop("namespace", None)
    for key, value in _PLACEHOLDER_META.items():
        if not meta.get(key):
            meta[key] = value
    out["metadata"] = meta
    return out


def _as_applied(new: dict[str, Any], old: Obj) -> dict[str, Any]:
    """The new manifest as ``kubectl apply`` sends it over the live object: server-set metadata kept."""
    out = dict(new)
    meta = dict(_map(new.get("metadata")))
    old_meta = _map(old.get("metadata"))
    for key in ("resourceVersion", "uid", "creationTimestamp", "generation"):
        if not meta.get(key) and old_meta.get(key):
            meta[key] = old_meta[key]
    out["metadata"] = meta
    return out


def _stored(crd: Obj) -> tuple[str, ...]:
    return tuple(_str(v) for v in _list(_map(crd.get("status")).get("storedVersions")))


# ============================================================================
# Small accessors
# ============================================================================


def _str(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _int(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


_EMPTY: Mapping[str, Any] = {}


def _map(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else _EMPTY


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []
