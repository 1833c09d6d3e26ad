"""Atomic file replacement for ``--in-place``: the original is never truncated or lost.

The new content goes to a temporary file in the same directory (same file
system), is flushed and fsync'ed, takes the original's permission bits (a new file: 0666 less the umask, as
``open`` creates one), and
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
        except FileNotFoundError:
            mode = 0o666 & ~_umask()  # a new file: the mode open() would give it, not mkstemp's 0600
        os.chmod(tmp_name, mode)
        os.replace(tmp_name, target)
    except BaseException:
        try:
            os.unlink(tmp_name)
        except FileNotFoundError:
            pass
        raise
    _fsync_dir(target.parent)


def _umask() -> int:
    """The process's umask (read by setting it and setting it back: POSIX has no other way)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


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
