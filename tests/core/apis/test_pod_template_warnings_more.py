"""Pod template warnings of kubernetes/kubernetes ``pkg/api/pod/warnings.go`` (``warningsForPodSpecAndMeta``), cases
from ``warnings_test.go`` @release-4.23 (= 1.36; upstream compares them as sets, crdtool keeps the code's order):
duplicate host alias IPs, seccomp annotations without the field, the deprecated AppArmor annotation,
a host IP without a host port (``%+v`` of the internal ``core.ContainerPort``)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.core.apis._create import create

T = "spec.template"


def deployment(spec: dict[str, Any] | None = None, annotations: dict[str, str] | None = None, release: str = "1.36") -> list[str]:
    body: dict[str, Any] = {"containers": [{"name": "foo", "image": "i"}]}
    body.update(spec or {})
    obj = {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "d", "namespace": "ns"},
           "spec": {"selector": {"matchLabels": {"a": "b"}},
                    "template": {"metadata": {"labels": {"a": "b"}, "annotations": annotations or {}}, "spec": body}}}
    errs, warnings, _ = create(obj, release)
    assert errs == [], [str(e) for e in errs]
    return warnings


def test_duplicate_host_alias_ips() -> None:
    aliases = [{"ip": "1.1.1.1", "hostnames": ["a"]}, {"ip": "1.1.1.1", "hostnames": ["b"]}, {"ip": "1.1.1.1", "hostnames": ["c"]}]
    assert deployment({"hostAliases": aliases}) == [f'{T}.spec.hostAliases[1].ip: duplicate ip "1.1.1.1"', f'{T}.spec.hostAliases[2].ip: duplicate ip "1.1.1.1"']


SECCOMP = {"seccomp.security.alpha.kubernetes.io/pod": "runtime/default", "container.seccomp.security.alpha.kubernetes.io/foo": "runtime/default"}


def test_seccomp_annotations_without_fields() -> None:
    """"seccomp annotations": both warn; "seccomp fields": the fields silence them."""
    assert deployment(annotations=SECCOMP) == [
        f'{T}.metadata.annotations[seccomp.security.alpha.kubernetes.io/pod]: non-functional in v1.27+; use the "seccompProfile" field instead',
        f'{T}.metadata.annotations[container.seccomp.security.alpha.kubernetes.io/foo]: non-functional in v1.27+; use the "seccompProfile" field instead',
    ]
    spec = {"securityContext": {"seccompProfile": {"type": "RuntimeDefault"}},
            "containers": [{"name": "foo", "image": "i", "securityContext": {"seccompProfile": {"type": "RuntimeDefault"}}}]}
    assert deployment(spec, SECCOMP) == []


AA = "container.apparmor.security.beta.kubernetes.io/foo"
AA_WARNING = f'{T}.metadata.annotations[{AA}]: deprecated since v1.30; use the "appArmorProfile" field instead'


@pytest.mark.parametrize(("annotation", "pod_profile", "container_profile", "release", "warns"), [
    ("unconfined", None, None, "1.36", True),  # "AppArmor annotations"
    ("unconfined", {"type": "Unconfined"}, None, "1.36", False),  # "AppArmor matching pod field"
    ("unconfined", None, {"type": "Unconfined"}, "1.36", False),  # "AppArmor container field"
    ("unconfined", {"type": "Unconfined"}, None, "1.33", False),
    ("unconfined", None, None, "1.30", True),
    # "AppArmor different pod field" has no valid create: validateAppArmorAnnotationsAndFieldsMatchOnCreate refuses
    # a pod profile other than the annotation's (tests/core/apis/test_pod_annotations.py), and an invalid object gets
    # no warnings; so 1.34's narrower condition changes nothing a create can show
])
def test_app_armor_annotation(annotation: str, pod_profile: Any, container_profile: Any, release: str, warns: bool) -> None:
    spec: dict[str, Any] = {"containers": [{"name": "foo", "image": "i"}]}
    if pod_profile is not None:
        spec["securityContext"] = {"appArmorProfile": pod_profile}
    if container_profile is not None:
        spec["containers"][0]["securityContext"] = {"appArmorProfile": container_profile}
    assert deployment(spec, {AA: annotation}, release) == ([AA_WARNING] if warns else [])


def test_host_ip_without_host_port() -> None:
    """"one container port hostIP set without host port set" and "duplicate container ports with one host port
    set and one without"."""
    ports = [{"containerPort": 80, "protocol": "UDP", "hostIP": "10.0.0.1"}]
    assert deployment({"containers": [{"name": "foo", "image": "i", "ports": ports}]}) == [
        f"{T}.spec.containers[0].ports[0]: hostIP set without hostPort: {{Name: HostPort:0 ContainerPort:80 Protocol:UDP HostIP:10.0.0.1}}"]
    ports = [{"containerPort": 80, "hostPort": 80, "protocol": "UDP", "hostIP": "10.0.0.1"}, {"containerPort": 80, "protocol": "UDP", "hostIP": "10.0.0.1"}]
    assert deployment({"containers": [{"name": "foo", "image": "i", "ports": ports}]}) == [
        f"{T}.spec.containers[0].ports[1]: hostIP set without hostPort: {{Name: HostPort:0 ContainerPort:80 Protocol:UDP HostIP:10.0.0.1}}",
        f"{T}.spec.containers[0].ports[1]: overlapping port definition with {T}.spec.containers[0].ports[0]"]


