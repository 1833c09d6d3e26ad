"""Every CRD document of ../shared/corpus/crds gets the verdict today's apiserver gives.

`expected_crd_verdicts.json` pins, per document (`<path>#<index>`), the status, the number of
errors and each distinct (type, detail) pair. Each kind of error was checked against the upstream
rule that produces it (apiextensions-apiserver v0.36 `pkg/apis/apiextensions/validation/validation.go`,
`pkg/apiserver/schema/validation.go`, `pkg/registry/customresourcedefinition/strategy.go`, apimachinery
`ObjectMeta` validation, sigs.k8s.io/json strict decoding); `UPSTREAM_REASONS` below names that rule for
every kind, and a test fails if an error appears that no upstream rule explains. Why documents fail:

- most v1beta1 CRDs: v1beta1 defaults `preserveUnknownFields` to true, which `validatePreserveUnknownFields`
  rejects today; many also have no schema (`...schema.openAPIV3Schema: Required value`) or non-structural schemas (missing
  `type`, value validations inside anyOf/oneOf with `description`/`type`, ...);
- `cert-manager__v1.0.0__crd-certificates*.yaml`: Helm placeholders (`{{ .Release.Name }}`) in labels (two labels
  with the same placeholder: one error from 1.37, `ValidateObjectMetaDeclaratively`'s `ToAggregate`; checked to be
  the 1.36 count less the repeated message);
- `argo-workflows__*__full__*`: `type: array` whose `items` has no `items` (not structural);
- `sample-controller__*`, `keda__v1.5.0`: groups under `*.k8s.io` need the `api-approved.kubernetes.io` annotation;
- `calico__v3.14.0__upgrade-v2.5__crds.yaml`: an unknown top-level `description` field (strict decoding);
- `kubebuilder__v2.3.1__patches__webhook_in_captains.yaml`: a kustomize patch, not a whole CRD;
- `apiextensions-apiserver__*testdata-HEAD*`: round-trip fixtures whose every field holds a placeholder.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml

from crdtool import check_crd_manifest
from crdtool.core.crd.manifest import is_crd

CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus"
EXPECTED: dict[str, dict[str, Any]] = json.loads((Path(__file__).parent / "expected_crd_verdicts.json").read_text())

# detail pattern -> the upstream rule that produces it.
UPSTREAM_REASONS: list[tuple[str, str]] = [
    (r"^cannot set to true, set x-kubernetes-preserve-unknown-fields", "validation.go validatePreserveUnknownFields"),
    (r"^must be empty to be structural$", "schema/validation.go validateNestedValueValidation"),
    (r"^must not be empty for specified (object fields|array items)$", "schema/validation.go validateStructuralInvariants"),
    (r"^must not be empty at the root$", "schema/validation.go validateStructuralInvariants"),
    (r"^must be specified$", "schema/validation.go validateStructuralInvariants (type: array needs items)"),
    (r"^this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property$", "validation.go validateMapListKeysMapSet"),
    (r"^a valid label must be an empty string", "apimachinery meta/v1/validation ValidateLabels (IsValidLabelValue)"),
    (r"^protected groups must have approval annotation", "validation.go validateAPIApproval"),
    (r"^unknown field ", "sigs.k8s.io/json strict decoding (server-side field validation Strict)"),
    (r"^$", "field.Required / field.Invalid without detail (validateCustomResourceDefinitionSpec, ValidateObjectMeta)"),
    (r"^a DNS-1035 label must consist of", "util/validation IsDNS1035Label (versions, names)"),
    (r"^a lowercase RFC 1123 (subdomain|label) must consist of", "util/validation IsDNS1123Subdomain / Label"),
    (r"^must be spec\.names\.plural\+\"\.\"\+spec\.group$", "validation.go ValidateCustomResourceDefinition nameValidationFn"),
    (r"^must be a simple json path starting with \.$", "validation.go validateSimpleJSONPath"),
    (r"^should not be set when strategy is not set to Webhook$", "validation.go validateCustomResourceConversion"),
    (r"^only \[Description Type Format", "validation.go validateCustomResourceDefinitionValidation (status root)"),
    (r"^nullable cannot be true at the root$", "validation.go validateCustomResourceDefinitionValidation"),
    (r"^supported values: ", "field.NotSupported (type, scope, strategy, list/map type, reason)"),
    (r" is not supported$", "validation.go specStandardValidatorV3.validate / NewStructural"),
    (r"^items must be a schema object and not an array$", "validation.go specStandardValidatorV3.validate"),
    (r"^uniqueItems cannot be set to true", "validation.go ValidateCustomResourceDefinitionOpenAPISchema"),
    (r"^must be (object|array|map) if x-kubernetes-", "validation.go ValidateCustomResourceDefinitionOpenAPISchema"),
    (r"^must be one of ", "validation.go ValidateCustomResourceColumnDefinition"),
    (r"^is an invalid path: ", "validation.go ValidateCustomResourceSelectableFields"),
    (r"^must be None if spec\.preserveUnknownFields is true$", "validation.go validateCustomResourceDefinitionSpec"),
    # (the operation's "must be `Apply` or `Update`" until 1.36; 1.37, the default, says "supported values: ...")
    (r"^must be `(Apply` or `Update|FieldsV1)`$", "apimachinery ValidateManagedFields"),
    (r"^must be false in order to use defaults in the schema$", "validation.go validateCustomResourceDefinitionSpec"),
    (r"^must match the first version in spec\.versions$", "validation.go validateCustomResourceDefinitionSpec"),
    (r"^top-level and per-version .* are mutually exclusive$", "validation.go validateCustomResourceDefinitionSpec"),
    (r"^per-version .* may not all be set to identical values", "validation.go validateCustomResourceDefinitionSpec"),
    (r"^must have exactly one version marked as storage version$", "validation.go validateCustomResourceDefinitionSpec"),
    (r"^must have at least one stored version$", "validation.go ValidateCustomResourceDefinitionStoredVersions"),
]


def _explained(detail: str) -> bool:
    return any(re.search(pattern, detail) for pattern, _ in UPSTREAM_REASONS)


def _corpus_documents() -> dict[str, Any]:
    docs: dict[str, Any] = {}
    for path in sorted((CORPUS / "crds").rglob("*.yaml")):
        rel = path.relative_to(CORPUS).as_posix()
        with path.open("rb") as fh:
            for index, doc in enumerate(d for d in yaml.load_all(fh, Loader=yaml.CSafeLoader) if d is not None):
                docs[f"{rel}#{index}"] = doc
    return docs


@pytest.fixture(scope="module")
def corpus_documents() -> dict[str, Any]:
    if not CORPUS.is_dir():  # pragma: no cover - CI always has ../shared beside the repo
        pytest.fail(f"corpus not found at {CORPUS}")
    return _corpus_documents()


def test_every_corpus_document_is_pinned(corpus_documents: dict[str, Any]) -> None:
    assert set(corpus_documents) == set(EXPECTED)
    counts = Counter(v["status"] for v in EXPECTED.values())
    # 215 CRDs and 3 other documents (a Namespace and two Traefik custom resources).
    assert counts == {"valid": 128, "invalid": 87, "skipped": 3}


def test_every_error_kind_has_an_upstream_reason() -> None:
    unexplained = {
        (kind, detail)
        for entry in EXPECTED.values()
        for kind, detail in entry.get("kinds", [])
        if not _explained(detail.splitlines()[0] if detail else detail)
    }
    assert not unexplained


def test_verdicts(corpus_documents: dict[str, Any]) -> None:
    mismatches = []
    for key, doc in corpus_documents.items():
        expected = EXPECTED[key]
        if not is_crd(doc):
            assert expected["status"] == "skipped", key
            continue
        verdict = check_crd_manifest(doc)
        got: dict[str, Any] = {
            "status": "valid" if verdict.valid else "invalid",
            "errors": len(verdict.findings),
            "kinds": sorted({(f.error.type, f.error.detail) for f in verdict.findings}),
        }
        want = {
            "status": expected["status"],
            "errors": expected["errors"],
            "kinds": sorted(tuple(k) for k in expected.get("kinds", [])),
        }
        if got != want:
            mismatches.append((key, want, got))
    assert not mismatches, mismatches[:3]


def test_v1beta1_documents_warn_that_v1beta1_is_no_longer_served(corpus_documents: dict[str, Any]) -> None:
    doc = corpus_documents["crds/v1beta1/velero__v1.3.0__velero.io_backups.yaml#0"]
    verdict = check_crd_manifest(doc)
    assert verdict.valid
    assert any("unavailable in v1.22+" in w for w in verdict.warnings)
