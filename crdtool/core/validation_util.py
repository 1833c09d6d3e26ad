"""String-format checks of k8s.io/apimachinery: DNS names, label keys and values, ports.

Mirrors, with upstream's exact message strings:

- ``staging/src/k8s.io/apimachinery/pkg/util/validation/validation.go``
  (``IsDNS1123Label``, ``IsDNS1123Subdomain``, ``IsDNS1035Label``,
  ``IsValidPortNum``, ``IsFullyQualifiedDomainName``, ``MaxLenError``,
  ``RegexError``, ``EmptyError``, ``InclusiveRangeError``);
- ``staging/src/k8s.io/apimachinery/pkg/api/validate/content/kube.go``,
  ``dns.go``, ``path.go`` and ``errors.go`` (``IsLabelKey`` a.k.a.
  ``IsQualifiedName``, ``IsLabelValue``, ``IsPathSegmentName``,
  ``IsPathSegmentPrefix``), whose length messages say *bytes* where the
  older ``util/validation`` ones say *characters*;
- ``staging/src/k8s.io/apimachinery/pkg/api/validation/generic.go``
  (``NameIsDNSSubdomain``, ``NameIsDNSLabel``, ``NameIsDNS1035Label``,
  ``maskTrailingDash``, ``ValidateNamespaceName``).

Every ``is_*`` function returns a list of human-readable problems, empty when
the value is valid, as the Go functions return ``[]string``. Lengths are Go
``len()``: UTF-8 bytes, not code points.

``IsQualifiedName`` and ``IsValidLabelValue`` changed in Kubernetes 1.35
(apimachinery ``v0.35.0``: ``util/validation`` delegates them to
``content.IsLabelKey``/``IsLabelValue``); :func:`is_qualified_name` and
:func:`is_valid_label_value` take the release.
"""

from __future__ import annotations

import re
from typing import Callable

from crdtool.core.errors import FieldError, invalid, required
from crdtool.core.releases import DEFAULT_RELEASE, Release

#: apimachinery ``v0.35.0``: ``IsQualifiedName = content.IsLabelKey``, ``IsValidLabelValue =
#: content.IsLabelValue`` (length messages in *bytes*, and a key with several ``/`` is ``a valid label key
#: …``). ``v0.34.10`` and older: ``util/validation``'s own (``characters``, ``a qualified name …``).
LABEL_KEY_CONTENT_SINCE = 35

#: A name-validation function as upstream ``ValidateNameFunc``:
#: ``(name, prefix) -> problems``; ``prefix`` is true for a ``generateName``.
NameFunc = Callable[[str, bool], "list[str]"]

DNS1123_LABEL_MAX_LENGTH = 63
DNS1123_SUBDOMAIN_MAX_LENGTH = 253
DNS1035_LABEL_MAX_LENGTH = 63
LABEL_VALUE_MAX_LENGTH = 63
_LABEL_KEY_NAME_MAX_LENGTH = 63

_DNS1123_LABEL_FMT = "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
_DNS1123_LABEL_ERR_MSG = (
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', "
    "and must start and end with an alphanumeric character"
)
_DNS1123_SUBDOMAIN_FMT = _DNS1123_LABEL_FMT + "(\\." + _DNS1123_LABEL_FMT + ")*"
_DNS1123_SUBDOMAIN_ERR_MSG = (
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', "
    "and must start and end with an alphanumeric character"
)
_DNS1035_LABEL_FMT = "[a-z]([-a-z0-9]*[a-z0-9])?"
_DNS1035_LABEL_ERR_MSG = (
    "a DNS-1035 label must consist of lower case alphanumeric characters or '-', "
    "start with an alphabetic character, and end with an alphanumeric character"
)
_LABEL_KEY_CHAR_FMT = "[A-Za-z0-9]"
_LABEL_KEY_EXT_CHAR_FMT = "[-A-Za-z0-9_.]"
_LABEL_KEY_FMT = "(" + _LABEL_KEY_CHAR_FMT + _LABEL_KEY_EXT_CHAR_FMT + "*)?" + _LABEL_KEY_CHAR_FMT
_LABEL_KEY_ERR_MSG = (
    "must consist of alphanumeric characters, '-', '_' or '.', "
    "and must start and end with an alphanumeric character"
)
_LABEL_VALUE_FMT = "(" + _LABEL_KEY_FMT + ")?"
_LABEL_VALUE_ERR_MSG = (
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', "
    "and must start and end with an alphanumeric character"
)

