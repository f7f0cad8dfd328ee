"""`forked.fork`: work run in a forked copy of this process, its value pickled back (the second half of a large
file's line pass, for `check` and for the server's open)."""

from __future__ import annotations

import os
import time
from collections.abc import Callable

import pytest

from session_lsp import forked


def _no_child_left() -> None:
    with pytest.raises(ChildProcessError):  # reaped: no process is left, not even one to reap
        os.waitpid(-1, os.WNOHANG)


def test_the_value_is_made_in_another_process_and_taken_once() -> None:
    here = os.getpid()
    child = forked.fork(lambda: (os.getpid(), [1, "two", {3: 4.0}]))
    assert child is not None
    found = child.result()
    assert found is not None
    pid, value = found
    assert pid != here and value == [1, "two", {3: 4.0}]
    assert child.result() is None  # taken already
    _no_child_left()


@pytest.mark.parametrize("work", [lambda: 1 / 0, lambda: (lambda: None), lambda: os._exit(3)],
                         ids=["raises", "does not pickle", "exits"])
def test_work_that_fails_there_gives_none(work: Callable[[], object]) -> None:
    child = forked.fork(work)
    assert child is not None and child.result() is None
    _no_child_left()


def test_a_process_stopped_before_its_value_is_taken_is_killed_and_its_pipe_closed() -> None:
    descriptors = len(os.listdir("/proc/self/fd"))
    child = forked.fork(lambda: time.sleep(60))
    assert child is not None
    started = time.monotonic()
    child.stop()
    assert time.monotonic() - started < 10 and child.result() is None
    assert len(os.listdir("/proc/self/fd")) == descriptors
    _no_child_left()


def test_a_fork_that_fails_leaves_the_work_to_the_caller(monkeypatch: pytest.MonkeyPatch) -> None:
    descriptors = len(os.listdir("/proc/self/fd"))

    def refused() -> int:
        raise BlockingIOError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(os, "fork", refused)
    assert forked.fork(lambda: 1) is None
    assert len(os.listdir("/proc/self/fd")) == descriptors


def test_a_process_whose_value_is_never_asked_for_is_stopped_when_forgotten() -> None:
    """Its starter failed before asking (an error between the fork and the join): dropping the last reference
    kills and reaps it."""
    descriptors = len(os.listdir("/proc/self/fd"))
    child = forked.fork(lambda: time.sleep(60))
    assert child is not None
    started = time.monotonic()
    del child
    assert time.monotonic() - started < 10
    assert len(os.listdir("/proc/self/fd")) == descriptors
    _no_child_left()
