"""Native validation of apiregistration.k8s.io/v1: APIService.

Mirrors k8s.io/kube-aggregator ``pkg/apis/apiregistration/validation/validation.go`` (``ValidateAPIService``;
openshift/microshift ``release-4.17`` … ``release-4.23``: only the path-segment helper's package moved).
The metadata check is apimachinery's ``ValidateObjectMeta`` (no kube finalizer-name rule).
"""

from __future__ import annotations

import base64
import binascii
from typing import Any, Mapping

from crdtool.core.apis._util import i, m, s
from crdtool.core.errors import FieldError, Path, invalid, required
from crdtool.core.objectmeta import validate_object_meta
from crdtool.core.releases import Release
from crdtool.core.validation_util import is_dns1035_label, is_dns1123_subdomain, is_path_segment_name, is_valid_port_num

#: ``field.NewPath("metadata")``, built once (a Path is an immutable str).
_METADATA = Path("metadata")


def _ca_bundle_len(v: Any) -> int:
    if not isinstance(v, str) or not v:
        return 0
    try:
        return len(base64.b64decode(v, validate=True))
    except (binascii.Error, ValueError):
        return len(v)


def validate_api_service(obj: Mapping[str, Any], release: Release) -> list[FieldError]:
    """Upstream ``ValidateAPIService``."""
    spec = m(obj.get("spec"))
    group, version = s(spec.get("group")), s(spec.get("version"))
    required_name = version + "." + group

    def name_fn(name: str, prefix: bool) -> list[str]:
        minimal = is_path_segment_name(name)
        if minimal:
            return minimal
        if name != required_name:
            return [f'must be `spec.version+"."+spec.group`: "{required_name}"']
        return []

    errs = validate_object_meta(m(obj.get("metadata")), False, name_fn, _METADATA, release)
    sp = Path("spec")
    if not group and version != "v1":
        errs.append(required(sp.child("group"), "only v1 may have an empty group and it better be legacy kube"))
    if group:
        errs.extend(invalid(sp.child("group"), group, msg) for msg in is_dns1123_subdomain(group))
    errs.extend(invalid(sp.child("version"), version, msg) for msg in is_dns1035_label(version))
    gpm, vp = i(spec.get("groupPriorityMinimum")), i(spec.get("versionPriority"))
    if gpm <= 0 or gpm > 20000:
        errs.append(invalid(sp.child("groupPriorityMinimum"), gpm, "must be positive and less than 20000"))
    if vp <= 0 or vp > 1000:
        errs.append(invalid(sp.child("versionPriority"), vp, "must be positive and less than 1000"))
    ca_len = _ca_bundle_len(spec.get("caBundle"))
    insecure = spec.get("insecureSkipTLSVerify") is True
    svc = spec.get("service")
    if not isinstance(svc, dict):
        if ca_len:
            errs.append(invalid(sp.child("caBundle"), f"{ca_len} bytes", "local APIServices may not have a caBundle"))
        if insecure:
            errs.append(invalid(sp.child("insecureSkipTLSVerify"), True, "local APIServices may not have insecureSkipTLSVerify"))
        return errs
    if not s(svc.get("namespace")):
        errs.append(required(sp.child("service", "namespace"), ""))
    if not s(svc.get("name")):
        errs.append(required(sp.child("service", "name"), ""))
    port = i(svc.get("port"))
    msgs = is_valid_port_num(port)
    if msgs:
        errs.append(invalid(sp.child("service", "port"), port, "port is not valid: " + ", ".join(msgs)))
    if insecure and ca_len > 0:
        errs.append(invalid(sp.child("insecureSkipTLSVerify"), True, "may not be true if caBundle is present"))
    return errs