# fullmatch, not ``^...$``: Python's ``$`` also matches before a trailing
# newline, Go's does not. The classes are ASCII-only, as in RE2.
_DNS1123_LABEL_RE = re.compile(_DNS1123_LABEL_FMT)
_DNS1123_SUBDOMAIN_RE = re.compile(_DNS1123_SUBDOMAIN_FMT)
_DNS1035_LABEL_RE = re.compile(_DNS1035_LABEL_FMT)
_LABEL_KEY_RE = re.compile(_LABEL_KEY_FMT)
_LABEL_VALUE_RE = re.compile(_LABEL_VALUE_FMT)


def byte_len(s: str) -> int:
    """Go ``len(s)``: the UTF-8 byte length (lone surrogates count 3, as Go's U+FFFD)."""
    if s.isascii():
        return len(s)
    return len(s.encode("utf-8", "surrogatepass"))


def go_to_lower(s: str) -> str:
    """Go ``strings.ToLower``: simple per-rune lower-casing.

    Python's ``str.lower`` applies the one full case mapping (U+0130 becomes
    two code points); Go maps it to a single ``i``.
    """
    if s.isascii():
        return s.lower()
    return "".join("i" if ch == "\u0130" else ch.lower() for ch in s)


# --- message builders -------------------------------------------------------


def max_len_error(length: int) -> str:
    """``util/validation.MaxLenError``: ``must be no more than N characters``."""
    return f"must be no more than {length} characters"


def content_max_len_error(length: int) -> str:
    """``validate/content.MaxLenError``: ``must be no more than N bytes``."""
    return f"must be no more than {length} bytes"


def regex_error(msg: str, fmt: str, *examples: str) -> str:
    """Upstream ``RegexError(msg, fmt, examples...)``."""
    if not examples:
        return msg + " (regex used for validation is '" + fmt + "')"
    msg += " (e.g. "
    for i, example in enumerate(examples):
        if i > 0:
            msg += " or "
        msg += "'" + example + "', "
    msg += "regex used for validation is '" + fmt + "')"
    return msg


def empty_error() -> str:
    """Upstream ``EmptyError``."""
    return "must be non-empty"


def inclusive_range_error(lo: int, hi: int) -> str:
    """Upstream ``InclusiveRangeError``."""
    return f"must be between {lo} and {hi}, inclusive"


# --- util/validation ----------------------------------------------------------


def is_dns1123_label(value: str) -> list[str]:
    """Upstream ``IsDNS1123Label`` (util/validation)."""
    errs: list[str] = []
    if byte_len(value) > DNS1123_LABEL_MAX_LENGTH:
        errs.append(max_len_error(DNS1123_LABEL_MAX_LENGTH))
    if _DNS1123_LABEL_RE.fullmatch(value) is None:
        if _DNS1123_SUBDOMAIN_RE.fullmatch(value) is not None:
            # A valid subdomain but not a label: length was checked, so it is the dots.
            errs.append("must not contain dots")
        else:
            errs.append(regex_error(_DNS1123_LABEL_ERR_MSG, _DNS1123_LABEL_FMT, "my-name", "123-abc"))
    return errs


def is_dns1123_subdomain(value: str) -> list[str]:
    """Upstream ``IsDNS1123Subdomain`` (util/validation)."""
    errs: list[str] = []
    if byte_len(value) > DNS1123_SUBDOMAIN_MAX_LENGTH:
        errs.append(max_len_error(DNS1123_SUBDOMAIN_MAX_LENGTH))
    if _DNS1123_SUBDOMAIN_RE.fullmatch(value) is None:
        errs.append(regex_error(_DNS1123_SUBDOMAIN_ERR_MSG, _DNS1123_SUBDOMAIN_FMT, "example.com"))
    return errs


def is_dns1035_label(value: str) -> list[str]:
    """Upstream ``IsDNS1035Label`` (util/validation)."""
    errs: list[str] = []
    if byte_len(value) > DNS1035_LABEL_MAX_LENGTH:
        errs.append(max_len_error(DNS1035_LABEL_MAX_LENGTH))
    if _DNS1035_LABEL_RE.fullmatch(value) is None:
        errs.append(regex_error(_DNS1035_LABEL_ERR_MSG, _DNS1035_LABEL_FMT, "my-name", "abc-123"))
    return errs


def is_valid_port_num(port: int) -> list[str]:
    """Upstream ``IsValidPortNum``: 1..65535."""
    if 1 <= port <= 65535:
        return []
    return [inclusive_range_error(1, 65535)]


