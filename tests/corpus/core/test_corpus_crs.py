"""Every custom resource of ../shared/corpus/crs gets the verdict today's apiserver gives on create.

Each CR is checked against the CRD of its own project and release (or the nearest one the corpus
has), with `crdtool.validate_object`: the create path of apiextensions-apiserver v0.36 (decode with
pruning under server-side field validation `Strict`, defaulting, `customResourceStrategy.Validate`).
`CASES` states, for every CR, the expected verdict and the upstream reason for each rejection.

Summary: 75 objects (the 50 files of crs/, List items and documents counted one by one, plus the two
custom resources Traefik ships inside its v2.0.0 CRD file), each against the CRD of its own release:
68 accepted, 7 rejected:

- the five Gateway API `INVALID` examples (the project's own negative tests, `hack/invalid-examples`):
  duplicate list-map keys (`listtype.ValidateListSetsAndMaps`) and CEL rules
  (`x-kubernetes-validations`) of the v1.0.0 CRDs;
- `gateway-api__v1.6.1__v1alpha2__tls-route.yaml`: v1alpha2 is `served: false` in the v1.6.1 CRD, so
  the apiserver has no endpoint for it (404; kubectl: `no matches for kind`);
- KEDA v1.5.0's sample: `spec:` with only a comment is `null`, and its v1beta1 CRD defaults
  `preserveUnknownFields` to true, so nulls are not pruned and `type: object` rejects it.

Ten more rows (`primary=False`) cross-check objects against another release's CRD: Traefik v2.2.0's
samples against the v2.10.0 CRD (the only structural Traefik schema in the corpus: 3 rejected for
fields that release dropped and route `kind`s it requires), the Gateway API CORS example against the
v1.0.0 HTTPRoute CRD (rejected: no CORS filter yet; CEL skipped after a blocking error), and the
sample-controller Foo against its 1.18 validation CRD.

Rows whose rejection comes from a CEL rule need `crdtool.core.crdcel.validation`; until it exists
they are strict xfails (and every other row is checked without CEL, with a warning).
"""

from __future__ import annotations

import functools
import importlib.util
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml

from crdtool.core.customresource import (
    CustomResourceError,
    PreparedCrd,
    apply_create,
    prepare_crd,
)

CORPUS = Path(__file__).resolve().parents[3].parent / "shared" / "corpus"
PRIMARY_VALID = 68
PRIMARY_REJECTED = 7
HAS_CEL = importlib.util.find_spec("crdtool.core.crdcel.validation") is not None

GATEWAY_PATH_CHARS = (
    "must only contain valid characters (matching ^(?:[-A-Za-z0-9/._~!$&'()*+,;=:@]|[%][0-9a-fA-F]{2})+$) "
    "for types ['Exact', 'PathPrefix']"
)


@dataclass(frozen=True)
class Case:
    """One custom resource and the verdict upstream gives it.

    ``cr``/``crd`` are corpus paths; ``doc`` the document index in ``cr`` (empty documents do not
    count), ``item`` the index in a ``v1`` List (None otherwise). The CRD used is the document of
    ``crd`` that defines the object's group and kind. ``verdict``: ``valid``, ``invalid`` (``errors``
    lists every error as (type, field, detail)), or ``no-endpoint`` (the version is not served).
    """

    cr: str
    doc: int
    crd: str
    verdict: str
    reason: str
    item: int | None = None
    errors: tuple[tuple[str, str, str], ...] = ()
    needs_cel: bool = False
    primary: bool = True  # False: a cross-check against another release's or channel's CRD

    @property
    def id(self) -> str:
        name = Path(self.cr).stem
        suffix = f"#{self.doc}" + (f".items[{self.item}]" if self.item is not None else "")
        return f"{name}{suffix}@{Path(self.crd).stem.split('__')[1]}"


V1 = "crds/v1/"
V1B1 = "crds/v1beta1/"
OWN_RELEASE = "a real sample of the project, accepted by the CRD of its release"

