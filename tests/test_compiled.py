"""The mypyc-compiled core modules (setup.py, crdtool/_compiled.py): loaded when built, same answers as the source.

A build compiles the modules of ``COMPILED_MODULES`` when ``CRDTOOL_MYPYC=1``
is set (release wheels are built so; a source install is pure Python);
``CRDTOOL_PURE_PYTHON=1`` at run time runs their ``.py`` sources instead, and
so does a compiled module older than its source. The compiled modules are the
fast path and the sources the exact one: the differential test runs
``crdtool validate`` both ways on the corpus, on corpus-outside and on the
repository's own cases, and wants byte-identical reports (the rest of the
suite runs on whichever this install has). In a pure install the differential
tests skip with :data:`COMPILED_ONLY` (the GitHub workflow's compiled job runs
them on the wheel: from a directory outside the checkout, so that the
installed package is the one tested).
"""

from __future__ import annotations

import importlib
import importlib.machinery
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from crdtool import _compiled
from crdtool._compiled import C_EXTENSIONS, COMPILED_MODULES, compiled_state, install_source_finder

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = Path(_compiled.__file__).parent
#: The reason the compiled-build tests skip in a pure install (tests/conftest.py lets exactly these skips pass).
COMPILED_ONLY = (
    "needs a mypyc-compiled build (CRDTOOL_MYPYC=1 pip install ., or a release wheel); this install is pure Python"
)


def _built() -> bool:
    return any(state != "source" for state in compiled_state().values())


def _module_files(env: dict[str, str]) -> list[str]:
    code = "import importlib, sys\nfor n in sys.argv[1:]: print(importlib.import_module(n).__file__)"
    out = subprocess.run([sys.executable, "-c", code, *COMPILED_MODULES], env=env, capture_output=True, text=True,
                         check=True, cwd=tempfile.gettempdir())
    return out.stdout.split()


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "CRDTOOL_PURE_PYTHON"}
    env.update(extra)
    return env


def test_compiled_modules_load_and_the_switch_turns_them_off() -> None:
    assert all(f.endswith(".py") for f in _module_files(_env(CRDTOOL_PURE_PYTHON="1")))
    if not _built():  # a pure-Python install (no C compiler, or CRDTOOL_PURE_PYTHON=1 while installing)
        assert set(compiled_state().values()) == {"source"}
        assert all(f.endswith(".py") for f in _module_files(_env()))
        return
    assert set(compiled_state().values()) == {"compiled"}, compiled_state()
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    assert all(f.endswith(suffixes) for f in _module_files(_env())), "a compiled module did not load"


def test_this_install_is_the_one_under_test(tmp_path: Path) -> None:
    """The subprocesses below run the crdtool these tests import (a wheel's, not the checkout beside it)."""
    out = subprocess.run([sys.executable, "-c", "import crdtool; print(crdtool.__file__)"], env=_env(),
                         capture_output=True, text=True, check=True, cwd=tmp_path)
    assert Path(out.stdout.strip()).parent == PACKAGE


def _fake_package(tmp_path: Path, ages: dict[str, float | None]) -> Path:
    """A package directory with each compiled module's ``.py`` and, unless None, an extension ``age`` s older."""
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    now = 1_700_000_000.0
    for name in COMPILED_MODULES:
        base = tmp_path.joinpath(*name.split(".")[1:])
        base.parent.mkdir(parents=True, exist_ok=True)
        source = base.with_name(base.name + ".py")
        source.write_text("")
        os.utime(source, (now, now))
        age = ages.get(name, 0.0)
        if age is not None:
            ext = base.with_name(base.name + suffix)
            ext.write_bytes(b"")
            os.utime(ext, (now - age, now - age))
    return tmp_path


def test_states_on_disk(tmp_path: Path) -> None:
    stale, missing = COMPILED_MODULES[0], COMPILED_MODULES[1]
    state = compiled_state(str(_fake_package(tmp_path, {stale: 60.0, missing: None, COMPILED_MODULES[2]: 1.0})))
    assert state[stale] == "stale"
    assert state[missing] == "source"
    assert state[COMPILED_MODULES[2]] == "compiled"  # within STALE_AFTER: written by the same install
    assert all(state[n] == "compiled" for n in COMPILED_MODULES[3:])