def _volume(vol: dict[str, Any], release: str = "1.36") -> list[str]:
    return deployment({"volumes": [vol]}, release=release)


@pytest.mark.parametrize(("vol", "expected"), [
    # warnings_test.go "overlapping paths in a configmap volume" (volume-level items are not checked for duplicates)
    ({"name": "test", "configMap": {"name": "foo", "items": [{"key": "foo", "path": "test"}, {"key": "bar", "path": "test"}]}},
     ['volume "test" (ConfigMap "foo"): overlapping paths: "test" with "test"']),
    ({"name": "test", "configMap": {"name": "foo", "items": [{"key": "foo", "path": "test"}, {"key": "bar", "path": "test/app"}]}},
     ['volume "test" (ConfigMap "foo"): overlapping paths: "test/app" with "test"']),
    ({"name": "test", "secret": {"secretName": "foo", "items": [{"key": "foo", "path": "test/app"}, {"key": "bar", "path": "test"}]}},
     ['volume "test" (Secret "foo"): overlapping paths: "test" with "test/app"']),
    # "overlapping paths in projected volume volume: service account dir and config file"
    ({"name": "foo", "projected": {"sources": [{"configMap": {"name": "test", "items": [{"key": "foo", "path": "test"}]}},
                                               {"serviceAccountToken": {"path": "test/file"}}]}},
     ['volume "foo" (Projected): overlapping paths: "test/file" (ServiceAccountToken) with "test" (ConfigMap "test")']),
    # "overlapping paths in projected volume - secret and config map"
    ({"name": "foo", "projected": {"sources": [{"secret": {"name": "testsecret", "items": [{"key": "mykey", "path": "test"}]}},
                                               {"configMap": {"name": "testconfigmap", "items": [{"key": "mykey", "path": "test/test1"}]}}]}},
     ['volume "foo" (Projected): overlapping paths: "test/test1" (ConfigMap "testconfigmap") with "test" (Secret "testsecret")']),
    # "... config map and downward api"
    ({"name": "foo", "projected": {"sources": [{"secret": {"name": "testsecret", "items": [{"key": "mykey", "path": "test"}]}},
                                               {"downwardAPI": {"items": [{"fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.name"}, "path": "test/test2"}]}}]}},
     ['volume "foo" (Projected): overlapping paths: "test/test2" (DownwardAPI) with "test" (Secret "testsecret")']),
])
def test_overlapping_virtual_paths_1_36(vol: dict[str, Any], expected: list[str]) -> None:
    """warningsForOverlappingVirtualPaths (release-4.19 … 4.23); 1.31 has none."""
    assert _volume(vol) == expected
    assert _volume(vol, "1.31") == []


TOKEN_AND_CONFIG = {"name": "creds", "projected": {"sources": [
    {"serviceAccountToken": {"path": "token", "expirationSeconds": 3607}},
    {"configMap": {"name": "app-config"}},
    {"downwardAPI": {"items": [{"path": "namespace", "fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.namespace"}}]}}]}}


@pytest.mark.parametrize(("release", "expected"), [
    ("1.32", ['volume "creds" (Projected): overlapping paths: "token" (ServiceAccountToken) with "token" (ServiceAccountToken)']),
    ("1.33", ['volume "creds" (Projected): overlapping paths: "token" (ServiceAccountToken) with "token" (ServiceAccountToken)']),
    ("1.34", []),
])
def test_projected_source_without_paths_by_release(release: str, expected: list[str]) -> None:
    """release-4.19/4.20 declare ``sourcePaths`` outside the sources loop: a source without items (the configMap
    here) re-checks the previous source's paths against themselves; release-4.21 declares it per source."""
    assert _volume(TOKEN_AND_CONFIG, release) == expected