CASES: list[Case] = [
    Case("crs/apiextensions-apiserver__kubernetes-1.13.0__noxu.yaml", 0,
         V1B1 + "apiextensions-apiserver__kubernetes-1.13.0__noxu-resource-definition.yaml", "valid",
         "no schema and v1beta1 preserveUnknownFields: true: nothing is pruned or checked beyond metadata "
         "(the CRD itself is refused today: every version needs a schema)"),
    Case("crs/argo-workflows__v4.1.2__dag-diamond.yaml", 0,
         V1 + "argo-workflows__v4.1.2__minimal__argoproj.io_workflows.yaml", "valid",
         "the minimal Workflow CRD preserves unknown fields under spec; generateName gives the name"),
    Case("crs/argo-workflows__v4.1.2__hello-world.yaml", 0,
         V1 + "argo-workflows__v4.1.2__minimal__argoproj.io_workflows.yaml", "valid", OWN_RELEASE),
    *[
        Case(f"crs/cert-manager__v1.0.0__{name}.yaml", 0, V1 + "cert-manager__v1.0.0__crd-certificates.yaml",
             "valid", "conversion fixture, valid at its own version of the v1.0.0 CRD (whose Helm-templated "
             "labels make the CRD itself invalid)")
        for name in (
            "convert-input__resource_with_organization_v1alpha2",
            "convert-output__resource_with_organization_v1",
            "convert-output__resource_with_organization_v1alpha3",
            "convert-output__resource_with_organization_v1beta1",
        )
    ],
    *[
        Case(f"crs/cert-manager__v1.0.0__{name}.yaml", 0, V1 + "cert-manager__v1.0.0__crd-certificates.yaml",
             "valid", "Certificate in a v1 List: each item is created on its own", item=i)
        for name in ("convert-input__resources_as_list_v1alpha2", "convert-output__resources_as_list_v1")
        for i in (0, 1)
    ],
    Case("crs/cert-manager__v1.0.0__convert-input__resources_as_list_v1alpha2.yaml", 0,
         V1B1 + "cert-manager__v0.14.0__00-crds.yaml", "valid",
         "v1alpha2 Issuer (the corpus has no v1.0.0 Issuer CRD; v0.14.0 serves v1alpha2)", item=2),
    Case("crs/cert-manager__v1.0.0__convert-output__resources_as_list_v1.yaml", 0,
         V1 + "cert-manager__v1.21.1__cert-manager.io_issuers.yaml", "valid",
         "v1 Issuer against the v1.21.1 Issuer CRD (CEL rules included)", item=2),
    Case("crs/cert-manager__v1.21.1__cert-manager-resources.yaml", 0,
         V1 + "cert-manager__v1.21.1__cert-manager.io_issuers.yaml", "valid", OWN_RELEASE),
    Case("crs/cert-manager__v1.21.1__cert-manager-resources.yaml", 1,
         V1 + "cert-manager__v1.21.1__cert-manager.io_certificates.yaml", "valid", OWN_RELEASE),
    Case("crs/cert-manager__v1.21.1__cert-manager-resources.yaml", 2,
         V1 + "cert-manager__v1.21.1__cert-manager.io_certificates.yaml", "valid", OWN_RELEASE),
    Case("crs/cert-manager__v1.21.1__issuers.valid.yaml", 0,
         V1 + "cert-manager__v1.21.1__cert-manager.io_issuers.yaml", "valid", OWN_RELEASE),
    Case("crs/crossplane__v2.3.4__e2e__basic-cluster-composition.yaml", 0,
         V1 + "crossplane__v2.3.4__apiextensions.crossplane.io_compositions.yaml", "valid", OWN_RELEASE),
    Case("crs/crossplane__v2.3.4__e2e__basic-cluster-definition.yaml", 0,
         V1 + "crossplane__v2.3.4__apiextensions.crossplane.io_compositeresourcedefinitions.yaml", "valid",
         OWN_RELEASE),
    Case("crs/crossplane__v2.3.4__e2e__basic-cluster-functions.yaml", 0,
         V1 + "crossplane__v2.3.4__pkg.crossplane.io_functions.yaml", "valid", OWN_RELEASE),
    # Gateway API's own negative examples (hack/invalid-examples/standard/...).
    Case("crs/gateway-api__v1.0.0__INVALID__gateway__duplicate-listeners.yaml", 0,
         V1 + "gateway-api__v1.0.0__standard__gateways.yaml", "invalid",
         "two listeners named 'same': listeners is an x-kubernetes-list-type: map keyed by name "
         "(listtype.ValidateListSetsAndMaps: Duplicate), and the rule 'Listener name must be unique "
         "within the Gateway' fails too (Duplicate is not a blocking error, so CEL still runs)",
         errors=(
             ("FieldValueDuplicate", "spec.listeners[1]", ""),
             ("FieldValueInvalid", "spec.listeners", "Listener name must be unique within the Gateway"),
         ),
         needs_cel=True),
    Case("crs/gateway-api__v1.0.0__INVALID__gateway__hostname-tcp.yaml", 0,
         V1 + "gateway-api__v1.0.0__standard__gateways.yaml", "invalid",
         "a TCP listener with a hostname: CEL rule on spec.listeners",
         errors=(
             ("FieldValueInvalid", "spec.listeners", "hostname must not be specified for protocols ['TCP', 'UDP']"),
         ),
         needs_cel=True),
    Case("crs/gateway-api__v1.0.0__INVALID__httproute__duplicate-header-match.yaml", 0,
         V1 + "gateway-api__v1.0.0__standard__httproutes.yaml", "invalid",
         "two header matches named 'foo': headers is a list-type map keyed by name",
         errors=(("FieldValueDuplicate", "spec.rules[0].matches[0].headers[1]", ""),)),
    Case("crs/gateway-api__v1.0.0__INVALID__httproute__invalid-path-specialchars.yaml", 0,
         V1 + "gateway-api__v1.0.0__standard__httproutes.yaml", "invalid",
         "path '/[]': CEL rule on the path match (characters allowed in a URI path)",
         errors=(("FieldValueInvalid", "spec.rules[0].matches[0].path", GATEWAY_PATH_CHARS),),
         needs_cel=True),
    Case("crs/gateway-api__v1.0.0__INVALID__httproute__invalid-request-redirect-with-backendref.yaml", 0,
         V1 + "gateway-api__v1.0.0__standard__httproutes.yaml", "invalid",
         "a RequestRedirect filter next to backendRefs: CEL rule on each rule",
         errors=(("FieldValueInvalid", "spec.rules[0]", "RequestRedirect filter must not be used together with backendRefs"),),
         needs_cel=True),
    *[
        Case(f"crs/gateway-api__v1.6.1__{name}.yaml", doc, V1 + f"gateway-api__v1.6.1__standard__{crd}.yaml",
             "valid", OWN_RELEASE + " (its CEL rules hold)")
        for name, doc, crd in (
            ("basic-http", 0, "gatewayclasses"),
            ("basic-http", 1, "gateways"),
            ("basic-http", 2, "httproutes"),
            ("default-match-http", 0, "gatewayclasses"),
            ("default-match-http", 1, "gateways"),
            ("default-match-http", 2, "httproutes"),
            ("httproute-rewrite-full-path", 0, "httproutes"),
            ("reference-grant", 0, "referencegrants"),
            ("simple-http-https-gateway", 0, "gateways"),
            ("tls-route", 0, "tlsroutes"),
        )
    ],
    Case("crs/gateway-api__v1.6.1__httproute-all-fields-set.yaml", 0,
         V1 + "gateway-api__v1.6.1__standard__httproutes.yaml", "valid",
         "the CORS filter is in the v1.6.1 standard channel"),
    Case("crs/gateway-api__v1.6.1__httproute-all-fields-set.yaml", 0,
         V1 + "gateway-api__v1.0.0__standard__httproutes.yaml", "invalid",
         "the v1.0.0 CRD has no CORS filter: the cors field is pruned (an unknown field under Strict "
         "field validation) and the filter type is not in the enum (NotSupported is blocking, so CEL is "
         "skipped with the upstream message)",
         errors=(
             ("UnknownField", "spec.rules[0].filters[0].cors", 'unknown field "spec.rules[0].filters[0].cors"'),
             ("FieldValueNotSupported", "spec.rules[0].filters[0].type",
              ('supported values: "RequestHeaderModifier", "ResponseHeaderModifier", "RequestMirror", '
               '"RequestRedirect", "URLRewrite", "ExtensionRef"')),
             ("FieldValueInvalid", "<nil>",
              ("some validation rules were not checked because the object was invalid; correct the existing "
               "errors to complete validation")),
         ),
         primary=False),
    Case("crs/gateway-api__v1.6.1__v1alpha2__tls-route.yaml", 0,
         V1 + "gateway-api__v1.6.1__standard__tlsroutes.yaml", "no-endpoint",
         "v1alpha2 is served: false in the v1.6.1 CRD: the apiserver serves no endpoint for it (404, kubectl: "
         "no matches for kind \"TLSRoute\" in version \"gateway.networking.k8s.io/v1alpha2\")"),
    Case("crs/istio__1.6.0__bookinfo-gateway.yaml", 0, V1B1 + "istio__1.6.0__crd-all.gen.yaml", "valid", OWN_RELEASE),
    Case("crs/istio__1.6.0__bookinfo-gateway.yaml", 1, V1B1 + "istio__1.6.0__crd-all.gen.yaml", "valid", OWN_RELEASE),
    *[
        Case("crs/istio__1.6.0__destination-rule-all.yaml", doc, V1B1 + "istio__1.6.0__crd-all.gen.yaml", "valid",
             OWN_RELEASE)
        for doc in range(4)
    ],
    Case("crs/istio__1.6.0__virtual-service-reviews-80-20.yaml", 0, V1B1 + "istio__1.6.0__crd-all.gen.yaml",
         "valid", OWN_RELEASE),
    Case("crs/keda__v1.5.0__keda.k8s.io_v1alpha1_scaledobject_cr.yaml", 0,
         V1B1 + "keda__v1.5.0__keda.k8s.io_scaledobjects_crd.yaml", "invalid",
         "'spec:' holding only a comment is null; the v1beta1 CRD defaults preserveUnknownFields to true, so "
         "the decoder neither prunes nor drops non-nullable nulls, and the OpenAPI type check refuses null "
         "for type: object (the CRD itself is refused by today's CRD validation)",
         errors=(("FieldValueTypeInvalid", "spec", 'spec in body must be of type object: "null"'),)),
    Case("crs/keda__v2.20.2__keda_v1alpha1_scaledobject.yaml", 0, V1 + "keda__v2.20.2__keda.sh_scaledobjects.yaml",
         "valid", OWN_RELEASE),
    Case("crs/knative-serving__knative-v1.23.0__helloworld-service.yaml", 0,
         V1 + "knative-serving__knative-v1.23.0__service.yaml", "valid", OWN_RELEASE),
    Case("crs/kubebuilder__v4.15.0__batch_v1_cronjob.yaml", 0,
         V1 + "kubebuilder__v4.15.0__multiversion-tutorial__cronjobs.yaml", "valid", OWN_RELEASE),
    Case("crs/kubebuilder__v4.15.0__batch_v2_cronjob.yaml", 0,
         V1 + "kubebuilder__v4.15.0__multiversion-tutorial__cronjobs.yaml", "valid", OWN_RELEASE),
    Case("crs/prometheus-operator__v0.93.0__alertmanager-example.yaml", 0,
         V1 + "prometheus-operator__v0.93.0__monitoring.coreos.com_alertmanagers.yaml", "valid", OWN_RELEASE),
    Case("crs/prometheus-operator__v0.93.0__example-app-service-monitor.yaml", 0,
         V1 + "prometheus-operator__v0.93.0__monitoring.coreos.com_servicemonitors.yaml", "valid", OWN_RELEASE),
    *[
        Case(f"crs/prometheus-operator__v0.93.0__{name}.yaml", 0,
             V1 + "prometheus-operator__v0.93.0__monitoring.coreos.com_prometheuses.yaml", "valid", OWN_RELEASE)
        for name in ("persisted-prometheus", "prometheus-service-monitor", "thanos__prometheus")
    ],
    Case("crs/prometheus-operator__v0.93.0__prometheus-example-rules.yaml", 0,
         V1 + "prometheus-operator__v0.93.0__monitoring.coreos.com_prometheusrules.yaml", "valid", OWN_RELEASE),
    Case("crs/rook__v1.5.0__pool-test.yaml", 0, V1 + "rook__v1.5.0__crds.yaml", "valid", OWN_RELEASE),
    Case("crs/sample-controller__kubernetes-1.18.0__example-foo.yaml", 0,
         V1 + "sample-controller__kubernetes-1.22.0__crd-status-subresource.yaml", "valid",
         "replicas: 1 is within the schema's minimum 1 / maximum 10"),
    Case("crs/sample-controller__kubernetes-1.18.0__example-foo.yaml", 0,
         V1B1 + "sample-controller__kubernetes-1.18.0__crd-validation.yaml", "valid",
         "the 1.18 validation CRD's schema accepts it (the CRD itself lacks the api-approved annotation)",
         primary=False),
    Case("crs/strimzi__0.24.0__kafka-ephemeral.yaml", 0, V1 + "strimzi__0.24.0__040-Crd-kafka.yaml", "valid",
         OWN_RELEASE),
    Case("crs/strimzi__0.24.0__kafka-topic.yaml", 0, V1 + "strimzi__0.24.0__043-Crd-kafkatopic.yaml", "valid",
         OWN_RELEASE),
    Case("crs/tekton-pipeline__v0.44.0__v1beta1__array-default.yaml", 0,
         V1 + "tekton-pipeline__v1.15.0__300-taskrun.yaml", "valid",
         "v1beta1 TaskRun: still served by the v1.15.0 CRD, whose v1beta1 schema preserves unknown fields"),
    Case("crs/tekton-pipeline__v0.44.0__v1beta1__emit-array-results.yaml", 0,
         V1 + "tekton-pipeline__v1.15.0__300-task.yaml", "valid", "v1beta1 Task, served by the v1.15.0 CRD"),
    Case("crs/tekton-pipeline__v0.44.0__v1beta1__emit-array-results.yaml", 1,
         V1 + "tekton-pipeline__v1.15.0__300-taskrun.yaml", "valid", "v1beta1 TaskRun, served by the v1.15.0 CRD"),
    Case("crs/tekton-pipeline__v1.15.0__v1__default_task_params.yaml", 0,
         V1 + "tekton-pipeline__v1.15.0__300-task.yaml", "valid", OWN_RELEASE),
    Case("crs/tekton-pipeline__v1.15.0__v1__default_task_params.yaml", 1,
         V1 + "tekton-pipeline__v1.15.0__300-taskrun.yaml", "valid", OWN_RELEASE),
    Case("crs/tekton-pipeline__v1.15.0__v1__step-script.yaml", 0,
         V1 + "tekton-pipeline__v1.15.0__300-taskrun.yaml", "valid", OWN_RELEASE),
    *[
        Case("crs/traefik__v2.2.0__kubernetes-crd-resource.yaml", doc,
             V1B1 + "traefik__v2.2.0__kubernetes-crd-definition.yaml", "valid",
             "v2.2.0's CRDs have no schema (v1beta1, unknown fields preserved): only metadata is checked")
        for doc in range(8)
    ],
    *[
        Case("crs/traefik__v2.2.0__kubernetes-crd-resource.yaml", doc,
             V1 + "traefik__v2.10.0__kubernetes-crd-definition-v1.yaml", "valid",
             "still accepted by the structural v2.10.0 schema", primary=False)
        for doc in (0, 1, 2, 5, 6)
    ],
    Case("crs/traefik__v2.2.0__kubernetes-crd-resource.yaml", 3,
         V1 + "traefik__v2.10.0__kubernetes-crd-definition-v1.yaml", "invalid",
         "v2.10.0 mirrors have no maxBodySize (it moved to the mirroring service): pruned, so unknown",
         errors=(("UnknownField", "spec.mirroring.mirrors[0].maxBodySize",
                  'unknown field "spec.mirroring.mirrors[0].maxBodySize"'),),
         primary=False),
    Case("crs/traefik__v2.2.0__kubernetes-crd-resource.yaml", 4,
         V1 + "traefik__v2.10.0__kubernetes-crd-definition-v1.yaml", "invalid",
         "v2.10.0 routes require kind (enum Rule) and services lost healthCheck",
         errors=(
             ("UnknownField", "spec.routes[0].services[0].healthCheck",
              'unknown field "spec.routes[0].services[0].healthCheck"'),
             ("UnknownField", "spec.routes[0].services[1].healthCheck",
              'unknown field "spec.routes[0].services[1].healthCheck"'),
             *[("FieldValueRequired", f"spec.routes[{i}].kind", "") for i in range(1, 5)],
         ),
         primary=False),
    Case("crs/traefik__v2.2.0__kubernetes-crd-resource.yaml", 7,
         V1 + "traefik__v2.10.0__kubernetes-crd-definition-v1.yaml", "invalid",
         "v2.10.0 TLSOption clientAuth has secretNames instead of caFiles, and 'foobar' is not a clientAuthType",
         errors=(
             ("UnknownField", "spec.clientAuth.caFiles", 'unknown field "spec.clientAuth.caFiles"'),
             ("FieldValueNotSupported", "spec.clientAuth.clientAuthType",
              ('supported values: "NoClientCert", "RequestClientCert", "RequireAnyClientCert", '
               '"VerifyClientCertIfGiven", "RequireAndVerifyClientCert"')),
         ),
         primary=False),
    # Traefik v2.0.0 ships two custom resources inside its CRD file.
    Case(V1B1 + "traefik__v2.0.0__kubernetes-crd.yaml", 4, V1B1 + "traefik__v2.0.0__kubernetes-crd.yaml", "valid",
         "IngressRoute beside its schemaless v1beta1 CRD"),
    Case(V1B1 + "traefik__v2.0.0__kubernetes-crd.yaml", 5, V1B1 + "traefik__v2.0.0__kubernetes-crd.yaml", "valid",
         "IngressRouteTCP beside its schemaless v1beta1 CRD"),
]


