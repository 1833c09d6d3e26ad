"""Tests for crdtool.core.crd.validation (CRD create validation, minus schema rules).

Every case is our own, derived from the behaviour pinned by upstream
apiextensions-apiserver ``pkg/apis/apiextensions/validation/validation.go``
and ``validation_test.go`` (TestValidateCustomResourceDefinition and
friends), ``pkg/registry/customresourcedefinition/strategy.go``, apiserver
``pkg/util/webhook/validation.go`` and ``apihelpers/helpers.go``. Each case
asserts the exact (type, field) list of the errors, in upstream order, and
the detail where upstream pins it.

CRDs are internal-shaped dicts built from a valid minimal CRD by :func:`make`.
"""

from __future__ import annotations

import copy
from typing import Any, Callable

import pytest

from crdtool.core.crd.schema_validation import StructuralError, new_structural
from crdtool.core.crd.validation import (
    go_url_parse,
    record_warnings,
    validate_crd_create,
    validate_custom_resource_definition,
    validate_custom_resource_selectable_fields,
    warnings_on_create,
)
from crdtool.core.errors import Path
from crdtool.core.releases import RELEASES

REQ = "FieldValueRequired"
INV = "FieldValueInvalid"
FORB = "FieldValueForbidden"
NSUP = "FieldValueNotSupported"
DUP = "FieldValueDuplicate"
TOO_MANY = "FieldValueTooMany"
INTERNAL = "InternalError"

DNS1123_SUBDOMAIN_MSG = (
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', "
    "and must start and end with an alphanumeric character (e.g. 'example.com', "
    "regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
)
DNS1035_MSG = (
    "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an "
    "alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', "
    "regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')"
)
URL_FORM = "; desired format: https://host[/path]"
NOT_SELECTABLE = (
    "must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed."
)

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "spec": {
            "type": "object",
            "properties": {
                "name": {"type": "string"},
                "replicas": {"type": "integer"},
                "enabled": {"type": "boolean"},
                "ratio": {"type": "number"},
                "obj": {"type": "object", "properties": {"x": {"type": "string"}}},
                "labels": {"type": "object", "additionalProperties": {"type": "string"}},
                "list": {"type": "array", "items": {"type": "string"}},
            },
        },
        "status": {"type": "object", "properties": {"replicas": {"type": "integer"}}},
    },
}
OTHER_SCHEMA: dict[str, Any] = {**copy.deepcopy(SCHEMA), "description": "another version"}
WEBHOOK = {
    "strategy": "Webhook",
    "webhookClientConfig": {"url": "https://example.com/convert"},
    "conversionReviewVersions": ["v1"],
}


def base() -> dict[str, Any]:
    """A valid minimal internal-shaped CRD (as v1 -> internal conversion produces it)."""
    return {
        "metadata": {"name": "widgets.example.com"},
        "spec": {
            "group": "example.com",
            "version": "v1",
            "names": {"plural": "widgets", "singular": "widget", "kind": "Widget", "listKind": "WidgetList"},
            "scope": "Namespaced",
            "versions": [{"name": "v1", "served": True, "storage": True}],
            "validation": {"openAPIV3Schema": copy.deepcopy(SCHEMA)},
            "preserveUnknownFields": False,
            "conversion": {"strategy": "None"},
        },
        "status": {"storedVersions": ["v1"]},
    }


def make(mutate: Callable[[dict[str, Any]], Any] | None = None, *, rename: bool = True) -> dict[str, Any]:
    """A copy of :func:`base` changed by ``mutate``; metadata.name follows plural.group unless ``rename=False``."""
    crd = base()
    if mutate is not None:
        mutate(crd)
    if rename:
        spec = crd["spec"]
        crd["metadata"]["name"] = f"{spec.get('names', {}).get('plural', '')}.{spec.get('group', '')}"
    return crd


def spec_set(**values: Any) -> Callable[[dict[str, Any]], None]:
    def mutate(crd: dict[str, Any]) -> None:
        for key, value in values.items():
            if value is _DROP:
                crd["spec"].pop(key, None)
            else:
                crd["spec"][key] = value

    return mutate


_DROP = object()


def two_versions(v1: dict[str, Any] | None = None, v2: dict[str, Any] | None = None) -> Callable[[dict[str, Any]], None]:
    """versions = [v1 (storage), v2 (served)], each extended with the given fields."""

    def mutate(crd: dict[str, Any]) -> None:
        crd["spec"]["versions"] = [
            {"name": "v1", "served": True, "storage": True, **(v1 or {})},
            {"name": "v2", "served": True, "storage": False, **(v2 or {})},
        ]

    return mutate


def per_version_schemas(crd: dict[str, Any]) -> None:
    """No top-level schema; v1 and v2 carry different schemas."""
    crd["spec"].pop("validation")
    two_versions(
        {"schema": {"openAPIV3Schema": copy.deepcopy(SCHEMA)}},
        {"schema": {"openAPIV3Schema": copy.deepcopy(OTHER_SCHEMA)}},
    )(crd)


def created(crd: dict[str, Any]) -> list[tuple[str, str]]:
    errs, _ = validate_crd_create(crd)
    return [(e.type, e.field) for e in errs]


def created_full(crd: dict[str, Any]) -> list[tuple[str, str, str]]:
    errs, _ = validate_crd_create(crd)
    return [(e.type, e.field, e.detail) for e in errs]


def as_given(crd: dict[str, Any]) -> list[tuple[str, str]]:
    return [(e.type, e.field) for e in validate_custom_resource_definition(crd)]


# ============================================================================
# A valid minimal CRD
# ============================================================================


def test_valid_minimal_crd_has_no_errors_and_no_warnings() -> None:
    assert validate_custom_resource_definition(base()) == []
    assert validate_crd_create(base()) == ([], [])


@pytest.mark.parametrize(
    "mutate",
    [
        per_version_schemas,
        spec_set(scope="Cluster"),
        spec_set(conversion=WEBHOOK),
        spec_set(conversion={"strategy": "None"}),
        spec_set(subresources={"status": {}, "scale": {"specReplicasPath": ".spec.replicas", "statusReplicasPath": ".status.replicas", "labelSelectorPath": ".status.selector"}}),
        spec_set(additionalPrinterColumns=[{"name": "Name", "type": "string", "JSONPath": ".spec.name", "format": "password"}]),
        spec_set(selectableFields=[{"jsonPath": ".spec.name"}, {"jsonPath": ".spec.replicas"}, {"jsonPath": ".spec.enabled"}, {"jsonPath": ".spec.labels.foo"}]),
        spec_set(names={"plural": "widgets", "singular": "widget", "kind": "Widget", "listKind": "WidgetList", "shortNames": ["wd"], "categories": ["all"]}),
    ],
    ids=["per-version-schemas", "cluster", "webhook", "none", "subresources", "columns", "selectable", "short-names"],
)
def test_valid_variants(mutate: Callable[[dict[str, Any]], None]) -> None:
    assert created(make(mutate)) == []


