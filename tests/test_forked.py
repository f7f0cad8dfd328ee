"""`forked.fork`: work run in a forked copy of this process, its value pickled back (the second half of a large
file's line pass, for `check` and for the server's open)."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from session_lsp import forked
from session_lsp.analysis import Document

ROOT = Path(__file__).resolve().parent.parent


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


@pytest.mark.parametrize(("call", "error"), [("fork", BlockingIOError(11, "Resource temporarily unavailable")),
                                             ("pipe", OSError(24, "Too many open files"))])
def test_a_fork_or_pipe_that_cannot_be_made_leaves_the_work_to_the_caller(
        monkeypatch: pytest.MonkeyPatch, call: str, error: OSError) -> None:
    descriptors = len(os.listdir("/proc/self/fd"))

    def refused() -> int:
        raise error

    monkeypatch.setattr(os, call, refused)
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


IMPORTING = '''
import importlib.abc, os, sys, threading, time
{prelude}

class Slow(importlib.abc.MetaPathFinder):
    """The other thread's import of the module takes a second, so the fork lands inside it."""
    def find_spec(self, name, path, target=None):
        if name == {module!r} and threading.current_thread().name == "importer":
            time.sleep(1.0)
        return None

assert {module!r} not in sys.modules
sys.meta_path.insert(0, Slow())
importer = threading.Thread(target=lambda: __import__({module!r}), name="importer")
importer.start()
time.sleep(0.2)  # the importer holds the module's lock now
box = []
waiting = threading.Thread(target=lambda: box.append({job}), daemon=True)
waiting.start()
waiting.join(20)
if not box:  # a forked process hangs: kill it rather than leave it behind
    for task in os.listdir("/proc/self/task"):
        for child in open(f"/proc/self/task/{{task}}/children").read().split():
            os.kill(int(child), 9)
print(box, flush=True)
os._exit(0)
'''


def _run_beside_an_import(module: str, prelude: str, job: str) -> str:
    """The expression `job` in a fresh interpreter while another thread is importing `module`; what it prints:
    `[value]`, or `[]` when it hung. A forked process that imports a module another thread held the lock of at the
    fork waits forever (that thread is not copied)."""
    done = subprocess.run([sys.executable, "-c", IMPORTING.format(module=module, prelude=prelude, job=job)],
                          capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_a_fork_while_another_thread_imports_pickle_does_not_hang() -> None:
    """`fork` pickles the value in the forked process: pickle is loaded before the fork, never in there."""
    printed = _run_beside_an_import("pickle", "from session_lsp import forked", "forked.fork(lambda: 42).result()")
    assert printed == "[42]\n"


def test_a_document_opened_while_another_thread_imports_its_line_pass_does_not_hang() -> None:
    """The server opens two large files at once: the line pass's modules are loaded (waiting for the other
    thread's import) before the fork, so the forked process imports nothing (`later_pass`)."""
    path = ROOT / "examples" / "clean" / "elyra-branched.jsonl"
    prelude = ("from session_lsp import forked\nfrom session_lsp.analysis import Document\n"
               f"text = open({str(path)!r}).read()")
    printed = _run_beside_an_import("session_lsp.analysis.elyra.line_pass", prelude,
                                    "Document(text, elsewhere=forked.fork).diagnostics()")
    assert printed == f"[{Document(path.read_text()).diagnostics()!r}]\n"


def test_a_fork_from_another_thread_never_holds_this_one_s_pipe_open(monkeypatch: pytest.MonkeyPatch) -> None:
    """The server opens two large documents at once: a process the other thread forks while this one's pipe is open
    for writing here would hold it open too, and this value would wait for that process's end. Here the other
    thread is asked to fork right after this fork, before this process closes its end, and its process takes 3 s."""
    fork = os.fork
    asked, forked_there = threading.Event(), threading.Event()

    def slowly() -> int:
        child = fork()
        if child and not asked.is_set():  # this thread's fork, in this process
            asked.set()
            forked_there.wait(1)  # the other thread can only fork once this one has closed its end
        return child

    def there() -> None:
        asked.wait(10)
        slow = forked.fork(lambda: time.sleep(3))
        forked_there.set()
        assert slow is not None
        slow.result()

    other = threading.Thread(target=there)
    other.start()
    monkeypatch.setattr(os, "fork", slowly)
    child = forked.fork(lambda: 42)
    assert child is not None
    started = time.monotonic()
    assert child.result() == 42
    waited = time.monotonic() - started
    other.join()
    assert waited < 2
