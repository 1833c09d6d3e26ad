"""The console entry point: the commands that need neither Typer nor the schema engine start here, in a blink.

``crdtool --version``, ``crdtool --help``, ``crdtool completion SHELL`` and
``crdtool sort-versions VERSION...`` (plain versions, no options) are
answered without importing Typer (which alone takes about as long as Python's
own start-up) or anything of the core but version ordering. ``crdtool validate``
with paths and the plain forms of its options (:data:`VALIDATE_FLAGS`,
:data:`VALIDATE_VALUES`: no ``--opt=value``, no bundled short options, no value
that starts with ``-``, no ``--``, no help) is parsed here too and run by
:func:`crdtool.cli.options.validate`, the function the Typer command calls
(Typer and Click take ~130 million instructions, a fifth of the start-up of
``validate``). Every other command line goes to the Typer application
(:func:`crdtool.cli.app.main`), which parses it as always. The answers are the application's own, byte for
byte: the top-level help and the completion scripts are generated from it
into :mod:`crdtool.cli.static_text` (``python -m crdtool.cli.write_completions
completions/``; ``tests/cli/test_fast_start.py`` fails when they are stale),
and the help is used only at the width Click would render it at (a terminal
of at least 80 columns, or none).
"""

from __future__ import annotations

import os
import re
import sys
from typing import Any

#: Click renders help at ``min(terminal columns, 80) - 2``; the stored help is the 80-column one.
HELP_COLUMNS = 80
SHELLS = ("bash", "zsh", "fish")

