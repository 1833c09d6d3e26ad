"""crdtool.core.bundle: the checks across a bundle, each positive and negative.

The references mirror what the apiserver resolves at run time: ServiceReference's port default 443
(k8s.io/api admissionregistration/v1 defaults.go @ v0.30.0 ... v0.37.0-beta.0), a RoleBinding subject without a
namespace in the binding's namespace (kubernetes pkg/registry/rbac/validation/rule.go appliesToUser), the
bootstrap ClusterRoles (plugin/pkg/auth/authorizer/rbac/bootstrappolicy/policy.go).
"""

from __future__ import annotations

from typing import Any

import pytest

from crdtool.core.bundle import RULES, check_bundle, select_rules


def svc(name: str, ns: str | None = "ops", selector: dict[str, str] | None = None, ports: tuple[int, ...] = (443,),
        **spec: Any) -> dict[str, Any]:
    meta: dict[str, Any] = {"name": name}
    if ns:
        meta["namespace"] = ns
    body: dict[str, Any] = {"ports": [{"port": p} for p in ports], **spec}
    if selector is not None:
        body["selector"] = selector
    return {"apiVersion": "v1", "kind": "Service", "metadata": meta, "spec": body}


def deploy(name: str, labels: dict[str, str], ns: str | None = "ops", sa: str | None = None,
           kind: str = "Deployment", api: str = "apps/v1") -> dict[str, Any]:
    pod: dict[str, Any] = {"containers": [{"name": "c", "image": "x"}]}
    if sa:
        pod["serviceAccountName"] = sa
    meta: dict[str, Any] = {"name": name}
    if ns:
        meta["namespace"] = ns
    template = {"metadata": {"labels": labels}, "spec": pod}
    if kind == "CronJob":
        return {"apiVersion": api, "kind": kind, "metadata": meta,
                "spec": {"schedule": "* * * * *", "jobTemplate": {"spec": {"template": template}}}}
    if kind == "Pod":
        return {"apiVersion": "v1", "kind": "Pod", "metadata": {**meta, "labels": labels}, "spec": pod}
    return {"apiVersion": api, "kind": kind, "metadata": meta, "spec": {"template": template}}


def vwc(service: dict[str, Any]) -> dict[str, Any]:
    return {"apiVersion": "admissionregistration.k8s.io/v1", "kind": "ValidatingWebhookConfiguration",
            "metadata": {"name": "hooks"},
            "webhooks": [{"name": "v.example.com", "clientConfig": {"service": service}}]}


def crd(group: str = "example.com", plural: str = "widgets", conversion: dict[str, Any] | None = None) -> dict[str, Any]:
    spec: dict[str, Any] = {"group": group, "names": {"plural": plural, "kind": "Widget"}, "scope": "Namespaced",
                            "versions": [{"name": "v1", "served": True, "storage": True}]}
    if conversion:
        spec["conversion"] = conversion
    return {"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
            "metadata": {"name": f"{plural}.{group}"}, "spec": spec}


def role(name: str, rules: list[dict[str, Any]], ns: str | None = "ops", kind: str = "Role") -> dict[str, Any]:
    meta: dict[str, Any] = {"name": name}
    if ns and kind == "Role":
        meta["namespace"] = ns
    return {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": kind, "metadata": meta, "rules": rules}


def binding(name: str, ref_kind: str, ref_name: str, subjects: list[dict[str, Any]], ns: str | None = "ops",
            kind: str = "RoleBinding") -> dict[str, Any]:
    meta: dict[str, Any] = {"name": name}
    if ns and kind == "RoleBinding":
        meta["namespace"] = ns
    return {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": kind, "metadata": meta,
            "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": ref_kind, "name": ref_name},
            "subjects": subjects}


def sa(name: str, ns: str | None = "ops") -> dict[str, Any]:
    meta: dict[str, Any] = {"name": name}
    if ns:
        meta["namespace"] = ns
    return {"apiVersion": "v1", "kind": "ServiceAccount", "metadata": meta}


def codes(docs: list[Any], release: str = "1.37", **kw: Any) -> list[tuple[str, int, str]]:
    return [(f.code, f.document, f.field) for f in check_bundle(docs, release, rules=select_rules(["ALL"]), **kw)]


def messages(docs: list[Any], release: str = "1.37") -> list[str]:
    return [f.message for f in check_bundle(docs, release, rules=select_rules(["ALL"]))]


# --- BND001 / BND002 ---------------------------------------------------------------------------------------

