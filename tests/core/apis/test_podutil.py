"""Feature-gated fields dropped on create (kubernetes/kubernetes ``pkg/api/pod/util.go`` ``dropDisabledFields``,
openshift/microshift ``release-4.17`` … ``release-4.23``; gate defaults from ``pkg/features/kube_features.go`` at the
same branches), through the strategies' ``PrepareForCreate``."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from crdtool.core.apis.core.podutil import POD_GATES, drop_disabled_pod_spec_fields, pod_gate
from crdtool.core.registry.create import create_builtin
from crdtool.core.releases import resolve_release


def _spec() -> dict[str, Any]:
    return {
        "hostUsers": False,
        "securityContext": {"supplementalGroupsPolicy": "Strict", "seLinuxChangePolicy": "Recursive"},
        "resources": {"limits": {"cpu": "1"}},
        "volumes": [{"name": "img", "image": {"reference": "r:1", "pullPolicy": "IfNotPresent"}}, {"name": "e", "emptyDir": {}}],
        "containers": [{
            "name": "c", "image": "i",
            "resizePolicy": [{"resourceName": "cpu", "restartPolicy": "NotRequired"}],
            "volumeMounts": [{"name": "img", "mountPath": "/img"}, {"name": "e", "mountPath": "/e", "recursiveReadOnly": "Disabled"}],
            "securityContext": {"procMount": "Unmasked"},
            "lifecycle": {"stopSignal": "SIGTERM"},
        }],
    }


@pytest.mark.parametrize(("release", "gone"), [
    # 1.30's types have neither supplementalGroupsPolicy nor seLinuxChangePolicy (strict decoding refuses them first)
    ("1.30", {"hostUsers", "supplementalGroupsPolicy", "seLinuxChangePolicy", "resources", "resizePolicy", "recursiveReadOnly", "procMount", "image", "stopSignal"}),
    ("1.32", {"hostUsers", "supplementalGroupsPolicy", "seLinuxChangePolicy", "resources", "resizePolicy", "procMount", "image", "stopSignal"}),
    ("1.33", {"resources", "image", "stopSignal"}),
    ("1.35", {"stopSignal"}),
])
def test_drop_by_release(release: str, gone: set[str]) -> None:
    """Each field is dropped exactly while its gate is off at the release."""
    spec = _spec()
    drop_disabled_pod_spec_fields(spec, resolve_release(release))
    ctr = spec["containers"][0]
    present = {
        "hostUsers": "hostUsers" in spec,
        "supplementalGroupsPolicy": "supplementalGroupsPolicy" in spec["securityContext"],
        "seLinuxChangePolicy": "seLinuxChangePolicy" in spec["securityContext"],
        "resources": "resources" in spec,
        "resizePolicy": "resizePolicy" in ctr,
        "recursiveReadOnly": "recursiveReadOnly" in ctr["volumeMounts"][-1],
        "procMount": ctr["securityContext"]["procMount"] == "Unmasked",
        "image": any(v["name"] == "img" for v in spec["volumes"]) and any(mt["name"] == "img" for mt in ctr["volumeMounts"]),
        "stopSignal": "lifecycle" in ctr,
    }
    assert {k for k, v in present.items() if not v} == gone


def test_proc_mount_becomes_default() -> None:
    """dropDisabledProcMountField sets ``Default`` rather than removing the field."""
    spec = _spec()
    drop_disabled_pod_spec_fields(spec, resolve_release("1.31"))
    assert spec["containers"][0]["securityContext"]["procMount"] == "Default"


def test_gate_table_steps() -> None:
    """The table's reading: off before the first step, each step's default from its minor on."""
    assert [pod_gate("ImageVolume", resolve_release(f"1.{n}")) for n in range(30, 38)] == [False] * 5 + [True] * 3
    assert all(steps == tuple(sorted(steps)) for steps in POD_GATES.values())


def _deployment(spec: dict[str, Any]) -> dict[str, Any]:
    return {
        "apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "d", "namespace": "default"},
        "spec": {"selector": {"matchLabels": {"a": "b"}}, "template": {"metadata": {"labels": {"a": "b"}}, "spec": spec}},
    }


def test_deployment_create_drops_image_volume_before_validation() -> None:
    """On 1.34 (ImageVolume off) an image volume and its mount are gone from the stored Deployment and nothing is
    validated of them (a bad pullPolicy passes); on 1.35 the same object is refused."""
    spec = {"volumes": [{"name": "img", "image": {"reference": "r:1", "pullPolicy": "Sometimes"}}],
            "containers": [{"name": "c", "image": "i", "volumeMounts": [{"name": "img", "mountPath": "/img"}]}]}
    body = _deployment(spec)
    result = create_builtin(copy.deepcopy(body), "1.34")
    assert result.errors == []
    stored = result.object["spec"]["template"]["spec"]
    assert "volumes" not in stored and "volumeMounts" not in stored["containers"][0]
    errs = create_builtin(copy.deepcopy(body), "1.35").errors
    assert [str(e) for e in errs] == [
        'spec.template.spec.volumes[0].image.pullPolicy: Unsupported value: "Sometimes": supported values: "Always", "IfNotPresent", "Never"',
        'spec.template.spec.containers[0].volumeMounts[0].name: Not found: "img"']


def test_scheduling_group_is_dropped_in_1_36() -> None:
    """dropDisabledSchedulingGroup (release-4.23): GenericWorkload is Alpha off, so a 1.36 pod template's
    ``schedulingGroup`` is gone before validation."""
    from crdtool.core.apis.core.podutil import drop_disabled_pod_spec_fields
    from crdtool.core.releases import resolve_release

    spec = {"containers": [{"name": "c", "image": "i"}], "schedulingGroup": {"podGroupName": "g"}}
    drop_disabled_pod_spec_fields(spec, resolve_release("1.36"))
    assert "schedulingGroup" not in spec
