"""Upstream's update tests (ratcheting_test.go, validation_test.go's transition rules and ratcheting) as suites."""

from __future__ import annotations

from crdtool.testing.runner import run
from crdtool.testing.suite import load_suite
from tests.testing.upstream_suites import OUT, all_suites


def test_the_committed_suites_are_what_the_script_makes() -> None:
    made = all_suites()
    committed = {p.name: p.read_text() for p in OUT.glob("*.crdtest.yaml")}
    assert sorted(committed) == sorted(made)
    stale = [name for name, text in made.items() if committed[name] != text]
    assert stale == [], "run python tests/testing/upstream_suites.py"


def test_every_upstream_update_case_passes() -> None:
    suites = [load_suite(str(p)) for p in sorted(OUT.glob("*.crdtest.yaml"))]
    assert all(not s.errors for s in suites), [e for s in suites for e in s.errors]
    result = run(suites)
    updates = [r for r in result.results if r.case.old_object is not None]
    assert len(result.results) == 108 and len(updates) >= 90
    assert [r.explain() for r in result.failed] == []
