"""crdtool: Kubernetes CustomResourceDefinition semantics, offline, as kube-apiserver applies them.

The stable Python API. Every function is pure: plain dicts in, plain dicts,
lists and frozen dataclasses out; none mutates its arguments.

- :class:`FieldError` — upstream ``field.Error``; ``str()`` is the apiserver's message.
- :func:`default_crd` — the ``SetDefaults`` of a manifest's apiVersion.
- :func:`validate_crd` — upstream create validation of a CRD object as given.
- :func:`check_crd_manifest` — what ``crdtool validate`` runs: decode, default, validate, map paths.
- :func:`compare_versions`, :func:`sort_versions` — Kubernetes version priority.
"""

from __future__ import annotations

from typing import Any

from crdtool.core.crd.manifest import CrdVerdict, Finding, check_crd_manifest, validate_crd
from crdtool.core.errors import ErrorType, FieldError, Path
from crdtool.core.versions import compare_versions, sort_versions

__version__ = "0.1.0"

__all__ = [
    "CrdVerdict",
    "ErrorType",
    "FieldError",
    "Finding",
    "Path",
    "check_crd_manifest",
    "compare_versions",
    "default_crd",
    "sort_versions",
    "validate_crd",
]


def default_crd(crd: dict[str, Any]) -> dict[str, Any]:
    """Apply the ``SetDefaults`` of the manifest's apiVersion; returns a new dict.

    Input: a CRD dict with ``apiVersion`` ``apiextensions.k8s.io/v1`` or
    ``v1beta1`` (anything else is returned as an unchanged copy). Mirrors
    apiextensions-apiserver ``pkg/apis/apiextensions/v1/defaults.go`` and
    ``v1beta1/defaults.go`` (``SetDefaults_CustomResourceDefinition``).
    """
    from crdtool.core.crd.defaults import default_crd as _default_crd

    return _default_crd(crd)
