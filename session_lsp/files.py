"""Reading a session file from a path a user or an editor names: the CLI's `check` and the server's
`sessionLsp/analyzeFile` share it, so both refuse the same things the same way."""

from __future__ import annotations

import os
import stat


class NotReadable(Exception):
    """A path that is not read: not a regular file, or larger than the caller allows."""


def read_regular(path: str, max_bytes: int | None = None) -> bytes:
    """The bytes of the regular file at `path`. A FIFO would block the reader forever, /dev/zero would never end,
    and a directory has nothing to analyse: the path is opened without blocking and checked with fstat before any
    read. With `max_bytes`, a larger file is refused, and the read stops one byte past the limit, so a file that
    grows meanwhile cannot take more."""
    descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        status = os.fstat(descriptor)
        if not stat.S_ISREG(status.st_mode):
            raise NotReadable("not a regular file")
        if max_bytes is not None and status.st_size > max_bytes:
            raise NotReadable(f"{status.st_size} bytes, over the limit of {max_bytes}")
    except BaseException:
        os.close(descriptor)
        raise
    with open(descriptor, "rb") as handle:
        data = handle.read() if max_bytes is None else handle.read(max_bytes + 1)
    if max_bytes is not None and len(data) > max_bytes:
        raise NotReadable(f"grew past the limit of {max_bytes} bytes while being read")
    return data
