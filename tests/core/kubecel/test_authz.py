"""The ``kubernetes.authorization`` library at run time (:mod:`crdtool.core.kubecel.authz`).

Ported from k8s.io/apiserver v0.35.0 ``pkg/admission/plugin/cel/condition_test.go`` (``TestFilter``'s authorizer
cases with their ``fakeAuthorizer``: an exact-attributes match answers Allow, anything else the default; ``denyAll``,
``errorAll``; the ``Extended library cost: authz check`` budget ``checkCost + 5``), and from ``authz.go``'s own
documentation (the ``path must not be empty``, ``resource must not be empty``, ``Invalid service account name`` /
``namespace`` errors; ``serviceAccount``'s user). One deviation, documented in the module: the attributes carry
the selectors as written, not parsed into requirements.
"""

from __future__ import annotations

from typing import Any

import pytest

from crdtool.core.celgo import types as T
from crdtool.core.celgo import values as V
from crdtool.core.kubecel.admission import PolicyEnvironment
from crdtool.core.kubecel.authz import Binder
from crdtool.core.releases import resolve_release

CHECK_COST = 350000  # library/cost.go CallCost "check"


def _fake(match: dict[str, Any] | None, default: tuple[str, str, str | None] = ("Deny", "", None)) -> Any:
    """condition_test.go ``newAuthzAllowMatch`` (``match`` given) or a constant authorizer; the attributes are
    compared without the user unless ``match`` names one (upstream's records hold a nil user there)."""

    def authorize(attrs: Any) -> tuple[str, str, str | None]:
        if match is not None:
            got = dict(attrs)
            if "user" not in match:
                got.pop("user", None)
            if got == match:
                return "Allow", "", None
        return default

    return authorize


def _resource(**fields: Any) -> dict[str, Any]:
    out = {"resourceRequest": True, "apiGroup": "", "apiVersion": "*", "resource": "", "subresource": "",
           "namespace": "", "name": "", "verb": ""}
    out.update(fields)
    return out


DENY_ALL = _fake(None, ("Deny", "fake reason", None))
ERROR_ALL = _fake(None, ("NoOpinion", "", "fake authz error"))


def _eval(expr: str, authorize: Any, release: str = "1.35", request: tuple[str, str, str, str, str] = ("", "", "", "", ""),
          selectors: bool = True, user: dict[str, Any] | None = None) -> tuple[Any, int]:
    env = PolicyEnvironment(resolve_release(release), has_authorizer=True)
    compiled = env.compile(expr, (T.ANY,))
    assert not compiled.error, compiled.error
    variables = Binder(authorize, selectors).variables(user or {}, *request)
    value, cost, _ = compiled.program.eval_with_cost(variables, 10_000_000)
    return value, cost


ALL_FIELDS = ("authorizer.group('apps').resource('deployments').fieldSelector('foo=bar').labelSelector('apple=banana')"
              ".subresource('status').namespace('test').name('backend').check('create').allowed()")
ALL_FIELDS_ATTRS = _resource(apiGroup="apps", resource="deployments", subresource="status", namespace="test",
                             name="backend", verb="create")

