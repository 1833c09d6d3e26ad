"""The apiserver's side of a conversion webhook: building a ConversionReview and judging the answer.

Mirrors ``k8s.io/apiextensions-apiserver`` ``pkg/apiserver/conversion/webhook_converter.go``
function by function:

- :func:`objects_to_convert` — ``getObjectsToConvert``;
- :func:`create_conversion_review` — ``createConversionReviewObjects``;
- :func:`converted_objects_from_response` — ``getConvertedObjectsFromResponse``;
- :func:`validate_converted_object` — ``validateConvertedObject``;
- :func:`restore_object_meta` — ``restoreObjectMeta``;
- :func:`convert_from_response` — the part of ``webhookConverter.Convert`` after the HTTP call
  (count, groupVersion and kind of each converted object, identity, metadata restoring), with
  upstream's error messages (``conversion webhook for stable.example.com/v2, Kind=CronTab
  returned invalid metadata: ...``);
- :func:`decode_review_response` — how the apiserver's webhook client decodes the response body
  (``rest.Result.Into`` with the ``LegacyCodec`` of ``k8s.io/apiserver/pkg/util/webhook/client.go``
  ``NewClientManager``): the only part not in ``webhook_converter.go``.

Objects are plain JSON dicts (an ``unstructured.Unstructured``'s ``Object``); a list is a dict
with an ``items`` list (``unstructured.UnstructuredList``) or a Python list of objects. Review
versions are full apiVersion strings: ``apiextensions.k8s.io/v1`` or ``apiextensions.k8s.io/v1beta1``.
Everything here is pure: no argument is mutated; results are fresh copies.

What a kubectl user sees: a conversion failure surfaces as the apiserver's error text unchanged
(``storeerr.InterpretGetError`` passes it through, ``ErrorToAPIStatus`` makes it a 500 Status with
that message, kubectl prints ``Error from server: <message>``), which is ``str(ConversionError)``.
"""

from __future__ import annotations

import copy
import json
from typing import Any, Mapping, Sequence

from crdtool.core.errors import FieldError, Path, go_type_name
from crdtool.core.objectmeta import parse_group_version, validate_annotations, validate_labels

__all__ = [
    "CONVERSION_REVIEW_KIND",
    "REVIEW_V1",
    "REVIEW_V1BETA1",
    "ConversionError",
    "aggregate_message",
    "convert_from_response",
    "converted_objects_from_response",
    "create_conversion_review",
    "decode_review_response",
    "gvk_string",
    "objects_to_convert",
    "restore_object_meta",
    "validate_converted_object",
]

REVIEW_GROUP = "apiextensions.k8s.io"
REVIEW_V1 = "apiextensions.k8s.io/v1"
REVIEW_V1BETA1 = "apiextensions.k8s.io/v1beta1"
CONVERSION_REVIEW_KIND = "ConversionReview"
#: Where upstream's webhook client builds its scheme; the scheme's name in "no kind registered" errors.
_HOOK_SCHEME_NAME = "k8s.io/apiserver/pkg/util/webhook/client.go:71"

# Upstream ConversionWebhookErrorType values (pkg/apiserver/conversion/metrics.go).
CALL_FAILURE = "conversion_webhook_call_failure"
MALFORMED_RESPONSE_FAILURE = "conversion_webhook_malformed_response_failure"
PARTIAL_RESPONSE_FAILURE = "conversion_webhook_partial_response_failure"
INVALID_CONVERTED_OBJECT_FAILURE = "conversion_webhook_invalid_converted_object_failure"
NO_OBJECTS_RETURNED_FAILURE = "conversion_webhook_no_objects_returned_failure"


