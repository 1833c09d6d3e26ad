"""Tests for crdtool.yaml.loader (YAML/JSON semantics, as kubectl reads them) and crdtool.cli.inputs (files, directories, stdin).

Expected values come from the upstream behaviour the loader mirrors:
go-yaml v2 as forked by sigs.k8s.io/yaml (goyaml.v2/decode_test.go:
unmarshalTests, unmarshalErrorTests, mergeTests, TestFuzzCrashers),
sigs.k8s.io/yaml yaml_test.go (TestYAMLToJSON key conversion), and kubectl's
document splitting (k8s.io/apimachinery/pkg/util/yaml/decoder.go). Values are
checked after the JSON round trip kubectl performs (YAML -> JSON -> apiserver).
"""

from __future__ import annotations

import io
import math
import os
import time
from pathlib import Path
from typing import Any

import pytest

from crdtool.cli.inputs import STDIN_NAME, load_inputs
from crdtool.yaml import loader as inputs
from crdtool.yaml.loader import Document, InputError, load_documents

FAST = 5.0  # seconds: safety bound for every hostile input


def only_doc(text: str | bytes, file: str = "t.yaml") -> Document:
    items = load_documents(text, file)
    assert len(items) == 1, items
    assert isinstance(items[0], Document), items
    return items[0]


def only_error(text: str | bytes, file: str = "t.yaml") -> InputError:
    items = load_documents(text, file)
    errors = [i for i in items if isinstance(i, InputError)]
    assert len(errors) == 1, items
    return errors[0]


def data(text: str | bytes) -> dict[str, Any]:
    return only_doc(text).data


def timed(fn: Any, *args: Any) -> Any:
    start = time.monotonic()
    result = fn(*args)
    elapsed = time.monotonic() - start
    assert elapsed < FAST, f"took {elapsed:.2f}s"
    return result


def assert_error(err: InputError, file: str, line: int, message_part: str) -> None:
    assert err.file == file
    assert err.line == line
    assert message_part in err.message
    text = str(err)
    assert text.startswith(f"{file}:{line}:")
    assert "\n" not in text


# ---------------------------------------------------------------------------
# Broken input


def test_yaml_syntax_error_names_file_and_line_and_other_documents_load() -> None:
    text = "a: 1\n---\nb: [1,\nc: 2\n---\nd: 4\n"
    items = timed(load_documents, text, "broken.yaml")
    assert isinstance(items[0], Document) and items[0].data == {"a": 1}
    assert isinstance(items[1], InputError)
    assert_error(items[1], "broken.yaml", 4, "did not find expected ',' or ']'")
    assert isinstance(items[2], Document) and items[2].data == {"d": 4}
    assert items[2].line == 6
    # The broken document still takes an index.
    assert [i.index for i in items] == [0, 1, 2]


def test_syntax_error_messages_from_go_yaml_error_table() -> None:
    # goyaml.v2 unmarshalErrorTests, location aside.
    assert "did not find expected node content" in only_error("v: [A,").message
    assert "did not find expected node content" in only_error("v:\n- [A,").message
    err = only_error("value: -")
    assert_error(err, "t.yaml", 1, "block sequence entries are not allowed in this context")
    assert "could not find expected ':'" in only_error("a:\n  1:\nb\n  2:").message


def test_broken_file_does_not_stop_other_files(tmp_path: Path) -> None:
    bad = tmp_path / "a.yaml"
    good = tmp_path / "b.yaml"
    bad.write_text("a: {b: 1\n")
    good.write_text("kind: X\n")
    items = timed(lambda: list(load_inputs([str(bad), str(good)])))
    assert isinstance(items[0], InputError)
    assert items[0].file == str(bad) and items[0].line == 1  # end of the unclosed mapping
    assert isinstance(items[1], Document) and items[1].data == {"kind": "X"}


def test_non_utf8_bytes_fail_only_their_document() -> None:
    items = timed(load_documents, b"a: 1\n---\nb: \xff\xfe\n---\nc: 3\n", "bin.yaml")
    assert [type(i).__name__ for i in items] == ["Document", "InputError", "Document"]
    err = items[1]
    assert_error(err, "bin.yaml", 3, "invalid UTF-8")
    assert err.column == 4
    assert items[2].data == {"c": 3}


def test_control_characters_are_rejected() -> None:
    err = timed(only_error, b"a: \x01\n", "c.yaml")
    assert_error(err, "c.yaml", 1, "control characters are not allowed")


def test_document_that_is_a_list_is_an_error() -> None:
    err = timed(only_error, "kind: X\n---\n- a\n- b\n", "list.yaml")
    assert_error(err, "list.yaml", 3, "document root must be a mapping")
    assert "sequence" in err.message


def test_document_that_is_a_scalar_is_an_error() -> None:
    err = timed(only_error, "\n\nhello\n", "scalar.yaml")
    assert_error(err, "scalar.yaml", 3, "document root must be a mapping")
    assert "string" in err.message
    assert "number" in only_error("42").message


def test_missing_path_is_an_input_error(tmp_path: Path) -> None:
    missing = str(tmp_path / "nope.yaml")
    items = list(load_inputs([missing, missing]))
    assert len(items) == 2
    for err in items:
        assert isinstance(err, InputError)
        assert err.file == missing and err.line == 0
        assert err.message == "no such file or directory" and err.index is None
        assert str(err) == f"{missing}: no such file or directory"


