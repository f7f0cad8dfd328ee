"""Hostile input given to `session-lsp check`, each case in a subprocess with a wall-clock and a memory bound:
no traceback, no hang, the exit status a user can rely on, and the diagnostic that says what pi does.

Bounds are generous (a loaded 2-core CI machine); they catch a hang, quadratic time or a blow-up, not a slowdown.
Inputs are generated in the test's temporary folder, never committed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.parse
from collections.abc import Callable
from pathlib import Path
from xml.etree import ElementTree

import msgspec
import pytest

HEADER = b'{"type":"session","version":3,"id":"x","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/"}\n'
USER = (b'{"type":"message","id":"a0000001","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z",'
        b'"message":{"role":"user","content":"hi","timestamp":1767225601000}}\n')
MIB = 1024 * 1024
ROOT = Path(__file__).resolve().parents[2]


class Run(msgspec.Struct):
    status: int
    stdout: str
    stderr: str
    seconds: float
    peak_mib: float


def check(*args: str, timeout: float) -> Run:
    """`session-lsp check --format json ARGS` in a child process, killed past `timeout`."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err, \
            tempfile.NamedTemporaryFile("r") as peak:
        started = time.monotonic()
        child = subprocess.Popen([sys.executable, "-m", "tests.attack.peak", "check", "--format", "json",
                                  "--min-severity", "hint", *args],
                                 stdout=out, stderr=err, cwd=ROOT,
                                 env={**os.environ, "SESSION_LSP_PEAK_FILE": peak.name})
        try:
            status = child.wait(timeout)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()
            raise AssertionError(f"check did not finish within {timeout} s") from None
        seconds = time.monotonic() - started
        out.seek(0)
        err.seek(0)
        return Run(status, out.read().decode("utf-8", "replace"), err.read().decode("utf-8", "replace"),
                   seconds, sum(map(int, peak.read().split())) / 1024)  # with the forked reader's, if any


def _codes(run: Run) -> set[str]:
    return {item["code"] for item in msgspec.json.decode(run.stdout)} if run.stdout.strip() else set()


def _deep_array(n: int) -> bytes:
    return HEADER + b"[" * n + b"]" * n + b"\n"


def _deep_field(n: int) -> bytes:
    return HEADER + USER[:-2] + b',"extra":' + b'{"a":' * n + b"1" + b"}" * n + b"}\n"


def _unclosed(n: int) -> bytes:
    return HEADER + b"[" * n + b"\n"


def _long_line(text: bytes) -> bytes:
    return HEADER + USER.replace(b'"content":"hi"', b'"content":"' + text + b'"')


def _tiny_lines(count: int) -> bytes:
    return HEADER + b"[]\n" * count


def _glued(count: int) -> bytes:
    return HEADER + b"{}" * count + b"\n"


CASES: dict[str, tuple[Callable[[], bytes], int, set[str], float, float]] = {
    # name: (content, exit status, codes that must be reported, seconds, MiB)
    "deep array, 100,000 levels": (lambda: _deep_array(100_000), 1, {"ELY003", "ELY007"}, 30, 400),
    "deep object in a field, 100,000 levels": (lambda: _deep_field(100_000), 0, {"ELY007"}, 30, 400),
    "unclosed deep array": (lambda: _unclosed(100_000), 1, {"ELY001"}, 30, 400),
    "deep, then an unclosed string of 100,000 escaped quotes":
        (lambda: HEADER + b"[" * 600 + b'"' + b'\\"' * 100_000 + b"\n", 1, {"ELY001"}, 30, 400),
    "deep object in a field, 1,000,000 levels (6 MB)": (lambda: _deep_field(1_000_000), 0, {"ELY007"}, 60, 800),
    "20 MB single line": (lambda: _long_line(b"x" * 20 * MIB), 0, set(), 30, 400),
    "20 MB of escapes in one string": (lambda: _long_line(b"\\n" * 10 * MIB), 0, set(), 30, 400),
    "1,000,000 tiny lines": (lambda: _tiny_lines(1_000_000), 1, {"ELY003"}, 120, 3000),
    "NUL bytes": (lambda: HEADER + b'{"type":"message",\x00"id":"a"}\n', 1, {"ELY001"}, 30, 400),
    "invalid UTF-8": (lambda: HEADER + USER.replace(b"hi", b"h\xff\xfei"), 1, {"ELY006"}, 30, 400),
    "lone surrogate escapes": (lambda: HEADER + USER.replace(b"hi", b"\\ud800 \\udfff"), 0, set(), 30, 400),
    "byte order mark": (lambda: b"\xef\xbb\xbf" + HEADER + USER, 1, {"ELY008"}, 30, 400),
    "CRLF line ends": (lambda: (HEADER + USER).replace(b"\n", b"\r\n"), 0, set(), 30, 400),
    "100,000 glued records": (lambda: _glued(100_000), 1, {"ELY002"}, 30, 400),
    "400,000 glued records": (lambda: _glued(400_000), 1, {"ELY002"}, 30, 600),
}


