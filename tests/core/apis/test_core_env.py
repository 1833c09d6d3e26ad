"""``TestValidateEnv`` error table of kubernetes/kubernetes ``pkg/apis/core/validation/validation_test.go``
(openshift/microshift ``release-4.23`` = 1.36), compared as upstream does (every error's ``Error()`` contains the
row's text), called directly as upstream does (``ValidateEnv`` at ``field``)."""

from __future__ import annotations

from typing import Any

import pytest

from crdtool.core.apis.core.validation import validate_env
from crdtool.core.errors import Path
from crdtool.core.releases import resolve_release

FIELDS = ('supported values: "metadata.name", "metadata.namespace", "metadata.uid", "spec.nodeName", "spec.serviceAccountName", '
          '"status.hostIP", "status.hostIPs", "status.podIP", "status.podIPs"')


def field_ref(path: str | None, api_version: str | None = "v1") -> dict[str, Any]:
    ref: dict[str, Any] = {}
    if path is not None:
        ref["fieldPath"] = path
    if api_version is not None:
        ref["apiVersion"] = api_version
    return {"fieldRef": ref}


CASES: list[tuple[str, list[dict[str, Any]], str]] = [
    ("zero-length name", [{"name": ""}], "[0].name: Required value"),
    ("value and valueFrom specified", [{"name": "abc", "value": "foo", "valueFrom": field_ref("metadata.name")}],
     '[0].valueFrom: Invalid value: "": may not be specified when `value` is not empty'),
    ("valueFrom without a source", [{"name": "abc", "valueFrom": {}}],
     '[0].valueFrom: Invalid value: "": must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef'),
    ("valueFrom.fieldRef and valueFrom.secretKeyRef specified",
     [{"name": "abc", "valueFrom": {**field_ref("metadata.name"), "secretKeyRef": {"name": "a-secret", "key": "a-key"}}}],
     '[0].valueFrom: Invalid value: "": may not have more than one field specified at a time'),
    ("valueFrom.fieldRef and valueFrom.configMapKeyRef set",
     [{"name": "some_var_name", "valueFrom": {**field_ref("metadata.name"), "configMapKeyRef": {"name": "some-config-map", "key": "some-key"}}}],
     '[0].valueFrom: Invalid value: "": may not have more than one field specified at a time'),
    ("missing FieldPath on ObjectFieldSelector", [{"name": "abc", "valueFrom": field_ref(None)}], "[0].valueFrom.fieldRef.fieldPath: Required value"),
    ("missing APIVersion on ObjectFieldSelector", [{"name": "abc", "valueFrom": field_ref("metadata.name", None)}], "[0].valueFrom.fieldRef.apiVersion: Required value"),
    ("invalid fieldPath", [{"name": "abc", "valueFrom": field_ref("metadata.whoops")}],
     '[0].valueFrom.fieldRef.fieldPath: Invalid value: "metadata.whoops": error converting fieldPath'),
    ("metadata.name with subscript", [{"name": "labels", "valueFrom": field_ref("metadata.name['key']")}],
     "[0].valueFrom.fieldRef.fieldPath: Invalid value: \"metadata.name['key']\": error converting fieldPath: field label does not support subscript"),
    ("metadata.labels without subscript", [{"name": "labels", "valueFrom": field_ref("metadata.labels")}],
     f'[0].valueFrom.fieldRef.fieldPath: Unsupported value: "metadata.labels": {FIELDS}'),
    ("metadata.annotations without subscript", [{"name": "abc", "valueFrom": field_ref("metadata.annotations")}],
     f'[0].valueFrom.fieldRef.fieldPath: Unsupported value: "metadata.annotations": {FIELDS}'),
    ("metadata.annotations with invalid key", [{"name": "abc", "valueFrom": field_ref("metadata.annotations['invalid~key']")}],
     'field[0].valueFrom.fieldRef: Invalid value: "invalid~key"'),
    ("metadata.labels with invalid key", [{"name": "abc", "valueFrom": field_ref("metadata.labels['Www.k8s.io/test']")}],
     'field[0].valueFrom.fieldRef: Invalid value: "Www.k8s.io/test"'),
    ("unsupported fieldPath", [{"name": "abc", "valueFrom": field_ref("status.phase")}], f'valueFrom.fieldRef.fieldPath: Unsupported value: "status.phase": {FIELDS}'),
]


@pytest.mark.parametrize(("env", "text"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_validate_env_error_cases_1_33(env: list[dict[str, Any]], text: str) -> None:
    """At 1.33, as upstream's ``PodValidationOptions{}``: "must specify one of" without `fileKeyRef` (EnvFiles off)."""
    errs = validate_env(env, Path("field"), resolve_release("1.33"))
    assert errs and all(text in str(e) for e in errs), [str(e) for e in errs]
