"""envoy-gateway's envtest CEL suite (``../shared/cel-suites/envoy-gateway``: 499 creates), as crdtool suites and
through ``crdtool.testing``'s assertions. The suites are written from the shared data at run time; without
``../shared`` these tests fail (they are part of the project's acceptance, never skipped)."""

from __future__ import annotations

import collections
import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from crdtool.testing import assert_invalid, assert_valid
from crdtool.testing.runner import run
from crdtool.testing.suite import load_suite

SHARED = Path(__file__).resolve().parents[3].parent / "shared"
SOURCE = SHARED / "cel-suites" / "envoy-gateway"


def _cases() -> list[dict[str, Any]]:
    if not (SOURCE / "cases.jsonl").is_file():
        pytest.fail(f"{SOURCE} is missing: the envoy-gateway suite needs ../shared beside the checkout")
    return [json.loads(line) for line in (SOURCE / "cases.jsonl").read_text().splitlines() if line.strip()]


def write_suites(cases: list[dict[str, Any]], out: Path) -> list[Path]:
    """One suite per Go test file: objects and wantErrors as envtest sends and compares them (field validation
    Warn, controller-runtime's default; wantErrors are substrings of the apiserver's message, any case)."""
    by_file: dict[str, list[dict[str, Any]]] = collections.defaultdict(list)
    for case in cases:
        by_file[case["file"]].append(case)
    paths = []
    for file, group in by_file.items():
        seen: collections.Counter[str] = collections.Counter()
        suite: dict[str, Any] = {"crds": [str(SOURCE / "crds")], "fieldValidation": "Warn", "ignoreCase": True, "cases": []}
        for case in group:
            assert case["op"] == "create"
            name = f"{case['test']}/{case['name']}"
            seen[name] += 1
            if seen[name] > 1:
                name = f"{name} #{seen[name]}"
            expect = {"statusMessage": case["wantErrors"]} if case["wantErrors"] else {"valid": True}
            suite["cases"].append({"name": name, "object": case["object"], "expect": expect})
        path = out / file.replace("_test.go", ".crdtest.yaml")
        path.write_text(yaml.safe_dump(suite, sort_keys=False))
        paths.append(path)
    return paths


def test_the_499_cases_pass_as_suites(tmp_path: Path) -> None:
    cases = _cases()
    assert len(cases) == 499
    suites = [load_suite(str(p)) for p in write_suites(cases, tmp_path)]
    assert [e for s in suites for e in s.errors] == []
    result = run(suites)
    assert len(result.results) == 499
    assert [r.explain() for r in result.failed] == []
    assert sum(r.case.expect.expects_valid for r in result.results) == sum(not c["wantErrors"] for c in cases)


def test_a_wrong_expectation_fails(tmp_path: Path) -> None:
    cases = [c for c in _cases() if c["wantErrors"]][:1] + [c for c in _cases() if not c["wantErrors"]][:1]
    cases[0] = {**cases[0], "wantErrors": ["no apiserver says this"]}
    cases[1] = {**cases[1], "wantErrors": ["mergeType"]}
    result = run([load_suite(str(p)) for p in write_suites(cases, tmp_path)])
    assert [r.outcome for r in result.results] == ["failed", "failed"]


def test_the_499_cases_pass_through_crdtool_testing() -> None:
    crds = SOURCE / "crds"
    checked = 0
    for case in _cases():
        if not case["wantErrors"]:
            assert_valid(case["object"], crds, field_validation="Warn")
        for want in case["wantErrors"]:
            assert_invalid(case["object"], crds, message=want, ignore_case=True, field_validation="Warn")
        checked += 1
    assert checked == 499
    valid = next(c for c in _cases() if not c["wantErrors"])
    with pytest.raises(AssertionError, match="the apiserver would accept it"):
        assert_invalid(valid["object"], crds, message="anything", field_validation="Warn")
    invalid = next(c for c in _cases() if c["wantErrors"])
    with pytest.raises(AssertionError, match="would refuse it"):
        assert_valid(invalid["object"], crds, field_validation="Warn")
    with pytest.raises(AssertionError, match="expected an error"):
        assert_invalid(invalid["object"], crds, message="no apiserver says this", field_validation="Warn")


def test_the_report_is_the_same_with_one_worker_or_two(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``crdtool test --jobs 2`` runs the cases in forked workers: the JSON report (each error with the rule that
    produced it, the coverage table) and the exit status are those of ``--jobs 1``."""
    import contextlib
    import io

    from crdtool.cli import jobs as jobs_module
    from crdtool.cli import test as test_cmd

    pools: list[int] = []
    real = jobs_module.ordered_map

    def counted(function: Any, tasks: Any, jobs: int, **kw: Any) -> Any:
        pools.append(jobs)
        return real(function, tasks, jobs, **kw)

    monkeypatch.setattr(jobs_module, "ordered_map", counted)

    paths = [str(p) for p in write_suites(_cases(), tmp_path)]
    outputs = []
    for jobs in (1, 2):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            status = test_cmd.run(paths, "json", coverage=True, jobs=jobs, stream=out)
        outputs.append((status, out.getvalue()))
    assert pools == [2]  # --jobs 1 runs here; --jobs 2 in two workers
    assert outputs[0] == outputs[1]
    status, text = outputs[0]
    report = json.loads(text)
    assert status == 0 and report["summary"]["cases"] == 499 and report["summary"]["passed"] == 499
    assert report["coverage"]["items"] and sum(bool(e.get("rule")) for c in report["cases"] for e in c["errors"]) > 100
