"""fuzz-roundtrip compares objects as the apiserver returns them: metadata through ObjectMeta.

Upstream, apiextensions-apiserver v0.36.3 ``pkg/apiserver/customresource_handler.go``: conversions run inside the
``schemaCoercingConverter``, whose ``unstructuredSchemaCoercer.apply`` decodes ``metadata``
(``pkg/apiserver/schema/objectmeta/coerce.go`` ``GetObjectMetaWithOptions``) and writes it back
(``SetObjectMeta``: ``runtime.DefaultUnstructuredConverter.ToUnstructured(objectMeta)``), where apimachinery
v0.36.3 ``pkg/apis/meta/v1/types.go`` ``ObjectMeta`` tags ``labels``, ``annotations``, ``finalizers``,
``ownerReferences``, ``managedFields`` (and the strings and numbers) ``omitempty``: an empty one is no field.
``pkg/apiserver/conversion/webhook_converter.go`` ``restoreObjectMeta`` keeps the converted labels and
annotations (``{}`` included) and the original's other metadata.
"""

from __future__ import annotations

import copy
from typing import Any, Callable

import pytest

from crdtool.core.fuzz.properties import as_served, check_example, metadata_problems
from tests.core.test_fuzz_properties import WIDGET_VERSIONS, crontab, run_all_pairs
from tests.fuzz_converters import _base

SPEC = {"cronSpec": "* * * * */5", "image": "nginx", "replicas": 1}


def convert_setting(meta: dict[str, Any]) -> Callable[[dict[str, Any], str], dict[str, Any]]:
    def convert(obj: dict[str, Any], desired: str) -> dict[str, Any]:
        out = _base.convert(obj, desired)
        for key, empty in meta.items():  # leaves an empty map or list where the object has none
            if not out["metadata"].get(key):
                out["metadata"][key] = copy.deepcopy(empty)
        return out

    return convert


EMPTY = {
    "annotations": {"annotations": {}},
    "labels": {"labels": {}},
    "finalizers": {"finalizers": []},
    "ownerReferences": {"ownerReferences": []},
    "managedFields": {"managedFields": []},
    "all of them": {"annotations": {}, "labels": {}, "finalizers": [], "ownerReferences": [], "managedFields": []},
}


@pytest.mark.parametrize("meta", EMPTY.values(), ids=EMPTY.keys())
def test_empty_metadata_maps_and_lists_are_no_difference(meta: dict[str, Any]) -> None:
    # every ordered pair, A = B included: "unchanged", "metadata" and "roundtrip" all hold
    results = run_all_pairs(convert_setting(meta), WIDGET_VERSIONS, examples=30, seed=3, same_first=True)
    assert len(results) == 4
    assert [r.failure for r in results] == [None] * 4


def test_a_non_empty_annotation_is_still_a_difference() -> None:
    v1 = WIDGET_VERSIONS[0]
    obj = {"apiVersion": v1.api_version, "kind": v1.kind, "metadata": {"name": "a", "namespace": "default"}}
    failure = check_example(convert_setting({"annotations": {"a": "b"}}), obj, v1, v1, timeout=None)
    assert failure is not None and failure.property == "unchanged"
    assert "annotations" in failure.diff
    assert check_example(convert_setting({"annotations": {}}), obj, v1, v1, timeout=None) is None


def test_as_served_drops_what_object_meta_omits() -> None:
    obj = crontab("v1", SPEC, annotations={}, labels={}, finalizers=[], ownerReferences=[], managedFields=[],
                  generateName="", bogus=1)
    served = as_served(obj)
    assert served["metadata"] == crontab("v1")["metadata"]
    assert served["spec"] == SPEC
    # not ObjectMeta (unknown fields, wrong types): left as it is
    assert as_served({"metadata": {"labels": "x"}}) == {"metadata": {"labels": "x"}}


def test_metadata_property_compares_object_meta_fields_as_served() -> None:
    before = crontab("v1")
    after = crontab("v2", finalizers=[], ownerReferences=[])
    assert metadata_problems(before, after, "stable.example.com/v2") == []
    after = crontab("v2", finalizers=["x/y"])
    assert metadata_problems(before, after, "stable.example.com/v2") == [
        'metadata.finalizers changed from absent to ["x/y"] (the apiserver silently restores it)'
    ]
