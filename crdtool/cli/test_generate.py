"""``crdtool test --generate CRD``: write a starter suite for a CRD's CEL rules (:mod:`crdtool.testing.generate`)."""

from __future__ import annotations

import contextlib
import os
import sys
from typing import Iterator


def run(crd_path: str, *, output_file: str | None = None, seed: int = 0, max_examples: int = 150) -> int:
    """Write the suite to ``output_file`` (atomically) or stdout; the rules not exercised go to stderr.

    Exit 0 when a suite was written, 2 when the CRD cannot be read.
    """
    from crdtool.loading import UsageError, load_crd
    from crdtool.testing.generate import generate_suite, render

    try:
        crd = load_crd(crd_path)
    except UsageError as exc:
        print(f"crdtool test --generate: {exc}", file=sys.stderr)
        return 2
    try:
        with _scratch_hypothesis_storage():
            result = generate_suite(crd, crd_path, output_file, seed=seed, max_examples=max_examples)
    except ValueError as exc:
        print(f"crdtool test --generate: {exc}", file=sys.stderr)
        return 2
    text = render(result)
    if output_file:
        from crdtool.cli.atomic import atomic_write_text

        atomic_write_text(output_file, text)  # a new file gets the mode the user's umask gives
        cases = len(result.suite["cases"])
        print(f"wrote {output_file}: {cases} case{'' if cases == 1 else 's'} for {result.rules} CEL "
              f"rule{'' if result.rules == 1 else 's'}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    for label, reason in result.not_exercised:
        print(f"not exercised: {label}: {reason}", file=sys.stderr)
    for name, why in result.dropped:
        print(f"dropped (would not pass as written): {name}: {why}", file=sys.stderr)
    return 0


@contextlib.contextmanager
def _scratch_hypothesis_storage() -> Iterator[None]:
    """hypothesis's storage directory (its Unicode tables; no examples are saved: the search runs without a
    database) under ``$CRDTOOL_CACHE_DIR/hypothesis`` when that is set, else a temporary directory removed
    afterwards: nothing is left in the working directory (no ``.hypothesis/``)."""
    import tempfile

    from crdtool.cli.fuzz import CACHE_ENV, hypothesis_dir, hypothesis_storage

    if os.environ.get(CACHE_ENV):
        with hypothesis_storage(hypothesis_dir()):
            yield
        return
    with tempfile.TemporaryDirectory(prefix="crdtool-hypothesis-") as scratch, hypothesis_storage(scratch):
        yield
