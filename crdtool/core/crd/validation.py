"""Validation of a CustomResourceDefinition on CREATE, as kube-apiserver runs it.

Mirrors apiextensions-apiserver of each release 1.30 … 1.37 (``v0.30.14`` … ``v0.37.0-beta.0``; what
differs is looked up in small tables keyed by release, each citing its tag):

- ``pkg/apis/apiextensions/validation/validation.go``:
  ``ValidateCustomResourceDefinition`` and everything it calls except the
  schema-level functions (those live in
  :mod:`crdtool.core.crd.schema_validation`);
- ``pkg/registry/customresourcedefinition/strategy.go``: ``PrepareForCreate``,
  ``Validate`` and ``WarningsOnCreate`` (unrecognized formats from 1.34, list-type-set
  warnings from 1.37);
- ``pkg/apihelpers/helpers.go``: ``IsProtectedCommunityGroup``,
  ``GetAPIApprovalState``;
- ``k8s.io/apiserver/pkg/util/webhook/validation.go``: ``ValidateWebhookURL``,
  ``ValidateWebhookService``;
- ``k8s.io/apiserver/pkg/registry/rest/create.go``: ``BeforeCreate`` (namespace
  of a cluster-scoped object cleared, the generic metadata re-check) and
  ``k8s.io/apiserver/pkg/endpoints/filters/warning.go`` (warning de-duplication
  and truncation);
- ``apiextensions-apiserver/pkg/apiserver/schema/cel/validation.go``:
  ``ValidFieldPath`` (for selectable fields).

Input is an *internal*-shaped CRD dict (v1beta1 JSON keys, already strictly
type-decoded, nulls removed; see ``notes/COMMON.md``). Nothing here mutates it.
"""

from __future__ import annotations

import dataclasses
import unicodedata
from typing import Any, Mapping, Sequence

from crdtool.core.crd.internal_json import internal_versions
from crdtool.core.crd.options import CREATE_OPTIONS, ValidationOptions
from crdtool.core.crd.release_texts import text
from crdtool.core.crd.schema_validation import (
    StructuralError,
    structural_of,
    validate_custom_resource_definition_validation,
)
from crdtool.core.crd.schema_walk import schema_has, walk
from crdtool.core.crd.types import API_INTERNAL, go_equal
from crdtool.core.errors import (
    FieldError,
    Path,
    duplicate,
    forbidden,
    go_quote,
    go_string_slice,
    internal_error,
    invalid,
    not_supported,
    required,
    too_many,
)
from crdtool.core.gourl import go_url_parse
from crdtool.core.objectmeta import validate_object_meta, validate_object_meta_declaratively
from crdtool.core.releases import DEFAULT_RELEASE, Release
from crdtool.core.schema.formats import supported_string_formats
from crdtool.core.schema.fieldpath import (
    FieldPathError,
    NilSchemaError,
    valid_field_path,
)
from crdtool.core.validation_util import (
    byte_len,
    go_to_lower,
    is_dns1035_label,
    is_dns1123_subdomain,
    name_is_dns_subdomain,
    validate_path_segment,
)
from crdtool.core.webhook import validate_ca_bundle, validate_webhook_service, validate_webhook_url

Obj = Mapping[str, Any]

#: Upstream ``MaxSelectableFields``.
MAX_SELECTABLE_FIELDS = 8
#: Upstream ``v1beta1.KubeAPIApprovedAnnotation``.
KUBE_API_APPROVED_ANNOTATION = "api-approved.kubernetes.io"

_PRINTER_COLUMN_DATATYPES = frozenset({"integer", "number", "string", "boolean", "date"})
_COLUMN_FORMATS = frozenset({"int32", "int64", "float", "double", "byte", "date", "date-time", "password"})
_PRINTER_COLUMN_TYPES_MSG = "must be one of " + ",".join(sorted(_PRINTER_COLUMN_DATATYPES))
_COLUMN_FORMATS_MSG = "must be one of " + ",".join(sorted(_COLUMN_FORMATS))
_ACCEPTED_CONVERSION_REVIEW_VERSIONS = ("v1", "v1beta1")  # sets.List(): sorted
_SCOPES = ["Cluster", "Namespaced"]
_CONVERSION_STRATEGIES = ["None", "Webhook"]

# apiserver/validation/formats.go supportedVersionedFormats (v0.34.0 … v0.37.0-beta.0): the minor of the
# compatibility version that introduced each group, names normalized as go-openapi does (no dashes).
# How WarningsOnCreate/WarningsOnUpdate judge a format, from the first release of each rule (the strategy
# builds spec.Schema{Format, Type: []string{s.Type}} and asks formats.go GetUnrecognizedFormats):
# - none before 1.34 (strategy.go@v0.33.13: `WarningsOnCreate ... { return nil }`);
# - "string" from v0.34.1 (commit 3896d9f3a, "Only warn for unrecognized formats on type=string"): only
#   `type: string` nodes, against the string formats of the compatibility version (v0.34.0 judged every
#   node; crdtool models each release at its newest patch, so 1.34 is v0.34.10);
# - "typed" from v0.36.0 (commit 0835a2fa9): untyped and string nodes against the string formats, integer
#   nodes allow int32/int64, number nodes float/double, any other type no format at all.
_FORMAT_WARNING_RULES: tuple[tuple[int, str], ...] = ((34, "string"), (36, "typed"))
#: strategy.go@v0.37.0-beta.0 getNonScalarListTypeSetWarnings: the first release that warns.
_LIST_TYPE_SET_WARNINGS_SINCE = 37

# endpoints/filters/warning.go limits.
_WARNING_TRUNCATE_AT_TOTAL_RUNES = 4 * 1024
_WARNING_TRUNCATE_ITEM_RUNES = 256

# names.SimpleNameGenerator: upstream appends 5 random characters; a fixed
# suffix from the same alphabet keeps the DNS verdict identical.
_GENERATED_NAME_SUFFIX = "xxxxx"
_MAX_GENERATED_NAME_BASE = 63 - len(_GENERATED_NAME_SUFFIX)

_NIL_DEREF = "runtime error: invalid memory address or nil pointer dereference"


# ============================================================================
# Entry points
# ============================================================================