# ============================================================================
# metadata.name, group, scope
# ============================================================================


@pytest.mark.parametrize(
    "crd, expected",
    [
        (
            make(lambda c: c["metadata"].update(name="gadgets.example.com"), rename=False),
            [(INV, "metadata.name", 'must be spec.names.plural+"."+spec.group')],
        ),
        (
            make(lambda c: c["metadata"].update(name="Widgets.example.com"), rename=False),
            [
                (INV, "metadata.name", DNS1123_SUBDOMAIN_MSG),
                (INV, "metadata.name", 'must be spec.names.plural+"."+spec.group'),
            ],
        ),
        (
            make(lambda c: c["metadata"].pop("name"), rename=False),
            [(REQ, "metadata.name", "name or generateName is required")],
        ),
        (make(spec_set(group="")), [(INV, "metadata.name", DNS1123_SUBDOMAIN_MSG), (REQ, "spec.group", "")]),
        (
            make(spec_set(group="Example.com")),
            [(INV, "metadata.name", DNS1123_SUBDOMAIN_MSG), (INV, "spec.group", DNS1123_SUBDOMAIN_MSG)],
        ),
        (make(spec_set(group="example")), [(INV, "spec.group", "should be a domain with at least one dot")]),
        (make(spec_set(scope="")), [(REQ, "spec.scope", "")]),
        (make(spec_set(scope="Foo")), [(NSUP, "spec.scope", 'supported values: "Cluster", "Namespaced"')]),
    ],
    ids=["name-mismatch", "name-not-dns", "name-missing", "group-empty", "group-uppercase", "group-no-dot",
         "scope-empty", "scope-unknown"],
)
def test_name_group_scope(crd: dict[str, Any], expected: list[tuple[str, str, str]]) -> None:
    assert created_full(crd) == expected


def test_generate_name_is_turned_into_a_name_that_cannot_match() -> None:
    crd = make(lambda c: c["metadata"].update(name="", generateName="widgets-"), rename=False)
    errs, warnings = validate_crd_create(crd)
    assert [(e.type, e.field, e.detail) for e in errs] == [
        (INV, "metadata.generateName", 'must be spec.names.plural+"."+spec.group'),
        (INV, "metadata.name", 'must be spec.names.plural+"."+spec.group'),
    ]
    assert errs[1].bad_value.startswith("widgets-") and len(errs[1].bad_value) == len("widgets-") + 5
    assert warnings == []


def test_namespace_of_a_crd_is_cleared_on_create_but_forbidden_as_given() -> None:
    crd = make(lambda c: c["metadata"].update(namespace="default"))
    assert created(crd) == []
    assert as_given(crd) == [(FORB, "metadata.namespace")]


# ============================================================================
# versions, storage, version vs versions[0], schemas required
# ============================================================================


@pytest.mark.parametrize(
    "mutate, expected",
    [
        (
            two_versions(v2={"storage": True}),
            [
                (INV, "spec.versions", "must have exactly one version marked as storage version"),
                (INV, "status.storedVersions", "must have the storage version v2"),
            ],
        ),
        (
            spec_set(versions=[{"name": "v1", "served": True, "storage": False}]),
            [
                (INV, "spec.versions", "must have exactly one version marked as storage version"),
                (INV, "status.storedVersions", "must have at least one stored version"),
            ],
        ),
        (
            spec_set(versions=[]),
            [
                (INV, "spec.versions", "must have exactly one version marked as storage version"),
                (INV, "status.storedVersions", "must have at least one stored version"),
            ],
        ),
        (
            spec_set(versions=[{"name": "v1", "served": True, "storage": True}, {"name": "v1", "served": True}]),
            [(INV, "spec.versions", "must contain unique version names")],
        ),
        (
            spec_set(version="V1", versions=[{"name": "V1", "served": True, "storage": True}]),
            [(INV, "spec.versions[0].name", DNS1035_MSG), (INV, "spec.version", DNS1035_MSG)],
        ),
        (spec_set(version="v2"), [(INV, "spec.version", "must match the first version in spec.versions")]),
        (spec_set(version=_DROP), []),
        (
            spec_set(validation=_DROP),
            [(REQ, "spec.versions[0].schema.openAPIV3Schema", "")],
        ),
        (
            spec_set(validation={}),
            [(REQ, "spec.versions[0].schema.openAPIV3Schema", "")],
        ),
    ],
    ids=["two-storage", "no-storage", "no-versions", "duplicate-names", "bad-name", "version-mismatch",
         "no-version", "no-schema", "empty-validation"],
)
def test_versions(mutate: Callable[[dict[str, Any]], None], expected: list[tuple[str, str, str]]) -> None:
    assert created_full(make(mutate)) == expected


def test_every_version_without_schema_is_reported() -> None:
    def mutate(crd: dict[str, Any]) -> None:
        crd["spec"].pop("validation")
        two_versions(v2={"schema": {}})(crd)

    assert created(make(mutate)) == [
        (REQ, "spec.versions[0].schema.openAPIV3Schema"),
        (REQ, "spec.versions[1].schema.openAPIV3Schema"),
    ]


# ============================================================================
# top-level vs per-version exclusivity and identical per-version values
# ============================================================================

COLUMN = {"name": "Name", "type": "string", "JSONPath": ".spec.name"}


@pytest.mark.parametrize(
    "mutate, expected",
    [
        (
            two_versions({"schema": {"openAPIV3Schema": copy.deepcopy(SCHEMA)}}),
            [(FORB, "spec.validation", "top-level and per-version schemas are mutually exclusive")],
        ),
        (
            lambda c: (
                c["spec"].update(subresources={"status": {}}),
                two_versions({"subresources": {"status": {}}})(c),
            ),
            [(FORB, "spec.subresources", "top-level and per-version subresources are mutually exclusive")],
        ),
        (
            lambda c: (
                c["spec"].update(additionalPrinterColumns=[COLUMN]),
                two_versions({"additionalPrinterColumns": [COLUMN]})(c),
            ),
            [
                (
                    FORB,
                    "spec.additionalPrinterColumns",
                    "top-level and per-version additionalPrinterColumns are mutually exclusive",
                )
            ],
        ),
        # an empty top-level column list does not clash with per-version columns
        (
            lambda c: (
                c["spec"].update(additionalPrinterColumns=[]),
                two_versions({"additionalPrinterColumns": [COLUMN]})(c),
            ),
            [],
        ),
    ],
    ids=["schema", "subresources", "columns", "empty-top-level-columns"],
)
def test_top_level_and_per_version_are_exclusive(
    mutate: Callable[[dict[str, Any]], Any], expected: list[tuple[str, str, str]]
) -> None:
    assert created_full(make(mutate)) == expected


