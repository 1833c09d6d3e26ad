"""Volume mounts: ``TestValidateMountPropagation`` of kubernetes/kubernetes ``pkg/apis/core/validation/validation_test.go``
(openshift/microshift ``release-4.23`` = 1.36) and ``validateMountRecursiveReadOnly`` (the same at release-4.17 …
4.23), called as upstream does (``ValidateVolumeMounts`` with the mount's container)."""

from __future__ import annotations

from typing import Any

import pytest

from crdtool.core.apis.core.validation import validate_volume_mounts
from crdtool.core.errors import Path
from tests.core.apis._create import create

PRIV: dict[str, Any] = {"securityContext": {"privileged": True}}
UNPRIV: dict[str, Any] = {"securityContext": {"privileged": False}}
DEFAULT: dict[str, Any] = {}
VOLS = {"foo": {"hostPath": {"path": "/foo/baz"}}}


@pytest.mark.parametrize(("propagation", "container", "error"), [
    (None, DEFAULT, False), ("HostToContainer", DEFAULT, False), ("None", DEFAULT, False), ("Bidirectional", DEFAULT, True),
    (None, UNPRIV, False), ("HostToContainer", UNPRIV, False), ("Bidirectional", UNPRIV, True),
    (None, PRIV, False), ("HostToContainer", PRIV, False), ("Bidirectional", PRIV, False), ("invalid", PRIV, True),
    ("Bidirectional", None, False),
])
def test_mount_propagation(propagation: str | None, container: dict[str, Any] | None, error: bool) -> None:
    mount: dict[str, Any] = {"name": "foo", "mountPath": "/foo"}
    if propagation is not None:
        mount["mountPropagation"] = propagation
    errs = validate_volume_mounts([mount], {}, VOLS, Path("field"), container)
    assert bool(errs) is error, [str(e) for e in errs]


def test_recursive_read_only_and_texts_1_36() -> None:
    mounts = [{"name": "v", "mountPath": "/a", "recursiveReadOnly": "Enabled", "mountPropagation": "HostToContainer"},
              {"name": "v", "mountPath": "/b", "recursiveReadOnly": "Sometimes", "readOnly": True},
              {"name": "v", "mountPath": "/c", "mountPropagation": "Bidirectional"}]
    obj = {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "d", "namespace": "ns"},
           "spec": {"selector": {"matchLabels": {"a": "b"}}, "template": {"metadata": {"labels": {"a": "b"}}, "spec": {
               "volumes": [{"name": "v", "emptyDir": {}}], "containers": [{"name": "c", "image": "i", "volumeMounts": mounts}]}}}}
    p = "spec.template.spec.containers[0].volumeMounts"
    assert [str(e) for e in create(obj)[0]] == [
        f"{p}.recursiveReadOnly: Forbidden: may only be specified when readOnly is true",
        f"{p}.recursiveReadOnly: Forbidden: may only be specified when mountPropagation is None or not specified",
        f'{p}.recursiveReadOnly: Unsupported value: "Sometimes": supported values: "Disabled", "Enabled", "IfPossible"',
        f"{p}.mountPropagation: Forbidden: Bidirectional mount propagation is available only to privileged containers",
    ]