def test_stale_modules_run_from_source_with_a_warning(tmp_path: Path) -> None:
    package = str(_fake_package(tmp_path, {COMPILED_MODULES[0]: 60.0}))
    before = list(sys.meta_path)
    try:
        with pytest.warns(RuntimeWarning, match="older than their source"):
            # all of them: compiled modules call each other directly, not through the stale one's source
            assert install_source_finder({}, package) == list(COMPILED_MODULES + C_EXTENSIONS)
        finder = sys.meta_path[0]
        assert finder not in before
        spec = finder.find_spec(COMPILED_MODULES[0], [str(PACKAGE.joinpath(*COMPILED_MODULES[0].split(".")[1:-1]))])
        assert spec is not None and spec.origin is not None and spec.origin.endswith(".py")
        assert finder.find_spec("crdtool.core.errors", [str(PACKAGE / "core")]) is None  # not one of them
    finally:
        sys.meta_path[:] = before


def test_nothing_to_do_leaves_the_import_system_alone(tmp_path: Path) -> None:
    before = list(sys.meta_path)
    assert install_source_finder({}, str(_fake_package(tmp_path, {}))) == []
    assert install_source_finder({"CRDTOOL_PURE_PYTHON": "0"}, str(_fake_package(tmp_path, {}))) == []
    assert sys.meta_path == before
    try:
        assert install_source_finder({"CRDTOOL_PURE_PYTHON": "1"}, str(tmp_path)) == list(COMPILED_MODULES + C_EXTENSIONS)
        assert len(sys.meta_path) == len(before) + 1
    finally:
        sys.meta_path[:] = before


def test_c_extensions_run_from_source_means_without_them(tmp_path: Path) -> None:
    """A C extension has no Python source: turned off, its import fails (its caller has a pure-Python way)."""
    before = list(sys.meta_path)
    try:
        install_source_finder({"CRDTOOL_PURE_PYTHON": "1"}, str(tmp_path))
        finder = sys.meta_path[0]
        for name in C_EXTENSIONS:
            with pytest.raises(ModuleNotFoundError, match="turned off"):
                finder.find_spec(name, [str(PACKAGE / "core")])
    finally:
        sys.meta_path[:] = before


def test_a_c_extension_older_than_its_c_file_is_stale(tmp_path: Path) -> None:
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    for name in C_EXTENSIONS:
        base = tmp_path.joinpath(*name.split(".")[1:])
        base.parent.mkdir(parents=True, exist_ok=True)
        base.with_name(base.name + ".c").write_text("")
        ext = base.with_name(base.name + suffix)
        ext.write_bytes(b"")
        os.utime(ext, (1_700_000_000.0, 1_700_000_000.0))
    assert {compiled_state(str(tmp_path))[name] for name in C_EXTENSIONS} == {"stale"}


def test_compiled_modules_exist_and_are_core() -> None:
    for name in COMPILED_MODULES:
        assert name.startswith("crdtool.core.")
        assert PACKAGE.joinpath(*name.split(".")[1:]).with_suffix(".py").is_file()
        importlib.import_module(name)
    for name in C_EXTENSIONS:
        assert name.startswith("crdtool.core.")
        base = PACKAGE.joinpath(*name.split(".")[1:])
        # the C source in a checkout; an installed wheel holds only the built extension (no .c, MANIFEST.in)
        built = [base.with_name(base.name + suffix) for suffix in importlib.machinery.EXTENSION_SUFFIXES]
        assert base.with_suffix(".c").is_file() or any(p.is_file() for p in built)


