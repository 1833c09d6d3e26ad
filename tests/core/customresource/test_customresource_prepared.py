"""The prepared form of a CRD (``prepare_crd``) and how plain-dict calls reuse it.

``prepare_crd`` compiles everything once (structural schemas, the serving
schema with pruned defaults, compiled value validation and defaulting, the
CEL validator tree). ``validate_object(obj, crd_dict)`` and
``default(obj, crd_dict)`` reuse a preparation of the same dict, but never
when the dict changed in any way a fresh preparation could see (values,
types such as ``1``/``1.0``/``true``, key order), and the prepared form never
shares anything with the caller's dict.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from crdtool.core.customresource import (
    CustomResourceError,
    PreparedCrd,
    apply_create,
    default,
    prepare_crd,
    validate_object,
)
from tests.core.customresource.test_customresource import make_cr, make_crd


@pytest.fixture(autouse=True, params=["c-walk", "version-walk", "marshal"])
def snapshot_way(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Every test three times: with the memo's C identity walk (when this install has it: see test_snapshot.py),
    with the pure-Python dict-version walk (CPython 3.11) and with marshal."""
    from crdtool.core import snapshot
    from crdtool.core.content_memo import ContentMemo
    from crdtool.core.customresource import prepared

    monkeypatch.setattr(prepared, "_PREPARED", prepared._PreparedMemo())  # an empty memo
    monkeypatch.setattr(prepared, "_BY_CONTENT", ContentMemo(8))
    if request.param != "c-walk":
        monkeypatch.setattr(snapshot, "_WALK", None)
    if request.param == "marshal":
        monkeypatch.setattr(snapshot, "_VIEWS_OF", [None])
    return str(request.param)


def spec_crd() -> dict[str, Any]:
    return make_crd({
        "type": "object",
        "properties": {
            "replicas": {"type": "integer", "minimum": 1, "maximum": 5},
            "mode": {"type": "string", "enum": ["a", "b"]},
            "size": {"type": "string", "default": "small"},
            "tier": {"type": "string", "default": "gold"},
        },
    })


def test_a_plain_dict_is_prepared_once_while_it_does_not_change() -> None:
    crd = spec_crd()
    first = prepare_crd(crd)
    assert isinstance(first, PreparedCrd)
    assert prepare_crd(crd) is first
    assert validate_object(make_cr({"replicas": 9}), crd) == validate_object(make_cr({"replicas": 9}), first)
    assert prepare_crd(crd) is first
    assert prepare_crd(copy.deepcopy(crd)) is first  # another dict with the same JSON: found by its content
    other = copy.deepcopy(crd)
    other["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"]["size"][
        "default"] = "large"
    assert prepare_crd(other) is not first
    assert default(make_cr({}), other)["spec"]["size"] == "large"
    assert default(make_cr({}), crd)["spec"]["size"] == "small"


@pytest.mark.parametrize(
    "change, obj, before, after",
    [
        # a value
        (lambda c: c["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"]
         ["replicas"].__setitem__("maximum", 10), make_cr({"replicas": 9}), 1, 0),
        # a list grows
        (lambda c: c["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"]
         ["mode"]["enum"].append("c"), make_cr({"mode": "c"}), 1, 0),
        # another bound, which kube-openapi also refuses for an integer
        (lambda c: c["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"]
         ["replicas"].__setitem__("maximum", 5.5), make_cr({"replicas": 9}), 1, 2),
    ],
)
def test_a_changed_dict_is_prepared_again(change: Any, obj: dict[str, Any], before: int, after: int) -> None:
    crd = spec_crd()
    first = prepare_crd(crd)
    assert len(validate_object(obj, crd)) == before
    change(crd)
    assert prepare_crd(crd) is not first
    assert len(validate_object(obj, crd)) == after
    assert validate_object(obj, crd) == validate_object(obj, prepare_crd(copy.deepcopy(crd)))


def test_types_that_compare_equal_in_python_are_changes() -> None:
    crd = spec_crd()
    replicas = crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"]["replicas"]
    first = prepare_crd(crd)
    replicas["maximum"] = 5.0  # == 5 in Python, but the apiserver's message prints it as a float
    second = prepare_crd(crd)
    assert second is not first
    assert [e.detail for e in validate_object(make_cr({"replicas": 9}), crd)] == [
        e.detail for e in validate_object(make_cr({"replicas": 9}), copy.deepcopy(crd))
    ]
    crd["spec"]["versions"][0]["served"] = 1  # == True in Python; not a bool to the decoder
    with pytest.raises(CustomResourceError, match="cannot unmarshal number"):
        prepare_crd(crd)


def test_key_order_is_a_change() -> None:
    crd = spec_crd()
    props = crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"]
    assert list(default(make_cr({}), crd)["spec"]) == ["size", "tier"]
    reordered = dict(reversed(list(props.items())))
    props.clear()
    props.update(reordered)
    assert list(default(make_cr({}), crd)["spec"]) == ["tier", "size"]  # defaults are added in schema order


def test_data_marshal_cannot_hold_is_prepared_on_every_call() -> None:
    class Name(str):
        pass

    crd = spec_crd()
    crd["spec"]["names"]["kind"] = Name("Foo")
    assert prepare_crd(crd) is not prepare_crd(crd)
    assert validate_object(make_cr({"replicas": 9}), crd)[0].field == "spec.replicas"


def test_the_prepared_form_shares_nothing_with_the_dict() -> None:
    crd = spec_crd()
    prepared = prepare_crd(crd)
    schema = crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]
    schema["properties"]["spec"]["properties"]["replicas"]["maximum"] = 100
    schema["properties"]["spec"]["properties"]["size"]["default"] = "large"
    assert len(validate_object(make_cr({"replicas": 9}), prepared)) == 1
    assert apply_create(make_cr({}), prepared).stored["spec"]["size"] == "small"
    explicit = prepare_crd(copy.deepcopy(spec_crd()))
    ver = explicit.version("v1")
    assert ver is not None and ver.schema is not None
    assert ver.schema is not spec_crd()["spec"]["versions"][0]["schema"]["openAPIV3Schema"]


def test_the_prepared_version_holds_its_compiled_forms() -> None:
    crd = make_crd({"type": "object", "x-kubernetes-validations": [{"rule": "self.a == 1"}],
                    "properties": {"a": {"type": "integer", "default": 1}}})
    prepared = prepare_crd(crd)
    ver = prepared.version("v1")
    assert ver is not None
    assert ver.validator is not None and ver.defaulter is not None and ver.cel_validator is not None
    assert ver.defaulter({"spec": {}}) == {"spec": {"a": 1}}
    assert validate_object(make_cr({"a": 2}), prepared)[0].detail == "failed rule: self.a == 1"
    assert ver.cel_validator.get() is not None  # built by the first validation, then kept


def test_results_through_the_prepared_form_and_the_dict_are_the_same() -> None:
    crd = spec_crd()
    for spec in ({"replicas": 0}, {"mode": "z", "replicas": 3}, {}, {"size": None}):
        obj = make_cr(spec)
        assert validate_object(obj, crd) == validate_object(obj, prepare_crd(copy.deepcopy(crd)))
        assert default(obj, crd) == default(obj, prepare_crd(copy.deepcopy(crd)))