@pytest.mark.parametrize("name", CASES)
def test_hostile_file(name: str, tmp_path: Path) -> None:
    content, status, codes, seconds, mib = CASES[name]
    path = tmp_path / "hostile.jsonl"
    path.write_bytes(content())
    run = check(str(path), timeout=seconds * 2)
    assert "Traceback" not in run.stderr, run.stderr[-2000:]
    assert run.status == status, run.stderr[-2000:]
    assert codes <= _codes(run)
    assert run.seconds < seconds, f"{run.seconds:.1f} s"
    assert run.peak_mib < mib, f"{run.peak_mib:.0f} MiB"


@pytest.mark.parametrize("make", ["fifo", "/dev/zero", "directory named .jsonl"])
def test_what_is_not_a_regular_file_is_refused_at_once(make: str, tmp_path: Path) -> None:
    """A FIFO with no writer would block a reader forever and /dev/zero never ends: a clear error, status 2."""
    if make == "fifo":
        target = tmp_path / "pipe.jsonl"
        os.mkfifo(target)
    elif make == "/dev/zero":
        target = Path("/dev/zero")
    else:
        target = tmp_path / "folder.jsonl"
        target.mkdir()
        (target / "inside.txt").write_text("not a session")
    run = check(str(target), timeout=20)
    assert "Traceback" not in run.stderr
    if make == "directory named .jsonl":
        assert run.status == 0 and run.stdout.strip() == "[]"
    else:
        assert run.status == 2 and "not a regular file" in run.stderr


def test_a_symlink_loop_and_an_unreadable_file_in_a_folder(tmp_path: Path) -> None:
    """os.walk does not follow links, so a loop ends; a .jsonl that cannot be opened (here a dangling link, which
    stays unreadable when the tests run as root) is an error for that file, and the other files are checked."""
    (tmp_path / "loop").symlink_to(tmp_path)
    (tmp_path / "gone.jsonl").symlink_to(tmp_path / "missing-target.jsonl")
    (tmp_path / "good.jsonl").write_bytes(HEADER + USER)
    run = check(str(tmp_path), timeout=20)
    assert "Traceback" not in run.stderr
    assert run.status == 2 and "gone.jsonl: cannot read file" in run.stderr


