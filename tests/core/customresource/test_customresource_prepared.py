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


# --- issue #28: in-place changes deep in the CRD dict, against a fresh preparation ----------------------------

def _deep_crd() -> dict[str, Any]:
    return make_crd({
        "type": "object",
        "properties": {
            "a": {"type": "object", "properties": {
                "b": {"type": "object", "required": ["c"], "properties": {
                    "c": {"type": "integer", "minimum": 0, "maximum": 10, "default": 3},
                    "d": {"type": "string", "enum": ["x", "y"], "default": "x"},
                }},
            }},
            "l": {"type": "array", "items": {"type": "object", "properties": {"n": {"type": "integer", "maximum": 5}}}},
        },
    })


def _b(crd: dict[str, Any]) -> dict[str, Any]:
    spec = crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]
    return spec["properties"]["a"]["properties"]["b"]  # type: ignore[no-any-return]


def _n(crd: dict[str, Any]) -> dict[str, Any]:
    spec = crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]
    return spec["properties"]["l"]["items"]["properties"]["n"]  # type: ignore[no-any-return]


#: in-place changes at depth 8 to 12 of the CRD dict (argument: a small integer to vary them)
DEEP_CHANGES: list[Any] = [
    lambda c, i: _b(c)["properties"]["c"].__setitem__("maximum", i),
    lambda c, i: _b(c)["properties"]["c"].__setitem__("maximum", float(i)),
    lambda c, i: _b(c)["properties"]["c"].__setitem__("default", i),
    lambda c, i: _b(c)["properties"]["c"].__setitem__("type", "string" if i % 2 else "integer"),
    lambda c, i: _b(c)["properties"]["d"]["enum"].append(f"e{i}"),
    lambda c, i: _b(c)["properties"]["d"]["enum"].reverse(),
    lambda c, i: _b(c)["properties"]["d"]["enum"].__setitem__(0, "z" if i % 2 else "x"),
    lambda c, i: _b(c)["properties"]["d"]["enum"].pop() if len(_b(c)["properties"]["d"]["enum"]) > 1 else None,
    lambda c, i: _b(c)["required"].__setitem__(0, "d" if i % 2 else "c"),
    lambda c, i: _b(c)["properties"].__setitem__("c", _b(c)["properties"].pop("c")),  # key order
    lambda c, i: _b(c)["properties"]["d"].__setitem__("nullable", bool(i % 2)),
    lambda c, i: _b(c)["properties"].__setitem__("d", {**_b(c)["properties"]["d"], "maxLength": i}),
    lambda c, i: _n(c).__setitem__("maximum", i),
    lambda c, i: _n(c).__setitem__("minimum", True if i % 2 else 1),  # True == 1 in Python: a change
    lambda c, i: c["spec"]["versions"][0].__setitem__("served", bool(i % 3)),
    lambda c, i: None,
]


def _outcome(fn: Any) -> Any:
    try:
        return ("ok", repr(fn()))
    except CustomResourceError as exc:
        return ("error", exc.reason, str(exc))


def test_in_place_changes_at_depth_give_the_fresh_preparation_s_results() -> None:
    """Any sequence of in-place changes deep in the dict, each followed by plain-dict calls: the results are
    those of a fresh preparation of a deep copy (no memo), whichever way the memo checks the dict."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from crdtool.core.customresource.prepared import _prepare

    objects = [make_cr({"a": {"b": {"c": 11, "d": "z"}}, "l": [{"n": 7}]}), make_cr({"a": {"b": {}}}),
               make_cr({"a": {"b": {"c": "s", "d": None}}}), make_cr({})]

    @settings(max_examples=10, deadline=None)
    @given(st.lists(st.tuples(st.sampled_from(range(len(DEEP_CHANGES))), st.integers(0, 12)), min_size=1, max_size=6))
    def run(changes: list[tuple[int, int]]) -> None:
        crd = _deep_crd()
        for which, i in changes:
            DEEP_CHANGES[which](crd, i)
            fresh = _outcome(lambda: _prepare(copy.deepcopy(crd)))
            prepared = _prepare(copy.deepcopy(crd)) if fresh[0] == "ok" else None
            for obj in objects:
                if prepared is not None:
                    assert _outcome(lambda: validate_object(obj, crd)) == _outcome(lambda: validate_object(obj, prepared))
                    assert _outcome(lambda: default(obj, crd)) == _outcome(lambda: default(obj, prepared))
                else:
                    assert _outcome(lambda: validate_object(obj, crd)) == fresh

    run()
