"""Suite-wide rules: the two tiers, and a skipped test is a failure here (nothing may skip silently in CI).

Tiers (``--tier``):

- ``default`` (README's test command) needs nothing beside the checkout: every test outside ``tests/corpus/``
  except the few marked ``long``;
- ``corpus`` runs what needs ``../shared`` (corpus, corpus-outside, cel-suites, seeds, openapi): the tests in
  ``tests/corpus/``, and the long end-to-end runs marked ``long`` (each says why it is long);
- ``all``: both, in one session.

When ``../shared`` is absent the corpus tier says so in one line and stops with exit status 4 (pytest's usage
error): nothing is collected, and nothing is counted as passed.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
#: The corpus tier's tests (they read ``../shared``).
CORPUS_TIER = TESTS / "corpus"
#: ``../shared`` beside the checkout: corpus, corpus-outside, cel-suites, seeds, openapi.
SHARED = TESTS.parent.parent / "shared"
TIERS = ("default", "corpus", "all")

#: The long end-to-end runs, run by the corpus tier, not the default tier (which must finish in 3 minutes on
#: 2 cores): node id -> why it is long. An id ending in ``[*]`` names every parameter set of a parametrized test
#: but the first, which stays in the default tier, so that each module keeps its test there.
LONG_RUNS: dict[str, str] = {
    "tests/test_pre_commit_hooks.py::test_pre_commit_try_repo_runs_both_hooks":
        "pre-commit installs crdtool into an environment of its own with pip",
    "tests/yaml/test_loader.py::test_50_megabyte_file_loads_in_bounded_time":
        "writes and reads a 52 MB file (test_very_long_scalar keeps a large input in the default tier)",
    "tests/cli/test_validate_hostile_cli.py::test_fifty_megabyte_file_in_bounded_time":
        "a 50 MB file through the CLI",
    "tests/core/crdcel/test_cel_eval.py::test_deep_objects_never_raise":
        "1,100 nested rule-bearing schemas, evaluated",
    "tests/core/test_fuzz_served_metadata.py::test_empty_metadata_maps_and_lists_are_no_difference[*]":
        "a fuzzing run per metadata field",
    "tests/core/test_fuzz_properties.py::test_broken_converter_is_caught_by_the_expected_property[*]":
        "a fuzzing run per broken converter",
    "tests/core/test_fuzz_properties.py::test_correct_converters_never_fail[*]":
        "a fuzzing run per converter",
    "tests/cli/test_fuzz_cli.py::test_broken_converters_through_the_cli[*]":
        "a fuzzing run per broken converter, through the CLI",
    "tests/core/validation/test_compiled_validation.py::test_random_schemas_and_values":
        "hypothesis over random schemas and values, both validators",
    "tests/server/test_serve_integration.py::test_sigterm_answers_every_request_then_exits[*]":
        "a server under load, stopped",
}

#: How the reason of a skip that does not fail the suite begins: a test of the compiled build in a pure install
#: (``tests/test_compiled.py``, ``COMPILED_ONLY``).
COMPILED_ONLY = "needs a mypyc-compiled build"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--tier",
        choices=TIERS,
        default="default",
        help="default: every test that needs nothing beside the checkout but the long runs (README's test "
        "command); corpus: tests/corpus (the runs over ../shared) and the tests marked long; all: both",
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "long(reason): a long end-to-end run (minutes of CPU), run by the corpus tier, not the default tier",
    )
    tier = config.getoption("--tier")
    if tier != "default" and not SHARED.is_dir():
        # pytest.exit is not allowed here; UsageError prints one line and exits with status 4
        raise pytest.UsageError(
            f"the {tier} tier needs ../shared beside the checkout ({SHARED} is absent): nothing collected; "
            "the default tier (no --tier) needs nothing beside the checkout"
        )


def _within(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


#: Golden inputs of ``crdtool test``'s CLI tests (``tests/golden/test``): their suites fail on purpose, and the CLI
#: tests run them; the crdtool pytest plugin must not collect them as tests of their own.
GOLDEN = TESTS / "golden"


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    if not _within(collection_path, TESTS):
        return None
    if _within(collection_path, GOLDEN):
        return True
    tier = config.getoption("--tier")
    if tier == "default" and _within(collection_path, CORPUS_TIER):
        return True
    return None


#: The long runs chosen by measure (``tests/long_runs.py`` writes it from a timed run): node id -> CPU seconds.
LONG_RUNS_FILE = TESTS / "long_runs.txt"


def measured_long_runs() -> dict[str, float]:
    """``{node id: CPU seconds}`` from :data:`LONG_RUNS_FILE` (``seconds<TAB>node id`` lines, ``#`` comments)."""
    out: dict[str, float] = {}
    if not LONG_RUNS_FILE.is_file():
        return out
    for line in LONG_RUNS_FILE.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            seconds, _, nodeid = line.partition("\t")
            out[nodeid] = float(seconds)
    return out


#: A parametrized test with more cases than this (the tables transcribed from upstream's tests) keeps a sample
#: in the default tier, every :data:`SAMPLE_EVERY`-th case in collection order; the corpus tier runs the others.
SAMPLE_OVER = 50
SAMPLE_EVERY = 4


def _sample_large_tables(items: list[pytest.Item]) -> None:
    by_function: dict[str, list[pytest.Item]] = {}
    for item in items:
        if "[" in item.nodeid:
            by_function.setdefault(item.nodeid.split("[", 1)[0], []).append(item)
    for function, cases in by_function.items():
        if len(cases) > SAMPLE_OVER:
            for i, item in enumerate(cases):
                if i % SAMPLE_EVERY and item.get_closest_marker("long") is None:
                    item.add_marker(pytest.mark.long(f"one case in {SAMPLE_EVERY} of {function}'s {len(cases)} "
                                                     "runs in the default tier; the whole table in the corpus tier"))


def _mark_long_runs(items: list[pytest.Item]) -> None:
    measured = measured_long_runs()
    seen: set[str] = set()
    for item in items:
        nodeid = item.nodeid.replace("\\", "/")
        function = nodeid.split("[", 1)[0]
        reason = LONG_RUNS.get(nodeid) or LONG_RUNS.get(function)
        if reason is None and nodeid in measured:
            reason = f"took {measured[nodeid]:.1f} s of CPU in a timed run (tests/long_runs.txt)"
        if reason is None and function + "[*]" in LONG_RUNS:
            if function in seen:
                reason = LONG_RUNS[function + "[*]"]
            seen.add(function)
        if reason is not None:
            item.add_marker(pytest.mark.long(reason))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    _mark_long_runs(items)
    _sample_large_tables(items)
    tier = config.getoption("--tier")
    if tier == "all":
        return
    keep, drop = [], []
    for item in items:
        corpus = _within(Path(item.path), CORPUS_TIER) or item.get_closest_marker("long") is not None
        (keep if corpus == (tier == "corpus") else drop).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


def _allowed(report: pytest.TestReport) -> bool:
    longrepr = report.longrepr
    return isinstance(longrepr, tuple) and len(longrepr) == 3 and COMPILED_ONLY in str(longrepr[2])


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if os.environ.get("CRDTOOL_REGEN_GOLDEN") == "1":
        return
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    skipped = [r for r in reporter.stats.get("skipped", []) if not _allowed(r)] if reporter is not None else []
    if skipped and exitstatus == 0:
        reporter.write_line(f"{len(skipped)} test(s) skipped: skips are failures in this suite", red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


@pytest.fixture(autouse=True)
def _no_github_actions_default(monkeypatch: pytest.MonkeyPatch) -> None:
    """Run as a developer would, also under GitHub Actions: there `--output` would default to github
    (tests that check that choice set GITHUB_ACTIONS themselves)."""
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
