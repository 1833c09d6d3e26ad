"""CRD defaulting, derived from upstream apiextensions v1/defaults_test.go and v1beta1/defaults_test.go."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crdtool.core.crd import types as T
from crdtool.core.crd.decode import decode_crd
from crdtool.core.crd.defaults import default_crd, go_to_lower

V1 = "apiextensions.k8s.io/v1"
V1BETA1 = "apiextensions.k8s.io/v1beta1"


def crd(api_version: str, spec: dict[str, Any] | None = None, **top: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"apiVersion": api_version, "kind": "CustomResourceDefinition"}
    if spec is not None:
        out["spec"] = spec
    out.update(top)
    return out


# --- v1 (v1/defaults_test.go TestDefaults) ------------------------------------------


def test_v1_empty() -> None:
    assert default_crd(crd(V1)) == crd(V1, {"conversion": {"strategy": "None"}})


def test_v1_conversion_defaults() -> None:
    original = crd(V1, {"scope": "Namespaced", "conversion": {"strategy": "Webhook",
                                                             "webhook": {"clientConfig": {"service": {}}}}})
    assert default_crd(original) == crd(V1, {"scope": "Namespaced", "conversion": {
        "strategy": "Webhook", "webhook": {"clientConfig": {"service": {"port": 443}}}}})


def test_v1_storage_status_defaults() -> None:
    versions = [{"name": "v1", "storage": False, "served": True}, {"name": "v2", "storage": True, "served": True},
                {"name": "v3", "storage": False, "served": True}]
    original = crd(V1, {"scope": "Namespaced", "conversion": {"strategy": "None"}, "versions": versions})
    expected = crd(V1, {"scope": "Namespaced", "conversion": {"strategy": "None"}, "versions": versions},
                   status={"storedVersions": ["v2"]})
    assert default_crd(original) == expected


def test_v1_version_defaults_are_not_v1beta1s() -> None:
    # v1 neither defaults scope nor served, nor preserveUnknownFields.
    original = crd(V1, {"conversion": {"strategy": "None"}, "versions": [{"name": "v1", "storage": True}]})
    assert default_crd(original) == crd(V1, {"conversion": {"strategy": "None"},
                                              "versions": [{"name": "v1", "storage": True}]},
                                         status={"storedVersions": ["v1"]})


def test_v1_names() -> None:
    out = default_crd(crd(V1, {"names": {"plural": "crontabs", "kind": "CronTab"}}))
    assert out["spec"]["names"] == {"plural": "crontabs", "kind": "CronTab", "singular": "crontab",
                                    "listKind": "CronTabList"}
    kept = default_crd(crd(V1, {"names": {"kind": "CronTab", "singular": "ct", "listKind": "CronTabs"}}))
    assert kept["spec"]["names"] == {"kind": "CronTab", "singular": "ct", "listKind": "CronTabs"}


def test_v1_keeps_explicit_values() -> None:
    original = crd(V1, {"conversion": {"strategy": "Webhook", "webhook": {"clientConfig": {"service": {"port": 8443}}}}},
                   status={"storedVersions": ["v0"]})
    original["spec"]["versions"] = [{"name": "v1", "storage": True}]
    assert default_crd(original) == original


def test_v1_has_no_webhook_client_config_port_in_v1beta1_place() -> None:
    # The v1beta1 field name means nothing in v1: only webhook.clientConfig.service is defaulted.
    original = crd(V1, {"conversion": {"strategy": "Webhook", "webhookClientConfig": {"service": {}}}})
    assert default_crd(original)["spec"]["conversion"] == original["spec"]["conversion"]


# --- v1beta1 (v1beta1/defaults_test.go TestDefaults) ---------------------------------


def test_v1beta1_empty() -> None:
    assert default_crd(crd(V1BETA1)) == crd(V1BETA1, {"scope": "Namespaced", "conversion": {"strategy": "None"},
                                                      "preserveUnknownFields": True})


def test_v1beta1_conversion_defaults() -> None:
    original = crd(V1BETA1, {"scope": "Namespaced", "preserveUnknownFields": True, "conversion": {
        "strategy": "Webhook", "webhookClientConfig": {"service": {}}}})
    assert default_crd(original)["spec"]["conversion"] == {
        "strategy": "Webhook", "webhookClientConfig": {"service": {"port": 443}}, "conversionReviewVersions": ["v1beta1"]}


def test_v1beta1_review_versions_only_for_webhook() -> None:
    out = default_crd(crd(V1BETA1, {"conversion": {"strategy": "None"}}))
    assert out["spec"]["conversion"] == {"strategy": "None"}
    kept = default_crd(crd(V1BETA1, {"conversion": {"strategy": "Webhook", "conversionReviewVersions": ["v1"]}}))
    assert kept["spec"]["conversion"]["conversionReviewVersions"] == ["v1"]


def test_v1beta1_storage_status_defaults() -> None:
    versions = [{"name": "v1", "storage": False, "served": True}, {"name": "v2", "storage": True, "served": True},
                {"name": "v3", "storage": False, "served": True}]
    out = default_crd(crd(V1BETA1, {"scope": "Namespaced", "conversion": {"strategy": "None"},
                                    "preserveUnknownFields": True, "versions": versions}))
    assert out["spec"]["version"] == "v1"
    assert out["status"] == {"storedVersions": ["v2"]}


def test_v1beta1_version_defaults() -> None:
    out = default_crd(crd(V1BETA1, {"scope": "Namespaced", "conversion": {"strategy": "None"},
                                    "preserveUnknownFields": True, "version": "v1"}))
    assert out == crd(V1BETA1, {"scope": "Namespaced", "conversion": {"strategy": "None"},
                                "preserveUnknownFields": True, "version": "v1",
                                "versions": [{"name": "v1", "storage": True, "served": True}]},
                      status={"storedVersions": ["v1"]})


def test_v1beta1_keeps_explicit_values() -> None:
    original = crd(V1BETA1, {"scope": "Cluster", "preserveUnknownFields": False, "version": "v2",
                             "versions": [{"name": "v1", "storage": True, "served": True}],
                             "conversion": {"strategy": "None"}}, status={"storedVersions": ["v1", "v0"]})
    assert default_crd(original) == original


def test_singular_is_go_strings_to_lower() -> None:
    assert go_to_lower("CronTab") == "crontab"
    # Go lowers rune by rune: no final-sigma rule, U+0130 becomes plain "i".
    assert go_to_lower("ΣΑΣ") == "σασ"
    assert go_to_lower("\u0130X") == "ix"


def test_unknown_api_version_is_an_unchanged_copy() -> None:
    original = {"apiVersion": "v1", "kind": "Namespace"}
    out = default_crd(original)
    assert out == original and out is not original


@pytest.mark.parametrize("api_version", [V1, V1BETA1])
def test_input_not_mutated(api_version: str) -> None:
    original = crd(api_version, {"names": {"kind": "Foo"}, "versions": [{"name": "v1", "storage": True}],
                                 "conversion": {"strategy": "Webhook", "webhook": {"clientConfig": {"service": {}}},
                                                "webhookClientConfig": {"service": {}}}})
    before = copy.deepcopy(original)
    default_crd(original)
    assert original == before


# --- properties ----------------------------------------------------------------------

names = st.fixed_dictionaries({}, optional={"kind": st.sampled_from(["", "Foo", "CronTab", "ÀB"]),
                                            "singular": st.sampled_from(["", "x"]),
                                            "listKind": st.sampled_from(["", "Ls"]),
                                            "plural": st.just("foos")})
versions = st.lists(st.fixed_dictionaries({"name": st.sampled_from(["v1", "v2", ""])},
                                          optional={"storage": st.booleans(), "served": st.booleans()}),
                    max_size=3)
service = st.fixed_dictionaries({"name": st.just("svc")}, optional={"port": st.integers(1, 65535)})
v1_conversion = st.fixed_dictionaries({"strategy": st.sampled_from(["None", "Webhook", ""])}, optional={
    "webhook": st.fixed_dictionaries({}, optional={
        "clientConfig": st.fixed_dictionaries({}, optional={"service": service}),
        "conversionReviewVersions": st.lists(st.sampled_from(["v1", "v1beta1"]), max_size=2)})})
v1beta1_conversion = st.fixed_dictionaries({"strategy": st.sampled_from(["None", "Webhook", ""])}, optional={
    "webhookClientConfig": st.fixed_dictionaries({}, optional={"service": service}),
    "conversionReviewVersions": st.lists(st.sampled_from(["v1", "v1beta1"]), max_size=2)})


def specs(conversion: st.SearchStrategy[Any], beta: bool) -> st.SearchStrategy[dict[str, Any]]:
    optional: dict[str, st.SearchStrategy[Any]] = {"names": names, "versions": versions, "conversion": conversion,
                                                   "scope": st.sampled_from(["", "Cluster"])}
    if beta:
        optional["version"] = st.sampled_from(["", "v1", "v9"])
        optional["preserveUnknownFields"] = st.booleans()
    return st.fixed_dictionaries({}, optional=optional)


@settings(max_examples=200, deadline=None)
@given(st.one_of(specs(v1_conversion, False).map(lambda s: crd(V1, s)),
                 specs(v1beta1_conversion, True).map(lambda s: crd(V1BETA1, s))))
def test_defaulting_is_idempotent_and_pure(obj: dict[str, Any]) -> None:
    decoded, errors = decode_crd(obj)
    assert errors == []
    before = copy.deepcopy(decoded)
    once = default_crd(decoded)
    assert decoded == before
    twice = default_crd(once)
    api = T.api_for(obj["apiVersion"])
    assert api is not None
    assert T.go_equal(once, twice, api.root)
    assert once == twice
    spec = once["spec"]
    assert spec["conversion"].get("strategy") is not None
    kind = (spec.get("names") or {}).get("kind")
    if kind:
        assert spec["names"]["listKind"]
        assert spec["names"]["singular"]
