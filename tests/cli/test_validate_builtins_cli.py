"""``crdtool validate`` judges built-in kinds per release, with kubectl's ``metav1.Status`` in ``apiStatus``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from crdtool.cli.app import app

BUNDLE = """\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: "3"
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: psp:rook
---
apiVersion: flowcontrol.apiserver.k8s.io/v1beta3
kind: FlowSchema
metadata:
  name: fs
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: cm
foo: 1
---
apiVersion: example.com/v1
kind: Widget
metadata:
  name: w
"""


def _run(tmp_path: Path, *args: str) -> tuple[int, Any]:
    path = tmp_path / "bundle.yaml"
    path.write_text(BUNDLE)
    result = CliRunner().invoke(app, ["validate", str(path), "--output", "json", *args])
    return result.exit_code, json.loads(result.stdout)


def test_builtins_are_judged_with_api_status(tmp_path: Path) -> None:
    code, data = _run(tmp_path, "--kubernetes-version", "1.31")
    assert code == 1
    docs = data["documents"]
    assert [(d["kind"], d["status"]) for d in docs] == [
        ("Deployment", "invalid"), ("ClusterRole", "valid"), ("FlowSchema", "valid"), ("ConfigMap", "invalid"),
        ("Widget", "invalid"),  # a custom resource whose CRD is nowhere: kubectl's "no matches for kind" (#27)
    ]
    deployment = docs[0]
    assert deployment["errors"][0]["line"] == 6
    assert deployment["apiStatus"] == {
        "kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
        "message": 'Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string '
                   "into Go struct field DeploymentSpec.spec.replicas of type int32",
        "reason": "BadRequest", "code": 400,
    }
    assert docs[1]["apiStatus"]["status"] == "Success"
    assert docs[2]["warnings"] == [
        "flowcontrol.apiserver.k8s.io/v1beta3 FlowSchema is deprecated in v1.29+, unavailable in v1.32+; "
        "use flowcontrol.apiserver.k8s.io/v1 FlowSchema"]
    assert docs[3]["apiStatus"]["message"].endswith('strict decoding error: unknown field "foo"')
    assert "apiStatus" not in docs[4]


def test_the_matrix_says_which_releases_serve_the_bundle(tmp_path: Path) -> None:
    code, data = _run(tmp_path, "--kubernetes-version", "1.31-1.32")
    flowschema = data["documents"][2]
    assert flowschema["status"] == "invalid"
    assert flowschema["kubernetesVersions"]["1.31"]["status"] == "valid"
    assert flowschema["kubernetesVersions"]["1.32"]["apiStatus"]["reason"] == "NotFound"
    assert flowschema["errors"][0]["kubernetesVersions"] == ["1.32"]
    assert "removed in v1.32; use flowcontrol.apiserver.k8s.io/v1 FlowSchema" in flowschema["errors"][0]["message"]


def test_field_validation_warn(tmp_path: Path) -> None:
    _, data = _run(tmp_path, "--field-validation", "Warn", "--kubernetes-version", "1.37")
    configmap = data["documents"][3]
    assert (configmap["status"], configmap["warnings"]) == ("valid", ['unknown field "foo"'])


def test_default_decodes_builtins_without_a_crd(tmp_path: Path) -> None:
    path = tmp_path / "bundle.yaml"
    path.write_text(BUNDLE)
    result = CliRunner().invoke(app, ["default", str(path), "--output", "json", "--kubernetes-version", "1.31"])
    assert result.exit_code == 2  # the Deployment's replicas cannot be decoded
    assert 'bundle.yaml:1: Deployment in version "v1" cannot be handled as a Deployment' in result.stderr
    objects = json.loads(result.stdout)
    assert {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "cm"}} in objects  # foo dropped
    assert {"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"}} in objects  # passed through


def test_python_api_validate_object_takes_a_builtin() -> None:
    import crdtool

    errors = crdtool.validate_object({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "A"}},
                                     kubernetes_version="1.30")
    assert [(e.type, e.field) for e in errors] == [("FieldValueInvalid", "metadata.name")]
    assert crdtool.create_builtin({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a"}}, "1.30").ok


def test_checks_across_the_bundle_are_warnings(tmp_path: Path) -> None:
    path = tmp_path / "bundle.yaml"
    path.write_text(
        "apiVersion: v1\nkind: Service\nmetadata: {name: hook, namespace: sys}\n"
        "spec: {selector: {app: ctl}, ports: [{port: 443}]}\n---\n"
        "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingWebhookConfiguration\nmetadata: {name: v}\n"
        "webhooks:\n- name: a.example.com\n  sideEffects: None\n  admissionReviewVersions: [v1]\n"
        "  clientConfig: {service: {name: hook, namespace: sys, port: 8443}}\n"
    )
    result = CliRunner().invoke(app, ["validate", str(path), "--output", "json"])
    assert result.exit_code == 0
    docs = json.loads(result.stdout)["documents"]
    assert docs[1]["status"] == "valid"
    assert docs[1]["warnings"] == [
        'BND002 webhook-service-port: webhook "a.example.com" of ValidatingWebhookConfiguration "v" calls port 8443 '
        'of Service "sys/hook", which exposes port 443']


WEBHOOKS = """\
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: good}
webhooks:
- name: good.example.com
  sideEffects: NoneOnDryRun
  admissionReviewVersions: [v1, v1beta1]
  clientConfig: {url: "https://hooks.example.com/validate"}
  rules: [{operations: [CREATE], apiGroups: [apps], apiVersions: [v1], resources: [deployments, deployments/scale]}]
  matchConditions: [{name: not-system, expression: "!request.userInfo.username.startsWith('system:')"}]
