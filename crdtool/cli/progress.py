"""A progress bar on stderr for long runs, only where a person watches.

Shown when stderr is a terminal, the run has lasted more than
:data:`DEFAULT_DELAY` seconds (``CRDTOOL_PROGRESS_DELAY`` overrides it, e.g.
``0`` in tests) and neither ``CI`` nor ``GITHUB_ACTIONS`` nor ``NO_COLOR`` is
set (nor ``TERM=dumb``): never on a pipe, in a log file or in CI. The bar is
transient (erased when done), so what is left on the terminal is the report.
"""

from __future__ import annotations

import os
import sys
import time
from typing import Any

DEFAULT_DELAY = 2.0
DELAY_ENV = "CRDTOOL_PROGRESS_DELAY"


def wanted() -> bool:
    """Whether a progress bar may be shown at all (see the module docstring)."""
    if os.environ.get("CI") or os.environ.get("GITHUB_ACTIONS") or os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("TERM") == "dumb":
        return False
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False


def _delay() -> float:
    try:
        return max(0.0, float(os.environ.get(DELAY_ENV, DEFAULT_DELAY)))
    except ValueError:
        return DEFAULT_DELAY


class DelayedProgress:
    """A Rich progress bar that appears only once the run has taken longer than the delay.

    ``set_total(n)`` then ``advance()`` per item done; ``stop()`` at the end
    (also safe when the bar never appeared). ``description`` labels the bar.
    """

    def __init__(self, description: str, enabled: bool | None = None, delay: float | None = None) -> None:
        self.description = description
        self.enabled = wanted() if enabled is None else enabled
        self.delay = _delay() if delay is None else delay
        self.started = time.monotonic()
        self.total: int | None = None
        self.done = 0
        self._progress: Any = None
        self._task: Any = None

    def set_total(self, total: int) -> None:
        self.total = total
        if self._progress is not None:
            self._progress.update(self._task, total=total)

    def advance(self, n: int = 1) -> None:
        self.done += n
        if not self.enabled:
            return
        if self._progress is None:
            if time.monotonic() - self.started < self.delay:
                return
            self._start()
        self._progress.update(self._task, completed=self.done)

    def _start(self) -> None:
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        from crdtool.cli.report import console

        self._progress = Progress(
            TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
            console=console(stderr=True), transient=True,
        )
        self._task = self._progress.add_task(self.description, total=self.total, completed=self.done)
        self._progress.start()

    def stop(self) -> None:
        if self._progress is not None:
            self._progress.stop()
            self._progress = None
