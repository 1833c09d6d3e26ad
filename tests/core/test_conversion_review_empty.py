"""Empty lists and empty objects send nothing to a conversion webhook.

Upstream, apiextensions-apiserver v0.36.3: ``pkg/apiserver/conversion/webhook_converter_test.go``
``TestGetObjectsToConvert`` "empty list" (``&unstructured.UnstructuredList{}``: no objects, ``nil``);
``webhook_converter.go`` ``webhookConverter.Convert`` (``isEmptyUnstructuredObject``: an object with only
``apiVersion`` and ``kind`` goes to the ``nopConverter``, no review is sent; no objects to convert: a list
gets the desired apiVersion, an object is returned as is); apimachinery v0.36.3
``pkg/apis/meta/v1/unstructured/helpers.go`` ``unstructuredJSONScheme.decode`` (a list whenever ``items``
is present, ``null`` included: the detector's ``json.RawMessage`` keeps a ``null``).
"""

from __future__ import annotations

from typing import Any

import pytest

from crdtool.core.conversion_review import convert_from_response, objects_to_convert

DESIRED = "foo/v1"


@pytest.mark.parametrize(
    "empty",
    [
        {},  # UnstructuredList{}'s content
        [],
        {"apiVersion": "foo/v2", "kind": "WidgetList", "items": []},
        {"apiVersion": "foo/v2", "kind": "WidgetList", "items": None},  # YAML's bare `items:`
        {"apiVersion": "v1", "kind": "List", "items": None},
    ],
    ids=["UnstructuredList{}", "python list", "items []", "items null", "v1 List items null"],
)
def test_an_empty_list_sends_no_objects(empty: Any) -> None:
    assert objects_to_convert(empty, DESIRED) == []
    # nothing asked: the list comes back at the desired version, its (absent) items untouched
    out = convert_from_response(empty, DESIRED, "", "", None)
    if isinstance(empty, dict):
        assert out == {**empty, "apiVersion": DESIRED}
    else:
        assert out == []


def test_an_empty_object_goes_to_the_nop_converter() -> None:
    empty = {"apiVersion": "foo/v2", "kind": "Widget"}
    assert objects_to_convert(empty, DESIRED) == []
    assert convert_from_response(empty, DESIRED, "", "", None) == {"apiVersion": DESIRED, "kind": "Widget"}


def test_objects_with_more_than_type_meta_are_still_sent() -> None:
    obj = {"apiVersion": "foo/v2", "kind": "Widget", "metadata": {"name": "a"}}
    assert objects_to_convert(obj, DESIRED) == [obj]
    assert objects_to_convert({"kind": "WidgetList", "items": [obj]}, DESIRED) == [obj]
