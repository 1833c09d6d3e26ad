"""The built-in catalog: kinds, scope, resources and serving per release.

Expected values checked against upstream: kubernetes ``api/openapi-spec/v3`` (paths with
``namespaces/{namespace}``), ``pkg/controlplane/instance.go`` ``legacyBetaEnabledByDefaultResources`` at
v1.30/v1.31 (microshift release-4.17/4.18), k8s.io/api ``zz_generated.prerelease-lifecycle.go`` at v0.30.14
(batch/v1beta1 CronJob: deprecated 1.21, removed 1.25, replacement batch/v1 CronJob) and ``core/v1/lifecycle.go``
at v0.33.13 (Endpoints deprecated 1.33, replacement discovery.k8s.io/v1 EndpointSlice).
"""

from __future__ import annotations

import pytest

from crdtool.core.builtin import catalog


@pytest.mark.parametrize(
    ("api_version", "kind", "namespaced", "resource"),
    [
        ("apps/v1", "Deployment", True, "deployments"),
        ("v1", "Namespace", False, "namespaces"),
        ("v1", "Binding", True, "bindings"),
        ("rbac.authorization.k8s.io/v1", "ClusterRole", False, "clusterroles"),
        ("rbac.authorization.k8s.io/v1", "RoleBinding", True, "rolebindings"),
        ("policy/v1", "PodDisruptionBudget", True, "poddisruptionbudgets"),
        ("admissionregistration.k8s.io/v1", "ValidatingWebhookConfiguration", False, "validatingwebhookconfigurations"),
        ("apiregistration.k8s.io/v1", "APIService", False, "apiservices"),
        ("storage.k8s.io/v1", "CSIStorageCapacity", True, "csistoragecapacities"),
    ],
)
def test_scope_and_resource_on_every_release(api_version: str, kind: str, namespaced: bool, resource: str) -> None:
    for minor in range(30, 38):
        info = catalog.kind_info(f"1.{minor}", api_version, kind)
        assert info is not None, minor
        assert (info.namespaced, info.resource, info.served) == (namespaced, resource, True)
        assert catalog.definition(minor, info.definition)["type"] == "object"


def test_flowcontrol_v1beta3_is_served_and_deprecated_until_1_31() -> None:
    info = catalog.kind_info("1.31", "flowcontrol.apiserver.k8s.io/v1beta3", "FlowSchema")
    assert info is not None and info.served
    assert info.warning == (
        "flowcontrol.apiserver.k8s.io/v1beta3 FlowSchema is deprecated in v1.29+, unavailable in v1.32+; "
        "use flowcontrol.apiserver.k8s.io/v1 FlowSchema"
    )
    gone = catalog.kind_info("1.32", "flowcontrol.apiserver.k8s.io/v1beta3", "FlowSchema")
    assert gone is not None and not gone.served and gone.removed == (1, 32)


def test_removed_kind_has_its_replacement() -> None:
    info = catalog.kind_info("1.30", "batch/v1beta1", "CronJob")
    assert info is not None
    assert (info.served, info.definition, info.removed, info.replacement_api_version) == (
        False, "", (1, 25), "batch/v1 CronJob")
    assert catalog.kind_info("1.30", "extensions/v1beta1", "Deployment").replacement == ("apps", "v1", "Deployment")  # type: ignore[union-attr]


def test_alpha_and_new_beta_versions_are_not_served_by_default() -> None:
    for api_version, kind in (("admissionregistration.k8s.io/v1alpha1", "MutatingAdmissionPolicy"),
                              ("resource.k8s.io/v1beta2", "ResourceClaim")):
        info = catalog.kind_info("1.36", api_version, kind)
        assert info is not None and not info.served and info.definition


def test_endpoints_deprecated_from_1_33() -> None:
    assert catalog.kind_info("1.32", "v1", "Endpoints").warning == ""  # type: ignore[union-attr]
    assert catalog.kind_info("1.33", "v1", "Endpoints").warning == (  # type: ignore[union-attr]
        "v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice")


def test_unknown_kind() -> None:
    assert catalog.kind_info("1.37", "example.com/v1", "Widget") is None
    assert catalog.kind_info("1.37", "v1", "configmap") is None


def test_definition_refs_by_name_without_descriptions() -> None:
    spec = catalog.definition("1.30", "io.k8s.api.apps.v1.DeploymentSpec")
    assert spec["properties"]["template"]["$ref"] == "io.k8s.api.core.v1.PodTemplateSpec"
    assert spec["properties"]["replicas"] == {"format": "int32", "type": "integer"}
    assert "description" not in spec["properties"]["replicas"]
    assert "replicas" in catalog.definition_docs("1.30", "io.k8s.api.apps.v1.DeploymentSpec")
    with pytest.raises(KeyError):
        catalog.definition("1.30", "io.k8s.api.resource.v1.ResourceClaim")  # resource.k8s.io/v1 is 1.34+


def test_1_37_is_1_36_patched_with_k8s_io_api_v0_37_0_beta_0() -> None:
    # k8s.io/api v0.37.0-beta.0: certificates/v1 ClusterTrustBundle (+genclient:nonNamespaced, introduced=1.37),
    # storagemigration/v1, resource/v1 DeviceTaintRule; scheduling/v1alpha2 gone (v1alpha3);
    # autoscaling/v2 HorizontalPodAutoscalerCondition.observedGeneration added
    assert catalog.derived_from("1.37") == "1.36"
    ctb = catalog.kind_info("1.37", "certificates.k8s.io/v1", "ClusterTrustBundle")
    assert ctb is not None and ctb.served and not ctb.namespaced and ctb.resource == "clustertrustbundles"
    assert catalog.kind_info("1.36", "certificates.k8s.io/v1", "ClusterTrustBundle") is None
    assert catalog.kind_info("1.37", "scheduling.k8s.io/v1alpha2", "Workload") is None
    assert catalog.kind_info("1.37", "scheduling.k8s.io/v1alpha3", "Workload").namespaced  # type: ignore[union-attr]
    hpa = "io.k8s.api.autoscaling.v2.HorizontalPodAutoscalerCondition"
    assert "observedGeneration" in catalog.definition("1.37", hpa)["properties"]
    assert "observedGeneration" not in catalog.definition("1.36", hpa)["properties"]