def test_unreadable_path_is_an_input_error(tmp_path: Path) -> None:
    f = tmp_path / "file.yaml"
    f.write_text("a: 1\n")
    bad = str(f / "below.yaml")
    [err] = list(load_inputs([bad]))
    assert isinstance(err, InputError) and err.file == bad and err.message == "not a directory"


def test_invalid_document_separator_is_reported_and_loading_continues() -> None:
    # kubectl YAMLReader.Read: only blanks or a comment may follow "---".
    items = load_documents("a: 1\n--- b: 2\nc: 3\n---  # fine\nd: 4\n", "sep.yaml")
    assert items[0].data == {"a": 1}
    assert_error(items[1], "sep.yaml", 2, "invalid Yaml document separator: b: 2")
    assert items[1].index is None  # not a document
    assert [items[0].index, items[2].index, items[3].index] == [0, 1, 2]
    assert items[2].data == {"c": 3} and items[2].line == 3
    assert items[3].data == {"d": 4} and items[3].line == 5


def test_unknown_and_recursive_aliases() -> None:
    assert_error(only_error("a: *b\n"), "t.yaml", 1, "yaml: unknown anchor 'b' referenced")
    assert_error(only_error("b: *a\na: &a {c: 1}"), "t.yaml", 1, "yaml: unknown anchor 'a' referenced")
    assert_error(only_error("a: &a\n  b: *a\n"), "t.yaml", 2, "yaml: anchor 'a' value contains itself")


def test_merge_of_a_non_mapping_is_an_error() -> None:
    # goyaml.v2 issue #529: the alias refers to the null defined before it.
    err = only_error("a: &x null\n<<:\n- *x\nb: &x {}\n")
    assert err.message == "yaml: map merge requires map or sequence of maps as the value"
    assert "map merge requires" in only_error("a:\n  <<: 3\n").message


def test_invalid_keys() -> None:
    # sigs.k8s.io/yaml: null keys are unsupported; go-yaml: collections are not keys.
    err = only_error("a: 1\n~: x\n")
    assert err.line == 2 and err.message.startswith("unsupported map key of type")
    assert only_error("x: {[.]}").message.startswith("yaml: invalid map key")
    assert only_error("? {a: 1}\n: b\n").message.startswith("yaml: invalid map key")


def test_nan_and_infinity_values_cannot_become_json() -> None:
    # json.Marshal fails on them inside sigs.k8s.io/yaml.YAMLToJSON.
    assert_error(only_error("a: 1\nb: .nan\n"), "t.yaml", 2, "json: unsupported value: NaN")
    assert only_error("v: .Inf").message == "json: unsupported value: +Inf"
    assert only_error("v: -.inf").message == "json: unsupported value: -Inf"


def test_bad_explicit_tags() -> None:
    # goyaml.v2 unmarshalErrorTests.
    assert only_error("v: !!float 'error'").message == "yaml: cannot decode !!str `error` as a !!float"
    assert only_error("a: !!binary ==").message == "yaml: !!binary value contains invalid base64 data"
    assert only_error("a: !!int abc").message == "yaml: cannot decode !!str `abc` as a !!int"


def test_go_yaml_fuzz_crashers_never_raise() -> None:
    # goyaml.v2 TestFuzzCrashers inputs.
    cases = [
        '"\\0\\\r\n', "  0: [\n] 0", '? ? "\n" 0', "    - {\n000}0", "0:\n  0: [0\n] 0",
        '    - "\n000"0', '    - "\n000""', "0:\n    - {\n000}0", '0:\n    - "\n000"0',
        '0:\n    - "\n000""', " \ufeff\n", "? \ufeff\n", "? \ufeff:\n", "0: \ufeff\n", "? \ufeff: \ufeff\n",
    ]
    for case in cases:
        items = timed(load_documents, case, "fuzz.yaml")
        for item in items:
            assert isinstance(item, (Document, InputError))
            if isinstance(item, InputError):
                assert item.file == "fuzz.yaml" and item.line >= 1


# ---------------------------------------------------------------------------
# Empty input


def test_empty_file(tmp_path: Path) -> None:
    f = tmp_path / "empty.yaml"
    f.write_bytes(b"")
    assert list(load_inputs([str(f)])) == []
    assert load_documents("", "x") == []
    assert load_documents("\n  \n", "x") == []


def test_empty_documents_produce_nothing() -> None:
    text = "---\n---\n# only a comment\n---\n\n---\nkind: X\n---\n"
    items = load_documents(text, "e.yaml")
    assert len(items) == 1
    assert items[0].data == {"kind": "X"} and items[0].index == 0 and items[0].line == 7


def test_null_documents_are_skipped_like_kubectl() -> None:
    # kubectl's StreamVisitor skips documents that are JSON null.
    assert load_documents("null\n---\n~\n---\n", "n.yaml") == []


# ---------------------------------------------------------------------------
# Hostile input


BILLION_LAUGHS = (
    "a: &a [00,00,00,00,00,00,00,00,00]\n"
    "b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\n"
    "c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\n"
    "d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n"
    "e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\n"
    "f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]\n"
    "g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]\n"
    "h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]\n"
    "i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]\n"
)


