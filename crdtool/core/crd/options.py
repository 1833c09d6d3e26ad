"""Validation options for a CRD create or update, as upstream's ``validationOptions``.

Mirrors the ``validationOptions`` struct in apiextensions-apiserver
``pkg/apis/apiextensions/validation/validation.go`` and the values
``ValidateCustomResourceDefinition`` sets for a CREATE (every requirement on).
The options of an UPDATE are derived from the old object in
:func:`crdtool.core.crd.update.update_options`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from crdtool.core.releases import DEFAULT_RELEASE, Release

if TYPE_CHECKING:  # pragma: no cover
    from crdtool.core.kubecel.environment import EnvSet


@dataclass(frozen=True)
class PreexistingExpressions:
    """Upstream ``preexistingExpressions``: what the CRD had before an update (empty on create).

    A rule compiles in the stored-expressions environment when its text is in ``rules``, a
    messageExpression when its text is in ``message_expressions``
    (``RuleEnv``/``MessageExpressionEnv``).
    """

    rules: frozenset[str] = frozenset()
    message_expressions: frozenset[str] = frozenset()


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
    #: the Kubernetes release whose apiserver validates (its rules, texts, feature gates and CEL environments)
    release: Release = DEFAULT_RELEASE
    #: ``celEnvironmentSet``; None is ``MustBaseEnvSet(DefaultCompatibilityVersion())`` of ``release``'s apiserver.
    cel_env_set: EnvSet | None = None
    #: ``preexistingExpressions``: the rules and messageExpressions of the CRD before an update.
    preexisting_expressions: PreexistingExpressions = PreexistingExpressions()
    #: ``versionsWithUnchangedSchemas``: on update, the versions whose schema equals the old CRD's.
    versions_with_unchanged_schemas: frozenset[str] = frozenset()
    #: ``suppressPerExpressionCost``: set per version from ``versions_with_unchanged_schemas``.
    suppress_per_expression_cost: bool = False
    #: ``allowTooManySelectableFields``: version names ("" for the top level) whose unchanged
    #: selectable fields may exceed ``MaxSelectableFields`` (update only).
    allow_too_many_selectable_fields: frozenset[str] = frozenset()


CREATE_OPTIONS = ValidationOptions()
