"""Ingress create validation, cases from kubernetes/kubernetes ``pkg/apis/networking/validation/validation_test.go``
(openshift/microshift ``release-4.23`` = 1.36): ``TestValidateIngress`` (fields of the errors, in order) and
``TestValidateIngressRuleValue`` (exact texts), through the create path (``validateIngress`` with the create
options, after the v1 defaults)."""

from __future__ import annotations

import copy
from typing import Any, Callable

import pytest

from tests.core.apis._create import create

PORT = {"service": {"name": "defaultbackend", "port": {"number": 80}}}
NAMED = {"service": {"name": "defaultbackend", "port": {"name": "http"}}}
RESOURCE = {"apiGroup": "example.com", "kind": "foo", "name": "bar"}


def base() -> dict[str, Any]:
    return {"apiVersion": "networking.k8s.io/v1", "kind": "Ingress", "metadata": {"name": "foo", "namespace": "default"},
            "spec": {"defaultBackend": copy.deepcopy(PORT), "rules": [{"host": "foo.bar.com", "http": {"paths": [
                {"path": "/foo", "pathType": "ImplementationSpecific", "backend": copy.deepcopy(PORT)}]}}]}}


def path0(ing: dict[str, Any]) -> dict[str, Any]:
    return ing["spec"]["rules"][0]["http"]["paths"][0]  # type: ignore[no-any-return]


def paths(ing: dict[str, Any]) -> None:
    ing["spec"]["rules"][0]["http"]["paths"] = []


CASES: list[tuple[str, Callable[[dict[str, Any]], None], list[str]]] = [
    ("empty path (implementation specific)", lambda g: path0(g).update(path=""), []),
    ("valid path", lambda g: path0(g).update(path="/valid"), []),
    ("backend with no service", lambda g: g["spec"]["defaultBackend"]["service"].update(name=""), ["spec.defaultBackend.service.name"]),
    ("invalid path type", lambda g: path0(g).update(pathType="foo"), ["spec.rules[0].http.paths[0].pathType"]),
    ("empty path (prefix)", lambda g: path0(g).update(path="", pathType="Prefix"), ["spec.rules[0].http.paths[0].path"]),
    ("no paths", paths, ["spec.rules[0].http.paths"]),
    ("no rules", lambda g: g["spec"].pop("rules"), []),
    ("no defaultBackend", lambda g: g["spec"].pop("defaultBackend"), []),
    ("no defaultBackend or rules specified", lambda g: (g["spec"].pop("defaultBackend"), g["spec"].update(rules=[])), ["spec"]),
    ("invalid host (foobar:80)", lambda g: g["spec"]["rules"][0].update(host="foobar:80"), ["spec.rules[0].host"]),
    ("invalid host (127.0.0.1)", lambda g: g["spec"]["rules"][0].update(host="127.0.0.1"), ["spec.rules[0].host"]),
    ("valid wildcard host", lambda g: g["spec"]["rules"][0].update(host="*.bar.com"), []),
    ("invalid wildcard host (foo.*.bar.com)", lambda g: g["spec"]["rules"][0].update(host="foo.*.bar.com"), ["spec.rules[0].host"]),
    ("invalid wildcard host (*)", lambda g: g["spec"]["rules"][0].update(host="*"), ["spec.rules[0].host"]),
    ("path resource backend and service name are not allowed together",
     lambda g: path0(g).update(backend={**copy.deepcopy(NAMED), "resource": RESOURCE}), ["spec.rules[0].http.paths[0].backend"]),
    ("path resource backend and service port are not allowed together",
     lambda g: path0(g).update(backend={**copy.deepcopy(PORT), "resource": RESOURCE}), ["spec.rules[0].http.paths[0].backend"]),
    ("spec.backend resource and service name are not allowed together",
     lambda g: g["spec"].update(defaultBackend={**copy.deepcopy(NAMED), "resource": RESOURCE}), ["spec.defaultBackend"]),
    ("spec.backend resource and service port are not allowed together",
     lambda g: g["spec"].update(defaultBackend={**copy.deepcopy(PORT), "resource": RESOURCE}), ["spec.defaultBackend"]),
]


@pytest.mark.parametrize(("tweak", "fields"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_validate_ingress_1_36(tweak: Callable[[dict[str, Any]], None], fields: list[str]) -> None:
    ing = base()
    tweak(ing)
    assert [e.field for e in create(ing)[0]] == fields


P = "spec.rules[0].http.paths[0].path"


@pytest.mark.parametrize(("path_type", "path", "detail"), [
    ("ImplementationSpecific", "foo", "must be an absolute path"),
    ("ImplementationSpecific", "/foo", None),
    ("ImplementationSpecific", "/foo/bar/foo", None),
    ("ImplementationSpecific", "/foo//bar/foo", None),
    ("Prefix", "foo", "must be an absolute path"),
    ("Prefix", "/foo", None),
    ("Prefix", "/foo/bar/foo", None),
    ("Prefix", "/foo//bar/foo", "must not contain '//'"),
    ("Exact", "foo", "must be an absolute path"),
    ("Exact", "/foo", None),
    ("Exact", "/foo/bar/foo", None),
    ("Exact", "/foo//bar/foo", "must not contain '//'"),
    ("Prefix", "/foo/./foo", "must not contain '/./'"),
    ("Exact", "/foo/../foo", "must not contain '/../'"),
    ("Prefix", "/foo/%2f/foo", "must not contain '%2f'"),
    ("Exact", "/foo/%2F/foo", "must not contain '%2F'"),
])
def test_validate_ingress_rule_value_1_36(path_type: str, path: str, detail: str | None) -> None:
    ing = base()
    path0(ing).update(path=path, pathType=path_type)
    assert [str(e) for e in create(ing)[0]] == ([] if detail is None else [f'{P}: Invalid value: "{path}": {detail}'])