def _identical(extra_v1: dict[str, Any], extra_v2: dict[str, Any]) -> Callable[[dict[str, Any]], None]:
    def mutate(crd: dict[str, Any]) -> None:
        crd["spec"].pop("validation")
        two_versions(
            {"schema": {"openAPIV3Schema": copy.deepcopy(SCHEMA)}, **extra_v1},
            {"schema": {"openAPIV3Schema": copy.deepcopy(OTHER_SCHEMA)}, **extra_v2},
        )(crd)

    return mutate


IDENTICAL_SCHEMAS = (
    INV,
    "spec.versions",
    "per-version schemas may not all be set to identical values (top-level validation should be used instead)",
)
IDENTICAL_SUBRESOURCES = (
    INV,
    "spec.versions",
    "per-version subresources may not all be set to identical values (top-level subresources should be used instead)",
)
IDENTICAL_COLUMNS = (
    INV,
    "spec.versions",
    "per-version additionalPrinterColumns may not all be set to identical values "
    "(top-level additionalPrinterColumns should be used instead)",
)


def _same_schema(schema_v2: dict[str, Any]) -> Callable[[dict[str, Any]], None]:
    def mutate(crd: dict[str, Any]) -> None:
        crd["spec"].pop("validation")
        two_versions(
            {"schema": {"openAPIV3Schema": copy.deepcopy(SCHEMA)}},
            {"schema": {"openAPIV3Schema": schema_v2}},
        )(crd)

    return mutate


@pytest.mark.parametrize(
    "mutate, expected",
    [
        (
            lambda c: (
                c["spec"].pop("validation"),
                two_versions(
                    {"schema": {"openAPIV3Schema": copy.deepcopy(SCHEMA)}, "subresources": {"status": {}},
                     "additionalPrinterColumns": [COLUMN]},
                    {"schema": {"openAPIV3Schema": copy.deepcopy(SCHEMA)}, "subresources": {"status": {}},
                     "additionalPrinterColumns": [dict(COLUMN)]},
                )(c),
            ),
            [IDENTICAL_SCHEMAS, IDENTICAL_SUBRESOURCES, IDENTICAL_COLUMNS],
        ),
        # Semantic.DeepEqual: an absent string equals "", an absent priority equals 0
        (_same_schema({**copy.deepcopy(SCHEMA), "description": ""}), [IDENTICAL_SCHEMAS]),
        (
            _identical({"additionalPrinterColumns": [COLUMN]}, {"additionalPrinterColumns": [dict(COLUMN, priority=0)]}),
            [IDENTICAL_COLUMNS],
        ),
        # ... and a nil list equals an empty one
        (_same_schema({**copy.deepcopy(SCHEMA), "required": []}), [IDENTICAL_SCHEMAS]),
        # JSON values keep their Go type: 1 (int64) and 1.0 (float64) differ
        (
            lambda c: (
                c["spec"].pop("validation"),
                two_versions(
                    {"schema": {"openAPIV3Schema": {"type": "object", "properties": {"n": {"type": "number", "default": 1}}}}},
                    {"schema": {"openAPIV3Schema": {"type": "object", "properties": {"n": {"type": "number", "default": 1.0}}}}},
                )(c),
            ),
            [],
        ),
        # a version without the field breaks "all identical"
        (_identical({"subresources": {"status": {}}}, {}), []),
        (_identical({"additionalPrinterColumns": [COLUMN]}, {"additionalPrinterColumns": [dict(COLUMN, priority=1)]}), []),
        # a single version with its own schema is "all identical" upstream
        (
            lambda c: (
                c["spec"].pop("validation"),
                c["spec"]["versions"][0].update(schema={"openAPIV3Schema": copy.deepcopy(SCHEMA)}),
            ),
            [IDENTICAL_SCHEMAS],
        ),
    ],
    ids=["all-three", "empty-description", "zero-priority", "empty-required", "int-vs-float-default",
         "one-missing", "different-priority", "single-version"],
)
def test_identical_per_version_values(
    mutate: Callable[[dict[str, Any]], Any], expected: list[tuple[str, str, str]]
) -> None:
    assert created_full(make(mutate)) == expected


# ============================================================================
# conversion and webhook client config
# ============================================================================


def webhook(**config: Any) -> Callable[[dict[str, Any]], None]:
    return spec_set(conversion={"strategy": "Webhook", "webhookClientConfig": config, "conversionReviewVersions": ["v1"]})


SERVICE = {"name": "svc", "namespace": "ns", "port": 443}


