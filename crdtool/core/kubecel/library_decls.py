"""The declarations of the Kubernetes CEL libraries (``k8s.io/apiserver/pkg/cel/library``), for the type checker.

Each table lists ``(function name, ((overload id, member?, argument types,
result type), ...))`` in the compact type syntax of
:func:`crdtool.core.celgo.types.parse_type`, transcribed from ``k8s.io/apiserver``
v0.36 ``pkg/cel/library``: ``urls.go``, ``regex.go``, ``lists.go``, ``authz.go``
(and the ``AuthorizeWithSelectors`` selectors), ``quantity.go``, ``ip.go``,
``cidr.go``, ``format.go``, ``semverlib.go`` (version 1) and ``jsonpatch.go``.
:mod:`crdtool.core.kubecel.environment` merges them with cel-go's
(:data:`crdtool.core.celgo.decls.LIBRARIES`) in the order ``environment/base.go`` applies them.
"""

from __future__ import annotations

from crdtool.core.celgo.decls import Table as _Table

__all__ = ["FORMAT_MAX_REGEX_SIZE", "LIBRARIES", "TYPE_NAMES"]

_UUID_PATTERN = "(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$"
_DATE_TIME_PATTERN = "^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$"

# k8s.io/apiserver pkg/cel/library: urls.go, regex.go, lists.go, authz.go, quantity.go,
# ip.go, cidr.go, format.go, semverlib.go.
_URL, _QTY, _IP, _CIDR = "kubernetes.URL", "kubernetes.Quantity", "net.IP", "net.CIDR"
_FMT, _SEMVER = "kubernetes.NamedFormat", "kubernetes.Semver"
_AUTHZ, _PATH, _GROUP, _RES, _DEC = (
    "kubernetes.authorization.Authorizer", "kubernetes.authorization.PathCheck",
    "kubernetes.authorization.GroupCheck", "kubernetes.authorization.ResourceCheck",
    "kubernetes.authorization.Decision",
)
_K8S_URLS: _Table = (
    ("url", (("string_to_url", False, ("string",), _URL),)),
    ("getScheme", (("url_get_scheme", True, (_URL,), "string"),)),
    ("getHost", (("url_get_host", True, (_URL,), "string"),)),
    ("getHostname", (("url_get_hostname", True, (_URL,), "string"),)),
    ("getPort", (("url_get_port", True, (_URL,), "string"),)),
    ("getEscapedPath", (("url_get_escaped_path", True, (_URL,), "string"),)),
    ("getQuery", (("url_get_query", True, (_URL,), "map(string, list(string))"),)),
    ("isURL", (("is_url_string", False, ("string",), "bool"),)),
)
_K8S_REGEX: _Table = (
    ("find", (("string_find_string", True, ("string", "string"), "string"),)),
    ("findAll", (
        ("string_find_all_string", True, ("string", "string"), "list(string)"),
        ("string_find_all_string_int", True, ("string", "string", "int"), "list(string)"),
    )),
)
_K8S_COMPARABLE = ("int", "uint", "double", "bool", "duration", "timestamp", "string", "bytes")
_K8S_SUMMABLE = ("int", "uint", "double", "duration")
_K8S_LISTS: _Table = (
    ("isSorted", tuple((f"list_{t}_is_sorted_bool", True, (f"list({t})",), "bool") for t in _K8S_COMPARABLE)),
    ("sum", tuple((f"list_{t}_sum_{t}", True, (f"list({t})",), t) for t in _K8S_SUMMABLE)),
    ("max", tuple((f"list_{t}_max_{t}", True, (f"list({t})",), t) for t in _K8S_COMPARABLE)),
    ("min", tuple((f"list_{t}_min_{t}", True, (f"list({t})",), t) for t in _K8S_COMPARABLE)),
    ("indexOf", (("list_a_index_of_int", True, ("list(A)", "A"), "int"),)),
    ("lastIndexOf", (("list_a_last_index_of_int", True, ("list(A)", "A"), "int"),)),
)
_K8S_AUTHZ: _Table = (
    ("path", (("authorizer_path", True, (_AUTHZ, "string"), _PATH),)),
    ("group", (("authorizer_group", True, (_AUTHZ, "string"), _GROUP),)),
    ("serviceAccount", (("authorizer_serviceaccount", True, (_AUTHZ, "string", "string"), _AUTHZ),)),
    ("resource", (("groupcheck_resource", True, (_GROUP, "string"), _RES),)),
    ("subresource", (("resourcecheck_subresource", True, (_RES, "string"), _RES),)),
    ("namespace", (("resourcecheck_namespace", True, (_RES, "string"), _RES),)),
    ("name", (("resourcecheck_name", True, (_RES, "string"), _RES),)),
    ("check", (
        ("pathcheck_check", True, (_PATH, "string"), _DEC),
        ("resourcecheck_check", True, (_RES, "string"), _DEC),
    )),
    ("errored", (("decision_errored", True, (_DEC,), "bool"),)),
    ("error", (("decision_error", True, (_DEC,), "string"),)),
    ("allowed", (("decision_allowed", True, (_DEC,), "bool"),)),
    ("reason", (("decision_reason", True, (_DEC,), "string"),)),
)
_K8S_AUTHZ_SELECTORS: _Table = (
    ("fieldSelector", (("authorizer_fieldselector", True, (_RES, "string"), _RES),)),
    ("labelSelector", (("authorizer_labelselector", True, (_RES, "string"), _RES),)),
)
_K8S_QUANTITY: _Table = (
    ("quantity", (("string_to_quantity", False, ("string",), _QTY),)),
    ("isQuantity", (("is_quantity_string", False, ("string",), "bool"),)),
    ("sign", (("quantity_sign", False, (_QTY,), "int"),)),
    ("isGreaterThan", (("quantity_is_greater_than", True, (_QTY, _QTY), "bool"),)),
    ("isLessThan", (("quantity_is_less_than", True, (_QTY, _QTY), "bool"),)),
    ("compareTo", (("quantity_compare_to", True, (_QTY, _QTY), "int"),)),
    ("asApproximateFloat", (("quantity_get_float", True, (_QTY,), "double"),)),
    ("asInteger", (("quantity_get_int", True, (_QTY,), "int"),)),
    ("isInteger", (("quantity_is_integer", True, (_QTY,), "bool"),)),
    ("add", (
        ("quantity_add", True, (_QTY, _QTY), _QTY),
        ("quantity_add_int", True, (_QTY, "int"), _QTY),
    )),
    ("sub", (
        ("quantity_sub", True, (_QTY, _QTY), _QTY),
        ("quantity_sub_int", True, (_QTY, "int"), _QTY),
    )),
)
_K8S_IP: _Table = (
    ("ip", (("string_to_ip", False, ("string",), _IP),)),
    ("family", (("ip_family", True, (_IP,), "int"),)),
    ("ip.isCanonical", (("ip_is_canonical", False, ("string",), "bool"),)),
    ("isUnspecified", (("ip_is_unspecified", True, (_IP,), "bool"),)),
    ("isLoopback", (("ip_is_loopback", True, (_IP,), "bool"),)),
    ("isLinkLocalMulticast", (("ip_is_link_local_multicast", True, (_IP,), "bool"),)),
    ("isLinkLocalUnicast", (("ip_is_link_local_unicast", True, (_IP,), "bool"),)),
    ("isGlobalUnicast", (("ip_is_global_unicast", True, (_IP,), "bool"),)),
    ("isIP", (("is_ip", False, ("string",), "bool"),)),
    ("string", (("ip_to_string", False, (_IP,), "string"),)),
)
_K8S_CIDR: _Table = (
    ("cidr", (("string_to_cidr", False, ("string",), _CIDR),)),
    ("containsIP", (
        ("cidr_contains_ip_string", True, (_CIDR, "string"), "bool"),
        ("cidr_contains_ip_ip", True, (_CIDR, _IP), "bool"),
    )),
    ("containsCIDR", (
        ("cidr_contains_cidr_string", True, (_CIDR, "string"), "bool"),
        ("cidr_contains_cidr", True, (_CIDR, _CIDR), "bool"),
    )),
    ("ip", (("cidr_ip", True, (_CIDR,), _IP),)),
    ("prefixLength", (("cidr_prefix_length", True, (_CIDR,), "int"),)),
    ("masked", (("cidr_masked", True, (_CIDR,), _CIDR),)),
    ("isCIDR", (("is_cidr", False, ("string",), "bool"),)),
    ("string", (("cidr_to_string", False, (_CIDR,), "string"),)),
)
#: ``library.ConstantFormats``: name -> ``MaxRegexSize`` (used by the cost of ``validate``).
FORMAT_MAX_REGEX_SIZE: dict[str, int] = {
    "dns1123Label": 30, "dns1123Subdomain": 60, "dns1035Label": 30, "qualifiedName": 60,
    "dns1123LabelPrefix": 30, "dns1123SubdomainPrefix": 60, "dns1035LabelPrefix": 30, "labelValue": 40,
    "uri": 1103, "uuid": len(_UUID_PATTERN),
    "byte": 84, "date": len(_DATE_TIME_PATTERN), "datetime": len(_DATE_TIME_PATTERN),
}
_K8S_FORMAT: _Table = (
    ("validate", (("format-validate", True, (_FMT, "string"), "optional_type(list(string))"),)),
    ("format.named", (("format-named", False, ("string",), f"optional_type({_FMT})"),)),
    *((f"format.{n}", ((f"format.{n}", False, (), _FMT),)) for n in FORMAT_MAX_REGEX_SIZE),
)
_K8S_JSONPATCH: _Table = (
    ("jsonpatch.escapeKey", (("string_jsonpatch_escapeKey_string", False, ("string",), "string"),)),
)
_K8S_SEMVER: _Table = (
    ("semver", (
        ("string_to_semver", False, ("string",), _SEMVER),
        ("string_bool_to_semver", False, ("string", "bool"), _SEMVER),
    )),
    ("isSemver", (
        ("is_semver_string", False, ("string",), "bool"),
        ("is_semver_string_bool", False, ("string", "bool"), "bool"),
    )),
    ("isGreaterThan", (("semver_is_greater_than", True, (_SEMVER, _SEMVER), "bool"),)),
    ("isLessThan", (("semver_is_less_than", True, (_SEMVER, _SEMVER), "bool"),)),
    ("compareTo", (("semver_compare_to", True, (_SEMVER, _SEMVER), "int"),)),
    ("major", (("semver_major", True, (_SEMVER,), "int"),)),
    ("minor", (("semver_minor", True, (_SEMVER,), "int"),)),
    ("patch", (("semver_patch", True, (_SEMVER,), "int"),)),
)

