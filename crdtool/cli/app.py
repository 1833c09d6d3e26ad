"""The Typer application: global wiring, the one error handler, exit codes.

Modelled on pre-commit's ``main.py``/``error_handler.py``: each subcommand is a
plain function returning an :class:`ExitStatus`; :func:`main` turns usage
errors into exit 2, Ctrl-C into 130 and anything unexpected into a short
message plus a crash log, never a raw traceback.
"""

from __future__ import annotations

import contextlib
import enum
import functools
import os
import signal
import sys
from collections.abc import Iterator
from typing import Any, Callable, Optional

import typer
import typer.core

from crdtool.cli import options  # standard library only
from crdtool.cli.output import OutputFormat  # not crdtool.cli.report: Rich is imported by the commands that render
from crdtool.cli.reporters import CheckOutput  # standard library only


class ExitStatus(enum.IntEnum):
    """Exit codes, as httpie's ``ExitStatus``."""

    OK = 0
    FINDINGS = 1  # an invalid manifest, a failed round trip
    USAGE = 2  # bad options or unreadable / malformed input
    INTERNAL = 3  # a bug in crdtool (crash log written)
    INTERRUPTED = 130


#: Shown at the end of every --help.
EXIT_CODES = (
    "Exit codes: 0 success; 1 findings (an invalid manifest, a change --check would make, a failed round trip); "
    "2 usage or input error; 3 a crdtool bug (a crash log is written and its path printed); 130 interrupted."
)

class _Command(typer.core.TyperCommand):
    """Usage lines in the POSIX style: ``crdtool validate [OPTIONS] PATH...``.

    Typer would print a required argument's metavar in braces (``{paths}...``).
    """

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        pieces = [self.options_metavar] if self.options_metavar else []
        for param in self.get_params(ctx):
            if param.param_type_name != "argument":
                continue
            name = param.metavar or (param.name or "").upper()
            if param.nargs != 1 and not name.endswith("..."):
                name += "..."
            pieces.append(name if param.required else f"[{name}]")
        return pieces


app = typer.Typer(
    name="crdtool",
    help="Validate, convert and test Kubernetes CustomResourceDefinitions offline, as kube-apiserver does.",
    epilog=EXIT_CODES,
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)

OUTPUT_HELP = "Output format: text for people, json for machines."
CHECK_OUTPUT_HELP = (
    "Output format: text (people), json (machines), github (workflow annotations; the default when "
    "GITHUB_ACTIONS=true), sarif (SARIF 2.1.0, code scanning), junit (JUnit XML)."
)
QUIET_HELP = "Show only failures and the summary."
EXCLUDE_HELP = "Skip files matching this glob, like a .gitignore line (e.g. templates/); repeatable."
SKIP_KIND_HELP = "Skip documents of this kind (Kind or apiVersion/Kind); repeatable."
EXIT_ZERO_HELP = "Exit 0 even when there are findings (input errors still exit 2)."
CONFIG_HELP = "Configuration file (default: .crdtool.yaml or [tool.crdtool] in pyproject.toml, searched upwards)."
KUBERNETES_VERSION_HELP = (
    "Judge as the kube-apiserver of this Kubernetes release, 1.30 … 1.37 (default 1.37, or $CRDTOOL_KUBERNETES_VERSION, "
    "or kubernetesVersion in the configuration file)."
)
KUBERNETES_MATRIX_HELP = (
    KUBERNETES_VERSION_HELP[:-1] + "; a range (1.30-1.37), a comma list or 'supported' judges under each and shows "
    "where the verdicts differ."
)
KUBERNETES_VERSION_ENV = options.KUBERNETES_VERSION_ENV
JOBS_HELP = "Worker processes judging the documents (default: one per core); 1 judges them in this process."


class FieldValidation(str, enum.Enum):
    """Server-side field validation directives (``metav1.FieldValidation*``; kubectl ``--validate``)."""

    Strict = "Strict"
    Warn = "Warn"
    Ignore = "Ignore"


def _print_version(value: bool) -> None:
    if value:
        from crdtool import __version__

        print(f"crdtool {__version__}")
        raise typer.Exit(0)


@app.callback()
def _main_options(
    version: bool = typer.Option(
        False, "--version", callback=_print_version, is_eager=True, help="Print crdtool's version and exit."
    ),
) -> None:
    """Validate, convert and test Kubernetes CustomResourceDefinitions offline, as kube-apiserver does."""


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
            sys.stdout.flush()
        except BrokenPipeError:
            _end_on_closed_pipe()
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


def _config(command: str, path: Optional[str]) -> Any:
    """The configuration for ``command``; a broken file is a usage error (exit 2): :func:`crdtool.cli.options.config`."""
    with _usage():
        return options.config(command, path)


def _releases(cli_value: Optional[str], config: Any = None, *, matrix: bool = True) -> tuple[Any, ...]:
    """The releases ``--kubernetes-version`` names (:func:`crdtool.cli.options.releases`); a bad value is a usage
    error (exit 2)."""
    with _usage():
        return options.releases(cli_value, config, matrix=matrix)


