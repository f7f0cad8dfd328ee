"""A document keeps no titles (63 bytes a line of a session pi wrote): `Document.title` names a line when a feature
reads it, and `Document.titled` hands a format the results with titles. A title must be the one the line pass names
the line with when it names lines, whatever edits came before, and making titles must not touch the results, the
link pass or the diagnostics."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from session_lsp.analysis import Document
from session_lsp.analysis.detect import leading_trim
from session_lsp.analysis.document import analyze_bytes
from session_lsp.analysis.result_store import PlainResults
from session_lsp.analysis.results import LineResult

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
FILES = sorted([*(TESTS / "corpus").rglob("*.jsonl"), *(TESTS / "cases").rglob("*.jsonl"),
                *(ROOT / "examples").rglob("*.jsonl")])
PI_WRITTEN = next(iter(sorted((TESTS / "corpus" / "elyra-pi-written").rglob("*.jsonl"))))

sys.path.insert(0, str(ROOT / "benchmarks"))
import generate  # noqa: E402


def named(document: Document) -> list[str]:
    """Every line's title as a line pass that names lines gives it, from a state of its own (ARCHITECTURE.md,
    invariant 11), the first line as the document reads it."""
    face = document.face
    state = face.line_state(document.options)
    face.show_titles(state)
    line_pass = face.line_pass(document.options)
    return [line_pass(text, document.format, state).title for text in document.lines]


def assert_named_when_read(data: bytes) -> None:
    document = analyze_bytes(data)
    assert isinstance(document.results, PlainResults)
    assert all(type(result) is not LineResult or not result.title for result in document.results)
    linked, diagnostics, results = document.linked, document.diagnostics(), document.results
    titled = document.titled
    assert [result.title for result in titled] == named(document)
    assert [(r.kind, r.facts, r.issues, r.parts) for r in titled] == [
        (r.kind, r.facts, r.issues, r.parts) for r in results]
    assert document.linked is linked and document.diagnostics() is diagnostics and document.results is results


def leads(path: Path) -> bool:
    """Whether the file starts with space JSON does not allow (a byte order mark, `\\f`): the format reads its
    first line without it (`test_a_first_line_after_space_json_does_not_allow_is_named_as_without_it`)."""
    return leading_trim(path.read_text(encoding="utf-8", errors="replace")) > 0


@pytest.mark.parametrize("path", [path for path in FILES if not leads(path)],
                         ids=lambda path: str(path.relative_to(ROOT)))
def test_every_line_is_named_as_the_line_pass_names_it(path: Path) -> None:
    assert_named_when_read(path.read_bytes())


def test_generated_sessions_are_named_as_the_line_pass_names_them(tmp_path: Path) -> None:
    elyra, thndrs = generate.generate(tmp_path, entries=3000, records=2000)
    assert_named_when_read(elyra.read_bytes())
    assert_named_when_read(thndrs.read_bytes())


@pytest.mark.parametrize("lead", [b"\xef\xbb\xbf", b"\f"])
def test_a_first_line_after_space_json_does_not_allow_is_named_as_without_it(lead: bytes) -> None:
    """pi reads the header after a byte order mark or a form feed (an issue says so), and so does its title."""
    data = PI_WRITTEN.read_bytes()
    led = analyze_bytes(lead + data)
    assert led.diagnostics()[0].span.line == 0 and led.title(0) == analyze_bytes(data).title(0) == "session v3"
    assert sum(path.read_bytes().startswith(lead) for path in FILES) >= 1


def test_titles_follow_edits() -> None:
    """An edit of a text, lines added and removed: each line is named as a fresh analysis of the text names it."""
    text = PI_WRITTEN.read_text()
    document = Document(text)
    first = document.lines[1]
    document.edit(1, 0, 1, len(first), first.replace('"content":"', '"content":"Edited: ', 1))
    document.edit(1, 0, 1, 0, document.lines[5] + "\n")
    document.edit(8, 0, 10, 0, "")
    assert document.title(2).startswith("user: Edited: ")
    assert list(document.titled) == list(Document(document.text).titled)
