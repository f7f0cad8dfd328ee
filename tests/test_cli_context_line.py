"""`session-lsp context --line N` takes the entry on line N as the leaf, and refuses (exit 2, one line on stderr)
a line that holds no entry instead of quietly answering from pi's own leaf."""

from __future__ import annotations

from pathlib import Path

import pytest

from session_lsp import cli

GLUED = Path(__file__).parent / "cases" / "elyra" / "ELY002-concatenated-records.jsonl"  # 4 lines, line 3 glued


@pytest.mark.parametrize(("number", "says"), [
    ("0", "--line 0: lines are numbered from 1"),
    ("-2", "--line -2: lines are numbered from 1"),
    ("5", f"--line 5 is past the end: {GLUED} has 4 lines"),
    ("1", f"line 1 of {GLUED} is not an entry pi can take as the leaf (session v3)"),
    ("3", f"line 3 of {GLUED} is not an entry pi can take as the leaf (records glued together, pi skips the line)"),
])
def test_a_line_without_an_entry_is_refused(capsys: pytest.CaptureFixture[str], number: str, says: str) -> None:
    for output in ("text", "json"):
        assert cli.main(["context", str(GLUED), "--line", number, "--format", output]) == cli.EXIT_USAGE
        out, err = capsys.readouterr()
        assert out == ""
        assert err.startswith("session-lsp: error: ") and says in err and err.count("\n") == 1


def test_a_blank_line_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "blank.jsonl"
    path.write_bytes(GLUED.read_bytes().replace(b"\n", b"\n\n", 1))
    assert cli.main(["context", str(path), "--line", "2"]) == cli.EXIT_USAGE
    assert "(a blank line)" in capsys.readouterr().err


def test_an_entry_line_is_taken_as_the_leaf(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["context", str(GLUED), "--line", "2"]) == cli.EXIT_CLEAN
    out = capsys.readouterr().out
    assert out.splitlines()[0] == f"{GLUED}: pi 1.6 sends 1 message from the entry on line 2"
