"""Kubernetes releases: parsing ``--kubernetes-version`` values, feature gates, the CEL environments of each release.

Feature gate defaults are those of ``pkg/features/kube_features.go`` at each release's tag (apiextensions-apiserver
v0.30.14 … v0.37.0-beta.0); the environments follow ``k8s.io/apiserver`` ``pkg/cel/environment/base.go``.
"""

from __future__ import annotations

import pytest

from crdtool.core.kubecel.environment import base_environment, release_env_set
from crdtool.core.releases import (
    DEFAULT_RELEASE,
    RELEASES,
    SUPPORTED_BY_UPSTREAM,
    parse_release_matrix,
    resolve_release,
)


def names(text: str) -> list[str]:
    return [r.name for r in parse_release_matrix(text)]


def test_the_default_is_the_newest_release() -> None:
    assert DEFAULT_RELEASE is RELEASES[37] and resolve_release(None) is DEFAULT_RELEASE
    assert max(RELEASES) == 37 and min(RELEASES) == 30


@pytest.mark.parametrize(("text", "minor"), [("1.33", 33), ("v1.33", 33), ("1.33.7", 33), ("1.37.0-beta.0", 37), (" 1.30 ", 30)])
def test_versions_name_their_release(text: str, minor: int) -> None:
    assert resolve_release(text).minor == minor


@pytest.mark.parametrize("text", ["1.29", "1.38", "2.0", "", "1", "latest", "1.3x", "33"])
def test_unknown_versions_name_the_supported_range(text: str) -> None:
    with pytest.raises(ValueError, match="crdtool knows 1.30 … 1.37"):
        resolve_release(text)


def test_matrices() -> None:
    assert names("1.30-1.37") == [f"1.{m}" for m in range(30, 38)]
    assert names("1.35,1.31, 1.33-1.34,1.31") == ["1.31", "1.33", "1.34", "1.35"]
    assert names("supported") == [f"1.{m}" for m in SUPPORTED_BY_UPSTREAM]
    assert names("all") == names("1.30-1.37")
    assert names("v1.36") == ["1.36"]
    with pytest.raises(ValueError, match="runs backwards"):
        parse_release_matrix("1.37-1.30")
    with pytest.raises(ValueError):
        parse_release_matrix(",")


# Kubernetes' own spellings of a version (k8s.io/apimachinery pkg/util/version ParseSemantic at v0.37.0-beta.0,
# version_test.go's "v1.2.3-alpha.4+abcdef"; the tags v1.34.0-rc.1, v1.37.0-beta.0; vendors' builds).
@pytest.mark.parametrize(
    ("text", "minor"),
    [("v1.34.0-rc.1", 34), ("1.33.2+k3s1", 33), ("v1.32.3-eks-4a2b1c0", 32), ("1.31.4-gke.1234000", 31),
     ("v1.30.2-alpha.4+abcdef", 30)],
)
def test_pre_release_spellings_name_their_release(text: str, minor: int) -> None:
    assert resolve_release(text).minor == minor
    assert names(text) == [f"1.{minor}"]


# repro 01 (issue 27): these were taken as ONE release with a pre-release suffix ("1.34" + "-", "-1.35-1.30").
@pytest.mark.parametrize("text", ["1.34-", "1.34-1.35-1.30", "-1.35", "1.30 - ", "1.33,1.34-", "1.34--1.35",
                                  "1.34-latest", "1.34.0-", "1.34.0-1.35-1.30"])
def test_malformed_ranges_are_refused_naming_what_is_accepted(text: str) -> None:
    with pytest.raises(ValueError, match=r"is not a version, range or list: use a version \(1.33\), a range"):
        parse_release_matrix(text)


@pytest.mark.parametrize(
    ("gate", "expected"),
    [
        # v0.30.x: Alpha, default false; v0.31.0: Beta true; v0.32.0: GA
        ("CustomResourceFieldSelectors", {30: False, 31: True, 32: True, 37: True}),
        # v0.30.x: Beta true (GA from v0.33.0)
        ("CRDValidationRatcheting", {30: True, 33: True, 37: True}),
        # v0.35.0: Beta false; v0.36.0: Beta true
        ("CRDObservedGenerationTracking", {30: False, 35: False, 36: True, 37: True}),
    ],
)
def test_feature_gate_defaults(gate: str, expected: dict[int, bool]) -> None:
    assert {m: RELEASES[m].gate(gate) for m in expected} == expected


def test_compatibility_version_is_one_minor_back() -> None:
    # base.go@v0.30.0 hard-codes 1.29; from v0.31.0 the binary version minus one minor
    assert [RELEASES[m].compatibility_minor for m in range(30, 38)] == list(range(29, 37))


def test_semver_is_for_new_expressions_from_1_34_and_stored_ones_from_1_33() -> None:
    # base.go@v0.33.0 adds SemverLib at IntroducedVersion 1.33: a 1.33 apiserver (compatibility 1.32) has it only
    # for stored expressions; 1.34 (compatibility 1.33) for new ones too
    for minor in range(30, 38):
        envs = release_env_set(RELEASES[minor])
        assert ("k8s.semver" in envs.new.libraries) == (minor >= 34), minor
        assert ("k8s.semver" in envs.stored.libraries) == (minor >= 33), minor


def test_includes_is_stored_only_in_1_37() -> None:
    # environment_test.go@v0.37.0-beta.0: "includes function version gating (emulated version 1.36)" is invalid in
    # NewExpressions, "includes function available (stored expressions for default/1.36)" valid in Stored
    envs = release_env_set(RELEASES[37])
    assert "k8s.lists.v1" not in envs.new.libraries and "k8s.lists" in envs.new.libraries
    assert "k8s.lists.v1" in envs.stored.libraries and "k8s.lists" not in envs.stored.libraries
    assert "k8s.lists.v1" not in release_env_set(RELEASES[36]).stored.libraries


def test_stored_environments_hold_what_each_release_knows() -> None:
    # IP/CIDR (base.go@v0.30.0, 1.30) are stored-only in 1.30; Format (v0.31.0) does not exist before 1.31
    assert "k8s.ip" in release_env_set(RELEASES[30]).stored.libraries
    assert "k8s.ip" not in release_env_set(RELEASES[30]).new.libraries
    assert "k8s.format" not in release_env_set(RELEASES[30]).stored.libraries
    assert "k8s.format" in release_env_set(RELEASES[31]).stored.libraries
    assert "ext.lists.v3" not in release_env_set(RELEASES[33]).stored.libraries
    assert "ext.lists.v3" in release_env_set(RELEASES[34]).stored.libraries


def test_authz_selectors_follow_their_feature_gate_in_new_expressions() -> None:
    # v0.31.0: FeatureEnabled AuthorizeWithSelectors, alpha (off): dropped from new expressions, kept in stored ones
    assert "k8s.authz_selectors" not in release_env_set(RELEASES[31]).new.libraries
    assert "k8s.authz_selectors" in release_env_set(RELEASES[31]).stored.libraries
    assert "k8s.authz_selectors" in release_env_set(RELEASES[32]).new.libraries


def test_keyword_field_names_from_1_31() -> None:
    # SetRecognizeKeywordAsFieldName exists from environment.go@v0.31.0 and applies at compatibility >= 1.31
    assert not base_environment(None, RELEASES[30]).recognize_keyword_as_field_name
    assert base_environment(None, RELEASES[31]).recognize_keyword_as_field_name
    assert not base_environment(30, RELEASES[31]).recognize_keyword_as_field_name
    assert base_environment(31, RELEASES[32]).recognize_keyword_as_field_name