#: ``library.Lists(library.ListsVersion(1))`` (v0.37.0-beta.0 ``library/lists.go``): version 0 plus ``includes``,
#: a member of ``dyn`` (so ``'a'.includes('a')`` checks, as plain equality).
_K8S_LISTS_V1: _Table = (*_K8S_LISTS, ("includes", (("list_includes_dyn_dyn", True, ("dyn", "dyn"), "bool"),)))


#: ``library.Test()`` (k8s.io/apiserver v0.36.3 ``pkg/cel/library/test.go``, default version ``math.MaxUint32``):
#: ``test()`` (which then returns false) and ``testV1()``. Upstream's own tests add it to environments
#: (``EnvSet.Extend``) to have functions that only stored expressions may use; not in the base environment.
_K8S_TEST: _Table = (
    ("test", (("test", False, (), "bool"),)),
    ("testV1", (("testV1", False, (), "bool"),)),
)


#: The Kubernetes libraries by name.
LIBRARIES: dict[str, _Table] = {
    "k8s.urls": _K8S_URLS, "k8s.regex": _K8S_REGEX, "k8s.lists": _K8S_LISTS, "k8s.lists.v1": _K8S_LISTS_V1, "k8s.authz": _K8S_AUTHZ,
    "k8s.quantity": _K8S_QUANTITY, "k8s.ip": _K8S_IP, "k8s.cidr": _K8S_CIDR, "k8s.format": _K8S_FORMAT,
    "k8s.authz_selectors": _K8S_AUTHZ_SELECTORS, "k8s.semver": _K8S_SEMVER, "k8s.jsonpatch": _K8S_JSONPATCH,
    "k8s.test": _K8S_TEST,
}

#: The object types of the libraries usable as identifiers, by library: only ``ip.go`` and ``cidr.go`` register
#: theirs (``cel.Types(apiservercel.IPType)``, ``cel.Types(apiservercel.CIDRType)``; v0.30 … v0.32 also declare
#: them as ``cel.Variable``), the other libraries only declare functions (``urls.go``, ``quantity.go``,
#: ``format.go``, ``semverlib.go``, ``authz.go`` ``CompileOptions``), so ``kubernetes.Quantity`` is an undeclared
#: reference (cel-go ``checker/env.go LookupIdent``: declared identifiers, ``FindStructType``, ``FindIdent`` of the
#: registry's registered types).
TYPE_NAMES: dict[str, tuple[str, ...]] = {"k8s.ip": (_IP,), "k8s.cidr": (_CIDR,)}