def validate_crd_create(crd: Obj, release: Release = DEFAULT_RELEASE) -> tuple[list[FieldError], list[str]]:
    """Run a CREATE of ``crd`` through the registry as kube-apiserver does.

    Steps (upstream ``handlers/create.go`` + ``rest.BeforeCreate``): generate a
    name from ``generateName`` if needed, clear ``metadata.namespace`` (the
    CRD is cluster-scoped), ``strategy.PrepareForCreate`` (status reset,
    ``generation: 1``, ``status.storedVersions = [storage version]``),
    ``strategy.Validate``, the generic ObjectMeta re-check, and, only when all
    of that passed, ``strategy.WarningsOnCreate``.

    Args:
        crd: internal-shaped CRD dict (not mutated).
        release: the Kubernetes release whose apiserver runs the create.

    Returns:
        ``(errors, warnings)``: errors in upstream order; warning strings as the
        client receives them (de-duplicated), empty when there are errors.
    """
    obj = prepare_for_create(_before_create_meta(crd), release)
    errs = validate_custom_resource_definition(obj, release)
    if errs:
        return errs, []
    # BeforeCreate re-validates metadata generically once the strategy passed.
    errs = validate_object_meta(_map(obj.get("metadata")), False, validate_path_segment, Path("metadata"), release)
    if errs:
        return errs, []
    return [], record_warnings(warnings_on_create(obj, release))


def validate_custom_resource_definition(crd: Obj, release: Release = DEFAULT_RELEASE) -> list[FieldError]:
    """Upstream ``ValidateCustomResourceDefinition``: validate ``crd`` exactly as given.

    No strategy runs: ``status`` is validated as present (so a CRD without
    ``status.storedVersions`` fails ``status.storedVersions``). Uses the
    CREATE validation options of ``release``.
    """
    opts = CREATE_OPTIONS if release == CREATE_OPTIONS.release else dataclasses.replace(CREATE_OPTIONS, release=release)
    spec = _map(crd.get("spec"))
    status = _map(crd.get("status"))
    names = _map(spec.get("names"))
    required_name = _str(names.get("plural")) + "." + _str(spec.get("group"))

    def name_fn(name: str, prefix: bool) -> list[str]:
        ret = name_is_dns_subdomain(name, prefix)
        if name != required_name:
            ret.append('must be spec.names.plural+"."+spec.group')
        return ret

    # 1.37: ValidateObjectMetaDeclaratively (each message once)
    errs = validate_object_meta_declaratively(_map(crd.get("metadata")), None, False, name_fn, Path("metadata"), release)
    errs.extend(validate_custom_resource_definition_spec(spec, opts, Path("spec")))
    errs.extend(validate_custom_resource_definition_status(status, Path("status")))
    errs.extend(
        validate_custom_resource_definition_stored_versions(
            status.get("storedVersions") if isinstance(status.get("storedVersions"), list) else None,
            _list(spec.get("versions")),
            Path("status").child("storedVersions"),
            release,
        )
    )
    errs.extend(validate_api_approval(crd))
    errs.extend(validate_preserve_unknown_fields(crd))
    return errs


# ============================================================================
# Strategy (registry/customresourcedefinition/strategy.go, rest/create.go)
# ============================================================================


def _before_create_meta(crd: Obj) -> dict[str, Any]:
    """Name generation and ``EnsureObjectNamespaceMatchesRequestNamespace``, on a copy."""
    meta = dict(_map(crd.get("metadata")))
    # A cluster-scoped object's namespace is cleared, not rejected.
    meta.pop("namespace", None)
    generate_name = _str(meta.get("generateName"))
    if generate_name and not _str(meta.get("name")):
        meta["name"] = _generate_name(generate_name)
    out = dict(crd)
    out["metadata"] = meta
    return out


def _generate_name(base: str) -> str:
    """``SimpleNameGenerator.GenerateName`` with a fixed suffix (upstream's is random)."""
    raw = base.encode("utf-8", "surrogatepass")
    if len(raw) > _MAX_GENERATED_NAME_BASE:
        base = raw[:_MAX_GENERATED_NAME_BASE].decode("utf-8", "replace")
    return base + _GENERATED_NAME_SUFFIX


def _spec_has_selectable_fields(spec: Obj) -> bool:
    """Upstream ``specHasSelectableFields``: the spec or a version sets ``selectableFields`` (an empty list too)."""
    if spec.get("selectableFields") is not None:
        return True
    return any(_map(v).get("selectableFields") is not None for v in _list(spec.get("versions")))


def drop_disabled_fields(crd: dict[str, Any], old: Obj | None, release: Release) -> dict[str, Any]:
    """Upstream ``dropDisabledFields`` (``strategy.go``): fields of a disabled feature gate, unless the old CRD uses them.

    With ``CustomResourceFieldSelectors`` off (its default in 1.30: alpha), ``selectableFields`` are dropped from
    the spec and every version. ``optionalOldSelf`` would go with ``CRDValidationRatcheting`` off, which no
    supported release has by default. Returns ``crd`` or a copy without them.
    """
    spec = _map(crd.get("spec"))
    if release.gate("CustomResourceFieldSelectors") or (old is not None and _spec_has_selectable_fields(_map(old.get("spec")))):
        return crd
    if not _spec_has_selectable_fields(spec):
        return crd
    new_spec = {k: v for k, v in spec.items() if k != "selectableFields"}
    if isinstance(spec.get("versions"), list):
        new_spec["versions"] = [
            {k: v for k, v in version.items() if k != "selectableFields"} if isinstance(version, dict) else version
            for version in spec["versions"]
        ]
    return {**crd, "spec": new_spec}


def prepare_for_create(crd: Obj, release: Release = DEFAULT_RELEASE) -> dict[str, Any]:
    """Upstream ``strategy.PrepareForCreate`` on a shallow copy of ``crd``.

    The status is reset; ``metadata.generation`` becomes 1; the first version
    marked ``storage`` is recorded in ``status.storedVersions``; fields of
    feature gates the ``release`` has off are dropped (:func:`drop_disabled_fields`).
    """
    crd = drop_disabled_fields(dict(crd), None, release)
    meta = dict(_map(crd.get("metadata")))
    meta["generation"] = 1
    stored: list[str] = []
    for version in _list(_map(crd.get("spec")).get("versions")):
        version = _map(version)
        if version.get("storage") is True:
            name = _str(version.get("name"))
            if name not in stored:
                stored.append(name)
            break
    out = dict(crd)
    out["metadata"] = meta
    out["status"] = {"storedVersions": stored} if stored else {}
    return out


