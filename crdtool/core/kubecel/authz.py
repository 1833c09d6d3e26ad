"""The ``kubernetes.authorization`` CEL library at run time: ``k8s.io/apiserver`` ``pkg/cel/library/authz.go``.

The values (``authorizerVal``, ``pathCheckVal``, ``groupCheckVal``, ``resourceCheckVal``, ``decisionVal``, each a
``receiverOnlyObjectVal``) and the functions ``path``, ``group``, ``serviceAccount``, ``resource``,
``subresource``, ``namespace``, ``name``, ``check``, ``allowed``, ``reason``, ``errored``, ``error`` (library
``Authz``) and ``fieldSelector``, ``labelSelector`` (library ``AuthzSelectors``, v0.31.0 on). The declarations are
in :mod:`crdtool.core.kubecel.library_decls`; the costs (``check`` 350000, the builders and accessors 1, the
selectors by their length) in :mod:`crdtool.core.kubecel.library`'s ``call_cost``.

Per release (authz.go diffed v0.30.0 … v0.37.0-beta.0): v0.30.0 has no selectors; v0.31.0 … v0.36.x pass the
selectors to the authorizer only when the ``AuthorizeWithSelectors`` gate is on (Alpha off in 1.31, on from
1.32); v0.37.0-beta.0 always does. The other functions are the same in every release.

The CEL layer knows nothing of how a decision is made: a value holds an :data:`Authorize` callable, which gets
the ``authorizer.AttributesRecord`` as a plain dict and answers ``(decision, reason, error)``. What fills it in is
the admission chain's business (:mod:`crdtool.core.auth`). Upstream parses the selectors into requirements
(``fields.ParseSelector``, ``labels.ParseToRequirements``) before it asks; here the attributes carry the selector
strings as written (``fieldSelector``/``labelSelector``), which no authorizer crdtool models reads (RBAC ignores
selectors).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from crdtool.core import validation_util as vu
from crdtool.core.celgo import values as V
from crdtool.core.celgo.functions import FnSpec, binary, function, go_trim_space, unary
from crdtool.core.celgo.values import Err

__all__ = [
    "ALLOW", "AUTHORIZER_TYPE", "Authorize", "Binder", "DECISION_TYPE", "DENY", "GROUP_CHECK_TYPE", "NO_OPINION",
    "PATH_CHECK_TYPE", "RESOURCE_CHECK_TYPE", "AuthorizerVal", "DecisionVal", "GroupCheckVal", "PathCheckVal",
    "ResourceCheckVal", "authz_selectors_specs", "authz_specs", "new_authorizer_val", "new_resource_authorizer_val",
    "service_account_user_info",
]

#: ``authorizer.Decision`` names.
ALLOW, DENY, NO_OPINION = "Allow", "Deny", "NoOpinion"

#: An ``authorizer.Authorizer``: the attributes (``user`` {``username``, ``uid``, ``groups``, ``extra``},
#: ``verb``, ``resourceRequest``, ``path``, ``apiGroup``, ``apiVersion``, ``resource``, ``subresource``,
#: ``namespace``, ``name``, and ``fieldSelector``/``labelSelector`` when given) in; (decision: :data:`ALLOW`,
#: :data:`DENY` or :data:`NO_OPINION`, reason, error text or None) out.
Authorize = Callable[[Mapping[str, Any]], tuple[str, str, "str | None"]]

AUTHORIZER_TYPE = V.TypeValue("kubernetes.authorization.Authorizer")
PATH_CHECK_TYPE = V.TypeValue("kubernetes.authorization.PathCheck")
GROUP_CHECK_TYPE = V.TypeValue("kubernetes.authorization.GroupCheck")
RESOURCE_CHECK_TYPE = V.TypeValue("kubernetes.authorization.ResourceCheck")
DECISION_TYPE = V.TypeValue("kubernetes.authorization.Decision")

_mnso = V.maybe_no_such_overload


class _ReceiverOnly:
    """``receiverOnlyObjectVal``: a value with receiver functions and no fields."""

    __slots__ = ()
    cel_type: V.TypeValue
    go_type = "library.receiverOnlyObjectVal"

    def equal(self, other: Any) -> Any:
        # ``other.(receiverOnlyObjectVal)`` never holds for the embedding types: no such overload
        return _mnso(other)

    def convert_to_type(self, t: V.TypeValue) -> Any:
        if t.name == self.cel_type.name:
            return self
        if t.name == "type":
            return self.cel_type
        return Err(f"type conversion error from '{self.cel_type.name}' to '{t.name}'")


class AuthorizerVal(_ReceiverOnly):
    """``authorizerVal``: the principal (``user.Info`` as a dict) and the authorizer.

    ``selectors``: whether checks pass their field and label selectors on (``AuthorizeWithSelectors``).
    """

    __slots__ = ("user_info", "authorize", "selectors")
    cel_type = AUTHORIZER_TYPE

    def __init__(self, user_info: Mapping[str, Any], authorize: Authorize, selectors: bool = True) -> None:
        self.user_info = user_info
        self.authorize = authorize
        self.selectors = selectors

    def path_check(self, path: str) -> PathCheckVal:
        return PathCheckVal(self, path)

    def group_check(self, group: str) -> GroupCheckVal:
        return GroupCheckVal(self, group)

    def service_account(self, namespace: str, name: str) -> AuthorizerVal:
        return AuthorizerVal(service_account_user_info(namespace, name), self.authorize, self.selectors)


class PathCheckVal(_ReceiverOnly):
    """``pathCheckVal``."""

    __slots__ = ("authorizer", "path")
    cel_type = PATH_CHECK_TYPE

    def __init__(self, authorizer: AuthorizerVal, path: str) -> None:
        self.authorizer = authorizer
        self.path = path

    def check(self, verb: str) -> DecisionVal:
        """``pathCheckVal.Authorize``: a non-resource request."""
        attr = {"path": self.path, "verb": verb, "user": self.authorizer.user_info, "resourceRequest": False}
        return DecisionVal(*self.authorizer.authorize(attr))


class GroupCheckVal(_ReceiverOnly):
    """``groupCheckVal``."""

    __slots__ = ("authorizer", "group")
    cel_type = GROUP_CHECK_TYPE

    def __init__(self, authorizer: AuthorizerVal, group: str) -> None:
        self.authorizer = authorizer
        self.group = group

    def resource_check(self, resource: str) -> ResourceCheckVal:
        return ResourceCheckVal(self, resource)


class ResourceCheckVal(_ReceiverOnly):
    """``resourceCheckVal``: a copy is made by every builder (Go's value receivers)."""

    __slots__ = ("group_check", "resource", "subresource", "namespace", "name", "field_selector", "label_selector")
    cel_type = RESOURCE_CHECK_TYPE

    def __init__(self, group_check: GroupCheckVal, resource: str, subresource: str = "", namespace: str = "",
                 name: str = "", field_selector: str = "", label_selector: str = "") -> None:
        self.group_check = group_check
        self.resource = resource
        self.subresource = subresource
        self.namespace = namespace
        self.name = name
        self.field_selector = field_selector
        self.label_selector = label_selector

    def with_(self, **changes: str) -> ResourceCheckVal:
        fields = {s: getattr(self, s) for s in self.__slots__}
        fields.update(changes)
        return ResourceCheckVal(**fields)

    def check(self, verb: str) -> DecisionVal:
        """``resourceCheckVal.Authorize``: a resource request at API version ``*``."""
        authz = self.group_check.authorizer
        attr: dict[str, Any] = {
            "resourceRequest": True, "apiGroup": self.group_check.group, "apiVersion": "*",
            "resource": self.resource, "subresource": self.subresource, "namespace": self.namespace,
            "name": self.name, "verb": verb, "user": authz.user_info,
        }
        if authz.selectors:
            if self.field_selector:
                attr["fieldSelector"] = self.field_selector
            if self.label_selector:
                attr["labelSelector"] = self.label_selector
        return DecisionVal(*authz.authorize(attr))


class DecisionVal(_ReceiverOnly):
    """``decisionVal``: the authorizer's decision, reason and error (None: no error)."""

    __slots__ = ("decision", "reason", "error")
    cel_type = DECISION_TYPE

    def __init__(self, decision: str, reason: str, error: str | None) -> None:
        self.decision = decision
        self.reason = reason
        self.error = error


#: ``serviceaccount.ServiceAccountUsernamePrefix``, ``AllServiceAccountsGroup``, ``ServiceAccountGroupPrefix``.
_SA_USERNAME_PREFIX = "system:serviceaccount:"
_SA_ALL_GROUP = "system:serviceaccounts"
_SA_GROUP_PREFIX = "system:serviceaccounts:"


def service_account_user_info(namespace: str, name: str) -> dict[str, Any]:
    """``(&serviceaccount.ServiceAccountInfo{Name, Namespace}).UserInfo()``: ``system:serviceaccount:<ns>:<name>``
    in groups ``system:serviceaccounts`` and ``system:serviceaccounts:<ns>`` (k8s.io/apiserver
    ``pkg/authentication/serviceaccount/util.go``, ``MakeUsername``, ``MakeGroupNames``)."""
    return {"username": f"{_SA_USERNAME_PREFIX}{namespace}:{name}", "uid": "",
            "groups": [_SA_ALL_GROUP, _SA_GROUP_PREFIX + namespace], "extra": {}}


def new_authorizer_val(user_info: Mapping[str, Any], authorize: Authorize, selectors: bool = True) -> AuthorizerVal:
    """``library.NewAuthorizerVal``: the ``authorizer`` variable."""
    return AuthorizerVal(user_info, authorize, selectors)


def new_resource_authorizer_val(user_info: Mapping[str, Any], authorize: Authorize, group: str, resource: str,
                                subresource: str, namespace: str, name: str,
                                selectors: bool = True) -> ResourceCheckVal:
    """``library.NewResourceAuthorizerVal``: the ``authorizer.requestResource`` variable, a check of the
    request's own resource (``GetResource()``'s group and resource, ``GetSubresource``, ``GetNamespace``,
    ``GetName``)."""
    check = AuthorizerVal(user_info, authorize, selectors).group_check(group).resource_check(resource)
    return check.with_(subresource=subresource, namespace=namespace, name=name)


@dataclass(frozen=True)
class Binder:
    """What ``activation.go`` ``newActivation`` needs to bind ``authorizer`` and ``authorizer.requestResource``:
    the authorizer (``OptionalVariableBindings.Authorizer``) and whether checks pass their selectors on
    (``AuthorizeWithSelectors``: the release's default, or as the feature gates say; always from 1.37)."""

    authorize: Authorize
    selectors: bool = True

    def variables(self, user_info: Mapping[str, Any], group: str, resource: str, subresource: str, namespace: str,
                  name: str) -> dict[str, Any]:
        """The two variables for a request by ``user_info`` on ``group``/``resource`` (the request's resource, not
        the matched one), ``subresource``, ``namespace``, ``name``."""
        return {
            "authorizer": new_authorizer_val(user_info, self.authorize, self.selectors),
            "authorizer.requestResource": new_resource_authorizer_val(
                user_info, self.authorize, group, resource, subresource, namespace, name, self.selectors),
        }


# --- the functions (authz.go) -------------------------------------------------------------------------------


def _authorizer_path(arg1: Any, arg2: Any) -> Any:
    if type(arg1) is not AuthorizerVal or type(arg2) is not str:
        return _mnso(arg1)
    if not go_trim_space(arg2):
        return Err("path must not be empty")
    return arg1.path_check(arg2)


def _authorizer_group(arg1: Any, arg2: Any) -> Any:
    if type(arg1) is not AuthorizerVal or type(arg2) is not str:
        return _mnso(arg1)
    return arg1.group_check(arg2)


def _authorizer_service_account(*args: Any) -> Any:
    if len(args) != 3:
        return Err("no such overload")
    authz, namespace, name = args
    if type(authz) is not AuthorizerVal:
        return _mnso(authz)
    if type(namespace) is not str:
        return _mnso(namespace)
    if type(name) is not str:
        return _mnso(name)
    # apimachineryvalidation.ValidateServiceAccountName (NameIsDNSSubdomain), ValidateNamespaceName (NameIsDNSLabel)
    if vu.is_dns1123_subdomain(name):
        return Err("Invalid service account name")
    if vu.is_dns1123_label(namespace):
        return Err("Invalid service account namespace")
    return authz.service_account(namespace, name)


def _group_check_resource(arg1: Any, arg2: Any) -> Any:
    if type(arg1) is not GroupCheckVal or type(arg2) is not str:
        return _mnso(arg1)
    if not go_trim_space(arg2):
        return Err("resource must not be empty")
    return arg1.resource_check(arg2)


def _resource_setter(attr: str) -> Callable[[Any, Any], Any]:
    def op(arg1: Any, arg2: Any) -> Any:
        if type(arg1) is not ResourceCheckVal or type(arg2) is not str:
            return _mnso(arg1)
        return arg1.with_(**{attr: arg2})

    return op


def _path_check_check(arg1: Any, arg2: Any) -> Any:
    if type(arg1) is not PathCheckVal or type(arg2) is not str:
        return _mnso(arg1)
    return arg1.check(arg2)


def _resource_check_check(arg1: Any, arg2: Any) -> Any:
    if type(arg1) is not ResourceCheckVal or type(arg2) is not str:
        return _mnso(arg1)
    return arg1.check(arg2)


def _decision(fn: Callable[[DecisionVal], Any]) -> Callable[[Any], Any]:
    def op(arg: Any) -> Any:
        if type(arg) is not DecisionVal:
            return _mnso(arg)
        return fn(arg)

    return op


def authz_specs() -> list[FnSpec]:
    """The runtime functions of library ``Authz`` (``authzLibraryDecls``' bindings)."""
    return [
        FnSpec("path", [binary("authorizer_path", _authorizer_path)]),
        FnSpec("group", [binary("authorizer_group", _authorizer_group)]),
        FnSpec("serviceAccount", [function("authorizer_serviceaccount", _authorizer_service_account)]),
        FnSpec("resource", [binary("groupcheck_resource", _group_check_resource)]),
        FnSpec("subresource", [binary("resourcecheck_subresource", _resource_setter("subresource"))]),
        FnSpec("namespace", [binary("resourcecheck_namespace", _resource_setter("namespace"))]),
        FnSpec("name", [binary("resourcecheck_name", _resource_setter("name"))]),
        FnSpec("check", [binary("pathcheck_check", _path_check_check),
                         binary("resourcecheck_check", _resource_check_check)]),
        FnSpec("errored", [unary("decision_errored", _decision(lambda d: d.error is not None))]),
        FnSpec("error", [unary("decision_error", _decision(lambda d: d.error or ""))]),
        FnSpec("allowed", [unary("decision_allowed", _decision(lambda d: d.decision == ALLOW))]),
        FnSpec("reason", [unary("decision_reason", _decision(lambda d: d.reason))]),
    ]


def authz_selectors_specs() -> list[FnSpec]:
    """The runtime functions of library ``AuthzSelectors`` (``authzSelectorsLibraryDecls``' bindings)."""
    return [
        FnSpec("fieldSelector", [binary("authorizer_fieldselector", _resource_setter("field_selector"))]),
        FnSpec("labelSelector", [binary("authorizer_labelselector", _resource_setter("label_selector"))]),
    ]