# --- loading -------------------------------------------------------------------------------


@functools.cache
def _documents(rel: str) -> list[Any]:
    with (CORPUS / rel).open("rb") as fh:
        return [d for d in yaml.load_all(fh, Loader=yaml.CSafeLoader) if d is not None]


_PREPARED: dict[tuple[str, str, str], PreparedCrd] = {}


def _crd_for(rel: str, obj: dict[str, Any]) -> PreparedCrd:
    group = obj["apiVersion"].rpartition("/")[0]
    key = (rel, group, obj["kind"])
    if key not in _PREPARED:
        [crd] = [
            d for d in _documents(rel)
            if d.get("kind") == "CustomResourceDefinition"
            and d["spec"]["group"] == group and d["spec"]["names"]["kind"] == obj["kind"]
        ]
        _PREPARED[key] = prepare_crd(crd)
    return _PREPARED[key]


def _object(case: Case) -> dict[str, Any]:
    doc = _documents(case.cr)[case.doc]
    return doc["items"][case.item] if case.item is not None else doc


@functools.lru_cache(maxsize=1)
def _cr_objects() -> frozenset[tuple[str, int, int | None]]:
    """Every custom resource of crs/ (List items one by one) and of the CRD files."""
    found: set[tuple[str, int, int | None]] = set()
    for path in sorted((CORPUS / "crs").glob("*.yaml")):
        rel = path.relative_to(CORPUS).as_posix()
        for i, doc in enumerate(_documents(rel)):
            if doc.get("kind") == "List":
                found.update((rel, i, j) for j in range(len(doc["items"])))
            else:
                found.add((rel, i, None))
    for path in sorted((CORPUS / "crds").rglob("*.yaml")):
        rel = path.relative_to(CORPUS).as_posix()
        for i, doc in enumerate(_documents(rel)):
            if doc.get("kind") not in ("CustomResourceDefinition", "Namespace"):
                found.add((rel, i, None))
    return frozenset(found)


