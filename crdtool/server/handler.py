"""One ConversionReview request in, one response out: what ``crdtool serve`` does per POST.

:meth:`ReviewHandler.handle` takes the raw body and returns an :class:`Outcome` (HTTP status, body,
and what the metrics and access log need):

1. **Request checks** (HTTP 400 with a one-line reason, never an exception): the body must be JSON,
   a ``ConversionReview`` of ``apiextensions.k8s.io/v1`` or ``v1beta1`` with a ``request`` holding a
   string ``uid``, a string ``desiredAPIVersion`` and a list of at most ``max_objects`` objects.
2. **Conversion**: the user's ``convert(obj, desired_api_version)`` is called on a copy of each
   object, in order. An exception fails the whole review (``result.status: Failure`` with the
   exception's message, as a conversion webhook should answer); so does exceeding the per-request
   timeout. The timeout is a ``SIGALRM`` timer armed once per request when the handler runs on the
   main thread (a converter process of :mod:`crdtool.server.pool` does), raising
   :class:`RequestTimeout` inside the user's code; elsewhere the time is only measured and an
   over-long request fails afterwards. A converter that catches the timeout is not stopped here:
   the pool kills its process and answers with :meth:`ReviewHandler.timed_out`.
3. **The apiserver's own checks** on each converted object before anything is sent
   (``crdtool.core.conversion_review``, mirroring ``webhook_converter.go``): a dict at the desired
   groupVersion with the same kind, name, namespace and uid (``validateConvertedObject``), labels
   and annotations that ``restoreObjectMeta`` accepts. A change to any other ``metadata`` field is
   refused too: the apiserver would silently restore it, so such a converter is wrong whatever it
   meant. Each refusal is a Failure naming the object and the rule, instead of an error the user
   would only meet on the apiserver's side.

The answer is in the request's review version, ``response.uid`` is the request's uid, and on success
``convertedObjects`` are the converter's objects in request order.
"""

from __future__ import annotations

import copy
import json
import signal
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from crdtool.core.conversion_review import (
    REVIEW_V1,
    REVIEW_V1BETA1,
    aggregate_message,
    restore_object_meta,
    validate_converted_object,
)
from crdtool.core.objectmeta import parse_group_version

#: The apiserver never sends more than a list's worth; this bounds a single request's work.
DEFAULT_MAX_OBJECTS = 10_000
#: The apiserver's own request-size limit (3 MiB) plus room for the review envelope.
DEFAULT_MAX_BODY_BYTES = 8 * 1024 * 1024
_MUTABLE_METADATA = ("labels", "annotations")


class RequestTimeout(BaseException):
    """Raised inside the user's function when the request's time is up (a BaseException: not swallowed by ``except Exception``)."""


class BadRequest(Exception):
    """The body is not a ConversionReview request: HTTP 400 with this message."""


@dataclass(frozen=True)
class CrdInfo:
    """What the server knows of the CRD it converts for (from ``--crd``)."""

    name: str
    group: str
    kind: str
    versions: tuple[str, ...]
    review_versions: tuple[str, ...] = ("v1", "v1beta1")

    @classmethod
    def from_manifest(cls, crd: dict[str, Any]) -> CrdInfo:
        """From a CRD manifest (v1 or v1beta1), decoded and defaulted as the apiserver does."""
        from crdtool.core.customresource import prepare_crd

        prepared = prepare_crd(crd)
        conversion = (prepared.internal.get("spec") or {}).get("conversion") or {}
        review_versions = conversion.get("conversionReviewVersions") or ["v1", "v1beta1"]
        return cls(
            name=prepared.name,
            group=prepared.group,
            kind=prepared.kind,
            versions=tuple(v.name for v in prepared.versions),
            review_versions=tuple(str(v) for v in review_versions),
        )

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON values (what :meth:`from_dict` reads back)."""
        return {"name": self.name, "group": self.group, "kind": self.kind, "versions": list(self.versions),
                "review_versions": list(self.review_versions)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> CrdInfo:
        """From :meth:`to_dict`'s output."""
        return cls(name=data["name"], group=data["group"], kind=data["kind"], versions=tuple(data["versions"]),
                   review_versions=tuple(data["review_versions"]))


@dataclass
class ObjectTiming:
    """One object's conversion, for the per-version-pair metrics."""

    from_version: str
    seconds: float
    ok: bool


