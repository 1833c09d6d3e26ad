"""Tests for crdtool.core.validation_util (apimachinery string-format checks).

Cases derived from upstream behaviour: apimachinery
``pkg/util/validation/validation.go`` (+ ``validation_test.go``),
``pkg/api/validate/content/{kube,dns,path}.go`` and
``pkg/api/validation/generic.go``. Message strings are spelled out literally
so that a drift from upstream's text is caught.
"""

from __future__ import annotations

import pytest

from crdtool.core.errors import ErrorType, Path
from crdtool.core.validation_util import (
    byte_len,
    go_to_lower,
    is_dns1035_label,
    is_dns1123_label,
    is_dns1123_subdomain,
    is_fully_qualified_domain_name,
    is_path_segment_name,
    is_path_segment_prefix,
    is_qualified_name,
    is_valid_label_value,
    is_valid_port_num,
    mask_trailing_dash,
    name_is_dns1035_label,
    name_is_dns_label,
    name_is_dns_subdomain,
    regex_error,
    validate_namespace_name,
)

DNS1123_LABEL_MSG = (
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', "
    "and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', "
    "regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"
)
DNS1123_SUBDOMAIN_MSG = (
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', "
    "and must start and end with an alphanumeric character (e.g. 'example.com', "
    "regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
)
DNS1035_MSG = (
    "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an "
    "alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', "
    "regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')"
)
LABEL_KEY_NAME_MSG = (
    "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with "
    "an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', "
    "regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"
)
LABEL_VALUE_MSG = (
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', "
    "and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', "
    "regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"
)


def test_regex_error_formats_examples_like_upstream() -> None:
    assert regex_error("m", "f") == "m (regex used for validation is 'f')"
    assert regex_error("m", "f", "a") == "m (e.g. 'a', regex used for validation is 'f')"
    # Upstream's double space between examples is kept.
    assert regex_error("m", "f", "a", "b") == "m (e.g. 'a',  or 'b', regex used for validation is 'f')"


@pytest.mark.parametrize(
    "value, expected",
    [
        ("a", []),
        ("0", []),
        ("a-1", []),
        ("1--a--b--2", []),
        ("a" * 63, []),
        ("", [DNS1123_LABEL_MSG]),
        ("A", [DNS1123_LABEL_MSG]),
        ("-a", [DNS1123_LABEL_MSG]),
        ("a_b", [DNS1123_LABEL_MSG]),
        ("abc\n", [DNS1123_LABEL_MSG]),  # Go's $ does not match before a trailing newline
        ("a.b", ["must not contain dots"]),
        ("a" * 64, ["must be no more than 63 characters"]),
        ("a" * 64 + ".b", ["must be no more than 63 characters", "must not contain dots"]),
    ],
)
def test_is_dns1123_label(value: str, expected: list[str]) -> None:
    assert is_dns1123_label(value) == expected


@pytest.mark.parametrize(
    "value, expected",
    [
        ("example.com", []),
        ("a.b.c.d.e", []),
        ("1.2.3.4", []),
        ("a" * 253, []),
        ("", [DNS1123_SUBDOMAIN_MSG]),
        ("Example.com", [DNS1123_SUBDOMAIN_MSG]),
        ("a..b", [DNS1123_SUBDOMAIN_MSG]),
        ("a.", [DNS1123_SUBDOMAIN_MSG]),
        ("a@b", [DNS1123_SUBDOMAIN_MSG]),
        ("a" * 254, ["must be no more than 253 characters"]),
        ("A" * 254, ["must be no more than 253 characters", DNS1123_SUBDOMAIN_MSG]),
    ],
)
def test_is_dns1123_subdomain(value: str, expected: list[str]) -> None:
    assert is_dns1123_subdomain(value) == expected


@pytest.mark.parametrize(
    "value, expected",
    [
        ("a", []),
        ("abc-123", []),
        ("v1beta1", []),
        ("a" * 63, []),
        ("1abc", [DNS1035_MSG]),
        ("abc-", [DNS1035_MSG]),
        ("Abc", [DNS1035_MSG]),
        ("", [DNS1035_MSG]),
        ("a.b", [DNS1035_MSG]),
        ("a" * 64, ["must be no more than 63 characters"]),
    ],
)
def test_is_dns1035_label(value: str, expected: list[str]) -> None:
    assert is_dns1035_label(value) == expected


def test_lengths_are_utf8_bytes() -> None:
    assert byte_len("é") == 2
    assert byte_len("a" * 10) == 10
    # 32 two-byte characters: 64 bytes, over the 63-byte label value limit.
    assert "must be no more than 63 bytes" in is_valid_label_value("é" * 32)


@pytest.mark.parametrize(
    "value, expected",
    [
        ("simple", []),
        ("now-with-dashes", []),
        ("1-starts-with-num", []),
        ("Uppercase_Is_OK_123", []),
        ("example.com/Uppercase_Is_OK_123", []),
        ("a" * 253 + "/" + "b" * 63, []),
        ("", ["name part must be non-empty", LABEL_KEY_NAME_MSG]),
        ("cantendwithadash-", [LABEL_KEY_NAME_MSG]),
        ("a" * 64, ["name part must be no more than 63 bytes"]),
        ("/simple", ["prefix part must be non-empty"]),
        ("example.com/", ["name part must be non-empty", LABEL_KEY_NAME_MSG]),
        ("Example.com/abc", ["prefix part " + DNS1123_SUBDOMAIN_MSG]),
        ("a" * 254 + "/abc", ["prefix part must be no more than 253 bytes"]),
        (
            "only/one/slash",
            [
                "a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and "
                "end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for "
                "validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix "
                "and '/' (e.g. 'example.com/MyName')"
            ],
        ),
    ],
)
def test_is_qualified_name(value: str, expected: list[str]) -> None:
    assert is_qualified_name(value) == expected


