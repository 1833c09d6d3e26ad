"""``validate``'s checks across the bundle (:mod:`crdtool.core.bundle`) on the results of one run.

The inputs are judged as usual, release by release; then the bundle's findings of each release are added to
the results of the documents they point at: warnings (``BND004 rbac-unknown-resource: ...``), or with
``--strict`` errors whose ``type`` is the code (the reporters' rule id: SARIF ``ruleId``, JUnit ``type``), which
make the document invalid (exit 1). The matrix then merges the releases' results as for any error or warning.
A ``# crdtool: ignore[BND004]`` comment silences a finding as it does lint's (:mod:`crdtool.yaml.suppressions`:
on the finding's line, on the line above it, or on the document's first line for the whole document).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from crdtool.cli.report import DocumentResult
from crdtool.core.releases import Release
from crdtool.yaml.loader import Document, InputError

#: Inputs up to this size in all are loaded whole when the bundle is checked (above it, large inputs are read
#: as streams, document by document, and the bundle is not checked: a note on stderr says so).
BUNDLE_MAX_BYTES = 16 << 20


@dataclass(frozen=True)
class BundleOptions:
    """What the command line asks: the codes to run (``--select``/``--ignore``), ``--strict``, the namespace of
    objects that name none."""

    rules: frozenset[str]
    strict: bool = False
    namespace: str = "default"


def apply(
    options: BundleOptions,
    releases: Sequence[Release],
    per_release: Sequence[list[DocumentResult]],
    items: Sequence[Document | InputError | None],
    flag_items: Sequence[Document | InputError] = (),
) -> None:
    """Add each release's bundle findings to ``per_release[k]`` (in place).

    ``items``: the loaded documents of the inputs, in order (None for a document no check reads:
    :func:`crdtool.core.bundle.takes_part`); the last ``len(items)`` results of each release are theirs
    (``--crd``'s input errors come first). The CRDs of ``--crd`` (``flag_items``) are part of the bundle (their
    groups and plurals serve RBAC rules) but findings in them are not reported.
    """
    from crdtool.core.bundle import check_bundle

    if not options.rules:
        return
    documents = [i.data if isinstance(i, Document) else None for i in items]
    documents += [i.data if isinstance(i, Document) else None for i in flag_items]
    for release, results in zip(releases, per_release):
        offset = len(results) - len(items)
        for finding in check_bundle(documents, release, namespace=options.namespace, rules=options.rules):
            if finding.document >= len(items) or offset < 0:
                continue
            item = items[finding.document]
            result = results[offset + finding.document]
            if not isinstance(item, Document) or result.status == "error":
                continue
            text = f"{finding.code} {finding.name}: {finding.message}"
            line, column = item.position(finding.field) or (item.line, item.column)
            if _suppressed(item, finding.code, line):
                continue
            if not options.strict:
                result.warnings.append(text)
                continue
            result.errors.append({"type": finding.code, "field": finding.field, "detail": finding.message,
                                  "badValue": None, "message": text, "line": line, "column": column})
            if result.status in ("valid", "skipped"):
                result.status = "invalid"


def _suppressed(item: Document, code: str, line: int) -> bool:
    """Whether a ``# crdtool: ignore[...]`` comment of ``item`` silences ``code`` at file line ``line``."""
    source = item.source_text()
    if source is None or "crdtool" not in source[0]:
        return False
    from crdtool.yaml.suppressions import find_suppressions

    return any(s.silences(code, line) for s in find_suppressions(source[0], source[1], item.line))


def stream_note() -> str:
    """The stderr note when an input too large to load whole is streamed and the bundle is not checked."""
    return (f"crdtool: the checks across the bundle are skipped: the inputs are over {BUNDLE_MAX_BYTES >> 20} MiB "
            "and are read document by document (--ignore BND silences this note)")
