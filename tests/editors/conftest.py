"""Shared pieces of the real-editor tests: where each editor is, the broken session they open, how they run.

Each test drives one real editor headless against the real server (`session-lsp` from this checkout's venv, put
first on PATH so the editors' unmodified configurations find it), has the editor write what it saw as JSON, and
asserts on that here. An editor that is not installed fails the test under CI (`CI` set, other than false/0) and is
skipped otherwise; either way the message says how to install it.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
FIXTURE = HERE / "fixtures" / "broken-elyra.jsonl"
CACHE = Path(os.environ.get("SESSION_LSP_EDITORS_CACHE", Path.home() / ".cache" / "session-lsp-editors"))
INSTALL = "bash editors/install-test-editors.sh"
VENV_BIN = Path(sys.executable).parent


def require(found: str | Path | None, what: str, install: str = INSTALL) -> str:
    """The path of an editor, or fail (CI) / skip (otherwise) with the command that installs it."""
    if found and Path(found).exists():
        return str(found)
    message = f"{what} is not installed; install it with: {install}"
    if os.environ.get("CI", "").lower() not in ("", "0", "false", "no"):
        pytest.fail(message, pytrace=False)
    pytest.skip(message)


def which(name: str) -> str | None:
    return shutil.which(name)


@pytest.fixture
def server_env(tmp_path: Path) -> dict[str, str]:
    """An environment whose PATH starts with the venv that has `session-lsp`, and a HOME of its own so no user
    configuration of any editor is read."""
    executable = VENV_BIN / "session-lsp"
    assert executable.exists(), f"{executable} is missing: run `make setup`"
    home = tmp_path / "home"
    home.mkdir()
    env = {key: value for key, value in os.environ.items() if not key.startswith(("NVIM", "VIM", "EMACS"))}
    env.update(PATH=f"{VENV_BIN}{os.pathsep}{env.get('PATH', '')}", HOME=str(home),
               XDG_CONFIG_HOME=str(home / ".config"), XDG_DATA_HOME=str(home / ".local/share"),
               XDG_STATE_HOME=str(home / ".local/state"), XDG_CACHE_HOME=str(home / ".cache"), TERM="dumb")
    return env


@pytest.fixture
def session_file(tmp_path: Path) -> Path:
    """A copy of the broken Elyra session: editors write swap/backup files next to what they open."""
    target = tmp_path / "work" / FIXTURE.name
    target.parent.mkdir()
    shutil.copyfile(FIXTURE, target)
    return target


def fixture_lines() -> list[str]:
    return FIXTURE.read_text(encoding="utf-8").split("\n")


def position_of(needle: str, occurrence: int = 1) -> tuple[int, int]:
    """0-based (line, column) of the `occurrence`-th `needle` in the fixture (ASCII, so columns agree in every
    encoding)."""
    seen = 0
    for number, text in enumerate(fixture_lines()):
        start = 0
        while (column := text.find(needle, start)) >= 0:
            seen += 1
            if seen == occurrence:
                return number, column
            start = column + 1
    raise AssertionError(f"{needle!r} not in {FIXTURE}")


def line_of_id(entry_id: str) -> int:
    """0-based line of the entry whose id is `entry_id`."""
    return position_of(f'"id":"{entry_id}"')[0]


def run_editor(argv: Sequence[str], env: dict[str, str], result: Path, timeout: float = 60,
               cwd: Path | None = None) -> dict[str, Any]:
    """Run an editor script that writes its observations to `result` (JSON) and return them; on a failure show
    what the editor printed."""
    env = {**env, "SESSION_LSP_RESULT": str(result), "SESSION_LSP_ROOT": str(ROOT)}
    completed = subprocess.run(list(argv), env=env, cwd=cwd, stdin=subprocess.DEVNULL, capture_output=True,
                               timeout=timeout)
    output = (completed.stdout + completed.stderr).decode("utf-8", "replace")[-6000:]
    assert result.exists(), f"{argv[0]} exited {completed.returncode} without writing {result}:\n{output}"
    data: dict[str, Any] = json.loads(result.read_text(encoding="utf-8"))
    assert not data.get("errors"), f"{argv[0]} reported: {data['errors']}\n{output}"
    return data
