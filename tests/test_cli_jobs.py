"""`session-lsp check -j N`: files checked in worker processes print exactly what one process prints, in the same
order, with the same exit status; and the progress line, which only a terminal gets."""

from __future__ import annotations

import io
import os
import pty
import re
import select
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from forks import Forks

from session_lsp import cli
from session_lsp.forked import SPLIT_SIZES

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import generate

CORPUS = Path(__file__).resolve().parent / "corpus"
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
CHECK = [sys.executable, "-m", "session_lsp", "check"]


def check(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([*CHECK, *args], input=stdin, capture_output=True, timeout=120)


@pytest.fixture(scope="module")
def corpus_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The corpus, plus a FIFO (a per-file read error) in the middle of the collection order."""
    folder = tmp_path_factory.mktemp("corpus")
    shutil.copytree(CORPUS, folder / "corpus")
    os.mkfifo(folder / "corpus" / "elyra" / "m-fifo.jsonl")
    return folder


@pytest.mark.parametrize("style", ["text", "concise", "json", "json-lines", "github", "sarif", "junit"])
def test_two_jobs_print_byte_for_byte_what_one_prints(style: str, corpus_folder: Path) -> None:
    files = sorted(str(path) for path in (corpus_folder / "corpus").rglob("*.jsonl"))
    assert len(files) > 10
    stdin = Path(next(f for f in files if "/confusables/" in f)).read_bytes()  # a file with a notice to print
    args = ["--output-format", style, "--min-severity", "hint", "-v", "--stdin-filename", "in.jsonl", files[3],
            str(corpus_folder), "-",
            "missing.jsonl"]
    one, two = check("-j", "1", *args, stdin=stdin), check("-j", "2", *args, stdin=stdin)
    assert _untimed(one.stdout, "1") == _untimed(two.stdout, "2")
    assert one.stderr == two.stderr
    assert one.returncode == two.returncode == cli.EXIT_USAGE
    assert b"m-fifo.jsonl: cannot read file (not a regular file" in two.stderr
    assert b"missing.jsonl: no such file or directory" in two.stderr
    assert two.stdout.count(b"in.jsonl") >= 1 and two.stdout.count(b"elyra") > 10


def _untimed(out: bytes, jobs: str) -> bytes:
    """The output without what differs between two runs of the same check: JUnit's times, and SARIF's start and
    end times and the `-j` of its command line."""
    out = re.sub(rb'(time|timestamp)="[^"]*"', rb'\1=""', out)
    out = re.sub(rb'"(startTimeUtc|endTimeUtc)": "[^"]*"', rb'"\1": ""', out)
    return re.sub(rb'("-j",\s*)"' + jobs.encode() + b'"', rb'\1"N"', out).replace(b"check -j " + jobs.encode(),
                                                                                  b"check -j N")


def test_one_large_file_on_two_cores_prints_byte_for_byte_what_one_process_prints(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A file of a size in `SPLIT_SIZES`, checked alone with two jobs, has its second half read by a forked
    process (`FileLines.split`): damage on both sides of the middle, and calls answered across it, are reported
    as one process reports them."""
    elyra, _ = generate.generate(tmp_path, entries=12_000, records=10)
    lines = elyra.read_bytes().split(b"\n")
    for at in (40, len(lines) // 2 - 1, len(lines) // 2 + 1, len(lines) - 5):
        lines[at] = lines[at][: len(lines[at]) // 2]  # a torn line
    elyra.write_bytes(b"\n".join(lines))
    assert elyra.stat().st_size in SPLIT_SIZES
    forks = Forks(monkeypatch)
    outputs = []
    for jobs in ("1", "2"):
        code = cli.main(["check", "-j", jobs, "--output-format", "json", "--min-severity", "hint", str(elyra)])
        outputs.append((code, capsys.readouterr()))
        assert forks.count == int(jobs) - 1
    assert outputs[0] == outputs[1]
    assert outputs[0][0] == cli.EXIT_FOUND and outputs[0][1].out.count('"ELY001"') == 4


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_exit_status_with_jobs(jobs: str, tmp_path: Path) -> None:
    clean = sorted(str(path) for path in (EXAMPLES / "clean").rglob("*.jsonl"))
    assert len(clean) > 1
    assert check("-j", jobs, *clean).returncode == cli.EXIT_CLEAN
    assert check("-j", jobs, str(EXAMPLES)).returncode == cli.EXIT_FOUND
    assert check("-j", jobs, "--fail-on", "never", str(EXAMPLES)).returncode == cli.EXIT_CLEAN
    assert check("-j", jobs, *clean, str(tmp_path / "gone.jsonl")).returncode == cli.EXIT_USAGE


@pytest.mark.parametrize("value", ["0", "-1", "two"])
def test_jobs_must_be_a_positive_number(value: str) -> None:
    done = check("-j", value, str(EXAMPLES))
    assert done.returncode == cli.EXIT_USAGE
    assert b"-j/--jobs" in done.stderr and done.stdout == b""


def test_the_default_is_the_usable_cores() -> None:
    usable = len(os.sched_getaffinity(0))
    assert cli.default_jobs() == usable
    assert cli.build_parser().parse_args(["check"]).jobs == usable


def test_chunks_stay_small_enough_to_balance() -> None:
    assert cli.chunk_size(2, 2) == 1
    assert cli.chunk_size(2000, 2) == 16
    assert cli.chunk_size(100, 2) == 6


# --- progress --------------------------------------------------------------------------------------------------


def many_files(folder: Path, count: int) -> Path:
    lines = (EXAMPLES / "clean").rglob("*.jsonl")
    data = next(lines).read_bytes()
    for number in range(count):
        (folder / f"s{number:04}.jsonl").write_bytes(data)
    return folder


def read_all(fd: int) -> bytes:
    out = b""
    while select.select([fd], [], [], 0.2)[0]:
        try:
            chunk = os.read(fd, 65536)
        except OSError:  # the other end is closed
            break
        if not chunk:
            break
        out += chunk
    return out


def test_a_long_run_shows_progress_on_a_terminal_and_clears_it(tmp_path: Path) -> None:
    total = cli.Progress.FILES + 1
    folder = many_files(tmp_path, total)
    controller, terminal = pty.openpty()
    try:
        done = subprocess.run([*CHECK, "-j", "2", str(folder)], stdout=subprocess.PIPE, stderr=terminal, timeout=120)
        shown = read_all(controller)
    finally:
        os.close(terminal)
        os.close(controller)
    assert done.returncode == cli.EXIT_CLEAN
    assert f"\rchecked {total}/{total} files".encode() in shown
    assert shown.endswith(b"\r\x1b[K")
    assert b"\r" not in done.stdout
    assert done.stdout.splitlines()[-1].startswith(f"{total} files checked: ".encode())


def test_no_progress_when_stderr_is_not_a_terminal(tmp_path: Path) -> None:
    folder = many_files(tmp_path, cli.Progress.FILES + 1)
    done = check("-j", "2", str(folder))
    assert done.returncode == cli.EXIT_CLEAN
    assert done.stderr == b""


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_few_files_get_progress_only_once_the_run_is_slow() -> None:
    clock, stream = Clock(), Terminal()
    progress = cli.Progress(5, stream, clock)
    progress.update(1)
    clock.now = 0.5
    progress.update(2)
    assert stream.getvalue() == ""
    clock.now = 1.0
    progress.update(3)
    clock.now = 1.05  # within the redraw interval: skipped
    progress.update(4)
    clock.now = 1.06  # the last file is always drawn
    progress.update(5)
    progress.clear()
    assert stream.getvalue() == "\rchecked 3/5 files\rchecked 5/5 files\r\x1b[K"


def test_one_file_or_a_pipe_never_gets_progress() -> None:
    clock = Clock()
    single, piped = Terminal(), io.StringIO()
    for progress in (cli.Progress(1, single, clock), cli.Progress(500, piped, clock)):
        clock.now += 10
        progress.update(1)
        progress.clear()
    assert single.getvalue() == piped.getvalue() == ""
