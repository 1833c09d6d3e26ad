"""Pod security context, sysctls, Windows options, OS and host-users rules, cases from kubernetes/kubernetes
``pkg/apis/core/validation/validation_test.go`` at openshift/microshift ``release-4.22`` (= 1.35):
``TestIsValidSysctlName``, ``TestValidateSysctls``, ``TestValidateWindowsSecurityContextOptions``,
``TestValidateHostUsers``, ``TestValidateWindowsHostProcessPod``, ``TestValidateOS``; per-release words from the
same file at ``release-4.17`` … ``release-4.23``."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from crdtool.core.apis.core.validation import (
    _sysctls,
    is_valid_sysctl_name,
    sysctl_namespace,
    validate_pod_spec,
    validate_windows_security_context_options,
)
from crdtool.core.apis.core.podutil import drop_disabled_pod_spec_fields
from crdtool.core.errors import Path
from crdtool.core.releases import resolve_release

R30, R33, R34, R35 = (resolve_release(r) for r in ("1.30", "1.33", "1.34", "1.35"))

VALID_SYSCTLS = ["a.b.c.d", "a", "a_b", "a-b", "abc", "abc.def", "a/b/c/d", "a/b.c"]
INVALID_SYSCTLS = ["", "*", "ä", "a_", "_", "__", "_a", "_a._b", "-", ".", "a.", ".a", "a.b.", "a*.b", "a*b", "*a", "a.*",
                   "abc*", "a.abc*", "a.b.*", "Abc", "/", "/a", "a/abc*", "a/b/*", "a" * 256]


@pytest.mark.parametrize("name", VALID_SYSCTLS)
def test_is_valid_sysctl_name(name: str) -> None:
    """TestIsValidSysctlName @1.35, valid names."""
    assert is_valid_sysctl_name(name)


@pytest.mark.parametrize("name", INVALID_SYSCTLS)
def test_is_invalid_sysctl_name(name: str) -> None:
    """TestIsValidSysctlName @1.35, invalid names."""
    assert not is_valid_sysctl_name(name)


def _sysctl_errs(names: list[str], **spec: Any) -> list[Any]:
    return _sysctls([{"name": n, "value": "1"} for n in names], spec, Path("foo"))


def test_validate_sysctls() -> None:
    """TestValidateSysctls @1.35."""
    assert _sysctl_errs(["net.foo.bar", "kernel.shmmax", "net.ipv4.conf.enp3s0/200.forwarding", "net/ipv4/conf/enp3s0.200/forwarding"]) == []
    got = _sysctl_errs(["i..nvalid", "_invalid"])
    assert [str(e) for e in got] == [
        'foo[0].name: Invalid value: "i..nvalid": must have at most 253 characters and match regex ^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[\\./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$',
        'foo[1].name: Invalid value: "_invalid": must have at most 253 characters and match regex ^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[\\./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$',
    ]
    dup = _sysctl_errs(["kernel.shmmax", "kernel.shmmax"])
    assert [e.type for e in dup] == ["FieldValueDuplicate"]
    host_net = _sysctl_errs(["net.ipv4.conf.enp3s0/200.forwarding", "net/ipv4/conf/enp3s0.200/forwarding"], hostNetwork=True)
    assert [e.detail for e in host_net] == ["may not be specified when 'hostNetwork' is true"] * 2
    host_ipc = _sysctl_errs(["kernel.shmmax", "kernel.msgmax"], hostIPC=True)
    assert [e.detail for e in host_ipc] == ["may not be specified when 'hostIPC' is true"] * 2


@pytest.mark.parametrize(("name", "ns"), [
    ("net.ipv4.ip_forward", "Net"), ("net/ipv4/conf/eth0.100/forwarding", "Net"), ("kernel.shm_rmid_forced", "IPC"),
    ("fs.mqueue.msg_max", "IPC"), ("kernel.msgmax", "IPC"), ("kernel.msg*", "IPC"), ("vm.swappiness", ""), ("net", ""),
])
def test_sysctl_namespace(name: str, ns: str) -> None:
    """component-helpers ``sysctl.GetNamespace`` (namespace.go @release-4.22)."""
    assert sysctl_namespace(name) == ns


WIN = [
    ({}, ""),
    ({"gmsaCredentialSpecName": "dummy-gmsa-crep-spec-name", "gmsaCredentialSpec": "dummy-gmsa-crep-spec-contents"}, ""),
    ({"gmsaCredentialSpecName": "not_a-valid-gmsa-crep-spec-name"}, "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters"),
    ({"gmsaCredentialSpec": ""}, "gmsaCredentialSpec cannot be an empty string"),
    ({"gmsaCredentialSpec": "a" * (64 * 1024 + 1)}, "gmsaCredentialSpec size must be under"),
    ({"runAsUserName": "Container. User"}, ""),
    ({"runAsUserName": "Network Service\\Container. User"}, ""),
    ({"runAsUserName": "fOo" * 20 + ".liSH\\Container. User"}, ""),
    ({"runAsUserName": "fOo" * 20 + ".l\\Container. User"}, ""),
    ({"runAsUserName": "a" * 42 + "\\Container. User"}, ""),
    ({"runAsUserName": ""}, "runAsUserName cannot be an empty string"),
    ({"runAsUserName": "Container\tUser"}, "runAsUserName cannot contain control characters"),
    ({"runAsUserName": "Container\\Foo\\Lish"}, "runAsUserName cannot contain more than one backslash"),
    ({"runAsUserName": "\\User"}, "runAsUserName's Domain doesn't match the NetBios nor the DNS format"),
    ({"runAsUserName": "Container\\"}, "runAsUserName's User cannot be empty"),
    ({"runAsUserName": "NetBios " + "a" * 8 + "\\user"}, "runAsUserName's Domain doesn't match the NetBios"),
    ({"runAsUserName": (("a" * 63 + ".") * 4)[:253] + ".com\\user"}, "runAsUserName's Domain length must be under"),
    ({"runAsUserName": "a" * 105}, "runAsUserName's User length must not be longer than"),
    ({"runAsUserName": "... ..."}, "runAsUserName's User cannot contain only periods or spaces"),
    ({"runAsUserName": ".FooLish\\User"}, "runAsUserName's Domain doesn't match the NetBios"),
    ({"runAsUserName": "Foo? Lish?\\User"}, "runAsUserName's Domain doesn't match the NetBios"),
    ({"runAsUserName": "a" * 32 + ".com-\\user"}, "runAsUserName's Domain doesn't match the NetBios nor the DNS format"),
    ({"runAsUserName": "Container/User"}, "runAsUserName's User cannot contain the following characters"),
]


@pytest.mark.parametrize(("options", "want"), WIN)
def test_validate_windows_security_context_options(options: dict[str, Any], want: str) -> None:
    """TestValidateWindowsSecurityContextOptions @1.35: none, or exactly one error containing ``want``."""
    got = validate_windows_security_context_options(options, Path("field"))
    if not want:
        assert got == []
    else:
        assert len(got) == 1 and want in str(got[0])


def _spec(**kw: Any) -> dict[str, Any]:
    spec: dict[str, Any] = {
        "containers": [{"name": "c", "image": "i", "imagePullPolicy": "IfNotPresent", "terminationMessagePolicy": "File"}],
        "restartPolicy": "Always", "dnsPolicy": "ClusterFirst", "terminationGracePeriodSeconds": 30,
    }
    spec.update(kw)
    return spec


def _pod_errs(spec: dict[str, Any], release: Any = R35) -> list[str]:
    """PrepareForCreate's gated-field drop, then ValidatePodSpec: what the apiserver answers on create."""
    spec = copy.deepcopy(spec)
    drop_disabled_pod_spec_fields(spec, release)
    return [str(e) for e in validate_pod_spec(spec, Path("spec"), release)]


def test_host_users_false_forbids_host_namespaces() -> None:
    """TestValidateHostUsers @1.35 (host namespaces with ``hostUsers: false``) and the 1.33 words; 1.30's
    PrepareForCreate drops the field (gate ``UserNamespacesSupport`` off) so nothing is reported."""
    spec = _spec(hostUsers=False, hostNetwork=True, hostPID=True, hostIPC=True)
    assert _pod_errs(spec) == [
        "spec.hostNetwork: Forbidden: when `hostUsers` is false",
        "spec.HostPID: Forbidden: when `hostUsers` is false",
        "spec.HostIPC: Forbidden: when `hostUsers` is false",
    ]
    assert _pod_errs(spec, R33) == [
        "spec.hostNetwork: Forbidden: when `pod.Spec.HostUsers` is false",
        "spec.HostPID: Forbidden: when `pod.Spec.HostUsers` is false",
        "spec.HostIPC: Forbidden: when `pod.Spec.HostUsers` is false",
    ]
    assert _pod_errs(spec, R30) == []
    assert _pod_errs(_spec(hostUsers=False)) == []


def test_windows_host_process_pod() -> None:
    """TestValidateWindowsHostProcessPod @1.35: every container a hostProcess one, and hostNetwork."""
    spec = _spec(securityContext={"windowsOptions": {"hostProcess": True}})
    spec["containers"].append({"name": "d", "image": "i", "imagePullPolicy": "IfNotPresent", "terminationMessagePolicy": "File",
                               "securityContext": {"windowsOptions": {"hostProcess": False}}})
    assert _pod_errs(spec) == [
        "spec.containers[1].securityContext.windowsOptions.hostProcess: Invalid value: false: pod hostProcess value must be identical if both are specified, was true",
        'spec: Invalid value: "": If pod contains any hostProcess containers then all containers must be HostProcess containers',
        "spec.hostNetwork: Invalid value: false: hostNetwork must be true if pod contains any hostProcess containers",
    ]