def is_fully_qualified_domain_name(fld_path: str, name: str) -> list[FieldError]:
    """Upstream ``IsFullyQualifiedDomainName``: at least two segments, trailing dot allowed."""
    if not name:
        return [required(fld_path, "")]
    if name.endswith("."):
        name = name[:-1]
    errs = is_dns1123_subdomain(name)
    if errs:
        return [invalid(fld_path, name, ",".join(errs))]
    labels = name.split(".")
    if len(labels) < 2:
        return [invalid(fld_path, name, "should be a domain with at least two segments separated by dots")]
    for label in labels:
        errs = is_dns1123_label(label)
        if errs:
            return [invalid(fld_path, label, ",".join(errs))]
    return []


# --- validate/content -----------------------------------------------------------


def _content_is_dns1123_subdomain(value: str) -> list[str]:
    """``content.IsDNS1123Subdomain``: as util's, but its length message says bytes."""
    errs: list[str] = []
    if byte_len(value) > DNS1123_SUBDOMAIN_MAX_LENGTH:
        errs.append(content_max_len_error(DNS1123_SUBDOMAIN_MAX_LENGTH))
    if _DNS1123_SUBDOMAIN_RE.fullmatch(value) is None:
        errs.append(regex_error(_DNS1123_SUBDOMAIN_ERR_MSG, _DNS1123_SUBDOMAIN_FMT, "example.com"))
    return errs


def _label_content(release: Release | None) -> bool:
    return (release or DEFAULT_RELEASE).minor >= LABEL_KEY_CONTENT_SINCE


def is_qualified_name(value: str, release: Release | None = None) -> list[str]:
    """Upstream ``IsQualifiedName``: ``[prefix/]name``.

    From 1.35 ``content.IsLabelKey`` (``validate/content/kube.go@v0.35.0``); before, ``util/validation``'s
    ``IsQualifiedName`` (``validation.go@v0.34.10``: ``characters``, ``a qualified name …``).
    ``release``: None is the default release.
    """
    # what the checks below find nothing in (the patterns are ASCII only: lengths in bytes are len())
    if "/" not in value:
        if len(value) <= _LABEL_KEY_NAME_MAX_LENGTH and _LABEL_KEY_RE.fullmatch(value) is not None:
            return []
    else:
        prefix, _, name = value.partition("/")
        if (
            len(name) <= _LABEL_KEY_NAME_MAX_LENGTH
            and len(prefix) <= DNS1123_SUBDOMAIN_MAX_LENGTH
            and _LABEL_KEY_RE.fullmatch(name) is not None
            and _DNS1123_SUBDOMAIN_RE.fullmatch(prefix) is not None
        ):
            return []
    return _qualified_name_problems(value, release)


def _qualified_name_problems(value: str, release: Release | None) -> list[str]:
    """:func:`is_qualified_name`'s checks one by one, upstream's order and texts (also the fast path's reference)."""
    content = _label_content(release)
    max_len_msg = content_max_len_error if content else max_len_error
    errs: list[str] = []
    parts = value.split("/")
    if len(parts) == 1:
        name = parts[0]
    elif len(parts) == 2:
        prefix, name = parts
        if not prefix:
            errs.append("prefix part " + empty_error())
        else:
            subdomain = _content_is_dns1123_subdomain(prefix) if content else is_dns1123_subdomain(prefix)
            errs.extend("prefix part " + m for m in subdomain)
    else:
        return [
            ("a valid label key " if content else "a qualified name ")
            + regex_error(_LABEL_KEY_ERR_MSG, _LABEL_KEY_FMT, "MyName", "my.name", "123-abc")
            + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"
        ]
    if not name:
        errs.append("name part " + empty_error())
    elif byte_len(name) > _LABEL_KEY_NAME_MAX_LENGTH:
        errs.append("name part " + max_len_msg(_LABEL_KEY_NAME_MAX_LENGTH))
    if _LABEL_KEY_RE.fullmatch(name) is None:
        errs.append("name part " + regex_error(_LABEL_KEY_ERR_MSG, _LABEL_KEY_FMT, "MyName", "my.name", "123-abc"))
    return errs


