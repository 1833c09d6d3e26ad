"""Version priority, from apimachinery pkg/version/helpers_test.go and the documented rules."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from crdtool.core.versions import compare_versions, crd_version_rows, parse_kube_version, sort_versions

# TestCompareKubeAwareVersionStrings (upstream helpers_test.go).
UPSTREAM_CASES = [
    ("v1", "v2", False),
    ("v2", "v1", True),
    ("v10", "v2", True),
    ("v1", "v2alpha1", True),
    ("v1", "v2beta1", True),
    ("v1alpha2", "v1alpha1", True),
    ("v1beta1", "v2alpha3", True),
    ("v1alpha10", "v1alpha2", True),
    ("v1beta10", "v1beta2", True),
    ("foo", "v1beta2", False),
    ("bar", "foo", True),
    ("version1", "version2", True),
    ("version1", "version10", True),
]


@pytest.mark.parametrize(("a", "b", "greater"), UPSTREAM_CASES)
def test_compare_upstream_cases(a: str, b: str, greater: bool) -> None:
    assert (compare_versions(a, b) > 0) is greater


# Test_parseKubeVersion (upstream): (major, type, minor) with alpha=0, beta=1, GA=2.
@pytest.mark.parametrize(
    ("version", "expected"),
    [
        ("v1.1", None),
        ("v1alpha1.1", None),
        ("v1alpha1", (1, 0, 1)),
        ("v2beta10", (2, 1, 10)),
        ("v3", (3, 2, 0)),
        # Go's regexp `$` does not match before a trailing newline, and \d is ASCII only.
        ("v1\n", None),
        ("v\u0661", None),
        # strconv.Atoi fails beyond int64: the string is then not kube-like.
        ("v9223372036854775808", None),
        ("v9223372036854775807", (9223372036854775807, 2, 0)),
        ("v1gamma1", None),
        ("V1", None),
    ],
)
def test_parse_kube_version(version: str, expected: tuple[int, int, int] | None) -> None:
    assert parse_kube_version(version) == expected


def test_issue_example_order() -> None:
    given_versions = "v12alpha1 v10 foo10 v11beta2 v1 v3beta1 foo1 v2 v10beta3 v11alpha2".split()
    assert sort_versions(given_versions) == "v10 v2 v1 v11beta2 v10beta3 v3beta1 v12alpha1 v11alpha2 foo1 foo10".split()


kube_versions = st.builds(
    lambda major, kind, minor: f"v{major}{kind}{minor if kind else ''}",
    st.integers(0, 30),
    st.sampled_from(["", "alpha", "beta"]),
    st.integers(0, 30),
)
any_version = st.one_of(kube_versions, st.text(max_size=8))


@given(any_version, any_version)
def test_antisymmetric(a: str, b: str) -> None:
    assert (compare_versions(a, b) > 0) == (compare_versions(b, a) < 0)
    assert (compare_versions(a, b) == 0) == (a == b)


@given(any_version, any_version, any_version)
def test_transitive(a: str, b: str, c: str) -> None:
    if compare_versions(a, b) > 0 and compare_versions(b, c) > 0:
        assert compare_versions(a, c) > 0


@given(st.lists(any_version, max_size=12))
def test_sorted_order_follows_documented_rules(versions: list[str]) -> None:
    ordered = sort_versions(versions)
    assert sorted(ordered) == sorted(versions)
    ranks = []
    for v in ordered:
        parsed = parse_kube_version(v)
        # kube-like first: GA > beta > alpha, then larger major, then larger minor; others alphabetical.
        ranks.append((0, -parsed[1], -parsed[0], -parsed[2], "") if parsed else (1, 0, 0, 0, v))
    assert ranks == sorted(ranks)


def test_crd_rows_mark_preferred_served_version() -> None:
    crd = {
        "spec": {
            "versions": [
                {"name": "v1alpha1", "served": True, "storage": False},
                {"name": "v1beta1", "served": True, "storage": True, "deprecated": True},
                {"name": "v1", "served": False, "storage": False},
            ]
        }
    }
    rows = crd_version_rows(crd)
    assert [r.name for r in rows] == ["v1", "v1beta1", "v1alpha1"]
    assert [r.preferred for r in rows] == [False, True, False]
    assert rows[1].storage and rows[1].deprecated and not rows[0].served
