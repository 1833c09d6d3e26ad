"""Admission cases of ``crdtool test`` suites (issue 31): reading them, judging them with the admission chain
``crdtool admit`` runs, expression coverage through the chain's observer, and ``--update``'s new expectation.

Expected answers follow k8s.io/apiserver v0.34.0: ``validating/dispatcher.go`` (the denial text, the reason's
code), ``webhook/matchconditions/matcher.go`` (every matchCondition is evaluated, ``ForInput``; a false one
leaves the policy out, its validations unevaluated), ``validating/validator.go`` (all validations evaluated in
one ``ForInput`` call, whatever the first gives).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from crdtool.core.admission.chain import AdmitResult, admit
from crdtool.core.admission.policy.observer import EXPRESSION_OBSERVER
from crdtool.testing.coverage import Coverage, index_policies
from crdtool.testing.runner import admission_documents, check_admission, run
from crdtool.testing.suite import AdmissionExpectation, ExpectedText, load_suite
from crdtool.testing.update import admission_expectation_from

POLICY = """\
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: cm-size}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [configmaps]}
  matchConditions:
  - name: not-system
    expression: "!object.metadata.name.startsWith('system-')"
  validations:
  - expression: "size(object.data) <= 2"
    message: at most two keys
  - expression: "!('secret' in object.data)"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: cm-size-binding}
spec: {policyName: cm-size, validationActions: [Deny]}
---
apiVersion: v1
kind: Namespace
metadata: {name: default}
"""


def cm(name: str, **data: str) -> dict[str, Any]:
    return {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name, "namespace": "default"}, "data": data}


def suite_file(tmp_path: Path, cases: str, head: str = "objects: [bundle.yaml]\nkubernetesVersions: '1.34'\n") -> Path:
    (tmp_path / "bundle.yaml").write_text(POLICY)
    path = tmp_path / "s.crdtest.yaml"
    path.write_text(head + "cases:\n" + cases)
    return path


def test_an_objects_only_suite_of_admission_cases_reads(tmp_path: Path) -> None:
    suite = load_suite(str(suite_file(tmp_path, """\
  - name: too many keys
    admission: {object: {apiVersion: v1, kind: ConfigMap, metadata: {name: a}, data: {a: "1", b: "2", c: "3"}}}
    expect: {allowed: false, message: at most two keys, code: 422}
""")))
    assert suite.errors == [] and suite.crds == [] and len(suite.objects) == 3
    case = suite.cases[0]
    assert case.operation == "CREATE" and case.admission is not None and case.admission["operation"] == "CREATE"
    assert case.admission_expect == AdmissionExpectation(False, (ExpectedText("at most two keys"),), code=422)


@pytest.mark.parametrize(("case", "message"), [
    ("admission: {object: {}}\n    object: {}\n    expect: {allowed: true}", "object goes inside admission"),
    ("admission: {object: {}}\n    expect: {valid: true}", "unknown key 'valid' in the expect of an admission case"),
    ("admission: {object: {}}\n    expect: {message: x}", "expect.allowed: true or false"),
    ("admission: {object: {}}\n    expect: {allowed: true, message: x}", "contradicts the refusal's message"),
    ("admission: {operation: PATCH, object: {}}\n    expect: {allowed: true}", "admission.operation: one of CREATE"),
    ("admission: {userInfo: bob, object: {}}\n    expect: {allowed: true}", "admission.userInfo: a mapping"),
    ("admission: {}\n    expect: {allowed: true}", "object or oldObject is required"),
])
def test_malformed_admission_cases_are_suite_errors(tmp_path: Path, case: str, message: str) -> None:
    suite = load_suite(str(suite_file(tmp_path, f"  - name: c\n    {case}\n")))
    assert [e.message for e in suite.errors if message in e.message], suite.errors


def test_unknown_feature_gate_is_a_suite_error(tmp_path: Path) -> None:
    suite = load_suite(str(suite_file(tmp_path, "  []\n", "objects: [bundle.yaml]\nfeatureGates: {Nope: true}\n")))
    assert [e.message for e in suite.errors] == ["featureGates: unrecognized feature gate: Nope"]


class _Log:
    def __init__(self) -> None:
        self.paths: dict[int, str] = {}
        self.events: list[tuple[str, Any, str]] = []

    def compiled(self, kind: str, name: str, expressions: list[tuple[str, Any]]) -> None:
        self.paths.update((id(c), f"{kind}/{name}:{p}") for p, c in expressions)

    def evaluated(self, compilation: Any, value: Any, error: str) -> None:
        self.events.append((self.paths.get(id(compilation), "?"), value, error))


def _observe(obj: dict[str, Any]) -> tuple[AdmitResult, list[tuple[str, Any, str]]]:
    import yaml

    log = _Log()
    token = EXPRESSION_OBSERVER.set(log)  # type: ignore[arg-type]
    try:
        docs = [*yaml.safe_load_all(POLICY), {"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview",
                                              "request": {"operation": "CREATE", "object": obj}}]
        return admit(docs, "1.34"), log.events
    finally:
        EXPRESSION_OBSERVER.reset(token)


def test_the_observer_sees_each_expression_the_chain_evaluates() -> None:
    answer, events = _observe(cm("a", a="1", b="2", c="3"))
    assert not answer.allowed
    assert [(w, v, e) for w, v, e in events] == [
        ("ValidatingAdmissionPolicy/cm-size:spec.matchConditions[0].expression", True, ""),
        ("ValidatingAdmissionPolicy/cm-size:spec.validations[0].expression", False, ""),
        ("ValidatingAdmissionPolicy/cm-size:spec.validations[1].expression", True, ""),
    ]
    answer, events = _observe(cm("system-a", a="1", b="2", c="3"))  # matchCondition false: nothing else evaluated
    assert answer.allowed
    assert events == [("ValidatingAdmissionPolicy/cm-size:spec.matchConditions[0].expression", False, "")]


def test_the_observer_changes_no_answer() -> None:
    import yaml

    docs = [*yaml.safe_load_all(POLICY), {"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview",
                                          "request": {"operation": "CREATE", "object": cm("a", a="1", b="2", c="3")}}]
    assert _observe(cm("a", a="1", b="2", c="3"))[0].to_json() == admit(docs, "1.34").to_json()


def test_a_case_gets_the_answer_crdtool_admit_gives(tmp_path: Path) -> None:
    suite = load_suite(str(suite_file(tmp_path, """\
  - name: too many keys
    admission: {object: {apiVersion: v1, kind: ConfigMap, metadata: {name: a}, data: {a: "1", b: "2", c: "3"}}}
    expect: {allowed: false, reason: Invalid, message: "configmaps \\"a\\" is forbidden: ValidatingAdmissionPolicy 'cm-size' with binding 'cm-size-binding' denied request: at most two keys"}
  - name: a secret key
    admission: {object: {apiVersion: v1, kind: ConfigMap, metadata: {name: b}, data: {secret: "1"}}}
    expect: {allowed: false, message: "denied request: failed expression: !('secret' in object.data)"}