def is_valid_label_value(value: str, release: Release | None = None) -> list[str]:
    """Upstream ``IsValidLabelValue``: from 1.35 ``content.IsLabelValue`` (``bytes``), before ``characters``."""
    if len(value) <= LABEL_VALUE_MAX_LENGTH and _LABEL_VALUE_RE.fullmatch(value) is not None:
        return []  # ASCII (the pattern's classes are), so its length in bytes is len(value)
    return _label_value_problems(value, release)


def _label_value_problems(value: str, release: Release | None) -> list[str]:
    """:func:`is_valid_label_value`'s checks one by one (also the fast path's reference)."""
    errs: list[str] = []
    if byte_len(value) > LABEL_VALUE_MAX_LENGTH:
        max_len_msg = content_max_len_error if _label_content(release) else max_len_error
        errs.append(max_len_msg(LABEL_VALUE_MAX_LENGTH))
    if _LABEL_VALUE_RE.fullmatch(value) is None:
        errs.append(regex_error(_LABEL_VALUE_ERR_MSG, _LABEL_VALUE_FMT, "MyValue", "my_value", "12345"))
    return errs


def is_path_segment_name(name: str) -> list[str]:
    """Upstream ``content.IsPathSegmentName``: not ``.``/``..``, no ``/`` or ``%``."""
    if name in (".", ".."):
        return [f"may not be '{name}'"]
    return is_path_segment_prefix(name)


def is_path_segment_prefix(name: str) -> list[str]:
    """Upstream ``content.IsPathSegmentPrefix``."""
    return [f"may not contain '{bad}'" for bad in ("/", "%") if bad in name]


def validate_path_segment(name: str, prefix: bool) -> list[str]:
    """Upstream ``rest.validatePathSegment``: the name check ``BeforeCreate`` repeats."""
    return is_path_segment_prefix(name) if prefix else is_path_segment_name(name)


# --- api/validation/generic.go ------------------------------------------------


def mask_trailing_dash(name: str) -> str:
    """Upstream ``maskTrailingDash``: bug-for-bug, it drops the last *two* bytes.

    ``"abc-"`` becomes ``"aba"``. Upstream panics on the one-byte ``"-"``
    (slice bounds); here that yields ``"a"``, as a Python slice does.
    """
    if name.endswith("-"):
        return name[:-2] + "a"
    return name


def name_is_dns_subdomain(name: str, prefix: bool) -> list[str]:
    """Upstream ``NameIsDNSSubdomain``."""
    if prefix:
        name = mask_trailing_dash(name)
    return is_dns1123_subdomain(name)


def name_is_dns_label(name: str, prefix: bool) -> list[str]:
    """Upstream ``NameIsDNSLabel``."""
    if prefix:
        name = mask_trailing_dash(name)
    return is_dns1123_label(name)


def name_is_dns1035_label(name: str, prefix: bool) -> list[str]:
    """Upstream ``NameIsDNS1035Label``."""
    if prefix:
        name = mask_trailing_dash(name)
    return is_dns1035_label(name)


#: Upstream ``ValidateNamespaceName`` (= ``NameIsDNSLabel``).
validate_namespace_name = name_is_dns_label


# --- more of util/validation (built-in kinds) -----------------------------------

_PORT_NAME_CHARSET_RE = re.compile("[-a-z0-9]+")
_PORT_NAME_ONE_LETTER_RE = re.compile("[a-z]")


def is_valid_port_name(port: str) -> list[str]:
    """Upstream ``IsValidPortName`` (util/validation, identical @v0.30.0 … @v0.36.x): an IANA_SVC_NAME."""
    errs: list[str] = []
    if byte_len(port) > 15:
        errs.append(max_len_error(15))
    if _PORT_NAME_CHARSET_RE.fullmatch(port) is None:
        errs.append("must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)")
    if _PORT_NAME_ONE_LETTER_RE.search(port) is None:
        errs.append("must contain at least one letter (a-z)")
    if "--" in port:
        errs.append("must not contain consecutive hyphens")
    if port and (port[0] == "-" or port[-1] == "-"):
        errs.append("must not begin or end with a hyphen")
    return errs


_PERCENT_FMT = "[0-9]+%"
_PERCENT_RE = re.compile(_PERCENT_FMT)


def is_valid_percent(percent: str) -> list[str]:
    """Upstream ``IsValidPercent``."""
    if _PERCENT_RE.fullmatch(percent) is None:
        return [regex_error("a valid percent string must be a numeric string followed by an ending '%'", _PERCENT_FMT, "1%", "93%")]
    return []