def test_billion_laughs_is_rejected(tmp_path: Path) -> None:
    f = tmp_path / "lol.yaml"
    f.write_text("kind: Ok\n---\n" + BILLION_LAUGHS + "---\nkind: After\n")
    items = timed(lambda: list(load_inputs([str(f)])))
    assert items[0].data == {"kind": "Ok"}
    err = items[1]
    assert isinstance(err, InputError)
    assert err.file == str(f)
    assert err.message == "yaml: document contains excessive aliasing"
    assert 3 <= err.line <= 11
    assert items[2].data == {"kind": "After"}


def test_moderate_aliasing_is_accepted() -> None:
    # Below go-yaml's thresholds (more than 100 alias-expanded nodes AND 1000 decodes).
    doc = timed(only_doc, "a: &a [1,2,3]\nb: [*a,*a,*a,*a,*a]\nc: *a\n")
    assert doc.data["b"] == [[1, 2, 3]] * 5
    assert doc.data["c"] == [1, 2, 3]


def test_deep_flow_sequence_100k() -> None:
    text = "a: " + "[" * 100_000 + "]" * 100_000 + "\n"
    err = timed(only_error, text, "deep.yaml")
    assert_error(err, "deep.yaml", 1, f"exceeded max depth of {inputs.MAX_DEPTH}")


def test_deep_flow_mapping_100k() -> None:
    text = "x: " + "{a: " * 100_000 + "1" + "}" * 100_000
    err = timed(only_error, text, "deepmap.yaml")
    assert_error(err, "deepmap.yaml", 1, "exceeded max depth")


def test_deep_json_100k() -> None:
    # A "{" stream is tried as JSON, then as YAML; both fail, the JSON error wins.
    text = '{"a": ' * 100_000 + "1" + "}" * 100_000
    err = timed(only_error, text, "deep.json")
    assert err.file == "deep.json" and err.line == 1 and err.message.startswith("json:")


def test_unclosed_deep_nesting() -> None:
    err = timed(only_error, "[" * 100_000, "open.yaml")
    assert_error(err, "open.yaml", 1, "exceeded max depth")


def test_deep_block_nesting() -> None:
    text = "a:\n" + "- " * 50_000 + "x\n"
    err = timed(only_error, text, "block.yaml")
    assert_error(err, "block.yaml", 2, "exceeded max depth")


def test_nesting_at_the_limit_is_accepted() -> None:
    depth = inputs.MAX_DEPTH - 1  # plus the root mapping
    doc = timed(only_doc, "a: " + "[" * depth + "]" * depth)
    node = doc.data["a"]
    levels = 0
    while isinstance(node, list) and node:
        node = node[0]
        levels += 1
    assert levels == depth - 1


def test_depth_through_aliases_is_limited() -> None:
    # Each alias nests a 6000-deep anchor one level further down.
    text = "a: &a " + "[" * 6000 + "]" * 6000 + "\nb: " + "[" * 5000 + "*a" + "]" * 5000 + "\n"
    err = timed(only_error, text, "alias-depth.yaml")
    assert_error(err, "alias-depth.yaml", 2, "exceeded max depth")


def test_very_long_scalar() -> None:
    doc = timed(only_doc, "a: " + "x" * 5_000_000 + "\n")
    assert len(doc.data["a"]) == 5_000_000


