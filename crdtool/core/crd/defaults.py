"""Defaulting of a CRD as the apiserver applies it when decoding a request.

Mirrors ``staging/src/k8s.io/apiextensions-apiserver/pkg/apis/apiextensions``:

* ``v1/defaults.go`` (``SetDefaults_CustomResourceDefinition``,
  ``SetDefaults_CustomResourceDefinitionSpec``, ``SetDefaults_ServiceReference``)
  and ``v1/zz_generated.defaults.go`` (``SetObjectDefaults_CustomResourceDefinition``);
* ``v1beta1/defaults.go`` (the same functions for v1beta1, which also default
  ``scope``, ``version``/``versions``, ``conversionReviewVersions`` and
  ``preserveUnknownFields``) and ``v1beta1/zz_generated.defaults.go``.

Input and output are decoded CRD dicts (see :mod:`crdtool.core.crd.decode`).
The functions are pure: they build new dicts along the paths they change and
share every untouched sub-object with the input, so treat both as immutable.
"""

from __future__ import annotations

from typing import Any

from crdtool.core.crd.types import V1, V1BETA1

#: ``NoneConverter``.
NONE_CONVERTER = "None"
#: ``WebhookConverter``.
WEBHOOK_CONVERTER = "Webhook"
#: ``NamespaceScoped``.
NAMESPACE_SCOPED = "Namespaced"
#: the port ``SetDefaults_ServiceReference`` sets.
DEFAULT_WEBHOOK_PORT = 443


def default_crd(crd: dict[str, Any]) -> dict[str, Any]:
    """Apply the defaults of the CRD's own ``apiVersion`` (v1 or v1beta1).

    Args:
        crd: a decoded CRD dict; never mutated.

    Returns:
        a new dict with the defaults set; for any other ``apiVersion`` an
        unchanged shallow copy. Never raises.

    Mirrors ``SetObjectDefaults_CustomResourceDefinition`` of
    ``apiextensions/v1`` and ``apiextensions/v1beta1``.
    """
    if not isinstance(crd, dict):
        return crd
    api_version = crd.get("apiVersion")
    if api_version == V1:
        return default_v1(crd)
    if api_version == V1BETA1:
        return default_v1beta1(crd)
    return dict(crd)


def default_v1(crd: dict[str, Any]) -> dict[str, Any]:
    """v1 defaults: ``singular``, ``listKind``, ``conversion.strategy``, webhook port, ``storedVersions``.

    Mirrors v1 ``SetObjectDefaults_CustomResourceDefinition`` →
    ``SetDefaults_ServiceReference`` (port 443 on
    ``spec.conversion.webhook.clientConfig.service``),
    ``SetDefaults_CustomResourceDefinitionSpec`` and
    ``SetDefaults_CustomResourceDefinition``.
    """
    out = dict(crd)
    spec = _dict(crd.get("spec"))
    _default_names(spec)
    if spec.get("conversion") is None:
        spec["conversion"] = {"strategy": NONE_CONVERTER}
    spec["conversion"] = _default_port(spec["conversion"], ("webhook", "clientConfig", "service"))
    out["spec"] = spec
    return _default_stored_versions(out, spec)


def default_v1beta1(crd: dict[str, Any]) -> dict[str, Any]:
    """v1beta1 defaults: the v1 ones plus ``scope``, ``version``/``versions``,
    ``conversionReviewVersions`` (``["v1beta1"]`` for a webhook) and
    ``preserveUnknownFields: true``.

    Mirrors v1beta1 ``SetObjectDefaults_CustomResourceDefinition`` →
    ``SetDefaults_CustomResourceDefinition``,
    ``SetDefaults_CustomResourceDefinitionSpec`` and ``SetDefaults_ServiceReference``
    (port 443 on ``spec.conversion.webhookClientConfig.service``).
    """
    out = dict(crd)
    spec = _dict(crd.get("spec"))
    if not spec.get("scope"):
        spec["scope"] = NAMESPACE_SCOPED
    _default_names(spec)
    versions = _list(spec.get("versions"))
    version = _str(spec.get("version"))
    if not versions and version:
        # No list of versions: make one from the deprecated version field.
        spec["versions"] = versions = [{"name": version, "storage": True, "served": True}]
    if not version and versions:
        # For backward compatibility version is the first item of versions.
        first = _str(_dict(versions[0]).get("name"))
        if first:
            spec["version"] = first
    conversion = spec.get("conversion")
    if conversion is None:
        conversion = {"strategy": NONE_CONVERTER}
    if not isinstance(conversion, dict):
        # Not a decoded CRD: leave what cannot be a conversion struct alone.
        pass
    elif conversion.get("strategy") == WEBHOOK_CONVERTER and not conversion.get("conversionReviewVersions"):
        conversion = dict(conversion)
        conversion["conversionReviewVersions"] = ["v1beta1"]
    spec["conversion"] = _default_port(conversion, ("webhookClientConfig", "service"))
    if spec.get("preserveUnknownFields") is None:
        spec["preserveUnknownFields"] = True
    out["spec"] = spec
    return _default_stored_versions(out, spec)


def go_to_lower(s: str) -> str:
    """Go ``strings.ToLower``: rune by rune ``unicode.ToLower``, no context rules."""
    if s.isascii():
        return s.lower()
    # Python's lower() has the final-sigma rule and maps U+0130 to two runes; Go does neither.
    return "".join("i" if ch == "\u0130" else ch.lower() for ch in s)


def _dict(value: Any) -> dict[str, Any]:
    """A shallow copy of a dict, or a new empty dict for a missing (zero) struct."""
    return dict(value) if isinstance(value, dict) else {}


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _str(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _default_names(spec: dict[str, Any]) -> None:
    """``names.singular`` := lowercase kind, ``names.listKind`` := kind + "List" (in place on ``spec``)."""
    names = spec.get("names")
    names = dict(names) if isinstance(names, dict) else {}
    kind = _str(names.get("kind"))
    changed = False
    if not names.get("singular"):
        singular = go_to_lower(kind)
        if singular:
            names["singular"] = singular
            changed = True
    if not names.get("listKind") and kind:
        names["listKind"] = kind + "List"
        changed = True
    if changed:
        spec["names"] = names


def _default_port(conversion: dict[str, Any], chain: tuple[str, ...]) -> dict[str, Any]:
    """Copy ``conversion`` with ``port: 443`` on the service at ``chain`` if it has none."""
    nodes = [conversion]
    for key in chain:
        nxt = nodes[-1].get(key) if isinstance(nodes[-1], dict) else None
        if not isinstance(nxt, dict):
            return conversion
        nodes.append(nxt)
    if nodes[-1].get("port") is not None:
        return conversion
    new = dict(nodes[-1])
    new["port"] = DEFAULT_WEBHOOK_PORT
    for parent, key in zip(reversed(nodes[:-1]), reversed(chain)):
        copied = dict(parent)
        copied[key] = new
        new = copied
    return new


def _default_stored_versions(crd: dict[str, Any], spec: dict[str, Any]) -> dict[str, Any]:
    """``status.storedVersions`` := [the first storage version] when empty."""
    status = crd.get("status")
    if isinstance(status, dict) and status.get("storedVersions"):
        return crd
    for version in _list(spec.get("versions")):
        if isinstance(version, dict) and version.get("storage"):
            new_status = _dict(status)
            new_status["storedVersions"] = [version.get("name") or ""]
            crd["status"] = new_status
            break
    return crd
