"""`check` and `sessionLsp/analyzeFile` stream a file (`FileLines` feeding `Document.streamed`): the text is never
held, and what they report must be exactly what the in-memory analysis of the same bytes reports. Compared here on
every real file the project carries and on generated sessions; the property test in test_properties.py does the
same on damaged files at every chunk size."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from forks import Forks

from session_lsp.analysis import Document, Options
from session_lsp.analysis.document import analyze_bytes, later_pass
from session_lsp.files import CHUNK, FileLines, NotReadable

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
FILES = sorted([*(TESTS / "corpus").rglob("*.jsonl"), *(TESTS / "cases").rglob("*.jsonl"),
                *(ROOT / "examples").rglob("*.jsonl")])

sys.path.insert(0, str(ROOT / "benchmarks"))
import generate  # noqa: E402

ANY_SIZE = range(1 << 62)


def assert_streamed_as_whole(path: Path, chunk: int = CHUNK, split_sizes: range | None = None) -> None:
    """The results, the diagnostics, the lines read back and every line's title, as `check` and
    `sessionLsp/analyzeFile` read a file. `split_sizes`: the file's second half read by a second process
    (`FileLines.split`), as `check` of one file does."""
    options = Options(path=str(path), exists=os.path.exists)
    whole = analyze_bytes(path.read_bytes(), options)
    with FileLines(str(path), chunk=chunk, split_sizes=split_sizes) as lines:
        streamed = Document.streamed(lines, options)
        assert streamed.format == whole.format
        assert list(streamed.results) == list(whole.results)
        assert streamed.invalid_utf8 == whole.invalid_utf8
        assert streamed.diagnostics() == whole.diagnostics()
        assert list(streamed.lines) == list(whole.lines)
        assert [streamed.title(number) for number in range(len(streamed.lines))] == [
            whole.title(number) for number in range(len(whole.lines))]


@pytest.mark.parametrize("path", FILES, ids=lambda path: str(path.relative_to(ROOT)))
@pytest.mark.parametrize("chunk", [CHUNK, 100])
def test_every_file_streamed_gives_the_diagnostics_of_its_bytes(path: Path, chunk: int) -> None:
    assert_streamed_as_whole(path, chunk)


@pytest.mark.parametrize("path", FILES, ids=lambda path: str(path.relative_to(ROOT)))
def test_every_file_split_across_two_processes_gives_the_diagnostics_of_its_bytes(path: Path) -> None:
    """Chunks of 100 bytes: the head read to detect the format leaves a second half to split off (in the files of
    more lines than detection reads)."""
    assert_streamed_as_whole(path, 100, split_sizes=ANY_SIZE)


@pytest.mark.parametrize("path", FILES, ids=lambda path: str(path.relative_to(ROOT)))
def test_a_line_pass_from_a_fresh_state_gives_every_line_its_result_in_the_whole_file(path: Path) -> None:
    """What a split relies on (ARCHITECTURE.md, invariant 11), in every format: the line pass started at any line
    gives the lines from there the results the file's own pass gives them."""
    options = Options(path=str(path), exists=os.path.exists)
    whole = analyze_bytes(path.read_bytes(), options)
    lines = list(whole.lines)
    for cut in sorted({1, len(lines) // 3, len(lines) // 2, len(lines) - 1} - {0}):
        later = later_pass(whole.format, options)(lines[cut:])
        assert list(later) == list(whole.results[cut:])


def test_the_files_compared_include_real_damage() -> None:
    """The comparison is worth something only if the files have diagnostics of every kind: link issues (columns
    read back from the file), line issues and invalid UTF-8."""
    codes = set()
    for path in FILES:
        codes |= {d.code for d in analyze_bytes(path.read_bytes(), Options(path=str(path))).diagnostics()}
    assert {"ELY001", "ELY002", "ELY006", "ELY042", "THN001", "THN033"} <= codes


def test_generated_sessions_streamed_give_the_diagnostics_of_their_bytes(tmp_path: Path) -> None:
    elyra, thndrs = generate.generate(tmp_path, entries=6000, records=3000)
    assert_streamed_as_whole(elyra)
    assert_streamed_as_whole(thndrs, chunk=4096)


def test_generated_sessions_split_across_two_processes_give_the_diagnostics_of_their_bytes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each file forks once: its second half is read by another process."""
    forks = Forks(monkeypatch)
    elyra, thndrs = generate.generate(tmp_path, entries=6000, records=3000)
    assert_streamed_as_whole(elyra, chunk=4096, split_sizes=ANY_SIZE)
    assert_streamed_as_whole(thndrs, chunk=4096, split_sizes=ANY_SIZE)
    assert forks.count == 2


def test_what_the_second_process_records_of_its_lines_is_numbered_after_the_first_s(tmp_path: Path) -> None:
    """A line too long to hold and invalid UTF-8 in the second half: their lines, and every line read back, are
    what one process streaming the whole file finds."""
    lines = [b'{"type":"session","version":3,"id":"s","timestamp":"2026-03-01T09:15:00.000Z"}']
    lines += [b'{"n":%d}' % number for number in range(1, 200)]
    lines[150] = b'{"long":"' + b"x" * 500 + b'"}'
    lines[160] = b'{"bad":"\xff"}'
    path = tmp_path / "s.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    found = []
    for split_sizes in (None, ANY_SIZE):
        with FileLines(str(path), chunk=64, max_line=100, split_sizes=split_sizes) as read:
            document = Document.streamed(read, Options())
            found.append((dict(read.too_long), list(read.invalid_utf8), list(read), list(document.results),
                          document.diagnostics()))
    assert found[0] == found[1]
    assert list(found[0][0]) == [150] and [span.line for span in found[0][1]] == [160]


def test_a_second_process_that_fails_leaves_its_lines_to_the_first(tmp_path: Path) -> None:
    """Its result does not pickle (a function), so that process ends with status 1: the first streams the lines it
    had left and runs the same `later` on them."""
    path = tmp_path / "s.jsonl"
    path.write_bytes(b"".join(b'{"n":%d}\n' % number for number in range(100)))
    with FileLines(str(path), chunk=16, split_sizes=ANY_SIZE) as lines:
        stream = lines.stream()
        first = [next(stream) for _ in range(3)]
        later = lines.split(lambda texts: (list(texts), lambda: None))
        assert later is not None
        first += list(stream)
        rest, _ = later()
        assert 3 < len(first) < 100 and first + rest == [f'{{"n":{number}}}' for number in range(100)] + [""]
        assert len(lines) == 101 and lines[99] == '{"n":99}' and lines[len(first)] == rest[0]


def test_a_file_cut_short_before_its_second_half_has_no_lines_past_its_end(tmp_path: Path) -> None:
    """The other process cuts the file to 30 % before it reads (as a writer truncating it meanwhile would): this
    stream meets the end before the split, so the lines after it are none, and the file is the lines read."""
    path = tmp_path / "s.jsonl"
    data = b"".join(b'{"n":%d}\n' % number for number in range(100))
    path.write_bytes(data)
    cut = len(data) * 3 // 10

    def later(texts: Iterator[str]) -> list[str]:
        os.truncate(path, cut)
        return list(texts)

    with FileLines(str(path), chunk=16, split_sizes=ANY_SIZE) as lines:
        stream = lines.stream()
        first = [next(stream) for _ in range(3)]
        rest = lines.split(later)
        assert rest is not None
        waited = time.monotonic()
        while path.stat().st_size != cut:  # until the other process has cut it
            assert time.monotonic() - waited < 30
            time.sleep(0.01)
        first += list(stream)
        assert rest() == []
        expected = data[:cut].decode().split("\n")
        assert first == expected and list(lines) == expected


def test_an_interrupt_while_waiting_for_the_second_process_stops_it(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C while this process waits for the other's result: the interrupt goes on as it is, and the other process
    is killed and reaped, its pipe closed."""
    path = tmp_path / "s.jsonl"
    path.write_bytes(b'{"n":1}\n' * 10_000)
    descriptors = len(os.listdir("/proc/self/fd"))
    waitpid = os.waitpid
    interrupted: list[int] = []

    def interrupting(pid: int, options: int) -> tuple[int, int]:
        if not interrupted:
            interrupted.append(pid)
            raise KeyboardInterrupt
        return waitpid(pid, options)

    with FileLines(str(path), chunk=16, split_sizes=ANY_SIZE) as lines:
        stream = lines.stream()
        next(stream)
        rest = lines.split(lambda texts: sum(1 for _ in texts))
        assert rest is not None
        list(stream)
        monkeypatch.setattr(os, "waitpid", interrupting)
        with pytest.raises(KeyboardInterrupt):
            rest()
    monkeypatch.undo()
    assert interrupted
    with pytest.raises(ChildProcessError):  # reaped: no process is left
        os.waitpid(-1, os.WNOHANG)
    assert len(os.listdir("/proc/self/fd")) == descriptors


def test_a_stream_left_early_stops_the_second_process(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_bytes(b'{"n":1}\n' * 100_000)
    with FileLines(str(path), chunk=16, split_sizes=ANY_SIZE) as lines:
        stream = lines.stream()
        next(stream)
        assert lines.split(lambda texts: sum(1 for _ in texts)) is not None
    with pytest.raises(ChildProcessError):  # no process is left, not even one to reap
        os.waitpid(-1, os.WNOHANG)


def test_lines_are_read_back_by_number_from_the_file_streamed(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_bytes(b'{"a":1}\r\nsecond \xff line\n\nlast')
    with FileLines(str(path), chunk=3) as lines:
        assert list(lines.stream()) == ['{"a":1}\r', "second \ufffd line", "", "last"]
        assert len(lines) == 4
        assert lines[1] == "second \ufffd line" and lines[-1] == "last" and lines[-4] == '{"a":1}\r'
        assert lines[1:3] == ["second \ufffd line", ""] and lines[::-2] == ["last", "second \ufffd line"]
        assert [(span.line, span.start, span.end) for span in lines.invalid_utf8] == [(1, 7, 8)]
        with pytest.raises(IndexError):
            lines[4]
        with pytest.raises(RuntimeError):
            next(lines.stream())
        path.rename(tmp_path / "moved.jsonl")  # the descriptor still reads the file that was streamed
        assert lines[0] == '{"a":1}\r'


def test_an_empty_file_is_one_empty_line_as_an_empty_text_is(tmp_path: Path) -> None:
    path = tmp_path / "empty.jsonl"
    path.write_bytes(b"")
    assert_streamed_as_whole(path)


def test_a_file_that_grows_past_the_limit_while_streamed_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "growing.jsonl"
    path.write_bytes(b"{}\n" * 10)
    with FileLines(str(path), max_bytes=40, chunk=8) as lines:
        with path.open("ab") as handle:
            handle.write(b"{}\n" * 10)
        with pytest.raises(NotReadable, match="grew past the limit of 40 bytes"):
            Document.streamed(lines)


def test_only_a_regular_file_is_opened(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    with pytest.raises(NotReadable, match="not a regular file"):
        FileLines(str(fifo))
    (tmp_path / "big.jsonl").write_bytes(b"{}\n" * 100)
    with pytest.raises(NotReadable, match="over the limit"):
        FileLines(str(tmp_path / "big.jsonl"), max_bytes=10)


def test_a_streamed_document_is_read_only(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_bytes(b"{}\n")
    with FileLines(str(path)) as lines:
        document = Document.streamed(lines)
        with pytest.raises(TypeError, match="read-only"):
            document.edit(0, 0, 0, 0, "x")