def _output_name(cli: Optional[enum.Enum], config: Any, allowed: tuple[str, ...]) -> str:
    """``--output``, else the configuration's ``output``, else github under GitHub Actions, else text
    (:func:`crdtool.cli.options.output_name`)."""
    with _usage():
        return options.output_name(cli.value if cli is not None else None, config, allowed)


@contextlib.contextmanager
def _usage() -> Iterator[None]:
    """A :class:`crdtool.cli.options.UsageExit` (its message printed) as Typer's exit 2."""
    try:
        yield
    except options.UsageExit:
        raise typer.Exit(int(ExitStatus.USAGE)) from None


@app.command("validate", cls=_Command, epilog=EXIT_CODES)
@handled
def validate(
    paths: list[str] = typer.Argument(
        ..., metavar="PATH...", help="Files, directories (recursive: *.yaml, *.yml, *.json) or - for stdin.", show_default=False
    ),
    crd: Optional[list[str]] = typer.Option(
        None, "--crd", metavar="FILE", help="CRD manifest(s) to validate the custom resources among PATHS against (repeatable)."
    ),
    output: Optional[CheckOutput] = typer.Option(None, "--output", "-o", help=CHECK_OUTPUT_HELP, show_default=False),
    quiet: Optional[bool] = typer.Option(None, "--quiet/--no-quiet", "-q", help=QUIET_HELP, show_default=False),
    exclude: Optional[list[str]] = typer.Option(None, "--exclude", metavar="GLOB", help=EXCLUDE_HELP),
    skip_kind: Optional[list[str]] = typer.Option(None, "--skip-kind", metavar="KIND", help=SKIP_KIND_HELP),
    exit_zero: Optional[bool] = typer.Option(None, "--exit-zero/--no-exit-zero", help=EXIT_ZERO_HELP, show_default=False),
    config: Optional[str] = typer.Option(None, "--config", metavar="FILE", help=CONFIG_HELP),
    field_validation: FieldValidation = typer.Option(
        FieldValidation.Strict,
        "--field-validation",
        case_sensitive=False,
        help="Server-side field validation, as kubectl's: unknown and duplicate fields are errors (Strict, "
        "the default), warnings (Warn: the verdict is validation's alone) or ignored (Ignore).",
    ),
    kubernetes_version: Optional[str] = typer.Option(
        None, "--kubernetes-version", metavar="VERSION", help=KUBERNETES_MATRIX_HELP, show_default=False
    ),
    explain_cost: bool = typer.Option(
        False, "--explain-cost", help="Also show each CEL rule's estimated cost against the apiserver's limits (text, json)."
    ),
    jobs: Optional[int] = typer.Option(None, "--jobs", "-j", min=1, metavar="N", help=JOBS_HELP, show_default=False),
    select: Optional[list[str]] = typer.Option(
        None, "--select", metavar="CODES",
        help="Checks across the bundle to run: codes or prefixes (BND001, BND00, ALL); comma-separated, repeatable.",
    ),
    ignore: Optional[list[str]] = typer.Option(
        None, "--ignore", metavar="CODES", help="Checks across the bundle not to run (BND for none); comma-separated, repeatable."
    ),
    strict: Optional[bool] = typer.Option(
        None, "--strict/--no-strict", help="The checks across the bundle are findings (exit 1), not warnings.",
        show_default=False,
    ),
    ignore_missing_crds: Optional[bool] = typer.Option(
        None, "--ignore-missing-crds/--no-ignore-missing-crds", show_default=False,
        help="Skip custom resources whose CRD is neither among PATHS nor given with --crd (default: each is invalid, "
        "as kubectl's 'no matches for kind').",
    ),
) -> int:
    """Validate CRD manifests (and custom resources against their CRDs) exactly as kube-apiserver validates a create.

    The bundle is also checked as a whole (BND001-BND008: webhook Services, Service selectors, RBAC
    group/resources, ServiceAccounts, roleRefs): warnings, or findings with --strict.
    Exit 0 when everything is valid, 1 when anything is invalid, 2 on usage or input errors.
    """
    with _usage():
        return options.validate(
            paths, crd=crd, output=output.value if output is not None else None, quiet=quiet, exclude=exclude,
            skip_kind=skip_kind, exit_zero=exit_zero, config_path=config, field_validation=field_validation.value,
            kubernetes_version=kubernetes_version, explain_cost=explain_cost, jobs=jobs, select=select, ignore=ignore,
            strict=strict, ignore_missing_crds=ignore_missing_crds,
        )


def _bundle_options(select: Optional[list[str]], ignore: Optional[list[str]], strict: Optional[bool], settings: Any) -> Any:
    """validate's checks across the bundle (:func:`crdtool.cli.options.bundle_options`); usage error (exit 2) on
    an unknown code."""
    with _usage():
        return options.bundle_options(select, ignore, strict, settings)


class LintSeverity(str, enum.Enum):
    error = "error"
    warning = "warning"
    info = "info"


_codes = options.codes


