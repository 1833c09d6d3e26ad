"""A request's ``admission.Attributes`` (``k8s.io/apiserver/pkg/admission/attributes.go``) and the
``AdmissionRequest`` policies see as ``request`` (``pkg/admission/plugin/cel/condition.go``
``CreateAdmissionRequest``)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

__all__ = ["Attributes", "GVK", "GVR"]

#: (group, version, kind) and (group, version, resource).
GVK = tuple[str, str, str]
GVR = tuple[str, str, str]


@dataclass(frozen=True)
class Attributes:
    """One admission request.

    ``operation``: ``CREATE``, ``UPDATE``, ``DELETE`` or ``CONNECT``; ``kind``/``resource``: what was
    requested; ``object``/``old_object``: plain JSON objects or None; ``user_info``: ``username``, ``uid``,
    ``groups``, ``extra`` as in ``authentication/v1.UserInfo``; ``options``: the operation's options object.
    ``annotations``: audit annotations added while admitting (``AddAnnotation``). ``authorizer``: the
    authorizer the policy plugins were given (``SetAuthorizer``; a :class:`crdtool.core.kubecel.authz.Binder`),
    carried with the request so that every evaluation binds ``authorizer`` and ``authorizer.requestResource``
    (``activation.go``); None: the variables are unbound, as for a plugin without one.
    """

    operation: str
    kind: GVK
    resource: GVR
    name: str = ""
    namespace: str = ""
    subresource: str = ""
    object: dict[str, Any] | None = None
    old_object: dict[str, Any] | None = None
    user_info: dict[str, Any] = field(default_factory=dict)
    dry_run: bool = False
    options: Any = None
    uid: str = ""
    authorizer: Any = field(default=None, compare=False, repr=False)

    def with_object(self, obj: dict[str, Any] | None) -> Attributes:
        return replace(self, object=obj)

    def versioned(self, kind: GVK) -> Attributes:
        """``admission.NewVersionedAttributes`` for a CRD whose versions convert with strategy ``None``: the
        objects at ``kind``'s version (only ``apiVersion`` changes). Itself when ``kind`` is the request's."""
        if kind == self.kind or not kind[1]:
            return self
        api_version = f"{kind[0]}/{kind[1]}" if kind[0] else kind[1]

        def convert(obj: dict[str, Any] | None) -> dict[str, Any] | None:
            return None if obj is None else {**obj, "apiVersion": api_version}

        return replace(self, object=convert(self.object), old_object=convert(self.old_object))

    def admission_request(self, match_resource: GVR, match_kind: GVK) -> dict[str, Any]:
        """``CreateAdmissionRequest`` as ``runtime.DefaultUnstructuredConverter`` renders it (omitempty fields
        dropped; ``options`` a ``RawExtension`` with only ``Object`` set, which marshals as that object, or null)."""
        user: dict[str, Any] = {}
        for key in ("username", "uid"):
            if self.user_info.get(key):
                user[key] = self.user_info[key]
        if self.user_info.get("groups"):
            user["groups"] = list(self.user_info["groups"])
        user["extra"] = {k: list(v) for k, v in (self.user_info.get("extra") or {}).items()}
        if not user["extra"]:
            del user["extra"]
        req: dict[str, Any] = {
            "uid": "",
            "kind": {"group": match_kind[0], "version": match_kind[1], "kind": match_kind[2]},
            "resource": {"group": match_resource[0], "version": match_resource[1], "resource": match_resource[2]},
        }
        if self.subresource:
            req["subResource"] = self.subresource
        req["requestKind"] = {"group": self.kind[0], "version": self.kind[1], "kind": self.kind[2]}
        req["requestResource"] = {"group": self.resource[0], "version": self.resource[1], "resource": self.resource[2]}
        if self.subresource:
            req["requestSubResource"] = self.subresource
        if self.name:
            req["name"] = self.name
        if self.namespace:
            req["namespace"] = self.namespace
        req["operation"] = self.operation
        req["userInfo"] = user
        req["dryRun"] = self.dry_run
        # RawExtension{Object: options}.MarshalJSON: the options object's JSON, null without one
        req["options"] = dict(self.options) if isinstance(self.options, dict) else None
        return req