@dataclass
class Outcome:
    """The result of one POST.

    ``result`` is ``success``, ``failure`` (converter error or refused answer), ``timeout`` or
    ``bad_request``; ``reason`` refines a failure (``converter_error``, ``invalid_result``,
    ``invalid_request``, ``timeout``); ``message`` is the Failure message or the 400 reason.
    """

    status: int
    body: bytes
    result: str
    message: str = ""
    reason: str = ""
    uid: str = ""
    review_version: str = ""
    desired: str = ""
    objects: int = 0
    seconds: float = 0.0
    timings: list[ObjectTiming] = field(default_factory=list)


def parse_request(body: bytes, max_objects: int = DEFAULT_MAX_OBJECTS) -> tuple[str, str, str, list[dict[str, Any]]]:
    """``(review version, uid, desiredAPIVersion, objects)`` of a ConversionReview request body.

    Raises :class:`BadRequest` with a one-line reason for anything the apiserver would never send.
    """
    try:
        review = json.loads(body)
    except (ValueError, RecursionError) as exc:
        raise BadRequest(f"the body is not JSON: {exc}") from None
    if not isinstance(review, dict):
        raise BadRequest("the body is not a JSON object (expected a ConversionReview)")
    if review.get("kind") != "ConversionReview":
        raise BadRequest(f"kind is {review.get('kind')!r}, not 'ConversionReview'")
    version = review.get("apiVersion")
    if version not in (REVIEW_V1, REVIEW_V1BETA1):
        raise BadRequest(f"apiVersion is {version!r}; this webhook answers {REVIEW_V1} and {REVIEW_V1BETA1}")
    request = review.get("request")
    if not isinstance(request, dict):
        raise BadRequest("the ConversionReview has no request")
    uid, desired, objects = request.get("uid"), request.get("desiredAPIVersion"), request.get("objects")
    if not isinstance(uid, str) or not uid:
        raise BadRequest("request.uid must be a non-empty string")
    if not isinstance(desired, str) or not desired:
        raise BadRequest("request.desiredAPIVersion must be a non-empty string")
    if not isinstance(objects, list):
        raise BadRequest("request.objects must be a list")
    if len(objects) > max_objects:
        raise BadRequest(f"request.objects has {len(objects)} objects, more than the limit of {max_objects}")
    for i, obj in enumerate(objects):
        if not isinstance(obj, dict):
            raise BadRequest(f"request.objects[{i}] is not an object")
    return str(version), uid, desired, objects


