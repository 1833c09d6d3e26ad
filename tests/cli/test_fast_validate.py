"""The fast start of ``validate`` (crdtool/cli/fast.py, parse_validate): what it parses reaches
crdtool.cli.validate.run exactly as the Typer command's parsing does; everything else goes to Typer.

Differential: the same command line through :func:`crdtool.cli.app.main` (Typer) and through
:func:`crdtool.cli.fast.run_fast`, with ``validate.run`` recording what it is given. How fast is measured in
``benchmarks/bench_startup.py`` and ``benchmarks/bench_peers.py``, never here.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crdtool.cli import app as app_module
from crdtool.cli import fast, options
from crdtool.cli import validate as validate_cmd
from crdtool.cli.reporters import CheckOutput

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = str(ROOT / "samples" / "crontab-v1.yaml")


def _call(route: str, args: list[str], monkeypatch: pytest.MonkeyPatch) -> tuple[Any, ...]:
    """What ``validate.run`` was given (the progress bar by its label) and the exit status, through ``route``."""
    seen: list[Any] = []

    def record(paths: list[str], output: str, **kwargs: Any) -> int:
        progress = kwargs.pop("progress")
        seen.append((list(paths), output, (type(progress).__name__, progress.description), sorted(kwargs.items())))
        return 1

    monkeypatch.setattr(validate_cmd, "run", record)
    argv = ["validate", *args]
    if route == "typer":
        try:
            app_module.main(argv)
        except SystemExit as exc:
            status = exc.code
        else:  # pragma: no cover - Click always exits
            status = None
    else:
        status = fast.run_fast(argv)
        assert status is not None, f"not parsed by the fast start: {argv}"
    return status, seen


CASES = [
    ["a.yaml"],
    ["a.yaml", "b/", "-"],
    ["a.yaml", "--jobs", "1", "--quiet", "--kubernetes-version", "1.35"],
    ["-q", "a.yaml", "-j", "4", "-o", "json", "b.yaml"],
    ["a.yaml", "--quiet", "--no-quiet", "--output", "sarif", "--output", "junit"],
    ["a.yaml", "--kubernetes-version", "1.30-1.37", "--explain-cost", "--exit-zero"],
    ["a.yaml", "--kubernetes-version", "supported", "--no-exit-zero", "--strict", "--ignore-missing-crds"],
    ["a.yaml", "--crd", "c1.yaml", "--crd", "c2.yaml", "--exclude", "templates/", "--skip-kind", "Secret,v1/ConfigMap"],
    ["a.yaml", "--skip-kind", "Secret", "--skip-kind", " ,Job", "--select", "BND001,BND00", "--ignore", "BND003"],
    ["a.yaml", "--select", "ALL", "--ignore", "BND", "--no-strict", "--no-ignore-missing-crds", "-o", "github"],
    ["a.yaml", "--jobs", "123456789", "-o", "text"],
]


@pytest.mark.parametrize("args", CASES, ids=[" ".join(c) for c in CASES])
def test_the_fast_start_hands_validate_run_what_typer_does(args: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(options.KUBERNETES_VERSION_ENV, raising=False)
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    assert _call("fast", args, monkeypatch) == _call("typer", args, monkeypatch)


CONFIGS = {
    ".crdtool.yaml": "kubernetesVersion: '1.31'\noutput: json\nquiet: true\nskip-kind: [Secret]\ncrd: [x.yaml]\n"
                     "exclude: ['*.tmp']\nexit-zero: true\nselect: [BND001, CRD1]\nignore: [BND002]\nstrict: true\n",
    "pyproject.toml": "[tool.crdtool]\nkubernetes-version = '1.33-1.34'\n\n[tool.crdtool.validate]\noutput = 'sarif'\n"
                      "ignore-missing-crds = true\n",
}


@pytest.mark.parametrize("name", sorted(CONFIGS))
@pytest.mark.parametrize("args", [["a.yaml"], ["a.yaml", "-q", "--no-exit-zero", "-o", "text", "--kubernetes-version",
                                                "1.35", "--select", "BND004", "--no-strict", "--crd", "y.yaml"]])
def test_with_a_configuration_file_and_the_environment(
    name: str, args: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / name).write_text(CONFIGS[name], encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    for env in ({}, {options.KUBERNETES_VERSION_ENV: "1.32", "GITHUB_ACTIONS": "true"}):
        monkeypatch.delenv(options.KUBERNETES_VERSION_ENV, raising=False)
        monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
        for key, value in env.items():
            monkeypatch.setenv(key, value)
        fast_route, typer_route = _call("fast", args, monkeypatch), _call("typer", args, monkeypatch)
        assert fast_route == typer_route
        assert fast_route[1], "validate.run was not called"


@pytest.mark.parametrize(
    ("args", "config"),
    [
        (["a.yaml", "--kubernetes-version", "1.99"], None),
        (["a.yaml", "--select", "BND999"], None),
        (["a.yaml", "--config", "missing.yaml"], None),
        (["a.yaml"], "output: yaml\n"),
        (["a.yaml"], "kubernetesVersion: 2\n"),
        (["a.yaml"], "[broken\n"),
    ],
)
def test_usage_errors_are_typers(
    args: list[str], config: str | None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv(options.KUBERNETES_VERSION_ENV, raising=False)
    monkeypatch.chdir(tmp_path)
    if config is not None:
        (tmp_path / ".crdtool.yaml").write_text(config, encoding="utf-8")
    fast_route = _call("fast", args, monkeypatch), capsys.readouterr()
    typer_route = _call("typer", args, monkeypatch), capsys.readouterr()
    assert fast_route == typer_route
    assert fast_route[0] == (2, []) and fast_route[1].err.startswith("crdtool: ")


@pytest.mark.parametrize(
    "args",
    [[], ["--help"], ["a.yaml", "--help"], ["a.yaml", "-h"], ["a.yaml", "--jobs", "0"], ["a.yaml", "--jobs", "01"],
     ["a.yaml", "--jobs", "+1"], ["a.yaml", "--jobs", "1_0"], ["a.yaml", "--jobs", "1234567890"],
     ["a.yaml", "--jobs=1"], ["a.yaml", "-j1"], ["a.yaml", "-qj", "1"], ["a.yaml", "--"], ["--", "a.yaml"],
     ["a.yaml", "--field-validation", "Warn"], ["a.yaml", "-o", "yaml"], ["a.yaml", "-o", "JSON"], ["-x"],
     ["a.yaml", "--kubernetes-version"], ["a.yaml", "--crd", "-"], ["a.yaml", "--crd", "--quiet"], ["a.yaml", "--quit"],
     ["a.yaml", "--version"], ["a.yaml", "--explain-cost=true"]],
)
def test_everything_else_goes_to_typer(args: list[str]) -> None:
    assert fast.parse_validate(args) is None
    assert fast.run_fast(["validate", *args]) is None


def test_the_tables_are_the_commands_options() -> None:
    """Every option parsed here is the Typer command's, with the same keyword, value (flag) or repeatability, and
    the same choices; all but --field-validation and the help are parsed here."""
    import typer.main

    command = typer.main.get_command(app_module.app).commands["validate"]  # type: ignore[attr-defined]
    flags: dict[str, tuple[str, bool]] = {}
    values: dict[str, tuple[str, bool]] = {}
    keyword = {"config": "config_path"}  # options.validate's name for the one that differs
    for param in command.params:
        if param.param_type_name != "option":
            continue
        name = keyword.get(param.name, param.name)
        if param.is_flag:
            flags.update({opt: (name, True) for opt in param.opts})
            flags.update({opt: (name, False) for opt in param.secondary_opts})
        else:
            values.update({opt: (name, param.multiple) for opt in param.opts})
    assert fast.VALIDATE_FLAGS == flags
    assert fast.VALIDATE_VALUES == {opt: v for opt, v in values.items() if opt != "--field-validation"}
    assert fast.VALIDATE_OUTPUTS == tuple(m.value for m in CheckOutput)


_TOKENS = st.one_of(
    st.sampled_from(["a.yaml", "b/", "-", "c.json"]),
    st.sampled_from(sorted(fast.VALIDATE_FLAGS)).map(lambda f: [f]),
    st.tuples(st.sampled_from(["--jobs", "-j"]), st.sampled_from(["1", "2", "16"])).map(list),
    st.tuples(st.sampled_from(["--output", "-o"]), st.sampled_from(fast.VALIDATE_OUTPUTS)).map(list),
    st.tuples(st.just("--kubernetes-version"), st.sampled_from(["1.30", "1.35,1.37", "1.31-1.33"])).map(list),
    st.tuples(st.sampled_from(["--crd", "--exclude", "--skip-kind"]), st.sampled_from(["x", "y,z", " "])).map(list),
    st.tuples(st.sampled_from(["--select", "--ignore"]), st.sampled_from(["BND001", "BND00,BND004", "ALL"])).map(list),
)


@settings(max_examples=60, deadline=None)
@given(st.lists(_TOKENS, max_size=8))
def test_generated_command_lines(tokens: list[Any]) -> None:
    args = [t for token in tokens for t in (token if isinstance(token, list) else [token])] + ["a.yaml"]
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.delenv(options.KUBERNETES_VERSION_ENV, raising=False)
        monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
        assert fast.parse_validate(args) is not None
        assert _call("fast", args, monkeypatch) == _call("typer", args, monkeypatch)


def test_a_real_run_is_the_same_and_imports_neither_typer_nor_click() -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "GITHUB_ACTIONS", options.KUBERNETES_VERSION_ENV)}
    args = ["validate", SAMPLE, "--jobs", "1", "-o", "json", "--kubernetes-version", "1.35"]
    full = subprocess.run([sys.executable, "-c", "import sys; from crdtool.cli.app import main; main(sys.argv[1:])", *args],
                          capture_output=True, text=True, env=env, cwd=ROOT, timeout=120, check=False)
    code = ("import sys\nfrom crdtool.cli.fast import run_fast\nstatus = run_fast(sys.argv[1:])\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('typer', 'click')), file=sys.stderr)\n"
            "sys.exit(status)\n")
    quick = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=env, cwd=ROOT,
                           timeout=120, check=False)
    assert (quick.returncode, quick.stdout) == (full.returncode, full.stdout)
    assert quick.stderr == full.stderr + "[]\n"
    assert full.returncode == 0 and '"valid"' in full.stdout


def test_the_process_freezes_its_objects_at_exit() -> None:
    """prepare_process registers gc.freeze at exit: the exit's collections skip what is alive then."""
    code = ("import atexit, gc, sys\n"
            "atexit.register(lambda: print(gc.get_freeze_count() > 1000, file=sys.stderr))\n"
            "from crdtool.cli.fast import main\nmain(sys.argv[1:])\n")
    out = subprocess.run([sys.executable, "-c", code, "validate", SAMPLE, "--jobs", "1", "-q"], capture_output=True,
                         text=True, cwd=ROOT, timeout=120, check=False)
    assert out.returncode == 0, out.stderr
    assert out.stderr.splitlines()[-1] == "True"


