"""The CEL validator tree compiles a node's rules when a value first reaches it (``_Node.rules``), or all of
them at once (``compile_tree``, as upstream's ``NewValidator`` does while building the tree): the same errors,
warnings and skipped transition rules either way, creates and updates, on several releases."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from crdtool.core.crdcel.compilation import _COMPILED
from crdtool.core.crdcel.validation import _validator, compile_tree, validate_cel
from crdtool.core.releases import resolve_release
from crdtool.core.schema.structural import new_structural

SCHEMA: dict[str, Any] = {
    "type": "object",
    "x-kubernetes-validations": [{"rule": "!has(self.spec.a) || self.spec.a.size() < 5", "message": "root"}],
    "properties": {
        "spec": {
            "type": "object",
            "x-kubernetes-validations": [
                {"rule": "!has(self.a) || self.a != 'bad'", "messageExpression": "'a is ' + self.a"},
                {"rule": "self.nope == 1"},  # a compile error: reported where a value reaches it
                {"rule": "!has(self.a) || !has(oldSelf.a) || self.a == oldSelf.a", "message": "immutable"},
            ],
            "properties": {
                "a": {"type": "string", "maxLength": 64},
                "b": {
                    "type": "object",
                    "properties": {"x": {"type": "integer"}},
                    "x-kubernetes-validations": [{"rule": "self.x != 3", "fieldPath": ".x"}],
                },
                "c": {
                    "type": "array", "maxItems": 10,
                    "items": {"type": "string", "maxLength": 10, "x-kubernetes-validations": [{"rule": "self != 'z'"}]},
                },
                "d": {
                    "type": "object", "maxProperties": 4,
                    "additionalProperties": {"type": "integer", "x-kubernetes-validations": [
                        {"rule": "self >= 0", "reason": "FieldValueForbidden"},
                        {"rule": "!oldSelf.hasValue() || self >= oldSelf.value()", "optionalOldSelf": True}]},
                },
            },
        },
    },
}

OBJECTS: list[dict[str, Any]] = [
    {"spec": {}},
    {"spec": {"a": "bad"}},
    {"spec": {"a": "longer", "b": {"x": 0}}},
    {"spec": {"a": "ok", "b": {"x": 3}, "c": ["y", "z"], "d": {"k": -1}}},
    {"spec": {"c": ["z"]}},
    {"spec": {"d": {"k": 2, "l": -3}}},
]


def _outcome(result: Any) -> tuple[Any, ...]:
    return (
        [(e.type, str(e.field), e.detail) for e in result.errors],
        repr(getattr(result, "warnings", None)),
        repr(getattr(result, "skipped_transition_rules", None)),
    )


def _run(ss: Any, obj: Any, old: Any, release: Any) -> tuple[Any, ...]:
    return _outcome(validate_cel(copy.deepcopy(obj), ss, None, old_obj=copy.deepcopy(old), release=release))


@pytest.mark.parametrize("minor", [30, 33, 37])
def test_lazy_and_whole_trees_judge_alike(minor: int) -> None:
    release = resolve_release(f"1.{minor}")
    _COMPILED.clear()
    lazy = new_structural(copy.deepcopy(SCHEMA))
    whole = new_structural(copy.deepcopy(SCHEMA))
    compile_tree(_validator(whole, True, release=release))
    pairs = [(o, None) for o in OBJECTS] + [(o, p) for o in OBJECTS for p in OBJECTS]
    seen = set()
    for obj, old in pairs:
        got = _run(lazy, obj, old, release)
        assert got == _run(whole, obj, old, release), (obj, old)
        seen.update(e[2] for e in got[0])
    # the cases reach every kind of outcome: a message expression, a compile error, a transition rule, a reason
    assert {"a is bad", "immutable"} <= seen
    assert any("compile" in d for d in seen)


def _nodes(tree: Any) -> dict[str, Any]:
    spec = tree.properties["spec"]
    return {"": tree, "spec": spec, "b": spec.properties["b"], "c[]": spec.properties["c"].items,
            "d{}": spec.properties["d"].additional}


def test_only_the_nodes_reached_are_compiled() -> None:
    release = resolve_release("1.37")
    ss = new_structural(copy.deepcopy(SCHEMA))
    nodes = _nodes(_validator(ss, True, release=release))
    assert all(n.source is not None for n in nodes.values())  # nothing compiled by building the tree
    validate_cel({"spec": {"a": "x", "b": {"x": 1}}}, ss, None, release=release)
    assert {k for k, n in nodes.items() if n.source is None} == {"", "spec", "b"}
    assert len(nodes["b"].rules) == 1 and nodes["b"].rules[0].program is not None
    compile_tree(nodes[""])
    assert all(n.source is None for n in nodes.values())
    assert nodes["spec"].rules[1].error and nodes["spec"].with_old_self
    assert not nodes["c[]"].with_old_self and nodes["d{}"].with_old_self


def test_values_that_reach_no_rule_compile_nothing() -> None:
    release = resolve_release("1.37")
    schema = copy.deepcopy(SCHEMA)
    del schema["x-kubernetes-validations"]
    ss = new_structural(schema)
    assert validate_cel({"other": 1}, ss, None, release=release).errors == []
    spec = _validator(ss, True, release=release).properties["spec"]
    assert spec.source is not None and spec.properties["b"].source is not None