class ReviewHandler:
    """Converts ConversionReview bodies with ``convert`` for the CRD ``crd``."""

    def __init__(
        self,
        convert: Callable[[dict[str, Any], str], Any],
        crd: CrdInfo,
        *,
        timeout: float = 10.0,
        max_objects: int = DEFAULT_MAX_OBJECTS,
        name: str = "convert",
    ) -> None:
        self.convert = convert
        self.crd = crd
        self.timeout = timeout
        self.max_objects = max_objects
        self.name = name
        #: Where the index of the object being converted is written (``progress[0] = index``), for a
        #: process that must tell, after killing this one, where it stopped; None: not published.
        self.progress: Any = None

    def handle(self, body: bytes, budget: float | None = None) -> Outcome:
        """Answer one request body; never raises (but KeyboardInterrupt).

        ``budget``: seconds left of the request's ``timeout`` (the time it waited for a converter
        process already spent); None: the whole ``timeout``. Messages always name ``timeout``.
        """
        start = time.perf_counter()
        try:
            review_version, uid, desired, objects = parse_request(body, self.max_objects)
        except BadRequest as exc:
            message = str(exc)
            return Outcome(400, _error_body(message), "bad_request", message, "invalid_request",
                           seconds=time.perf_counter() - start)
        outcome = Outcome(200, b"", "success", uid=uid, review_version=review_version, desired=desired,
                          objects=len(objects))
        converted, failure = self._convert_all(objects, desired, outcome, self.timeout if budget is None else budget)
        if failure is not None:
            result, reason, message = failure
            outcome.result, outcome.reason, outcome.message = result, reason, message
            response: dict[str, Any] = {"uid": uid, "result": {"status": "Failure", "message": message}}
        else:
            response = {"uid": uid, "result": {"status": "Success"}, "convertedObjects": converted}
        try:
            outcome.body = _dumps({"apiVersion": review_version, "kind": "ConversionReview", "response": response})
        except (TypeError, ValueError) as exc:  # a converter result that is not JSON
            message = f"the converted objects are not JSON: {exc}"
            outcome.result, outcome.reason, outcome.message = "failure", "invalid_result", message
            outcome.body = _dumps({"apiVersion": review_version, "kind": "ConversionReview",
                                   "response": {"uid": uid, "result": {"status": "Failure", "message": message}}})
        outcome.seconds = time.perf_counter() - start
        return outcome

    def timed_out(self, body: bytes, index: int, seconds: float) -> Outcome:
        """The answer to ``body`` when its converter was stopped from outside at object ``index``.

        What :meth:`handle` answers when the timeout interrupts the converter at that object (a 400
        or a Failure for a request it would have refused before converting anything), for a
        converter process killed after it caught the timeout, or a request that waited its whole
        ``timeout`` for a free converter process. ``seconds``: the time the request took.
        """
        return self._stopped(body, index, seconds, "timeout", self._timeout_message)

    def crashed(self, body: bytes, index: int, seconds: float, how: str) -> Outcome:
        """The Failure answering ``body`` when the converter's process ended at object ``index``.

        ``how`` says how it ended (``exited with status 1``, ``was killed by signal SIGSEGV``), e.g.
        ``os._exit``, ``sys.exit`` or a crash in an extension module; reason ``converter_error``.
        """
        def message(objects: list[dict[str, Any]], i: int) -> str:
            return f"the process running {self.name} {how} while converting object {i} ({_name_of(objects[i])})"

        return self._stopped(body, index, seconds, "failure", message)

    def _stopped(self, body: bytes, index: int, seconds: float, result: str,
                 message: Callable[[list[dict[str, Any]], int], str]) -> Outcome:
        try:
            review_version, uid, desired, objects = parse_request(body, self.max_objects)
        except BadRequest as exc:
            text = str(exc)
            return Outcome(400, _error_body(text), "bad_request", text, "invalid_request", seconds=seconds)
        outcome = Outcome(200, b"", result, reason="timeout" if result == "timeout" else "converter_error",
                          uid=uid, review_version=review_version, desired=desired, objects=len(objects),
                          seconds=seconds)
        problem = self._check_versions(objects, desired)
        if problem is not None:
            outcome.result, outcome.reason, outcome.message = "failure", "invalid_request", problem
        elif objects:
            outcome.message = message(objects, min(max(index, 0), len(objects) - 1))
        else:
            outcome.message = self._timeout_message(objects, 0)
        outcome.body = _dumps({"apiVersion": review_version, "kind": "ConversionReview",
                               "response": {"uid": uid, "result": {"status": "Failure", "message": outcome.message}}})
        return outcome

    def _timeout_message(self, objects: list[dict[str, Any]], index: int) -> str:
        return (
            f"conversion timed out: {self.name} did not convert {len(objects)} object(s) within "
            f"{self.timeout:g} s (stopped at object {index}, {_name_of(objects[index]) if objects else ''})"
        )

    def _convert_all(
        self, objects: list[dict[str, Any]], desired: str, outcome: Outcome, budget: float
    ) -> tuple[list[Any], tuple[str, str, str] | None]:
        problem = self._check_versions(objects, desired)
        if problem is not None:
            return [], ("failure", "invalid_request", problem)
        converted: list[Any] = []
        progress = self.progress
        seconds = max(budget, 1e-6) if self.timeout else 0.0
        deadline = time.monotonic() + seconds if seconds else None
        index = 0
        try:
            with _alarm(seconds):
                for index, obj in enumerate(objects):
                    if progress is not None:
                        progress[0] = index
                    t0 = time.perf_counter()
                    try:
                        result = self.convert(copy.deepcopy(obj), desired)
                    except RequestTimeout:
                        raise
                    except Exception as exc:  # noqa: BLE001 - the user's code may raise anything
                        outcome.timings.append(ObjectTiming(_version_of(obj), time.perf_counter() - t0, False))
                        message = str(exc) or type(exc).__name__
                        return [], ("failure", "converter_error", message)
                    outcome.timings.append(ObjectTiming(_version_of(obj), time.perf_counter() - t0, True))
                    if deadline is not None and time.monotonic() > deadline:
                        raise RequestTimeout()
                    refused = check_converted(obj, result, desired)
                    if refused is not None:
                        return [], ("failure", "invalid_result", f"{_describe(index, obj)}: {refused}")
                    converted.append(result)
        except RequestTimeout:
            return [], ("timeout", "timeout", self._timeout_message(objects, index))
        return converted, None

    def _check_versions(self, objects: list[dict[str, Any]], desired: str) -> str | None:
        valid = {f"{self.crd.group}/{v}" for v in self.crd.versions}
        if desired not in valid:
            return f"desiredAPIVersion {desired} is not a version of CRD {self.crd.name} ({', '.join(sorted(valid))})"
        for i, obj in enumerate(objects):
            if obj.get("apiVersion") not in valid:
                return f"request.objects[{i}] has apiVersion {obj.get('apiVersion')!r}, not a version of CRD {self.crd.name}"
        return None


