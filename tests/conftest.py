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


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    if not _within(collection_path, TESTS):
        return None
    tier = config.getoption("--tier")
    if tier == "default" and _within(collection_path, CORPUS_TIER):
        return True
    return None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
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
