"""``crdtool default``: print custom resources as the apiserver decodes them.

Every custom resource is matched to its CRD by group and kind among *all*
the CRD documents of the ``--crd`` files (repeatable), then goes through the
apiserver's request decoding exactly as
``crdtool.core.customresource.decode_object`` does (pruning, non-nullable
nulls, ObjectMeta, defaulting; nothing of the create strategy, so ``status``
is kept). Documents that are not
custom resources of a given CRD (a ConfigMap in an examples file, the CRDs
themselves) pass through unchanged, or are left out with
``--only-custom-resources``; one whose group is a given CRD's but whose kind
none of them defines gets a note on stderr (a typo in ``kind`` would
otherwise pass silently). The result is printed as YAML documents (``---``
separated) or, with ``--output json``, as one JSON list; ``--in-place``
rewrites each object file atomically instead, keeping the comments and
layout of what did not change.

A document that cannot be defaulted (malformed input, a version the CRD does
not define or serve, the wrong version for ``--version``) is a one-line
``file:line: message`` on stderr naming the CRD; every other document is
still printed (``--in-place`` leaves that file alone) and the exit status is 2.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import yaml

from crdtool.cli.inputs import STDIN_NAME, load_inputs
from crdtool.yaml.loader import Document, InputError
from crdtool.core.crd.manifest import is_crd
from crdtool.core.gojson import go_json_dumps, go_json_float
from crdtool.core.customresource import (
    CustomResourceError,
    PreparedCrd,
    decode_object,
    prepare_crd,
)


class _UsageError(Exception):
    """A user error: printed as one line, exit 2."""


@dataclass
class _Output:
    """One input document and what becomes of it."""

    doc: Document
    result: dict[str, Any]
    pruned: list[str] = field(default_factory=list)  # paths within the document
    defaulted: bool = True  # False: passed through unchanged (not a custom resource of a given CRD)
    builtin: bool = False  # a built-in kind's object, decoded and defaulted as its release's apiserver does


def run(
    objects: list[str],
    crd: str | list[str],
    *,
    version: str | None,
    output: str,
    no_prune: bool,
    show_pruned: bool,
    in_place: bool,
    only_custom_resources: bool = False,
    kubernetes_version: str | None = None,
    jobs: int | None = None,
) -> int:
    """Default every custom resource of ``objects`` with its CRD among those of ``crd``, as the apiserver of
    ``kubernetes_version`` (None: the default release) decodes them.

    Returns 0 on success, 2 when a CRD cannot be loaded (nothing is printed)
    or some document cannot be defaulted (the others are still printed).
    ``jobs``: worker processes defaulting the documents (None: one per core,
    1: none); the output does not depend on it.
    """
    crd_paths = [crd] if isinstance(crd, str) else list(crd)
    from crdtool.cli.selection import Selection, no_input_message, select_files

    selection = Selection()
    for _ in select_files(objects, (), selection):
        pass
    if selection.nothing_found:
        print(f"crdtool default: {no_input_message(objects)}", file=sys.stderr)
        return 2
    try:
        crds = _load_crds(crd_paths, kubernetes_version) if crd_paths else []
    except _UsageError as exc:
        print(f"crdtool default: {exc}", file=sys.stderr)
        return 2
    outputs, errors, notes = _process(objects, crds, version=version, prune=not no_prune, jobs=jobs,
                                      kubernetes_version=kubernetes_version)
    for message in notes:
        print(message, file=sys.stderr)
    for _, message in errors:
        print(message, file=sys.stderr)
    if crds and outputs and not any(o.defaulted and not o.builtin for o in outputs) and not errors:
        print(f"crdtool default: no custom resource of {_crd_names(crds)} among the inputs; "
              "every document is passed through unchanged", file=sys.stderr)
    if show_pruned:
        _print_pruned(outputs)
    status = 2 if errors else 0
    if in_place:
        failed_files = {file for file, _ in errors}
        return max(status, _write_in_place([o for o in outputs if o.doc.file not in failed_files]))
    shown = [o for o in outputs if (o.defaulted and not o.builtin) or not only_custom_resources]
    if output == "json":
        text = go_json_dumps([o.result for o in shown], indent=2) + "\n"
    else:
        text = _yaml_stream([o.result for o in shown])
    from crdtool.cli.reporters import write_text

    write_text(sys.stdout, text)
    return status


# --- loading ------------------------------------------------------------------------


def _crd_names(crds: Sequence[tuple[Document, PreparedCrd]]) -> str:
    return ", ".join(f"{p.name} ({d.file}:{d.line})" for d, p in crds)


def _load_crds(paths: list[str], kubernetes_version: str | None = None) -> list[tuple[Document, PreparedCrd]]:
    """Every CRD document of ``paths``, prepared; a usage error when there is none or one is broken."""
    crds: list[tuple[Document, PreparedCrd]] = []
    for item in load_inputs(paths, stdin=sys.stdin.buffer):
        if isinstance(item, InputError):
            raise _UsageError(str(item))
        if not is_crd(item.data):
            continue
        try:
            crds.append((item, prepare_crd(item.data, kubernetes_version)))
        except CustomResourceError as exc:
            raise _UsageError(f"{item.file}:{item.line}: {exc}") from None
    if not crds:
        raise _UsageError(f"{', '.join(paths)}: no apiextensions.k8s.io/v1 or v1beta1 CustomResourceDefinition found")
    return crds


def _group_kind(obj: dict[str, Any]) -> tuple[str | None, Any]:
    api_version = obj.get("apiVersion")
    group = api_version.rpartition("/")[0] if isinstance(api_version, str) else None
    return group, obj.get("kind")


def _pick_crd(obj: dict[str, Any], crds: Sequence[tuple[Document, PreparedCrd]]) -> PreparedCrd | None:
    """The first CRD (in ``--crd`` order) defining the object's group and kind, or None."""
    group, kind = _group_kind(obj)
    for _, prepared in crds:
        if prepared.group == group and prepared.kind == kind:
            return prepared
    return None


