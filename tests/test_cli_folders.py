"""`check FOLDER` searches the user's sessions, not what tools keep beside them: version control, virtual
environments, node_modules and tool caches are left out unless named, `--exclude GLOB` leaves out more, and a
folder with nothing to check says so on stderr instead of reporting "0 files checked" as if all were well."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from session_lsp import cli

SESSION = Path(__file__).parent.parent / "examples" / "clean" / "elyra-branched.jsonl"


def _place(root: Path, *relative: str) -> None:
    for name in relative:
        target = root / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(SESSION, target)


def _checked(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[str], str]:
    """The exit status, the files `check -v` names, and stderr."""
    code = cli.main(["check", "-v", "-j", "1", "--fail-on", "never", *args])
    out, err = capsys.readouterr()
    return code, [line.split(":", 1)[0] for line in out.splitlines() if ": Elyra v3, " in line], err


def test_tool_folders_are_not_searched_unless_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _place(tmp_path, "mine/a.jsonl", "node_modules/pkg/b.jsonl", ".git/c.jsonl", "sub/.hg/d.jsonl", ".venv/e.jsonl",
           "__pycache__/f.jsonl", "env/g.jsonl", ".pi/sessions/h.jsonl")
    (tmp_path / "env" / "pyvenv.cfg").write_text("home = /usr/bin\n", encoding="utf-8")  # a venv by another name
    code, files, err = _checked(capsys, str(tmp_path))
    assert code == cli.EXIT_CLEAN and err == ""
    assert files == [str(tmp_path / ".pi/sessions/h.jsonl"), str(tmp_path / "mine/a.jsonl")]  # hidden is not skipped
    for named in ("node_modules", ".git", "env"):
        _, files, _ = _checked(capsys, str(tmp_path / named))
        assert len(files) == 1, named


def test_exclude_globs_match_names_and_paths(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _place(tmp_path, "keep/a.jsonl", "keep/a.bak.jsonl", "archive/2025/b.jsonl", "old/c.jsonl")
    _, files, _ = _checked(capsys, str(tmp_path), "--exclude", "archive", "--exclude", "*.bak.jsonl",
                           "--exclude", "old/*")
    assert files == [str(tmp_path / "keep/a.jsonl")]
    _, files, _ = _checked(capsys, str(tmp_path), "--exclude", str(tmp_path / "keep") + "*")
    assert files == [str(tmp_path / "archive/2025/b.jsonl"), str(tmp_path / "old/c.jsonl")]


def test_a_folder_with_nothing_to_check_warns(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "empty").mkdir()
    code, files, err = _checked(capsys, str(tmp_path / "empty"))
    assert (code, files) == (cli.EXIT_CLEAN, [])
    assert err == f"session-lsp: warning: {tmp_path / 'empty'}: no *.jsonl files found in this folder\n"
    _place(tmp_path, "project/node_modules/x/a.jsonl")
    (tmp_path / "project" / "notes.txt").write_text("no sessions here\n", encoding="utf-8")
    code, files, err = _checked(capsys, str(tmp_path / "project"))
    assert (code, files) == (cli.EXIT_CLEAN, [])
    assert err == (f"session-lsp: warning: {tmp_path / 'project'}: no *.jsonl files found in this folder; not "
                   f"searched: {tmp_path / 'project' / 'node_modules'} (name a folder to check it)\n")


def test_a_folder_with_files_says_nothing_more(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _place(tmp_path, "a.jsonl")
    (tmp_path / "empty").mkdir()
    _, files, err = _checked(capsys, str(tmp_path))
    assert files == [str(tmp_path / "a.jsonl")] and err == ""  # an empty subfolder of a folder with files is fine
