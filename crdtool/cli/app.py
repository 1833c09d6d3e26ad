"""The Typer application: global wiring, the one error handler, exit codes.

Modelled on pre-commit's ``main.py``/``error_handler.py``: each subcommand is a
plain function returning an :class:`ExitStatus`; :func:`main` turns usage
errors into exit 2, Ctrl-C into 130 and anything unexpected into a short
message plus a crash log, never a raw traceback.
"""

from __future__ import annotations

import enum
import functools
import os
import sys
import tempfile
import traceback
from typing import Any, Callable, Optional

import typer

from crdtool.cli.report import OutputFormat


class ExitStatus(enum.IntEnum):
    """Exit codes, as httpie's ``ExitStatus``."""

    OK = 0
    FINDINGS = 1  # an invalid manifest, a failed round trip
    USAGE = 2  # bad options or unreadable / malformed input
    INTERNAL = 3  # a bug in crdtool (crash log written)
    INTERRUPTED = 130


app = typer.Typer(
    name="crdtool",
    help="Validate, convert and test Kubernetes CustomResourceDefinitions offline, as kube-apiserver does.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)

OUTPUT_HELP = "Output format: text for people, json for machines."


def handled(command: Callable[..., int]) -> Callable[..., None]:
    """The one error handler around every subcommand.

    The command returns an exit status; Ctrl-C becomes 130, an unexpected
    exception a one-line message plus a crash log (exit 3), never a traceback.
    Usage errors are Typer's: a message and exit 2.
    """

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> None:
        try:
            status = int(command(*args, **kwargs) or 0)
        except KeyboardInterrupt:
            print("crdtool: interrupted", file=sys.stderr)
            status = ExitStatus.INTERRUPTED
        except typer.Exit:
            raise
        except Exception as exc:  # noqa: BLE001 - the one place that catches everything
            path = _crash_log(exc)
            print(f"crdtool: an unexpected error has occurred: {type(exc).__name__}: {exc}", file=sys.stderr)
            print(f"crdtool: this is a bug; the traceback is in {path}", file=sys.stderr)
            status = ExitStatus.INTERNAL
        raise typer.Exit(int(status))

    return wrapper


@app.command("validate")
@handled
def validate(
    paths: list[str] = typer.Argument(..., help="Files, directories (recursive: *.yaml, *.yml, *.json) or - for stdin."),
    output: OutputFormat = typer.Option(OutputFormat.text, "--output", "-o", help=OUTPUT_HELP),
) -> int:
    """Validate CustomResourceDefinition manifests exactly as kube-apiserver validates a create.

    Exit 0 when every CRD is valid, 1 when any is invalid, 2 on input errors.
    """
    from crdtool.cli import validate as validate_cmd

    return validate_cmd.run(paths, output)


@app.command("sort-versions")
@handled
def sort_versions(
    versions: Optional[list[str]] = typer.Argument(None, help="Versions to sort; read one per line from stdin when absent."),
    crd: Optional[str] = typer.Option(None, "--crd", help="Sort the spec.versions of the CRD in this file."),
    output: OutputFormat = typer.Option(OutputFormat.text, "--output", "-o", help=OUTPUT_HELP),
) -> int:
    """Print versions highest priority first, as Kubernetes orders them (CompareKubeAwareVersionStrings)."""
    from crdtool.cli import sort_versions as sort_versions_cmd

    return sort_versions_cmd.run(versions or [], crd, output)


def _crash_log(exc: BaseException) -> str:
    """Write the traceback to a log file and return its path."""
    fd, path = tempfile.mkstemp(prefix="crdtool-crash-", suffix=".log")
    with os.fdopen(fd, "w", encoding="utf-8") as log:
        log.write(f"crdtool {' '.join(sys.argv[1:])}\n\n")
        log.write("".join(traceback.format_exception(type(exc), exc, exc.__traceback__)))
    return path


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point: run the app; it exits with the command's status."""
    # Validators walk schemas recursively; real CRDs nest ~30 deep, hostile ones are
    # rejected by the loader long before this limit matters.
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20000))
    app(args=argv, prog_name="crdtool")
