"""A pytest plugin: every ``*.crdtest.yaml`` file is collected as a test module, each case as a test item.

Registered through the ``pytest11`` entry point ``crdtool``, so installing crdtool is enough::

    $ pytest tests/ config/crd/tests/
    config/crd/tests/widgets.crdtest.yaml ....F

Each case runs under each of its Kubernetes releases (an item per release, ``name[1.33]``; ``--crdtest-kubernetes-version``
overrides them, as ``crdtool test --kubernetes-version``). A failing case is reported as ``crdtool test``
reports it: the problems, then expected against got, each error with its rule and ``file:line``. A suite that
cannot be read is one failing item naming the problems. ``-k`` selects cases by name as for any test.
Disable with ``-p no:crdtool``.
"""

from __future__ import annotations

from typing import Any, Iterator

import pytest

from crdtool.testing.suite import SUITE_SUFFIXES


class CrdTestFailure(Exception):
    """A case whose expectation does not hold (carries the :class:`~crdtool.testing.runner.CaseResult`)."""

    def __init__(self, result: Any) -> None:
        super().__init__(result.explain())
        self.result = result


class SuiteReadError(Exception):
    """A suite file that cannot be read as written."""


def pytest_addoption(parser: Any) -> None:
    group = parser.getgroup("crdtool", "crdtool test suites (*.crdtest.yaml)")
    group.addoption(
        "--crdtest-kubernetes-version", metavar="RELEASES", default=None,
        help="Run every *.crdtest.yaml case under these Kubernetes releases (1.33, 1.30-1.37, supported, all).",
    )


def _session(config: Any) -> Any:
    session = getattr(config, "_crdtool_session", None)
    if session is None:
        from crdtool.testing.runner import Session

        session = Session()
        config._crdtool_session = session
    return session


def pytest_collect_file(file_path: Any, parent: Any) -> Any:
    if file_path.name.endswith(SUITE_SUFFIXES):
        return CrdTestFile.from_parent(parent, path=file_path)
    return None


class CrdTestFile(pytest.File):
    """One suite file."""

    def collect(self) -> Iterator[pytest.Item]:
        from crdtool.testing.releases import parse_kubernetes_versions
        from crdtool.testing.runner import releases_for
        from crdtool.testing.suite import load_suite

        from crdtool.testing.runner import crd_refusals
        from crdtool.testing.suite import BLOCKING_KINDS

        session = _session(self.config)
        suite = load_suite(str(self.path), crd_cache=session.crd_cache)
        if suite.errors:
            yield CrdTestSuiteError.from_parent(self, name="<suite>", suite=suite)
            if not (suite.crds or suite.objects) or any(e.kind in BLOCKING_KINDS for e in suite.errors):
                return
        option = self.config.getoption("--crdtest-kubernetes-version")
        override = parse_kubernetes_versions(option) if option else None
        items = []
        for case in suite.cases:
            releases = releases_for(case, suite, override)
            for release in releases:
                name = f"{case.name}[{release}]" if len(releases) > 1 else case.name
                items.append((name, case, release, len(releases) > 1))
        # as crdtool test: a CRD the apiserver of one of these releases refuses fails the suite, no case runs
        refused = crd_refusals(suite, session, dict.fromkeys(item[2] for item in items))
        if refused:
            suite.errors.extend(refused)
            if len(suite.errors) == len(refused):
                yield CrdTestSuiteError.from_parent(self, name="<suite>", suite=suite)
            return
        for name, case, release, multi in items:
            yield CrdTestItem.from_parent(self, name=name, suite=suite, case=case, release=release, multi=multi)


class CrdTestItem(pytest.Item):
    """One case under one release."""

    def __init__(self, *, suite: Any, case: Any, release: str, multi: bool, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.suite = suite
        self.case = case
        self.release = release
        self.multi = multi

    def runtest(self) -> None:
        from crdtool.testing.runner import run_case

        result = run_case(_session(self.config), self.suite, self.case, self.release, multi_release=self.multi)
        if not result.passed:
            raise CrdTestFailure(result)

    def repr_failure(self, excinfo: Any, style: Any = None) -> Any:
        if isinstance(excinfo.value, CrdTestFailure):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple[Any, int, str]:
        return self.path, max(self.case.line - 1, 0), f"{self.case.operation} {self.name}"


class CrdTestSuiteError(pytest.Item):
    """A suite that cannot be read: fails, naming each problem with its line."""

    def __init__(self, *, suite: Any, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.suite = suite

    def runtest(self) -> None:
        raise SuiteReadError("\n".join(str(e) for e in self.suite.errors))

    def repr_failure(self, excinfo: Any, style: Any = None) -> Any:
        return str(excinfo.value)

    def reportinfo(self) -> tuple[Any, int, str]:
        return self.path, 0, "suite"
