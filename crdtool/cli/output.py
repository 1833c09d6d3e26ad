"""The ``--output`` formats, in a module of their own: the CLI's option types need them at start-up,
and :mod:`crdtool.cli.report` (which re-exports :class:`OutputFormat`) imports Rich, which start-up must
not pay for (``crdtool sort-versions`` never renders with Rich)."""

from __future__ import annotations

import enum


class OutputFormat(str, enum.Enum):
    text = "text"
    json = "json"
