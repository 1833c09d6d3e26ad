"""The console entry point: the commands that need neither Typer nor the schema engine start here, in a blink.

``crdtool --version``, ``crdtool --help``, ``crdtool completion SHELL`` and
``crdtool sort-versions VERSION...`` (plain versions, no options) are
answered without importing Typer (which alone takes about as long as Python's
own start-up) or anything of the core but version ordering; every other
command line goes to the Typer application (:func:`crdtool.cli.app.main`),
which parses it as always. The answers are the application's own, byte for
byte: the top-level help and the completion scripts are generated from it
into :mod:`crdtool.cli.static_text` (``python -m crdtool.cli.write_completions
completions/``; ``tests/cli/test_fast_start.py`` fails when they are stale),
and the help is used only at the width Click would render it at (a terminal
of at least 80 columns, or none).
"""

from __future__ import annotations

import os
import sys

#: Click renders help at ``min(terminal columns, 80) - 2``; the stored help is the 80-column one.
HELP_COLUMNS = 80
SHELLS = ("bash", "zsh", "fish")


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point (``crdtool``, ``python -m crdtool``): a fast answer, else the Typer app."""
    args = sys.argv[1:] if argv is None else list(argv)
    status = run_fast(args)
    if status is None:
        from crdtool.cli.app import main as full

        full(args)
        return
    sys.exit(status)


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
    return None


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