@app.command("lint", cls=_Command, epilog=EXIT_CODES)
@handled
def lint(
    paths: list[str] = typer.Argument(
        ..., metavar="PATH...", help="Files, directories (recursive: *.yaml, *.yml, *.json) or - for stdin.", show_default=False
    ),
    select: Optional[list[str]] = typer.Option(
        None, "--select", metavar="CODES", help="Run only these codes or prefixes (CRD1, CRD005, ALL); comma-separated, repeatable."
    ),
    ignore: Optional[list[str]] = typer.Option(
        None, "--ignore", metavar="CODES", help="Do not run these codes or prefixes; comma-separated, repeatable."
    ),
    fail_on: Optional[LintSeverity] = typer.Option(
        None, "--fail-on", help="Exit 1 when a finding this severe or worse is found (error > warning > info; default warning).",
        show_default=False,
    ),
    fix: bool = typer.Option(False, "--fix", help="Write the bounds that bring CEL costs under 90% of their limits into the files."),
    diff: bool = typer.Option(False, "--diff", help="Print the unified diff --fix would apply (exit 1 when there is one)."),
    explain_cost: bool = typer.Option(False, "--explain-cost", help="Show every CEL rule's estimated cost (text output)."),
    output: Optional[CheckOutput] = typer.Option(None, "--output", "-o", help=CHECK_OUTPUT_HELP, show_default=False),
    exclude: Optional[list[str]] = typer.Option(None, "--exclude", metavar="GLOB", help=EXCLUDE_HELP),
    exit_zero: Optional[bool] = typer.Option(None, "--exit-zero/--no-exit-zero", help=EXIT_ZERO_HELP, show_default=False),
    config: Optional[str] = typer.Option(None, "--config", metavar="FILE", help=CONFIG_HELP),
    kubernetes_version: Optional[str] = typer.Option(
        None, "--kubernetes-version", metavar="VERSION", show_default=False,
        help=KUBERNETES_MATRIX_HELP[:-1] + "; costs are shown per release, findings are the first release's.",
    ),
) -> int:
    """Lint CRD manifests: what kube-apiserver does not reject but will hurt, and CEL costs explained.

    Codes CRD001-CRD005 (CEL cost budget), CRD1xx (lists and maps under server-side apply), CRD2xx (types, formats,
    pruning), CRD3xx (versions, subresources). Exit 0 when nothing at or above --fail-on is found, 1 when something
    is, 2 on usage or input errors.
    """
    from crdtool.cli import lint as lint_cmd
    from crdtool.cli.config import pick

    settings = _config("lint", config)
    return lint_cmd.run(
        paths,
        _output_name(output, settings, tuple(m.value for m in CheckOutput)),
        select=_codes(select) or settings.get("select"),
        ignore=_codes(ignore) or settings.get("ignore", []),
        per_file_ignores=settings.get("per-file-ignores", {}),
        fail_on=_fail_on(fail_on, settings),
        exit_zero=bool(pick(exit_zero, settings, "exit-zero", False)),
        exclude=pick(exclude, settings, "exclude", []),
        fix=fix,
        diff=diff,
        explain_cost=explain_cost,
        kubernetes_versions=[r.name for r in _releases(kubernetes_version, settings)],
    )


def _fail_on(cli: Optional[LintSeverity], config: Any) -> str:
    if cli is not None:
        return cli.value
    configured = config.get("fail-on", "warning")
    if configured not in ("error", "warning", "info"):
        print(f"crdtool: {config.path}: fail-on must be one of error, warning, info, not {configured!r}", file=sys.stderr)
        raise typer.Exit(int(ExitStatus.USAGE))
    return str(configured)


class Severity(str, enum.Enum):
    error = "error"
    breaking = "breaking"
    warning = "warning"
    info = "info"


@app.command("diff", cls=_Command, epilog=EXIT_CODES)
@handled
def diff(
    paths: list[str] = typer.Argument(
        ..., metavar="PATH...", show_default=False,
        help="OLD and NEW CRD manifests; with --base, the files (or directories) to compare with their version at REF.",
    ),
    base: Optional[str] = typer.Option(
        None, "--base", help="Compare each PATH with its version at this git ref (git show REF:PATH), e.g. origin/main."
    ),
    objects: Optional[list[str]] = typer.Option(
        None, "--objects", metavar="PATH",
        help="Stored objects (e.g. kubectl get -A -o yaml) to check against the new CRDs (repeatable).",
    ),
    stored_versions: Optional[str] = typer.Option(
        None, "--stored-versions", help="The cluster's status.storedVersions of the old CRD, comma-separated (e.g. v1beta1,v1)."
    ),
    fail_on: Severity = typer.Option(
        Severity.breaking, "--fail-on", help="Exit 1 when something this severe or worse is found (error > breaking > warning > info)."
    ),
    output: Optional[CheckOutput] = typer.Option(None, "--output", "-o", help=CHECK_OUTPUT_HELP, show_default=False),
    field_validation: FieldValidation = typer.Option(
        FieldValidation.Strict, "--field-validation", case_sensitive=False,
        help="Server-side field validation of the new CRD manifest (Strict, Warn or Ignore), as for validate.",
    ),
    kubernetes_version: Optional[str] = typer.Option(
        None, "--kubernetes-version", metavar="VERSION", help=KUBERNETES_MATRIX_HELP, show_default=False
    ),
    config: Optional[str] = typer.Option(None, "--config", metavar="FILE", help=CONFIG_HELP),
    jobs: Optional[int] = typer.Option(None, "--jobs", "-j", min=1, metavar="N", help=JOBS_HELP, show_default=False),
) -> int:
    """Check a CRD update as kube-apiserver would: is it accepted, what breaks for clients, which stored objects stop validating.

    Exit 0 when nothing at or above --fail-on is found, 1 when something is, 2 on usage or input errors.
    """
    from crdtool.cli import diff as diff_cmd
    from crdtool.cli.reporters import choose_output

    settings = _config("diff", config)
    return diff_cmd.run(
        paths, base=base, objects=objects or [], stored_versions=stored_versions, fail_on=fail_on.value,
        output=choose_output(output.value if output is not None else None), field_validation=field_validation.value,
        releases=_releases(kubernetes_version, settings),
        jobs=jobs,
    )


