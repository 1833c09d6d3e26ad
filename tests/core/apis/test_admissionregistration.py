"""admissionregistration.k8s.io/v1 webhook configurations at create.

Cases from kubernetes/kubernetes ``pkg/apis/admissionregistration/validation/validation_test.go``
``TestValidateValidatingWebhookConfiguration`` and ``TestValidateMutatingWebhookConfiguration`` (the two tables are
the same cases; openshift/microshift ``release-4.22`` = v1.35, and ``release-4.18`` = v1.31 for the ``%#v`` bad
values): upstream calls ``Validate<Kind>WebhookConfiguration`` on the internal object, not defaulted, and checks
that ``errs.ToAggregate().Error()`` contains the expected text (:func:`aggregate`). The create path's defaults and
strategy are checked against ``pkg/apis/admissionregistration/v1/defaults.go`` and the strategies'
``strategy.go``.
"""

from __future__ import annotations

from typing import Any

import pytest

from crdtool.core.apis.admissionregistration.validation import (
    validate_mutating_webhook_configuration,
    validate_validating_webhook_configuration,
)
from crdtool.core.releases import resolve_release
from tests.core.apis._create import create, pairs

VALID_CLIENT_CONFIG = {"url": "https://example.com"}


def aggregate(errs: list[Any]) -> str:
    """``field.ErrorList.ToAggregate().Error()``: one message alone, several as ``[a, b]`` (duplicates once)."""
    msgs = list(dict.fromkeys(str(e) for e in errs))
    return msgs[0] if len(msgs) == 1 else "[" + ", ".join(msgs) + "]"


def hook(name: str = "webhook.k8s.io", client_config: dict[str, Any] | None = None, **fields: Any) -> dict[str, Any]:
    """A webhook as upstream's cases write it (its fields in their JSON names)."""
    return {"name": name, "clientConfig": VALID_CLIENT_CONFIG if client_config is None else client_config, **fields}


def rule(ops: list[str] | None, resources: list[str], **fields: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"apiGroups": ["a"], "apiVersions": ["a"], "resources": resources, **fields}
    if ops is not None:
        out["operations"] = ops
    return out


def service(path: str | None, port: int = 443) -> dict[str, Any]:
    out: dict[str, Any] = {"namespace": "ns", "name": "n", "port": port}
    if path is not None:
        out["path"] = path
    return {"service": out}


def configuration(hooks: list[dict[str, Any]], default_admission_review_versions: bool = True) -> dict[str, Any]:
    """``newValidatingWebhookConfiguration``: ``admissionReviewVersions`` [v1beta1] where a case has none (if asked)."""
    for h in hooks:
        if default_admission_review_versions and not h.get("admissionReviewVersions"):
            h["admissionReviewVersions"] = ["v1beta1"]
    return {"metadata": {"name": "config"}, "webhooks": hooks}


NONE = {"sideEffects": "None"}
UNKNOWN = {"sideEffects": "Unknown"}
_NAME_MSG = ("name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
             "alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
             "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')")

