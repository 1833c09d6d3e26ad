"""crdtool.yaml.edit: minimal, comment-preserving text edits of YAML documents.

Every rewrite is checked twice: the exact expected text (what survives, where
new lines go, in which style) and that the text re-reads, with go-yaml
semantics (crdtool.yaml.loader), as the new data.
"""

from __future__ import annotations

import copy
import json
import string
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from crdtool.yaml import edit as Y
from crdtool.yaml.loader import Document, load_documents


def data_of(text: str) -> Any:
    items = load_documents(text, "t.yaml")
    assert len(items) == 1 and isinstance(items[0], Document), items
    return items[0].data


def rewrite(text: str, new: Any) -> Y.Rewrite:
    result = Y.rewrite_document(text, data_of(text), new)
    assert Y.same(data_of(result.text), new), result.text
    return result


def edited(text: str, change: Any) -> Y.Rewrite:
    """Rewrite ``text`` to its data after ``change(data)`` (which mutates a copy)."""
    new = copy.deepcopy(data_of(text))
    change(new)
    return rewrite(text, new)


# --------------------------------------------------------------------------
# split_documents


@pytest.mark.parametrize(
    "text",
    [
        "",
        "a: 1\n",
        "---\na: 1\n",
        "# head\n---\na: 1\n---\nb: 2\n",
        "a: 1\n--- # second\nb: 2\n---\n",
        "a: 1\n---\n---\nb: 2",
        "a: |\n  ---\n  text\n",  # indented: not a separator
    ],
)
def test_split_documents_chunks_join_back_to_the_stream(text: str) -> None:
    spans = Y.split_documents(text)
    assert "".join(text[s.start:s.end] for s in spans) == text
    assert [s.index for s in spans] == list(range(len(spans)))
    for s in spans:
        assert s.line == text.count("\n", 0, s.start) + 1


def test_split_documents_splits_where_kubectl_does() -> None:
    text = "# head\n---\na: 1\n--- # c\nb: 2\n---\n"
    chunks = [text[s.start:s.end] for s in Y.split_documents(text)]
    assert chunks == ["# head\n", "---\na: 1\n", "--- # c\nb: 2\n", "---\n"]
    assert [s.line for s in Y.split_documents(text)] == [1, 2, 4, 6]


# --------------------------------------------------------------------------
# parse_tree


def test_parse_tree_spans() -> None:
    text = "a: 'x'  # c\nb:\n  - 1\n  -   k: v\n      l: w\nd: |\n  text\n\n\ne: [1, 2]\n"
    root = Y.parse_tree(text)
    assert root is not None and root.kind == "map" and not root.flow
    spans = {k.value: text[v.start:v.end] for k, v in root.entries}
    assert spans == {"a": "'x'", "b": "- 1\n  -   k: v\n      l: w", "d": "|\n  text", "e": "[1, 2]"}
    seq = root.entries[1][1]
    assert seq.dashes == [text.index("- 1"), text.index("-   k")]
    assert root.entries[0][1].style == "'"


def test_parse_tree_marks_anchors_aliases_and_merge_keys() -> None:
    text = "a: &x {k: v}\nb: *x\nc:\n  <<: *x\n  z: 1\nd: plain\n"
    root = Y.parse_tree(text)
    assert root is not None and root.refs
    values = {k.value: v for k, v in root.entries}
    assert values["a"].anchor == "x" and values["b"].kind == "alias"
    assert values["c"].merge and not values["d"].refs


def test_parse_tree_syntax_error_has_position() -> None:
    with pytest.raises(Y.YamlSyntaxError) as info:
        Y.parse_tree("a: 1\nb: [1, 2\n")
    assert info.value.line >= 2 and info.value.message.startswith("yaml: ")


def test_parse_tree_empty_document() -> None:
    assert Y.parse_tree("# only a comment\n") is None


def test_parse_tree_deep_nesting_does_not_recurse() -> None:
    text = "a: " + "[" * 5000 + "]" * 5000 + "\n"
    root = Y.parse_tree(text)
    assert root is not None and root.entries[0][1].flow


# --------------------------------------------------------------------------
# guess_style


