"""Suite-wide rules: a skipped test is a failure here (nothing may skip silently in CI).

The only deliberate skip is regenerating golden files (CRDTOOL_REGEN_GOLDEN=1), which is a
local, reviewed step and never happens in CI.
"""

from __future__ import annotations

import os

import pytest


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if os.environ.get("CRDTOOL_REGEN_GOLDEN") == "1":
        return
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    skipped = reporter.stats.get("skipped", []) if reporter is not None else []
    if skipped and exitstatus == 0:
        reporter.write_line(f"{len(skipped)} test(s) skipped: skips are failures in this suite", red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


@pytest.fixture(autouse=True)
def _no_github_actions_default(monkeypatch: pytest.MonkeyPatch) -> None:
    """Run as a developer would, also under GitHub Actions: there `--output` would default to github
    (tests that check that choice set GITHUB_ACTIONS themselves)."""
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