@app.command("sort-versions", cls=_Command, epilog=EXIT_CODES)
@handled
def sort_versions(
    versions: Optional[list[str]] = typer.Argument(
        None, metavar="VERSION...", help="Versions to sort; read one per line from stdin when absent.", show_default=False
    ),
    crd: Optional[str] = typer.Option(None, "--crd", help="Sort the spec.versions of the CRD in this file."),
    output: OutputFormat = typer.Option(OutputFormat.text, "--output", "-o", help=OUTPUT_HELP),
) -> int:
    """Print versions highest priority first, as Kubernetes orders them (CompareKubeAwareVersionStrings)."""
    from crdtool.cli import sort_versions as sort_versions_cmd

    return sort_versions_cmd.run(versions or [], crd, output)


class UpgradeTarget(str, enum.Enum):
    v1 = "v1"
    v1beta1 = "v1beta1"


@app.command("upgrade-manifest", cls=_Command, epilog=EXIT_CODES)
@handled
def upgrade_manifest(
    paths: list[str] = typer.Argument(..., metavar="PATH...", help="CRD manifests: files, directories or - for stdin.", show_default=False),
    to: UpgradeTarget = typer.Option(..., "--to", help="Target apiextensions.k8s.io version."),
    output_file: Optional[str] = typer.Option(
        None, "--output-file", help="Write the result (or the diff) here, atomically (default: stdout)."
    ),
    in_place: bool = typer.Option(False, "--in-place", help="Rewrite each file atomically in place."),
    check: bool = typer.Option(False, "--check", help="Exit 1 if anything would change; write nothing (for CI)."),
    diff: bool = typer.Option(False, "--diff", help="Print a unified diff instead of the result."),
    fix: bool = typer.Option(False, "--fix", help="Repair what can be repaired mechanically (e.g. type: object beside properties)."),
    output: Optional[CheckOutput] = typer.Option(
        None, "--output", "-o", show_default=False,
        help="text (stderr), or with --check, --in-place or --output-file: json, github, sarif or junit on stdout (github is the "
        "default there when GITHUB_ACTIONS=true).",
    ),
) -> int:
    """Convert CRD manifests between apiextensions.k8s.io v1beta1 and v1, keeping comments and layout.

    Exit 0 on success, 1 when --check finds changes or a manifest needs manual fixes, 2 on usage, input or
    write errors.
    """
    from crdtool.cli import upgrade as upgrade_cmd

    from crdtool.cli.reporters import choose_output

    name = choose_output(output.value if output is not None else None)
    if output is None and not (check or in_place or output_file):
        name = "text"  # stdout carries the manifests: GitHub annotations only where it is free
    return upgrade_cmd.run(
        paths, to.value, output_file=output_file, in_place=in_place, check=check, diff=diff, fix=fix, output=name
    )


class DefaultOutput(str, enum.Enum):
    yaml = "yaml"
    json = "json"


@app.command("default", cls=_Command, epilog=EXIT_CODES)
@handled
def default(
    objects: list[str] = typer.Argument(..., metavar="OBJECT...", help="Custom resources: files, directories or - for stdin.", show_default=False),
    crd: list[str] = typer.Option([], "--crd", metavar="FILE", help="CRD manifest(s) whose schemas apply, matched by group and kind (repeatable)."),
    version: Optional[str] = typer.Option(None, "--version", help="CRD version to use (default: each object's apiVersion)."),
    output: DefaultOutput = typer.Option(DefaultOutput.yaml, "--output", "-o", help="yaml (default) or json (a JSON list)."),
    no_prune: bool = typer.Option(False, "--no-prune", help="Apply defaults only; do not prune unknown fields."),
    show_pruned: bool = typer.Option(False, "--show-pruned", help="List the pruned paths on stderr."),
    in_place: bool = typer.Option(False, "--in-place", help="Rewrite each object file atomically in place."),
    only_custom_resources: bool = typer.Option(
        False, "--only-custom-resources", help="Leave out documents that are not custom resources of the given CRDs."
    ),
    kubernetes_version: Optional[str] = typer.Option(
        None, "--kubernetes-version", metavar="VERSION", help=KUBERNETES_VERSION_HELP, show_default=False
    ),
    config: Optional[str] = typer.Option(None, "--config", metavar="FILE", help=CONFIG_HELP),
    jobs: Optional[int] = typer.Option(None, "--jobs", "-j", min=1, metavar="N", help=JOBS_HELP, show_default=False),
) -> int:
    """Print objects as the apiserver would store them: pruned and defaulted by the CRD's structural schema.

    Built-in kinds are decoded and defaulted as the release's apiserver does; other documents that are not custom
    resources of the given CRDs pass through unchanged. Exit 0 on success, 2 on
    usage or input errors (objects of versions the CRD does not define or serve); the other objects are still
    printed.
    """
    from crdtool.cli import default as default_cmd

    (release,) = _releases(kubernetes_version, _config("default", config), matrix=False)
    return default_cmd.run(
        objects, crd, version=version, output=output.value, no_prune=no_prune, show_pruned=show_pruned,
        in_place=in_place, only_custom_resources=only_custom_resources, kubernetes_version=release.name, jobs=jobs,
    )