class ConversionError(Exception):
    """A conversion the apiserver would fail; ``str()`` is upstream's error text.

    ``failure_type`` is upstream's ``ConversionWebhookErrorType`` (the ``failure_type`` label of
    ``apiserver_conversion_webhook_request_total``), e.g.
    ``conversion_webhook_invalid_converted_object_failure``; empty for errors upstream does not
    count (no supported review version).
    """

    def __init__(self, message: str, failure_type: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.failure_type = failure_type

    def __str__(self) -> str:
        return self.message


# --- small Go helpers ---------------------------------------------------------------------------


def aggregate_message(messages: Sequence[str]) -> str:
    """``field.ErrorList.ToAggregate().Error()`` of already rendered errors: one message, or ``[a, b]``.

    Mirrors ``k8s.io/apimachinery/pkg/util/validation/field/errors.go`` ``ToAggregate`` and
    ``pkg/util/errors/errors.go`` ``aggregate.Error`` (duplicates removed, order kept).
    """
    unique = list(dict.fromkeys(messages))
    if not unique:
        return ""
    return unique[0] if len(unique) == 1 else "[" + ", ".join(unique) + "]"


def _nested_string(obj: Any, *fields: str) -> str:
    """``unstructured`` ``getNestedString``: the string at ``fields``, else ``""``."""
    value = obj
    for f in fields:
        if not isinstance(value, dict) or f not in value:
            return ""
        value = value[f]
    return value if isinstance(value, str) else ""


def _gv(api_version: str) -> tuple[str, str]:
    """``schema.ParseGroupVersion``, with the empty GroupVersion on error (as ``GroupVersionKind()`` does)."""
    return parse_group_version(api_version) or ("", "")


def _gv_string(gv: tuple[str, str]) -> str:
    """``schema.GroupVersion.String()``."""
    group, version = gv
    return f"{group}/{version}" if group else version


def gvk_string(obj: Any) -> str:
    """``obj.GetObjectKind().GroupVersionKind()`` formatted with ``%v``: ``group/version, Kind=kind``.

    In: an object or list dict (anything else has the empty GVK: ``/, Kind=``). Mirrors
    ``unstructured.Unstructured.GroupVersionKind`` and ``schema.GroupVersionKind.String``.
    """
    api_version = _nested_string(obj, "apiVersion")
    gv = parse_group_version(api_version)
    if gv is None:
        return "/, Kind="  # an unparsable apiVersion gives the empty GroupVersionKind
    return f"{gv[0]}/{gv[1]}, Kind={_nested_string(obj, 'kind')}"


def _is_list(obj_or_list: Any) -> bool:
    """An ``unstructured.UnstructuredList``: a Python list, a dict with an ``items`` key, or ``{}``.

    ``unstructuredJSONScheme.decode`` decodes a list when its ``detector``'s ``Items
    json.RawMessage`` is non-nil, which it is for ``"items": null`` too (a RawMessage keeps the
    ``null``): an empty list, as YAML's bare ``items:`` writes it. ``{}`` is the content of an
    empty ``UnstructuredList{}`` (upstream's "empty list" case of ``TestGetObjectsToConvert``);
    as an object it could not be decoded (``Object 'Kind' is missing``).
    """
    if isinstance(obj_or_list, list):
        return True
    return isinstance(obj_or_list, dict) and ("items" in obj_or_list or not obj_or_list)


def _items(obj_or_list: Any) -> list[Any]:
    if isinstance(obj_or_list, list):
        return obj_or_list
    items = obj_or_list.get("items")
    return items if isinstance(items, list) else []


# --- webhook_converter.go, function by function --------------------------------------------------


def objects_to_convert(obj_or_list: Any, desired_api_version: str) -> list[dict[str, Any]]:
    """The objects the apiserver puts in ``request.objects``: those not already at the desired version.

    In: one object (a dict), or a list (a dict with ``items``, or a Python list of objects), and
    the desired ``group/version``. Out: copies of the objects to send, in order; empty when
    nothing needs converting. Never raises.

    Mirrors ``getObjectsToConvert``: a list item is sent when its ``apiVersion`` string differs
    from the desired one (an empty list, ``items: []``, ``items: null`` or ``{}``, sends nothing); a single
    object when its parsed GroupVersion, formatted again, differs (so ``/v1`` is at ``v1``; an
    unparsable apiVersion is the empty GroupVersion). An object with only ``apiVersion`` and
    ``kind`` is not sent either: ``webhookConverter.Convert`` hands it to the ``nopConverter``
    before asking (``isEmptyUnstructuredObject``).
    """
    if _is_list(obj_or_list):
        return [
            copy.deepcopy(item)
            for item in _items(obj_or_list)
            if _nested_string(item, "apiVersion") != desired_api_version
        ]
    if _is_empty_object(obj_or_list):
        return []
    if _gv_string(_gv(_nested_string(obj_or_list, "apiVersion"))) != desired_api_version:
        return [copy.deepcopy(obj_or_list)]
    return []


def create_conversion_review(
    review_versions: Sequence[str], objects: Sequence[Any], desired_api_version: str, uid: str
) -> tuple[str, dict[str, Any], dict[str, Any]]:
    """The ConversionReview the apiserver POSTs, for the first supported entry of ``review_versions``.

    In: the CRD's ``conversionReviewVersions`` (``v1``, ``v1beta1``; others are skipped), the
    objects to convert (from :func:`objects_to_convert`), the desired ``group/version`` and the
    request uid. Out: ``(review_version, request, response)``: the full apiVersion of the review
    (``apiextensions.k8s.io/v1`` or ``.../v1beta1``), the request body as the apiserver
    serialises it (``kind``, ``apiVersion``, ``request`` with ``uid``, ``desiredAPIVersion`` and
    ``objects``, and the empty ``response`` stanza upstream sends along:
    ``{"uid": "", "convertedObjects": null, "result": {"metadata": {}}}``), and the empty review
    the answer is decoded into (``{}``). The objects are copied.

    Raises :class:`ConversionError` ``no supported conversion review versions`` when no entry is
    supported. Mirrors ``createConversionReviewObjects``.
    """
    for version in review_versions:
        if version in ("v1beta1", "v1"):
            review_version = f"{REVIEW_GROUP}/{version}"
            request = {
                "kind": CONVERSION_REVIEW_KIND,
                "apiVersion": review_version,
                "request": {
                    "uid": uid,
                    "desiredAPIVersion": desired_api_version,
                    "objects": copy.deepcopy(list(objects)),
                },
                "response": {"uid": "", "convertedObjects": None, "result": {"metadata": {}}},
            }
            return review_version, request, {}
    raise ConversionError("no supported conversion review versions")


def converted_objects_from_response(expected_uid: str, review_version: str, response: Any) -> list[Any]:
    """The ``response.convertedObjects`` of a decoded ConversionReview, once the answer is judged sound.

    In: the request's uid; the review version the request was sent in (the Go type the body
    was decoded into); the decoded review (a dict, see :func:`decode_review_response`). Out: a
    copy of ``response.convertedObjects`` (empty when absent or null).

    Raises :class:`ConversionError` (failure type ``conversion_webhook_malformed_response_failure``)
    with upstream's message: for v1, ``expected webhook response of
    apiextensions.k8s.io/v1, Kind=ConversionReview, got <gvk>`` when the review's apiVersion or
    kind differ, ``no response provided``, ``expected response.uid="<uid>", got "<uid>"``; for
    both versions (v1beta1 checks neither GVK nor uid, for compatibility)
    ``response.result.status`` other than ``Success`` fails with ``result.message`` if it is
    non-empty, else ``response.result.status was '<status>', not 'Success'``. Another review
    version fails with ``unrecognized response type: <Go type>``.

    Mirrors ``getConvertedObjectsFromResponse``.
    """
    if response is None:
        raise ConversionError("unrecognized response type: <nil>", MALFORMED_RESPONSE_FAILURE)
    if review_version not in (REVIEW_V1, REVIEW_V1BETA1) or not isinstance(response, dict):
        # Anything but the two typed reviews; a generic object decodes as an Unstructured.
        shown = "*unstructured.Unstructured" if isinstance(response, dict) else go_type_name(response)
        raise ConversionError(f"unrecognized response type: {shown}", MALFORMED_RESPONSE_FAILURE)
    if review_version == REVIEW_V1:
        got = gvk_string(response)
        expected = f"{REVIEW_V1}, Kind={CONVERSION_REVIEW_KIND}"
        if got != expected:
            raise ConversionError(f"expected webhook response of {expected}, got {got}", MALFORMED_RESPONSE_FAILURE)
    body = response.get("response")
    if not isinstance(body, dict):
        raise ConversionError("no response provided", MALFORMED_RESPONSE_FAILURE)
    if review_version == REVIEW_V1:
        uid = _nested_string(body, "uid")
        if uid != expected_uid:
            raise ConversionError(
                f"expected response.uid={_go_q(expected_uid)}, got {_go_q(uid)}", MALFORMED_RESPONSE_FAILURE
            )
    status = _nested_string(body, "result", "status")
    if status != "Success":
        message = _nested_string(body, "result", "message")
        if message:
            raise ConversionError(message, MALFORMED_RESPONSE_FAILURE)
        raise ConversionError(f"response.result.status was '{status}', not 'Success'", MALFORMED_RESPONSE_FAILURE)
    converted = body.get("convertedObjects")
    return copy.deepcopy(converted) if isinstance(converted, list) else []


def _go_q(s: str) -> str:
    from crdtool.core.errors import go_quote

    return go_quote(s)


def validate_converted_object(original: Any, converted: Any) -> str | None:
    """Why a converted object's identity differs from the original's, or None.

    In: the object sent and the object returned (dicts; other values read as empty). Out:
    upstream's message (``must have the same kind: A != B``, then name, namespace, ``UID``), the
    first that applies. Mirrors ``validateConvertedObject``.
    """
    checks = (("kind", ("kind",)), ("name", ("metadata", "name")), ("namespace", ("metadata", "namespace")),
              ("UID", ("metadata", "uid")))
    for label, fields in checks:
        e, a = _nested_string(original, *fields), _nested_string(converted, *fields)
        if e != a:
            return f"must have the same {label}: {e} != {a}"
    return None


_ABSENT: Any = object()


def restore_object_meta(original: Mapping[str, Any], converted: Mapping[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """The converted object with the original's metadata, except the converted labels and annotations.

    In: the object sent to the webhook and the object it returned (dicts; neither is modified).
    Out: ``(restored, errors)``: a copy of ``converted`` as upstream leaves it — also when it
    fails part-way (then ``metadata`` may already be the original's) — and the errors: empty,
    or upstream's one error as rendered messages: a structural one (``missing metadata in
    converted object``, ``invalid metadata of type []interface {} in converted object``,
    ``invalid metadata of type <nil> in input object``, ``invalid metadata.labels of type string
    in converted object``, ``invalid metadata.labels of type ... in original object``,
    ``metadata.labels[a] must be a string, but is <nil> in converted object``) or the label /
    annotation validation errors (``metav1validation.ValidateLabels`` at ``metadata.labels``,
    ``apivalidation.ValidateAnnotations`` at upstream's ``metadata.annotation``), run only on a
    map that changed. :func:`aggregate_message` joins them into upstream's error text.

    Mirrors ``restoreObjectMeta``. Go iterates the maps in random order; here the first
    offending key in the converted map's order is reported.
    """
    out: dict[str, Any] = copy.deepcopy(dict(converted))
    response_meta = out.get("metadata", _ABSENT)
    if response_meta is _ABSENT:
        return out, ["missing metadata in converted object"]
    if not isinstance(response_meta, dict):
        return out, [f"invalid metadata of type {go_type_name(response_meta)} in converted object"]
    if "metadata" not in original:
        out["metadata"] = {}
    else:
        out["metadata"] = copy.deepcopy(original["metadata"])
    meta = out["metadata"]
    if not isinstance(meta, dict):
        return out, [f"invalid metadata of type {go_type_name(meta)} in input object"]
    for fld in ("labels", "annotations"):
        value = response_meta.get(fld)
        if value is None:
            meta.pop(fld, None)
            continue
        if not isinstance(value, dict):
            return out, [f"invalid metadata.{fld} of type {go_type_name(value)} in converted object"]
        before = meta.get(fld)
        if before is not None and not isinstance(before, dict):
            return out, [f"invalid metadata.{fld} of type {go_type_name(before)} in original object"]
        before = before or {}
        changed = len(before) != len(value)
        for k, v in value.items():
            if not isinstance(v, str):
                return out, [f"metadata.{fld}[{k}] must be a string, but is {go_type_name(v)} in converted object"]
            if before.get(k, _ABSENT) != v:
                changed = True
        if changed:
            errs: list[FieldError]
            if fld == "labels":
                errs = validate_labels(value, Path("metadata", "labels"))
            else:
                errs = validate_annotations(value, Path("metadata", "annotation"))  # sic: upstream's path
            if errs:
                return out, list(dict.fromkeys(str(e) for e in errs))
        meta[fld] = value
    return out, []


def _is_empty_object(obj: Any) -> bool:
    """``isEmptyUnstructuredObject``: an object with exactly ``apiVersion`` and ``kind``."""
    return isinstance(obj, dict) and len(obj) == 2 and "kind" in obj and "apiVersion" in obj


def convert_from_response(
    obj_or_list: Any, desired_api_version: str, review_version: str, uid: str, response: Any
) -> Any:
    """What the apiserver makes of a webhook's answer: the converted object or list, or its error.

    In: what was to be converted (an object, or a list as in :func:`objects_to_convert`), the
    desired ``group/version``, the review version and uid of the request sent (see
    :func:`create_conversion_review`) and the response: the body as bytes/str (decoded with
    :func:`decode_review_response`) or an already decoded review dict; unused when nothing
    needed converting. Out: a converted
    copy: a single object is the webhook's object with its metadata restored
    (:func:`restore_object_meta`); a list has each item sent replaced the same way, the others
    kept, and its ``apiVersion`` set to the desired one (a Python list stays a list). An object
    with only ``apiVersion`` and ``kind`` is converted by setting its apiVersion, without the
    webhook (upstream's empty-object shortcut).

    Raises :class:`ConversionError` with the apiserver's message, e.g. ``conversion webhook for
    stable.example.com/v2, Kind=CronTab failed: <decoding or response error>``, ``... returned 0
    objects, expected 1``, ``... returned invalid
    object at index 0: invalid kind (expected CronTab, received Foo)``, ``... returned invalid
    object: must have the same name: a != b``, ``... returned invalid metadata: <errors>`` (list
    variants say ``converted object at index N`` / ``metadata in object at index N``).

    Mirrors ``webhookConverter.Convert`` from ``getConvertedObjectsFromResponse`` on (the HTTP
    call itself is the caller's); ``%v`` of the input's GroupVersionKind is
    ``group/version, Kind=kind`` (for a list, the list's own apiVersion and kind).
    """
    gvk = gvk_string(obj_or_list) if isinstance(obj_or_list, dict) else "/, Kind="
    desired_gv = _gv(desired_api_version)
    desired = _gv_string(desired_gv)
    if not _is_list(obj_or_list) and _is_empty_object(obj_or_list):
        out = copy.deepcopy(obj_or_list)
        out["apiVersion"] = desired
        return out
    to_convert = objects_to_convert(obj_or_list, desired)
    if not to_convert:
        if not _is_list(obj_or_list):
            return copy.deepcopy(obj_or_list)
        if isinstance(obj_or_list, list):
            return copy.deepcopy(obj_or_list)
        out_list = copy.deepcopy(obj_or_list)
        out_list["apiVersion"] = desired
        return out_list
    try:
        if isinstance(response, (bytes, bytearray, str)):
            response = decode_review_response(response, review_version)
        converted = converted_objects_from_response(uid, review_version, response)
    except ConversionError as exc:
        raise ConversionError(f"conversion webhook for {gvk} failed: {exc}", exc.failure_type) from None
    if len(converted) != len(to_convert):
        raise ConversionError(
            f"conversion webhook for {gvk} returned {len(converted)} objects, expected {len(to_convert)}",
            PARTIAL_RESPONSE_FAILURE,
        )
    bad = INVALID_CONVERTED_OBJECT_FAILURE
    if _is_list(obj_or_list):
        out_any: Any = copy.deepcopy(obj_or_list)
        items = out_any if isinstance(out_any, list) else out_any.get("items")
        index = 0
        for i, original in enumerate(items):
            if _nested_string(original, "apiVersion") == desired:
                continue
            where = f"conversion webhook for {gvk} returned invalid converted object at index {index}"
            item = _raw_extension_object(converted[index], where)
            got_gv = _gv(_nested_string(item, "apiVersion"))
            if got_gv != desired_gv:
                raise ConversionError(
                    f"{where}: invalid groupVersion (expected {desired}, received {_gv_string(got_gv)})", bad
                )
            kind, got_kind = _nested_string(original, "kind"), _nested_string(item, "kind")
            if kind != got_kind:
                raise ConversionError(f"{where}: invalid kind (expected {kind}, received {got_kind})", bad)
            problem = validate_converted_object(original, item)
            if problem:
                raise ConversionError(f"{where}: {problem}", bad)
            restored, errors = restore_object_meta(original, item)
            if errors:
                raise ConversionError(
                    f"conversion webhook for {gvk} returned invalid metadata in object at index {index}: "
                    f"{aggregate_message(errors)}",
                    bad,
                )
            index += 1
            items[i] = restored
        if isinstance(out_any, dict):
            out_any["apiVersion"] = desired
        return out_any
    item = _raw_extension_object(converted[0], None)
    got_gv = _gv(_nested_string(item, "apiVersion"))
    where = f"conversion webhook for {gvk} returned invalid object at index 0"
    if got_gv != desired_gv:
        raise ConversionError(f"{where}: invalid groupVersion (expected {desired}, received {_gv_string(got_gv)})", bad)
    kind, got_kind = _nested_string(obj_or_list, "kind"), _nested_string(item, "kind")
    if kind != got_kind:
        raise ConversionError(f"{where}: invalid kind (expected {kind}, received {got_kind})", bad)
    problem = validate_converted_object(obj_or_list, item)
    if problem:
        raise ConversionError(f"conversion webhook for {gvk} returned invalid object: {problem}", bad)
    restored, errors = restore_object_meta(obj_or_list, item)
    if errors:
        raise ConversionError(
            f"conversion webhook for {gvk} returned invalid metadata: {aggregate_message(errors)}", bad
        )
    return restored


def _raw_extension_object(raw: Any, where: str | None) -> dict[str, Any]:
    """``getRawExtensionObject`` of one ``convertedObjects`` entry: decoded into an ``Unstructured``.

    ``where`` prefixes the error in the list path; the single-object path returns the decoding
    error bare, as upstream does. Messages are ``encoding/json``'s and
    ``runtime.NewMissingKindErr``'s; the JSON quoted in ``Object 'Kind' is missing in '...'``
    is re-encoded compactly here (upstream quotes the webhook's bytes as sent).
    """
    message: str | None = None
    if raw is None:
        message = "unexpected end of JSON input"  # a null RawExtension has no bytes
    elif not isinstance(raw, dict):
        message = f"json: cannot unmarshal {_json_kind(raw)} into Go value of type map[string]interface {{}}"
    elif not _nested_string(raw, "kind"):
        message = f"Object 'Kind' is missing in '{json.dumps(raw, separators=(',', ':'), ensure_ascii=False)}'"
    if message is None:
        assert isinstance(raw, dict)
        return raw
    if where is None:
        raise ConversionError(message, INVALID_CONVERTED_OBJECT_FAILURE)
    raise ConversionError(f"{where}: {message}", INVALID_CONVERTED_OBJECT_FAILURE)


def _json_kind(value: Any) -> str:
    """The ``Value`` of an ``encoding/json`` ``UnmarshalTypeError``: what kind of JSON value it was."""
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


# --- decoding the response body ----------------------------------------------------------------------

# (JSON path, Go struct, Go field path, Go type, expected JSON kind) of the fields read upstream.
_RESPONSE_FIELDS = (
    (("response",), "ConversionReview", "response", "{v}.ConversionResponse", "object"),
    (("response", "uid"), "ConversionResponse", "response.uid", "types.UID", "string"),
    (("response", "convertedObjects"), "ConversionResponse", "response.convertedObjects",
     "[]runtime.RawExtension", "array"),
    (("response", "result"), "ConversionResponse", "response.result", "v1.Status", "object"),
    (("response", "result", "status"), "Status", "response.result.status", "string", "string"),
    (("response", "result", "message"), "Status", "response.result.message", "string", "string"),
)


def decode_review_response(data: Any, review_version: str) -> dict[str, Any]:
    """Decode a webhook's response body as the apiserver's webhook client does, into ``review_version``.

    In: the body, as bytes/str (parsed here) or already parsed JSON; the review version the
    request was sent in. Out: the review as a dict, ready for :func:`converted_objects_from_response`.

    Raises :class:`ConversionError` (failure type ``conversion_webhook_call_failure``; callers
    wrap it as ``conversion webhook for <gvk> failed: <error>``) where upstream's decoding fails:
    the body is not JSON or not an object (``couldn't get version/kind; json parse error: ...``);
    its apiVersion/kind name another ConversionReview version (``converting
    (v1beta1.ConversionReview) to (v1.ConversionReview): unknown conversion``: the webhook must
    answer in the request's version) or another kind (``no kind "X" is registered for version
    ...``); a field upstream reads has the wrong JSON type (``json: cannot unmarshal number into
    Go struct field ConversionResponse.response.uid of type types.UID``). A missing apiVersion or
    kind is filled from the expected type, as the JSON serializer does, and left absent in the
    result (so v1's GVK check then fails, as upstream's does).

    Mirrors ``rest.Result.Into`` with the ``LegacyCodec`` of ``k8s.io/apiserver/pkg/util/webhook``
    ``NewClientManager`` (``serializer/json`` ``Serializer.Decode``, ``SimpleMetaFactory.Interpret``,
    ``gvkWithDefaults``, ``UseOrCreateObject``, ``versioning`` ``codec.Decode``). JSON syntax
    errors carry Python's description of the problem, not Go's wording.
    """
    if isinstance(data, (bytes, bytearray, str)):
        try:
            data = json.loads(data)
        except (ValueError, RecursionError) as exc:
            raise ConversionError(f"couldn't get version/kind; json parse error: {exc}", CALL_FAILURE) from None
    if not isinstance(data, dict):
        raise ConversionError(
            "couldn't get version/kind; json parse error: json: cannot unmarshal "
            f"{_json_kind(data)} into Go value of type struct {{ APIVersion string \"json:\\\"apiVersion,omitempty\\\"\"; "
            "Kind string \"json:\\\"kind,omitempty\\\"\" }",
            CALL_FAILURE,
        )
    expected_group, expected_version = _gv(review_version)
    for key in ("apiVersion", "kind"):
        if key in data and data[key] is not None and not isinstance(data[key], str):
            raise ConversionError(
                "couldn't get version/kind; json parse error: json: cannot unmarshal "
                f"{_json_kind(data[key])} into Go struct field .{key} of type string",
                CALL_FAILURE,
            )
    parsed = parse_group_version(_nested_string(data, "apiVersion"))
    if parsed is None:
        raise ConversionError(f"unexpected GroupVersion string: {_nested_string(data, 'apiVersion')}", CALL_FAILURE)
    group, version = parsed
    kind = _nested_string(data, "kind") or CONVERSION_REVIEW_KIND  # gvkWithDefaults
    if not version and not group:
        group, version = expected_group, expected_version
    if not version and group == expected_group:
        version = expected_version
    if not version:
        raise ConversionError(
            f"Object 'apiVersion' is missing in '{json.dumps(data, separators=(',', ':'), ensure_ascii=False)}'",
            CALL_FAILURE,
        )
    actual = f"{group}/{version}" if group else version
    if kind != CONVERSION_REVIEW_KIND or group != REVIEW_GROUP or version not in ("v1", "v1beta1"):
        raise ConversionError(
            f"no kind {_go_q(kind)} is registered for version {_go_q(actual)} in scheme {_go_q(_HOOK_SCHEME_NAME)}",
            CALL_FAILURE,
        )
    go_version = version
    for path, struct, fld, go_type, expected in _RESPONSE_FIELDS:
        value: Any = data
        for p in path:
            value = value.get(p) if isinstance(value, dict) else None
        if value is None:
            continue
        if _json_kind(value) != expected:
            raise ConversionError(
                f"json: cannot unmarshal {_json_kind(value)} into Go struct field {struct}.{fld} of type "
                f"{go_type.format(v=go_version)}",
                CALL_FAILURE,
            )
    if actual != review_version:
        raise ConversionError(
            f"converting ({version}.ConversionReview) to ({expected_version}.ConversionReview): unknown conversion",
            CALL_FAILURE,
        )
    return copy.deepcopy(data)