def test_50_megabyte_file_loads_in_bounded_time(tmp_path: Path) -> None:
    # One CRD-shaped document with ~440k schema properties (52 MB).
    f = tmp_path / "big.yaml"
    head = (
        "kind: CustomResourceDefinition\nspec:\n  versions:\n  - name: v1\n    schema:\n"
        "      openAPIV3Schema:\n        properties:\n"
    )
    block = (
        "          f{i}:\n            type: string\n"
        "            description: \"Field {i} of a large test resource, padded.\"\n"
    )
    with open(f, "w") as fh:
        fh.write(head)
        size = len(head)
        i = 0
        while size < 50 * 1024 * 1024:
            chunk = block.format(i=i)
            fh.write(chunk)
            size += len(chunk)
            i += 1
    start = time.monotonic()
    [doc] = list(load_inputs([str(f)]))
    elapsed = time.monotonic() - start
    assert elapsed < 60, f"50 MB took {elapsed:.1f}s"
    assert isinstance(doc, Document)
    props = doc.data["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]
    assert len(props) == i
    # Far beyond what the apiserver accepts: loaded, with a warning.
    assert len(doc.warnings) == 1 and "kube-apiserver rejects request bodies" in doc.warnings[0]
    last = f"spec.versions[0].schema.openAPIV3Schema.properties[f{i - 1}].type"
    assert doc.position(last) == (8 + 3 * (i - 1) + 1, 13)


def test_document_over_etcd_limit_warns() -> None:
    text = "kind: X\ndata:\n" + "".join(f"  k{i}: {'v' * 100}\n" for i in range(18_000))
    doc = timed(only_doc, text)
    assert len(doc.warnings) == 1 and "etcd rejects objects over 1572864 bytes" in doc.warnings[0]
    assert only_doc("kind: X\n").warnings == ()


def test_file_over_the_size_limit_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(inputs, "MAX_INPUT_BYTES", 100)
    f = tmp_path / "big.yaml"
    f.write_text("a: " + "x" * 200 + "\n")
    [err] = list(load_inputs([str(f)]))
    assert isinstance(err, InputError) and err.file == str(f)
    assert "larger than 100 bytes" in err.message
    [err] = list(load_inputs(["-"], stdin=io.BytesIO(b"a: " + b"x" * 200)))
    assert err.file == STDIN_NAME and "larger than 100 bytes" in err.message


# ---------------------------------------------------------------------------
# Positions


CRD = """\
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
  labels:
    app.kubernetes.io/name: widgets
    a.b: dotted
    a:
      b: nested
spec:
  group: example.com
  versions:
  - name: v1
    served: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            required: [size]
          status: {type: object}
  - name: v2
"""


def test_positions_of_nested_paths() -> None:
    doc = only_doc(CRD, "crd.yaml")
    assert doc.line == 1 and doc.column == 1
    assert doc.position("") == (1, 1)
    assert doc.position("spec.group") == (11, 3)
    assert doc.position("spec.versions[0]") == (13, 5)
    assert doc.position("spec.versions[1].name") == (23, 5)
    assert doc.position("spec.versions[0].schema.openAPIV3Schema.properties[spec].type") == (20, 13)
    assert doc.position("spec.versions[0].schema.openAPIV3Schema.properties[spec].required[0]") == (21, 24)
    assert doc.position("spec.versions[0].schema.openAPIV3Schema.properties[status].type") == (22, 20)


def test_positions_of_map_keys_with_dots_and_slashes() -> None:
    doc = only_doc(CRD)
    assert doc.position("metadata.labels[app.kubernetes.io/name]") == (6, 5)
    # The longest key present wins; brackets are exact.
    assert doc.position("metadata.labels.a.b") == (7, 5)
    assert doc.position("metadata.labels[a.b]") == (7, 5)
    assert doc.position("metadata.labels[a].b") == (9, 7)


def test_position_of_missing_field_is_nearest_ancestor() -> None:
    doc = only_doc(CRD)
    assert doc.position("spec.names.plural") == (10, 1)
    assert doc.position("spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[x].type") == (19, 11)
    assert doc.position("spec.versions[5].name") == (12, 3)
    assert doc.position("spec.group.extra") == (11, 3)
    assert doc.position("metadata.labels[nope]") == (5, 3)


def test_positions_are_file_absolute_in_multi_document_files() -> None:
    items = load_documents("# header\n---\na: 1\n---\n\n# comment\nkind: X\nspec:\n  x: [1, 2]\n", "m.yaml")
    assert [(d.index, d.line) for d in items] == [(0, 3), (1, 7)]
    assert items[1].position("spec.x[1]") == (9, 10)
    assert items[1].position("kind") == (7, 1)


def test_positions_through_aliases_and_merge_keys() -> None:
    text = "base: &b\n  served: true\n  name: v0\nversions:\n- <<: *b\n  name: v1\n- *b\n"
    doc = only_doc(text)
    assert doc.data["versions"] == [{"served": True, "name": "v1"}, {"served": True, "name": "v0"}]
    assert doc.position("versions[0].name") == (6, 3)
    assert doc.position("versions[0].served") == (2, 3)  # merged from the anchor
    assert doc.position("versions[1].name") == (3, 3)


def test_position_is_lazy_and_cached() -> None:
    doc = only_doc(CRD)
    source = doc._source
    assert source is not None and source._done is False
    assert doc.position("spec.group") == (11, 3)
    assert source._done is True
    tracked = source._tracked
    assert doc.position("kind") == (2, 1)
    assert source._tracked is tracked


# ---------------------------------------------------------------------------
# Duplicate keys


def test_duplicate_keys_are_reported_and_last_value_wins() -> None:
    # sigs.k8s.io/yaml TestUnmarshalStrict: non-strict keeps the later value.
    text = "spec:\n  group: a\n  names: {kind: K, kind: L}\n  group: b\n  versions:\n  - name: v1\n    name: v2\n"
    doc = only_doc(text)
    assert doc.data["spec"]["group"] == "b"
    assert doc.data["spec"]["names"] == {"kind": "L"}
    assert doc.data["spec"]["versions"] == [{"name": "v2"}]
    assert doc.duplicate_keys == ["spec.names.kind", "spec.group", "spec.versions[0].name"]
    assert doc.position("spec.group") == (4, 3)


def test_keys_that_collide_after_conversion_to_strings_are_duplicates() -> None:
    # go-yaml keys 9 and "9" differ; as JSON they are the same field.
    doc = only_doc("a: 1\n9: 2\n'9': 3\n")
    assert doc.data == {"a": 1, "9": 3}
    assert doc.duplicate_keys == ["9"]


def test_merge_overrides_are_not_duplicates() -> None:
    doc = only_doc("b: &b {x: 1, z: 2}\nc:\n  <<: *b\n  x: 3\n  x: 4\n")
    assert doc.data["c"] == {"x": 4, "z": 2}
    assert doc.duplicate_keys == ["c.x"]


# ---------------------------------------------------------------------------
# Anchors, aliases, merge keys


MERGE_TESTS = """
anchors:
  list:
    - &CENTER { "x": 1, "y": 2 }
    - &LEFT   { "x": 0, "y": 2 }
    - &BIG    { "r": 10 }
    - &SMALL  { "r": 1 }
plain:
  "x": 1
  "y": 2
  "r": 10
  label: center/big
mergeOne:
  << : *CENTER
  "r": 10
  label: center/big
mergeMultiple:
  << : [ *CENTER, *BIG ]
  label: center/big
override:
  << : [ *BIG, *LEFT, *SMALL ]
  "x": 1
  label: center/big
shortTag:
  !!merge "<<" : [ *CENTER, *BIG ]
  label: center/big
longTag:
  !<tag:yaml.org,2002:merge> "<<" : [ *CENTER, *BIG ]
  label: center/big
inlineMap:
  << : {"x": 1, "y": 2, "r": 10}
  label: center/big
inlineSequenceMap:
  << : [ *CENTER, {"r": 10} ]
  label: center/big
"""


def test_merge_keys_yaml_org_examples() -> None:
    # goyaml.v2 TestMerge: every map equals the plain one.
    doc = only_doc(MERGE_TESTS)
    want = {"x": 1, "y": 2, "r": 10, "label": "center/big"}
    for name, value in doc.data.items():
        if name != "anchors":
            assert value == want, name
    assert doc.duplicate_keys == []


def test_merge_key_overwrites_keys_set_before_it_like_go_yaml_v2() -> None:
    # go-yaml v2 decoder.mapping applies "<<" in order: it overwrites earlier
    # keys and later keys overwrite it (PyYAML would keep x: 2).
    doc = only_doc("a: &a {x: 1}\nb:\n  x: 2\n  <<: *a\n")
    assert doc.data["b"] == {"x": 1}


def test_quoted_merge_key_is_a_plain_key() -> None:
    assert data("a: &a {x: 1}\nb:\n  '<<': *a\n")["b"] == {"<<": {"x": 1}}


def test_anchor_redefinition_uses_latest_definition() -> None:
    # yaml-test-suite 3GZX (goyaml.v2 unmarshalTests); PyYAML's composer refuses this.
    text = (
        "First occurrence: &anchor Foo\nSecond occurrence: *anchor\n"
        "Override anchor: &anchor Bar\nReuse anchor: *anchor\n"
    )
    assert data(text) == {
        "First occurrence": "Foo",
        "Second occurrence": "Foo",
        "Override anchor": "Bar",
        "Reuse anchor": "Bar",
    }


# ---------------------------------------------------------------------------
# Scalars as go-yaml v2 + JSON resolve them


def test_yaml_1_1_booleans() -> None:
    # goyaml.v2 resolve table, including y/n (which PyYAML leaves as strings).
    d = data("a: yes\nb: No\nc: on\nd: OFF\ne: y\nf: N\ng: True\nh: false\ni: 'yes'\nj: \"on\"\nk: yEs\n")
    assert d == {"a": True, "b": False, "c": True, "d": False, "e": True, "f": False,
                 "g": True, "h": False, "i": "yes", "j": "on", "k": "yEs"}


def test_timestamps_stay_strings() -> None:
    # goyaml.v2: timestamps decoded into interface{} keep their original text.
    d = data(
        "a: 2015-01-01\nb: 2015-02-24T18:19:39.12Z\nc: 2001-12-14 21:59:43.10 -5\n"
        "d: !!timestamp 2015-01-01\ne: !!timestamp \"2015-01-01\"\nf: 2015-2-3T3:4:5Z\n"
    )
    assert d == {"a": "2015-01-01", "b": "2015-02-24T18:19:39.12Z", "c": "2001-12-14 21:59:43.10 -5",
                 "d": "2015-01-01", "e": "2015-01-01", "f": "2015-2-3T3:4:5Z"}
    assert all(isinstance(v, str) for v in d.values())


def test_integers_from_the_yaml_1_1_spec() -> None:
    d = data(
        "canonical: 685230\ndecimal: +685_230\noctal: 02472256\nhexa: 0x_0A_74_AE\n"
        "bin: 0b1010_0111_0100_1010_1110\nnegbin: -0b101010\nmaxint: 9223372036854775807\n"
        "minint: -9223372036854775808\noct2: 0o17\n"
    )
    assert d == {"canonical": 685230, "decimal": 685230, "octal": 685230, "hexa": 685230, "bin": 685230,
                 "negbin": -42, "maxint": 2**63 - 1, "minint": -(2**63), "oct2": 15}


def test_floats_and_the_json_round_trip() -> None:
    # json.Marshal writes integral float64s without a fraction; the apiserver
    # then decodes them as int64. Integers beyond int64 decode as float64.
    d = data(
        "a: 0.1\nb: .1\nc: -.1\nd: 6.8523e+5\ne: 685.230_15e+03\nf: 1.0\ng: 123456e1\n"
        "h: 18446744073709551615\ni: 08\nj: 1e999\nk: !!float 1\nl: !!float '1.1'\n"
    )
    assert d["a"] == 0.1 and d["b"] == 0.1 and d["c"] == -0.1
    assert d["d"] == 685230 and isinstance(d["d"], int)
    assert d["e"] == 685230.15
    assert d["f"] == 1 and isinstance(d["f"], int)
    assert d["g"] == 1234560 and isinstance(d["g"], int)
    assert d["h"] == 18446744073709551615.0 and isinstance(d["h"], float)
    assert d["i"] == 8  # not octal: parsed by go-yaml as the float 8
    assert d["j"] == "1e999"  # ParseFloat overflows: go-yaml keeps the string
    assert d["k"] == 1 and d["l"] == 1.1


def test_strings_that_look_almost_like_values() -> None:
    # goyaml.v2 unmarshalTests: base 60 unsupported; bug 1243827; issue #24.
    d = data("a: 1:1\nb: -b_c\nc: +b_c\nd: 50cent_of_dollar\ne: <foo>\nf: ! test\ng: !foo 12\nh: '12'\ni: 1.2.3.4\n")
    assert d == {"a": "1:1", "b": "-b_c", "c": "+b_c", "d": "50cent_of_dollar", "e": "<foo>",
                 "f": "test", "g": "12", "h": "12", "i": "1.2.3.4"}


def test_nulls() -> None:
    assert data("empty:\ncanonical: ~\nenglish: null\nquoted: 'null'\ntagged: !!null ''\n") == {
        "empty": None, "canonical": None, "english": None, "quoted": "null", "tagged": None,
    }


def test_non_string_keys_become_strings() -> None:
    # sigs.k8s.io/yaml TestYAMLToJSON and convertToJSONableObject.
    assert data("1: a\n") == {"1": "a"}
    assert data("1000000000000000000000000000000000000: a\n") == {"1e+36": "a"}
    assert data("1e+36: a\n") == {"1e+36": "a"}
    assert data('"1e+36": a\n') == {"1e+36": "a"}
    assert data('"1.2": a\n') == {"1.2": "a"}
    assert data("1.5: a\n1.0: b\n0x10: c\n") == {"1.5": "a", "1": "b", "16": "c"}
    assert data("true: a\nno: b\n") == {"true": "a", "false": "b"}
    assert data(".inf: a\n-.inf: b\n") == {".inf": "a", "-.inf": "b"}


def test_binary_scalars() -> None:
    # goyaml.v2: !!binary decodes to a string; json.Marshal replaces invalid UTF-8.
    assert data("a: !!binary aGVsbG8=\n") == {"a": "hello"}
    assert data("a: !!binary gIGC\n") == {"a": "\ufffd\ufffd\ufffd"}
    assert data("a: !!binary |\n  " + "kJCQ" * 17 + "kJ\n  CQ\n")["a"] == "\ufffd" * 54


def test_block_scalars() -> None:
    d = data("scalar: | # Comment\n\n literal\n\n \ttext\n\nfolded: >\n a\n b\n\n c\n")
    assert d == {"scalar": "\nliteral\n\n\ttext\n", "folded": "a b\nc\n"}


def test_only_the_first_document_of_a_chunk_is_decoded() -> None:
    # go-yaml Unmarshal reads one document; kubectl splits only on "---" lines.
    assert data("a: 1\n...\n}not yaml\n") == {"a": 1}


def test_utf16_and_bom_input() -> None:
    # goyaml.v2 unmarshalTests UTF-16-LE / -BE.
    le = b"\xff\xfe\xf1\x00o\x00\xf1\x00o\x00:\x00 \x00v\x00e\x00r\x00y\x00 \x00y\x00e\x00s\x00\n\x00"
    be = b"\xfe\xff\x00\xf1\x00o\x00\xf1\x00o\x00:\x00 \x00v\x00e\x00r\x00y\x00 \x00y\x00e\x00s\x00\n"
    assert data(le) == {"ñoño": "very yes"}
    assert data(be) == {"ñoño": "very yes"}
    assert data(b"\xef\xbb\xbfa: 1\n") == {"a": 1}


def test_crlf_line_endings() -> None:
    items = load_documents(b"a: 1\r\n---\r\nb: yes\r\nc: [1, 2]\r\n", "crlf.yaml")
    assert [i.data for i in items] == [{"a": 1}, {"b": True, "c": [1, 2]}]
    assert items[1].line == 3 and items[1].position("c[1]") == (4, 8)


def test_load_text_accepts_str_and_bytes() -> None:
    assert load_documents("a: é\n", "s")[0].data == {"a": "é"}
    assert load_documents("a: é\n".encode(), "b")[0].data == {"a": "é"}
    [err] = load_documents("a: \udc80\n", "surrogate")
    assert isinstance(err, InputError) and err.file == "surrogate"


# ---------------------------------------------------------------------------
# JSON


def test_json_file(tmp_path: Path) -> None:
    f = tmp_path / "crd.json"
    f.write_text('{\n  "kind": "CustomResourceDefinition",\n  "spec": {"group": "example.com",\n'
                 '    "versions": [{"name": "v1", "served": true}], "n": 1.0, "m": 1}\n}\n')
    [doc] = list(load_inputs([str(f)]))
    assert isinstance(doc, Document)
    assert doc.data["spec"]["versions"] == [{"name": "v1", "served": True}]
    # JSON numbers keep their JSON type (the apiserver's decoding of "1.0").
    assert doc.data["spec"]["n"] == 1.0 and isinstance(doc.data["spec"]["n"], float)
    assert doc.position("spec.group") == (3, 12)
    assert doc.position("spec.versions[0].served") == (4, 33)


def test_json_stream_of_objects() -> None:
    items = load_documents('{"a": 1}\n  {"b": "yes"} {"c": [1]}\n', "s.json")
    assert [i.data for i in items] == [{"a": 1}, {"b": "yes"}, {"c": [1]}]
    assert [(i.index, i.line, i.column) for i in items] == [(0, 1, 1), (1, 2, 3), (2, 2, 16)]
    assert items[2].position("c[0]") == (2, 23)


def test_json_duplicate_keys() -> None:
    doc = only_doc('{"spec": {"group": "a", "versions": [{"name": "x", "name": "y"}], "group": "b"}}')
    assert doc.data == {"spec": {"group": "b", "versions": [{"name": "y"}]}}
    assert sorted(doc.duplicate_keys) == ["spec.group", "spec.versions[0].name"]


def test_json_error_positions() -> None:
    # After more than one JSON object the stream is JSON for good
    # (YAMLOrJSONDecoder), so the JSON error is reported.
    items = load_documents('{"a": 1}\n{"b": 2}\n{"c": 3,\n  "d" 4}\n', "bad.json")
    assert [type(i).__name__ for i in items] == ["Document", "Document", "InputError"]
    assert_error(items[2], "bad.json", 4, "json: Expecting ':' delimiter")
    assert items[2].index == 2
    assert items[2].column == 7


def test_json_error_with_yaml_fallback_failing_reports_json_error() -> None:
    err = only_error('{"a": [1, 2}\n', "x.json")
    assert_error(err, "x.json", 1, "json:")
    assert err.index == 0


def test_brace_prefixed_yaml_falls_back_to_yaml() -> None:
    # YAMLOrJSONDecoder: not JSON, still ambiguous, so read as YAML.
    items = load_documents("{a: 1, b: yes}\n---\nc: 2\n", "flow.yaml")
    assert [i.data for i in items] == [{"a": 1, "b": True}, {"c": 2}]


def test_json_nan_literal() -> None:
    # Go's JSON has no NaN: after two objects that is a JSON error...
    items = load_documents('{"x": 1}\n{"y": 2}\n{"a": NaN}\n', "nan.json")
    assert [type(i).__name__ for i in items] == ["Document", "Document", "InputError"]
    assert items[2].file == "nan.json" and items[2].line == 3
    # ...but as the first object the stream falls back to YAML, where NaN is a string.
    assert data('{"a": NaN}') == {"a": "NaN"}


# ---------------------------------------------------------------------------
# Directories, ordering, stdin


def test_directory_recursion_and_ordering(tmp_path: Path) -> None:
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "z").mkdir()
    (tmp_path / "a.yaml").write_text("name: a\n")
    (tmp_path / "b" / "c.yml").write_text("name: b/c\n---\nname: b/c#2\n")
    (tmp_path / "b" / "z" / "d.json").write_text('{"name": "b/z/d"}')
    (tmp_path / "b" / "y.yaml").write_text("name: b/y\n")
    (tmp_path / "c.txt").write_text("name: ignored\n")
    (tmp_path / "c.yaml").write_text("name: c\n")
    (tmp_path / "README.md").write_text("# ignored\n")
    items = list(load_inputs([str(tmp_path)]))
    assert [i.data["name"] for i in items] == ["a", "b/c", "b/c#2", "b/y", "b/z/d", "c"]
    assert [(os.path.relpath(i.file, tmp_path), i.index) for i in items] == [
        ("a.yaml", 0), ("b/c.yml", 0), ("b/c.yml", 1), ("b/y.yaml", 0), ("b/z/d.json", 0), ("c.yaml", 0),
    ]
    assert list(load_inputs([str(tmp_path)])) == items  # deterministic


