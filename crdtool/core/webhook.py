"""Webhook client configuration rules, as in ``k8s.io/apiserver/pkg/util/webhook/validation.go``.

``ValidateWebhookURL`` and ``ValidateWebhookService``, used by CRD conversion
webhooks (and, upstream, by admission webhooks).
"""

from __future__ import annotations

from crdtool.core.errors import FieldError, Path, invalid, required
from crdtool.core.gourl import go_url_parse
from crdtool.core.validation_util import is_dns1123_subdomain, is_valid_port_num


def validate_webhook_url(fld_path: Path, url: str, force_https: bool) -> list[FieldError]:
    """Upstream ``webhook.ValidateWebhookURL`` (Go ``net/url.Parse`` semantics).

    Out: Required with Go's parse error when ``url`` does not parse; else
    Invalid for a non-https scheme (if ``force_https``), a missing host, user
    info, a fragment or a query, in that order.
    """
    form = "; desired format: https://host[/path]"
    parsed, err = go_url_parse(url)
    if parsed is None:
        return [required(fld_path, "url must be a valid URL: " + err + form)]
    errs: list[FieldError] = []
    if force_https and parsed.scheme != "https":
        errs.append(invalid(fld_path, parsed.scheme, "'https' is the only allowed URL scheme" + form))
    if not parsed.host:
        errs.append(invalid(fld_path, parsed.host, "host must be specified" + form))
    if parsed.user is not None:
        errs.append(invalid(fld_path, parsed.user_string(), "user information is not permitted in the URL"))
    if parsed.fragment:
        errs.append(invalid(fld_path, parsed.fragment, "fragments are not permitted in the URL"))
    if parsed.raw_query:
        errs.append(invalid(fld_path, parsed.raw_query, "query parameters are not permitted in the URL"))
    return errs


def validate_webhook_service(fld_path: Path, namespace: str, name: str, path: str | None, port: int) -> list[FieldError]:
    """Upstream ``webhook.ValidateWebhookService(fldPath, namespace, name, path, port)``.

    In: the service path, its namespace, name, ``path`` (None when unset) and
    port (0 when unset), in upstream's parameter order. Out: Required
    ``name`` (when ``name`` is empty), Required ``namespace``, Invalid port,
    Invalid path (must start with ``/``; every segment a non-empty DNS-1123
    subdomain). Required errors have an empty detail.

    Mind the parameter order: apiextensions-apiserver passes
    ``(Service.Name, Service.Namespace)`` for ``(namespace, name)``; see
    :func:`crdtool.core.crd.validation.validate_custom_resource_conversion`.
    """
    errs: list[FieldError] = []
    if not name:
        errs.append(required(fld_path.child("name"), ""))
    if not namespace:
        errs.append(required(fld_path.child("namespace"), ""))
    port_errs = is_valid_port_num(port)
    if port_errs:
        errs.append(invalid(fld_path.child("port"), port, "port is not valid: " + ", ".join(port_errs)))
    if path is None or path in ("/", ""):
        return errs
    if path == "//":
        errs.append(invalid(fld_path.child("path"), path, "segment[0] may not be empty"))
        return errs
    if not path.startswith("/"):
        errs.append(invalid(fld_path.child("path"), path, "must start with a '/'"))
    to_check = path[1:]
    if to_check.endswith("/"):
        to_check = to_check[:-1]
    for i, step in enumerate(to_check.split("/")):
        if not step:
            errs.append(invalid(fld_path.child("path"), path, f"segment[{i}] may not be empty"))
            continue
        for failure in is_dns1123_subdomain(step):
            errs.append(invalid(fld_path.child("path"), path, f"segment[{i}]: {failure}"))
    return errs
