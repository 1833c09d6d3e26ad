"""Regenerate the shipped completion scripts: ``python -m crdtool.cli.write_completions completions/``.

``tests/cli/test_completion.py`` fails when ``completions/`` is stale.
"""

from __future__ import annotations

import sys
from pathlib import Path

from crdtool.cli.app import app
from crdtool.cli.completion import render_all


def main(argv: list[str]) -> int:
    """Write ``crdtool.{bash,zsh,fish}`` into the directory ``argv[0]`` (default ``completions``)."""
    target = Path(argv[0] if argv else "completions")
    target.mkdir(parents=True, exist_ok=True)
    for name, text in render_all(app).items():
        (target / name).write_text(text, encoding="utf-8")
        print(f"wrote {target / name}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