def test_guess_style_four_spaces_and_indented_sequences() -> None:
    text = 'a:\n    b:\n        c: "x"\n    l:\n      - k: 1\n        j: 2\n'
    assert Y.guess_style(text, Y.parse_tree(text)) == Y.DocStyle(indent=4, seq_offset=2, item_indent=2, quote='"')


def test_guess_style_go_yaml_defaults() -> None:
    text = "a:\n  b: 1\n  l:\n  - x\n"
    assert Y.guess_style(text, Y.parse_tree(text)) == Y.DocStyle(indent=2, seq_offset=0, item_indent=2, quote="'")


# --------------------------------------------------------------------------
# scalars


NON_STRINGS = ["yes", "No", "on", "OFF", "y", "n", "true", "False", "null", "~", "", "1", "-1", "0x1F", "0o17",
               "017", "1_000", ".5", "1e3", "1.", ".inf", "-.Inf", ".NaN", "2001-12-14", "<<", "="]
TRICKY = ["- item", "? q", ": x", "a: b", "a #b", "#c", "@x", "`x", "%x", "&a", "*a", "!t", "|", ">", "'q", '"q',
          "{a}", "[a]", " lead", "trail ", "tab\tin", "two\nlines", "cr\rx", "nel\x85x", "bom\ufeffx", "bell\x07",
          "é ünïcode", "x: ", "x:", "a, b", "\u2028"]


@pytest.mark.parametrize("s", NON_STRINGS + TRICKY)
def test_format_scalar_strings_read_back_as_strings(s: str) -> None:
    for quote in ("'", '"'):
        text = f"k: {Y.format_scalar(s, quote)}\n"
        assert data_of(text) == {"k": s}, text
        flow = f"k: [{Y.format_scalar(s, quote, flow=True)}]\n"
        assert data_of(flow) == {"k": [s]}, flow


@pytest.mark.parametrize("s", NON_STRINGS)
def test_strings_that_look_like_other_types_are_quoted(s: str) -> None:
    assert not Y.plain_safe(s)
    assert Y.format_scalar(s, "'")[0] == "'"


def test_format_scalar_keeps_the_replaced_scalars_quotes() -> None:
    assert Y.format_scalar("v1", keep='"') == '"v1"'
    assert Y.format_scalar("v1", keep="'") == "'v1'"
    assert Y.format_scalar("v1", keep="") == "v1"
    assert Y.format_scalar("it's", keep="'") == "'it''s'"


@pytest.mark.parametrize(
    "value, text",
    [(None, "null"), (True, "true"), (False, "false"), (7, "7"), (-3, "-3"), (1.5, "1.5"), (1.0, "1"),
     (1e300, "1e+300"), ({}, "{}"), ([], "[]"), ("v1", "v1"), (".spec.replicas", ".spec.replicas")],
)
def test_format_scalar_json_values(value: Any, text: str) -> None:
    assert Y.format_scalar(value) == text
    assert Y.same(data_of(f"k: {text}\n")["k"], value)


def test_yaml_1_2_reads_quoted_strings_back_too() -> None:
    ruamel = pytest.importorskip("ruamel.yaml")
    yaml = ruamel.YAML(typ="safe", pure=True)
    for s in NON_STRINGS + TRICKY:
        assert yaml.load(f"k: {Y.format_scalar(s)}\n") == {"k": s}, s


JSON_SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(2**63), max_value=2**63 - 1),
    st.floats(allow_nan=False, allow_infinity=False, width=64), st.text(max_size=20),
)
KEYS = st.text(min_size=1, max_size=8)
JSON_VALUES = st.recursive(
    JSON_SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(KEYS, inner, max_size=4)),
    max_leaves=25,
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=30))
def test_any_string_round_trips_through_format_scalar(s: str) -> None:
    try:
        s.encode("utf-8")
    except UnicodeEncodeError:
        return  # lone surrogates cannot be written to a UTF-8 file at all
    assert data_of(f"k: {Y.format_scalar(s)}\n") == {"k": s}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(KEYS, JSON_VALUES, min_size=1, max_size=5), st.sampled_from([(2, 0), (4, 2), (3, 3)]))