@pytest.mark.parametrize(
    "value, expected",
    [
        ("", []),
        ("simple", []),
        ("end-with-num-1", []),
        ("a" * 63, []),
        ("-starts-with-dash", [LABEL_VALUE_MSG]),
        ("ends.with.dot.", [LABEL_VALUE_MSG]),
        ("Tama-nui-te-rā", [LABEL_VALUE_MSG]),
        ("a" * 64, ["must be no more than 63 bytes"]),
    ],
)
def test_is_valid_label_value(value: str, expected: list[str]) -> None:
    assert is_valid_label_value(value) == expected


@pytest.mark.parametrize(
    "port, expected",
    [
        (1, []),
        (443, []),
        (65535, []),
        (0, ["must be between 1 and 65535, inclusive"]),
        (65536, ["must be between 1 and 65535, inclusive"]),
        (-1, ["must be between 1 and 65535, inclusive"]),
    ],
)
def test_is_valid_port_num(port: int, expected: list[str]) -> None:
    assert is_valid_port_num(port) == expected


@pytest.mark.parametrize(
    "name, expected",
    [
        ("abc-", "aba"),  # upstream drops two bytes before appending "a"
        ("abc", "abc"),
        ("a-", "a"),
    ],
)
def test_mask_trailing_dash(name: str, expected: str) -> None:
    assert mask_trailing_dash(name) == expected


def test_name_functions_allow_a_trailing_dash_only_as_prefix() -> None:
    assert name_is_dns_subdomain("widgets-", True) == []
    assert name_is_dns_subdomain("widgets-", False) == [DNS1123_SUBDOMAIN_MSG]
    assert name_is_dns_label("ns-", True) == []
    assert name_is_dns_label("ns-", False) == [DNS1123_LABEL_MSG]
    assert name_is_dns1035_label("v1-", True) == []
    assert name_is_dns1035_label("v1-", False) == [DNS1035_MSG]
    assert validate_namespace_name("kube-system", False) == []
    assert validate_namespace_name("a.b", False) == ["must not contain dots"]


@pytest.mark.parametrize(
    "name, expected",
    [
        ("ok", []),
        (".", ["may not be '.'"]),
        ("..", ["may not be '..'"]),
        ("a/b", ["may not contain '/'"]),
        ("a%b/c", ["may not contain '/'", "may not contain '%'"]),
    ],
)
def test_is_path_segment_name(name: str, expected: list[str]) -> None:
    assert is_path_segment_name(name) == expected


def test_is_path_segment_prefix_allows_dots() -> None:
    assert is_path_segment_prefix("..") == []
    assert is_path_segment_prefix("a%") == ["may not contain '%'"]


@pytest.mark.parametrize(
    "name, expected",
    [
        ("example.com", []),
        ("example.com.", []),
        ("", [(ErrorType.REQUIRED, "")]),
        ("example", [(ErrorType.INVALID, "should be a domain with at least two segments separated by dots")]),
        ("Example.com", [(ErrorType.INVALID, DNS1123_SUBDOMAIN_MSG)]),
        ("a" * 64 + ".com", [(ErrorType.INVALID, "must be no more than 63 characters")]),
    ],
)
def test_is_fully_qualified_domain_name(name: str, expected: list[tuple[ErrorType, str]]) -> None:
    errs = is_fully_qualified_domain_name(Path("f"), name)
    assert [(e.type, e.field, e.detail) for e in errs] == [(t.value, "f", d) for t, d in expected]


def test_go_to_lower_maps_dotted_capital_i_to_one_rune() -> None:
    assert go_to_lower("ABC") == "abc"
    assert go_to_lower("\u0130x") == "ix"


# --- fast paths: a value the one-pattern check accepts is one the detailed checks find nothing in ----------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from crdtool.core import validation_util as _vu  # noqa: E402
from crdtool.core.releases import resolve_release as _resolve  # noqa: E402

_KEYISH = st.text(alphabet="aZ09-_./%\u0130é\n", max_size=70) | st.builds(
    lambda p, sep, n: p + sep + n,
    st.text(alphabet="ab.-9", min_size=0, max_size=260),
    st.sampled_from(["/", "", "//"]),
    st.text(alphabet="aB_.-1", min_size=0, max_size=66),
)
_EDGES = ["", "a", "a/b", "/b", "a/", "a//b", "a/b/c", "x" * 63, "x" * 64, "p" * 253 + "/n", "p" * 254 + "/n",
          "a.b/" + "n" * 63, "a.b/" + "n" * 64, "A.b/c", "-a", "a-", "a..b/c", "a\n", "é", "Ab_c.d"]


@pytest.mark.parametrize("minor", [30, 37])
@pytest.mark.parametrize("value", _EDGES)
def test_qualified_name_and_label_value_edges_as_the_detailed_checks(value: str, minor: int) -> None:
    release = _resolve(minor)
    assert _vu.is_qualified_name(value, release) == _vu._qualified_name_problems(value, release)
    assert _vu.is_valid_label_value(value, release) == _vu._label_value_problems(value, release)


@settings(max_examples=300, deadline=None)
@given(_KEYISH, st.sampled_from([30, 34, 35, 37]))
def test_qualified_name_and_label_value_fast_paths_as_the_detailed_checks(value: str, minor: int) -> None:
    release = _resolve(minor)
    assert _vu.is_qualified_name(value, release) == _vu._qualified_name_problems(value, release)
    assert _vu.is_valid_label_value(value, release) == _vu._label_value_problems(value, release)
