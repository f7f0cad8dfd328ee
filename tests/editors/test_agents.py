"""Sessions the real agents wrote (Claude Code 2.1.332, Codex 0.171.0, and a Codex rollout compressed as
`.jsonl.zst`), each damaged in one place, opened in real editors (Neovim 0.7 and 0.12, Emacs + Eglot, Vim + ALE,
VS Code): the diagnostics, the hover, definition and the tree or outline are there right after the file opens,
through each editor's integration as it is shipped. The editors' scripts are the same for every format (the pi
tests use them too); what each must show is the format's `cases.Case`.

A `.jsonl.zst` reaches the server as its text: Vim's and Neovim's gzip plugin and Emacs's auto-compression-mode
decompress it with the `zstd` program, and the VS Code extension opens it read-only through its own file system
(`sessionLsp.zst`), which asks the server for the text.
"""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from .cases import CASES, Case
from .conftest import HERE, require, run_editor, which
from .test_neovim import FLAVOURS
from .test_vim import ALE
from .test_vscode import ARTIFACTS, BUDGET, PLAYWRIGHT, code_server  # noqa: F401  # the fixture, used by name


@pytest.fixture(params=list(CASES))
def case(request: pytest.FixtureRequest) -> Case:
    found: Case = CASES[request.param]
    if found.compressed:
        require(which("zstd"), "the zstd program (the editors' gzip plugins and jka-compr decompress with it)")
    return found


@pytest.fixture
def session(case: Case, session_file: Path) -> Path:
    """The damaged copy, beside the Elyra fixture (the folder the editors open), under the agent's name for it."""
    return case.write(session_file.parent)


def _check_opened(case: Case, data: dict[str, object]) -> None:
    """The buffer holds the session's text (decompressed, for a .jsonl.zst)."""
    first = data.get("first_line")
    if first is not None:
        assert isinstance(first, str) and first == case.lines()[0], first


def _check_diagnostics(case: Case, diagnostics: list[dict[str, Any]]) -> None:
    assert sorted((d["line"], d["code"]) for d in diagnostics) == case.diagnostics, diagnostics
    first = min(diagnostics, key=lambda d: int(d["line"]))
    assert case.message in str(first["message"]), first


@pytest.mark.parametrize("flavour", FLAVOURS)
def test_neovim(flavour: str, case: Case, server_env: dict[str, str], session: Path, tmp_path: Path) -> None:
    find, what, version = FLAVOURS[flavour]
    nvim = require(find(), what)
    env = {**server_env, "SESSION_LSP_PROBE": json.dumps(case.probe())}
    data = run_editor([nvim, "--headless", "-i", "NONE", "-u", str(HERE / "neovim" / "check.lua"), str(session)],
                      env, tmp_path / "nvim.json")
    assert data["version"].startswith(version)
    assert data["filetype"] == "jsonl"
    _check_opened(case, data)
    _check_diagnostics(case, data["diagnostics"])
    case.check_hover(data["hover"])
    assert data["definition"] == [case.definition], data["definition"]
    for fold in case.folds:
        assert list(fold) in data["folds"], data["folds"]
    names = " | ".join(symbol["name"] for symbol in data["symbols"])
    tree = "\n".join(data["tree"])
    assert data["tree"][0].startswith(case.tree_head), data["tree"][0]
    for label in case.tree_texts:
        assert label in tree, tree
        assert label.partition(": ")[2][:30] in names, names
    assert data["jumped"] == {"buffer": True, "line": case.definition}, data["jumped"]
    assert data["notifications"] == [], data["notifications"]
    if case.leaf_message is not None:
        assert len(data["leaf"]["messages"]) == 1 and case.leaf_message in data["leaf"]["messages"][0], data["leaf"]
    else:
        assert data["leaf"]["messages"] == [] and data["leaf"]["line"] > 0, data["leaf"]
    print(f"{flavour} {case.name}: diagnostics {data['diagnostics_ms']:.0f} ms after Neovim started")