@pytest.mark.parametrize(
    "mutate, expected",
    [
        (spec_set(conversion={}), [(REQ, "spec.conversion.strategy", "")]),
        (
            spec_set(conversion={"strategy": "Foo"}),
            [(NSUP, "spec.conversion.strategy", 'supported values: "None", "Webhook"')],
        ),
        (
            spec_set(conversion={"strategy": "Webhook"}),
            [
                (REQ, "spec.conversion.webhookClientConfig", "required when strategy is set to Webhook"),
                (REQ, "spec.conversion.conversionReviewVersions", ""),
            ],
        ),
        (
            webhook(url="https://example.com/convert", service=SERVICE),
            [(REQ, "spec.conversion.webhookClientConfig", "exactly one of url or service is required")],
        ),
        (webhook(), [(REQ, "spec.conversion.webhookClientConfig", "exactly one of url or service is required")]),
        (
            webhook(url="http://example.com/convert"),
            [(INV, "spec.conversion.webhookClientConfig.url", "'https' is the only allowed URL scheme" + URL_FORM)],
        ),
        (
            webhook(url="https://user:pw@example.com/convert?x=y#frag"),
            [
                (INV, "spec.conversion.webhookClientConfig.url", "user information is not permitted in the URL"),
                (INV, "spec.conversion.webhookClientConfig.url", "fragments are not permitted in the URL"),
                (INV, "spec.conversion.webhookClientConfig.url", "query parameters are not permitted in the URL"),
            ],
        ),
        (
            webhook(url=""),
            [
                (INV, "spec.conversion.webhookClientConfig.url", "'https' is the only allowed URL scheme" + URL_FORM),
                (INV, "spec.conversion.webhookClientConfig.url", "host must be specified" + URL_FORM),
            ],
        ),
        (
            webhook(url="https:///convert"),
            [(INV, "spec.conversion.webhookClientConfig.url", "host must be specified" + URL_FORM)],
        ),
        (
            webhook(url="https://exa mple.com"),
            [
                (
                    REQ,
                    "spec.conversion.webhookClientConfig.url",
                    'url must be a valid URL: parse "https://exa mple.com": invalid character " " in host name'
                    + URL_FORM,
                )
            ],
        ),
        (
            webhook(url="https://example.com:port/"),
            [
                (
                    REQ,
                    "spec.conversion.webhookClientConfig.url",
                    'url must be a valid URL: parse "https://example.com:port/": invalid port ":port" after host'
                    + URL_FORM,
                )
            ],
        ),
        (
            webhook(service={"port": 0}),
            [
                (REQ, "spec.conversion.webhookClientConfig.service.name", ""),
                (REQ, "spec.conversion.webhookClientConfig.service.namespace", ""),
                (
                    INV,
                    "spec.conversion.webhookClientConfig.service.port",
                    "port is not valid: must be between 1 and 65535, inclusive",
                ),
            ],
        ),
        (
            webhook(service=dict(SERVICE, port=65536)),
            [
                (
                    INV,
                    "spec.conversion.webhookClientConfig.service.port",
                    "port is not valid: must be between 1 and 65535, inclusive",
                )
            ],
        ),
        (webhook(service=dict(SERVICE, path="/convert/")), []),
        (webhook(service=dict(SERVICE, path="")), []),
        (
            webhook(service=dict(SERVICE, path="convert")),
            [(INV, "spec.conversion.webhookClientConfig.service.path", "must start with a '/'")],
        ),
        (
            webhook(service=dict(SERVICE, path="//")),
            [(INV, "spec.conversion.webhookClientConfig.service.path", "segment[0] may not be empty")],
        ),
        (
            webhook(service=dict(SERVICE, path="/a//b")),
            [(INV, "spec.conversion.webhookClientConfig.service.path", "segment[1] may not be empty")],
        ),
        (
            webhook(service=dict(SERVICE, path="/Convert")),
            [(INV, "spec.conversion.webhookClientConfig.service.path", "segment[0]: " + DNS1123_SUBDOMAIN_MSG)],
        ),
        (
            spec_set(conversion={"strategy": "None", "webhookClientConfig": {"url": "https://example.com"}}),
            [(FORB, "spec.conversion.webhookClientConfig", "should not be set when strategy is not set to Webhook")],
        ),
        (
            spec_set(conversion={"strategy": "None", "conversionReviewVersions": ["v1"]}),
            [(FORB, "spec.conversion.conversionReviewVersions", "should not be set when strategy is not set to Webhook")],
        ),
        (
            spec_set(conversion=dict(WEBHOOK, conversionReviewVersions=["v1", "v1"])),
            [(INV, "spec.conversion.conversionReviewVersions[1]", "duplicate version")],
        ),
        (
            spec_set(conversion=dict(WEBHOOK, conversionReviewVersions=["v2"])),
            [(INV, "spec.conversion.conversionReviewVersions", "must include at least one of v1, v1beta1")],
        ),
        (
            spec_set(conversion=dict(WEBHOOK, conversionReviewVersions=["0v"])),
            [
                (INV, "spec.conversion.conversionReviewVersions[0]", DNS1035_MSG),
                (INV, "spec.conversion.conversionReviewVersions", "must include at least one of v1, v1beta1"),
            ],
        ),
        (spec_set(conversion=dict(WEBHOOK, conversionReviewVersions=["v2", "v1beta1"])), []),
        (
            spec_set(conversion=WEBHOOK, preserveUnknownFields=_DROP),
            [(INV, "spec.conversion.strategy", "must be None if spec.preserveUnknownFields is true")],
        ),
        (
            spec_set(conversion=WEBHOOK, preserveUnknownFields=True),
            [
                (INV, "spec.conversion.strategy", "must be None if spec.preserveUnknownFields is true"),
                (
                    INV,
                    "spec.preserveUnknownFields",
                    "cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead",
                ),
            ],
        ),
    ],
    ids=["no-strategy", "bad-strategy", "webhook-no-config", "url-and-service", "neither", "http", "user-query-fragment",
         "empty-url", "no-host", "space-in-host", "bad-port", "service-empty", "service-port-high", "path-trailing-slash",
         "path-empty", "path-relative", "path-double-slash", "path-empty-segment", "path-uppercase",
         "none-with-config", "none-with-review-versions", "duplicate-review-version", "unknown-review-version",
         "invalid-review-version", "one-known-review-version", "webhook-nil-puf", "webhook-puf-true"],
)
def test_conversion(mutate: Callable[[dict[str, Any]], None], expected: list[tuple[str, str, str]]) -> None:
    assert created_full(make(mutate)) == expected


def test_webhook_url_bad_values() -> None:
    errs, _ = validate_crd_create(make(webhook(url="HTTP://u:p@example.com/x?q=1#f")))
    assert [e.bad_value for e in errs] == ["http", "u:p", "f", "q=1"]


@pytest.mark.parametrize(
    "url, error",
    [
        ("https://example.com/x", ""),
        ("%zz", 'parse "%zz": invalid URL escape "%zz"'),
        (":foo", 'parse ":foo": missing protocol scheme'),
        ("a:b/c", ""),  # scheme "a", opaque
        ("ab/c:d", ""),
        ("c:d/e", ""),
        ("/x:y", ""),
        ("x:y", ""),
        ("xy:/", ""),
        ("https://[::1", "parse \"https://[::1\": missing ']' in host"),
        ("https://h\x7f", 'parse "https://h\\x7f": net/url: invalid control character in URL'),
        ("https://%41/", 'parse "https://%41/": invalid URL escape "%41"'),
        ("https://a b@h/", 'parse "https://a b@h/": net/url: invalid userinfo'),
        ("https://h/#%zz", 'parse "https://h/#%zz": invalid URL escape "%zz"'),
    ],
)
def test_go_url_parse_errors(url: str, error: str) -> None:
    parsed, err = go_url_parse(url)
    assert err == error
    assert (parsed is None) == bool(error)