def _crd_schemas(spec: Obj) -> list[dict[str, Any]]:
    """The top-level schema, then each version's (``getUnrecognizedFormatsInCRD``' order)."""
    schemas: list[dict[str, Any]] = []
    top = _map(spec.get("validation")).get("openAPIV3Schema")
    if isinstance(top, dict):
        schemas.append(top)
    for version in _list(spec.get("versions")):
        schema = _map(_map(version).get("schema")).get("openAPIV3Schema")
        if isinstance(schema, dict):
            schemas.append(schema)
    return schemas


def _format_warning_rule(release: Release) -> str | None:
    rule = None
    for since, name in _FORMAT_WARNING_RULES:
        if release.at_least(since):
            rule = name
    return rule


def unrecognized_formats(spec: Obj, release: Release = DEFAULT_RELEASE) -> list[str]:
    """Upstream ``getUnrecognizedFormatsInCRD`` (``strategy.go``) at ``release``'s compatibility version.

    In: an internal ``spec``. Out: each ``format`` the release's apiserver does not recognize, once per node
    (duplicates kept), the top-level schema first, then each version's, nodes in ``SchemaHas`` order;
    ``[]`` before 1.34 (see :data:`_FORMAT_WARNING_RULES` for the rule of each release).
    """
    if _format_warning_rule(release) is None:
        return []
    return _unrecognized_formats_of(_schema_nodes(spec), release)


def _schema_nodes(spec: Obj) -> list[dict[str, Any]]:
    """Every node of the CRD's schemas (:func:`_crd_schemas`), each schema's in ``SchemaHas`` order."""
    return [node for root in _crd_schemas(spec) for node in walk(root)]


def _unrecognized_formats_of(nodes: list[dict[str, Any]], release: Release) -> list[str]:
    """:func:`unrecognized_formats` of the nodes :func:`_schema_nodes` lists."""
    rule = _format_warning_rule(release)
    if rule is None:
        return []
    supported = supported_string_formats(release)  # formats.go supportedFormatsAtVersion, one table
    found: list[str] = []
    for node in nodes:
        fmt = node.get("format")
        if not isinstance(fmt, str) or not fmt:
            continue
        node_type = _str(node.get("type"))
        if rule == "string":
            unrecognized = node_type == "string" and fmt.replace("-", "") not in supported
        elif node_type in ("", "string"):
            unrecognized = fmt.replace("-", "") not in supported
        elif node_type == "integer":
            unrecognized = fmt not in ("int32", "int64")
        elif node_type == "number":
            unrecognized = fmt not in ("float", "double")
        else:  # "Format not supported on other types"
            unrecognized = True
        if unrecognized:
            found.append(fmt)
    return found


def non_scalar_list_type_set_warnings(spec: Obj, release: Release = DEFAULT_RELEASE) -> list[str]:
    """Upstream ``getNonScalarListTypeSetWarnings`` (``strategy.go@v0.37.0-beta.0``); ``[]`` before 1.37.

    One text per item type (``"array"``, ``"object"``) of any ``x-kubernetes-list-type: set`` whose
    ``items`` is a schema of that type, anywhere in the CRD's schemas; sorted, without repeats.
    """
    if not release.at_least(_LIST_TYPE_SET_WARNINGS_SINCE):
        return []
    return _list_type_set_warnings_of(_schema_nodes(spec), release)


def _list_type_set_warnings_of(nodes: list[dict[str, Any]], release: Release) -> list[str]:
    """:func:`non_scalar_list_type_set_warnings` of the nodes :func:`_schema_nodes` lists."""
    if not release.at_least(_LIST_TYPE_SET_WARNINGS_SINCE):
        return []
    seen: set[str] = set()
    for node in nodes:
        items = node.get("items")
        if node.get("x-kubernetes-list-type") != "set" or not isinstance(items, dict):
            continue
        item_type = items.get("type")
        if item_type in ("object", "array"):
            seen.add(
                f"x-kubernetes-list-type: set for items of type {go_quote(item_type)} is not supported by "
                "server-side apply or CEL validation rules"
            )
    return sorted(seen)


def warnings_on_create(crd: Obj, release: Release = DEFAULT_RELEASE) -> list[str]:
    """Upstream ``strategy.WarningsOnCreate`` of ``release``.

    ``unrecognized format "x"`` per format :func:`unrecognized_formats` finds (from 1.34), then the
    warnings of :func:`non_scalar_list_type_set_warnings` (from 1.37). Returns the raw list (duplicates
    included); see :func:`record_warnings`.
    """
    if _format_warning_rule(release) is None and not release.at_least(_LIST_TYPE_SET_WARNINGS_SINCE):
        return []
    # one walk of the schemas for both (each was a walk of its own: ~0.04 s over ../shared/corpus/crds at 1.37)
    nodes = _schema_nodes(_map(crd.get("spec")))
    warnings = [f"unrecognized format {go_quote(fmt)}" for fmt in _unrecognized_formats_of(nodes, release)]
    warnings.extend(_list_type_set_warnings_of(nodes, release))
    return warnings


def record_warnings(warnings: Sequence[str]) -> list[str]:
    """The apiserver's warning recorder: drop empty and repeated texts, cap total size.

    Mirrors ``recorder.AddWarning`` in ``endpoints/filters/warning.go``: past
    4096 runes in total, every warning is cut to 256 runes and recording stops
    once the total is reached again.
    """
    out: list[str] = []
    seen: set[str] = set()
    ordered: list[str] = []
    written = 0
    truncating = False
    for warning in warnings:
        if not warning:
            continue
        if truncating and written >= _WARNING_TRUNCATE_AT_TOTAL_RUNES:
            break
        if warning in seen:
            continue
        seen.add(warning)
        ordered.append(warning)
        if truncating and len(warning) > _WARNING_TRUNCATE_ITEM_RUNES:
            warning = warning[:_WARNING_TRUNCATE_ITEM_RUNES]
        if written + len(warning) <= _WARNING_TRUNCATE_AT_TOTAL_RUNES or truncating:
            written += len(warning)
            out.append(warning)
            continue
        truncating = True
        written = 0
        out = []
        for w in ordered:
            w = w[:_WARNING_TRUNCATE_ITEM_RUNES]
            written += len(w)
            out.append(w)
    return out


# ============================================================================
# Spec
# ============================================================================


