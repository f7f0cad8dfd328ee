"""`check` and `sessionLsp/analyzeFile` stream a file (`FileLines` feeding `Document.streamed`): the text is never
held, and what they report must be exactly what the in-memory analysis of the same bytes reports. Compared here on
every real file the project carries and on generated sessions; the property test in test_properties.py does the
same on damaged files at every chunk size."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from session_lsp.analysis import Document, Options
from session_lsp.analysis.document import analyze_bytes
from session_lsp.analysis.results import LineResult
from session_lsp.files import CHUNK, FileLines, NotReadable

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
FILES = sorted([*(TESTS / "corpus").rglob("*.jsonl"), *(TESTS / "cases").rglob("*.jsonl"),
                *(ROOT / "examples").rglob("*.jsonl")])

sys.path.insert(0, str(ROOT / "benchmarks"))
import generate  # noqa: E402


def assert_streamed_as_whole(path: Path, chunk: int = CHUNK) -> None:
    """With titles (as `sessionLsp/analyzeFile` reads a file) and without (as `check` does: its results are kept
    as `PlainResults`); the results without titles are those with them, less the titles."""
    titled: list[LineResult] = []
    for titles in (True, False):
        options = Options(path=str(path), exists=os.path.exists, titles=titles)
        whole = analyze_bytes(path.read_bytes(), options)
        with FileLines(str(path), chunk=chunk) as lines:
            streamed = Document.streamed(lines, options)
            assert streamed.format == whole.format
            assert isinstance(streamed.results, list) == titles
            assert list(streamed.results) == whole.results
            assert streamed.invalid_utf8 == whole.invalid_utf8
            assert streamed.diagnostics() == whole.diagnostics()
            assert list(streamed.lines) == list(whole.lines)
            if titles:
                titled = whole.results
            else:
                assert [(r.kind, r.facts, r.issues, r.parts) for r in whole.results] == [
                    (r.kind, r.facts, r.issues, r.parts) for r in titled]
                assert not any(r.title for r in streamed.results)


@pytest.mark.parametrize("path", FILES, ids=lambda path: str(path.relative_to(ROOT)))
@pytest.mark.parametrize("chunk", [CHUNK, 100])
def test_every_file_streamed_gives_the_diagnostics_of_its_bytes(path: Path, chunk: int) -> None:
    assert_streamed_as_whole(path, chunk)


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