CASES: list[tuple[str, str, Any, Any, dict[str, Any]]] = [
    ("allow resource check", "authorizer.group('').resource('endpoints').check('create').allowed()",
     _fake(_resource(resource="endpoints", verb="create")), True, {}),
    ("allow resource check, not errored", "authorizer.group('').resource('endpoints').check('create').errored()",
     _fake(_resource(resource="endpoints", verb="create")), False, {}),
    ("all fields, selectors on", ALL_FIELDS,
     _fake({**ALL_FIELDS_ATTRS, "fieldSelector": "foo=bar", "labelSelector": "apple=banana"}), True, {}),
    # v0.31 … v0.36 without AuthorizeWithSelectors: the stored environment has the functions, the check drops them
    ("all fields, selectors off", ALL_FIELDS, _fake(ALL_FIELDS_ATTRS), True, {"selectors": False}),
    ("one incorrect field",
     "authorizer.group('apps').resource('deployments').subresource('status').namespace('test').name('backend')"
     ".check('create').allowed()", _fake({**ALL_FIELDS_ATTRS, "resource": "deployments-xxxx"}), False, {}),
    ("reason", "authorizer.group('').resource('endpoints').check('create').reason() == 'fake reason'", DENY_ALL,
     True, {}),
    ("errored", "authorizer.group('').resource('endpoints').check('create').errored()", ERROR_ALL, True, {}),
    ("error", "authorizer.group('').resource('endpoints').check('create').error() == 'fake authz error'", ERROR_ALL,
     True, {}),
    ("errored is not allowed", "authorizer.group('').resource('endpoints').check('create').allowed()", ERROR_ALL,
     False, {}),
    ("no error is the empty string", "authorizer.path('/x').check('get').error() == ''", DENY_ALL, True, {}),
    ("allow path check", "authorizer.path('/healthz').check('get').allowed()",
     _fake({"path": "/healthz", "verb": "get", "resourceRequest": False}), True, {}),
    ("denied path check", "authorizer.path('/healthz').check('get').allowed() == false", DENY_ALL, True, {}),
    ("request resource", "authorizer.requestResource.check('custom-verb').allowed()",
     _fake(_resource(resource="endpoints", namespace="default", name="endpoints1", verb="custom-verb")), True,
     {"request": ("", "endpoints", "", "default", "endpoints1")}),
    ("request subresource", "authorizer.requestResource.check('custom-verb').allowed()",
     _fake(_resource(resource="endpoints", subresource="status", namespace="default", name="endpoints1",
                     verb="custom-verb")), True,
     {"request": ("", "endpoints", "status", "default", "endpoints1")}),
    ("service account",
     "authorizer.serviceAccount('default', 'test-serviceaccount').group('').resource('endpoints')"
     ".namespace('default').name('endpoints1').check('custom-verb').allowed()",
     _fake({**_resource(resource="endpoints", namespace="default", name="endpoints1", verb="custom-verb"),
            "user": {"username": "system:serviceaccount:default:test-serviceaccount", "uid": "",
                     "groups": ["system:serviceaccounts", "system:serviceaccounts:default"], "extra": {}}}),
     True, {"user": {"username": "bob"}}),
    ("empty subresource and name are unset", "authorizer.group('').resource('pods').subresource('').name('')"
     ".check('get').allowed()", _fake(_resource(resource="pods", verb="get")), True, {}),
]


@pytest.mark.parametrize("name,expr,authorize,expected,kw", CASES, ids=[c[0] for c in CASES])
def test_filter_authorizer_cases(name: str, expr: str, authorize: Any, expected: Any, kw: dict[str, Any]) -> None:
    value, _ = _eval(expr, authorize, **kw)
    assert value is expected


@pytest.mark.parametrize("expr,error", [
    ("authorizer.path('')", "path must not be empty"),
    ("authorizer.path('  ')", "path must not be empty"),
    ("authorizer.group('apps').resource('')", "resource must not be empty"),
    ("authorizer.group('apps').resource('  ')", "resource must not be empty"),
    ("authorizer.serviceAccount('not@a#valid!namespace', 'validname')", "Invalid service account namespace"),
    ("authorizer.serviceAccount('valid.example.com', 'invalid@*name')", "Invalid service account name"),
    # the name is checked first (authorizerServiceAccount)
    ("authorizer.serviceAccount('Bad', 'Bad')", "Invalid service account name"),
    ("authorizer == authorizer", "no such overload"),
])
def test_runtime_errors(expr: str, error: str) -> None:
    value, _ = _eval(expr, DENY_ALL)
    assert type(value) is V.Err and value.msg == error


def test_check_cost() -> None:
    # "Extended library cost: authz check": budget checkCost + 5 leaves 0
    _, cost = _eval("!authorizer.group('').resource('endpoints').check('create').allowed()", DENY_ALL)
    assert cost == CHECK_COST + 5
    # selectorCostEstimate of 'app=example' (11): 10 + ceil(1.1) + ceil(5.5) * 50
    _, cost = _eval("authorizer.group('').resource('pods').labelSelector('app=example').check('list').allowed()",
                    DENY_ALL)
    assert cost == 4 + CHECK_COST + 10 + 2 + 300  # authorizer, group, resource, allowed: 1 each


@pytest.mark.parametrize("release,stored,compiles", [
    ("1.30", True, False),   # v0.30.0: no AuthzSelectors library
    ("1.31", False, False),  # compatibility 1.30, gate Alpha off: "test authorizer error using fieldSelector"
    ("1.31", True, True),    # the stored environment ignores gates
    ("1.32", False, True),   # gate Beta on
])
def test_selectors_by_release(release: str, stored: bool, compiles: bool) -> None:
    env = PolicyEnvironment(resolve_release(release), has_authorizer=True, stored=stored)
    compiled = env.compile(ALL_FIELDS, (T.BOOL,))
    assert (not compiled.error) is compiles
    if not compiles:
        assert "fieldSelector" in compiled.error