def test_go_url_parse_relative_colon() -> None:
    parsed, err = go_url_parse("1:x")
    assert parsed is None and err == 'parse "1:x": first path segment in URL cannot contain colon'


# ============================================================================
# preserveUnknownFields and defaults
# ============================================================================

DEFAULTED_SCHEMA = {"type": "object", "properties": {"n": {"type": "integer", "default": 1}}}
PUF_TRUE_MSG = "cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead"
PUF_DEFAULTS_MSG = "must be false in order to use defaults in the schema"


@pytest.mark.parametrize(
    "mutate, expected",
    [
        (spec_set(preserveUnknownFields=True), [(INV, "spec.preserveUnknownFields", PUF_TRUE_MSG)]),
        (spec_set(preserveUnknownFields=_DROP), []),
        (
            spec_set(preserveUnknownFields=True, validation={"openAPIV3Schema": DEFAULTED_SCHEMA}),
            [(INV, "spec.preserveUnknownFields", PUF_DEFAULTS_MSG), (INV, "spec.preserveUnknownFields", PUF_TRUE_MSG)],
        ),
        (
            spec_set(preserveUnknownFields=_DROP, validation={"openAPIV3Schema": DEFAULTED_SCHEMA}),
            [(INV, "spec.preserveUnknownFields", PUF_DEFAULTS_MSG)],
        ),
        (spec_set(validation={"openAPIV3Schema": DEFAULTED_SCHEMA}), []),
        # a JSON null default is no default
        (
            spec_set(preserveUnknownFields=_DROP, validation={"openAPIV3Schema": {"type": "object", "default": None}}),
            [],
        ),
    ],
    ids=["true", "absent", "true-with-defaults", "absent-with-defaults", "false-with-defaults", "null-default"],
)
def test_preserve_unknown_fields(mutate: Callable[[dict[str, Any]], None], expected: list[tuple[str, str, str]]) -> None:
    assert created_full(make(mutate)) == expected


def test_preserve_unknown_fields_bad_value_is_true() -> None:
    errs, _ = validate_crd_create(make(spec_set(preserveUnknownFields=True)))
    assert errs[0].bad_value is True
    assert str(errs[0]) == "spec.preserveUnknownFields: Invalid value: true: " + PUF_TRUE_MSG


# ============================================================================
# subresources (scale) and printer columns
# ============================================================================


def scale(**paths: Any) -> Callable[[dict[str, Any]], None]:
    base_paths = {"specReplicasPath": ".spec.replicas", "statusReplicasPath": ".status.replicas"}
    return spec_set(subresources={"scale": {**base_paths, **paths}})


@pytest.mark.parametrize(
    "mutate, expected",
    [
        (
            spec_set(subresources={"scale": {}}),
            [
                (REQ, "spec.subresources.scale.specReplicasPath", ""),
                (REQ, "spec.subresources.scale.statusReplicasPath", ""),
            ],
        ),
        (
            scale(specReplicasPath="spec.replicas"),
            [(INV, "spec.subresources.scale.specReplicasPath", "must be a simple json path starting with .")],
        ),
        (
            scale(specReplicasPath=".status.replicas", statusReplicasPath=".spec.replicas"),
            [
                (INV, "spec.subresources.scale.specReplicasPath", "should be a json path under .spec"),
                (INV, "spec.subresources.scale.statusReplicasPath", "should be a json path under .status"),
            ],
        ),
        # ".spec" alone is not *under* .spec
        (scale(specReplicasPath=".spec"), [(INV, "spec.subresources.scale.specReplicasPath", "should be a json path under .spec")]),
        (
            scale(labelSelectorPath=".labels"),
            [(INV, "spec.subresources.scale.labelSelectorPath", "should be a json path under either .spec or .status")],
        ),
        (
            scale(labelSelectorPath="status.selector"),
            [(INV, "spec.subresources.scale.labelSelectorPath", "must be a simple json path starting with .")],
        ),
        (scale(labelSelectorPath=""), []),
        (scale(labelSelectorPath=".spec.selector"), []),
        (
            two_versions(
                {"subresources": {"scale": {"specReplicasPath": ".spec.replicas", "statusReplicasPath": ".status.replicas", "labelSelectorPath": ".x"}}},
                {"subresources": {"status": {}}},
            ),
            [(INV, "spec.versions[0].subresources.scale.labelSelectorPath", "should be a json path under either .spec or .status")],
        ),
    ],
    ids=["empty-scale", "no-dot", "wrong-roots", "bare-spec", "selector-outside", "selector-no-dot", "selector-empty",
         "selector-spec", "per-version"],
)
def test_scale_subresource(mutate: Callable[[dict[str, Any]], None], expected: list[tuple[str, str, str]]) -> None:
    assert created_full(make(mutate)) == expected


TYPES_MSG = "must be one of boolean,date,integer,number,string"
FORMATS_MSG = "must be one of byte,date,date-time,double,float,int32,int64,password"


@pytest.mark.parametrize(
    "column, expected",
    [
        (
            {},
            [
                (REQ, "spec.additionalPrinterColumns[0].name", ""),
                (REQ, "spec.additionalPrinterColumns[0].type", TYPES_MSG),
                (REQ, "spec.additionalPrinterColumns[0].JSONPath", ""),
            ],
        ),
        (dict(COLUMN, type="foo"), [(INV, "spec.additionalPrinterColumns[0].type", TYPES_MSG)]),
        (dict(COLUMN, format="foo"), [(INV, "spec.additionalPrinterColumns[0].format", FORMATS_MSG)]),
        (dict(COLUMN, format="date-time", type="date"), []),
        (
            dict(COLUMN, JSONPath="spec.name"),
            [(INV, "spec.additionalPrinterColumns[0].JSONPath", "must be a simple json path starting with .")],
        ),
        (dict(COLUMN, JSONPath=".spec.list[0]"), []),
    ],
    ids=["empty", "bad-type", "bad-format", "date", "no-dot", "index-allowed"],
)
def test_printer_columns(column: dict[str, Any], expected: list[tuple[str, str, str]]) -> None:
    assert created_full(make(spec_set(additionalPrinterColumns=[column]))) == expected


def test_per_version_printer_columns() -> None:
    crd = make(two_versions({"additionalPrinterColumns": [COLUMN]}, {"additionalPrinterColumns": [dict(COLUMN, type="x")]}))
    assert created(crd) == [(INV, "spec.versions[1].additionalPrinterColumns[0].type")]


# ============================================================================
# selectable fields
# ============================================================================

