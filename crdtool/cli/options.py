"""What the shared options mean, without Typer: the configuration file, ``--kubernetes-version``, ``--output``,
the checks across the bundle, and ``validate``'s whole set.

The Typer application (:mod:`crdtool.cli.app`) parses a command line and calls these; so does the fast start
(:mod:`crdtool.cli.fast`) for the plain ``validate`` command lines it parses itself. One function for both, so
that the two give the same answers by construction. A usage error is printed on stderr here and raised as
:class:`UsageExit` (the application turns it into exit 2).
"""

from __future__ import annotations

import atexit
import gc
import os
import sys
from typing import Any, Optional

#: The environment variable ``--kubernetes-version`` defaults to.
KUBERNETES_VERSION_ENV = "CRDTOOL_KUBERNETES_VERSION"
#: Exit status of a usage error (``ExitStatus.USAGE``).
USAGE = 2


class UsageExit(Exception):
    """A usage error, its message already printed on stderr: the command ends with exit 2."""


def config(command: str, path: Optional[str]) -> Any:
    """The configuration for ``command``; a broken file is a usage error (exit 2)."""
    from crdtool.cli.config import ConfigError, load_config

    try:
        return load_config(command, path)
    except ConfigError as exc:
        print(f"crdtool: {exc}", file=sys.stderr)
        raise UsageExit from None


def releases(cli_value: Optional[str], config: Any = None, *, matrix: bool = True) -> tuple[Any, ...]:
    """The releases ``--kubernetes-version`` names: the option, else ``$CRDTOOL_KUBERNETES_VERSION``, else the
    configuration's ``kubernetesVersion``, else the default (1.37). A bad value is a usage error (exit 2); so are
    several releases for a command that judges under one (``matrix`` False)."""
    from crdtool.core.releases import DEFAULT_RELEASE, parse_release_matrix

    source, value = "--kubernetes-version", cli_value
    if value is None and os.environ.get(KUBERNETES_VERSION_ENV):
        source, value = f"${KUBERNETES_VERSION_ENV}", os.environ[KUBERNETES_VERSION_ENV]
    if value is None and config is not None and config.get("kubernetes-version") is not None:
        source, value = f"{config.path}: kubernetesVersion", config.get("kubernetes-version")
    if value is None:
        return (DEFAULT_RELEASE,)
    try:
        found = parse_release_matrix(value)
    except ValueError as exc:
        print(f"crdtool: {source}: {exc}", file=sys.stderr)
        raise UsageExit from None
    if not matrix and len(found) > 1:
        print(f"crdtool: {source}: this command judges as one Kubernetes release, not {value!r}", file=sys.stderr)
        raise UsageExit
    return found


def output_name(cli: Optional[str], config: Any, allowed: tuple[str, ...]) -> str:
    """``--output`` (its value, or None), else the configuration's ``output``, else github under GitHub Actions,
    else text. A configured name not in ``allowed`` is a usage error (exit 2)."""
    from crdtool.cli.reporters import choose_output

    configured = config.get("output")
    if configured is not None and configured not in allowed:
        print(f"crdtool: {config.path}: output must be one of {', '.join(allowed)}, not {configured!r}", file=sys.stderr)
        raise UsageExit
    name = choose_output(cli, configured)
    return name if name in allowed else "text"


def codes(values: Optional[list[str]]) -> Optional[list[str]]:
    """Repeatable, comma-separated code options (``--select CRD1,CRD005``); None when not given."""
    if not values:
        return None
    return [c.strip() for v in values for c in v.split(",") if c.strip()]


