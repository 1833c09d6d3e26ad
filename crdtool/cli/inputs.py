"""Command-line inputs: path arguments and stdin (``-``), in command-line order.

Paths expand as kubectl's ``-R`` expands them (:func:`crdtool.yaml.loader.expand_path`); each file is
read with :func:`crdtool.yaml.loader.load_path` and stdin with :func:`crdtool.yaml.loader.load_stream`,
which turn them into documents as kubectl reads them.
"""

from __future__ import annotations

import sys
from typing import BinaryIO, Iterator

from crdtool.yaml.loader import DIRECTORY_EXTENSIONS, Document, InputError, expand_path, load_path, load_stream

__all__ = ["DIRECTORY_EXTENSIONS", "STDIN_NAME", "expand_path", "load_inputs"]


#: The ``file`` of documents read from stdin (``-``).
STDIN_NAME = "<stdin>"


def load_inputs(paths: list[str], stdin: BinaryIO | None = None) -> Iterator[Document | InputError]:
    """Load every document of every input, in order.

    Args:
        paths: files, directories (walked recursively in lexical order, like
            kubectl's ``-R``; only ``*.yaml``, ``*.yml``, ``*.json``; symlinked
            directories are not followed) and ``-`` for stdin.
        stdin: the byte stream read for ``-`` (default ``sys.stdin.buffer``).

    Yields:
        :class:`Document` or :class:`InputError`, by path argument, then file
        order, then document order. Never raises for bad input.

    Mirrors kubectl's resource builder (``k8s.io/cli-runtime/pkg/resource``,
    ``ExpandPathsToFileVisitors`` + ``StreamVisitor``).
    """
    for arg in paths:
        if arg == "-":
            yield from load_stream(stdin if stdin is not None else sys.stdin.buffer, STDIN_NAME)
            continue
        yield from load_path(arg)