def test_symlinked_directories_are_not_followed(tmp_path: Path) -> None:
    real = tmp_path / "real"
    real.mkdir()
    (real / "x.yaml").write_text("name: x\n")
    os.symlink(real, tmp_path / "loop")
    os.symlink(tmp_path, real / "back")
    items = timed(lambda: list(load_inputs([str(tmp_path)])))
    assert [os.path.relpath(i.file, tmp_path) for i in items] == ["real/x.yaml"]


def test_explicit_files_load_whatever_their_extension(tmp_path: Path) -> None:
    f = tmp_path / "crd.txt"
    f.write_text("kind: X\n")
    [doc] = list(load_inputs([str(f)]))
    assert doc.data == {"kind": "X"}


def test_order_follows_arguments(tmp_path: Path) -> None:
    a = tmp_path / "a.yaml"
    b = tmp_path / "b.yaml"
    a.write_text("name: a\n")
    b.write_text("name: b\n")
    items = list(load_inputs([str(b), "-", str(a)], stdin=io.BytesIO(b"name: stdin\n")))
    assert [i.data["name"] for i in items] == ["b", "stdin", "a"]
    assert items[1].file == STDIN_NAME


def test_stdin_bytes() -> None:
    stream = io.BytesIO(b"a: 1\n---\nb: [1,\n---\nc: 3\n")
    items = list(load_inputs(["-"], stdin=stream))
    assert items[0].data == {"a": 1} and items[0].file == "<stdin>"
    assert isinstance(items[1], InputError) and str(items[1]).startswith("<stdin>:3:7:")
    assert items[2].data == {"c": 3} and items[2].line == 5


