"""Bare `session-lsp` in a terminal is the language server waiting for an editor: it says so on stderr, with how
to run `check` instead. Started by an editor (stdin a pipe) it writes nothing but the protocol."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
import time

import pytest

COMMAND = [sys.executable, "-m", "session_lsp"]


def _stderr_within(process: subprocess.Popen[bytes], seconds: float) -> bytes:
    """What the process wrote on stderr before it went quiet for a second (or `seconds` ran out)."""
    assert process.stderr is not None
    got = b""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        ready, _, _ = select.select([process.stderr], [], [], 1.0 if got else deadline - time.monotonic())
        if not ready:
            break
        chunk = os.read(process.stderr.fileno(), 4096)
        if not chunk:
            break
        got += chunk
    return got


@pytest.mark.parametrize("args", [[], ["serve"], ["serve", "--stdio"]])
def test_in_a_terminal_it_says_what_it_waits_for(args: list[str]) -> None:
    main, terminal = pty.openpty()
    process = subprocess.Popen([*COMMAND, *args], stdin=terminal, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    os.close(terminal)
    try:
        said = _stderr_within(process, 30).decode()
        assert process.poll() is None  # still serving: the message does not end it
    finally:
        process.kill()
        process.wait(timeout=30)
        os.close(main)
    assert "the language server: it waits for an editor's LSP messages" in said
    assert "run `session-lsp check PATH...`" in said
    assert said.count("\n") == 2


def test_started_by_an_editor_it_says_nothing() -> None:
    process = subprocess.Popen(COMMAND, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdin is not None
    try:
        said = _stderr_within(process, 5)
    finally:
        process.stdin.close()  # end of input: the server stops
        process.wait(timeout=30)
    assert said == b""