---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingWebhookConfiguration
metadata: {name: bad}
webhooks:
- name: foo
  sideEffects: Some
  clientConfig: {}
  timeoutSeconds: 60
  matchConditions: [{name: c, expression: "object.x in [1, 2, "}]
"""


def test_webhook_configurations_get_the_apiservers_native_validation(tmp_path: Path) -> None:
    """``ValidateValidatingWebhookConfiguration`` / ``ValidateMutatingWebhookConfiguration`` (kubernetes
    pkg/apis/admissionregistration/validation/validation.go, v1.36): the texts are upstream's."""
    path = tmp_path / "webhooks.yaml"
    path.write_text(WEBHOOKS)
    result = CliRunner().invoke(app, ["validate", str(path), "--output", "json", "--kubernetes-version", "1.36"])
    assert result.exit_code == 1
    good, bad = json.loads(result.stdout)["documents"]
    assert (good["status"], good["errors"]) == ("valid", [])
    assert bad["status"] == "invalid"
    assert [(e["field"], e["message"]) for e in bad["errors"]] == [
        ("webhooks[0].name", 'webhooks[0].name: Invalid value: "foo": should be a domain with at least three segments '
                             "separated by dots"),
        ("webhooks[0].sideEffects", 'webhooks[0].sideEffects: Unsupported value: "Some": supported values: "None", '
                                    '"NoneOnDryRun"'),
        ("webhooks[0].timeoutSeconds", "webhooks[0].timeoutSeconds: Invalid value: 60: the timeout value must be "
                                       "between 1 and 30 seconds"),
        ("webhooks[0].clientConfig", "webhooks[0].clientConfig: Required value: exactly one of url or service is required"),
        ("webhooks[0].matchConditions[0].expression",
         'webhooks[0].matchConditions[0].expression: Invalid value: "object.x in [1, 2,": compilation failed: '
         "ERROR: <input>:1:19: Syntax error: missing ']' at '<EOF>'\n | object.x in [1, 2,\n | ..................^"),
        ("webhooks[0].admissionReviewVersions",
         "webhooks[0].admissionReviewVersions: Required value: must specify one of v1, v1beta1"),
    ]
    assert bad["apiStatus"]["reason"] == "Invalid"


POLICIES = """\
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: p}
spec:
  paramKind: {apiVersion: example.com/v1, kind: Config_Map}
  matchConstraints:
    namespaceSelector:
      matchExpressions: [{key: env, operator: In}]
    resourceRules:
    - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments], resourceNames: [a/b]}
  validations: [{expression: "true"}]
---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicyBinding
metadata: {name: b}
spec:
  policyName: p
  paramRef: {name: cfg}
  matchResources:
    resourceRules:
    - {apiGroups: [apps], apiVersions: [v1], operations: [DELETE], resources: [deployments]}
"""


def test_admission_policies_get_the_apiservers_native_validation(tmp_path: Path) -> None:
    """``ValidateValidatingAdmissionPolicy`` / ``ValidateMutatingAdmissionPolicyBinding`` (kubernetes
    pkg/apis/admissionregistration/validation/validation.go @release-4.23 = v1.36) after the v1 defaults: the
    texts are upstream's, in its order."""
    path = tmp_path / "policies.yaml"
    path.write_text(POLICIES)
    result = CliRunner().invoke(app, ["validate", str(path), "--output", "json", "--kubernetes-version", "1.36"])
    assert result.exit_code == 1
    policy, binding = json.loads(result.stdout)["documents"]
    assert [e["message"] for e in policy["errors"]] == [
        'spec.paramKind.kind: Invalid value: "Config_Map": may have mixed case, but should otherwise match: a DNS-1035 '
        "label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end "
        "with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is "
        "'[a-z]([-a-z0-9]*[a-z0-9])?')",
        "spec.matchConstraints.namespaceSelector.matchExpressions[0].values: Required value: must be specified when "
        "`operator` is 'In' or 'NotIn'",
        "spec.matchConstraints.resourceRules[0].resourceNames[0]: Invalid value: \"a/b\": may not contain '/'",
    ]
    assert [e["message"] for e in binding["errors"]] == [
        "spec.paramRef.parameterNotFoundAction: Required value",
        'spec.matchResources.resourceRules.operations: Unsupported value: "DELETE": supported values: "*", "CONNECT", '
        '"CREATE", "UPDATE"',
    ]