def test_emit_block_round_trips(value: dict[str, Any], layout: tuple[int, int]) -> None:
    if not _utf8(value):
        return
    style = Y.DocStyle(indent=layout[0], seq_offset=layout[1])
    text = "\n".join(Y.emit_block(value, 0, style)) + "\n"
    assert Y.same(data_of(text), value), text


def _utf8(value: Any) -> bool:
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def test_emit_block_multiline_strings_as_literal_blocks() -> None:
    value = {"a": "one\ntwo\n", "b": "x\ny", "c": "keep\n\n", "l": ["p\nq\n"]}
    text = "\n".join(Y.emit_block(value)) + "\n"
    assert text == "a: |\n  one\n  two\nb: |-\n  x\n  y\nc: |+\n  keep\n\nl:\n- |\n  p\n  q\n"
    assert data_of(text) == value


def test_emit_block_strings_a_literal_block_cannot_hold_are_double_quoted() -> None:
    value = {"a": " lead\nx", "b": "trail \n  \nx"}
    text = "\n".join(Y.emit_block(value)) + "\n"
    assert text == 'a: " lead\\nx"\nb: "trail \\n  \\nx"\n'


# --------------------------------------------------------------------------
# values


def test_same_is_json_equality() -> None:
    assert Y.same({"a": [1, 2.0]}, {"a": [1.0, 2]})
    assert not Y.same({"a": True}, {"a": 1})
    assert not Y.same([0], [False])
    assert not Y.same({"a": 1}, {"a": 1, "b": None})


def test_order_like_keeps_old_order_and_places_new_keys_after_their_predecessor() -> None:
    old = {"b": 1, "a": {"y": 1, "x": 2}, "c": 3}
    new = {"a": {"x": 2, "n": 0, "y": 1}, "z": 9, "b": 1}
    out = Y.order_like(old, new)
    assert list(out) == ["b", "a", "z"]
    assert list(out["a"]) == ["y", "x", "n"]
    assert out == new


# --------------------------------------------------------------------------
# rewrite_document: what is kept


def test_unchanged_data_is_byte_for_byte() -> None:
    text = "a:   1   # odd\nb: 'q'\n"
    result = Y.rewrite_document(text, data_of(text), {"a": 1, "b": "q"})
    assert result.text == text and result.method == "unchanged"


def test_changed_scalar_keeps_quotes_and_comment() -> None:
    text = 'apiVersion: "apiextensions.k8s.io/v1beta1"   # old\nkind: X\n'
    out = edited(text, lambda d: d.update(apiVersion="apiextensions.k8s.io/v1"))
    assert out.text == 'apiVersion: "apiextensions.k8s.io/v1"   # old\nkind: X\n'
    assert out.method == "patched"


def test_folded_long_lines_elsewhere_are_untouched() -> None:
    text = (
        "a: old\n"
        "description: a long plain scalar that a\n"
        "  generator folded over two lines\n"
        "b: |\n  literal\n"
    )
    out = edited(text, lambda d: d.update(a="new"))
    assert out.text == text.replace("a: old", "a: new")


def test_deleted_key_takes_its_comment_lines_and_deeper_trailing_comments() -> None:
    text = (
        "spec:\n"
        "  group: g\n"
        "  # about the version\n"
        "  version: v1   # inline\n"
        "  validation:\n"
        "    x: 1\n"
        "    # end of validation\n"
        "  # about names\n"
        "  names: {}\n"
    )
    out = edited(text, lambda d: (d["spec"].pop("version"), d["spec"].pop("validation")))
    assert out.text == "spec:\n  group: g\n  # about names\n  names: {}\n"


def test_deletion_does_not_leave_two_blank_lines() -> None:
    text = "a: 1\n\nb: 2\n\nc: 3\n"
    assert edited(text, lambda d: d.pop("b")).text == "a: 1\n\nc: 3\n"


def test_case_rename_happens_in_place() -> None:
    text = "cols:\n- name: Age   # first\n  JSONPath: .metadata.creationTimestamp   # when\n  type: date\n"
    out = edited(text, lambda d: d["cols"][0].update(jsonPath=d["cols"][0].pop("JSONPath")))
    assert out.text == text.replace("JSONPath", "jsonPath")


