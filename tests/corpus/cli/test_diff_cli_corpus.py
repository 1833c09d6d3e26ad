"""The corpus tier of ``tests/cli/test_diff_cli.py`` (these tests read ``../shared``)."""

from __future__ import annotations

import json

from tests.cli.test_diff_cli import ROOT, run

CORPUS = ROOT.parent / "shared" / "corpus" / "crds"


def test_json_is_a_list_for_several_pairs() -> None:
    old = CORPUS / "v1beta1" / "traefik__v2.0.0__kubernetes-crd.yaml"
    new = CORPUS / "v1" / "traefik__v2.10.0__kubernetes-crd-definition-v1.yaml"
    data = json.loads(run([str(old), str(new), "--output", "json"]).stdout)
    assert isinstance(data, list) and len(data) == 18
    added = [d for d in data if d["update"] is None]
    assert len(added) == 14 and all(d["changes"][0]["kind"] == "crd-added" for d in added)
