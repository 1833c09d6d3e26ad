"""Which input files a command reads: paths and stdin, ``--exclude`` globs, "no input found", Helm templates.

Wraps :mod:`crdtool.cli.inputs` (which expands paths and loads documents) with
what users of CI linters expect:

* ``--exclude GLOB`` (repeatable) drops files, like a ``.gitignore`` line: the
  glob is matched (``fnmatch``, where ``*`` also matches ``/``) against the
  path as found, against every trailing part of it and against every
  directory on it, so ``templates/``, ``templates`` and ``charts/*/templates``
  all exclude ``charts/web/templates/cm.yaml``; a leading ``/`` anchors it at
  the directory given on the command line (``/charts/web/templates/``), or, in
  the configuration file, at the file's directory;
* finding no input file at all (an empty directory, a directory without
  ``*.yaml``/``*.yml``/``*.json``) is an input error (exit 2), not a
  successful run over zero documents; files that were all excluded are not;
* a document that fails to parse because it is a Helm template (a
  ``{{ ... }}`` line, or one opening ``{{- /*``) gets a message saying so,
  pointing at that line, instead of the YAML or JSON parser's; once per file.
"""

from __future__ import annotations

import fnmatch
import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, BinaryIO

from crdtool.cli.inputs import expand_path, load_inputs
from crdtool.core.errors import go_quote
from crdtool.yaml.loader import Document, InputError, load_path

HELM_MESSAGE = "this looks like a Helm template; render it first (helm template) or exclude templates/"
_TEMPLATE_RE = re.compile(r"\{\{.*\}\}")
# a template action opening a line and closed on a later one, such as a license comment "{{- /*"
_OPEN_TEMPLATE_RE = re.compile(r"^\s*(\{\{)")


def _parts(path: str) -> list[str]:
    return [p for p in path.replace(os.sep, "/").split("/") if p not in ("", ".")]


def is_excluded(path: str, patterns: Iterable[str], root: str | None = None) -> bool:
    """Whether ``path`` matches one of the ``--exclude`` globs (see the module docstring).

    ``root`` is the directory given on the command line under which ``path`` was found (None:
    ``path`` was named itself; the current directory is its root): a pattern with a leading
    ``/`` matches only from there (``/chart/templates/``), as a ``.gitignore`` line does from its
    directory, or from the filesystem root when it is a whole absolute path (as the
    configuration file's anchored patterns become, see :func:`crdtool.cli.config.load_config`).
    """
    parts = _parts(path)
    for pattern in patterns:
        glob = pattern.strip().rstrip("/")
        if not glob:
            continue
        if glob.startswith("/"):
            if _anchored_match(path, glob.lstrip("/"), root):
                return True
            continue
        if glob.startswith("./"):
            glob = glob[2:]
        for start in range(len(parts)):
            for end in range(start + 1, len(parts) + 1):
                if fnmatch.fnmatchcase("/".join(parts[start:end]), glob):
                    return True
    return False


def _anchored_match(path: str, glob: str, root: str | None) -> bool:
    """``glob`` matched against the leading parts of ``path`` below ``root``, or of its absolute path."""
    candidates = [_parts(os.path.abspath(path))]
    relative = os.path.relpath(os.path.abspath(path), os.path.abspath(root or "."))
    if relative != os.pardir and not relative.startswith(os.pardir + os.sep):
        candidates.append(_parts(relative))
    return any(
        fnmatch.fnmatchcase("/".join(parts[:end]), glob) for parts in candidates for end in range(1, len(parts) + 1)
    )


@dataclass
class Selection:
    """How many files the paths stood for: ``found`` in all, ``excluded`` of them, ``stdin`` read or not."""

    found: int = 0
    excluded: int = 0
    stdin: bool = False
    errors: int = 0

    @property
    def nothing_found(self) -> bool:
        """No file, no stdin and no path error: a mistyped glob or an empty directory."""
        return not self.found and not self.stdin and not self.errors

    @property
    def all_excluded(self) -> bool:
        return bool(self.found) and self.excluded == self.found and not self.stdin


def select_files(paths: list[str], exclude: Iterable[str], selection: Selection) -> Iterator[str | InputError]:
    """The files (and ``-``) of ``paths`` minus the excluded ones, path errors as :class:`InputError`."""
    patterns = list(exclude)
    for arg in paths:
        if arg == "-":
            selection.stdin = True
            yield arg
            continue
        root = arg if os.path.isdir(arg) else None
        for item in expand_path(arg):
            if isinstance(item, InputError):
                selection.errors += 1
                yield item
                continue
            selection.found += 1
            if patterns and is_excluded(item, patterns, root):
                selection.excluded += 1
                continue
            yield item


