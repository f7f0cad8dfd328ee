"""The text :SessionContext shows, from the server's payload, rendered by the plugin's own Lua in the real Neovim
(Debian's 0.7): what a user reads when the context starts mid-conversation."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from .conftest import ROOT, require, which

PLUGIN = ROOT / "editors" / "neovim"


def _render_context(nvim: str, payload: dict[str, object], line: int, out: Path) -> list[str]:
    script = (f"set rtp+={PLUGIN}\n"
              f"lua local c = vim.fn.json_decode(vim.fn.readfile('{out}.in')[1]); "
              f"vim.fn.writefile({{vim.fn.json_encode(require('session_lsp.tree').render_context(c, {line}))}}, "
              f"'{out}')\nqa!\n")
    Path(f"{out}.in").write_text(json.dumps(payload), encoding="utf-8")
    Path(f"{out}.vim").write_text(script, encoding="utf-8")
    done = subprocess.run([nvim, "--headless", "-u", "NONE", "-i", "NONE", "-S", f"{out}.vim"],
                          stdin=subprocess.DEVNULL, capture_output=True, timeout=60, check=False)
    assert out.exists(), done.stderr.decode("utf-8", "replace")
    lines: list[str] = json.loads(out.read_text(encoding="utf-8"))
    return lines


def test_session_context_says_when_the_context_starts_mid_conversation(tmp_path: Path) -> None:
    nvim = require(which("nvim"), "Debian's neovim")
    cut = "pi's walk from the leaf stops at the entry on line 3: its parentId 'gone' names no entry in this file"
    payload = {"format": "elyra", "version": 3, "label": "Elyra v3", "leaf": 2, "cut_short": cut,
               "messages": [{"role": "user", "text": "again", "line": 2, "note": ""}]}
    lines = _render_context(nvim, payload, 2, tmp_path / "cut.json")
    assert lines[:2] == ["# Model context from line 3: 1 messages", f"Mid-conversation: {cut}."]
    whole = _render_context(nvim, {**payload, "cut_short": None}, 2, tmp_path / "whole.json")
    assert not any(line.startswith("Mid-conversation") for line in whole)


def test_session_context_says_when_codex_refuses_to_resume(tmp_path: Path) -> None:
    nvim = require(which("nvim"), "Debian's neovim")
    refused = "rollout at /s/rollout.jsonl does not start with session metadata"
    payload: dict[str, object] = {"format": "codex", "version": None, "label": "Codex", "leaf": None,
                                  "refused": refused, "messages": []}
    lines = _render_context(nvim, payload, 0, tmp_path / "refused.json")
    assert lines[:2] == ["# Model context from line 1: 0 messages",
                         f"The agent refuses to resume this file: {refused}. Nothing is sent."]
