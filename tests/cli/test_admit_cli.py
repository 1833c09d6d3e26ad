"""``crdtool admit``: golden output (text and ``-o json``) for a syntax error, a type-check warning, a deny, a
warn, an audit annotation, a failurePolicy=Ignore runtime error and a missing namespace; exit codes; input errors.

The golden files (``tests/golden/admit``) were checked by hand against k8s.io/apiserver v0.34.0
(``validating/dispatcher.go``: the denial, warning and ``validation_failure`` texts; ``validator.go``: message
fallbacks, reason and code; ``typechecking.go``: ``<GVK>: <issues>\\n``; ``cel/activation.go``; kubernetes
``pkg/apis/admissionregistration/validation``: ``Invalid value: "<expr>": compilation failed: ...``;
``namespace/lifecycle/admission.go`` with ``apierrors.NewNotFound``). Regenerate with
``CRDTOOL_REGEN_GOLDEN=1`` and review the diff.

``authorizer-allowed``/``authorizer-denied``: a policy calling ``authorizer…check('create').allowed()`` with RBAC
objects in the bundle; the reason is rbac.go's ``RBAC: allowed by %s`` with rule.go's ``roleBindingDescriber``
(``RoleBinding "<name>/<ns>" of Role "<role>" to User "<user>"``), the denial dispatcher.go's
``ValidatingAdmissionPolicy '%s' with binding '%s' denied request: %s`` behind ``NewForbidden``'s
``<resource> "<name>" is forbidden: `` (reason Forbidden: 403), checked by hand against kubernetes release-4.22
(openshift/microshift) and k8s.io/apiserver v0.34.0.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from crdtool.cli.app import app

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "admit"
CASES = sorted(p.stem for p in GOLDEN.glob("*.yaml") if not p.name.startswith("_"))
EXIT = {"deny": 1, "missing-namespace": 1, "syntax-error": 1, "authorizer-denied": 1}
#: MutatingAdmissionPolicy is beta and off by default at 1.34 (kube_features.go @v0.34.0), GA and on from 1.36
ARGS = {"mutation": ("--feature-gates", "MutatingAdmissionPolicy=true")}


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args), env={"NO_COLOR": "1"})
    return result.exit_code, result.stdout


@pytest.mark.parametrize("output", ["text", "json"])
@pytest.mark.parametrize("case", CASES)
def test_admit_matches_golden(case: str, output: str) -> None:
    code, out = _run("admit", str(GOLDEN / f"{case}.yaml"), "--kubernetes-version", "1.34", "-o", output,
                     *ARGS.get(case, ()))
    expected = GOLDEN / f"{case}.{'json' if output == 'json' else 'txt'}"
    if os.environ.get("CRDTOOL_REGEN_GOLDEN") == "1":
        expected.write_text(out, encoding="utf-8")
    assert out == expected.read_text(encoding="utf-8")
    assert code == EXIT.get(case, 0)


@pytest.mark.parametrize("release", ["1.30", "1.37"])
@pytest.mark.parametrize("case", ["deny", "warn", "audit-annotation", "type-check-warning", "missing-namespace",
                                  "ignore-runtime-error", "syntax-error", "authorizer-denied"])
def test_same_answer_on_1_30_and_1_37(case: str, release: str) -> None:
    _, out = _run("admit", str(GOLDEN / f"{case}.yaml"), "--kubernetes-version", release, "-o", "json")
    assert json.loads(out) == json.loads((GOLDEN / f"{case}.json").read_text(encoding="utf-8"))


def test_convenience_flags_build_the_request(tmp_path: Path) -> None:
    bundle = (GOLDEN / "deny.yaml").read_text(encoding="utf-8").split("\n---\napiVersion: admission.k8s.io/v1")[0]
    (tmp_path / "bundle.yaml").write_text(bundle, encoding="utf-8")
    (tmp_path / "obj.yaml").write_text(
        "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w2, namespace: team-a}\nspec: {replicas: 9}\n",
        encoding="utf-8")
    code, out = _run("admit", str(tmp_path / "bundle.yaml"), "--object", str(tmp_path / "obj.yaml"), "--user", "bob",
                     "-o", "json")
    assert code == 1
    assert json.loads(out)["message"].endswith("denied request: widget w2 asks for 9 replicas, at most 5")


def test_input_errors_exit_2(tmp_path: Path) -> None:
    (tmp_path / "none.yaml").write_text("apiVersion: v1\nkind: Namespace\nmetadata: {name: a}\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["admit", str(tmp_path / "none.yaml")])
    assert result.exit_code == 2
    assert "exactly one admission.k8s.io/v1 AdmissionReview" in result.stderr
    result = CliRunner().invoke(app, ["admit", str(GOLDEN / "deny.yaml"), "--feature-gates", "Nope=true"])
    assert result.exit_code == 2 and "unrecognized feature gate: Nope" in result.stderr


def test_validate_judges_policy_documents() -> None:
    result = CliRunner().invoke(app, ["validate", str(GOLDEN / "syntax-error.yaml"), str(GOLDEN / "type-check-warning.yaml"),
                                      "--kubernetes-version", "1.34", "--output", "json"])
    docs = {(d["file"].rsplit("/", 1)[-1], d["kind"]): d for d in json.loads(result.stdout)["documents"]}
    bad = docs[("syntax-error.yaml", "ValidatingAdmissionPolicy")]
    assert bad["status"] == "invalid" and bad["errors"][0]["field"] == "spec.validations[0].expression"
    assert bad["errors"][0]["line"] == 38
    ok = docs[("type-check-warning.yaml", "ValidatingAdmissionPolicy")]
    assert ok["status"] == "valid" and "undefined field 'size'" in ok["warnings"][0]
    assert docs[("type-check-warning.yaml", "ValidatingAdmissionPolicyBinding")]["status"] == "valid"


def test_mutation_by_release_and_gate() -> None:
    golden = json.loads((GOLDEN / "mutation.json").read_text(encoding="utf-8"))
    _, out = _run("admit", str(GOLDEN / "mutation.yaml"), "--kubernetes-version", "1.37", "-o", "json")
    assert json.loads(out) == golden  # GA and on by default from 1.36
    code, out = _run("admit", str(GOLDEN / "mutation.yaml"), "--kubernetes-version", "1.34", "-o", "json")
    off = json.loads(out)
    assert code == 1 and "patchedObject" not in off and off["allowed"] is False
    assert [r["kind"] for r in off["rejected"]] == ["MutatingAdmissionPolicy", "MutatingAdmissionPolicyBinding"]


@pytest.mark.parametrize(("release", "field"), [("1.31", "matchResouces"), ("1.37", "matchResources")])
def test_binding_the_apiserver_refuses_takes_no_part(tmp_path: Path, release: str, field: str) -> None:
    """A binding with a resourceName that is no path segment is refused at create (kubernetes
    pkg/apis/admissionregistration/validation ``validateNamedRuleWithOperations``; the field spelled ``matchResouces``
    in release-4.18 = 1.31): the policy is not bound, the request that ``deny`` denies is allowed; the refusal
    is a finding (exit 1)."""
    bundle = (GOLDEN / "deny.yaml").read_text(encoding="utf-8").replace(
        "    namespaceSelector: {matchLabels: {env: prod}}\n",
        "    namespaceSelector: {matchLabels: {env: prod}}\n    resourceRules:\n    - {apiGroups: [example.com], "
        "apiVersions: [v1], operations: [CREATE], resources: [widgets], resourceNames: [w/1]}\n", 1)
    (tmp_path / "bundle.yaml").write_text(bundle, encoding="utf-8")
    code, out = _run("admit", str(tmp_path / "bundle.yaml"), "--kubernetes-version", release, "-o", "json")
    result = json.loads(out)
    assert code == 1 and result["allowed"] is True
    assert result["rejected"] == [{"kind": "ValidatingAdmissionPolicyBinding", "name": "widget-binding", "errors": [
        f"spec.{field}.resourceRules[0].resourceNames[0]: Invalid value: \"w/1\": may not contain '/'"]}]
