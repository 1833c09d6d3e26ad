"""crdtool.core.conversion_review against upstream's webhook_converter_test.go.

Every case of TestRestoreObjectMeta, TestGetObjectsToConvert, TestCreateConversionReviewObjects and
TestGetConvertedObjectsFromResponse (k8s.io/apiextensions-apiserver v0.36.3
pkg/apiserver/conversion/webhook_converter_test.go) is here, with upstream's case names. Where
upstream only asserts that an error occurs, the expected text is taken from upstream's source
(webhook_converter.go, apimachinery's validation messages), not from our output. The tests of
convert_from_response and decode_review_response follow webhookConverter.Convert and the webhook
client's decoding (see the module docstring).
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from crdtool.core.conversion_review import (
    REVIEW_V1,
    REVIEW_V1BETA1,
    ConversionError,
    aggregate_message,
    convert_from_response,
    converted_objects_from_response,
    create_conversion_review,
    decode_review_response,
    objects_to_convert,
    restore_object_meta,
    validate_converted_object,
)

# --- TestRestoreObjectMeta ---------------------------------------------------------------------------

# content.RegexError joins examples as "'a', " + " or ": hence the double spaces.
_LABEL_KEY_RE = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"
_BAD_LABEL_KEY = (
    'metadata.labels: Invalid value: "some/non-qualified/label": a valid label key must consist of alphanumeric '
    "characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or "
    f"'my.name',  or '123-abc', regex used for validation is '{_LABEL_KEY_RE}') with an optional DNS subdomain "
    "prefix and '/' (e.g. 'example.com/MyName')"
)
_BAD_LABEL_VALUE = (
    'metadata.labels: Invalid value: "üäö": a valid label must be an empty string or consist of alphanumeric '
    "characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or "
    f"'my_value',  or '12345', regex used for validation is '({_LABEL_KEY_RE})?')"
)

RESTORE_CASES: list[tuple[str, dict[str, Any], dict[str, Any], dict[str, Any], list[str]]] = [
    ("no converted metadata",
     {"metadata": {}, "spec": {}},
     {"spec": {}},
     {"spec": {}},
     ["missing metadata in converted object"]),
    ("invalid converted metadata",
     {"metadata": {}, "spec": {}},
     {"metadata": ["foo"]},
     {"metadata": ["foo"]},
     ["invalid metadata of type []interface {} in converted object"]),
    ("no original metadata",
     {"spec": {}},
     {"metadata": {}, "spec": {}},
     {"metadata": {}, "spec": {}},
     []),
    ("invalid original metadata",
     {"metadata": ["foo"]},
     {"metadata": {}, "spec": {}},
     {"metadata": ["foo"], "spec": {}},
     ["invalid metadata of type []interface {} in input object"]),
    ("changed label, annotations and non-label",
     {"metadata": {"foo": "bar", "labels": {"a": "A", "b": "B"}, "annotations": {"a": "1", "b": "2"}}, "spec": {}},
     {"metadata": {"foo": "abc", "labels": {"a": "AA", "b": "B"}, "annotations": {"a": "1", "b": "22"}}, "spec": {}},
     {"metadata": {"foo": "bar", "labels": {"a": "AA", "b": "B"}, "annotations": {"a": "1", "b": "22"}}, "spec": {}},
     []),
    ("added labels and annotations",
     {"metadata": {"foo": "bar"}, "spec": {}},
     {"metadata": {"foo": "abc", "labels": {"a": "AA", "b": "B"}, "annotations": {"a": "1", "b": "22"}}, "spec": {}},
     {"metadata": {"foo": "bar", "labels": {"a": "AA", "b": "B"}, "annotations": {"a": "1", "b": "22"}}, "spec": {}},
     []),
    ("added labels and annotations, with nil before",
     {"metadata": {"foo": "bar", "labels": None, "annotations": None}, "spec": {}},
     {"metadata": {"foo": "abc", "labels": {"a": "AA", "b": "B"}, "annotations": {"a": "1", "b": "22"}}, "spec": {}},
     {"metadata": {"foo": "bar", "labels": {"a": "AA", "b": "B"}, "annotations": {"a": "1", "b": "22"}}, "spec": {}},
     []),
    ("removed labels and annotations",
     {"metadata": {"foo": "bar", "labels": {"a": "AA", "b": "B"}, "annotations": {"a": "1", "b": "22"}}, "spec": {}},
     {"metadata": {"foo": "abc"}, "spec": {}},
     {"metadata": {"foo": "bar"}, "spec": {}},
     []),
    ("nil'ed labels and annotations",
     {"metadata": {"foo": "bar", "labels": {"a": "AA", "b": "B"}, "annotations": {"a": "1", "b": "22"}}, "spec": {}},
     {"metadata": {"foo": "abc", "labels": None, "annotations": None}, "spec": {}},
     {"metadata": {"foo": "bar"}, "spec": {}},
     []),
    # upstream repeats the name "added labels and annotations" for this case
    ("added labels and annotations (nil values)",
     {"metadata": {"foo": "bar"}, "spec": {}},
     {"metadata": {"foo": "abc", "labels": {"a": None, "b": "B"}, "annotations": {"a": None, "b": "22"}}, "spec": {}},
     {"metadata": {"foo": "bar"}, "spec": {}},
     ["metadata.labels[a] must be a string, but is <nil> in converted object"]),
    ("invalid label key",
     {"metadata": {}},
     {"metadata": {"labels": {"some/non-qualified/label": "x"}}},
     {"metadata": {}},
     [_BAD_LABEL_KEY]),
    # upstream's "invalid annotation key" case sends the same bad *label* key; kept as written
    ("invalid annotation key",
     {"metadata": {}},
     {"metadata": {"labels": {"some/non-qualified/label": "x"}}},
     {"metadata": {}},
     [_BAD_LABEL_KEY]),
    ("invalid label value",
     {"metadata": {}},
     {"metadata": {"labels": {"foo": "üäö"}}},
     {"metadata": {}},
     [_BAD_LABEL_VALUE]),
    ("too big label value",
     {"metadata": {}},
     {"metadata": {"labels": {"foo": "x" * 64}}},  # validation.LabelValueMaxLength+1
     {"metadata": {}},
     [f'metadata.labels: Invalid value: "{"x" * 64}": must be no more than 63 bytes']),
    ("too big annotation value",
     {"metadata": {}},
     {"metadata": {"annotations": {"foo": "x" * (256 * (1 << 10) + 1)}}},
     {"metadata": {}},
     ["metadata.annotation: Too long: may not be more than 262144 bytes"]),
]


@pytest.mark.parametrize(("name", "original", "converted", "expected", "errors"), RESTORE_CASES, ids=[c[0] for c in RESTORE_CASES])
def test_restore_object_meta(
    name: str, original: dict[str, Any], converted: dict[str, Any], expected: dict[str, Any], errors: list[str]
) -> None:
    original_before, converted_before = copy.deepcopy(original), copy.deepcopy(converted)
    restored, got_errors = restore_object_meta(original, converted)
    assert restored == expected
    assert got_errors == errors
    assert original == original_before and converted == converted_before  # neither argument is mutated


def test_restore_object_meta_keeps_unchanged_invalid_labels_and_reports_non_map_originals() -> None:
    # restoreObjectMeta validates only a map that changed: an unchanged (already stored) bad label passes.
    original = {"metadata": {"labels": {"a/b/c": "x"}}}
    restored, errors = restore_object_meta(original, {"metadata": {"labels": {"a/b/c": "x"}}})
    assert (restored, errors) == ({"metadata": {"labels": {"a/b/c": "x"}}}, [])
    restored, errors = restore_object_meta({"metadata": {"labels": "x"}}, {"metadata": {"labels": {}}})
    assert errors == ["invalid metadata.labels of type string in original object"]
    _, errors = restore_object_meta({"metadata": {}}, {"metadata": {"annotations": [1]}})
    assert errors == ["invalid metadata.annotations of type []interface {} in converted object"]
    _, errors = restore_object_meta({"metadata": None}, {"metadata": {}})
    assert errors == ["invalid metadata of type <nil> in input object"]


def test_aggregate_message_dedups_and_brackets() -> None:
    assert aggregate_message(["a"]) == "a"
    assert aggregate_message(["a", "b", "a"]) == "[a, b]"


# --- TestGetObjectsToConvert ---------------------------------------------------------------------------

V1 = {"apiVersion": "foo/v1", "kind": "Widget", "metadata": {"name": "myv1"}}
V2 = {"apiVersion": "foo/v2", "kind": "Widget", "metadata": {"name": "myv2"}}
V3 = {"apiVersion": "foo/v3", "kind": "Widget", "metadata": {"name": "myv3"}}


def _list(*items: dict[str, Any]) -> dict[str, Any]:
    return {"apiVersion": "foo/v1", "kind": "WidgetList", "items": list(items)}


@pytest.mark.parametrize(
    ("name", "obj", "expected"),
    [
        ("empty list", _list(), []),
        ("one-item list, in desired version", _list(V1), []),
        ("one-item list, not in desired version", _list(V2), [V2]),
        ("multi-item list, in desired version", _list(V1, V1, V1), []),
        ("multi-item list, mixed versions", _list(V1, V2, V3), [V2, V3]),
        ("single item, in desired version", V1, []),
        ("single item, not in desired version", V2, [V2]),
    ],
)
def test_objects_to_convert(name: str, obj: dict[str, Any], expected: list[dict[str, Any]]) -> None:
    assert objects_to_convert(obj, "foo/v1") == expected


def test_objects_to_convert_python_lists_and_group_version_normalisation() -> None:
    assert objects_to_convert([V1, V2], "foo/v1") == [V2]
    # a single object's apiVersion is compared after ParseGroupVersion + String(): "/v1" is "v1"
    assert objects_to_convert({"apiVersion": "/v1", "kind": "X"}, "v1") == []
    # list items are compared as strings
    assert objects_to_convert([{"apiVersion": "/v1", "kind": "X"}], "v1") == [{"apiVersion": "/v1", "kind": "X"}]


# --- TestCreateConversionReviewObjects ---------------------------------------------------------------------

REVIEW_OBJECTS = [{"apiVersion": "foo/v2", "Kind": "Widget"}]


def test_create_conversion_review_no_supported_versions() -> None:
    with pytest.raises(ConversionError, match="no supported conversion review versions"):
        create_conversion_review(["vx"], REVIEW_OBJECTS, "foo/v1", "uid")


@pytest.mark.parametrize(
    ("name", "versions", "review_version"),
    [("v1", ["v1", "v1beta1", "v2"], REVIEW_V1), ("v1beta1", ["v1beta1", "v1", "v2"], REVIEW_V1BETA1)],
)
def test_create_conversion_review(name: str, versions: list[str], review_version: str) -> None:
    got_version, request, response = create_conversion_review(versions, REVIEW_OBJECTS, "foo/v1", "uid")
    assert got_version == review_version
    # the typed review as the apiserver's codec serialises it: TypeMeta set by the encoder, the
    # empty Response it sends along ("uid" and "convertedObjects" have no omitempty; Status's
    # ListMeta is always written)
    assert request == {
        "kind": "ConversionReview",
        "apiVersion": review_version,
        "request": {"uid": "uid", "desiredAPIVersion": "foo/v1", "objects": REVIEW_OBJECTS},
        "response": {"uid": "", "convertedObjects": None, "result": {"metadata": {}}},
    }
    assert response == {}
    assert request["request"]["objects"][0] is not REVIEW_OBJECTS[0]


# --- TestGetConvertedObjectsFromResponse -------------------------------------------------------------------

WIDGET = {"apiVersion": "foo/v1", "kind": "Widget", "metadata": {"name": "myv1"}}
TM = {"apiVersion": "apiextensions.k8s.io/v1", "kind": "ConversionReview"}
SUCCESS = {"status": "Success"}

FROM_RESPONSE_CASES: list[tuple[str, str, Any, list[Any] | None, str]] = [
    ("nil response", REVIEW_V1, None, None, "unrecognized response type: <nil>"),
    ("unknown type", "example.com/v1", {}, None, "unrecognized response type: *unstructured.Unstructured"),
    ("minimal valid v1beta1", REVIEW_V1BETA1, {"response": {"result": SUCCESS}}, [], ""),
    ("valid v1beta1 with objects", REVIEW_V1BETA1, {"response": {"result": SUCCESS, "convertedObjects": [WIDGET]}},
     [WIDGET], ""),
    ("error v1beta1, empty status", REVIEW_V1BETA1, {"response": {"result": {"status": ""}}}, None,
     "response.result.status was '', not 'Success'"),
    ("error v1beta1, failure status", REVIEW_V1BETA1, {"response": {"result": {"status": "Failure"}}}, None,
     "response.result.status was 'Failure', not 'Success'"),
    ("error v1beta1, custom status", REVIEW_V1BETA1,
     {"response": {"result": {"status": "Failure", "message": "some failure message"}}}, None, "some failure message"),
    ("invalid v1beta1, no response", REVIEW_V1BETA1, {}, None, "no response provided"),
    ("minimal valid v1", REVIEW_V1, {**TM, "response": {"uid": "uid", "result": SUCCESS}}, [], ""),
    ("valid v1 with objects", REVIEW_V1,
     {**TM, "response": {"uid": "uid", "result": SUCCESS, "convertedObjects": [WIDGET]}}, [WIDGET], ""),
    ("invalid v1, no uid", REVIEW_V1, {**TM, "response": {"result": SUCCESS}}, None, 'expected response.uid="uid", got ""'),
    ("invalid v1, no apiVersion", REVIEW_V1, {"kind": "ConversionReview", "response": {"uid": "uid", "result": SUCCESS}},
     None, "expected webhook response of apiextensions.k8s.io/v1, Kind=ConversionReview, got /, Kind=ConversionReview"),
    ("invalid v1, no kind", REVIEW_V1, {"apiVersion": REVIEW_V1, "response": {"uid": "uid", "result": SUCCESS}},
     None, "expected webhook response of apiextensions.k8s.io/v1, Kind=ConversionReview, got apiextensions.k8s.io/v1, Kind="),
    ("invalid v1, mismatched apiVersion", REVIEW_V1,
     {"apiVersion": "apiextensions.k8s.io/v2", "kind": "ConversionReview", "response": {"uid": "uid", "result": SUCCESS}},
     None, "expected webhook response of apiextensions.k8s.io/v1, Kind=ConversionReview, got apiextensions.k8s.io/v2, Kind=ConversionReview"),
    ("invalid v1, mismatched kind", REVIEW_V1,
     {"apiVersion": REVIEW_V1, "kind": "ConversionReview2", "response": {"uid": "uid", "result": SUCCESS}},
     None, "expected webhook response of apiextensions.k8s.io/v1, Kind=ConversionReview, got apiextensions.k8s.io/v1, Kind=ConversionReview2"),
    ("error v1, empty status", REVIEW_V1, {**TM, "response": {"uid": "uid", "result": {"status": ""}}}, None,
     "response.result.status was '', not 'Success'"),
    ("error v1, failure status", REVIEW_V1, {**TM, "response": {"uid": "uid", "result": {"status": "Failure"}}}, None,
     "response.result.status was 'Failure', not 'Success'"),
    ("error v1, custom status", REVIEW_V1,
     {**TM, "response": {"uid": "uid", "result": {"status": "Failure", "message": "some failure message"}}}, None,
     "some failure message"),
    ("invalid v1, no response", REVIEW_V1, dict(TM), None, "no response provided"),
]


@pytest.mark.parametrize(
    ("name", "review_version", "response", "objects", "error"), FROM_RESPONSE_CASES, ids=[c[0] for c in FROM_RESPONSE_CASES]
)
def test_converted_objects_from_response(
    name: str, review_version: str, response: Any, objects: list[Any] | None, error: str
) -> None:
    if error:
        with pytest.raises(ConversionError) as info:
            converted_objects_from_response("uid", review_version, response)
        assert str(info.value) == error
        assert info.value.failure_type == "conversion_webhook_malformed_response_failure"
    else:
        assert converted_objects_from_response("uid", review_version, response) == objects


# --- validateConvertedObject and webhookConverter.Convert's checks ----------------------------------------

CRON_V2 = {
    "apiVersion": "stable.example.com/v2",
    "kind": "CronTab",
    "metadata": {"name": "a", "namespace": "ns", "uid": "u1", "resourceVersion": "7", "labels": {"x": "1"}},
    "spec": {"min": "*"},
}


def _answer(*objects: Any, uid: str = "req", review: str = REVIEW_V1) -> dict[str, Any]:
    return {"apiVersion": review, "kind": "ConversionReview",
            "response": {"uid": uid, "result": {"status": "Success"}, "convertedObjects": list(objects)}}


def _to_v1(obj: dict[str, Any], **meta: Any) -> dict[str, Any]:
    out = copy.deepcopy(obj)
    out["apiVersion"] = "stable.example.com/v1"
    out["spec"] = {"cronSpec": "* * * * *"}
    out["metadata"].update(meta)
    return out


def test_validate_converted_object_messages_in_upstream_order() -> None:
    assert validate_converted_object(CRON_V2, CRON_V2) is None
    assert validate_converted_object(CRON_V2, {**CRON_V2, "kind": "X"}) == "must have the same kind: CronTab != X"
    assert validate_converted_object(CRON_V2, _to_v1(CRON_V2, name="b")) == "must have the same name: a != b"
    assert validate_converted_object(CRON_V2, _to_v1(CRON_V2, namespace="n2")) == "must have the same namespace: ns != n2"
    assert validate_converted_object(CRON_V2, _to_v1(CRON_V2, uid="u2")) == "must have the same UID: u1 != u2"


def test_convert_from_response_restores_metadata_of_a_single_object() -> None:
    converted = _to_v1(CRON_V2, resourceVersion="99", generation=5, labels={"x": "2"})
    out = convert_from_response(CRON_V2, "stable.example.com/v1", REVIEW_V1, "req", _answer(converted))
    assert out["metadata"] == {**CRON_V2["metadata"], "labels": {"x": "2"}}
    assert out["spec"] == {"cronSpec": "* * * * *"} and out["apiVersion"] == "stable.example.com/v1"


@pytest.mark.parametrize(
    ("answer", "message"),
    [
        (_answer(), "conversion webhook for stable.example.com/v2, Kind=CronTab returned 0 objects, expected 1"),
        (_answer(uid="other"),
         'conversion webhook for stable.example.com/v2, Kind=CronTab failed: expected response.uid="req", got "other"'),
        (_answer(CRON_V2), "conversion webhook for stable.example.com/v2, Kind=CronTab returned invalid object at index 0: "
         "invalid groupVersion (expected stable.example.com/v1, received stable.example.com/v2)"),
        (_answer({**_to_v1(CRON_V2), "kind": "Foo"}), "conversion webhook for stable.example.com/v2, Kind=CronTab returned "
         "invalid object at index 0: invalid kind (expected CronTab, received Foo)"),
        (_answer(_to_v1(CRON_V2, name="b")),
         "conversion webhook for stable.example.com/v2, Kind=CronTab returned invalid object: must have the same name: a != b"),
        (_answer(_to_v1(CRON_V2, labels={"a/b/c": "x"})),
         "conversion webhook for stable.example.com/v2, Kind=CronTab returned invalid metadata: metadata.labels: "
         'Invalid value: "a/b/c": a valid label key'),
        (_answer({"apiVersion": "stable.example.com/v1"}), "Object 'Kind' is missing in '{\"apiVersion\":\"stable.example.com/v1\"}'"),
        (_answer("x"), "json: cannot unmarshal string into Go value of type map[string]interface {}"),
        (_answer(None), "unexpected end of JSON input"),
    ],
)
def test_convert_from_response_errors_of_a_single_object(answer: dict[str, Any], message: str) -> None:
    with pytest.raises(ConversionError) as info:
        convert_from_response(CRON_V2, "stable.example.com/v1", REVIEW_V1, "req", answer)
    assert str(info.value).startswith(message)


def test_convert_from_response_list_fills_the_sent_items_in_order() -> None:
    b = copy.deepcopy(CRON_V2)
    b["metadata"].update(name="b", uid="u2")
    at_v1 = _to_v1(copy.deepcopy(CRON_V2), name="c", uid="u3")
    lst = {"apiVersion": "stable.example.com/v2", "kind": "CronTabList", "items": [CRON_V2, at_v1, b]}
    answer = _answer(_to_v1(CRON_V2), _to_v1(b, name="b", uid="u2"))
    out = convert_from_response(lst, "stable.example.com/v1", REVIEW_V1, "req", answer)
    assert out["apiVersion"] == "stable.example.com/v1"
    assert [i["metadata"]["name"] for i in out["items"]] == ["a", "c", "b"]
    assert out["items"][1] == at_v1
    bad = _answer(_to_v1(CRON_V2), _to_v1(b, name="b", uid="u2", labels={"k": "ü"}))
    with pytest.raises(ConversionError) as info:
        convert_from_response(lst, "stable.example.com/v1", REVIEW_V1, "req", bad)
    assert str(info.value).startswith(
        "conversion webhook for stable.example.com/v2, Kind=CronTabList returned invalid metadata in object at index 1: "
    )
    swapped = _answer(_to_v1(b, name="b", uid="u2"), _to_v1(CRON_V2))
    with pytest.raises(ConversionError, match="returned invalid converted object at index 0: must have the same name: a != b"):
        convert_from_response(lst, "stable.example.com/v1", REVIEW_V1, "req", swapped)


def test_convert_from_response_shortcuts() -> None:
    # nothing to convert: the object as is; a list gets the desired apiVersion
    at_v1 = _to_v1(CRON_V2)
    assert convert_from_response(at_v1, "stable.example.com/v1", REVIEW_V1, "req", None) == at_v1
    lst = {"apiVersion": "stable.example.com/v2", "kind": "CronTabList", "items": [at_v1]}
    assert convert_from_response(lst, "stable.example.com/v1", REVIEW_V1, "req", None)["apiVersion"] == "stable.example.com/v1"
    # isEmptyUnstructuredObject: converted like the nop converter, the webhook is not asked
    empty = {"apiVersion": "stable.example.com/v2", "kind": "CronTab"}
    assert convert_from_response(empty, "stable.example.com/v1", REVIEW_V1, "req", None) == {
        "apiVersion": "stable.example.com/v1", "kind": "CronTab"}


# --- decoding the body (rest.Result.Into with the webhook client's LegacyCodec) ----------------------------


def test_decode_review_response_accepts_the_request_version_and_fills_nothing() -> None:
    body = json.dumps(_answer(WIDGET, review=REVIEW_V1BETA1)).encode()
    assert decode_review_response(body, REVIEW_V1BETA1)["response"]["convertedObjects"] == [WIDGET]
    # a missing apiVersion/kind is filled for decoding only; v1's GVK check then fails as upstream's test expects
    review = decode_review_response(json.dumps({"response": {"uid": "req"}}), REVIEW_V1)
    assert "apiVersion" not in review


@pytest.mark.parametrize(
    ("body", "version", "message"),
    [
        (b"not json", REVIEW_V1, "couldn't get version/kind; json parse error: "),
        (b"[]", REVIEW_V1, "couldn't get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct"),
        (json.dumps(_answer(review=REVIEW_V1BETA1)), REVIEW_V1,
         "converting (v1beta1.ConversionReview) to (v1.ConversionReview): unknown conversion"),
        (json.dumps({"apiVersion": REVIEW_V1, "kind": "AdmissionReview"}), REVIEW_V1,
         'no kind "AdmissionReview" is registered for version "apiextensions.k8s.io/v1" in scheme '
         '"k8s.io/apiserver/pkg/util/webhook/client.go:71"'),
        (json.dumps({**TM, "response": {"uid": 5}}), REVIEW_V1,
         "json: cannot unmarshal number into Go struct field ConversionResponse.response.uid of type types.UID"),
        (json.dumps({**TM, "response": {"convertedObjects": {}}}), REVIEW_V1,
         "json: cannot unmarshal object into Go struct field ConversionResponse.response.convertedObjects of type "
         "[]runtime.RawExtension"),
    ],
)
def test_decode_review_response_errors(body: Any, version: str, message: str) -> None:
    with pytest.raises(ConversionError) as info:
        decode_review_response(body, version)
    assert str(info.value).startswith(message)
    assert info.value.failure_type == "conversion_webhook_call_failure"


def test_convert_from_response_wraps_decoding_errors_like_the_call_failure() -> None:
    with pytest.raises(ConversionError) as info:
        convert_from_response(CRON_V2, "stable.example.com/v1", REVIEW_V1, "req", b'{"apiVersion": 1}')
    assert str(info.value).startswith("conversion webhook for stable.example.com/v2, Kind=CronTab failed: couldn't get version/kind")