#: With at least this many documents, they are defaulted by worker processes (``--jobs``).
PARALLEL_MIN_DOCUMENTS = 64


def _process(
    paths: list[str],
    crds: Sequence[tuple[Document, PreparedCrd]],
    *,
    version: str | None,
    prune: bool,
    jobs: int | None = None,
    kubernetes_version: str | None = None,
) -> tuple[list[_Output], list[tuple[str, str]], list[str]]:
    """``(outputs, errors, notes)``: every document's result; ``(file, one-line message)`` errors; notes.

    Many documents are defaulted by ``jobs`` forked workers (which inherit the
    loaded documents and the prepared CRDs), in ranges, the results in order.
    """
    from crdtool.cli.jobs import index_ranges, ordered_map, resolve_jobs
    from crdtool.cli.selection import helm_hint

    outputs: list[_Output] = []
    errors: list[tuple[str, str]] = []
    notes: list[str] = []
    stdin = sys.stdin.buffer if "-" in paths else None
    items = list(load_inputs(paths, stdin=stdin))
    documents = [item for item in items if isinstance(item, Document)]
    workers = resolve_jobs(jobs) if len(documents) >= PARALLEL_MIN_DOCUMENTS else 1

    def default_range(numbers: range) -> list[tuple[Any, list[str], bool] | str]:
        out: list[tuple[Any, list[str], bool] | str] = []
        for i in numbers:
            try:
                done = _process_document(documents[i], crds, version=version, prune=prune,
                                         kubernetes_version=kubernetes_version)
            except CustomResourceError as exc:
                out.append(str(exc))
                continue
            out.append((done.result, done.pruned, done.defaulted, done.builtin))
        return out

    results = (r for part in ordered_map(default_range, index_ranges(len(documents), workers, per_worker=8), workers)
               for r in part)
    for item in items:
        if isinstance(item, InputError):
            errors.append((item.file, str(helm_hint(item) if item.file != STDIN_NAME else item)))
            continue
        got = next(results)
        if isinstance(got, str):
            errors.append((item.file, got))
            continue
        result, pruned, defaulted, builtin = got
        out = _Output(item, item.data if not defaulted and result == item.data else result, pruned, defaulted, builtin)
        outputs.append(out)
        if not out.defaulted:
            note = _passthrough_note(item, item.data, "", crds)
            if note:
                notes.append(note)
    for _ in results:  # nothing is left: this ends the workers
        pass
    return outputs, errors, notes