def load_selected(
    paths: list[str], exclude: Iterable[str], selection: Selection, stdin: BinaryIO | None = None
) -> Iterator[Document | InputError]:
    """Every document of the selected files, in order, with Helm templates explained (see :func:`helm_hint`)."""
    for item in select_files(paths, exclude, selection):
        yield from load_selected_file(item, stdin)


def load_selected_file(item: str | InputError, stdin: BinaryIO | None = None) -> list[Document | InputError]:
    """The documents of one :func:`select_files` entry (a file, ``-``, or a path error), Helm templates explained."""
    if isinstance(item, InputError):
        return [item]
    out: list[Document | InputError] = []
    hint: HelmHinter | None = None
    for loaded in load_inputs([item], stdin=stdin) if item == "-" else load_path(item):
        if isinstance(loaded, InputError):
            hint = hint or HelmHinter()
            hinted = hint(loaded)
            if hinted is None:
                continue
            loaded = hinted
        out.append(loaded)
    return out


def no_input_message(paths: list[str]) -> str:
    """The one-line message for :attr:`Selection.nothing_found`."""
    return f"no input files found in {', '.join(paths)} (directories are searched for *.yaml, *.yml and *.json)"


class HelmHinter:
    """:func:`helm_hint` for the input errors of one file, in order: the first error of a Helm template gets
    the hint; the later ones of the same file say nothing more (None)."""

    def __init__(self) -> None:
        self.hinted = False

    def __call__(self, err: InputError) -> InputError | None:
        err = helm_hint(err)
        if err.message == HELM_MESSAGE:
            if self.hinted:  # the file is a template: its other documents' parse errors say nothing more
                return None
            self.hinted = True
        return err


def helm_hint(err: InputError, text: str | None = None) -> InputError:
    """``err`` re-worded when its document is a Helm template, else ``err`` itself.

    A parse error on a line holding ``{{ ... }}``, or beginning with ``{{`` (an
    action closed on a later line: ``{{- /*`` opens a comment), or in a file
    whose earlier lines hold one, is reported at that template line with
    :data:`HELM_MESSAGE`. ``text`` is the file's content (read from ``err.file``
    when None; stdin cannot be re-read and is left as it is).
    """
    if err.line <= 0:
        return err
    first: tuple[int, int] | None = None  # the first template line up to the error's: (line, column)
    for number, line in _numbered_lines(err.file, text, err.line):
        column = _template_column(line)
        if column is None:
            continue
        if number == err.line:
            return InputError(err.file, number, column, HELM_MESSAGE, err.index)
        if first is None:
            first = (number, column)
    if first is not None:
        return InputError(err.file, first[0], first[1], HELM_MESSAGE, err.index)
    return err


def _template_column(line: str) -> int | None:
    """The 1-based column of a template action on ``line`` (``{{ ... }}``, or ``{{`` opening it), or None."""
    match = _TEMPLATE_RE.search(line)
    if match:
        return match.start() + 1
    opened = _OPEN_TEMPLATE_RE.match(line)
    return opened.start(1) + 1 if opened else None


def _numbered_lines(file: str, text: str | None, last: int) -> Iterator[tuple[int, str]]:
    """Lines 1 to ``last`` of ``text``, or of the file read a line at a time (a stream of any size), numbered as
    ``str.splitlines`` numbers them; nothing when the file cannot be read."""
    if text is not None:
        yield from enumerate(text.splitlines()[:last], 1)
        return
    number = 0
    try:
        with open(file, encoding="utf-8", errors="replace") as fh:
            for physical in fh:
                for line in physical.splitlines():
                    number += 1
                    yield number, line
                    if number >= last:
                        return
    except OSError:
        return


def helm_value_hint(errors: Iterable[dict[str, Any]]) -> str | None:
    """A warning for a document that parsed but holds a template action in a value it fails on.

    ``errors`` are the document's error entries (``validate --output json`` shape). A quoted
    template (``name: "gadgets.{{ .Values.group }}"``) is a string to YAML, so the document loads
    and fails validation on the unrendered text; the first error whose bad value holds
    ``{{ ... }}`` gives the field in the warning. None when there is none (a ``{{`` in a
    description that validates is none of crdtool's business).
    """
    for e in errors:
        value = e.get("badValue")
        if isinstance(value, str) and _TEMPLATE_RE.search(value):
            where = f"line {e['line']}: " if e.get("line") else ""
            return f"{where}{e.get('field') or 'a value'} is {go_quote(value)}: {HELM_MESSAGE}"
    return None