""")))
    result = run([suite])
    assert [r.problems for r in result.results] == [[], []]
    same = admit(admission_documents(suite, suite.cases[0].admission or {}), "1.34")
    assert result.results[0].admission.to_json() == same.to_json()
    assert result.results[0].admission.code == 422  # the default reason Invalid
    # coverage: both validations and the matchCondition were evaluated by some case
    assert sum(result.coverage.covered(k) for k in result.coverage.items) == 3


def test_a_policy_refused_at_create_is_an_error_of_the_case(tmp_path: Path) -> None:
    (tmp_path / "bad.yaml").write_text(POLICY.replace("size(object.data) <= 2", "size(object.data) <="))
    path = tmp_path / "s.crdtest.yaml"
    path.write_text("objects: [bad.yaml]\nkubernetesVersions: '1.34'\ncases:\n  - name: c\n"
                    "    admission: {object: {apiVersion: v1, kind: ConfigMap, metadata: {name: a}}}\n"
                    "    expect: {allowed: true}\n")
    result = run([load_suite(str(path))])
    assert result.results[0].outcome == "error"
    assert "ValidatingAdmissionPolicy 'cm-size' is refused by the apiserver on create" in result.results[0].problems[0]


def test_check_admission() -> None:
    denied = AdmitResult(False, 403, "Forbidden", "x is forbidden: denied request: no", warnings=["w1"],
                         audit_annotations={"p/k": "v"}, patched_object={"a": {"b": 1, "c": 2}})
    assert check_admission(AdmissionExpectation(False, (ExpectedText("denied request: no"),), 403, "Forbidden",
                                                (ExpectedText("w1"),), {"p/k": "v"}, {"a": {"b": 1}}, True), denied) == []
    assert check_admission(AdmissionExpectation(True, audit_annotations={"p/k": "w", "q/k": "v"},
                                                has_patched_object=True), denied) == [
        "expected the request to be allowed, got denied (403 Forbidden): x is forbidden: denied request: no",
        "audit annotation p/k: expected 'w', got 'v'",
        "expected audit annotation not published: q/k",
        "expected no mutation, but the object was patched",
    ]


def test_update_states_a_refusal_without_what_was_not_stored() -> None:
    denied = AdmitResult(False, 403, "Forbidden", "m", warnings=["w"], audit_annotations={"p/k": "v"},
                         patched_object={"a": 1})
    assert admission_expectation_from(denied, {"allowed": True}) == {"allowed": False, "message": "m",
                                                                     "warnings": ["w"]}
    assert admission_expectation_from(denied, {"code": 1, "patchedObject": None}) == {
        "allowed": False, "message": "m", "code": 403, "warnings": ["w"], "patchedObject": {"a": 1}}
    allowed = AdmitResult(audit_annotations={"p/k": "v"})
    assert admission_expectation_from(allowed, {"patchedObject": {}}) == {
        "allowed": True, "auditAnnotations": {"p/k": "v"}, "patchedObject": None}


def test_index_policies_names_each_expression_where_it_is_written(tmp_path: Path) -> None:
    suite = load_suite(str(suite_file(tmp_path, "  []\n")))
    index = index_policies(suite.objects)
    rows = sorted((i.kind, i.line, i.path) for i in index.items.values())
    assert rows == [("matchCondition", 10, "spec.matchConditions[0].expression"),
                    ("validation", 12, "spec.validations[0].expression"),
                    ("validation", 14, "spec.validations[1].expression")]
    cov = Coverage()
    cov.add_items(index)
    key = index.expressions[("ValidatingAdmissionPolicy", "cm-size", "spec.validations[1].expression")]
    cov.record(key, True, "c")  # evaluated once, passing: a policy expression is covered when evaluated
    assert cov.covered(key) and cov.percent() == pytest.approx(100 / 3)
