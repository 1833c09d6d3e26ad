"""``crdtool docs``: an API reference for every CRD found, as HTML or Markdown pages.

Loads the ``PATHS`` (files, directories, ``-``), builds each CRD's page model
(:func:`crdtool.docs.model.crd_page`) and renders it (:mod:`crdtool.docs.render`):

* ``--out DIR``: ``DIR/index.html`` (or ``index.md``) and one page per CRD, ``DIR/<crd name>.html``
  (a second CRD of the same name, e.g. two releases of one project, gets ``<name>-2``); one line on
  stderr says how many pages were written;
* without ``--out``: the page of the one CRD on stdout (several CRDs: a usage error, use ``--out``).

``-o json`` lists what was written (``{"pages": [{"crd", "file", "line", "page"}], "index"}``).
Exit codes: 0 written, 2 usage or input errors (no CRD, an unreadable file, a document that is not
a CRD of a known apiVersion is skipped; pages of the other CRDs are still written).
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any


class _UsageError(Exception):
    """One line for stderr, exit 2."""


FORMATS = ("html", "markdown")


def run(paths: list[str], *, fmt: str, out: str | None, output: str = "text", examples: list[str] | None = None) -> int:
    """Render the pages of every CRD in ``paths`` as ``fmt`` (``html``/``markdown``) into ``out``, with the
    custom resources of ``examples`` on their version's section; return the exit status."""
    from crdtool.cli.report import console

    err = console(stderr=True)
    try:
        pages, problems, manifests = _pages(paths)
        if examples:
            pages = _with_examples(pages, manifests, examples, problems)
        for problem in problems:
            err.print(f"crdtool docs: {problem}", markup=False)
        if not pages:
            raise _UsageError(f"{', '.join(paths)}: no apiextensions.k8s.io/v1 or v1beta1 CustomResourceDefinition found")
        if out is None:
            if len(pages) != 1:
                raise _UsageError(f"{len(pages)} CRDs: write their pages into a directory with --out DIR")
            page, where = pages[0]
            text = _render_page(page, fmt)
            if output == "json":
                text = json.dumps({"pages": [_entry(page, where, None)], "index": None}, indent=2) + "\n"
            sys.stdout.write(text)
            return 2 if problems else 0
        written = _write(pages, fmt, out)
    except _UsageError as exc:
        err.print(f"crdtool docs: {exc}", markup=False)
        return 2
    if output == "json":
        sys.stdout.write(json.dumps(written, indent=2) + "\n")
    else:
        err.print(f"crdtool docs: wrote {len(pages)} page{'s' if len(pages) != 1 else ''} and {written['index']}", markup=False)
    return 2 if problems else 0


def _pages(paths: list[str]) -> tuple[list[tuple[Any, tuple[str, int]]], list[str], list[dict[str, Any]]]:
    """``([(CrdPage, (file, line))], problems, manifests)`` in input order (the manifest of each page at the
    same index), slugs made unique."""
    from crdtool.cli.inputs import load_inputs
    from crdtool.core.crd.manifest import is_crd
    from crdtool.docs.model import crd_page
    from crdtool.yaml.loader import InputError

    out: list[tuple[Any, tuple[str, int]]] = []
    problems: list[str] = []
    manifests: list[dict[str, Any]] = []
    seen: dict[str, int] = {}
    for item in load_inputs(paths, stdin=sys.stdin.buffer):
        if isinstance(item, InputError):
            problems.append(str(item))
            continue
        if not is_crd(item.data):
            continue
        try:
            page = crd_page(item.data, source=item.file)
        except (ValueError, TypeError) as exc:
            problems.append(f"{item.file}:{item.line}: cannot describe this CRD: {exc}")
            continue
        count = seen.get(page.name, 0) + 1
        seen[page.name] = count
        if count > 1:
            from dataclasses import replace

            page = replace(page, slug=f"{page.slug}-{count}")
        manifests.append(item.data)
        out.append((page, (item.file, item.line)))
    return out, problems, manifests


def _with_examples(
    pages: list[tuple[Any, tuple[str, int]]], manifests: list[dict[str, Any]], paths: list[str], problems: list[str]
) -> list[tuple[Any, tuple[str, int]]]:
    """The pages with each example object on its CRD's page, under its version (validated, defaults applied)."""
    from dataclasses import replace

    from crdtool.cli.inputs import load_inputs
    from crdtool.docs.model import example_doc
    from crdtool.yaml.loader import InputError

    by_group_kind: dict[tuple[str, str], int] = {}
    for i, (page, _) in enumerate(pages):
        by_group_kind.setdefault((page.group, page.kind), i)
    found: dict[tuple[int, str], list[Any]] = {}
    for item in load_inputs(paths, stdin=sys.stdin.buffer):
        if isinstance(item, InputError):
            problems.append(str(item))
            continue
        obj = item.data
        if not isinstance(obj, dict):
            continue
        group = str(obj.get("apiVersion", "")).rpartition("/")[0]
        index = by_group_kind.get((group, str(obj.get("kind", ""))))
        if index is None:
            problems.append(f"{item.file}:{item.line}: --examples: no CRD among the inputs defines {obj.get('apiVersion')} {obj.get('kind')}")
            continue
        try:
            version, example = example_doc(manifests[index], obj, f"{item.file}:{item.line}")
        except ValueError as exc:
            problems.append(f"{item.file}:{item.line}: --examples: {exc}")
            continue
        found.setdefault((index, version), []).append(example)
    out = []
    for i, (page, where) in enumerate(pages):
        versions = tuple(replace(v, examples=tuple(found.get((i, v.name), ()))) for v in page.versions)
        out.append((replace(page, versions=versions), where))
    return out


def _render_page(page: Any, fmt: str) -> str:
    from crdtool.docs.render import render_html_page, render_markdown_page

    return render_html_page(page) if fmt == "html" else render_markdown_page(page)


def _entry(page: Any, where: tuple[str, int], path: str | None) -> dict[str, Any]:
    return {"crd": page.name, "file": where[0], "line": where[1], "page": path}


def _write(pages: list[tuple[Any, tuple[str, int]]], fmt: str, out: str) -> dict[str, Any]:
    from crdtool.docs.render import render_html_index, render_markdown_index

    suffix = ".html" if fmt == "html" else ".md"
    try:
        os.makedirs(out, exist_ok=True)
    except OSError as exc:
        raise _UsageError(f"{out}: cannot create the directory: {exc.strerror or exc}") from None
    entries = []
    for page, where in pages:
        path = os.path.join(out, page.slug + suffix)
        _write_file(path, _render_page(page, fmt))
        entries.append(_entry(page, where, path))
    only = [p for p, _ in pages]
    index = os.path.join(out, "index" + suffix)
    _write_file(index, render_html_index(only) if fmt == "html" else render_markdown_index(only))
    return {"pages": entries, "index": index}


def _write_file(path: str, text: str) -> None:
    try:
        with open(path, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
    except OSError as exc:
        raise _UsageError(f"{path}: cannot write: {exc.strerror or exc}") from None