# --- tests -----------------------------------------------------------------------------------


def test_every_custom_resource_has_a_verdict() -> None:
    assert CORPUS.is_dir(), f"corpus not found at {CORPUS}"
    covered = {(c.cr, c.doc, c.item) for c in CASES}
    assert _cr_objects() == covered
    assert all(c.reason for c in CASES)
    assert all(c.errors for c in CASES if c.verdict == "invalid")


def test_summary_counts() -> None:
    primary = [c for c in CASES if c.primary]
    assert len({(c.cr, c.doc, c.item) for c in primary}) == len(primary) == len(_cr_objects())
    assert sum(1 for c in primary if c.verdict == "valid") == PRIMARY_VALID
    assert sum(1 for c in primary if c.verdict != "valid") == PRIMARY_REJECTED


def _marks(case: Case) -> list[Any]:
    if case.needs_cel and not HAS_CEL:
        return [pytest.mark.xfail(strict=True, reason="needs CEL evaluation (crdtool.core.crdcel.validation)")]
    return []


@pytest.mark.parametrize("case", [pytest.param(c, id=c.id, marks=_marks(c)) for c in CASES])
def test_verdict(case: Case) -> None:
    obj = _object(case)
    crd = _crd_for(case.crd, obj)
    if case.verdict == "no-endpoint":
        with pytest.raises(CustomResourceError) as info:
            apply_create(obj, crd)
        assert info.value.reason == "not-served"
        assert 'no matches for kind "TLSRoute" in version "gateway.networking.k8s.io/v1alpha2"' in str(info.value)
        return
    result = apply_create(obj, crd)
    got = [(e.type, e.field, e.detail) for e in result.errors]
    if case.verdict == "valid":
        assert got == []
        return
    assert got == list(case.errors)
