"""``crdtool.validate_crd``: upstream ``ValidateCustomResourceDefinition`` on the object as given.

Cases transcribed from apiextensions-apiserver v0.36.3
``pkg/apis/apiextensions/validation/validation_test.go`` ``TestValidateCustomResourceDefinition``
(internal-shaped CRDs, ``status`` included, as upstream passes them). Upstream's test
matches (type, field) as a set; here each error's type, field and detail are asserted, the
detail being the string of the upstream source line that produces it
(``validation.go`` and apimachinery ``util/validation``), in upstream order.
"""

from __future__ import annotations

from typing import Any

import pytest

import crdtool

REQ = "FieldValueRequired"
INV = "FieldValueInvalid"
NSUP = "FieldValueNotSupported"

DNS1035 = (
    "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an "
    "alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', "
    "regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')"
)
DNS1123_SUBDOMAIN = (
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', "
    "and must start and end with an alphanumeric character (e.g. 'example.com', "
    "regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
)
MIXED = "may have mixed case, but should otherwise match: " + DNS1035
NAME_MISMATCH = 'must be spec.names.plural+"."+spec.group'  # validation.go nameValidationFn
ONE_STORAGE = "must have exactly one version marked as storage version"  # validation.go:446
NO_STORED = "must have at least one stored version"  # validation.go:263
SAME_KINDS = "kind and listKind may not be the same"  # validation.go:808

SINGLE_VERSION = [{"name": "version", "served": True, "storage": True}]
NAMES = {"plural": "plural", "singular": "singular", "kind": "Plural", "listKind": "PluralList"}
OBJECT_SCHEMA = {"openAPIV3Schema": {"type": "object"}}


def errors(crd: dict[str, Any]) -> list[tuple[str, str, str]]:
    return [(e.type, e.field, e.detail) for e in crdtool.validate_crd(crd)]


def test_multiple_storage_version() -> None:
    crd = {
        "metadata": {"name": "plural.group.com"},
        "spec": {
            "group": "group.com", "scope": "Cluster", "names": NAMES,
            "versions": [{"name": "version", "served": True, "storage": True},
                         {"name": "version2", "served": True, "storage": True}],
            "conversion": {"strategy": "None"}, "preserveUnknownFields": False, "validation": OBJECT_SCHEMA,
        },
        "status": {"storedVersions": ["version"]},
    }
    assert errors(crd) == [
        (INV, "spec.versions", ONE_STORAGE),
        (INV, "status.storedVersions", "must have the storage version version2"),  # validation.go:273
    ]


def test_missing_storage_version_in_stored_versions() -> None:
    crd = {
        "metadata": {"name": "plural.group.com"},
        "spec": {
            "group": "group.com", "scope": "Cluster", "names": NAMES,
            "versions": [{"name": "version", "served": True, "storage": False},
                         {"name": "version2", "served": True, "storage": True}],
            "conversion": {"strategy": "None"}, "preserveUnknownFields": False, "validation": OBJECT_SCHEMA,
        },
        "status": {"storedVersions": ["version"]},
    }
    assert errors(crd) == [(INV, "status.storedVersions", "must have the storage version version2")]


def test_empty_stored_version() -> None:
    crd = {
        "metadata": {"name": "plural.group.com"},
        "spec": {
            "group": "group.com", "scope": "Cluster", "names": NAMES, "versions": SINGLE_VERSION,
            "conversion": {"strategy": "None"}, "preserveUnknownFields": False, "validation": OBJECT_SCHEMA,
        },
        "status": {"storedVersions": []},
    }
    assert errors(crd) == [(INV, "status.storedVersions", NO_STORED)]
    assert str(crdtool.validate_crd(crd)[0]) == "status.storedVersions: Invalid value: []: must have at least one stored version"


def test_status_is_validated_as_given_not_prepared_for_create() -> None:
    # the same CRD through the create path: PrepareForCreate fills storedVersions, so it is valid
    manifest = {
        "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "plural.group.com"},
        "spec": {"group": "group.com", "scope": "Cluster", "names": NAMES,
                 "versions": [dict(SINGLE_VERSION[0], schema=OBJECT_SCHEMA)]},
    }
    assert crdtool.check_crd_manifest(manifest).valid
    assert errors(manifest) == [(INV, "status.storedVersions", NO_STORED)]


def test_missing_values() -> None:
    assert errors({"metadata": {"name": "plural.group.com"}}) == [
        (INV, "metadata.name", NAME_MISMATCH),
        (REQ, "spec.group", ""),
        (REQ, "spec.scope", ""),
        (INV, "spec.versions", ONE_STORAGE),
        (REQ, "spec.names.plural", ""),
        (REQ, "spec.names.singular", ""),
        (REQ, "spec.names.kind", ""),
        (REQ, "spec.names.listKind", ""),
        (INV, "status.storedVersions", NO_STORED),
    ]