def test_webhook_service_present_default_port_443() -> None:
    docs = [svc("hook"), vwc({"namespace": "ops", "name": "hook"})]
    assert codes(docs) == []


def test_webhook_service_missing() -> None:
    docs = [svc("other", selector=None), vwc({"namespace": "ops", "name": "hook"})]
    assert codes(docs) == [("BND001", 1, "webhooks[0].clientConfig.service")]
    assert messages(docs)[0] == ('webhook "v.example.com" of ValidatingWebhookConfiguration "hooks" calls Service '
                                 '"ops/hook", which is not in the bundle')


def test_webhook_service_other_namespace_is_named() -> None:
    docs = [svc("hook", ns="system"), vwc({"namespace": "ops", "name": "hook"})]
    assert codes(docs) == [("BND001", 1, "webhooks[0].clientConfig.service")]
    assert 'a Service "hook" is in namespace "system"' in messages(docs)[0]


def test_webhook_default_port_not_exposed() -> None:
    docs = [svc("hook", ports=(9443,)), vwc({"namespace": "ops", "name": "hook"})]
    assert codes(docs) == [("BND002", 1, "webhooks[0].clientConfig.service")]
    assert "calls port 443 (the default) of Service \"ops/hook\", which exposes port 9443" in messages(docs)[0]


def test_webhook_explicit_port() -> None:
    assert codes([svc("hook", ports=(9443,)), vwc({"namespace": "ops", "name": "hook", "port": 9443})]) == []
    docs = [svc("hook", ports=(443, 8080)), vwc({"namespace": "ops", "name": "hook", "port": 9443})]
    assert codes(docs) == [("BND002", 1, "webhooks[0].clientConfig.service.port")]
    assert messages(docs)[0].endswith("which exposes ports 443, 8080")


def test_webhook_url_is_not_checked() -> None:
    doc = vwc({})
    doc["webhooks"][0]["clientConfig"] = {"url": "https://example.com/validate"}
    assert codes([svc("x"), doc]) == []


def test_crd_conversion_webhook_service_v1_and_v1beta1() -> None:
    v1 = crd(conversion={"strategy": "Webhook", "webhook": {"conversionReviewVersions": ["v1"], "clientConfig": {
        "service": {"namespace": "ops", "name": "conv", "port": 8443}}}})
    assert codes([svc("conv", ports=(443,)), v1]) == [("BND002", 1, "spec.conversion.webhook.clientConfig.service.port")]
    assert codes([svc("conv", ports=(8443,)), v1]) == []
    v1beta1 = {"apiVersion": "apiextensions.k8s.io/v1beta1", "kind": "CustomResourceDefinition",
               "metadata": {"name": "widgets.example.com"},
               "spec": {"group": "example.com", "names": {"plural": "widgets"}, "conversion": {
                   "strategy": "Webhook", "webhookClientConfig": {"service": {"namespace": "ops", "name": "convv"}}}}}
    assert codes([svc("conv"), v1beta1]) == [("BND001", 1, "spec.conversion.webhookClientConfig.service")]
    assert "(did you mean \"conv\"?)" in messages([svc("conv"), v1beta1])[0]


def test_webhook_checks_need_a_deployable_bundle() -> None:
    # a CRD file alone: its conversion Service is elsewhere, nothing to say
    lone = crd(conversion={"strategy": "Webhook", "webhook": {"clientConfig": {"service": {"namespace": "ops",
                                                                                          "name": "conv"}}}})
    assert codes([lone]) == []


# --- BND003 ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("kind", "api"), [
    ("Deployment", "apps/v1"), ("StatefulSet", "apps/v1"), ("DaemonSet", "apps/v1"), ("ReplicaSet", "apps/v1"),
    ("Job", "batch/v1"), ("CronJob", "batch/v1"), ("Pod", "v1"), ("ReplicationController", "v1"),
])
def test_service_selects_each_workload_kind(kind: str, api: str) -> None:
    docs = [svc("web", selector={"app": "web"}), deploy("web", {"app": "web", "tier": "x"}, kind=kind, api=api)]
    assert codes(docs) == []


def test_service_selects_nothing() -> None:
    docs = [svc("web", selector={"app": "web", "tier": "front"}), deploy("web", {"app": "web", "tier": "back"})]
    assert codes(docs) == [("BND003", 0, "spec.selector")]
    assert messages(docs)[0] == ('Service "ops/web" selects no pod template of the bundle in namespace "ops" '
                                 '(selector app=web,tier=front); nearest: the pod template of Deployment "web" '
                                 'has tier=back')


