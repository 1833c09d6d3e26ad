"""The create path of a built-in kind, as kube-apiserver runs ``POST`` for it.

1. **Serving** (:mod:`crdtool.core.builtin.serving`): a kind the release does not serve by default never gets
   to the apiserver: kubectl's RESTMapper answers ``no matches for kind "CronJob" in version
   "batch/v1beta1"`` (here a 404 ``NotFound`` status, with the replacement in a warning). A served
   deprecated version adds the apiserver's deprecation warning to whatever follows.
2. **Decoding** (``pkg/endpoints/handlers/create.go``: ``decoder.Decode``, ``transformDecodeError``):
   :func:`crdtool.core.builtin.decode.decode_builtin`; a wrong type, or with ``fieldValidation=Strict`` an
   unknown or duplicate field, is a 400 ``BadRequest``: ``Deployment in version "v1" cannot be handled as a
   Deployment: strict decoding error: unknown field "spec.foo"``. With ``Warn`` the unknown fields are
   warnings (``unknown field "spec.foo"``), with ``Ignore`` nothing.
3. **Defaulting** (the codec's defaulter, ``SetObjectDefaults_<Kind>``): the group's
   ``crdtool.core.apis.<group>.defaults.set_object_defaults`` (:mod:`crdtool.core.registry.strategies`).
4. **BeforeCreate** (``k8s.io/apiserver/pkg/registry/rest/create.go``): namespace and generated name
   (:func:`crdtool.core.registry.generic.before_create`), the strategy's ``PrepareForCreate`` and
   ``Validate`` (or, without one, ``ValidateObjectMeta`` with the kind's name function), then
   ``ValidateObjectMetaAccessor`` with path-segment names, then ``WarningsOnCreate``. Errors are a 422
   ``Invalid`` status (``errors.NewInvalid``).
5. **Storage** (``etcd3`` ``store.Create``): ``metadata.resourceVersion`` must not be set (500).

Not modelled: admission (webhooks, policies), server-set metadata (uid, creationTimestamp, managedFields),
conversion to the internal version (the strategies work on the versioned object).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from crdtool.core import apistatus
from crdtool.core.builtin import catalog, serving
from crdtool.core.builtin.catalog import KindInfo
from crdtool.core.builtin.decode import decode_builtin
from crdtool.core.errors import UNKNOWN_FIELD, DecodeError, FieldError, duplicate_field, errors_at_release
from crdtool.core.registry import generic, strategies
from crdtool.core.releases import Release, resolve_release
from crdtool.core.storage import resource_version_set_on_create

__all__ = ["FIELD_VALIDATION_DIRECTIVES", "BuiltinVerdict", "create_builtin", "default_builtin", "is_builtin"]

FIELD_VALIDATION_DIRECTIVES = ("Strict", "Warn", "Ignore")

#: :attr:`BuiltinVerdict.outcome` values.
CREATED, INVALID, BAD_REQUEST, NOT_SERVED, UNKNOWN_KIND, NOT_A_KIND = (
    "created", "invalid", "bad-request", "not-served", "unknown-kind", "not-a-kind")


@dataclass(frozen=True)
class BuiltinVerdict:
    """What kubectl gets for creating a built-in object.

    Attributes:
        status: the ``metav1.Status`` dict (``status`` Success/Failure, ``code``, ``reason``, ``message``,
            ``details.causes``; see :mod:`crdtool.core.apistatus`).
        errors: the findings: decoding errors (:class:`~crdtool.core.errors.DecodeError`), validation errors
            in upstream order, or the storage's; empty when created.
        warnings: what kubectl prints as ``Warning:`` (deprecation, unknown fields under ``Warn``, the
            strategy's ``WarningsOnCreate``).
        object: the object as stored (decoded, defaulted, prepared for create), or None when decoding failed
            or the kind is not served.
        kind_info: the catalog's entry, None for a kind no release defines.
        outcome: ``created``, ``invalid``, ``bad-request``, ``not-served``, ``unknown-kind`` (a kind no release
            defines in a group-version the release has), ``not-a-kind`` (an apiVersion no release has: a
            custom resource, or a typo).
    """

    status: dict[str, Any]
    errors: list[FieldError] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    object: dict[str, Any] | None = None
    kind_info: KindInfo | None = None
    outcome: str = CREATED

    @property
    def ok(self) -> bool:
        """Whether the create succeeds."""
        return self.outcome == CREATED


def is_builtin(api_version: Any, kind: Any, release: str | int | Release | None = None) -> bool:
    """Whether some Kubernetes release defines ``kind`` in ``api_version`` (served or not at ``release``)."""
    if not isinstance(api_version, str) or not isinstance(kind, str):
        return False
    return catalog.kind_info(resolve_release(release), api_version, kind) is not None


def _known_group_version(release: Release, api_version: str) -> bool:
    group, _, version = api_version.rpartition("/")
    gv = f"{group}/{version}" if group else version
    return any(k.api_version == gv for k in catalog.kinds(release))


def create_builtin(
    obj: dict[str, Any],
    release: str | int | Release | None = None,
    *,
    field_validation: str = "Strict",
    duplicate_fields: Sequence[str] = (),
) -> BuiltinVerdict:
    """Run ``obj`` (a built-in kind's object, plain JSON data; not mutated) through ``release``'s create path.

    ``release``: ``"1.33"``, ``33`` or a :class:`Release` (None: the newest). ``field_validation``: ``Strict``
    (kubectl's default), ``Warn`` or ``Ignore``. ``duplicate_fields``: paths of keys the caller's parser saw
    twice (strict ``duplicate field`` errors). Raises ``ValueError`` for an unknown directive or release.
    Never raises for a bad object: see :class:`BuiltinVerdict`.
    """
    if field_validation not in FIELD_VALIDATION_DIRECTIVES:
        raise ValueError(f"field_validation must be one of {', '.join(FIELD_VALIDATION_DIRECTIVES)}")
    rel = resolve_release(release)
    api_version, kind = obj.get("apiVersion"), obj.get("kind")
    if not isinstance(api_version, str) or not isinstance(kind, str):
        return BuiltinVerdict(apistatus.bad_request("Object 'Kind' is missing" if not isinstance(kind, str)
                                                    else "Object 'apiVersion' is missing"), outcome=NOT_A_KIND)
    info = catalog.kind_info(rel, api_version, kind)
    if info is None or not info.served:
        message = serving.not_served_message(kind, api_version)
        warnings: list[str] = []
        if info is not None and info.removed is not None:
            removed = f"{info.api_version} {kind} was removed in v{info.removed[0]}.{info.removed[1]}"
            warnings.append(f"{removed}; use {info.replacement_api_version}" if info.replacement else removed)
        elif info is not None:
            warnings.append(f"{info.api_version} is not served by default: enable it with "
                            f"kube-apiserver --runtime-config={info.api_version}=true")
        outcome = NOT_SERVED if info is not None else (
            UNKNOWN_KIND if _known_group_version(rel, api_version) else NOT_A_KIND)
        return BuiltinVerdict(apistatus.not_found(message), [], warnings, None, info, outcome)
    return _create(obj, info, rel, field_validation, duplicate_fields)


def _create(
    obj: dict[str, Any], info: KindInfo, release: Release, field_validation: str, duplicate_fields: Sequence[str]
) -> BuiltinVerdict:
    warnings: list[str] = [info.warning] if info.warning else []
    decoded, decode_errors = decode_builtin(obj, info, release)
    if decode_errors and decode_errors[0].type != UNKNOWN_FIELD:
        return _bad_request(info, str(decode_errors[0]), decode_errors, warnings)
    strict: list[DecodeError] = (
        [*decode_errors, *(duplicate_field(p) for p in duplicate_fields)] if duplicate_fields else decode_errors)
    if strict and field_validation == "Strict":
        text = "strict decoding error: " + ", ".join(str(e) for e in strict)
        return _bad_request(info, text, strict, warnings)
    if strict and field_validation == "Warn":
        warnings.extend(str(e) for e in strict)

    stored = decoded  # decode_builtin's own new dict: ours to default and prepare
    defaults = strategies.defaults_module(info.group)
    set_defaults = getattr(defaults, "set_object_defaults", None)
    if set_defaults is not None:
        set_defaults(stored, info.version, info.kind, release)
    found, added = _before_create(stored, info, release)
    warnings.extend(added)
    errors = errors_at_release(found, release) if found else found
    if not errors:
        errors = resource_version_set_on_create(stored)
        if errors:
            return BuiltinVerdict(apistatus.internal_error(errors[0].detail), errors, warnings, stored, info, INVALID)
        return BuiltinVerdict(apistatus.created(), [], warnings, stored, info, CREATED)
    name = (stored.get("metadata") or {}).get("name") or ""
    status = apistatus.invalid(info.group, info.kind, name if isinstance(name, str) else "", errors)
    return BuiltinVerdict(status, errors, warnings, stored, info, INVALID)


def default_builtin(obj: dict[str, Any], release: str | int | Release | None = None) -> tuple[dict[str, Any] | None, str]:
    """``obj`` as the apiserver of ``release`` decodes and defaults it (``crdtool default`` for built-in kinds).

    Out: ``(object, "")``: decoded (unknown fields dropped, as without strict field validation) and defaulted by
    the group's ``SetObjectDefaults_<Kind>``; ``(None, "")`` for a kind the release does not serve (passed
    through by the caller); ``(None, message)`` when decoding fails (the BadRequest's message). ``obj`` is not
    mutated.
    """
    rel = resolve_release(release)
    api_version, kind = obj.get("apiVersion"), obj.get("kind")
    if not isinstance(api_version, str) or not isinstance(kind, str):
        return None, ""
    info = catalog.kind_info(rel, api_version, kind)
    if info is None or not info.served:
        return None, ""
    decoded, errors = decode_builtin(obj, info, rel)
    if errors and errors[0].type != UNKNOWN_FIELD:
        return None, _bad_request(info, str(errors[0]), errors, []).status["message"]
    stored = decoded
    set_defaults = getattr(strategies.defaults_module(info.group), "set_object_defaults", None)
    if set_defaults is not None:
        set_defaults(stored, info.version, info.kind, rel)
    return stored, ""


def _bad_request(info: KindInfo, text: str, errors: Sequence[FieldError], warnings: list[str]) -> BuiltinVerdict:
    # transformDecodeError: "%s in version %q cannot be handled as a %s: %v"
    from crdtool.core.errors import go_quote

    message = f"{info.kind} in version {go_quote(info.version)} cannot be handled as a {info.kind}: {text}"
    return BuiltinVerdict(apistatus.bad_request(message), list(errors), warnings, None, info, BAD_REQUEST)


def _before_create(obj: dict[str, Any], info: KindInfo, release: Release) -> tuple[list[FieldError], list[str]]:
    """``BeforeCreate`` on ``obj`` (mutated): ``(errors, warnings)``."""
    generic.before_create(obj, info.namespaced)
    strategy = strategies.strategy_module(info.group, info.kind)
    prepare = getattr(strategy, "prepare_for_create", None)
    # warnings a PrepareForCreate adds to the request (the Pod's AppArmor skew): sent with any answer
    prepared: list[str] = []
    if prepare is not None:
        returned = prepare(obj, release)
        if isinstance(returned, list):
            prepared = [str(w) for w in returned]
    validate = getattr(strategy, "validate", None)
    if validate is not None:
        errors: list[FieldError] = list(validate(obj, release, info.version))
    else:
        errors = generic.validate_object_meta(obj, info.group, info.kind, info.namespaced, release)
    if errors:
        return errors, prepared
    errors = generic.validate_object_meta_accessor(obj, info.namespaced, release)
    if errors:
        return errors, prepared
    warn = getattr(strategy, "warnings_on_create", None)
    return [], prepared + (list(warn(obj, release, info.version)) if warn is not None else [])
