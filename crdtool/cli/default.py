"""``crdtool default``: print custom resources as the apiserver decodes them.

Every object goes through the apiserver's request decoding exactly as
``crdtool.core.customresource.decode_object`` does (pruning, non-nullable
nulls, ObjectMeta, defaulting; nothing of the create strategy, so ``status``
is kept); the result is printed as
YAML documents (``---`` separated) or, with ``--output json``, as one JSON list.
``--in-place`` rewrites each object file atomically instead, keeping the
comments and layout of what did not change.

Nothing is printed or written unless every object can be processed: a
malformed input, an object of another kind or group, or a version the CRD
does not define or serve is a one-line ``file:line: message`` on stderr and
exit 2.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import yaml

from crdtool.cli.inputs import STDIN_NAME, Document, InputError, load_inputs
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


def run(
    objects: list[str],
    crd: str,
    *,
    version: str | None,
    output: str,
    no_prune: bool,
    show_pruned: bool,
    in_place: bool,
) -> int:
    """Default every object of ``objects`` with the CRD(s) in ``crd``; 0 on success, 2 on any error."""
    try:
        crds = _load_crds(crd)
        outputs, errors = _process(objects, crds, version=version, prune=not no_prune)
    except _UsageError as exc:
        print(f"crdtool default: {exc}", file=sys.stderr)
        return 2
    if errors:
        for message in errors:
            print(message, file=sys.stderr)
        return 2
    if show_pruned:
        _print_pruned(outputs)
    if in_place:
        return _write_in_place(outputs)
    if output == "json":
        sys.stdout.write(go_json_dumps([o.result for o in outputs], indent=2) + "\n")
    else:
        sys.stdout.write(_yaml_stream([o.result for o in outputs]))
    return 0


# --- loading ------------------------------------------------------------------------


def _load_crds(path: str) -> list[tuple[Document, PreparedCrd]]:
    """Every CRD document of ``path``, prepared; a usage error when there is none or one is broken."""
    crds: list[tuple[Document, PreparedCrd]] = []
    for item in load_inputs([path], stdin=sys.stdin.buffer):
        if isinstance(item, InputError):
            raise _UsageError(str(item))
        if not is_crd(item.data):
            continue
        try:
            crds.append((item, prepare_crd(item.data)))
        except CustomResourceError as exc:
            raise _UsageError(f"{item.file}:{item.line}: {exc}") from None
    if not crds:
        raise _UsageError(f"{path}: no apiextensions.k8s.io/v1 or v1beta1 CustomResourceDefinition found")
    return crds


def _pick_crd(obj: dict[str, Any], crds: Sequence[tuple[Document, PreparedCrd]]) -> PreparedCrd:
    """The CRD whose group and kind the object has; the first CRD when none matches (it then explains)."""
    api_version = obj.get("apiVersion")
    group = api_version.rpartition("/")[0] if isinstance(api_version, str) else None
    for _, prepared in crds:
        if prepared.group == group and prepared.kind == obj.get("kind"):
            return prepared
    return crds[0][1]


def _process(
    paths: list[str], crds: Sequence[tuple[Document, PreparedCrd]], *, version: str | None, prune: bool
) -> tuple[list[_Output], list[str]]:
    outputs: list[_Output] = []
    errors: list[str] = []
    stdin = sys.stdin.buffer if "-" in paths else None
    for item in load_inputs(paths, stdin=stdin):
        if isinstance(item, InputError):
            errors.append(str(item))
            continue
        try:
            outputs.append(_process_document(item, crds, version=version, prune=prune))
        except CustomResourceError as exc:
            errors.append(str(exc))
    return outputs, errors


def _is_list(data: dict[str, Any]) -> bool:
    return data.get("kind") == "List" and data.get("apiVersion") == "v1" and isinstance(data.get("items"), list)


def _process_document(
    doc: Document, crds: Sequence[tuple[Document, PreparedCrd]], *, version: str | None, prune: bool
) -> _Output:
    """Default one document (a custom resource, or a ``v1`` ``List`` of them)."""
    if not _is_list(doc.data):
        stored, pruned = _default_one(doc, doc.data, "", crds, version=version, prune=prune)
        return _Output(doc, stored, pruned)
    items = []
    pruned_all: list[str] = []
    for i, item in enumerate(doc.data["items"]):
        prefix = f"items[{i}]"
        if not isinstance(item, dict):
            line = _line(doc, prefix)
            raise CustomResourceError(f"{doc.file}:{line}: {prefix} is not an object", "not-an-object")
        stored, pruned = _default_one(doc, item, prefix, crds, version=version, prune=prune)
        items.append(stored)
        pruned_all.extend(f"{prefix}.{p}" for p in pruned)
    result = dict(doc.data)
    result["items"] = items
    return _Output(doc, result, pruned_all)


def _default_one(
    doc: Document,
    obj: dict[str, Any],
    prefix: str,
    crds: Sequence[tuple[Document, PreparedCrd]],
    *,
    version: str | None,
    prune: bool,
) -> tuple[dict[str, Any], list[str]]:
    try:
        result = decode_object(obj, _pick_crd(obj, crds), version, prune=prune)
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
        from crdtool.cli.yamledit import split_documents

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
        from crdtool.cli.yamledit import rewrite_document

        rewritten = rewrite_document(doc_text, out.doc.data, out.result)
        return rewritten.text
    except Exception:  # noqa: BLE001 - fall back to a plain dump of this document
        prefix = "---\n" if doc_text.startswith("---") else ""
        return prefix + _yaml_dump(out.result)