def test_service_selector_is_namespaced_and_default_namespace() -> None:
    docs = [svc("web", ns=None, selector={"app": "web"}), deploy("web", {"app": "web"}, ns="ops")]
    assert codes(docs) == [("BND003", 0, "spec.selector")]
    assert codes(docs, namespace="ops") == []
    assert codes([svc("web", ns=None, selector={"app": "web"}), deploy("web", {"app": "web"}, ns=None)]) == []


def test_service_without_selector_or_external_name_or_workloads() -> None:
    assert codes([svc("db", selector=None), deploy("web", {"app": "web"})]) == []
    assert codes([svc("db", selector={"app": "db"}, type="ExternalName"), deploy("web", {"app": "web"})]) == []
    assert codes([svc("web", selector={"app": "web"})]) == []  # no workload in the bundle: pods are elsewhere


def test_a_custom_resource_with_a_pod_template_is_a_workload() -> None:
    # Argo Rollouts' own examples (argoproj/argo-rollouts examples/rollout-bluegreen.yaml): the Services select
    # the Rollout's pods
    rollout = deploy("rollout-bluegreen", {"app": "rollout-bluegreen"}, kind="Rollout", api="argoproj.io/v1alpha1",
                     sa="rollouts")
    assert codes([svc("rollout-bluegreen-active", selector={"app": "rollout-bluegreen"}), rollout]) == []
    assert codes([sa("other"), rollout]) == [("BND007", 1, "spec.template.spec.serviceAccountName")]


def test_a_custom_kind_named_deployment_is_no_workload() -> None:
    custom = deploy("web", {"app": "web"}, api="example.com/v1")
    del custom["spec"]["template"]["spec"]["containers"]  # no pod template: a kind of its own
    docs = [svc("web", selector={"app": "web"}), deploy("a", {"app": "x"}), custom]
    assert [c for c, _, _ in codes(docs)] == ["BND003"]


# --- BND004 / BND005 / BND006 ------------------------------------------------------------------------------

def test_rbac_typo_in_plural() -> None:
    docs = [role("r", [{"apiGroups": ["apps"], "resources": ["deployment", "statefulsets/status"],
                        "verbs": ["get"]}])]
    assert codes(docs) == [("BND004", 0, "rules[0].resources[0]")]
    assert messages(docs)[0] == ('rule 0 of Role "r": resource "deployment" is not served by group "apps" '
                                 '(did you mean "deployments"?)')


def test_rbac_resource_in_another_group() -> None:
    docs = [role("r", [{"apiGroups": [""], "resources": ["deployments"], "verbs": ["get"]}])]
    assert messages(docs) == ['rule 0 of Role "r": resource "deployments" is not served by group "" (core); '
                              '"apps" serves it']


def test_rbac_cross_product_and_wildcards_and_case() -> None:
    ok = [role("r", [
        {"apiGroups": ["", "apps"], "resources": ["pods", "deployments", "pods/log", "deployments/scale"],
         "verbs": ["get"]},
        {"apiGroups": ["*"], "resources": ["whatever"], "verbs": ["get"]},
        {"apiGroups": ["apps"], "resources": ["*"], "verbs": ["get"]},
        {"nonResourceURLs": ["/metrics"], "verbs": ["get"]},
        {"apiGroups": [""], "resources": ["users", "groups", "serviceaccounts"], "verbs": ["impersonate"]},
        {"apiGroups": ["certificates.k8s.io"], "resources": ["signers"], "verbs": ["approve"]},
        {"apiGroups": ["coordination.k8s.io"], "resources": ["leases"], "verbs": ["*"]},
    ], kind="ClusterRole")]
    assert codes(ok) == []
    bad = [role("r", [{"apiGroups": [""], "resources": ["Pods"], "verbs": ["get"]}])]
    assert codes(bad) == [("BND004", 0, "rules[0].resources[0]")]
    assert '(did you mean "pods"?)' in messages(bad)[0]


def test_rbac_bundle_crds_serve_their_plural() -> None:
    rules = [{"apiGroups": ["example.com"], "resources": ["widgets", "widgets/status", "widgets/finalizers"],
              "verbs": ["get"]}]
    assert codes([crd(), role("r", rules)]) == []
    typo = [{"apiGroups": ["example.com"], "resources": ["widget"], "verbs": ["get"]}]
    assert codes([crd(), role("r", typo)]) == [("BND004", 1, "rules[0].resources[0]")]
    assert '(did you mean "widgets"?)' in messages([crd(), role("r", typo)])[0]


