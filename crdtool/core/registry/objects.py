"""One entry point for any object's create: a custom resource against its CRD, or a built-in kind."""

from __future__ import annotations

from typing import Any

from crdtool.core.customresource import PreparedCrd
from crdtool.core.customresource import validate_object as validate_custom_resource
from crdtool.core.errors import FieldError, Path, invalid
from crdtool.core.registry import create as builtin

__all__ = ["validate_object"]


def validate_object(
    obj: dict[str, Any],
    crd: dict[str, Any] | PreparedCrd | None = None,
    version: str | None = None,
    *,
    kubernetes_version: str | None = None,
) -> list[FieldError]:
    """Why the apiserver of ``kubernetes_version`` would refuse to create ``obj`` (empty: it would accept it).

    With ``crd`` (a manifest dict or a :class:`PreparedCrd`): the custom resource's create path
    (:func:`crdtool.core.customresource.validate_object`, same arguments, same errors raised). Without: ``obj``
    is a built-in kind's object, judged by :func:`crdtool.core.registry.create.create_builtin` (strict decoding,
    defaults, the strategy's validation, ObjectMeta); a kind the release does not serve is an ``apiVersion``
    error with kubectl's words (``no matches for kind "CronJob" in version "batch/v1beta1"``), an unknown
    kind of a built-in group-version a ``kind`` error. Raises ``ValueError`` for an object no Kubernetes
    release defines (a custom resource: give its CRD) or an unknown Kubernetes version.
    """
    if crd is not None:
        return validate_custom_resource(obj, crd, version, kubernetes_version=kubernetes_version)
    verdict = builtin.create_builtin(obj, kubernetes_version)
    if verdict.outcome == builtin.NOT_A_KIND:
        raise ValueError(f"{obj.get('kind')!r} of {obj.get('apiVersion')!r} is not a built-in kind of Kubernetes: "
                         "validate a custom resource with its CRD")
    if verdict.outcome == builtin.NOT_SERVED:
        hint = f" ({verdict.warnings[0]})" if verdict.warnings else ""
        return [invalid(Path("apiVersion"), obj.get("apiVersion"), verdict.status["message"] + hint)]
    if verdict.outcome == builtin.UNKNOWN_KIND:
        return [invalid(Path("kind"), obj.get("kind"), verdict.status["message"])]
    return list(verdict.errors)