def validate_custom_resource_definition_spec(spec: Obj, opts: ValidationOptions, fld_path: Path) -> list[FieldError]:
    """Upstream ``validateCustomResourceDefinitionSpec``.

    In: the internal ``spec`` dict, the validation options (CREATE:
    :data:`CREATE_OPTIONS`) and the spec's path. Out: the field errors in
    upstream order; the schema-level errors come from
    :func:`validate_custom_resource_definition_validation`. Never raises.
    """
    errs: list[FieldError] = []
    errs.extend(_validate_group(_str(spec.get("group")), fld_path.child("group")))
    errs.extend(validate_enum_strings(fld_path.child("scope"), _str(spec.get("scope")), _SCOPES, True))

    preserve_unknown = spec.get("preserveUnknownFields")  # None, True or False
    pruning = preserve_unknown is not True
    if pruning:
        # enabling pruning requires structural schemas
        opts = dataclasses.replace(opts, require_structural_schema=True)

    versions = [_map(v) for v in _list(spec.get("versions"))]
    versions_path = fld_path.child("versions")
    validation = spec.get("validation")
    has_top_schema = isinstance(validation, dict) and validation.get("openAPIV3Schema") is not None
    if opts.require_open_api_schema:
        if not has_top_schema:
            for i, v in enumerate(versions):
                if not _has_version_schema(v):
                    errs.append(required(versions_path.index(i).child("schema").child("openAPIV3Schema"),
                                         text("version.schema.required", opts.release)))
    elif pruning and not has_top_schema:
        for i, v in enumerate(versions):
            if v.get("served") is True and not _has_version_schema(v):
                errs.append(
                    required(
                        versions_path.index(i).child("schema", "openAPIV3Schema"),
                        "because otherwise all fields are pruned",
                    )
                )
    # Each walk of the schemas below can only change something when structural schemas are not yet required
    # (or, for defaults, when preserveUnknownFields is not false): skipped otherwise, with the same outcome.
    if (opts.allow_defaults and (not opts.require_structural_schema or preserve_unknown is None or preserve_unknown is True)
            and spec_has_defaults(spec)):
        opts = dataclasses.replace(opts, require_structural_schema=True)
        if preserve_unknown is None or preserve_unknown is True:
            errs.append(
                invalid(fld_path.child("preserveUnknownFields"), True, "must be false in order to use defaults in the schema")
            )
    if not opts.require_structural_schema and spec_has_kubernetes_extensions(spec):
        opts = dataclasses.replace(opts, require_structural_schema=True)

    storage_flag_count = 0
    seen_names: set[str] = set()
    unique_names = True
    for i, version in enumerate(versions):
        if version.get("storage") is True:
            storage_flag_count += 1
        name = _str(version.get("name"))
        if name in seen_names:
            unique_names = False
        else:
            seen_names.add(name)
        name_errs = is_dns1035_label(name)
        if name_errs:
            errs.append(invalid(versions_path.index(i).child("name"), name, ",".join(name_errs)))
        subresources = _get_subresources_for_version(spec, versions, name)
        errs.extend(
            validate_custom_resource_definition_version(
                version, versions_path.index(i), _has_status_enabled(subresources), opts
            )
        )

    # The top-level and per-version fields are mutually exclusive.
    if spec.get("validation") is not None and _has_per_version_schema(versions):
        errs.append(forbidden(fld_path.child("validation"), "top-level and per-version schemas are mutually exclusive"))
    if spec.get("subresources") is not None and _has_per_version_subresources(versions):
        errs.append(
            forbidden(fld_path.child("subresources"), "top-level and per-version subresources are mutually exclusive")
        )
    if _list(spec.get("additionalPrinterColumns")) and _has_per_version_columns(versions):
        errs.append(
            forbidden(
                fld_path.child("additionalPrinterColumns"),
                "top-level and per-version additionalPrinterColumns are mutually exclusive",
            )
        )

    # Per-version fields may not all be set to identical values (top-level should be used).
    # the slice as given: nil (absent or null: Go prints null) or a list (empty: [])
    raw_versions = spec.get("versions") if isinstance(spec.get("versions"), list) else None
    if _has_identical_per_version(versions, "schema", "CustomResourceValidation"):
        errs.append(
            invalid(
                versions_path,
                internal_versions(raw_versions),
                "per-version schemas may not all be set to identical values (top-level validation should be used instead)",
            )
        )
    if _has_identical_per_version(versions, "subresources", "CustomResourceSubresources"):
        errs.append(
            invalid(
                versions_path,
                internal_versions(raw_versions),
                "per-version subresources may not all be set to identical values "
                "(top-level subresources should be used instead)",
            )
        )
    if _has_identical_per_version(versions, "additionalPrinterColumns", "CustomResourceColumnDefinition"):
        errs.append(
            invalid(
                versions_path,
                internal_versions(raw_versions),
                "per-version additionalPrinterColumns may not all be set to identical values "
                "(top-level additionalPrinterColumns should be used instead)",
            )
        )

    if not unique_names:
        errs.append(invalid(versions_path, internal_versions(raw_versions), "must contain unique version names"))
    if storage_flag_count != 1:
        errs.append(invalid(versions_path, internal_versions(raw_versions), "must have exactly one version marked as storage version"))
    spec_version = _str(spec.get("version"))
    if spec_version:
        version_errs = is_dns1035_label(spec_version)
        if version_errs:
            errs.append(invalid(fld_path.child("version"), spec_version, ",".join(version_errs)))
        if versions and _str(versions[0].get("name")) != spec_version:
            errs.append(invalid(fld_path.child("version"), spec_version, "must match the first version in spec.versions"))

    # In addition to the basic name restrictions, some names are required for spec.
    names = _map(spec.get("names"))
    for key in ("plural", "singular", "kind", "listKind"):
        if not _str(names.get(key)):
            errs.append(required(fld_path.child("names", key), ""))

    errs.extend(validate_custom_resource_definition_names(names, fld_path.child("names")))
    errs.extend(
        validate_custom_resource_definition_validation(
            _map_or_none(spec.get("validation")),
            _has_any_status_enabled(spec, versions),
            suppress_expression_cost_for_unchanged_schema(opts, spec_version),
            fld_path.child("validation"),
        )
    )
    errs.extend(validate_custom_resource_definition_subresources(_map_or_none(spec.get("subresources")), fld_path.child("subresources")))
    for i, column in enumerate(_list(spec.get("additionalPrinterColumns"))):
        errs.extend(validate_custom_resource_column_definition(_map(column), fld_path.child("additionalPrinterColumns").index(i)))

    selectable_fields = _list(spec.get("selectableFields"))
    if selectable_fields:
        if spec.get("validation") is None:
            errs.append(
                invalid(fld_path.child("selectableFields"), "", text("spec.selectableFields", opts.release))
            )
        else:
            schema, structural_err = _new_structural_or_error(
                _map(spec.get("validation")).get("openAPIV3Schema"), fld_path.child("schema.openAPIV3Schema")
            )
            if structural_err is not None:
                errs.append(structural_err)
            errs.extend(
                validate_custom_resource_selectable_fields(selectable_fields, schema, fld_path.child("selectableFields"), opts, "")
            )

    conversion = spec.get("conversion")
    if isinstance(conversion, dict) and _str(conversion.get("strategy")) != "None" and preserve_unknown is not False:
        errs.append(
            invalid(
                fld_path.child("conversion").child("strategy"),
                _str(conversion.get("strategy")),
                "must be None if spec.preserveUnknownFields is true",
            )
        )
    errs.extend(
        validate_custom_resource_conversion(
            _map_or_none(conversion), opts.require_recognized_conversion_review_version, fld_path.child("conversion"), opts
        )
    )
    return errs