def _passthrough_note(doc: Document, obj: dict[str, Any], prefix: str, crds: Sequence[tuple[Document, PreparedCrd]]) -> str | None:
    """A note for an object in a given CRD's group whose kind no given CRD defines (a likely typo)."""
    group, kind = _group_kind(obj)
    same_group = [p for _, p in crds if p.group == group]
    if not same_group or not isinstance(kind, str):
        return None
    kinds = ", ".join(sorted({p.kind for p in same_group}))
    return (f"{doc.file}:{_line(doc, prefix)}: note: {kind} in group \"{group}\" is not defined by any CRD given "
            f"({_crd_names(crds)}; kinds of that group: {kinds}); passed through unchanged")


def _is_list(data: dict[str, Any]) -> bool:
    return data.get("kind") == "List" and data.get("apiVersion") == "v1" and isinstance(data.get("items"), list)


def _process_document(
    doc: Document, crds: Sequence[tuple[Document, PreparedCrd]], *, version: str | None, prune: bool,
    kubernetes_version: str | None = None,
) -> _Output:
    """Default one document (a custom resource or a built-in kind's object, or a ``v1`` ``List`` of them);
    others pass through."""
    if not _is_list(doc.data):
        prepared = _pick_crd(doc.data, crds)
        if prepared is None:
            stored = _default_builtin(doc, doc.data, "", kubernetes_version)
            if stored is not None:
                return _Output(doc, stored, builtin=True)
            return _Output(doc, doc.data, defaulted=False)
        stored, pruned = _default_one(doc, doc.data, "", prepared, version=version, prune=prune)
        return _Output(doc, stored, pruned)
    items = []
    pruned_all: list[str] = []
    defaulted = False
    for i, item in enumerate(doc.data["items"]):
        prefix = f"items[{i}]"
        prepared = _pick_crd(item, crds) if isinstance(item, dict) else None
        if prepared is None:
            items.append(item)
            continue
        stored, pruned = _default_one(doc, item, prefix, prepared, version=version, prune=prune)
        items.append(stored)
        defaulted = True
        pruned_all.extend(f"{prefix}.{p}" for p in pruned)
    result = dict(doc.data)
    result["items"] = items
    return _Output(doc, result, pruned_all, defaulted=defaulted)


def _default_builtin(doc: Document, obj: dict[str, Any], prefix: str, kubernetes_version: str | None) -> dict[str, Any] | None:
    """A built-in kind's object decoded and defaulted (:func:`crdtool.core.registry.create.default_builtin`)."""
    from crdtool.core.registry.create import default_builtin

    stored, problem = default_builtin(obj, kubernetes_version)
    if problem:
        raise CustomResourceError(f"{doc.file}:{_line(doc, prefix)}: {problem}", "decode")
    return stored


def _default_one(
    doc: Document,
    obj: dict[str, Any],
    prefix: str,
    prepared: PreparedCrd,
    *,
    version: str | None,
    prune: bool,
) -> tuple[dict[str, Any], list[str]]:
    try:
        result = decode_object(obj, prepared, version, prune=prune)
    except CustomResourceError as exc:
        raise CustomResourceError(f"{doc.file}:{_line(doc, prefix)}: {exc}", exc.reason) from None
    return result.stored, list(result.pruned)


def _line(doc: Document, path: str) -> int:
    pos = doc.position(path) if path else None
    return pos[0] if pos else doc.line


# --- output ---------------------------------------------------------------------------


