"""Vim 9 with ALE 3.3 (Debian's vim-ale), configured by editors/vim/ale_linters/jsonl/session_lsp.vim."""

from __future__ import annotations

import json
from pathlib import Path

from . import expectations
from .conftest import HERE, require, run_editor, which

ALE = Path("/usr/share/vim/vimfiles/pack/dist-bundle/opt/ale")


def test_vim_ale(server_env: dict[str, str], session_file: Path, tmp_path: Path) -> None:
    vim = require(which("vim"), "Vim")
    require(ALE if ALE.exists() else None, "vim-ale")
    env = {**server_env, "SESSION_LSP_PROBE": json.dumps(expectations.probe())}
    data = run_editor([vim, "-N", "-u", str(HERE / "vim" / "check.vim"), "-i", "NONE", "-n", "-es", str(session_file)],
                      env, tmp_path / "vim.json")
    assert data["filetype"] == "jsonl"
    assert data["ale_linters"] == ["session_lsp"]
    expectations.check_diagnostics(data["diagnostics"])
    hover = data["hover"]
    expectations.check_hover(hover["value"] if isinstance(hover, dict) else hover)
    expectations.check_definition(data["definition"])
    expectations.check_symbols(data["symbols"])
    expectations.check_code_actions(data["code_actions"])