SCHEMA_WITH_METADATA = {
    **copy.deepcopy(SCHEMA),
    "properties": {
        **copy.deepcopy(SCHEMA["properties"]),
        "metadata": {"type": "object", "properties": {"name": {"type": "string"}}},
    },
}


def selectable(*paths: str, schema: dict[str, Any] | None = None) -> Callable[[dict[str, Any]], None]:
    def mutate(crd: dict[str, Any]) -> None:
        crd["spec"]["selectableFields"] = [{"jsonPath": p} for p in paths]
        if schema is not None:
            crd["spec"]["validation"] = {"openAPIV3Schema": copy.deepcopy(schema)}

    return mutate


def _sel(i: int) -> str:
    return f"spec.selectableFields[{i}].jsonPath"


@pytest.mark.parametrize(
    "mutate, expected",
    [
        (selectable(".spec.missing"), [(INV, _sel(0), "is an invalid path: does not refer to a valid field")]),
        (selectable("spec.name"), [(INV, _sel(0), "is an invalid path: expected [ or . but got: spec")]),
        (selectable(".spec['name']"), [(INV, _sel(0), "is an invalid path: array notation is not allowed")]),
        (selectable("."), [(INV, _sel(0), "is an invalid path: unexpected end of JSON path")]),
        (selectable(".spec.obj"), [(INV, _sel(0), NOT_SELECTABLE)]),
        (selectable(".spec.ratio"), [(INV, _sel(0), NOT_SELECTABLE)]),
        (selectable(".spec.list"), [(INV, _sel(0), NOT_SELECTABLE)]),
        (selectable(".spec.obj.x"), []),
        (selectable(".spec.name.deeper"), [(INV, _sel(0), "is an invalid path: does not refer to a valid field")]),
        (
            selectable(".metadata.name", schema=SCHEMA_WITH_METADATA),
            [(INV, _sel(0), "must not point to fields in metadata")],
        ),
        (selectable(".spec.name", ".spec.name"), [(DUP, _sel(1), "")]),
        (selectable(""), [(REQ, _sel(0), "")]),
        (
            selectable(*[f".spec.labels.k{i}" for i in range(9)]),
            [(TOO_MANY, "spec.selectableFields", "must have at most 8 items")],
        ),
        (selectable(*[f".spec.labels.k{i}" for i in range(8)]), []),
    ],
    ids=["missing", "no-dot", "array-notation", "dot-only", "object", "number", "array", "nested", "below-leaf",
         "metadata", "duplicate", "empty", "too-many", "eight"],
)
def test_selectable_fields(mutate: Callable[[dict[str, Any]], None], expected: list[tuple[str, str, str]]) -> None:
    assert created_full(make(mutate)) == expected


def test_too_many_selectable_fields_counts_unique_paths() -> None:
    errs, _ = validate_crd_create(make(selectable(*[f".spec.labels.k{i}" for i in range(9)], ".spec.labels.k0")))
    assert [(e.type, e.field) for e in errs] == [(DUP, _sel(9)), (TOO_MANY, "spec.selectableFields")]
    assert errs[1].bad_value == 9


def test_selectable_fields_need_a_top_level_schema() -> None:
    def mutate(crd: dict[str, Any]) -> None:
        per_version_schemas(crd)
        crd["spec"]["selectableFields"] = [{"jsonPath": ".spec.name"}]

    assert created_full(make(mutate)) == [
        (INV, "spec.selectableFields", "may only be set when validations.schema is included")
    ]


def test_per_version_selectable_fields() -> None:
    def mutate(crd: dict[str, Any]) -> None:
        per_version_schemas(crd)
        crd["spec"]["versions"][0]["selectableFields"] = [{"jsonPath": ".spec.name"}, {"jsonPath": ".spec.nope"}]
        crd["spec"]["versions"][1]["selectableFields"] = [{"jsonPath": ".spec.obj"}]

    assert created(make(mutate)) == [
        (INV, "spec.versions[0].selectableFields[1].jsonPath"),
        (INV, "spec.versions[1].selectableFields[0].jsonPath"),
    ]


def test_per_version_selectable_fields_need_a_version_schema() -> None:
    crd = make(lambda c: c["spec"]["versions"][0].update(selectableFields=[{"jsonPath": ".spec.name"}]))
    assert created_full(crd) == [
        (
            INV,
            "spec.versions[0].selectableFields",
            "may only be set when `version.schema.openAPIV3Schema` is not included",
        )
    ]


def test_selectable_fields_without_a_structural_schema() -> None:
    # Upstream dereferences the nil structural schema (the request fails with a 500);
    # a path that never touches the schema still gets its ordinary error.
    errs = validate_custom_resource_selectable_fields(
        [{"jsonPath": "x"}, {"jsonPath": ".spec.name"}, {"jsonPath": ".other"}], None, Path("spec", "selectableFields")
    )
    assert [(e.type, e.field) for e in errs] == [
        (INV, "spec.selectableFields[0].jsonPath"),
        (INTERNAL, "spec.selectableFields[1].jsonPath"),
    ]


def test_unstructural_schema_error_is_reported_at_schema_path() -> None:
    from crdtool.core.crd.validation import _new_structural_or_error

    bad = {"type": "object", "properties": {"a": {"type": "array", "items": [{"type": "string"}]}}}
    with pytest.raises(StructuralError) as exc:
        new_structural(bad)
    schema, err = _new_structural_or_error(bad, Path("spec", "versions").index(0).child("schema.openAPIV3Schema"))
    assert schema is None and err is not None
    assert (err.type, err.field, err.detail, err.bad_value) == (
        INV,
        "spec.versions[0].schema.openAPIV3Schema",
        str(exc.value),
        "",
    )


def test_selectable_map_keys_use_key_notation() -> None:
    errs, _ = validate_crd_create(make(selectable(".spec.labels.a", ".spec.labels.a")))
    assert [(e.type, e.field, e.bad_value) for e in errs] == [(DUP, _sel(1), ".spec.labels.a")]


# ============================================================================
# deprecation warnings of versions
# ============================================================================


def deprecated(flag: bool, warning: Any = _DROP) -> Callable[[dict[str, Any]], None]:
    def mutate(crd: dict[str, Any]) -> None:
        version = crd["spec"]["versions"][0]
        version["deprecated"] = flag
        if warning is not _DROP:
            version["deprecationWarning"] = warning

    return mutate


DW = "spec.versions[0].deprecationWarning"