def test_rename_of_a_compact_items_first_key() -> None:
    text = "cols:\n- JSONPath: .a\n  name: A\n"
    out = edited(text, lambda d: d["cols"][0].update(jsonPath=d["cols"][0].pop("JSONPath")))
    assert out.text == "cols:\n- jsonPath: .a\n  name: A\n"


def test_new_keys_follow_their_predecessor_in_the_documents_indentation() -> None:
    text = "spec:\n    group: g\n    scope: S\n"
    new = {"spec": {"group": "g", "names": {"kind": "K", "short": ["k"]}, "scope": "S"}}
    out = rewrite(text, new)
    assert out.text == "spec:\n    group: g\n    names:\n        kind: K\n        short:\n        - k\n    scope: S\n"


def test_new_key_before_every_existing_key() -> None:
    text = "m:\n  # about b\n  b: 1\n"
    out = rewrite(text, {"m": {"a": 0, "b": 1}})
    assert out.text == "m:\n  a: 0\n  # about b\n  b: 1\n"


def test_new_keys_at_the_end_of_a_document_without_final_newline() -> None:
    text = "a:\n  b: 1"
    out = rewrite(text, {"a": {"b": 1, "c": 2}, "d": 3})
    assert out.text == "a:\n  b: 1\n  c: 2\nd: 3"


def test_inner_insertions_come_before_outer_ones_at_the_same_place() -> None:
    text = "spec:\n  scope: S\n"
    out = rewrite(text, {"spec": {"scope": "S", "x": 1}, "status": {"z": 2}})
    assert out.text == "spec:\n  scope: S\n  x: 1\nstatus:\n  z: 2\n"


def test_deleting_the_first_key_of_a_compact_item_pulls_the_next_up() -> None:
    text = "l:\n- a: 1\n  # about b\n  b: 2\n  c: 3\n"
    out = edited(text, lambda d: d["l"][0].pop("a"))
    assert out.text == "l:\n- b: 2\n  c: 3\n"


def test_a_new_first_key_takes_the_place_of_a_deleted_compact_first_key() -> None:
    # found by test_random_edits_are_text_patches_that_re_read_exactly: the new key went in at the start of the
    # pulled-up survivor's old line, which the deletion had removed, and the patch fell back to regenerating
    text = "# header comment\nA:\n- - '00': null\n    '000': null\n"
    out = rewrite(text, {"A": [[{"0": None, "000": None}]]})
    assert (out.method, out.text) == ("patched", "# header comment\nA:\n- - '0': null\n    '000': null\n")
    out = rewrite("l:\n- a: 1\n  b: 2\n", {"l": [{"x": {"w": 1}, "z": 2, "b": 2}]})
    assert (out.method, out.text) == ("patched", "l:\n- x:\n    w: 1\n  z: 2\n  b: 2\n")


def test_sequence_items_inserted_and_deleted() -> None:
    text = "l:\n# one\n- name: one\n# two\n- name: two\n- name: three\n"
    out = rewrite(text, {"l": [{"name": "zero"}, {"name": "one"}, {"name": "three"}, {"name": "four"}]})
    assert out.text == "l:\n- name: zero\n# one\n- name: one\n- name: three\n- name: four\n"


def test_flow_collections_are_replaced_in_flow_style() -> None:
    text = "s: {status: {}}   # flow\nl: [a, b]\n"
    out = rewrite(text, {"s": {"status": {}, "scale": {"specReplicasPath": ".spec.r"}}, "l": ["a", "b", "c"]})
    assert out.text == "s: {status: {}, scale: {specReplicasPath: .spec.r}}   # flow\nl: [a, b, c]\n"


# issue 27, repro 10: a flow-style document was rewritten whole (as JSON) when a key was added deep inside it
FLOW = """\
# my comment
{apiVersion: v1, kind: K, spec: {hosts: {type: array, items: {type: string},
    x-kubernetes-validations: [{rule: 'self.all(h, h.size() < 9)'}]}, count: 1},
  list: [{a: 1}, {b: 2}]}
"""