#: (upstream case name, webhooks, default admissionReviewVersions, expected text; "" = no error), @v1.35.
CASES: list[tuple[str, list[dict[str, Any]], bool, str]] = [
    ("AdmissionReviewVersions are required", [hook(**UNKNOWN)], False,
     "webhooks[0].admissionReviewVersions: Required value: must specify one of v1, v1beta1"),
    ("should fail on bad AdmissionReviewVersion value", [hook(admissionReviewVersions=["0v"])], True,
     'Invalid value: "0v": a DNS-1035 label'),
    ("should pass on valid AdmissionReviewVersion", [hook(admissionReviewVersions=["v1beta1"], **NONE)], True, ""),
    ("should pass on mix of accepted and unaccepted AdmissionReviewVersion",
     [hook(admissionReviewVersions=["v1beta1", "invalid-version"], **NONE)], True, ""),
    ("should fail on invalid AdmissionReviewVersion", [hook(admissionReviewVersions=["invalidVersion"])], True,
     'Invalid value: ["invalidVersion"]'),
    ("should fail on duplicate AdmissionReviewVersion", [hook(admissionReviewVersions=["v1beta1", "v1beta1"])], True,
     'Invalid value: "v1beta1": duplicate version'),
    ("all Webhooks must have a fully qualified name", [hook(**NONE), hook("k8s.io", **NONE), hook("", **NONE)], True,
     'webhooks[1].name: Invalid value: "k8s.io": should be a domain with at least three segments separated by dots, '
     "webhooks[2].name: Required value"),
    ("Webhooks must have unique names when created", [hook(**UNKNOWN), hook(**UNKNOWN)], True,
     'webhooks[1].name: Duplicate value: "webhook.k8s.io"'),
    ("Operations must not be empty or nil", [hook(rules=[rule([], ["a"]), rule(None, ["a"])])], True,
     "webhooks[0].rules[0].operations: Required value, webhooks[0].rules[1].operations: Required value"),
    ('"" is NOT a valid operation', [hook(rules=[rule(["CREATE", ""], ["a"])])], True, 'Unsupported value: ""'),
    ("operation must be either create/update/delete/connect", [hook(rules=[rule(["PATCH"], ["a"])])], True,
     'Unsupported value: "PATCH"'),
    ("wildcard operation cannot be mixed with other strings", [hook(rules=[rule(["CREATE", "*"], ["a"])])], True,
     "if '*' is present, must not specify other operations"),
    ('resource "*" can co-exist with resources that have subresources',
     [hook(rules=[rule(["CREATE"], ["*", "a/b", "a/*", "*/b"])], **NONE)], True, ""),
    ('resource "*" cannot mix with resources that don\'t have subresources',
     [hook(rules=[rule(["CREATE"], ["*", "a"])], **UNKNOWN)], True,
     "if '*' is present, must not specify other resources without subresources"),
    ("resource a/* cannot mix with a/x", [hook(rules=[rule(["CREATE"], ["a/*", "a/x"])], **UNKNOWN)], True,
     "webhooks[0].rules[0].resources[1]: Invalid value: \"a/x\": if 'a/*' is present, must not specify a/x"),
    ("resource a/* can mix with a", [hook(rules=[rule(["CREATE"], ["a/*", "a"])], **NONE)], True, ""),
    ("resource */a cannot mix with x/a", [hook(rules=[rule(["CREATE"], ["*/a", "x/a"])], **UNKNOWN)], True,
     "webhooks[0].rules[0].resources[1]: Invalid value: \"x/a\": if '*/a' is present, must not specify x/a"),
    ("resource */* cannot mix with other resources", [hook(rules=[rule(["CREATE"], ["*/*", "a"])], **UNKNOWN)], True,
     "webhooks[0].rules[0].resources: Invalid value: [\"*/*\",\"a\"]: if '*/*' is present, must not specify other resources"),
    ('FailurePolicy can only be "Ignore" or "Fail"', [hook(failurePolicy="other", **UNKNOWN)], True,
     'webhooks[0].failurePolicy: Unsupported value: "other": supported values: "Fail", "Ignore"'),
    ("SideEffects are required", [hook()], True,
     "webhooks[0].sideEffects: Required value: must specify one of None, NoneOnDryRun"),
    ('SideEffects can only be "None" or "NoneOnDryRun" when created', [hook(sideEffects="other")], True,
     'webhooks[0].sideEffects: Unsupported value: "other": supported values: "None", "NoneOnDryRun"'),
    ("both service and URL missing", [hook(client_config={})], True, "exactly one of"),
    ("both service and URL provided",
     [hook(client_config={**service(None), "url": "example.com/k8s/webhook"})], True,
     "[0].clientConfig: Required value: exactly one of url or service is required"),
    ("blank URL", [hook(client_config={"url": ""})], True, '[0].clientConfig.url: Invalid value: "": host must be specified'),
    ("wrong scheme", [hook(client_config={"url": "http://example.com"})], True, "https"),
    ("missing host", [hook(client_config={"url": "https:///fancy/webhook"})], True, "host must be specified"),
    ("fragment", [hook(client_config={"url": "https://example.com/#bookmark"})], True,
     '"bookmark": fragments are not permitted'),
    ("query", [hook(client_config={"url": "https://example.com?arg=value"})], True,
     '"arg=value": query parameters are not permitted'),
    ("user", [hook(client_config={"url": "https://harry.potter@example.com/"})], True,
     '"harry.potter": user information is not permitted'),
    ("just totally wrong", [hook(client_config={"url": "arg#backwards=thisis?html.index/port:host//:https"})], True,
     "host must be specified"),
    ("path must start with slash", [hook(client_config=service("foo/"))], True,
     "clientConfig.service.path: Invalid value: \"foo/\": must start with a '/'"),
    ("path accepts slash", [hook(client_config=service("/"), **NONE)], True, ""),
    ("path accepts no trailing slash", [hook(client_config=service("/foo"), **NONE)], True, ""),
    ("path fails //", [hook(client_config=service("//"), **NONE)], True,
     'clientConfig.service.path: Invalid value: "//": segment[0] may not be empty'),
    ("path no empty step", [hook(client_config=service("/foo//bar/"), **UNKNOWN)], True,
     'clientConfig.service.path: Invalid value: "/foo//bar/": segment[1] may not be empty'),
    ("path no empty step 2", [hook(client_config=service("/foo/bar//"), **UNKNOWN)], True,
     'clientConfig.service.path: Invalid value: "/foo/bar//": segment[2] may not be empty'),
    ("path no non-subdomain", [hook(client_config=service("/apis/foo.bar/v1alpha1/--bad"), **UNKNOWN)], True,
     'clientConfig.service.path: Invalid value: "/apis/foo.bar/v1alpha1/--bad": segment[3]: a lowercase RFC 1123 subdomain'),
    ("invalid port 0", [hook(client_config=service("https://apis/foo.bar", 0), **UNKNOWN)], True,
     "Invalid value: 0: port is not valid: must be between 1 and 65535, inclusive"),
    ("invalid port >65535", [hook(client_config=service("https://apis/foo.bar", 65536), **UNKNOWN)], True,
     "Invalid value: 65536: port is not valid: must be between 1 and 65535, inclusive"),
    ("timeout seconds cannot be greater than 30", [hook(timeoutSeconds=31, **UNKNOWN)], True,
     "webhooks[0].timeoutSeconds: Invalid value: 31: the timeout value must be between 1 and 30 seconds"),
    ("timeout seconds cannot be smaller than 1", [hook(timeoutSeconds=0, **UNKNOWN)], True,
     "webhooks[0].timeoutSeconds: Invalid value: 0: the timeout value must be between 1 and 30 seconds"),
    ("timeout seconds must be positive", [hook(timeoutSeconds=-1, **UNKNOWN)], True,
     "webhooks[0].timeoutSeconds: Invalid value: -1: the timeout value must be between 1 and 30 seconds"),
    ("valid timeout seconds", [hook(timeoutSeconds=1, **NONE), hook("webhook2.k8s.io", timeoutSeconds=15, **NONE),
                               hook("webhook3.k8s.io", timeoutSeconds=30, **NONE)], True, ""),
    ("single match condition must have a name", [hook(matchConditions=[{"expression": "true"}], **NONE)], True,
     "webhooks[0].matchConditions[0].name: Required value"),
    ("all match conditions must have a name",
     [hook(matchConditions=[{"expression": "true"}, {"expression": "true"}], **NONE),
      hook(matchConditions=[{"name": "", "expression": "true"}], **NONE)], True,
     "webhooks[0].matchConditions[0].name: Required value, webhooks[0].matchConditions[1].name: Required value, "
     "webhooks[1].matchConditions[0].name: Required value"),
    ("single match condition must have a qualified name",
     [hook(matchConditions=[{"name": "-hello", "expression": "true"}], **NONE)], True,
     f'webhooks[0].matchConditions[0].name: Invalid value: "-hello": {_NAME_MSG}'),
    ("all match conditions must have qualified names",
     [hook(matchConditions=[{"name": ".io", "expression": "true"}, {"name": "thing.test.com", "expression": "true"}], **NONE),
      hook("webhook2.k8s.io", matchConditions=[{"name": "some name", "expression": "true"}], **NONE)], True,
     f'[webhooks[0].matchConditions[0].name: Invalid value: ".io": {_NAME_MSG}, '
     f'webhooks[1].matchConditions[0].name: Invalid value: "some name": {_NAME_MSG}]'),
    ("expression is required", [hook(matchConditions=[{"name": "webhook.k8s.io"}], **NONE)], True,
     "webhooks[0].matchConditions[0].expression: Required value"),
    ("expression is required to have some value",
     [hook(matchConditions=[{"name": "webhook.k8s.io", "expression": ""}], **NONE)], True,
     "webhooks[0].matchConditions[0].expression: Required value"),
    ("invalid expression", [hook(matchConditions=[{"name": "webhook.k8s.io", "expression": "object.x in [1, 2, "}], **NONE)],
     True, "webhooks[0].matchConditions[0].expression: Invalid value: \"object.x in [1, 2,\": compilation failed: "
     "ERROR: <input>:1:19: Syntax error: missing ']' at '<EOF>'"),
    ("unique names same hook",
     [hook(matchConditions=[{"name": "webhook.k8s.io", "expression": "true"}] * 2, **NONE)], True,
     'matchConditions[1].name: Duplicate value: "webhook.k8s.io"'),
    ("repeat names allowed across different hooks",
     [hook(matchConditions=[{"name": "webhook.k8s.io", "expression": "true"}], **NONE),
      hook("webhook2.k8s.io", matchConditions=[{"name": "webhook.k8s.io", "expression": "true"}], **NONE)], True, ""),
    ("must evaluate to bool", [hook(matchConditions=[{"name": "webhook.k8s.io", "expression": "6"}], **NONE)], True,
     'webhooks[0].matchConditions[0].expression: Invalid value: "6": must evaluate to bool'),
    ("max of 64 match conditions",
     [hook(matchConditions=[{"name": f"test{n}", "expression": "true"} for n in range(65)], **NONE)], True,
     "webhooks[0].matchConditions: Too many: 65: must have at most 64 items"),
]