def check_converted(original: dict[str, Any], converted: Any, desired: str) -> str | None:
    """Why the apiserver would fail (or silently alter) ``converted``, or None.

    In: the object sent, what the converter returned, the desired ``group/version``. Out: a
    one-line reason: not an object; upstream's ``invalid groupVersion`` / ``invalid kind`` /
    ``must have the same ...`` / invalid metadata errors (``webhook_converter.go``); or a change to
    metadata other than labels and annotations (which ``restoreObjectMeta`` would revert).
    """
    if not isinstance(converted, dict):
        return f"the converter returned {type(converted).__name__}, not an object (dict)"
    want = parse_group_version(desired) or ("", "")
    api_version = converted.get("apiVersion")
    got = parse_group_version(api_version if isinstance(api_version, str) else "") or ("", "")
    if got != want:
        return f"invalid groupVersion (expected {desired}, received {api_version if isinstance(api_version, str) else ''})"
    kind, got_kind = original.get("kind"), converted.get("kind")
    if kind != got_kind:
        return f"invalid kind (expected {kind}, received {got_kind if isinstance(got_kind, str) else ''})"
    problem = validate_converted_object(original, converted)
    if problem:
        return problem
    _, errors = restore_object_meta(original, converted)
    if errors:
        return f"invalid metadata: {aggregate_message(errors)}"
    changed = _other_metadata_changes(original.get("metadata"), converted.get("metadata"))
    if changed:
        fields = ", ".join(f"metadata.{k}" for k in changed)
        return (
            f"{fields} changed: a conversion may change only metadata.labels and metadata.annotations "
            "(the apiserver would silently restore the rest)"
        )
    return None


def _other_metadata_changes(before: Any, after: Any) -> list[str]:
    from crdtool.core.fuzz.properties import json_equal

    before = before if isinstance(before, dict) else {}
    after = after if isinstance(after, dict) else {}
    missing = object()
    return [
        k for k in sorted(set(before) | set(after))
        if k not in _MUTABLE_METADATA and not json_equal(before.get(k, missing), after.get(k, missing))
    ]


def _version_of(obj: dict[str, Any]) -> str:
    api_version = obj.get("apiVersion")
    return api_version.rpartition("/")[2] if isinstance(api_version, str) else ""


def _name_of(obj: Any) -> str:
    meta = obj.get("metadata") if isinstance(obj, dict) else None
    meta = meta if isinstance(meta, dict) else {}
    name, namespace = meta.get("name"), meta.get("namespace")
    name = name if isinstance(name, str) else "?"
    return f"{namespace}/{name}" if isinstance(namespace, str) and namespace else name


def _describe(index: int, obj: Any) -> str:
    return f"converted object {index} ({_name_of(obj)})"


def _dumps(value: Any) -> bytes:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode()


def _error_body(message: str) -> bytes:
    return _dumps({"error": message})


class _alarm:
    """Arm ``SIGALRM`` for ``seconds`` on the main thread; the handler raises :class:`RequestTimeout`."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.active = bool(seconds) and hasattr(signal, "setitimer") and (
            threading.current_thread() is threading.main_thread()
        )
        self.previous: Any = None
        self.armed = False

    def _on_alarm(self, signum: int, frame: Any) -> None:
        if self.armed:
            self.armed = False
            raise RequestTimeout()

    def __enter__(self) -> _alarm:
        if self.active:
            self.previous = signal.signal(signal.SIGALRM, self._on_alarm)
            self.armed = True
            signal.setitimer(signal.ITIMER_REAL, self.seconds)
        return self

    def __exit__(self, *exc: Any) -> None:
        if self.active:
            self.armed = False
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self.previous)