def _editable_install_of_this_tree() -> bool:
    """crdtool is installed in editable mode from the tree these tests are in (as ``.ci/run`` installs it)."""
    import importlib.metadata
    import json

    for dist in importlib.metadata.distributions():
        if dist.metadata["Name"] != "crdtool":
            continue
        info = json.loads(dist.read_text("direct_url.json") or "{}")
        if info.get("dir_info", {}).get("editable") and Path(info.get("url", "").removeprefix("file://")) == ROOT:
            return True
    return False


def test_an_editable_install_writes_checked_hash_bytecode_in_place() -> None:
    """setup.py: an editable tree gets the bytecode pip writes for a regular install (PYTHONDONTWRITEBYTECODE aside)."""
    import importlib.util

    if not _editable_install_of_this_tree():
        pytest.skip("crdtool is not installed editable from this tree (.ci/run installs it so)")

    for source in PACKAGE.rglob("*.py"):
        pyc = Path(importlib.util.cache_from_source(str(source)))
        assert pyc.is_file(), f"no bytecode for {source}"
        flags = int.from_bytes(pyc.read_bytes()[4:8], "little")
        assert flags == 0b11, f"{pyc}: not a checked-hash pyc (flags {flags})"


#: Evaluates each (name, expression) read as JSON on stdin in a standard CEL environment and each (a, b) pair of
#: numbers through ``values.compare``, printing the outcomes as JSON (run as the installed crdtool runs).
_NUMERIC_SCRIPT = r"""
import json, math, sys
from crdtool.core.celgo import values as V
from crdtool.core.celgo.env import Environment, compile_expression
from crdtool.core.celgo.functions import runtime
from crdtool.core.celgo.interpreter import plan_program
cases, pairs = json.load(sys.stdin)
env = Environment(libraries=("stdlib",))
rt = runtime(env.libraries, env.cel_go)
def num(x):
    kind, text = x
    return V.Uint(int(text)) if kind == "u" else int(text) if kind == "i" else float(text)
def show(v):
    return ["err", v.msg] if type(v) is V.Err else [type(v).__name__, repr(v)]
out = {"values": {}, "compare": []}
for name, expr in cases:
    c = compile_expression(expr, {}, env=env)
    out["values"][name] = show(plan_program(c.checked, rt).eval({})) if c.checked is not None else ["compile", c.error]
for a, b in pairs:
    out["compare"].append([show(V.compare(num(a), num(b))), show(V.value_equal(num(a), num(b)))])
print(json.dumps(out, sort_keys=True))
"""


def test_numeric_comparisons_compiled_and_pure_agree(tmp_path: Path) -> None:
    """cel-spec's cross-numeric comparisons and cel-go's edge values give the same answers in both builds (and the
    cel-spec values in the pure one: tests/core/celgo/test_numeric_compare.py)."""
    import json

    from tests.core.celgo.test_numeric_compare import CEL_SPEC

    if not _built():
        pytest.skip(COMPILED_ONLY)
    edges = ["9223372036854775807", "-9223372036854775808", "9223372036854775808.0", "18446744073709551616.0",
             "-9223372036854775808.0", "9223372036854777856.0", "nan", "inf", "-inf", "-0.0", "0", "1.5"]
    nums = [("d", e) if ("." in e or e.isalpha() or e.lstrip("-").isalpha()) else ("i", e) for e in edges]
    nums += [("u", "18446744073709551615"), ("u", "9223372036854775808"), ("u", "0")]
    payload = json.dumps([[[n, e] for n, e, _ in CEL_SPEC], [[a, b] for a in nums for b in nums]])
    cmd = [sys.executable, "-c", _NUMERIC_SCRIPT]
    fast = subprocess.run(cmd, env=_env(), input=payload, capture_output=True, text=True, cwd=tmp_path, check=True)
    exact = subprocess.run(cmd, env=_env(CRDTOOL_PURE_PYTHON="1"), input=payload, capture_output=True, text=True,
                           cwd=tmp_path, check=True)
    assert fast.stdout == exact.stdout
    values = json.loads(exact.stdout)["values"]
    assert {name: v for name, v in values.items()} == {n: ["bool", repr(want)] for n, _, want in CEL_SPEC}
