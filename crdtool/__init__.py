"""crdtool: Kubernetes CustomResourceDefinition semantics, offline, as kube-apiserver applies them.

The stable Python API. Every function is pure: plain dicts in, plain dicts,
lists and frozen dataclasses out; none mutates its arguments.

- :class:`FieldError` — upstream ``field.Error``; ``str()`` is the apiserver's message.
- :func:`default_crd` — the ``SetDefaults`` of a manifest's apiVersion.
- :func:`validate_crd` — upstream ``ValidateCustomResourceDefinition`` of a CRD object as given (status included).
- :func:`check_crd_manifest` — what ``crdtool validate`` runs: decode, default, validate, map paths.
- :func:`validate_crd_update` — upstream ``ValidateCustomResourceDefinitionUpdate`` of two CRD objects as given;
  :func:`check_crd_update` — the update of a cluster's CRD from one manifest to another (``crdtool diff``).
- :func:`compare_versions`, :func:`sort_versions` — Kubernetes version priority.
- :func:`convert_crd`, :func:`upgrade_crd` — apiextensions v1beta1 <-> v1 conversion of CRDs.
- :func:`prune`, :func:`prune_non_nullable_nulls`, :func:`default` — structural-schema pruning and defaulting
  (``default(obj, crd)``: the apiserver's whole request decoding, as :func:`decode_object`).
- :func:`validate_object`, :func:`apply_create` — the apiserver's create path for a custom resource;
  ``validate_object(obj, kubernetes_version="1.33")`` without a CRD, and :func:`create_builtin`
  (:class:`BuiltinVerdict`: kubectl's ``metav1.Status``, errors, warnings, the stored object) for a built-in kind.
- :func:`compare_crds` — what changes for clients and stored objects between two CRDs (:class:`Change` records).
- :func:`validate_object_update`, :func:`apply_update` — the apiserver's update path for a custom resource,
  with validation ratcheting.
- :func:`prepare_crd` — a CRD decoded and compiled once, to pass instead of the dict for many objects
  (the fast path; plain dicts are prepared once too, and again whenever they change).
- :data:`RELEASES`, :func:`resolve_release`, :func:`parse_release_matrix` — the Kubernetes releases crdtool
  judges as (1.30 … 1.37, default :data:`DEFAULT_RELEASE`, 1.37); every judging function takes
  ``kubernetes_version="1.33"``.
- :func:`objects_to_convert`, :func:`create_conversion_review`, :func:`converted_objects_from_response`,
  :func:`restore_object_meta`, :func:`convert_from_response`, :class:`ConversionError` — the apiserver's
  side of a conversion webhook (``webhook_converter.go``).
- :func:`lint_crd` — ``crdtool lint``'s checks of one CRD (:class:`LintReport`: :class:`LintFinding` records and
  the CEL cost breakdown); :func:`cost_breakdown` — every rule's estimated cost against the apiserver's limits,
  what drives it and the bounds that fix it (:class:`CostBreakdown`); :func:`plan_cost_fixes` — the manifest
  with those bounds applied.

Names are imported on first use (PEP 562), so ``import crdtool`` and the
command line start fast.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from crdtool._compiled import install_source_finder as _install_source_finder

__version__ = "0.1.0"

# The mypyc-compiled core modules run as compiled, unless CRDTOOL_PURE_PYTHON is set or one is older
# than its source (crdtool/_compiled.py).
_install_source_finder()

# public name -> module that defines it
_EXPORTS = {
    "CrdVerdict": "crdtool.core.crd.manifest",
    "Finding": "crdtool.core.crd.manifest",
    "check_crd_manifest": "crdtool.core.crd.manifest",
    "validate_crd": "crdtool.core.crd.manifest",
    "UpdateVerdict": "crdtool.core.crd.update",
    "check_crd_update": "crdtool.core.crd.update",
    "validate_crd_update": "crdtool.core.crd.update",
    "Change": "crdtool.core.crd.compare",
    "compare_crds": "crdtool.core.crd.compare",
    "default_crd": "crdtool.core.crd.defaults",
    "convert_crd": "crdtool.core.crd.upgrade",
    "upgrade_crd": "crdtool.core.crd.upgrade",
    "Note": "crdtool.core.crd.upgrade",
    "ErrorType": "crdtool.core.errors",
    "FieldError": "crdtool.core.errors",
    "Path": "crdtool.core.errors",
    "compare_versions": "crdtool.core.versions",
    "sort_versions": "crdtool.core.versions",
    "CreateResult": "crdtool.core.customresource",
    "CustomResourceError": "crdtool.core.customresource",
    "apply_create": "crdtool.core.customresource",
    "decode_object": "crdtool.core.customresource",
    "default": "crdtool.core.customresource",
    "prepare_crd": "crdtool.core.customresource",
    "prune": "crdtool.core.customresource",
    "prune_non_nullable_nulls": "crdtool.core.customresource",
    "validate_object": "crdtool.core.registry.objects",
    "BuiltinVerdict": "crdtool.core.registry.create",
    "create_builtin": "crdtool.core.registry.create",
    "UpdateResult": "crdtool.core.customresource",
    "apply_update": "crdtool.core.customresource",
    "validate_object_update": "crdtool.core.customresource",
    "DEFAULT_RELEASE": "crdtool.core.releases",
    "RELEASES": "crdtool.core.releases",
    "Release": "crdtool.core.releases",
    "parse_release_matrix": "crdtool.core.releases",
    "resolve_release": "crdtool.core.releases",
    "ConversionError": "crdtool.core.conversion_review",
    "convert_from_response": "crdtool.core.conversion_review",
    "converted_objects_from_response": "crdtool.core.conversion_review",
    "create_conversion_review": "crdtool.core.conversion_review",
    "objects_to_convert": "crdtool.core.conversion_review",
    "restore_object_meta": "crdtool.core.conversion_review",
    "LintFinding": "crdtool.core.lint",
    "LintReport": "crdtool.core.lint",
    "lint_crd": "crdtool.core.lint",
    "CostBreakdown": "crdtool.core.lint",
    "cost_breakdown": "crdtool.core.lint",
    "plan_cost_fixes": "crdtool.core.lint",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'crdtool' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))


if TYPE_CHECKING:  # pragma: no cover - for type checkers and IDEs
    from crdtool.core.conversion_review import (
        ConversionError,
        convert_from_response,
        converted_objects_from_response,
        create_conversion_review,
        objects_to_convert,
        restore_object_meta,
    )
    from crdtool.core.crd.defaults import default_crd
    from crdtool.core.crd.manifest import CrdVerdict, Finding, check_crd_manifest, validate_crd
    from crdtool.core.crd.compare import Change, compare_crds
    from crdtool.core.crd.update import UpdateVerdict, check_crd_update, validate_crd_update
    from crdtool.core.crd.upgrade import Note, convert_crd, upgrade_crd
    from crdtool.core.lint import CostBreakdown, LintFinding, LintReport, cost_breakdown, lint_crd, plan_cost_fixes
    from crdtool.core.customresource import (
        CreateResult,
        CustomResourceError,
        apply_create,
        decode_object,
        default,
        prepare_crd,
        prune,
        prune_non_nullable_nulls,
        validate_object,
    )
    from crdtool.core.customresource import UpdateResult, apply_update, validate_object_update
    from crdtool.core.errors import ErrorType, FieldError, Path
    from crdtool.core.releases import DEFAULT_RELEASE, RELEASES, Release, parse_release_matrix, resolve_release
    from crdtool.core.versions import compare_versions, sort_versions