def _validate_group(group: str, path: Path) -> list[FieldError]:
    if not group:
        return [required(path, "")]
    group_errs = is_dns1123_subdomain(group)
    if group_errs:
        return [invalid(path, group, ",".join(group_errs))]
    if len(group.split(".")) < 2:
        return [invalid(path, group, "should be a domain with at least one dot")]
    return []


def validate_enum_strings(fld_path: Path, value: str, accepted: Sequence[str], is_required: bool) -> list[FieldError]:
    """Upstream ``validateEnumStrings``: Required when empty (if required), NotSupported if unknown."""
    if value == "":
        return [required(fld_path, "")] if is_required else []
    if value in accepted:
        return []
    return [not_supported(fld_path, value, accepted)]


def _has_version_schema(version: Obj) -> bool:
    schema = version.get("schema")
    return isinstance(schema, dict) and schema.get("openAPIV3Schema") is not None


def _has_status_enabled(subresources: Obj | None) -> bool:
    """Upstream ``hasStatusEnabled``."""
    return isinstance(subresources, dict) and subresources.get("status") is not None


def _has_any_status_enabled(spec: Obj, versions: Sequence[Obj]) -> bool:
    """Upstream ``hasAnyStatusEnabled``."""
    if _has_status_enabled(_map_or_none(spec.get("subresources"))):
        return True
    return any(_has_status_enabled(_map_or_none(v.get("subresources"))) for v in versions)


def _has_per_version_schema(versions: Sequence[Obj]) -> bool:
    return any(v.get("schema") is not None for v in versions)


def _has_per_version_subresources(versions: Sequence[Obj]) -> bool:
    return any(v.get("subresources") is not None for v in versions)


def _has_per_version_columns(versions: Sequence[Obj]) -> bool:
    return any(_list(v.get("additionalPrinterColumns")) for v in versions)


def _get_subresources_for_version(spec: Obj, versions: Sequence[Obj], name: str) -> Obj | None:
    """Upstream ``getSubresourcesForVersion``."""
    if not _has_per_version_subresources(versions):
        return _map_or_none(spec.get("subresources"))
    for v in versions:
        if _str(v.get("name")) == name:
            return _map_or_none(v.get("subresources"))
    return None


def _has_identical_per_version(versions: Sequence[Obj], key: str, go_type: str) -> bool:
    """Upstream ``hasIdenticalPerVersion{Schema,Subresources,Columns}``.

    Compares with ``apiequality.Semantic.DeepEqual`` (:func:`go_equal`);
    ``go_type`` is the internal Go struct of ``versions[i][key]`` (for the
    columns, of one element of the slice).
    """
    if not versions:
        return False
    struct = API_INTERNAL.struct(go_type)
    first = versions[0].get(key)
    for v in versions:
        value: Any = v.get(key)
        if key == "additionalPrinterColumns":
            if not _list(value) or len(value) != len(_list(first)):
                return False
            if not all(go_equal(x, y, struct) for x, y in zip(value, _list(first))):
                return False
        elif value is None or not go_equal(value, first, struct):
            return False
    return True


def suppress_expression_cost_for_unchanged_schema(opts: ValidationOptions, version: str) -> ValidationOptions:
    """Upstream ``suppressExpressionCostForUnchangedSchema``: no per-expression cost limit for an unchanged schema."""
    if version in opts.versions_with_unchanged_schemas and not opts.suppress_per_expression_cost:
        return dataclasses.replace(opts, suppress_per_expression_cost=True)
    return opts


def spec_has_defaults(spec: Obj) -> bool:
    """Upstream ``specHasDefaults``: any schema node with a ``default``."""
    return has_schema_with(spec, lambda s: schema_has(s, lambda n: n.get("default") is not None))


def has_schema_with(spec: Obj, pred: Any) -> bool:
    """Upstream ``HasSchemaWith``: ``pred`` on the top-level or any version's schema."""
    top = _map(spec.get("validation")).get("openAPIV3Schema")
    if isinstance(top, dict) and pred(top):
        return True
    for version in _list(spec.get("versions")):
        schema = _map(_map(version).get("schema")).get("openAPIV3Schema")
        if isinstance(schema, dict) and pred(schema):
            return True
    return False


def _has_kubernetes_extension(s: Obj) -> bool:
    return (
        s.get("x-kubernetes-embedded-resource") is True
        or s.get("x-kubernetes-preserve-unknown-fields") is not None
        or s.get("x-kubernetes-int-or-string") is True
        or bool(_list(s.get("x-kubernetes-list-map-keys")))
        or s.get("x-kubernetes-list-type") is not None
        or bool(_list(s.get("x-kubernetes-validations")))
    )


def spec_has_kubernetes_extensions(spec: Obj) -> bool:
    """Upstream ``specHasKubernetesExtensions``."""
    return has_schema_with(spec, lambda s: schema_has(s, _has_kubernetes_extension))


# ============================================================================
# Versions
# ============================================================================