_VALIDATORS = {"Validating": validate_validating_webhook_configuration, "Mutating": validate_mutating_webhook_configuration}


@pytest.mark.parametrize("kind", sorted(_VALIDATORS))
@pytest.mark.parametrize(("hooks", "default_versions", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_upstream_webhook_configuration_cases_1_35(kind: str, hooks: list[dict[str, Any]], default_versions: bool,
                                                   expected: str) -> None:
    import copy

    cfg = configuration(copy.deepcopy(hooks), default_versions)
    errs = _VALIDATORS[kind](cfg, resolve_release("1.35"))
    if expected:
        assert errs and expected in aggregate(errs), aggregate(errs) if errs else "no error"
    else:
        assert errs == []


@pytest.mark.parametrize(("hooks", "expected"), [
    # release-4.18 (v1.31) validation_test.go: slices as Go's %#v
    ([hook(admissionReviewVersions=["invalidVersion"])], 'Invalid value: []string{"invalidVersion"}'),
    ([hook(rules=[rule(["CREATE"], ["*/*", "a"])], **UNKNOWN)],
     "webhooks[0].rules[0].resources: Invalid value: []string{\"*/*\", \"a\"}: if '*/*' is present, must not specify other resources"),
])
def test_upstream_bad_values_before_1_34(hooks: list[dict[str, Any]], expected: str) -> None:
    from crdtool.core.errors import errors_at_release

    rel = resolve_release("1.31")
    errs = errors_at_release(validate_validating_webhook_configuration(configuration(hooks), rel), rel)
    assert expected in aggregate(errs)


def test_reinvocation_policy_is_checked_on_mutating_webhooks_only() -> None:
    """validateMutatingWebhook: ``supportedReinvocationPolicies`` (IfNeeded, Never); validateValidatingWebhook has no
    such field."""
    hooks = [hook(reinvocationPolicy="Sometimes", admissionReviewVersions=["v1"], **NONE)]
    errs = validate_mutating_webhook_configuration(configuration(hooks), resolve_release("1.36"))
    assert [str(e) for e in errs] == [
        'webhooks[0].reinvocationPolicy: Unsupported value: "Sometimes": supported values: "IfNeeded", "Never"']
    assert validate_validating_webhook_configuration(configuration(hooks), resolve_release("1.36")) == []


def test_service_reference_required_fields_are_swapped_and_terse_from_1_34() -> None:
    """Upstream passes ``(Service.Name, Service.Namespace)`` to ``ValidateWebhookService(fldPath, namespace, name, …)``:
    a missing name is reported at ``service.namespace`` and the other way round; the details are empty from
    apiserver v0.34 (``service name is required`` / ``service namespace is required`` before)."""
    hooks = [hook(client_config={"service": {"name": "", "namespace": "ns", "port": 443}},
                  admissionReviewVersions=["v1"], **NONE)]
    assert [str(e) for e in validate_validating_webhook_configuration(configuration(hooks), resolve_release("1.36"))] == [
        "webhooks[0].clientConfig.service.namespace: Required value"]
    assert [str(e) for e in validate_validating_webhook_configuration(configuration(hooks), resolve_release("1.33"))] == [
        "webhooks[0].clientConfig.service.namespace: Required value: service namespace is required"]


def test_label_selectors_are_validated() -> None:
    """``metav1validation.ValidateLabelSelector`` on namespaceSelector and objectSelector (invalid label values
    refused on create)."""
    hooks = [hook(namespaceSelector={"matchExpressions": [{"key": "a", "operator": "Bad"}]},
                  objectSelector={"matchLabels": {"a": "-x-"}}, admissionReviewVersions=["v1"], **NONE)]
    errs = validate_validating_webhook_configuration(configuration(hooks), resolve_release("1.36"))
    assert pairs(errs) == [("FieldValueInvalid", "webhooks[0].namespaceSelector.matchExpressions[0].operator"),
                           ("FieldValueInvalid", "webhooks[0].objectSelector.matchLabels")]


def _v1(kind: str, hooks: list[dict[str, Any]], name: str = "config") -> dict[str, Any]:
    return {"apiVersion": "admissionregistration.k8s.io/v1", "kind": kind, "metadata": {"name": name}, "webhooks": hooks}


def test_create_defaults_and_generation() -> None:
    """v1 ``SetDefaults_MutatingWebhook``, ``SetDefaults_ServiceReference``, ``SetDefaults_Rule``; ``PrepareForCreate``
    sets ``generation`` 1."""
    obj = _v1("MutatingWebhookConfiguration", [{
        "name": "m.example.com", "sideEffects": "None", "admissionReviewVersions": ["v1"],
        "clientConfig": {"service": {"name": "s", "namespace": "n"}},
        "rules": [{"operations": ["CREATE"], "apiGroups": [""], "apiVersions": ["v1"], "resources": ["pods"]}],
    }])
    errs, warnings, stored = create(obj)
    assert (errs, warnings) == ([], [])
    h = stored["webhooks"][0]
    assert stored["metadata"]["generation"] == 1
    assert {k: h[k] for k in ("failurePolicy", "matchPolicy", "namespaceSelector", "objectSelector", "timeoutSeconds",
                              "reinvocationPolicy")} == {
        "failurePolicy": "Fail", "matchPolicy": "Equivalent", "namespaceSelector": {}, "objectSelector": {},
        "timeoutSeconds": 10, "reinvocationPolicy": "Never"}
    assert h["clientConfig"]["service"]["port"] == 443 and h["rules"][0]["scope"] == "*"


def test_validating_defaults_have_no_reinvocation_policy() -> None:
    obj = _v1("ValidatingWebhookConfiguration", [{"name": "v.example.com", "sideEffects": "None",
                                                  "admissionReviewVersions": ["v1"], "clientConfig": VALID_CLIENT_CONFIG}])
    errs, _, stored = create(obj)
    assert errs == [] and "reinvocationPolicy" not in stored["webhooks"][0]


@pytest.mark.parametrize(("release", "errors", "warnings"), [
    ("1.35", [], []),
    ("1.36", [], ['metadata.name: names ending with ".static.k8s.io" are reserved for static manifest-based '
                  "configurations and cannot be managed via the API"]),
    ("1.37", ['metadata.name: Invalid value: "a.static.k8s.io": names ending with ".static.k8s.io" are reserved for '
              "static manifest-based configurations and cannot be managed via the API"], []),
])
def test_static_suffix_from_1_36(release: str, errors: list[str], warnings: list[str]) -> None:
    """1.36 strategy.go: ``Validate`` adds ``ValidateStaticSuffix`` while gate ManifestBasedAdmissionControlConfig is
    on, ``WarningsOnCreate`` is ``WarningsForStaticSuffix`` while it is off; the gate is Alpha (off) in 1.36, Beta
    (on) in 1.37 (k8s.io/apiserver pkg/features/kube_features.go v0.37.0-beta.0); static_suffix.go is new in 1.36."""
    for kind in ("ValidatingWebhookConfiguration", "MutatingWebhookConfiguration"):
        errs, warns, _ = create(_v1(kind, [], name="a.static.k8s.io"), release)
        assert ([str(e) for e in errs], warns) == (errors, warnings)


@pytest.mark.parametrize(("release", "compiles"), [("1.33", False), ("1.34", True)])
def test_match_conditions_compile_in_the_releases_new_expressions_environment(release: str, compiles: bool) -> None:
    """validateMatchConditionsExpression: ``environment.NewExpressions`` at ``DefaultCompatibilityVersion`` (the
    previous minor); the semver library's ``IntroducedVersion`` is 1.33 (apiserver pkg/cel/environment/base.go
    v0.33.0), so a new expression may call ``isSemver`` from 1.34 only."""
    hooks = [hook(matchConditions=[{"name": "semver", "expression": "isSemver('1.0.0')"}],
                  admissionReviewVersions=["v1"], **NONE)]
    errs = validate_validating_webhook_configuration(configuration(hooks), resolve_release(release))
    if compiles:
        assert errs == []
    else:
        assert pairs(errs) == [("FieldValueInvalid", "webhooks[0].matchConditions[0].expression")]
        # cel-go places a global call at its open parenthesis (parser.go visitGlobalCall: ctx.GetOpen())
        assert errs[0].detail.startswith("compilation failed: ERROR: <input>:1:9: undeclared reference to 'isSemver'")
