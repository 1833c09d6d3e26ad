"""Document.prefetch_positions (crdtool/yaml/loader.py): the one-pass position finder agrees with the full re-parse.

``position`` used to re-parse a document in full, keeping every node's mark;
``prefetch_positions`` finds the marks of given paths in one pass over
libyaml's events without building the document. The full re-parse is the
exact path, so every test compares the two: on every error path and on
sampled paths of every document in ../shared/corpus, and on the YAML that
the one-pass finder must leave to the full re-parse (aliases, merge keys,
duplicate keys) or treat like it (odd keys, flow style, JSON).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from crdtool.cli.inputs import load_inputs
from crdtool.yaml.loader import Document, load_documents


def _paths_in(data: Any, rng: random.Random, limit: int) -> list[str]:
    """Field paths of nodes of ``data`` in the validators' syntax (a random sample, and some beyond the data)."""
    out: list[str] = [""]
    stack: list[tuple[Any, str]] = [(data, "")]
    while stack:
        node, path = stack.pop()
        if isinstance(node, dict):
            for k, v in node.items():
                p = f"{path}.{k}" if path else k
                if path and ("." in k or rng.random() < 0.3):
                    p = f"{path}[{k}]"
                out.append(p)
                stack.append((v, p))
        elif isinstance(node, list):
            for i, v in enumerate(node):
                p = f"{path}[{i}]"
                out.append(p)
                stack.append((v, p))
    rng.shuffle(out)
    sample = out[:limit]
    return sample + [p + ".notThere" for p in sample[:5]] + [p + "[99999]" for p in sample[:5]]


def _fresh(doc: Document) -> Document:
    """The same document as loaded again (nothing prefetched, nothing re-parsed)."""
    [again] = [d for d in load_documents(_text_of(doc), doc.file) if isinstance(d, Document) and d.index == doc.index]
    return again


def _text_of(doc: Document) -> bytes:
    return Path(doc.file).read_bytes()


def _assert_agree(doc: Document, paths: list[str]) -> int:
    """Prefetch ``paths`` on ``doc`` and compare each answer with a fresh document's full re-parse."""
    exact = _fresh(doc)
    exact_positions = [exact.position(p) for p in paths]
    assert exact._source is not None and exact._source.done
    doc.prefetch_positions(paths)
    assert doc._source is not None
    assert not doc._source.done or doc.duplicate_keys, "prefetching must not fall back to the full re-parse here"
    assert [doc.position(p) for p in paths] == exact_positions
    return len(paths)


def _only(text: str) -> Document:
    [doc] = load_documents(text, "t.yaml")
    assert isinstance(doc, Document)
    return doc


@pytest.mark.parametrize(
    "text",
    [
        # flow style, quoted and odd keys (numbers, booleans, null, tagged), multi-line scalars
        "a: {b: [1, {c: d}], 'e.f': x}\n\"g\": |\n  text\n  more\nh: >-\n  folded\n1: one\ntrue: t\n!!str 5: five\n",
        # comments, documents after a header, deep nesting
        "# c\n---\nspec:\n  # c\n  x:\n    - - - y\n      - z\n    - w: {v: [u]}\n",
        # an anchor that no alias uses on the wanted paths
        "a: &x {b: 1}\nc: [1, 2]\nd: e\n",
    ],
)
def test_odd_yaml_agrees(text: str, tmp_path: Path) -> None:
    f = tmp_path / "t.yaml"
    f.write_text(text)
    [doc] = [d for d in load_inputs([str(f)]) if isinstance(d, Document)]
    _assert_agree(doc, _paths_in(doc.data, random.Random(1), 100))


def test_json_document_starting_mid_line(tmp_path: Path) -> None:
    f = tmp_path / "t.json"
    f.write_text('  {"kind": "X", "spec": {"a": [1, {"b": 2}], "c.d": true}}\n')
    [doc] = [d for d in load_inputs([str(f)]) if isinstance(d, Document)]
    _assert_agree(doc, ["kind", "spec.a[1].b", "spec[c.d]", "spec.a[1]", "spec.e"])


@pytest.mark.parametrize(
    ("text", "path"),
    [
        ("base: &b\n  served: true\nversions:\n- <<: *b\n  name: v1\n", "versions[0].served"),  # merge key
        ("base: &b\n  name: v0\nversions:\n- *b\n", "versions[0].name"),  # inside an alias
        ("base: &b\n  name: v0\nversions:\n- !!merge <<: *b\n", "versions[0].name"),  # tagged merge key
    ],
)
def test_aliases_and_merge_keys_on_the_path_fall_back(text: str, path: str) -> None:
    doc = _only(text)
    doc.prefetch_positions([path])
    assert doc._source is not None and path not in doc._source.prefetched
    assert doc.position(path) == _only(text).position(path)  # answered by the full re-parse


def test_alias_at_the_end_of_a_path_is_answered() -> None:
    text = "base: &b\n  name: v0\nversions:\n- *b\n"
    doc = _only(text)
    doc.prefetch_positions(["versions[0]"])
    assert doc._source is not None and doc._source.prefetched == {"versions[0]": (4, 3)}
    assert doc.position("versions[0]") == _only(text).position("versions[0]") == (4, 3)


def test_duplicate_keys_fall_back() -> None:
    text = "spec:\n  group: a\n  group: b\n"
    doc = _only(text)
    doc.prefetch_positions(["spec.group"])
    assert doc._source is not None and not doc._source.prefetched
    assert doc.position("spec.group") == (3, 3)


def test_positions_asked_item_by_item_cost_two_passes_then_one_reparse(monkeypatch: pytest.MonkeyPatch) -> None:
    """A List whose items are judged one by one asks for positions item by item: that stays linear.

    Each one-pass find walks the whole document, so a pass per item made a 2,000-item dump quadratic
    (issue #21: minutes); after two passes the document is re-parsed once in full and answers the rest.
    """
    from crdtool.yaml import loader

    items = "".join(f"- kind: CronTab\n  spec:\n    replicas: r{i}\n    image: x\n" for i in range(60))
    text = f"apiVersion: v1\nkind: List\nitems:\n{items}"
    passes: list[int] = []
    real = loader._targeted_marks
    monkeypatch.setattr(loader, "_targeted_marks", lambda *args: passes.append(1) or real(*args))
    doc, exact = _only(text), _only(text)
    paths = [f"items[{i}].spec.replicas" for i in range(60)]
    for path in paths:
        doc.prefetch_positions([path])
    assert len(passes) == loader._TARGETED_PASSES
    assert doc._source is not None and doc._source.done
    assert [doc.position(p) for p in paths] == [exact.position(p) for p in paths]
    assert doc.position("items[59].spec.replicas") == (3 + 59 * 4 + 3, 5)
