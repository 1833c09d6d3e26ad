"""One verdict per document from the verdicts of several Kubernetes releases (``--kubernetes-version 1.30-1.37``).

Each release judges every document (:mod:`crdtool.cli.validate`); :func:`combine` merges the per-release
results, which come in the same document order, into one :class:`~crdtool.cli.report.DocumentResult` per
document: rejected when any release rejects it, its errors and warnings each once with the releases that
report them (``kubernetesVersions``), and the per-release verdicts in ``versions``. :func:`ranges` writes a
set of releases as people read it (``1.30–1.32, 1.35``).
"""

from __future__ import annotations

from typing import Any, Sequence

from crdtool.cli.report import DocumentResult, ranges, verdict_line
from crdtool.core.releases import Release

__all__ = ["combine", "ranges", "verdict_line"]  # ranges, verdict_line: from crdtool.cli.report

# the document's status when releases disagree: the worst wins
_RANK = {"error": 3, "invalid": 2, "valid": 1, "skipped": 0}


def _error_key(entry: dict[str, Any]) -> tuple[Any, ...]:
    return (entry.get("type"), entry.get("field"), entry.get("message"), entry.get("line"), entry.get("column"))


def _item_statuses(row: Sequence[DocumentResult]) -> list[str] | None:
    """A ``List``'s items' statuses, each the worst of the releases' (None when no release gives them)."""
    lists = [r.item_statuses for r in row if r.item_statuses is not None]
    if not lists:
        return None
    return [max(statuses, key=lambda s: _RANK.get(s, 0)) for statuses in zip(*lists)]


def combine(releases: Sequence[Release], per_release: Sequence[Sequence[DocumentResult]]) -> list[DocumentResult]:
    """Merge the results of each release (``per_release[i]`` judged under ``releases[i]``, same documents, same
    order) into one result per document.

    Out: for each document a :class:`DocumentResult` whose ``status`` is the worst of the releases'
    (``error`` > ``invalid`` > ``valid`` > ``skipped``); ``errors`` holds each distinct error once, in
    first-seen order, with ``kubernetesVersions`` listing the releases that report it; ``warnings`` each
    distinct warning once, prefixed ``[1.36–1.37] `` when not every release gives it; ``versions`` maps each
    release (``"1.30"``) to its own result; a ``List``'s ``item_statuses`` are each the worst of the releases'.
    """
    names = [r.name for r in releases]
    out: list[DocumentResult] = []
    for row in zip(*per_release):
        first = row[0]
        status = max((r.status for r in row), key=lambda s: _RANK.get(s, 0))
        errors: dict[tuple[Any, ...], dict[str, Any]] = {}
        for name, result in zip(names, row):
            for entry in result.errors:
                key = _error_key(entry)
                if key not in errors:
                    errors[key] = {**entry, "kubernetesVersions": []}
                errors[key]["kubernetesVersions"].append(name)
        warnings: dict[str, list[str]] = {}
        for name, result in zip(names, row):
            for w in result.warnings:
                warnings.setdefault(w, [])
                if name not in warnings[w]:
                    warnings[w].append(name)
        merged_warnings = [w if len(where) == len(names) else f"[{ranges(where)}] {w}" for w, where in warnings.items()]
        notes = [r.note for r in row if r.note]
        out.append(DocumentResult(
            first.file, first.index, first.line, first.api_version, first.kind, first.name, status,
            errors=list(errors.values()), warnings=merged_warnings, note=notes[0] if notes else None,
            versions=dict(zip(names, row)), item_statuses=_item_statuses(row),
            api_status=next((r.api_status for r in row if r.status == status), first.api_status),
        ))
    return out