def test_stdin_json() -> None:
    [doc] = list(load_inputs(["-"], stdin=io.BytesIO(b'  {"kind": "X"}')))
    assert doc.data == {"kind": "X"} and doc.column == 3


def test_load_inputs_is_lazy(tmp_path: Path) -> None:
    a = tmp_path / "a.yaml"
    a.write_text("name: a\n")
    gen = load_inputs([str(a), str(tmp_path / "missing.yaml")])
    first = next(gen)
    assert isinstance(first, Document)
    second = next(gen)
    assert isinstance(second, InputError)


def test_pure_python_parser_gives_the_same_results(monkeypatch: pytest.MonkeyPatch) -> None:
    # Its depth limit is lower (MAX_DEPTH_PURE_PYTHON) but still a clean error.
    text = MERGE_TESTS + "t: 2015-01-01\nflag: on\nn8: 0755\n---\nx: [1,\n---\n" + "a:\n" + "- " * 20_000 + "x\n"
    with_libyaml = load_documents(text, "p.yaml")
    monkeypatch.setattr(inputs, "_EventParser", inputs._PyEventParser)
    pure = timed(load_documents, text, "p.yaml")
    assert [type(i).__name__ for i in pure] == ["Document", "InputError", "InputError"]
    assert pure[0].data == with_libyaml[0].data
    assert pure[0].position("override.label") == with_libyaml[0].position("override.label") == (23, 3)
    # Same location; the wording of syntax errors differs between the parsers.
    assert pure[1].line == with_libyaml[1].line == 40 and pure[1].message.startswith("yaml: ")
    assert pure[2].message == f"yaml: exceeded max depth of {inputs.MAX_DEPTH_PURE_PYTHON}"
    assert with_libyaml[2].message == f"yaml: exceeded max depth of {inputs.MAX_DEPTH}"


