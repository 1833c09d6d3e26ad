"""Webhook client configuration rules, as in ``k8s.io/apiserver/pkg/util/webhook/validation.go``.

``ValidateWebhookURL`` and ``ValidateWebhookService``, used by CRD conversion
webhooks (and, upstream, by admission webhooks).
"""

from __future__ import annotations

from crdtool.core.errors import FieldError, Path, go_typed, invalid, required
from crdtool.core.gourl import go_url_parse
from crdtool.core.releases import DEFAULT_RELEASE, Release
from crdtool.core.validation_util import is_dns1123_subdomain, is_valid_port_num

#: The details of ValidateWebhookService's Required name / namespace: ``"service name is required"`` and
#: ``"service namespace is required"`` until v0.33.13, empty from v0.34.0 (the first release without them).
_EMPTY_SERVICE_REQUIRED_DETAILS_SINCE = 34


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


def validate_webhook_service(
    fld_path: Path, namespace: str, name: str, path: str | None, port: int, release: Release = DEFAULT_RELEASE
) -> list[FieldError]:
    """Upstream ``webhook.ValidateWebhookService(fldPath, namespace, name, path, port)``.

    In: the service path, its namespace, name, ``path`` (None when unset) and
    port (0 when unset), in upstream's parameter order. Out: Required
    ``name`` (when ``name`` is empty), Required ``namespace``, Invalid port,
    Invalid path (must start with ``/``; every segment a non-empty DNS-1123
    subdomain). Required errors have an empty detail from 1.34 on, before
    ``service name is required`` / ``service namespace is required`` (``release``).

    Mind the parameter order: apiextensions-apiserver passes
    ``(Service.Name, Service.Namespace)`` for ``(namespace, name)``; see
    :func:`crdtool.core.crd.validation.validate_custom_resource_conversion`.
    """
    errs: list[FieldError] = []
    terse = release.at_least(_EMPTY_SERVICE_REQUIRED_DETAILS_SINCE)
    if not name:
        errs.append(required(fld_path.child("name"), "" if terse else "service name is required"))
    if not namespace:
        errs.append(required(fld_path.child("namespace"), "" if terse else "service namespace is required"))
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


def validate_ca_bundle(fld_path: Path, ca_bundle: str) -> list[FieldError]:
    """Upstream ``webhook.ValidateCABundle``: the bundle must give client-go at least one CA certificate.

    In: the bundle as the internal CRD dict holds it (``[]byte`` as base64
    text). Out: one Invalid error, the bad value being that base64 text (as
    ``json.Marshal`` writes a ``[]byte``), with client-go's words:
    ``unable to load root certificates: `` + ``unable to parse bytes as PEM
    block`` (no PEM block), ``no valid certificate authority data seen`` (no
    ``CERTIFICATE`` block without headers) or ``failed to parse certificate:
    x509: malformed certificate`` (a certificate Go cannot parse: Go's own
    x509 reason is more precise; ``cryptography`` decides here).

    Mirrors ``k8s.io/apiserver/pkg/util/webhook/validation.go``
    ``ValidateCABundle`` -> client-go ``transport.TLSConfigFor`` ->
    ``rootCertPool`` / ``x509.CertPool.AppendCertsFromPEM`` /
    ``createErrorParsingCAData``.
    """
    import base64
    import binascii

    try:
        data = base64.b64decode(ca_bundle, validate=False)
    except (binascii.Error, ValueError):
        data = ca_bundle.encode("utf-8", "surrogateescape")
    problem = _ca_data_error(data)
    if problem is None:
        return []
    # the bad value is the []byte: json.Marshal writes it as base64 (1.34 and later), %#v before as
    # []uint8{0x2d, ...} (fmt's fmtBytes; reflect names []byte []uint8)
    bad = go_typed(ca_bundle, "[]uint8{" + ", ".join(f"0x{b:x}" for b in data) + "}")
    return [invalid(fld_path, bad, "unable to load root certificates: " + problem)]


