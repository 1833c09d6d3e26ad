"""The two test tiers of tests/conftest.py: what each collects, and the corpus tier without ../shared."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from tests import conftest

ROOT = Path(__file__).resolve().parents[1]


class _Config:
    def __init__(self, tier: str) -> None:
        self.tier = tier
        self.deselected: list[Any] = []
        self.hook = SimpleNamespace(pytest_deselected=lambda items: self.deselected.extend(items))
        self.lines: list[tuple[str, str]] = []

    def getoption(self, name: str) -> str:
        assert name == "--tier"
        return self.tier

    def addinivalue_line(self, name: str, line: str) -> None:
        self.lines.append((name, line))


class _Item:
    def __init__(self, path: Path, long: bool = False) -> None:
        self.path = path
        self.long = long
        self.nodeid = f"{path.relative_to(conftest.TESTS.parent).as_posix()}::test_t"

    def add_marker(self, marker: Any) -> None:
        raise AssertionError(f"{self.nodeid} is no long run")

    def get_closest_marker(self, name: str) -> object | None:
        return object() if name == "long" and self.long else None


ITEMS = {
    "unit": _Item(conftest.TESTS / "core" / "test_x.py"),
    "long": _Item(conftest.TESTS / "cli" / "test_y.py", long=True),
    "corpus": _Item(conftest.CORPUS_TIER / "core" / "test_z.py"),
}


@pytest.mark.parametrize(
    ("tier", "kept"), [("default", ["unit"]), ("corpus", ["long", "corpus"]), ("all", ["unit", "long", "corpus"])]
)
def test_each_tier_keeps_its_tests_and_deselects_the_others(tier: str, kept: list[str]) -> None:
    config = _Config(tier)
    items: list[Any] = list(ITEMS.values())
    conftest.pytest_collection_modifyitems(config, items)  # type: ignore[arg-type]
    assert items == [ITEMS[k] for k in kept]
    assert config.deselected == [v for k, v in ITEMS.items() if k not in kept]


def test_the_default_tier_does_not_even_import_the_corpus_tier() -> None:
    config = _Config("default")
    assert conftest.pytest_ignore_collect(conftest.CORPUS_TIER / "core" / "test_z.py", config) is True  # type: ignore[arg-type]
    assert conftest.pytest_ignore_collect(conftest.TESTS / "core" / "test_x.py", config) is None  # type: ignore[arg-type]
    assert conftest.pytest_ignore_collect(conftest.CORPUS_TIER / "x.py", _Config("corpus")) is None  # type: ignore[arg-type]


@pytest.mark.parametrize("tier", ["corpus", "all"])
def test_without_shared_the_corpus_tier_is_a_one_line_usage_error(
    tier: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(conftest, "SHARED", tmp_path / "absent")
    with pytest.raises(pytest.UsageError, match=r"needs \.\./shared beside the checkout .*absent.*nothing collected"):
        conftest.pytest_configure(_Config(tier))  # type: ignore[arg-type]
    conftest.pytest_configure(_Config("default"))  # type: ignore[arg-type]  # needs nothing


def test_a_bare_clone_runs_the_corpus_tier_command_to_exit_status_4(tmp_path: Path) -> None:
    """A copy of tests/ with nothing beside it: one line on stderr, exit status 4 (never 5, never 0)."""
    clone = tmp_path / "clone"
    (clone / "tests").mkdir(parents=True)
    for name in ("__init__.py", "conftest.py"):
        (clone / "tests" / name).write_text((conftest.TESTS / name).read_text())
    (clone / "pyproject.toml").write_text((ROOT / "pyproject.toml").read_text())
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--tier", "corpus"],
        cwd=clone,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 4, proc.stdout + proc.stderr
    lines = [ln for ln in proc.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and "../shared" in lines[0] and "nothing collected" in lines[0], proc.stderr


@pytest.mark.parametrize("nodeid", sorted(conftest.LONG_RUNS))
def test_each_long_run_names_a_test_that_exists(nodeid: str) -> None:
    path, _, function = nodeid.removesuffix("[*]").partition("::")
    source = (ROOT / path).read_text(encoding="utf-8")
    assert f"def {function}(" in source, f"{nodeid}: no such test (rename it in LONG_RUNS too)"
    assert conftest.LONG_RUNS[nodeid].strip(), "say why it is long"


def test_a_parametrized_long_run_keeps_its_first_parameter_set_in_the_default_tier() -> None:
    class Item(_Item):
        def __init__(self, nodeid: str) -> None:
            super().__init__(conftest.TESTS / "x.py")
            self.nodeid = nodeid
            self.markers: list[Any] = []

        def add_marker(self, marker: Any) -> None:
            self.markers.append(marker)

        def get_closest_marker(self, name: str) -> object | None:
            return self.markers[0] if self.markers else None

    name = next(k for k in conftest.LONG_RUNS if k.endswith("[*]")).removesuffix("[*]")
    items: list[Any] = [Item(f"{name}[a]"), Item(f"{name}[b]"), Item(f"{name}[c]"), Item("tests/x.py::test_other")]
    conftest._mark_long_runs(items)
    assert [bool(i.markers) for i in items] == [False, True, True, False]


def test_the_measured_long_runs_name_tests_that_exist() -> None:
    measured = conftest.measured_long_runs()
    for nodeid in measured:
        path, _, function = nodeid.split("[", 1)[0].partition("::")
        assert f"def {function.split('::')[-1]}(" in (ROOT / path).read_text(encoding="utf-8"), nodeid


def test_long_runs_py_keeps_a_test_of_every_file_in_the_default_tier() -> None:
    from tests.long_runs import choose

    timings = {
        "tests/a.py::test_1": {"cpu": 2.0, "child": 0.0, "wall": 2.0},
        "tests/a.py::test_2": {"cpu": 0.1, "child": 0.5, "wall": 0.6},
        "tests/b.py::test_1": {"cpu": 0.1, "child": 0.0, "wall": 0.1},
        "tests/c.py::test_1": {"cpu": 0.0, "child": 0.2, "wall": 0.2},
        "tests/c.py::test_2": {"cpu": 0.01, "child": 0.0, "wall": 0.01},
    }
    # a.py keeps its cheaper test; b.py and c.py have nothing long
    assert choose(timings, threshold=0.5) == {"tests/a.py::test_1": 2.0}
    # c.py's test_1 goes, test_2 stays; b.py keeps its only test
    assert choose(timings, threshold=0.15) == {"tests/a.py::test_1": 2.0, "tests/c.py::test_1": 0.2}


def test_a_large_table_keeps_every_third_case_in_the_default_tier() -> None:
    class Item(_Item):
        def __init__(self, nodeid: str) -> None:
            super().__init__(conftest.TESTS / "x.py")
            self.nodeid = nodeid
            self.markers: list[Any] = []

        def add_marker(self, marker: Any) -> None:
            self.markers.append(marker)

        def get_closest_marker(self, name: str) -> object | None:
            return self.markers[0] if self.markers else None

    n = conftest.SAMPLE_OVER + 1
    table: list[Any] = [Item(f"tests/x.py::test_table[{i}]") for i in range(n)]
    small: list[Any] = [Item(f"tests/x.py::test_small[{i}]") for i in range(conftest.SAMPLE_OVER)]
    conftest._sample_large_tables(table + small)
    kept = [i for i, item in enumerate(table) if not item.markers]
    assert kept == list(range(0, n, conftest.SAMPLE_EVERY))
    assert not any(item.markers for item in small)
