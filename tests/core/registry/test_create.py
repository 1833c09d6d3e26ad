"""The create path of built-in kinds: serving, decoding, ObjectMeta, the metav1.Status kubectl gets.

Upstream: k8s.io/apiserver v0.36.3 ``pkg/endpoints/handlers/create.go`` (``transformDecodeError``: ``%s in
version %q cannot be handled as a %s: %v``), ``pkg/registry/rest/create.go`` (``BeforeCreate``),
k8s.io/apimachinery v0.36.3 ``pkg/api/errors/errors.go`` (``NewInvalid``, ``NewBadRequest``),
kubernetes v1.36.3 ``pkg/apis/rbac/validation`` (``ValidateRBACName`` = ``IsPathSegmentName``: a ClusterRole
``psp:rook`` is fine), ``pkg/apis/core/validation`` (``ValidateServiceName`` DNS-1035 until
``RelaxedServiceNameValidation`` turns on in 1.36), ``pkg/endpoints/deprecation`` ``WarningMessage``.
"""

from __future__ import annotations

from typing import Any

import pytest

from crdtool.core.registry import create as C
from crdtool.core.registry.create import create_builtin


def _obj(api_version: str, kind: str, name: str = "x", **rest: Any) -> dict[str, Any]:
    return {"apiVersion": api_version, "kind": kind, "metadata": {"name": name}, **rest}


def test_unknown_field_is_a_bad_request_with_the_decoders_words() -> None:
    v = create_builtin(_obj("apps/v1", "Deployment", spec={"foo": 1}), "1.36")
    assert v.outcome == C.BAD_REQUEST
    assert v.status == {
        "kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
        "message": 'Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: '
                   'unknown field "spec.foo"',
        "reason": "BadRequest", "code": 400,
    }
    assert [e.field for e in v.errors] == ["spec.foo"]


def test_field_validation_warn_and_ignore() -> None:
    obj = _obj("v1", "ConfigMap", data={"a": "b"}, foo=1)
    warn = create_builtin(obj, "1.36", field_validation="Warn")
    assert (warn.outcome, warn.warnings, warn.errors) == (C.CREATED, ['unknown field "foo"'], [])
    ignore = create_builtin(obj, "1.36", field_validation="Ignore")
    assert (ignore.outcome, ignore.warnings) == (C.CREATED, [])
    with pytest.raises(ValueError):
        create_builtin(obj, "1.36", field_validation="Loose")


def test_type_error_is_a_bad_request() -> None:
    v = create_builtin(_obj("apps/v1", "Deployment", spec={"replicas": "3"}), "1.30")
    assert v.status["message"] == (
        'Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string into Go '
        "struct field DeploymentSpec.spec.replicas of type int32")


def test_invalid_name_is_an_invalid_status() -> None:
    v = create_builtin(_obj("v1", "ConfigMap", "Bad_Name"), "1.36")
    assert v.outcome == C.INVALID
    assert v.status["reason"] == "Invalid" and v.status["code"] == 422
    assert v.status["message"].startswith('ConfigMap "Bad_Name" is invalid: metadata.name: Invalid value: "Bad_Name": ')
    assert v.status["details"]["kind"] == "ConfigMap" and "group" not in v.status["details"]
    assert v.status["details"]["causes"][0]["field"] == "metadata.name"
    assert v.status["details"]["causes"][0]["reason"] == "FieldValueInvalid"


def test_rbac_names_are_path_segments() -> None:
    assert create_builtin(_obj("rbac.authorization.k8s.io/v1", "ClusterRole", "psp:rook"), "1.30").ok
    bad = create_builtin(_obj("rbac.authorization.k8s.io/v1", "ClusterRole", "a/b"), "1.30")
    assert bad.status["message"] == (
        "ClusterRole.rbac.authorization.k8s.io \"a/b\" is invalid: metadata.name: Invalid value: \"a/b\": "
        "may not contain '/'")


def test_service_names_relaxed_in_1_36() -> None:
    assert not create_builtin(_obj("v1", "Service", "1abc"), "1.35").ok
    assert create_builtin(_obj("v1", "Service", "1abc"), "1.36").ok


def test_namespace_defaulted_and_cleared() -> None:
    v = create_builtin(_obj("v1", "ConfigMap"), "1.36")
    assert v.object is not None and v.object["metadata"]["namespace"] == "default"
    ns = {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole", "metadata": {"name": "r", "namespace": "x"}}
    v = create_builtin(ns, "1.36")
    assert v.ok and v.object is not None and "namespace" not in v.object["metadata"]


def test_generate_name() -> None:
    v = create_builtin({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"generateName": "cm-"}}, "1.36")
    assert v.ok and v.object is not None and v.object["metadata"]["name"] == "cm-xxxxx"
    missing = create_builtin({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {}}, "1.36")
    assert missing.status["message"] == 'ConfigMap "" is invalid: metadata.name: Required value: name or generateName is required'


def test_removed_version_is_not_served_with_its_replacement() -> None:
    v = create_builtin(_obj("batch/v1beta1", "CronJob"), "1.30")
    assert v.outcome == C.NOT_SERVED
    assert v.status["reason"] == "NotFound" and v.status["code"] == 404
    assert v.status["message"] == 'no matches for kind "CronJob" in version "batch/v1beta1"'
    assert v.warnings == ["batch/v1beta1 CronJob was removed in v1.25; use batch/v1 CronJob"]


def test_deprecated_served_version_warns() -> None:
    v = create_builtin(
        _obj("flowcontrol.apiserver.k8s.io/v1beta3", "PriorityLevelConfiguration", spec={"type": "Exempt"}), "1.30")
    assert v.warnings[0] == (
        "flowcontrol.apiserver.k8s.io/v1beta3 PriorityLevelConfiguration is deprecated in v1.29+, unavailable in "
        "v1.32+; use flowcontrol.apiserver.k8s.io/v1 PriorityLevelConfiguration")
    assert create_builtin(_obj("flowcontrol.apiserver.k8s.io/v1beta3", "PriorityLevelConfiguration"), "1.32").outcome == C.NOT_SERVED


def test_unknown_kinds() -> None:
    assert create_builtin(_obj("v1", "configmap"), "1.36").outcome == C.UNKNOWN_KIND
    assert create_builtin(_obj("example.com/v1", "Widget"), "1.36").outcome == C.NOT_A_KIND


def test_resource_version_set_on_create() -> None:
    obj = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "x", "resourceVersion": "5"}}
    v = create_builtin(obj, "1.36")
    assert v.status["code"] == 500 and v.status["reason"] == "InternalError"
    assert v.status["message"] == "Internal error occurred: resourceVersion should not be set on objects to be created"


def test_object_not_mutated() -> None:
    obj = _obj("v1", "ConfigMap", data={"a": "b"})
    before = repr(obj)
    create_builtin(obj, "1.36")
    assert repr(obj) == before