def test_the_modules_are_imported_before_the_thresholds_rise() -> None:
    """The fast start imports validate's modules before prepare_process raises the collector's thresholds (under
    the raised ones their objects stayed young, and loading the documents then overflowed the generation)."""
    code = ("import sys\nfrom crdtool.cli import fast, options\nprepare = options.prepare_process\n"
            "def check():\n"
            "    print('crdtool.cli.validate' in sys.modules, file=sys.stderr)\n"
            "    prepare()\n"
            "options.prepare_process = check\nsys.exit(fast.run_fast(sys.argv[1:]))\n")
    out = subprocess.run([sys.executable, "-c", code, "validate", SAMPLE, "--jobs", "1", "-q"], capture_output=True,
                         text=True, cwd=ROOT, timeout=120, check=False)
    assert out.returncode == 0, out.stderr
    assert out.stderr.splitlines() == ["True"]


def test_typer_imports_the_modules_before_the_thresholds_rise_too() -> None:
    code = ("import sys\nfrom crdtool.cli import app, options\nprepare = options.prepare_process\n"
            "def check():\n"
            "    print('crdtool.cli.validate' in sys.modules, file=sys.stderr)\n"
            "    prepare()\n"
            "options.prepare_process = check\napp.main(sys.argv[1:])\n")
    out = subprocess.run([sys.executable, "-c", code, "validate", SAMPLE, "--jobs=1", "-q"], capture_output=True,
                         text=True, cwd=ROOT, timeout=120, check=False)
    assert out.returncode == 0, out.stderr
    assert out.stderr.splitlines() == ["True"]