@app.command("fuzz-roundtrip", cls=_Command, epilog=EXIT_CODES)
@handled
def fuzz_roundtrip(
    target: Optional[str] = typer.Argument(
        None, help="The conversion function: module:function or path/to/file.py:function (or use --webhook)."
    ),
    crd: str = typer.Option(..., "--crd", help="The CRD manifest whose version schemas generate the objects."),
    webhook: Optional[str] = typer.Option(
        None, "--webhook", help="Fuzz a running conversion webhook at this https:// URL instead of TARGET."
    ),
    ca_bundle: Optional[str] = typer.Option(
        None, "--ca-bundle", help="PEM file of the CA that signed the webhook's certificate (default: system roots)."
    ),
    batch: int = typer.Option(4, "--batch", min=1, max=100, help="With --webhook: at most this many objects per ConversionReview."),
    versions: Optional[str] = typer.Option(None, "--versions", help="Comma-separated versions to test (default: all served)."),
    examples: int = typer.Option(200, "--examples", min=1, help="Examples per ordered version pair."),
    seed: Optional[int] = typer.Option(None, "--seed", help="Seed for a reproducible run."),
    timeout: float = typer.Option(5.0, "--timeout", min=0.001, help="Seconds one conversion call may take."),
    replay: bool = typer.Option(False, "--replay", help="Replay only the failures saved by earlier runs."),
    output: Optional[CheckOutput] = typer.Option(None, "--output", "-o", help=CHECK_OUTPUT_HELP, show_default=False),
    kubernetes_version: Optional[str] = typer.Option(
        None, "--kubernetes-version", metavar="VERSION", help=KUBERNETES_VERSION_HELP, show_default=False
    ),
    config: Optional[str] = typer.Option(None, "--config", metavar="FILE", help=CONFIG_HELP),
) -> int:
    """Property-test a conversion function: round trips between every pair of the CRD's versions.

    Exit 0 when all properties hold, 1 on any failure, 2 on usage errors.
    """
    from crdtool.cli import fuzz as fuzz_cmd
    from crdtool.cli.reporters import choose_output

    (release,) = _releases(kubernetes_version, _config("fuzz-roundtrip", config), matrix=False)
    return fuzz_cmd.run(
        target, crd, versions=versions, examples=examples, seed=seed, timeout=timeout, replay=replay,
        output=choose_output(output.value if output is not None else None),
        webhook=webhook, ca_bundle=ca_bundle, batch=batch, kubernetes_version=release.name,
    )


@app.command("review", cls=_Command, epilog=EXIT_CODES)
@handled
def review(
    request: str = typer.Argument(..., help="The ConversionReview the apiserver sent (JSON or YAML; - for stdin)."),
    response: str = typer.Argument(..., help="The webhook's response body (JSON, read as sent)."),
    crd: str = typer.Option(..., "--crd", help="The CRD manifest the conversion is for."),
    output: OutputFormat = typer.Option(OutputFormat.text, "--output", "-o", help=OUTPUT_HELP),
    kubernetes_version: Optional[str] = typer.Option(
        None, "--kubernetes-version", metavar="VERSION", help=KUBERNETES_VERSION_HELP, show_default=False
    ),
    config: Optional[str] = typer.Option(None, "--config", metavar="FILE", help=CONFIG_HELP),
) -> int:
    """Judge a conversion webhook's answer as kube-apiserver does: the objects clients get, or kubectl's error.

    Exit 0 when the apiserver accepts the answer, 1 when it fails the request, 2 on input errors.
    """
    from crdtool.cli import review as review_cmd

    (release,) = _releases(kubernetes_version, _config("review", config), matrix=False)
    return review_cmd.run(crd, request, response, output=output, kubernetes_version=release.name)