def test_bad_names_01() -> None:
    bad = {"plural": "pl()*ural", "singular": "value()*a", "kind": "value()*a", "listKind": "value()*a"}
    crd = {
        "metadata": {"name": "plural.group"},
        "spec": {"group": "group", "version": "ve()*rsion", "scope": "foo", "names": bad,
                 "preserveUnknownFields": False, "validation": OBJECT_SCHEMA},
        "status": {"acceptedNames": bad},
    }
    assert errors(crd) == [
        (INV, "metadata.name", NAME_MISMATCH),
        (INV, "spec.group", "should be a domain with at least one dot"),
        (NSUP, "spec.scope", 'supported values: "Cluster", "Namespaced"'),
        (INV, "spec.versions", ONE_STORAGE),
        (INV, "spec.version", DNS1035),
        (INV, "spec.names.plural", DNS1035),
        (INV, "spec.names.singular", DNS1035),
        (INV, "spec.names.kind", MIXED),
        (INV, "spec.names.listKind", MIXED),
        (INV, "spec.names.listKind", SAME_KINDS),
        (INV, "status.acceptedNames.plural", DNS1035),
        (INV, "status.acceptedNames.singular", DNS1035),
        (INV, "status.acceptedNames.kind", MIXED),
        (INV, "status.acceptedNames.listKind", MIXED),
        (INV, "status.acceptedNames.listKind", SAME_KINDS),
        (INV, "status.storedVersions", NO_STORED),
    ]


def test_bad_names_02() -> None:
    matching = {"plural": "plural", "singular": "singular", "kind": "matching", "listKind": "matching"}
    crd = {
        "metadata": {"name": "plural.group"},
        "spec": {"group": "group.c(*&om", "version": "version", "versions": SINGLE_VERSION,
                 "conversion": {"strategy": "None"}, "names": matching,
                 "preserveUnknownFields": False, "validation": OBJECT_SCHEMA},
        "status": {"acceptedNames": matching, "storedVersions": ["version"]},
    }
    assert errors(crd) == [
        (INV, "metadata.name", NAME_MISMATCH),
        (INV, "spec.group", DNS1123_SUBDOMAIN),
        (REQ, "spec.scope", ""),
        (INV, "spec.names.listKind", SAME_KINDS),
        (INV, "status.acceptedNames.listKind", SAME_KINDS),
    ]


def _valid_crd(**spec: Any) -> dict[str, Any]:
    base = {"group": "group.com", "version": "version", "versions": SINGLE_VERSION, "scope": "Namespaced",
            "names": NAMES, "preserveUnknownFields": False, "conversion": {"strategy": "None"}}
    base.update(spec)
    return {"metadata": {"name": "plural.group.com"}, "spec": base, "status": {"storedVersions": ["version"]}}


ROOT = "spec.validation.openAPIV3Schema.x-kubernetes-validations"


def test_x_kubernetes_validations_fieldpath_for_array() -> None:
    # "x-kubernetes-validations should have valid fieldPath for array"; details: validation.go:1251-1258
    rules = [
        {"rule": "true", "fieldPath": ".foo['b.c']['c\\a']"},
        {"rule": "true", "fieldPath": "['a.c']"},
        {"rule": "true", "fieldPath": ".a.c"},
        {"rule": "true", "fieldPath": ".list[0]"},
        {"rule": "true", "fieldPath": "   "},
        {"rule": "true", "fieldPath": "."},
        {"rule": "true", "fieldPath": ".."},
    ]
    schema = {
        "type": "object", "x-kubernetes-validations": rules,
        "properties": {
            "a.c": {"type": "number"},
            "foo": {"type": "object", "properties": {
                "b.c": {"type": "object", "properties": {"c\a": {"type": "number"}}}}},
            "list": {"type": "array", "items": {"type": "object", "properties": {"a": {"type": "number"}}}},
        },
    }
    got = errors(_valid_crd(validation={"openAPIV3Schema": schema}))
    assert got == [
        (INV, f"{ROOT}[2].fieldPath", "must be a valid path"),
        (INV, f"{ROOT}[3].fieldPath", "must be a valid path"),
        (INV, f"{ROOT}[4].fieldPath", "must be non-empty if specified"),
        (INV, f"{ROOT}[4].fieldPath", "must be a valid path"),
        (INV, f"{ROOT}[5].fieldPath", "must be a valid path"),
        (INV, f"{ROOT}[6].fieldPath", "must be a valid path"),
    ]


def test_x_kubernetes_validations_invalid_fieldpath() -> None:
    # "x-kubernetes-validations have invalid fieldPath"
    paths = [".list[0].b", ".list[0.b", ".list0].b", ".a.c", ".a.b.d"]
    schema = {
        "type": "object",
        "x-kubernetes-validations": [{"rule": "self.a.b.c > 0.0", "fieldPath": p} for p in paths],
        "properties": {
            "a": {"type": "object", "properties": {"b": {"type": "object", "properties": {"c": {"type": "number"}}}}},
            "list": {"type": "array", "items": {"type": "object", "properties": {"a": {"type": "number"}}}},
        },
    }
    got = errors(_valid_crd(validation={"openAPIV3Schema": schema}))
    assert got == [(INV, f"{ROOT}[{i}].fieldPath", "must be a valid path") for i in range(5)]