@pytest.mark.parametrize(
    "mutate, expected",
    [
        (deprecated(True), []),
        (deprecated(True, "v1 is going away"), []),
        (deprecated(False, "v1 is going away"), [(INV, DW, "can only be set for deprecated versions")]),
        (deprecated(False, ""), [(INV, DW, "can only be set for deprecated versions")]),
        (deprecated(True, ""), [(INV, DW, "must not be an empty string")]),
        (deprecated(True, "x" * 256), []),
        (deprecated(True, "x" * 257), [(INV, DW, "must be <= 256 characters long")]),
        (deprecated(True, "é" * 129), [(INV, DW, "must be <= 256 characters long")]),  # 258 bytes
        (
            deprecated(True, "bad\x07"),
            [(INV, DW, "must only contain printable UTF-8 characters; non-printable character found at index 3")],
        ),
        (
            deprecated(True, "é\n"),  # the index is a byte offset
            [(INV, DW, "must only contain printable UTF-8 characters; non-printable character found at index 2")],
        ),
        (
            deprecated(True, "a\u00a0b"),  # no-break space is not printable in Go
            [(INV, DW, "must only contain printable UTF-8 characters; non-printable character found at index 1")],
        ),
    ],
    ids=["deprecated", "with-warning", "not-deprecated", "not-deprecated-empty", "empty", "256", "257", "258-bytes",
         "bell", "newline-after-multibyte", "nbsp"],
)
def test_deprecation_warning(mutate: Callable[[dict[str, Any]], None], expected: list[tuple[str, str, str]]) -> None:
    assert created_full(make(mutate)) == expected


# ============================================================================
# names
# ============================================================================


def names(**values: Any) -> Callable[[dict[str, Any]], None]:
    def mutate(crd: dict[str, Any]) -> None:
        for key, value in values.items():
            if value is _DROP:
                crd["spec"]["names"].pop(key, None)
            else:
                crd["spec"]["names"][key] = value

    return mutate


@pytest.mark.parametrize(
    "mutate, expected",
    [
        (names(plural="Widgets"), [(INV, "metadata.name", DNS1123_SUBDOMAIN_MSG), (INV, "spec.names.plural", DNS1035_MSG)]),
        (names(singular=_DROP), [(REQ, "spec.names.singular", "")]),
        (names(kind=_DROP), [(REQ, "spec.names.kind", "")]),
        (names(listKind=_DROP), [(REQ, "spec.names.listKind", "")]),
        (names(singular="1widget"), [(INV, "spec.names.singular", DNS1035_MSG)]),
        (
            names(kind="1Widget"),
            [(INV, "spec.names.kind", "may have mixed case, but should otherwise match: " + DNS1035_MSG)],
        ),
        (
            names(listKind="Widget_List"),
            [(INV, "spec.names.listKind", "may have mixed case, but should otherwise match: " + DNS1035_MSG)],
        ),
        (names(listKind="Widget"), [(INV, "spec.names.listKind", "kind and listKind may not be the same")]),
        (names(kind="WIDGET", listKind="WIDGETLIST"), []),
        (names(shortNames=["wd", "Bad"]), [(INV, "spec.names.shortNames[1]", DNS1035_MSG)]),
        (names(shortNames=[""]), [(INV, "spec.names.shortNames[0]", DNS1035_MSG)]),
        (names(categories=["all", "1x"]), [(INV, "spec.names.categories[1]", DNS1035_MSG)]),
    ],
    ids=["plural", "no-singular", "no-kind", "no-list-kind", "singular", "kind", "list-kind", "same-kinds",
         "upper-kinds", "short-names", "empty-short-name", "categories"],
)
def test_names(mutate: Callable[[dict[str, Any]], None], expected: list[tuple[str, str, str]]) -> None:
    assert created_full(make(mutate)) == expected


# ============================================================================
# status and stored versions (as given, without the strategy)
# ============================================================================


@pytest.mark.parametrize(
    "status, expected",
    [
        ({}, [(INV, "status.storedVersions", "must have at least one stored version")]),
        (
            {"storedVersions": ["v0", "v1"]},
            [
                (
                    INV,
                    "status.storedVersions[0]",
                    "missing from spec.versions; v0 was previously a storage version, and must remain in "
                    "spec.versions until a storage migration ensures no data remains persisted in v0 and removes "
                    "v0 from status.storedVersions",
                )
            ],
        ),
        ({"storedVersions": ["v1", "v1"]}, []),
        (
            {"storedVersions": ["v1"], "acceptedNames": {"plural": "Bad", "kind": "K", "listKind": "K"}},
            [
                (INV, "status.acceptedNames.plural", DNS1035_MSG),
                (INV, "status.acceptedNames.listKind", "kind and listKind may not be the same"),
            ],
        ),
    ],
    ids=["none", "leftover", "repeated", "accepted-names"],
)
def test_status_as_given(status: dict[str, Any], expected: list[tuple[str, str, str]]) -> None:
    crd = make(lambda c: c.update(status=status))
    assert [(e.type, e.field, e.detail) for e in validate_custom_resource_definition(crd)] == expected


def test_leftover_stored_versions_are_listed_by_index() -> None:
    crd = make(lambda c: c.update(status={"storedVersions": ["v9", "v1", "v8"]}))
    assert as_given(crd) == [(INV, "status.storedVersions[0]"), (INV, "status.storedVersions[2]")]


def test_create_resets_the_status() -> None:
    crd = make(lambda c: c.update(status={"storedVersions": ["x"], "acceptedNames": {"plural": "Bad"}}))
    assert created(crd) == []


# ============================================================================
# API approval for *.k8s.io and *.kubernetes.io
# ============================================================================

APPROVAL = "metadata.annotations[api-approved.kubernetes.io]"
MISSING_MSG = (
    'protected groups must have approval annotation "api-approved.kubernetes.io", '
    "see https://github.com/kubernetes/enhancements/pull/1111"
)
INVALID_MSG = (
    'protected groups must have approval annotation "api-approved.kubernetes.io" with either a URL or a reason '
    'starting with "unapproved", see https://github.com/kubernetes/enhancements/pull/1111'
)


def approval(group: str, annotation: str | None = None) -> Callable[[dict[str, Any]], None]:
    def mutate(crd: dict[str, Any]) -> None:
        crd["spec"]["group"] = group
        if annotation is not None:
            crd["metadata"]["annotations"] = {"api-approved.kubernetes.io": annotation}

    return mutate