@app.command("admit", cls=_Command, epilog=EXIT_CODES)
@handled
def admit(
    paths: list[str] = typer.Argument(
        ..., metavar="FILE...", show_default=False,
        help="CRDs, Namespaces, params, Validating/MutatingAdmissionPolicies and bindings, and one AdmissionReview "
        "(files, directories or - for stdin).",
    ),
    object_path: Optional[str] = typer.Option(None, "--object", metavar="FILE", help="Build the request: the object."),
    old_object_path: Optional[str] = typer.Option(None, "--old-object", metavar="FILE", help="Build the request: the old object."),
    operation: Optional[str] = typer.Option(None, "--operation", help="Build the request: CREATE, UPDATE, DELETE (default: from the objects given)."),
    user: Optional[str] = typer.Option(None, "--user", help="Build the request: the user name."),
    group: Optional[list[str]] = typer.Option(None, "--group", help="Build the request: a group of the user (repeatable)."),
    namespace: Optional[str] = typer.Option(None, "--namespace", help="Build the request: its namespace."),
    feature_gates: Optional[str] = typer.Option(
        None, "--feature-gates", metavar="G=true,...", help="Feature gates overriding the release's defaults."
    ),
    output: OutputFormat = typer.Option(OutputFormat.text, "-o", "--output", help=OUTPUT_HELP),
    kubernetes_version: Optional[str] = typer.Option(
        None, "--kubernetes-version", metavar="VERSION", help=KUBERNETES_VERSION_HELP, show_default=False
    ),
    config: Optional[str] = typer.Option(None, "--config", metavar="FILE", help=CONFIG_HELP),
) -> int:
    """Answer an admission request as the apiserver's chain would: NamespaceLifecycle, decoding and defaulting,
    MutatingAdmissionPolicies, the object's validation, ValidatingAdmissionPolicies.

    Exit 0 when the request is allowed, 1 when it is denied or a policy or binding would be refused at create, 2 on
    usage or input errors.
    """
    from crdtool.cli import admit as admit_cmd

    (release,) = _releases(kubernetes_version, _config("admit", config), matrix=False)
    return admit_cmd.run(
        paths, output=output, kubernetes_version=release.name, feature_gates=feature_gates, object_path=object_path,
        old_object_path=old_object_path, operation=operation, user=user, groups=group, namespace=namespace,
    )


@app.command("serve", cls=_Command, epilog=EXIT_CODES)
@handled
def serve(
    target: str = typer.Argument(..., help="The conversion function: module:function or path/to/file.py:function."),
    crd: str = typer.Option(..., "--crd", help="The CRD manifest the webhook converts for."),
    host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on (0.0.0.0 in a container)."),
    port: int = typer.Option(8443, "--port", min=1, max=65535, help="Port to listen on."),
    path: str = typer.Option("/convert", "--path", help="URL path of the webhook."),
    tls_cert: Optional[str] = typer.Option(None, "--tls-cert", help="PEM certificate (chain) to serve."),
    tls_key: Optional[str] = typer.Option(None, "--tls-key", help="PEM private key of --tls-cert."),
    self_signed: bool = typer.Option(
        False, "--self-signed", help="Generate a throwaway self-signed certificate and print its caBundle (development)."
    ),
    tls_name: Optional[list[str]] = typer.Option(
        None, "--tls-name", help="Extra DNS name or IP for the --self-signed certificate, e.g. svc.ns.svc (repeatable)."
    ),
    insecure_http: bool = typer.Option(
        False, "--insecure-http", help="Serve plain HTTP (only behind a TLS-terminating proxy)."
    ),
    workers: int = typer.Option(1, "--workers", min=1, help="Server processes, each on its own SO_REUSEPORT socket."),
    converters: int = typer.Option(
        2, "--converters", min=1, help="Processes per worker running the conversion function (killed and replaced when one overruns --timeout)."
    ),
    timeout: float = typer.Option(10.0, "--timeout", min=0.001, help="Seconds one ConversionReview may take (a hard limit)."),
    drain_delay: float = typer.Option(
        3.0, "--drain-delay", min=0.0, help="After SIGTERM, seconds to keep serving with /readyz at 503 before draining."
    ),
    read_timeout: float = typer.Option(
        5.0, "--read-timeout", min=0.1, help="Seconds a client may take for the TLS handshake, the headers and the body (each)."
    ),
    max_body_bytes: int = typer.Option(
        8 * 1024 * 1024, "--max-body-bytes", min=1024, help="Larger request bodies are refused with 413."
    ),
    max_objects: int = typer.Option(10_000, "--max-objects", min=1, help="Reviews with more objects are refused with 400."),
    kubernetes_version: Optional[str] = typer.Option(
        None, "--kubernetes-version", metavar="VERSION", help=KUBERNETES_VERSION_HELP, show_default=False
    ),
    config: Optional[str] = typer.Option(None, "--config", metavar="FILE", help=CONFIG_HELP),
) -> int:
    """Serve a conversion function as a Kubernetes CRD conversion webhook (HTTPS, ConversionReview v1 and v1beta1).

    Prints the CRD conversion stanza to paste; GET /healthz, /readyz and /metrics (Prometheus).
    SIGTERM drains in-flight requests, then exits 0. Exit 2 on usage errors.
    """
    from crdtool.cli import serve as serve_cmd

    (release,) = _releases(kubernetes_version, _config("serve", config), matrix=False)
    return serve_cmd.run(
        target, crd, host=host, port=port, path=path, tls_cert=tls_cert, tls_key=tls_key, self_signed=self_signed,
        insecure_http=insecure_http, tls_names=tls_name or [], workers=workers, timeout=timeout,
        max_body_bytes=max_body_bytes, max_objects=max_objects, converters=converters, drain_delay=drain_delay,
        read_timeout=read_timeout, kubernetes_version=release.name,
    )