def test_emacs(case: Case, server_env: dict[str, str], session: Path, tmp_path: Path) -> None:
    emacs = require(which("emacs"), "Emacs")
    require(next(Path("/usr/share/emacs/site-lisp/elpa").glob("eglot-*"), None), "elpa-eglot")
    data = run_editor([emacs, "-Q", "--batch", "-l", str(HERE / "emacs" / "check.el"), str(session)],
                      {**server_env, "SESSION_LSP_PROBE": json.dumps(case.probe())}, tmp_path / "emacs.json")
    assert (data["mode"], data["server"]) == ("jsonl-mode", "session-lsp")
    _check_opened(case, data)
    _check_diagnostics(case, data["diagnostics"])
    case.check_hover(data["hover"])
    assert data["definition"] == [case.definition]
    symbols = " | ".join(data["symbols"])
    for label in case.tree_texts:
        assert label.partition(": ")[2][:30] in symbols, symbols
    assert data["tree"][0].startswith(case.tree_head), data["tree"]
    assert all(label in "\n".join(data["tree"]) for label in case.tree_texts), data["tree"]
    if case.actions:
        assert [a["title"] for a in data["code_actions"] if a["has_edit"]] == list(case.actions), data["code_actions"]


def test_vim(case: Case, server_env: dict[str, str], session: Path, tmp_path: Path) -> None:
    vim = require(which("vim"), "Vim")
    require(ALE if ALE.exists() else None, "vim-ale")
    data = run_editor([vim, "-N", "-u", str(HERE / "vim" / "check.vim"), "-i", "NONE", "-n", "-es", str(session)],
                      {**server_env, "SESSION_LSP_PROBE": json.dumps(case.probe())}, tmp_path / "vim.json")
    assert (data["filetype"], data["ale_linters"]) == ("jsonl", ["session_lsp"])
    _check_opened(case, data)
    _check_diagnostics(case, data["diagnostics"])
    case.check_hover(data["hover"])
    assert data["definition"] == [case.definition]
    symbols = " | ".join(data["symbols"])
    for label in case.tree_texts:
        assert label.partition(": ")[2][:30] in symbols, symbols


def test_vscode(case: Case, session: Path, code_server: dict[str, object], tmp_path: Path) -> None:  # noqa: F811
    out = tmp_path / f"{case.name}-e2e.json"
    line, column = case.hover_position()
    left = BUDGET - (time.monotonic() - float(code_server["started"]))  # type: ignore[arg-type]
    scenario = {"file": session.name, "hover": [line, column], "diagnostic": case.diagnostics[0][1],
                "status": case.status, "tree": case.tree_texts[0], "definition": True}
    env = {**os.environ, "E2E_URL": str(code_server["url"]), "E2E_CASE": json.dumps(scenario), "E2E_OUT": str(out),
           "E2E_SCREENSHOTS": str(ARTIFACTS), "PLAYWRIGHT_CORE": str(PLAYWRIGHT), "CHROMIUM": str(which("chromium"))}
    ARTIFACTS.mkdir(exist_ok=True)
    completed = subprocess.run(["node", str(HERE / "vscode" / "e2e.js")], env=env, capture_output=True, text=True,
                               timeout=max(left, 30))
    assert out.exists(), f"e2e.js wrote nothing ({completed.returncode}):\n{completed.stdout}\n{completed.stderr}"
    data = json.loads(out.read_text())
    assert not data["errors"], f"{data['errors']}\n{json.dumps(data, indent=1)[:4000]}"

    # Right after the file opens, nothing clicked: its tree, its problems, its format in the status bar.
    on_open = " | ".join(data["tree_on_open"])
    assert case.tree_texts[0] in on_open, data["tree_on_open"]
    problems = " | ".join(data["problems"])
    assert all(code in problems for _, code in case.diagnostics), problems
    assert case.message in problems, problems
    assert data["problem_position"].startswith(f"Ln {case.diagnostics[0][0] + 1},"), data["problem_position"]
    assert data["squiggles"] > 0
    assert case.status in data["status"], data["status"]
    case.check_hover(data["hover"])
    assert data["after_definition"].startswith(f"Ln {case.definition + 1},"), data["after_definition"]
    outline = " | ".join(data["outline"])  # the rows in view
    assert case.tree_texts[0].partition(": ")[2][:30] in outline, outline
    tree = " | ".join(data["tree_on_open"] + data["tree"])  # the rows in view, first at the top, then at the hover
    assert all(label in tree for label in case.tree_texts), tree
    if case.compressed:
        # Read-only, under the file's own name, with the text Codex wrote.
        assert data["tab"].startswith(session.name), data["tab"]
        assert case.lines()[0][:40] in data["first_line"], data["first_line"]
