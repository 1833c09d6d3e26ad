"""Fields of the wrong type anywhere in a CRD: a clean verdict, never an exception.

A hypothesis property replaces one node of real CRDs (the samples and a large corpus CRD) with
arbitrary JSON and checks that the whole create path returns a verdict. A wrong JSON type must be
reported as the apiserver's decoding error (UnmarshalTypeError) and stop validation, as upstream.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import yaml
from hypothesis import HealthCheck, given, settings, strategies as st

from crdtool import check_crd_manifest
from crdtool.core.errors import UNMARSHAL_TYPE

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = [yaml.safe_load((ROOT / "samples" / n).read_text()) for n in ("crontab-v1.yaml", "crontab-v1beta1.yaml", "crontab-multiversion-v1.yaml")]

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=8,
)


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(node, dict):
        for k, v in node.items():
            out += _paths(v, prefix + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += _paths(v, prefix + (i,))
    return out


def _replace(doc: Any, path: tuple[Any, ...], value: Any) -> Any:
    doc = copy.deepcopy(doc)
    if not path:
        return value
    parent = doc
    for step in path[:-1]:
        parent = parent[step]
    parent[path[-1]] = value
    return doc


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_any_node_replaced_by_any_json_gives_a_verdict(data: st.DataObject) -> None:
    sample = data.draw(st.sampled_from(SAMPLES))
    path = data.draw(st.sampled_from([p for p in _paths(sample) if len(p) >= 2]))
    value = data.draw(json_values)
    mutated = _replace(sample, path, value)
    verdict = check_crd_manifest(mutated)  # must not raise
    decode_errors = [f for f in verdict.findings if f.error.type == UNMARSHAL_TYPE]
    if decode_errors:
        # Decoding stops at the first wrong type; nothing is validated after it.
        assert len(decode_errors) == 1
        assert all(f.error.type in (UNMARSHAL_TYPE, "UnknownField") for f in verdict.findings)


def test_wrong_type_message_is_the_apiservers() -> None:
    doc = copy.deepcopy(SAMPLES[0])
    doc["spec"]["names"]["plural"] = 42
    verdict = check_crd_manifest(doc)
    [finding] = verdict.findings
    assert finding.error.type == UNMARSHAL_TYPE
    assert finding.error.field == "spec.names.plural"
    assert "cannot unmarshal number into Go struct field" in str(finding.error)
    assert "of type string" in str(finding.error)
