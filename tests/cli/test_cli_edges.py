"""Rough edges a new user hits, each through the real command line: a closed pipe, NO_COLOR and terminals,
usage lines and --help, label/annotation error positions, Helm templates, the progress bar."""

from __future__ import annotations

import os
import pty
import select
import signal
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"
COMMANDS = ["validate", "sort-versions", "upgrade-manifest", "default", "fuzz-roundtrip", "schema", "completion", "review", "serve", "lint"]


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("GITHUB_ACTIONS", "CI", "NO_COLOR", "FORCE_COLOR")}
    env.update(extra)
    return env


def crdtool(*args: str, env: dict[str, str] | None = None, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "crdtool", *args], cwd=cwd, env=env or _env(TERM="dumb"),
                          capture_output=True, text=True, timeout=120)


def _many_configmaps(tmp_path: Path, n: int = 3000) -> Path:
    path = tmp_path / "many.yaml"
    path.write_text("".join(f"---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm-{i}\n" for i in range(n)))
    return path


# --- a closed pipe -------------------------------------------------------------------------------------


@pytest.mark.parametrize("output", ["json", "text", "junit"])
def test_a_closed_pipe_ends_quietly_by_sigpipe(tmp_path: Path, output: str) -> None:
    """`crdtool validate ... | head -c1`: no crash log, no traceback, no verdict; killed by SIGPIPE as `yes | head`."""
    many = _many_configmaps(tmp_path)  # far more output than a pipe buffers
    proc = subprocess.Popen([sys.executable, "-m", "crdtool", "validate", "--output", output, str(many)],
                            cwd=ROOT, env=_env(TERM="dumb"), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    assert len(proc.stdout.read(1)) == 1
    proc.stdout.close()
    stderr = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == -signal.SIGPIPE
    assert stderr == ""


def test_a_closed_pipe_in_a_shell_pipeline_exits_141() -> None:
    many = "$(mktemp -d)/many.yaml"
    script = (
        f"set -o pipefail; f={many}; for i in $(seq 3000); do printf -- '---\\napiVersion: v1\\nkind: ConfigMap\\n"
        f"metadata:\\n  name: c%s\\n' $i; done > $f; {sys.executable} -m crdtool validate --output json $f | head -c1 >/dev/null"
    )
    out = subprocess.run(["bash", "-c", script], cwd=ROOT, env=_env(), capture_output=True, text=True, timeout=120)
    assert out.returncode == 141
    assert out.stderr == ""


# --- terminals, NO_COLOR ---------------------------------------------------------------------------------


def _run_on_terminal(args: list[str], env: dict[str, str], stream: str) -> tuple[int, str, str]:
    """Run crdtool with ``stream`` (stdout or stderr) on a pseudo-terminal; return (status, terminal, other)."""
    master, slave = pty.openpty()
    kwargs = {stream: slave, ("stderr" if stream == "stdout" else "stdout"): subprocess.PIPE}
    proc = subprocess.Popen([sys.executable, "-m", "crdtool", *args], cwd=ROOT, env=env, stdin=subprocess.DEVNULL, **kwargs)
    os.close(slave)
    chunks = []
    while True:
        ready, _, _ = select.select([master], [], [], 60)
        if not ready:
            break
        try:
            data = os.read(master, 65536)
        except OSError:  # EIO: the child closed the terminal
            break
        if not data:
            break
        chunks.append(data)
    os.close(master)
    out, err = proc.communicate(timeout=60)
    other = err if stream == "stdout" else out
    return proc.returncode, b"".join(chunks).decode(errors="replace"), other.decode()


INVALID = [str(ROOT / "tests/cases/crd/property-without-type.yaml")]


def test_styles_on_a_terminal_and_none_at_all_with_no_color() -> None:
    status, styled, _ = _run_on_terminal(["validate", *INVALID], _env(TERM="xterm-256color"), "stdout")
    assert status == 1
    assert "\x1b[1m" in styled  # bold file names: the check below can fail
    status, plain, _ = _run_on_terminal(["validate", *INVALID], _env(TERM="xterm-256color", NO_COLOR="1"), "stdout")
    assert status == 1
    assert "\x1b" not in plain
    assert "spec.versions[0].schema.openAPIV3Schema.properties[spec].type: Required value" in plain


def test_no_escape_codes_on_a_pipe() -> None:
    out = crdtool("validate", *INVALID, env=_env(TERM="xterm-256color"))
    assert out.returncode == 1
    assert "\x1b" not in out.stdout + out.stderr


# --- progress bar -------------------------------------------------------------------------------------------


def _crd_dir(tmp_path: Path, n: int = 12) -> Path:
    text = (SAMPLES / "crontab-v1.yaml").read_text()
    for i in range(n):
        (tmp_path / f"crd{i:02}.yaml").write_text(text.replace("crontabs.stable.example.com", f"crontabs.s{i}.example.com")
                                                  .replace("group: stable.example.com", f"group: s{i}.example.com"))
    return tmp_path


def test_progress_bar_on_a_terminal_for_long_runs_only(tmp_path: Path) -> None:
    crds = str(_crd_dir(tmp_path))
    # The threshold (~2 s) is lowered so that the test does not have to run for 2 s.
    status, terminal, stdout = _run_on_terminal(["validate", crds], _env(TERM="xterm", CRDTOOL_PROGRESS_DELAY="0"), "stderr")
    assert status == 0
    assert "validating" in terminal and "/12" in terminal
    assert "\x1b" not in stdout and "validating" not in stdout  # the report on stdout stays clean
    assert stdout.endswith("12 documents: 12 valid, 0 invalid, 0 skipped, 0 input errors\n")
    # a short run with the default threshold: no bar
    status, terminal, _ = _run_on_terminal(["validate", str(SAMPLES / "crontab-v1.yaml")], _env(TERM="xterm"), "stderr")
    assert status == 0 and terminal == ""


@pytest.mark.parametrize("env", [{"CI": "true"}, {"GITHUB_ACTIONS": "true"}, {"NO_COLOR": "1"}])
def test_no_progress_bar_in_ci_or_with_no_color(tmp_path: Path, env: dict[str, str]) -> None:
    crds = str(_crd_dir(tmp_path, 8))
    status, terminal, _ = _run_on_terminal(["validate", crds, "--output", "json"],
                                           _env(TERM="xterm", CRDTOOL_PROGRESS_DELAY="0", **env), "stderr")
    assert status == 0
    assert terminal == ""


def test_no_progress_bar_on_a_pipe(tmp_path: Path) -> None:
    out = crdtool("validate", str(_crd_dir(tmp_path, 8)), env=_env(TERM="xterm", CRDTOOL_PROGRESS_DELAY="0"))
    assert out.returncode == 0
    assert out.stderr == ""


# --- usage and help ----------------------------------------------------------------------------------------


def test_usage_lines_show_metavars_not_parameter_names() -> None:
    out = crdtool("validate")
    assert out.returncode == 2
    assert "Usage: crdtool validate [OPTIONS] PATH..." in out.stderr
    assert "{" not in out.stderr
    for command, usage in [("upgrade-manifest", "PATH..."), ("default", "OBJECT..."), ("sort-versions", "[VERSION...]"),
                           ("fuzz-roundtrip", "TARGET"), ("schema", "[OPTIONS]"), ("completion", "SHELL")]:
        help_text = crdtool(command, "--help").stdout
        assert help_text.startswith(f"Usage: crdtool {command} [OPTIONS]"), help_text
        assert usage in help_text.splitlines()[0]
        assert "{" not in help_text.splitlines()[0]


@pytest.mark.parametrize("command", [None, *COMMANDS])
def test_help_lists_every_exit_code(command: str | None) -> None:
    out = crdtool(*([command] if command else []), "--help")
    assert out.returncode == 0
    text = " ".join(out.stdout.split())
    assert "Exit codes: 0 success; 1 findings" in text
    for code in ("2 usage or input error", "3 a crdtool bug", "130 interrupted"):
        assert code in text


# --- positions of label and annotation errors --------------------------------------------------------------------


LABELLED = """\
apiVersion: stable.example.com/v1
kind: CronTab
metadata:
  name: x
  labels:
    good: yes-ok
    "bad key": v
    other: "bad value!"
  annotations:
    fine: a
    Bad_Annot/x/y: b
spec:
  cronSpec: "* * * * */5"
"""


def test_label_and_annotation_errors_point_at_the_offending_key(tmp_path: Path) -> None:
    cr = tmp_path / "cr.yaml"
    cr.write_text(LABELLED)
    out = crdtool("validate", "--crd", str(SAMPLES / "crontab-v1.yaml"), str(cr))
    assert out.returncode == 1
    lines = [ln.strip() for ln in out.stdout.splitlines() if "metadata." in ln]
    # upstream reports these at the map (ValidateLabels / ValidateAnnotations); the line is the key's
    assert lines[0].startswith(f'{cr}:7:5: metadata.labels: Invalid value: "bad key": name part must consist')
    assert lines[1].startswith(f'{cr}:8:5: metadata.labels: Invalid value: "bad value!": a valid label must be')
    assert lines[2].startswith(f'{cr}:11:5: metadata.annotations: Invalid value: "Bad_Annot/x/y": a valid label key')


def test_label_errors_of_a_crd_and_of_list_items_point_at_the_key(tmp_path: Path) -> None:
    crd = (SAMPLES / "crontab-v1.yaml").read_text().replace(
        "  name: crontabs.stable.example.com\n", "  name: crontabs.stable.example.com\n  labels:\n    ok: a\n    -bad: b\n")
    path = tmp_path / "crd.yaml"
    path.write_text(crd)
    out = crdtool("validate", str(path))
    line = next(ln for ln in crd.splitlines() if "-bad" in ln)
    number = crd.splitlines().index(line) + 1
    assert f"{path}:{number}:5: metadata.labels: Invalid value: \"-bad\"" in out.stdout
    items = "apiVersion: v1\nkind: List\nitems:\n" + "".join("- " + ln + "\n" if i == 0 else "  " + ln + "\n"
                                                            for i, ln in enumerate(LABELLED.splitlines()))
    lst = tmp_path / "list.yaml"
    lst.write_text(items)
    out = crdtool("validate", "--crd", str(SAMPLES / "crontab-v1.yaml"), str(lst))
    assert f'{lst}:10:7: items[0].metadata.labels: Invalid value: "bad key"' in out.stdout


# --- Helm templates ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, line, column",
    [
        ("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Values.name }}\n", 4, 9),
        ("{{- if .Values.crds.enabled }}\napiVersion: v1\nkind: ConfigMap\n{{- end }}\n", 1, 1),
        ("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  labels:\n    {{- include \"x.labels\" . | nindent 4 }}\n", 5, 5),
    ],
)
def test_helm_templates_get_a_helm_message(tmp_path: Path, text: str, line: int, column: int) -> None:
    path = tmp_path / "templates" / "cm.yaml"
    path.parent.mkdir()
    path.write_text(text)
    out = crdtool("validate", str(path))
    assert out.returncode == 2
    assert (f"{path}:{line}:{column}: this looks like a Helm template; render it first (helm template) "
            "or exclude templates/") in out.stdout
    assert ": json: " not in out.stdout and ": yaml: " not in out.stdout


# --- no input found, for the other commands that read paths ----------------------------------------------------


@pytest.mark.parametrize("command", [["upgrade-manifest", "--to", "v1"], ["default", "--crd", str(SAMPLES / "crontab-v1.yaml")], ["lint"]])
def test_an_empty_directory_is_exit_2_for_every_command(tmp_path: Path, command: list[str]) -> None:
    out = crdtool(*command, str(tmp_path))
    assert out.returncode == 2
    assert f"no input files found in {tmp_path} (directories are searched for *.yaml, *.yml and *.json)" in out.stderr
    assert out.stdout == ""


def test_helm_templates_in_upgrade_manifest(tmp_path: Path) -> None:
    path = tmp_path / "crd.yaml"
    path.write_text("{{- if .Values.crds }}\napiVersion: apiextensions.k8s.io/v1beta1\nkind: CustomResourceDefinition\n{{- end }}\n")
    out = crdtool("upgrade-manifest", "--to", "v1", "--check", str(path))
    assert out.returncode == 2
    assert f"{path}:1:1: this looks like a Helm template; render it first (helm template) or exclude templates/" in out.stderr