@app.command("schema", cls=_Command, epilog=EXIT_CODES)
@handled
def schema(
    crd: list[str] = typer.Option(..., "--crd", metavar="FILE", help="CRD manifest(s): every CRD in them is exported (repeatable)."),
    version: Optional[str] = typer.Option(None, "--version", help="Export only this version (default: every version)."),
    output_dir: Optional[str] = typer.Option(
        None, "--output-dir", metavar="DIR", help="Write DIR/{kind}_{version}.json for each (default: the one schema on stdout)."
    ),
    strict: bool = typer.Option(False, "--strict", help="additionalProperties: false where the apiserver prunes unknown fields."),
    kubernetes_version: Optional[str] = typer.Option(
        None, "--kubernetes-version", metavar="VERSION", help=KUBERNETES_VERSION_HELP, show_default=False
    ),
    config: Optional[str] = typer.Option(None, "--config", metavar="FILE", help=CONFIG_HELP),
) -> int:
    """Export each CRD version's structural schema as JSON Schema (draft 2020-12), for editors and other validators.

    apiVersion and kind are pinned by const; CEL, list-map and metadata rules are not expressible (each schema's
    description says so). Exit 0 on success, 2 on usage or input errors (an invalid CRD, an unknown version).
    """
    from crdtool.cli import schema as schema_cmd

    (release,) = _releases(kubernetes_version, _config("schema", config), matrix=False)
    return schema_cmd.run(crd, version=version, output_dir=output_dir, strict=strict, kubernetes_version=release.name)


class DocsFormat(str, enum.Enum):
    html = "html"
    markdown = "markdown"


@app.command("docs", cls=_Command, epilog=EXIT_CODES)
@handled
def docs(
    paths: list[str] = typer.Argument(..., metavar="PATH...", help="CRD manifests: files, directories or - for stdin.", show_default=False),
    fmt: DocsFormat = typer.Option(DocsFormat.html, "--format", help="html (self-contained pages, an index with a search box) or markdown (GitHub-flavoured)."),
    out: Optional[str] = typer.Option(None, "--out", metavar="DIR", help="Write DIR/index and one page per CRD (default: the one CRD's page on stdout)."),
    output: OutputFormat = typer.Option(OutputFormat.text, "-o", "--output", help="text: pages only; json: also list what was written."),
    examples: Optional[list[str]] = typer.Option(None, "--examples", metavar="PATH", help="Custom resources to show on their CRD's page, validated and with the defaults applied (repeatable)."),
) -> int:
    """Write an API reference for every CRD: fields, defaults, enums, bounds, the CEL rules in words, and what changed between versions.

    Exit 0 on success, 2 on usage or input errors (pages of the readable CRDs are still written).
    """
    from crdtool.cli import docs as docs_cmd

    return docs_cmd.run(paths, fmt=fmt.value, out=out, output=output.value, examples=examples or [])


@app.command("explain", cls=_Command, epilog=EXIT_CODES)
@handled
def explain(
    target: str = typer.Argument(..., metavar="RESOURCE[.FIELD...]", help="The resource (plural, singular, short name or kind) and a field path, as kubectl explain takes them.", show_default=False),
    crd: Optional[list[str]] = typer.Option(None, "--crd", metavar="FILE", help="CRD manifest(s) holding the resource (repeatable); without, or when none defines it: the built-in kinds."),
    api_version: Optional[str] = typer.Option(None, "--api-version", metavar="GROUP/VERSION", help="Explain this version (default: the preferred one)."),
    kubernetes_version: Optional[str] = typer.Option(
        None, "--kubernetes-version", metavar="VERSION", help="The release whose built-in kinds are explained, 1.30 … 1.37 (default 1.37).", show_default=False
    ),
    recursive: bool = typer.Option(False, "--recursive", help="List the fields of the fields, all the way down."),
    extras: bool = typer.Option(True, "--extras/--no-extras", help="Print the field's default and rules after its description (kubectl does not)."),
    output: OutputFormat = typer.Option(OutputFormat.text, "-o", "--output", help=OUTPUT_HELP),
) -> int:
    """Explain a field as kubectl explain does, offline: of a custom resource from its CRD file (with its rules, default and enum), or of a built-in kind.

    Exit 0 on success, 2 on usage or input errors (no such resource or field).
    """
    from crdtool.cli import explain as explain_cmd

    (release,) = _releases(kubernetes_version, None, matrix=False)
    return explain_cmd.run(target, crd or [], api_version=api_version, recursive=recursive, extras=extras, output=output.value,
                           kubernetes_version=release.name)


