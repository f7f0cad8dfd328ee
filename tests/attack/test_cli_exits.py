"""How the command line ends when its surroundings are hostile: one line on stderr that says why, no traceback,
and the exit status the README documents (0/1 by what was found, 2 when the run could not do its job, 130 for
Ctrl-C)."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SESSION = ROOT / "tests/corpus/elyra-pi-written/compacted.jsonl"
FILES = 400
"""Enough files that two workers are still busy when the first one is reported."""


def _folder(tmp_path: Path) -> Path:
    folder = tmp_path / "many"
    folder.mkdir()
    for number in range(FILES):
        shutil.copy(SESSION, folder / f"s{number:04}.jsonl")
    return folder


@pytest.fixture
def listening() -> Iterator[int]:
    """A port some other program listens on."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        yield taken.getsockname()[1]


def test_serve_on_a_busy_port_says_so_in_one_line(listening: int) -> None:
    run = subprocess.run([sys.executable, "-m", "session_lsp", "serve", "--tcp", f"127.0.0.1:{listening}"],
                         capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert run.returncode == 2
    assert run.stderr == f"session-lsp: error: cannot listen on 127.0.0.1:{listening}: Address already in use\n"


def _check_jobs(folder: Path, ignore_interrupt: bool) -> subprocess.Popen[bytes]:
    """`check -j 2 -v` in a process group of its own (so a signal to the group reaches it and its workers only);
    -v's line per file on stderr (line-buffered) says when the run is under way; unbuffered here, so the first
    line read leaves the rest in the pipe for `communicate`. SIGINT is set either way: a test run started as a
    background job inherits it ignored, which the run would then keep."""
    def before() -> None:
        signal.signal(signal.SIGINT, signal.SIG_IGN if ignore_interrupt else signal.SIG_DFL)
    return subprocess.Popen([sys.executable, "-m", "session_lsp", "check", "-j", "2", "-v", "--format", "json",
                             "--min-severity", "hint", str(folder)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            cwd=ROOT, bufsize=0, start_new_session=True, preexec_fn=before)


def _under_way(child: subprocess.Popen[bytes]) -> bytes:
    assert child.stderr is not None
    first = child.stderr.readline()
    assert first.endswith(b"s0000.jsonl: Elyra v3, 22 lines, 1 diagnostic\n"), first
    assert child.poll() is None, "the run ended before the signal: make it longer"
    return first


def test_an_inherited_ignored_interrupt_stays_ignored_by_the_workers(tmp_path: Path) -> None:
    """Started with SIGINT ignored (a background job, nohup), `check -j` ignores a Ctrl-C of its process group in
    its workers too: the run completes, with every file, and its usual exit status."""
    child = _check_jobs(_folder(tmp_path), ignore_interrupt=True)
    first = _under_way(child)
    os.killpg(child.pid, signal.SIGINT)
    out, err = child.communicate(timeout=300)
    stderr = (first + err).decode()
    assert "Traceback" not in stderr and "error" not in stderr, stderr[-2000:]
    assert child.returncode == 0
    assert stderr.count(", 22 lines, 1 diagnostic\n") == FILES
    assert out.count(b'"code":"ELY047"') == FILES


def test_a_killed_worker_is_one_line_and_status_2(tmp_path: Path) -> None:
    """A worker killed from outside (a signal, the OOM killer): what was checked is printed, one line says how
    many files were not, and the status is 2: the run could not do its job."""
    child = _check_jobs(_folder(tmp_path), ignore_interrupt=False)
    _under_way(child)
    workers = subprocess.run(["pgrep", "-P", str(child.pid)], capture_output=True, text=True).stdout.split()
    assert workers
    os.kill(int(workers[0]), signal.SIGKILL)
    out, err = child.communicate(timeout=300)
    stderr = err.decode()
    assert "Traceback" not in stderr, stderr[-2000:]
    assert child.returncode == 2
    last = stderr.splitlines()[-1]
    assert last.startswith("session-lsp: error: a worker process ended abruptly") and last.endswith("not checked")
    assert out.startswith(b"[") and out.rstrip().endswith(b"]")  # what was checked, as valid JSON


def test_ctrl_c_ends_a_run_with_status_130(tmp_path: Path) -> None:
    child = _check_jobs(_folder(tmp_path), ignore_interrupt=False)
    _under_way(child)
    os.killpg(child.pid, signal.SIGINT)
    _, err = child.communicate(timeout=300)
    assert "Traceback" not in err.decode()
    assert child.returncode == 130