@pytest.mark.parametrize("style", ["text", "concise", "json", "json-lines", "github", "sarif", "junit"])
def test_a_file_name_that_is_not_utf8_is_printed_in_every_format(style: str, tmp_path: Path) -> None:
    """File names are bytes: one that is not UTF-8 is printed with those bytes escaped (`\\xNN` in text, GitHub
    annotations and JUnit, `\\udcNN` in JSON, from which os.fsencode gives the bytes back, `%FF` in SARIF's URIs,
    from which unquote_to_bytes does), on a strict UTF-8 stdout."""
    folder = tmp_path / "sessions"
    folder.mkdir()
    name = b"bad\xff\xfe name.jsonl"
    (folder / os.fsdecode(name)).write_bytes(HEADER + USER.replace(b'"role":"user"', b'"role":["user"]'))
    run = subprocess.run([sys.executable, "-m", "session_lsp", "check", "--format", style, "-v", str(folder)],
                         capture_output=True, cwd=ROOT, timeout=60,
                         env={**os.environ, "PYTHONIOENCODING": "utf-8:strict", "LC_ALL": "C.UTF-8"})
    stdout, stderr = run.stdout.decode("utf-8"), run.stderr.decode("utf-8")  # both valid UTF-8
    assert "Traceback" not in stderr, stderr
    assert run.returncode == 1, stderr
    shown = str(folder) + "/bad\\xff\\xfe name.jsonl"
    exact = bytes(folder) + b"/" + name
    if style in ("json", "json-lines"):
        # msgspec refuses a lone surrogate escape; JSON allows it
        items = json.loads(stdout) if style == "json" else [json.loads(line) for line in stdout.splitlines()]
        assert {item["code"] for item in items} >= {"ELY033"}
        assert {os.fsencode(item["path"]) for item in items} == {exact}
        assert shown in stderr  # the -v line
    elif style == "text":
        assert stdout.startswith(f"{shown}: Elyra v3, 2 lines, 2 diagnostics\n  2:")
    elif style == "concise":
        assert f"{shown}:2:" in stdout and f"{shown}: Elyra v3, 2 lines" in stdout
    elif style == "sarif":
        [result] = [r for r in json.loads(stdout)["runs"][0]["results"] if r["ruleId"] == "ELY033"]
        address = result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        assert urllib.parse.unquote_to_bytes(address.removeprefix("file://")) == exact
        assert shown in stderr
    elif style == "junit":
        suites = ElementTree.fromstring(stdout)
        assert [suite.get("name") for suite in suites] == [shown]
        assert shown in stderr
    else:
        assert f"file={shown.replace(':', '%3A').replace(',', '%2C')},line=2," in stdout


def test_a_missing_path_that_is_not_utf8_is_named_in_its_error(tmp_path: Path) -> None:
    missing = os.fsdecode(bytes(tmp_path) + b"/gone\xff.jsonl")
    run = subprocess.run([sys.executable, "-m", "session_lsp", "check", missing], capture_output=True, cwd=ROOT,
                         timeout=60, env={**os.environ, "PYTHONIOENCODING": "utf-8:strict", "LC_ALL": "C.UTF-8"})
    stderr = run.stderr.decode("utf-8")
    assert run.returncode == 2 and "Traceback" not in stderr
    assert stderr.strip() == f"session-lsp: error: {tmp_path}/gone\\xff.jsonl: no such file or directory"


def _sparse(path: Path, head: bytes, size: int, tail: bytes) -> None:
    """`head`, then NUL bytes up to `size` that take no disk space (a hole, as `truncate -s` makes), then `tail`."""
    with path.open("wb") as out:
        out.write(head)
        out.truncate(size)
        out.seek(size)
        out.write(tail)


GIB = 1024 * MIB


@pytest.mark.parametrize("where", ["a 2 GiB file of NULs without a newline", "a 600 MiB line between two entries"])
def test_a_line_too_long_to_hold_is_reported_without_holding_it(where: str, tmp_path: Path) -> None:
    """A line past the longest JavaScript string (pi throws "Invalid string length" reading it) is dropped as it
    is read: SLS002 says how long it was, the lines after it are checked, and memory stays near the limit (the
    line is put together up to the limit, then only its end is looked for); 6.3 GB was the peak before."""
    path = tmp_path / "huge.jsonl"
    if where.startswith("a 2 GiB"):
        _sparse(path, b"", 2 * GIB, b"")
        codes, status = {"SLS002"}, 1
    else:
        _sparse(path, HEADER, len(HEADER) + 600 * MIB, b"\n" + USER.replace(b'"parentId":null', b'"parentId":"a0"'))
        codes, status = {"SLS002", "ELY042"}, 1
    run = check(str(path), timeout=600)
    assert "Traceback" not in run.stderr, run.stderr[-2000:]
    assert run.status == status, run.stderr[-2000:]
    assert codes <= _codes(run)
    items = msgspec.json.decode(run.stdout)
    line = next(item for item in items if item["code"] == "SLS002")
    assert line["line"] == (1 if where.startswith("a 2 GiB") else 2)
    expected = 2 * GIB if where.startswith("a 2 GiB") else 600 * MIB
    assert f"a line of {expected:,} bytes" in line["message"]
    assert run.peak_mib < 1024, f"{run.peak_mib:.0f} MiB"
