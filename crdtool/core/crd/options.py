"""Validation options for a CRD create, as upstream's ``validationOptions``.

Mirrors the ``validationOptions`` struct in apiextensions-apiserver
``pkg/apis/apiextensions/validation/validation.go`` and the values
``ValidateCustomResourceDefinition`` sets for a CREATE (every requirement on).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ValidationOptions:
    """Upstream ``validationOptions``; the defaults are those of a CREATE."""

    allow_defaults: bool = True
    disallow_defaults_reason: str = ""
    require_recognized_conversion_review_version: bool = True
    require_immutable_names: bool = False
    require_open_api_schema: bool = True
    require_valid_property_type: bool = True
    require_structural_schema: bool = True
    require_pruned_defaults: bool = True
    require_atomic_set_type: bool = True
    require_map_list_keys_map_set_validation: bool = True
    allow_invalid_ca_bundle: bool = True


CREATE_OPTIONS = ValidationOptions()
