"""The fast start (crdtool/cli/fast.py): the same answers as the Typer application, without importing it.

How fast is measured in ``benchmarks/bench_startup.py``, never here; these tests hold the answers
byte-identical (and the generated text current) and check that Typer, Rich and the core stay unimported.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from crdtool.cli import fast, static_text
from crdtool.cli.write_completions import STATIC_TEXT, static_text_module

ROOT = Path(__file__).resolve().parents[2]
FAST = ["--version", "--help", "-h", "completion bash", "completion zsh", "completion fish", "sort-versions v1 v10 v2beta1 foo",
        "sort-versions"]


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "GITHUB_ACTIONS")}
    env.update(extra)
    return env


def _run(code: str, args: list[str], stdin: str = "", **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code, *args], input=stdin, capture_output=True, text=True,
                          env=_env(**env), cwd=ROOT, timeout=120, check=False)


FULL = "import sys; from crdtool.cli.app import main; main(sys.argv[1:])"
ENTRY = "import sys; from crdtool.cli.fast import main; main(sys.argv[1:])"


def test_the_generated_text_is_current() -> None:
    assert STATIC_TEXT.read_text(encoding="utf-8") == static_text_module(), (
        "crdtool/cli/static_text.py is stale: run `python -m crdtool.cli.write_completions completions/`"
    )


@pytest.mark.parametrize("command", FAST)
def test_fast_answers_are_the_applications(command: str) -> None:
    args = command.split()
    assert fast.run_fast.__code__  # the module imports nothing heavy: see the next test
    full = _run(FULL, args, stdin="v1\nv3alpha1\nv2\n", COLUMNS="120")
    quick = _run(ENTRY, args, stdin="v1\nv3alpha1\nv2\n", COLUMNS="120")
    assert (quick.returncode, quick.stdout, quick.stderr) == (full.returncode, full.stdout, full.stderr)
    assert full.returncode == 0 and full.stdout


def test_fast_answers_import_neither_typer_nor_rich_nor_the_core() -> None:
    code = (
        "import sys\nfrom crdtool.cli.fast import run_fast\n"
        "for args in (['--version'], ['--help'], ['completion', 'zsh'], ['sort-versions', 'v1', 'v2']):\n"
        "    assert run_fast(args) == 0\n"
        "heavy = sorted(m for m in sys.modules if m.split('.')[0] in ('typer', 'click', 'rich', 'yaml')\n"
        "               or m.startswith(('crdtool.core.crd', 'crdtool.core.celgo', 'crdtool.yaml')))\n"
        "print(heavy)\n"
    )
    out = _run(code, [], COLUMNS="80")
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[-1] == "[]"


@pytest.mark.parametrize(
    "args",
    [["validate", "x.yaml", "--jobs=2"], ["validate", "--help"], ["sort-versions", "--crd", "x.yaml"], ["sort-versions", "v1", "--output", "json"],
     ["--help", "validate"], ["completion", "tcsh"], ["completion"], ["--version", "--help"], []],
)
def test_everything_else_goes_to_typer(args: list[str]) -> None:
    assert fast.run_fast(args) is None


def test_a_narrow_terminal_gets_typers_own_help() -> None:
    """Click wraps help at the terminal's width below 80 columns: there the stored help does not apply."""
    narrow = _run(ENTRY, ["--help"], COLUMNS="60")
    assert narrow.stdout == _run(FULL, ["--help"], COLUMNS="60").stdout != static_text.TOP_HELP
    assert max(len(line) for line in narrow.stdout.splitlines()) <= 58
    assert _run(ENTRY, ["--help"], COLUMNS="200").stdout == static_text.TOP_HELP


def test_a_closed_pipe_ends_a_fast_answer_as_the_application_does() -> None:
    shell = f"{sys.executable} -m crdtool completion fish | head -c 10 > /dev/null; echo ${{PIPESTATUS[0]}}"
    out = subprocess.run(["bash", "-c", shell], capture_output=True, text=True, env=_env(), cwd=ROOT, timeout=60,
                         check=False)
    assert out.stdout.strip() in ("0", "141"), out  # a small write may complete before head exits
    assert "Traceback" not in out.stderr and "unexpected error" not in out.stderr


def test_the_process_ends_with_its_output_whole(tmp_path: Path) -> None:
    """``main()`` as the command line ends the process with ``os._exit`` once stdout and stderr are flushed:
    a report far larger than the stream's buffer arrives whole, with the exit status of its findings."""
    crd = (ROOT / "samples" / "crontab-v1.yaml").read_text(encoding="utf-8")
    good = "apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: c{i}\nspec:\n  replicas: 1\n"
    bad = "apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: c{i}\nspec:\n  replicas: x\n"
    objects = tmp_path / "objects.yaml"
    objects.write_text("---\n".join((bad if i % 50 == 0 else good).format(i=i) for i in range(400)), encoding="utf-8")
    (tmp_path / "crd.yaml").write_text(crd, encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "crdtool", "validate", "--crd", str(tmp_path / "crd.yaml"),
                           str(objects), "--output", "json"], capture_output=True, text=True, env=_env(),
                          cwd=ROOT, timeout=120, check=False)
    import json

    report = json.loads(done.stdout)
    assert len(report["documents"]) == 400
    assert [d["status"] for d in report["documents"]].count("invalid") == 8
    assert done.returncode == 1 and len(done.stdout) > 64 * 1024


def test_ending_the_process_returns_when_the_output_cannot_be_flushed(monkeypatch: pytest.MonkeyPatch) -> None:
    class Closed:
        def flush(self) -> None:
            raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr(sys, "stdout", Closed())
    fast._end_process(0)  # returned: Python's own exit reports the closed pipe, as before
