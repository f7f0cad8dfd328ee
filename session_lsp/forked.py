"""Work run in a forked copy of this process, its value pickled back through a pipe: on two cores, the line pass of
a large file's second half runs there while this process reads the first half (`check` of one file, through
`FileLines.split`; the server's open of a large document, through `Document(elsewhere=...)`).

The copy runs only `work` and ends with `os._exit`, whatever happens: none of the program it was forked from runs
there (no `finally` of a caller, no buffered output flushed twice, no thread of the server), so forking a server
with threads of its own is safe as long as `work` is pure (the core's line pass is)."""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Callable
from contextlib import suppress
from typing import Generic, NoReturn, TypeVar

T = TypeVar("T")

SPLIT_SIZES = range(4 << 20, (256 << 20) + 1)
"""The sizes of a file whose line pass is split across two processes (bytes of a file `check` reads alone with two
jobs, characters of a document the server opens). Below 4 MiB, the second process's start and the results' way back
cost about what it saves. Above 256 MiB, memory is what bounds a check (0.3x the file at the peak): the second
process's memory comes on top of this one's, and the results sent back add to this one's peak (a 1 GB file split:
292 MiB here, plus 113 MiB in the other process)."""

_STOPPING = {signal.SIGINT, signal.SIGTERM}
"""What a user's interrupt sends: blocked while the fork happens."""

_FORKING = threading.Lock()
"""Held from a pipe's making until this process has closed its end for writing: a process another thread forked in
between would hold that end open too, and the value would wait for that process's end (the server opens two large
documents at once)."""


def _stop_process(child: int) -> None:
    """Kill and reap a forked process (it may have ended already)."""
    with suppress(ProcessLookupError):
        os.kill(child, signal.SIGKILL)
    with suppress(ChildProcessError):
        os.waitpid(child, 0)


class Forked(Generic[T]):
    """A forked process running some work, until its value is taken (`result`) or it is stopped (`stop`)."""

    def __init__(self, child: int, reader: int) -> None:
        self._child: int | None = child
        self._reader = reader

    def result(self) -> T | None:
        """Wait for the process and take its value; None when it failed (its value raised, or did not pickle) or
        was stopped. An interrupt while waiting stops it too, and goes on."""
        import pickle

        child, self._child = self._child, None
        if child is None:
            return None
        try:
            with open(self._reader, "rb") as pipe:
                data = pipe.read()
            _, status = os.waitpid(child, 0)
        except BaseException:
            _stop_process(child)
            raise
        return pickle.loads(data) if status == 0 and data else None

    def stop(self) -> None:
        """Kill and reap the process and close its pipe, unless its value was taken."""
        child, self._child = self._child, None
        if child is not None:
            os.close(self._reader)
            _stop_process(child)

    __del__ = stop
    """Whoever started the work may never ask for its value (an error in between): the process is not left
    running, nor unreaped."""


def fork(work: Callable[[], T]) -> Forked[T] | None:
    """`work()` in a forked process. None on a platform without `fork`, or when the pipe or the fork cannot be made
    (too many open files, too many processes, too little memory): the caller does the work itself.

    The forked process must import nothing: a module another thread of this process is importing at the moment of
    the fork stays locked there forever (the thread that holds its lock is not copied). So `pickle` is imported
    here, before the fork, and `work` must only run code whose modules are loaded (`Document` readies its line pass
    first)."""
    if not hasattr(os, "fork"):
        return None
    import pickle  # noqa: F401  (see above: `_run` finds it loaded)

    with _FORKING:
        try:
            reader, writer = os.pipe()
        except OSError:
            return None
        # a Ctrl-C between the fork and the forked process's own `try` would run this program's handlers there
        mask = signal.pthread_sigmask(signal.SIG_BLOCK, _STOPPING)
        try:
            child = os.fork()
        except OSError:
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)
            os.close(reader)
            os.close(writer)
            return None
        if child == 0:  # pragma: no cover  (the forked process: coverage does not follow it)
            _run(work, reader, writer, mask)
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        os.close(writer)
    return Forked(child, reader)


def _run(work: Callable[[], object], reader: int, writer: int, mask: set[int | signal.Signals]) -> NoReturn:
    """In the forked process: `work`'s value pickled into `writer`; then the process ends, whatever happened (an
    interrupt too, once `mask`, the signals blocked before the fork, is restored)."""
    status = 1
    try:
        import pickle

        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        os.close(reader)
        value = work()
        with open(writer, "wb") as pipe:
            pickle.dump(value, pipe, pickle.HIGHEST_PROTOCOL)
        status = 0
    finally:
        os._exit(status)