def test_a_flow_document_is_patched_inside_keeping_its_layout() -> None:
    def change(d: Any) -> None:
        d["spec"]["hosts"]["maxItems"] = 1675
        d["spec"]["hosts"]["items"]["maxLength"] = 1675
        d["spec"]["count"] = 2
        d["list"][1]["b"] = 3

    out = edited(FLOW, change)
    assert out.method == "patched"
    assert out.text == """\
# my comment
{apiVersion: v1, kind: K, spec: {hosts: {type: array, items: {type: string, maxLength: 1675},
    x-kubernetes-validations: [{rule: 'self.all(h, h.size() < 9)'}], maxItems: 1675}, count: 2},
  list: [{a: 1}, {b: 3}]}
"""


def test_a_json_document_stays_json_with_its_layout() -> None:
    text = '{\n  "a": {\n    "type": "string"\n  },\n  "b": [1, 2],\n  "c": {"x": "y", "z": 1}\n}\n'

    def change(d: Any) -> None:
        d["a"]["maxLength"] = 5
        d["b"][1] = "two"
        d["c"]["w"] = {"k": [True]}

    out = edited(text, change)
    assert json.loads(out.text) == {"a": {"type": "string", "maxLength": 5}, "b": [1, "two"],
                                    "c": {"x": "y", "z": 1, "w": {"k": [True]}}}
    assert out.text == ('{\n  "a": {\n    "type": "string",\n    "maxLength": 5\n  },\n  "b": [1, "two"],\n'
                        '  "c": {"x": "y", "z": 1, "w": {"k": [true]}}\n}\n')


def test_a_flow_mapping_losing_a_key_is_still_replaced_whole() -> None:
    out = edited("s: {a: 1, b: 2}\n", lambda d: d["s"].pop("a"))
    assert out.text == "s: {b: 2}\n"


def test_scalar_replaced_by_a_mapping_and_back() -> None:
    text = "a: x   # c\nb:\n  k: v\n"
    out = rewrite(text, {"a": {"k": "v"}, "b": "x"})
    assert out.text == "a:   # c\n  k: v\nb: x\n"


def test_block_scalar_replaced() -> None:
    text = "a: |\n  one\n  two\nb: 1\n"
    out = rewrite(text, {"a": "one\nthree\n", "b": 1})
    assert out.text == "a: |\n  one\n  three\nb: 1\n"


def test_json_document_stays_json() -> None:
    text = '{\n    "apiVersion": "v1beta1",\n    "kind": "X",\n    "spec": {"a": 1}\n}\n'
    out = rewrite(text, {"apiVersion": "v1", "kind": "X", "spec": {"a": 1, "b": [1]}})
    assert json.loads(out.text) == {"apiVersion": "v1", "kind": "X", "spec": {"a": 1, "b": [1]}}
    assert out.text.startswith('{\n    "apiVersion": "v1",')


# --------------------------------------------------------------------------
# rewrite_document: moved subtrees keep their text


MOVED = """\
spec:
  # The schema.
  validation:   # v1beta1 only
    openAPIV3Schema:
      type: object
      # replicas: how many
      properties:
        replicas:
          type: integer
          description: a long description that a generator folded over
            two lines
  versions:
  - name: v1
    served: true
"""


def test_moved_subtree_keeps_its_text_comments_and_key_comments() -> None:
    old = data_of(MOVED)
    schema = old["spec"]["validation"]["openAPIV3Schema"]
    new = {"spec": {"versions": [{"name": "v1", "served": True, "schema": {"openAPIV3Schema": schema}}]}}
    out = rewrite(MOVED, new)
    assert out.text == (
        "spec:\n"
        "  versions:\n"
        "  - name: v1\n"
        "    served: true\n"
        "    # The schema.\n"
        "    schema:   # v1beta1 only\n"
        "      openAPIV3Schema:\n"
        "        type: object\n"
        "        # replicas: how many\n"
        "        properties:\n"
        "          replicas:\n"
        "            type: integer\n"
        "            description: a long description that a generator folded over\n"
        "              two lines\n"
    )


