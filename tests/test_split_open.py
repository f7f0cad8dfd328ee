"""A large document the server opens has the line pass of its second half run in a forked process, on the other
core (`Document(elsewhere=...)`, `server.documents.build`), as `check` splits a large file: what it reports, and
what an edit then reports, must be what one pass over the whole text gives."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from forks import Forks, Here

from session_lsp.analysis import Document, Options
from session_lsp.analysis.document import Waiting
from session_lsp.analysis.result_store import PlainResults
from session_lsp.forked import SPLIT_SIZES
from session_lsp.server.documents import build

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
FILES = sorted([*(TESTS / "corpus").rglob("*.jsonl"), *(TESTS / "cases").rglob("*.jsonl"),
                *(ROOT / "examples").rglob("*.jsonl")])

SMALL = TESTS / "corpus" / "elyra-pi-1.6-written" / "branched-with-summary.jsonl"

sys.path.insert(0, str(ROOT / "benchmarks"))
import generate  # noqa: E402


class Failed:
    """A process that failed: the lines after the cut are read here."""

    def __init__(self, work: Callable[[], PlainResults]) -> None:
        pass

    def result(self) -> None:
        return None


def assert_same(split: Document, whole: Document) -> None:
    assert split.format == whole.format
    assert list(split.results) == list(whole.results)
    assert split.diagnostics() == whole.diagnostics()
    assert list(split.lines) == list(whole.lines)


def text_of(path: Path) -> str:
    return path.read_bytes().decode("utf-8", "replace")


@pytest.mark.parametrize("path", FILES, ids=lambda path: str(path.relative_to(ROOT)))
def test_every_file_split_at_its_middle_gives_what_one_pass_gives(path: Path) -> None:
    options = Options(path=str(path), exists=os.path.exists)
    text = text_of(path)
    assert_same(Document(text, options, elsewhere=Here), Document(text, options))


@pytest.mark.parametrize("elsewhere", [Failed, lambda work: None], ids=["fails there", "cannot start"])
def test_a_second_half_not_read_elsewhere_is_read_here(
        elsewhere: Callable[[Callable[[], PlainResults]], Waiting[PlainResults] | None]) -> None:
    path = SMALL
    text = text_of(path)
    assert_same(Document(text, elsewhere=elsewhere), Document(text))


def test_only_a_text_with_a_line_after_its_middle_asks_for_a_second_process() -> None:
    asked: list[str] = []

    def elsewhere(work: Callable[[], PlainResults]) -> None:
        asked.append(text)

    for text in ("", '{"type":"session"}', "\n"):
        assert_same(Document(text, elsewhere=elsewhere), Document(text))
    assert asked == ["\n"]


@pytest.fixture(scope="module")
def large(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    """A generated Elyra session and thndrs log of a size the server splits, with torn lines on both sides of the
    middle (the Elyra file's calls are answered across it too)."""
    folder = tmp_path_factory.mktemp("large")
    texts = []
    for path in generate.generate(folder, entries=12_000, records=12_000):
        lines = path.read_text(encoding="utf-8").split("\n")
        for at in (40, len(lines) // 2 - 1, len(lines) // 2 + 1, len(lines) - 5):
            lines[at] = lines[at][: len(lines[at]) // 2]
        texts.append("\n".join(lines))
    assert all(len(text) in SPLIT_SIZES for text in texts)
    return texts[0], texts[1]


@pytest.mark.parametrize("which", [0, 1], ids=["elyra", "thndrs"])
def test_the_server_opens_a_large_file_in_two_processes_and_edits_it_as_one(
        large: tuple[str, str], which: int, monkeypatch: pytest.MonkeyPatch) -> None:
    text = large[which]
    forks = Forks(monkeypatch)
    opened = build("file:///tmp/large.jsonl", text, ())
    assert forks.count == 1
    whole = Document(text, Options(path="/tmp/large.jsonl", exists=os.path.exists))
    assert_same(opened, whole)
    assert {d.code for d in whole.diagnostics()} & {"ELY001", "THN001"}
    middle = len(whole.lines) // 2 + 3
    for document in (opened, whole):  # a line after the cut typed over, then one before it deleted
        document.edit(middle, 0, middle, len(document.lines[middle]), '{"type":"label"}')
        document.edit(10, 0, 11, 0, "")
    assert_same(opened, whole)


def test_a_small_file_is_opened_in_one_process(monkeypatch: pytest.MonkeyPatch) -> None:
    forks = Forks(monkeypatch)
    text = text_of(SMALL)
    assert len(text) not in SPLIT_SIZES
    assert_same(build("file:///tmp/small.jsonl", text, ()), Document(text, Options(path="/tmp/small.jsonl",
                                                                                  exists=os.path.exists)))
    assert forks.count == 0