def bundle_options(select: Optional[list[str]], ignore: Optional[list[str]], strict: Optional[bool], settings: Any) -> Any:
    """validate's checks across the bundle from the options and the configuration file (whose select/ignore
    entries count when they are BND codes: the same keys may hold lint's codes). Usage error on an unknown code."""
    from crdtool.cli.bundle_checks import BundleOptions
    from crdtool.cli.config import pick
    from crdtool.core.bundle import select_rules

    def configured(key: str) -> list[str]:
        return [c for c in settings.get(key) or [] if isinstance(c, str) and c.strip().upper().startswith("BND")]

    try:
        rules = select_rules(codes(select) or configured("select") or None, codes(ignore) or configured("ignore"))
    except ValueError as exc:
        print(f"crdtool: {exc}", file=sys.stderr)
        raise UsageExit from None
    return BundleOptions(rules, strict=bool(pick(strict, settings, "strict", False)))


def validate(
    paths: list[str],
    *,
    crd: Optional[list[str]] = None,
    output: Optional[str] = None,
    quiet: Optional[bool] = None,
    exclude: Optional[list[str]] = None,
    skip_kind: Optional[list[str]] = None,
    exit_zero: Optional[bool] = None,
    config_path: Optional[str] = None,
    field_validation: str = "Strict",
    kubernetes_version: Optional[str] = None,
    explain_cost: bool = False,
    jobs: Optional[int] = None,
    select: Optional[list[str]] = None,
    ignore: Optional[list[str]] = None,
    strict: Optional[bool] = None,
    ignore_missing_crds: Optional[bool] = None,
) -> int:
    """``crdtool validate``: the options as parsed (None: not given; ``output`` and ``field_validation`` by their
    values) with the configuration file's, then :func:`crdtool.cli.validate.run`; its exit status.
    Raises :class:`UsageExit` (message printed) on a bad configuration, code, output or release."""
    from crdtool.cli import validate as validate_cmd
    from crdtool.cli.config import pick
    from crdtool.cli.progress import DelayedProgress
    from crdtool.cli.reporters import CheckOutput

    settings = config("validate", config_path)
    kinds = [k.strip() for value in pick(skip_kind, settings, "skip-kind", []) for k in value.split(",") if k.strip()]
    bundle = bundle_options(select, ignore, strict, settings)
    return validate_cmd.run(
        paths,
        output_name(output, settings, tuple(m.value for m in CheckOutput)),
        crd_paths=pick(crd, settings, "crd", []),
        field_validation=field_validation,
        quiet=bool(pick(quiet, settings, "quiet", False)),
        exclude=pick(exclude, settings, "exclude", []),
        skip_kinds=kinds,
        exit_zero=bool(pick(exit_zero, settings, "exit-zero", False)),
        progress=DelayedProgress("validating"),
        releases=releases(kubernetes_version, settings),
        explain_cost=explain_cost,
        jobs=jobs,
        bundle=bundle,
        ignore_missing_crds=bool(pick(ignore_missing_crds, settings, "ignore-missing-crds", False)),
    )


def prepare_process() -> None:
    """The process settings of a command that judges: a recursion limit for deep schemas, the cyclic collector's
    thresholds, and the live objects frozen at exit."""
    # Validators walk schemas recursively; real CRDs nest ~30 deep, hostile ones are
    # rejected by the loader long before this limit matters.
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20000))
    # Loading and judging manifests allocates millions of dicts and lists, nearly all freed by reference
    # counting; at CPython's default threshold (700) the cyclic collector ran thousands of times and took
    # ~14% of `validate` on the corpus. mypy does the same (mypy/build.py: gc.set_threshold(200 * 1000, 30, 30)).
    gc.set_threshold(100_000, 30, 30)
    # Python's exit collects every generation, twice (before and after the modules are cleared): after
    # `validate` of 3,240 documents ~36,000 live objects, ~15 ms of CPU, to free what the exit frees anyway.
    # Frozen at exit (gc.freeze: out of the collector's sight), they are skipped. An atexit hook, not a
    # `finally`: a caller that runs main() in its own process (the tests) keeps its collector until it exits.
    # (The console script's fast path ends its process with os._exit, which skips finalization altogether:
    # crdtool.cli.fast._end_process; this hook serves the Typer path.)
    atexit.unregister(gc.freeze)  # once, however often main() is called
    atexit.register(gc.freeze)