def test_similar_moved_subtree_is_copied_then_patched() -> None:
    old = data_of(MOVED)
    schema = copy.deepcopy(old["spec"]["validation"]["openAPIV3Schema"])
    schema["x-kubernetes-preserve-unknown-fields"] = True
    schema["properties"]["replicas"]["minimum"] = 0
    new = {"spec": {"versions": [{"name": "v1", "served": True, "schema": {"openAPIV3Schema": schema}}]}}
    out = rewrite(MOVED, new)
    assert "        # replicas: how many\n" in out.text
    assert "            minimum: 0\n" in out.text
    assert "        x-kubernetes-preserve-unknown-fields: true\n" in out.text
    assert "description: a long description that a generator folded over\n              two lines\n" in out.text


def test_moved_subtree_reindented_to_a_shallower_place() -> None:
    text = "a:\n    b:\n        deep:\n            k: v   # c\n            l:\n            - 1\n"
    out = rewrite(text, {"a": {"b": {}}, "top": {"k": "v", "l": [1]}})
    assert out.text == "a:\n    b: {}\ntop:\n    k: v   # c\n    l:\n    - 1\n"


def test_moved_one_line_flow_collection_keeps_its_text() -> None:
    text = 'c:\n  strategy: Webhook\n  reviews: ["v1", "v1beta1"]\n'
    out = rewrite(text, {"c": {"strategy": "Webhook", "webhook": {"reviews": ["v1", "v1beta1"]}}})
    assert out.text == 'c:\n  strategy: Webhook\n  webhook:\n    reviews: ["v1", "v1beta1"]\n'


# --------------------------------------------------------------------------
# anchors, aliases, merge keys


def test_merge_key_kept_when_the_anchor_changes_for_both() -> None:
    text = "l:\n- &v\n  name: a\n  schema: {x: 1}\n  served: true\n- <<: *v\n  name: b\n"
    out = rewrite(text, {"l": [{"name": "a", "served": True}, {"name": "b", "served": True}]})
    assert out.method == "patched"
    assert out.text == "l:\n- &v\n  name: a\n  served: true\n- <<: *v\n  name: b\n"


def test_alias_of_a_deleted_anchor_is_expanded() -> None:
    text = "version: &v v1\nversions:\n- name: *v\n  served: true\n"
    out = rewrite(text, {"versions": [{"name": "v1", "served": True}]})
    assert out.method == "expanded"
    assert out.text == "versions:\n- name: v1\n  served: true\n"


def test_merge_mapping_expanded_when_the_alias_must_differ() -> None:
    text = "base: &b\n  x: 1\n  w: 2\nuse:\n  <<: *b\n  z: 3\n"
    out = rewrite(text, {"base": {"x": 1, "w": 2}, "use": {"x": 1, "z": 3}})
    assert out.method == "expanded"
    assert out.text == "base: &b\n  x: 1\n  w: 2\nuse:\n  x: 1\n  z: 3\n"


def test_regenerated_when_no_edit_strategy_works(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: Any, **kwargs: Any) -> str:
        raise Y._Abort()

    monkeypatch.setattr(Y, "_patch_document", refuse)
    text = "# header\n---\nb: 1   # lost\na: 2\n"
    out = rewrite(text, {"a": 3, "b": 1, "c": 4})
    assert out.method == "regenerated"
    # the old key order; a new key after its predecessor in the new data
    assert out.text == "# header\n---\nb: 1\nc: 4\na: 3\n"


# --------------------------------------------------------------------------
# property: random edits of random documents re-read exactly, by text edits


MUTATIONS = st.lists(st.tuples(st.integers(0, 5), st.integers(0, 1000), JSON_VALUES), max_size=4)


