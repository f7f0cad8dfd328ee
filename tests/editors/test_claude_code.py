"""A session the real Claude Code 2.1.332 wrote, opened in real editors (Neovim 0.7 and 0.12, Emacs + Eglot, Vim +
ALE, VS Code): the diagnostics, the hover and the Session Tree are there right after the file opens, with nothing
clicked or typed first, through each editor's integration as it is shipped (nothing Claude-specific in any of them).

The file is the corpus's linear session (two prompts, parallel calls, a failed tool), copied unchanged but for one
link: the `parentUuid` of the record on line 22 names no record, so there is one warning to see (CCD020; Claude Code
links it to the record written last before it). Every other line is the CLI's own.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import time
from pathlib import Path

import pytest

from .conftest import HERE, ROOT, require, run_editor, which
from .test_neovim import FLAVOURS
from .test_vim import ALE
from .test_vscode import ARTIFACTS, BUDGET, PLAYWRIGHT, code_server  # noqa: F401  # the fixture, used by name

WRITTEN = ROOT / "tests" / "corpus" / "claude-code-2.1.332-written" / "d4e1977c-4507-4cf2-8923-34a626a3b3be.jsonl"
BROKEN_LINE = 21
"""0-based: the assistant text record whose parentUuid the copy points at nothing."""
DANGLING = "00000000-dead-4bad-8bad-000000000000"
LINKED_TO, LINKED_LINE = "d41cea18-f973-4751-9f10-a19961097692", 21
"""The record Claude Code links the broken one to (written last before it; 1-based line): its quick fix's target."""
CALL_LINE, CALL_ID = 23, "toolu_01hsrHoaZk91KMwFLSGDPTTU"
"""The tool_result on line 24 answering the Write call on line 23: the hover probe sits on its tool_use_id."""
PROMPT = "Create a small Python script greet.py"


@pytest.fixture
def claude_file(session_file: Path) -> Path:
    """The damaged copy, beside the Elyra fixture (the folder the editors open), under the name Claude Code gave it."""
    lines = WRITTEN.read_text(encoding="utf-8").split("\n")
    lines[BROKEN_LINE] = re.sub(r'"parentUuid":"[^"]+"', f'"parentUuid":"{DANGLING}"', lines[BROKEN_LINE], count=1)
    target = session_file.parent / WRITTEN.name
    target.write_text("\n".join(lines), encoding="utf-8")
    return target


def hover_position() -> tuple[int, int]:
    line = WRITTEN.read_text(encoding="utf-8").split("\n")[CALL_LINE]
    return CALL_LINE, line.index(f'"tool_use_id":"{CALL_ID}"') + len('"tool_use_id":"') + 2


def check_hover(text: str) -> None:
    """The call's card (as markdown from Neovim, rendered by VS Code)."""
    shown = text.replace("`", "").replace("*", "")
    assert "tool_use_id → line 23" in shown and "tool call Write" in shown, text
    assert "answered by line 24" in shown, text


@pytest.mark.parametrize("flavour", FLAVOURS)
def test_neovim_on_a_claude_code_session(flavour: str, server_env: dict[str, str], claude_file: Path,
                                         tmp_path: Path) -> None:
    find, what, version = FLAVOURS[flavour]
    nvim = require(find(), what)
    env = {**server_env, "SESSION_LSP_PROBE": json.dumps({"hover": hover_position()})}
    data = run_editor([nvim, "--headless", "-i", "NONE", "-u", str(HERE / "neovim" / "claude.lua"), str(claude_file)],
                      env, tmp_path / "nvim.json")
    assert data["version"].startswith(version)
    assert [(d["line"], d["code"]) for d in data["diagnostics"]] == [(BROKEN_LINE, "CCD020")], data["diagnostics"]
    message = data["diagnostics"][0]["message"]
    assert "links it to the record written last before it (line 21, by `timestamp`)" in message
    check_hover(data["hover"])
    assert [2, 44] in data["folds"] and [47, 57] in data["folds"], data["folds"]  # the two turns
    tree = "\n".join(data["tree"])
    assert f"user: {PROMPT}" in tree and "Write call" in tree, tree
    assert data["tree"][0].startswith("Claude Code, 34 entries"), data["tree"][0]
    assert any("assistant: Done." in row and "active leaf" in row for row in data["tree"]), tree  # the resume leaf
    assert data["notifications"] == [], data["notifications"]
    print(f"{flavour}: diagnostics {data['diagnostics_ms']:.0f} ms after Neovim started")