_HTTP_HEADER_NAME_FMT = "[-A-Za-z0-9]+"
_HTTP_HEADER_NAME_RE = re.compile(_HTTP_HEADER_NAME_FMT)


def is_http_header_name(value: str) -> list[str]:
    """Upstream ``IsHTTPHeaderName``."""
    if _HTTP_HEADER_NAME_RE.fullmatch(value) is None:
        return [regex_error("a valid HTTP header must consist of alphanumeric characters or '-'", _HTTP_HEADER_NAME_FMT, "X-Header-Name")]
    return []


def _has_ch_dir_prefix(value: str) -> list[str]:
    """Upstream ``hasChDirPrefix``."""
    if value == ".":
        return ["must not be '.'"]
    if value == "..":
        return ["must not be '..'"]
    if value.startswith(".."):
        return ["must not start with '..'"]
    return []


_ENV_VAR_NAME_FMT = "[-._a-zA-Z][-._a-zA-Z0-9]*"
_ENV_VAR_NAME_RE = re.compile(_ENV_VAR_NAME_FMT)


def is_env_var_name(value: str) -> list[str]:
    """Upstream ``IsEnvVarName``."""
    errs: list[str] = []
    if _ENV_VAR_NAME_RE.fullmatch(value) is None:
        errs.append(regex_error(
            "a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', "
            "and must not start with a digit", _ENV_VAR_NAME_FMT, "my.env-name", "MY_ENV.NAME", "MyEnvName1"))
    errs.extend(_has_ch_dir_prefix(value))
    return errs


def is_relaxed_env_var_name(value: str) -> list[str]:
    """Upstream ``IsRelaxedEnvVarName``: printable ASCII other than ``=``."""
    errs: list[str] = []
    if not value:
        errs.append("environment variable name " + empty_error())
    for ch in value:
        if ord(ch) > 127 or not ch.isprintable() or ch == "=":
            errs.append("a valid environment variable name must consist only of printable ASCII characters other than '='")
            break
    return errs


_CONFIG_MAP_KEY_FMT = "[-._a-zA-Z0-9]+"
_CONFIG_MAP_KEY_RE = re.compile(_CONFIG_MAP_KEY_FMT)


def is_config_map_key(value: str) -> list[str]:
    """Upstream ``IsConfigMapKey``: a key of a ConfigMap or Secret."""
    errs: list[str] = []
    if byte_len(value) > DNS1123_SUBDOMAIN_MAX_LENGTH:
        errs.append(max_len_error(DNS1123_SUBDOMAIN_MAX_LENGTH))
    if _CONFIG_MAP_KEY_RE.fullmatch(value) is None:
        errs.append(regex_error("a valid config key must consist of alphanumeric characters, '-', '_' or '.'",
                                _CONFIG_MAP_KEY_FMT, "key.name", "KEY_NAME", "key-name"))
    errs.extend(_has_ch_dir_prefix(value))
    return errs


def name_is_path_segment(name: str, prefix: bool) -> list[str]:
    """Upstream ``path.ValidatePathSegmentName`` (RBAC's ``ValidateRBACName``)."""
    if prefix:
        return is_path_segment_prefix(name)
    return is_path_segment_name(name)


_DNS1123_LABEL_FMT_WITH_UNDERSCORE = "_?[a-z0-9]([-_a-z0-9]*[a-z0-9])?"
_DNS1123_SUBDOMAIN_FMT_WITH_UNDERSCORE = _DNS1123_LABEL_FMT_WITH_UNDERSCORE + "(\\." + _DNS1123_LABEL_FMT_WITH_UNDERSCORE + ")*"
_DNS1123_SUBDOMAIN_WITH_UNDERSCORE_RE = re.compile(_DNS1123_SUBDOMAIN_FMT_WITH_UNDERSCORE)


def is_dns1123_subdomain_with_underscore(value: str) -> list[str]:
    """Upstream ``IsDNS1123SubdomainWithUnderscore`` (util/validation, 1.32+)."""
    errs: list[str] = []
    if byte_len(value) > DNS1123_SUBDOMAIN_MAX_LENGTH:
        errs.append(max_len_error(DNS1123_SUBDOMAIN_MAX_LENGTH))
    if _DNS1123_SUBDOMAIN_WITH_UNDERSCORE_RE.fullmatch(value) is None:
        errs.append(regex_error(
            "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '_', '-' or '.', "
            "and must start and end with an alphanumeric character", _DNS1123_SUBDOMAIN_FMT_WITH_UNDERSCORE, "example.com"))
    return errs
