"""gateway-api's envtest CEL suite (tests/cel/*_test.go, see suites/gateway-api/README.md) passes as crdtool suites."""

from __future__ import annotations

from pathlib import Path

from crdtool.testing.runner import run
from crdtool.testing.suite import load_suite

SUITES = Path(__file__).resolve().parent / "suites" / "gateway-api"


def test_every_gateway_api_case_passes_in_both_channels() -> None:
    suites = [load_suite(str(p)) for p in sorted(SUITES.glob("*/*.crdtest.yaml"))]
    assert [e for s in suites for e in s.errors] == []
    result = run(suites)
    by_channel = {"standard": 0, "experimental": 0}
    for r in result.results:
        by_channel[Path(r.case.file).parent.name] += 1
    assert by_channel == {"standard": 156, "experimental": 242}
    assert len({r.case.name for r in result.results}) == 251
    assert sum(r.case.subresource == "status" for r in result.results) > 0
    assert [r.explain() for r in result.failed] == []