def validate_custom_resource_definition_version(
    version: Obj, fld_path: Path, status_enabled: bool, opts: ValidationOptions
) -> list[FieldError]:
    """Upstream ``validateCustomResourceDefinitionVersion``.

    In: one ``spec.versions[i]`` dict, its path, whether the status subresource
    applies to it, the options. Out: errors for its deprecation warning, schema,
    subresources, printer columns and selectable fields.
    """
    errs: list[FieldError] = []
    warning = version.get("deprecationWarning")
    warning = warning if isinstance(warning, str) else None
    for msg in validate_deprecation_warning(version.get("deprecated") is True, warning):
        errs.append(invalid(fld_path.child("deprecationWarning"), warning, msg))
    opts = suppress_expression_cost_for_unchanged_schema(opts, _str(version.get("name")))
    errs.extend(
        validate_custom_resource_definition_validation(
            _map_or_none(version.get("schema")), status_enabled, opts, fld_path.child("schema")
        )
    )
    errs.extend(
        validate_custom_resource_definition_subresources(_map_or_none(version.get("subresources")), fld_path.child("subresources"))
    )
    for i, column in enumerate(_list(version.get("additionalPrinterColumns"))):
        errs.extend(
            validate_custom_resource_column_definition(_map(column), fld_path.child("additionalPrinterColumns").index(i))
        )
    selectable_fields = _list(version.get("selectableFields"))
    if selectable_fields:
        if not _has_version_schema(version):
            errs.append(
                invalid(
                    fld_path.child("selectableFields"),
                    "",
                    text("version.selectableFields", opts.release),
                )
            )
        else:
            schema, structural_err = _new_structural_or_error(
                _map(version.get("schema")).get("openAPIV3Schema"), fld_path.child("schema.openAPIV3Schema")
            )
            if structural_err is not None:
                errs.append(structural_err)
            errs.extend(
                validate_custom_resource_selectable_fields(
                    selectable_fields, schema, fld_path.child("selectableFields"), opts, _str(version.get("name"))
                )
            )
    return errs


def validate_deprecation_warning(deprecated: bool, warning: str | None) -> list[str]:
    """Upstream ``validateDeprecationWarning``: problems with ``deprecationWarning``.

    ``warning`` None means unset (upstream's nil pointer); lengths and the
    reported index are in UTF-8 bytes.
    """
    if not deprecated and warning is not None:
        return ["can only be set for deprecated versions"]
    if warning is None:
        return []
    errors: list[str] = []
    if byte_len(warning) > 256:
        errors.append("must be <= 256 characters long")
    if not warning:
        errors.append("must not be an empty string")
    index = 0
    for ch in warning:
        # A lone surrogate is what Go decodes to U+FFFD: printable.
        if not (0xD800 <= ord(ch) <= 0xDFFF):
            if not ch.isprintable():
                errors.append(f"must only contain printable UTF-8 characters; non-printable character found at index {index}")
                break
            if unicodedata.category(ch) == "Cc":
                errors.append(f"must only contain printable UTF-8 characters; control character found at index {index}")
                break
        index += byte_len(ch)
    return errors


# ============================================================================
# Conversion
# ============================================================================


def validate_conversion_review_versions(versions: Sequence[Any], require_recognized: bool, fld_path: Path) -> list[FieldError]:
    """Upstream ``validateConversionReviewVersions``.

    In: ``conversionReviewVersions`` as given, whether one of ``v1``/``v1beta1``
    is required (always on CREATE), the list's path. Out: Required when empty,
    Invalid per duplicate or non-DNS-1035 entry, Invalid on the list without
    a recognized version.
    """
    if len(versions) < 1:
        return [required(fld_path, "")]
    errs: list[FieldError] = []
    seen: set[str] = set()
    has_accepted = False
    for i, v in enumerate(versions):
        v = _str(v)
        if v in seen:
            errs.append(invalid(fld_path.index(i), v, "duplicate version"))
            continue
        seen.add(v)
        for msg in is_dns1035_label(v):
            errs.append(invalid(fld_path.index(i), v, msg))
        if v in _ACCEPTED_CONVERSION_REVIEW_VERSIONS:
            has_accepted = True
    if require_recognized and not has_accepted:
        errs.append(
            invalid(fld_path, list(versions), "must include at least one of " + ", ".join(_ACCEPTED_CONVERSION_REVIEW_VERSIONS))
        )
    return errs


def validate_custom_resource_conversion(
    conversion: Obj | None, require_recognized_version: bool, fld_path: Path, opts: ValidationOptions
) -> list[FieldError]:
    """Upstream ``validateCustomResourceConversion``.

    ``caBundle`` is checked (``ValidateCABundle``) only when
    ``opts.allow_invalid_ca_bundle`` is false, which a CREATE never sets and an
    update of an established CRD with a valid bundle does.
    """
    if conversion is None:
        return []
    errs: list[FieldError] = []
    strategy = _str(conversion.get("strategy"))
    errs.extend(validate_enum_strings(fld_path.child("strategy"), strategy, _CONVERSION_STRATEGIES, True))
    config = conversion.get("webhookClientConfig")
    config_path = fld_path.child("webhookClientConfig")
    review_versions = _list(conversion.get("conversionReviewVersions"))
    if strategy == "Webhook":
        if not isinstance(config, dict):
            errs.append(required(config_path, "required when strategy is set to Webhook"))
        else:
            url = config.get("url")
            service = config.get("service")
            if (url is None) == (service is None):
                errs.append(required(config_path, "exactly one of url or service is required"))
            elif url is not None:
                errs.extend(validate_webhook_url(config_path.child("url"), _str(url), True))
            else:
                service = _map(service)
                path = service.get("path")
                port = service.get("port")
                # Upstream defect, reproduced: validateCustomResourceConversion calls
                # webhook.ValidateWebhookService(fldPath, cc.Service.Name, cc.Service.Namespace, ...)
                # but the signature is (fldPath, namespace, name, ...) (k8s.io/apiserver
                # pkg/util/webhook/validation.go). A missing service name is therefore reported at
                # ...service.namespace and a missing namespace at ...service.name (v0.36.3).
                errs.extend(
                    validate_webhook_service(
                        config_path.child("service"),
                        _str(service.get("name")),
                        _str(service.get("namespace")),
                        path if isinstance(path, str) else None,
                        port if isinstance(port, int) else 0,
                        opts.release,
                    )
                )
            ca_bundle = _str(config.get("caBundle"))
            if ca_bundle and not opts.allow_invalid_ca_bundle:
                errs.extend(validate_ca_bundle(config_path.child("caBundle"), ca_bundle))
        errs.extend(
            validate_conversion_review_versions(review_versions, require_recognized_version, fld_path.child("conversionReviewVersions"))
        )
    else:
        if config is not None:
            errs.append(forbidden(config_path, "should not be set when strategy is not set to Webhook"))
        if review_versions:
            errs.append(
                forbidden(fld_path.child("conversionReviewVersions"), "should not be set when strategy is not set to Webhook")
            )
    return errs



