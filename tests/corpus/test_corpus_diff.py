"""``crdtool diff`` on the corpus's real release pairs: the key findings, each checked by reading both CRDs.

For every finding pinned here, the two manifests were read side by side (the values quoted in the
comments are theirs): gateway-api v1.0.0 -> v1.6.1 (gateways, httproutes), cert-manager v1.0.0 ->
v1.21.1 (certificates), KEDA v1.5.0 -> v2.20.2 (scaledobjects: a new API group) and Traefik
v2.0.0 -> v2.10.0 (v1beta1 CRDs without a schema -> v1 with one). Also: updating any corpus CRD that
the apiserver accepts to itself is accepted (``check_crd_update``), and reports no change.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from crdtool import check_crd_update, compare_crds
from crdtool.core.crd.compare import match_crds

CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus" / "crds"
EXPECTED: dict[str, dict[str, Any]] = json.loads((Path(__file__).parent / "expected_crd_verdicts.json").read_text())


def crds(name: str) -> list[dict[str, Any]]:
    docs = yaml.load_all((CORPUS / name).read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
    return [d for d in docs if isinstance(d, dict) and d.get("kind") == "CustomResourceDefinition"]


def one(name: str) -> dict[str, Any]:
    (doc,) = crds(name)
    return doc


def found(changes: list[Any]) -> set[tuple[str, str, str, str]]:
    return {(c.version, c.path, c.kind, c.severity) for c in changes}


def test_gateway_api_gateways_v1_0_0_to_v1_6_1() -> None:
    old, new = one("v1/gateway-api__v1.0.0__standard__gateways.yaml"), one("v1/gateway-api__v1.6.1__standard__gateways.yaml")
    verdict = check_crd_update(new, old)
    # v1.0.0 stores v1beta1, v1.6.1 stores v1: the update is accepted and v1 joins status.storedVersions
    assert verdict.accepted and verdict.stored_versions == ("v1beta1", "v1")
    changes = compare_crds(old, new)
    got = found(changes)
    assert ("v1", "spec.versions[v1].storage", "storage-version-changed", "warning") in got
    for version in ("v1", "v1beta1"):
        # new listener rules: "tls mode must be set for protocol TLS", "... Terminate for protocol HTTPS"
        assert (version, ".spec.listeners", "cel-rule-added", "breaking") in got
        # the old `self.all(l, l.protocol in ['HTTPS', 'TLS'] ? has(l.tls) : true)` is gone
        assert (version, ".spec.listeners", "cel-rule-removed", "info") in got
        # addresses[*].value: `required: [value]` and `minLength: 1` dropped in v1.6.1
        assert (version, ".spec.addresses[*].value", "required-removed", "info") in got
        assert (version, ".spec.addresses[*].value", "min-length-removed", "info") in got
        assert (version, ".spec.infrastructure", "field-added", "info") in got
    assert not any(c.severity == "error" for c in changes)


def test_gateway_api_httproutes_v1_0_0_to_v1_6_1() -> None:
    old, new = one("v1/gateway-api__v1.0.0__standard__httproutes.yaml"), one("v1/gateway-api__v1.6.1__standard__httproutes.yaml")
    assert check_crd_update(new, old).accepted
    got = found(compare_crds(old, new))
    # spec.rules: v1.0.0 {maxItems: 16}, v1.6.1 {maxItems: 16, minItems: 1, x-kubernetes-list-type: atomic}
    assert ("v1", ".spec.rules", "min-items-added", "breaking") in got
    assert not any(kind == "list-type-changed" and path == ".spec.rules" for _, path, kind, _ in got)  # atomic is the default
    # status.parents[*].required: [controllerName, parentRef] -> [conditions, controllerName, parentRef]
    assert ("v1", ".status.parents[*].conditions", "required-added", "breaking") in got
    # "CORS filter cannot be repeated"
    assert ("v1", ".spec.rules[*].filters", "cel-rule-added", "breaking") in got


def test_cert_manager_certificates_v1_0_0_to_v1_21_1() -> None:
    old = one("v1/cert-manager__v1.0.0__crd-certificates.yaml")
    new = one("v1/cert-manager__v1.21.1__cert-manager.io_certificates.yaml")
    # v1.0.0 serves v1alpha2, v1alpha3, v1beta1 and stores v1; v1.21.1 has v1 only
    assert check_crd_update(new, old).accepted
    changes = compare_crds(old, new)
    got = found(changes)
    for version in ("v1alpha2", "v1alpha3", "v1beta1"):
        assert (version, f"spec.versions[{version}]", "version-removed", "breaking") in got
    # a cluster installed before v1.0.0 stored v1alpha2: then the apiserver refuses the update
    refused = check_crd_update(new, old, stored_versions=["v1alpha2", "v1"])
    assert not refused.accepted
    assert [(f.error.type, f.error.field) for f in refused.findings] == [("FieldValueInvalid", "status.storedVersions[0]")]
    assert ("v1alpha2", "spec.versions[v1alpha2]", "stored-version-removed", "error") in found(
        compare_crds(old, new, stored_versions=["v1alpha2", "v1"])
    )
    # privateKey.rotationPolicy: {type: string} -> enum [Never, Always]
    assert ("v1", ".spec.privateKey.rotationPolicy", "enum-added", "breaking") in got
    # privateKey.size: {minimum: 0, maximum: 8192} -> no bounds
    assert ("v1", ".spec.privateKey.size", "maximum-removed", "info") in got
    # status.conditions became x-kubernetes-list-type: map with keys [type]
    assert ("v1", ".status.conditions", "list-type-changed", "breaking") in got
    # root `required: [spec]` dropped; spec.keystores.jks.required [create, passwordSecretRef] -> [create]
    assert ("v1", ".spec", "required-removed", "info") in got
    assert ("v1", ".spec.keystores.jks.passwordSecretRef", "required-removed", "info") in got
    # one version left: Webhook -> None needs no conversion
    assert ("", "spec.conversion.strategy", "conversion-strategy-changed", "info") in got


def test_keda_scaledobjects_v1_5_0_to_v2_20_2() -> None:
    old = one("v1beta1/keda__v1.5.0__keda.k8s.io_scaledobjects_crd.yaml")
    new = one("v1/keda__v2.20.2__keda.sh_scaledobjects.yaml")
    # keda.k8s.io -> keda.sh: another CRD; updating the old one in place is refused
    verdict = check_crd_update(new, old)
    assert not verdict.accepted
    fields = [(f.error.field, f.error.detail) for f in verdict.findings]
    assert ("spec.group", "field is immutable") in fields and ("metadata.name", "field is immutable") in fields
    changes = compare_crds(old, new)
    got = found(changes)
    assert ("", "metadata.name", "crd-renamed", "error") in got and ("", "spec.group", "group-changed", "error") in got
    # v1beta1 without preserveUnknownFields defaults it to true; the v1 CRD prunes
    assert ("", "spec.preserveUnknownFields", "pruning-enabled", "breaking") in got
    # spec.required [triggers] -> [scaleTargetRef, triggers]; scaleTargetRef.required [deploymentName] -> [name]
    assert ("v1alpha1", ".spec.scaleTargetRef", "required-added", "breaking") in got
    assert ("v1alpha1", ".spec.scaleTargetRef.name", "required-added", "breaking") in got
    assert ("v1alpha1", ".spec.scaleTargetRef.deploymentName", "field-removed", "breaking") in got
    assert ("v1alpha1", ".spec.jobTargetRef", "field-removed", "breaking") in got
    assert ("v1alpha1", ".spec.scaleType", "field-removed", "breaking") in got
    # pollingInterval {type: integer, format: int32} -> minimum: 1; triggers minItems: 1; triggers[*].type minLength: 1
    assert ("v1alpha1", ".spec.pollingInterval", "minimum-added", "breaking") in got
    assert ("v1alpha1", ".spec.triggers", "min-items-added", "breaking") in got
    assert ("v1alpha1", ".spec.triggers[*].type", "min-length-added", "breaking") in got
    # a rule on spec: minReplicaCount <= maxReplicaCount
    assert ("v1alpha1", ".spec", "cel-rule-added", "breaking") in got


def test_traefik_v2_0_0_to_v2_10_0() -> None:
    olds = crds("v1beta1/traefik__v2.0.0__kubernetes-crd.yaml")
    news = crds("v1/traefik__v2.10.0__kubernetes-crd-definition-v1.yaml")
    pairs, only_old, only_new = match_crds(olds, news)
    # the four traefik.containo.us CRDs of v2.0.0 are still in v2.10.0, beside the new traefik.io group
    assert [olds[i]["metadata"]["name"] for i, _ in pairs] == [
        "ingressroutes.traefik.containo.us",
        "middlewares.traefik.containo.us",
        "tlsoptions.traefik.containo.us",
        "ingressroutetcps.traefik.containo.us",
    ]
    assert only_old == [] and len(only_new) == 14
    for i, j in pairs:
        # spec.version only and no schema (so preserveUnknownFields defaults to true) -> a v1 schema
        assert check_crd_update(news[j], olds[i]).accepted
        assert found(compare_crds(olds[i], news[j])) == {
            ("", "spec.preserveUnknownFields", "pruning-enabled", "breaking"),
            ("v1alpha1", ".", "schema-added", "breaking"),
        }


def valid_corpus_crds() -> list[Any]:
    out = []
    for key, verdict in sorted(EXPECTED.items()):
        if verdict.get("status") != "valid":
            continue
        path, index = key.rsplit("#", 1)
        out.append(pytest.param(path, int(index), verdict.get("name"), id=key))
    return out


@pytest.mark.parametrize("path,index,name", valid_corpus_crds())
def test_updating_a_valid_corpus_crd_to_itself_is_accepted(path: str, index: int, name: str) -> None:
    docs = list(yaml.load_all((CORPUS.parent / path).read_text(encoding="utf-8"), Loader=yaml.CSafeLoader))
    doc = [d for d in docs if d is not None][index]
    assert doc["metadata"]["name"] == name
    verdict = check_crd_update(doc, doc)
    assert verdict.accepted, [str(f.error) for f in verdict.findings]
    assert compare_crds(doc, doc) == []