def _print_pruned(outputs: list[_Output]) -> None:
    for out in outputs:
        for path in out.pruned:
            pos = out.doc.position(path)
            where = f"{out.doc.file}:{pos[0]}:{pos[1]}" if pos else f"{out.doc.file}:{out.doc.line}"
            print(f"{where}: pruned {path}", file=sys.stderr)


def _yaml_stream(objects: list[dict[str, Any]]) -> str:
    return "---\n".join(_yaml_dump(o) for o in objects)


class _GoFloatDumper(getattr(yaml, "CSafeDumper", yaml.SafeDumper)):  # type: ignore[misc]
    """A safe dumper that writes floats as Go's encoding/json writes them (``1e+20`` as ``100000000000000000000``)."""


def _represent_float(dumper: Any, value: float) -> Any:
    if value != value:
        text = ".nan"
    elif value in (float("inf"), float("-inf")):
        text = ".inf" if value > 0 else "-.inf"
    else:
        text = go_json_float(value)
    # tagged as the plain text resolves, so it is written plain (no "!!float")
    return yaml.ScalarNode(dumper.resolve(yaml.ScalarNode, text, (True, False)), text)


_GoFloatDumper.add_representer(float, _represent_float)


def _yaml_dump(obj: Any) -> str:
    return yaml.dump(obj, Dumper=_GoFloatDumper, sort_keys=False, allow_unicode=True, default_flow_style=False, width=1 << 20)


def _write_in_place(outputs: list[_Output]) -> int:
    """Rewrite each file with its documents defaulted; files whose content does not change are not touched."""
    from crdtool.cli.atomic import atomic_write_text

    by_file: dict[str, list[_Output]] = {}
    for out in outputs:
        by_file.setdefault(out.doc.file, []).append(out)
    status = 0
    for file, outs in by_file.items():
        if file == STDIN_NAME:
            print("crdtool default: --in-place cannot rewrite stdin", file=sys.stderr)
            status = 2
            continue
        try:
            with open(file, encoding="utf-8") as fh:
                original = fh.read()
            text = _rewritten(file, original, outs)
            if text != original:
                atomic_write_text(file, text)
        except (OSError, UnicodeDecodeError) as exc:
            print(f"crdtool default: {file}: {exc}", file=sys.stderr)
            status = 2
    return status


def _rewritten(file: str, original: str, outs: list[_Output]) -> str:
    """The new content of ``file``: JSON for a JSON file, else the YAML documents edited in place."""
    if original.lstrip().startswith(("{", "[")) and file.endswith(".json"):
        if len(outs) == 1:
            return go_json_dumps(outs[0].result, indent=2) + "\n"
        return "\n".join(go_json_dumps(o.result, indent=2) for o in outs) + "\n"
    try:
        from crdtool.yaml.edit import split_documents

        spans = split_documents(original)
    except Exception:  # noqa: BLE001 - any failure of the comment-keeping path falls back to a plain dump
        return _yaml_stream([o.result for o in outs])
    parts = []
    for i, span in enumerate(spans):
        end_line = spans[i + 1].line if i + 1 < len(spans) else None
        owned = [o for o in outs if o.doc.line >= span.line and (end_line is None or o.doc.line < end_line)]
        doc_text = original[span.start : span.end]
        if not owned:
            parts.append(doc_text)
        elif len(owned) > 1:
            return _yaml_stream([o.result for o in outs])
        else:
            parts.append(_rewrite(doc_text, owned[0]))
    return "".join(parts)


def _rewrite(doc_text: str, out: _Output) -> str:
    """One document's text holding ``out.result``, comments and layout kept where possible."""
    if out.result == out.doc.data:
        return doc_text
    try:
        from crdtool.yaml.edit import rewrite_document

        rewritten = rewrite_document(doc_text, out.doc.data, out.result)
        return rewritten.text
    except Exception:  # noqa: BLE001 - fall back to a plain dump of this document
        prefix = "---\n" if doc_text.startswith("---") else ""
        return prefix + _yaml_dump(out.result)
