"""The kube-apiserver's authorizer chain, as admission policies' ``authorizer`` sees it.

Mirrors kubernetes ``pkg/kubeapiserver/authorizer/reload.go`` (``newForConfig``: the ``system:masters``
superuser authorizer first, unless skipped, then the configured modes), k8s.io/apiserver
``pkg/authorization/authorizerfactory/builtin.go`` (``privilegedGroupAuthorizer``: Allow with an empty reason)
and ``pkg/authorization/union/union.go`` (the first Allow or Deny wins; otherwise NoOpinion with the reasons
joined by newlines), at openshift/microshift release-4.17 … release-4.23 (Kubernetes 1.30 … 1.36, unchanged).

The modes modelled are ``RBAC`` over the given objects plus the bootstrap policy's default roles
(:mod:`crdtool.core.auth.bootstrappolicy`). Not modelled: the Node authorizer (kubelets' access), webhook
authorizers, ABAC, ``AlwaysAllow``/``AlwaysDeny``, structured authorization configuration (CEL match
conditions of webhooks). A check the apiserver would send to a webhook is here RBAC's answer alone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Callable

from crdtool.core.auth.bootstrappolicy import cluster_role_bindings, cluster_roles
from crdtool.core.auth.rbac import ALLOW, NO_OPINION, RBACAuthorizer, RuleSet

__all__ = ["ClusterAuthorizer", "SYSTEM_PRIVILEGED_GROUP", "privileged_group_authorize", "union"]

#: ``user.SystemPrivilegedGroup``.
SYSTEM_PRIVILEGED_GROUP = "system:masters"

Decision = tuple[str, str, "str | None"]
AuthorizeFn = Callable[[Mapping[str, Any]], Decision]


def privileged_group_authorize(attributes: Mapping[str, Any],
                               groups: tuple[str, ...] = (SYSTEM_PRIVILEGED_GROUP,)) -> Decision:
    """``privilegedGroupAuthorizer.Authorize``: Allow (reason ``""``) for a member of ``groups``, else NoOpinion;
    no user: NoOpinion, reason ``Error``, error ``no user on request.``."""
    user = attributes.get("user")
    if user is None:
        return NO_OPINION, "Error", "no user on request."
    for g in user.get("groups") or []:
        if g in groups:
            return ALLOW, "", None
    return NO_OPINION, "", None


def union(*authorizers: AuthorizeFn) -> AuthorizeFn:
    """``union.New``: the first Allow or Deny (with its reason and error); else NoOpinion, the non-empty reasons
    joined by ``\\n`` and the errors aggregated (``[a, b]``; None without any)."""

    def authorize(attributes: Mapping[str, Any]) -> Decision:
        errors: list[str] = []
        reasons: list[str] = []
        for a in authorizers:
            decision, reason, err = a(attributes)
            if err is not None:
                errors.append(err)
            if reason:
                reasons.append(reason)
            if decision != NO_OPINION:
                return decision, reason, err
        if not errors:
            return NO_OPINION, "\n".join(reasons), None
        seen = list(dict.fromkeys(errors))
        return NO_OPINION, "\n".join(reasons), seen[0] if len(seen) == 1 else "[" + ", ".join(seen) + "]"

    return authorize


class ClusterAuthorizer:
    """The apiserver's authorizer for a cluster holding ``objects``' RBAC objects: ``system:masters``, then RBAC
    over the bootstrap roles and bindings and the objects (an object replaces a bootstrap one of the same kind and
    name). Callable: attributes in (see :data:`crdtool.core.kubecel.authz.Authorize`), (decision, reason, error)
    out; decisions are memoised by request, as the admission plugins' ``NewCachingAuthorizer`` does. The rule set is
    built on the first check, so a request no policy asks about costs nothing.
    """

    def __init__(self, objects: Sequence[Mapping[str, Any]], bootstrap: bool = True) -> None:
        self._objects = list(objects)
        self._bootstrap = bootstrap
        self._rbac: RBACAuthorizer | None = None
        self._cache: dict[str, Decision] = {}

    @property
    def rbac(self) -> RBACAuthorizer:
        """The RBAC authorizer, its rule set built (and ClusterRoles aggregated) on first use."""
        if self._rbac is None:
            defaults: list[Mapping[str, Any]] = [*cluster_roles(), *cluster_role_bindings()] if self._bootstrap else []
            self._rbac = RBACAuthorizer(RuleSet.from_objects([*defaults, *self._objects]))
        return self._rbac

    def __call__(self, attributes: Mapping[str, Any]) -> Decision:
        import json

        key = json.dumps(attributes, sort_keys=True, default=str)
        found = self._cache.get(key)
        if found is None:
            found = self._cache[key] = union(privileged_group_authorize, self.rbac.authorize)(attributes)
        return found
