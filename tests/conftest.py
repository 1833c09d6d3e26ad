"""Suite-wide rules: a skipped test is a failure here (nothing may skip silently in CI).

The deliberate skips: regenerating golden files (CRDTOOL_REGEN_GOLDEN=1), a local, reviewed step
that never happens in CI; and the tests of the mypyc-compiled build in a pure-Python install
(the default), skipped with :data:`COMPILED_ONLY` as their reason (``-ra`` shows it) -- the
GitHub workflow's compiled job runs them on a compiled wheel.
"""

from __future__ import annotations

import os

import pytest

#: How the reason of a skip that does not fail the suite begins: a test of the compiled build in a pure install
#: (``tests/test_compiled.py``, ``COMPILED_ONLY``).
COMPILED_ONLY = "needs a mypyc-compiled build"


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