# ============================================================================
# Status, names, columns, subresources, stored versions
# ============================================================================


def validate_custom_resource_definition_status(status: Obj, fld_path: Path) -> list[FieldError]:
    """Upstream ``ValidateCustomResourceDefinitionStatus``: the accepted names."""
    return validate_custom_resource_definition_names(_map(status.get("acceptedNames")), fld_path.child("acceptedNames"))


def validate_custom_resource_definition_names(names: Obj, fld_path: Path) -> list[FieldError]:
    """Upstream ``ValidateCustomResourceDefinitionNames``.

    In: a ``names`` dict (``spec.names`` or ``status.acceptedNames``) and its
    path. Out: Invalid per non-DNS-1035 plural, singular, kind, listKind
    (the kinds lower-cased), shortName and category, and kind == listKind.
    Required-ness is checked by the caller (spec only).
    """
    errs: list[FieldError] = []
    for key in ("plural", "singular"):
        value = _str(names.get(key))
        value_errs = is_dns1035_label(value)
        if value and value_errs:
            errs.append(invalid(fld_path.child(key), value, ",".join(value_errs)))
    for key in ("kind", "listKind"):
        value = _str(names.get(key))
        value_errs = is_dns1035_label(go_to_lower(value))
        if value and value_errs:
            errs.append(
                invalid(fld_path.child(key), value, "may have mixed case, but should otherwise match: " + ",".join(value_errs))
            )
    for i, short_name in enumerate(_list(names.get("shortNames"))):
        short_name = _str(short_name)
        value_errs = is_dns1035_label(short_name)
        if value_errs:
            errs.append(invalid(fld_path.child("shortNames").index(i), short_name, ",".join(value_errs)))
    kind = _str(names.get("kind"))
    list_kind = _str(names.get("listKind"))
    # kind and listKind may not be the same or parsing becomes ambiguous
    if kind and kind == list_kind:
        errs.append(invalid(fld_path.child("listKind"), list_kind, "kind and listKind may not be the same"))
    for i, category in enumerate(_list(names.get("categories"))):
        category = _str(category)
        value_errs = is_dns1035_label(category)
        if value_errs:
            errs.append(invalid(fld_path.child("categories").index(i), category, ",".join(value_errs)))
    return errs


def validate_custom_resource_column_definition(column: Obj, fld_path: Path) -> list[FieldError]:
    """Upstream ``ValidateCustomResourceColumnDefinition``.

    In: one ``additionalPrinterColumns[i]`` dict (internal keys: ``JSONPath``)
    and its path. Out: Required/Invalid name, type, format and JSONPath errors.
    """
    errs: list[FieldError] = []
    if not _str(column.get("name")):
        errs.append(required(fld_path.child("name"), ""))
    column_type = _str(column.get("type"))
    if not column_type:
        errs.append(required(fld_path.child("type"), _PRINTER_COLUMN_TYPES_MSG))
    elif column_type not in _PRINTER_COLUMN_DATATYPES:
        errs.append(invalid(fld_path.child("type"), column_type, _PRINTER_COLUMN_TYPES_MSG))
    column_format = _str(column.get("format"))
    if column_format and column_format not in _COLUMN_FORMATS:
        errs.append(invalid(fld_path.child("format"), column_format, _COLUMN_FORMATS_MSG))
    json_path = _str(column.get("JSONPath"))
    if not json_path:
        errs.append(required(fld_path.child("JSONPath"), ""))
    else:
        errs.extend(validate_simple_json_path(json_path, fld_path.child("JSONPath")))
    return errs


def validate_custom_resource_definition_subresources(subresources: Obj | None, fld_path: Path) -> list[FieldError]:
    """Upstream ``ValidateCustomResourceDefinitionSubresources``: the scale paths."""
    if subresources is None:
        return []
    scale = subresources.get("scale")
    if not isinstance(scale, dict):
        return []
    errs: list[FieldError] = []
    for key, prefix, where in (
        ("specReplicasPath", ".spec.", ".spec"),
        ("statusReplicasPath", ".status.", ".status"),
    ):
        path = fld_path.child("scale." + key)
        value = _str(scale.get(key))
        if not value:
            errs.append(required(path, ""))
            continue
        path_errs = validate_simple_json_path(value, path)
        if path_errs:
            errs.extend(path_errs)
        elif not value.startswith(prefix):
            errs.append(invalid(path, value, f"should be a json path under {where}"))
    label_selector_path = scale.get("labelSelectorPath")
    if isinstance(label_selector_path, str) and label_selector_path:
        path = fld_path.child("scale.labelSelectorPath")
        path_errs = validate_simple_json_path(label_selector_path, path)
        if path_errs:
            errs.extend(path_errs)
        elif not label_selector_path.startswith(".spec.") and not label_selector_path.startswith(".status."):
            errs.append(invalid(path, label_selector_path, "should be a json path under either .spec or .status"))
    return errs


def validate_simple_json_path(s: str, fld_path: Path) -> list[FieldError]:
    """Upstream ``validateSimpleJSONPath``: non-empty and starting with ``.``."""
    if not s:
        return [invalid(fld_path, s, "must not be empty")]
    if s[0] != ".":
        return [invalid(fld_path, s, "must be a simple json path starting with .")]
    # Upstream's remaining check (len(split) < 1) can never fail.
    return []


def validate_custom_resource_definition_stored_versions(
    stored_versions: Sequence[Any] | None, versions: Sequence[Any], fld_path: Path, release: Release = DEFAULT_RELEASE
) -> list[FieldError]:
    """Upstream ``ValidateCustomResourceDefinitionStoredVersions`` (texts of ``release``).

    ``stored_versions``: ``status.storedVersions``, None when absent (Go's nil slice: ``PrepareForCreate``
    leaves it nil without a storage version). The bad value is the ``[]string``: JSON from 1.34 (``null`` for
    nil), ``%#v`` before (``[]string(nil)``, ``[]string{"v1"}``). Leftover stored versions are reported in
    index order (upstream iterates a map, in random order).
    """
    if not stored_versions:
        bad = go_string_slice(None if stored_versions is None else [_str(v) for v in stored_versions])
        return [invalid(fld_path, bad, "must have at least one stored version")]
    errs: list[FieldError] = []
    remaining: dict[str, int] = {}
    for i, v in enumerate(stored_versions):
        remaining[_str(v)] = i
    for version in versions:
        version = _map(version)
        name = _str(version.get("name"))
        present = name in remaining
        if version.get("storage") is True and not present:
            errs.append(invalid(fld_path, go_string_slice([_str(v) for v in stored_versions]),
                                "must have the storage version " + name))
        if present:
            del remaining[name]
    for v, i in sorted(remaining.items(), key=lambda kv: kv[1]):
        errs.append(invalid(fld_path.index(i), v, text("storedVersions.missing", release, v=v)))
    return errs


