"""The corpus tier of ``tests/core/crdcel/test_cel_eval.py`` (these tests read ``../shared``)."""

from __future__ import annotations

import copy
import functools
from pathlib import Path as FsPath
from typing import Any

import pytest
import yaml

from crdtool.core.crdcel.validation import (  # noqa: E402
    RUNTIME_CEL_COST_BUDGET,
    CelResult,
    validate_cel,
)
from crdtool.core.errors import OMIT, Path
from crdtool.core.schema.defaulting import default
from crdtool.core.schema.pruning import prune
from crdtool.core.schema.structural import Structural, new_structural
from crdtool.core.validation.value_validation import validate_list_sets_and_maps
from tests.core.crdcel.test_cel_eval import (
    CLASSES,
    DUPLICATE,
    GATEWAY_CASES,
    GATEWAYS,
    GATEWAYS_V1_0,
    INVALID,
    ROUTES,
    ROUTES_V1_0,
    errs,
)

CORPUS = FsPath(__file__).resolve().parents[4].parent / "shared" / "corpus"


@functools.lru_cache(maxsize=None)
def _crd_version(crd: str, version: str) -> tuple[Structural, dict[str, Any]]:
    doc = yaml.safe_load((CORPUS / "crds" / "v1" / crd).read_text())
    (v,) = [v for v in doc["spec"]["versions"] if v["name"] == version]
    schema = v["schema"]["openAPIV3Schema"]
    return new_structural(schema), schema


def gateway(crd: str, obj: dict[str, Any], version: str = "v1") -> CelResult:
    """The create path up to CEL: prune, default, then evaluate the rules."""
    ss, schema = _crd_version(crd, version)
    pruned, _ = prune(copy.deepcopy(obj), schema)
    return validate_cel(default(pruned, schema), ss, Path(""))


@pytest.mark.parametrize(("case", "crd", "obj", "expected"), GATEWAY_CASES, ids=[c[0] for c in GATEWAY_CASES])
def test_gateway_api_rules(case: str, crd: str, obj: dict[str, Any], expected: list[tuple[str, str, str]]) -> None:
    res = gateway(crd, obj)
    assert errs(res) == expected
    assert res.skipped_transition_rules == []
    for e in res.errors:
        # these rules sit on objects and arrays: a false rule omits the value, a runtime error names the type
        assert e.bad_value is OMIT or e.bad_value in ("object", "array")


def test_gateway_class_controller_name_transition_rule_is_skipped() -> None:
    obj = {
        "apiVersion": "gateway.networking.k8s.io/v1",
        "kind": "GatewayClass",
        "metadata": {"name": "c"},
        "spec": {"controllerName": "example.com/controller"},
    }
    res = gateway(CLASSES, obj)
    assert res.errors == [] and res.skipped_transition_rules == ["spec.controllerName"]


def _corpus_cr(name: str) -> dict[str, Any]:
    (doc,) = [d for d in yaml.safe_load_all((CORPUS / "crs" / name).read_text()) if d]
    return doc


@pytest.mark.parametrize(
    ("sample", "crd", "expected"),
    [
        # two listeners named "same": the v1.0.0 uniqueness rule fails (the list-map Duplicate is separate)
        (
            "gateway-api__v1.0.0__INVALID__gateway__duplicate-listeners.yaml",
            GATEWAYS_V1_0,
            [(INVALID, "spec.listeners", "Listener name must be unique within the Gateway")],
        ),
        (
            "gateway-api__v1.0.0__INVALID__gateway__hostname-tcp.yaml",
            GATEWAYS_V1_0,
            [(INVALID, "spec.listeners", "hostname must not be specified for protocols ['TCP', 'UDP']")],
        ),
        (
            "gateway-api__v1.0.0__INVALID__httproute__invalid-path-specialchars.yaml",
            ROUTES_V1_0,
            [
                (
                    INVALID,
                    "spec.rules[0].matches[0].path",
                    "must only contain valid characters (matching ^(?:[-A-Za-z0-9/._~!$&'()*+,;=:@]|[%][0-9a-fA-F]{2})+$) "
                    "for types ['Exact', 'PathPrefix']",
                )
            ],
        ),
        (
            "gateway-api__v1.0.0__INVALID__httproute__invalid-request-redirect-with-backendref.yaml",
            ROUTES_V1_0,
            [(INVALID, "spec.rules[0]", "RequestRedirect filter must not be used together with backendRefs")],
        ),
        # headers is a list-type map keyed by name: the rejection is the list-map Duplicate, no CEL rule fails
        ("gateway-api__v1.0.0__INVALID__httproute__duplicate-header-match.yaml", ROUTES_V1_0, []),
    ],
)
def test_corpus_invalid_gateway_samples(sample: str, crd: str, expected: list[tuple[str, str, str]]) -> None:
    assert errs(gateway(crd, _corpus_cr(sample))) == expected


def test_corpus_duplicate_header_match_is_a_list_map_duplicate() -> None:
    obj = _corpus_cr("gateway-api__v1.0.0__INVALID__httproute__duplicate-header-match.yaml")
    _, schema = _crd_version(ROUTES_V1_0, "v1")
    found = validate_list_sets_and_maps(Path(""), schema, obj)
    assert [(e.type, e.field) for e in found] == [(DUPLICATE, "spec.rules[0].matches[0].headers[1]")]


@pytest.mark.parametrize(
    ("sample", "crd"),
    [
        ("gateway-api__v1.6.1__basic-http.yaml", ROUTES),
        ("gateway-api__v1.6.1__default-match-http.yaml", ROUTES),
        ("gateway-api__v1.6.1__httproute-all-fields-set.yaml", ROUTES),
        ("gateway-api__v1.6.1__httproute-rewrite-full-path.yaml", ROUTES),
        ("gateway-api__v1.6.1__simple-http-https-gateway.yaml", GATEWAYS),
    ],
)
def test_corpus_valid_gateway_samples(sample: str, crd: str) -> None:
    for doc in yaml.safe_load_all((CORPUS / "crs" / sample).read_text()):
        if doc and doc["kind"].lower() + "s" in crd:
            res = gateway(crd, doc)
            assert res.errors == [] and 0 < res.remaining_budget < RUNTIME_CEL_COST_BUDGET
