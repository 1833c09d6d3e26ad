"""The corpus tier of ``tests/core/test_json_schema.py`` (these tests read ``../shared``)."""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from crdtool.core.customresource import apply_create, prepare_crd
from crdtool.core.json_schema import crd_json_schemas
from tests.core.test_json_schema import ACCEPTED, ROOT, SAMPLES, _accepts, _generation_setup
from tests.corpus.core.test_corpus_crs import CASES, CORPUS, _crd_for, _object


def _corpus_crds() -> list[tuple[str, Any]]:
    """The corpus CRDs the apiserver accepts (verdicts pinned by tests/corpus/expected_crd_verdicts.json), and the samples."""
    import json

    from crdtool.cli.inputs import load_inputs
    from crdtool.yaml.loader import Document

    verdicts = json.loads((ROOT / "tests" / "corpus" / "expected_crd_verdicts.json").read_text())
    valid = sorted(k for k, v in verdicts.items() if v.get("status") == "valid")
    out = []
    files: dict[str, dict[int, Any]] = {}
    for key in valid:
        rel, _, index = key.rpartition("#")
        if rel not in files:
            files[rel] = {d.index: d.data for d in load_inputs([str(CORPUS / rel)]) if isinstance(d, Document)}
        out.append((key, files[rel][int(index)]))
    for path in sorted(SAMPLES.glob("crontab*.yaml")):
        out += [
            (path.name, d.data)
            for d in load_inputs([str(path)])
            if isinstance(d, Document) and d.data.get("kind") == "CustomResourceDefinition"
        ]
    return out


def test_every_valid_corpus_crd_exports_valid_json_schemas() -> None:
    crds = _corpus_crds()
    assert len(crds) >= 120
    meta = Draft202012Validator(Draft202012Validator.META_SCHEMA, format_checker=Draft202012Validator.FORMAT_CHECKER)
    count = 0
    # metaschema validation of large schemas is slow (~0.1 s each): a quarter of the corpus CRDs, strict and
    # loose alternately (the other tests here validate objects with the schemas of many more)
    for i, (name, crd) in enumerate(crds[::4]):
        prepared = prepare_crd(crd)
        for strict in (i % 2 == 0,):
            for exported in crd_json_schemas(prepared, strict=strict):
                errors = list(meta.iter_errors(exported.schema))
                assert not errors, (name, exported.file_name, errors[0].message)
                count += 1
    assert count >= 30


@pytest.mark.parametrize("case", ACCEPTED, ids=[c.id for c in ACCEPTED])
def test_exported_schema_accepts_every_corpus_object_crdtool_accepts(case: Any) -> None:
    obj = _object(case)
    prepared = _crd_for(case.crd, obj)
    assert not apply_create(obj, prepared).errors  # crdtool accepts it (the verdict test pins why)
    version = obj["apiVersion"].rpartition("/")[2]
    for strict in (False, True):
        [exported] = crd_json_schemas(prepared, version=version, strict=strict)
        errors = sorted(Draft202012Validator(exported.schema).iter_errors(obj), key=lambda e: list(e.path))
        assert not errors, (strict, list(errors[0].path), errors[0].message)


def test_exported_schema_rejects_what_openapi_validation_rejects() -> None:
    """The KEDA v1.5.0 sample (see test_corpus_crs): `spec:` null under a v1beta1 CRD that prunes nothing."""
    [case] = [c for c in CASES if "keda" in c.cr and c.verdict == "invalid"]
    obj = _object(case)
    prepared = _crd_for(case.crd, obj)
    assert apply_create(obj, prepared).errors
    [exported] = crd_json_schemas(prepared, version=obj["apiVersion"].rpartition("/")[2])
    assert not _accepts(exported.schema, obj)


# Objects generated from the schemas themselves: what crdtool's create path accepts (fuzz strategies).
GENERATED = [
    "samples/crontab-v1.yaml",
    "samples/crontab-multiversion-v1.yaml",
    "tests/fuzz_converters/widget-crd.yaml",
    "../shared/corpus/crds/v1/cert-manager__v1.21.1__cert-manager.io_issuers.yaml",
    "../shared/corpus/crds/v1/gateway-api__v1.6.1__standard__gatewayclasses.yaml",
    "../shared/corpus/crds/v1/cluster-api__v1.14.0__ipam.cluster.x-k8s.io_ipaddresses.yaml",
    "../shared/corpus/crds/v1/crossplane__v2.3.4__apiextensions.crossplane.io_usages.yaml",
    "../shared/corpus/crds/v1/sample-controller__kubernetes-1.22.0__crd-status-subresource.yaml",
]


@pytest.mark.parametrize("path", GENERATED)
@settings(
    max_examples=15,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large],
)
@given(data=st.data())
def test_exported_schema_accepts_generated_objects_crdtool_accepts(path: str, data: Any) -> None:
    for strategy, strict, loose in _generation_setup(path):
        obj = data.draw(strategy)
        errors = list(strict.iter_errors(obj))
        assert not errors, (list(errors[0].path), errors[0].message)
        jsonschema.validate(obj, loose, cls=Draft202012Validator)
