"""Atomic file replacement for ``--in-place``: the original is never truncated or lost.

The new content goes to a temporary file in the same directory (same file
system), is flushed and fsync'ed, takes the original's permission bits, and
then replaces the original with one ``os.replace`` (an atomic rename on POSIX).
A process killed at any point leaves either the old file or the new one, and
at worst a stray ``.crdtool-*.tmp`` file beside it, never a half-written file.
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path


def atomic_write_text(path: str | os.PathLike[str], text: str, encoding: str = "utf-8") -> None:
    """Replace ``path``'s content with ``text`` atomically.

    Raises OSError (the original file is then untouched and the temporary
    file removed) when the directory is not writable, the disk is full, ...
    """
    target = Path(path)
    data = text.encode(encoding)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.crdtool-", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as tmp:
            tmp.write(data)
            tmp.flush()
            os.fsync(tmp.fileno())
        try:
            mode = stat.S_IMODE(os.stat(target).st_mode)
            os.chmod(tmp_name, mode)
        except FileNotFoundError:
            pass
        os.replace(tmp_name, target)
    except BaseException:
        try:
            os.unlink(tmp_name)
        except FileNotFoundError:
            pass
        raise
    _fsync_dir(target.parent)


def _fsync_dir(directory: Path) -> None:
    """Make the rename itself durable (best effort; not every platform allows it)."""
    try:
        dir_fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dir_fd)
    except OSError:
        pass
    finally:
        os.close(dir_fd)