def test_rbac_group_typo_removed_and_foreign() -> None:
    docs = [crd(), role("r", [{"apiGroups": ["app"], "resources": ["deployments"], "verbs": ["get"]},
                              {"apiGroups": ["extensions"], "resources": ["ingresses"], "verbs": ["get"]},
                              {"apiGroups": ["monitoring.coreos.com"], "resources": ["servicemonitors"],
                               "verbs": ["get"]},
                              {"apiGroups": ["example.org"], "resources": ["widgets"], "verbs": ["get"]}])]
    assert codes(docs) == [("BND005", 1, "rules[0].apiGroups[0]"), ("BND005", 1, "rules[1].apiGroups[0]"),
                           ("BND005", 1, "rules[3].apiGroups[0]"), ("BND006", 1, "rules[2].apiGroups[0]")]
    got = messages(docs)
    assert '(did you mean "apps"?)' in got[0] and "serves nothing since 1.22" in got[1]
    assert '(did you mean "example.com"?)' in got[2]
    # BND006 is not a default check
    assert [f.code for f in check_bundle(docs, "1.37")] == ["BND005", "BND005", "BND005"]


def test_rbac_sibling_group_is_no_typo() -> None:
    docs = [crd(group="cert-manager.io", plural="certificates"),
            role("r", [{"apiGroups": ["acme.cert-manager.io"], "resources": ["orders"], "verbs": ["get"]}])]
    assert codes(docs) == [("BND006", 1, "rules[0].apiGroups[0]")]


def test_rbac_api_service_opens_its_group() -> None:
    apiservice = {"apiVersion": "apiregistration.k8s.io/v1", "kind": "APIService", "metadata": {"name":
                  "v1beta1.metrics.k8s.io"}, "spec": {"group": "metrics.k8s.io", "version": "v1beta1"}}
    docs = [apiservice, role("r", [{"apiGroups": ["metrics.k8s.io"], "resources": ["pods", "nodes"],
                                    "verbs": ["get"]}])]
    assert codes(docs) == []
    assert [c for c, _, _ in codes(docs[1:])] == ["BND006"]


def test_rbac_per_release() -> None:
    # ValidatingAdmissionPolicy: admissionregistration.k8s.io/v1 from 1.30; DeviceTaintRule (resource.k8s.io)
    # only from 1.33's v1alpha3 - the release decides which resources are built in
    docs = [role("r", [{"apiGroups": ["resource.k8s.io"], "resources": ["devicetaintrules"], "verbs": ["get"]}],
                 kind="ClusterRole")]
    assert codes(docs, "1.37") == []
    assert codes(docs, "1.30") == [("BND004", 0, "rules[0].resources[0]")]


# --- BND007 ------------------------------------------------------------------------------------------------

def test_workload_service_account_missing_and_present() -> None:
    docs = [sa("ctrl"), deploy("ctrl", {"app": "c"}, sa="controller"), deploy("b", {"app": "b"}, sa="ctrl"),
            deploy("c", {"app": "b"}, sa="default")]
    assert codes(docs) == [("BND007", 1, "spec.template.spec.serviceAccountName")]
    assert messages(docs)[0] == ('the pod template of Deployment "ctrl" runs as ServiceAccount "ops/controller", '
                                 'which is not in the bundle')


def test_cronjob_service_account_path_and_namespace_hint() -> None:
    docs = [sa("ctrl", ns="system"), deploy("j", {"app": "j"}, sa="ctrl", kind="CronJob", api="batch/v1")]
    assert codes(docs) == [("BND007", 1, "spec.jobTemplate.spec.template.spec.serviceAccountName")]
    assert 'a ServiceAccount "ctrl" is in namespace "system"' in messages(docs)[0]


def test_binding_subjects_namespace_aware() -> None:
    docs = [sa("ctrl"), role("r", []), binding("rb", "Role", "r", [
        {"kind": "ServiceAccount", "name": "ctrl"},  # the binding's namespace
        {"kind": "ServiceAccount", "name": "ctrl", "namespace": "other"},
        {"kind": "User", "name": "alice"},
        {"kind": "ServiceAccount", "name": "default", "namespace": "other"},
    ])]
    assert codes(docs) == [("BND007", 2, "subjects[1]")]
    crb = [sa("ctrl"), role("cr", [], kind="ClusterRole"),
           binding("crb", "ClusterRole", "cr", [{"kind": "ServiceAccount", "name": "ctrl", "namespace": "ops"},
                                                {"kind": "ServiceAccount", "name": "ctlr", "namespace": "ops"}],
                   kind="ClusterRoleBinding")]
    assert codes(crb) == [("BND007", 2, "subjects[1]")]
    assert '(did you mean "ctrl"?)' in messages(crb)[0]


