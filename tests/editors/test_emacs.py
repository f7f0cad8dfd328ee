"""Emacs 28 in batch mode with Eglot 1.9 (Debian's elpa-eglot), configured by editors/emacs/session-lsp.el."""

from __future__ import annotations

import json
from pathlib import Path

from . import expectations
from .conftest import HERE, require, run_editor, which


def test_emacs_eglot(server_env: dict[str, str], session_file: Path, tmp_path: Path) -> None:
    emacs = require(which("emacs"), "Emacs")
    require("/usr/share/emacs/site-lisp/elpa/eglot-1.9" if Path("/usr/share/emacs/site-lisp/elpa/eglot-1.9").exists()
            else next(Path("/usr/share/emacs/site-lisp/elpa").glob("eglot-*"), None), "elpa-eglot")
    env = {**server_env, "SESSION_LSP_PROBE": json.dumps(expectations.probe())}
    data = run_editor([emacs, "-Q", "--batch", "-l", str(HERE / "emacs" / "check.el"), str(session_file)],
                      env, tmp_path / "emacs.json")
    assert data["mode"] == "jsonl-mode"
    assert data["server"] == "session-lsp"
    expectations.check_diagnostics(data["diagnostics"])
    expectations.check_hover(data["hover"])
    expectations.check_definition(data["definition"])
    expectations.check_symbols(data["symbols"])
    expectations.check_code_actions(data["code_actions"])
    expectations.check_tree(data["tree"])