#: validate's flags parsed here: option -> (keyword of :func:`crdtool.cli.options.validate`, value).
VALIDATE_FLAGS: dict[str, tuple[str, bool]] = {
    "--quiet": ("quiet", True), "-q": ("quiet", True), "--no-quiet": ("quiet", False),
    "--exit-zero": ("exit_zero", True), "--no-exit-zero": ("exit_zero", False),
    "--strict": ("strict", True), "--no-strict": ("strict", False),
    "--ignore-missing-crds": ("ignore_missing_crds", True), "--no-ignore-missing-crds": ("ignore_missing_crds", False),
    "--explain-cost": ("explain_cost", True),
}
#: validate's options with a value parsed here: option -> (keyword, repeatable).
VALIDATE_VALUES: dict[str, tuple[str, bool]] = {
    "--jobs": ("jobs", False), "-j": ("jobs", False),
    "--kubernetes-version": ("kubernetes_version", False),
    "--output": ("output", False), "-o": ("output", False),
    "--config": ("config_path", False),
    "--crd": ("crd", True), "--exclude": ("exclude", True), "--skip-kind": ("skip_kind", True),
    "--select": ("select", True), "--ignore": ("ignore", True),
}
#: ``--output``'s choices (:class:`crdtool.cli.reporters.CheckOutput`; a test holds them equal).
VALIDATE_OUTPUTS = ("text", "json", "github", "sarif", "junit")
#: a ``--jobs`` value Click's int with ``min=1`` takes as itself (anything else goes to Typer and its messages)
_JOBS = re.compile(r"[1-9][0-9]{0,8}")


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point (``crdtool``, ``python -m crdtool``): a fast answer, else the Typer app."""
    args = sys.argv[1:] if argv is None else list(argv)
    status = run_fast(args)
    if status is None:
        from crdtool.cli.app import main as full

        full(args)
        return
    if argv is None:
        _end_process(status)
    sys.exit(status)


def _end_process(status: int) -> None:
    """End crdtool's own process with ``status`` once its output is flushed, without Python's finalization
    (``os._exit``): after ``validate`` of 3,000 documents that freed every module and object one by one for
    ~14 ms, the same in every run. Only when ``main`` runs as the process's command line (``argv`` None: the
    console script, ``python -m crdtool``), never for a caller that calls it in its own process; returns (the
    caller exits the usual way) if the output cannot be flushed (a closed pipe: Python's exit reports it as
    always)."""
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        return
    os._exit(status)


def run_fast(args: list[str]) -> int | None:
    """The exit status of ``crdtool ARGS`` when it is answered here, else None (nothing was done)."""
    if args == ["--version"]:
        return _guarded(_version)
    if args in (["--help"], ["-h"]) and _terminal_columns() >= HELP_COLUMNS:
        return _guarded(lambda: _static("TOP_HELP"))
    if len(args) == 2 and args[0] == "completion" and args[1] in SHELLS:
        return _guarded(lambda: _static(args[1]))
    if args[:1] == ["sort-versions"] and not any(a.startswith("-") for a in args[1:]):
        return _guarded(lambda: _sort_versions(args[1:]))
    if args[:1] == ["validate"]:
        parsed = parse_validate(args[1:])
        if parsed is not None:
            paths, keywords = parsed
            return _guarded(lambda: _validate(paths, keywords))
    return None


def parse_validate(args: list[str]) -> tuple[list[str], dict[str, Any]] | None:
    """``validate``'s arguments as Typer would hand them on: the paths and the keywords of
    :func:`crdtool.cli.options.validate` given; None for anything outside the plain forms (Typer parses it)."""
    paths: list[str] = []
    keywords: dict[str, Any] = {}
    i = 0
    while i < len(args):
        arg = args[i]
        i += 1
        if arg == "-" or not arg.startswith("-"):
            paths.append(arg)
            continue
        if arg in VALIDATE_FLAGS:
            name, flag = VALIDATE_FLAGS[arg]
            keywords[name] = flag
            continue
        if arg not in VALIDATE_VALUES or i == len(args) or args[i].startswith("-"):
            return None
        (name, repeatable), value = VALIDATE_VALUES[arg], args[i]
        i += 1
        if name == "jobs":
            if not _JOBS.fullmatch(value):
                return None
            keywords[name] = int(value)
        elif name == "output" and value not in VALIDATE_OUTPUTS:
            return None
        elif repeatable:
            keywords.setdefault(name, []).append(value)
        else:
            keywords[name] = value  # Click: the last one given
    if not paths:
        return None
    return paths, keywords


def _validate(paths: list[str], keywords: dict[str, Any]) -> int:
    from crdtool.cli import options
    from crdtool.cli import validate  # noqa: F401 - imported before options.prepare_process: see there

    # The modules are imported under the collector's default thresholds, which collect their ~25,000 new
    # objects (or move them to an older generation) as they come. Under options.prepare_process's 100,000
    # they stayed in the youngest generation, and loading ~3,000 documents then made it overflow: one
    # collection walking every loaded document, ~40 ms of CPU (bound by cache misses, not instructions).
    options.prepare_process()
    try:
        return options.validate(paths, **keywords)
    except options.UsageExit:
        return options.USAGE


def _version() -> int:
    from crdtool import __version__

    sys.stdout.write(f"crdtool {__version__}\n")
    return 0


def _static(name: str) -> int:
    from crdtool.cli import static_text

    text = static_text.TOP_HELP if name == "TOP_HELP" else static_text.COMPLETIONS[name]
    sys.stdout.write(text)
    return 0


def _sort_versions(versions: list[str]) -> int:
    from crdtool.cli import sort_versions
    from crdtool.cli.output import OutputFormat

    return sort_versions.run(versions, None, OutputFormat.text)


def _terminal_columns() -> int:
    """``shutil.get_terminal_size().columns``, as Click asks it, without importing shutil."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
        columns = columns or HELP_COLUMNS  # shutil's fallback
    return columns


def _guarded(command: object) -> int:
    """Run ``command`` under the application's error handling (a closed pipe, Ctrl-C, a crash log)."""
    try:
        status = int(command())  # type: ignore[operator]
        sys.stdout.flush()
        return status
    except BrokenPipeError:
        from crdtool.cli.app import _end_on_closed_pipe

        try:
            _end_on_closed_pipe()
        except BaseException as exc:  # typer.Exit where SIGPIPE does not end the process
            return int(getattr(exc, "exit_code", 141))
        return 141
    except KeyboardInterrupt:
        print("crdtool: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # noqa: BLE001 - the one place that catches everything, as app.handled
        from crdtool.cli.app import _crash_log

        path = _crash_log(exc)
        print(f"crdtool: an unexpected error has occurred: {type(exc).__name__}: {exc}", file=sys.stderr)
        print(f"crdtool: this is a bug; the traceback is in {path}", file=sys.stderr)
        return 3