def mutate(value: Any, ops: list[tuple[int, int, Any]]) -> Any:
    """Apply (kind, seed, payload) edits at pseudo-random places of a copy."""
    value = copy.deepcopy(value)
    for kind, seed, payload in ops:
        containers: list[Any] = []
        stack = [value]
        while stack:
            node = stack.pop()
            if isinstance(node, (dict, list)):
                containers.append(node)
                stack.extend(node.values() if isinstance(node, dict) else node)
        target = containers[seed % len(containers)]
        if isinstance(target, dict):
            keys = list(target)
            if kind == 0 or not keys:
                target[f"k{seed}"] = payload
            elif kind == 1 and len(keys) > 1:
                del target[keys[seed % len(keys)]]
            elif kind == 2:
                target[keys[seed % len(keys)]] = payload
            elif kind == 3:
                key = keys[seed % len(keys)]
                target[key.swapcase() + "_"] = target.pop(key)
            else:
                target[keys[seed % len(keys)]] = payload
        else:
            if kind in (0, 4) or not target:
                target.insert(seed % (len(target) + 1), payload)
            elif kind == 1:
                del target[seed % len(target)]
            else:
                target[seed % len(target)] = payload
    return value


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.dictionaries(st.text(string.ascii_letters, min_size=1, max_size=6), JSON_VALUES, min_size=1, max_size=5),
    MUTATIONS,
    st.sampled_from([(2, 0), (4, 2), (2, 2)]),
)
def test_random_edits_are_text_patches_that_re_read_exactly(
    old: dict[str, Any], ops: list[tuple[int, int, Any]], layout: tuple[int, int]
) -> None:
    if not _utf8(old) or not _utf8(ops):
        return
    text = "# header comment\n" + "\n".join(Y.emit_block(old, 0, Y.DocStyle(*layout))) + "\n"
    new = mutate(old, ops)
    if not isinstance(new, dict) or not new:
        return
    result = Y.rewrite_document(text, data_of(text), new)
    assert Y.same(data_of(result.text), new)
    assert result.method in ("unchanged", "patched")
    assert result.text.startswith("# header comment\n")


def with_comments(lines: list[str], seeds: list[int]) -> str:
    """Comment lines inserted above some lines, at the column of the line below (and after some values)."""
    out: list[str] = []
    for i, line in enumerate(lines):
        if i in seeds:
            indent = len(line) - len(line.lstrip(" "))
            out.append(" " * indent + f"# comment {i}")
        out.append(line + (f"  # end {i}" if i + 1 in seeds and not line.rstrip().endswith(("|", "|-", "|+")) else ""))
    return "\n".join(out) + "\n"


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.dictionaries(st.text(string.ascii_letters, min_size=1, max_size=6), JSON_VALUES, min_size=1, max_size=5),
    MUTATIONS,
    st.lists(st.integers(0, 40), max_size=8),
)
def test_random_edits_of_commented_documents(old: dict[str, Any], ops: list[tuple[int, int, Any]], seeds: list[int]) -> None:
    if not _utf8(old) or not _utf8(ops):
        return
    if any(isinstance(v, str) and "\n" in v for v in _leaves(old)):
        return  # a comment line inside a literal block would be content
    text = with_comments(Y.emit_block(old), seeds)
    if not Y.same(data_of(text), old):
        return  # "# end" after a value that cannot take one
    new = mutate(old, ops)
    result = Y.rewrite_document(text, data_of(text), new)
    assert Y.same(data_of(result.text), new)
    assert result.method in ("unchanged", "patched")


def _leaves(value: Any) -> list[Any]:
    out: list[Any] = []
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, dict):
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
        else:
            out.append(v)
    return out


def test_replaced_item_with_commented_donor_text_puts_the_comments_above_the_dash() -> None:
    text = "old:\n  # about the shape\n  a: 1\n  b: 2\nl:\n- x\n"
    out = rewrite(text, {"l": [{"a": 1, "b": 2}]})
    assert out.text == "l:\n# about the shape\n- a: 1\n  b: 2\n"


def test_deep_values_are_emitted_without_recursion() -> None:
    deep: Any = {"leaf": 1}
    for _ in range(3000):
        deep = {"d": [deep]}
    lines = Y.emit_block(deep)
    assert len(lines) == 3001 and lines[-1].endswith("- leaf: 1")
    flow = Y.format_flow(deep)
    assert flow.startswith("{d: [{d: [") and flow.endswith("}]}")


def test_deep_document_rewrite(monkeypatch: pytest.MonkeyPatch) -> None:
    depth = 2000
    text = "a: 1\nb: " + "[" * depth + "]" * depth + "\n"
    old = data_of(text)
    new = dict(old, a=2)
    result = Y.rewrite_document(text, old, new)
    assert result.text == text.replace("a: 1", "a: 2") and result.method == "patched"
