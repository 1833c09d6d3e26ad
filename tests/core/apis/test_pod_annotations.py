"""Seccomp and AppArmor annotations of pod templates: kubernetes/kubernetes ``pkg/apis/core/validation``
``ValidateSeccompPodAnnotations``, ``ValidateAppArmorPodAnnotations``, ``validateSeccompAnnotationsAndFields``,
``validateAppArmorAnnotationsAndFieldsMatchOnCreate`` (the same at release-4.17 … 4.23); cases from
``validation_test.go`` @release-4.23: ``TestValidatePodTemplateSpecSeccomp`` (exact error lists),
``TestValidateAppArmorProfileFormat``."""

from __future__ import annotations

from typing import Any

import pytest

from tests.core.apis._create import create

T = "spec.template"


def deployment(spec: dict[str, Any], annotations: dict[str, str]) -> list[str]:
    body: dict[str, Any] = {"containers": [{"name": "ctr", "image": "image"}]}
    body.update(spec)
    obj = {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "d", "namespace": "ns"},
           "spec": {"selector": {"matchLabels": {"a": "b"}}, "template": {"metadata": {"labels": {"a": "b"}, "annotations": annotations}, "spec": body}}}
    return [str(e) for e in create(obj)[0]]


RD = {"securityContext": {"seccompProfile": {"type": "RuntimeDefault"}}}


@pytest.mark.parametrize(("spec", "annotations", "expected"), [
    ({"containers": [{"name": "test1", "image": "image"}, {"name": "test2", "image": "image", **RD}]},
     {"container.seccomp.security.alpha.kubernetes.io/test2": "unconfined"},
     [f"{T}.spec.containers[1].securityContext.seccompProfile.type: Forbidden: seccomp type in annotation and field must match"]),
    ({"securityContext": {"seccompProfile": {"type": "Unconfined"}}}, {"seccomp.security.alpha.kubernetes.io/pod": "runtime/default"},
     [f"{T}.spec.securityContext.seccompProfile.type: Forbidden: seccomp type in annotation and field must match"]),
    ({"initContainers": [{"name": "init-test", "image": "image", **RD}]}, {"container.seccomp.security.alpha.kubernetes.io/init-test": "unconfined"},
     [f"{T}.spec.initContainers[0].securityContext.seccompProfile.type: Forbidden: seccomp type in annotation and field must match"]),
])
def test_pod_template_spec_seccomp(spec: dict[str, Any], annotations: dict[str, str], expected: list[str]) -> None:
    """TestValidatePodTemplateSpecSeccomp @release-4.23."""
    assert deployment(spec, annotations) == expected


def test_seccomp_annotation_values() -> None:
    """ValidateSeccompProfile: a known name or ``localhost/`` and a descending path; ``fldPath.Child(key)``."""
    assert deployment({}, {"seccomp.security.alpha.kubernetes.io/pod": "docker/default",
                           "container.seccomp.security.alpha.kubernetes.io/ctr": "localhost/profiles/a.json"}) == []
    assert deployment({}, {"seccomp.security.alpha.kubernetes.io/pod": "foo", "container.seccomp.security.alpha.kubernetes.io/ctr": "localhost/../x"}) == [
        f'{T}.annotations.seccomp.security.alpha.kubernetes.io/pod: Invalid value: "foo": must be a valid seccomp profile',
        f"{T}.annotations.container.seccomp.security.alpha.kubernetes.io/ctr: Invalid value: \"../x\": must not contain '..'",
    ]


@pytest.mark.parametrize(("profile", "valid"), [
    ("", True), ("runtime/default", True), ("unconfined", True), ("baz", False), ("localhost//usr/sbin/ntpd", True), ("localhost/foo-bar", True),
])
def test_app_armor_profile_format(profile: str, valid: bool) -> None:
    """TestValidateAppArmorProfileFormat @release-4.23, through ValidateAppArmorPodAnnotations."""
    key = "container.apparmor.security.beta.kubernetes.io/ctr"
    errs = deployment({}, {key: profile})
    assert errs == ([] if valid else [f'{T}.annotations[{key}]: Invalid value: "baz": invalid AppArmor profile name: "baz"'])


def test_app_armor_annotation_for_an_unknown_container_and_mismatched_field() -> None:
    assert deployment({}, {"container.apparmor.security.beta.kubernetes.io/nope": "runtime/default"}) == [
        f'{T}.annotations[container.apparmor.security.beta.kubernetes.io/nope]: Invalid value: "nope": container not found']
    spec = {"securityContext": {"appArmorProfile": {"type": "Localhost", "localhostProfile": "a"}}}
    assert deployment(spec, {"container.apparmor.security.beta.kubernetes.io/ctr": "localhost/b"}) == [
        f"{T}.spec.containers[0].securityContext.appArmorProfile.localhostProfile: Forbidden: apparmor profile in annotation and field must match"]


def _pod(annotation: str, pod_profile: dict[str, Any] | None = None) -> dict[str, Any]:
    spec: dict[str, Any] = {"restartPolicy": "Never", "containers": [{"name": "ctr", "image": "image"}]}
    if pod_profile is not None:
        spec["securityContext"] = {"appArmorProfile": pod_profile}
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "namespace": "d",
            "annotations": {"container.apparmor.security.beta.kubernetes.io/ctr": annotation}}, "spec": spec}


AA_WARN = 'metadata.annotations[container.apparmor.security.beta.kubernetes.io/ctr]: deprecated since v1.30; use the "appArmorProfile" field instead'


@pytest.mark.parametrize(("annotation", "pod_profile", "copied", "warned"), [
    ("runtime/default", None, {"type": "RuntimeDefault"}, True),
    ("localhost/foo", {"type": "Unconfined"}, {"type": "Localhost", "localhostProfile": "foo"}, True),
    ("runtime/default", {"type": "RuntimeDefault"}, None, False),
    ("", None, None, True),
])
def test_pod_app_armor_version_skew(annotation: str, pod_profile: dict[str, Any] | None, copied: Any, warned: bool) -> None:
    """The Pod strategy's applyAppArmorVersionSkew (pkg/registry/core/pod/strategy.go): the annotation's profile is
    copied to the container unless the pod has it, so validateAppArmorAnnotationsAndFieldsMatchOnCreate finds
    them matching; the warning comes from there, not from the template warnings (``isPodTemplate`` false)."""
    from crdtool.core.registry.create import create_builtin

    verdict = create_builtin(_pod(annotation, pod_profile), "1.36")
    assert verdict.errors == []
    assert verdict.warnings == ([AA_WARN] if warned else [])
    assert m_get(verdict.object, "spec", "containers", 0, "securityContext", "appArmorProfile") == copied


def m_get(obj: Any, *keys: Any) -> Any:
    for key in keys:
        if isinstance(key, int):
            obj = obj[key] if isinstance(obj, list) and len(obj) > key else None
        else:
            obj = obj.get(key) if isinstance(obj, dict) else None
    return obj