def _ca_data_error(data: bytes) -> str | None:
    """None when ``AppendCertsFromPEM`` accepts ``data``, else ``createErrorParsingCAData``'s text."""
    blocks: list[tuple[str, dict[str, str], bytes]] = []
    rest = data
    while rest:
        block, rest = _pem_decode(rest)
        if block is None:
            break
        blocks.append(block)
    if any(t == "CERTIFICATE" and not h and _parses_as_certificate(b) for t, h, b in blocks):
        return None
    # createErrorParsingCAData walks the blocks again to say why.
    rest = data
    while rest:
        block, rest = _pem_decode(rest)
        if block is None:
            return "unable to parse bytes as PEM block"
        block_type, headers, der = block
        if block_type != "CERTIFICATE" or headers:
            continue
        if not _parses_as_certificate(der):
            return "failed to parse certificate: x509: malformed certificate"
    return "no valid certificate authority data seen"


def _parses_as_certificate(der: bytes) -> bool:
    from cryptography import x509

    try:
        x509.load_der_x509_certificate(der)
    except (ValueError, TypeError):
        return False
    return True


_PEM_START = b"\n-----BEGIN "
_PEM_END = b"\n-----END "
_PEM_END_OF_LINE = b"-----"


def _get_line(data: bytes) -> tuple[bytes, bytes]:
    """Go ``encoding/pem`` ``getLine``: the first line without trailing spaces, tabs and CRs; the rest."""
    i = data.find(b"\n")
    if i < 0:
        line, rest = data, b""
    else:
        line, rest = data[:i], data[i + 1 :]
    return line.rstrip(b" \t\r"), rest


def _pem_decode(data: bytes) -> tuple[tuple[str, dict[str, str], bytes] | None, bytes]:
    """Go ``encoding/pem.Decode``: ``((type, headers, bytes), rest)`` or ``(None, data)``."""
    import base64
    import binascii

    rest = data
    while True:
        if rest.startswith(_PEM_START[1:]):
            rest = rest[len(_PEM_START) - 1 :]
        else:
            i = rest.find(_PEM_START)
            if i < 0:
                return None, data
            rest = rest[i + len(_PEM_START) :]
        type_line, rest = _get_line(rest)
        if not type_line.endswith(_PEM_END_OF_LINE):
            continue
        type_line = type_line[: -len(_PEM_END_OF_LINE)]
        headers: dict[str, str] = {}
        while True:
            if not rest:
                return None, data
            line, nxt = _get_line(rest)
            key, sep, val = line.partition(b":")
            if not sep:
                break
            headers[key.strip().decode("utf-8", "replace")] = val.strip().decode("utf-8", "replace")
            rest = nxt
        if not headers and rest.startswith(_PEM_END[1:]):
            end_index, end_trailer_index = 0, len(_PEM_END) - 1
        else:
            end_index = rest.find(_PEM_END)
            end_trailer_index = end_index + len(_PEM_END)
        if end_index < 0:
            continue
        end_trailer = rest[end_trailer_index:]
        trailer_len = len(type_line) + len(_PEM_END_OF_LINE)
        if len(end_trailer) < trailer_len:
            continue
        rest_of_end_line = end_trailer[trailer_len:]
        end_trailer = end_trailer[:trailer_len]
        if not end_trailer.startswith(type_line) or not end_trailer.endswith(_PEM_END_OF_LINE):
            continue
        if _get_line(rest_of_end_line)[0]:
            continue
        body = bytes(c for c in rest[:end_index] if c not in b" \t\r\n")
        try:
            der = base64.b64decode(body, validate=True)
        except (binascii.Error, ValueError):
            continue
        _, rest = _get_line(rest[end_index + len(_PEM_END) - 1 :])
        return (type_line.decode("utf-8", "replace"), headers, der), rest