def test_input_error_rendering() -> None:
    assert str(InputError("f.yaml", 3, 7, "boom")) == "f.yaml:3:7: boom"
    assert str(InputError("f.yaml", 3, 0, "boom")) == "f.yaml:3: boom"
    assert str(InputError("f.yaml", 0, 0, "boom")) == "f.yaml: boom"
    assert InputError("f", 1, 2, "m").to_dict() == {"file": "f", "line": 1, "column": 2, "message": "m", "index": None}
    assert InputError("f", 1, 2, "m", 3).index == 3


def test_no_value_is_nan_or_non_json() -> None:
    # Data must be JSON-compatible: only dict/list/str/int/float/bool/None.
    doc = only_doc(MERGE_TESTS + "t: 2015-01-01\nb: !!binary aGk=\nf: 1.5\n")
    stack: list[Any] = [doc.data]
    while stack:
        v = stack.pop()
        if isinstance(v, dict):
            assert all(isinstance(k, str) for k in v)
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
        else:
            assert v is None or isinstance(v, (str, int, float, bool))
            assert not (isinstance(v, float) and not math.isfinite(v))


def test_numbers_decide_int_or_float_as_go_does() -> None:
    # go-yaml v2 resolve (go.yaml.in/yaml/v2 v2.4.3): ParseInt, ParseUint, then ParseFloat of a
    # float-looking text; sigs.k8s.io/yaml json.Marshal writes a float64 with the shortest digits
    # ('f' below 1e21); the apiserver reads an int64 when that text is one (convertNumber).
    d = data(
        "a: -9223372036854775809\n"      # no int64/uint64: float, written -9223372036854776000: float
        "b: -9223372036854775808\n"      # ParseInt: int
        "c: 9223372036854775808\n"       # ParseUint: uint64, no int64 for the apiserver: float
        "d: 9.223372036854775e18\n"      # float, written 9223372036854775000: int
        "e: 1e3\n"                       # float 1000, written 1000: int
        "f: 0x1FFFFFFFFFFFFFFFF\n"       # fits no int64/uint64 and looks like no float: a string
        "g: 0777777777777777777777777\n"  # octal out of range, digits: ParseFloat reads it as decimal
        "h: 100000000000000000000.0\n"   # written 100000000000000000000: fits no int64: float
        "i: 1e21\n"                      # written 1e+21: float
        "j: 0b11111111111111111111111111111111111111111111111111111111111111111\n"  # 65 bits: a string
    )
    assert d["a"] == -9223372036854775809.0 and isinstance(d["a"], float)
    assert d["b"] == -(2**63) and isinstance(d["b"], int)
    assert d["c"] == 9223372036854775808.0 and isinstance(d["c"], float)
    assert d["d"] == 9223372036854775000 and isinstance(d["d"], int)
    assert d["e"] == 1000 and isinstance(d["e"], int)
    assert d["f"] == "0x1FFFFFFFFFFFFFFFF"
    assert d["g"] == 7.777777777777778e23 and isinstance(d["g"], float)
    assert d["h"] == 1e20 and isinstance(d["h"], float)
    assert d["i"] == 1e21 and isinstance(d["i"], float)
    assert d["j"] == "0b" + "1" * 65


def test_float_keys_use_go_float32_formatting() -> None:
    # sigs.k8s.io/yaml convertToJSONableObject: strconv.FormatFloat(key, 'g', -1, 32)
    assert data("3.14159265358979: a\n1234567.0: b\n") == {"3.1415927": "a", "1.234567e+06": "b"}