@pytest.mark.parametrize(
    "mutate, expected",
    [
        (approval("widgets.k8s.io"), [(REQ, APPROVAL, MISSING_MSG)]),
        (approval("k8s.io"), [(REQ, APPROVAL, MISSING_MSG)]),
        (approval("x.kubernetes.io"), [(REQ, APPROVAL, MISSING_MSG)]),
        (approval("k8s.io.example.com"), []),
        (approval("notk8s.io"), []),
        (approval("x.k8s.io", "https://github.com/kubernetes/kubernetes/pull/78458"), []),
        (approval("x.k8s.io", "unapproved, experimental-only"), []),
        (approval("x.k8s.io", "yes"), [(INV, APPROVAL, INVALID_MSG)]),
        (approval("x.k8s.io", "github.com/kubernetes/kubernetes/pull/1"), [(INV, APPROVAL, INVALID_MSG)]),
        (approval("x.k8s.io", "https:/no-host"), [(INV, APPROVAL, INVALID_MSG)]),
        (approval("x.k8s.io", ""), [(REQ, APPROVAL, MISSING_MSG)]),
    ],
    ids=["missing", "k8s.io", "kubernetes.io", "lookalike", "suffix-only", "url", "unapproved", "word",
         "no-scheme", "no-host", "empty"],
)
def test_api_approval(mutate: Callable[[dict[str, Any]], None], expected: list[tuple[str, str, str]]) -> None:
    assert created_full(make(mutate)) == expected


def test_api_approval_bad_value_is_the_annotation() -> None:
    errs, _ = validate_crd_create(make(approval("x.k8s.io", "yes")))
    assert errs[0].bad_value == "yes"


# ============================================================================
# create strategy, warnings, order, immutability
# ============================================================================


def test_create_does_not_mutate_its_input() -> None:
    crd = make(lambda c: (c["metadata"].update(namespace="ns", generateName="x-"), c.update(status={"storedVersions": ["x"]})))
    snapshot = copy.deepcopy(crd)
    validate_crd_create(crd)
    validate_custom_resource_definition(crd)
    assert crd == snapshot


def test_warnings_for_unrecognized_string_formats() -> None:
    schema = {
        "type": "object",
        "properties": {
            "a": {"type": "string", "format": "foo"},
            "b": {"type": "string", "format": "int32"},
            "c": {"type": "integer", "format": "int32"},
            "d": {"type": "number", "format": "double"},
            "e": {"type": "string", "format": "date-time"},
            "f": {"type": "string", "format": "k8s-short-name"},
            "g": {"type": "string", "format": "foo"},
            "h": {"type": "boolean", "format": "foo"},
            "j": {"type": "array", "items": {"type": "string", "format": "bar"}},
            "k": {"type": "string", "format": "datetime"},
        },
    }
    crd = make(spec_set(validation={"openAPIV3Schema": schema}))
    # 1.34.1 … 1.35 (formats.go@v0.35.7 GetUnrecognizedFormats): only type: string nodes are judged
    r135 = RELEASES[35]
    assert validate_crd_create(crd, r135) == ([], ['unrecognized format "foo"', 'unrecognized format "int32"', 'unrecognized format "bar"'])
    # warnings_on_create itself keeps duplicates; the recorder drops them
    assert warnings_on_create(crd, r135).count('unrecognized format "foo"') == 2
    # from 1.36 (formats.go@v0.36.0) per type: the boolean's "foo" warns too; integer int32, number double do not
    for release in (RELEASES[36], RELEASES[37]):
        assert validate_crd_create(crd, release) == (
            [], ['unrecognized format "foo"', 'unrecognized format "int32"', 'unrecognized format "bar"'])
        assert warnings_on_create(crd, release).count('unrecognized format "foo"') == 3


def test_warnings_cover_per_version_schemas_in_order() -> None:
    def mutate(crd: dict[str, Any]) -> None:
        crd["spec"].pop("validation")
        two_versions(
            {"schema": {"openAPIV3Schema": {"type": "object", "properties": {"a": {"type": "string", "format": "one"}}}}},
            {"schema": {"openAPIV3Schema": {"type": "object", "properties": {"a": {"type": "string", "format": "two"}}}}},
        )(crd)

    assert validate_crd_create(make(mutate))[1] == ['unrecognized format "one"', 'unrecognized format "two"']


def test_no_warnings_when_the_create_fails() -> None:
    schema = {"type": "object", "properties": {"a": {"type": "string", "format": "foo"}}}
    errs, warnings = validate_crd_create(make(spec_set(validation={"openAPIV3Schema": schema}, scope="")))
    assert [(e.type, e.field) for e in errs] == [(REQ, "spec.scope")]
    assert warnings == []


def test_warning_recorder_truncates_past_4096_runes() -> None:
    assert record_warnings(["a", "", "a", "b"]) == ["a", "b"]
    long = [str(i) * 1000 for i in range(1, 6)]
    out = record_warnings(long)
    assert out == [w[:256] for w in long]
    # once truncating, later warnings are cut too, until the budget is used up again
    more = record_warnings(long + ["x" * 1000])
    assert more == [w[:256] for w in long] + ["x" * 256]


def test_error_order_follows_upstream() -> None:
    def mutate(crd: dict[str, Any]) -> None:
        spec = crd["spec"]
        spec["group"] = "example"
        spec["scope"] = "Foo"
        spec["versions"] = [{"name": "v1", "served": True, "storage": True, "deprecationWarning": "w"}]
        spec["version"] = "v2"
        spec["names"]["kind"] = "Widget!"
        spec["subresources"] = {"scale": {}}
        spec["additionalPrinterColumns"] = [{"name": "n", "type": "string"}]
        spec["conversion"] = {"strategy": "None", "conversionReviewVersions": ["v1"]}
        spec["preserveUnknownFields"] = True
        crd["metadata"]["labels"] = {"bad key": "x"}

    assert created(make(mutate)) == [
        (INV, "metadata.labels"),
        (INV, "spec.group"),
        (NSUP, "spec.scope"),
        (INV, "spec.versions[0].deprecationWarning"),
        (INV, "spec.version"),
        (INV, "spec.names.kind"),
        (REQ, "spec.subresources.scale.specReplicasPath"),
        (REQ, "spec.subresources.scale.statusReplicasPath"),
        (REQ, "spec.additionalPrinterColumns[0].JSONPath"),
        (FORB, "spec.conversion.conversionReviewVersions"),
        (INV, "spec.preserveUnknownFields"),
    ]


def test_hostile_deep_schema_does_not_raise() -> None:
    schema: dict[str, Any] = {"type": "string", "format": "deep"}
    for _ in range(5000):
        schema = {"type": "object", "properties": {"x": schema}}
    crd = make(spec_set(validation={"openAPIV3Schema": schema}))
    warnings = warnings_on_create(crd)
    assert warnings == ['unrecognized format "deep"']
