"""`session-lsp fix` and `check --fix` as a user runs them: what is written, --diff, --show-fixes, the exit status,
and the atomic write (mode kept, a file that changes meanwhile left alone)."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from session_lsp import atomic, cli
from session_lsp.analysis import Options
from session_lsp.analysis.document import analyze_bytes
from session_lsp.analysis.features import fix_document
from session_lsp.analysis.features.fixes import MAX_ROUNDS

FIXTURES = Path(__file__).parent / "fixtures" / "features"
BROKEN = (FIXTURES / "elyra-broken.jsonl").read_bytes()
"""A glued line (ELY002) and a hookMessage role (ELY024), safe; a dangling parent (ELY042) and a duplicate id
(ELY040), unsafe."""


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = cli.main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture
def broken(tmp_path: Path) -> Path:
    path = tmp_path / "broken.jsonl"
    path.write_bytes(BROKEN)
    return path


def safe_text() -> bytes:
    return fix_document(analyze_bytes(BROKEN)).text.encode()


def test_fix_writes_the_safe_fixes_and_reports_what_is_left(capsys: pytest.CaptureFixture[str],
                                                            broken: Path) -> None:
    status, out, _ = run(capsys, "fix", str(broken))
    assert broken.read_bytes() == safe_text() != BROKEN
    assert status == cli.EXIT_FOUND  # ELY042 and ELY040 are left: errors
    assert "ELY042" in out and "ELY002" not in out
    assert out.rstrip().endswith("fixed 2 problems in 1 file; 2 more fixable with --unsafe-fixes")


def test_unsafe_fixes_leave_no_error_and_exit_0(capsys: pytest.CaptureFixture[str], broken: Path) -> None:
    status, out, _ = run(capsys, "fix", "--unsafe-fixes", str(broken))
    assert status == cli.EXIT_CLEAN
    assert "0 errors" in out
    assert len(broken.read_bytes().split(b"\n")) == len(BROKEN.split(b"\n")) + 1  # one line more: the split


def test_check_fix_is_fix(capsys: pytest.CaptureFixture[str], broken: Path) -> None:
    status, _, _ = run(capsys, "check", "--fix", str(broken))
    assert status == cli.EXIT_FOUND and broken.read_bytes() == safe_text()


def test_diff_prints_and_writes_nothing(capsys: pytest.CaptureFixture[str], broken: Path) -> None:
    status, out, err = run(capsys, "fix", "--diff", str(broken))
    assert status == cli.EXIT_FOUND  # a file would change
    assert broken.read_bytes() == BROKEN
    assert out.startswith(f"--- a/{broken}\n+++ b/{broken}\n@@ ")
    assert '-{"type":"message","id":"dddd0008"' in out and '"role":"custom"' in out
    assert "would fix 2 problems in 1 file" in err


def test_diff_of_a_clean_file_exits_0(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "clean.jsonl"
    path.write_bytes(safe_text())
    assert run(capsys, "fix", "--diff", str(path))[:2] == (cli.EXIT_CLEAN, "")


def test_show_fixes_lists_each_fix(capsys: pytest.CaptureFixture[str], broken: Path) -> None:
    _, out, _ = run(capsys, "fix", "--show-fixes", str(broken))
    assert f"{broken}:4: fixed ELY002 (concatenated-records): Split into 2 lines" in out
    assert f'{broken}:9: fixed ELY024 (hook-message-in-v3): Rename role "hookMessage" to "custom"' in out


def test_ignored_rules_are_not_fixed(capsys: pytest.CaptureFixture[str], broken: Path) -> None:
    run(capsys, "fix", "--ignore", "ELY024", str(broken))
    assert b'"role":"hookMessage"' in broken.read_bytes() and b"}{" not in broken.read_bytes()


def test_standard_input_is_fixed_to_standard_output(capsys: pytest.CaptureFixture[str],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    import io
    import sys

    class Stdin:
        buffer = io.BytesIO(BROKEN)

    out = io.BytesIO()

    class Stdout(io.StringIO):
        buffer = out

    monkeypatch.setattr(sys, "stdin", Stdin())
    monkeypatch.setattr(sys, "stdout", Stdout())
    status = cli.main(["fix", "-"])
    assert out.getvalue() == safe_text()
    assert status == cli.EXIT_FOUND
    assert "ELY042" in capsys.readouterr().err


def test_invalid_utf8_is_written_only_with_its_fix(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "bytes.jsonl"
    data = BROKEN.replace(b"Glued A", b"Glued \xff")
    path.write_bytes(data)
    status, _, err = run(capsys, "fix", str(path))
    assert path.read_bytes() == data and status == cli.EXIT_USAGE
    assert "not valid UTF-8" in err
    run(capsys, "fix", "--unsafe-fixes", str(path))
    assert "Glued \ufffd".encode() in path.read_bytes()


def test_the_mode_is_kept(capsys: pytest.CaptureFixture[str], broken: Path) -> None:
    broken.chmod(0o640)
    run(capsys, "fix", str(broken))
    assert stat.S_IMODE(broken.stat().st_mode) == 0o640
    assert [name for name in os.listdir(broken.parent)] == [broken.name]  # no temporary file left


def test_a_file_appended_to_while_it_is_fixed_is_left_alone(capsys: pytest.CaptureFixture[str], broken: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """The agent appends a line between our read and our rename: the append survives, the fix is not written."""
    appended = b'{"type":"custom","customType":"x","data":{},"id":"eeee0001","parentId":null}\n'
    original = atomic.read

    def read_then_append(path: str):  # the first read is ours; the agent writes right after it
        found = original(path)
        monkeypatch.setattr(atomic, "read", original)
        with open(path, "ab") as out:
            out.write(appended)
        return found

    monkeypatch.setattr(atomic, "read", read_then_append)
    status, _, err = run(capsys, "fix", str(broken))
    assert broken.read_bytes() == BROKEN + appended
    assert "changed while it was being fixed" in err and "left as it was" in err
    assert status == cli.EXIT_FOUND
    assert [name for name in os.listdir(broken.parent)] == [broken.name]


def test_replace_refuses_a_file_whose_bytes_changed_with_the_same_size(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_bytes(b"abc\n")
    data, status = atomic.read(str(path))
    path.write_bytes(b"xyz\n")
    os.utime(path, ns=(status.st_atime_ns, status.st_mtime_ns))  # same size and time: only the bytes tell
    with pytest.raises(atomic.Changed):
        atomic.replace(str(path), b"new\n", data, status)
    assert path.read_bytes() == b"xyz\n"
    atomic.replace(str(path), b"new\n", b"xyz\n", atomic.read(str(path))[1])
    assert path.read_bytes() == b"new\n"


SESSION = "5d0c6a57-1b2e-4c3d-9e8f-0a1b2c3d4e5f"


def _cut_everywhere(count: int) -> str:
    """A Claude Code transcript of `count` prompts a minute apart, each but the first with a parentUuid that names
    nothing: Claude Code resumes the chain up to the first of those (nothing was written within 5 s before it to
    link it to by time), and relinking that one brings the next onto the chain, one a round (the cuts a null
    parentUuid makes are mended in one round; these are not)."""
    return "".join(json.dumps({"parentUuid": "gone" if n else None, "isSidechain": False, "type": "user",
                               "uuid": f"u{n}", "timestamp": f"2026-12-05T08:{n:02d}:00.000Z", "sessionId": SESSION,
                               "version": "2.1.332", "message": {"role": "user", "content": f"prompt {n}"}}) + "\n"
                   for n in range(count))


def test_the_last_round_that_leaves_no_fix_is_the_end(tmp_path: Path) -> None:
    """Twelve broken links take all twelve rounds: nothing is left after them, which is an end, not a stop."""
    repaired = fix_document(analyze_bytes(_cut_everywhere(13).encode(), Options(path=f"{SESSION}.jsonl")),
                            unsafe=True)
    assert len(repaired.applied) == MAX_ROUNDS and repaired.converged and not repaired.looped


def test_a_fix_that_uncovers_the_next_one_round_after_round_says_when_it_stopped_before_the_end(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """With more broken links than fix has rounds, fix says it stopped with fixes left, and a run again goes on."""
    path = tmp_path / f"{SESSION}.jsonl"
    path.write_text(_cut_everywhere(30), encoding="utf-8")
    status, out, _ = run(capsys, "fix", "--unsafe-fixes", str(path))
    assert "with fixes still to apply when fix stopped after its rounds" in out
    status, out, _ = run(capsys, "fix", "--unsafe-fixes", str(path))
    status, out, _ = run(capsys, "fix", "--unsafe-fixes", str(path))
    assert "fixes still to apply" not in out and status == 0