def test_service_accounts_need_one_in_the_bundle() -> None:
    assert codes([deploy("ctrl", {"app": "c"}, sa="controller")]) == []


# --- BND008 ------------------------------------------------------------------------------------------------

def test_role_ref_missing_and_present() -> None:
    docs = [role("r", []), role("cr", [], kind="ClusterRole"),
            binding("a", "Role", "r", []), binding("b", "ClusterRole", "cr", []),
            binding("c", "ClusterRole", "view", []), binding("d", "ClusterRole", "system:auth-delegator", [],
                                                              kind="ClusterRoleBinding"),
            binding("e", "Role", "rr", []), binding("f", "ClusterRole", "crr", [], kind="ClusterRoleBinding"),
            binding("g", "Role", "r", [], ns="other")]
    assert codes(docs) == [("BND008", 6, "roleRef.name"), ("BND008", 7, "roleRef.name"), ("BND008", 8, "roleRef.name")]
    got = messages(docs)
    assert got[0] == 'RoleBinding "e" refers to Role "ops/rr", which is not in the bundle'
    assert got[1] == ('ClusterRoleBinding "f" refers to ClusterRole "crr", which is neither in the bundle nor a '
                      'bootstrap ClusterRole (did you mean "cr"?)')
    assert got[2] == 'RoleBinding "g" refers to Role "other/r", which is not in the bundle (a Role "r" is in namespace "ops")'


def test_role_ref_kind_mixup_and_guard() -> None:
    docs = [role("cr", [], kind="ClusterRole"), binding("a", "Role", "cr", [])]
    assert "roleRef.kind ClusterRole?" in messages(docs)[0]
    assert codes([binding("a", "Role", "r", [])]) == []  # no Role in the bundle: they live elsewhere


# --- selection, Lists, robustness -------------------------------------------------------------------------

def test_select_rules() -> None:
    assert select_rules() == frozenset(c for c, r in RULES.items() if r.default)
    assert "BND006" not in select_rules() and "BND006" in select_rules(["ALL"])
    assert select_rules(["BND00"], ["BND003"]) == frozenset(RULES) - {"BND003"}
    with pytest.raises(ValueError, match="unknown bundle check code or prefix 'BND9'"):
        select_rules(["BND9"])
    docs = [svc("other", selector=None), vwc({"namespace": "ops", "name": "hook"})]
    assert check_bundle(docs, rules=select_rules(None, ["BND001"])) == []


def test_list_items_and_malformed_objects() -> None:
    lst = {"apiVersion": "v1", "kind": "List", "items": [svc("x", selector=None),
                                                         vwc({"namespace": "ops", "name": "hook"})]}
    assert codes([lst]) == [("BND001", 0, "items[1].webhooks[0].clientConfig.service")]
    junk: list[Any] = [None, "text", [], {"kind": 3}, {"apiVersion": "v1", "kind": "Service", "spec": []},
                       {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role", "rules": [None, {"resources": 3}]},
                       {"apiVersion": "apps/v1", "kind": "Deployment", "spec": {"template": "x"}}]
    assert codes(junk) == []


def test_a_bundle_without_roles_reads_no_builtin_catalog() -> None:
    """The RBAC checks read the release's built-in resources only for a Role or ClusterRole (the catalog's
    import and data cost ~10 ms of every `validate` without them)."""
    import subprocess
    import sys

    code = ("import sys\nfrom crdtool.core.bundle import check_bundle, select_rules\n"
            "docs = [{'apiVersion': 'v1', 'kind': 'Service', 'metadata': {'name': 's'}, 'spec': {'selector': {'a': 'b'}}},"
            " {'apiVersion': 'example.com/v1', 'kind': 'Widget', 'metadata': {'name': 'w'}}]\n"
            "assert check_bundle(docs, '1.37', rules=select_rules(['ALL'])) == []\n"
            "print('crdtool.core.builtin.catalog' in sys.modules)\n"
            "role = {'apiVersion': 'rbac.authorization.k8s.io/v1', 'kind': 'Role', 'metadata': {'name': 'r'},"
            " 'rules': [{'apiGroups': [''], 'resources': ['podz'], 'verbs': ['get']}]}\n"
            "print([f.code for f in check_bundle(docs + [role], '1.37', rules=select_rules(['ALL']))])\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert done.stdout.split("\n")[:2] == ["False", "['BND004']"]
