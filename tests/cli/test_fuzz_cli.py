"""`crdtool fuzz-roundtrip` end to end: targets, CRDs, reports, exit codes, replay, progress.

Most tests call ``crdtool.cli.fuzz.run`` in-process (hypothesis is imported once);
a few run the real CLI in a subprocess.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from crdtool.cli import fuzz
from crdtool.cli.report import OutputFormat

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"
CRONTAB = str(SAMPLES / "crontab-multiversion-v1.yaml")
CONVERTER = str(SAMPLES / "crontab_conversion.py")
WIDGET = str(ROOT / "tests" / "fuzz_converters" / "widget-crd.yaml")


@pytest.fixture(autouse=True)
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Each test runs in its own directory with its own example database."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(fuzz.CACHE_ENV, str(tmp_path / "cache"))
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    monkeypatch.setattr(sys, "path", list(sys.path))
    monkeypatch.setattr(fuzz, "SHRINK_SECONDS", 0.5)  # keep the suite fast; shrinking is tested in core
    return tmp_path


def run(target: str, crd: str = CRONTAB, *, versions: str | None = None, examples: int = 40, seed: int | None = 1,
        timeout: float = 2.0, replay: bool = False, output: OutputFormat = OutputFormat.text) -> int:
    return fuzz.run(target, crd, versions=versions, examples=examples, seed=seed, timeout=timeout, replay=replay,
                    output=output)


def run_json(capsys: pytest.CaptureFixture[str], target: str, crd: str = CRONTAB, **kw: Any) -> tuple[int, dict[str, Any]]:
    code = run(target, crd, output=OutputFormat.json, **kw)
    return code, json.loads(capsys.readouterr().out)


# --- the done-when ----------------------------------------------------------------------------


def test_literal_crontab_converter_fails_with_a_shrunk_example(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(f"{CONVERTER}:convert") == 1
    out = capsys.readouterr().out
    assert "v1 → v2                  FAILED  call" in out
    assert "v2 → v1                  FAILED  roundtrip" in out
    assert "v1 → v1                  ok  40 examples" in out
    assert "Failure 1: call (v1 → v2)" in out
    assert "raised ValueError: invalid spec string, needs five parts" in out
    assert 'in convert_cron_v1_to_v2' in out  # the traceback inside the user's code
    assert "input (shrunk):" in out and "round trip (back to v2):" in out
    assert "Item root['spec'] (" in out  # the deepdiff of the round trip
    assert "2 of 4 version pairs failed" in out


def test_lossless_crontab_converter_passes(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(f"{CONVERTER}:convert_lossless", examples=100) == 0
    out = capsys.readouterr().out
    assert out.count("ok  100 examples") == 4
    assert "all 4 version pairs passed" in out


def test_json_report_shape(capsys: pytest.CaptureFixture[str]) -> None:
    code, report = run_json(capsys, f"{CONVERTER}:convert", seed=7)
    assert code == 1
    assert set(report) == {"ok", "examples", "seed", "pairs", "failures"}
    assert report["ok"] is False and report["examples"] == 40 and report["seed"] == 7
    assert [(p["from"], p["to"], p["ok"]) for p in report["pairs"]] == [
        ("v1", "v1", True), ("v1", "v2", False), ("v2", "v1", False), ("v2", "v2", True)
    ]
    assert all(isinstance(p["examples"], int) and p["examples"] >= 1 for p in report["pairs"])
    call, roundtrip = report["failures"]
    assert set(call) == {"property", "from", "to", "input", "converted", "roundtrip", "diff", "error"}
    assert (call["property"], call["from"], call["to"]) == ("call", "v1", "v2")
    assert call["converted"] is None and call["roundtrip"] is None and call["diff"] == ""
    assert call["error"].startswith("convert(<stable.example.com/v1 object>, 'stable.example.com/v2') raised ValueError")
    assert (roundtrip["property"], roundtrip["from"], roundtrip["to"]) == ("roundtrip", "v2", "v1")
    assert roundtrip["input"]["apiVersion"] == "stable.example.com/v2"
    assert roundtrip["converted"]["apiVersion"] == "stable.example.com/v1"
    assert roundtrip["roundtrip"]["spec"]["image"] == ""
    assert "added to dictionary" in roundtrip["diff"]


def test_passing_json_report(capsys: pytest.CaptureFixture[str]) -> None:
    code, report = run_json(capsys, f"{CONVERTER}:convert_lossless", versions="v2,v1", examples=20)
    assert code == 0
    assert report["ok"] is True and report["failures"] == []
    assert [(p["from"], p["to"], p["examples"]) for p in report["pairs"]] == [
        ("v2", "v2", 20), ("v2", "v1", 20), ("v1", "v2", 20), ("v1", "v1", 20)
    ]


@pytest.mark.parametrize(
    "target, prop",
    [("identity:keep_api_version", "metadata"), ("target_schema:add_unknown_field", "schema"),
     ("edge_cases:drop_null", "roundtrip")],
)
def test_broken_converters_through_the_cli(capsys: pytest.CaptureFixture[str], target: str, prop: str) -> None:
    module, fn = target.split(":")
    path = ROOT / "tests" / "fuzz_converters" / f"{module}.py"
    code, report = run_json(capsys, f"{path}:{fn}", WIDGET, examples=100, seed=2, timeout=2.0)
    assert code == 1
    assert {f["property"] for f in report["failures"]} == {prop}


def test_timeout_is_reported_with_where_it_hung(capsys: pytest.CaptureFixture[str]) -> None:
    path = ROOT / "tests" / "fuzz_converters" / "raises.py"
    code, report = run_json(capsys, f"{path}:sleeps_on_zero", WIDGET, examples=100, seed=2, timeout=0.1,
                            versions="v1alpha1,v1")
    assert code == 1
    failure = report["failures"][0]
    assert "did not finish within 0.1 s (timeout)" in failure["error"]
    assert "time.sleep(30)" in failure["error"]


# --- targets ------------------------------------------------------------------------------------------


def test_module_target_is_imported_from_the_current_directory(isolated: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shutil.copy(CONVERTER, isolated / "my_webhook.py")
    assert run("my_webhook:convert_lossless", examples=10) == 0


def test_nested_attribute_target(isolated: Path) -> None:
    (isolated / "hooks.py").write_text(
        "import sys\nsys.path.insert(0, %r)\nimport crontab_conversion\n\n"
        "class Webhook:\n    convert = staticmethod(crontab_conversion.convert_lossless)\n" % str(SAMPLES)
    )
    assert run("hooks:Webhook.convert", examples=10) == 0


@pytest.mark.parametrize(
    "target, message",
    [
        ("no_such_module:convert", "crdtool: module 'no_such_module' not found (the current directory is on sys.path)"),
        ("missing.py:convert", "crdtool: missing.py: no such file"),
        (f"{CONVERTER}:nope", f"crdtool: {CONVERTER} has no function 'nope'"),
        (f"{CONVERTER}:V1", f"crdtool: {CONVERTER}:V1 is a str, not a function"),
        (f"{CONVERTER}:_unmarshal_v1", f"crdtool: {CONVERTER}:_unmarshal_v1 must accept (obj: dict, desired_api_version: str)"),
        ("convert", "crdtool: TARGET must be module:function or path/to/file.py:function, not 'convert'"),
        (":convert", "crdtool: TARGET must be module:function or path/to/file.py:function, not ':convert'"),
    ],
)
def test_target_usage_errors(capsys: pytest.CaptureFixture[str], target: str, message: str) -> None:
    assert run(target) == 2
    captured = capsys.readouterr()
    assert captured.err.strip() == message
    assert captured.out == ""


def test_import_errors_in_the_users_module_are_usage_errors(isolated: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (isolated / "broken_hook.py").write_text("import json\n\nraise RuntimeError('no config')\n")
    assert run("broken_hook:convert") == 2
    err = capsys.readouterr().err
    assert err.startswith("crdtool: importing broken_hook failed: RuntimeError: no config (")
    assert "broken_hook.py:3)" in err and "Traceback" not in err
    (isolated / "needs_dep.py").write_text("import not_installed_dependency\n")
    assert run("needs_dep:convert") == 2
    assert "ModuleNotFoundError: No module named 'not_installed_dependency'" in capsys.readouterr().err


# --- CRDs and versions --------------------------------------------------------------------------------


def test_crd_usage_errors(isolated: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = f"{CONVERTER}:convert"
    assert run(target, str(isolated / "nope.yaml")) == 2
    assert "nope.yaml" in capsys.readouterr().err
    assert run(target, str(SAMPLES / "crontab-cr-v1.yaml")) == 2
    assert "no apiextensions.k8s.io CustomResourceDefinition found" in capsys.readouterr().err
    bad = isolated / "bad.yaml"
    bad.write_text(
        "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: x\n"
        "spec:\n  group: example.com\n"
    )
    assert run(target, str(bad)) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"crdtool: {bad}:4: the CRD is invalid: metadata.name: Invalid value: \"x\"")
    two = isolated / "two.yaml"
    two.write_text(Path(CRONTAB).read_text() + "\n---\n" + Path(WIDGET).read_text())
    assert run(target, str(two)) == 2
    assert "holds 2 CustomResourceDefinitions (crontabs.stable.example.com, widgets.fuzz.example.com)" in capsys.readouterr().err


def test_versions_option(capsys: pytest.CaptureFixture[str]) -> None:
    code, report = run_json(capsys, f"{CONVERTER}:convert", versions="v2", examples=10)
    assert code == 0 and [(p["from"], p["to"]) for p in report["pairs"]] == [("v2", "v2")]
    assert run(f"{CONVERTER}:convert", versions="v1,v9") == 2
    assert capsys.readouterr().err.strip() == "crdtool: --versions: the CRD has no version 'v9' (it has v1, v2)"


def test_unsatisfiable_schema_exits_2(isolated: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import yaml

    crd = yaml.safe_load(Path(CRONTAB).read_text())
    schema = crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]
    schema["required"] = ["spec"]
    schema["properties"]["spec"]["required"] = ["image"]
    schema["properties"]["spec"]["properties"]["image"]["pattern"] = "^a$"
    schema["properties"]["spec"]["properties"]["image"]["minLength"] = 2
    path = isolated / "unsat.yaml"
    path.write_text(yaml.safe_dump(crd))
    assert run(f"{CONVERTER}:convert_lossless", str(path), versions="v1", examples=5) == 2
    captured = capsys.readouterr()
    assert "NOT TESTED" in captured.out
    assert "crdtool: v1 → v1: could not generate valid stable.example.com/v1 objects" in captured.err


# --- replay, seed and the example database ----------------------------------------------------------------


def test_failures_are_saved_and_replayed(isolated: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = f"{CONVERTER}:convert"
    assert run(target) == 1
    first = capsys.readouterr().out
    assert any((isolated / "cache" / "fuzz").iterdir())
    code, report = run_json(capsys, target, replay=True, seed=None)
    assert code == 1
    # each saved object is checked against the targets of its source in order, up to the failure:
    # the v1 object passes v1 -> v1 and fails v1 -> v2; the v2 object fails v2 -> v1 first
    assert [(p["from"], p["to"], p["examples"]) for p in report["pairs"]] == [
        ("v1", "v1", 1), ("v1", "v2", 1), ("v2", "v1", 1), ("v2", "v2", 0)
    ]
    assert {f["property"] for f in report["failures"]} == {"call", "roundtrip"}
    assert "replayed first next time" in first
    # nothing saved for another target
    assert run(f"{CONVERTER}:convert_lossless", replay=True) == 0
    assert capsys.readouterr().out.count("no saved failures") == 4


def test_seed_reproduces_a_run(isolated: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    path = ROOT / "tests" / "fuzz_converters" / "edge_cases.py"
    reports = []
    for cache in ("a", "b"):
        monkeypatch.setenv(fuzz.CACHE_ENV, str(isolated / cache))
        reports.append(run_json(capsys, f"{path}:drop_null", WIDGET, versions="v1", examples=30, seed=4)[1])
        reports.append(run_json(capsys, f"{CONVERTER}:convert", examples=20, seed=4)[1])
    assert reports[0] == reports[2] and reports[1] == reports[3]
    assert reports[1]["failures"] and reports[1]["seed"] == 4


def test_worker_processes_give_the_same_report(isolated: Path, monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    reports = []
    for workers in ("1", "2"):
        monkeypatch.setenv(fuzz.WORKERS_ENV, workers)
        monkeypatch.setenv(fuzz.CACHE_ENV, str(isolated / f"cache-{workers}"))
        assert fuzz._worker_count(2) == int(workers)
        reports.append(run_json(capsys, f"{CONVERTER}:convert", examples=30, seed=5)[1])
    assert reports[0] == reports[1]
    assert {f["property"] for f in reports[1]["failures"]} == {"call", "roundtrip"}
    monkeypatch.setenv(fuzz.WORKERS_ENV, "2")
    assert run(f"{CONVERTER}:convert", replay=True, seed=None) == 1  # replayed from the workers' saved failures


def test_unwritable_cache_still_runs(isolated: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    blocker = isolated / "file"
    blocker.write_text("")
    monkeypatch.setenv(fuzz.CACHE_ENV, str(blocker))
    assert run(f"{CONVERTER}:convert_lossless", examples=5) == 0
    assert "crdtool: warning: cannot write the example database" in capsys.readouterr().err


def test_default_cache_is_in_the_current_directory(isolated: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(fuzz.CACHE_ENV)
    assert fuzz.cache_dir() == os.path.join(".crdtool-cache", "fuzz")
    assert run(f"{CONVERTER}:convert", examples=5) == 1
    assert (isolated / ".crdtool-cache" / "fuzz").is_dir()


# --- progress, dependencies, start-up -------------------------------------------------------------------


def test_progress_bars_only_on_a_terminal(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(f"{CONVERTER}:convert_lossless", examples=5, output=OutputFormat.json) == 0
    assert capsys.readouterr().err == ""
    # stderr on a terminal (crdtool.cli.progress.wanted), the ~2 s threshold lowered for the test
    import crdtool.cli.progress

    monkeypatch.setattr(crdtool.cli.progress, "wanted", lambda: True)
    monkeypatch.setenv("CRDTOOL_PROGRESS_DELAY", "0")
    assert run(f"{CONVERTER}:convert_lossless", examples=5, output=OutputFormat.json) == 0
    captured = capsys.readouterr()
    assert "v1 → v1, v2" in captured.err and "5/5" in captured.err  # one bar per source version
    assert json.loads(captured.out)["ok"] is True  # stdout stays clean JSON
    # a run shorter than the threshold shows none
    monkeypatch.setenv("CRDTOOL_PROGRESS_DELAY", "600")
    assert run(f"{CONVERTER}:convert_lossless", examples=5, output=OutputFormat.json) == 0
    assert capsys.readouterr().err == ""


def test_missing_fuzz_dependencies_are_a_usage_error(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    real = fuzz.importlib.util.find_spec
    monkeypatch.setattr(fuzz.importlib.util, "find_spec", lambda name, *a: None if name == "deepdiff" else real(name, *a))
    assert run(f"{CONVERTER}:convert") == 2
    assert capsys.readouterr().err.strip() == "crdtool: fuzz-roundtrip needs deepdiff (dependencies of crdtool): pip install deepdiff"


def _crdtool(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), fuzz.CACHE_ENV: str(cwd / "cache")}
    env.pop("FORCE_COLOR", None)
    return subprocess.run([sys.executable, "-m", "crdtool", *args], capture_output=True, text=True, timeout=120,
                          cwd=cwd, env=env)


def test_end_to_end_exit_codes(isolated: Path) -> None:
    failing = _crdtool("fuzz-roundtrip", f"{CONVERTER}:convert", "--crd", CRONTAB, "--examples", "20", "--seed", "1",
                       "--output", "json", cwd=isolated)
    assert failing.returncode == 1, failing.stderr
    assert json.loads(failing.stdout)["ok"] is False
    assert "Traceback" not in failing.stderr
    usage = _crdtool("fuzz-roundtrip", "nowhere:convert", "--crd", CRONTAB, cwd=isolated)
    assert usage.returncode == 2 and "module 'nowhere' not found" in usage.stderr


def test_heavy_dependencies_are_not_imported_at_start_up() -> None:
    code = (
        "import sys; import crdtool.cli.app, crdtool.cli.fuzz, crdtool.core.fuzz; "
        "assert 'hypothesis' not in sys.modules and 'deepdiff' not in sys.modules, sorted(sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert out.returncode == 0, out.stderr


# --- rough edges (issue 10) ---------------------------------------------------------------------------


def _fuzz_subprocess(cwd: Path, *args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if k not in (fuzz.CACHE_ENV, "HYPOTHESIS_STORAGE_DIRECTORY")}
    base.update({"NO_COLOR": "1", "PYTHONPATH": str(ROOT), **env})
    return subprocess.run([sys.executable, "-m", "crdtool", "fuzz-roundtrip", *args], cwd=cwd, env=base,
                          capture_output=True, text=True, timeout=300)


def _files_under(path: Path) -> list[str]:
    return sorted(str(p.relative_to(path)) for p in path.rglob("*"))


@pytest.mark.parametrize("cache", ["default", "elsewhere"])
def test_writes_nothing_outside_its_cache_directory(tmp_path: Path, cache: str) -> None:
    work = tmp_path / "project"
    work.mkdir()
    converter = tmp_path / "conv" / "crontab_conversion.py"
    converter.parent.mkdir()
    shutil.copy(CONVERTER, converter)
    env = {fuzz.CACHE_ENV: str(tmp_path / "cache")} if cache == "elsewhere" else {}
    out = _fuzz_subprocess(work, f"{converter}:convert", "--crd", CRONTAB, "--examples", "10", "--seed", "3", env=env)
    assert out.returncode == 1, out.stderr  # the literal converter fails: failures are saved
    assert "Traceback" not in out.stderr
    assert _files_under(converter.parent) == ["crontab_conversion.py"]  # no __pycache__ beside it
    if cache == "default":
        assert {p.split("/")[0] for p in _files_under(work)} == {".crdtool-cache"}
        assert (work / ".crdtool-cache" / "fuzz").is_dir()
        assert (work / ".crdtool-cache" / "hypothesis").is_dir()  # what hypothesis would put in .hypothesis/
    else:
        assert _files_under(work) == []
        assert {p.split("/")[0] for p in _files_under(tmp_path / "cache")} == {"fuzz", "hypothesis"}
        assert not (tmp_path / ".hypothesis").exists()


def test_a_traceback_shared_by_several_pairs_is_printed_once(tmp_path: Path) -> None:
    out = _fuzz_subprocess(tmp_path, "tests.fuzz_converters.raises:not_written_yet", "--crd", CRONTAB,
                           "--examples", "5", "--seed", "1", env={fuzz.CACHE_ENV: str(tmp_path / "cache")})
    assert out.returncode == 1, out.stderr
    assert out.stdout.count("Traceback (most recent call last):") == 1
    assert out.stdout.count('raise NotImplementedError("conversion not written yet")') == 1
    # every pair still says what failed, and where the traceback is
    assert out.stdout.count("raised NotImplementedError: conversion not written yet") == 4
    assert out.stdout.count("(the same traceback as failure 1)") == 3
    assert "4 of 4 version pairs failed" in out.stdout


def test_worker_count_counts_whole_units_of_load(monkeypatch: pytest.MonkeyPatch) -> None:
    """A core is busy per whole unit of the load average: 0.9 on 2 cores leaves both to the two sources."""
    import os as _os

    monkeypatch.delenv(fuzz.WORKERS_ENV, raising=False)
    monkeypatch.setattr(_os, "sched_getaffinity", lambda pid: {0, 1}, raising=False)
    for load, want in ((0.0, 2), (0.9, 2), (1.0, 1), (1.6, 1), (3.0, 1)):
        monkeypatch.setattr(_os, "getloadavg", lambda load=load: (load, load, load))
        assert fuzz._worker_count(2) == want, load
    assert fuzz._worker_count(1) == 1