def _probe() -> str:
    """The positions the Emacs and Vim scripts use (check.el, check.vim): the hover (and definition) on the
    tool_use_id, the code actions on the broken line, and the tree's jump target."""
    return json.dumps({"hover": hover_position(), "action_line": BROKEN_LINE, "jump_line": CALL_LINE - 1})


def test_emacs_on_a_claude_code_session(server_env: dict[str, str], claude_file: Path, tmp_path: Path) -> None:
    emacs = require(which("emacs"), "Emacs")
    require(next(Path("/usr/share/emacs/site-lisp/elpa").glob("eglot-*"), None), "elpa-eglot")
    data = run_editor([emacs, "-Q", "--batch", "-l", str(HERE / "emacs" / "check.el"), str(claude_file)],
                      {**server_env, "SESSION_LSP_PROBE": _probe()}, tmp_path / "emacs.json")
    assert (data["mode"], data["server"]) == ("jsonl-mode", "session-lsp")
    assert [(d["line"], d["code"]) for d in data["diagnostics"]] == [(BROKEN_LINE, "CCD020")], data["diagnostics"]
    check_hover(data["hover"])
    assert data["definition"] == [CALL_LINE - 1]  # the tool_use_id goes to its call
    assert f"user: {PROMPT}" in data["symbols"][1], data["symbols"]
    assert data["tree"][0].startswith("Claude Code, 34 entries"), data["tree"]
    # the quick fix on the broken link points it where Claude Code links it (analysis/claude/fixes.py)
    assert [a["title"] for a in data["code_actions"] if a["has_edit"]] == [
        f'Set parentUuid to "{LINKED_TO}" (the record Claude Code links it to, written last before it, line '
        f'{LINKED_LINE}) (unsafe fix)'], data["code_actions"]


def test_vim_on_a_claude_code_session(server_env: dict[str, str], claude_file: Path, tmp_path: Path) -> None:
    vim = require(which("vim"), "Vim")
    require(ALE if ALE.exists() else None, "vim-ale")
    data = run_editor([vim, "-N", "-u", str(HERE / "vim" / "check.vim"), "-i", "NONE", "-n", "-es", str(claude_file)],
                      {**server_env, "SESSION_LSP_PROBE": _probe()}, tmp_path / "vim.json")
    assert data["ale_linters"] == ["session_lsp"]
    assert [(d["line"], d["code"]) for d in data["diagnostics"]] == [(BROKEN_LINE, "CCD020")], data["diagnostics"]
    check_hover(data["hover"]["value"] if isinstance(data["hover"], dict) else data["hover"])
    assert data["definition"] == [CALL_LINE - 1]
    assert data["symbols"][0] == f"user: {PROMPT} that prints a greetin…", data["symbols"]


def test_vscode_on_a_claude_code_session(claude_file: Path, code_server: dict[str, object],  # noqa: F811
                                         tmp_path: Path) -> None:
    out = tmp_path / "claude-e2e.json"
    line, column = hover_position()
    left = BUDGET - (time.monotonic() - float(code_server["started"]))  # type: ignore[arg-type]
    env = {**os.environ, "E2E_URL": str(code_server["url"]), "E2E_FILE": claude_file.name,
           "E2E_HOVER": f"{line},{column}", "E2E_WARNING": str(BROKEN_LINE), "E2E_OUT": str(out),
           "E2E_SCREENSHOTS": str(ARTIFACTS),
           "PLAYWRIGHT_CORE": str(PLAYWRIGHT), "CHROMIUM": str(which("chromium"))}
    ARTIFACTS.mkdir(exist_ok=True)
    completed = subprocess.run(["node", str(HERE / "vscode" / "claude.js")], env=env, capture_output=True, text=True,
                               timeout=max(left, 30))
    assert out.exists(), f"claude.js wrote nothing ({completed.returncode}):\n{completed.stdout}\n{completed.stderr}"
    data = json.loads(out.read_text())
    assert not data["errors"], f"{data['errors']}\n{json.dumps(data, indent=1)[:4000]}"

    # Right after the file opens, nothing clicked: its tree, its problem, its format in the status bar.
    on_open = " | ".join(data["tree_on_open"])
    assert f"user: {PROMPT}" in on_open, data["tree_on_open"]
    problems = " | ".join(data["problems"])
    assert "CCD020" in problems and "links it to the record written last before it" in problems, problems
    assert data["squiggles"] > 0
    assert "Claude Code" in data["status"], data["status"]
    check_hover(data["hover"])
    outline = " | ".join(data["outline"])
    assert PROMPT in outline, outline