@app.command("test", cls=_Command, epilog=EXIT_CODES)
@handled
def test(
    paths: Optional[list[str]] = typer.Argument(
        None, metavar="[PATH...]", show_default=False,
        help="Suite files, or directories searched for *.crdtest.yaml (default: the current directory).",
    ),
    select: Optional[str] = typer.Option(
        None, "-k", metavar="EXPRESSION", help="Run only the cases whose name matches, as pytest -k: 'immutable and not tls'."
    ),
    kubernetes_version: Optional[str] = typer.Option(
        None, "--kubernetes-version", metavar="RELEASES",
        help="Run every case under these Kubernetes releases: 1.33, 1.30-1.37, 1.31,1.33 or supported "
        "(default: each case's kubernetesVersions, else 1.37).",
    ),
    coverage: bool = typer.Option(False, "--coverage", help="Print rule coverage: each validation some case made pass and fail."),
    fail_under: Optional[float] = typer.Option(
        None, "--fail-under", metavar="PERCENT", min=0, max=100, help="Exit 1 when rule coverage is below PERCENT."
    ),
    generate: Optional[str] = typer.Option(
        None, "--generate", metavar="CRD", help="Write a starter suite for the CRD's rules instead of running suites."
    ),
    output_file: Optional[str] = typer.Option(
        None, "--output-file", metavar="FILE", help="With --generate: write the suite here (default: stdout)."
    ),
    seed: int = typer.Option(0, "--seed", help="With --generate: the search's seed (the same seed gives the same suite)."),
    output: Optional[CheckOutput] = typer.Option(None, "--output", "-o", help=CHECK_OUTPUT_HELP, show_default=False),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Text output: only suites with failures, and the summary."),
    jobs: Optional[int] = typer.Option(None, "--jobs", "-j", min=1, metavar="N", help=JOBS_HELP, show_default=False),
    update: bool = typer.Option(
        False, "--update", help="Rewrite each failing case's expect to what the apiserver answers (errors, warnings, "
        "stored object), keeping the file's comments and layout; print each change.",
    ),
) -> int:
    """Run unit tests of CRD validation rules (*.crdtest.yaml) on the apiserver's create and update paths, offline.

    Exit 0 when every case passes, 1 when a case fails (or coverage is below --fail-under), 2 on usage or
    input errors (no suite found, a suite that cannot be read).
    """
    if generate is not None:
        from crdtool.cli import test_generate

        return test_generate.run(generate, output_file=output_file, seed=seed)
    from crdtool.cli import test as test_cmd
    from crdtool.cli.reporters import choose_output

    default = None  # the releases of the cases that name none: the environment, else the configuration file
    if os.environ.get(KUBERNETES_VERSION_ENV):
        default = (f"${KUBERNETES_VERSION_ENV}", os.environ[KUBERNETES_VERSION_ENV])
    else:
        settings = _config("test", None)
        if settings.get("kubernetes-version") is not None:
            default = (f"{settings.path}: kubernetesVersion", str(settings.get("kubernetes-version")))
    return test_cmd.run(
        paths or [], choose_output(output.value if output is not None else None), select=select,
        kubernetes_version=kubernetes_version, coverage=coverage, fail_under=fail_under, quiet=quiet, jobs=jobs,
        default_kubernetes_version=default, update=update,
    )


class Shell(str, enum.Enum):
    bash = "bash"
    zsh = "zsh"
    fish = "fish"


@app.command("completion", cls=_Command, epilog=EXIT_CODES)
@handled
def completion(shell: Shell = typer.Argument(..., metavar="SHELL", help="bash, zsh or fish.", show_default=False)) -> int:
    """Print the shell completion script for bash, zsh or fish (see the README for where to put it)."""
    from crdtool.cli.completion import GENERATORS, command_specs
    from crdtool.cli.reporters import write_text

    write_text(sys.stdout, GENERATORS[shell.value](command_specs(app)))
    return 0


def _end_on_closed_pipe() -> None:
    """The reader of stdout went away (``crdtool ... | head``): end as POSIX tools do, by SIGPIPE.

    No message, no crash log and no exit status that could pass for a verdict:
    the shell sees 141 (128 + SIGPIPE), as for ``yes | head``. Python's docs
    recipe first points stdout at /dev/null so that no later flush fails.
    """
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass
    sigpipe = getattr(signal, "SIGPIPE", None)
    if sigpipe is not None:
        signal.signal(sigpipe, signal.SIG_DFL)
        os.kill(os.getpid(), sigpipe)
    raise typer.Exit(128 + (sigpipe or 13))


def _crash_log(exc: BaseException) -> str:
    """Write the traceback to a log file and return its path."""
    import tempfile
    import traceback

    fd, path = tempfile.mkstemp(prefix="crdtool-crash-", suffix=".log")
    with os.fdopen(fd, "w", encoding="utf-8") as log:
        log.write(f"crdtool {' '.join(sys.argv[1:])}\n\n")
        log.write("".join(traceback.format_exception(type(exc), exc, exc.__traceback__)))
    return path


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point: run the app; it exits with the command's status."""
    args = sys.argv[1:] if argv is None else list(argv)
    if args[:1] == ["validate"]:
        # before the collector's thresholds rise (see fast._validate); a failure is the command's to report
        with contextlib.suppress(Exception):
            from crdtool.cli import validate  # noqa: F401

    options.prepare_process()
    _only_the_command_run(args)(args=args, prog_name="crdtool")


def _only_the_command_run(args: list[str]) -> typer.Typer:
    """The application, with only the subcommand ``args`` name when they name one.

    Typer builds the Click command of every registered command, reading each
    function's signature and type hints, on every run (about 20 ms for our ten);
    one command's parsing, help and errors do not depend on the others. The
    top-level help, ``--version`` and unknown commands get the whole application.
    """
    import copy

    name = args[0] if args else None
    chosen = [info for info in app.registered_commands if info.name == name]
    if len(chosen) != 1:
        return app
    light = copy.copy(app)
    light.registered_commands = chosen
    return light
