"""Replacing a file's bytes so that a reader sees the old file or the new one, never a mix, and a file the agent
is appending to right now is never overwritten.

The new bytes go to a temporary file in the same folder (a rename is atomic only within one file system), with the
old file's permission bits, are flushed to the disk (fsync), and replace the file by `os.replace`. Just before the
rename the file is looked at again: if its size, modification time, inode or bytes differ from what was read, an
agent (or a person) wrote to it meanwhile, and the file is left as it is. A write after that last look and before
the rename, a window of microseconds, cannot be seen from here.
"""

from __future__ import annotations

import os
import stat
import tempfile

from .files import open_regular


class Changed(Exception):
    """The file is not what was read any more: something wrote to it while it was being fixed."""


def read(path: str) -> tuple[bytes, os.stat_result]:
    """The bytes of the regular file at `path` and its status when read (what `replace` compares against)."""
    descriptor = open_regular(path)
    try:
        status = os.fstat(descriptor)
        chunks: list[bytes] = []
        while chunk := os.read(descriptor, 1 << 20):
            chunks.append(chunk)
        return b"".join(chunks), status
    finally:
        os.close(descriptor)


def _same(status: os.stat_result, now: os.stat_result) -> bool:
    return (status.st_ino, status.st_dev, status.st_size, status.st_mtime_ns) == (
        now.st_ino, now.st_dev, now.st_size, now.st_mtime_ns)


def replace(path: str, data: bytes, original: bytes, status: os.stat_result) -> None:
    """Write `data` in place of the file at `path`, which held `original` with `status` when read; raises `Changed`
    (and writes nothing) when it no longer does."""
    folder = os.path.dirname(path) or "."
    descriptor, temporary = tempfile.mkstemp(prefix=f".{os.path.basename(path)}.", suffix=".fixing", dir=folder)
    try:
        with os.fdopen(descriptor, "wb") as out:
            out.write(data)
            out.flush()
            os.fchmod(out.fileno(), stat.S_IMODE(status.st_mode))
            os.fsync(out.fileno())
        now, current = read(path)[::-1]
        if not _same(status, now) or current != original:
            raise Changed(path)
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise
    _sync_folder(folder)


def _sync_folder(folder: str) -> None:
    """The rename itself reaches the disk only when the folder is flushed (not possible on every system)."""
    try:
        descriptor = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass
    finally:
        os.close(descriptor)