@pytest.mark.parametrize(
    "rule, expected",
    [
        # validation.go:1237, 1239, 1241, 1244, 1254: the details have no field-name prefix
        ({"rule": "true", "message": "  "}, [(INV, f"{ROOT}[0].message", "must be non-empty if specified")]),
        ({"rule": "true", "message": "a\nb"}, [(INV, f"{ROOT}[0].message", "must not contain line breaks")]),
        ({"rule": "true ||\nfalse"}, [(REQ, f"{ROOT}[0].message", "message must be specified if rule contains line breaks")]),
        ({"rule": "true", "messageExpression": " "},
         [(REQ, f"{ROOT}[0].messageExpression", "messageExpression must be non-empty if specified")]),
        ({"rule": "true", "fieldPath": ".a\n"},
         [(INV, f"{ROOT}[0].fieldPath", "must not contain line breaks"), (INV, f"{ROOT}[0].fieldPath", "must be a valid path")]),
        ({"rule": " "}, [(REQ, f"{ROOT}[0].rule", "rule is not specified")]),
    ],
    ids=["message-blank", "message-newline", "rule-newline", "message-expression-blank", "fieldpath-newline", "no-rule"],
)
def test_x_kubernetes_validations_rule_fields(rule: dict[str, Any], expected: list[tuple[str, str, str]]) -> None:
    schema = {"type": "object", "x-kubernetes-validations": [rule], "properties": {"a": {"type": "string"}}}
    assert errors(_valid_crd(validation={"openAPIV3Schema": schema})) == expected


SERVICE = "spec.conversion.webhookClientConfig.service"


@pytest.mark.parametrize(
    "service, expected",
    [
        # validateCustomResourceConversion passes (Service.Name, Service.Namespace) to
        # ValidateWebhookService(fldPath, namespace, name, ...): the paths come out swapped.
        ({"namespace": "ns", "port": 443}, [(REQ, f"{SERVICE}.namespace", "")]),
        ({"name": "svc", "port": 443}, [(REQ, f"{SERVICE}.name", "")]),
        ({"port": 443}, [(REQ, f"{SERVICE}.name", ""), (REQ, f"{SERVICE}.namespace", "")]),
        ({"name": "svc", "namespace": "ns", "port": 443}, []),
    ],
    ids=["no-name", "no-namespace", "neither", "both"],
)
def test_webhook_service_reference_paths_are_swapped_as_upstream(
    service: dict[str, Any], expected: list[tuple[str, str, str]]
) -> None:
    conversion = {"strategy": "Webhook", "webhookClientConfig": {"service": service},
                  "conversionReviewVersions": ["v1"]}
    crd = _valid_crd(conversion=conversion, validation=OBJECT_SCHEMA)
    assert errors(crd) == expected


def test_webhook_url_without_host() -> None:
    # k8s.io/apiserver pkg/util/webhook/validation.go ValidateWebhookURL
    conversion = {"strategy": "Webhook", "webhookClientConfig": {"url": "https:///convert"},
                  "conversionReviewVersions": ["v1"]}
    assert errors(_valid_crd(conversion=conversion, validation=OBJECT_SCHEMA)) == [
        (INV, "spec.conversion.webhookClientConfig.url", "host must be specified; desired format: https://host[/path]")
    ]


def test_schema_required_for_every_version() -> None:
    # validation.go:376 field.Required(...openAPIV3Schema, "")
    crd = _valid_crd(versions=[{"name": "version", "served": True, "storage": True}, {"name": "v2", "served": True}])
    assert errors(crd) == [
        (REQ, "spec.versions[0].schema.openAPIV3Schema", ""),
        (REQ, "spec.versions[1].schema.openAPIV3Schema", ""),
    ]


def test_selectable_fields_without_schema() -> None:
    # validation.go:310 and :483
    crd = _valid_crd(
        validation=OBJECT_SCHEMA,
        selectableFields=[{"jsonPath": ".spec.x"}],
    )
    crd["spec"].pop("validation")
    top = [(e.type, e.field, e.detail) for e in crdtool.validate_crd(crd) if "selectableFields" in e.field]
    assert top == [(INV, "spec.selectableFields", "may only be set when validations.schema is included")]
    crd = _valid_crd(versions=[{"name": "version", "served": True, "storage": True,
                                "selectableFields": [{"jsonPath": ".spec.x"}]}])
    per_version = [(e.type, e.field, e.detail) for e in crdtool.validate_crd(crd) if "selectableFields" in e.field]
    assert per_version == [
        (INV, "spec.versions[0].selectableFields", "may only be set when `version.schema.openAPIV3Schema` is not included")
    ]