# ============================================================================
# API approval and preserveUnknownFields
# ============================================================================


def is_protected_community_group(group: str) -> bool:
    """Upstream ``apihelpers.IsProtectedCommunityGroup``: ``*.k8s.io``, ``*.kubernetes.io``."""
    return group in ("k8s.io", "kubernetes.io") or group.endswith(".k8s.io") or group.endswith(".kubernetes.io")


def get_api_approval_state(annotations: Obj) -> tuple[str, str]:
    """Upstream ``apihelpers.GetAPIApprovalState``: ``(state, reason)``.

    ``state`` is one of ``"Missing"``, ``"Bypassed"``, ``"Approved"``, ``"Invalid"``.
    """
    annotation = _str(annotations.get(KUBE_API_APPROVED_ANNOTATION))
    if not annotation:
        return "Missing", (
            f"protected groups must have approval annotation {go_quote(KUBE_API_APPROVED_ANNOTATION)}, "
            "see https://github.com/kubernetes/enhancements/pull/1111"
        )
    if annotation.startswith("unapproved"):
        return "Bypassed", f"not approved: {go_quote(annotation)}"
    parsed, _ = go_url_parse(annotation, via_request=True)
    if parsed is not None and parsed.host and parsed.scheme:
        return "Approved", f"approved in {annotation}"
    return "Invalid", (
        f"protected groups must have approval annotation {go_quote(KUBE_API_APPROVED_ANNOTATION)} "
        'with either a URL or a reason starting with "unapproved", '
        "see https://github.com/kubernetes/enhancements/pull/1111"
    )


def validate_api_approval(crd: Obj, old: Obj | None = None) -> list[FieldError]:
    """Upstream ``validateAPIApproval``: ``old`` is the CRD before an update (None on create).

    An update that leaves the approval state as it was never fails here.
    """
    if not is_protected_community_group(_str(_map(crd.get("spec")).get("group"))):
        return []
    annotations = _map(_map(crd.get("metadata")).get("annotations"))
    state, reason = get_api_approval_state(annotations)
    if old is not None and get_api_approval_state(_map(_map(old.get("metadata")).get("annotations")))[0] == state:
        return []
    path = Path("metadata", "annotations").key(KUBE_API_APPROVED_ANNOTATION)
    if state == "Missing":
        return [required(path, reason)]
    if state == "Invalid":
        return [invalid(path, _str(annotations.get(KUBE_API_APPROVED_ANNOTATION)), reason)]
    return []


def validate_preserve_unknown_fields(crd: Obj, old: Obj | None = None) -> list[FieldError]:
    """Upstream ``validatePreserveUnknownFields``: ``true`` is rejected unless ``old`` (the CRD before an update) had it."""
    if old is not None and _map(old.get("spec")).get("preserveUnknownFields") is True:
        return []  # no-op for compatibility with existing data
    if _map(crd.get("spec")).get("preserveUnknownFields") is True:
        return [
            invalid(
                Path("spec").child("preserveUnknownFields"),
                True,
                "cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead",
            )
        ]
    return []


# ============================================================================
# Selectable fields
# ============================================================================


def _new_structural_or_error(schema: Any, err_path: Path) -> tuple[Any, FieldError | None]:
    """``structuralschema.NewStructural``; a failure is upstream's Invalid ``""`` error."""
    if not isinstance(schema, dict):
        return None, None
    try:
        return structural_of(schema), None
    except StructuralError as exc:
        return None, invalid(err_path, "", str(exc))


def validate_custom_resource_selectable_fields(
    selectable_fields: Sequence[Any],
    schema: Any,
    fld_path: Path,
    opts: ValidationOptions = CREATE_OPTIONS,
    version: str = "",
) -> list[FieldError]:
    """Upstream ``ValidateCustomResourceSelectableFields``.

    ``schema`` is the :func:`new_structural` result, or None when it failed
    (upstream then dereferences nil and the request fails with a 500; that is
    reported as an InternalError at the field path). ``version`` is the
    version's name ("" for the top level): more than ``MaxSelectableFields``
    are allowed when ``opts.allow_too_many_selectable_fields`` names it (an
    update that leaves them unchanged).
    """
    errs: list[FieldError] = []
    unique: set[str] = set()
    for i, selectable in enumerate(selectable_fields):
        index_path = fld_path.index(i)
        json_path = _str(_map(selectable).get("jsonPath"))
        if not json_path:
            errs.append(required(index_path.child("jsonPath"), ""))
            continue
        try:
            path, found = valid_field_path(json_path, schema, allow_array_notation=False)
        except FieldPathError as exc:
            errs.append(invalid(index_path.child("jsonPath"), json_path, f"is an invalid path: {exc}"))
            continue
        except NilSchemaError:
            errs.append(internal_error(index_path.child("jsonPath"), _NIL_DEREF))
            return errs
        if path.root == "metadata":
            errs.append(invalid(index_path.child("jsonPath"), json_path, "must not point to fields in metadata"))
        if not _allowed_selectable_field_schema(found):
            errs.append(
                invalid(
                    index_path.child("jsonPath"),
                    json_path,
                    "must point to a field of type string, boolean or integer. "
                    "Enum string fields and strings with formats are allowed.",
                )
            )
        if path.text in unique:
            errs.append(duplicate(index_path.child("jsonPath"), json_path))
        else:
            unique.add(path.text)
    if len(unique) > MAX_SELECTABLE_FIELDS and version not in opts.allow_too_many_selectable_fields:
        errs.append(too_many(fld_path, len(unique), MAX_SELECTABLE_FIELDS))
    return errs


def _allowed_selectable_field_schema(schema: Any) -> bool:
    return schema is not None and getattr(schema, "type", "") in ("string", "boolean", "integer")




# ============================================================================
# Small accessors (inputs are type-decoded; these only guard against absence)
# ============================================================================


def _str(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _map(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, dict) else _EMPTY


def _map_or_none(value: Any) -> dict[str, Any] | None:
    return value if isinstance(value, dict) else None


_EMPTY: Mapping[str, Any] = {}


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []
