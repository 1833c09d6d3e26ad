"""Native validation of the core group (``""``/v1): pod templates, Service, ConfigMap, Secret, ServiceAccount,
Namespace, PersistentVolumeClaim.

Mirrors kubernetes/kubernetes ``pkg/apis/core/validation/validation.go`` (1.36: openshift/microshift
``release-4.23``, ``deps/github.com/openshift/kubernetes``; compared with 1.30 … 1.35 for every rule ported,
differences in :data:`CORE_CHANGES`). Functions take the versioned object's dicts (``spec``, ``template``, a
container …) as decoded JSON after defaulting; the function names are upstream's in snake case.

Left out (accepted without their inner checks, see the note of issue 30): affinity terms' ``matchLabelKeys``,
topology spread constraints' ``matchLabelKeys``, resource claims,
ephemeral containers, seccomp/AppArmor/tolerations annotations, PVC data sources. Every volume
type's own checks are ported (``validateVolumeSource`` and the ``validate<Type>VolumeSource`` functions, identical
1.31 … 1.36 but for the ``image`` type, which 1.30 does not have).
"""

from __future__ import annotations

import base64
import binascii
import json
import posixpath
import re
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence

from crdtool.core.apis._util import i, lst, m, nonnegative, s, validate_label_selector
from crdtool.core.errors import (
    FieldError,
    Path,
    duplicate,
    forbidden,
    go_quote,
    go_typed,
    invalid,
    not_found,
    not_supported,
    required,
    too_long,
    too_many,
)
from crdtool.core.apis.core.podutil import pod_gate
from crdtool.core.gojson import GoStruct
from crdtool.core.objectmeta import validate_annotations, validate_finalizer_name, validate_label_name, validate_labels, validate_object_meta
from crdtool.core.releases import Release
from crdtool.core.validation_util import (
    byte_len,
    go_to_lower,
    inclusive_range_error,
    is_config_map_key,
    is_dns1123_label,
    is_dns1123_subdomain,
    is_env_var_name,
    is_http_header_name,
    is_qualified_name,
    is_relaxed_env_var_name,
    is_valid_label_value,
    is_valid_port_name,
    is_valid_port_num,
    name_is_dns1035_label,
    name_is_dns_label,
    name_is_dns_subdomain,
)

#: ``field.NewPath("metadata")``, built once (a Path is an immutable str).
_METADATA = Path("metadata")

#: Per-release differences of the rules ported here, by the first Kubernetes minor that has them:
#:
#: * ``"node-affinity-label-values"`` (``ValidateNodeSelectorRequirement`` @1.32): the values of a required node
#:   affinity's match expressions must be label values.
#: * ``"relaxed-dns-search"``: gate ``RelaxedDNSSearchValidation`` (1.32 Alpha false, 1.33 Beta true): DNS search
#:   paths may hold ``_`` and be ``.``.
#: * ``"relaxed-env-var-names"``: feature gate ``RelaxedEnvironmentVariableValidation`` on by default
#:   (``pkg/features/kube_features.go``: 1.30/1.31 Alpha false, 1.32 Beta true, 1.34 GA): env names and
#:   ``envFrom`` prefixes are any printable ASCII but ``=`` (``IsRelaxedEnvVarName``).
#: * ``"sleep-zero"``: gate ``PodLifecycleSleepActionAllowZero`` (1.32 Alpha false, 1.33 Beta true).
#: * ``"env-files"``: gate ``EnvFiles`` (1.34 Alpha false, 1.35 Beta true): the ``valueFrom`` message names
#:   ``fileKeyRef``.
#: * ``"service-name-dns-label"``: gate ``RelaxedServiceNameValidation`` (1.34 Alpha false, 1.36 Beta true):
#:   a Service name is an RFC 1123 label instead of an RFC 1035 one.
#: * ``"host-users-words"`` (validation.go @release-4.21 = 1.34): ``validateHostUsers`` says "when `hostUsers`
#:   is false" (before: "when `pod.Spec.HostUsers` is false") and forbids ``volumeDevices`` with it.
#: * ``"os-name-no-detail"`` (@1.34): ``validateOS``'s missing name is ``Required`` without the detail
#:   "cannot be empty".
#:
#: Fields behind a gate that is off by default (``hostUsers`` before 1.33, ``supplementalGroupsPolicy`` and
#: ``seLinuxChangePolicy`` before 1.33, ...) never reach these rules: the strategies' ``PrepareForCreate`` drops
#: them first (:mod:`crdtool.core.apis.core.podutil`), as upstream's ``dropDisabledFields`` does.
CORE_CHANGES: dict[str, int] = {
    "host-users-words": 34,
    "os-name-no-detail": 34,
    "node-affinity-label-values": 32,
    "relaxed-dns-search": 33,
    "relaxed-env-var-names": 32,
    "sleep-zero": 33,
    "env-files": 35,
    "service-name-dns-label": 36,
}

FILE_MODE_ERROR_MSG = "must be a number between 0 and 0777 (octal), both inclusive"
IS_NEGATIVE_ERROR_MSG = "must be greater than or equal to 0"
IS_NOT_INTEGER_ERROR_MSG = "must be an integer"
#: ``core.MaxSecretSize``: 1 MiB.
MAX_SECRET_SIZE = 1 * 1024 * 1024

if TYPE_CHECKING:
    from crdtool.core.kubecel.library import Quantity

NameFn = Callable[[str, bool], "list[str]"]

# Upstream name functions (validation.go ``Validate*Name``).
validate_pod_name = name_is_dns_subdomain  # ValidatePodName
validate_config_map_name = name_is_dns_subdomain
validate_secret_name = name_is_dns_subdomain
validate_service_account_name = name_is_dns_subdomain
validate_namespace_name = name_is_dns_label
validate_persistent_volume_name = name_is_dns_subdomain
validate_priority_class_name = name_is_dns_subdomain
validate_node_name = name_is_dns_subdomain

_STANDARD_FINALIZERS = frozenset({"kubernetes", "orphan", "foregroundDeletion"})


def _minor(release: Release) -> int:
    return release.minor


def validate_kube_finalizer_name(name: str, path: Path) -> list[FieldError]:
    """Upstream ``validateKubeFinalizerName``."""
    if len(name.split("/")) == 1 and name not in _STANDARD_FINALIZERS:
        return [invalid(path, name, "name is neither a standard finalizer name nor is it fully qualified")]
    return []


def validate_object_meta_core(
    meta: Any, namespaced: bool, name_fn: NameFn, path: Path, release: Release
) -> list[FieldError]:
    """Upstream ``ValidateObjectMeta`` of pkg/apis/core/validation: apimachinery's plus the kube finalizer names."""
    meta = m(meta)
    errs = validate_object_meta(meta, namespaced, name_fn, path, release)
    for index, fin in enumerate(lst(meta.get("finalizers"))):
        errs.extend(validate_kube_finalizer_name(s(fin), path.child("finalizers").index(index)))
    return errs


def _dns1123_label(value: str, path: Path) -> list[FieldError]:
    return [invalid(path, value, msg) for msg in is_dns1123_label(value)]


def _dns1123_subdomain(value: str, path: Path) -> list[FieldError]:
    return [invalid(path, value, msg) for msg in is_dns1123_subdomain(value)]


def _qualified_name(value: str, path: Path, release: Release) -> list[FieldError]:
    return [invalid(path, value, msg) for msg in is_qualified_name(value, release)]


# --- quantities --------------------------------------------------------------------------------------


def _quantity(v: Any) -> Quantity | None:
    """A decoded ``resource.Quantity`` (JSON string or number); None when it does not parse (strict decoding
    would have refused it before validation)."""
    if isinstance(v, bool):
        return None
    if isinstance(v, (int, float)):
        v = str(v)
    if not isinstance(v, str):
        return None
    # resource.ParseQuantity lives with the CEL quantity library; imported on first use (it pulls cel-go in)
    from crdtool.core.kubecel.library import Quantity, parse_quantity

    q = parse_quantity(v)
    return q if isinstance(q, Quantity) else None


def _q_str(v: Any) -> str:
    """``Quantity.String()``: the canonical text (``"0.5"`` is ``500m``)."""
    from crdtool.core.apis._quantity import canonical_text

    text = canonical_text(v)
    return text if text is not None else str(v)


# --- volumes -----------------------------------------------------------------------------------------

#: The ``VolumeSource`` members in upstream's order of ``validateVolumeSource``.
_VOLUME_TYPES = (
    "emptyDir", "hostPath", "gitRepo", "gcePersistentDisk", "awsElasticBlockStore", "secret", "nfs", "iscsi",
    "glusterfs", "flocker", "persistentVolumeClaim", "rbd", "cinder", "cephfs", "quobyte", "downwardAPI", "fc",
    "flexVolume", "configMap", "azureFile", "vsphereVolume", "photonPersistentDisk", "portworxVolume",
    "azureDisk", "storageos", "projected", "scaleIO", "csi", "ephemeral", "image",
)


def _mode_errs(mode: Any, path: Path) -> list[FieldError]:
    if isinstance(mode, int) and (mode > 0o777 or mode < 0):
        return [invalid(path, mode, FILE_MODE_ERROR_MSG)]
    return []


def validate_path_no_backsteps(target: str, path: Path) -> list[FieldError]:
    """Upstream ``validatePathNoBacksteps``."""
    if ".." in target.split("/"):
        return [invalid(path, target, "must not contain '..'")]
    return []


def validate_local_descending_path(target: str, path: Path) -> list[FieldError]:
    """Upstream ``validateLocalDescendingPath``."""
    errs: list[FieldError] = []
    if posixpath.isabs(target):
        errs.append(invalid(path, target, "must be a relative path"))
    errs.extend(validate_path_no_backsteps(target, path))
    return errs


def validate_local_non_reserved_path(target: str, path: Path) -> list[FieldError]:
    """Upstream ``ValidateLocalNonReservedPath``."""
    errs = validate_local_descending_path(target, path)
    if target.startswith("..") and not target.startswith("../"):
        errs.append(invalid(path, target, "must not start with '..'"))
    return errs


def validate_key_to_path(kp: Mapping[str, Any], path: Path) -> list[FieldError]:
    """Upstream ``validateKeyToPath``."""
    errs: list[FieldError] = []
    if not s(kp.get("key")):
        errs.append(required(path.child("key"), ""))
    if not s(kp.get("path")):
        errs.append(required(path.child("path"), ""))
    errs.extend(validate_local_non_reserved_path(s(kp.get("path")), path.child("path")))
    errs.extend(_mode_errs(kp.get("mode"), path.child("mode")))
    return errs


_HOST_PATH_TYPES = ("", "BlockDevice", "CharDevice", "Directory", "DirectoryOrCreate", "File", "FileOrCreate", "Socket")

_VOLUME_DOWNWARD_API_FIELD_PATHS = ("metadata.annotations", "metadata.labels", "metadata.name", "metadata.namespace", "metadata.uid")
_ENV_DOWNWARD_API_FIELD_PATHS = (
    "metadata.name", "metadata.namespace", "metadata.uid", "spec.nodeName", "spec.serviceAccountName",
    "status.hostIP", "status.hostIPs", "status.podIP", "status.podIPs",
)
_CONTAINER_RESOURCE_FIELD_PATHS = (
    "limits.cpu", "limits.ephemeral-storage", "limits.memory", "requests.cpu", "requests.ephemeral-storage",
    "requests.memory",
)
_HUGEPAGES_PREFIXES = ("limits.hugepages-", "requests.hugepages-")


def _object_field_selector(fs: Mapping[str, Any], expressions: Sequence[str], path: Path, release: Release) -> list[FieldError]:
    """Upstream ``validateObjectFieldSelector`` (``ConvertDownwardAPIFieldLabel`` for v1 only)."""
    api_version = s(fs.get("apiVersion"))
    field_path = s(fs.get("fieldPath"))
    if not api_version:
        return [required(path.child("apiVersion"), "")]
    if not field_path:
        return [required(path.child("fieldPath"), "")]
    if api_version != "v1":
        return [invalid(path.child("fieldPath"), field_path,
                        f'error converting fieldPath: unsupported pod version: {api_version}')]
    # pods.ConvertDownwardAPIFieldLabel + fieldpath.SplitMaybeSubscriptedPath
    sub_path, subscript, subscripted = field_path, "", False
    if field_path.endswith("']"):
        left = field_path.find("['")
        if left != -1:
            sub_path, subscript, subscripted = field_path[:left], field_path[left + 2:-2], True
    if subscripted:
        if sub_path not in ("metadata.annotations", "metadata.labels"):
            return [invalid(path.child("fieldPath"), field_path,
                            f"error converting fieldPath: field label does not support subscript: {sub_path}")]
        if sub_path == "metadata.annotations":
            return _qualified_name(go_to_lower(subscript), path, release)
        return _qualified_name(subscript, path, release)
    if field_path not in ("metadata.annotations", "metadata.labels", "metadata.name", "metadata.namespace",
                          "metadata.uid", "spec.nodeName", "spec.restartPolicy", "spec.serviceAccountName",
                          "spec.schedulerName", "status.phase", "status.hostIP", "status.hostIPs", "status.podIP",
                          "status.podIPs"):
        return [invalid(path.child("fieldPath"), field_path,
                        f'error converting fieldPath: field label not supported: {field_path}')]
    if field_path not in expressions:
        return [not_supported(path.child("fieldPath"), field_path, sorted(expressions))]
    return []


_DIVISORS_MEMORY = frozenset({"1", "1k", "1M", "1G", "1T", "1P", "1E", "1Ki", "1Mi", "1Gi", "1Ti", "1Pi", "1Ei"})


def _resource_field_selector(fs: Mapping[str, Any], path: Path, volume: bool) -> list[FieldError]:
    """Upstream ``validateContainerResourceFieldSelector`` and ``validateContainerResourceDivisor``."""
    errs: list[FieldError] = []
    resource = s(fs.get("resource"))
    if volume and not s(fs.get("containerName")):
        errs.append(required(path.child("containerName"), ""))
    elif not resource:
        errs.append(required(path.child("resource"), ""))
    elif resource not in _CONTAINER_RESOURCE_FIELD_PATHS and not resource.startswith(_HUGEPAGES_PREFIXES):
        errs.append(not_supported(path.child("resource"), resource, _CONTAINER_RESOURCE_FIELD_PATHS))
    divisor = fs.get("divisor")
    q = _quantity(divisor) if divisor is not None else None
    if q is None or q.is_zero():
        return errs
    d = _q_str(divisor)
    if resource in ("limits.cpu", "requests.cpu"):
        if d not in ("1m", "1"):
            errs.append(invalid(path.child("divisor"), resource, "only divisor's values 1m and 1 are supported with the cpu resource"))
    elif resource in ("limits.memory", "requests.memory"):
        if d not in _DIVISORS_MEMORY:
            errs.append(invalid(path.child("divisor"), resource, "only divisor's values 1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei are supported with the memory resource"))
    elif resource in ("limits.ephemeral-storage", "requests.ephemeral-storage"):
        if d not in _DIVISORS_MEMORY:
            errs.append(invalid(path.child("divisor"), resource, "only divisor's values 1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei are supported with the local ephemeral storage resource"))
    if resource.startswith(_HUGEPAGES_PREFIXES) and d not in _DIVISORS_MEMORY:
        errs.append(invalid(path.child("divisor"), resource, "only divisor's values 1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei are supported with the hugepages resource"))
    return errs


def _downward_api_volume_file(file: Mapping[str, Any], path: Path, release: Release) -> list[FieldError]:
    """Upstream ``validateDownwardAPIVolumeFile``."""
    errs: list[FieldError] = []
    fpath = s(file.get("path"))
    if not fpath:
        errs.append(required(path.child("path"), ""))
    errs.extend(validate_local_non_reserved_path(fpath, path.child("path")))
    if isinstance(file.get("fieldRef"), dict):
        errs.extend(_object_field_selector(file["fieldRef"], _VOLUME_DOWNWARD_API_FIELD_PATHS, path.child("fieldRef"), release))
        if isinstance(file.get("resourceFieldRef"), dict):
            errs.append(invalid(path, "resource", "fieldRef and resourceFieldRef can not be specified simultaneously"))
    elif isinstance(file.get("resourceFieldRef"), dict):
        errs.extend(_resource_field_selector(file["resourceFieldRef"], path.child("resourceFieldRef"), True))
    else:
        errs.append(required(path, "one of fieldRef and resourceFieldRef is required"))
    errs.extend(_mode_errs(file.get("mode"), path.child("mode")))
    return errs


def _projection_sources(proj: Mapping[str, Any], path: Path, release: Release) -> list[FieldError]:
    """Upstream ``validateProjectionSources`` (secret, configMap, downwardAPI, serviceAccountToken; the
    clusterTrustBundle and podCertificate sources count but are not checked further)."""
    errs: list[FieldError] = []
    all_paths: set[str] = set()
    for index, source in enumerate(lst(proj.get("sources"))):
        source = m(source)
        num = 0
        src_path = path.child("sources").index(index)
        for kind in ("secret", "configMap"):
            if isinstance(source.get(kind), dict):
                num += 1
                ref = source[kind]
                proj_path = src_path.child(kind)
                if not s(ref.get("name")):
                    errs.append(required(proj_path.child("name"), ""))
                for ii, kp in enumerate(lst(ref.get("items"))):
                    kp = m(kp)
                    errs.extend(validate_key_to_path(kp, proj_path.child("items").index(ii)))
                    cur = s(kp.get("path"))
                    if cur:
                        if cur in all_paths:
                            errs.append(invalid(path, s(ref.get("name")), "conflicting duplicate paths"))
                        all_paths.add(cur)
        if isinstance(source.get("downwardAPI"), dict):
            num += 1
            for file in lst(source["downwardAPI"].get("items")):
                file = m(file)
                errs.extend(_downward_api_volume_file(file, src_path.child("downwardAPI"), release))
                cur = s(file.get("path"))
                if cur:
                    if cur in all_paths:
                        errs.append(invalid(path, cur, "conflicting duplicate paths"))
                    all_paths.add(cur)
        if isinstance(source.get("serviceAccountToken"), dict):
            num += 1
            tok = source["serviceAccountToken"]
            proj_path = src_path.child("serviceAccountToken")
            exp = i(tok.get("expirationSeconds"))
            if exp < 10 * 60:
                errs.append(invalid(proj_path.child("expirationSeconds"), exp, "may not specify a duration less than 10 minutes"))
            if exp > 1 << 32:
                errs.append(invalid(proj_path.child("expirationSeconds"), exp, "may not specify a duration larger than 2^32 seconds"))
            if not s(tok.get("path")):
                errs.append(required(path.child("path"), ""))
            else:
                errs.extend(validate_local_non_reserved_path(s(tok.get("path")), path.child("path")))
        for kind in ("clusterTrustBundle", "podCertificate"):
            if isinstance(source.get(kind), dict):
                num += 1
        if num > 1:
            errs.append(forbidden(src_path, "may not specify more than 1 volume type per source"))
    return errs


#: ``validateVolumeSource``'s paths that are not the JSON name (upstream's own spellings, kept as users see them):
#: the "more than 1 volume type" error of ``downwardAPI`` says ``downwarAPI`` and of ``cephfs`` ``cephFS``; a
#: ``gcePersistentDisk``'s own errors sit under ``persistentDisk``.
_FORBIDDEN_CHILD = {"downwardAPI": "downwarAPI", "cephfs": "cephFS"}
_INNER_CHILD = {"gcePersistentDisk": "persistentDisk"}

#: ``pdPartitionErrorMsg``: ``validation.InclusiveRangeError(1, 255)``.
PD_PARTITION_ERROR_MSG = inclusive_range_error(1, 255)

# ``iscsiInitiatorIqnRegex`` / ``EuiRegex`` / ``NaaRegex``: Go RE2 classes are ASCII, ``.`` stops at a newline,
# ``$`` without ``(?m)`` is the end of the text (``\Z``); the ``iqn`` one has no ``^`` (``MatchString`` searches).
_ISCSI_IQN = re.compile(r"iqn\.[0-9]{4}-[0-9]{2}\.([A-Za-z0-9\-.]+)(:[^,;*&$|\t\n\f\r ]+)\Z", re.ASCII)
_ISCSI_EUI = re.compile(r"^eui.[A-Za-z0-9]{16}\Z", re.ASCII)
_ISCSI_NAA = re.compile(r"^naa.[A-Za-z0-9]{32}\Z", re.ASCII)

_AZURE_CACHING_MODES = ("None", "ReadOnly", "ReadWrite")
_AZURE_DISK_KINDS = ("Dedicated", "Managed", "Shared")


def _iscsi_name(value: str, path: Path, initiator: bool) -> list[FieldError]:
    """The IQN checks of ``validateISCSIVolumeSource`` (``iqn`` and ``initiatorName`` differ in one ``else``)."""
    errs: list[FieldError] = []
    known = value.startswith(("iqn", "eui", "naa"))
    if not known:
        errs.append(invalid(path, value, "must be valid format starting with iqn, eui, or naa"))
        if not initiator:
            return errs
    if value.startswith("iqn") and not _ISCSI_IQN.search(value):
        errs.append(invalid(path, value, "must be valid format"))
    elif value.startswith("eui") and not _ISCSI_EUI.search(value):
        errs.append(invalid(path, value, "must be valid format"))
    elif value.startswith("naa") and not _ISCSI_NAA.search(value):
        errs.append(invalid(path, value, "must be valid format"))
    return errs


def _iscsi(src: Mapping[str, Any], p: Path) -> list[FieldError]:
    """Upstream ``validateISCSIVolumeSource``."""
    errs: list[FieldError] = []
    if not s(src.get("targetPortal")):
        errs.append(required(p.child("targetPortal"), ""))
    iqn = s(src.get("iqn"))
    if not iqn:
        errs.append(required(p.child("iqn"), ""))
    else:
        errs.extend(_iscsi_name(iqn, p.child("iqn"), False))
    lun = i(src.get("lun"))
    if lun < 0 or lun > 255:
        errs.append(invalid(p.child("lun"), lun, inclusive_range_error(0, 255)))
    if (src.get("chapAuthDiscovery") is True or src.get("chapAuthSession") is True) and not isinstance(src.get("secretRef"), dict):
        errs.append(required(p.child("secretRef"), ""))
    initiator = src.get("initiatorName")
    if isinstance(initiator, str):
        errs.extend(_iscsi_name(initiator, p.child("initiatorname"), True))
    return errs


def _fc(src: Mapping[str, Any], p: Path) -> list[FieldError]:
    """Upstream ``validateFCVolumeSource``."""
    errs: list[FieldError] = []
    wwns, wwids = lst(src.get("targetWWNs")), lst(src.get("wwids"))
    if not wwns and not wwids:
        errs.append(required(p.child("targetWWNs"), "must specify either targetWWNs or wwids, but not both"))
    if wwns and wwids:
        errs.append(invalid(p.child("targetWWNs"), list(wwns), "targetWWNs and wwids can not be specified simultaneously"))
    if wwns:
        lun = src.get("lun")
        if lun is None:
            errs.append(required(p.child("lun"), "lun is required if targetWWNs is specified"))
        elif isinstance(lun, int) and (lun < 0 or lun > 255):
            errs.append(invalid(p.child("lun"), lun, inclusive_range_error(0, 255)))
    return errs


def _flocker(src: Mapping[str, Any], p: Path) -> list[FieldError]:
    """Upstream ``validateFlockerVolumeSource``."""
    errs: list[FieldError] = []
    name, uuid = s(src.get("datasetName")), s(src.get("datasetUUID"))
    if not name and not uuid:
        errs.append(required(p, "one of datasetName and datasetUUID is required"))
    if name and uuid:
        errs.append(invalid(p, "resource", "datasetName and datasetUUID can not be specified simultaneously"))
    if "/" in name:
        errs.append(invalid(p.child("datasetName"), name, "must not contain '/'"))
    return errs


def _go_split_host_port(hostport: str) -> bool:
    """Whether Go's ``net.SplitHostPort`` accepts ``hostport`` (``host:port``, ``[v6]:port``)."""
    i_colon = hostport.rfind(":")
    if i_colon < 0:
        return False
    if hostport.startswith("["):
        end = hostport.find("]")
        if end < 0:
            return False
        if end + 1 == len(hostport) or hostport[end + 1] != ":" or end + 1 != i_colon:
            return False
        return "[" not in hostport[1:] and "]" not in hostport[end + 1:]
    host = hostport[:i_colon]
    if ":" in host:
        return False
    return "[" not in hostport and "]" not in hostport


def _quobyte(src: Mapping[str, Any], p: Path) -> list[FieldError]:
    """Upstream ``validateQuobyteVolumeSource`` (``Required`` with a detail for a long tenant, as upstream)."""
    errs: list[FieldError] = []
    registry = s(src.get("registry"))
    if not registry:
        errs.append(required(p.child("registry"), "must be a host:port pair or multiple pairs separated by commas"))
    elif len(s(src.get("tenant")).encode()) >= 65:
        errs.append(required(p.child("tenant"), "must be a UUID and may not exceed a length of 64 characters"))
    else:
        for pair in registry.split(","):
            if not _go_split_host_port(pair):
                errs.append(invalid(p.child("registry"), registry, "must be a host:port pair or multiple pairs separated by commas"))
    if not s(src.get("volume")):
        errs.append(required(p.child("volume"), ""))
    return errs


def _flex_volume(src: Mapping[str, Any], p: Path) -> list[FieldError]:
    """Upstream ``validateFlexVolumeSource`` (options in Go's map order: sorted here, as the tests sort)."""
    errs: list[FieldError] = []
    if not s(src.get("driver")):
        errs.append(required(p.child("driver"), ""))
    for k in sorted(m(src.get("options"))):
        namespace = k.split("/", 1)[0] if "/" in k else k
        normalized = "." + go_to_lower(namespace)
        if normalized.endswith((".kubernetes.io", ".k8s.io")):
            errs.append(invalid(p.child("options").key(k), k, "kubernetes.io and k8s.io namespaces are reserved"))
    return errs


def _azure_disk(src: Mapping[str, Any], p: Path) -> list[FieldError]:
    """Upstream ``validateAzureDisk``."""
    errs: list[FieldError] = []
    if not s(src.get("diskName")):
        errs.append(required(p.child("diskName"), ""))
    uri = s(src.get("diskURI"))
    if not uri:
        errs.append(required(p.child("diskURI"), ""))
    caching = src.get("cachingMode")
    if isinstance(caching, str) and caching not in _AZURE_CACHING_MODES:
        errs.append(not_supported(p.child("cachingMode"), caching, _AZURE_CACHING_MODES))
    kind = src.get("kind")
    if isinstance(kind, str):
        if kind not in _AZURE_DISK_KINDS:
            errs.append(not_supported(p.child("kind"), kind, _AZURE_DISK_KINDS))
        if kind == "Managed" and not uri.startswith("/subscriptions/"):
            errs.append(not_supported(p.child("diskURI"), uri, ["/subscriptions/{sub-id}/resourcegroups/{group-name}/providers/microsoft.compute/disks/{disk-id}"]))
        if kind != "Managed" and not uri.startswith("https://"):
            errs.append(not_supported(p.child("diskURI"), uri, ["https://{account-name}.blob.core.windows.net/{container-name}/{disk-name}.vhd"]))
    return errs


def _storage_os(src: Mapping[str, Any], p: Path) -> list[FieldError]:
    """Upstream ``validateStorageOSVolumeSource``."""
    errs: list[FieldError] = []
    name = s(src.get("volumeName"))
    if not name:
        errs.append(required(p.child("volumeName"), ""))
    else:
        errs.extend(_dns1123_label(name, p.child("volumeName")))
    ns = s(src.get("volumeNamespace"))
    if ns:
        errs.extend(_dns1123_label(ns, p.child("volumeNamespace")))
    if isinstance(src.get("secretRef"), dict) and not s(src["secretRef"].get("name")):
        errs.append(required(p.child("secretRef").child("name"), ""))
    return errs


def validate_csi_driver_name(driver: str, path: Path) -> list[FieldError]:
    """Upstream ``ValidateCSIDriverName`` (the value of a too-long name is kept before 1.32, as
    ``field.TooLong`` then did; ``""`` passed from 1.32 on is never printed)."""
    if not driver:
        return [required(path, "")]
    errs: list[FieldError] = []
    if len(driver.encode()) > 63:
        errs.append(too_long(path, driver, 63))
    errs.extend(invalid(path, driver, msg) for msg in name_is_dns_subdomain(go_to_lower(driver), False))
    return errs


def _csi(src: Mapping[str, Any], p: Path) -> list[FieldError]:
    """Upstream ``validateCSIVolumeSource`` (a bad secret name is reported at ``csi.name``, as upstream does)."""
    errs = validate_csi_driver_name(s(src.get("driver")), p.child("driver"))
    ref = src.get("nodePublishSecretRef")
    if isinstance(ref, dict):
        name = s(ref.get("name"))
        if not name:
            errs.append(required(p.child("nodePublishSecretRef").child("name"), ""))
        else:
            errs.extend(invalid(p.child("name"), name, msg) for msg in validate_secret_name(name, False))
    return errs


def validate_template_object_meta(meta: Mapping[str, Any], path: Path, release: Release) -> list[FieldError]:
    """Upstream ``ValidateTemplateObjectMeta``: annotations, labels, and no other field
    (``validateFieldAllowList``: ``Forbidden`` ``cannot be set``, per field in Go's struct order)."""
    errs = validate_annotations(m(meta.get("annotations")), path.child("annotations"))
    errs.extend(validate_labels(m(meta.get("labels")), path.child("labels"), release))
    for key, go_name in _OBJECT_META_FIELDS:
        value = meta.get(key)
        # deletionGracePeriodSeconds is a pointer: 0 is set
        if value is not None and (key == "deletionGracePeriodSeconds" or value not in ("", 0, [], {})):
            errs.append(forbidden(path.child(go_name), "cannot be set"))
    return errs


#: ``metav1.ObjectMeta``'s fields but labels and annotations, in the Go struct's order (the order
#: ``validateFieldAllowList`` walks): the JSON name, and the path it reports (the Go name, first rune lower-cased).
_OBJECT_META_FIELDS = (
    ("name", "name"), ("generateName", "generateName"), ("namespace", "namespace"), ("selfLink", "selfLink"),
    ("uid", "uID"), ("resourceVersion", "resourceVersion"), ("generation", "generation"),
    ("creationTimestamp", "creationTimestamp"), ("deletionTimestamp", "deletionTimestamp"),
    ("deletionGracePeriodSeconds", "deletionGracePeriodSeconds"), ("ownerReferences", "ownerReferences"),
    ("finalizers", "finalizers"), ("managedFields", "managedFields"),
)


def _ephemeral(src: Mapping[str, Any], p: Path, release: Release) -> list[FieldError]:
    """Upstream ``validateEphemeralVolumeSource`` (a pod template has no pod name: no PVC-name check)."""
    tmpl = src.get("volumeClaimTemplate")
    if not isinstance(tmpl, dict):
        return [required(p.child("volumeClaimTemplate"), "")]
    tp = p.child("volumeClaimTemplate")
    errs = validate_template_object_meta(m(tmpl.get("metadata")), tp.child("metadata"), release)
    errs.extend(validate_persistent_volume_claim_spec(m(tmpl.get("spec")), tp.child("spec"), release))
    return errs


def _volume_type_checks(kind: str, src: Mapping[str, Any], p: Path, release: Release) -> list[FieldError]:
    """The ``validate<Type>VolumeSource`` of one volume type (``p``: its path)."""
    errs: list[FieldError] = []
    if kind == "hostPath":
        if not s(src.get("path")):
            return [required(p.child("path"), "")]
        errs.extend(validate_path_no_backsteps(s(src.get("path")), p.child("path")))
        t = src.get("type")
        if isinstance(t, str) and t not in _HOST_PATH_TYPES:
            errs.append(not_supported(p.child("type"), t, _HOST_PATH_TYPES))
    elif kind == "gitRepo":
        if not s(src.get("repository")):
            errs.append(required(p.child("repository"), ""))
        errs.extend(validate_local_descending_path(s(src.get("directory")), p.child("directory")))
    elif kind in ("gcePersistentDisk", "awsElasticBlockStore"):
        key = "pdName" if kind == "gcePersistentDisk" else "volumeID"
        if not s(src.get(key)):
            errs.append(required(p.child(key), ""))
        part = i(src.get("partition"))
        if part < 0 or part > 255:
            errs.append(invalid(p.child("partition"), part, PD_PARTITION_ERROR_MSG))
    elif kind in ("secret", "configMap"):
        key = "secretName" if kind == "secret" else "name"
        if not s(src.get(key)):
            errs.append(required(p.child(key), ""))
        errs.extend(_mode_errs(src.get("defaultMode"), p.child("defaultMode")))
        for ii, kp in enumerate(lst(src.get("items"))):
            errs.extend(validate_key_to_path(m(kp), p.child("items").index(ii)))
    elif kind == "nfs":
        if not s(src.get("server")):
            errs.append(required(p.child("server"), ""))
        if not s(src.get("path")):
            errs.append(required(p.child("path"), ""))
        if not s(src.get("path")).startswith("/"):
            errs.append(invalid(p.child("path"), s(src.get("path")), "must be an absolute path"))
    elif kind == "iscsi":
        errs.extend(_iscsi(src, p))
    elif kind == "glusterfs":
        if not s(src.get("endpoints")):
            errs.append(required(p.child("endpoints"), ""))
        if not s(src.get("path")):
            errs.append(required(p.child("path"), ""))
    elif kind == "flocker":
        errs.extend(_flocker(src, p))
    elif kind == "persistentVolumeClaim":
        if not s(src.get("claimName")):
            errs.append(required(p.child("claimName"), ""))
    elif kind == "rbd":
        if not lst(src.get("monitors")):
            errs.append(required(p.child("monitors"), ""))
        if not s(src.get("image")):
            errs.append(required(p.child("image"), ""))
    elif kind == "cinder":
        if not s(src.get("volumeID")):
            errs.append(required(p.child("volumeID"), ""))
        if isinstance(src.get("secretRef"), dict) and not s(src["secretRef"].get("name")):
            errs.append(required(p.child("secretRef").child("name"), ""))
    elif kind == "cephfs":
        if not lst(src.get("monitors")):
            errs.append(required(p.child("monitors"), ""))
    elif kind == "quobyte":
        errs.extend(_quobyte(src, p))
    elif kind == "downwardAPI":
        errs.extend(_mode_errs(src.get("defaultMode"), p.child("defaultMode")))
        for file in lst(src.get("items")):
            errs.extend(_downward_api_volume_file(m(file), p, release))
    elif kind == "fc":
        errs.extend(_fc(src, p))
    elif kind == "flexVolume":
        errs.extend(_flex_volume(src, p))
    elif kind == "azureFile":
        if not s(src.get("secretName")):
            errs.append(required(p.child("secretName"), ""))
        if not s(src.get("shareName")):
            errs.append(required(p.child("shareName"), ""))
    elif kind in ("vsphereVolume", "photonPersistentDisk", "portworxVolume"):
        key = {"vsphereVolume": "volumePath", "photonPersistentDisk": "pdID", "portworxVolume": "volumeID"}[kind]
        if not s(src.get(key)):
            errs.append(required(p.child(key), ""))
    elif kind == "azureDisk":
        errs.extend(_azure_disk(src, p))
    elif kind == "storageos":
        errs.extend(_storage_os(src, p))
    elif kind == "projected":
        errs.extend(_mode_errs(src.get("defaultMode"), p.child("defaultMode")))
        errs.extend(_projection_sources(src, p, release))
    elif kind == "scaleIO":
        for key in ("gateway", "system", "volumeName"):
            if not s(src.get(key)):
                errs.append(required(p.child(key), ""))
    elif kind == "csi":
        errs.extend(_csi(src, p))
    elif kind == "ephemeral":
        errs.extend(_ephemeral(src, p, release))
    elif kind == "image":
        # validateImageVolumeSource: ``reference`` is required of a Pod only (opts.ResourceIsPod), not a template
        policy = src.get("pullPolicy")
        if isinstance(policy, str):
            errs.extend(validate_pull_policy(policy, p.child("pullPolicy")))
    return errs


def _volume_source(source: Mapping[str, Any], path: Path, release: Release, vol_name: str = "") -> list[FieldError]:
    """Upstream ``validateVolumeSource`` for a pod template (no pod name: the ephemeral volume's PVC name is not
    checked). An ``image`` volume never reaches it before 1.35: 1.30's types have no such field (strict decoding
    refuses it) and 1.31 … 1.34 drop image volumes on create while gate ``ImageVolume`` is off
    (:mod:`crdtool.core.apis.core.podutil`)."""
    errs: list[FieldError] = []
    num = 0
    for kind in _VOLUME_TYPES:
        src = source.get(kind)
        if not isinstance(src, dict):
            continue
        if kind == "emptyDir":
            num += 1
            limit = src.get("sizeLimit")
            q = _quantity(limit) if limit is not None else None
            if q is not None and q.sign() < 0:
                errs.append(forbidden(path.child("emptyDir").child("sizeLimit"), "SizeLimit field must be a valid resource quantity"))
            continue
        if num > 0:
            errs.append(forbidden(path.child(_FORBIDDEN_CHILD.get(kind, kind)), "may not specify more than 1 volume type"))
        else:
            num += 1
            errs.extend(_volume_type_checks(kind, src, path.child(_INNER_CHILD.get(kind, kind)), release))
        if kind == "iscsi" and isinstance(src.get("initiatorName"), str) and len((vol_name + ":" + s(src.get("targetPortal"))).encode()) > 64:
            errs.append(invalid(path.child("name"), vol_name, "Total length of <volume name>:<iscsi.targetPortal> must be under 64 characters if iscsi.initiatorName is specified."))
    if num == 0:
        errs.append(required(path, "must specify a volume type"))
    return errs


def validate_volumes(volumes: Sequence[Any], path: Path, release: Release) -> tuple[dict[str, Mapping[str, Any]], list[FieldError]]:
    """Upstream ``ValidateVolumes`` (pod template: no pod name, so no ephemeral-PVC check)."""
    errs: list[FieldError] = []
    names: set[str] = set()
    vols: dict[str, Mapping[str, Any]] = {}
    for index, vol in enumerate(volumes):
        vol = m(vol)
        idx = path.index(index)
        name_path = idx.child("name")
        name = s(vol.get("name"))
        el = _volume_source(vol, idx, release, s(vol.get("name")))
        if not name:
            el.append(required(name_path, ""))
        else:
            el.extend(_dns1123_label(name, name_path))
        if name in names:
            el.append(duplicate(name_path, name))
        if not el:
            names.add(name)
            vols[name] = vol
        else:
            errs.extend(el)
    return vols, errs


# --- containers --------------------------------------------------------------------------------------

_PORT_PROTOCOLS = ("SCTP", "TCP", "UDP")


def validate_container_ports(ports: Sequence[Any], path: Path) -> list[FieldError]:
    """Upstream ``validateContainerPorts``."""
    errs: list[FieldError] = []
    names: set[str] = set()
    for index, port in enumerate(ports):
        port = m(port)
        idx = path.index(index)
        name = s(port.get("name"))
        if name:
            msgs = is_valid_port_name(name)
            if msgs:
                errs.extend(invalid(idx.child("name"), name, msg) for msg in msgs)
            elif name in names:
                errs.append(duplicate(idx.child("name"), name))
            else:
                names.add(name)
        cp = i(port.get("containerPort"))
        if cp == 0:
            errs.append(required(idx.child("containerPort"), ""))
        else:
            errs.extend(invalid(idx.child("containerPort"), cp, msg) for msg in is_valid_port_num(cp))
        hp = i(port.get("hostPort"))
        if hp != 0:
            errs.extend(invalid(idx.child("hostPort"), hp, msg) for msg in is_valid_port_num(hp))
        proto = s(port.get("protocol"))
        if not proto:
            errs.append(required(idx.child("protocol"), ""))
        elif proto not in _PORT_PROTOCOLS:
            errs.append(not_supported(idx.child("protocol"), proto, _PORT_PROTOCOLS))
    return errs


def _env_name_errs(name: str, release: Release) -> list[str]:
    if release.minor >= CORE_CHANGES["relaxed-env-var-names"]:
        return is_relaxed_env_var_name(name)
    return is_env_var_name(name)


def _key_selector(sel: Mapping[str, Any], path: Path) -> list[FieldError]:
    """Upstream ``validateConfigMapKeySelector`` / ``validateSecretKeySelector``."""
    name = s(sel.get("name"))
    errs = [invalid(path.child("name"), name, msg) for msg in validate_secret_name(name, False)]
    key = s(sel.get("key"))
    if not key:
        errs.append(required(path.child("key"), ""))
    else:
        errs.extend(invalid(path.child("key"), key, msg) for msg in is_config_map_key(key))
    return errs


def _file_key_selector(sel: Mapping[str, Any], path: Path) -> list[FieldError]:
    """Upstream ``validateFileKeySelector`` (release-4.21 … 4.23; ``fileKeyRef`` is dropped on create while
    EnvFiles is off, 1.34)."""
    errs: list[FieldError] = []
    key, volume, file_path = s(sel.get("key")), s(sel.get("volumeName")), s(sel.get("path"))
    if not key:
        errs.append(required(path.child("key"), ""))
    else:
        errs.extend(invalid(path.child("key"), key, msg) for msg in is_relaxed_env_var_name(key))
    if not volume:
        errs.append(required(path.child("volumeName"), ""))
    else:
        errs.extend(_dns1123_label(volume, path.child("volumeName")))
    if not file_path:
        errs.append(required(path.child("path"), ""))
    else:
        errs.extend(validate_path_no_backsteps(file_path, path.child("path")))
    return errs


def validate_env(env: Sequence[Any], path: Path, release: Release) -> list[FieldError]:
    """Upstream ``ValidateEnv`` with ``validateEnvVarValueFrom``."""
    errs: list[FieldError] = []
    for index, ev in enumerate(env):
        ev = m(ev)
        idx = path.index(index)
        name = s(ev.get("name"))
        if not name:
            errs.append(required(idx.child("name"), ""))
        else:
            errs.extend(invalid(idx.child("name"), name, msg) for msg in _env_name_errs(name, release))
        vf = ev.get("valueFrom")
        if not isinstance(vf, dict):
            continue
        vpath = idx.child("valueFrom")
        num = 0
        if isinstance(vf.get("fieldRef"), dict):
            num += 1
            errs.extend(_object_field_selector(vf["fieldRef"], _ENV_DOWNWARD_API_FIELD_PATHS, vpath.child("fieldRef"), release))
        if isinstance(vf.get("resourceFieldRef"), dict):
            num += 1
            errs.extend(_resource_field_selector(vf["resourceFieldRef"], vpath.child("resourceFieldRef"), False))
        if isinstance(vf.get("configMapKeyRef"), dict):
            num += 1
            errs.extend(_key_selector(vf["configMapKeyRef"], vpath.child("configMapKeyRef")))
        if isinstance(vf.get("secretKeyRef"), dict):
            num += 1
            errs.extend(_key_selector(vf["secretKeyRef"], vpath.child("secretKeyRef")))
        if isinstance(vf.get("fileKeyRef"), dict):
            num += 1
            errs.extend(_file_key_selector(vf["fileKeyRef"], vpath.child("fileKeyRef")))
        if num == 0:
            if release.minor >= CORE_CHANGES["env-files"]:
                msg = "must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef`, `secretKeyRef` or `fileKeyRef`"
            else:
                msg = "must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`"
            errs.append(invalid(vpath, "", msg))
        elif s(ev.get("value")):
            errs.append(invalid(vpath, "", "may not be specified when `value` is not empty"))
        elif num > 1:
            errs.append(invalid(vpath, "", "may not have more than one field specified at a time"))
    return errs


def validate_env_from(env_from: Sequence[Any], path: Path, release: Release) -> list[FieldError]:
    """Upstream ``ValidateEnvFrom``."""
    errs: list[FieldError] = []
    for index, ev in enumerate(env_from):
        ev = m(ev)
        idx = path.index(index)
        prefix = s(ev.get("prefix"))
        if prefix:
            errs.extend(invalid(idx.child("prefix"), prefix, msg) for msg in _env_name_errs(prefix, release))
        num = 0
        for kind in ("configMapRef", "secretRef"):
            ref = ev.get(kind)
            if isinstance(ref, dict):
                num += 1
                name = s(ref.get("name"))
                if not name:
                    errs.append(required(idx.child(kind).child("name"), ""))
                else:
                    errs.extend(invalid(idx.child(kind).child("name"), name, msg) for msg in name_is_dns_subdomain(name, True))
        if num == 0:
            errs.append(invalid(path, "", "must specify one of: `configMapRef` or `secretRef`"))
        elif num > 1:
            errs.append(invalid(path, "", "may not have more than one field specified at a time"))
    return errs


_MOUNT_PROPAGATIONS = ("Bidirectional", "HostToContainer", "None")
_RECURSIVE_READ_ONLY = ("Disabled", "Enabled", "IfPossible")


def _mount_propagation(mnt: Mapping[str, Any], container: Mapping[str, Any] | None, path: Path) -> list[FieldError]:
    """Upstream ``validateMountPropagation`` and ``validateMountRecursiveReadOnly`` (the same at release-4.17 …
    4.23; ``path`` is upstream's: the list's, not the mount's)."""
    errs: list[FieldError] = []
    prop = mnt.get("mountPropagation")
    if prop is not None:
        pp = path.child("mountPropagation")
        if s(prop) not in _MOUNT_PROPAGATIONS:
            errs.append(not_supported(pp, s(prop), _MOUNT_PROPAGATIONS))
        if container is not None and s(prop) == "Bidirectional" and m(container.get("securityContext")).get("privileged") is not True:
            errs.append(forbidden(pp, "Bidirectional mount propagation is available only to privileged containers"))
    rro = mnt.get("recursiveReadOnly")
    if rro is not None:
        rp = path.child("recursiveReadOnly")
        if s(rro) in ("Enabled", "IfPossible"):
            if mnt.get("readOnly") is not True:
                errs.append(forbidden(rp, "may only be specified when readOnly is true"))
            if prop is not None and s(prop) != "None":
                errs.append(forbidden(rp, "may only be specified when mountPropagation is None or not specified"))
        elif s(rro) != "Disabled":
            errs.append(not_supported(rp, s(rro), _RECURSIVE_READ_ONLY))
    return errs


def validate_volume_mounts(mounts: Sequence[Any], devices: Mapping[str, str], volumes: Mapping[str, Any], path: Path,
                           container: Mapping[str, Any] | None = None) -> list[FieldError]:
    """Upstream ``ValidateVolumeMounts`` (``container``: the mounts' container, for Bidirectional propagation)."""
    errs: list[FieldError] = []
    mountpoints: set[str] = set()
    for index, mnt in enumerate(mounts):
        mnt = m(mnt)
        idx = path.index(index)
        name, mount_path = s(mnt.get("name")), s(mnt.get("mountPath"))
        if not name:
            errs.append(required(idx.child("name"), ""))
        if name not in volumes:
            errs.append(not_found(idx.child("name"), name))
        if not mount_path:
            errs.append(required(idx.child("mountPath"), ""))
        if mount_path in mountpoints:
            errs.append(invalid(idx.child("mountPath"), mount_path, "must be unique"))
        mountpoints.add(mount_path)
        if name in devices:
            errs.append(invalid(idx.child("name"), name, "must not already exist in volumeDevices"))
        if mount_path in devices.values():
            errs.append(invalid(idx.child("mountPath"), mount_path, "must not already exist as a path in volumeDevices"))
        sub_path, sub_expr = s(mnt.get("subPath")), s(mnt.get("subPathExpr"))
        if sub_path:
            errs.extend(validate_local_descending_path(sub_path, path.child("subPath")))
        if sub_expr:
            if sub_path:
                errs.append(invalid(idx.child("subPathExpr"), sub_expr, "subPathExpr and subPath are mutually exclusive"))
            errs.extend(validate_local_descending_path(sub_expr, path.child("subPathExpr")))
        errs.extend(_mount_propagation(mnt, container, path))
    return errs


def validate_volume_devices(devices: Sequence[Any], mounts: Mapping[str, str], volumes: Mapping[str, Any], path: Path) -> list[FieldError]:
    """Upstream ``ValidateVolumeDevices`` (``mounts``: volume name → mount path)."""
    errs: list[FieldError] = []
    paths: set[str] = set()
    names: set[str] = set()
    for index, dev in enumerate(devices):
        dev = m(dev)
        idx = path.index(index)
        name, dpath = s(dev.get("name")), s(dev.get("devicePath"))
        vol = volumes.get(name)
        matched = vol is not None
        is_pvc = matched and (isinstance(m(vol).get("persistentVolumeClaim"), dict) or isinstance(m(vol).get("ephemeral"), dict))
        if not name:
            errs.append(required(idx.child("name"), ""))
        if name in names:
            errs.append(invalid(idx.child("name"), name, "must be unique"))
        if matched and not is_pvc:
            errs.append(invalid(idx.child("name"), name, "can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode"))
        if not matched:
            errs.append(not_found(idx.child("name"), name))
        if not dpath:
            errs.append(required(idx.child("devicePath"), ""))
        if dpath in paths:
            errs.append(invalid(idx.child("devicePath"), dpath, "must be unique"))
        if dpath and validate_path_no_backsteps(dpath, path.child("devicePath")):
            errs.append(invalid(idx.child("devicePath"), dpath, "can not contain backsteps ('..')"))
        else:
            paths.add(dpath)
        if name in mounts:
            errs.append(invalid(idx.child("name"), name, "must not already exist in volumeMounts"))
        if dpath in mounts.values():
            errs.append(invalid(idx.child("devicePath"), dpath, "must not already exist as a path in volumeMounts"))
        if name:
            names.add(name)
    return errs


def validate_pull_policy(policy: str, path: Path) -> list[FieldError]:
    """Upstream ``validatePullPolicy``."""
    if policy in ("Always", "IfNotPresent", "Never"):
        return []
    if not policy:
        return [required(path, "")]
    return [not_supported(path, policy, ("Always", "IfNotPresent", "Never"))]


_STANDARD_RESOURCES = frozenset({
    "cpu", "memory", "ephemeral-storage", "requests.cpu", "requests.memory", "requests.ephemeral-storage",
    "limits.cpu", "limits.memory", "limits.ephemeral-storage", "pods", "resourcequotas", "services",
    "replicationcontrollers", "secrets", "configmaps", "persistentvolumeclaims", "storage", "requests.storage",
    "services.nodeports", "services.loadbalancers",
})


def _is_native_resource(name: str) -> bool:
    return "/" not in name or "kubernetes.io/" in name


def validate_container_resource_name(name: str, path: Path, release: Release) -> list[FieldError]:
    """Upstream ``validateContainerResourceName`` (with ``validateResourceName``, which stops at its first
    failing check; ``validateContainerResourceName`` appends its own check to whatever that returned, so a name
    like ``disk`` gets both "must be a standard resource type …" and "… for containers": release-4.17 … 4.23)."""
    errs = [invalid(path, name, msg) for msg in is_qualified_name(name, release)]
    single = len(name.split("/")) == 1
    if not errs and single and name not in _STANDARD_RESOURCES and not name.startswith(("hugepages-", "requests.hugepages-")):
        errs.append(invalid(path, name, "must be a standard resource type or fully qualified"))
    if single:
        if name not in ("cpu", "memory", "ephemeral-storage") and not name.startswith("hugepages-"):
            errs.append(invalid(path, name, "must be a standard resource for containers"))
    elif not _is_native_resource(name):
        extended = not name.startswith("requests.") and not is_qualified_name("requests." + name, release)
        if not extended:
            errs.append(invalid(path, name, "doesn't follow extended resource name standard"))
    return errs


_INTEGER_RESOURCES = frozenset({
    "pods", "resourcequotas", "services", "replicationcontrollers", "secrets", "configmaps", "persistentvolumeclaims",
    "services.nodeports", "services.loadbalancers",
})


def is_extended_resource_name(name: str, release: Release | None = None) -> bool:
    """Upstream ``helper.IsExtendedResourceName``: not native, no ``requests.`` prefix, and ``requests.<name>`` is a
    qualified name."""
    if _is_native_resource(name) or name.startswith("requests."):
        return False
    return not is_qualified_name("requests." + name, release)


def _milli_value(q: Quantity) -> int:
    """``Quantity.MilliValue()``: the value in thousandths, rounded away from zero."""
    num, den = q.exact()
    whole, rest = divmod(abs(num) * 1000, den)
    milli = whole + (1 if rest else 0)
    return -milli if num < 0 else milli


def _resource_quantity_value(name: str, raw: Any, q: Quantity, path: Path, release: Release | None = None) -> list[FieldError]:
    """Upstream ``ValidateResourceQuantityValue``: not negative; an integer for ``helper.IsIntegerResourceName``
    (the quota's integer resources and every extended resource, ``nvidia.com/gpu: 500m`` is refused). The bad value
    of "must be an integer" is the ``resource.Quantity`` itself: JSON (its text) from 1.34, ``%#v`` of the struct
    before (not reproduced)."""
    errs: list[FieldError] = []
    if q.sign() < 0:
        errs.append(invalid(path, _q_str(raw), IS_NEGATIVE_ERROR_MSG))
    if (name in _INTEGER_RESOURCES or is_extended_resource_name(name, release)) and _milli_value(q) % 1000 != 0:
        errs.append(invalid(path, go_typed(_q_str(raw), None), IS_NOT_INTEGER_ERROR_MSG))
    return errs


def _value(q: Quantity) -> int:
    """``Quantity.Value()``: rounded up (away from zero) to an integer."""
    num, den = q.exact()
    whole, rest = divmod(abs(num), den)
    whole += 1 if rest else 0
    return -whole if num < 0 else whole


def _huge_page_value(name: str, raw: Any, q: Quantity | None, path: Path) -> list[FieldError]:
    """Upstream ``validateResourceQuantityHugePageValue`` / ``helper.IsHugePageResourceValueDivisible`` (the same
    at release-4.17 … 4.23; ``AllowIndivisibleHugePagesValues`` is false on a create)."""
    if q is None:
        return []
    page = _quantity(name[len("hugepages-"):])
    ok = False
    if page is not None and page.sign() > 0 and _milli_value(page) % 1000 == 0:
        ok = _value(q) % _value(page) == 0
    if ok:
        return []
    return [invalid(path, _q_str(raw), f"{_q_str(raw)} is not positive integer multiple of {name}")]


def validate_resource_requirements(req: Mapping[str, Any], path: Path, release: Release,
                                   name_fn: Callable[[str, Path, Release], list[FieldError]] | None = None) -> list[FieldError]:
    """Upstream ``validateResourceRequirements`` (Go ranges over the lists, crdtool sorts); ``name_fn`` is the
    resource-name check (a container's, ``validateContainerResourceName``, unless given)."""
    check_name = name_fn or validate_container_resource_name
    errs: list[FieldError] = []
    lim_path, req_path = path.child("limits"), path.child("requests")
    limits, requests = m(req.get("limits")), m(req.get("requests"))
    lim_cpu_mem = req_cpu_mem = lim_huge = req_huge = False
    for name in sorted(limits):
        raw = limits[name]
        p = lim_path.key(name)
        errs.extend(check_name(name, p, release))
        q = _quantity(raw)
        if q is not None:
            errs.extend(_resource_quantity_value(name, raw, q, p, release))
        if name.startswith("hugepages-"):
            lim_huge = True
            errs.extend(_huge_page_value(name, raw, q, p))
        if name in ("cpu", "memory"):
            lim_cpu_mem = True
    for name in sorted(requests):
        raw = requests[name]
        p = req_path.key(name)
        errs.extend(check_name(name, p, release))
        q = _quantity(raw)
        if q is not None:
            errs.extend(_resource_quantity_value(name, raw, q, p, release))
        overcommit = _is_native_resource(name) and not name.startswith("hugepages-")
        if name in limits:
            lq = _quantity(limits[name])
            if q is not None and lq is not None:
                if q.cmp(lq) != 0 and not overcommit:
                    errs.append(invalid(req_path, _q_str(raw), f"must be equal to {name} limit of {_q_str(limits[name])}"))
                elif q.cmp(lq) > 0:
                    errs.append(invalid(req_path, _q_str(raw), f"must be less than or equal to {name} limit of {_q_str(limits[name])}"))
        elif not overcommit:
            errs.append(required(lim_path, "Limit must be set for non overcommitable resources"))
        if name.startswith("hugepages-"):
            req_huge = True
            errs.extend(_huge_page_value(name, raw, q, p))
        if name in ("cpu", "memory"):
            req_cpu_mem = True
    if not lim_cpu_mem and not req_cpu_mem and (req_huge or lim_huge):
        errs.append(forbidden(path, "HugePages require cpu or memory"))
    return errs


#: Gate PodLevelResources: Alpha off 1.32/1.33 (the field is dropped on create), Beta on from 1.34
#: (``PodLevelResourcesEnabled``; release-4.21 … 4.23 ``validatePodResources`` unchanged).
POD_LEVEL_RESOURCES_SINCE = 34
_POD_LEVEL_RESOURCES = ("cpu", "hugepages-", "memory")  # sets.List(resourcehelper.SupportedPodLevelResources())


def _pod_resource_name(name: str, path: Path, release: Release) -> list[FieldError]:
    """Upstream ``validatePodResourceName``: ``validateResourceName``, then cpu, memory and hugepages only."""
    errs = [invalid(path, name, msg) for msg in is_qualified_name(name, release)]
    if not errs and len(name.split("/")) == 1 and name not in _STANDARD_RESOURCES and not name.startswith(("hugepages-", "requests.hugepages-")):
        errs.append(invalid(path, name, "must be a standard resource type or fully qualified"))
    if errs:
        return errs
    if name not in ("cpu", "memory") and not name.startswith("hugepages-"):
        return [not_supported(path, name, _POD_LEVEL_RESOURCES)]
    return []


_Sum = tuple[Fraction, str]


def _parsed(raw: Any) -> _Sum | None:
    from crdtool.core.apis._quantity import _value_and_format

    if isinstance(raw, bool) or not isinstance(raw, (str, int, float)):
        return None
    return _value_and_format(str(raw))


def _add_resource_list(total: dict[str, _Sum], items: Mapping[str, Any]) -> None:
    """``addResourceList``: a sum keeps its first addend's format (``Quantity.Add``: the other's while it is zero)."""
    for name, raw in items.items():
        q = _parsed(raw)
        if q is None:
            continue
        if name not in total:
            total[name] = q
        else:
            value, fmt = total[name]
            total[name] = (value + q[0], q[1] if value == 0 else fmt)


def _max_resource_list(total: dict[str, _Sum], items: Mapping[str, _Sum]) -> None:
    """``maxResourceList``."""
    for name, q in items.items():
        if name not in total or q[0] > total[name][0]:
            total[name] = q


def aggregate_container_resources(spec: Mapping[str, Any], section: str) -> dict[str, _Sum]:
    """component-helpers ``AggregateContainerRequests`` / ``AggregateContainerLimits`` (``section``: ``requests``
    or ``limits``) on a create: regular containers and sidecars summed, each init container's use maxed in."""
    total: dict[str, _Sum] = {}
    for ctr in lst(spec.get("containers")):
        _add_resource_list(total, m(m(m(ctr).get("resources")).get(section)))
    sidecars: dict[str, _Sum] = {}
    init: dict[str, _Sum] = {}
    for ctr in lst(spec.get("initContainers")):
        items = m(m(m(ctr).get("resources")).get(section))
        if m(ctr).get("restartPolicy") == "Always":
            _add_resource_list(total, items)
            _add_resource_list(sidecars, items)
            use = dict(sidecars)
        else:
            use = {}
            _add_resource_list(use, items)
            for name, q in sidecars.items():
                if name in use:
                    value, fmt = use[name]
                    use[name] = (value + q[0], q[1] if value == 0 else fmt)
                else:
                    use[name] = q
        _max_resource_list(init, use)
    _max_resource_list(total, init)
    return total


def validate_pod_resources(spec: Mapping[str, Any], path: Path, release: Release) -> list[FieldError]:
    """Upstream ``validatePodResources`` with ``validatePodResourceRequirements`` and
    ``validatePodResourceConsistency`` (1.34+; Go ranges over maps there, crdtool sorts the resource names)."""
    from crdtool.core.apis._quantity import canonical

    res = spec.get("resources")
    if not isinstance(res, dict) or release.minor < POD_LEVEL_RESOURCES_SINCE:
        return []
    rp = path.child("resources")
    if s(m(spec.get("os")).get("name")) == "windows":
        return [forbidden(rp, "may not be set for a windows pod")]
    errs: list[FieldError] = []
    if res.get("claims") is not None:
        errs.append(forbidden(rp.child("claims"), "claims may not be set for Resources at pod-level"))
    errs.extend(validate_resource_requirements(res, rp, release, _pod_resource_name))
    requests, limits = m(res.get("requests")), m(res.get("limits"))
    aggregate = aggregate_container_resources(spec, "requests")
    for name in sorted(aggregate):
        if name not in requests:
            continue
        pod_q = _parsed(requests[name])
        value, fmt = aggregate[name]
        if pod_q is not None and value > pod_q[0]:
            errs.append(invalid(rp.child("requests").key(name), _q_str(requests[name]),
                                f"must be greater than or equal to aggregate container requests of {canonical(value, fmt)}"))
    aggregate_limits = aggregate_container_resources(spec, "limits")
    for name in sorted(aggregate_limits):
        if not name.startswith("hugepages-") or name not in limits:
            continue
        pod_q = _parsed(limits[name])
        value, fmt = aggregate_limits[name]
        if pod_q is not None and value > pod_q[0]:
            errs.append(invalid(rp.child("limits").key(name), _q_str(limits[name]),
                                f"must be greater than or equal to aggregate container limits of {canonical(value, fmt)}"))
    for index, ctr in enumerate(lst(spec.get("containers"))):
        ctr_limits = m(m(m(ctr).get("resources")).get("limits"))
        for name in sorted(ctr_limits):
            if name not in limits:
                continue
            ctr_q, pod_q = _parsed(ctr_limits[name]), _parsed(limits[name])
            if ctr_q is not None and pod_q is not None and ctr_q[0] > pod_q[0]:
                # upstream's path: spec.resources.containers[i][name].limits
                errs.append(invalid(rp.child("containers").index(index).key(name).child("limits"), _q_str(ctr_limits[name]),
                                    f"must be less than or equal to pod limits of {_q_str(limits[name])}"))
    return errs


def _validate_port_num_or_name(port: Any, path: Path) -> list[FieldError]:
    """Upstream ``ValidatePortNumOrName``."""
    if isinstance(port, str):
        return [invalid(path, port, msg) for msg in is_valid_port_name(port)]
    n = i(port)
    return [invalid(path, n, msg) for msg in is_valid_port_num(n)]


def _validate_handler(handler: Mapping[str, Any], kinds: Sequence[str], grace: int | None, path: Path, release: Release) -> list[FieldError]:
    """Upstream ``validateHandler``."""
    errs: list[FieldError] = []
    num = 0
    for kind in ("exec", "httpGet", "tcpSocket", "grpc", "sleep"):
        if kind not in kinds or not isinstance(handler.get(kind), dict):
            continue
        if num > 0:
            errs.append(forbidden(path.child(kind), "may not specify more than 1 handler type"))
            continue
        num += 1
        h = handler[kind]
        p = path.child(kind)
        if kind == "exec":
            if not lst(h.get("command")):
                errs.append(required(p.child("command"), ""))
        elif kind == "httpGet":
            if not s(h.get("path")):
                errs.append(required(p.child("path"), ""))
            errs.extend(_validate_port_num_or_name(h.get("port"), p.child("port")))
            scheme = s(h.get("scheme"))
            if scheme not in ("HTTP", "HTTPS"):
                errs.append(not_supported(p.child("scheme"), scheme, ("HTTP", "HTTPS")))
            for header in lst(h.get("httpHeaders")):
                hn = s(m(header).get("name"))
                errs.extend(invalid(p.child("httpHeaders"), hn, msg) for msg in is_http_header_name(hn))
        elif kind == "tcpSocket":
            errs.extend(_validate_port_num_or_name(h.get("port"), p.child("port")))
        elif kind == "grpc":
            errs.extend(_validate_port_num_or_name(i(h.get("port")), p.child("port")))
        elif kind == "sleep":
            secs = i(h.get("seconds"))
            if release.minor >= CORE_CHANGES["sleep-zero"]:
                if grace is not None and (secs < 0 or secs > grace):
                    errs.append(invalid(p, secs, f"must be non-negative and less than terminationGracePeriodSeconds ({grace})"))
            elif grace is not None and (secs <= 0 or secs > grace):
                msg = f"must be greater than 0 and less than terminationGracePeriodSeconds ({grace})"
                if release.minor >= 32:
                    msg += ". Enable AllowPodLifecycleSleepActionZeroValue feature gate for zero sleep."
                errs.append(invalid(p, secs, msg))
    if num == 0:
        errs.append(required(path, "must specify a handler type"))
    return errs


_PROBE_HANDLERS = ("exec", "httpGet", "tcpSocket", "grpc")
_LIFECYCLE_HANDLERS = ("exec", "httpGet", "tcpSocket", "sleep")


def _validate_probe(probe: Mapping[str, Any], grace: int | None, path: Path, release: Release) -> list[FieldError]:
    """Upstream ``validateProbe``."""
    errs = _validate_handler(probe, _PROBE_HANDLERS, grace, path, release)
    for key in ("initialDelaySeconds", "timeoutSeconds", "periodSeconds", "successThreshold", "failureThreshold"):
        errs.extend(nonnegative(i(probe.get(key)), path.child(key)))
    tgps = probe.get("terminationGracePeriodSeconds")
    if isinstance(tgps, int) and tgps <= 0:
        errs.append(invalid(path.child("terminationGracePeriodSeconds"), tgps, "must be greater than 0"))
    return errs


def _probes(ctr: Mapping[str, Any], grace: int | None, path: Path, release: Release) -> list[FieldError]:
    errs: list[FieldError] = []
    lp = ctr.get("livenessProbe")
    if isinstance(lp, dict):
        errs.extend(_validate_probe(lp, grace, path.child("livenessProbe"), release))
        if i(lp.get("successThreshold")) != 1:
            errs.append(invalid(path.child("livenessProbe", "successThreshold"), i(lp.get("successThreshold")), "must be 1"))
    rp = ctr.get("readinessProbe")
    if isinstance(rp, dict):
        errs.extend(_validate_probe(rp, grace, path.child("readinessProbe"), release))
        if rp.get("terminationGracePeriodSeconds") is not None:
            errs.append(invalid(path.child("readinessProbe", "terminationGracePeriodSeconds"), rp.get("terminationGracePeriodSeconds"), "must not be set for readinessProbes"))
    sp = ctr.get("startupProbe")
    if isinstance(sp, dict):
        errs.extend(_validate_probe(sp, grace, path.child("startupProbe"), release))
        if i(sp.get("successThreshold")) != 1:
            errs.append(invalid(path.child("startupProbe", "successThreshold"), i(sp.get("successThreshold")), "must be 1"))
    return errs


def _lifecycle(lc: Mapping[str, Any], grace: int | None, path: Path, release: Release) -> list[FieldError]:
    """Upstream ``validateLifecycle`` (stopSignal not checked)."""
    errs: list[FieldError] = []
    for hook in ("postStart", "preStop"):
        if isinstance(lc.get(hook), dict):
            errs.extend(_validate_handler(lc[hook], _LIFECYCLE_HANDLERS, grace, path.child(hook), release))
    return errs


_RESIZE_RESOURCES = ("cpu", "memory")
_RESIZE_POLICIES = ("NotRequired", "RestartContainer")


def validate_resize_policy(policies: Sequence[Any], path: Path, pod_restart_policy: str) -> list[FieldError]:
    """Upstream ``validateResizePolicy`` (the same at release-4.17 … 4.23 = 1.30 … 1.36; the field is dropped on
    create while InPlacePodVerticalScaling is off, 1.30 … 1.32). ``policies``: a container's ``resizePolicy``."""
    errs: list[FieldError] = []
    seen: set[str] = set()
    for index, pol in enumerate(policies):
        pol = m(pol)
        name, restart = s(pol.get("resourceName")), s(pol.get("restartPolicy"))
        if name in seen:
            errs.append(duplicate(path.index(index), name))
        seen.add(name)
        if name not in _RESIZE_RESOURCES:
            errs.append(required(path, "") if not name else not_supported(path, name, _RESIZE_RESOURCES))
        if restart not in _RESIZE_POLICIES:
            errs.append(required(path, "") if not restart else not_supported(path, restart, _RESIZE_POLICIES))
        if pod_restart_policy == "Never" and restart != "NotRequired":
            errs.append(invalid(path, restart, "must be 'NotRequired' when pod `restartPolicy` is 'Never'"))
    return errs


def validate_container_common(ctr: Mapping[str, Any], volumes: Mapping[str, Any], path: Path, release: Release, host_users: bool = True,
                              pod_restart_policy: str = "Always") -> list[FieldError]:
    """Upstream ``validateContainerCommon``; ``pod_restart_policy``: the pod spec's ``restartPolicy``."""
    errs: list[FieldError] = []
    name = s(ctr.get("name"))
    if not name:
        errs.append(required(path.child("name"), ""))
    else:
        errs.extend(_dns1123_label(name, path.child("name")))
    if not s(ctr.get("image")):
        errs.append(required(path.child("image"), ""))
    tmp = s(ctr.get("terminationMessagePolicy"))
    if tmp not in ("File", "FallbackToLogsOnError"):
        if not tmp:
            errs.append(required(path.child("terminationMessagePolicy"), ""))
        else:
            errs.append(not_supported(path.child("terminationMessagePolicy"), tmp, ("File", "FallbackToLogsOnError")))
    devices = {s(m(d).get("name")): s(m(d).get("devicePath")) for d in lst(ctr.get("volumeDevices"))}
    errs.extend(validate_container_ports(lst(ctr.get("ports")), path.child("ports")))
    errs.extend(validate_env(lst(ctr.get("env")), path.child("env"), release))
    errs.extend(validate_env_from(lst(ctr.get("envFrom")), path.child("envFrom"), release))
    errs.extend(validate_volume_mounts(lst(ctr.get("volumeMounts")), devices, volumes, path.child("volumeMounts"), ctr))
    mounts = {s(m(v).get("name")): s(m(v).get("mountPath")) for v in lst(ctr.get("volumeMounts"))}
    errs.extend(validate_volume_devices(lst(ctr.get("volumeDevices")), mounts, volumes, path.child("volumeDevices")))
    errs.extend(validate_pull_policy(s(ctr.get("imagePullPolicy")), path.child("imagePullPolicy")))
    errs.extend(validate_resource_requirements(m(ctr.get("resources")), path.child("resources"), release))
    errs.extend(validate_resize_policy(lst(ctr.get("resizePolicy")), path.child("resizePolicy"), pod_restart_policy))
    errs.extend(validate_security_context(ctr.get("securityContext"), path.child("securityContext"), host_users))
    return errs


def _host_port_conflicts(containers: Sequence[Any], path: Path) -> list[FieldError]:
    """Upstream ``checkHostPortConflicts`` / ``AccumulateUniqueHostPorts``."""
    errs: list[FieldError] = []
    seen: set[str] = set()
    for ci, ctr in enumerate(containers):
        for pi, port in enumerate(lst(m(ctr).get("ports"))):
            port = m(port)
            hp = i(port.get("hostPort"))
            if hp == 0:
                continue
            key = f"{s(port.get('protocol'))}/{s(port.get('hostIP'))}/{hp}"
            if key in seen:
                errs.append(duplicate(path.index(ci).child("ports").index(pi).child("hostPort"), key))
            seen.add(key)
    return errs


#: ``PodValidationOptions`` on a create, by release (kubernetes ``pkg/api/pod/util.go``
#: ``GetValidationOptionsFromPodSpecAndMeta`` with no old pod): ``AllowContainerRestartPolicyRules`` is gate
#: ContainerRestartRules (Alpha off 1.34, Beta on 1.35), ``AllowRestartAllContainers`` is gate
#: RestartAllContainersOnContainerExits (Alpha off 1.35, Beta on 1.36), ``AllowSidecarResizePolicy`` is gate
#: InPlacePodVerticalScaling (on from 1.33) — release-4.21 … 4.23 ``kube_features.go``.
def _allow_container_restart_rules(release: Release) -> bool:
    return release.minor >= 35


def _allow_restart_all_containers(release: Release) -> bool:
    return release.minor >= 36


_CONTAINER_RESTART_POLICIES = ("Always", "Never", "OnFailure")
_RESTART_RULE_OPERATORS = ("In", "NotIn")


def validate_container_restart_policy(ctr: Mapping[str, Any], path: Path, release: Release) -> list[FieldError]:
    """Upstream ``validateContainerRestartPolicy`` (1.34 …; reached on a create from 1.35, when the gate is on).

    1.34 (release-4.21) says TooLong for too many rules and exit codes, 1.35 on TooMany; 1.35 (release-4.22)
    lists the actions without RestartAllContainers in the NotSupported detail whatever it allowed, 1.36 the
    actions it allowed."""
    errs: list[FieldError] = []
    policy, rules = ctr.get("restartPolicy"), lst(ctr.get("restartPolicyRules"))
    policy_path = path.child("restartPolicy")
    if policy is None:
        if not rules:
            return errs
        errs.append(required(policy_path, "must specify restartPolicy when restart rules are used"))
    elif s(policy) not in _CONTAINER_RESTART_POLICIES:
        errs.append(not_supported(policy_path, s(policy), _CONTAINER_RESTART_POLICIES))
    if len(rules) > 20:
        errs.append(too_many(path.child("restartPolicyRules"), len(rules), 20) if release.minor >= 35
                    else too_long(path.child("restartPolicyRules"), rules, 20))
    allowed = ("Restart", "RestartAllContainers") if _allow_restart_all_containers(release) else ("Restart",)
    listed = allowed if release.minor >= 36 else ("Restart",)
    for index, rule in enumerate(rules):
        rule = m(rule)
        rp = path.child("restartPolicyRules").index(index)
        if s(rule.get("action")) not in allowed:
            errs.append(not_supported(rp.child("action"), s(rule.get("action")), listed))
        codes = rule.get("exitCodes")
        if codes is not None:
            codes = m(codes)
            if s(codes.get("operator")) not in _RESTART_RULE_OPERATORS:
                errs.append(not_supported(rp.child("exitCodes", "operator"), s(codes.get("operator")), _RESTART_RULE_OPERATORS))
            values = lst(codes.get("values"))
            if len(values) > 255:
                errs.append(too_many(rp.child("exitCodes", "values"), len(values), 255) if release.minor >= 35
                            else too_long(rp.child("exitCodes", "values"), values, 255))
        else:
            errs.append(required(rp.child("exitCodes"), "must be specified"))
    return errs


def _validate_init_container_restart_policy(ctr: Mapping[str, Any], path: Path, release: Release) -> list[FieldError]:
    """Upstream ``validateInitContainerRestartPolicy`` (release-4.23; before 1.35 no rules are checked, and
    before 1.34 the function took the policy only)."""
    policy, rules = ctr.get("restartPolicy"), lst(ctr.get("restartPolicyRules"))
    if policy is None:
        if rules and release.minor >= 35:
            return [required(path.child("restartPolicy"), "must specify restartPolicy when restart rules are used")]
        return []
    if _allow_container_restart_rules(release):
        if policy == "Always":
            if _allow_restart_all_containers(release):
                return validate_container_restart_policy(ctr, path, release)
            if rules:
                return [forbidden(path.child("restartPolicyRules"), "restartPolicyRules are not allowed for init containers with restart policy Always")]
            return []
        return validate_container_restart_policy(ctr, path, release)
    if policy != "Always":
        return [not_supported(path.child("restartPolicy"), s(policy), ("Always",))]
    return []


def _resize_policy_go(policies: Sequence[Any]) -> str:
    """``%#v`` of a ``[]core.ContainerResizePolicy`` (what releases before 1.34 print as the bad value)."""
    items = ", ".join(f'core.ContainerResizePolicy{{ResourceName:"{s(m(p).get("resourceName"))}", RestartPolicy:"{s(m(p).get("restartPolicy"))}"}}'
                      for p in policies)
    return f"[]core.ContainerResizePolicy{{{items}}}"


def validate_containers(containers: Sequence[Any], volumes: Mapping[str, Any], grace: int | None, path: Path, release: Release, host_users: bool = True,
                        pod_restart_policy: str = "Always") -> list[FieldError]:
    """Upstream ``validateContainers``."""
    if not containers:
        return [required(path, "")]
    errs: list[FieldError] = []
    names: set[str] = set()
    restart_rules = _allow_container_restart_rules(release)
    for index, ctr in enumerate(containers):
        ctr = m(ctr)
        p = path.index(index)
        errs.extend(validate_container_common(ctr, volumes, p, release, host_users, pod_restart_policy))
        name = s(ctr.get("name"))
        if name in names:
            errs.append(duplicate(p.child("name"), name))
        else:
            names.add(name)
        if isinstance(ctr.get("lifecycle"), dict):
            errs.extend(_lifecycle(ctr["lifecycle"], grace, p.child("lifecycle"), release))
        errs.extend(_probes(ctr, grace, p, release))
        if restart_rules:
            errs.extend(validate_container_restart_policy(ctr, p, release))
        elif ctr.get("restartPolicy") is not None:
            errs.append(forbidden(p.child("restartPolicy"), "may not be set for non-init containers"))
    errs.extend(_host_port_conflicts(containers, path))
    return errs


def validate_init_containers(containers: Sequence[Any], regular: Sequence[Any], volumes: Mapping[str, Any], grace: int | None, path: Path, release: Release, host_users: bool = True,
                             pod_restart_policy: str = "Always") -> list[FieldError]:
    """Upstream ``validateInitContainers`` (release-4.17 … 4.23)."""
    errs: list[FieldError] = []
    names = {s(m(c).get("name")) for c in regular}
    for index, ctr in enumerate(containers):
        ctr = m(ctr)
        p = path.index(index)
        errs.extend(validate_container_common(ctr, volumes, p, release, host_users, pod_restart_policy))
        restart_always = ctr.get("restartPolicy") == "Always"
        errs.extend(_validate_init_container_restart_policy(ctr, p, release))
        name = s(ctr.get("name"))
        if name in names:
            errs.append(duplicate(p.child("name"), name))
        elif name:
            names.add(name)
        errs.extend(_host_port_conflicts([ctr], path))
        if restart_always:
            if isinstance(ctr.get("lifecycle"), dict):
                errs.extend(_lifecycle(ctr["lifecycle"], grace, p.child("lifecycle"), release))
            errs.extend(_probes(ctr, grace, p, release))
        else:
            for key in ("lifecycle", "livenessProbe", "readinessProbe", "startupProbe"):
                if ctr.get(key) is not None:
                    errs.append(forbidden(p.child(key), "may not be set for init containers without restartPolicy=Always"))
        resize = lst(ctr.get("resizePolicy"))
        if resize and not pod_gate("InPlacePodVerticalScaling", release):  # AllowSidecarResizePolicy
            errs.append(invalid(p.child("resizePolicy"), go_typed([GoStruct({"ResourceName": s(m(x).get("resourceName")), "RestartPolicy": s(m(x).get("restartPolicy"))}) for x in resize], _resize_policy_go(resize)), "must not be set for init containers"))
        if not restart_always and release.minor >= 36:  # new in release-4.23 (no old pod on a create)
            for j, pol in enumerate(resize):
                if m(pol).get("restartPolicy") == "RestartContainer":
                    errs.append(invalid(p.child("resizePolicy").index(j).child("restartPolicy"), "RestartContainer",
                                        "must not be set to 'RestartContainer' for non-sidecar initContainers"))
    return errs


# --- pod spec ----------------------------------------------------------------------------------------


def _enum(value: str, allowed: Sequence[str], path: Path) -> list[FieldError]:
    if value in allowed:
        return []
    if not value:
        return [required(path, "")]
    return [not_supported(path, value, allowed)]


def _go_toleration(tol: Mapping[str, Any]) -> Any:
    """An internal ``core.Toleration`` as a bad value before 1.34: ``%#v`` (an address when ``TolerationSeconds`` is
    set, not reproduced)."""
    go_v = None
    if tol.get("tolerationSeconds") is None:
        go_v = (f'core.Toleration{{Key:{go_quote(s(tol.get("key")))}, Operator:{go_quote(s(tol.get("operator")))}, Value:{go_quote(s(tol.get("value")))}, '
                f'Effect:{go_quote(s(tol.get("effect")))}, TolerationSeconds:(*int64)(nil)}}')
    return go_typed(GoStruct({"Key": s(tol.get("key")), "Operator": s(tol.get("operator")), "Value": s(tol.get("value")),
                              "Effect": s(tol.get("effect")), "TolerationSeconds": tol.get("tolerationSeconds")}), go_v)


def validate_tolerations(tolerations: Sequence[Any], path: Path, release: Release) -> list[FieldError]:
    """Upstream ``ValidateTolerations`` (the numeric ``Lt``/``Gt`` operators of 1.36 are refused as before)."""
    from crdtool.core.objectmeta import validate_label_name

    errs: list[FieldError] = []
    for index, tol in enumerate(tolerations):
        tol = m(tol)
        idx = path.index(index)
        key, op, value, effect = s(tol.get("key")), s(tol.get("operator")), s(tol.get("value")), s(tol.get("effect"))
        if key:
            errs.extend(validate_label_name(key, idx.child("key"), release))
        if not key and op != "Exists":
            errs.append(invalid(idx.child("operator"), op, "operator must be Exists when `key` is empty, which means \"match all values and all keys\""))
        if tol.get("tolerationSeconds") is not None and effect != "NoExecute":
            errs.append(invalid(idx.child("effect"), effect, "effect must be 'NoExecute' when `tolerationSeconds` is set"))
        if op in ("Equal", ""):
            msgs = is_valid_label_value(value, release)
            if msgs:
                errs.append(invalid(idx.child("operator"), value, ";".join(msgs)))
        elif op == "Exists":
            if value:
                # validation.go@1.30/1.31 put the whole toleration as the bad value; from 1.32 its value
                bad: Any = value if release.minor >= 32 else _go_toleration(tol)
                errs.append(invalid(idx.child("operator"), bad, "value must be empty when `operator` is 'Exists'"))
        elif op in ("Lt", "Gt") and release.minor >= 36:
            errs.append(not_supported(idx.child("operator"), op, ("Equal", "Exists", "Lt", "Gt")))
        else:
            errs.append(not_supported(idx.child("operator"), op, ("Equal", "Exists")))
        if effect:
            if effect not in ("NoSchedule", "PreferNoSchedule", "NoExecute"):
                errs.append(not_supported(idx.child("effect"), effect, ("NoExecute", "NoSchedule", "PreferNoSchedule")))
    return errs


_MAX_ID = 2**31 - 1


def _id_errs(value: Any, path: Path) -> list[FieldError]:
    """``IsValidUserID`` / ``IsValidGroupID``: 0 … MaxInt32."""
    if isinstance(value, int) and not 0 <= value <= _MAX_ID:
        return [invalid(path, value, inclusive_range_error(0, _MAX_ID))]
    return []


def _seccomp_profile(sp: Any, path: Path) -> list[FieldError]:
    """Upstream ``validateSeccompProfileField``."""
    if not isinstance(sp, dict):
        return []
    errs: list[FieldError] = []
    t = s(sp.get("type"))
    if not t:
        errs.append(required(path.child("type"), "type is required when seccompProfile is set"))
    elif t not in ("Localhost", "RuntimeDefault", "Unconfined"):
        errs.append(not_supported(path.child("type"), t, ("Localhost", "RuntimeDefault", "Unconfined")))
    lp = sp.get("localhostProfile")
    if t == "Localhost":
        if lp is None:
            errs.append(required(path.child("localhostProfile"), "must be set when seccomp type is Localhost"))
        else:
            errs.extend(validate_local_descending_path(s(lp), path.child("localhostProfile")))
    elif lp is not None:
        errs.append(invalid(path.child("localhostProfile"), dict(sp), "can only be set when seccomp type is Localhost"))
    return errs


def _app_armor_profile(profile: Any, path: Path) -> list[FieldError]:
    """Upstream ``ValidateAppArmorProfileField`` (1.30+)."""
    if not isinstance(profile, dict):
        return []
    t = s(profile.get("type"))
    lp = profile.get("localhostProfile")
    if t == "Localhost":
        if lp is None:
            return [required(path.child("localhostProfile"), "must be set when AppArmor type is Localhost")]
        errs: list[FieldError] = []
        lps = s(lp)
        if lps.strip() != lps:
            errs.append(invalid(path.child("localhostProfile"), lps, "must not be padded with whitespace"))
        elif not lps:
            errs.append(required(path.child("localhostProfile"), "must be set when AppArmor type is Localhost"))
        if byte_len(lps) > 4095:
            # 1.30/1.31: TooLongMaxLength (FieldError.at_release renders it)
            errs.append(too_long(path.child("localhostProfile"), lps, 4095, max_length_error=True))
        return errs
    if t in ("RuntimeDefault", "Unconfined"):
        if lp is not None:
            return [invalid(path.child("localhostProfile"), lp, "can only be set when AppArmor type is Localhost")]
        return []
    if not t:
        return [required(path.child("type"), "type is required when appArmorProfile is set")]
    return [not_supported(path.child("type"), t, ("Localhost", "RuntimeDefault", "Unconfined"))]


def validate_security_context(sc: Any, path: Path, host_users: bool) -> list[FieldError]:
    """Upstream ``ValidateSecurityContext`` of a container (Windows options not checked; privileged containers
    are allowed, as ``--allow-privileged=true`` clusters do)."""
    if not isinstance(sc, dict):
        return []
    errs = _id_errs(sc.get("runAsUser"), path.child("runAsUser"))
    errs.extend(_id_errs(sc.get("runAsGroup"), path.child("runAsGroup")))
    pm = sc.get("procMount")
    if isinstance(pm, str):
        if pm not in ("Default", "Unmasked"):
            errs.append(not_supported(path.child("procMount"), pm, ("Default", "Unmasked")))
        if host_users and pm == "Unmasked":
            errs.append(invalid(path.child("procMount"), pm, "`hostUsers` must be false to use `Unmasked`"))
    errs.extend(_seccomp_profile(sc.get("seccompProfile"), path.child("seccompProfile")))
    if sc.get("allowPrivilegeEscalation") is False:
        if sc.get("privileged") is True:
            errs.append(invalid(path, dict(sc), "cannot set `allowPrivilegeEscalation` to false and `privileged` to true"))
        caps = sc.get("capabilities")
        if isinstance(caps, dict):
            for cap in lst(caps.get("add")):
                if cap == "CAP_SYS_ADMIN":
                    errs.append(invalid(path, dict(sc), "cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN"))
    errs.extend(validate_windows_security_context_options(sc.get("windowsOptions"), path.child("windowsOptions")))
    errs.extend(_app_armor_profile(sc.get("appArmorProfile"), path.child("appArmorProfile")))
    return errs


_MAX_GMSA_CREDENTIAL_SPEC_LENGTH_KIB = 64
_MAX_RUN_AS_USER_NAME_DOMAIN_LENGTH = 256
_MAX_RUN_AS_USER_NAME_USER_LENGTH = 104
# ``ctrlRegex`` (``[[:cntrl:]]``: ASCII control characters), ``validNetBiosRegex``, ``validWindowsUserDomainDNSRegex``,
# ``invalidUserNameCharsRegex``, ``invalidUserNameDotsSpacesRegex`` (validation.go; Go's ``$`` is ``\Z`` here)
_CTRL = re.compile(r"[\x00-\x1f\x7f]")
_NETBIOS = re.compile(r'^[^\\/:*?"<>|.][^\\/:*?"<>|]{0,14}\Z')
_DNS_LABEL_FMT = r"[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?"
_WINDOWS_DOMAIN_DNS = re.compile(rf"^{_DNS_LABEL_FMT}(?:\.{_DNS_LABEL_FMT})*\Z")
_USER_NAME_BAD_CHARS = re.compile(r'["/\\:;|=,+*?<>@\[\]]')
_USER_NAME_DOTS_SPACES = re.compile(r"^[. ]+\Z")


def validate_windows_security_context_options(options: Any, path: Path) -> list[FieldError]:
    """Upstream ``validateWindowsSecurityContextOptions`` (identical @release-4.17 … 4.23). Lengths are Go's
    ``len``: bytes."""
    if not isinstance(options, dict):
        return []
    errs: list[FieldError] = []
    spec_name = options.get("gmsaCredentialSpecName")
    if isinstance(spec_name, str):
        errs.extend(invalid(path.child("gmsaCredentialSpecName"), spec_name, msg) for msg in is_dns1123_subdomain(spec_name))
    spec = options.get("gmsaCredentialSpec")
    if isinstance(spec, str):
        if not spec:
            errs.append(invalid(path.child("gmsaCredentialSpec"), spec, "gmsaCredentialSpec cannot be an empty string"))
        elif byte_len(spec) > _MAX_GMSA_CREDENTIAL_SPEC_LENGTH_KIB * 1024:
            errs.append(invalid(path.child("gmsaCredentialSpec"), spec, f"gmsaCredentialSpec size must be under {_MAX_GMSA_CREDENTIAL_SPEC_LENGTH_KIB} KiB"))
    name = options.get("runAsUserName")
    if not isinstance(name, str):
        return errs
    p = path.child("runAsUserName")
    parts = name.split("\\")
    if not name:
        errs.append(invalid(p, name, "runAsUserName cannot be an empty string"))
    elif _CTRL.search(name):
        errs.append(invalid(p, name, "runAsUserName cannot contain control characters"))
    elif len(parts) > 2:
        errs.append(invalid(p, name, "runAsUserName cannot contain more than one backslash"))
    else:
        has_domain = len(parts) == 2
        domain, user = (parts[0], parts[1]) if has_domain else ("", parts[0])
        if byte_len(domain) >= _MAX_RUN_AS_USER_NAME_DOMAIN_LENGTH:
            errs.append(invalid(p, name, f"runAsUserName's Domain length must be under {_MAX_RUN_AS_USER_NAME_DOMAIN_LENGTH} characters"))
        if has_domain and not (_NETBIOS.search(domain) or _WINDOWS_DOMAIN_DNS.search(domain)):
            errs.append(invalid(p, name, "runAsUserName's Domain doesn't match the NetBios nor the DNS format"))
        if not user:
            errs.append(invalid(p, name, "runAsUserName's User cannot be empty"))
        elif byte_len(user) > _MAX_RUN_AS_USER_NAME_USER_LENGTH:
            errs.append(invalid(p, name, f"runAsUserName's User length must not be longer than {_MAX_RUN_AS_USER_NAME_USER_LENGTH} characters"))
        if _USER_NAME_DOTS_SPACES.search(user):
            errs.append(invalid(p, name, "runAsUserName's User cannot contain only periods or spaces"))
        if _USER_NAME_BAD_CHARS.search(user):
            errs.append(invalid(p, name, 'runAsUserName\'s User cannot contain the following characters: "/\\:;|=,+*?<>@[]'))
    return errs


#: ``SysctlSegmentFmt`` / ``SysctlContainSlashFmt`` / ``SysctlMaxLength`` (validation.go).
SYSCTL_MAX_LENGTH = 253
_SYSCTL_SEGMENT_FMT = "[a-z0-9]([-_a-z0-9]*[a-z0-9])?"
_SYSCTL_CONTAIN_SLASH_RE = "^(" + _SYSCTL_SEGMENT_FMT + "[\\./])*" + _SYSCTL_SEGMENT_FMT + "$"
_SYSCTL_CONTAIN_SLASH = re.compile(_SYSCTL_CONTAIN_SLASH_RE[:-1] + "\\Z")

# k8s.io/component-helpers node/util/sysctl/namespace.go (identical @release-4.17 … 4.23)
_SYSCTL_IPC_NAMES = frozenset({
    "kernel.sem", "kernel.shmall", "kernel.shmmax", "kernel.shmmni", "kernel.shm_rmid_forced", "kernel.shm",
    "kernel.msgmax", "kernel.msgmnb", "kernel.msgmni", "kernel.msg",
})


def is_valid_sysctl_name(name: str) -> bool:
    """Upstream ``IsValidSysctlName``."""
    return byte_len(name) <= SYSCTL_MAX_LENGTH and _SYSCTL_CONTAIN_SLASH.search(name) is not None


def sysctl_namespace(sysctl: str) -> str:
    """``sysctl.GetNamespace``: ``"IPC"``, ``"Net"`` or ``""`` (``NormalizeName`` swaps ``.`` and ``/`` when
    ``/`` comes first; a ``*`` ends the name)."""
    name = sysctl
    first = next((k for k, ch in enumerate(name) if ch in "./"), -1)
    if first != -1 and name[first] == "/":
        name = name.translate(str.maketrans("./", "/."))
    star = name.find("*")
    if star != -1:
        name = name[:star]
    if name in _SYSCTL_IPC_NAMES:
        return "IPC"
    if name.startswith("net."):
        return "Net"
    if name.startswith("fs.mqueue."):
        return "IPC"
    return ""


def _sysctls(sysctls: Sequence[Any], spec: Mapping[str, Any], path: Path) -> list[FieldError]:
    """Upstream ``validateSysctls`` with ``ValidateHostSysctl`` (``AllowNamespacedSysctlsForHostNetAndHostIPC``
    is false on create)."""
    errs: list[FieldError] = []
    names: set[str] = set()
    for index, sysctl in enumerate(sysctls):
        name = s(m(sysctl).get("name"))
        p = path.index(index).child("name")
        if not name:
            errs.append(required(p, ""))
        elif not is_valid_sysctl_name(name):
            errs.append(invalid(p, name, f"must have at most {SYSCTL_MAX_LENGTH} characters and match regex {_SYSCTL_CONTAIN_SLASH_RE}"))
        elif name in names:
            errs.append(duplicate(p, name))
        ns = sysctl_namespace(name)
        if spec.get("hostNetwork") is True and ns == "Net":
            errs.append(invalid(p, name, "may not be specified when 'hostNetwork' is true"))
        elif spec.get("hostIPC") is True and ns == "IPC":
            errs.append(invalid(p, name, "may not be specified when 'hostIPC' is true"))
        names.add(name)
    return errs


def _pod_security_context(sc: Any, path: Path, spec: Mapping[str, Any]) -> list[FieldError]:
    """Upstream ``validatePodSpecSecurityContext``. ``spec``: the v1 pod spec (``hostPID``, ``hostNetwork``,
    ``hostIPC`` and ``shareProcessNamespace`` live there in v1, in the security context internally: the internal
    one is never nil after conversion, so those checks run without a v1 ``securityContext`` too)."""
    sc = m(sc)
    errs = _id_errs(sc.get("fsGroup"), path.child("fsGroup"))
    errs.extend(_id_errs(sc.get("runAsUser"), path.child("runAsUser")))
    errs.extend(_id_errs(sc.get("runAsGroup"), path.child("runAsGroup")))
    for index, gid in enumerate(lst(sc.get("supplementalGroups"))):
        errs.extend(_id_errs(gid, path.child("supplementalGroups").index(index)))
    if spec.get("shareProcessNamespace") is True and spec.get("hostPID") is True:
        errs.append(invalid(path.child("shareProcessNamespace"), True, "ShareProcessNamespace and HostPID cannot both be enabled"))
    if lst(sc.get("sysctls")):
        errs.extend(_sysctls(lst(sc.get("sysctls")), spec, path.child("sysctls")))
    fcp = sc.get("fsGroupChangePolicy")
    if isinstance(fcp, str) and fcp not in ("Always", "OnRootMismatch"):
        errs.append(not_supported(path.child("fsGroupChangePolicy"), fcp, ("Always", "OnRootMismatch")))
    errs.extend(_seccomp_profile(sc.get("seccompProfile"), path.child("seccompProfile")))
    errs.extend(validate_windows_security_context_options(sc.get("windowsOptions"), path.child("windowsOptions")))
    errs.extend(_app_armor_profile(sc.get("appArmorProfile"), path.child("appArmorProfile")))
    sgp = sc.get("supplementalGroupsPolicy")
    if isinstance(sgp, str) and sgp not in ("Merge", "Strict"):
        errs.append(not_supported(path.child("supplementalGroupsPolicy"), sgp, ("Merge", "Strict")))
    scp = sc.get("seLinuxChangePolicy")
    # useOnlyRecursiveSELinuxChangePolicy: gate SELinuxMount is off (Alpha 1.30, Beta false 1.33 … 1.36)
    if isinstance(scp, str) and scp != "Recursive":
        errs.append(not_supported(path.child("seLinuxChangePolicy"), scp, ("Recursive",)))
    return errs


def _visit_containers(spec: Mapping[str, Any], path: Path) -> list[tuple[Mapping[str, Any], Path]]:
    """``podshelper.VisitContainersWithPath``: init containers, containers, ephemeral containers."""
    out: list[tuple[Mapping[str, Any], Path]] = []
    for key in ("initContainers", "containers", "ephemeralContainers"):
        for index, ctr in enumerate(lst(spec.get(key))):
            out.append((m(ctr), path.child(key).index(index)))
    return out


def validate_pod_host_network_deps(spec: Mapping[str, Any], path: Path) -> list[FieldError]:
    """Upstream ``validatePodHostNetworkDeps`` for a template (not a Pod): a host port other than 0 must equal the
    container port when ``hostNetwork`` is true."""
    if spec.get("hostNetwork") is not True:
        return []
    errs: list[FieldError] = []
    for index, ctr in enumerate(lst(spec.get("containers"))):
        for j, port in enumerate(lst(m(ctr).get("ports"))):
            hp, cp = i(m(port).get("hostPort")), i(m(port).get("containerPort"))
            if hp != 0 and hp != cp:
                errs.append(invalid(path.child("containers").index(index).child("ports").index(j).child("hostPort"), hp,
                                    "must match `containerPort` when `hostNetwork` is true"))
    return errs


def validate_windows_host_process_pod(spec: Mapping[str, Any], path: Path) -> list[FieldError]:
    """Upstream ``validateWindowsHostProcessPod`` (identical @release-4.17 … 4.23; privileged pods allowed, as
    ``--allow-privileged=true`` clusters do)."""
    pod_hp = m(m(spec.get("securityContext")).get("windowsOptions")).get("hostProcess")
    pod_hp = pod_hp if isinstance(pod_hp, bool) else None
    count = hp_count = 0
    errs: list[FieldError] = []
    for ctr, cpath in _visit_containers(spec, path):
        count += 1
        ctr_hp = m(m(ctr.get("securityContext")).get("windowsOptions")).get("hostProcess")
        ctr_hp = ctr_hp if isinstance(ctr_hp, bool) else None
        if pod_hp is not None and ctr_hp is not None and pod_hp != ctr_hp:
            errs.append(invalid(cpath.child("securityContext").child("windowsOptions").child("hostProcess"), ctr_hp,
                                f"pod hostProcess value must be identical if both are specified, was {'true' if pod_hp else 'false'}"))
        if ctr_hp is True or (ctr_hp is None and pod_hp is True):
            hp_count += 1
    if hp_count > 0:
        if hp_count != count:
            errs.append(invalid(path, "", "If pod contains any hostProcess containers then all containers must be HostProcess containers"))
        if spec.get("hostNetwork") is not True:
            errs.append(invalid(path.child("hostNetwork"), False, "hostNetwork must be true if pod contains any hostProcess containers"))
    return errs


def host_users(spec: Mapping[str, Any]) -> bool:
    """``hostUsers`` as validation reads it: true unless ``spec.hostUsers`` is false (absent: the host's user
    namespace)."""
    return spec.get("hostUsers") is not False


def validate_host_users(spec: Mapping[str, Any], path: Path, release: Release) -> list[FieldError]:
    """Upstream ``validateHostUsers`` (``AllowUserNamespacesHostNetworkSupport``: gate
    ``UserNamespacesHostNetworkSupport``, Alpha false from 1.35; ``AllowUserNamespacesWithVolumeDevices`` false on
    create). Note upstream's paths ``HostPID`` / ``HostIPC``."""
    if host_users(spec):
        return []
    new_words = release.minor >= CORE_CHANGES["host-users-words"]
    words = "when `hostUsers` is false" if new_words else "when `pod.Spec.HostUsers` is false"
    errs: list[FieldError] = []
    if spec.get("hostNetwork") is True:
        errs.append(forbidden(path.child("hostNetwork"), words))
    if spec.get("hostPID") is True:
        errs.append(forbidden(path.child("HostPID"), words))
    if spec.get("hostIPC") is True:
        errs.append(forbidden(path.child("HostIPC"), words))
    if new_words:
        for ctr, cpath in _visit_containers(spec, path):
            if lst(ctr.get("volumeDevices")):
                errs.append(forbidden(cpath.child("volumeDevices"), words))
    return errs


_WINDOWS_POD_FIELDS = (
    ("appArmorProfile", True), ("seLinuxOptions", True), ("hostUsers", False), ("hostPID", False), ("hostIPC", False),
    ("seccompProfile", True), ("fsGroup", True), ("fsGroupChangePolicy", True), ("sysctls", True),
    ("shareProcessNamespace", False), ("runAsUser", True), ("runAsGroup", True), ("supplementalGroups", True),
    ("supplementalGroupsPolicy", True), ("seLinuxChangePolicy", True),
)
_WINDOWS_CONTAINER_FIELDS = (
    "appArmorProfile", "seLinuxOptions", "seccompProfile", "capabilities", "readOnlyRootFilesystem", "privileged",
    "allowPrivilegeEscalation", "procMount", "runAsUser", "runAsGroup",
)


def validate_os(spec: Mapping[str, Any], path: Path, release: Release) -> list[FieldError]:
    """Upstream ``validateOS``, then ``validateLinux`` or ``validateWindows`` (``ValidatePodSpec``)."""
    os_ = spec.get("os")
    if not isinstance(os_, dict):
        return []
    name = s(os_.get("name"))
    os_path = path.child("os")
    if not name:
        detail = "" if release.minor >= CORE_CHANGES["os-name-no-detail"] else "cannot be empty"
        return [required(os_path.child("name"), detail)]
    if name not in ("linux", "windows"):
        return [not_supported(os_path, name, ("linux", "windows"))]
    sc = spec.get("securityContext")
    errs: list[FieldError] = []
    if name == "linux":
        if isinstance(sc, dict) and sc.get("windowsOptions") is not None:
            errs.append(forbidden(path.child("securityContext").child("windowsOptions"), "windows options cannot be set for a linux pod"))
        for ctr, cpath in _visit_containers(spec, path):
            csc = ctr.get("securityContext")
            if isinstance(csc, dict) and csc.get("windowsOptions") is not None:
                errs.append(forbidden(cpath.child("securityContext").child("windowsOptions"), "windows options cannot be set for a linux pod"))
        return errs
    # windows: the internal security context holds hostUsers, hostPID, hostIPC and shareProcessNamespace too
    sc = m(sc)
    for key, in_sc in _WINDOWS_POD_FIELDS:
        if key in ("hostPID", "hostIPC"):
            present = spec.get(key) is True
        elif key == "sysctls":
            present = bool(lst(sc.get(key)))
        elif in_sc:
            present = sc.get(key) is not None
        else:
            present = spec.get(key) is not None
        if present:
            p = path.child("securityContext").child(key) if in_sc else path.child(key)
            errs.append(forbidden(p, "cannot be set for a windows pod"))
    for ctr, cpath in _visit_containers(spec, path):
        csc = ctr.get("securityContext")
        if not isinstance(csc, dict):
            continue
        for key in _WINDOWS_CONTAINER_FIELDS:
            if csc.get(key) is not None:
                errs.append(forbidden(cpath.child("securityContext").child(key), "cannot be set for a windows pod"))
    return errs


def _node_selector_requirement(rq: Mapping[str, Any], allow_invalid_value: bool, path: Path, release: Release) -> list[FieldError]:
    """Upstream ``ValidateNodeSelectorRequirement``."""
    from crdtool.core.objectmeta import validate_label_name

    errs: list[FieldError] = []
    op, values = s(rq.get("operator")), lst(rq.get("values"))
    if op in ("In", "NotIn"):
        if not values:
            errs.append(required(path.child("values"), "must be specified when `operator` is 'In' or 'NotIn'"))
    elif op in ("Exists", "DoesNotExist"):
        if values:
            errs.append(forbidden(path.child("values"), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"))
    elif op in ("Gt", "Lt"):
        if len(values) != 1:
            errs.append(required(path.child("values"), "must be specified single value when `operator` is 'Lt' or 'Gt'"))
    else:
        errs.append(invalid(path.child("operator"), op, "not a valid selector operator"))
    errs.extend(validate_label_name(s(rq.get("key")), path.child("key"), release))
    if not allow_invalid_value and release.minor >= CORE_CHANGES["node-affinity-label-values"]:
        for vi, value in enumerate(values):
            errs.extend(invalid(path.child("values").index(vi), value, msg) for msg in is_valid_label_value(s(value), release))
    return errs


def _node_selector_term(term: Mapping[str, Any], allow_invalid_value: bool, path: Path, release: Release) -> list[FieldError]:
    """Upstream ``ValidateNodeSelectorTerm`` (with ``ValidateNodeFieldSelectorRequirement``)."""
    errs: list[FieldError] = []
    for j, rq in enumerate(lst(term.get("matchExpressions"))):
        errs.extend(_node_selector_requirement(m(rq), allow_invalid_value, path.child("matchExpressions").index(j), release))
    for j, rq in enumerate(lst(term.get("matchFields"))):
        rq = m(rq)
        p = path.child("matchFields").index(j)
        op, values = s(rq.get("operator")), lst(rq.get("values"))
        if op in ("In", "NotIn"):
            if len(values) != 1:
                errs.append(required(p.child("values"), "must be only one value when `operator` is 'In' or 'NotIn' for node field selector"))
        else:
            errs.append(invalid(p.child("operator"), op, "not a valid selector operator"))
        if s(rq.get("key")) != "metadata.name":
            errs.append(invalid(p.child("key"), s(rq.get("key")), "not a valid field selector key"))
        else:
            for vi, v in enumerate(values):
                errs.extend(invalid(p.child("values").index(vi), v, msg) for msg in validate_node_name(s(v), False))
    return errs


def _pod_affinity_term(term: Mapping[str, Any], path: Path, release: Release) -> list[FieldError]:
    """Upstream ``validatePodAffinityTerm`` (``matchLabelKeys``/``mismatchLabelKeys`` are dropped on create while
    MatchLabelKeysInPodAffinity is off, 1.30)."""
    errs = validate_label_selector(term.get("labelSelector"), path.child("labelSelector"), release)
    errs.extend(validate_label_selector(term.get("namespaceSelector"), path.child("namespaceSelector"), release))
    for name in lst(term.get("namespaces")):
        errs.extend(invalid(path.child("namespace"), name, msg) for msg in validate_namespace_name(s(name), False))
    errs.extend(validate_match_label_keys_and_mismatch_label_keys(path, [s(k) for k in lst(term.get("matchLabelKeys"))],
                                                                  [s(k) for k in lst(term.get("mismatchLabelKeys"))], term.get("labelSelector"), release))
    key = s(term.get("topologyKey"))
    if not key:
        errs.append(required(path.child("topologyKey"), "can not be empty"))
    errs.extend(validate_label_name(key, path.child("topologyKey"), release))
    return errs


def validate_affinity(affinity: Any, path: Path, release: Release) -> list[FieldError]:
    """Upstream ``validateAffinity`` (create options: invalid label values refused)."""
    if not isinstance(affinity, dict):
        return []
    errs: list[FieldError] = []
    na = affinity.get("nodeAffinity")
    if isinstance(na, dict):
        np_ = path.child("nodeAffinity")
        req = na.get("requiredDuringSchedulingIgnoredDuringExecution")
        if isinstance(req, dict):
            rp = np_.child("requiredDuringSchedulingIgnoredDuringExecution").child("nodeSelectorTerms")
            terms = lst(req.get("nodeSelectorTerms"))
            if not terms:
                errs.append(required(rp, "must have at least one node selector term"))
            for index, term in enumerate(terms):
                errs.extend(_node_selector_term(m(term), False, rp.index(index), release))
        for index, pref in enumerate(lst(na.get("preferredDuringSchedulingIgnoredDuringExecution"))):
            pref = m(pref)
            pp = np_.child("preferredDuringSchedulingIgnoredDuringExecution").index(index)
            w = i(pref.get("weight"))
            if w <= 0 or w > 100:
                errs.append(invalid(pp.child("weight"), w, "must be in the range 1-100"))
            errs.extend(_node_selector_term(m(pref.get("preference")), True, pp.child("preference"), release))
    for kind in ("podAffinity", "podAntiAffinity"):
        pa = affinity.get(kind)
        if not isinstance(pa, dict):
            continue
        kp = path.child(kind)
        for index, term in enumerate(lst(pa.get("requiredDuringSchedulingIgnoredDuringExecution"))):
            errs.extend(_pod_affinity_term(m(term), kp.child("requiredDuringSchedulingIgnoredDuringExecution").index(index), release))
        for index, wt in enumerate(lst(pa.get("preferredDuringSchedulingIgnoredDuringExecution"))):
            wt = m(wt)
            wp = kp.child("preferredDuringSchedulingIgnoredDuringExecution").index(index)
            w = i(wt.get("weight"))
            if w <= 0 or w > 100:
                errs.append(invalid(wp.child("weight"), w, "must be in the range 1-100"))
            errs.extend(_pod_affinity_term(m(wt.get("podAffinityTerm")), wp.child("podAffinityTerm"), release))
    return errs


def validate_topology_spread_constraints(constraints: Sequence[Any], path: Path, release: Release) -> list[FieldError]:
    """Upstream ``validateTopologySpreadConstraints``."""
    errs: list[FieldError] = []
    items = [m(c) for c in constraints]
    for index, c in enumerate(items):
        p = path.index(index)
        skew = i(c.get("maxSkew"))
        if skew <= 0:
            errs.append(invalid(p.child("maxSkew"), skew, "must be greater than zero"))
        key, action = s(c.get("topologyKey")), s(c.get("whenUnsatisfiable"))
        if not key:
            errs.append(required(p.child("topologyKey"), "can not be empty"))
        if action not in ("DoNotSchedule", "ScheduleAnyway"):
            errs.append(not_supported(p.child("whenUnsatisfiable"), action, ("DoNotSchedule", "ScheduleAnyway")))
        if any(s(o.get("topologyKey")) == key and s(o.get("whenUnsatisfiable")) == action for o in items[index + 1:]):
            errs.append(duplicate(p.child("{topologyKey, whenUnsatisfiable}"), f"{{{key}, {action}}}"))
        md = c.get("minDomains")
        if md is not None:
            if i(md) <= 0:
                errs.append(invalid(p.child("minDomains"), i(md), "must be greater than zero"))
            if action != "DoNotSchedule":
                errs.append(invalid(p.child("minDomains"), i(md), f"can only use minDomains if whenUnsatisfiable=DoNotSchedule, not {action}"))
        for policy_key in ("nodeAffinityPolicy", "nodeTaintsPolicy"):
            policy = c.get(policy_key)
            if isinstance(policy, str) and policy not in ("Honor", "Ignore"):
                errs.append(not_supported(p.child(policy_key), policy, ("Honor", "Ignore")))
        errs.extend(_match_label_keys(c, p, release))
        errs.extend(validate_label_selector(c.get("labelSelector"), p.child("labelSelector"), release))
    return errs


#: MatchLabelKeysInPodTopologySpreadSelectorMerge (Beta on from 1.34, release-4.21): with it a create validates
#: ``matchLabelKeys`` with ``ValidateMatchLabelKeysAndMismatchLabelKeys``, before with
#: ``ValidateMatchLabelKeysInTopologySpread`` (MatchLabelKeysInPodTopologySpread is on at every release).
MATCH_LABEL_KEYS_SELECTOR_MERGE_SINCE = 34


def _match_label_keys(c: Mapping[str, Any], p: Path, release: Release) -> list[FieldError]:
    """A topology spread constraint's ``matchLabelKeys``, as ``validateTopologySpreadConstraints`` picks the check."""
    keys = [s(k) for k in lst(c.get("matchLabelKeys"))]
    if not keys:
        return []
    sel = c.get("labelSelector")
    kp = p.child("matchLabelKeys")
    errs: list[FieldError] = []
    if release.minor < MATCH_LABEL_KEYS_SELECTOR_MERGE_SINCE:
        # ValidateMatchLabelKeysInTopologySpread
        selector_keys: set[str] = set()
        if isinstance(sel, dict):
            selector_keys.update(m(sel.get("matchLabels")))
            selector_keys.update(s(m(e).get("key")) for e in lst(sel.get("matchExpressions")))
        else:
            errs.append(forbidden(kp, "must not be specified when labelSelector is not set"))
        for index, key in enumerate(keys):
            errs.extend(validate_label_name(key, kp.index(index), release))
            if key in selector_keys:
                errs.append(invalid(kp.index(index), key, "exists in both matchLabelKeys and labelSelector"))
        return errs
    return validate_match_label_keys_and_mismatch_label_keys(p, keys, [], sel, release)


def _label_keys(path: Path, keys: Sequence[str], sel: Any, release: Release) -> list[FieldError]:
    """Upstream ``validateLabelKeys``."""
    if not keys:
        return []
    if not isinstance(sel, dict):
        return [forbidden(path, "must not be specified when labelSelector is not set")]
    errs: list[FieldError] = []
    for index, key in enumerate(keys):
        errs.extend(validate_label_name(key, path.index(index), release))
    return errs


def validate_match_label_keys_and_mismatch_label_keys(path: Path, match: Sequence[str], mismatch: Sequence[str], sel: Any,
                                                      release: Release) -> list[FieldError]:
    """Upstream ``ValidateMatchLabelKeysAndMismatchLabelKeys`` (the same at release-4.17 … 4.23): label names, a
    key both in ``matchLabelKeys`` and the selector's expressions (at upstream's path ``fldPath.Index(i)``), a key
    in both lists."""
    errs = _label_keys(path.child("matchLabelKeys"), match, sel, release)
    errs.extend(_label_keys(path.child("mismatchLabelKeys"), mismatch, sel, release))
    if isinstance(sel, dict):
        key_index = {key: index for index, key in enumerate(match)}
        seen = set(m(sel.get("matchLabels")))
        for expr in lst(sel.get("matchExpressions")):
            key = s(m(expr).get("key"))
            if key in key_index and key in seen:
                errs.append(invalid(path.index(key_index[key]), key, "exists in both matchLabelKeys and labelSelector"))
            seen.add(key)
    mismatch_set = set(mismatch)
    for index, key in enumerate(match):
        if key in mismatch_set:
            errs.append(invalid(path.child("matchLabelKeys").index(index), key, "exists in both matchLabelKeys and mismatchLabelKeys"))
    return errs


MAX_DNS_NAMESERVERS = 3
MAX_DNS_SEARCH_PATHS = 32
MAX_DNS_SEARCH_LIST_CHARS = 2048


def _pod_dns_config(cfg: Any, policy: str, path: Path, release: Release) -> list[FieldError]:
    """Upstream ``validatePodDNSConfig``."""
    from crdtool.core.validation_util import is_dns1123_subdomain_with_underscore

    if policy == "None":
        if not isinstance(cfg, dict):
            return [required(path, "must provide `dnsConfig` when `dnsPolicy` is None")]
        if not lst(cfg.get("nameservers")):
            return [required(path.child("nameservers"), "must provide at least one DNS nameserver when `dnsPolicy` is None")]
    if not isinstance(cfg, dict):
        return []
    errs: list[FieldError] = []
    nameservers = [s(n) for n in lst(cfg.get("nameservers"))]
    if len(nameservers) > MAX_DNS_NAMESERVERS:
        errs.append(invalid(path.child("nameservers"), nameservers, f"must not have more than {MAX_DNS_NAMESERVERS} nameservers"))
    for index, ns in enumerate(nameservers):
        errs.extend(is_valid_ip_for_legacy_field(path.child("nameservers").index(index), ns, release))
    searches = [s(x) for x in lst(cfg.get("searches"))]
    if len(searches) > MAX_DNS_SEARCH_PATHS:
        errs.append(invalid(path.child("searches"), searches, f"must not have more than {MAX_DNS_SEARCH_PATHS} search paths"))
    if byte_len(" ".join(searches)) > MAX_DNS_SEARCH_LIST_CHARS:
        errs.append(invalid(path.child("searches"), searches, f"must not have more than {MAX_DNS_SEARCH_LIST_CHARS} characters (including spaces) in the search list"))
    relaxed = release.minor >= CORE_CHANGES["relaxed-dns-search"]
    for index, search in enumerate(searches):
        sp = path.child("searches").index(index)
        if relaxed:
            if search != ".":
                search = search.removesuffix(".")
                errs.extend(invalid(sp, search, msg) for msg in is_dns1123_subdomain_with_underscore(search))
        else:
            search = search.removesuffix(".")
            errs.extend(_dns1123_subdomain(search, sp))
    for index, option in enumerate(lst(cfg.get("options"))):
        if not s(m(option).get("name")):
            errs.append(required(path.child("options").index(index), "must not be empty"))
    return errs


def validate_pod_spec(spec: Mapping[str, Any], path: Path, release: Release) -> list[FieldError]:
    """Upstream ``ValidatePodSpec`` for a pod template (the parts listed in the module docstring)."""
    errs: list[FieldError] = []
    grace_raw = spec.get("terminationGracePeriodSeconds")
    if grace_raw is None:
        errs.append(required(path.child("terminationGracePeriodSeconds"), ""))
    grace = grace_raw if isinstance(grace_raw, int) else None
    vols, verrs = validate_volumes(lst(spec.get("volumes")), path.child("volumes"), release)
    errs.extend(verrs)
    containers = lst(spec.get("containers"))
    # hostUsers (a v1 PodSpec field) defaults to true: absent, or dropped by a disabled gate, is the host's namespace
    uses_host_users = host_users(spec)
    restart = s(spec.get("restartPolicy"))
    errs.extend(validate_containers(containers, vols, grace, path.child("containers"), release, uses_host_users, restart))
    errs.extend(validate_init_containers(lst(spec.get("initContainers")), containers, vols, grace, path.child("initContainers"), release, uses_host_users, restart))
    errs.extend(validate_pod_resources(spec, path, release))
    errs.extend(validate_pod_host_network_deps(spec, path))
    errs.extend(_enum(s(spec.get("restartPolicy")), ("Always", "OnFailure", "Never"), path.child("restartPolicy")))
    errs.extend(_enum(s(spec.get("dnsPolicy")), ("ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"), path.child("dnsPolicy")))
    node_selector = m(spec.get("nodeSelector"))
    if node_selector:
        errs.extend(validate_labels(node_selector, path.child("nodeSelector"), release))
    errs.extend(_pod_security_context(spec.get("securityContext"), path.child("securityContext"), spec))
    for index, ref in enumerate(lst(spec.get("imagePullSecrets"))):
        if isinstance(ref, dict) and set(ref) - {"name"}:
            errs.append(invalid(path.child("imagePullSecrets").index(index), ref, "only name may be set"))
    errs.extend(validate_affinity(spec.get("affinity"), path.child("affinity"), release))
    errs.extend(_pod_dns_config(spec.get("dnsConfig"), s(spec.get("dnsPolicy")), path.child("dnsConfig"), release))
    for index, gate in enumerate(lst(spec.get("readinessGates"))):
        ct = s(m(gate).get("conditionType"))
        errs.extend(_qualified_name(ct, path.child("readinessGates").index(index).child("conditionType"), release))
    seen: set[str] = set()
    for index, gate in enumerate(lst(spec.get("schedulingGates"))):
        gn = s(m(gate).get("name"))
        p = path.child("schedulingGates").index(index)
        errs.extend(_qualified_name(gn, p, release))
        if gn in seen:
            errs.append(duplicate(p, gn))
        seen.add(gn)
    errs.extend(validate_topology_spread_constraints(lst(spec.get("topologySpreadConstraints")), path.child("topologySpreadConstraints"), release))
    errs.extend(validate_windows_host_process_pod(spec, path))
    errs.extend(validate_host_users(spec, path, release))
    errs.extend(validate_pod_host_name(spec, path))
    sa = s(spec.get("serviceAccountName"))
    if sa:
        errs.extend(invalid(path.child("serviceAccountName"), sa, msg) for msg in validate_service_account_name(sa, False))
    node = s(spec.get("nodeName"))
    if node:
        errs.extend(invalid(path.child("nodeName"), node, msg) for msg in validate_node_name(node, False))
    ads = spec.get("activeDeadlineSeconds")
    if isinstance(ads, int) and (ads < 1 or ads > 2**31 - 1):
        errs.append(invalid(path.child("activeDeadlineSeconds"), ads, inclusive_range_error(1, 2**31 - 1)))
    if s(spec.get("hostname")):
        errs.extend(_dns1123_label(s(spec.get("hostname")), path.child("hostname")))
    if s(spec.get("subdomain")):
        errs.extend(_dns1123_label(s(spec.get("subdomain")), path.child("subdomain")))
    if lst(spec.get("tolerations")):
        errs.extend(validate_tolerations(lst(spec.get("tolerations")), path.child("tolerations"), release))
    for index, alias in enumerate(lst(spec.get("hostAliases"))):
        # ValidateHostAliases: IsValidIP (1.30 … 1.32) / IsValidIPForLegacyField (1.33+), the same answer while
        # StrictIPCIDRValidation is off
        errs.extend(is_valid_ip_for_legacy_field(path.child("hostAliases").index(index).child("ip"), s(m(alias).get("ip")), release))
        for j, hostname in enumerate(lst(m(alias).get("hostnames"))):
            errs.extend(_dns1123_subdomain(s(hostname), path.child("hostAliases").index(index).child("hostnames").index(j)))
    pcn = s(spec.get("priorityClassName"))
    if pcn:
        errs.extend(invalid(path.child("priorityClassName"), pcn, msg) for msg in validate_priority_class_name(pcn, False))
    rcn = spec.get("runtimeClassName")
    if isinstance(rcn, str):
        errs.extend(invalid(path.child("runtimeClassName"), rcn, msg) for msg in name_is_dns_subdomain(rcn, False))
    pp = spec.get("preemptionPolicy")
    if isinstance(pp, str):
        errs.extend(_enum(pp, ("PreemptLowerPriority", "Never"), path.child("preemptionPolicy")))
    overhead = spec.get("overhead")
    if isinstance(overhead, dict):
        # validateOverhead: ValidateContainerResourceRequirements(&{Limits: overhead}) at spec.overhead
        errs.extend(validate_resource_requirements({"limits": overhead}, path.child("overhead"), release))
    errs.extend(validate_os(spec, path, release))
    errs.extend(validate_file_key_ref_volumes(spec, path))
    return errs


def validate_pod_host_name(spec: Mapping[str, Any], path: Path) -> list[FieldError]:
    """Upstream ``validatePodHostName`` (release-4.21 … 4.23; ``hostnameOverride`` is dropped on create while
    HostnameOverride is off, 1.34)."""
    override = spec.get("hostnameOverride")
    if not isinstance(override, str):
        return []
    errs: list[FieldError] = []
    p = path.child("hostnameOverride")
    if spec.get("setHostnameAsFQDN") is True:
        errs.append(forbidden(p, "may not be specified when setHostnameAsFQDN is true"))
    if spec.get("hostNetwork") is True:
        errs.append(forbidden(p, "may not be specified when hostNetwork is true"))
    if len(override) > 64:
        errs.append(too_long(p, "", 64))
    errs.extend(_dns1123_subdomain(override, p))
    return errs


def validate_file_key_ref_volumes(spec: Mapping[str, Any], path: Path) -> list[FieldError]:
    """Upstream ``validateFileKeyRefVolumes`` (release-4.21 … 4.23): a ``fileKeyRef`` names an emptyDir volume of
    the pod. Containers in ``VisitContainersWithPath`` order: init, regular, ephemeral."""
    sources = {s(m(v).get("name")): m(v) for v in lst(spec.get("volumes"))}
    errs: list[FieldError] = []
    for key in ("initContainers", "containers", "ephemeralContainers"):
        for ci, ctr in enumerate(lst(spec.get(key))):
            for j, env in enumerate(lst(m(ctr).get("env"))):
                ref = m(m(env).get("valueFrom")).get("fileKeyRef")
                if not isinstance(ref, dict):
                    continue
                name = s(ref.get("volumeName"))
                p = path.child(key).index(ci).child("env").index(j).child("valueFrom", "fileKeyRef", "volumeName")
                if name not in sources:
                    errs.append(not_found(p, name))
                elif sources[name].get("emptyDir") is None:
                    errs.append(invalid(p, name, "referenced volume must be of type emptyDir"))
    return errs


def _valid_first_digit(value: str) -> bool:
    """``helper.validFirstDigit``: no ``+``, no leading zero (``"0"`` and ``"-…"`` allowed)."""
    if not value:
        return False
    return value[0] == "-" or (value[0] == "0" and value == "0") or "1" <= value[0] <= "9"


def validate_pod_specific_annotations(annotations: Mapping[str, Any], spec: Mapping[str, Any], path: Path) -> list[FieldError]:
    """Upstream ``ValidatePodSpecificAnnotations``: the mirror-pod annotation and ``pod-deletion-cost`` (gate
    ``PodDeletionCost`` is on by default in 1.30 … 1.36), the seccomp and AppArmor annotations; the tolerations
    annotation (``scheduler.alpha.kubernetes.io/tolerations``) is not checked."""
    errs: list[FieldError] = []
    mirror = annotations.get("kubernetes.io/config.mirror")
    if mirror is not None and not s(spec.get("nodeName")):
        errs.append(invalid(path.key("kubernetes.io/config.mirror"), mirror, "must set spec.nodeName if mirror pod annotation is set"))
    cost = annotations.get("controller.kubernetes.io/pod-deletion-cost")
    if cost is not None:
        text = s(cost)
        body = text[1:] if text.startswith("-") else text
        ok = _valid_first_digit(text) and body.isascii() and body.isdigit() and -(2**31) <= int(text) <= 2**31 - 1
        if not ok:
            errs.append(invalid(path.key("controller.kubernetes.io/pod-deletion-cost"), text, "must be a 32bit integer"))
    errs.extend(validate_seccomp_pod_annotations(annotations, path))
    errs.extend(validate_app_armor_pod_annotations(annotations, spec, path))
    return errs


SECCOMP_POD_ANNOTATION = "seccomp.security.alpha.kubernetes.io/pod"
SECCOMP_CONTAINER_ANNOTATION_PREFIX = "container.seccomp.security.alpha.kubernetes.io/"
APPARMOR_CONTAINER_ANNOTATION_PREFIX = "container.apparmor.security.beta.kubernetes.io/"


def validate_seccomp_profile_annotation(value: str, path: Path) -> list[FieldError]:
    """Upstream ``ValidateSeccompProfile`` (an annotation's profile name)."""
    if value in ("runtime/default", "docker/default", "unconfined"):
        return []
    if value.startswith("localhost/"):
        return validate_local_descending_path(value[len("localhost/"):], path)
    return [invalid(path, value, "must be a valid seccomp profile")]


def validate_seccomp_pod_annotations(annotations: Mapping[str, Any], path: Path) -> list[FieldError]:
    """Upstream ``ValidateSeccompPodAnnotations`` (``fldPath.Child(key)``: the key joins the path with a dot; Go
    ranges over the map, crdtool sorts the keys)."""
    errs: list[FieldError] = []
    if SECCOMP_POD_ANNOTATION in annotations:
        errs.extend(validate_seccomp_profile_annotation(s(annotations[SECCOMP_POD_ANNOTATION]), path.child(SECCOMP_POD_ANNOTATION)))
    for key in sorted(annotations):
        if key.startswith(SECCOMP_CONTAINER_ANNOTATION_PREFIX):
            errs.extend(validate_seccomp_profile_annotation(s(annotations[key]), path.child(key)))
    return errs


def validate_app_armor_pod_annotations(annotations: Mapping[str, Any], spec: Mapping[str, Any], path: Path) -> list[FieldError]:
    """Upstream ``ValidateAppArmorPodAnnotations`` with ``ValidateAppArmorProfileFormat`` (keys sorted)."""
    names = {s(m(c).get("name")) for key in ("initContainers", "containers", "ephemeralContainers") for c in lst(spec.get(key))}
    errs: list[FieldError] = []
    for key in sorted(annotations):
        if not key.startswith(APPARMOR_CONTAINER_ANNOTATION_PREFIX):
            continue
        name, value = key[len(APPARMOR_CONTAINER_ANNOTATION_PREFIX):], s(annotations[key])
        if name not in names:
            errs.append(invalid(path.key(key), name, "container not found"))
        if value not in ("", "runtime/default", "unconfined") and not value.startswith("localhost/"):
            errs.append(invalid(path.key(key), value, f"invalid AppArmor profile name: {go_quote(value)}"))
    return errs


def _seccomp_annotation_matches(value: str, profile: Any, path: Path) -> FieldError | None:
    """Upstream ``validateSeccompAnnotationsAndFieldsMatch``."""
    if not isinstance(profile, dict):
        return None
    kind = s(profile.get("type"))
    if kind == "Unconfined" and value != "unconfined":
        return forbidden(path.child("type"), "seccomp type in annotation and field must match")
    if kind == "RuntimeDefault" and value not in ("runtime/default", "docker/default"):
        return forbidden(path.child("type"), "seccomp type in annotation and field must match")
    if kind == "Localhost":
        if not value.startswith("localhost/"):
            return forbidden(path.child("type"), "seccomp type in annotation and field must match")
        if profile.get("localhostProfile") is None or value[len("localhost/"):] != s(profile.get("localhostProfile")):
            return forbidden(path.child("localhostProfile"), "seccomp profile in annotation and field must match")
    return None


def validate_seccomp_annotations_and_fields(annotations: Mapping[str, Any], spec: Mapping[str, Any], path: Path) -> list[FieldError]:
    """Upstream ``validateSeccompAnnotationsAndFields`` (the same at release-4.17 … 4.23)."""
    errs: list[FieldError] = []
    pod_profile = m(spec.get("securityContext")).get("seccompProfile")
    if pod_profile is not None and SECCOMP_POD_ANNOTATION in annotations:
        e = _seccomp_annotation_matches(s(annotations[SECCOMP_POD_ANNOTATION]), pod_profile, path.child("securityContext", "seccompProfile"))
        if e is not None:
            errs.append(e)
    for ctr, cpath in _visit_containers(spec, path):
        profile = m(ctr.get("securityContext")).get("seccompProfile")
        key = SECCOMP_CONTAINER_ANNOTATION_PREFIX + s(ctr.get("name"))
        if profile is not None and key in annotations:
            e = _seccomp_annotation_matches(s(annotations[key]), profile, cpath.child("securityContext", "seccompProfile"))
            if e is not None:
                errs.append(e)
    return errs


def validate_app_armor_annotations_and_fields_match_on_create(annotations: Mapping[str, Any], spec: Mapping[str, Any], path: Path) -> list[FieldError]:
    """Upstream ``validateAppArmorAnnotationsAndFieldsMatchOnCreate`` (AppArmorFields is on at 1.30 … 1.36)."""
    if s(m(spec.get("os")).get("name")) == "windows":
        return []
    errs: list[FieldError] = []
    pod_profile = m(spec.get("securityContext")).get("appArmorProfile")
    for ctr, cpath in _visit_containers(spec, path):
        profile = m(ctr.get("securityContext")).get("appArmorProfile")
        profile = profile if profile is not None else pod_profile
        key = APPARMOR_CONTAINER_ANNOTATION_PREFIX + s(ctr.get("name"))
        if not isinstance(profile, dict) or key not in annotations:
            continue
        value, ap = s(annotations[key]), cpath.child("securityContext", "appArmorProfile")
        kind = s(profile.get("type"))
        if (kind == "Unconfined" and value != "unconfined") or (kind == "RuntimeDefault" and value != "runtime/default") \
                or (kind == "Localhost" and not value.startswith("localhost/")):
            errs.append(forbidden(ap.child("type"), "apparmor type in annotation and field must match"))
        elif kind == "Localhost" and (profile.get("localhostProfile") is None or value[len("localhost/"):] != s(profile.get("localhostProfile"))):
            errs.append(forbidden(ap.child("localhostProfile"), "apparmor profile in annotation and field must match"))
    return errs


def validate_pod_template_spec(template: Mapping[str, Any], path: Path, release: Release) -> list[FieldError]:
    """Upstream ``ValidatePodTemplateSpec`` (``template`` is the versioned ``PodTemplateSpec`` dict)."""
    meta = m(template.get("metadata"))
    errs: list[FieldError] = []
    labels, annotations = m(meta.get("labels")), m(meta.get("annotations"))
    if labels:
        errs.extend(validate_labels(labels, path.child("labels"), release))
    if annotations:
        errs.extend(validate_annotations(annotations, path.child("annotations"), release))
    spec = m(template.get("spec"))
    if annotations:
        errs.extend(validate_pod_specific_annotations(annotations, spec, path.child("annotations")))
    errs.extend(validate_pod_spec(spec, path.child("spec"), release))
    errs.extend(validate_seccomp_annotations_and_fields(annotations, spec, path.child("spec")))
    errs.extend(validate_app_armor_annotations_and_fields_match_on_create(annotations, spec, path.child("spec")))
    if lst(spec.get("ephemeralContainers")):
        errs.append(forbidden(path.child("spec", "ephemeralContainers"), "ephemeral containers not allowed in pod template"))
    return errs


# --- simple kinds ------------------------------------------------------------------------------------


def validate_service_account(obj: Mapping[str, Any], release: Release) -> list[FieldError]:
    """Upstream ``ValidateServiceAccount``."""
    return validate_object_meta_core(obj.get("metadata"), True, validate_service_account_name, _METADATA, release)


def _data_len(v: Any) -> int:
    return byte_len(v) if isinstance(v, str) else 0


def validate_config_map(obj: Mapping[str, Any], release: Release) -> list[FieldError]:
    """Upstream ``ValidateConfigMap`` (map keys in sorted order: Go iterates them at random)."""
    errs = validate_object_meta_core(obj.get("metadata"), True, validate_config_map_name, _METADATA, release)
    data, binary = m(obj.get("data")), m(obj.get("binaryData"))
    total = 0
    for key in sorted(data):
        p = Path("data").key(key)
        errs.extend(invalid(p, key, msg) for msg in is_config_map_key(key))
        if key in binary:
            errs.append(invalid(p, key, "duplicate of key present in binaryData"))
        total += _data_len(data[key])
    for key in sorted(binary):
        errs.extend(invalid(Path("binaryData").key(key), key, msg) for msg in is_config_map_key(key))
        total += len(_b64(binary[key]) or b"")
    if total > MAX_SECRET_SIZE:
        errs.append(too_long(Path(""), "", MAX_SECRET_SIZE))
    return errs


def _b64(v: Any) -> bytes | None:
    if not isinstance(v, str):
        return None
    try:
        return base64.b64decode(v, validate=True)
    except (binascii.Error, ValueError):
        return None


def secret_data(obj: Mapping[str, Any]) -> dict[str, bytes]:
    """The internal Secret's ``data``: base64-decoded ``data`` with ``stringData`` merged over it (upstream
    ``Convert_v1_Secret_To_core_Secret``)."""
    out: dict[str, bytes] = {}
    for k, v in m(obj.get("data")).items():
        out[k] = _b64(v) or b""
    for k, v in m(obj.get("stringData")).items():
        out[k] = s(v).encode("utf-8", "surrogatepass")
    return out


def _json_error(raw: bytes) -> str | None:
    """``json.Unmarshal(raw, &map[string]interface{}{})``'s error, roughly (the text of Go's error is kept for
    the common case of invalid JSON)."""
    text = raw.decode("utf-8", "replace")
    stripped = text.lstrip(" \t\r\n")
    if not stripped:
        return "unexpected end of JSON input"
    if stripped[0] not in '{["-0123456789tfn':
        return f"invalid character {_go_char(stripped[0])} looking for beginning of value"
    try:
        value = json.loads(text)
    except ValueError:
        # the texts of Go's later syntax errors depend on the scanner state; only the common ones are ported
        return "unexpected end of JSON input"
    if not isinstance(value, dict):
        kind = {list: "array", str: "string", bool: "bool", type(None): "null"}.get(type(value), "number")
        if kind == "null":
            return None
        return f"json: cannot unmarshal {kind} into Go value of type map[string]interface {{}}"
    return None


def _go_char(ch: str) -> str:
    """``encoding/json``'s ``quoteChar``: ``'x'``, with ``'\\''`` and ``'"'`` as Go writes them."""
    if ch == "'":
        return "'\\''"
    if ch == '"':
        return "'\"'"
    return "'" + ch + "'"


def validate_secret(obj: Mapping[str, Any], release: Release) -> list[FieldError]:
    """Upstream ``ValidateSecret`` (types and their required keys)."""
    meta = m(obj.get("metadata"))
    errs = validate_object_meta_core(meta, True, validate_secret_name, _METADATA, release)
    data = secret_data(obj)
    data_path = Path("data")
    total = 0
    for key in sorted(data):
        errs.extend(invalid(data_path.key(key), key, msg) for msg in is_config_map_key(key))
        total += len(data[key])
    if total > MAX_SECRET_SIZE:
        errs.append(too_long(data_path, "", MAX_SECRET_SIZE))
    stype = s(obj.get("type"))
    if stype == "kubernetes.io/service-account-token":
        if not s(m(meta.get("annotations")).get("kubernetes.io/service-account.name")):
            errs.append(required(Path("metadata", "annotations").key("kubernetes.io/service-account.name"), ""))
    elif stype in ("kubernetes.io/dockercfg", "kubernetes.io/dockerconfigjson"):
        key = ".dockercfg" if stype == "kubernetes.io/dockercfg" else ".dockerconfigjson"
        if key not in data:
            errs.append(required(data_path.key(key), ""))
        else:
            err = _json_error(data[key])
            if err is not None:
                errs.append(invalid(data_path.key(key), "<secret contents redacted>", err))
    elif stype == "kubernetes.io/basic-auth":
        if "username" not in data and "password" not in data:
            errs.append(required(data_path.key("username"), ""))
            errs.append(required(data_path.key("password"), ""))
    elif stype == "kubernetes.io/ssh-auth":
        if not data.get("ssh-privatekey"):
            errs.append(required(data_path.key("ssh-privatekey"), ""))
    elif stype == "kubernetes.io/tls":
        if "tls.crt" not in data:
            errs.append(required(data_path.key("tls.crt"), ""))
        if "tls.key" not in data:
            errs.append(required(data_path.key("tls.key"), ""))
    return errs


def validate_namespace(obj: Mapping[str, Any], release: Release) -> list[FieldError]:
    """Upstream ``ValidateNamespace``: the name is a DNS label; ``spec.finalizers`` are qualified names or
    standard ones (the path has no index, as upstream's)."""
    errs = validate_object_meta_core(obj.get("metadata"), False, validate_namespace_name, _METADATA, release)
    for fin in lst(m(obj.get("spec")).get("finalizers")):
        p = Path("spec", "finalizers")
        errs.extend(validate_finalizer_name(s(fin), p, release))
        errs.extend(validate_kube_finalizer_name(s(fin), p))
    return errs


# --- PersistentVolumeClaim ----------------------------------------------------------------------------

_ACCESS_MODES = ("ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod")


def validate_persistent_volume_claim_spec(spec: Mapping[str, Any], path: Path, release: Release) -> list[FieldError]:
    """Upstream ``ValidatePersistentVolumeClaimSpec`` for a create."""
    errs: list[FieldError] = []
    modes = lst(spec.get("accessModes"))
    if not modes:
        errs.append(required(path.child("accessModes"), "at least 1 access mode is required"))
    if isinstance(spec.get("selector"), dict):
        errs.extend(validate_label_selector(spec["selector"], path.child("selector"), release))
    found_rwop = found_other = False
    for mode in modes:
        if mode not in _ACCESS_MODES:
            errs.append(not_supported(path.child("accessModes"), mode, _ACCESS_MODES))
        if mode == "ReadWriteOncePod":
            found_rwop = True
        elif mode in _ACCESS_MODES:
            found_other = True
    if found_rwop and found_other:
        errs.append(forbidden(path.child("accessModes"), "may not use ReadWriteOncePod with other access modes"))
    resources = m(spec.get("resources"))
    storage = m(resources.get("requests")).get("storage")
    if storage is None:
        errs.append(required(path.child("resources").key("storage"), ""))
    else:
        q = _quantity(storage)
        if q is not None:
            p = path.child("resources").key("storage")
            if q.sign() <= 0:
                errs.append(invalid(p, _q_str(storage), "must be greater than zero"))
            else:
                errs.extend(_resource_quantity_value("storage", storage, q, p))
    scn = spec.get("storageClassName")
    if isinstance(scn, str) and scn:
        errs.extend(invalid(path.child("storageClassName"), scn, msg) for msg in name_is_dns_subdomain(scn, False))
    vm = spec.get("volumeMode")
    if isinstance(vm, str) and vm not in ("Block", "Filesystem"):
        errs.append(not_supported(path.child("volumeMode"), vm, ("Block", "Filesystem")))
    ds, dsr = spec.get("dataSource"), spec.get("dataSourceRef")
    if isinstance(ds, dict):
        errs.extend(_data_source(ds, path.child("dataSource")))
    if isinstance(dsr, dict):
        errs.extend(_data_source(dsr, path.child("dataSourceRef")))
        if s(dsr.get("namespace")):
            errs.extend(invalid(path.child("dataSourceRef", "namespace"), s(dsr["namespace"]), msg) for msg in validate_namespace_name(s(dsr["namespace"]), False))
    # the bad value is a *field.Path: json.Marshal writes {} (no exported fields); %#v holds a parent pointer
    path_value = go_typed(GoStruct({}), None)
    if isinstance(dsr, dict) and s(dsr.get("namespace")):
        if isinstance(ds, dict):
            errs.append(invalid(path, path_value, "may not be specified when dataSourceRef.namespace is specified"))
    elif isinstance(ds, dict) and isinstance(dsr, dict):
        same = (ds.get("apiGroup"), s(ds.get("kind")), s(ds.get("name"))) == (dsr.get("apiGroup"), s(dsr.get("kind")), s(dsr.get("name")))
        if not same:
            errs.append(invalid(path, path_value, "must match dataSourceRef"))
    vac = spec.get("volumeAttributesClassName")
    if isinstance(vac, str) and vac and release.minor >= VOLUME_ATTRIBUTES_CLASS_SINCE:
        errs.extend(invalid(path.child("volumeAttributesClassName"), vac, msg) for msg in name_is_dns_subdomain(vac, False))
    return errs


#: Gate VolumeAttributesClass: Beta off 1.31 … 1.33, GA on from 1.34 (kube_features.go, release-4.23); while it
#: is off ``EnableVolumeAttributesClass`` is false and a PVC's ``volumeAttributesClassName`` is dropped on create.
VOLUME_ATTRIBUTES_CLASS_SINCE = 34


def _data_source(ref: Mapping[str, Any], path: Path) -> list[FieldError]:
    """Upstream ``validateDataSource`` / ``validateDataSourceRef`` (the namespace is checked by the caller; the
    same at release-4.17 … 4.23)."""
    errs: list[FieldError] = []
    if not s(ref.get("name")):
        errs.append(required(path.child("name"), ""))
    kind = s(ref.get("kind"))
    if not kind:
        errs.append(required(path.child("kind"), ""))
    group = s(ref.get("apiGroup"))
    if not group and kind != "PersistentVolumeClaim":
        errs.append(invalid(path, kind, "must be 'PersistentVolumeClaim' when referencing the default apiGroup"))
    if group:
        errs.extend(invalid(path.child("apiGroup"), group, msg) for msg in is_dns1123_subdomain(group))
    return errs


def validate_persistent_volume_claim(obj: Mapping[str, Any], release: Release) -> list[FieldError]:
    """Upstream ``ValidatePersistentVolumeClaim``."""
    errs = validate_object_meta_core(obj.get("metadata"), True, validate_persistent_volume_name, _METADATA, release)
    errs.extend(validate_persistent_volume_claim_spec(m(obj.get("spec")), Path("spec"), release))
    return errs


def service_name_fn(release: Release) -> NameFn:
    """The Service name check of ``ValidateServiceCreate`` (:data:`CORE_CHANGES` ``service-name-dns-label``)."""
    if release.minor >= CORE_CHANGES["service-name-dns-label"]:
        return name_is_dns_label
    return name_is_dns1035_label


# --- Service ------------------------------------------------------------------------------------------

_SERVICE_TYPES = ("ClusterIP", "ExternalName", "LoadBalancer", "NodePort")
_IP_FAMILIES = ("IPv4", "IPv6")
_IP_FAMILY_POLICIES = ("PreferDualStack", "RequireDualStack", "SingleStack")
#: ``core.MaxClientIPServiceAffinitySeconds``.
MAX_CLIENT_IP_SERVICE_AFFINITY_SECONDS = 86400


#: Four dot-separated runs of 1 to 3 ASCII digits (``parse_ip_sloppy``'s IPv4 form, before the 255 bound).
_IPV4_SLOPPY_RE = re.compile("([0-9]{1,3})\\.([0-9]{1,3})\\.([0-9]{1,3})\\.([0-9]{1,3})")


def parse_ip_sloppy(value: str) -> int | None:
    """``netutils.ParseIPSloppy``: 4 (IPv4, leading zeros allowed), 6 (IPv6), or None."""
    dotted = _IPV4_SLOPPY_RE.fullmatch(value)
    if dotted is not None and all(int(p) <= 255 for p in dotted.groups()):
        return 4
    if ":" in value and "%" not in value:
        import ipaddress

        try:
            addr = ipaddress.IPv6Address(value)
        except ValueError:
            # Go also accepts a dotted IPv4 tail with leading zeros; rare, refused here
            return None
        return 4 if addr.ipv4_mapped is not None else 6
    return None


#: ``StrictIPCIDRValidation``'s default by release: Alpha off 1.33 … 1.35, Beta **on** from 1.36
#: (``pkg/features/kube_features.go`` at release-4.20 … 4.23); 1.30 … 1.32 have no strict checks.
STRICT_IP_CIDR_SINCE = 36


def strict_ip_cidr(release: Release | None) -> bool:
    """Whether ``IsValidIPForLegacyField`` / ``IsValidCIDRForLegacyField`` validate strictly at ``release``."""
    return release is not None and release.minor >= STRICT_IP_CIDR_SINCE


def _netip_parse_addr(value: str) -> Any:
    """Go's ``netip.ParseAddr``: the address, or None (IPv4 leading zeros and anything else it refuses)."""
    import ipaddress

    try:
        return ipaddress.ip_address(value)
    except ValueError:
        return None


def is_valid_ip_for_legacy_field(path: Path, value: str, release: Release | None = None) -> list[FieldError]:
    """Upstream ``IsValidIPForLegacyField`` (apimachinery ``validation/ip.go`` ``parseIP``), strict from 1.36
    (:data:`STRICT_IP_CIDR_SINCE`): no leading 0s, no IPv4-mapped IPv6 address. ``release`` None: not strict."""
    if parse_ip_sloppy(value) is None:
        return [invalid(path, value, "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)")]
    errs: list[FieldError] = []
    if strict_ip_cidr(release):
        addr = _netip_parse_addr(value)
        if addr is None:
            errs.append(invalid(path, value, "must not have leading 0s"))
        elif addr.version == 6 and addr.ipv4_mapped is not None:
            errs.append(invalid(path, value, "must not be an IPv4-mapped IPv6 address"))
    return errs


def is_valid_cidr_for_legacy_field(path: Path, value: str, release: Release | None = None) -> list[FieldError]:
    """Upstream ``IsValidCIDRForLegacyField`` (apimachinery ``validation/ip.go`` ``parseCIDR``), strict from 1.36
    (:data:`STRICT_IP_CIDR_SINCE`): ``netip.ParsePrefix`` must accept it, no IPv4-mapped IPv6 address, no bits set
    beyond the prefix length. ``release`` None: not strict."""
    import ipaddress

    if parse_cidr_sloppy(value) is None:
        return [invalid(path, value, "must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)")]
    if not strict_ip_cidr(release):
        return []
    ip, _, bits = value.partition("/")
    addr = _netip_parse_addr(ip)
    if addr is None or (len(bits) > 1 and bits[0] == "0"):
        return [invalid(path, value, "must not have leading 0s in IP or prefix length")]
    if addr.version == 6 and addr.ipv4_mapped is not None:
        return [invalid(path, value, "must not have an IPv4-mapped IPv6 address")]
    if ipaddress.ip_network(value, strict=False).network_address != addr:
        return [invalid(path, value, "must not have bits set beyond the prefix length")]
    return []


def parse_cidr_sloppy(value: str) -> tuple[int, int, int] | None:
    """``netutils.ParseCIDRSloppy``: (family, network address as int, prefix length), or None."""
    import ipaddress

    ip, sep, bits = value.partition("/")
    if not sep or not bits.isascii() or not bits.isdigit():
        return None
    fam = parse_ip_sloppy(ip)
    if fam is None:
        return None
    plen = int(bits)
    if ":" in ip:
        if plen > 128:
            return None
        net6 = ipaddress.IPv6Network((ipaddress.IPv6Address(ip), plen), strict=False)
        return 6, int(net6.network_address), plen
    if plen > 32:
        return None
    addr = 0
    for part in ip.split("."):
        addr = addr * 256 + int(part)
    mask = ((1 << 32) - 1) ^ ((1 << (32 - plen)) - 1)
    return 4, addr & mask, plen


def validate_endpoint_ip(ip: str, path: Path) -> list[FieldError]:
    """Upstream ``ValidateEndpointIP`` (for a Service's external IPs)."""
    import ipaddress

    try:
        if ":" in ip:
            addr: ipaddress.IPv4Address | ipaddress.IPv6Address = ipaddress.IPv6Address(ip)
            if isinstance(addr, ipaddress.IPv6Address) and addr.ipv4_mapped is not None:
                addr = addr.ipv4_mapped
        else:
            addr = ipaddress.IPv4Address(".".join(str(int(p)) for p in ip.split(".")))
    except ValueError:
        return [invalid(path, ip, "must be a valid IP address")]
    errs: list[FieldError] = []
    if addr.is_unspecified:
        errs.append(invalid(path, ip, f"may not be unspecified ({ip})"))
    if addr.is_loopback:
        errs.append(invalid(path, ip, "may not be in the loopback range (127.0.0.0/8, ::1/128)"))
    link_local = addr in ipaddress.ip_network("169.254.0.0/16") if addr.version == 4 else addr in ipaddress.ip_network("fe80::/10")
    if link_local:
        errs.append(invalid(path, ip, "may not be in the link-local range (169.254.0.0/16, fe80::/10)"))
    ll_multicast = addr in ipaddress.ip_network("224.0.0.0/24") if addr.version == 4 else addr in ipaddress.ip_network("ff02::/16")
    if ll_multicast:
        errs.append(invalid(path, ip, "may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)"))
    return errs


def is_headless_service(spec: Mapping[str, Any]) -> bool:
    """Upstream ``isHeadlessService``."""
    ips = lst(spec.get("clusterIPs"))
    return len(ips) == 1 and ips[0] == "None"


def validate_service_cluster_ips_related_fields(spec: Mapping[str, Any], release: Release | None = None) -> list[FieldError]:
    """Upstream ``ValidateServiceClusterIPsRelatedFields`` on create (``release``: strict cluster IPs from 1.36)."""
    if spec.get("type") == "ExternalName":
        return []
    errs: list[FieldError] = []
    has_invalid = False
    sp = Path("spec")
    ips_field, fam_field = sp.child("clusterIPs"), sp.child("ipFamilies")
    cluster_ip, cluster_ips = s(spec.get("clusterIP")), [s(x) for x in lst(spec.get("clusterIPs"))]
    if cluster_ip:
        if not cluster_ips:
            errs.append(required(ips_field, ""))
        elif cluster_ips[0] != cluster_ip:
            errs.append(invalid(ips_field, cluster_ips, "first value must match `clusterIP`"))
    elif cluster_ips:
        errs.append(invalid(ips_field, cluster_ips, "must be empty when `clusterIP` is not specified"))
    seen: set[str] = set()
    for index, fam in enumerate(lst(spec.get("ipFamilies"))):
        if fam not in _IP_FAMILIES:
            errs.append(not_supported(fam_field.index(index), fam, _IP_FAMILIES))
        if fam in seen:
            errs.append(duplicate(fam_field.index(index), fam))
        seen.add(fam)
    policy = spec.get("ipFamilyPolicy")
    if policy is not None and policy not in _IP_FAMILY_POLICIES:
        errs.append(not_supported(sp.child("ipFamilyPolicy"), policy, _IP_FAMILY_POLICIES))
    for index, ip in enumerate(cluster_ips):
        if index == 0 and ip == "None":
            if len(cluster_ips) > 1:
                has_invalid = True
                errs.append(invalid(ips_field, cluster_ips, "'None' must be the first and only value"))
            continue
        e = is_valid_ip_for_legacy_field(ips_field.index(index), ip, release)
        has_invalid = has_invalid or bool(e)
        errs.extend(e)
    if len(cluster_ips) > 2:
        errs.append(invalid(ips_field, cluster_ips, "may only hold up to 2 values"))
    if has_invalid:
        return errs
    if len(cluster_ips) > 1:
        fams = [parse_ip_sloppy(ip) for ip in cluster_ips]
        if not (4 in fams and 6 in fams):  # netutils.IsDualStackIPStrings: both families present, however many IPs
            errs.append(invalid(ips_field, cluster_ips, "may specify no more than one IP for each IP family"))
    families = lst(spec.get("ipFamilies"))
    if not is_headless_service(spec) and cluster_ips and families:
        for index, ip in enumerate(cluster_ips):
            if index > len(families) - 1:
                break
            v6 = parse_ip_sloppy(ip) == 6
            if families[index] == "IPv4" and v6:
                errs.append(invalid(ips_field.index(index), ip, f"expected an IPv4 value as indicated by `ipFamilies[{index}]`"))
            if families[index] == "IPv6" and not v6:
                errs.append(invalid(ips_field.index(index), ip, f"expected an IPv6 value as indicated by `ipFamilies[{index}]`"))
    return errs


def needs_health_check(spec: Mapping[str, Any]) -> bool:
    """Upstream ``service.NeedsHealthCheck``."""
    return spec.get("type") == "LoadBalancer" and spec.get("externalTrafficPolicy") == "Local"


def _externally_accessible(spec: Mapping[str, Any]) -> bool:
    t = spec.get("type")
    return t in ("LoadBalancer", "NodePort") or (t == "ClusterIP" and bool(lst(spec.get("externalIPs"))))


def validate_service_create(obj: Mapping[str, Any], release: Release) -> list[FieldError]:
    """Upstream ``ValidateServiceCreate`` → ``validateService``."""
    meta = m(obj.get("metadata"))
    errs = validate_object_meta_core(meta, True, service_name_fn(release), _METADATA, release)
    annotations = m(meta.get("annotations"))
    hints, mode = annotations.get("service.kubernetes.io/topology-aware-hints"), annotations.get("service.kubernetes.io/topology-mode")
    if isinstance(hints, str) and isinstance(mode, str) and hints != mode:
        # the same at release-4.17 … 4.23
        errs.append(invalid(Path("metadata", "annotations").key("service.kubernetes.io/topology-mode"), mode,
                            "must match annotations[service.kubernetes.io/topology-aware-hints] when both are specified"))
    spec = m(obj.get("spec"))
    sp = Path("spec")
    stype = s(spec.get("type"))
    ports = lst(spec.get("ports"))
    headless = is_headless_service(spec)
    if not ports and not headless and stype != "ExternalName":
        errs.append(required(sp.child("ports"), ""))
    if stype == "LoadBalancer" and headless:
        errs.append(invalid(sp.child("clusterIPs").index(0), "None", "may not be set to 'None' for LoadBalancer services"))
    elif stype == "NodePort" and headless:
        errs.append(invalid(sp.child("clusterIPs").index(0), "None", "may not be set to 'None' for NodePort services"))
    elif stype == "ExternalName":
        if lst(spec.get("clusterIPs")):
            errs.append(forbidden(sp.child("clusterIPs"), "may not be set for ExternalName services"))
        if lst(spec.get("ipFamilies")):
            errs.append(forbidden(sp.child("ipFamilies"), "may not be set for ExternalName services"))
        if spec.get("ipFamilyPolicy") is not None:
            errs.append(forbidden(sp.child("ipFamilyPolicy"), "may not be set for ExternalName services"))
        cname = s(spec.get("externalName"))
        cname = cname[:-1] if cname.endswith(".") else cname
        if cname:
            errs.extend(_dns1123_subdomain(cname, sp.child("externalName")))
        else:
            errs.append(required(sp.child("externalName"), ""))
    names: set[str] = set()
    for index, port in enumerate(ports):
        port = m(port)
        pp = sp.child("ports").index(index)
        pname = s(port.get("name"))
        if len(ports) > 1 and not pname:
            errs.append(required(pp.child("name"), ""))
        elif pname:
            problems = is_dns1123_label(pname)
            if problems:
                errs.extend(invalid(pp.child("name"), pname, msg) for msg in problems)
            if pname in names:
                errs.append(duplicate(pp.child("name"), pname))
            else:
                names.add(pname)
        pnum = i(port.get("port"))
        errs.extend(invalid(pp.child("port"), pnum, msg) for msg in is_valid_port_num(pnum))
        proto = s(port.get("protocol"))
        if not proto:
            errs.append(required(pp.child("protocol"), ""))
        elif proto not in _PORT_PROTOCOLS:
            errs.append(not_supported(pp.child("protocol"), proto, _PORT_PROTOCOLS))
        errs.extend(_validate_port_num_or_name(port.get("targetPort"), pp.child("targetPort")))
        ap = port.get("appProtocol")
        if isinstance(ap, str):
            errs.extend(_qualified_name(ap, pp.child("appProtocol"), release))
    selector = spec.get("selector")
    if isinstance(selector, dict) and selector:
        errs.extend(validate_labels(selector, sp.child("selector"), release))
    affinity = s(spec.get("sessionAffinity"))
    if not affinity:
        errs.append(required(sp.child("sessionAffinity"), ""))
    elif affinity not in ("ClientIP", "None"):
        errs.append(not_supported(sp.child("sessionAffinity"), affinity, ("ClientIP", "None")))
    sac = spec.get("sessionAffinityConfig")
    if affinity == "ClientIP":
        cfg_path = sp.child("sessionAffinityConfig")
        detail = "when session affinity type is ClientIP"
        if not isinstance(sac, dict):
            errs.append(required(cfg_path, detail))
        elif not isinstance(sac.get("clientIP"), dict):
            errs.append(required(cfg_path.child("clientIP"), detail))
        elif sac["clientIP"].get("timeoutSeconds") is None:
            errs.append(required(cfg_path.child("clientIP", "timeoutSeconds"), detail))
        else:
            t = i(sac["clientIP"].get("timeoutSeconds"))
            if t <= 0 or t > MAX_CLIENT_IP_SERVICE_AFFINITY_SECONDS:
                errs.append(invalid(cfg_path.child("clientIP", "timeoutSeconds"), t,
                                    f"must be greater than 0 and less than {MAX_CLIENT_IP_SERVICE_AFFINITY_SECONDS}"))
    elif affinity == "None" and sac is not None:
        errs.append(forbidden(sp.child("sessionAffinityConfig"), "must not be set when session affinity is None"))
    errs.extend(validate_service_cluster_ips_related_fields(spec, release))
    for index, ip in enumerate(lst(spec.get("externalIPs"))):
        ip_path = sp.child("externalIPs").index(index)
        ip_errs = is_valid_ip_for_legacy_field(ip_path, s(ip), release)
        errs.extend(ip_errs if ip_errs else validate_endpoint_ip(s(ip), ip_path))
    if not stype:
        errs.append(required(sp.child("type"), ""))
    elif stype not in _SERVICE_TYPES:
        errs.append(not_supported(sp.child("type"), stype, _SERVICE_TYPES))
    if stype == "ClusterIP":
        for index, port in enumerate(ports):
            if i(m(port).get("nodePort")) != 0:
                errs.append(forbidden(sp.child("ports").index(index).child("nodePort"), "may not be used when `type` is 'ClusterIP'"))
    node_ports: set[tuple[str, int]] = set()
    for index, port in enumerate(ports):
        port = m(port)
        np = i(port.get("nodePort"))
        if np == 0:
            continue
        key = (s(port.get("protocol")), np)
        if key in node_ports:
            errs.append(duplicate(sp.child("ports").index(index).child("nodePort"), np))
        node_ports.add(key)
    seen_ports: set[tuple[str, int]] = set()
    for index, port in enumerate(ports):
        port = m(port)
        key = (s(port.get("protocol")), i(port.get("port")))
        if key in seen_ports:
            errs.append(duplicate(sp.child("ports").index(index), {"port": key[1], "protocol": key[0], "targetPort": 0}))
        seen_ports.add(key)
    ranges = lst(spec.get("loadBalancerSourceRanges"))
    if ranges:
        fp = sp.child("LoadBalancerSourceRanges")
        if stype != "LoadBalancer":
            errs.append(forbidden(fp, "may only be used when `type` is 'LoadBalancer'"))
        for index, value in enumerate(ranges):
            value = s(value).strip()
            errs.extend(is_valid_cidr_for_legacy_field(fp.index(index), value, release))
    else:
        ann = m(meta.get("annotations")).get("service.beta.kubernetes.io/load-balancer-source-ranges")
        if isinstance(ann, str):
            fp = Path("metadata", "annotations").key("service.beta.kubernetes.io/load-balancer-source-ranges")
            if stype != "LoadBalancer":
                errs.append(forbidden(fp, "may only be used when `type` is 'LoadBalancer'"))
            if ann.strip():
                for value in ann.strip().split(","):
                    value = value.strip()
                    errs.extend(is_valid_cidr_for_legacy_field(fp, value, release))
    if spec.get("allocateLoadBalancerNodePorts") is not None and stype != "LoadBalancer":
        errs.append(forbidden(sp.child("allocateLoadBalancerNodePorts"), "may only be used when `type` is 'LoadBalancer'"))
    if stype == "LoadBalancer" and spec.get("allocateLoadBalancerNodePorts") is None:
        errs.append(required(Path("allocateLoadBalancerNodePorts"), ""))
    lbc = spec.get("loadBalancerClass")
    if isinstance(lbc, str):
        if stype == "LoadBalancer":
            errs.extend(_qualified_name(lbc, sp.child("loadBalancerClass"), release))
        else:
            errs.append(forbidden(sp.child("loadBalancerClass"), "may only be used when `type` is 'LoadBalancer'"))
    etp = s(spec.get("externalTrafficPolicy"))
    if not _externally_accessible(spec):
        if etp:
            errs.append(invalid(sp.child("externalTrafficPolicy"), etp, "may only be set for externally-accessible services"))
    elif not etp:
        errs.append(required(sp.child("externalTrafficPolicy"), ""))
    elif etp not in ("Cluster", "Local"):
        errs.append(not_supported(sp.child("externalTrafficPolicy"), etp, ("Cluster", "Local")))
    hcnp = i(spec.get("healthCheckNodePort"))
    if not needs_health_check(spec):
        if hcnp != 0:
            errs.append(invalid(sp.child("healthCheckNodePort"), hcnp, "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'"))
    elif hcnp == 0:
        errs.append(required(sp.child("healthCheckNodePort"), ""))
    else:
        errs.extend(invalid(sp.child("healthCheckNodePort"), hcnp, msg) for msg in is_valid_port_num(hcnp))
    itp = spec.get("internalTrafficPolicy")
    if itp is None:
        if stype in ("NodePort", "LoadBalancer", "ClusterIP"):
            errs.append(required(sp.child("internalTrafficPolicy"), ""))
    elif itp not in ("Cluster", "Local"):
        errs.append(not_supported(sp.child("internalTrafficPolicy"), itp, ("Cluster", "Local")))
    td = spec.get("trafficDistribution")
    if isinstance(td, str):
        # gate PreferSameTrafficDistribution: 1.33 Alpha false, 1.34 Beta true
        supported = ("PreferClose", "PreferSameZone", "PreferSameNode") if release.minor >= 34 else ("PreferClose",)
        if td not in supported:
            errs.append(not_supported(sp.child("trafficDistribution"), td, supported))
    return errs


def validate_pod_create(obj: Mapping[str, Any], release: Release) -> list[FieldError]:
    """Upstream ``ValidatePodCreate`` → ``validatePodMetadataAndSpec`` (pod-specific annotations, the
    ephemeral-PVC name clash and the service-account-token check are not ported: the ServiceAccount admission
    plugin fills ``serviceAccountName`` before validation runs)."""
    meta, spec = m(obj.get("metadata")), m(obj.get("spec"))
    path = Path("spec")
    errs = validate_object_meta_core(meta, True, validate_pod_name, _METADATA, release)
    errs.extend(validate_pod_specific_annotations(m(meta.get("annotations")), spec, Path("metadata", "annotations")))
    errs.extend(validate_pod_spec(spec, path, release))
    for kind in ("containers", "initContainers"):
        for index, ctr in enumerate(lst(spec.get(kind))):
            image = s(m(ctr).get("image"))
            if len(image) != len(image.strip(" \t\n\r\v\f")):
                errs.append(invalid(path.child(kind).index(index).child("image"), image, "must not have leading or trailing whitespace"))
    if lst(spec.get("ephemeralContainers")):
        errs.append(forbidden(path.child("ephemeralContainers"), "cannot be set on create"))
    if s(spec.get("nodeName")) and lst(spec.get("schedulingGates")):
        errs.append(forbidden(path.child("nodeName"), "cannot be set until all schedulingGates have been cleared"))
    annotations = m(meta.get("annotations"))
    errs.extend(validate_seccomp_annotations_and_fields(annotations, spec, path))
    errs.extend(validate_app_armor_annotations_and_fields_match_on_create(annotations, spec, path))
    return errs


def pod_qos_class(spec: Mapping[str, Any]) -> str:
    """``qos.ComputePodQOS`` from the containers' requests and limits (pod-level resources not ported)."""
    from fractions import Fraction

    requests: dict[str, Fraction] = {}
    limits: dict[str, Fraction] = {}
    guaranteed = True
    for ctr in [*lst(spec.get("containers")), *lst(spec.get("initContainers"))]:
        res = m(m(ctr).get("resources"))
        for name, raw in m(res.get("requests")).items():
            q = _quantity(raw)
            if name in ("cpu", "memory") and q is not None and q.sign() > 0:
                n, d = q.exact()
                requests[name] = requests.get(name, Fraction(0)) + Fraction(n, d)
        found = set()
        for name, raw in m(res.get("limits")).items():
            q = _quantity(raw)
            if name in ("cpu", "memory") and q is not None and q.sign() > 0:
                found.add(name)
                n, d = q.exact()
                limits[name] = limits.get(name, Fraction(0)) + Fraction(n, d)
        if not {"cpu", "memory"} <= found:
            guaranteed = False
    if not requests and not limits:
        return "BestEffort"
    if guaranteed and all(name in limits and limits[name] == value for name, value in requests.items()) and len(requests) == len(limits):
        return "Guaranteed"
    return "Burstable"