def test_validate_os() -> None:
    """TestValidateOS @1.35 and validateWindows / validateLinux; 1.33 still says "cannot be empty"."""
    assert _pod_errs(_spec(os={"name": ""})) == ["spec.os.name: Required value"]
    assert _pod_errs(_spec(os={"name": ""}), R33) == ["spec.os.name: Required value: cannot be empty"]
    assert _pod_errs(_spec(os={"name": "macos"})) == ['spec.os: Unsupported value: "macos": supported values: "linux", "windows"']
    assert _pod_errs(_spec(os={"name": "linux"}, securityContext={"windowsOptions": {}})) == [
        "spec.securityContext.windowsOptions: Forbidden: windows options cannot be set for a linux pod"]
    win = _spec(os={"name": "windows"}, hostPID=True, securityContext={"runAsUser": 1, "sysctls": [{"name": "a", "value": "1"}]})
    win["containers"][0]["securityContext"] = {"privileged": False}
    assert _pod_errs(win) == [
        "spec.hostPID: Forbidden: cannot be set for a windows pod",
        "spec.securityContext.sysctls: Forbidden: cannot be set for a windows pod",
        "spec.securityContext.runAsUser: Forbidden: cannot be set for a windows pod",
        "spec.containers[0].securityContext.privileged: Forbidden: cannot be set for a windows pod",
    ]


def test_share_process_namespace_with_host_pid() -> None:
    """validatePodSpecSecurityContext: the internal security context holds both (path upstream's)."""
    assert _pod_errs(_spec(shareProcessNamespace=True, hostPID=True)) == [
        "spec.securityContext.shareProcessNamespace: Invalid value: true: ShareProcessNamespace and HostPID cannot both be enabled"]


def test_gated_pod_security_fields() -> None:
    """supplementalGroupsPolicy and seLinuxChangePolicy (only Recursive while SELinuxMount is off); on 1.32 both
    gates are off and PrepareForCreate drops the fields before validation."""
    spec = _spec(securityContext={"supplementalGroupsPolicy": "Loose", "seLinuxChangePolicy": "MountOption"})
    assert _pod_errs(spec) == [
        'spec.securityContext.supplementalGroupsPolicy: Unsupported value: "Loose": supported values: "Merge", "Strict"',
        'spec.securityContext.seLinuxChangePolicy: Unsupported value: "MountOption": supported values: "Recursive"',
    ]
    assert _pod_errs(spec, resolve_release("1.32")) == []


def test_host_network_host_port() -> None:
    """validatePodHostNetworkDeps on a template: 0 passes, another host port must equal the container port."""
    spec = _spec(hostNetwork=True)
    spec["containers"][0]["ports"] = [{"containerPort": 80, "protocol": "TCP"}, {"containerPort": 81, "hostPort": 82, "protocol": "TCP"}]
    assert _pod_errs(spec) == ["spec.containers[0].ports[1].hostPort: Invalid value: 82: must match `containerPort` when `hostNetwork` is true"]


def test_host_aliases_ip() -> None:
    """ValidateHostAliases: each alias's IP (IsValidIP / IsValidIPForLegacyField), then its hostnames."""
    spec = _spec(hostAliases=[{"ip": "10.0.0.1", "hostnames": ["a.example"]}, {"ip": "not-an-ip", "hostnames": ["B"]}])
    assert _pod_errs(spec) == [
        'spec.hostAliases[1].ip: Invalid value: "not-an-ip": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
        'spec.hostAliases[1].hostnames[0]: Invalid value: "B": a lowercase RFC 1123 subdomain must consist of lower case '
        "alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', "
        "regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    ]
